/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commitstep: one commit of a series or a bisection, checked, built and run
 * through the scripts (scripts/patchbay, scripts/kernel-git), each in a
 * child process whose output goes to a log in the step's folder.
 *
 *   checkpatch: SCRIPTS/kernel-git checkpatch REPO SHA
 *               stdout: "E errors, W warnings, C checks" (exit 0)
 *   build:      SCRIPTS/patchbay build --git REPO --ref SHA
 *               > DIR/build.log 2>&1; exit 0 built, otherwise see BuildStatus
 *   run:        SCRIPTS/patchbay run --git REPO --ref SHA --results RESULTS
 *               [run_args...] [extra...] > RESULTS.log 2>&1
 *               exit 0 pass, 1 fail, 2 incomplete; RESULTS is a result
 *               folder (resultdir.h) unless the run could not start
 *
 * The scripts live in one folder (StepContext.scripts), so that the unit
 * tests can put stand-ins there.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "resultdir.h"

G_BEGIN_DECLS

typedef struct {
    char *scripts;   /* the folder holding patchbay and kernel-git */
    char *repo;      /* the git repository given to --git */
    char **run_args; /* run options for every run (--suite S, --all, ...) */
} StepContext;

typedef enum {
    BUILD_NOT_TRIED,
    BUILD_OK,
    BUILD_FAILED,  /* the commit does not build (build.log has "kernel build failed") */
    BUILD_TROUBLE, /* patchbay could not try (a missing tool, a bad ref, ...) */
} BuildStatus;

/* "-", "ok", "FAIL", "trouble" */
const char *build_status_name(BuildStatus status);

typedef struct {
    char *sha;        /* full commit id */
    char *subject;
    char *dir;        /* the step's folder (build.log, results*) */
    char *checkpatch; /* "E errors, W warnings, C checks", or NULL */
    BuildStatus build;
    char *build_error; /* the first error line of build.log, or NULL */
    double build_s;
    int run_exit; /* the last run's exit code, -1 when not run */
    double run_s; /* the last run's seconds */
    char *results_dir; /* the last run's result folder, or NULL */
    RunResults *results; /* loaded from results_dir, or NULL */
} CommitStep;

/* A step for sha (its subject) in dir, which is created. */
CommitStep *commit_step_new(const char *sha, const char *subject,
                            const char *dir);
void commit_step_free(CommitStep *step);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CommitStep, commit_step_free)

/*
 * Read "SHA<TAB>SUBJECT" lines (oldest first) into CommitStep * whose
 * folders are DIR/NN-SHA12 (NN from 00); a line without a tab or whose SHA
 * is not 40 hex digits is an error naming the line.
 */
GPtrArray *commit_steps_load(const char *list_path, const char *dir,
                             GError **error);

/*
 * The counts of a checkpatch line ("E errors, W warnings, C checks", also
 * inside checkpatch.pl's "total: ..." line); FALSE if text has none.  Any
 * out pointer may be NULL.
 */
gboolean checkpatch_counts(const char *text, guint *errors, guint *warnings,
                           guint *checks);

/*
 * Parse the command line of patchbay-series or patchbay-bisect with octx,
 * which sees only what comes before the first "--": everything after it is
 * patchbay run's, even what looks like an option of ours.  Returns the
 * options for every run (StepContext.run_args; g_strfreev): "--suite S"
 * for each S of *suites, the array octx's --suite entry fills, then what
 * came after "--".  *opt_argc is what octx left of the arguments before
 * "--" (1: the program's name alone).  NULL (error set) when octx fails.
 */
char **commit_step_parse_args(GOptionContext *octx, int argc, char **argv,
                              char **const *suites, int *opt_argc,
                              GError **error);

/* Run checkpatch; sets step->checkpatch (NULL when it could not run). */
void commit_step_checkpatch(const StepContext *ctx, CommitStep *step);

/*
 * The members of the commit and its build in the JSON object being built:
 * sha, subject, build, build_error, build_s (null when not tried); the one
 * shape of series.json's rows and bisect.json's steps.
 */
void commit_step_json_build_members(JsonBuilder *b, const CommitStep *step);

/* Build; sets build, build_error and build_s.  FALSE only when the child
 * could not be started at all (error set). */
gboolean commit_step_build(const StepContext *ctx, CommitStep *step,
                           GError **error);

/*
 * Run into step->dir/NAME (NAME: "results", "results-2", ...), with extra
 * options after ctx->run_args (NULL: none); sets run_exit, run_s,
 * results_dir and results (replacing an earlier run's).  FALSE only when the
 * child could not be started (error set).
 */
gboolean commit_step_run(const StepContext *ctx, CommitStep *step,
                         const char *name, const char *const *extra,
                         GError **error);

/*
 * The line of a build log that says why the build failed: the first line
 * with "error:" (a compiler's or linker's; also gas's "Error:" and GNU
 * ld's "undefined reference to"), else the first "Error N" of make, else
 * the last "patchbay: error:" line, else NULL.  Trimmed.
 */
char *build_log_first_error(const char *log);

/* How the log says the build ended: BUILD_FAILED if it holds
 * "kernel build failed", else BUILD_TROUBLE (for a non-zero exit). */
BuildStatus build_log_status(const char *log);

G_END_DECLS
