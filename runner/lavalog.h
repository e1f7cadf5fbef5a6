/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavalog: read a LAVA job log (lava-dispatcher 2023.01): lava-run's stderr,
 * one YAML flow mapping per line, or a lava-server's output.yaml, the same
 * lines each prefixed with "- ".  Keeps the device's console ("target"
 * records) and the test results ("results" records); every other level is
 * parsed and ignored.
 *
 * A guest controls the console text, so the reader is bounded: a line over
 * LAVA_LOG_MAX_LINE bytes is skipped, the console stops growing at
 * LAVA_LOG_MAX_CONSOLE bytes and the results list at LAVA_LOG_MAX_RESULTS.
 * A line nesting collections over 64 deep is skipped too (records nest 3).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LAVA_LOG_MAX_LINE    (1024 * 1024)
#define LAVA_LOG_MAX_CONSOLE (64 * 1024 * 1024)
#define LAVA_LOG_MAX_RESULTS 100000

/* One "results" record; the strings are as LAVA wrote them. */
typedef struct {
    char *definition;   /* "lava" for LAVA's own actions and the job */
    char *case_name;    /* slugified: lowercase, \W+ replaced by '_' */
    char *test_case_id; /* extra.test_case_id, the name before, or NULL */
    char *result;       /* "pass", "fail", "skip" or "unknown" */
    char *level;        /* the action's level, e.g. "3.1", or NULL */
    char *error_type;   /* on failures of lava/job and actions, or NULL */
    char *error_msg;    /* or NULL */
} LavaResult;

typedef struct {
    GPtrArray *results; /* LavaResult *, in log order */
    /*
     * The target lines, each followed by '\n', with LAVA's '"' -> '\"'
     * undone and NUL bytes dropped: valid UTF-8 without NULs.
     */
    GString *console;
    guint records;       /* lines that were a usable record of any level */
    guint skipped_lines; /* all the other lines, e.g. Python tracebacks */
    gboolean console_truncated; /* target lines were dropped at the cap */
    /* results were dropped at the cap; one lava/job record may follow it */
    gboolean results_truncated;
    LavaResult *job; /* the last lava/job record, in results, or NULL */
} LavaLog;

/* Never fails: malformed lines are only counted in skipped_lines. */
LavaLog *lava_log_parse(const char *text, gsize len);
/* The same as lava_log_parse() on the file's contents, read line by line;
 * fails only if the file cannot be read (G_IO_ERROR_*). */
LavaLog *lava_log_read(const char *path, GError **error);
void lava_log_free(LavaLog *log);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LavaLog, lava_log_free)

G_END_DECLS
