/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect: the criterion of a bisection, the classification of a step's run
 * against it, and the search over the commits.  See bisect.h.
 */
#include <string.h>

#include <gio/gio.h>

#include "bisect.h"
#include "results.h"

/* How many tests a reason names before "and N more": it is one line. */
#define REASON_MAX_TESTS 3

static gboolean failing(KtapResult r)
{
    return r == KTAP_RESULT_FAIL || r == KTAP_RESULT_NONE;
}

static void bisect_test_free(gpointer data)
{
    BisectTest *t = data;

    g_free(t->test);
    g_free(t);
}

static void add_test(BisectCriterion *c, const char *test, gboolean crash,
                     KtapResult good, KtapResult bad)
{
    BisectTest *t = g_new0(BisectTest, 1);

    t->test = g_strdup(test);
    t->crash = crash;
    t->good = good;
    t->bad = bad;
    g_ptr_array_add(c->tests, t);
}

void bisect_criterion_free(BisectCriterion *criterion)
{
    if (!criterion) {
        return;
    }
    g_ptr_array_unref(criterion->tests);
    g_hash_table_unref(criterion->end_failures);
    g_hash_table_unref(criterion->end_crashes);
    g_free(criterion);
}

/* The crash kinds of a run, as a set (keys owned by run). */
static GHashTable *crash_kinds(const RunResults *run)
{
    GHashTable *kinds = g_hash_table_new(g_str_hash, g_str_equal);

    for (guint i = 0; i < run->crashes->len; i++) {
        RunCrash *crash = g_ptr_array_index(run->crashes, i);

        g_hash_table_add(kinds, crash->kind);
    }
    return kinds;
}

static gboolean matches_glob(const char *test, const char *const *globs)
{
    for (guint i = 0; globs[i]; i++) {
        if (g_pattern_match_simple(globs[i], test)) {
            return TRUE;
        }
    }
    return FALSE;
}

/* The crash kinds of both ends in first-seen order (good's, then bad's),
 * each once. */
static GPtrArray *all_kinds(const RunResults *good, const RunResults *bad)
{
    GPtrArray *kinds = g_ptr_array_new();
    const RunResults *ends[] = {good, bad};

    for (guint e = 0; e < G_N_ELEMENTS(ends); e++) {
        for (guint i = 0; i < ends[e]->crashes->len; i++) {
            RunCrash *crash = g_ptr_array_index(ends[e]->crashes, i);

            if (!g_ptr_array_find_with_equal_func(kinds, crash->kind,
                                                  g_str_equal, NULL)) {
                g_ptr_array_add(kinds, crash->kind);
            }
        }
    }
    return kinds;
}

/* "passes", "fails", ... at an end, for the swapped-ends message */
static const char *result_verb(KtapResult r)
{
    switch (r) {
    case KTAP_RESULT_PASS:
        return "passes";
    case KTAP_RESULT_FAIL:
        return "fails";
    case KTAP_RESULT_SKIP:
        return "skips";
    case KTAP_RESULT_NONE:
        return "does not finish";
    default:
        return "is missing";
    }
}

/* Good and bad swapped: nothing on the criterion fails only at bad, and
 * something fails only at good.  A bisection would then look for the
 * commit that fixed it, marking good and bad the wrong way round. */
static gboolean check_not_swapped(const BisectCriterion *c, GError **error)
{
    const BisectTest *backward = NULL;

    for (guint i = 0; i < c->tests->len; i++) {
        const BisectTest *t = g_ptr_array_index(c->tests, i);

        if (failing(t->bad) && !failing(t->good)) {
            return TRUE;
        }
        if (failing(t->good) && !failing(t->bad) && !backward) {
            backward = t;
        }
    }
    if (!backward) {
        return TRUE;
    }
    if (backward->crash) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "good and bad are swapped: %s happens at GOOD and not "
                    "at BAD",
                    backward->test);
    } else {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "good and bad are swapped: %s %s at BAD and %s at GOOD",
                    backward->test, result_verb(backward->bad),
                    result_verb(backward->good));
    }
    return FALSE;
}

