/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_trace.c - the conversation between Mesa and the kernel, without
 * strace in the guest.
 *
 * The program defines ioctl() itself (exported with
 * --export-dynamic-symbol), so that libdrm's and Mesa's calls land here
 * first: in the child every msm GET_PARAM with its answer, every GEM_NEW,
 * SUBMITQUEUE_NEW and GEM_SUBMIT, and every failing DRM ioctl is printed,
 * and a count per ioctl at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm/drm.h>
#include <drm/msm_drm.h>

#include "mesa.h"
#include "mesa_trace.h"

#define DRM_NR_MAX 0x100

static struct {
    volatile bool on; /* in the child, while Mesa runs */
    unsigned int calls[DRM_NR_MAX];
    unsigned int errors[DRM_NR_MAX];
} ioc;

static const char *drm_nr_name(unsigned int nr)
{
    static const char *const msm[] = {
        "MSM_GET_PARAM",         "MSM_SET_PARAM",       "MSM_GEM_NEW",
        "MSM_GEM_INFO",          "MSM_GEM_CPU_PREP",    "MSM_GEM_CPU_FINI",
        "MSM_GEM_SUBMIT",        "MSM_WAIT_FENCE",      "MSM_GEM_MADVISE",
        "MSM_GEM_SVM_NEW",       "MSM_SUBMITQUEUE_NEW", "MSM_SUBMITQUEUE_CLOSE",
        "MSM_SUBMITQUEUE_QUERY",
    };
    static char buf[4][24];
    static unsigned int n;
    char *b;

    if (nr >= DRM_COMMAND_BASE && nr - DRM_COMMAND_BASE < ARRAY_SIZE(msm)) {
        return msm[nr - DRM_COMMAND_BASE];
    }
    switch (nr) {
    case 0x00:
        return "VERSION";
    case 0x01:
        return "GET_UNIQUE";
    case 0x02:
        return "GET_MAGIC";
    case 0x09:
        return "GEM_CLOSE";
    case 0x0a:
        return "GEM_FLINK";
    case 0x0b:
        return "GEM_OPEN";
    case 0x0c:
        return "GET_CAP";
    case 0x0d:
        return "SET_CLIENT_CAP";
    case 0x2d:
        return "PRIME_HANDLE_TO_FD";
    case 0x2e:
        return "PRIME_FD_TO_HANDLE";
    case 0xbf:
        return "SYNCOBJ_CREATE";
    case 0xc0:
        return "SYNCOBJ_DESTROY";
    case 0xc1:
        return "SYNCOBJ_HANDLE_TO_FD";
    case 0xc2:
        return "SYNCOBJ_FD_TO_HANDLE";
    case 0xc3:
        return "SYNCOBJ_WAIT";
    case 0xc4:
        return "SYNCOBJ_RESET";
    case 0xc5:
        return "SYNCOBJ_SIGNAL";
    }
    b = buf[__atomic_fetch_add(&n, 1, __ATOMIC_RELAXED) % 4];
    snprintf(b, sizeof(buf[0]), "DRM nr 0x%02x", nr);
    return b;
}

static const char *msm_param_name(unsigned int p)
{
    static const char *const names[] = {
        [MSM_PARAM_GPU_ID] = "GPU_ID",
        [MSM_PARAM_GMEM_SIZE] = "GMEM_SIZE",
        [MSM_PARAM_CHIP_ID] = "CHIP_ID",
        [MSM_PARAM_MAX_FREQ] = "MAX_FREQ",
        [MSM_PARAM_TIMESTAMP] = "TIMESTAMP",
        [MSM_PARAM_GMEM_BASE] = "GMEM_BASE",
        [MSM_PARAM_PRIORITIES] = "PRIORITIES",
        [MSM_PARAM_PP_PGTABLE] = "PP_PGTABLE",
        [MSM_PARAM_FAULTS] = "FAULTS",
        [MSM_PARAM_SUSPENDS] = "SUSPENDS",
        [MSM_PARAM_SYSPROF] = "SYSPROF",
        [MSM_PARAM_COMM] = "COMM",
        [MSM_PARAM_CMDLINE] = "CMDLINE",
        [MSM_PARAM_VA_START] = "VA_START",
        [MSM_PARAM_VA_SIZE] = "VA_SIZE",
        [0x10] = "HIGHEST_BANK_BIT",
        [0x11] = "RAYTRACING",
        [0x12] = "UBWC_SWIZZLE",
        [0x13] = "MACROTILE_MODE",
    };

    return p < ARRAY_SIZE(names) && names[p] ? names[p] : "?";
}

