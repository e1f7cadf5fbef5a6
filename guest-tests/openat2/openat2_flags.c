/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openat2_flags - argument validation of openat2(2), as of Linux 6.12.
 *
 * openat2(2) exists because openat(2) silently ignores unknown flags (commit
 * fddb5d430ad9 "open: introduce openat2(2) syscall").  So every bit of
 * how.flags and how.resolve outside the kernel's valid set, every forbidden
 * flag combination, every bad mode and every bad struct size must fail with
 * one exact errno.  Each valid bit is checked on its own too, so that a
 * kernel rejecting everything cannot pass.
 *
 * The expectations follow Linux 6.12: sys_openat2() and build_open_flags()
 * in fs/open.c, VALID_OPEN_FLAGS and VALID_RESOLVE_FLAGS in
 * include/linux/fcntl.h.
 *
 * All cases run against a fresh directory under /tmp (tmpfs in the guest;
 * openat2_dir.c makes it); run as root (O_NOATIME needs to own the file or
 * CAP_FOWNER, and a tmpfs is mounted read-only in it). Each case is a row of cases[] (the call's input
 * and the expected errno), run by the case runner of common/helpers.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "helpers.h"
#include "ktap.h"
#include "openat2_dir.h"

/* include/linux/fcntl.h; not exported to userspace. */
#define OPEN_HOW_SIZE_VER0 24

/*
 * Kernel O_* values that glibc does not give us: on LP64 glibc defines
 * O_LARGEFILE as 0, and its __O_TMPFILE already includes O_DIRECTORY.
 */
#if defined(__aarch64__)
#define KERNEL_O_LARGEFILE 0400000
#elif defined(__x86_64__)
#define KERNEL_O_LARGEFILE 0100000
#else
#error "define this architecture's kernel O_LARGEFILE"
#endif
#define KERNEL___O_SYNC    04000000  /* O_SYNC without O_DSYNC */
#define KERNEL___O_TMPFILE 020000000 /* O_TMPFILE without O_DIRECTORY */

/*
 * build_open_flags() strips __FMODE_NONOTIFY from how.flags *before* the
 * VALID_OPEN_FLAGS check, so that one unknown bit is dropped rather than
 * rejected. Which bit it is depends on the version: FMODE_NONOTIFY is bit
 * 26 up to the fsnotify pre-content rework and bit 25 after it (6.12.118
 * has the rework, 6.1 does not). Kernels without the kludge reject it like
 * any other unknown bit. Both candidates may be dropped, but at most one of
 * them (a case of its own), and it must not reach the file.
 */
static const uint64_t fmode_nonotify_bits[] = {
    1ULL << 25, /* 6.12.118 */
    1ULL << 26, /* 6.1 */
};
static unsigned int nonotify_dropped; /* candidates that gave an fd */

/* fs/open.c: everything O_PATH may be combined with. */
#define O_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)

enum target {
    TARGET_FILE,     /* an existing regular file */
    TARGET_DIR,      /* an existing directory */
    TARGET_SYMLINK,  /* a symlink to the regular file */
    TARGET_NEW,      /* a name no other case uses, for O_CREAT */
    TARGET_NULL,     /* no name: a NULL pointer, which getname() refuses */
    TARGET_DANGLING, /* a symlink to a name that does not exist */
    TARGET_RO_FILE,  /* a regular file on a tmpfs remounted read-only */
};

/*
 * VALID_OPEN_FLAGS bit by bit (O_RDONLY is 0 and O_NDELAY is O_NONBLOCK),
 * each with the companions it needs to open something on its own.
 */
