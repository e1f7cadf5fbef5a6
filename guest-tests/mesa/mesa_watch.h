/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_watch.h - what the kernel and the GPU did during a case
 * (mesa_watch.c).
 */
#ifndef PATCHBAY_MESA_WATCH_H
#define PATCHBAY_MESA_WATCH_H

#include <stdbool.h>

/* Start watching: the kernel log from now on, and the interrupt count. */
void watch_begin(void);

/*
 * The end of a GPU case: 0 if a submit reached the GPU (when need_submit)
 * and the kernel logged no msm error, else -1 with why (WHY_LEN).
 */
int watch_end(char *why, bool need_submit);

#endif /* PATCHBAY_MESA_WATCH_H */
