/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_gem.c - msm_ioctl's cases of GEM_NEW, GEM_CLOSE, GEM_INFO and mmap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "msm_test.h"

/* ---- GEM_NEW ---- */

/* GEM_NEW must fail with EINVAL; a BO it made anyway is closed. */
static int gem_new_rejected(uint64_t size, uint32_t flags, char *why)
{
    uint32_t h = 0;
    int r = gem_new(g_fd, size, flags, &h);

    if (r == 0) {
        gem_close(g_fd, h);
    }
    if (r != -EINVAL) {
        return kt_fail(why, "GEM_NEW(%llu, 0x%x): got %s, expected EINVAL",
                       (unsigned long long)size, flags, errno_name(-r));
    }
    return 0;
}

static int c_gem_new_bit(unsigned long bit, char *why)
{
    return gem_new_rejected(4096, MSM_BO_WC | (1u << bit), why);
}

static const uint32_t gem_new_bad_cache[] = {
    0,
    MSM_BO_UNCACHED,
    MSM_BO_CACHED | MSM_BO_WC,
    MSM_BO_CACHED_COHERENT,
    MSM_BO_UNCACHED | MSM_BO_WC,
    MSM_BO_UNCACHED | MSM_BO_CACHED,
    MSM_BO_CACHE_MASK,
    MSM_BO_SCANOUT | MSM_BO_GPU_READONLY,
};

static int c_gem_new_cache(unsigned long i, char *why)
{
    return gem_new_rejected(4096, gem_new_bad_cache[i], why);
}

static const uint32_t gem_new_good[] = {
    MSM_BO_WC,
    MSM_BO_CACHED,
    MSM_BO_WC | MSM_BO_GPU_READONLY,
    MSM_BO_WC | MSM_BO_SCANOUT,
    MSM_BO_CACHED | MSM_BO_GPU_READONLY,
};

static int c_gem_new_good(unsigned long i, char *why)
{
    uint32_t h = 0;
    uint64_t flags = 0;

    EXPECT(gem_new(g_fd, 4096, gem_new_good[i], &h), 0, "GEM_NEW");
    if (h == 0) {
        return kt_fail(why, "handle 0");
    }
    /* without GET_FLAGS the case is named "accepted" only */
    if (feat_have(F_INFO_GET_FLAGS) &&
        (gem_info(g_fd, h, MSM_INFO_GET_FLAGS, &flags) ||
         flags != gem_new_good[i])) {
        gem_close(g_fd, h);
        return kt_fail(why, "GET_FLAGS 0x%llx, expected 0x%x",
                       (unsigned long long)flags, gem_new_good[i]);
    }
    EXPECT(gem_close(g_fd, h), 0, "GEM_CLOSE");
    return 0;
}

static int c_gem_new_size(unsigned long size, char *why)
{
    return gem_new_rejected(size, MSM_BO_WC, why);
}

/* mmap of len bytes at off of fd must fail with e; ok_msg if it does not. */
static int mmap_rejected(int fd, uint64_t off, size_t len, int e,
                         const char *ok_msg, char *why)
{
    void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);

    if (p != MAP_FAILED) {
        munmap(p, len);
        return kt_fail(why, "%s", ok_msg);
    }
    return kt_expect_errno(why, "mmap", errno, e);
}

/*
 * GEM_NEW(size) must give a BO of one page: it maps one page but not two.
 * Size 1 is PAGE_ALIGNed up; msm_gem_new_handle() takes a u32 size, so
 * 6.12 silently truncates 2^32 + PAGE_SIZE to one page.  Documents 6.12:
 * a kernel that range-checks size fails the second.
 */
