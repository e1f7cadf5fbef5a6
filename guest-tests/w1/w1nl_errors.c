/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_errors.c - w1_netlink's error cases (see docs/suites/w1.md): ENODEV
 * (N10), EPROTO (N11), E2BIG and malformed packets that get no reply at all
 * (N12, N16), EINVAL (N13), and SLAVE_ADD/SLAVE_REMOVE with their events
 * (N14).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "w1nl.h"

static int n10_enodev_continues(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x = xchg_begin(xc, W1_CN_BUNDLE, ACK_OTHER);
    uint8_t fake[8], ids[16][8], z = 0;
    char fname[32];
    int n;

    (void)arg;
    fake_rom(0x0a10, fake, fname, sizeof(fname));
    req_single(&r, W1_SLAVE_CMD, fake, W1_CMD_READ, &z, 1);
    w1_req_msg(&r, W1_MASTER_CMD, ID1);
    w1_req_cmd(&r, W1_CMD_LIST_SLAVES, NULL, 0);
    /* the error is sent at once from the callback, never bundled */
    xb_error(x, W1_SLAVE_CMD, ENODEV, fake);
    xb_bundled_data_status(x, W1_MASTER_CMD, ID1, W1_CMD_LIST_SLAVES,
                           8 * SL_COUNT);
    if (!xchg_check(xc, &r, 2, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    n = rx_ids(rx_find_cmd(&xc->rx, W1_CMD_LIST_SLAVES, 0), ids, 16);
    if (!ids_equal_set(ids, n, ALL4, SL_COUNT, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

/* r is answered by one error reply about its msg (type, id), nothing else. */
static int error_case(char *why, struct w1_req *r, uint8_t type, uint8_t status,
                      const uint8_t id[8])
{
    struct xchg *xc = &g_xc;
    struct xb *x = xchg_begin(xc, 0, ACK_OTHER);

    xb_error(x, type, status, id);
    if (!xchg_check(xc, r, 1, 1000, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

static int n10_enodev_master(unsigned long arg, char *why)
{
    static struct w1_req r;
    uint8_t id99[8];

    (void)arg;
    w1_master_id_bytes(99, id99);
    req_single(&r, W1_MASTER_CMD, id99, W1_CMD_LIST_SLAVES, NULL, 0);
    return error_case(why, &r, W1_MASTER_CMD, ENODEV, id99);
}

static int n11_eproto_len0(unsigned long arg, char *why)
{
    static struct w1_req r;

    (void)arg;
    w1_req_init(&r);
    w1_req_msg(&r, W1_SLAVE_CMD, T1->id); /* msg.len 0 */
    w1_req_msg(&r, W1_MASTER_CMD, ID1);
    w1_req_cmd(&r, W1_CMD_LIST_SLAVES, NULL, 0);
    /* the LIST_SLAVES message is not executed */
    return error_case(why, &r, W1_SLAVE_CMD, EPROTO, T1->id);
}

/*
 * A message of an unknown type (7) or of an event's type (0, W1_SLAVE_ADD)
 * with data: EPROTO; for type 0 the kernel logs a notice.
 */
static int n11_wrong_type(unsigned long arg, char *why)
{
    static struct w1_req r;
    uint8_t type = (uint8_t)arg;
    bool check_log = type == W1_SLAVE_ADD;
    struct xchg *xc = &g_xc;
    struct xb *x;
    const uint8_t junk[4] = {0};
    char marker[128], needle[128];
    int found;

    kmsg_mark(marker, sizeof(marker), "w1_netlink wrong type");
    w1_req_init(&r);
    w1_req_msg(&r, type, T1->id);
    w1_req_raw(&r, junk, sizeof(junk), true); /* msg.len 4 */
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_error(x, type, EPROTO, T1->id);
    if (!xchg_check(xc, &r, 1, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (check_log) {
        snprintf(needle, sizeof(needle),
                 "w1_cn_callback: cn: %x.%x, wrong type: %u, len: 4.",
                 CN_W1_IDX, CN_W1_VAL, type);
        found = klog_has_after(marker, needle);
        if (found != 1) {
            return kt_fail(why, "kernel log: '%s' %s", needle,
                           found < 0 ? "(log or marker unreadable)"
                                     : "not found");
        }
    }
    return KTAP_PASS;
}

static int n12_e2big_cmd(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
    struct w1_netlink_cmd big = {.cmd = W1_CMD_READ, .len = 100};
    const uint8_t pad[4] = {0};

    (void)arg;
    req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
    w1_req_raw(&r, &big, sizeof(big), true); /* READ claiming 100 bytes */
    w1_req_raw(&r, pad, sizeof(pad), true);  /* ... of which 4 follow */
    xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
    xb_status(x, W1_MASTER_CMD, E2BIG, ID1, W1_CMD_READ);
    if (!xchg_check(xc, &r, 2, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

/*
 * A malformed packet: MASTER_CMD 1 [SLAVE_ADD fake tag], then what
 * malform() appends (if anything), cn.len cn_extra bytes beyond the
 * payload.  No reply at all, the fake slave not added, no event.
 */
static int silent_case(char *why, uint16_t tag,
                       void (*malform)(struct w1_req *r), int cn_extra)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct w1_event evs[4];
    uint8_t fake[8];
    char fake_name[32];
    int nev;

    fake_rom(tag, fake, fake_name, sizeof(fake_name));
    req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_ADD, fake, 8);
    if (malform) {
        malform(&r);
    }
    w1_event_drain(ev_fd);
    xchg_begin(xc, 0, ACK_OTHER); /* expected: nothing */
    if (xchg_send(xc, &r, 0, GRACE_SILENT_MS,
                  cn_extra ? (int)r.len + cn_extra : -1)) {
        return kt_fail(why, "send: %s", strerror(errno));
    }
    nev = events_within(evs, (int)ARRAY_SIZE(evs), 0);
    if (slave_dir_exists(fake_name)) {
        fake_cleanup(fake, fake_name);
        return kt_fail(why, "the packet was executed: slave %s added",
                       fake_name);
    }
    if (!xchg_shape_ok(xc, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (xc->rx.foreign) {
        return kt_fail(why, "%d non-w1 netlink message(s) received",
                       xc->rx.foreign);
    }
    if (nev) {
        return kt_fail(why, "%d w1 event(s) broadcast", nev);
    }
    return KTAP_PASS;
}

/* A second message with msg.len 40 and nothing following. */
static void msg_len_beyond(struct w1_req *r)
{
    w1_req_msg(r, W1_MASTER_CMD, ID1);
    w1_req_set_msg_len(r, 40);
}

/* cn.len 16400: netlink payload 20 + 16400 > CONNECTOR_MAX_MSG_SIZE */
static void oversize_write(struct w1_req *r)
{
    static uint8_t pad[16400];

    w1_req_msg(r, W1_MASTER_CMD, ID1);
    memset(pad, 0xff, sizeof(pad));
    w1_req_cmd(r, W1_CMD_WRITE, pad,
               (uint16_t)(16400 - r->len - sizeof(struct w1_netlink_cmd)));
}

/*
 * The malformed packets: msg.len beyond cn.len (N12); cn.len 64 bytes
 * beyond what the netlink message carries (N12); a netlink payload above
 * 16384 bytes (N16).
 */
static const struct {
    uint16_t tag;
    void (*malform)(struct w1_req *r);
    int cn_extra;
} silent[] = {
    {0x0c12, msg_len_beyond, 0},
    {0x0c13, NULL, 64},
    {0x0f16, oversize_write, 0},
};

static int n12_silent(unsigned long arg, char *why)
{
    return silent_case(why, silent[arg].tag, silent[arg].malform,
                       silent[arg].cn_extra);
}

/*
 * N13: commands that are not valid for their message, or with the wrong
 * length: EINVAL. SLAVE_CMD goes to t1, MASTER_CMD to master 1; the data
 * is none, a fake slave id or t1's id with a byte more.
 */
enum einval_data { D_NONE, D_FAKE, D_T1_PLUS_1 };

static const struct {
    uint8_t type, code;
    enum einval_data data;
    uint16_t len;
} einval[] = {
    {W1_SLAVE_CMD, W1_CMD_RESET, D_NONE, 0},
    {W1_SLAVE_CMD, W1_CMD_SEARCH, D_NONE, 0},
    {W1_MASTER_CMD, W1_CMD_MAX, D_NONE, 0},
    {W1_MASTER_CMD, W1_CMD_SLAVE_ADD, D_FAKE, 7},
    {W1_MASTER_CMD, W1_CMD_SLAVE_REMOVE, D_T1_PLUS_1, 9},
};

static int n13_einval(unsigned long arg, char *why)
{
    uint8_t type = einval[arg].type, buf[9] = {0};
    const uint8_t *id = type == W1_SLAVE_CMD ? T1->id : ID1;

    if (einval[arg].data == D_FAKE) {
        fake_rom(0x0d13, buf, NULL, 0);
    } else if (einval[arg].data == D_T1_PLUS_1) {
        memcpy(buf, T1->id, 8);
    }
    return status_case(why, type, id, einval[arg].code,
                       einval[arg].data == D_NONE ? NULL : buf, einval[arg].len,
                       EINVAL);
}

/* ---- N14 SLAVE_ADD / SLAVE_REMOVE with events ----------------------------- */

static uint8_t n14_id[8];
static char n14_name[32];
static uint32_t n14_add_seq;
static bool n14_added;

static int addremove_case(char *why, uint8_t code, uint8_t status,
                          int want_event, bool want_present)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x;
    struct w1_event evs[8];
    char s[300];
    int nev;

    w1_event_drain(ev_fd);
    req_single(&r, W1_MASTER_CMD, ID1, code, n14_id, 8);
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_status(x, W1_MASTER_CMD, status, ID1, code);
    if (xchg_send(xc, &r, 1, GRACE_MS, -1)) {
        return kt_fail(why, "send: %s", strerror(errno));
    }
    /* collect the events and note the slave's state before any check */
    nev = events_within(evs, (int)ARRAY_SIZE(evs), 500);
    if (code == W1_CMD_SLAVE_ADD && status == 0 && slave_dir_exists(n14_name)) {
        n14_added = true;
    }
    if (code == W1_CMD_SLAVE_REMOVE && status == 0 &&
        !slave_dir_exists(n14_name)) {
        n14_added = false;
    }
    if (!xchg_shape_ok(xc, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (slave_dir_exists(n14_name) != want_present) {
        return kt_fail(why, "%s/%s %s", W1_DEVICES, n14_name,
                       want_present ? "missing" : "still present");
    }
    if (master_slave_count() != SL_COUNT + (want_present ? 1 : 0)) {
        return kt_fail(why, "w1_master_slave_count %ld, expected %d",
                       master_slave_count(), SL_COUNT + (want_present ? 1 : 0));
    }
    if (want_event < 0) {
        if (nev) {
            return kt_fail(why, "%d event(s), expected none", nev);
        }
        return KTAP_PASS;
    }
    if (nev != 1) {
        return kt_fail(why, "%d events, expected exactly one %s", nev,
                       w1_event_name((uint8_t)want_event));
    }
    w1_event_str(&evs[0], s, sizeof(s));
    if (!w1_event_is(&evs[0], (uint8_t)want_event, n14_id)) {
        return kt_fail(why,
                       "event %s, expected %s with cn ack 0 len 12 flags 0", s,
                       w1_event_name((uint8_t)want_event));
    }
    if (want_event == W1_SLAVE_ADD) {
        n14_add_seq = evs[0].cn.seq;
    } else if (evs[0].cn.seq != n14_add_seq + 1) {
        return kt_fail(
            why,
            "W1_SLAVE_REMOVE cn.seq %u, expected %u (master counter after the "
            "add)",
            evs[0].cn.seq, n14_add_seq + 1);
    }
    return KTAP_PASS;
}

/*
 * N14, in this order: SLAVE_ADD of a new id, of the same id again,
 * SLAVE_REMOVE of it, and again; each but the first needs the state the
 * one before left.
 */
enum n14_needs { N14_ANY, N14_ADDED, N14_ADDED_BEFORE, N14_REMOVED };

static const struct {
    uint8_t code, status;
    int want_event; /* -1: none */
    bool want_present;
    enum n14_needs needs;
} n14[] = {
    {W1_CMD_SLAVE_ADD, 0, W1_SLAVE_ADD, true, N14_ANY},
    {W1_CMD_SLAVE_ADD, EINVAL, -1, true, N14_ADDED},
    {W1_CMD_SLAVE_REMOVE, 0, W1_SLAVE_REMOVE, false, N14_ADDED_BEFORE},
    {W1_CMD_SLAVE_REMOVE, EINVAL, -1, false, N14_REMOVED},
};

static int n14_addremove(unsigned long arg, char *why)
{
    switch (n14[arg].needs) {
    case N14_ADDED:
        if (!n14_added) {
            return kt_fail(why, "the slave was not added by the previous case");
        }
        break;
    case N14_ADDED_BEFORE:
        if (!n14_added) {
            return kt_fail(why,
                           "the slave was not added by the previous cases");
        }
        break;
    case N14_REMOVED:
        if (n14_added) {
            return kt_fail(why, "the slave is still attached");
        }
        break;
    default:
        break;
    }
    return addremove_case(why, n14[arg].code, n14[arg].status,
                          n14[arg].want_event, n14[arg].want_present);
}

void w1nl_errors_init(void)
{
    fake_rom(0x0e14, n14_id, n14_name, sizeof(n14_name));
}

void w1nl_errors_cleanup(void)
{
    if (n14_added) {
        fake_cleanup(n14_id, n14_name);
    }
}

static const struct kt_row rows[] = {
    /* N10-N14: error replies, malformed packets, SLAVE_ADD/REMOVE */
    {
        "N10 ENODEV for an unknown slave ROM sent at once, processing "
        "continues",
        NULL,
        n10_enodev_continues,
        0,
    },
    {
        "N10 ENODEV for master id 99",
        NULL,
        n10_enodev_master,
        0,
    },
    {
        "N11 EPROTO for msg.len 0 stops the packet",
        NULL,
        n11_eproto_len0,
        0,
    },
    {
        "N11 EPROTO for message type 0 with data, notice logged",
        NULL,
        n11_wrong_type,
        W1_SLAVE_ADD,
    },
    {
        "N11 EPROTO for message type 7",
        NULL,
        n11_wrong_type,
        7,
    },
    {
        "N12 E2BIG status for cmd.len beyond msg.len, earlier command done",
        NULL,
        n12_e2big_cmd,
        0,
    },
    {
        "N12 msg.len beyond cn.len: no reply, nothing executed",
        NULL,
        n12_silent,
        0,
    },
    {
        "N12 cn.len beyond the netlink payload: dropped by the connector",
        NULL,
        n12_silent,
        1,
    },
    {
        "N13 EINVAL for SLAVE_CMD RESET",
        NULL,
        n13_einval,
        0,
    },
    {
        "N13 EINVAL for SLAVE_CMD SEARCH",
        NULL,
        n13_einval,
        1,
    },
    {
        "N13 EINVAL for MASTER_CMD command 9",
        NULL,
        n13_einval,
        2,
    },
    {
        "N13 EINVAL for SLAVE_ADD with cmd.len 7",
        NULL,
        n13_einval,
        3,
    },
    {
        "N13 EINVAL for SLAVE_REMOVE with cmd.len 9",
        NULL,
        n13_einval,
        4,
    },
    {
        "N14 SLAVE_ADD of a new id: status 0, W1_SLAVE_ADD event, sysfs entry",
        NULL,
        n14_addremove,
        0,
    },
    {
        "N14 SLAVE_ADD of an attached id: EINVAL, no event",
        NULL,
        n14_addremove,
        1,
    },
    {
        "N14 SLAVE_REMOVE: status 0, W1_SLAVE_REMOVE event with the next seq",
        NULL,
        n14_addremove,
        2,
    },
    {
        "N14 SLAVE_REMOVE of an unknown id: EINVAL, no event",
        NULL,
        n14_addremove,
        3,
    },
    /* N16: a netlink payload above the connector's limit */
    {
        "N16 netlink payload above 16384 bytes: dropped, nothing executed",
        NULL,
        n12_silent,
        2,
    },
};
_Static_assert(ARRAY_SIZE(rows) == 18, "the parts cover the table");
const struct w1nl_part w1nl_errors = {rows, 17};
const struct w1nl_part w1nl_oversize = {rows + 17, 1};
