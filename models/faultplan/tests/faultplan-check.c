/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The checks of a device's fault plan table and its docs
 * (faultplan-check.h), shared by the devices' unit tests.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <glib.h>
#include <string.h>

#include "faultplan-check.h"

void faultplan_check_table(const FaultPlanTable *t)
{
    unsigned k, j;

    g_assert_cmpuint(t->nkinds, <=, FAULTPLAN_KINDS_MAX);
    g_assert_cmpuint(t->nevents, <=, FAULTPLAN_KINDS_MAX);
    g_assert_cmpuint(t->script_max, <=, FAULTPLAN_SCRIPT_MAX);
    for (k = 0; k < t->nkinds; k++) {
        const char *name = faultplan_kind_name(t, k);

        g_assert_cmpstr(name, !=, "unknown");
        /* the formats split on ',', '=', ':' and ';': none may be in it */
        g_assert_true(g_regex_match_simple("^[a-z0-9]+(-[a-z0-9]+)*$", name,
                                           0, 0));
        g_assert_cmpuint(faultplan_kind_event(t, k), <, t->nevents);
        g_assert_cmpuint(strlen(faultplan_kind_description(t, k)), >, 10);
        for (j = 0; j < k; j++) {
            g_assert_cmpstr(faultplan_kind_name(t, j), !=, name);
        }
    }
    for (k = 0; k < t->nevents; k++) {
        g_assert_cmpstr(faultplan_event_name(t, k), !=, "unknown");
    }
    g_assert_cmpstr(faultplan_kind_name(t, t->nkinds), ==, "unknown");
    g_assert_cmpstr(faultplan_event_name(t, t->nevents), ==, "unknown");
    g_assert_cmpuint(faultplan_kind_event(t, t->nkinds), ==, t->nevents);
}

void faultplan_check_docs(const FaultPlanTable *t, const char *env)
{
    const char *path = g_getenv(env);
    g_autofree char *doc = NULL;
    char *section, *end;
    g_autoptr(GRegex) row = NULL;
    g_autoptr(GMatchInfo) m = NULL;
    g_autoptr(GError) error = NULL;
    unsigned k = 0;

    if (!path) {
        g_autofree char *why = g_strdup_printf("%s is not set (meson test "
                                               "sets it)", env);

        g_test_skip(why);
        return;
    }
    g_assert_true(g_file_get_contents(path, &doc, NULL, &error));
    g_assert_no_error(error);
    section = strstr(doc, "\n## Fault plans\n");
    g_assert_nonnull(section);
    /* only this section's table: others may have backquoted rows too */
    end = strstr(section + 1, "\n## ");
    if (end) {
        *end = '\0';
    }
    row = g_regex_new("^\\| `([a-z0-9-]+)` \\| `([a-z0-9]+)` \\|",
                      G_REGEX_MULTILINE, 0, &error);
    g_assert_no_error(error);
    g_regex_match(row, section, 0, &m);
    while (g_match_info_matches(m)) {
        g_autofree char *kind = g_match_info_fetch(m, 1);
        g_autofree char *event = g_match_info_fetch(m, 2);

        g_assert_cmpuint(k, <, t->nkinds);
        g_assert_cmpstr(kind, ==, faultplan_kind_name(t, k));
        g_assert_cmpstr(event, ==,
                        faultplan_event_name(t, faultplan_kind_event(t, k)));
        k++;
        g_match_info_next(m, NULL);
    }
    g_assert_cmpuint(k, ==, t->nkinds);
}
