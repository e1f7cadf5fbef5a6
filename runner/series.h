/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series: judge a series of commits that were checked, built and run
 * (commitstep.h), without running anything: which tests flipped at each
 * commit against the commit before it, which commit regresses or does not
 * build; the table patchbay-series prints, its series.json and its exit
 * status.
 *
 * Row 0 is the base commit of the range, the reference; the others are the
 * commits oldest first.  Each row with results is compared with the
 * nearest row above it that has results, so a commit that does not build
 * (or whose run gave nothing) is skipped over rather than compared with.
 */
#pragma once

#include <glib.h>

#include "commitstep.h"
#include "results.h"

G_BEGIN_DECLS

/* At most this many flips are listed under a row of the table (series.json
 * has them all). */
#define SERIES_MAX_FLIPS 20

typedef struct {
    CommitStep *step;       /* borrowed from the steps given to series_judge */
    const CommitStep *prev; /* the nearest row above with results, or NULL */
    /* TestPair * with base (prev's) != with (this row's), in suites; the
     * pass -> non-pass ones first.  Empty without results or prev. */
    GPtrArray *flips;
    GPtrArray *compared;       /* every TestPair * of the diff (owns them) */
    GPtrArray *new_crashes;    /* RunCrash * of step->results that prev lacks */
    guint to_fail;             /* flips from pass to anything else */
    guint to_pass;             /* flips from anything else to pass */
    gboolean newly_incomplete; /* the run is incomplete, prev's was not */
    gboolean regressed;        /* to_fail, a new crash, or newly incomplete */
    gboolean trouble;          /* BUILD_TROUBLE, or built but no results */
} SeriesRow;

typedef struct {
    GPtrArray *rows; /* SeriesRow *, row 0 the base */
    char **suites;   /* NULL: all */
    /* over the commits, not the base: */
    guint commits, build_failed, regressed, trouble;
    /* the base row's own trouble: it did not build, or gave no results */
    gboolean base_unusable;
    const SeriesRow *first_regression; /* NULL: none */
} Series;

/*
 * Judge steps (CommitStep *, row 0 the base; at least one row, else
 * NULL), which must outlive the result, restricted to suites (NULL or
 * empty: all).
 */
Series *series_judge(GPtrArray *steps, const char *const *suites);
void series_free(Series *series);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Series, series_free)

/* The table, the lines under its rows and the closing line (g_free). */
char *series_format(const Series *series);

/*
 * series.json: {"base": ROW, "commits": [ROW...], "counts": {"commits",
 * "build_failed", "regressed", "trouble"}, "suites": [...] or null,
 * "first_regression": SHA or null}, where ROW is {"sha", "subject",
 * "checkpatch": {"errors", "warnings", "checks"} or null, "build" (as
 * build_status_name), "build_error", "build_s" (null: not tried),
 * "verdict" (null: no results), "run_exit", "run_s" (null: not run),
 * "results" (the folder, or null), "flips": [{"test", "from", "to"}],
 * "new_crashes": [{"kind", "test"}], "regressed"}.
 */
gboolean series_write_json(const Series *series, const char *path,
                           GError **error);

/*
 * 0 every commit builds and none regresses; 1 one does not build or
 * regresses; 2 trouble (a build that could not be tried, a run that gave
 * no results, a base without results).
 */
int series_exit_status(const Series *series);

G_END_DECLS
