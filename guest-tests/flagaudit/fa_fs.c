/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_fs.c - flagaudit's files: open and its flags, the *at calls and
 * their AT_* flags, pipes and splice, vectored and copied I/O.
 *
 * Every probe works on the scratch files of the setup (fa_dir: "file",
 * "file2", directories "mnt" and "mnt2"); a bit the call accepts changes
 * nothing there that a later case depends on.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "flagaudit.h"
#include "helpers.h"

/* linux/openat2.h */
struct fa_open_how {
    uint64_t flags, mode, resolve;
};

#define RESOLVE_ALL 0x3fULL /* RESOLVE_NO_XDEV .. RESOLVE_CACHED */

static int open_file(int flags)
{
    char path[PATH_MAX];

    return open(fa_path(path, "file"), flags);
}

/* An fd that succeeded: kept when F_GETFL shows the bit. */
static int fd_kept(long fd, int err, uint64_t bit)
{
    int fl;

    if (fd < 0) {
        return err;
    }
    fl = fcntl((int)fd, F_GETFL);
    close((int)fd);
    return fl >= 0 && ((uint64_t)(unsigned int)fl & bit) ? FA_KEPT : 0;
}

static int fd_result(long fd, int err)
{
    if (fd < 0) {
        return err;
    }
    close((int)fd);
    return 0;
}

static int p_openat(uint64_t bit)
{
    char path[PATH_MAX];
    long fd = syscall(SYS_openat, AT_FDCWD, fa_path(path, "file"),
                      (int)(O_RDONLY | bit), 0);

    return fd_kept(fd, errno, bit);
}

static int openat2_how(struct fa_open_how *how)
{
    char path[PATH_MAX];

    return fd_result(syscall(SYS_openat2, AT_FDCWD, fa_path(path, "file"), how,
                             sizeof(*how)),
                     errno);
}

static int p_openat2_flags(uint64_t bit)
{
    struct fa_open_how how = {.flags = O_RDONLY | bit};

    return openat2_how(&how);
}

static int p_openat2_resolve(uint64_t bit)
{
    struct fa_open_how how = {.flags = O_RDONLY, .resolve = bit};

    return openat2_how(&how);
}

static int p_fcntl_setfl(uint64_t bit)
{
    int fd = open_file(O_RDONLY), err, fl;

    if (fd < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_fcntl, fd, F_SETFL, (unsigned long)bit), errno);
    fl = fcntl(fd, F_GETFL);
    close(fd);
    if (err) {
        return err;
    }
    return fl >= 0 && ((uint64_t)(unsigned int)fl & bit) ? FA_KEPT : 0;
}

static int p_renameat2(uint64_t bit)
{
    char from[PATH_MAX], to[PATH_MAX];
    int err;

    fa_make_file("rename-from");
    fa_path(from, "rename-from");
    fa_path(to, "rename-to");
    err = fa_err(
        syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, (unsigned int)bit),
        errno);
    unlink(from);
    unlink(to);
    return err;
}

static int p_faccessat2(uint64_t bit)
{
    char path[PATH_MAX];

    return fa_err(syscall(SYS_faccessat2, AT_FDCWD, fa_path(path, "file"), R_OK,
                          (int)bit),
                  errno);
}

static int p_statx_flags(uint64_t bit)
{
    char path[PATH_MAX], buf[256];

    return fa_err(syscall(SYS_statx, AT_FDCWD, fa_path(path, "file"), (int)bit,
                          0x7ffU, buf),
                  errno);
}

static int p_statx_mask(uint64_t bit)
{
    char path[PATH_MAX], buf[256];

    return fa_err(syscall(SYS_statx, AT_FDCWD, fa_path(path, "file"), 0,
                          (unsigned int)bit, buf),
                  errno);
}

static int p_newfstatat(uint64_t bit)
{
    char path[PATH_MAX];
    struct stat st;

    return fa_err(
        syscall(SYS_newfstatat, AT_FDCWD, fa_path(path, "file"), &st, (int)bit),
        errno);
}

static int p_close_range(uint64_t bit)
{
    int fd = open_file(O_RDONLY), high, err;

    if (fd < 0) {
        return errno;
    }
    high = dup2(fd, 900);
    close(fd);
    if (high < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_close_range, 900, 900, (unsigned int)bit), errno);
    close(900);
    return err;
}

static int p_pipe2(uint64_t bit)
{
    int p[2];

    if (syscall(SYS_pipe2, p, (int)bit) < 0) {
        return errno;
    }
    close(p[0]);
    close(p[1]);
    return 0;
}

