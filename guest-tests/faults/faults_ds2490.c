/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faults_ds2490.c - the DS2490's fault campaign (episode.h): the seeded
 * plan of the bridge with id=ds2490 (images/suites/w1faults.qemu), a
 * workload of fast driver operations on the default bus, and the bus
 * checked after the plan is cleared.
 *
 * The workload, one iteration per episode: an 8-byte block of e1's eeprom
 * (w1_ds2431, which reads every block twice and compares, so a wrong block
 * presented as good is a finding), p2's state (w1_ds2413, which checks the
 * state's complement nibble: the same), p1's state (w1_ds2408, no check),
 * the w1 netlink connector's SEARCH on the master (ds9490r_search) and a
 * READ MEMORY of e1 through W1_SLAVE_CMD (WRITE, READ), and on every
 * eighth seed t1's w1_slave (w1_therm, CRC8-checked; 750 ms of conversion,
 * free on the virtual clock but four commands more).  The background
 * search is stopped, so that the workload is the plan's only traffic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "episode.h"
#include "w1req.h"
#include "w1util.h"

/*
 * The kinds of the plan and their rates, per mille of their events
 * (docs/devices/ds2490.md "Fault plans").  One episode makes about 50 EP1
 * polls, 30 EP2 packets, 20 EP3 reads, 40 vendor requests and 40 COMM
 * commands, 6 resets, 4 search hits and 100 bytes read back, so that the
 * expected number of faults is about one: most episodes get 0 to 3.
 */
static const struct fc_rate rates[] = {
    {"ep1-short", 2},  {"ep2-nak", 2},      {"ep3-nak", 3},
    {"ep3-short", 5},  {"stall", 2},        {"result-nrs", 1},
    {"result-sh", 1},  {"result-app", 1},   {"result-cmp", 1},
    {"result-crc", 1}, {"never-idle", 1},   {"no-presence", 10},
    {"search-other", 20}, {"bit-flip", 2},
};

/*
 * Bounds from the driver's timeouts (as guest-tests/w1/w1_faults.c derives
 * them): every USB transfer gives up after 1000 ms, w1_ds2431 makes 10
 * attempts of two reads (40 transfers), w1_therm 5 of 3: the whole
 * workload is under 90 s at worst; twice that.  With the plan cleared the
 * bus must give the right data again within 30 s (a few clean reads, the
 * chip reset by ds_wait_status(), a search to bring slaves back that a
 * faulty search let age out).
 */
#define WORKLOAD_MS 180000
#define RECOVER_MS  30000
#define NL_REPLY_MS 2000 /* the connector answers at once, or not at all */
#define EE_BLOCK    8

static uint8_t ref_ee[128];
static char ref_therm[600];
static uint8_t ref_p2_state;
static uint8_t master_id[8];

static int read_attr(const struct w1_slave_rom *s, const char *attr,
                     off_t off, uint8_t *buf, size_t len)
{
    char path[256];
    ssize_t n;
    int fd;

    w1_slave_path(path, sizeof(path), s, attr);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -errno;
    }
    n = pread(fd, buf, len, off);
    n = n < 0 ? -errno : n;
    close(fd);
    return (int)n;
}

/* Send one request and take its replies until the connector is quiet. */
static void nl_exchange(struct w1_req *r, uint32_t seq)
{
    uint8_t buf[4096];
    int fd = cn_socket(0);

    if (fd < 0) {
        return;
    }
    if (w1_req_send(r, fd, seq, seq, 0, -1) == 0) {
        while (w1_nl_recv(fd, buf, sizeof(buf), NL_REPLY_MS) > 0) {
        }
    }
    close(fd);
}

static void nl_search(uint32_t seq)
{
    static struct w1_req r;

    w1_req_init(&r);
    w1_req_msg(&r, W1_MASTER_CMD, master_id);
    w1_req_cmd(&r, W1_CMD_SEARCH, NULL, 0);
    nl_exchange(&r, seq);
}

/* DS2431 READ MEMORY (0xF0, address) and 8 bytes, through W1_SLAVE_CMD. */
static void nl_read_memory(unsigned addr, uint32_t seq)
{
    static struct w1_req r;
    const uint8_t cmd[3] = {0xf0, (uint8_t)addr, 0};

    w1_req_init(&r);
    w1_req_msg(&r, W1_SLAVE_CMD, E1->id);
    w1_req_cmd(&r, W1_CMD_WRITE, cmd, sizeof(cmd));
    w1_req_cmd(&r, W1_CMD_READ, NULL, EE_BLOCK);
    nl_exchange(&r, seq);
}

static void check_eeprom(struct fc_report *rep, unsigned off)
{
    uint8_t got[EE_BLOCK];
    char g[2 * EE_BLOCK + 1], w[2 * EE_BLOCK + 1];
    int n;

    fc_op(rep, "ds2431-eeprom");
    n = read_attr(E1, "eeprom", off, got, sizeof(got));
    if (n == EE_BLOCK && memcmp(got, ref_ee + off, EE_BLOCK)) {
        w1_hex(got, EE_BLOCK, g, sizeof(g));
        w1_hex(ref_ee + off, EE_BLOCK, w, sizeof(w));
        fc_wrong(rep, "eeprom at %u: %s, the eeprom holds %s", off, g, w);
    } else if (n > 0 && n != EE_BLOCK) {
        fc_wrong(rep, "eeprom at %u: %d bytes of %d presented as read", off,
                 n, EE_BLOCK);
    }
}

static void check_ds2413(struct fc_report *rep)
{
    uint8_t st;

    fc_op(rep, "ds2413-state");
    if (read_attr(P2, "state", 0, &st, 1) == 1 && st != ref_p2_state) {
        fc_wrong(rep, "state 0x%02x, the pins are 0x%02x", st, ref_p2_state);
    }
}

