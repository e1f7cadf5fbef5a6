// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchbay-series: check, build and run every commit of a series, and say
 * which commit does not build or makes tests flip from pass (scripts/patchbay
 * series prepares the list and calls it).
 *
 *   patchbay-series --scripts DIR --git REPO --commits LIST --results DIR
 *                   [--suite NAME]... [--checkpatch] [-- RUN_OPTIONS...]
 *
 * LIST has "SHA<TAB>SUBJECT" lines (scripts/kernel-git commits): the base
 * commit of the range first, the reference, then the commits oldest first.
 * Each commit gets a folder RESULTS/NN-SHA12 with build.log, and when it
 * builds, its run's results/ and results.log; --suite and everything after
 * "--" are passed to every run.  The table goes to stdout, progress to
 * stderr, the judgement also to RESULTS/series.json (series.h).
 *
 * Exit codes: 0 every commit builds and none regresses; 1 one does not
 * build or regresses; 2 bad input or trouble (series_exit_status).
 */
#include <stdio.h>
#include <string.h>

#include "commitstep.h"
#include "series.h"

enum { EXIT_TROUBLE = 2 };

static const char usage[] =
    "usage: patchbay-series --scripts DIR --git REPO --commits LIST "
    "--results DIR [--suite NAME]... [--checkpatch] [-- RUN_OPTIONS...]";

int main(int argc, char **argv)
{
    g_autofree char *scripts = NULL, *repo = NULL, *list = NULL;
    g_autofree char *results = NULL, *json_path = NULL, *table = NULL;
    g_auto(GStrv) suites = NULL;
    gboolean checkpatch = FALSE;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) steps = NULL;
    g_auto(GStrv) run_args = NULL;
    g_autoptr(Series) series = NULL;
    StepContext ctx = {0};
    int opt_argc;
    GOptionEntry entries[] = {
        {"scripts", 0, 0, G_OPTION_ARG_FILENAME, &scripts,
         "the folder of the patchbay and kernel-git scripts", "DIR"},
        {"git", 0, 0, G_OPTION_ARG_FILENAME, &repo,
         "the git repository of the commits", "REPO"},
        {"commits", 0, 0, G_OPTION_ARG_FILENAME, &list,
         "the commits, \"SHA<TAB>SUBJECT\" a line, the base first", "LIST"},
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &results,
         "the folder for the commits' folders and series.json", "DIR"},
        {"suite", 0, 0, G_OPTION_ARG_STRING_ARRAY, &suites,
         "run and judge only this suite (repeatable)", "NAME"},
        {"checkpatch", 0, 0, G_OPTION_ARG_NONE, &checkpatch,
         "run checkpatch on each commit (not the base)", NULL},
        {NULL},
    };
    g_autoptr(GOptionContext) octx = g_option_context_new(
        "[-- RUN_OPTIONS...] - build and run each commit of a series");

    g_option_context_add_main_entries(octx, entries, NULL);
    run_args =
        commit_step_parse_args(octx, argc, argv, &suites, &opt_argc, &error);
    if (!run_args) {
        g_printerr("patchbay-series: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (opt_argc != 1 || !scripts || !repo || !list || !results) {
        g_printerr("patchbay-series: %s\n", usage);
        return EXIT_TROUBLE;
    }

    steps = commit_steps_load(list, results, &error);
    if (!steps) {
        g_printerr("patchbay-series: --commits: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (steps->len < 2) {
        g_printerr("patchbay-series: --commits: %s has %u commit%s: it needs "
                   "the base and at least one commit\n",
                   list, steps->len, steps->len == 1 ? "" : "s");
        return EXIT_TROUBLE;
    }

    ctx.scripts = scripts;
    ctx.repo = repo;
    ctx.run_args = run_args;

    for (guint i = 0; i < steps->len; i++) {
        CommitStep *step = g_ptr_array_index(steps, i);

        /* The base is the reference, not part of the series' patches. */
        if (checkpatch && i > 0) {
            commit_step_checkpatch(&ctx, step);
        }
        /* A script that cannot start fails every commit the same way. */
        if (!commit_step_build(&ctx, step, &error) ||
            (step->build == BUILD_OK &&
             !commit_step_run(&ctx, step, "results", NULL, &error))) {
            g_printerr("patchbay-series: %s\n", error->message);
            return EXIT_TROUBLE;
        }
    }

    series = series_judge(steps, (const char *const *)suites);
    table = series_format(series);
    fputs(table, stdout);
    fflush(stdout);
    json_path = g_build_filename(results, "series.json", NULL);
    if (!series_write_json(series, json_path, &error)) {
        g_printerr("patchbay-series: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    return series_exit_status(series);
}
