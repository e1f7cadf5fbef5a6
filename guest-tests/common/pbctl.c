/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pbctl.c - guest side of the patchbay host control channel (see pbctl.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "pbctl.h"

#define PBCTL_PORTS_DIR "/sys/class/virtio-ports"

static struct {
    int fd;
    char dev[300];
    char why[400];             /* why the port is unavailable */
    char last[PBCTL_MAX_LINE]; /* last reply line, or our own error */
} pbctl_state = {.fd = -1};

/* Why pbctl_open() failed, for a SKIP reason. */
const char *pbctl_unavailable_reason(void)
{
    return pbctl_state.why[0] ? pbctl_state.why : "control channel not opened";
}

/* The last reply line (without newline) of the convenience wrappers. */
const char *pbctl_last_reply(void)
{
    return pbctl_state.last;
}

/* 0 when the port is open (idempotent), -1 with pbctl_unavailable_reason(). */
int pbctl_find_port(const char *port, char *dev, size_t len)
{
    struct dirent *de;
    DIR *dir = opendir(PBCTL_PORTS_DIR);
    int found = -1;

    if (!dir) {
        return -1;
    }
    while (found < 0 && (de = readdir(dir))) {
        char path[600], name[128];
        ssize_t n;
        int fd;

        if (de->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof(path), PBCTL_PORTS_DIR "/%s/name", de->d_name);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        n = read(fd, name, sizeof(name) - 1);
        close(fd);
        if (n <= 0) {
            continue;
        }
        name[n] = '\0';
        name[strcspn(name, "\r\n")] = '\0';
        if (strcmp(name, port) == 0) {
            snprintf(dev, len, "/dev/%s", de->d_name);
            found = 0;
        }
    }
    closedir(dir);
    if (found < 0) {
        errno = ENOENT;
    }
    return found;
}

int pbctl_open(void)
{
    if (pbctl_state.fd >= 0) {
        return 0;
    }
    if (pbctl_find_port(PBCTL_PORT_NAME, pbctl_state.dev,
                        sizeof(pbctl_state.dev)) < 0) {
        if (errno == ENOENT) {
            snprintf(pbctl_state.why, sizeof(pbctl_state.why),
                     "host control channel unavailable: no virtio-serial port "
                     "named '%s' in %s",
                     PBCTL_PORT_NAME, PBCTL_PORTS_DIR);
        } else {
            snprintf(pbctl_state.why, sizeof(pbctl_state.why),
                     "host control channel unavailable: %s: %s (no "
                     "virtio-serial port)",
                     PBCTL_PORTS_DIR, strerror(errno));
        }
        return -1;
    }
    pbctl_state.fd =
        open(pbctl_state.dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (pbctl_state.fd < 0) {
        snprintf(pbctl_state.why, sizeof(pbctl_state.why),
                 "host control channel unavailable: open %s: %s",
                 pbctl_state.dev, strerror(errno));
        return -1;
    }
    pbctl_state.why[0] = '\0';
    return 0;
}

void pbctl_close(void)
{
    if (pbctl_state.fd >= 0) {
        close(pbctl_state.fd);
    }
    pbctl_state.fd = -1;
}

/*
 * Is the guest on QEMU's virtual clock (-icount, sleep=off; the runner says
 * so with patchbay.clock=virtual)?  There an idle guest's clock jumps to its
 * next timer at once: a guest that slept in poll() while the host works on
 * its request would see its deadline pass in no host time at all.
 */
static bool pbctl_virtual_clock(void)
{
    static int known = -1;
    char cmdline[4096];

    if (known < 0) {
        known = read_file("/proc/cmdline", cmdline, sizeof(cmdline)) > 0 &&
                strstr(cmdline, "patchbay.clock=virtual") != NULL;
    }
    return known;
}

/*
 * Wait for ev on the port until deadline; 1 ready, 0 timeout, -1 error.
 * On the virtual clock it polls without sleeping: a busy vCPU keeps the
 * clock running at the pace of the instructions it executes, so the host's
 * time to answer costs the guest about as much virtual time as it would
 * real time.
 */
static int pbctl_wait(short ev, long long deadline)
{
    for (;;) {
        struct pollfd p = {.fd = pbctl_state.fd, .events = ev};
        long long left = deadline - now_ms();
        int r;

        if (left <= 0) {
            return 0;
        }
        r = poll(&p, 1, pbctl_virtual_clock() ? 0 : (int)left);
        if (r == 0 && pbctl_virtual_clock()) {
            continue;
        }
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return r;
        }
        return 1;
    }
}

/*
 * Send one request (a printf format, no newline needed) and read the reply
 * line into reply (without its newline).  Returns 0 if the reply is "ok" or
 * "ok <value>", -1 otherwise; reply then holds the host's "error ..." line or
 * a description of the local failure (no port, timeout, host gone).
 */
int pbctl_request(char *reply, size_t len, const char *fmt, ...)
{
    char line[PBCTL_MAX_LINE + 2], in[PBCTL_MAX_LINE + 1];
    long long deadline;
    size_t n, off, got = 0;
    va_list ap;
    int r;

    if (!reply || !len) {
        return -1;
    }
    reply[0] = '\0';
    if (pbctl_open()) {
        snprintf(reply, len, "error %s", pbctl_unavailable_reason());
        return -1;
    }
    va_start(ap, fmt);
    r = vsnprintf(line, PBCTL_MAX_LINE, fmt, ap);
    va_end(ap);
    if (r < 0 || r >= PBCTL_MAX_LINE) {
        snprintf(reply, len, "error request too long");
        return -1;
    }
    n = (size_t)r;
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
        n--;
    }
    if (memchr(line, '\n', n)) {
        snprintf(reply, len, "error request contains a newline");
        return -1;
    }
    line[n++] = '\n';

    /* Drop a late reply to an earlier request that timed out. */
    while (read(pbctl_state.fd, in, sizeof(in)) > 0) {
        /* a stale reply, dropped */
    }

    deadline = now_ms() + PBCTL_TIMEOUT_MS;
    for (off = 0; off < n;) {
        ssize_t w = write(pbctl_state.fd, line + off, n - off);

        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            snprintf(reply, len, "error write %s: %s", pbctl_state.dev,
                     strerror(errno));
            return -1;
        }
        if (pbctl_wait(POLLOUT, deadline) <= 0) {
            snprintf(reply, len,
                     "error timeout (%d ms) writing the request to %s",
                     PBCTL_TIMEOUT_MS, pbctl_state.dev);
            return -1;
        }
    }
    for (;;) {
        ssize_t rd;
        char *nl;

        if (got >= PBCTL_MAX_LINE) {
            snprintf(reply, len, "error reply longer than %d bytes",
                     PBCTL_MAX_LINE);
            return -1;
        }
        rd = read(pbctl_state.fd, in + got, PBCTL_MAX_LINE - got);
        if (rd > 0) {
            got += (size_t)rd;
            in[got] = '\0';
            nl = memchr(in, '\n', got);
            if (!nl) {
                continue;
            }
            *nl = '\0';
            if (nl > in && nl[-1] == '\r') {
                nl[-1] = '\0';
            }
            break;
        }
        if (rd == 0) {
            /* No data and the host side is not connected. */
            if (now_ms() >= deadline) {
                snprintf(reply, len, "error host side of %s not connected",
                         pbctl_state.dev);
                return -1;
            }
            usleep(20000);
            continue;
        }
        if (errno != EAGAIN && errno != EINTR) {
            snprintf(reply, len, "error read %s: %s", pbctl_state.dev,
                     strerror(errno));
            return -1;
        }
        if (pbctl_wait(POLLIN, deadline) <= 0) {
            snprintf(reply, len,
                     "error timeout (%d ms) waiting for the reply on %s",
                     PBCTL_TIMEOUT_MS, pbctl_state.dev);
            return -1;
        }
    }
    str_copy(reply, in, len);
    if (strcmp(in, "ok") == 0 || strncmp(in, "ok ", 3) == 0) {
        return 0;
    }
    return -1;
}

