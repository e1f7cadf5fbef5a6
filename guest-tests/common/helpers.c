/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.c - what every guest suite shares (see helpers.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strerrorname_np */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "kconfig.h"

static struct {
    struct kt_case *cases;
    unsigned int n, cap;
} table;

static struct kt_case *vadd(const char *needs, kt_case_fn fn,
                            unsigned long arg, const char *fmt, va_list ap)
{
    struct kt_case *c;

    if (table.n == table.cap) {
        table.cap = table.cap ? 2 * table.cap : 64;
        table.cases = realloc(table.cases, table.cap * sizeof(*table.cases));
        if (!table.cases) {
            ktap_print_msg("out of memory for %u cases", table.cap);
            exit(1);
        }
    }
    c = &table.cases[table.n++];
    vsnprintf(c->name, sizeof(c->name), fmt, ap);
    c->fn = fn;
    c->arg = arg;
    c->needs = needs;
    return c;
}

struct kt_case *kt_add(kt_case_fn fn, unsigned long arg, const char *fmt, ...)
{
    struct kt_case *c;
    va_list ap;

    va_start(ap, fmt);
    c = vadd(NULL, fn, arg, fmt, ap);
    va_end(ap);
    return c;
}

struct kt_case *kt_add_needs(const char *needs, kt_case_fn fn,
                             unsigned long arg, const char *fmt, ...)
{
    struct kt_case *c;
    va_list ap;

    va_start(ap, fmt);
    c = vadd(needs, fn, arg, fmt, ap);
    va_end(ap);
    return c;
}

void kt_add_table(const struct kt_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        kt_add_needs(rows[i].needs, rows[i].fn, rows[i].arg, "%s",
                     rows[i].name);
    }
}

unsigned int kt_count(void)
{
    return table.n;
}

void kt_run_cases(int (*setup)(char *why))
{
    char setup_why[KT_WHY_LEN] = "";
    int setup_failed = 0;

    if (setup && setup(setup_why)) {
        setup_failed = 1;
        kt_why_prefix(setup_why, "setup");
        if (!setup_why[0]) {
            str_copy(setup_why, "setup failed", sizeof(setup_why));
        }
    }
    for (unsigned int i = 0; i < table.n; i++) {
        const struct kt_case *c = &table.cases[i];
        const char *lack = kconfig_lacks(c->needs);
        char why[KT_WHY_LEN] = "";
        int r;

        if (lack) {
            ktap_test_result(KTAP_SKIP, c->name, lack);
            continue;
        }
        if (setup_failed) {
            ktap_test_result(KTAP_FAIL, c->name, setup_why);
            continue;
        }
        r = c->fn(c->arg, why);
        ktap_test_result(r == KTAP_PASS ? KTAP_PASS :
                         r == KTAP_SKIP ? KTAP_SKIP : KTAP_FAIL,
                         c->name, why);
    }
}

int kt_run(int (*setup)(char *why))
{
    ktap_print_header();
    ktap_set_plan(table.n);
    kt_run_cases(setup);
    return ktap_finished();
}

static int vreason(char *why, int r, const char *fmt, va_list ap)
{
    vsnprintf(why, KT_WHY_LEN, fmt, ap);
    return r;
}

int kt_fail(char *why, const char *fmt, ...)
{
    va_list ap;
    int r;

    va_start(ap, fmt);
    r = vreason(why, KTAP_FAIL, fmt, ap);
    va_end(ap);
    return r;
}

int kt_skip(char *why, const char *fmt, ...)
{
    va_list ap;
    int r;

    va_start(ap, fmt);
    r = vreason(why, KTAP_SKIP, fmt, ap);
    va_end(ap);
    return r;
}

int kt_expect_errno(char *why, const char *what, int got, int want)
{
    if (got == want) {
        return KTAP_PASS;
    }
    if (!got) {
        return kt_fail(why, "%s: succeeded, expected %s", what,
                       errno_name(want));
    }
    /* errno_name() has one buffer: print the two names one at a time */
    snprintf(why, KT_WHY_LEN, "%s: got %s, ", what, errno_name(got));
    snprintf(why + strlen(why), KT_WHY_LEN - strlen(why), "expected %s",
             want ? errno_name(want) : "success");
    return KTAP_FAIL;
}

void kt_why_prefix(char *why, const char *pfx)
{
    char tmp[KT_WHY_LEN];

    if (!why[0]) {
        return;
    }
    snprintf(tmp, sizeof(tmp), "%s: %s", pfx, why);
    memcpy(why, tmp, KT_WHY_LEN);
}

const char *errno_name(int err)
{
    static char unknown[16];
    const char *name = err > 0 ? strerrorname_np(err) : NULL;

    if (name) {
        return name;
    }
    /* errno values the kernel uses inside but libc does not name */
    if (err == 525) {
        return "ETOOSMALL";
    }
    snprintf(unknown, sizeof(unknown), "E%d", err);
    return unknown;
}

long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) && errno == EINTR) {
        /* the rest of the time is in ts */
    }
}

void str_copy(char *dst, const char *src, size_t len)
{
    size_t n = strnlen(src, len - 1);

    memcpy(dst, src, n);
    dst[n] = '\0';
}

ssize_t read_file(const char *path, char *buf, size_t len)
{
    ssize_t n, off = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        return -errno;
    }
    while ((size_t)off < len - 1) {
        n = read(fd, buf + off, len - 1 - off);
        if (n < 0) {
            int e = errno;

            if (e == EINTR) {
                continue;
            }
            close(fd);
            buf[off] = '\0';
            return -e;
        }
        if (n == 0) {
            break;
        }
        off += n;
    }
    buf[off] = '\0';
    close(fd);
    return off;
}

ssize_t read_filef(char *buf, size_t len, const char *fmt, ...)
{
    char path[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(path, sizeof(path), fmt, ap);
    va_end(ap);
    return read_file(path, buf, len);
}

int read_long(const char *path, long *val)
{
    char buf[64], *end;
    ssize_t n = read_file(path, buf, sizeof(buf));

    if (n < 0) {
        return (int)n;
    }
    errno = 0;
    *val = strtol(buf, &end, 0);
    if (errno || end == buf || (*end && *end != '\n')) {
        return -EINVAL;
    }
    return 0;
}

int write_str(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    ssize_t n, len = (ssize_t)strlen(s);

    if (fd < 0) {
        return -errno;
    }
    n = write(fd, s, (size_t)len);
    if (n < 0) {
        int e = errno;

        close(fd);
        return -e;
    }
    close(fd);
    return n == len ? 0 : -EIO;
}

bool path_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}
