/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-lava: patchbay's suites as LAVA jobs, and LAVA's results back.
 *
 *   patchbay-lava export --plan PLAN --out DIR --label L --release R
 *                        [--base-url URL]
 *       One job per VM of PLAN (patchbay-run --plan): DIR/jobs/NAME.yaml,
 *       the artifacts they name (DIR/artifacts: Image, initramfs, our
 *       QEMU), a device dictionary per job for a local lava-run
 *       (DIR/local/NAME.yaml), the device type and a device for a lab
 *       (DIR/lab/), and the plan itself (DIR/plan.json).
 *   patchbay-lava console --export DIR --out FILE NAME=LOG...
 *       The consoles of the jobs' LAVA logs as one console.log, in the
 *       runner's format (one VM mark per job, "NAME| " lines when several):
 *       what patchbay-run --parse judges.
 *   patchbay-lava check --results DIR NAME=LOG...
 *       LAVA's own results (its monitors') against the verdict and the
 *       results.txt judged from the same consoles: every test with the same
 *       result, and a failure wherever the verdict is one.
 *   patchbay-lava monitor
 *       The jobs' monitor (start, end, pattern, fixupdict) as JSON.
 *
 * Exit codes: 0 done (check: they agree); 1 check: the LAVA job itself
 * failed although the results agree; 2 bad input, or they disagree.
 * docs/lava.md says how the jobs are made and read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "crashscan.h"
#include "lavalog.h"
#include "resultdir.h"

#define EXIT_BAD 2

/* The console line /init starts with and the ones a job ends with. */
#define MONITOR_START "# patchbay init: Linux"
#define MONITOR_END                                                 \
    "# patchbay init: [0-9]+ of [0-9]+ suites failed, powering off" \
    "|---\\[ end Kernel panic"
/* init.c's LAVA-mode repeat of a result line, with the test's whole path */
#define RESULT_MARK "# patchbay-result: "

/* QEMU options the device type gives every job (LAVA's console is stdio). */
static const char *const device_options[] = {"-nographic", "-monitor none"};

/* The device type's body up to its QEMU command: the local device for
 * lava-run and the lab's template share it. */
#define DEVICE_BODY                                     \
    "available_architectures:\n- aarch64\n"             \
    "actions:\n"                                        \
    "  deploy:\n"                                       \
    "    connections:\n      serial:\n"                 \
    "    methods:\n      image:\n        parameters:\n" \
    "  boot:\n"                                         \
    "    connections:\n      serial:\n"                 \
    "    methods:\n      qemu:\n        parameters:\n"

typedef struct {
    char *name;
    char **suites;
    int cpus;
    char *clock;
    gint64 timeout_s;
    char *qemu, *kernel, *initrd, *append;
    GPtrArray *extra; /* char *: "-opt value" groups for the job's context */
} PlanVm;

static void plan_vm_free(gpointer data)
{
    PlanVm *vm = data;

    g_free(vm->name);
    g_strfreev(vm->suites);
    g_free(vm->clock);
    g_free(vm->qemu);
    g_free(vm->kernel);
    g_free(vm->initrd);
    g_free(vm->append);
    g_ptr_array_unref(vm->extra);
    g_free(vm);
}

/*
 * One VM of the plan. QEMU's argv is split into what LAVA substitutes
 * (-kernel, -initrd: its downloads; -append: part of the kernel's
 * image_arg) and option groups ("-device x", "-no-reboot").
 */
