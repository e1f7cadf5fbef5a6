/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording of patchbay-run --record, and its replay (recording.h,
 * docs/record-replay.md).
 */
#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "recording.h"
#include "resultdir.h"

/* How much of a differing line the comparison shows. */
#define RECORDING_DIFF_SHOW 200

/*
 * The qcow2 image that holds the starting snapshot: QEMU saves the VM's
 * devices and RAM as it is at the start (mostly zero pages) into it.
 */
#define RECORDING_SNAPSHOT_IMAGE_SIZE "1M"

static void recorded_vm_free(gpointer data)
{
    RecordedVm *vm = data;

    g_free(vm->name);
    g_strfreev(vm->suites);
    g_strfreev(vm->argv);
    g_free(vm->verdict);
    g_free(vm->stop_why);
    g_free(vm);
}

Recording *recording_new(const char *dir)
{
    Recording *rec = g_new0(Recording, 1);

    rec->dir = g_strdup(dir);
    rec->vms = g_ptr_array_new_with_free_func(recorded_vm_free);
    return rec;
}

void recording_free(Recording *rec)
{
    if (!rec) {
        return;
    }
    g_free(rec->dir);
    g_free(rec->qemu_sha256);
    g_free(rec->kernel_sha256);
    g_free(rec->initrd_sha256);
    g_free(rec->variant);
    g_free(rec->release);
    g_free(rec->vmlinux);
    g_ptr_array_unref(rec->vms);
    g_free(rec);
}

char *recording_path(const Recording *rec, const char *vm, const char *suffix)
{
    g_autofree char *name = g_strconcat(vm, suffix, NULL);

    return g_build_filename(rec->dir, name, NULL);
}

static gboolean copy_in(const Recording *rec, const char *from,
                        const char *name, GError **error)
{
    g_autofree char *to = g_build_filename(rec->dir, name, NULL);
    g_autoptr(GFile) src = g_file_new_for_path(from);
    g_autoptr(GFile) dst = g_file_new_for_path(to);

    return g_file_copy(src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL,
                       error);
}

gboolean recording_prepare(Recording *rec, const char *qemu, const char *kernel,
                           const char *initrd, GError **error)
{
    if (g_mkdir_with_parents(rec->dir, 0755) < 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot create %s: %s", rec->dir, g_strerror(errno));
        return FALSE;
    }
    return (rec->qemu_sha256 = results_file_sha256(qemu, error)) &&
           (rec->kernel_sha256 = results_file_sha256(kernel, error)) &&
           (rec->initrd_sha256 = results_file_sha256(initrd, error)) &&
           copy_in(rec, kernel, RECORDING_KERNEL, error) &&
           copy_in(rec, initrd, RECORDING_INITRD, error);
}

gboolean recording_create_snapshot_image(const Recording *rec, const char *vm,
                                         GError **error)
{
    g_autofree char *image = recording_path(rec, vm, ".snapshot.qcow2");
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    const char *create[] = {"qemu-img", "create", "-q", "-f", "qcow2", image,
                            RECORDING_SNAPSHOT_IMAGE_SIZE, NULL};
    int status;

    g_unlink(image);
    if (!g_spawn_sync(NULL, (char **)create, NULL, G_SPAWN_SEARCH_PATH, NULL,
                      NULL, &out, &err, &status, error)) {
        g_prefix_error(error, "qemu-img (Debian's qemu-utils, scripts/deps): ");
        return FALSE;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                    "qemu-img create %s failed: %s", image, err);
        return FALSE;
    }
    return TRUE;
}

void recording_add_record_args(const char *vm, GPtrArray *argv)
{
    /*
     * The file names are relative to the recording's folder, QEMU's own.
     * sleep=off for every suite, on the real clock too: an idle guest's
     * clock jumps to its next timer instead of waiting for the host's
     * (measured: flagaudit records in 4.4 s instead of 253 s), and the
     * replay repeats the same jumps.
     */
    g_ptr_array_add(argv, g_strdup("-icount"));
    g_ptr_array_add(argv,
                    g_strdup_printf("shift=auto,sleep=off,rr=record,"
                                    "rrfile=%s.replay.bin,"
                                    "rrsnapshot=" RECORDING_SNAPSHOT,
                                    vm));
    g_ptr_array_add(argv, g_strdup("-drive"));
    g_ptr_array_add(argv, g_strdup_printf("file=%s.snapshot.qcow2,format=qcow2,"
                                          "if=none,id=rr-snapshot",
                                          vm));
}

