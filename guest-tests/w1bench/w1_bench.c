/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_bench - benchmarks of the 1-Wire stack, measured in the guest
 * (docs/benchmarks.md, P4 and P5).  Every measured point is a KTAP case
 * that passes when the exchange worked; the figures are printed on
 * "# BENCH ..." diagnostic lines that scripts/bench --w1 collects.
 *
 * P4  netlink messages and round trip of a request of N = 1, 4, 16, 64
 *     commands, bundled (cn_msg.flags = W1_CN_BUNDLE) and unbundled (0).
 *     The request is one MASTER_CMD to master 1 holding N x [RESET]: a valid
 *     command on any bus, cheap (one reset pulse, a single DS2490 control
 *     request, no data stage), and w1_process_cb() answers every command
 *     with exactly one status reply (cmd RESET, len 0, ack = the request's
 *     ack) and nothing else.  Every datagram arriving on the socket between
 *     the send and a grace period after the N-th status reply is counted
 *     (the round trip ends at the N-th status reply).  The expected count
 *     is computed by replaying the reply-buffer rules of 6.12's
 *     drivers/w1/w1_netlink.c (w1_reply_make_space(), w1_netlink_setup_msg(),
 *     w1_netlink_check_send(), w1_unref_block()) in w1sim below: bundled,
 *     everything fits one message; unbundled, one message per status reply,
 *     plus, for N = 1, an empty cn_msg (id 0.0, len 0) sent first, because
 *     the status reply (36 bytes) does not fit "len + space < maxlen" with
 *     maxlen = 20 + 12 + 4 = 36 and w1_reply_make_space() flushes the still
 *     empty, zeroed reply buffer.
 *
 * P5  emulated bus throughput (usb-ds2490 timing=instant, the default):
 *     one request of P5_BLOCKS x SLAVE_CMD e1 [WRITE f0 00 00][READ 128]
 *     (w1_process_cb() resets and MATCH ROMs e1 for every SLAVE_CMD
 *     message, F0 = READ MEMORY from address 0), bundled, 4096 bytes read;
 *     every READ must return the DS2431's memory as sysfs shows it.  bits/s
 *     = 8 x bytes read / the request's round trip; the real bus moves at
 *     most 15.4 kbit/s at standard speed.  P5sysfs: the time of reading the
 *     128-byte eeprom file of e1 (w1_ds2431 reads 8-byte blocks twice each,
 *     with a reset and MATCH ROM before every read).
 *
 * The points are measured round-robin (see struct point): one warm-up
 * round, then REPS rounds of one sample of every point; each figure is the
 * median of its REPS samples, and every sample must be right.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pbctl.h"
#include "w1req.h"

#define SETUP_WAIT_MS 20000   /* boot discovery of the four slaves */
#define RX_TIMEOUT_MS 5000    /* wait for a reply that has not come yet */
#define GRACE_MS      200     /* after the expected replies, for extra ones */
#define REPS          5       /* timed samples per point (median) */
#define P5_BLOCKS     32      /* SLAVE_CMD messages per P5 request */
#define P5_BLOCK      128     /* the DS2431's memory */
#define REAL_BUS_BPS  15400.0 /* standard speed, DS2490 datasheet */

/* the detail lines print every one of 5 timings */
_Static_assert(REPS == 5, "5 timings");

#define CN_HDR  ((int)sizeof(struct cn_msg))         /* 20 */
#define MSG_HDR ((int)sizeof(struct w1_netlink_msg)) /* 12 */
#define CMD_HDR ((int)sizeof(struct w1_netlink_cmd)) /* 4 */

static int nl_fd = -1;
static uint32_t next_seq = 0x1000;
static uint8_t ID1[8];           /* msg.id of a MASTER_CMD to master 1 */
static uint8_t eeprom[P5_BLOCK]; /* e1's memory, through sysfs */
static bool setup_ok;

static long long now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;

    return (x > y) - (x < y);
}

static long long median_ll(long long *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_ll);
    return v[n / 2];
}

/* ---- requests ------------------------------------------------------------- */

