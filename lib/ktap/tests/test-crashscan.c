/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the crash/hang scanner, on captured console logs. */
#include <string.h>

#include "crashscan.h"
#include "ktap.h"
#include "test-data.h"

#define US_PER_LINE 1000

typedef struct {
    KtapParser *parser;
    CrashScanner *scanner;
    /* the log, without the empty string after its final newline */
    char **lines;
    guint n_lines;
    gint64 last_line_us;
} Scan;

/* Feeds a captured log to the parser and the scanner, as the runner does. */
static void scan_log(Scan *scan, const char *name)
{
    scan->parser = ktap_parser_new();
    scan->scanner = crash_scanner_new();
    scan->lines = test_data_lines(name);
    scan->n_lines = g_strv_length(scan->lines);

    for (guint i = 0; i < scan->n_lines; i++) {
        scan->last_line_us = (gint64)(i + 1) * US_PER_LINE;
        ktap_parser_feed(scan->parser, scan->lines[i], scan->last_line_us);
        g_autofree char *running = ktap_parser_running(scan->parser);
        crash_scanner_feed(scan->scanner, scan->lines[i], running);
    }
}

static void scan_clear(Scan *scan)
{
    ktap_parser_free(scan->parser);
    crash_scanner_free(scan->scanner);
    g_strfreev(scan->lines);
}

static CrashReport *report(Scan *scan, guint i)
{
    GPtrArray *reports = crash_scanner_reports(scan->scanner);

    g_assert_cmpuint(i, <, reports->len);
    return g_ptr_array_index(reports, i);
}

static guint n_reports(Scan *scan)
{
    return crash_scanner_reports(scan->scanner)->len;
}

static guint count_lines(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    return g_strv_length(lines);
}

static char *first_line(const char *text)
{
    const char *newline = strchr(text, '\n');
    return newline ? g_strndup(text, (gsize)(newline - text)) : g_strdup(text);
}

static const char *last_line(const char *text)
{
    const char *newline = strrchr(text, '\n');
    return newline ? newline + 1 : text;
}

/* The scanner's one report. */
static CrashReport *only_report(CrashScanner *scanner)
{
    GPtrArray *reports = crash_scanner_reports(scanner);

    g_assert_cmpuint(reports->len, ==, 1);
    return g_ptr_array_index(reports, 0);
}

static void test_panic_attribution(void)
{
    Scan scan = {0};
    scan_log(&scan, "panic.log");

    g_assert_cmpuint(n_reports(&scan), ==, 1);
    CrashReport *r = report(&scan, 0);
    g_assert_cmpstr(r->kind, ==, "panic");
    /*
     * test 2 of sysrq_trigger had printed its diagnostic but no result line yet
     */
    g_assert_cmpstr(r->test, ==, "sysrq/sysrq_trigger/#2");

    g_autofree char *first = first_line(r->excerpt);
    g_assert_cmpstr(
        first, ==,
        "[    4.812901] Kernel panic - not syncing: sysrq triggered crash");
    g_assert_cmpstr(last_line(r->excerpt), ==,
                    "[    4.816402] ---[ end Kernel panic - not syncing: sysrq "
                    "triggered crash ]---");
    g_assert_null(strstr(r->excerpt, "sysrq: Trigger a crash"));
    g_assert_cmpuint(count_lines(r->excerpt), ==, 26);
    scan_clear(&scan);
}

static void test_oops_then_panic(void)
{
    Scan scan = {0};
    scan_log(&scan, "oops.log");

    /*
     * "Unable to handle" + "Internal error" are one oops; the panic it causes
     * is another report
     */
    g_assert_cmpuint(n_reports(&scan), ==, 2);
    CrashReport *oops = report(&scan, 0);
    g_assert_cmpstr(oops->kind, ==, "oops");
    g_assert_cmpstr(oops->test, ==, "openat2/resolve/#3");
    g_assert_true(g_str_has_prefix(
        oops->excerpt, "[    3.418752] Unable to handle kernel NULL pointer "
                       "dereference at virtual address 0000000000000008\n"));
    g_assert_nonnull(strstr(oops->excerpt,
                            "\n[    3.421298] Internal error: Oops: "
                            "0000000096000006 [#1] PREEMPT SMP\n"));
    g_assert_cmpuint(count_lines(oops->excerpt), ==, 40);

    CrashReport *panic = report(&scan, 1);
    g_assert_cmpstr(panic->kind, ==, "panic");
    g_assert_cmpstr(panic->test, ==, "openat2/resolve/#3");
    g_autofree char *first = first_line(panic->excerpt);
    g_assert_cmpstr(
        first, ==,
        "[    3.426481] Kernel panic - not syncing: Oops: Fatal exception");
    g_assert_cmpstr(last_line(panic->excerpt), ==,
                    "[    3.427402] ---[ end Kernel panic - not syncing: Oops: "
                    "Fatal exception ]---");
    scan_clear(&scan);
}