static const struct valid_open_flag {
    uint64_t flag;
    const char *name;
    uint64_t companions;
    const char *companion_names;
    enum target target;
} valid_open_flags[] = {
    {O_WRONLY, "O_WRONLY", 0, NULL, TARGET_FILE},
    {O_RDWR, "O_RDWR", 0, NULL, TARGET_FILE},
    {O_CREAT, "O_CREAT", 0, NULL, TARGET_NEW},
    {O_EXCL, "O_EXCL", O_CREAT, "O_CREAT", TARGET_NEW},
    {O_NOCTTY, "O_NOCTTY", 0, NULL, TARGET_FILE},
    {O_TRUNC, "O_TRUNC", O_WRONLY, "O_WRONLY", TARGET_FILE},
    {O_APPEND, "O_APPEND", O_WRONLY, "O_WRONLY", TARGET_FILE},
    {O_NONBLOCK, "O_NONBLOCK", 0, NULL, TARGET_FILE},
    {O_DSYNC, "O_DSYNC", O_WRONLY, "O_WRONLY", TARGET_FILE},
    {FASYNC, "FASYNC", 0, NULL, TARGET_FILE},
    {O_DIRECT, "O_DIRECT", 0, NULL, TARGET_FILE},
    {KERNEL_O_LARGEFILE, "O_LARGEFILE", 0, NULL, TARGET_FILE},
    {O_DIRECTORY, "O_DIRECTORY", 0, NULL, TARGET_DIR},
    {O_NOFOLLOW, "O_NOFOLLOW", 0, NULL, TARGET_FILE},
    {O_NOATIME, "O_NOATIME", 0, NULL, TARGET_FILE},
    {O_CLOEXEC, "O_CLOEXEC", 0, NULL, TARGET_FILE},
    {KERNEL___O_SYNC, "__O_SYNC", O_WRONLY, "O_WRONLY", TARGET_FILE},
    {O_PATH, "O_PATH", 0, NULL, TARGET_FILE},
    {KERNEL___O_TMPFILE, "__O_TMPFILE", O_DIRECTORY | O_RDWR,
     "O_DIRECTORY|O_RDWR", TARGET_DIR},
};

/* VALID_RESOLVE_FLAGS. */
static const struct valid_resolve_flag {
    uint64_t flag;
    const char *name;
} valid_resolve_flags[] = {
    {RESOLVE_NO_XDEV, "RESOLVE_NO_XDEV"},
    {RESOLVE_NO_MAGICLINKS, "RESOLVE_NO_MAGICLINKS"},
    {RESOLVE_NO_SYMLINKS, "RESOLVE_NO_SYMLINKS"},
    {RESOLVE_BENEATH, "RESOLVE_BENEATH"},
    {RESOLVE_IN_ROOT, "RESOLVE_IN_ROOT"},
    {RESOLVE_CACHED, "RESOLVE_CACHED"},
};

/* A hand-written case: one struct open_how and its expected outcome. */
struct fixed_case {
    enum fixed_group {
        FIXED_RESOLVE, /* resolve combinations */
        FIXED_MODE,    /* how.mode */
        FIXED_O_PATH,  /* the companions O_PATH does allow */
        FIXED_TMPFILE, /* O_TMPFILE */
        FIXED_PATH,    /* the path argument itself */
        FIXED_EXCL,    /* O_EXCL and symlinks */
        FIXED_RO,      /* access modes on a read-only superblock */
    } group;
    const char *what;
    enum target target;
    struct open_how how;
    int expect; /* 0: an fd, otherwise the errno */
};

/* A row: group, name, target, how.flags, how.mode, how.resolve, errno */
#define FIXED(g, what, target, fl, md, res, expect)                       \
    {                                                                     \
        g, what, target, {.flags = (fl), .mode = (md), .resolve = (res)}, \
            expect                                                        \
    }

