/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktap.c - streaming KTAP v1 / TAP 13 parser.
 *
 * Nesting follows indentation, but relative to the enclosing block rather
 * than a fixed 2 spaces per level, so KUnit's 4-space output parses too.
 * Each open block is a Level on a stack.  A level's "pending" child is the
 * test that is running there: it exists before its result line arrives
 * (created by a nested block, a "# Subtest:" line or a diagnostic) so a
 * crash or a truncated stream can still be attributed to it.
 *
 * Timing: a test starts at the previous KTAP line of its level (its older
 * sibling's result line, the plan or the block header) and ends at its own
 * result line.  For a leaf with no diagnostics this is the only usable
 * estimate of how long it ran.
 */
#include "ktap.h"

#include <string.h>

#include "ktaplimits.h"

typedef struct {
    KtapTest pub;        /* first, so a KtapTest * is a TestNode * */
    gboolean name_known; /* named by "# Subtest:" or by its result line */
    /* exists only to hold diagnostics printed before a result line */
    gboolean provisional;
    /*
     * For KTAP_LIMIT_PATH in O(depth) per name: strlen(name), and the longest
     * "/child/.../leaf" below this test (never shrinks: an upper bound).
     */
    gsize name_len, below_len;
} TestNode;

typedef struct {
    /* the test whose subtests this block lists (root for the outermost) */
    KtapTest *owner;
    int indent;
    /* child started here but not closed by its result line yet */
    KtapTest *pending;
    int results;     /* result lines seen in this block */
    int next_number; /* number of the next child: last result number + 1 */
    /* a plan or a result was seen: a new header now starts a new block */
    gboolean has_content;
    /* outermost only: a second header; its plan adds to the first */
    gboolean new_document;
    /* latest KTAP line of this block: where the next child starts */
    gint64 mark_us;
} Level;

struct KtapParser {
    KtapTest *root;
    /* Level *, outermost first; empty until the first header or plan */
    GPtrArray *levels;
    gboolean started; /* a header or plan was seen */
    gboolean finished;
    guint tests; /* in the tree, root excluded (KTAP_LIMIT_TESTS) */
    char *limit; /* the first limit the console exceeded, or NULL */
    /*
     * What pending_child() hands out, once a made-up "#N" would not fit
     * KTAP_LIMIT_PATH: never in the tree, and nothing is fed after a limit.
     */
    KtapTest *sink;
};

typedef enum {
    LINE_OTHER,
    LINE_VERSION,
    LINE_PLAN,
    LINE_RESULT,
    LINE_SUBTEST,
    LINE_DIAG,
} LineKind;

typedef struct {
    int plan;
    int number; /* -1 when the result line has none */
    KtapResult result;
    char *description; /* unescaped and trimmed; may be "" */
    char *reason;      /* may be NULL */
    char *subtest_name;
} ParsedLine;

static inline TestNode *node_of(KtapTest *t)
{
    return (TestNode *)t;
}

static void test_free(gpointer data)
{
    KtapTest *t = data;

    g_free(t->name);
    g_free(t->reason);
    g_ptr_array_unref(t->subtests);
    g_string_free(t->log, TRUE);
    g_free(node_of(t));
}

static KtapTest *test_new(KtapTest *parent, int number, gint64 start_us)
{
    TestNode *node = g_new0(TestNode, 1);
    KtapTest *t = &node->pub;

    t->name = parent ? g_strdup_printf("#%d", number) : g_strdup("");
    t->number = number;
    t->result = KTAP_RESULT_NONE;
    t->plan = -1;
    t->subtests = g_ptr_array_new_with_free_func(test_free);
    t->log = g_string_new(NULL);
    t->parent = parent;
    t->start_us = start_us;
    if (parent) {
        g_ptr_array_add(parent->subtests, t);
    }
    return t;
}

/* The bytes of t's path above its own name: "suite/program/". */
static gsize path_len_above(const KtapTest *t)
{
    gsize len = 0;

    for (t = t->parent; t && t->parent; t = t->parent) {
        len += node_of((KtapTest *)t)->name_len + 1;
    }
    return len;
}

/* After t's name changed: tell its ancestors how long paths below them
 * have grown; O(depth). */
static void note_name_len(KtapTest *t)
{
    gsize below;

    node_of(t)->name_len = strlen(t->name);
    below = node_of(t)->below_len;
    for (KtapTest *c = t; c->parent && c->parent->parent; c = c->parent) {
        TestNode *parent = node_of(c->parent);

        below += 1 + node_of(c)->name_len;
        parent->below_len = MAX(parent->below_len, below);
    }
}

static void test_replace_name(KtapTest *t, char *name)
{
    g_free(t->name);
    t->name = name;
    note_name_len(t);
}

static void parser_set_limit(KtapParser *p, const char *message)
{
    if (!p->limit) {
        p->limit = g_strdup(message);
    }
}

/*
 * Whether a name the parser makes up itself ("#N", "#N (missing)") fits
 * KTAP_LIMIT_PATH as a new child of parent: the limit holds for every
 * name in the tree, not only for those the guest printed.
 */
static gboolean made_up_name_fits(KtapParser *p, const KtapTest *parent,
                                  const char *name)
{
    gsize above = 0;

    if (parent->parent) {
        above = path_len_above(parent) + node_of((KtapTest *)parent)->name_len + 1;
    }

    if (above + strlen(name) > KTAP_LIMIT_PATH) {
        parser_set_limit(p, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_PATH, "bytes"));
        return FALSE;
    }
    return TRUE;
}

