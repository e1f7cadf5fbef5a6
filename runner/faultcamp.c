/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultcamp: a campaign's consoles, signatures and findings (faultcamp.h).
 */
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "faultcamp.h"
#include "resultdir.h"

/* ---- signatures ----------------------------------------------------------- */

/*
 * Frames that say how a report was made, not where the bug is: the
 * report's machinery, WARN's and BUG's trap, the fault handlers, lock,
 * sleep and scheduler helpers (a hung task's trace starts in them).
 */
static const char *const generic_frames[] = {
    "dump_backtrace", "show_stack", "dump_stack", "dump_stack_lvl",
    "__dump_stack", "print_report", "print_address_description",
    "kasan_report", "__warn", "report_bug", "bug_handler", "call_break_hook",
    "brk_handler", "do_debug_exception", "el1_dbg", "el1h_64_sync_handler",
    "el1h_64_sync", "el1_abort", "do_mem_abort", "__do_kernel_fault",
    "die_kernel_fault", "do_page_fault", "do_translation_fault",
    "do_bad_area", "panic", "die", "__die", "arm64_notify_die",
    "__switch_to", "context_switch", "debug_check_no_locks_freed",
    "check_noncircular", "print_circular_bug", "check_prev_add",
    "check_prevs_add", "validate_chain", "print_deadlock_bug",
    "check_deadlock", "lock_acquire", "lock_release", "lock_acquired",
    "__lock_acquire", "__might_resched", "__might_sleep", "__might_fault",
    "might_sleep", "io_schedule", "io_schedule_timeout",
};

static const char *const generic_prefixes[] = {
    "kasan_", "__kasan_", "__asan_", "ubsan_", "__ubsan_", "kfence_",
    "warn_", "__warn_", "lockdep_", "__lockdep_", "mutex_lock", "__mutex_lock",
    "mutex_unlock", "_raw_spin", "__raw_spin", "spin_lock", "spin_unlock",
    "_raw_read", "_raw_write", "down_", "__down", "up_read", "up_write",
    "rwsem_", "schedule", "__schedule", "preempt_schedule",
    "wait_for_completion", "__wait_for_common", "wait_for_common",
    "do_wait_for_common", "usleep_range", "msleep",
};

