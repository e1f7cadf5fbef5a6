/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_faults.c - w1_netlink's F cases: the DS2490 misbehaves on purpose
 * (a scripted fault plan, docs/devices/ds2490.md "Fault plans"), a driver
 * operation runs from user space, and its answer is judged:
 *
 *  (a) it ends within a bound derived from the driver's own timeouts (a
 *      child process with a deadline: common/child.h), with the right data
 *      or an error; never wrong data where the driver has a CRC or a proof
 *      read to check it with;
 *  (b) the fault really happened: fault-counts afterwards is exactly what
 *      the plan asked for (a fault that did not fire proves nothing);
 *  (c) with the plan cleared (fault-script "" and faults ""), the same
 *      operation gives the right data again within a bound.
 *
 * A row's plan counts the DS2490's events from the moment it is set, so
 * the operation must be the only bus traffic: the w1_netlink program has
 * the background search stopped (w1_netlink.c, c_setup()).  The counts in
 * the rows come from the Linux 6.12 sources, cited in each row's comment:
 * drivers/w1/masters/ds2490.c (ds2490.c below), drivers/w1/w1_io.c,
 * drivers/w1/slaves/w1_therm.c, drivers/w1/slaves/w1_ds2431.c.
 *
 * When (c) fails the master is brought back by unbinding and binding the
 * DS9490R driver (ds_probe() resets the chip), so that the cases after it
 * still run; the reason says so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbctl.h"
#include "w1faults.h"

struct wf_row {
    const char *name;
    const char *needs;
    enum wf_op op;
    uint64_t seed;      /* faults "seed=N" (the draws: cut, bit), 0: none */
    const char *script; /* fault-script */
    const char *fired;  /* fault-counts afterwards, exactly */
    unsigned accept;    /* classes the driver's code leads to */
};

/*
 * The rows.  Event counts of a w1_slave read of t1 (the DS18B20 among four
 * slaves, so every select is MATCH ROM + 8 id bytes) with the background
 * search stopped: w1_slave_show() -> convert_t() (w1_therm.c:1113):
 * reset_select_slave() (1071: w1_reset_bus() -> ds_reset(), one COMM
 * 1_WIRE_RESET; w1_write_block() of 9 bytes -> ds_write_block(), one
 * BLOCK_IO, 9 bytes read back), w1_write_8(CONVERT T) (ds_write_byte():
 * one BYTE_IO, 1 byte), 750 ms, then read_scratchpad() (1282): the select
 * again, w1_write_8(READ SCRATCHPAD), w1_read_block(9) (ds_read_block():
 * one BLOCK_IO of 9 0xff, 9 bytes).  So COMM commands 1-7, the last the
 * scratchpad's BLOCK_IO; bytes 1-10 for the conversion, 11-20 the select
 * and 0xbe, 21-29 the scratchpad; EP3 reads 1-5 (one per ds_recv_data()),
 * the 5th the scratchpad.  A retry of read_scratchpad() (its loop at 1303
 * runs while ret != 0, at most W1_THERM_MAX_TRY = 5 times) is 19 bytes
 * more: the scratchpad of attempt k is bytes 21 + 19 (k - 1) ..
 * 29 + 19 (k - 1); byte 4 of it (the config register) 25, 44, 63, 82, 101.
 */
