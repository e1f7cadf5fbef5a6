/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_common.c - what the msm guest programs share (see msm_common.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "helpers.h"
#include "msm_common.h"

int xioctl(int fd, unsigned long req, void *arg)
{
    int r;

    do {
        r = ioctl(fd, req, arg);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : 0;
}

int64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

struct drm_msm_timespec deadline_ms(int ms)
{
    struct drm_msm_timespec t = {0, 0};
    int64_t ns;

    if (ms < 0) {
        return t;
    }
    ns = mono_ns() + (int64_t)ms * 1000000LL;
    t.tv_sec = ns / NS_PER_SEC;
    t.tv_nsec = ns % NS_PER_SEC;
    return t;
}

int drm_driver_name(int fd, char *buf, size_t len, struct drm_version *out)
{
    struct drm_version v = {.name = buf, .name_len = len - 1};
    int r;

    memset(buf, 0, len);
    r = xioctl(fd, DRM_IOCTL_VERSION, &v);
    if (r == 0 && out) {
        *out = v;
    }
    return r;
}

/* The fd of render node p if its driver is msm, else -1 and why in last. */
static int open_if_msm(const char *p, char *last, size_t lastlen)
{
    char name[32];
    int fd = open(p, O_RDWR | O_CLOEXEC), r;

    if (fd < 0) {
        if (errno != ENOENT) {
            snprintf(last, lastlen, "open %s: %s", p, strerror(errno));
        }
        return -1;
    }
    r = drm_driver_name(fd, name, sizeof(name), NULL);
    if (r == 0 && strcmp(name, "msm") == 0) {
        return fd;
    }
    snprintf(last, lastlen, "%s is driver \"%s\" (%s)", p, r == 0 ? name : "?",
             r == 0 ? "not msm" : strerror(-r));
    close(fd);
    return -1;
}

int msm_open_render(char *path, size_t pathlen, char *why, size_t whylen)
{
    long long end = now_ms() + MSM_WAIT_FOR_NODE_MS;
    char last[160] = "no /dev/dri/renderD* node";

    for (;;) {
        for (int minor = 128; minor < 192; minor++) {
            char p[64];
            int fd;

            snprintf(p, sizeof(p), "/dev/dri/renderD%d", minor);
            fd = open_if_msm(p, last, sizeof(last));
            if (fd >= 0) {
                snprintf(path, pathlen, "%s", p);
                return fd;
            }
        }
        if (now_ms() >= end) {
            break;
        }
        sleep_ms(50);
    }
    snprintf(why, whylen, "no msm render node after %d ms: %s",
             MSM_WAIT_FOR_NODE_MS, last);
    return -1;
}

int get_param(int fd, uint32_t param, uint64_t *value)
{
    struct drm_msm_param p = {.pipe = MSM_PIPE_3D0, .param = param};
    int r = xioctl(fd, DRM_IOCTL_MSM_GET_PARAM, &p);

    if (r == 0) {
        *value = p.value;
    }
    return r;
}

/* ---- buffer objects ---- */

int gem_new(int fd, uint64_t size, uint32_t flags, uint32_t *handle)
{
    struct drm_msm_gem_new a = {.size = size, .flags = flags};
    int r = xioctl(fd, DRM_IOCTL_MSM_GEM_NEW, &a);

    if (r == 0) {
        *handle = a.handle;
    }
    return r;
}

int gem_close(int fd, uint32_t handle)
{
    struct drm_gem_close a = {.handle = handle};

    return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
}

int gem_info(int fd, uint32_t handle, uint32_t info, uint64_t *value)
{
    struct drm_msm_gem_info a = {
        .handle = handle,
        .info = info,
        .value = value ? *value : 0,
    };
    int r = xioctl(fd, DRM_IOCTL_MSM_GEM_INFO, &a);

    if (r == 0 && value) {
        *value = a.value;
    }
    return r;
}

int bo_make(struct bo *b, int fd, uint32_t size, uint32_t flags, char *why,
            size_t whylen)
{
    void *p;
    int r;

    memset(b, 0, sizeof(*b));
    b->fd = fd;
    b->size = size;
    r = gem_new(fd, size, flags, &b->handle);
    if (r) {
        snprintf(why, whylen, "GEM_NEW(%u, 0x%x): %s", size, flags,
                 strerror(-r));
        return -1;
    }
    r = gem_info(fd, b->handle, MSM_INFO_GET_IOVA, &b->iova);
    if (!r) {
        r = gem_info(fd, b->handle, MSM_INFO_GET_OFFSET, &b->offset);
    }
    if (r) {
        snprintf(why, whylen, "GEM_INFO GET_IOVA/GET_OFFSET: %s", strerror(-r));
        return -1;
    }
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
             (off_t)b->offset);
    if (p == MAP_FAILED) {
        snprintf(why, whylen, "mmap of BO %u: %s", b->handle, strerror(errno));
        return -1;
    }
    b->map = p;
    return 0;
}

void bo_free(struct bo *b)
{
    if (b->map) {
        munmap((void *)b->map, b->size);
    }
    if (b->handle) {
        gem_close(b->fd, b->handle);
    }
    memset(b, 0, sizeof(*b));
}

void bo_write(struct bo *b, uint32_t off, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        b->map[off / 4 + i] = dw[i];
    }
    __sync_synchronize();
}

