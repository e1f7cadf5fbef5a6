/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * testutil: what the unit tests of the result folders, series and
 * bisection share: a temporary folder per test, fixture files and result
 * folders in it, and running one of the programs under test.  Every
 * failure is a test assertion.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A new temporary folder named after the test program (g_free). */
char *testutil_tmp_dir(void);

/* The fixture of the tests that need a temporary folder alone. */
typedef struct {
    char *tmp;
} TmpFixture;

/* g_test_add's setup and teardown of a TmpFixture: tmp is made; tmp is
 * removed with all in it. */
void tmp_fixture_setup(TmpFixture *f, gconstpointer data);
void tmp_fixture_teardown(TmpFixture *f, gconstpointer data);

/* Remove path and everything below it (not what a symlink points to). */
void testutil_remove_tree(const char *path);

/* Write text to dir/name. */
void testutil_write_file(const char *dir, const char *name, const char *text);

/* Write text to dir/name, executable. */
void testutil_write_script(const char *dir, const char *name, const char *text);

/*
 * A result folder dir/name (created) with results.txt and summary.json;
 * crashes is the JSON array text of summary.json's "crashes" ("[]" for
 * none).  Returns the folder's path (g_free).
 */
char *testutil_make_run(const char *dir, const char *name, const char *variant,
                        const char *verdict, const char *results,
                        const char *crashes);

/*
 * Run the program whose path is in the environment variable prog_env
 * (tests/meson.build puts it there) with args (NULL-terminated), in envp
 * (NULL: ours), and wait for it.  Its exit code, or -1 with the test
 * skipped when prog_env is not set.  Its stdout and stderr go to *out and
 * *err (each freed first; either pointer may be NULL) and to the test's
 * messages.
 */
int testutil_runv(const char *prog_env, char **envp, char **out, char **err,
                  const char *const *args);
/* testutil_runv with the args as a NULL-terminated list. */
int testutil_run(const char *prog_env, char **envp, char **out, char **err,
                 ...) G_GNUC_NULL_TERMINATED;

/* The root object of the JSON file path, loaded by parser. */
JsonObject *testutil_load_json(JsonParser *parser, const char *path);

G_END_DECLS
