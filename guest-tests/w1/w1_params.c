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
#define PROBE_MS    20000 /* the DS2490 enumerated, its master there */
#define SEARCH_MS   10000 /* one search asked for, its slave listed */

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

/*
 * The VM boots with wire.search_count=0: no search until this one, so that a
 * kernel without the fix oopses here, in a named case.
 */
static int c_search(unsigned long arg, char *why)
{
    long long end = now_ms() + SEARCH_MS;
    long n;

    if (write_str(W1_MASTER "/w1_master_search", "1\n")) {
        return kt_fail(why, "write 1 to w1_master_search: %s",
                       strerror(errno));
    }
    while ((n = master_slave_count()) != 1 && now_ms() < end) {
        sleep_ms(100);
    }
    if (n != 1) {
        return kt_fail(why, "w1_master_slave_count %ld %d ms after asking for "
                       "a search, expected 1", n, SEARCH_MS);
    }
    return KTAP_PASS;
}

static const struct kt_row cases[] = {
    { "P1 " PARAM "=" BAD_VALUE " on the command line refused, the kernel "
      "says so", NULL, c_refused_logged, 0 },
    { "P2 the DS2490's master keeps max_slave_count 64, the default", NULL,
      c_default_kept, 0 },
    { "P3 a search asked for through w1_master_search lists the one slave",
      NULL, c_search, 0 },
};

/* the parameter under test on the command line, the DS2490's master there */
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
    for (long long end = now_ms() + PROBE_MS; !path_exists(W1_MASTER);) {
        if (now_ms() >= end) {
            return kt_fail(why, "no %s within %d ms", W1_MASTER, PROBE_MS);
        }
        sleep_ms(100);
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
