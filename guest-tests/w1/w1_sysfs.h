/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_sysfs.h - what the parts of the w1_sysfs program share: each part
 * (w1_sysfs.c S1-S2, w1_sysfs_therm.c S3-S5, w1_sysfs_pio.c S10-S14) has
 * a case table that main() runs in that order.
 */
#ifndef PATCHBAY_W1_SYSFS_H
#define PATCHBAY_W1_SYSFS_H

#include "w1util.h"

/* the model's temperature of t1 in m°C (from the host when it can say) */
extern long t1_mC;

/* One pread() of a sysfs (binary) file at off: bytes, or -errno. */
int read_bin(const char *path, off_t off, void *buf, size_t len);

extern const struct kt_row w1_therm_cases[];
extern const size_t w1_therm_ncases;
extern const struct kt_row w1_pio_cases[];
extern const size_t w1_pio_ncases;

/* Seed the random eeprom patterns (S10, S11). */
void w1_pio_seed(uint64_t seed);

/* Undo what the S10-S14 cases left changed (best effort). */
void w1_pio_restore(void);

#endif /* PATCHBAY_W1_SYSFS_H */
