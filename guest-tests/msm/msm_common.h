/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_common.h - helpers shared by the msm guest programs (msm_ioctl,
 * msm_bench): finding the msm render node, raw ioctls, buffer objects,
 * submits and fences.  Header-only; include once per program.
 */
#ifndef PATCHBAY_MSM_COMMON_H
#define PATCHBAY_MSM_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "msm_uapi.h"

#define MSM_WAIT_FOR_NODE_MS	5000
#define NS_PER_SEC		1000000000LL

/* 0 on success, -errno on failure; restarted on EINTR like libdrm's drmIoctl(). */
static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

static inline int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

static inline void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Absolute CLOCK_MONOTONIC deadline ms from now, as CPU_PREP and WAIT_FENCE
 * want it (msm_drv.h: timeout_to_jiffies()); ms < 0 gives {0, 0}, which is
 * in the past and so means "poll".
 */
static inline struct drm_msm_timespec deadline_ms(int ms)
{
	struct drm_msm_timespec t = { 0, 0 };
	int64_t ns;

	if (ms < 0)
		return t;
	ns = mono_ns() + (int64_t)ms * 1000000LL;
	t.tv_sec = ns / NS_PER_SEC;
	t.tv_nsec = ns % NS_PER_SEC;
	return t;
}

/* DRM_IOCTL_VERSION name of fd into buf (NUL-terminated); 0 or -errno. */
static inline int drm_driver_name(int fd, char *buf, size_t len,
			   struct drm_version *out)
{
	struct drm_version v;
	int r;

	memset(&v, 0, sizeof(v));
	memset(buf, 0, len);
	v.name = buf;
	v.name_len = len - 1;
	r = xioctl(fd, DRM_IOCTL_VERSION, &v);
	if (r == 0 && out)
		*out = v;
	return r;
}

/*
 * Open the first /dev/dri/renderD* whose driver is "msm", waiting up to
 * MSM_WAIT_FOR_NODE_MS for it to appear.  Returns the fd, or -1 with a
 * reason in why.
 */
static inline int msm_open_render(char *path, size_t pathlen, char *why, size_t whylen)
{
	int64_t end = mono_ns() + (int64_t)MSM_WAIT_FOR_NODE_MS * 1000000LL;
	char last[160] = "no /dev/dri/renderD* node";

	for (;;) {
		for (int minor = 128; minor < 192; minor++) {
			char p[64], name[32];
			int fd, r;

			snprintf(p, sizeof(p), "/dev/dri/renderD%d", minor);
			fd = open(p, O_RDWR | O_CLOEXEC);
			if (fd < 0) {
				if (errno != ENOENT)
					snprintf(last, sizeof(last), "open %s: %s",
						 p, strerror(errno));
				continue;
			}
			r = drm_driver_name(fd, name, sizeof(name), NULL);
			if (r == 0 && strcmp(name, "msm") == 0) {
				snprintf(path, pathlen, "%s", p);
				return fd;
			}
			snprintf(last, sizeof(last), "%s is driver \"%s\" (%s)", p,
				 r == 0 ? name : "?", r == 0 ? "not msm" : strerror(-r));
			close(fd);
		}
		if (mono_ns() >= end)
			break;
		sleep_ms(50);
	}
	snprintf(why, whylen, "no msm render node after %d ms: %s",
		 MSM_WAIT_FOR_NODE_MS, last);
	return -1;
}

static inline int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_msm_param p;
	int r;

	memset(&p, 0, sizeof(p));
	p.pipe = MSM_PIPE_3D0;
	p.param = param;
	r = xioctl(fd, DRM_IOCTL_MSM_GET_PARAM, &p);
	if (r == 0)
		*value = p.value;
	return r;
}

/* ---- buffer objects ------------------------------------------------------ */

struct bo {
	int fd;
	uint32_t handle;
	uint32_t size;
	uint64_t iova;
	uint64_t offset;
	volatile uint32_t *map;
};

static inline int gem_new(int fd, uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_msm_gem_new a;
	int r;

	memset(&a, 0, sizeof(a));
	a.size = size;
	a.flags = flags;
	r = xioctl(fd, DRM_IOCTL_MSM_GEM_NEW, &a);
	if (r == 0)
		*handle = a.handle;
	return r;
}

