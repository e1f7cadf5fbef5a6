/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errlines: the error-handling lines of a kernel C source (errlines.h).
 *
 * The text is cut into tokens (comments, preprocessor lines and #if 0
 * blocks dropped, line numbers kept), then every function body is walked
 * statement by statement with an inherited set of ERRLINE_* bits:
 *
 *  - if (COND) BODY [else ELSE]: BODY gets BRANCH when COND tests for an
 *    error (cond_class() below), ELSE gets BRANCH when COND is a success
 *    test (err >= 0, !err, crc == ...); either gets BRANCH also when one
 *    of its own statements reports or propagates an error;
 *  - a statement that reports (dev_err, ...) gets REPORT, one that
 *    propagates (return -E..., goto err_x, err = -E...) PROPAGATE;
 *  - the statements after an error label get LABEL, until the next label
 *    that is not one.
 *
 * A line is error handling when it holds a token of such a statement and
 * no token outside one: the line of "if (err) {" runs whether or not the
 * error happened, so it never counts, nor does a lone brace (no tokens are
 * kept for braces and else).
 */
#include "errlines.h"

#include <string.h>

typedef enum { T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT } TokType;

typedef struct {
    TokType type;
    char *text;
    guint line;
} Tok;

typedef struct {
    GArray *toks;          /* Tok */
    GHashTable *int_fns;   /* the file's functions that return 0/-errno */
    GHashTable *allocated; /* "lhs" assigned from an allocation */
    GHashTable *results;   /* variables assigned a call's result */
    guint8 *flags;         /* per line: OR of the bits of its tokens */
    gboolean *plain;       /* per line: has a token outside error code */
    const char **function; /* per line */
    guint n_lines;
    const char *fn; /* the function being walked */
    gboolean dry;   /* a probe: mark nothing */
} Walk;

/* ---- the lexer ---------------------------------------------------------- */

static const char *const puncts3[] = {"<<=", ">>=", "...", NULL};
static const char *const puncts2[] = {
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL};

static void push(GArray *toks, TokType type, const char *s, gsize len,
                 guint line)
{
    Tok t = {type, g_strndup(s, len), line};

    g_array_append_val(toks, t);
}

/* The first word of a preprocessor line (after "#"), and whether the rest
 * is exactly "0" (#if 0). */
static const char *directive(const char *p, const char *end, gboolean *zero)
{
    static char word[16];
    gsize n = 0;

    p++; /* '#' */
    while (p < end && (*p == ' ' || *p == '\t')) {
        p++;
    }
    while (p < end && g_ascii_isalpha(*p) && n < sizeof(word) - 1) {
        word[n++] = *p++;
    }
    word[n] = 0;
    while (p < end && (*p == ' ' || *p == '\t')) {
        p++;
    }
    *zero = p < end && *p == '0' && (p + 1 == end || !g_ascii_isalnum(p[1]));
    return word;
}

