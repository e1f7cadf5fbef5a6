/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resultdir: judge a console and write, or read back, the result folder.
 * See resultdir.h.
 */
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "junit.h"
#include "ktaplimits.h"
#include "resultdir.h"

/* The runner's own lines in console.log (run_record_hang, _reset). */
#define HANG_MARK  "patchbay-run: hang: "
#define RESET_MARK "patchbay-run: reset: "

const char *verdict_name(Verdict verdict)
{
    switch (verdict) {
    case VERDICT_PASS:
        return "pass";
    case VERDICT_FAIL:
        return "fail";
    default:
        return "incomplete";
    }
}

void run_record_init(RunRecord *rec, gint64 start_us)
{
    *rec = (RunRecord){.start_us = start_us};
    rec->parser = ktap_parser_new();
    rec->scanner = crash_scanner_new();
}

void run_record_clear(RunRecord *rec)
{
    g_clear_pointer(&rec->parser, ktap_parser_free);
    g_clear_pointer(&rec->scanner, crash_scanner_free);
    ktap_marks_clear(&rec->marks);
    g_clear_pointer(&rec->vm_name, g_free);
    g_clear_pointer(&rec->suites, g_strfreev);
}

void run_record_free(RunRecord *rec)
{
    run_record_clear(rec);
    g_free(rec);
}

char *run_record_running(RunRecord *rec)
{
    g_autofree char *parsed = ktap_parser_running(rec->parser);

    return ktap_marks_running(&rec->marks, parsed);
}

GPtrArray *run_record_crashes(RunRecord *rec)
{
    return crash_scanner_reports(rec->scanner);
}

static CrashReport *add_report(RunRecord *rec, const char *kind,
                               const char *why)
{
    /* Before /init there is no test to blame (nor marks to trust). */
    g_autofree char *running = rec->saw_ktap ? run_record_running(rec) : NULL;
    GPtrArray *reports = crash_scanner_reports(rec->scanner);

    crash_scanner_add_report(rec->scanner, kind, running, why);
    return g_ptr_array_index(reports, reports->len - 1);
}

/* The console passed a limit: fail the run, believe nothing more. */
static CrashReport *add_limit(RunRecord *rec, const char *why, gint64 now_us)
{
    rec->limited = TRUE;
    if (!rec->first_crash_us) {
        rec->first_crash_us = now_us;
    }
    if (!rec->first_fatal_us) {
        rec->first_fatal_us = now_us;
    }
    return add_report(rec, "limit", why);
}

gboolean run_record_keep(RunRecord *rec, const char *line)
{
    gsize bytes = rec->line_prefix_len + strlen(line) + 1;

    /* the runner's own lines (its decisions) are not the guest's output */
    if (g_str_has_prefix(line, HANG_MARK) ||
        g_str_has_prefix(line, RESET_MARK)) {
        return TRUE;
    }
    if (rec->limited) {
        return FALSE;
    }
    if (rec->console_bytes + bytes > KTAP_LIMIT_CONSOLE) {
        add_limit(rec, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_CONSOLE, "bytes"), 0);
        return FALSE;
    }
    rec->console_bytes += bytes;
    return TRUE;
}

char *run_record_hang(RunRecord *rec, const char *why)
{
    add_report(rec, "hang", why);
    return g_strconcat(HANG_MARK, why, NULL);
}

static gboolean saw_fatal_crash(RunRecord *rec)
{
    GPtrArray *reports = run_record_crashes(rec);

    for (guint i = 0; i < reports->len; i++) {
        CrashReport *c = g_ptr_array_index(reports, i);

        if (crash_kind_is_fatal(c->kind)) {
            return TRUE;
        }
    }
    return FALSE;
}

char *run_record_reset(RunRecord *rec, const char *why)
{
    /* A panic the console showed whole is already there, with its test. */
    if (!saw_fatal_crash(rec)) {
        add_report(rec, "reset", why);
    }
    return g_strconcat(RESET_MARK, why, NULL);
}

