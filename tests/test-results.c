/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the result-folder comparison library (runner/results.c) and of the
 * exit codes and output of patchbay-compare and patchbay-mutants, run on
 * fixture directories built in a temporary directory.
 *
 * tests/meson.build passes the programs' paths in PATCHBAY_COMPARE and
 * PATCHBAY_MUTANTS.
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "results.h"
#include "testutil.h"

typedef TmpFixture Fixture;

static RunResults *load_ok(const char *dir)
{
    g_autoptr(GError) error = NULL;
    RunResults *run = run_results_load(dir, &error);

    g_assert_no_error(error);
    g_assert_nonnull(run);
    return run;
}

static const char base_txt[] = "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                               "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                               "pass\tmsm/ioctl/version\n"
                               "fail\tmsm/ioctl/known bad\n"
                               "pass\tw1/netlink/N1 LIST_MASTERS\n"
                               "skip\tw1/sysfs/S12\n";

/* ---- loading ---- */

static void test_load_good(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir = testutil_make_run(
        f->tmp, "good", "msm-x", "fail",
        "pass\tmsm/ioctl/case one\n"
        "fail\tmsm/ioctl/case #2 with 3 digits\n"
        "skip\tw1/netlink/skipped\n"
        "none\tw1/netlink/#4\n",
        "[{\"kind\": \"panic\", \"test\": \"w1/netlink/#4\", "
        "\"excerpt\": \"x\"},"
        " {\"kind\": \"warn\", \"test\": null, \"excerpt\": \"y\"}]");
    g_autoptr(RunResults) run = load_ok(dir);
    RunCrash *c;

    g_assert_cmpstr(run->verdict, ==, "fail");
    g_assert_cmpstr(run->variant, ==, "msm-x");
    g_assert_cmpstr(run->kernel, ==, "6.12.1");
    g_assert_cmpuint(run->tests->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(run->tests, 0), ==, "msm/ioctl/case one");
    g_assert_cmpstr(g_ptr_array_index(run->tests, 1), ==,
                    "msm/ioctl/case #2 with 3 digits");
    g_assert_cmpstr(g_ptr_array_index(run->tests, 3), ==, "w1/netlink/#4");
    g_assert_cmpint(run_results_get(run, "msm/ioctl/case one"), ==,
                    KTAP_RESULT_PASS);
    g_assert_cmpint(run_results_get(run, "msm/ioctl/case #2 with 3 digits"), ==,
                    KTAP_RESULT_FAIL);
    g_assert_cmpint(run_results_get(run, "w1/netlink/skipped"), ==,
                    KTAP_RESULT_SKIP);
    g_assert_cmpint(run_results_get(run, "w1/netlink/#4"), ==,
                    KTAP_RESULT_NONE);
    g_assert_cmpint(run_results_get(run, "w1/netlink/nope"), ==,
                    KTAP_RESULT_MISSING);
    g_assert_cmpuint(run->crashes->len, ==, 2);
    c = g_ptr_array_index(run->crashes, 0);
    g_assert_cmpstr(c->kind, ==, "panic");
    g_assert_cmpstr(c->test, ==, "w1/netlink/#4");
    c = g_ptr_array_index(run->crashes, 1);
    g_assert_cmpstr(c->kind, ==, "warn");
    g_assert_null(c->test);
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_MISSING), ==, "missing");
    g_assert_cmpstr(ktap_result_name(KTAP_RESULT_NONE), ==, "none");
}

static void test_load_empty(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir =
        testutil_make_run(f->tmp, "empty", "base", "incomplete", "", "[]");
    g_autoptr(RunResults) run = load_ok(dir);

    g_assert_cmpuint(run->tests->len, ==, 0);
    g_assert_cmpstr(run->verdict, ==, "incomplete");
}

