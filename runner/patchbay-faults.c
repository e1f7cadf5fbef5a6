// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchbay-faults: a fault campaign (scripts/patchbay faults prepares the
 * kernel, QEMU and initramfs and calls it; docs/hostile-hardware.md
 * "Campaigns").
 *
 *   patchbay-faults --device ds2490|agpu --runner PATH --results DIR
 *                   [--seeds N]
 *                   [--first-seed S] [--per-vm N] [--no-reproduce]
 *                   [--repro-on-cmdline]
 *                   -- RUNNER_ARGS...
 *
 * RUNNER_ARGS are patchbay-run's, with the campaign's suite (the shell's
 * --suite, default w1faults or gpufaults). Each VM runs it with
 * faultcamp.first and .count on its
 * kernel command line: one episode per seed until a finding ends the VM,
 * then a new VM goes on from the next seed.  Each finding's first seed is
 * then run once more, alone in a fresh VM, recorded (the control channel
 * is then served inside QEMU, so the plan the guest sets replays; or,
 * with --repro-on-cmdline, with the plan on QEMU's command line from
 * boot), and the recording replayed.  Progress
 * goes to stderr, the table to stdout, the rest into DIR: vm-NNN/ (each
 * VM's result folder), repro-seed-S/ and repro-seed-S-replay/ (replayed
 * by patchbay-run --replay with the campaign's QEMU), and
 * findings.json (faultcamp.h).
 *
 * Exit codes: 0 no finding; 1 findings; 2 bad usage or trouble (a VM that
 * makes no progress, a runner that cannot start).
 */
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "faultcamp.h"

enum { EXIT_TROUBLE = 2 };

/*
 * The runner's --timeout: console silence that counts as a hung VM, and
 * (less 10 s) what /init lets the campaign program run in all.  The guest
 * prints a line per episode and bounds each of its operations itself (at
 * most 3 minutes), so silence is rare; the whole program needs its
 * episodes' time: at least VM_SILENCE_S, or this many ms per episode.
 */
#define VM_SILENCE_S   600
#define EPISODE_MAX_MS 2000
#define PROGRESS_S   10

/* A device: its name for --device, its QEMU driver for -global. */
typedef struct {
    const char *name, *qemu_driver;
} FcDeviceInfo;

static const FcDeviceInfo devices[] = {
    {"ds2490", "usb-ds2490"},
    {"agpu", "agpu"},
};

typedef struct {
    const FcDeviceInfo *dev;
    const char *runner, *results;
    char **run_args;
    guint per_vm;
    gboolean repro_cmdline;
    gint64 start_us;
    FcCampaign *camp;
} Campaign;

static const FcDeviceInfo *device_info(const char *name)
{
    for (guint i = 0; i < G_N_ELEMENTS(devices); i++) {
        if (g_strcmp0(name, devices[i].name) == 0) {
            return &devices[i];
        }
    }
    return NULL;
}

/* Results in a console.log so far: its "ok N seed S" lines. */
static guint episodes_in(const char *console)
{
    g_autofree char *text = NULL;
    guint n = 0;

    if (!g_file_get_contents(console, &text, NULL, NULL)) {
        return 0;
    }
    for (const char *p = text; (p = strstr(p, "ok ")) != NULL; p += 3) {
        const char *sp = strchr(p + 3, ' ');

        n += sp && g_str_has_prefix(sp, " seed ") &&
             (p == text || p[-1] == ' ' || p[-1] == '\n');
    }
    return n;
}

static void progress(Campaign *c, guint running, guint64 seed)
{
    double s = (g_get_monotonic_time() - c->start_us) / 1e6;
    guint done = c->camp->episodes + running;

    g_printerr("faults: %u/%u episodes, %u finding%s, %.0f episodes/min "
               "(VM %u from seed %" G_GUINT64_FORMAT ")\n",
               done, c->camp->seeds, fc_campaign_findings(c->camp),
               fc_campaign_findings(c->camp) == 1 ? "" : "s",
               s > 0 ? done * 60.0 / s : 0.0, c->camp->vms + 1, seed);
}

typedef struct {
    Campaign *c;
    const char *console;
    guint64 seed;
    gboolean done;
} Watch;

static void on_runner_exit(GObject *proc, GAsyncResult *res, gpointer data)
{
    Watch *w = data;

    g_subprocess_wait_finish(G_SUBPROCESS(proc), res, NULL);
    w->done = TRUE;
}

static gboolean on_tick(gpointer data)
{
    Watch *w = data;

    if (w->console) {
        progress(w->c, episodes_in(w->console), w->seed);
    }
    return G_SOURCE_CONTINUE;
}

/* The runner with the shell's arguments, then extra; its output into log,
 * progress from console every PROGRESS_S. Returns its exit status, or -1
 * with error set when it could not start. */
static int run_runner(Campaign *c, char **extra, const char *log,
                      const char *console, guint64 seed, GError **error)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_autoptr(GSubprocessLauncher) l =
        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_MERGE);
    g_autoptr(GSubprocess) p = NULL;
    Watch w = {c, console, seed, FALSE};
    guint tick;

    g_ptr_array_add(argv, (gpointer)c->runner);
    for (guint i = 0; c->run_args[i]; i++) {
        g_ptr_array_add(argv, c->run_args[i]);
    }
    for (guint i = 0; extra[i]; i++) {
        g_ptr_array_add(argv, extra[i]);
    }
    g_ptr_array_add(argv, NULL);
    g_subprocess_launcher_set_stdout_file_path(l, log);
    p = g_subprocess_launcher_spawnv(l, (const char *const *)argv->pdata, error);
    if (!p) {
        return -1;
    }
    g_subprocess_wait_async(p, NULL, on_runner_exit, &w);
    tick = g_timeout_add_seconds(PROGRESS_S, on_tick, &w);
    while (!w.done) {
        g_main_context_iteration(NULL, TRUE);
    }
    g_source_remove(tick);
    return g_subprocess_get_if_exited(p) ? g_subprocess_get_exit_status(p)
                                         : EXIT_TROUBLE;
}

