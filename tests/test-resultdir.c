/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the result folder (runner/resultdir.c): a console fed line
 * by line is judged, written and read back; and patchbay-run --parse judges
 * a saved console the same way (tests/meson.build passes its path in
 * PATCHBAY_RUN).
 */
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "guestctl.h"
#include "ktaplimits.h"
#include "resultdir.h"

static const char *const passing[] = {
    "[    0.500000] Run /init as init process",
    "KTAP version 1",
    "# patchbay init: Linux 6.12.118 #5 SMP, /init started 0.57 s after boot",
    "1..1",
    "  KTAP version 1",
    "  # Subtest: demo",
    "  1..2",
    "  ok 1 first",
    "  ok 2 second # SKIP kernel lacks CONFIG_DEMO",
    "ok 1 demo",
    NULL,
};

/* harness-panic's console, shortened */
static const char *const panicking[] = {
    "KTAP version 1",
    "1..1",
    "  KTAP version 1",
    "  # Subtest: harness-panic",
    "  1..1",
    "    # Subtest: panic",
    "[    0.602616] patchbay-ktap: harness-panic/panic 0",
    "    KTAP version 1",
    "    1..2",
    "    ok 1 before the crash",
    "[    0.602617] patchbay-ktap: harness-panic/panic 1",
    "[    0.632504] Kernel panic - not syncing: sysrq triggered crash",
    "[    0.633063] CPU: 1 UID: 0 PID: 38 Comm: panic Not tainted 6.12.118 #5",
    "[    0.641765] ---[ end Kernel panic - not syncing: sysrq triggered crash "
    "]---",
    NULL,
};

/* stops in the middle of a suite, without a kernel report */
/* A panic that /init's output garbled byte by byte (captured, shortened). */
static const char *const garbled[] = {
    "KTAP version 1",
    "1..1",
    "  KTAP version 1",
    "  # Subtest: harness-panic",
    "  1..1",
    "    # Subtest: panic",
    "[    0.857692] patchbay-ktap: harness-panic/panic 0",
    "    KTAP version 1",
    "    1..2",
    "    ok 1 before the crash",
    "[    0.891854] patchbay-ktap: harness-panic/panic 1",
    "[    0.893269] sysrq: Trigger a crash",
    "[    # crashin g   t h0e. 8k9e5r1n0e7l]  wKietrhn esly spraqn-icc  d-u "
    "rniontg  scyanscei n2g: s",
    "ysrq",
    "triggered crash",
    "[    0.896994] CPU: 0 UID: 0 PID: 38 Comm: panic Not tainted 6.12.118 #1",
    "[    0.898713] Call trace:",
    NULL,
};

static const char *const stopping[] = {
    "KTAP version 1", "1..1", "  KTAP version 1", "  # Subtest: demo", "  1..2",
    "  ok 1 first",   NULL,
};

static void feed(RunRecord *rec, const char *const *lines)
{
    for (guint i = 0; lines[i]; i++) {
        run_record_feed(rec, lines[i], 0);
    }
}

static char *make_tmp(void)
{
    g_autoptr(GError) error = NULL;
    char *dir = g_dir_make_tmp("test-resultdir-XXXXXX", &error);

    g_assert_no_error(error);
    return dir;
}

static void remove_tmp(const char *dir)
{
    const char *names[] = {
        "summary.json",
        "results.txt",
        "junit.xml",
        "console.log",
    };

    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *path = g_build_filename(dir, names[i], NULL);

        g_unlink(path);
    }
    g_rmdir(dir);
}

static char *read_file(const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) error = NULL;
    char *text = NULL;

    g_file_get_contents(path, &text, NULL, &error);
    g_assert_no_error(error);
    return text;
}

static void test_verdict_names(void)
{
    g_assert_cmpstr(verdict_name(VERDICT_PASS), ==, "pass");
    g_assert_cmpstr(verdict_name(VERDICT_FAIL), ==, "fail");
    g_assert_cmpstr(verdict_name(VERDICT_INCOMPLETE), ==, "incomplete");
    g_assert_cmpint(VERDICT_INCOMPLETE, ==, 2);
}

static void test_result_names(void)
{
    KtapResult r;

    for (r = KTAP_RESULT_NONE; r <= KTAP_RESULT_MISSING; r++) {
        KtapResult back;

        g_assert_true(ktap_result_from_name(ktap_result_name(r), &back));
        g_assert_cmpint(back, ==, r);
    }
    g_assert_false(ktap_result_from_name("passed", &r));
}

