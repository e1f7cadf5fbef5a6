/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbctl-core.c - QEMU-free core of the host control channel's protocol.
 * See pbctl-core.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbctl-core.h"

/* Out of memory is fatal, as for g_malloc() (QEMU and the runner). */
static void *pbctl_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p) {
        abort();
    }
    return p;
}

static char *pbctl_strndup(const char *s, size_t n)
{
    char *d = pbctl_alloc(n + 1);

    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *pbctl_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static char *pbctl_printf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        abort();
    }
    s = pbctl_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

const char *pbctl_op_name(PbctlOp op)
{
    return op == PBCTL_OP_SET ? "qom-set" : "qom-get";
}

#define PBCTL_WORDS 4

/*
 * Split as g_strsplit_set(line, " \t", 4) does: every single space or tab
 * ends a word (two in a row make an empty word), the last word is the rest
 * of the line, and an empty line has no words.
 */
static size_t split_words(const char *line, const char *start[PBCTL_WORDS],
                          size_t len[PBCTL_WORDS])
{
    const char *cur = line, *s = line;
    size_t n = 0;

    if (!*line) {
        return 0;
    }
    for (; *s; s++) {
        if ((*s == ' ' || *s == '\t') && n + 1 < PBCTL_WORDS) {
            start[n] = cur;
            len[n++] = (size_t)(s - cur);
            cur = s + 1;
        }
    }
    start[n] = cur;
    len[n++] = (size_t)(s - cur);
    return n;
}

static bool word_is(const char *word, size_t len, const char *s)
{
    return strlen(s) == len && memcmp(word, s, len) == 0;
}

bool pbctl_parse(const char *line, PbctlRequest *req, char **reply)
{
    const char *start[PBCTL_WORDS];
    size_t len[PBCTL_WORDS];
    size_t n = split_words(line, start, len);
    bool set = n && word_is(start[0], len[0], "qom-set");
    bool get = n && word_is(start[0], len[0], "qom-get");

    memset(req, 0, sizeof(*req));
    *reply = NULL;
    if (!set && !get) {
        *reply = pbctl_printf("error unknown operation '%.*s'",
                              n ? (int)len[0] : 0, n ? start[0] : "");
        return false;
    }
    if ((set && n != 4) || (get && n != 3)) {
        *reply = pbctl_printf("error usage: qom-set PATH PROPERTY JSON | "
                              "qom-get PATH PROPERTY");
        return false;
    }
    req->op = set ? PBCTL_OP_SET : PBCTL_OP_GET;
    req->path = pbctl_strndup(start[1], len[1]);
    req->property = pbctl_strndup(start[2], len[2]);
    req->value = set ? pbctl_strndup(start[3], len[3]) : NULL;
    return true;
}

bool pbctl_utf8_valid(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    while (*s) {
        unsigned c = *s, need, cp, min;

        if (c < 0x80) {
            s++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            need = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            need = 2, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            need = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        for (unsigned i = 1; i <= need; i++) {
            if ((s[i] & 0xc0) != 0x80) {
                return false; /* also the terminating NUL */
            }
            cp = (cp << 6) | (s[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp & 0xfffff800) == 0xd800) {
            return false;
        }
        s += need + 1;
    }
    return true;
}

static bool ascii_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

bool pbctl_parse_line(const char *line, PbctlRequest *req, char **reply)
{
    size_t n;
    char *text;
    bool ok;

    memset(req, 0, sizeof(*req));
    *reply = NULL;
    if (!line) {
        *reply = pbctl_strndup(PBCTL_REPLY_TOO_LONG,
                               strlen(PBCTL_REPLY_TOO_LONG));
        return false;
    }
    if (!pbctl_utf8_valid(line)) {
        *reply = pbctl_strndup(PBCTL_REPLY_NOT_UTF8,
                               strlen(PBCTL_REPLY_NOT_UTF8));
        return false;
    }
    for (n = strlen(line); n && ascii_space(line[n - 1]); n--) {
        /* as g_strchomp() */
    }
    text = pbctl_strndup(line, n);
    ok = pbctl_parse(text, req, reply);
    free(text);
    return ok;
}

void pbctl_request_clear(PbctlRequest *req)
{
    free(req->path);
    free(req->property);
    free(req->value);
    memset(req, 0, sizeof(*req));
}

char *pbctl_reply_ok(const char *json)
{
    return json ? pbctl_printf("ok %s", json) : pbctl_printf("ok");
}

char *pbctl_reply_error(const char *message)
{
    return pbctl_printf("error %s", message);
}

char *pbctl_reply_bad_value(const char *why)
{
    return pbctl_printf("error qom-set: the value is not JSON: %s", why);
}

void pbctl_lines_init(PbctlLines *lines)
{
    lines->len = 0;
    lines->overlong = false;
    lines->buf[0] = '\0';
}

void pbctl_lines_feed(PbctlLines *lines, const void *data, size_t len,
                      PbctlLineFunc fn, void *opaque)
{
    const char *buf = data;

    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n') {
            lines->buf[lines->len] = '\0';
            fn(lines->overlong ? NULL : lines->buf, opaque);
            pbctl_lines_init(lines);
        } else if (lines->overlong) {
            continue; /* dropped up to the line's end */
        } else if (lines->len < PBCTL_MAX_LINE) {
            lines->buf[lines->len++] = buf[i];
        } else {
            lines->overlong = true;
        }
    }
}