/* FALSE (and the limit set) if the name would make a path too long. */
static gboolean test_set_name(KtapParser *p, KtapTest *t, const char *name)
{
    if (path_len_above(t) + strlen(name) + node_of(t)->below_len >
        KTAP_LIMIT_PATH) {
        parser_set_limit(p, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_PATH, "bytes"));
        return FALSE;
    }
    test_replace_name(t, g_strdup(name));
    node_of(t)->name_known = TRUE;
    return TRUE;
}

/* ---- console helpers ---- */

const char *ktap_printk_body(const char *s)
{
    /*
     * "[%5lu.%06lu] ": the integer part is padded to at least 5 columns and the
     * fraction has exactly 6 digits, which keeps "[1.5]" in a test name from
     * matching
     */
    if (s == NULL || s[0] != '[') {
        return NULL;
    }

    const char *q = s + 1;
    int width = 0, digits = 0, fraction = 0;

    while (*q == ' ') {
        q++;
        width++;
    }
    while (g_ascii_isdigit(*q)) {
        q++;
        digits++;
    }
    if (digits == 0 || width + digits < 5 || *q != '.') {
        return NULL;
    }
    q++;
    while (g_ascii_isdigit(*q)) {
        q++;
        fraction++;
    }
    if (fraction != 6 || *q != ']') {
        return NULL;
    }
    q++;

    /* CONFIG_PRINTK_CALLER adds "[  T123]" (task) or "[    C1]" (CPU) */
    if (*q == '[') {
        const char *c = q + 1;
        while (*c == ' ') {
            c++;
        }
        if ((*c == 'T' || *c == 'C') && g_ascii_isdigit(c[1])) {
            c++;
            while (g_ascii_isdigit(*c)) {
                c++;
            }
            if (*c == ']') {
                q = c + 1;
            }
        }
    }
    if (*q == ' ') {
        q++;
    }
    return q;
}

/*
 * A console line written by user space while the kernel was printing its
 * time prefix holds the two halves apart: "[    0.70688" + user text on one
 * line, "7] Kernel panic - ..." on a later one.
 */
