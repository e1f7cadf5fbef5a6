// SPDX-License-Identifier: GPL-2.0
/*
 * owfs_test - owfs's own library (Debian's libowcapi 3.2p4) against the
 * emulated DS2490 and the default 1-Wire topology, in both of owfs's modes:
 *
 *  usb: OW_init("-u"), owfs's DS9490 driver talking to the DS2490 through
 *       libusb.  The kernel's DS9490R driver is unbound through sysfs first
 *       (owfs would detach it with USBDEVFS_DISCONNECT itself and reattach
 *       it in OW_finish(); doing it here makes the state known), and bound
 *       again afterwards if owfs did not.
 *  w1:  OW_init("--w1"), owfs over the kernel's w1 netlink connector and the
 *       DS9490R driver's w1_bus_master1.
 *
 * Each mode runs the same case table in a forked child (OW_init, the cases,
 * OW_finish): the child reports every case over a pipe and the parent
 * prints the KTAP, so that a crash or a hang inside owfs fails the case that
 * was running with the signal named, the cases after it as not run, and the
 * other mode still runs.  The child's stderr (owfs's messages, and a
 * backtrace if it crashes) goes to /tmp/owfs-MODE.log; its tail is printed
 * as diagnostics when the mode fails.
 *
 * owfs names a slave FF.SSSSSSSSSSSS (family, serial MSB first); every read
 * goes through /uncached/ so that owfs's cache cannot hide the device.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <math.h>
#include <owcapi.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kconfig.h"
#include "ktap.h"
#include "pbctl.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define USB_DEVICES	"/sys/bus/usb/devices"
#define DRV_DIR		"/sys/bus/usb/drivers/DS9490R"
#define W1_MASTER	"/sys/bus/w1/devices/w1_bus_master1"
#define QOM_T1		"/machine/peripheral/t1"

#define T1	"28.3D2C1B0A0000"	/* DS18B20, 21.5 C */
#define E1	"2D.332211000000"	/* DS2431 */
#define P1	"29.665544000000"	/* DS2408, pio-input=255 */
#define P2	"3A.998877000000"	/* DS2413 */
#define U	"/uncached/"

#define T1_MC		21500
#define T1_COLD_MC	(-10125)

#define NEED_CTL	"CONFIG_VIRTIO_PCI CONFIG_VIRTIO_CONSOLE"
#define NEED_KDRV	"CONFIG_W1 CONFIG_W1_MASTER_DS2490"
#define NEED_W1	NEED_KDRV " CONFIG_NET CONFIG_CONNECTOR CONFIG_W1_CON"

#define KERNEL_WAIT_MS	15000	/* master and slaves after a bind */
#define LIST_WAIT_MS	10000	/* owfs w1: masters arrive asynchronously */
#define STALL_MS	30000	/* no report from the child: hung */
#define MODE_MS		120000	/* whole mode */

static const char *const slaves[] = { T1, E1, P1, P2 };

enum { R_PASS, R_FAIL, R_SKIP, R_START };

#define PASS()		return R_PASS
#define FAIL(...)	do { snprintf(why, wl, __VA_ARGS__); return R_FAIL; } while (0)
#define SKIP(...)	do { snprintf(why, wl, __VA_ARGS__); return R_SKIP; } while (0)

struct mode {
	const char *prefix;	/* case name prefix */
	const char *init;	/* OW_init() arguments */
	const char *needs;	/* kernel options for the whole mode */
	bool kernel_master;	/* owfs goes through w1_bus_master1 */
};

static const struct mode *cur;	/* the child's mode */
static int report_fd = -1;

/* ---- small helpers (both processes) --------------------------------------- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool path_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* ---- the kernel side: the DS2490's interface and w1_bus_master1 ----------- */

static char usb_intf[64];	/* e.g. 1-1:1.0 */

