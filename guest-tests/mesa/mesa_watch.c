/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_watch.c - did a case's work reach the GPU, and did the GPU object?
 *
 * A submit reached the GPU when the "gpu-irq" count in /proc/interrupts
 * grows: every msm submit ends in CP_INTERRUPT.  The GPU objected when the
 * kernel log written during the case has an msm error: a CP_INT, MH_INT or
 * RBBM_INT warning from a2xx_irq(), a hangcheck, a recovery, a fault.  A
 * CP_INT there is the GPU rejecting a packet Mesa sent (OPCODE_ERROR,
 * PROTECTED_MODE_ERROR, ...): on real hardware Mesa's fd2 streams raise
 * none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mesa.h"
#include "mesa_watch.h"

/* the kernel log and the GPU interrupt count at the start of a case */
static int kmsg_fd = -1;
static long long start_irqs;

/* The "gpu-irq" line of /proc/interrupts, summed over the CPUs; -1 if none. */
static long long gpu_irqs(void)
{
    char line[1024];
    long long sum = -1;
    FILE *f = fopen("/proc/interrupts", "re");

    if (!f) {
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        char *p, *end;

        if (!strstr(line, "gpu-irq") || !(p = strchr(line, ':'))) {
            continue;
        }
        sum = 0;
        for (p++;; p = end) {
            long long v = strtoll(p, &end, 10);

            if (end == p) {
                break;
            }
            sum += v;
        }
        break;
    }
    fclose(f);
    return sum;
}

void watch_begin(void)
{
    if (kmsg_fd < 0) {
        kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    }
    if (kmsg_fd >= 0) {
        lseek(kmsg_fd, 0, SEEK_END);
    }
    start_irqs = gpu_irqs();
}

/* msm messages that mean the GPU saw something wrong (a2xx_irq, msm_gpu.c) */
static const char *const bad_log[] = {
    "CP_INT:",   "MH_INT:", "RBBM_INT:", "MMU_PAGE_FAULT",
    "hangcheck", "recover", "fault",     "gpu hw init failed",
};

/*
 * The kernel log since watch_begin(): every line naming an msm error is
 * printed; their count, or -1 (with why) if the log cannot be read.
 * *cp_int gets the OR of the CP_INT statuses seen.
 */
static int watch_log(char *why, unsigned int *cp_int)
{
    char rec[1024];
    int bad = 0;

    *cp_int = 0;
    if (kmsg_fd < 0) {
        snprintf(why, WHY_LEN, "/dev/kmsg: %s", strerror(errno));
        return -1;
    }
    for (;;) {
        ssize_t n = read(kmsg_fd, rec, sizeof(rec) - 1);
        char *msg, *p;

        if (n < 0 && errno == EPIPE) {
            continue; /* overwritten records: go on */
        }
        if (n <= 0) {
            break;
        }
        rec[n] = '\0';
        /* "prio,seq,usec,flags;message\n" plus continuation lines */
        msg = strchr(rec, ';');
        msg = msg ? msg + 1 : rec;
        msg[strcspn(msg, "\n")] = '\0';
        for (size_t i = 0; i < ARRAY_SIZE(bad_log); i++) {
            if (!strstr(msg, bad_log[i])) {
                continue;
            }
            if (bad < 20) {
                diag("kernel: %s", msg);
            }
            bad++;
            p = strstr(msg, "CP_INT: ");
            if (p) {
                *cp_int |= (unsigned int)strtoul(p + 8, NULL, 16);
            }
            break;
        }
    }
    return bad;
}

int watch_end(char *why, bool need_submit)
{
    long long irqs = gpu_irqs();
    unsigned int cp_int;
    int bad = watch_log(why, &cp_int);

    diag("gpu-irq: %lld -> %lld", start_irqs, irqs);
    if (bad < 0) {
        return -1;
    }
    if (bad > 0) {
        snprintf(
            why, WHY_LEN,
            "%d msm error line(s) in the kernel log (CP_INT bits 0x%08x%s%s)",
            bad, cp_int, cp_int & (1u << 24) ? ": OPCODE_ERROR" : "",
            cp_int & (1u << 25) ? ": PROTECTED_MODE_ERROR" : "");
        return -1;
    }
    if (need_submit && (irqs < 0 || irqs <= start_irqs)) {
        snprintf(why, WHY_LEN,
                 "no GPU interrupt during the case (gpu-irq %lld -> %lld): "
                 "nothing was submitted",
                 start_irqs, irqs);
        return -1;
    }
    return 0;
}
