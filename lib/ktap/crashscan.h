/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crashscan.h - recognises kernel crash reports in the console stream */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
    /*
     * "panic","oops","bug","warn","kasan","lockup","hung-task","rcu-
     * stall","hang", and "ubsan" (KFENCE reports count as "kasan", lockdep
     * splats as "warn"); the runner's own: "hang", "reset", and "limit" (the
     * console exceeded one of ktaplimits.h's caps)
     */
    char *kind;
    /*
     * the test running when it started (ktap_parser_running), or "(boot)" if
     * none
     */
    char *test;
    /*
     * the report: its first line and the following kernel lines, up to 40
     * lines and KTAP_EXCERPT_MAX_BYTES, ending early at "---[ end trace" /
     * "---[ end Kernel panic"; lines are '\n'-separated and keep their
     * "[ time]" prefix
     */
    char *excerpt;
} CrashReport;

typedef struct CrashScanner CrashScanner;

/*
 * The i-th line start that begins a report (i < crash_trigger_count()), and
 * the text the line must also contain, or NULL: for tools that watch a
 * console without this scanner (a LAVA monitor, patchbay-lava).
 */
guint crash_trigger_count(void);
const char *crash_trigger_prefix(guint i, const char **must_contain);

CrashScanner *crash_scanner_new(void);
void crash_scanner_free(CrashScanner *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CrashScanner, crash_scanner_free)

/* feed every console line (kernel and userspace); running_test may be NULL */
void crash_scanner_feed(CrashScanner *s, const char *line,
                        const char *running_test);

/*
 * a report that the runner, not the console, knows of: kind "hang" (its
 * watchdog fired; why: "no console output for 120 s"), "reset" (the guest
 * reset itself) or "limit" (why: KTAP_LIMIT_MESSAGE), pinned on running_test ("(boot)" if NULL); the excerpt is
 * why followed by the last 20 console lines seen
 */
void crash_scanner_add_report(CrashScanner *s, const char *kind,
                              const char *running_test, const char *why);

/* TRUE for the kinds after which the kernel may not run on (panic, oops,
 * BUG, lockups, hangs); FALSE for a WARN, a KASAN or UBSAN report, after
 * which the kernel goes on and the remaining tests still tell something */
gboolean crash_kind_is_fatal(const char *kind);

/*
 * CrashReport *, owned by the scanner; the last report may still grow while
 * lines are fed
 */
GPtrArray *crash_scanner_reports(CrashScanner *s);

/*
 * NULL, or "guest output exceeded KTAP_LIMIT_CRASH_REPORTS (1000 reports)"
 * once the console had more kernel reports than that (the later ones are
 * not kept; crash_scanner_add_report is not limited)
 */
const char *crash_scanner_limit(CrashScanner *s);

/* Watchdog helper, pure so it can be unit-tested without sleeping */
typedef struct {
    gint64 timeout_us;
    gint64 last_progress_us;
} Watchdog;
void watchdog_init(Watchdog *w, gint64 timeout_us, gint64 now_us);
void watchdog_kick(Watchdog *w, gint64 now_us);
/*
 * TRUE once timeout_us has passed since the last kick; a timeout <= 0 never
 * expires
 */
gboolean watchdog_expired(const Watchdog *w, gint64 now_us);

G_END_DECLS
