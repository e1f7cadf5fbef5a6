/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of a series' steps and judging (runner/commitstep.c,
 * runner/series.c): reading build logs and commit lists, the flips and
 * regressions of fixture result folders, the table and series.json; and
 * patchbay-series end to end with stand-in scripts (tests/meson.build
 * passes its path in PATCHBAY_SERIES).
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "commitstep.h"
#include "series.h"
#include "testutil.h"

typedef struct {
    char *tmp;
    GPtrArray *steps; /* CommitStep *, for the judging tests */
} Fixture;

static void fixture_setup(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    f->tmp = testutil_tmp_dir();
    f->steps = g_ptr_array_new_with_free_func((GDestroyNotify)commit_step_free);
}

static void fixture_teardown(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_ptr_array_unref(f->steps);
    testutil_remove_tree(f->tmp);
    g_free(f->tmp);
}

/* ---- build logs ---- */

static void test_first_error(void)
{
    static const struct {
        const char *log, *expect;
    } cases[] = {
        /* gcc, with make's and patchbay's lines after it */
        {"patchbay: building the kernel of 1a2b3c4d\n"
         "  CC      drivers/w1/masters/ds2490.o\n"
         "drivers/w1/masters/ds2490.c: In function 'ds_probe':\n"
         "  drivers/w1/masters/ds2490.c:1012:9: error: 'dev' undeclared "
         "(first use in this function)  \n"
         "drivers/w1/masters/ds2490.c:1013:9: error: second\n"
         "make[4]: *** [scripts/Makefile.build:229: "
         "drivers/w1/masters/ds2490.o] Error 1\n"
         "make: *** [Makefile:224: __sub-make] Error 2\n"
         "patchbay: error: kernel build failed (log: /c/make.log)\n",
         "drivers/w1/masters/ds2490.c:1012:9: error: 'dev' undeclared "
         "(first use in this function)"},
        /* GNU ld says no "error:" */
        {"  LD      vmlinux.o\n"
         "aarch64-linux-gnu-ld: vmlinux.o: in function `ds_probe':\n"
         "ds2490.c:(.text+0x1c4): undefined reference to `w1_add_master'\n"
         "make[2]: *** [scripts/Makefile.vmlinux:34: vmlinux] Error 1\n"
         "patchbay: error: kernel build failed (log: /c/make.log)\n",
         "ds2490.c:(.text+0x1c4): undefined reference to `w1_add_master'"},
        /* lld does */
        {"ld.lld: error: undefined symbol: w1_add_master\n",
         "ld.lld: error: undefined symbol: w1_add_master"},
        /* only make's, the innermost first */
        {"make[3]: *** No rule to make target 'drivers/w1/x.o'.  Stop.\n"
         "make[2]: *** [scripts/Makefile.build:478: drivers/w1] Error 2\n"
         "make: *** [Makefile:224: __sub-make] Error 2\n"
         "patchbay: error: kernel build failed (log: /c/make.log)\n",
         "make[2]: *** [scripts/Makefile.build:478: drivers/w1] Error 2"},
        /* only patchbay's: the last one */
        {"patchbay: building\n"
         "patchbay: error: --ref nosuch: not a commit\n"
         "patchbay: error: kernel-git failed\n",
         "patchbay: error: kernel-git failed"},
        /* "Error" without a number, "-Werror": nothing */
        {"  CC -Werror=implicit x.o\nError handling is fine\n", NULL},
        {"", NULL},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *got = build_log_first_error(cases[i].log);

        g_test_message("case %u", i);
        g_assert_cmpstr(got, ==, cases[i].expect);
    }
    g_assert_null(build_log_first_error(NULL));
}

static void test_log_status(void)
{
    g_assert_cmpint(
        build_log_status("x\npatchbay: error: kernel build failed (log: y)\n"),
        ==, BUILD_FAILED);
    g_assert_cmpint(build_log_status("patchbay: error: no such ref\n"), ==,
                    BUILD_TROUBLE);
    g_assert_cmpint(build_log_status(""), ==, BUILD_TROUBLE);
    g_assert_cmpint(build_log_status(NULL), ==, BUILD_TROUBLE);
    g_assert_cmpstr(build_status_name(BUILD_NOT_TRIED), ==, "-");
    g_assert_cmpstr(build_status_name(BUILD_OK), ==, "ok");
    g_assert_cmpstr(build_status_name(BUILD_FAILED), ==, "FAIL");
    g_assert_cmpstr(build_status_name(BUILD_TROUBLE), ==, "trouble");
}

