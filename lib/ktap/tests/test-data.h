/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the lib/ktap tests: the captured consoles in tests/data. */
#pragma once

#include <glib.h>

/*
 * The lines of tests/data/NAME (found through G_TEST_SRCDIR), without the
 * empty string after the final newline; g_strfreev them.
 */
static inline char **test_data_lines(const char *name)
{
    g_autofree char *path =
        g_test_build_filename(G_TEST_DIST, "data", name, NULL);
    g_autofree char *contents = NULL;
    g_autoptr(GError) error = NULL;
    char **lines;
    guint n;

    g_file_get_contents(path, &contents, NULL, &error);
    g_assert_no_error(error);
    lines = g_strsplit(contents, "\n", -1);
    n = g_strv_length(lines);
    if (n > 0 && lines[n - 1][0] == '\0') {
        g_free(lines[n - 1]);
        lines[n - 1] = NULL;
    }
    return lines;
}
