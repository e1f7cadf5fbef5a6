// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results: load patchbay-run's result directories, diff two of them and
 * classify a negative-control variant against the base run.  See results.h.
 */
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "results.h"

static const char *const result_names[] = {
    [TEST_MISSING] = "missing",
    [TEST_PASS] = "pass",
    [TEST_FAIL] = "fail",
    [TEST_SKIP] = "skip",
    [TEST_NONE] = "none",
};

const char *test_result_name(TestResult result)
{
    g_return_val_if_fail(result < G_N_ELEMENTS(result_names), "?");
    return result_names[result];
}

static void run_crash_free(gpointer data)
{
    RunCrash *c = data;

    g_free(c->kind);
    g_free(c->test);
    g_free(c);
}

void run_results_free(RunResults *run)
{
    if (!run) {
        return;
    }
    g_free(run->verdict);
    g_free(run->variant);
    g_free(run->kernel);
    g_ptr_array_unref(run->tests);
    g_hash_table_unref(run->results);
    g_ptr_array_unref(run->crashes);
    g_free(run);
}

TestResult run_results_get(const RunResults *run, const char *test)
{
    /* TEST_MISSING is 0, which is what a failed lookup returns. */
    return GPOINTER_TO_INT(g_hash_table_lookup(run->results, test));
}

static gboolean parse_result(const char *word, TestResult *result)
{
    /* Start at 1: "missing" never appears in results.txt. */
    for (guint i = TEST_PASS; i < G_N_ELEMENTS(result_names); i++) {
        if (strcmp(word, result_names[i]) == 0) {
            *result = i;
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean load_results_txt(RunResults *run, const char *path,
                                 GError **error)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    /* path -> how many times it was seen so far, for repeated paths */
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                       g_free, NULL);

    if (!g_file_get_contents(path, &text, NULL, error)) {
        return FALSE;
    }
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *tab = strchr(lines[i], '\t');
        TestResult result;
        guint n;
        char *key;

        if (!lines[i + 1] && !*lines[i]) {
            break;      /* the empty string after the final newline */
        }
        if (!tab) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: no TAB between result and test path", path,
                        i + 1);
            return FALSE;
        }
        *tab = '\0';
        if (!parse_result(lines[i], &result)) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: unknown result '%s' (not pass, fail, skip or "
                        "none)", path, i + 1, lines[i]);
            return FALSE;
        }
        n = GPOINTER_TO_UINT(g_hash_table_lookup(seen, tab + 1)) + 1;
        g_hash_table_insert(seen, g_strdup(tab + 1), GUINT_TO_POINTER(n));
        key = n == 1 ? g_strdup(tab + 1) : g_strdup_printf("%s [%u]", tab + 1, n);
        /* A case literally named "x [2]" would collide; bump N until free. */
        while (g_hash_table_contains(run->results, key)) {
            g_free(key);
            key = g_strdup_printf("%s [%u]", tab + 1, ++n);
        }
        g_ptr_array_add(run->tests, key);
        g_hash_table_insert(run->results, key, GINT_TO_POINTER(result));
    }
    return TRUE;
}

/* The member as a string, or NULL if absent or not a string. */
static const char *string_member(JsonObject *obj, const char *name)
{
    JsonNode *node = json_object_get_member(obj, name);

    if (!node || !JSON_NODE_HOLDS_VALUE(node) ||
        json_node_get_value_type(node) != G_TYPE_STRING) {
        return NULL;
    }
    return json_node_get_string(node);
}

static gboolean load_summary(RunResults *run, const char *path,
                             GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root, *crashes;
    JsonObject *obj;
    const char *verdict, *variant, *kernel;

    if (!g_file_get_contents(path, &text, NULL, error)) {
        return FALSE;
    }
    if (!json_parser_load_from_data(parser, text, -1, error)) {
        g_prefix_error(error, "%s: ", path);
        return FALSE;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: not a JSON object", path);
        return FALSE;
    }
    obj = json_node_get_object(root);
    verdict = string_member(obj, "verdict");
    variant = string_member(obj, "variant");
    kernel = string_member(obj, "kernel");
    if (!verdict || !variant || !kernel) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: \"verdict\", \"variant\" and \"kernel\" must be strings",
                    path);
        return FALSE;
    }
    if (!g_str_equal(verdict, "pass") && !g_str_equal(verdict, "fail") &&
        !g_str_equal(verdict, "incomplete")) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: unknown verdict '%s'", path, verdict);
        return FALSE;
    }
    crashes = json_object_get_member(obj, "crashes");
    if (!crashes || !JSON_NODE_HOLDS_ARRAY(crashes)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: \"crashes\" must be an array", path);
        return FALSE;
    }
    for (guint i = 0; i < json_array_get_length(json_node_get_array(crashes));
         i++) {
        JsonNode *c = json_array_get_element(json_node_get_array(crashes), i);
        RunCrash *crash;

        if (!JSON_NODE_HOLDS_OBJECT(c) ||
            !string_member(json_node_get_object(c), "kind")) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s: crash %u has no \"kind\"", path, i);
            return FALSE;
        }
        crash = g_new0(RunCrash, 1);
        crash->kind = g_strdup(string_member(json_node_get_object(c), "kind"));
        /* null (or absent) when the crash happened outside any test */
        crash->test = g_strdup(string_member(json_node_get_object(c), "test"));
        g_ptr_array_add(run->crashes, crash);
    }
    run->verdict = g_strdup(verdict);
    run->variant = g_strdup(variant);
    run->kernel = g_strdup(kernel);
    return TRUE;
}

