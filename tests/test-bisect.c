/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the bisection logic (runner/bisect.c): the criterion, the
 * classification of a step's run, the search; and patchbay-bisect end to
 * end with stand-in scripts (patchbay, kernel-git) in a temporary folder,
 * which build and "run" fabricated commits in no time.
 *
 * tests/meson.build passes the program's path in PATCHBAY_BISECT.
 */
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "bisect.h"
#include "testutil.h"

typedef TmpFixture Fixture;

/*
 * A result folder tmp/name, loaded; crashes is a comma-separated list of
 * crash kinds ("" for none).
 */
static RunResults *make_run(Fixture *f, const char *name, const char *verdict,
                            const char *results, const char *crashes)
{
    g_auto(GStrv) kinds = g_strsplit(crashes, ",", -1);
    g_autoptr(GString) json = g_string_new("[");
    g_autofree char *dir = NULL;
    g_autoptr(GError) error = NULL;
    RunResults *run;

    for (guint i = 0; kinds[i] && *kinds[i]; i++) {
        g_string_append_printf(json,
                               "%s{\"kind\": \"%s\", \"test\": null, "
                               "\"excerpt\": \"\"}",
                               i ? ", " : "", kinds[i]);
    }
    g_string_append(json, "]");
    dir = testutil_make_run(f->tmp, name, "base", verdict, results, json->str);
    run = run_results_load(dir, &error);
    g_assert_no_error(error);
    return run;
}

static const char good_txt[] = "pass\tw1/a\n"
                               "pass\tw1/b\n"
                               "fail\tw1/known\n"
                               "pass\tw1/renamed\n"
                               "skip\tmsm/s\n";
static const char bad_txt[] = "fail\tw1/a\n"
                              "none\tw1/b\n"
                              "fail\tw1/known\n"
                              "pass\tw1/renamed now\n"
                              "skip\tmsm/s\n";

static BisectCriterion *criterion_ok(const RunResults *good,
                                     const RunResults *bad,
                                     const char *const *globs)
{
    g_autoptr(GError) error = NULL;
    BisectCriterion *c = bisect_criterion_new(good, bad, globs, &error);

    g_assert_no_error(error);
    g_assert_nonnull(c);
    return c;
}

static void assert_test(const BisectCriterion *c, guint i, const char *test,
                        KtapResult good, KtapResult bad)
{
    const BisectTest *t;

    g_assert_cmpuint(i, <, c->tests->len);
    t = g_ptr_array_index(c->tests, i);
    g_assert_cmpstr(t->test, ==, test);
    g_assert_cmpint(t->good, ==, good);
    g_assert_cmpint(t->bad, ==, bad);
}

