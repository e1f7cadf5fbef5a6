/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_fence.c - msm_ioctl's cases of WAIT_FENCE and SUBMITQUEUE_*, and the
 * fences a submit hands out: fence fds, syncobjs, FENCE_SN_IN.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "msm_test.h"

/* ---- WAIT_FENCE ---- */

/* fence 0 of queue 0 is never "after" last_fence and never in the idr: 0. */
static int c_wait_fence_bit(unsigned long bit, char *why)
{
    EXPECT(wait_fence_with(g_fd, 0, 0, 1u << bit, -1), EINVAL, "WAIT_FENCE");
    return 0;
}

static int c_wait_fence_good(unsigned long flags, char *why)
{
    if (flags & MSM_WAIT_FENCE_BOOST) {
        NEED_FEAT(F_WAIT_FENCE_BOOST);
    }
    EXPECT(wait_fence_with(g_fd, 0, 0, (uint32_t)flags, -1), 0,
           "WAIT_FENCE fence 0");
    return 0;
}

static int c_wait_fence_queue(unsigned long flags, char *why)
{
    EXPECT(wait_fence_with(g_fd, 0x7fff0000, 0, (uint32_t)flags, -1),
           flags ? EINVAL : ENOENT, "WAIT_FENCE");
    return 0;
}

static int c_wait_fence_future(unsigned long arg, char *why)
{
    uint32_t q = 0;
    int r;

    (void)arg;
    EXPECT(queue_new(g_fd, 1, &q), 0, "SUBMITQUEUE_NEW");
    r = wait_fence_with(g_fd, q, 1, 0, -1);
    queue_close(g_fd, q);
    EXPECT(r, EINVAL, "WAIT_FENCE fence 1 on a queue that never submitted");
    return 0;
}

/* ---- SUBMITQUEUE_* ---- */

/* SUBMITQUEUE_NEW must fail with EINVAL; a queue it made anyway is closed. */
static int queue_new_rejected(uint32_t flags, uint32_t prio, char *why)
{
    struct drm_msm_submitqueue q;
    int r;

    memset(&q, 0, sizeof(q));
    q.flags = flags;
    q.prio = prio;
    r = xioctl(g_fd, DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);
    if (r == 0) {
        queue_close(g_fd, q.id);
    }
    EXPECT(r, EINVAL, "SUBMITQUEUE_NEW");
    return 0;
}

static int c_queue_flags_bit(unsigned long bit, char *why)
{
    return queue_new_rejected(1u << bit, 0, why);
}

static int c_queue_prio_bad(unsigned long prio, char *why)
{
    return queue_new_rejected(0, (uint32_t)prio, why);
}

static int c_queue_prio_good(unsigned long arg, char *why)
{
    uint32_t ids[3] = {0};
    int ret = 0;

    (void)arg;
    for (unsigned p = 0; p < 3; p++) {
        int r = queue_new(g_fd, p, &ids[p]);

        if (r) {
            FAIL_OUT("SUBMITQUEUE_NEW prio %u: %s", p, errno_name(-r));
        }
        if (ids[p] == 0 || (p && ids[p] <= ids[p - 1])) {
            FAIL_OUT("ids %u, %u, %u: expected non-zero and increasing", ids[0],
                     ids[1], ids[2]);
        }
    }
out:
    for (unsigned p = 0; p < 3; p++) {
        if (ids[p]) {
            queue_close(g_fd, ids[p]);
        }
    }
    return ret;
}

static int c_queue_close(unsigned long which, char *why)
{
    uint32_t id = 0;

    switch (which) {
    case 0:
        EXPECT(queue_close(g_fd, 0), ENOENT, "SUBMITQUEUE_CLOSE 0");
        return 0;
    case 1:
        EXPECT(queue_close(g_fd, 0x7fff0000), ENOENT, "SUBMITQUEUE_CLOSE");
        return 0;
    default:
        EXPECT(queue_new(g_fd, 1, &id), 0, "SUBMITQUEUE_NEW");
        EXPECT(queue_close(g_fd, id), 0, "first SUBMITQUEUE_CLOSE");
        EXPECT(queue_close(g_fd, id), ENOENT, "second SUBMITQUEUE_CLOSE");
        if (which == 3) {
            struct sub x;

            NEED_FIX();
            sub_base(&x, id);
            return sub_expect(&x, ENOENT, why);
        }
        return 0;
    }
}

enum { QQ_PAD, QQ_ID, QQ_PARAM, QQ_BADPTR, QQ_GOOD, QQ_LEN0, QQ_DEFAULT };

