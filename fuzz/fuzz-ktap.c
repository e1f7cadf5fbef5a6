/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-ktap: a guest's console bytes, as patchbay-run judges them.  The
 * bytes go through the runner's own bounded splitter
 * (guestctl_lines_new_console() with KTAP_LIMIT_LINE and
 * KTAP_LIMIT_LINE_CUT, compiled from runner/guestctl.c), in chunks as a
 * read() would hand them over; every line goes to the marks, the crash
 * scanner and the KTAP parser in run_record_feed()'s order, and a limit
 * ends the judging as it does there.  At the end: ktap_parser_finish() and
 * junit_to_string().
 *
 * After every line (every 256th once the console is long, so that a
 * campaign stays linear): the tree's depth, test count, path lengths,
 * parent links and result values, and ktap_test_count() agreeing with the
 * leaves the harness counts itself; the crash reports' count, fields and
 * excerpt sizes.  At the end the same, and the JUnit document must be
 * well-formed (GMarkup parses it).  Amplification: JUnit bytes <=
 * JUNIT_PER_BYTE * (input bytes + JUNIT_CONST); lines never longer than
 * the cut.
 */
#include <glib.h>
#include <string.h>

#include "crashscan.h"
#include "fuzz-input.h"
#include "guestctl.h"
#include "junit.h"
#include "ktap.h"
#include "ktaplimits.h"

/*
 * Measured (docs/fuzzing.md).  Per input byte: a result line "ok 1 x" of
 * 7 bytes under a KTAP_LIMIT_PATH-long suite name becomes a <testcase>
 * whose classname repeats that name.  Per "(missing)" test a plan adds
 * (a 9-byte "1..20000" adds up to KTAP_LIMIT_TESTS): its <testcase> with
 * the classname of its parent, also at most KTAP_LIMIT_PATH long.
 */
#define JUNIT_PER_BYTE      256
#define JUNIT_PER_MISSING   (KTAP_LIMIT_PATH + 256)
#define JUNIT_CONST         4096

typedef struct Judge {
    KtapParser *parser;
    CrashScanner *scanner;
    KtapMarks marks;
    gboolean limited;
    guint lines;
} Judge;

typedef struct Walk {
    guint tests;
    guint leaves;
    guint passed, failed, skipped, incomplete;
    guint missing;              /* "#N (missing)" tests finish() added */
} Walk;

static const char *const kinds[] = {
    "panic", "oops", "bug", "warn", "kasan", "lockup", "hung-task",
    "rcu-stall", "hang", "ubsan", "reset", "limit",
};

static void walk(const KtapTest *t, guint depth, gsize path_len, Walk *w)
{
    guint i;

    FUZZ_CHECK(t->name != NULL);
    FUZZ_CHECK(t->subtests != NULL);
    FUZZ_CHECK(depth <= KTAP_LIMIT_DEPTH);
    if (path_len > KTAP_LIMIT_PATH) {
        fprintf(stderr, "test #%d \"%.60s\" (%zu bytes) at depth %u: its "
                "path is %zu bytes\n", t->number, t->name, strlen(t->name),
                depth, path_len);
    }
    FUZZ_CHECK(path_len <= KTAP_LIMIT_PATH);
    FUZZ_CHECK(t->result >= KTAP_RESULT_NONE && t->result <= KTAP_RESULT_SKIP);
    FUZZ_CHECK(t->number >= 0);
    if (depth > 0) {
        w->tests++;
        FUZZ_CHECK(w->tests <= KTAP_LIMIT_TESTS);
    }
    if (t->subtests->len == 0) {
        w->leaves++;
        switch (t->result) {
        case KTAP_RESULT_PASS:
            w->passed++;
            break;
        case KTAP_RESULT_FAIL:
            w->failed++;
            break;
        case KTAP_RESULT_SKIP:
            w->skipped++;
            break;
        default:
            w->incomplete++;
            w->missing += g_str_has_suffix(t->name, " (missing)");
            break;
        }
    }
    for (i = 0; i < t->subtests->len; i++) {
        const KtapTest *c = g_ptr_array_index(t->subtests, i);
        gsize len = strlen(c->name);

        FUZZ_CHECK(c->parent == t);
        walk(c, depth + 1, path_len + (depth > 0 ? 1 : 0) + len, w);
    }
}

/* returns the "(missing)" tests */
static guint check_tree(KtapParser *p)
{
    const KtapTest *root = ktap_parser_root(p);
    Walk w = { 0 };
    guint passed, failed, skipped, incomplete;

    FUZZ_CHECK(root->parent == NULL);
    walk(root, 0, 0, &w);
    ktap_test_count(root, &passed, &failed, &skipped, &incomplete);
    FUZZ_CHECK(passed + failed + skipped + incomplete == w.leaves);
    FUZZ_CHECK(passed == w.passed && failed == w.failed);
    FUZZ_CHECK(skipped == w.skipped && incomplete == w.incomplete);
    return w.missing;
}