const char *ktap_skip_printk_head(const char *line)
{
    const char *q = line;

    if (q == NULL || *q != '[' || ktap_printk_body(q)) {
        return line;
    }
    q++;
    while (*q == ' ') {
        q++;
    }
    if (!g_ascii_isdigit(*q)) {
        return line;
    }
    while (g_ascii_isdigit(*q)) {
        q++;
    }
    if (*q == '.') {
        q++;
        while (g_ascii_isdigit(*q)) {
            q++;
        }
    }
    /* no "]": the rest of the prefix is on a later line */
    return *q == ']' ? line : q;
}

const char *ktap_printk_tail_body(const char *line)
{
    const char *q = line;

    const char *digits;

    if (q == NULL) {
        return NULL;
    }
    /* split right after "[": the tail keeps the padding ("    1.05087] ") */
    while (*q == ' ') {
        q++;
    }
    digits = q;
    while (g_ascii_isdigit(*q) || *q == '.') {
        q++;
    }
    if (q == digits || q - line > 14 || q[0] != ']' || q[1] != ' ') {
        return NULL;
    }
    return q + 2;
}

const char *ktap_find_printk_prefix(const char *line)
{
    if (line == NULL) {
        return NULL;
    }
    for (const char *p = strchr(line, '['); p != NULL; p = strchr(p + 1, '[')) {
        if (ktap_printk_body(p)) {
            return p;
        }
    }
    return NULL;
}

/* ---- line classification ---- */

static gboolean parse_number(const char **pp, int max, int *out)
{
    const char *p = *pp;
    guint64 value = 0;

    if (!g_ascii_isdigit(*p)) {
        return FALSE;
    }
    while (g_ascii_isdigit(*p)) {
        if (value <= (guint64)max) {
            value = value * 10 + (guint64)(*p - '0');
        }
        p++;
    }
    *pp = p;
    *out = value <= (guint64)max ? (int)value : -1;
    return TRUE;
}

static gboolean is_version_line(const char *text)
{
    const char *p;

    if (g_str_has_prefix(text, "KTAP version ")) {
        p = text + strlen("KTAP version ");
    } else if (g_str_has_prefix(text, "TAP version ")) {
        p = text + strlen("TAP version ");
    } else {
        return FALSE;
    }

    int version;
    if (!parse_number(&p, KTAP_MAX_NUMBER, &version)) {
        return FALSE;
    }
    while (g_ascii_isspace(*p)) {
        p++;
    }
    return *p == '\0';
}

static gboolean parse_plan_line(const char *text, int *plan)
{
    const char *p = text + 3;

    if (!g_str_has_prefix(text, "1..")) {
        return FALSE;
    }
    /* "1..0 # SKIP reason" is a valid plan: ignore what follows the count */
    if (!parse_number(&p, KTAP_MAX_PLAN, plan) || *plan < 0) {
        return FALSE;
    }
    return *p == '\0' || g_ascii_isspace(*p) || *p == '#';
}

/*
 * The '#' that starts a directive or comment: preceded by whitespace (or
 * first), not escaped, and followed by whitespace, the end, or SKIP/TODO.  This
 * keeps "test #5" intact while accepting "# SKIP", "#SKIP" and kselftest's "ok
 * 3 # SKIP".
 */
static const char *find_directive(const char *s)
{
    for (const char *p = strchr(s, '#'); p != NULL; p = strchr(p + 1, '#')) {
        if (p > s && !g_ascii_isspace(p[-1])) {
            continue;
        }
        if (p[1] == '\0' || g_ascii_isspace(p[1]) ||
            g_ascii_strncasecmp(p + 1, "skip", 4) == 0 ||
            g_ascii_strncasecmp(p + 1, "todo", 4) == 0) {
            return p;
        }
    }
    return NULL;
}

static char *unescape_description(const char *s, gsize len)
{
    GString *out = g_string_sized_new(len);

    for (gsize i = 0; i < len; i++) {
        if (s[i] == '\\' && i + 1 < len &&
            (s[i + 1] == '#' || s[i + 1] == '\\')) {
            i++;
        }
        g_string_append_c(out, s[i]);
    }
    return g_strstrip(g_string_free(out, FALSE));
}

