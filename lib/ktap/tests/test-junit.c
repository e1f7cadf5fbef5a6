/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the JUnit writer: the XML is parsed back with
 * GMarkupParseContext.
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "crashscan.h"
#include "junit.h"
#include "ktap.h"
#include "test-data.h"

#define US_PER_LINE 1000

/* ---- a minimal DOM, enough to check elements, attributes and text ---- */

typedef struct Element Element;
struct Element {
    char *name;
    GHashTable *attrs;
    GString *text;
    GPtrArray *children; /* Element * */
    Element *parent;
};

static void element_free(gpointer data)
{
    Element *e = data;

    g_free(e->name);
    g_hash_table_unref(e->attrs);
    g_string_free(e->text, TRUE);
    g_ptr_array_unref(e->children);
    g_free(e);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Element, element_free)

static Element *element_new(const char *name, Element *parent)
{
    Element *e = g_new0(Element, 1);

    e->name = g_strdup(name);
    e->attrs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    e->text = g_string_new(NULL);
    e->children = g_ptr_array_new_with_free_func(element_free);
    e->parent = parent;
    if (parent) {
        g_ptr_array_add(parent->children, e);
    }
    return e;
}

typedef struct {
    Element *document; /* synthetic parent of the root element */
    Element *current;
} DomBuilder;

static void dom_start(GMarkupParseContext *context, const char *name,
                      const char **attr_names, const char **attr_values,
                      gpointer user_data, GError **error)
{
    DomBuilder *b = user_data;
    Element *e = element_new(name, b->current);

    (void)context;
    (void)error;
    for (guint i = 0; attr_names[i]; i++) {
        g_hash_table_insert(e->attrs, g_strdup(attr_names[i]),
                            g_strdup(attr_values[i]));
    }
    b->current = e;
}

static void dom_end(GMarkupParseContext *context, const char *name,
                    gpointer user_data, GError **error)
{
    DomBuilder *b = user_data;

    (void)context;
    (void)name;
    (void)error;
    b->current = b->current->parent;
}

static void dom_text(GMarkupParseContext *context, const char *text, gsize len,
                     gpointer user_data, GError **error)
{
    DomBuilder *b = user_data;

    (void)context;
    (void)error;
    g_string_append_len(b->current->text, text, (gssize)len);
}

/* The root element (<testsuites>), in a document element that owns it. */
static Element *parse_xml(const char *xml)
{
    static const GMarkupParser parser = {dom_start, dom_end, dom_text, NULL,
                                         NULL};
    DomBuilder builder = {element_new("#document", NULL), NULL};
    g_autoptr(GError) error = NULL;

    builder.current = builder.document;
    GMarkupParseContext *context =
        g_markup_parse_context_new(&parser, 0, &builder, NULL);
    g_markup_parse_context_parse(context, xml, -1, &error);
    g_assert_no_error(error);
    g_markup_parse_context_end_parse(context, &error);
    g_assert_no_error(error);
    g_markup_parse_context_free(context);

    g_assert_cmpuint(builder.document->children->len, ==, 1);
    return builder.document;
}

static Element *root_element(Element *document)
{
    Element *root = g_ptr_array_index(document->children, 0);
    g_assert_cmpstr(root->name, ==, "testsuites");
    return root;
}

static const char *attr(const Element *e, const char *name)
{
    return g_hash_table_lookup(e->attrs, name);
}

static guint count_children(const Element *e, const char *name)
{
    guint n = 0;

    for (guint i = 0; i < e->children->len; i++) {
        n += g_str_equal(((Element *)g_ptr_array_index(e->children, i))->name,
                         name);
    }
    return n;
}

/* The index-th child called name, or NULL. */
static Element *find_child(const Element *e, const char *name, guint index)
{
    for (guint i = 0; i < e->children->len; i++) {
        Element *c = g_ptr_array_index(e->children, i);
        if (g_str_equal(c->name, name) && index-- == 0) {
            return c;
        }
    }
    return NULL;
}

static Element *find_suite(Element *root, const char *name)
{
    for (guint i = 0; i < root->children->len; i++) {
        Element *suite = g_ptr_array_index(root->children, i);
        if (g_str_equal(suite->name, "testsuite") &&
            g_strcmp0(attr(suite, "name"), name) == 0) {
            return suite;
        }
    }
    g_error("no testsuite %s", name);
}

