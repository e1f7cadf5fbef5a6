/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_usbfs_io.c - w1_usbfs's transfers on the claimed interface (see
 * w1_usbfs.h): control, bulk and status reads, and the baseline 1-Wire
 * transaction built from them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/usbdevice_fs.h>

#include "w1_usbfs.h"

/* Bytes transferred, or -errno. */
/* An ioctl on usb_fd: its result, or -errno. */
static int usb_ioctl(unsigned long req, void *arg)
{
    int r = ioctl(usb_fd, req, arg);

    return r < 0 ? -errno : r;
}

int ctrl(uint8_t type, uint8_t req, uint16_t val, uint16_t idx, void *data,
         uint16_t len, unsigned int timeout_ms)
{
    /* bRequestType, bRequest, wValue, wIndex, wLength, timeout, data */
    struct usbdevfs_ctrltransfer ct = {type, req,        val, idx,
                                       len,  timeout_ms, data};

    return usb_ioctl(USBDEVFS_CONTROL, &ct);
}

int vendor(uint8_t req, uint16_t val, uint16_t idx)
{
    return ctrl(VENDOR_OUT, req, val, idx, NULL, 0, 1000);
}

int bulk(unsigned int ep, void *data, unsigned int len, unsigned int timeout_ms)
{
    /* ep, len, timeout, data */
    struct usbdevfs_bulktransfer bt = {ep, len, timeout_ms, data};

    return usb_ioctl(USBDEVFS_BULK, &bt);
}

int clear_halt(unsigned int ep)
{
    int r = usb_ioctl(USBDEVFS_CLEAR_HALT, &ep);

    return r < 0 ? r : 0;
}

const char *err_str(int r)
{
    static char buf[64];

    if (r >= 0) {
        snprintf(buf, sizeof(buf), "success (%d bytes)", r);
        return buf;
    }
    return strerror(-r);
}

/* One EP1 status read: its length (16..32 expected) or -errno. */
int status_read(uint8_t st[32])
{
    memset(st, 0, 32);
    return bulk(EP_STATUS, st, 32, 1000);
}

/*
 * Poll EP1 until IDLE (at most 100 reads, as ds_wait_status()); result
 * bytes of every read are collected into res.  0, or -1 with why.
 */
int wait_idle(uint8_t st[32], uint8_t *res, int *nres, char *why, size_t wl)
{
    *nres = 0;
    for (int i = 0; i < 100; i++) {
        int n = status_read(st);

        if (n < 16) {
            snprintf(why, wl, "EP1 status read: %s",
                     n < 0 ? strerror(-n) : "fewer than 16 bytes");
            return -1;
        }
        for (int k = 16; k < n && *nres < 64; k++) {
            res[(*nres)++] = st[k];
        }
        if (st[8] & ST_EPOF) {
            snprintf(why, wl, "EP0F set in the status (byte 8 %02x)", st[8]);
            return -1;
        }
        if (st[8] & ST_IDLE) {
            return 0;
        }
    }
    snprintf(why, wl, "not IDLE after 100 status reads (byte 8 %02x)", st[8]);
    return -1;
}

void res_str(const uint8_t *res, int n, char *out, size_t len)
{
    w1_hex(res, (size_t)n, out, len);
    if (!n) {
        snprintf(out, len, "none");
    }
}

int ctl_reset(char *why, size_t wl)
{
    int r = vendor(CONTROL_CMD, CTL_RESET_DEVICE, 0);

    if (r) {
        snprintf(why, wl, "CTL_RESET_DEVICE: %s", err_str(r));
        return -1;
    }
    return 0;
}

/*
 * COMM request cmd with param, then wait for IDLE as wait_idle(); 0, or -1
 * with why naming the request (name) or what it waited for (after).
 */
static int comm_idle(uint16_t cmd, uint16_t param, const char *name,
                     const char *after, uint8_t st[32], uint8_t *res, int *nres,
                     char *why, size_t wl)
{
    char w2[200];
    int r = vendor(COMM_CMD, cmd, param);

    if (r) {
        snprintf(why, wl, "COMM %s: %s", name, err_str(r));
        return -1;
    }
    if (wait_idle(st, res, nres, w2, sizeof(w2))) {
        snprintf(why, wl, "after %s: %s", after, w2);
        return -1;
    }
    return 0;
}

/*
 * 1-Wire reset (no result byte expected: slaves present), then MATCH ROM
 * t1 + READ SCRATCHPAD as one BLOCK_IO of 19 bytes: the echo of the 10
 * written bytes and 9 scratchpad bytes with a valid CRC8.
 */
int scratchpad_transaction(char *why, size_t wl)
{
    uint8_t out[19], in[32], st[32], res[64];
    char rs[140];
    int nres, r;

    if (comm_idle(COMM_1_WIRE_RESET | COMM_IM, 0, "1_WIRE_RESET",
                  "the 1-Wire reset", st, res, &nres, why, wl)) {
        return -1;
    }
    if (nres) {
        res_str(res, nres, rs, sizeof(rs));
        snprintf(why, wl, "1-Wire reset reported result byte(s) %s (NRS/SH?)",
                 rs);
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
    if (comm_idle(COMM_BLOCK_IO | COMM_IM, sizeof(out), "BLOCK_IO", "BLOCK_IO",
                  st, res, &nres, why, wl)) {
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
