/* SPDX-License-Identifier: GPL-2.0-or-later */
/* junit.c - JUnit XML from the parsed KTAP tree and the crash reports.
 *
 * Built in two steps: a model (suites holding testcases, crashes attached to
 * the testcase they happened in), then the XML.  Counts need the whole suite
 * before its opening tag can be written.
 */
#include "junit.h"

#include <string.h>

#include "crashscan.h"

#define BOOT_SUITE "(boot)"

typedef struct {
    char *classname;
    char *name;
    KtapResult result;
    const char *reason;
    gboolean own_result; /* stands for a non-leaf test's own result line */
    const GString *log;  /* may be NULL */
    gint64 start_us, end_us;
    GPtrArray *crashes; /* CrashReport *, borrowed */
} Case;

typedef struct {
    char *name;
    const KtapTest *test; /* NULL for the "(boot)" suite */
    GPtrArray *cases;     /* Case * */
    /* Case *, the first of each (classname, name): a crash finds its case
     * without scanning them all */
    GHashTable *case_by_name;
    GString *out; /* logs of the suite and of its non-leaf tests */
} Suite;

typedef struct {
    GPtrArray *suites;         /* Suite * */
    GHashTable *case_of_test;  /* const KtapTest * -> Case * */
    GHashTable *suite_of_test; /* top-level const KtapTest * -> Suite * */
    Suite *boot;               /* "(boot)", once a crash needs it */
} Model;

static void case_free(gpointer data)
{
    Case *c = data;

    g_free(c->classname);
    g_free(c->name);
    g_ptr_array_unref(c->crashes);
    g_free(c);
}

static void suite_free(gpointer data)
{
    Suite *s = data;

    g_free(s->name);
    g_hash_table_unref(s->case_by_name);
    g_ptr_array_unref(s->cases);
    g_string_free(s->out, TRUE);
    g_free(s);
}

static guint case_hash(gconstpointer data)
{
    const Case *c = data;

    return g_str_hash(c->classname) * 31u + g_str_hash(c->name);
}

static gboolean case_equal(gconstpointer a, gconstpointer b)
{
    const Case *x = a, *y = b;

    return g_str_equal(x->classname, y->classname) &&
           g_str_equal(x->name, y->name);
}

static Case *case_add(Suite *suite, const char *classname, const char *name)
{
    Case *c = g_new0(Case, 1);

    c->classname = g_strdup(classname);
    c->name = g_strdup(name);
    c->result = KTAP_RESULT_PASS;
    c->crashes = g_ptr_array_new();
    g_ptr_array_add(suite->cases, c);
    if (!g_hash_table_contains(suite->case_by_name, c)) {
        g_hash_table_add(suite->case_by_name, c);
    }
    return c;
}

static Case *case_for_test(Suite *suite, const KtapTest *t,
                           const char *classname)
{
    Case *c = case_add(suite, classname, t->name);

    c->result = t->result;
    c->reason = t->reason;
    c->log = t->log;
    c->start_us = t->start_us;
    c->end_us = t->end_us;
    return c;
}

static Suite *suite_add(Model *m, const char *name, const KtapTest *test)
{
    Suite *s = g_new0(Suite, 1);

    s->name = g_strdup(name);
    s->test = test;
    s->cases = g_ptr_array_new_with_free_func(case_free);
    s->case_by_name = g_hash_table_new(case_hash, case_equal);
    s->out = g_string_new(NULL);
    g_ptr_array_add(m->suites, s);
    return s;
}

/* parent_class: the dotted names above t, NULL for the suite itself */
static void collect_cases(Model *m, Suite *suite, const KtapTest *t,
                          const char *parent_class)
{
    const char *classname = parent_class ? parent_class : t->name;

    if (t->subtests->len == 0) {
        g_hash_table_insert(m->case_of_test, (gpointer)t,
                            case_for_test(suite, t, classname));
        return;
    }

    g_autofree char *own_class =
        parent_class ? g_strconcat(parent_class, ".", t->name, NULL)
                     : g_strdup(t->name);
    if (t->log->len > 0) {
        if (parent_class) {
            g_string_append_printf(suite->out, "--- %s ---\n", own_class);
        }
        g_string_append_len(suite->out, t->log->str, t->log->len);
    }
    for (guint i = 0; i < t->subtests->len; i++) {
        collect_cases(m, suite, g_ptr_array_index(t->subtests, i), own_class);
    }

    guint failed, incomplete;
    ktap_test_count(t, NULL, &failed, NULL, &incomplete);
    if ((t->result == KTAP_RESULT_FAIL || t->result == KTAP_RESULT_NONE) &&
        failed == 0 && incomplete == 0) {
        /* e.g. a kselftest binary that crashed after all its subtests passed */
        Case *c = case_for_test(suite, t, classname);
        c->own_result = TRUE;
        c->log = NULL; /* already in the suite's system-out */
    }
}

