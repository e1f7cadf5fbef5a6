// SPDX-License-Identifier: GPL-2.0
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
 * the pc/lr chain of a crash) goes to /tmp/owfs-MODE.log, whose tail is
 * printed when the mode fails.  Reads go through /uncached/.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <owcapi.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "helpers.h"
#include "kconfig.h"
#include "ktap.h"
#include "pbctl.h"

#define USB_DEVICES	"/sys/bus/usb/devices"
#define DRV_DIR		"/sys/bus/usb/drivers/DS9490R"
#define W1_MASTER	"/sys/bus/w1/devices/w1_bus_master1"
#define QOM_T1		"/machine/peripheral/t1"

#define T1	"28.3D2C1B0A0000"	/* DS18B20 at 21.5 C */
#define E1	"2D.332211000000"	/* DS2431 */
#define P1	"29.665544000000"	/* DS2408, pio-input=255 */
#define P2	"3A.998877000000"	/* DS2413 */
#define U	"/uncached/"

#define T1_MC		21500
#define NEED_CTL	"CONFIG_VIRTIO_PCI CONFIG_VIRTIO_CONSOLE"
#define NEED_KDRV	"CONFIG_W1 CONFIG_W1_MASTER_DS2490"
#define NEED_W1		NEED_KDRV " CONFIG_NET CONFIG_CONNECTOR CONFIG_W1_CON"

#define KERNEL_WAIT_MS	15000	/* master and slaves after a bind */
#define LIST_WAIT_MS	10000	/* owfs --w1 learns the masters asynchronously */
#define STALL_MS	30000	/* no report from the child: hung */

/* owfs's debug messages go to the log, printed only when a mode fails */
#define OW_DEBUG	"--error_level=5 --error_print=2"

static const struct mode {
	const char *prefix;	/* of the case names */
	const char *init;	/* OW_init() arguments */
	int limit_s;		/* the whole mode (/init allows 290 s in all) */
} modes[] = {
	/* seen under TCG: usb 2-11 s, w1 25-75 s (ds2490 has no touch_block) */
	{ "usb", "-u " OW_DEBUG, 60 },
	{ "w1", "--w1 " OW_DEBUG, 180 },
};

static const char *const slaves[] = { T1, E1, P1, P2 };

enum { R_PASS, R_FAIL, R_SKIP, R_START, R_NOTE };

#define FAIL(...)	do { snprintf(why, wl, __VA_ARGS__); return R_FAIL; } while (0)

static const struct mode *cur;	/* the child's mode */
static int report_fd = -1, cur_case;

/* ---- helpers -------------------------------------------------------------- */

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);
	int err = errno;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* ---- the child: owfs ------------------------------------------------------ */

struct report {
	int idx, kind;
	char text[480];
};

static KTAP_PRINTF(3, 4) void report(int idx, int kind, const char *fmt, ...)
{
	struct report r = { .idx = idx, .kind = kind };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r.text, sizeof(r.text), fmt, ap);
	va_end(ap);
	if (write(report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
}

/* A diagnostic line for the parent to print before the case's result. */
#define note(...)	report(cur_case, R_NOTE, __VA_ARGS__)

/* OW_get into buf, NUL-terminated (owfs pads numbers with blanks): 0 or -errno. */
static int ow_read(const char *path, char *buf, size_t len)
{
	char *data = NULL;
	size_t n = 0;
	int r = OW_get(path, &data, &n) < 0 ? (errno ? -errno : -EIO) : 0;

	if (r || n >= len)
		n = r ? 0 : len - 1;
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

	if (r < 0)
		return r;
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

		if (n && e[n - 1] == '/')
			e[n - 1] = '\0';
		e = strrchr(e, '/') ? strrchr(e, '/') + 1 : e;
		for (i = 0; i < ARRAY_SIZE(slaves) && strcasecmp(e, slaves[i]); i++)
			;
		if (i < ARRAY_SIZE(slaves))
			mask |= 1u << i;
		else if (strlen(e) == 15 && e[2] == '.')
			(*others)++;
	}
	return mask;
}