void recording_add_vm(Recording *rec, const char *vm, char **suites,
                      GPtrArray *argv, int cpus, gboolean virtual_clock,
                      const char *verdict, const char *stop_why)
{
    RecordedVm *r = g_new0(RecordedVm, 1);
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();

    r->name = g_strdup(vm);
    r->suites = g_strdupv(suites);
    for (guint i = 0; i < argv->len && g_ptr_array_index(argv, i); i++) {
        const char *a = g_ptr_array_index(argv, i);
        g_autofree char *base = i ? NULL : g_path_get_basename(a);

        if (g_str_equal(a, "-qmp")) {
            i++; /* the runner's socket, not the VM's: a replay has its own */
            continue;
        }
        g_strv_builder_add(b, i ? a : base);
    }
    r->argv = g_strv_builder_end(b);
    r->cpus = cpus;
    r->virtual_clock = virtual_clock;
    r->verdict = g_strdup(verdict);
    r->stop_why = g_strdup(stop_why);
    g_ptr_array_add(rec->vms, r);
}

static void add_strv(JsonBuilder *b, const char *member, char **strv)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (guint i = 0; strv && strv[i]; i++) {
        json_builder_add_string_value(b, strv[i]);
    }
    json_builder_end_array(b);
}

gboolean recording_save(const Recording *rec, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autofree char *path = g_build_filename(rec->dir, RECORDING_JSON, NULL);

    json_builder_begin_object(b);
    results_json_add_int(b, "format", 1);
    results_json_add_string(b, "variant", rec->variant);
    results_json_add_string(b, "kernel_release", rec->release);
    results_json_add_string(b, "qemu_sha256", rec->qemu_sha256);
    results_json_add_string(b, "kernel", RECORDING_KERNEL);
    results_json_add_string(b, "kernel_sha256", rec->kernel_sha256);
    results_json_add_string(b, "initrd", RECORDING_INITRD);
    results_json_add_string(b, "initrd_sha256", rec->initrd_sha256);
    results_json_add_string(b, "vmlinux", rec->vmlinux);
    json_builder_set_member_name(b, "vms");
    json_builder_begin_array(b);
    for (guint i = 0; i < rec->vms->len; i++) {
        const RecordedVm *vm = g_ptr_array_index(rec->vms, i);

        json_builder_begin_object(b);
        results_json_add_string(b, "name", vm->name);
        add_strv(b, "suites", vm->suites);
        results_json_add_int(b, "cpus", vm->cpus);
        results_json_add_string(b, "clock",
                                vm->virtual_clock ? "virtual" : "real");
        results_json_add_string(b, "verdict", vm->verdict);
        results_json_add_string(b, "runner_stop", vm->stop_why);
        add_strv(b, "argv", vm->argv);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return results_json_write(b, path, error);
}

static char *dup_member(JsonObject *o, const char *member)
{
    JsonNode *n = json_object_get_member(o, member);

    return n && JSON_NODE_HOLDS_VALUE(n) ? g_strdup(json_node_get_string(n))
                                         : NULL;
}

static char **strv_member(JsonObject *o, const char *member)
{
    JsonNode *n = json_object_get_member(o, member);
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();

    if (n && JSON_NODE_HOLDS_ARRAY(n)) {
        JsonArray *a = json_node_get_array(n);

        for (guint i = 0; i < json_array_get_length(a); i++) {
            const char *s = json_array_get_string_element(a, i);

            if (s) {
                g_strv_builder_add(b, s);
            }
        }
    }
    return g_strv_builder_end(b);
}

Recording *recording_load(const char *dir, GError **error)
{
    g_autofree char *path = g_build_filename(dir, RECORDING_JSON, NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(Recording) rec = recording_new(dir);
    JsonObject *root;
    JsonArray *vms;

    if (!json_parser_load_from_file(parser, path, error)) {
        g_prefix_error(error, "%s is no recording: ", dir);
        return NULL;
    }
    if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser)) ||
        !json_object_has_member(
            (root = json_node_get_object(json_parser_get_root(parser))),
            "vms") ||
        !JSON_NODE_HOLDS_ARRAY(json_object_get_member(root, "vms"))) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: no \"vms\" list", path);
        return NULL;
    }
    rec->variant = dup_member(root, "variant");
    rec->release = dup_member(root, "kernel_release");
    rec->qemu_sha256 = dup_member(root, "qemu_sha256");
    rec->kernel_sha256 = dup_member(root, "kernel_sha256");
    rec->initrd_sha256 = dup_member(root, "initrd_sha256");
    rec->vmlinux = dup_member(root, "vmlinux");
    vms = json_object_get_array_member(root, "vms");
    for (guint i = 0; i < json_array_get_length(vms); i++) {
        JsonObject *o = json_array_get_object_element(vms, i);
        RecordedVm *vm;
        g_autofree char *clock = NULL;

        if (!o || !json_object_has_member(o, "name")) {
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "%s: VM %u has no name", path, i);
            return NULL;
        }
        vm = g_new0(RecordedVm, 1);
        vm->name = dup_member(o, "name");
        vm->suites = strv_member(o, "suites");
        vm->argv = strv_member(o, "argv");
        vm->cpus = json_object_get_int_member_with_default(o, "cpus", 1);
        clock = dup_member(o, "clock");
        vm->virtual_clock = g_strcmp0(clock, "virtual") == 0;
        vm->verdict = dup_member(o, "verdict");
        vm->stop_why = dup_member(o, "runner_stop");
        g_ptr_array_add(rec->vms, vm);
        if (!vm->name || !vm->argv[0] || !vm->suites[0]) {
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "%s: VM %u lacks its name, argv or suites", path, i);
            return NULL;
        }
    }
    return g_steal_pointer(&rec);
}