static int c_queue_query(unsigned long which, char *why)
{
    struct drm_msm_submitqueue_query q;
    uint32_t faults, id = 0;
    int r, e = 0;

    if (which != QQ_DEFAULT) {
        EXPECT(queue_new(g_fd, 1, &id), 0, "SUBMITQUEUE_NEW");
    }
    faults_query(&q, id, &faults);
    switch (which) {
    case QQ_PAD:
        q.pad = 1;
        e = EINVAL;
        break;
    case QQ_ID:
        q.id = id + 1000;
        e = ENOENT;
        break;
    case QQ_PARAM:
        q.param = 1;
        e = EINVAL;
        break;
    case QQ_BADPTR:
        q.data = (uintptr_t)g_badptr;
        e = EFAULT;
        break;
    case QQ_LEN0:
        q.len = 0;
        break;
    }
    r = xioctl(g_fd, DRM_IOCTL_MSM_SUBMITQUEUE_QUERY, &q);
    if (id) {
        queue_close(g_fd, id);
    }
    EXPECT(r, e, "SUBMITQUEUE_QUERY");
    if (which == QQ_GOOD && faults != 0) {
        return kt_fail(why, "FAULTS of a new queue is %u, expected 0", faults);
    }
    if (which == QQ_LEN0 && faults != 0xdeadbeef) {
        return kt_fail(
            why, "len 0 wrote 0x%x to data; it only asks for the size", faults);
    }
    if (which == QQ_DEFAULT && faults == 0xdeadbeef) {
        return kt_fail(why, "FAULTS of queue 0 not written");
    }
    return 0;
}

int c_exec_fence_only(unsigned long flags, char *why)
{
    struct sub x;

    sub_init(&x, 0);
    x.s.flags |= (uint32_t)flags;
    return sub_run(g_fd, &x, "SUBMIT with nr_bos = nr_cmds = 0", why);
}

int c_exec_fence_fd(unsigned long arg, char *why)
{
    struct pollfd pfd;
    struct sub x, y;
    int fd = -1, ret = 0, r;

    (void)arg;
    NEED_FIX();
    sub_base(&x, 0);
    x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
    x.s.fence_fd = 0x7fffffff;
    EXPECT(sub_do(g_fd, &x), 0, "SUBMIT FENCE_FD_OUT");
    fd = x.s.fence_fd;
    if (fd < 0 || fd == 0x7fffffff) {
        return kt_fail(why, "fence_fd %d after SUBMIT", fd);
    }
    if ((fcntl(fd, F_GETFD) & FD_CLOEXEC) == 0) {
        FAIL_OUT("the fence fd is not O_CLOEXEC");
    }
    EXPECT_OUT(wait_fence(g_fd, 0, x.s.fence, 5000), 0, "WAIT_FENCE");
    pfd.fd = fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    r = poll(&pfd, 1, 1000);
    if (r != 1 || !(pfd.revents & POLLIN)) {
        FAIL_OUT("poll on the sync_file after WAIT_FENCE: %d revents 0x%x", r,
                 pfd.revents);
    }
    sub_base(&y, 0);
    y.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
    y.s.fence_fd = fd;
    if (sub_run(g_fd, &y, "SUBMIT FENCE_FD_IN with that sync_file", why)) {
        BAIL_OUT();
    }
out:
    if (fd >= 0) {
        close(fd);
    }
    return ret;
}

/* A submit that signals syncobj so, which SYNCOBJ_WAIT sees. */
static int syncobj_out(uint32_t so, char *why)
{
    struct sub x;

    sub_base(&x, 0);
    sub_out(&x, so);
    EXPECT(sub_do(g_fd, &x), 0, "SUBMIT SYNCOBJ_OUT");
    EXPECT(syncobj_wait(so, 5000), 0, "SYNCOBJ_WAIT");
    EXPECT(wait_fence(g_fd, 0, x.s.fence, -1), 0, "WAIT_FENCE poll");
    return KTAP_PASS;
}

/* A submit that waits for the signalled so and resets it: no fence left. */
static int syncobj_in_reset(uint32_t so, char *why)
{
    struct sub x;

    sub_base(&x, 0);
    sub_in(&x, so)->flags = MSM_SUBMIT_SYNCOBJ_RESET;
    if (sub_run(g_fd, &x, "SUBMIT SYNCOBJ_IN with RESET", why)) {
        return KTAP_FAIL;
    }
    x.in[0].flags = 0;
    EXPECT(sub_try(g_fd, &x), EINVAL,
           "second SUBMIT on the reset syncobj (no fence left)");
    return KTAP_PASS;
}

/* which 0: syncobj_out(); 1: syncobj_in_reset() */
int c_exec_syncobj(unsigned long which, char *why)
{
    uint32_t so = 0;
    int ret;

    NEED_FIX();
    EXPECT(syncobj_create(which ? DRM_SYNCOBJ_CREATE_SIGNALED : 0, &so), 0,
           "SYNCOBJ_CREATE");
    ret = which ? syncobj_in_reset(so, why) : syncobj_out(so, why);
    syncobj_destroy(so);
    return ret;
}

