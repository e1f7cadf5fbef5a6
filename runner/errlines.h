/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errlines: which lines of a kernel C source handle an error, from its text
 * alone (patchbay-gcov's error-paths.tsv, docs/coverage.md, "Error-handling
 * lines"). A small lexer and statement walker, not a C parser: the rules
 * are mechanical so that a reader can check any line by hand.
 */
#pragma once

#include <glib.h>

/* Why a line is error handling (bits; 0: it is not). */
enum {
    ERRLINE_BRANCH = 1 << 0,    /* in the body of an if that tests for an
                                 * error (or the else of a success test, or
                                 * an if whose body reports or propagates) */
    ERRLINE_REPORT = 1 << 1,    /* dev_err, pr_warn, WARN, a failure dbg */
    ERRLINE_PROPAGATE = 1 << 2, /* return -E..., goto err_x, err = -E... */
    ERRLINE_LABEL = 1 << 3,     /* after an error label (err_*, fail_*) */
    ERRLINE_ALLOC = 1 << 4,     /* in the body of a failed-allocation test */
};

typedef struct {
    guint n_lines;         /* lines are 1 .. n_lines */
    guint8 *why;           /* [n_lines + 1]: ERRLINE_* bits */
    const char **function; /* [n_lines + 1]: interned name, or NULL */
} ErrLines;

ErrLines *errlines_classify(const char *text);
void errlines_free(ErrLines *e);
/* "branch+report", ... for a why; a static string per combination is not
 * worth it: the caller owns the result. */
char *errlines_describe(guint8 why);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ErrLines, errlines_free)