/* One campaign VM from seed, count episodes at most. NULL on trouble. */
static FcVm *run_vm(Campaign *c, guint64 seed, guint count, GError **error)
{
    g_autofree char *dir = g_strdup_printf("%s/vm-%03u", c->results,
                                           c->camp->vms + 1);
    g_autofree char *log = g_build_filename(dir, "run.log", NULL);
    g_autofree char *console = g_build_filename(dir, "console.log", NULL);
    g_autofree char *a_results = g_strdup_printf("--results=%s", dir);
    g_autofree char *a_first = g_strdup_printf(
        "--append=faultcamp.first=%" G_GUINT64_FORMAT, seed);
    g_autofree char *a_count = g_strdup_printf("--append=faultcamp.count=%u", count);
    g_autofree char *a_timeout = g_strdup_printf(
        "--timeout=%u", MAX(VM_SILENCE_S, count * EPISODE_MAX_MS / 1000));
    char *extra[] = {a_results, a_first, a_count, a_timeout, "--deadline=0",
                     NULL};

    g_mkdir_with_parents(dir, 0755);
    if (run_runner(c, extra, log, console, seed, error) < 0) {
        return NULL;
    }
    return fc_vm_load(seed, dir, error);
}

/* The campaign's --qemu=PATH (the shell's), for a replay. */
static const char *campaign_qemu(const Campaign *c)
{
    for (guint i = 0; c->run_args[i]; i++) {
        if (g_str_has_prefix(c->run_args[i], "--qemu=")) {
            return c->run_args[i];
        }
    }
    return "--qemu=qemu-system-aarch64";
}

static gboolean group_found_in(const FcGroup *g, const FcVm *vm)
{
    for (guint i = 0; i < vm->findings->len; i++) {
        const FcFinding *f = g_ptr_array_index(vm->findings, i);

        if (g_str_equal(f->signature, g->signature)) {
            return TRUE;
        }
    }
    return FALSE;
}

/*
 * The group's first seed once more, recorded, with its plan on QEMU's
 * command line and the guest in faultcamp.replay mode; then the recording
 * replayed (scripts/patchbay replay: the same console, the same verdict).
 */
