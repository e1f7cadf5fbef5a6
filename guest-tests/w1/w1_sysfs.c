// SPDX-License-Identifier: GPL-2.0
/*
 * w1_sysfs - the emulated DS2490 and its 1-Wire slaves as seen through
 * sysfs by the unmodified Linux 6.12 drivers (ds2490, w1 core, w1_therm,
 * w1_ds2431, w1_ds2408, w1_ds2413).  Test plan items S1-S5, S10-S14 of
 * docs/devices/ds2490.md section 4.9.
 *
 * Default topology (images/suites/w1.qemu): t1 DS18B20 28-00000a1b2c3d at
 * 21.5 degC, e1 DS2431 2d-000000112233, p1 DS2408 29-000000445566 with
 * pio-input 0xff, p2 DS2413 3a-000000778899; kernel command line
 * wire.timeout=1 wire.slave_ttl=2.
 *
 * Cases that need the host to act (qom-set of a temperature, a pin level,
 * a slave's presence) use the patchbay.ctl channel (pbctl.h) and SKIP when
 * it is missing.  Checks that need QEMU trace evidence (which 1-Wire
 * function commands went over the wire) are not made here.  A case whose
 * family driver (or hwmon, or the netlink connector) the kernel lacks is
 * skipped with the option's name: the "needs" column of the case table.
 *
 * Expectations follow the Linux 6.12 sources: drivers/w1/w1.c,
 * slaves/w1_therm.c (w1_slave_show(), resolution_store(),
 * w1_DS18B20_set_resolution(), w1_DS18B20_convert_temp()),
 * slaves/w1_ds2431.c, slaves/w1_ds2408.c, slaves/w1_ds2413.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig.h"
#include "ktap.h"
#include "pbctl.h"
#include "w1util.h"

#define DISCOVERY_MS	10000
#define TTL_WAIT_MS	10000

static char usb_dev[64];		/* e.g. "1-1" */
static long t1_mC = 21500;		/* the model's temperature */
static bool t1_mC_from_host;

/* ---- helpers -------------------------------------------------------------- */

static void slave_path(char *buf, size_t len, const struct w1_slave_rom *s,
		       const char *attr)
{
	snprintf(buf, len, W1_DEVICES "/%s/%s", s->name, attr);
}

/*
 * What w1_DS18B20_convert_temp() makes of a DS18B20 register (ds18b20_reg()
 * in w1util.h): (s16)reg * 1000 / 16, C division truncating toward zero.
 */
static long ds18b20_kernel_mC(int reg)
{
	return (long)(int16_t)reg * 1000 / 16;
}

struct therm_read {
	uint8_t b[9];		/* line 1: bytes read now */
	uint8_t cached[9];	/* line 2: family_data */
	unsigned int crc;	/* printed crc= (computed by the kernel) */
	bool yes;
	long t;
	char raw[300];
};

/* Nine "%02x " bytes at p + *off, as w1_slave_show() prints a line. */
static bool parse_bytes9(const char *p, int *off, uint8_t b[9])
{
	for (int i = 0; i < 9; i++) {
		unsigned int v;
		int n;

		if (sscanf(p + *off, "%2x %n", &v, &n) != 1)
			return false;
		b[i] = (uint8_t)v;
		*off += n;
	}
	return true;
}

/* Read and parse w1_slave; 0 or -1 with why. */
static int read_w1_slave(struct therm_read *r, char *why, size_t wl)
{
	char path[256], verdict[8];
	const char *p;
	int off = 0, n;
	ssize_t len;

	slave_path(path, sizeof(path), T1, "w1_slave");
	len = read_file(path, r->raw, sizeof(r->raw));
	if (len < 0) {
		snprintf(why, wl, "read %s: %s", path, strerror((int)-len));
		return -1;
	}
	if (len == 0) {
		snprintf(why, wl, "read %s: empty (w1_therm reported an error)",
			 path);
		return -1;
	}
	p = r->raw;
	if (!parse_bytes9(p, &off, r->b))
		goto bad;
	if (sscanf(p + off, ": crc=%2x %7s%n", &r->crc, verdict, &n) != 2)
		goto bad;
	r->yes = strcmp(verdict, "YES") == 0;
	if (!r->yes && strcmp(verdict, "NO") != 0)
		goto bad;
	off += n;
	if (p[off] != '\n')
		goto bad;
	off++;
	if (!parse_bytes9(p, &off, r->cached))
		goto bad;
	if (sscanf(p + off, "t=%ld%n", &r->t, &n) != 1)
		goto bad;
	off += n;
	if (strcmp(p + off, "\n") != 0)
		goto bad;
	return 0;
bad:
	snprintf(why, wl, "unexpected w1_slave format: '%s'", r->raw);
	return -1;
}

/*
 * Check one w1_slave reading against the expected temperature (m°C in the
 * model) at a resolution; 0 or -1 with why.
 */
