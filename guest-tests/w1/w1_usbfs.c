// SPDX-License-Identifier: GPL-2.0
/*
 * w1_usbfs - hostile USB traffic against the emulated DS2490 through usbfs,
 * with the DS9490R driver unbound, then proof that the device survived and
 * that the driver binds again.
 *
 * The DS2490 vendor protocol (docs/devices/ds2490.md section 2): setup
 * packets with bmRequestType 0x40, bRequest 0 CONTROL / 1 COMM / 2 MODE,
 * wValue the command, wIndex its parameter, wLength 0; the only request with
 * a data stage is CTL_GET_COMM_CMDS (0xc0).  Anything else must STALL
 * (EPIPE in usbfs).  EP1 0x81 interrupt IN returns 16 state bytes plus
 * 0..16 result bytes; EP2 0x02 bulk OUT and EP3 0x83 bulk IN are the
 * 128-byte 1-Wire data FIFOs.
 *
 * Order: unbind (events for the slaves and the master), claim interface 0,
 * alt 3, CTL_RESET_DEVICE, a baseline 1-Wire transaction (MATCH ROM t1 +
 * READ SCRATCHPAD through BLOCK_IO), the hostile requests, the baseline
 * again, release, bind, and the master with its four slaves back.  The
 * two event cases need the w1 netlink connector and skip without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/usbdevice_fs.h>

#include "kconfig.h"
#include "ktap.h"
#include "pbctl.h"
#include "w1util.h"

#define DRV_DIR		"/sys/bus/usb/drivers/DS9490R"

/* docs/devices/ds2490.md 2.1-2.4, kernel ds2490.c names */
#define VENDOR_OUT		0x40
#define VENDOR_IN		0xc0
#define CONTROL_CMD		0x00
#define COMM_CMD		0x01
#define MODE_CMD		0x02

#define CTL_RESET_DEVICE	0x0000
#define CTL_FLUSH_XMT_BUFFER	0x0009
#define CTL_GET_COMM_CMDS	0x000a

#define COMM_IM			0x0001
#define COMM_NTF		0x0400
#define COMM_1_WIRE_RESET	0x0042
#define COMM_BLOCK_IO		0x0074
#define COMM_SET_PATH		0x00a2
#define COMM_DO_RELEASE		0x6092

#define ST_IDLE			0x20
#define ST_EPOF			0x80
#define RR_SH			0x02

#define EP_STATUS		0x81
#define EP_DATA_OUT		0x02
#define EP_DATA_IN		0x83

#define PASS()		do { ktap_test_pass(name); return; } while (0)
#define FAIL(...)	do { ktap_test_fail(name, __VA_ARGS__); return; } while (0)
#define SKIP(...)	do { ktap_test_skip(name, __VA_ARGS__); return; } while (0)

static char usb_dev[64], usb_intf[96], usb_node[64];
static int usb_fd = -1;
static bool unbound, claimed;
static int ev_fd = -1;
static struct w1_event unbind_evs[16];
static int unbind_nev;

/* ---- usbfs ---------------------------------------------------------------- */

/* Bytes transferred, or -errno. */
static int ctrl(uint8_t type, uint8_t req, uint16_t val, uint16_t idx,
		void *data, uint16_t len, unsigned int timeout_ms)
{
	struct usbdevfs_ctrltransfer ct = {
		.bRequestType = type,
		.bRequest = req,
		.wValue = val,
		.wIndex = idx,
		.wLength = len,
		.timeout = timeout_ms,
		.data = data,
	};
	int r = ioctl(usb_fd, USBDEVFS_CONTROL, &ct);

	return r < 0 ? -errno : r;
}

static int vendor(uint8_t req, uint16_t val, uint16_t idx)
{
	return ctrl(VENDOR_OUT, req, val, idx, NULL, 0, 1000);
}

static int bulk(unsigned int ep, void *data, unsigned int len,
		unsigned int timeout_ms)
{
	struct usbdevfs_bulktransfer bt = {
		.ep = ep,
		.len = len,
		.timeout = timeout_ms,
		.data = data,
	};
	int r = ioctl(usb_fd, USBDEVFS_BULK, &bt);

	return r < 0 ? -errno : r;
}

