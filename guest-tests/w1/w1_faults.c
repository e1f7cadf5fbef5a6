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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "child.h"
#include "pbctl.h"
#include "w1nl.h"

#define DS2490_QOM QOM_PERIPH "ds2490"
#define DRV_DIR    "/sys/bus/usb/drivers/DS9490R"
#define EE_LEN     8 /* one W1_F2D_READ_MAXLEN block of e1's eeprom */

/*
 * Bounds, from the driver's own timeouts: every USB transfer of ds2490.c
 * gives up after 1000 ms (usb_bulk_msg()/usb_control_msg() timeouts at
 * ds2490.c:175-364), ds_wait_status() polls the status at most 100 times
 * (ds2490.c:445).  A w1_therm read is convert_t() (750 ms conversion at 12
 * bits) plus read_scratchpad()'s W1_THERM_MAX_TRY = 5 attempts
 * (w1_therm.c:54, 1303) of at most 3 transfers that can time out: about
 * 20 s at worst; the bound is three times that.  w1_ds2431's
 * eeprom_read() makes W1_F2D_READ_RETRIES = 10 attempts of two reads
 * (w1_ds2431.c): 40 transfers, 40 s at worst, bound 120 s.  A netlink
 * SEARCH is one SEARCH_ACCESS whose ids w1_netlink replies with at once;
 * nl_list() waits 2 s for the first reply (RX_TIMEOUT_MS).
 */
#define THERM_MS  60000
#define EEPROM_MS 120000
#define SEARCH_MS 10000
/*
 * With the plan cleared, the operation is tried again until it is right,
 * for at most this long: a few clean reads (about 1 s each), or the
 * recovery ds_wait_status() starts (ds_reset_device() when the chip shows
 * ST_EPOF) and a read after it.
 */
#define RECOVER_MS 30000
#define REBIND_MS  20000 /* unbind, bind, the four slaves discovered again */

enum wf_op { OP_THERM, OP_EEPROM, OP_SEARCH };

/* What an operation gave: a class, and the details for the reason. */
enum wf_class {
    C_RIGHT = 1, /* the right data */
    C_ERROR = 2, /* an error the driver reported (or crc=NO) */
    C_FEWER = 4, /* a SEARCH that found some of the slaves, or none */
    C_WRONG = 8, /* wrong data presented as good: never acceptable */
    C_HUNG = 16, /* past the bound */
};

struct wf_row {
    const char *name;
    const char *needs;
    enum wf_op op;
    uint64_t seed;      /* faults "seed=N" (the draws: cut, bit), 0: none */
    const char *script; /* fault-script */
    const char *fired;  /* fault-counts afterwards, exactly */
    unsigned accept;    /* classes the driver's code leads to */
};

/* The operation's result, written by the child into shared memory. */
struct wf_res {
    int done;
    int err;     /* errno of a failed read, 0 */
    ssize_t len; /* bytes read */
    char text[600];
    uint8_t data[EE_LEN];
    int nids;
    uint8_t ids[16][8];
    char why[KT_WHY_LEN];
};

static struct wf_res *res;     /* MAP_SHARED, one page */
static char ref_w1_slave[600]; /* t1's w1_slave before the plan */
static uint8_t ref_ee[EE_LEN]; /* e1's first block before it */
static enum wf_op child_op;

/* ---- the operations, in a child ------------------------------------------ */

static void op_child(void *arg)
{
    char path[256];
    int fd;

    (void)arg;
    memset(res, 0, sizeof(*res));
    switch (child_op) {
    case OP_THERM:
        w1_slave_path(path, sizeof(path), T1, "w1_slave");
        res->len = read_file(path, res->text, sizeof(res->text));
        if (res->len < 0) {
            res->err = (int)-res->len;
        }
        break;
    case OP_EEPROM:
        w1_slave_path(path, sizeof(path), E1, "eeprom");
        fd = open(path, O_RDONLY | O_CLOEXEC);
        res->len = fd < 0 ? -1 : pread(fd, res->data, EE_LEN, 0);
        if (res->len < 0) {
            res->err = errno;
        }
        if (fd >= 0) {
            close(fd);
        }
        break;
    case OP_SEARCH:
        if (nl_list(W1_CMD_SEARCH, res->ids, 16, &res->nids, res->why,
                    sizeof(res->why))) {
            res->err = EPROTO; /* no reply, or not the 6.12 shape */
        }
        break;
    }
    res->done = 1;
    _exit(0);
}

