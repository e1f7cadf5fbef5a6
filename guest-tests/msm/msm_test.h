/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msm_test.h - what the files of msm_ioctl share: the running driver's
 * features, the global state and NOP fixture (msm_main.c), the helpers of
 * the cases (msm_util.c) and each file's registration function.
 */
#ifndef PATCHBAY_MSM_TEST_H
#define PATCHBAY_MSM_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "helpers.h"
#include "msm_common.h"

/* include/linux/errno.h: kernel-internal, but GEM_INFO returns it as is. */
#define ETOOSMALL 525

/* Expected a200 identity (a2xx_catalog.c, adreno_gpu.c:adreno_get_param). */
#define A200_GPU_ID     200
#define A200_CHIP_ID    0x02000000u
#define A200_GMEM       (256u * 1024u)
#define A200_GMEM_BASE  0x100000u
#define A200_MAX_FREQ   200000000u /* OPP fallback, or a 200 MHz table */
#define A200_PRIORITIES 3u         /* 1 ring x NR_SCHED_PRIORITIES */

/* ---- checks inside a case function (why is its reason buffer) ---- */

/* r is 0 or -errno, e is 0 or an errno: fail the case unless they match. */
#define EXPECT(r, e, what)                             \
    do {                                               \
        if (kt_expect_errno(why, (what), -(r), (e))) { \
            return KTAP_FAIL;                          \
        }                                              \
    } while (0)

/*
 * The same in a function with cleanup, "int ret = 0; ... out: cleanup;
 * return ret;": FAIL_OUT(fmt, ...), BAIL_OUT() with the reason in why
 * already, EXPECT_OUT(r, e, what), MAKE_BO(b, fd, size, flags).
 */
#define FAIL_OUT(...)                    \
    do {                                 \
        ret = kt_fail(why, __VA_ARGS__); \
        goto out;                        \
    } while (0)
#define BAIL_OUT()       \
    do {                 \
        ret = KTAP_FAIL; \
        goto out;        \
    } while (0)
#define EXPECT_OUT(r, e, what)                         \
    do {                                               \
        if (kt_expect_errno(why, (what), -(r), (e))) { \
            BAIL_OUT();                                \
        }                                              \
    } while (0)
#define MAKE_BO(b, fd, size, flags)                                 \
    do {                                                            \
        if (bo_make((b), (fd), (size), (flags), why, KT_WHY_LEN)) { \
            BAIL_OUT();                                             \
        }                                                           \
    } while (0)

/* ---- what the running driver offers (msm_main.c) ---- */

enum feat {
    F_ALWAYS, /* in every kernel the suite supports */
    F_INFO_GET_FLAGS,
    F_SUBMIT_BO_NO_IMPLICIT,
    F_PREP_BOOST,
    F_WAIT_FENCE_BOOST,
    F_INFO_METADATA,
    F_GET_NAME_ETOOSMALL,
    F_PARAM_HIGHEST_BANK_BIT,
    F_PARAM_RAYTRACING,
    F_PARAM_UBWC_SWIZZLE,
    F_PARAM_MACROTILE_MODE,
    F_COUNT
};

#define KREL(maj, min)   ((maj)*1000u + (min))
#define MSM_MINOR_OLDEST 9  /* Linux 6.1 */
#define MSM_MINOR_NEWEST 12 /* Linux 6.12: the newest msm_feats[] knows */

struct msm_feat {
    const char *what;
    unsigned minor;  /* msm 1.<minor> brought it */
    unsigned krel;   /* came without a bump: KREL() of a kernel with it */
    bool krel_first; /* krel is the release that added it */
};
extern const struct msm_feat msm_feats[F_COUNT];

/* The msm version MSM_VERSION_* of a release, where the two are pinned. */
struct msm_release_minor {
    unsigned krel;
    int minor;
};
extern const struct msm_release_minor msm_release_minor[2];

/* Read once in main(), before the cases are registered. */
struct msm_driver {
    bool known; /* false: no version, cases assume the newest */
    int major, minor, patch;
    unsigned krel; /* KREL() of uname's release, 0 if unknown */
    char release[65];
};
extern struct msm_driver g_drv;

enum feat_state { FEAT_NO, FEAT_MAYBE, FEAT_YES };

enum feat_state feat_state(enum feat f);
bool feat_have(enum feat f);
/* NULL when the driver (may) have f, else why not, in a static buffer. */
const char *feat_lacks(enum feat f);
/* For case names: "msm 1.12", or "Linux 6.2" where the version can't tell. */
const char *feat_since(enum feat f);

#define NEED_FEAT(f)                       \
    do {                                   \
        const char *l_ = feat_lacks(f);    \
        if (l_) {                          \
            return kt_skip(why, "%s", l_); \
        }                                  \
    } while (0)

/* The driver's MSM_PREP_FLAGS, MSM_WAIT_FENCE_FLAGS, MSM_SUBMIT_BO_FLAGS. */
uint32_t prep_flags(void);
uint32_t wait_fence_flags(void);
uint32_t submit_bo_flags(void);

/* ---- global state (msm_main.c) ---- */

extern int g_fd;          /* the msm render node */
extern char g_render[64]; /* its path */
extern long g_page;
extern char g_dbg[160]; /* debugfs dir of the device, or "" */
extern void *g_badptr;  /* one PROT_NONE page */
extern uint8_t *g_edge; /* a RW page followed by a PROT_NONE page */
extern char *g_strbuf;  /* page + 1 bytes of 'p' and a NUL */

extern struct bo g_nop; /* one-page WC BO, a 3-dword CP_NOP at 0 */
extern int g_fix_ok;
extern char g_fix_why[KT_WHY_LEN];
extern const uint32_t nop3[3];