static Element *find_case(Element *suite, const char *classname,
                          const char *name)
{
    for (guint i = 0; i < suite->children->len; i++) {
        Element *c = g_ptr_array_index(suite->children, i);
        if (g_str_equal(c->name, "testcase") &&
            g_strcmp0(attr(c, "classname"), classname) == 0 &&
            g_strcmp0(attr(c, "name"), name) == 0) {
            return c;
        }
    }
    g_error("no testcase %s / %s", classname, name);
}

static void assert_suite_counts(Element *suite, const char *tests,
                                const char *failures, const char *errors,
                                const char *skipped)
{
    g_assert_cmpstr(attr(suite, "tests"), ==, tests);
    g_assert_cmpstr(attr(suite, "failures"), ==, failures);
    g_assert_cmpstr(attr(suite, "errors"), ==, errors);
    g_assert_cmpstr(attr(suite, "skipped"), ==, skipped);
    g_assert_cmpuint(count_children(suite, "testcase"), ==, (guint)atoi(tests));
}

/* ---- helpers feeding the parser and the scanner ---- */

static void feed_lines(KtapParser *parser, CrashScanner *scanner, char **lines,
                       guint n)
{
    for (guint i = 0; i < n; i++) {
        ktap_parser_feed(parser, lines[i], (gint64)(i + 1) * US_PER_LINE);
        g_autofree char *running = ktap_parser_running(parser);
        if (scanner) {
            crash_scanner_feed(scanner, lines[i], running);
        }
    }
    ktap_parser_finish(parser, (gint64)(n + 1) * US_PER_LINE);
}

static void feed_log(KtapParser *parser, CrashScanner *scanner,
                     const char *name)
{
    g_auto(GStrv) lines = test_data_lines(name);

    feed_lines(parser, scanner, lines, g_strv_length(lines));
}

/* Writes the JUnit file through junit_write and reads it back. */
static char *write_and_read(KtapParser *parser, CrashScanner *scanner)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp("test-junit-XXXXXX", &error);
    g_assert_no_error(error);
    g_autofree char *path = g_build_filename(dir, "junit.xml", NULL);

    gboolean ok =
        junit_write(path, ktap_parser_root(parser),
                    scanner ? crash_scanner_reports(scanner) : NULL, &error);
    g_assert_no_error(error);
    g_assert_true(ok);

    char *xml = NULL;
    g_file_get_contents(path, &xml, NULL, &error);
    g_assert_no_error(error);
    g_assert_cmpint(g_remove(path), ==, 0);
    g_assert_cmpint(g_rmdir(dir), ==, 0);

    /* the same document as junit_to_string */
    g_autofree char *direct =
        junit_to_string(ktap_parser_root(parser),
                        scanner ? crash_scanner_reports(scanner) : NULL);
    g_assert_cmpstr(xml, ==, direct);
    return xml;
}

/* ---- tests ---- */