/* NULL for an empty reason; strips the ':' of "# SKIP: reason" too */
static char *reason_from(const char *s)
{
    while (*s == ':' || g_ascii_isspace(*s)) {
        s++;
    }
    if (*s == '\0') {
        return NULL;
    }
    return g_strstrip(g_strdup(s));
}

static gboolean parse_result_line(const char *text, ParsedLine *out)
{
    const char *p = text;
    gboolean ok;

    if (g_str_has_prefix(p, "not ok")) {
        ok = FALSE;
        p += strlen("not ok");
    } else if (g_str_has_prefix(p, "ok")) {
        ok = TRUE;
        p += strlen("ok");
    } else {
        return FALSE;
    }
    if (*p != '\0' && !g_ascii_isspace(*p)) {
        return FALSE; /* "okay", "ok3" */
    }

    while (g_ascii_isspace(*p)) {
        p++;
    }
    out->number = -1;
    if (g_ascii_isdigit(*p)) {
        parse_number(&p, KTAP_MAX_NUMBER, &out->number);
        if (out->number == 0) {
            out->number = -1;
        }
    }
    while (g_ascii_isspace(*p)) {
        p++;
    }
    if (p[0] == '-' && (p[1] == '\0' || g_ascii_isspace(p[1]))) {
        p++;
    }

    const char *directive = find_directive(p);
    gsize description_len = directive ? (gsize)(directive - p) : strlen(p);
    out->description = unescape_description(p, description_len);
    out->result = ok ? KTAP_RESULT_PASS : KTAP_RESULT_FAIL;
    out->reason = NULL;

    if (directive) {
        const char *d = directive + 1;
        while (g_ascii_isspace(*d)) {
            d++;
        }
        if (g_ascii_strncasecmp(d, "skip", 4) == 0 ||
            g_ascii_strncasecmp(d, "todo", 4) == 0) {
            /*
             * TODO is an expected failure: it counts as skipped, whatever
             * ok/not ok says
             */
            while (g_ascii_isalpha(*d)) {
                d++;
            }
            out->result = KTAP_RESULT_SKIP;
            out->reason = reason_from(d);
        } else if (!ok) {
            out->reason = reason_from(d);
        }
    }
    return TRUE;
}

static LineKind classify_line(const char *text, ParsedLine *out)
{
    if (is_version_line(text)) {
        return LINE_VERSION;
    }
    if (parse_plan_line(text, &out->plan)) {
        return LINE_PLAN;
    }
    if (parse_result_line(text, out)) {
        return LINE_RESULT;
    }
    if (g_str_has_prefix(text, "# Subtest:")) {
        out->subtest_name = g_strstrip(g_strdup(text + strlen("# Subtest:")));
        if (out->subtest_name[0] != '\0') {
            return LINE_SUBTEST;
        }
        g_clear_pointer(&out->subtest_name, g_free);
        return LINE_DIAG;
    }
    if (text[0] == '#' || g_str_has_prefix(text, "Bail out!")) {
        return LINE_DIAG;
    }
    return LINE_OTHER;
}

/* ---- the block stack ---- */

static Level *level_at(KtapParser *p, guint i)
{
    return g_ptr_array_index(p->levels, i);
}

static Level *top_level(KtapParser *p)
{
    return level_at(p, p->levels->len - 1);
}

static Level *push_level(KtapParser *p, KtapTest *owner, int indent,
                         gint64 now_us)
{
    Level *lvl = g_new0(Level, 1);

    lvl->owner = owner;
    lvl->indent = indent;
    lvl->next_number = 1;
    lvl->mark_us = now_us;
    g_ptr_array_add(p->levels, lvl);
    return lvl;
}