static PlanVm *plan_vm_from_json(JsonObject *o, GError **error)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    JsonArray *a, *suites;
    PlanVm *vm;

    if (!json_object_has_member(o, "name") ||
        !json_object_has_member(o, "argv") ||
        !json_object_has_member(o, "suites")) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "a VM of the plan lacks name, suites or argv");
        return NULL;
    }
    vm = g_new0(PlanVm, 1);
    vm->extra = g_ptr_array_new_with_free_func(g_free);
    vm->name = g_strdup(json_object_get_string_member(o, "name"));
    vm->cpus = json_object_get_int_member_with_default(o, "cpus", 2);
    vm->clock = g_strdup(
        json_object_get_string_member_with_default(o, "clock", "real"));
    vm->timeout_s =
        json_object_get_int_member_with_default(o, "timeout_s", 360);
    suites = json_object_get_array_member(o, "suites");
    vm->suites = g_new0(char *, json_array_get_length(suites) + 1);
    for (guint i = 0; i < json_array_get_length(suites); i++) {
        vm->suites[i] = g_strdup(json_array_get_string_element(suites, i));
    }
    a = json_object_get_array_member(o, "argv");
    for (guint i = 0; i < json_array_get_length(a); i++) {
        g_ptr_array_add(argv, (gpointer)json_array_get_string_element(a, i));
    }
    if (argv->len > 0) {
        vm->qemu = g_strdup(g_ptr_array_index(argv, 0));
    }
    for (guint i = 1; i < argv->len; i++) {
        const char *arg = g_ptr_array_index(argv, i);
        const char *value =
            i + 1 < argv->len ? g_ptr_array_index(argv, i + 1) : NULL;
        gboolean takes_value = value && value[0] != '-';

        if (g_str_equal(arg, "-kernel") && value) {
            vm->kernel = g_strdup(value);
        } else if (g_str_equal(arg, "-initrd") && value) {
            vm->initrd = g_strdup(value);
        } else if (g_str_equal(arg, "-append") && value) {
            vm->append = g_strdup(value);
        } else if (g_str_equal(arg, "-nographic")) {
            /* the device type's */
        } else {
            /* LAVA joins the options with blanks; pexpect splits them
             * again, honouring double quotes */
            g_ptr_array_add(vm->extra,
                            !takes_value ? g_strdup(arg)
                            : strchr(value, ' ')
                                ? g_strdup_printf("%s \"%s\"", arg, value)
                                : g_strdup_printf("%s %s", arg, value));
            i += takes_value ? 1 : 0;
            continue;
        }
        i++;
    }
    if (!vm->qemu || !vm->kernel || !vm->initrd || !vm->append ||
        !vm->suites[0] || strchr(vm->append, '"')) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "VM %s of the plan lacks QEMU, -kernel, -initrd, -append "
                    "or a suite, or its kernel arguments have a '\"'",
                    vm->name);
        plan_vm_free(vm);
        return NULL;
    }
    return vm;
}

static GPtrArray *plan_load(const char *path, GError **error)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GPtrArray) vms = g_ptr_array_new_with_free_func(plan_vm_free);
    JsonNode *root;
    JsonArray *a;

    if (!json_parser_load_from_file(parser, path, error)) {
        g_prefix_error(error, "%s: ", path);
        return NULL;
    }
    root = json_parser_get_root(parser);
    if (!JSON_NODE_HOLDS_OBJECT(root) ||
        !json_object_has_member(json_node_get_object(root), "vms")) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: not a plan (no \"vms\")", path);
        return NULL;
    }
    a = json_object_get_array_member(json_node_get_object(root), "vms");
    for (guint i = 0; i < json_array_get_length(a); i++) {
        PlanVm *vm =
            plan_vm_from_json(json_array_get_object_element(a, i), error);

        if (!vm) {
            g_prefix_error(error, "%s: ", path);
            return NULL;
        }
        g_ptr_array_add(vms, vm);
    }
    if (vms->len == 0) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: the plan has no VM", path);
        return NULL;
    }
    return g_steal_pointer(&vms);
}

/* A YAML single-quoted scalar: quotes doubled, nothing else escaped. */
static void yaml_quoted(GString *out, const char *s)
{
    g_string_append_c(out, '\'');
    for (; *s; s++) {
        if (*s == '\'') {
            g_string_append_c(out, '\'');
        }
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '\'');
}

static void yaml_key_quoted(GString *out, const char *indent, const char *key,
                            const char *value)
{
    g_string_append_printf(out, "%s%s: ", indent, key);
    yaml_quoted(out, value);
    g_string_append_c(out, '\n');
}

static void yaml_list(GString *out, const char *indent, GPtrArray *items,
                      const char *const *first, guint nfirst)
{
    for (guint i = 0; i < nfirst; i++) {
        g_string_append_printf(out, "%s- ", indent);
        yaml_quoted(out, first[i]);
        g_string_append_c(out, '\n');
    }
    for (guint i = 0; items && i < items->len; i++) {
        g_string_append_printf(out, "%s- ", indent);
        yaml_quoted(out, g_ptr_array_index(items, i));
        g_string_append_c(out, '\n');
    }
}

/*
 * The monitor's pattern (Python re, as LAVA's pexpect applies it to the
 * console): init.c's result repeats, and the lines that start a kernel
 * crash report (crashscan.c's triggers, after the printk time), which fail
 * under the report's first line. LAVA reads one result group, so a
 * lookahead picks it from the whole line: the '#' of a SKIP or TODO
 * directive (found as lib/ktap/ktap.c finds one: after a blank, any case),
 * else "ok" or "not ok", else the crash trigger. A repeat's name ends at a
 * directive, or where a kernel line cuts into it (its printk time); a
 * crash's is the rest of its line. Either must reach the end of its line,
 * so that a line still arriving is not matched half-way.
 */