static void test_checkpatch_counts(void)
{
    guint e = 9, w = 9, c = 9;

    g_assert_true(
        checkpatch_counts("0 errors, 1 warnings, 2 checks", &e, &w, &c));
    g_assert_cmpuint(e, ==, 0);
    g_assert_cmpuint(w, ==, 1);
    g_assert_cmpuint(c, ==, 2);
    g_assert_true(checkpatch_counts(
        "total: 3 errors, 0 warnings, 1 check, 40 lines checked\n", &e, NULL,
        &c));
    g_assert_cmpuint(e, ==, 3);
    g_assert_cmpuint(c, ==, 1);
    g_assert_false(checkpatch_counts("no counts here", &e, &w, &c));
    g_assert_false(checkpatch_counts(NULL, &e, &w, &c));
}

/* ---- commit lists ---- */

static char *sha_of(char c)
{
    return g_strnfill(40, c);
}

static void test_commits_load(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *a = sha_of('a'), *b = sha_of('B');
    g_autofree char *text =
        g_strdup_printf("%s\tbase: the queue\r\n%s\tw1: x\ty\n\n", a, b);
    g_autofree char *list = g_build_filename(f->tmp, "commits", NULL);
    g_autofree char *dir = g_build_filename(f->tmp, "out", NULL);
    g_autofree char *dir0 = g_build_filename(dir, "00-aaaaaaaaaaaa", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) steps = NULL;
    CommitStep *s;

    testutil_write_file(f->tmp, "commits", text);
    steps = commit_steps_load(list, dir, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(steps->len, ==, 2);
    s = g_ptr_array_index(steps, 0);
    g_assert_cmpstr(s->sha, ==, a);
    g_assert_cmpstr(s->subject, ==, "base: the queue");
    g_assert_cmpstr(s->dir, ==, dir0);
    g_assert_true(g_file_test(dir0, G_FILE_TEST_IS_DIR));
    g_assert_cmpint(s->build, ==, BUILD_NOT_TRIED);
    g_assert_cmpint(s->run_exit, ==, -1);
    g_assert_null(s->results);
    s = g_ptr_array_index(steps, 1);
    g_assert_cmpstr(s->sha, ==, b);
    g_assert_cmpstr(s->subject, ==, "w1: x\ty"); /* the first tab splits */
    g_assert_true(g_str_has_suffix(s->dir, "/01-BBBBBBBBBBBB"));
}

static void test_commits_malformed(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *a = sha_of('a');
    g_autofree char *list = g_build_filename(f->tmp, "commits", NULL);
    g_autofree char *expect = NULL;
    g_autoptr(GError) error = NULL;
    static const char *const bad[] = {
        "no tab here",
        "aaaa\tshort sha",
        "gaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\tnot hex",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\t41 digits",
    };

    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *text = g_strdup_printf("%s\tbase\n%s\n", a, bad[i]);

        testutil_write_file(f->tmp, "commits", text);
        g_assert_null(commit_steps_load(list, f->tmp, &error));
        g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
        g_free(expect);
        expect = g_strdup_printf("%s:2: ", list);
        g_assert_true(g_str_has_prefix(error->message, expect));
        g_clear_error(&error);
    }
    g_unlink(list);
    g_assert_null(commit_steps_load(list, f->tmp, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* ---- judging ---- */

/*
 * Add a step to f->steps: commit c (its sha c repeated), built as build;
 * with results (NULL: not run) run with exit code verdict's.
 */
static CommitStep *add_step(Fixture *f, char c, const char *subject,
                            BuildStatus build, const char *verdict,
                            const char *results, const char *crashes)
{
    g_autofree char *sha = sha_of(c);
    g_autofree char *name = g_strdup_printf("%02u-%.12s", f->steps->len, sha);
    g_autofree char *dir = g_build_filename(f->tmp, name, NULL);
    CommitStep *step = commit_step_new(sha, subject, dir);
    g_autoptr(GError) error = NULL;

    step->build = build;
    step->build_s = 60 + f->steps->len;
    if (build == BUILD_FAILED) {
        step->build_error = g_strdup("x.c:1:1: error: oops");
    }
    if (results) {
        g_autofree char *rel = g_build_filename(name, "results", NULL);

        step->results_dir =
            testutil_make_run(f->tmp, rel, "base", verdict, results, crashes);
        step->results = run_results_load(step->results_dir, &error);
        g_assert_no_error(error);
        step->run_exit = g_str_equal(verdict, "pass")   ? 0
                         : g_str_equal(verdict, "fail") ? 1
                                                        : 2;
        step->run_s = 4.25;
    }
    g_ptr_array_add(f->steps, step);
    return step;
}

static const char good_txt[] = "pass\tw1/netlink/N1\n"
                               "pass\tw1/netlink/N2\n"
                               "fail\tw1/netlink/known bad\n"
                               "pass\tmsm/ioctl/version\n";

static SeriesRow *row_at(Series *s, guint i)
{
    return g_ptr_array_index(s->rows, i);
}

static void test_judge_skip_unbuilt(Fixture *f,
                                    G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(Series) s = NULL;
    SeriesRow *row;
    TestPair *p;

    add_step(f, 'a', "base", BUILD_OK, "fail", good_txt, "[]");
    add_step(f, 'b', "w1: break N2", BUILD_OK, "fail",
             "pass\tw1/netlink/N1\n"
             "fail\tw1/netlink/N2\n"
             "fail\tw1/netlink/known bad\n"
             "pass\tmsm/ioctl/version\n",
             "[]");
    add_step(f, 'c', "w1: typo", BUILD_FAILED, NULL, NULL, NULL);
    /* Against b (the row above with results), not c nor the base. */
    add_step(f, 'd', "w1: fix N2 and known bad", BUILD_OK, "pass",
             "pass\tw1/netlink/N1\n"
             "pass\tw1/netlink/N2\n"
             "pass\tw1/netlink/known bad\n"
             "pass\tmsm/ioctl/version\n",
             "[]");
    s = series_judge(f->steps, NULL);

    g_assert_cmpuint(s->rows->len, ==, 4);
    g_assert_cmpuint(s->commits, ==, 3);
    row = row_at(s, 0);
    g_assert_null(row->prev);
    g_assert_false(row->regressed);
    g_assert_cmpuint(row->flips->len, ==, 0);

    row = row_at(s, 1);
    g_assert_true(row->prev == g_ptr_array_index(f->steps, 0));
    g_assert_cmpuint(row->flips->len, ==, 1);
    p = g_ptr_array_index(row->flips, 0);
    g_assert_cmpstr(p->test, ==, "w1/netlink/N2");
    g_assert_cmpint(p->base, ==, KTAP_RESULT_PASS);
    g_assert_cmpint(p->with, ==, KTAP_RESULT_FAIL);
    g_assert_cmpuint(row->to_fail, ==, 1);
    g_assert_cmpuint(row->to_pass, ==, 0);
    g_assert_true(row->regressed);

    row = row_at(s, 2);
    g_assert_null(row->prev);
    g_assert_false(row->regressed);
    g_assert_false(row->trouble);

    row = row_at(s, 3);
    g_assert_true(row->prev == g_ptr_array_index(f->steps, 1));
    g_assert_cmpuint(row->flips->len, ==, 2);
    g_assert_cmpuint(row->to_pass, ==, 2);
    g_assert_cmpuint(row->to_fail, ==, 0);
    g_assert_false(row->regressed);

    g_assert_cmpuint(s->build_failed, ==, 1);
    g_assert_cmpuint(s->regressed, ==, 1);
    g_assert_true(s->first_regression == row_at(s, 1));
    g_assert_cmpint(series_exit_status(s), ==, 1);
}

static void test_judge_regressions(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    const char *const w1[] = {"w1", NULL};
    /* row 2's crashes in the other order */
    const char *const both =
        "[{\"kind\": \"hung_task\", \"test\": \"w1/netlink/N2\"},"
        " {\"kind\": \"warn\", \"test\": \"w1/netlink/N1\"}]";
    g_autoptr(Series) s = NULL;
    SeriesRow *row;
    TestPair *p;
    RunCrash *c;

    add_step(f, 'a', "base", BUILD_OK, "fail", good_txt,
             "[{\"kind\": \"warn\", \"test\": \"w1/netlink/N1\"}]");
    /* 1: w1 no longer starts: its tests are missing, the suite fails; the
     * msm flip is outside --suite w1. */
    add_step(f, 'b', "w1: break probe", BUILD_OK, "fail",
             "fail\tw1\n"
             "fail\tmsm/ioctl/version\n",
             "[]");
    /* 2: back, with the base's warn (not new) and a hung task (new). */
    add_step(f, 'c', "w1: fix probe", BUILD_OK, "fail", good_txt,
             "[{\"kind\": \"warn\", \"test\": \"w1/netlink/N1\"},"
             " {\"kind\": \"hung_task\", \"test\": \"w1/netlink/N2\"}]");
    /* 3: same results, the crashes as before: no regression. */
    add_step(f, 'd', "w1: comment", BUILD_OK, "fail", good_txt, both);
    /* 4: stops after its last test: incomplete after a complete run. */
    add_step(f, 'e', "w1: hang at exit", BUILD_OK, "incomplete", good_txt,
             both);
    /* 5: still incomplete: not a new regression. */
    add_step(f, 'f', "w1: more", BUILD_OK, "incomplete", good_txt, both);
    s = series_judge(f->steps, w1);

    g_assert_cmpstr(s->suites[0], ==, "w1");
    row = row_at(s, 1);
    g_assert_true(row->regressed);
    /* pass -> missing first, then the rest in diff order */
    g_assert_cmpuint(row->flips->len, ==, 4);
    g_assert_cmpuint(row->to_fail, ==, 2);
    p = g_ptr_array_index(row->flips, 0);
    g_assert_cmpstr(p->test, ==, "w1/netlink/N1");
    g_assert_cmpint(p->with, ==, KTAP_RESULT_MISSING);
    p = g_ptr_array_index(row->flips, 2);
    g_assert_cmpstr(p->test, ==, "w1/netlink/known bad");
    g_assert_cmpint(p->base, ==, KTAP_RESULT_FAIL);
    g_assert_cmpint(p->with, ==, KTAP_RESULT_MISSING);
    p = g_ptr_array_index(row->flips, 3);
    g_assert_cmpstr(p->test, ==, "w1");
    g_assert_cmpint(p->base, ==, KTAP_RESULT_MISSING);
    g_assert_cmpint(p->with, ==, KTAP_RESULT_FAIL);
    g_assert_cmpuint(row->new_crashes->len, ==, 0);

    row = row_at(s, 2);
    g_assert_true(row->regressed);
    g_assert_cmpuint(row->to_fail, ==, 0);
    g_assert_cmpuint(row->to_pass, ==, 2);
    /* compared with row 1, which had no crash: both are new */
    g_assert_cmpuint(row->new_crashes->len, ==, 2);
    c = g_ptr_array_index(row->new_crashes, 1);
    g_assert_cmpstr(c->kind, ==, "hung_task");
    g_assert_cmpstr(c->test, ==, "w1/netlink/N2");

    row = row_at(s, 3);
    g_assert_false(row->regressed);
    g_assert_cmpuint(row->flips->len, ==, 0);
    g_assert_cmpuint(row->new_crashes->len, ==, 0);

    row = row_at(s, 4);
    g_assert_true(row->newly_incomplete);
    g_assert_true(row->regressed);
    g_assert_cmpuint(row->flips->len, ==, 0);

    row = row_at(s, 5);
    g_assert_false(row->newly_incomplete);
    g_assert_false(row->regressed);

    g_assert_cmpuint(s->regressed, ==, 3);
    g_assert_true(s->first_regression == row_at(s, 1));
    g_assert_cmpint(series_exit_status(s), ==, 1);
}

static void test_judge_crash_only(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(Series) s = NULL;

    add_step(f, 'a', "base", BUILD_OK, "fail", good_txt, "[]");
    add_step(f, 'b', "w1: warn", BUILD_OK, "fail", good_txt,
             "[{\"kind\": \"warn\", \"test\": null}]");
    s = series_judge(f->steps, NULL);
    g_assert_true(row_at(s, 1)->regressed);
    g_assert_cmpuint(row_at(s, 1)->flips->len, ==, 0);
    g_assert_cmpuint(row_at(s, 1)->new_crashes->len, ==, 1);
}

static void test_exit_status(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(Series) s = NULL;
    CommitStep *step;

    add_step(f, 'a', "base", BUILD_OK, "fail", good_txt, "[]");
    add_step(f, 'b', "w1: same", BUILD_OK, "fail", good_txt, "[]");
    s = series_judge(f->steps, NULL);
    g_assert_cmpint(series_exit_status(s), ==, 0);
    g_assert_null(s->first_regression);
    g_clear_pointer(&s, series_free);

    step = add_step(f, 'c', "w1: typo", BUILD_FAILED, NULL, NULL, NULL);
    s = series_judge(f->steps, NULL);
    g_assert_cmpint(series_exit_status(s), ==, 1);
    g_clear_pointer(&s, series_free);

    /* patchbay could not try: trouble beats a build failure */
    step->build = BUILD_TROUBLE;
    s = series_judge(f->steps, NULL);
    g_assert_cmpuint(s->trouble, ==, 1);
    g_assert_cmpint(series_exit_status(s), ==, 2);
    g_clear_pointer(&s, series_free);

    /* built, but the run gave no results */
    step->build = BUILD_OK;
    step->run_exit = 2;
    step->results_dir = g_build_filename(step->dir, "results", NULL);
    s = series_judge(f->steps, NULL);
    g_assert_true(row_at(s, 2)->trouble);
    g_assert_cmpint(series_exit_status(s), ==, 2);
    g_clear_pointer(&s, series_free);

    /* a base without results: nothing to compare with */
    g_ptr_array_remove_index(f->steps, 2);
    step = g_ptr_array_index(f->steps, 0);
    step->build = BUILD_FAILED;
    g_clear_pointer(&step->results, run_results_free);
    s = series_judge(f->steps, NULL);
    g_assert_true(s->base_unusable);
    g_assert_cmpuint(s->build_failed, ==, 0);
    g_assert_null(row_at(s, 1)->prev);
    g_assert_cmpint(series_exit_status(s), ==, 2);
}

static void test_format(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(GString) many = g_string_new(NULL);
    g_autoptr(GString) broken = g_string_new(NULL);
    g_autoptr(Series) s = NULL;
    g_autofree char *table = NULL;
    CommitStep *step;

    for (guint i = 0; i < 23; i++) {
        g_string_append_printf(many, "pass\tw1/t/%02u\n", i);
        g_string_append_printf(broken, "fail\tw1/t/%02u\n", i);
    }
    add_step(f, 'a', "base", BUILD_OK, "pass", many->str, "[]");
    step = add_step(f, 'b',
                    "w1: ds2490: a subject much longer than forty characters",
                    BUILD_OK, "fail", broken->str,
                    "[{\"kind\": \"hung_task\", \"test\": \"w1/t/03\"}]");
    step->checkpatch = g_strdup("0 errors, 1 warnings, 2 checks");
    step = add_step(f, 'c', "w1: typo", BUILD_FAILED, NULL, NULL, NULL);
    step->checkpatch = g_strdup("1 errors, 0 warnings, 0 checks");
    s = series_judge(f->steps, NULL);
    table = series_format(s);

    g_assert_cmpstr(
        table, ==,
        "#     commit        subject                                   "
        "checkpatch  build    verdict     flips     build_s    run_s\n"
        "base  aaaaaaaaaaaa  base                                      "
        "-           ok       pass        -            60.0      4.2\n"
        "1     bbbbbbbbbbbb  w1: ds2490: a subject much longer tha...  "
        "0/1/2       ok       fail        +0 -23       61.0      4.2"
        "  REGRESSION\n"
        "    pass -> fail  w1/t/00\n"
        "    pass -> fail  w1/t/01\n"
        "    pass -> fail  w1/t/02\n"
        "    pass -> fail  w1/t/03\n"
        "    pass -> fail  w1/t/04\n"
        "    pass -> fail  w1/t/05\n"
        "    pass -> fail  w1/t/06\n"
        "    pass -> fail  w1/t/07\n"
        "    pass -> fail  w1/t/08\n"
        "    pass -> fail  w1/t/09\n"
        "    pass -> fail  w1/t/10\n"
        "    pass -> fail  w1/t/11\n"
        "    pass -> fail  w1/t/12\n"
        "    pass -> fail  w1/t/13\n"
        "    pass -> fail  w1/t/14\n"
        "    pass -> fail  w1/t/15\n"
        "    pass -> fail  w1/t/16\n"
        "    pass -> fail  w1/t/17\n"
        "    pass -> fail  w1/t/18\n"
        "    pass -> fail  w1/t/19\n"
        "    ... and 3 more\n"
        "    new crash: hung_task during w1/t/03\n"
        "2     cccccccccccc  w1: typo                                  "
        "1/0/0       FAIL     -           -            62.0        -"
        "  BUILD FAILED\n"
        "    build: x.c:1:1: error: oops\n"
        "series: 2 commits, 1 do not build, 1 regress; first regression: "
        "bbbbbbbbbbbb \"w1: ds2490: a subject much longer than forty "
        "characters\"\n");
}

static void test_json(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    const char *const w1[] = {"w1", NULL};
    g_autofree char *path = g_build_filename(f->tmp, "series.json", NULL);
    g_autofree char *b = sha_of('b');
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(Series) s = NULL;
    g_autoptr(GError) error = NULL;
    JsonObject *root, *row, *counts, *cp;
    JsonArray *commits, *flips, *crashes;
    CommitStep *step;

    add_step(f, 'a', "base", BUILD_OK, "fail", good_txt, "[]");
    step = add_step(f, 'b', "w1: break N2", BUILD_OK, "fail",
                    "pass\tw1/netlink/N1\n"
                    "fail\tw1/netlink/N2\n"
                    "fail\tw1/netlink/known bad\n",
                    "[{\"kind\": \"oops\", \"test\": null}]");
    step->checkpatch = g_strdup("0 errors, 1 warnings, 2 checks");
    add_step(f, 'c', "w1: typo", BUILD_FAILED, NULL, NULL, NULL);
    s = series_judge(f->steps, w1);
    g_assert_true(series_write_json(s, path, &error));
    g_assert_no_error(error);

    root = testutil_load_json(parser, path);
    g_assert_cmpstr(json_object_get_string_member(root, "first_regression"), ==,
                    b);
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "suites")), ==,
        1);
    counts = json_object_get_object_member(root, "counts");
    g_assert_cmpint(json_object_get_int_member(counts, "commits"), ==, 2);
    g_assert_cmpint(json_object_get_int_member(counts, "build_failed"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(counts, "regressed"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(counts, "trouble"), ==, 0);

    row = json_object_get_object_member(root, "base");
    g_assert_cmpstr(json_object_get_string_member(row, "subject"), ==, "base");
    g_assert_true(json_object_get_null_member(row, "checkpatch"));
    g_assert_cmpstr(json_object_get_string_member(row, "verdict"), ==, "fail");
    g_assert_false(json_object_get_boolean_member(row, "regressed"));
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(row, "flips")), ==,
        0);

    commits = json_object_get_array_member(root, "commits");
    g_assert_cmpuint(json_array_get_length(commits), ==, 2);
    row = json_array_get_object_element(commits, 0);
    g_assert_cmpstr(json_object_get_string_member(row, "sha"), ==, b);
    g_assert_cmpstr(json_object_get_string_member(row, "build"), ==, "ok");
    g_assert_true(json_object_get_null_member(row, "build_error"));
    g_assert_cmpfloat(json_object_get_double_member(row, "build_s"), ==, 61);
    g_assert_cmpfloat(json_object_get_double_member(row, "run_s"), ==, 4.25);
    g_assert_cmpint(json_object_get_int_member(row, "run_exit"), ==, 1);
    g_assert_cmpstr(json_object_get_string_member(row, "results"), ==,
                    step->results_dir);
    cp = json_object_get_object_member(row, "checkpatch");
    g_assert_cmpint(json_object_get_int_member(cp, "errors"), ==, 0);
    g_assert_cmpint(json_object_get_int_member(cp, "warnings"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(cp, "checks"), ==, 2);
    /* the msm test is missing, but outside the suites */
    flips = json_object_get_array_member(row, "flips");
    g_assert_cmpuint(json_array_get_length(flips), ==, 1);
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(flips, 0), "test"),
                    ==, "w1/netlink/N2");
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(flips, 0), "from"),
                    ==, "pass");
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(flips, 0), "to"),
                    ==, "fail");
    crashes = json_object_get_array_member(row, "new_crashes");
    g_assert_cmpuint(json_array_get_length(crashes), ==, 1);
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(crashes, 0), "kind"),
                    ==, "oops");
    g_assert_true(json_object_get_null_member(
        json_array_get_object_element(crashes, 0), "test"));
    g_assert_true(json_object_get_boolean_member(row, "regressed"));

    row = json_array_get_object_element(commits, 1);
    g_assert_cmpstr(json_object_get_string_member(row, "build"), ==, "FAIL");
    g_assert_cmpstr(json_object_get_string_member(row, "build_error"), ==,
                    "x.c:1:1: error: oops");
    g_assert_true(json_object_get_null_member(row, "verdict"));
    g_assert_true(json_object_get_null_member(row, "run_s"));
    g_assert_true(json_object_get_null_member(row, "results"));
    g_assert_false(json_object_get_boolean_member(row, "regressed"));
}

