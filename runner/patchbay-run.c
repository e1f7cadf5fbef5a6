// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchbay-run: boot the guest under QEMU, stream its serial console, parse
 * the KTAP that /init prints, catch kernel crashes and hangs, and write
 * console.log, junit.xml and summary.json.
 *
 * Exit codes: 0 every test passed; 1 a test failed or the kernel crashed or
 * hung; 2 incomplete (QEMU or the boot failed, a suite is missing).
 *
 * scripts/patchbay builds the inputs and calls this program; see
 * docs/architecture.md.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "crashscan.h"
#include "guestctl.h"
#include "junit.h"
#include "ktap.h"

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_INCOMPLETE = 2 };

typedef struct {
    /* options */
    char *qemu, *kernel, *initrd, *results, *variant, *release, *available;
    char *gdb_socket;
    char **suites, **qemu_args, **append;
    int suite_timeout_s, boot_timeout_s, crash_grace_s;
    gboolean verbose, interactive;

    /* run state */
    GMainLoop *loop;
    GSubprocess *qemu_proc;
    GDataInputStream *console;
    FILE *console_log;
    KtapParser *parser;
    KtapMarks marks;
    CrashScanner *scanner;
    Watchdog watchdog;
    gint64 start_us, first_ktap_us, first_crash_us, first_fatal_us, end_us;
    gboolean saw_ktap, qemu_exited, killed, console_eof;
    int qemu_status;
    GString *qemu_stderr;
    GuestCtl *ctl;
    char *sock_dir;
    pid_t parent_pid;
} Run;

static gint64 now_us(void)
{
    return g_get_monotonic_time();
}

static void stop_qemu(Run *r)
{
    if (r->qemu_proc && !r->qemu_exited && !r->killed) {
        r->killed = TRUE;
        g_subprocess_force_exit(r->qemu_proc);
    }
}

static void maybe_quit(Run *r)
{
    if (r->qemu_exited && r->console_eof) {
        g_main_loop_quit(r->loop);
    }
}

static void on_line(Run *r, const char *line)
{
    gint64 t = now_us();
    g_autofree char *parsed = ktap_parser_running(r->parser);
    g_autofree char *running = NULL;
    guint reports_before = crash_scanner_reports(r->scanner)->len;

    ktap_marks_feed(&r->marks, line);
    running = ktap_marks_running(&r->marks, parsed);

    fprintf(r->console_log, "%s\n", line);
    if (r->verbose) {
        printf("%s\n", line);
        fflush(stdout);
    }
    if (!r->saw_ktap && strstr(line, "KTAP version 1") == line) {
        r->saw_ktap = TRUE;
        r->first_ktap_us = t;
    }
    crash_scanner_feed(r->scanner, line, running);
    ktap_parser_feed(r->parser, line, t);
    watchdog_kick(&r->watchdog, t);

    if (crash_scanner_reports(r->scanner)->len > reports_before) {
        CrashReport *c = g_ptr_array_index(crash_scanner_reports(r->scanner),
                                           reports_before);
        if (!r->first_crash_us) {
            r->first_crash_us = t;
        }
        if (!r->first_fatal_us && crash_kind_is_fatal(c->kind)) {
            r->first_fatal_us = t;
        }
        g_printerr("patchbay: kernel %s during %s\n", c->kind, c->test);
    }
}

static void on_console_line(GObject *src, GAsyncResult *res, gpointer data)
{
    Run *r = data;
    g_autoptr(GError) error = NULL;
    gsize len;
    g_autofree char *line =
        g_data_input_stream_read_line_finish_utf8(G_DATA_INPUT_STREAM(src), res,
                                                  &len, &error);

    if (!line && error && g_error_matches(error, G_IO_ERROR,
                                          G_IO_ERROR_INVALID_DATA)) {
        /* Not UTF-8 (garbage on the serial line): keep going. */
        g_data_input_stream_read_line_async(r->console, G_PRIORITY_DEFAULT,
                                            NULL, on_console_line, r);
        return;
    }
    if (!line) {
        r->console_eof = TRUE;
        maybe_quit(r);
        return;
    }
    g_strchomp(line);
    on_line(r, line);
    g_data_input_stream_read_line_async(r->console, G_PRIORITY_DEFAULT, NULL,
                                        on_console_line, r);
}

