/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the fault campaign's host side (runner/faultcamp.c):
 * titles and frames of kernel reports, lockdep's splats judged as crashes
 * by the runner's console judge (resultdir.h) and given a signature, a
 * campaign VM's console read back, findings deduplicated by signature,
 * findings.json and the table; and patchbay-faults' usage errors (its path
 * in PATCHBAY_FAULTS).
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "faultcamp.h"
#include "resultdir.h"
#include "testutil.h"

/* A lockdep splat as 6.12 prints it on arm64 (cut: no call trace). */
static const char *const circular[] = {
    "[   12.300000] ======================================================",
    "[   12.300001] WARNING: possible circular locking dependency detected",
    "[   12.300002] 6.12.118 #1 Not tainted",
    "[   12.300003] ------------------------------------------------------",
    "[   12.300004] kworker/0:1/42 is trying to acquire lock:",
    "[   12.300005] ffff000002a3c0a8 (&dev->mutex){+.+.}-{4:4}, at: "
    "ds9490r_search+0x5c/0x2f0",
    "[   12.300006] ",
    "[   12.300007] but task is already holding lock:",
    "[   12.300008] ffff000002a3d0b0 (&dev->bus_mutex){+.+.}-{4:4}, at: "
    "w1_search_process_cb+0x40/0x1a0",
    NULL,
};

static const char *const recursive[] = {
    "[    5.100000] ============================================",
    "[    5.100001] WARNING: possible recursive locking detected",
    "[    5.100002] 6.12.118 #1 Not tainted",
    "[    5.100003] faults_ds2490/80 is trying to acquire lock:",
    "[    5.100004] ffff0000c1234567 (&dev->bus_mutex){+.+.}-{4:4}, at: "
    "w1_f3a_state_read+0x48/0x1c0",
    "[    5.100005] stack backtrace:",
    "[    5.100006] CPU: 1 UID: 0 PID: 80 Comm: faults_ds2490 Not tainted "
    "6.12.118 #1",
    "[    5.100007] Call trace:",
    "[    5.100008]  show_stack+0x20/0x38 (C)",
    "[    5.100009]  dump_stack_lvl+0x8c/0xd0",
    "[    5.100010]  print_deadlock_bug+0x260/0x350",
    "[    5.100011]  __lock_acquire+0x1000/0x1f00",
    "[    5.100012]  lock_acquire+0x1c0/0x338",
    "[    5.100013]  __mutex_lock+0xa8/0x5a0",
    "[    5.100014]  mutex_lock_nested+0x2c/0x40",
    "[    5.100015]  w1_f3a_state_read+0x48/0x1c0",
    "[    5.100016]  sysfs_kf_bin_read+0x6c/0xa8",
    "[    5.100017]  kernfs_fop_read_iter+0xb0/0x1d0",
    "[    5.100018]  vfs_read+0x1f8/0x2e0",
    NULL,
};

static const char *const sleeping[] = {
    "[    7.100000] BUG: sleeping function called from invalid context at "
    "kernel/locking/mutex.c:585",
    "[    7.100001] in_atomic(): 1, irqs_disabled(): 128, non_block: 0, pid: "
    "0, name: swapper/0",
    "[    7.100002] Call trace:",
    "[    7.100003]  show_stack+0x20/0x38 (C)",
    "[    7.100004]  dump_stack_lvl+0x8c/0xd0",
    "[    7.100005]  __might_resched+0x150/0x1d8",
    "[    7.100006]  __might_sleep+0x48/0x80",
    "[    7.100007]  __mutex_lock+0x54/0x5a0",
    "[    7.100008]  ds_recv_status.isra.0+0x40/0x120",
    "[    7.100009]  ds_irq_handler+0x30/0x90 [ds2490]",
    NULL,
};