#define NEED_FIX()                                             \
    do {                                                       \
        if (!g_fix_ok) {                                       \
            return kt_fail(why, "fixture: %.200s", g_fix_why); \
        }                                                      \
    } while (0)

/*
 * Most GPU cases need two fresh BOs: cmd for their IBs and dst for the IBs
 * to write. Such a case is a gpu_fn; add_gpu() registers it with a wrapper
 * that makes and frees the BOs (cmd_size bytes WC, 4 KiB dst_flags).
 */
typedef int (*gpu_fn)(unsigned long arg, struct bo *cmd, struct bo *dst,
                      char *why);
KTAP_PRINTF(5, 6)
void add_gpu(gpu_fn fn, unsigned long arg, uint32_t cmd_size,
             uint32_t dst_flags, const char *fmt, ...);
/* One case per bit of 32 from bit from on, but those in mask. */
void add_bits(kt_case_fn fn, uint32_t mask, unsigned from, const char *what);

/* ---- helpers of the cases (msm_util.c) ---- */

static inline uint32_t lo(uint64_t iova)
{
    return (uint32_t)iova;
}

/* Bytes of the IB that put_mem_write() writes. */
#define MEM_WRITE_BYTES 12

/* The valid submit every SUBMIT negative case starts from: one NOP IB. */
void sub_base(struct sub *x, uint32_t queue);
/* Submit x; if taken, wait for it and close its fence fd. 0 or -errno. */
int sub_try(int fd, struct sub *x);
/* Submit x, expect errno e (0: success). */
int sub_expect(struct sub *x, int e, char *why);
/* Submit x, which must be accepted, and wait up to 5 s for its fence. */
int sub_run(int fd, struct sub *x, const char *what, char *why);
/* A submit on queue with cmd (READ) as bo 0 and dst (WRITE) as bo 1. */
void sub_pair(struct sub *x, uint32_t queue, const struct bo *cmd,
              const struct bo *dst);
/* x waits for / signals syncobj handle; the entry, for point and flags. */
struct drm_msm_gem_submit_syncobj *sub_in(struct sub *x, uint32_t handle);
struct drm_msm_gem_submit_syncobj *sub_out(struct sub *x, uint32_t handle);

/* At byte off of cmd: an IB that CP_MEM_WRITEs val to GPU address addr. */
void put_mem_write(struct bo *cmd, uint32_t off, uint32_t addr, uint32_t val);
/* Submit n dwords at off of cmd as one IB, dst as WRITE BO; wait 5 s. */
int run_ib(uint32_t queue, struct bo *cmd, uint32_t off, const uint32_t *dw,
           unsigned n, struct bo *dst, uint32_t *fence, char *why);
/* run_ib() of a CP_MEM_WRITE of val to dst + doff. */
int run_mem_write(uint32_t queue, struct bo *cmd, uint32_t off, struct bo *dst,
                  uint32_t doff, uint32_t val, char *why);
/* The GPU still executes: a CP_MEM_WRITE of 0xCAFEBABE to dst on queue. */
int gpu_proof(uint32_t queue, struct bo *cmd, struct bo *dst, const char *when,
              char *why);
/* cmd (cmd_size bytes, WC) and dst (4 KiB, dst_flags) on fd; 0 or -1. */
int pair_make(int fd, struct bo *cmd, uint32_t cmd_size, struct bo *dst,
              uint32_t dst_flags, char *why);
void pair_free(struct bo *cmd, struct bo *dst);
/* Run a gpu_fn on fresh BOs. */
int with_pair(gpu_fn fn, unsigned long arg, uint32_t cmd_size,
              uint32_t dst_flags, char *why);

int cpu_prep(int fd, uint32_t handle, uint32_t op, int ms);
int madvise_bo(int fd, uint32_t handle, uint32_t madv, uint32_t *retained);
/* q asks for the FAULTS of queue id into *faults, preset to 0xdeadbeef. */
void faults_query(struct drm_msm_submitqueue_query *q, uint32_t id,
                  uint32_t *faults);
int queue_faults(int fd, uint32_t id, uint32_t *faults);
int syncobj_create(uint32_t flags, uint32_t *handle);
void syncobj_destroy(uint32_t handle);
int syncobj_wait(uint32_t handle, int ms);
/* A number in a debugfs file of the device; 0 or -errno. */
int dbg_read(const char *file, long long *v);
int dbg_write(const char *file, long long v);
/* in_child(cap, fn) must give errno e (see msm_util.c). */
int child_expect(int cap, int (*fn)(void *), int e, const char *what,
                 char *why);
/* GET_PARAM or SET_PARAM (or another req on that struct), all fields given. */
int param_raw(unsigned long req, uint32_t pipe, uint32_t param, uint64_t value,
              uint32_t len, uint32_t pad);

/* ---- the cases, registered in this order by main() ---- */

void register_param_cases(void);      /* msm_param.c */
void register_gem_cases(void);        /* msm_gem.c */
void register_cpu_prep_cases(void);   /* msm_madvise.c */
void register_wait_fence_cases(void); /* msm_fence.c */
void register_madvise_cases(void);    /* msm_madvise.c */
void register_queue_cases(void);      /* msm_fence.c */
void register_submit_cases(void);     /* msm_submit.c */
void register_exec_cases(void);       /* msm_exec.c */
void register_hang_cases(void);       /* msm_hang.c */
void register_fault_cases(void);      /* msm_faults.c */

/* Cases of msm_fence.c that register_exec_cases() orders among its own. */
int c_exec_fence_only(unsigned long flags, char *why);
int c_exec_fence_fd(unsigned long arg, char *why);
int c_exec_syncobj(unsigned long which, char *why);
int c_exec_fence_sn(unsigned long arg, char *why);

#endif /* PATCHBAY_MSM_TEST_H */
