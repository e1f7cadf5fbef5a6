/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_submit.c - msm_ioctl's negative and edge cases of GEM_SUBMIT: the
 * bo flags, cmd types and submit flags checks, then a table of variants of
 * the one valid NOP submit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "msm_test.h"

/* ---- SUBMIT: the seed commit's checks ---- */

static int c_submit_bo_bit(unsigned long bit, char *why)
{
    struct sub x;

    NEED_FIX();
    sub_base(&x, 0);
    x.bos[0].flags = MSM_SUBMIT_BO_READ | (1u << bit);
    return sub_expect(&x, EINVAL, why);
}

static int c_submit_bo_flags(unsigned long flags, char *why)
{
    struct sub x;

    NEED_FIX();
    sub_base(&x, 0);
    x.bos[0].flags = (uint32_t)flags;
    return sub_expect(
        &x, flags & (MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE) ? 0 : EINVAL,
        why);
}

/*
 * A bad bo after a good one: submit_lookup_objects() sets i = 0 on the
 * error; without its goto the loop would go on at index 1, fail again, and
 * never end (in the kernel, queue->lock held). So the SUBMIT runs in a
 * child, on a queue of its own, from a bo table in memory shared with the
 * parent: if it is still in the kernel after 2 s, the parent makes the
 * bad flags valid, which ends such a loop (still with EINVAL), and the
 * case fails.
 */
#define BAD_BO1_MS 2000

static struct drm_msm_gem_submit_bo *bad_bo1_table;
static uint32_t bad_bo1_queue;

static int child_bad_bo1(void *arg)
{
    struct sub x;

    (void)arg;
    sub_base(&x, bad_bo1_queue);
    x.s.bos = (uintptr_t)bad_bo1_table;
    x.s.nr_bos = 2;
    return sub_try(g_fd, &x);
}

/* Wait for the child (rescuing it past BAD_BO1_MS); *r its 0/-errno. */
static int bad_bo1_watch(pid_t pid, int *r, bool *reaped, char *why)
{
    long long t0 = now_ms(), rescued = 0;
    int st;

    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (!rescued && now_ms() - t0 > BAD_BO1_MS) {
            bad_bo1_table[1].flags = MSM_SUBMIT_BO_READ;
            __sync_synchronize();
            rescued = now_ms();
        }
        if (rescued && now_ms() - rescued > 5000) {
            kill(pid, SIGKILL);
            return kt_fail(why, "SUBMIT still in the kernel 5 s after bo 1's "
                                "flags were made valid");
        }
        sleep_ms(5);
    }
    *reaped = true;
    if (!WIFEXITED(st) || WEXITSTATUS(st) >= 250) {
        return kt_fail(why, "the child died (wait status 0x%x)", st);
    }
    *r = -WEXITSTATUS(st);
    if (rescued) {
        return kt_fail(why,
                       "SUBMIT still in the kernel after %d ms (looping on "
                       "bo 1?); it returned %s once its flags were made valid",
                       BAD_BO1_MS, errno_name(-*r));
    }
    return kt_expect_errno(why, "SUBMIT", -*r, EINVAL);
}

static int c_submit_bad_bo1(unsigned long arg, char *why)
{
    bool reaped = false;
    int ret, r;
    pid_t pid;

    (void)arg;
    NEED_FIX();
    bad_bo1_table = mmap(NULL, g_page, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (bad_bo1_table == MAP_FAILED) {
        return kt_fail(why, "mmap: %s", strerror(errno));
    }
    bad_bo1_table[0].handle = g_nop.handle;
    bad_bo1_table[0].flags = MSM_SUBMIT_BO_READ;
    bad_bo1_table[1].handle = g_nop.handle;
    bad_bo1_table[1].flags = 0;
    r = queue_new(g_fd, 1, &bad_bo1_queue);
    if (r) {
        munmap(bad_bo1_table, g_page);
        return kt_fail(why, "SUBMITQUEUE_NEW: %s", errno_name(-r));
    }
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        r = child_bad_bo1(NULL);
        _exit(r > 0 || r < -249 ? 252 : -r);
    }
    if (pid < 0) {
        reaped = true;
        ret = kt_fail(why, "fork: %s", strerror(errno));
    } else {
        ret = bad_bo1_watch(pid, &r, &reaped, why);
    }
    /* a child still in the kernel keeps its table and queue */
    if (reaped) {
        queue_close(g_fd, bad_bo1_queue);
        munmap(bad_bo1_table, g_page);
    }
    return ret;
}

