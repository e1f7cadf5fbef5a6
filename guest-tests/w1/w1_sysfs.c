/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_sysfs - the emulated DS2490 and its 1-Wire slaves as seen through
 * sysfs by the unmodified Linux 6.12 drivers (ds2490, w1 core, w1_therm,
 * w1_ds2431, w1_ds2408, w1_ds2413).  Test plan items S1-S5, S10-S14 (see
 * docs/suites/w1.md); this file has S1-S2, the setup and main().
 *
 * Default topology (images/suites/w1.qemu): t1 DS18B20 28-00000a1b2c3d at
 * 21.5 degC, e1 DS2431 2d-000000112233, p1 DS2408 29-000000445566 with
 * pio-input 0xff, p2 DS2413 3a-000000778899; kernel command line
 * wire.timeout=1 wire.slave_ttl=2.
 *
 * Cases that need the host to act (qom-set of a temperature, a pin level,
 * a slave's presence) use the patchbay.ctl channel (pbctl.h) and SKIP when
 * it is missing.  Checks that need QEMU trace evidence (which 1-Wire
 * function commands went over the wire) are not made here.  A case whose
 * family driver (or hwmon, or the netlink connector) the kernel lacks is
 * skipped with the option's name: the "needs" column of the case table.
 *
 * Expectations follow the Linux 6.12 sources: drivers/w1/w1.c,
 * slaves/w1_therm.c (w1_slave_show(), resolution_store(),
 * w1_DS18B20_set_resolution(), w1_DS18B20_convert_temp()),
 * slaves/w1_ds2431.c, slaves/w1_ds2408.c, slaves/w1_ds2413.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pbctl.h"
#include "w1_sysfs.h"

#define DISCOVERY_MS 10000

long t1_mC = 21500;
static char usb_dev[64]; /* e.g. "1-1" */
static bool t1_mC_from_host;

/* ---- S1 probe ------------------------------------------------------------- */

static int s1_usb_device(unsigned long arg, char *why)
{
    long long end = now_ms() + DISCOVERY_MS;
    char speed[32] = "";
    int r;

    (void)arg;
    /* enumeration may still be under way if this runs right after boot
     * (w1_netlink, which normally runs first, skipped on such a kernel) */
    while ((r = ds2490_find(usb_dev, sizeof(usb_dev))) && now_ms() < end) {
        sleep_ms(100);
    }
    if (r) {
        return kt_fail(
            why,
            "no USB device with idVendor 04fa idProduct 2490 under " USB_DEVICES
            " after %d ms",
            DISCOVERY_MS);
    }
    read_filef(speed, sizeof(speed), USB_DEVICES "/%s/speed", usb_dev);
    ktap_print_msg("DS2490 is USB device %s, speed %.*s Mbit/s", usb_dev,
                   (int)strcspn(speed, "\n"), speed);
    return KTAP_PASS;
}

static int s1_driver_bound(unsigned long arg, char *why)
{
    char intf[96], drv[64], path[300];
    long alt = -1, neps = -1;
    char buf[32];
    long long end = now_ms() + DISCOVERY_MS;

    (void)arg;
    if (!usb_dev[0]) {
        return kt_fail(why, "DS2490 USB device not found");
    }
    ds2490_intf(usb_dev, intf, sizeof(intf));
    for (;;) { /* probing may still be under way */
        usb_intf_driver(intf, drv, sizeof(drv));
        if (!strcmp(drv, "DS9490R") || now_ms() >= end) {
            break;
        }
        sleep_ms(100);
    }
    if (strcmp(drv, "DS9490R")) {
        return kt_fail(why, "%s is bound to '%s', expected DS9490R", intf, drv);
    }
    snprintf(path, sizeof(path), USB_DEVICES "/%s/bAlternateSetting", intf);
    if (read_long(path, &alt) || alt != 3) {
        return kt_fail(
            why, "%s: bAlternateSetting %ld, expected 3 (ds_probe sets alt 3)",
            intf, alt);
    }
    /* bNumEndpoints is printed as %02x */
    if (read_filef(buf, sizeof(buf), USB_DEVICES "/%s/bNumEndpoints", intf) <
        0) {
        return kt_fail(why, "%s: no bNumEndpoints", intf);
    }
    neps = strtol(buf, NULL, 16);
    if (neps != 3) {
        return kt_fail(why, "%s: bNumEndpoints %ld, expected 3", intf, neps);
    }
    return KTAP_PASS;
}

static int s1_master(unsigned long arg, char *why)
{
    long long end = now_ms() + DISCOVERY_MS;
    char buf[64];
    long v = -1;

    (void)arg;
    while (!path_exists(W1_MASTER) && now_ms() < end) {
        sleep_ms(100);
    }
    if (!path_exists(W1_MASTER)) {
        return kt_fail(why, "%s does not exist after %d ms", W1_MASTER,
                       DISCOVERY_MS);
    }
    if (read_file(W1_MASTER "/w1_master_name", buf, sizeof(buf)) < 0 ||
        strcmp(buf, "w1_bus_master1\n")) {
        return kt_fail(why, "w1_master_name is '%s'", buf);
    }
    if (read_long(W1_MASTER "/w1_master_timeout", &v) || v != 1) {
        return kt_fail(why,
                       "w1_master_timeout %ld, expected 1 (wire.timeout=1)", v);
    }
    if (read_long(W1_MASTER "/w1_master_max_slave_count", &v) || v != 64) {
        return kt_fail(why, "w1_master_max_slave_count %ld, expected 64", v);
    }
    return KTAP_PASS;
}

/*
 * No error-level (<= KERN_ERR) kernel message from the bridge, the master
 * or a slave before the first test program marked the log (the w1_netlink
 * program provokes a "Failed to write 1-wire data" error on purpose).
 */
static int s1_no_errors(unsigned long arg, char *why)
{
    char tok_usb[96], tok_intf[96], first[300] = "";
    const char *tokens[5];
    char *log, *line, *end, *stop;
    int nerr = 0, ntok = 0;

    (void)arg;
    log = klog_read_all();
    if (!log) {
        return kt_fail(why, "klogctl(SYSLOG_ACTION_READ_ALL): %s",
                       strerror(errno));
    }
    stop = strstr(log, KMSG_TAG);
    if (stop) {
        *stop = '\0';
    }
    tokens[ntok++] = "DS9490R";
    tokens[ntok++] = "w1_master_driver";
    tokens[ntok++] = "w1_slave_driver";
    if (usb_dev[0]) {
        snprintf(tok_usb, sizeof(tok_usb), "usb %s:", usb_dev);
        snprintf(tok_intf, sizeof(tok_intf), " %s:", usb_dev);
        tokens[ntok++] = tok_usb;
        tokens[ntok++] = tok_intf;
    }
    for (line = log; line && *line; line = end ? end + 1 : NULL) {
        unsigned int pri;
        bool ours = false;

        end = strchr(line, '\n');
        if (end) {
            *end = '\0';
        }
        if (sscanf(line, "<%u>", &pri) != 1 || (pri & 7) > 3) {
            continue;
        }
        for (int i = 0; i < ntok && !ours; i++) {
            ours = strstr(line, tokens[i]) != NULL;
        }
        if (!ours) {
            continue;
        }
        if (!nerr++) {
            snprintf(first, sizeof(first), "%s", line);
        }
    }
    free(log);
    if (nerr) {
        return kt_fail(why, "%d error-level message(s), first: %s", nerr,
                       first);
    }
    return KTAP_PASS;
}

/* ---- S2 discovery --------------------------------------------------------- */

static int s2_discovery(unsigned long arg, char *why)
{
    long long t0 = now_ms();

    (void)arg;
    if (!wait_for_discovery(SL_COUNT, DISCOVERY_MS)) {
        return kt_fail(why,
                       "after %d ms w1_master_slave_count is %ld, expected %d",
                       DISCOVERY_MS, master_slave_count(), SL_COUNT);
    }
    ktap_print_msg("4 slaves attached %lld ms after the program started",
                   now_ms() - t0);
    return KTAP_PASS;
}

static int s2_slave_list(unsigned long arg, char *why)
{
    char buf[1024], *save = NULL, *tok;
    bool seen[SL_COUNT] = {false};
    int lines = 0;

    (void)arg;
    if (read_file(W1_MASTER "/w1_master_slaves", buf, sizeof(buf)) < 0) {
        return kt_fail(why, "cannot read w1_master_slaves");
    }
    for (tok = strtok_r(buf, "\n", &save); tok;
         tok = strtok_r(NULL, "\n", &save)) {
        int i;

        lines++;
        for (i = 0; i < SL_COUNT; i++) {
            if (!strcmp(tok, w1_slaves[i].name)) {
                break;
            }
        }
        if (i == SL_COUNT) {
            return kt_fail(why, "unexpected entry '%s'", tok);
        }
        if (seen[i]) {
            return kt_fail(why, "'%s' listed twice", tok);
        }
        seen[i] = true;
    }
    if (lines != SL_COUNT) {
        return kt_fail(why, "%d entries, expected %d", lines, SL_COUNT);
    }
    return KTAP_PASS;
}

static int s2_ids(unsigned long arg, char *why)
{
    (void)arg;
    for (int i = 0; i < SL_COUNT; i++) {
        char path[256], got[17], want[17];
        uint8_t id[16];
        int n;

        w1_slave_path(path, sizeof(path), &w1_slaves[i], "id");
        n = read_bin(path, 0, id, sizeof(id));
        if (n != 8) {
            return kt_fail(why, "%s: read %d bytes, expected 8", path, n);
        }
        w1_hex(id, 8, got, sizeof(got));
        w1_hex(w1_slaves[i].id, 8, want, sizeof(want));
        if (memcmp(id, w1_slaves[i].id, 8)) {
            return kt_fail(why, "%s: id %s, expected %s", w1_slaves[i].name,
                           got, want);
        }
        if (w1_crc8(id, 8) != 0) {
            return kt_fail(why, "%s: CRC8 over the id is %02x, expected 0",
                           w1_slaves[i].name, w1_crc8(id, 8));
        }
    }
    return KTAP_PASS;
}

static int s2_names(unsigned long arg, char *why)
{
    (void)arg;
    for (int i = 0; i < SL_COUNT; i++) {
        char path[256], buf[64], want[32];

        w1_slave_path(path, sizeof(path), &w1_slaves[i], "name");
        snprintf(want, sizeof(want), "%s\n", w1_slaves[i].name);
        if (read_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, want)) {
            return kt_fail(why, "%s: '%s'", path, buf);
        }
    }
    return KTAP_PASS;
}

