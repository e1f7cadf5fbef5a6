/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_usbfs.h - what the parts of the w1_usbfs program share: w1_usbfs.c
 * unbinds the driver, claims the interface and binds the driver again;
 * w1_usbfs_vendor.c has the cases in between, on the claimed interface,
 * through the transfers of w1_usbfs_io.c.
 */
#ifndef PATCHBAY_W1_USBFS_H
#define PATCHBAY_W1_USBFS_H

#include "w1util.h"

/* The usbfs node of the DS2490, open with interface 0 claimed, or -1. */
extern int usb_fd;

/* Whether usb_fd is ready; false with "usbfs setup failed" in why. */
bool usb_ready(char *why);

/* the DS2490 vendor protocol, with the kernel ds2490.c names */
#define VENDOR_OUT  0x40
#define VENDOR_IN   0xc0
#define CONTROL_CMD 0x00
#define COMM_CMD    0x01
#define MODE_CMD    0x02

#define CTL_RESET_DEVICE     0x0000
#define CTL_FLUSH_XMT_BUFFER 0x0009
#define CTL_GET_COMM_CMDS    0x000a

#define COMM_IM           0x0001
#define COMM_NTF          0x0400
#define COMM_1_WIRE_RESET 0x0042
#define COMM_BLOCK_IO     0x0074
#define COMM_SET_PATH     0x00a2
#define COMM_DO_RELEASE   0x6092

#define ST_IDLE 0x20
#define ST_EPOF 0x80
#define RR_SH   0x02

#define EP_STATUS   0x81
#define EP_DATA_OUT 0x02
#define EP_DATA_IN  0x83

/* ---- transfers on usb_fd (w1_usbfs_io.c) ---- */

/* Bytes transferred, or -errno. */
int ctrl(uint8_t type, uint8_t req, uint16_t val, uint16_t idx, void *data,
         uint16_t len, unsigned int timeout_ms);
/* A vendor OUT request without data stage: 0 or -errno. */
int vendor(uint8_t req, uint16_t val, uint16_t idx);
int bulk(unsigned int ep, void *data, unsigned int len,
         unsigned int timeout_ms);
int clear_halt(unsigned int ep);
/* "success (N bytes)" or strerror() of a transfer's result */
const char *err_str(int r);
/* One EP1 status read: its length (16..32 expected) or -errno. */
int status_read(uint8_t st[32]);
/*
 * Poll EP1 until IDLE (at most 100 reads, as ds_wait_status()); result
 * bytes of every read are collected into res.  0, or -1 with why.
 */
int wait_idle(uint8_t st[32], uint8_t *res, int *nres, char *why, size_t wl);
/* The result bytes in hex, or "none". */
void res_str(const uint8_t *res, int n, char *out, size_t len);
/* CTL_RESET_DEVICE; 0, or -1 with why. */
int ctl_reset(char *why, size_t wl);
/*
 * 1-Wire reset (no result byte expected: slaves present), then MATCH ROM
 * t1 + READ SCRATCHPAD as one BLOCK_IO of 19 bytes: the echo of the 10
 * written bytes and 9 scratchpad bytes with a valid CRC8. 0, or -1 with why.
 */
int scratchpad_transaction(char *why, size_t wl);

/* ---- the cases between unbind and bind (w1_usbfs_vendor.c) ---- */

extern const struct kt_row w1_usbfs_vendor_cases[];
extern const size_t w1_usbfs_vendor_ncases;

#endif /* PATCHBAY_W1_USBFS_H */