static void test_failing_skipped_crashed(void)
{
    g_autoptr(KtapParser) parser = ktap_parser_new();
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    feed_log(parser, scanner, "panic.log");
    g_autofree char *xml = write_and_read(parser, scanner);

    /* '<' and '&' in names and reasons are escaped */
    g_assert_nonnull(strstr(
        xml, "name=\"flags bit 32 &amp; bit 33 &lt;unknown&gt; rejected\""));
    g_assert_nonnull(
        strstr(xml, "message=\"expected EINVAL &amp; got &lt;0&gt;\""));

    g_autoptr(Element) document = parse_xml(xml);
    Element *root = root_element(document);
    g_assert_cmpstr(attr(root, "tests"), ==, "9");
    g_assert_cmpstr(attr(root, "failures"), ==, "1");
    g_assert_cmpstr(attr(root, "errors"), ==, "2");
    g_assert_cmpstr(attr(root, "skipped"), ==, "1");
    g_assert_cmpuint(count_children(root, "testsuite"), ==, 2);

    Element *openat2 = find_suite(root, "openat2");
    assert_suite_counts(openat2, "6", "1", "0", "1");
    /* from "1..2" of the top level to "not ok 1 openat2": 19 lines of 1 ms */
    g_assert_cmpstr(attr(openat2, "time"), ==, "0.019");

    Element *passed =
        find_case(openat2, "openat2.openat2_test", "openat2 with O_TMPFILE");
    g_assert_cmpuint(passed->children->len, ==, 0);

    Element *failed = find_case(openat2, "openat2.flags",
                                "flags bit 32 & bit 33 <unknown> rejected");
    Element *failure = find_child(failed, "failure", 0);
    g_assert_nonnull(failure);
    g_assert_cmpstr(attr(failure, "message"), ==, "expected EINVAL & got <0>");
    Element *out = find_child(failed, "system-out", 0);
    g_assert_nonnull(out);
    g_assert_cmpstr(out->text->str, ==, "# flags: how.flags = 0x300000000\n");

    Element *skipped =
        find_case(openat2, "openat2.flags", "resolve bit 5 rejected");
    g_assert_cmpstr(attr(find_child(skipped, "skipped", 0), "message"), ==,
                    "not supported");
    g_assert_null(find_child(skipped, "failure", 0));

    Element *sysrq = find_suite(root, "sysrq");
    assert_suite_counts(sysrq, "3", "0", "2", "0");

    /*
     * the panic lands on the test that was running, which also never finished
     */
    Element *crashed = find_case(sysrq, "sysrq.sysrq_trigger", "#2");
    g_assert_cmpuint(count_children(crashed, "error"), ==, 2);
    Element *incomplete = find_child(crashed, "error", 0);
    g_assert_cmpstr(attr(incomplete, "message"), ==, "incomplete");
    Element *panic = find_child(crashed, "error", 1);
    g_assert_cmpstr(attr(panic, "type"), ==, "panic");
    g_assert_cmpstr(attr(panic, "message"), ==,
                    "Kernel panic - not syncing: sysrq triggered crash");
    g_assert_true(g_str_has_prefix(
        panic->text->str,
        "[    4.812901] Kernel panic - not syncing: sysrq triggered crash\n"));
    g_assert_true(g_str_has_suffix(
        panic->text->str,
        "---[ end Kernel panic - not syncing: sysrq triggered crash ]---"));
    g_assert_cmpstr(
        find_child(crashed, "system-out", 0)->text->str, ==,
        "# sysrq_trigger_crash: writing 'c' to /proc/sysrq-trigger\n");

    Element *missing = find_case(sysrq, "sysrq.sysrq_trigger", "#3 (missing)");
    g_assert_cmpuint(count_children(missing, "error"), ==, 1);
    g_assert_cmpstr(attr(find_child(missing, "error", 0), "message"), ==,
                    "incomplete");
    g_assert_null(find_child(missing, "system-out", 0));
}

