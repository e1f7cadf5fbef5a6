/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_util.c - the helpers of msm_ioctl's cases: submits built on the NOP
 * fixture, GPU jobs on a fresh pair of BOs, raw ioctls the cases share,
 * debugfs knobs and a child without a capability.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "msm_test.h"

/* g_nop.size is the object size the kernel bounds-checks the IB against. */
void sub_base(struct sub *x, uint32_t queue)
{
    sub_init(x, queue);
    sub_bo(x, g_nop.handle, MSM_SUBMIT_BO_READ);
    sub_cmd(x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(nop3));
}

static void close_fence_fd(struct sub *x)
{
    if ((x->s.flags & MSM_SUBMIT_FENCE_FD_OUT) && x->s.fence_fd >= 0) {
        close(x->s.fence_fd);
    }
    x->s.fence_fd = -1;
}

/*
 * Submit x; if the kernel took it, wait for it (and close its fence fd) so
 * that it cannot outlive the case.  0 or -errno of the SUBMIT.
 */
int sub_try(int fd, struct sub *x)
{
    int r = sub_do(fd, x);

    if (r == 0) {
        close_fence_fd(x);
        wait_fence(fd, x->s.queueid, x->s.fence, 5000);
    }
    return r;
}

/* Submit x, expect errno e (0: success). */
int sub_expect(struct sub *x, int e, char *why)
{
    EXPECT(sub_try(g_fd, x), e, "SUBMIT");
    return 0;
}

/* Submit x, which must be accepted, and wait up to 5 s for its fence. */
int sub_run(int fd, struct sub *x, const char *what, char *why)
{
    int r;

    EXPECT(sub_do(fd, x), 0, what);
    r = wait_fence(fd, x->s.queueid, x->s.fence, 5000);
    if (r) {
        return kt_fail(why, "WAIT_FENCE(queue %u, fence %u, 5 s): %s",
                       x->s.queueid, x->s.fence, errno_name(-r));
    }
    return 0;
}

/* A submit on queue with cmd (READ) as bo 0 and dst (WRITE) as bo 1. */
void sub_pair(struct sub *x, uint32_t queue, const struct bo *cmd,
              const struct bo *dst)
{
    sub_init(x, queue);
    sub_bo(x, cmd->handle, MSM_SUBMIT_BO_READ);
    sub_bo(x, dst->handle, MSM_SUBMIT_BO_WRITE);
}

/* x waits for syncobj handle; the entry is returned for point and flags. */
struct drm_msm_gem_submit_syncobj *sub_in(struct sub *x, uint32_t handle)
{
    x->s.flags |= MSM_SUBMIT_SYNCOBJ_IN;
    x->s.nr_in_syncobjs = 1;
    x->in[0].handle = handle;
    return &x->in[0];
}

/* x signals syncobj handle; the entry is returned for point and flags. */
struct drm_msm_gem_submit_syncobj *sub_out(struct sub *x, uint32_t handle)
{
    x->s.flags |= MSM_SUBMIT_SYNCOBJ_OUT;
    x->s.nr_out_syncobjs = 1;
    x->out[0].handle = handle;
    return &x->out[0];
}

/* At byte off of cmd: an IB that CP_MEM_WRITEs val to GPU address addr. */
void put_mem_write(struct bo *cmd, uint32_t off, uint32_t addr, uint32_t val)
{
    const uint32_t ib[] = {PM4_PKT3(CP_MEM_WRITE, 2), addr, val};

    bo_write(cmd, off, ib, ARRAY_SIZE(ib));
}

/*
 * Submit one IB (n dwords at byte offset off of cmd) with dst as its WRITE
 * BO and wait up to 5 s for it.
 */
int run_ib(uint32_t queue, struct bo *cmd, uint32_t off, const uint32_t *dw,
           unsigned n, struct bo *dst, uint32_t *fence, char *why)
{
    struct sub x;

    bo_write(cmd, off, dw, n);
    sub_pair(&x, queue, cmd, dst);
    sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, off, n * 4);
    if (sub_run(g_fd, &x, "SUBMIT", why)) {
        return -1;
    }
    if (fence) {
        *fence = x.s.fence;
    }
    return 0;
}

/* run_ib() of a CP_MEM_WRITE of val to dst + doff. */
int run_mem_write(uint32_t queue, struct bo *cmd, uint32_t off, struct bo *dst,
                  uint32_t doff, uint32_t val, char *why)
{
    const uint32_t ib[] = {PM4_PKT3(CP_MEM_WRITE, 2), lo(dst->iova) + doff,
                           val};

    return run_ib(queue, cmd, off, ib, ARRAY_SIZE(ib), dst, NULL, why);
}

int gpu_proof(uint32_t queue, struct bo *cmd, struct bo *dst, const char *when,
              char *why)
{
    if (run_mem_write(queue, cmd, 0, dst, 0, 0xCAFEBABE, why)) {
        return KTAP_FAIL;
    }
    if (dst->map[0] != 0xCAFEBABE) {
        return kt_fail(why, "%s the GPU wrote 0x%08x, expected 0xcafebabe",
                       when, dst->map[0]);
    }
    return KTAP_PASS;
}

/* cmd (cmd_size bytes, WC) and dst (4 KiB, dst_flags) on fd; 0 or -1. */
int pair_make(int fd, struct bo *cmd, uint32_t cmd_size, struct bo *dst,
              uint32_t dst_flags, char *why)
{
    if (bo_make(cmd, fd, cmd_size, MSM_BO_WC, why, KT_WHY_LEN) ||
        bo_make(dst, fd, 4096, dst_flags, why, KT_WHY_LEN)) {
        return -1;
    }
    return 0;
}

