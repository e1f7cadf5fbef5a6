/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gcovsend: /init's sender of the kernel's gcov counters (patchbay.gcov=1,
 * scripts/patchbay coverage, docs/coverage.md).
 *
 * After the suites, every *.gcda below /sys/kernel/debug/gcov goes to the
 * virtio-serial port "patchbay.gcov" as one stream:
 *
 *   patchbay-gcov 1\n
 *   gcda <path below /sys/kernel/debug/gcov> <size>\n<size bytes>
 *   ...
 *   end <files>\n
 *
 * The host (patchbay-run --gcov) keeps at most a fixed number of bytes and
 * never takes a file name from the stream; patchbay-gcov then keeps only the
 * entries of the objects it knows (runner/patchbay-gcov.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gcovsend.h"
#include "pbctl.h"

#define DEBUGFS        "/sys/kernel/debug"
#define GCOV_ROOT      DEBUGFS "/gcov"
#define PORT_NAME      "patchbay.gcov"
#define GCDA_MAX       (4 << 20) /* bytes of one .gcda we send */
#define GCOV_MAX_DEPTH 24        /* the object tree's absolute path, nested */
#define GCOV_MAX_FILES 4096

struct sender {
    int fd;
    int files;
    long long bytes;
    int failed; /* the port broke: send nothing more */
    int err;    /* its errno */
    char *buf;  /* GCDA_MAX bytes */
};

static void send_bytes(struct sender *s, const char *p, size_t len)
{
    while (!s->failed && len) {
        ssize_t n = write(s->fd, p, len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            s->failed = 1;
            s->err = n < 0 ? errno : EIO;
            return;
        }
        p += n;
        len -= n;
    }
}

/* A whole debugfs file into s->buf (its st_size says 0); -1 if unreadable
 * or over GCDA_MAX. */
static ssize_t read_gcda(struct sender *s, const char *path)
{
    ssize_t used = 0, n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        return -1;
    }
    while ((n = read(fd, s->buf + used, GCDA_MAX - used)) > 0) {
        used += n;
        if (used == GCDA_MAX) {
            used = -1; /* too big: a counter file is a few kB */
            break;
        }
    }
    if (n < 0) {
        used = -1;
    }
    close(fd);
    return used;
}

static void send_dir(struct sender *s, const char *dir, const char *rel,
                     int depth)
{
    struct dirent *de;
    DIR *d;

    if (depth > GCOV_MAX_DEPTH || !(d = opendir(dir))) {
        return;
    }
    while (!s->failed && s->files < GCOV_MAX_FILES && (de = readdir(d))) {
        char path[1024], sub[1024], head[1100];
        size_t nlen = strlen(de->d_name);
        struct stat st;
        ssize_t size;
        int n;

        /* names go into a space-separated line: keep them plain (the
         * build host's path may have dot folders: ~/.cache) */
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            strpbrk(de->d_name, " \n\r\t") ||
            snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
                (int)sizeof(path) ||
            snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
                     de->d_name) >= (int)sizeof(sub) ||
            lstat(path, &st) < 0) {
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            send_dir(s, path, sub, depth + 1);
            continue;
        }
        /* the .gcno links point at the build host's files: not ours */
        if (!S_ISREG(st.st_mode) || nlen < 5 ||
            strcmp(de->d_name + nlen - 5, ".gcda") != 0) {
            continue;
        }
        size = read_gcda(s, path);
        if (size < 0) {
            continue;
        }
        n = snprintf(head, sizeof(head), "gcda %s %zd\n", sub, size);
        send_bytes(s, head, n);
        send_bytes(s, s->buf, size);
        s->files++;
        s->bytes += size;
    }
    closedir(d);
}

int gcov_send(char *diag, size_t len)
{
    struct sender s = {.fd = -1};
    struct pollfd p;
    char dev[300], tail[64];
    int n;

    /* /init mounts no debugfs of its own; tests may have */
    mkdir(DEBUGFS, 0755);
    if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) < 0 && errno != EBUSY) {
        snprintf(diag, len, "mount debugfs: %s", strerror(errno));
        return -1;
    }
    if (access(GCOV_ROOT, F_OK) < 0) {
        snprintf(diag, len, "no %s (a kernel without CONFIG_GCOV_KERNEL)",
                 GCOV_ROOT);
        return -1;
    }
    if (pbctl_find_port(PORT_NAME, dev, sizeof(dev)) < 0) {
        snprintf(diag, len, "no virtio-serial port named %s", PORT_NAME);
        return -1;
    }
    s.fd = open(dev, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (s.fd < 0) {
        snprintf(diag, len, "open %s: %s", dev, strerror(errno));
        return -1;
    }
    /*
     * A port whose host end is not connected blocks every write for good:
     * send only to a host that listens (it stays until the VM ends). A
     * poll without a timeout: on the virtual clock any wait would be none.
     */
    p = (struct pollfd){.fd = s.fd, .events = POLLOUT};
    if (poll(&p, 1, 0) < 0 || (p.revents & (POLLHUP | POLLERR))) {
        snprintf(diag, len, "nobody on the host reads %s", PORT_NAME);
        close(s.fd);
        return -1;
    }
    s.buf = malloc(GCDA_MAX);
    if (!s.buf) {
        snprintf(diag, len, "out of memory");
        close(s.fd);
        return -1;
    }
    send_bytes(&s, "patchbay-gcov 1\n", 16);
    send_dir(&s, GCOV_ROOT, "", 0);
    n = snprintf(tail, sizeof(tail), "end %d\n", s.files);
    send_bytes(&s, tail, n);
    free(s.buf);
    close(s.fd);
    if (s.failed) {
        snprintf(diag, len, "writing to %s failed after %d files: %s", dev,
                 s.files, strerror(s.err));
        return -1;
    }
    snprintf(diag, len, "sent %d .gcda files, %lld bytes, to %s", s.files,
             s.bytes, PORT_NAME);
    return 0;
}
