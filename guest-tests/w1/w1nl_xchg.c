/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_xchg.c - w1_netlink's exchanges (see w1nl.h): requests, the replies
 * rendered into a canonical one-line text (netlink header, every cn_msg,
 * w1_netlink_msg and w1_netlink_cmd header), and the shape the 6.12 code
 * produces rendered alike, so that the two compare as a whole.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "w1nl.h"

static uint32_t next_seq = 0x100;

/* ---- requests ------------------------------------------------------------- */

/* Most requests: one message holding one command. */
void req_single(struct w1_req *r, uint8_t type, const uint8_t id[8],
                uint8_t code, const void *data, uint16_t len)
{
    w1_req_init(r);
    w1_req_msg(r, type, id);
    w1_req_cmd(r, code, data, len);
}

/* ---- replies -------------------------------------------------------------- */

void rx_free(struct rx *rx)
{
    for (int i = 0; i < rx->n && i < RX_MAX_NL; i++) {
        free(rx->buf[i]);
    }
    memset(rx, 0, sizeof(*rx));
}

/*
 * Append to the text s (size bytes, *len used), cutting what does not fit:
 * the received (rx_out()) and the expected shape (xb_out()) are rendered
 * alike.
 */
static __attribute__((format(printf, 4, 5))) void
text_out(char *s, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int r;

    if (*len >= size - 1) {
        return;
    }
    va_start(ap, fmt);
    r = vsnprintf(s + *len, size - *len, fmt, ap);
    va_end(ap);
    if (r > 0) {
        *len += (size_t)r;
    }
    if (*len >= size) {
        *len = size - 1;
    }
}

#define rx_out(rx, ...) \
    text_out((rx)->render, sizeof((rx)->render), &(rx)->rlen, __VA_ARGS__)
#define xb_out(x, ...) text_out((x)->s, sizeof((x)->s), &(x)->n, __VA_ARGS__)

void fmt_id(const uint8_t id[8], char out[17])
{
    w1_hex(id, 8, out, 17);
}

/*
 * Walk one received datagram: log and skip cn_msgs whose id is not w1's,
 * render the rest canonically, record msgs and cmds for payload checks.
 */
static void rx_add(struct rx *rx, const uint8_t *buf, size_t got)
{
    struct nlmsghdr nlh;
    size_t off, end;
    uint8_t *copy;
    int w1_cns = 0, nl;
    size_t mark = rx->rlen;

    if (got < sizeof(nlh)) {
        ktap_print_msg("short netlink datagram of %zu bytes", got);
        return;
    }
    memcpy(&nlh, buf, sizeof(nlh));
    copy = malloc(got);
    if (!copy) {
        return;
    }
    memcpy(copy, buf, got);
    nl = rx->n;
    if (nl >= RX_MAX_NL) {
        free(copy);
        rx->n++;
        rx_out(rx, "[nl overflow]");
        return;
    }
    rx_out(rx, "[nl len=%u type=%u flags=%#x seq=%#x pid=%u]", nlh.nlmsg_len,
           nlh.nlmsg_type, nlh.nlmsg_flags, nlh.nlmsg_seq, nlh.nlmsg_pid);
    end = nlh.nlmsg_len;
    if (end > got || end < sizeof(nlh)) {
        rx_out(rx, "(bad nlmsg_len, received %zu)", got);
        end = got;
        w1_cns++;
    }
    for (off = sizeof(nlh); off < end;) {
        struct cn_msg cn;
        size_t moff;

        if (off + sizeof(cn) > end) {
            rx_out(rx, "(truncated cn_msg header: %zu bytes)", end - off);
            w1_cns++;
            break;
        }
        memcpy(&cn, copy + off, sizeof(cn));
        if (cn.id.idx != CN_W1_IDX || cn.id.val != CN_W1_VAL) {
            ktap_print_msg("skipped non-w1 cn_msg: idx %u val %u seq %u ack %u "
                           "len %u flags %#x (nlmsg_len %u)",
                           cn.id.idx, cn.id.val, cn.seq, cn.ack, cn.len,
                           cn.flags, nlh.nlmsg_len);
            off += sizeof(cn) + cn.len;
            continue;
        }
        w1_cns++;
        rx_out(rx, "(cn seq=%#x ack=%#x len=%u flags=%#x)", cn.seq, cn.ack,
               cn.len, cn.flags);
        if (off + sizeof(cn) + cn.len > end) {
            rx_out(rx, "(cn.len beyond the netlink message)");
            break;
        }
        for (moff = 0; moff < cn.len;) {
            size_t mbase = off + sizeof(cn) + moff;
            struct w1_netlink_msg m;
            struct rx_msg *rm;
            char hex[17];

            if (moff + sizeof(m) > cn.len) {
                rx_out(rx, "{truncated msg header}");
                break;
            }
            memcpy(&m, copy + mbase, sizeof(m));
            fmt_id(m.id.id, hex);
            rx_out(rx, "{msg type=%u status=%u len=%u id=%s}", m.type, m.status,
                   m.len, hex);
            if (moff + sizeof(m) + m.len > cn.len) {
                rx_out(rx, "{msg.len beyond cn.len}");
                break;
            }
            if (rx->nmsg < RX_MAX_ITEMS) {
                rm = &rx->msg[rx->nmsg++];
                rm->nl = nl;
                rm->nl_len = nlh.nlmsg_len;
                rm->cn = cn;
                rm->m = m;
                rm->data = copy + mbase + sizeof(m);
            }
            if ((m.type == W1_MASTER_CMD || m.type == W1_SLAVE_CMD) && m.len) {
                size_t coff;

                for (coff = 0; coff < m.len;) {
                    struct w1_netlink_cmd c;

                    if (coff + sizeof(c) > m.len) {
                        rx_out(rx, "<truncated cmd header>");
                        break;
                    }
                    memcpy(&c, copy + mbase + sizeof(m) + coff, sizeof(c));
                    rx_out(rx, "<cmd %u res=%u len=%u>", c.cmd, c.res, c.len);
                    if (coff + sizeof(c) + c.len > m.len) {
                        rx_out(rx, "<cmd.len beyond msg.len>");
                        break;
                    }
                    if (rx->ncmd < RX_MAX_ITEMS) {
                        struct rx_cmd *rc = &rx->cmd[rx->ncmd++];

                        rc->msg = rx->nmsg - 1;
                        rc->c = c;
                        rc->data = copy + mbase + sizeof(m) + coff + sizeof(c);
                    }
                    coff += sizeof(c) + c.len;
                }
            }
            moff += sizeof(m) + m.len;
        }
        off += sizeof(cn) + cn.len;
    }
    if (!w1_cns) {
        /* nothing of w1 in it: not counted (logged above) */
        rx->rlen = mark;
        rx->render[mark] = '\0';
        rx->foreign++;
        free(copy);
        return;
    }
    rx->buf[nl] = copy;
    rx->n++;
}

