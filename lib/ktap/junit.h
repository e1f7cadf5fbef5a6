/* SPDX-License-Identifier: GPL-2.0-or-later */
/* junit.h - JUnit XML from the parsed KTAP tree and the crash reports */
#pragma once

#include <glib.h>

#include "ktap.h"

G_BEGIN_DECLS

/*
 * Write a JUnit XML file: one <testsuite> per top-level test of root (name =
 * suite name, tests/failures/skipped/errors counts, time from start_us/end_us),
 * one <testcase> per leaf (classname = the suite and intermediate names joined
 * with '.', name = leaf name), <failure> for fail (message = reason), <skipped>
 * for skip, <error message="incomplete"> for NONE; each crash in reports
 * becomes an <error type="KIND"> on the testcase whose path matches
 * report->test (prefix match on the slash path, "#N" matching test number N; if
 * no testcase matches, a synthetic testcase named after the rest of the path in
 * that suite, or a suite "(boot)").  A non-leaf test that reported "not ok" (or
 * never reported) although none of its leaves failed gets a testcase of its
 * own, so that fact is not lost.  The test log goes into <system-out>.  Atomic
 * write (g_file_set_contents).  crash_reports may be NULL.
 */
gboolean junit_write(const char *path, KtapTest *root, GPtrArray *crash_reports,
                     GError **error);

/* the same document as a string; g_free it */
char *junit_to_string(KtapTest *root, GPtrArray *crash_reports);

/*
 * One document for the n consoles of a run of several VMs: the suites of
 * roots[0], then of roots[1], ...; each crash of crash_reports[i] is filed
 * within roots[i]; time from the earliest start to the latest end.
 * crash_reports may be NULL.
 */
gboolean junit_runs_write(const char *path, KtapTest *const *roots,
                          GPtrArray *const *crash_reports, guint n,
                          GError **error);
char *junit_runs_to_string(KtapTest *const *roots,
                           GPtrArray *const *crash_reports, guint n);

G_END_DECLS