static int c_gem_new_one_page(unsigned long size, char *why)
{
    uint32_t h = 0;
    uint64_t off = 0;
    void *p;
    int ret = 0, r;

    r = gem_new(g_fd, size, MSM_BO_WC, &h);
    if (r) {
        return kt_fail(why, "GEM_NEW(%lu): got %s, expected success", size,
                       errno_name(-r));
    }
    EXPECT_OUT(gem_info(g_fd, h, MSM_INFO_GET_OFFSET, &off), 0, "GET_OFFSET");
    p = mmap(NULL, g_page, PROT_READ | PROT_WRITE, MAP_SHARED, g_fd, off);
    if (p == MAP_FAILED) {
        FAIL_OUT("mmap of one page: %s (size should be PAGE_ALIGNed)",
                 strerror(errno));
    }
    munmap(p, g_page);
    ret = mmap_rejected(
        g_fd, off, 2 * g_page, EINVAL,
        "mmap of two pages succeeded: the BO is larger than one page", why);
out:
    gem_close(g_fd, h);
    return ret;
}

static int c_gem_close_twice(unsigned long arg, char *why)
{
    uint32_t h = 0;

    (void)arg;
    EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
    EXPECT(gem_close(g_fd, h), 0, "first GEM_CLOSE");
    EXPECT(gem_close(g_fd, h), EINVAL, "second GEM_CLOSE");
    EXPECT(gem_info(g_fd, h, MSM_INFO_GET_OFFSET, NULL), ENOENT,
           "GEM_INFO on the closed handle");
    return 0;
}

/* ---- GEM_INFO ---- */

/* What a GEM_INFO case passes as value: 0, a buffer of 'm', a bad pointer. */
enum { GV_ZERO, GV_BUF, GV_BAD, GV_IOVA };
/* What it sets first on the BO, for a GET_NAME/GET_METADATA case. */
enum { GP_NONE, GP_NAME, GP_META };

#define GI_BAD_HANDLE 1000 /* added to the handle: one that does not exist */

/*
 * One GEM_INFO call on a fresh BO of 4 KiB (or bo_size) that must fail
 * with err. A too small GET_NAME buffer gave EINVAL before
 * F_GET_NAME_ETOOSMALL.
 */
static const struct gem_info_case {
    const char *name;
    enum feat feat;
    uint64_t bo_size;
    uint32_t handle_delta;
    uint8_t pre, value;
    uint32_t info, len, pad;
    int err;
} gem_info_neg[] = {
    {"GEM_INFO pad 1 rejected with EINVAL", F_ALWAYS, 0, 0, GP_NONE, GV_ZERO,
     MSM_INFO_GET_OFFSET, 0, 1, EINVAL},
    {"GEM_INFO info 8 (unknown) rejected with EINVAL", F_ALWAYS, 0, 0, GP_NONE,
     GV_ZERO, 8, 0, 0, EINVAL},
    {"GEM_INFO info 0xffffffff rejected with EINVAL", F_ALWAYS, 0, 0, GP_NONE,
     GV_ZERO, 0xffffffff, 0, 0, EINVAL},
    {"GEM_INFO GET_OFFSET with len 8 rejected with EINVAL", F_ALWAYS, 0, 0,
     GP_NONE, GV_ZERO, MSM_INFO_GET_OFFSET, 8, 0, EINVAL},
    {"GEM_INFO GET_IOVA with len 8 rejected with EINVAL", F_ALWAYS, 0, 0,
     GP_NONE, GV_ZERO, MSM_INFO_GET_IOVA, 8, 0, EINVAL},
    {"GEM_INFO SET_IOVA with len 8 rejected with EINVAL", F_ALWAYS, 0, 0,
     GP_NONE, GV_IOVA, MSM_INFO_SET_IOVA, 8, 0, EINVAL},
    {"GEM_INFO GET_FLAGS with len 8 rejected with EINVAL", F_INFO_GET_FLAGS, 0,
     0, GP_NONE, GV_ZERO, MSM_INFO_GET_FLAGS, 8, 0, EINVAL},
    {"GEM_INFO unknown handle rejected with ENOENT", F_ALWAYS, 0, GI_BAD_HANDLE,
     GP_NONE, GV_ZERO, MSM_INFO_GET_OFFSET, 0, 0, ENOENT},
    {"GEM_INFO info 8 on an unknown handle rejected with EINVAL (info "
     "checked first)",
     F_ALWAYS, 0, GI_BAD_HANDLE, GP_NONE, GV_ZERO, 8, 0, 0, EINVAL},
    {"GEM_INFO SET_IOVA (shared address space) rejected with EOPNOTSUPP",
     F_ALWAYS, 0, 0, GP_NONE, GV_IOVA, MSM_INFO_SET_IOVA, 0, 0, EOPNOTSUPP},
    {"GEM_INFO SET_NAME len 32 rejected with EINVAL", F_ALWAYS, 0, 0, GP_NONE,
     GV_BUF, MSM_INFO_SET_NAME, 32, 0, EINVAL},
    {"GEM_INFO SET_NAME bad pointer rejected with EFAULT", F_ALWAYS, 0, 0,
     GP_NONE, GV_BAD, MSM_INFO_SET_NAME, 8, 0, EFAULT},
    {"GEM_INFO GET_NAME buffer too small rejected with ETOOSMALL", F_ALWAYS, 0,
     0, GP_NAME, GV_BUF, MSM_INFO_GET_NAME, 7, 0, ETOOSMALL},
    {"GEM_INFO SET_METADATA len 129 rejected with EOVERFLOW", F_INFO_METADATA,
     0, 0, GP_NONE, GV_BUF, MSM_INFO_SET_METADATA, 129, 0, EOVERFLOW},
    {"GEM_INFO SET_METADATA bad pointer rejected with EFAULT", F_INFO_METADATA,
     0, 0, GP_NONE, GV_BAD, MSM_INFO_SET_METADATA, 16, 0, EFAULT},
    {"GEM_INFO GET_METADATA buffer too small rejected with ETOOSMALL",
     F_INFO_METADATA, 0, 0, GP_META, GV_BUF, MSM_INFO_GET_METADATA, 15, 0,
     ETOOSMALL},
    {"GEM_INFO GET_METADATA bad pointer rejected with EFAULT", F_INFO_METADATA,
     0, 0, GP_META, GV_BAD, MSM_INFO_GET_METADATA, 16, 0, EFAULT},
    /* one page more than the whole a2xx gpummu window */
    {"GEM_INFO GET_IOVA of a BO larger than the GPU VA rejected with ENOSPC",
     F_ALWAYS, A2XX_VA_SIZE + 4096, 0, GP_NONE, GV_ZERO, MSM_INFO_GET_IOVA, 0,
     0, ENOSPC},
};

