/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-run: boot the guest under QEMU, stream its serial console, parse
 * the KTAP that /init prints, catch kernel crashes and hangs, and write
 * console.log, junit.xml and summary.json.
 *
 * With --parse CONSOLE it boots nothing: it judges a saved console.log the
 * same way (as "kunit.py parse" does) and writes the same result files.
 * With --plan FILE it boots nothing either: it writes the VMs it would start,
 * as LAVA is to start them (patchbay lava export, docs/lava.md).
 * With --gcov FILE each VM also sends its kernel's gcov counters after its
 * suites, kept (bounded) in FILE.VM (gcovport.h, docs/coverage.md).
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

#include "gcovport.h"
#include "guestctl.h"
#include "ktaplimits.h"
#include "recording.h"
#include "resultdir.h"
#include "vmclock.h"

/*
 * --parse reads lines a little longer than the live reader keeps them: a
 * saved line has the live reader's cut mark and its VM's "NAME| " on top.
 */
#define PARSE_LINE_MAX (KTAP_LIMIT_LINE + 1024)

enum {
    EXIT_PASS = VERDICT_PASS,
    EXIT_FAIL = VERDICT_FAIL,
    EXIT_INCOMPLETE = VERDICT_INCOMPLETE,
    EXIT_DIVERGED = 3, /* --replay: the console or a verdict differ */
};

/* A recording QEMU gets SIGTERM, which ends its replay log cleanly (the
 * stop is an event the replay repeats); past this, SIGKILL. Generous:
 * a clean exit may wait for a CPU on a busy host. */
#define RECORD_TERM_GRACE_S 30

/* A recording VM whose replay log passes this is stopped: its size follows
 * what the guest does (interrupts, clock reads, console output) and its
 * time; our suites write 30 KiB to 4 MiB. PATCHBAY_RECORD_LOG_MAX_MIB
 * changes it (tests). */
#define RECORD_LOG_MAX_MIB 1024

typedef struct Run Run;

/* One QEMU: its suites, their hardware, its console. */
typedef struct {
    Run *run;
    RunRecord rec; /* also the VM's name, suites and clock */
    double cost;   /* the suites' expected seconds: the longest start first */
    GPtrArray *qemu_args; /* the suites' hardware (images/suites/NAME.qemu) */
    GPtrArray *append;    /* their kernel arguments (NAME.append) */
    GSubprocess *qemu_proc;
    GInputStream *console;        /* QEMU's stdout, borrowed */
    GuestCtlLines *console_lines; /* bounded: KTAP_LIMIT_LINE */
    char console_chunk[16384];
    Watchdog watchdog; /* on the VM's own clock: waiting for a CPU is no hang */
    VmClock clock;
    int pid;
    gboolean started, qemu_exited, killed, console_eof, finished;
    int qemu_status;
    GString *qemu_stderr;
    GuestCtl *ctl;
    GcovPort *gcov; /* with --gcov: the guest's counters, bounded */
    char *sock_dir;
    /* --record, --replay: the console's bytes as they came (bounded) */
    FILE *raw_console;
    gsize raw_bytes;
    gint64 term_us; /* --record: when QEMU got SIGTERM */
    const RecordedVm *recorded; /* --replay: what this VM replays */
    GPtrArray *argv;            /* QEMU's, as started */
    char *stop_why;             /* why stop_hung() stopped it */
} Vm;

struct Run {
    /* options */
    char *qemu, *kernel, *initrd, *results, *variant, *release, *available;
    char *gdb_socket, *parse, *plan, *suites_meta, *clock, *gcov;
    char *replay, *replay_vm, *vmlinux;
    char **suites, **qemu_args, **append;
    int suite_timeout_s, boot_timeout_s, crash_grace_s, jobs, deadline_s;
    gboolean verbose, interactive, all, record;
    gint64 record_log_max; /* bytes */
    Recording *recording; /* --record: being made; --replay: being replayed */

    /* run state */
    GMainLoop *loop;
    FILE *console_log;
    GPtrArray *vms;  /* Vm *, in the order of the suites */
    GPtrArray *todo; /* Vm * not started yet, the next one first */
    guint running;
    gboolean interrupted;
    pid_t parent_pid;
};

static gint64 now_us(void)
{
    return g_get_monotonic_time();
}

static void stop_qemu(Vm *vm)
{
    if (vm->qemu_proc && !vm->qemu_exited && !vm->killed) {
        vm->killed = TRUE;
        if (vm->run->record) {
            vm->term_us = now_us();
            g_subprocess_send_signal(vm->qemu_proc, SIGTERM);
        } else {
            g_subprocess_force_exit(vm->qemu_proc);
        }
    }
}

/* One line of console.log (and of -v): "NAME| line" when VMs run side by
 * side, so that each line keeps its VM (run_records_parse). */
static void log_line(Vm *vm, const char *line, gboolean echo)
{
    Run *r = vm->run;
    const char *name = r->vms->len > 1 ? vm->rec.vm_name : NULL;

    fprintf(r->console_log, "%s%s%s\n", name ? name : "",
            name ? RUN_VM_PREFIX : "", line);
    if (echo) {
        printf("%s%s%s\n", name ? name : "", name ? RUN_VM_PREFIX : "", line);
        fflush(stdout);
    }
}

static void on_line(Vm *vm, const char *line)
{
    gint64 t = now_us();
    gboolean was_limited = vm->rec.limited;
    CrashReport *c = NULL;

    /* past a limit nothing more is kept or judged (--parse does the same) */
    if (run_record_keep(&vm->rec, line)) {
        log_line(vm, line, vm->run->verbose);
        c = run_record_feed(&vm->rec, line, t);
        watchdog_kick(&vm->watchdog, vm_clock_now(&vm->clock, t));
    }
    if (vm->rec.limited && !was_limited) {
        GPtrArray *reports = run_record_crashes(&vm->rec);
        CrashReport *limit = g_ptr_array_index(reports, reports->len - 1);

        g_printerr("patchbay: %s (%s) during %s; stopping QEMU\n",
                   limit->excerpt, vm->rec.vm_name, limit->test);
        stop_qemu(vm);
    } else if (c) {
        g_printerr("patchbay: kernel %s during %s\n", c->kind, c->test);
    }
}

/* Give up on the guest: record why in console.log too, for --parse. */
static void record_hang(Vm *vm, const char *why)
{
    g_autofree char *mark = run_record_hang(&vm->rec, why);

    log_line(vm, mark, FALSE);
}

static void vm_maybe_done(Vm *vm);

/* One line from the bounded reader: at most KTAP_LIMIT_LINE bytes and the
 * cut mark. */
static void on_console_line(const char *line, gpointer data)
{
    Vm *vm = data;
    /* garbage on the serial line: console.log and summary.json are UTF-8 */
    g_autofree char *text = g_utf8_validate(line, -1, NULL)
                                ? g_strdup(line)
                                : g_utf8_make_valid(line, -1);

    g_strchomp(text);
    on_line(vm, text);
}

static void read_console(Vm *vm);

