/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_sysfs_pio.c - the w1_sysfs cases of the other slaves and the host
 * (S10-S14, see docs/suites/w1.md): the DS2431 eeprom, the
 * DS2408 and DS2413 PIO registers, the control channel, and p2 unplugged
 * and plugged back with its events.
 *
 * Expectations follow w1_ds2431.c, w1_ds2408.c and w1_ds2413.c of Linux
 * 6.12.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pbctl.h"
#include "w1_sysfs.h"

#define TTL_WAIT_MS 10000

/* One pread() (rbuf) or pwrite() (wbuf) at off: bytes, or -errno. */
static int bin_io(const char *path, off_t off, void *rbuf, const void *wbuf,
                  size_t len)
{
    int fd = open(path, (wbuf ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
    ssize_t n;
    int e;

    if (fd < 0) {
        return -errno;
    }
    n = wbuf ? pwrite(fd, wbuf, len, off) : pread(fd, rbuf, len, off);
    e = errno;
    close(fd);
    if (n < 0) {
        return -e;
    }
    return (int)n;
}

int read_bin(const char *path, off_t off, void *buf, size_t len)
{
    return bin_io(path, off, buf, NULL, len);
}

static int write_bin(const char *path, off_t off, const void *buf, size_t len)
{
    return bin_io(path, off, NULL, buf, len);
}

/* A one-byte register file of a DS2408/DS2413: 0 or -errno / -EIO. */
static int reg_read(const struct w1_slave_rom *s, const char *attr, uint8_t *v)
{
    char path[256];
    int n;

    w1_slave_path(path, sizeof(path), s, attr);
    n = read_bin(path, 0, v, 1);
    return n == 1 ? 0 : n < 0 ? n : -EIO;
}

/* Returns the write() result: 1 on success, -errno otherwise. */
static int reg_write(const struct w1_slave_rom *s, const char *attr, uint8_t v)
{
    char path[256];

    w1_slave_path(path, sizeof(path), s, attr);
    return write_bin(path, 0, &v, 1);
}

/* reg_write() that must return 1; 0, or -1 with why. */
static int reg_put(const struct w1_slave_rom *s, const char *attr, uint8_t v,
                   char *why, size_t wl)
{
    int r = reg_write(s, attr, v);

    if (r == 1) {
        return 0;
    }
    snprintf(why, wl, "write %s 0x%02x: %s", attr, v,
             r < 0 ? strerror(-r) : "returned != 1");
    return -1;
}

/* reg_read() that must succeed; 0, or -1 with why. */
static int reg_get(const struct w1_slave_rom *s, const char *attr, uint8_t *v,
                   char *why, size_t wl)
{
    int r = reg_read(s, attr, v);

    if (!r) {
        return 0;
    }
    snprintf(why, wl, "read %s: %s", attr, strerror(-r));
    return -1;
}

/* Write v to wattr, then read rattr into r; 0, or -1 with why. */
static int reg_put_get(const struct w1_slave_rom *s, const char *wattr,
                       uint8_t v, const char *rattr, uint8_t *r, char *why)
{
    if (reg_put(s, wattr, v, why, KT_WHY_LEN) ||
        reg_get(s, rattr, r, why, KT_WHY_LEN)) {
        return -1;
    }
    return 0;
}

static uint64_t rng_state;

static uint8_t rng8(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint8_t)(rng_state >> 24);
}

void w1_pio_seed(uint64_t seed)
{
    rng_state = seed ? seed : 1;
}

/* ---- S10/S11 DS2431 ------------------------------------------------------- */

static uint8_t eeprom_orig[128];
static bool eeprom_orig_valid;
static uint8_t eeprom_pattern[128];
static bool eeprom_pattern_valid;

static void eeprom_path(char *buf, size_t len)
{
    w1_slave_path(buf, len, E1, "eeprom");
}

static int s10_full_write(unsigned long arg, char *why)
{
    uint8_t got[128];
    char path[256];
    int n;

    (void)arg;
    eeprom_path(path, sizeof(path));
    n = read_bin(path, 0, eeprom_orig, sizeof(eeprom_orig));
    if (n != 128) {
        return kt_fail(why, "read %s: %d, expected 128 bytes", path, n);
    }
    eeprom_orig_valid = true;
    /* random, and every byte differs from what is there now */
    for (int i = 0; i < 128; i++) {
        eeprom_pattern[i] = rng8();
        if (eeprom_pattern[i] == eeprom_orig[i]) {
            eeprom_pattern[i] ^= 0xa5;
        }
    }
    n = write_bin(path, 0, eeprom_pattern, 128);
    if (n != 128) {
        return kt_fail(why, "write 128 bytes: %s",
                       n < 0 ? strerror(-n) : "short write");
    }
    n = read_bin(path, 0, got, sizeof(got));
    if (n != 128) {
        return kt_fail(why, "read back: %d bytes", n);
    }
    for (int i = 0; i < 128; i++) {
        if (got[i] != eeprom_pattern[i]) {
            return kt_fail(why, "byte %d reads %02x, wrote %02x", i, got[i],
                           eeprom_pattern[i]);
        }
    }
    eeprom_pattern_valid = true;
    return KTAP_PASS;
}

static int s11_partial_write(unsigned long arg, char *why)
{
    uint8_t want[128], got[128], patch[5];
    char path[256];
    int n;

    (void)arg;
    eeprom_path(path, sizeof(path));
    if (!eeprom_pattern_valid) {
        n = read_bin(path, 0, eeprom_pattern, 128);
        if (n != 128) {
            return kt_fail(why, "read %s: %d bytes", path, n);
        }
    }
    memcpy(want, eeprom_pattern, 128);
    for (int i = 0; i < 5; i++) {
        patch[i] = rng8();
        if (patch[i] == want[3 + i]) {
            patch[i] ^= 0x5a;
        }
        want[3 + i] = patch[i];
    }
    n = write_bin(path, 3, patch, 5);
    if (n != 5) {
        return kt_fail(why, "write 5 bytes at offset 3: %s",
                       n < 0 ? strerror(-n) : "short write");
    }
    n = read_bin(path, 0, got, 128);
    if (n != 128) {
        return kt_fail(why, "read back: %d bytes", n);
    }
    for (int i = 0; i < 128; i++) {
        if (got[i] != want[i]) {
            return kt_fail(why, "byte %d reads %02x, expected %02x (%s)", i,
                           got[i], want[i],
                           i >= 3 && i < 8 ? "written" : "preserved");
        }
    }
    return KTAP_PASS;
}

static void eeprom_restore(void)
{
    char path[256];

    if (!eeprom_orig_valid) {
        return;
    }
    eeprom_path(path, sizeof(path));
    if (write_bin(path, 0, eeprom_orig, 128) != 128) {
        ktap_print_msg("could not restore the DS2431 contents");
    }
}

/* ---- S12 DS2408 ----------------------------------------------------------- */

/*
 * Write output of a DS2408 or DS2413; state then reads want. DS2408: latch
 * AND pio-input ff. DS2413: PIOA and PIOB pin/latch bits, the complement
 * nibble above them.
 */
static const struct {
    const struct w1_slave_rom *s;
    uint8_t out, want;
} outputs[] = {
    {P1, 0xff, 0xff},
    {P2, 0x03, 0x0f}, /* both 1, complement 0 */
    {P2, 0x01, 0xc3}, /* PIOA 1, PIOB 0, complement c */
};

static int output_case(unsigned long arg, char *why)
{
    const struct w1_slave_rom *s = outputs[arg].s;
    uint8_t out = outputs[arg].out, want = outputs[arg].want, v;

    if (reg_put_get(s, "output", out, "state", &v, why)) {
        return KTAP_FAIL;
    }
    if (v != want) {
        return kt_fail(why, "state %02x after output %#x, expected %02x", v,
                       out, want);
    }
    return KTAP_PASS;
}

static int s12_output_55(unsigned long arg, char *why)
{
    uint8_t out, st;

    (void)arg;
    if (reg_put_get(P1, "output", 0x55, "output", &out, why) ||
        reg_get(P1, "state", &st, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (out != 0x55 || st != 0x55) {
        return kt_fail(why, "output %02x state %02x, expected 55 55", out, st);
    }
    return KTAP_PASS;
}

static int s12_pio_input(unsigned long arg, char *why)
{
    uint8_t st = 0, st2 = 0;
    int r, r2;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (pbctl_qom_set_int(QOM_PERIPH "p1", "pio-input", 0x0f)) {
        return kt_fail(why, "qom-set p1 pio-input 15: %s", pbctl_last_reply());
    }
    r = reg_read(P1, "state", &st);
    if (pbctl_qom_set_int(QOM_PERIPH "p1", "pio-input", 0xff)) {
        return kt_fail(why, "qom-set p1 pio-input 255: %s", pbctl_last_reply());
    }
    r2 = reg_read(P1, "state", &st2);
    if (r || r2) {
        return kt_fail(why, "read state: %s", strerror(r ? -r : -r2));
    }
    if (st != 0x05) {
        return kt_fail(
            why, "state %02x with latch 55 and input 0f, expected 05", st);
    }
    if (st2 != 0x55) {
        return kt_fail(why, "state %02x after input back to ff, expected 55",
                       st2);
    }
    return KTAP_PASS;
}

/*
 * A DS2408 register written reads back the same (S12): status_control 01
 * (PLS set, PORL cleared, VCCP 0), written back to 00 after; activity 00
 * clears the latches, and the output latch is set back to ff after.
 */
static const struct {
    const char *attr;
    uint8_t v;
    const char *pre, *post; /* around ", expected" in the failure */
    const char *undo;       /* the register written after, with undo_v */
    uint8_t undo_v;
    bool undo_must; /* whether a failed undo fails the case */
} echoes[] = {
    {"status_control", 0x01, "", " (PLS set, PORL cleared, VCCP 0)",
     "status_control", 0x00, true},
    {"activity", 0x00, " after the reset", "", "output", 0xff, false},
};

static int reg_echo(unsigned long arg, char *why)
{
    uint8_t v;

    if (reg_put_get(P1, echoes[arg].attr, echoes[arg].v, echoes[arg].attr, &v,
                    why)) {
        return KTAP_FAIL;
    }
    if (v != echoes[arg].v) {
        return kt_fail(why, "%s %02x%s, expected %02x%s", echoes[arg].attr, v,
                       echoes[arg].pre, echoes[arg].v, echoes[arg].post);
    }
    if (reg_put(P1, echoes[arg].undo, echoes[arg].undo_v, why, KT_WHY_LEN)) {
        if (echoes[arg].undo_must) {
            return KTAP_FAIL;
        }
        ktap_print_msg("restoring p1 %s: %s", echoes[arg].undo, why);
    }
    return KTAP_PASS;
}

/*
 * status_control_write() demands that the read-back equals the written
 * byte; with VCC present the device reports VCCP (bit 7), so it fails.
 */
static int s12_status_control_vcc(unsigned long arg, char *why)
{
    int r;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (pbctl_qom_set_bool(QOM_PERIPH "p1", "vcc", 1)) {
        return kt_skip(why, "p1 'vcc' is not settable at run time: %s",
                       pbctl_last_reply());
    }
    r = reg_write(P1, "status_control", 0x01);
    if (pbctl_qom_set_bool(QOM_PERIPH "p1", "vcc", 0)) {
        ktap_print_msg("restoring p1 vcc: %s", pbctl_last_reply());
    }
    reg_write(P1, "status_control", 0x00);
    if (r != -EIO) {
        return kt_fail(why,
                       "write status_control 0x01 with VCC: %s, expected EIO",
                       r < 0 ? strerror(-r) : "success");
    }
    return KTAP_PASS;
}

/* ---- S13 DS2413 ----------------------------------------------------------- */

static int s13_pio_input(unsigned long arg, char *why)
{
    int r;
    uint8_t v = 0;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (reg_put(P2, "output", 0x03, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (pbctl_qom_set_int(QOM_PERIPH "p2", "pio-input", 0)) {
        return kt_fail(why, "qom-set p2 pio-input 0: %s", pbctl_last_reply());
    }
    r = reg_read(P2, "state", &v);
    if (pbctl_qom_set_int(QOM_PERIPH "p2", "pio-input", 3)) {
        return kt_fail(why, "qom-set p2 pio-input 3: %s", pbctl_last_reply());
    }
    if (r) {
        return kt_fail(why, "read state: %s", strerror(-r));
    }
    /* pins 0, latches 1: b0 0, b1 1, b2 0, b3 1 -> 0a, complement 5 */
    return v == 0x5a ? KTAP_PASS
                     : kt_fail(why,
                               "state %02x with latches on and inputs low, "
                               "expected 5a",
                               v);
}

/* ---- control channel, S14 unplug/plug ------------------------------------- */

static int pbctl_unknown_op(unsigned long arg, char *why)
{
    char reply[256];
    int r;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    r = pbctl_request(reply, sizeof(reply), "frobnicate %s", "now");
    if (r != -1) {
        return kt_fail(why, "request succeeded: '%s'", reply);
    }
    if (strcmp(reply, "error unknown operation 'frobnicate'")) {
        return kt_fail(
            why,
            "reply '%s', expected \"error unknown operation 'frobnicate'\"",
            reply);
    }
    return KTAP_PASS;
}

static int ev_fd = -1;

/* Wait for the slave directory to (dis)appear; collect events meanwhile. */
static bool wait_slave(const struct w1_slave_rom *s, bool present,
                       struct w1_event *evs, int *nev, int maxev)
{
    long long end = now_ms() + TTL_WAIT_MS;

    for (;;) {
        while (w1_event_take(ev_fd, evs, nev, maxev, 100) == 1) {
            /* collect them all */
        }
        if (slave_dir_exists(s->name) == present) {
            break;
        }
        if (now_ms() >= end) {
            return false;
        }
    }
    /* the event is sent right after the device change; allow it to land */
    while (w1_event_take(ev_fd, evs, nev, maxev, 300) == 1) {
        /* collect them all */
    }
    return true;
}

/* Exactly one event, of type on P2, and nothing else. */
static int check_one_event(const struct w1_event *evs, int nev, uint8_t type,
                           char *why, size_t wl)
{
    char s[300];

    w1_events_print(evs, nev);
    if (nev != 1) {
        snprintf(why, wl, "%d events, expected exactly one %s", nev,
                 w1_event_name(type));
        return -1;
    }
    if (!w1_event_is(&evs[0], type, P2->id)) {
        w1_event_str(&evs[0], s, sizeof(s));
        snprintf(why, wl, "event %s, expected %s for %s", s,
                 w1_event_name(type), P2->name);
        return -1;
    }
    return 0;
}

static bool s14_unplugged;

/*
 * Unplug (present false) or plug back p2 in the model: within slave_ttl
 * its sysfs entry goes or comes, with exactly one event about it.
 */
static int s14_set_present(unsigned long present, char *why)
{
    const char *what = present ? "true" : "false";
    int want_count = present ? SL_COUNT : SL_COUNT - 1;
    struct w1_event evs[16];
    long long t0;
    int nev = 0;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (present && (!s14_unplugged || ev_fd < 0)) {
        return kt_fail(why, "the unplug step did not run");
    }
    if (ev_fd < 0) {
        ev_fd = cn_socket(W1_EVENT_GROUPS);
    }
    if (ev_fd < 0) {
        return kt_fail(why, "netlink connector socket (group %u): %s",
                       CN_W1_IDX, strerror(errno));
    }
    w1_event_drain(ev_fd);
    if (pbctl_qom_set_bool(QOM_PERIPH "p2", "present", present)) {
        return kt_fail(why, "qom-set p2 present %s: %s", what,
                       pbctl_last_reply());
    }
    s14_unplugged = !present;
    t0 = now_ms();
    if (!wait_slave(P2, present, evs, &nev, (int)ARRAY_SIZE(evs))) {
        return kt_fail(why, "%s %s %d ms after %s", P2->name,
                       present ? "not attached" : "still attached", TTL_WAIT_MS,
                       present ? "plugging" : "unplugging");
    }
    ktap_print_msg("%s %s after %lld ms", P2->name,
                   present ? "attached" : "detached", now_ms() - t0);
    if (master_slave_count() != want_count) {
        return kt_fail(why, "w1_master_slave_count %ld, expected %d",
                       master_slave_count(), want_count);
    }
    if (check_one_event(evs, nev, present ? W1_SLAVE_ADD : W1_SLAVE_REMOVE, why,
                        KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

void w1_pio_restore(void)
{
    eeprom_restore();
    if (s14_unplugged) {
        pbctl_qom_set_bool(QOM_PERIPH "p2", "present", 1);
    }
    if (ev_fd >= 0) {
        close(ev_fd);
    }
}

const struct kt_row w1_pio_cases[] = {
    {
        "S10 DS2431 eeprom: 128-byte write reads back identical",
        NEED_DS2431,
        s10_full_write,
        0,
    },
    {
        "S11 DS2431 eeprom: 5 bytes at offset 3 change only bytes 3-7",
        NEED_DS2431,
        s11_partial_write,
        0,
    },
    {
        "S12 DS2408 output ff: state reads ff",
        NEED_DS2408,
        output_case,
        0,
    },
    {
        "S12 DS2408 output 55: output and state read 55",
        NEED_DS2408,
        s12_output_55,
        0,
    },
    {
        "S12 DS2408 pio-input 0f: state reads 05 (latch AND input)",
        NEED_DS2408,
        s12_pio_input,
        0,
    },
    {
        "S12 DS2408 status_control 01 written and read back (VCC off)",
        NEED_DS2408,
        reg_echo,
        0,
    },
    {
        "S12 DS2408 status_control write fails with EIO when VCCP is set",
        NEED_DS2408,
        s12_status_control_vcc,
        0,
    },
    {
        "S12 DS2408 activity write returns 1 and clears the latches",
        NEED_DS2408,
        reg_echo,
        1,
    },
    {
        "S13 DS2413 output 03: state 0f",
        NEED_DS2413,
        output_case,
        1,
    },
    {
        "S13 DS2413 output 01: state c3",
        NEED_DS2413,
        output_case,
        2,
    },
    {
        "S13 DS2413 inputs pulled low: state 5a",
        NEED_DS2413,
        s13_pio_input,
        0,
    },
    {
        "pbctl unknown operation answered with error unknown operation",
        NULL,
        pbctl_unknown_op,
        0,
    },
    {
        "S14 DS2413 present=false: detached after slave_ttl with "
        "W1_SLAVE_REMOVE",
        NEED_NETLINK,
        s14_set_present,
        false,
    },
    {
        "S14 DS2413 present=true: re-attached with W1_SLAVE_ADD",
        NEED_NETLINK,
        s14_set_present,
        true,
    },
};
const size_t w1_pio_ncases = ARRAY_SIZE(w1_pio_cases);