#define PRINTK_TIME "\\[ *[0-9]+\\.[0-9]+\\] "
/* a '#' that starts a directive: after a blank, before one or SKIP/TODO */
#define DIRECTIVE "\\s#(?=\\s|(?i:skip|todo))"
static char *monitor_pattern(void)
{
    g_autoptr(GString) crash = g_string_new(NULL);
    guint n = crash_trigger_count();

    for (guint i = 0; i < n; i++) {
        const char *must = NULL;
        const char *prefix = crash_trigger_prefix(i, &must);
        g_autofree char *p = g_regex_escape_string(prefix, -1);

        g_string_append_printf(crash, "%s%s", i ? "|" : "", p);
        if (must) {
            g_autofree char *m = g_regex_escape_string(must, -1);

            g_string_append_printf(crash, "(?=[^\\r\\n]*%s)", m);
        }
    }
    return g_strdup_printf("(?:%s|" PRINTK_TIME "(?P<crash>(?=%s)))"
                           "(?=(?:(?:(?!" DIRECTIVE
                           ")[^\\r\\n])*\\s(?=#\\s*(?i:skip|todo)))?"
                           "(?P<result>#|not ok|ok|%s))"
                           "(?:(?:not ok|ok)\\s+(?:[0-9]+\\s+)?(?:-\\s+)?)?"
                           "(?P<test_case_id>(?(crash)[^\\r\\n]+|"
                           "(?:(?!" DIRECTIVE "|" PRINTK_TIME ")[^\\r\\n])+))"
                           "(?=[^\\r\\n]*[\\r\\n])",
                           RESULT_MARK, crash->str, crash->str);
}

/* The monitor's fixupdict: what it captures as result -> LAVA's result. */
static GPtrArray *monitor_fixups(void)
{
    static const char *const results[][2] = {
        {"ok", "pass"},
        {"not ok", "fail"},
        {"#", "skip"},
    };
    GPtrArray *pairs = g_ptr_array_new();

    for (guint i = 0; i < G_N_ELEMENTS(results); i++) {
        g_ptr_array_add(pairs, (gpointer)results[i][0]);
        g_ptr_array_add(pairs, (gpointer)results[i][1]);
    }
    for (guint i = 0; i < crash_trigger_count(); i++) {
        const char *must;

        g_ptr_array_add(pairs, (gpointer)crash_trigger_prefix(i, &must));
        g_ptr_array_add(pairs, (gpointer) "fail");
    }
    return pairs;
}

static void monitor_fixupdict(GString *out, const char *indent)
{
    g_autoptr(GPtrArray) pairs = monitor_fixups();

    for (guint i = 0; i + 1 < pairs->len; i += 2) {
        g_string_append(out, indent);
        yaml_quoted(out, g_ptr_array_index(pairs, i));
        g_string_append_printf(out, ": %s\n",
                               (char *)g_ptr_array_index(pairs, i + 1));
    }
}

/* monitor: the monitor's start, end, pattern and fixupdict as JSON, for
 * tests that apply them as LAVA does (tests/lava-monitor-test.py). */
static int cmd_monitor(int argc, char **argv)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GPtrArray) pairs = monitor_fixups();
    g_autofree char *pattern = monitor_pattern();
    g_autofree char *text = NULL;

    (void)argv;
    if (argc > 1) {
        g_printerr("usage: patchbay-lava monitor\n");
        return EXIT_BAD;
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "start");
    json_builder_add_string_value(b, MONITOR_START);
    json_builder_set_member_name(b, "end");
    json_builder_add_string_value(b, MONITOR_END);
    json_builder_set_member_name(b, "pattern");
    json_builder_add_string_value(b, pattern);
    json_builder_set_member_name(b, "fixupdict");
    json_builder_begin_object(b);
    for (guint i = 0; i + 1 < pairs->len; i += 2) {
        json_builder_set_member_name(b, g_ptr_array_index(pairs, i));
        json_builder_add_string_value(b, g_ptr_array_index(pairs, i + 1));
    }
    json_builder_end_object(b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    text = json_generator_to_data(gen, NULL);
    printf("%s\n", text);
    return 0;
}

static gboolean copy_file(const char *from, const char *to, GError **error)
{
    g_autoptr(GFile) src = g_file_new_for_path(from);
    g_autoptr(GFile) dst = g_file_new_for_path(to);

    return g_file_copy(src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL,
                       error);
}

static gboolean write_text(const char *path, const char *text, GError **error)
{
    return g_file_set_contents(path, text, -1, error);
}

typedef struct {
    const char *out, *label, *release, *base_url;
    char *image_sha, *initrd_sha;
} Export;

