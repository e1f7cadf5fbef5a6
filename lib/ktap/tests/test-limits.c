/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the limits over a whole console (ktaplimits.h): consoles a
 * fuzzer found that made the parser or the JUnit writer use gigabytes or
 * minutes stay within the caps, fail with a limit, and cost time linear in
 * their size.
 */
#include <string.h>

#include "crashscan.h"
#include "junit.h"
#include "ktap.h"
#include "ktaplimits.h"

static guint count_tests(const KtapTest *t)
{
    guint n = t->subtests->len;

    for (guint i = 0; i < t->subtests->len; i++) {
        n += count_tests(g_ptr_array_index(t->subtests, i));
    }
    return n;
}

static guint tree_depth(const KtapTest *t)
{
    guint depth = 0;

    for (guint i = 0; i < t->subtests->len; i++) {
        depth = MAX(depth, 1 + tree_depth(g_ptr_array_index(t->subtests, i)));
    }
    return depth;
}

static void assert_limit(KtapParser *p, const char *limit)
{
    const char *why = ktap_parser_limit(p);

    g_assert_nonnull(why);
    g_assert_true(g_str_has_prefix(why, "guest output exceeded "));
    g_assert_nonnull(strstr(why, limit));
}

/* Ever deeper blocks stop at KTAP_LIMIT_DEPTH, and that fails the console. */
static void test_deep_nesting(void)
{
    g_autoptr(KtapParser) p = ktap_parser_new();

    for (int level = 0; level < 200; level++) {
        g_autofree char *header =
            g_strdup_printf("%*sKTAP version 1", level * 2, "");
        g_autofree char *plan = g_strdup_printf("%*s1..1", level * 2, "");

        ktap_parser_feed(p, header, level);
        ktap_parser_feed(p, plan, level);
    }
    ktap_parser_finish(p, 1000);
    assert_limit(p, "KTAP_LIMIT_DEPTH (8 levels)");
    g_assert_cmpuint(tree_depth(ktap_parser_root(p)), <=, KTAP_LIMIT_DEPTH);
}

/* Nested plans near KTAP_MAX_PLAN and no results: finish() used to add
 * every promised test as "(missing)", 7 x 99999 of them. */
static void test_huge_plans(void)
{
    g_autoptr(KtapParser) p = ktap_parser_new();

    ktap_parser_feed(p, "KTAP version 1", 0);
    ktap_parser_feed(p, "1..1", 0);
    for (int level = 1; level < 8; level++) {
        g_autofree char *header =
            g_strdup_printf("%*sKTAP version 1", level * 2, "");
        g_autofree char *plan = g_strdup_printf("%*s1..99999", level * 2, "");

        ktap_parser_feed(p, header, level);
        ktap_parser_feed(p, plan, level);
    }
    g_assert_null(ktap_parser_limit(p));
    ktap_parser_finish(p, 1000);
    assert_limit(p, "KTAP_LIMIT_TESTS (20000 tests)");
    g_assert_cmpuint(count_tests(ktap_parser_root(p)), <=, KTAP_LIMIT_TESTS);

    /* one plan of the limit's size is fine: the missing tests count */
    g_autoptr(KtapParser) fits = ktap_parser_new();
    g_autofree char *plan = g_strdup_printf("1..%d", KTAP_LIMIT_TESTS);

    ktap_parser_feed(fits, "KTAP version 1", 0);
    ktap_parser_feed(fits, plan, 0);
    ktap_parser_feed(fits, "ok 1 first", 0);
    ktap_parser_finish(fits, 1);
    g_assert_null(ktap_parser_limit(fits));
    g_assert_cmpuint(count_tests(ktap_parser_root(fits)), ==, KTAP_LIMIT_TESTS);
}

/* Results past KTAP_LIMIT_TESTS are not kept: the tree stops growing. */
static void test_many_results(void)
{
    g_autoptr(KtapParser) p = ktap_parser_new();

    ktap_parser_feed(p, "KTAP version 1", 0);
    ktap_parser_feed(p, "1..1", 0);
    ktap_parser_feed(p, "  KTAP version 1", 0);
    ktap_parser_feed(p, "  # Subtest: big", 0);
    for (int i = 1; i <= 2 * KTAP_LIMIT_TESTS; i++) {
        g_autofree char *line = g_strdup_printf("  ok %d t", i);

        ktap_parser_feed(p, line, i);
    }
    assert_limit(p, "KTAP_LIMIT_TESTS");
    g_assert_cmpuint(count_tests(ktap_parser_root(p)), <=,
                     KTAP_LIMIT_TESTS + 2);
}