/* Fence id 1000 asked for on queue q: WAIT_FENCE knows it, not 1001. */
static int fence_sn_on(uint32_t q, char *why)
{
    struct sub x;

    sub_base(&x, q);
    x.s.flags |= MSM_SUBMIT_FENCE_SN_IN;
    x.s.fence = 1000;
    EXPECT(sub_do(g_fd, &x), 0, "SUBMIT FENCE_SN_IN 1000");
    if (x.s.fence != 1000) {
        return kt_fail(why, "fence %u returned, expected 1000", x.s.fence);
    }
    EXPECT(wait_fence(g_fd, q, 1000, 5000), 0, "WAIT_FENCE 1000");
    EXPECT(wait_fence(g_fd, q, 1001, -1), EINVAL,
           "WAIT_FENCE 1001 (not submitted)");
    return KTAP_PASS;
}

int c_exec_fence_sn(unsigned long arg, char *why)
{
    uint32_t q = 0;
    int ret;

    (void)arg;
    NEED_FIX();
    EXPECT(queue_new(g_fd, 1, &q), 0, "SUBMITQUEUE_NEW");
    ret = fence_sn_on(q, why);
    queue_close(g_fd, q);
    return ret;
}

/* WAIT_FENCE */
void register_wait_fence_cases(void)
{
    /* WAIT_FENCE: [2014, now flags] unknown flag bits */
    add_bits(c_wait_fence_bit, wait_fence_flags(), 0, "WAIT_FENCE flags");
    kt_add(c_wait_fence_good, 0, "WAIT_FENCE fence 0 flags 0 returns 0");
    kt_add(c_wait_fence_good, MSM_WAIT_FENCE_BOOST,
           "WAIT_FENCE fence 0 flags BOOST returns 0");
    kt_add(c_wait_fence_queue, 0,
           "WAIT_FENCE unknown queueid rejected with ENOENT");
    kt_add(c_wait_fence_queue, 2,
           "WAIT_FENCE flags 0x2 on an unknown queue rejected with EINVAL "
           "(flags checked first)");
    kt_add(c_wait_fence_future, 0,
           "WAIT_FENCE on a fence not yet submitted rejected with EINVAL");
}

/* SUBMITQUEUE_* */
void register_queue_cases(void)
{
    /* SUBMITQUEUE_* */
    add_bits(c_queue_flags_bit, 0, 0, "SUBMITQUEUE_NEW flags");
    kt_add(c_queue_prio_bad, 3,
           "SUBMITQUEUE_NEW prio 3 (PRIORITIES) rejected with EINVAL");
    kt_add(c_queue_prio_bad, 4, "SUBMITQUEUE_NEW prio 4 rejected with EINVAL");
    kt_add(c_queue_prio_bad, 0xffffffff,
           "SUBMITQUEUE_NEW prio 0xffffffff rejected with EINVAL");
    kt_add(
        c_queue_prio_good, 0,
        "SUBMITQUEUE_NEW prio 0, 1, 2 accepted with increasing non-zero ids");
    kt_add(c_queue_close, 0,
           "SUBMITQUEUE_CLOSE id 0 (the default queue) rejected with ENOENT");
    kt_add(c_queue_close, 1,
           "SUBMITQUEUE_CLOSE unknown id rejected with ENOENT");
    kt_add(c_queue_close, 2,
           "SUBMITQUEUE_CLOSE twice: the second rejected with ENOENT");
    kt_add(c_queue_close, 3, "SUBMIT to a closed queue rejected with ENOENT");
    kt_add(c_queue_query, QQ_PAD,
           "SUBMITQUEUE_QUERY pad 1 rejected with EINVAL");
    kt_add(c_queue_query, QQ_ID,
           "SUBMITQUEUE_QUERY unknown id rejected with ENOENT");
    kt_add(c_queue_query, QQ_PARAM,
           "SUBMITQUEUE_QUERY param 1 rejected with EINVAL");
    kt_add(c_queue_query, QQ_BADPTR,
           "SUBMITQUEUE_QUERY bad data pointer rejected with EFAULT");
    kt_add(c_queue_query, QQ_GOOD,
           "SUBMITQUEUE_QUERY FAULTS of a new queue is 0");
    kt_add(c_queue_query, QQ_LEN0,
           "SUBMITQUEUE_QUERY len 0 accepted without writing data");
    kt_add(c_queue_query, QQ_DEFAULT,
           "SUBMITQUEUE_QUERY FAULTS of queue 0 accepted");
}