static gboolean frame_is_generic(const char *fn)
{
    for (guint i = 0; i < G_N_ELEMENTS(generic_frames); i++) {
        if (g_str_equal(fn, generic_frames[i])) {
            return TRUE;
        }
    }
    for (guint i = 0; i < G_N_ELEMENTS(generic_prefixes); i++) {
        if (g_str_has_prefix(fn, generic_prefixes[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

/* A console line without its "NAME| " and "[ time]" prefixes. */
static const char *kernel_text(const char *line)
{
    const char *bar = strstr(line, "| ");
    const char *p;

    if (bar && bar - line < 32 && !memchr(line, ' ', (gsize)(bar - line))) {
        line = bar + 2;
    }
    p = line;
    while (*p == ' ') {
        p++;
    }
    if (*p == '[') {
        const char *end = strchr(p, ']');

        if (end) {
            p = end + 1;
            while (*p == ' ') {
                p++;
            }
        }
    }
    return p;
}

/* "name+0x1c/0x30 [mod]" or "name.isra.0+0x.." -> "name" (g_free), or NULL */
static char *frame_function(const char *text)
{
    g_autoptr(GRegex) re = g_regex_new(
        "^([A-Za-z_][A-Za-z0-9_]*)(\\.[A-Za-z0-9_.]+)?\\+0x[0-9a-f]+/0x[0-9a-f]+",
        0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;

    if (!g_regex_match(re, text, 0, &m)) {
        return NULL;
    }
    return g_match_info_fetch(m, 1);
}

/* Replace every match of pattern in *text by by, in place. */
static void subst(char **text, const char *pattern, const char *by)
{
    g_autoptr(GRegex) re = g_regex_new(pattern, 0, 0, NULL);
    char *out = g_regex_replace(re, *text, -1, 0, by, 0, NULL);

    g_free(*text);
    *text = out;
}

char *fc_report_title(const char *first_line)
{
    char *t = g_strdup(kernel_text(first_line));
    g_autoptr(GRegex) warn = g_regex_new(
        "^WARNING: CPU: \\d+ PID: \\d+ at \\S+ (\\S+)", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;

    g_strstrip(t);
    if (g_regex_match(warn, t, 0, &m)) {
        g_autofree char *where = g_match_info_fetch(m, 1);
        g_autofree char *fn = frame_function(where);

        g_free(t);
        return g_strdup_printf("WARNING in %s", fn ? fn : where);
    }
    if (g_str_has_prefix(t, "BUG: KASAN: ") || g_str_has_prefix(t, "BUG: KFENCE: ")) {
        memmove(t, t + 5, strlen(t + 5) + 1);
    }
    /* offsets, addresses, numbers that change from run to run */
    subst(&t, "\\+0x[0-9a-f]+/0x[0-9a-f]+", "");
    subst(&t, "(0x)?[0-9a-f]{8,}", "ADDR");
    subst(&t, "(PID: |CPU: |CPU#|pid |for )\\d+", "\\1N");
    /* a task's name is what ran into it, not the bug */
    subst(&t, "^INFO: task .* blocked for more than \\d+ seconds\\.",
          "INFO: task hung");
    return t;
}

char **fc_report_frames(const char *excerpt, guint max)
{
    g_auto(GStrv) lines = g_strsplit(excerpt ? excerpt : "", "\n", -1);
    g_autoptr(GPtrArray) frames = g_ptr_array_new();
    gboolean in_trace = FALSE, any_trace = FALSE;

    for (guint i = 0; lines[i]; i++) {
        any_trace |= strstr(lines[i], "Call trace:") != NULL;
    }
    for (guint i = 0; lines[i] && frames->len < max; i++) {
        const char *t = kernel_text(lines[i]);
        const char *at = strstr(t, ", at: ");
        char *fn = NULL;

        if (g_str_has_prefix(t, "Call trace:")) {
            in_trace = TRUE;
            continue;
        }
        if (in_trace) {
            fn = frame_function(t);
        } else if (g_str_has_prefix(t, "pc : ")) {
            fn = frame_function(t + 5); /* the faulting function */
        } else if (!any_trace && at) {
            fn = frame_function(at + 6); /* lockdep: where locks were taken */
        }
        if (!fn) {
            continue;
        }
        if (frame_is_generic(fn) ||
            g_ptr_array_find_with_equal_func(frames, fn, g_str_equal, NULL)) {
            g_free(fn);
            continue;
        }
        g_ptr_array_add(frames, fn);
    }
    g_ptr_array_add(frames, NULL);
    return (char **)g_ptr_array_free(g_steal_pointer(&frames), FALSE);
}

static FcFinding *finding_new(guint64 seed, const char *kind, char *title,
                              char **frames, const char *report)
{
    FcFinding *f = g_new0(FcFinding, 1);
    g_autofree char *joined = g_strjoinv(" < ", frames);

    f->seed = seed;
    f->kind = g_strdup(kind);
    f->title = title;
    f->frames = frames;
    f->signature = frames[0] ? g_strdup_printf("%s | %s", title, joined)
                             : g_strdup(title);
    f->report = g_strdup(report);
    return f;
}

FcFinding *fc_finding_from_report(guint64 seed, const char *kind,
                                  const char *excerpt)
{
    g_auto(GStrv) lines = g_strsplit(excerpt ? excerpt : "", "\n", 2);

    return finding_new(seed, kind, fc_report_title(lines[0] ? lines[0] : ""),
                       fc_report_frames(excerpt, FC_SIGNATURE_FRAMES), excerpt);
}

FcFinding *fc_finding_from_guest(guint64 seed, const char *kind,
                                 const char *op, const char *detail)
{
    g_autofree char *report =
        g_strdup_printf("%s in %s: %s", kind, op, detail ? detail : "");
    char *title;
    char **frames = g_new0(char *, 1);

    if (g_str_equal(kind, "kernel-report")) {
        title = fc_report_title(detail ? detail : "");
    } else if (g_str_equal(kind, "log-flood")) {
        title = g_strdup("kernel log flood");
    } else {
        title = g_strdup_printf("%s in %s", kind, op);
    }
    return finding_new(seed, kind, title, frames, report);
}

void fc_finding_free(FcFinding *f)
{
    if (!f) {
        return;
    }
    g_free(f->kind);
    g_free(f->title);
    g_strfreev(f->frames);
    g_free(f->signature);
    g_free(f->report);
    g_free(f);
}

/* ---- a VM's console ------------------------------------------------------- */

void fc_vm_free(FcVm *vm)
{
    if (!vm) {
        return;
    }
    g_free(vm->rates);
    g_free(vm->setup_failed);
    g_ptr_array_unref(vm->findings);
    g_array_unref(vm->faults);
    g_free(vm);
}

/* "a=1,b=2" -> 3 */
static guint count_faults(const char *counts)
{
    g_auto(GStrv) items = g_strsplit(counts, ",", -1);
    guint n = 0;

    for (guint i = 0; items[i]; i++) {
        const char *eq = strchr(items[i], '=');

        n += eq ? (guint)strtoul(eq + 1, NULL, 10) : 0;
    }
    return n;
}

/* The seed of a crash's test: "…/seed S", or "…/#N" (the N-th episode). */
static guint64 crash_seed(const FcVm *vm, const char *test)
{
    const char *leaf = test ? strrchr(test, '/') : NULL;

    if (leaf && g_str_has_prefix(leaf, "/seed ")) {
        return g_ascii_strtoull(leaf + 6, NULL, 10);
    }
    if (leaf && leaf[1] == '#') {
        guint64 n = g_ascii_strtoull(leaf + 2, NULL, 10);

        return n ? vm->first_seed + n - 1 : 0;
    }
    /* outside the program's tests: the episode running, if one was */
    if (!vm->rates) {
        return 0;
    }
    return vm->last_seed ? vm->last_seed + 1 : vm->first_seed;
}

static FcFinding *finding_of_seed(const FcVm *vm, guint64 seed)
{
    for (guint i = 0; i < vm->findings->len; i++) {
        FcFinding *f = g_ptr_array_index(vm->findings, i);

        if (f->seed == seed) {
            return f;
        }
    }
    return NULL;
}

/* One console line of the guest program's. */
static void parse_line(FcVm *vm, const char *line, GPtrArray *guest)
{
    static GRegex *result, *finding, *counts;
    g_autoptr(GMatchInfo) m = NULL;
    const char *t = kernel_text(line);

    if (!result) {
        result = g_regex_new("^(not )?ok \\d+ seed (\\d+)", 0, 0, NULL);
        finding = g_regex_new(
            "^# faultcamp finding seed=(\\d+) kind=(\\S+) op=(\\S+): (.*)$", 0,
            0, NULL);
        counts = g_regex_new("^# faultcamp counts seed=\\d+: ?(.*)$", 0, 0,
                             NULL);
    }
    if (g_str_has_prefix(t, "# faultcamp rates: ")) {
        g_free(vm->rates);
        vm->rates = g_strdup(t + strlen("# faultcamp rates: "));
    } else if (g_str_has_prefix(t, "# faultcamp setup failed: ")) {
        g_free(vm->setup_failed);
        vm->setup_failed = g_strdup(t + strlen("# faultcamp setup failed: "));
    } else if (g_regex_match(result, t, 0, &m)) {
        g_autofree char *seed = g_match_info_fetch(m, 2);

        vm->episodes++;
        vm->last_seed = MAX(vm->last_seed, g_ascii_strtoull(seed, NULL, 10));
    } else if (g_regex_match(finding, t, 0, &m)) {
        g_autofree char *seed = g_match_info_fetch(m, 1);
        g_autofree char *kind = g_match_info_fetch(m, 2);
        g_autofree char *op = g_match_info_fetch(m, 3);
        g_autofree char *detail = g_match_info_fetch(m, 4);

        g_ptr_array_add(guest,
                        fc_finding_from_guest(g_ascii_strtoull(seed, NULL, 10),
                                              kind, op, detail));
    } else if (g_regex_match(counts, t, 0, &m)) {
        g_autofree char *c = g_match_info_fetch(m, 1);
        guint n = count_faults(c);

        g_array_append_val(vm->faults, n);
    }
}

FcVm *fc_vm_parse(guint64 first_seed, const char *const *lines,
                  JsonArray *crashes)
{
    FcVm *vm = g_new0(FcVm, 1);
    g_autoptr(GPtrArray) guest =
        g_ptr_array_new_with_free_func((GDestroyNotify)fc_finding_free);

    vm->first_seed = first_seed;
    vm->findings = g_ptr_array_new_with_free_func((GDestroyNotify)fc_finding_free);
    vm->faults = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint i = 0; lines && lines[i]; i++) {
        parse_line(vm, lines[i], guest);
    }
    /* last_seed is the last result's seed so far */
    for (guint i = 0; crashes && i < json_array_get_length(crashes); i++) {
        JsonObject *c = json_array_get_object_element(crashes, i);
        const char *kind = json_object_get_string_member_with_default(c, "kind", "?");
        const char *test = json_object_get_string_member_with_default(c, "test", NULL);
        const char *excerpt =
            json_object_get_string_member_with_default(c, "excerpt", "");
        guint64 seed = crash_seed(vm, test);

        /* the first report of a seed is its cause; the rest follow from it */
        if (!finding_of_seed(vm, seed)) {
            g_ptr_array_add(vm->findings,
                            fc_finding_from_report(seed, kind, excerpt));
        }
    }
    for (guint i = 0; i < guest->len; i++) {
        FcFinding *f = g_ptr_array_index(guest, i);

        if (!finding_of_seed(vm, f->seed)) {
            g_ptr_array_add(vm->findings, g_ptr_array_steal_index(guest, i--));
        }
    }
    /* a seed without a result that has a finding: the VM ended in it */
    for (guint i = 0; i < vm->findings->len; i++) {
        FcFinding *f = g_ptr_array_index(vm->findings, i);

        vm->last_seed = MAX(vm->last_seed, f->seed);
    }
    return vm;
}

FcVm *fc_vm_load(guint64 first_seed, const char *dir, GError **error)
{
    g_autofree char *console = g_build_filename(dir, "console.log", NULL);
    g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonArray *crashes = NULL;

    if (!g_file_get_contents(console, &text, NULL, error)) {
        return NULL;
    }
    lines = g_strsplit(text, "\n", -1);
    if (json_parser_load_from_file(parser, summary, NULL)) {
        JsonNode *root = json_parser_get_root(parser);

        if (JSON_NODE_HOLDS_OBJECT(root)) {
            JsonNode *c = json_object_get_member(json_node_get_object(root),
                                                 "crashes");

            crashes = c && JSON_NODE_HOLDS_ARRAY(c) ? json_node_get_array(c) : NULL;
        }
    }
    return fc_vm_parse(first_seed, (const char *const *)lines, crashes);
}

guint64 fc_vm_next_seed(const FcVm *vm)
{
    return vm->last_seed >= vm->first_seed ? vm->last_seed + 1 : 0;
}

/* ---- the campaign --------------------------------------------------------- */

static void group_free(FcGroup *g)
{
    g_free(g->signature);
    g_free(g->title);
    g_free(g->kind);
    g_strfreev(g->frames);
    g_free(g->report);
    g_array_unref(g->seeds);
    g_free(g->plan);
    g_free(g->recording);
    g_free(g->repro_note);
    g_free(g);
}

FcCampaign *fc_campaign_new(const char *device, guint64 first_seed,
                            guint seeds)
{
    FcCampaign *c = g_new0(FcCampaign, 1);

    c->device = g_strdup(device);
    c->first_seed = first_seed;
    c->seeds = seeds;
    c->groups = g_ptr_array_new_with_free_func((GDestroyNotify)group_free);
    c->by_signature = g_hash_table_new(g_str_hash, g_str_equal);
    c->histogram = g_array_new(FALSE, TRUE, sizeof(guint));
    return c;
}

void fc_campaign_free(FcCampaign *c)
{
    if (!c) {
        return;
    }
    g_free(c->device);
    g_free(c->rates);
    g_hash_table_unref(c->by_signature);
    g_ptr_array_unref(c->groups);
    g_array_unref(c->histogram);
    g_free(c);
}

char *fc_plan(guint64 seed, const char *rates)
{
    return rates && rates[0]
               ? g_strdup_printf("seed=%" G_GUINT64_FORMAT ",%s", seed, rates)
               : g_strdup_printf("seed=%" G_GUINT64_FORMAT, seed);
}

void fc_campaign_add_vm(FcCampaign *c, const FcVm *vm)
{
    c->vms++;
    c->episodes += vm->episodes;
    if (vm->rates && !c->rates) {
        c->rates = g_strdup(vm->rates);
    }
    for (guint i = 0; i < vm->faults->len; i++) {
        guint n = g_array_index(vm->faults, guint, i);

        if (c->histogram->len <= n) {
            g_array_set_size(c->histogram, n + 1);
        }
        g_array_index(c->histogram, guint, n)++;
    }
    for (guint i = 0; i < vm->findings->len; i++) {
        const FcFinding *f = g_ptr_array_index(vm->findings, i);
        FcGroup *g = g_hash_table_lookup(c->by_signature, f->signature);

        if (!g) {
            g = g_new0(FcGroup, 1);
            g->signature = g_strdup(f->signature);
            g->title = g_strdup(f->title);
            g->kind = g_strdup(f->kind);
            g->frames = g_strdupv(f->frames);
            g->report = g_strdup(f->report);
            g->seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
            g->plan = f->seed ? fc_plan(f->seed, vm->rates) : NULL;
            g->vm_first = vm->first_seed;
            g->reproduced = g->replayed = -1;
            g_ptr_array_add(c->groups, g);
            g_hash_table_insert(c->by_signature, g->signature, g);
        }
        g_array_append_val(g->seeds, f->seed);
    }
}

guint fc_campaign_findings(const FcCampaign *c)
{
    return c->groups->len;
}

double fc_campaign_rate(const FcCampaign *c)
{
    return c->elapsed_s > 0 ? c->episodes * 60.0 / c->elapsed_s : 0;
}

static void add_tristate(JsonBuilder *b, const char *member, int v)
{
    json_builder_set_member_name(b, member);
    if (v < 0) {
        json_builder_add_null_value(b);
    } else {
        json_builder_add_boolean_value(b, v);
    }
}

static void build_group(JsonBuilder *b, const FcGroup *g)
{
    json_builder_begin_object(b);
    results_json_add_string(b, "title", g->title);
    results_json_add_string(b, "kind", g->kind);
    results_json_add_string(b, "signature", g->signature);
    json_builder_set_member_name(b, "frames");
    json_builder_begin_array(b);
    for (guint i = 0; g->frames[i]; i++) {
        json_builder_add_string_value(b, g->frames[i]);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "seeds");
    json_builder_begin_array(b);
    for (guint i = 0; i < g->seeds->len; i++) {
        json_builder_add_int_value(b, (gint64)g_array_index(g->seeds, guint64, i));
    }
    json_builder_end_array(b);
    results_json_add_string(b, "plan", g->plan);
    results_json_add_int(b, "vm_first_seed", (gint64)g->vm_first);
    results_json_add_string(b, "recording", g->recording);
    add_tristate(b, "reproduced", g->reproduced);
    add_tristate(b, "replayed", g->replayed);
    results_json_add_string(b, "reproduction_note", g->repro_note);
    results_json_add_string(b, "report", g->report);
    json_builder_end_object(b);
}

gboolean fc_campaign_write_json(const FcCampaign *c, const char *path,
                                GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    results_json_add_string(b, "device", c->device);
    results_json_add_int(b, "first_seed", (gint64)c->first_seed);
    results_json_add_int(b, "seeds", c->seeds);
    results_json_add_int(b, "episodes", c->episodes);
    results_json_add_int(b, "vms", c->vms);
    results_json_add_double(b, "elapsed_s", c->elapsed_s);
    results_json_add_double(b, "episodes_per_min", fc_campaign_rate(c));
    results_json_add_string(b, "rates", c->rates);
    /* faults injected -> episodes, the counts that occurred only (an
     * episode whose driver polls a register can draw thousands) */
    json_builder_set_member_name(b, "faults_per_episode");
    json_builder_begin_object(b);
    for (guint i = 0; i < c->histogram->len; i++) {
        guint n = g_array_index(c->histogram, guint, i);
        g_autofree char *key = g_strdup_printf("%u", i);

        if (n) {
            json_builder_set_member_name(b, key);
            json_builder_add_int_value(b, n);
        }
    }
    json_builder_end_object(b);
    json_builder_set_member_name(b, "findings");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->groups->len; i++) {
        build_group(b, g_ptr_array_index(c->groups, i));
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return results_json_write(b, path, error);
}

static const char *tristate(int v)
{
    return v < 0 ? "-" : v ? "yes" : "no";
}

char *fc_campaign_format(const FcCampaign *c)
{
    GString *s = g_string_new(NULL);
    guint with = 0, few = 0, tried = 0, same = 0;

    for (guint i = 1; i < c->histogram->len; i++) {
        with += g_array_index(c->histogram, guint, i);
        few += i <= 3 ? g_array_index(c->histogram, guint, i) : 0;
    }
    few += c->histogram->len ? g_array_index(c->histogram, guint, 0) : 0;
    g_string_append_printf(s,
                           "faults --device %s: %u episodes (seeds %" G_GUINT64_FORMAT
                           "..), %u VMs, %.0f s, %.0f episodes/min; %u episodes "
                           "with a fault, %u with 0 to 3\n",
                           c->device, c->episodes, c->first_seed, c->vms,
                           c->elapsed_s, fc_campaign_rate(c), with, few);
    if (c->groups->len == 0) {
        g_string_append(s, "no finding\n");
        return g_string_free(s, FALSE);
    }
    g_string_append_printf(s, "%-3s %-14s %-6s %-12s %-10s %-8s %s\n", "#",
                           "kind", "seeds", "first seed", "reproduced",
                           "replayed", "title | frames");
    for (guint i = 0; i < c->groups->len; i++) {
        const FcGroup *g = g_ptr_array_index(c->groups, i);

        g_string_append_printf(s, "%-3u %-14s %-6u %-12" G_GUINT64_FORMAT
                               " %-10s %-8s %s\n",
                               i + 1, g->kind, g->seeds->len,
                               g_array_index(g->seeds, guint64, 0),
                               tristate(g->reproduced), tristate(g->replayed),
                               g->signature);
        tried += g->reproduced >= 0;
        same += g->reproduced > 0;
    }
    if (tried) {
        g_string_append_printf(s, "reproduced under record/replay: %u of %u "
                                  "tried (H4)\n", same, tried);
    }
    return g_string_free(s, FALSE);
}

int fc_campaign_exit_status(const FcCampaign *c)
{
    return c->groups->len ? 1 : 0;
}