static void on_qemu_exit(GObject *src, GAsyncResult *res, gpointer data)
{
    Run *r = data;

    g_subprocess_wait_finish(G_SUBPROCESS(src), res, NULL);
    r->qemu_exited = TRUE;
    r->qemu_status = g_subprocess_get_status(r->qemu_proc);
    r->end_us = now_us();
    maybe_quit(r);
}

/* Once a second: the boot deadline, the hang watchdog, the crash grace. */
static gboolean on_tick(gpointer data)
{
    Run *r = data;
    gint64 t = now_us();

    if (r->qemu_exited || r->killed) {
        return G_SOURCE_CONTINUE;
    }
    if (r->gdb_socket && !r->first_crash_us) {
        /* Under gdb the guest sits at breakpoints for as long as the user
         * likes: wall-clock deadlines do not apply. The guest's own
         * per-test timeouts still do, in virtual time, which stops while
         * the VM is halted. */
        return G_SOURCE_CONTINUE;
    }
    if (!r->saw_ktap && t - r->start_us > r->boot_timeout_s * G_USEC_PER_SEC) {
        g_autofree char *why =
            g_strdup_printf("no KTAP from /init within %d s of boot",
                            r->boot_timeout_s);
        crash_scanner_add_hang(r->scanner, NULL, why);
        g_printerr("patchbay: %s; stopping QEMU\n", why);
        stop_qemu(r);
    } else if (r->saw_ktap && watchdog_expired(&r->watchdog, t)) {
        g_autofree char *parsed = ktap_parser_running(r->parser);
        g_autofree char *running = ktap_marks_running(&r->marks, parsed);
        g_autofree char *why =
            g_strdup_printf("no console output for %d s", r->suite_timeout_s);
        crash_scanner_add_hang(r->scanner, running, why);
        g_printerr("patchbay: hang: %s during %s; stopping QEMU\n", why,
                   running ? running : "(boot)");
        stop_qemu(r);
    } else if (r->first_fatal_us &&
               t - r->first_fatal_us > r->crash_grace_s * G_USEC_PER_SEC) {
        /* panic=-1 normally ends QEMU; a lockup or a hung task may not. A
         * WARN or a KASAN report does not stop the run: the kernel goes
         * on, and so do the tests (the run fails all the same). */
        g_printerr("patchbay: stopping QEMU %d s after the first fatal crash report\n",
                   r->crash_grace_s);
        stop_qemu(r);
    }
    return G_SOURCE_CONTINUE;
}

static gboolean on_signal(gpointer data)
{
    Run *r = data;

    g_printerr("patchbay: interrupted; stopping QEMU\n");
    stop_qemu(r);
    return G_SOURCE_CONTINUE;
}

static GPtrArray *qemu_argv(Run *r)
{
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GString) append = g_string_new(
        /* printk.devkmsg=on: the guest's test marks in /dev/kmsg are not
         * rate-limited away (ktap_marks_feed) */
        "console=ttyAMA0 panic=-1 oops=panic softlockup_panic=1 printk.devkmsg=on "
        "hung_task_panic=1 loglevel=5 rdinit=/sbin/init");
    g_autofree char *suites = g_strjoinv(",", r->suites);

    if (r->interactive) {
        g_string_append(append, " patchbay.shell=1");
    } else {
        /* /init kills an executable a little before our watchdog fires. */
        g_string_append_printf(append, " patchbay.suites=%s patchbay.timeout=%d",
                               suites, MAX(r->suite_timeout_s - 10, 1));
    }
    if (r->gdb_socket) {
        /* Symbols at their link addresses (boot-utils, vng --debug). */
        g_string_append(append, " nokaslr");
    }
    for (char **a = r->append; a && *a; a++) {
        g_string_append_printf(append, " %s", *a);
    }
    const char *fixed[] = {
        "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1G",
        "-nographic", "-no-reboot", "-nic", "none",
    };
    g_ptr_array_add(argv, g_strdup(r->qemu));
    for (guint i = 0; i < G_N_ELEMENTS(fixed); i++) {
        g_ptr_array_add(argv, g_strdup(fixed[i]));
    }
    g_ptr_array_add(argv, g_strdup("-kernel"));
    g_ptr_array_add(argv, g_strdup(r->kernel));
    g_ptr_array_add(argv, g_strdup("-initrd"));
    g_ptr_array_add(argv, g_strdup(r->initrd));
    g_ptr_array_add(argv, g_strdup("-append"));
    g_ptr_array_add(argv, g_strdup(append->str));
    if (r->ctl) {
        guestctl_add_qemu_args(r->ctl, argv);
    }
    if (r->gdb_socket) {
        /* A unix socket, never a TCP port on all interfaces (-s). Batch
         * runs start halted so that gdb sees the boot; the interactive
         * shell does not wait for gdb. */
        g_ptr_array_add(argv, g_strdup("-chardev"));
        g_ptr_array_add(argv, g_strdup_printf(
            "socket,id=gdbstub,path=%s,server=on,wait=off", r->gdb_socket));
        g_ptr_array_add(argv, g_strdup("-gdb"));
        g_ptr_array_add(argv, g_strdup("chardev:gdbstub"));
        if (!r->interactive) {
            g_ptr_array_add(argv, g_strdup("-S"));
        }
    }
    for (char **a = r->qemu_args; a && *a; a++) {
        g_ptr_array_add(argv, g_strdup(*a));
    }
    g_ptr_array_add(argv, NULL);
    return argv;
}