static const struct fixed_case fixed_cases[] = {
    FIXED(FIXED_RESOLVE, "RESOLVE_BENEATH|RESOLVE_IN_ROOT (mutually exclusive)",
          TARGET_FILE, 0, 0, RESOLVE_BENEATH | RESOLVE_IN_ROOT, EINVAL),
    /*
     * RESOLVE_CACHED gives up on anything that may create or truncate,
     * before the lookup: on a new name the lookup would give EAGAIN anyway,
     * but "file" is in the dcache (the setup created it, most cases open
     * it), where only build_open_flags() refuses.
     */
    FIXED(FIXED_RESOLVE, "RESOLVE_CACHED with O_CREAT", TARGET_NEW, O_CREAT,
          0600, RESOLVE_CACHED, EAGAIN),
    FIXED(FIXED_RESOLVE, "RESOLVE_CACHED|O_CREAT on an existing cached file",
          TARGET_FILE, O_CREAT, 0600, RESOLVE_CACHED, EAGAIN),
    FIXED(FIXED_RESOLVE,
          "RESOLVE_CACHED|O_TRUNC|O_WRONLY on an existing cached file",
          TARGET_FILE, O_TRUNC | O_WRONLY, 0, RESOLVE_CACHED, EAGAIN),
    FIXED(FIXED_RESOLVE,
          "RESOLVE_CACHED|O_TMPFILE|O_RDWR on a cached directory", TARGET_DIR,
          O_TMPFILE | O_RDWR, 0600, RESOLVE_CACHED, EAGAIN),

    /* how.mode is only allowed with O_CREAT/O_TMPFILE, and only S_IALLUGO. */
    FIXED(FIXED_MODE, "mode 0600 without O_CREAT/O_TMPFILE", TARGET_FILE,
          O_RDONLY, 0600, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 0600 with O_PATH", TARGET_FILE, O_PATH, 0600, 0,
          EINVAL),
    FIXED(FIXED_MODE, "mode 0600 with O_CREAT", TARGET_NEW, O_CREAT | O_WRONLY,
          0600, 0, 0),
    FIXED(FIXED_MODE, "mode 07777 (all of S_IALLUGO) with O_CREAT", TARGET_NEW,
          O_CREAT | O_WRONLY, 07777, 0, 0),
    FIXED(FIXED_MODE, "mode 0600 with O_TMPFILE", TARGET_DIR,
          O_TMPFILE | O_RDWR, 0600, 0, 0),
    FIXED(FIXED_MODE, "mode 010000 with O_CREAT", TARGET_NEW,
          O_CREAT | O_WRONLY, 010000, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 0100000 (S_IFREG) with O_CREAT", TARGET_NEW,
          O_CREAT | O_WRONLY, 0100000, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 1<<31 with O_CREAT", TARGET_NEW, O_CREAT | O_WRONLY,
          1ULL << 31, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 1<<40 with O_CREAT", TARGET_NEW, O_CREAT | O_WRONLY,
          1ULL << 40, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 1<<63 with O_CREAT", TARGET_NEW, O_CREAT | O_WRONLY,
          1ULL << 63, 0, EINVAL),
    FIXED(FIXED_MODE, "mode 010000 with O_TMPFILE", TARGET_DIR,
          O_TMPFILE | O_RDWR, 010000, 0, EINVAL),

    FIXED(FIXED_O_PATH, "O_PATH|O_DIRECTORY on a directory", TARGET_DIR,
          O_PATH | O_DIRECTORY, 0, 0, 0),
    FIXED(FIXED_O_PATH, "O_PATH|O_NOFOLLOW on a symlink", TARGET_SYMLINK,
          O_PATH | O_NOFOLLOW, 0, 0, 0),
    FIXED(FIXED_O_PATH, "O_PATH|O_CLOEXEC", TARGET_FILE, O_PATH | O_CLOEXEC, 0,
          0, 0),
    FIXED(FIXED_O_PATH,
          "O_PATH|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC on a directory", TARGET_DIR,
          O_PATH_FLAGS, 0, 0, 0),

    /* O_TMPFILE needs O_DIRECTORY and write access, and excludes O_CREAT. */
    FIXED(FIXED_TMPFILE, "O_TMPFILE|O_RDONLY (no write access)", TARGET_DIR,
          O_TMPFILE | O_RDONLY, 0600, 0, EINVAL),
    FIXED(FIXED_TMPFILE, "O_TMPFILE|O_RDWR", TARGET_DIR, O_TMPFILE | O_RDWR,
          0600, 0, 0),
    FIXED(FIXED_TMPFILE, "O_TMPFILE|O_WRONLY", TARGET_DIR, O_TMPFILE | O_WRONLY,
          0600, 0, 0),
    FIXED(FIXED_TMPFILE, "__O_TMPFILE|O_RDWR without O_DIRECTORY", TARGET_DIR,
          KERNEL___O_TMPFILE | O_RDWR, 0600, 0, EINVAL),
    FIXED(FIXED_TMPFILE, "O_TMPFILE|O_CREAT|O_RDWR", TARGET_DIR,
          O_TMPFILE | O_CREAT | O_RDWR, 0600, 0, EINVAL),
    /* Rejected since 6.4: it used to create a regular file. */
    FIXED(FIXED_TMPFILE, "O_DIRECTORY|O_CREAT", TARGET_NEW,
          O_DIRECTORY | O_CREAT, 0600, 0, EINVAL),

    /* Valid flags, no path: do_sys_openat2() fails in getname(). */
    FIXED(FIXED_PATH, "a NULL path with valid flags", TARGET_NULL, O_RDONLY, 0,
          0, EFAULT),

    /*
     * O_CREAT|O_EXCL implies O_NOFOLLOW: a dangling symlink is not
     * followed to create its target, the open fails. O_EXCL without
     * O_CREAT means nothing for a regular file, and adds no O_NOFOLLOW.
     */
    FIXED(FIXED_EXCL, "O_CREAT|O_EXCL|O_WRONLY on a dangling symlink",
          TARGET_DANGLING, O_CREAT | O_EXCL | O_WRONLY, 0600, 0, EEXIST),
    FIXED(FIXED_EXCL, "O_EXCL without O_CREAT on a symlink to a file",
          TARGET_SYMLINK, O_RDONLY | O_EXCL, 0, 0, 0),

    /*
     * Only a write or O_TRUNC asks for MAY_WRITE: as root every DAC check
     * passes, a read-only superblock still refuses writes (EROFS).
     */
    FIXED(FIXED_RO, "O_RDONLY of a file on a read-only tmpfs", TARGET_RO_FILE,
          O_RDONLY, 0, 0, 0),
    FIXED(FIXED_RO, "O_WRONLY of a file on a read-only tmpfs", TARGET_RO_FILE,
          O_WRONLY, 0, 0, EROFS),
    FIXED(FIXED_RO, "O_RDONLY|O_TRUNC of a file on a read-only tmpfs",
          TARGET_RO_FILE, O_RDONLY | O_TRUNC, 0, 0, EROFS),
};