struct ow_case {
	const char *name;
	int (*fn)(const struct ow_case *c, char *why, size_t wl);
	int a, b;			/* the function's arguments */
	const char *write, *value;	/* c_io: an optional write, */
	const char *read[2], *expect[2];	/* then reads compared as strings */
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
		if (mask == 0xf && !others)
			break;
		usleep(100000);
	} while (now_ms() < t0 + LIST_WAIT_MS);
	if (r < 0)
		FAIL("OW_get(" U "): %s", strerror(-r));
	if (mask != 0xf || others)
		FAIL("'%.300s': slaves %x of the four (f), %d others", buf, mask, others);
	note("%s: %s (after %lld ms)", cur->prefix, buf, now_ms() - t0);
	return R_PASS;
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

	if (c->b && pbctl_qom_set_int(QOM_T1, "temperature", c->b))
		FAIL("qom-set t1 temperature %d: %s", c->b, pbctl_last_reply());
	snprintf(path, sizeof(path), U T1 "/temperature%d", c->a);
	r = ow_read_num(path, &t);
	if (r)
		FAIL("%s: %s", path, strerror(-r));
	if (fabs(t - want) >= step)
		FAIL("%s = %g, expected %g within %g", path, t, want, step);
	return R_PASS;
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
	if (n != 128)
		FAIL("memory read: %d (%s)", n, strerror(errno));
	for (int i = 0; i < c->b; i++)
		w[i] = (char)(c->a * 37 + i * 11 + (cur == &modes[0] ? 0 : 0x80));
	if (c->b == 32)
		snprintf(path, sizeof(path), "/" E1 "/pages/page.%d", c->a / 32);
	else
		snprintf(path, sizeof(path), "/" E1 "/memory");
	n = c->b == 32 ? OW_put(path, w, 32) : OW_lwrite(path, w, c->b, c->a);
	if (n < 0)
		FAIL("writing %d bytes at %d through %s: %s", c->b, c->a, path, strerror(errno));
	memcpy(before + c->a, w, c->b);
	if (c->b == 32) {
		snprintf(path, sizeof(path), U E1 "/pages/page.%d", c->a / 32);
		n = OW_lread(path, after, 32, 0);
		if (n != 32 || memcmp(after, w, 32))
			FAIL("%s reads back %d bytes, not the 32 written", path, n);
	}
	n = OW_lread(U E1 "/memory", after, 128, 0);
	if (n != 128)
		FAIL("memory read back: %d (%s)", n, strerror(errno));
	for (n = 0; n < 128 && after[n] == before[n]; n++)
		;
	if (n < 128)
		FAIL("memory byte %d reads %02x, expected %02x", n,
		     (unsigned char)after[n], (unsigned char)before[n]);
	return R_PASS;
}

static int c_io(const struct ow_case *c, char *why, size_t wl)
{
	int r = c->write ? ow_write(c->write, c->value) : 0;
	char buf[128];

	if (r)
		FAIL("write '%s' to %s: %s", c->value, c->write, strerror(-r));
	for (int i = 0; i < 2 && c->read[i]; i++) {
		r = ow_read(c->read[i], buf, sizeof(buf));
		if (r < 0)
			FAIL("%s: %s", c->read[i], strerror(-r));
		if (strcmp(buf + strspn(buf, " "), c->expect[i]))
			FAIL("%s = '%s', expected '%s'", c->read[i], buf, c->expect[i]);
	}
	return R_PASS;
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
	if (r)
		FAIL("writing temphigh %s, templow %s: %s", v[0], v[1], strerror(-r));
	r = ow_read_num(U T1 "/temphigh", &th) ?: ow_read_num(U T1 "/templow", &tl);
	if (r)
		FAIL("reading temphigh, templow: %s", strerror(-r));
	if (th != c->a || tl != c->b)
		FAIL("temphigh %g, templow %g read back, wrote %d, %d", th, tl, c->a, c->b);
	r = ow_read_num(U T1 "/temperature12", &t);
	if (r)
		FAIL("conversion: %s", strerror(-r));
	r = ow_read(U "alarm", buf, sizeof(buf));
	if (r < 0)
		FAIL("OW_get(" U "alarm): %s", strerror(-r));
	if (listed(buf, &others) != (want ? 1u : 0u) || others)
		FAIL("TH %d TL %d at %g C: alarm lists '%s', expected %s", c->a, c->b, t,
		     buf, want ? "t1 alone" : "nothing");
	return R_PASS;
}

/*
 * owfs's own counters: a CRC error or a retried read or write means owfs
 * saw something wrong on the bus and recovered, which the values cannot show.
 */