static void check_therm(struct fc_report *rep)
{
    char path[256], text[600];
    ssize_t n;

    fc_op(rep, "ds18b20-w1_slave");
    w1_slave_path(path, sizeof(path), T1, "w1_slave");
    n = read_file(path, text, sizeof(text));
    /* a CRC the driver calls good ("YES") on bytes the sensor never sent */
    if (n > 0 && strstr(text, " YES\n") && strcmp(text, ref_therm)) {
        text[strcspn(text, "\n")] = '\0';
        fc_wrong(rep, "'%.200s' marked YES", text);
    }
}

static void workload(uint64_t seed, struct fc_report *rep)
{
    unsigned off = (unsigned)(seed % (sizeof(ref_ee) / EE_BLOCK)) * EE_BLOCK;
    uint8_t st;

    check_eeprom(rep, off);
    check_ds2413(rep);
    fc_op(rep, "ds2408-state");
    read_attr(P1, "state", 0, &st, 1);
    fc_op(rep, "netlink-search");
    nl_search((uint32_t)seed * 2);
    fc_op(rep, "netlink-read-memory");
    nl_read_memory(off, (uint32_t)seed * 2 + 1);
    if (seed % 8 == 0 && ref_therm[0]) {
        check_therm(rep);
    }
}

static bool all_slaves_here(void)
{
    for (int i = 0; i < SL_COUNT; i++) {
        if (!slave_dir_exists(w1_slaves[i].name)) {
            return false;
        }
    }
    return true;
}

/*
 * The right data again: e1's block, p2's state and all four slaves
 * attached; a slave a faulty search let age out comes back with a search
 * of the master's (w1_master_search 1: one search, then idle again).
 */
static int recover(struct fc_report *rep)
{
    long long end = now_ms() + RECOVER_MS;
    uint8_t got[EE_BLOCK] = {0}, st = 0;
    char g[2 * EE_BLOCK + 1], w[2 * EE_BLOCK + 1];
    int n = -1, sn = -1;

    for (;;) {
        fc_op(rep, "recovery");
        if (!all_slaves_here()) {
            write_str(W1_MASTER "/w1_master_search", "1\n");
            sleep_ms(1200);
        } else {
            n = read_attr(E1, "eeprom", 0, got, sizeof(got));
            sn = read_attr(P2, "state", 0, &st, 1);
            if (n == EE_BLOCK && !memcmp(got, ref_ee, EE_BLOCK) && sn == 1 &&
                st == ref_p2_state) {
                return 0;
            }
        }
        if (now_ms() >= end) {
            break;
        }
        sleep_ms(200);
    }
    w1_hex(got, EE_BLOCK, g, sizeof(g));
    w1_hex(ref_ee, EE_BLOCK, w, sizeof(w));
    snprintf(rep->detail, sizeof(rep->detail),
             "%d ms after the plan was cleared: %s, eeprom read %d (%s, the "
             "eeprom holds %s), ds2413 state read %d (0x%02x, the pins are "
             "0x%02x)",
             RECOVER_MS, all_slaves_here() ? "slaves attached" : "slaves missing",
             n, n == EE_BLOCK ? g : "-", w, sn, st, ref_p2_state);
    return -1;
}

/*
 * A reference read twice alike: under faultcamp.replay the plan is on
 * from boot, so one read alone may be a faulty one.
 */
static int read_ref(const struct w1_slave_rom *s, const char *attr,
                    uint8_t *buf, size_t len)
{
    uint8_t again[sizeof(ref_ee)];

    for (int i = 0; i < 10; i++) {
        if (read_attr(s, attr, 0, buf, len) == (int)len &&
            read_attr(s, attr, 0, again, len) == (int)len &&
            !memcmp(buf, again, len)) {
            return 0;
        }
    }
    return -1;
}

static int setup(char *why)
{
    char path[256];
    long long end = now_ms() + 30000;
    long v = -1;

    w1_topology_init();
    w1_master_id_bytes(1, master_id);
    while (!all_slaves_here() && now_ms() < end) {
        sleep_ms(100);
    }
    if (!all_slaves_here()) {
        return kt_fail(why, "master 1 with the %d slaves not there in 30 s",
                       SL_COUNT);
    }
    if (write_str(W1_MASTER "/w1_master_search", "0\n") ||
        read_long(W1_MASTER "/w1_master_search", &v) || v != 0) {
        return kt_fail(why, "cannot stop the background search (%ld)", v);
    }
    sleep_ms(1200); /* a search that was running ends */
    if (read_ref(E1, "eeprom", ref_ee, sizeof(ref_ee))) {
        return kt_fail(why, "e1's eeprom cannot be read");
    }
    if (read_ref(P2, "state", &ref_p2_state, 1)) {
        return kt_fail(why, "p2's state cannot be read");
    }
    w1_slave_path(path, sizeof(path), T1, "w1_slave");
    if (read_file(path, ref_therm, sizeof(ref_therm)) <= 0 ||
        !strstr(ref_therm, " YES\n")) {
        ref_therm[0] = '\0'; /* no reference: the check is left out */
    }
    return 0;
}

static const struct fc_device ds2490 = {
    .name = "ds2490",
    .qom = QOM_PERIPH "ds2490",
    .rates = rates,
    .nrates = ARRAY_SIZE(rates),
    .setup = setup,
    .workload = workload,
    .workload_ms = WORKLOAD_MS,
    .recover = recover,
    .recover_ms = RECOVER_MS + 20000,
};

int main(void)
{
    return fc_main(&ds2490);
}