/* Interactive use (patchbay shell): QEMU owns the terminal. */
static int run_interactive(Run *r)
{
    g_autoptr(GPtrArray) argv = qemu_argv(r);
    g_autoptr(GError) error = NULL;
    int status;

    if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL,
                      G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                      &status, &error)) {
        g_printerr("patchbay: cannot start QEMU: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    return g_spawn_check_wait_status(status, NULL) ? EXIT_PASS : EXIT_FAIL;
}

static gboolean suite_available(Run *r, const char *suite)
{
    g_autofree char *list = NULL;
    g_auto(GStrv) names = NULL;

    if (!r->available || !g_file_get_contents(r->available, &list, NULL, NULL)) {
        return TRUE;
    }
    names = g_strsplit(list, "\n", -1);
    return g_strv_contains((const char *const *)names, suite);
}

static double seconds(gint64 us)
{
    return (double)us / G_USEC_PER_SEC;
}

static const char *verdict_name(int code)
{
    return code == EXIT_PASS ? "pass" : code == EXIT_FAIL ? "fail" : "incomplete";
}

/* Decide the verdict; explain a non-pass on stderr. */
static int verdict(Run *r, KtapTest *root)
{
    GPtrArray *crashes = crash_scanner_reports(r->scanner);
    int code = EXIT_PASS;

    if (!r->saw_ktap && crashes->len == 0) {
        g_printerr("patchbay: the guest never started /init (QEMU status %d)\n",
                   r->qemu_status);
        if (r->qemu_stderr->len) {
            g_printerr("%s", r->qemu_stderr->str);
        }
        return EXIT_INCOMPLETE;
    }
    if (crashes->len) {
        code = EXIT_FAIL;
    }
    for (guint i = 0; r->suites[i]; i++) {
        KtapTest *suite = NULL;
        guint pass, fail, skip, none;

        for (guint j = 0; j < root->subtests->len; j++) {
            KtapTest *t = g_ptr_array_index(root->subtests, j);
            if (g_strcmp0(t->name, r->suites[i]) == 0) {
                suite = t;
            }
        }
        if (!suite) {
            g_printerr("patchbay: suite %s produced no result\n", r->suites[i]);
            code = MAX(code, crashes->len ? EXIT_FAIL : EXIT_INCOMPLETE);
            continue;
        }
        ktap_test_count(suite, &pass, &fail, &skip, &none);
        if (suite->result == KTAP_RESULT_NONE && !crashes->len) {
            /* The stream stopped mid-suite without a kernel report. */
            code = MAX(code, EXIT_INCOMPLETE);
        } else if (fail || none || suite->result == KTAP_RESULT_FAIL) {
            code = MAX(code, EXIT_FAIL);
        }
    }
    return code;
}

/* Every skipped test with its reason ("kernel lacks CONFIG_X"): what a
 * kernel that is not ours did not run, and why. */
static void add_skips(JsonBuilder *b, KtapTest *t, const char *prefix)
{
    g_autofree char *path = *prefix ? g_strdup_printf("%s/%s", prefix, t->name)
                                    : g_strdup(t->name);

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

static JsonNode *summary_json(Run *r, KtapTest *root, int code)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    GPtrArray *crashes = crash_scanner_reports(r->scanner);

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "verdict");
    json_builder_add_string_value(b, verdict_name(code));
    json_builder_set_member_name(b, "variant");
    json_builder_add_string_value(b, r->variant);
    json_builder_set_member_name(b, "kernel");
    json_builder_add_string_value(b, r->release);
    json_builder_set_member_name(b, "wall_s");
    json_builder_add_double_value(b, seconds(r->end_us - r->start_us));
    json_builder_set_member_name(b, "boot_s");
    json_builder_add_double_value(b, r->saw_ktap ?
                                  seconds(r->first_ktap_us - r->start_us) : 0);
    json_builder_set_member_name(b, "suites");
    json_builder_begin_object(b);
    for (guint i = 0; i < root->subtests->len; i++) {
        KtapTest *s = g_ptr_array_index(root->subtests, i);
        guint pass, fail, skip, none;
        gint64 end = s->end_us ? s->end_us : r->end_us;

        ktap_test_count(s, &pass, &fail, &skip, &none);
        json_builder_set_member_name(b, s->name);
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "passed");
        json_builder_add_int_value(b, pass);
        json_builder_set_member_name(b, "failed");
        json_builder_add_int_value(b, fail + none);
        json_builder_set_member_name(b, "skipped");
        json_builder_add_int_value(b, skip);
        json_builder_set_member_name(b, "wall_s");
        json_builder_add_double_value(b, s->start_us ?
                                      seconds(end - s->start_us) : 0);
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
    json_builder_set_member_name(b, "crashes");
    json_builder_begin_array(b);
    for (guint i = 0; i < crashes->len; i++) {
        CrashReport *c = g_ptr_array_index(crashes, i);

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "kind");
        json_builder_add_string_value(b, c->kind);
        json_builder_set_member_name(b, "test");
        g_autofree char *test = ktap_resolve_path(root, c->test);
        json_builder_add_string_value(b, test);
        json_builder_set_member_name(b, "excerpt");
        json_builder_add_string_value(b, c->excerpt);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "skips");
    json_builder_begin_array(b);
    for (guint i = 0; i < root->subtests->len; i++) {
        add_skips(b, g_ptr_array_index(root->subtests, i), "");
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

static gboolean write_summary(Run *r, KtapTest *root, int code, GError **error)
{
    g_autoptr(JsonNode) node = summary_json(r, root, code);
    g_autofree char *text = json_to_string(node, TRUE);
    g_autofree char *path = g_build_filename(r->results, "summary.json", NULL);
    g_autofree char *with_nl = g_strconcat(text, "\n", NULL);

    return g_file_set_contents(path, with_nl, -1, error);
}

/* results.txt: "RESULT<TAB>suite/executable/case" per leaf, for scripts. */
static void append_leaves(GString *out, KtapTest *t, const char *prefix)
{
    g_autofree char *path = *prefix ? g_strdup_printf("%s/%s", prefix, t->name)
                                    : g_strdup(t->name);

    if (t->subtests->len == 0) {
        g_string_append_printf(out, "%s\t%s\n", ktap_result_name(t->result),
                               path);
    }
    for (guint i = 0; i < t->subtests->len; i++) {
        append_leaves(out, g_ptr_array_index(t->subtests, i), path);
    }
}

static gboolean write_results_txt(Run *r, KtapTest *root, GError **error)
{
    g_autoptr(GString) out = g_string_new(NULL);
    g_autofree char *path = g_build_filename(r->results, "results.txt", NULL);

    for (guint i = 0; i < root->subtests->len; i++) {
        append_leaves(out, g_ptr_array_index(root->subtests, i), "");
    }
    return g_file_set_contents(path, out->str, out->len, error);
}

static void print_report(Run *r, KtapTest *root, int code)
{
    GPtrArray *crashes = crash_scanner_reports(r->scanner);

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

        g_autofree char *test = ktap_resolve_path(root, c->test);

        printf("  crash: %s during %s\n", c->kind, test);
        for (guint j = 0; lines[j] && j < 3; j++) {
            printf("    | %s\n", lines[j]);
        }
    }
    printf("patchbay: %s (variant %s, kernel %s) in %.1f s; results in %s\n",
           verdict_name(code), r->variant, r->release,
           seconds(r->end_us - r->start_us), r->results);
}

