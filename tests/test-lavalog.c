/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the LAVA job log reader (runner/lavalog.c), on records
 * written as lava-dispatcher 2023.01 writes them.
 */
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lavalog.h"

#define DT "\"dt\": \"2026-12-04T23:10:07.123456\""

/* A target record whose msg is yaml_msg, already YAML-escaped. */
static char *target(const char *yaml_msg)
{
    return g_strdup_printf("{" DT ", \"lvl\": \"target\", \"msg\": \"%s\"}",
                           yaml_msg);
}

/* A short job: every level, two kinds of results, the job's failure. */
static const char *const job_lines[] = {
    "{" DT ", \"lvl\": \"info\", \"msg\": \"start: 1 tmpfs-deploy\"}",
    "{" DT ", \"lvl\": \"debug\", \"msg\": \"Using /var/lib/lava\"}",
    "{" DT ", \"lvl\": \"results\", \"msg\": {\"definition\": \"lava\", "
    "\"case\": \"tmpfs-deploy\", \"level\": \"1\", \"duration\": \"0.01\", "
    "\"result\": \"pass\"}}",
    "{" DT ", \"lvl\": \"target\", \"msg\": \"[    0.000000] Booting Linux "
    "on physical CPU 0x0000000000 [0x410fd083]\"}",
    "{" DT ", \"lvl\": \"feedback\", \"msg\": \"ignored\", \"ns\": \"a\"}",
    "{" DT ", \"lvl\": \"results\", \"msg\": {\"definition\": \"openat2\", "
    "\"case\": \"openat2_openat2_test_o_tmpfile\", \"level\": \"3.1\", "
    "\"result\": \"pass\", \"extra\": {\"test_case_id\": "
    "\"openat2/openat2_test/O_TMPFILE\"}}}",
    "{" DT ", \"lvl\": \"target\", \"msg\": \"# ok 1 openat2\"}",
    "{" DT ", \"lvl\": \"input\", \"msg\": \"poweroff\\n\"}",
    "{" DT ", \"lvl\": \"error\", \"msg\": \"Connection closed\"}",
    "{" DT ", \"lvl\": \"results\", \"msg\": {\"definition\": \"lava\", "
    "\"case\": \"job\", \"result\": \"fail\", \"error_msg\": \"Connection "
    "closed\", \"error_type\": \"Infrastructure\"}}",
    NULL,
};

static char *join_lines(const char *const *lines, const char *prefix)
{
    GString *s = g_string_new(NULL);

    for (guint i = 0; lines[i]; i++) {
        g_string_append_printf(s, "%s%s\n", prefix, lines[i]);
    }
    return g_string_free(s, FALSE);
}

static LavaLog *parse_str(const char *text)
{
    return lava_log_parse(text, strlen(text));
}

static LavaLog *parse_one_target(const char *yaml_msg)
{
    g_autofree char *line = target(yaml_msg);

    return parse_str(line);
}

static void check_job(const LavaLog *log)
{
    LavaResult *r;

    g_assert_cmpuint(log->records, ==, 10);
    g_assert_cmpuint(log->skipped_lines, ==, 0);
    g_assert_cmpstr(log->console->str, ==,
                    "[    0.000000] Booting Linux on physical CPU "
                    "0x0000000000 [0x410fd083]\n# ok 1 openat2\n");
    g_assert_false(log->console_truncated);
    g_assert_false(log->results_truncated);
    g_assert_cmpuint(log->results->len, ==, 3);

    r = g_ptr_array_index(log->results, 0);
    g_assert_cmpstr(r->definition, ==, "lava");
    g_assert_cmpstr(r->case_name, ==, "tmpfs-deploy");
    g_assert_cmpstr(r->result, ==, "pass");
    g_assert_cmpstr(r->level, ==, "1");
    g_assert_null(r->test_case_id);
    g_assert_null(r->error_type);

    r = g_ptr_array_index(log->results, 1);
    g_assert_cmpstr(r->definition, ==, "openat2");
    g_assert_cmpstr(r->case_name, ==, "openat2_openat2_test_o_tmpfile");

    r = g_ptr_array_index(log->results, 2);
    g_assert_true(log->job == r);
}

