/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series: judge the commits of a series against each other, print the
 * table, write series.json.  See series.h.
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "series.h"

/* Widths of the table's text columns, in characters. */
enum { SUBJECT_WIDTH = 40 };

static void series_row_free(gpointer data)
{
    SeriesRow *row = data;

    g_ptr_array_unref(row->flips);
    g_ptr_array_unref(row->compared);
    g_ptr_array_unref(row->new_crashes);
    g_free(row);
}

void series_free(Series *series)
{
    if (!series) {
        return;
    }
    g_ptr_array_unref(series->rows);
    g_strfreev(series->suites);
    g_free(series);
}

static gboolean run_incomplete(const CommitStep *step)
{
    return step->run_exit == VERDICT_INCOMPLETE ||
           (step->results && g_str_equal(step->results->verdict, "incomplete"));
}

/* Compare row with row->prev: its flips, new crashes and verdict. */
static void judge_row(SeriesRow *row, const char *const *suites)
{
    const RunResults *prev = row->prev->results, *now = row->step->results;

    g_ptr_array_unref(row->compared);
    row->compared = results_diff(prev, now, suites);
    /* The regressions first: only SERIES_MAX_FLIPS are shown per row. */
    for (guint i = 0; i < row->compared->len; i++) {
        TestPair *p = g_ptr_array_index(row->compared, i);

        if (p->base == KTAP_RESULT_PASS && p->with != KTAP_RESULT_PASS) {
            g_ptr_array_add(row->flips, p);
            row->to_fail++;
        }
    }
    for (guint i = 0; i < row->compared->len; i++) {
        TestPair *p = g_ptr_array_index(row->compared, i);

        if (p->base != p->with && p->base != KTAP_RESULT_PASS) {
            g_ptr_array_add(row->flips, p);
            row->to_pass += p->with == KTAP_RESULT_PASS;
        }
    }
    g_ptr_array_unref(row->new_crashes);
    row->new_crashes = results_crashes_only_in(now, prev);
    /* The tests an incomplete run did not reach are missing, so it
     * regresses through them too; this also catches a run that stopped
     * after its last test. */
    row->newly_incomplete =
        run_incomplete(row->step) && !run_incomplete(row->prev);
    row->regressed =
        row->to_fail || row->new_crashes->len || row->newly_incomplete;
}

Series *series_judge(GPtrArray *steps, const char *const *suites)
{
    Series *series;
    const CommitStep *prev = NULL;

    g_return_val_if_fail(steps->len > 0, NULL);
    series = g_new0(Series, 1);
    series->rows = g_ptr_array_new_with_free_func(series_row_free);
    series->suites = suites && suites[0] ? g_strdupv((char **)suites) : NULL;
    series->commits = steps->len - 1;
    for (guint i = 0; i < steps->len; i++) {
        SeriesRow *row = g_new0(SeriesRow, 1);
        CommitStep *step = g_ptr_array_index(steps, i);

        row->step = step;
        row->flips = g_ptr_array_new();
        row->compared = g_ptr_array_new();
        row->new_crashes = g_ptr_array_new();
        row->trouble = step->build == BUILD_TROUBLE ||
                       (step->build == BUILD_OK && !step->results);
        if (step->results) {
            row->prev = prev;
            if (prev) {
                judge_row(row, (const char *const *)series->suites);
            }
            prev = step;
        }
        g_ptr_array_add(series->rows, row);
        if (i == 0) {
            series->base_unusable = !step->results;
            continue;
        }
        series->build_failed += step->build == BUILD_FAILED;
        series->regressed += row->regressed;
        series->trouble += row->trouble;
        if (row->regressed && !series->first_regression) {
            series->first_regression = row;
        }
    }
    return series;
}

int series_exit_status(const Series *series)
{
    if (series->trouble || series->base_unusable) {
        return 2;
    }
    return series->build_failed || series->regressed ? 1 : 0;
}

