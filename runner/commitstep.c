/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commitstep: check, build and run one commit through the scripts, each
 * step a child process with its output in a log of the step's folder.
 * See commitstep.h.
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "commitstep.h"

const char *build_status_name(BuildStatus status)
{
    static const char *const names[] = {
        [BUILD_NOT_TRIED] = "-",
        [BUILD_OK] = "ok",
        [BUILD_FAILED] = "FAIL",
        [BUILD_TROUBLE] = "trouble",
    };

    g_return_val_if_fail(status < G_N_ELEMENTS(names), "?");
    return names[status];
}

CommitStep *commit_step_new(const char *sha, const char *subject,
                            const char *dir)
{
    CommitStep *step = g_new0(CommitStep, 1);

    step->sha = g_strdup(sha);
    step->subject = g_strdup(subject);
    step->dir = g_strdup(dir);
    step->run_exit = -1;
    /* A folder that cannot be made shows later, as the error of the first
     * log that cannot be opened in it. */
    g_mkdir_with_parents(dir, 0755);
    return step;
}

void commit_step_free(CommitStep *step)
{
    if (!step) {
        return;
    }
    g_free(step->sha);
    g_free(step->subject);
    g_free(step->dir);
    g_free(step->checkpatch);
    g_free(step->build_error);
    g_free(step->results_dir);
    run_results_free(step->results);
    g_free(step);
}

static gboolean is_sha(const char *s)
{
    guint n = 0;

    for (; s[n]; n++) {
        if (!g_ascii_isxdigit(s[n])) {
            return FALSE;
        }
    }
    return n == 40;
}

GPtrArray *commit_steps_load(const char *list_path, const char *dir,
                             GError **error)
{
    g_autoptr(GPtrArray) steps =
        g_ptr_array_new_with_free_func((GDestroyNotify)commit_step_free);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (!g_file_get_contents(list_path, &text, NULL, error)) {
        return NULL;
    }
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *line = g_strchomp(lines[i]); /* a CRLF list, a trailing blank */
        char *tab = strchr(line, '\t');
        g_autofree char *name = NULL;
        g_autofree char *step_dir = NULL;

        if (!*line) {
            continue;
        }
        if (!tab) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: expected 'SHA<TAB>SUBJECT': %s", list_path,
                        i + 1, line);
            return NULL;
        }
        *tab = '\0';
        if (!is_sha(line)) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: '%s' is not a 40-digit commit id", list_path,
                        i + 1, line);
            return NULL;
        }
        name = g_strdup_printf("%02u-%.12s", steps->len, line);
        step_dir = g_build_filename(dir, name, NULL);
        g_ptr_array_add(steps, commit_step_new(line, tab + 1, step_dir));
    }
    return g_steal_pointer(&steps);
}

