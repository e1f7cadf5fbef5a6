/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-bisect: find the commit that broke a test on the emulated
 * hardware, as git bisect would, each step built and run by patchbay.
 *
 *   patchbay-bisect --scripts DIR --git REPO --commits LIST --results DIR
 *                   [--suite NAME]... [--test GLOB]... [--tries N]
 *                   [-- RUN_OPTIONS...]
 *
 * LIST holds "SHA<TAB>SUBJECT" lines: the GOOD commit first, the BAD one
 * last, the commits of good..bad in order between them (a linear list, as
 * scripts/kernel-git lists them).  Each commit's builds and runs go into
 * RESULTS/NN-SHA12 (commitstep.h); RESULTS/bisect.json says what was
 * found, rewritten after every step.
 *
 * Both ends are built and run first.  What tells them apart is the
 * criterion (bisect.h): the tests whose result differs and the crash kinds
 * only one end has, or with --test the tests matching a glob.  Then each
 * step is built (one that does not build is skipped, like git bisect
 * skip), run and classified good, bad or unclear; an unclear run (mixed
 * results, an incomplete run, a failure or crash neither end had) is run
 * again, up to --tries runs in all (default 3), then the commit is
 * skipped.  --suite NAME is passed to every run, as is everything after
 * "--".
 *
 * At the end the first bad commit is run once more with --record, so that
 * the failure can be replayed and debugged (docs/record-replay.md); that
 * run must be bad too.
 *
 * A hook for the tests of the flake path: PATCHBAY_BISECT_FLAKE=PREFIX:SUITE
 * adds "--suite SUITE" to the first run (only) of a commit whose sha starts
 * with PREFIX, e.g. a harness-fail suite that fails on purpose, so that a
 * check can make a real step unclear once and clean on its second run.
 *
 * Exit codes: 0 the first bad commit found, its recorded run bad; 1 no
 * single answer (skipped commits right before the first bad one), or the
 * recorded run was not bad; 2 trouble (usage, an empty range, an end that
 * does not build or run completely, no usable criterion, good and bad
 * swapped, a build that patchbay could not try).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "bisect.h"
#include "commitstep.h"
#include "results.h"

enum { EXIT_FOUND = 0, EXIT_UNSURE = 1, EXIT_TROUBLE = 2 };

#define CRITERION_SHOWN 10

/* One run of a commit, for bisect.json. */
typedef struct {
    char *results; /* its folder */
    double run_s;
    int exit;
    char *verdict; /* NULL when it left no results */
    BisectOutcome outcome;
    char *reason; /* NULL unless unclear */
} TryLog;

/* One commit tested (an end or a step), in the order tested. */
typedef struct {
    guint index;
    CommitStep *step;     /* owned by Bisect.steps */
    GPtrArray *runs;      /* TryLog * */
    const char *status;   /* "good", "bad", "skipped", "trouble" */
    const char *skip_why; /* "does not build", "unclear" */
} StepLog;

typedef struct {
    StepContext ctx;
    char *results; /* RESULTS */
    guint tries;
    GPtrArray *steps; /* CommitStep *, good end first */
    GPtrArray *log;   /* StepLog *, in the order tested */
    BisectCriterion *criterion;
    BisectSearch *search;
    char *flake_prefix, *flake_suite; /* PATCHBAY_BISECT_FLAKE */
    GHashTable *flaked;               /* shas whose first run had the flake */
    GArray *candidates;               /* guint, when the search is done */
    TryLog *recorded; /* the --record run of the first bad commit */
    char *recording;  /* its recording folder, when it is bad */
} Bisect;

static void try_log_free(gpointer data)
{
    TryLog *t = data;

    if (!t) {
        return;
    }
    g_free(t->results);
    g_free(t->verdict);
    g_free(t->reason);
    g_free(t);
}

static void step_log_free(gpointer data)
{
    StepLog *s = data;

    g_ptr_array_unref(s->runs);
    g_free(s);
}