BisectCriterion *bisect_criterion_new(const RunResults *good,
                                      const RunResults *bad,
                                      const char *const *test_globs,
                                      GError **error)
{
    g_autoptr(BisectCriterion) c = g_new0(BisectCriterion, 1);
    g_autoptr(GPtrArray) pairs = results_diff(good, bad, NULL);
    g_autoptr(GPtrArray) kinds = all_kinds(good, bad);
    g_autoptr(GHashTable) good_kinds = crash_kinds(good);
    g_autoptr(GHashTable) bad_kinds = crash_kinds(bad);
    gboolean globs = test_globs && test_globs[0];
    guint differ = 0;

    c->tests = g_ptr_array_new_with_free_func(bisect_test_free);
    c->end_failures =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    c->end_crashes =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < pairs->len; i++) {
        TestPair *p = g_ptr_array_index(pairs, i);

        if (failing(p->base) || failing(p->with)) {
            g_hash_table_add(c->end_failures, g_strdup(p->test));
        }
        if (globs) {
            if (matches_glob(p->test, test_globs)) {
                add_test(c, p->test, FALSE, p->base, p->with);
            }
            continue;
        }
        if (p->base == p->with) {
            continue;
        }
        /* A test only one end has, passing or skipping there, was added,
         * removed or renamed in the range: no change of the kernel's
         * behaviour, and the steps between that change and the regression
         * would all be unclear.  A failure only one end has still counts
         * (a suite that could not start at bad is "fail msm" there). */
        if ((p->base == KTAP_RESULT_MISSING && !failing(p->with)) ||
            (p->with == KTAP_RESULT_MISSING && !failing(p->base))) {
            continue;
        }
        add_test(c, p->test, FALSE, p->base, p->with);
    }
    for (guint i = 0; i < kinds->len; i++) {
        const char *kind = g_ptr_array_index(kinds, i);
        g_autofree char *name = g_strdup_printf("kernel %s", kind);
        gboolean at_good = g_hash_table_contains(good_kinds, kind);
        gboolean at_bad = g_hash_table_contains(bad_kinds, kind);

        g_hash_table_add(c->end_crashes, g_strdup(kind));
        if (globs ? matches_glob(name, test_globs) : at_good != at_bad) {
            add_test(c, name, TRUE,
                     at_good ? KTAP_RESULT_FAIL : KTAP_RESULT_PASS,
                     at_bad ? KTAP_RESULT_FAIL : KTAP_RESULT_PASS);
        }
    }

    for (guint i = 0; i < c->tests->len; i++) {
        const BisectTest *t = g_ptr_array_index(c->tests, i);

        differ += t->good != t->bad;
    }
    if (globs && !c->tests->len) {
        g_autofree char *list = g_strjoinv(", ", (char **)test_globs);

        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "nothing differs between GOOD and BAD: no test matches %s",
                    list);
        return NULL;
    }
    if (globs && !differ) {
        g_autofree char *list = g_strjoinv(", ", (char **)test_globs);

        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "nothing differs between GOOD and BAD: the %u test%s "
                    "matching %s %s the same result at both ends",
                    c->tests->len, c->tests->len == 1 ? "" : "s", list,
                    c->tests->len == 1 ? "has" : "have");
        return NULL;
    }
    if (!differ) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                            "nothing differs between GOOD and BAD");
        return NULL;
    }
    if (!check_not_swapped(c, error)) {
        return NULL;
    }
    return g_steal_pointer(&c);
}

const char *bisect_test_result_name(const BisectTest *t, KtapResult r)
{
    if (t->crash) {
        return r == KTAP_RESULT_FAIL ? "crash" : "no crash";
    }
    return ktap_result_name(r);
}

static void append_ends(GString *s, const BisectTest *t)
{
    g_string_append_printf(s, " (%s at good, %s at bad)",
                           bisect_test_result_name(t, t->good),
                           bisect_test_result_name(t, t->bad));
}

char *bisect_criterion_describe(const BisectCriterion *criterion, guint max)
{
    GPtrArray *tests = criterion->tests;
    GString *s = g_string_new(NULL);
    const BisectTest *first = g_ptr_array_index(tests, 0);
    gboolean alike = TRUE;

    /* One parenthesis for all when they all changed alike, the usual
     * case; else one each, so that none is misread. */
    for (guint i = 1; i < tests->len; i++) {
        const BisectTest *t = g_ptr_array_index(tests, i);

        alike = alike && t->crash == first->crash && t->good == first->good &&
                t->bad == first->bad;
    }
    g_string_append_printf(s, "%u test%s: ", tests->len,
                           tests->len == 1 ? "" : "s");
    for (guint i = 0; i < tests->len && i < max; i++) {
        const BisectTest *t = g_ptr_array_index(tests, i);

        g_string_append_printf(s, "%s%s", i ? ", " : "", t->test);
        if (!alike) {
            append_ends(s, t);
        }
    }
    if (tests->len > max) {
        g_string_append_printf(s, ", and %u more", tests->len - max);
    }
    if (alike) {
        append_ends(s, first);
    }
    return g_string_free(s, FALSE);
}

