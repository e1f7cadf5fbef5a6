/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_bench - P6: the round trip of a minimal GPU submit on the emulated
 * Adreno 200, next to the round trip of an ioctl that never touches the GPU.
 *
 *   submit_wait_us  median of SUBMIT (one 3-dword CP_NOP IB, one bo) followed
 *                   by WAIT_FENCE on its fence: drm_sched, a2xx_submit(), the
 *                   CP in QEMU, the fence write, the IRQ and retire;
 *   get_param_us    median of GET_PARAM(GPU_ID), which reads no register
 *                   (adreno_get_param()): the bare ioctl path;
 *   ratio           submit_wait_us / get_param_us.
 *
 * Printed as "# BENCH P6 submit_wait_us=... get_param_us=... ratio=...".
 * Submits are back to back, so after the warm-up the GPU stays runtime
 * resumed (autosuspend is 66 ms): the figure excludes hw_init.  Every
 * measured call is checked; a failure fails its case and prints no figure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "msm_common.h"

#define WARMUP 10
#define ROUNDS 201

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

/*
 * Sort the ROUNDS times of one measurement, print their spread and report
 * its case; the median in us, or 0 when it failed (why says how).
 */
static double report(const char *name, const char *detail, int64_t *ns, bool ok,
                     const char *why)
{
    if (!ok) {
        ktap_test_fail(name, "%s", why);
        return 0;
    }
    qsort(ns, ROUNDS, sizeof(ns[0]), cmp_i64);
    ktap_print_msg("P6 detail: %s n=%d min_us=%.2f max_us=%.2f", detail, ROUNDS,
                   ns[0] / 1000.0, ns[ROUNDS - 1] / 1000.0);
    ktap_test_pass(name);
    return ns[ROUNDS / 2] / 1000.0;
}

/* SUBMIT of the NOP IB in cmd and WAIT_FENCE, WARMUP + ROUNDS times. */
static bool time_submits(int fd, const struct bo *cmd, uint32_t size,
                         int64_t *t, char *why, size_t whylen)
{
    for (int i = 0; i < WARMUP + ROUNDS; i++) {
        struct sub x;
        int64_t t0;
        int r;

        sub_one_ib(&x, 0, cmd->handle, size);
        t0 = mono_ns();
        r = sub_do(fd, &x);
        if (r == 0) {
            r = wait_fence(fd, 0, x.s.fence, 5000);
        }
        if (r) {
            snprintf(why, whylen, "round %d: %s", i, strerror(-r));
            return false;
        }
        if (i >= WARMUP) {
            t[i - WARMUP] = mono_ns() - t0;
        }
    }
    return true;
}

/* GET_PARAM(GPU_ID), WARMUP + ROUNDS times. */
static bool time_get_params(int fd, int64_t *t, char *why, size_t whylen)
{
    for (int i = 0; i < WARMUP + ROUNDS; i++) {
        uint64_t v = 0;
        int64_t t0 = mono_ns();
        int r = get_param(fd, MSM_PARAM_GPU_ID, &v);

        if (r || v != 200) {
            snprintf(why, whylen, "GET_PARAM GPU_ID: %s, value %llu",
                     r ? strerror(-r) : "ok", (unsigned long long)v);
            return false;
        }
        if (i >= WARMUP) {
            t[i - WARMUP] = mono_ns() - t0;
        }
    }
    return true;
}

int main(void)
{
    static int64_t t_sub[ROUNDS], t_get[ROUNDS];
    const uint32_t nop[] = {PM4_PKT3(CP_NOP, 2), 0, 0};
    char path[64], why[256] = "";
    double sub_us, get_us;
    bool ok_sub = false, ok_get = false;
    struct bo cmd = {0};
    int fd;

    setvbuf(stdout, NULL, _IOLBF, 0);
    ktap_print_header();
    ktap_set_plan(3);

    fd = msm_open_render(path, sizeof(path), why, sizeof(why));
    if (fd >= 0 && bo_make(&cmd, fd, 4096, MSM_BO_WC, why, sizeof(why)) == 0) {
        bo_write(&cmd, 0, nop, ARRAY_SIZE(nop));
        ok_sub = time_submits(fd, &cmd, sizeof(nop), t_sub, why, sizeof(why));
        ok_get = time_get_params(fd, t_get, why, sizeof(why));
    }
    sub_us = report("P6 SUBMIT (one NOP IB) + WAIT_FENCE round trip",
                    "submit_wait", t_sub, ok_sub, why);
    get_us = report("P6 GET_PARAM GPU_ID round trip", "get_param", t_get,
                    ok_get, why);
    if (ok_sub && ok_get && get_us > 0) {
        ktap_print_msg("BENCH P6 submit_wait_us=%.1f get_param_us=%.2f "
                       "ratio=%.1f",
                       sub_us, get_us, sub_us / get_us);
        ktap_test_pass("P6 figures printed");
    } else {
        ktap_test_fail("P6 figures printed", "a measurement failed");
    }
    if (fd >= 0) {
        bo_free(&cmd);
        close(fd);
    }
    return ktap_finished();
}