/* An artifact's URL: under --base-url, else the file itself. */
static char *artifact_url(const Export *x, const char *name)
{
    g_autofree char *path = NULL;

    if (x->base_url) {
        return g_strdup_printf("%s/artifacts/%s", x->base_url, name);
    }
    path = g_build_filename(x->out, "artifacts", name, NULL);
    return g_filename_to_uri(path, NULL, NULL);
}

static char *job_yaml(const Export *x, const PlanVm *vm)
{
    GString *y = g_string_new(NULL);
    g_autofree char *suites = g_strjoinv(",", vm->suites);
    g_autofree char *pattern = monitor_pattern();
    g_autofree char *kernel_url = artifact_url(x, "Image");
    g_autofree char *initrd_url = artifact_url(x, "initramfs.cpio.gz");
    g_autofree char *kernel_arg =
        g_strdup_printf("-kernel {kernel} -append \"%s\"", vm->append);
    g_autofree char *job_name =
        g_strdup_printf("patchbay %s on %s (%s)", suites, x->label, x->release);

    g_string_append_printf(y,
                           "# SPDX-License-Identifier: GPL-2.0-or-later\n"
                           "# patchbay's suite %s as a LAVA job, written by "
                           "scripts/patchbay lava export (docs/lava.md).\n",
                           suites);
    g_string_append(y, "device_type: patchbay-qemu\n");
    yaml_key_quoted(y, "", "job_name", job_name);
    g_string_append(y, "priority: medium\nvisibility: public\n");
    /* the deploy (copies) and the boot come before the suites' own time */
    g_string_append_printf(y,
                           "timeouts:\n"
                           "  job:\n    seconds: %" G_GINT64_FORMAT "\n"
                           "  action:\n    seconds: %" G_GINT64_FORMAT "\n"
                           "  connection:\n    seconds: %" G_GINT64_FORMAT "\n",
                           vm->timeout_s + 420, vm->timeout_s, vm->timeout_s);
    g_string_append(y, "context:\n  arch: aarch64\n  extra_options:\n");
    yaml_list(y, "  ", vm->extra, NULL, 0);
    g_string_append(y, "metadata:\n");
    yaml_key_quoted(y, "  ", "patchbay.suites", suites);
    yaml_key_quoted(y, "  ", "patchbay.kernel", x->label);
    yaml_key_quoted(y, "  ", "patchbay.release", x->release);
    yaml_key_quoted(y, "  ", "patchbay.clock", vm->clock);
    g_string_append(y, "actions:\n"
                       "- deploy:\n"
                       "    to: tmpfs\n"
                       "    timeout:\n      minutes: 5\n"
                       "    images:\n"
                       "      kernel:\n");
    yaml_key_quoted(y, "        ", "image_arg", kernel_arg);
    yaml_key_quoted(y, "        ", "url", kernel_url);
    yaml_key_quoted(y, "        ", "sha256sum", x->image_sha);
    /* "ramdisk", not "initrd": LAVA would unpack an initrd it is told is
     * compressed, and ours is several cpio layers in one file */
    g_string_append(y, "      ramdisk:\n");
    yaml_key_quoted(y, "        ", "image_arg", "-initrd {ramdisk}");
    yaml_key_quoted(y, "        ", "url", initrd_url);
    yaml_key_quoted(y, "        ", "sha256sum", x->initrd_sha);
    g_string_append(y, "- boot:\n"
                       "    method: qemu\n"
                       "    media: tmpfs\n"
                       "    timeout:\n      minutes: 2\n");
    g_string_append_printf(y,
                           "- test:\n"
                           "    timeout:\n      seconds: %" G_GINT64_FORMAT "\n"
                           "    monitors:\n",
                           vm->timeout_s);
    yaml_key_quoted(y, "    - ", "name", vm->name);
    yaml_key_quoted(y, "      ", "start", MONITOR_START);
    yaml_key_quoted(y, "      ", "end", MONITOR_END);
    yaml_key_quoted(y, "      ", "pattern", pattern);
    g_string_append(y, "      fixupdict:\n");
    monitor_fixupdict(y, "        ");
    return g_string_free(y, FALSE);
}

/*
 * The device configuration lava-run reads (what a lava-server renders from
 * lab/patchbay-qemu.jinja2 and a job's context): LAVA's own constants that
 * its actions look up, and our QEMU with the job's options.
 */