static void test_warn_cut_here(void)
{
    Scan scan = {0};
    scan_log(&scan, "warn.log");

    /* the lone "cut here" (nothing followed it) is no report */
    g_assert_cmpuint(n_reports(&scan), ==, 2);

    CrashReport *warn = report(&scan, 0);
    g_assert_cmpstr(warn->kind, ==, "warn");
    g_assert_cmpstr(warn->test, ==, "mount_setattr/#2");
    g_assert_true(g_str_has_prefix(
        warn->excerpt, "[    3.201114] ------------[ cut here ]------------\n"
                       "[    3.201410] WARNING: CPU: 1 PID: 245 at "
                       "fs/namespace.c:1392 mntput_no_expire+0x2f0/0x318\n"));
    /* ends early at the end marker */
    g_assert_cmpstr(last_line(warn->excerpt), ==,
                    "[    3.207033] ---[ end trace 0000000000000000 ]---");
    g_assert_cmpuint(count_lines(warn->excerpt), ==, 31);

    CrashReport *bare = report(&scan, 1);
    g_assert_cmpstr(bare->kind, ==, "warn");
    g_assert_cmpstr(bare->test, ==, "mount_setattr/#3");
    g_autofree char *first = first_line(bare->excerpt);
    g_assert_cmpstr(first, ==,
                    "[    3.402118] WARNING: CPU: 0 PID: 252 at "
                    "fs/namespace.c:1950 __mnt_want_write+0x5c/0x70");
    g_assert_null(strstr(bare->excerpt, "cut here"));
    /* user-space lines printed meanwhile are not part of a kernel report */
    g_assert_null(strstr(bare->excerpt, "ok 3"));
    scan_clear(&scan);
}

static void test_kasan(void)
{
    Scan scan = {0};
    scan_log(&scan, "kasan.log");

    g_assert_cmpuint(n_reports(&scan), ==, 1);
    CrashReport *r = report(&scan, 0);
    g_assert_cmpstr(r->kind, ==, "kasan");
    g_assert_cmpstr(r->test, ==, "memfd/#2");
    g_autofree char *first = first_line(r->excerpt);
    g_assert_cmpstr(first, ==,
                    "[    6.118913] BUG: KASAN: slab-out-of-bounds in "
                    "memfd_add_seals+0x2c8/0x318");
    g_assert_nonnull(strstr(r->excerpt,
                            "\n[    6.119310] Write of size 4 at addr "
                            "ffff0000c4e1a880 by task memfd_test/262\n"));
    g_assert_cmpuint(count_lines(r->excerpt), ==, 40);
    scan_clear(&scan);
}

