/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - KTAP v1 output for guest test programs (common/ktap.c).
 *
 *     ktap_print_header();
 *     ktap_set_plan(3);
 *     ktap_test_pass("open /tmp/x");
 *     ktap_test_fail("close", "got %d, expected %d", got, want);
 *     ktap_test_skip("DS2413 pins", "kernel lacks CONFIG_W1_SLAVE_DS2413");
 *     return ktap_finished();
 *
 * prints
 *
 *     KTAP version 1
 *     1..3
 *     ok 1 open /tmp/x
 *     not ok 2 close # got -1, expected 0
 *     ok 3 DS2413 pins # SKIP kernel lacks CONFIG_W1_SLAVE_DS2413
 *     # Totals: pass:1 fail:1 skip:1
 *
 * All three name the case first, as a plain string; fail and skip add a
 * printf reason, which KTAP puts after "# ". Every line is flushed as it is written, so the host sees
 * progress even if the guest dies half way. Most programs do not call these
 * directly: the case-table runner in helpers.h does.
 */
#ifndef PATCHBAY_KTAP_H
#define PATCHBAY_KTAP_H

#define KTAP_PRINTF(fmt_idx, args_idx) \
    __attribute__((format(printf, fmt_idx, args_idx)))

/* A case's outcome: also what a case function returns (helpers.h). */
enum ktap_result {
    KTAP_FAIL = -1,
    KTAP_PASS = 0,
    KTAP_SKIP = 1,
};

void ktap_print_header(void);
void ktap_set_plan(unsigned int n);

/* A "# " diagnostic line; the newline is added here. */
KTAP_PRINTF(1, 2) void ktap_print_msg(const char *fmt, ...);

void ktap_test_pass(const char *name);
KTAP_PRINTF(2, 3) void ktap_test_fail(const char *name, const char *fmt, ...);
KTAP_PRINTF(2, 3) void ktap_test_skip(const char *name, const char *fmt, ...);

/*
 * One result line of any kind: the form every runner uses. why may be
 * NULL or "" (a failure then says "failed"); it is ignored for a pass.
 */
void ktap_test_result(enum ktap_result r, const char *name, const char *why);

/* Results so far, for a program that plans in stages. */
unsigned int ktap_tests_run(void);

/*
 * Print the totals and return the exit code for main(): 0 when nothing
 * failed, 1 otherwise. Running a different number of tests than planned is
 * a failure too, since the plan line already promised that number.
 */
int ktap_finished(void);

#endif /* PATCHBAY_KTAP_H */
