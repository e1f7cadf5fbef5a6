/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-run: boot the guest under QEMU, stream its serial console, parse
 * the KTAP that /init prints, catch kernel crashes and hangs, and write
 * console.log, junit.xml and summary.json.
 *
 * With --parse CONSOLE it boots nothing: it judges a saved console.log the
 * same way (as "kunit.py parse" does) and writes the same result files.
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

#include "guestctl.h"
#include "resultdir.h"

enum {
    EXIT_PASS = VERDICT_PASS,
    EXIT_FAIL = VERDICT_FAIL,
    EXIT_INCOMPLETE = VERDICT_INCOMPLETE,
};

typedef struct {
    /* options */
    char *qemu, *kernel, *initrd, *results, *variant, *release, *available;
    char *gdb_socket, *parse;
    char **suites, **qemu_args, **append;
    int suite_timeout_s, boot_timeout_s, crash_grace_s;
    gboolean verbose, interactive;

    /* run state */
    GMainLoop *loop;
    GSubprocess *qemu_proc;
    GDataInputStream *console;
    FILE *console_log;
    RunRecord rec;
    Watchdog watchdog;
    gboolean qemu_exited, killed, console_eof;
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
    CrashReport *c;

    fprintf(r->console_log, "%s\n", line);
    if (r->verbose) {
        printf("%s\n", line);
        fflush(stdout);
    }
    c = run_record_feed(&r->rec, line, t);
    watchdog_kick(&r->watchdog, t);
    if (c) {
        g_printerr("patchbay: kernel %s during %s\n", c->kind, c->test);
    }
}

/* Give up on the guest: record why in console.log too, for --parse. */
static void record_hang(Run *r, const char *why)
{
    g_autofree char *mark = run_record_hang(&r->rec, why);

    fprintf(r->console_log, "%s\n", mark);
}

