/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_child.c - the Mesa child's side of mesa_egl: it runs the cases and
 * reports each over a pipe, and the parent (mesa_main.c) prints the KTAP.
 *
 * The child's stdout and stderr go to the parent too: after a case's
 * result the child waits until the parent has printed it, so that Mesa's
 * messages come out each case's before its result.  A crash is caught to
 * print a backtrace (so is the parent's SIGQUIT for a hang), then the
 * signal kills the child.
 */
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mesa.h"
#include "mesa_trace.h"

static int report_fd = -1;
static int ack_fd = -1; /* the parent has printed a case's result */

static void report(int idx, int kind, const char *text)
{
    /* Mesa's messages before the report that follows them */
    fflush(stdout);
    fflush(stderr);
    /* one record, one write: from any of Mesa's threads */
    if (child_report(report_fd, idx, kind, "%s", text)) {
        _exit(3);
    }
    /*
     * After a case's result Mesa waits until the parent has printed it,
     * so that the next case's messages come after it on the console.
     */
    if (kind != CHILD_START && kind != CHILD_NOTE) {
        char c;

        while (read(ack_fd, &c, 1) < 0 && errno == EINTR) {
            /* interrupted: wait again */
        }
    }
}

void diag(const char *fmt, ...)
{
    char text[WHY_LEN];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    report(-1, CHILD_NOTE, text);
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
    void *frames[64];
    char line[200];
    int n;

    (void)uc;
    n = snprintf(line, sizeof(line),
                 "mesa_egl: caught SIG%s (si_code %d, address %p) in thread "
                 "%ld; backtrace:\n",
                 sigabbrev_np(sig), si->si_code, si->si_addr,
                 (long)syscall(SYS_gettid));
    if (write(2, line, n) < 0) {
        _exit(4);
    }
    n = backtrace(frames, ARRAY_SIZE(frames));
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

void mesa_child(int fd, int ack)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT,
                               SIGILL,  SIGFPE, SIGQUIT};
    struct sigaction sa = {.sa_sigaction = crash_handler,
                           .sa_flags = SA_SIGINFO};
    char why[WHY_LEN];
    void *warm[2];

    report_fd = fd;
    ack_fd = ack;
    backtrace(warm, 2); /* loads libgcc_s now, not in the handler */
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
    trace_start();
    for (size_t i = 0; i < mesa_ncases; i++) {
        int r;

        report((int)i, CHILD_START, "");
        why[0] = '\0';
        r = mesa_cases[i].fn(why);
        report((int)i, r, why);
    }
    trace_stop();
    _exit(0);
}
