/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resultdir: one run's result folder, written and read in one place.
 *
 * A run is judged from its console alone: every console line goes through
 * run_record_feed() (the KTAP parser, the crash scanner, the test marks),
 * live in patchbay-run or offline from a saved console.log (patchbay-run
 * --parse).  The runner's own decisions that are not in the guest's output
 * (a hang, no /init, a reset of the guest) are written into console.log
 * as "patchbay-run: hang:" and "patchbay-run: reset:" lines, so that a
 * parse sees them too.
 *
 * The folder holds console.log, summary.json (verdict, variant, kernel,
 * timings, per-suite counts, crashes, skips), results.txt
 * ("RESULT<TAB>suite/exe/case" per leaf test, in run order) and junit.xml.
 *
 * Read errors are G_IO_ERROR_INVALID_DATA (malformed content),
 * G_FILE_ERROR_* (unreadable file) or JSON_PARSER_ERROR_* (invalid JSON);
 * every message names the file.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "crashscan.h"
#include "ktap.h"

G_BEGIN_DECLS

/* The verdict of a run; also patchbay-run's exit code. */
typedef enum {
    VERDICT_PASS = 0,
    VERDICT_FAIL = 1,
    VERDICT_INCOMPLETE = 2,
} Verdict;

/* "pass", "fail", "incomplete" */
const char *verdict_name(Verdict verdict);

/* What a console said, fed line by line. */
typedef struct {
    KtapParser *parser;
    KtapMarks marks;
    CrashScanner *scanner;
    gboolean saw_ktap;
    /* monotonic times; all 0 when parsing a saved console */
    gint64 start_us, first_ktap_us, first_crash_us, first_fatal_us, end_us;
    /*
     * The VM the console came from: its name (the prefix of its lines when
     * a run has several VMs), the suites it was to run, its clock.  Set by
     * the caller (run_records_parse from the console's VM marks); freed by
     * run_record_clear.
     */
    char *vm_name;
    char **suites;
    gboolean virtual_clock;
    int cpus; /* the VM's vCPUs, 0 when a saved mark does not say */
    /*
     * Limits (ktaplimits.h): console.log's bytes of this VM so far, what
     * its "NAME| " prefix adds to each line (0 for a run of one VM), and
     * whether a limit report ended the judging.
     */
    gsize console_bytes, line_prefix_len;
    gboolean limited;
} RunRecord;

void run_record_init(RunRecord *rec, gint64 start_us);
void run_record_clear(RunRecord *rec);

/*
 * Whether console.log keeps this line: FALSE once the record is limited,
 * or when the line would take this VM's console past KTAP_LIMIT_CONSOLE
 * (then the record gets its "limit" report).  The runner asks before it
 * logs and feeds a line, and a parse before it feeds one, so both stop at
 * the same line.
 */
gboolean run_record_keep(RunRecord *rec, const char *line);

/*
 * One console line, without its newline.  Returns the crash report this
 * line started, or NULL.  Past a limit of ktaplimits.h (tests, depth, path,
 * crash reports, or a line that ends with KTAP_LIMIT_LINE_CUT) it adds a
 * "limit" report, returns it and sets rec->limited: later lines are
 * ignored, except the runner's own hang and reset marks.
 */
CrashReport *run_record_feed(RunRecord *rec, const char *line, gint64 now_us);

/* The test to pin a crash on now (g_free), or NULL. */
char *run_record_running(RunRecord *rec);

/* The runner gave up waiting (why: "no console output for 300 s"): add a
 * hang report and return the console.log line that records it (g_free). */
char *run_record_hang(RunRecord *rec, const char *why);

/* QEMU ended because the guest reset itself: /init powers off, so that is
 * a panic (panic=-1) whose lines the console may have garbled, or a
 * reboot.  Unless a fatal crash is already recorded, add a "reset" report;
 * return the console.log line that records it (g_free). */
char *run_record_reset(RunRecord *rec, const char *why);

/* End of the console. */
void run_record_finish(RunRecord *rec, gint64 end_us);

/* The crash reports so far (CrashReport *, owned by rec). */
GPtrArray *run_record_crashes(RunRecord *rec);

/* Judge the run of suites; explain a non-pass on stderr. */
Verdict run_record_verdict(RunRecord *rec, const char *const *suites);

/* The worst verdict of n consoles, each judged on its own rec->suites. */
Verdict run_records_verdict(RunRecord *const *recs, guint n);

/*
 * A run of several VMs has one console.log: first one mark per VM
 * (run_record_vm_mark), then every console line prefixed "NAME| " by the VM
 * it came from, interleaved as they arrived.  A run of one VM has its mark
 * and unprefixed lines; a console without marks (older runs) is one VM.
 */
#define RUN_VM_MARK   "patchbay-run: vm "
#define RUN_VM_PREFIX "| "
/* "patchbay-run: vm NAME: suites=a,b clock=virtual" (g_free) */
char *run_record_vm_mark(const RunRecord *rec);
/* Split a saved console into its VMs' records, each fed and finished
 * (RunRecord *, freed with run_record_clear and g_free). */
GPtrArray *run_records_parse(const char *const *lines);
void run_record_free(RunRecord *rec);

/* Write summary.json, results.txt and junit.xml into dir, for the n
 * consoles of one run (jobs: the VMs run at once, 0 if unknown). */
gboolean result_dir_write(const char *dir, RunRecord *const *recs, guint n,
                          guint jobs, Verdict verdict, const char *variant,
                          const char *release, GError **error);

/* Wall seconds from the first VM's start to the last one's end (0 for a
 * parsed console). */
double run_records_wall_s(RunRecord *const *recs, guint n);

/* Leaf tests skipped as slow ("# SKIP slow: ...", /init without
 * patchbay.slow=1). */
guint run_records_slow_skipped(RunRecord *const *recs, guint n);

/* The human summary on stdout: per suite counts, skips and crashes. */
void run_record_print(RunRecord *const *recs, guint n);

/*
 * JSON members for summary.json, compare.json and mutants.json: member:
 * value, a NULL string as null.
 */
void results_json_add_string(JsonBuilder *b, const char *member,
                             const char *value);
void results_json_add_int(JsonBuilder *b, const char *member, gint64 value);
void results_json_add_double(JsonBuilder *b, const char *member, double value);
void results_json_add_bool(JsonBuilder *b, const char *member, gboolean value);
/* Write the builder's value to path, pretty-printed, with a final newline. */
gboolean results_json_write(JsonBuilder *b, const char *path, GError **error);
/* A file's SHA-256, in hex (g_free), or NULL with error set. */
char *results_file_sha256(const char *path, GError **error);

/* ---- reading a result folder back ---- */

typedef struct {
    char *kind; /* "panic", "oops", "warn", "kasan", "hang", ... */
    char *test; /* test running at the time, or NULL */
} RunCrash;

typedef struct {
    char *verdict; /* "pass", "fail" or "incomplete" */
    char *variant; /* "base" for the base kernel */
    char *kernel;  /* release string */
    /*
     * char *: test keys in run order; the N-th repeat of a path (N >= 2) is
     * "path [N]"
     */
    GPtrArray *tests;
    GHashTable *results; /* test key -> GINT_TO_POINTER(KtapResult) */
    GPtrArray *crashes;  /* RunCrash * */
} RunResults;

/* Load dir/results.txt and dir/summary.json. */
RunResults *run_results_load(const char *dir, GError **error);
void run_results_free(RunResults *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RunResults, run_results_free)

/* KTAP_RESULT_MISSING if the run has no such test. */
KtapResult run_results_get(const RunResults *run, const char *test);

G_END_DECLS