static void reproduce(Campaign *c, FcGroup *g)
{
    guint64 seed = g_array_index(g->seeds, guint64, 0);
    g_autofree char *dir = NULL, *log = NULL, *rec = NULL, *replay = NULL;
    g_autofree char *a_results = NULL, *a_first = NULL, *a_global = NULL;
    g_autofree char *a_timeout = NULL, *a_count = NULL;
    g_autoptr(FcVm) vm = NULL;
    g_autoptr(GError) error = NULL;
    int status;

    if (!seed || !g->plan) {
        g->repro_note = g_strdup("found outside an episode: no plan to replay");
        return;
    }
    dir = g_strdup_printf("%s/repro-seed-%" G_GUINT64_FORMAT, c->results, seed);
    log = g_build_filename(dir, "run.log", NULL);
    a_results = g_strdup_printf("--results=%s", dir);
    a_first = g_strdup_printf("--append=faultcamp.first=%" G_GUINT64_FORMAT,
                              c->repro_cmdline ? seed : g->vm_first);
    a_count = g_strdup_printf("--append=faultcamp.count=%" G_GUINT64_FORMAT,
                              seed - g->vm_first + 1);
    /* -global takes its value as it is: no doubled commas */
    a_global = g_strdup_printf("--qemu-arg=%s.faults=%s", c->dev->qemu_driver,
                               g->plan);
    a_timeout = g_strdup_printf(
        "--timeout=%u",
        (guint)MAX(VM_SILENCE_S, (seed - g->vm_first + 1) * EPISODE_MAX_MS / 1000));
    g_mkdir_with_parents(dir, 0755);
    g_printerr("faults: reproducing seed %" G_GUINT64_FORMAT " (%s), recorded\n",
               seed, g->title);
    {
        /*
         * The episodes as the campaign's VM ran them, from its first seed to
         * this one, in a fresh VM: the state the earlier episodes left (a
         * slave gone, a FIFO out of step) is part of the finding. Under
         * --record the control channel is served inside QEMU, so the plans
         * the guest sets through it are guest I/O and replay
         * (docs/record-replay.md). Or, with --repro-on-cmdline, this seed
         * alone with its plan on QEMU's command line from boot.
         */
        char *channel[] = {a_results, "--record", a_first, a_count,
                           a_timeout, "--deadline=0", NULL};
        char *cmdline[] = {a_results, "--record", a_first,
                           "--append=faultcamp.replay=1", "--qemu-arg=-global",
                           a_global, a_timeout, "--deadline=0", NULL};

        if (run_runner(c, c->repro_cmdline ? cmdline : channel, log, NULL,
                       seed, &error) < 0) {
            g->repro_note = g_strdup(error->message);
            return;
        }
    }
    vm = fc_vm_load(c->repro_cmdline ? seed : g->vm_first, dir, &error);
    g->reproduced = vm && group_found_in(g, vm);
    rec = g_build_filename(dir, "recording", NULL);
    if (g_file_test(rec, G_FILE_TEST_IS_DIR)) {
        g->recording = g_steal_pointer(&rec);
    }
    if (!g->reproduced) {
        const FcFinding *f = vm && vm->findings->len
                                 ? g_ptr_array_index(vm->findings, 0)
                                 : NULL;

        g->repro_note = f ? g_strdup_printf("the reproduction found: %s",
                                            f->signature)
                          : g_strdup("the reproduction found nothing");
    }
    if (!g->recording) {
        return;
    }
    replay = g_strdup_printf("%s-replay", dir);
    {
        /*
         * The runner itself with the campaign's QEMU, which recorded: a
         * replay refuses another, and scripts/patchbay replay would take
         * the QEMU the tree builds now.
         */
        g_autofree char *a_replay = g_strdup_printf("--replay=%s", g->recording);
        g_autofree char *a_out = g_strdup_printf("--results=%s", replay);
        const char *argv[] = {c->runner, campaign_qemu(c), a_replay, a_out,
                              NULL};
        g_autoptr(GSubprocess) p = g_subprocess_newv(
            argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
            &error);

        status = p && g_subprocess_wait(p, NULL, NULL) &&
                         g_subprocess_get_if_exited(p)
                     ? g_subprocess_get_exit_status(p)
                     : -1;
    }
    /* replay's exit: the recording's verdict if the same, 3 if it differs */
    g->replayed = status >= 0 && status != 3 && status != 2;
}