static const struct wf_row rows[] = {
    /*
     * One bit of the scratchpad flipped on the wire: the CRC8 of
     * read_scratchpad() (w1_therm.c:1318-1323) fails, ret stays -EIO and
     * the loop reads again: the second attempt is clean, so w1_slave is
     * the right reading, marked YES.
     */
    {"F1 fault byte:25:bit-flip (t1 scratchpad byte 4): w1_therm's CRC "
     "check reads again, w1_slave right and YES",
     NEED_THERM, OP_THERM, 0, "byte:25:bit-flip", "bit-flip=1", C_RIGHT},
    /*
     * A flipped bit in each of the 5 attempts: every CRC check fails, so
     * read_scratchpad() returns -EIO and w1_slave_show() returns nothing
     * (w1_therm.c:1612-1617). Never a reading marked YES.
     */
    {"F2 fault bit-flip in all 5 scratchpad reads: w1_slave empty, no "
     "wrong temperature marked YES",
     NEED_THERM, OP_THERM, 0,
     "byte:25:bit-flip;byte:44:bit-flip;byte:63:bit-flip;byte:82:bit-flip;"
     "byte:101:bit-flip",
     "bit-flip=5", C_ERROR},
    /*
     * The scratchpad's BLOCK_IO (COMM 7) never ends: ds_wait_status()
     * gives up after 100 polls (ds2490.c:445, its -1 is ignored by
     * read_block_chunk() at 634), ds_recv_data() times out after 1000 ms
     * (330) and ds9490r_read_block() returns 0 (944).  read_scratchpad()
     * notes "returned 0 instead of 9" and sets -EIO (1310-1315): the read
     * must fail, or be right after a retry. The chip stays wedged until
     * CTL_RESET_DEVICE: the commands queued behind it overflow the command
     * FIFO (16 bytes), ds_wait_status() sees ST_EPOF and calls
     * ds_reset_device() (447-449), and the bus works again.
     */
    {"F3 fault comm:7:never-idle (the scratchpad's BLOCK_IO never ends): "
     "w1_slave right or empty, never a wrong reading marked YES",
     NEED_THERM, OP_THERM, 0, "comm:7:never-idle", "never-idle=1",
     C_RIGHT | C_ERROR},
    /*
     * The scratchpad's EP3 read ends with a zero-length packet (seed 3:
     * the plan's first draw cuts the 9 bytes to 0).  usb_bulk_msg()
     * succeeds with 0 bytes, ds_recv_data() returns 0 (356), ds_read_block()
     * counts it as done (651-657).  Whatever ds2490.c makes of it, the
     * CRC check of read_scratchpad() must not take it: right (after a
     * retry) or empty; and the 9 bytes the chip still holds must not
     * come with the next read (c).
     */
    {"F4 fault ep3:5:ep3-short, a zero-length packet for the scratchpad: "
     "w1_slave right or empty, never a wrong reading marked YES",
     NEED_THERM, OP_THERM, 3, "ep3:5:ep3-short", "ep3-short=1",
     C_RIGHT | C_ERROR},
    /*
     * e1's eeprom, 8 bytes at 0: eeprom_read() -> w1_f2d_readblock()
     * (w1_ds2431.c) selects (9 bytes), writes READ MEMORY and the address
     * (3), reads 8 (bytes 13-20), and does it all again into cmp (21-40);
     * byte 15 is buf[2].  The proof read differs, memcmp() fails, the
     * next of W1_F2D_READ_RETRIES attempts is clean: the right 8 bytes.
     */
    {"F5 fault byte:15:bit-flip (e1 eeprom byte 2): w1_ds2431's proof "
     "read reads again, the 8 bytes right",
     NEED_DS2431, OP_EEPROM, 0, "byte:15:bit-flip", "bit-flip=1", C_RIGHT},
    /*
     * A netlink SEARCH is one SEARCH_ACCESS with RST and F
     * (ds9490r_search(), ds2490.c:735-741); its first pass's reset sees no
     * presence pulse: the chip reports NRS, F flushes what the command
     * had, the search ends idle with no ids (778).  What the chip said
     * is an empty bus; w1_search_process_cb() lowers each slave's ttl
     * (slave_ttl 2: none detached) and the next SEARCH finds all four.
     */
    {"F6 fault reset:1:no-presence on a netlink SEARCH: no ids, then the "
     "next SEARCH finds all four",
     NEED_NETLINK, OP_SEARCH, 0, "reset:1:no-presence", "no-presence=1",
     C_FEWER | C_ERROR},
    /*
     * The SEARCH_ACCESS itself (COMM 1) never ends.  ds9490r_search()
     * polls the status until IDLE or HALT (ds2490.c:744-778) with no bound
     * but W1_ABORT_SEARCH; the netlink request may go unanswered, but the
     * master must come back once the plan is cleared.
     */
    {"F7 fault comm:1:never-idle on a netlink SEARCH: the next SEARCH finds "
     "all four",
     NEED_NETLINK, OP_SEARCH, 0, "comm:1:never-idle", "never-idle=1",
     C_RIGHT | C_FEWER | C_ERROR},
    /*
     * The same zero-length packet for EP3 read 1, the read-back of the
     * select's 9 bytes (ds_write_block(), ds2490.c:664-683; its result
     * is ignored by ds9490r_write_block()).  The 9 bytes stay in the
     * chip's EP3 FIFO and come with the next read: unless the driver
     * drops them, every later read of the master gets the bytes of the
     * command before it, and the bus never works again (c).
     */
    {"F8 fault ep3:1:ep3-short, a zero-length packet for the select's "
     "read-back: w1_slave right or empty, and right once the plan is "
     "cleared",
     NEED_THERM, OP_THERM, 3, "ep3:1:ep3-short", "ep3-short=1",
     C_RIGHT | C_ERROR},
    /*
     * Vendor request 1 of the read, the COMM 1_WIRE_RESET of ds_reset(),
     * STALLed and not executed: ds_send_control() fails, reset_bus()
     * says no device, reset_select_slave() fails and convert_t() tries
     * again (w1_therm.c:1113-1160).  Right after a retry, or empty.
     */
    {"F9 fault vendor:1:stall, the reset request STALLed: w1_slave right "
     "or empty, and right once the plan is cleared",
     NEED_THERM, OP_THERM, 0, "vendor:1:stall", "stall=1",
     C_RIGHT | C_ERROR},
    /*
     * A netlink SEARCH's one vendor request, the SEARCH_ACCESS
     * (ds9490r_search(), ds2490.c:741), STALLed: the search ends without
     * ids (search_out); the next SEARCH finds all four.
     */
    {"F10 fault vendor:1:stall on a netlink SEARCH: no ids, then the next "
     "SEARCH finds all four",
     NEED_NETLINK, OP_SEARCH, 0, "vendor:1:stall", "stall=1",
     C_RIGHT | C_FEWER | C_ERROR},
    /*
     * An eeprom read of e1: w1_f2d_readblock() selects it (ds_reset(),
     * vendor request 1; the MATCH ROM block, ds_write_block(): its 9
     * bytes to EP2, then the BLOCK_IO COMM, request 2).  Request 2
     * STALLed: the 9 bytes stay in the chip's EP2 FIFO, and the next
     * BLOCK_IO takes them for its own, unless the driver drops them.
     * Right after a retry or an error, and right once the plan is cleared.
     */
    {"F11 fault vendor:2:stall, the select's BLOCK_IO STALLed in an eeprom "
     "read of e1: right or an error, and right once the plan is cleared",
     NEED_DS2431, OP_EEPROM, 0, "vendor:2:stall", "stall=1",
     C_RIGHT | C_ERROR},
    /*
     * Surprise removal (unplug: the device leaves the USB bus right after
     * the transfer of the event named).  The driver's next transfer fails
     * (-EPROTO, -ENODEV, -ESHUTDOWN), the USB core calls ds_disconnect(),
     * which removes the master (w1_remove_master_device() stops its
     * thread, after the search or the slave operation in progress).  Any
     * answer but wrong data is fair; the operation must end within its
     * bound, the master must go, and once the device is plugged in again
     * the four slaves must come back and answer (c).  The kernel log is
     * judged too: an oops, a WARN or (on the kasan variant) a KASAN report
     * fails the run.  U1, the unplug inside ds_probe(), is its own case
     * (probe_case()).
     */
    {"U2 unplug as a netlink SEARCH starts (comm:1:unplug): the master "
     "goes, and comes back with all four when plugged in",
     NEED_NETLINK, OP_SEARCH, 0, "comm:1:unplug", "unplug=1",
     C_RIGHT | C_FEWER | C_ERROR},
    /* COMM 3 is CONVERT T: the device goes as w1_therm sleeps 750 ms */
    {"U3 unplug during t1's conversion (comm:3:unplug): w1_slave empty, "
     "the master goes and comes back when plugged in",
     NEED_THERM, OP_THERM, 0, "comm:3:unplug", "unplug=1",
     C_RIGHT | C_ERROR},
    /* COMM 7 is the scratchpad's BLOCK_IO: its EP3 read meets no device */
    {"U4 unplug in the scratchpad read (comm:7:unplug): w1_slave empty, "
     "the master goes and comes back when plugged in",
     NEED_THERM, OP_THERM, 0, "comm:7:unplug", "unplug=1",
     C_RIGHT | C_ERROR},
    /* EP3 read 2 is the DS2431's READ MEMORY command read back */
    {"U5 unplug in an eeprom read of e1 (ep3:2:unplug): an error, the "
     "master goes and comes back when plugged in",
     NEED_DS2431, OP_EEPROM, 0, "ep3:2:unplug", "unplug=1",
     C_RIGHT | C_ERROR},
};