/* Written, then read back by the readers of patchbay-compare. */
static void test_write_and_load(void)
{
    g_autofree char *dir = make_tmp();
    const char *suites[] = {"demo", NULL};
    g_autoptr(GError) error = NULL;
    g_autoptr(RunResults) run = NULL;
    g_autofree char *txt = NULL;
    RunRecord rec;
    RunRecord *recs[] = {&rec};

    run_record_init(&rec, 0);
    feed(&rec, passing);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, suites), ==, VERDICT_PASS);
    g_assert_true(result_dir_write(dir, recs, 1, 0, VERDICT_PASS, "base",
                                   "6.12.118", &error));
    g_assert_no_error(error);
    run_record_clear(&rec);

    txt = read_file(dir, "results.txt");
    g_assert_cmpstr(txt, ==, "pass\tdemo/first\nskip\tdemo/second\n");
    run = run_results_load(dir, &error);
    g_assert_no_error(error);
    g_assert_cmpstr(run->verdict, ==, "pass");
    g_assert_cmpstr(run->variant, ==, "base");
    g_assert_cmpstr(run->kernel, ==, "6.12.118");
    g_assert_cmpuint(run->tests->len, ==, 2);
    g_assert_cmpint(run_results_get(run, "demo/first"), ==, KTAP_RESULT_PASS);
    g_assert_cmpint(run_results_get(run, "demo/second"), ==, KTAP_RESULT_SKIP);
    g_assert_cmpint(run_results_get(run, "demo/third"), ==,
                    KTAP_RESULT_MISSING);
    g_assert_cmpuint(run->crashes->len, ==, 0);
    remove_tmp(dir);
}

/* The run's one crash report. */
static CrashReport *only_crash(RunRecord *rec)
{
    g_assert_cmpuint(run_record_crashes(rec)->len, ==, 1);
    return g_ptr_array_index(run_record_crashes(rec), 0);
}

static void test_panic_fails(void)
{
    const char *suites[] = {"harness-panic", NULL};
    RunRecord rec;
    CrashReport *c;

    run_record_init(&rec, 0);
    feed(&rec, panicking);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, suites), ==, VERDICT_FAIL);
    c = only_crash(&rec);
    g_assert_cmpstr(c->kind, ==, "panic");
    g_assert_cmpstr(c->test, ==, "harness-panic/panic/#2");
    run_record_clear(&rec);
}

/* The hang the live run records in console.log is the hang a parse sees. */
static void test_hang_mark(void)
{
    const char *suites[] = {"demo", NULL};
    g_autofree char *mark = NULL;
    g_autofree char *live_excerpt = NULL;
    RunRecord live, parsed;
    CrashReport *c;

    run_record_init(&live, 0);
    feed(&live, stopping);
    mark = run_record_hang(&live, "no console output for 5 s");
    g_assert_cmpstr(mark, ==, "patchbay-run: hang: no console output for 5 s");
    c = g_ptr_array_index(run_record_crashes(&live), 0);
    live_excerpt = g_strdup(c->excerpt);
    g_assert_true(g_str_has_prefix(live_excerpt, "no console output"));

    run_record_init(&parsed, 0);
    feed(&parsed, stopping);
    run_record_feed(&parsed, mark, 0);
    run_record_finish(&parsed, 0);
    g_assert_cmpuint(run_record_crashes(&parsed)->len, ==, 1);
    c = g_ptr_array_index(run_record_crashes(&parsed), 0);
    g_assert_cmpstr(c->kind, ==, "hang");
    g_assert_cmpstr(c->test, ==, "demo/#2");
    g_assert_cmpstr(c->excerpt, ==, live_excerpt);
    g_assert_cmpint(run_record_verdict(&parsed, suites), ==, VERDICT_FAIL);
    run_record_clear(&live);
    run_record_clear(&parsed);
}

/* QEMU said the guest reset itself: a garbled panic still fails the run,
 * pinned on its test, and a parse of the saved console agrees. */
