/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_ioctl - the drm/msm ioctls of Linux 6.12 on the emulated Adreno 200.
 *
 * Above all this checks the input validation that commit 93ddb0d3b022
 * ("drm/msm: validate flags, etc") introduced and 6.12 still has: unknown
 * GEM_NEW flags, CPU_PREP op bits, WAIT_FENCE flags (the pad check of 2014,
 * replaced by a flags check in MSM 1.11), SUBMIT bo flags and SUBMIT cmd
 * types are rejected with EINVAL. Every unknown bit of each mask is its own
 * case, each on an otherwise valid call, so a kernel without one of those
 * checks fails exactly that group. Around them: every other check of the
 * ioctls reachable on a2xx (docs/suites/msm.md lists them, as read from the
 * 6.12 source), and positive cases that make the GPU execute the test's own
 * PM4 (CP_MEM_WRITE, CP_REG_TO_MEM, CP_WAIT_REG_MEM, IB2, relocs), fences,
 * queues, fence fds, syncobjs, madvise/purge, runtime suspend and a real
 * hang with hangcheck recovery.
 *
 * Sources of the expectations (6.12): msm_drv.c (the ioctl entry points),
 * msm_gem.c, msm_gem_submit.c, msm_submitqueue.c, msm_gpu.c
 * (recover_worker, hangcheck_handler), adreno/adreno_gpu.c (get/set_param),
 * adreno/a2xx_gpu.c (a2xx_submit), drm_ioctl.c, drm_gem.c, drm_syncobj.c.
 *
 * This file has main(), the global state and the NOP fixture, and what the
 * running driver offers: older kernels (6.1: msm 1.9.0) have less uapi,
 * msm_feats[] says which driver version brought what, and the cases adapt.
 * The cases are in msm_param.c, msm_gem.c, msm_madvise.c, msm_fence.c,
 * msm_submit.c, msm_exec.c and msm_hang.c, their helpers in msm_util.c.
 *
 * Run as root (SYSPROF and the debugfs knobs need it; the cases that need a
 * capability to be absent drop it in a child). If no msm render node shows
 * up within 5 s, every case fails with that reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "msm_test.h"

/* ---- what the running driver offers ---- */

/*
 * The msm uapi grew between the kernels patchbay boots: 6.1 has msm 1.9.0,
 * 6.12 has 1.12.0 (msm_drv.c's header lists what each minor version added).
 * One row per difference the suite meets.  A case of an interface the
 * running driver lacks skips, naming the version; a flag bit it lacks is an
 * unknown bit there and must be rejected with EINVAL like any other, so the
 * per-bit loops take the driver's masks (prep_flags() etc.) from here.
 */
const struct msm_feat msm_feats[F_COUNT] = {
    [F_ALWAYS] = {"", 0, 0, false},
    /* the drm/msm pull for 6.2, no bump: 1.9 of 6.1 has no GET_FLAGS */
    [F_INFO_GET_FLAGS] = {"MSM_INFO_GET_FLAGS", 9, KREL(6, 2), true},
    [F_SUBMIT_BO_NO_IMPLICIT] = {"MSM_SUBMIT_BO_NO_IMPLICIT", 10, 0, false},
    [F_PREP_BOOST] = {"MSM_PREP_BOOST", 11, 0, false},
    /* before 1.11 the field was "pad" and had to be 0 */
    [F_WAIT_FENCE_BOOST] = {"MSM_WAIT_FENCE_BOOST", 11, 0, false},
    [F_INFO_METADATA] = {"MSM_INFO_SET_METADATA/GET_METADATA", 12, 0, false},
    /* the metadata commit turned GET_NAME's "too small" EINVAL into this */
    [F_GET_NAME_ETOOSMALL] = {"ETOOSMALL for a too small GET_NAME buffer", 12,
                              0, false},
    /*
     * Added after the 1.12.0 bump with none of their own: 1.9 (6.1) has
     * none, 1.12 of 6.12 has all four; a 1.12 kernel older than 6.12 may
     * lack some, so there an EINVAL counts as absent (FEAT_MAYBE).
     */
    [F_PARAM_HIGHEST_BANK_BIT] = {"MSM_PARAM_HIGHEST_BANK_BIT", 12, KREL(6, 12),
                                  false},
    [F_PARAM_RAYTRACING] = {"MSM_PARAM_RAYTRACING", 12, KREL(6, 12), false},
    [F_PARAM_UBWC_SWIZZLE] = {"MSM_PARAM_UBWC_SWIZZLE", 12, KREL(6, 12), false},
    [F_PARAM_MACROTILE_MODE] = {"MSM_PARAM_MACROTILE_MODE", 12, KREL(6, 12),
                                false},
};