/* Append "; " and a formatted problem to list. */
KTAP_PRINTF(3, 4)
static void problem(char *list, size_t len, const char *fmt, ...)
{
    size_t n = strlen(list);
    va_list ap;

    if (n && n + 2 < len) {
        strcpy(list + n, "; ");
        n += 2;
    }
    va_start(ap, fmt);
    vsnprintf(list + n, len - n, fmt, ap);
    va_end(ap);
}

/* The DS2490's cable, pulled (false) or plugged in: QEMU's "attached". */
static int set_attached(bool on, char *msg, size_t ml)
{
    if (pbctl_qom_set_bool(DS2490_QOM, "attached", on)) {
        snprintf(msg, ml, "qom-set attached %s: %.100s", on ? "true" : "false",
                 pbctl_last_reply());
        return -1;
    }
    return 0;
}

/* Pulled: the cable out and the master gone; 0, or -1 with msg. */
static int pull_cable(char *msg, size_t ml)
{
    long long end = now_ms() + REBIND_MS;

    if (set_attached(false, msg, ml)) {
        return -1;
    }
    while (path_exists(W1_MASTER) && now_ms() < end) {
        sleep_ms(50);
    }
    if (path_exists(W1_MASTER)) {
        snprintf(msg, ml, "the master was still there %d ms after the cable "
                 "was pulled", REBIND_MS);
        return -1;
    }
    return 0;
}

