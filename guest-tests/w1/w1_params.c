/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_params - the w1params suite: the w1 core's module parameters from the
 * kernel command line, with a DS2490 on the bus (images/suites/w1params.*;
 * docs/suites/w1params.md).
 *
 * The VM boots with wire.max_slave_count=0. The sysfs attribute refuses a
 * count below 1 (w1many's M7 cases); the parameter took any int until
 * kernel-patches/0008, every new master copied it, and ds9490r_search()
 * sized its id array by it: the DS2490's first search oopsed in the
 * master's thread. With the fix the kernel refuses the value, says so, and
 * the master keeps the default of 64 and searches.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "w1util.h"

#define PARAM       "wire.max_slave_count"
#define BAD_VALUE   "0"
#define DEFAULT_MAX 64
#define PROBE_MS    20000 /* the DS2490 enumerated and its first search */
#define SEARCH_MS   10000 /* two searches, 1 s apart (w1params.append) */

/* kernel/params.c's parse_args() on a value the parameter refuses */
#define REFUSED_MSG "`" BAD_VALUE "' invalid for parameter `" PARAM "'"

static int c_refused_logged(unsigned long arg, char *why)
{
    char *log = klog_read_all();
    bool found = log && strstr(log, REFUSED_MSG);

    if (!log) {
        return kt_fail(why, "cannot read the kernel log: %s", strerror(errno));
    }
    free(log);
    if (!found) {
        return kt_fail(why, "the kernel log has no \"%s\"", REFUSED_MSG);
    }
    return KTAP_PASS;
}

static int c_default_kept(unsigned long arg, char *why)
{
    long v;

    if (read_long(W1_MASTER "/w1_master_max_slave_count", &v)) {
        return kt_fail(why, "read w1_master_max_slave_count: %s",
                       strerror(errno));
    }
    if (v != DEFAULT_MAX) {
        return kt_fail(why, "w1_master_max_slave_count %ld, expected %d", v,
                       DEFAULT_MAX);
    }
    return KTAP_PASS;
}

/* Two more searches end, and the bus's one slave is listed. */
static int c_searches(unsigned long arg, char *why)
{
    long n;

    if (!wait_searches(2, SEARCH_MS)) {
        return kt_fail(why, "fewer than 2 searches within %d ms "
                       "(w1_master_attempts)", SEARCH_MS);
    }
    n = master_slave_count();
    if (n != 1) {
        return kt_fail(why, "w1_master_slave_count %ld, expected 1", n);
    }
    return KTAP_PASS;
}

static const struct kt_row cases[] = {
    { "P1 " PARAM "=" BAD_VALUE " on the command line refused, the kernel "
      "says so", NULL, c_refused_logged, 0 },
    { "P2 the DS2490's master keeps max_slave_count 64, the default", NULL,
      c_default_kept, 0 },
    { "P3 the master searches: 2 more searches, its one slave listed", NULL,
      c_searches, 0 },
};

/* the parameter under test on the command line, the master searching */
static int setup(char *why)
{
    char cmdline[4096];
    const char *p;

    if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0) {
        return kt_fail(why, "read /proc/cmdline: %s", strerror(errno));
    }
    p = strstr(cmdline, " " PARAM "=" BAD_VALUE);
    if (!p || !strchr(" \n", p[sizeof(" " PARAM "=" BAD_VALUE) - 1])) {
        return kt_fail(why, "%s=%s is not on the kernel command line "
                       "(images/suites/w1params.append)", PARAM, BAD_VALUE);
    }
    if (!wait_searches(1, PROBE_MS)) {
        return kt_fail(why, "no search on %s within %d ms (w1_master_attempts)",
                       W1_MASTER, PROBE_MS);
    }
    return KTAP_PASS;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    kt_add_table(cases, ARRAY_SIZE(cases));
    ktap_print_header();
    ktap_set_plan(kt_count());
    kt_run_cases(setup);
    return ktap_finished();
}