static void on_console_line(GObject *src, GAsyncResult *res, gpointer data)
{
    Run *r = data;
    g_autoptr(GError) error = NULL;
    gsize len;
    g_autofree char *line = g_data_input_stream_read_line_finish_utf8(
        G_DATA_INPUT_STREAM(src), res, &len, &error);

    if (!line && error &&
        g_error_matches(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA)) {
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
    r->rec.end_us = now_us();
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
    if (r->gdb_socket && !r->rec.first_crash_us) {
        /* Under gdb the guest sits at breakpoints for as long as the user
         * likes: wall-clock deadlines do not apply. The guest's own
         * per-test timeouts still do, in virtual time, which stops while
         * the VM is halted. */
        return G_SOURCE_CONTINUE;
    }
    if (!r->rec.saw_ktap &&
        t - r->rec.start_us > r->boot_timeout_s * G_USEC_PER_SEC) {
        g_autofree char *why = g_strdup_printf(
            "no KTAP from /init within %d s of boot", r->boot_timeout_s);
        record_hang(r, why);
        g_printerr("patchbay: %s; stopping QEMU\n", why);
        stop_qemu(r);
    } else if (r->rec.saw_ktap && watchdog_expired(&r->watchdog, t)) {
        g_autofree char *running = run_record_running(&r->rec);
        g_autofree char *why =
            g_strdup_printf("no console output for %d s", r->suite_timeout_s);
        record_hang(r, why);
        g_printerr("patchbay: hang: %s during %s; stopping QEMU\n", why,
                   running ? running : "(boot)");
        stop_qemu(r);
    } else if (r->rec.first_fatal_us &&
               t - r->rec.first_fatal_us > r->crash_grace_s * G_USEC_PER_SEC) {
        /* panic=-1 normally ends QEMU; a lockup or a hung task may not. A
         * WARN or a KASAN report does not stop the run: the kernel goes
         * on, and so do the tests (the run fails all the same). */
        g_printerr(
            "patchbay: stopping QEMU %d s after the first fatal crash report\n",
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
        "console=ttyAMA0 panic=-1 oops=panic softlockup_panic=1 "
        "printk.devkmsg=on "
        "hung_task_panic=1 loglevel=5 rdinit=/sbin/init");

    if (r->interactive) {
        /* A shell may be asked for without any --suite: r->suites is NULL. */
        g_string_append(append, " patchbay.shell=1");
    } else {
        g_autofree char *suites = g_strjoinv(",", r->suites);

        /* /init kills an executable a little before our watchdog fires. */
        g_string_append_printf(append,
                               " patchbay.suites=%s patchbay.timeout=%d",
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
        "-M", "virt", "-cpu",       "cortex-a72", "-smp", "2",
        "-m", "1G",   "-nographic", "-no-reboot", "-nic", "none",
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
        g_ptr_array_add(
            argv,
            g_strdup_printf("socket,id=gdbstub,path=%s,server=on,wait=off",
                            r->gdb_socket));
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

    if (!r->available ||
        !g_file_get_contents(r->available, &list, NULL, NULL)) {
        return TRUE;
    }
    names = g_strsplit(list, "\n", -1);
    return g_strv_contains((const char *const *)names, suite);
}

static double seconds(gint64 us)
{
    return (double)us / G_USEC_PER_SEC;
}

/* Judge, write the result files, print the report: the end of a live run
 * and of a parse alike. */
static int judge(Run *r)
{
    g_autoptr(GError) error = NULL;
    Verdict code = run_record_verdict(&r->rec, (const char *const *)r->suites);

    if (code == VERDICT_INCOMPLETE && !r->rec.saw_ktap && r->qemu_proc) {
        g_printerr("patchbay: QEMU exit status %d\n", r->qemu_status);
        if (r->qemu_stderr->len) {
            g_printerr("%s", r->qemu_stderr->str);
        }
    }
    if (!result_dir_write(r->results, &r->rec, code, r->variant, r->release,
                          &error)) {
        g_printerr("patchbay: cannot write results: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    run_record_print(&r->rec);
    if (r->parse) {
        printf("patchbay: %s (variant %s, kernel %s), parsed from %s; "
               "results in %s\n",
               verdict_name(code), r->variant, r->release, r->parse,
               r->results);
    } else {
        printf("patchbay: %s (variant %s, kernel %s) in %.1f s; results in "
               "%s\n",
               verdict_name(code), r->variant, r->release,
               seconds(r->rec.end_us - r->rec.start_us), r->results);
    }
    return code;
}

/* --parse: the suites the console ran, when none were named. */
static char **console_suites(RunRecord *rec)
{
    KtapTest *root = ktap_parser_root(rec->parser);
    g_autoptr(GStrvBuilder) names = g_strv_builder_new();

    for (guint i = 0; i < root->subtests->len; i++) {
        KtapTest *t = g_ptr_array_index(root->subtests, i);

        g_strv_builder_add(names, t->name);
    }
    return g_strv_builder_end(names);
}

/* Judge a saved console.log, as the live run would have. */
static int run_parse(Run *r)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GError) error = NULL;

    if (!g_file_get_contents(r->parse, &text, NULL, &error)) {
        g_printerr("patchbay: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (!r->results) {
        r->results = g_path_get_dirname(r->parse);
    }
    if (g_mkdir_with_parents(r->results, 0755) < 0) {
        g_printerr("patchbay: cannot create %s: %s\n", r->results,
                   g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    /* No clock: every time is 0, and the summary says "parsed". */
    run_record_init(&r->rec, 0);
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (!lines[i + 1] && !*lines[i]) {
            break; /* after the final newline */
        }
        run_record_feed(&r->rec, lines[i], 0);
    }
    run_record_finish(&r->rec, 0);
    if (!r->suites || !r->suites[0]) {
        g_strfreev(r->suites);
        r->suites = console_suites(&r->rec);
    }
    if (g_str_equal(r->release, "unknown")) {
        /* /init's greeting: "# patchbay init: Linux 6.12.118 #5 SMP ..." */
        for (guint i = 0; lines[i]; i++) {
            const char *greeting = strstr(lines[i], "# patchbay init: Linux ");

            if (greeting) {
                g_free(r->release);
                r->release =
                    g_strndup(greeting + 23, strcspn(greeting + 23, " "));
                break;
            }
        }
    }
    return judge(r);
}

static void drain_stderr(GObject *src, GAsyncResult *res, gpointer data)
{
    Run *r = data;
    g_autoptr(GBytes) bytes =
        g_input_stream_read_bytes_finish(G_INPUT_STREAM(src), res, NULL);

    if (bytes && g_bytes_get_size(bytes)) {
        g_string_append_len(r->qemu_stderr, g_bytes_get_data(bytes, NULL),
                            g_bytes_get_size(bytes));
        g_input_stream_read_bytes_async(G_INPUT_STREAM(src), 4096,
                                        G_PRIORITY_DEFAULT, NULL, drain_stderr,
                                        r);
    }
}

static int run_batch(Run *r)
{
    g_autoptr(GPtrArray) argv = NULL;
    g_autoptr(GSubprocessLauncher) launcher = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *log_path = NULL;
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
        g_printerr("patchbay: cannot write %s: %s\n", log_path,
                   g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    {
        g_autofree char *cmd = g_strjoinv(" ", (char **)argv->pdata);
        g_autofree char *cmd_path =
            g_build_filename(r->results, "qemu-cmdline", NULL);
        g_autofree char *cmd_nl = g_strconcat(cmd, "\n", NULL);

        g_file_set_contents(cmd_path, cmd_nl, -1, NULL);
    }

    r->qemu_stderr = g_string_new(NULL);
    r->loop = g_main_loop_new(NULL, FALSE);
    launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                         G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_subprocess_launcher_set_stdin_file_path(launcher, "/dev/null");
    run_record_init(&r->rec, now_us());
    watchdog_init(&r->watchdog, (gint64)r->suite_timeout_s * G_USEC_PER_SEC,
                  r->rec.start_us);
    r->qemu_proc = g_subprocess_launcher_spawnv(
        launcher, (const char *const *)argv->pdata, &error);
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
    r->console =
        g_data_input_stream_new(g_subprocess_get_stdout_pipe(r->qemu_proc));
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

    /* QEMU has exited, so QMP's stream ends: read how. */
    if (g_strcmp0(guestctl_shutdown_reason(r->ctl), "guest-reset") == 0) {
        g_autofree char *mark = run_record_reset(
            &r->rec, "the guest reset itself: with panic=-1 a panic is a "
                     "reset (its lines may be garbled on the console), and "
                     "/init only ever powers off");

        fprintf(r->console_log, "%s\n", mark);
    }
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
    run_record_finish(&r->rec, r->rec.end_us);
    return judge(r);
}

int main(int argc, char **argv)
{
    Run r = {
        .variant = g_strdup("base"),
        .release = g_strdup("unknown"),
        .suite_timeout_s = 300,
        .boot_timeout_s = 60,
        .crash_grace_s = 5,
    };
    g_autoptr(GError) error = NULL;
    GOptionEntry entries[] = {
        {"qemu", 0, 0, G_OPTION_ARG_FILENAME, &r.qemu,
         "qemu-system-aarch64 to run", "PATH"},
        {"kernel", 0, 0, G_OPTION_ARG_FILENAME, &r.kernel, "kernel Image",
         "PATH"},
        {"initrd", 0, 0, G_OPTION_ARG_FILENAME, &r.initrd, "initramfs", "PATH"},
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &r.results,
         "folder for console.log, junit.xml, summary.json", "DIR"},
        {"suite", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.suites,
         "suite to run (repeatable)", "NAME"},
        {"available", 0, 0, G_OPTION_ARG_FILENAME, &r.available,
         "file listing the suites in the initramfs", "PATH"},
        {"variant", 0, 0, G_OPTION_ARG_STRING, &r.variant,
         "kernel variant name, for the record", "NAME"},
        {"release", 0, 0, G_OPTION_ARG_STRING, &r.release,
         "kernel release, for the record", "STRING"},
        {"timeout", 0, 0, G_OPTION_ARG_INT, &r.suite_timeout_s,
         "seconds of console silence that count as a hang (300)", "S"},
        {"boot-timeout", 0, 0, G_OPTION_ARG_INT, &r.boot_timeout_s,
         "seconds until /init must have started (60)", "S"},
        {"qemu-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.qemu_args,
         "extra QEMU argument (repeatable)", "ARG"},
        {"append", 0, 0, G_OPTION_ARG_STRING_ARRAY, &r.append,
         "extra kernel command-line argument (repeatable)", "ARG"},
        {"gdb-socket", 0, 0, G_OPTION_ARG_FILENAME, &r.gdb_socket,
         "serve QEMU's gdbstub on this unix socket, add nokaslr; a run "
         "starts halted and has no wall-clock deadlines",
         "PATH"},
        {"interactive", 0, 0, G_OPTION_ARG_NONE, &r.interactive,
         "boot to a shell on this terminal instead of running suites", NULL},
        {"parse", 0, 0, G_OPTION_ARG_FILENAME, &r.parse,
         "boot nothing: judge this saved console.log and write the result "
         "files (into --results, else beside it); --suite is optional",
         "CONSOLE"},
        {"verbose", 'v', 0, G_OPTION_ARG_NONE, &r.verbose, "echo the console",
         NULL},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- boot the patchbay guest and judge its KTAP");

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-run: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (r.parse) {
        return run_parse(&r);
    }
    if (!r.qemu || !r.kernel || !r.initrd) {
        g_printerr(
            "patchbay-run: --qemu, --kernel and --initrd are required\n");
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
