/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmclock.c - a VM's own time (vmclock.h). */
#include <stdlib.h>

#include "vmclock.h"

void vm_clock_init(VmClock *c, gint64 now_us)
{
    c->run_delay_ns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                            g_free);
    c->last_us = now_us;
    c->stalled_us = 0;
}

void vm_clock_clear(VmClock *c)
{
    g_clear_pointer(&c->run_delay_ns, g_hash_table_unref);
}

gboolean vm_clock_parse_schedstat(const char *text, gint64 *run_delay_ns)
{
    /* "<on-CPU ns> <run_delay ns> <timeslices>\n" */
    char *end;
    gint64 v;

    g_ascii_strtoull(text, &end, 10);
    if (end == text || *end != ' ') {
        return FALSE;
    }
    text = end + 1;
    v = (gint64)g_ascii_strtoull(text, &end, 10);
    if (end == text || (*end != ' ' && *end != '\n' && *end != '\0')) {
        return FALSE;
    }
    *run_delay_ns = v;
    return TRUE;
}

gint64 vm_clock_stall_us(const gint64 *growth_ns, guint n, gint64 interval_us)
{
    gint64 most = 0;

    for (guint i = 0; i < n; i++) {
        most = MAX(most, growth_ns[i]);
    }
    return CLAMP(most / 1000, 0, MAX(interval_us, 0));
}

void vm_clock_sample(VmClock *c, int pid, gint64 now_us)
{
    g_autofree char *task = g_strdup_printf("/proc/%d/task", pid);
    g_autoptr(GDir) dir = g_dir_open(task, 0, NULL);
    g_autoptr(GArray) growth = g_array_new(FALSE, FALSE, sizeof(gint64));
    const char *tid;

    while (dir && (tid = g_dir_read_name(dir))) {
        g_autofree char *path = g_build_filename(task, tid, "schedstat", NULL);
        g_autofree char *text = NULL;
        gint64 delay, *last;

        if (!g_file_get_contents(path, &text, NULL, NULL) ||
            !vm_clock_parse_schedstat(text, &delay)) {
            continue;
        }
        last = g_hash_table_lookup(c->run_delay_ns, tid);
        if (last) {
            gint64 grew = delay - *last;

            g_array_append_val(growth, grew);
            *last = delay;
        } else {
            /* a new thread: its delay so far is before our interval */
            g_hash_table_insert(c->run_delay_ns, g_strdup(tid),
                                g_memdup2(&delay, sizeof(delay)));
        }
    }
    c->stalled_us += vm_clock_stall_us((const gint64 *)growth->data,
                                       growth->len, now_us - c->last_us);
    c->last_us = now_us;
}

gint64 vm_clock_now(const VmClock *c, gint64 now_us)
{
    return now_us - c->stalled_us;
}