static int p_dup3(uint64_t bit)
{
    int fd = open_file(O_RDONLY), err;

    if (fd < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_dup3, fd, 901, (int)bit), errno);
    close(901);
    close(fd);
    return err;
}

/* Two pipes, a byte in the first. */
static int two_pipes(int a[2], int b[2])
{
    if (pipe(a) < 0) {
        return errno;
    }
    if (pipe(b) < 0 || write(a[1], "x", 1) != 1) {
        int err = errno;

        close(a[0]);
        close(a[1]);
        return err;
    }
    return 0;
}

static void close_pipes(int a[2], int b[2])
{
    close(a[0]);
    close(a[1]);
    close(b[0]);
    close(b[1]);
}

static int p_splice(uint64_t bit)
{
    int a[2], b[2], err = two_pipes(a, b);

    if (err) {
        return err;
    }
    err = fa_err(
        syscall(SYS_splice, a[0], NULL, b[1], NULL, 1, (unsigned int)bit),
        errno);
    close_pipes(a, b);
    return err;
}

static int p_tee(uint64_t bit)
{
    int a[2], b[2], err = two_pipes(a, b);

    if (err) {
        return err;
    }
    err = fa_err(syscall(SYS_tee, a[0], b[1], 1, (unsigned int)bit), errno);
    close_pipes(a, b);
    return err;
}

static int p_vmsplice(uint64_t bit)
{
    struct iovec iov = {"x", 1};
    int p[2], err;

    if (pipe(p) < 0) {
        return errno;
    }
    err =
        fa_err(syscall(SYS_vmsplice, p[1], &iov, 1, (unsigned int)bit), errno);
    close(p[0]);
    close(p[1]);
    return err;
}

static int rw2(long nr, int flags, uint64_t bit)
{
    char buf[1] = {'x'};
    struct iovec iov = {buf, 1};
    int fd = open_file(flags), err;

    if (fd < 0) {
        return errno;
    }
    /* arm64 passes the offset in one register; pos_h is ignored */
    err = fa_err(syscall(nr, fd, &iov, 1, 0, 0, (int)bit), errno);
    close(fd);
    return err;
}

static int p_preadv2(uint64_t bit)
{
    return rw2(SYS_preadv2, O_RDONLY, bit);
}

static int p_pwritev2(uint64_t bit)
{
    return rw2(SYS_pwritev2, O_WRONLY, bit);
}

static int p_copy_file_range(uint64_t bit)
{
    char path[PATH_MAX];
    int in = open_file(O_RDONLY), out, err;

    out = open(fa_path(path, "file2"), O_WRONLY);
    if (in < 0 || out < 0) {
        err = errno;
    } else {
        err = fa_err(syscall(SYS_copy_file_range, in, NULL, out, NULL, 1,
                             (unsigned int)bit),
                     errno);
    }
    close(in);
    close(out);
    return err;
}

static int p_linkat(uint64_t bit)
{
    char from[PATH_MAX], to[PATH_MAX];
    int err;

    fa_path(from, "file");
    fa_path(to, "link");
    err = fa_err(syscall(SYS_linkat, AT_FDCWD, from, AT_FDCWD, to, (int)bit),
                 errno);
    unlink(to);
    return err;
}

static int p_unlinkat(uint64_t bit)
{
    char path[PATH_MAX];

    fa_make_file("unlink-me");
    return fa_err(
        syscall(SYS_unlinkat, AT_FDCWD, fa_path(path, "unlink-me"), (int)bit),
        errno);
}

static int p_utimensat(uint64_t bit)
{
    char path[PATH_MAX];

    return fa_err(
        syscall(SYS_utimensat, AT_FDCWD, fa_path(path, "file"), NULL, (int)bit),
        errno);
}

static int p_fchmodat2(uint64_t bit)
{
    char path[PATH_MAX];

    return fa_err(syscall(__NR_fchmodat2, AT_FDCWD, fa_path(path, "file"), 0644,
                          (unsigned int)bit),
                  errno);
}

static int p_fchownat(uint64_t bit)
{
    char path[PATH_MAX];

    return fa_err(
        syscall(SYS_fchownat, AT_FDCWD, fa_path(path, "file"), 0, 0, (int)bit),
        errno);
}

static int p_name_to_handle_at(uint64_t bit)
{
    char path[PATH_MAX];
    struct {
        unsigned int bytes;
        int type;
        unsigned char data[128];
    } fh = {.bytes = 128};
    int mnt;

    return fa_err(syscall(SYS_name_to_handle_at, AT_FDCWD,
                          fa_path(path, "file"), &fh, &mnt, (int)bit),
                  errno);
}