CrashReport *run_record_feed(RunRecord *rec, const char *line, gint64 now_us)
{
    GPtrArray *reports = crash_scanner_reports(rec->scanner);
    guint reports_before = reports->len;
    g_autofree char *running = NULL;

    /* A saved console: what the live run decided, as it recorded it. */
    if (g_str_has_prefix(line, HANG_MARK)) {
        add_report(rec, "hang", line + strlen(HANG_MARK));
        return NULL;
    }
    if (g_str_has_prefix(line, RESET_MARK)) {
        g_free(run_record_reset(rec, line + strlen(RESET_MARK)));
        return NULL;
    }
    if (rec->limited) {
        return NULL;
    }
    /* The test running before this line: a report starts on this line. */
    {
        g_autofree char *parsed = ktap_parser_running(rec->parser);

        ktap_marks_feed(&rec->marks, line);
        running = ktap_marks_running(&rec->marks, parsed);
    }
    if (!rec->saw_ktap && g_str_has_prefix(line, "KTAP version 1")) {
        rec->saw_ktap = TRUE;
        rec->first_ktap_us = now_us;
    }
    crash_scanner_feed(rec->scanner, line, running);
    ktap_parser_feed(rec->parser, line, now_us);
    if (ktap_parser_limit(rec->parser)) {
        return add_limit(rec, ktap_parser_limit(rec->parser), now_us);
    }
    if (crash_scanner_limit(rec->scanner)) {
        return add_limit(rec, crash_scanner_limit(rec->scanner), now_us);
    }
    if (g_str_has_suffix(line, KTAP_LIMIT_LINE_CUT)) {
        /* the reader cut it (patchbay-run's console reader) */
        return add_limit(rec, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_LINE, "bytes"),
                         now_us);
    }
    if (reports->len > reports_before) {
        CrashReport *c = g_ptr_array_index(reports, reports_before);

        if (!rec->first_crash_us) {
            rec->first_crash_us = now_us;
        }
        if (!rec->first_fatal_us && crash_kind_is_fatal(c->kind)) {
            rec->first_fatal_us = now_us;
        }
        return c;
    }
    return NULL;
}

void run_record_finish(RunRecord *rec, gint64 end_us)
{
    rec->end_us = end_us;
    ktap_parser_finish(rec->parser, end_us);
    /* a plan that promised more missing tests than the limit allows */
    if (!rec->limited && ktap_parser_limit(rec->parser)) {
        add_limit(rec, ktap_parser_limit(rec->parser), end_us);
    }
}

static KtapTest *find_suite(KtapTest *root, const char *name)
{
    KtapTest *found = NULL;

    for (guint i = 0; i < root->subtests->len; i++) {
        KtapTest *t = g_ptr_array_index(root->subtests, i);

        if (g_strcmp0(t->name, name) == 0) {
            found = t; /* the last one, if a suite ran twice */
        }
    }
    return found;
}

Verdict run_record_verdict(RunRecord *rec, const char *const *suites)
{
    KtapTest *root = ktap_parser_root(rec->parser);
    GPtrArray *crashes = run_record_crashes(rec);
    Verdict code = VERDICT_PASS;

    if (!rec->saw_ktap && crashes->len == 0) {
        g_printerr("patchbay: the guest never started /init\n");
        return VERDICT_INCOMPLETE;
    }
    if (crashes->len) {
        code = VERDICT_FAIL;
    }
    for (guint i = 0; suites[i]; i++) {
        KtapTest *suite = find_suite(root, suites[i]);
        guint fail, none;

        if (!suite) {
            g_printerr("patchbay: suite %s produced no result\n", suites[i]);
            code = MAX(code, crashes->len ? VERDICT_FAIL : VERDICT_INCOMPLETE);
            continue;
        }
        ktap_test_count(suite, NULL, &fail, NULL, &none);
        if (suite->result == KTAP_RESULT_NONE && !crashes->len) {
            /* The stream stopped mid-suite without a kernel report. */
            code = MAX(code, VERDICT_INCOMPLETE);
        } else if (fail || none || suite->result == KTAP_RESULT_FAIL) {
            code = MAX(code, VERDICT_FAIL);
        }
    }
    return code;
}

Verdict run_records_verdict(RunRecord *const *recs, guint n)
{
    Verdict code = VERDICT_PASS;

    for (guint i = 0; i < n; i++) {
        const char *none[] = {NULL};

        code = MAX(code, run_record_verdict(
                             recs[i], recs[i]->suites
                                          ? (const char *const *)recs[i]->suites
                                          : none));
    }
    return code;
}