static void test_reset_mark(void)
{
    const char *suites[] = {"harness-panic", NULL};
    g_autofree char *mark = NULL;
    RunRecord rec;
    CrashReport *c;

    run_record_init(&rec, 0);
    feed(&rec, garbled);
    run_record_finish(&rec, 0);
    g_assert_cmpuint(run_record_crashes(&rec)->len, ==, 0);
    g_assert_cmpint(run_record_verdict(&rec, suites), ==, VERDICT_INCOMPLETE);
    run_record_clear(&rec);

    run_record_init(&rec, 0);
    feed(&rec, garbled);
    mark = run_record_reset(&rec, "the guest reset itself");
    g_assert_cmpstr(mark, ==, "patchbay-run: reset: the guest reset itself");
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, suites), ==, VERDICT_FAIL);
    c = only_crash(&rec);
    g_assert_cmpstr(c->kind, ==, "reset");
    g_assert_cmpstr(c->test, ==, "harness-panic/panic/#2");
    run_record_clear(&rec);

    run_record_init(&rec, 0);
    feed(&rec, garbled);
    run_record_feed(&rec, mark, 0);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, suites), ==, VERDICT_FAIL);
    c = g_ptr_array_index(run_record_crashes(&rec), 0);
    g_assert_cmpstr(c->kind, ==, "reset");
    run_record_clear(&rec);

    /* a panic the console showed whole is the only report */
    run_record_init(&rec, 0);
    feed(&rec, panicking);
    g_free(run_record_reset(&rec, "the guest reset itself"));
    run_record_finish(&rec, 0);
    c = only_crash(&rec);
    g_assert_cmpstr(c->kind, ==, "panic");
    run_record_clear(&rec);
}

static void test_incomplete(void)
{
    const char *demo[] = {"demo", NULL};
    const char *other[] = {"demo", "other", NULL};
    const char *none[] = {"[    0.1] Booting Linux", NULL};
    RunRecord rec;

    /* stopped mid-suite, no kernel report */
    run_record_init(&rec, 0);
    feed(&rec, stopping);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, demo), ==, VERDICT_INCOMPLETE);
    run_record_clear(&rec);

    /* a suite that never ran */
    run_record_init(&rec, 0);
    feed(&rec, passing);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, other), ==, VERDICT_INCOMPLETE);
    run_record_clear(&rec);

    /* no /init at all */
    run_record_init(&rec, 0);
    feed(&rec, none);
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, demo), ==, VERDICT_INCOMPLETE);
    run_record_clear(&rec);
}

/* patchbay-run --parse: exit code, the result files, the parsed mark. */
static void test_parse_cli(void)
{
    const char *run = g_getenv("PATCHBAY_RUN");
    g_autofree char *dir = make_tmp();
    g_autofree char *console = g_build_filename(dir, "console.log", NULL);
    g_autofree char *joined = g_strjoinv("\n", (char **)panicking);
    g_autofree char *text = g_strconcat(joined, "\n", NULL);
    g_autofree char *summary = NULL, *txt = NULL;
    g_autoptr(GError) error = NULL;
    int status;

    if (!run) {
        g_test_skip("PATCHBAY_RUN is not set");
        return;
    }
    g_file_set_contents(console, text, -1, &error);
    g_assert_no_error(error);
    {
        const char *argv[] = {run, "--parse", console, NULL};

        g_spawn_sync(NULL, (char **)argv, NULL,
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error);
    }
    g_assert_no_error(error);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, VERDICT_FAIL);
    summary = read_file(dir, "summary.json");
    g_assert_nonnull(strstr(summary, "\"verdict\" : \"fail\""));
    g_assert_nonnull(strstr(summary, "\"parsed\" : true"));
    g_assert_nonnull(strstr(summary, "\"test\" : \"harness-panic/panic/#2\""));
    txt = read_file(dir, "results.txt");
    g_assert_cmpstr(txt, ==,
                    "pass\tharness-panic/panic/before the crash\n"
                    "none\tharness-panic/panic/#2 (missing)\n");
    remove_tmp(dir);
}

/*
 * Two VMs side by side: their marks, then their lines interleaved under
 * their prefixes.  Each is judged on its own suites: the panic in "p" is
 * pinned on p's test, "s" passes with its slow skip counted, and the run
 * fails; a line of no known VM belongs to none.
 */