static char *dotted_path(const KtapTest *t)
{
    GPtrArray *names = g_ptr_array_new();

    for (; t != NULL && t->parent != NULL; t = t->parent) {
        g_ptr_array_insert(names, 0, t->name);
    }
    g_ptr_array_add(names, NULL);
    char *joined = g_strjoinv(".", (char **)names->pdata);
    g_ptr_array_free(names, TRUE);
    return joined;
}

static Case *find_or_add_case(Suite *suite, const char *classname,
                              const char *name)
{
    Case key = {.classname = (char *)classname, .name = (char *)name};
    Case *c = g_hash_table_lookup(suite->case_by_name, &key);

    if (c) {
        return c;
    }
    /*
     * a crash outside every reported test: it has no result of its own (counts
     * as pass)
     */
    return case_add(suite, classname, name);
}

static Suite *boot_suite(Model *m)
{
    if (!m->boot) {
        m->boot = suite_add(m, BOOT_SUITE, NULL);
    }
    return m->boot;
}

/* O(path): the index finds each level's child (KTAP_LIMIT_CRASH_REPORTS
 * reports in a tree of KTAP_LIMIT_TESTS must not scan siblings each). */
static void attach_crash(Model *m, const KtapIndex *index, const KtapTest *root,
                         CrashReport *report)
{
    const char *path = report->test ? report->test : BOOT_SUITE;
    const char *rest = path;
    const KtapTest *node = root;
    const KtapTest *child;

    while (*rest != '\0' &&
           (child = ktap_index_child(index, node, rest, &rest)) != NULL) {
        node = child;
        if (node->subtests->len == 0) {
            Case *c = g_hash_table_lookup(m->case_of_test, node);
            g_ptr_array_add(c->crashes, report);
            return;
        }
    }

    if (node == root) {
        Case *c = find_or_add_case(boot_suite(m), BOOT_SUITE, path);
        g_ptr_array_add(c->crashes, report);
        return;
    }

    const KtapTest *top = node;
    while (top->parent != root) {
        top = top->parent;
    }
    Suite *suite = g_hash_table_lookup(m->suite_of_test, top);

    Case *c;
    if (*rest == '\0') {
        /*
         * the path names a test with subtests: file it like that test's own
         * result
         */
        g_autofree char *parent_class =
            node == top ? g_strdup(top->name) : dotted_path(node->parent);
        c = find_or_add_case(suite, parent_class, node->name);
    } else {
        g_autofree char *classname = dotted_path(node);
        c = find_or_add_case(suite, classname, rest);
    }
    g_ptr_array_add(c->crashes, report);
}

static void model_init(Model *m)
{
    m->suites = g_ptr_array_new_with_free_func(suite_free);
    m->case_of_test = g_hash_table_new(NULL, NULL);
    m->suite_of_test = g_hash_table_new(NULL, NULL);
    m->boot = NULL;
}

/* One console's tree and crashes (a run of several VMs has one per VM). */
static void model_add_run(Model *m, KtapTest *root, GPtrArray *crash_reports)
{
    for (guint i = 0; i < root->subtests->len; i++) {
        const KtapTest *t = g_ptr_array_index(root->subtests, i);
        Suite *suite = suite_add(m, t->name, t);
        g_hash_table_insert(m->suite_of_test, (gpointer)t, suite);
        collect_cases(m, suite, t, NULL);
    }
    if (crash_reports && crash_reports->len) {
        g_autoptr(KtapIndex) index = ktap_index_new(root);

        for (guint i = 0; i < crash_reports->len; i++) {
            attach_crash(m, index, root, g_ptr_array_index(crash_reports, i));
        }
    }
}