static const uint32_t bad_cmd_types[] = {
    0, 4, 5, 0xff, 0x10001, 0x80000001, 0xffffffff,
};

static int c_submit_cmd_type(unsigned long type, char *why)
{
    struct sub x;
    int good =
        type >= MSM_SUBMIT_CMD_BUF && type <= MSM_SUBMIT_CMD_CTX_RESTORE_BUF;

    NEED_FIX();
    sub_base(&x, 0);
    x.cmds[0].type = (uint32_t)type;
    return sub_expect(&x, good ? 0 : EINVAL, why);
}

static int c_submit_flag_bit(unsigned long bit, char *why)
{
    struct sub x;

    NEED_FIX();
    sub_base(&x, 0);
    x.s.flags |= 1u << bit;
    return sub_expect(&x, EINVAL, why);
}

/* ---- SUBMIT: everything else ---- */

enum {
    SV_BASE,
    SV_PAD,
    SV_PIPE0,
    SV_PIPE1,
    SV_PIPE2,
    SV_PIPE11,
    SV_PIPEFFFF,
    SV_QUEUE,
    SV_NR_BOS_HUGE,
    SV_NR_CMDS_HUGE,
    SV_FD_IN_NEG,
    SV_FD_IN_PIPE,
    SV_IN_BADPTR,
    SV_IN_POINT,
    SV_IN_FLAGS,
    SV_IN_HANDLE,
    SV_IN_NOFENCE,
    SV_OUT_BADPTR,
    SV_OUT_FLAGS,
    SV_OUT_POINT,
    SV_OUT_HANDLE,
    SV_BOS_NULL,
    SV_BOS_EDGE,
    SV_BO_HANDLE,
    SV_BO_HANDLE0,
    SV_CMDS_NULL,
    SV_CMDS_EDGE,
    SV_CMD_SIZE10,
    SV_CMD_SIZE2,
    SV_RELOCS_BADPTR,
    SV_RELOCS_BADPTR_CMD0,
    SV_RELOCS_HUGE,
    SV_IDX1,
    SV_IDX_NOBOS,
    SV_SIZE0,
    SV_PAST_END,
    SV_OFF_END,
    SV_SIZE_BIG,
    SV_OFF_HUGE,
    SV_FIT_END,
    SV_RELOC_ALIGN,
    SV_RELOC_OFF,
    SV_RELOC_DESC,
    SV_RELOC_IDX,
    SV_SN_ZERO,
    SV_NO_CMDS,
    SV_CMD_PAD,
    SV_OFF_UNALIGNED,
};