/*
 * One long "# Subtest:" name over a large plan: every JUnit testcase used
 * to carry the name as its class name.  The name is refused, the console
 * fails, and the JUnit document stays small.
 */
static void test_long_names(void)
{
    g_autoptr(KtapParser) p = ktap_parser_new();
    g_autofree char *name = g_strnfill(2 * KTAP_LIMIT_PATH, 'n');
    g_autofree char *subtest = g_strdup_printf("  # Subtest: %s", name);
    g_autofree char *xml = NULL;

    ktap_parser_feed(p, "KTAP version 1", 0);
    ktap_parser_feed(p, "1..1", 0);
    ktap_parser_feed(p, "  KTAP version 1", 0);
    ktap_parser_feed(p, subtest, 0);
    ktap_parser_feed(p, "  1..9999", 0);
    for (int i = 1; i <= 9999; i++) {
        g_autofree char *line = g_strdup_printf("  ok %d t", i);

        ktap_parser_feed(p, line, i);
    }
    ktap_parser_finish(p, 10000);
    assert_limit(p, "KTAP_LIMIT_PATH (1024 bytes)");
    xml = junit_to_string(ktap_parser_root(p), NULL);
    g_assert_null(strstr(xml, name));
    g_assert_cmpuint(strlen(xml), <, 64 * 1024);

    /* a path of names each short enough, too long together */
    g_autoptr(KtapParser) q = ktap_parser_new();
    g_autofree char *part = g_strnfill(KTAP_LIMIT_PATH / 3, 'p');

    ktap_parser_feed(q, "KTAP version 1", 0);
    ktap_parser_feed(q, "1..1", 0);
    for (int level = 1; level < 5; level++) {
        g_autofree char *header =
            g_strdup_printf("%*sKTAP version 1", level * 2, "");
        g_autofree char *named =
            g_strdup_printf("%*s# Subtest: %s", level * 2, "", part);

        ktap_parser_feed(q, header, level);
        ktap_parser_feed(q, named, level);
    }
    assert_limit(q, "KTAP_LIMIT_PATH");
}

/* A kernel that reports crash after crash: KTAP_LIMIT_CRASH_REPORTS. */
/* The longest path in t's tree, names joined by '/' (root excluded). */
static gsize longest_path(const KtapTest *t, gsize above)
{
    gsize here = t->parent ? above + strlen(t->name) : 0;
    gsize longest = here;

    for (guint i = 0; i < t->subtests->len; i++) {
        gsize below = longest_path(g_ptr_array_index(t->subtests, i),
                                   t->parent ? here + 1 : 0);

        longest = MAX(longest, below);
    }
    return longest;
}

/*
 * The names the parser makes up ("#N" for a test with no name yet, "#N
 * (missing)" for one a plan promised) count against KTAP_LIMIT_PATH as
 * the guest's own do: under a suite named just short of the limit, they
 * are not added, and the console fails (found by fuzz/fuzz-ktap.c).
 */
static void test_made_up_names(void)
{
    for (int missing = 0; missing < 2; missing++) {
        g_autoptr(KtapParser) p = ktap_parser_new();
        g_autofree char *name = g_strnfill(KTAP_LIMIT_PATH - 2, 'n');
        g_autofree char *subtest = g_strdup_printf("  # Subtest: %s", name);

        ktap_parser_feed(p, "KTAP version 1", 0);
        ktap_parser_feed(p, "1..1", 0);
        ktap_parser_feed(p, "  KTAP version 1", 0);
        ktap_parser_feed(p, subtest, 0);
        ktap_parser_feed(p, "  1..2", 0);
        if (!missing) {
            /* a result line without a name: "#1" */
            ktap_parser_feed(p, "  ok 1", 1);
        }
        ktap_parser_finish(p, 2);
        assert_limit(p, "KTAP_LIMIT_PATH (1024 bytes)");
        g_assert_cmpuint(longest_path(ktap_parser_root(p), 0), <=,
                         KTAP_LIMIT_PATH);
    }
}

static void test_many_crash_reports(void)
{
    g_autoptr(CrashScanner) s = crash_scanner_new();

    for (int i = 0; i < 3 * KTAP_LIMIT_CRASH_REPORTS; i++) {
        crash_scanner_feed(s, "[    1.000000] WARNING: CPU: 0 PID: 1 at x.c:1",
                           "suite/t");
    }
    g_assert_cmpuint(crash_scanner_reports(s)->len, ==,
                     KTAP_LIMIT_CRASH_REPORTS);
    g_assert_cmpstr(crash_scanner_limit(s), ==,
                    "guest output exceeded KTAP_LIMIT_CRASH_REPORTS (1000 "
                    "reports)");

    /* an excerpt stops growing at KTAP_EXCERPT_MAX_BYTES */
    g_autoptr(CrashScanner) big = crash_scanner_new();
    g_autofree char *line = g_strdup_printf("[    1.000001] %0*d", 8000, 0);

    crash_scanner_feed(big, "[    1.000000] WARNING: CPU: 0 PID: 1 at x.c:1",
                       NULL);
    for (int i = 0; i < 30; i++) {
        crash_scanner_feed(big, line, NULL);
    }
    CrashReport *r = g_ptr_array_index(crash_scanner_reports(big), 0);
    g_assert_cmpuint(strlen(r->excerpt), <=, KTAP_EXCERPT_MAX_BYTES);
}