/* Find the 04fa:2490 device's interface 0; 0 or -1. */
static int ds2490_intf(void)
{
	DIR *d = opendir(USB_DEVICES);
	struct dirent *de;
	int r = -1;

	if (!d)
		return -1;
	while (r && (de = readdir(d))) {
		char p[300], v[16], pid[16];

		if (de->d_name[0] == '.' || strchr(de->d_name, ':'))
			continue;
		snprintf(p, sizeof(p), USB_DEVICES "/%s/idVendor", de->d_name);
		if (read_str(p, v, sizeof(v)) || strcmp(v, "04fa"))
			continue;
		snprintf(p, sizeof(p), USB_DEVICES "/%s/idProduct", de->d_name);
		if (read_str(p, pid, sizeof(pid)) || strcmp(pid, "2490"))
			continue;
		snprintf(usb_intf, sizeof(usb_intf), "%.40s:1.0", de->d_name);
		snprintf(p, sizeof(p), USB_DEVICES "/%s", usb_intf);
		r = path_exists(p) ? 0 : -1;
	}
	closedir(d);
	return r;
}

/* The interface's driver name, "" when unbound. */
static void intf_driver(char *drv, size_t len)
{
	char p[300], link[300];
	ssize_t n;

	snprintf(p, sizeof(p), USB_DEVICES "/%s/driver", usb_intf);
	n = readlink(p, link, sizeof(link) - 1);
	drv[0] = '\0';
	if (n > 0) {
		link[n] = '\0';
		snprintf(drv, len, "%s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	}
}

/* w1_bus_master1 with the four slaves; waits up to ms.  0 or -1. */
static int wait_kernel_master(int ms, long *count)
{
	long long end = now_ms() + ms;
	char buf[32];

	*count = -1;
	do {
		if (read_str(W1_MASTER "/w1_master_slave_count", buf, sizeof(buf)) == 0) {
			*count = strtol(buf, NULL, 10);
			if (*count == (long)ARRAY_SIZE(slaves))
				return 0;
		}
		sleep_ms(50);
	} while (now_ms() < end);
	return -1;
}

/* ---- the child: owfs ------------------------------------------------------ */

struct report {
	int idx;
	int kind;
	char text[480];
};

static void report(int idx, int kind, const char *text)
{
	struct report r = { .idx = idx, .kind = kind };

	snprintf(r.text, sizeof(r.text), "%s", text);
	if (write(report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
}

/* OW_get into buf (NUL-terminated, blanks trimmed): its length or -errno. */
static int ow_read(const char *path, char *buf, size_t len)
{
	char *data = NULL, *s;
	size_t n = 0;
	ssize_t r = OW_get(path, &data, &n);

	if (r < 0) {
		free(data);
		return errno ? -errno : -EIO;
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, data ? data : "", n);
	buf[n] = '\0';
	free(data);
	for (s = buf; *s == ' '; s++)
		;
	memmove(buf, s, strlen(s) + 1);
	return (int)strlen(buf);
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
 * The slaves of the default topology an owfs directory listing holds (bit i
 * for slaves[i]); unknown slave-like entries are counted in *others.
 */
static unsigned int listed(const char *list, int *others)
{
	char copy[2048], *save = NULL, *e;
	unsigned int mask = 0;

	*others = 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		char *b = strrchr(e, '/');
		size_t i;

		while (b && b[1] == '\0' && b > e) {	/* "NAME/" */
			*b = '\0';
			b = strrchr(e, '/');
		}
		b = b ? b + 1 : e;
		if (strlen(b) != 15 || b[2] != '.')
			continue;
		for (i = 0; i < ARRAY_SIZE(slaves); i++)
			if (!strcasecmp(b, slaves[i]))
				break;
		if (i < ARRAY_SIZE(slaves))
			mask |= 1u << i;
		else
			(*others)++;
	}
	return mask;
}

static int c_listing(int arg, char *why, size_t wl)
{
	long long t0 = now_ms(), end = t0 + LIST_WAIT_MS;
	char buf[2048];
	unsigned int mask = 0;
	int r, others = 0;

	(void)arg;
	do {
		r = ow_read(U, buf, sizeof(buf));
		if (r >= 0)
			mask = listed(buf, &others);
		if (mask == (1u << ARRAY_SIZE(slaves)) - 1 && !others)
			break;
		sleep_ms(100);
	} while (now_ms() < end);
	if (r < 0)
		FAIL("OW_get(" U "): %s", strerror(-r));
	if (mask != (1u << ARRAY_SIZE(slaves)) - 1 || others)
		FAIL("'%.300s': default slaves mask %x, %d others, expected the four only",
		     buf, mask, others);
	ktap_print_msg("%s: %s (after %lld ms)", cur->prefix, buf, now_ms() - t0);
	PASS();
}

/* One conversion at 9..12 bits; the model's 21.5 C is exact at each. */
static int c_temp(int bits, char *why, size_t wl)
{
	double step = 0.0625 * (1 << (12 - bits)), t;
	char path[80];
	int r;

	snprintf(path, sizeof(path), U T1 "/temperature%d", bits);
	r = ow_read_num(path, &t);
	if (r)
		FAIL("%s: %s", path, strerror(-r));
	if (fabs(t - T1_MC / 1000.0) >= step)
		FAIL("%s = %g, expected %g within %g", path, t, T1_MC / 1000.0, step);
	PASS();
}

/* Host sets t1 to mC; owfs must see it exactly at 12 bits. */
static int c_host_temp(int mc, char *why, size_t wl)
{
	double t;
	int r;

	if (pbctl_qom_set_int(QOM_T1, "temperature", mc))
		FAIL("qom-set t1 temperature %d: %s", mc, pbctl_last_reply());
	r = ow_read_num(U T1 "/temperature12", &t);
	if (r)
		FAIL("temperature12: %s", strerror(-r));
	if (fabs(t - mc / 1000.0) > 1e-6)
		FAIL("temperature12 = %g after qom-set %d m°C, expected %g", t, mc,
		     mc / 1000.0);
	PASS();
}

/* A per-mode pattern, so that the second mode cannot pass on the first's data. */
static void pattern(char *p, int n, int salt)
{
	for (int i = 0; i < n; i++)
		p[i] = (char)(salt * 37 + i * 11 + (cur->kernel_master ? 0x80 : 0));
}

static void hex(const char *p, int n, char *out, size_t len)
{
	out[0] = '\0';
	for (int i = 0; i < n && (size_t)(2 * i + 3) < len; i++)
		sprintf(out + 2 * i, "%02x", (unsigned char)p[i]);
}

/* Write 32 bytes to pages/page.N, read the page and memory back. */
static int c_eeprom_page(int page, char *why, size_t wl)
{
	char w[32], r[40], mem[160], hw[80], hr[80], path[80];
	int n;

	pattern(w, sizeof(w), page);
	snprintf(path, sizeof(path), "/" E1 "/pages/page.%d", page);
	if (OW_put(path, w, sizeof(w)) < 0)
		FAIL("OW_put(%s, 32 bytes): %s", path, strerror(errno));
	snprintf(path, sizeof(path), U E1 "/pages/page.%d", page);
	n = (int)OW_lread(path, r, sizeof(r), 0);
	hex(w, 32, hw, sizeof(hw));
	hex(r, n > 0 ? n : 0, hr, sizeof(hr));
	if (n != 32 || memcmp(r, w, 32))
		FAIL("read back %d bytes %s, wrote %s", n, hr, hw);
	n = (int)OW_lread(U E1 "/memory", mem, 128, 0);
	if (n != 128 || memcmp(mem + 32 * page, w, 32))
		FAIL("memory (%d bytes) does not hold the page at %d", n, 32 * page);
	PASS();
}

/*
 * Fewer bytes than a DS2431 row (8) at a row start: owfs reads the row,
 * merges and writes the whole row; the row's other bytes must survive.
 * (owfs 3.2p4 compares the scratchpad at the row start, so a write that
 * starts inside a row fails in owfs itself: not tested.)
 */
static int c_eeprom_bytes(int off, char *why, size_t wl)
{
	char before[8], w[3], after[8], expect[8], hb[20], ha[20];

	if (OW_lread(U E1 "/memory", before, 8, off) != 8)
		FAIL("reading memory at %d: %s", off, strerror(errno));
	pattern(w, sizeof(w), off);
	if (OW_lwrite("/" E1 "/memory", w, sizeof(w), off) < 0)
		FAIL("OW_lwrite(memory, 3 bytes, offset %d): %s", off, strerror(errno));
	if (OW_lread(U E1 "/memory", after, 8, off) != 8)
		FAIL("reading memory back at %d: %s", off, strerror(errno));
	memcpy(expect, before, 8);
	memcpy(expect, w, 3);
	hex(expect, 8, hb, sizeof(hb));
	hex(after, 8, ha, sizeof(ha));
	if (memcmp(after, expect, 8))
		FAIL("row at %d reads %s, expected %s", off, ha, hb);
	PASS();
}

/* A read compared as a string; arg indexes this table. */
static const struct expect {
	const char *path, *value;
} reads[] = {
	{ U P1 "/sensed.BYTE", "255" },		/* 0: pins released, latches off */
	{ U P1 "/sensed.ALL", "1,1,1,1,1,1,1,1" },
	{ U P1 "/PIO.BYTE", "0" },		/* 2: no output transistor on */
	{ U P2 "/sensed.ALL", "1,1" },		/* 3 */
	{ U P2 "/PIO.ALL", "0,0" },
	{ U T1 "/power", "1" },			/* 5: externally powered */
};

static int check_read(const struct expect *e, char *why, size_t wl)
{
	char buf[128];
	int r = ow_read(e->path, buf, sizeof(buf));

	if (r < 0)
		FAIL("%s: %s", e->path, strerror(-r));
	if (strcmp(buf, e->value))
		FAIL("%s = '%s', expected '%s'", e->path, buf, e->value);
	return R_PASS;
}

static int c_reads(int arg, char *why, size_t wl)
{
	return check_read(&reads[arg], why, wl);
}

/* Writes, then reads compared; arg indexes this table. */
static const struct write_case {
	const char *path, *value;
	struct expect then[3];
} writes[] = {
	/* 0: DS2408 PIO 1 = transistor on = latch 0: pin low */
	{ "/" P1 "/PIO.BYTE", "85", { { U P1 "/PIO.BYTE", "85" },
				      { U P1 "/sensed.BYTE", "170" } } },
	{ "/" P1 "/PIO.7", "1", { { U P1 "/PIO.ALL", "1,0,1,0,1,0,1,1" },
				  { U P1 "/sensed.ALL", "0,1,0,1,0,1,0,0" } } },
	{ "/" P1 "/PIO.BYTE", "0", { { U P1 "/PIO.BYTE", "0" },
				     { U P1 "/sensed.BYTE", "255" } } },
	/* 3: DS2413 */
	{ "/" P2 "/PIO.A", "1", { { U P2 "/PIO.ALL", "1,0" },
				  { U P2 "/sensed.ALL", "0,1" } } },
	{ "/" P2 "/PIO.ALL", "0,1", { { U P2 "/PIO.ALL", "0,1" },
				      { U P2 "/sensed.ALL", "1,0" } } },
	{ "/" P2 "/PIO.ALL", "0,0", { { U P2 "/PIO.ALL", "0,0" },
				      { U P2 "/sensed.ALL", "1,1" } } },
	/* 6: DS2408 power-on reset latch cleared: out of the alarm search */
	{ "/" P1 "/por", "0", { { U P1 "/por", "0" } } },
};

static int c_writes(int arg, char *why, size_t wl)
{
	const struct write_case *c = &writes[arg];
	int r = ow_write(c->path, c->value);

	if (r)
		FAIL("write '%s' to %s: %s", c->value, c->path, strerror(-r));
	for (size_t i = 0; i < ARRAY_SIZE(c->then) && c->then[i].path; i++)
		if (check_read(&c->then[i], why, wl))
			return R_FAIL;
	PASS();
}

/*
 * The alarm search: TH/TL written (scratchpad and EEPROM), a conversion
 * (the DS18B20 sets its alarm flag there), then /alarm/ must list exactly
 * t1 or nothing.  arg indexes this table.
 */
static const struct {
	int th, tl;
} limits[] = { { 125, -55 }, { 20, -55 }, { 125, 22 } };

static int c_alarm(int arg, char *why, size_t wl)
{
	int th = limits[arg].th, tl = limits[arg].tl;
	bool want = (int)(T1_MC / 1000) >= th || (int)(T1_MC / 1000) <= tl;
	char v[16], buf[512];
	unsigned int mask;
	double t;
	int r, others;

	snprintf(v, sizeof(v), "%d", th);
	if ((r = ow_write("/" T1 "/temphigh", v)))
		FAIL("temphigh %s: %s", v, strerror(-r));
	snprintf(v, sizeof(v), "%d", tl);
	if ((r = ow_write("/" T1 "/templow", v)))
		FAIL("templow %s: %s", v, strerror(-r));
	if ((r = ow_read_num(U T1 "/temphigh", &t)) || (int)t != th)
		FAIL("temphigh reads %g (%s), expected %d", t, strerror(-r), th);
	if ((r = ow_read_num(U T1 "/templow", &t)) || (int)t != tl)
		FAIL("templow reads %g (%s), expected %d", t, strerror(-r), tl);
	if ((r = ow_read_num(U T1 "/temperature12", &t)))
		FAIL("conversion: %s", strerror(-r));
	r = ow_read(U "alarm", buf, sizeof(buf));
	if (r < 0)
		FAIL("OW_get(" U "alarm): %s", strerror(-r));
	mask = listed(buf, &others);
	if (mask != (want ? 1u : 0u) || others)
		FAIL("TH %d TL %d at %g C: alarm lists '%s', expected %s", th, tl, t,
		     buf, want ? "t1 only" : "nothing");
	PASS();
}

static const struct ow_case {
	const char *name;
	int (*fn)(int arg, char *why, size_t wl);
	int arg;
	const char *needs;
} cases[] = {
	{ "listing: exactly the four slaves of the default topology", c_listing, 0, NULL },
	{ "DS18B20 temperature9 reads 21.5 C (step 0.5)", c_temp, 9, NULL },
	{ "DS18B20 temperature10 reads 21.5 C (step 0.25)", c_temp, 10, NULL },
	{ "DS18B20 temperature11 reads 21.5 C (step 0.125)", c_temp, 11, NULL },
	{ "DS18B20 temperature12 reads 21.5 C (step 0.0625)", c_temp, 12, NULL },
	{ "DS18B20 power reads 1 (external power)", c_reads, 5, NULL },
	{ "DS18B20 follows a host-side change to -10.125 C", c_host_temp, T1_COLD_MC, NEED_CTL },
	{ "DS18B20 back at 21.5 C after the host restores it", c_host_temp, T1_MC, NEED_CTL },
	{ "DS2431 page.1 written (32 bytes) and read back", c_eeprom_page, 1, NULL },
	{ "DS2431 page.3 written (32 bytes) and read back", c_eeprom_page, 3, NULL },
	{ "DS2431 3 bytes at row start 72: the row's other bytes kept", c_eeprom_bytes, 72, NULL },
	{ "DS2408 sensed.BYTE 255 (pio-input=255, latches off)", c_reads, 0, NULL },
	{ "DS2408 sensed.ALL all 1", c_reads, 1, NULL },
	{ "DS2408 PIO.BYTE 0 (no output on)", c_reads, 2, NULL },
	{ "DS2408 PIO.BYTE 85 written: reads 85, sensed 170", c_writes, 0, NULL },
	{ "DS2408 PIO.7 written: PIO.ALL and sensed.ALL follow", c_writes, 1, NULL },
	{ "DS2408 PIO.BYTE 0 written: sensed 255 again", c_writes, 2, NULL },
	{ "DS2413 sensed.ALL 1,1", c_reads, 3, NULL },
	{ "DS2413 PIO.ALL 0,0", c_reads, 4, NULL },
	{ "DS2413 PIO.A written: PIO.ALL 1,0, sensed.ALL 0,1", c_writes, 3, NULL },
	{ "DS2413 PIO.ALL 0,1 written: sensed.ALL 1,0", c_writes, 4, NULL },
	{ "DS2413 PIO.ALL 0,0 written: sensed.ALL 1,1", c_writes, 5, NULL },
	{ "DS2408 por cleared (out of the alarm search)", c_writes, 6, NULL },
	{ "alarm: nothing alarms with TH 125, TL -55", c_alarm, 0, NULL },
	{ "alarm: exactly t1 with TH 20 below 21.5 C", c_alarm, 1, NULL },
	{ "alarm: nothing after TH 125 restored", c_alarm, 0, NULL },
	{ "alarm: exactly t1 with TL 22 above 21.5 C", c_alarm, 2, NULL },
	{ "alarm: nothing after TL -55 restored", c_alarm, 0, NULL },
};

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	void *frames[64];
	char line[200];
	int n;

	(void)uc;
	n = snprintf(line, sizeof(line),
		     "owfs_test: caught SIG%s (si_code %d, address %p) in thread %ld; backtrace:\n",
		     sigabbrev_np(sig), si->si_code, si->si_addr, (long)syscall(SYS_gettid));
	if (write(2, line, n) < 0)
		_exit(4);
	n = backtrace(frames, ARRAY_SIZE(frames));
	backtrace_symbols_fd(frames, n, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void child(const struct mode *m, int fd)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGQUIT };
	struct sigaction sa = { .sa_sigaction = crash_handler, .sa_flags = SA_SIGINFO };
	char why[480];
	void *warm[2];

	cur = m;
	report_fd = fd;
	backtrace(warm, 2);	/* loads libgcc_s now, not in the handler */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (OW_init(m->init) < 0) {
		snprintf(why, sizeof(why), "OW_init(\"%s\") failed: %s", m->init,
			 strerror(errno));
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			report((int)i, R_FAIL, why);
		_exit(1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *lack = kconfig_lacks(cases[i].needs);
		int r;

		report((int)i, R_START, "");
		why[0] = '\0';
		if (lack) {
			snprintf(why, sizeof(why), "%s", lack);
			r = R_SKIP;
		} else if (cases[i].needs && !strcmp(cases[i].needs, NEED_CTL) && pbctl_open()) {
			snprintf(why, sizeof(why), "%s", pbctl_unavailable_reason());
			r = R_SKIP;
		} else {
			r = cases[i].fn(cases[i].arg, why, sizeof(why));
		}
		report((int)i, r, why);
	}
	pbctl_close();
	OW_finish();
	_exit(0);
}

/* ---- the parent: KTAP ----------------------------------------------------- */

static void result(const char *prefix, const char *name, int kind, const char *why)
{
	char full[300];

	snprintf(full, sizeof(full), "%s: %s", prefix, name);
	if (kind == R_PASS)
		ktap_test_pass("%s", full);
	else if (kind == R_SKIP)
		ktap_test_skip(full, "%s", why);
	else
		ktap_test_fail(full, "%s", why[0] ? why : "failed");
}

static void print_log_tail(const char *log, int lines)
{
	static char buf[8<<20];
	int fd = open(log, O_RDONLY | O_CLOEXEC), n = 0;
	off_t size;
	char *p, *s;

	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > 0) {
		off_t from = size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0;

		n = (int)pread(fd, buf, sizeof(buf) - 1, from);
	}
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf + n; p > buf && lines >= 0; p--)
		if (p[-1] == '\n')
			lines--;
	ktap_print_msg("last lines of %s:", log);
	for (s = strtok(p, "\n"); s; s = strtok(NULL, "\n"))
		ktap_print_msg("  %s", s);
}

/* Run one mode's table in a child; prints one result per case and the exit case. */
static int run_mode(const struct mode *m)
{
	char log[64], why[480], exitname[80];
	int p[2], st = 0, next = 0, running = -1, failed = 0;
	long long start = now_ms(), last = start;
	bool hung = false;
	pid_t pid;

	snprintf(log, sizeof(log), "/tmp/owfs-%s.log", m->prefix);
	snprintf(exitname, sizeof(exitname), "owfs finished cleanly (OW_finish, exit 0)");
	mkdir("/tmp", 0755);
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		close(p[0]);
		if (fd >= 0)
			dup2(fd, 2);
		dup2(2, 1);	/* owfs prints nothing for KTAP */
		child(m, p[1]);
	}
	close(p[1]);
	while (next < (int)ARRAY_SIZE(cases)) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		long long t = now_ms(), left = last + STALL_MS - t;
		struct report r;
		ssize_t n;

		if (start + MODE_MS - t < left)
			left = start + MODE_MS - t;
		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			hung = true;
			break;
		}
		n = read(p[0], &r, sizeof(r));
		if (n <= 0)
			break;
		last = now_ms();
		if (n != sizeof(r) || r.idx != next)
			continue;
		if (r.kind == R_START) {
			running = r.idx;
			continue;
		}
		failed += r.kind == R_FAIL;
		result(m->prefix, cases[next++].name, r.kind, r.text);
	}
	if (hung) {
		/* a backtrace of the stuck thread into the log, then stop it */
		kill(pid, SIGQUIT);
		for (int i = 0; i < 20 && waitpid(pid, &st, WNOHANG) == 0; i++)
			sleep_ms(100);
		kill(pid, SIGKILL);
	}
	waitpid(pid, &st, 0);
	close(p[0]);
	if (hung)
		snprintf(why, sizeof(why), "owfs hung: no progress for %d s (%lld s into the mode), killed",
			 STALL_MS / 1000, (now_ms() - start) / 1000);
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof(why), "owfs died with SIG%s (signal %d)",
			 sigabbrev_np(WTERMSIG(st)), WTERMSIG(st));
	else
		snprintf(why, sizeof(why), "owfs child exited with status %d",
			 WEXITSTATUS(st));
	for (; next < (int)ARRAY_SIZE(cases); next++) {
		char w2[480];

		if (next == running)
			snprintf(w2, sizeof(w2), "%s in this case", why);
		else
			snprintf(w2, sizeof(w2), "not run: %s in case %d", why, running + 1);
		result(m->prefix, cases[next].name, R_FAIL, w2);
		failed++;
	}
	if (!hung && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		result(m->prefix, exitname, R_PASS, "");
	} else {
		result(m->prefix, exitname, R_FAIL, why);
		failed++;
	}
	ktap_print_msg("%s: %lld ms", m->prefix, now_ms() - start);
	print_log_tail(log, 100000);
	return failed;
}