static const struct {
    int id;
    int err;
    const char *name;
} submit_variants[] = {
    {SV_BASE, 0, "SUBMIT baseline (one NOP IB, bo READ) accepted"},
    {SV_PAD, EINVAL, "SUBMIT pad 1 rejected with EINVAL"},
    {SV_PIPE0, EINVAL, "SUBMIT pipe 0 (NONE) rejected with EINVAL"},
    {SV_PIPE1, EINVAL, "SUBMIT pipe 1 (2D0) rejected with EINVAL"},
    {SV_PIPE2, EINVAL, "SUBMIT pipe 2 (2D1) rejected with EINVAL"},
    {SV_PIPE11, EINVAL, "SUBMIT pipe 0x11 rejected with EINVAL"},
    {SV_PIPEFFFF, EINVAL, "SUBMIT pipe 0xffff rejected with EINVAL"},
    {SV_QUEUE, ENOENT, "SUBMIT unknown queueid rejected with ENOENT"},
    {SV_NR_BOS_HUGE, ENOMEM, "SUBMIT nr_bos 0xffffffff rejected with ENOMEM"},
    {SV_NR_CMDS_HUGE, ENOMEM, "SUBMIT nr_cmds 0xffffffff rejected with ENOMEM"},
    {SV_FD_IN_NEG, EINVAL, "SUBMIT FENCE_FD_IN fd -1 rejected with EINVAL"},
    {SV_FD_IN_PIPE, EINVAL,
     "SUBMIT FENCE_FD_IN of a pipe rejected with EINVAL"},
    {SV_IN_BADPTR, EFAULT,
     "SUBMIT SYNCOBJ_IN bad pointer rejected with EFAULT"},
    {SV_IN_POINT, EOPNOTSUPP,
     "SUBMIT SYNCOBJ_IN point 1 (no timelines) rejected with EOPNOTSUPP"},
    {SV_IN_FLAGS, EINVAL, "SUBMIT SYNCOBJ_IN flags 0x2 rejected with EINVAL"},
    {SV_IN_HANDLE, ENOENT,
     "SUBMIT SYNCOBJ_IN unknown handle rejected with ENOENT"},
    {SV_IN_NOFENCE, EINVAL,
     "SUBMIT SYNCOBJ_IN syncobj without a fence rejected with EINVAL"},
    {SV_OUT_BADPTR, EFAULT,
     "SUBMIT SYNCOBJ_OUT bad pointer rejected with EFAULT"},
    {SV_OUT_FLAGS, EINVAL, "SUBMIT SYNCOBJ_OUT flags 0x1 rejected with EINVAL"},
    {SV_OUT_POINT, EOPNOTSUPP,
     "SUBMIT SYNCOBJ_OUT point 1 (no timelines) rejected with EOPNOTSUPP"},
    {SV_OUT_HANDLE, EINVAL,
     "SUBMIT SYNCOBJ_OUT unknown handle rejected with EINVAL"},
    {SV_BOS_NULL, EFAULT, "SUBMIT bo table NULL rejected with EFAULT"},
    {SV_BOS_EDGE, EFAULT,
     "SUBMIT bo table running into an unmapped page rejected with EFAULT"},
    {SV_BO_HANDLE, EINVAL,
     "SUBMIT unknown bo handle rejected with EINVAL (not ENOENT)"},
    {SV_BO_HANDLE0, EINVAL, "SUBMIT bo handle 0 rejected with EINVAL"},
    {SV_CMDS_NULL, EFAULT, "SUBMIT cmd table NULL rejected with EFAULT"},
    {SV_CMDS_EDGE, EFAULT,
     "SUBMIT cmd table running into an unmapped page rejected with EFAULT"},
    {SV_CMD_SIZE10, EINVAL,
     "SUBMIT cmd size 10 (not a multiple of 4) rejected with EINVAL"},
    {SV_CMD_SIZE2, EINVAL, "SUBMIT cmd size 2 rejected with EINVAL"},
    {SV_RELOCS_BADPTR, EFAULT,
     "SUBMIT cmd relocs bad pointer rejected with EFAULT"},
    {SV_RELOCS_BADPTR_CMD0, EFAULT,
     "SUBMIT cmd 0 of 2 relocs bad pointer, cmd 1 valid, rejected with EFAULT"},
    {SV_RELOCS_HUGE, ENOMEM,
     "SUBMIT cmd nr_relocs 0xffffffff rejected with ENOMEM"},
    {SV_IDX1, EINVAL, "SUBMIT cmd submit_idx 1 of 1 bo rejected with EINVAL"},
    {SV_IDX_NOBOS, EINVAL, "SUBMIT cmd with nr_bos 0 rejected with EINVAL"},
    {SV_SIZE0, EINVAL, "SUBMIT cmd size 0 rejected with EINVAL"},
    {SV_PAST_END, EINVAL,
     "SUBMIT cmd offset+size 4 bytes past the bo rejected with EINVAL"},
    {SV_OFF_END, EINVAL,
     "SUBMIT cmd submit_offset at the bo end rejected with EINVAL"},
    {SV_SIZE_BIG, EINVAL, "SUBMIT cmd size bo size + 4 rejected with EINVAL"},
    {SV_OFF_HUGE, EINVAL,
     "SUBMIT cmd submit_offset 0xfffffffc rejected with EINVAL"},
    {SV_FIT_END, 0, "SUBMIT cmd ending exactly at the bo end accepted"},
    {SV_RELOC_ALIGN, EINVAL,
     "SUBMIT reloc submit_offset 6 (unaligned) rejected with EINVAL"},
    {SV_RELOC_OFF, EINVAL,
     "SUBMIT reloc submit_offset at the bo end rejected with EINVAL"},
    {SV_RELOC_DESC, EINVAL,
     "SUBMIT relocs in descending order rejected with EINVAL"},
    {SV_RELOC_IDX, EINVAL, "SUBMIT reloc_idx 1 of 1 bo rejected with EINVAL"},
    {SV_SN_ZERO, EINVAL,
     "SUBMIT FENCE_SN_IN with fence 0 rejected with EINVAL"},
    {SV_NO_CMDS, 0, "SUBMIT nr_cmds 0 (fence only) accepted"},
    {SV_CMD_PAD, 0, "SUBMIT cmd pad 0xffffffff accepted (ignored in 6.12)"},
    {SV_OFF_UNALIGNED, 0,
     "SUBMIT cmd submit_offset 2 accepted (6.12 divides by 4)"},
};

