/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-mutants: score the test suites against the negative-control
 * kernel variants (kernel-patches/variants/), each of which removes one
 * check from the kernel.  A variant is "killed" when a test that passed on
 * the base kernel fails (or never finishes) on it, or the kernel crashes;
 * a variant that survives shows a check no test exercises.
 *
 *   patchbay-mutants [--json FILE] BASE_DIR MUTANT_DIR...
 *   patchbay-mutants --variant-field KEY VARIANT_FILE
 *
 * The second form prints one key of a variant file (removes, suites,
 * killed-by, append), one value a line: the scripts read the format
 * through it, so that it is parsed in one place (variant_meta_load).
 *
 * Each MUTANT_DIR is the variant's result directory with its variant file
 * copied in as variant.meta.
 *
 * Exit codes: 0 every variant killed; 1 one survived; 2 a variant run is
 * incomplete or unusable, or the base run is.
 */
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "results.h"

enum { EXIT_ALL_KILLED = 0, EXIT_SURVIVOR = 1, EXIT_TROUBLE = 2 };

typedef struct {
    char *name;
    VariantMeta *meta;      /* NULL when the directory is unusable */
    MutantVerdict *verdict; /* NULL when the directory is unusable */
    char *why;              /* why it is unusable */
    guint crashes;          /* crashes of the run, all among the killers */
} Mutant;

static void mutant_free(gpointer data)
{
    Mutant *m = data;

    g_free(m->name);
    variant_meta_free(m->meta);
    mutant_verdict_free(m->verdict);
    g_free(m->why);
    g_free(m);
}

static MutantStatus mutant_status(const Mutant *m)
{
    return m->verdict ? m->verdict->status : MUTANT_INCOMPLETE;
}

static Mutant *mutant_load(const RunResults *base, const char *dir)
{
    Mutant *m = g_new0(Mutant, 1);
    g_autoptr(GError) error = NULL;
    g_autoptr(RunResults) run = run_results_load(dir, &error);
    g_autofree char *meta_path = g_build_filename(dir, "variant.meta", NULL);

    if (run) {
        m->meta = variant_meta_load(meta_path, &error);
    }
    if (!run || !m->meta) {
        /* Named by its directory: its summary may be missing, or say
         * "base" when the wrong directory was passed. */
        m->name = g_path_get_basename(dir);
        m->why = g_strdup(error->message);
        g_printerr("patchbay-mutants: %s: %s\n", m->name, error->message);
        return m;
    }
    m->name = g_strdup(run->variant);
    m->verdict = mutant_classify(base, run, m->meta);
    m->crashes = run->crashes->len;
    return m;
}

/* "w1 suite" / "msm, w1 suites" */
static char *suites_phrase(char **suites)
{
    g_autofree char *list = g_strjoinv(", ", suites);

    return g_strdup_printf("%s %s", list, suites[1] ? "suites" : "suite");
}

static void print_mutant(const Mutant *m)
{
    MutantVerdict *v = m->verdict;
    g_autoptr(GString) what = g_string_new(NULL);
    const char *status = "INCOMPLETE";

    if (!v) {
        g_string_printf(what, "unusable results: %s", m->why);
    } else if (v->status == MUTANT_KILLED) {
        /* Not "tests" when a crash is among the killers. */
        const char *noun = m->crashes ? "killer" : "test";

        status = "killed";
        g_string_printf(what, "%u %s%s: ", v->killers->len, noun,
                        v->killers->len == 1 ? "" : "s");
        for (guint i = 0; i < v->killers->len && i < 2; i++) {
            g_string_append_printf(what, "%s%s", i ? ", " : "",
                                   (char *)g_ptr_array_index(v->killers, i));
        }
        if (v->killers->len > 2) {
            g_string_append_printf(what, " (+%u)", v->killers->len - 2);
        }
    } else if (v->status == MUTANT_SURVIVED) {
        g_autofree char *suites = suites_phrase(m->meta->suites);

        status = "SURVIVED";
        /* The kernel behaved as the variant made it; the tests are at fault. */
        g_string_printf(what,
                        "no test noticed: the %s %s this check "
                        "(a gap in the tests, not a kernel bug)",
                        suites, m->meta->suites[1] ? "miss" : "misses");
    } else {
        g_string_printf(what, "the run stopped before any test noticed "
                              "(verdict incomplete)");
    }
    printf("%-32s %-9s %s\n", m->name, status, what->str);
    if (m->meta) {
        printf("  removes: %s\n", m->meta->removes);
    }
    if (v && v->status == MUTANT_KILLED) {
        g_autofree char *declared = g_strjoinv("', '", m->meta->killed_by);

        if (!v->expected) {
            printf("  note: declared killed-by '%s' but none of its tests "
                   "failed\n",
                   declared);
        } else if (v->elsewhere) {
            printf("  note: %u killer%s outside '%s'\n", v->elsewhere,
                   v->elsewhere == 1 ? "" : "s", declared);
        }
    }
}