static const char *const two_vms[] = {
    RUN_VM_MARK "s: suites=slowdemo clock=virtual cpus=1",
    RUN_VM_MARK "p: suites=harness-panic clock=real",
    "s| KTAP version 1",
    "p| KTAP version 1",
    "p| 1..1",
    "s| 1..1",
    "s|   KTAP version 1",
    "p|   KTAP version 1",
    "p|   # Subtest: harness-panic",
    "s|   # Subtest: slowdemo",
    "s|   1..2",
    "p|   1..1",
    "p|     # Subtest: panic",
    "s|   ok 1 quick",
    "p| [    0.602616] patchbay-ktap: harness-panic/panic 0",
    "p|     KTAP version 1",
    "x| not ok 1 slowdemo",
    "p|     1..2",
    "s|   ok 2 rename_attack_test # SKIP slow: left out",
    "p|     ok 1 before the crash",
    "s| ok 1 slowdemo",
    "p| [    0.602617] patchbay-ktap: harness-panic/panic 1",
    "p| [    0.632504] Kernel panic - not syncing: sysrq triggered crash",
    NULL,
};

static void test_two_vms(void)
{
    g_autoptr(GPtrArray) recs = run_records_parse(two_vms);
    g_autofree char *dir = make_tmp();
    g_autofree char *txt = NULL, *summary = NULL;
    g_autoptr(GError) error = NULL;
    RunRecord *s, *p;

    g_assert_cmpuint(recs->len, ==, 2);
    s = g_ptr_array_index(recs, 0);
    p = g_ptr_array_index(recs, 1);
    g_assert_cmpstr(s->vm_name, ==, "s");
    g_assert_true(s->virtual_clock);
    g_assert_false(p->virtual_clock);
    g_assert_cmpint(s->cpus, ==, 1);
    g_assert_cmpint(p->cpus, ==, 0); /* a mark from before cpus= */
    g_assert_cmpstr(p->suites[0], ==, "harness-panic");
    g_assert_cmpint(run_record_verdict(s, (const char *const *)s->suites), ==,
                    VERDICT_PASS);
    g_assert_cmpint(run_records_verdict((RunRecord *const *)recs->pdata, 2), ==,
                    VERDICT_FAIL);
    g_assert_cmpstr(only_crash(p)->test, ==, "harness-panic/panic/#2");
    g_assert_cmpuint(run_record_crashes(s)->len, ==, 0);
    g_assert_cmpuint(
        run_records_slow_skipped((RunRecord *const *)recs->pdata, 2), ==, 1);
    g_assert_true(result_dir_write(dir, (RunRecord *const *)recs->pdata, 2, 2,
                                   VERDICT_FAIL, "base", "6.12.118", &error));
    g_assert_no_error(error);
    txt = read_file(dir, "results.txt");
    g_assert_cmpstr(txt, ==,
                    "pass\tslowdemo/quick\n"
                    "skip\tslowdemo/rename_attack_test\n"
                    "pass\tharness-panic/panic/before the crash\n"
                    "none\tharness-panic/panic/#2 (missing)\n");
    summary = read_file(dir, "summary.json");
    g_assert_nonnull(strstr(summary, "\"slow_skipped\" : 1"));
    g_assert_nonnull(strstr(summary, "\"clock\" : \"virtual\""));
    g_assert_nonnull(strstr(summary, "\"cpus\" : 1"));
    g_assert_nonnull(strstr(summary, "\"jobs\" : 2"));
    remove_tmp(dir);
}

/* One VM: its mark, no prefixes; the mark's line is no test output. */
static void test_one_vm_mark(void)
{
    g_autoptr(GPtrArray) recs = NULL;
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    g_auto(GStrv) lines = NULL;
    RunRecord *rec;

    g_strv_builder_add(b, RUN_VM_MARK "demo: suites=demo,gone clock=real");
    g_strv_builder_addv(b, (const char **)passing);
    lines = g_strv_builder_end(b);
    recs = run_records_parse((const char *const *)lines);
    g_assert_cmpuint(recs->len, ==, 1);
    rec = g_ptr_array_index(recs, 0);
    g_assert_cmpstr(rec->vm_name, ==, "demo");
    /* "gone" was to run and did not: the mark keeps that fact */
    g_assert_cmpint(run_records_verdict(&rec, 1), ==, VERDICT_INCOMPLETE);
}

/*
 * Past a limit the run fails with a "limit" report, and what came before
 * it is kept: results.txt, summary.json and junit.xml still have it.
 */