RunResults *run_results_load(const char *dir, GError **error)
{
    g_autoptr(RunResults) run = g_new0(RunResults, 1);
    g_autofree char *txt = g_build_filename(dir, "results.txt", NULL);
    g_autofree char *json = g_build_filename(dir, "summary.json", NULL);

    run->tests = g_ptr_array_new_with_free_func(g_free);
    /* The keys are owned by run->tests. */
    run->results = g_hash_table_new(g_str_hash, g_str_equal);
    run->crashes = g_ptr_array_new_with_free_func(run_crash_free);
    if (!load_summary(run, json, error) || !load_results_txt(run, txt, error)) {
        return NULL;
    }
    return g_steal_pointer(&run);
}

gboolean test_in_suites(const char *test, const char *const *suites)
{
    const char *slash = strchr(test, '/');
    gsize len = slash ? (gsize)(slash - test) : strlen(test);

    if (!suites || !suites[0]) {
        return TRUE;
    }
    for (guint i = 0; suites[i]; i++) {
        if (strlen(suites[i]) == len && strncmp(test, suites[i], len) == 0) {
            return TRUE;
        }
    }
    return FALSE;
}

static void test_pair_free(gpointer data)
{
    TestPair *p = data;

    g_free(p->test);
    g_free(p);
}

static void add_pair(GPtrArray *pairs, const char *test, TestResult base,
                     TestResult with)
{
    TestPair *p = g_new0(TestPair, 1);

    p->test = g_strdup(test);
    p->base = base;
    p->with = with;
    g_ptr_array_add(pairs, p);
}

GPtrArray *results_diff(const RunResults *base, const RunResults *with,
                        const char *const *suites)
{
    GPtrArray *pairs = g_ptr_array_new_with_free_func(test_pair_free);

    for (guint i = 0; i < base->tests->len; i++) {
        const char *t = g_ptr_array_index(base->tests, i);

        if (test_in_suites(t, suites)) {
            add_pair(pairs, t, run_results_get(base, t),
                     run_results_get(with, t));
        }
    }
    for (guint i = 0; i < with->tests->len; i++) {
        const char *t = g_ptr_array_index(with->tests, i);

        if (test_in_suites(t, suites) &&
            !g_hash_table_contains(base->results, t)) {
            add_pair(pairs, t, TEST_MISSING, run_results_get(with, t));
        }
    }
    return pairs;
}

void variant_meta_free(VariantMeta *meta)
{
    if (!meta) {
        return;
    }
    g_free(meta->removes);
    g_strfreev(meta->suites);
    g_strfreev(meta->killed_by);
    g_free(meta);
}

VariantMeta *variant_meta_load(const char *path, GError **error)
{
    g_autoptr(VariantMeta) meta = g_new0(VariantMeta, 1);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GStrvBuilder) killed_by = g_strv_builder_new();

    if (!g_file_get_contents(path, &text, NULL, error)) {
        return NULL;
    }
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *line = g_strstrip(lines[i]);
        char *colon = strchr(line, ':');
        char *value;

        if (!*line || *line == '#') {
            continue;
        }
        if (!colon) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        "%s:%u: expected 'key: value'", path, i + 1);
            return NULL;
        }
        *colon = '\0';
        g_strchomp(line);
        value = g_strstrip(colon + 1);
        if (g_str_equal(line, "removes")) {
            g_free(meta->removes);
            meta->removes = g_strdup(value);
        } else if (g_str_equal(line, "killed-by")) {
            if (*value) {
                g_strv_builder_add(killed_by, value);
            }
        } else if (g_str_equal(line, "suites")) {
            g_autoptr(GStrvBuilder) b = g_strv_builder_new();
            g_auto(GStrv) words = g_strsplit_set(value, " \t", -1);

            for (guint j = 0; words[j]; j++) {
                if (*words[j]) {
                    g_strv_builder_add(b, words[j]);
                }
            }
            g_strfreev(meta->suites);
            meta->suites = g_strv_builder_end(b);
        }
    }
    meta->killed_by = g_strv_builder_end(killed_by);
    /* Without suites: the diff would count every other suite of the base
     * run as missing, i.e. as killers; so insist on all three keys. */
    if (!meta->removes || !*meta->removes || !meta->suites ||
        !meta->suites[0] || !meta->killed_by[0]) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: needs non-empty 'removes:', 'suites:' and "
                    "'killed-by:' lines", path);
        return NULL;
    }
    return g_steal_pointer(&meta);
}

