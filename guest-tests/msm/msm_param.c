/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_param.c - msm_ioctl's cases of the DRM core (version, card0, ioctl
 * numbers and types) and of GET_PARAM / SET_PARAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>

#include "msm_test.h"

/* ---- DRM core ---- */

static int c_version(unsigned long arg, char *why)
{
    struct drm_version v;
    char name[32];
    int r;

    (void)arg;
    r = drm_driver_name(g_fd, name, sizeof(name), &v);
    EXPECT(r, 0, "DRM_IOCTL_VERSION");
    if (strcmp(name, "msm") || v.name_len != 3) {
        return kt_fail(why, "name \"%s\" (len %zu), expected \"msm\" (3)", name,
                       v.name_len);
    }
    if (v.version_major != 1 || v.version_minor < MSM_MINOR_OLDEST ||
        v.version_minor > MSM_MINOR_NEWEST || v.version_patchlevel != 0) {
        return kt_fail(why,
                       "version %d.%d.%d, expected 1.%d.0 .. 1.%d.0 (6.1 .. "
                       "6.12): msm_feats[] knows no other",
                       v.version_major, v.version_minor, v.version_patchlevel,
                       MSM_MINOR_OLDEST, MSM_MINOR_NEWEST);
    }
    if (v.version_major != g_drv.major || v.version_minor != g_drv.minor) {
        return kt_fail(why, "version %d.%d, but %d.%d at start",
                       v.version_major, v.version_minor, g_drv.major,
                       g_drv.minor);
    }
    for (unsigned i = 0; i < ARRAY_SIZE(msm_release_minor); i++) {
        if (g_drv.krel == msm_release_minor[i].krel &&
            v.version_minor != msm_release_minor[i].minor) {
            return kt_fail(why,
                           "version 1.%d on Linux %s, expected 1.%d "
                           "(MSM_VERSION_* of that release)",
                           v.version_minor, g_drv.release,
                           msm_release_minor[i].minor);
        }
    }
    return 0;
}

static int c_card0(unsigned long arg, char *why)
{
    char name[32];
    int fd, r;

    (void)arg;
    fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return kt_fail(why, "open /dev/dri/card0: %s", strerror(errno));
    }
    r = drm_driver_name(fd, name, sizeof(name), NULL);
    close(fd);
    EXPECT(r, 0, "DRM_IOCTL_VERSION on card0");
    if (strcmp(name, "msm")) {
        return kt_fail(why, "card0 is driver \"%s\", expected msm", name);
    }
    return 0;
}

/* drm_ioctl(): a driver nr beyond num_ioctls, or a hole (no func): EINVAL. */
static int c_core_nr(unsigned long nr, char *why)
{
    uint8_t buf[32];

    memset(buf, 0, sizeof(buf));
    EXPECT(xioctl(g_fd, _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, buf), buf),
           EINVAL, "ioctl");
    return 0;
}

static int c_core_type(unsigned long arg, char *why)
{
    (void)arg;
    EXPECT(param_raw(_IOWR('x', DRM_COMMAND_BASE + DRM_MSM_GET_PARAM,
                           struct drm_msm_param),
                     MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 0, 0, 0),
           ENOTTY, "ioctl");
    return 0;
}

/* A caller built against the pre-"len" 16-byte struct: drm_ioctl zero-fills. */
static int c_short_param(unsigned long arg, char *why)
{
    struct {
        uint32_t pipe, param;
        uint64_t value;
    } p;

    (void)arg;
    memset(&p, 0, sizeof(p));
    p.pipe = MSM_PIPE_3D0;
    p.param = MSM_PARAM_GPU_ID;
    EXPECT(
        xioctl(g_fd,
               _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + DRM_MSM_GET_PARAM, p),
               &p),
        0, "GET_PARAM");
    if (p.value != A200_GPU_ID) {
        return kt_fail(why, "value %llu, expected %u",
                       (unsigned long long)p.value, A200_GPU_ID);
    }
    return 0;
}

/* ---- GET_PARAM / SET_PARAM ---- */

