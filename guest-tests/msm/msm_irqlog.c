/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_irqlog - can a render-node client flood the kernel log through the
 * GPU's error interrupts?
 *
 * a2xx_irq() (drivers/gpu/drm/msm/adreno/a2xx_gpu.c) prints a line for
 * every CP interrupt with an error bit ("CP_INT: %08X") and two for every
 * MH interrupt ("MH_INT: %08X", "MMU_PAGE_FAULT: %08X").  Both are in the
 * submitter's hands: an IB with an unknown PM4 opcode makes the CP raise
 * OPCODE_ERROR, a CP_MEM_WRITE outside the gpummu window an MMU page fault;
 * neither costs the submitter anything (no fault count, no recovery), and
 * GEM_SUBMIT is DRM_RENDER_ALLOW, so no capability is needed.  6.12.118
 * prints every one of them; kernel-patches/0005 rate-limits them like
 * a5xx/a6xx do theirs (dev_*_ratelimited: 10 lines per call site per 5 s),
 * and RBBM_INT too, which the model never raises (no case here).
 *
 * One case per print site, table-driven: submit FLOOD_SUBMITS one-packet
 * IBs, each waited for before the next (so every submit is at least one
 * interrupt of its own), and count the kernel log records of that site
 * written meanwhile (/dev/kmsg, read from its end as it was before the
 * case).  A rate-limited kernel writes at most 10 per 5 s interval the case
 * touches: the bound is 10 * (ceil(elapsed / 5 s) + 2), 30 for a case under
 * 5 s, a slack of one interval for a slow host; an unlimited kernel writes
 * at least one per submit, FLOOD_SUBMITS = 200.  At least one line must
 * appear (else the GPU raised no error and the case proves nothing), and a
 * marker the case writes to /dev/kmsg must come back (else the reader is
 * broken and would count nothing).
 *
 * Runs before msm_ioctl (name order), whose hostile cases print these
 * lines too; nothing before it in the msm suite does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "msm_common.h"

#define FLOOD_SUBMITS         200
#define RATELIMIT_BURST       10   /* DEFAULT_RATELIMIT_BURST */
#define RATELIMIT_INTERVAL_MS 5000 /* DEFAULT_RATELIMIT_INTERVAL, 5 * HZ */
#define OPCODE_UNKNOWN        0xee /* no a2xx PM4 opcode: OPCODE_ERROR */
#define VA_OUTSIDE            0xfffff000u /* above the gpummu window */

struct flood {
    const char *name;
    uint32_t ib[3];
    unsigned int ndw;
    /* substrings of the kernel log records this case counts, each bounded */
    const char *lines[2];
};

static const struct flood floods[] = {
    {"kernel log rate-limits CP_INT: 200 bad-opcode submits of a render-node "
     "client",
     {PM4_PKT3(OPCODE_UNKNOWN, 1), 0},
     2,
     {"CP_INT: ", NULL}},
    {"kernel log rate-limits MH_INT: 200 MMU-faulting submits of a render-node "
     "client",
     {PM4_PKT3(CP_MEM_WRITE, 2), VA_OUTSIDE, 0xdeadbeef},
     3,
     {"MH_INT: ", "MMU_PAGE_FAULT: "}},
};

static int g_fd = -1;

/* /dev/kmsg for reading, positioned at its end; -1 with why on failure */
static int kmsg_open_end(char *why)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

    if (fd < 0) {
        return kt_fail(why, "open /dev/kmsg: %s", strerror(errno));
    }
    if (lseek(fd, 0, SEEK_END) < 0) {
        int e = errno;

        close(fd);
        return kt_fail(why, "lseek /dev/kmsg SEEK_END: %s", strerror(e));
    }
    return fd;
}

static void kmsg_write(const char *line)
{
    int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

    if (fd >= 0) {
        /* a failed write loses the marker: the case fails */
        ssize_t n = write(fd, line, strlen(line));

        (void)n;
        close(fd);
    }
}

/*
 * Read every record after fd's position; count[i] = records whose message
 * contains pat[i]; *marker = whether one contains marker.  Returns the
 * number of records lost to a ring-buffer overrun (EPIPE), or -1.
 */
