/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1util.h - helpers shared by the w1 guest test programs (header-only):
 * the default 1-Wire topology, CRC8, the DS18B20 temperature register,
 * sysfs access, the kernel log, and the w1 netlink (connector) wire structs
 * plus an event listener.
 *
 * The w1 netlink structs are not UAPI (drivers/w1/w1_netlink.h), so they are
 * declared here and their sizes pinned with _Static_assert.
 */
#ifndef PATCHBAY_W1UTIL_H
#define PATCHBAY_W1UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/connector.h>
#include <linux/netlink.h>

#include "kconfig.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define W1_DEVICES	"/sys/bus/w1/devices"
#define W1_MASTER	W1_DEVICES "/w1_bus_master1"
#define QOM_PERIPH	"/machine/peripheral/"

/* ---- default topology (images/suites/w1.qemu) ---------------------------- */

struct w1_slave_rom {
	const char *qom;	/* QOM id: /machine/peripheral/<qom> */
	uint8_t family;
	uint64_t serial;	/* 48 bits */
	char name[16];		/* sysfs name ff-dddddddddddd */
	uint8_t id[8];		/* wire order: family, serial LSB..MSB, CRC8 */
};

enum { SL_T1, SL_E1, SL_P1, SL_P2, SL_COUNT };

static struct w1_slave_rom w1_slaves[SL_COUNT] = {
	[SL_T1] = { "t1", 0x28, 0x00000a1b2c3dULL, "", {0} },	/* DS18B20 */
	[SL_E1] = { "e1", 0x2d, 0x000000112233ULL, "", {0} },	/* DS2431 */
	[SL_P1] = { "p1", 0x29, 0x000000445566ULL, "", {0} },	/* DS2408 */
	[SL_P2] = { "p2", 0x3a, 0x000000778899ULL, "", {0} },	/* DS2413 */
};

/*
 * Kernel options some w1 cases need beyond images/suites/w1.requires, for
 * the "needs" column of the case tables (kconfig_lacks()): a slave's sysfs
 * files come from its family driver, events and requests from the w1
 * netlink connector.
 */
#define NEED_THERM	"CONFIG_W1_SLAVE_THERM"		/* t1, DS18B20 */
#define NEED_DS2431	"CONFIG_W1_SLAVE_DS2431"	/* e1 */
#define NEED_DS2408	"CONFIG_W1_SLAVE_DS2408"	/* p1 */
#define NEED_DS2413	"CONFIG_W1_SLAVE_DS2413"	/* p2 */
#define NEED_NETLINK	"CONFIG_NET CONFIG_CONNECTOR CONFIG_W1_CON"

/* Run one case of a table, or skip it naming what the kernel lacks: a
 * driver that is not there has no files to test. */
static inline void w1_run_case(const char *name, const char *needs,
			       void (*fn)(const char *name))
{
	const char *lack = kconfig_lacks(needs);

	if (lack)
		ktap_test_skip(name, "%s", lack);
	else
		fn(name);
}

/* Maxim CRC8 (x^8+x^5+x^4+1, reflected 0x8C, init 0), as w1_calc_crc8(). */
static inline uint8_t w1_crc8(const uint8_t *p, size_t n)
{
	uint8_t crc = 0;

	while (n--) {
		uint8_t b = *p++;

		for (int i = 0; i < 8; i++) {
			uint8_t mix = (crc ^ b) & 1;

			crc >>= 1;
			if (mix)
				crc ^= 0x8c;
			b >>= 1;
		}
	}
	return crc;
}