static KtapTest *pending_child(KtapParser *p, Level *lvl)
{
    if (lvl->pending == NULL) {
        g_autofree char *name = g_strdup_printf("#%d", lvl->next_number);

        if (!made_up_name_fits(p, lvl->owner, name)) {
            return p->sink;
        }
        lvl->pending = test_new(lvl->owner, lvl->next_number, lvl->mark_us);
        note_name_len(lvl->pending);
        /* checked after each line (ktap_parser_feed): at most a line over */
        p->tests++;
    }
    return lvl->pending;
}

/* The block's running child will get no result line in this block any more. */
static void settle_pending(KtapParser *p, Level *lvl, gint64 now_us)
{
    KtapTest *t = lvl->pending;

    if (t == NULL) {
        return;
    }
    lvl->pending = NULL;

    if (node_of(t)->provisional && t->number > lvl->owner->plan) {
        /*
         * diagnostics after the last planned result ("# Totals: ...") belong to
         * the block
         */
        g_string_append_len(lvl->owner->log, t->log->str, t->log->len);
        g_ptr_array_remove(lvl->owner->subtests, t);
        p->tests--;
        return;
    }
    /* a planned test that started (printed something) but never reported */
    node_of(t)->provisional = FALSE;
    if (t->end_us == 0) {
        t->end_us = now_us;
    }
    lvl->next_number = MAX(lvl->next_number, t->number + 1);
}

/*
 * Ends the innermost block; its owner stays pending in the parent, awaiting its
 * result line.
 */
static void close_level(KtapParser *p, gint64 now_us)
{
    Level *lvl = g_ptr_array_steal_index(p->levels, p->levels->len - 1);

    settle_pending(p, lvl, now_us);
    g_free(lvl);
}

static Level *open_level(KtapParser *p, int indent, gint64 now_us)
{
    KtapTest *owner = pending_child(p, top_level(p));

    /* it has a nested block: a real test */
    node_of(owner)->provisional = FALSE;
    return push_level(p, owner, indent, now_us);
}

/* The block a version/plan/result/subtest line at this indentation belongs to:
   dedent closes blocks, indent opens one. */
static Level *structural_level(KtapParser *p, int indent, gint64 now_us)
{
    while (p->levels->len > 1 && indent < top_level(p)->indent) {
        close_level(p, now_us);
    }
    if (indent > top_level(p)->indent) {
        if (p->levels->len < KTAP_LIMIT_DEPTH) {
            open_level(p, indent, now_us);
        } else {
            /* the line stays in the innermost block; parsing stops after it */
            parser_set_limit(p, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_DEPTH, "levels"));
        }
    }
    return top_level(p);
}

static void handle_version(KtapParser *p, int indent, gint64 now_us)
{
    while (p->levels->len > 1 && indent < top_level(p)->indent) {
        close_level(p, now_us);
    }

    Level *top = top_level(p);
    if (indent != top->indent || !top->has_content) {
        structural_level(p, indent, now_us);
        return;
    }
    /* a header in a block that already has content starts a new block */
    if (p->levels->len == 1) {
        /* a second document: it numbers from 1 again and its plan adds up */
        settle_pending(p, top, now_us);
        top->new_document = TRUE;
        top->next_number = 1;
        return;
    }
    /* the previous block's result line was lost: it stays unfinished and
       this block is its sibling */
    close_level(p, now_us);
    settle_pending(p, top_level(p), now_us);
    open_level(p, indent, now_us);
}

static void handle_plan(KtapParser *p, int indent, int plan, gint64 now_us)
{
    Level *lvl = structural_level(p, indent, now_us);

    if (lvl->owner->plan < 0) {
        lvl->owner->plan = plan;
    } else if (lvl->new_document) {
        lvl->owner->plan = MIN(lvl->owner->plan + plan, KTAP_MAX_PLAN);
    }
    lvl->new_document = FALSE;
    lvl->has_content = TRUE;
    lvl->mark_us = now_us;
}