static char *local_device_yaml(const Export *x, const PlanVm *vm)
{
    GString *y = g_string_new(NULL);
    g_autofree char *qemu =
        g_build_filename(x->out, "artifacts", "qemu-system-aarch64", NULL);

    g_string_append(y, "# SPDX-License-Identifier: GPL-2.0-or-later\n"
                       "# The device for lava-run (scripts/patchbay lava run): "
                       "what lava-run needs of the\n"
                       "# device a lava-server renders from "
                       "lab/patchbay-qemu.jinja2 for this job (a server\n"
                       "# adds the rest of LAVA's constants and its default "
                       "timeouts).\n"
                       "constants:\n"
                       "  shutdown-message: 'The system is going down for "
                       "reboot NOW'\n"
                       "  kernel-start-message: 'Linux version [0-9]'\n"
                       "  default-shell-prompt: 'lava-test: # '\n"
                       "  spawn_maxread: '4092'\n"
                       "  failure_retry: 1\n"
                       "  boot_retry:\n"
                       "  posix:\n"
                       "    lava_test_sh_cmd: /bin/sh\n"
                       "    lava_test_results_dir: /lava-%s\n"
                       "    lava_test_shell_file: ~/.bashrc\n" DEVICE_BODY);
    yaml_key_quoted(y, "          ", "command", qemu);
    g_string_append(y, "          options:\n");
    yaml_list(y, "          ", NULL, device_options,
              G_N_ELEMENTS(device_options));
    g_string_append(y, "          extra:\n");
    yaml_list(y, "          ", vm->extra, NULL, 0);
    g_string_append(y, "timeouts:\n  actions: {}\n  connections: {}\n");
    return g_string_free(y, FALSE);
}

/* The device type a lab installs, and one device of it (docs/lava.md). */
static char *lab_device_type(void)
{
    GString *y = g_string_new(NULL);

    g_string_append(
        y,
        "{# SPDX-License-Identifier: GPL-2.0-or-later #}\n"
        "{# device_type: patchbay-qemu: patchbay's QEMU (its emulated DS2490 "
        "and agpu) #}\n"
        "{# Written by scripts/patchbay lava export (docs/lava.md). #}\n"
        "{% extends 'base.jinja2' %}\n"
        "{% block body %}\n" DEVICE_BODY
        "          command: {{ patchbay_qemu | default('/usr/local/lib/"
        "patchbay/qemu-system-aarch64') }}\n"
        "          options:\n");
    yaml_list(y, "          ", NULL, device_options,
              G_N_ELEMENTS(device_options));
    g_string_append(y, "{% if extra_options %}\n"
                       "          extra: {{ extra_options }}\n"
                       "{% endif %}\n"
                       "{% endblock body %}\n");
    return g_string_free(y, FALSE);
}