static void test_kernel_bugs(void)
{
    Scan scan = {0};
    scan_log(&scan, "kernel-bugs.log");

    g_assert_cmpuint(n_reports(&scan), ==, 5);

    CrashReport *sleeping = report(&scan, 0);
    g_assert_cmpstr(sleeping->kind, ==, "bug");
    g_assert_cmpstr(sleeping->test, ==, "mm/#1");
    g_assert_true(g_str_has_prefix(
        sleeping->excerpt,
        "[    7.102113] BUG: sleeping function called from invalid context"));
    g_assert_null(strstr(sleeping->excerpt, "ok 1"));

    /* cut here + kernel BUG at + Internal error: one report */
    CrashReport *bug = report(&scan, 1);
    g_assert_cmpstr(bug->kind, ==, "bug");
    g_assert_cmpstr(bug->test, ==, "mm/#2");
    g_assert_true(g_str_has_prefix(
        bug->excerpt, "[    8.002110] ------------[ cut here ]------------\n"
                      "[    8.002403] kernel BUG at mm/slub.c:563!\n"
                      "[    8.002701] Internal error: Oops - BUG: "
                      "00000000f2000800 [#1] PREEMPT SMP\n"));
    g_assert_cmpstr(last_line(bug->excerpt), ==,
                    "[    8.005311] ---[ end trace 0000000000000000 ]---");

    /* KFENCE: ends at the closing "=====" line */
    CrashReport *kfence = report(&scan, 2);
    g_assert_cmpstr(kfence->kind, ==, "kasan");
    g_assert_cmpstr(kfence->test, ==, "mm/#3");
    g_assert_true(g_str_has_prefix(kfence->excerpt,
                                   "[    9.118913] BUG: KFENCE: out-of-bounds "
                                   "read in memfd_read_seals+0x58/0x80\n"));
    g_assert_cmpstr(
        last_line(kfence->excerpt), ==,
        "[    9.121740] "
        "==================================================================");

    CrashReport *hung = report(&scan, 3);
    g_assert_cmpstr(hung->kind, ==, "hung-task");
    g_assert_cmpstr(hung->test, ==, "mm/#4");
    g_assert_true(g_str_has_prefix(hung->excerpt,
                                   "[  123.456789] INFO: task kworker/u8:2:57 "
                                   "blocked for more than 61 seconds.\n"));

    CrashReport *stall = report(&scan, 4);
    g_assert_cmpstr(stall->kind, ==, "rcu-stall");
    g_assert_cmpstr(stall->test, ==, "mm/#5");
    g_assert_cmpuint(count_lines(stall->excerpt), ==, 4);
    scan_clear(&scan);
}

static void test_soft_lockup(void)
{
    Scan scan = {0};
    scan_log(&scan, "softlockup.log");

    g_assert_cmpuint(n_reports(&scan), ==, 2);
    CrashReport *lockup = report(&scan, 0);
    g_assert_cmpstr(lockup->kind, ==, "lockup");
    g_assert_cmpstr(lockup->test, ==, "futex/#2");
    g_autofree char *first = first_line(lockup->excerpt);
    g_assert_cmpstr(first, ==,
                    "[   32.401223] watchdog: BUG: soft lockup - CPU#1 stuck "
                    "for 26s! [futex_requeue:277]");

    CrashReport *stall = report(&scan, 1);
    g_assert_cmpstr(stall->kind, ==, "rcu-stall");
    g_assert_cmpstr(stall->test, ==, "futex/#2");
    g_assert_true(g_str_has_prefix(stall->excerpt,
                                   "[   43.118023] rcu: INFO: rcu_preempt "
                                   "detected stalls on CPUs/tasks:\n"));
    scan_clear(&scan);
}

static void test_watchdog_hang(void)
{
    const gint64 timeout = 120 * G_USEC_PER_SEC;
    Watchdog watchdog;
    Scan scan = {0};

    scan_log(&scan, "softlockup.log");

    /* the runner kicks the watchdog on every console line */
    watchdog_init(&watchdog, timeout, 0);
    for (guint i = 0; i < scan.n_lines; i++) {
        gint64 now = (gint64)(i + 1) * US_PER_LINE;
        g_assert_false(watchdog_expired(&watchdog, now));
        watchdog_kick(&watchdog, now);
    }
    /* then silence */
    g_assert_false(
        watchdog_expired(&watchdog, scan.last_line_us + timeout / 2));
    g_assert_false(
        watchdog_expired(&watchdog, scan.last_line_us + timeout - 1));
    g_assert_true(watchdog_expired(&watchdog, scan.last_line_us + timeout));
    g_assert_true(
        watchdog_expired(&watchdog, scan.last_line_us + 10 * timeout));

    g_autofree char *running = ktap_parser_running(scan.parser);
    crash_scanner_add_report(scan.scanner, "hang", running,
                           "no console output for 120 s");

    g_assert_cmpuint(n_reports(&scan), ==, 3);
    CrashReport *hang = report(&scan, 2);
    g_assert_cmpstr(hang->kind, ==, "hang");
    g_assert_cmpstr(hang->test, ==, "futex/#2");

    /* the reason, then the last 20 console lines, oldest first */
    g_auto(GStrv) lines = g_strsplit(hang->excerpt, "\n", -1);
    g_assert_cmpuint(g_strv_length(lines), ==, 21);
    g_assert_cmpstr(lines[0], ==, "no console output for 120 s");
    for (guint i = 0; i < 20; i++) {
        g_assert_cmpstr(lines[1 + i], ==, scan.lines[scan.n_lines - 20 + i]);
    }
    g_assert_null(strstr(hang->excerpt, scan.lines[scan.n_lines - 21]));
    scan_clear(&scan);

    /* a kick restarts the count; a zero timeout disables the watchdog */
    watchdog_init(&watchdog, 10, 100);
    g_assert_true(watchdog_expired(&watchdog, 110));
    watchdog_kick(&watchdog, 105);
    g_assert_false(watchdog_expired(&watchdog, 110));
    watchdog_init(&watchdog, 0, 0);
    g_assert_false(watchdog_expired(&watchdog, G_MAXINT64 / 2));
}