static void handle_result(KtapParser *p, int indent, ParsedLine *parsed,
                          gint64 now_us)
{
    Level *lvl = structural_level(p, indent, now_us);
    KtapTest *t = pending_child(p, lvl);

    t->number = parsed->number > 0 ? parsed->number : lvl->next_number;
    if (parsed->description[0] != '\0') {
        if (!test_set_name(p, t, parsed->description)) {
            return;
        }
    } else if (!node_of(t)->name_known) {
        g_autofree char *name = g_strdup_printf("#%d", t->number);

        if (t->parent && !made_up_name_fits(p, t->parent, name)) {
            return;
        }
        test_replace_name(t, g_steal_pointer(&name));
    }
    t->result = parsed->result;
    g_free(t->reason);
    t->reason = g_steal_pointer(&parsed->reason);
    t->end_us = now_us;
    node_of(t)->provisional = FALSE;

    lvl->pending = NULL;
    lvl->results++;
    lvl->next_number = t->number + 1;
    lvl->has_content = TRUE;
    lvl->mark_us = now_us;
}

static void handle_subtest(KtapParser *p, int indent, const char *name,
                           gint64 now_us)
{
    Level *lvl = structural_level(p, indent, now_us);

    if (p->levels->len > 1 && !lvl->has_content &&
        !node_of(lvl->owner)->name_known) {
        /* KTAP: the line sits inside the block it names */
        test_set_name(p, lvl->owner, name);
        return;
    }
    /* TAP 14 style: announces the next child of this block */
    KtapTest *t = pending_child(p, lvl);
    if (test_set_name(p, t, name)) {
        node_of(t)->provisional = FALSE;
    }
}

static void handle_diagnostic(KtapParser *p, int indent, const char *text)
{
    /*
     * diagnostics never change the nesting (a stray unindented one must not
     * close blocks): they go to the running test of the deepest block that fits
     */
    guint i = p->levels->len - 1;

    while (i > 0 && level_at(p, i)->indent > indent) {
        i--;
    }

    Level *lvl = level_at(p, i);
    KtapTest *t = lvl->pending;
    if (t == NULL && !lvl->has_content) {
        /* before the plan: block metadata such as KUnit's "# module:" */
        t = lvl->owner;
    } else if (t == NULL) {
        t = pending_child(p, lvl);
        node_of(t)->provisional = TRUE;
    }
    g_string_append(t->log, text);
    g_string_append_c(t->log, '\n');
}

/* ---- public API ---- */

KtapParser *ktap_parser_new(void)
{
    KtapParser *p = g_new0(KtapParser, 1);

    p->root = test_new(NULL, 0, 0);
    p->sink = test_new(NULL, 0, 0);
    p->levels = g_ptr_array_new_with_free_func(g_free);
    return p;
}

void ktap_parser_free(KtapParser *p)
{
    if (p == NULL) {
        return;
    }
    g_ptr_array_unref(p->levels);
    test_free(p->root);
    test_free(p->sink);
    g_free(p->limit);
    g_free(p);
}

KtapTest *ktap_parser_root(KtapParser *p)
{
    return p->root;
}

gboolean ktap_parser_started(KtapParser *p)
{
    return p->started;
}

const char *ktap_parser_limit(KtapParser *p)
{
    return p->limit;
}