static void model_clear(Model *m)
{
    g_ptr_array_unref(m->suites);
    g_hash_table_unref(m->case_of_test);
    g_hash_table_unref(m->suite_of_test);
}

/* ---- XML ---- */

/*
 * Console text can hold anything; XML 1.0 allows neither invalid UTF-8 nor most
 * C0 controls (g_markup would emit them as &#x1b; which parsers reject).
 */
static char *xml_clean(const char *s)
{
    if (s == NULL) {
        return g_strdup("");
    }

    g_autofree char *valid = g_utf8_make_valid(s, -1);
    GString *out = g_string_sized_new(strlen(valid));

    for (const char *p = valid; *p != '\0'; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE ||
            c == 0xFFFF) {
            c = 0xFFFD;
        }
        g_string_append_unichar(out, c);
    }
    return g_string_free(out, FALSE);
}

static void append_escaped(GString *xml, const char *format, ...)
    G_GNUC_PRINTF(2, 3);

static void append_escaped(GString *xml, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    g_autofree char *text = g_markup_vprintf_escaped(format, args);
    va_end(args);
    g_string_append(xml, text);
}

static void format_seconds(char buf[G_ASCII_DTOSTR_BUF_SIZE], gint64 start_us,
                           gint64 end_us)
{
    double seconds = end_us > start_us && start_us >= 0
                         ? (double)(end_us - start_us) / G_USEC_PER_SEC
                         : 0.0;

    /* not printf: the decimal separator must not follow the locale */
    g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, "%.3f", seconds);
}

/*
 * the report's headline: its first line that is not "cut here", without the
 * printk prefix
 */
static char *crash_headline(const CrashReport *report)
{
    g_auto(GStrv) lines =
        g_strsplit(report->excerpt ? report->excerpt : "", "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++) {
        const char *body = ktap_printk_body(lines[i]);
        const char *text = body ? body : lines[i];
        if (*text != '\0' &&
            !g_str_has_prefix(text, "------------[ cut here ]")) {
            return xml_clean(text);
        }
    }
    return g_strdup(report->kind);
}

typedef struct {
    guint tests, failures, errors, skipped;
} Counts;

static void count_case(const Case *c, Counts *counts)
{
    /* each testcase counts once: crash or no result, then failure, then skip */
    counts->tests++;
    if (c->crashes->len > 0 || c->result == KTAP_RESULT_NONE) {
        counts->errors++;
    } else if (c->result == KTAP_RESULT_FAIL) {
        counts->failures++;
    } else if (c->result == KTAP_RESULT_SKIP) {
        counts->skipped++;
    }
}

static void write_case(GString *xml, const Case *c)
{
    g_autofree char *classname = xml_clean(c->classname);
    g_autofree char *name = xml_clean(c->name);
    g_autofree char *reason = xml_clean(c->reason);
    char time[G_ASCII_DTOSTR_BUF_SIZE];

    format_seconds(time, c->start_us, c->end_us);
    append_escaped(xml,
                   "    <testcase classname=\"%s\" name=\"%s\" time=\"%s\">\n",
                   classname, name, time);

    switch (c->result) {
    case KTAP_RESULT_FAIL:
        if (c->own_result) {
            append_escaped(
                xml,
                "      <failure type=\"fail\" message=\"%s\">%s</failure>\n",
                c->reason ? reason : "not ok",
                "reported not ok, although none of its subtests failed");
        } else {
            append_escaped(xml,
                           "      <failure type=\"fail\" message=\"%s\"/>\n",
                           c->reason ? reason : "not ok");
        }
        break;
    case KTAP_RESULT_SKIP:
        if (c->reason) {
            append_escaped(xml, "      <skipped message=\"%s\"/>\n", reason);
        } else {
            g_string_append(xml, "      <skipped/>\n");
        }
        break;
    case KTAP_RESULT_NONE:
        g_string_append(
            xml, "      <error type=\"incomplete\" message=\"incomplete\">"
                 "no result line: the test did not finish</error>\n");
        break;
    case KTAP_RESULT_PASS:
    case KTAP_RESULT_MISSING: /* never in a tree */
        break;
    }

    for (guint i = 0; i < c->crashes->len; i++) {
        const CrashReport *report = g_ptr_array_index(c->crashes, i);
        g_autofree char *kind = xml_clean(report->kind);
        g_autofree char *headline = crash_headline(report);
        g_autofree char *excerpt = xml_clean(report->excerpt);
        append_escaped(xml,
                       "      <error type=\"%s\" message=\"%s\">%s</error>\n",
                       kind, headline, excerpt);
    }

    if (c->log && c->log->len > 0) {
        g_autofree char *log = xml_clean(c->log->str);
        append_escaped(xml, "      <system-out>%s</system-out>\n", log);
    }
    g_string_append(xml, "    </testcase>\n");
}

