/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owfs_cases.c - the child of owfs_test: owfs's own library through its C
 * API (owcapi), the cases of one mode in order, each reported to the parent
 * (owfs_test.c) as it starts and ends.  Reads go through /uncached/.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sigabbrev_np, dladdr */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <owcapi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "kconfig.h"
#include "ktap.h"
#include "owfs.h"
#include "pbctl.h"

#define U "/uncached/"

#define LIST_WAIT_MS 10000 /* owfs --w1 learns the masters asynchronously */

static const char *const slaves[NSLAVES] = {T1, E1, P1, P2};

static const struct mode *cur; /* the child's mode */
static int report_fd = -1, cur_case;

/* ---- the child: owfs ----------------------------------------------------- */

/* To the parent (common/child.h); it is gone when that fails. */
#define report(idx, kind, ...)                                 \
    do {                                                       \
        if (child_report(report_fd, idx, kind, __VA_ARGS__)) { \
            _exit(3);                                          \
        }                                                      \
    } while (0)

/* A diagnostic line for the parent to print before the case's result. */
#define note(...) report(cur_case, CHILD_NOTE, __VA_ARGS__)

/* OW_get into buf, NUL-terminated (owfs pads numbers with blanks): 0/-errno */
static int ow_read(const char *path, char *buf, size_t len)
{
    char *data = NULL;
    size_t n = 0;
    int r = OW_get(path, &data, &n) < 0 ? (errno ? -errno : -EIO) : 0;

    if (r || n >= len) {
        n = r ? 0 : len - 1;
    }
    memcpy(buf, data ? data : "", n);
    buf[n] = '\0';
    free(data);
    return r;
}

static int ow_write(const char *path, const char *val)
{
    return OW_put(path, val, strlen(val)) < 0 ? (errno ? -errno : -EIO) : 0;
}

static int ow_read_num(const char *path, double *v)
{
    char buf[64], *end;
    int r = ow_read(path, buf, sizeof(buf));

    if (r < 0) {
        return r;
    }
    *v = strtod(buf, &end);
    return end == buf ? -EBADMSG : 0;
}

/*
 * The default slaves an owfs directory listing holds (bit i for slaves[i]);
 * other slave-like entries (FF.SSSSSSSSSSSS) are counted in *others.
 */
static unsigned int listed(const char *list, int *others)
{
    char copy[2048], *save = NULL, *e;
    unsigned int mask = 0;

    *others = 0;
    snprintf(copy, sizeof(copy), "%s", list);
    for (e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        size_t i, n = strlen(e);

        if (n && e[n - 1] == '/') {
            e[n - 1] = '\0';
        }
        e = strrchr(e, '/') ? strrchr(e, '/') + 1 : e;
        for (i = 0; i < ARRAY_SIZE(slaves) && strcasecmp(e, slaves[i]); i++) {
            /* up to the slave named e */
        }
        if (i < ARRAY_SIZE(slaves)) {
            mask |= 1u << i;
        } else if (strlen(e) == 15 && e[2] == '.') {
            (*others)++;
        }
    }
    return mask;
}

struct ow_case {
    const char *name;
    int (*fn)(const struct ow_case *c, char *why, size_t wl);
    int a, b;                        /* the function's arguments */
    const char *write, *value;       /* c_io: an optional write, */
    const char *read[2], *expect[2]; /* then reads compared as strings */
};

static int c_listing(const struct ow_case *c, char *why, size_t wl)
{
    long long t0 = now_ms();
    unsigned int mask = 0;
    int r, others = 0;
    char buf[2048];

    (void)c;
    do {
        r = ow_read(U, buf, sizeof(buf));
        mask = r < 0 ? 0 : listed(buf, &others);
        if (mask == 0xf && !others) {
            break;
        }
        usleep(100000);
    } while (now_ms() < t0 + LIST_WAIT_MS);
    if (r < 0) {
        FAIL("OW_get(" U "): %s", strerror(-r));
    }
    if (mask != 0xf || others) {
        FAIL("'%.300s': slaves %x of the four (f), %d others", buf, mask,
             others);
    }
    note("%s: %s (after %lld ms)", cur->prefix, buf, now_ms() - t0);
    return KTAP_PASS;
}

