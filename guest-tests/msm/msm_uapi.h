/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_uapi.h - the part of the Linux 6.12 drm/msm and DRM core user ABI that
 * the msm guest suite uses, written down from include/uapi/drm/msm_drm.h and
 * include/uapi/drm/drm.h of 6.12 (layouts and values only).
 *
 * The cross toolchain's linux-libc-dev carries a 6.1-era msm_drm.h (no
 * MSM_PREP_BOOST, no MSM_WAIT_FENCE_BOOST, different MSM_BO_FLAGS), so the
 * suite keeps its own copy.  Every struct size is pinned with a static
 * assertion against the sizes measured on the 6.12 uapi; a layout slip here
 * would otherwise turn into confusing EFAULT/EINVAL results in the guest.
 *
 * The *_FLAGS masks here are 6.12's (msm 1.12).  An older driver knows
 * fewer bits; msm_main.c derives the running driver's masks from its
 * feature table (msm_feats[]) instead of using these for expectations.
 */
#ifndef PATCHBAY_MSM_UAPI_H
#define PATCHBAY_MSM_UAPI_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>

/* ---- DRM core (include/uapi/drm/drm.h) ---------------------------------- */

#define DRM_IOCTL_BASE   'd'
#define DRM_COMMAND_BASE 0x40
#define DRM_COMMAND_END  0xA0

struct drm_version {
    int version_major;
    int version_minor;
    int version_patchlevel;
    size_t name_len;
    char *name;
    size_t date_len;
    char *date;
    size_t desc_len;
    char *desc;
};

struct drm_gem_close {
    uint32_t handle;
    uint32_t pad;
};

struct drm_syncobj_create {
    uint32_t handle;
    uint32_t flags;
};
#define DRM_SYNCOBJ_CREATE_SIGNALED (1u << 0)

struct drm_syncobj_destroy {
    uint32_t handle;
    uint32_t pad;
};

struct drm_syncobj_wait {
    uint64_t handles;     /* pointer to an array of u32 handles */
    int64_t timeout_nsec; /* absolute CLOCK_MONOTONIC */
    uint32_t count_handles;
    uint32_t flags;
    uint32_t first_signaled;
    uint32_t pad;
    uint64_t deadline_nsec;
};
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL (1u << 0)

#define DRM_IOCTL_VERSION   _IOWR(DRM_IOCTL_BASE, 0x00, struct drm_version)
#define DRM_IOCTL_GEM_CLOSE _IOW(DRM_IOCTL_BASE, 0x09, struct drm_gem_close)
#define DRM_IOCTL_SYNCOBJ_CREATE \
    _IOWR(DRM_IOCTL_BASE, 0xBF, struct drm_syncobj_create)
#define DRM_IOCTL_SYNCOBJ_DESTROY \
    _IOWR(DRM_IOCTL_BASE, 0xC0, struct drm_syncobj_destroy)
#define DRM_IOCTL_SYNCOBJ_WAIT \
    _IOWR(DRM_IOCTL_BASE, 0xC3, struct drm_syncobj_wait)

/* ---- drm/msm (include/uapi/drm/msm_drm.h) -------------------------------- */

#define MSM_PIPE_NONE 0x00
#define MSM_PIPE_2D0  0x01
#define MSM_PIPE_2D1  0x02
#define MSM_PIPE_3D0  0x10

struct drm_msm_timespec {
    int64_t tv_sec;
    int64_t tv_nsec;
};

#define MSM_PARAM_GPU_ID           0x01
#define MSM_PARAM_GMEM_SIZE        0x02
#define MSM_PARAM_CHIP_ID          0x03
#define MSM_PARAM_MAX_FREQ         0x04
#define MSM_PARAM_TIMESTAMP        0x05
#define MSM_PARAM_GMEM_BASE        0x06
#define MSM_PARAM_PRIORITIES       0x07
#define MSM_PARAM_PP_PGTABLE       0x08
#define MSM_PARAM_FAULTS           0x09
#define MSM_PARAM_SUSPENDS         0x0a
#define MSM_PARAM_SYSPROF          0x0b
#define MSM_PARAM_COMM             0x0c
#define MSM_PARAM_CMDLINE          0x0d
#define MSM_PARAM_VA_START         0x0e
#define MSM_PARAM_VA_SIZE          0x0f
#define MSM_PARAM_HIGHEST_BANK_BIT 0x10
#define MSM_PARAM_RAYTRACING       0x11
#define MSM_PARAM_UBWC_SWIZZLE     0x12
#define MSM_PARAM_MACROTILE_MODE   0x13