/*
 * This thread's CPU time: the time another process had the CPU (a busy
 * machine, the tests meson runs beside this one) does not count.
 */
static gint64 thread_cpu_us(void)
{
    struct timespec ts;

    g_assert_cmpint(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts), ==, 0);
    return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* A tree of n tests in one program and n / 4 crash reports pinned on its
 * tests, by name and by number, written as JUnit; best of 3. */
static gint64 time_junit(guint n)
{
    g_autoptr(KtapParser) p = ktap_parser_new();
    g_autoptr(GPtrArray) reports = g_ptr_array_new();
    g_autofree CrashReport *storage = g_new0(CrashReport, n / 4);
    g_autofree char *plan = g_strdup_printf("    1..%u", n);
    g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
    gint64 best = G_MAXINT64;

    ktap_parser_feed(p, "KTAP version 1", 0);
    ktap_parser_feed(p, "1..1", 0);
    ktap_parser_feed(p, "  KTAP version 1", 0);
    ktap_parser_feed(p, "  # Subtest: suite", 0);
    ktap_parser_feed(p, "  1..1", 0);
    ktap_parser_feed(p, "    KTAP version 1", 0);
    ktap_parser_feed(p, "    # Subtest: program", 0);
    ktap_parser_feed(p, plan, 0);
    for (guint i = 1; i <= n; i++) {
        g_autofree char *line = g_strdup_printf("    ok %u case %u", i, i);

        ktap_parser_feed(p, line, i);
    }
    ktap_parser_finish(p, n + 1);
    g_assert_null(ktap_parser_limit(p));
    for (guint i = 0; i < n / 4; i++) {
        /* late tests, where a scan of the siblings costs the most */
        char *test = i % 2 ? g_strdup_printf("suite/program/case %u", n - i)
                           : g_strdup_printf("suite/program/#%u", n - i);

        storage[i].kind = "warn";
        storage[i].test = test;
        storage[i].excerpt = "WARNING: x";
        g_ptr_array_add(owned, test);
        g_ptr_array_add(reports, &storage[i]);
    }
    for (int round = 0; round < 3; round++) {
        gint64 start = thread_cpu_us();
        g_autofree char *xml = junit_to_string(ktap_parser_root(p), reports);
        g_autofree char *resolved =
            ktap_resolve_path(ktap_parser_root(p), "suite/program/#7");

        g_assert_cmpstr(resolved, ==, "suite/program/case 7");
        best = MIN(best, thread_cpu_us() - start);
        g_assert_nonnull(strstr(xml, "type=\"warn\""));
    }
    return MAX(best, 1);
}

/*
 * Attaching each crash report scanned every sibling: quadratic.  For 16x
 * the input, linear costs 16x and quadratic 256x; the bound between them
 * leaves room for caches that make the large run dearer per report
 * (seen: 28x for 16x the input).  This thread's CPU time, not the clock's
 * (wall time beside other tests gave 61x), interleaved and the best of
 * each; no absolute times.
 */
static void test_crash_attachment_linear(void)
{
    gint64 small = G_MAXINT64, large = G_MAXINT64;

    for (int i = 0; i < 5; i++) {
        small = MIN(small, time_junit(1000));
        large = MIN(large, time_junit(16000));
    }
    g_test_message("junit: n=1000 %" G_GINT64_FORMAT
                   " us, n=16000 %" G_GINT64_FORMAT " us (%.1fx)",
                   small, large, (double)large / small);
    g_assert_cmpint(large, <, 64 * small);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/limits/deep-nesting", test_deep_nesting);
    g_test_add_func("/limits/huge-plans", test_huge_plans);
    g_test_add_func("/limits/many-results", test_many_results);
    g_test_add_func("/limits/long-names", test_long_names);
    g_test_add_func("/limits/made-up-names", test_made_up_names);
    g_test_add_func("/limits/many-crash-reports", test_many_crash_reports);
    g_test_add_func("/limits/crash-attachment-linear",
                    test_crash_attachment_linear);
    return g_test_run();
}
