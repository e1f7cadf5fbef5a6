/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_netlink - the w1 netlink (connector) protocol of Linux 6.12 against the
 * emulated DS2490 bus: test plan items N1-N14, N16 and N17
 * (docs/suites/w1.md says what each is), above all commit 8a0427d192e6
 * ("w1: optional bundling of netlink kernel replies"):
 *
 *  - with W1_CN_BUNDLE (cn_msg.flags bit 0) every reply to a request comes
 *    back in ONE netlink message holding several cn_msgs, where the same
 *    request without the flag comes back as one netlink message per reply;
 *  - any other cn_msg flag bit is rejected: exactly one reply, the request's
 *    cn_msg header echoed (seq, ack, flags) with len 12, the first
 *    w1_netlink_msg header echoed with len 0 and status EINVAL, and nothing
 *    in the packet executed;
 *  - status replies carry the request's ack, data replies seq + 1.
 *
 * A raw NETLINK_CONNECTOR client: every request gets a fresh seq and an ack
 * unrelated to it (0x5a000000 | seq), replies are received with a 2 s
 * timeout (6 s for the first reply of the bit-by-bit TOUCH) and counted
 * exactly: after the expected ones, a grace period catches extra replies.
 * Each reply is rendered into a canonical one-line form (netlink header, every cn_msg, w1_netlink_msg and
 * w1_netlink_cmd header) and compared as a whole with the shape the 6.12
 * code produces (w1_netlink.c: w1_cn_callback(), w1_process_cb(),
 * w1_netlink_queue_cmd(), w1_netlink_queue_status(), w1_reply_make_space(),
 * w1_netlink_send_error()); payload bytes are checked separately.
 * cn_msgs whose id is not {CN_W1_IDX, CN_W1_VAL} are skipped and logged:
 * unbundled requests whose only command is data-less or a lone READ/TOUCH
 * are preceded by a zeroed cn_msg (w1_reply_make_space() flushing an empty
 * buffer, "len + space >= maxlen"); the N17 cases (w1nl_flush.c) count
 * them.
 *
 * Events (W1_SLAVE_ADD/REMOVE) are read from a second socket joined to
 * multicast group CN_W1_IDX.  The background search is stopped while the
 * program runs (w1_master_search = 0) and restarted at the end.
 *
 * Not here: N15 (needs a bad-CRC device at boot); the QEMU-trace evidence
 * of N9/N12/N16 ("no COMM request", "no bytes on the bus", chunk sizes).
 *
 * A kernel without the connector (NEED_NETLINK) skips every case, naming
 * the options; a case that compares with a slave's sysfs file skips when
 * the kernel lacks that slave's family driver (the table's "needs").
 *
 * The cases are in the w1nl_*.c files by area (w1nl.h); this file has
 * setup, the table and main().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kconfig.h"
#include "pbctl.h"
#include "w1nl.h"

#define SETUP_WAIT_MS 20000 /* first program of the suite: boot discovery */

int nl_fd = -1;
int ev_fd = -1;
uint8_t ID1[8];
long t1_mC = 21500;
uint8_t sp_orig[9];
bool sp_orig_valid;

static int c_setup(unsigned long arg, char *why)
{
    long v = -1;

    (void)arg;
    if (!wait_for_discovery(SL_COUNT, SETUP_WAIT_MS)) {
        return kt_fail(
            why,
            "w1_bus_master1 with 4 slaves did not appear within %d ms (slave "
            "count %ld)",
            SETUP_WAIT_MS, master_slave_count());
    }
    if (write_str(W1_MASTER "/w1_master_search", "0\n") ||
        read_long(W1_MASTER "/w1_master_search", &v) || v != 0) {
        return kt_fail(
            why, "cannot stop the background search (w1_master_search %ld)", v);
    }
    /* a search may have been running; let it finish */
    sleep_ms(1200);
    if (nl_read_scratchpad(sp_orig, why, KT_WHY_LEN)) {
        kt_why_prefix(why, "reading t1's scratchpad over netlink");
        return KTAP_FAIL;
    }
    sp_orig_valid = true;
    return KTAP_PASS;
}

static const struct kt_row setup_rows[] = {
    {
        "setup: master 1 with 4 slaves, background search stopped",
        NULL,
        c_setup,
        0,
    },
};
static const struct w1nl_part setup = {setup_rows, ARRAY_SIZE(setup_rows)};

/*
 * The table in its order, which is part of the contract: the variant
 * w1-no-search-mutex-fix hangs the kernel at a known case number
 * (kernel-patches/variants/).
 */
static const struct w1nl_part *const parts[] = {
    &setup,       &w1nl_list,  &w1nl_rw,       &w1nl_alarm,     &w1nl_flags,
    &w1nl_errors, &w1nl_large, &w1nl_oversize, &w1nl_empty_bus, &w1nl_flush,
    &w1nl_faults,
};

/* Every case skipped (r KTAP_SKIP) or failed with why: nothing can run. */
static int report_all(enum ktap_result r, const char *why)
{
    for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
        for (size_t k = 0; k < parts[i]->n; k++) {
            ktap_test_result(r, parts[i]->rows[k].name, why);
        }
    }
    return ktap_finished();
}

int main(void)
{
    const char *lack;
    unsigned int plan = 0;
    long long v;
    char marker[128];

    setvbuf(stdout, NULL, _IOLBF, 0);
    w1_topology_init();
    w1_master_id_bytes(1, ID1);
    w1nl_errors_init();
    w1nl_flush_init();
    w1nl_faults_init();
    for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
        plan += parts[i]->n;
    }

    ktap_print_header();
    ktap_set_plan(plan);
    ktap_print_msg("not checked here: N15 (needs a bad-CRC device at boot); "
                   "QEMU-trace evidence (no COMM request for rejected packets, "
                   "bytes on the wire, READ chunk sizes)");
    kmsg_mark(marker, sizeof(marker), "w1_netlink start");

    /* the whole program is the netlink interface: none of it without it */
    lack = kconfig_lacks(NEED_NETLINK);
    if (lack) {
        return report_all(KTAP_SKIP, lack);
    }
    nl_fd = cn_socket(0);
    ev_fd = cn_socket(W1_EVENT_GROUPS);
    if (nl_fd < 0 || ev_fd < 0) {
        ktap_print_msg("NETLINK_CONNECTOR socket: %s", strerror(errno));
        return report_all(KTAP_FAIL, "no netlink socket");
    }
    if (pbctl_open() == 0 &&
        pbctl_qom_get_int(QOM_PERIPH "t1", "temperature", &v) == 0) {
        t1_mC = (long)v;
    } else {
        ktap_print_msg("t1 temperature from the default topology (%s)",
                       pbctl_open() ? pbctl_unavailable_reason()
                                    : pbctl_last_reply());
    }
    ktap_print_msg("t1 temperature %ld m°C", t1_mC);

    /* e.g. no w1_ds2431: e1's eeprom file, the reference, is absent */
    for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
        kt_add_table(parts[i]->rows, parts[i]->n);
    }
    kt_run_cases(NULL);

    w1nl_rw_cleanup();
    w1nl_list_cleanup();
    w1nl_errors_cleanup();
    if (path_exists(W1_MASTER)) {
        write_str(W1_MASTER "/w1_master_search", "-1\n");
    }
    rx_free(&g_xc.rx);
    rx_free(&h_xc.rx);
    close(nl_fd);
    close(ev_fd);
    return ktap_finished();
}