static int gem_info_raw(uint32_t handle, uint32_t info, uint64_t value,
                        uint32_t len, uint32_t pad, uint32_t *len_out)
{
    /* every field, in the order of the struct */
    struct drm_msm_gem_info a = {handle, info, value, len, pad};
    int r = xioctl(g_fd, DRM_IOCTL_MSM_GEM_INFO, &a);

    if (len_out) {
        *len_out = a.len;
    }
    return r;
}

static int c_gem_info_neg(unsigned long i, char *why)
{
    const struct gem_info_case *c = &gem_info_neg[i];
    uint64_t size = c->bo_size ? c->bo_size : 4096;
    uint64_t value[] = {[GV_ZERO] = 0, [GV_IOVA] = 0x02000000};
    int ret = 0, err = c->err;
    uint32_t h = 0;
    char buf[160];

    NEED_FEAT(c->feat);
    memset(buf, 'm', sizeof(buf));
    value[GV_BUF] = (uintptr_t)buf;
    value[GV_BAD] = (uintptr_t)g_badptr;
    if (c->info == MSM_INFO_GET_NAME && !feat_have(F_GET_NAME_ETOOSMALL)) {
        err = EINVAL;
    }
    EXPECT(gem_new(g_fd, size, MSM_BO_WC, &h), 0, "GEM_NEW");
    if (c->pre == GP_NAME) {
        EXPECT_OUT(gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t) "patchbay", 8,
                                0, NULL),
                   0, "SET_NAME patchbay");
    } else if (c->pre == GP_META) {
        EXPECT_OUT(
            gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)buf, 16, 0, NULL),
            0, "SET_METADATA 16 bytes");
    }
    EXPECT_OUT(gem_info_raw(h + c->handle_delta, c->info, value[c->value],
                            c->len, c->pad, NULL),
               err, "GEM_INFO");
out:
    gem_close(g_fd, h);
    return ret;
}

