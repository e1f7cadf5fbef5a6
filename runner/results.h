/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: compare result folders (read with resultdir.h): two runs
 * (patchbay-compare), or the negative-control variants against the base
 * run (patchbay-mutants).
 *
 * A negative-control variant's folder also holds variant.meta, a copy of
 * kernel-patches/variants/<name>/variant: the one parser of that format is
 * variant_meta_load() (the scripts ask patchbay-mutants --variant-field).
 *
 * Errors are reported as G_IO_ERROR_INVALID_DATA (malformed content) or
 * G_FILE_ERROR_* (unreadable file); every message names the file.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "resultdir.h"

G_BEGIN_DECLS

/* TRUE if suites is NULL or empty, or test's suite (the text before its
 * first '/') is one of them. */
gboolean test_in_suites(const char *test, const char *const *suites);

typedef struct {
    char *test;
    KtapResult base, with;
} TestPair;

/*
 * The union of the tests of base and with that are in suites (NULL: all),
 * in first-seen order (base's order, then the tests only with has), as
 * TestPair *.  A test is changed when pair->base != pair->with.
 */
GPtrArray *results_diff(const RunResults *base, const RunResults *with,
                        const char *const *suites);

/*
 * The crashes of a that b does not have, by kind and test, as RunCrash *
 * owned by a; a crash that happened twice in a and once in b counts once.
 */
GPtrArray *results_crashes_only_in(const RunResults *a, const RunResults *b);

/* A negative-control variant's description ("key: value" lines, '#'
 * comments; unknown keys are ignored). */
typedef struct {
    char *removes; /* the check the variant removes */
    char **suites; /* the suites that must notice */
    /*
     * test-path prefixes of the tests that must fail, one per killed-by: line
     */
    char **killed_by;
    /* kernel arguments its run needs, one per append: line (may be empty) */
    char **append;
} VariantMeta;

/* removes:, suites: and killed-by: are all required. */
VariantMeta *variant_meta_load(const char *path, GError **error);
void variant_meta_free(VariantMeta *meta);
/* The values of one key ("removes", "suites", "killed-by", "append"), one
 * per element (g_strfreev); NULL for an unknown key. */
char **variant_meta_field(const VariantMeta *meta, const char *key);
/* Does test start with one of meta's killed-by prefixes? */
gboolean variant_meta_expects(const VariantMeta *meta, const char *test);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(VariantMeta, variant_meta_free)

typedef enum {
    MUTANT_KILLED,     /* some test or a kernel crash noticed */
    MUTANT_SURVIVED,   /* complete run, nothing noticed: a test gap */
    MUTANT_INCOMPLETE, /* the run stopped before anything noticed */
} MutantStatus;

/* "killed", "survived", "incomplete" */
const char *mutant_status_name(MutantStatus status);

typedef struct {
    MutantStatus status;
    /*
     * char *: "kernel <kind> during <test>" for each crash of the mutant run,
     * then each test in meta->suites that passed in base and is fail or none in
     * the mutant
     */
    GPtrArray *killers;
    gboolean expected; /* a killer's test is under meta->killed_by */
    guint elsewhere;   /* killers whose test does not */
} MutantVerdict;

MutantVerdict *mutant_classify(const RunResults *base, const RunResults *mutant,
                               const VariantMeta *meta);
void mutant_verdict_free(MutantVerdict *verdict);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MutantVerdict, mutant_verdict_free)

G_END_DECLS

/* ---- JSON output of patchbay-compare, patchbay-mutants and series ---- */

/* member: {"variant", "kernel", "verdict", "tests": tests} of run */
void results_json_add_run(JsonBuilder *b, const char *member,
                          const RunResults *run, guint tests);
/* member: [{"kind", "test"}...] of crashes (RunCrash *; "test" null
 * when the crash came outside a test) */
void results_json_add_crashes(JsonBuilder *b, const char *member,
                              GPtrArray *crashes);
/* member: an array of n strings, or of a NULL-terminated list if n < 0
 * (an empty array when strings is NULL) */
void results_json_add_strv(JsonBuilder *b, const char *member, char **strings,
                           gint n);