static void bisect_clear(Bisect *b)
{
    g_strfreev(b->ctx.run_args);
    g_free(b->results);
    g_clear_pointer(&b->steps, g_ptr_array_unref);
    g_clear_pointer(&b->log, g_ptr_array_unref);
    bisect_criterion_free(b->criterion);
    bisect_search_free(b->search);
    g_free(b->flake_prefix);
    g_free(b->flake_suite);
    g_clear_pointer(&b->flaked, g_hash_table_unref);
    g_clear_pointer(&b->candidates, g_array_unref);
    try_log_free(b->recorded);
    g_free(b->recording);
}

static CommitStep *step_at(const Bisect *b, guint index)
{
    return g_ptr_array_index(b->steps, index);
}

static StepLog *log_step(Bisect *b, guint index)
{
    StepLog *s = g_new0(StepLog, 1);

    s->index = index;
    s->step = step_at(b, index);
    s->runs = g_ptr_array_new_with_free_func(try_log_free);
    g_ptr_array_add(b->log, s);
    return s;
}

/* "1a2b3c4d5e6f subject" */
static char *step_name(const CommitStep *step)
{
    return g_strdup_printf("%.12s %s", step->sha, step->subject);
}

/* ---- bisect.json ---- */

static void add_run(JsonBuilder *jb, const TryLog *t)
{
    json_builder_begin_object(jb);
    results_json_add_string(jb, "results", t->results);
    results_json_add_double(jb, "run_s", t->run_s);
    results_json_add_int(jb, "exit", t->exit);
    results_json_add_string(jb, "verdict", t->verdict);
    results_json_add_string(jb, "outcome", bisect_outcome_name(t->outcome));
    results_json_add_string(jb, "reason", t->reason);
    json_builder_end_object(jb);
}

static gboolean write_json(const Bisect *b, GError **error)
{
    g_autoptr(JsonBuilder) jb = json_builder_new();
    g_autofree char *path = g_build_filename(b->results, "bisect.json", NULL);
    gboolean unique = b->candidates && b->candidates->len == 1;

    json_builder_begin_object(jb);
    results_json_add_string(jb, "good", step_at(b, 0)->sha);
    results_json_add_string(jb, "bad", step_at(b, b->steps->len - 1)->sha);
    json_builder_set_member_name(jb, "criterion");
    json_builder_begin_array(jb);
    for (guint i = 0; b->criterion && i < b->criterion->tests->len; i++) {
        BisectTest *t = g_ptr_array_index(b->criterion->tests, i);

        json_builder_add_string_value(jb, t->test);
    }
    json_builder_end_array(jb);
    json_builder_set_member_name(jb, "steps");
    json_builder_begin_array(jb);
    for (guint i = 0; i < b->log->len; i++) {
        StepLog *s = g_ptr_array_index(b->log, i);

        json_builder_begin_object(jb);
        results_json_add_int(jb, "index", s->index);
        commit_step_json_build_members(jb, s->step);
        json_builder_set_member_name(jb, "runs");
        json_builder_begin_array(jb);
        for (guint r = 0; r < s->runs->len; r++) {
            add_run(jb, g_ptr_array_index(s->runs, r));
        }
        json_builder_end_array(jb);
        results_json_add_string(jb, "status", s->status);
        json_builder_end_object(jb);
    }
    json_builder_end_array(jb);
    results_json_add_string(
        jb, "first_bad",
        unique ? step_at(b, g_array_index(b->candidates, guint, 0))->sha
               : NULL);
    json_builder_set_member_name(jb, "candidates");
    json_builder_begin_array(jb);
    for (guint i = 0; b->candidates && i < b->candidates->len; i++) {
        json_builder_add_string_value(
            jb, step_at(b, g_array_index(b->candidates, guint, i))->sha);
    }
    json_builder_end_array(jb);
    results_json_add_string(jb, "recording", b->recording);
    json_builder_set_member_name(jb, "recorded");
    if (b->recorded) {
        add_run(jb, b->recorded);
    } else {
        json_builder_add_null_value(jb);
    }
    json_builder_end_object(jb);
    return results_json_write(jb, path, error);
}

