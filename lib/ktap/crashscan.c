/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crashscan.c - recognises kernel crash reports in the console stream.
 *
 * Triggers are matched at the start of the message text, after the printk
 * "[ time]" prefix; a line without that prefix must start with the trigger
 * itself (console without printk.time).  Anchoring is what keeps user-space
 * KTAP lines such as "ok 3 bug fix" or "# BUG: ..." from matching.
 */
#include "crashscan.h"

#include <string.h>

#include "ktap.h"
#include "ktaplimits.h"

#define EXCERPT_MAX_LINES 40
#define RING_LINES        20
/*
 * arm64 die() prints "Internal error: Oops..." after the fault decode that
 * follows "Unable to handle kernel ..." (about 15 lines): within this many
 * lines it is the same oops
 */
#define DIE_MERGE_WINDOW 40
/* a "cut here" line belongs to a trigger at most this many lines after it */
#define CUT_HERE_WINDOW 5

typedef struct {
    const char *prefix;
    const char *must_contain; /* NULL: the prefix alone decides */
    const char *kind;
    /* arm64 die() ("Internal error: ...") follows as part of it */
    gboolean dies;
} Trigger;

/*
 * first match wins, so the specific "BUG: ..." forms come before the generic
 * one
 */
static const Trigger triggers[] = {
    {"Kernel panic - not syncing", NULL, "panic", FALSE},
    {"Unable to handle kernel ", NULL, "oops", TRUE},
    {"Internal error: Oops - BUG", NULL, "bug",
     FALSE}, /* BUG() without DEBUG_BUGVERBOSE */
    {"Internal error: ", NULL, "oops", FALSE},
    {"kernel BUG at ", NULL, "bug", TRUE},
    {"BUG: KASAN: ", NULL, "kasan", FALSE},
    {"BUG: KFENCE: ", NULL, "kasan", FALSE},
    {"BUG: soft lockup", NULL, "lockup", FALSE},
    {"watchdog: BUG: soft lockup", NULL, "lockup", FALSE},
    {"watchdog: ", "hard LOCKUP", "lockup", FALSE},
    {"BUG: workqueue lockup", NULL, "lockup", FALSE},
    {"BUG: ", NULL, "bug", FALSE},
    {"UBSAN: ", NULL, "ubsan", FALSE},
    /*
     * WARN(): "WARNING: CPU: 0 PID: 1 at ..."; lockdep: "WARNING: possible ..."
     */
    {"WARNING: ", NULL, "warn", FALSE},
    {"INFO: task ", "blocked for more than", "hung-task", FALSE},
    {"rcu: INFO: rcu_", "stall", "rcu-stall", FALSE},
    {"INFO: rcu_", "stall", "rcu-stall", FALSE},
};

guint crash_trigger_count(void)
{
    return G_N_ELEMENTS(triggers);
}

const char *crash_trigger_prefix(guint i, const char **must_contain)
{
    g_return_val_if_fail(i < G_N_ELEMENTS(triggers), NULL);
    *must_contain = triggers[i].must_contain;
    return triggers[i].prefix;
}

gboolean crash_kind_is_fatal(const char *kind)
{
    static const char *const survivable[] = {"warn", "kasan", "ubsan"};

    for (guint i = 0; i < G_N_ELEMENTS(survivable); i++) {
        if (g_strcmp0(kind, survivable[i]) == 0) {
            return FALSE;
        }
    }
    return TRUE;
}

typedef struct {
    CrashReport *report;
    GString *text;
    guint lines;
    /* began on a kernel line: user-space lines in between are not part of it */
    gboolean kernel_only;
} OpenReport;

struct CrashScanner {
    GPtrArray *reports; /* CrashReport * */
    /* open.report == NULL: no report collecting lines */
    OpenReport open;
    guint64 lineno; /* lines fed so far */

    /* a "cut here" line waiting for its WARNING / BUG */
    char *cut_here;
    char *cut_here_test;
    guint64 cut_here_lineno;

    /* an oops/BUG whose "Internal error" line is still to come */
    CrashReport *awaiting_die;
    guint64 awaiting_die_lineno;