/* an info a newer driver added is an unknown one here */
static int c_gem_info_unknown(unsigned long info, char *why)
{
    uint32_t h = 0;
    int ret = 0;

    EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
    EXPECT_OUT(gem_info_raw(h, (uint32_t)info, 0, 0, 0, NULL), EINVAL,
               "GEM_INFO");
out:
    gem_close(g_fd, h);
    return ret;
}

static int c_gem_info_offset_iova(unsigned long arg, char *why)
{
    struct bo a = {0}, b = {0};
    uint64_t iova2 = 0;
    int ret = 0;

    (void)arg;
    MAKE_BO(&a, g_fd, 8192, MSM_BO_WC);
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    if (a.offset == 0 || a.offset % 4096 || a.offset == b.offset) {
        FAIL_OUT(
            "mmap offsets 0x%llx / 0x%llx: expected distinct, non-zero, page "
            "aligned",
            (unsigned long long)a.offset, (unsigned long long)b.offset);
    }
    if (a.iova < A2XX_VA_START ||
        a.iova + a.size > A2XX_VA_START + A2XX_VA_SIZE || a.iova % 4096) {
        FAIL_OUT("iova 0x%llx outside the a2xx window 0x%x..0x%x or unaligned",
                 (unsigned long long)a.iova, A2XX_VA_START,
                 A2XX_VA_START + A2XX_VA_SIZE);
    }
    if (!(b.iova >= a.iova + a.size || b.iova + b.size <= a.iova)) {
        FAIL_OUT("iovas overlap: 0x%llx+%u and 0x%llx+%u",
                 (unsigned long long)a.iova, a.size, (unsigned long long)b.iova,
                 b.size);
    }
    EXPECT_OUT(gem_info(g_fd, a.handle, MSM_INFO_GET_IOVA, &iova2), 0,
               "second GET_IOVA");
    if (iova2 != a.iova) {
        FAIL_OUT("GET_IOVA not stable: 0x%llx then 0x%llx",
                 (unsigned long long)a.iova, (unsigned long long)iova2);
    }
out:
    bo_free(&a);
    bo_free(&b);
    return ret;
}

/*
 * SET_NAME, then GET_NAME with the size query (value 0) and with a buffer.
 * which 0: "patchbay" comes back whole; 1: "ab\001cd" comes back as "ab",
 * the name stops at the first non-printable character.
 */
static int c_gem_info_name(unsigned long which, char *why)
{
    const char *in = which ? "ab\001cd" : "patchbay";
    const char *want = which ? "ab" : "patchbay";
    uint32_t h = 0, len = 0, n = (uint32_t)strlen(want);
    char buf[64];
    int ret = 0;

    EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
    EXPECT_OUT(
        gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t)in, strlen(in), 0, NULL),
        0, "SET_NAME");
    EXPECT_OUT(gem_info_raw(h, MSM_INFO_GET_NAME, 0, 0, 0, &len), 0,
               "GET_NAME size query");
    if (len != n) {
        FAIL_OUT("GET_NAME with value 0 returned len %u, expected %u", len, n);
    }
    memset(buf, 0, sizeof(buf));
    EXPECT_OUT(gem_info_raw(h, MSM_INFO_GET_NAME, (uintptr_t)buf, sizeof(buf),
                            0, &len),
               0, "GET_NAME");
    if (len != n || strcmp(buf, want)) {
        FAIL_OUT("GET_NAME gave \"%.*s\" len %u, expected \"%s\" %u", 32, buf,
                 len, want, n);
    }
    /* 31 characters fit (name[32] with the NUL) */
    if (which == 0) {
        EXPECT_OUT(gem_info_raw(h, MSM_INFO_SET_NAME,
                                (uintptr_t) "0123456789abcdefghijklmnopqrstu",
                                31, 0, NULL),
                   0, "SET_NAME of 31 characters");
    }
out:
    gem_close(g_fd, h);
    return ret;
}

/*
 * GET_NAME's len is the buffer size in bytes; the name is copied without
 * its NUL, so a buffer of exactly strlen(name) bytes is enough.
 */