char *run_record_vm_mark(const RunRecord *rec)
{
    g_autofree char *suites =
        rec->suites ? g_strjoinv(",", rec->suites) : g_strdup("");

    return g_strdup_printf(RUN_VM_MARK "%s: suites=%s clock=%s cpus=%d",
                           rec->vm_name, suites,
                           rec->virtual_clock ? "virtual" : "real", rec->cpus);
}

/* A VM mark's record, or NULL if line is not a well-formed mark. */
static RunRecord *record_from_mark(const char *line)
{
    g_autofree char *name = NULL;
    g_auto(GStrv) words = NULL;
    const char *rest, *colon;
    RunRecord *rec;

    if (!g_str_has_prefix(line, RUN_VM_MARK)) {
        return NULL;
    }
    rest = line + strlen(RUN_VM_MARK);
    colon = strstr(rest, ": ");
    if (!colon || colon == rest) {
        return NULL;
    }
    name = g_strndup(rest, colon - rest);
    words = g_strsplit(colon + 2, " ", -1);
    rec = g_new0(RunRecord, 1);
    run_record_init(rec, 0);
    rec->vm_name = g_steal_pointer(&name);
    for (guint i = 0; words[i]; i++) {
        if (g_str_has_prefix(words[i], "suites=")) {
            g_strfreev(rec->suites);
            rec->suites = g_strsplit(words[i] + 7, ",", -1);
        } else if (g_str_equal(words[i], "clock=virtual")) {
            rec->virtual_clock = TRUE;
        } else if (g_str_has_prefix(words[i], "cpus=")) {
            rec->cpus = (int)g_ascii_strtoll(words[i] + 5, NULL, 10);
        }
    }
    if (!rec->suites) {
        rec->suites = g_new0(char *, 1);
    }
    return rec;
}

GPtrArray *run_records_parse(const char *const *lines)
{
    GPtrArray *recs =
        g_ptr_array_new_with_free_func((GDestroyNotify)run_record_free);
    g_autoptr(GHashTable) by_name = g_hash_table_new(g_str_hash, g_str_equal);

    for (guint i = 0; lines[i]; i++) {
        RunRecord *rec = record_from_mark(lines[i]);

        if (rec) {
            g_ptr_array_add(recs, rec);
            g_hash_table_insert(by_name, rec->vm_name, rec);
        }
    }
    if (recs->len == 0) {
        RunRecord *rec = g_new0(RunRecord, 1);

        run_record_init(rec, 0);
        g_ptr_array_add(recs, rec);
    }
    for (guint i = 0; recs->len > 1 && i < recs->len; i++) {
        RunRecord *rec = g_ptr_array_index(recs, i);

        rec->line_prefix_len = strlen(rec->vm_name) + strlen(RUN_VM_PREFIX);
    }
    for (guint i = 0; lines[i]; i++) {
        const char *line = lines[i];
        RunRecord *rec = g_ptr_array_index(recs, 0);

        if (g_str_has_prefix(line, RUN_VM_MARK)) {
            continue;
        }
        if (recs->len > 1) {
            /* "NAME| line": a line without a known VM is no VM's */
            const char *sep = strstr(line, RUN_VM_PREFIX);
            g_autofree char *name = sep ? g_strndup(line, sep - line) : NULL;

            rec = name ? g_hash_table_lookup(by_name, name) : NULL;
            if (!rec) {
                continue;
            }
            line = sep + strlen(RUN_VM_PREFIX);
        }
        /* the limits the live run applied, at the same line */
        if (run_record_keep(rec, line)) {
            run_record_feed(rec, line, 0);
        }
    }
    for (guint i = 0; i < recs->len; i++) {
        run_record_finish(g_ptr_array_index(recs, i), 0);
    }
    return recs;
}

static double seconds(gint64 us)
{
    return (double)us / G_USEC_PER_SEC;
}

/* The slash path of t below prefix ("" at the top level); g_free. */
static char *child_path(const char *prefix, const KtapTest *t)
{
    return *prefix ? g_strdup_printf("%s/%s", prefix, t->name)
                   : g_strdup(t->name);
}

/* Every skipped test with its reason ("kernel lacks CONFIG_X"): what a
 * kernel that is not ours did not run, and why. */
static void add_skips(JsonBuilder *b, KtapTest *t, const char *prefix)
{
    g_autofree char *path = child_path(prefix, t);

    if (t->result == KTAP_RESULT_SKIP && t->subtests->len == 0) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "test");
        json_builder_add_string_value(b, path);
        json_builder_set_member_name(b, "reason");
        json_builder_add_string_value(b, t->reason ? t->reason : "");
        json_builder_end_object(b);
    }
    for (guint i = 0; i < t->subtests->len; i++) {
        add_skips(b, g_ptr_array_index(t->subtests, i), path);
    }
}