static inline int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close a;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
}

static inline int gem_info(int fd, uint32_t handle, uint32_t info, uint64_t *value)
{
	struct drm_msm_gem_info a;
	int r;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.info = info;
	a.value = value ? *value : 0;
	r = xioctl(fd, DRM_IOCTL_MSM_GEM_INFO, &a);
	if (r == 0 && value)
		*value = a.value;
	return r;
}

/*
 * A BO with its GPU address and a shared CPU mapping.  Every GPU-visible BO
 * must be MSM_BO_WC: on a2xx, CACHED BOs get no gpummu PTEs (design note,
 * section 6.2 note 5).  Returns 0, or -1 with a reason in why.
 */
static inline int bo_make(struct bo *b, int fd, uint32_t size, uint32_t flags,
		   char *why, size_t whylen)
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
	if (r) {
		snprintf(why, whylen, "GEM_INFO GET_IOVA: %s", strerror(-r));
		return -1;
	}
	r = gem_info(fd, b->handle, MSM_INFO_GET_OFFSET, &b->offset);
	if (r) {
		snprintf(why, whylen, "GEM_INFO GET_OFFSET: %s", strerror(-r));
		return -1;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)b->offset);
	if (p == MAP_FAILED) {
		snprintf(why, whylen, "mmap of BO %u: %s", b->handle,
			 strerror(errno));
		return -1;
	}
	b->map = p;
	return 0;
}

static inline void bo_free(struct bo *b)
{
	if (b->map)
		munmap((void *)b->map, b->size);
	if (b->handle)
		gem_close(b->fd, b->handle);
	memset(b, 0, sizeof(*b));
}

/* Copy n dwords to byte offset off of the BO, then a full barrier. */
static inline void bo_write(struct bo *b, uint32_t off, const uint32_t *dw, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b->map[off / 4 + i] = dw[i];
	__sync_synchronize();
}

/* ---- submits ------------------------------------------------------------- */

struct sub {
	struct drm_msm_gem_submit s;
	struct drm_msm_gem_submit_bo bos[4];
	struct drm_msm_gem_submit_cmd cmds[4];
	struct drm_msm_gem_submit_syncobj in[2];
	struct drm_msm_gem_submit_syncobj out[2];
};

/* An empty submit to the 3D pipe of queue; the table pointers point at x. */
static inline void sub_init(struct sub *x, uint32_t queue)
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

static inline unsigned sub_bo(struct sub *x, uint32_t handle, uint32_t flags)
{
	unsigned i = x->s.nr_bos++;

	x->bos[i].handle = handle;
	x->bos[i].flags = flags;
	return i;
}

static inline unsigned sub_cmd(struct sub *x, uint32_t type, uint32_t idx,
			uint32_t off, uint32_t size)
{
	unsigned i = x->s.nr_cmds++;

	x->cmds[i].type = type;
	x->cmds[i].submit_idx = idx;
	x->cmds[i].submit_offset = off;
	x->cmds[i].size = size;
	return i;
}

static inline int sub_do(int fd, struct sub *x)
{
	return xioctl(fd, DRM_IOCTL_MSM_GEM_SUBMIT, &x->s);
}

/* WAIT_FENCE; ms < 0 polls. */
static inline int wait_fence(int fd, uint32_t queue, uint32_t fence, int ms)
{
	struct drm_msm_wait_fence w;

	memset(&w, 0, sizeof(w));
	w.fence = fence;
	w.queueid = queue;
	w.timeout = deadline_ms(ms);
	return xioctl(fd, DRM_IOCTL_MSM_WAIT_FENCE, &w);
}

static inline int queue_new(int fd, uint32_t prio, uint32_t *id)
{
	struct drm_msm_submitqueue q;
	int r;

	memset(&q, 0, sizeof(q));
	q.prio = prio;
	r = xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);
	if (r == 0)
		*id = q.id;
	return r;
}

static inline int queue_close(int fd, uint32_t id)
{
	return xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE, &id);
}

#endif /* PATCHBAY_MSM_COMMON_H */