int pbctl_send_garbage(size_t len)
{
    static char flood[4096];
    long long deadline = now_ms() + PBCTL_TIMEOUT_MS;

    if (pbctl_open()) {
        return -1;
    }
    memset(flood, 'x', sizeof(flood));
    while (len) {
        size_t n = len < sizeof(flood) ? len : sizeof(flood);
        ssize_t w = write(pbctl_state.fd, flood, n);

        if (w > 0) {
            len -= (size_t)w;
        } else if ((w < 0 && errno != EAGAIN && errno != EINTR) ||
                   pbctl_wait(POLLOUT, deadline) <= 0) {
            return -1;
        }
    }
    return 0;
}

int pbctl_qom_set_int(const char *path, const char *prop, long long value)
{
    return pbctl_request(pbctl_state.last, sizeof(pbctl_state.last),
                         "qom-set %s %s %lld", path, prop, value);
}

int pbctl_qom_set_bool(const char *path, const char *prop, int value)
{
    return pbctl_request(pbctl_state.last, sizeof(pbctl_state.last),
                         "qom-set %s %s %s", path, prop,
                         value ? "true" : "false");
}

/* A string value without quotes, backslashes or control characters. */
int pbctl_qom_set_str(const char *path, const char *prop, const char *value)
{
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) {
            snprintf(pbctl_state.last, sizeof(pbctl_state.last),
                     "error qom-set %s %s: the string needs JSON escapes",
                     path, prop);
            return -1;
        }
    }
    return pbctl_request(pbctl_state.last, sizeof(pbctl_state.last),
                         "qom-set %s %s \"%s\"", path, prop, value);
}

