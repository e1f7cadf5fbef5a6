/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - a tiny header-only KTAP v1 printer for guest test programs.
 *
 *	ktap_print_header();
 *	ktap_set_plan(2);
 *	ktap_test_pass("open %s", path);
 *	ktap_test_fail("close", "got %d, expected %d", got, want);
 *	return ktap_finished();
 *
 * prints
 *
 *	KTAP version 1
 *	1..2
 *	ok 1 open /tmp/x
 *	not ok 2 close # got -1, expected 0
 *	# Totals: pass:1 fail:1 skip:0
 *
 * Every line is flushed as soon as it is written, so the host sees progress
 * even if the guest dies half way.  The counters are static: include this
 * header from a single translation unit per program.
 */
#ifndef PATCHBAY_KTAP_H
#define PATCHBAY_KTAP_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KTAP_PRINTF(fmt_idx, args_idx) \
	__attribute__((format(printf, fmt_idx, args_idx)))

static struct {
	unsigned int planned;
	unsigned int ran;
	unsigned int passed;
	unsigned int failed;
	unsigned int skipped;
} ktap_counts;

static inline void ktap_print_header(void)
{
	printf("KTAP version 1\n");
	fflush(stdout);
}

/*
 * After each result, "patchbay-ktap: SUITE/PROGRAM N" into the kernel log:
 * there it is ordered with the kernel's own reports, which the host pins on
 * the test that was running (the KTAP lines reach the console later,
 * through /init's pipe). Only when /init runs the program (it sets
 * PATCHBAY_KMSG_MARKS), not by hand at the shell; silent if /dev/kmsg
 * cannot be opened.
 */
static inline void ktap_mark_result(void)
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
	if (fd < 0)
		return;
	/* <12>: user facility, warning level, so that loglevel=5 prints it */
	n = snprintf(line, sizeof(line), "<12>patchbay-ktap: %s %u\n", program,
		     ktap_counts.ran);
	if (n > 0 && n < (int)sizeof(line) && write(fd, line, n) < 0)
		fd = -1;
}

static inline void ktap_set_plan(unsigned int n)
{
	ktap_counts.planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

/* A "# " diagnostic line; the newline is added here. */
static inline KTAP_PRINTF(1, 2) void ktap_print_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

/* The name is a printf format. */
static inline KTAP_PRINTF(1, 2) void ktap_test_pass(const char *fmt, ...)
{
	va_list ap;

	ktap_counts.passed++;
	va_start(ap, fmt);
	printf("ok %u ", ++ktap_counts.ran);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	ktap_mark_result();
}

/* The reason is a printf format; KTAP puts it after the name as "# reason". */
static inline KTAP_PRINTF(2, 3) void ktap_test_fail(const char *name,
						    const char *fmt, ...)
{
	va_list ap;

	ktap_counts.failed++;
	va_start(ap, fmt);
	printf("not ok %u %s # ", ++ktap_counts.ran, name);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	ktap_mark_result();
}

static inline KTAP_PRINTF(2, 3) void ktap_test_skip(const char *name,
						    const char *fmt, ...)
{
	va_list ap;

	ktap_counts.skipped++;
	va_start(ap, fmt);
	printf("ok %u %s # SKIP ", ++ktap_counts.ran, name);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	ktap_mark_result();
}

/*
 * Print the totals and return the exit code for main(): 0 when nothing
 * failed, 1 otherwise.  Running a different number of tests than planned is
 * a failure too, since the plan line already promised that number.
 */
static inline int ktap_finished(void)
{
	int plan_broken = ktap_counts.ran != ktap_counts.planned;

	if (plan_broken)
		ktap_print_msg("planned %u tests but ran %u",
			       ktap_counts.planned, ktap_counts.ran);
	ktap_print_msg("Totals: pass:%u fail:%u skip:%u", ktap_counts.passed,
		       ktap_counts.failed, ktap_counts.skipped);
	return ktap_counts.failed || plan_broken ? 1 : 0;
}

#endif /* PATCHBAY_KTAP_H */