static int c_stats(const struct ow_case *c, char *why, size_t wl)
{
	static const char *const paths[] = {
		"errors/CRC8_errors", "errors/CRC16_errors", "read/tries.1",
		"read/tries.2", "write/tries.1", "write/tries.2",
	};
	char all[300] = "", *p = all, path[80];
	bool bad = false;

	(void)c;
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		double v;
		int r;

		snprintf(path, sizeof(path), "/statistics/%s", paths[i]);
		r = ow_read_num(path, &v);
		if (r)
			FAIL("%s: %s", path, strerror(-r));
		bad |= v != 0;
		p += snprintf(p, all + sizeof(all) - p, "%s%s %g", i ? ", " : "", paths[i], v);
	}
	if (bad)
		FAIL("%s", all);
	note("%s: %s", cur->prefix, all);
	return R_PASS;
}

/* c_io cases: an optional write of v to w, then r0 reads e0 and r1 reads e1 */
#define IO(name, w, v, r0, e0, r1, e1) \
	{ name, c_io, 0, 0, w, v, { r0, r1 }, { e0, e1 } }

static const struct ow_case cases[] = {
	{ "listing: exactly the four slaves of the default topology", c_listing },
	{ "DS18B20 temperature9 reads 21.5 C (step 0.5)", c_temp, 9 },
	{ "DS18B20 temperature10 reads 21.5 C (step 0.25)", c_temp, 10 },
	{ "DS18B20 temperature11 reads 21.5 C (step 0.125)", c_temp, 11 },
	{ "DS18B20 temperature12 reads 21.5 C (step 0.0625)", c_temp, 12 },
	IO("DS18B20 power reads 1 (external power)", NULL, NULL, U T1 "/power", "1", NULL, NULL),
	{ "DS18B20 follows a host-side change to -10.125 C", c_temp, 12, -10125 },
	{ "DS18B20 back at 21.5 C after the host restores it", c_temp, 12, T1_MC },
	{ "DS2431 page.1 written (32 bytes) and read back", c_eeprom, 32, 32 },
	{ "DS2431 page.3 written (32 bytes) and read back", c_eeprom, 96, 32 },
	{ "DS2431 3 bytes at row start 72: the row's other bytes kept", c_eeprom, 72, 3 },
	IO("DS2408 sensed.BYTE 255 (pio-input=255, latches off)", NULL, NULL,
	   U P1 "/sensed.BYTE", "255", U P1 "/sensed.ALL", "1,1,1,1,1,1,1,1"),
	IO("DS2408 PIO.BYTE 0 (no output on)", NULL, NULL, U P1 "/PIO.BYTE", "0",
	   U P1 "/PIO.ALL", "0,0,0,0,0,0,0,0"),
	/* DS2408: PIO 1 = output transistor on = latch 0: the pin (sensed) reads 0 */
	IO("DS2408 PIO.BYTE 85 written: reads 85, sensed 170", "/" P1 "/PIO.BYTE", "85",
	   U P1 "/PIO.BYTE", "85", U P1 "/sensed.BYTE", "170"),
	IO("DS2408 PIO.7 written: PIO.ALL and sensed.ALL follow", "/" P1 "/PIO.7", "1",
	   U P1 "/PIO.ALL", "1,0,1,0,1,0,1,1", U P1 "/sensed.ALL", "0,1,0,1,0,1,0,0"),
	IO("DS2408 PIO.BYTE 0 written: sensed 255 again", "/" P1 "/PIO.BYTE", "0",
	   U P1 "/PIO.BYTE", "0", U P1 "/sensed.BYTE", "255"),
	IO("DS2413 sensed.ALL 1,1, PIO.ALL 0,0", NULL, NULL,
	   U P2 "/sensed.ALL", "1,1", U P2 "/PIO.ALL", "0,0"),
	IO("DS2413 PIO.A written: PIO.ALL 1,0, sensed.ALL 0,1", "/" P2 "/PIO.A", "1",
	   U P2 "/PIO.ALL", "1,0", U P2 "/sensed.ALL", "0,1"),
	IO("DS2413 PIO.ALL 0,1 written: sensed.ALL 1,0", "/" P2 "/PIO.ALL", "0,1",
	   U P2 "/PIO.ALL", "0,1", U P2 "/sensed.ALL", "1,0"),
	IO("DS2413 PIO.ALL 0,0 written: sensed.ALL 1,1", "/" P2 "/PIO.ALL", "0,0",
	   U P2 "/PIO.ALL", "0,0", U P2 "/sensed.ALL", "1,1"),
	/* the DS2408's power-on reset latch answers conditional searches */
	IO("DS2408 por cleared (out of the alarm search)", "/" P1 "/por", "0",
	   U P1 "/por", "0", NULL, NULL),
	{ "alarm: nothing alarms with TH 125, TL -55", c_alarm, 125, -55 },
	{ "alarm: exactly t1 with TH 20 below 21.5 C", c_alarm, 20, -55 },
	{ "alarm: nothing after TH 125 restored", c_alarm, 125, -55 },
	{ "alarm: exactly t1 with TL 22 above 21.5 C", c_alarm, 125, 22 },
	{ "alarm: nothing after TL -55 restored", c_alarm, 125, -55 },
	{ "owfs statistics: no CRC errors, no retried reads or writes", c_stats },
};