static void skip_mode(const struct mode *m, const char *lack)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		result(m->prefix, cases[i].name, R_SKIP, lack);
	result(m->prefix, "owfs finished cleanly (OW_finish, exit 0)", R_SKIP, lack);
}

/* The host's t1 back at 21.5 C whatever a dead child left behind. */
static void restore_host(void)
{
	if (!kconfig_lacks(NEED_CTL) && pbctl_open() == 0) {
		if (pbctl_qom_set_int(QOM_T1, "temperature", T1_MC))
			ktap_print_msg("restoring t1: %s", pbctl_last_reply());
		pbctl_close();
	}
}

static const struct mode modes[] = {
	{ "usb", "-u --error_level=5 --error_print=2", NULL, false },
	{ "w1", "--w1 --error_level=5 --error_print=2", NEED_W1, true },
};

int main(void)
{
	const char *nodrv = kconfig_lacks(NEED_KDRV);
	char drv[64], why[200];
	bool have_intf;
	long count;
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_print_header();
	/* per mode: the cases and the exit; usb also unbind and bind */
	ktap_set_plan(2 * (ARRAY_SIZE(cases) + 1) + 2);

	/* usb: the kernel's driver off the interface first */
	have_intf = false;
	for (long long end = now_ms() + KERNEL_WAIT_MS; !have_intf && now_ms() < end;) {
		have_intf = ds2490_intf() == 0;
		if (!have_intf)
			sleep_ms(50);
	}
	if (!have_intf) {
		ktap_test_fail("usb: DS9490R unbound, w1_bus_master1 gone",
			       "no 04fa:2490 device with interface 0 under " USB_DEVICES);
	} else if (nodrv) {
		ktap_test_skip("usb: DS9490R unbound, w1_bus_master1 gone", "%s", nodrv);
	} else {
		if (wait_kernel_master(KERNEL_WAIT_MS, &count))
			ktap_print_msg("before the unbind: w1_master_slave_count %ld", count);
		intf_driver(drv, sizeof(drv));
		r = strcmp(drv, "DS9490R") ? -ENODEV : write_str(DRV_DIR "/unbind", usb_intf);
		for (long long end = now_ms() + KERNEL_WAIT_MS;
		     !r && path_exists(W1_MASTER) && now_ms() < end;)
			sleep_ms(50);
		if (r)
			ktap_test_fail("usb: DS9490R unbound, w1_bus_master1 gone",
				       "%s bound to '%s'; unbind: %s", usb_intf, drv, strerror(-r));
		else if (path_exists(W1_MASTER))
			ktap_test_fail("usb: DS9490R unbound, w1_bus_master1 gone",
				       W1_MASTER " still there after the unbind");
		else
			ktap_test_pass("usb: DS9490R unbound, w1_bus_master1 gone");
	}
	run_mode(&modes[0]);
	restore_host();

	/* the kernel master back for the w1 mode */
	if (!have_intf || nodrv) {
		ktap_test_skip("usb: DS9490R bound again, w1_bus_master1 back with 4 slaves",
			       "%s", nodrv ? nodrv : "no DS2490 interface");
	} else {
		intf_driver(drv, sizeof(drv));
		ktap_print_msg("after OW_finish: %s bound to '%s'%s", usb_intf, drv,
			       strcmp(drv, "DS9490R") ? "" : " (owfs reattached it)");
		r = drv[0] ? 0 : write_str(DRV_DIR "/bind", usb_intf);
		intf_driver(drv, sizeof(drv));
		if (r || strcmp(drv, "DS9490R")) {
			snprintf(why, sizeof(why), "bind: %s; %s bound to '%s'",
				 strerror(-r), usb_intf, drv);
			ktap_test_fail("usb: DS9490R bound again, w1_bus_master1 back with 4 slaves",
				       "%s", why);
		} else if (wait_kernel_master(KERNEL_WAIT_MS, &count)) {
			ktap_test_fail("usb: DS9490R bound again, w1_bus_master1 back with 4 slaves",
				       "w1_master_slave_count %ld after %d s", count,
				       KERNEL_WAIT_MS / 1000);
		} else {
			ktap_test_pass("usb: DS9490R bound again, w1_bus_master1 back with 4 slaves");
		}
	}

	if (kconfig_lacks(NEED_W1))
		skip_mode(&modes[1], kconfig_lacks(NEED_W1));
	else
		run_mode(&modes[1]);
	restore_host();
	return ktap_finished();
}