static void on_console_data(GObject *src, GAsyncResult *res, gpointer data)
{
    Vm *vm = data;
    gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, NULL);

    if (n <= 0) {
        guestctl_lines_flush(vm->console_lines, on_console_line, vm);
        vm->console_eof = TRUE;
        vm_maybe_done(vm);
        return;
    }
    if (vm->raw_console && vm->raw_bytes < KTAP_LIMIT_CONSOLE) {
        gsize keep = MIN((gsize)n, KTAP_LIMIT_CONSOLE - vm->raw_bytes);

        vm->raw_bytes += fwrite(vm->console_chunk, 1, keep, vm->raw_console);
    }
    guestctl_lines_feed(vm->console_lines, vm->console_chunk, n,
                        on_console_line, vm);
    read_console(vm);
}

static void read_console(Vm *vm)
{
    g_input_stream_read_async(vm->console, vm->console_chunk,
                              sizeof(vm->console_chunk), G_PRIORITY_DEFAULT,
                              NULL, on_console_data, vm);
}

static void on_qemu_exit(GObject *src, GAsyncResult *res, gpointer data)
{
    Vm *vm = data;

    g_subprocess_wait_finish(G_SUBPROCESS(src), res, NULL);
    vm->qemu_exited = TRUE;
    vm->qemu_status = g_subprocess_get_status(vm->qemu_proc);
    vm->rec.end_us = now_us();
    vm_maybe_done(vm);
}

/* Seconds to microseconds, in 64 bits: the default --deadline of seven
 * suites (60 + 7 * 300 s) is past INT_MAX microseconds. */
static gint64 us_of_s(int s)
{
    return (gint64)s * G_USEC_PER_SEC;
}

/* Record a hang (its "why" in the console and the results), say it, and
 * stop QEMU. */
static void stop_hung(Vm *vm, const char *why, const char *during)
{
    record_hang(vm, why);
    g_free(vm->stop_why);
    vm->stop_why = g_strdup(why); /* a recording keeps it for its replay */
    g_printerr("patchbay: hang: %s%s%s; stopping QEMU\n", why,
               during ? " during " : "", during ? during : "");
    stop_qemu(vm);
}

/* The boot deadline, the hang watchdog and the crash grace of one VM. */
static void check_vm(Vm *vm, gint64 t)
{
    Run *r = vm->run;
    g_autofree char *why = NULL;
    g_autofree char *running = NULL;
    gint64 vt;

    if (vm->killed && vm->term_us && !vm->qemu_exited &&
        t - vm->term_us > us_of_s(RECORD_TERM_GRACE_S)) {
        g_subprocess_force_exit(vm->qemu_proc);
        vm->term_us = 0;
    }
    if (!vm->started || vm->qemu_exited || vm->killed) {
        return;
    }
    if (r->record) {
        g_autofree char *log =
            recording_path(r->recording, vm->rec.vm_name, ".replay.bin");
        GStatBuf st;

        if (g_stat(log, &st) == 0 && st.st_size > r->record_log_max) {
            why = g_strdup_printf("its replay log passed %" G_GINT64_FORMAT
                                  " MiB (--record)",
                                  r->record_log_max >> 20);
            stop_hung(vm, why, NULL);
            return;
        }
    }
    if (r->gdb_socket && !vm->rec.first_crash_us) {
        /* Under gdb the guest sits at breakpoints for as long as the user
         * likes: wall-clock deadlines do not apply. The guest's own
         * per-test timeouts still do, in virtual time, which stops while
         * the VM is halted. */
        return;
    }
    /* Boot and silence in the VM's own time: not the time it waited for a
     * host CPU (vmclock.h). */
    vm_clock_sample(&vm->clock, vm->pid, t);
    vt = vm_clock_now(&vm->clock, t);
    if (r->replay) {
        /* The replay ends where the recording did: its own stops (a hang,
         * the crash grace) are events in the log. Only the deadline. */
        if (r->deadline_s > 0 &&
            vt - vm->rec.start_us > us_of_s(r->deadline_s)) {
            why = g_strdup_printf("the replay passed its deadline of %d s",
                                  r->deadline_s);
            stop_hung(vm, why, NULL);
        }
        return;
    }
    if (!vm->rec.saw_ktap &&
        vt - vm->rec.start_us > us_of_s(r->boot_timeout_s)) {
        why = g_strdup_printf("no KTAP from /init within %d s of boot",
                              r->boot_timeout_s);
        stop_hung(vm, why, NULL);
    } else if (r->deadline_s > 0 &&
               vt - vm->rec.start_us > us_of_s(r->deadline_s)) {
        /* a guest that chatters forever never trips the silence watchdog */
        why = g_strdup_printf("the deadline of %d s (--deadline) passed",
                              r->deadline_s);
        stop_hung(vm, why, NULL);
    } else if (vm->rec.saw_ktap && watchdog_expired(&vm->watchdog, vt)) {
        running = run_record_running(&vm->rec);
        why = vm->clock.stalled_us < G_USEC_PER_SEC
                  ? g_strdup_printf("no console output for %d s",
                                    r->suite_timeout_s)
                  : g_strdup_printf("no console output for %d s of the VM's "
                                    "own time (it waited %.0f s more for a "
                                    "host CPU)",
                                    r->suite_timeout_s,
                                    vm->clock.stalled_us / 1e6);
        stop_hung(vm, why, running ? running : "(boot)");
    } else if (vm->rec.first_fatal_us &&
               t - vm->rec.first_fatal_us > us_of_s(r->crash_grace_s)) {
        /* panic=-1 normally ends QEMU; a lockup or a hung task may not. A
         * WARN or a KASAN report does not stop the run: the kernel goes
         * on, and so do the tests (the run fails all the same). */
        g_printerr(
            "patchbay: stopping QEMU %d s after the first fatal crash report\n",
            r->crash_grace_s);
        stop_qemu(vm);
    }
}

/* Once a second. */
static gboolean on_tick(gpointer data)
{
    Run *r = data;
    gint64 t = now_us();

    for (guint i = 0; i < r->vms->len; i++) {
        check_vm(g_ptr_array_index(r->vms, i), t);
    }
    return G_SOURCE_CONTINUE;
}

static gboolean on_signal(gpointer data)
{
    Run *r = data;

    g_printerr("patchbay: interrupted; stopping QEMU\n");
    r->interrupted = TRUE; /* and start no more VMs */
    for (guint i = 0; i < r->vms->len; i++) {
        stop_qemu(g_ptr_array_index(r->vms, i));
    }
    return G_SOURCE_CONTINUE;
}

static void add_gdb_args(Run *r, GPtrArray *argv)
{
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
}

/* --replay: the recorded argv, replaying, with this run's QMP and gdb. */
static GPtrArray *replay_argv(Run *r, Vm *vm)
{
    GPtrArray *argv = recording_replay_argv(vm->recorded, r->qemu);

    g_ptr_array_remove_index(argv, argv->len - 1); /* the NULL */
    if (vm->ctl) {
        guestctl_add_qmp_args(vm->ctl, argv);
    }
    add_gdb_args(r, argv);
    g_ptr_array_add(argv, NULL);
    return argv;
}