const RecordedVm *recording_find_vm(const Recording *rec, const char *name)
{
    for (guint i = 0; i < rec->vms->len; i++) {
        const RecordedVm *vm = g_ptr_array_index(rec->vms, i);

        if (name ? g_str_equal(vm->name, name)
                 : g_strcmp0(vm->verdict, "pass") != 0) {
            return vm;
        }
    }
    return !name && rec->vms->len ? g_ptr_array_index(rec->vms, 0) : NULL;
}

gboolean recording_check_qemu(const Recording *rec, const char *qemu,
                              GError **error)
{
    g_autofree char *sha = results_file_sha256(qemu, error);

    if (!sha) {
        return FALSE;
    }
    if (g_strcmp0(sha, rec->qemu_sha256) != 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s was recorded with another QEMU (SHA-256 %s; %s is %s): "
                    "a replay must run the QEMU that recorded",
                    rec->dir, rec->qemu_sha256 ? rec->qemu_sha256 : "unknown",
                    qemu, sha);
        return FALSE;
    }
    return TRUE;
}

GPtrArray *recording_replay_argv(const RecordedVm *vm, const char *qemu)
{
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);

    g_ptr_array_add(argv, g_strdup(qemu));
    for (guint i = 1; vm->argv[i]; i++) {
        const char *a = vm->argv[i];
        const char *rr = strstr(a, ",rr=record,");

        if (i > 1 && g_str_equal(vm->argv[i - 1], "-icount") && rr) {
            g_ptr_array_add(argv, g_strdup_printf("%.*s,rr=replay,%s",
                                                  (int)(rr - a), a,
                                                  rr + strlen(",rr=record,")));
        } else {
            g_ptr_array_add(argv, g_strdup(a));
        }
    }
    g_ptr_array_add(argv, NULL);
    return argv;
}

/* The line of text that starts at start, escaped and cut, for a report. */
static char *show_line(const char *text, gsize len, gsize start)
{
    const char *end = memchr(text + start, '\n', len - start);
    gsize n = (end ? (gsize)(end - text) : len) - start;
    g_autofree char *line =
        g_strndup(text + start, MIN(n, RECORDING_DIFF_SHOW));
    g_autofree char *escaped = g_strescape(line, NULL);

    return g_strdup_printf("\"%s\"%s", escaped,
                           n > RECORDING_DIFF_SHOW ? "..." : "");
}

gboolean recording_compare_consoles(const char *recorded, const char *replayed,
                                    gboolean *same, char **report,
                                    GError **error)
{
    g_autofree char *a = NULL, *b = NULL;
    gsize alen, blen, i, line = 1, line_start = 0;

    if (!g_file_get_contents(recorded, &a, &alen, error) ||
        !g_file_get_contents(replayed, &b, &blen, error)) {
        return FALSE;
    }
    for (i = 0; i < alen && i < blen && a[i] == b[i]; i++) {
        if (a[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    }
    *same = i == alen && i == blen;
    if (*same) {
        /* an unfinished last line counts too */
        *report = g_strdup_printf("identical (%zu bytes, %zu lines)", alen,
                                  line - 1 + (alen && a[alen - 1] != '\n'));
        return TRUE;
    }
    {
        g_autofree char *was = show_line(a, alen, line_start);
        g_autofree char *is = show_line(b, blen, line_start);

        *report = g_strdup_printf(
            "differs from byte %zu (line %zu): recorded %s, replayed %s "
            "(%zu and %zu bytes in all)",
            i, line, i < alen ? was : "(end)", i < blen ? is : "(end)", alen,
            blen);
    }
    return TRUE;
}