/* Plugged in with the plan pl: the four slaves back, the search stopped. */
static int plug_in(const char *pl, char *msg, size_t ml)
{
    if (pbctl_fault_plan(DS2490_QOM, "", pl)) {
        snprintf(msg, ml, "%.300s", pbctl_last_reply());
        return -1;
    }
    if (set_attached(true, msg, ml)) {
        return -1;
    }
    if (!wait_for_discovery(SL_COUNT, REBIND_MS)) {
        snprintf(msg, ml, "%d slaves not there %d ms after plugging in",
                 SL_COUNT, REBIND_MS);
        return -1;
    }
    write_str(W1_MASTER "/w1_master_search", "0\n");
    sleep_ms(1200);
    return 0;
}

/*
 * After an unplug: the master gone (ds_disconnect() done), the device
 * plugged in again, the four slaves back, the search stopped.  0, or -1
 * with what did not happen in msg.
 */
static int replug(char *msg, size_t ml)
{
    char v[16];

    if (pbctl_qom_get(DS2490_QOM, "attached", v, sizeof(v)) ||
        strcmp(v, "false")) {
        snprintf(msg, ml, "the device is still attached (%.40s)", v);
        return -1;
    }
    if (pull_cable(msg, ml) || plug_in("", msg, ml)) {
        return -1;
    }
    snprintf(msg, ml, "unplugged, the master gone, plugged in again");
    return 0;
}