static int check_w1_slave(long mC, int bits, struct therm_read *r, char *why,
			  size_t wl)
{
	int reg = ds18b20_reg(mC, bits);
	long want = ds18b20_kernel_mC(reg);
	uint8_t crc;

	if (read_w1_slave(r, why, wl))
		return -1;
	crc = w1_crc8(r->b, 8);
	if (r->crc != crc || !r->yes || r->b[8] != crc) {
		snprintf(why, wl,
			 "CRC: printed crc=%02x %s, byte 8 = %02x, CRC8 of bytes 0-7 = %02x",
			 r->crc, r->yes ? "YES" : "NO", r->b[8], crc);
		return -1;
	}
	if (memcmp(r->b, r->cached, 9)) {
		snprintf(why, wl, "line 2 bytes differ from line 1: '%s'", r->raw);
		return -1;
	}
	if (r->b[0] != (uint8_t)reg || r->b[1] != (uint8_t)(reg >> 8)) {
		snprintf(why, wl,
			 "temperature register %02x %02x, expected %02x %02x for %ld m°C at %d bit",
			 r->b[0], r->b[1], (uint8_t)reg, (uint8_t)(reg >> 8),
			 mC, bits);
		return -1;
	}
	if (r->t != want) {
		snprintf(why, wl, "t=%ld, expected t=%ld", r->t, want);
		return -1;
	}
	return 0;
}