/* ---- patchbay-series with stand-in scripts ---- */

/* Builds by the commit's first digit: c does not build, t cannot be tried;
 * runs: d fails w1/b, the others pass all. */
static const char fake_patchbay[] =
    "#!/bin/sh\n"
    "cmd=$1; shift; args=\"$*\"; ref= results=\n"
    "while [ $# -gt 0 ]; do\n"
    "    case $1 in\n"
    "    --ref) ref=$2; shift 2 ;;\n"
    "    --results) results=$2; shift 2 ;;\n"
    "    *) shift ;;\n"
    "    esac\n"
    "done\n"
    "case $cmd:$ref in\n"
    "build:c*) echo '  CC      drivers/w1/w1.o'\n"
    "    echo \"drivers/w1/w1.c:10:1: error: expected ';' before '}'\"\n"
    "    echo 'patchbay: error: kernel build failed (log: x)' >&2; exit 2 ;;\n"
    "build:*) echo \"built $ref\"; exit 0 ;;\n"
    "run:*) mkdir -p \"$results\"; echo \"$args\" > \"$results/args\"\n"
    "    verdict=pass b=pass\n"
    "    case $ref in d*) verdict=fail b=fail ;; esac\n"
    "    printf 'pass\\tw1/a\\n%s\\tw1/b\\n' $b > \"$results/results.txt\"\n"
    "    printf '{\"verdict\": \"%s\", \"variant\": \"base\", \"kernel\": "
    "\"6.12\", \"crashes\": []}\\n' $verdict > \"$results/summary.json\"\n"
    "    echo \"ran $ref\"; [ $verdict = pass ] ;;\n"
    "esac\n";

