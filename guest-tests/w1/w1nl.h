/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl.h - what the parts of the w1_netlink program share. The program is
 * one table of cases whose order is fixed (a kernel variant is expected to
 * hang at a given case number: kernel-patches/variants/); each area's file
 * has its parts of it (struct w1nl_part), w1_netlink.c puts them in order:
 *
 *   w1nl_xchg.c     requests, replies rendered to text, expected shapes
 *   w1nl_helpers.c  setup and verification exchanges, fake slaves, events
 *   w1nl_list.c     N1-N4: LIST_MASTERS, SEARCH, LIST_SLAVES, ALARM_SEARCH
 *   w1nl_rw.c       N5-N8, N16: RESET, READ/WRITE, TOUCH, bundling, large
 *                   I/O, the empty bus
 *   w1nl_flags.c    N9: unknown cn_msg flags
 *   w1nl_errors.c   N10-N14, N16: error replies, malformed packets,
 *                   SLAVE_ADD/REMOVE with events
 *   w1nl_flush.c    N17: where w1_reply_make_space() flushes early
 *
 * N1..N17 are the netlink items of the test plan; see docs/suites/w1.md.
 */
#ifndef PATCHBAY_W1NL_H
#define PATCHBAY_W1NL_H

#include "w1req.h"

#define RX_TIMEOUT_MS    2000 /* wait for a reply that has not come yet */
#define GRACE_MS         300  /* after the expected replies, for extra ones */
#define GRACE_SILENT_MS  2000 /* when the point is that nothing comes */
#define HELPER_GRACE_MS  100  /* setup/verification exchanges */
#define TOUCH_TIMEOUT_MS 6000 /* first reply of an 88-bit TOUCH */
#define CONVERT_MS       800  /* DS18B20 12-bit conversion (750 ms max) */

extern int nl_fd;          /* requests and unicast replies */
extern int ev_fd;          /* multicast group CN_W1_IDX: events */
extern uint8_t ID1[8];     /* msg.id of MASTER_CMD for master 1 */
extern long t1_mC;         /* t1's temperature in the model */
extern uint8_t sp_orig[9]; /* t1 scratchpad at start */
extern bool sp_orig_valid;

/* ---- replies and expected shapes (w1nl_xchg.c) ---- */

#define RX_MAX_NL    32
#define RX_MAX_ITEMS 128

struct rx_msg { /* one w1_netlink_msg of a reply */
    int nl;     /* index of its netlink message */
    uint32_t nl_len;
    struct cn_msg cn; /* its cn_msg header */
    struct w1_netlink_msg m;
    const uint8_t *data; /* m.len bytes */
};

struct rx_cmd { /* one w1_netlink_cmd of a reply */
    int msg;    /* index into rx.msg */
    struct w1_netlink_cmd c;
    const uint8_t *data; /* c.len bytes */
};

struct rx {
    int n; /* netlink messages carrying w1 cn_msgs */
    uint8_t *buf[RX_MAX_NL];
    int foreign; /* netlink messages without any */
    int nmsg, ncmd;
    struct rx_msg msg[RX_MAX_ITEMS];
    struct rx_cmd cmd[RX_MAX_ITEMS];
    char render[16384];
    size_t rlen;
};

struct xb {
    char s[16384];
    size_t n;
    uint32_t seq, ack;
    uint16_t flags;
};

#define NL_HDRS (16 + 20)

struct xchg {
    uint32_t seq, ack;
    uint16_t flags;
    struct rx rx;
    struct xb x;
};

enum ack_mode { ACK_OTHER, ACK_SEQ_PLUS_1 };

/* the time to wait for a reply that has not come yet */
extern int rx_wait_ms;

extern struct xchg g_xc; /* for the cases */
extern struct xchg h_xc; /* for helpers */

/* Most requests: one message holding one command. */
void req_single(struct w1_req *r, uint8_t type, const uint8_t id[8],
                uint8_t code, const void *data, uint16_t len);
void rx_free(struct rx *rx);
void fmt_id(const uint8_t id[8], char out[17]);

void xb_nl(struct xb *x, unsigned int len);
void xb_cn(struct xb *x, uint32_t ack, unsigned int len);
/*
 * A msg holding one cmd header: a status (n 0) or n bytes of data. A reply's
 * status is 0 or an errno number (EINVAL, ENODEV, EPROTO, E2BIG).
 */
void xb_reply(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8],
              uint8_t code, unsigned int n);
/* The cn_msg of a status reply (w1_netlink_queue_status()): ack echoed. */
void xb_cn_status(struct xb *x, uint8_t type, uint8_t status,
                  const uint8_t id[8], uint8_t code);