const char *bisect_outcome_name(BisectOutcome outcome)
{
    static const char *const names[] = {
        [BISECT_GOOD] = "good",
        [BISECT_BAD] = "bad",
        [BISECT_UNCLEAR] = "unclear",
    };

    g_return_val_if_fail(outcome < G_N_ELEMENTS(names), "?");
    return names[outcome];
}

/* A criterion test's result in run. */
static KtapResult step_result(const BisectTest *t, const RunResults *run,
                              GHashTable *kinds)
{
    if (t->crash) {
        /* "kernel " + kind */
        return g_hash_table_contains(kinds, t->test + strlen("kernel "))
                   ? KTAP_RESULT_FAIL
                   : KTAP_RESULT_PASS;
    }
    return run_results_get(run, t->test);
}

/* "w1/x: fail, good pass, bad fail" for each of tests (BisectTest *)
 * with its result in run, up to REASON_MAX_TESTS of them. */
static void add_test_reasons(GPtrArray *parts, GPtrArray *tests,
                             const RunResults *run, GHashTable *kinds)
{
    for (guint i = 0; i < tests->len && i < REASON_MAX_TESTS; i++) {
        const BisectTest *t = g_ptr_array_index(tests, i);

        g_ptr_array_add(
            parts, g_strdup_printf(
                       "%s: %s, good %s, bad %s", t->test,
                       bisect_test_result_name(t, step_result(t, run, kinds)),
                       bisect_test_result_name(t, t->good),
                       bisect_test_result_name(t, t->bad)));
    }
    if (tests->len > REASON_MAX_TESTS) {
        g_ptr_array_add(parts, g_strdup_printf("and %u more criterion tests",
                                               tests->len - REASON_MAX_TESTS));
    }
}

/* "extra failure a" / "extra failures a, b, c and 2 more" */
static void add_list_reason(GPtrArray *parts, const char *one, const char *many,
                            GPtrArray *names)
{
    GString *s;

    if (!names->len) {
        return;
    }
    s = g_string_new(names->len == 1 ? one : many);
    for (guint i = 0; i < names->len && i < REASON_MAX_TESTS; i++) {
        g_string_append_printf(s, "%s%s", i ? ", " : " ",
                               (const char *)g_ptr_array_index(names, i));
    }
    if (names->len > REASON_MAX_TESTS) {
        g_string_append_printf(s, " and %u more",
                               names->len - REASON_MAX_TESTS);
    }
    g_ptr_array_add(parts, g_string_free(s, FALSE));
}

BisectOutcome bisect_classify(const BisectCriterion *criterion,
                              const RunResults *run, int run_exit,
                              char **reason)
{
    g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) good_like = g_ptr_array_new();
    g_autoptr(GPtrArray) bad_like = g_ptr_array_new();
    g_autoptr(GPtrArray) neither = g_ptr_array_new();
    g_autoptr(GPtrArray) extra_failures = g_ptr_array_new();
    g_autoptr(GPtrArray) extra_crashes = g_ptr_array_new();
    g_autoptr(GHashTable) kinds = NULL;
    g_autoptr(GHashTable) criterion_tests =
        g_hash_table_new(g_str_hash, g_str_equal);

    if (reason) {
        *reason = NULL;
    }
    if (!run) {
        if (reason) {
            *reason = g_strdup_printf("no results (run exit %d)", run_exit);
        }
        return BISECT_UNCLEAR;
    }
    kinds = crash_kinds(run);
    /* An incomplete run's missing tests say nothing about the kernel. */
    if (g_str_equal(run->verdict, "incomplete")) {
        g_ptr_array_add(parts, g_strdup("run incomplete"));
    } else if (run_exit < 0 || run_exit > VERDICT_INCOMPLETE) {
        g_ptr_array_add(parts, g_strdup_printf("run exit %d", run_exit));
    }

    for (guint i = 0; i < criterion->tests->len; i++) {
        BisectTest *t = g_ptr_array_index(criterion->tests, i);
        KtapResult r = step_result(t, run, kinds);

        g_hash_table_add(criterion_tests, t->test);
        if (t->good == t->bad) {
            /* a --test match that did not change: it must not now */
            if (r != t->good) {
                g_ptr_array_add(neither, t);
            }
        } else if (r == t->good) {
            g_ptr_array_add(good_like, t);
        } else if (r == t->bad) {
            g_ptr_array_add(bad_like, t);
        } else {
            g_ptr_array_add(neither, t);
        }
    }
    add_test_reasons(parts, neither, run, kinds);
    /* Mixed: name the side fewer tests are on, the odd ones out. */
    if (good_like->len && bad_like->len) {
        add_test_reasons(parts,
                         good_like->len < bad_like->len ? good_like : bad_like,
                         run, kinds);
    }

    /* A failure neither end had: the step broke something else too, or a
     * test flaked; either way its criterion results are not trusted. */
    for (guint i = 0; i < run->tests->len; i++) {
        const char *test = g_ptr_array_index(run->tests, i);

        if (failing(run_results_get(run, test)) &&
            !g_hash_table_contains(criterion_tests, test) &&
            !g_hash_table_contains(criterion->end_failures, test)) {
            g_ptr_array_add(extra_failures, (gpointer)test);
        }
    }
    add_list_reason(parts, "extra failure", "extra failures", extra_failures);
    for (guint i = 0; i < run->crashes->len; i++) {
        RunCrash *crash = g_ptr_array_index(run->crashes, i);

        if (!g_hash_table_contains(criterion->end_crashes, crash->kind) &&
            !g_ptr_array_find_with_equal_func(extra_crashes, crash->kind,
                                              g_str_equal, NULL)) {
            g_ptr_array_add(extra_crashes, crash->kind);
        }
    }
    add_list_reason(parts, "extra crash", "extra crashes", extra_crashes);

    if (!parts->len && !bad_like->len) {
        return BISECT_GOOD;
    }
    if (!parts->len && !good_like->len) {
        return BISECT_BAD;
    }
    if (reason) {
        g_ptr_array_add(parts, NULL);
        *reason = g_strjoinv("; ", (char **)parts->pdata);
    }
    return BISECT_UNCLEAR;
}