/* ---- main ---- */

static const struct kt_row probe_cases[] = {
    {
        "S1 DS2490 enumerated as USB device 04fa:2490",
        NULL,
        s1_usb_device,
        0,
    },
    {
        "S1 interface bound to DS9490R in alt setting 3 with 3 endpoints",
        NULL,
        s1_driver_bound,
        0,
    },
    {
        "S1 w1_bus_master1 registered (timeout 1, max_slave_count 64)",
        NULL,
        s1_master,
        0,
    },
    {
        "S1 no error-level kernel messages from DS2490/w1 devices at boot",
        NULL,
        s1_no_errors,
        0,
    },
    {
        "S2 discovery: w1_master_slave_count reaches 4",
        NULL,
        s2_discovery,
        0,
    },
    {
        "S2 w1_master_slaves lists exactly the four default slaves",
        NULL,
        s2_slave_list,
        0,
    },
    {
        "S2 slave id files hold the 8 ROM bytes in wire order, CRC8 valid",
        NULL,
        s2_ids,
        0,
    },
    {
        "S2 slave name files match the directory names",
        NULL,
        s2_names,
        0,
    },
};

int main(void)
{
    long long v;

    setvbuf(stdout, NULL, _IOLBF, 0);
    w1_topology_init();
    w1_pio_seed((uint64_t)now_ms() * 0x9e3779b97f4a7c15ULL ^
                (uint64_t)getpid() << 32 ^ 0x2545f4914f6cdd1dULL);
    kt_add_table(probe_cases, ARRAY_SIZE(probe_cases));
    kt_add_table(w1_therm_cases, w1_therm_ncases);
    kt_add_table(w1_pio_cases, w1_pio_ncases);

    ktap_print_header();
    ktap_set_plan(kt_count());
    ktap_print_msg(
        "not checked here (need QEMU traces): which 1-Wire function "
        "commands reach the wire (S6-S10 trace evidence), S14 RR_DETECT dump");

    /* background search on (an earlier program may have stopped it) */
    if (path_exists(W1_MASTER)) {
        write_str(W1_MASTER "/w1_master_search", "-1\n");
    }
    if (pbctl_open() == 0) {
        if (pbctl_qom_get_int(QOM_PERIPH "t1", "temperature", &v) == 0) {
            t1_mC = (long)v;
            t1_mC_from_host = true;
        } else {
            ktap_print_msg("qom-get t1 temperature: %s", pbctl_last_reply());
        }
    } else {
        ktap_print_msg("%s", pbctl_unavailable_reason());
    }
    ktap_print_msg("t1 temperature %ld m°C (%s)", t1_mC,
                   t1_mC_from_host ? "from the host" : "default topology");

    kt_run_cases(NULL);

    w1_pio_restore();
    return ktap_finished();
}
