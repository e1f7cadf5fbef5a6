// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchbay-compare: show which tests changed result between two runs
 * (typically the base kernel and a variant or a patched kernel).
 *
 *   patchbay-compare [--json FILE] [--suite NAME]... BASE_DIR WITH_DIR
 *
 * A test that only one run has counts as "missing" in the other; --suite
 * limits the comparison to those suites (a run of one suite compared with
 * the full base run would otherwise list every other test as missing).
 * Crashes are compared by kind and test, over the whole runs.
 *
 * Exit codes, like diff(1): 0 no difference; 1 differences; 2 trouble (an
 * unusable directory, or a run whose verdict is "incomplete").
 */
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "results.h"

enum { EXIT_SAME = 0, EXIT_DIFFERENT = 1, EXIT_TROUBLE = 2 };

static const char *crash_test(const RunCrash *c)
{
    return c->test ? c->test : "(no test)";
}

typedef struct {
    guint base_tests, with_tests, changed, pass_to_fail, fail_to_pass, other;
} Counts;

static gboolean write_json(const char *path, const RunResults *base,
                           const RunResults *with, char **suites,
                           GPtrArray *pairs, const Counts *n, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    results_json_add_run(b, "base", base, n->base_tests);
    results_json_add_run(b, "with", with, n->with_tests);
    if (suites) {
        results_json_add_strv(b, "suites", suites, -1);
    } else {
        json_builder_set_member_name(b, "suites");
        json_builder_add_null_value(b);
    }
    json_builder_set_member_name(b, "changed");
    json_builder_begin_array(b);
    for (guint i = 0; i < pairs->len; i++) {
        TestPair *p = g_ptr_array_index(pairs, i);

        if (p->base == p->with) {
            continue;
        }
        json_builder_begin_object(b);
        results_json_add_string(b, "test", p->test);
        results_json_add_string(b, "base", ktap_result_name(p->base));
        results_json_add_string(b, "with", ktap_result_name(p->with));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "counts");
    json_builder_begin_object(b);
    results_json_add_int(b, "compared", pairs->len);
    results_json_add_int(b, "changed", n->changed);
    results_json_add_int(b, "pass_to_fail", n->pass_to_fail);
    results_json_add_int(b, "fail_to_pass", n->fail_to_pass);
    results_json_add_int(b, "other", n->other);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "crashes");
    json_builder_begin_object(b);
    results_json_add_crashes(b, "base", base->crashes);
    results_json_add_crashes(b, "with", with->crashes);
    json_builder_end_object(b);
    json_builder_end_object(b);

    return results_json_write(b, path, error);
}

int main(int argc, char **argv)
{
    g_autofree char *json_path = NULL;
    g_auto(GStrv) suites = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(RunResults) base = NULL, with = NULL;
    g_autoptr(GPtrArray) pairs = NULL, base_only = NULL, with_only = NULL;
    Counts n = {0};
    int code = EXIT_SAME;
    GOptionEntry entries[] = {
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &json_path,
         "also write the comparison as JSON to FILE", "FILE"},
        {"suite", 0, 0, G_OPTION_ARG_STRING_ARRAY, &suites,
         "compare only this suite (repeatable)", "NAME"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("BASE_DIR WITH_DIR - compare two patchbay runs");

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-compare: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (argc != 3) {
        g_printerr("patchbay-compare: usage: patchbay-compare [--json FILE] "
                   "[--suite NAME]... BASE_DIR WITH_DIR\n");
        return EXIT_TROUBLE;
    }
    base = run_results_load(argv[1], &error);
    if (!base) {
        g_printerr("patchbay-compare: base: %s\n", error->message);
        g_clear_error(&error);
    }
    with = run_results_load(argv[2], &error);
    if (!with) {
        g_printerr("patchbay-compare: with: %s\n", error->message);
    }
    if (!base || !with) {
        return EXIT_TROUBLE;
    }

    pairs = results_diff(base, with, (const char *const *)suites);
    /* A misspelt --suite would otherwise read as "no test differs". */
    for (guint i = 0; suites && suites[i]; i++) {
        const char *one[] = {suites[i], NULL};
        g_autoptr(GPtrArray) in_suite = results_diff(base, with, one);

        if (!in_suite->len) {
            g_printerr("patchbay-compare: neither run has a test in suite "
                       "'%s'\n",
                       suites[i]);
            code = EXIT_TROUBLE;
        }
    }
    for (guint i = 0; i < pairs->len; i++) {
        TestPair *p = g_ptr_array_index(pairs, i);

        n.base_tests += p->base != KTAP_RESULT_MISSING;
        n.with_tests += p->with != KTAP_RESULT_MISSING;
    }
    printf("base: %s (%s), verdict %s, %u tests\n", base->variant, base->kernel,
           base->verdict, n.base_tests);
    printf("with: %s (%s), verdict %s, %u tests\n", with->variant, with->kernel,
           with->verdict, n.with_tests);
    for (guint i = 0; i < pairs->len; i++) {
        TestPair *p = g_ptr_array_index(pairs, i);

        if (p->base == p->with) {
            continue;
        }
        n.changed++;
        if (p->base == KTAP_RESULT_PASS && p->with == KTAP_RESULT_FAIL) {
            n.pass_to_fail++;
        } else if (p->base == KTAP_RESULT_FAIL && p->with == KTAP_RESULT_PASS) {
            n.fail_to_pass++;
        } else {
            n.other++;
        }
        printf("  %s -> %-6s %s\n", ktap_result_name(p->base),
               ktap_result_name(p->with), p->test);
    }
    base_only = results_crashes_only_in(base, with);
    with_only = results_crashes_only_in(with, base);
    for (guint i = 0; i < base_only->len; i++) {
        RunCrash *c = g_ptr_array_index(base_only, i);

        printf("  crash (base): %s during %s\n", c->kind, crash_test(c));
    }
    for (guint i = 0; i < with_only->len; i++) {
        RunCrash *c = g_ptr_array_index(with_only, i);

        printf("  crash (with): %s during %s\n", c->kind, crash_test(c));
    }
    if (n.changed) {
        printf("%u of %u tests differ: %u pass->fail, %u fail->pass, %u other",
               n.changed, pairs->len, n.pass_to_fail, n.fail_to_pass, n.other);
    } else {
        printf("no test differs (%u compared)", pairs->len);
    }
    printf("; crashes: base %u, with %u\n", base->crashes->len,
           with->crashes->len);

    if (json_path &&
        !write_json(json_path, base, with, suites, pairs, &n, &error)) {
        g_printerr("patchbay-compare: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (code != EXIT_TROUBLE &&
        (n.changed || base_only->len || with_only->len)) {
        code = EXIT_DIFFERENT;
    }
    /* An incomplete run's missing tests say nothing about the kernel. */
    if (g_str_equal(base->verdict, "incomplete")) {
        g_printerr("patchbay-compare: the base run is incomplete; "
                   "its results are partial\n");
        code = EXIT_TROUBLE;
    }
    if (g_str_equal(with->verdict, "incomplete")) {
        g_printerr("patchbay-compare: the with run is incomplete; "
                   "its results are partial\n");
        code = EXIT_TROUBLE;
    }
    return code;
}