static GPtrArray *qemu_argv(Run *r, Vm *vm)
{
    GPtrArray *argv;
    g_autoptr(GString) append = NULL;

    if (vm->recorded) {
        return replay_argv(r, vm);
    }
    argv = g_ptr_array_new_with_free_func(g_free);
    /*
     * printk.devkmsg=on: the guest's test marks in /dev/kmsg are not
     * rate-limited away (ktap_marks_feed). Under LAVA (--plan) a panicked
     * kernel waits instead of resetting, so that the end of its report
     * reaches the console and ends the job's monitor, and /init repeats
     * each result with its whole name (patchbay.lava).
     */
    append = g_string_new(r->plan ? "console=ttyAMA0 panic=0 patchbay.lava=1 "
                                  : "console=ttyAMA0 panic=-1 ");
    g_string_append(append, "oops=panic softlockup_panic=1 printk.devkmsg=on "
                            "hung_task_panic=1 loglevel=5 rdinit=/sbin/init");
    if (r->interactive) {
        /* A shell may be asked for without any --suite. */
        g_string_append(append, " patchbay.shell=1");
    } else {
        g_autofree char *suites = g_strjoinv(",", vm->rec.suites);

        /*
         * /init kills an executable a little before our watchdog fires. On
         * the real clock the guest's time runs on while its VM waits for a
         * busy host's CPUs, which our watchdog does not count (vmclock.h):
         * there /init's timeout is only a backstop, three times longer.
         */
        g_string_append_printf(
            append, " patchbay.suites=%s patchbay.timeout=%d", suites,
            vm->rec.virtual_clock ? MAX(r->suite_timeout_s - 10, 1)
                                  : 3 * r->suite_timeout_s);
    }
    if (r->all) {
        g_string_append(append, " patchbay.slow=1");
    }
    if (vm->rec.virtual_clock) {
        /* the guest's host waits must not sleep (common/pbctl.c) */
        g_string_append(append, " patchbay.clock=virtual");
    }
    if (r->gcov) {
        /* /init sends the counters after the suites (init/gcovsend.c) */
        g_string_append(append, " patchbay.gcov=1");
    }
    if (r->gdb_socket) {
        /* Symbols at their link addresses (boot-utils, vng --debug). */
        g_string_append(append, " nokaslr");
    }
    for (guint i = 0; i < vm->append->len; i++) {
        g_string_append_printf(append, " %s",
                               (char *)g_ptr_array_index(vm->append, i));
    }
    for (char **a = r->append; a && *a; a++) {
        g_string_append_printf(append, " %s", *a);
    }
    const char *fixed[] = {
        "-M", "virt",       "-cpu",       "cortex-a72", "-m",
        "1G", "-nographic", "-no-reboot", "-nic",       "none",
    };
    g_ptr_array_add(argv, g_strdup(r->qemu));
    for (guint i = 0; i < G_N_ELEMENTS(fixed); i++) {
        g_ptr_array_add(argv, g_strdup(fixed[i]));
    }
    g_ptr_array_add(argv, g_strdup("-smp"));
    g_ptr_array_add(argv, g_strdup_printf("%d", vm->rec.cpus));
    if (r->record) {
        /* its -icount, its log and snapshot image, in QEMU's folder */
        recording_add_record_args(vm->rec.vm_name, argv);
    } else if (vm->rec.virtual_clock) {
        /* The guest's idle time costs no wall time: its clock jumps to the
         * next timer (docs/architecture.md, "Clocks"). */
        g_ptr_array_add(argv, g_strdup("-icount"));
        g_ptr_array_add(argv, g_strdup("shift=auto,sleep=off"));
    }
    g_ptr_array_add(argv, g_strdup("-kernel"));
    g_ptr_array_add(argv, g_strdup(r->record ? RECORDING_KERNEL : r->kernel));
    g_ptr_array_add(argv, g_strdup("-initrd"));
    g_ptr_array_add(argv, g_strdup(r->record ? RECORDING_INITRD : r->initrd));
    g_ptr_array_add(argv, g_strdup("-append"));
    g_ptr_array_add(argv, g_strdup(append->str));
    if (vm->ctl) {
        guestctl_add_qemu_args(vm->ctl, argv);
        if (vm->gcov) {
            gcovport_add_qemu_args(vm->gcov, argv);
        }
    } else if (r->plan) {
        guestctl_add_in_qemu_args(argv);
    }
    add_gdb_args(r, argv);
    for (guint i = 0; i < vm->qemu_args->len; i++) {
        g_ptr_array_add(argv, g_strdup(g_ptr_array_index(vm->qemu_args, i)));
    }
    for (char **a = r->qemu_args; a && *a; a++) {
        g_ptr_array_add(argv, g_strdup(*a));
    }
    g_ptr_array_add(argv, NULL);
    return argv;
}

/*
 * The lines of a suite's metadata file (images/suites/NAME.EXT), without
 * comments and blank lines, appended to out.  Suites that share one file
 * (msmbench.qemu links to msm.qemu) add it once per VM: seen holds the
 * contents already added.  A missing file adds nothing.
 */
static gboolean add_meta_lines(Run *r, const char *suite, const char *ext,
                               GPtrArray *out, GHashTable *seen, GError **error)
{
    g_autofree char *name = g_strdup_printf("%s.%s", suite, ext);
    g_autofree char *path = g_build_filename(r->suites_meta, name, NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        return TRUE;
    }
    if (!g_file_get_contents(path, &text, NULL, error)) {
        return FALSE;
    }
    if (g_hash_table_contains(seen, text)) {
        return TRUE;
    }
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        g_strstrip(lines[i]);
        if (*lines[i] && *lines[i] != '#') {
            g_ptr_array_add(out, g_strdup(lines[i]));
        }
    }
    g_hash_table_add(seen, g_steal_pointer(&text));
    return TRUE;
}

#define VM_CPUS_DEFAULT 2
#define VM_CPUS_MAX     8

/*
 * images/suites/NAME.vm, a key file: [vm] clock=virtual|real, cpus=N (the
 * vCPUs, VM_CPUS_DEFAULT when absent), cost=S (the expected wall seconds),
 * cost_all=S (with --all, when the slow tests change it), alone=true (its
 * kernel arguments are what it tests: it never shares a VM).
 */
