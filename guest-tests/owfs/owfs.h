/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owfs.h - what the parts of owfs_test share: the default topology, the two
 * modes, and the case table that runs in the child (owfs_cases.c) while the
 * parent prints the KTAP (owfs_test.c).
 */
#ifndef PATCHBAY_OWFS_H
#define PATCHBAY_OWFS_H

#include <stddef.h>
#include <stdio.h>

#include "ktap.h"

#define QOM_T1 "/machine/peripheral/t1"

#define T1      "28.3D2C1B0A0000" /* DS18B20 at 21.5 C */
#define E1      "2D.332211000000" /* DS2431 */
#define P1      "29.665544000000" /* DS2408, pio-input=255 */
#define P2      "3A.998877000000" /* DS2413 */
#define NSLAVES 4                 /* T1, E1, P1, P2 */

#define T1_MC    21500
#define NEED_CTL "CONFIG_VIRTIO_PCI CONFIG_VIRTIO_CONSOLE"

struct mode {
    const char *prefix; /* of the case names */
    const char *init;   /* OW_init() arguments */
    int limit_s;        /* the whole mode (/init allows owfs.timeout in all) */
    /*
     * in every byte the DS2431 cases write: the second mode cannot pass
     * on the first one's data
     */
    unsigned char mark;
};

/* A case or a step failed: the reason into why (wl bytes). */
#define FAIL(...)                       \
    do {                                \
        snprintf(why, wl, __VA_ARGS__); \
        return KTAP_FAIL;               \
    } while (0)

/* The case table: its size and the names (owfs_cases.c). */
size_t owfs_ncases(void);
const char *owfs_case_name(size_t i);

/*
 * The child: OW_init(m->init), each case's start and result reported on fd
 * (common/child.h), OW_finish(), exit 0. A crash handler writes the pc and
 * the lr chain to stderr (the log) first.
 */
void owfs_child(const struct mode *m, int fd) __attribute__((noreturn));

#endif /* PATCHBAY_OWFS_H */