/*
 * A copy of a table entry as the last bytes before g_edge's PROT_NONE page:
 * a table of two entries from there runs into the unmapped page.
 */
static uintptr_t edge_copy(const void *entry, size_t size)
{
    uint8_t *e = g_edge + g_page - size;

    memcpy(e, entry, size);
    return (uintptr_t)e;
}

static int c_submit_variant(unsigned long i, char *why)
{
    struct drm_msm_gem_submit_reloc rel[2];
    int id = submit_variants[i].id;
    uint32_t so = 0;
    int pfd[2] = {-1, -1}, ret;
    struct sub x;

    NEED_FIX();
    sub_base(&x, 0);
    memset(rel, 0, sizeof(rel));
    /* reloc cases patch dwords 768+ of the NOP BO, far from the NOP */
    rel[0].submit_offset = 3072;
    rel[1].submit_offset = 3076;
    x.cmds[0].relocs = (uintptr_t)rel;

    /* the syncobj cases: a signalled one, but for SV_IN_NOFENCE */
    if (id == SV_IN_POINT || id == SV_IN_FLAGS || id == SV_IN_NOFENCE ||
        id == SV_OUT_FLAGS || id == SV_OUT_POINT) {
        int r = syncobj_create(
            id == SV_IN_NOFENCE ? 0 : DRM_SYNCOBJ_CREATE_SIGNALED, &so);

        if (r) {
            return kt_fail(why, "SYNCOBJ_CREATE: %s", errno_name(-r));
        }
    }

    switch (id) {
    case SV_BASE:
        break;
    case SV_PAD:
        x.s.pad = 1;
        break;
    case SV_PIPE0:
        x.s.flags = MSM_PIPE_NONE;
        break;
    case SV_PIPE1:
        x.s.flags = MSM_PIPE_2D0;
        break;
    case SV_PIPE2:
        x.s.flags = MSM_PIPE_2D1;
        break;
    case SV_PIPE11:
        x.s.flags = 0x11;
        break;
    case SV_PIPEFFFF:
        x.s.flags = 0xffff;
        break;
    case SV_QUEUE:
        x.s.queueid = 0x7fff0000;
        break;
    case SV_NR_BOS_HUGE:
        x.s.nr_bos = 0xffffffff;
        break;
    case SV_NR_CMDS_HUGE:
        x.s.nr_cmds = 0xffffffff;
        break;
    case SV_FD_IN_NEG:
        x.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
        x.s.fence_fd = -1;
        break;
    case SV_FD_IN_PIPE:
        if (pipe(pfd)) {
            return kt_fail(why, "pipe: %s", strerror(errno));
        }
        x.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
        x.s.fence_fd = pfd[0];
        break;
    case SV_IN_BADPTR:
        sub_in(&x, 0);
        x.s.in_syncobjs = (uintptr_t)g_badptr;
        break;
    case SV_IN_POINT:
        sub_in(&x, so)->point = 1;
        break;
    case SV_IN_FLAGS:
        sub_in(&x, so)->flags = 2;
        break;
    case SV_IN_NOFENCE:
        sub_in(&x, so);
        break;
    case SV_IN_HANDLE:
        sub_in(&x, 0x7fff0000);
        break;
    case SV_OUT_BADPTR:
        sub_out(&x, 0);
        x.s.out_syncobjs = (uintptr_t)g_badptr;
        break;
    case SV_OUT_FLAGS:
        sub_out(&x, so)->flags = 1;
        break;
    case SV_OUT_POINT:
        sub_out(&x, so)->point = 1;
        break;
    case SV_OUT_HANDLE:
        sub_out(&x, 0x7fff0000);
        break;
    case SV_BOS_NULL:
        x.s.bos = 0;
        break;
    case SV_BOS_EDGE:
        x.s.bos = edge_copy(&x.bos[0], sizeof(x.bos[0]));
        x.s.nr_bos = 2;
        break;
    case SV_BO_HANDLE:
        x.bos[0].handle = g_nop.handle + 1000;
        break;
    case SV_BO_HANDLE0:
        x.bos[0].handle = 0;
        break;
    case SV_CMDS_NULL:
        x.s.cmds = 0;
        break;
    case SV_CMDS_EDGE:
        x.s.cmds = edge_copy(&x.cmds[0], sizeof(x.cmds[0]));
        x.s.nr_cmds = 2;
        break;
    case SV_CMD_SIZE10:
        x.cmds[0].size = 10;
        break;
    case SV_CMD_SIZE2:
        x.cmds[0].size = 2;
        break;
    case SV_RELOCS_BADPTR:
        x.cmds[0].nr_relocs = 1;
        x.cmds[0].relocs = (uintptr_t)g_badptr;
        break;
    case SV_RELOCS_BADPTR_CMD0:
        /* the fault must end the loop: cmd 1's copy would clear ret */
        x.cmds[0].nr_relocs = 1;
        x.cmds[0].relocs = (uintptr_t)g_badptr;
        sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(nop3));
        break;
    case SV_RELOCS_HUGE:
        x.cmds[0].nr_relocs = 0xffffffff;
        break;
    case SV_IDX1:
        x.cmds[0].submit_idx = 1;
        break;
    case SV_IDX_NOBOS:
        x.s.nr_bos = 0;
        break;
    case SV_SIZE0:
        x.cmds[0].size = 0;
        break;
    case SV_PAST_END:
        x.cmds[0].submit_offset = g_nop.size - 8;
        break;
    case SV_OFF_END:
        x.cmds[0].submit_offset = g_nop.size;
        x.cmds[0].size = 4;
        break;
    case SV_SIZE_BIG:
        x.cmds[0].size = g_nop.size + 4;
        break;
    case SV_OFF_HUGE:
        x.cmds[0].submit_offset = 0xfffffffc;
        x.cmds[0].size = 4;
        break;
    case SV_FIT_END:
        /* a 3-dword NOP ending at the last byte of the BO */
        bo_write(&g_nop, g_nop.size - 12, nop3, ARRAY_SIZE(nop3));
        x.cmds[0].submit_offset = g_nop.size - 12;
        break;
    case SV_RELOC_ALIGN:
        x.cmds[0].nr_relocs = 1;
        rel[0].submit_offset = 3074;
        break;
    case SV_RELOC_OFF:
        x.cmds[0].nr_relocs = 1;
        rel[0].submit_offset = g_nop.size;
        break;
    case SV_RELOC_DESC:
        x.cmds[0].nr_relocs = 2;
        rel[0].submit_offset = 3076;
        rel[1].submit_offset = 3072;
        break;
    case SV_RELOC_IDX:
        x.cmds[0].nr_relocs = 1;
        rel[0].reloc_idx = 1;
        break;
    case SV_SN_ZERO:
        x.s.flags |= MSM_SUBMIT_FENCE_SN_IN;
        x.s.fence = 0;
        break;
    case SV_NO_CMDS:
        x.s.nr_cmds = 0;
        break;
    case SV_CMD_PAD:
        x.cmds[0].pad = 0xffffffff;
        break;
    case SV_OFF_UNALIGNED:
        x.cmds[0].submit_offset = 2;
        break;
    }
    ret = sub_expect(&x, submit_variants[i].err, why);
    if (pfd[0] >= 0) {
        close(pfd[0]);
        close(pfd[1]);
    }
    if (so) {
        syncobj_destroy(so);
    }
    return ret;
}

