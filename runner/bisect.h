/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect: the logic of patchbay-bisect, without spawning anything, so that
 * the unit tests can drive it alone.
 *
 * The commits are a linear list: index 0 is the GOOD end, the last index
 * the BAD end, the commits of good..bad in order in between.
 *
 * The criterion says what "bad" means: the tests (and kernel crash kinds,
 * as pseudo-tests "kernel <kind>") whose results tell the two ends apart.
 * One run of a commit is classified against it as good, bad or unclear.
 *
 * The search keeps the marks of the commits and picks the next one to
 * test, as git bisect does, skips included.
 *
 * Errors are G_IO_ERROR_INVALID_ARGUMENT with a one-line message meant for
 * the user.
 */
#pragma once

#include <glib.h>

#include "resultdir.h"

G_BEGIN_DECLS

/* ---- the criterion ---- */

typedef struct {
    char *test;     /* a test key, or "kernel <kind>" for a crash kind */
    gboolean crash; /* a crash kind: KTAP_RESULT_FAIL when a run has it,
                       KTAP_RESULT_PASS when it has not */
    KtapResult good, bad;
} BisectTest;

typedef struct {
    GPtrArray *tests; /* BisectTest *, in the ends' order, crashes last */
    /* What the ends already had, so that a step's run showing only that is
     * still clean: tests failing (fail or none) at either end, crash kinds
     * of either end (sets of char *). */
    GHashTable *end_failures;
    GHashTable *end_crashes;
} BisectCriterion;

/*
 * Without test_globs (NULL or empty): the tests whose result differs
 * between good and bad, except those that one end lacks while the other
 * passes or skips them (a test added or renamed in the range), and the
 * crash kinds one end has and the other has not.  With test_globs: the
 * tests and "kernel <kind>" pseudo-tests of either end whose key matches
 * one glob (g_pattern_match_simple), whether they differ or not.
 *
 * Errors: nothing on the criterion differs; or good and bad are swapped
 * (no criterion test fails only at bad, some fails only at good).
 */
BisectCriterion *bisect_criterion_new(const RunResults *good,
                                      const RunResults *bad,
                                      const char *const *test_globs,
                                      GError **error);
void bisect_criterion_free(BisectCriterion *criterion);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BisectCriterion, bisect_criterion_free)

/* "pass", "fail", ... for a test; "crash" or "no crash" for a crash kind */
const char *bisect_test_result_name(const BisectTest *t, KtapResult r);

/*
 * "3 tests: w1/a, w1/b, w1/c (pass at good, fail at bad)", listing up to
 * max tests; each test gets its own parenthesis when they differ (g_free).
 */
char *bisect_criterion_describe(const BisectCriterion *criterion, guint max);

typedef enum {
    BISECT_GOOD,
    BISECT_BAD,
    BISECT_UNCLEAR,
} BisectOutcome;

/* "good", "bad", "unclear" */
const char *bisect_outcome_name(BisectOutcome outcome);

/*
 * One run of a step (run: its results, NULL when the run left none;
 * run_exit: patchbay run's exit code).  GOOD when every criterion test has
 * good's result, BAD when every one has bad's; UNCLEAR otherwise, and when
 * the run is not clean: incomplete, no results, an exit code that is no
 * verdict, a failing test outside the criterion that fails at neither end,
 * or a crash kind that neither end has.
 *
 * For UNCLEAR, *reason (if reason is not NULL) is one line saying why
 * ("w1/x: fail, good pass, bad fail; extra failure harness-fail/y"); for
 * GOOD and BAD it is NULL.
 */
BisectOutcome bisect_classify(const BisectCriterion *criterion,
                              const RunResults *run, int run_exit,
                              char **reason);

/* ---- the search ---- */

typedef enum {
    BISECT_UNTESTED,
    BISECT_MARK_GOOD,
    BISECT_MARK_BAD,
    BISECT_SKIPPED, /* does not build, or unclear after all tries */
} BisectMark;

/* "untested", "good", "bad", "skipped" */
const char *bisect_mark_name(BisectMark mark);

typedef struct {
    guint n;
    BisectMark *marks; /* n of them */
    guint lo;          /* the last index known good */
    guint hi;          /* the first index known bad; lo < hi */
} BisectSearch;

/* n >= 2 commits: 0 marked good, n - 1 bad, the others untested. */
BisectSearch *bisect_search_new(guint n);
void bisect_search_free(BisectSearch *search);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BisectSearch, bisect_search_free)

/*
 * The next index to test: of the untested indexes in (lo, hi), the one
 * nearest the midpoint (lo + hi) / 2, looking at mid, mid + 1, mid - 1,
 * mid + 2, ... so that a skipped commit's neighbours come next; -1 when
 * none is left.
 */
int bisect_next(const BisectSearch *search);

/*
 * Mark an untested index good, bad or skipped.  Good moves lo up, bad
 * moves hi down; a good at or after hi, or a bad at or before lo, is a
 * contradiction (error, nothing marked), as is marking an index twice.
 */
gboolean bisect_search_mark(BisectSearch *search, guint index, BisectMark mark,
                            GError **error);

/*
 * When bisect_next() is -1: the indexes the first bad commit may be, as
 * guint: the skipped ones in (lo, hi), then hi.  One element: the answer
 * is hi; more: it is ambiguous, like git bisect's "The first bad commit
 * could be any of".
 */
GArray *bisect_search_candidates(const BisectSearch *search);

G_END_DECLS