static int fault_case(unsigned long i, char *why)
{
    const struct wf_row *row = &rows[i];
    char desc[KT_WHY_LEN], rdesc[KT_WHY_LEN], counts[256], seed[32];
    char rb[160] = "", list[1024] = "";
    enum wf_class c, rc;
    long long t0, ms;
    int tries;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!wf_ready()) {
        return kt_fail(why, "no shared page for the child's result");
    }
    if (wf_take_reference(row->op, why)) {
        wf_eeprom_restore(row->op);
        return KTAP_FAIL;
    }
    snprintf(seed, sizeof(seed), row->seed ? "seed=%llu" : "",
             (unsigned long long)row->seed);
    if (pbctl_fault_plan(DS2490_QOM, seed, row->script)) {
        kt_fail(why, "fault plan of the ds2490: %.300s", pbctl_last_reply());
        pbctl_fault_plan(DS2490_QOM, "", "");
        wf_eeprom_restore(row->op);
        return KTAP_FAIL;
    }
    t0 = now_ms();
    c = wf_op_run(row->op, wf_op_bound(row->op), desc, sizeof(desc));
    ms = now_ms() - t0;
    if (pbctl_qom_get_str(DS2490_QOM, "fault-counts", counts,
                          sizeof(counts))) {
        kt_fail(why, "%.300s", pbctl_last_reply());
        pbctl_fault_plan(DS2490_QOM, "", "");
        wf_eeprom_restore(row->op);
        return KTAP_FAIL;
    }
    if (pbctl_fault_plan(DS2490_QOM, "", "")) {
        return kt_fail(why, "clearing the plan: %.300s", pbctl_last_reply());
    }
    ktap_print_msg("%s: %s after %lld ms: %s; fault-counts \"%s\"", row->script,
                   wf_class_name(c), ms, desc, counts);
    /* the plan pulled the cable: plug it in again */
    if (strstr(row->script, "unplug") && replug(rb, sizeof(rb))) {
        /* the cable in again, whatever the master did */
        set_attached(true, desc, sizeof(desc));
        problem(list, sizeof(list), "%s", rb);
        rb[0] = '\0';
    }

    rc = wf_recover(row->op, RECOVER_MS, &tries, rdesc, sizeof(rdesc));
    ktap_print_msg("plan cleared: %s after %d tries in %lld ms: %s",
                   wf_class_name(rc), tries, now_ms() - t0 - ms, rdesc);
    if (rc != C_RIGHT) {
        wf_print_master_thread();
        /* bring the master back for the cases after this one */
        wf_rebind(rb, sizeof(rb));
        ktap_print_msg("last resort: %s", rb);
    }
    wf_eeprom_restore(row->op);

    /* what matters most first: a hang, wrong data, no recovery */
    if (c == C_HUNG || c == C_WRONG) {
        problem(list, sizeof(list), "with %s: %s, %s", row->script,
                wf_class_name(c), desc);
    }
    if (rc != C_RIGHT) {
        problem(list, sizeof(list),
                "with the plan cleared the master did not come back: %s "
                "after %d tries (%s); %s",
                wf_class_name(rc), tries, rdesc, rb);
    }
    if (list[0]) {
        return kt_fail(why, "%.390s", list);
    }
    if (strcmp(counts, row->fired)) {
        return kt_fail(why,
                       "fault-counts \"%s\", expected \"%s\": the planned "
                       "fault %s, so the case proves nothing",
                       counts, row->fired,
                       counts[0] ? "was not the one that fired"
                                 : "never fired");
    }
    if (!(c & row->accept)) {
        return kt_fail(why,
                       "with %s: %s (%s), not what the driver's code leads "
                       "to",
                       row->script, wf_class_name(c), desc);
    }
    return KTAP_PASS;
}

/*
 * Faults inside ds_probe().  With the device unplugged, the plan is set and
 * the device plugged in: ds_w1_init() resets the chip (ds_reset_device():
 * CTL_RESET_DEVICE, vendor request 1, then MOD_PULSE_EN, request 2) and
 * adds the master, whose thread searches at once.  The four slaves must
 * come (back) and t1 must answer.
 */