#define NO_ALTERNATIVE (-1)
#define MAX_CASES      320

/* A row: the call (openat2, or openat), its input, the expected result. */
struct open_case {
    char path[16];
    bool null_path;          /* pass NULL instead of path */
    bool legacy_openat;      /* openat(2) with how.flags and how.mode */
    bool nonotify_candidate; /* a bit build_open_flags() may strip */
    bool fd0_free;           /* run with fd 0 closed: the fd must be 0 */
    bool ro_mount;           /* needs the read-only tmpfs of the setup */
    struct open_how how;
    const void *how_arg; /* &how, except for the struct size cases */
    size_t usize;
    int expect;  /* 0: an fd, otherwise the errno */
    int also_ok; /* another acceptable outcome or NO_ALTERNATIVE */
};

static struct open_case cases[MAX_CASES];
static unsigned int num_cases;
static uint64_t valid_open_mask;
static uint64_t valid_resolve_mask;

/* The struct size cases read their open_how from these pages. */
static long page_size;
static unsigned char *zeroed_pages;     /* two pages of zeroes */
static unsigned char *dirty_first_page; /* non-zero byte at offset 24 */
static unsigned char *dirty_last_page;  /* non-zero last byte */
static unsigned char *guard_page;       /* PROT_NONE, after a zeroed page */

/* "accepted" or "rejected with EXXX", for case names. */
static const char *verdict(int expect)
{
    static char text[48];

    if (!expect) {
        return "accepted";
    }
    snprintf(text, sizeof(text), "rejected with %s", errno_name(expect));
    return text;
}

static unsigned int bit_number(uint64_t flag)
{
    return __builtin_ctzll(flag);
}

static int run_case(unsigned long idx, char *why);