/* The cn_msg of a data reply (w1_netlink_queue_cmd()): ack seq + 1. */
void xb_cn_data(struct xb *x, uint8_t type, const uint8_t id[8], uint8_t code,
                unsigned int n);
/* A status reply sent on its own. */
void xb_status(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8],
               uint8_t code);
/* A READ/TOUCH/list command unbundled: its data, then its status 0. */
void xb_data_status(struct xb *x, uint8_t type, const uint8_t id[8],
                    uint8_t code, unsigned int n);
/* The same bundled: both cn_msgs in one netlink message. */
void xb_bundled_data_status(struct xb *x, uint8_t type, const uint8_t id[8],
                            uint8_t code, unsigned int n);
/* w1_netlink_send_error(): header copies, cn.len 12, msg.len 0. */
void xb_error(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8]);

/*
 * An exchange: xchg_begin() picks seq and ack and returns the expected
 * shape, which the caller fills in with xb_*() before or after
 * xchg_send(); xchg_shape_ok() compares.  xchg_check() sends and compares.
 */
struct xb *xchg_begin(struct xchg *xc, uint16_t flags, enum ack_mode am);
/*
 * Send r and collect the replies.  want: w1 netlink messages expected;
 * cn_len < 0 means r->len.  0, or -1 if the send failed.
 */
int xchg_send(struct xchg *xc, struct w1_req *r, int want, int grace_ms,
              int cn_len);
bool xchg_shape_ok(struct xchg *xc, char *why, size_t wl);
bool xchg_check(struct xchg *xc, struct w1_req *r, int want, int grace_ms,
                char *why, size_t wl);
/* The n-th cmd with the given code and data length, or NULL. */
const struct rx_cmd *rx_find_cmd(const struct rx *rx, uint8_t code, int n);
/* The 8-byte ids in a list reply's data (none if c is NULL), max at most. */
int rx_ids(const struct rx_cmd *c, uint8_t ids[][8], int max);

/* ---- helper exchanges (w1nl_helpers.c) ---- */

/* the four default slaves, for ids_equal_set() */
extern const int ALL4[SL_COUNT];

/* SLAVE_CMD s [WRITE w][READ rn]; data into rd. 0 or -1 with why. */
int nl_write_read(const struct w1_slave_rom *s, const uint8_t *w, uint16_t wn,
                  uint8_t *rd, uint16_t rn, char *why, size_t wl);
int nl_read_scratchpad(uint8_t sp[9], char *why, size_t wl);
/* MASTER_CMD 1 [code], code a data-returning list command: ids out. */
int nl_list(uint8_t code, uint8_t ids[][8], int max, int *n, char *why,
            size_t wl);
/* A slave id of family 01 that no device has, and its sysfs name. */
void fake_rom(uint16_t tag, uint8_t id[8], char *name, size_t len);
/* Remove a fake slave left by a failed case (negative controls). */
void fake_cleanup(const uint8_t id[8], const char *sysname);
/* Events received within ms (all of them, after any already queued). */
int events_within(struct w1_event *evs, int max, long ms);
/* The n ids are the slaves want[] (by index), each once. */
bool ids_equal_set(uint8_t ids[][8], int n, const int *want, int nwant,
                   char *why, size_t wl);
/* CRC8 valid and the temperature register is the model's. */
bool scratchpad_ok(const uint8_t sp[9], char *why, size_t wl);
/* One message with one command, answered by a lone status reply. */
int status_case(char *why, uint8_t type, const uint8_t id[8], uint8_t code,
                const void *data, uint16_t len, uint8_t status);

/* ---- the cases, in the areas' files ---- */

/* A run of consecutive cases of the table. */
struct w1nl_part {
    const struct kt_row *rows;
    size_t n;
};

/* in the order w1_netlink.c runs them */
extern const struct w1nl_part w1nl_list, w1nl_rw, w1nl_alarm, w1nl_flags,
    w1nl_errors, w1nl_large, w1nl_oversize, w1nl_empty_bus, w1nl_flush,
    w1nl_faults;

/* An N9 case has two results: "<flag>: N9_REPLY", then "<flag>: N9_NOTHING" */
#define N9_REPLY   "single EINVAL reply echoing the request header"
#define N9_NOTHING "nothing in the packet executed"

/* The N14 slave's id and name. */
void w1nl_errors_init(void);
/* The N17 rows from their table. */
void w1nl_flush_init(void);
/* The fault cases' rows and their shared result page (w1_faults.c). */
void w1nl_faults_init(void);

/* Undo what a case left: the slaves absent, the alarm setup, the N14 slave. */
void w1nl_rw_cleanup(void);
void w1nl_list_cleanup(void);
void w1nl_errors_cleanup(void);

#endif /* PATCHBAY_W1NL_H */