static const struct probe_row {
    const char *name;
    const char *script;
    const char *fired;
} probe_rows[] = {
    /*
     * The device goes right after request 2; the probe goes on to
     * w1_add_master_device(), whose search meets a device that is gone,
     * then the USB core disconnects it; it is plugged in again.
     */
    {"U1 unplug inside ds_probe() (vendor:2:unplug): the master goes, and "
     "comes back with all four when plugged in",
     "vendor:2:unplug", "unplug=1"},
    /* ds_reset_device() does not look at what its requests return */
    {"P1 CTL_RESET_DEVICE STALLed in ds_probe() (vendor:1:stall): the "
     "master comes up with all four, t1 right",
     "vendor:1:stall", "stall=1"},
    {"P2 MOD_PULSE_EN STALLed in ds_probe() (vendor:2:stall): \"Error "
     "allowing strong pullup\", the master comes up with all four, t1 right",
     "vendor:2:stall", "stall=1"},
};

static int probe_case(unsigned long i, char *why)
{
    const struct probe_row *row = &probe_rows[i];
    char msg[KT_WHY_LEN], counts[256] = "", rb[160] = "", list[1024] = "";
    enum wf_class rc;
    long long end;
    int tries;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!wf_ready()) {
        return kt_fail(why, "no shared page for the child's result");
    }
    if (wf_take_reference(OP_THERM, why)) {
        return KTAP_FAIL;
    }
    if (pull_cable(msg, sizeof(msg))) {
        problem(list, sizeof(list), "%s", msg);
    }
    if (pbctl_fault_plan(DS2490_QOM, "", row->script) ||
        set_attached(true, msg, sizeof(msg))) {
        kt_fail(why, "%.300s", pbctl_last_reply());
        pbctl_fault_plan(DS2490_QOM, "", "");
        set_attached(true, msg, sizeof(msg));
        return KTAP_FAIL;
    }
    /* the plan fires in the probe, a few milliseconds after the plug */
    end = now_ms() + REBIND_MS;
    while (now_ms() < end &&
           (pbctl_qom_get_str(DS2490_QOM, "fault-counts", counts,
                              sizeof(counts)) ||
            strcmp(counts, row->fired))) {
        sleep_ms(50);
    }
    if (pbctl_fault_plan(DS2490_QOM, "", "")) {
        return kt_fail(why, "clearing the plan: %.300s", pbctl_last_reply());
    }
    ktap_print_msg("%s: fault-counts \"%s\"", row->script, counts);
    if (strcmp(counts, row->fired)) {
        set_attached(true, msg, sizeof(msg));
        problem(list, sizeof(list), "fault-counts \"%s\", expected \"%s\": "
                "the fault never fired in the probe", counts, row->fired);
    } else if (strstr(row->script, "unplug") && replug(msg, sizeof(msg))) {
        set_attached(true, rb, sizeof(rb));
        problem(list, sizeof(list), "%s", msg);
    } else if (!strstr(row->script, "unplug") &&
               plug_in("", msg, sizeof(msg))) {
        problem(list, sizeof(list), "%s", msg);
    }
    rc = wf_recover(OP_THERM, RECOVER_MS, &tries, msg, sizeof(msg));
    ktap_print_msg("plugged in: %s after %d tries: %s",
                   wf_class_name(rc), tries, msg);
    if (rc != C_RIGHT) {
        wf_print_master_thread();
        wf_rebind(rb, sizeof(rb));
        problem(list, sizeof(list), "t1 did not answer right once plugged "
                "in: %s after %d tries (%s); %s", wf_class_name(rc), tries,
                msg, rb);
    }
    return list[0] ? kt_fail(why, "%.390s", list) : KTAP_PASS;
}

/*
 * ds_probe()'s standard requests STALLed (std-stall): usb_reset_configuration()
 * (SET_CONFIGURATION) and usb_set_interface() (SET_INTERFACE, alternate 3)
 * are the last standard requests of a plug-in, before the probe's vendor
 * requests.  Their numbers depend on the kernel's enumeration, so the case
 * counts a clean plug-in first (fault-events "std=K"): SET_INTERFACE is
 * K, SET_CONFIGURATION K - 1.  The probe must fail with its message, no
 * master must appear, and plugged in again without the plan the bus works.
 */