static int c_gem_info_name_exact(unsigned long arg, char *why)
{
    uint32_t h = 0, len = 0;
    char buf[16];
    int ret = 0;

    (void)arg;
    memset(buf, 'm', sizeof(buf));
    EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
    EXPECT_OUT(
        gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t) "patchbay", 8, 0, NULL),
        0, "SET_NAME patchbay");
    EXPECT_OUT(gem_info_raw(h, MSM_INFO_GET_NAME, (uintptr_t)buf, 8, 0, &len),
               0, "GET_NAME with len 8");
    if (len != 8 || memcmp(buf, "patchbaym", 9)) {
        FAIL_OUT("GET_NAME gave \"%.9s\" len %u, expected \"patchbay\" "
                 "(no NUL) len 8",
                 buf, len);
    }
out:
    gem_close(g_fd, h);
    return ret;
}

static int c_gem_info_meta(unsigned long arg, char *why)
{
    uint8_t in[128], outb[128];
    uint32_t h = 0, len = 0;
    int ret = 0;

    (void)arg;
    NEED_FEAT(F_INFO_METADATA);
    for (unsigned i = 0; i < sizeof(in); i++) {
        in[i] = (uint8_t)(i * 7 + 3);
    }
    EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
    EXPECT_OUT(
        gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)in, 128, 0, NULL), 0,
        "SET_METADATA of 128 bytes");
    EXPECT_OUT(gem_info_raw(h, MSM_INFO_GET_METADATA, 0, 0, 0, &len), 0,
               "GET_METADATA size query");
    if (len != 128) {
        FAIL_OUT("size query returned %u, expected 128", len);
    }
    memset(outb, 0, sizeof(outb));
    EXPECT_OUT(
        gem_info_raw(h, MSM_INFO_GET_METADATA, (uintptr_t)outb, 128, 0, &len),
        0, "GET_METADATA");
    if (len != 128 || memcmp(in, outb, 128)) {
        FAIL_OUT("metadata differs after the round trip (len %u)", len);
    }
out:
    gem_close(g_fd, h);
    return ret;
}

/* ---- mmap ---- */

static int c_mmap_rw(unsigned long arg, char *why)
{
    struct bo b = {0};
    volatile uint32_t *m2 = NULL;
    int ret = 0;

    (void)arg;
    MAKE_BO(&b, g_fd, 8192, MSM_BO_WC);
    for (unsigned i = 0; i < 2048; i++) {
        if (b.map[i] != 0) {
            FAIL_OUT("new BO not zeroed: dword %u is 0x%08x", i, b.map[i]);
        }
    }
    for (unsigned i = 0; i < 2048; i++) {
        b.map[i] = 0x5a000000u ^ (i * 2654435761u);
    }
    m2 = mmap(NULL, 8192, PROT_READ, MAP_SHARED, g_fd, (off_t)b.offset);
    if (m2 == MAP_FAILED) {
        m2 = NULL;
        FAIL_OUT("second mmap: %s", strerror(errno));
    }
    for (unsigned i = 0; i < 2048; i++) {
        if (m2[i] != (0x5a000000u ^ (i * 2654435761u))) {
            FAIL_OUT("second mapping dword %u is 0x%08x", i, m2[i]);
        }
    }
out:
    if (m2) {
        munmap((void *)m2, 8192);
    }
    bo_free(&b);
    return ret;
}

/*
 * which 0: a mapping one page beyond the BO; 1: a mapping of the BO through
 * another open file of the node. Both must fail.
 */
static int c_mmap_rejected(unsigned long which, char *why)
{
    struct bo b = {0};
    int fd = g_fd, ret = 0;

    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    if (which == 0) {
        ret = mmap_rejected(fd, b.offset, 4096 + g_page, EINVAL,
                            "mmap beyond the BO succeeded", why);
        goto out;
    }
    fd = open(g_render, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        FAIL_OUT("open %s: %s", g_render, strerror(errno));
    }
    ret = mmap_rejected(fd, b.offset, 4096, EACCES,
                        "another file mapped this file's BO", why);
    close(fd);
out:
    bo_free(&b);
    return ret;
}

