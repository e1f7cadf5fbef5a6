// SPDX-License-Identifier: GPL-2.0
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

#include "ktap.h"
#include "msm_common.h"

#define WARMUP		10
#define ROUNDS		201

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static double median_us(int64_t *ns, int n)
{
	qsort(ns, n, sizeof(ns[0]), cmp_i64);
	return ns[n / 2] / 1000.0;
}

int main(void)
{
	static int64_t t_sub[ROUNDS], t_get[ROUNDS];
	const uint32_t nop[] = { PM4_PKT3(CP_NOP, 2), 0, 0 };
	char path[64], why[256] = "";
	double sub_us = 0, get_us = 0;
	struct bo cmd;
	int fd, ok_sub = 0, ok_get = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_print_header();
	ktap_set_plan(3);

	memset(&cmd, 0, sizeof(cmd));
	fd = msm_open_render(path, sizeof(path), why, sizeof(why));
	if (fd >= 0 && bo_make(&cmd, fd, 4096, MSM_BO_WC, why, sizeof(why)) == 0) {
		bo_write(&cmd, 0, nop, 3);
		ok_sub = 1;
		for (int i = 0; i < WARMUP + ROUNDS && ok_sub; i++) {
			struct sub x;
			int64_t t0;
			int r;

			sub_init(&x, 0);
			sub_bo(&x, cmd.handle, MSM_SUBMIT_BO_READ);
			sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(nop));
			t0 = mono_ns();
			r = sub_do(fd, &x);
			if (r == 0)
				r = wait_fence(fd, 0, x.s.fence, 5000);
			if (r) {
				snprintf(why, sizeof(why), "round %d: %s", i, strerror(-r));
				ok_sub = 0;
			} else if (i >= WARMUP) {
				t_sub[i - WARMUP] = mono_ns() - t0;
			}
		}
		ok_get = 1;
		for (int i = 0; i < WARMUP + ROUNDS && ok_get; i++) {
			uint64_t v = 0;
			int64_t t0 = mono_ns();
			int r = get_param(fd, MSM_PARAM_GPU_ID, &v);

			if (r || v != 200) {
				snprintf(why, sizeof(why), "GET_PARAM GPU_ID: %s, value %llu",
					 r ? strerror(-r) : "ok", (unsigned long long)v);
				ok_get = 0;
			} else if (i >= WARMUP) {
				t_get[i - WARMUP] = mono_ns() - t0;
			}
		}
	}

	if (ok_sub) {
		sub_us = median_us(t_sub, ROUNDS);
		ktap_print_msg("P6 detail: submit_wait n=%d min_us=%.1f max_us=%.1f",
			       ROUNDS, t_sub[0] / 1000.0, t_sub[ROUNDS - 1] / 1000.0);
		ktap_test_pass("P6 SUBMIT (one NOP IB) + WAIT_FENCE round trip");
	} else {
		ktap_test_fail("P6 SUBMIT (one NOP IB) + WAIT_FENCE round trip", "%s", why);
	}
	if (ok_get) {
		get_us = median_us(t_get, ROUNDS);
		ktap_print_msg("P6 detail: get_param n=%d min_us=%.2f max_us=%.2f",
			       ROUNDS, t_get[0] / 1000.0, t_get[ROUNDS - 1] / 1000.0);
		ktap_test_pass("P6 GET_PARAM GPU_ID round trip");
	} else {
		ktap_test_fail("P6 GET_PARAM GPU_ID round trip", "%s", why);
	}
	if (ok_sub && ok_get && get_us > 0) {
		ktap_print_msg("BENCH P6 submit_wait_us=%.1f get_param_us=%.2f ratio=%.1f",
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
