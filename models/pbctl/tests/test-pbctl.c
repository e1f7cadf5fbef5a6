/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the control channel's protocol core (models/pbctl).
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "pbctl-core.h"

static void test_parse_set(void)
{
    PbctlRequest req;
    char *reply = (char *)"unset";

    g_assert_true(pbctl_parse("qom-set /machine/peripheral/t1 temperature "
                              "-10125",
                              &req, &reply));
    g_assert_null(reply);
    g_assert_cmpint(req.op, ==, PBCTL_OP_SET);
    g_assert_cmpstr(pbctl_op_name(req.op), ==, "qom-set");
    g_assert_cmpstr(req.path, ==, "/machine/peripheral/t1");
    g_assert_cmpstr(req.property, ==, "temperature");
    g_assert_cmpstr(req.value, ==, "-10125");
    pbctl_request_clear(&req);
    g_assert_null(req.path);

    /* The value is the rest of the line, blanks and all. */
    g_assert_true(pbctl_parse("qom-set\t/p rom \"a b\tc\" ", &req, &reply));
    g_assert_cmpstr(req.path, ==, "/p");
    g_assert_cmpstr(req.value, ==, "\"a b\tc\" ");
    pbctl_request_clear(&req);
}

static void test_parse_get(void)
{
    PbctlRequest req;
    char *reply;

    g_assert_true(pbctl_parse("qom-get /p temperature", &req, &reply));
    g_assert_null(reply);
    g_assert_cmpint(req.op, ==, PBCTL_OP_GET);
    g_assert_cmpstr(pbctl_op_name(req.op), ==, "qom-get");
    g_assert_cmpstr(req.property, ==, "temperature");
    g_assert_null(req.value);
    pbctl_request_clear(&req);
}

static void test_rejects(void)
{
    static const struct {
        const char *line, *reply;
    } cases[] = {
        {"reboot-host now", "error unknown operation 'reboot-host'"},
        {"", "error unknown operation ''"},
        {" qom-get /p t", "error unknown operation ''"},
        {"quit", "error unknown operation 'quit'"},
        {"QOM-GET /p t", "error unknown operation 'QOM-GET'"},
        {"qom-set /p temperature", "error usage: qom-set PATH PROPERTY JSON | "
                                   "qom-get PATH PROPERTY"},
        {"qom-get /p", "error usage: qom-set PATH PROPERTY JSON | "
                       "qom-get PATH PROPERTY"},
        {"qom-get /p t x", "error usage: qom-set PATH PROPERTY JSON | "
                           "qom-get PATH PROPERTY"},
        {"qom-get  /p t", "error usage: qom-set PATH PROPERTY JSON | "
                          "qom-get PATH PROPERTY"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        PbctlRequest req;
        char *reply = NULL;

        g_assert_false(pbctl_parse(cases[i].line, &req, &reply));
        g_assert_cmpstr(reply, ==, cases[i].reply);
        g_assert_null(req.path);
        free(reply);
    }
}

/* The words are those of g_strsplit_set(line, " \t", 4), which the runner
 * used before this core. */
static void test_split_as_glib(void)
{
    static const char alphabet[] = {' ', '\t', 'a', '/', '"', 'q'};
    GRand *rand = g_rand_new_with_seed(42);

    for (int round = 0; round < 20000; round++) {
        char line[16];
        gsize len = g_rand_int_range(rand, 0, sizeof(line));
        g_auto(GStrv) words = NULL;
        PbctlRequest req;
        char *reply = NULL;
        gboolean ok;
        guint n;

        for (gsize i = 0; i < len; i++) {
            line[i] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet))];
        }
        line[len] = '\0';
        /* Give most lines a known operation. */
        if (len > 8 && round % 3) {
            memcpy(line, round % 2 ? "qom-set " : "qom-get ", 8);
        }
        words = g_strsplit_set(line, " \t", 4);
        n = g_strv_length(words);
        ok = pbctl_parse(line, &req, &reply);
        if (n == 4 && g_str_equal(words[0], "qom-set")) {
            g_assert_true(ok);
            g_assert_cmpstr(req.value, ==, words[3]);
        } else if (n == 3 && g_str_equal(words[0], "qom-get")) {
            g_assert_true(ok);
            g_assert_null(req.value);
        } else {
            g_assert_false(ok);
            if (!g_str_equal(n ? words[0] : "", "qom-set") &&
                !g_str_equal(n ? words[0] : "", "qom-get")) {
                g_autofree char *want = g_strdup_printf(
                    "error unknown operation '%s'", n ? words[0] : "");

                g_assert_cmpstr(reply, ==, want);
            }
            free(reply);
            continue;
        }
        g_assert_cmpstr(req.path, ==, words[1]);
        g_assert_cmpstr(req.property, ==, words[2]);
        pbctl_request_clear(&req);
    }
    g_rand_free(rand);
}

static void test_parse_line(void)
{
    PbctlRequest req;
    char *reply;

    g_assert_false(pbctl_parse_line(NULL, &req, &reply));
    g_assert_cmpstr(reply, ==, "error request too long");
    free(reply);
    g_assert_false(pbctl_parse_line("qom-get /p\xff t", &req, &reply));
    g_assert_cmpstr(reply, ==, "error the request is not UTF-8 text");
    free(reply);
    /* CR LF, trailing blanks */
    g_assert_true(pbctl_parse_line("qom-set /p t 21 \r", &req, &reply));
    g_assert_cmpstr(req.value, ==, "21");
    pbctl_request_clear(&req);
    g_assert_true(pbctl_parse_line("qom-get /p/\xc3\xa9 t\r", &req, &reply));
    g_assert_cmpstr(req.path, ==, "/p/\xc3\xa9");
    g_assert_cmpstr(req.property, ==, "t");
    pbctl_request_clear(&req);
    g_assert_false(pbctl_parse_line("\r", &req, &reply));
    g_assert_cmpstr(reply, ==, "error unknown operation ''");
    free(reply);
}

