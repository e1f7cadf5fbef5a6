/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_exec.c - msm_ioctl's cases that make the GPU execute the test's own
 * PM4: a table of submit-then-check jobs (exec_jobs[]), then contexts,
 * queues and runtime suspend.
 *
 * The proof that the GPU executes at all is the first job: an IB whose one
 * CP_MEM_WRITE puts 0xCAFEBABE into a WRITE BO, which the CPU sees through
 * its mapping once WAIT_FENCE returned. The others vary the IB (several
 * dwords, registers to memory, offsets, two cmds, an IB2, relocs) and say
 * which dwords the job must leave with which value.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msm_test.h"

/* ---- submit-then-check jobs ---- */

/* A dword the job must leave with a value: in dst, or in cmd (relocs). */
struct dword_want {
    bool used, in_cmd;
    uint16_t idx;
    uint32_t val;
};
#define DST(i, v)             \
    {                         \
        true, false, (i), (v) \
    }
#define CMD(i, v)            \
    {                        \
        true, true, (i), (v) \
    }

/*
 * build() writes the IBs into cmd (cmd_size bytes) and makes the submit x;
 * after its fence every want[] dword must hold its value and check(), if
 * any, must pass too.
 */
struct exec_job {
    const char *name;
    uint32_t cmd_size, dst_flags;
    enum feat feat;
    void (*build)(struct sub *x, struct bo *cmd, struct bo *dst,
                  unsigned long arg);
    unsigned long arg;
    struct dword_want want[5];
    int (*check)(const struct sub *x, struct bo *cmd, struct bo *dst,
                 char *why);
};

/* x: one BUF cmd of size bytes at off of cmd, dst as the WRITE BO. */
static void one_cmd(struct sub *x, struct bo *cmd, struct bo *dst, uint32_t off,
                    uint32_t size)
{
    sub_pair(x, 0, cmd, dst);
    sub_cmd(x, MSM_SUBMIT_CMD_BUF, 0, off, size);
}

/* arg: the value to CP_MEM_WRITE to dword 0 of dst */
static void b_mem_write(struct sub *x, struct bo *cmd, struct bo *dst,
                        unsigned long arg)
{
    put_mem_write(cmd, 0, lo(dst->iova), (uint32_t)arg);
    one_cmd(x, cmd, dst, 0, MEM_WRITE_BYTES);
}

static int fence_not_zero(const struct sub *x, struct bo *cmd, struct bo *dst,
                          char *why)
{
    (void)cmd;
    (void)dst;
    return x->s.fence ? KTAP_PASS : kt_fail(why, "SUBMIT returned fence 0");
}

/* three dwords into the middle of the second page */
static void b_mem_write_multi(struct sub *x, struct bo *cmd, struct bo *dst,
                              unsigned long arg)
{
    const uint32_t ib[] = {PM4_PKT3(CP_MEM_WRITE, 4), lo(dst->iova) + 2048,
                           0x11111111, 0x22222222, 0x33333333};

    (void)arg;
    bo_write(cmd, 0, ib, ARRAY_SIZE(ib));
    one_cmd(x, cmd, dst, 0, sizeof(ib));
}

static void b_reg_to_mem(struct sub *x, struct bo *cmd, struct bo *dst,
                         unsigned long arg)
{
    const uint32_t ib[] = {
        PM4_PKT0(REG_AXXX_CP_SCRATCH_REG3, 2),
        0x5C7A7C43,
        0x5C7A7C44,
        PM4_PKT3(CP_REG_TO_MEM, 2),
        REG_AXXX_CP_SCRATCH_REG3 | (2u << CP_REG_TO_MEM_CNT_SHIFT),
        lo(dst->iova) + 16,
    };

    (void)arg;
    bo_write(cmd, 0, ib, ARRAY_SIZE(ib));
    one_cmd(x, cmd, dst, 0, sizeof(ib));
}

/* cmd is two pages: the IB at 4608 must run, not the decoy at 0. */
static void b_offset(struct sub *x, struct bo *cmd, struct bo *dst,
                     unsigned long arg)
{
    (void)arg;
    put_mem_write(cmd, 0, lo(dst->iova), 0xDEC0DEC0);
    put_mem_write(cmd, 4096 + 512, lo(dst->iova) + 4, 0x0FF5E700);
    one_cmd(x, cmd, dst, 4096 + 512, MEM_WRITE_BYTES);
}

