/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_faults_ops.c - what the F and U cases (w1_faults.c) do to the bus and
 * how they judge it: the driver operations, each in a child with a
 * deadline, their classes (right, an error, fewer ids, wrong, hung), the
 * references taken before a plan, recovery, and the last resort of
 * binding the driver again.  The bounds are in w1faults.h.
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
#include "w1faults.h"

static struct wf_res *res; /* MAP_SHARED, one page */
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
enum wf_class wf_op_run(enum wf_op op, long ms, char *desc, size_t dl)
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

long wf_op_bound(enum wf_op op)
{
    return op == OP_THERM ? THERM_MS : op == OP_EEPROM ? EEPROM_MS : SEARCH_MS;
}

/* ---- the last resort: unbind and bind the driver --------------------------- */

int wf_rebind(char *msg, size_t ml)
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


const char *wf_class_name(enum wf_class c)
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

void wf_eeprom_restore(enum wf_op op)
{
    if (op == OP_EEPROM && ee_written) {
        if (eeprom_write(ee_saved)) {
            ktap_print_msg("restoring e1's first 8 bytes failed");
        }
        ee_written = false;
    }
}

/*
 * The references: a clean run of the operation right before the plan (the
 * class wf_op_run() gives it is not looked at: it compares with the old one).
 */
int wf_take_reference(enum wf_op op, char *why)
{
    char desc[KT_WHY_LEN];
    unsigned int b[9];
    uint8_t sp[9];

    if (op == OP_SEARCH) {
        return 0; /* the four default slaves */
    }
    if (op == OP_EEPROM) {
        /* not the zeros it powers up with: a zero-filled read must differ */
        if (w1_read_eeprom(ee_saved, EE_LEN) || eeprom_write(ee_pattern)) {
            return kt_fail(why, "e1's eeprom: cannot read and write 8 bytes");
        }
        ee_written = true;
        wf_op_run(op, wf_op_bound(op), desc, sizeof(desc));
        if (res->len != EE_LEN || memcmp(res->data, ee_pattern, EE_LEN)) {
            return kt_fail(why, "e1's eeprom before the plan: %.300s", desc);
        }
        memcpy(ref_ee, res->data, EE_LEN);
        return 0;
    }
    wf_op_run(op, wf_op_bound(op), desc, sizeof(desc));
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
 * Recovery: the operation, again and again (each within its own bound),
 * until it is right, hangs, or ms have passed.
 */
enum wf_class wf_recover(enum wf_op op, long ms, int *tries, char *desc,
                             size_t dl)
{
    long long end = now_ms() + ms;
    enum wf_class c;

    *tries = 0;
    do {
        ++*tries;
        c = wf_op_run(op, wf_op_bound(op), desc, dl);
    } while (c != C_RIGHT && c != C_HUNG && now_ms() < end);
    return c;
}

/* Where the master's thread (comm w1_bus_master1) waits, as a diagnostic. */
void wf_print_master_thread(void)
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

void wf_init(void)
{
    void *p = mmap(NULL, sizeof(struct wf_res), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    res = p == MAP_FAILED ? NULL : p;
}

bool wf_ready(void)
{
    return res != NULL;
}
