/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmclock.h - a VM's own time: the wall clock, less the time QEMU's threads
 * waited for a host CPU.
 *
 * On a busy host a guest makes less progress per second of wall time: a
 * CPU-bound test that takes 40 s on a quiet machine takes minutes with
 * every core taken by another build. A hang watchdog in wall time would
 * call that a hang. The kernel counts, per thread, the time it was
 * runnable but not running (run_delay, the second field of
 * /proc/PID/task/TID/schedstat); a VM is held back by as much as its most
 * held-back thread. A guest that hangs idle waits for nothing, so its
 * clock runs as fast as the wall clock and the watchdog still fires in
 * time.
 */
#pragma once
#include <glib.h>

typedef struct {
    GHashTable *run_delay_ns; /* thread id -> run_delay at the last sample */
    gint64 last_us;           /* wall time of the last sample */
    gint64 stalled_us;        /* wall time the VM spent waiting for CPUs */
} VmClock;

void vm_clock_init(VmClock *c, gint64 now_us);
void vm_clock_clear(VmClock *c);

/*
 * Sample the threads of process pid (once a second is plenty): their
 * run_delay growth since the last sample, the largest, capped at the wall
 * time between the samples, counts as stalled. A process that is gone adds
 * nothing.
 */
void vm_clock_sample(VmClock *c, int pid, gint64 now_us);

/*
 * The VM's time at wall time now_us, never ahead of it (a sample may set
 * it back by up to the time since the previous one).
 */
gint64 vm_clock_now(const VmClock *c, gint64 now_us);

/* run_delay (ns) from the text of a schedstat file; FALSE if malformed. */
gboolean vm_clock_parse_schedstat(const char *text, gint64 *run_delay_ns);

/* The stall of one interval: the largest growth, in [0, interval_us]. */
gint64 vm_clock_stall_us(const gint64 *growth_ns, guint n, gint64 interval_us);