/* A row of cases[], and its case in the runner, named by fmt. */
static KTAP_PRINTF(4, 5) struct open_case *add_case(enum target target,
                                                    uint64_t flags, int expect,
                                                    const char *fmt, ...)
{
    static unsigned int new_names;
    char name[KT_NAME_LEN];
    struct open_case *c;
    va_list ap;

    if (num_cases == MAX_CASES) {
        ktap_print_msg("more than MAX_CASES (%d) cases", MAX_CASES);
        exit(1);
    }
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    kt_add(run_case, num_cases, "%s", name);
    c = &cases[num_cases++];

    switch (target) {
    case TARGET_FILE:
        strcpy(c->path, "file");
        break;
    case TARGET_DIR:
        strcpy(c->path, "dir");
        break;
    case TARGET_SYMLINK:
        strcpy(c->path, "symlink");
        break;
    case TARGET_NEW:
        snprintf(c->path, sizeof(c->path), "new-%u", new_names++);
        break;
    case TARGET_NULL:
        c->null_path = true;
        break;
    case TARGET_DANGLING:
        strcpy(c->path, "dangling");
        break;
    case TARGET_RO_FILE:
        strcpy(c->path, "ro/file");
        c->ro_mount = true;
        break;
    }

    c->how.flags = flags;
    /* A mode is only legal (and then harmless) when creating. */
    c->how.mode = flags & (O_CREAT | KERNEL___O_TMPFILE) ? 0600 : 0;
    c->how_arg = &c->how;
    c->usize = sizeof(c->how);
    c->expect = expect;
    c->also_ok = NO_ALTERNATIVE;
    return c;
}

/* The rows of one group of fixed_cases[], in order. */
static void add_fixed_cases(enum fixed_group group)
{
    for (size_t i = 0; i < ARRAY_SIZE(fixed_cases); i++) {
        const struct fixed_case *f = &fixed_cases[i];
        struct open_case *c;

        if (f->group != group) {
            continue;
        }
        c = add_case(f->target, 0, f->expect, "%s %s", f->what,
                     verdict(f->expect));
        c->how = f->how;
    }
}

static bool is_fmode_nonotify_bit(uint64_t flag)
{
    for (size_t i = 0; i < ARRAY_SIZE(fmode_nonotify_bits); i++) {
        if (flag == fmode_nonotify_bits[i]) {
            return true;
        }
    }
    return false;
}

static void add_open_flag_cases(void)
{
    for (unsigned int bit = 0; bit < 64; bit++) {
        uint64_t flag = 1ULL << bit;
        struct open_case *c;

        if (flag & valid_open_mask) {
            continue;
        }
        if (is_fmode_nonotify_bit(flag)) {
            c = add_case(TARGET_FILE, O_RDONLY | flag, EINVAL,
                         "flags bit %u (%#llx) rejected with EINVAL or dropped "
                         "as __FMODE_NONOTIFY",
                         bit, (unsigned long long)flag);
            c->also_ok = 0;
            c->nonotify_candidate = true;
            continue;
        }
        add_case(TARGET_FILE, O_RDONLY | flag, EINVAL,
                 "flags bit %u (%#llx) rejected with EINVAL", bit,
                 (unsigned long long)flag);
    }

    for (size_t i = 0; i < ARRAY_SIZE(valid_open_flags); i++) {
        const struct valid_open_flag *v = &valid_open_flags[i];

        add_case(v->target, v->flag | v->companions, 0,
                 "flags bit %u (%#llx, %s) accepted%s%s", bit_number(v->flag),
                 (unsigned long long)v->flag, v->name,
                 v->companion_names ? " with " : "",
                 v->companion_names ? v->companion_names : "");
    }
}

static void add_resolve_cases(void)
{
    for (unsigned int bit = 0; bit < 64; bit++) {
        uint64_t flag = 1ULL << bit;
        struct open_case *c;

        if (flag & valid_resolve_mask) {
            continue;
        }
        c = add_case(TARGET_FILE, O_RDONLY, EINVAL,
                     "resolve bit %u (%#llx) rejected with EINVAL", bit,
                     (unsigned long long)flag);
        c->how.resolve = flag;
    }

    for (size_t i = 0; i < ARRAY_SIZE(valid_resolve_flags); i++) {
        const struct valid_resolve_flag *v = &valid_resolve_flags[i];
        struct open_case *c;

        c = add_case(TARGET_FILE, O_RDONLY, 0,
                     "resolve bit %u (%#llx, %s) accepted", bit_number(v->flag),
                     (unsigned long long)v->flag, v->name);
        c->how.resolve = v->flag;
        /* The file is in the dcache, but the API allows EAGAIN. */
        if (v->flag == RESOLVE_CACHED) {
            c->also_ok = EAGAIN;
        }
    }

    add_fixed_cases(FIXED_RESOLVE);
}

