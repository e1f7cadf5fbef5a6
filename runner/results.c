/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: diff two result folders (their tests and their crashes) and
 * classify a negative-control variant against the base run.  See results.h.
 */
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "results.h"

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

static void add_pair(GPtrArray *pairs, const char *test, KtapResult base,
                     KtapResult with)
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
            add_pair(pairs, t, KTAP_RESULT_MISSING, run_results_get(with, t));
        }
    }
    return pairs;
}

GPtrArray *results_crashes_only_in(const RunResults *a, const RunResults *b)
{
    GPtrArray *only = g_ptr_array_new();
    g_autofree gboolean *used = g_new0(gboolean, b->crashes->len + 1);

    for (guint i = 0; i < a->crashes->len; i++) {
        RunCrash *ca = g_ptr_array_index(a->crashes, i);
        gboolean found = FALSE;

        for (guint j = 0; j < b->crashes->len && !found; j++) {
            RunCrash *cb = g_ptr_array_index(b->crashes, j);

            if (!used[j] && g_str_equal(ca->kind, cb->kind) &&
                g_strcmp0(ca->test, cb->test) == 0) {
                used[j] = found = TRUE;
            }
        }
        if (!found) {
            g_ptr_array_add(only, ca);
        }
    }
    return only;
}

void variant_meta_free(VariantMeta *meta)
{
    if (!meta) {
        return;
    }
    g_free(meta->removes);
    g_strfreev(meta->suites);
    g_strfreev(meta->killed_by);
    g_strfreev(meta->append);
    g_free(meta);
}

VariantMeta *variant_meta_load(const char *path, GError **error)
{
    g_autoptr(VariantMeta) meta = g_new0(VariantMeta, 1);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GStrvBuilder) killed_by = g_strv_builder_new();
    g_autoptr(GStrvBuilder) append = g_strv_builder_new();

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
        } else if (g_str_equal(line, "append")) {
            if (*value) {
                g_strv_builder_add(append, value);
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
    meta->append = g_strv_builder_end(append);
    /* Without suites: the diff would count every other suite of the base
     * run as missing, i.e. as killers; so insist on all three keys. */
    if (!meta->removes || !*meta->removes || !meta->suites ||
        !meta->suites[0] || !meta->killed_by[0]) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                    "%s: needs non-empty 'removes:', 'suites:' and "
                    "'killed-by:' lines",
                    path);
        return NULL;
    }
    return g_steal_pointer(&meta);
}

char **variant_meta_field(const VariantMeta *meta, const char *key)
{
    if (g_str_equal(key, "removes")) {
        const char *one[] = {meta->removes, NULL};

        return g_strdupv((char **)one);
    }
    if (g_str_equal(key, "suites")) {
        return g_strdupv(meta->suites);
    }
    if (g_str_equal(key, "killed-by")) {
        return g_strdupv(meta->killed_by);
    }
    if (g_str_equal(key, "append")) {
        return g_strdupv(meta->append);
    }
    return NULL;
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

static void add_killer(MutantVerdict *v, const VariantMeta *meta, char *killer,
                       const char *test)
{
    g_ptr_array_add(v->killers, killer);
    if (variant_meta_expects(meta, test)) {
        v->expected = TRUE;
    } else {
        v->elsewhere++;
    }
}

MutantVerdict *mutant_classify(const RunResults *base, const RunResults *mutant,
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
        if (p->base == KTAP_RESULT_PASS &&
            (p->with == KTAP_RESULT_FAIL || p->with == KTAP_RESULT_NONE)) {
            add_killer(v, meta, g_strdup(p->test), p->test);
        }
        /* The suite itself failed where base ran its tests: /init could
         * not start it (a kernel whose opens fail). */
        if (p->base == KTAP_RESULT_MISSING && p->with == KTAP_RESULT_FAIL &&
            g_strv_contains((const char *const *)meta->suites, p->test)) {
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
    results_json_add_string(b, "variant", run->variant);
    results_json_add_string(b, "kernel", run->kernel);
    results_json_add_string(b, "verdict", run->verdict);
    results_json_add_int(b, "tests", tests);
    json_builder_end_object(b);
}

void results_json_add_crashes(JsonBuilder *b, const char *member,
                              GPtrArray *crashes)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (guint i = 0; i < crashes->len; i++) {
        RunCrash *c = g_ptr_array_index(crashes, i);

        json_builder_begin_object(b);
        results_json_add_string(b, "kind", c->kind);
        results_json_add_string(b, "test", c->test);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

void results_json_add_strv(JsonBuilder *b, const char *member, char **strings,
                           gint n)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (gint i = 0; strings && (n < 0 ? strings[i] != NULL : i < n); i++) {
        json_builder_add_string_value(b, strings[i]);
    }
    json_builder_end_array(b);
}