static const struct {
    const char *what;
    uint32_t param;
    uint64_t value;
    enum feat feat;
} get_param_pos[] = {
    {"GPU_ID is 200", MSM_PARAM_GPU_ID, A200_GPU_ID, F_ALWAYS},
    {"CHIP_ID is 0x02000000", MSM_PARAM_CHIP_ID, A200_CHIP_ID, F_ALWAYS},
    {"GMEM_SIZE is 256 KiB", MSM_PARAM_GMEM_SIZE, A200_GMEM, F_ALWAYS},
    {"GMEM_BASE is 0x100000", MSM_PARAM_GMEM_BASE, A200_GMEM_BASE, F_ALWAYS},
    {"MAX_FREQ is 200 MHz", MSM_PARAM_MAX_FREQ, A200_MAX_FREQ, F_ALWAYS},
    {"PRIORITIES is 3", MSM_PARAM_PRIORITIES, A200_PRIORITIES, F_ALWAYS},
    {"PP_PGTABLE is 0", MSM_PARAM_PP_PGTABLE, 0, F_ALWAYS},
    {"HIGHEST_BANK_BIT is 0", MSM_PARAM_HIGHEST_BANK_BIT, 0,
     F_PARAM_HIGHEST_BANK_BIT},
    {"RAYTRACING is 0", MSM_PARAM_RAYTRACING, 0, F_PARAM_RAYTRACING},
    {"UBWC_SWIZZLE is 0", MSM_PARAM_UBWC_SWIZZLE, 0, F_PARAM_UBWC_SWIZZLE},
    {"MACROTILE_MODE is 0", MSM_PARAM_MACROTILE_MODE, 0,
     F_PARAM_MACROTILE_MODE},
};

static int c_get_param_pos(unsigned long i, char *why)
{
    enum feat f = get_param_pos[i].feat;
    uint64_t v = 0xdeadbeefdeadbeefULL;
    int r;

    NEED_FEAT(f);
    r = get_param(g_fd, get_param_pos[i].param, &v);
    if (r == -EINVAL && feat_state(f) == FEAT_MAYBE) {
        return kt_skip(why,
                       "%s: EINVAL, absent: it came after msm 1.%u without a "
                       "version bump, Linux %u.%u has it, this is %s",
                       msm_feats[f].what, msm_feats[f].minor,
                       msm_feats[f].krel / 1000, msm_feats[f].krel % 1000,
                       g_drv.release);
    }
    EXPECT(r, 0, "GET_PARAM");
    if (v != get_param_pos[i].value) {
        return kt_fail(why, "value 0x%llx, expected 0x%llx",
                       (unsigned long long)v,
                       (unsigned long long)get_param_pos[i].value);
    }
    return 0;
}

/* a param a newer driver added is an unknown one here */
static int c_get_param_unknown(unsigned long param, char *why)
{
    uint64_t v = 0;

    EXPECT(get_param(g_fd, (uint32_t)param, &v), EINVAL, "GET_PARAM");
    return 0;
}

static int c_get_param_counter(unsigned long param, char *why)
{
    uint64_t a = ~0ULL, b = ~0ULL;

    EXPECT(get_param(g_fd, (uint32_t)param, &a), 0, "GET_PARAM");
    EXPECT(get_param(g_fd, (uint32_t)param, &b), 0, "GET_PARAM");
    if (a > 0xffffffffULL || b < a) {
        return kt_fail(why,
                       "values %llu then %llu: not a small monotonic counter",
                       (unsigned long long)a, (unsigned long long)b);
    }
    ktap_print_msg("param 0x%lx = %llu", param, (unsigned long long)a);
    return 0;
}

