/*
 * results: read the result directories that patchbay-run writes and
 * compare two of them (patchbay-compare, patchbay-mutants).
 *
 * A result directory holds results.txt ("RESULT<TAB>suite/exe/case" per
 * leaf test, in run order) and summary.json (verdict, variant, kernel,
 * crashes).  A negative-control variant's directory also holds
 * variant.meta, a copy of kernel-patches/variants/<name>/variant.
 *
 * Errors are reported as G_IO_ERROR_INVALID_DATA (malformed content),
 * G_FILE_ERROR_* (unreadable file) or JSON_PARSER_ERROR_* (invalid JSON);
 * every message names the file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
    TEST_MISSING,   /* not in that run at all (only in diffs) */
    TEST_PASS,
    TEST_FAIL,
    TEST_SKIP,
    TEST_NONE,      /* started but never reported a result */
} TestResult;

/* "missing", "pass", "fail", "skip", "none" */
const char *test_result_name(TestResult result);

typedef struct {
    char *kind;     /* "panic", "oops", "warn", "kasan", "hang", ... */
    char *test;     /* test running at the time, or NULL */
} RunCrash;

typedef struct {
    char *verdict;          /* "pass", "fail" or "incomplete" */
    char *variant;          /* "base" for the base kernel */
    char *kernel;           /* release string */
    GPtrArray *tests;       /* char *: test keys in run order; the N-th
                               repeat of a path (N >= 2) is "path [N]" */
    GHashTable *results;    /* test key -> GINT_TO_POINTER(TestResult) */
    GPtrArray *crashes;     /* RunCrash * */
} RunResults;

/* Load dir/results.txt and dir/summary.json. */
RunResults *run_results_load(const char *dir, GError **error);
void run_results_free(RunResults *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RunResults, run_results_free)

/* TEST_MISSING if the run has no such test. */
TestResult run_results_get(const RunResults *run, const char *test);

/* TRUE if suites is NULL or empty, or test's suite (the text before its
 * first '/') is one of them. */
gboolean test_in_suites(const char *test, const char *const *suites);

typedef struct {
    char *test;
    TestResult base, with;
} TestPair;

/*
 * The union of the tests of base and with that are in suites (NULL: all),
 * in first-seen order (base's order, then the tests only with has), as
 * TestPair *.  A test is changed when pair->base != pair->with.
 */
GPtrArray *results_diff(const RunResults *base, const RunResults *with,
                        const char *const *suites);

/* A negative-control variant's description ("key: value" lines, '#'
 * comments; unknown keys are ignored). */
typedef struct {
    char *removes;      /* the check the variant removes */
    char **suites;      /* the suites that must notice */
    char **killed_by;   /* test-path prefixes of the tests that must fail,
                           one per killed-by: line */
} VariantMeta;

/* removes:, suites: and killed-by: are all required. */
VariantMeta *variant_meta_load(const char *path, GError **error);
void variant_meta_free(VariantMeta *meta);
/* Does test start with one of meta's killed-by prefixes? */
gboolean variant_meta_expects(const VariantMeta *meta, const char *test);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(VariantMeta, variant_meta_free)

typedef enum {
    MUTANT_KILLED,      /* some test or a kernel crash noticed */
    MUTANT_SURVIVED,    /* complete run, nothing noticed: a test gap */
    MUTANT_INCOMPLETE,  /* the run stopped before anything noticed */
} MutantStatus;

/* "killed", "survived", "incomplete" */
const char *mutant_status_name(MutantStatus status);

typedef struct {
    MutantStatus status;
    GPtrArray *killers; /* char *: "kernel <kind> during <test>" for each
                           crash of the mutant run, then each test in
                           meta->suites that passed in base and is fail
                           or none in the mutant */
    gboolean expected;  /* a killer's test is under meta->killed_by */
    guint elsewhere;    /* killers whose test does not */
} MutantVerdict;

MutantVerdict *mutant_classify(const RunResults *base,
                               const RunResults *mutant,
                               const VariantMeta *meta);
void mutant_verdict_free(MutantVerdict *verdict);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MutantVerdict, mutant_verdict_free)

G_END_DECLS

/* ---- JSON output of patchbay-compare and patchbay-mutants ---- */

/* member: {"variant", "kernel", "verdict", "tests": tests} of run */
void results_json_add_run(JsonBuilder *b, const char *member,
                          const RunResults *run, guint tests);
/* member: an array of n strings, or of a NULL-terminated list if n < 0
 * (an empty array when strings is NULL) */
void results_json_add_strv(JsonBuilder *b, const char *member,
                           char **strings, gint n);
/* Write the builder's value to path, pretty-printed, with a final newline. */
gboolean results_json_write(JsonBuilder *b, const char *path, GError **error);