/* ---- the search ---- */

const char *bisect_mark_name(BisectMark mark)
{
    static const char *const names[] = {
        [BISECT_UNTESTED] = "untested",
        [BISECT_MARK_GOOD] = "good",
        [BISECT_MARK_BAD] = "bad",
        [BISECT_SKIPPED] = "skipped",
    };

    g_return_val_if_fail(mark < G_N_ELEMENTS(names), "?");
    return names[mark];
}

BisectSearch *bisect_search_new(guint n)
{
    BisectSearch *s;

    g_return_val_if_fail(n >= 2, NULL);
    s = g_new0(BisectSearch, 1);
    s->n = n;
    s->marks = g_new0(BisectMark, n);
    s->marks[0] = BISECT_MARK_GOOD;
    s->marks[n - 1] = BISECT_MARK_BAD;
    s->lo = 0;
    s->hi = n - 1;
    return s;
}

void bisect_search_free(BisectSearch *search)
{
    if (!search) {
        return;
    }
    g_free(search->marks);
    g_free(search);
}

int bisect_next(const BisectSearch *s)
{
    guint mid = (s->lo + s->hi) / 2;

    /* mid, mid + 1, mid - 1, mid + 2, ...: the nearest untested commit to
     * the midpoint still halves the range about as well. */
    for (guint d = 0; d < s->hi - s->lo; d++) {
        if (mid + d > s->lo && mid + d < s->hi &&
            s->marks[mid + d] == BISECT_UNTESTED) {
            return (int)(mid + d);
        }
        if (d && mid >= d && mid - d > s->lo && mid - d < s->hi &&
            s->marks[mid - d] == BISECT_UNTESTED) {
            return (int)(mid - d);
        }
    }
    return -1;
}

gboolean bisect_search_mark(BisectSearch *s, guint index, BisectMark mark,
                            GError **error)
{
    g_return_val_if_fail(index < s->n, FALSE);
    g_return_val_if_fail(mark != BISECT_UNTESTED, FALSE);
    if (s->marks[index] != BISECT_UNTESTED) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "commit %u is already marked %s", index,
                    bisect_mark_name(s->marks[index]));
        return FALSE;
    }
    if (mark == BISECT_MARK_GOOD && index >= s->hi) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "commit %u is good but commit %u before it is bad", index,
                    s->hi);
        return FALSE;
    }
    if (mark == BISECT_MARK_BAD && index <= s->lo) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "commit %u is bad but commit %u after it is good", index,
                    s->lo);
        return FALSE;
    }
    s->marks[index] = mark;
    if (mark == BISECT_MARK_GOOD) {
        s->lo = MAX(s->lo, index);
    } else if (mark == BISECT_MARK_BAD) {
        s->hi = MIN(s->hi, index);
    }
    return TRUE;
}

GArray *bisect_search_candidates(const BisectSearch *s)
{
    GArray *candidates = g_array_new(FALSE, FALSE, sizeof(guint));

    for (guint i = s->lo + 1; i < s->hi; i++) {
        if (s->marks[i] == BISECT_SKIPPED) {
            g_array_append_val(candidates, i);
        }
    }
    g_array_append_val(candidates, s->hi);
    return candidates;
}
