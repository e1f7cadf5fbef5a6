/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owfs_test - owfs's own library (Debian's libowcapi 3.2p4) against the
 * emulated DS2490 and the default 1-Wire topology, in both owfs modes:
 * "usb" (OW_init("-u"): owfs's DS9490 driver over libusb, the kernel's
 * DS9490R driver unbound first and bound again after) and "w1"
 * (OW_init("--w1"): owfs over the kernel's w1 netlink connector and
 * w1_bus_master1).  Each mode runs the case table in a forked child that
 * reports over a pipe; the parent prints the KTAP, so a crash or a hang in
 * owfs fails the running case with the signal named, the rest as not run,
 * and the other mode still runs.  The child's stderr (owfs's debug output,
 * the pc/lr chain of a crash) goes to /tmp/owfs-MODE.log (common/child.h),
 * whose tail is printed when the mode fails.  The cases are in
 * owfs_cases.c; here the parent and the kernel's DS9490R driver.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2 */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "kconfig.h"
#include "ktap.h"
#include "owfs.h"
#include "pbctl.h"

#define USB_DEVICES "/sys/bus/usb/devices"
#define DRV_DIR     "/sys/bus/usb/drivers/DS9490R"
#define W1_MASTER   "/sys/bus/w1/devices/w1_bus_master1"

#define NEED_KDRV "CONFIG_W1 CONFIG_W1_MASTER_DS2490"
#define NEED_W1   NEED_KDRV " CONFIG_NET CONFIG_CONNECTOR CONFIG_W1_CON"

#define KERNEL_WAIT_MS 15000     /* master and slaves after a bind */
/* No report from the child: hung. A DS2431 page write in w1 mode, bit by
 * bit, took up to 27 s on a machine whose two cores were shared. */
#define STALL_MS       90000
#define QUIT_MS        1000      /* its pc and lr into the log after SIGQUIT */
#define LOG_MAX        (1 << 20) /* bytes of owfs's output kept */
#define LOG_TAIL       12288     /* bytes of it printed when a mode fails */

/* owfs's debug messages go to the log, printed only when a mode fails */
#define OW_DEBUG_ARGS "--error_level=5 --error_print=2"

static const struct mode modes[] = {
    /* seen under TCG: usb 2-11 s, w1 25-75 s (ds2490 has no touch_block),
     * and 2-3 times that on a busy machine; owfs.timeout gives /init room */
    {"usb", "-u " OW_DEBUG_ARGS, 120, 0x00},
    {"w1", "--w1 " OW_DEBUG_ARGS, 360, 0x80},
};

/* ---- helpers ------------------------------------------------------------- */

