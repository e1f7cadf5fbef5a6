/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the streaming KTAP parser, on captured console logs. */
#include <string.h>

#include "ktap.h"
#include "test-data.h"

#define US_PER_LINE 1000

/*
 * Feeds a captured log line by line, as the runner does; line i arrives at i
 * ms.
 */
static KtapParser *parse_log(const char *name, gboolean finish)
{
    KtapParser *parser = ktap_parser_new();
    g_auto(GStrv) lines = test_data_lines(name);
    guint n = g_strv_length(lines) + 1; /* the newline ends a last line */

    for (guint i = 0; lines[i]; i++) {
        ktap_parser_feed(parser, lines[i], (gint64)(i + 1) * US_PER_LINE);
    }
    if (finish) {
        ktap_parser_finish(parser, (gint64)(n + 1) * US_PER_LINE);
    }
    return parser;
}

static KtapParser *parse_lines(const char *const *lines, gboolean finish)
{
    KtapParser *parser = ktap_parser_new();
    gint64 now = 0;

    for (; *lines; lines++) {
        ktap_parser_feed(parser, *lines, now += US_PER_LINE);
    }
    if (finish) {
        ktap_parser_finish(parser, now + US_PER_LINE);
    }
    return parser;
}

static void dump_test(GString *out, const KtapTest *t, int depth)
{
    g_string_append_printf(out, "%*s%s #%d %s", depth * 2, "", t->name,
                           t->number, ktap_result_name(t->result));
    if (t->plan >= 0) {
        g_string_append_printf(out, " plan=%d", t->plan);
    }
    if (t->reason) {
        g_string_append_printf(out, " (%s)", t->reason);
    }
    g_string_append_c(out, '\n');
    for (guint i = 0; i < t->subtests->len; i++) {
        dump_test(out, g_ptr_array_index(t->subtests, i), depth + 1);
    }
}

/*
 * The tree below root, one test a line: "name #number result plan=N (reason)".
 */
static char *dump_tree(KtapParser *parser)
{
    KtapTest *root = ktap_parser_root(parser);
    GString *out = g_string_new(NULL);

    for (guint i = 0; i < root->subtests->len; i++) {
        dump_test(out, g_ptr_array_index(root->subtests, i), 0);
    }
    return g_string_free(out, FALSE);
}

static KtapTest *child(KtapTest *t, guint i)
{
    g_assert_cmpuint(i, <, t->subtests->len);
    return g_ptr_array_index(t->subtests, i);
}

static void assert_counts(const KtapTest *t, guint passed, guint failed,
                          guint skipped, guint incomplete)
{
    guint p, f, s, n;

    ktap_test_count(t, &p, &f, &s, &n);
    g_assert_cmpuint(p, ==, passed);
    g_assert_cmpuint(f, ==, failed);
    g_assert_cmpuint(s, ==, skipped);
    g_assert_cmpuint(n, ==, incomplete);
}

static void test_all_pass(void)
{
    g_autoptr(KtapParser) parser = parse_log("all-pass.log", TRUE);
    KtapTest *root = ktap_parser_root(parser);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(tree, ==,
                    "memfd #1 pass plan=3\n"
                    "  memfd_create with MFD_CLOEXEC #1 pass\n"
                    "  memfd sealing F_SEAL_WRITE #2 pass\n"
                    "  memfd hugetlb fallback #3 pass\n");
    g_assert_cmpstr(root->name, ==, "");
    g_assert_cmpint(root->plan, ==, 1);
    assert_counts(root, 3, 0, 0, 0);
    assert_counts(child(root, 0), 3, 0, 0, 0);
    g_assert_true(child(child(root, 0), 2)->parent == child(root, 0));
}

