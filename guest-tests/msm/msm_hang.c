/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_hang.c - msm_ioctl's cases of jobs that do not finish on their own:
 * one held on CP_WAIT_REG_MEM and released by the CPU, one that hangs
 * until hangcheck recovers the GPU, and hostile command streams.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/sync_file.h>

#include "msm_test.h"

/* ---- a job stalled on CP_WAIT_REG_MEM, released by the CPU ---- */

#define PRE_MARK  0x57A11ED0u
#define POST_MARK 0xD0E0D0E0u

static void stall_ib(uint32_t *ib, uint64_t sem_iova)
{
    unsigned n = 0;

    ib[n++] = PM4_PKT3(CP_MEM_WRITE, 2);
    ib[n++] = lo(sem_iova) + 4;
    ib[n++] = PRE_MARK;
    ib[n++] = PM4_PKT3(CP_WAIT_REG_MEM, 5);
    ib[n++] = WAIT_REG_MEM_POLL_MEM | WAIT_REG_MEM_FUNC_EQ;
    ib[n++] = lo(sem_iova);
    ib[n++] = 1;          /* reference */
    ib[n++] = 0xffffffff; /* mask */
    ib[n++] = 16;         /* poll interval */
    ib[n++] = PM4_PKT3(CP_MEM_WRITE, 2);
    ib[n++] = lo(sem_iova) + 8;
    ib[n++] = POST_MARK;
}
#define STALL_IB_DWORDS 12

/*
 * A job of stall_ib() on its own queue, which the cases after its setup
 * case depend on: they fail with why unless ok.
 */
struct held {
    int ok;
    char why[KT_WHY_LEN];
    struct bo cmd, sem; /* the IB; the semaphore and the markers */
    uint32_t q, fence;
    int fd_out;       /* its FENCE_FD_OUT */
    uint64_t faults0; /* GET_PARAM FAULTS before it */
    long long t0;     /* when it was submitted, now_ms() */
};

/* Submit j's job; rd, if any, is made and added as a READ BO.  0 or -1. */
static int held_submit(struct held *j, struct bo *rd, char *why)
{
    uint32_t ib[STALL_IB_DWORDS];
    struct sub x;
    int r;

    if (get_param(g_fd, MSM_PARAM_FAULTS, &j->faults0)) {
        return kt_fail(why, "GET_PARAM FAULTS failed");
    }
    if (bo_make(&j->cmd, g_fd, 4096, MSM_BO_WC, why, KT_WHY_LEN) ||
        bo_make(&j->sem, g_fd, 4096, MSM_BO_WC, why, KT_WHY_LEN) ||
        (rd && bo_make(rd, g_fd, 4096, MSM_BO_WC, why, KT_WHY_LEN))) {
        return -1;
    }
    r = queue_new(g_fd, 1, &j->q);
    if (r) {
        return kt_fail(why, "SUBMITQUEUE_NEW: %s", errno_name(-r));
    }
    stall_ib(ib, j->sem.iova);
    bo_write(&j->cmd, 0, ib, STALL_IB_DWORDS);
    sub_pair(&x, j->q, &j->cmd, &j->sem);
    x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
    if (rd) {
        sub_bo(&x, rd->handle, MSM_SUBMIT_BO_READ);
    }
    sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(ib));
    j->t0 = now_ms();
    r = sub_do(g_fd, &x);
    if (r) {
        return kt_fail(why, "SUBMIT of the stalling job: %s", errno_name(-r));
    }
    j->fence = x.s.fence;
    j->fd_out = x.s.fence_fd;
    return 0;
}

/* The setup case of j: setup() submits the job and checks its start. */
static int held_setup(struct held *j, int (*setup)(char *why), char *why)
{
    j->ok = 0;
    if (setup(why)) {
        snprintf(j->why, KT_WHY_LEN, "%.250s", why);
        return -1;
    }
    j->ok = 1;
    return 0;
}