static int cmd_export(int argc, char **argv)
{
    g_autofree char *plan_path = NULL, *out = NULL, *label = NULL;
    g_autofree char *release = NULL, *base_url = NULL;
    GOptionEntry entries[] = {
        {"plan", 0, 0, G_OPTION_ARG_FILENAME, &plan_path,
         "the VMs (patchbay-run --plan)", "FILE"},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &out, "folder to write", "DIR"},
        {"label", 0, 0, G_OPTION_ARG_STRING, &label,
         "the kernel's name (base, a variant, tree-...)", "NAME"},
        {"release", 0, 0, G_OPTION_ARG_STRING, &release, "the kernel's release",
         "STRING"},
        {"base-url", 0, 0, G_OPTION_ARG_STRING, &base_url,
         "where a lab downloads DIR/artifacts from (default: file://)", "URL"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- LAVA jobs");
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) vms = NULL;
    g_autofree char *abs_out = NULL;
    Export x = {0};
    const PlanVm *first;

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error) || !plan_path ||
        !out || !label || !release || argc > 1) {
        g_printerr("patchbay-lava export: %s\n",
                   error ? error->message
                         : "--plan, --out, --label and --release are needed");
        return EXIT_BAD;
    }
    vms = plan_load(plan_path, &error);
    if (!vms) {
        g_printerr("patchbay-lava export: %s\n", error->message);
        return EXIT_BAD;
    }
    first = g_ptr_array_index(vms, 0);
    for (guint i = 1; i < vms->len; i++) {
        const PlanVm *vm = g_ptr_array_index(vms, i);

        if (g_strcmp0(vm->qemu, first->qemu) ||
            g_strcmp0(vm->kernel, first->kernel) ||
            g_strcmp0(vm->initrd, first->initrd)) {
            g_printerr("patchbay-lava export: the VMs of %s boot different "
                       "QEMUs, kernels or initramfs\n",
                       plan_path);
            return EXIT_BAD;
        }
    }
    abs_out = g_canonicalize_filename(out, NULL);
    if (base_url) {
        while (g_str_has_suffix(base_url, "/")) {
            base_url[strlen(base_url) - 1] = '\0';
        }
    }
    x = (Export){.out = abs_out,
                 .label = label,
                 .release = release,
                 .base_url = base_url};
    for (const char *const *d =
             (const char *const[]){"artifacts", "jobs", "local", "lab", NULL};
         *d; d++) {
        g_autofree char *path = g_build_filename(abs_out, *d, NULL);

        if (g_mkdir_with_parents(path, 0755) < 0) {
            g_printerr("patchbay-lava export: cannot create %s: %s\n", path,
                       g_strerror(errno));
            return EXIT_BAD;
        }
    }
    {
        g_autofree char *image =
            g_build_filename(abs_out, "artifacts", "Image", NULL);
        g_autofree char *initrd =
            g_build_filename(abs_out, "artifacts", "initramfs.cpio.gz", NULL);
        g_autofree char *qemu =
            g_build_filename(abs_out, "artifacts", "qemu-system-aarch64", NULL);
        g_autofree char *plan_copy =
            g_build_filename(abs_out, "plan.json", NULL);

        if (!copy_file(first->kernel, image, &error) ||
            !copy_file(first->initrd, initrd, &error) ||
            !copy_file(first->qemu, qemu, &error) ||
            !copy_file(plan_path, plan_copy, &error) ||
            g_chmod(qemu, 0755) < 0 ||
            !(x.image_sha = results_file_sha256(image, &error)) ||
            !(x.initrd_sha = results_file_sha256(initrd, &error))) {
            g_printerr("patchbay-lava export: %s\n",
                       error ? error->message : g_strerror(errno));
            return EXIT_BAD;
        }
    }
    for (guint i = 0; i < vms->len; i++) {
        const PlanVm *vm = g_ptr_array_index(vms, i);
        g_autofree char *name = g_strdup_printf("%s.yaml", vm->name);
        g_autofree char *job_path =
            g_build_filename(abs_out, "jobs", name, NULL);
        g_autofree char *dev_path =
            g_build_filename(abs_out, "local", name, NULL);
        g_autofree char *job = job_yaml(&x, vm);
        g_autofree char *dev = local_device_yaml(&x, vm);

        if (!write_text(job_path, job, &error) ||
            !write_text(dev_path, dev, &error)) {
            g_printerr("patchbay-lava export: %s\n", error->message);
            return EXIT_BAD;
        }
        printf("%s\n", job_path);
    }
    {
        g_autofree char *type_path =
            g_build_filename(abs_out, "lab", "patchbay-qemu.jinja2", NULL);
        g_autofree char *dev_path =
            g_build_filename(abs_out, "lab", "patchbay-qemu-01.jinja2", NULL);
        g_autofree char *type = lab_device_type();

        if (!write_text(type_path, type, &error) ||
            !write_text(dev_path,
                        "{# A device of type patchbay-qemu: set where its "
                        "worker keeps patchbay's QEMU. #}\n"
                        "{% extends 'patchbay-qemu.jinja2' %}\n"
                        "{% set patchbay_qemu = "
                        "'/usr/local/lib/patchbay/qemu-system-aarch64' %}\n",
                        &error)) {
            g_printerr("patchbay-lava export: %s\n", error->message);
            return EXIT_BAD;
        }
    }
    g_free(x.image_sha);
    g_free(x.initrd_sha);
    return 0;
}

typedef struct {
    char *name; /* the job's VM (PlanVm.name) */
    LavaLog *log;
} JobLog;

static void job_log_free(gpointer data)
{
    JobLog *j = data;

    g_free(j->name);
    lava_log_free(j->log);
    g_free(j);
}

/* NAME=LOG arguments: each job's LAVA log, read. */
static GPtrArray *load_job_logs(int argc, char **argv, GError **error)
{
    g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func(job_log_free);

    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        JobLog *j;

        if (!eq || eq == argv[i] || !eq[1]) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "'%s' is not NAME=LOG", argv[i]);
            return NULL;
        }
        j = g_new0(JobLog, 1);
        j->name = g_strndup(argv[i], eq - argv[i]);
        g_ptr_array_add(jobs, j);
        j->log = lava_log_read(eq + 1, error);
        if (!j->log) {
            g_prefix_error(error, "%s: ", eq + 1);
            return NULL;
        }
    }
    if (jobs->len == 0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "no NAME=LOG given");
        return NULL;
    }
    return g_steal_pointer(&jobs);
}

static const PlanVm *plan_find(GPtrArray *vms, const char *name)
{
    for (guint i = 0; i < vms->len; i++) {
        const PlanVm *vm = g_ptr_array_index(vms, i);

        if (g_str_equal(vm->name, name)) {
            return vm;
        }
    }
    return NULL;
}