static void write_suite(GString *xml, const Suite *suite, Counts *total)
{
    Counts counts = {0};
    char time[G_ASCII_DTOSTR_BUF_SIZE];
    g_autofree char *name = xml_clean(suite->name);

    for (guint i = 0; i < suite->cases->len; i++) {
        count_case(g_ptr_array_index(suite->cases, i), &counts);
    }
    total->tests += counts.tests;
    total->failures += counts.failures;
    total->errors += counts.errors;
    total->skipped += counts.skipped;

    format_seconds(time, suite->test ? suite->test->start_us : 0,
                   suite->test ? suite->test->end_us : 0);
    append_escaped(xml,
                   "  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" "
                   "errors=\"%u\" skipped=\"%u\" time=\"%s\">\n",
                   name, counts.tests, counts.failures, counts.errors,
                   counts.skipped, time);
    for (guint i = 0; i < suite->cases->len; i++) {
        write_case(xml, g_ptr_array_index(suite->cases, i));
    }
    if (suite->out->len > 0) {
        g_autofree char *out = xml_clean(suite->out->str);
        append_escaped(xml, "    <system-out>%s</system-out>\n", out);
    }
    g_string_append(xml, "  </testsuite>\n");
}

char *junit_runs_to_string(KtapTest *const *roots,
                           GPtrArray *const *crash_reports, guint n)
{
    Model model;
    Counts total = {0};
    GString *suites_xml = g_string_new(NULL);
    char time[G_ASCII_DTOSTR_BUF_SIZE];
    gint64 start_us = 0, end_us = 0;

    g_return_val_if_fail(roots != NULL && n > 0, NULL);

    model_init(&model);
    for (guint i = 0; i < n; i++) {
        model_add_run(&model, roots[i],
                      crash_reports ? crash_reports[i] : NULL);
        /* the runs overlap: from the first start to the last end */
        if (roots[i]->start_us &&
            (!start_us || roots[i]->start_us < start_us)) {
            start_us = roots[i]->start_us;
        }
        end_us = MAX(end_us, roots[i]->end_us);
    }
    for (guint i = 0; i < model.suites->len; i++) {
        write_suite(suites_xml, g_ptr_array_index(model.suites, i), &total);
    }
    model_clear(&model);

    format_seconds(time, start_us, end_us);
    GString *xml = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    g_string_append_printf(xml,
                           "<testsuites tests=\"%u\" failures=\"%u\" "
                           "errors=\"%u\" skipped=\"%u\" time=\"%s\">\n",
                           total.tests, total.failures, total.errors,
                           total.skipped, time);
    g_string_append_len(xml, suites_xml->str, suites_xml->len);
    g_string_append(xml, "</testsuites>\n");
    g_string_free(suites_xml, TRUE);
    return g_string_free(xml, FALSE);
}

char *junit_to_string(KtapTest *root, GPtrArray *crash_reports)
{
    g_return_val_if_fail(root != NULL, NULL);

    return junit_runs_to_string(&root, &crash_reports, 1);
}

gboolean junit_runs_write(const char *path, KtapTest *const *roots,
                          GPtrArray *const *crash_reports, guint n,
                          GError **error)
{
    g_return_val_if_fail(path != NULL, FALSE);

    g_autofree char *xml = junit_runs_to_string(roots, crash_reports, n);
    return xml && g_file_set_contents(path, xml, -1, error);
}

gboolean junit_write(const char *path, KtapTest *root, GPtrArray *crash_reports,
                     GError **error)
{
    g_return_val_if_fail(root != NULL, FALSE);

    return junit_runs_write(path, &root, &crash_reports, 1, error);
}