/* struct w1_req and w1_req_*(): w1req.h */

/* ---- the kernel's reply rules (drivers/w1/w1_netlink.c, 6.12) ------------ */

/*
 * Sizes only: the reply buffer of a w1_cb_block.  len is w1_reply_len():
 * the bytes after the first cn_msg header.
 */
struct w1sim {
    int maxlen;
    bool bundle;
    uint32_t status_ack, data_ack;
    bool have_cn;
    uint32_t cur_ack;
    int off, cn_len; /* current cn_msg: offset from first_cn, len */
    int sent, empty; /* netlink messages; those with no w1 data */
};

static void sim_send(struct w1sim *s, int len)
{
    s->sent++;
    if (len == 0) {
        s->empty++;
    }
}

static int sim_len(const struct w1sim *s)
{
    return s->have_cn ? s->off + s->cn_len : 0;
}

static void sim_make_space(struct w1sim *s, int space)
{
    int len = sim_len(s);

    if (len + space >= s->maxlen) {
        sim_send(s, len);
        s->have_cn = false;
    }
}

static void sim_setup_msg(struct w1sim *s, uint32_t ack)
{
    if (s->have_cn && s->cur_ack == ack) {
        return;
    }
    if (s->have_cn) {
        s->off += CN_HDR + s->cn_len;
    } else {
        s->have_cn = true;
        s->off = 0;
    }
    s->cn_len = 0;
    s->cur_ack = ack;
}

static void sim_check_send(struct w1sim *s)
{
    if (!s->bundle && s->have_cn) {
        sim_make_space(s, s->maxlen);
    }
}

/* w1_netlink_queue_cmd() of a READ/TOUCH with dlen bytes */
static void sim_queue_cmd(struct w1sim *s, int dlen)
{
    sim_make_space(s, CN_HDR + MSG_HDR + CMD_HDR + dlen);
    sim_setup_msg(s, s->data_ack);
    s->cn_len += MSG_HDR + CMD_HDR + dlen;
}

static void sim_queue_status(struct w1sim *s)
{
    sim_make_space(s, CN_HDR + MSG_HDR + CMD_HDR);
    sim_setup_msg(s, s->status_ack);
    s->cn_len += MSG_HDR + CMD_HDR;
    sim_check_send(s);
}

/*
 * Replay w1_cn_callback() + w1_process_cb() for the request r (MASTER_CMD
 * and SLAVE_CMD messages of RESET/WRITE/READ/TOUCH commands, all to
 * existing targets): the number of netlink messages sent back.
 */
static void sim_request(struct w1sim *s, const struct w1_req *r, bool bundle,
                        uint32_t seq, uint32_t ack)
{
    int reply_size = CN_HDR + (int)r->len;
    size_t off = 0;

    memset(s, 0, sizeof(*s));
    s->bundle = bundle;
    s->status_ack = ack;
    s->data_ack = seq + 1;
    if (bundle) {
        reply_size += 2 * r->ncmd * (CN_HDR + MSG_HDR + CMD_HDR);
    }
    s->maxlen = reply_size < CONNECTOR_MAX_MSG_SIZE ? reply_size
                                                    : CONNECTOR_MAX_MSG_SIZE;
    while (off < r->len) {
        struct w1_netlink_msg m;
        size_t coff = 0;

        memcpy(&m, W1_REQ_DATA(r) + off, sizeof(m));
        while (coff < m.len) {
            struct w1_netlink_cmd c;

            memcpy(&c, W1_REQ_DATA(r) + off + sizeof(m) + coff, sizeof(c));
            if (c.cmd == W1_CMD_READ || c.cmd == W1_CMD_TOUCH) {
                sim_queue_cmd(s, c.len);
            }
            sim_check_send(s);
            sim_queue_status(s);
            coff += sizeof(c) + c.len;
        }
        off += sizeof(m) + m.len;
    }
    if (s->have_cn) { /* w1_unref_block() */
        sim_send(s, sim_len(s));
    }
}

/* ---- an exchange ---------------------------------------------------------- */