static void test_stderr_form(void)
{
    g_autofree char *text = join_lines(job_lines, "");
    g_autoptr(LavaLog) log = parse_str(text);

    check_job(log);
}

static void test_sequence_form(void)
{
    g_autofree char *text = join_lines(job_lines, "- ");
    g_autoptr(LavaLog) log = parse_str(text);

    check_job(log);
}

static void test_quote_quirk(void)
{
    /*
     * The console lines: say "hi" / a\"b / "" / trailing\ .  LAVA wrote
     * each '"' as '\"', then YAML escaped both characters again.
     */
    g_autoptr(LavaLog) log = parse_one_target("say \\\\\\\"hi\\\\\\\"");
    g_autoptr(LavaLog) log2 = parse_one_target("a\\\\\\\\\\\"b");
    g_autoptr(LavaLog) log3 = parse_one_target("\\\\\\\"\\\\\\\"");
    g_autoptr(LavaLog) log4 = parse_one_target("trailing\\\\");

    g_assert_cmpstr(log->console->str, ==, "say \"hi\"\n");
    g_assert_cmpstr(log2->console->str, ==, "a\\\"b\n");
    g_assert_cmpstr(log3->console->str, ==, "\"\"\n");
    g_assert_cmpstr(log4->console->str, ==, "trailing\\\n");
}

static void test_yaml_escapes(void)
{
    g_autoptr(LavaLog) log =
        parse_one_target("\\e[0m bell\\x07 caf\\u00e9 \\U0001F600 "
                         "back\\\\slash tab\\there nul\\0x \\N\\_\\L\\P");

    g_assert_cmpuint(log->records, ==, 1);
    g_assert_cmpstr(log->console->str, ==,
                    "\x1b[0m bell\x07 caf\xc3\xa9 \xf0\x9f\x98\x80 "
                    "back\\slash tab\there nulx "
                    "\xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9\n");
    g_assert_true(g_utf8_validate(log->console->str, log->console->len, NULL));
}

static void test_results_extra(void)
{
    g_autoptr(LavaLog) log = parse_str(
        "{" DT ", \"lvl\": \"results\", \"msg\": {\"definition\": "
        "\"1_kselftest-openat2\", \"case\": \"openat2_resolve_test\", "
        "\"result\": \"skip\", \"measurement\": \"1.5\", \"units\": \"s\", "
        "\"extra\": {\"a\": [\"b\", {\"c\": \"d\"}], \"test_case_id\": "
        "\"openat2/resolve_test\", \"deeper\": {\"test_case_id\": \"no\"}}, "
        "\"other\": {\"test_case_id\": \"no\"}}}\n");
    LavaResult *r;

    g_assert_cmpuint(log->records, ==, 1);
    g_assert_cmpuint(log->results->len, ==, 1);
    r = g_ptr_array_index(log->results, 0);
    g_assert_cmpstr(r->definition, ==, "1_kselftest-openat2");
    g_assert_cmpstr(r->case_name, ==, "openat2_resolve_test");
    g_assert_cmpstr(r->test_case_id, ==, "openat2/resolve_test");
    g_assert_cmpstr(r->result, ==, "skip");
    g_assert_null(r->level);
    g_assert_null(r->error_msg);
    g_assert_null(log->job);
    g_assert_cmpuint(log->console->len, ==, 0);
}

static void test_job_fail(void)
{
    g_autofree char *text = join_lines(job_lines, "");
    g_autoptr(LavaLog) log = parse_str(text);

    g_assert_nonnull(log->job);
    g_assert_cmpstr(log->job->definition, ==, "lava");
    g_assert_cmpstr(log->job->case_name, ==, "job");
    g_assert_cmpstr(log->job->result, ==, "fail");
    g_assert_cmpstr(log->job->error_type, ==, "Infrastructure");
    g_assert_cmpstr(log->job->error_msg, ==, "Connection closed");
    g_assert_null(log->job->level);
}

/* An info record whose key x nests depth mappings in sequences. */
static void append_nested(GString *text, guint depth)
{
    g_string_append(text, "{\"lvl\": \"info\", \"x\": ");
    for (guint i = 0; i < depth; i++) {
        g_string_append(text, "[{\"k\": ");
    }
    g_string_append(text, "\"v\"");
    for (guint i = 0; i < depth; i++) {
        g_string_append(text, "}]");
    }
    g_string_append(text, "}\n");
}