static GArray *lex(const char *text, guint *n_lines)
{
    GArray *toks = g_array_new(FALSE, FALSE, sizeof(Tok));
    const char *p = text;
    guint line = 1;
    gboolean bol = TRUE; /* only blanks since the line began */
    int skip = 0;        /* > 0: inside #if 0, its nesting depth */

    while (*p) {
        if (*p == '\n') {
            line++;
            p++;
            bol = TRUE;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f') {
            p++;
            continue;
        }
        if (bol && *p == '#') {
            /* a directive, with its continuation lines */
            const char *start = p;
            gboolean zero;
            const char *word;

            while (*p && !(*p == '\n' && p[-1] != '\\')) {
                if (*p == '\n') {
                    line++;
                }
                p++;
            }
            word = directive(start, p, &zero);
            if (skip) {
                if (g_str_has_prefix(word, "if")) {
                    skip++;
                } else if (strcmp(word, "endif") == 0 ||
                           (skip == 1 && (strcmp(word, "else") == 0 ||
                                          strcmp(word, "elif") == 0))) {
                    skip--;
                }
            } else if (strcmp(word, "if") == 0 && zero) {
                skip = 1;
            }
            continue;
        }
        bol = FALSE;
        if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++) {
                line += *p == '\n';
            }
            p += *p ? 2 : 0;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') {
                p++;
            }
            continue;
        }
        if (skip) {
            p++;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            const char *start = p;
            char q = *p++;

            while (*p && *p != q && *p != '\n') {
                p += (*p == '\\' && p[1]) ? 2 : 1;
            }
            p += *p == q;
            push(toks, q == '"' ? T_STRING : T_CHAR, start, p - start, line);
            continue;
        }
        if (g_ascii_isalpha(*p) || *p == '_' || g_ascii_isdigit(*p)) {
            const char *start = p;
            gboolean num = g_ascii_isdigit(*p);

            while (g_ascii_isalnum(*p) || *p == '_') {
                p++;
            }
            push(toks, num ? T_NUMBER : T_IDENT, start, p - start, line);
            continue;
        }
        {
            gsize len = 1;

            for (guint i = 0; puncts3[i] && len == 1; i++) {
                if (strncmp(p, puncts3[i], 3) == 0) {
                    len = 3;
                }
            }
            for (guint i = 0; puncts2[i] && len == 1; i++) {
                if (strncmp(p, puncts2[i], 2) == 0) {
                    len = 2;
                }
            }
            push(toks, T_PUNCT, p, len, line);
            p += len;
        }
    }
    *n_lines = line;
    return toks;
}

/* ---- token helpers ------------------------------------------------------ */

static Tok *tok(Walk *w, guint i)
{
    return &g_array_index(w->toks, Tok, i);
}

static gboolean is(Walk *w, guint i, const char *s)
{
    return i < w->toks->len && strcmp(tok(w, i)->text, s) == 0;
}

static gboolean ident(Walk *w, guint i)
{
    return i < w->toks->len && tok(w, i)->type == T_IDENT;
}

/* The index of the bracket closing the one at i (or the last token). */
static guint match(Walk *w, guint i)
{
    const char *open = tok(w, i)->text;
    const char *close = strcmp(open, "(") == 0   ? ")"
                        : strcmp(open, "[") == 0 ? "]"
                                                 : "}";
    int depth = 0;

    for (; i < w->toks->len; i++) {
        if (is(w, i, open)) {
            depth++;
        } else if (is(w, i, close) && --depth == 0) {
            return i;
        }
    }
    return w->toks->len - 1;
}

static gboolean contains_ci(const char *s, const char *what)
{
    g_autofree char *low = g_ascii_strdown(s, -1);

    return strstr(low, what) != NULL;
}

/* ---- the vocabulary ----------------------------------------------------- */

/* Variables that hold an error code by kernel convention. */
static gboolean errvar(const char *s)
{
    static const char *const names[] = {"err",    "ret",    "rc", "error",
                                        "retval", "result", NULL};

    return g_strv_contains(names, s);
}