static void assert_criterion_error(const RunResults *good,
                                   const RunResults *bad,
                                   const char *const *globs,
                                   const char *message)
{
    g_autoptr(GError) error = NULL;

    g_assert_null(bisect_criterion_new(good, bad, globs, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_cmpstr(error->message, ==, message);
}

/* ---- the criterion ---- */

static void test_criterion_diff(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(RunResults) good = make_run(f, "good", "fail", good_txt, "");
    g_autoptr(RunResults) bad = make_run(f, "bad", "fail", bad_txt, "");
    g_autoptr(BisectCriterion) c = criterion_ok(good, bad, NULL);
    g_autofree char *text = bisect_criterion_describe(c, 10);

    /* The renamed test is only at one end and passes: not a change. */
    g_assert_cmpuint(c->tests->len, ==, 2);
    assert_test(c, 0, "w1/a", KTAP_RESULT_PASS, KTAP_RESULT_FAIL);
    assert_test(c, 1, "w1/b", KTAP_RESULT_PASS, KTAP_RESULT_NONE);
    g_assert_cmpstr(text, ==,
                    "2 tests: w1/a (pass at good, fail at bad), "
                    "w1/b (pass at good, none at bad)");
}

static void test_criterion_crash(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(RunResults) good =
        make_run(f, "good", "pass", "pass\tw1/a\npass\tw1/b\n", "warn");
    g_autoptr(RunResults) bad = make_run(
        f, "bad", "fail", "pass\tw1/a\nfail\tw1/b\n", "warn,oops,oops");
    g_autoptr(RunResults) suite_gone =
        make_run(f, "gone", "fail", "fail\tw1\n", "");
    g_autoptr(BisectCriterion) c = criterion_ok(good, bad, NULL);
    g_autoptr(BisectCriterion) gone = NULL;
    g_autofree char *text = bisect_criterion_describe(c, 1);

    g_assert_cmpuint(c->tests->len, ==, 2);
    assert_test(c, 0, "w1/b", KTAP_RESULT_PASS, KTAP_RESULT_FAIL);
    assert_test(c, 1, "kernel oops", KTAP_RESULT_PASS, KTAP_RESULT_FAIL);
    g_assert_true(((BisectTest *)g_ptr_array_index(c->tests, 1))->crash);
    g_assert_cmpstr(text, ==,
                    "2 tests: w1/b (pass at good, fail at bad), and 1 more");

    /* A suite that could not start at bad is a failure only bad has; the
     * tests it never ran are missing there, not changes. */
    gone = criterion_ok(good, suite_gone, NULL);
    g_assert_cmpuint(gone->tests->len, ==, 2);
    assert_test(gone, 0, "w1", KTAP_RESULT_MISSING, KTAP_RESULT_FAIL);
    assert_test(gone, 1, "kernel warn", KTAP_RESULT_FAIL, KTAP_RESULT_PASS);
}

static void test_criterion_globs(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(RunResults) good = make_run(f, "good", "fail", good_txt, "");
    g_autoptr(RunResults) bad = make_run(f, "bad", "fail", bad_txt, "oops");
    const char *w1a[] = {"w1/a*", "msm/*", NULL};
    const char *crash[] = {"kernel *", NULL};
    const char *none[] = {NULL};
    g_autoptr(BisectCriterion) c = criterion_ok(good, bad, w1a);
    g_autoptr(BisectCriterion) k = criterion_ok(good, bad, crash);
    g_autoptr(BisectCriterion) all = criterion_ok(good, bad, none);
    g_autofree char *text = bisect_criterion_describe(k, 10);

    /* Matched tests are kept whether they differ or not. */
    g_assert_cmpuint(c->tests->len, ==, 2);
    assert_test(c, 0, "w1/a", KTAP_RESULT_PASS, KTAP_RESULT_FAIL);
    assert_test(c, 1, "msm/s", KTAP_RESULT_SKIP, KTAP_RESULT_SKIP);
    g_assert_cmpuint(k->tests->len, ==, 1);
    g_assert_cmpstr(text, ==,
                    "1 test: kernel oops (no crash at good, crash at bad)");
    /* An empty list is no list. */
    g_assert_cmpuint(all->tests->len, ==, 3);
}

static void test_criterion_nothing(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(RunResults) good = make_run(f, "good", "fail", good_txt, "");
    g_autoptr(RunResults) same = make_run(f, "same", "fail", good_txt, "");
    g_autoptr(RunResults) renamed =
        make_run(f, "renamed", "fail",
                 "pass\tw1/a\npass\tw1/b\nfail\tw1/known\nskip\tmsm/s\n", "");
    g_autoptr(RunResults) bad = make_run(f, "bad", "fail", bad_txt, "");
    const char *nomatch[] = {"w1/x*", "usb/*", NULL};
    const char *same_globs[] = {"w1/known", "msm/*", NULL};

    assert_criterion_error(good, same, NULL,
                           "nothing differs between GOOD and BAD");
    assert_criterion_error(good, renamed, NULL,
                           "nothing differs between GOOD and BAD");
    assert_criterion_error(good, bad, nomatch,
                           "nothing differs between GOOD and BAD: no test "
                           "matches w1/x*, usb/*");
    assert_criterion_error(good, bad, same_globs,
                           "nothing differs between GOOD and BAD: the 2 tests "
                           "matching w1/known, msm/* have the same result at "
                           "both ends");
}

static void test_criterion_swapped(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autoptr(RunResults) good = make_run(f, "good", "fail", good_txt, "");
    g_autoptr(RunResults) bad = make_run(f, "bad", "fail", bad_txt, "");
    g_autoptr(RunResults) quiet = make_run(f, "quiet", "pass", good_txt, "");
    g_autoptr(RunResults) loud = make_run(f, "loud", "pass", good_txt, "panic");
    g_autoptr(RunResults) mixed = make_run(
        f, "mixed", "fail", "fail\tw1/a\npass\tw1/b\npass\tw1/known\n", "");

    assert_criterion_error(bad, good, NULL,
                           "good and bad are swapped: w1/a passes at BAD and "
                           "fails at GOOD");
    assert_criterion_error(loud, quiet, NULL,
                           "good and bad are swapped: kernel panic happens at "
                           "GOOD and not at BAD");
    /* A regression with a fix in the same range is not swapped. */
    {
        g_autoptr(BisectCriterion) c = criterion_ok(good, mixed, NULL);

        g_assert_cmpuint(c->tests->len, ==, 2);
        assert_test(c, 0, "w1/a", KTAP_RESULT_PASS, KTAP_RESULT_FAIL);
        assert_test(c, 1, "w1/known", KTAP_RESULT_FAIL, KTAP_RESULT_PASS);
    }
}

/* ---- classifying a run ---- */

typedef struct {
    RunResults *good, *bad;
    BisectCriterion *c;
} Ends;

static void ends_init(Fixture *f, Ends *e)
{
    e->good = make_run(f, "good", "fail", good_txt, "warn");
    e->bad = make_run(f, "bad", "fail", bad_txt, "warn,oops");
    e->c = criterion_ok(e->good, e->bad, NULL);
    /* w1/a, w1/b, kernel oops */
    g_assert_cmpuint(e->c->tests->len, ==, 3);
}

static void ends_clear(Ends *e)
{
    run_results_free(e->good);
    run_results_free(e->bad);
    bisect_criterion_free(e->c);
}

/* Classify a fixture run; check the outcome and the reason. */
static void assert_classify(Fixture *f, Ends *e, const char *verdict,
                            const char *results, const char *crashes,
                            int run_exit, BisectOutcome outcome,
                            const char *reason)
{
    static guint serial;
    g_autofree char *name = g_strdup_printf("step%u", serial++);
    g_autoptr(RunResults) run = make_run(f, name, verdict, results, crashes);
    g_autofree char *why = NULL;

    g_assert_cmpstr(
        bisect_outcome_name(bisect_classify(e->c, run, run_exit, &why)), ==,
        bisect_outcome_name(outcome));
    g_assert_cmpstr(why, ==, reason);
}

static void test_classify(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    Ends e;
    g_autofree char *why = NULL;

    ends_init(f, &e);
    /* The ends themselves. */
    g_assert_cmpint(bisect_classify(e.c, e.good, 1, NULL), ==, BISECT_GOOD);
    g_assert_cmpint(bisect_classify(e.c, e.bad, 1, NULL), ==, BISECT_BAD);
    /* Good; w1/known failing is not extra (both ends fail it), the warn
     * neither (both ends have one), the renamed test's absence neither. */
    assert_classify(f, &e, "fail", "pass\tw1/a\npass\tw1/b\nfail\tw1/known\n",
                    "warn,warn", 1, BISECT_GOOD, NULL);
    /* Bad: the oops is part of it. */
    assert_classify(f, &e, "fail", "fail\tw1/a\nnone\tw1/b\npass\tw1/known\n",
                    "oops", 1, BISECT_BAD, NULL);
    /* Mixed: the odd one out is named. */
    assert_classify(f, &e, "fail", "fail\tw1/a\npass\tw1/b\n", "oops", 1,
                    BISECT_UNCLEAR, "w1/b: pass, good pass, bad none");
    /* A result neither end had. */
    assert_classify(f, &e, "fail", "skip\tw1/a\nnone\tw1/b\n", "oops", 1,
                    BISECT_UNCLEAR, "w1/a: skip, good pass, bad fail");
    /* An extra failure, with a clean criterion. */
    assert_classify(f, &e, "fail",
                    "fail\tw1/a\nnone\tw1/b\nfail\tharness-fail/y\n", "oops", 1,
                    BISECT_UNCLEAR, "extra failure harness-fail/y");
    assert_classify(f, &e, "fail",
                    "pass\tw1/a\nfail\tw1/b\nfail\tx/1\nfail\tx/2\n"
                    "none\tx/3\nfail\tx/4\nfail\tx/5\n",
                    "", 1, BISECT_UNCLEAR,
                    "w1/b: fail, good pass, bad none; "
                    "extra failures x/1, x/2, x/3 and 2 more");
    /* Incomplete, even if it looks good. */
    assert_classify(f, &e, "incomplete", "pass\tw1/a\npass\tw1/b\n", "", 2,
                    BISECT_UNCLEAR, "run incomplete");
    /* An exit code that is no verdict. */
    assert_classify(f, &e, "pass", "pass\tw1/a\npass\tw1/b\n", "", 3,
                    BISECT_UNCLEAR, "run exit 3");
    /* No results. */
    g_assert_cmpint(bisect_classify(e.c, NULL, 2, &why), ==, BISECT_UNCLEAR);
    g_assert_cmpstr(why, ==, "no results (run exit 2)");
    ends_clear(&e);
}

static void test_classify_crash(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    Ends e;

    ends_init(f, &e);
    /* The oops missing from an otherwise bad run: mixed. */
    assert_classify(f, &e, "fail", "fail\tw1/a\nnone\tw1/b\n", "warn", 1,
                    BISECT_UNCLEAR,
                    "kernel oops: no crash, good no crash, bad crash");
    /* A crash kind neither end had. */
    assert_classify(f, &e, "fail", "pass\tw1/a\npass\tw1/b\n",
                    "kasan,panic,kasan", 1, BISECT_UNCLEAR,
                    "extra crashes kasan, panic");
    ends_clear(&e);

    /* With a criterion of a crash alone (--test 'kernel *'). */
    {
        g_autoptr(RunResults) good =
            make_run(f, "g", "pass", "pass\tw1/a\n", "");
        g_autoptr(RunResults) bad =
            make_run(f, "b", "fail", "pass\tw1/a\n", "panic");
        const char *globs[] = {"kernel *", NULL};
        g_autoptr(BisectCriterion) c = criterion_ok(good, bad, globs);
        g_autoptr(RunResults) step =
            make_run(f, "s", "fail", "pass\tw1/a\n", "panic,panic");

        g_assert_cmpint(bisect_classify(c, step, 1, NULL), ==, BISECT_BAD);
        g_assert_cmpint(bisect_classify(c, good, 0, NULL), ==, BISECT_GOOD);
    }
}

/* ---- the search ---- */

static guint ceil_log2(guint n)
{
    guint bits = 0;

    while ((1u << bits) < n) {
        bits++;
    }
    return bits;
}

static gboolean in_list(guint i, const guint *list)
{
    for (guint k = 0; list && list[k] != G_MAXUINT; k++) {
        if (list[k] == i) {
            return TRUE;
        }
    }
    return FALSE;
}

/*
 * Bisect n commits whose first bad one is first_bad, the commits in skips
 * (ended by G_MAXUINT) skipped; return the candidates, the steps in *steps.
 */
static GArray *simulate(guint n, guint first_bad, const guint *skips,
                        guint *steps)
{
    g_autoptr(BisectSearch) s = bisect_search_new(n);
    g_autoptr(GError) error = NULL;
    int i;

    *steps = 0;
    while ((i = bisect_next(s)) >= 0) {
        BisectMark mark = in_list(i, skips)      ? BISECT_SKIPPED
                          : (guint)i < first_bad ? BISECT_MARK_GOOD
                                                 : BISECT_MARK_BAD;

        g_assert_cmpint(i, >, 0);
        g_assert_cmpint(i, <, (int)n - 1);
        g_assert_cmpint(s->marks[i], ==, BISECT_UNTESTED);
        g_assert_true(bisect_search_mark(s, i, mark, &error));
        g_assert_no_error(error);
        (*steps)++;
        g_assert_cmpuint(*steps, <, n);
    }
    return bisect_search_candidates(s);
}

static void test_search_every_position(void)
{
    const guint sizes[] = {2, 3, 16, 64, 20};

    for (guint k = 0; k < G_N_ELEMENTS(sizes); k++) {
        guint n = sizes[k];

        for (guint first_bad = 1; first_bad < n; first_bad++) {
            guint steps;
            g_autoptr(GArray) c = simulate(n, first_bad, NULL, &steps);

            g_assert_cmpuint(c->len, ==, 1);
            g_assert_cmpuint(g_array_index(c, guint, 0), ==, first_bad);
            g_assert_cmpuint(steps, <=, ceil_log2(n) + 1);
        }
    }
}

static void test_search_skips(void)
{
    const guint skips[] = {7, 8, G_MAXUINT};
    const guint before_bad[] = {8, G_MAXUINT};
    g_autoptr(BisectSearch) s = bisect_search_new(16);
    g_autoptr(GError) error = NULL;

    /* The midpoint's neighbours come next, above first. */
    g_assert_cmpint(bisect_next(s), ==, 7);
    g_assert_true(bisect_search_mark(s, 7, BISECT_SKIPPED, &error));
    g_assert_cmpint(bisect_next(s), ==, 8);
    g_assert_true(bisect_search_mark(s, 8, BISECT_SKIPPED, &error));
    g_assert_cmpint(bisect_next(s), ==, 6);
    g_assert_true(bisect_search_mark(s, 6, BISECT_MARK_GOOD, &error));
    g_assert_cmpuint(s->lo, ==, 6);
    g_assert_cmpint(bisect_next(s), ==, 10);
    g_assert_no_error(error);

    /* Every position with 7 and 8 skipped: the answer is the first bad
     * commit, or the skipped ones between the last good and it too. */
    for (guint first_bad = 1; first_bad < 16; first_bad++) {
        guint steps;
        g_autoptr(GArray) c = simulate(16, first_bad, skips, &steps);
        g_autoptr(GArray) expect = g_array_new(FALSE, FALSE, sizeof(guint));
        guint lo = first_bad - 1, hi = first_bad;

        while (in_list(lo, skips)) {
            lo--;
        }
        while (in_list(hi, skips)) {
            hi++;
        }
        for (guint i = lo + 1; i < hi; i++) {
            g_array_append_val(expect, i);
        }
        g_array_append_val(expect, hi);
        g_assert_cmpuint(c->len, ==, expect->len);
        for (guint i = 0; i < c->len; i++) {
            g_assert_cmpuint(g_array_index(c, guint, i), ==,
                             g_array_index(expect, guint, i));
        }
        g_assert_cmpuint(steps, <=, ceil_log2(16) + 1 + 2);
    }

    /* The skip right before the first bad commit: ambiguous. */
    {
        guint steps;
        g_autoptr(GArray) c = simulate(16, 9, before_bad, &steps);

        g_assert_cmpuint(c->len, ==, 2);
        g_assert_cmpuint(g_array_index(c, guint, 0), ==, 8);
        g_assert_cmpuint(g_array_index(c, guint, 1), ==, 9);
    }
    /* Everything between skipped. */
    {
        const guint all[] = {1, 2, 3, G_MAXUINT};
        guint steps;
        g_autoptr(GArray) c = simulate(5, 2, all, &steps);

        g_assert_cmpuint(steps, ==, 3);
        g_assert_cmpuint(c->len, ==, 4);
        g_assert_cmpuint(g_array_index(c, guint, 3), ==, 4);
    }
}

static void test_search_contradiction(void)
{
    g_autoptr(BisectSearch) s = bisect_search_new(10);
    g_autoptr(GError) error = NULL;

    g_assert_true(bisect_search_mark(s, 4, BISECT_MARK_BAD, &error));
    g_assert_true(bisect_search_mark(s, 2, BISECT_MARK_GOOD, &error));
    g_assert_no_error(error);
    g_assert_false(bisect_search_mark(s, 6, BISECT_MARK_GOOD, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_cmpstr(error->message, ==,
                    "commit 6 is good but commit 4 before it is bad");
    g_clear_error(&error);
    g_assert_false(bisect_search_mark(s, 1, BISECT_MARK_BAD, &error));
    g_assert_cmpstr(error->message, ==,
                    "commit 1 is bad but commit 2 after it is good");
    g_clear_error(&error);
    g_assert_false(bisect_search_mark(s, 2, BISECT_SKIPPED, &error));
    g_assert_cmpstr(error->message, ==, "commit 2 is already marked good");
    g_clear_error(&error);
    g_assert_cmpuint(s->lo, ==, 2);
    g_assert_cmpuint(s->hi, ==, 4);
    g_assert_cmpint(s->marks[6], ==, BISECT_UNTESTED);
    g_assert_cmpint(bisect_next(s), ==, 3);
    g_assert_cmpstr(bisect_mark_name(BISECT_SKIPPED), ==, "skipped");
}

/* ---- patchbay-bisect end to end ---- */

/*
 * The stand-in scripts/patchbay: commit I (its sha starts with I in two
 * decimal digits) fails w1/a from first_bad on; commit broken does not
 * build; --suite harness-fail adds a failing harness-fail/x; --record
 * leaves a recording.json, and passes where the scripts folder has a file
 * record-passes.
 */
static const char patchbay_sh[] =
    "#!/bin/sh\n"
    "# stand-in for scripts/patchbay (tests/test-bisect.c)\n"
    "all=$*\n"
    "mode=$1; shift\n"
    "ref= results= harness= record=\n"
    "while [ $# -gt 0 ]; do\n"
    "    case $1 in\n"
    "    --ref) ref=$2; shift ;;\n"
    "    --results) results=$2; shift ;;\n"
    "    --git) shift ;;\n"
    "    --suite) if [ \"$2\" = harness-fail ]; then harness=1; fi; shift ;;\n"
    "    --record) record=1 ;;\n"
    "    esac\n"
    "    shift\n"
    "done\n"
    "i=$(expr \"$(echo \"$ref\" | cut -c1-2)\" + 0)\n"
    "case $mode in\n"
    "build)\n"
    "    echo \"building $ref\"\n"
    "    if [ \"$i\" -eq %u ]; then\n"
    "        echo 'drivers/w1/w1.c:12:1: error: expected ;'\n"
    "        echo 'patchbay: error: kernel build failed (log: x)'\n"
    "        exit 2\n"
    "    fi\n"
    "    exit 0 ;;\n"
    "run)\n"
    "    echo \"args: $all\"\n"
    "    mkdir -p \"$results\"\n"
    "    a=pass verdict=pass\n"
    "    if [ \"$i\" -ge %u ]; then a=fail verdict=fail; fi\n"
    "    if [ -n \"$record\" ] && [ -e \"$(dirname \"$0\")/record-passes\" ]; "
    "then\n"
    "        a=pass verdict=pass\n"
    "    fi\n"
    "    printf 'pass\\tw1/setup\\n%%s\\tw1/a\\n' $a > "
    "\"$results/results.txt\"\n"
    "    if [ -n \"$harness\" ]; then\n"
    "        printf 'fail\\tharness-fail/x\\n' >> \"$results/results.txt\"\n"
    "        verdict=fail\n"
    "    fi\n"
    "    printf '{\"verdict\": \"%%s\", \"variant\": \"base\", \"kernel\": "
    "\"6.12.0\", \"suites\": {}, \"crashes\": []}\\n' $verdict "
    "> \"$results/summary.json\"\n"
    "    if [ -n \"$record\" ]; then\n"
    "        mkdir -p \"$results/recording\"\n"
    "        echo '{}' > \"$results/recording/recording.json\"\n"
    "    fi\n"
    "    [ $verdict = pass ] ;;\n"
    "*) echo \"patchbay: unexpected $mode\" >&2; exit 2 ;;\n"
    "esac\n";

static const char kernel_git_sh[] =
    "#!/bin/sh\n"
    "# stand-in for scripts/kernel-git (tests/test-bisect.c)\n"
    "echo '0 errors, 0 warnings, 0 checks'\n";

/* Commit i's fabricated sha: i in two decimal digits, then 'e's. */
static char *fake_sha(guint i)
{
    return g_strdup_printf("%02u%s", i,
                           "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
}

/* The scripts folder tmp/scripts for first_bad and broken. */
static char *make_scripts(Fixture *f, guint first_bad, guint broken)
{
    char *dir = g_build_filename(f->tmp, "scripts", NULL);
    g_autofree char *text = g_strdup_printf(patchbay_sh, broken, first_bad);

    g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
    testutil_write_script(dir, "patchbay", text);
    testutil_write_script(dir, "kernel-git", kernel_git_sh);
    return dir;
}

/* A commit list tmp/name of the given commit numbers (ended by
 * G_MAXUINT). */
static char *make_list(Fixture *f, const char *name, const guint *commits)
{
    g_autoptr(GString) text = g_string_new(NULL);

    for (guint i = 0; commits[i] != G_MAXUINT; i++) {
        g_autofree char *sha = fake_sha(commits[i]);

        g_string_append_printf(text, "%s\tw1: change number %u\n", sha,
                               commits[i]);
    }
    testutil_write_file(f->tmp, name, text->str);
    return g_build_filename(f->tmp, name, NULL);
}

/* The environment of patchbay-bisect: ours, with PATCHBAY_BISECT_FLAKE set
 * to flake, or without it when flake is NULL (g_strfreev). */
static char **bisect_env(const char *flake)
{
    char **envp = g_get_environ();

    return flake ? g_environ_setenv(envp, "PATCHBAY_BISECT_FLAKE", flake, TRUE)
                 : g_environ_unsetenv(envp, "PATCHBAY_BISECT_FLAKE");
}

/* The step object of bisect.json for commit index, or NULL. */
static JsonObject *json_step(JsonObject *root, guint index)
{
    JsonArray *steps = json_object_get_array_member(root, "steps");

    for (guint i = 0; i < json_array_get_length(steps); i++) {
        JsonObject *s = json_array_get_object_element(steps, i);

        if (json_object_get_int_member(s, "index") == index) {
            return s;
        }
    }
    return NULL;
}

/* The log dir/name's "args:" line ends with args. */
static void assert_log_has(const char *dir, const char *name, const char *args)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true(g_file_get_contents(path, &text, NULL, &error));
    g_assert_no_error(error);
    g_assert_true(g_str_has_prefix(text, "args: run "));
    g_assert_nonnull(strstr(text, args));
}

/*
 * Run patchbay-bisect with scripts on the commits (ended by G_MAXUINT),
 * listed in tmp/NAME.list, into the results folder tmp/NAME, with one more
 * option pair (opt, value) unless opt is NULL.  Its exit code (-1: the
 * test is skipped), its stdout and stderr in *out and *err.
 */
static int bisect_commits(Fixture *f, const char *scripts, const guint *commits,
                          const char *name, const char *opt, const char *value,
                          char **out, char **err)
{
    g_autofree char *list_name = g_strconcat(name, ".list", NULL);
    g_autofree char *list = make_list(f, list_name, commits);
    g_autofree char *results = g_build_filename(f->tmp, name, NULL);
    g_auto(GStrv) env = bisect_env(NULL);

    return testutil_run("PATCHBAY_BISECT", env, out, err, "--scripts", scripts,
                        "--git", "/x", "--commits", list, "--results", results,
                        opt, value, NULL);
}

static void test_program(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    /* 20 commits, 00..19; 13 is the first bad one, 09 (the first midpoint)
     * does not build, 14's first run flakes. */
    g_autofree char *scripts = make_scripts(f, 13, 9);
    guint twenty[21];
    g_autofree char *list = NULL;
    g_autofree char *results = g_build_filename(f->tmp, "bisect", NULL);
    g_autofree char *json = g_build_filename(results, "bisect.json", NULL);
    g_autofree char *sha13 = fake_sha(13);
    g_auto(GStrv) flake = bisect_env("14eeee:harness-fail");
    g_autofree char *expect_first = NULL;
    g_autofree char *recording = NULL;
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonObject *root, *step;
    JsonArray *runs;
    int code;

    for (guint i = 0; i < 20; i++) {
        twenty[i] = i;
    }
    twenty[20] = G_MAXUINT;
    list = make_list(f, "twenty", twenty);
    code = testutil_run("PATCHBAY_BISECT", flake, &out, &err, "--scripts",
                        scripts, "--git", "/nonexistent/linux", "--commits",
                        list, "--results", results, "--suite", "w1", "--",
                        "--all", NULL);
    if (code < 0) {
        return;
    }
    g_assert_cmpint(code, ==, 0);
    g_assert_nonnull(strstr(out, "criterion: 1 test: w1/a (pass at good, "
                                 "fail at bad)\n"));
    g_assert_nonnull(strstr(out, "step 1: 09eeeeeeeeee w1: change number 9: "
                                 "build FAIL (drivers/w1/w1.c:12:1: error: "
                                 "expected ;) -> skipped\n"));
    g_assert_nonnull(strstr(out, "step 2: 10eeeeeeeeee w1: change number 10: "
                                 "build "));
    g_assert_nonnull(strstr(out, ", fail -> unclear (extra failure "
                                 "harness-fail/x), run again, run "));
    expect_first =
        g_strdup_printf("\nfirst bad commit: %s w1: change number 13\n", sha13);
    g_assert_nonnull(strstr(out, expect_first));
    g_assert_nonnull(strstr(out, "/recorded/recording (scripts/patchbay "
                                 "replay "));

    root = testutil_load_json(parser, json);
    g_assert_cmpstr(json_object_get_string_member(root, "first_bad"), ==,
                    sha13);
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "criterion")),
        ==, 1);
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "candidates")),
        ==, 1);
    recording = g_strdup(json_object_get_string_member(root, "recording"));
    g_assert_true(
        g_str_has_suffix(recording, "/13-13eeeeeeeeee/recorded/recording"));
    g_assert_true(g_file_test(recording, G_FILE_TEST_IS_DIR));
    step = json_step(root, 9);
    g_assert_nonnull(step);
    g_assert_cmpstr(json_object_get_string_member(step, "build"), ==, "FAIL");
    g_assert_cmpstr(json_object_get_string_member(step, "status"), ==,
                    "skipped");
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(step, "runs")), ==,
        0);
    /* The flake: unclear once, then bad; both runs' folders kept. */
    step = json_step(root, 14);
    g_assert_nonnull(step);
    g_assert_cmpstr(json_object_get_string_member(step, "status"), ==, "bad");
    runs = json_object_get_array_member(step, "runs");
    g_assert_cmpuint(json_array_get_length(runs), ==, 2);
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(runs, 0), "outcome"),
                    ==, "unclear");
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(runs, 0), "reason"),
                    ==, "extra failure harness-fail/x");
    g_assert_cmpstr(json_object_get_string_member(
                        json_array_get_object_element(runs, 1), "outcome"),
                    ==, "bad");
    g_assert_true(
        g_str_has_suffix(json_object_get_string_member(
                             json_array_get_object_element(runs, 1), "results"),
                         "/14-14eeeeeeeeee/results-2"));
    /* The flake hook's suite in the first run of 14 only; the run
     * options of --suite and after "--" in every run. */
    assert_log_has(results, "14-14eeeeeeeeee/results.log",
                   "--suite w1 --all --suite harness-fail\n");
    assert_log_has(results, "14-14eeeeeeeeee/results-2.log",
                   "--suite w1 --all\n");
    assert_log_has(results, "13-13eeeeeeeeee/recorded.log",
                   "--suite w1 --all --record\n");
    step = json_step(root, 12);
    g_assert_nonnull(step);
    g_assert_cmpstr(json_object_get_string_member(step, "status"), ==, "good");
    /* The ends come first; 6 steps at most besides. */
    g_assert_cmpint(json_object_get_int_member(
                        json_array_get_object_element(
                            json_object_get_array_member(root, "steps"), 0),
                        "index"),
                    ==, 0);
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "steps")), <=,
        2 + 6);
}