/* s cut to width characters ("..." marking a cut), padded with spaces. */
static void append_cell(GString *out, const char *s, glong width)
{
    glong len = g_utf8_strlen(s, -1);

    if (len > width) {
        g_autofree char *cut = g_utf8_substring(s, 0, width - 3);

        g_string_append_printf(out, "%s...", cut);
        return;
    }
    g_string_append(out, s);
    for (glong i = len; i < width; i++) {
        g_string_append_c(out, ' ');
    }
}

static char *format_checkpatch(const CommitStep *step)
{
    guint e, w, c;

    if (!checkpatch_counts(step->checkpatch, &e, &w, &c)) {
        return g_strdup("-");
    }
    return g_strdup_printf("%u/%u/%u", e, w, c);
}

static void format_row(GString *out, const SeriesRow *row, guint index)
{
    const CommitStep *step = row->step;
    g_autofree char *num =
        index ? g_strdup_printf("%u", index) : g_strdup("base");
    g_autofree char *checkpatch = format_checkpatch(step);
    g_autofree char *flips =
        row->prev ? g_strdup_printf("+%u -%u", row->to_pass, row->to_fail)
                  : g_strdup("-");
    g_autofree char *build_s = step->build != BUILD_NOT_TRIED
                                   ? g_strdup_printf("%.1f", step->build_s)
                                   : g_strdup("-");
    g_autofree char *run_s = step->run_exit >= 0
                                 ? g_strdup_printf("%.1f", step->run_s)
                                 : g_strdup("-");
    const char *mark = NULL;

    g_string_append_printf(out, "%-4s  %-12.12s  ", num, step->sha);
    append_cell(out, step->subject, SUBJECT_WIDTH);
    g_string_append_printf(out, "  %-10s  %-7s  %-10s  %-8s  %7s  %7s",
                           checkpatch, build_status_name(step->build),
                           step->results ? step->results->verdict : "-", flips,
                           build_s, run_s);
    if (step->build == BUILD_FAILED) {
        mark = "BUILD FAILED";
    } else if (row->regressed) {
        mark = "REGRESSION";
    } else if (row->trouble) {
        mark = "TROUBLE";
    }
    if (mark) {
        g_string_append_printf(out, "  %s", mark);
    }
    g_string_append_c(out, '\n');

    if (step->build == BUILD_FAILED || step->build == BUILD_TROUBLE) {
        if (step->build_error) {
            g_string_append_printf(out, "    build: %s\n", step->build_error);
        } else {
            g_string_append_printf(
                out, "    build: no error line in %s/build.log\n", step->dir);
        }
    }
    if (step->build == BUILD_OK && !step->results) {
        if (step->results_dir) {
            g_string_append_printf(
                out, "    run: no results (exit %d, see %s.log)\n",
                step->run_exit, step->results_dir);
        } else {
            g_string_append(out, "    run: not run\n");
        }
    }
    for (guint i = 0; i < row->flips->len && i < SERIES_MAX_FLIPS; i++) {
        TestPair *p = g_ptr_array_index(row->flips, i);

        g_string_append_printf(out, "    %s -> %s  %s\n",
                               ktap_result_name(p->base),
                               ktap_result_name(p->with), p->test);
    }
    if (row->flips->len > SERIES_MAX_FLIPS) {
        g_string_append_printf(out, "    ... and %u more\n",
                               row->flips->len - SERIES_MAX_FLIPS);
    }
    for (guint i = 0; i < row->new_crashes->len; i++) {
        RunCrash *c = g_ptr_array_index(row->new_crashes, i);

        g_string_append_printf(out, "    new crash: %s during %s\n", c->kind,
                               c->test ? c->test : "(no test)");
    }
    if (row->newly_incomplete) {
        g_string_append(out, "    run incomplete (the one before was "
                             "complete)\n");
    }
}

