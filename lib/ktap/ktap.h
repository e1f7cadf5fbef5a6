/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktap.h - streaming KTAP v1 / TAP 13 parser for the guest serial console.
 *
 * The console mixes kernel printk lines ("[    1.234567] ...") with KTAP
 * printed by the guest's /init.  Lines are fed one at a time as they arrive;
 * the parser keeps a live test tree so a crash can be attributed to the test
 * that was running, and the tree stays usable if the stream just stops.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
    /*
     * not finished (still running, or the stream ended before its result line)
     */
    KTAP_RESULT_NONE,
    KTAP_RESULT_PASS,
    KTAP_RESULT_FAIL,
    KTAP_RESULT_SKIP, /* "# SKIP" and "# TODO" (xfail-like) */
    /* not in a run at all: only when comparing runs, never in a tree */
    KTAP_RESULT_MISSING,
} KtapResult;

typedef struct KtapTest KtapTest;
struct KtapTest {
    /*
     * from the result line, or "# Subtest:" before it arrives; "#N" while
     * unknown; never NULL; root: ""
     */
    char *name;
    int number; /* 1-based position in its parent (root: 0) */
    KtapResult result;
    /*
     * text after "# SKIP"/"# TODO" or after '#' on a failing line; may be NULL
     */
    char *reason;
    int plan; /* -1 if no plan seen */
    /*
     * KtapTest *, in order of appearance; "(missing)" entries are appended by
     * finish
     */
    GPtrArray *subtests;
    /*
     * diagnostic lines ("# ...", indentation stripped, '\n'-terminated) seen
     * while this test was the innermost open test
     */
    GString *log;
    KtapTest *parent;
    /*
     * timestamps passed to ktap_parser_feed: test start (see ktap.c), result
     * line; end_us is 0 until the result line (finish sets it for unfinished
     * tests)
     */
    gint64 start_us, end_us;
};

typedef struct KtapParser KtapParser;

KtapParser *ktap_parser_new(void);
void ktap_parser_free(KtapParser *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KtapParser, ktap_parser_free)

/*
 * one console line, without the trailing newline (a trailing "\r" is
 * tolerated); now_us = caller's monotonic clock
 */
void ktap_parser_feed(KtapParser *p, const char *line, gint64 now_us);

/* the synthetic root; its subtests are the top-level tests (the suites) */
KtapTest *ktap_parser_root(KtapParser *p);

/*
 * "openat2/flags/#3": slash-joined names of the open tests from the top level
 * down to the test that is running now; the innermost open level is named "#N"
 * (N = results seen at that level + 1) when its name is not known yet (no "#
 * Subtest:" line for it). NULL before any KTAP, and again once the top-level
 * plan is complete. g_free the result.
 */
char *ktap_parser_running(KtapParser *p);

/*
 * A path from ktap_parser_running() whose innermost level was "#N" when it was
 * taken, with that level's name as the tree now knows it ("msm/msm_ioctl/#317"
 * -> "msm/msm_ioctl/SUBMIT nr_bos ..."); a copy of path when there is nothing
 * to resolve or the test never got a name. g_free the result.
 */
char *ktap_resolve_path(const KtapTest *root, const char *path);

/*
 * Tests by path in O(path) rather than by scanning siblings, for looking up
 * many paths in one tree (ktappath.c); the tree must not change while the
 * index lives.
 */
typedef struct KtapIndex KtapIndex;
KtapIndex *ktap_index_new(const KtapTest *root);
void ktap_index_free(KtapIndex *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KtapIndex, ktap_index_free)
/*
 * The child of parent named by the start of path: the longest name that ends
 * at a '/' or at the end (names may hold '/'), else "#N" for test number N
 * (the latest, should numbers repeat); *rest (if rest) is what follows it and
 * its '/'.  NULL if there is none.
 */
const KtapTest *ktap_index_child(const KtapIndex *index, const KtapTest *parent,
                                 const char *path, const char **rest);
