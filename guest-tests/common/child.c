/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.c - run a program or a function in a watched child (see child.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, sigabbrev_np */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "ktap.h"

/* How often the parent looks for the child's end once it is killed. */
#define REAP_POLL_MS 50
/* How often the size of a log the child writes itself is looked at. */
#define LOG_CHECK_MS 1000

static size_t log_max(const struct child *c)
{
    return c->spec->log_max ? c->spec->log_max : CHILD_LOG_MAX;
}

/* Keep the newest half of log_max of a log of size bytes; the new size. */
static size_t log_keep_tail(struct child *c, size_t size)
{
    static char keep[CHILD_LOG_MAX / 2];
    size_t k = log_max(c) / 2;
    ssize_t got;

    k = k < sizeof(keep) ? k : sizeof(keep);
    k = k < size ? k : size;
    got = pread(c->log_fd, keep, k, (off_t)(size - k));
    k = got > 0 ? (size_t)got : 0;
    if (k && pwrite(c->log_fd, keep, k, 0) != (ssize_t)k) {
        k = 0;
    }
    if (ftruncate(c->log_fd, (off_t)k)) {
        k = size; /* nothing dropped after all */
    }
    c->res.log_dropped += size - k;
    return k;
}

/* Output through the pipe into the log, within log_max. */
static void log_write(struct child *c, const char *buf, size_t n)
{
    size_t max = log_max(c);
    struct child_result *r = &c->res;

    if (c->log_fd < 0) {
        return;
    }
    if (n > max / 2) {
        /* a chunk larger than what is kept: its tail alone */
        r->log_dropped += n - max / 2;
        buf += n - max / 2;
        n = max / 2;
    }
    if (r->log_size + n > max) {
        r->log_size = log_keep_tail(c, r->log_size);
    }
    if (pwrite(c->log_fd, buf, n, (off_t)r->log_size) == (ssize_t)n) {
        r->log_size += n;
    }
}

/*
 * The child writing straight into the log: past log_max, its newest half is
 * kept (the child appends, so it goes on at the new end; what it writes
 * during the cut may be lost).
 */
static void log_check(struct child *c)
{
    struct stat st;

    if (!c->direct || fstat(c->log_fd, &st)) {
        return;
    }
    c->res.log_size = (size_t)st.st_size;
    if (c->res.log_size > log_max(c)) {
        c->res.log_size = log_keep_tail(c, c->res.log_size);
    }
}

/* Hand over the complete lines in c->line; with flush, the rest too. */
static void split_lines(struct child *c, bool flush)
{
    void (*on_line)(const char *, size_t, void *) = c->spec->on_line;
    char *nl;

    while ((nl = memchr(c->line, '\n', c->used)) ||
           c->used == sizeof(c->line) || (flush && c->used)) {
        size_t len = nl ? (size_t)(nl - c->line) : c->used;

        if (on_line) {
            on_line(c->line, len, c->spec->ctx);
        }
        len += nl ? 1 : 0;
        memmove(c->line, c->line + len, c->used - len);
        c->used -= len;
    }
}

/* Everything the output pipe has now; false at its end. */
static bool drain_output(struct child *c)
{
    char buf[16384];

    if (c->out_fd < 0) {
        return false;
    }
    for (;;) {
        ssize_t n = read(c->out_fd, buf, sizeof(buf));

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 && errno == EAGAIN;
        }
        log_write(c, buf, (size_t)n);
        for (ssize_t off = 0; off < n;) {
            size_t k = sizeof(c->line) - c->used;

            if (k > (size_t)(n - off)) {
                k = (size_t)(n - off);
            }
            memcpy(c->line + c->used, buf + off, k);
            c->used += k;
            off += (ssize_t)k;
            split_lines(c, false);
        }
    }
}

/* In the child: output into the pipe, then exec or run fn. */
static void __attribute__((noreturn))
child_main(const struct child_spec *spec, int out)
{
    /* the parent may ignore SIGPIPE; the child's writers should not */
    signal(SIGPIPE, SIG_DFL);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    if (out > STDERR_FILENO) {
        close(out);
    }
    if (spec->argv) {
        execv(spec->argv[0], spec->argv);
        fprintf(stderr, "exec %s: %s\n", spec->argv[0], strerror(errno));
        _exit(127);
    }
    spec->fn(spec->arg);
    _exit(126);
}