/* Write bisect.json and return code (trouble if it cannot be written). */
static int finish(const Bisect *b, int code)
{
    g_autoptr(GError) error = NULL;

    if (!write_json(b, &error)) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    return code;
}

/* ---- building and running ---- */

/* The flake hook's extra options for this run of step, or NULL. */
static const char *const *flake_extra(Bisect *b, const CommitStep *step,
                                      const char **extra)
{
    if (!b->flake_prefix || !g_str_has_prefix(step->sha, b->flake_prefix) ||
        g_hash_table_contains(b->flaked, step->sha)) {
        return NULL;
    }
    g_hash_table_add(b->flaked, g_strdup(step->sha));
    extra[0] = "--suite";
    extra[1] = b->flake_suite;
    extra[2] = NULL;
    return extra;
}

/*
 * Build step; append "build 7.1 s" or "build FAIL (why)" to line.  FALSE
 * (with the message printed) when patchbay could not try.
 */
static gboolean build(const Bisect *b, CommitStep *step, GString *line)
{
    g_autoptr(GError) error = NULL;

    if (!commit_step_build(&b->ctx, step, &error)) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return FALSE;
    }
    if (step->build == BUILD_OK) {
        g_string_append_printf(line, "build %.1f s", step->build_s);
        return TRUE;
    }
    if (step->build == BUILD_FAILED) {
        g_string_append_printf(line, "build FAIL (%s)",
                               step->build_error ? step->build_error
                                                 : "see build.log");
        return TRUE;
    }
    g_printerr("patchbay-bisect: patchbay could not build %.12s: %s "
               "(see %s/build.log)\n",
               step->sha, step->build_error ? step->build_error : "no reason",
               step->dir);
    return FALSE;
}

/*
 * Run step into name (extra options: the flake hook's, or record's),
 * classified when the criterion is known; append "run 4.2 s, fail" to
 * line (after ", " unless it ends a "NAME: " prefix).  NULL (message printed) when the run could not start.
 */
static TryLog *run(Bisect *b, CommitStep *step, const char *name,
                   const char *const *extra, GString *line)
{
    g_autoptr(GError) error = NULL;
    const char *flake[3];
    TryLog *t;

    if (!extra) {
        extra = flake_extra(b, step, flake);
    }
    if (!commit_step_run(&b->ctx, step, name, extra, &error)) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return NULL;
    }
    t = g_new0(TryLog, 1);
    t->results = g_strdup(step->results_dir);
    t->run_s = step->run_s;
    t->exit = step->run_exit;
    t->verdict = step->results ? g_strdup(step->results->verdict) : NULL;
    t->outcome = BISECT_UNCLEAR;
    if (b->criterion) {
        t->outcome = bisect_classify(b->criterion, step->results,
                                     step->run_exit, &t->reason);
    }
    if (!g_str_has_suffix(line->str, ": ")) {
        g_string_append(line, ", ");
    }
    g_string_append_printf(line, "run %.1f s, %s", t->run_s,
                           t->verdict ? t->verdict : "no results");
    return t;
}

/* Build and run an end; FALSE (message printed) when it is unusable. */
static gboolean run_end(Bisect *b, guint index, const char *which)
{
    CommitStep *step = step_at(b, index);
    StepLog *s = log_step(b, index);
    g_autoptr(GString) line = g_string_new(NULL);
    g_autofree char *name = step_name(step);
    TryLog *t;

    g_string_printf(line, "%s: %s: ", which, name);
    s->status = "trouble";
    if (!build(b, step, line)) {
        return FALSE;
    }
    if (step->build != BUILD_OK) {
        printf("%s\n", line->str);
        g_printerr("patchbay-bisect: the %s end %.12s does not build: %s\n",
                   which, step->sha,
                   step->build_error ? step->build_error : "see build.log");
        return FALSE;
    }
    t = run(b, step, "results", NULL, line);
    if (!t) {
        return FALSE;
    }
    g_ptr_array_add(s->runs, t);
    printf("%s\n", line->str);
    fflush(stdout);
    /* The criterion comes from the ends: partial results would make every
     * test the run never reached look changed. */
    if (!step->results) {
        g_printerr("patchbay-bisect: the %s end's run left no results "
                   "(exit %d; see %s.log)\n",
                   which, step->run_exit, t->results);
        return FALSE;
    }
    if (g_str_equal(step->results->verdict, "incomplete")) {
        g_printerr("patchbay-bisect: the %s end's run is incomplete "
                   "(see %s.log): its results are partial\n",
                   which, t->results);
        return FALSE;
    }
    s->status = g_str_equal(which, "good") ? "good" : "bad";
    return TRUE;
}

