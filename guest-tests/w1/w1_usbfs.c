/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_usbfs - hostile USB traffic against the emulated DS2490 through usbfs,
 * with the DS9490R driver unbound, then proof that the device survived and
 * that the driver binds again.
 *
 * The DS2490 vendor protocol (docs/devices/ds2490.md): setup
 * packets with bmRequestType 0x40, bRequest 0 CONTROL / 1 COMM / 2 MODE,
 * wValue the command, wIndex its parameter, wLength 0; the only request with
 * a data stage is CTL_GET_COMM_CMDS (0xc0).  Anything else must STALL
 * (EPIPE in usbfs).  EP1 0x81 interrupt IN returns 16 state bytes plus
 * 0..16 result bytes; EP2 0x02 bulk OUT and EP3 0x83 bulk IN are the
 * 128-byte 1-Wire data FIFOs.
 *
 * Order: unbind (events for the slaves and the master), claim interface 0,
 * alt 3, CTL_RESET_DEVICE, a baseline 1-Wire transaction (MATCH ROM t1 +
 * READ SCRATCHPAD through BLOCK_IO), the hostile requests, the baseline
 * again, release, bind, and the master with its four slaves back.  The
 * two event cases need the w1 netlink connector and skip without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/usbdevice_fs.h>

#include "kconfig.h"
#include "w1_usbfs.h"

#define DRV_DIR "/sys/bus/usb/drivers/DS9490R"

int usb_fd = -1;
static char usb_dev[64], usb_intf[96], usb_node[64];
static bool unbound, claimed;
static int ev_fd = -1;
static struct w1_event unbind_evs[16];
static int unbind_nev;

/*
 * Waiting for the driver's devices to go or come: 100 ms, receiving an
 * event meanwhile when there is an event socket.
 */
static void wait_step(struct w1_event *evs, int *nev, int max)
{
    if (ev_fd < 0) {
        sleep_ms(100);
    } else {
        w1_event_take(ev_fd, evs, nev, max, 100);
    }
}

/* The events that follow within 500 ms of each other. */
static void events_tail(struct w1_event *evs, int *nev, int max)
{
    while (ev_fd >= 0 && w1_event_take(ev_fd, evs, nev, max, 500) == 1) {
        /* collect them all */
    }
}

bool usb_ready(char *why)
{
    if (usb_fd < 0 || !claimed) {
        kt_fail(why, "usbfs setup failed");
        return false;
    }
    return true;
}

/* ---- cases ---------------------------------------------------------------- */

static int u_setup(unsigned long arg, char *why)
{
    char path[300], drv[64];
    long bus = -1, devnum = -1;
    unsigned int ifnum = 0;
    struct usbdevfs_setinterface si = {.interface = 0, .altsetting = 3};
    long long end;
    int r;

    (void)arg;
    if (ds2490_find(usb_dev, sizeof(usb_dev))) {
        return kt_fail(why, "no 04fa:2490 device under " USB_DEVICES);
    }
    ds2490_intf(usb_dev, usb_intf, sizeof(usb_intf));
    usb_intf_driver(usb_intf, drv, sizeof(drv));
    if (strcmp(drv, "DS9490R")) {
        return kt_fail(why, "%s is bound to '%s', expected DS9490R", usb_intf,
                       drv);
    }
    wait_for_discovery(SL_COUNT, 10000);
    /* without the connector only the two event cases go (they skip) */
    if (!kconfig_lacks(NEED_NETLINK)) {
        ev_fd = cn_socket(W1_EVENT_GROUPS);
        if (ev_fd < 0) {
            return kt_fail(why, "netlink connector socket: %s",
                           strerror(errno));
        }
        w1_event_drain(ev_fd);
    }

    r = write_str(DRV_DIR "/unbind", usb_intf);
    if (r) {
        return kt_fail(why, "unbind %s: %s", usb_intf, strerror(-r));
    }
    unbound = true;
    end = now_ms() + 10000;
    while (path_exists(W1_MASTER) && now_ms() < end) {
        wait_step(unbind_evs, &unbind_nev, (int)ARRAY_SIZE(unbind_evs));
    }
    if (path_exists(W1_MASTER)) {
        return kt_fail(why, "%s still exists 10 s after the unbind", W1_MASTER);
    }
    events_tail(unbind_evs, &unbind_nev, (int)ARRAY_SIZE(unbind_evs));

    snprintf(path, sizeof(path), USB_DEVICES "/%s/busnum", usb_dev);
    if (read_long(path, &bus)) {
        return kt_fail(why, "cannot read %s", path);
    }
    snprintf(path, sizeof(path), USB_DEVICES "/%s/devnum", usb_dev);
    if (read_long(path, &devnum)) {
        return kt_fail(why, "cannot read %s", path);
    }
    snprintf(usb_node, sizeof(usb_node), "/dev/bus/usb/%03ld/%03ld", bus,
             devnum);
    usb_fd = open(usb_node, O_RDWR | O_CLOEXEC);
    if (usb_fd < 0) {
        return kt_fail(why, "open %s: %s", usb_node, strerror(errno));
    }
    if (ioctl(usb_fd, USBDEVFS_CLAIMINTERFACE, &ifnum)) {
        return kt_fail(why, "USBDEVFS_CLAIMINTERFACE 0: %s", strerror(errno));
    }
    claimed = true;
    if (ioctl(usb_fd, USBDEVFS_SETINTERFACE, &si)) {
        return kt_fail(why, "USBDEVFS_SETINTERFACE 0 alt 3: %s",
                       strerror(errno));
    }
    return KTAP_PASS;
}

