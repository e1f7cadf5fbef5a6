/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.c - KTAP v1 output for guest test programs (see ktap.h).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"

static struct {
    unsigned int planned;
    unsigned int ran;
    unsigned int passed;
    unsigned int failed;
    unsigned int skipped;
} counts;

void ktap_print_header(void)
{
    printf("KTAP version 1\n");
    fflush(stdout);
}

void ktap_set_plan(unsigned int n)
{
    counts.planned = n;
    printf("1..%u\n", n);
    fflush(stdout);
}

unsigned int ktap_tests_run(void)
{
    return counts.ran;
}

/*
 * After each result, "patchbay-ktap: SUITE/PROGRAM N" into the kernel log:
 * there it is ordered with the kernel's own reports, which the host pins on
 * the test that was running (the KTAP lines reach the console later,
 * through /init's pipe). Only when /init runs the program (it sets
 * PATCHBAY_KMSG_MARKS), not by hand at the shell; silent if /dev/kmsg
 * cannot be opened.
 */
static void mark_result(void)
{
    static int fd = -2;
    static char program[128];
    char line[192];
    int n;

    if (fd == -2) {
        char exe[160];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

        fd = -1;
        if (getenv("PATCHBAY_KMSG_MARKS") && len > 8 &&
            len < (ssize_t)sizeof(exe) - 1) {
            exe[len] = '\0';
            if (strncmp(exe, "/suites/", 8) == 0 &&
                strlen(exe + 8) < sizeof(program)) {
                strcpy(program, exe + 8);
                fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
            }
        }
    }
    if (fd < 0) {
        return;
    }
    /* <12>: user facility, warning level, so that loglevel=5 prints it */
    n = snprintf(line, sizeof(line), "<12>patchbay-ktap: %s %u\n", program,
                 counts.ran);
    if (n > 0 && n < (int)sizeof(line) && write(fd, line, n) < 0) {
        fd = -1;
    }
}

void ktap_print_msg(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
}

void ktap_test_result(enum ktap_result r, const char *name, const char *why)
{
    counts.ran++;
    if (r == KTAP_PASS) {
        counts.passed++;
        printf("ok %u %s\n", counts.ran, name);
    } else if (r == KTAP_SKIP) {
        counts.skipped++;
        printf("ok %u %s # SKIP %s\n", counts.ran, name, why ? why : "");
    } else {
        counts.failed++;
        printf("not ok %u %s # %s\n", counts.ran, name,
               why && why[0] ? why : "failed");
    }
    fflush(stdout);
    mark_result();
}

static void vresult(enum ktap_result r, const char *name, const char *fmt,
                    va_list ap)
{
    char why[1024];

    vsnprintf(why, sizeof(why), fmt, ap);
    ktap_test_result(r, name, why);
}

void ktap_test_pass(const char *name)
{
    ktap_test_result(KTAP_PASS, name, NULL);
}

void ktap_test_fail(const char *name, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vresult(KTAP_FAIL, name, fmt, ap);
    va_end(ap);
}

void ktap_test_skip(const char *name, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vresult(KTAP_SKIP, name, fmt, ap);
    va_end(ap);
}

int ktap_finished(void)
{
    int plan_broken = counts.ran != counts.planned;

    if (plan_broken) {
        ktap_print_msg("planned %u tests but ran %u", counts.planned,
                       counts.ran);
    }
    ktap_print_msg("Totals: pass:%u fail:%u skip:%u", counts.passed,
                   counts.failed, counts.skipped);
    return counts.failed || plan_broken ? 1 : 0;
}