/* What one DRM ioctl did, into the diagnostics; counted per number. */
static void log_ioctl(unsigned long req, void *arg, long ret, int err)
{
    unsigned int nr = _IOC_NR(req);
    const char *res = ret < 0 ? strerror(err) : "0";

    __atomic_fetch_add(&ioc.calls[nr], 1, __ATOMIC_RELAXED);
    if (ret < 0) {
        __atomic_fetch_add(&ioc.errors[nr], 1, __ATOMIC_RELAXED);
    }
    if (req == DRM_IOCTL_MSM_GET_PARAM) {
        struct drm_msm_param *p = arg;

        diag("ioctl MSM_GET_PARAM %s (0x%x) -> %s, value %llu (0x%llx)",
             msm_param_name(p->param), p->param, res,
             (unsigned long long)p->value, (unsigned long long)p->value);
    } else if (req == DRM_IOCTL_MSM_GEM_NEW) {
        struct drm_msm_gem_new *p = arg;

        diag("ioctl MSM_GEM_NEW size %llu flags 0x%x -> %s, handle %u",
             (unsigned long long)p->size, p->flags, res, p->handle);
    } else if (req == DRM_IOCTL_MSM_SUBMITQUEUE_NEW) {
        struct drm_msm_submitqueue *p = arg;

        diag("ioctl MSM_SUBMITQUEUE_NEW flags 0x%x prio %u -> %s, id %u",
             p->flags, p->prio, res, p->id);
    } else if (req == DRM_IOCTL_MSM_GEM_SUBMIT) {
        struct drm_msm_gem_submit *p = arg;

        diag("ioctl MSM_GEM_SUBMIT flags 0x%x queue %u, %u cmds, %u bos -> %s, "
             "fence %u",
             p->flags, p->queueid, p->nr_cmds, p->nr_bos, res, p->fence);
    } else if (ret < 0) {
        diag("ioctl %s (0x%lx) -> %s", drm_nr_name(nr), req, res);
    }
}

/*
 * Every ioctl() of the process, libdrm's and Mesa's included: the
 * executable exports this symbol, which comes first in the lookup scope.
 */
int ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    void *arg;
    long ret;
    int err;

    va_start(ap, req);
    arg = va_arg(ap, void *);
    va_end(ap);
    ret = syscall(SYS_ioctl, fd, req, arg);
    if (!ioc.on || _IOC_TYPE(req) != DRM_IOCTL_BASE) {
        return ret;
    }
    err = ret < 0 ? errno : 0;
    log_ioctl(req, arg, ret, err);
    errno = err;
    return ret;
}

void trace_start(void)
{
    ioc.on = true;
}

void trace_stop(void)
{
    char line[WHY_LEN];
    int n = 0;

    ioc.on = false;
    for (unsigned int nr = 0; nr < DRM_NR_MAX; nr++) {
        if (!ioc.calls[nr]) {
            continue;
        }
        n += snprintf(line + n, sizeof(line) - n, "%s%s %u", n ? ", " : "",
                      drm_nr_name(nr), ioc.calls[nr]);
        if (ioc.errors[nr] && n < (int)sizeof(line)) {
            n += snprintf(line + n, sizeof(line) - n, " (%u failed)",
                          ioc.errors[nr]);
        }
        if (n >= (int)sizeof(line) - 40) {
            diag("ioctls: %s", line);
            n = 0;
        }
    }
    if (n) {
        diag("ioctls: %s", line);
    }
}