static int clear_halt(unsigned int ep)
{
	return ioctl(usb_fd, USBDEVFS_CLEAR_HALT, &ep) < 0 ? -errno : 0;
}

static const char *err_str(int r)
{
	static char buf[64];

	if (r >= 0) {
		snprintf(buf, sizeof(buf), "success (%d bytes)", r);
		return buf;
	}
	return strerror(-r);
}

/* One EP1 status read: its length (16..32 expected) or -errno. */
static int status_read(uint8_t st[32])
{
	memset(st, 0, 32);
	return bulk(EP_STATUS, st, 32, 1000);
}

/*
 * Poll EP1 until IDLE (at most 100 reads, as ds_wait_status()); result
 * bytes of every read are collected into res.  0, or -1 with why.
 */
static int wait_idle(uint8_t st[32], uint8_t *res, int *nres, char *why,
		     size_t wl)
{
	*nres = 0;
	for (int i = 0; i < 100; i++) {
		int n = status_read(st);

		if (n < 16) {
			snprintf(why, wl, "EP1 status read: %s",
				 n < 0 ? strerror(-n) : "fewer than 16 bytes");
			return -1;
		}
		for (int k = 16; k < n && *nres < 64; k++)
			res[(*nres)++] = st[k];
		if (st[8] & ST_EPOF) {
			snprintf(why, wl, "EP0F set in the status (byte 8 %02x)", st[8]);
			return -1;
		}
		if (st[8] & ST_IDLE)
			return 0;
	}
	snprintf(why, wl, "not IDLE after 100 status reads (byte 8 %02x)", st[8]);
	return -1;
}

static void res_str(const uint8_t *res, int n, char *out, size_t len)
{
	w1_hex(res, (size_t)n, out, len);
	if (!n)
		snprintf(out, len, "none");
}

static int ctl_reset(char *why, size_t wl)
{
	int r = vendor(CONTROL_CMD, CTL_RESET_DEVICE, 0);

	if (r) {
		snprintf(why, wl, "CTL_RESET_DEVICE: %s", err_str(r));
		return -1;
	}
	return 0;
}

/*
 * 1-Wire reset (no result byte expected: slaves present), then MATCH ROM
 * t1 + READ SCRATCHPAD as one BLOCK_IO of 19 bytes: the echo of the 10
 * written bytes and 9 scratchpad bytes with a valid CRC8.
 */
static int scratchpad_transaction(char *why, size_t wl)
{
	uint8_t out[19], in[32], st[32], res[64];
	char rs[140], w2[200];
	int nres, r;

	r = vendor(COMM_CMD, COMM_1_WIRE_RESET | COMM_IM, 0);
	if (r) {
		snprintf(why, wl, "COMM 1_WIRE_RESET: %s", err_str(r));
		return -1;
	}
	if (wait_idle(st, res, &nres, w2, sizeof(w2))) {
		snprintf(why, wl, "after the 1-Wire reset: %s", w2);
		return -1;
	}
	if (nres) {
		res_str(res, nres, rs, sizeof(rs));
		snprintf(why, wl, "1-Wire reset reported result byte(s) %s (NRS/SH?)", rs);
		return -1;
	}
	out[0] = 0x55;
	memcpy(out + 1, w1_slaves[SL_T1].id, 8);
	out[9] = 0xbe;
	memset(out + 10, 0xff, 9);
	r = bulk(EP_DATA_OUT, out, sizeof(out), 1000);
	if (r != (int)sizeof(out)) {
		snprintf(why, wl, "bulk OUT of 19 bytes: %s", err_str(r));
		return -1;
	}
	r = vendor(COMM_CMD, COMM_BLOCK_IO | COMM_IM, sizeof(out));
	if (r) {
		snprintf(why, wl, "COMM BLOCK_IO: %s", err_str(r));
		return -1;
	}
	if (wait_idle(st, res, &nres, w2, sizeof(w2))) {
		snprintf(why, wl, "after BLOCK_IO: %s", w2);
		return -1;
	}
	if (st[13] != sizeof(out)) {
		snprintf(why, wl, "EP3 FIFO holds %u bytes after BLOCK_IO, expected 19",
			 st[13]);
		return -1;
	}
	r = bulk(EP_DATA_IN, in, sizeof(out), 1000);
	if (r != (int)sizeof(out)) {
		snprintf(why, wl, "bulk IN of 19 bytes: %s", err_str(r));
		return -1;
	}
	if (memcmp(in, out, 10)) {
		snprintf(why, wl, "the written bytes did not echo back");
		return -1;
	}
	if (w1_crc8(in + 10, 9) != 0 || (in[14] & 0x1f) != 0x1f) {
		w1_hex(in + 10, 9, rs, sizeof(rs));
		snprintf(why, wl, "scratchpad %s: CRC8 or config byte invalid", rs);
		return -1;
	}
	return 0;
}

