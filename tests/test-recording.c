/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of a recording's folder and comparison (runner/recording.h). */
#include <glib/gstdio.h>

#include "recording.h"

static char *tmp_dir(void)
{
    g_autoptr(GError) error = NULL;
    char *dir = g_dir_make_tmp("test-recording-XXXXXX", &error);

    g_assert_no_error(error);
    return dir;
}

static char *write_file(const char *dir, const char *name, const char *text,
                        gssize len)
{
    char *path = g_build_filename(dir, name, NULL);

    g_assert_true(g_file_set_contents(path, text, len, NULL));
    return path;
}

static void compare(const char *a, gssize alen, const char *b, gssize blen,
                    gboolean want_same, const char *want_report)
{
    g_autofree char *dir = tmp_dir();
    g_autofree char *pa = write_file(dir, "a", a, alen);
    g_autofree char *pb = write_file(dir, "b", b, blen);
    g_autofree char *report = NULL;
    g_autoptr(GError) error = NULL;
    gboolean same = !want_same;

    g_assert_true(recording_compare_consoles(pa, pb, &same, &report, &error));
    g_assert_no_error(error);
    g_assert_cmpint(same, ==, want_same);
    g_assert_cmpstr(report, ==, want_report);
    g_unlink(pa);
    g_unlink(pb);
    g_rmdir(dir);
}

static void test_compare(void)
{
    compare("one\r\ntwo\r\n", -1, "one\r\ntwo\r\n", -1, TRUE,
            "identical (10 bytes, 2 lines)");
    compare("", 0, "", 0, TRUE, "identical (0 bytes, 0 lines)");
    /* the first difference, its line, both lines escaped */
    compare("one\ntwo\tA\nthree\n", -1, "one\ntwo\tB\nthree\n", -1, FALSE,
            "differs from byte 8 (line 2): recorded \"two\\tA\", replayed "
            "\"two\\tB\" (16 and 16 bytes in all)");
    /* a replay that stopped early, or ran on */
    compare("one\ntwo\n", -1, "one\n", -1, FALSE,
            "differs from byte 4 (line 2): recorded \"two\", replayed (end) "
            "(8 and 4 bytes in all)");
    compare("one\n", -1, "one\nmore\n", -1, FALSE,
            "differs from byte 4 (line 2): recorded (end), replayed \"more\" "
            "(4 and 9 bytes in all)");
    /* NUL bytes compare like any other */
    compare("a\0b", 3, "a\0c", 3, FALSE,
            "differs from byte 2 (line 1): recorded \"a\", replayed \"a\" "
            "(3 and 3 bytes in all)");
}

static void test_compare_missing(void)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *report = NULL;
    gboolean same;

    g_assert_false(recording_compare_consoles("/nonexistent/a",
                                              "/nonexistent/b", &same,
                                              &report, &error));
    g_assert_nonnull(error);
}

static void test_save_load_replay_argv(void)
{
    g_autofree char *dir = tmp_dir();
    g_autoptr(Recording) rec = recording_new(dir);
    g_autoptr(Recording) back = NULL;
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) replay = NULL;
    g_autoptr(GError) error = NULL;
    char *suites[] = {"w1", NULL};
    const RecordedVm *vm;

    g_ptr_array_add(argv, g_strdup("/cache/qemu/1234/qemu-system-aarch64"));
    g_ptr_array_add(argv, g_strdup("-smp"));
    g_ptr_array_add(argv, g_strdup("1"));
    recording_add_record_args("w1", argv);
    g_ptr_array_add(argv, g_strdup("-qmp"));
    g_ptr_array_add(argv, g_strdup("unix:/tmp/x/qmp.sock,server=on"));
    g_ptr_array_add(argv, g_strdup("-kernel"));
    g_ptr_array_add(argv, g_strdup(RECORDING_KERNEL));
    g_ptr_array_add(argv, NULL);
    rec->variant = g_strdup("base");
    rec->qemu_sha256 = g_strdup("abc");
    recording_add_vm(rec, "w1", suites, argv, 1, TRUE, "pass", NULL);
    recording_add_vm(rec, "harness-panic", suites, argv, 1, FALSE, "fail",
                     "no console output for 300 s");
    g_assert_true(recording_save(rec, &error));
    g_assert_no_error(error);

    back = recording_load(dir, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(back->vms->len, ==, 2);
    g_assert_cmpstr(back->variant, ==, "base");
    g_assert_cmpstr(back->qemu_sha256, ==, "abc");
    g_assert_null(back->vmlinux);
    /* the first that did not pass, by name, or none */
    g_assert_cmpstr(recording_find_vm(back, NULL)->name, ==, "harness-panic");
    g_assert_cmpstr(recording_find_vm(back, NULL)->stop_why, ==,
                    "no console output for 300 s");
    g_assert_cmpstr(recording_find_vm(back, "w1")->name, ==, "w1");
    g_assert_null(recording_find_vm(back, "msm"));

    vm = recording_find_vm(back, "w1");
    g_assert_true(vm->virtual_clock);
    g_assert_cmpint(vm->cpus, ==, 1);
    g_assert_cmpstr(vm->verdict, ==, "pass");
    g_assert_null(vm->stop_why);
    /* QEMU by its file name; the runner's QMP socket is not the VM's */
    g_assert_cmpstr(vm->argv[0], ==, "qemu-system-aarch64");
    for (guint i = 0; vm->argv[i]; i++) {
        g_assert_cmpstr(vm->argv[i], !=, "-qmp");
    }
    replay = recording_replay_argv(vm, "/here/qemu-system-aarch64");
    g_assert_cmpstr(g_ptr_array_index(replay, 0), ==,
                    "/here/qemu-system-aarch64");
    g_assert_cmpstr(g_ptr_array_index(replay, 3), ==, "-icount");
    g_assert_cmpstr(g_ptr_array_index(replay, 4), ==,
                    "shift=auto,sleep=off,rr=replay,rrfile=w1.replay.bin,"
                    "rrsnapshot=init");
    g_assert_cmpstr(g_ptr_array_index(replay, 6), ==,
                    "file=w1.snapshot.qcow2,format=qcow2,if=none,"
                    "id=rr-snapshot");
    g_assert_null(g_ptr_array_index(replay, replay->len - 1));

    {
        g_autofree char *json = g_build_filename(dir, RECORDING_JSON, NULL);

        g_unlink(json);
    }
    g_rmdir(dir);
}

static void test_load_bad(void)
{
    g_autofree char *dir = tmp_dir();
    g_autofree char *json = NULL;
    g_autoptr(GError) error = NULL;
    const char *bad[] = {
        "not json",
        "[]",
        "{}",
        "{\"vms\": 3}",
        "{\"vms\": [{}]}",
        "{\"vms\": [{\"name\": \"x\", \"suites\": [\"w1\"]}]}",
        "{\"vms\": [{\"name\": \"x\", \"argv\": [\"q\"]}]}",
    };

    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(Recording) rec = NULL;

        g_free(json);
        json = write_file(dir, RECORDING_JSON, bad[i], -1);
        rec = recording_load(dir, &error);
        g_assert_null(rec);
        g_assert_nonnull(error);
        g_clear_error(&error);
    }
    g_unlink(json);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/recording/compare", test_compare);
    g_test_add_func("/recording/compare-missing", test_compare_missing);
    g_test_add_func("/recording/save-load-replay-argv",
                    test_save_load_replay_argv);
    g_test_add_func("/recording/load-bad", test_load_bad);
    return g_test_run();
}