void results_json_add_string(JsonBuilder *b, const char *member,
                             const char *value)
{
    json_builder_set_member_name(b, member);
    if (value) {
        json_builder_add_string_value(b, value);
    } else {
        json_builder_add_null_value(b);
    }
}

void results_json_add_int(JsonBuilder *b, const char *member, gint64 value)
{
    json_builder_set_member_name(b, member);
    json_builder_add_int_value(b, value);
}

void results_json_add_double(JsonBuilder *b, const char *member, double value)
{
    json_builder_set_member_name(b, member);
    json_builder_add_double_value(b, value);
}

void results_json_add_bool(JsonBuilder *b, const char *member, gboolean value)
{
    json_builder_set_member_name(b, member);
    json_builder_add_boolean_value(b, value);
}

gboolean results_json_write(JsonBuilder *b, const char *path, GError **error)
{
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_autofree char *text = json_to_string(root, TRUE);
    g_autofree char *with_nl = g_strconcat(text, "\n", NULL);

    return g_file_set_contents(path, with_nl, -1, error);
}

char *results_file_sha256(const char *path, GError **error)
{
    g_autoptr(GFile) file = g_file_new_for_path(path);
    g_autoptr(GFileInputStream) in = g_file_read(file, NULL, error);
    g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
    guchar buf[65536];
    gssize n;

    if (!in) {
        return NULL;
    }
    while ((n = g_input_stream_read(G_INPUT_STREAM(in), buf, sizeof(buf), NULL,
                                    error)) > 0) {
        g_checksum_update(sum, buf, n);
    }
    return n < 0 ? NULL : g_strdup(g_checksum_get_string(sum));
}

static gboolean is_slow_skip(const KtapTest *t)
{
    return t->result == KTAP_RESULT_SKIP && t->subtests->len == 0 &&
           t->reason && g_str_has_prefix(t->reason, "slow");
}

static guint count_slow_skips(const KtapTest *t)
{
    guint n = is_slow_skip(t);

    for (guint i = 0; i < t->subtests->len; i++) {
        n += count_slow_skips(g_ptr_array_index(t->subtests, i));
    }
    return n;
}

guint run_records_slow_skipped(RunRecord *const *recs, guint n)
{
    guint slow = 0;

    for (guint i = 0; i < n; i++) {
        slow += count_slow_skips(ktap_parser_root(recs[i]->parser));
    }
    return slow;
}

/* QEMU start to the first KTAP line, 0 if unknown */
static double boot_seconds(const RunRecord *rec)
{
    return rec->saw_ktap && rec->end_us
               ? seconds(rec->first_ktap_us - rec->start_us)
               : 0;
}

static void build_suites(JsonBuilder *b, RunRecord *rec)
{
    KtapTest *root = ktap_parser_root(rec->parser);

    for (guint i = 0; i < root->subtests->len; i++) {
        KtapTest *s = g_ptr_array_index(root->subtests, i);
        guint pass, fail, skip, none;
        gint64 end = s->end_us ? s->end_us : rec->end_us;

        ktap_test_count(s, &pass, &fail, &skip, &none);
        json_builder_set_member_name(b, s->name);
        json_builder_begin_object(b);
        results_json_add_int(b, "passed", pass);
        results_json_add_int(b, "failed", fail + none);
        results_json_add_int(b, "skipped", skip);
        results_json_add_double(b, "wall_s",
                                s->start_us ? seconds(end - s->start_us) : 0);
        json_builder_end_object(b);
    }
}

static void build_vm(JsonBuilder *b, RunRecord *rec)
{
    json_builder_begin_object(b);
    results_json_add_string(b, "name", rec->vm_name);
    json_builder_set_member_name(b, "suites");
    json_builder_begin_array(b);
    for (guint i = 0; rec->suites && rec->suites[i]; i++) {
        json_builder_add_string_value(b, rec->suites[i]);
    }
    json_builder_end_array(b);
    results_json_add_string(b, "clock",
                            rec->virtual_clock ? "virtual" : "real");
    if (rec->cpus > 0) {
        json_builder_set_member_name(b, "cpus");
        json_builder_add_int_value(b, rec->cpus);
    }
    results_json_add_double(b, "boot_s", boot_seconds(rec));
    results_json_add_double(b, "wall_s", seconds(rec->end_us - rec->start_us));
    json_builder_end_object(b);
}