static gboolean write_json(const char *path, const RunResults *base,
                           GPtrArray *mutants, guint killed, guint percent,
                           GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    results_json_add_run(b, "base", base, base->tests->len);

    json_builder_set_member_name(b, "mutants");
    json_builder_begin_array(b);
    for (guint i = 0; i < mutants->len; i++) {
        Mutant *m = g_ptr_array_index(mutants, i);

        json_builder_begin_object(b);
        results_json_add_string(b, "name", m->name);
        results_json_add_string(b, "removes",
                                m->meta ? m->meta->removes : NULL);
        results_json_add_strv(b, "suites", m->meta ? m->meta->suites : NULL,
                              -1);
        results_json_add_strv(b, "declared_killed_by",
                              m->meta ? m->meta->killed_by : NULL, -1);
        results_json_add_string(b, "status",
                                mutant_status_name(mutant_status(m)));
        results_json_add_strv(b, "killers",
                              m->verdict ? (char **)m->verdict->killers->pdata
                                         : NULL,
                              m->verdict ? (gint)m->verdict->killers->len : 0);
        results_json_add_bool(b, "expected",
                              m->verdict && m->verdict->expected);
        results_json_add_int(b, "elsewhere",
                             m->verdict ? m->verdict->elsewhere : 0);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    results_json_add_int(b, "killed", killed);
    results_json_add_int(b, "total", mutants->len);
    results_json_add_int(b, "score_percent", percent);
    json_builder_end_object(b);

    return results_json_write(b, path, error);
}

/* --variant-field KEY FILE */
static int print_variant_field(const char *key, const char *path)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(VariantMeta) meta = variant_meta_load(path, &error);
    g_auto(GStrv) values = NULL;

    if (!meta) {
        g_printerr("patchbay-mutants: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    values = variant_meta_field(meta, key);
    if (!values) {
        g_printerr("patchbay-mutants: unknown variant key '%s' (removes, "
                   "suites, killed-by, append)\n",
                   key);
        return EXIT_TROUBLE;
    }
    for (guint i = 0; values[i]; i++) {
        printf("%s\n", values[i]);
    }
    return EXIT_ALL_KILLED;
}

int main(int argc, char **argv)
{
    g_autofree char *json_path = NULL;
    g_autofree char *field = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(RunResults) base = NULL;
    g_autoptr(GPtrArray) mutants = g_ptr_array_new_with_free_func(mutant_free);
    guint killed = 0, survived = 0, incomplete = 0, percent;
    GOptionEntry entries[] = {
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &json_path,
         "also write the scores as JSON to FILE", "FILE"},
        {"variant-field", 0, 0, G_OPTION_ARG_STRING, &field,
         "print KEY of the variant file given as the argument, one value "
         "a line, and exit",
         "KEY"},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new(
        "BASE_DIR MUTANT_DIR... - score the tests against negative controls");

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-mutants: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (field) {
        if (argc != 2) {
            g_printerr("patchbay-mutants: usage: patchbay-mutants "
                       "--variant-field KEY VARIANT_FILE\n");
            return EXIT_TROUBLE;
        }
        return print_variant_field(field, argv[1]);
    }
    if (argc < 3) {
        g_printerr("patchbay-mutants: usage: patchbay-mutants [--json FILE] "
                   "BASE_DIR MUTANT_DIR...\n");
        return EXIT_TROUBLE;
    }
    base = run_results_load(argv[1], &error);
    if (!base) {
        g_printerr("patchbay-mutants: base: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (g_str_equal(base->verdict, "incomplete")) {
        /* Tests the base never ran cannot kill anything. */
        g_printerr("patchbay-mutants: the base run is incomplete; "
                   "scores may be too low\n");
    }

    printf("%-32s %-9s %s\n", "MUTANT", "STATUS", "KILLED BY");
    for (int i = 2; i < argc; i++) {
        Mutant *m = mutant_load(base, argv[i]);

        g_ptr_array_add(mutants, m);
        switch (mutant_status(m)) {
        case MUTANT_KILLED:
            killed++;
            break;
        case MUTANT_SURVIVED:
            survived++;
            break;
        case MUTANT_INCOMPLETE:
            incomplete++;
            break;
        }
        print_mutant(m);
    }
    percent = killed * 100 / mutants->len; /* rounds down */
    printf("mutation score: %u/%u killed (%u%%)", killed, mutants->len,
           percent);
    if (survived || incomplete) {
        printf(": %u survived, %u incomplete", survived, incomplete);
    }
    printf("\n");

    if (json_path &&
        !write_json(json_path, base, mutants, killed, percent, &error)) {
        g_printerr("patchbay-mutants: %s\n", error->message);
        return EXIT_TROUBLE;
    }
    if (incomplete || g_str_equal(base->verdict, "incomplete")) {
        return EXIT_TROUBLE;
    }
    return survived ? EXIT_SURVIVOR : EXIT_ALL_KILLED;
}
