/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The checks every device's fault plan tests make of its table
 * (models/ds2490, models/adreno): that the table is well formed, and that
 * the device's docs list its kinds as the code has them.  GLib, for the
 * unit tests only: it is not in faultplan_sources, so QEMU never sees it.
 * What is the device's own (its parser accepts each name) stays in its
 * test.
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef FAULTPLAN_CHECK_H
#define FAULTPLAN_CHECK_H

#include "faultplan.h"

/*
 * Every kind has its own name, lowercase words joined by dashes, an event
 * of the table and a description of some words; every event has a name;
 * the lookups say "unknown" (and nevents) past the end.
 */
void faultplan_check_table(const FaultPlanTable *t);

/*
 * The Markdown file named by the environment variable @env (meson test
 * sets it) has a section "## Fault plans" whose table of kinds
 * ("| `kind` | `event` | ...") lists @t's kinds with their events, all
 * of them and in their order.  Without @env the test is skipped.
 */
void faultplan_check_docs(const FaultPlanTable *t, const char *env);

#endif /* FAULTPLAN_CHECK_H */