static int u_unbind_events(unsigned long arg, char *why)
{
    bool seen[SL_COUNT] = {false};
    uint8_t mid[8];

    (void)arg;
    if (!unbound) {
        return kt_fail(why, "the driver was not unbound");
    }
    w1_master_id_bytes(1, mid);
    w1_events_print(unbind_evs, unbind_nev);
    if (unbind_nev != SL_COUNT + 1) {
        return kt_fail(
            why, "%d events, expected %d W1_SLAVE_REMOVE + 1 W1_MASTER_REMOVE",
            unbind_nev, SL_COUNT);
    }
    for (int i = 0; i < SL_COUNT; i++) {
        int k;

        for (k = 0; k < SL_COUNT; k++) {
            if (w1_event_is(&unbind_evs[i], W1_SLAVE_REMOVE, w1_slaves[k].id)) {
                break;
            }
        }
        if (k == SL_COUNT || seen[k]) {
            return kt_fail(
                why,
                "event %d is not a W1_SLAVE_REMOVE of a distinct default slave",
                i);
        }
        seen[k] = true;
        if (i && unbind_evs[i].cn.seq != unbind_evs[i - 1].cn.seq + 1) {
            return kt_fail(why,
                           "event cn.seq %u after %u, expected consecutive",
                           unbind_evs[i].cn.seq, unbind_evs[i - 1].cn.seq);
        }
    }
    if (!w1_event_is(&unbind_evs[SL_COUNT], W1_MASTER_REMOVE, mid)) {
        return kt_fail(why, "last event is not W1_MASTER_REMOVE of master 1");
    }
    if (unbind_evs[SL_COUNT].cn.seq != unbind_evs[SL_COUNT - 1].cn.seq + 1) {
        return kt_fail(why, "W1_MASTER_REMOVE cn.seq %u, expected %u",
                       unbind_evs[SL_COUNT].cn.seq,
                       unbind_evs[SL_COUNT - 1].cn.seq + 1);
    }
    return KTAP_PASS;
}

static struct w1_event bind_evs[16];
static int bind_nev;

static void release_usb(void)
{
    unsigned int ifnum = 0;

    if (usb_fd >= 0) {
        if (claimed) {
            ioctl(usb_fd, USBDEVFS_RELEASEINTERFACE, &ifnum);
        }
        close(usb_fd);
    }
    usb_fd = -1;
    claimed = false;
}