const char *mutant_status_name(MutantStatus status)
{
    static const char *const names[] = {
        [MUTANT_KILLED] = "killed",
        [MUTANT_SURVIVED] = "survived",
        [MUTANT_INCOMPLETE] = "incomplete",
    };

    g_return_val_if_fail(status < G_N_ELEMENTS(names), "?");
    return names[status];
}

void mutant_verdict_free(MutantVerdict *verdict)
{
    if (!verdict) {
        return;
    }
    g_ptr_array_unref(verdict->killers);
    g_free(verdict);
}

gboolean variant_meta_expects(const VariantMeta *meta, const char *test)
{
    for (guint i = 0; test && meta->killed_by[i]; i++) {
        if (g_str_has_prefix(test, meta->killed_by[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

static void add_killer(MutantVerdict *v, const VariantMeta *meta,
                       char *killer, const char *test)
{
    g_ptr_array_add(v->killers, killer);
    if (variant_meta_expects(meta, test)) {
        v->expected = TRUE;
    } else {
        v->elsewhere++;
    }
}

MutantVerdict *mutant_classify(const RunResults *base,
                               const RunResults *mutant,
                               const VariantMeta *meta)
{
    MutantVerdict *v = g_new0(MutantVerdict, 1);
    g_autoptr(GPtrArray) pairs =
        results_diff(base, mutant, (const char *const *)meta->suites);

    v->killers = g_ptr_array_new_with_free_func(g_free);
    /* Crashes first: they are the loudest kill and the table shows only
     * the first two killers. */
    for (guint i = 0; i < mutant->crashes->len; i++) {
        RunCrash *c = g_ptr_array_index(mutant->crashes, i);

        add_killer(v, meta,
                   g_strdup_printf("kernel %s during %s", c->kind,
                                   c->test ? c->test : "(no test)"),
                   c->test);
    }
    for (guint i = 0; i < pairs->len; i++) {
        TestPair *p = g_ptr_array_index(pairs, i);

        /* A skip is not a kill: a test that skips noticed nothing. Nor is
         * a missing one: a run that stops early is a crash or incomplete,
         * and a test whose name holds run-time data (a PID in openat2's
         * resolve_test) is missing under the old name in every run. */
        if (p->base == TEST_PASS &&
            (p->with == TEST_FAIL || p->with == TEST_NONE)) {
            add_killer(v, meta, g_strdup(p->test), p->test);
        }
    }
    if (v->killers->len) {
        v->status = MUTANT_KILLED;
    } else if (g_str_equal(mutant->verdict, "incomplete")) {
        v->status = MUTANT_INCOMPLETE;
    } else {
        v->status = MUTANT_SURVIVED;
    }
    return v;
}

void results_json_add_run(JsonBuilder *b, const char *member,
                          const RunResults *run, guint tests)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "variant");
    json_builder_add_string_value(b, run->variant);
    json_builder_set_member_name(b, "kernel");
    json_builder_add_string_value(b, run->kernel);
    json_builder_set_member_name(b, "verdict");
    json_builder_add_string_value(b, run->verdict);
    json_builder_set_member_name(b, "tests");
    json_builder_add_int_value(b, tests);
    json_builder_end_object(b);
}

void results_json_add_strv(JsonBuilder *b, const char *member,
                           char **strings, gint n)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (gint i = 0; strings && (n < 0 ? strings[i] != NULL : i < n); i++) {
        json_builder_add_string_value(b, strings[i]);
    }
    json_builder_end_array(b);
}

gboolean results_json_write(JsonBuilder *b, const char *path, GError **error)
{
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_autofree char *text = json_to_string(root, TRUE);
    g_autofree char *with_nl = g_strconcat(text, "\n", NULL);

    return g_file_set_contents(path, with_nl, -1, error);
}
