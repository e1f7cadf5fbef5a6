/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_faults.c - msm_ioctl's cases of a GPU that misbehaves on purpose: the
 * agpu's scripted fault plan (docs/devices/agpu.md, "Fault plans"), set
 * through the control channel (common/pbctl.h) on the device with id=gpu
 * (images/suites/msm.qemu).  Each row: a plan, a submit, what the msm
 * driver makes of it, and the GPU executing again once the plan is cleared.
 *
 * The plan counts the agpu's events from the moment it is set; a submit
 * event is a CP_RB_WPTR write (adreno_flush()), and msm_gpu_submit()
 * (msm_gpu.c:756-758) runs hw_init first, whose a2xx_me_init() writes
 * WPTR too, when the GPU was runtime-resumed since the last one
 * (msm_gpu_pm_resume() sets needs_hw_init, msm_gpu.c:120).  So the case
 * keeps the GPU resumed (power/control "on") and runs a clean job first:
 * the case's own submit is then the plan's submit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msm_test.h"
#include "pbctl.h"

#define GPU_QOM   "/machine/peripheral/gpu"
#define HANG_MARK 0x5714110Cu

/*
 * Bounds: hangcheck_handler() looks every DRM_MSM_HANGCHECK_DEFAULT_PERIOD
 * (500 ms, msm_gpu.h) and declares the hang at the first look that finds
 * the ring's fence where the last look left it, pending work behind it
 * (msm_gpu.c, hangcheck_handler()): 0.5 to 1 s after the submit, then
 * recover_worker() resets and replays.  The existing hang case allows
 * 15 s; so does this one.  A job of one CP_MEM_WRITE takes microseconds:
 * 100 ms without its fence is a held job.
 */
#define RECOVER_MS 15000
#define HELD_MS    100

struct gf_row {
    const char *name;
    const char *script; /* fault-script */
    const char *fired;  /* fault-counts afterwards, exactly */
};

static const struct gf_row rows[] = {
    /*
     * The CP stops before the first packet of the submit (cp-stall): no
     * fence, no interrupt.  hangcheck_handler() finds no progress and
     * queues recover_worker() (msm_gpu.c), which counts the fault against
     * the submit's queue and globally (submit->queue->faults++,
     * gpu->global_faults++), advances the ring's fence past the hung
     * submit ("advance the fence by one more to clear the faulting
     * submit") so that its fence signals, and a2xx_recover() soft-resets
     * the CP (a2xx_gpu.c); the hung job's IB never ran.  The plan's stall
     * is gone with the soft reset; once the plan is cleared too, the next
     * submit on the same queue must run.
     */
    {"GPU fault submit:1:cp-stall: the job is held, hangcheck recovers it "
     "as a fault (FAULTS + 1, IB not run), then the GPU executes again",
     "submit:1:cp-stall", "cp-stall=1"},
    /*
     * The same hang, and the soft reset of a2xx_recover() takes 2 s
     * (reset-slow): the hw_init after it times out in adreno_idle()
     * ("gpu hw init failed").  The hung job still counts as a fault and
     * its fence still signals; once the CP is out of reset, the next
     * submit on the same queue must run.
     */
    {"GPU fault submit:1:cp-stall;reset:1:reset-slow: the job is held, "
     "recovery's soft reset is slow, the GPU executes again afterwards",
     "submit:1:cp-stall;reset:1:reset-slow", "cp-stall=1,reset-slow=1"},
};

/* The render node's power/control, e.g. /sys/class/drm/renderD128/... */
static void power_control_path(char *p, size_t len)
{
    const char *node = strrchr(g_render, '/');

    snprintf(p, len, "/sys/class/drm/%s/device/power/control",
             node ? node + 1 : g_render);
}