/*
 * Build and run the commit at index, up to b->tries runs while unclear;
 * print its line and mark it.  FALSE on trouble (message printed).
 */
static gboolean bisect_step(Bisect *b, guint number, guint index)
{
    CommitStep *step = step_at(b, index);
    StepLog *s = log_step(b, index);
    g_autoptr(GString) line = g_string_new(NULL);
    g_autofree char *name = step_name(step);
    g_autoptr(GError) error = NULL;
    BisectMark mark = BISECT_SKIPPED;

    g_string_printf(line, "step %u: %s: ", number, name);
    s->status = "trouble";
    if (!build(b, step, line)) {
        return FALSE;
    }
    if (step->build != BUILD_OK) {
        s->skip_why = "does not build";
        g_string_append(line, " -> skipped");
    }
    for (guint i = 1; step->build == BUILD_OK && i <= b->tries; i++) {
        g_autofree char *results =
            i == 1 ? g_strdup("results") : g_strdup_printf("results-%u", i);
        TryLog *t = run(b, step, results, NULL, line);

        if (!t) {
            return FALSE;
        }
        g_ptr_array_add(s->runs, t);
        g_string_append_printf(line, " -> %s", bisect_outcome_name(t->outcome));
        if (t->outcome != BISECT_UNCLEAR) {
            mark =
                t->outcome == BISECT_GOOD ? BISECT_MARK_GOOD : BISECT_MARK_BAD;
            break;
        }
        g_string_append_printf(line, " (%s)", t->reason);
        if (i < b->tries) {
            g_string_append(line, ", run again");
        } else {
            s->skip_why = "unclear";
            g_string_append_printf(line, ", skipped after %u run%s", i,
                                   i == 1 ? "" : "s");
        }
    }
    printf("%s\n", line->str);
    fflush(stdout);
    if (!bisect_search_mark(b->search, index, mark, &error)) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return FALSE;
    }
    s->status = bisect_mark_name(mark);
    return TRUE;
}

/* The log of the commit at index, or NULL if it was not tested. */
static StepLog *find_log(const Bisect *b, guint index)
{
    for (guint i = 0; i < b->log->len; i++) {
        StepLog *s = g_ptr_array_index(b->log, i);

        if (s->index == index) {
            return s;
        }
    }
    return NULL;
}

/* Several candidates: name them all, as git bisect does. */
static void print_candidates(const Bisect *b)
{
    printf("the first bad commit is one of:");
    for (guint i = 0; i < b->candidates->len; i++) {
        printf("%s %.12s", i ? "," : "",
               step_at(b, g_array_index(b->candidates, guint, i))->sha);
    }
    printf("\n");
    for (guint i = 0; i < b->candidates->len; i++) {
        guint index = g_array_index(b->candidates, guint, i);
        StepLog *s = find_log(b, index);
        g_autofree char *name = step_name(step_at(b, index));

        printf("  %s (%s)\n", name, s && s->skip_why ? s->skip_why : "bad");
    }
}

