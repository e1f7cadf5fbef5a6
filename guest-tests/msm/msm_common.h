/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_common.h - what the msm guest programs (msm_ioctl, msm_irqlog,
 * msm_bench) share, in msm_common.c: finding the msm render node, raw
 * ioctls, buffer objects, submits and fences.
 */
#ifndef PATCHBAY_MSM_COMMON_H
#define PATCHBAY_MSM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "msm_uapi.h"

#define MSM_WAIT_FOR_NODE_MS 5000
#define NS_PER_SEC           1000000000LL

/* 0 on success, -errno on failure; restarted on EINTR like drmIoctl(). */
int xioctl(int fd, unsigned long req, void *arg);

/* CLOCK_MONOTONIC in ns: deadlines and timings finer than now_ms(). */
int64_t mono_ns(void);

/*
 * Absolute CLOCK_MONOTONIC deadline ms from now, as CPU_PREP and WAIT_FENCE
 * want it (msm_drv.h: timeout_to_jiffies()); ms < 0 gives {0, 0}, which is
 * in the past and so means "poll".
 */
struct drm_msm_timespec deadline_ms(int ms);

/* DRM_IOCTL_VERSION name of fd into buf (NUL-terminated); 0 or -errno. */
int drm_driver_name(int fd, char *buf, size_t len, struct drm_version *out);

/*
 * Open the first /dev/dri/renderD* whose driver is "msm", waiting up to
 * MSM_WAIT_FOR_NODE_MS for it to appear. Returns the fd, or -1 with a
 * reason in why.
 */
int msm_open_render(char *path, size_t pathlen, char *why, size_t whylen);

/* GET_PARAM of the 3D pipe; 0 or -errno. */
int get_param(int fd, uint32_t param, uint64_t *value);

/* ---- buffer objects ---- */

struct bo {
    int fd;
    uint32_t handle;
    uint32_t size;
    uint64_t iova;
    uint64_t offset;
    volatile uint32_t *map;
};

int gem_new(int fd, uint64_t size, uint32_t flags, uint32_t *handle);
int gem_close(int fd, uint32_t handle);
/* GEM_INFO with *value as input (NULL: 0), the result back in *value. */
int gem_info(int fd, uint32_t handle, uint32_t info, uint64_t *value);

/*
 * A BO with its GPU address and a shared CPU mapping. Every GPU-visible BO
 * must be MSM_BO_WC: on a2xx a CACHED BO gets no gpummu PTEs, so the GPU
 * cannot reach it (docs/suites/msm.md). Returns 0, or -1 with a reason in
 * why.
 */
int bo_make(struct bo *b, int fd, uint32_t size, uint32_t flags, char *why,
            size_t whylen);
void bo_free(struct bo *b);
/* Copy n dwords to byte offset off of the BO, then a full barrier. */
void bo_write(struct bo *b, uint32_t off, const uint32_t *dw, unsigned n);

/* ---- submits ---- */

struct sub {
    struct drm_msm_gem_submit s;
    struct drm_msm_gem_submit_bo bos[4];
    struct drm_msm_gem_submit_cmd cmds[4];
    struct drm_msm_gem_submit_syncobj in[2];
    struct drm_msm_gem_submit_syncobj out[2];
};

/* An empty submit to the 3D pipe of queue; the table pointers point at x. */
void sub_init(struct sub *x, uint32_t queue);
/* Append a bo or a cmd; returns its index. */
unsigned sub_bo(struct sub *x, uint32_t handle, uint32_t flags);
unsigned sub_cmd(struct sub *x, uint32_t type, uint32_t idx, uint32_t off,
                 uint32_t size);
int sub_do(int fd, struct sub *x);
/* sub_init() with one BUF cmd of size bytes at offset 0 of BO handle. */
void sub_one_ib(struct sub *x, uint32_t queue, uint32_t handle, uint32_t size);

/* WAIT_FENCE; ms < 0 polls. */
int wait_fence(int fd, uint32_t queue, uint32_t fence, int ms);
/* The same with WAIT_FENCE flags. */
int wait_fence_with(int fd, uint32_t queue, uint32_t fence, uint32_t flags,
                    int ms);

int queue_new(int fd, uint32_t prio, uint32_t *id);
int queue_close(int fd, uint32_t id);

#endif /* PATCHBAY_MSM_COMMON_H */