/* ---- cases ---------------------------------------------------------------- */

static void u_setup(const char *name)
{
	char path[300], drv[64];
	long bus = -1, devnum = -1;
	unsigned int ifnum = 0;
	struct usbdevfs_setinterface si = { .interface = 0, .altsetting = 3 };
	long long end;
	int r;

	if (ds2490_find(usb_dev, sizeof(usb_dev)))
		FAIL("no 04fa:2490 device under " USB_DEVICES);
	ds2490_intf(usb_dev, usb_intf, sizeof(usb_intf));
	usb_intf_driver(usb_intf, drv, sizeof(drv));
	if (strcmp(drv, "DS9490R"))
		FAIL("%s is bound to '%s', expected DS9490R", usb_intf, drv);
	wait_for_discovery(SL_COUNT, 10000);
	/* without the connector only the two event cases go (they skip) */
	if (!kconfig_lacks(NEED_NETLINK)) {
		ev_fd = cn_socket(W1_EVENT_GROUPS);
		if (ev_fd < 0)
			FAIL("netlink connector socket: %s", strerror(errno));
		w1_event_drain(ev_fd);
	}

	r = write_str(DRV_DIR "/unbind", usb_intf);
	if (r)
		FAIL("unbind %s: %s", usb_intf, strerror(-r));
	unbound = true;
	end = now_ms() + 10000;
	while (path_exists(W1_MASTER) && now_ms() < end) {
		struct w1_event ev;

		if (ev_fd < 0)
			sleep_ms(100);
		else if (w1_event_recv(ev_fd, &ev, 100) == 1 &&
			 unbind_nev < (int)ARRAY_SIZE(unbind_evs))
			unbind_evs[unbind_nev++] = ev;
	}
	if (path_exists(W1_MASTER))
		FAIL("%s still exists 10 s after the unbind", W1_MASTER);
	if (ev_fd >= 0) {
		struct w1_event ev;

		while (w1_event_recv(ev_fd, &ev, 500) == 1)
			if (unbind_nev < (int)ARRAY_SIZE(unbind_evs))
				unbind_evs[unbind_nev++] = ev;
	}

	snprintf(path, sizeof(path), USB_DEVICES "/%s/busnum", usb_dev);
	if (read_long(path, &bus))
		FAIL("cannot read %s", path);
	snprintf(path, sizeof(path), USB_DEVICES "/%s/devnum", usb_dev);
	if (read_long(path, &devnum))
		FAIL("cannot read %s", path);
	snprintf(usb_node, sizeof(usb_node), "/dev/bus/usb/%03ld/%03ld", bus,
		 devnum);
	usb_fd = open(usb_node, O_RDWR | O_CLOEXEC);
	if (usb_fd < 0)
		FAIL("open %s: %s", usb_node, strerror(errno));
	if (ioctl(usb_fd, USBDEVFS_CLAIMINTERFACE, &ifnum))
		FAIL("USBDEVFS_CLAIMINTERFACE 0: %s", strerror(errno));
	claimed = true;
	if (ioctl(usb_fd, USBDEVFS_SETINTERFACE, &si))
		FAIL("USBDEVFS_SETINTERFACE 0 alt 3: %s", strerror(errno));
	PASS();
}

#define NEED_USB() do { if (usb_fd < 0 || !claimed) FAIL("usbfs setup failed"); } while (0)