static void test_hang_before_any_output(void)
{
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    crash_scanner_add_report(scanner, "hang", NULL, "no console output for 30 s");
    CrashReport *r = only_report(scanner);
    g_assert_cmpstr(r->kind, ==, "hang");
    g_assert_cmpstr(r->test, ==, "(boot)");
    g_assert_cmpstr(r->excerpt, ==, "no console output for 30 s");
}

/* Test names and diagnostics that look like triggers must not match. */
static void test_trigger_names_in_ktap(void)
{
    Scan scan = {0};
    scan_log(&scan, "trigger-names.log");

    g_assert_cmpuint(n_reports(&scan), ==, 0);
    guint passed, failed;
    ktap_parser_finish(scan.parser, 0);
    ktap_test_count(ktap_parser_root(scan.parser), &passed, &failed, NULL,
                    NULL);
    g_assert_cmpuint(passed, ==, 6);
    g_assert_cmpuint(failed, ==, 1);
    scan_clear(&scan);
}

/* printk.time=0: no prefixes, the trigger starts the line */
static void test_unprefixed_console(void)
{
    static const char *const lines[] = {
        "Run /init as init process",
        "Kernel panic - not syncing: Attempted to kill init! "
        "exitcode=0x00000100",
        "CPU: 0 UID: 0 PID: 1 Comm: init Not tainted 6.12.0-patchbay #1",
        "Hardware name: linux,dummy-virt (DT)",
        "Call trace:",
        " panic+0x3a8/0x3f0",
        " do_exit+0x8a4/0x9a0",
        "Kernel Offset: disabled",
        "---[ end Kernel panic - not syncing: Attempted to kill init! "
        "exitcode=0x00000100 ]---",
        "QEMU: Terminated",
    };
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    for (guint i = 0; i < G_N_ELEMENTS(lines); i++) {
        crash_scanner_feed(scanner, lines[i], NULL);
    }

    CrashReport *r = only_report(scanner);
    g_assert_cmpstr(r->kind, ==, "panic");
    g_assert_cmpstr(r->test, ==, "(boot)");
    g_assert_cmpuint(count_lines(r->excerpt), ==, 8);
    g_assert_null(strstr(r->excerpt, "QEMU"));
}

static void test_kernel_message_mid_line(void)
{
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    /*
     * the panic interrupted a user-space line that had no newline yet; CR LF
     * endings
     */
    crash_scanner_feed(scanner,
                       "    ok 2 openat2 wi[    3.000000] Kernel panic - not "
                       "syncing: Asynchronous SError Interrupt\r",
                       "openat2/#3");
    crash_scanner_feed(scanner, "th O_TMPFILE\r", "openat2/#3");
    crash_scanner_feed(scanner,
                       "[    3.000100][    T1] CPU: 0 UID: 0 PID: 1 Comm: init "
                       "Not tainted 6.12.0-patchbay #1\r",
                       NULL);

    CrashReport *r = only_report(scanner);
    g_assert_cmpstr(r->kind, ==, "panic");
    g_assert_cmpstr(r->test, ==, "openat2/#3");
    g_assert_cmpstr(r->excerpt, ==,
                    "[    3.000000] Kernel panic - not syncing: Asynchronous "
                    "SError Interrupt\n"
                    "[    3.000100][    T1] CPU: 0 UID: 0 PID: 1 Comm: init "
                    "Not tainted 6.12.0-patchbay #1");
}