static gboolean read_vm_meta(Run *r, const char *suite, gboolean *virtual_clock,
                             int *cpus, double *cost, gboolean *alone,
                             GError **error)
{
    g_autofree char *name = g_strdup_printf("%s.vm", suite);
    g_autofree char *path = g_build_filename(r->suites_meta, name, NULL);
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autofree char *clock = NULL;

    *virtual_clock = FALSE;
    *cpus = VM_CPUS_DEFAULT;
    *cost = 0;
    *alone = FALSE;
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        return TRUE;
    }
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, error)) {
        g_prefix_error(error, "%s: ", path);
        return FALSE;
    }
    clock = g_key_file_get_string(kf, "vm", "clock", NULL);
    if (clock && !g_str_equal(clock, "virtual") &&
        !g_str_equal(clock, "real")) {
        g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                    "%s: clock must be virtual or real, not '%s'", path, clock);
        return FALSE;
    }
    *virtual_clock = g_strcmp0(clock, "virtual") == 0;
    if (g_key_file_has_key(kf, "vm", "alone", NULL)) {
        *alone = g_key_file_get_boolean(kf, "vm", "alone", error);
        if (*error) {
            g_prefix_error(error, "%s: ", path);
            return FALSE;
        }
    }
    if (g_key_file_has_key(kf, "vm", "cpus", NULL)) {
        *cpus = g_key_file_get_integer(kf, "vm", "cpus", error);
        if (!*error && (*cpus < 1 || *cpus > VM_CPUS_MAX)) {
            g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                        "%s: cpus must be 1 to %d, not %d", path, VM_CPUS_MAX,
                        *cpus);
        }
        if (*error) {
            g_prefix_error(error, "%s: ", path);
            return FALSE;
        }
    }
    {
        const char *key =
            r->all && g_key_file_has_key(kf, "vm", "cost_all", NULL)
                ? "cost_all"
                : "cost";

        if (!g_key_file_has_key(kf, "vm", key, NULL)) {
            return TRUE;
        }
        *cost = g_key_file_get_double(kf, "vm", key, error);
        if (*error) {
            g_prefix_error(error, "%s: ", path);
            return FALSE;
        }
    }
    return TRUE;
}

/*
 * A VM for suites (NULL-terminated, copied): their hardware and kernel
 * arguments, and the virtual clock if every one of them asks for it (and
 * --clock=real does not forbid it).
 */
static Vm *vm_new(Run *r, const char *name, char **suites, gboolean may_warp,
                  GError **error)
{
    Vm *vm = g_new0(Vm, 1);
    g_autoptr(GHashTable) seen =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gboolean all_virtual = suites && suites[0];

    vm->run = r;
    run_record_init(&vm->rec, 0);
    vm->rec.vm_name = g_strdup(name);
    vm->rec.suites = suites ? g_strdupv(suites) : g_new0(char *, 1);
    vm->qemu_args = g_ptr_array_new_with_free_func(g_free);
    vm->append = g_ptr_array_new_with_free_func(g_free);
    vm->qemu_stderr = g_string_new(NULL);
    g_ptr_array_add(r->vms, vm);
    for (guint i = 0; r->suites_meta && suites && suites[i]; i++) {
        gboolean virtual_clock, alone;
        int cpus;
        double cost;

        if (!add_meta_lines(r, suites[i], "qemu", vm->qemu_args, seen, error) ||
            !add_meta_lines(r, suites[i], "append", vm->append, seen, error) ||
            !read_vm_meta(r, suites[i], &virtual_clock, &cpus, &cost, &alone,
                          error)) {
            return NULL;
        }
        if (alone && (i || suites[1])) {
            /* drop_alone_suites() keeps this from happening */
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                        "suite %s runs in a VM of its own", suites[i]);
            return NULL;
        }
        all_virtual = all_virtual && virtual_clock;
        /* suites that share a VM (a shell) get the most any one asks for */
        vm->rec.cpus = i ? MAX(vm->rec.cpus, cpus) : cpus;
        vm->cost += cost;
    }
    if (!vm->rec.cpus) {
        vm->rec.cpus = VM_CPUS_DEFAULT;
    }
    vm->rec.virtual_clock = may_warp && r->suites_meta && all_virtual &&
                            !g_str_equal(r->clock, "real");
    return vm;
}

static void vm_free(gpointer data)
{
    Vm *vm = data;

    run_record_clear(&vm->rec);
    vm_clock_clear(&vm->clock);
    g_ptr_array_unref(vm->qemu_args);
    g_ptr_array_unref(vm->append);
    guestctl_lines_free(vm->console_lines);
    gcovport_free(vm->gcov);
    g_clear_object(&vm->qemu_proc);
    g_clear_pointer(&vm->argv, g_ptr_array_unref);
    g_free(vm->stop_why);
    if (vm->raw_console) {
        fclose(vm->raw_console);
    }
    g_string_free(vm->qemu_stderr, TRUE);
    g_free(vm->sock_dir);
    g_free(vm);
}

/*
 * A shell or a gdb session boots one VM with every suite's hardware and
 * kernel arguments. A suite whose kernel arguments are what it tests
 * (alone=true: w1params boots with a value the kernel must refuse) would
 * change the others' kernel: leave it out, and say how to get it.
 */
static gboolean drop_alone_suites(Run *r, GError **error)
{
    g_autoptr(GStrvBuilder) kept = g_strv_builder_new();

    if (!r->suites || !r->suites[0] || !r->suites[1] || !r->suites_meta) {
        return TRUE;
    }
    for (guint i = 0; r->suites[i]; i++) {
        gboolean virtual_clock, alone;
        int cpus;
        double cost;

        if (!read_vm_meta(r, r->suites[i], &virtual_clock, &cpus, &cost, &alone,
                          error)) {
            return FALSE;
        }
        if (alone) {
            g_printerr("patchbay: suite %s left out: it runs in a VM of its "
                       "own (its kernel arguments are what it tests); name it "
                       "alone: --suite %s\n",
                       r->suites[i], r->suites[i]);
        } else {
            g_strv_builder_add(kept, r->suites[i]);
        }
    }
    g_strfreev(r->suites);
    r->suites = g_strv_builder_end(kept);
    return TRUE;
}