static void test_fail_skip_todo(void)
{
    g_autoptr(KtapParser) parser = parse_log("fail-skip.log", TRUE);
    KtapTest *root = ktap_parser_root(parser);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(
        tree, ==,
        "mount_setattr #1 fail plan=6\n"
        "  mount_setattr_invalid_attributes #1 pass\n"
        "  mount_setattr_idmapped #2 fail (expected 0, got -22)\n"
        "  mount_setattr_time #3 skip (CONFIG_TMPFS_XATTR not set)\n"
        "  mount_setattr_nosymfollow #4 skip (known failure on arm64)\n"
        "  #5 #5 skip (no idmapped mounts)\n"
        "  mount_setattr_propagation #6 fail\n"
        "pidfd #2 pass plan=2\n"
        "  pidfd_open #1 pass\n"
        "  pidfd_send_signal #2 pass\n");
    assert_counts(root, 3, 2, 3, 0);
    assert_counts(child(root, 0), 1, 2, 3, 0);

    /* diagnostics before a result line belong to that test */
    KtapTest *suite = child(root, 0);
    g_assert_cmpstr(child(suite, 1)->log->str, ==,
                    "# mount_setattr_idmapped: mount_setattr() returned -22 "
                    "(Invalid argument)\n"
                    "# mount_setattr_idmapped: expected 0, got -22\n");
    g_assert_cmpstr(child(suite, 0)->log->str, ==, "");
    /*
     * the summary after the last planned result belongs to the suite, not to a
     * phantom test 7
     */
    g_assert_cmpstr(suite->log->str, ==,
                    "# mount_setattr: pass:1 fail:2 skip:3 total:6\n");
}

static const char *const nested_expected =
    "openat2 #1 fail plan=2\n"
    "  openat2_test #1 pass plan=4\n"
    "    openat2 with valid how.flags #1 pass\n"
    "    openat2 with O_TMPFILE #2 pass\n"
    "    openat2 with RESOLVE_NO_SYMLINKS #3 pass\n"
    "    openat2 with RESOLVE_BENEATH #4 pass\n"
    "  flags #2 fail plan=3\n"
    "    flags bit 31 rejected #1 pass\n"
    "    flags bit 32 rejected #2 fail (expected EINVAL, got 0)\n"
    "    resolve bit 5 rejected #3 skip (not supported)\n"
    "pidfd #2 pass plan=2\n"
    "  pidfd_open #1 pass\n"
    "  pidfd_poll #2 fail (timeout after 5 s)\n";