static void build_crashes(JsonBuilder *b, RunRecord *rec)
{
    KtapTest *root = ktap_parser_root(rec->parser);
    GPtrArray *crashes = run_record_crashes(rec);
    g_autoptr(KtapIndex) index = ktap_index_new(root);

    for (guint i = 0; i < crashes->len; i++) {
        CrashReport *c = g_ptr_array_index(crashes, i);
        g_autofree char *test = ktap_index_resolve_path(index, root, c->test);

        json_builder_begin_object(b);
        results_json_add_string(b, "kind", c->kind);
        results_json_add_string(b, "test", test);
        results_json_add_string(b, "excerpt", c->excerpt);
        json_builder_end_object(b);
    }
}

static void build_skips(JsonBuilder *b, RunRecord *rec)
{
    KtapTest *root = ktap_parser_root(rec->parser);

    for (guint i = 0; i < root->subtests->len; i++) {
        add_skips(b, g_ptr_array_index(root->subtests, i), "");
    }
}

/* member: an array (or object) of what fn adds for each console. */
static void add_per_record(JsonBuilder *b, const char *member, gboolean array,
                           RunRecord *const *recs, guint n,
                           void (*fn)(JsonBuilder *b, RunRecord *rec))
{
    json_builder_set_member_name(b, member);
    if (array) {
        json_builder_begin_array(b);
    } else {
        json_builder_begin_object(b);
    }
    for (guint i = 0; i < n; i++) {
        fn(b, recs[i]);
    }
    if (array) {
        json_builder_end_array(b);
    } else {
        json_builder_end_object(b);
    }
}

double run_records_wall_s(RunRecord *const *recs, guint n)
{
    gint64 start_us = 0, end_us = 0;

    /* The VMs overlap: the run lasts from the first start to the last end. */
    for (guint i = 0; i < n; i++) {
        if (recs[i]->start_us && (!start_us || recs[i]->start_us < start_us)) {
            start_us = recs[i]->start_us;
        }
        end_us = MAX(end_us, recs[i]->end_us);
    }
    return seconds(end_us - start_us);
}

static void build_summary(JsonBuilder *b, RunRecord *const *recs, guint n,
                          guint jobs, Verdict verdict, const char *variant,
                          const char *release)
{
    gint64 end_us = 0;
    double boot = 0;

    /* The run's boot is the quickest VM's. */
    for (guint i = 0; i < n; i++) {
        end_us = MAX(end_us, recs[i]->end_us);
        if (boot_seconds(recs[i]) && (!boot || boot_seconds(recs[i]) < boot)) {
            boot = boot_seconds(recs[i]);
        }
    }
    json_builder_begin_object(b);
    results_json_add_string(b, "verdict", verdict_name(verdict));
    results_json_add_string(b, "variant", variant);
    results_json_add_string(b, "kernel", release);
    /* A parsed console has no times: 0, and "parsed": true says why. */
    results_json_add_double(b, "wall_s", run_records_wall_s(recs, n));
    results_json_add_double(b, "boot_s", boot);
    if (!end_us) {
        results_json_add_bool(b, "parsed", TRUE);
    }
    if (jobs) {
        results_json_add_int(b, "jobs", jobs);
    }
    add_per_record(b, "suites", FALSE, recs, n, build_suites);
    add_per_record(b, "vms", TRUE, recs, n, build_vm);
    results_json_add_int(b, "slow_skipped", run_records_slow_skipped(recs, n));
    add_per_record(b, "crashes", TRUE, recs, n, build_crashes);
    add_per_record(b, "skips", TRUE, recs, n, build_skips);
    json_builder_end_object(b);
}

/* results.txt: "RESULT<TAB>suite/executable/case" per leaf, for scripts. */
static void append_leaves(GString *out, KtapTest *t, const char *prefix)
{
    g_autofree char *path = child_path(prefix, t);

    if (t->subtests->len == 0) {
        g_string_append_printf(out, "%s\t%s\n", ktap_result_name(t->result),
                               path);
    }
    for (guint i = 0; i < t->subtests->len; i++) {
        append_leaves(out, g_ptr_array_index(t->subtests, i), path);
    }
}