static void held_free(struct held *j)
{
    if (j->fd_out >= 0) {
        close(j->fd_out);
    }
    j->fd_out = -1;
    if (j->q) {
        queue_close(g_fd, j->q);
    }
    j->q = 0;
    bo_free(&j->cmd);
    bo_free(&j->sem);
    j->ok = 0;
    snprintf(j->why, KT_WHY_LEN, "released");
}

static struct held st = {.fd_out = -1};
static struct bo st_rd;          /* a READ BO of the held job */
static long long st_period = -1; /* saved hangcheck_period_ms, or -1 */

static int stall_setup(char *why)
{
    long long end;

    /* keep hangcheck out of the way while the job is held (if debugfs) */
    if (dbg_read("hangcheck_period_ms", &st_period) == 0) {
        dbg_write("hangcheck_period_ms", 20000);
    } else {
        st_period = -1;
    }
    if (held_submit(&st, &st_rd, why)) {
        return -1;
    }
    end = now_ms() + 3000;
    while (st.sem.map[1] != PRE_MARK && now_ms() < end) {
        sleep_ms(1);
    }
    if (st.sem.map[1] != PRE_MARK) {
        return kt_fail(why,
                       "the CP never reached the WAIT_REG_MEM (marker before "
                       "it is 0x%08x)",
                       st.sem.map[1]);
    }
    if (st.sem.map[2] != 0) {
        return kt_fail(why,
                       "the CP went past an unsatisfied WAIT_REG_MEM (marker "
                       "after it is 0x%08x)",
                       st.sem.map[2]);
    }
    sleep_ms(20);
    if (st.sem.map[2] != 0) {
        return kt_fail(
            why, "the CP went past the WAIT_REG_MEM within 20 ms (0x%08x)",
            st.sem.map[2]);
    }
    return 0;
}

static int c_stall_setup(unsigned long arg, char *why)
{
    (void)arg;
    return held_setup(&st, stall_setup, why);
}

#define NEED_STALL()                                                   \
    do {                                                               \
        if (!st.ok) {                                                  \
            return kt_fail(why, "needs the held job: %.200s", st.why); \
        }                                                              \
    } while (0)

/*
 * A wait begun at t0 with a deadline ms later must not have ended early.
 * jiffies granularity: HZ=100 may end a 5-jiffy wait one jiffy early.
 */
static int not_early(long long t0, int ms, char *why)
{
    long long el = now_ms() - t0;

    if (el < ms - 20) {
        return kt_fail(why, "returned after %lld ms, deadline was %d ms", el,
                       ms);
    }
    return 0;
}

/* ms 0 polls */
static int c_stall_wait_fence(unsigned long ms, char *why)
{
    long long t0;

    NEED_STALL();
    t0 = now_ms();
    EXPECT(wait_fence(g_fd, st.q, st.fence, ms ? (int)ms : -1), ETIMEDOUT,
           "WAIT_FENCE on the stalled job");
    return ms ? not_early(t0, (int)ms, why) : 0;
}

/* CPU_PREP of the held job's WRITE BO (sem) or READ BO (rd); ms < 0 polls. */
static const struct {
    bool rd;
    uint32_t op;
    int ms, err;
} stall_cpu_prep[] = {
    {false, MSM_PREP_WRITE | MSM_PREP_NOSYNC, 1000, EBUSY},
    {false, MSM_PREP_READ, -1, EBUSY},
    {false, MSM_PREP_READ, 50, ETIMEDOUT},
    {true, MSM_PREP_READ | MSM_PREP_NOSYNC, -1, 0},
    {true, MSM_PREP_WRITE | MSM_PREP_NOSYNC, -1, EBUSY},
};

static int c_stall_cpu_prep(unsigned long i, char *why)
{
    const struct bo *b = stall_cpu_prep[i].rd ? &st_rd : &st.sem;
    long long t0;

    NEED_STALL();
    t0 = now_ms();
    EXPECT(
        cpu_prep(g_fd, b->handle, stall_cpu_prep[i].op, stall_cpu_prep[i].ms),
        stall_cpu_prep[i].err, "CPU_PREP");
    if (stall_cpu_prep[i].err == ETIMEDOUT) {
        return not_early(t0, stall_cpu_prep[i].ms, why);
    }
    return 0;
}

