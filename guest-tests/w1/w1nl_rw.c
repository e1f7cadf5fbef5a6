/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_rw.c - w1_netlink's bus cases (see docs/suites/w1.md): RESET (N5),
 * WRITE and READ of t1's scratchpad bundled and not (N6), TOUCH (N7), a
 * master and a slave message in one request (N8), large READ and WRITE
 * (N16), and the bus with every slave absent (N5, needs the host).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pbctl.h"
#include "w1nl.h"

static int n5_reset(unsigned long arg, char *why)
{
    (void)arg;
    return status_case(why, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0, 0);
}

static int n6_convert(unsigned long arg, char *why)
{
    const uint8_t conv = 0x44;
    int r;

    (void)arg;
    r = status_case(why, W1_SLAVE_CMD, T1->id, W1_CMD_WRITE, &conv, 1, 0);
    sleep_ms(CONVERT_MS); /* before the next case reads the result */
    return r;
}

/* Append SLAVE_CMD t1 [WRITE be (read scratchpad)][READ 9]. */
static void add_read_sp(struct w1_req *r)
{
    static const uint8_t be = 0xbe, z[9] = {0};

    w1_req_msg(r, W1_SLAVE_CMD, T1->id);
    w1_req_cmd(r, W1_CMD_WRITE, &be, 1);
    w1_req_cmd(r, W1_CMD_READ, z, 9);
}

static void read_sp_req(struct w1_req *r)
{
    w1_req_init(r);
    add_read_sp(r);
}