/* Copies the JSON text of the value (e.g. "21500", "true") into value. */
int pbctl_qom_get(const char *path, const char *prop, char *value, size_t len)
{
    int r = pbctl_request(pbctl_state.last, sizeof(pbctl_state.last),
                          "qom-get %s %s", path, prop);

    if (value && len) {
        str_copy(value,
                 r == 0 && pbctl_state.last[2] == ' ' ? pbctl_state.last + 3
                                                      : "",
                 len);
    }
    return r;
}

/* qom-get of an integer property; -1 if the request or the parse failed. */
int pbctl_qom_get_int(const char *path, const char *prop, long long *value)
{
    char buf[64], *end;

    if (pbctl_qom_get(path, prop, buf, sizeof(buf))) {
        return -1;
    }
    errno = 0;
    *value = strtoll(buf, &end, 10);
    if (errno || end == buf || *end) {
        snprintf(pbctl_state.last, sizeof(pbctl_state.last),
                 "error qom-get %s %s: not an integer: '%s'", path, prop, buf);
        return -1;
    }
    return 0;
}

/* qom-get of a string property without escapes; -1 if not such a string. */
int pbctl_qom_get_str(const char *path, const char *prop, char *value,
                      size_t len)
{
    char buf[PBCTL_MAX_LINE];
    size_t n;

    if (pbctl_qom_get(path, prop, buf, sizeof(buf))) {
        return -1;
    }
    n = strlen(buf);
    if (n < 2 || buf[0] != '"' || buf[n - 1] != '"' ||
        memchr(buf + 1, '\\', n - 2)) {
        snprintf(pbctl_state.last, sizeof(pbctl_state.last),
                 "error qom-get %s %s: not a plain JSON string: '%.200s'", path,
                 prop, buf);
        return -1;
    }
    snprintf(value, len, "%.*s", (int)(n - 2), buf + 1);
    return 0;
}

/* Both parts of a device's fault plan (docs/hostile-hardware.md). */
int pbctl_fault_plan(const char *path, const char *faults, const char *script)
{
    if (pbctl_qom_set_str(path, "faults", faults) ||
        pbctl_qom_set_str(path, "fault-script", script)) {
        return -1;
    }
    return 0;
}