/* The msm version MSM_VERSION_* of a release, where the two are pinned. */
const struct msm_release_minor msm_release_minor[2] = {
    {KREL(6, 1), 9},
    {KREL(6, 12), 12},
};

struct msm_driver g_drv;

enum feat_state feat_state(enum feat f)
{
    unsigned minor = g_drv.known ? (unsigned)g_drv.minor : MSM_MINOR_NEWEST;

    if (minor < msm_feats[f].minor) {
        return FEAT_NO;
    }
    /* a later bump came after it; otherwise the release decides */
    if (!msm_feats[f].krel || minor > msm_feats[f].minor ||
        g_drv.krel >= msm_feats[f].krel) {
        return FEAT_YES;
    }
    return msm_feats[f].krel_first ? FEAT_NO : FEAT_MAYBE;
}

bool feat_have(enum feat f)
{
    return feat_state(f) == FEAT_YES;
}

const char *feat_lacks(enum feat f)
{
    static char buf[200];

    if (feat_state(f) != FEAT_NO) {
        return NULL;
    }
    if (g_drv.minor >= (int)msm_feats[f].minor) { /* krel_first decided */
        snprintf(buf, sizeof(buf),
                 "%s needs Linux %u.%u (it came without a version bump), the "
                 "kernel is %s with msm %d.%d",
                 msm_feats[f].what, msm_feats[f].krel / 1000,
                 msm_feats[f].krel % 1000, g_drv.release, g_drv.major,
                 g_drv.minor);
    } else {
        snprintf(
            buf, sizeof(buf), "%s needs msm 1.%u, the kernel's driver is %d.%d",
            msm_feats[f].what, msm_feats[f].minor, g_drv.major, g_drv.minor);
    }
    return buf;
}

const char *feat_since(enum feat f)
{
    static char buf[32];

    if (msm_feats[f].krel && g_drv.minor >= (int)msm_feats[f].minor) {
        snprintf(buf, sizeof(buf), "Linux %u.%u", msm_feats[f].krel / 1000,
                 msm_feats[f].krel % 1000);
    } else {
        snprintf(buf, sizeof(buf), "msm 1.%u", msm_feats[f].minor);
    }
    return buf;
}

uint32_t prep_flags(void)
{
    return MSM_PREP_READ | MSM_PREP_WRITE | MSM_PREP_NOSYNC |
           (feat_have(F_PREP_BOOST) ? MSM_PREP_BOOST : 0);
}

uint32_t wait_fence_flags(void)
{
    return feat_have(F_WAIT_FENCE_BOOST) ? MSM_WAIT_FENCE_BOOST : 0;
}

uint32_t submit_bo_flags(void)
{
    return MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP |
           (feat_have(F_SUBMIT_BO_NO_IMPLICIT) ? MSM_SUBMIT_BO_NO_IMPLICIT : 0);
}

/* g_drv from uname and DRM_IOCTL_VERSION of fd. */
static void driver_version_init(int fd)
{
    struct drm_version v;
    struct utsname u;
    unsigned a, b;
    char name[32];

    if (uname(&u) == 0) {
        snprintf(g_drv.release, sizeof(g_drv.release), "%s", u.release);
        if (sscanf(u.release, "%u.%u", &a, &b) == 2) {
            g_drv.krel = KREL(a, b);
        }
    }
    if (drm_driver_name(fd, name, sizeof(name), &v) == 0) {
        g_drv.major = v.version_major;
        g_drv.minor = v.version_minor;
        g_drv.patch = v.version_patchlevel;
        /* another major would be another uapi: c_version fails it */
        g_drv.known = v.version_major == 1;
    }
}

/* ---- global state ---- */

int g_fd = -1;
char g_render[64];
long g_page;
char g_dbg[160];
void *g_badptr;
uint8_t *g_edge;
char *g_strbuf;

struct bo g_nop;
int g_fix_ok;
char g_fix_why[KT_WHY_LEN];
const uint32_t nop3[3] = {PM4_PKT3(CP_NOP, 2), 0, 0};

/* non-empty: why every case fails */
static char g_nodev[KT_WHY_LEN];