/* ---- submits ---- */

void sub_init(struct sub *x, uint32_t queue)
{
    memset(x, 0, sizeof(*x));
    x->s.flags = MSM_PIPE_3D0;
    x->s.queueid = queue;
    x->s.fence_fd = -1;
    x->s.bos = (uintptr_t)x->bos;
    x->s.cmds = (uintptr_t)x->cmds;
    x->s.in_syncobjs = (uintptr_t)x->in;
    x->s.out_syncobjs = (uintptr_t)x->out;
    x->s.syncobj_stride = sizeof(x->in[0]);
}

unsigned sub_bo(struct sub *x, uint32_t handle, uint32_t flags)
{
    unsigned i = x->s.nr_bos++;

    x->bos[i].handle = handle;
    x->bos[i].flags = flags;
    return i;
}

unsigned sub_cmd(struct sub *x, uint32_t type, uint32_t idx, uint32_t off,
                 uint32_t size)
{
    unsigned i = x->s.nr_cmds++;

    x->cmds[i].type = type;
    x->cmds[i].submit_idx = idx;
    x->cmds[i].submit_offset = off;
    x->cmds[i].size = size;
    return i;
}

int sub_do(int fd, struct sub *x)
{
    return xioctl(fd, DRM_IOCTL_MSM_GEM_SUBMIT, &x->s);
}

void sub_one_ib(struct sub *x, uint32_t queue, uint32_t handle, uint32_t size)
{
    sub_init(x, queue);
    sub_bo(x, handle, MSM_SUBMIT_BO_READ);
    sub_cmd(x, MSM_SUBMIT_CMD_BUF, 0, 0, size);
}

int wait_fence_with(int fd, uint32_t queue, uint32_t fence, uint32_t flags,
                    int ms)
{
    /* every field, in the order of the struct */
    struct drm_msm_wait_fence w = {fence, flags, deadline_ms(ms), queue};

    return xioctl(fd, DRM_IOCTL_MSM_WAIT_FENCE, &w);
}

int wait_fence(int fd, uint32_t queue, uint32_t fence, int ms)
{
    return wait_fence_with(fd, queue, fence, 0, ms);
}

int queue_new(int fd, uint32_t prio, uint32_t *id)
{
    struct drm_msm_submitqueue q = {.prio = prio};
    int r = xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);

    if (r == 0) {
        *id = q.id;
    }
    return r;
}

int queue_close(int fd, uint32_t id)
{
    return xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE, &id);
}
