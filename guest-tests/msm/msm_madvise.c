/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_madvise.c - msm_ioctl's cases of GEM_CPU_PREP / GEM_CPU_FINI and of
 * GEM_MADVISE, with a purge by the shrinker through debugfs.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kconfig.h"
#include "msm_test.h"

/* ---- CPU_PREP / CPU_FINI ---- */

static int c_cpu_prep_bit(unsigned long bit, char *why)
{
    NEED_FIX();
    EXPECT(cpu_prep(g_fd, g_nop.handle, 1u << bit, -1), EINVAL, "CPU_PREP");
    return 0;
}

#define PREP_ALL 0xffffffffu /* every op bit the driver knows */

static const struct {
    uint32_t op;
    enum feat feat;
} cpu_prep_good[] = {
    {0, F_ALWAYS},
    {MSM_PREP_READ, F_ALWAYS},
    {MSM_PREP_WRITE, F_ALWAYS},
    {MSM_PREP_READ | MSM_PREP_NOSYNC, F_ALWAYS},
    {MSM_PREP_WRITE | MSM_PREP_BOOST, F_PREP_BOOST},
    {PREP_ALL, F_ALWAYS},
};

static uint32_t cpu_prep_good_op(unsigned long i)
{
    return cpu_prep_good[i].op == PREP_ALL ? prep_flags() : cpu_prep_good[i].op;
}

static int c_cpu_prep_good(unsigned long i, char *why)
{
    struct bo b = {0};
    int ret = 0;

    NEED_FEAT(cpu_prep_good[i].feat);
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    EXPECT_OUT(cpu_prep(g_fd, b.handle, cpu_prep_good_op(i), 100), 0,
               "CPU_PREP");
out:
    bo_free(&b);
    return ret;
}

static int c_cpu_prep_handle(unsigned long op, char *why)
{
    NEED_FIX();
    EXPECT(cpu_prep(g_fd, g_nop.handle + 1000, (uint32_t)op, -1),
           op & ~prep_flags() ? EINVAL : ENOENT, "CPU_PREP");
    return 0;
}

static int c_cpu_fini(unsigned long bad, char *why)
{
    struct drm_msm_gem_cpu_fini f;

    NEED_FIX();
    f.handle = g_nop.handle + (bad ? 1000 : 0);
    EXPECT(xioctl(g_fd, DRM_IOCTL_MSM_GEM_CPU_FINI, &f), bad ? ENOENT : 0,
           "CPU_FINI");
    return 0;
}

/* ---- MADVISE ---- */

static int c_madvise_bad(unsigned long madv, char *why)
{
    NEED_FIX();
    EXPECT(madvise_bo(g_fd, g_nop.handle, (uint32_t)madv, NULL), EINVAL,
           "MADVISE");
    return 0;
}

static int c_madvise_handle(unsigned long madv, char *why)
{
    NEED_FIX();
    EXPECT(madvise_bo(g_fd, g_nop.handle + 1000, (uint32_t)madv, NULL),
           madv > 1 ? EINVAL : ENOENT, "MADVISE");
    return 0;
}

static int c_madvise_retained(unsigned long arg, char *why)
{
    struct bo b = {0};
    uint32_t ret1 = 0, ret2 = 0, ret3 = 0;
    int ret = 0;

    (void)arg;
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    b.map[0] = 1; /* give it pages */
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &ret1), 0,
               "WILLNEED");
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, &ret2), 0,
               "DONTNEED");
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &ret3), 0,
               "WILLNEED again");
    if (ret1 != 1 || ret2 != 1 || ret3 != 1) {
        FAIL_OUT("retained %u/%u/%u, expected 1/1/1", ret1, ret2, ret3);
    }
    if (b.map[0] != 1) {
        FAIL_OUT("contents lost without a purge");
    }
out:
    bo_free(&b);
    return ret;
}