static void add_o_path_cases(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(valid_open_flags); i++) {
        const struct valid_open_flag *v = &valid_open_flags[i];

        if (v->flag & O_PATH_FLAGS) {
            continue;
        }
        /* O_LARGEFILE too: openat2 only forces it for non-O_PATH. */
        add_case(TARGET_FILE, O_PATH | v->flag, EINVAL,
                 "O_PATH|%s rejected with EINVAL", v->name);
    }
    add_fixed_cases(FIXED_O_PATH);
}

/*
 * sys_openat2(): usize < OPEN_HOW_SIZE_VER0 is EINVAL and usize > PAGE_SIZE
 * is E2BIG, both before reading anything; then copy_struct_from_user()
 * wants the bytes past sizeof(struct open_how) to be zero (E2BIG) and
 * readable (EFAULT).
 */
static void add_size_cases(void)
{
    const size_t how_size = sizeof(struct open_how);
    const size_t page = page_size;
    const struct {
        const char *what;
        const void *how;
        size_t usize;
        int expect;
    } sizes[] = {
        {"usize 24 (OPEN_HOW_SIZE_VER0)", zeroed_pages, how_size, 0},
        {"usize 32 with zeroed tail", zeroed_pages, 32, 0},
        {"usize 32 with non-zero byte 24", dirty_first_page, 32, E2BIG},
        {"usize 37 with zeroed tail, misaligned", zeroed_pages + 3, 37, 0},
        {"usize 32 with non-zero byte 27, misaligned", dirty_first_page - 3, 32,
         E2BIG},
        {"usize PAGE_SIZE with zeroed tail", zeroed_pages, page, 0},
        {"usize PAGE_SIZE with non-zero last byte", dirty_last_page, page,
         E2BIG},
        {"usize PAGE_SIZE+1 with zeroed tail", zeroed_pages, page + 1, E2BIG},
        {"usize 2*PAGE_SIZE with zeroed tail", zeroed_pages, 2 * page, E2BIG},
        /* Only two pages are mapped there: the size check comes first. */
        {"usize 1 MiB", zeroed_pages, 1 << 20, E2BIG},
        {"usize SIZE_MAX", zeroed_pages, SIZE_MAX, E2BIG},
        {"usize 24 ending at an unmapped page", guard_page - how_size, how_size,
         0},
        {"usize 32 with tail in an unmapped page", guard_page - how_size, 32,
         EFAULT},
        {"how in an unmapped page", guard_page, how_size, EFAULT},
        {"NULL how", NULL, how_size, EFAULT},
        {"NULL how with usize 0 (size checked first)", NULL, 0, EINVAL},
        {"usize 0", zeroed_pages, 0, EINVAL},
    };

    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        struct open_case *c =
            add_case(TARGET_FILE, O_RDONLY, sizes[i].expect, "%s %s",
                     sizes[i].what, verdict(sizes[i].expect));

        c->how_arg = sizes[i].how;
        c->usize = sizes[i].usize;
    }

    for (size_t usize = 1; usize < OPEN_HOW_SIZE_VER0; usize++) {
        struct open_case *c = add_case(
            TARGET_FILE, O_RDONLY, EINVAL,
            "usize %zu (< OPEN_HOW_SIZE_VER0) rejected with EINVAL", usize);

        c->how_arg = zeroed_pages;
        c->usize = usize;
    }
}

/*
 * do_sys_openat2() returns the fd it reserved once the file is installed:
 * with fd 0 free that is 0, a valid fd like any other.
 */
static void add_fd_cases(void)
{
    struct open_case *c =
        add_case(TARGET_FILE, O_RDONLY, 0,
                 "O_RDONLY with fd 0 closed accepted as an installed fd 0");

    c->fd0_free = true;
}

/* The article's point: openat(2) swallows the bits openat2(2) rejects. */
static void add_legacy_openat_cases(void)
{
    for (unsigned int bit = 0; bit < 32; bit++) {
        uint64_t flag = 1ULL << bit;
        struct open_case *c;

        if (flag & valid_open_mask) {
            continue;
        }
        c = add_case(
            TARGET_FILE, O_RDONLY | flag, 0,
            "openat ignores unknown bit %u (legacy behaviour, informational)",
            bit);
        c->legacy_openat = true;
    }
}

