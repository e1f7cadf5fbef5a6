/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faults_agpu.c - the agpu's fault campaign (episode.h): the seeded plan
 * of the GPU with id=gpu (images/suites/gpufaults.qemu), a workload of msm
 * ioctls on the render node (msm/msm_common.h), and the GPU checked after
 * the plan is cleared.
 *
 * The workload, one iteration per episode: GEM_NEW, GEM_INFO (iova) and
 * GEM_CLOSE of a fresh BO, then a submit of one CP_MEM_WRITE job and
 * WAIT_FENCE on it.  The GPU has no CRC: what the job wrote under the plan
 * is not judged (a job hangcheck dropped never ran), only that every
 * ioctl ends within its bound.  With the plan cleared the same job must
 * write its value within the bound: a stall the plan left behind is
 * recovered by hangcheck first, so the check tries again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "episode.h"
#include "msm_common.h"

/*
 * The kinds of the plan and their rates, per mille of their events
 * (docs/devices/agpu.md "Fault plans").  One episode makes about 2
 * interrupts and acks, 1 or 2 submits (hw_init after a runtime resume
 * writes WPTR too), 10 RPTR reports, 10 MMU translations, 50 register
 * reads, and a reset only with a hw_init: about one fault expected.
 */
static const struct fc_rate rates[] = {
    {"irq-storm", 50},     {"spurious-rbbm", 30}, {"spurious-cp", 30},
    {"spurious-mh", 30},   {"cp-stall", 20},      {"rptr-jump", 10},
    {"mmu-fault", 5},      {"reset-slow", 30},    {"stale-read", 3},
};

/*
 * Bounds: hangcheck looks every 500 ms and recovers a hang 0.5 to 1 s
 * after it (msm_gpu.c hangcheck_handler()); a reset-slow adds 1 s of
 * adreno_idle() per hw_init.  msm_faults.c allows 15 s for a recovery; a
 * WAIT_FENCE gets that, the workload twice that, the check after the plan
 * two recoveries.
 */
#define FENCE_MS    15000
#define WORKLOAD_MS 40000
#define RECOVER_MS  35000

static int g_fd = -1;
static struct bo cmd_bo, dst_bo;

static uint32_t iova_lo(const struct bo *b)
{
    return (uint32_t)b->iova;
}

/* One CP_MEM_WRITE of val to dst's first dword; WAIT_FENCE's result. */
static int mem_write_job(uint32_t val)
{
    const uint32_t ib[] = {PM4_PKT3(CP_MEM_WRITE, 2), iova_lo(&dst_bo), val};
    struct sub x;
    int r;

    bo_write(&cmd_bo, 0, ib, 3);
    sub_init(&x, 0);
    sub_bo(&x, cmd_bo.handle, MSM_SUBMIT_BO_READ);
    sub_bo(&x, dst_bo.handle, MSM_SUBMIT_BO_WRITE);
    sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(ib));
    r = sub_do(g_fd, &x);
    return r ? r : wait_fence(g_fd, 0, x.s.fence, FENCE_MS);
}

static void workload(uint64_t seed, struct fc_report *rep)
{
    uint32_t handle = 0;
    uint64_t iova = 0;

    fc_op(rep, "GEM_NEW");
    if (gem_new(g_fd, 4096, MSM_BO_WC, &handle) == 0) {
        fc_op(rep, "GEM_INFO");
        gem_info(g_fd, handle, MSM_INFO_GET_IOVA, &iova);
        fc_op(rep, "GEM_CLOSE");
        gem_close(g_fd, handle);
    }
    fc_op(rep, "SUBMIT+WAIT_FENCE");
    mem_write_job((uint32_t)seed * 2654435761u);
}

static int recover(struct fc_report *rep)
{
    long long end = now_ms() + RECOVER_MS;
    uint32_t val = 0xC0DE0000u;
    int r = 0;

    fc_op(rep, "recovery");
    while (now_ms() < end) {
        dst_bo.map[0] = 0;
        val++;
        r = mem_write_job(val);
        if (r == 0 && dst_bo.map[0] == val) {
            return 0;
        }
    }
    snprintf(rep->detail, sizeof(rep->detail),
             "%d ms after the plan was cleared the job does not run: the "
             "last WAIT_FENCE %s, dst 0x%08x (want 0x%08x)",
             RECOVER_MS, r ? errno_name(-r) : "signalled", dst_bo.map[0], val);
    return -1;
}

static int setup(char *why)
{
    char path[64], msg[KT_WHY_LEN];

    g_fd = msm_open_render(path, sizeof(path), msg, sizeof(msg));
    if (g_fd < 0) {
        return kt_fail(why, "%s", msg);
    }
    if (bo_make(&cmd_bo, g_fd, 4096, MSM_BO_WC, msg, sizeof(msg)) ||
        bo_make(&dst_bo, g_fd, 4096, MSM_BO_WC, msg, sizeof(msg))) {
        return kt_fail(why, "%s", msg);
    }
    /*
     * the GPU runs before any plan: else no episode proves anything (three
     * tries: under faultcamp.replay the plan is on from boot)
     */
    for (int i = 0; i < 3; i++) {
        dst_bo.map[0] = 0;
        if (mem_write_job(0x5EED5EEDu) == 0 && dst_bo.map[0] == 0x5EED5EEDu) {
            return 0;
        }
    }
    return kt_fail(why, "a CP_MEM_WRITE job without a plan did not run");
}

static const struct fc_device agpu = {
    .name = "agpu",
    .qom = "/machine/peripheral/gpu",
    .rates = rates,
    .nrates = ARRAY_SIZE(rates),
    .setup = setup,
    .workload = workload,
    .workload_ms = WORKLOAD_MS,
    .recover = recover,
    .recover_ms = RECOVER_MS + 20000,
};

int main(void)
{
    return fc_main(&agpu);
}