static void test_limit_fails_keeps_results(void)
{
    RunRecord rec;
    const char *none[] = {NULL};
    g_autofree char *dir = make_tmp();
    g_autofree char *name = g_strnfill(KTAP_LIMIT_PATH + 1, 'n');
    g_autofree char *subtest = g_strdup_printf("  # Subtest: %s", name);
    g_autofree char *txt = NULL, *summary = NULL, *junit = NULL;
    g_autoptr(GError) error = NULL;
    RunRecord *recs[] = {&rec};
    CrashReport *limit;

    run_record_init(&rec, 0);
    /* the passing console but its last line, then a second suite */
    for (guint i = 0; passing[i + 1]; i++) {
        g_assert_true(run_record_keep(&rec, passing[i]));
        g_assert_null(run_record_feed(&rec, passing[i], 0));
    }
    run_record_feed(&rec, "ok 1 demo", 0);
    run_record_feed(&rec, "  KTAP version 1", 0);
    limit = run_record_feed(&rec, subtest, 0);
    g_assert_nonnull(limit);
    g_assert_cmpstr(limit->kind, ==, "limit");
    g_assert_true(g_str_has_prefix(
        limit->excerpt, "guest output exceeded KTAP_LIMIT_PATH (1024 bytes)"));
    g_assert_true(rec.limited);
    /* nothing more is kept or judged */
    g_assert_false(run_record_keep(&rec, "  ok 1 later"));
    g_assert_null(run_record_feed(&rec, "[    1.000000] Kernel panic - x", 0));
    run_record_finish(&rec, 0);
    g_assert_cmpuint(run_record_crashes(&rec)->len, ==, 1);
    g_assert_cmpint(run_record_verdict(&rec, none), ==, VERDICT_FAIL);
    {
        const char *demo[] = {"demo", NULL};

        g_assert_cmpint(run_record_verdict(&rec, demo), ==, VERDICT_FAIL);
    }
    g_assert_true(result_dir_write(dir, recs, 1, 0, VERDICT_FAIL, "base",
                                   "6.12.118", &error));
    g_assert_no_error(error);
    txt = read_file(dir, "results.txt");
    g_assert_true(g_str_has_prefix(txt, "pass\tdemo/first\n"
                                        "skip\tdemo/second\n"));
    summary = read_file(dir, "summary.json");
    g_assert_nonnull(strstr(summary, "\"kind\" : \"limit\""));
    g_assert_nonnull(strstr(summary, "guest output exceeded KTAP_LIMIT_PATH"));
    junit = read_file(dir, "junit.xml");
    g_assert_nonnull(strstr(junit, "type=\"limit\""));
    /* the name is refused: only the limit's excerpt (the last lines) has it */
    g_assert_nonnull(strstr(junit, name));
    g_assert_null(strstr(strstr(junit, name) + 1, name));
    run_record_clear(&rec);
    remove_tmp(dir);
}

/* One VM's share of console.log stops at KTAP_LIMIT_CONSOLE. */
static void test_console_limit(void)
{
    RunRecord rec;
    g_autofree char *line = g_strnfill(KTAP_LIMIT_LINE, 'x');
    guint kept = 0;

    run_record_init(&rec, 0);
    feed(&rec, passing);
    while (run_record_keep(&rec, line)) {
        run_record_feed(&rec, line, 0);
        kept++;
        g_assert_cmpuint(kept, <, 1000);
    }
    g_assert_cmpuint(rec.console_bytes, <=, KTAP_LIMIT_CONSOLE);
    g_assert_true(rec.limited);
    g_assert_cmpstr(only_crash(&rec)->kind, ==, "limit");
    g_assert_true(g_str_has_prefix(only_crash(&rec)->excerpt,
                                   "guest output exceeded KTAP_LIMIT_CONSOLE"));
    run_record_finish(&rec, 0);
    g_assert_cmpint(run_record_verdict(&rec, (const char *[]){"demo", NULL}),
                    ==, VERDICT_FAIL);
    run_record_clear(&rec);
}

static void collect_line(const char *line, gpointer data)
{
    g_ptr_array_add(data, g_strdup(line));
}

/*
 * The console reader: 8 MiB without a newline is never held whole; its
 * head comes out at once, cut and marked, the rest up to its end is
 * dropped, and the lines after it are whole.  CR, LF and CR LF end lines.
 */