static int c_stall_poll(unsigned long arg, char *why)
{
    struct pollfd pfd = {st.fd_out, POLLIN, 0};
    int r;

    (void)arg;
    NEED_STALL();
    if (st.fd_out < 0) {
        return kt_fail(why, "no fence fd from SUBMIT FENCE_FD_OUT");
    }
    r = poll(&pfd, 1, 0);
    if (r != 0) {
        return kt_fail(
            why, "poll returned %d revents 0x%x, expected 0 (not signalled)", r,
            pfd.revents);
    }
    return 0;
}

static int c_stall_sn_busy(unsigned long arg, char *why)
{
    struct sub x;

    (void)arg;
    NEED_STALL();
    NEED_FIX();
    sub_base(&x, st.q);
    x.s.flags |= MSM_SUBMIT_FENCE_SN_IN;
    x.s.fence = st.fence;
    return sub_expect(&x, EINVAL, why);
}

static int c_stall_release(unsigned long arg, char *why)
{
    struct pollfd pfd = {st.fd_out, POLLIN, 0};
    uint64_t faults = 0;
    int ret = 0, r;

    (void)arg;
    if (st.sem.map) {
        st.sem.map[0] = 1; /* releases the WAIT_REG_MEM */
    }
    __sync_synchronize();
    if (!st.ok) {
        FAIL_OUT("needs the held job: %.200s", st.why);
    }
    EXPECT_OUT(wait_fence(g_fd, st.q, st.fence, 5000), 0,
               "WAIT_FENCE after the release");
    if (st.sem.map[2] != POST_MARK) {
        FAIL_OUT("marker after the WAIT_REG_MEM is 0x%08x, expected 0x%08x",
                 st.sem.map[2], POST_MARK);
    }
    EXPECT_OUT(get_param(g_fd, MSM_PARAM_FAULTS, &faults), 0,
               "GET_PARAM FAULTS");
    if (faults != st.faults0) {
        FAIL_OUT("FAULTS went from %llu to %llu: hangcheck recovered the job "
                 "instead",
                 (unsigned long long)st.faults0, (unsigned long long)faults);
    }
    r = poll(&pfd, 1, 1000);
    if (r != 1 || !(pfd.revents & POLLIN)) {
        FAIL_OUT("poll on the fence fd: %d revents 0x%x, expected POLLIN", r,
                 pfd.revents);
    }
    EXPECT_OUT(cpu_prep(g_fd, st.sem.handle, MSM_PREP_WRITE, -1), 0,
               "CPU_PREP WRITE poll on the now idle BO");
out:
    if (st_period >= 0) {
        dbg_write("hangcheck_period_ms", st_period);
    }
    held_free(&st);
    bo_free(&st_rd);
    return ret;
}

/* ---- implicit sync: a SUBMIT waits for the writer of its BO ---- */

#define A_MARK 0xAAAA0001u
#define B_MARK 0xBBBB0002u

/*
 * Jobs of the one a2xx ring run in ring order, so the writer A must be
 * held outside it: its in-fence merges the fences of a held job H and of a
 * job K behind it, a dma_fence_array the scheduler waits to signal (a
 * fence of the same scheduler it would only wait to be scheduled). B,
 * behind K, writes the dword A writes: waiting for A (implicit sync), B
 * lands last; with MSM_SUBMIT_NO_IMPLICIT it runs right behind K, first.
 * A file's queues of one priority share a scheduler entity, whose jobs
 * run in order: H (priority 1), A (0) and K, B (2) need three. B lists dst
 * as READ (the GPU writes it all the same): up to 6.1 NO_IMPLICIT skipped
 * the implicit sync of READ BOs only, WRITE ones were always ordered.
 */
