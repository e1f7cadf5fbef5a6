/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * testutil: temporary folders, fixture files and result folders, and
 * running a program under test, for the unit tests.  See testutil.h.
 */
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "testutil.h"

char *testutil_tmp_dir(void)
{
    /* g_test_init's prgname is the program's whole path */
    g_autofree char *prog = g_path_get_basename(g_get_prgname());
    g_autofree char *template = g_strconcat(prog, "-XXXXXX", NULL);
    g_autoptr(GError) error = NULL;
    char *dir = g_dir_make_tmp(template, &error);

    g_assert_no_error(error);
    return dir;
}

void tmp_fixture_setup(TmpFixture *f, G_GNUC_UNUSED gconstpointer data)
{
    f->tmp = testutil_tmp_dir();
}

void tmp_fixture_teardown(TmpFixture *f, G_GNUC_UNUSED gconstpointer data)
{
    testutil_remove_tree(f->tmp);
    g_free(f->tmp);
}

void testutil_remove_tree(const char *path)
{
    GDir *dir = g_dir_open(path, 0, NULL);
    const char *name;

    while (dir && (name = g_dir_read_name(dir))) {
        g_autofree char *child = g_build_filename(path, name, NULL);

        if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
            !g_file_test(child, G_FILE_TEST_IS_SYMLINK)) {
            testutil_remove_tree(child);
        } else {
            g_unlink(child);
        }
    }
    if (dir) {
        g_dir_close(dir);
    }
    g_rmdir(path);
}

void testutil_write_file(const char *dir, const char *name, const char *text)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename(dir, name, NULL);

    g_assert_true(g_file_set_contents(path, text, -1, &error));
    g_assert_no_error(error);
}

void testutil_write_script(const char *dir, const char *name, const char *text)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);

    testutil_write_file(dir, name, text);
    g_assert_cmpint(g_chmod(path, 0755), ==, 0);
}

char *testutil_make_run(const char *dir, const char *name, const char *variant,
                        const char *verdict, const char *results,
                        const char *crashes)
{
    char *run = g_build_filename(dir, name, NULL);
    g_autofree char *summary = g_strdup_printf(
        "{\"verdict\": \"%s\", \"variant\": \"%s\", \"kernel\": \"6.12.1\", "
        "\"suites\": {}, \"crashes\": %s}\n",
        verdict, variant, crashes);

    g_assert_cmpint(g_mkdir_with_parents(run, 0755), ==, 0);
    testutil_write_file(run, "results.txt", results);
    testutil_write_file(run, "summary.json", summary);
    return run;
}

int testutil_runv(const char *prog_env, char **envp, char **out, char **err,
                  const char *const *args)
{
    const char *prog = g_getenv(prog_env);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_autoptr(GError) error = NULL;
    g_autofree char *out_text = NULL;
    g_autofree char *err_text = NULL;
    int status;

    if (!prog) {
        g_test_skip_printf("%s is not in the environment", prog_env);
        return -1;
    }
    g_ptr_array_add(argv, (char *)prog);
    for (guint i = 0; args[i]; i++) {
        g_ptr_array_add(argv, (char *)args[i]);
    }
    g_ptr_array_add(argv, NULL);
    g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, envp,
                               G_SPAWN_DEFAULT, NULL, NULL, &out_text,
                               &err_text, &status, &error));
    g_assert_no_error(error);
    g_test_message("%s stdout:\n%s", prog, out_text);
    g_test_message("%s stderr:\n%s", prog, err_text);
    g_assert_true(WIFEXITED(status));
    if (out) {
        g_free(*out);
        *out = g_steal_pointer(&out_text);
    }
    if (err) {
        g_free(*err);
        *err = g_steal_pointer(&err_text);
    }
    return WEXITSTATUS(status);
}

int testutil_run(const char *prog_env, char **envp, char **out, char **err, ...)
{
    g_autoptr(GPtrArray) args = g_ptr_array_new();
    const char *arg;
    va_list ap;

    va_start(ap, err);
    while ((arg = va_arg(ap, const char *))) {
        g_ptr_array_add(args, (char *)arg);
    }
    va_end(ap);
    g_ptr_array_add(args, NULL);
    return testutil_runv(prog_env, envp, out, err,
                         (const char *const *)args->pdata);
}

JsonObject *testutil_load_json(JsonParser *parser, const char *path)
{
    g_autoptr(GError) error = NULL;

    g_assert_true(json_parser_load_from_file(parser, path, &error));
    g_assert_no_error(error);
    return json_node_get_object(json_parser_get_root(parser));
}