static const struct {
    const char *name;
    uint32_t pipe, param, len, pad;
} get_param_neg[] = {
    {"GET_PARAM pipe 0 (NONE) rejected with EINVAL", MSM_PIPE_NONE,
     MSM_PARAM_GPU_ID, 0, 0},
    {"GET_PARAM pipe 1 (2D0) rejected with EINVAL", MSM_PIPE_2D0,
     MSM_PARAM_GPU_ID, 0, 0},
    {"GET_PARAM pipe 2 (2D1) rejected with EINVAL", MSM_PIPE_2D1,
     MSM_PARAM_GPU_ID, 0, 0},
    {"GET_PARAM pipe 0x11 rejected with EINVAL", 0x11, MSM_PARAM_GPU_ID, 0, 0},
    {"GET_PARAM pipe 0x10010 rejected with EINVAL", 0x10010, MSM_PARAM_GPU_ID,
     0, 0},
    {"GET_PARAM pipe 0xffffffff rejected with EINVAL", 0xffffffff,
     MSM_PARAM_GPU_ID, 0, 0},
    {"GET_PARAM pad 1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 0,
     1},
    {"GET_PARAM pad 0x80000000 rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_GPU_ID, 0, 0x80000000},
    {"GET_PARAM len 8 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 8,
     0},
    {"GET_PARAM len 1 on FAULTS rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_FAULTS, 1, 0},
    {"GET_PARAM param 0 rejected with EINVAL", MSM_PIPE_3D0, 0, 0, 0},
    {"GET_PARAM param 0x14 (unknown) rejected with EINVAL", MSM_PIPE_3D0, 0x14,
     0, 0},
    {"GET_PARAM param 0xffffffff rejected with EINVAL", MSM_PIPE_3D0,
     0xffffffff, 0, 0},
    {"GET_PARAM TIMESTAMP (no get_timestamp on a2xx) rejected with EINVAL",
     MSM_PIPE_3D0, MSM_PARAM_TIMESTAMP, 0, 0},
    {"GET_PARAM VA_START (shared address space) rejected with EINVAL",
     MSM_PIPE_3D0, MSM_PARAM_VA_START, 0, 0},
    {"GET_PARAM VA_SIZE (shared address space) rejected with EINVAL",
     MSM_PIPE_3D0, MSM_PARAM_VA_SIZE, 0, 0},
    {"GET_PARAM SYSPROF (write-only) rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_SYSPROF, 0, 0},
    {"GET_PARAM COMM (write-only) rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_COMM, 0, 0},
    {"GET_PARAM CMDLINE (write-only) rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_CMDLINE, 0, 0},
};

static int c_get_param_neg(unsigned long i, char *why)
{
    EXPECT(param_raw(DRM_IOCTL_MSM_GET_PARAM, get_param_neg[i].pipe,
                     get_param_neg[i].param, 0, get_param_neg[i].len,
                     get_param_neg[i].pad),
           EINVAL, "GET_PARAM");
    return 0;
}

enum { V_LIT, V_BAD, V_STR };
#define LEN_PAGE  0xfffffffeu /* stands for PAGE_SIZE */
#define LEN_PAGE1 0xffffffffu /* stands for PAGE_SIZE + 1 */

static const struct {
    const char *name;
    uint32_t pipe, param;
    int vk; /* V_*: how value is made */
    uint64_t value;
    uint32_t len, pad;
    int err;
} set_param_cases[] = {
    {"SET_PARAM pipe 0 (NONE) rejected with EINVAL", 0, MSM_PARAM_SYSPROF,
     V_LIT, 0, 0, 0, EINVAL},
    {"SET_PARAM pipe 0x11 rejected with EINVAL", 0x11, MSM_PARAM_SYSPROF, V_LIT,
     0, 0, 0, EINVAL},
    {"SET_PARAM pad 1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF,
     V_LIT, 0, 0, 1, EINVAL},
    {"SET_PARAM GPU_ID (read-only) rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_GPU_ID, V_LIT, 200, 0, 0, EINVAL},
    {"SET_PARAM FAULTS (read-only) rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_FAULTS, V_LIT, 0, 0, 0, EINVAL},
    {"SET_PARAM param 0 rejected with EINVAL", MSM_PIPE_3D0, 0, V_LIT, 0, 0, 0,
     EINVAL},
    {"SET_PARAM param 0x14 (unknown) rejected with EINVAL", MSM_PIPE_3D0, 0x14,
     V_LIT, 0, 0, 0, EINVAL},
    {"SET_PARAM SYSPROF len 4 rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_SYSPROF, V_LIT, 0, 4, 0, EINVAL},
    {"SET_PARAM SYSPROF 3 rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_SYSPROF, V_LIT, 3, 0, 0, EINVAL},
    {"SET_PARAM SYSPROF 0xffffffff rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_SYSPROF, V_LIT, 0xffffffff, 0, 0, EINVAL},
    {"SET_PARAM COMM len PAGE_SIZE+1 rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_COMM, V_STR, 0, LEN_PAGE1, 0, EINVAL},
    {"SET_PARAM CMDLINE len PAGE_SIZE+1 rejected with EINVAL", MSM_PIPE_3D0,
     MSM_PARAM_CMDLINE, V_STR, 0, LEN_PAGE1, 0, EINVAL},
    {"SET_PARAM COMM bad pointer rejected with EFAULT", MSM_PIPE_3D0,
     MSM_PARAM_COMM, V_BAD, 0, 8, 0, EFAULT},
    {"SET_PARAM CMDLINE bad pointer rejected with EFAULT", MSM_PIPE_3D0,
     MSM_PARAM_CMDLINE, V_BAD, 0, 8, 0, EFAULT},
    {"SET_PARAM COMM \"patchbay-msm\" accepted", MSM_PIPE_3D0, MSM_PARAM_COMM,
     V_STR, 0, 12, 0, 0},
    {"SET_PARAM CMDLINE \"patchbay-msm\" accepted", MSM_PIPE_3D0,
     MSM_PARAM_CMDLINE, V_STR, 0, 12, 0, 0},
    {"SET_PARAM COMM len PAGE_SIZE accepted", MSM_PIPE_3D0, MSM_PARAM_COMM,
     V_STR, 0, LEN_PAGE, 0, 0},
    {"SET_PARAM SYSPROF 1 accepted", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 1,
     0, 0, 0},
    {"SET_PARAM SYSPROF 0 accepted", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 0,
     0, 0, 0},
};

static int c_set_param(unsigned long i, char *why)
{
    uint32_t len = set_param_cases[i].len;
    uint64_t value = 0;

    if (len == LEN_PAGE) {
        len = (uint32_t)g_page;
    } else if (len == LEN_PAGE1) {
        len = (uint32_t)g_page + 1;
    }
    switch (set_param_cases[i].vk) {
    case V_LIT:
        value = set_param_cases[i].value;
        break;
    case V_BAD:
        value = (uintptr_t)g_badptr;
        break;
    case V_STR:
        value = (uintptr_t)g_strbuf;
        break;
    }
    if (len == 12) {
        value = (uintptr_t) "patchbay-msm";
    }
    EXPECT(param_raw(DRM_IOCTL_MSM_SET_PARAM, set_param_cases[i].pipe,
                     set_param_cases[i].param, value, len,
                     set_param_cases[i].pad),
           set_param_cases[i].err, "SET_PARAM");
    return 0;
}

static int set_sysprof(uint64_t v)
{
    return param_raw(DRM_IOCTL_MSM_SET_PARAM, MSM_PIPE_3D0, MSM_PARAM_SYSPROF,
                     v, 0, 0);
}

static int child_sysprof(void *arg)
{
    (void)arg;
    return set_sysprof(1);
}

static int c_sysprof_eperm(unsigned long arg, char *why)
{
    int ret;

    (void)arg;
    ret = child_expect(CAP_SYS_ADMIN, child_sysprof, EPERM,
                       "SET_PARAM SYSPROF 1 without CAP_SYS_ADMIN", why);
    if (ret) { /* the child may have turned it on for the shared file */
        set_sysprof(0);
    }
    return ret;
}

/* DRM core and identity, then GET_PARAM / SET_PARAM */
void register_param_cases(void)
{
    unsigned i;

    /* DRM core and identity */
    if (g_drv.known) {
        kt_add(c_version, 0, "DRM VERSION of the render node is msm %d.%d.%d",
               g_drv.major, g_drv.minor, g_drv.patch);
    } else {
        kt_add(c_version, 0, "DRM VERSION of the render node is msm 1.%d.0",
               MSM_MINOR_NEWEST);
    }
    kt_add(c_card0, 0, "card0 is the msm primary node");
    kt_add(c_core_nr, 0x09,
           "DRM ioctl nr 0x%02x (the GEM_SVM_NEW hole) rejected with EINVAL",
           0x49);
    kt_add(
        c_core_nr, 0x0D,
        "DRM ioctl nr 0x%02x (one past SUBMITQUEUE_QUERY) rejected with EINVAL",
        0x4D);
    kt_add(c_core_nr, 0x5F,
           "DRM ioctl nr 0x%02x (last driver nr) rejected with EINVAL", 0x9F);
    kt_add(c_core_type, 0,
           "ioctl of type 'x' on the render node rejected with ENOTTY");
    kt_add(c_short_param, 0,
           "GET_PARAM with the 16-byte pre-len struct returns GPU_ID "
           "(zero-extended)");

    /* GET_PARAM / SET_PARAM */
    for (i = 0; i < ARRAY_SIZE(get_param_pos); i++) {
        kt_add(c_get_param_pos, i, "GET_PARAM %s", get_param_pos[i].what);
    }
    for (i = 0; i < ARRAY_SIZE(get_param_pos); i++) {
        if (feat_state(get_param_pos[i].feat) == FEAT_NO) {
            kt_add(c_get_param_unknown, get_param_pos[i].param,
                   "GET_PARAM param 0x%x (%s, before %s) rejected with EINVAL",
                   get_param_pos[i].param,
                   msm_feats[get_param_pos[i].feat].what + strlen("MSM_PARAM_"),
                   feat_since(get_param_pos[i].feat));
        }
    }
    kt_add(c_get_param_counter, MSM_PARAM_FAULTS, "GET_PARAM FAULTS readable");
    kt_add(c_get_param_counter, MSM_PARAM_SUSPENDS,
           "GET_PARAM SUSPENDS readable");
    for (i = 0; i < ARRAY_SIZE(get_param_neg); i++) {
        kt_add(c_get_param_neg, i, "%s", get_param_neg[i].name);
    }
    for (i = 0; i < ARRAY_SIZE(set_param_cases); i++) {
        kt_add(c_set_param, i, "%s", set_param_cases[i].name);
    }
    kt_add(c_sysprof_eperm, 0,
           "SET_PARAM SYSPROF without CAP_SYS_ADMIN rejected with EPERM");
}