gboolean checkpatch_counts(const char *text, guint *errors, guint *warnings,
                           guint *checks)
{
    g_autoptr(GRegex) re = g_regex_new(
        "([0-9]+) errors?, ([0-9]+) warnings?, ([0-9]+) checks?", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    guint *out[] = {errors, warnings, checks};

    if (!text || !g_regex_match(re, text, 0, &m)) {
        return FALSE;
    }
    for (guint i = 0; i < G_N_ELEMENTS(out); i++) {
        g_autofree char *n = g_match_info_fetch(m, i + 1);

        if (out[i]) {
            *out[i] = (guint)g_ascii_strtoull(n, NULL, 10);
        }
    }
    return TRUE;
}

char **commit_step_parse_args(GOptionContext *octx, int argc, char **argv,
                              char **const *suites, int *opt_argc,
                              GError **error)
{
    g_autoptr(GStrvBuilder) run_args = g_strv_builder_new();
    int split = argc;

    for (int i = 1; i < argc; i++) {
        if (g_str_equal(argv[i], "--")) {
            split = i;
            break;
        }
    }
    *opt_argc = split;
    if (!g_option_context_parse(octx, opt_argc, &argv, error)) {
        return NULL;
    }
    for (guint i = 0; *suites && (*suites)[i]; i++) {
        g_strv_builder_add_many(run_args, "--suite", (*suites)[i], NULL);
    }
    /* The parse reorders only the arguments it was given, those before
     * "--". */
    for (int i = split + 1; i < argc; i++) {
        g_strv_builder_add(run_args, argv[i]);
    }
    return g_strv_builder_end(run_args);
}

/* The program's name for its messages (series and bisect share this). */
static const char *prog_name(void)
{
    return g_get_prgname() ? g_get_prgname() : "patchbay";
}

/* The progress line of an action on stderr: short, one per child. */
static void say(const CommitStep *step, const char *action)
{
    g_autofree char *subject = NULL;

    if (g_utf8_strlen(step->subject, -1) > 50) {
        g_autofree char *cut = g_utf8_substring(step->subject, 0, 47);

        subject = g_strconcat(cut, "...", NULL);
    } else {
        subject = g_strdup(step->subject);
    }
    g_printerr("==> %.12s %s: %s\n", step->sha, subject, action);
}

/*
 * Start argv with its stdout and stderr in log (created or truncated) and
 * wait for it; *seconds is its wall time.  FALSE only when it could not
 * start.  A child killed by a signal counts as exit 128 + the signal, as a
 * shell would say.
 */
static gboolean spawn_logged(const char *const *argv, const char *log,
                             int *exit_code, double *seconds, GError **error)
{
    g_autoptr(GSubprocessLauncher) launcher =
        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_MERGE);
    g_autoptr(GSubprocess) proc = NULL;
    gint64 start = g_get_monotonic_time();

    g_subprocess_launcher_set_stdout_file_path(launcher, log);
    proc = g_subprocess_launcher_spawnv(launcher, argv, error);
    if (!proc) {
        g_prefix_error(error, "%s: ", argv[0]);
        return FALSE;
    }
    /* Without a cancellable the wait only ends when the child does. */
    g_subprocess_wait(proc, NULL, NULL);
    *seconds = (g_get_monotonic_time() - start) / 1e6;
    if (g_subprocess_get_if_exited(proc)) {
        *exit_code = g_subprocess_get_exit_status(proc);
    } else {
        *exit_code = 128 + g_subprocess_get_term_sig(proc);
    }
    return TRUE;
}

void commit_step_checkpatch(const StepContext *ctx, CommitStep *step)
{
    g_autofree char *prog = g_build_filename(ctx->scripts, "kernel-git", NULL);
    g_autofree char *log = g_build_filename(step->dir, "checkpatch.log", NULL);
    const char *argv[] = {prog, "checkpatch", ctx->repo, step->sha, NULL};
    g_autoptr(GSubprocessLauncher) launcher =
        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE);
    g_autoptr(GSubprocess) proc = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *out = NULL;
    guint e, w, c;

    g_clear_pointer(&step->checkpatch, g_free);
    say(step, "checkpatch");
    /* stdout is the one line of counts; the script's chatter goes to the
     * log. */
    g_subprocess_launcher_set_stderr_file_path(launcher, log);
    proc = g_subprocess_launcher_spawnv(launcher, argv, &error);
    if (!proc ||
        !g_subprocess_communicate_utf8(proc, NULL, NULL, &out, NULL, &error)) {
        g_printerr("%s: checkpatch of %.12s: %s\n", prog_name(), step->sha,
                   error->message);
        return;
    }
    if (!g_subprocess_get_successful(proc) ||
        !checkpatch_counts(out, &e, &w, &c)) {
        g_printerr("%s: checkpatch of %.12s gave no counts (see %s)\n",
                   prog_name(), step->sha, log);
        return;
    }
    step->checkpatch =
        g_strdup_printf("%u errors, %u warnings, %u checks", e, w, c);
}

gboolean commit_step_build(const StepContext *ctx, CommitStep *step,
                           GError **error)
{
    g_autofree char *prog = g_build_filename(ctx->scripts, "patchbay", NULL);
    g_autofree char *log = g_build_filename(step->dir, "build.log", NULL);
    const char *argv[] = {prog,    "build",   "--git", ctx->repo,
                          "--ref", step->sha, NULL};
    g_autofree char *text = NULL;
    int code;

    step->build = BUILD_NOT_TRIED;
    g_clear_pointer(&step->build_error, g_free);
    say(step, "building");
    if (!spawn_logged(argv, log, &code, &step->build_s, error)) {
        return FALSE;
    }
    if (code == 0) {
        step->build = BUILD_OK;
        return TRUE;
    }
    /* An unreadable log reads as empty: trouble, no error line. */
    g_file_get_contents(log, &text, NULL, NULL);
    step->build = build_log_status(text);
    step->build_error = build_log_first_error(text);
    return TRUE;
}