static int cmd_console(int argc, char **argv)
{
    g_autofree char *export = NULL, *out = NULL, *plan_path = NULL;
    GOptionEntry entries[] = {
        {"export", 0, 0, G_OPTION_ARG_FILENAME, &export,
         "the folder patchbay-lava export wrote", "DIR"},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &out, "console.log to write",
         "FILE"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("NAME=LOG...");
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) vms = NULL, jobs = NULL;
    g_autoptr(GString) text = g_string_new(NULL);

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error) || !export || !out) {
        g_printerr("patchbay-lava console: %s\n",
                   error ? error->message : "--export and --out are needed");
        return EXIT_BAD;
    }
    plan_path = g_build_filename(export, "plan.json", NULL);
    if (!(vms = plan_load(plan_path, &error)) ||
        !(jobs = load_job_logs(argc, argv, &error))) {
        g_printerr("patchbay-lava console: %s\n", error->message);
        return EXIT_BAD;
    }
    /* the runner's console.log: the VM marks first, then their lines */
    for (guint i = 0; i < jobs->len; i++) {
        const JobLog *j = g_ptr_array_index(jobs, i);
        const PlanVm *vm = plan_find(vms, j->name);
        RunRecord rec = {0};
        g_autofree char *mark = NULL;

        if (!vm) {
            g_printerr("patchbay-lava console: %s has no VM named %s\n",
                       plan_path, j->name);
            return EXIT_BAD;
        }
        rec.vm_name = vm->name;
        rec.suites = vm->suites;
        rec.cpus = vm->cpus;
        rec.virtual_clock = g_str_equal(vm->clock, "virtual");
        mark = run_record_vm_mark(&rec);
        g_string_append_printf(text, "%s\n", mark);
    }
    for (guint i = 0; i < jobs->len; i++) {
        const JobLog *j = g_ptr_array_index(jobs, i);
        g_auto(GStrv) lines = g_strsplit(j->log->console->str, "\n", -1);

        for (guint k = 0; lines[k]; k++) {
            if (!lines[k + 1] && !lines[k][0]) {
                break; /* after the last '\n' */
            }
            if (jobs->len > 1) {
                g_string_append_printf(text, "%s" RUN_VM_PREFIX, j->name);
            }
            g_string_append_printf(text, "%s\n", lines[k]);
        }
        if (j->log->console_truncated) {
            g_printerr("patchbay-lava console: %s: the console was cut at "
                       "its limit\n",
                       j->name);
        }
    }
    if (!g_file_set_contents(out, text->str, text->len, &error)) {
        g_printerr("patchbay-lava console: %s\n", error->message);
        return EXIT_BAD;
    }
    return 0;
}

/* "lava" records are LAVA's own actions; the rest are the monitor's. */
static gboolean is_test_result(const LavaResult *r)
{
    return g_strcmp0(r->definition, "lava") != 0;
}

/* test is the job's suite or under it ("w1", "w1/w1_netlink/...") */
static gboolean in_job(const char *test, const char *job)
{
    gsize n = strlen(job);

    return g_str_has_prefix(test, job) && (test[n] == '\0' || test[n] == '/');
}

/* The console fails the job: a test of it failed, never finished, or a
 * crash happened during it. */
static gboolean console_fails(const RunResults *run, const char *job)
{
    for (guint i = 0; i < run->tests->len; i++) {
        const char *test = g_ptr_array_index(run->tests, i);
        KtapResult r = run_results_get(run, test);

        if (in_job(test, job) &&
            (r == KTAP_RESULT_FAIL || r == KTAP_RESULT_NONE)) {
            return TRUE;
        }
    }
    for (guint i = 0; i < run->crashes->len; i++) {
        const RunCrash *c = g_ptr_array_index(run->crashes, i);

        if (c->test && in_job(c->test, job)) {
            return TRUE;
        }
    }
    return FALSE;
}

/*
 * LAVA's view of one job against the console's (results.txt and the
 * crashes, judged by patchbay-run --parse): each test of the job that has
 * a result in results.txt is among LAVA's with the same one; LAVA's others
 * (a program's or suite's own line, a crash) may only fail where the
 * console fails the job; and where it does, LAVA has a failure too.
 * Differences go to stderr, the first few of each job; FALSE if any.
 */