static void u_unbind_events(const char *name)
{
	bool seen[SL_COUNT] = { false };
	uint8_t mid[8];
	char s[300];

	if (!unbound)
		FAIL("the driver was not unbound");
	w1_master_id_bytes(1, mid);
	for (int i = 0; i < unbind_nev; i++) {
		w1_event_str(&unbind_evs[i], s, sizeof(s));
		ktap_print_msg("event: %s", s);
	}
	if (unbind_nev != SL_COUNT + 1)
		FAIL("%d events, expected %d W1_SLAVE_REMOVE + 1 W1_MASTER_REMOVE",
		     unbind_nev, SL_COUNT);
	for (int i = 0; i < SL_COUNT; i++) {
		int k;

		for (k = 0; k < SL_COUNT; k++)
			if (w1_event_is(&unbind_evs[i], W1_SLAVE_REMOVE,
					w1_slaves[k].id))
				break;
		if (k == SL_COUNT || seen[k])
			FAIL("event %d is not a W1_SLAVE_REMOVE of a distinct default slave", i);
		seen[k] = true;
		if (i && unbind_evs[i].cn.seq != unbind_evs[i - 1].cn.seq + 1)
			FAIL("event cn.seq %u after %u, expected consecutive",
			     unbind_evs[i].cn.seq, unbind_evs[i - 1].cn.seq);
	}
	if (!w1_event_is(&unbind_evs[SL_COUNT], W1_MASTER_REMOVE, mid))
		FAIL("last event is not W1_MASTER_REMOVE of master 1");
	if (unbind_evs[SL_COUNT].cn.seq != unbind_evs[SL_COUNT - 1].cn.seq + 1)
		FAIL("W1_MASTER_REMOVE cn.seq %u, expected %u",
		     unbind_evs[SL_COUNT].cn.seq, unbind_evs[SL_COUNT - 1].cn.seq + 1);
	PASS();
}

/* docs 2.2: power-on defaults (SPU 0x20, prog pulse 0x40, pulses off), FIFOs flushed */
static void u_reset_defaults(const char *name)
{
	uint8_t st[32];
	char why[200];
	int n;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	n = status_read(st);
	if (n < 0)
		FAIL("EP1 status read: %s", strerror(-n));
	if (n != 16)
		FAIL("status of %d bytes right after CTL_RESET_DEVICE, expected 16 (result FIFO flushed)",
		     n);
	if (!(st[8] & ST_IDLE) || (st[8] & ST_EPOF))
		FAIL("device status byte %02x, expected IDLE without EP0F", st[8]);
	if (st[0] != 0x00 || st[1] != 0x00 || st[2] != 0x20 || st[3] != 0x40)
		FAIL("enable/speed/SPU/prog bytes %02x %02x %02x %02x, expected 00 00 20 40",
		     st[0], st[1], st[2], st[3]);
	if (st[11] || st[12] || st[13])
		FAIL("FIFO counts cmd %u EP2 %u EP3 %u, expected 0 0 0", st[11],
		     st[12], st[13]);
	PASS();
}

static void u_status_size(const char *name)
{
	uint8_t st[32];

	NEED_USB();
	for (int i = 0; i < 5; i++) {
		int n = status_read(st);

		if (n < 0)
			FAIL("EP1 status read %d: %s", i, strerror(-n));
		if (n < 16 || n > 32)
			FAIL("EP1 status read %d returned %d bytes, expected 16..32", i, n);
	}
	PASS();
}