static void test_utf8_as_glib(void)
{
    static const char *const fixed[] = {
        "", "abc", "\xc3\xa9", "\xc3", "\xc0\x80", "\xe0\x80\x80",
        "\xed\xa0\x80", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80",
        "\xf8\x88\x80\x80\x80", "\x80", "a\xe2\x82", "\xe2\x82\xac",
    };
    GRand *rand = g_rand_new_with_seed(7);

    for (guint i = 0; i < G_N_ELEMENTS(fixed); i++) {
        g_assert_cmpint(pbctl_utf8_valid(fixed[i]), ==,
                        g_utf8_validate(fixed[i], -1, NULL));
    }
    for (int round = 0; round < 200000; round++) {
        unsigned char s[8];
        gsize len = g_rand_int_range(rand, 1, sizeof(s));

        for (gsize i = 0; i < len; i++) {
            /* mostly high bytes, with some structure */
            s[i] = g_rand_int_range(rand, 1, 256);
            if (g_rand_boolean(rand)) {
                s[i] = 0x80 | (s[i] & 0x3f);
            }
        }
        s[len] = '\0';
        g_assert_cmpint(pbctl_utf8_valid((char *)s), ==,
                        g_utf8_validate((char *)s, -1, NULL));
    }
    g_rand_free(rand);
}

static void test_replies(void)
{
    char *s;

    s = pbctl_reply_ok(NULL);
    g_assert_cmpstr(s, ==, "ok");
    free(s);
    s = pbctl_reply_ok("21500");
    g_assert_cmpstr(s, ==, "ok 21500");
    free(s);
    s = pbctl_reply_error("Property 'x.t' not found");
    g_assert_cmpstr(s, ==, "error Property 'x.t' not found");
    free(s);
    s = pbctl_reply_bad_value("JSON parse error");
    g_assert_cmpstr(s, ==, "error qom-set: the value is not JSON: "
                           "JSON parse error");
    free(s);
}

static void collect(const char *line, void *data)
{
    g_ptr_array_add(data, g_strdup(line ? line : "(too long)"));
}

/* While a too long line is reported, buf holds its head (for a log). */
static void check_head(const char *line, void *data)
{
    const PbctlLines *lines = data;

    g_assert_null(line);
    g_assert_cmpuint(strlen(lines->buf), ==, PBCTL_MAX_LINE);
    g_assert_true(g_str_has_prefix(lines->buf, "head"));
}

static void test_lines_head(void)
{
    PbctlLines *lines = g_new(PbctlLines, 1);
    g_autofree char *big = g_strnfill(3 * PBCTL_MAX_LINE, 'y');

    pbctl_lines_init(lines);
    pbctl_lines_feed(lines, "head", 4, check_head, lines);
    pbctl_lines_feed(lines, big, strlen(big), check_head, lines);
    pbctl_lines_feed(lines, "\n", 1, check_head, lines);
    g_assert_cmpuint(lines->len, ==, 0);
    g_free(lines);
}

static void feed(PbctlLines *lines, const char *text, GPtrArray *got)
{
    pbctl_lines_feed(lines, text, strlen(text), collect, got);
}

static void test_lines(void)
{
    g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func(g_free);
    PbctlLines *lines = g_new(PbctlLines, 1);
    g_autofree char *max = g_strnfill(PBCTL_MAX_LINE, 'm');
    char flood[1000];

    pbctl_lines_init(lines);
    /* Lines split across writes are joined. */
    feed(lines, "qom-g", got);
    feed(lines, "et\nab\n\n", got);
    g_assert_cmpuint(got->len, ==, 3);
    g_assert_cmpstr(got->pdata[0], ==, "qom-get");
    g_assert_cmpstr(got->pdata[1], ==, "ab");
    g_assert_cmpstr(got->pdata[2], ==, "");

    /* A guest that never sends a newline: nothing is reported, the buffer
     * stays at the bound. */
    memset(flood, 'x', sizeof(flood));
    for (int i = 0; i < 100; i++) {
        pbctl_lines_feed(lines, flood, sizeof(flood), collect, got);
        g_assert_cmpuint(lines->len, <=, PBCTL_MAX_LINE);
    }
    g_assert_cmpuint(got->len, ==, 3);
    /* Its newline ends it with one "too long"; exactly the bound is still
     * a line, one more byte is not. */
    feed(lines, "\n", got);
    feed(lines, max, got);
    feed(lines, "\n", got);
    feed(lines, max, got);
    feed(lines, "+\nok\n", got);
    g_assert_cmpuint(got->len, ==, 7);
    g_assert_cmpstr(got->pdata[3], ==, "(too long)");
    g_assert_cmpstr(got->pdata[4], ==, max);
    g_assert_cmpstr(got->pdata[5], ==, "(too long)");
    g_assert_cmpstr(got->pdata[6], ==, "ok");
    g_assert_cmpuint(lines->len, ==, 0);
    g_free(lines);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pbctl/parse-set", test_parse_set);
    g_test_add_func("/pbctl/parse-get", test_parse_get);
    g_test_add_func("/pbctl/rejects", test_rejects);
    g_test_add_func("/pbctl/split-as-glib", test_split_as_glib);
    g_test_add_func("/pbctl/parse-line", test_parse_line);
    g_test_add_func("/pbctl/utf8-as-glib", test_utf8_as_glib);
    g_test_add_func("/pbctl/replies", test_replies);
    g_test_add_func("/pbctl/lines", test_lines);
    g_test_add_func("/pbctl/lines-head", test_lines_head);
    return g_test_run();
}