static int c_implicit(unsigned long no_implicit, char *why)
{
    const uint32_t want = no_implicit ? A_MARK : B_MARK;
    struct held h = {.fd_out = -1};
    struct bo cmd = {0}, dst = {0};
    struct sync_merge_data m;
    int ret = 0, r, merged = -1;
    long long period = -1;
    struct sub k, a, b;
    uint32_t qa = 0, qb = 0;

    NEED_FIX();
    if (dbg_read("hangcheck_period_ms", &period) == 0) {
        dbg_write("hangcheck_period_ms", 20000);
    } else {
        period = -1;
    }
    if (pair_make(g_fd, &cmd, 4096, &dst, MSM_BO_WC, why)) {
        BAIL_OUT();
    }
    put_mem_write(&cmd, 0, lo(dst.iova), A_MARK);
    put_mem_write(&cmd, 64, lo(dst.iova), B_MARK);
    EXPECT_OUT(queue_new(g_fd, 0, &qa), 0, "SUBMITQUEUE_NEW priority 0");
    EXPECT_OUT(queue_new(g_fd, 2, &qb), 0, "SUBMITQUEUE_NEW priority 2");
    if (held_submit(&h, NULL, why)) {
        BAIL_OUT();
    }
    sub_base(&k, qb);
    k.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
    EXPECT_OUT(sub_do(g_fd, &k), 0, "SUBMIT of K, behind the held job");
    memset(&m, 0, sizeof(m));
    strcpy(m.name, "held+K");
    m.fd2 = k.s.fence_fd;
    r = xioctl(h.fd_out, SYNC_IOC_MERGE, &m);
    close(k.s.fence_fd);
    EXPECT_OUT(r, 0, "SYNC_IOC_MERGE");
    merged = m.fence;

    sub_pair(&a, qa, &cmd, &dst);
    sub_cmd(&a, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
    a.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
    a.s.fence_fd = merged;
    EXPECT_OUT(sub_do(g_fd, &a), 0, "SUBMIT of A (dst WRITE, held)");
    sub_init(&b, qb);
    sub_bo(&b, cmd.handle, MSM_SUBMIT_BO_READ);
    sub_bo(&b, dst.handle, MSM_SUBMIT_BO_READ);
    sub_cmd(&b, MSM_SUBMIT_CMD_BUF, 0, 64, MEM_WRITE_BYTES);
    b.s.flags |= no_implicit ? MSM_SUBMIT_NO_IMPLICIT : 0;
    EXPECT_OUT(sub_do(g_fd, &b), 0, "SUBMIT of B (dst READ)");
    sleep_ms(20); /* B, if it does not wait, is in the ring now */
    h.sem.map[0] = 1;
    __sync_synchronize();
    EXPECT_OUT(wait_fence(g_fd, qa, a.s.fence, 5000), 0, "WAIT_FENCE of A");
    EXPECT_OUT(wait_fence(g_fd, qb, b.s.fence, 5000), 0, "WAIT_FENCE of B");
    if (dst.map[0] != want) {
        FAIL_OUT("dst holds 0x%08x, expected 0x%08x: %s", dst.map[0], want,
                 no_implicit ? "B waited for A despite NO_IMPLICIT"
                             : "B ran before A, its BO's pending writer");
    }
out:
    if (h.sem.map) {
        h.sem.map[0] = 1;
        __sync_synchronize();
        wait_fence(g_fd, h.q, h.fence, 5000);
    }
    if (merged >= 0) {
        close(merged);
    }
    if (qa) {
        queue_close(g_fd, qa);
    }
    if (qb) {
        queue_close(g_fd, qb);
    }
    held_free(&h);
    pair_free(&cmd, &dst);
    if (period >= 0) {
        dbg_write("hangcheck_period_ms", period);
    }
    return ret;
}

/* ---- a job that never finishes: hangcheck and recovery ---- */

/* The stall IB again, but nobody ever writes 1 to the semaphore. */
static struct held hg = {.fd_out = -1};
static struct {
    struct bo cmd, dst; /* a job queued behind the hang, on queue 0 */
    uint32_t fence;
    int r;               /* its SUBMIT */
    uint32_t q0_faults0; /* queue 0's FAULTS before the hang */
    int64_t elapsed_ms;  /* until the hung job retired */
} hg_next;

static int hang_setup_and_wait(char *why)
{
    long long period = -1;
    struct sub y;
    int r;

    if (dbg_read("hangcheck_period_ms", &period) == 0 && period != 500) {
        ktap_print_msg("hangcheck_period_ms is %lld (default 500)", period);
    }
    if (queue_faults(g_fd, 0, &hg_next.q0_faults0)) {
        return kt_fail(why, "SUBMITQUEUE_QUERY of queue 0 failed");
    }
    if (pair_make(g_fd, &hg_next.cmd, 4096, &hg_next.dst, MSM_BO_WC, why)) {
        return -1;
    }
    put_mem_write(&hg_next.cmd, 0, lo(hg_next.dst.iova), 0x4E9A7ED0);
    if (held_submit(&hg, NULL, why)) {
        return -1;
    }
    /* an innocent job queued behind it, on another queue */
    sub_pair(&y, 0, &hg_next.cmd, &hg_next.dst);
    sub_cmd(&y, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
    hg_next.r = sub_do(g_fd, &y);
    hg_next.fence = y.s.fence;
    r = wait_fence(g_fd, hg.q, hg.fence, 15000);
    hg_next.elapsed_ms = now_ms() - hg.t0;
    ktap_print_msg("hung job retired after %lld ms",
                   (long long)hg_next.elapsed_ms);
    if (r) {
        return kt_fail(why,
                       "WAIT_FENCE (15 s) on the hanging job: %s (no recovery)",
                       errno_name(-r));
    }
    return 0;
}

static int c_hang_recover(unsigned long arg, char *why)
{
    (void)arg;
    if (held_setup(&hg, hang_setup_and_wait, why)) {
        return -1;
    }
    /* hangcheck_timer_reset(): >= 500 ms after the job was kicked */
    if (hg_next.elapsed_ms < 450) {
        return kt_fail(
            why, "retired after %lld ms, before hangcheck could have fired",
            (long long)hg_next.elapsed_ms);
    }
    return 0;
}

#define NEED_HANG()                                                      \
    do {                                                                 \
        if (!hg.ok) {                                                    \
            return kt_fail(why, "depends on the recovered hang: %.200s", \
                           hg.why);                                      \
        }                                                                \
    } while (0)

static int c_hang_abandoned(unsigned long arg, char *why)
{
    (void)arg;
    NEED_HANG();
    if (hg.sem.map[1] != PRE_MARK) {
        return kt_fail(why,
                       "the hung IB never reached the WAIT_REG_MEM (0x%08x)",
                       hg.sem.map[1]);
    }
    if (hg.sem.map[2] != 0) {
        return kt_fail(why, "the hung IB ran past its WAIT_REG_MEM (0x%08x)",
                       hg.sem.map[2]);
    }
    return 0;
}

static int c_hang_faults(unsigned long arg, char *why)
{
    uint64_t f = 0;

    (void)arg;
    NEED_HANG();
    EXPECT(get_param(g_fd, MSM_PARAM_FAULTS, &f), 0, "GET_PARAM FAULTS");
    if (f != hg.faults0 + 1) {
        return kt_fail(why, "FAULTS %llu, expected %llu + 1",
                       (unsigned long long)f, (unsigned long long)hg.faults0);
    }
    return 0;
}

static int c_hang_queue_faults(unsigned long arg, char *why)
{
    uint32_t fq = 0, f0 = 0;

    (void)arg;
    NEED_HANG();
    EXPECT(queue_faults(g_fd, hg.q, &fq), 0, "SUBMITQUEUE_QUERY hung queue");
    EXPECT(queue_faults(g_fd, 0, &f0), 0, "SUBMITQUEUE_QUERY queue 0");
    if (fq != 1 || f0 != hg_next.q0_faults0) {
        return kt_fail(why,
                       "queue faults: hung queue %u (expected 1), queue 0 %u "
                       "(expected %u)",
                       fq, f0, hg_next.q0_faults0);
    }
    return 0;
}

static int c_hang_sync_file(unsigned long arg, char *why)
{
    struct sync_file_info info;

    (void)arg;
    NEED_HANG();
    if (hg.fd_out < 0) {
        return kt_fail(why, "no fence fd from SUBMIT FENCE_FD_OUT");
    }
    memset(&info, 0, sizeof(info));
    EXPECT(xioctl(hg.fd_out, SYNC_IOC_FILE_INFO, &info), 0,
           "SYNC_IOC_FILE_INFO");
    if (info.status != 1) {
        return kt_fail(why,
                       "sync_file status %d, expected 1 (signalled, no error: "
                       "6.12 sets none)",
                       info.status);
    }
    return 0;
}

static int c_hang_replay(unsigned long arg, char *why)
{
    (void)arg;
    NEED_HANG();
    EXPECT(hg_next.r, 0, "SUBMIT of the job behind the hang");
    EXPECT(wait_fence(g_fd, 0, hg_next.fence, 5000), 0, "WAIT_FENCE");
    if (hg_next.dst.map[0] != 0x4E9A7ED0) {
        return kt_fail(why,
                       "the job queued behind the hang did not run (0x%08x)",
                       hg_next.dst.map[0]);
    }
    return 0;
}

/* on the queue that hung */
static int hang_after(unsigned long arg, struct bo *cmd, struct bo *dst,
                      char *why)
{
    (void)arg;
    return gpu_proof(hg.q, cmd, dst, "after recovery", why);
}

/* the last case of the hang: the proof, then free the hang's state anyway */
static int c_hang_after(unsigned long arg, char *why)
{
    int ret = with_pair(hang_after, arg, 4096, MSM_BO_WC, why);

    held_free(&hg);
    pair_free(&hg_next.cmd, &hg_next.dst);
    return ret;
}

/* ---- hostile command streams ---- */

/*
 * Submit a command stream no driver would write, wait (up to 10 s: the
 * hangcheck may have to recover the GPU) for its fence, then prove that
 * the GPU still executes: the emulated GPU bounds its work, faults or
 * hangs, and the driver recovers; QEMU must live on.
 */
static int hostile_then_proof(const uint32_t *ib, unsigned n, struct bo *cmd,
                              struct bo *dst, char *why)
{
    struct sub x;
    int r;

    bo_write(cmd, 0, ib, n);
    /* a stream that refers to its own BO: patch in its address */
    for (unsigned i = 0; i < n; i++) {
        if (cmd->map[i] == 0xB0B0B0B0) {
            cmd->map[i] = lo(cmd->iova);
        }
    }
    __sync_synchronize();
    sub_one_ib(&x, 0, cmd->handle, n * 4);
    r = sub_do(g_fd, &x);
    if (r) {
        return kt_fail(why, "SUBMIT of the hostile stream: %s", errno_name(-r));
    }
    r = wait_fence(g_fd, 0, x.s.fence, 10000);
    if (r) {
        return kt_fail(why,
                       "the hostile stream's fence did not signal in 10 s: %s",
                       errno_name(-r));
    }
    memset((void *)cmd->map, 0, 4096);
    return gpu_proof(0, cmd, dst, "after the hostile stream", why);
}

static int hostile(unsigned long arg, struct bo *cmd, struct bo *dst, char *why)
{
    /* 0xB0B0B0B0 is replaced by the stream's own GPU address */
    static const uint32_t self_ib[] = {
        PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2),
        0xB0B0B0B0,
        3,
    };
    static const uint32_t unmapped_write[] = {
        PM4_PKT3(CP_MEM_WRITE, 2),
        0xFFFFF000,
        0xDEADBEEF,
    };
    static const uint32_t unmapped_ib[] = {
        PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2),
        0xFFFF0000,
        1024,
    };
    uint32_t garbage[512];
    uint32_t seed = 0x2014u;

    switch (arg) {
    case 0:
        return hostile_then_proof(self_ib, ARRAY_SIZE(self_ib), cmd, dst, why);
    case 1:
        return hostile_then_proof(unmapped_write, ARRAY_SIZE(unmapped_write),
                                  cmd, dst, why);
    case 2:
        return hostile_then_proof(unmapped_ib, ARRAY_SIZE(unmapped_ib), cmd,
                                  dst, why);
    default:
        for (unsigned i = 0; i < ARRAY_SIZE(garbage); i++) {
            seed = seed * 1103515245u + 12345u;
            garbage[i] = seed ^ (seed >> 16);
        }
        return hostile_then_proof(garbage, ARRAY_SIZE(garbage), cmd, dst, why);
    }
}