static const char fake_kernel_git[] =
    "#!/bin/sh\n"
    "echo \"checkpatch of $3 in $2\" >&2\n"
    "case $3 in\n"
    "b*) echo 'total: 1 errors, 0 warnings, 3 checks, 12 lines checked' ;;\n"
    "*) echo '0 errors, 1 warnings, 2 checks' ;;\n"
    "esac\n";

static void test_program(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *scripts = g_build_filename(f->tmp, "scripts", NULL);
    g_autofree char *list = g_build_filename(f->tmp, "commits", NULL);
    g_autofree char *results = g_build_filename(f->tmp, "results", NULL);
    g_autofree char *json = g_build_filename(results, "series.json", NULL);
    g_autofree char *args_path =
        g_build_filename(results, "01-bbbbbbbbbbbb", "results", "args", NULL);
    g_autofree char *build_log =
        g_build_filename(results, "02-cccccccccccc", "build.log", NULL);
    g_autofree char *a = sha_of('a'), *b = sha_of('b'), *c = sha_of('c');
    g_autofree char *d = sha_of('d'), *e = sha_of('e');
    g_autofree char *text = g_strdup_printf(
        "%s\tbase\n%s\tw1: add b\n%s\tw1: typo\n%s\tw1: break b\n"
        "%s\tw1: fix b\n",
        a, b, c, d, e);
    g_autofree char *out = NULL, *err = NULL, *args = NULL, *log = NULL;
    g_autofree char *expect = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) error = NULL;
    const char *const argv[] = {
        "--scripts",   scripts,   "--git",   "/repo", "--commits",    list,
        "--results",   results,   "--suite", "w1",    "--checkpatch", "--",
        "--timeout=5", "--suite", "x",       NULL};
    JsonObject *root, *row;
    JsonArray *commits;

    if (!g_getenv("PATCHBAY_SERIES")) {
        g_test_skip("PATCHBAY_SERIES is not in the environment");
        return;
    }
    g_assert_cmpint(g_mkdir(scripts, 0755), ==, 0);
    testutil_write_script(scripts, "patchbay", fake_patchbay);
    testutil_write_script(scripts, "kernel-git", fake_kernel_git);
    testutil_write_file(f->tmp, "commits", text);

    g_assert_cmpint(testutil_runv("PATCHBAY_SERIES", NULL, &out, &err, argv),
                    ==, 1);
    g_assert_true(g_str_has_prefix(
        out, "#     commit        subject                                   "
             "checkpatch  build    verdict     flips     build_s    run_s\n"
             "base  aaaaaaaaaaaa  base                                      "
             "-           ok       pass        -     "));
    g_assert_nonnull(strstr(out, "\n1     bbbbbbbbbbbb  w1: add b          "
                                 "                       1/0/3       ok     "
                                 "  pass        +0 -0    "));
    g_assert_nonnull(strstr(out, "\n2     cccccccccccc  w1: typo           "
                                 "                       0/1/2       FAIL   "
                                 "  -           -        "));
    g_assert_nonnull(strstr(out, "  BUILD FAILED\n    build: "
                                 "drivers/w1/w1.c:10:1: error: expected ';' "
                                 "before '}'\n3     dddddddddddd  "));
    g_assert_nonnull(strstr(out, "  REGRESSION\n    pass -> fail  w1/b\n"
                                 "4     eeeeeeeeeeee  "));
    g_assert_true(g_str_has_suffix(out, "\nseries: 4 commits, 1 do not build, "
                                        "1 regress; first regression: "
                                        "dddddddddddd \"w1: break b\"\n"));
    g_assert_nonnull(strstr(err, "==> cccccccccccc w1: typo: building\n"));
    g_assert_nonnull(strstr(err, "==> dddddddddddd w1: break b: running\n"));
    g_assert_null(strstr(err, "==> aaaaaaaaaaaa base: checkpatch"));

    /* --suite for every run, then the options after "--" as given */
    g_assert_true(g_file_get_contents(args_path, &args, NULL, &error));
    g_assert_no_error(error);
    expect = g_strdup_printf("--git /repo --ref %s --results "
                             "%s/01-bbbbbbbbbbbb/results --suite w1 "
                             "--timeout=5 --suite x\n",
                             b, results);
    g_assert_cmpstr(args, ==, expect);
    g_assert_true(g_file_get_contents(build_log, &log, NULL, &error));
    g_assert_nonnull(strstr(log, "patchbay: error: kernel build failed"));

    root = testutil_load_json(parser, json);
    g_assert_cmpstr(json_object_get_string_member(root, "first_regression"), ==,
                    d);
    commits = json_object_get_array_member(root, "commits");
    g_assert_cmpuint(json_array_get_length(commits), ==, 4);
    row = json_array_get_object_element(commits, 3);
    g_assert_cmpstr(json_object_get_string_member(row, "sha"), ==, e);
    g_assert_cmpstr(json_object_get_string_member(row, "verdict"), ==, "pass");
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(row, "flips")), ==,
        1);
    g_assert_false(json_object_get_boolean_member(row, "regressed"));
    row = json_array_get_object_element(commits, 1);
    g_assert_cmpstr(json_object_get_string_member(row, "build"), ==, "FAIL");
    g_assert_cmpstr(json_object_get_string_member(row, "sha"), ==, c);
}