int main(int argc, char **argv)
{
    g_autofree char *device = NULL, *runner = NULL;
    g_autofree char *results = NULL, *json = NULL;
    g_autofree char *table = NULL;
    gint64 first = 1, seeds = 100, per_vm = 500;
    gboolean no_reproduce = FALSE, repro_cmdline = FALSE;
    g_auto(GStrv) rest = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(FcCampaign) camp = NULL;
    Campaign c = {0};
    guint stuck = 0;
    guint64 seed;
    GOptionEntry entries[] = {
        {"device", 0, 0, G_OPTION_ARG_STRING, &device,
         "the device under a plan: ds2490 or agpu", "NAME"},
        {"seeds", 0, 0, G_OPTION_ARG_INT64, &seeds, "episodes (100)", "N"},
        {"first-seed", 0, 0, G_OPTION_ARG_INT64, &first, "the first seed (1)", "S"},
        {"per-vm", 0, 0, G_OPTION_ARG_INT64, &per_vm,
         "episodes one VM runs at most (500)", "N"},
        {"no-reproduce", 0, 0, G_OPTION_ARG_NONE, &no_reproduce,
         "do not record and replay the findings", NULL},
        {"repro-on-cmdline", 0, 0, G_OPTION_ARG_NONE, &repro_cmdline,
         "reproduce with the plan on QEMU's command line from boot, not set "
         "through the control channel as in the campaign",
         NULL},
        {"runner", 0, 0, G_OPTION_ARG_FILENAME, &runner, "patchbay-run", "PATH"},
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &results,
         "the campaign's folder", "DIR"},
        {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL},
        {NULL},
    };
    g_autoptr(GOptionContext) octx =
        g_option_context_new("-- RUNNER_ARGS... - a fault campaign");

    g_option_context_add_main_entries(octx, entries, NULL);
    if (!g_option_context_parse(octx, &argc, &argv, &error)) {
        g_printerr("patchbay-faults: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    c.dev = device_info(device);
    if (!c.dev) {
        g_printerr("patchbay-faults: --device %s: the devices are ds2490 and agpu\n",
                   device ? device : "(none)");
        return EXIT_TROUBLE;
    }
    if (seeds < 1 || first < 1 || per_vm < 1) {
        g_printerr("patchbay-faults: --seeds, --first-seed and --per-vm must be "
                   "at least 1\n");
        return EXIT_TROUBLE;
    }
    if (!runner || !results) {
        g_printerr("patchbay-faults: --runner and --results are required\n");
        return EXIT_TROUBLE;
    }
    c.runner = runner;
    c.results = results;
    c.run_args = rest ? rest : (char *[]){NULL};
    c.per_vm = (guint)per_vm;
    c.repro_cmdline = repro_cmdline;
    camp = fc_campaign_new(c.dev->name, (guint64)first, (guint)seeds);
    c.camp = camp;
    c.start_us = g_get_monotonic_time();
    g_mkdir_with_parents(results, 0755);

    for (seed = (guint64)first; seed < (guint64)(first + seeds);) {
        guint count = (guint)MIN((guint64)c.per_vm, (guint64)(first + seeds) - seed);
        g_autoptr(FcVm) vm = run_vm(&c, seed, count, &error);
        guint64 next;

        if (!vm) {
            g_printerr("patchbay-faults: %s\n", error->message);
            return EXIT_TROUBLE;
        }
        fc_campaign_add_vm(camp, vm);
        if (vm->setup_failed) {
            g_printerr("patchbay-faults: the guest program could not start in "
                       "%s/vm-%03u: %s\n", results, camp->vms, vm->setup_failed);
            return EXIT_TROUBLE;
        }
        next = fc_vm_next_seed(vm);
        if (next <= seed) {
            /* nothing ran: a boot that failed, a kernel that died first */
            if (++stuck == 2) {
                g_printerr("patchbay-faults: two VMs from seed %" G_GUINT64_FORMAT
                           " ran no episode; see %s/vm-%03u/run.log\n",
                           seed, results, camp->vms);
                return EXIT_TROUBLE;
            }
            continue;
        }
        stuck = 0;
        seed = next;
        progress(&c, 0, seed);
    }
    camp->elapsed_s = (g_get_monotonic_time() - c.start_us) / 1e6;
    for (guint i = 0; !no_reproduce && i < camp->groups->len; i++) {
        reproduce(&c, g_ptr_array_index(camp->groups, i));
    }
    json = g_build_filename(results, "findings.json", NULL);
    if (!fc_campaign_write_json(camp, json, &error)) {
        g_printerr("patchbay-faults: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    table = fc_campaign_format(camp);
    fputs(table, stdout);
    printf("findings: %s\n", json);
    return fc_campaign_exit_status(camp);
}