/* a job held, a job that never completes, hostile streams */
void register_hang_cases(void)
{
    /* a job held on CP_WAIT_REG_MEM */
    kt_add(c_stall_setup, 0,
           "GPU CP_WAIT_REG_MEM on an unset semaphore holds the IB");
    kt_add(c_stall_wait_fence, 0,
           "WAIT_FENCE poll on the held job returns ETIMEDOUT");
    kt_add(
        c_stall_wait_fence, 50,
        "WAIT_FENCE 50 ms deadline on the held job returns ETIMEDOUT in time");
    kt_add(
        c_stall_cpu_prep, 0,
        "GEM_CPU_PREP WRITE|NOSYNC on the held job's WRITE BO returns EBUSY");
    kt_add(
        c_stall_cpu_prep, 1,
        "GEM_CPU_PREP READ with a past deadline on the WRITE BO returns EBUSY");
    kt_add(c_stall_cpu_prep, 2,
           "GEM_CPU_PREP READ with a 50 ms deadline on the WRITE BO returns "
           "ETIMEDOUT");
    kt_add(c_stall_cpu_prep, 3,
           "GEM_CPU_PREP READ|NOSYNC on the held job's READ BO returns 0");
    kt_add(c_stall_cpu_prep, 4,
           "GEM_CPU_PREP WRITE|NOSYNC on the held job's READ BO returns EBUSY");
    kt_add(c_stall_poll, 0, "poll on the held job's sync_file is not readable");
    kt_add(
        c_stall_sn_busy, 0,
        "SUBMIT FENCE_SN_IN with the held job's fence id rejected with EINVAL");
    kt_add(c_stall_release, 0,
           "CPU write releases CP_WAIT_REG_MEM: job completes without a fault");
    kt_add(c_implicit, 0,
           "SUBMIT without NO_IMPLICIT waits for its BO's pending writer "
           "(implicit sync)");
    kt_add(c_implicit, 1,
           "SUBMIT with NO_IMPLICIT does not wait for its BO's pending writer");

    /* a job that never completes */
    kt_add(c_hang_recover, 0,
           "GPU hang on CP_WAIT_REG_MEM is recovered by hangcheck: WAIT_FENCE "
           "returns 0");
    kt_add(c_hang_abandoned, 0, "GPU hung IB is abandoned at the WAIT_REG_MEM");
    kt_add(c_hang_faults, 0,
           "GET_PARAM FAULTS grew by exactly 1 after the hang");
    kt_add(c_hang_queue_faults, 0,
           "SUBMITQUEUE_QUERY FAULTS is 1 on the hung queue, unchanged on "
           "queue 0");
    kt_add(c_hang_sync_file, 0,
           "SUBMIT hung job's sync_file is signalled with status 1 after "
           "recovery");
    kt_add(c_hang_replay, 0,
           "GPU job queued behind the hang is replayed and completes");
    kt_add(c_hang_after, 0, "GPU CP_MEM_WRITE works again after recovery");

    /* hostile command streams: QEMU lives on, the driver recovers */
    add_gpu(
        hostile, 0, 4096, MSM_BO_WC,
        "GPU hostile: a self-referencing IB ends, then the GPU still executes");
    add_gpu(hostile, 1, 4096, MSM_BO_WC,
            "GPU hostile: CP_MEM_WRITE to an unmapped GPU address, then the "
            "GPU still executes");
    add_gpu(hostile, 2, 4096, MSM_BO_WC,
            "GPU hostile: an IB at an unmapped GPU address, then the GPU still "
            "executes");
    add_gpu(hostile, 3, 4096, MSM_BO_WC,
            "GPU hostile: 512 dwords of garbage packets, then the GPU still "
            "executes");
}