static void test_nested(void)
{
    g_autoptr(KtapParser) parser = parse_log("nested.log", TRUE);
    KtapTest *root = ktap_parser_root(parser);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(tree, ==, nested_expected);
    assert_counts(root, 6, 2, 1, 0);

    /* "ok 2 pidfd" although a leaf failed: both facts are kept */
    KtapTest *pidfd = child(root, 1);
    g_assert_cmpint(pidfd->result, ==, KTAP_RESULT_PASS);
    assert_counts(pidfd, 1, 1, 0, 0);

    KtapTest *openat2_test = child(child(root, 0), 0);
    g_assert_cmpstr(
        child(openat2_test, 2)->log->str, ==,
        "# openat2 with RESOLVE_NO_SYMLINKS: using /tmp/openat2-XXXXXX\n");
    g_assert_cmpstr(openat2_test->log->str, ==,
                    "# Totals: pass:4 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
    g_assert_cmpuint(openat2_test->subtests->len, ==, 4);

    /*
     * timestamps: the console line numbers (1 ms a line) of the lines that
     * delimit each test
     */
    const gint64 boot_lines = 70;
    KtapTest *openat2 = child(root, 0);
    /* KTAP version 1 */
    g_assert_cmpint(root->start_us, ==, (boot_lines + 2) * US_PER_LINE);
    /* 1..2 */
    g_assert_cmpint(openat2->start_us, ==, (boot_lines + 4) * US_PER_LINE);
    /* not ok 1 openat2 */
    g_assert_cmpint(openat2->end_us, ==, (boot_lines + 34) * US_PER_LINE);
    /* 1..2 of openat2 */
    g_assert_cmpint(openat2_test->start_us, ==,
                    (boot_lines + 10) * US_PER_LINE);
    /* ok 1 openat2_test */
    g_assert_cmpint(openat2_test->end_us, ==, (boot_lines + 23) * US_PER_LINE);
    KtapTest *first_leaf = child(openat2_test, 0);
    /* 1..4 */
    g_assert_cmpint(first_leaf->start_us, ==, (boot_lines + 14) * US_PER_LINE);
    g_assert_cmpint(first_leaf->end_us, ==, (boot_lines + 15) * US_PER_LINE);
}

/*
 * Kernel lines may come between any two KTAP lines: the tree must not change.
 */
static void test_kernel_lines_ignored(void)
{
    g_auto(GStrv) lines = test_data_lines("nested.log");
    g_autoptr(GPtrArray) ktap_only = g_ptr_array_new();
    g_autoptr(GPtrArray) kernel_everywhere = g_ptr_array_new();
    guint kernel_lines = 0;

    for (guint i = 0; lines[i]; i++) {
        if (ktap_printk_body(lines[i])) {
            kernel_lines++;
            continue;
        }
        g_ptr_array_add(ktap_only, lines[i]);
        g_ptr_array_add(kernel_everywhere, lines[i]);
        /*
         * and a kernel line with a CONFIG_PRINTK_CALLER prefix after every KTAP
         * line
         */
        g_ptr_array_add(kernel_everywhere,
                        "[    2.000001][  T123] ok 1 not a KTAP line");
    }
    g_assert_cmpuint(kernel_lines, >, 70);
    g_ptr_array_add(ktap_only, NULL);
    g_ptr_array_add(kernel_everywhere, NULL);

    g_autoptr(KtapParser) a =
        parse_lines((const char *const *)ktap_only->pdata, TRUE);
    g_autoptr(KtapParser) b =
        parse_lines((const char *const *)kernel_everywhere->pdata, TRUE);
    g_autofree char *tree_a = dump_tree(a);
    g_autofree char *tree_b = dump_tree(b);
    g_assert_cmpstr(tree_a, ==, nested_expected);
    g_assert_cmpstr(tree_b, ==, nested_expected);
}

/* A crash report taken while "#N" was running is named after the test once
   its result line arrived; names may contain '/'. */
static void test_resolve_path(void)
{
    static const char *const log[] = {
        "KTAP version 1",
        "1..1",
        "  KTAP version 1",
        "  # Subtest: msm",
        "  1..1",
        "    KTAP version 1",
        "    # Subtest: msm_ioctl",
        "    1..3",
        "    ok 1 a/b round trip",
        "    ok 2 SUBMIT nr_bos 0xffffffff rejected",
        NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(log, TRUE);
    const KtapTest *root = ktap_parser_root(parser);
    static const char *const cases[][2] = {
        {"msm/msm_ioctl/#2", "msm/msm_ioctl/SUBMIT nr_bos 0xffffffff rejected"},
        {"msm/msm_ioctl/#1", "msm/msm_ioctl/a/b round trip"},
        {"msm/msm_ioctl/#3", "msm/msm_ioctl/#3"}, /* never reported */
        {"msm/msm_ioctl/#9", "msm/msm_ioctl/#9"}, /* beyond the plan */
        {"msm/msm_ioctl/a/b round trip", "msm/msm_ioctl/a/b round trip"},
        {"#1", "msm"},
        {"nosuch/#1", "nosuch/#1"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *got = ktap_resolve_path(root, cases[i][0]);
        g_assert_cmpstr(got, ==, cases[i][1]);
    }
    g_assert_null(ktap_resolve_path(root, NULL));
}

/* Marks in the kernel log say where a program is, ahead of its lagging KTAP. */
static void test_marks(void)
{
    KtapMarks m = {0};
    static const char *const steps[][3] = {
        /* line, parser's running path, what a crash is pinned on */
        {"[    1.000000] random: crng init done", "msm/#1", "msm/#1"},
        {"[    1.100000] patchbay-ktap: msm/msm_ioctl 0", "msm/#1",
         "msm/msm_ioctl/#1"},
        {"[    1.200000] patchbay-ktap: msm/msm_ioctl 5", "msm/msm_ioctl/#3",
         "msm/msm_ioctl/#6"},
        {"ok 3 a test line", "msm/msm_ioctl/#4", "msm/msm_ioctl/#6"},
        /* a mark in the middle of a user-space line, as on a serial console */
        {"    ok 4 x[    1.300000] patchbay-ktap: msm/msm_ioctl 7",
         "msm/msm_ioctl/#5", "msm/msm_ioctl/#8"},
        {"[    1.400000] patchbay-ktap: msm/msm_ioctl seven",
         "msm/msm_ioctl/#5", "msm/msm_ioctl/#8"},
        {"[    1.500000] patchbay-ktap: msm/msm_ioctl end", "msm/msm_ioctl/#9",
         "msm/msm_ioctl/#9"},
        /*
         * a kernel selftest marks only its start: the parser is used inside it
         */
        {"[    1.600000] patchbay-ktap: openat2/openat2_test 0",
         "openat2/openat2_test/#4", "openat2/openat2_test/#4"},
        {"[    1.700000] patchbay-ktap: openat2/openat2_test end", NULL, NULL},
        {"patchbay-ktap: openat2/x 3", "openat2/#2",
         "openat2/#2"}, /* not a kernel line */
    };

    for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
        ktap_marks_feed(&m, steps[i][0]);
        g_autofree char *got = ktap_marks_running(&m, steps[i][1]);
        g_assert_cmpstr(got, ==, steps[i][2]);
    }
    ktap_marks_clear(&m);
}

static void test_running_path(void)
{
    static const char *const steps[][2] = {
        /* line fed, running path expected after it */
        {"[    0.074551] Run /init as init process", NULL},
        {"ok 1 stray output before KTAP", NULL},
        {"KTAP version 1", "#1"},
        {"1..2", "#1"},
        {"  KTAP version 1", "#1/#1"},
        {"  # Subtest: openat2", "openat2/#1"},
        {"  1..2", "openat2/#1"},
        {"    TAP version 13", "openat2/#1/#1"},
        {"    # Subtest: openat2_test", "openat2/openat2_test/#1"},
        {"    1..2", "openat2/openat2_test/#1"},
        {"    ok 1 a", "openat2/openat2_test/#2"},
        {"[    3.100000] random: crng init done", "openat2/openat2_test/#2"},
        {"    # b: starting", "openat2/openat2_test/#2"},
        {"    ok 2 b", "openat2/openat2_test/#3"},
        {"  ok 1 openat2_test", "openat2/#2"},
        {"    KTAP version 1", "openat2/#2/#1"},
        {"    # Subtest: flags", "openat2/flags/#1"},
        {"    1..3", "openat2/flags/#1"},
        {"    ok 1 x", "openat2/flags/#2"},
        {"    ok 2 y", "openat2/flags/#3"},
        {"    ok 3 z", "openat2/flags/#4"},
        {"  ok 2 flags", "openat2/#3"},
        {"ok 1 openat2", "#2"},
        {"ok 2 second", NULL}, /* the run is complete */
    };
    g_autoptr(KtapParser) parser = ktap_parser_new();

    g_assert_null(ktap_parser_running(parser));
    g_assert_false(ktap_parser_started(parser));
    for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
        ktap_parser_feed(parser, steps[i][0], (i + 1) * US_PER_LINE);
        g_autofree char *running = ktap_parser_running(parser);
        g_assert_cmpstr(running, ==, steps[i][1]);
    }
    g_assert_true(ktap_parser_started(parser));
}

static void test_truncated(void)
{
    g_autoptr(KtapParser) parser = parse_log("truncated.log", FALSE);
    KtapTest *root = ktap_parser_root(parser);

    /*
     * the guest died while test 3 of openat2_test ran (it had printed a
     * diagnostic)
     */
    g_autofree char *running = ktap_parser_running(parser);
    g_assert_cmpstr(running, ==, "openat2/openat2_test/#3");

    KtapTest *openat2 = child(root, 0);
    KtapTest *openat2_test = child(openat2, 0);
    g_assert_cmpint(openat2->result, ==, KTAP_RESULT_NONE);
    g_assert_cmpint(openat2_test->result, ==, KTAP_RESULT_NONE);
    g_assert_cmpstr(openat2_test->name, ==, "openat2_test");

    ktap_parser_finish(parser, 999 * US_PER_LINE);
    g_assert_cmpuint(root->subtests->len, ==, 3);
    g_assert_cmpstr(child(root, 1)->name, ==, "#2 (missing)");
    g_assert_cmpstr(child(root, 2)->name, ==, "#3 (missing)");
    g_assert_cmpuint(openat2->subtests->len, ==, 2);
    g_assert_cmpstr(child(openat2, 1)->name, ==, "#2 (missing)");

    /* test 3 started but never reported: it stays, with its diagnostic */
    g_assert_cmpuint(openat2_test->subtests->len, ==, 116);
    KtapTest *third = child(openat2_test, 2);
    g_assert_cmpstr(third->name, ==, "#3");
    g_assert_cmpint(third->number, ==, 3);
    g_assert_cmpint(third->result, ==, KTAP_RESULT_NONE);
    g_assert_cmpstr(third->log->str, ==, "# openat2 with O_PATH: starting\n");
    g_assert_cmpstr(child(openat2_test, 3)->name, ==, "#4 (missing)");
    g_assert_cmpstr(child(openat2_test, 115)->name, ==, "#116 (missing)");
    g_assert_cmpint(openat2->end_us, ==, 999 * US_PER_LINE);

    assert_counts(root, 2, 0, 0, 1 + 113 + 1 + 2);
    assert_counts(openat2_test, 2, 0, 0, 114);

    /* after the end of the stream, nothing more is taken */
    ktap_parser_feed(parser, "ok 2 late", 1000 * US_PER_LINE);
    g_assert_cmpuint(root->subtests->len, ==, 3);
    g_assert_null(ktap_parser_running(parser));
}

static void test_missing_plan(void)
{
    g_autoptr(KtapParser) parser = parse_log("missing.log", TRUE);
    KtapTest *root = ktap_parser_root(parser);
    g_autofree char *tree = dump_tree(parser);

    /* "ok 4" skipped ahead past 3; 6 never came */
    g_assert_cmpstr(tree, ==,
                    "landlock #1 fail plan=6 (planned 6 tests, ran 4)\n"
                    "  landlock_abi_version #1 pass\n"
                    "  landlock_create_ruleset #2 pass\n"
                    "  landlock_restrict_self #4 pass\n"
                    "  landlock_fs_read #5 pass\n"
                    "  #3 (missing) #3 none\n"
                    "  #6 (missing) #6 none\n");
    assert_counts(root, 4, 0, 0, 2);
}

static void test_crlf(void)
{
    g_autoptr(KtapParser) parser = parse_log("crlf.log", TRUE);
    g_autofree char *tree = dump_tree(parser);

    g_assert_null(strchr(tree, '\r'));
    g_assert_cmpstr(tree, ==,
                    "sysctl #1 pass plan=3\n"
                    "  sysctl_read_only #1 pass\n"
                    "  sysctl_write_range #2 fail (expected -EINVAL)\n"
                    "  sysctl_unregister #3 skip (needs CONFIG_TEST_SYSCTL)\n");
    assert_counts(ktap_parser_root(parser), 1, 1, 1, 0);
}

static void test_result_line_forms(void)
{
    static const char *const lines[] = {
        "TAP version 13",
        "1..10",
        "ok 1 - dash separated",
        "ok 2 test #5 keeps its hash",
        "ok 3 escaped \\# hash # SKIP: colon reason",
        "not ok 4 lower case directive # todo later",
        "ok 5 no space #SKIP",
        "ok no number",
        "not ok 7",
        "not ok 8 reason only after hash #",
        "ok 9 trailing spaces   ",
        "okay 10 is not a result",
        "ok 10 last # Skipped by harness",
        NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(lines, TRUE);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(tree, ==,
                    "dash separated #1 pass\n"
                    "test #5 keeps its hash #2 pass\n"
                    "escaped # hash #3 skip (colon reason)\n"
                    "lower case directive #4 skip (later)\n"
                    "no space #5 skip\n"
                    "no number #6 pass\n"
                    "#7 #7 fail\n"
                    "reason only after hash #8 fail\n"
                    "trailing spaces #9 pass\n"
                    "last #10 skip (by harness)\n");
}

/*
 * KUnit indents nested blocks by 4 spaces, not 2; diagnostics precede each
 * result.
 */
static void test_kunit_indentation(void)
{
    static const char *const lines[] = {
        "KTAP version 1",
        "1..1",
        "    KTAP version 1",
        "    # Subtest: kunit-example-test",
        "    # module: kunit_example_test",
        "    1..3",
        "    # example_simple_test: initializing",
        "    ok 1 example_simple_test",
        "        KTAP version 1",
        "        # Subtest: example_params_test",
        "        ok 1 example value 3",
        "        ok 2 example value 2 # SKIP unsupported",
        "    # example_params_test: pass:1 fail:0 skip:1 total:2",
        "    ok 2 example_params_test",
        "    # example_fail_test: EXPECTATION FAILED at "
        "lib/kunit/kunit-example-test.c:29",
        "    Expected 1 + 1 == 3, but",
        "    not ok 3 example_fail_test",
        "# kunit-example-test: pass:1 fail:1 skip:0 total:3",
        "# Totals: pass:2 fail:1 skip:1 total:4",
        "not ok 1 kunit-example-test",
        NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(lines, TRUE);
    KtapTest *root = ktap_parser_root(parser);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(tree, ==,
                    "kunit-example-test #1 fail plan=3\n"
                    "  example_simple_test #1 pass\n"
                    "  example_params_test #2 pass\n"
                    "    example value 3 #1 pass\n"
                    "    example value 2 #2 skip (unsupported)\n"
                    "  example_fail_test #3 fail\n");
    assert_counts(root, 2, 1, 1, 0);

    KtapTest *suite = child(root, 0);
    g_assert_cmpstr(child(suite, 0)->log->str, ==,
                    "# example_simple_test: initializing\n");
    /* the non-"#" line between is not KTAP and is dropped */
    g_assert_cmpstr(child(suite, 2)->log->str, ==,
                    "# example_fail_test: EXPECTATION FAILED at "
                    "lib/kunit/kunit-example-test.c:29\n");
    g_assert_cmpstr(child(suite, 1)->log->str, ==,
                    "# example_params_test: pass:1 fail:0 skip:1 total:2\n");
    /*
     * metadata before the plan, and the summaries printed after the last result
     */
    g_assert_cmpstr(suite->log->str, ==,
                    "# module: kunit_example_test\n"
                    "# kunit-example-test: pass:1 fail:1 skip:0 total:3\n"
                    "# Totals: pass:2 fail:1 skip:1 total:4\n");
}

/*
 * A suite's result line is lost; the next suite's header at the same depth
 * starts a sibling.
 */
static void test_lost_result_line(void)
{
    static const char *const lines[] = {
        "KTAP version 1",
        "1..3",
        "  KTAP version 1",
        "  # Subtest: first",
        "  1..1",
        "  ok 1 a",
        "  KTAP version 1",
        "  # Subtest: second",
        "  1..1",
        "  ok 1 b",
        "ok 2 second",
        "ok 3 third",
        NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(lines, TRUE);
    g_autofree char *tree = dump_tree(parser);

    g_assert_cmpstr(tree, ==,
                    "first #1 none plan=1\n"
                    "  a #1 pass\n"
                    "second #2 pass plan=1\n"
                    "  b #1 pass\n"
                    "third #3 pass\n");
}

/* Two programs each printing a whole document at the top level. */
static void test_concatenated_documents(void)
{
    static const char *const lines[] = {
        "KTAP version 1", "1..1",   "ok 1 a", "KTAP version 1",
        "1..2",           "ok 1 b", NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(lines, FALSE);

    g_autofree char *running = ktap_parser_running(parser);
    g_assert_cmpstr(running, ==, "#2");
    ktap_parser_feed(parser, "not ok 2 c", 0);
    g_assert_null(ktap_parser_running(parser));

    ktap_parser_finish(parser, 0);
    g_autofree char *tree = dump_tree(parser);
    g_assert_cmpstr(tree, ==,
                    "a #1 pass\n"
                    "b #1 pass\n"
                    "c #2 fail\n");
    g_assert_cmpint(ktap_parser_root(parser)->plan, ==, 3);
}

static void test_garbage(void)
{
    g_autofree char *deep = g_strdup_printf("%*sok 1 deep", 4000, "");
    const char *const lines[] = {
        "\x01\x02\xff\xfe garbage \x1b[0m",
        "1..",
        "KTAP version one",
        "KTAP version 1",
        "1..99999999999999999999", /* garbage plan: ignored */
        "1..3",
        "ok 99999999999999999999 huge number",
        "[    1.000000] kernel line",
        "ok 2 cut[    1.100000] Kernel panic - not syncing: mid-line kernel "
        "message",
        "\r",
        "",
        "    # stray deeper diagnostic",
        "                ok 1 a",
        "                        ok 1 b",
        "                                ok 1 c",
        deep,
        "ok",
        "not ok",
        "\xc3\x28 invalid utf-8",
        NULL,
    };
    g_autoptr(KtapParser) parser =
        parse_lines((const char *const *)lines, FALSE);
    g_autofree char *running = ktap_parser_running(parser);
    /* 4 results for a plan of 3: the run is complete */
    g_assert_null(running);

    ktap_parser_finish(parser, 1);
    KtapTest *root = ktap_parser_root(parser);
    g_assert_cmpint(root->plan, ==, 3);
    g_assert_cmpstr(child(root, 1)->name, ==, "cut");
    g_assert_cmpint(child(root, 1)->number, ==, 2);

    guint p, f, s, n;
    ktap_test_count(root, &p, &f, &s, &n);
    g_assert_cmpuint(p + f + s + n, >=, 3);
    ktap_test_count(NULL, &p, NULL, NULL, NULL);
    g_assert_cmpuint(p, ==, 0);

    /* ever deeper blocks: nesting is capped instead of growing without bound */
    g_autoptr(KtapParser) deep_parser = ktap_parser_new();
    for (int level = 0; level < 200; level++) {
        g_autofree char *header =
            g_strdup_printf("%*sKTAP version 1", level * 2, "");
        ktap_parser_feed(deep_parser, header, level);
    }
    g_autofree char *deep_running = ktap_parser_running(deep_parser);
    g_assert_nonnull(deep_running);
    ktap_parser_finish(deep_parser, 1000);
    guint depth = 0;
    for (KtapTest *t = ktap_parser_root(deep_parser); t->subtests->len > 0;
         t = child(t, 0)) {
        depth++;
    }
    g_assert_cmpuint(depth, >, 2);
    g_assert_cmpuint(depth, <=, 16);
    assert_counts(ktap_parser_root(deep_parser), 0, 0, 0, 1);
}

static void test_printk_prefix(void)
{
    g_assert_cmpstr(ktap_printk_body("[    0.123456] foo"), ==, "foo");
    g_assert_cmpstr(ktap_printk_body("[12345.123456] foo"), ==, "foo");
    g_assert_cmpstr(ktap_printk_body("[123456.123456]   indented"), ==,
                    "  indented");
    g_assert_cmpstr(ktap_printk_body("[    0.123456][    T1] caller"), ==,
                    "caller");
    g_assert_cmpstr(ktap_printk_body("[    0.123456] "), ==, "");
    g_assert_null(ktap_printk_body("[1.5] name"));
    g_assert_null(ktap_printk_body("[    0.12345] short fraction"));
    g_assert_null(ktap_printk_body("ok 1 [    0.123456]"));
    g_assert_null(ktap_printk_body(NULL));
    const char *line = "ok 1 x[    0.123456] y";
    g_assert_true(ktap_find_printk_prefix(line) == line + 6);
    g_assert_null(ktap_find_printk_prefix("ok 1 [1.5] [a]"));

    /* a time prefix split by user-space output (seen on a sysrq-c panic) */
    g_assert_cmpstr(ktap_skip_printk_head("[    0.70688    ok 1 x"), ==,
                    "    ok 1 x");
    g_assert_cmpstr(ktap_skip_printk_head("[    0    ok 1 x"), ==,
                    "    ok 1 x");
    g_assert_cmpstr(ktap_skip_printk_head("[    0.706887] k"), ==,
                    "[    0.706887] k");
    g_assert_cmpstr(ktap_skip_printk_head("[1.5] name"), ==, "[1.5] name");
    g_assert_cmpstr(ktap_skip_printk_head("[a] name"), ==, "[a] name");
    g_assert_cmpstr(ktap_skip_printk_head("ok 1 x"), ==, "ok 1 x");
    g_assert_cmpstr(ktap_printk_tail_body("7] Kernel panic"), ==,
                    "Kernel panic");
    g_assert_cmpstr(ktap_printk_tail_body(".706887] Kernel panic"), ==,
                    "Kernel panic");
    g_assert_cmpstr(ktap_printk_tail_body("    1.050870] Kernel panic"), ==,
                    "Kernel panic");
    g_assert_null(ktap_printk_tail_body("    ] x"));
    g_assert_null(ktap_printk_tail_body("    1..2"));
    g_assert_null(ktap_printk_tail_body("ok 7] x"));
    g_assert_null(ktap_printk_tail_body("] x"));
    g_assert_null(ktap_printk_tail_body("7]x"));
    g_assert_null(ktap_printk_tail_body(NULL));
}

/* The case's result line survives a kernel time prefix split around it. */
static void test_split_printk_prefix(void)
{
    const char *const lines[] = {
        "KTAP version 1",
        "1..2",
        "[    0.70688ok 1 before the crash",
        "# crashing the kernel",
        "7] Kernel panic - not syncing: sysrq triggered crash",
        "not ok 2 crash",
        NULL,
    };
    g_autoptr(KtapParser) parser = parse_lines(lines, TRUE);
    KtapTest *root = ktap_parser_root(parser);

    g_assert_cmpuint(root->subtests->len, ==, 2);
    g_assert_cmpstr(child(root, 0)->name, ==, "before the crash");
    g_assert_cmpint(child(root, 0)->result, ==, KTAP_RESULT_PASS);
    g_assert_cmpint(child(root, 1)->result, ==, KTAP_RESULT_FAIL);
}

static void test_result_names(void)
{
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_PASS), ==, "pass");
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_FAIL), ==, "fail");
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_SKIP), ==, "skip");
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_NONE), ==, "none");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    g_test_add_func("/ktap/all-pass", test_all_pass);
    g_test_add_func("/ktap/fail-skip-todo", test_fail_skip_todo);
    g_test_add_func("/ktap/nested", test_nested);
    g_test_add_func("/ktap/kernel-lines-ignored", test_kernel_lines_ignored);
    g_test_add_func("/ktap/running-path", test_running_path);
    g_test_add_func("/ktap/resolve-path", test_resolve_path);
    g_test_add_func("/ktap/marks", test_marks);
    g_test_add_func("/ktap/truncated", test_truncated);
    g_test_add_func("/ktap/missing-plan", test_missing_plan);
    g_test_add_func("/ktap/crlf", test_crlf);
    g_test_add_func("/ktap/result-line-forms", test_result_line_forms);
    g_test_add_func("/ktap/kunit-indentation", test_kunit_indentation);
    g_test_add_func("/ktap/lost-result-line", test_lost_result_line);
    g_test_add_func("/ktap/concatenated-documents",
                    test_concatenated_documents);
    g_test_add_func("/ktap/garbage", test_garbage);
    g_test_add_func("/ktap/printk-prefix", test_printk_prefix);
    g_test_add_func("/ktap/split-printk-prefix", test_split_printk_prefix);
    g_test_add_func("/ktap/result-names", test_result_names);

    return g_test_run();
}