/*
 * The child's last words, into its log: the signal, the pc, the lr and the
 * frame-record chain as library+offset (glibc's backtrace() would dlopen
 * libgcc_s, which the package layer does not carry).  SA_RESETHAND: the
 * child then dies of the same signal, the parent's SIGQUIT for a hang too.
 */
static void dump_addr(const char *what, unsigned long a)
{
	Dl_info di = { 0 };
	char line[320];
	int n;

	if (!a || !dladdr((void *)a, &di) || !di.dli_fname)
		di = (Dl_info){ .dli_fname = "?" };
	if (di.dli_sname)
		n = snprintf(line, sizeof(line), "  %s %#lx %s+%#lx (%s+%#lx)\n", what, a,
			     di.dli_fname, a - (unsigned long)di.dli_fbase, di.dli_sname,
			     a - (unsigned long)di.dli_saddr);
	else
		n = snprintf(line, sizeof(line), "  %s %#lx %s+%#lx\n", what, a,
			     di.dli_fname, a - (unsigned long)di.dli_fbase);
	if (write(2, line, n) < 0)
		_exit(4);
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	char line[200];
	int n = snprintf(line, sizeof(line),
			 "owfs_test: SIG%s (si_code %d, address %p) in thread %ld\n",
			 sigabbrev_np(sig), si->si_code, si->si_addr,
			 (long)syscall(SYS_gettid));

	if (write(2, line, n) < 0)
		_exit(4);
#ifdef __aarch64__
	{
		const mcontext_t *mc = &((ucontext_t *)uc)->uc_mcontext;
		unsigned long fp = mc->regs[29], sp = mc->sp;

		dump_addr("pc", mc->pc);
		dump_addr("lr", mc->regs[30]);
		/* {fp, lr} records up the stack while they look sane */
		for (int i = 0; i < 24 && fp >= sp && fp - sp < (1ul << 20) && !(fp & 15); i++) {
			const unsigned long *rec = (const unsigned long *)fp;

			dump_addr("fp", rec[1]);
			if (rec[0] <= fp)
				break;
			fp = rec[0];
		}
	}
#endif
	(void)uc;
	raise(sig);
}

static void child(const struct mode *m, int fd)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGQUIT };
	struct sigaction sa = { .sa_sigaction = crash_handler,
				.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER };
	char why[480];

	cur = m;
	report_fd = fd;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (OW_init(m->init) < 0) {
		snprintf(why, sizeof(why), "OW_init(\"%s\"): %s", m->init, strerror(errno));
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			report((int)i, R_FAIL, "%s", why);
		_exit(1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ow_case *c = &cases[i];
		const char *lack = c->fn == c_temp && c->b ? kconfig_lacks(NEED_CTL) : NULL;
		int r = R_SKIP;

		cur_case = (int)i;
		report(cur_case, R_START, "%s", "");
		why[0] = '\0';
		if (lack)
			snprintf(why, sizeof(why), "%s", lack);
		else if (c->fn == c_temp && c->b && pbctl_open())
			snprintf(why, sizeof(why), "%s", pbctl_unavailable_reason());
		else
			r = c->fn(c, why, sizeof(why));
		report(cur_case, r, "%s", why);
	}
	pbctl_close();
	OW_finish();
	_exit(0);
}

/* ---- the parent: KTAP, the kernel's driver -------------------------------- */

static void result(const char *prefix, const char *name, int kind, const char *why)
{
	char full[300];

	snprintf(full, sizeof(full), "%s: %s", prefix, name);
	if (kind == R_PASS)
		ktap_test_pass(full);
	else if (kind == R_SKIP)
		ktap_test_skip(full, "%s", why);
	else
		ktap_test_fail(full, "%s", why[0] ? why : "failed");
}

