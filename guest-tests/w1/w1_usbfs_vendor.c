/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_usbfs_vendor.c - the w1_usbfs cases on the claimed interface: the
 * DS2490 vendor protocol (docs/devices/ds2490.md) with setup
 * packets of bmRequestType 0x40, bRequest 0 CONTROL / 1 COMM / 2 MODE,
 * wValue the command, wIndex its parameter, wLength 0; the only request with
 * a data stage is CTL_GET_COMM_CMDS (0xc0). Anything else must STALL (EPIPE
 * in usbfs). EP1 0x81 interrupt IN returns 16 state bytes plus 0..16 result
 * bytes; EP2 0x02 bulk OUT and EP3 0x83 bulk IN are the 128-byte 1-Wire data
 * FIFOs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pbctl.h"
#include "w1_usbfs.h"

/*
 * Every case here needs the claimed interface; the table's arg USB_RESET
 * starts it from a CTL_RESET_DEVICE. KTAP_PASS, or KTAP_FAIL with why.
 */
#define USB_RESET 1

static int usb_begin(unsigned long arg, char *why)
{
    if (!usb_ready(why)) {
        return KTAP_FAIL;
    }
    if (arg == USB_RESET && ctl_reset(why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

/* power-on defaults (SPU 0x20, prog pulse 0x40, pulses off), FIFOs flushed */
static int u_reset_defaults(unsigned long arg, char *why)
{
    uint8_t st[32];
    int n;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    n = status_read(st);
    if (n < 0) {
        return kt_fail(why, "EP1 status read: %s", strerror(-n));
    }
    if (n != 16) {
        return kt_fail(
            why,
            "status of %d bytes right after CTL_RESET_DEVICE, expected 16 "
            "(result FIFO flushed)",
            n);
    }
    if (!(st[8] & ST_IDLE) || (st[8] & ST_EPOF)) {
        return kt_fail(
            why, "device status byte %02x, expected IDLE without EP0F", st[8]);
    }
    if (st[0] != 0x00 || st[1] != 0x00 || st[2] != 0x20 || st[3] != 0x40) {
        return kt_fail(
            why,
            "enable/speed/SPU/prog bytes %02x %02x %02x %02x, expected 00 00 "
            "20 40",
            st[0], st[1], st[2], st[3]);
    }
    if (st[11] || st[12] || st[13]) {
        return kt_fail(why, "FIFO counts cmd %u EP2 %u EP3 %u, expected 0 0 0",
                       st[11], st[12], st[13]);
    }
    return KTAP_PASS;
}

static int u_status_size(unsigned long arg, char *why)
{
    uint8_t st[32];

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    for (int i = 0; i < 5; i++) {
        int n = status_read(st);

        if (n < 0) {
            return kt_fail(why, "EP1 status read %d: %s", i, strerror(-n));
        }
        if (n < 16 || n > 32) {
            return kt_fail(
                why, "EP1 status read %d returned %d bytes, expected 16..32", i,
                n);
        }
    }
    return KTAP_PASS;
}

/*
 * The baseline 1-Wire transaction; after the hostile requests, from a
 * CTL_RESET_DEVICE.
 */
static int scratchpad_case(unsigned long arg, char *why)
{
    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    if (scratchpad_transaction(why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

static int u_unknown_brequest(unsigned long arg, char *why)
{
    int bad = 0, first_req = -1, first_r = 0;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    for (int req = 3; req <= 0xff; req++) {
        int r = vendor((uint8_t)req, 0, 0);

        if (r != -EPIPE) {
            if (!bad++) {
                first_req = req;
                first_r = r;
            }
        }
    }
    if (bad) {
        return kt_fail(
            why,
            "%d of 253 requests did not STALL; first: bRequest %#04x -> %s",
            bad, first_req, err_str(first_r));
    }
    return KTAP_PASS;
}

/* Unknown wValues of a vendor bRequest: each must STALL. */
static const uint16_t unknown_control[] = {
    0x0005, 0x0006, 0x000b, 0x000c, 0x000f,
    0x0010, 0x00ff, 0x0100, 0x8000, 0xffff,
};
static const uint16_t unknown_mode[] = {0x0008, 0x000f, 0x00ff, 0xffff};

static const struct {
    uint8_t req;
    const uint16_t *vals;
    size_t n;
} stall_lists[] = {
    {CONTROL_CMD, unknown_control, ARRAY_SIZE(unknown_control)},
    {MODE_CMD, unknown_mode, ARRAY_SIZE(unknown_mode)},
};

static int stall_list(unsigned long arg, char *why)
{
    uint8_t req = stall_lists[arg].req;

    if (!usb_ready(why)) {
        return KTAP_FAIL;
    }
    for (size_t i = 0; i < stall_lists[arg].n; i++) {
        uint16_t val = stall_lists[arg].vals[i];
        int r = vendor(req, val, 0);

        if (r != -EPIPE) {
            return kt_fail(why,
                           "bRequest %u wValue %#06x: %s, expected EPIPE "
                           "(STALL)",
                           req, val, err_str(r));
        }
    }
    return KTAP_PASS;
}

/*
 * Requests that must get one particular result: a control transfer of
 * bmRequestType type, or a bulk IN from EP3 (type 0) with a timeout of
 * 500 ms; the data stage has len bytes (OUT: de ad be ef 01 02 03 04).
 */
struct xfer {
    uint8_t type, req;
    uint16_t val, len;
    int want; /* bytes, or -errno */
    const char *what, *want_name;
};

static const struct xfer out_with_data[] = {
    {VENDOR_OUT, CONTROL_CMD, 0x0008 /* FLUSH_RCV_BUFFER */, 8, -EPIPE,
     "CONTROL 0x0008 with wLength 8", "EPIPE"},
    {VENDOR_OUT, COMM_CMD, COMM_1_WIRE_RESET | COMM_IM, 4, -EPIPE,
     "COMM 1_WIRE_RESET with wLength 4", "EPIPE"},
};
static const struct xfer in_requests[] = {
    {VENDOR_IN, COMM_CMD, COMM_1_WIRE_RESET | COMM_IM, 16, -EPIPE,
     "IN COMM request", "EPIPE"},
    {VENDOR_IN, MODE_CMD, 0x0000, 16, -EPIPE, "IN MODE request", "EPIPE"},
    {VENDOR_IN, 0x7f, 0, 16, -EPIPE, "IN bRequest 0x7f", "EPIPE"},
};
static const struct xfer get_comm_cmds[] = {
    {VENDOR_IN, CONTROL_CMD, CTL_GET_COMM_CMDS, 16, 0,
     "CTL_GET_COMM_CMDS with an empty command FIFO", "0 bytes"},
};
static const struct xfer bulk_in_empty[] = {
    {0, 0, 0, 64, -ETIMEDOUT, "bulk IN from EP3 with nothing queued",
     "ETIMEDOUT"},
};

static const struct {
    const struct xfer *x;
    size_t n;
    bool reset; /* from a CTL_RESET_DEVICE */
} xfer_cases[] = {
    {out_with_data, ARRAY_SIZE(out_with_data), false},
    {in_requests, ARRAY_SIZE(in_requests), false},
    {get_comm_cmds, ARRAY_SIZE(get_comm_cmds), true},
    {bulk_in_empty, ARRAY_SIZE(bulk_in_empty), true},
};

static int xfer_case(unsigned long arg, char *why)
{
    uint8_t data[64] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};

    if (usb_begin(xfer_cases[arg].reset ? USB_RESET : 0, why)) {
        return KTAP_FAIL;
    }
    for (size_t i = 0; i < xfer_cases[arg].n; i++) {
        const struct xfer *x = &xfer_cases[arg].x[i];
        int r = x->type ? ctrl(x->type, x->req, x->val, 0, data, x->len, 1000)
                        : bulk(EP_DATA_IN, data, x->len, 500);

        if (r != x->want) {
            return kt_fail(why, "%s: %s, expected %s", x->what, err_str(r),
                           x->want_name);
        }
    }
    return KTAP_PASS;
}

/* descriptor requests a hostile guest may make; the device must answer */
static int u_string_descriptors(unsigned long arg, char *why)
{
    uint8_t buf[255], dev[18];
    int r;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    for (int idx = 0; idx <= 3; idx++) {
        r = ctrl(0x80, 0x06 /* GET_DESCRIPTOR */, (uint16_t)(0x0300 | idx),
                 idx ? 0x0409 : 0, buf, sizeof(buf), 1000);
        ktap_print_msg("GET_DESCRIPTOR(STRING %d): %s", idx, err_str(r));
    }
    r = ctrl(0x80, 0x06, 0x0100, 0, dev, sizeof(dev), 1000);
    if (r != 18) {
        return kt_fail(
            why, "GET_DESCRIPTOR(DEVICE) afterwards: %s, expected 18 bytes",
            err_str(r));
    }
    if (dev[1] != 1 || dev[8] != 0xfa || dev[9] != 0x04 || dev[10] != 0x90 ||
        dev[11] != 0x24) {
        return kt_fail(
            why,
            "device descriptor type %u idVendor %02x%02x idProduct %02x%02x",
            dev[1], dev[9], dev[8], dev[11], dev[10]);
    }
    return KTAP_PASS;
}

static int u_clear_halt_ep3(unsigned long arg, char *why)
{
    int r;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    r = clear_halt(EP_DATA_IN);
    if (r) {
        return kt_fail(why, "CLEAR_FEATURE(ENDPOINT_HALT) on EP 0x83: %s",
                       strerror(-r));
    }
    return KTAP_PASS;
}

/* A status read: EP2's FIFO must hold want bytes after what happened. */
static int ep2_holds(unsigned int want, const char *after, char *why)
{
    uint8_t st[32];
    int n = status_read(st);

    if (n < 16) {
        return kt_fail(why, "EP1 status read: %s", err_str(n));
    }
    if (st[12] != want) {
        return kt_fail(why, "EP2 FIFO count %u after %s, expected %u", st[12],
                       after, want);
    }
    return KTAP_PASS;
}

static int u_ep2_fill_flush(unsigned long arg, char *why)
{
    uint8_t out[128];
    int r = usb_begin(arg, why);

    if (r) {
        return r;
    }
    memset(out, 0xa5, sizeof(out));
    r = bulk(EP_DATA_OUT, out, sizeof(out), 1000);
    if (r != (int)sizeof(out)) {
        return kt_fail(why, "bulk OUT of 128 bytes: %s", err_str(r));
    }
    if (ep2_holds(128, "128 bytes", why)) {
        return KTAP_FAIL;
    }
    r = vendor(CONTROL_CMD, CTL_FLUSH_XMT_BUFFER, 0);
    if (r) {
        return kt_fail(why, "CTL_FLUSH_XMT_BUFFER: %s", err_str(r));
    }
    return ep2_holds(0, "the flush", why);
}

static int u_bulk_out_huge(unsigned long arg, char *why)
{
    const unsigned int len = 65536 + 64;
    uint8_t *buf = malloc(len);
    int r, c;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    if (!buf) {
        return kt_fail(why, "out of memory");
    }
    memset(buf, 0x3c, len);
    r = bulk(EP_DATA_OUT, buf, len, 1000);
    free(buf);
    c = clear_halt(EP_DATA_OUT);
    if (c) {
        ktap_print_msg("CLEAR_HALT EP 0x02: %s", strerror(-c));
    }
    if (ctl_reset(why, KT_WHY_LEN)) {
        kt_why_prefix(why, "after the transfer");
        return KTAP_FAIL;
    }
    if (r != -EPIPE && r != -ETIMEDOUT) {
        return kt_fail(
            why,
            "bulk OUT of %u bytes: %s, expected EPIPE (STALL) or ETIMEDOUT "
            "(NAK)",
            len, err_str(r));
    }
    ktap_print_msg("bulk OUT of %u bytes: %s", len, err_str(r));
    return KTAP_PASS;
}

static int u_block_io_abort(unsigned long arg, char *why)
{
    uint8_t st[32];
    int r, n;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    /* 65535 bytes of BLOCK_IO with an empty EP2 FIFO: waits for data */
    r = vendor(COMM_CMD, COMM_BLOCK_IO | COMM_IM, 0xffff);
    if (r) {
        return kt_fail(why, "COMM BLOCK_IO 65535: %s", err_str(r));
    }
    n = status_read(st);
    if (n < 16) {
        return kt_fail(why, "EP1 status read: %s", err_str(n));
    }
    if (st[8] & ST_IDLE) {
        return kt_fail(
            why, "IDLE while BLOCK_IO waits for 65535 bytes (status %02x)",
            st[8]);
    }
    if (ctl_reset(why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    n = status_read(st);
    if (n < 16) {
        return kt_fail(why, "EP1 status read: %s", err_str(n));
    }
    if (!(st[8] & ST_IDLE) || st[11] || st[12] || st[13]) {
        return kt_fail(
            why,
            "after CTL_RESET_DEVICE: status %02x, FIFOs %u/%u/%u, expected "
            "IDLE and empty",
            st[8], st[11], st[12], st[13]);
    }
    return KTAP_PASS;
}

/*
 * DO_RELEASE .. READ_REDIRECT_PAGE_CRC are no-ops in the model
 * (docs/devices/ds2490.md, simplifications)
 */
static int u_unimplemented_comm(unsigned long arg, char *why)
{
    static const uint16_t cmds[] = {
        COMM_SET_PATH | COMM_IM,
        COMM_DO_RELEASE | COMM_IM,
    };
    uint8_t st[32], res[64];
    char w2[200];
    int nres, r;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
        r = vendor(COMM_CMD, cmds[i], 0);
        if (r) {
            return kt_fail(why, "COMM %#06x: %s", cmds[i], err_str(r));
        }
        if (wait_idle(st, res, &nres, w2, sizeof(w2))) {
            return kt_fail(why, "COMM %#06x: %s", cmds[i], w2);
        }
    }
    if (ctl_reset(why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

static int u_bus_short(unsigned long arg, char *why)
{
    uint8_t st[32], res[64];
    char w2[200], rs[140];
    int nres, r;

    if (usb_begin(arg, why)) {
        return KTAP_FAIL;
    }
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (ctl_reset(why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 1)) {
        return kt_fail(why, "qom-set ds2490 short true: %s",
                       pbctl_last_reply());
    }
    r = vendor(COMM_CMD, COMM_1_WIRE_RESET | COMM_IM | COMM_NTF, 0);
    if (r || wait_idle(st, res, &nres, w2, sizeof(w2))) {
        pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 0);
        return kt_fail(why, "reset on a shorted bus: %s", r ? err_str(r) : w2);
    }
    if (pbctl_qom_set_bool(QOM_PERIPH "ds2490", "short", 0)) {
        return kt_fail(why, "qom-set ds2490 short false: %s",
                       pbctl_last_reply());
    }
    res_str(res, nres, rs, sizeof(rs));
    if (nres != 1 || !(res[0] & RR_SH)) {
        return kt_fail(
            why, "result bytes %s on a shorted bus, expected one with SH (02)",
            rs);
    }
    r = vendor(COMM_CMD, COMM_1_WIRE_RESET | COMM_IM | COMM_NTF, 0);
    if (r || wait_idle(st, res, &nres, w2, sizeof(w2))) {
        return kt_fail(why, "reset after the short: %s", r ? err_str(r) : w2);
    }
    res_str(res, nres, rs, sizeof(rs));
    if (nres != 1 || res[0] != 0x00) {
        return kt_fail(
            why,
            "result bytes %s after the short, expected exactly 00 (NTF, "
            "presence)",
            rs);
    }
    return KTAP_PASS;
}

const struct kt_row w1_usbfs_vendor_cases[] = {
    {
        "CTL_RESET_DEVICE: status shows power-on defaults, IDLE, empty FIFOs",
        NULL,
        u_reset_defaults,
        USB_RESET,
    },
    {
        "EP1 status reads return 16..32 bytes",
        NULL,
        u_status_size,
        0,
    },
    {
        "baseline: 1-Wire reset and MATCH ROM + READ SCRATCHPAD via BLOCK_IO",
        NULL,
        scratchpad_case,
        0,
    },
    {
        "unknown vendor bRequest 0x03-0xff STALL",
        NULL,
        u_unknown_brequest,
        0,
    },
    {
        "unknown CONTROL_CMD codes STALL",
        NULL,
        stall_list,
        0,
    },
    {
        "unknown MODE_CMD registers STALL",
        NULL,
        stall_list,
        1,
    },
    {
        "vendor OUT requests with wLength > 0 STALL",
        NULL,
        xfer_case,
        0,
    },
    {
        "vendor IN requests other than CTL_GET_COMM_CMDS STALL",
        NULL,
        xfer_case,
        1,
    },
    {
        "CTL_GET_COMM_CMDS with an empty command FIFO returns 0 bytes",
        NULL,
        xfer_case,
        2,
    },
    {
        "string descriptor requests leave the device answering",
        NULL,
        u_string_descriptors,
        0,
    },
    {
        "bulk IN from EP 0x83 with nothing queued times out",
        NULL,
        xfer_case,
        3,
    },
    {
        "CLEAR_FEATURE(ENDPOINT_HALT) on EP 0x83 accepted",
        NULL,
        u_clear_halt_ep3,
        0,
    },
    {
        "bulk OUT of 128 bytes fills EP2, FLUSH_XMT_BUFFER empties it",
        NULL,
        u_ep2_fill_flush,
        USB_RESET,
    },
    {
        "bulk OUT of 64 KiB + 64 bytes refused (STALL or NAK)",
        NULL,
        u_bulk_out_huge,
        0,
    },
    {
        "BLOCK_IO waiting for EP2 data is busy until CTL_RESET_DEVICE",
        NULL,
        u_block_io_abort,
        USB_RESET,
    },
    {
        "unimplemented COMM commands (SET_PATH, DO_RELEASE) complete",
        NULL,
        u_unimplemented_comm,
        USB_RESET,
    },
    {
        "short=on: 1-Wire reset with NTF reports SH, then 00 again",
        NULL,
        u_bus_short,
        0,
    },
    {
        "device survived: CTL_RESET_DEVICE, 1-Wire reset, scratchpad read",
        NULL,
        scratchpad_case,
        USB_RESET,
    },
};
const size_t w1_usbfs_vendor_ncases = ARRAY_SIZE(w1_usbfs_vendor_cases);