/*
 * One conversion at a bits, after the host set t1 to b m°C unless b is 0:
 * within the resolution's step of the model's 21.5 C, or exactly b.
 */
static int c_temp(const struct ow_case *c, char *why, size_t wl)
{
    double step = c->b ? 0.0001 : 0.0625 * (1 << (12 - c->a)), t;
    double want = (c->b ? c->b : T1_MC) / 1000.0;
    char path[80];
    int r;

    if (c->b && pbctl_qom_set_int(QOM_T1, "temperature", c->b)) {
        FAIL("qom-set t1 temperature %d: %s", c->b, pbctl_last_reply());
    }
    snprintf(path, sizeof(path), U T1 "/temperature%d", c->a);
    r = ow_read_num(path, &t);
    if (r) {
        FAIL("%s: %s", path, strerror(-r));
    }
    if (fabs(t - want) >= step) {
        FAIL("%s = %g, expected %g within %g", path, t, want, step);
    }
    return KTAP_PASS;
}

/*
 * DS2431: b bytes at offset a, 32 at a page start through pages/page.N,
 * fewer than a row's 8 at a row start through memory (owfs reads the row,
 * merges, writes it whole; owfs 3.2p4 compares the scratchpad from the row
 * start, so its own write starting inside a row fails: not tested).  The
 * whole memory must read back as before but for the bytes written, which
 * differ per mode so that the second mode cannot pass on the first's data.
 */
static int c_eeprom(const struct ow_case *c, char *why, size_t wl)
{
    char before[128], after[128], w[32], path[80];
    int n;

    n = OW_lread(U E1 "/memory", before, 128, 0);
    if (n != 128) {
        FAIL("memory read: %d (%s)", n, strerror(errno));
    }
    for (int i = 0; i < c->b; i++) {
        w[i] = (char)(c->a * 37 + i * 11 + cur->mark);
    }
    if (c->b == 32) {
        snprintf(path, sizeof(path), "/" E1 "/pages/page.%d", c->a / 32);
    } else {
        snprintf(path, sizeof(path), "/" E1 "/memory");
    }
    n = c->b == 32 ? OW_put(path, w, 32) : OW_lwrite(path, w, c->b, c->a);
    if (n < 0) {
        FAIL("writing %d bytes at %d through %s: %s", c->b, c->a, path,
             strerror(errno));
    }
    memcpy(before + c->a, w, c->b);
    if (c->b == 32) {
        snprintf(path, sizeof(path), U E1 "/pages/page.%d", c->a / 32);
        n = OW_lread(path, after, 32, 0);
        if (n != 32 || memcmp(after, w, 32)) {
            FAIL("%s reads back %d bytes, not the 32 written", path, n);
        }
    }
    n = OW_lread(U E1 "/memory", after, 128, 0);
    if (n != 128) {
        FAIL("memory read back: %d (%s)", n, strerror(errno));
    }
    for (n = 0; n < 128 && after[n] == before[n]; n++) {
        /* up to the first byte that differs */
    }
    if (n < 128) {
        FAIL("memory byte %d reads %02x, expected %02x", n,
             (unsigned char)after[n], (unsigned char)before[n]);
    }
    return KTAP_PASS;
}