/* Division rounding toward minus infinity (C's / truncates toward zero). */
static inline long floor_div(long a, long b)
{
	long q = a / b;

	return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

/*
 * The DS18B20 register the w1 suites expect for a temperature in m°C at a
 * resolution of 9..12 bits: 1/16 degC steps, clamped to -55..125 degC, the
 * bits below the resolution cleared.
 */
static inline int ds18b20_reg(long mC, int bits)
{
	/* The model rounds to the nearest 1/16 C, ties away from zero
	 * (docs/devices/ds2490.md, simplification 3); lower resolutions then
	 * clear the undefined low bits. */
	long reg = mC >= 0 ? (mC * 16 + 500) / 1000 : -((-mC * 16 + 500) / 1000);

	if (reg < -55 * 16)
		reg = -55 * 16;
	if (reg > 125 * 16)
		reg = 125 * 16;
	reg &= ~((1L << (12 - bits)) - 1);
	return (int)reg;
}

/* Fill id[] (wire order with CRC) and name for a family/serial pair. */
static inline void w1_make_rom(uint8_t family, uint64_t serial, uint8_t id[8],
			       char *name, size_t namelen)
{
	id[0] = family;
	for (int i = 0; i < 6; i++)
		id[1 + i] = (uint8_t)(serial >> (8 * i));
	id[7] = w1_crc8(id, 7);
	if (name)
		snprintf(name, namelen, "%02x-%012llx", family,
			 (unsigned long long)(serial & 0xffffffffffffULL));
}

static inline void w1_topology_init(void)
{
	for (int i = 0; i < SL_COUNT; i++)
		w1_make_rom(w1_slaves[i].family, w1_slaves[i].serial,
			    w1_slaves[i].id, w1_slaves[i].name,
			    sizeof(w1_slaves[i].name));
}

static inline void w1_hex(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return;
	out[0] = '\0';
	for (size_t i = 0; i < n && o + 3 <= outlen; i++)
		o += (size_t)snprintf(out + o, outlen - o, "%02x", p[i]);
}

/* Copy with truncation, always NUL-terminated (len > 0). */
static inline void str_copy(char *dst, const char *src, size_t len)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- time ----------------------------------------------------------------- */

static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- sysfs ---------------------------------------------------------------- */

/* Read a whole (small) file, NUL-terminated; bytes read or -errno. */
static inline ssize_t read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, off = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)off < len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			buf[off] = '\0';
			return -e;
		}
		if (n == 0)
			break;
		off += n;
	}
	buf[off] = '\0';
	close(fd);
	return off;
}

static inline ssize_t read_filef(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline ssize_t read_filef(char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return read_file(path, buf, len);
}

/* A decimal file ("%d\n"); 0 on success, -errno or -EINVAL. */
static inline int read_long(const char *path, long *val)
{
	char buf[64], *end;
	ssize_t n = read_file(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	errno = 0;
	*val = strtol(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* One write() of the whole string; 0 on success, -errno on failure. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(s);

	if (fd < 0)
		return -errno;
	n = write(fd, s, (size_t)len);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return n == len ? 0 : -EIO;
}

static inline bool path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static inline bool slave_dir_exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), W1_DEVICES "/%s", name);
	return path_exists(path);
}

static inline long master_slave_count(void)
{
	long v;

	return read_long(W1_MASTER "/w1_master_slave_count", &v) ? -1 : v;
}

/*
 * Wait (bounded) until bus master 1 exists and reports want slaves with all
 * four default slaves attached; true on success.
 */
static inline bool wait_for_discovery(int want, long timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	for (;;) {
		bool all = master_slave_count() == want;

		for (int i = 0; all && i < SL_COUNT; i++)
			all = slave_dir_exists(w1_slaves[i].name);
		if (all)
			return true;
		if (now_ms() >= end)
			return false;
		sleep_ms(100);
	}
}

/* ---- kernel log ----------------------------------------------------------- */

#define KMSG_TAG	"patchbay-w1:"

/* Write an info-level marker line into the kernel log. */
static inline void kmsg_mark(char *out, size_t outlen, const char *what)
{
	static unsigned int counter;
	char line[256];
	int fd;

	snprintf(out, outlen, KMSG_TAG " %s [%d.%u]", what, (int)getpid(),
		 ++counter);
	snprintf(line, sizeof(line), "<6>%s\n", out);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* best effort; a later search then finds nothing */
		ssize_t w = write(fd, line, strlen(line));

		(void)w;
		close(fd);
	}
}