/* GEM_NEW, GEM_INFO and mmap */
void register_gem_cases(void)
{
    unsigned i;

    /* GEM_NEW: [2014] unknown flags, one case per bit */
    add_bits(c_gem_new_bit, MSM_BO_FLAGS, 0, "GEM_NEW flags");
    for (i = 0; i < ARRAY_SIZE(gem_new_bad_cache); i++) {
        kt_add(c_gem_new_cache, i,
               "GEM_NEW cache flags 0x%x rejected with EINVAL",
               gem_new_bad_cache[i]);
    }
    for (i = 0; i < ARRAY_SIZE(gem_new_good); i++) {
        kt_add(c_gem_new_good, i,
               feat_have(F_INFO_GET_FLAGS)
                   ? "GEM_NEW flags 0x%x accepted and reported by GET_FLAGS"
                   : "GEM_NEW flags 0x%x accepted",
               gem_new_good[i]);
    }
    kt_add(c_gem_new_size, 0, "GEM_NEW size 0 rejected with EINVAL");
    kt_add(c_gem_new_size, 1ULL << 32,
           "GEM_NEW size 2^32 (0 as u32) rejected with EINVAL");
    kt_add(c_gem_new_one_page, 1, "GEM_NEW size 1 accepted as one page");
    kt_add(c_gem_new_one_page, (1ULL << 32) + (unsigned long)g_page,
           "GEM_NEW size 2^32+PAGE_SIZE truncated to one page (6.12 u32 size)");
    kt_add(c_gem_close_twice, 0,
           "GEM_CLOSE of a closed handle rejected with EINVAL");

    /* GEM_INFO and mmap */
    for (i = 0; i < ARRAY_SIZE(gem_info_neg); i++) {
        if (gem_info_neg[i].info == MSM_INFO_GET_NAME &&
            !feat_have(F_GET_NAME_ETOOSMALL)) {
            kt_add(c_gem_info_neg, i,
                   "GEM_INFO GET_NAME buffer too small rejected with EINVAL "
                   "(ETOOSMALL from %s)",
                   feat_since(F_GET_NAME_ETOOSMALL));
        } else {
            kt_add(c_gem_info_neg, i, "%s", gem_info_neg[i].name);
        }
    }
    /* infos of a newer driver are unknown ones here */
    if (feat_state(F_INFO_GET_FLAGS) == FEAT_NO) {
        kt_add(c_gem_info_unknown, MSM_INFO_GET_FLAGS,
               "GEM_INFO info %u (GET_FLAGS, before %s) rejected with EINVAL",
               MSM_INFO_GET_FLAGS, feat_since(F_INFO_GET_FLAGS));
    }
    if (feat_state(F_INFO_METADATA) == FEAT_NO) {
        kt_add(
            c_gem_info_unknown, MSM_INFO_SET_METADATA,
            "GEM_INFO info %u (SET_METADATA, before %s) rejected with EINVAL",
            MSM_INFO_SET_METADATA, feat_since(F_INFO_METADATA));
        kt_add(
            c_gem_info_unknown, MSM_INFO_GET_METADATA,
            "GEM_INFO info %u (GET_METADATA, before %s) rejected with EINVAL",
            MSM_INFO_GET_METADATA, feat_since(F_INFO_METADATA));
    }
    kt_add(c_gem_info_offset_iova, 0,
           "GEM_INFO GET_OFFSET and GET_IOVA: aligned, in the a2xx VA window, "
           "stable, disjoint");
    kt_add(c_gem_info_name, 0,
           "GEM_INFO SET_NAME/GET_NAME round trip and size query");
    kt_add(c_gem_info_name, 1,
           "GEM_INFO SET_NAME stops at the first non-printable character");
    kt_add(c_gem_info_name_exact, 0,
           "GEM_INFO GET_NAME with len exactly strlen(name) accepted, the "
           "name copied without its NUL");
    kt_add(c_gem_info_meta, 0,
           "GEM_INFO SET_METADATA/GET_METADATA round trip of 128 bytes");
    kt_add(
        c_mmap_rw, 0,
        "mmap of a BO: zeroed, written data visible through a second mapping");
    kt_add(c_mmap_rejected, 0, "mmap beyond the BO size rejected with EINVAL");
    kt_add(c_mmap_rejected, 1,
           "mmap of a BO through another file rejected with EACCES");
}