static int c_io(const struct ow_case *c, char *why, size_t wl)
{
    int r = c->write ? ow_write(c->write, c->value) : 0;
    char buf[128];

    if (r) {
        FAIL("write '%s' to %s: %s", c->value, c->write, strerror(-r));
    }
    for (int i = 0; i < 2 && c->read[i]; i++) {
        r = ow_read(c->read[i], buf, sizeof(buf));
        if (r < 0) {
            FAIL("%s: %s", c->read[i], strerror(-r));
        }
        if (strcmp(buf + strspn(buf, " "), c->expect[i])) {
            FAIL("%s = '%s', expected '%s'", c->read[i], buf, c->expect[i]);
        }
    }
    return KTAP_PASS;
}

/*
 * Alarm search: TH a and TL b written (scratchpad and EEPROM), a conversion
 * (the DS18B20 sets its alarm flag there), then /alarm/ must list t1 alone
 * or nothing.
 */
static int c_alarm(const struct ow_case *c, char *why, size_t wl)
{
    bool want = T1_MC / 1000 >= c->a || T1_MC / 1000 <= c->b;
    double th = 0, tl = 0, t = 0;
    char v[2][16], buf[512];
    int r, others;

    snprintf(v[0], sizeof(v[0]), "%d", c->a);
    snprintf(v[1], sizeof(v[1]), "%d", c->b);
    r = ow_write("/" T1 "/temphigh", v[0]) ?: ow_write("/" T1 "/templow", v[1]);
    if (r) {
        FAIL("writing temphigh %s, templow %s: %s", v[0], v[1], strerror(-r));
    }
    r = ow_read_num(U T1 "/temphigh", &th) ?: ow_read_num(U T1 "/templow", &tl);
    if (r) {
        FAIL("reading temphigh, templow: %s", strerror(-r));
    }
    if (th != c->a || tl != c->b) {
        FAIL("temphigh %g, templow %g read back, wrote %d, %d", th, tl, c->a,
             c->b);
    }
    r = ow_read_num(U T1 "/temperature12", &t);
    if (r) {
        FAIL("conversion: %s", strerror(-r));
    }
    r = ow_read(U "alarm", buf, sizeof(buf));
    if (r < 0) {
        FAIL("OW_get(" U "alarm): %s", strerror(-r));
    }
    if (listed(buf, &others) != (want ? 1u : 0u) || others) {
        FAIL("TH %d TL %d at %g C: alarm lists '%s', expected %s", c->a, c->b,
             t, buf, want ? "t1 alone" : "nothing");
    }
    return KTAP_PASS;
}

/*
 * owfs's own counters: a CRC error or a retried read or write means owfs
 * saw something wrong on the bus and recovered, which the values cannot show.
 */
static int c_stats(const struct ow_case *c, char *why, size_t wl)
{
    static const char *const paths[] = {
        "errors/CRC8_errors", "errors/CRC16_errors", "read/tries.1",
        "read/tries.2",       "write/tries.1",       "write/tries.2",
    };
    char all[300] = "", *p = all, path[80];
    bool bad = false;

    (void)c;
    for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
        double v;
        int r;

        snprintf(path, sizeof(path), "/statistics/%s", paths[i]);
        r = ow_read_num(path, &v);
        if (r) {
            FAIL("%s: %s", path, strerror(-r));
        }
        bad |= v != 0;
        p += snprintf(p, all + sizeof(all) - p, "%s%s %g", i ? ", " : "",
                      paths[i], v);
    }
    if (bad) {
        FAIL("%s", all);
    }
    note("%s: %s", cur->prefix, all);
    return KTAP_PASS;
}

/* c_io cases: an optional write of v to w, then r0 reads e0 and r1 reads e1 */
#define IO(name, w, v, r0, e0, r1, e1)    \
    {                                     \
        name, c_io, 0, 0, w, v, {r0, r1}, \
        {                                 \
            e0, e1                        \
        }                                 \
    }
/* the other cases: a function and its two arguments */
#define CASE(n, f, x, y)                   \
    {                                      \
        .name = n, .fn = f, .a = x, .b = y \
    }