/* Run the first bad commit again with --record; it must be bad. */
static int record_first_bad(Bisect *b)
{
    guint index = g_array_index(b->candidates, guint, 0);
    CommitStep *step = step_at(b, index);
    const char *const record[] = {"--record", NULL};
    g_autoptr(GString) line = g_string_new(NULL);
    g_autofree char *name = step_name(step);
    g_autofree char *recording = NULL;
    g_autofree char *json = NULL;

    g_string_printf(line, "record: %s: ", name);
    b->recorded = run(b, step, "recorded", record, line);
    if (!b->recorded) {
        return EXIT_TROUBLE;
    }
    g_string_append_printf(line, " -> %s",
                           bisect_outcome_name(b->recorded->outcome));
    printf("%s\n", line->str);
    if (b->recorded->outcome != BISECT_BAD) {
        printf("the recorded run of %.12s was not bad: %s\n", step->sha,
               b->recorded->reason ? b->recorded->reason
                                   : "it has good's results");
        printf("results: %s\n", b->recorded->results);
        return EXIT_UNSURE;
    }
    recording = g_build_filename(b->recorded->results, "recording", NULL);
    json = g_build_filename(recording, "recording.json", NULL);
    if (!g_file_test(json, G_FILE_TEST_EXISTS)) {
        g_printerr("patchbay-bisect: the --record run of %.12s left no "
                   "recording (%s)\n",
                   step->sha, json);
        return EXIT_TROUBLE;
    }
    b->recording = g_steal_pointer(&recording);
    printf("first bad commit: %s %s\n", step->sha, step->subject);
    printf("results: %s\n", b->recorded->results);
    printf("recording: %s (scripts/patchbay replay %s; scripts/patchbay "
           "debug --replay %s)\n",
           b->recording, b->recorded->results, b->recorded->results);
    return EXIT_FOUND;
}

/* ceil(log2(n)) */
static guint steps_for(guint n)
{
    guint bits = 0;

    while ((1u << bits) < n) {
        bits++;
    }
    return bits;
}

static int bisect(Bisect *b, char **test_globs)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *criterion = NULL;
    guint n = b->steps->len;
    guint number = 0;
    int next;

    if (!run_end(b, 0, "good") || !run_end(b, n - 1, "bad")) {
        return finish(b, EXIT_TROUBLE);
    }
    b->criterion =
        bisect_criterion_new(step_at(b, 0)->results, step_at(b, n - 1)->results,
                             (const char *const *)test_globs, &error);
    if (!b->criterion) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return finish(b, EXIT_TROUBLE);
    }
    /* The ends' own runs, classified now that the criterion is known. */
    for (guint i = 0; i < b->log->len; i++) {
        StepLog *s = g_ptr_array_index(b->log, i);
        TryLog *t = g_ptr_array_index(s->runs, 0);

        t->outcome = bisect_classify(b->criterion, s->step->results, t->exit,
                                     &t->reason);
    }
    criterion = bisect_criterion_describe(b->criterion, CRITERION_SHOWN);
    printf("criterion: %s\n", criterion);
    if (n == 2) {
        printf("no commit between good and bad: bad is the first bad one\n");
    } else {
        printf("%u commit%s between good and bad: about %u step%s\n", n - 2,
               n == 3 ? "" : "s", steps_for(n - 1),
               steps_for(n - 1) == 1 ? "" : "s");
    }
    fflush(stdout);
    if (finish(b, EXIT_FOUND) != EXIT_FOUND) {
        return EXIT_TROUBLE;
    }

    b->search = bisect_search_new(n);
    while ((next = bisect_next(b->search)) >= 0) {
        if (!bisect_step(b, ++number, next)) {
            return finish(b, EXIT_TROUBLE);
        }
        if (finish(b, EXIT_FOUND) != EXIT_FOUND) {
            return EXIT_TROUBLE;
        }
    }
    b->candidates = bisect_search_candidates(b->search);
    if (b->candidates->len > 1) {
        print_candidates(b);
        return finish(b, EXIT_UNSURE);
    }
    return finish(b, record_first_bad(b));
}