/* submit_offset 2 is divided by 4 (msm_gem_submit.c): the IB starts at 0. */
static void b_unaligned_offset(struct sub *x, struct bo *cmd, struct bo *dst,
                               unsigned long arg)
{
    (void)arg;
    put_mem_write(cmd, 0, lo(dst->iova), 0x0FF5E702);
    one_cmd(x, cmd, dst, 2, MEM_WRITE_BYTES);
}

/*
 * arg: 0 two BUF cmds, 1 BUF + IB_TARGET_BUF, 2 IB1 calling an IB2 and then
 * writing 0xC0C0C0C0 to dword 2. The second cmd (at 256) writes 0xB0B0B0B0
 * to dword 1; the first, but for 2, 0xA0A0A0A0 to dword 0.
 */
static void b_cmds(struct sub *x, struct bo *cmd, struct bo *dst,
                   unsigned long arg)
{
    const uint32_t call[] = {PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2),
                             lo(cmd->iova) + 256,
                             MEM_WRITE_BYTES / 4,
                             PM4_PKT2,
                             PM4_PKT3(CP_MEM_WRITE, 2),
                             lo(dst->iova) + 8,
                             0xC0C0C0C0};

    if (arg == 2) {
        bo_write(cmd, 0, call, ARRAY_SIZE(call));
    } else {
        put_mem_write(cmd, 0, lo(dst->iova), 0xA0A0A0A0);
    }
    put_mem_write(cmd, 256, lo(dst->iova) + 4, 0xB0B0B0B0);
    one_cmd(x, cmd, dst, 0, arg == 2 ? sizeof(call) : MEM_WRITE_BYTES);
    sub_cmd(x, arg == 0 ? MSM_SUBMIT_CMD_BUF : MSM_SUBMIT_CMD_IB_TARGET_BUF, 0,
            256, MEM_WRITE_BYTES);
}

/* the relocs of b_reloc(), which point into them */
static struct drm_msm_gem_submit_reloc g_rel[4];

/* arg 0: relocated CP_MEM_WRITE address; 1: shift and or values */
static void b_reloc(struct sub *x, struct bo *cmd, struct bo *dst,
                    unsigned long arg)
{
    memset(g_rel, 0, sizeof(g_rel));
    if (arg == 0) {
        put_mem_write(cmd, 0, 0xDEAD0000, 0x12345678);
        g_rel[0].submit_offset = 4;
        g_rel[0].reloc_idx = 1;
        g_rel[0].reloc_offset = 16;
        one_cmd(x, cmd, dst, 0, MEM_WRITE_BYTES);
        x->cmds[0].nr_relocs = 1;
    } else {
        /* the patched dwords are NOP payload: executing them is harmless */
        const uint32_t ib[] = {PM4_PKT3(CP_NOP, 4), 0xDEAD0001, 0xDEAD0002,
                               0xDEAD0003, 0xDEAD0004};

        bo_write(cmd, 0, ib, ARRAY_SIZE(ib));
        g_rel[0].submit_offset = 4; /* ((dst + 0x100) >> 4) | 3 */
        g_rel[0].reloc_idx = 1;
        g_rel[0].reloc_offset = 0x100;
        g_rel[0].shift = -4;
        g_rel[0].or_value = 3;
        g_rel[1].submit_offset = 8; /* (dst + 0x100) << 4, low 32 bits */
        g_rel[1].reloc_idx = 1;
        g_rel[1].reloc_offset = 0x100;
        g_rel[1].shift = 4;
        g_rel[2].submit_offset = 12; /* cmd iova ... */
        g_rel[2].reloc_idx = 0;
        g_rel[3].submit_offset = 12; /* ... overwritten: equal offsets are ok */
        g_rel[3].reloc_idx = 1;
        g_rel[3].or_value = 1;
        one_cmd(x, cmd, dst, 0, sizeof(ib));
        x->cmds[0].nr_relocs = 4;
    }
    x->cmds[0].relocs = (uintptr_t)g_rel;
}