/* The last 12 KiB of the child's log, as diagnostics. */
static void print_log_tail(const char *log)
{
	static char buf[12288];
	int fd = open(log, O_RDONLY | O_CLOEXEC), n = 0;
	off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);

	if (size > 0)
		n = (int)pread(fd, buf, sizeof(buf) - 1,
			       size >= (off_t)sizeof(buf) ? size - (off_t)sizeof(buf) + 1 : 0);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	ktap_print_msg("last %d bytes of %s:", n, log);
	for (char *s = strtok(buf, "\n"); s; s = strtok(NULL, "\n"))
		ktap_print_msg("  %s", s);
}

#define EXIT_CASE	"owfs finished cleanly (OW_finish, exit 0)"

/* One mode's table in a child: a result per case, then the exit case. */
static void run_mode(const struct mode *m)
{
	int p[2] = { -1, -1 }, st = 0, next = 0, running = -1, n = ARRAY_SIZE(cases);
	long long start = now_ms(), last = start;
	bool hung = false, failed = false;
	char log[64], why[400];
	const char *where;
	pid_t pid = -1;

	snprintf(log, sizeof(log), "/tmp/owfs-%s.log", m->prefix);
	fflush(stdout);
	if (pipe2(p, O_CLOEXEC) == 0)
		pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		close(p[0]);
		if (fd >= 0)
			dup2(fd, 2);
		dup2(2, 1);	/* nothing of owfs's into the KTAP */
		child(m, p[1]);
	}
	snprintf(why, sizeof(why), "cannot start the owfs child: %s", strerror(errno));
	close(p[1]);
	while (pid > 0) {	/* until EOF: OW_finish() is timed too */
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		long long t = now_ms(), left = last + STALL_MS - t;
		struct report r;

		if (start + m->limit_s * 1000LL - t < left)
			left = start + m->limit_s * 1000LL - t;
		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			hung = true;
			break;
		}
		if (read(p[0], &r, sizeof(r)) != sizeof(r))
			break;	/* the child is gone */
		last = now_ms();
		if (r.idx != next || next == n)
			continue;
		if (r.kind == R_NOTE) {
			ktap_print_msg("%s", r.text);
		} else if (r.kind == R_START) {
			running = r.idx;
		} else {
			failed |= r.kind == R_FAIL;
			result(m->prefix, cases[next++].name, r.kind, r.text);
		}
	}
	if (hung) {
		kill(pid, SIGQUIT);	/* its pc and lr into the log */
		sleep(1);
		kill(pid, SIGKILL);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid) {
		if (hung)
			snprintf(why, sizeof(why),
				 "owfs hung: no progress for %lld s (%lld s into the mode), killed",
				 (now_ms() - last) / 1000, (now_ms() - start) / 1000);
		else if (WIFSIGNALED(st))
			snprintf(why, sizeof(why), "owfs died with SIG%s (signal %d)",
				 sigabbrev_np(WTERMSIG(st)), WTERMSIG(st));
		else
			snprintf(why, sizeof(why), "owfs child exited with status %d",
				 WEXITSTATUS(st));
	}
	close(p[0]);
	where = "OW_init";
	if (running >= 0)
		where = cases[running].name;
	for (failed |= next < n; next < n; next++) {
		char w2[480];

		if (next == running)
			snprintf(w2, sizeof(w2), "%s in this case", why);
		else
			snprintf(w2, sizeof(w2), "not run: %s in '%s'", why, where);
		result(m->prefix, cases[next].name, R_FAIL, w2);
	}
	if (pid > 0 && !hung && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		result(m->prefix, EXIT_CASE, R_PASS, "");
	} else {
		result(m->prefix, EXIT_CASE, R_FAIL, why);
		failed = true;
	}
	ktap_print_msg("%s: %lld ms", m->prefix, now_ms() - start);
	if (failed)
		print_log_tail(log);
}

/* The host's t1 back at 21.5 C, whatever a dead child left behind. */
static void restore_host(void)
{
	if (!kconfig_lacks(NEED_CTL) && pbctl_open() == 0) {
		if (pbctl_qom_set_int(QOM_T1, "temperature", T1_MC))
			ktap_print_msg("restoring t1: %s", pbctl_last_reply());
		pbctl_close();
	}
}