static void print_call(const struct open_case *c, long fd, int err)
{
    char result[48];

    if (fd >= 0) {
        snprintf(result, sizeof(result), "%ld", fd);
    } else {
        snprintf(result, sizeof(result), "-1 %s", errno_name(err));
    }

    if (c->legacy_openat) {
        ktap_print_msg("openat(dirfd, \"%s\", %#x, %#llo) = %s", c->path,
                       (unsigned int)c->how.flags,
                       (unsigned long long)c->how.mode, result);
    } else if (c->how_arg == &c->how) {
        ktap_print_msg("openat2(dirfd, \"%s\", {flags=%#llx, mode=%#llo, "
                       "resolve=%#llx}, %zu) = %s",
                       c->path, (unsigned long long)c->how.flags,
                       (unsigned long long)c->how.mode,
                       (unsigned long long)c->how.resolve, c->usize, result);
    } else {
        ktap_print_msg("openat2(dirfd, \"%s\", %p, %zu) = %s", c->path,
                       c->how_arg, c->usize, result);
    }
}

static bool fs_refuses_o_direct(const struct open_case *c)
{
    long fd = syscall(SYS_openat, test_dirfd, c->path, (int)c->how.flags,
                      (mode_t)c->how.mode);

    if (fd >= 0) {
        close(fd);
        return false;
    }
    return errno == EINVAL;
}

/* The fd 0 an fd0_free case got must be "file", open. */
static int fd0_check(const struct open_case *c, long fd, char *why)
{
    struct stat got, want;

    if (fd != 0) {
        return kt_fail(why, "got fd %ld with fd 0 free, expected 0", fd);
    }
    if (fstat(0, &got)) {
        return kt_fail(why,
                       "got fd 0, but fstat(0) failed: %s (no file "
                       "installed)",
                       errno_name(errno));
    }
    if (fstatat(test_dirfd, c->path, &want, 0)) {
        return kt_fail(why, "stat %s: %s", c->path, strerror(errno));
    }
    if (got.st_dev != want.st_dev || got.st_ino != want.st_ino) {
        return kt_fail(why, "fd 0 is inode %llu, \"%s\" is %llu",
                       (unsigned long long)got.st_ino, c->path,
                       (unsigned long long)want.st_ino);
    }
    return KTAP_PASS;
}

/* Put the saved fd 0 back (saved0 < 0: there was none). */
static bool restore_fd0(int saved0)
{
    int r;

    if (saved0 < 0) {
        return true;
    }
    r = dup2(saved0, 0);
    close(saved0);
    return r == 0;
}

static int run_case(unsigned long idx, char *why)
{
    const struct open_case *c = &cases[idx];
    const char *path = c->null_path ? NULL : c->path;
    int err, fd_flags = 0, saved0 = -1, fd0_ret = KTAP_PASS;
    long fd;

    if (c->ro_mount && ro_why[0]) {
        return kt_fail(why, "setup: %s", ro_why);
    }
    if (c->fd0_free) {
        saved0 = fcntl(0, F_DUPFD_CLOEXEC, 3);
        if (saved0 < 0 && errno != EBADF) {
            return kt_fail(why, "saving fd 0: %s", strerror(errno));
        }
        if (saved0 >= 0) {
            close(0);
        }
    }

    errno = 0;
    if (c->legacy_openat) {
        fd = syscall(SYS_openat, test_dirfd, path, (int)c->how.flags,
                     (mode_t)c->how.mode);
    } else {
        fd = syscall(SYS_openat2, test_dirfd, path, c->how_arg, c->usize);
    }
    err = fd < 0 ? errno : 0;
    if (c->fd0_free && fd >= 0) {
        fd0_ret = fd0_check(c, fd, why);
    }
    if (fd >= 0) {
        fd_flags = fcntl(fd, F_GETFL);
        close(fd);
        nonotify_dropped += c->nonotify_candidate;
    }
    if (c->fd0_free) {
        bool restored = restore_fd0(saved0);

        if (fd0_ret != KTAP_PASS) {
            print_call(c, fd, err);
            return fd0_ret;
        }
        if (!restored) {
            return kt_fail(why, "restoring fd 0: %s", strerror(errno));
        }
    }

    /*
     * O_DIRECT passes the flags check but the filesystem may still refuse
     * it at open (tmpfs before 6.6): an absent feature, not a missing
     * validation, when the legacy openat(2) refuses it just the same.
     */
    if (err == EINVAL && !c->expect && (c->how.flags & O_DIRECT) &&
        !c->legacy_openat && fs_refuses_o_direct(c)) {
        return kt_skip(
            why,
            "the filesystem of \"%s\" refuses O_DIRECT at open (openat(2) "
            "gives EINVAL too; tmpfs has O_DIRECT since 6.6)",
            c->path);
    }

    if (err != c->expect && err != c->also_ok) {
        print_call(c, fd, err);
        return kt_fail(why, "got %s, expected %s",
                       fd >= 0 ? "an fd" : errno_name(err),
                       c->expect ? errno_name(c->expect) : "an fd");
    }
    /* Whatever got accepted, no unknown bit may reach the open file. */
    if (fd >= 0 &&
        (fd_flags < 0 || ((unsigned int)fd_flags & ~valid_open_mask))) {
        print_call(c, fd, err);
        return kt_fail(why, "F_GETFL gave %#x, outside VALID_OPEN_FLAGS %#llx",
                       fd_flags, (unsigned long long)valid_open_mask);
    }
    return KTAP_PASS;
}