/*
 * Collect replies: wait up to RX_TIMEOUT_MS for each of the want w1 netlink
 * messages, then grace_ms more for any extra one.
 */
int rx_wait_ms = RX_TIMEOUT_MS;

static void rx_collect(struct rx *rx, int want, int grace_ms)
{
    static uint8_t buf[65536];

    for (;;) {
        int to = rx->n < want ? rx_wait_ms : grace_ms;
        ssize_t n = w1_nl_recv(nl_fd, buf, sizeof(buf), to);

        if (n <= 0) {
            break;
        }
        rx_add(rx, buf, (size_t)n);
    }
}

/* Log and drop whatever is still queued from earlier requests. */
static void rx_drain(void)
{
    static uint8_t buf[65536];
    ssize_t n;

    while ((n = w1_nl_recv(nl_fd, buf, sizeof(buf), 0)) > 0) {
        struct nlmsghdr nlh;

        memcpy(&nlh, buf, sizeof(nlh));
        ktap_print_msg("dropped a late reply: nlmsg_len %u seq %#x",
                       nlh.nlmsg_len, nlh.nlmsg_seq);
    }
}

/* ---- expected shapes ------------------------------------------------------ */

void xb_nl(struct xb *x, unsigned int len)
{
    xb_out(x, "[nl len=%u type=%u flags=%#x seq=%#x pid=%u]", len, NLMSG_DONE,
           0u, x->seq, 0u);
}

void xb_cn(struct xb *x, uint32_t ack, unsigned int len)
{
    xb_out(x, "(cn seq=%#x ack=%#x len=%u flags=%#x)", x->seq, ack, len,
           x->flags);
}

static void xb_msg(struct xb *x, uint8_t type, uint8_t status, unsigned int len,
                   const uint8_t id[8])
{
    char hex[17];

    fmt_id(id, hex);
    xb_out(x, "{msg type=%u status=%u len=%u id=%s}", type, status, len, hex);
}

static void xb_cmd(struct xb *x, uint8_t code, unsigned int len)
{
    xb_out(x, "<cmd %u res=0 len=%u>", code, len);
}

/* A msg holding one cmd header: a status (n 0) or n bytes of data. */
void xb_reply(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8],
              uint8_t code, unsigned int n)
{
    xb_msg(x, type, status, 4 + n, id);
    xb_cmd(x, code, n);
}

/* The cn_msg of a status reply (w1_netlink_queue_status()): ack echoed. */
void xb_cn_status(struct xb *x, uint8_t type, uint8_t status,
                  const uint8_t id[8], uint8_t code)
{
    xb_cn(x, x->ack, 16);
    xb_reply(x, type, status, id, code, 0);
}

/* The cn_msg of a data reply (w1_netlink_queue_cmd()): ack seq + 1. */
void xb_cn_data(struct xb *x, uint8_t type, const uint8_t id[8], uint8_t code,
                unsigned int n)
{
    xb_cn(x, x->seq + 1, 16 + n);
    xb_reply(x, type, 0, id, code, n);
}

