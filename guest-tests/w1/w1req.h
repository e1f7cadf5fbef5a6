/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1req.h - building and sending w1 netlink requests and receiving the
 * replies' datagrams (w1req.c), shared by the w1 suite (w1_netlink) and the
 * w1 benchmarks (w1_bench):
 *
 *     struct w1_req r;
 *
 *     w1_req_init(&r);
 *     w1_req_msg(&r, W1_MASTER_CMD, master_id);
 *     w1_req_cmd(&r, W1_CMD_RESET, NULL, 0);
 *     w1_req_send(&r, fd, seq, 0, W1_CN_BUNDLE, -1);
 *
 * One netlink message carries one cn_msg whose payload is a list of
 * w1_netlink_msg, each followed by its w1_netlink_cmd list
 * (drivers/w1/w1_netlink.c).
 */
#ifndef PATCHBAY_W1REQ_H
#define PATCHBAY_W1REQ_H

#include "w1util.h"

/*
 * A little more than the connector takes (CONNECTOR_MAX_MSG_SIZE), so that
 * the w1 suite can send oversized requests on purpose.
 */
#define W1_REQ_MAX 16600

struct w1_req {
    _Alignas(8) uint8_t
        buf[sizeof(struct nlmsghdr) + sizeof(struct cn_msg) + W1_REQ_MAX];
    size_t len; /* bytes after the cn_msg header */
    size_t cur; /* offset of the current w1_netlink_msg */
    bool have_msg;
    int ncmd; /* commands in the request */
};

#define W1_REQ_DATA(r) \
    ((r)->buf + sizeof(struct nlmsghdr) + sizeof(struct cn_msg))

void w1_req_init(struct w1_req *r);

/* Overwrite the current message's len (malformed requests use it too). */
void w1_req_set_msg_len(struct w1_req *r, uint16_t len);

/* Start a message with len 0. */
void w1_req_msg(struct w1_req *r, uint8_t type, const uint8_t id[8]);

/*
 * Append a command (header + data; data NULL = zeroes) to the current
 * message.
 */
void w1_req_cmd(struct w1_req *r, uint8_t code, const void *data, uint16_t len);

/* Append raw bytes; they count into the current message's len if grow. */
void w1_req_raw(struct w1_req *r, const void *p, size_t n, bool grow);

/*
 * Send on fd (a NETLINK_CONNECTOR socket); cn_len < 0 means the true
 * payload length, anything else is written into cn_msg.len as is. 0 or -1.
 */
int w1_req_send(struct w1_req *r, int fd, uint32_t seq, uint32_t ack,
                uint16_t flags, int cn_len);

/*
 * Receive one datagram on fd within timeout_ms: its length, 0 on timeout,
 * -1 on error.  A datagram longer than len is logged and cut to len, so
 * that the caller never looks past what it got.
 */
ssize_t w1_nl_recv(int fd, uint8_t *buf, size_t len, int timeout_ms);

#endif /* PATCHBAY_W1REQ_H */