struct xres {
    int messages;   /* netlink datagrams received */
    int empty;      /* of which carry no w1 netlink message */
    int stale;      /* w1 cn_msgs of another request (not counted) */
    int cn_msgs;    /* w1 cn_msgs with data */
    int statuses;   /* status replies (ack = request ack) */
    int bad_status; /* status replies with status != 0 */
    int reads;      /* data replies (READ, ack = seq + 1) */
    int read_bytes;
    int read_mismatch; /* READ data that differs from the eeprom */
    long bytes;        /* nlmsg_len summed */
    long long rtt_ns;  /* send -> the expected_status-th status */
    bool timeout;
    char why[200];
};

static void nl_drain(void)
{
    static uint8_t buf[65536];
    ssize_t n;

    while ((n = w1_nl_recv(nl_fd, buf, sizeof(buf), 0)) > 0) {
        ktap_print_msg("dropped a late datagram of %zd bytes", n);
    }
}

/* Where an item (a header and len bytes) at off ends, at limit at most. */
static size_t item_end(size_t off, size_t hdr, size_t len, size_t limit)
{
    size_t end = off + hdr + len;

    return end < limit ? end : limit;
}

/* Walk one datagram; counts into x. */
static void parse_datagram(struct xres *x, const uint8_t *buf, size_t got,
                           uint32_t seq, uint32_t ack)
{
    struct nlmsghdr nlh;
    size_t off, end;
    bool w1_data = false;

    x->messages++;
    if (got < sizeof(nlh)) {
        x->empty++;
        return;
    }
    memcpy(&nlh, buf, sizeof(nlh));
    x->bytes += nlh.nlmsg_len;
    end = nlh.nlmsg_len < got ? nlh.nlmsg_len : got;
    for (off = sizeof(nlh); off + sizeof(struct cn_msg) <= end;) {
        struct cn_msg cn;
        size_t moff, cend;

        memcpy(&cn, buf + off, sizeof(cn));
        cend = item_end(off, sizeof(cn), cn.len, end);
        if (cn.id.idx != CN_W1_IDX || cn.id.val != CN_W1_VAL || !cn.len) {
            off = cend;
            continue;
        }
        if (cn.seq != seq) {
            x->stale++;
            off = cend;
            continue;
        }
        w1_data = true;
        x->cn_msgs++;
        for (moff = off + sizeof(cn);
             moff + sizeof(struct w1_netlink_msg) <= cend;) {
            struct w1_netlink_msg m;
            size_t coff, mend;

            memcpy(&m, buf + moff, sizeof(m));
            mend = item_end(moff, sizeof(m), m.len, cend);
            for (coff = moff + sizeof(m);
                 coff + sizeof(struct w1_netlink_cmd) <= mend;) {
                struct w1_netlink_cmd c;
                const uint8_t *d = buf + coff + sizeof(c);

                memcpy(&c, buf + coff, sizeof(c));
                if (cn.ack == ack && c.len == 0) {
                    x->statuses++;
                    if (m.status) {
                        x->bad_status++;
                    }
                } else if (cn.ack == seq + 1 && c.cmd == W1_CMD_READ &&
                           coff + sizeof(c) + c.len <= mend) {
                    x->reads++;
                    x->read_bytes += c.len;
                    if (c.len != P5_BLOCK || memcmp(d, eeprom, P5_BLOCK)) {
                        x->read_mismatch++;
                    }
                }
                coff += sizeof(c) + c.len;
            }
            moff = mend;
        }
        off = cend;
    }
    if (!w1_data) {
        x->empty++;
    }
}

/*
 * Send r and receive until want_status status replies arrived (the round
 * trip), then GRACE_MS more for anything else.  0, or -1 (send failed).
 */
static int exchange(struct w1_req *r, uint16_t flags, int want_status,
                    struct xres *x, uint32_t *seq_out, uint32_t *ack_out)
{
    static uint8_t buf[65536];
    uint32_t seq = next_seq++, ack = 0x5a000000u | seq;
    long long t0;