static void test_unattributed_crashes(void)
{
    static const char *const lines[] = {
        "[    0.074551] Run /init as init process",
        "[    0.080000] ------------[ cut here ]------------",
        "[    0.080100] WARNING: CPU: 0 PID: 1 at init/main.c:1400 "
        "kernel_init+0x30/0x1d8",
        "[    0.080200] ---[ end trace 0000000000000000 ]---",
        "KTAP version 1",
        "1..1",
        "  KTAP version 1",
        "  # Subtest: s",
        "  1..1",
        "  ok 1 a",
        "[    1.000000] BUG: scheduling while atomic: s/99/0x00000002",
        "ok 1 s",
        "[    2.000000] Kernel panic - not syncing: Attempted to kill init! "
        "exitcode=0x00000000",
        NULL,
    };
    g_autoptr(KtapParser) parser = ktap_parser_new();
    g_autoptr(CrashScanner) scanner = crash_scanner_new();

    feed_lines(parser, scanner, (char **)lines, g_strv_length((char **)lines));
    GPtrArray *reports = crash_scanner_reports(scanner);
    g_assert_cmpuint(reports->len, ==, 3);
    g_assert_cmpstr(((CrashReport *)g_ptr_array_index(reports, 0))->test, ==,
                    "(boot)");
    g_assert_cmpstr(((CrashReport *)g_ptr_array_index(reports, 1))->test, ==,
                    "s/#2");
    g_assert_cmpstr(((CrashReport *)g_ptr_array_index(reports, 2))->test, ==,
                    "(boot)");

    g_autofree char *xml = write_and_read(parser, scanner);
    g_autoptr(Element) document = parse_xml(xml);
    Element *root = root_element(document);

    /* after the last test: a testcase of its own in that suite */
    Element *s = find_suite(root, "s");
    assert_suite_counts(s, "2", "0", "1", "0");
    Element *after = find_case(s, "s", "#2");
    g_assert_cmpstr(attr(find_child(after, "error", 0), "type"), ==, "bug");
    g_assert_null(find_child(find_case(s, "s", "a"), "error", 0));

    /* before any KTAP, and after the run completed: the "(boot)" suite */
    Element *boot = find_suite(root, "(boot)");
    assert_suite_counts(boot, "1", "0", "1", "0");
    Element *boot_case = find_case(boot, "(boot)", "(boot)");
    g_assert_cmpuint(count_children(boot_case, "error"), ==, 2);
    Element *warn = find_child(boot_case, "error", 0);
    g_assert_cmpstr(attr(warn, "type"), ==, "warn");
    /* the headline skips the "cut here" line */
    g_assert_cmpstr(
        attr(warn, "message"), ==,
        "WARNING: CPU: 0 PID: 1 at init/main.c:1400 kernel_init+0x30/0x1d8");
    g_assert_cmpstr(attr(find_child(boot_case, "error", 1), "type"), ==,
                    "panic");

    g_assert_cmpstr(attr(root, "tests"), ==, "3");
    g_assert_cmpstr(attr(root, "errors"), ==, "2");
}

/*
 * report->test paths are matched by name or by "#N" number, on the longest
 * prefix.
 */
static void test_path_matching(void)
{
    static const char *const lines[] = {
        "KTAP version 1",
        "1..2",
        "  KTAP version 1",
        "  # Subtest: fs/openat2", /* a '/' inside a name */
        "  1..2",
        "  ok 1 leaf",
        "    KTAP version 1",
        "    # Subtest: inner",
        "    1..1",
        "    ok 1 deep",
        "  ok 2 inner",
        "ok 1 fs/openat2",
        "ok 2 second",
        NULL,
    };
    g_autoptr(KtapParser) parser = ktap_parser_new();
    feed_lines(parser, NULL, (char **)lines, g_strv_length((char **)lines));

    g_autoptr(CrashScanner) scanner = crash_scanner_new();
    crash_scanner_add_report(scanner, "hang", "fs/openat2/#1", "by number");
    crash_scanner_add_report(scanner, "hang", "fs/openat2/inner/deep", "by name");
    crash_scanner_add_report(scanner, "hang", "fs/openat2/inner/#1", "by number, deeper");
    crash_scanner_add_report(scanner, "hang", "second/#1", "below a leaf");
    crash_scanner_add_report(scanner, "hang", "fs/openat2/inner", "a test with subtests");
    crash_scanner_add_report(scanner, "hang", "fs/openat2/inner/#7", "no such test");

    g_autofree char *xml = write_and_read(parser, scanner);
    g_autoptr(Element) document = parse_xml(xml);
    Element *root = root_element(document);
    Element *suite = find_suite(root, "fs/openat2");

    Element *leaf = find_case(suite, "fs/openat2", "leaf");
    g_assert_cmpstr(find_child(leaf, "error", 0)->text->str, ==, "by number");
    Element *deep = find_case(suite, "fs/openat2.inner", "deep");
    g_assert_cmpuint(count_children(deep, "error"), ==, 2);
    Element *second = find_case(find_suite(root, "second"), "second", "second");
    g_assert_cmpstr(find_child(second, "error", 0)->text->str, ==,
                    "below a leaf");
    Element *inner = find_case(suite, "fs/openat2", "inner");
    g_assert_cmpstr(find_child(inner, "error", 0)->text->str, ==,
                    "a test with subtests");
    Element *unknown = find_case(suite, "fs/openat2.inner", "#7");
    g_assert_cmpstr(find_child(unknown, "error", 0)->text->str, ==,
                    "no such test");
    g_assert_cmpuint(count_children(root, "testsuite"), ==, 2);
}