/* The patched dwords 1..3 of cmd, which depend on where dst is. */
static int reloc_patched(const struct sub *x, struct bo *cmd, struct bo *dst,
                         char *why)
{
    uint32_t want[3] = {lo(dst->iova) + 16, 0, 0};
    unsigned n = 1;

    if (x->cmds[0].nr_relocs == 4) {
        want[0] = (uint32_t)((dst->iova + 0x100) >> 4) | 3;
        want[1] = (uint32_t)((dst->iova + 0x100) << 4);
        want[2] = lo(dst->iova) | 1;
        n = 3;
    }
    for (unsigned i = 0; i < n; i++) {
        if (cmd->map[1 + i] != want[i]) {
            return kt_fail(why, "patched dword %u is 0x%08x, expected 0x%08x",
                           1 + i, cmd->map[1 + i], want[i]);
        }
    }
    return KTAP_PASS;
}

static void b_no_implicit(struct sub *x, struct bo *cmd, struct bo *dst,
                          unsigned long arg)
{
    (void)arg;
    put_mem_write(cmd, 0, lo(dst->iova), 0x40C0FFEE);
    sub_init(x, 0);
    x->s.flags |= MSM_SUBMIT_NO_IMPLICIT;
    sub_bo(x, cmd->handle, MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_NO_IMPLICIT);
    sub_bo(x, dst->handle, MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP);
    sub_cmd(x, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
}

enum {
    EX_MEM_WRITE,
    EX_MEM_WRITE_MULTI,
    EX_REG_TO_MEM,
    EX_OFFSET,
    EX_UNALIGNED,
    EX_CMDS_BUF,
    EX_CMDS_TARGET,
    EX_CMDS_IB2,
    EX_RELOC,
    EX_RELOC_SHIFT,
    EX_READONLY,
    EX_NO_IMPLICIT,
};

static const struct exec_job exec_jobs[] = {
    [EX_MEM_WRITE] = {"GPU CP_MEM_WRITE puts 0xCAFEBABE in a WRITE BO, seen "
                      "through mmap after WAIT_FENCE",
                      4096,
                      MSM_BO_WC,
                      F_ALWAYS,
                      b_mem_write,
                      0xCAFEBABE,
                      {DST(0, 0xCAFEBABE), DST(1, 0)},
                      fence_not_zero},
    [EX_MEM_WRITE_MULTI] =
        {"GPU CP_MEM_WRITE of 3 dwords lands exactly in the second page",
         4096,
         MSM_BO_WC,
         F_ALWAYS,
         b_mem_write_multi,
         0,
         {DST(511, 0), DST(512, 0x11111111), DST(513, 0x22222222),
          DST(514, 0x33333333), DST(515, 0)},
         NULL},
    [EX_REG_TO_MEM] =
        {"GPU PKT0 CP_SCRATCH_REG3..4 then CP_REG_TO_MEM copies both to memory",
         4096,
         MSM_BO_WC,
         F_ALWAYS,
         b_reg_to_mem,
         0,
         {DST(3, 0), DST(4, 0x5C7A7C43), DST(5, 0x5C7A7C44), DST(6, 0)},
         NULL},
    [EX_OFFSET] = {"GPU runs an IB at a non-zero submit_offset (second page)",
                   8192,
                   MSM_BO_WC,
                   F_ALWAYS,
                   b_offset,
                   0,
                   {DST(0, 0), DST(1, 0x0FF5E700)},
                   NULL},
    [EX_UNALIGNED] =
        {"GPU IB with submit_offset 2 runs from offset 0 (6.12 truncates)",
         4096,
         MSM_BO_WC,
         F_ALWAYS,
         b_unaligned_offset,
         0,
         {DST(0, 0x0FF5E702)},
         NULL},
    [EX_CMDS_BUF] = {"GPU runs both BUF cmds of one submit",
                     4096,
                     MSM_BO_WC,
                     F_ALWAYS,
                     b_cmds,
                     0,
                     {DST(0, 0xA0A0A0A0), DST(1, 0xB0B0B0B0)},
                     NULL},
    /* IB_TARGET_BUF is not put in the ring */
    [EX_CMDS_TARGET] = {"GPU does not run an IB_TARGET_BUF cmd by itself",
                        4096,
                        MSM_BO_WC,
                        F_ALWAYS,
                        b_cmds,
                        1,
                        {DST(0, 0xA0A0A0A0), DST(1, 0)},
                        NULL},
    /* the IB2, then IB1 after the call */
    [EX_CMDS_IB2] =
        {"GPU IB1 calls an IB_TARGET_BUF as IB2 and resumes after it",
         4096,
         MSM_BO_WC,
         F_ALWAYS,
         b_cmds,
         2,
         {DST(1, 0xB0B0B0B0), DST(2, 0xC0C0C0C0)},
         NULL},
    [EX_RELOC] = {"GPU reloc patches the CP_MEM_WRITE address with iova+16, "
                  "the write lands there",
                  4096,
                  MSM_BO_WC,
                  F_ALWAYS,
                  b_reloc,
                  0,
                  {DST(0, 0), DST(4, 0x12345678)},
                  reloc_patched},
    [EX_RELOC_SHIFT] = {"SUBMIT relocs with shift -4 and or 3, shift 4, and a "
                        "repeated offset patch exactly",
                        4096,
                        MSM_BO_WC,
                        F_ALWAYS,
                        b_reloc,
                        1,
                        {CMD(4, 0xDEAD0004)},
                        reloc_patched},
    /* the write is dropped, the fence still signals */
    [EX_READONLY] = {"GPU CP_MEM_WRITE into a GPU_READONLY BO is dropped, the "
                     "fence still signals",
                     4096,
                     MSM_BO_WC | MSM_BO_GPU_READONLY,
                     F_ALWAYS,
                     b_mem_write,
                     0xBADBAD00,
                     {DST(0, 0)},
                     NULL},
    [EX_NO_IMPLICIT] =
        {"GPU submit with NO_IMPLICIT, bo NO_IMPLICIT and DUMP writes its BO",
         4096,
         MSM_BO_WC,
         F_SUBMIT_BO_NO_IMPLICIT,
         b_no_implicit,
         0,
         {DST(0, 0x40C0FFEE)},
         NULL},
};

static int run_exec_job(unsigned long i, struct bo *cmd, struct bo *dst,
                        char *why)
{
    const struct exec_job *j = &exec_jobs[i];
    struct sub x;

    NEED_FEAT(j->feat);
    j->build(&x, cmd, dst, j->arg);
    if (sub_run(g_fd, &x, "SUBMIT", why)) {
        return KTAP_FAIL;
    }
    for (unsigned k = 0; k < ARRAY_SIZE(j->want) && j->want[k].used; k++) {
        const struct dword_want *w = &j->want[k];
        uint32_t got = (w->in_cmd ? cmd : dst)->map[w->idx];

        if (got != w->val) {
            return kt_fail(why, "dword %u of %s is 0x%08x, expected 0x%08x",
                           w->idx, w->in_cmd ? "cmd" : "dst", got, w->val);
        }
    }
    return j->check ? j->check(&x, cmd, dst, why) : KTAP_PASS;
}

/* Register the jobs from first to last, in table order. */
static void add_jobs(unsigned first, unsigned last)
{
    for (unsigned i = first; i <= last; i++) {
        add_gpu(run_exec_job, i, exec_jobs[i].cmd_size, exec_jobs[i].dst_flags,
                "%s", exec_jobs[i].name);
    }
}

/* ---- contexts, queues, suspend ---- */

/*
 * CTX_RESTORE_BUF: a2xx_submit() puts it in the ring only when
 * gpu->cur_ctx_seqno differs from the submitting file's context.
 * which 0: first submit of a new file runs it, its second does not;
 * which 1: after another file submitted in between, it runs again.
 *
 * One submit of fd: a CTX_RESTORE_BUF that writes val to dword slot and a
 * BUF that writes it to dword 0; the restore must have run or not (ran).
 */
static int ctx_submit(int fd, struct bo *cmd, struct bo *dst, uint32_t slot,
                      bool ran, const char *what, char *why)
{
    uint32_t val = 0xC7C70000 + slot;
    struct sub x;

    put_mem_write(cmd, 0, lo(dst->iova) + 4 * slot, val);
    put_mem_write(cmd, 256, lo(dst->iova), val);
    sub_pair(&x, 0, cmd, dst);
    sub_cmd(&x, MSM_SUBMIT_CMD_CTX_RESTORE_BUF, 0, 0, MEM_WRITE_BYTES);
    sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 256, MEM_WRITE_BYTES);
    if (sub_run(fd, &x, "SUBMIT", why)) {
        kt_why_prefix(why, what);
        return -1;
    }
    if (dst->map[0] != val) {
        return kt_fail(why, "%s: the BUF cmd did not run (dword 0 is 0x%08x)",
                       what, dst->map[0]);
    }
    if (dst->map[slot] != (ran ? val : 0)) {
        return kt_fail(why, "%s: CTX_RESTORE_BUF %s (0x%08x)", what,
                       ran ? "did not run" : "ran", dst->map[slot]);
    }
    return 0;
}