struct drm_msm_param {
    uint32_t pipe;
    uint32_t param;
    uint64_t value;
    uint32_t len;
    uint32_t pad;
};

#define MSM_BO_SCANOUT         0x00000001
#define MSM_BO_GPU_READONLY    0x00000002
#define MSM_BO_CACHE_MASK      0x000f0000
#define MSM_BO_CACHED          0x00010000
#define MSM_BO_WC              0x00020000
#define MSM_BO_UNCACHED        0x00040000
#define MSM_BO_CACHED_COHERENT 0x00080000
#define MSM_BO_FLAGS \
    (MSM_BO_SCANOUT | MSM_BO_GPU_READONLY | MSM_BO_CACHE_MASK)

struct drm_msm_gem_new {
    uint64_t size;
    uint32_t flags;
    uint32_t handle;
};

#define MSM_INFO_GET_OFFSET   0x00
#define MSM_INFO_GET_IOVA     0x01
#define MSM_INFO_SET_NAME     0x02
#define MSM_INFO_GET_NAME     0x03
#define MSM_INFO_SET_IOVA     0x04
#define MSM_INFO_GET_FLAGS    0x05
#define MSM_INFO_SET_METADATA 0x06
#define MSM_INFO_GET_METADATA 0x07

struct drm_msm_gem_info {
    uint32_t handle;
    uint32_t info;
    uint64_t value;
    uint32_t len;
    uint32_t pad;
};

#define MSM_PREP_READ   0x01
#define MSM_PREP_WRITE  0x02
#define MSM_PREP_NOSYNC 0x04
#define MSM_PREP_BOOST  0x08
#define MSM_PREP_FLAGS \
    (MSM_PREP_READ | MSM_PREP_WRITE | MSM_PREP_NOSYNC | MSM_PREP_BOOST)

struct drm_msm_gem_cpu_prep {
    uint32_t handle;
    uint32_t op;
    struct drm_msm_timespec timeout;
};

struct drm_msm_gem_cpu_fini {
    uint32_t handle;
};

/* The kernel's field is called "or"; renamed so <iso646.h> cannot bite. */
struct drm_msm_gem_submit_reloc {
    uint32_t submit_offset;
    uint32_t or_value;
    int32_t shift;
    uint32_t reloc_idx;
    uint64_t reloc_offset;
};

#define MSM_SUBMIT_CMD_BUF             0x0001
#define MSM_SUBMIT_CMD_IB_TARGET_BUF   0x0002
#define MSM_SUBMIT_CMD_CTX_RESTORE_BUF 0x0003

struct drm_msm_gem_submit_cmd {
    uint32_t type;
    uint32_t submit_idx;
    uint32_t submit_offset;
    uint32_t size;
    uint32_t pad;
    uint32_t nr_relocs;
    uint64_t relocs;
};

#define MSM_SUBMIT_BO_READ        0x0001
#define MSM_SUBMIT_BO_WRITE       0x0002
#define MSM_SUBMIT_BO_DUMP        0x0004
#define MSM_SUBMIT_BO_NO_IMPLICIT 0x0008
#define MSM_SUBMIT_BO_FLAGS                                          \
    (MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP | \
     MSM_SUBMIT_BO_NO_IMPLICIT)

struct drm_msm_gem_submit_bo {
    uint32_t flags;
    uint32_t handle;
    uint64_t presumed;
};

#define MSM_SUBMIT_NO_IMPLICIT  0x80000000u
#define MSM_SUBMIT_FENCE_FD_IN  0x40000000u
#define MSM_SUBMIT_FENCE_FD_OUT 0x20000000u
#define MSM_SUBMIT_SUDO         0x10000000u
#define MSM_SUBMIT_SYNCOBJ_IN   0x08000000u
#define MSM_SUBMIT_SYNCOBJ_OUT  0x04000000u
#define MSM_SUBMIT_FENCE_SN_IN  0x02000000u
#define MSM_SUBMIT_FLAGS                                                 \
    (MSM_SUBMIT_NO_IMPLICIT | MSM_SUBMIT_FENCE_FD_IN |                   \
     MSM_SUBMIT_FENCE_FD_OUT | MSM_SUBMIT_SUDO | MSM_SUBMIT_SYNCOBJ_IN | \
     MSM_SUBMIT_SYNCOBJ_OUT | MSM_SUBMIT_FENCE_SN_IN)

#define MSM_SUBMIT_SYNCOBJ_RESET 0x00000001

struct drm_msm_gem_submit_syncobj {
    uint32_t handle;
    uint32_t flags;
    uint64_t point;
};