static void test_skipped_lines(void)
{
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(LavaLog) log = NULL;
    g_autofree char *good = target("still here");

    g_string_append(text, "Traceback (most recent call last):\n");
    g_string_append(text, "  File \"/usr/bin/lava-run\", line 7, in "
                          "<module>\n");
    g_string_append(text, "\n");
    g_string_append(text, "{" DT ", \"lvl\": \"target\", \"msg\": \"cut\n");
    g_string_append(text, "/usr/lib/python3/dist-packages/x.py:1: "
                          "DeprecationWarning: y\n");
    /* not records: no lvl, a target without msg, a result without result,
     * two documents, an alias, invalid UTF-8, a NUL */
    g_string_append(text, "{" DT ", \"msg\": \"no lvl\"}\n");
    g_string_append(text, "{\"lvl\": \"target\", \"msg\": {\"a\": \"b\"}}\n");
    g_string_append(text, "{\"lvl\": \"results\", \"msg\": {\"definition\": "
                          "\"a\", \"case\": \"b\"}}\n");
    g_string_append(text, "{\"lvl\": \"info\"} --- {\"lvl\": \"info\"}\n");
    g_string_append(text, "{\"lvl\": &a \"target\", \"msg\": *a}\n");
    g_string_append(text, "{\"lvl\": \"target\", \"msg\": \"\xff\"}\n");
    g_string_append_len(text, "{\"lvl\": \"target\", \"msg\": \"\0\"}\n", 30);
    /* a record with unused nested keys, one nesting deeper than that pays */
    append_nested(text, 20);
    append_nested(text, 100000);
    g_string_append(text, good);

    log = lava_log_parse(text->str, text->len);
    g_assert_cmpuint(log->skipped_lines, ==, 13);
    g_assert_cmpuint(log->records, ==, 2);
    g_assert_cmpstr(log->console->str, ==, "still here\n");
    g_assert_cmpuint(log->results->len, ==, 0);
}

/* A target line of exactly len bytes, its msg all 'x'. */
static char *target_of_len(gsize len)
{
    g_autofree char *empty = target("");
    gsize fill = len - strlen(empty);
    g_autofree char *msg = g_malloc(fill + 1);

    memset(msg, 'x', fill);
    msg[fill] = '\0';
    return target(msg);
}

static void test_line_cap(void)
{
    g_autofree char *at_cap = target_of_len(LAVA_LOG_MAX_LINE);
    g_autofree char *over_cap = target_of_len(LAVA_LOG_MAX_LINE + 1);
    g_autofree char *ok = target("ok");
    g_autofree char *text =
        g_strconcat(over_cap, "\n", at_cap, "\n", over_cap, "\n", ok, NULL);
    g_autoptr(LavaLog) log = parse_str(text);
    gsize msg_len = LAVA_LOG_MAX_LINE - (strlen(ok) - strlen("ok"));

    g_assert_cmpuint(strlen(at_cap), ==, LAVA_LOG_MAX_LINE);
    g_assert_cmpuint(log->skipped_lines, ==, 2);
    g_assert_cmpuint(log->records, ==, 2);
    g_assert_cmpuint(log->console->len, ==, msg_len + 1 + strlen("ok\n"));
    g_assert_true(g_str_has_suffix(log->console->str, "x\nok\n"));
}

static void assert_same_log(const LavaLog *a, const LavaLog *b)
{
    g_assert_cmpuint(a->records, ==, b->records);
    g_assert_cmpuint(a->skipped_lines, ==, b->skipped_lines);
    g_assert_cmpuint(a->console->len, ==, b->console->len);
    g_assert_cmpmem(a->console->str, a->console->len, b->console->str,
                    b->console->len);
    g_assert_cmpuint(a->console_truncated, ==, b->console_truncated);
    g_assert_cmpuint(a->results->len, ==, b->results->len);
    for (guint i = 0; i < a->results->len; i++) {
        LavaResult *ra = g_ptr_array_index(a->results, i);
        LavaResult *rb = g_ptr_array_index(b->results, i);

        g_assert_cmpstr(ra->definition, ==, rb->definition);
        g_assert_cmpstr(ra->case_name, ==, rb->case_name);
        g_assert_cmpstr(ra->test_case_id, ==, rb->test_case_id);
        g_assert_cmpstr(ra->result, ==, rb->result);
        g_assert_cmpstr(ra->level, ==, rb->level);
        g_assert_cmpstr(ra->error_type, ==, rb->error_type);
        g_assert_cmpstr(ra->error_msg, ==, rb->error_msg);
        g_assert_cmpint(ra == a->job, ==, rb == b->job);
    }
}