static const struct ow_case cases[] = {
    CASE("listing: exactly the four slaves of the default topology", c_listing,
         0, 0),
    CASE("DS18B20 temperature9 reads 21.5 C (step 0.5)", c_temp, 9, 0),
    CASE("DS18B20 temperature10 reads 21.5 C (step 0.25)", c_temp, 10, 0),
    CASE("DS18B20 temperature11 reads 21.5 C (step 0.125)", c_temp, 11, 0),
    CASE("DS18B20 temperature12 reads 21.5 C (step 0.0625)", c_temp, 12, 0),
    IO("DS18B20 power reads 1 (external power)", NULL, NULL, U T1 "/power", "1",
       NULL, NULL),
    CASE("DS18B20 follows a host-side change to -10.125 C", c_temp, 12, -10125),
    CASE("DS18B20 back at 21.5 C after the host restores it", c_temp, 12,
         T1_MC),
    CASE("DS2431 page.1 written (32 bytes) and read back", c_eeprom, 32, 32),
    CASE("DS2431 page.3 written (32 bytes) and read back", c_eeprom, 96, 32),
    CASE("DS2431 3 bytes at row start 72: the row's other bytes kept", c_eeprom,
         72, 3),
    IO("DS2408 sensed.BYTE 255 (pio-input=255, latches off)", NULL, NULL,
       U P1 "/sensed.BYTE", "255", U P1 "/sensed.ALL", "1,1,1,1,1,1,1,1"),
    IO("DS2408 PIO.BYTE 0 (no output on)", NULL, NULL, U P1 "/PIO.BYTE", "0",
       U P1 "/PIO.ALL", "0,0,0,0,0,0,0,0"),
    /* DS2408: PIO 1 = output transistor on = latch 0: the pin (sensed) is 0 */
    IO("DS2408 PIO.BYTE 85 written: reads 85, sensed 170", "/" P1 "/PIO.BYTE",
       "85", U P1 "/PIO.BYTE", "85", U P1 "/sensed.BYTE", "170"),
    IO("DS2408 PIO.7 written: PIO.ALL and sensed.ALL follow", "/" P1 "/PIO.7",
       "1", U P1 "/PIO.ALL", "1,0,1,0,1,0,1,1", U P1 "/sensed.ALL",
       "0,1,0,1,0,1,0,0"),
    IO("DS2408 PIO.BYTE 0 written: sensed 255 again", "/" P1 "/PIO.BYTE", "0",
       U P1 "/PIO.BYTE", "0", U P1 "/sensed.BYTE", "255"),
    IO("DS2413 sensed.ALL 1,1, PIO.ALL 0,0", NULL, NULL, U P2 "/sensed.ALL",
       "1,1", U P2 "/PIO.ALL", "0,0"),
    IO("DS2413 PIO.A written: PIO.ALL 1,0, sensed.ALL 0,1", "/" P2 "/PIO.A",
       "1", U P2 "/PIO.ALL", "1,0", U P2 "/sensed.ALL", "0,1"),
    IO("DS2413 PIO.ALL 0,1 written: sensed.ALL 1,0", "/" P2 "/PIO.ALL", "0,1",
       U P2 "/PIO.ALL", "0,1", U P2 "/sensed.ALL", "1,0"),
    IO("DS2413 PIO.ALL 0,0 written: sensed.ALL 1,1", "/" P2 "/PIO.ALL", "0,0",
       U P2 "/PIO.ALL", "0,0", U P2 "/sensed.ALL", "1,1"),
    /* the DS2408's power-on reset latch answers conditional searches */
    IO("DS2408 por cleared (out of the alarm search)", "/" P1 "/por", "0",
       U P1 "/por", "0", NULL, NULL),
    CASE("alarm: nothing alarms with TH 125, TL -55", c_alarm, 125, -55),
    CASE("alarm: exactly t1 with TH 20 below 21.5 C", c_alarm, 20, -55),
    CASE("alarm: nothing after TH 125 restored", c_alarm, 125, -55),
    CASE("alarm: exactly t1 with TL 22 above 21.5 C", c_alarm, 125, 22),
    CASE("alarm: nothing after TL -55 restored", c_alarm, 125, -55),
    CASE("owfs statistics: no CRC errors, no retried reads or writes", c_stats,
         0, 0),
};