static int c_exec_ctx_restore(unsigned long which, char *why)
{
    struct bo cmd = {0}, dst = {0};
    int fd2, ret = 0;

    fd2 = open(g_render, O_RDWR | O_CLOEXEC);
    if (fd2 < 0) {
        return kt_fail(why, "open %s: %s", g_render, strerror(errno));
    }
    if (pair_make(fd2, &cmd, 4096, &dst, MSM_BO_WC, why) ||
        ctx_submit(fd2, &cmd, &dst, 1, true, "first submit of a new file",
                   why)) {
        BAIL_OUT();
    }
    if (which == 0) {
        if (ctx_submit(fd2, &cmd, &dst, 2, false,
                       "second submit of the same file", why)) {
            BAIL_OUT();
        }
    } else {
        struct sub y;

        if (!g_fix_ok) {
            FAIL_OUT("fixture: %.200s", g_fix_why);
        }
        sub_base(&y, 0); /* another context takes the GPU */
        if (sub_run(g_fd, &y, "SUBMIT from the main file", why) ||
            ctx_submit(fd2, &cmd, &dst, 3, true, "after a context switch",
                       why)) {
            BAIL_OUT();
        }
    }
out:
    pair_free(&cmd, &dst);
    close(fd2);
    return ret;
}

/* which 0: fence ids 1,2,3 on a new queue and last write wins; 1: 3 queues */
static int exec_queues(unsigned long which, struct bo *cmd, struct bo *dst,
                       char *why)
{
    uint32_t q[3] = {0}, fence[3] = {0};
    int ret = 0;

    for (unsigned i = 0; i < 3; i++) {
        int r = queue_new(g_fd, which ? i : 1, &q[i]);

        if (r) {
            FAIL_OUT("SUBMITQUEUE_NEW: %s", errno_name(-r));
        }
        if (!which) {
            break;
        }
    }
    for (unsigned i = 0; i < 3; i++) {
        uint32_t qi = which ? q[i] : q[0];
        const uint32_t ib[] = {PM4_PKT3(CP_MEM_WRITE, 3),
                               lo(dst->iova) + (which ? 8 * i : 0),
                               0x51000000 + i, 0x52000000 + i};
        struct sub x;
        int r;

        bo_write(cmd, 64 * i, ib, ARRAY_SIZE(ib));
        sub_pair(&x, qi, cmd, dst);
        sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 64 * i, sizeof(ib));
        r = sub_do(g_fd, &x);
        if (r) {
            FAIL_OUT("SUBMIT %u: %s", i, errno_name(-r));
        }
        fence[i] = x.s.fence;
    }
    if (which) {
        for (unsigned i = 0; i < 3; i++) {
            int r = wait_fence(g_fd, q[i], fence[i], 5000);

            if (r) {
                FAIL_OUT("WAIT_FENCE queue %u: %s", q[i], errno_name(-r));
            }
        }
        if (fence[0] != 1 || fence[1] != 1 || fence[2] != 1) {
            FAIL_OUT("first fences of new queues %u %u %u, expected 1 1 1",
                     fence[0], fence[1], fence[2]);
        }
        for (unsigned i = 0; i < 3; i++) {
            if (dst->map[2 * i] != 0x51000000 + i ||
                dst->map[2 * i + 1] != 0x52000000 + i) {
                FAIL_OUT("queue %u (prio %u) did not write its slot: %08x %08x",
                         q[i], i, dst->map[2 * i], dst->map[2 * i + 1]);
            }
        }
    } else {
        int r = wait_fence(g_fd, q[0], fence[2], 5000);

        if (r) {
            FAIL_OUT("WAIT_FENCE on the last fence: %s", errno_name(-r));
        }
        if (fence[0] != 1 || fence[1] != 2 || fence[2] != 3) {
            FAIL_OUT("fences %u %u %u on a new queue, expected 1 2 3", fence[0],
                     fence[1], fence[2]);
        }
        r = wait_fence(g_fd, q[0], fence[0], -1);
        if (r) {
            FAIL_OUT("WAIT_FENCE poll on the first (retired) fence: %s",
                     errno_name(-r));
        }
        r = wait_fence(g_fd, q[0], fence[2] + 1, -1);
        if (r != -EINVAL) {
            FAIL_OUT("WAIT_FENCE on the next, unsubmitted fence: %s, expected "
                     "EINVAL",
                     errno_name(-r));
        }
        if (dst->map[0] != 0x51000002 || dst->map[1] != 0x52000002) {
            FAIL_OUT("after 3 in-order submits: %08x %08x, expected 51000002 "
                     "52000002",
                     dst->map[0], dst->map[1]);
        }
    }