char *series_format(const Series *series)
{
    GString *out = g_string_new(NULL);

    g_string_append_printf(out, "%-4s  %-12s  ", "#", "commit");
    append_cell(out, "subject", SUBJECT_WIDTH);
    g_string_append_printf(out, "  %-10s  %-7s  %-10s  %-8s  %7s  %7s\n",
                           "checkpatch", "build", "verdict", "flips", "build_s",
                           "run_s");
    for (guint i = 0; i < series->rows->len; i++) {
        format_row(out, g_ptr_array_index(series->rows, i), i);
    }
    if (series->base_unusable) {
        g_string_append(out, "trouble: the base has no results: the first "
                             "commit has nothing to be compared with\n");
    }
    if (series->trouble) {
        g_string_append_printf(out,
                               "trouble: %u commit%s could not be "
                               "judged (TROUBLE above)\n",
                               series->trouble,
                               series->trouble == 1 ? "" : "s");
    }
    g_string_append_printf(out,
                           "series: %u commits, %u do not build, "
                           "%u regress; ",
                           series->commits, series->build_failed,
                           series->regressed);
    if (series->first_regression) {
        const CommitStep *step = series->first_regression->step;

        g_string_append_printf(out, "first regression: %.12s \"%s\"\n",
                               step->sha, step->subject);
    } else {
        g_string_append(out, "no regression\n");
    }
    return g_string_free(out, FALSE);
}

static void add_null(JsonBuilder *b, const char *member)
{
    json_builder_set_member_name(b, member);
    json_builder_add_null_value(b);
}

static void add_row(JsonBuilder *b, const SeriesRow *row)
{
    const CommitStep *step = row->step;
    guint e, w, c;

    json_builder_begin_object(b);
    commit_step_json_build_members(b, step);
    if (checkpatch_counts(step->checkpatch, &e, &w, &c)) {
        json_builder_set_member_name(b, "checkpatch");
        json_builder_begin_object(b);
        results_json_add_int(b, "errors", e);
        results_json_add_int(b, "warnings", w);
        results_json_add_int(b, "checks", c);
        json_builder_end_object(b);
    } else {
        add_null(b, "checkpatch");
    }
    results_json_add_string(b, "verdict",
                            step->results ? step->results->verdict : NULL);
    if (step->run_exit >= 0) {
        results_json_add_int(b, "run_exit", step->run_exit);
        results_json_add_double(b, "run_s", step->run_s);
    } else {
        add_null(b, "run_exit");
        add_null(b, "run_s");
    }
    results_json_add_string(b, "results", step->results_dir);
    json_builder_set_member_name(b, "flips");
    json_builder_begin_array(b);
    for (guint i = 0; i < row->flips->len; i++) {
        TestPair *p = g_ptr_array_index(row->flips, i);

        json_builder_begin_object(b);
        results_json_add_string(b, "test", p->test);
        results_json_add_string(b, "from", ktap_result_name(p->base));
        results_json_add_string(b, "to", ktap_result_name(p->with));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    results_json_add_crashes(b, "new_crashes", row->new_crashes);
    results_json_add_bool(b, "regressed", row->regressed);
    json_builder_end_object(b);
}

gboolean series_write_json(const Series *series, const char *path,
                           GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "base");
    add_row(b, g_ptr_array_index(series->rows, 0));
    json_builder_set_member_name(b, "commits");
    json_builder_begin_array(b);
    for (guint i = 1; i < series->rows->len; i++) {
        add_row(b, g_ptr_array_index(series->rows, i));
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "counts");
    json_builder_begin_object(b);
    results_json_add_int(b, "commits", series->commits);
    results_json_add_int(b, "build_failed", series->build_failed);
    results_json_add_int(b, "regressed", series->regressed);
    results_json_add_int(b, "trouble", series->trouble);
    json_builder_end_object(b);
    if (series->suites) {
        results_json_add_strv(b, "suites", series->suites, -1);
    } else {
        add_null(b, "suites");
    }
    results_json_add_string(
        b, "first_regression",
        series->first_regression ? series->first_regression->step->sha : NULL);
    json_builder_end_object(b);
    return results_json_write(b, path, error);
}