/*
 * The child's last words, into its log: the signal, the pc, the lr and the
 * frame-record chain as library+offset (glibc's backtrace() would dlopen
 * libgcc_s, which the package layer does not carry).  SA_RESETHAND: the
 * child then dies of the same signal, the parent's SIGQUIT for a hang too.
 */
static void dump_addr(const char *what, unsigned long a)
{
    Dl_info di = {0};
    char line[320], sym[200] = "";
    int n;

    if (!a || !dladdr((void *)a, &di) || !di.dli_fname) {
        di = (Dl_info){.dli_fname = "?"};
    }
    if (di.dli_sname) {
        snprintf(sym, sizeof(sym), " (%s+%#lx)", di.dli_sname,
                 a - (unsigned long)di.dli_saddr);
    }
    n = snprintf(line, sizeof(line), "  %s %#lx %s+%#lx%s\n", what, a,
                 di.dli_fname, a - (unsigned long)di.dli_fbase, sym);
    if (write(2, line, n) < 0) {
        _exit(4);
    }
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
    char line[200];
    int n = snprintf(
        line, sizeof(line),
        "owfs_test: SIG%s (si_code %d, address %p) in thread %ld\n",
        sigabbrev_np(sig), si->si_code, si->si_addr, (long)syscall(SYS_gettid));

    if (write(2, line, n) < 0) {
        _exit(4);
    }
#ifdef __aarch64__
    {
        const mcontext_t *mc = &((ucontext_t *)uc)->uc_mcontext;
        unsigned long fp = mc->regs[29], sp = mc->sp;

        dump_addr("pc", mc->pc);
        dump_addr("lr", mc->regs[30]);
        /* {fp, lr} records up the stack while they look sane */
        for (int i = 0;
             i < 24 && fp >= sp && fp - sp < (1ul << 20) && !(fp & 15); i++) {
            const unsigned long *rec = (const unsigned long *)fp;

            dump_addr("fp", rec[1]);
            if (rec[0] <= fp) {
                break;
            }
            fp = rec[0];
        }
    }
#endif
    (void)uc;
    raise(sig);
}

void owfs_child(const struct mode *m, int fd)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT,
                               SIGILL,  SIGFPE, SIGQUIT};
    struct sigaction sa = {.sa_sigaction = crash_handler,
                           .sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER};
    char why[480];

    cur = m;
    report_fd = fd;
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
    if (OW_init(m->init) < 0) {
        snprintf(why, sizeof(why), "OW_init(\"%s\"): %s", m->init,
                 strerror(errno));
        for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
            report((int)i, KTAP_FAIL, "%s", why);
        }
        _exit(1);
    }
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const struct ow_case *c = &cases[i];
        const char *lack =
            c->fn == c_temp && c->b ? kconfig_lacks(NEED_CTL) : NULL;
        int r = KTAP_SKIP;

        cur_case = (int)i;
        report(cur_case, CHILD_START, "%s", "");
        why[0] = '\0';
        if (lack) {
            snprintf(why, sizeof(why), "%s", lack);
        } else if (c->fn == c_temp && c->b && pbctl_open()) {
            snprintf(why, sizeof(why), "%s", pbctl_unavailable_reason());
        } else {
            r = c->fn(c, why, sizeof(why));
        }
        report(cur_case, r, "%s", why);
    }
    pbctl_close();
    OW_finish();
    _exit(0);
}

size_t owfs_ncases(void)
{
    return ARRAY_SIZE(cases);
}

const char *owfs_case_name(size_t i)
{
    return cases[i].name;
}