    memset(x, 0, sizeof(*x));
    nl_drain();
    *seq_out = seq;
    *ack_out = ack;
    t0 = now_ns();
    if (w1_req_send(r, nl_fd, seq, ack, flags, -1)) {
        return -1;
    }
    for (;;) {
        bool waiting = x->statuses < want_status;
        ssize_t n = w1_nl_recv(nl_fd, buf, sizeof(buf),
                               waiting ? RX_TIMEOUT_MS : GRACE_MS);

        if (n < 0) {
            return -1;
        }
        if (n == 0) {
            x->timeout = waiting;
            break;
        }
        parse_datagram(x, buf, (size_t)n, seq, ack);
        if (waiting && x->statuses >= want_status) {
            x->rtt_ns = now_ns() - t0;
        }
    }
    return 0;
}

/* Whether the exchange is as the rules say; why filled otherwise. */
static bool exchange_ok(struct xres *x, const struct w1sim *s, int want_status,
                        int want_reads)
{
    if (x->timeout) {
        snprintf(x->why, sizeof(x->why),
                 "%d of %d status replies within %d ms (%d messages)",
                 x->statuses, want_status, RX_TIMEOUT_MS, x->messages);
    } else if (x->statuses != want_status) {
        snprintf(x->why, sizeof(x->why), "%d status replies, expected %d",
                 x->statuses, want_status);
    } else if (x->bad_status) {
        snprintf(x->why, sizeof(x->why), "%d status replies with an error",
                 x->bad_status);
    } else if (x->reads != want_reads || x->read_mismatch) {
        snprintf(
            x->why, sizeof(x->why),
            "%d READ replies (%d bytes, %d differing from sysfs), expected %d",
            x->reads, x->read_bytes, x->read_mismatch, want_reads);
    } else if (x->stale) {
        snprintf(x->why, sizeof(x->why), "%d cn_msgs of another request",
                 x->stale);
    } else if (x->messages != s->sent || x->empty != s->empty) {
        snprintf(x->why, sizeof(x->why),
                 "%d netlink messages (%d without w1 data), the kernel's rules "
                 "give %d (%d)",
                 x->messages, x->empty, s->sent, s->empty);
    } else {
        return true;
    }
    return false;
}

/* ---- cases ---------------------------------------------------------------- */

static void c_setup(const char *name)
{
    char timing[64] = "";
    long v = -1;

    if (!wait_for_discovery(SL_COUNT, SETUP_WAIT_MS)) {
        ktap_test_fail(name,
                       "w1_bus_master1 with 4 slaves did not appear within %d "
                       "ms (slave count %ld)",
                       SETUP_WAIT_MS, master_slave_count());
        return;
    }
    /* no background search competing for the bus while timing */
    if (write_str(W1_MASTER "/w1_master_search", "0\n") ||
        read_long(W1_MASTER "/w1_master_search", &v) || v != 0) {
        ktap_test_fail(
            name, "cannot stop the background search (w1_master_search %ld)",
            v);
        return;
    }
    sleep_ms(1200); /* a search may have been running */
    if (w1_read_eeprom(eeprom, sizeof(eeprom))) {
        ktap_test_fail(name, "cannot read %s/eeprom", E1->name);
        return;
    }
    /* an unset string property reads "": the default, instant */
    if (pbctl_open() == 0 && pbctl_qom_get(QOM_PERIPH "ds2490", "timing",
                                           timing, sizeof(timing)) == 0) {
        ktap_print_msg("usb-ds2490 timing %s%s", timing,
                       strcmp(timing, "\"\"") ? "" : " (unset: instant)");
    } else {
        ktap_print_msg("usb-ds2490 timing unknown (%s); the default is instant",
                       pbctl_open() ? pbctl_unavailable_reason()
                                    : pbctl_last_reply());
    }
    if (strstr(timing, "realtime")) {
        ktap_test_fail(name, "usb-ds2490 timing is %s, P5 wants instant",
                       timing);
        return;
    }
    setup_ok = true;
    ktap_test_pass(name);
}