/* The first line of a w1_slave text, for a reason. */
static void therm_desc(const char *text, char *desc, size_t dl)
{
    size_t n = strcspn(text, "\n");

    snprintf(desc, dl, "'%.*s'", (int)(n < 300 ? n : 300), text);
}

/*
 * w1_slave_show() (w1_therm.c:1588-1638): empty when convert_t() failed
 * (line 1612), else the bytes read ": crc=XX YES|NO", the bytes kept, and
 * t= from the bytes read (line 1634, also after NO).
 */
static enum wf_class therm_class(char *desc, size_t dl)
{
    const char *yes;

    if (res->len < 0) {
        snprintf(desc, dl, "read failed: %s", errno_name(res->err));
        return C_ERROR;
    }
    if (res->len == 0) {
        snprintf(desc, dl, "empty (w1_therm reported an error)");
        return C_ERROR;
    }
    therm_desc(res->text, desc, dl);
    yes = strstr(res->text, " YES\n");
    if (!yes && strstr(res->text, " NO\n")) {
        return C_ERROR; /* the CRC check flagged it */
    }
    if (!yes) {
        return C_WRONG; /* neither verdict: not w1_slave's format */
    }
    /* line 1 and t= must be the reference's; line 2 (kept bytes) too */
    return strcmp(res->text, ref_w1_slave) == 0 ? C_RIGHT : C_WRONG;
}

static enum wf_class eeprom_class(char *desc, size_t dl)
{
    char got[2 * EE_LEN + 1], want[2 * EE_LEN + 1];

    if (res->len < 0) {
        snprintf(desc, dl, "pread failed: %s", errno_name(res->err));
        return C_ERROR;
    }
    w1_hex(res->data, (size_t)res->len, got, sizeof(got));
    w1_hex(ref_ee, EE_LEN, want, sizeof(want));
    snprintf(desc, dl, "%zd bytes %s (before the plan: %s)", res->len, got,
             want);
    if (res->len == EE_LEN && !memcmp(res->data, ref_ee, EE_LEN)) {
        return C_RIGHT;
    }
    return C_WRONG;
}

/* Which of the four default slaves id is, or -1. */
static int slave_index(const uint8_t id[8])
{
    for (int k = 0; k < SL_COUNT; k++) {
        if (!memcmp(id, w1_slaves[k].id, 8)) {
            return k;
        }
    }
    return -1;
}

/*
 * A SEARCH's ids: all four (right), some of them each once (fewer: the
 * bus as the chip saw it), or an id no slave has or one twice (wrong).
 */
static enum wf_class search_class(char *desc, size_t dl)
{
    bool seen[SL_COUNT] = {false};

    if (res->err) {
        snprintf(desc, dl, "no answer: %.300s", res->why);
        return C_ERROR;
    }
    for (int i = 0; i < res->nids; i++) {
        int k = slave_index(res->ids[i]);
        char hex[17];

        if (k < 0 || seen[k]) {
            fmt_id(res->ids[i], hex);
            snprintf(desc, dl, "%d ids, %s %s", res->nids,
                     k < 0 ? "one no slave has:" : "twice:", hex);
            return C_WRONG;
        }
        seen[k] = true;
    }
    snprintf(desc, dl, "%d of the %d ids", res->nids, SL_COUNT);
    return res->nids == SL_COUNT ? C_RIGHT : C_FEWER;
}

/* Run op within ms; its class, with what it gave in desc. */
static enum wf_class op_run(enum wf_op op, long ms, char *desc, size_t dl)
{
    struct child_spec spec = {.fn = op_child, .total_ms = ms};
    struct child_result cr;
    char how[200];

    child_op = op;
    memset(res, 0, sizeof(*res));
    if (child_run(&spec, &cr) < 0) {
        snprintf(desc, dl, "fork: %s", errno_name(cr.err));
        return C_ERROR;
    }
    if (cr.timed_out || !res->done) {
        child_describe(&cr, "the operation", how, sizeof(how));
        snprintf(desc, dl, "%s (bound %ld ms)", how, ms);
        return cr.timed_out ? C_HUNG : C_ERROR;
    }
    switch (op) {
    case OP_THERM:
        return therm_class(desc, dl);
    case OP_EEPROM:
        return eeprom_class(desc, dl);
    default:
        return search_class(desc, dl);
    }
}

static long op_bound(enum wf_op op)
{
    return op == OP_THERM ? THERM_MS : op == OP_EEPROM ? EEPROM_MS : SEARCH_MS;
}

/* ---- the last resort: unbind and bind the driver --------------------------- */