out:
    for (unsigned i = 0; i < 3; i++) {
        if (q[i]) {
            queue_close(g_fd, q[i]);
        }
    }
    return ret;
}

static int exec_suspend(unsigned long arg, struct bo *cmd, struct bo *dst,
                        char *why)
{
    uint64_t s0 = 0, s1 = 0;

    (void)arg;
    /* read before the submit: its resume must be followed by a suspend */
    EXPECT(get_param(g_fd, MSM_PARAM_SUSPENDS, &s0), 0, "GET_PARAM SUSPENDS");
    if (run_mem_write(0, cmd, 0, dst, 0, 0x5B5B0001, why)) {
        kt_why_prefix(why, "before the idle period");
        return -1;
    }
    /* autosuspend delay is 66 ms (DRM_MSM_INACTIVE_PERIOD) */
    sleep_ms(600);
    EXPECT(get_param(g_fd, MSM_PARAM_SUSPENDS, &s1), 0, "GET_PARAM SUSPENDS");
    if (s1 <= s0) {
        return kt_fail(why,
                       "SUSPENDS %llu before and %llu after 600 ms idle: no "
                       "runtime suspend",
                       (unsigned long long)s0, (unsigned long long)s1);
    }
    if (run_mem_write(0, cmd, 64, dst, 4, 0x5B5B0002, why)) {
        kt_why_prefix(why, "after resume");
        return -1;
    }
    if (dst->map[0] != 0x5B5B0001 || dst->map[1] != 0x5B5B0002) {
        return kt_fail(why, "dwords 0,1: %08x %08x, expected 5b5b0001 5b5b0002",
                       dst->map[0], dst->map[1]);
    }
    return 0;
}

