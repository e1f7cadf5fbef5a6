/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - what every guest suite shares (common/helpers.c): the
 * case-table runner, errno names, time, and small file helpers.
 *
 * A suite is a table of cases. Each has a name, the kernel options it
 * needs, and a function that does the call and compares the result with
 * the expected one. The function returns KTAP_PASS, or the value of
 * kt_fail()/kt_skip(), which write the reason into why:
 *
 *     static int c_flag_bit(unsigned long bit, char *why)
 *     {
 *         int err = try_flags(1ul << bit);
 *
 *         return kt_expect_errno(why, "flags", err, EINVAL);
 *     }
 *
 *     for (bit = 2; bit < 32; bit++)
 *         kt_add(c_flag_bit, bit, "flags bit %lu rejected with EINVAL", bit);
 *     return kt_run(setup);
 *
 * A static table works the same way through kt_add_table(). kt_run() prints
 * the KTAP header and plan, runs setup once (when it fails, every case fails
 * with its reason: a named result for each, not a missing plan), runs each
 * case or skips it naming the kernel options that are missing, and returns
 * main()'s exit code.
 */
#ifndef PATCHBAY_HELPERS_H
#define PATCHBAY_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ktap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The size of a case's why buffer. */
#define KT_WHY_LEN 400
/* The longest case name. */
#define KT_NAME_LEN 200

/* A case: the call and the comparison, on argument arg. */
typedef int (*kt_case_fn)(unsigned long arg, char *why);

struct kt_case {
    char name[KT_NAME_LEN];
    kt_case_fn fn;
    unsigned long arg;
    const char *needs; /* kernel options, blank-separated, or NULL */
};

/* One row of a static table: name, kernel options, function, argument. */
struct kt_row {
    const char *name;
    const char *needs;
    kt_case_fn fn;
    unsigned long arg;
};

/* Add a case; name is a printf format. Returns the case, for tweaks. */
KTAP_PRINTF(3, 4)
struct kt_case *kt_add(kt_case_fn fn, unsigned long arg, const char *fmt, ...);
KTAP_PRINTF(4, 5)
struct kt_case *kt_add_needs(const char *needs, kt_case_fn fn,
                             unsigned long arg, const char *fmt, ...);
/* Add every row of a static table. */
void kt_add_table(const struct kt_row *rows, size_t n);

/* The cases added so far. */
unsigned int kt_count(void);

/*
 * Print the header and plan, run setup (may be NULL; non-zero return with a
 * reason in why fails every case), then each case in order. Returns the exit
 * code for main().
 */
int kt_run(int (*setup)(char *why));

/*
 * Run the cases without the header, plan and totals (a program that prints
 * its own plan, or runs the table as one part of several).
 */
void kt_run_cases(int (*setup)(char *why));

/* Write a reason into why (KT_WHY_LEN) and return KTAP_FAIL / KTAP_SKIP. */
KTAP_PRINTF(2, 3) int kt_fail(char *why, const char *fmt, ...);
KTAP_PRINTF(2, 3) int kt_skip(char *why, const char *fmt, ...);

/*
 * Compare an errno value (0 for success) with the expected one: KTAP_PASS,
 * or KTAP_FAIL with "what: got EXXX, expected EYYY" (or "succeeded").
 */
int kt_expect_errno(char *why, const char *what, int got, int want);

/* Prefix the reason in why with "pfx: " (when it is not empty). */
void kt_why_prefix(char *why, const char *pfx);

/* "EINVAL", "ENOENT", ... or "E<n>" (a static buffer) for an unknown one. */
const char *errno_name(int err);

/* ---- time ---- */

long long now_ms(void); /* CLOCK_MONOTONIC */
void sleep_ms(long ms); /* restarts on EINTR */

/* ---- strings and files ---- */

/* Copy with truncation, always NUL-terminated (len > 0). */
void str_copy(char *dst, const char *src, size_t len);

/* Read a whole (small) file, NUL-terminated; bytes read or -errno. */
ssize_t read_file(const char *path, char *buf, size_t len);
KTAP_PRINTF(3, 4)
ssize_t read_filef(char *buf, size_t len, const char *fmt, ...);
/* A decimal or 0x file ("%ld\n"); 0, -errno, or -EINVAL. */
int read_long(const char *path, long *val);
/* One write() of the whole string; 0 or -errno (-EIO when short). */
int write_str(const char *path, const char *s);
bool path_exists(const char *path);

#endif /* PATCHBAY_HELPERS_H */