/* Interactive use (patchbay shell): QEMU owns the terminal. */
static int run_interactive(Run *r)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) argv = NULL;
    int status;
    Vm *vm;

    /* One VM with every suite's hardware; on the real clock, for a human. */
    r->vms = g_ptr_array_new_with_free_func(vm_free);
    vm = vm_new(r, "shell", r->suites, FALSE, &error);

    if (!vm) {
        g_printerr("patchbay: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    argv = qemu_argv(r, vm);
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

/* Judge, write the result files, print the report: the end of a live run
 * and of a parse alike. */
static int judge(Run *r, RunRecord *const *recs, guint n)
{
    g_autoptr(GError) error = NULL;
    Verdict code = run_records_verdict(recs, n);

    for (guint i = 0; r->vms && i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);

        if (vm->started && !vm->rec.saw_ktap) {
            g_printerr("patchbay: QEMU (%s) exit status %d\n", vm->rec.vm_name,
                       vm->qemu_status);
            if (vm->qemu_stderr->len) {
                g_printerr("%s", vm->qemu_stderr->str);
            }
        }
    }
    if (!result_dir_write(r->results, recs, n, r->parse ? 0 : r->jobs, code,
                          r->variant, r->release, &error)) {
        g_printerr("patchbay: cannot write results: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    run_record_print(recs, n);
    if (r->parse) {
        printf("patchbay: %s (variant %s, kernel %s), parsed from %s; "
               "results in %s\n",
               verdict_name(code), r->variant, r->release, r->parse,
               r->results);
    } else {
        printf("patchbay: %s (variant %s, kernel %s) in %.1f s; results in "
               "%s\n",
               verdict_name(code), r->variant, r->release,
               run_records_wall_s(recs, n), r->results);
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

static void add_console_line(const char *line, gpointer data)
{
    g_ptr_array_add(data, g_strdup(line));
}

/*
 * A saved console's lines (NULL-terminated), through the live run's bounded
 * reader: a line no live run could have written is cut as it would have
 * been, and the rest of the limits apply as the lines are judged.
 */
static GPtrArray *read_console_file(const char *path, GError **error)
{
    g_autoptr(GFile) file = g_file_new_for_path(path);
    g_autoptr(GFileInputStream) in = g_file_read(file, NULL, error);
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
    GuestCtlLines *splitter;
    char chunk[65536];
    gssize n;

    if (!in) {
        return NULL;
    }
    splitter = guestctl_lines_new_console(PARSE_LINE_MAX, KTAP_LIMIT_LINE_CUT);
    while ((n = g_input_stream_read(G_INPUT_STREAM(in), chunk, sizeof(chunk),
                                    NULL, error)) > 0) {
        guestctl_lines_feed(splitter, chunk, n, add_console_line, lines);
    }
    guestctl_lines_flush(splitter, add_console_line, lines);
    guestctl_lines_free(splitter);
    if (n < 0) {
        return NULL;
    }
    g_ptr_array_add(lines, NULL);
    return g_steal_pointer(&lines);
}

/* Judge a saved console.log, as the live run would have. */
static int run_parse(Run *r)
{
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) recs = NULL;

    lines = read_console_file(r->parse, &error);
    if (!lines) {
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
    recs = run_records_parse((const char *const *)lines->pdata);
    if (recs->len == 1) {
        RunRecord *rec = g_ptr_array_index(recs, 0);

        /* --suite names what the run was to run: missing ones count */
        if (r->suites && r->suites[0]) {
            g_strfreev(rec->suites);
            rec->suites = g_strdupv(r->suites);
        } else if (!rec->suites || !rec->suites[0]) {
            g_strfreev(rec->suites);
            rec->suites = console_suites(rec);
        }
    }
    if (g_str_equal(r->release, "unknown")) {
        /* /init's greeting: "# patchbay init: Linux 6.12.118 #5 SMP ..." */
        for (guint i = 0; i + 1 < lines->len; i++) {
            const char *greeting =
                strstr(g_ptr_array_index(lines, i), "# patchbay init: Linux ");

            if (greeting) {
                g_free(r->release);
                r->release =
                    g_strndup(greeting + 23, strcspn(greeting + 23, " "));
                break;
            }
        }
    }
    return judge(r, (RunRecord *const *)recs->pdata, recs->len);
}

static void drain_stderr(GObject *src, GAsyncResult *res, gpointer data)
{
    Vm *vm = data;
    g_autoptr(GBytes) bytes =
        g_input_stream_read_bytes_finish(G_INPUT_STREAM(src), res, NULL);

    /* bounded: QEMU's own errors, shown when a boot fails */
    if (bytes && g_bytes_get_size(bytes)) {
        if (vm->qemu_stderr->len < 64 * 1024) {
            g_string_append_len(vm->qemu_stderr, g_bytes_get_data(bytes, NULL),
                                g_bytes_get_size(bytes));
        }
        g_input_stream_read_bytes_async(G_INPUT_STREAM(src), 4096,
                                        G_PRIORITY_DEFAULT, NULL, drain_stderr,
                                        vm);
    }
}

static void on_gcov_end(gpointer data)
{
    vm_maybe_done(data);
}

/* With --gcov: the VM's stream into FILE.VM (the VM's name is ours). */
static void save_gcov(Vm *vm)
{
    Run *r = vm->run;
    g_autofree char *path = g_strdup_printf("%s.%s", r->gcov, vm->rec.vm_name);
    g_autoptr(GError) error = NULL;
    guint64 received = gcovport_received(vm->gcov);

    if (!gcovport_write(vm->gcov, path, &error)) {
        g_printerr("patchbay: %s: cannot write %s: %s\n", vm->rec.vm_name, path,
                   error->message);
    } else if (received > GCOVPORT_MAX_BYTES) {
        g_printerr("patchbay: %s: the guest sent %" G_GUINT64_FORMAT
                   " bytes of gcov data; kept the first %u in %s (cut)\n",
                   vm->rec.vm_name, received, GCOVPORT_MAX_BYTES, path);
    }
}

static gboolean start_vm(Vm *vm, GError **error)
{
    Run *r = vm->run;
    g_autoptr(GPtrArray) argv = NULL;
    g_autoptr(GSubprocessLauncher) launcher = NULL;

    vm->sock_dir = g_dir_make_tmp("patchbay-XXXXXX", error);
    if (!vm->sock_dir) {
        return FALSE;
    }
    /* A recorded VM has no input from outside: QEMU serves the port. */
    vm->ctl = guestctl_new(vm->sock_dir, r->recording != NULL);
    if (r->gcov) {
        vm->gcov = gcovport_new(vm->sock_dir, GCOVPORT_MAX_BYTES);
    }
    if (r->recording) {
        g_autofree char *raw =
            r->record ? recording_path(r->recording, vm->rec.vm_name,
                                       ".console")
                      : g_strdup_printf("%s/%s.console", r->results,
                                        vm->rec.vm_name);

        if (r->record && !recording_create_snapshot_image(
                             r->recording, vm->rec.vm_name, error)) {
            return FALSE;
        }
        vm->raw_console = fopen(raw, "w");
        if (!vm->raw_console) {
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
                        "cannot write %s: %s", raw, g_strerror(errno));
            return FALSE;
        }
    }
    argv = qemu_argv(r, vm);
    vm->argv = g_ptr_array_ref(argv);
    {
        g_autofree char *cmd = g_strjoinv(" ", (char **)argv->pdata);
        g_autofree char *cmd_path =
            g_build_filename(r->results, "qemu-cmdline", NULL);
        FILE *f = fopen(cmd_path, "a");

        /* one line per VM, in the order they started */
        if (f) {
            fprintf(f, "%s\n", cmd);
            fclose(f);
        }
    }
    launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                         G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_subprocess_launcher_set_stdin_file_path(launcher, "/dev/null");
    if (r->recording) {
        /* the recording's argv names its files relative to its folder */
        g_subprocess_launcher_set_cwd(launcher, r->recording->dir);
    }
    vm->rec.start_us = now_us();
    watchdog_init(&vm->watchdog, us_of_s(r->suite_timeout_s), vm->rec.start_us);
    vm->qemu_proc = g_subprocess_launcher_spawnv(
        launcher, (const char *const *)argv->pdata, error);
    if (!vm->qemu_proc) {
        g_prefix_error(error, "cannot start QEMU: ");
        return FALSE;
    }
    vm->started = TRUE;
    vm->pid = atoi(g_subprocess_get_identifier(vm->qemu_proc));
    vm_clock_init(&vm->clock, vm->rec.start_us);
    r->running++;
    if (!guestctl_start(vm->ctl, 10000, error)) {
        /* Only tests that use the channel will notice; keep going. */
        g_printerr("patchbay: warning: no guest control channel (%s): %s\n",
                   vm->rec.vm_name, (*error)->message);
        g_clear_error(error);
    }
    if (vm->gcov && !gcovport_start(vm->gcov, 10000, on_gcov_end, vm, error)) {
        g_printerr("patchbay: warning: no gcov port (%s): %s\n",
                   vm->rec.vm_name, (*error)->message);
        g_clear_error(error);
    }
    /* bounded, unlike g_data_input_stream_read_line: a guest that never
     * ends its line must not make us hold it whole */
    vm->console = g_subprocess_get_stdout_pipe(vm->qemu_proc);
    vm->console_lines =
        guestctl_lines_new_console(KTAP_LIMIT_LINE, KTAP_LIMIT_LINE_CUT);
    read_console(vm);
    g_input_stream_read_bytes_async(g_subprocess_get_stderr_pipe(vm->qemu_proc),
                                    4096, G_PRIORITY_DEFAULT, NULL,
                                    drain_stderr, vm);
    g_subprocess_wait_async(vm->qemu_proc, NULL, on_qemu_exit, vm);
    return TRUE;
}

/* Start VMs until --jobs run; quit when nothing runs or waits. */
static void start_next(Run *r)
{
    while (!r->interrupted && r->todo->len && r->running < (guint)r->jobs) {
        Vm *vm = g_ptr_array_steal_index(r->todo, 0);
        g_autoptr(GError) error = NULL;

        if (!start_vm(vm, &error)) {
            /* the VM's suites produce no result: the run is incomplete */
            g_printerr("patchbay: %s: %s\n", vm->rec.vm_name, error->message);
        }
    }
    if (r->running == 0) {
        g_main_loop_quit(r->loop);
    }
}

static void vm_maybe_done(Vm *vm)
{
    Run *r = vm->run;

    if (!vm->qemu_exited || !vm->console_eof || vm->finished ||
        (vm->gcov && !gcovport_ended(vm->gcov))) {
        return;
    }
    vm->finished = TRUE;
    /* QEMU has exited, so QMP's stream ends: read how. */
    if (g_strcmp0(guestctl_shutdown_reason(vm->ctl), "guest-reset") == 0) {
        g_autofree char *mark = run_record_reset(
            &vm->rec, "the guest reset itself: with panic=-1 a panic is a "
                      "reset (its lines may be garbled on the console), and "
                      "/init only ever powers off");

        log_line(vm, mark, FALSE);
    }
    guestctl_free(vm->ctl);
    vm->ctl = NULL;
    if (vm->gcov) {
        save_gcov(vm);
        g_unlink(gcovport_socket_path(vm->gcov));
        gcovport_free(vm->gcov);
        vm->gcov = NULL;
    }
    {
        g_autofree char *qmp = g_build_filename(vm->sock_dir, "qmp.sock", NULL);
        g_autofree char *port =
            g_build_filename(vm->sock_dir, "ctl.sock", NULL);

        g_unlink(qmp);
        g_unlink(port);
        g_rmdir(vm->sock_dir);
    }
    if (vm->recorded && vm->recorded->stop_why && !vm->stop_why) {
        /* The recording ended where the runner stopped it (its SIGTERM is
         * in the log): the same judgment, at the same point. */
        record_hang(vm, vm->recorded->stop_why);
    }
    run_record_finish(&vm->rec, vm->rec.end_us);
    r->running--;
    start_next(r);
}

/*
 * --replay: the recorded VMs, each with its recorded argv; under gdb only
 * one (--vm, else the first that did not pass).
 */
static gboolean plan_replay_vms(Run *r, GError **error)
{
    g_autoptr(GStrvBuilder) suites = g_strv_builder_new();

    for (guint i = 0; i < r->recording->vms->len; i++) {
        const RecordedVm *rv = g_ptr_array_index(r->recording->vms, i);
        Vm *vm;

        if (r->gdb_socket &&
            rv != recording_find_vm(r->recording, r->replay_vm)) {
            continue;
        }
        if (r->replay_vm && !g_str_equal(rv->name, r->replay_vm)) {
            continue;
        }
        vm = vm_new(r, rv->name, rv->suites, FALSE, error);
        if (!vm) {
            return FALSE;
        }
        vm->recorded = rv;
        vm->rec.cpus = rv->cpus;
        vm->rec.virtual_clock = rv->virtual_clock;
        g_strv_builder_addv(suites, (const char **)rv->suites);
    }
    if (!r->vms->len) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                    "%s has no VM %s", r->replay,
                    r->replay_vm ? r->replay_vm : "");
        return FALSE;
    }
    g_strfreev(r->suites);
    r->suites = g_strv_builder_end(suites);
    return TRUE;
}

static gint by_cost_desc(gconstpointer a, gconstpointer b)
{
    const Vm *x = *(Vm *const *)a, *y = *(Vm *const *)b;

    return (x->cost < y->cost) - (x->cost > y->cost);
}

/*
 * Plan the VMs: one per suite, each with only its own hardware and clock,
 * --jobs of them at once, the costliest first; under gdb one VM runs every
 * suite (one gdbstub, one kernel to stop).
 */
static gboolean plan_vms(Run *r, GError **error)
{
    r->vms = g_ptr_array_new_with_free_func(vm_free);
    if (r->replay) {
        return plan_replay_vms(r, error);
    }
    if (r->gdb_socket) {
        g_autofree char *name = g_strjoinv("+", r->suites);

        return vm_new(r, name, r->suites, TRUE, error) != NULL;
    }
    for (guint i = 0; r->suites[i]; i++) {
        char *one[] = {r->suites[i], NULL};
        Vm *vm = vm_new(r, r->suites[i], one, TRUE, error);

        if (!vm) {
            return FALSE;
        }
        if (r->record) {
            vm->rec.cpus = 1; /* QEMU records one vCPU, no more */
        }
    }
    return TRUE;
}

/* Every suite the run names is in the initramfs (else a message). */
static gboolean suites_available(Run *r)
{
    for (guint i = 0; r->suites[i]; i++) {
        if (!suite_available(r, r->suites[i])) {
            g_printerr("patchbay: no suite named '%s' in the initramfs\n",
                       r->suites[i]);
            return FALSE;
        }
    }
    return TRUE;
}

/*
 * --plan: the VMs, as JSON, for a job that LAVA runs without us: the control
 * channel served inside QEMU (chardev patchbay-ctl) instead of by this
 * program, and the time each may take.
 */
static int run_plan(Run *r)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;

    if (!suites_available(r)) {
        return EXIT_INCOMPLETE;
    }
    if (!plan_vms(r, &error)) {
        g_printerr("patchbay: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "vms");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);
        g_autoptr(GPtrArray) argv = qemu_argv(r, vm);
        guint nsuites = g_strv_length(vm->rec.suites);

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, vm->rec.vm_name);
        json_builder_set_member_name(b, "suites");
        json_builder_begin_array(b);
        for (guint j = 0; j < nsuites; j++) {
            json_builder_add_string_value(b, vm->rec.suites[j]);
        }
        json_builder_end_array(b);
        json_builder_set_member_name(b, "cpus");
        json_builder_add_int_value(b, vm->rec.cpus);
        json_builder_set_member_name(b, "clock");
        json_builder_add_string_value(b, vm->rec.virtual_clock ? "virtual"
                                                               : "real");
        /* what our watchdog would allow: the boot, then each suite's */
        json_builder_set_member_name(b, "timeout_s");
        json_builder_add_int_value(b, r->boot_timeout_s +
                                          (gint64)r->suite_timeout_s * nsuites);
        json_builder_set_member_name(b, "argv");
        json_builder_begin_array(b);
        for (guint j = 0; j + 1 < argv->len; j++) {
            json_builder_add_string_value(b, g_ptr_array_index(argv, j));
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    if (!json_generator_to_file(gen, r->plan, &error)) {
        g_printerr("patchbay: cannot write %s: %s\n", r->plan, error->message);
        return EXIT_INCOMPLETE;
    }
    return EXIT_PASS;
}

/* --record: keep what replays it, and say where it is. */
static int finish_recording(Run *r, int code)
{
    g_autoptr(GError) error = NULL;
    guint64 bytes = 0;

    for (guint i = 0; i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);
        g_autofree char *log =
            recording_path(r->recording, vm->rec.vm_name, ".replay.bin");
        GStatBuf st;

        if (!vm->argv) {
            continue; /* never started: nothing to replay */
        }
        recording_add_vm(r->recording, vm->rec.vm_name, vm->rec.suites,
                         vm->argv, vm->rec.cpus, vm->rec.virtual_clock,
                         verdict_name(run_records_verdict(
                             (RunRecord *const[]){&vm->rec}, 1)),
                         vm->stop_why);
        if (g_stat(log, &st) == 0) {
            bytes += st.st_size;
        }
    }
    if (!recording_save(r->recording, &error)) {
        g_printerr("patchbay: cannot save the recording: %s\n",
                   error->message);
        return EXIT_INCOMPLETE;
    }
    printf("patchbay: recorded %u VM(s) in %s (replay logs: %.1f MiB); "
           "replay it with: scripts/patchbay replay %s\n",
           r->recording->vms->len, r->recording->dir, bytes / 1048576.0,
           r->results);
    return code;
}

/*
 * --replay: each VM's console byte for byte, and its verdict, against the
 * recording's. The replay's own verdict when all match, else
 * EXIT_DIVERGED.
 */
static int judge_replay(Run *r, int code)
{
    gboolean all_same = TRUE;

    if (r->gdb_socket) {
        /* A reverse step loads the starting snapshot and replays up to
         * its target: the guest prints that stretch again. */
        printf("patchbay: replayed %s under gdb: the console is not compared "
               "(reverse execution replays parts of it again)\n",
               ((Vm *)g_ptr_array_index(r->vms, 0))->rec.vm_name);
        return code;
    }
    for (guint i = 0; i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);
        g_autoptr(GError) error = NULL;
        g_autofree char *was =
            recording_path(r->recording, vm->rec.vm_name, ".console");
        g_autofree char *is =
            g_strdup_printf("%s/%s.console", r->results, vm->rec.vm_name);
        g_autofree char *report = NULL;
        const char *verdict =
            verdict_name(run_records_verdict((RunRecord *const[]){&vm->rec}, 1));
        gboolean same;

        if (!recording_compare_consoles(was, is, &same, &report, &error)) {
            g_printerr("patchbay: replay of %s: %s\n", vm->rec.vm_name,
                       error->message);
            all_same = FALSE;
            continue;
        }
        printf("patchbay: replay of %s: console %s; verdict %s, recorded %s\n",
               vm->rec.vm_name, report, verdict, vm->recorded->verdict);
        if (!same || g_strcmp0(verdict, vm->recorded->verdict) != 0) {
            all_same = FALSE;
        }
    }
    if (!all_same) {
        printf("patchbay: the replay DIVERGED from the recording %s\n",
               r->replay);
        return EXIT_DIVERGED;
    }
    printf("patchbay: the replay matches the recording %s: the same "
           "console, byte for byte, and the same verdict\n",
           r->replay);
    return code;
}

static int run_batch(Run *r)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *log_path = NULL;
    g_autofree char *cmd_path = NULL;
    g_autofree RunRecord **recs = NULL;
    int code;

    if (!r->replay && !suites_available(r)) {
        return EXIT_INCOMPLETE;
    }
    if (r->jobs <= 0) {
        r->jobs = g_get_num_processors();
    }
    if (!plan_vms(r, &error)) {
        g_printerr("patchbay: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (g_mkdir_with_parents(r->results, 0755) < 0) {
        g_printerr("patchbay: cannot create %s: %s\n", r->results,
                   g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    if (r->record) {
        g_autofree char *dir = g_build_filename(r->results, "recording", NULL);

        r->recording = recording_new(dir);
        r->recording->variant = g_strdup(r->variant);
        r->recording->release = g_strdup(r->release);
        r->recording->vmlinux = g_strdup(r->vmlinux);
        if (!recording_prepare(r->recording, r->qemu, r->kernel, r->initrd,
                               &error)) {
            g_printerr("patchbay: cannot start the recording: %s\n",
                       error->message);
            return EXIT_INCOMPLETE;
        }
    }
    log_path = g_build_filename(r->results, "console.log", NULL);
    r->console_log = fopen(log_path, "w");
    if (!r->console_log) {
        g_printerr("patchbay: cannot write %s: %s\n", log_path,
                   g_strerror(errno));
        return EXIT_INCOMPLETE;
    }
    cmd_path = g_build_filename(r->results, "qemu-cmdline", NULL);
    g_unlink(cmd_path);
    /* The VM marks first: a parse splits the console by them. */
    for (guint i = 0; i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);
        g_autofree char *mark = run_record_vm_mark(&vm->rec);

        fprintf(r->console_log, "%s\n", mark);
        /* "NAME| " counts against the VM's KTAP_LIMIT_CONSOLE (log_line) */
        if (r->vms->len > 1) {
            vm->rec.line_prefix_len =
                strlen(vm->rec.vm_name) + strlen(RUN_VM_PREFIX);
        }
    }
    if (r->deadline_s < 0) {
        /* every suite may take its silence timeout, one after another */
        r->deadline_s = r->boot_timeout_s +
                        r->suite_timeout_s * (int)g_strv_length(r->suites);
    }
    r->todo = g_ptr_array_copy(r->vms, NULL, NULL);
    g_ptr_array_sort(r->todo, by_cost_desc); /* stable: else suite order */
    r->loop = g_main_loop_new(NULL, FALSE);
    g_timeout_add_seconds(1, on_tick, r);
    g_unix_signal_add(SIGINT, on_signal, r);
    g_unix_signal_add(SIGTERM, on_signal, r);
    if (r->gdb_socket) {
        /* patchbay debug runs us in a session of our own, without
         * deadlines: if it dies (its terminal closed, killed), stop too
         * rather than keep a halted QEMU forever. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != r->parent_pid) {
            r->interrupted = TRUE;
        }
    }
    start_next(r);
    if (r->running) {
        g_main_loop_run(r->loop);
    }
    fclose(r->console_log);
    recs = g_new(RunRecord *, r->vms->len);
    for (guint i = 0; i < r->vms->len; i++) {
        Vm *vm = g_ptr_array_index(r->vms, i);

        recs[i] = &vm->rec;
        g_clear_pointer(&vm->raw_console, fclose);
    }
    code = judge(r, recs, r->vms->len);
    if (r->record) {
        return finish_recording(r, code);
    }
    if (r->replay) {
        return judge_replay(r, code);
    }
    return code;
}

int main(int argc, char **argv)
{
    Run r = {
        .variant = g_strdup("base"),
        .release = g_strdup("unknown"),
        .clock = g_strdup("auto"),
        .suite_timeout_s = 300,
        .boot_timeout_s = 60,
        .crash_grace_s = 5,
        .deadline_s = -1,
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
        {"deadline", 0, 0, G_OPTION_ARG_INT, &r.deadline_s,
         "seconds each VM may run, in its own time (not counting the time "
         "it waited for a host CPU), however much its guest prints; past "
         "it the VM counts as hung (default: --boot-timeout + --timeout x "
         "the number of suites; 0: none)",
         "S"},
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
        {"plan", 0, 0, G_OPTION_ARG_FILENAME, &r.plan,
         "boot nothing: write the VMs as JSON (name, suites, cpus, clock, "
         "timeout_s, QEMU's argv), as a LAVA job is to boot them: the control "
         "channel served inside QEMU, panic=0, patchbay.lava=1",
         "FILE"},
        {"gcov", 0, 0, G_OPTION_ARG_FILENAME, &r.gcov,
         "boot with patchbay.gcov=1 and a virtio-serial port patchbay.gcov: "
         "each VM's gcov counters (at most 32 MiB) go to FILE.VM, and "
         "FILE.VM.cut when there were more",
         "FILE"},
        {"record", 0, 0, G_OPTION_ARG_NONE, &r.record,
         "record each VM with QEMU's record/replay (one vCPU, -icount), "
         "into DIR/recording: the replay logs, the snapshot images, the "
         "kernel and initramfs, recording.json (docs/record-replay.md)",
         NULL},
        {"vmlinux", 0, 0, G_OPTION_ARG_FILENAME, &r.vmlinux,
         "with --record: the vmlinux with DWARF that the kernel was linked "
         "with, for a later debug --replay",
         "FILE"},
        {"replay", 0, 0, G_OPTION_ARG_FILENAME, &r.replay,
         "boot nothing new: replay the recording in this folder with --qemu "
         "(the QEMU that recorded), write the results into --results, and "
         "compare each console, byte for byte, and each verdict with the "
         "recording's (exit 3 if they differ)",
         "RECORDING"},
        {"vm", 0, 0, G_OPTION_ARG_STRING, &r.replay_vm,
         "with --replay: only this recorded VM (under gdb: default the first "
         "that did not pass)",
         "NAME"},
        {"suites-meta", 0, 0, G_OPTION_ARG_FILENAME, &r.suites_meta,
         "folder of the suites' NAME.qemu, NAME.append and NAME.vm "
         "(images/suites)",
         "DIR"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &r.jobs,
         "VMs to run at once, one per suite (default: the CPUs)", "N"},
        {"clock", 0, 0, G_OPTION_ARG_STRING, &r.clock,
         "auto: the virtual clock for suites whose NAME.vm asks for it; "
         "real: never",
         "auto|real"},
        {"all", 0, 0, G_OPTION_ARG_NONE, &r.all,
         "also run the tests the suites mark slow", NULL},
        {"verbose", 'v', 0, G_OPTION_ARG_NONE, &r.verbose,
         "echo the consoles (\"SUITE| line\" when several VMs run)", NULL},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- boot the patchbay guest and judge its KTAP");

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-run: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (!g_str_equal(r.clock, "auto") && !g_str_equal(r.clock, "real")) {
        g_printerr("patchbay-run: --clock is auto or real, not '%s'\n",
                   r.clock);
        return EXIT_INCOMPLETE;
    }
    if (r.parse) {
        return run_parse(&r);
    }
    if (r.replay) {
        if (!r.qemu || !r.results || r.record || r.plan || r.interactive ||
            r.gcov || r.suites) {
            g_printerr("patchbay-run: --replay goes with --qemu and "
                       "--results, without --suite, --record, --plan, "
                       "--interactive or --gcov\n");
            return EXIT_INCOMPLETE;
        }
        r.recording = recording_load(r.replay, &error);
        if (!r.recording ||
            !recording_check_qemu(r.recording, r.qemu, &error)) {
            g_printerr("patchbay-run: %s\n", error->message);
            return EXIT_INCOMPLETE;
        }
        g_free(r.variant);
        r.variant = g_strdup(r.recording->variant ? r.recording->variant
                                                  : "unknown");
        g_free(r.release);
        r.release = g_strdup(r.recording->release ? r.recording->release
                                                  : "unknown");
        r.parent_pid = getppid();
        return run_batch(&r);
    }
    r.record_log_max = (gint64)RECORD_LOG_MAX_MIB << 20;
    if (g_getenv("PATCHBAY_RECORD_LOG_MAX_MIB")) {
        r.record_log_max =
            g_ascii_strtoll(g_getenv("PATCHBAY_RECORD_LOG_MAX_MIB"), NULL, 10)
            << 20;
    }
    if (r.record && (r.plan || r.interactive || r.gcov || r.gdb_socket)) {
        g_printerr("patchbay-run: --record goes without --plan, "
                   "--interactive, --gcov or --gdb-socket (debug a "
                   "recording with --replay)\n");
        return EXIT_INCOMPLETE;
    }
    if (!r.qemu || !r.kernel || !r.initrd) {
        g_printerr(
            "patchbay-run: --qemu, --kernel and --initrd are required\n");
        return EXIT_INCOMPLETE;
    }
    if (r.plan) {
        if (!r.suites || !r.suites[0] || r.results || r.interactive ||
            r.gdb_socket || r.gcov) {
            g_printerr("patchbay-run: --plan goes with --suite, without "
                       "--results, --interactive, --gdb-socket or --gcov\n");
            return EXIT_INCOMPLETE;
        }
        return run_plan(&r);
    }
    r.parent_pid = getppid();
    if ((r.interactive || r.gdb_socket) && !drop_alone_suites(&r, &error)) {
        g_printerr("patchbay-run: %s\n", error->message);
        return EXIT_INCOMPLETE;
    }
    if (r.interactive) {
        return run_interactive(&r);
    }
    if (!r.suites || !r.suites[0] || !r.results) {
        g_printerr("patchbay-run: --suite and --results are required\n");
        return EXIT_INCOMPLETE;
    }
    return run_batch(&r);
}