/*
 * The measured points.  They are measured round-robin: a warm-up round,
 * then REPS rounds, each taking one sample of every point, so that a burst
 * of host noise (the guest shares the host's CPUs) touches one sample of
 * many points rather than every sample of one; each point reports the
 * median of its REPS samples.
 */
enum kind { K_P4, K_P5, K_SYSFS };

struct point {
    enum kind kind;
    int n;       /* P4: commands */
    bool bundle; /* P4 */
    char name[160];
    struct w1_req r;
    long long t[REPS]; /* ns */
    struct xres x;     /* the last exchange */
    struct w1sim s;
    bool failed;
    char why[300];
};

static const int p4_n[] = {1, 4, 16, 64};

#define NPOINTS (2 * (int)ARRAY_SIZE(p4_n) + 2)

static struct point points[NPOINTS];

static void point_fail(struct point *p, int rep, const char *why)
{
    p->failed = true;
    snprintf(p->why, sizeof(p->why), "%s %d: %s",
             p->kind == K_SYSFS ? "read" : "exchange", rep + 2, why);
}

static void points_init(void)
{
    static const uint8_t rd[3] = {0xf0, 0x00, 0x00}; /* READ MEMORY 0 */
    int i = 0;

    for (size_t k = 0; k < ARRAY_SIZE(p4_n); k++) {
        for (int b = 1; b >= 0; b--, i++) {
            struct point *p = &points[i];

            p->kind = K_P4;
            p->n = p4_n[k];
            p->bundle = b;
            snprintf(p->name, sizeof(p->name),
                     "P4 MASTER_CMD %d x RESET %s: replies counted as the "
                     "kernel's rules say",
                     p->n, b ? "bundled" : "unbundled");
            w1_req_init(&p->r);
            w1_req_msg(&p->r, W1_MASTER_CMD, ID1);
            for (int c = 0; c < p->n; c++) {
                w1_req_cmd(&p->r, W1_CMD_RESET, NULL, 0);
            }
        }
    }
    points[i].kind = K_P5;
    points[i].bundle = true;
    snprintf(points[i].name, sizeof(points[i].name),
             "P5 netlink: SLAVE_CMD e1 [WRITE f0 00 00][READ 128] x %d, "
             "bundled, data as in sysfs",
             P5_BLOCKS);
    w1_req_init(&points[i].r);
    for (int b = 0; b < P5_BLOCKS; b++) {
        w1_req_msg(&points[i].r, W1_SLAVE_CMD, E1->id);
        w1_req_cmd(&points[i].r, W1_CMD_WRITE, rd, sizeof(rd));
        w1_req_cmd(&points[i].r, W1_CMD_READ, NULL, P5_BLOCK);
    }
    i++;
    points[i].kind = K_SYSFS;
    snprintf(points[i].name, sizeof(points[i].name),
             "P5 sysfs: read the %d-byte eeprom of e1, data unchanged",
             P5_BLOCK);
}

/* One sample of p; rep -1 is the warm-up. */
static void point_measure(struct point *p, int rep)
{
    uint32_t seq, ack;
    int want_status, want_reads;

    if (p->kind == K_SYSFS) {
        uint8_t buf[P5_BLOCK];
        long long t0 = now_ns();

        if (w1_read_eeprom(buf, sizeof(buf))) {
            point_fail(p, rep, "cannot read the eeprom file");
            return;
        }
        if (rep >= 0) {
            p->t[rep] = now_ns() - t0;
        }
        if (memcmp(buf, eeprom, sizeof(buf))) {
            point_fail(p, rep, "different data than at the start");
        }
        return;
    }
    want_status = p->kind == K_P4 ? p->n : 2 * P5_BLOCKS;
    want_reads = p->kind == K_P4 ? 0 : P5_BLOCKS;
    if (exchange(&p->r, p->bundle ? W1_CN_BUNDLE : 0, want_status, &p->x, &seq,
                 &ack)) {
        point_fail(p, rep, strerror(errno));
        return;
    }
    sim_request(&p->s, &p->r, p->bundle, seq, ack);
    if (!exchange_ok(&p->x, &p->s, want_status, want_reads)) {
        point_fail(p, rep, p->x.why);
        return;
    }
    if (rep >= 0) {
        p->t[rep] = p->x.rtt_ns;
    }
}