static void test_load_missing(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir =
        testutil_make_run(f->tmp, "m", "base", "pass", "pass\ta/b/c\n", "[]");
    g_autofree char *txt = g_build_filename(dir, "results.txt", NULL);
    g_autofree char *json = g_build_filename(dir, "summary.json", NULL);
    g_autofree char *nodir = g_build_filename(f->tmp, "no-such-dir", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_null(run_results_load(nodir, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_clear_error(&error);

    g_unlink(txt);
    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_assert_nonnull(strstr(error->message, txt));
    g_clear_error(&error);

    testutil_write_file(dir, "results.txt", "pass\ta/b/c\n");
    g_unlink(json);
    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_assert_nonnull(strstr(error->message, json));
}

static void test_load_malformed_line(Fixture *f,
                                     G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir = testutil_make_run(
        f->tmp, "bad", "base", "pass", "pass\ta/b/c\npass a/b/no tab\n", "[]");
    g_autofree char *expect = g_strdup_printf(
        "%s/results.txt:2: no TAB between result and test path", dir);
    g_autoptr(GError) error = NULL;

    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_cmpstr(error->message, ==, expect);
}

static void test_load_unknown_result(Fixture *f,
                                     G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir = testutil_make_run(f->tmp, "bad", "base", "pass",
                                             "passed\ta/b/c\n", "[]");
    g_autofree char *expect = g_strdup_printf(
        "%s/results.txt:1: unknown result 'passed' (not pass, fail, skip or "
        "none)",
        dir);
    g_autoptr(GError) error = NULL;

    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_cmpstr(error->message, ==, expect);
}

static void test_load_bad_json(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir =
        testutil_make_run(f->tmp, "bad", "base", "pass", "pass\ta/b/c\n", "[]");
    g_autofree char *json = g_build_filename(dir, "summary.json", NULL);
    g_autoptr(GError) error = NULL;

    testutil_write_file(dir, "summary.json", "{\"verdict\": \"pass\",");
    g_assert_null(run_results_load(dir, &error));
    g_assert_true(error->domain == JSON_PARSER_ERROR);
    g_assert_true(g_str_has_prefix(error->message, json));
    g_clear_error(&error);

    testutil_write_file(dir, "summary.json",
                        "{\"verdict\": \"great\", \"variant\": \"base\", "
                        "\"kernel\": \"6\", \"crashes\": []}");
    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_true(g_str_has_prefix(error->message, json));
    g_assert_nonnull(strstr(error->message, "unknown verdict 'great'"));
    g_clear_error(&error);

    testutil_write_file(
        dir, "summary.json",
        "{\"verdict\": \"pass\", \"kernel\": \"6\", \"crashes\": []}");
    g_assert_null(run_results_load(dir, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void test_load_repeats(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *dir = testutil_make_run(f->tmp, "rep", "base", "fail",
                                             "pass\ts/e/same\n"
                                             "pass\ts/e/other\n"
                                             "fail\ts/e/same\n"
                                             "skip\ts/e/same\n",
                                             "[]");
    g_autoptr(RunResults) run = load_ok(dir);

    g_assert_cmpuint(run->tests->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(run->tests, 0), ==, "s/e/same");
    g_assert_cmpstr(g_ptr_array_index(run->tests, 1), ==, "s/e/other");
    g_assert_cmpstr(g_ptr_array_index(run->tests, 2), ==, "s/e/same [2]");
    g_assert_cmpstr(g_ptr_array_index(run->tests, 3), ==, "s/e/same [3]");
    g_assert_cmpint(run_results_get(run, "s/e/same"), ==, KTAP_RESULT_PASS);
    g_assert_cmpint(run_results_get(run, "s/e/same [2]"), ==, KTAP_RESULT_FAIL);
    g_assert_cmpint(run_results_get(run, "s/e/same [3]"), ==, KTAP_RESULT_SKIP);
}

/* ---- diff ---- */

static void assert_pair(GPtrArray *pairs, guint i, const char *test,
                        KtapResult base, KtapResult with)
{
    TestPair *p;

    g_assert_cmpuint(i, <, pairs->len);
    p = g_ptr_array_index(pairs, i);
    g_assert_cmpstr(p->test, ==, test);
    g_assert_cmpint(p->base, ==, base);
    g_assert_cmpint(p->with, ==, with);
}

static void test_diff(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *bdir =
        testutil_make_run(f->tmp, "base", "base", "fail", base_txt, "[]");
    g_autofree char *wdir = testutil_make_run(
        f->tmp, "with", "v", "fail",
        "pass\tw1/netlink/N1 LIST_MASTERS\n"    /* same, other position */
        "pass\tmsm/ioctl/new case\n"            /* only in with */
        "fail\tmsm/ioctl/GEM_NEW flags bit 3\n" /* pass -> fail */
        "pass\tmsm/ioctl/known bad\n"           /* fail -> pass */
        "pass\tmsm/ioctl/version\n"
        "pass\tctl/a/b\n"       /* only in with */
        "none\tw1/sysfs/S12\n", /* skip -> none */
        "[]");                  /* bit 2 missing */
    g_autoptr(RunResults) base = load_ok(bdir);
    g_autoptr(RunResults) with = load_ok(wdir);
    g_autoptr(GPtrArray) all = results_diff(base, with, NULL);
    const char *msm_ctl[] = {"msm", "ctl", NULL};
    g_autoptr(GPtrArray) some = results_diff(base, with, msm_ctl);
    const char *none[] = {NULL};
    g_autoptr(GPtrArray) empty_list = results_diff(base, with, none);
    const char *nosuch[] = {"ms", NULL};
    g_autoptr(GPtrArray) prefix_only = results_diff(base, with, nosuch);

    g_assert_cmpuint(all->len, ==, 8);
    assert_pair(all, 0, "msm/ioctl/GEM_NEW flags bit 2", KTAP_RESULT_PASS,
                KTAP_RESULT_MISSING);
    assert_pair(all, 1, "msm/ioctl/GEM_NEW flags bit 3", KTAP_RESULT_PASS,
                KTAP_RESULT_FAIL);
    assert_pair(all, 2, "msm/ioctl/version", KTAP_RESULT_PASS,
                KTAP_RESULT_PASS);
    assert_pair(all, 3, "msm/ioctl/known bad", KTAP_RESULT_FAIL,
                KTAP_RESULT_PASS);
    assert_pair(all, 4, "w1/netlink/N1 LIST_MASTERS", KTAP_RESULT_PASS,
                KTAP_RESULT_PASS);
    assert_pair(all, 5, "w1/sysfs/S12", KTAP_RESULT_SKIP, KTAP_RESULT_NONE);
    assert_pair(all, 6, "msm/ioctl/new case", KTAP_RESULT_MISSING,
                KTAP_RESULT_PASS);
    assert_pair(all, 7, "ctl/a/b", KTAP_RESULT_MISSING, KTAP_RESULT_PASS);

    g_assert_cmpuint(some->len, ==, 6);
    assert_pair(some, 0, "msm/ioctl/GEM_NEW flags bit 2", KTAP_RESULT_PASS,
                KTAP_RESULT_MISSING);
    assert_pair(some, 3, "msm/ioctl/known bad", KTAP_RESULT_FAIL,
                KTAP_RESULT_PASS);
    assert_pair(some, 4, "msm/ioctl/new case", KTAP_RESULT_MISSING,
                KTAP_RESULT_PASS);
    assert_pair(some, 5, "ctl/a/b", KTAP_RESULT_MISSING, KTAP_RESULT_PASS);

    /* An empty list means no restriction; a suite matches whole words. */
    g_assert_cmpuint(empty_list->len, ==, 8);
    g_assert_cmpuint(prefix_only->len, ==, 0);
    g_assert_true(test_in_suites("msm/a/b", msm_ctl));
    g_assert_false(test_in_suites("msm2/a/b", msm_ctl));
    g_assert_false(test_in_suites("w1/a/b", msm_ctl));
}

/* ---- variant meta ---- */

static const char meta_txt[] =
    "# Negative control: which check this variant removes, and which tests\n"
    "# must notice.\n"
    "removes: drivers/x.c f(): -EINVAL for flags: outside MASK\n"
    "\n"
    "owner: someone\n"
    "suites:  msm   w1\n"
    "killed-by: msm/ioctl/GEM_NEW flags bit\n"
    "killed-by: msm/ioctl/GEM_NEW on an unknown handle\n";

static void test_meta(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *path = g_build_filename(f->tmp, "variant", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(VariantMeta) meta = NULL;

    testutil_write_file(f->tmp, "variant", meta_txt);
    meta = variant_meta_load(path, &error);
    g_assert_no_error(error);
    g_assert_cmpstr(meta->removes, ==,
                    "drivers/x.c f(): -EINVAL for flags: outside MASK");
    g_assert_cmpuint(g_strv_length(meta->suites), ==, 2);
    g_assert_cmpstr(meta->suites[0], ==, "msm");
    g_assert_cmpstr(meta->suites[1], ==, "w1");
    g_assert_cmpuint(g_strv_length(meta->killed_by), ==, 2);
    g_assert_cmpstr(meta->killed_by[0], ==, "msm/ioctl/GEM_NEW flags bit");
    g_assert_cmpstr(meta->killed_by[1], ==,
                    "msm/ioctl/GEM_NEW on an unknown handle");
    g_assert_true(variant_meta_expects(meta, "msm/ioctl/GEM_NEW flags bit 3"));
    g_assert_true(
        variant_meta_expects(meta, "msm/ioctl/GEM_NEW on an unknown handle"));
    g_assert_false(variant_meta_expects(meta, "msm/ioctl/GEM_NEW size 0"));
    g_assert_false(variant_meta_expects(meta, NULL));
}

static void test_meta_errors(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *path = g_build_filename(f->tmp, "variant", NULL);
    g_autofree char *nofile = g_build_filename(f->tmp, "nofile", NULL);
    g_autofree char *expect =
        g_strdup_printf("%s:2: expected 'key: value'", path);
    g_autoptr(GError) error = NULL;

    testutil_write_file(f->tmp, "variant", "# c\nsuites msm\n");
    g_assert_null(variant_meta_load(path, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_cmpstr(error->message, ==, expect);
    g_clear_error(&error);

    testutil_write_file(f->tmp, "variant",
                        "removes: x\nsuites:\nkilled-by: msm/a\n");
    g_assert_null(variant_meta_load(path, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_true(g_str_has_prefix(error->message, path));
    g_clear_error(&error);

    testutil_write_file(f->tmp, "variant", "removes: x\nsuites: msm\n");
    g_assert_null(variant_meta_load(path, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_clear_error(&error);

    g_assert_null(variant_meta_load(nofile, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* ---- mutant classification ---- */

static VariantMeta *meta_for(Fixture *f, const char *suites,
                             const char *killed_by)
{
    g_autofree char *text = g_strdup_printf("removes: a check\nsuites: %s\n"
                                            "killed-by: %s\n",
                                            suites, killed_by);
    g_autofree char *path = g_build_filename(f->tmp, "variant", NULL);
    g_autoptr(GError) error = NULL;
    VariantMeta *meta;

    testutil_write_file(f->tmp, "variant", text);
    meta = variant_meta_load(path, &error);
    g_assert_no_error(error);
    return meta;
}

static MutantVerdict *classify(Fixture *f, const char *results,
                               const char *verdict, const char *crashes,
                               const char *killed_by)
{
    g_autofree char *bdir =
        testutil_make_run(f->tmp, "base", "base", "fail", base_txt, "[]");
    g_autofree char *mdir =
        testutil_make_run(f->tmp, "mutant", "m", verdict, results, crashes);
    g_autoptr(RunResults) base = load_ok(bdir);
    g_autoptr(RunResults) mutant = load_ok(mdir);
    g_autoptr(VariantMeta) meta = meta_for(f, "msm", killed_by);

    return mutant_classify(base, mutant, meta);
}

static void test_mutant_killed_by_fail(Fixture *f,
                                       G_GNUC_UNUSED gconstpointer data)
{
    /* bit 3 fails, bit 2 never finished: two killers. "version" is
     * missing, which is not a kill (a renamed test); "known bad" failed in
     * base too, and w1 is not msm's. */
    g_autoptr(MutantVerdict) v =
        classify(f,
                 "none\tmsm/ioctl/GEM_NEW flags bit 2\n"
                 "fail\tmsm/ioctl/GEM_NEW flags bit 3\n"
                 "fail\tmsm/ioctl/known bad\n"
                 "fail\tmsm/ioctl/new case\n",
                 "fail", "[]", "msm/ioctl/GEM_NEW flags bit");

    g_assert_cmpint(v->status, ==, MUTANT_KILLED);
    g_assert_cmpstr(mutant_status_name(v->status), ==, "killed");
    g_assert_cmpuint(v->killers->len, ==, 2);
    g_assert_cmpstr(g_ptr_array_index(v->killers, 0), ==,
                    "msm/ioctl/GEM_NEW flags bit 2");
    g_assert_cmpstr(g_ptr_array_index(v->killers, 1), ==,
                    "msm/ioctl/GEM_NEW flags bit 3");
    g_assert_true(v->expected);
    g_assert_cmpuint(v->elsewhere, ==, 0);
}

static void test_mutant_killed_by_crash(Fixture *f,
                                        G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(MutantVerdict) v =
        classify(f,
                 "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                 "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                 "pass\tmsm/ioctl/version\n"
                 "fail\tmsm/ioctl/known bad\n",
                 "fail",
                 "[{\"kind\": \"warn\", \"test\": \"msm/ioctl/version\", "
                 "\"excerpt\": \"\"}]",
                 "msm/ioctl/GEM_NEW flags bit");

    g_assert_cmpint(v->status, ==, MUTANT_KILLED);
    g_assert_cmpuint(v->killers->len, ==, 1);
    g_assert_cmpstr(g_ptr_array_index(v->killers, 0), ==,
                    "kernel warn during msm/ioctl/version");
    g_assert_false(v->expected);
    g_assert_cmpuint(v->elsewhere, ==, 1);
}

static void test_mutant_crash_expected(Fixture *f,
                                       G_GNUC_UNUSED gconstpointer data)
{
    /* A crash during a declared killer is the expected kill; a crash in
     * no test counts as elsewhere; crashes come first even if the run is
     * incomplete. */
    g_autoptr(MutantVerdict) v = classify(
        f,
        "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
        "none\tmsm/ioctl/GEM_NEW flags bit 3\n",
        "incomplete",
        "[{\"kind\": \"panic\", \"test\": \"msm/ioctl/GEM_NEW flags bit 3\", "
        "\"excerpt\": \"\"}, {\"kind\": \"hang\", \"test\": null, "
        "\"excerpt\": \"\"}]",
        "msm/ioctl/GEM_NEW flags bit");

    g_assert_cmpint(v->status, ==, MUTANT_KILLED);
    g_assert_cmpuint(v->killers->len, ==, 3);
    g_assert_cmpstr(g_ptr_array_index(v->killers, 0), ==,
                    "kernel panic during msm/ioctl/GEM_NEW flags bit 3");
    g_assert_cmpstr(g_ptr_array_index(v->killers, 1), ==,
                    "kernel hang during (no test)");
    g_assert_cmpstr(g_ptr_array_index(v->killers, 2), ==,
                    "msm/ioctl/GEM_NEW flags bit 3");
    g_assert_true(v->expected);
    g_assert_cmpuint(v->elsewhere, ==, 1);
}

static void test_mutant_survived(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    /* Same msm results; a skip where base passed is not a kill. */
    g_autoptr(MutantVerdict) v =
        classify(f,
                 "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                 "skip\tmsm/ioctl/GEM_NEW flags bit 3\n"
                 "pass\tmsm/ioctl/version\n"
                 "fail\tmsm/ioctl/known bad\n",
                 "fail", "[]", "msm/ioctl/GEM_NEW flags bit");

    g_assert_cmpint(v->status, ==, MUTANT_SURVIVED);
    g_assert_cmpstr(mutant_status_name(v->status), ==, "survived");
    g_assert_cmpuint(v->killers->len, ==, 0);
    g_assert_false(v->expected);
    g_assert_cmpuint(v->elsewhere, ==, 0);
}

static void test_mutant_suite_failed(Fixture *f,
                                     G_GNUC_UNUSED gconstpointer data)
{
    /* The suite could not even start ("not ok 1 msm # no such suite"):
     * a kill by the suite itself, expected when it is declared so. */
    g_autoptr(MutantVerdict) v =
        classify(f, "fail\tmsm\n", "fail", "[]", "msm");

    g_assert_cmpint(v->status, ==, MUTANT_KILLED);
    g_assert_cmpuint(v->killers->len, ==, 1);
    g_assert_cmpstr(g_ptr_array_index(v->killers, 0), ==, "msm");
    g_assert_true(v->expected);
    g_assert_cmpuint(v->elsewhere, ==, 0);
}

static void test_mutant_incomplete(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(MutantVerdict) v =
        classify(f,
                 "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                 "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                 "pass\tmsm/ioctl/version\n",
                 "incomplete", "[]", "msm/ioctl/GEM_NEW flags bit");

    g_assert_cmpint(v->status, ==, MUTANT_INCOMPLETE);
    g_assert_cmpstr(mutant_status_name(v->status), ==, "incomplete");
    g_assert_cmpuint(v->killers->len, ==, 0);
}

/* ---- the programs ---- */

static void test_compare_exit(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *base =
        testutil_make_run(f->tmp, "base", "base", "fail", base_txt, "[]");
    g_autofree char *same =
        testutil_make_run(f->tmp, "same", "base", "fail", base_txt, "[]");
    g_autofree char *crash = testutil_make_run(
        f->tmp, "crash", "base", "fail", base_txt,
        "[{\"kind\": \"oops\", \"test\": \"msm/ioctl/version\", "
        "\"excerpt\": \"\"}]");
    g_autofree char *with =
        testutil_make_run(f->tmp, "with", "v", "fail",
                          "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                          "fail\tmsm/ioctl/GEM_NEW flags bit 3\n"
                          "pass\tmsm/ioctl/version\n"
                          "pass\tmsm/ioctl/known bad\n",
                          "[]");
    g_autofree char *inc =
        testutil_make_run(f->tmp, "inc", "base", "incomplete", base_txt, "[]");
    g_autofree char *nodir = g_build_filename(f->tmp, "nothing", NULL);
    g_autofree char *json = g_build_filename(f->tmp, "cmp.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *out = NULL;
    JsonObject *root, *counts;
    JsonArray *changed;
    int code;

    code = testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, same, NULL);
    if (code < 0) {
        return;
    }
    g_assert_cmpint(code, ==, 0);
    g_assert_true(g_str_has_suffix(out, "\nno test differs (6 compared); "
                                        "crashes: base 0, with 0\n"));
    g_clear_pointer(&out, g_free);

    /* Only a crash differs. */
    g_assert_cmpint(
        testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, crash, NULL),
        ==, 1);
    g_assert_nonnull(strstr(out, "\n  crash (with): oops during "
                                 "msm/ioctl/version\n"));
    g_clear_pointer(&out, g_free);

    g_assert_cmpint(testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL,
                                 "--suite", "msm", "--json", json, base, with,
                                 NULL),
                    ==, 1);
    g_assert_cmpstr(out, ==,
                    "base: base (6.12.1), verdict fail, 4 tests\n"
                    "with: v (6.12.1), verdict fail, 4 tests\n"
                    "  pass -> fail   msm/ioctl/GEM_NEW flags bit 3\n"
                    "  fail -> pass   msm/ioctl/known bad\n"
                    "2 of 4 tests differ: 1 pass->fail, 1 fail->pass, 0 other; "
                    "crashes: base 0, with 0\n");
    g_clear_pointer(&out, g_free);
    root = testutil_load_json(parser, json);
    counts = json_object_get_object_member(root, "counts");
    g_assert_cmpint(json_object_get_int_member(counts, "compared"), ==, 4);
    g_assert_cmpint(json_object_get_int_member(counts, "changed"), ==, 2);
    g_assert_cmpint(json_object_get_int_member(counts, "pass_to_fail"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(counts, "fail_to_pass"), ==, 1);
    g_assert_cmpint(json_object_get_int_member(counts, "other"), ==, 0);
    changed = json_object_get_array_member(root, "changed");
    g_assert_cmpuint(json_array_get_length(changed), ==, 2);
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(changed, 0), "test"),
                    ==, "msm/ioctl/GEM_NEW flags bit 3");
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(changed, 0), "with"),
                    ==, "fail");
    g_assert_cmpint(json_object_get_int_member(
                        json_object_get_object_member(root, "with"), "tests"),
                    ==, 4);
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "suites")), ==,
        1);

    /* Without --suite the w1 tests are missing in with: 4 changed. */
    g_assert_cmpint(
        testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, with, NULL),
        ==, 1);
    g_assert_true(g_str_has_suffix(out,
                                   "\n4 of 6 tests differ: 1 pass->fail, "
                                   "1 fail->pass, 2 other; crashes: base 0, "
                                   "with 0\n"));
    g_clear_pointer(&out, g_free);

    /* Trouble: incomplete run, unusable dir, unknown suite, bad usage. */
    g_assert_cmpint(
        testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, inc, NULL), ==,
        2);
    g_assert_nonnull(strstr(out, "no test differs")); /* still printed */
    g_clear_pointer(&out, g_free);
    g_assert_cmpint(
        testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, nodir, NULL),
        ==, 2);
    g_clear_pointer(&out, g_free);
    g_assert_cmpint(testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL,
                                 "--suite", "nosuch", base, same, NULL),
                    ==, 2);
    g_clear_pointer(&out, g_free);
    g_assert_cmpint(
        testutil_run("PATCHBAY_COMPARE", NULL, &out, NULL, base, NULL), ==, 2);
}

/* A mutant result dir with its variant.meta. */
static char *make_mutant(Fixture *f, const char *name, const char *verdict,
                         const char *results, const char *crashes,
                         const char *killed_by)
{
    char *dir =
        testutil_make_run(f->tmp, name, name, verdict, results, crashes);
    g_autofree char *meta = g_strdup_printf(
        "# comment\nremoves: %s's check\nsuites: msm\nkilled-by: %s\n", name,
        killed_by);

    testutil_write_file(dir, "variant.meta", meta);
    return dir;
}

static void test_mutants_exit(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *base =
        testutil_make_run(f->tmp, "base", "base", "fail", base_txt, "[]");
    g_autofree char *killed =
        make_mutant(f, "m-killed", "fail",
                    "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                    "fail\tmsm/ioctl/GEM_NEW flags bit 3\n"
                    "fail\tmsm/ioctl/version\n"
                    "fail\tmsm/ioctl/known bad\n",
                    "[]", "msm/ioctl/GEM_NEW");
    g_autofree char *crashed =
        make_mutant(f, "m-crashed", "fail",
                    "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                    "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                    "pass\tmsm/ioctl/version\n",
                    "[{\"kind\": \"oops\", \"test\": \"msm/ioctl/version\", "
                    "\"excerpt\": \"\"}]",
                    "msm/ioctl/GEM_NEW");
    g_autofree char *survived =
        make_mutant(f, "m-survived", "pass",
                    "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                    "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                    "pass\tmsm/ioctl/version\n",
                    "[]", "msm/ioctl/GEM_NEW");
    g_autofree char *inc = make_mutant(f, "m-inc", "incomplete",
                                       "pass\tmsm/ioctl/GEM_NEW flags bit 2\n"
                                       "pass\tmsm/ioctl/GEM_NEW flags bit 3\n"
                                       "pass\tmsm/ioctl/version\n",
                                       "[]", "msm/ioctl/GEM_NEW");
    g_autofree char *nodir = g_build_filename(f->tmp, "m-gone", NULL);
    g_autofree char *json = g_build_filename(f->tmp, "m.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *out = NULL;
    JsonObject *root, *m;
    JsonArray *mutants;
    int code;

    code = testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, base, killed,
                        crashed, NULL);
    if (code < 0) {
        return;
    }
    g_assert_cmpint(code, ==, 0);
    g_assert_cmpstr(
        out, ==,
        "MUTANT                           STATUS    KILLED BY\n"
        "m-killed                         killed    2 tests: "
        "msm/ioctl/GEM_NEW flags bit 3, msm/ioctl/version\n"
        "  removes: m-killed's check\n"
        "  note: 1 killer outside 'msm/ioctl/GEM_NEW'\n"
        "m-crashed                        killed    1 killer: "
        "kernel oops during msm/ioctl/version\n"
        "  removes: m-crashed's check\n"
        "  note: declared killed-by 'msm/ioctl/GEM_NEW' but none of its tests "
        "failed\n"
        "mutation score: 2/2 killed (100%)\n");
    g_clear_pointer(&out, g_free);

    g_assert_cmpint(testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, "--json",
                                 json, base, killed, survived, crashed, NULL),
                    ==, 1);
    g_assert_nonnull(strstr(out,
                            "\nm-survived                       SURVIVED  "
                            "no test noticed: the msm suite misses this check "
                            "(a gap in the tests, not a kernel bug)\n"));
    g_assert_true(g_str_has_suffix(out, "\nmutation score: 2/3 killed (66%): "
                                        "1 survived, 0 incomplete\n"));
    g_clear_pointer(&out, g_free);
    root = testutil_load_json(parser, json);
    g_assert_cmpint(json_object_get_int_member(root, "killed"), ==, 2);
    g_assert_cmpint(json_object_get_int_member(root, "total"), ==, 3);
    g_assert_cmpint(json_object_get_int_member(root, "score_percent"), ==, 66);
    g_assert_cmpint(json_object_get_int_member(
                        json_object_get_object_member(root, "base"), "tests"),
                    ==, 6);
    mutants = json_object_get_array_member(root, "mutants");
    g_assert_cmpuint(json_array_get_length(mutants), ==, 3);
    m = json_array_get_object_element(mutants, 0);
    g_assert_cmpstr(json_object_get_string_member(m, "name"), ==, "m-killed");
    g_assert_cmpstr(json_object_get_string_member(m, "status"), ==, "killed");
    g_assert_cmpstr(json_object_get_string_member(m, "removes"), ==,
                    "m-killed's check");
    g_assert_cmpuint(json_array_get_length(
                         json_object_get_array_member(m, "declared_killed_by")),
                     ==, 1);
    g_assert_cmpstr(
        json_array_get_string_element(
            json_object_get_array_member(m, "declared_killed_by"), 0),
        ==, "msm/ioctl/GEM_NEW");
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(m, "killers")), ==,
        2);
    g_assert_true(json_object_get_boolean_member(m, "expected"));
    g_assert_cmpint(json_object_get_int_member(m, "elsewhere"), ==, 1);
    m = json_array_get_object_element(mutants, 1);
    g_assert_cmpstr(json_object_get_string_member(m, "status"), ==, "survived");
    g_assert_false(json_object_get_boolean_member(m, "expected"));
    m = json_array_get_object_element(mutants, 2);
    g_assert_false(json_object_get_boolean_member(m, "expected"));
    g_assert_cmpint(json_object_get_int_member(m, "elsewhere"), ==, 1);

    /* Incomplete and unusable beat a survivor: exit 2. */
    g_assert_cmpint(testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, base,
                                 survived, inc, NULL),
                    ==, 2);
    g_assert_nonnull(strstr(out, "\nm-inc                            "
                                 "INCOMPLETE "));
    g_clear_pointer(&out, g_free);
    g_assert_cmpint(testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, base,
                                 killed, nodir, NULL),
                    ==, 2);
    g_assert_nonnull(strstr(out, "\nm-gone                           "
                                 "INCOMPLETE unusable results: "));
    g_assert_true(g_str_has_suffix(out, "\nmutation score: 1/2 killed (50%): "
                                        "0 survived, 1 incomplete\n"));
    g_clear_pointer(&out, g_free);
    /* Unusable base, missing mutants. */
    g_assert_cmpint(
        testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, nodir, killed, NULL),
        ==, 2);
    g_clear_pointer(&out, g_free);
    g_assert_cmpint(
        testutil_run("PATCHBAY_MUTANTS", NULL, &out, NULL, base, NULL), ==, 2);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define ADD(path, fn)                                                  \
    g_test_add("/results/" path, Fixture, NULL, tmp_fixture_setup, fn, \
               tmp_fixture_teardown)
    ADD("load/good", test_load_good);
    ADD("load/empty", test_load_empty);
    ADD("load/missing", test_load_missing);
    ADD("load/malformed-line", test_load_malformed_line);
    ADD("load/unknown-result", test_load_unknown_result);
    ADD("load/bad-json", test_load_bad_json);
    ADD("load/repeats", test_load_repeats);
    ADD("diff", test_diff);
    ADD("meta", test_meta);
    ADD("meta/errors", test_meta_errors);
    ADD("mutant/killed-by-fail", test_mutant_killed_by_fail);
    ADD("mutant/killed-by-crash", test_mutant_killed_by_crash);
    ADD("mutant/crash-expected", test_mutant_crash_expected);
    ADD("mutant/survived", test_mutant_survived);
    ADD("mutant/suite-failed", test_mutant_suite_failed);
    ADD("mutant/incomplete", test_mutant_incomplete);
    ADD("compare/exit-codes", test_compare_exit);
    ADD("mutants/exit-codes", test_mutants_exit);
#undef ADD
    return g_test_run();
}