struct drm_msm_gem_submit {
    uint32_t flags;
    uint32_t fence;
    uint32_t nr_bos;
    uint32_t nr_cmds;
    uint64_t bos;
    uint64_t cmds;
    int32_t fence_fd;
    uint32_t queueid;
    uint64_t in_syncobjs;
    uint64_t out_syncobjs;
    uint32_t nr_in_syncobjs;
    uint32_t nr_out_syncobjs;
    uint32_t syncobj_stride;
    uint32_t pad;
};

#define MSM_WAIT_FENCE_BOOST 0x00000001
#define MSM_WAIT_FENCE_FLAGS MSM_WAIT_FENCE_BOOST

struct drm_msm_wait_fence {
    uint32_t fence;
    uint32_t flags;
    struct drm_msm_timespec timeout;
    uint32_t queueid;
};

#define MSM_MADV_WILLNEED 0
#define MSM_MADV_DONTNEED 1
#define __MSM_MADV_PURGED 2

struct drm_msm_gem_madvise {
    uint32_t handle;
    uint32_t madv;
    uint32_t retained;
};

#define MSM_SUBMITQUEUE_FLAGS 0

struct drm_msm_submitqueue {
    uint32_t flags;
    uint32_t prio;
    uint32_t id;
};

#define MSM_SUBMITQUEUE_PARAM_FAULTS 0

struct drm_msm_submitqueue_query {
    uint64_t data;
    uint32_t id;
    uint32_t param;
    uint32_t len;
    uint32_t pad;
};

#define DRM_MSM_GET_PARAM    0x00
#define DRM_MSM_SET_PARAM    0x01
#define DRM_MSM_GEM_NEW      0x02
#define DRM_MSM_GEM_INFO     0x03
#define DRM_MSM_GEM_CPU_PREP 0x04
#define DRM_MSM_GEM_CPU_FINI 0x05
#define DRM_MSM_GEM_SUBMIT   0x06
#define DRM_MSM_WAIT_FENCE   0x07
#define DRM_MSM_GEM_MADVISE  0x08
/* 0x09 was reserved for GEM_SVM_NEW and never filled in */
#define DRM_MSM_SUBMITQUEUE_NEW   0x0A
#define DRM_MSM_SUBMITQUEUE_CLOSE 0x0B
#define DRM_MSM_SUBMITQUEUE_QUERY 0x0C
#define DRM_MSM_NUM_IOCTLS        0x0D

#define DRM_MSM_IOWR(nr, type) \
    _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + (nr), type)
#define DRM_MSM_IOW(nr, type) \
    _IOW(DRM_IOCTL_BASE, DRM_COMMAND_BASE + (nr), type)

#define DRM_IOCTL_MSM_GET_PARAM \
    DRM_MSM_IOWR(DRM_MSM_GET_PARAM, struct drm_msm_param)
#define DRM_IOCTL_MSM_SET_PARAM \
    DRM_MSM_IOW(DRM_MSM_SET_PARAM, struct drm_msm_param)
#define DRM_IOCTL_MSM_GEM_NEW \
    DRM_MSM_IOWR(DRM_MSM_GEM_NEW, struct drm_msm_gem_new)
#define DRM_IOCTL_MSM_GEM_INFO \
    DRM_MSM_IOWR(DRM_MSM_GEM_INFO, struct drm_msm_gem_info)
#define DRM_IOCTL_MSM_GEM_CPU_PREP \
    DRM_MSM_IOW(DRM_MSM_GEM_CPU_PREP, struct drm_msm_gem_cpu_prep)
#define DRM_IOCTL_MSM_GEM_CPU_FINI \
    DRM_MSM_IOW(DRM_MSM_GEM_CPU_FINI, struct drm_msm_gem_cpu_fini)
#define DRM_IOCTL_MSM_GEM_SUBMIT \
    DRM_MSM_IOWR(DRM_MSM_GEM_SUBMIT, struct drm_msm_gem_submit)
#define DRM_IOCTL_MSM_WAIT_FENCE \
    DRM_MSM_IOW(DRM_MSM_WAIT_FENCE, struct drm_msm_wait_fence)
#define DRM_IOCTL_MSM_GEM_MADVISE \
    DRM_MSM_IOWR(DRM_MSM_GEM_MADVISE, struct drm_msm_gem_madvise)
#define DRM_IOCTL_MSM_SUBMITQUEUE_NEW \
    DRM_MSM_IOWR(DRM_MSM_SUBMITQUEUE_NEW, struct drm_msm_submitqueue)
#define DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE \
    DRM_MSM_IOW(DRM_MSM_SUBMITQUEUE_CLOSE, uint32_t)