/* The whole kernel log (SYSLOG_ACTION_READ_ALL); malloc'ed, or NULL. */
static inline char *klog_read_all(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * Whether a log line containing needle follows the marker line; -1 when the
 * log or the marker cannot be found.
 */
static inline int klog_has_after(const char *marker, const char *needle)
{
	char *log = klog_read_all(), *m, *next;
	int found;

	if (!log)
		return -1;
	m = strstr(log, marker);
	if (!m) {
		free(log);
		return -1;
	}
	while ((next = strstr(m + 1, marker)))
		m = next;
	found = strstr(m, needle) != NULL;
	free(log);
	return found;
}

/* ---- w1 netlink ----------------------------------------------------------- */

#define W1_CN_BUNDLE	0x0001

enum {
	W1_SLAVE_ADD = 0, W1_SLAVE_REMOVE, W1_MASTER_ADD, W1_MASTER_REMOVE,
	W1_MASTER_CMD, W1_SLAVE_CMD, W1_LIST_MASTERS,
};

enum {
	W1_CMD_READ = 0, W1_CMD_WRITE, W1_CMD_SEARCH, W1_CMD_ALARM_SEARCH,
	W1_CMD_TOUCH, W1_CMD_RESET, W1_CMD_SLAVE_ADD, W1_CMD_SLAVE_REMOVE,
	W1_CMD_LIST_SLAVES, W1_CMD_MAX,
};

struct w1_netlink_msg {
	uint8_t type;
	uint8_t status;
	uint16_t len;
	union {
		uint8_t id[8];
		struct {
			uint32_t id;
			uint32_t res;
		} mst;
	} id;
	uint8_t data[];
};

struct w1_netlink_cmd {
	uint8_t cmd;
	uint8_t res;
	uint16_t len;
	uint8_t data[];
};

_Static_assert(sizeof(struct nlmsghdr) == 16, "nlmsghdr is 16 bytes");
_Static_assert(sizeof(struct cn_msg) == 20, "cn_msg is 20 bytes");
_Static_assert(sizeof(struct w1_netlink_msg) == 12, "w1_netlink_msg is 12 bytes");
_Static_assert(sizeof(struct w1_netlink_cmd) == 4, "w1_netlink_cmd is 4 bytes");

/* A NETLINK_CONNECTOR socket; groups = 1 << (CN_W1_IDX - 1) for events. */
static inline int cn_socket(uint32_t groups)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	int sz = 4 << 20;

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

#define W1_EVENT_GROUPS	(1u << (CN_W1_IDX - 1))

/* One w1 event (kernel broadcast), as received. */
struct w1_event {
	uint32_t nlmsg_len;
	uint32_t nlmsg_seq;
	struct cn_msg cn;
	struct w1_netlink_msg msg;
	bool well_formed;	/* cn id {3,1}, cn.len 12, nlmsg_len 48 */
};

/*
 * Receive one event within timeout_ms: 1 got one, 0 timeout, -1 error.
 * Datagrams whose cn id is not {CN_W1_IDX, CN_W1_VAL} are skipped.
 */
static inline int w1_event_recv(int fd, struct w1_event *ev, long timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	uint8_t buf[8192];

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = end - now_ms();
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		struct cn_msg *cn = (struct cn_msg *)(buf + sizeof(*nlh));
		ssize_t n;
		int r;

		if (left < 0)
			left = 0;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -1;
		if ((size_t)n < sizeof(*nlh) + sizeof(*cn) ||
		    nlh->nlmsg_len > (size_t)n)
			continue;
		if (cn->id.idx != CN_W1_IDX || cn->id.val != CN_W1_VAL)
			continue;
		memset(ev, 0, sizeof(*ev));
		ev->nlmsg_len = nlh->nlmsg_len;
		ev->nlmsg_seq = nlh->nlmsg_seq;
		memcpy(&ev->cn, cn, sizeof(*cn));
		if (nlh->nlmsg_len >= sizeof(*nlh) + sizeof(*cn) + sizeof(ev->msg))
			memcpy(&ev->msg, buf + sizeof(*nlh) + sizeof(*cn),
			       sizeof(ev->msg));
		ev->well_formed = nlh->nlmsg_len == sizeof(*nlh) + sizeof(*cn) +
						    sizeof(ev->msg) &&
				  cn->len == sizeof(ev->msg);
		return 1;
	}
}

/* Drain everything already queued on fd (events from earlier activity). */
static inline int w1_event_drain(int fd)
{
	struct w1_event ev;
	int n = 0;

	while (w1_event_recv(fd, &ev, 0) == 1)
		n++;
	return n;
}