/* Feed a program's lines, with the splat in the middle, to the judge. */
static CrashReport *judge_splat(const char *const *splat)
{
    static const char *const before[] = {
        "KTAP version 1", "1..1", "  KTAP version 1", "  # Subtest: w1faults",
        "  1..1", "    KTAP version 1", "    # Subtest: faults_ds2490",
        "    1..3", "    ok 1 seed 7", NULL,
    };
    RunRecord rec;
    CrashReport *r, *copy;
    GPtrArray *crashes;

    run_record_init(&rec, 0);
    for (guint i = 0; before[i]; i++) {
        run_record_feed(&rec, before[i], 0);
    }
    for (guint i = 0; splat[i]; i++) {
        run_record_feed(&rec, splat[i], 0);
    }
    run_record_feed(&rec, "    not ok 2 seed 8", 0);
    run_record_finish(&rec, 0);
    crashes = run_record_crashes(&rec);
    g_assert_cmpuint(crashes->len, ==, 1);
    r = g_ptr_array_index(crashes, 0);
    copy = g_new0(CrashReport, 1);
    copy->kind = g_strdup(r->kind);
    copy->test = g_strdup(r->test);
    copy->excerpt = g_strdup(r->excerpt);
    run_record_clear(&rec);
    return copy;
}

static void crash_report_free(CrashReport *r)
{
    g_free(r->kind);
    g_free(r->test);
    g_free(r->excerpt);
    g_free(r);
}