static void u_baseline(const char *name)
{
	char why[300];

	NEED_USB();
	if (scratchpad_transaction(why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void u_unknown_brequest(const char *name)
{
	int bad = 0, first_req = -1, first_r = 0;

	NEED_USB();
	for (int req = 3; req <= 0xff; req++) {
		int r = vendor((uint8_t)req, 0, 0);

		if (r != -EPIPE) {
			if (!bad++) {
				first_req = req;
				first_r = r;
			}
		}
	}
	if (bad)
		FAIL("%d of 253 requests did not STALL; first: bRequest %#04x -> %s",
		     bad, first_req, err_str(first_r));
	PASS();
}

static void stall_list(const char *name, uint8_t req, const uint16_t *vals,
		       size_t n)
{
	NEED_USB();
	for (size_t i = 0; i < n; i++) {
		int r = vendor(req, vals[i], 0);

		if (r != -EPIPE)
			FAIL("bRequest %u wValue %#06x: %s, expected EPIPE (STALL)",
			     req, vals[i], err_str(r));
	}
	PASS();
}

static void u_unknown_control(const char *name)
{
	static const uint16_t vals[] = {
		0x0005, 0x0006, 0x000b, 0x000c, 0x000f, 0x0010, 0x00ff,
		0x0100, 0x8000, 0xffff,
	};

	stall_list(name, CONTROL_CMD, vals, ARRAY_SIZE(vals));
}

static void u_unknown_mode(const char *name)
{
	static const uint16_t vals[] = { 0x0008, 0x000f, 0x00ff, 0xffff };

	stall_list(name, MODE_CMD, vals, ARRAY_SIZE(vals));
}

static void u_out_with_data(const char *name)
{
	uint8_t data[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
	int r;

	NEED_USB();
	r = ctrl(VENDOR_OUT, CONTROL_CMD, 0x0008 /* FLUSH_RCV_BUFFER */, 0,
		 data, sizeof(data), 1000);
	if (r != -EPIPE)
		FAIL("CONTROL 0x0008 with wLength 8: %s, expected EPIPE", err_str(r));
	r = ctrl(VENDOR_OUT, COMM_CMD, COMM_1_WIRE_RESET | COMM_IM, 0, data, 4,
		 1000);
	if (r != -EPIPE)
		FAIL("COMM 1_WIRE_RESET with wLength 4: %s, expected EPIPE",
		     err_str(r));
	PASS();
}

static void u_in_requests(const char *name)
{
	uint8_t buf[16];
	int r;

	NEED_USB();
	r = ctrl(VENDOR_IN, COMM_CMD, COMM_1_WIRE_RESET | COMM_IM, 0, buf,
		 sizeof(buf), 1000);
	if (r != -EPIPE)
		FAIL("IN COMM request: %s, expected EPIPE", err_str(r));
	r = ctrl(VENDOR_IN, MODE_CMD, 0x0000, 0, buf, sizeof(buf), 1000);
	if (r != -EPIPE)
		FAIL("IN MODE request: %s, expected EPIPE", err_str(r));
	r = ctrl(VENDOR_IN, 0x7f, 0, 0, buf, sizeof(buf), 1000);
	if (r != -EPIPE)
		FAIL("IN bRequest 0x7f: %s, expected EPIPE", err_str(r));
	PASS();
}

static void u_get_comm_cmds(const char *name)
{
	uint8_t buf[16];
	char why[200];
	int r;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	r = ctrl(VENDOR_IN, CONTROL_CMD, CTL_GET_COMM_CMDS, 0, buf, sizeof(buf),
		 1000);
	if (r != 0)
		FAIL("CTL_GET_COMM_CMDS with an empty command FIFO: %s, expected 0 bytes",
		     err_str(r));
	PASS();
}

/* descriptor requests a hostile guest may make; the device must answer */
static void u_string_descriptors(const char *name)
{
	uint8_t buf[255], dev[18];
	int r;

	NEED_USB();
	for (int idx = 0; idx <= 3; idx++) {
		r = ctrl(0x80, 0x06 /* GET_DESCRIPTOR */, (uint16_t)(0x0300 | idx),
			 idx ? 0x0409 : 0, buf, sizeof(buf), 1000);
		ktap_print_msg("GET_DESCRIPTOR(STRING %d): %s", idx, err_str(r));
	}
	r = ctrl(0x80, 0x06, 0x0100, 0, dev, sizeof(dev), 1000);
	if (r != 18)
		FAIL("GET_DESCRIPTOR(DEVICE) afterwards: %s, expected 18 bytes",
		     err_str(r));
	if (dev[1] != 1 || dev[8] != 0xfa || dev[9] != 0x04 || dev[10] != 0x90 ||
	    dev[11] != 0x24)
		FAIL("device descriptor type %u idVendor %02x%02x idProduct %02x%02x",
		     dev[1], dev[9], dev[8], dev[11], dev[10]);
	PASS();
}

static void u_bulk_in_empty(const char *name)
{
	uint8_t buf[64];
	char why[200];
	int r;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	r = bulk(EP_DATA_IN, buf, sizeof(buf), 500);
	if (r != -ETIMEDOUT)
		FAIL("bulk IN from EP3 with nothing queued: %s, expected ETIMEDOUT",
		     err_str(r));
	PASS();
}

static void u_clear_halt_ep3(const char *name)
{
	int r;

	NEED_USB();
	r = clear_halt(EP_DATA_IN);
	if (r)
		FAIL("CLEAR_FEATURE(ENDPOINT_HALT) on EP 0x83: %s", strerror(-r));
	PASS();
}

static void u_ep2_fill_flush(const char *name)
{
	uint8_t out[128], st[32];
	char why[200];
	int r, n;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	memset(out, 0xa5, sizeof(out));
	r = bulk(EP_DATA_OUT, out, sizeof(out), 1000);
	if (r != (int)sizeof(out))
		FAIL("bulk OUT of 128 bytes: %s", err_str(r));
	n = status_read(st);
	if (n < 16)
		FAIL("EP1 status read: %s", err_str(n));
	if (st[12] != 128)
		FAIL("EP2 FIFO count %u after 128 bytes, expected 128", st[12]);
	r = vendor(CONTROL_CMD, CTL_FLUSH_XMT_BUFFER, 0);
	if (r)
		FAIL("CTL_FLUSH_XMT_BUFFER: %s", err_str(r));
	n = status_read(st);
	if (n < 16)
		FAIL("EP1 status read: %s", err_str(n));
	if (st[12] != 0)
		FAIL("EP2 FIFO count %u after the flush, expected 0", st[12]);
	PASS();
}

static void u_bulk_out_huge(const char *name)
{
	const unsigned int len = 65536 + 64;
	uint8_t *buf = malloc(len);
	char why[200];
	int r, c;

	NEED_USB();
	if (!buf)
		FAIL("out of memory");
	memset(buf, 0x3c, len);
	r = bulk(EP_DATA_OUT, buf, len, 1000);
	free(buf);
	c = clear_halt(EP_DATA_OUT);
	if (c)
		ktap_print_msg("CLEAR_HALT EP 0x02: %s", strerror(-c));
	if (ctl_reset(why, sizeof(why)))
		FAIL("after the transfer: %s", why);
	if (r != -EPIPE && r != -ETIMEDOUT)
		FAIL("bulk OUT of %u bytes: %s, expected EPIPE (STALL) or ETIMEDOUT (NAK)",
		     len, err_str(r));
	ktap_print_msg("bulk OUT of %u bytes: %s", len, err_str(r));
	PASS();
}

static void u_block_io_abort(const char *name)
{
	uint8_t st[32];
	char why[200];
	int r, n;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	/* 65535 bytes of BLOCK_IO with an empty EP2 FIFO: waits for data */
	r = vendor(COMM_CMD, COMM_BLOCK_IO | COMM_IM, 0xffff);
	if (r)
		FAIL("COMM BLOCK_IO 65535: %s", err_str(r));
	n = status_read(st);
	if (n < 16)
		FAIL("EP1 status read: %s", err_str(n));
	if (st[8] & ST_IDLE)
		FAIL("IDLE while BLOCK_IO waits for 65535 bytes (status %02x)", st[8]);
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	n = status_read(st);
	if (n < 16)
		FAIL("EP1 status read: %s", err_str(n));
	if (!(st[8] & ST_IDLE) || st[11] || st[12] || st[13])
		FAIL("after CTL_RESET_DEVICE: status %02x, FIFOs %u/%u/%u, expected IDLE and empty",
		     st[8], st[11], st[12], st[13]);
	PASS();
}

/* docs 2.4: DO_RELEASE .. READ_REDIRECT_PAGE_CRC are unimplemented no-ops */
static void u_unimplemented_comm(const char *name)
{
	static const uint16_t cmds[] = {
		COMM_SET_PATH | COMM_IM, COMM_DO_RELEASE | COMM_IM,
	};
	uint8_t st[32], res[64];
	char why[200];
	int nres, r;

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		r = vendor(COMM_CMD, cmds[i], 0);
		if (r)
			FAIL("COMM %#06x: %s", cmds[i], err_str(r));
		if (wait_idle(st, res, &nres, why, sizeof(why)))
			FAIL("COMM %#06x: %s", cmds[i], why);
	}
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void u_bus_short(const char *name)
{
	uint8_t st[32], res[64];
	char why[200], rs[140];
	int nres, r;

	NEED_USB();
	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	if (pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 1))
		FAIL("qom-set ds2490 short true: %s", pbctl_last_reply());
	r = vendor(COMM_CMD, COMM_1_WIRE_RESET | COMM_IM | COMM_NTF, 0);
	if (r || wait_idle(st, res, &nres, why, sizeof(why))) {
		pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 0);
		FAIL("reset on a shorted bus: %s", r ? err_str(r) : why);
	}
	if (pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 0))
		FAIL("qom-set ds2490 short false: %s", pbctl_last_reply());
	res_str(res, nres, rs, sizeof(rs));
	if (nres != 1 || !(res[0] & RR_SH))
		FAIL("result bytes %s on a shorted bus, expected one with SH (02)", rs);
	r = vendor(COMM_CMD, COMM_1_WIRE_RESET | COMM_IM | COMM_NTF, 0);
	if (r || wait_idle(st, res, &nres, why, sizeof(why)))
		FAIL("reset after the short: %s", r ? err_str(r) : why);
	res_str(res, nres, rs, sizeof(rs));
	if (nres != 1 || res[0] != 0x00)
		FAIL("result bytes %s after the short, expected exactly 00 (NTF, presence)",
		     rs);
	PASS();
}

static void u_survived(const char *name)
{
	char why[300];

	NEED_USB();
	if (ctl_reset(why, sizeof(why)))
		FAIL("%s", why);
	if (scratchpad_transaction(why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static struct w1_event bind_evs[16];
static int bind_nev;

static void release_usb(void)
{
	unsigned int ifnum = 0;

	if (usb_fd >= 0) {
		if (claimed)
			ioctl(usb_fd, USBDEVFS_RELEASEINTERFACE, &ifnum);
		close(usb_fd);
	}
	usb_fd = -1;
	claimed = false;
}

static void u_rebind(const char *name)
{
	char drv[64];
	long long end;
	int r;

	release_usb();
	if (!unbound)
		FAIL("the driver was never unbound");
	if (ev_fd >= 0)
		w1_event_drain(ev_fd);
	r = write_str(DRV_DIR "/bind", usb_intf);
	if (r)
		FAIL("bind %s: %s", usb_intf, strerror(-r));
	unbound = false;
	usb_intf_driver(usb_intf, drv, sizeof(drv));
	if (strcmp(drv, "DS9490R"))
		FAIL("%s bound to '%s' after the bind", usb_intf, drv);
	end = now_ms() + 10000;
	for (;;) {
		struct w1_event ev;

		if (ev_fd < 0)
			sleep_ms(100);
		else if (w1_event_recv(ev_fd, &ev, 100) == 1 &&
			 bind_nev < (int)ARRAY_SIZE(bind_evs))
			bind_evs[bind_nev++] = ev;
		if (wait_for_discovery(SL_COUNT, 0) || now_ms() >= end)
			break;
	}
	if (ev_fd >= 0) {
		struct w1_event ev;

		while (w1_event_recv(ev_fd, &ev, 500) == 1)
			if (bind_nev < (int)ARRAY_SIZE(bind_evs))
				bind_evs[bind_nev++] = ev;
	}
	if (!path_exists(W1_MASTER))
		FAIL("%s did not come back", W1_MASTER);
	if (!wait_for_discovery(SL_COUNT, 0))
		FAIL("w1_master_slave_count %ld 10 s after the bind, expected %d",
		     master_slave_count(), SL_COUNT);
	PASS();
}

/*
 * w1_add_master_device() sends W1_MASTER_ADD (dev->seq starts at 1) while
 * the new master's thread already searches; the four W1_SLAVE_ADD events may
 * in principle precede it, so the order is not checked, only the set and
 * that the seqs are 1..5.
 */
static void u_rebind_events(const char *name)
{
	bool seen[SL_COUNT] = { false }, master = false, seqs[6] = { false };
	uint8_t mid[8];
	char s[300];

	if (ev_fd < 0)
		FAIL("no event socket");
	w1_master_id_bytes(1, mid);
	for (int i = 0; i < bind_nev; i++) {
		w1_event_str(&bind_evs[i], s, sizeof(s));
		ktap_print_msg("event: %s", s);
	}
	if (bind_nev != SL_COUNT + 1)
		FAIL("%d events, expected W1_MASTER_ADD + %d W1_SLAVE_ADD", bind_nev,
		     SL_COUNT);
	for (int i = 0; i < bind_nev; i++) {
		const struct w1_event *ev = &bind_evs[i];
		int k = -1;

		if (w1_event_is(ev, W1_MASTER_ADD, mid) && !master) {
			master = true;
		} else {
			for (k = 0; k < SL_COUNT; k++)
				if (w1_event_is(ev, W1_SLAVE_ADD, w1_slaves[k].id))
					break;
			if (k == SL_COUNT || seen[k])
				FAIL("event %d is neither W1_MASTER_ADD of master 1 nor a new W1_SLAVE_ADD",
				     i);
			seen[k] = true;
		}
		if (ev->cn.seq < 1 || ev->cn.seq > 5 || seqs[ev->cn.seq])
			FAIL("event cn.seq %u, expected each of 1..5 once (new master counter)",
			     ev->cn.seq);
		seqs[ev->cn.seq] = true;
	}
	PASS();
}

static const struct {
	const char *name;
	void (*fn)(const char *name);
	const char *needs;	/* kernel options, kconfig_lacks() */
} cases[] = {
	{ "usbfs setup: DS9490R unbound, interface 0 claimed in alt setting 3", u_setup, NULL },
	{ "unbind: W1_SLAVE_REMOVE for each slave, then W1_MASTER_REMOVE", u_unbind_events, NEED_NETLINK },
	{ "CTL_RESET_DEVICE: status shows power-on defaults, IDLE, empty FIFOs", u_reset_defaults, NULL },
	{ "EP1 status reads return 16..32 bytes", u_status_size, NULL },
	{ "baseline: 1-Wire reset and MATCH ROM + READ SCRATCHPAD via BLOCK_IO", u_baseline, NULL },
	{ "unknown vendor bRequest 0x03-0xff STALL", u_unknown_brequest, NULL },
	{ "unknown CONTROL_CMD codes STALL", u_unknown_control, NULL },
	{ "unknown MODE_CMD registers STALL", u_unknown_mode, NULL },
	{ "vendor OUT requests with wLength > 0 STALL", u_out_with_data, NULL },
	{ "vendor IN requests other than CTL_GET_COMM_CMDS STALL", u_in_requests, NULL },
	{ "CTL_GET_COMM_CMDS with an empty command FIFO returns 0 bytes", u_get_comm_cmds, NULL },
	{ "string descriptor requests leave the device answering", u_string_descriptors, NULL },
	{ "bulk IN from EP 0x83 with nothing queued times out", u_bulk_in_empty, NULL },
	{ "CLEAR_FEATURE(ENDPOINT_HALT) on EP 0x83 accepted", u_clear_halt_ep3, NULL },
	{ "bulk OUT of 128 bytes fills EP2, FLUSH_XMT_BUFFER empties it", u_ep2_fill_flush, NULL },
	{ "bulk OUT of 64 KiB + 64 bytes refused (STALL or NAK)", u_bulk_out_huge, NULL },
	{ "BLOCK_IO waiting for EP2 data is busy until CTL_RESET_DEVICE", u_block_io_abort, NULL },
	{ "unimplemented COMM commands (SET_PATH, DO_RELEASE) complete", u_unimplemented_comm, NULL },
	{ "short=on: 1-Wire reset with NTF reports SH, then 00 again", u_bus_short, NULL },
	{ "device survived: CTL_RESET_DEVICE, 1-Wire reset, scratchpad read", u_survived, NULL },
	{ "bind: DS9490R bound again, w1_bus_master1 back with 4 slaves", u_rebind, NULL },
	{ "bind: W1_MASTER_ADD for master 1 and W1_SLAVE_ADD x4, seqs 1..5", u_rebind_events, NEED_NETLINK },
};

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	w1_topology_init();
	ktap_print_header();
	ktap_set_plan(ARRAY_SIZE(cases));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		w1_run_case(cases[i].name, cases[i].needs, cases[i].fn);
	/* whatever happened, give the device back to its driver */
	release_usb();
	if (unbound && usb_intf[0])
		write_str(DRV_DIR "/bind", usb_intf);
	if (ev_fd >= 0)
		close(ev_fd);
	return ktap_finished();
}
