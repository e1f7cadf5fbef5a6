/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the VM clock (runner/vmclock.h). */
#include <pthread.h>
#include <unistd.h>

#include "vmclock.h"

static void test_parse(void)
{
    gint64 ns = -1;

    g_assert_true(vm_clock_parse_schedstat("123 456 7\n", &ns));
    g_assert_cmpint(ns, ==, 456);
    g_assert_true(vm_clock_parse_schedstat("0 98765432101 12", &ns));
    g_assert_cmpint(ns, ==, 98765432101);
    g_assert_false(vm_clock_parse_schedstat("", &ns));
    g_assert_false(vm_clock_parse_schedstat("123", &ns));
    g_assert_false(vm_clock_parse_schedstat("123 x 7", &ns));
    g_assert_false(vm_clock_parse_schedstat("x 1 2", &ns));
}

static void test_stall(void)
{
    /* the most held-back thread, capped at the interval, never negative */
    const gint64 g1[] = {2000000, 300000000, 0};
    const gint64 g2[] = {5000000000};
    const gint64 g3[] = {-7000};

    g_assert_cmpint(vm_clock_stall_us(g1, 3, 1000000), ==, 300000);
    g_assert_cmpint(vm_clock_stall_us(g2, 1, 1000000), ==, 1000000);
    g_assert_cmpint(vm_clock_stall_us(g3, 1, 1000000), ==, 0);
    g_assert_cmpint(vm_clock_stall_us(NULL, 0, 1000000), ==, 0);
}

static volatile gboolean spin_stop;

static void *spin(void *arg)
{
    (void)arg;
    while (!spin_stop) {
    }
    return NULL;
}

/*
 * Live: more spinning threads than CPUs wait for one, and the clock of
 * this process falls behind the wall clock by about that wait; with no
 * more threads than CPUs it hardly does. Bounds, not timings: the
 * machine may be busy with other work too.
 */
static void test_live(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    guint n = (guint)MAX(cpus, 1) * 3;
    g_autofree pthread_t *threads = g_new(pthread_t, n);
    VmClock clock;
    gint64 start = g_get_monotonic_time(), end, vt;

    vm_clock_init(&clock, start);
    vm_clock_sample(&clock, getpid(), start); /* learns the threads */
    spin_stop = FALSE;
    for (guint i = 0; i < n; i++) {
        g_assert_cmpint(pthread_create(&threads[i], NULL, spin, NULL), ==, 0);
    }
    vm_clock_sample(&clock, getpid(), g_get_monotonic_time());
    g_usleep(600000);
    end = g_get_monotonic_time();
    vm_clock_sample(&clock, getpid(), end);
    spin_stop = TRUE;
    for (guint i = 0; i < n; i++) {
        pthread_join(threads[i], NULL);
    }
    vt = vm_clock_now(&clock, end);
    g_test_message("wall %.2f s, own %.2f s, %u threads on %ld CPUs",
                   (end - start) / 1e6, (vt - start) / 1e6, n, cpus);
    /* 3 threads a CPU: each waits about 2/3 of the time */
    g_assert_cmpint(clock.stalled_us, >, 200000);
    g_assert_cmpint(vt, >=, start);
    g_assert_cmpint(vt, <=, end);
    /* a process that is gone adds nothing */
    vm_clock_sample(&clock, 0x7ffffffe, end + 1000000);
    g_assert_cmpint(vm_clock_now(&clock, end + 1000000), ==, vt + 1000000);
    vm_clock_clear(&clock);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/vmclock/parse", test_parse);
    g_test_add_func("/vmclock/stall", test_stall);
    g_test_add_func("/vmclock/live", test_live);
    return g_test_run();
}