static void check_reports(CrashScanner *s)
{
    GPtrArray *reports = crash_scanner_reports(s);
    guint i, k;

    /* the scanner's own cap, plus the limit report the judge adds */
    FUZZ_CHECK(reports->len <= KTAP_LIMIT_CRASH_REPORTS + 1);
    for (i = 0; i < reports->len; i++) {
        const CrashReport *c = g_ptr_array_index(reports, i);
        gboolean known = FALSE;

        FUZZ_CHECK(c->kind && c->test && c->excerpt);
        for (k = 0; k < G_N_ELEMENTS(kinds); k++) {
            known |= strcmp(c->kind, kinds[k]) == 0;
        }
        FUZZ_CHECK(known);
        /* the first line is kept whole (at most a cut line) */
        FUZZ_CHECK(strlen(c->excerpt) <= KTAP_EXCERPT_MAX_BYTES +
                   KTAP_LIMIT_LINE + sizeof(KTAP_LIMIT_LINE_CUT) + 1);
    }
}

static void add_limit(Judge *j, const char *why)
{
    g_autofree char *parsed = ktap_parser_running(j->parser);
    g_autofree char *running = ktap_marks_running(&j->marks, parsed);

    j->limited = TRUE;
    crash_scanner_add_report(j->scanner, "limit", running, why);
}

/* run_record_feed(), without the runner's own hang/reset marks */
static void on_line(const char *line, gpointer data)
{
    Judge *j = data;
    g_autofree char *running = NULL;
    gsize len = strlen(line);

    FUZZ_CHECK(len <= KTAP_LIMIT_LINE + strlen(KTAP_LIMIT_LINE_CUT));
    if (j->limited) {
        return;
    }
    {
        g_autofree char *parsed = ktap_parser_running(j->parser);

        ktap_marks_feed(&j->marks, line);
        running = ktap_marks_running(&j->marks, parsed);
    }
    crash_scanner_feed(j->scanner, line, running);
    ktap_parser_feed(j->parser, line, (gint64)j->lines * 1000);
    if (ktap_parser_limit(j->parser)) {
        add_limit(j, ktap_parser_limit(j->parser));
    } else if (crash_scanner_limit(j->scanner)) {
        add_limit(j, crash_scanner_limit(j->scanner));
    } else if (g_str_has_suffix(line, KTAP_LIMIT_LINE_CUT)) {
        add_limit(j, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_LINE, "bytes"));
    }
    j->lines++;
    if (j->lines < 256 || j->lines % 256 == 0) {
        check_tree(j->parser);
        check_reports(j->scanner);
    }
}

/* JUnit is XML a CI system has to read: it must parse */
static void check_xml(const char *xml)
{
    static const GMarkupParser none = { 0 };
    GMarkupParseContext *ctx;
    GError *err = NULL;
    gboolean ok;

    ctx = g_markup_parse_context_new(&none, 0, NULL, NULL);
    ok = g_markup_parse_context_parse(ctx, xml, -1, &err) &&
         g_markup_parse_context_end_parse(ctx, &err);
    if (!ok) {
        fprintf(stderr, "junit is not well-formed: %s\n", err->message);
    }
    FUZZ_CHECK(ok);
    g_markup_parse_context_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Judge j = { 0 };
    GuestCtlLines *splitter;
    char *xml;
    size_t pos, chunk, bound;
    guint missing;

    j.parser = ktap_parser_new();
    j.scanner = crash_scanner_new();
    splitter = guestctl_lines_new_console(KTAP_LIMIT_LINE, KTAP_LIMIT_LINE_CUT);
    /* read() hands the console over in pieces; lines span them */
    chunk = 1 + size % 4093;
    for (pos = 0; pos < size; pos += chunk) {
        guestctl_lines_feed(splitter, (const char *)data + pos,
                            MIN(chunk, size - pos), on_line, &j);
        FUZZ_CHECK(guestctl_lines_pending(splitter) <= KTAP_LIMIT_LINE);
    }
    guestctl_lines_flush(splitter, on_line, &j);
    guestctl_lines_free(splitter);

    ktap_parser_finish(j.parser, (gint64)j.lines * 1000 + 1);
    if (!j.limited && ktap_parser_limit(j.parser)) {
        add_limit(&j, ktap_parser_limit(j.parser));
    }
    missing = check_tree(j.parser);
    check_reports(j.scanner);

    xml = junit_to_string(ktap_parser_root(j.parser),
                          crash_scanner_reports(j.scanner));
    bound = JUNIT_PER_BYTE * size + (size_t)JUNIT_PER_MISSING * missing +
            JUNIT_CONST;
    FUZZ_MEASURE("junit-bytes/bound", (double)strlen(xml) / bound);
    FUZZ_MEASURE("junit-bytes/(input-bytes+64)",
                 (double)strlen(xml) / (size + 64));
    FUZZ_CHECK(strlen(xml) <= bound);
    check_xml(xml);
    g_free(xml);

    ktap_marks_clear(&j.marks);
    crash_scanner_free(j.scanner);
    ktap_parser_free(j.parser);
    return 0;
}