static int kmsg_count(int fd, const char *const pat[2], unsigned int count[2],
                      const char *marker, int *found, char *why)
{
    char rec[2048];
    int lost = 0;

    for (;;) {
        ssize_t n = read(fd, rec, sizeof(rec) - 1);
        char *msg;

        if (n < 0 && errno == EAGAIN) {
            return lost;
        }
        if (n < 0 && errno == EPIPE) {
            lost++;
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return kt_fail(why, "read /dev/kmsg: %s",
                           n ? strerror(errno) : "end of file");
        }
        rec[n] = '\0';
        /* "prio,seq,usec,flags;message\n KEY=value\n..." */
        msg = strchr(rec, ';');
        if (!msg) {
            continue;
        }
        msg++;
        msg[strcspn(msg, "\n")] = '\0';
        for (int i = 0; i < 2; i++) {
            if (pat[i] && strstr(msg, pat[i])) {
                count[i]++;
            }
        }
        if (strstr(msg, marker)) {
            *found = 1;
        }
    }
}

static int run_flood(const struct flood *f, char *why)
{
    unsigned int count[2] = {0, 0}, bound;
    char marker[96];
    struct bo cmd;
    long long t0, ms;
    int kfd, ret = -1, found = 0, lost;

    memset(&cmd, 0, sizeof(cmd));
    if (bo_make(&cmd, g_fd, 4096, MSM_BO_WC, why, KT_WHY_LEN)) {
        return -1;
    }
    bo_write(&cmd, 0, f->ib, f->ndw);
    kfd = kmsg_open_end(why);
    if (kfd < 0) {
        bo_free(&cmd);
        return 1; /* no /dev/kmsg (CONFIG_PRINTK=n): nothing to count */
    }

    t0 = now_ms();
    for (int i = 0; i < FLOOD_SUBMITS; i++) {
        struct sub x;
        int r;

        sub_one_ib(&x, 0, cmd.handle, f->ndw * 4);
        r = sub_do(g_fd, &x);
        if (r) {
            ret = kt_fail(why, "SUBMIT %d: %s", i, strerror(-r));
            goto out;
        }
        r = wait_fence(g_fd, 0, x.s.fence, 10000);
        if (r) {
            ret = kt_fail(why, "WAIT_FENCE of submit %d: %s", i, strerror(-r));
            goto out;
        }
    }
    ms = now_ms() - t0;

    snprintf(marker, sizeof(marker),
             "patchbay-msm_irqlog: counted %d submits at %lld", FLOOD_SUBMITS,
             t0);
    {
        char line[128];

        snprintf(line, sizeof(line), "<12>%s\n", marker);
        kmsg_write(line);
    }
    lost = kmsg_count(kfd, f->lines, count, marker, &found, why);
    if (lost < 0) {
        goto out;
    }

    bound = RATELIMIT_BURST *
            ((ms + RATELIMIT_INTERVAL_MS - 1) / RATELIMIT_INTERVAL_MS + 2);
    for (int i = 0; i < 2; i++) {
        if (f->lines[i]) {
            ktap_print_msg("%d submits in %lld ms: %u \"%s\" lines in the "
                           "kernel log, at most %u allowed%s",
                           FLOOD_SUBMITS, ms, count[i], f->lines[i], bound,
                           lost ? " (kmsg overrun)" : "");
        }
    }
    if (!found) {
        ret = kt_fail(why, "our own /dev/kmsg marker did not come back: the "
                           "log reader is broken");
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        if (!f->lines[i]) {
            continue;
        }
        if (count[i] == 0) {
            ret = kt_fail(why,
                          "no \"%s\" line at all: the GPU raised no error, the "
                          "case proves nothing",
                          f->lines[i]);
            goto out;
        }
        if (count[i] > bound || lost) {
            ret = kt_fail(why,
                          "%u \"%s\" lines%s for %d submits in %lld ms, at "
                          "most %u allowed: not rate-limited",
                          count[i], f->lines[i],
                          lost ? " (and a kmsg overrun)" : "", FLOOD_SUBMITS,
                          ms, bound);
            goto out;
        }
    }
    ret = 0;
out:
    close(kfd);
    bo_free(&cmd);
    return ret;
}

static int c_flood(unsigned long i, char *why)
{
    return run_flood(&floods[i], why);
}

static int setup(char *why)
{
    char path[64];

    g_fd = msm_open_render(path, sizeof(path), why, KT_WHY_LEN);
    if (g_fd < 0) {
        return KTAP_FAIL;
    }
    ktap_print_msg("%s, as a render-node client (no capability used)", path);
    return KTAP_PASS;
}

int main(void)
{
    int ret;

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (unsigned int i = 0; i < ARRAY_SIZE(floods); i++) {
        kt_add(c_flood, i, "%s", floods[i].name);
    }
    ret = kt_run(setup);
    if (g_fd >= 0) {
        close(g_fd);
    }
    return ret;
}