static int child_sudo(void *arg)
{
    struct sub x;

    (void)arg;
    sub_base(&x, 0);
    x.s.flags |= MSM_SUBMIT_SUDO;
    return sub_try(g_fd, &x);
}

static int c_submit_sudo(unsigned long arg, char *why)
{
    (void)arg;
    NEED_FIX();
    return child_expect(CAP_SYS_RAWIO, child_sudo, EINVAL,
                        "SUBMIT SUDO without CAP_SYS_RAWIO", why);
}

/* Fill the fd table up to RLIMIT_NOFILE, then ask for an out-fence fd. */
static int child_emfile(void *arg)
{
    struct rlimit rl;
    struct sub x;
    int maxfd = 0, fd;

    (void)arg;
    for (fd = 0; fd < 1024; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) {
            maxfd = fd;
        }
    }
    while ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd < maxfd) {
        ;
    }
    if (fd > maxfd) {
        close(fd);
    }
    rl.rlim_cur = rl.rlim_max = (rlim_t)maxfd + 1;
    if (setrlimit(RLIMIT_NOFILE, &rl)) {
        return -1001;
    }
    sub_base(&x, 0);
    x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
    return sub_try(g_fd, &x);
}

static int c_submit_emfile(unsigned long arg, char *why)
{
    (void)arg;
    NEED_FIX();
    return child_expect(-1, child_emfile, EMFILE,
                        "SUBMIT FENCE_FD_OUT with a full fd table", why);
}