static inline const char *w1_event_name(uint8_t type)
{
	static const char *const names[] = {
		"SLAVE_ADD", "SLAVE_REMOVE", "MASTER_ADD", "MASTER_REMOVE",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "?";
}

/* "SLAVE_ADD id=... seq=N ack=N" for diagnostics. */
static inline void w1_event_str(const struct w1_event *ev, char *out,
				size_t len)
{
	char hex[17];

	w1_hex(ev->msg.id.id, 8, hex, sizeof(hex));
	snprintf(out, len,
		 "%s(type %u) status=%u len=%u id=%s cn.seq=%u cn.ack=%u cn.len=%u cn.flags=%#x nlmsg_len=%u",
		 w1_event_name(ev->msg.type), ev->msg.type, ev->msg.status,
		 ev->msg.len, hex, ev->cn.seq, ev->cn.ack, ev->cn.len,
		 ev->cn.flags, ev->nlmsg_len);
}

/*
 * An event is exactly what w1_netlink_send() produces: cn {3,1, ack 0,
 * len 12, flags 0}, msg {type, status 0, len 0, id}.  For slave events id
 * is the ROM; for master events id.mst = {master id, 0}.
 */
static inline bool w1_event_is(const struct w1_event *ev, uint8_t type,
			       const uint8_t id[8])
{
	return ev->well_formed && ev->cn.ack == 0 && ev->cn.flags == 0 &&
	       ev->msg.type == type && ev->msg.status == 0 &&
	       ev->msg.len == 0 && memcmp(ev->msg.id.id, id, 8) == 0;
}

static inline void w1_master_id_bytes(uint32_t id, uint8_t out[8])
{
	memset(out, 0, 8);
	memcpy(out, &id, sizeof(id));
}

/* ---- USB ------------------------------------------------------------------ */

#define USB_DEVICES	"/sys/bus/usb/devices"

/* The sysfs name (e.g. "1-1") of the first 04fa:2490 device; 0 or -1. */
static inline int ds2490_find(char *dev, size_t len)
{
	DIR *d = opendir(USB_DEVICES);
	struct dirent *de;
	int ret = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char v[32], p[32];

		if (de->d_name[0] == '.')
			continue;
		if (read_filef(v, sizeof(v), USB_DEVICES "/%s/idVendor",
			       de->d_name) < 0 ||
		    read_filef(p, sizeof(p), USB_DEVICES "/%s/idProduct",
			       de->d_name) < 0)
			continue;
		if (strncmp(v, "04fa", 4) == 0 && strncmp(p, "2490", 4) == 0) {
			str_copy(dev, de->d_name, len);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

/* "<dev>:<config>.0", the DS2490's only interface. */
static inline void ds2490_intf(const char *dev, char *intf, size_t len)
{
	long cfg = 1;
	char path[300];

	snprintf(path, sizeof(path), USB_DEVICES "/%s/bConfigurationValue", dev);
	if (read_long(path, &cfg) || cfg <= 0)
		cfg = 1;
	snprintf(intf, len, "%s:%ld.0", dev, cfg);
}

/* Basename of <USB_DEVICES>/<intf>/driver, "" when unbound. */
static inline void usb_intf_driver(const char *intf, char *drv, size_t len)
{
	char path[300], link[300];
	ssize_t n;

	snprintf(path, sizeof(path), USB_DEVICES "/%s/driver", intf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		str_copy(drv, "", len);
		return;
	}
	link[n] = '\0';
	str_copy(drv, strrchr(link, '/') ? strrchr(link, '/') + 1 : link, len);
}

/* The default topology's slaves, and one-line endings for a test case
 * function that has its KTAP name in `name`. */
#define T1	(&w1_slaves[SL_T1])
#define E1	(&w1_slaves[SL_E1])
#define P1	(&w1_slaves[SL_P1])
#define P2	(&w1_slaves[SL_P2])

#define PASS()		do { ktap_test_pass(name); return; } while (0)
#define FAIL(...)	do { ktap_test_fail(name, __VA_ARGS__); return; } while (0)
#define SKIP(...)	do { ktap_test_skip(name, __VA_ARGS__); return; } while (0)

#endif /* PATCHBAY_W1UTIL_H */