static gboolean error_label(const char *s)
{
    static const char *const parts[] = {"err",   "fail",   "bad", "abort",
                                        "nomem", "unwind", NULL};

    for (guint i = 0; parts[i]; i++) {
        if (contains_ci(s, parts[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean alloc_call(const char *s)
{
    static const char *const parts[] = {"alloc",     "kmemdup",   "kstrdup",
                                        "kstrndup",  "nlmsg_new", "genlmsg_new",
                                        "skb_clone", NULL};

    for (guint i = 0; parts[i]; i++) {
        if (strstr(s, parts[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

/* An uppercase name of an error status bit or code: ST_EPOF, RR_CRC,
 * ..._RDERR_INT_MASK, ..._AXI_READ_ERROR, ... */
static gboolean error_bit(const char *s)
{
    static const char *const rr[] = {"RR_NRS", "RR_SH",  "RR_APP", "RR_VPP",
                                     "RR_CMP", "RR_CRC", "RR_EOS", NULL};

    g_auto(GStrv) parts = NULL;

    for (const char *p = s; *p; p++) {
        if (g_ascii_islower(*p)) {
            return FALSE;
        }
    }
    if (g_strv_contains(rr, s)) {
        return TRUE;
    }
    /* by its "_" parts, so that OVERRIDE and DEFAULT are not errors */
    parts = g_strsplit(s, "_", -1);
    for (guint i = 0; parts[i]; i++) {
        const char *x = parts[i];

        if (g_str_has_suffix(x, "ERR") || g_str_has_prefix(x, "ERROR") ||
            g_str_has_suffix(x, "ERROR") || strcmp(x, "FAULT") == 0 ||
            strcmp(x, "TIMEOUT") == 0 || strcmp(x, "EPOF") == 0) {
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean reporter(const char *s)
{
    static const char *const prefixes[] = {
        "dev_err",    "dev_warn", "dev_crit",  "dev_alert",     "dev_emerg",
        "pr_err",     "pr_warn",  "pr_crit",   "pr_alert",      "pr_emerg",
        "drm_err",    "drm_warn", "DRM_ERROR", "DRM_DEV_ERROR", "DRM_WARN",
        "netdev_err", "WARN",     NULL};

    for (guint i = 0; prefixes[i]; i++) {
        if (g_str_has_prefix(s, prefixes[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

/* Debug and info messages report an error only when they say so. */
static gboolean chatter(const char *s)
{
    static const char *const names[] = {
        "dev_dbg",   "dev_info", "dev_notice", "pr_debug",  "pr_info",
        "pr_notice", "printk",   "DBG",        "DRM_DEBUG", "drm_dbg",
        "DRM_INFO",  "drm_info", NULL};

    for (guint i = 0; names[i]; i++) {
        if (g_str_has_prefix(s, names[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean failure_words(const char *s)
{
    /* not a bare "err": it is in "interrupt" */
    static const char *const words[] = {
        "fail",   "error",  "err=",  "err:",      "timeout", "timed out",
        "unable", "cannot", "can't", "could not", "fault",   NULL};

    for (guint i = 0; words[i]; i++) {
        if (contains_ci(s, words[i])) {
            return TRUE;
        }
    }
    return FALSE;
}

/* ---- conditions --------------------------------------------------------- */

enum { COND_NONE, COND_ERROR, COND_SUCCESS };

/* The tokens [a, b) as one string, without spaces ("dev->udev"). */
static char *join(Walk *w, guint a, guint b)
{
    GString *s = g_string_new(NULL);

    for (guint i = a; i < b; i++) {
        g_string_append(s, tok(w, i)->text);
    }
    return g_string_free(s, FALSE);
}

/* [a, b) is one whole call NAME(...) of an int function of this file. */
static gboolean int_call(Walk *w, guint a, guint b)
{
    return b > a + 2 && ident(w, a) && is(w, a + 1, "(") &&
           match(w, a + 1) == b - 1 &&
           g_hash_table_contains(w->int_fns, tok(w, a)->text);
}

/* One operand of && and ||, tokens [a, b): does it test for an error?
 * *alloc: a failed allocation. */
static gboolean error_operand(Walk *w, guint a, guint b, gboolean *alloc)
{
    /* (X) */
    while (b > a + 1 && is(w, a, "(") && match(w, a) == b - 1) {
        a++;
        b--;
    }
    if (a >= b) {
        return FALSE;
    }
    if (is(w, a, "unlikely") && is(w, a + 1, "(") && match(w, a + 1) == b - 1) {
        return error_operand(w, a + 2, b - 1, alloc);
    }
    /* if (err), if (err != 0) */
    if (errvar(tok(w, a)->text) &&
        (b == a + 1 ||
         (b == a + 3 && is(w, a + 1, "!=") && is(w, a + 2, "0")))) {
        return TRUE;
    }
    if (is(w, a, "IS_ERR") || is(w, a, "IS_ERR_OR_NULL") ||
        g_str_has_prefix(tok(w, a)->text, "WARN_ON") ||
        is(w, a, "time_after") || is(w, a, "time_after_eq") ||
        is(w, a, "time_is_before_jiffies")) {
        return TRUE;
    }
    /* if (!buf) after buf = kmalloc(...) */
    if (is(w, a, "!")) {
        g_autofree char *what = join(w, a + 1, b);

        if (g_hash_table_contains(w->allocated, what)) {
            *alloc = TRUE;
            return TRUE;
        }
        return FALSE; /* !(x & ERR_BIT), !ok: not an error test */
    }
    /* if (ds_send_control(...)), if (f(...) != 0): 0 or -errno */
    if (int_call(w, a, b) || (b > a + 2 && is(w, b - 2, "!=") &&
                              is(w, b - 1, "0") && int_call(w, a, b - 2))) {
        return TRUE;
    }
    for (guint i = a; i < b; i++) {
        const char *t = tok(w, i)->text;

        /* X < 0, X an error variable, a call or a call's result (not
         * a sentinel: last_zero < 0) */
        if (strcmp(t, "<") == 0 && is(w, i + 1, "0") &&
            (i + 2 == b || is(w, i + 2, ")")) && i > a &&
            (is(w, i - 1, ")") ||
             (ident(w, i - 1) &&
              (errvar(tok(w, i - 1)->text) ||
               g_hash_table_contains(w->results, tok(w, i - 1)->text))))) {
            return TRUE;
        }
        if (tok(w, i)->type != T_IDENT) {
            continue;
        }
        if (error_bit(t)) {
            return TRUE;
        }
        /* a failed CRC */
        if (contains_ci(t, "crc")) {
            for (guint j = a; j < b; j++) {
                if (is(w, j, "!=")) {
                    return TRUE;
                }
            }
        }
        /* a retry counter at its limit: retries > MAX, tries >= 3 (not a
         * bare "count": count >= 16 is as often a length) */
        if (i == a && (is(w, i + 1, ">=") || is(w, i + 1, ">")) &&
            !is(w, i + 2, "0") &&
            (strstr(t, "retr") || strstr(t, "tries") || strstr(t, "attempt") ||
             strstr(t, "trying"))) {
            return TRUE;
        }
    }
    return FALSE;
}

/* A success test: the whole condition is x >= 0, !err, err == 0, !IS_ERR(),
 * crc == ..., !f() of an int function. Its else branch is the error. */
static gboolean success_cond(Walk *w, guint a, guint b)
{
    for (guint i = a; i < b; i++) {
        if (is(w, i, "&&") || is(w, i, "||") || is(w, i, "?")) {
            return FALSE;
        }
    }
    if (b == a + 2 && is(w, a, "!") && errvar(tok(w, a + 1)->text)) {
        return TRUE;
    }
    if (b == a + 3 && errvar(tok(w, a)->text) && is(w, a + 1, "==") &&
        is(w, a + 2, "0")) {
        return TRUE;
    }
    if (b > a + 2 && is(w, b - 2, ">=") && is(w, b - 1, "0")) {
        return TRUE;
    }
    if (is(w, a, "!") && (is(w, a + 1, "IS_ERR") || int_call(w, a + 1, b))) {
        return TRUE;
    }
    for (guint i = a; i < b; i++) {
        if (ident(w, i) && contains_ci(tok(w, i)->text, "crc")) {
            for (guint j = a; j < b; j++) {
                if (is(w, j, "==")) {
                    return TRUE;
                }
            }
        }
    }
    return FALSE;
}

/* The condition between the parentheses at a and b. */
static int cond_class(Walk *w, guint a, guint b, gboolean *alloc)
{
    guint start = a + 1;
    int depth = 0;

    for (guint i = a + 1; i <= b; i++) {
        if (is(w, i, "(") || is(w, i, "[")) {
            depth++;
        } else if ((is(w, i, ")") || is(w, i, "]")) && i < b) {
            depth--;
        }
        if (i == b || (depth == 0 && (is(w, i, "&&") || is(w, i, "||")))) {
            if (error_operand(w, start, i, alloc)) {
                return COND_ERROR;
            }
            start = i + 1;
        }
    }
    return success_cond(w, a + 1, b) ? COND_SUCCESS : COND_NONE;
}

/* ---- statements --------------------------------------------------------- */

static void mark(Walk *w, guint a, guint b, guint8 bits)
{
    if (w->dry) {
        return;
    }
    for (guint i = a; i < b && i < w->toks->len; i++) {
        Tok *t = tok(w, i);

        if (t->line > w->n_lines) {
            continue;
        }
        /* braces and else say nothing of the line they are on */
        if (strcmp(t->text, "{") == 0 || strcmp(t->text, "}") == 0 ||
            strcmp(t->text, "else") == 0) {
            continue;
        }
        w->flags[t->line] |= bits;
        if (!bits) {
            w->plain[t->line] = TRUE;
        }
    }
}

/* [a, b) has two names in a row: "int err", "struct x *p". */
static gboolean declaration(Walk *w, guint a, guint b)
{
    for (guint i = a; i + 1 < b; i++) {
        if (ident(w, i) && (ident(w, i + 1) || is(w, i + 1, "*"))) {
            return TRUE;
        }
    }
    return FALSE;
}

/* A simple statement [a, b) (b: its ';'): what it does for errors. */
static guint8 simple(Walk *w, guint a, guint b)
{
    guint8 bits = 0;

    if (is(w, a, "return") &&
        (is(w, a + 1, "-") || is(w, a + 1, "ERR_PTR") ||
         is(w, a + 1, "ERR_CAST") || is(w, a + 1, "PTR_ERR"))) {
        bits |= ERRLINE_PROPAGATE;
    }
    if (is(w, a, "goto") && ident(w, a + 1) &&
        error_label(tok(w, a + 1)->text)) {
        bits |= ERRLINE_PROPAGATE;
    }
    for (guint i = a; i < b; i++) {
        const char *t = tok(w, i)->text;

        if (tok(w, i)->type != T_IDENT || !is(w, i + 1, "(")) {
            /* x = -EIO; err = -1; ret = PTR_ERR(p); not a declaration's
             * "int err = -EINVAL;", which runs on every call */
            if (strcmp(t, "=") == 0 && i > a && !declaration(w, a, i) &&
                ((is(w, i + 1, "-") && ident(w, i + 2) &&
                  tok(w, i + 2)->text[0] == 'E' && i + 3 == b) ||
                 (errvar(tok(w, i - 1)->text) &&
                  ((is(w, i + 1, "-") && is(w, i + 2, "1") && i + 3 == b) ||
                   is(w, i + 1, "PTR_ERR"))))) {
                bits |= ERRLINE_PROPAGATE;
            }
            continue;
        }
        if (reporter(t)) {
            bits |= ERRLINE_REPORT;
        } else if (chatter(t)) {
            for (guint j = i; j < b; j++) {
                if (tok(w, j)->type == T_STRING &&
                    failure_words(tok(w, j)->text)) {
                    bits |= ERRLINE_REPORT;
                }
            }
        }
    }
    /* n = f(...): remember "n" for a later if (n < 0) */
    if (ident(w, a) && is(w, a + 1, "=") && ident(w, a + 2) &&
        is(w, a + 3, "(")) {
        g_hash_table_add(w->results, g_strdup(tok(w, a)->text));
    }
    /* buf = kmalloc(...): remember "buf" for a later if (!buf) */
    for (guint i = a + 1; i + 1 < b; i++) {
        if (is(w, i, "=") && ident(w, i + 1) &&
            alloc_call(tok(w, i + 1)->text) && is(w, i + 2, "(")) {
            guint l = i;

            while (l > a && (ident(w, l - 1) || is(w, l - 1, "->") ||
                             is(w, l - 1, "."))) {
                l--;
            }
            /* a declaration's type is not part of the name */
            while (l + 1 < i && ident(w, l) && ident(w, l + 1)) {
                l++;
            }
            g_hash_table_add(w->allocated, join(w, l, i));
            break;
        }
    }
    return bits;
}

static guint statement(Walk *w, guint i, guint8 ctx, gboolean *hit);

/* The body of an if or else at i: with ctx | bits, and BRANCH too when
 * one of its own statements reports or propagates. */
static guint branch(Walk *w, guint i, guint8 ctx)
{
    gboolean hit = FALSE, dry = w->dry;

    /* a probe first: marks are only ever added, so the real walk must
     * know the bits before it marks */
    w->dry = TRUE;
    statement(w, i, ctx, &hit);
    w->dry = dry;
    return statement(w, i, ctx | (hit ? ERRLINE_BRANCH : 0), &hit);
}

static guint block(Walk *w, guint i, guint8 ctx, gboolean *hit)
{
    guint8 c = ctx;
    gboolean jumped = FALSE; /* the statement before was return or goto */

    for (i++; i < w->toks->len && !is(w, i, "}");) {
        /* a label (not case/default, which statement() takes): an error
         * label only if the code before does not fall into it, as the
         * success path falls into convert_t()'s "error: return ret;" */
        if (ident(w, i) && is(w, i + 1, ":") && !is(w, i, "default")) {
            c = error_label(tok(w, i)->text) && (jumped || (c & ERRLINE_LABEL))
                    ? ctx | ERRLINE_LABEL
                    : ctx;
            i += 2;
            continue;
        }
        jumped = is(w, i, "return") || is(w, i, "goto");
        i = statement(w, i, c, hit);
    }
    return i + 1;
}

/* One statement from i, its tokens marked; returns the index after it.
 * *hit: it reports or propagates (itself, or a block's own statements). */
static guint statement(Walk *w, guint i, guint8 ctx, gboolean *hit)
{
    guint n = w->toks->len;

    if (i >= n) {
        return n;
    }
    if (is(w, i, "{")) {
        return block(w, i, ctx, hit);
    }
    if (is(w, i, ";")) {
        return i + 1;
    }
    if (is(w, i, "if") && is(w, i + 1, "(")) {
        guint close = match(w, i + 1);
        gboolean alloc = FALSE;
        int cls = cond_class(w, i + 1, close, &alloc);
        guint8 body = ctx;
        guint j;

        mark(w, i, close + 1, ctx);
        if (cls == COND_ERROR) {
            body |= ERRLINE_BRANCH | (alloc ? ERRLINE_ALLOC : 0);
        }
        j = branch(w, close + 1, body);
        if (is(w, j, "else")) {
            j = branch(w, j + 1,
                       ctx | (cls == COND_SUCCESS ? ERRLINE_BRANCH : 0));
        }
        return j;
    }
    if ((is(w, i, "for") || is(w, i, "while") || is(w, i, "switch")) &&
        is(w, i + 1, "(")) {
        guint close = match(w, i + 1);
        gboolean ignored = FALSE;

        mark(w, i, close + 1, ctx);
        return statement(w, close + 1, ctx, &ignored);
    }
    if (is(w, i, "do")) {
        gboolean ignored = FALSE;
        guint j = statement(w, i + 1, ctx, &ignored);

        if (is(w, j, "while") && is(w, j + 1, "(")) {
            guint close = match(w, j + 1);

            mark(w, j, close + 2, ctx);
            return close + 2;
        }
        return j;
    }
    /* list_for_each_entry(pos, head, member) { ... }: a loop macro */
    if (ident(w, i) && is(w, i + 1, "(") && is(w, match(w, i + 1) + 1, "{")) {
        guint close = match(w, i + 1);
        gboolean ignored = FALSE;

        mark(w, i, close + 1, ctx);
        return statement(w, close + 1, ctx, &ignored);
    }
    if (is(w, i, "case") || is(w, i, "default")) {
        guint j = i;

        while (j < n && !is(w, j, ":")) {
            j++;
        }
        return j + 1;
    }
    {
        /* up to the ';' outside any bracket */
        guint j = i;
        guint8 bits;

        while (j < n && !is(w, j, ";")) {
            if (is(w, j, "(") || is(w, j, "[") || is(w, j, "{")) {
                j = match(w, j);
            }
            if (is(w, j, "}") && !is(w, i, "{")) {
                break; /* a missing ';' before a '}': stop there */
            }
            j++;
        }
        bits = simple(w, i, j);
        *hit |= (bits & (ERRLINE_REPORT | ERRLINE_PROPAGATE)) != 0;
        mark(w, i, MIN(j + 1, n), ctx | bits);
        return j < n && is(w, j, ";") ? j + 1 : j;
    }
}

/* ---- functions ---------------------------------------------------------- */

static gboolean keyword(const char *s)
{
    static const char *const kw[] = {"if",     "for",    "while", "switch",
                                     "return", "sizeof", "do",    NULL};

    return g_strv_contains(kw, s);
}

/* An int function's body [a, b] returns 0 or -errno: some return is
 * negative or an error variable, none is 1 (w1_addr_crc_is_valid returns
 * 1 for "valid": a test of its result is no error test). */
static gboolean errno_returns(Walk *w, guint a, guint b)
{
    gboolean neg = FALSE;

    for (guint i = a; i < b; i++) {
        if (!is(w, i, "return")) {
            continue;
        }
        if (is(w, i + 1, "1") && is(w, i + 2, ";")) {
            return FALSE;
        }
        neg |= is(w, i + 1, "-") ||
               (ident(w, i + 1) && errvar(tok(w, i + 1)->text));
    }
    return neg;
}

/* Every top-level "name(...) {": first pass, which return int; second,
 * walk the bodies. */
static void functions(Walk *w, gboolean classify)
{
    guint n = w->toks->len;

    for (guint i = 0; i < n; i++) {
        guint open, end;

        if (!is(w, i, "{")) {
            continue;
        }
        end = match(w, i);
        if (i < 1 || !is(w, i - 1, ")")) {
            i = end; /* an initializer, a struct */
            continue;
        }
        /* the "(" of the parameter list, and the name before it */
        open = i - 1;
        for (int depth = 0; open > 0; open--) {
            if (is(w, open, ")")) {
                depth++;
            } else if (is(w, open, "(") && --depth == 0) {
                break;
            }
        }
        if (open == 0 || !ident(w, open - 1) ||
            keyword(tok(w, open - 1)->text)) {
            i = end;
            continue;
        }
        if (!classify) {
            if (open >= 2 && is(w, open - 2, "int") &&
                !(open >= 3 && is(w, open - 3, "unsigned")) &&
                errno_returns(w, i, end)) {
                g_hash_table_add(w->int_fns, g_strdup(tok(w, open - 1)->text));
            }
        } else {
            gboolean hit = FALSE;

            w->fn = g_intern_string(tok(w, open - 1)->text);
            g_hash_table_remove_all(w->allocated);
            g_hash_table_remove_all(w->results);
            for (guint l = tok(w, open - 1)->line;
                 l <= tok(w, end)->line && l <= w->n_lines; l++) {
                w->function[l] = w->fn;
            }
            block(w, i, 0, &hit);
        }
        i = end;
    }
}

ErrLines *errlines_classify(const char *text)
{
    ErrLines *e = g_new0(ErrLines, 1);
    Walk w = {0};

    w.toks = lex(text, &w.n_lines);
    w.int_fns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    w.allocated = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    w.results = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    w.flags = g_new0(guint8, w.n_lines + 1);
    w.plain = g_new0(gboolean, w.n_lines + 1);
    w.function = g_new0(const char *, w.n_lines + 1);
    if (w.toks->len) {
        functions(&w, FALSE);
        functions(&w, TRUE);
    }
    e->n_lines = w.n_lines;
    e->why = g_new0(guint8, w.n_lines + 1);
    e->function = w.function;
    for (guint l = 1; l <= w.n_lines; l++) {
        e->why[l] = w.plain[l] ? 0 : w.flags[l];
    }
    for (guint i = 0; i < w.toks->len; i++) {
        g_free(tok(&w, i)->text);
    }
    g_array_unref(w.toks);
    g_hash_table_unref(w.int_fns);
    g_hash_table_unref(w.allocated);
    g_hash_table_unref(w.results);
    g_free(w.flags);
    g_free(w.plain);
    return e;
}

void errlines_free(ErrLines *e)
{
    if (!e) {
        return;
    }
    g_free(e->why);
    g_free(e->function);
    g_free(e);
}

char *errlines_describe(guint8 why)
{
    static const char *const names[] = {"branch", "report", "propagate",
                                        "label", "alloc"};
    GString *s = g_string_new(NULL);

    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        if (why & (1u << i)) {
            g_string_append_printf(s, "%s%s", s->len ? "+" : "", names[i]);
        }
    }
    return g_string_free(s, FALSE);
}