    char *ring[RING_LINES]; /* the last console lines, for hang reports */
    guint ring_next;

    char *limit; /* KTAP_LIMIT_CRASH_REPORTS was exceeded */
};

static void crash_report_free(gpointer data)
{
    CrashReport *r = data;

    g_free(r->kind);
    g_free(r->test);
    g_free(r->excerpt);
    g_free(r);
}

static const Trigger *match_trigger(const char *text)
{
    for (gsize i = 0; i < G_N_ELEMENTS(triggers); i++) {
        const Trigger *t = &triggers[i];
        if (g_str_has_prefix(text, t->prefix) &&
            (t->must_contain == NULL ||
             strstr(text, t->must_contain) != NULL)) {
            return t;
        }
    }
    return NULL;
}

/* a line of at least 20 '=' and nothing else */
static gboolean is_separator(const char *text)
{
    gsize n = strspn(text, "=");
    return n >= 20 && text[n] == '\0';
}

static gboolean ends_report(const char *kind, const char *text)
{
    if (g_str_has_prefix(text, "---[ end trace") ||
        g_str_has_prefix(text, "---[ end Kernel panic")) {
        return TRUE;
    }
    /*
     * KASAN and KFENCE frame their report with "=====" lines; the first
     * precedes the BUG line
     */
    return g_str_equal(kind, "kasan") && is_separator(text);
}

static void close_report(CrashScanner *s)
{
    if (s->open.report == NULL) {
        return;
    }
    g_string_free(s->open.text, TRUE);
    memset(&s->open, 0, sizeof s->open);
}

static void append_report_line(CrashScanner *s, const char *line)
{
    OpenReport *open = &s->open;
    gsize room = KTAP_EXCERPT_MAX_BYTES -
                 MIN(open->text->len + 1, KTAP_EXCERPT_MAX_BYTES);
    gsize len = strlen(line);

    open->lines++;
    if (open->text->len > 0 && room == 0) {
        return; /* the excerpt is full: the report goes on without it */
    }
    if (len > room) {
        /* cut on a UTF-8 character boundary */
        len = room;
        while (len > 0 && ((guchar)line[len] & 0xC0) == 0x80) {
            len--;
        }
    }
    if (open->text->len > 0) {
        g_string_append_c(open->text, '\n');
    }
    g_string_append_len(open->text, line, len);
    /*
     * keep the published excerpt current: callers may read reports at any time
     */
    g_free(open->report->excerpt);
    open->report->excerpt = g_strdup(open->text->str);
}

static void start_report(CrashScanner *s, const Trigger *trigger,
                         const char *line, const char *running_test,
                         gboolean kernel_only)
{
    CrashReport *r;
    const char *test = running_test;

    close_report(s);
    if (s->reports->len >= KTAP_LIMIT_CRASH_REPORTS) {
        if (!s->limit) {
            s->limit = g_strdup(
                KTAP_LIMIT_MESSAGE(KTAP_LIMIT_CRASH_REPORTS, "reports"));
        }
        return;
    }
    r = g_new0(CrashReport, 1);
    s->open.report = r;
    s->open.text = g_string_new(NULL);
    s->open.kernel_only = kernel_only;

    if (s->cut_here && s->lineno - s->cut_here_lineno <= CUT_HERE_WINDOW) {
        /*
         * the splat began at "cut here": attribute it to the test running then
         */
        test = s->cut_here_test;
        append_report_line(s, s->cut_here);
    }
    r->kind = g_strdup(trigger->kind);
    r->test = g_strdup(test ? test : "(boot)");
    append_report_line(s, line);
    g_clear_pointer(&s->cut_here, g_free);
    g_clear_pointer(&s->cut_here_test, g_free);
    g_ptr_array_add(s->reports, r);

    s->awaiting_die = trigger->dies ? r : NULL;
    s->awaiting_die_lineno = s->lineno;
}

static void ring_push(CrashScanner *s, const char *line)
{
    g_free(s->ring[s->ring_next]);
    s->ring[s->ring_next] = g_strdup(line);
    s->ring_next = (s->ring_next + 1) % RING_LINES;
}