static void test_split_printk_prefix(void)
{
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    /* user space wrote while the kernel printed its time prefix (sysrq-c) */
    crash_scanner_feed(scanner, "[    0.70688    ok 1 before the crash",
                       "harness-panic/panic");
    crash_scanner_feed(scanner,
                       "    # crashing the kernel with sysrq-c during case 2",
                       "harness-panic/panic");
    crash_scanner_feed(scanner,
                       "7] Kernel panic - not syncing: sysrq triggered crash",
                       "harness-panic/panic");
    crash_scanner_feed(scanner,
                       "[    0.708192] CPU: 1 UID: 0 PID: 38 Comm: panic Not "
                       "tainted 6.12.118 #5",
                       NULL);

    CrashReport *r = only_report(scanner);
    g_assert_cmpstr(r->kind, ==, "panic");
    g_assert_cmpstr(r->test, ==, "harness-panic/panic");
    g_assert_cmpstr(r->excerpt, ==,
                    "7] Kernel panic - not syncing: sysrq triggered crash\n"
                    "[    0.708192] CPU: 1 UID: 0 PID: 38 Comm: panic Not "
                    "tainted 6.12.118 #5");
}

/* The same, split right after the "[": the tail keeps the padding. */
static void test_split_after_bracket(void)
{
    g_autoptr(CrashScanner) scanner = crash_scanner_new();
    const char *test = "harness-panic/panic";

    crash_scanner_feed(scanner,
                       "    # crashing the kernel with sysrq-c during case 2"
                       "[    1.046728] sysrq: Trigger a crash",
                       test);
    crash_scanner_feed(scanner, "[", test);
    crash_scanner_feed(scanner,
                       "    1.050870] Kernel panic - not syncing: sysrq "
                       "triggered crash",
                       test);
    crash_scanner_feed(scanner,
                       "[    1.052046] CPU: 0 UID: 0 PID: 38 Comm: panic Not "
                       "tainted 6.12.118 #1",
                       NULL);

    CrashReport *r = only_report(scanner);
    g_assert_cmpstr(r->kind, ==, "panic");
    g_assert_cmpstr(r->test, ==, test);
}

static void test_trigger_kinds(void)
{
    static const struct {
        const char *line;
        const char *kind; /* NULL: no report */
    } cases[] = {
        {"[    1.000000] Kernel panic - not syncing: VFS: Unable to mount root "
         "fs",
         "panic"},
        {"[    1.000000] Unable to handle kernel paging request at virtual "
         "address ffff800080000000",
         "oops"},
        {"[    1.000000] Internal error: Oops - undefined instruction: "
         "0000000002000000 [#1] SMP",
         "oops"},
        {"[    1.000000] Internal error: Oops - BUG: 00000000f2000800 [#1] SMP",
         "bug"},
        {"[    1.000000] kernel BUG at fs/inode.c:1763!", "bug"},
        {"[    1.000000] BUG: KASAN: use-after-free in kfree+0x2c/0x40",
         "kasan"},
        {"[    1.000000] BUG: KFENCE: use-after-free read in "
         "test_use_after_free_read+0xb4/0x22c",
         "kasan"},
        {"[    1.000000] BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]",
         "lockup"},
        {"[    1.000000] watchdog: CPU1: Watchdog detected hard LOCKUP on cpu "
         "0",
         "lockup"},
        {"[    1.000000] BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 "
         "nice=0 stuck for 31s!",
         "lockup"},
        {"[    1.000000] BUG: scheduling while atomic: init/1/0x00000002",
         "bug"},
        {"[    1.000000] UBSAN: array-index-out-of-bounds in fs/open.c:1234:5",
         "ubsan"},
        {"[    1.000000] WARNING: CPU: 0 PID: 1 at mm/page_alloc.c:4545 "
         "__alloc_pages+0x2b4/0x330",
         "warn"},
        {"[    1.000000] WARNING: possible circular locking dependency "
         "detected",
         "warn"},
        {"[    1.000000] INFO: task init:1 blocked for more than 120 seconds.",
         "hung-task"},
        {"[    1.000000] rcu: INFO: rcu_sched self-detected stall on CPU",
         "rcu-stall"},
        {"[    1.000000] rcu: INFO: rcu_preempt detected expedited stalls on "
         "CPUs/tasks: { 1-... } 21 jiffies s: 353 root: 0x2/.",
         "rcu-stall"},
        /* near misses */
        {"[    1.000000] INFO: task init:1 exited", NULL},
        {"[    1.000000] rcu: INFO: rcu_preempt is fine", NULL},
        {"[    1.000000] watchdog: Delayed init of the lockup detector failed: "
         "-19",
         NULL},
        {"[    1.000000] pr_fmt: BUG: not at the start", NULL},
        {"[    1.000000]  BUG: indented", NULL},
        {"ok 3 bug fix", NULL},
        {"ok 4 Kernel panic - not syncing", NULL},
        {"# BUG: diagnostic", NULL},
        {"  WARNING: CPU: 0 indented user-space text", NULL},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(CrashScanner) scanner = crash_scanner_new();
        crash_scanner_feed(scanner, cases[i].line, "suite/#1");
        GPtrArray *reports = crash_scanner_reports(scanner);
        if (cases[i].kind == NULL) {
            g_assert_cmpuint(reports->len, ==, 0);
            continue;
        }
        g_assert_cmpuint(reports->len, ==, 1);
        CrashReport *r = g_ptr_array_index(reports, 0);
        g_assert_cmpstr(r->kind, ==, cases[i].kind);
        g_assert_cmpstr(r->test, ==, "suite/#1");
        g_assert_cmpstr(r->excerpt, ==, cases[i].line);
    }
}