gboolean commit_step_run(const StepContext *ctx, CommitStep *step,
                         const char *name, const char *const *extra,
                         GError **error)
{
    g_autofree char *prog = g_build_filename(ctx->scripts, "patchbay", NULL);
    g_autofree char *results = g_build_filename(step->dir, name, NULL);
    g_autofree char *log = g_strconcat(results, ".log", NULL);
    g_autofree char *summary = g_build_filename(results, "summary.json", NULL);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_autoptr(GError) load_error = NULL;

    g_ptr_array_add(argv, prog);
    g_ptr_array_add(argv, "run");
    g_ptr_array_add(argv, "--git");
    g_ptr_array_add(argv, ctx->repo);
    g_ptr_array_add(argv, "--ref");
    g_ptr_array_add(argv, step->sha);
    g_ptr_array_add(argv, "--results");
    g_ptr_array_add(argv, results);
    for (guint i = 0; ctx->run_args && ctx->run_args[i]; i++) {
        g_ptr_array_add(argv, ctx->run_args[i]);
    }
    for (guint i = 0; extra && extra[i]; i++) {
        g_ptr_array_add(argv, (char *)extra[i]);
    }
    g_ptr_array_add(argv, NULL);

    step->run_exit = -1;
    step->run_s = 0;
    g_clear_pointer(&step->results_dir, g_free);
    g_clear_pointer(&step->results, run_results_free);
    /* A run that cannot start writes no summary: an earlier run's must not
     * be read as this one's. */
    g_unlink(summary);
    say(step, "running");
    if (!spawn_logged((const char *const *)argv->pdata, log, &step->run_exit,
                      &step->run_s, error)) {
        return FALSE;
    }
    step->results_dir = g_steal_pointer(&results);
    step->results = run_results_load(step->results_dir, &load_error);
    if (!step->results) {
        g_printerr("%s: %.12s: no results: %s (see %s)\n", prog_name(),
                   step->sha, load_error->message, log);
    }
    return TRUE;
}

/* The line, trimmed (g_free). */
static char *trimmed(const char *line)
{
    return g_strstrip(g_strdup(line));
}

/* make's "... Error 2": "Error", a space, a digit. */
static gboolean is_make_error(const char *line)
{
    for (const char *p = strstr(line, "Error "); p;
         p = strstr(p + 1, "Error ")) {
        if (g_ascii_isdigit(p[6])) {
            return TRUE;
        }
    }
    return FALSE;
}

char *build_log_first_error(const char *log)
{
    g_auto(GStrv) lines = NULL;
    const char *make_error = NULL, *die = NULL;

    if (!log) {
        return NULL;
    }
    lines = g_strsplit(log, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        const char *line = lines[i];
        const char *start = line + strspn(line, " \t");

        /* patchbay's own verdict says that, not why: the last resort. */
        if (g_str_has_prefix(start, "patchbay: error:")) {
            die = line;
            continue;
        }
        /* gcc's "file:l:c: error:", lld's "ld.lld: error:", GNU ld's
         * "undefined reference to", gas's "Error:". */
        if (strstr(line, "error:") || strstr(line, "Error:") ||
            strstr(line, "undefined reference to")) {
            return trimmed(line);
        }
        if (!make_error && is_make_error(line)) {
            make_error = line;
        }
    }
    if (make_error) {
        return trimmed(make_error);
    }
    return die ? trimmed(die) : NULL;
}

BuildStatus build_log_status(const char *log)
{
    return log && strstr(log, "kernel build failed") ? BUILD_FAILED
                                                     : BUILD_TROUBLE;
}

void commit_step_json_build_members(JsonBuilder *b, const CommitStep *step)
{
    results_json_add_string(b, "sha", step->sha);
    results_json_add_string(b, "subject", step->subject);
    results_json_add_string(b, "build", build_status_name(step->build));
    results_json_add_string(b, "build_error", step->build_error);
    json_builder_set_member_name(b, "build_s");
    if (step->build != BUILD_NOT_TRIED) {
        json_builder_add_double_value(b, step->build_s);
    } else {
        json_builder_add_null_value(b);
    }
}
