/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_list.c - w1_netlink's listing cases, N1-N4 (see docs/suites/w1.md):
 * LIST_MASTERS, SEARCH bundled and not, LIST_SLAVES, ALARM_SEARCH.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "w1nl.h"

/* LIST_MASTERS: a message without commands, id 0; on g_xc. */
static int list_masters_send(char *why)
{
    static struct w1_req r;
    static const uint8_t zero[8];

    xchg_begin(&g_xc, 0, ACK_OTHER);
    w1_req_init(&r);
    w1_req_msg(&r, W1_LIST_MASTERS, zero);
    if (xchg_send(&g_xc, &r, 1, GRACE_MS, -1)) {
        return kt_fail(why, "send: %s", strerror(errno));
    }
    return KTAP_PASS;
}

static int n1_list_masters(unsigned long arg, char *why)
{
    struct xchg *xc = &g_xc;
    const struct rx_msg *m;
    uint32_t id;

    (void)arg;
    if (list_masters_send(why)) {
        return KTAP_FAIL;
    }
    if (xc->rx.n != 1 || xc->rx.nmsg != 1) {
        return kt_fail(why, "%d netlink messages / %d msgs, expected 1 / 1: %s",
                       xc->rx.n, xc->rx.nmsg, xc->rx.render);
    }
    m = &xc->rx.msg[0];
    /* cn.flags and msg.id are uninitialised kmalloc memory in 6.12 */
    if (m->nl_len != NL_HDRS + 16 || m->cn.seq != xc->seq ||
        m->cn.ack != xc->seq + 1 || m->cn.len != 16 ||
        m->m.type != W1_LIST_MASTERS || m->m.status != 0 || m->m.len != 4) {
        return kt_fail(
            why,
            "reply %s; expected nlmsg_len 52, cn seq %#x ack %#x len 16, msg "
            "type 6 status 0 len 4",
            xc->rx.render, xc->seq, xc->seq + 1);
    }
    memcpy(&id, m->data, 4);
    if (id != 1) {
        return kt_fail(why, "master id list [%u], expected [1]", id);
    }
    return KTAP_PASS;
}

/*
 * The kernel builds the LIST_MASTERS reply in a buffer of its own; every
 * header byte it sends must be set. cn.flags and msg.id were left as
 * kmalloc() returned them (6.12.118: w1_process_command_root());
 * slub_debug=P on kmalloc-4k (images/suites/w1.append) makes such bytes
 * 0x6b every time instead of whatever the heap held.
 */
static int n1_list_masters_zeroed(unsigned long arg, char *why)
{
    static const uint8_t zero[8];
    struct xchg *xc = &g_xc;
    const struct rx_msg *m;

    (void)arg;
    if (list_masters_send(why)) {
        return KTAP_FAIL;
    }
    if (xc->rx.nmsg != 1) {
        return kt_fail(why, "%d msgs in the reply, expected 1: %s", xc->rx.nmsg,
                       xc->rx.render);
    }
    m = &xc->rx.msg[0];
    if (m->cn.flags != 0 || memcmp(m->m.id.id, zero, 8)) {
        return kt_fail(
            why,
            "cn flags %#06x, msg id %02x%02x%02x%02x%02x%02x%02x%02x: kernel "
            "memory, expected zeros",
            m->cn.flags, m->m.id.id[0], m->m.id.id[1], m->m.id.id[2],
            m->m.id.id[3], m->m.id.id[4], m->m.id.id[5], m->m.id.id[6],
            m->m.id.id[7]);
    }
    return KTAP_PASS;
}

/*
 * MASTER_CMD 1 [code], code SEARCH or LIST_SLAVES: data and status reply
 * as flags say, the data listing the four default slaves. The ids of the
 * plain SEARCH (arg 0) are what n2_search_order() checks.
 */
static const struct {
    uint8_t code;
    uint16_t flags;
} lists[] = {
    {W1_CMD_SEARCH, 0},
    {W1_CMD_SEARCH, W1_CN_BUNDLE},
    {W1_CMD_LIST_SLAVES, 0},
};
static uint8_t search_ids[16][8];
static int search_n = -1;