static int u_rebind(unsigned long arg, char *why)
{
    char drv[64];
    long long end;
    int r;

    (void)arg;
    release_usb();
    if (!unbound) {
        return kt_fail(why, "the driver was never unbound");
    }
    if (ev_fd >= 0) {
        w1_event_drain(ev_fd);
    }
    r = write_str(DRV_DIR "/bind", usb_intf);
    if (r) {
        return kt_fail(why, "bind %s: %s", usb_intf, strerror(-r));
    }
    unbound = false;
    usb_intf_driver(usb_intf, drv, sizeof(drv));
    if (strcmp(drv, "DS9490R")) {
        return kt_fail(why, "%s bound to '%s' after the bind", usb_intf, drv);
    }
    end = now_ms() + 10000;
    for (;;) {
        wait_step(bind_evs, &bind_nev, (int)ARRAY_SIZE(bind_evs));
        if (wait_for_discovery(SL_COUNT, 0) || now_ms() >= end) {
            break;
        }
    }
    events_tail(bind_evs, &bind_nev, (int)ARRAY_SIZE(bind_evs));
    if (!path_exists(W1_MASTER)) {
        return kt_fail(why, "%s did not come back", W1_MASTER);
    }
    if (!wait_for_discovery(SL_COUNT, 0)) {
        return kt_fail(
            why, "w1_master_slave_count %ld 10 s after the bind, expected %d",
            master_slave_count(), SL_COUNT);
    }
    return KTAP_PASS;
}

/*
 * w1_add_master_device() sends W1_MASTER_ADD (dev->seq starts at 1) while
 * the new master's thread already searches; the four W1_SLAVE_ADD events may
 * in principle precede it, so the order is not checked, only the set and
 * that the seqs are 1..5.
 */
static int u_rebind_events(unsigned long arg, char *why)
{
    bool seen[SL_COUNT] = {false}, master = false, seqs[6] = {false};
    uint8_t mid[8];

    (void)arg;
    if (ev_fd < 0) {
        return kt_fail(why, "no event socket");
    }
    w1_master_id_bytes(1, mid);
    w1_events_print(bind_evs, bind_nev);
    if (bind_nev != SL_COUNT + 1) {
        return kt_fail(why,
                       "%d events, expected W1_MASTER_ADD + %d W1_SLAVE_ADD",
                       bind_nev, SL_COUNT);
    }
    for (int i = 0; i < bind_nev; i++) {
        const struct w1_event *ev = &bind_evs[i];
        int k = -1;

        if (w1_event_is(ev, W1_MASTER_ADD, mid) && !master) {
            master = true;
        } else {
            for (k = 0; k < SL_COUNT; k++) {
                if (w1_event_is(ev, W1_SLAVE_ADD, w1_slaves[k].id)) {
                    break;
                }
            }
            if (k == SL_COUNT || seen[k]) {
                return kt_fail(
                    why,
                    "event %d is neither W1_MASTER_ADD of master 1 nor a new "
                    "W1_SLAVE_ADD",
                    i);
            }
            seen[k] = true;
        }
        if (ev->cn.seq < 1 || ev->cn.seq > 5 || seqs[ev->cn.seq]) {
            return kt_fail(
                why,
                "event cn.seq %u, expected each of 1..5 once (new master "
                "counter)",
                ev->cn.seq);
        }
        seqs[ev->cn.seq] = true;
    }
    return KTAP_PASS;
}

static const struct kt_row bind_cases[] = {
    {
        "usbfs setup: DS9490R unbound, interface 0 claimed in alt setting 3",
        NULL,
        u_setup,
        0,
    },
    {
        "unbind: W1_SLAVE_REMOVE for each slave, then W1_MASTER_REMOVE",
        NEED_NETLINK,
        u_unbind_events,
        0,
    },
};

static const struct kt_row rebind_cases[] = {
    {
        "bind: DS9490R bound again, w1_bus_master1 back with 4 slaves",
        NULL,
        u_rebind,
        0,
    },
    {
        "bind: W1_MASTER_ADD for master 1 and W1_SLAVE_ADD x4, seqs 1..5",
        NEED_NETLINK,
        u_rebind_events,
        0,
    },
};

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    w1_topology_init();
    kt_add_table(bind_cases, ARRAY_SIZE(bind_cases));
    kt_add_table(w1_usbfs_vendor_cases, w1_usbfs_vendor_ncases);
    kt_add_table(rebind_cases, ARRAY_SIZE(rebind_cases));
    ktap_print_header();
    ktap_set_plan(kt_count());
    kt_run_cases(NULL);
    /* whatever happened, give the device back to its driver */
    release_usb();
    if (unbound && usb_intf[0]) {
        write_str(DRV_DIR "/bind", usb_intf);
    }
    if (ev_fd >= 0) {
        close(ev_fd);
    }
    return ktap_finished();
}