/* The KTAP case of p, with its figures. */
static void point_report(struct point *p)
{
    const char *mode = p->bundle ? "bundled" : "unbundled";
    long long us[REPS], med;
    double secs, bps;

    if (!setup_ok) {
        ktap_test_skip(p->name, "setup failed");
        return;
    }
    if (p->failed) {
        ktap_test_fail(p->name, "%s", p->why);
        return;
    }
    for (int i = 0; i < REPS; i++) {
        us[i] = p->t[i] / 1000;
    }
    med = median_ll(p->t, REPS);
    switch (p->kind) {
    case K_P4:
        ktap_print_msg(
            "P4 detail: n=%d mode=%s bytes=%ld w1_cn_msgs=%d empty_messages=%d "
            "maxlen=%d rtt_us=%lld,%lld,%lld,%lld,%lld",
            p->n, mode, p->x.bytes, p->x.cn_msgs, p->x.empty, p->s.maxlen,
            us[0], us[1], us[2], us[3], us[4]);
        ktap_print_msg("BENCH P4 n=%d mode=%s messages=%d rtt_us=%lld", p->n,
                       mode, p->x.messages, (med + 500) / 1000);
        break;
    case K_P5:
        secs = (double)med / 1e9;
        bps = 8.0 * (double)p->x.read_bytes / secs;
        ktap_print_msg(
            "P5 detail: %d netlink message(s) of %ld bytes per request; round "
            "trips %lld,%lld,%lld,%lld,%lld us; per 128-byte block the bus "
            "also carries a reset, MATCH ROM (9 bytes) and f0 00 00",
            p->x.messages, p->x.bytes, us[0], us[1], us[2], us[3], us[4]);
        ktap_print_msg("BENCH P5 bytes=%d seconds=%.4f bits_per_s=%.0f "
                       "ratio_vs_15400=%.1f",
                       p->x.read_bytes, secs, bps, bps / REAL_BUS_BPS);
        break;
    case K_SYSFS:
        ktap_print_msg("P5sysfs detail: %lld,%lld,%lld,%lld,%lld us", us[0],
                       us[1], us[2], us[3], us[4]);
        ktap_print_msg("BENCH P5sysfs bytes=%d seconds=%.4f", P5_BLOCK,
                       (double)med / 1e9);
        break;
    }
    ktap_test_pass(p->name);
}

/* ---- main ----------------------------------------------------------------- */

int main(void)
{
    unsigned int plan = 1 + NPOINTS;

    setvbuf(stdout, NULL, _IOLBF, 0);
    w1_topology_init();
    w1_master_id_bytes(1, ID1);
    ktap_print_header();
    ktap_set_plan(plan);

    nl_fd = cn_socket(0);
    if (nl_fd < 0) {
        ktap_print_msg("NETLINK_CONNECTOR socket: %s", strerror(errno));
        for (unsigned int i = 0; i < plan; i++) {
            ktap_test_fail("w1_bench", "no netlink socket");
        }
        return ktap_finished();
    }

    c_setup("setup: master 1 with 4 slaves, background search stopped");
    points_init();
    if (setup_ok) {
        ktap_print_msg(
            "measuring %d points round-robin, %d rounds after a warm-up one",
            NPOINTS, REPS);
        for (int rep = -1; rep < REPS; rep++) {
            for (int i = 0; i < NPOINTS; i++) {
                if (!points[i].failed) {
                    point_measure(&points[i], rep);
                }
            }
        }
    }
    for (int i = 0; i < NPOINTS; i++) {
        point_report(&points[i]);
    }

    if (path_exists(W1_MASTER)) {
        write_str(W1_MASTER "/w1_master_search", "-1\n");
    }
    close(nl_fd);
    return ktap_finished();
}
