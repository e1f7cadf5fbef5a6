/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - run a program, or a function, in a child process and watch it
 * (common/child.c). A library whose crash or hang must not take the test
 * program with it (owfs, Mesa) runs in one, and so does a client program
 * whose output a case reads (eglinfo).
 *
 * The child's stdout and stderr go into a log file of bounded size (the
 * newest part is kept): straight, or, with a line callback, through a pipe
 * from which the parent copies it and hands each line to the callback.
 * The child may also report over a second channel of the caller's (a pipe
 * of fixed-size records), which the parent passes to another callback as
 * it arrives. A stall deadline (no progress
 * for so long) and a total deadline bound the run: past either, the child
 * gets SIGQUIT (its crash handler can write a backtrace into the log), and
 * SIGKILL if it is still there after quit_ms.
 *
 *     char *argv[] = { "/usr/bin/eglinfo", NULL };
 *     struct child_spec spec = {
 *         .argv = argv, .on_line = eglinfo_line, .total_ms = 60000,
 *     };
 *     struct child_result res;
 *     char how[200];
 *
 *     child_run(&spec, &res);
 *     if (child_describe(&res, "eglinfo", how, sizeof(how))) {
 *         return kt_fail(why, "%s", how);
 *     }
 *
 * A caller with a report channel starts the child with child_start(),
 * closes its own copies of the child's ends, then calls child_watch().
 */
#ifndef PATCHBAY_CHILD_H
#define PATCHBAY_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ktap.h"

/* The default bound of the log file, and the longest line handed over. */
#define CHILD_LOG_MAX  (1 << 20)
#define CHILD_LINE_MAX 8192

struct child_spec {
    /*
     * What runs: argv (argv[0] a path) is executed, else fn(arg) runs in
     * the forked child and must not return.
     */
    char *const *argv;
    void (*fn)(void *arg);
    void *arg;

    /* Its output, stdout and stderr together. */
    const char *log_path; /* a copy of it, or NULL */
    size_t log_max;       /* bytes the log keeps (0: CHILD_LOG_MAX) */
    /* Each line without its newline; a longer line comes in pieces. */
    void (*on_line)(const char *line, size_t len, void *ctx);

    /*
     * The caller's report channel: on_event() is called when event_fd is
     * readable and returns false at its end (the watch then ends).
     */
    int event_fd;
    bool (*on_event)(int fd, void *ctx);
    void *ctx; /* for on_line and on_event */

    /*
     * Deadlines, 0 for none. Progress is a report; with output_is_progress,
     * output through the pipe too. Without a report channel the watch ends
     * with the output (with the child, when it writes the log itself).
     */
    long stall_ms;
    long total_ms;
    long quit_ms; /* between SIGQUIT and SIGKILL; 0: SIGKILL at once */
    bool output_is_progress;
};

struct child_result {
    pid_t pid;   /* -1: it did not start */
    int err;     /* then the errno of pipe() or fork() */
    int status;  /* waitpid()'s */
    bool exited; /* exit_code is valid */
    int exit_code;
    int signal;         /* the signal that killed it, or 0 */
    bool timed_out;     /* a deadline passed and it was killed */
    bool stalled;       /* the stall deadline it was */
    long long run_ms;   /* from start to its end */
    long long idle_ms;  /* since the last progress, when it was killed */
    size_t log_size;    /* bytes in the log file */
    size_t log_dropped; /* older bytes dropped to keep it under log_max */
};

/* The state of one watched child: the caller's, opaque. */
struct child {
    const struct child_spec *spec;
    pid_t pid;
    int out_fd, log_fd;
    bool direct; /* the child writes the log itself */
    long long start_ms, last_ms;
    size_t used;
    struct child_result res;
    char line[CHILD_LINE_MAX];
};

/* Fork (and exec); stdout is flushed first. 0, or -1 with res->err set. */
int child_start(struct child *c, const struct child_spec *spec);

/* Watch the started child until its end or a deadline; reap it. */
void child_watch(struct child *c, struct child_result *res);

/* child_start() and child_watch(). 0 if it ran, -1 if it did not start. */
int child_run(const struct child_spec *spec, struct child_result *res);

/*
 * How the run ended, into buf: "WHO hung: no progress for 60 s (75 s into
 * the run), killed", "WHO died with SIGSEGV (signal 11)", "WHO exited with
 * status 1", ... Returns false for a clean exit (status 0, in time).
 */
bool child_describe(const struct child_result *res, const char *who, char *buf,
                    size_t len);

/* The last max bytes of a log as "# " diagnostics, one a line. */
void child_print_log_tail(const char *path, size_t max);

/*
 * A case table run in the child, reported over a pipe of the caller's as
 * fixed-size records: a case's start, its result (KTAP_PASS, KTAP_FAIL,
 * KTAP_SKIP, with the reason) and notes. The parent prints the KTAP, so a
 * crash or a hang fails the case that was running, by name.
 */
#define CHILD_REPORT_TEXT 480

enum { CHILD_START = KTAP_SKIP + 1, CHILD_NOTE };

struct child_report {
    int idx;  /* the case */
    int kind; /* KTAP_PASS, KTAP_FAIL, KTAP_SKIP, CHILD_START, CHILD_NOTE */
    char text[CHILD_REPORT_TEXT];
};

/* The child's side: one record, one write(). 0, or -1 on an error. */
KTAP_PRINTF(4, 5)
int child_report(int fd, int idx, int kind, const char *fmt, ...);

/* The parent's view of the table. */
struct child_table {
    int n;       /* cases */
    int next;    /* the next result due */
    int running; /* the case that started last; -1 before the first */
    bool failed; /* a result was KTAP_FAIL */
};

/*
 * The parent's side, from on_event(): read one report into r. A note is
 * printed, a start recorded. Returns 1 for the result of case t->next (the
 * caller prints it and advances t->next), 0 for anything else (a result
 * out of order is dropped), -1 at the end of the channel.
 */
int child_table_read(struct child_table *t, int fd, struct child_report *r);

#endif /* PATCHBAY_CHILD_H */