static int c_madvise_submit(unsigned long arg, char *why)
{
    struct bo b = {0};
    struct sub x;
    int ret = 0;

    (void)arg;
    NEED_FIX();
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, NULL), 0,
               "DONTNEED");
    sub_base(&x, 0);
    sub_bo(&x, b.handle, MSM_SUBMIT_BO_READ);
    EXPECT_OUT(sub_try(g_fd, &x), EBUSY, "SUBMIT with a DONTNEED BO");
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, NULL), 0,
               "WILLNEED");
    sub_base(&x, 0);
    sub_bo(&x, b.handle, MSM_SUBMIT_BO_READ);
    if (sub_run(g_fd, &x, "SUBMIT after WILLNEED", why)) {
        BAIL_OUT();
    }
out:
    bo_free(&b);
    return ret;
}

static sigjmp_buf g_sigbus_jmp;

static void on_sigbus(int sig)
{
    (void)sig;
    siglongjmp(g_sigbus_jmp, 1);
}

/* Read one byte at p: true if that raised SIGBUS. */
static bool read_gets_sigbus(volatile const uint8_t *p)
{
    struct sigaction sa = {.sa_handler = on_sigbus}, old;
    volatile bool sigbus = false;

    sigaction(SIGBUS, &sa, &old);
    if (sigsetjmp(g_sigbus_jmp, 1) == 0) {
        (void)*p;
    } else {
        sigbus = true;
    }
    sigaction(SIGBUS, &old, NULL);
    return sigbus;
}

/*
 * Userspace told the kernel it does not need the BO's pages, then touches a
 * page of its mapping that was never faulted in: msm_gem_fault() refuses it
 * with SIGBUS. A kernel warning on the way fails the run: a state that any
 * process with the render node can reach is no kernel bug to WARN about
 * (kernel-patches/0002).
 */
static int c_madvise_fault(unsigned long arg, char *why)
{
    struct bo b = {0};
    int ret = 0;

    (void)arg;
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, NULL), 0,
               "DONTNEED");
    if (!read_gets_sigbus((volatile const uint8_t *)b.map)) {
        FAIL_OUT("reading the never-faulted mapping of a DONTNEED BO gave no "
                 "SIGBUS");
    }
out:
    bo_free(&b);
    return ret;
}

/* purge through debugfs "shrink" (msm_debugfs.c) */
static struct {
    int state;
    char why[KT_WHY_LEN];
    uint32_t handle;
} g_purge;

static int c_purge_retained(unsigned long arg, char *why)
{
    struct bo b = {0};
    uint32_t retained = 0;
    const char *lack;
    int ret = 0, r;

    (void)arg;
    g_purge.state = -1;
    snprintf(g_purge.why, KT_WHY_LEN, "purge setup failed");
    /* the "shrink" knob is in debugfs: a kernel without it has none */
    lack = kconfig_lacks("CONFIG_DEBUG_FS");
    if (lack || !g_dbg[0] || access(g_dbg, F_OK)) {
        g_purge.state = 1;
        if (lack) {
            snprintf(g_purge.why, KT_WHY_LEN, "%s", lack);
        } else {
            snprintf(g_purge.why, KT_WHY_LEN,
                     "no debugfs dir for the device (%s)",
                     g_dbg[0] ? g_dbg : "debugfs not mounted");
        }
        return kt_skip(why, "%s", g_purge.why);
    }
    MAKE_BO(&b, g_fd, 4096, MSM_BO_WC);
    b.map[0] = 0x12345678; /* pages, sgt */
    munmap((void *)b.map, b.size);
    b.map = NULL;
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, &retained), 0,
               "DONTNEED");
    r = dbg_write("shrink", 1000000);
    if (r) {
        FAIL_OUT("write %s/shrink: %s", g_dbg, strerror(-r));
    }
    EXPECT_OUT(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &retained), 0,
               "WILLNEED");
    if (retained != 0) {
        FAIL_OUT("retained %u after the shrinker ran, expected 0 (purged)",
                 retained);
    }
    g_purge.state = 0;
    g_purge.handle = b.handle;
    b.handle = 0; /* keep it for the next two cases */