static void test_program_ambiguous(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    /* 12, right before the first bad 13, does not build. */
    g_autofree char *scripts = make_scripts(f, 13, 12);
    const guint commits[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,        10,
                             11, 12, 13, 14, 15, 16, 17, 18, 19, G_MAXUINT};
    g_autofree char *results = g_build_filename(f->tmp, "bisect", NULL);
    g_autofree char *json = g_build_filename(results, "bisect.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    JsonObject *root;
    int code;

    code =
        bisect_commits(f, scripts, commits, "bisect", NULL, NULL, &out, &err);
    if (code < 0) {
        return;
    }
    g_assert_cmpint(code, ==, 1);
    g_assert_nonnull(strstr(out,
                            "\nthe first bad commit is one of: 12eeeeeeeeee, "
                            "13eeeeeeeeee\n"));
    root = testutil_load_json(parser, json);
    g_assert_true(json_object_get_null_member(root, "first_bad"));
    g_assert_true(json_object_get_null_member(root, "recording"));
    g_assert_cmpuint(
        json_array_get_length(json_object_get_array_member(root, "candidates")),
        ==, 2);
}

static void test_program_record_not_bad(Fixture *f,
                                        G_GNUC_UNUSED gconstpointer data)
{
    /* 13 is the first bad commit, but its --record run passes. */
    g_autofree char *scripts = make_scripts(f, 13, 99);
    const guint commits[] = {10, 11, 12, 13, 14, 15, G_MAXUINT};
    g_autofree char *results = g_build_filename(f->tmp, "bisect", NULL);
    g_autofree char *json = g_build_filename(results, "bisect.json", NULL);
    g_autofree char *sha13 = fake_sha(13);
    g_autofree char *expect = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    JsonObject *root, *recorded;
    int code;

    testutil_write_file(scripts, "record-passes", "");
    code =
        bisect_commits(f, scripts, commits, "bisect", NULL, NULL, &out, &err);
    if (code < 0) {
        return;
    }
    g_assert_cmpint(code, ==, 1);
    g_assert_nonnull(strstr(out, "\nrecord: 13eeeeeeeeee w1: change number "
                                 "13: run "));
    g_assert_nonnull(strstr(out, ", pass -> good\n"));
    expect = g_strdup_printf("\nthe recorded run of 13eeeeeeeeee was not "
                             "bad: it has good's results\nresults: "
                             "%s/03-13eeeeeeeeee/recorded\n",
                             results);
    g_assert_true(g_str_has_suffix(out, expect));
    g_assert_null(strstr(out, "first bad commit:"));

    root = testutil_load_json(parser, json);
    g_assert_cmpstr(json_object_get_string_member(root, "first_bad"), ==,
                    sha13);
    g_assert_true(json_object_get_null_member(root, "recording"));
    recorded = json_object_get_object_member(root, "recorded");
    g_assert_nonnull(recorded);
    g_assert_cmpstr(json_object_get_string_member(recorded, "verdict"), ==,
                    "pass");
    g_assert_cmpstr(json_object_get_string_member(recorded, "outcome"), ==,
                    "good");
}

/*
 * Run patchbay-bisect on the commits (ended by G_MAXUINT) into a fresh
 * results folder, with one more option pair (opt, value) unless opt is
 * NULL; check the exit code and, if message is not NULL, that stderr ends
 * with it.  FALSE when the program is not there.
 */
static gboolean bisect_list(Fixture *f, const char *scripts,
                            const guint *commits, const char *opt,
                            const char *value, int code, const char *message,
                            char **out)
{
    static guint serial;
    g_autofree char *name = g_strdup_printf("r%u", serial++);
    g_autofree char *err = NULL;
    g_autofree char *line = NULL;
    int got = bisect_commits(f, scripts, commits, name, opt, value, out, &err);

    if (got < 0) {
        return FALSE;
    }
    g_assert_cmpint(got, ==, code);
    if (message) {
        line = g_strdup_printf("patchbay-bisect: %s\n", message);
        g_assert_true(g_str_has_suffix(err, line));
    }
    return TRUE;
}

static void test_program_errors(Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
    g_autofree char *scripts = make_scripts(f, 13, 5);
    const guint swapped[] = {19, 10, 0, G_MAXUINT};
    const guint same[] = {0, 3, 6, G_MAXUINT};
    const guint one[] = {15, G_MAXUINT};
    const guint adjacent[] = {12, 13, G_MAXUINT};
    const guint broken_good[] = {5, 14, G_MAXUINT};
    const guint broken_bad[] = {0, 3, 5, G_MAXUINT};
    g_autofree char *out = NULL;

    if (!bisect_list(f, scripts, swapped, NULL, NULL, 2,
                     "good and bad are swapped: w1/a passes at BAD and fails "
                     "at GOOD",
                     &out)) {
        return;
    }
    g_assert_null(strstr(out, "criterion"));
    bisect_list(f, scripts, same, NULL, NULL, 2,
                "nothing differs between GOOD and BAD", &out);
    bisect_list(f, scripts, adjacent, "--test", "usb/*", 2,
                "nothing differs between GOOD and BAD: no test matches usb/*",
                &out);
    bisect_list(f, scripts, one, NULL, NULL, 2, NULL, &out);
    bisect_list(f, scripts, broken_good, NULL, NULL, 2,
                "the good end 05eeeeeeeeee does not build: "
                "drivers/w1/w1.c:12:1: error: expected ;",
                &out);
    bisect_list(f, scripts, broken_bad, NULL, NULL, 2,
                "the bad end 05eeeeeeeeee does not build: "
                "drivers/w1/w1.c:12:1: error: expected ;",
                &out);
    bisect_list(f, scripts, adjacent, "--tries", "0", 2,
                "--tries 0: at least one run", &out);
    /* Nothing between the ends: bad is the answer, no step. */
    bisect_list(f, scripts, adjacent, "--test", "w1/*", 0, NULL, &out);
    g_assert_null(strstr(out, "step 1"));
    g_assert_nonnull(strstr(out, "\nno commit between good and bad: bad is "
                                 "the first bad one\n"));
    g_assert_nonnull(strstr(out, "\nfirst bad commit: 13eeee"));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define ADD(path, fn)                                                 \
    g_test_add("/bisect/" path, Fixture, NULL, tmp_fixture_setup, fn, \
               tmp_fixture_teardown)
    ADD("criterion/diff", test_criterion_diff);
    ADD("criterion/crash", test_criterion_crash);
    ADD("criterion/globs", test_criterion_globs);
    ADD("criterion/nothing-differs", test_criterion_nothing);
    ADD("criterion/swapped", test_criterion_swapped);
    ADD("classify", test_classify);
    ADD("classify/crash", test_classify_crash);
    g_test_add_func("/bisect/search/every-position",
                    test_search_every_position);
    g_test_add_func("/bisect/search/skips", test_search_skips);
    g_test_add_func("/bisect/search/contradiction", test_search_contradiction);
    ADD("program", test_program);
    ADD("program/ambiguous", test_program_ambiguous);
    ADD("program/record-not-bad", test_program_record_not_bad);
    ADD("program/errors", test_program_errors);
#undef ADD
    return g_test_run();
}