/*
 * A parent that says "not ok" although all its leaves passed keeps that fact.
 */
static void test_own_result(void)
{
    static const char *const lines[] = {
        "KTAP version 1",
        "1..1",
        "  KTAP version 1",
        "  # Subtest: exec",
        "  1..2",
        "  ok 1 execveat",
        "  ok 2 binfmt_script",
        "  # exec: exited with signal 11 after its tests",
        "not ok 1 exec # exit=139",
        NULL,
    };
    g_autoptr(KtapParser) parser = ktap_parser_new();
    feed_lines(parser, NULL, (char **)lines, g_strv_length((char **)lines));

    g_autofree char *xml = write_and_read(parser, NULL);
    g_autoptr(Element) document = parse_xml(xml);
    Element *suite = find_suite(root_element(document), "exec");

    assert_suite_counts(suite, "3", "1", "0", "0");
    Element *own = find_case(suite, "exec", "exec");
    g_assert_cmpstr(attr(find_child(own, "failure", 0), "message"), ==,
                    "exit=139");
    /* the suite's diagnostics are the suite's system-out */
    Element *out = find_child(suite, "system-out", 0);
    g_assert_nonnull(out);
    g_assert_cmpstr(out->text->str, ==,
                    "# exec: exited with signal 11 after its tests\n");
}

/* Console garbage must still give well-formed XML 1.0. */
static void test_sanitize(void)
{
    static const char *const lines[] = {
        "KTAP version 1",
        "1..2",
        "# log with \x01 control and \"quotes\" & 'apostrophes' ]]>",
        "not ok 1 esc\x1b[31mred\x1b[0m & bell\x07 # bad \xff\xfe utf-8",
        "ok 2 \xc3\xa9t\xc3\xa9 unicode",
        NULL,
    };
    g_autoptr(KtapParser) parser = ktap_parser_new();
    feed_lines(parser, NULL, (char **)lines, g_strv_length((char **)lines));

    g_autofree char *xml = write_and_read(parser, NULL);
    g_assert_true(g_utf8_validate(xml, -1, NULL));
    g_assert_null(strstr(xml, "&#x1b;"));
    g_assert_null(strstr(xml, "&#x1;"));

    g_autoptr(Element) document = parse_xml(xml);
    Element *root = root_element(document);
    const char *esc_name =
        "esc\xef\xbf\xbd[31mred\xef\xbf\xbd[0m & bell\xef\xbf\xbd";
    Element *esc = find_suite(root, esc_name);
    Element *esc_case = find_case(esc, esc_name, esc_name);
    g_assert_nonnull(find_child(esc_case, "failure", 0));
    g_assert_cmpstr(
        find_child(esc_case, "system-out", 0)->text->str, ==,
        "# log with \xef\xbf\xbd control and \"quotes\" & 'apostrophes' ]]>\n");
    find_suite(root, "\xc3\xa9t\xc3\xa9 unicode");
}

static void test_empty_and_errors(void)
{
    g_autoptr(KtapParser) parser = ktap_parser_new();
    ktap_parser_finish(parser, 0);

    /* no KTAP at all: an empty but valid document */
    g_autofree char *xml = junit_to_string(ktap_parser_root(parser), NULL);
    g_autoptr(Element) document = parse_xml(xml);
    g_assert_cmpstr(attr(root_element(document), "tests"), ==, "0");
    g_assert_cmpuint(root_element(document)->children->len, ==, 0);

    g_autoptr(GError) error = NULL;
    g_assert_false(junit_write("/nonexistent-dir/junit.xml",
                               ktap_parser_root(parser), NULL, &error));
    g_assert_nonnull(error);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    g_test_add_func("/junit/failing-skipped-crashed",
                    test_failing_skipped_crashed);
    g_test_add_func("/junit/unattributed-crashes", test_unattributed_crashes);
    g_test_add_func("/junit/path-matching", test_path_matching);
    g_test_add_func("/junit/own-result", test_own_result);
    g_test_add_func("/junit/sanitize", test_sanitize);
    g_test_add_func("/junit/empty-and-errors", test_empty_and_errors);

    return g_test_run();
}
