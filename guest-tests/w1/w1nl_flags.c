/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_flags.c - w1_netlink's N9 cases (see docs/suites/w1.md): any cn_msg
 * flag other than W1_CN_BUNDLE is rejected with exactly one reply, the
 * request's cn_msg header echoed (seq, ack, flags) with len 12, the first
 * w1_netlink_msg header echoed with len 0 and status EINVAL, and nothing in
 * the packet executed. Each flag is two cases: the reply, then the evidence
 * that nothing ran.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kconfig.h"
#include "w1nl.h"

/* the flag, and the fake slave's tag for fake_rom() */
static const struct {
    uint16_t flag, tag;
} n9_flags[] = {
    {0x0002, 0x0902},
    {0x8000, 0x0980},
    {0xffff, 0x09ff},
};

/* What the reply half leaves for the "nothing executed" half. */
static struct {
    bool sent;
    int r1; /* read_file() of t1's alarms before */
    const char *no_therm;
    char path[256], alarms_before[64], fake_name[32];
    uint8_t fake[8];
} n9;

/*
 * msg 1: MASTER_CMD 1 [SLAVE_ADD fake]; msg 2: SLAVE_CMD t1 [WRITE 4e ..],
 * sent with the unknown flag: one EINVAL reply echoing the header.
 */
static int n9_flag_reply(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    uint8_t w[4] = {0x4e, 0x11, 0x22, 0x7f};
    struct xb *x;
    bool shape;

    n9.r1 = -ENOENT;
    n9.sent = false;
    n9.alarms_before[0] = '\0';
    /* without w1_therm, t1's alarms file cannot show the scratchpad write */
    n9.no_therm = kconfig_lacks(NEED_THERM);
    fake_rom(n9_flags[arg].tag, n9.fake, n9.fake_name, sizeof(n9.fake_name));
    snprintf(n9.path, sizeof(n9.path), W1_DEVICES "/%s/alarms", T1->name);

    if (!n9.no_therm) {
        n9.r1 =
            (int)read_file(n9.path, n9.alarms_before, sizeof(n9.alarms_before));
    }
    if (n9.r1 > 0) {
        int tl = 0, th = 0;

        /* make the scratchpad write observable */
        if (sscanf(n9.alarms_before, "%d %d", &tl, &th) == 2) {
            if (th == 0x11) {
                w[1] = 0x13;
            }
            if (tl == 0x22) {
                w[2] = 0x24;
            }
        }
    }
    w1_event_drain(ev_fd);

    req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_ADD, n9.fake, 8);
    w1_req_msg(&r, W1_SLAVE_CMD, T1->id);
    w1_req_cmd(&r, W1_CMD_WRITE, w, sizeof(w));
    x = xchg_begin(xc, n9_flags[arg].flag, ACK_OTHER);
    xb_error(x, W1_MASTER_CMD, EINVAL, ID1);
    if (xchg_send(xc, &r, 1, GRACE_SILENT_MS, -1)) {
        return kt_fail(why, "send: %s", strerror(errno));
    }
    n9.sent = true;
    shape = xchg_shape_ok(xc, why, KT_WHY_LEN);
    if (shape && xc->rx.foreign) {
        return kt_fail(why, "%d extra non-w1 netlink message(s)",
                       xc->rx.foreign);
    }
    return shape ? KTAP_PASS : KTAP_FAIL;
}