/* The lowest free fd number: the one the next open would get. */
static int lowest_free_fd(void)
{
    int fd = dup(0);

    if (fd >= 0) {
        close(fd);
    }
    return fd;
}

/*
 * FENCE_FD_OUT reserves its fd before the bo table is read: a submit that
 * fails after that (an unknown bo handle) must give the fd back.
 */
static int c_submit_fd_out_unwind(unsigned long arg, char *why)
{
    struct sub x;
    int before, after;

    (void)arg;
    NEED_FIX();
    before = lowest_free_fd();
    sub_base(&x, 0);
    x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
    x.bos[0].handle = g_nop.handle + 1000;
    EXPECT(sub_try(g_fd, &x), EINVAL, "SUBMIT FENCE_FD_OUT, unknown bo handle");
    after = lowest_free_fd();
    if (after != before) {
        return kt_fail(why,
                       "the next free fd is %d, %d before the SUBMIT: "
                       "its out-fence fd stayed reserved",
                       after, before);
    }
    return KTAP_PASS;
}

/* SUBMIT: bo flags and cmd type, then the submit-level flags */
void register_submit_cases(void)
{
    unsigned i;

    /* SUBMIT: [2014] bo flags and cmd type; then the submit-level flags */
    add_bits(c_submit_bo_bit, submit_bo_flags(), 0, "SUBMIT bo flags");
    kt_add(c_submit_bo_flags, 0,
           "SUBMIT bo flags 0 (neither READ nor WRITE) rejected with EINVAL");
    kt_add(c_submit_bo_flags, MSM_SUBMIT_BO_DUMP,
           "SUBMIT bo flags DUMP alone rejected with EINVAL");
    kt_add(c_submit_bo_flags, MSM_SUBMIT_BO_NO_IMPLICIT,
           "SUBMIT bo flags NO_IMPLICIT alone rejected with EINVAL");
    kt_add(c_submit_bo_flags, MSM_SUBMIT_BO_WRITE,
           "SUBMIT bo flags WRITE accepted");
    kt_add(c_submit_bad_bo1, 0,
           "SUBMIT bo 1 of 2 with flags 0 rejected with EINVAL (in time)");
    kt_add(c_submit_bo_flags, submit_bo_flags(),
           "SUBMIT bo flags READ|WRITE|DUMP%s accepted",
           feat_have(F_SUBMIT_BO_NO_IMPLICIT) ? "|NO_IMPLICIT" : "");
    for (i = 0; i < ARRAY_SIZE(bad_cmd_types); i++) {
        kt_add(c_submit_cmd_type, bad_cmd_types[i],
               "SUBMIT cmd type 0x%x rejected with EINVAL", bad_cmd_types[i]);
    }
    kt_add(c_submit_cmd_type, MSM_SUBMIT_CMD_IB_TARGET_BUF,
           "SUBMIT cmd type 2 (IB_TARGET_BUF) accepted");
    kt_add(c_submit_cmd_type, MSM_SUBMIT_CMD_CTX_RESTORE_BUF,
           "SUBMIT cmd type 3 (CTX_RESTORE_BUF) accepted");
    /* bits 0..15 are the pipe */
    add_bits(c_submit_flag_bit, MSM_SUBMIT_FLAGS, 16, "SUBMIT flags");
    kt_add(c_submit_sudo, 0,
           "SUBMIT SUDO without CAP_SYS_RAWIO rejected with EINVAL");
    kt_add(c_submit_emfile, 0,
           "SUBMIT FENCE_FD_OUT with no free fd rejected with EMFILE");
    kt_add(c_submit_fd_out_unwind, 0,
           "SUBMIT FENCE_FD_OUT failing on a bo handle gives its fd back");
    for (i = 0; i < ARRAY_SIZE(submit_variants); i++) {
        kt_add(c_submit_variant, i, "%s", submit_variants[i].name);
    }
}