/* Split PATCHBAY_BISECT_FLAKE=PREFIX:SUITE; FALSE if malformed. */
static gboolean parse_flake(Bisect *b)
{
    const char *env = g_getenv("PATCHBAY_BISECT_FLAKE");
    const char *colon;

    b->flaked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (!env || !*env) {
        return TRUE;
    }
    colon = strchr(env, ':');
    if (!colon || colon == env || !colon[1]) {
        g_printerr("patchbay-bisect: PATCHBAY_BISECT_FLAKE=%s: expected "
                   "SHA_PREFIX:SUITE\n",
                   env);
        return FALSE;
    }
    b->flake_prefix = g_strndup(env, colon - env);
    b->flake_suite = g_strdup(colon + 1);
    return TRUE;
}

int main(int argc, char **argv)
{
    g_autofree char *scripts = NULL, *repo = NULL, *list = NULL;
    g_autofree char *results = NULL;
    g_auto(GStrv) suites = NULL, tests = NULL, run_args = NULL;
    g_autoptr(GError) error = NULL;
    gint tries = 3;
    int opt_argc, code;
    Bisect b = {0};
    GOptionEntry entries[] = {
        {"scripts", 0, 0, G_OPTION_ARG_FILENAME, &scripts,
         "the folder of patchbay and kernel-git", "DIR"},
        {"git", 0, 0, G_OPTION_ARG_FILENAME, &repo,
         "the kernel's git repository", "REPO"},
        {"commits", 0, 0, G_OPTION_ARG_FILENAME, &list,
         "SHA<TAB>SUBJECT lines, good first, bad last", "LIST"},
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &results,
         "the folder for the steps and bisect.json", "DIR"},
        {"suite", 0, 0, G_OPTION_ARG_STRING_ARRAY, &suites,
         "run this suite (repeatable)", "NAME"},
        {"test", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tests,
         "bisect on the tests matching GLOB (repeatable)", "GLOB"},
        {"tries", 0, 0, G_OPTION_ARG_INT, &tries,
         "runs of a step before an unclear one is skipped (3)", "N"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new(
        "[-- RUN_OPTIONS...] - find the first bad commit on the emulated "
        "hardware");

    g_set_prgname("patchbay-bisect");
    g_option_context_add_main_entries(ctx, entries, NULL);
    run_args =
        commit_step_parse_args(ctx, argc, argv, &suites, &opt_argc, &error);
    if (!run_args) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (!scripts || !repo || !list || !results || opt_argc != 1) {
        g_printerr("patchbay-bisect: usage: patchbay-bisect --scripts DIR "
                   "--git REPO --commits LIST --results DIR [--suite NAME]... "
                   "[--test GLOB]... [--tries N] [-- RUN_OPTIONS...]\n");
        return EXIT_TROUBLE;
    }
    if (tries < 1) {
        g_printerr("patchbay-bisect: --tries %d: at least one run\n", tries);
        return EXIT_TROUBLE;
    }
    if (!parse_flake(&b)) {
        bisect_clear(&b);
        return EXIT_TROUBLE;
    }
    b.ctx.scripts = scripts;
    b.ctx.repo = repo;
    b.ctx.run_args = g_steal_pointer(&run_args);
    b.results = g_strdup(results);
    b.tries = tries;
    b.log = g_ptr_array_new_with_free_func(step_log_free);
    if (g_mkdir_with_parents(results, 0755) != 0) {
        g_printerr("patchbay-bisect: %s: %s\n", results, g_strerror(errno));
        bisect_clear(&b);
        return EXIT_TROUBLE;
    }
    b.steps = commit_steps_load(list, results, &error);
    if (!b.steps) {
        g_printerr("patchbay-bisect: %s\n", error->message);
        bisect_clear(&b);
        return EXIT_TROUBLE;
    }
    /* Two lines are a range of one commit: bad itself is the answer, once
     * both ends are confirmed. */
    if (b.steps->len < 2) {
        g_printerr("patchbay-bisect: empty range: %s has %u commit%s; it "
                   "needs the good one first and the bad one last\n",
                   list, b.steps->len, b.steps->len == 1 ? "" : "s");
        bisect_clear(&b);
        return EXIT_TROUBLE;
    }
    code = bisect(&b, tests);
    bisect_clear(&b);
    return code;
}