static int p_sync_file_range(uint64_t bit)
{
    int fd = open_file(O_WRONLY), err;

    if (fd < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_sync_file_range, fd, 0, 0, (unsigned int)bit),
                 errno);
    close(fd);
    return err;
}

static int p_cachestat(uint64_t bit)
{
    uint64_t range[2] = {0, 0}, cstat[5];
    int fd = open_file(O_RDONLY), err;

    if (fd < 0) {
        return errno;
    }
    err = fa_err(syscall(__NR_cachestat, fd, range, cstat, (unsigned int)bit),
                 errno);
    close(fd);
    return err;
}

#define AT_NOFOLLOW_EMPTY (FA_AT_SYMLINK_NOFOLLOW | FA_AT_EMPTY_PATH)

const struct fa_call fa_fs_calls[] = {
    /* arm64 has no open(2): openat is what open() calls */
    {"openat", "flags", 32, FA_O_ALL, NULL, p_openat, 0, false},
    {"openat2", "how.flags", 64, FA_O_ALL, NULL, p_openat2_flags, 0, false},
    {"openat2", "how.resolve", 64, RESOLVE_ALL, NULL, p_openat2_resolve, 0,
     false},
    {"fcntl(F_SETFL)", "arg", 32, FA_O_ALL, NULL, p_fcntl_setfl, 0, false},
    {"renameat2", "flags", 32, 0x7, NULL, p_renameat2, 0, false},
    {"faccessat2", "flags", 32, FA_AT_EACCESS | AT_NOFOLLOW_EMPTY, NULL,
     p_faccessat2, 0, false},
    {"statx", "flags", 32,
     AT_NOFOLLOW_EMPTY | FA_AT_NO_AUTOMOUNT | FA_AT_STATX_SYNC_TYPE, NULL,
     p_statx_flags, 0, false},
    {"statx", "mask", 32, FA_STATX_ALL, NULL, p_statx_mask, 0, false},
    {"newfstatat", "flags", 32, AT_NOFOLLOW_EMPTY | FA_AT_NO_AUTOMOUNT, NULL,
     p_newfstatat, 0, false},
    {"close_range", "flags", 32, 0x6, NULL, p_close_range, 0, false},
    /* O_NOTIFICATION_PIPE is O_EXCL */
    {"pipe2", "flags", 32, O_CLOEXEC | O_NONBLOCK | O_DIRECT | O_EXCL, NULL,
     p_pipe2, 0, false},
    {"dup3", "flags", 32, O_CLOEXEC, NULL, p_dup3, 0, false},
    /* SPLICE_F_MOVE, _NONBLOCK, _MORE, _GIFT */
    {"splice", "flags", 32, 0xf, NULL, p_splice, 0, false},
    {"tee", "flags", 32, 0xf, NULL, p_tee, 0, false},
    {"vmsplice", "flags", 32, 0xf, NULL, p_vmsplice, 0, false},
    {"preadv2", "flags", 32, FA_RWF_ALL, NULL, p_preadv2, 0, false},
    {"pwritev2", "flags", 32, FA_RWF_ALL, NULL, p_pwritev2, 0, false},
    {"copy_file_range", "flags", 32, 0, NULL, p_copy_file_range, 0, false},
    {"linkat", "flags", 32, FA_AT_SYMLINK_FOLLOW | FA_AT_EMPTY_PATH, NULL,
     p_linkat, 0, false},
    {"unlinkat", "flags", 32, FA_AT_REMOVEDIR, NULL, p_unlinkat, 0, false},
    {"utimensat", "flags", 32, AT_NOFOLLOW_EMPTY, NULL, p_utimensat, 0, false},
    {"fchmodat2", "flags", 32, AT_NOFOLLOW_EMPTY, NULL, p_fchmodat2, 0, false},
    {"fchownat", "flags", 32, AT_NOFOLLOW_EMPTY, NULL, p_fchownat, 0, false},
    {"name_to_handle_at", "flags", 32,
     FA_AT_SYMLINK_FOLLOW | FA_AT_EMPTY_PATH | FA_AT_HANDLE_FID |
         FA_AT_HANDLE_MNT_ID_UNIQUE,
     "CONFIG_FHANDLE", p_name_to_handle_at, 0, false},
    /* SYNC_FILE_RANGE_WAIT_BEFORE, _WRITE, _WAIT_AFTER */
    {"sync_file_range", "flags", 32, 0x7, NULL, p_sync_file_range, 0, false},
    {"cachestat", "flags", 32, 0, "CONFIG_CACHESTAT_SYSCALL", p_cachestat, 0,
     false},
};
const size_t fa_fs_ncalls = ARRAY_SIZE(fa_fs_calls);