static const struct std_row {
    const char *name;
    int back;            /* requests before the last standard one */
    const char *message; /* ds_probe()'s dev_err() */
} std_rows[] = {
    {"P3 SET_INTERFACE STALLed in ds_probe() (std-stall): the probe fails "
     "with its message, no master; plugged in again, all four and t1 right",
     0, "Failed to set alternative setting 3 for 0 interface: err=-32"},
    {"P4 SET_CONFIGURATION STALLed in ds_probe() (std-stall): the probe "
     "fails with its message, no master; plugged in again, all four, t1 right",
     1, "Failed to reset configuration: err=-32"},
};

static int std_probe_case(unsigned long i, char *why)
{
    const struct std_row *row = &std_rows[i];
    char msg[KT_WHY_LEN], ev[256] = "", counts[256] = "", pl[64];
    char marker[96], tmp[160], list[1024] = "";
    const char *p;
    long long end;
    enum wf_class rc;
    int tries, k;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!wf_ready()) {
        return kt_fail(why, "no shared page for the child's result");
    }
    /* a clean plug-in, counted */
    if (pull_cable(msg, sizeof(msg)) || plug_in("", msg, sizeof(msg)) ||
        pbctl_qom_get_str(DS2490_QOM, "fault-events", ev, sizeof(ev))) {
        set_attached(true, tmp, sizeof(tmp));
        return kt_fail(why, "counting a clean plug-in: %.300s", msg);
    }
    p = strstr(ev, "std=");
    k = p ? atoi(p + 4) - row->back : 0;
    if (k < 1) {
        return kt_fail(why, "fault-events \"%s\" counts no standard request",
                       ev);
    }
    snprintf(pl, sizeof(pl), "std:%d:std-stall", k);
    if (pull_cable(msg, sizeof(msg))) {
        set_attached(true, tmp, sizeof(tmp));
        return kt_fail(why, "%.300s", msg);
    }
    kmsg_mark(marker, sizeof(marker), "w1_faults std-stall");
    if (pbctl_fault_plan(DS2490_QOM, "", pl) ||
        set_attached(true, msg, sizeof(msg))) {
        pbctl_fault_plan(DS2490_QOM, "", "");
        set_attached(true, msg, sizeof(msg));
        return kt_fail(why, "%.300s", pbctl_last_reply());
    }
    end = now_ms() + REBIND_MS;
    while (now_ms() < end &&
           (pbctl_qom_get_str(DS2490_QOM, "fault-counts", counts,
                              sizeof(counts)) ||
            strcmp(counts, "std-stall=1") ||
            klog_has_after(marker, row->message) != 1)) {
        sleep_ms(50);
    }
    /* the probe's end, and a master that must not come */
    sleep_ms(1000);
    ktap_print_msg("%s (fault-events \"%s\" for a clean plug-in): "
                   "fault-counts \"%s\"", pl, ev, counts);
    if (strcmp(counts, "std-stall=1")) {
        problem(list, sizeof(list), "fault-counts \"%s\", expected "
                "\"std-stall=1\"", counts);
    } else if (klog_has_after(marker, row->message) != 1) {
        problem(list, sizeof(list), "no \"%s\" in the kernel log: the STALL "
                "was not the request the case means", row->message);
    }
    if (path_exists(W1_MASTER)) {
        problem(list, sizeof(list), "a master came up although the probe "
                "failed");
    }
    if (pull_cable(msg, sizeof(msg)) || plug_in("", msg, sizeof(msg))) {
        set_attached(true, tmp, sizeof(tmp));
        problem(list, sizeof(list), "plugged in again: %s", msg);
    }
    pbctl_fault_plan(DS2490_QOM, "", "");
    rc = wf_recover(OP_THERM, RECOVER_MS, &tries, msg, sizeof(msg));
    ktap_print_msg("plugged in again: %s after %d tries: %s",
                   wf_class_name(rc), tries, msg);
    if (rc != C_RIGHT) {
        problem(list, sizeof(list), "t1 after plugging in again: %s after %d "
                "tries (%.100s)", wf_class_name(rc), tries, msg);
    }
    return list[0] ? kt_fail(why, "%.390s", list) : KTAP_PASS;
}