static int rebind(char *msg, size_t ml)
{
    char dev[64], intf[96];
    long long end;

    if (ds2490_find(dev, sizeof(dev))) {
        snprintf(msg, ml, "no DS2490 USB device to rebind");
        return -1;
    }
    ds2490_intf(dev, intf, sizeof(intf));
    if (write_str(DRV_DIR "/unbind", intf)) {
        snprintf(msg, ml, "unbind %s failed", intf);
        return -1;
    }
    end = now_ms() + REBIND_MS;
    while (path_exists(W1_MASTER) && now_ms() < end) {
        sleep_ms(100);
    }
    if (write_str(DRV_DIR "/bind", intf)) {
        snprintf(msg, ml, "bind %s failed", intf);
        return -1;
    }
    if (!wait_for_discovery(SL_COUNT, REBIND_MS)) {
        snprintf(msg, ml, "%d slaves not back %d ms after the rebind", SL_COUNT,
                 REBIND_MS);
        return -1;
    }
    /* a new master searches every second: stop it again (c_setup()) */
    write_str(W1_MASTER "/w1_master_search", "0\n");
    sleep_ms(1200);
    snprintf(msg, ml, "the driver was unbound and bound again");
    return 0;
}

/* ---- the case ------------------------------------------------------------- */

static const char *class_name(enum wf_class c)
{
    switch (c) {
    case C_RIGHT:
        return "the right data";
    case C_ERROR:
        return "an error";
    case C_FEWER:
        return "fewer ids";
    case C_WRONG:
        return "WRONG DATA presented as good";
    default:
        return "A HANG";
    }
}

/* e1's first 8 bytes while F5 runs, and what they were before */
static const uint8_t ee_pattern[EE_LEN] = {0xf5, 0x5a, 0xa5, 0x3c,
                                           0xc3, 0x0f, 0xf0, 0x96};
static uint8_t ee_saved[EE_LEN];
static bool ee_written;

/* One pwrite() of 8 bytes at 0 into e1's eeprom (w1_ds2431's eeprom_write). */
static int eeprom_write(const uint8_t *p)
{
    char path[256];
    ssize_t n;
    int fd;

    w1_slave_path(path, sizeof(path), E1, "eeprom");
    fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    n = pwrite(fd, p, EE_LEN, 0);
    close(fd);
    return n == EE_LEN ? 0 : -1;
}

static void eeprom_restore(const struct wf_row *row)
{
    if (row->op == OP_EEPROM && ee_written) {
        if (eeprom_write(ee_saved)) {
            ktap_print_msg("restoring e1's first 8 bytes failed");
        }
        ee_written = false;
    }
}

/*
 * The references: a clean run of the operation right before the plan (the
 * class op_run() gives it is not looked at: it compares with the old one).
 */
static int take_reference(const struct wf_row *row, char *why)
{
    char desc[KT_WHY_LEN];
    unsigned int b[9];
    uint8_t sp[9];

    if (row->op == OP_SEARCH) {
        return 0; /* the four default slaves */
    }
    if (row->op == OP_EEPROM) {
        /* not the zeros it powers up with: a zero-filled read must differ */
        if (w1_read_eeprom(ee_saved, EE_LEN) || eeprom_write(ee_pattern)) {
            return kt_fail(why, "e1's eeprom: cannot read and write 8 bytes");
        }
        ee_written = true;
        op_run(row->op, op_bound(row->op), desc, sizeof(desc));
        if (res->len != EE_LEN || memcmp(res->data, ee_pattern, EE_LEN)) {
            return kt_fail(why, "e1's eeprom before the plan: %.300s", desc);
        }
        memcpy(ref_ee, res->data, EE_LEN);
        return 0;
    }
    op_run(row->op, op_bound(row->op), desc, sizeof(desc));
    if (res->len <= 0 ||
        sscanf(res->text, "%x %x %x %x %x %x %x %x %x", &b[0], &b[1], &b[2],
               &b[3], &b[4], &b[5], &b[6], &b[7], &b[8]) != 9 ||
        !strstr(res->text, " YES\n")) {
        return kt_fail(why, "t1's w1_slave before the plan: %.300s", desc);
    }
    for (int i = 0; i < 9; i++) {
        sp[i] = (uint8_t)b[i];
    }
    if (!scratchpad_ok(sp, desc, sizeof(desc))) {
        return kt_fail(why, "t1's w1_slave before the plan: %.300s", desc);
    }
    snprintf(ref_w1_slave, sizeof(ref_w1_slave), "%s", res->text);
    return 0;
}

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
};

/*
 * Recovery: the operation, again and again (each within its own bound),
 * until it is right, hangs, or ms have passed.
 */