static char usb_intf[64];	/* the DS2490's interface 0, e.g. 1-1:1.0 */

/* The interface's driver, "" when unbound. */
static const char *intf_driver(void)
{
	static char drv[64];
	char p[300], link[300];
	ssize_t n;

	snprintf(p, sizeof(p), USB_DEVICES "/%s/driver", usb_intf);
	n = readlink(p, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	snprintf(drv, sizeof(drv), "%s", strrchr(link, '/') ? strrchr(link, '/') + 1 : "");
	return drv;
}

/* w1_bus_master1's slave count once it is 4, or after KERNEL_WAIT_MS. */
static long wait_kernel_master(void)
{
	long long end = now_ms() + KERNEL_WAIT_MS;
	char buf[32];
	long count;

	do {
		count = read_str(W1_MASTER "/w1_master_slave_count", buf, sizeof(buf)) ?
			-1 : strtol(buf, NULL, 10);
		if (count == (long)ARRAY_SIZE(slaves))
			break;
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

	while (d && (de = readdir(d)))
		if (strchr(de->d_name, ':'))	/* the bound interface */
			snprintf(usb_intf, sizeof(usb_intf), "%s", de->d_name);
	if (d)
		closedir(d);
	if (!usb_intf[0])
		FAIL("no interface bound to " DRV_DIR " (w1_master_slave_count %ld)", count);
	r = write_str(DRV_DIR "/unbind", usb_intf);
	if (r)
		FAIL("unbind %s: %s", usb_intf, strerror(-r));
	while (!access(W1_MASTER, F_OK) && now_ms() < end)
		usleep(50000);
	if (!access(W1_MASTER, F_OK))
		FAIL(W1_MASTER " still there %d s after the unbind", KERNEL_WAIT_MS / 1000);
	return R_PASS;
}

/* After it: the driver back (unless OW_finish() reattached it), the slaves too. */
static int k_bind(char *why, size_t wl)
{
	long count;
	int r = 0;

	if (!usb_intf[0])
		FAIL("the interface was not unbound");
	ktap_print_msg("after OW_finish: %s bound to '%s'", usb_intf, intf_driver());
	if (!intf_driver()[0])
		r = write_str(DRV_DIR "/bind", usb_intf);
	if (r || strcmp(intf_driver(), "DS9490R"))
		FAIL("bind: %s; %s bound to '%s'", strerror(-r), usb_intf, intf_driver());
	count = wait_kernel_master();
	if (count != (long)ARRAY_SIZE(slaves))
		FAIL("w1_master_slave_count %ld %d s after the bind", count,
		     KERNEL_WAIT_MS / 1000);
	return R_PASS;
}

static void parent_case(const char *name, int (*fn)(char *, size_t), const char *lack)
{
	char why[300] = "";

	if (lack)
		snprintf(why, sizeof(why), "%s", lack);
	result("usb", name, lack ? R_SKIP : fn(why, sizeof(why)), why);
}

int main(void)
{
	const char *nodrv = kconfig_lacks(NEED_KDRV), *lack = kconfig_lacks(NEED_W1);
	char search[16] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_print_header();
	/* per mode the cases and the exit case; the unbind and the bind */
	ktap_set_plan(2 * (ARRAY_SIZE(cases) + 1) + 2);

	parent_case("DS9490R unbound, w1_bus_master1 gone", k_unbind, nodrv);
	run_mode(&modes[0]);
	restore_host();
	parent_case("DS9490R bound again, w1_bus_master1 back with 4 slaves", k_bind, nodrv);

	if (lack) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			result(modes[1].prefix, cases[i].name, R_SKIP, lack);
		result(modes[1].prefix, EXIT_CASE, R_SKIP, lack);
		return ktap_finished();
	}
	/*
	 * owfs splits one 1-Wire transaction over several netlink messages
	 * (RESET, TOUCH with MATCH ROM, TOUCH with the function bytes); a
	 * background search the kernel runs between two of them leaves another
	 * slave selected.  Off while owfs runs, as in w1_netlink.
	 */
	if (read_str(W1_MASTER "/w1_master_search", search, sizeof(search)) == 0)
		write_str(W1_MASTER "/w1_master_search", "0");
	run_mode(&modes[1]);
	if (search[0])
		write_str(W1_MASTER "/w1_master_search", search);
	restore_host();
	return ktap_finished();
}