static void test_program_bad_input(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *list = g_build_filename(f->tmp, "commits", NULL);
    g_autofree char *results = g_build_filename(f->tmp, "results", NULL);
    g_autofree char *a = sha_of('a');
    g_autofree char *one = g_strdup_printf("%s\tbase\n", a);
    g_autofree char *bad = g_strdup_printf("%s\tbase\nnot a commit\n", a);
    const char *const argv[] = {"--scripts", f->tmp,      "--git",
                                "/repo",     "--commits", list,
                                "--results", results,     NULL};
    const char *const no_git[] = {"--scripts", f->tmp,  "--commits", list,
                                  "--results", results, NULL};
    g_autofree char *out = NULL, *err = NULL;

    if (!g_getenv("PATCHBAY_SERIES")) {
        g_test_skip("PATCHBAY_SERIES is not in the environment");
        return;
    }
    /* unreadable list */
    g_assert_cmpint(testutil_runv("PATCHBAY_SERIES", NULL, &out, &err, argv),
                    ==, 2);
    g_assert_nonnull(strstr(err, "patchbay-series: --commits: "));

    testutil_write_file(f->tmp, "commits", one);
    g_assert_cmpint(testutil_runv("PATCHBAY_SERIES", NULL, &out, &err, argv),
                    ==, 2);
    g_assert_nonnull(strstr(err, "has 1 commit: it needs the base and at "
                                 "least one commit\n"));

    testutil_write_file(f->tmp, "commits", bad);
    g_assert_cmpint(testutil_runv("PATCHBAY_SERIES", NULL, &out, &err, argv),
                    ==, 2);
    g_assert_nonnull(strstr(err, "commits:2: expected 'SHA<TAB>SUBJECT'"));

    g_assert_cmpint(testutil_runv("PATCHBAY_SERIES", NULL, &out, &err, no_git),
                    ==, 2);
    g_assert_nonnull(strstr(err, "usage: patchbay-series"));
    g_assert_cmpstr(out, ==, "");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/series/build-log/first-error", test_first_error);
    g_test_add_func("/series/build-log/status", test_log_status);
    g_test_add_func("/series/checkpatch-counts", test_checkpatch_counts);
#define ADD(path, fn)                                             \
    g_test_add("/series/" path, Fixture, NULL, fixture_setup, fn, \
               fixture_teardown)
    ADD("commits/load", test_commits_load);
    ADD("commits/malformed", test_commits_malformed);
    ADD("judge/skip-unbuilt", test_judge_skip_unbuilt);
    ADD("judge/regressions", test_judge_regressions);
    ADD("judge/crash-only", test_judge_crash_only);
    ADD("exit-status", test_exit_status);
    ADD("format", test_format);
    ADD("json", test_json);
    ADD("program", test_program);
    ADD("program/bad-input", test_program_bad_input);
#undef ADD
    return g_test_run();
}