static enum wf_class recover(enum wf_op op, long ms, int *tries, char *desc,
                             size_t dl)
{
    long long end = now_ms() + ms;
    enum wf_class c;

    *tries = 0;
    do {
        ++*tries;
        c = op_run(op, op_bound(op), desc, dl);
    } while (c != C_RIGHT && c != C_HUNG && now_ms() < end);
    return c;
}

/* Where the master's thread (comm w1_bus_master1) waits, as a diagnostic. */
static void print_master_thread(void)
{
    char path[64], comm[32], buf[2048];
    DIR *d = opendir("/proc");
    struct dirent *de;

    while (d && (de = readdir(d))) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/%.16s/comm", de->d_name);
        if (read_file(path, comm, sizeof(comm)) <= 0 ||
            strcmp(comm, "w1_bus_master1\n")) {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/%.16s/stack", de->d_name);
        if (read_file(path, buf, sizeof(buf)) <= 0) {
            snprintf(path, sizeof(path), "/proc/%.16s/wchan", de->d_name);
            read_file(path, buf, sizeof(buf));
        }
        for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
            ktap_print_msg("w1_bus_master1 (pid %s): %s", de->d_name, l);
        }
    }
    if (d) {
        closedir(d);
    }
}

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

static int fault_case(unsigned long i, char *why)
{
    const struct wf_row *row = &rows[i];
    char desc[KT_WHY_LEN], rdesc[KT_WHY_LEN], counts[256], seed[32];
    char rb[160] = "", list[1024] = "";
    enum wf_class c, rc;
    long long t0, ms;
    int tries, ret;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (!res) {
        return kt_fail(why, "no shared page for the child's result");
    }
    if (take_reference(row, why)) {
        eeprom_restore(row);
        return KTAP_FAIL;
    }
    snprintf(seed, sizeof(seed), row->seed ? "seed=%llu" : "",
             (unsigned long long)row->seed);
    if (pbctl_fault_plan(DS2490_QOM, seed, row->script)) {
        kt_fail(why, "fault plan of the ds2490: %.300s", pbctl_last_reply());
        pbctl_fault_plan(DS2490_QOM, "", "");
        eeprom_restore(row);
        return KTAP_FAIL;
    }
    t0 = now_ms();
    c = op_run(row->op, op_bound(row->op), desc, sizeof(desc));
    ms = now_ms() - t0;
    if (pbctl_qom_get_str(DS2490_QOM, "fault-counts", counts,
                          sizeof(counts))) {
        kt_fail(why, "%.300s", pbctl_last_reply());
        pbctl_fault_plan(DS2490_QOM, "", "");
        eeprom_restore(row);
        return KTAP_FAIL;
    }
    if (pbctl_fault_plan(DS2490_QOM, "", "")) {
        return kt_fail(why, "clearing the plan: %.300s", pbctl_last_reply());
    }
    ktap_print_msg("%s: %s after %lld ms: %s; fault-counts \"%s\"", row->script,
                   class_name(c), ms, desc, counts);

    rc = recover(row->op, RECOVER_MS, &tries, rdesc, sizeof(rdesc));
    ktap_print_msg("plan cleared: %s after %d tries in %lld ms: %s",
                   class_name(rc), tries, now_ms() - t0 - ms, rdesc);
    if (rc != C_RIGHT) {
        print_master_thread();
        /* bring the master back for the cases after this one */
        rebind(rb, sizeof(rb));
        ktap_print_msg("last resort: %s", rb);
    }
    eeprom_restore(row);

    /* what matters most first: a hang, wrong data, no recovery */
    if (c == C_HUNG || c == C_WRONG) {
        problem(list, sizeof(list), "with %s: %s, %s", row->script,
                class_name(c), desc);
    }
    if (rc != C_RIGHT) {
        problem(list, sizeof(list),
                "with the plan cleared the master did not come back: %s "
                "after %d tries (%s); %s",
                class_name(rc), tries, rdesc, rb);
    }
    if (list[0]) {
        ret = kt_fail(why, "%.390s", list);
        return ret;
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
                       row->script, class_name(c), desc);
    }
    return KTAP_PASS;
}

/* ---- the table ------------------------------------------------------------ */

static struct kt_row fault_rows[ARRAY_SIZE(rows)];

void w1nl_faults_init(void)
{
    void *p = mmap(NULL, sizeof(struct wf_res), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    res = p == MAP_FAILED ? NULL : p;
    for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
        fault_rows[i] =
            (struct kt_row){rows[i].name, rows[i].needs, fault_case, i};
    }
}

const struct w1nl_part w1nl_faults = {fault_rows, ARRAY_SIZE(fault_rows)};