int child_start(struct child *c, const struct child_spec *spec)
{
    int p[2] = {-1, -1}, out;

    memset(c, 0, sizeof(*c));
    c->spec = spec;
    c->pid = -1;
    c->out_fd = -1;
    c->log_fd = -1;
    c->res.pid = -1;
    /*
     * Without a line callback the output goes straight into the log: no
     * copy through the parent to slow a chatty child down.
     */
    c->direct = spec->log_path && !spec->on_line;
    if (c->direct) {
        out = open(spec->log_path,
                   O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
        c->log_fd = out < 0 ? -1 : open(spec->log_path, O_RDWR | O_CLOEXEC);
    } else {
        out = pipe2(p, O_CLOEXEC) ? -1 : p[1];
        if (out >= 0 && spec->log_path) {
            c->log_fd = open(spec->log_path,
                             O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        }
    }
    if (out < 0) {
        c->res.err = errno;
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    c->start_ms = now_ms();
    c->last_ms = c->start_ms;
    c->pid = fork();
    if (c->pid == 0) {
        if (p[0] >= 0) {
            close(p[0]);
        }
        if (c->log_fd >= 0) {
            close(c->log_fd); /* a function's child does not exec */
        }
        child_main(spec, out);
    }
    close(out);
    if (c->pid < 0) {
        c->res.err = errno;
        if (p[0] >= 0) {
            close(p[0]);
        }
        if (c->log_fd >= 0) {
            close(c->log_fd);
            c->log_fd = -1;
        }
        return -1;
    }
    c->res.pid = c->pid;
    c->out_fd = p[0];
    if (c->out_fd >= 0) {
        /* the parent reads what there is; the child's end stays blocking */
        fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
    }
    return 0;
}

/* Milliseconds to the nearer deadline (stall: *stall set), or -1. */
static long long time_left(const struct child *c, bool *stall)
{
    const struct child_spec *s = c->spec;
    long long t = now_ms(), left = LLONG_MAX;

    *stall = false;
    if (s->stall_ms) {
        left = c->last_ms + s->stall_ms - t;
        *stall = true;
    }
    if (s->total_ms && c->start_ms + s->total_ms - t < left) {
        left = c->start_ms + s->total_ms - t;
        *stall = false;
    }
    if (left == LLONG_MAX) {
        return -1;
    }
    return left > 0 ? left : 0;
}

/* Reaped within ms (-1: no bound), the output drained meanwhile. */
static bool reap(struct child *c, long long ms)
{
    long long end = now_ms() + ms;

    for (;;) {
        struct pollfd pf = {.fd = c->out_fd, .events = POLLIN};
        pid_t w = waitpid(c->pid, &c->res.status, WNOHANG);

        if (w == c->pid || (w < 0 && errno != EINTR)) {
            return true;
        }
        if (ms >= 0 && now_ms() >= end) {
            return false;
        }
        if (poll(&pf, c->out_fd >= 0 ? 1 : 0, REAP_POLL_MS) > 0 &&
            !drain_output(c)) {
            close(c->out_fd);
            c->out_fd = -1;
        }
    }
}

static void kill_child(struct child *c)
{
    const struct child_spec *s = c->spec;

    c->res.timed_out = true;
    c->res.idle_ms = now_ms() - c->last_ms;
    if (s->quit_ms > 0) {
        kill(c->pid, SIGQUIT);
        if (reap(c, s->quit_ms)) {
            return;
        }
    }
    kill(c->pid, SIGKILL);
    reap(c, -1);
}

void child_watch(struct child *c, struct child_result *res)
{
    const struct child_spec *s = c->spec;
    bool events = s->on_event != NULL, output = c->out_fd >= 0, reaped = false;

    while (c->pid > 0 && (events || (!s->on_event && output))) {
        struct pollfd pf[2] = {
            {.fd = output ? c->out_fd : -1, .events = POLLIN},
            {.fd = events ? s->event_fd : -1, .events = POLLIN},
        };
        bool stall;
        long long left = time_left(c, &stall);
        int n;

        log_check(c);
        if (left == 0) {
            c->res.stalled = stall;
            kill_child(c);
            reaped = true;
            break;
        }
        if (c->direct && (left < 0 || left > LOG_CHECK_MS)) {
            left = LOG_CHECK_MS; /* the log's bound */
        }
        n = poll(pf, 2, left > INT_MAX ? INT_MAX : (int)left);
        if (n < 0 && errno != EINTR) {
            break;
        }
        if (n <= 0) {
            continue; /* EINTR, or the deadline: seen at the top */
        }
        if (s->output_is_progress || pf[1].revents) {
            c->last_ms = now_ms();
        }
        /* output first: it was written before the report that follows */
        if (output && pf[0].revents) {
            output = drain_output(c);
        }
        if (events && pf[1].revents) {
            if (output) {
                output = drain_output(c);
            }
            events = s->on_event(s->event_fd, s->ctx);
        }
    }
    if (c->pid > 0 && !reaped) {
        long long left = -1;

        if (s->total_ms) {
            left = c->start_ms + s->total_ms - now_ms();
            left = left > 0 ? left : 0;
        }
        if (!reap(c, left)) {
            kill_child(c);
        }
    }
    if (c->out_fd >= 0) {
        drain_output(c);
        close(c->out_fd);
        c->out_fd = -1;
    }
    split_lines(c, true);
    log_check(c);
    if (c->log_fd >= 0) {
        close(c->log_fd);
        c->log_fd = -1;
    }
    if (c->pid > 0) {
        c->res.run_ms = now_ms() - c->start_ms;
        if (WIFEXITED(c->res.status)) {
            c->res.exited = true;
            c->res.exit_code = WEXITSTATUS(c->res.status);
        } else if (WIFSIGNALED(c->res.status)) {
            c->res.signal = WTERMSIG(c->res.status);
        }
    }
    *res = c->res;
}

int child_run(const struct child_spec *spec, struct child_result *res)
{
    static struct child c;

    if (child_start(&c, spec)) {
        *res = c.res;
        return -1;
    }
    child_watch(&c, res);
    return 0;
}

bool child_describe(const struct child_result *res, const char *who, char *buf,
                    size_t len)
{
    const char *sig = res->signal ? sigabbrev_np(res->signal) : NULL;

    if (res->pid < 0) {
        snprintf(buf, len, "cannot start %s: %s", who, strerror(res->err));
    } else if (res->timed_out && res->stalled) {
        snprintf(buf, len,
                 "%s hung: no progress for %lld s (%lld s into the run), "
                 "killed",
                 who, res->idle_ms / 1000, res->run_ms / 1000);
    } else if (res->timed_out) {
        snprintf(buf, len, "%s did not finish in %lld s, killed", who,
                 res->run_ms / 1000);
    } else if (res->signal) {
        snprintf(buf, len, "%s died with SIG%s (signal %d)", who,
                 sig ? sig : "?", res->signal);
    } else {
        snprintf(buf, len, "%s exited with status %d", who, res->exit_code);
        return !res->exited || res->exit_code;
    }
    return true;
}

void child_print_log_tail(const char *path, size_t max)
{
    static char buf[65536];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);
    ssize_t n = 0;

    if (max > sizeof(buf) - 1) {
        max = sizeof(buf) - 1;
    }
    if (size > 0) {
        n = pread(fd, buf, max, size > (off_t)max ? size - (off_t)max : 0);
    }
    if (fd >= 0) {
        close(fd);
    }
    buf[n > 0 ? n : 0] = '\0';
    ktap_print_msg("last %zd bytes of %s:", n > 0 ? n : 0, path);
    for (char *save = NULL, *s = strtok_r(buf, "\n", &save); s;
         s = strtok_r(NULL, "\n", &save)) {
        ktap_print_msg("  %s", s);
    }
}

int child_report(int fd, int idx, int kind, const char *fmt, ...)
{
    struct child_report r = {.idx = idx, .kind = kind};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(r.text, sizeof(r.text), fmt, ap);
    va_end(ap);
    /* less than PIPE_BUF: atomic, whichever thread of the child writes */
    return write(fd, &r, sizeof(r)) == sizeof(r) ? 0 : -1;
}

int child_table_read(struct child_table *t, int fd, struct child_report *r)
{
    ssize_t n;

    do {
        n = read(fd, r, sizeof(*r));
    } while (n < 0 && errno == EINTR);
    if (n != sizeof(*r)) {
        return -1; /* the child is gone */
    }
    if (r->kind == CHILD_NOTE) {
        ktap_print_msg("%s", r->text);
    } else if (r->kind == CHILD_START) {
        t->running = r->idx;
    } else if (r->idx == t->next && t->next < t->n) {
        t->failed |= r->kind == KTAP_FAIL;
        return 1;
    }
    return 0;
}