static void test_read_file(void)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *path = NULL;
    g_autofree char *jobs = join_lines(job_lines, "- ");
    g_autofree char *long_line = target_of_len(200000);
    g_autofree char *over_cap = target_of_len(LAVA_LOG_MAX_LINE + 70000);
    /* lines across read chunks, a skipped one, no final '\n' */
    g_autofree char *text =
        g_strconcat(jobs, long_line, "\n", over_cap, "\nnot a record\n", jobs,
                    long_line, NULL);
    g_autoptr(LavaLog) parsed = parse_str(text);
    g_autoptr(LavaLog) read = NULL;
    int fd = g_file_open_tmp("test-lavalog-XXXXXX.yaml", &path, &error);

    g_assert_no_error(error);
    close(fd);
    g_assert_true(g_file_set_contents(path, text, -1, &error));
    g_assert_no_error(error);
    read = lava_log_read(path, &error);
    g_unlink(path);
    g_assert_no_error(error);
    g_assert_nonnull(read);
    g_assert_cmpuint(read->records, ==, 22);
    g_assert_cmpuint(read->skipped_lines, ==, 2);
    assert_same_log(parsed, read);

    g_assert_null(lava_log_read(path, &error));
    g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* Slow (64 MiB of YAML): the console and results caps. */
static void test_caps(void)
{
    g_autofree char *big = target_of_len(LAVA_LOG_MAX_LINE);
    g_autofree char *small = target("after");
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(LavaLog) log = NULL;
    guint n_big = LAVA_LOG_MAX_CONSOLE / LAVA_LOG_MAX_LINE + 1;

    if (!g_test_slow()) {
        g_test_skip("slow: run with -m slow");
        return;
    }
    for (guint i = 0; i < n_big; i++) {
        g_string_append_printf(text, "%s\n", big);
    }
    g_string_append_printf(text, "%s\n", small);
    for (guint i = 0; i < LAVA_LOG_MAX_RESULTS + 1; i++) {
        g_string_append(text, job_lines[5]);
        g_string_append_c(text, '\n');
    }
    g_string_append(text, job_lines[9]);
    log = lava_log_parse(text->str, text->len);
    g_assert_true(log->console_truncated);
    g_assert_cmpuint(log->console->len, <=, LAVA_LOG_MAX_CONSOLE);
    g_assert_false(g_str_has_suffix(log->console->str, "after\n"));
    g_assert_true(log->results_truncated);
    g_assert_cmpuint(log->results->len, ==, LAVA_LOG_MAX_RESULTS + 1);
    g_assert_nonnull(log->job);
    g_assert_cmpstr(log->job->error_type, ==, "Infrastructure");
    g_assert_cmpuint(log->records, ==, n_big + LAVA_LOG_MAX_RESULTS + 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/lavalog/stderr-form", test_stderr_form);
    g_test_add_func("/lavalog/sequence-form", test_sequence_form);
    g_test_add_func("/lavalog/target/quote-quirk", test_quote_quirk);
    g_test_add_func("/lavalog/target/yaml-escapes", test_yaml_escapes);
    g_test_add_func("/lavalog/results/extra", test_results_extra);
    g_test_add_func("/lavalog/results/job-fail", test_job_fail);
    g_test_add_func("/lavalog/skipped-lines", test_skipped_lines);
    g_test_add_func("/lavalog/line-cap", test_line_cap);
    g_test_add_func("/lavalog/read-file", test_read_file);
    g_test_add_func("/lavalog/caps", test_caps);
    return g_test_run();
}