static int fault_case(unsigned long i, struct bo *cmd, struct bo *dst,
                      char *why)
{
    const struct gf_row *row = &rows[i];
    char pc[160], pc_old[32] = "", counts[256], msg[KT_WHY_LEN];
    uint64_t f0 = 0, f1 = 0;
    uint32_t q = 0, qf = 0;
    long long t0, period = -1, el = -1;
    int ret = 0, r, held = 0, plan = 0;
    struct sub x;

    NEED_FIX();
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (dbg_read("hangcheck_period_ms", &period) == 0 && period != 500) {
        ktap_print_msg("hangcheck_period_ms is %lld (default 500)", period);
    }
    /* keep the GPU resumed: no hw_init between the plan and the submit */
    power_control_path(pc, sizeof(pc));
    if (read_file(pc, pc_old, sizeof(pc_old)) > 0) {
        pc_old[strcspn(pc_old, "\n")] = '\0';
        if (write_str(pc, "on")) {
            pc_old[0] = '\0';
            ktap_print_msg("%s: cannot write 'on'", pc);
        }
    }
    EXPECT_OUT(queue_new(g_fd, 1, &q), 0, "SUBMITQUEUE_NEW");
    if (gpu_proof(q, cmd, dst, "before the plan", why)) {
        BAIL_OUT();
    }
    EXPECT_OUT(get_param(g_fd, MSM_PARAM_FAULTS, &f0), 0, "GET_PARAM FAULTS");
    dst->map[1] = 0;
    put_mem_write(cmd, 64, lo(dst->iova) + 4, HANG_MARK);

    plan = 1;
    if (pbctl_fault_plan(GPU_QOM, "", row->script)) {
        FAIL_OUT("fault plan of the gpu: %.300s", pbctl_last_reply());
    }
    sub_pair(&x, q, cmd, dst);
    sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 64, MEM_WRITE_BYTES);
    t0 = now_ms();
    EXPECT_OUT(sub_do(g_fd, &x), 0, "SUBMIT with the plan set");
    /* held: no fence within HELD_MS */
    r = wait_fence(g_fd, q, x.s.fence, HELD_MS);
    held = r == -ETIMEDOUT;
    r = wait_fence(g_fd, q, x.s.fence, RECOVER_MS);
    el = now_ms() - t0;
    ktap_print_msg("%s: the job's fence after %lld ms: %s", row->script, el,
                   r ? errno_name(-r) : "signalled");
    if (pbctl_qom_get_str(GPU_QOM, "fault-counts", counts, sizeof(counts))) {
        FAIL_OUT("%.300s", pbctl_last_reply());
    }
    plan = 0;
    if (pbctl_fault_plan(GPU_QOM, "", "")) {
        FAIL_OUT("clearing the plan: %.300s", pbctl_last_reply());
    }
    ktap_print_msg("fault-counts \"%s\"", counts);
    if (r) {
        FAIL_OUT("WAIT_FENCE (%d s) on the held job: %s: no recovery",
                 RECOVER_MS / 1000, errno_name(-r));
    }
    if (strcmp(counts, row->fired)) {
        FAIL_OUT("fault-counts \"%s\", expected \"%s\": the planned fault %s, "
                 "so the case proves nothing",
                 counts, row->fired,
                 counts[0] ? "was not the one that fired" : "never fired");
    }
    if (!held) {
        FAIL_OUT("the job's fence signalled within %d ms: not held", HELD_MS);
    }
    /* hangcheck_timer_reset(): >= 500 ms after the job was kicked */
    if (el < 450) {
        FAIL_OUT("the held job retired after %lld ms, before hangcheck "
                 "could have fired",
                 el);
    }
    if (dst->map[1] != 0) {
        FAIL_OUT("the held job's IB ran (0x%08x): the stall was not a hang",
                 dst->map[1]);
    }
    EXPECT_OUT(get_param(g_fd, MSM_PARAM_FAULTS, &f1), 0, "GET_PARAM FAULTS");
    EXPECT_OUT(queue_faults(g_fd, q, &qf), 0, "SUBMITQUEUE_QUERY FAULTS");
    if (f1 != f0 + 1 || qf != 1) {
        FAIL_OUT("FAULTS %llu -> %llu, the queue's %u: expected one fault "
                 "(recover_worker())",
                 (unsigned long long)f0, (unsigned long long)f1, qf);
    }
    dst->map[0] = 0;
    dst->map[1] = 0;
    if (gpu_proof(q, cmd, dst, "with the plan cleared", msg)) {
        FAIL_OUT("after the recovery, with the plan cleared: %.300s", msg);
    }
out:
    if (plan) {
        pbctl_fault_plan(GPU_QOM, "", "");
    }
    if (q) {
        queue_close(g_fd, q);
    }
    if (pc_old[0]) {
        write_str(pc, pc_old);
    }
    return ret;
}

void register_fault_cases(void)
{
    for (unsigned long i = 0; i < ARRAY_SIZE(rows); i++) {
        add_gpu(fault_case, i, 4096, MSM_BO_WC, "%s", rows[i].name);
    }
}
