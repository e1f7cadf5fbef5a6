/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa.h - what the parts of mesa_egl share: the cases and their results
 * (reported by the Mesa child to the parent as common/child.h says:
 * mesa_child.c, mesa_main.c).
 */
#ifndef PATCHBAY_MESA_H
#define PATCHBAY_MESA_H

#include <stddef.h>
#include <stdio.h>

#include "child.h"   /* the reports */
#include "helpers.h" /* ARRAY_SIZE, now_ms, sleep_ms */

/* The EGL driver Mesa must load, freedreno's msm_dri.so, not swrast */
#define WANT_DRIVER "msm"

/* A case returns KTAP_PASS, KTAP_FAIL or KTAP_SKIP, the reason in why. */
#define WHY_LEN CHILD_REPORT_TEXT
#define PASS()  return KTAP_PASS
#define FAIL(...)                            \
    do {                                     \
        snprintf(why, WHY_LEN, __VA_ARGS__); \
        return KTAP_FAIL;                    \
    } while (0)
#define SKIP(...)                            \
    do {                                     \
        snprintf(why, WHY_LEN, __VA_ARGS__); \
        return KTAP_SKIP;                    \
    } while (0)

/* A case: its KTAP name, and a function that says why it failed or skipped */
struct mcase {
    const char *name;
    int (*fn)(char *why);
};

/* The Mesa cases, run in order in the child (mesa_egl.c) */
extern const struct mcase mesa_cases[];
extern const size_t mesa_ncases;

/* The child: runs mesa_cases, reports on report_fd, waits on ack_fd */
void mesa_child(int report_fd, int ack_fd) __attribute__((noreturn));

/* A diagnostic line in the parent's KTAP: from the child, any thread */
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* PATCHBAY_MESA_H */