void pair_free(struct bo *cmd, struct bo *dst)
{
    bo_free(cmd);
    bo_free(dst);
}

/* Run a gpu_fn case on fresh BOs (see add_gpu()). */
int with_pair(gpu_fn fn, unsigned long arg, uint32_t cmd_size,
              uint32_t dst_flags, char *why)
{
    struct bo cmd = {0}, dst = {0};
    int ret = -1;

    if (pair_make(g_fd, &cmd, cmd_size, &dst, dst_flags, why) == 0) {
        ret = fn(arg, &cmd, &dst, why);
    }
    pair_free(&cmd, &dst);
    return ret;
}

int cpu_prep(int fd, uint32_t handle, uint32_t op, int ms)
{
    struct drm_msm_gem_cpu_prep p = {handle, op, deadline_ms(ms)};

    return xioctl(fd, DRM_IOCTL_MSM_GEM_CPU_PREP, &p);
}

/* retained (may be NULL) gets what the kernel wrote, or 0xdeadbeef. */
int madvise_bo(int fd, uint32_t handle, uint32_t madv, uint32_t *retained)
{
    struct drm_msm_gem_madvise m = {
        .handle = handle,
        .madv = madv,
        .retained = 0xdeadbeef,
    };
    int r = xioctl(fd, DRM_IOCTL_MSM_GEM_MADVISE, &m);

    if (retained) {
        *retained = m.retained;
    }
    return r;
}

/* q asks for the FAULTS of queue id into *faults, preset to 0xdeadbeef. */
void faults_query(struct drm_msm_submitqueue_query *q, uint32_t id,
                  uint32_t *faults)
{
    memset(q, 0, sizeof(*q));
    *faults = 0xdeadbeef;
    q->data = (uintptr_t)faults;
    q->id = id;
    q->param = MSM_SUBMITQUEUE_PARAM_FAULTS;
    q->len = sizeof(*faults);
}

int queue_faults(int fd, uint32_t id, uint32_t *faults)
{
    struct drm_msm_submitqueue_query q;

    faults_query(&q, id, faults);
    return xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_QUERY, &q);
}

int syncobj_create(uint32_t flags, uint32_t *handle)
{
    struct drm_syncobj_create c = {.flags = flags};
    int r = xioctl(g_fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

    *handle = r ? 0 : c.handle;
    return r;
}

void syncobj_destroy(uint32_t handle)
{
    struct drm_syncobj_destroy d = {.handle = handle};

    xioctl(g_fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

int syncobj_wait(uint32_t handle, int ms)
{
    struct drm_syncobj_wait w = {
        .handles = (uintptr_t)&handle,
        .count_handles = 1,
        .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
        .timeout_nsec = mono_ns() + (int64_t)ms * 1000000LL,
    };

    return xioctl(g_fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

int dbg_read(const char *file, long long *v)
{
    char p[224];
    long val;
    int r;

    if (!g_dbg[0]) {
        return -ENOENT;
    }
    snprintf(p, sizeof(p), "%s/%s", g_dbg, file);
    r = read_long(p, &val);
    if (r == 0) {
        *v = val;
    }
    return r;
}

int dbg_write(const char *file, long long v)
{
    char p[224], buf[32];

    if (!g_dbg[0]) {
        return -ENOENT;
    }
    snprintf(p, sizeof(p), "%s/%s", g_dbg, file);
    snprintf(buf, sizeof(buf), "%lld\n", v);
    return write_str(p, buf);
}

/*
 * Run fn in a child that first dropped capability cap from its effective set
 * (cap < 0: none dropped).  The child shares g_fd's open file.  Returns fn's
 * 0/-errno, or -1000 - n when the child could not be set up.
 */
static int in_child(int cap, int (*fn)(void *), void *arg)
{
    pid_t pid;
    int st;

    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        return -1000;
    }
    if (pid == 0) {
        int r;

        if (cap >= 0) {
            struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3,
                                                 0};
            struct __user_cap_data_struct d[2];

            if (syscall(SYS_capget, &h, d)) {
                _exit(250);
            }
            d[cap / 32].effective &= ~(1u << (cap % 32));
            if (syscall(SYS_capset, &h, d)) {
                _exit(251);
            }
        }
        r = fn(arg);
        _exit(r > 0 || r < -249 ? 252 : -r);
    }
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
        return -1001;
    }
    if (WEXITSTATUS(st) >= 250) {
        return -1000 - WEXITSTATUS(st);
    }
    return -WEXITSTATUS(st);
}

/* in_child(cap, fn) must give errno e. */
int child_expect(int cap, int (*fn)(void *), int e, const char *what, char *why)
{
    int r = in_child(cap, fn, NULL);

    if (r <= -1000) {
        return kt_fail(why, "child setup failed (%d)", r);
    }
    EXPECT(r, e, what);
    return 0;
}

/* GET_PARAM or SET_PARAM (or another req on that struct), all fields given. */
int param_raw(unsigned long req, uint32_t pipe, uint32_t param, uint64_t value,
              uint32_t len, uint32_t pad)
{
    struct drm_msm_param p = {pipe, param, value, len, pad};

    return xioctl(g_fd, req, &p);
}
