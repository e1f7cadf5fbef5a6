/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flagaudit.h - what the flagaudit programs share: one table row per
 * (system call, flags argument), the probe that makes the call with one
 * unknown bit set, and the constants of the 6.12 uapi that the cross
 * toolchain's headers (linux-libc-dev-arm64-cross 6.1.4, glibc 2.36) lack.
 *
 * A probe returns 0 when the call succeeded, FA_KEPT when it succeeded and
 * the bit shows afterwards (F_GETFL, sigaction's old sa_flags), or the
 * errno. The row's went_on errno is the one a call returns when it got
 * past its flags check (execveat on a file that is not executable): that
 * also counts as "ignored".
 */
#ifndef FLAGAUDIT_H
#define FLAGAUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A probe's result besides 0 and an errno. */
#define FA_KEPT (-1)

struct fa_call {
    const char *call;   /* "clock_nanosleep", "mmap(MAP_SHARED)" */
    const char *arg;    /* "flags", "how.resolve" */
    unsigned int width; /* bits of the kernel's type of the argument */
    uint64_t known;     /* the bits the 6.12 uapi defines for this call */
    const char *needs;  /* kernel options, blank-separated, or NULL */
    int (*probe)(uint64_t bit);
    int went_on; /* errno meaning "past the flags check", or 0 */
    bool child;  /* probe in a throwaway child (the bit could act) */
};

/* The rows of each family (fa_proc.c, fa_fs.c, fa_mount.c, fa_net.c). */
extern const struct fa_call fa_proc_calls[];
extern const size_t fa_proc_ncalls;
extern const struct fa_call fa_fs_calls[];
extern const size_t fa_fs_ncalls;
extern const struct fa_call fa_mount_calls[];
extern const size_t fa_mount_ncalls;
extern const struct fa_call fa_net_calls[];
extern const size_t fa_net_ncalls;

/* The scratch directory (flagaudit_main.c's setup) and files in it. */
extern char fa_dir[64];
/* An absolute path under fa_dir into buf (PATH_MAX); returns buf. */
char *fa_path(char *buf, const char *name);
/* A file under fa_dir with a few bytes in it, mode 0644; 0 or -errno. */
int fa_make_file(const char *name);

/* errno of a raw syscall's result: 0 when ret >= 0. */
static inline int fa_err(long ret, int err)
{
    return ret < 0 ? err : 0;
}

/* ---- 6.12 uapi the cross toolchain's headers lack ---- */

/* asm-generic/fcntl.h, arch/arm64/include/uapi/asm/fcntl.h (O_DIRECTORY
 * 040000, O_NOFOLLOW 0100000, O_DIRECT 0200000, O_LARGEFILE 0400000) */
/* Every O_* bit of arm64: O_ACCMODE and bits 6-22 (O_CREAT .. __O_TMPFILE). */
#define FA_O_ALL (003 | 037777700)

/* linux/sched.h */
#define FA_CLONE_NEWTIME       0x00000080ULL
#define FA_CLONE_CLEAR_SIGHAND 0x100000000ULL
#define FA_CLONE_INTO_CGROUP   0x200000000ULL

/* linux/mman.h: MAP_DROPPABLE (6.11), huge page size bits 26-31 */
#define FA_MAP_DROPPABLE 0x08
#define FA_MAP_HUGE_BITS (0x3fULL << 26)
/* MAP_TYPE (0x0f) is a field of four values, MAP_SHARED, MAP_PRIVATE,
 * MAP_SHARED_VALIDATE, MAP_DROPPABLE: bit 2 is in none of them. Then
 * MAP_FIXED, MAP_ANONYMOUS, MAP_GROWSDOWN, MAP_DENYWRITE .. MAP_FIXED_NOREPLACE
 * (0x800-0x100000), MAP_UNINITIALIZED (bit 26, within the huge bits). */
#define FA_MAP_ALL                                                            \
    (0x3 | FA_MAP_DROPPABLE | 0x10 | 0x20 | 0x100 | 0x1ff800ULL | 0x4000000 | \
     FA_MAP_HUGE_BITS)

/* linux/memfd.h: MFD_NOEXEC_SEAL, MFD_EXEC (6.3) */
#define FA_MFD_ALL (0x1fULL | (0x3fULL << 26))

/* linux/pidfd.h: PIDFD_THREAD (6.9), PIDFD_SIGNAL_* (6.9) */
#define FA_PIDFD_THREAD     0200 /* O_EXCL */
#define FA_PIDFD_SIGNAL_ALL 0x7

/* linux/fs.h: RWF_NOAPPEND (6.9), RWF_ATOMIC (6.11) */
#define FA_RWF_ALL 0x7f

/* linux/stat.h: STATX_* up to STATX_WRITE_ATOMIC (6.11) */
#define FA_STATX_ALL 0x1ffffULL

/* linux/fcntl.h: AT_* (AT_HANDLE_MNT_ID_UNIQUE is 6.12) */
#define FA_AT_SYMLINK_NOFOLLOW     0x100
#define FA_AT_EACCESS              0x200
#define FA_AT_REMOVEDIR            0x200
#define FA_AT_HANDLE_FID           0x200
#define FA_AT_SYMLINK_FOLLOW       0x400
#define FA_AT_NO_AUTOMOUNT         0x800
#define FA_AT_EMPTY_PATH           0x1000
#define FA_AT_STATX_SYNC_TYPE      0x6000
#define FA_AT_RECURSIVE            0x8000
#define FA_AT_HANDLE_MNT_ID_UNIQUE 0x001

/* linux/mount.h: MOVE_MOUNT_BENEATH (6.5) */
#define FA_MOVE_MOUNT_MASK 0x377
#define FA_MOUNT_ATTR_ALL  0x003000ffULL

/* linux/socket.h: the MSG_* a program may pass (not the kernel-internal
 * MSG_NO_SHARED_FRAGS, MSG_SENDPAGE_DECRYPTED, MSG_SPLICE_PAGES,
 * MSG_CMSG_COMPAT): bits 0-16, MSG_BATCH, MSG_SOCK_DEVMEM, MSG_ZEROCOPY,
 * MSG_FASTOPEN, MSG_CMSG_CLOEXEC. */
#define FA_MSG_ALL \
    (0x1ffffULL | 0x40000 | 0x2000000 | 0x4000000 | 0x20000000 | 0x40000000)

/* asm-generic/signal-defs.h, arm64 asm/signal.h (SA_RESTORER) */
#define FA_SA_ALL                                                   \
    (0x1ULL | 0x2 | 0x4 | 0x400 | 0x800 | 0x04000000 | 0x08000000 | \
     0x10000000 | 0x40000000 | 0x80000000)

/* System call numbers of asm-generic/unistd.h newer than the headers. */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

#endif /* FLAGAUDIT_H */