static void test_bounded_reader(void)
{
    g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func(g_free);
    GuestCtlLines *lines =
        guestctl_lines_new_console(KTAP_LIMIT_LINE, KTAP_LIMIT_LINE_CUT);
    g_autofree char *chunk = g_strnfill(64 * 1024, 'x');
    g_autofree char *head = NULL;

    guestctl_lines_feed(lines, "ok 1 a\r\nok 2 b\rok 3 c\n", 22, collect_line,
                        got);
    g_assert_cmpuint(got->len, ==, 3);
    g_assert_cmpstr(got->pdata[1], ==, "ok 2 b");
    for (guint i = 0; i < 8 * 1024 * 1024 / (64 * 1024); i++) {
        guestctl_lines_feed(lines, chunk, 64 * 1024, collect_line, got);
        g_assert_cmpuint(guestctl_lines_pending(lines), <=, KTAP_LIMIT_LINE);
    }
    g_assert_cmpuint(got->len, ==, 4);
    head = g_strconcat(chunk, KTAP_LIMIT_LINE_CUT, NULL);
    g_assert_cmpstr(got->pdata[3], ==, head);
    guestctl_lines_feed(lines, "tail\nok 4 d\npartial", 20, collect_line, got);
    g_assert_cmpuint(got->len, ==, 5);
    g_assert_cmpstr(got->pdata[4], ==, "ok 4 d");
    guestctl_lines_flush(lines, collect_line, got);
    g_assert_cmpstr(got->pdata[5], ==, "partial");
    guestctl_lines_free(lines);
}

/* patchbay-run --parse on what a live run would have cut: the same limit,
 * the same verdict, and the results before it. */
static void test_parse_cli_long_line(void)
{
    const char *run = g_getenv("PATCHBAY_RUN");
    g_autofree char *dir = make_tmp();
    g_autofree char *console = g_build_filename(dir, "console.log", NULL);
    g_autoptr(GString) text = g_string_new(NULL);
    g_autofree char *summary = NULL, *txt = NULL;
    g_autoptr(GError) error = NULL;
    int status;

    if (!run) {
        g_test_skip("PATCHBAY_RUN is not set");
        return;
    }
    for (guint i = 0; passing[i + 1]; i++) {
        g_string_append_printf(text, "%s\n", passing[i]);
    }
    /* 8 MiB and no newline: the guest's last words */
    for (guint i = 0; i < 8 * 1024 * 1024; i++) {
        g_string_append_c(text, 'x');
    }
    g_file_set_contents(console, text->str, text->len, &error);
    g_assert_no_error(error);
    {
        const char *argv[] = {run, "--parse", console, NULL};

        g_spawn_sync(NULL, (char **)argv, NULL,
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error);
    }
    g_assert_no_error(error);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, VERDICT_FAIL);
    summary = read_file(dir, "summary.json");
    g_assert_nonnull(strstr(summary, "\"kind\" : \"limit\""));
    g_assert_nonnull(
        strstr(summary, "guest output exceeded KTAP_LIMIT_LINE (65536 bytes)"));
    txt = read_file(dir, "results.txt");
    g_assert_cmpstr(txt, ==, "pass\tdemo/first\nskip\tdemo/second\n");
    remove_tmp(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/resultdir/verdict-names", test_verdict_names);
    g_test_add_func("/resultdir/result-names", test_result_names);
    g_test_add_func("/resultdir/write-and-load", test_write_and_load);
    g_test_add_func("/resultdir/panic-fails", test_panic_fails);
    g_test_add_func("/resultdir/hang-mark", test_hang_mark);
    g_test_add_func("/resultdir/reset-mark", test_reset_mark);
    g_test_add_func("/resultdir/incomplete", test_incomplete);
    g_test_add_func("/resultdir/parse-cli", test_parse_cli);
    g_test_add_func("/resultdir/two-vms", test_two_vms);
    g_test_add_func("/resultdir/one-vm-mark", test_one_vm_mark);
    g_test_add_func("/resultdir/limit-fails-keeps-results",
                    test_limit_fails_keeps_results);
    g_test_add_func("/resultdir/console-limit", test_console_limit);
    g_test_add_func("/resultdir/bounded-reader", test_bounded_reader);
    g_test_add_func("/resultdir/parse-cli-long-line", test_parse_cli_long_line);
    return g_test_run();
}