static void fixture_init(void)
{
    /* obj->size is PAGE_ALIGNed: make the BO exactly one CPU page (>= 4 KiB) */
    uint32_t size = g_page > 4096 ? (uint32_t)g_page : 4096;

    if (bo_make(&g_nop, g_fd, size, MSM_BO_WC, g_fix_why, KT_WHY_LEN)) {
        return;
    }
    bo_write(&g_nop, 0, nop3, ARRAY_SIZE(nop3));
    g_fix_ok = 1;
}

/* ---- registration ---- */

/* The GPU cases: their gpu_fn and BO sizes, indexed by the case's arg. */
static struct gpu_case {
    gpu_fn fn;
    unsigned long arg;
    uint32_t cmd_size, dst_flags;
} g_gpu_cases[64];
static unsigned g_ngpu;

static int run_gpu_case(unsigned long i, char *why)
{
    const struct gpu_case *c = &g_gpu_cases[i];

    return with_pair(c->fn, c->arg, c->cmd_size, c->dst_flags, why);
}

void add_gpu(gpu_fn fn, unsigned long arg, uint32_t cmd_size,
             uint32_t dst_flags, const char *fmt, ...)
{
    char name[KT_NAME_LEN];
    va_list ap;

    if (g_ngpu >= ARRAY_SIZE(g_gpu_cases)) {
        fprintf(stderr, "msm_ioctl: too many GPU cases\n");
        exit(2);
    }
    g_gpu_cases[g_ngpu] = (struct gpu_case){fn, arg, cmd_size, dst_flags};
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    kt_add(run_gpu_case, g_ngpu++, "%s", name);
}

void add_bits(kt_case_fn fn, uint32_t mask, unsigned from, const char *what)
{
    for (unsigned b = from; b < 32; b++) {
        if (!(mask & (1u << b))) {
            kt_add(fn, b, "%s bit %u (0x%x) rejected with EINVAL", what, b,
                   1u << b);
        }
    }
}

/* ---- main ---- */

static void find_debugfs(void)
{
    struct stat sb;
    char p[160];

    if (fstat(g_fd, &sb)) {
        return;
    }
    snprintf(p, sizeof(p), "/sys/kernel/debug/dri/%u", minor(sb.st_rdev));
    if (access(p, F_OK)) {
        mkdir("/sys/kernel/debug", 0755);
        mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
    }
    if (access(p, F_OK) == 0) {
        snprintf(g_dbg, sizeof(g_dbg), "%s", p);
    }
}

/* Before the cases: the node found in main(), debugfs, the fixture. */
static int setup(char *why)
{
    uint64_t v = 0;
    int r;

    if (g_nodev[0]) {
        ktap_print_msg("%s", g_nodev);
        str_copy(why, g_nodev, KT_WHY_LEN);
        return KTAP_FAIL;
    }
    r = get_param(g_fd, MSM_PARAM_CHIP_ID, &v);
    find_debugfs();
    fixture_init();
    ktap_print_msg("%s: chip id 0x%llx (%s); debugfs %s; page size %ld",
                   g_render, (unsigned long long)v, r ? strerror(-r) : "ok",
                   g_dbg[0] ? g_dbg : "not available", g_page);
    ktap_print_msg("msm %d.%d.%d on Linux %s%s", g_drv.major, g_drv.minor,
                   g_drv.patch, g_drv.release,
                   g_drv.known ? "" : " (unknown: cases assume msm 1.12)");
    return KTAP_PASS;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_page = sysconf(_SC_PAGESIZE);

    g_badptr =
        mmap(NULL, g_page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    g_edge = mmap(NULL, 2 * g_page, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    g_strbuf = malloc(g_page + 2);
    if (g_badptr == MAP_FAILED || g_edge == MAP_FAILED || !g_strbuf ||
        mprotect(g_edge + g_page, g_page, PROT_NONE)) {
        snprintf(g_nodev, sizeof(g_nodev), "test setup: %s", strerror(errno));
    } else {
        memset(g_strbuf, 'p', g_page + 1);
        g_strbuf[g_page + 1] = 0;
        g_fd = msm_open_render(g_render, sizeof(g_render), g_nodev,
                               sizeof(g_nodev));
    }
    /* the cases depend on the driver's version: register them after */
    if (g_fd >= 0) {
        driver_version_init(g_fd);
    }
    register_param_cases();
    register_gem_cases();
    register_cpu_prep_cases();
    register_wait_fence_cases();
    register_madvise_cases();
    register_queue_cases();
    register_submit_cases();
    register_exec_cases();
    register_hang_cases();
    register_fault_cases();
    return kt_run(setup);
}
