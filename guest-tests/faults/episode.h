/* SPDX-License-Identifier: GPL-2.0 */
/*
 * episode.h - the guest side of a fault campaign (scripts/patchbay faults,
 * docs/hostile-hardware.md "Campaigns"), shared by the device programs
 * faults_ds2490 and faults_agpu (episode.c).
 *
 * An episode is one seed: set the device's plan "seed=S,<rates>" through
 * the control channel, run one iteration of the device's workload in a
 * child with a deadline, clear the plan, and check, in a child with a
 * deadline too, that the device gives the right data again.  Each episode
 * is one KTAP test, "seed S".  The kernel log of the episode is read from
 * /dev/kmsg: a crash report there, a flood of lines, a hung operation,
 * wrong data presented as good, or a device that does not come back is a
 * finding; the program prints it and stops, so that the host starts a
 * fresh VM from the next seed:
 *
 *     # faultcamp rates: ep3-short=4,stall=1
 *     ok 1 seed 100
 *     # faultcamp finding seed=101 kind=wrong-data op=ds2413-state: ...
 *     not ok 2 seed 101 # wrong-data in ds2413-state: ...
 *
 * The kernel command line says what to run (images/suites/NAME.append, the
 * host's --append): faultcamp.first=S (the first seed), faultcamp.count=N
 * (episodes), faultcamp.replay=1 (reproduce one episode: the plan is on
 * QEMU's command line, where record/replay sees it, so the program sets
 * and clears nothing, and checks the device with the plan still on).
 */
#ifndef PATCHBAY_FAULTS_EPISODE_H
#define PATCHBAY_FAULTS_EPISODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helpers.h"

/* One kind of the device's plan and its probability, in per mille. */
struct fc_rate {
    const char *kind;
    unsigned permille;
};

/* What one workload operation gave, written by the child. */
enum fc_verdict {
    FC_RIGHT = 0, /* the right data, or an error the driver reported */
    FC_WRONG,     /* wrong data presented as good, where the driver checks */
};

/*
 * The child's report, in shared memory: the operation it is in (for a
 * hang's title), and the first wrong answer with what it was.
 */
struct fc_report {
    char op[48];
    char wrong_op[48]; /* the operation that gave the wrong data */
    enum fc_verdict verdict;
    char detail[KT_WHY_LEN];
    int done;
};

struct fc_device {
    const char *name; /* "ds2490" */
    const char *qom;  /* QOM path of the device */
    const struct fc_rate *rates;
    size_t nrates;
    /* Once per VM, before the first episode: the device found, references. */
    int (*setup)(char *why);
    /* One iteration under the plan, in a child; fills rep (fc_op(), fc_wrong()). */
    void (*workload)(uint64_t seed, struct fc_report *rep);
    long workload_ms;
    /* With the plan cleared, in a child: 0 when the device works again. */
    int (*recover)(struct fc_report *rep);
    long recover_ms;
};

/* Name the operation the child starts now (a hang is reported in it). */
void fc_op(struct fc_report *rep, const char *op);

/* Record wrong data presented as good by the current operation. */
KTAP_PRINTF(2, 3) void fc_wrong(struct fc_report *rep, const char *fmt, ...);

/* The campaign: parse the command line, set up, run the episodes. */
int fc_main(const struct fc_device *dev);

#endif /* PATCHBAY_FAULTS_EPISODE_H */