/* MASTER_CMD 1 [RESET] first */
static void multi_req(struct w1_req *r)
{
    req_single(r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
    add_read_sp(r);
}

/*
 * The scratchpad read cases: send the request build() makes on the exchange
 * xc begun by the caller, who wrote the expected shape of want netlink
 * messages; the READ data must be t1's scratchpad.
 */
static int sp_case(char *why, struct xchg *xc, void (*build)(struct w1_req *r),
                   int want)
{
    static struct w1_req r;

    build(&r);
    if (!xchg_check(xc, &r, want, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (xc->rx.n != want) {
        return kt_fail(why, "%d netlink messages, expected %d", xc->rx.n, want);
    }
    if (!scratchpad_ok(rx_find_cmd(&xc->rx, W1_CMD_READ, 0)->data, why,
                       KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

/*
 * SLAVE_CMD t1 [WRITE be][READ 9]: arg 0 unbundled, three netlink messages
 * of 52/61/52 bytes; arg 1 bundled, one netlink message of 16 + 36 + 45 +
 * 36 = 133 bytes; arg 2 bundled with ack == seq + 1: w1_netlink_setup_msg()
 * appends to the current cn_msg whenever the ack matches, so the status
 * replies (ack echoed) and the data reply (seq + 1) all land in one cn_msg.
 */
static int n6_read(unsigned long arg, char *why)
{
    struct xb *x;

    if (arg == 0) {
        x = xchg_begin(&g_xc, 0, ACK_OTHER);
        xb_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
        xb_data_status(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
        return sp_case(why, &g_xc, read_sp_req, 3);
    }
    if (arg == 1) {
        x = xchg_begin(&g_xc, W1_CN_BUNDLE, ACK_OTHER);
        xb_nl(x, 133);
        xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
        xb_cn_data(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
        xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ);
        return sp_case(why, &g_xc, read_sp_req, 1);
    }
    x = xchg_begin(&g_xc, W1_CN_BUNDLE, ACK_SEQ_PLUS_1);
    xb_nl(x, NL_HDRS + 57);
    xb_cn(x, x->seq + 1, 57);
    xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE, 0);
    xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ, 9);
    xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ, 0);
    return sp_case(why, &g_xc, read_sp_req, 1);
}

static int n7_touch(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x;
    const struct rx_cmd *c;
    uint8_t t[11] = {0xf0, 0x00, 0x00}, mem[8];
    char got[40], want[40];
    bool ok;

    (void)arg;
    if (w1_read_eeprom(mem, sizeof(mem))) {
        return kt_fail(why, "cannot read %s/eeprom", E1->name);
    }
    memset(t + 3, 0xff, 8);
    req_single(&r, W1_SLAVE_CMD, E1->id, W1_CMD_TOUCH, t, sizeof(t));
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_data_status(x, W1_SLAVE_CMD, E1->id, W1_CMD_TOUCH, 11);
    /*
     * w1_touch_block() does one DS2490 BIT_IO round trip (COMM, status
     * poll at the 1 ms interrupt interval, bulk IN) per bit: 88 of them
     * before the first reply; allow more than 2 s on a slow emulator.
     */
    rx_wait_ms = TOUCH_TIMEOUT_MS;
    ok = xchg_check(xc, &r, 2, GRACE_MS, why, KT_WHY_LEN);
    rx_wait_ms = RX_TIMEOUT_MS;
    if (!ok) {
        return KTAP_FAIL;
    }
    c = rx_find_cmd(&xc->rx, W1_CMD_TOUCH, 0);
    if (memcmp(c->data, t, 3) || memcmp(c->data + 3, mem, 8)) {
        w1_hex(c->data, 11, got, sizeof(got));
        w1_hex(mem, 8, want, sizeof(want));
        return kt_fail(why, "TOUCH returned %s, expected f00000 + %s", got,
                       want);
    }
    return KTAP_PASS;
}

/*
 * MASTER_CMD 1 [RESET] + SLAVE_CMD t1 [WRITE be][READ 9], flags W1_CN_BUNDLE
 * or 0. Bundled: 16 + (20 + 32) + (20 + 25) + (20 + 16) = 149 bytes, the
 * two status replies with ack A share the first cn_msg. Unbundled: four
 * netlink messages in request order.
 */
static int n8_multi(unsigned long flags, char *why)
{
    struct xb *x = xchg_begin(&g_xc, (uint16_t)flags, ACK_OTHER);

    if (!flags) {
        xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
        xb_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
        xb_data_status(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
        return sp_case(why, &g_xc, multi_req, 4);
    }
    xb_nl(x, 149);
    xb_cn(x, x->ack, 32);
    xb_reply(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET, 0);
    xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE, 0);
    xb_cn_data(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
    xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ);
    return sp_case(why, &g_xc, multi_req, 1);
}

/* ---- N16 large I/O -------------------------------------------------------- */

static int n16_read200(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x;
    uint8_t w[12] = {0x55}, mem[128], z[200] = {0}, tail[17];
    const struct rx_cmd *c;
    char hex[40];

    (void)arg;
    if (w1_read_eeprom(mem, sizeof(mem))) {
        return kt_fail(why, "cannot read %s/eeprom", E1->name);
    }
    /* MATCH ROM e1 (SKIP would make the DS2408 answer F0 too), READ MEMORY 0 */
    memcpy(w + 1, E1->id, 8);
    w[9] = 0xf0;
    w[10] = 0x00;
    w[11] = 0x00;
    req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
    w1_req_cmd(&r, W1_CMD_WRITE, w, sizeof(w));
    w1_req_cmd(&r, W1_CMD_READ, z, sizeof(z));
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
    xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_WRITE);
    xb_data_status(x, W1_MASTER_CMD, ID1, W1_CMD_READ, 200);
    if (!xchg_check(xc, &r, 4, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    c = rx_find_cmd(&xc->rx, W1_CMD_READ, 0);
    for (int i = 0; i < 128; i++) {
        if (c->data[i] != mem[i]) {
            return kt_fail(
                why,
                "memory byte %#x reads %02x over netlink, %02x through sysfs",
                i, c->data[i], mem[i]);
        }
    }
    memcpy(tail, c->data + 128, 16);
    w1_hex(tail, 16, hex, sizeof(hex));
    ktap_print_msg("DS2431 register page 0x80-0x8f: %s", hex);
    for (int i = 144; i < 200; i++) {
        if (c->data[i] != 0xff) {
            return kt_fail(
                why, "byte %d (past address 0x8f) reads %02x, expected ff", i,
                c->data[i]);
        }
    }
    return KTAP_PASS;
}

/*
 * ds_write_block() sends the whole block as one bulk OUT; with the model's
 * strict-fifo (default on) a > 128-byte packet is NAKed and the driver
 * logs "Failed to write 1-wire data to ep0x2: err=-110"; w1_write_block()
 * returns nothing, so the status is 0.  The bus must still be usable.
 */
static int n16_write300(unsigned long arg, char *why)
{
    static struct w1_req r;
    static uint8_t ff[300];
    struct xchg *xc = &g_xc;
    struct xb *x;
    const uint8_t rd[3] = {0xf0, 0x00, 0x00};
    uint8_t mem[8], got[8];
    char marker[128], strict[32] = "";
    const char *needle = "Failed to write 1-wire data to ep0x2: err=-110";
    bool have_strict = false;
    int found;

    (void)arg;
    if (w1_read_eeprom(mem, sizeof(mem))) {
        return kt_fail(why, "cannot read %s/eeprom", E1->name);
    }
    if (pbctl_open() == 0) {
        if (pbctl_qom_get(QOM_PERIPH "ds2490", "strict-fifo", strict,
                          sizeof(strict)) == 0) {
            have_strict = true;
        } else {
            ktap_print_msg("qom-get ds2490 strict-fifo: %s",
                           pbctl_last_reply());
        }
    }
    memset(ff, 0xff, sizeof(ff));
    kmsg_mark(marker, sizeof(marker), "w1_netlink WRITE 300");
    req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
    w1_req_cmd(&r, W1_CMD_WRITE, ff, sizeof(ff));
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
    xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_WRITE);
    if (!xchg_check(xc, &r, 2, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    found = klog_has_after(marker, needle);
    if (have_strict) {
        bool on = strcmp(strict, "true") == 0;

        if (found < 0) {
            return kt_fail(why, "kernel log or marker unreadable");
        }
        if (on != (found == 1)) {
            return kt_fail(why, "strict-fifo %s but '%s' %s in the kernel log",
                           strict, needle, found ? "found" : "not found");
        }
    } else {
        ktap_print_msg("strict-fifo unknown (no control channel); '%s' %s",
                       needle, found == 1 ? "logged" : "not logged");
    }
    if (nl_write_read(E1, rd, sizeof(rd), got, sizeof(got), why, KT_WHY_LEN)) {
        kt_why_prefix(why, "bus unusable afterwards");
        return KTAP_FAIL;
    }
    if (memcmp(got, mem, sizeof(mem))) {
        return kt_fail(
            why, "reading DS2431 memory 0-7 afterwards returns different data");
    }
    return KTAP_PASS;
}

/* ---- N5 empty bus (needs the host) ---------------------------------------- */

static bool slaves_absent;

static void set_all_present(bool on)
{
    for (int i = 0; i < SL_COUNT; i++) {
        char path[64];

        snprintf(path, sizeof(path), QOM_PERIPH "%s", w1_slaves[i].qom);
        if (pbctl_qom_set_bool(path, "present", on)) {
            ktap_print_msg("qom-set %s present %s: %s", path,
                           on ? "true" : "false", pbctl_last_reply());
        }
    }
    slaves_absent = !on;
}

static int n5_reset_empty(unsigned long arg, char *why)
{
    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    for (int i = 0; i < SL_COUNT; i++) {
        char path[64];

        snprintf(path, sizeof(path), QOM_PERIPH "%s", w1_slaves[i].qom);
        slaves_absent = true;
        if (pbctl_qom_set_bool(path, "present", 0)) {
            return kt_fail(why, "qom-set %s present false: %s", path,
                           pbctl_last_reply());
        }
    }
    /*
     * No presence pulse: w1_reset_bus() returns 1, which w1_netlink
     * reports as the status (u8)-1 (w1_netlink_queue_status()).  Before
     * kernel-patches/0013 ds9490r_reset() reported presence whatever the
     * bus said, and the status was 0.
     */
    return status_case(why, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0, 255);
}

/*
 * w1_process_cb() selects the slave with w1_reset_select_slave(): with no
 * presence pulse the command is not run and the status is ENODEV.  Before
 * kernel-patches/0013 the DS2490 reported presence on an empty bus, and
 * the READ got nine 0xff bytes from nobody, with status 0.
 */
static int n5_absent_slave_read(unsigned long arg, char *why)
{
    const uint8_t be = 0xbe;
    int r;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!slaves_absent) {
        return kt_fail(why,
                       "the slaves were not unplugged by the previous case");
    }
    r = status_case(why, W1_SLAVE_CMD, T1->id, W1_CMD_WRITE, &be, 1, ENODEV);
    set_all_present(true);
    return r;
}

void w1nl_rw_cleanup(void)
{
    if (slaves_absent) {
        set_all_present(true);
    }
}

static const struct kt_row rows[] = {
    /* N5-N8: RESET, READ/WRITE bundled and not, TOUCH */
    {
        "N5 RESET on the populated bus: status 0",
        NULL,
        n5_reset,
        0,
    },
    {
        "N6 SLAVE_CMD WRITE 44 (convert T): status 0",
        NULL,
        n6_convert,
        0,
    },
    {
        "N6 scratchpad read unbundled: 3 messages of 52/61/52 bytes",
        NULL,
        n6_read,
        0,
    },
    {
        "N6 scratchpad read bundled: 1 message of 133 bytes, 3 cn_msgs",
        NULL,
        n6_read,
        1,
    },
    {
        "N6 bundled with ack = seq+1: all replies share one cn_msg (93 bytes)",
        NULL,
        n6_read,
        2,
    },
    {
        "N7 TOUCH on the DS2431: f0 00 00 echoed, then memory 0-7",
        NEED_DS2431,
        n7_touch,
        0,
    },
    {
        "N8 bundled MASTER RESET + SLAVE read: exactly one netlink message "
        "(149 bytes)",
        NULL,
        n8_multi,
        W1_CN_BUNDLE,
    },
    {
        "N8 the same request unbundled: four netlink messages in request order",
        NULL,
        n8_multi,
        0,
    },
    /* N16: large READ and WRITE */
    {
        "N16 MATCH e1 + READ 200: memory as in sysfs, ff past 0x8f",
        NEED_DS2431,
        n16_read200,
        0,
    },
    {
        "N16 WRITE 300 bytes: status 0, driver error as per strict-fifo, bus "
        "usable",
        NEED_DS2431,
        n16_write300,
        0,
    },
    /* N5 with every slave absent: the last cases (they unplug) */
    {
        "N5 RESET with every slave absent: status 255, no presence pulse",
        NULL,
        n5_reset_empty,
        0,
    },
    {
        "N5 SLAVE_CMD to an attached but absent slave: ENODEV, not run",
        NULL,
        n5_absent_slave_read,
        0,
    },
};
_Static_assert(ARRAY_SIZE(rows) == 12, "the parts cover the table");
const struct w1nl_part w1nl_rw = {rows + 0, 8};
const struct w1nl_part w1nl_large = {rows + 8, 2};
const struct w1nl_part w1nl_empty_bus = {rows + 10, 2};