static void test_lockdep_is_crash(void)
{
    struct {
        const char *const *lines;
        const char *kind, *signature;
    } cases[] = {
        {circular, "warn",
         "WARNING: possible circular locking dependency detected | "
         "ds9490r_search < w1_search_process_cb"},
        {recursive, "warn",
         "WARNING: possible recursive locking detected | w1_f3a_state_read < "
         "sysfs_kf_bin_read < kernfs_fop_read_iter"},
        {sleeping, "bug",
         "BUG: sleeping function called from invalid context at "
         "kernel/locking/mutex.c:585 | ds_recv_status < ds_irq_handler"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        CrashReport *r = judge_splat(cases[i].lines);
        g_autoptr(FcFinding) f = NULL;

        g_assert_cmpstr(r->kind, ==, cases[i].kind);
        g_assert_nonnull(strstr(r->test, "faults_ds2490"));
        f = fc_finding_from_report(8, r->kind, r->excerpt);
        g_assert_cmpstr(f->signature, ==, cases[i].signature);
        crash_report_free(r);
    }
}

static void test_titles(void)
{
    struct {
        const char *line, *title;
    } cases[] = {
        {"[  1.0] WARNING: CPU: 1 PID: 77 at drivers/w1/masters/ds2490.c:412 "
         "ds_recv_data+0x1c4/0x210",
         "WARNING in ds_recv_data"},
        {"[  1.0] BUG: KASAN: slab-use-after-free in w1_slave_detach+0x30/0x90",
         "KASAN: slab-use-after-free in w1_slave_detach"},
        {"[  1.0] INFO: task kworker/0:1:42 blocked for more than 60 seconds.",
         "INFO: task hung"},
        {"[  1.0] Unable to handle kernel NULL pointer dereference at virtual "
         "address 0000000000000008",
         "Unable to handle kernel NULL pointer dereference at virtual address "
         "ADDR"},
        {"w1faults| [  1.0] kernel BUG at drivers/gpu/drm/msm/msm_gem.c:100!",
         "kernel BUG at drivers/gpu/drm/msm/msm_gem.c:100!"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *t = fc_report_title(cases[i].line);

        g_assert_cmpstr(t, ==, cases[i].title);
    }
}

static void test_oops_frames(void)
{
    const char *excerpt =
        "[ 2.0] Unable to handle kernel NULL pointer dereference at virtual "
        "address 0000000000000010\n"
        "[ 2.0] pc : w1_slave_found+0x24/0x1a0\n"
        "[ 2.0] lr : ds9490r_search+0x1f0/0x2f0\n"
        "[ 2.0] Call trace:\n"
        "[ 2.0]  w1_slave_found+0x24/0x1a0\n"
        "[ 2.0]  ds9490r_search+0x1f0/0x2f0\n"
        "[ 2.0]  w1_search_devices+0x50/0x70\n"
        "[ 2.0]  w1_search_process_cb+0x60/0x1a0\n";
    g_auto(GStrv) frames = fc_report_frames(excerpt, 3);

    g_assert_cmpuint(g_strv_length(frames), ==, 3);
    g_assert_cmpstr(frames[0], ==, "w1_slave_found");
    g_assert_cmpstr(frames[1], ==, "ds9490r_search");
    g_assert_cmpstr(frames[2], ==, "w1_search_devices");
}

/* A campaign VM: two episodes, a guest finding, a kernel report in #4. */
static const char *const vm_console[] = {
    "    # faultcamp device: ds2490 /machine/peripheral/ds2490",
    "    # faultcamp rates: ep3-short=5,stall=2",
    "    # faultcamp counts seed=10: ",
    "    ok 1 seed 10",
    "    # faultcamp counts seed=11: ep3-short=2,stall=1",
    "    ok 2 seed 11",
    "    # faultcamp counts seed=12: bit-flip=1",
    "    # faultcamp finding seed=12 kind=wrong-data op=ds2413-state: state "
    "0x0f, the pins are 0xf0",
    "    not ok 3 seed 12 # wrong-data in ds2413-state: state 0x0f",
    NULL,
};

static JsonArray *crashes_of(const char *json)
{
    g_autoptr(JsonParser) p = json_parser_new();

    g_assert_true(json_parser_load_from_data(p, json, -1, NULL));
    return json_array_ref(json_node_get_array(json_parser_get_root(p)));
}

static void test_vm_parse(void)
{
    g_autoptr(JsonArray) none = crashes_of("[]");
    g_autoptr(FcVm) vm = fc_vm_parse(10, vm_console, none);
    FcFinding *f;

    g_assert_cmpstr(vm->rates, ==, "ep3-short=5,stall=2");
    g_assert_cmpuint(vm->episodes, ==, 3);
    g_assert_cmpuint(vm->findings->len, ==, 1);
    f = g_ptr_array_index(vm->findings, 0);
    g_assert_cmpuint(f->seed, ==, 12);
    g_assert_cmpstr(f->signature, ==, "wrong-data in ds2413-state");
    g_assert_cmpuint(fc_vm_next_seed(vm), ==, 13);
    g_assert_cmpuint(vm->faults->len, ==, 3);
    g_assert_cmpuint(g_array_index(vm->faults, guint, 1), ==, 3);
}

static void test_vm_kernel_wins(void)
{
    /* the VM died in episode 4 (seed 13), pinned as "#4"; and a WARN in 12 */
    g_autoptr(JsonArray) crashes = crashes_of(
        "[{\"kind\": \"warn\", \"test\": \"w1faults/faults_ds2490/seed 12\","
        "  \"excerpt\": \"[ 1.0] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\"},"
        " {\"kind\": \"oops\", \"test\": \"w1faults/faults_ds2490/#4\","
        "  \"excerpt\": \"[ 2.0] Unable to handle kernel paging request at "
        "virtual address dead000000000122\\n[ 2.0] pc : g+0x4/0x8\"},"
        " {\"kind\": \"panic\", \"test\": \"w1faults/faults_ds2490/#4\","
        "  \"excerpt\": \"[ 2.1] Kernel panic - not syncing: Oops\"}]");
    g_autoptr(FcVm) vm = fc_vm_parse(10, vm_console, crashes);
    FcFinding *warn, *oops;

    g_assert_cmpuint(vm->findings->len, ==, 2);
    warn = g_ptr_array_index(vm->findings, 0);
    oops = g_ptr_array_index(vm->findings, 1);
    g_assert_cmpuint(warn->seed, ==, 12);
    g_assert_cmpstr(warn->signature, ==, "WARNING in f");
    g_assert_cmpuint(oops->seed, ==, 13);
    g_assert_cmpstr(oops->signature, ==,
                    "Unable to handle kernel paging request at virtual "
                    "address ADDR | g");
    g_assert_cmpuint(fc_vm_next_seed(vm), ==, 14);
}

static void test_no_progress(void)
{
    const char *const boot[] = {"[ 0.1] booting", NULL};
    g_autoptr(JsonArray) none = crashes_of("[]");
    g_autoptr(FcVm) vm = fc_vm_parse(10, boot, none);

    g_assert_cmpuint(fc_vm_next_seed(vm), ==, 0);
}

static void test_dedup_json_table(void)
{
    g_autofree char *tmp = testutil_tmp_dir();
    g_autofree char *path = g_build_filename(tmp, "findings.json", NULL);
    g_autoptr(FcCampaign) c = fc_campaign_new("ds2490", 10, 100);
    g_autoptr(JsonArray) none = crashes_of("[]");
    const char *const again[] = {
        "    # faultcamp rates: ep3-short=5,stall=2",
        "    ok 1 seed 40",
        "    # faultcamp finding seed=41 kind=wrong-data op=ds2413-state: x",
        "    not ok 2 seed 41 # wrong-data",
        NULL,
    };
    g_autoptr(FcVm) a = fc_vm_parse(10, vm_console, none);
    g_autoptr(FcVm) b = fc_vm_parse(40, again, none);
    g_autoptr(JsonParser) p = json_parser_new();
    g_autoptr(GError) error = NULL;
    g_autofree char *table = NULL;
    JsonObject *root, *g;
    JsonArray *seeds;

    g_assert_cmpint(fc_campaign_exit_status(c), ==, 0);
    fc_campaign_add_vm(c, a);
    fc_campaign_add_vm(c, b);
    c->elapsed_s = 60;
    g_assert_cmpuint(c->episodes, ==, 5);
    g_assert_cmpuint(fc_campaign_findings(c), ==, 1);
    g_assert_cmpint(fc_campaign_exit_status(c), ==, 1);
    g_assert_true(fc_campaign_write_json(c, path, &error));
    g_assert_true(json_parser_load_from_file(p, path, &error));
    root = json_node_get_object(json_parser_get_root(p));
    g_assert_cmpint(json_object_get_int_member(root, "episodes"), ==, 5);
    g_assert_cmpfloat(json_object_get_double_member(root, "episodes_per_min"),
                      ==, 5.0);
    g = json_array_get_object_element(
        json_object_get_array_member(root, "findings"), 0);
    g_assert_cmpstr(json_object_get_string_member(g, "plan"), ==,
                    "seed=12,ep3-short=5,stall=2");
    seeds = json_object_get_array_member(g, "seeds");
    g_assert_cmpuint(json_array_get_length(seeds), ==, 2);
    g_assert_cmpint(json_array_get_int_element(seeds, 1), ==, 41);
    g_assert_true(json_object_get_null_member(g, "reproduced"));
    /* vm_console's counts: 0, 3 and 1 faults */
    g_assert_cmpint(json_object_get_int_member(
                        json_object_get_object_member(root, "faults_per_episode"),
                        "3"),
                    ==, 1);
    g_assert_false(json_object_has_member(
        json_object_get_object_member(root, "faults_per_episode"), "2"));
    table = fc_campaign_format(c);
    g_assert_nonnull(strstr(table, "wrong-data in ds2413-state"));
    g_assert_nonnull(strstr(table, "5 episodes"));
    testutil_remove_tree(tmp);
}

static void test_usage_errors(void)
{
    struct {
        const char *args, *message;
    } cases[] = {
        {"--device floppy --runner r --results d",
         "the devices are ds2490 and agpu"},
        {"--device agpu --runner r --results d --seeds 0",
         "at least 1"},
        {"--device agpu --seeds 5", "are required"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_auto(GStrv) args = g_strsplit(cases[i].args, " ", -1);
        g_autofree char *out = NULL, *err = NULL;
        int status = testutil_runv("PATCHBAY_FAULTS", NULL, &out, &err,
                                   (const char *const *)args);

        g_assert_cmpint(status, ==, 2);
        g_assert_nonnull(strstr(err, cases[i].message));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/faultcamp/lockdep-is-crash", test_lockdep_is_crash);
    g_test_add_func("/faultcamp/titles", test_titles);
    g_test_add_func("/faultcamp/oops-frames", test_oops_frames);
    g_test_add_func("/faultcamp/vm-parse", test_vm_parse);
    g_test_add_func("/faultcamp/vm-kernel-wins", test_vm_kernel_wins);
    g_test_add_func("/faultcamp/no-progress", test_no_progress);
    g_test_add_func("/faultcamp/dedup-json-table", test_dedup_json_table);
    g_test_add_func("/faultcamp/usage-errors", test_usage_errors);
    return g_test_run();
}