CrashScanner *crash_scanner_new(void)
{
    CrashScanner *s = g_new0(CrashScanner, 1);

    s->reports = g_ptr_array_new_with_free_func(crash_report_free);
    return s;
}

void crash_scanner_free(CrashScanner *s)
{
    if (s == NULL) {
        return;
    }
    close_report(s);
    g_ptr_array_unref(s->reports);
    g_free(s->cut_here);
    g_free(s->cut_here_test);
    for (guint i = 0; i < RING_LINES; i++) {
        g_free(s->ring[i]);
    }
    g_free(s->limit);
    g_free(s);
}

void crash_scanner_feed(CrashScanner *s, const char *line,
                        const char *running_test)
{
    if (line == NULL) {
        return;
    }

    gsize len = strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n')) {
        len--;
    }
    g_autofree char *copy = g_strndup(line, len);

    s->lineno++;
    ring_push(s, copy);

    /*
     * a kernel message may start mid-line, after user-space text that had no
     * newline yet
     */
    const char *kernel_message = ktap_find_printk_prefix(copy);
    const char *shown = kernel_message ? kernel_message : copy;
    const char *text = kernel_message ? ktap_printk_body(kernel_message) : copy;

    /* the second half of a time prefix that user-space output split */
    if (!kernel_message && ktap_printk_tail_body(copy)) {
        kernel_message = copy;
        text = ktap_printk_tail_body(copy);
    }

    if (g_str_equal(text, "------------[ cut here ]------------")) {
        /*
         * a new splat begins; it becomes a report once its WARNING / BUG line
         * follows
         */
        close_report(s);
        g_free(s->cut_here);
        g_free(s->cut_here_test);
        s->cut_here = g_strdup(shown);
        s->cut_here_test = g_strdup(running_test);
        s->cut_here_lineno = s->lineno;
        return;
    }

    const Trigger *trigger = match_trigger(text);
    if (trigger && g_str_has_prefix(text, "Internal error: ") &&
        s->awaiting_die &&
        s->lineno - s->awaiting_die_lineno <= DIE_MERGE_WINDOW) {
        /* die() of the oops/BUG already reported: same report */
        if (s->open.report == s->awaiting_die) {
            append_report_line(s, shown);
        }
        s->awaiting_die = NULL;
        return;
    }
    if (trigger) {
        start_report(s, trigger, shown, running_test, kernel_message != NULL);
        return;
    }

    if (s->open.report == NULL ||
        (s->open.kernel_only && kernel_message == NULL)) {
        return;
    }
    append_report_line(s, shown);
    if (s->open.lines >= EXCERPT_MAX_LINES ||
        ends_report(s->open.report->kind, text)) {
        close_report(s);
    }
}

void crash_scanner_add_report(CrashScanner *s, const char *kind,
                              const char *running_test, const char *why)
{
    CrashReport *r = g_new0(CrashReport, 1);
    GString *excerpt = g_string_new(why ? why : kind);

    close_report(s);
    for (guint i = 0; i < RING_LINES; i++) {
        /* oldest first */
        const char *line = s->ring[(s->ring_next + i) % RING_LINES];
        if (line) {
            g_string_append_printf(excerpt, "\n%s", line);
        }
    }
    r->kind = g_strdup(kind);
    r->test = g_strdup(running_test ? running_test : "(boot)");
    r->excerpt = g_string_free(excerpt, FALSE);
    g_ptr_array_add(s->reports, r);
}

GPtrArray *crash_scanner_reports(CrashScanner *s)
{
    return s->reports;
}

const char *crash_scanner_limit(CrashScanner *s)
{
    return s->limit;
}

void watchdog_init(Watchdog *w, gint64 timeout_us, gint64 now_us)
{
    w->timeout_us = timeout_us;
    w->last_progress_us = now_us;
}

void watchdog_kick(Watchdog *w, gint64 now_us)
{
    w->last_progress_us = now_us;
}

gboolean watchdog_expired(const Watchdog *w, gint64 now_us)
{
    return w->timeout_us > 0 && now_us - w->last_progress_us >= w->timeout_us;
}