/* the test at path below root ("" is root), or NULL */
const KtapTest *ktap_index_find(const KtapIndex *index, const KtapTest *root,
                                const char *path);
/* ktap_resolve_path() through an index */
char *ktap_index_resolve_path(const KtapIndex *index, const KtapTest *root,
                              const char *path);

/*
 * Where the guest programs are, as they say it in the kernel log: /init writes
 * "patchbay-ktap: SUITE/PROGRAM 0" to /dev/kmsg before it starts a program and
 * "... end" after it, and guest-tests/common/ktap.h "... N" after the program's
 * N-th result. Kernel log lines are ordered with the kernel's own reports; the
 * KTAP lines on the console reach it through /init's pipe and can lag some
 * tests behind.
 */
typedef struct {
    char *program; /* "msm/msm_ioctl", or NULL outside any program */
    int done;      /* results the program has reported */
} KtapMarks;

/* feed every console line; lines that are not a mark change nothing */
void ktap_marks_feed(KtapMarks *m, const char *line);
/*
 * the path of the running test to pin a crash on: "PROGRAM/#N" once the program
 * has marked a result, else parser_running (which may be NULL); g_free the
 * result
 */
char *ktap_marks_running(const KtapMarks *m, const char *parser_running);
void ktap_marks_clear(KtapMarks *m);

/* TRUE once any KTAP line (version header or plan) has been seen */
gboolean ktap_parser_started(KtapParser *p);

/*
 * NULL, or why the parser stopped believing the console: "guest output
 * exceeded KTAP_LIMIT_TESTS (20000 tests)" (ktaplimits.h: tests, depth, path
 * length).  Lines fed afterwards are ignored; the tree keeps what came
 * before.  finish() may set it too (a plan that would add too many missing
 * tests adds none).
 */
const char *ktap_parser_limit(KtapParser *p);

/*
 * end of stream: tests without a result line stay KTAP_RESULT_NONE; tests
 * promised by a plan but never seen are added as KTAP_RESULT_NONE entries named
 * "#N (missing)" so they count, within KTAP_LIMIT_TESTS. Lines fed afterwards
 * are ignored.
 */
void ktap_parser_finish(KtapParser *p, gint64 now_us);

/*
 * counts over leaf tests below t (a test with no subtests is a leaf; t itself
 * if it is a leaf). incomplete = leaves with KTAP_RESULT_NONE.  Any out pointer
 * may be NULL.
 */
void ktap_test_count(const KtapTest *t, guint *passed, guint *failed,
                     guint *skipped, guint *incomplete);

/* "pass","fail","skip","none","missing" */
const char *ktap_result_name(KtapResult r);
/* the result ktap_result_name() calls name; FALSE if name is none of them */
gboolean ktap_result_from_name(const char *name, KtapResult *r);

/* Console helpers, shared with the crash scanner. */

/*
 * If s starts with a printk time prefix ("[    1.234567] ", optionally followed
 * by a CONFIG_PRINTK_CALLER "[  T123]"), return the message text after it, else
 * NULL.
 */
const char *ktap_printk_body(const char *s);

/*
 * The first printk time prefix anywhere in line, or NULL.  On a serial console
 * a kernel message can start in the middle of a user-space line that had no
 * newline yet.
 */
const char *ktap_find_printk_prefix(const char *line);

/* When user space wrote to the console while the kernel was printing a time
 * prefix, the prefix is split: line starts with its first half ("[    0.70688",
 * no "]": ktap_skip_printk_head() returns what follows it, else line), or a
 * later line starts with its second half ("7] Kernel panic ...", or
 * "    1.050870] Kernel panic ..." when it was split right after "["):
 * ktap_printk_tail_body() returns the message, else NULL). */
const char *ktap_skip_printk_head(const char *line);
const char *ktap_printk_tail_body(const char *line);

G_END_DECLS