void ktap_parser_feed(KtapParser *p, const char *line, gint64 now_us)
{
    /* past a limit nothing more is believed, nor costs anything */
    if (p->finished || p->limit || line == NULL) {
        return;
    }

    /* a kernel message can start mid-line; only the text before it can be KTAP
       (a line that is all kernel message leaves nothing) */
    const char *kernel_message = ktap_find_printk_prefix(line);
    gsize len = kernel_message ? (gsize)(kernel_message - line) : strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n')) {
        len--;
    }
    /* the second half of a split time prefix: the line is the kernel's */
    if (!kernel_message && ktap_printk_tail_body(line)) {
        len = 0;
    }

    g_autofree char *copy = g_strndup(line, len);
    const char *text = ktap_skip_printk_head(copy);
    int indent = 0;

    while (*text == '\r') {
        text++;
    }
    for (; *text == ' ' || *text == '\t'; text++) {
        indent++;
    }

    ParsedLine parsed = {0};
    LineKind kind = classify_line(text, &parsed);

    if (kind != LINE_OTHER && p->levels->len == 0) {
        /*
         * only a header or a plan starts KTAP: stray "ok"/"#" output before it
         * is not ours
         */
        if (kind == LINE_VERSION || kind == LINE_PLAN) {
            p->started = TRUE;
            p->root->start_us = now_us;
            push_level(p, p->root, indent, now_us);
        } else {
            kind = LINE_OTHER;
        }
    }

    switch (kind) {
    case LINE_VERSION:
        handle_version(p, indent, now_us);
        break;
    case LINE_PLAN:
        handle_plan(p, indent, parsed.plan, now_us);
        break;
    case LINE_RESULT:
        handle_result(p, indent, &parsed, now_us);
        break;
    case LINE_SUBTEST:
        handle_subtest(p, indent, parsed.subtest_name, now_us);
        break;
    case LINE_DIAG:
        handle_diagnostic(p, indent, text);
        break;
    case LINE_OTHER:
        break;
    }
    g_free(parsed.description);
    g_free(parsed.reason);
    g_free(parsed.subtest_name);
    if (p->tests > KTAP_LIMIT_TESTS) {
        parser_set_limit(p, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_TESTS, "tests"));
    }
}

char *ktap_parser_running(KtapParser *p)
{
    if (p->levels->len == 0) {
        return NULL;
    }

    Level *outermost = level_at(p, 0);
    if (p->levels->len == 1 && outermost->owner->plan > 0 &&
        outermost->results >= outermost->owner->plan &&
        (outermost->pending == NULL ||
         node_of(outermost->pending)->provisional)) {
        return NULL; /* the whole run has reported */
    }

    GString *path = g_string_new(NULL);
    for (guint i = 0; i < p->levels->len; i++) {
        Level *lvl = level_at(p, i);
        KtapTest *t = lvl->pending;

        if (i > 0) {
            g_string_append_c(path, '/');
        }
        if (t != NULL && node_of(t)->name_known) {
            g_string_append(path, t->name);
        } else {
            g_string_append_printf(path, "#%d",
                                   t ? t->number : lvl->next_number);
        }
    }
    return g_string_free(path, FALSE);
}

#define MARK_PREFIX "patchbay-ktap: "

void ktap_marks_feed(KtapMarks *m, const char *line)
{
    const char *p = ktap_find_printk_prefix(line);
    const char *body = p ? ktap_printk_body(p) : NULL;
    const char *space, *arg;
    char *end;
    long n;

    if (body == NULL || !g_str_has_prefix(body, MARK_PREFIX)) {
        return;
    }
    body += strlen(MARK_PREFIX);
    space = strchr(body, ' ');
    if (space == NULL || space == body) {
        return;
    }
    arg = space + 1;
    if (g_str_has_prefix(arg, "end") &&
        (arg[3] == '\0' || g_ascii_isspace(arg[3]))) {
        ktap_marks_clear(m);
        return;
    }
    n = strtol(arg, &end, 10);
    if (end == arg || n < 0 || n > G_MAXINT ||
        (*end != '\0' && !g_ascii_isspace(*end))) {
        return;
    }
    g_free(m->program);
    m->program = g_strndup(body, space - body);
    m->done = (int)n;
}

char *ktap_marks_running(const KtapMarks *m, const char *parser_running)
{
    if (m->program == NULL) {
        return g_strdup(parser_running);
    }
    /* a program that marks no results (a kernel selftest): the parser knows
       better within it */
    if (m->done == 0 && parser_running &&
        g_str_has_prefix(parser_running, m->program) &&
        parser_running[strlen(m->program)] == '/') {
        return g_strdup(parser_running);
    }
    return g_strdup_printf("%s/#%d", m->program, m->done + 1);
}