out:
    bo_free(&b);
    return ret;
}

#define NEED_PURGE()                                \
    do {                                            \
        if (g_purge.state == 1) {                   \
            return kt_skip(why, "%s", g_purge.why); \
        }                                           \
        if (g_purge.state != 0) {                   \
            return kt_fail(why, "%s", g_purge.why); \
        }                                           \
    } while (0)

static int c_purge_submit(unsigned long arg, char *why)
{
    struct sub x;

    (void)arg;
    NEED_PURGE();
    NEED_FIX();
    sub_base(&x, 0);
    sub_bo(&x, g_purge.handle, MSM_SUBMIT_BO_READ);
    return sub_expect(&x, EBUSY, why);
}

static int c_purge_dontneed(unsigned long arg, char *why)
{
    uint32_t retained = 7;
    int r;

    (void)arg;
    NEED_PURGE();
    r = madvise_bo(g_fd, g_purge.handle, MSM_MADV_DONTNEED, &retained);
    gem_close(g_fd, g_purge.handle);
    EXPECT(r, 0, "DONTNEED");
    if (retained != 0) {
        return kt_fail(why, "retained %u, expected 0 (purge is one-way)",
                       retained);
    }
    return 0;
}

/* CPU_PREP / CPU_FINI */
void register_cpu_prep_cases(void)
{
    unsigned i;

    /* CPU_PREP / CPU_FINI: [2014] unknown op bits */
    add_bits(c_cpu_prep_bit, prep_flags(), 0, "GEM_CPU_PREP op");
    for (i = 0; i < ARRAY_SIZE(cpu_prep_good); i++) {
        kt_add(c_cpu_prep_good, i,
               "GEM_CPU_PREP op 0x%x on an idle BO accepted",
               cpu_prep_good_op(i));
    }
    kt_add(c_cpu_prep_handle, MSM_PREP_READ,
           "GEM_CPU_PREP unknown handle rejected with ENOENT");
    kt_add(c_cpu_prep_handle, 0x10,
           "GEM_CPU_PREP op 0x10 on an unknown handle rejected with EINVAL (op "
           "checked first)");
    kt_add(c_cpu_fini, 1, "GEM_CPU_FINI unknown handle rejected with ENOENT");
    kt_add(c_cpu_fini, 0, "GEM_CPU_FINI on a BO accepted");
}

/* MADVISE and purge */
void register_madvise_cases(void)
{
    /* MADVISE */
    kt_add(c_madvise_bad, __MSM_MADV_PURGED,
           "GEM_MADVISE madv 2 (PURGED, internal) rejected with EINVAL");
    kt_add(c_madvise_bad, 3, "GEM_MADVISE madv 3 rejected with EINVAL");
    kt_add(c_madvise_bad, 0xffffffff,
           "GEM_MADVISE madv 0xffffffff rejected with EINVAL");
    kt_add(c_madvise_handle, MSM_MADV_WILLNEED,
           "GEM_MADVISE unknown handle rejected with ENOENT");
    kt_add(c_madvise_handle, 2,
           "GEM_MADVISE madv 2 on an unknown handle rejected with EINVAL (madv "
           "checked first)");
    kt_add(c_madvise_retained, 0,
           "GEM_MADVISE WILLNEED/DONTNEED/WILLNEED report retained 1");
    kt_add(c_madvise_submit, 0,
           "SUBMIT with a DONTNEED BO rejected with EBUSY, accepted again "
           "after WILLNEED");
    kt_add(c_madvise_fault, 0,
           "GEM mmap of a DONTNEED BO: a first touch gets SIGBUS");
    kt_add(c_purge_retained, 0,
           "GEM_MADVISE WILLNEED after the shrinker purged a DONTNEED BO "
           "reports retained 0");
    kt_add(c_purge_submit, 0, "SUBMIT with a purged BO rejected with EBUSY");
    kt_add(c_purge_dontneed, 0,
           "GEM_MADVISE DONTNEED on a purged BO reports retained 0");
}