static void test_excerpt_cap(void)
{
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    crash_scanner_feed(
        scanner,
        "[    1.000000] BUG: scheduling while atomic: init/1/0x00000002", NULL);
    for (int i = 0; i < 100; i++) {
        g_autofree char *line =
            g_strdup_printf("[    1.%06d]  frame_%d+0x10/0x20", i + 1, i);
        crash_scanner_feed(scanner, line, NULL);
    }
    CrashReport *r = only_report(scanner);
    g_assert_cmpuint(count_lines(r->excerpt), ==, 40);
    g_assert_cmpstr(last_line(r->excerpt), ==,
                    "[    1.000039]  frame_38+0x10/0x20");
}

/* The runner stops QEMU after a fatal report only: a kernel that WARNed
 * runs the remaining tests. */
static void test_fatal_kinds(void)
{
    const char *fatal[] = {"panic",     "oops",      "bug", "lockup",
                           "hung-task", "rcu-stall", "hang"};
    const char *survivable[] = {"warn", "kasan", "ubsan"};

    for (guint i = 0; i < G_N_ELEMENTS(fatal); i++) {
        g_assert_true(crash_kind_is_fatal(fatal[i]));
    }
    for (guint i = 0; i < G_N_ELEMENTS(survivable); i++) {
        g_assert_false(crash_kind_is_fatal(survivable[i]));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    g_test_add_func("/crashscan/fatal-kinds", test_fatal_kinds);
    g_test_add_func("/crashscan/panic-attribution", test_panic_attribution);
    g_test_add_func("/crashscan/oops-then-panic", test_oops_then_panic);
    g_test_add_func("/crashscan/warn-cut-here", test_warn_cut_here);
    g_test_add_func("/crashscan/kasan", test_kasan);
    g_test_add_func("/crashscan/kernel-bugs", test_kernel_bugs);
    g_test_add_func("/crashscan/soft-lockup", test_soft_lockup);
    g_test_add_func("/crashscan/watchdog-hang", test_watchdog_hang);
    g_test_add_func("/crashscan/hang-before-any-output",
                    test_hang_before_any_output);
    g_test_add_func("/crashscan/trigger-names-in-ktap",
                    test_trigger_names_in_ktap);
    g_test_add_func("/crashscan/unprefixed-console", test_unprefixed_console);
    g_test_add_func("/crashscan/kernel-message-mid-line",
                    test_kernel_message_mid_line);
    g_test_add_func("/crashscan/split-printk-prefix", test_split_printk_prefix);
    g_test_add_func("/crashscan/split-after-bracket", test_split_after_bracket);
    g_test_add_func("/crashscan/trigger-kinds", test_trigger_kinds);
    g_test_add_func("/crashscan/excerpt-cap", test_excerpt_cap);

    return g_test_run();
}