static int list_case(unsigned long arg, char *why)
{
    static struct w1_req r;
    uint8_t code = lists[arg].code, ids[16][8];
    struct xchg *xc = &g_xc;
    struct xb *x = xchg_begin(xc, lists[arg].flags, ACK_OTHER);
    bool bundled = lists[arg].flags & W1_CN_BUNDLE;
    int n;

    req_single(&r, W1_MASTER_CMD, ID1, code, NULL, 0);
    if (bundled) {
        xb_bundled_data_status(x, W1_MASTER_CMD, ID1, code, 8 * SL_COUNT);
    } else {
        xb_data_status(x, W1_MASTER_CMD, ID1, code, 8 * SL_COUNT);
    }
    if (!xchg_check(xc, &r, bundled ? 1 : 2, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    n = rx_ids(rx_find_cmd(&xc->rx, code, 0), ids, 16);
    if (arg == 0) {
        memcpy(search_ids, ids, sizeof(ids));
        search_n = n;
    }
    if (!ids_equal_set(ids, n, ALL4, SL_COUNT, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

static uint64_t bitrev_key(const uint8_t id[8])
{
    uint64_t v = 0, k = 0;

    for (int i = 7; i >= 0; i--) {
        v = v << 8 | id[i];
    }
    for (int i = 0; i < 64; i++) {
        k |= ((v >> i) & 1) << (63 - i);
    }
    return k;
}

/* starting at path 0 the ids come in ascending bit-reversed order */
static int n2_search_order(unsigned long arg, char *why)
{
    int order[SL_COUNT] = {SL_T1, SL_E1, SL_P1, SL_P2};

    (void)arg;
    if (search_n != SL_COUNT) {
        return kt_fail(why, "the SEARCH case did not return 4 ids");
    }
    for (int i = 0; i < SL_COUNT; i++) {
        for (int j = i + 1; j < SL_COUNT; j++) {
            if (bitrev_key(w1_slaves[order[j]].id) <
                bitrev_key(w1_slaves[order[i]].id)) {
                int t = order[i];

                order[i] = order[j];
                order[j] = t;
            }
        }
    }
    for (int i = 0; i < SL_COUNT; i++) {
        if (memcmp(search_ids[i], w1_slaves[order[i]].id, 8)) {
            char got[17];

            fmt_id(search_ids[i], got);
            return kt_fail(why, "id %d is %s, expected %s (order %s %s %s %s)",
                           i, got, w1_slaves[order[i]].name,
                           w1_slaves[order[0]].name, w1_slaves[order[1]].name,
                           w1_slaves[order[2]].name, w1_slaves[order[3]].name);
        }
    }
    return KTAP_PASS;
}

/*
 * ALARM_SEARCH (N4): p1 (DS2408) is set up not to take part in a
 * conditional search (mask PIO0, polarity 0, OR, pin high); DS2431 and
 * DS2413 have no conditional search; so t1 alone decides.
 */
static bool alarm_setup_done;

static int alarm_setup(char *why, size_t wl)
{
    static const uint8_t out_ff[] = {0x5a, 0xff, 0x00};
    static const uint8_t cond[] = {0xcc, 0x8b, 0x00, 0x01, 0x00, 0x00};
    uint8_t confirm;
    char w2[300];

    if (nl_write_read(P1, out_ff, sizeof(out_ff), &confirm, 1, w2,
                      sizeof(w2))) {
        snprintf(why, wl, "p1 channel write ff: %s", w2);
        return -1;
    }
    if (confirm != 0xaa) {
        snprintf(why, wl,
                 "p1 channel write ff confirmed with %02x, expected aa",
                 confirm);
        return -1;
    }
    if (nl_write_read(P1, cond, sizeof(cond), NULL, 0, w2, sizeof(w2))) {
        snprintf(why, wl, "p1 conditional search registers: %s", w2);
        return -1;
    }
    alarm_setup_done = true;
    return 0;
}

static void alarm_teardown(void)
{
    static const uint8_t cond[] = {0xcc, 0x8b, 0x00, 0x00, 0x00, 0x00};
    char why[300];

    if (alarm_setup_done &&
        nl_write_read(P1, cond, sizeof(cond), NULL, 0, why, sizeof(why))) {
        ktap_print_msg("restoring p1 conditional search registers: %s", why);
    }
    if (sp_orig_valid) {
        uint8_t w[4] = {0x4e, sp_orig[2], sp_orig[3], sp_orig[4]};

        if (nl_write_read(T1, w, sizeof(w), NULL, 0, why, sizeof(why))) {
            ktap_print_msg("restoring t1 TH/TL/config: %s", why);
        }
    }
    alarm_setup_done = false;
}

/* Write TH/TL, convert, ALARM_SEARCH; ids out. */
static int alarm_search(int8_t th, int8_t tl, uint8_t ids[][8], int *n,
                        char *why, size_t wl)
{
    uint8_t w[4] = {0x4e, (uint8_t)th, (uint8_t)tl, sp_orig[4]};
    const uint8_t conv = 0x44;
    char w2[300];

    if (nl_write_read(T1, w, sizeof(w), NULL, 0, w2, sizeof(w2))) {
        snprintf(why, wl, "t1 write scratchpad: %s", w2);
        return -1;
    }
    if (nl_write_read(T1, &conv, 1, NULL, 0, w2, sizeof(w2))) {
        snprintf(why, wl, "t1 convert: %s", w2);
        return -1;
    }
    sleep_ms(CONVERT_MS);
    return nl_list(W1_CMD_ALARM_SEARCH, ids, 16, n, why, wl);
}

/* With t1's TH at th and TL at -55, ALARM_SEARCH finds exactly want. */
static int alarm_case(char *why, int th, const int *want, int nwant)
{
    uint8_t ids[16][8];
    char w2[KT_WHY_LEN];
    int n;

    if (!sp_orig_valid) {
        return kt_fail(why, "t1's scratchpad is unknown (setup failed)");
    }
    if (!alarm_setup_done && alarm_setup(why, KT_WHY_LEN)) {
        kt_why_prefix(why, "setup");
        return KTAP_FAIL;
    }
    if (alarm_search((int8_t)th, -55, ids, &n, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (!ids_equal_set(ids, n, want, nwant, w2, sizeof(w2))) {
        return kt_fail(why, "TH %d: %s", th, w2);
    }
    return KTAP_PASS;
}

/*
 * arg 0: TH 125, TL -55, no alarm at any temperature inside the range.
 * arg 1: TH T_int - 1, alarming whether the device compares >= or >.
 */
static int n4_alarm(unsigned long arg, char *why)
{
    static const int want[] = {SL_T1};

    if (!arg) {
        return alarm_case(why, 125, NULL, 0);
    }
    return alarm_case(why, (int)floor_div(ds18b20_reg(t1_mC, 12), 16) - 1, want,
                      1);
}

/*
 * A netlink (ALARM_)SEARCH runs w1_search_process_cb(): every attached
 * slave the search did not find loses one ttl, and the two alarm searches
 * above (wire.slave_ttl=2) detach all but t1. A plain SEARCH attaches them
 * again. The alarm setup is undone only then, since it talks to p1.
 */
static int n4_alarm_ages_out(unsigned long arg, char *why)
{
    uint8_t ids[16][8];
    int after_alarm, found, attached;

    (void)arg;
    /*
     * Count through LIST_SLAVES, which the master thread serialises after
     * the detaches. Reading w1_master_slave_count in sysfs at this moment
     * blocked for over 60 s on 6.12.118 (docs/suites/w1.md).
     */
    if (nl_list(W1_CMD_LIST_SLAVES, ids, 16, &after_alarm, why, KT_WHY_LEN) ||
        nl_list(W1_CMD_SEARCH, ids, 16, &found, why, KT_WHY_LEN) ||
        nl_list(W1_CMD_LIST_SLAVES, ids, 16, &attached, why, KT_WHY_LEN)) {
        alarm_teardown();
        return KTAP_FAIL;
    }
    alarm_teardown();
    if (after_alarm != 1) {
        return kt_fail(
            why, "%d slaves attached after two alarm searches, expected 1 (t1)",
            after_alarm);
    }
    if (found != SL_COUNT || attached != SL_COUNT) {
        return kt_fail(why,
                       "SEARCH found %d ids, then %d attached, expected %d",
                       found, attached, SL_COUNT);
    }
    return KTAP_PASS;
}

void w1nl_list_cleanup(void)
{
    if (alarm_setup_done) {
        alarm_teardown();
    }
}

static const struct kt_row rows[] = {
    /* N1-N4: LIST_MASTERS, SEARCH, LIST_SLAVES */
    {
        "N1 LIST_MASTERS: one reply, ack seq+1, master ids [1]",
        NULL,
        n1_list_masters,
        0,
    },
    {
        "N1 LIST_MASTERS reply header fully set: cn flags 0, msg id 0",
        NULL,
        n1_list_masters_zeroed,
        0,
    },
    {
        "N2 SEARCH unbundled: data reply (4 ids, ack seq+1), then status (ack "
        "echoed)",
        NULL,
        list_case,
        0,
    },
    {
        "N2 SEARCH returns the ids in 1-Wire search order",
        NULL,
        n2_search_order,
        0,
    },
    {
        "N3 SEARCH bundled: one netlink message with data and status cn_msgs",
        NULL,
        list_case,
        1,
    },
    {
        "N4 LIST_SLAVES: data reply with the 4 attached ids, then status",
        NULL,
        list_case,
        2,
    },
    /* N4: ALARM_SEARCH, after N8 */
    {
        "N4 ALARM_SEARCH with nothing alarming: empty data reply and status",
        NULL,
        n4_alarm,
        0,
    },
    {
        "N4 ALARM_SEARCH with TH below the temperature: only t1",
        NULL,
        n4_alarm,
        1,
    },
    {
        "N4 alarm searches age out the other slaves, SEARCH attaches them "
        "again",
        NULL,
        n4_alarm_ages_out,
        0,
    },
};
_Static_assert(ARRAY_SIZE(rows) == 9, "the parts cover the table");
const struct w1nl_part w1nl_list = {rows, 6}, w1nl_alarm = {rows + 6, 3};