gboolean result_dir_write(const char *dir, RunRecord *const *recs, guint n,
                          guint jobs, Verdict verdict, const char *variant,
                          const char *release, GError **error)
{
    g_autoptr(JsonBuilder) summary = json_builder_new();
    g_autofree char *summary_path = g_build_filename(dir, "summary.json", NULL);
    g_autofree char *junit_path = g_build_filename(dir, "junit.xml", NULL);
    g_autofree char *txt_path = g_build_filename(dir, "results.txt", NULL);
    g_autoptr(GString) leaves = g_string_new(NULL);
    g_autofree KtapTest **roots = g_new(KtapTest *, n);
    g_autofree GPtrArray **crashes = g_new(GPtrArray *, n);

    build_summary(summary, recs, n, jobs, verdict, variant, release);
    for (guint i = 0; i < n; i++) {
        roots[i] = ktap_parser_root(recs[i]->parser);
        crashes[i] = run_record_crashes(recs[i]);
        for (guint j = 0; j < roots[i]->subtests->len; j++) {
            append_leaves(leaves, g_ptr_array_index(roots[i]->subtests, j), "");
        }
    }
    return junit_runs_write(junit_path, roots, crashes, n, error) &&
           results_json_write(summary, summary_path, error) &&
           g_file_set_contents(txt_path, leaves->str, leaves->len, error);
}

static void print_record(RunRecord *rec)
{
    KtapTest *root = ktap_parser_root(rec->parser);
    GPtrArray *crashes = run_record_crashes(rec);
    g_autoptr(KtapIndex) index = ktap_index_new(root);

    for (guint i = 0; i < root->subtests->len; i++) {
        KtapTest *s = g_ptr_array_index(root->subtests, i);
        guint pass, fail, skip, none;

        ktap_test_count(s, &pass, &fail, &skip, &none);
        printf("  %-20s %4u passed %4u failed %4u skipped%s\n", s->name, pass,
               fail + none, skip, none ? " (some never finished)" : "");
        if (s->result == KTAP_RESULT_SKIP && s->subtests->len == 0) {
            printf("  %-20s skipped: %s\n", "", s->reason ? s->reason : "");
        }
    }
    for (guint i = 0; i < crashes->len; i++) {
        CrashReport *c = g_ptr_array_index(crashes, i);
        g_auto(GStrv) lines = g_strsplit(c->excerpt, "\n", 4);
        g_autofree char *test = ktap_index_resolve_path(index, root, c->test);

        printf("  crash: %s during %s\n", c->kind, test);
        for (guint j = 0; lines[j] && j < 3; j++) {
            printf("    | %s\n", lines[j]);
        }
    }
}

void run_record_print(RunRecord *const *recs, guint n)
{
    guint slow = run_records_slow_skipped(recs, n);

    for (guint i = 0; i < n; i++) {
        print_record(recs[i]);
    }
    if (slow) {
        printf("  left out %u slow test%s (counted as skipped); "
               "scripts/patchbay run --all runs %s\n",
               slow, slow == 1 ? "" : "s", slow == 1 ? "it" : "them");
    }
}

/* ---- reading ---- */

static void run_crash_free(gpointer data)
{
    RunCrash *c = data;

    g_free(c->kind);
    g_free(c->test);
    g_free(c);
}

void run_results_free(RunResults *run)
{
    if (!run) {
        return;
    }
    g_free(run->verdict);
    g_free(run->variant);
    g_free(run->kernel);
    g_ptr_array_unref(run->tests);
    g_hash_table_unref(run->results);
    g_ptr_array_unref(run->crashes);
    g_free(run);
}

KtapResult run_results_get(const RunResults *run, const char *test)
{
    gpointer value;

    if (!g_hash_table_lookup_extended(run->results, test, NULL, &value)) {
        return KTAP_RESULT_MISSING;
    }
    return GPOINTER_TO_INT(value);
}