/* Nothing executed: no slave added, no scratchpad write, no event. */
static int n9_flag_nothing(unsigned long arg, char *why)
{
    char alarms_after[64] = "";
    struct w1_event evs[8];
    uint8_t ids[16][8];
    int nev, nids = 0, r;

    (void)arg;
    if (!n9.sent) {
        return kt_fail(why, "send failed");
    }
    nev = events_within(evs, (int)ARRAY_SIZE(evs), 0);
    if (n9.r1 > 0 &&
        read_file(n9.path, alarms_after, sizeof(alarms_after)) <= 0) {
        alarms_after[0] = '\0';
    }
    if (slave_dir_exists(n9.fake_name)) {
        snprintf(why, KT_WHY_LEN, "SLAVE_ADD executed: %s/%s exists",
                 W1_DEVICES, n9.fake_name);
    } else if (master_slave_count() != SL_COUNT) {
        snprintf(why, KT_WHY_LEN, "w1_master_slave_count %ld, expected %d",
                 master_slave_count(), SL_COUNT);
    }
    if (!why[0]) {
        char w2[300];

        if (nl_list(W1_CMD_LIST_SLAVES, ids, 16, &nids, w2, sizeof(w2)) ||
            !ids_equal_set(ids, nids, ALL4, SL_COUNT, w2, sizeof(w2))) {
            snprintf(why, KT_WHY_LEN, "LIST_SLAVES: %s", w2);
        }
    }
    if (!why[0] && nev) {
        snprintf(why, KT_WHY_LEN, "%d w1 event(s) broadcast", nev);
    }
    if (!why[0] && !n9.no_therm) {
        if (n9.r1 <= 0 || !alarms_after[0]) {
            snprintf(why, KT_WHY_LEN, "cannot read %s", n9.path);
        } else if (strcmp(n9.alarms_before, alarms_after)) {
            snprintf(why, KT_WHY_LEN,
                     "scratchpad write executed: t1 alarms '%.*s' -> '%.*s'",
                     (int)strcspn(n9.alarms_before, "\n"), n9.alarms_before,
                     (int)strcspn(alarms_after, "\n"), alarms_after);
        }
    }
    /*
     * Evidence that something ran fails the case on any kernel; with part
     * of the evidence missing, a clean result is not a pass.
     */
    if (why[0]) {
        r = KTAP_FAIL;
    } else if (n9.no_therm) {
        r = kt_skip(why, "%s: no t1 alarms file to show the scratchpad write",
                    n9.no_therm);
    } else {
        r = KTAP_PASS;
    }

    /* undo whatever a kernel without the check did */
    fake_cleanup(n9.fake, n9.fake_name);
    if (n9.alarms_before[0] && alarms_after[0] &&
        strcmp(n9.alarms_before, alarms_after)) {
        write_str(n9.path, n9.alarms_before);
    }
    w1_event_drain(ev_fd);
    return r;
}

/*
 * An unknown flag on a request that holds no w1_netlink_msg (cn.len 0):
 * the EINVAL reply echoes the cn_msg, and its msg can only be zeros with
 * the status. 6.12.118 copied 12 bytes from past the end of the request,
 * out of the socket buffer's tail (w1_netlink_send_error()); slub_debug=P
 * on skbuff_small_head (images/suites/w1.append) makes them 0x6b.
 */
static int n9_flag_empty(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    const struct rx_msg *m;
    const uint8_t zero[8] = {0};

    (void)arg;
    xchg_begin(xc, 0x8000, ACK_OTHER);
    w1_req_init(&r);
    if (xchg_send(xc, &r, 1, GRACE_MS, 0)) {
        return kt_fail(why, "send: %s", strerror(errno));
    }
    if (xc->rx.nmsg != 1) {
        return kt_fail(why, "%d msgs in the reply, expected 1: %s", xc->rx.nmsg,
                       xc->rx.render);
    }
    m = &xc->rx.msg[0];
    if (m->cn.flags != 0x8000 || m->cn.len != sizeof(m->m) ||
        m->m.status != EINVAL) {
        return kt_fail(
            why,
            "reply cn flags %#x len %u status %u, expected 0x8000, %zu, "
            "EINVAL: %s",
            m->cn.flags, m->cn.len, m->m.status, sizeof(m->m), xc->rx.render);
    }
    if (m->m.type != 0 || m->m.len != 0 || memcmp(m->m.id.id, zero, 8)) {
        return kt_fail(
            why,
            "reply msg type %#x len %u id %02x%02x%02x%02x%02x%02x%02x%02x: "
            "bytes the request did not have, expected zeros",
            m->m.type, m->m.len, m->m.id.id[0], m->m.id.id[1], m->m.id.id[2],
            m->m.id.id[3], m->m.id.id[4], m->m.id.id[5], m->m.id.id[6],
            m->m.id.id[7]);
    }
    return KTAP_PASS;
}

static const struct kt_row rows[] = {
    /* N9: unknown cn_msg flags */
    {
        "unknown cn_msg flag 0x0002: " N9_REPLY,
        NULL,
        n9_flag_reply,
        0,
    },
    {
        "unknown cn_msg flag 0x0002: " N9_NOTHING,
        NULL,
        n9_flag_nothing,
        0,
    },
    {
        "unknown cn_msg flag 0x8000: " N9_REPLY,
        NULL,
        n9_flag_reply,
        1,
    },
    {
        "unknown cn_msg flag 0x8000: " N9_NOTHING,
        NULL,
        n9_flag_nothing,
        1,
    },
    {
        "unknown cn_msg flag on an empty request: EINVAL, msg all zeros but "
        "status",
        NULL,
        n9_flag_empty,
        0,
    },
    {
        "unknown cn_msg flag 0xffff: " N9_REPLY,
        NULL,
        n9_flag_reply,
        2,
    },
    {
        "unknown cn_msg flag 0xffff: " N9_NOTHING,
        NULL,
        n9_flag_nothing,
        2,
    },
};
const struct w1nl_part w1nl_flags = {rows, ARRAY_SIZE(rows)};