/* GPU execution; most on a fresh pair of BOs (add_gpu) */
void register_exec_cases(void)
{
    add_jobs(EX_MEM_WRITE, EX_CMDS_IB2);
    kt_add(c_exec_ctx_restore, 0,
           "GPU CTX_RESTORE_BUF runs on a file's first submit, not on its "
           "second");
    kt_add(c_exec_ctx_restore, 1,
           "GPU CTX_RESTORE_BUF runs again after another file submitted");
    add_jobs(EX_RELOC, EX_READONLY);
    add_gpu(exec_queues, 0, 4096, MSM_BO_WC,
            "SUBMIT fences on a new queue are 1, 2, 3 and run in order");
    add_gpu(exec_queues, 1, 4096, MSM_BO_WC,
            "SUBMIT on queues of prio 0, 1, 2: each first fence is 1, all run");
    kt_add(c_exec_fence_only, 0,
           "SUBMIT without bos or cmds (fence only) signals");
    kt_add(c_exec_fence_only, MSM_SUBMIT_NO_IMPLICIT,
           "SUBMIT NO_IMPLICIT fence only signals");
    add_jobs(EX_NO_IMPLICIT, EX_NO_IMPLICIT);
    kt_add(c_exec_fence_fd, 0,
           "SUBMIT FENCE_FD_OUT sync_file is CLOEXEC, polls readable, feeds "
           "FENCE_FD_IN");
    kt_add(c_exec_syncobj, 0,
           "SUBMIT SYNCOBJ_OUT syncobj signals (SYNCOBJ_WAIT)");
    kt_add(c_exec_syncobj, 1,
           "SUBMIT SYNCOBJ_IN with RESET consumes the fence (next use EINVAL)");
    kt_add(c_exec_fence_sn, 0,
           "SUBMIT FENCE_SN_IN 1000 uses that fence id for WAIT_FENCE");
    add_gpu(exec_suspend, 0, 4096, MSM_BO_WC,
            "GET_PARAM SUSPENDS grows over 600 ms idle and the GPU runs after "
            "resume");
}