/* The first line of a small file: 0 or -errno. */
static int read_str(const char *path, char *buf, size_t len)
{
    ssize_t n = read_file(path, buf, len);

    if (n < 0) {
        return (int)n;
    }
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* ---- the parent: KTAP, the kernel's driver ------------------------------- */

static void result(const char *prefix, const char *name, int kind,
                   const char *why)
{
    char full[300];

    snprintf(full, sizeof(full), "%s: %s", prefix, name);
    ktap_test_result(kind, full, why);
}

#define EXIT_CASE "owfs finished cleanly (OW_finish, exit 0)"

/* One mode's run: the child's report pipe and where its table is. */
struct mode_run {
    const struct mode *m;
    int pipe[2];
    struct child_table t;
};

static void mode_child(void *arg)
{
    struct mode_run *run = arg;

    close(run->pipe[0]);
    owfs_child(run->m, run->pipe[1]);
}

/* A report from the child: its results in table order, its notes. */
static bool on_report(int fd, void *arg)
{
    struct mode_run *run = arg;
    struct child_report r;
    int got = child_table_read(&run->t, fd, &r);

    if (got == 1) {
        result(run->m->prefix, owfs_case_name(run->t.next++), r.kind, r.text);
    }
    return got >= 0;
}

/* One mode's table in a child: a result per case, then the exit case. */
static void run_mode(const struct mode *m)
{
    struct mode_run run = {
        .m = m,
        .pipe = {-1, -1},
        .t = {.n = (int)owfs_ncases(), .running = -1},
    };
    struct child_table *t = &run.t;
    char log[64], why[400], w2[480];
    /* until the report pipe's end: OW_finish() is timed too */
    struct child_spec spec = {
        .fn = mode_child,
        .arg = &run,
        .log_path = log,
        .log_max = LOG_MAX,
        .on_event = on_report,
        .ctx = &run,
        .stall_ms = STALL_MS,
        .total_ms = m->limit_s * 1000L,
        .quit_ms = QUIT_MS,
    };
    struct child_result res = {.pid = -1};
    long long start = now_ms();
    bool clean;
    static struct child c;

    snprintf(log, sizeof(log), "/tmp/owfs-%s.log", m->prefix);
    if (pipe2(run.pipe, O_CLOEXEC) == 0) {
        spec.event_fd = run.pipe[0];
        child_start(&c, &spec);
        close(run.pipe[1]);
        child_watch(&c, &res);
        close(run.pipe[0]);
    } else {
        res.err = errno;
    }
    clean = !child_describe(&res, "owfs", why, sizeof(why));
    for (t->failed |= t->next < t->n; t->next < t->n; t->next++) {
        if (t->next == t->running) {
            snprintf(w2, sizeof(w2), "%s in this case", why);
        } else {
            snprintf(w2, sizeof(w2), "not run: %s in '%s'", why,
                     t->running >= 0 ? owfs_case_name(t->running) : "OW_init");
        }
        result(m->prefix, owfs_case_name(t->next), KTAP_FAIL, w2);
    }
    result(m->prefix, EXIT_CASE, clean ? KTAP_PASS : KTAP_FAIL, why);
    t->failed |= !clean;
    ktap_print_msg("%s: %lld ms", m->prefix, now_ms() - start);
    if (t->failed) {
        child_print_log_tail(log, LOG_TAIL);
    }
}

/* The host's t1 back at 21.5 C, whatever a dead child left behind. */
static void restore_host(void)
{
    if (!kconfig_lacks(NEED_CTL) && pbctl_open() == 0) {
        if (pbctl_qom_set_int(QOM_T1, "temperature", T1_MC)) {
            ktap_print_msg("restoring t1: %s", pbctl_last_reply());
        }
        pbctl_close();
    }
}

static char usb_intf[64]; /* the DS2490's interface 0, e.g. 1-1:1.0 */

/* The interface's driver, "" when unbound. */
static const char *intf_driver(void)
{
    static char drv[64];
    char p[300], link[300];
    ssize_t n;

    snprintf(p, sizeof(p), USB_DEVICES "/%s/driver", usb_intf);
    n = readlink(p, link, sizeof(link) - 1);
    link[n > 0 ? n : 0] = '\0';
    str_copy(drv, strrchr(link, '/') ? strrchr(link, '/') + 1 : "",
             sizeof(drv));
    return drv;
}

/* w1_bus_master1's slave count once it is 4, or after KERNEL_WAIT_MS. */
static long wait_kernel_master(void)
{
    long long end = now_ms() + KERNEL_WAIT_MS;
    char buf[32];
    long count;

    do {
        count = read_str(W1_MASTER "/w1_master_slave_count", buf, sizeof(buf))
                    ? -1
                    : strtol(buf, NULL, 10);
        if (count == NSLAVES) {
            break;
        }
        usleep(50000);
    } while (now_ms() < end);
    return count;
}

/* Before the usb mode: the boot's discovery done, then the driver unbound. */
static int k_unbind(char *why, size_t wl)
{
    long long end = now_ms() + KERNEL_WAIT_MS;
    long count = wait_kernel_master();
    struct dirent *de;
    DIR *d = opendir(DRV_DIR);
    int r;

    while (d && (de = readdir(d))) {
        if (strchr(de->d_name, ':')) { /* the bound interface */
            str_copy(usb_intf, de->d_name, sizeof(usb_intf));
        }
    }
    if (d) {
        closedir(d);
    }
    if (!usb_intf[0]) {
        FAIL("no interface bound to " DRV_DIR " (w1_master_slave_count %ld)",
             count);
    }
    r = write_str(DRV_DIR "/unbind", usb_intf);
    if (r) {
        FAIL("unbind %s: %s", usb_intf, strerror(-r));
    }
    while (!access(W1_MASTER, F_OK) && now_ms() < end) {
        usleep(50000);
    }
    if (!access(W1_MASTER, F_OK)) {
        FAIL(W1_MASTER " still there %d s after the unbind",
             KERNEL_WAIT_MS / 1000);
    }
    return KTAP_PASS;
}

/* After it: the driver back (unless OW_finish() reattached it), the slaves */
static int k_bind(char *why, size_t wl)
{
    long count;
    int r = 0;

    if (!usb_intf[0]) {
        FAIL("the interface was not unbound");
    }
    ktap_print_msg("after OW_finish: %s bound to '%s'", usb_intf,
                   intf_driver());
    if (!intf_driver()[0]) {
        r = write_str(DRV_DIR "/bind", usb_intf);
    }
    if (r || strcmp(intf_driver(), "DS9490R")) {
        FAIL("bind: %s; %s bound to '%s'", strerror(-r), usb_intf,
             intf_driver());
    }
    count = wait_kernel_master();
    if (count != NSLAVES) {
        FAIL("w1_master_slave_count %ld %d s after the bind", count,
             KERNEL_WAIT_MS / 1000);
    }
    return KTAP_PASS;
}

static void parent_case(const char *name, int (*fn)(char *, size_t),
                        const char *lack)
{
    char why[300] = "";

    if (lack) {
        snprintf(why, sizeof(why), "%s", lack);
    }
    result("usb", name, lack ? KTAP_SKIP : fn(why, sizeof(why)), why);
}

int main(void)
{
    const char *nodrv = kconfig_lacks(NEED_KDRV),
               *lack = kconfig_lacks(NEED_W1);
    char search[16] = "";

    setvbuf(stdout, NULL, _IOLBF, 0);
    ktap_print_header();
    /* per mode the cases and the exit case; the unbind and the bind */
    ktap_set_plan(2 * (owfs_ncases() + 1) + 2);

    parent_case("DS9490R unbound, w1_bus_master1 gone", k_unbind, nodrv);
    run_mode(&modes[0]);
    restore_host();
    parent_case("DS9490R bound again, w1_bus_master1 back with 4 slaves",
                k_bind, nodrv);

    if (lack) {
        for (size_t i = 0; i < owfs_ncases(); i++) {
            result(modes[1].prefix, owfs_case_name(i), KTAP_SKIP, lack);
        }
        result(modes[1].prefix, EXIT_CASE, KTAP_SKIP, lack);
        return ktap_finished();
    }
    /*
     * owfs splits one 1-Wire transaction over several netlink messages
     * (RESET, TOUCH with MATCH ROM, TOUCH with the function bytes); a
     * background search the kernel runs between two of them leaves another
     * slave selected.  Off while owfs runs, as in w1_netlink.
     */
    if (read_str(W1_MASTER "/w1_master_search", search, sizeof(search)) == 0) {
        write_str(W1_MASTER "/w1_master_search", "0");
    }
    run_mode(&modes[1]);
    if (search[0]) {
        write_str(W1_MASTER "/w1_master_search", search);
    }
    restore_host();
    return ktap_finished();
}