#define DRM_IOCTL_MSM_SUBMITQUEUE_QUERY \
    DRM_MSM_IOW(DRM_MSM_SUBMITQUEUE_QUERY, struct drm_msm_submitqueue_query)

/*
 * Sizes measured with sizeof/offsetof against the 6.12 headers (aarch64,
 * LP64), so that a layout slip fails the build.
 */
_Static_assert(sizeof(struct drm_msm_timespec) == 16, "drm_msm_timespec");
_Static_assert(sizeof(struct drm_msm_param) == 24, "drm_msm_param");
_Static_assert(sizeof(struct drm_msm_gem_new) == 16, "drm_msm_gem_new");
_Static_assert(sizeof(struct drm_msm_gem_info) == 24, "drm_msm_gem_info");
_Static_assert(sizeof(struct drm_msm_gem_cpu_prep) == 24,
               "drm_msm_gem_cpu_prep");
_Static_assert(sizeof(struct drm_msm_gem_cpu_fini) == 4,
               "drm_msm_gem_cpu_fini");
_Static_assert(sizeof(struct drm_msm_gem_submit) == 72, "drm_msm_gem_submit");
_Static_assert(sizeof(struct drm_msm_gem_submit_cmd) == 32,
               "drm_msm_gem_submit_cmd");
_Static_assert(sizeof(struct drm_msm_gem_submit_bo) == 16,
               "drm_msm_gem_submit_bo");
_Static_assert(sizeof(struct drm_msm_gem_submit_reloc) == 24,
               "drm_msm_gem_submit_reloc");
_Static_assert(sizeof(struct drm_msm_gem_submit_syncobj) == 16,
               "drm_msm_gem_submit_syncobj");
_Static_assert(sizeof(struct drm_msm_wait_fence) == 32, "drm_msm_wait_fence");
_Static_assert(sizeof(struct drm_msm_gem_madvise) == 12, "drm_msm_gem_madvise");
_Static_assert(sizeof(struct drm_msm_submitqueue) == 12, "drm_msm_submitqueue");
_Static_assert(sizeof(struct drm_msm_submitqueue_query) == 24,
               "drm_msm_submitqueue_query");
_Static_assert(offsetof(struct drm_msm_gem_submit, fence_fd) == 32,
               "submit.fence_fd");
_Static_assert(offsetof(struct drm_msm_gem_submit, in_syncobjs) == 40,
               "submit.in_syncobjs");
_Static_assert(offsetof(struct drm_msm_gem_submit, pad) == 68, "submit.pad");
_Static_assert(offsetof(struct drm_msm_wait_fence, queueid) == 24,
               "wait_fence.queueid");
_Static_assert(offsetof(struct drm_msm_param, len) == 16, "param.len");
_Static_assert(sizeof(struct drm_gem_close) == 8, "drm_gem_close");
_Static_assert(sizeof(struct drm_syncobj_create) == 8, "drm_syncobj_create");
_Static_assert(sizeof(struct drm_syncobj_destroy) == 8, "drm_syncobj_destroy");
_Static_assert(sizeof(struct drm_syncobj_wait) == 40, "drm_syncobj_wait");
#if defined(__LP64__)
_Static_assert(sizeof(struct drm_version) == 64, "drm_version (LP64)");
#endif

/*
 * ---- PM4 for a2xx ----
 * Type 0 writes n registers from reg on; type 2 is a one-dword NOP; type 3
 * is opcode op with n payload dwords (the packets the emulated CP knows are
 * in docs/devices/agpu.md, "What is modelled").
 */
#define PM4_PKT0(reg, n) ((((uint32_t)(n)-1) << 16) | ((reg)&0x7fff))
#define PM4_PKT2         0x80000000u
#define PM4_PKT3(op, n) \
    (0xC0000000u | (((uint32_t)(n)-1) << 16) | ((uint32_t)(op) << 8))

#define CP_NOP                 0x10
#define CP_INDIRECT_BUFFER_PFD 0x37
#define CP_WAIT_REG_MEM        0x3c
#define CP_MEM_WRITE           0x3d
#define CP_REG_TO_MEM          0x3e

#define CP_REG_TO_MEM_CNT_SHIFT 18
#define WAIT_REG_MEM_FUNC_EQ    0x3
#define WAIT_REG_MEM_POLL_MEM   0x10

#define REG_AXXX_CP_SCRATCH_REG3 0x57b
#define REG_AXXX_CP_SCRATCH_REG4 0x57c

/* a2xx gpummu window (a2xx_gpu.c: a2xx_create_address_space()) */
#define A2XX_VA_START 0x01000000u
#define A2XX_VA_SIZE  (0xfffu * 0x10000u)

#endif /* PATCHBAY_MSM_UAPI_H */