void ktap_marks_clear(KtapMarks *m)
{
    g_clear_pointer(&m->program, g_free);
    m->done = 0;
}

static void add_missing_tests(KtapParser *p, KtapTest *t, gint64 now_us)
{
    for (guint i = 0; i < t->subtests->len; i++) {
        add_missing_tests(p, g_ptr_array_index(t->subtests, i), now_us);
    }

    if (p->limit || t->plan <= (int)t->subtests->len) {
        return;
    }

    guint wanted = (guint)t->plan - t->subtests->len;
    if (wanted > KTAP_LIMIT_TESTS - MIN(p->tests, KTAP_LIMIT_TESTS)) {
        /* none of them: the plan alone says nothing more */
        parser_set_limit(p, KTAP_LIMIT_MESSAGE(KTAP_LIMIT_TESTS, "tests"));
        return;
    }
    p->tests += wanted;

    /* plan <= subtests + KTAP_LIMIT_TESTS: bounded by the tree */
    g_autofree gboolean *seen = g_new0(gboolean, (gsize)t->plan + 1);

    for (guint i = 0; i < t->subtests->len; i++) {
        KtapTest *child = g_ptr_array_index(t->subtests, i);
        if (child->number >= 1 && child->number <= t->plan) {
            seen[child->number] = TRUE;
        }
    }
    for (int n = 1; n <= t->plan && wanted > 0; n++) {
        if (seen[n]) {
            continue;
        }
        g_autofree char *name = g_strdup_printf("#%d (missing)", n);

        if (!made_up_name_fits(p, t, name)) {
            return;
        }
        KtapTest *missing = test_new(t, n, now_us);
        test_replace_name(missing, g_steal_pointer(&name));
        missing->end_us = now_us;
        wanted--;
    }
}

void ktap_parser_finish(KtapParser *p, gint64 now_us)
{
    if (p->finished) {
        return;
    }

    while (p->levels->len > 1) {
        close_level(p, now_us);
    }
    if (p->levels->len == 1) {
        settle_pending(p, top_level(p), now_us);
        g_ptr_array_set_size(p->levels, 0);
        p->root->end_us = now_us;
    }
    add_missing_tests(p, p->root, now_us);
    p->finished = TRUE;
}

static void count_leaves(const KtapTest *t,
                         guint counts[KTAP_RESULT_MISSING + 1])
{
    if (t->subtests->len == 0) {
        counts[t->result]++;
        return;
    }
    for (guint i = 0; i < t->subtests->len; i++) {
        count_leaves(g_ptr_array_index(t->subtests, i), counts);
    }
}

void ktap_test_count(const KtapTest *t, guint *passed, guint *failed,
                     guint *skipped, guint *incomplete)
{
    guint counts[KTAP_RESULT_MISSING + 1] = {0};

    if (t != NULL) {
        count_leaves(t, counts);
    }
    if (passed) {
        *passed = counts[KTAP_RESULT_PASS];
    }
    if (failed) {
        *failed = counts[KTAP_RESULT_FAIL];
    }
    if (skipped) {
        *skipped = counts[KTAP_RESULT_SKIP];
    }
    if (incomplete) {
        *incomplete = counts[KTAP_RESULT_NONE];
    }
}

static const char *const result_names[] = {
    [KTAP_RESULT_NONE] = "none",       [KTAP_RESULT_PASS] = "pass",
    [KTAP_RESULT_FAIL] = "fail",       [KTAP_RESULT_SKIP] = "skip",
    [KTAP_RESULT_MISSING] = "missing",
};

const char *ktap_result_name(KtapResult r)
{
    return (guint)r < G_N_ELEMENTS(result_names) ? result_names[r] : "none";
}

gboolean ktap_result_from_name(const char *name, KtapResult *r)
{
    for (guint i = 0; i < G_N_ELEMENTS(result_names); i++) {
        if (g_strcmp0(name, result_names[i]) == 0) {
            *r = i;
            return TRUE;
        }
    }
    return FALSE;
}