/* After every other case: the __FMODE_NONOTIFY candidates that gave an fd. */
static int c_nonotify(unsigned long arg, char *why)
{
    (void)arg;
    if (nonotify_dropped > 1) {
        return kt_fail(why, "%u candidate bits gave an fd", nonotify_dropped);
    }
    return KTAP_PASS;
}

static bool map_size_pages(void)
{
    unsigned char *map;

    page_size = sysconf(_SC_PAGESIZE);
    /* zeroes x2 | dirty first | dirty last | zeroes | guard */
    map = mmap(NULL, 6 * page_size, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        ktap_print_msg("mmap: %s", strerror(errno));
        return false;
    }
    zeroed_pages = map;
    dirty_first_page = map + 2 * page_size;
    dirty_last_page = map + 3 * page_size;
    guard_page = map + 5 * page_size;

    dirty_first_page[sizeof(struct open_how)] = 1;
    dirty_last_page[page_size - 1] = 1;
    if (mprotect(guard_page, page_size, PROT_NONE)) {
        ktap_print_msg("mprotect: %s", strerror(errno));
        return false;
    }
    return true;
}

/* The runner's setup: the directory of openat2_dir.c. */
static int setup(char *why)
{
    if (make_test_dir(why)) {
        return KTAP_FAIL;
    }
    ktap_print_msg("testing in %s; PAGE_SIZE is %ld; VALID_OPEN_FLAGS %#llx, "
                   "VALID_RESOLVE_FLAGS %#llx",
                   test_dir, page_size, (unsigned long long)valid_open_mask,
                   (unsigned long long)valid_resolve_mask);
    return 0;
}

int main(void)
{
    ktap_print_header();
    if (!map_size_pages()) {
        return 1;
    }

    for (size_t i = 0; i < ARRAY_SIZE(valid_open_flags); i++) {
        valid_open_mask |= valid_open_flags[i].flag;
    }
    for (size_t i = 0; i < ARRAY_SIZE(valid_resolve_flags); i++) {
        valid_resolve_mask |= valid_resolve_flags[i].flag;
    }

    add_open_flag_cases();
    add_resolve_cases();
    add_fixed_cases(FIXED_MODE);
    add_o_path_cases();
    add_fixed_cases(FIXED_TMPFILE);
    add_fixed_cases(FIXED_PATH);
    add_fixed_cases(FIXED_EXCL);
    add_fixed_cases(FIXED_RO);
    add_fd_cases();
    add_size_cases();
    add_legacy_openat_cases();
    kt_add(c_nonotify, 0,
           "flags bits 25 and 26: at most one dropped as __FMODE_NONOTIFY");

    /* kt_run() but for the header, printed above, and the cleanup */
    ktap_set_plan(kt_count());
    kt_run_cases(setup);
    if (test_dirfd > 0) {
        remove_test_dir();
    }
    return ktap_finished();
}