/* One pread() (rbuf) or pwrite() (wbuf) at off: bytes, or -errno. */
static int bin_io(const char *path, off_t off, void *rbuf, const void *wbuf,
		  size_t len)
{
	int fd = open(path, (wbuf ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = wbuf ? pwrite(fd, wbuf, len, off) : pread(fd, rbuf, len, off);
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (int)n;
}

static int read_bin(const char *path, off_t off, void *buf, size_t len)
{
	return bin_io(path, off, buf, NULL, len);
}

static int write_bin(const char *path, off_t off, const void *buf, size_t len)
{
	return bin_io(path, off, NULL, buf, len);
}

/* A one-byte register file of a DS2408/DS2413: 0 or -errno / -EIO. */
static int reg_read(const struct w1_slave_rom *s, const char *attr, uint8_t *v)
{
	char path[256];
	int n;

	slave_path(path, sizeof(path), s, attr);
	n = read_bin(path, 0, v, 1);
	return n == 1 ? 0 : n < 0 ? n : -EIO;
}

/* Returns the write() result: 1 on success, -errno otherwise. */
static int reg_write(const struct w1_slave_rom *s, const char *attr, uint8_t v)
{
	char path[256];

	slave_path(path, sizeof(path), s, attr);
	return write_bin(path, 0, &v, 1);
}

/* reg_write() that must return 1; 0, or -1 with why. */
static int reg_put(const struct w1_slave_rom *s, const char *attr, uint8_t v,
		   char *why, size_t wl)
{
	int r = reg_write(s, attr, v);

	if (r == 1)
		return 0;
	snprintf(why, wl, "write %s 0x%02x: %s", attr, v,
		 r < 0 ? strerror(-r) : "returned != 1");
	return -1;
}

/* reg_read() that must succeed; 0, or -1 with why. */
static int reg_get(const struct w1_slave_rom *s, const char *attr, uint8_t *v,
		   char *why, size_t wl)
{
	int r = reg_read(s, attr, v);

	if (!r)
		return 0;
	snprintf(why, wl, "read %s: %s", attr, strerror(-r));
	return -1;
}

static uint64_t rng_state;

static uint8_t rng8(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint8_t)(rng_state >> 24);
}

static int pbctl_set_temp(long mC)
{
	return pbctl_qom_set_int(QOM_PERIPH "t1", "temperature", mC);
}

/* Back to the temperature the program started with (best effort). */
static void t1_temp_restore(void)
{
	if (pbctl_set_temp(t1_mC))
		ktap_print_msg("restoring t1 temperature: %s", pbctl_last_reply());
}

/* ---- S1 probe ------------------------------------------------------------- */

static void s1_usb_device(const char *name)
{
	long long end = now_ms() + DISCOVERY_MS;
	char speed[32] = "";
	int r;

	/* enumeration may still be under way if this runs right after boot
	 * (w1_netlink, which normally runs first, skipped on such a kernel) */
	while ((r = ds2490_find(usb_dev, sizeof(usb_dev))) && now_ms() < end)
		sleep_ms(100);
	if (r)
		FAIL("no USB device with idVendor 04fa idProduct 2490 under "
		     USB_DEVICES " after %d ms", DISCOVERY_MS);
	read_filef(speed, sizeof(speed), USB_DEVICES "/%s/speed", usb_dev);
	ktap_print_msg("DS2490 is USB device %s, speed %.*s Mbit/s", usb_dev,
		       (int)strcspn(speed, "\n"), speed);
	PASS();
}

static void s1_driver_bound(const char *name)
{
	char intf[96], drv[64], path[300];
	long alt = -1, neps = -1;
	char buf[32];

	long long end = now_ms() + DISCOVERY_MS;

	if (!usb_dev[0])
		FAIL("DS2490 USB device not found");
	ds2490_intf(usb_dev, intf, sizeof(intf));
	for (;;) {	/* probing may still be under way */
		usb_intf_driver(intf, drv, sizeof(drv));
		if (!strcmp(drv, "DS9490R") || now_ms() >= end)
			break;
		sleep_ms(100);
	}
	if (strcmp(drv, "DS9490R"))
		FAIL("%s is bound to '%s', expected DS9490R", intf, drv);
	snprintf(path, sizeof(path), USB_DEVICES "/%s/bAlternateSetting", intf);
	if (read_long(path, &alt) || alt != 3)
		FAIL("%s: bAlternateSetting %ld, expected 3 (ds_probe sets alt 3)",
		     intf, alt);
	/* bNumEndpoints is printed as %02x */
	if (read_filef(buf, sizeof(buf), USB_DEVICES "/%s/bNumEndpoints",
		       intf) < 0)
		FAIL("%s: no bNumEndpoints", intf);
	neps = strtol(buf, NULL, 16);
	if (neps != 3)
		FAIL("%s: bNumEndpoints %ld, expected 3", intf, neps);
	PASS();
}

static void s1_master(const char *name)
{
	long long end = now_ms() + DISCOVERY_MS;
	char buf[64];
	long v = -1;

	while (!path_exists(W1_MASTER) && now_ms() < end)
		sleep_ms(100);
	if (!path_exists(W1_MASTER))
		FAIL("%s does not exist after %d ms", W1_MASTER, DISCOVERY_MS);
	if (read_file(W1_MASTER "/w1_master_name", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, "w1_bus_master1\n"))
		FAIL("w1_master_name is '%s'", buf);
	if (read_long(W1_MASTER "/w1_master_timeout", &v) || v != 1)
		FAIL("w1_master_timeout %ld, expected 1 (wire.timeout=1)", v);
	if (read_long(W1_MASTER "/w1_master_max_slave_count", &v) || v != 64)
		FAIL("w1_master_max_slave_count %ld, expected 64", v);
	PASS();
}

/*
 * No error-level (<= KERN_ERR) kernel message from the bridge, the master
 * or a slave before the first test program marked the log (the w1_netlink
 * program provokes a "Failed to write 1-wire data" error on purpose).
 */
static void s1_no_errors(const char *name)
{
	char tok_usb[96], tok_intf[96], first[300] = "";
	const char *tokens[5];
	char *log, *line, *end, *stop;
	int nerr = 0, ntok = 0;

	log = klog_read_all();
	if (!log)
		FAIL("klogctl(SYSLOG_ACTION_READ_ALL): %s", strerror(errno));
	stop = strstr(log, KMSG_TAG);
	if (stop)
		*stop = '\0';
	tokens[ntok++] = "DS9490R";
	tokens[ntok++] = "w1_master_driver";
	tokens[ntok++] = "w1_slave_driver";
	if (usb_dev[0]) {
		snprintf(tok_usb, sizeof(tok_usb), "usb %s:", usb_dev);
		snprintf(tok_intf, sizeof(tok_intf), " %s:", usb_dev);
		tokens[ntok++] = tok_usb;
		tokens[ntok++] = tok_intf;
	}
	for (line = log; line && *line; line = end ? end + 1 : NULL) {
		unsigned int pri;
		bool ours = false;

		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (sscanf(line, "<%u>", &pri) != 1 || (pri & 7) > 3)
			continue;
		for (int i = 0; i < ntok && !ours; i++)
			ours = strstr(line, tokens[i]) != NULL;
		if (!ours)
			continue;
		if (!nerr++)
			snprintf(first, sizeof(first), "%s", line);
	}
	free(log);
	if (nerr)
		FAIL("%d error-level message(s), first: %s", nerr, first);
	PASS();
}

/* ---- S2 discovery --------------------------------------------------------- */

static void s2_discovery(const char *name)
{
	long long t0 = now_ms();

	if (!wait_for_discovery(SL_COUNT, DISCOVERY_MS))
		FAIL("after %d ms w1_master_slave_count is %ld, expected %d",
		     DISCOVERY_MS, master_slave_count(), SL_COUNT);
	ktap_print_msg("4 slaves attached %lld ms after the program started",
		       now_ms() - t0);
	PASS();
}

static void s2_slave_list(const char *name)
{
	char buf[1024], *save = NULL, *tok;
	bool seen[SL_COUNT] = { false };
	int lines = 0;

	if (read_file(W1_MASTER "/w1_master_slaves", buf, sizeof(buf)) < 0)
		FAIL("cannot read w1_master_slaves");
	for (tok = strtok_r(buf, "\n", &save); tok;
	     tok = strtok_r(NULL, "\n", &save)) {
		int i;

		lines++;
		for (i = 0; i < SL_COUNT; i++)
			if (!strcmp(tok, w1_slaves[i].name))
				break;
		if (i == SL_COUNT)
			FAIL("unexpected entry '%s'", tok);
		if (seen[i])
			FAIL("'%s' listed twice", tok);
		seen[i] = true;
	}
	if (lines != SL_COUNT)
		FAIL("%d entries, expected %d", lines, SL_COUNT);
	PASS();
}

static void s2_ids(const char *name)
{
	for (int i = 0; i < SL_COUNT; i++) {
		char path[256], got[17], want[17];
		uint8_t id[16];
		int n;

		slave_path(path, sizeof(path), &w1_slaves[i], "id");
		n = read_bin(path, 0, id, sizeof(id));
		if (n != 8)
			FAIL("%s: read %d bytes, expected 8", path, n);
		w1_hex(id, 8, got, sizeof(got));
		w1_hex(w1_slaves[i].id, 8, want, sizeof(want));
		if (memcmp(id, w1_slaves[i].id, 8))
			FAIL("%s: id %s, expected %s", w1_slaves[i].name, got, want);
		if (w1_crc8(id, 8) != 0)
			FAIL("%s: CRC8 over the id is %02x, expected 0",
			     w1_slaves[i].name, w1_crc8(id, 8));
	}
	PASS();
}

static void s2_names(const char *name)
{
	for (int i = 0; i < SL_COUNT; i++) {
		char path[256], buf[64], want[32];

		slave_path(path, sizeof(path), &w1_slaves[i], "name");
		snprintf(want, sizeof(want), "%s\n", w1_slaves[i].name);
		if (read_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, want))
			FAIL("%s: '%s'", path, buf);
	}
	PASS();
}

