/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktaplimits.h - how much of a guest's console the host keeps and believes.
 *
 * The console is the guest's to write, and a hostile or broken guest can
 * write anything: a plan of a million tests, names of megabytes, a line that
 * never ends, a crash report per line.  Every cost of judging a console is
 * bounded by these caps, so memory and time stay linear in the console's
 * size.  They are far above what real runs reach (the largest run has about
 * 1100 tests, 3 levels of nesting, test paths under 160 bytes, lines under
 * 4 KiB, a few crash reports and 180 KiB of console per VM).
 *
 * Past a cap the run fails: the console's record gets a crash-like report of
 * kind "limit" whose excerpt reads "guest output exceeded KTAP_LIMIT_X (N
 * UNIT)", pinned on the running test, and the rest of that console is not
 * judged (what came before it is kept and written out).  Live runs and
 * patchbay-run --parse apply the same caps to the same lines.
 * docs/hostile-guests.md has the story.
 */
#pragma once

/* Tests in one console's tree, the "#N (missing)" ones finish adds included. */
#define KTAP_LIMIT_TESTS 20000

/* Levels of nesting: suite / program / case is 3. */
#define KTAP_LIMIT_DEPTH 8

/*
 * Bytes of a test's path, its name and those of the tests it is in
 * ("suite/program/case", as in results.txt): this bounds each name, and the
 * JUnit class names and results.txt lines that repeat them for every test.
 */
#define KTAP_LIMIT_PATH 1024

/*
 * Bytes of one console line.  The runner cuts a longer line after this many
 * bytes and appends KTAP_LIMIT_LINE_CUT, so it is never held whole; a line
 * that ends with that mark is one the limit cut (run_record_feed).
 */
#define KTAP_LIMIT_LINE     65536 /* 64 KiB */
#define KTAP_LIMIT_LINE_CUT " [patchbay-run: line cut]"

/* Kernel crash reports (panic, oops, WARN, ...) in one console. */
#define KTAP_LIMIT_CRASH_REPORTS 1000

/* Bytes of one VM's console that console.log keeps ("NAME| " included). */
#define KTAP_LIMIT_CONSOLE 16777216 /* 16 MiB */

/*
 * Not failures, just bounds on what is kept: a crash report's excerpt stops
 * growing at this many bytes; a plan or a test number larger than these is
 * garbage, not KTAP (and keeps number + 1 from overflowing).
 */
#define KTAP_EXCERPT_MAX_BYTES 16384
#define KTAP_MAX_PLAN          100000
#define KTAP_MAX_NUMBER        10000000

/* The excerpt of a limit report: "guest output exceeded LIMIT (N UNIT)". */
#define KTAP_LIMIT_MESSAGE(limit, unit) \
    ("guest output exceeded " #limit " (" G_STRINGIFY(limit) " " unit ")")