/* A status reply sent on its own. */
void xb_status(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8],
               uint8_t code)
{
    xb_nl(x, NL_HDRS + 16);
    xb_cn_status(x, type, status, id, code);
}

/* A data reply sent on its own. */
static void xb_data(struct xb *x, uint8_t type, const uint8_t id[8],
                    uint8_t code, unsigned int n)
{
    xb_nl(x, NL_HDRS + 16 + n);
    xb_cn_data(x, type, id, code, n);
}

/* A READ/TOUCH/list command unbundled: its data, then its status 0. */
void xb_data_status(struct xb *x, uint8_t type, const uint8_t id[8],
                    uint8_t code, unsigned int n)
{
    xb_data(x, type, id, code, n);
    xb_status(x, type, 0, id, code);
}

/* The same bundled: both cn_msgs in one netlink message. */
void xb_bundled_data_status(struct xb *x, uint8_t type, const uint8_t id[8],
                            uint8_t code, unsigned int n)
{
    xb_nl(x, NL_HDRS + 16 + n + 20 + 16);
    xb_cn_data(x, type, id, code, n);
    xb_cn_status(x, type, 0, id, code);
}

/* w1_netlink_send_error(): header copies, cn.len 12, msg.len 0. */
void xb_error(struct xb *x, uint8_t type, uint8_t status, const uint8_t id[8])
{
    xb_nl(x, NL_HDRS + 12);
    xb_cn(x, x->ack, 12);
    xb_msg(x, type, status, 0, id);
}

/* ---- exchanges ------------------------------------------------------------ */

/*
 * An exchange: xchg_begin() picks seq and ack and returns the expected
 * shape, which the caller fills in with xb_*() before or after
 * xchg_send(); xchg_shape_ok() compares.  xchg_check() sends and compares.
 */
struct xb *xchg_begin(struct xchg *xc, uint16_t flags, enum ack_mode am)
{
    rx_free(&xc->rx);
    xc->seq = next_seq++;
    xc->ack = am == ACK_SEQ_PLUS_1 ? xc->seq + 1 : 0x5a000000u | xc->seq;
    xc->flags = flags;
    memset(&xc->x, 0, sizeof(xc->x));
    xc->x.seq = xc->seq;
    xc->x.ack = xc->ack;
    xc->x.flags = flags;
    return &xc->x;
}

/*
 * Send r and collect the replies.  want: w1 netlink messages expected;
 * cn_len < 0 means r->len.  0, or -1 if the send failed.
 */
int xchg_send(struct xchg *xc, struct w1_req *r, int want, int grace_ms,
              int cn_len)
{
    rx_drain();
    if (w1_req_send(r, nl_fd, xc->seq, xc->ack, xc->flags, cn_len)) {
        return -1;
    }
    rx_collect(&xc->rx, want, grace_ms);
    return 0;
}

/* Compare the rendered replies with the expected shape. */
bool xchg_shape_ok(struct xchg *xc, char *why, size_t wl)
{
    if (strcmp(xc->rx.render, xc->x.s) == 0) {
        return true;
    }
    ktap_print_msg("expected: %s", xc->x.s[0] ? xc->x.s : "(no reply)");
    ktap_print_msg("received: %s",
                   xc->rx.render[0] ? xc->rx.render : "(no reply)");
    snprintf(why, wl,
             "%d netlink message(s) received; reply shape differs from the "
             "6.12 one (see diagnostics)",
             xc->rx.n);
    return false;
}

/*
 * Send r (true cn.len) and compare the replies with the expected shape;
 * netlink messages without a w1 cn_msg (zeroed flushes) are only noted.
 */
bool xchg_check(struct xchg *xc, struct w1_req *r, int want, int grace_ms,
                char *why, size_t wl)
{
    if (xchg_send(xc, r, want, grace_ms, -1)) {
        snprintf(why, wl, "send: %s", strerror(errno));
        return false;
    }
    if (xc->rx.foreign) {
        ktap_print_msg(
            "%d zeroed cn_msg(s) before the replies (w1_reply_make_space)",
            xc->rx.foreign);
    }
    return xchg_shape_ok(xc, why, wl);
}

/* The n-th cmd with the given code and data length, or NULL. */
const struct rx_cmd *rx_find_cmd(const struct rx *rx, uint8_t code, int n)
{
    for (int i = 0; i < rx->ncmd; i++) {
        if (rx->cmd[i].c.cmd == code && rx->cmd[i].c.len && n-- == 0) {
            return &rx->cmd[i];
        }
    }
    return NULL;
}

/* The 8-byte ids in a list reply's data (none if c is NULL), max at most. */
int rx_ids(const struct rx_cmd *c, uint8_t ids[][8], int max)
{
    int n = 0;

    for (int i = 0; c && i < c->c.len / 8 && i < max; i++) {
        memcpy(ids[n++], c->data + 8 * i, 8);
    }
    return n;
}

struct xchg g_xc; /* large: keep them off the stack */
struct xchg h_xc;