/* Every slave of the default bus on it (true) or off it. */
static int all_present(bool on, char *why)
{
    char path[64];

    for (int k = 0; k < SL_COUNT; k++) {
        snprintf(path, sizeof(path), QOM_PERIPH "%s", w1_slaves[k].qom);
        if (pbctl_qom_set_bool(path, "present", on)) {
            return kt_fail(why, "qom-set %s present %s: %.300s", path,
                           on ? "true" : "false", pbctl_last_reply());
        }
    }
    return 0;
}

/*
 * V1: the slaves leave the bus between the search and a read, as iButtons
 * taken off their reader (their "present" false; the background search is
 * stopped, so the w1 core keeps them listed).  w1_f2d_readblock()
 * (w1_ds2431.c) selects e1 with w1_reset_select_slave(), which fails when
 * the master's reset_bus() reports no presence pulse.  If it does not,
 * nobody answers the READ MEMORY, the bus reads 0xff, twice, and the proof
 * read agrees: eight 0xff bytes as e1's data.  (One slave gone among
 * others cannot be told from the reset: the others answer it.)
 */
static int vanished_slave_case(unsigned long i, char *why)
{
    char desc[KT_WHY_LEN], list[1024] = "";
    enum wf_class c, rc;
    int tries;

    (void)i;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!wf_ready()) {
        return kt_fail(why, "no shared page for the child's result");
    }
    if (wf_take_reference(OP_EEPROM, why)) {
        wf_eeprom_restore(OP_EEPROM);
        return KTAP_FAIL;
    }
    if (all_present(false, why)) {
        all_present(true, desc);
        wf_eeprom_restore(OP_EEPROM);
        return KTAP_FAIL;
    }
    c = wf_op_run(OP_EEPROM, wf_op_bound(OP_EEPROM), desc, sizeof(desc));
    ktap_print_msg("the slaves gone: %s: %s", wf_class_name(c), desc);
    if (all_present(true, why)) {
        return KTAP_FAIL;
    }
    rc = wf_recover(OP_EEPROM, RECOVER_MS, &tries, desc, sizeof(desc));
    ktap_print_msg("back: %s after %d tries: %s", wf_class_name(rc), tries,
                   desc);
    wf_eeprom_restore(OP_EEPROM);
    if (c != C_ERROR) {
        problem(list, sizeof(list), "with the slaves off the bus: %s, not an "
                "error", wf_class_name(c));
    }
    if (rc != C_RIGHT) {
        problem(list, sizeof(list), "with the slaves back: %s after %d tries "
                "(%s)", wf_class_name(rc), tries, desc);
    }
    return list[0] ? kt_fail(why, "%.390s", list) : KTAP_PASS;
}

/* ---- the table ------------------------------------------------------------ */

static struct kt_row fault_rows[ARRAY_SIZE(rows) + ARRAY_SIZE(probe_rows) +
                                ARRAY_SIZE(std_rows) + 1];

void w1nl_faults_init(void)
{
    size_t i;

    wf_init();
    for (i = 0; i < ARRAY_SIZE(rows); i++) {
        fault_rows[i] =
            (struct kt_row){rows[i].name, rows[i].needs, fault_case, i};
    }
    for (size_t k = 0; k < ARRAY_SIZE(probe_rows); k++, i++) {
        fault_rows[i] = (struct kt_row){probe_rows[k].name, NEED_THERM,
                                        probe_case, k};
    }
    for (size_t k = 0; k < ARRAY_SIZE(std_rows); k++, i++) {
        fault_rows[i] = (struct kt_row){std_rows[k].name, NEED_THERM,
                                        std_probe_case, k};
    }
    fault_rows[i] = (struct kt_row){
        "V1 the slaves off the bus after the search: e1's eeprom read fails "
        "(no presence pulse), never eight 0xff bytes as data; back, right",
        NEED_DS2431, vanished_slave_case, 0};
}

const struct w1nl_part w1nl_faults = {fault_rows, ARRAY_SIZE(fault_rows)};
