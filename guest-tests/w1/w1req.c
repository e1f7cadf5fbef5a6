/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1req.c - w1 netlink requests and replies' datagrams (see w1req.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "w1req.h"

void w1_req_init(struct w1_req *r)
{
    memset(r->buf, 0, sizeof(struct nlmsghdr) + sizeof(struct cn_msg));
    r->len = 0;
    r->cur = 0;
    r->have_msg = false;
    r->ncmd = 0;
}

/* Append n bytes; p NULL appends zeroes (a READ buffer). */
static void w1_req_put(struct w1_req *r, const void *p, size_t n)
{
    if (r->len + n > W1_REQ_MAX) {
        fprintf(stderr, "request buffer overflow\n");
        exit(2);
    }
    if (p) {
        memcpy(W1_REQ_DATA(r) + r->len, p, n);
    } else {
        memset(W1_REQ_DATA(r) + r->len, 0, n);
    }
    r->len += n;
}

void w1_req_set_msg_len(struct w1_req *r, uint16_t len)
{
    struct w1_netlink_msg m;

    memcpy(&m, W1_REQ_DATA(r) + r->cur, sizeof(m));
    m.len = len;
    memcpy(W1_REQ_DATA(r) + r->cur, &m, sizeof(m));
}

/* Grow the current message's len by n. */
static void w1_req_grow(struct w1_req *r, size_t n)
{
    struct w1_netlink_msg m;

    memcpy(&m, W1_REQ_DATA(r) + r->cur, sizeof(m));
    w1_req_set_msg_len(r, (uint16_t)(m.len + n));
}

void w1_req_msg(struct w1_req *r, uint8_t type, const uint8_t id[8])
{
    struct w1_netlink_msg m = {.type = type};

    memcpy(m.id.id, id, 8);
    r->cur = r->len;
    r->have_msg = true;
    w1_req_put(r, &m, sizeof(m));
}

void w1_req_cmd(struct w1_req *r, uint8_t code, const void *data, uint16_t len)
{
    struct w1_netlink_cmd c = {.cmd = code, .len = len};

    w1_req_put(r, &c, sizeof(c));
    if (len) {
        w1_req_put(r, data, len);
    }
    w1_req_grow(r, sizeof(c) + len);
    r->ncmd++;
}

void w1_req_raw(struct w1_req *r, const void *p, size_t n, bool grow)
{
    w1_req_put(r, p, n);
    if (grow) {
        w1_req_grow(r, n);
    }
}

int w1_req_send(struct w1_req *r, int fd, uint32_t seq, uint32_t ack,
                uint16_t flags, int cn_len)
{
    struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
    struct nlmsghdr nlh = {
        .nlmsg_len = (uint32_t)(sizeof(nlh) + sizeof(struct cn_msg) + r->len),
        .nlmsg_type = NLMSG_DONE,
        .nlmsg_seq = seq,
    };
    struct cn_msg cn = {
        .id = {.idx = CN_W1_IDX, .val = CN_W1_VAL},
        .seq = seq,
        .ack = ack,
        .len = (uint16_t)(cn_len < 0 ? (int)r->len : cn_len),
        .flags = flags,
    };
    ssize_t n;

    memcpy(r->buf, &nlh, sizeof(nlh));
    memcpy(r->buf + sizeof(nlh), &cn, sizeof(cn));
    n = sendto(fd, r->buf, nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
               sizeof(sa));
    return n == (ssize_t)nlh.nlmsg_len ? 0 : -1;
}

ssize_t w1_nl_recv(int fd, uint8_t *buf, size_t len, int timeout_ms)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, timeout_ms);
        ssize_t n;

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return r;
        }
        n = recv(fd, buf, len, MSG_DONTWAIT | MSG_TRUNC);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            continue;
        }
        if (n > (ssize_t)len) {
            ktap_print_msg("netlink datagram of %zd bytes truncated to %zu", n,
                           len);
            n = (ssize_t)len;
        }
        return n;
    }
}