static gboolean check_job(const JobLog *j, const RunResults *run,
                          guint *lava_counts)
{
    g_autoptr(GHashTable) lava =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    guint problems = 0, fails = 0;
    gboolean fails_here = console_fails(run, j->name);

    for (guint i = 0; i < j->log->results->len; i++) {
        const LavaResult *r = g_ptr_array_index(j->log->results, i);
        g_autofree char *key = NULL;
        KtapResult want, got;
        guint n = 2;

        if (!is_test_result(r)) {
            continue;
        }
        if (!ktap_result_from_name(r->result, &got)) {
            got = KTAP_RESULT_NONE;
        }
        lava_counts[got]++;
        fails += got == KTAP_RESULT_FAIL;
        key = g_strdup(r->test_case_id ? r->test_case_id : r->case_name);
        /* the N-th repeat of a name, as run_results_load keys it */
        while (g_hash_table_contains(lava, key)) {
            g_free(key);
            key = g_strdup_printf(
                "%s [%u]", r->test_case_id ? r->test_case_id : r->case_name,
                n++);
        }
        want = run_results_get(run, key);
        if (want == KTAP_RESULT_MISSING || want == KTAP_RESULT_NONE) {
            /* a program's or suite's own line, or a crash */
            if (got == KTAP_RESULT_FAIL && !fails_here && problems++ < 5) {
                g_printerr("  %s: LAVA fails '%s', the console fails nothing "
                           "of %s\n",
                           j->name, key, j->name);
            }
        } else if (want != got) {
            if (problems++ < 5) {
                g_printerr("  %s: '%s': LAVA %s, the console %s\n", j->name,
                           key, r->result, ktap_result_name(want));
            }
        }
        g_hash_table_add(lava, g_steal_pointer(&key));
    }
    for (guint i = 0; i < run->tests->len; i++) {
        const char *test = g_ptr_array_index(run->tests, i);
        KtapResult want = run_results_get(run, test);

        if (want == KTAP_RESULT_NONE || !in_job(test, j->name)) {
            continue;
        }
        if (!g_hash_table_contains(lava, test) && problems++ < 5) {
            g_printerr("  %s: '%s' (%s on the console) has no LAVA result\n",
                       j->name, test, ktap_result_name(want));
        }
    }
    if (g_hash_table_size(lava) == 0 && problems++ < 5) {
        g_printerr("  %s: LAVA recorded no result for it\n", j->name);
    }
    if (fails_here && fails == 0 && problems++ < 5) {
        g_printerr("  %s: the console fails it, LAVA has no failure\n",
                   j->name);
    }
    return problems == 0;
}

static int cmd_check(int argc, char **argv)
{
    g_autofree char *results = NULL;
    GOptionEntry entries[] = {
        {"results", 0, 0, G_OPTION_ARG_FILENAME, &results,
         "the folder patchbay-run --parse wrote from the same consoles", "DIR"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("NAME=LOG...");
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) jobs = NULL;
    g_autoptr(RunResults) run = NULL;
    gboolean agree = TRUE, job_failed = FALSE;

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error) || !results) {
        g_printerr("patchbay-lava check: %s\n",
                   error ? error->message : "--results is needed");
        return EXIT_BAD;
    }
    if (!(jobs = load_job_logs(argc, argv, &error)) ||
        !(run = run_results_load(results, &error))) {
        g_printerr("patchbay-lava check: %s\n", error->message);
        return EXIT_BAD;
    }
    for (guint i = 0; i < jobs->len; i++) {
        const JobLog *j = g_ptr_array_index(jobs, i);
        guint counts[KTAP_RESULT_MISSING + 1] = {0};
        gboolean same = check_job(j, run, counts);
        const LavaResult *job = j->log->job;

        printf("lava %s: %u results (%u pass, %u fail, %u skip), %s; "
               "LAVA job %s%s%s%s\n",
               j->name,
               counts[KTAP_RESULT_PASS] + counts[KTAP_RESULT_FAIL] +
                   counts[KTAP_RESULT_SKIP] + counts[KTAP_RESULT_NONE],
               counts[KTAP_RESULT_PASS], counts[KTAP_RESULT_FAIL],
               counts[KTAP_RESULT_SKIP],
               same ? "as the console's" : "NOT as the console's",
               job ? job->result : "result missing",
               job && job->error_type ? " (" : "",
               job && job->error_type ? job->error_type : "",
               job && job->error_type ? ")" : "");
        agree = agree && same;
        job_failed = job_failed || !job || g_strcmp0(job->result, "pass");
    }
    if (!agree) {
        return EXIT_BAD;
    }
    return job_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int argc, char **argv);
    } cmds[] = {
        {"export", cmd_export},
        {"console", cmd_console},
        {"check", cmd_check},
        {"monitor", cmd_monitor},
    };

    for (guint i = 0; argc > 1 && i < G_N_ELEMENTS(cmds); i++) {
        if (g_str_equal(argv[1], cmds[i].name)) {
            return cmds[i].fn(argc - 1, argv + 1);
        }
    }
    g_printerr(
        "usage: patchbay-lava export|console|check|monitor ... (--help)\n");
    return EXIT_BAD;
}
