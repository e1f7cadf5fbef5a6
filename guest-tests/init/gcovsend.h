/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gcovsend: the kernel's gcov counters to the host (see gcovsend.c).
 */
#pragma once

#include <stddef.h>

/*
 * Mount debugfs if needed and send every .gcda of /sys/kernel/debug/gcov to
 * the virtio-serial port "patchbay.gcov". 0 when all went; diag says what
 * was sent, or why not (one line, no newline).
 */
int gcov_send(char *diag, size_t len);
