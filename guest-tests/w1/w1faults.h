/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1faults.h - what w1_faults.c (the cases) and w1_faults_ops.c (the
 * operations and their judgement) share.
 */
#ifndef PATCHBAY_W1FAULTS_H
#define PATCHBAY_W1FAULTS_H

#include <stdbool.h>
#include <stddef.h>

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

/* The shared page the operations' children write; false: no page. */
void wf_init(void);
bool wf_ready(void);

/* Run op within ms: its class, with what it gave in desc. */
enum wf_class wf_op_run(enum wf_op op, long ms, char *desc, size_t dl);
/* op's bound, from the driver's timeouts */
long wf_op_bound(enum wf_op op);
/*
 * The operation again and again, each within its own bound, until it is
 * right, hangs, or ms have passed.
 */
enum wf_class wf_recover(enum wf_op op, long ms, int *tries, char *desc,
                         size_t dl);
const char *wf_class_name(enum wf_class c);
/* A clean run before the plan, to compare with: 0, or KTAP_FAIL with why. */
int wf_take_reference(enum wf_op op, char *why);
/* e1's first block as it was before an eeprom case wrote its pattern. */
void wf_eeprom_restore(enum wf_op op);
/* Unbind and bind the DS9490R driver, the search stopped again: 0 or -1. */
int wf_rebind(char *msg, size_t ml);
/* Where the master's thread waits, as a diagnostic. */
void wf_print_master_thread(void);

#endif /* PATCHBAY_W1FAULTS_H */