/* ---- S3/S4/S5 DS18B20 ----------------------------------------------------- */

static void s3_w1_slave(const char *name)
{
	struct therm_read r;
	char why[400];

	if (check_w1_slave(t1_mC, 12, &r, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void s3_scratchpad(const char *name)
{
	struct therm_read r;
	char why[400];

	if (read_w1_slave(&r, why, sizeof(why)))
		FAIL("%s", why);
	if (r.b[4] != 0x7f)
		FAIL("config byte %02x, expected 7f (12 bit, reserved bits)", r.b[4]);
	if (r.b[5] != 0xff || r.b[7] != 0x10)
		FAIL("reserved bytes 5/7 = %02x/%02x, expected ff/10", r.b[5],
		     r.b[7]);
	PASS();
}

/* A file holding t1's 12-bit temperature in m°C, as w1_therm gives it. */
static void temp_file_case(const char *name, const char *path,
			   const char *what)
{
	long want = ds18b20_kernel_mC(ds18b20_reg(t1_mC, 12)), v = 0;
	int r = read_long(path, &v);

	if (r)
		FAIL("read %s: %s", path, strerror(-r));
	if (v != want)
		FAIL("%s %ld, expected %ld", what, v, want);
	PASS();
}

static void s3_temperature(const char *name)
{
	char path[256];

	slave_path(path, sizeof(path), T1, "temperature");
	temp_file_case(name, path, "temperature");
}

static void s3_hwmon(const char *name)
{
	char dir[256], path[600] = "";
	struct dirent *de;
	DIR *d;

	slave_path(dir, sizeof(dir), T1, "hwmon");
	d = opendir(dir);
	if (!d)
		FAIL("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "hwmon", 5)) {
			snprintf(path, sizeof(path), "%s/%s/temp1_input", dir,
				 de->d_name);
			break;
		}
	closedir(d);
	if (!path[0])
		FAIL("no hwmon device under %s", dir);
	temp_file_case(name, path, "temp1_input");
}

static void s3_ext_power(const char *name)
{
	char path[256];
	long v = -1;

	slave_path(path, sizeof(path), T1, "ext_power");
	if (read_long(path, &v))
		FAIL("cannot read %s", path);
	if (v != 1)
		FAIL("ext_power %ld, expected 1 (externally powered)", v);
	PASS();
}

static void s4_temp(const char *name, long mC, long want_t)
{
	struct therm_read r;
	char why[400];
	int err;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (pbctl_set_temp(mC))
		FAIL("qom-set t1 temperature %ld: %s", mC, pbctl_last_reply());
	err = check_w1_slave(mC, 12, &r, why, sizeof(why));
	t1_temp_restore();
	if (err)
		FAIL("%s", why);
	if (r.t != want_t)	/* docs/devices/ds2490.md, simplification 3 */
		FAIL("t=%ld, expected %ld", r.t, want_t);
	PASS();
}

static void s4_negative(const char *name)
{
	s4_temp(name, -10125, -10125);
}

static void s4_truncation(const char *name)
{
	s4_temp(name, 25063, 25062);
}

/* 25.060 C is 400.96 sixteenths: the model rounds up to 401 (25.0625 C);
 * rounding down would give 25.000 C. */
static void s4_rounding(const char *name)
{
	s4_temp(name, 25060, 25062);
}

static int t1_attr_long(const char *attr, long *v)
{
	char path[256];

	slave_path(path, sizeof(path), T1, attr);
	return read_long(path, v);
}

static int t1_attr_write(const char *attr, const char *s)
{
	char path[256];

	slave_path(path, sizeof(path), T1, attr);
	return write_str(path, s);
}

/*
 * Write bits to t1's resolution; it must read back, with the conversion
 * time of that resolution.  0, or -1 with why.
 */
static int set_resolution(int bits, long conv_ms, char *why, size_t wl)
{
	long res = -1, conv = -1;
	char val[8];
	int r;

	snprintf(val, sizeof(val), "%d\n", bits);
	r = t1_attr_write("resolution", val);
	if (r)
		snprintf(why, wl, "write %d to resolution: %s", bits, strerror(-r));
	else if (t1_attr_long("resolution", &res) || res != bits)
		snprintf(why, wl, "resolution reads %ld, expected %d", res, bits);
	else if (t1_attr_long("conv_time", &conv) || conv != conv_ms)
		snprintf(why, wl, "conv_time reads %ld, expected %ld (%d bit)",
			 conv, conv_ms, bits);
	else
		return 0;
	return -1;
}

static void s5_res9(const char *name)
{
	long want = ds18b20_kernel_mC(ds18b20_reg(t1_mC, 9)), t = -1;
	char why[300];

	if (set_resolution(9, 95, why, sizeof(why)))
		FAIL("%s", why);
	if (t1_attr_long("temperature", &t) || t != want)
		FAIL("temperature %ld at 9 bit, expected %ld", t, want);
	PASS();
}

static void s5_res9_value(const char *name)
{
	long t = 0;
	int r;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (pbctl_set_temp(21300))
		FAIL("qom-set t1 temperature 21300: %s", pbctl_last_reply());
	r = t1_attr_long("temperature", &t);
	t1_temp_restore();
	if (r)
		FAIL("read temperature: %s", strerror(-r));
	if (t != 21000)
		FAIL("temperature %ld for 21.3 degC at 9 bit, expected 21000", t);
	PASS();
}

/*
 * 13 passes the kernel's 9..14 range check; w1_DS18B20_set_resolution()
 * writes config (13-9)<<5 = 0x80 and re-reads it: a DS18B20 keeps bit 7 at 0
 * and R1R0 at the written 00, so the compare fails with -EIO and the device
 * is left at 9 bit (from 9 bit, "unchanged").
 */
static void s5_res13(const char *name)
{
	long res = -1;
	int r = t1_attr_write("resolution", "13\n");

	if (r != -EIO)
		FAIL("write 13 to resolution: %s, expected EIO",
		     r ? strerror(-r) : "success");
	if (t1_attr_long("resolution", &res) || res != 9)
		FAIL("resolution reads %ld after the failed write, expected 9", res);
	PASS();
}

static void s5_res12(const char *name)
{
	char why[300];

	if (set_resolution(12, 750, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

/* ---- S10/S11 DS2431 ------------------------------------------------------- */

static uint8_t eeprom_orig[128];
static bool eeprom_orig_valid;
static uint8_t eeprom_pattern[128];
static bool eeprom_pattern_valid;

static void eeprom_path(char *buf, size_t len)
{
	slave_path(buf, len, E1, "eeprom");
}

static void s10_full_write(const char *name)
{
	uint8_t got[128];
	char path[256];
	int n;

	eeprom_path(path, sizeof(path));
	n = read_bin(path, 0, eeprom_orig, sizeof(eeprom_orig));
	if (n != 128)
		FAIL("read %s: %d, expected 128 bytes", path, n);
	eeprom_orig_valid = true;
	/* random, and every byte differs from what is there now */
	for (int i = 0; i < 128; i++) {
		eeprom_pattern[i] = rng8();
		if (eeprom_pattern[i] == eeprom_orig[i])
			eeprom_pattern[i] ^= 0xa5;
	}
	n = write_bin(path, 0, eeprom_pattern, 128);
	if (n != 128)
		FAIL("write 128 bytes: %s", n < 0 ? strerror(-n) : "short write");
	n = read_bin(path, 0, got, sizeof(got));
	if (n != 128)
		FAIL("read back: %d bytes", n);
	for (int i = 0; i < 128; i++)
		if (got[i] != eeprom_pattern[i])
			FAIL("byte %d reads %02x, wrote %02x", i, got[i],
			     eeprom_pattern[i]);
	eeprom_pattern_valid = true;
	PASS();
}

static void s11_partial_write(const char *name)
{
	uint8_t want[128], got[128], patch[5];
	char path[256];
	int n;

	eeprom_path(path, sizeof(path));
	if (!eeprom_pattern_valid) {
		n = read_bin(path, 0, eeprom_pattern, 128);
		if (n != 128)
			FAIL("read %s: %d bytes", path, n);
	}
	memcpy(want, eeprom_pattern, 128);
	for (int i = 0; i < 5; i++) {
		patch[i] = rng8();
		if (patch[i] == want[3 + i])
			patch[i] ^= 0x5a;
		want[3 + i] = patch[i];
	}
	n = write_bin(path, 3, patch, 5);
	if (n != 5)
		FAIL("write 5 bytes at offset 3: %s",
		     n < 0 ? strerror(-n) : "short write");
	n = read_bin(path, 0, got, 128);
	if (n != 128)
		FAIL("read back: %d bytes", n);
	for (int i = 0; i < 128; i++)
		if (got[i] != want[i])
			FAIL("byte %d reads %02x, expected %02x (%s)", i, got[i],
			     want[i], i >= 3 && i < 8 ? "written" : "preserved");
	PASS();
}

static void eeprom_restore(void)
{
	char path[256];

	if (!eeprom_orig_valid)
		return;
	eeprom_path(path, sizeof(path));
	if (write_bin(path, 0, eeprom_orig, 128) != 128)
		ktap_print_msg("could not restore the DS2431 contents");
}

/* ---- S12 DS2408 ----------------------------------------------------------- */

/* Write output of a DS2408 or DS2413; state then reads want. */
static void output_case(const char *name, const struct w1_slave_rom *s,
			uint8_t out, uint8_t want)
{
	uint8_t v;
	char why[300];

	if (reg_put(s, "output", out, why, sizeof(why)) ||
	    reg_get(s, "state", &v, why, sizeof(why)))
		FAIL("%s", why);
	if (v != want)
		FAIL("state %02x after output %#x, expected %02x", v, out, want);
	PASS();
}

static void s12_state_ff(const char *name)
{
	/* latch ff AND pio-input ff */
	output_case(name, P1, 0xff, 0xff);
}

static void s12_output_55(const char *name)
{
	uint8_t out, st;
	char why[300];

	if (reg_put(P1, "output", 0x55, why, sizeof(why)) ||
	    reg_get(P1, "output", &out, why, sizeof(why)) ||
	    reg_get(P1, "state", &st, why, sizeof(why)))
		FAIL("%s", why);
	if (out != 0x55 || st != 0x55)
		FAIL("output %02x state %02x, expected 55 55", out, st);
	PASS();
}

static void s12_pio_input(const char *name)
{
	uint8_t st = 0, st2 = 0;
	int r, r2;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (pbctl_qom_set_int(QOM_PERIPH "p1", "pio-input", 0x0f))
		FAIL("qom-set p1 pio-input 15: %s", pbctl_last_reply());
	r = reg_read(P1, "state", &st);
	if (pbctl_qom_set_int(QOM_PERIPH "p1", "pio-input", 0xff))
		FAIL("qom-set p1 pio-input 255: %s", pbctl_last_reply());
	r2 = reg_read(P1, "state", &st2);
	if (r || r2)
		FAIL("read state: %s", strerror(r ? -r : -r2));
	if (st != 0x05)
		FAIL("state %02x with latch 55 and input 0f, expected 05", st);
	if (st2 != 0x55)
		FAIL("state %02x after input back to ff, expected 55", st2);
	PASS();
}

static void s12_status_control(const char *name)
{
	uint8_t v;
	char why[300];

	if (reg_put(P1, "status_control", 0x01, why, sizeof(why)) ||
	    reg_get(P1, "status_control", &v, why, sizeof(why)))
		FAIL("%s", why);
	if (v != 0x01)
		FAIL("status_control %02x, expected 01 (PLS set, PORL cleared, VCCP 0)", v);
	if (reg_put(P1, "status_control", 0x00, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

/*
 * status_control_write() demands that the read-back equals the written
 * byte; with VCC present the device reports VCCP (bit 7), so it fails.
 */
static void s12_status_control_vcc(const char *name)
{
	int r;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (pbctl_qom_set_bool(QOM_PERIPH "p1", "vcc", 1))
		SKIP("p1 'vcc' is not settable at run time: %s",
		     pbctl_last_reply());
	r = reg_write(P1, "status_control", 0x01);
	if (pbctl_qom_set_bool(QOM_PERIPH "p1", "vcc", 0))
		ktap_print_msg("restoring p1 vcc: %s", pbctl_last_reply());
	reg_write(P1, "status_control", 0x00);
	if (r != -EIO)
		FAIL("write status_control 0x01 with VCC: %s, expected EIO",
		     r < 0 ? strerror(-r) : "success");
	PASS();
}

static void s12_activity(const char *name)
{
	uint8_t v;
	char why[300];

	if (reg_put(P1, "activity", 0x00, why, sizeof(why)) ||
	    reg_get(P1, "activity", &v, why, sizeof(why)))
		FAIL("%s", why);
	if (v != 0x00)
		FAIL("activity %02x after the reset, expected 00", v);
	if (reg_put(P1, "output", 0xff, why, sizeof(why)))
		ktap_print_msg("restoring p1 output: %s", why);
	PASS();
}

/* ---- S13 DS2413 ----------------------------------------------------------- */

static void s13_both_on(const char *name)
{
	/* PIOA pin/latch 1, PIOB pin/latch 1, complement nibble 0 */
	output_case(name, P2, 0x03, 0x0f);
}

static void s13_a_only(const char *name)
{
	/* PIOA pin/latch 1, PIOB pin/latch 0, complement nibble c */
	output_case(name, P2, 0x01, 0xc3);
}

static void s13_pio_input(const char *name)
{
	uint8_t v = 0;
	char why[300];
	int r;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (reg_put(P2, "output", 0x03, why, sizeof(why)))
		FAIL("%s", why);
	if (pbctl_qom_set_int(QOM_PERIPH "p2", "pio-input", 0))
		FAIL("qom-set p2 pio-input 0: %s", pbctl_last_reply());
	r = reg_read(P2, "state", &v);
	if (pbctl_qom_set_int(QOM_PERIPH "p2", "pio-input", 3))
		FAIL("qom-set p2 pio-input 3: %s", pbctl_last_reply());
	if (r)
		FAIL("read state: %s", strerror(-r));
	/* pins 0, latches 1: b0 0, b1 1, b2 0, b3 1 -> 0a, complement 5 */
	if (v != 0x5a)
		FAIL("state %02x with latches on and inputs low, expected 5a", v);
	PASS();
}

/* ---- control channel, S14 unplug/plug ------------------------------------- */

static void pbctl_unknown_op(const char *name)
{
	char reply[256];
	int r;

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	r = pbctl_request(reply, sizeof(reply), "frobnicate %s", "now");
	if (r != -1)
		FAIL("request succeeded: '%s'", reply);
	if (strcmp(reply, "error unknown operation 'frobnicate'"))
		FAIL("reply '%s', expected \"error unknown operation 'frobnicate'\"",
		     reply);
	PASS();
}

static int ev_fd = -1;

/* Wait for the slave directory to (dis)appear; collect events meanwhile. */
static bool wait_slave(const struct w1_slave_rom *s, bool present,
		       struct w1_event *evs, int *nev, int maxev)
{
	long long end = now_ms() + TTL_WAIT_MS;

	for (;;) {
		struct w1_event ev;

		while (w1_event_recv(ev_fd, &ev, 100) == 1)
			if (*nev < maxev)
				evs[(*nev)++] = ev;
		if (slave_dir_exists(s->name) == present)
			break;
		if (now_ms() >= end)
			return false;
	}
	/* the event is sent right after the device change; allow it to land */
	{
		struct w1_event ev;

		while (w1_event_recv(ev_fd, &ev, 300) == 1)
			if (*nev < maxev)
				evs[(*nev)++] = ev;
	}
	return true;
}

/* Exactly one event, of type on P2, and nothing else. */
static int check_one_event(const struct w1_event *evs, int nev, uint8_t type,
			   char *why, size_t wl)
{
	char s[300];

	for (int i = 0; i < nev; i++) {
		w1_event_str(&evs[i], s, sizeof(s));
		ktap_print_msg("event: %s", s);
	}
	if (nev != 1) {
		snprintf(why, wl, "%d events, expected exactly one %s", nev,
			 w1_event_name(type));
		return -1;
	}
	if (!w1_event_is(&evs[0], type, P2->id)) {
		w1_event_str(&evs[0], s, sizeof(s));
		snprintf(why, wl, "event %s, expected %s for %s", s,
			 w1_event_name(type), P2->name);
		return -1;
	}
	return 0;
}

static bool s14_unplugged;

/*
 * Unplug (present false) or plug back p2 in the model: within slave_ttl
 * its sysfs entry goes or comes, with exactly one event about it.
 */
static void s14_set_present(const char *name, bool present)
{
	const char *what = present ? "true" : "false";
	int want_count = present ? SL_COUNT : SL_COUNT - 1;
	struct w1_event evs[16];
	long long t0;
	int nev = 0;
	char why[400];

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (present && (!s14_unplugged || ev_fd < 0))
		FAIL("the unplug step did not run");
	if (ev_fd < 0)
		ev_fd = cn_socket(W1_EVENT_GROUPS);
	if (ev_fd < 0)
		FAIL("netlink connector socket (group %u): %s", CN_W1_IDX,
		     strerror(errno));
	w1_event_drain(ev_fd);
	if (pbctl_qom_set_bool(QOM_PERIPH "p2", "present", present))
		FAIL("qom-set p2 present %s: %s", what, pbctl_last_reply());
	s14_unplugged = !present;
	t0 = now_ms();
	if (!wait_slave(P2, present, evs, &nev, (int)ARRAY_SIZE(evs)))
		FAIL("%s %s %d ms after %s", P2->name,
		     present ? "not attached" : "still attached", TTL_WAIT_MS,
		     present ? "plugging" : "unplugging");
	ktap_print_msg("%s %s after %lld ms", P2->name,
		       present ? "attached" : "detached", now_ms() - t0);
	if (master_slave_count() != want_count)
		FAIL("w1_master_slave_count %ld, expected %d",
		     master_slave_count(), want_count);
	if (check_one_event(evs, nev, present ? W1_SLAVE_ADD : W1_SLAVE_REMOVE,
			    why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void s14_unplug(const char *name)
{
	s14_set_present(name, false);
}

static void s14_plug(const char *name)
{
	s14_set_present(name, true);
}

/* ---- main ----------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(const char *name);
	const char *needs;	/* kernel options, kconfig_lacks() */
} cases[] = {
	{ "S1 DS2490 enumerated as USB device 04fa:2490", s1_usb_device, NULL },
	{ "S1 interface bound to DS9490R in alt setting 3 with 3 endpoints", s1_driver_bound, NULL },
	{ "S1 w1_bus_master1 registered (timeout 1, max_slave_count 64)", s1_master, NULL },
	{ "S1 no error-level kernel messages from DS2490/w1 devices at boot", s1_no_errors, NULL },
	{ "S2 discovery: w1_master_slave_count reaches 4", s2_discovery, NULL },
	{ "S2 w1_master_slaves lists exactly the four default slaves", s2_slave_list, NULL },
	{ "S2 slave id files hold the 8 ROM bytes in wire order, CRC8 valid", s2_ids, NULL },
	{ "S2 slave name files match the directory names", s2_names, NULL },
	{ "S3 DS18B20 w1_slave: CRC YES, register and t= match the model", s3_w1_slave, NEED_THERM },
	{ "S3 DS18B20 scratchpad: config 7f, reserved bytes ff and 10", s3_scratchpad, NEED_THERM },
	{ "S3 DS18B20 temperature attribute matches the model", s3_temperature, NEED_THERM },
	{ "S3 DS18B20 hwmon temp1_input matches the model", s3_hwmon, NEED_THERM " CONFIG_HWMON" },
	{ "S3 DS18B20 ext_power reads 1 (external power)", s3_ext_power, NEED_THERM },
	{ "S4 qom-set temperature -10125: t=-10125", s4_negative, NEED_THERM },
	{ "S4 qom-set temperature 25063: t=25062 (kernel truncates)", s4_truncation, NEED_THERM },
	{ "S4 qom-set temperature 25060: t=25062 (the model rounds to the nearest 1/16 C)", s4_rounding, NEED_THERM },
	{ "S5 resolution 9: reads 9, conv_time 95, 9-bit value", s5_res9, NEED_THERM },
	{ "S5 9-bit reading of 21.3 degC is t=21000", s5_res9_value, NEED_THERM },
	{ "S5 resolution 13 fails with EIO, device stays at 9 bit", s5_res13, NEED_THERM },
	{ "S5 resolution 12 restored: reads 12, conv_time 750", s5_res12, NEED_THERM },
	{ "S10 DS2431 eeprom: 128-byte write reads back identical", s10_full_write, NEED_DS2431 },
	{ "S11 DS2431 eeprom: 5 bytes at offset 3 change only bytes 3-7", s11_partial_write, NEED_DS2431 },
	{ "S12 DS2408 output ff: state reads ff", s12_state_ff, NEED_DS2408 },
	{ "S12 DS2408 output 55: output and state read 55", s12_output_55, NEED_DS2408 },
	{ "S12 DS2408 pio-input 0f: state reads 05 (latch AND input)", s12_pio_input, NEED_DS2408 },
	{ "S12 DS2408 status_control 01 written and read back (VCC off)", s12_status_control, NEED_DS2408 },
	{ "S12 DS2408 status_control write fails with EIO when VCCP is set", s12_status_control_vcc, NEED_DS2408 },
	{ "S12 DS2408 activity write returns 1 and clears the latches", s12_activity, NEED_DS2408 },
	{ "S13 DS2413 output 03: state 0f", s13_both_on, NEED_DS2413 },
	{ "S13 DS2413 output 01: state c3", s13_a_only, NEED_DS2413 },
	{ "S13 DS2413 inputs pulled low: state 5a", s13_pio_input, NEED_DS2413 },
	{ "pbctl unknown operation answered with error unknown operation", pbctl_unknown_op, NULL },
	{ "S14 DS2413 present=false: detached after slave_ttl with W1_SLAVE_REMOVE", s14_unplug, NEED_NETLINK },
	{ "S14 DS2413 present=true: re-attached with W1_SLAVE_ADD", s14_plug, NEED_NETLINK },
};

int main(void)
{
	long long v;

	setvbuf(stdout, NULL, _IOLBF, 0);
	w1_topology_init();
	rng_state = (uint64_t)now_ms() * 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)getpid() << 32 ^ 0x2545f4914f6cdd1dULL;
	if (!rng_state)
		rng_state = 1;

	ktap_print_header();
	ktap_set_plan(ARRAY_SIZE(cases));
	ktap_print_msg("not checked here (need QEMU traces): which 1-Wire function "
		       "commands reach the wire (S6-S10 trace evidence), S14 RR_DETECT dump");

	/* background search on (an earlier program may have stopped it) */
	if (path_exists(W1_MASTER))
		write_str(W1_MASTER "/w1_master_search", "-1\n");
	if (pbctl_open() == 0) {
		if (pbctl_qom_get_int(QOM_PERIPH "t1", "temperature", &v) == 0) {
			t1_mC = (long)v;
			t1_mC_from_host = true;
		} else {
			ktap_print_msg("qom-get t1 temperature: %s", pbctl_last_reply());
		}
	} else {
		ktap_print_msg("%s", pbctl_unavailable_reason());
	}
	ktap_print_msg("t1 temperature %ld m°C (%s)", t1_mC,
		       t1_mC_from_host ? "from the host" : "default topology");

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		w1_run_case(cases[i].name, cases[i].needs, cases[i].fn);

	eeprom_restore();
	if (s14_unplugged)
		pbctl_qom_set_bool(QOM_PERIPH "p2", "present", 1);
	if (ev_fd >= 0)
		close(ev_fd);
	return ktap_finished();
}