static gboolean load_results_txt(RunResults *run, const char *path,
                                 GError **error)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    /* path -> how many times it was seen so far, for repeated paths */
    g_autoptr(GHashTable) seen =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    if (!g_file_get_contents(path, &text, NULL, error)) {
        return FALSE;
    }
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *tab = strchr(lines[i], '\t');
        KtapResult result;
        guint n;
        char *key;

        if (!lines[i + 1] && !*lines[i]) {
            break; /* the empty string after the final newline */
        }
        if (!tab) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: no TAB between result and test path", path,
                        i + 1);
            return FALSE;
        }
        *tab = '\0';
        /* "missing" is a comparison's word, never a run's. */
        if (!ktap_result_from_name(lines[i], &result) ||
            result == KTAP_RESULT_MISSING) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: unknown result '%s' (not pass, fail, skip or "
                        "none)",
                        path, i + 1, lines[i]);
            return FALSE;
        }
        n = GPOINTER_TO_UINT(g_hash_table_lookup(seen, tab + 1)) + 1;
        g_hash_table_insert(seen, g_strdup(tab + 1), GUINT_TO_POINTER(n));
        key =
            n == 1 ? g_strdup(tab + 1) : g_strdup_printf("%s [%u]", tab + 1, n);
        /* A case literally named "x [2]" would collide; bump N until free. */
        while (g_hash_table_contains(run->results, key)) {
            g_free(key);
            key = g_strdup_printf("%s [%u]", tab + 1, ++n);
        }
        g_ptr_array_add(run->tests, key);
        g_hash_table_insert(run->results, key, GINT_TO_POINTER(result));
    }
    return TRUE;
}

/* The member as a string, or NULL if absent or not a string. */
static const char *string_member(JsonObject *obj, const char *name)
{
    JsonNode *node = json_object_get_member(obj, name);

    if (!node || !JSON_NODE_HOLDS_VALUE(node) ||
        json_node_get_value_type(node) != G_TYPE_STRING) {
        return NULL;
    }
    return json_node_get_string(node);
}

static gboolean load_summary(RunResults *run, const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root, *crashes;
    JsonObject *obj;
    const char *verdict, *variant, *kernel;

    if (!g_file_get_contents(path, &text, NULL, error)) {
        return FALSE;
    }
    if (!json_parser_load_from_data(parser, text, -1, error)) {
        g_prefix_error(error, "%s: ", path);
        return FALSE;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: not a JSON object", path);
        return FALSE;
    }
    obj = json_node_get_object(root);
    verdict = string_member(obj, "verdict");
    variant = string_member(obj, "variant");
    kernel = string_member(obj, "kernel");
    if (!verdict || !variant || !kernel) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: \"verdict\", \"variant\" and \"kernel\" must be "
                    "strings",
                    path);
        return FALSE;
    }
    if (!g_str_equal(verdict, "pass") && !g_str_equal(verdict, "fail") &&
        !g_str_equal(verdict, "incomplete")) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: unknown verdict '%s'", path, verdict);
        return FALSE;
    }
    crashes = json_object_get_member(obj, "crashes");
    if (!crashes || !JSON_NODE_HOLDS_ARRAY(crashes)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: \"crashes\" must be an array", path);
        return FALSE;
    }
    for (guint i = 0; i < json_array_get_length(json_node_get_array(crashes));
         i++) {
        JsonNode *c = json_array_get_element(json_node_get_array(crashes), i);
        RunCrash *crash;

        if (!JSON_NODE_HOLDS_OBJECT(c) ||
            !string_member(json_node_get_object(c), "kind")) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s: crash %u has no \"kind\"", path, i);
            return FALSE;
        }
        crash = g_new0(RunCrash, 1);
        crash->kind = g_strdup(string_member(json_node_get_object(c), "kind"));
        /* null (or absent) when the crash happened outside any test */
        crash->test = g_strdup(string_member(json_node_get_object(c), "test"));
        g_ptr_array_add(run->crashes, crash);
    }
    run->verdict = g_strdup(verdict);
    run->variant = g_strdup(variant);
    run->kernel = g_strdup(kernel);
    return TRUE;
}

RunResults *run_results_load(const char *dir, GError **error)
{
    g_autoptr(RunResults) run = g_new0(RunResults, 1);
    g_autofree char *txt = g_build_filename(dir, "results.txt", NULL);
    g_autofree char *json = g_build_filename(dir, "summary.json", NULL);

    run->tests = g_ptr_array_new_with_free_func(g_free);
    /* The keys are owned by run->tests. */
    run->results = g_hash_table_new(g_str_hash, g_str_equal);
    run->crashes = g_ptr_array_new_with_free_func(run_crash_free);
    if (!load_summary(run, json, error) || !load_results_txt(run, txt, error)) {
        return NULL;
    }
    return g_steal_pointer(&run);
}