static void drain_stderr(GObject *src, GAsyncResult *res, gpointer data)
{
    Run *r = data;
    g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish(
        G_INPUT_STREAM(src), res, NULL);

    if (bytes && g_bytes_get_size(bytes)) {
        g_string_append_len(r->qemu_stderr, g_bytes_get_data(bytes, NULL),
                            g_bytes_get_size(bytes));
        g_input_stream_read_bytes_async(G_INPUT_STREAM(src), 4096,
                                        G_PRIORITY_DEFAULT, NULL,
                                        drain_stderr, r);
    }
}

static int run_batch(Run *r)
{
    g_autoptr(GPtrArray) argv = NULL;
    g_autoptr(GSubprocessLauncher) launcher = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *log_path = NULL, *junit_path = NULL;
    KtapTest *root;
    int code;

    for (guint i = 0; r->suites[i]; i++) {
        if (!suite_available(r, r->suites[i])) {
            g_printerr("patchbay: no suite named '%s' in the initramfs\n",
                       r->suites[i]);
            return EXIT_INCOMPLETE;
        }
    }
    if (g_mkdir_with_parents(r->results, 0755) < 0) {
        g_printerr("patchbay: cannot create %s: %s\n", r->results,
                   g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    r->sock_dir = g_dir_make_tmp("patchbay-XXXXXX", &error);
    if (!r->sock_dir) {
        g_printerr("patchbay: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    r->ctl = guestctl_new(r->sock_dir);
    argv = qemu_argv(r);
    log_path = g_build_filename(r->results, "console.log", NULL);
    r->console_log = fopen(log_path, "w");
    if (!r->console_log) {
        g_printerr("patchbay: cannot write %s: %s\n", log_path, g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    {
        g_autofree char *cmd = g_strjoinv(" ", (char **)argv->pdata);
        g_autofree char *cmd_path = g_build_filename(r->results, "qemu-cmdline",
                                                     NULL);
        g_autofree char *cmd_nl = g_strconcat(cmd, "\n", NULL);

        g_file_set_contents(cmd_path, cmd_nl, -1, NULL);
    }

    r->parser = ktap_parser_new();
    r->scanner = crash_scanner_new();
    r->qemu_stderr = g_string_new(NULL);
    r->loop = g_main_loop_new(NULL, FALSE);
    launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                         G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_subprocess_launcher_set_stdin_file_path(launcher, "/dev/null");
    r->start_us = now_us();
    watchdog_init(&r->watchdog, (gint64)r->suite_timeout_s * G_USEC_PER_SEC,
                  r->start_us);
    r->qemu_proc = g_subprocess_launcher_spawnv(launcher,
                                                (const char *const *)argv->pdata,
                                                &error);
    if (!r->qemu_proc) {
        g_printerr("patchbay: cannot start QEMU: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (!guestctl_start(r->ctl, 10000, &error)) {
        /* Only tests that use the channel will notice; keep going. */
        g_printerr("patchbay: warning: no guest control channel: %s\n",
                   error->message);
        g_clear_error(&error);
    }
    r->console = g_data_input_stream_new(
        g_subprocess_get_stdout_pipe(r->qemu_proc));
    g_data_input_stream_set_newline_type(r->console,
                                         G_DATA_STREAM_NEWLINE_TYPE_ANY);
    g_data_input_stream_read_line_async(r->console, G_PRIORITY_DEFAULT, NULL,
                                        on_console_line, r);
    g_input_stream_read_bytes_async(g_subprocess_get_stderr_pipe(r->qemu_proc),
                                    4096, G_PRIORITY_DEFAULT, NULL,
                                    drain_stderr, r);
    g_subprocess_wait_async(r->qemu_proc, NULL, on_qemu_exit, r);
    g_timeout_add_seconds(1, on_tick, r);
    g_unix_signal_add(SIGINT, on_signal, r);
    g_unix_signal_add(SIGTERM, on_signal, r);
    if (r->gdb_socket) {
        /* patchbay debug runs us in a session of our own, without
         * deadlines: if it dies (its terminal closed, killed), stop too
         * rather than keep a halted QEMU forever. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != r->parent_pid) {
            stop_qemu(r);
        }
    }
    g_main_loop_run(r->loop);

    fclose(r->console_log);
    guestctl_free(r->ctl);
    r->ctl = NULL;
    {
        g_autofree char *qmp = g_build_filename(r->sock_dir, "qmp.sock", NULL);
        g_autofree char *port = g_build_filename(r->sock_dir, "ctl.sock", NULL);

        g_unlink(qmp);
        g_unlink(port);
        g_rmdir(r->sock_dir);
    }
    ktap_parser_finish(r->parser, r->end_us);
    root = ktap_parser_root(r->parser);
    code = verdict(r, root);
    junit_path = g_build_filename(r->results, "junit.xml", NULL);
    if (!junit_write(junit_path, root, crash_scanner_reports(r->scanner),
                     &error) ||
        !write_summary(r, root, code, &error) ||
        !write_results_txt(r, root, &error)) {
        g_printerr("patchbay: cannot write results: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    print_report(r, root, code);
    return code;
}

int main(int argc, char **argv)
{
    Run r = {
        .variant = g_strdup("base"), .release = g_strdup("unknown"),
        .suite_timeout_s = 300, .boot_timeout_s = 60, .crash_grace_s = 5,
    };
    g_autoptr(GError) error = NULL;
    GOptionEntry entries[] = {
        { "qemu", 0, 0, G_OPTION_ARG_FILENAME, &r.qemu,
          "qemu-system-aarch64 to run", "PATH" },
        { "kernel", 0, 0, G_OPTION_ARG_FILENAME, &r.kernel,
          "kernel Image", "PATH" },
        { "initrd", 0, 0, G_OPTION_ARG_FILENAME, &r.initrd,
          "initramfs", "PATH" },
        { "results", 0, 0, G_OPTION_ARG_FILENAME, &r.results,
          "folder for console.log, junit.xml, summary.json", "DIR" },
        { "suite", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.suites,
          "suite to run (repeatable)", "NAME" },
        { "available", 0, 0, G_OPTION_ARG_FILENAME, &r.available,
          "file listing the suites in the initramfs", "PATH" },
        { "variant", 0, 0, G_OPTION_ARG_STRING, &r.variant,
          "kernel variant name, for the record", "NAME" },
        { "release", 0, 0, G_OPTION_ARG_STRING, &r.release,
          "kernel release, for the record", "STRING" },
        { "timeout", 0, 0, G_OPTION_ARG_INT, &r.suite_timeout_s,
          "seconds of console silence that count as a hang (300)", "S" },
        { "boot-timeout", 0, 0, G_OPTION_ARG_INT, &r.boot_timeout_s,
          "seconds until /init must have started (60)", "S" },
        { "qemu-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.qemu_args,
          "extra QEMU argument (repeatable)", "ARG" },
        { "append", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.append,
          "extra kernel command-line argument (repeatable)", "ARG" },
        { "gdb-socket", 0, 0, G_OPTION_ARG_FILENAME, &r.gdb_socket,
          "serve QEMU's gdbstub on this unix socket, add nokaslr; a run "
          "starts halted and has no wall-clock deadlines", "PATH" },
        { "interactive", 0, 0, G_OPTION_ARG_NONE, &r.interactive,
          "boot to a shell on this terminal instead of running suites", NULL },
        { "verbose", 'v', 0, G_OPTION_ARG_NONE, &r.verbose,
          "echo the console", NULL },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- boot the patchbay guest and judge its KTAP");

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-run: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (!r.qemu || !r.kernel || !r.initrd) {
        g_printerr("patchbay-run: --qemu, --kernel and --initrd are required\n");
        return EXIT_INCOMPLETE;
    }
    r.parent_pid = getppid();
    if (r.interactive) {
        return run_interactive(&r);
    }
    if (!r.suites || !r.suites[0] || !r.results) {
        g_printerr("patchbay-run: --suite and --results are required\n");
        return EXIT_INCOMPLETE;
    }
    return run_batch(&r);
}
