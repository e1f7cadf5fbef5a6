// SPDX-License-Identifier: GPL-2.0
/*
 * msm_ioctl - the drm/msm ioctls of Linux 6.12 on the emulated Adreno 200.
 *
 * Above all this checks the input validation that commit 93ddb0d3b022
 * ("drm/msm: validate flags, etc") introduced and 6.12 still has: unknown
 * GEM_NEW flags, CPU_PREP op bits, WAIT_FENCE flags (the pad check of 2014,
 * replaced by a flags check in MSM 1.11), SUBMIT bo flags and SUBMIT cmd
 * types are rejected with EINVAL.  Every unknown bit of each mask is its own
 * case, each on an otherwise valid call, so a kernel without one of those
 * checks fails exactly that group.  Around them: every other check of the
 * ioctls reachable on a2xx (design note adreno.md, section 6.2, re-read
 * against the 6.12 source), and positive cases that make the GPU execute
 * the test's own PM4 (CP_MEM_WRITE, CP_REG_TO_MEM, CP_WAIT_REG_MEM, IB2,
 * relocs), fences, queues, fence fds, syncobjs, madvise/purge, runtime
 * suspend and a real hang with hangcheck recovery.
 *
 * Sources of the expectations (6.12): msm_drv.c (the ioctl entry points),
 * msm_gem.c, msm_gem_submit.c, msm_submitqueue.c, msm_gpu.c
 * (recover_worker, hangcheck_handler), adreno/adreno_gpu.c (get/set_param),
 * adreno/a2xx_gpu.c (a2xx_submit), drm_ioctl.c, drm_gem.c, drm_syncobj.c.
 *
 * Older kernels (6.1: msm 1.9.0) have less uapi: msm_feats[] says which
 * driver version brought what, and the cases adapt to the running driver
 * (see "what the running driver offers" below).
 *
 * Run as root (SYSPROF and the debugfs knobs need it; the cases that need a
 * capability to be absent drop it in a child).  If no msm render node shows
 * up within 5 s, every case fails with that reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/sync_file.h>

#include "kconfig.h"
#include "ktap.h"
#include "msm_common.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define WHY_LEN		320

/* include/linux/errno.h: kernel-internal, but GEM_INFO returns it as is. */
#define ETOOSMALL	525

/* Expected a200 identity (a2xx_catalog.c, adreno_gpu.c:adreno_get_param). */
#define A200_GPU_ID	200
#define A200_CHIP_ID	0x02000000u
#define A200_GMEM	(256u * 1024u)
#define A200_GMEM_BASE	0x100000u
#define A200_MAX_FREQ	200000000u	/* OPP fallback, or a 200 MHz table */
#define A200_PRIORITIES	3u		/* 1 ring x NR_SCHED_PRIORITIES */

/* ---- cases ---------------------------------------------------------------- */

/* 0: pass; -1: fail; 1: skip.  why gets the reason. */
typedef int (*case_fn)(unsigned long arg, char *why);

/*
 * Most GPU cases need two fresh BOs: cmd for their IBs and dst for the IBs
 * to write.  Such a case is a gpu_fn; the runner makes and frees the BOs.
 */
typedef int (*gpu_fn)(unsigned long arg, struct bo *cmd, struct bo *dst,
		      char *why);

struct tcase {
	char name[128];
	case_fn fn;
	gpu_fn gpu;			/* instead of fn, see add_gpu() */
	uint32_t cmd_size, dst_flags;
	unsigned long arg;
};

static struct tcase g_cases[640];
static unsigned g_ncases;

static struct tcase *vadd(unsigned long arg, const char *fmt, va_list ap)
{
	struct tcase *c;

	if (g_ncases >= ARRAY_SIZE(g_cases)) {
		fprintf(stderr, "msm_ioctl: too many cases\n");
		exit(2);
	}
	c = &g_cases[g_ncases];
	vsnprintf(c->name, sizeof(c->name), fmt, ap);
	c->arg = arg;
	g_ncases++;
	return c;
}

static KTAP_PRINTF(3, 4) void add(case_fn fn, unsigned long arg,
				  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(arg, fmt, ap)->fn = fn;
	va_end(ap);
}

/* A GPU case on a cmd BO of cmd_size bytes (WC) and a 4 KiB dst BO. */
static KTAP_PRINTF(5, 6) void add_gpu(gpu_fn fn, unsigned long arg,
				      uint32_t cmd_size, uint32_t dst_flags,
				      const char *fmt, ...)
{
	struct tcase *c;
	va_list ap;

	va_start(ap, fmt);
	c = vadd(arg, fmt, ap);
	va_end(ap);
	c->gpu = fn;
	c->cmd_size = cmd_size;
	c->dst_flags = dst_flags;
}

#define FAIL(...) do { snprintf(why, WHY_LEN, __VA_ARGS__); return -1; } while (0)
#define SKIP(...) do { snprintf(why, WHY_LEN, __VA_ARGS__); return 1; } while (0)
/* for functions with cleanup: int ret = 0; ... out: cleanup; return ret; */
#define FAILG(...) do { snprintf(why, WHY_LEN, __VA_ARGS__); ret = -1; goto out; } while (0)
#define BAILG() do { ret = -1; goto out; } while (0)
#define MAKE(b, fd, size, flags) \
	do { if (bo_make((b), (fd), (size), (flags), why, WHY_LEN)) { ret = -1; goto out; } } while (0)

/* Put "pfx: " in front of the reason already in why. */
static void why_prefix(char *why, const char *pfx)
{
	char t[WHY_LEN];

	snprintf(t, sizeof(t), "%s: %.250s", pfx, why);
	memcpy(why, t, WHY_LEN);
}

static const char *ename(int e)
{
	static char bufs[4][24];
	static unsigned n;
	char *b;

	switch (e) {
	case 0: return "success";
#define E(x) case x: return #x
	E(EPERM); E(ENOENT); E(EINTR); E(EIO); E(EBADF); E(ENXIO);
	E(ENOMEM); E(EACCES); E(EFAULT); E(EBUSY); E(EINVAL); E(EMFILE);
	E(ENOTTY); E(ENOSPC); E(ENODEV); E(ETIMEDOUT); E(EOPNOTSUPP);
	E(EOVERFLOW); E(ETIME); E(EAGAIN); E(ENOSYS);
#undef E
	case ETOOSMALL: return "ETOOSMALL";
	case 512: return "ERESTARTSYS";
	}
	b = bufs[n++ % 4];
	snprintf(b, sizeof(bufs[0]), "errno %d", e);
	return b;
}

/* r is 0 or -errno, e is 0 or an errno. */
#define EXPECT(r, e, what) do { int r_ = (r); if (r_ != -(e)) \
	FAIL("%s: got %s, expected %s", (what), ename(-r_), ename(e)); } while (0)
#define EXPECTG(r, e, what) do { int r_ = (r); if (r_ != -(e)) \
	FAILG("%s: got %s, expected %s", (what), ename(-r_), ename(e)); } while (0)

/* ---- what the running driver offers ---------------------------------------- */

/*
 * The msm uapi grew between the kernels patchbay boots: 6.1 has msm 1.9.0,
 * 6.12 has 1.12.0 (msm_drv.c's header lists what each minor version added).
 * One row per difference the suite meets.  A case of an interface the
 * running driver lacks skips, naming the version; a flag bit it lacks is an
 * unknown bit there and must be rejected with EINVAL like any other, so the
 * per-bit loops take the driver's masks (prep_flags() etc.) from here.
 */
enum feat {
	F_ALWAYS,		/* in every kernel the suite supports */
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

#define KREL(maj, min)		((maj) * 1000u + (min))
#define MSM_MINOR_OLDEST	9	/* Linux 6.1 */
#define MSM_MINOR_NEWEST	12	/* Linux 6.12: the newest msm_feats[] knows */

static const struct {
	const char *what;
	unsigned minor;		/* msm 1.<minor> brought it */
	unsigned krel;		/* came without a bump: KREL() of a kernel with it */
	bool krel_first;	/* krel is the release that added it */
} msm_feats[F_COUNT] = {
	[F_ALWAYS] = { "", 0, 0, false },
	/* the drm/msm pull for 6.2, no bump: 1.9 of 6.1 has no GET_FLAGS */
	[F_INFO_GET_FLAGS] = { "MSM_INFO_GET_FLAGS", 9, KREL(6, 2), true },
	[F_SUBMIT_BO_NO_IMPLICIT] = { "MSM_SUBMIT_BO_NO_IMPLICIT", 10, 0, false },
	[F_PREP_BOOST] = { "MSM_PREP_BOOST", 11, 0, false },
	/* before 1.11 the field was "pad" and had to be 0 */
	[F_WAIT_FENCE_BOOST] = { "MSM_WAIT_FENCE_BOOST", 11, 0, false },
	[F_INFO_METADATA] = { "MSM_INFO_SET_METADATA/GET_METADATA", 12, 0, false },
	/* the metadata commit turned GET_NAME's "too small" EINVAL into this */
	[F_GET_NAME_ETOOSMALL] = { "ETOOSMALL for a too small GET_NAME buffer", 12, 0, false },
	/*
	 * Added after the 1.12.0 bump with none of their own: 1.9 (6.1) has
	 * none, 1.12 of 6.12 has all four; a 1.12 kernel older than 6.12 may
	 * lack some, so there an EINVAL counts as absent (FEAT_MAYBE).
	 */
	[F_PARAM_HIGHEST_BANK_BIT] = { "MSM_PARAM_HIGHEST_BANK_BIT", 12, KREL(6, 12), false },
	[F_PARAM_RAYTRACING] = { "MSM_PARAM_RAYTRACING", 12, KREL(6, 12), false },
	[F_PARAM_UBWC_SWIZZLE] = { "MSM_PARAM_UBWC_SWIZZLE", 12, KREL(6, 12), false },
	[F_PARAM_MACROTILE_MODE] = { "MSM_PARAM_MACROTILE_MODE", 12, KREL(6, 12), false },
};

/* The msm version MSM_VERSION_* of a release, where the two are pinned. */
static const struct { unsigned krel; int minor; } msm_release_minor[] = {
	{ KREL(6, 1), 9 },
	{ KREL(6, 12), 12 },
};

/* Read once in main(), before the cases are registered. */
static struct {
	bool known;		/* false: no version, cases assume the newest */
	int major, minor, patch;
	unsigned krel;		/* KREL() of uname's release, 0 if unknown */
	char release[65];
} g_drv;

enum feat_state { FEAT_NO, FEAT_MAYBE, FEAT_YES };

static enum feat_state feat_state(enum feat f)
{
	unsigned minor = g_drv.known ? (unsigned)g_drv.minor : MSM_MINOR_NEWEST;

	if (minor < msm_feats[f].minor)
		return FEAT_NO;
	/* a later bump came after it; otherwise the release decides */
	if (!msm_feats[f].krel || minor > msm_feats[f].minor ||
	    g_drv.krel >= msm_feats[f].krel)
		return FEAT_YES;
	return msm_feats[f].krel_first ? FEAT_NO : FEAT_MAYBE;
}

static bool feat_have(enum feat f)
{
	return feat_state(f) == FEAT_YES;
}

/* NULL when the driver (may) have f, else why not, in a static buffer. */
static const char *feat_lacks(enum feat f)
{
	static char buf[200];

	if (feat_state(f) != FEAT_NO)
		return NULL;
	if (g_drv.minor >= (int)msm_feats[f].minor)	/* krel_first decided */
		snprintf(buf, sizeof(buf),
			 "%s needs Linux %u.%u (it came without a version bump), the kernel is %s with msm %d.%d",
			 msm_feats[f].what, msm_feats[f].krel / 1000,
			 msm_feats[f].krel % 1000, g_drv.release, g_drv.major,
			 g_drv.minor);
	else
		snprintf(buf, sizeof(buf), "%s needs msm 1.%u, the kernel's driver is %d.%d",
			 msm_feats[f].what, msm_feats[f].minor, g_drv.major,
			 g_drv.minor);
	return buf;
}

/* For case names: "msm 1.12", or "Linux 6.2" for a feature the version cannot tell. */
static const char *feat_since(enum feat f)
{
	static char buf[32];

	if (msm_feats[f].krel && g_drv.minor >= (int)msm_feats[f].minor)
		snprintf(buf, sizeof(buf), "Linux %u.%u", msm_feats[f].krel / 1000,
			 msm_feats[f].krel % 1000);
	else
		snprintf(buf, sizeof(buf), "msm 1.%u", msm_feats[f].minor);
	return buf;
}

#define NEED_FEAT(f) do { const char *l_ = feat_lacks(f); \
	if (l_) SKIP("%s", l_); } while (0)

/* The driver's MSM_PREP_FLAGS, MSM_WAIT_FENCE_FLAGS, MSM_SUBMIT_BO_FLAGS. */
static uint32_t prep_flags(void)
{
	return MSM_PREP_READ | MSM_PREP_WRITE | MSM_PREP_NOSYNC |
	       (feat_have(F_PREP_BOOST) ? MSM_PREP_BOOST : 0);
}

static uint32_t wait_fence_flags(void)
{
	return feat_have(F_WAIT_FENCE_BOOST) ? MSM_WAIT_FENCE_BOOST : 0;
}

static uint32_t submit_bo_flags(void)
{
	return MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP |
	       (feat_have(F_SUBMIT_BO_NO_IMPLICIT) ? MSM_SUBMIT_BO_NO_IMPLICIT : 0);
}

/* g_drv from uname and DRM_IOCTL_VERSION of fd. */
static void driver_version_init(int fd)
{
	struct drm_version v;
	struct utsname u;
	unsigned a, b;
	char name[32];

	if (uname(&u) == 0) {
		snprintf(g_drv.release, sizeof(g_drv.release), "%s", u.release);
		if (sscanf(u.release, "%u.%u", &a, &b) == 2)
			g_drv.krel = KREL(a, b);
	}
	if (drm_driver_name(fd, name, sizeof(name), &v) == 0) {
		g_drv.major = v.version_major;
		g_drv.minor = v.version_minor;
		g_drv.patch = v.version_patchlevel;
		/* another major would be another uapi: c_version fails it */
		g_drv.known = v.version_major == 1;
	}
}

/* ---- global state ---------------------------------------------------------- */

static int g_fd = -1;			/* the msm render node */
static char g_render[64];
static char g_nodev[WHY_LEN];		/* non-empty: why every case fails */
static long g_page;
static char g_dbg[160];			/* debugfs dir of the device, or "" */
static void *g_badptr;			/* one PROT_NONE page */
static uint8_t *g_edge;			/* a RW page followed by a PROT_NONE page */

static struct bo g_nop;			/* one-page WC BO, a 3-dword CP_NOP at 0 */
static int g_fix_ok;
static char g_fix_why[WHY_LEN];

#define NEED_FIX() do { if (!g_fix_ok) FAIL("fixture: %.200s", g_fix_why); } while (0)

static const uint32_t nop3[] = { PM4_PKT3(CP_NOP, 2), 0, 0 };

static void fixture_init(void)
{
	/* obj->size is PAGE_ALIGNed: make the BO exactly one CPU page (>= 4 KiB) */
	uint32_t size = g_page > 4096 ? (uint32_t)g_page : 4096;

	if (bo_make(&g_nop, g_fd, size, MSM_BO_WC, g_fix_why, WHY_LEN))
		return;
	bo_write(&g_nop, 0, nop3, ARRAY_SIZE(nop3));
	g_fix_ok = 1;
}

/* The valid submit every SUBMIT negative case starts from: one NOP IB.
 * g_nop.size below is the object size the kernel bounds-checks against. */
static void sub_base(struct sub *x, uint32_t queue)
{
	sub_init(x, queue);
	sub_bo(x, g_nop.handle, MSM_SUBMIT_BO_READ);
	sub_cmd(x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(nop3));
}

static void close_fence_fd(struct sub *x)
{
	if ((x->s.flags & MSM_SUBMIT_FENCE_FD_OUT) && x->s.fence_fd >= 0)
		close(x->s.fence_fd);
	x->s.fence_fd = -1;
}

/*
 * Submit x; if the kernel took it, wait for it (and close its fence fd) so
 * that it cannot outlive the case.  0 or -errno of the SUBMIT.
 */
static int sub_try(int fd, struct sub *x)
{
	int r = sub_do(fd, x);

	if (r == 0) {
		close_fence_fd(x);
		wait_fence(fd, x->s.queueid, x->s.fence, 5000);
	}
	return r;
}

/* Submit x, expect errno e (0: success). */
static int sub_expect(struct sub *x, int e, char *why)
{
	EXPECT(sub_try(g_fd, x), e, "SUBMIT");
	return 0;
}

/* Submit x, which must be accepted, and wait up to 5 s for its fence. */
static int sub_run(int fd, struct sub *x, const char *what, char *why)
{
	int r;

	EXPECT(sub_do(fd, x), 0, what);
	r = wait_fence(fd, x->s.queueid, x->s.fence, 5000);
	if (r)
		FAIL("WAIT_FENCE(queue %u, fence %u, 5 s): %s", x->s.queueid,
		     x->s.fence, ename(-r));
	return 0;
}

/* A submit on queue with cmd (READ) as bo 0 and dst (WRITE) as bo 1. */
static void sub_pair(struct sub *x, uint32_t queue, const struct bo *cmd,
		     const struct bo *dst)
{
	sub_init(x, queue);
	sub_bo(x, cmd->handle, MSM_SUBMIT_BO_READ);
	sub_bo(x, dst->handle, MSM_SUBMIT_BO_WRITE);
}

/* x waits for syncobj handle; the entry is returned for point and flags. */
static struct drm_msm_gem_submit_syncobj *sub_in(struct sub *x, uint32_t handle)
{
	x->s.flags |= MSM_SUBMIT_SYNCOBJ_IN;
	x->s.nr_in_syncobjs = 1;
	x->in[0].handle = handle;
	return &x->in[0];
}

/* x signals syncobj handle; the entry is returned for point and flags. */
static struct drm_msm_gem_submit_syncobj *sub_out(struct sub *x, uint32_t handle)
{
	x->s.flags |= MSM_SUBMIT_SYNCOBJ_OUT;
	x->s.nr_out_syncobjs = 1;
	x->out[0].handle = handle;
	return &x->out[0];
}

static uint32_t lo(uint64_t iova) { return (uint32_t)iova; }

/* Bytes of the IB that put_mem_write() writes. */
#define MEM_WRITE_BYTES	12

/* At byte off of cmd: an IB that CP_MEM_WRITEs val to GPU address addr. */
static void put_mem_write(struct bo *cmd, uint32_t off, uint32_t addr,
			  uint32_t val)
{
	const uint32_t ib[] = { PM4_PKT3(CP_MEM_WRITE, 2), addr, val };

	bo_write(cmd, off, ib, ARRAY_SIZE(ib));
}

/*
 * Submit one IB (n dwords at byte offset off of cmd) with dst as its WRITE
 * BO and wait up to 5 s for it.
 */
static int run_ib(uint32_t queue, struct bo *cmd, uint32_t off,
		  const uint32_t *dw, unsigned n, struct bo *dst,
		  uint32_t *fence, char *why)
{
	struct sub x;

	bo_write(cmd, off, dw, n);
	sub_pair(&x, queue, cmd, dst);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, off, n * 4);
	if (sub_run(g_fd, &x, "SUBMIT", why))
		return -1;
	if (fence)
		*fence = x.s.fence;
	return 0;
}

/* run_ib() of a CP_MEM_WRITE of val to dst + doff. */
static int run_mem_write(uint32_t queue, struct bo *cmd, uint32_t off,
			 struct bo *dst, uint32_t doff, uint32_t val, char *why)
{
	const uint32_t ib[] = { PM4_PKT3(CP_MEM_WRITE, 2), lo(dst->iova) + doff, val };

	return run_ib(queue, cmd, off, ib, ARRAY_SIZE(ib), dst, NULL, why);
}

/* cmd (cmd_size bytes, WC) and dst (4 KiB, dst_flags) on fd; 0 or -1. */
static int pair_make(int fd, struct bo *cmd, uint32_t cmd_size, struct bo *dst,
		     uint32_t dst_flags, char *why)
{
	if (bo_make(cmd, fd, cmd_size, MSM_BO_WC, why, WHY_LEN) ||
	    bo_make(dst, fd, 4096, dst_flags, why, WHY_LEN))
		return -1;
	return 0;
}

static void pair_free(struct bo *cmd, struct bo *dst)
{
	bo_free(cmd);
	bo_free(dst);
}

/* Run a gpu_fn case on fresh BOs (see add_gpu()). */
static int with_pair(gpu_fn fn, unsigned long arg, uint32_t cmd_size,
		     uint32_t dst_flags, char *why)
{
	struct bo cmd = {0}, dst = {0};
	int ret = -1;

	if (pair_make(g_fd, &cmd, cmd_size, &dst, dst_flags, why) == 0)
		ret = fn(arg, &cmd, &dst, why);
	pair_free(&cmd, &dst);
	return ret;
}

static int cpu_prep(int fd, uint32_t handle, uint32_t op, int ms)
{
	struct drm_msm_gem_cpu_prep p;

	memset(&p, 0, sizeof(p));
	p.handle = handle;
	p.op = op;
	p.timeout = deadline_ms(ms);
	return xioctl(fd, DRM_IOCTL_MSM_GEM_CPU_PREP, &p);
}

static int madvise_bo(int fd, uint32_t handle, uint32_t madv, uint32_t *retained)
{
	struct drm_msm_gem_madvise m;
	int r;

	memset(&m, 0, sizeof(m));
	m.handle = handle;
	m.madv = madv;
	m.retained = 0xdeadbeef;
	r = xioctl(fd, DRM_IOCTL_MSM_GEM_MADVISE, &m);
	if (retained)
		*retained = m.retained;
	return r;
}

/* q asks for the FAULTS of queue id into *faults, preset to 0xdeadbeef. */
static void faults_query(struct drm_msm_submitqueue_query *q, uint32_t id,
			 uint32_t *faults)
{
	memset(q, 0, sizeof(*q));
	*faults = 0xdeadbeef;
	q->data = (uintptr_t)faults;
	q->id = id;
	q->param = MSM_SUBMITQUEUE_PARAM_FAULTS;
	q->len = sizeof(*faults);
}

static int queue_faults(int fd, uint32_t id, uint32_t *faults)
{
	struct drm_msm_submitqueue_query q;

	faults_query(&q, id, faults);
	return xioctl(fd, DRM_IOCTL_MSM_SUBMITQUEUE_QUERY, &q);
}

static int syncobj_create(uint32_t flags, uint32_t *handle)
{
	struct drm_syncobj_create c;
	int r;

	memset(&c, 0, sizeof(c));
	c.flags = flags;
	r = xioctl(g_fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (r == 0)
		*handle = c.handle;
	return r;
}

static void syncobj_destroy(uint32_t handle)
{
	struct drm_syncobj_destroy d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	xioctl(g_fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

static int syncobj_wait(uint32_t handle, int ms)
{
	struct drm_syncobj_wait w;

	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)&handle;
	w.count_handles = 1;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	w.timeout_nsec = mono_ns() + (int64_t)ms * 1000000LL;
	return xioctl(g_fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/* debugfs file of the device: open it, read/write a number; -errno. */
static int dbg_open(const char *file, int flags)
{
	char p[224];
	int fd;

	if (!g_dbg[0])
		return -ENOENT;
	snprintf(p, sizeof(p), "%s/%s", g_dbg, file);
	fd = open(p, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int dbg_read(const char *file, long long *v)
{
	char buf[64];
	ssize_t n;
	int fd = dbg_open(file, O_RDONLY);

	if (fd < 0)
		return fd;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	*v = strtoll(buf, NULL, 0);
	return 0;
}

static int dbg_write(const char *file, long long v)
{
	char buf[32];
	int len, r = 0;
	int fd = dbg_open(file, O_WRONLY);

	if (fd < 0)
		return fd;
	len = snprintf(buf, sizeof(buf), "%lld\n", v);
	if (write(fd, buf, len) != len)
		r = -errno;
	close(fd);
	return r;
}

/*
 * Run fn in a child that first dropped capability cap from its effective set
 * (cap < 0: none dropped).  The child shares g_fd's open file.  Returns fn's
 * 0/-errno, or -1000 - n when the child could not be set up.
 */
static int in_child(int cap, int (*fn)(void *), void *arg)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1000;
	if (pid == 0) {
		int r;

		if (cap >= 0) {
			struct __user_cap_header_struct h = {
				_LINUX_CAPABILITY_VERSION_3, 0 };
			struct __user_cap_data_struct d[2];

			if (syscall(SYS_capget, &h, d))
				_exit(250);
			d[cap / 32].effective &= ~(1u << (cap % 32));
			if (syscall(SYS_capset, &h, d))
				_exit(251);
		}
		r = fn(arg);
		_exit(r > 0 || r < -249 ? 252 : -r);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1001;
	if (WEXITSTATUS(st) >= 250)
		return -1000 - WEXITSTATUS(st);
	return -WEXITSTATUS(st);
}

/* in_child(cap, fn) must give errno e. */
static int child_expect(int cap, int (*fn)(void *), int e, const char *what,
			char *why)
{
	int r = in_child(cap, fn, NULL);

	if (r <= -1000)
		FAIL("child setup failed (%d)", r);
	EXPECT(r, e, what);
	return 0;
}

/* GET_PARAM or SET_PARAM (or another req on that struct), all fields given. */
static int param_raw(unsigned long req, uint32_t pipe, uint32_t param,
		     uint64_t value, uint32_t len, uint32_t pad)
{
	struct drm_msm_param p;

	memset(&p, 0, sizeof(p));
	p.pipe = pipe;
	p.param = param;
	p.value = value;
	p.len = len;
	p.pad = pad;
	return xioctl(g_fd, req, &p);
}

/* ===== DRM core ============================================================= */

static int c_version(unsigned long arg, char *why)
{
	struct drm_version v;
	char name[32];
	int r;

	(void)arg;
	r = drm_driver_name(g_fd, name, sizeof(name), &v);
	EXPECT(r, 0, "DRM_IOCTL_VERSION");
	if (strcmp(name, "msm") || v.name_len != 3)
		FAIL("name \"%s\" (len %zu), expected \"msm\" (3)", name, v.name_len);
	if (v.version_major != 1 || v.version_minor < MSM_MINOR_OLDEST ||
	    v.version_minor > MSM_MINOR_NEWEST || v.version_patchlevel != 0)
		FAIL("version %d.%d.%d, expected 1.%d.0 .. 1.%d.0 (6.1 .. 6.12): msm_feats[] knows no other",
		     v.version_major, v.version_minor, v.version_patchlevel,
		     MSM_MINOR_OLDEST, MSM_MINOR_NEWEST);
	if (v.version_major != g_drv.major || v.version_minor != g_drv.minor)
		FAIL("version %d.%d, but %d.%d at start", v.version_major,
		     v.version_minor, g_drv.major, g_drv.minor);
	for (unsigned i = 0; i < ARRAY_SIZE(msm_release_minor); i++)
		if (g_drv.krel == msm_release_minor[i].krel &&
		    v.version_minor != msm_release_minor[i].minor)
			FAIL("version 1.%d on Linux %s, expected 1.%d (MSM_VERSION_* of that release)",
			     v.version_minor, g_drv.release, msm_release_minor[i].minor);
	return 0;
}

static int c_card0(unsigned long arg, char *why)
{
	char name[32];
	int fd, r;

	(void)arg;
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		FAIL("open /dev/dri/card0: %s", strerror(errno));
	r = drm_driver_name(fd, name, sizeof(name), NULL);
	close(fd);
	EXPECT(r, 0, "DRM_IOCTL_VERSION on card0");
	if (strcmp(name, "msm"))
		FAIL("card0 is driver \"%s\", expected msm", name);
	return 0;
}

/* drm_ioctl(): a driver nr beyond num_ioctls, or a hole (no func): EINVAL. */
static int c_core_nr(unsigned long nr, char *why)
{
	uint8_t buf[32];

	memset(buf, 0, sizeof(buf));
	EXPECT(xioctl(g_fd, _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, buf),
		      buf), EINVAL, "ioctl");
	return 0;
}

static int c_core_type(unsigned long arg, char *why)
{
	(void)arg;
	EXPECT(param_raw(_IOWR('x', DRM_COMMAND_BASE + DRM_MSM_GET_PARAM,
			       struct drm_msm_param),
			 MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 0, 0, 0), ENOTTY, "ioctl");
	return 0;
}

/* A caller built against the pre-"len" 16-byte struct: drm_ioctl zero-fills. */
static int c_short_param(unsigned long arg, char *why)
{
	struct { uint32_t pipe, param; uint64_t value; } p;

	(void)arg;
	memset(&p, 0, sizeof(p));
	p.pipe = MSM_PIPE_3D0;
	p.param = MSM_PARAM_GPU_ID;
	EXPECT(xioctl(g_fd, _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE +
				  DRM_MSM_GET_PARAM, p), &p), 0, "GET_PARAM");
	if (p.value != A200_GPU_ID)
		FAIL("value %llu, expected %u", (unsigned long long)p.value,
		     A200_GPU_ID);
	return 0;
}

/* ===== GET_PARAM / SET_PARAM ================================================ */

static const struct {
	const char *what;
	uint32_t param;
	uint64_t value;
	enum feat feat;
} get_param_pos[] = {
	{ "GPU_ID is 200", MSM_PARAM_GPU_ID, A200_GPU_ID, F_ALWAYS },
	{ "CHIP_ID is 0x02000000", MSM_PARAM_CHIP_ID, A200_CHIP_ID, F_ALWAYS },
	{ "GMEM_SIZE is 256 KiB", MSM_PARAM_GMEM_SIZE, A200_GMEM, F_ALWAYS },
	{ "GMEM_BASE is 0x100000", MSM_PARAM_GMEM_BASE, A200_GMEM_BASE, F_ALWAYS },
	{ "MAX_FREQ is 200 MHz", MSM_PARAM_MAX_FREQ, A200_MAX_FREQ, F_ALWAYS },
	{ "PRIORITIES is 3", MSM_PARAM_PRIORITIES, A200_PRIORITIES, F_ALWAYS },
	{ "PP_PGTABLE is 0", MSM_PARAM_PP_PGTABLE, 0, F_ALWAYS },
	{ "HIGHEST_BANK_BIT is 0", MSM_PARAM_HIGHEST_BANK_BIT, 0, F_PARAM_HIGHEST_BANK_BIT },
	{ "RAYTRACING is 0", MSM_PARAM_RAYTRACING, 0, F_PARAM_RAYTRACING },
	{ "UBWC_SWIZZLE is 0", MSM_PARAM_UBWC_SWIZZLE, 0, F_PARAM_UBWC_SWIZZLE },
	{ "MACROTILE_MODE is 0", MSM_PARAM_MACROTILE_MODE, 0, F_PARAM_MACROTILE_MODE },
};

static int c_get_param_pos(unsigned long i, char *why)
{
	enum feat f = get_param_pos[i].feat;
	uint64_t v = 0xdeadbeefdeadbeefULL;
	int r;

	NEED_FEAT(f);
	r = get_param(g_fd, get_param_pos[i].param, &v);
	if (r == -EINVAL && feat_state(f) == FEAT_MAYBE)
		SKIP("%s: EINVAL, absent: it came after msm 1.%u without a version bump, Linux %u.%u has it, this is %s",
		     msm_feats[f].what, msm_feats[f].minor, msm_feats[f].krel / 1000,
		     msm_feats[f].krel % 1000, g_drv.release);
	EXPECT(r, 0, "GET_PARAM");
	if (v != get_param_pos[i].value)
		FAIL("value 0x%llx, expected 0x%llx", (unsigned long long)v,
		     (unsigned long long)get_param_pos[i].value);
	return 0;
}

/* a param a newer driver added is an unknown one here */
static int c_get_param_unknown(unsigned long param, char *why)
{
	uint64_t v = 0;

	EXPECT(get_param(g_fd, (uint32_t)param, &v), EINVAL, "GET_PARAM");
	return 0;
}

static int c_get_param_counter(unsigned long param, char *why)
{
	uint64_t a = ~0ULL, b = ~0ULL;

	EXPECT(get_param(g_fd, (uint32_t)param, &a), 0, "GET_PARAM");
	EXPECT(get_param(g_fd, (uint32_t)param, &b), 0, "GET_PARAM");
	if (a > 0xffffffffULL || b < a)
		FAIL("values %llu then %llu: not a small monotonic counter",
		     (unsigned long long)a, (unsigned long long)b);
	ktap_print_msg("param 0x%lx = %llu", param, (unsigned long long)a);
	return 0;
}

static const struct {
	const char *name;
	uint32_t pipe, param, len, pad;
} get_param_neg[] = {
	{ "GET_PARAM pipe 0 (NONE) rejected with EINVAL", MSM_PIPE_NONE, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pipe 1 (2D0) rejected with EINVAL", MSM_PIPE_2D0, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pipe 2 (2D1) rejected with EINVAL", MSM_PIPE_2D1, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pipe 0x11 rejected with EINVAL", 0x11, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pipe 0x10010 rejected with EINVAL", 0x10010, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pipe 0xffffffff rejected with EINVAL", 0xffffffff, MSM_PARAM_GPU_ID, 0, 0 },
	{ "GET_PARAM pad 1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 0, 1 },
	{ "GET_PARAM pad 0x80000000 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 0, 0x80000000 },
	{ "GET_PARAM len 8 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, 8, 0 },
	{ "GET_PARAM len 1 on FAULTS rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_FAULTS, 1, 0 },
	{ "GET_PARAM param 0 rejected with EINVAL", MSM_PIPE_3D0, 0, 0, 0 },
	{ "GET_PARAM param 0x14 (unknown) rejected with EINVAL", MSM_PIPE_3D0, 0x14, 0, 0 },
	{ "GET_PARAM param 0xffffffff rejected with EINVAL", MSM_PIPE_3D0, 0xffffffff, 0, 0 },
	{ "GET_PARAM TIMESTAMP (no get_timestamp on a2xx) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_TIMESTAMP, 0, 0 },
	{ "GET_PARAM VA_START (shared address space) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_VA_START, 0, 0 },
	{ "GET_PARAM VA_SIZE (shared address space) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_VA_SIZE, 0, 0 },
	{ "GET_PARAM SYSPROF (write-only) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, 0, 0 },
	{ "GET_PARAM COMM (write-only) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_COMM, 0, 0 },
	{ "GET_PARAM CMDLINE (write-only) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_CMDLINE, 0, 0 },
};

static int c_get_param_neg(unsigned long i, char *why)
{
	EXPECT(param_raw(DRM_IOCTL_MSM_GET_PARAM, get_param_neg[i].pipe,
			 get_param_neg[i].param, 0, get_param_neg[i].len,
			 get_param_neg[i].pad), EINVAL, "GET_PARAM");
	return 0;
}

enum { V_LIT, V_BAD, V_STR };
#define LEN_PAGE	0xfffffffeu	/* stands for PAGE_SIZE */
#define LEN_PAGE1	0xffffffffu	/* stands for PAGE_SIZE + 1 */

static const struct {
	const char *name;
	uint32_t pipe, param;
	int vk;			/* V_*: how value is made */
	uint64_t value;
	uint32_t len, pad;
	int err;
} set_param_cases[] = {
	{ "SET_PARAM pipe 0 (NONE) rejected with EINVAL", 0, MSM_PARAM_SYSPROF, V_LIT, 0, 0, 0, EINVAL },
	{ "SET_PARAM pipe 0x11 rejected with EINVAL", 0x11, MSM_PARAM_SYSPROF, V_LIT, 0, 0, 0, EINVAL },
	{ "SET_PARAM pad 1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 0, 0, 1, EINVAL },
	{ "SET_PARAM GPU_ID (read-only) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_GPU_ID, V_LIT, 200, 0, 0, EINVAL },
	{ "SET_PARAM FAULTS (read-only) rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_FAULTS, V_LIT, 0, 0, 0, EINVAL },
	{ "SET_PARAM param 0 rejected with EINVAL", MSM_PIPE_3D0, 0, V_LIT, 0, 0, 0, EINVAL },
	{ "SET_PARAM param 0x14 (unknown) rejected with EINVAL", MSM_PIPE_3D0, 0x14, V_LIT, 0, 0, 0, EINVAL },
	{ "SET_PARAM SYSPROF len 4 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 0, 4, 0, EINVAL },
	{ "SET_PARAM SYSPROF 3 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 3, 0, 0, EINVAL },
	{ "SET_PARAM SYSPROF 0xffffffff rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 0xffffffff, 0, 0, EINVAL },
	{ "SET_PARAM COMM len PAGE_SIZE+1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_COMM, V_STR, 0, LEN_PAGE1, 0, EINVAL },
	{ "SET_PARAM CMDLINE len PAGE_SIZE+1 rejected with EINVAL", MSM_PIPE_3D0, MSM_PARAM_CMDLINE, V_STR, 0, LEN_PAGE1, 0, EINVAL },
	{ "SET_PARAM COMM bad pointer rejected with EFAULT", MSM_PIPE_3D0, MSM_PARAM_COMM, V_BAD, 0, 8, 0, EFAULT },
	{ "SET_PARAM CMDLINE bad pointer rejected with EFAULT", MSM_PIPE_3D0, MSM_PARAM_CMDLINE, V_BAD, 0, 8, 0, EFAULT },
	{ "SET_PARAM COMM \"patchbay-msm\" accepted", MSM_PIPE_3D0, MSM_PARAM_COMM, V_STR, 0, 12, 0, 0 },
	{ "SET_PARAM CMDLINE \"patchbay-msm\" accepted", MSM_PIPE_3D0, MSM_PARAM_CMDLINE, V_STR, 0, 12, 0, 0 },
	{ "SET_PARAM COMM len PAGE_SIZE accepted", MSM_PIPE_3D0, MSM_PARAM_COMM, V_STR, 0, LEN_PAGE, 0, 0 },
	{ "SET_PARAM SYSPROF 1 accepted", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 1, 0, 0, 0 },
	{ "SET_PARAM SYSPROF 0 accepted", MSM_PIPE_3D0, MSM_PARAM_SYSPROF, V_LIT, 0, 0, 0, 0 },
};

static char *g_strbuf;			/* page + 2 bytes of 'p', for COMM */

static int c_set_param(unsigned long i, char *why)
{
	uint32_t len = set_param_cases[i].len;
	uint64_t value = 0;

	if (len == LEN_PAGE)
		len = (uint32_t)g_page;
	else if (len == LEN_PAGE1)
		len = (uint32_t)g_page + 1;
	switch (set_param_cases[i].vk) {
	case V_LIT: value = set_param_cases[i].value; break;
	case V_BAD: value = (uintptr_t)g_badptr; break;
	case V_STR: value = (uintptr_t)g_strbuf; break;
	}
	if (len == 12)
		value = (uintptr_t)"patchbay-msm";
	EXPECT(param_raw(DRM_IOCTL_MSM_SET_PARAM, set_param_cases[i].pipe,
			 set_param_cases[i].param, value, len,
			 set_param_cases[i].pad), set_param_cases[i].err, "SET_PARAM");
	return 0;
}

static int set_sysprof(uint64_t v)
{
	return param_raw(DRM_IOCTL_MSM_SET_PARAM, MSM_PIPE_3D0,
			 MSM_PARAM_SYSPROF, v, 0, 0);
}

static int child_sysprof(void *arg)
{
	(void)arg;
	return set_sysprof(1);
}

static int c_sysprof_eperm(unsigned long arg, char *why)
{
	int ret;

	(void)arg;
	ret = child_expect(CAP_SYS_ADMIN, child_sysprof, EPERM,
			   "SET_PARAM SYSPROF 1 without CAP_SYS_ADMIN", why);
	if (ret)	/* the child may have turned it on for the shared file */
		set_sysprof(0);
	return ret;
}

/* ===== GEM_NEW ============================================================== */

/* GEM_NEW must fail with EINVAL; a BO it made anyway is closed. */
static int gem_new_rejected(uint64_t size, uint32_t flags, char *why)
{
	uint32_t h = 0;
	int r = gem_new(g_fd, size, flags, &h);

	if (r == 0)
		gem_close(g_fd, h);
	if (r != -EINVAL)
		FAIL("GEM_NEW(%llu, 0x%x): got %s, expected EINVAL",
		     (unsigned long long)size, flags, ename(-r));
	return 0;
}

static int c_gem_new_bit(unsigned long bit, char *why)
{
	return gem_new_rejected(4096, MSM_BO_WC | (1u << bit), why);
}

static const uint32_t gem_new_bad_cache[] = {
	0, MSM_BO_UNCACHED, MSM_BO_CACHED | MSM_BO_WC, MSM_BO_CACHED_COHERENT,
	MSM_BO_UNCACHED | MSM_BO_WC, MSM_BO_UNCACHED | MSM_BO_CACHED,
	MSM_BO_CACHE_MASK, MSM_BO_SCANOUT | MSM_BO_GPU_READONLY,
};

static int c_gem_new_cache(unsigned long i, char *why)
{
	return gem_new_rejected(4096, gem_new_bad_cache[i], why);
}

static const uint32_t gem_new_good[] = {
	MSM_BO_WC, MSM_BO_CACHED, MSM_BO_WC | MSM_BO_GPU_READONLY,
	MSM_BO_WC | MSM_BO_SCANOUT, MSM_BO_CACHED | MSM_BO_GPU_READONLY,
};

static int c_gem_new_good(unsigned long i, char *why)
{
	uint32_t h = 0;
	uint64_t flags = 0;

	EXPECT(gem_new(g_fd, 4096, gem_new_good[i], &h), 0, "GEM_NEW");
	if (h == 0)
		FAIL("handle 0");
	/* without GET_FLAGS the case is named "accepted" only */
	if (feat_have(F_INFO_GET_FLAGS) &&
	    (gem_info(g_fd, h, MSM_INFO_GET_FLAGS, &flags) || flags != gem_new_good[i])) {
		gem_close(g_fd, h);
		FAIL("GET_FLAGS 0x%llx, expected 0x%x", (unsigned long long)flags,
		     gem_new_good[i]);
	}
	EXPECT(gem_close(g_fd, h), 0, "GEM_CLOSE");
	return 0;
}

static int c_gem_new_size(unsigned long size, char *why)
{
	return gem_new_rejected(size, MSM_BO_WC, why);
}

/* mmap of len bytes at off of fd must fail with e; ok_msg if it does not. */
static int mmap_rejected(int fd, uint64_t off, size_t len, int e,
			 const char *ok_msg, char *why)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);

	if (p != MAP_FAILED) {
		munmap(p, len);
		FAIL("%s", ok_msg);
	}
	if (errno != e)
		FAIL("mmap: %s, expected %s", ename(errno), ename(e));
	return 0;
}

/*
 * GEM_NEW(size) must give a BO of one page: it maps one page but not two.
 * Size 1 is PAGE_ALIGNed up; msm_gem_new_handle() takes a u32 size, so
 * 6.12 silently truncates 2^32 + PAGE_SIZE to one page.  Documents 6.12:
 * a kernel that range-checks size fails the second.
 */
static int c_gem_new_one_page(unsigned long size, char *why)
{
	uint32_t h = 0;
	uint64_t off = 0;
	void *p;
	int ret = 0, r;

	r = gem_new(g_fd, size, MSM_BO_WC, &h);
	if (r)
		FAIL("GEM_NEW(%lu): got %s, expected success", size, ename(-r));
	EXPECTG(gem_info(g_fd, h, MSM_INFO_GET_OFFSET, &off), 0, "GET_OFFSET");
	p = mmap(NULL, g_page, PROT_READ | PROT_WRITE, MAP_SHARED, g_fd, off);
	if (p == MAP_FAILED)
		FAILG("mmap of one page: %s (size should be PAGE_ALIGNed)",
		      strerror(errno));
	munmap(p, g_page);
	ret = mmap_rejected(g_fd, off, 2 * g_page, EINVAL,
			    "mmap of two pages succeeded: the BO is larger than one page",
			    why);
out:
	gem_close(g_fd, h);
	return ret;
}

static int c_gem_close_twice(unsigned long arg, char *why)
{
	uint32_t h = 0;

	(void)arg;
	EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
	EXPECT(gem_close(g_fd, h), 0, "first GEM_CLOSE");
	EXPECT(gem_close(g_fd, h), EINVAL, "second GEM_CLOSE");
	EXPECT(gem_info(g_fd, h, MSM_INFO_GET_OFFSET, NULL), ENOENT,
	       "GEM_INFO on the closed handle");
	return 0;
}

/* ===== GEM_INFO ============================================================= */

enum {
	GI_PAD, GI_INFO8, GI_INFO_MAX, GI_LEN_OFFSET, GI_LEN_IOVA, GI_LEN_SET_IOVA,
	GI_LEN_FLAGS, GI_BAD_HANDLE, GI_ORDER, GI_SET_IOVA, GI_NAME_LEN32,
	GI_NAME_BADPTR, GI_GET_NAME_SMALL, GI_META_129, GI_META_BADPTR,
	GI_GET_META_SMALL, GI_GET_META_BADPTR, GI_IOVA_NOSPC,
};

static const struct { int id; enum feat feat; const char *name; } gem_info_neg[] = {
	{ GI_PAD, F_ALWAYS, "GEM_INFO pad 1 rejected with EINVAL" },
	{ GI_INFO8, F_ALWAYS, "GEM_INFO info 8 (unknown) rejected with EINVAL" },
	{ GI_INFO_MAX, F_ALWAYS, "GEM_INFO info 0xffffffff rejected with EINVAL" },
	{ GI_LEN_OFFSET, F_ALWAYS, "GEM_INFO GET_OFFSET with len 8 rejected with EINVAL" },
	{ GI_LEN_IOVA, F_ALWAYS, "GEM_INFO GET_IOVA with len 8 rejected with EINVAL" },
	{ GI_LEN_SET_IOVA, F_ALWAYS, "GEM_INFO SET_IOVA with len 8 rejected with EINVAL" },
	{ GI_LEN_FLAGS, F_INFO_GET_FLAGS, "GEM_INFO GET_FLAGS with len 8 rejected with EINVAL" },
	{ GI_BAD_HANDLE, F_ALWAYS, "GEM_INFO unknown handle rejected with ENOENT" },
	{ GI_ORDER, F_ALWAYS, "GEM_INFO info 8 on an unknown handle rejected with EINVAL (info checked first)" },
	{ GI_SET_IOVA, F_ALWAYS, "GEM_INFO SET_IOVA (shared address space) rejected with EOPNOTSUPP" },
	{ GI_NAME_LEN32, F_ALWAYS, "GEM_INFO SET_NAME len 32 rejected with EINVAL" },
	{ GI_NAME_BADPTR, F_ALWAYS, "GEM_INFO SET_NAME bad pointer rejected with EFAULT" },
	{ GI_GET_NAME_SMALL, F_ALWAYS, "GEM_INFO GET_NAME buffer too small rejected with ETOOSMALL" },
	{ GI_META_129, F_INFO_METADATA, "GEM_INFO SET_METADATA len 129 rejected with EOVERFLOW" },
	{ GI_META_BADPTR, F_INFO_METADATA, "GEM_INFO SET_METADATA bad pointer rejected with EFAULT" },
	{ GI_GET_META_SMALL, F_INFO_METADATA, "GEM_INFO GET_METADATA buffer too small rejected with ETOOSMALL" },
	{ GI_GET_META_BADPTR, F_INFO_METADATA, "GEM_INFO GET_METADATA bad pointer rejected with EFAULT" },
	{ GI_IOVA_NOSPC, F_ALWAYS, "GEM_INFO GET_IOVA of a BO larger than the GPU VA rejected with ENOSPC" },
};

static int gem_info_raw(uint32_t handle, uint32_t info, uint64_t value,
			uint32_t len, uint32_t pad, uint32_t *len_out)
{
	struct drm_msm_gem_info a;
	int r;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.info = info;
	a.value = value;
	a.len = len;
	a.pad = pad;
	r = xioctl(g_fd, DRM_IOCTL_MSM_GEM_INFO, &a);
	if (len_out)
		*len_out = a.len;
	return r;
}

static int c_gem_info_neg(unsigned long i, char *why)
{
	uint32_t h = 0, len;
	char buf[160];
	int ret = 0, r, e = EINVAL;

	NEED_FEAT(gem_info_neg[i].feat);
	memset(buf, 'm', sizeof(buf));
	if (gem_info_neg[i].id == GI_IOVA_NOSPC) {
		/* one page more than the whole a2xx gpummu window */
		EXPECT(gem_new(g_fd, A2XX_VA_SIZE + 4096, MSM_BO_WC, &h), 0,
		       "GEM_NEW(VA size + 4096)");
		EXPECTG(gem_info_raw(h, MSM_INFO_GET_IOVA, 0, 0, 0, NULL), ENOSPC,
			"GEM_INFO GET_IOVA");
		goto out;
	}
	EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
	switch (gem_info_neg[i].id) {
	case GI_PAD: r = gem_info_raw(h, MSM_INFO_GET_OFFSET, 0, 0, 1, NULL); break;
	case GI_INFO8: r = gem_info_raw(h, 8, 0, 0, 0, NULL); break;
	case GI_INFO_MAX: r = gem_info_raw(h, 0xffffffff, 0, 0, 0, NULL); break;
	case GI_LEN_OFFSET: r = gem_info_raw(h, MSM_INFO_GET_OFFSET, 0, 8, 0, NULL); break;
	case GI_LEN_IOVA: r = gem_info_raw(h, MSM_INFO_GET_IOVA, 0, 8, 0, NULL); break;
	case GI_LEN_SET_IOVA: r = gem_info_raw(h, MSM_INFO_SET_IOVA, 0x02000000, 8, 0, NULL); break;
	case GI_LEN_FLAGS: r = gem_info_raw(h, MSM_INFO_GET_FLAGS, 0, 8, 0, NULL); break;
	case GI_BAD_HANDLE:
		e = ENOENT;
		r = gem_info_raw(h + 1000, MSM_INFO_GET_OFFSET, 0, 0, 0, NULL);
		break;
	case GI_ORDER: r = gem_info_raw(h + 1000, 8, 0, 0, 0, NULL); break;
	case GI_SET_IOVA:
		e = EOPNOTSUPP;
		r = gem_info_raw(h, MSM_INFO_SET_IOVA, 0x02000000, 0, 0, NULL);
		break;
	case GI_NAME_LEN32: r = gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t)buf, 32, 0, NULL); break;
	case GI_NAME_BADPTR:
		e = EFAULT;
		r = gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t)g_badptr, 8, 0, NULL);
		break;
	case GI_GET_NAME_SMALL:
		e = feat_have(F_GET_NAME_ETOOSMALL) ? ETOOSMALL : EINVAL;
		EXPECTG(gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t)"patchbay", 8, 0, NULL),
			0, "SET_NAME patchbay");
		r = gem_info_raw(h, MSM_INFO_GET_NAME, (uintptr_t)buf, 7, 0, NULL);
		break;
	case GI_META_129:
		e = EOVERFLOW;
		r = gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)buf, 129, 0, NULL);
		break;
	case GI_META_BADPTR:
		e = EFAULT;
		r = gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)g_badptr, 16, 0, NULL);
		break;
	case GI_GET_META_SMALL:
		e = ETOOSMALL;
		EXPECTG(gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)buf, 16, 0, NULL),
			0, "SET_METADATA 16 bytes");
		r = gem_info_raw(h, MSM_INFO_GET_METADATA, (uintptr_t)buf, 15, 0, &len);
		break;
	case GI_GET_META_BADPTR:
		e = EFAULT;
		EXPECTG(gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)buf, 16, 0, NULL),
			0, "SET_METADATA 16 bytes");
		r = gem_info_raw(h, MSM_INFO_GET_METADATA, (uintptr_t)g_badptr, 16, 0, NULL);
		break;
	default:
		FAILG("no such case");
	}
	EXPECTG(r, e, "GEM_INFO");
out:
	gem_close(g_fd, h);
	return ret;
}

/* an info a newer driver added is an unknown one here */
static int c_gem_info_unknown(unsigned long info, char *why)
{
	uint32_t h = 0;
	int ret = 0;

	EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
	EXPECTG(gem_info_raw(h, (uint32_t)info, 0, 0, 0, NULL), EINVAL, "GEM_INFO");
out:
	gem_close(g_fd, h);
	return ret;
}

static int c_gem_info_offset_iova(unsigned long arg, char *why)
{
	struct bo a = {0}, b = {0};
	uint64_t iova2 = 0;
	int ret = 0;

	(void)arg;
	MAKE(&a, g_fd, 8192, MSM_BO_WC);
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	if (a.offset == 0 || a.offset % 4096 || a.offset == b.offset)
		FAILG("mmap offsets 0x%llx / 0x%llx: expected distinct, non-zero, page aligned",
		      (unsigned long long)a.offset, (unsigned long long)b.offset);
	if (a.iova < A2XX_VA_START || a.iova + a.size > A2XX_VA_START + A2XX_VA_SIZE ||
	    a.iova % 4096)
		FAILG("iova 0x%llx outside the a2xx window 0x%x..0x%x or unaligned",
		      (unsigned long long)a.iova, A2XX_VA_START, A2XX_VA_START + A2XX_VA_SIZE);
	if (!(b.iova >= a.iova + a.size || b.iova + b.size <= a.iova))
		FAILG("iovas overlap: 0x%llx+%u and 0x%llx+%u", (unsigned long long)a.iova,
		      a.size, (unsigned long long)b.iova, b.size);
	EXPECTG(gem_info(g_fd, a.handle, MSM_INFO_GET_IOVA, &iova2), 0, "second GET_IOVA");
	if (iova2 != a.iova)
		FAILG("GET_IOVA not stable: 0x%llx then 0x%llx",
		      (unsigned long long)a.iova, (unsigned long long)iova2);
out:
	bo_free(&a);
	bo_free(&b);
	return ret;
}

/*
 * SET_NAME, then GET_NAME with the size query (value 0) and with a buffer.
 * which 0: "patchbay" comes back whole; 1: "ab\001cd" comes back as "ab",
 * the name stops at the first non-printable character.
 */
static int c_gem_info_name(unsigned long which, char *why)
{
	const char *in = which ? "ab\001cd" : "patchbay";
	const char *want = which ? "ab" : "patchbay";
	uint32_t h = 0, len = 0, n = (uint32_t)strlen(want);
	char buf[64];
	int ret = 0;

	EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
	EXPECTG(gem_info_raw(h, MSM_INFO_SET_NAME, (uintptr_t)in, strlen(in), 0, NULL),
		0, "SET_NAME");
	EXPECTG(gem_info_raw(h, MSM_INFO_GET_NAME, 0, 0, 0, &len), 0,
		"GET_NAME size query");
	if (len != n)
		FAILG("GET_NAME with value 0 returned len %u, expected %u", len, n);
	memset(buf, 0, sizeof(buf));
	EXPECTG(gem_info_raw(h, MSM_INFO_GET_NAME, (uintptr_t)buf, sizeof(buf), 0, &len),
		0, "GET_NAME");
	if (len != n || strcmp(buf, want))
		FAILG("GET_NAME gave \"%.*s\" len %u, expected \"%s\" %u", 32, buf,
		      len, want, n);
	/* 31 characters fit (name[32] with the NUL) */
	if (which == 0)
		EXPECTG(gem_info_raw(h, MSM_INFO_SET_NAME,
				     (uintptr_t)"0123456789abcdefghijklmnopqrstu",
				     31, 0, NULL), 0, "SET_NAME of 31 characters");
out:
	gem_close(g_fd, h);
	return ret;
}

static int c_gem_info_meta(unsigned long arg, char *why)
{
	uint8_t in[128], outb[128];
	uint32_t h = 0, len = 0;
	int ret = 0;

	(void)arg;
	NEED_FEAT(F_INFO_METADATA);
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	EXPECT(gem_new(g_fd, 4096, MSM_BO_WC, &h), 0, "GEM_NEW");
	EXPECTG(gem_info_raw(h, MSM_INFO_SET_METADATA, (uintptr_t)in, 128, 0, NULL),
		0, "SET_METADATA of 128 bytes");
	EXPECTG(gem_info_raw(h, MSM_INFO_GET_METADATA, 0, 0, 0, &len), 0,
		"GET_METADATA size query");
	if (len != 128)
		FAILG("size query returned %u, expected 128", len);
	memset(outb, 0, sizeof(outb));
	EXPECTG(gem_info_raw(h, MSM_INFO_GET_METADATA, (uintptr_t)outb, 128, 0, &len),
		0, "GET_METADATA");
	if (len != 128 || memcmp(in, outb, 128))
		FAILG("metadata differs after the round trip (len %u)", len);
out:
	gem_close(g_fd, h);
	return ret;
}

/* ===== mmap ================================================================= */

static int c_mmap_rw(unsigned long arg, char *why)
{
	struct bo b = {0};
	volatile uint32_t *m2 = NULL;
	int ret = 0;

	(void)arg;
	MAKE(&b, g_fd, 8192, MSM_BO_WC);
	for (unsigned i = 0; i < 2048; i++)
		if (b.map[i] != 0)
			FAILG("new BO not zeroed: dword %u is 0x%08x", i, b.map[i]);
	for (unsigned i = 0; i < 2048; i++)
		b.map[i] = 0x5a000000u ^ (i * 2654435761u);
	m2 = mmap(NULL, 8192, PROT_READ, MAP_SHARED, g_fd, (off_t)b.offset);
	if (m2 == MAP_FAILED) {
		m2 = NULL;
		FAILG("second mmap: %s", strerror(errno));
	}
	for (unsigned i = 0; i < 2048; i++)
		if (m2[i] != (0x5a000000u ^ (i * 2654435761u)))
			FAILG("second mapping dword %u is 0x%08x", i, m2[i]);
out:
	if (m2)
		munmap((void *)m2, 8192);
	bo_free(&b);
	return ret;
}

static int c_mmap_too_big(unsigned long arg, char *why)
{
	struct bo b = {0};
	int ret = 0;

	(void)arg;
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	ret = mmap_rejected(g_fd, b.offset, 4096 + g_page, EINVAL,
			    "mmap beyond the BO succeeded", why);
out:
	bo_free(&b);
	return ret;
}

static int c_mmap_other_file(unsigned long arg, char *why)
{
	struct bo b = {0};
	int fd2 = -1, ret = 0;

	(void)arg;
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	fd2 = open(g_render, O_RDWR | O_CLOEXEC);
	if (fd2 < 0)
		FAILG("open %s: %s", g_render, strerror(errno));
	ret = mmap_rejected(fd2, b.offset, 4096, EACCES,
			    "another file mapped this file's BO", why);
out:
	if (fd2 >= 0)
		close(fd2);
	bo_free(&b);
	return ret;
}

/* ===== CPU_PREP / CPU_FINI ================================================== */

static int c_cpu_prep_bit(unsigned long bit, char *why)
{
	NEED_FIX();
	EXPECT(cpu_prep(g_fd, g_nop.handle, 1u << bit, -1), EINVAL, "CPU_PREP");
	return 0;
}

#define PREP_ALL	0xffffffffu	/* every op bit the driver knows */

static const struct { uint32_t op; enum feat feat; } cpu_prep_good[] = {
	{ 0, F_ALWAYS },
	{ MSM_PREP_READ, F_ALWAYS },
	{ MSM_PREP_WRITE, F_ALWAYS },
	{ MSM_PREP_READ | MSM_PREP_NOSYNC, F_ALWAYS },
	{ MSM_PREP_WRITE | MSM_PREP_BOOST, F_PREP_BOOST },
	{ PREP_ALL, F_ALWAYS },
};

static uint32_t cpu_prep_good_op(unsigned long i)
{
	return cpu_prep_good[i].op == PREP_ALL ? prep_flags() : cpu_prep_good[i].op;
}

static int c_cpu_prep_good(unsigned long i, char *why)
{
	struct bo b = {0};
	int ret = 0;

	NEED_FEAT(cpu_prep_good[i].feat);
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	EXPECTG(cpu_prep(g_fd, b.handle, cpu_prep_good_op(i), 100), 0, "CPU_PREP");
out:
	bo_free(&b);
	return ret;
}

static int c_cpu_prep_handle(unsigned long op, char *why)
{
	NEED_FIX();
	EXPECT(cpu_prep(g_fd, g_nop.handle + 1000, (uint32_t)op, -1),
	       op & ~prep_flags() ? EINVAL : ENOENT, "CPU_PREP");
	return 0;
}

static int c_cpu_fini(unsigned long bad, char *why)
{
	struct drm_msm_gem_cpu_fini f;

	NEED_FIX();
	f.handle = g_nop.handle + (bad ? 1000 : 0);
	EXPECT(xioctl(g_fd, DRM_IOCTL_MSM_GEM_CPU_FINI, &f), bad ? ENOENT : 0,
	       "CPU_FINI");
	return 0;
}

/* ===== WAIT_FENCE =========================================================== */

static int wait_fence_raw(uint32_t queue, uint32_t fence, uint32_t flags)
{
	struct drm_msm_wait_fence w;

	memset(&w, 0, sizeof(w));
	w.fence = fence;
	w.flags = flags;
	w.queueid = queue;
	return xioctl(g_fd, DRM_IOCTL_MSM_WAIT_FENCE, &w);
}

/* fence 0 of queue 0 is never "after" last_fence and never in the idr: 0. */
static int c_wait_fence_bit(unsigned long bit, char *why)
{
	EXPECT(wait_fence_raw(0, 0, 1u << bit), EINVAL, "WAIT_FENCE");
	return 0;
}

static int c_wait_fence_good(unsigned long flags, char *why)
{
	if (flags & MSM_WAIT_FENCE_BOOST)
		NEED_FEAT(F_WAIT_FENCE_BOOST);
	EXPECT(wait_fence_raw(0, 0, (uint32_t)flags), 0, "WAIT_FENCE fence 0");
	return 0;
}

static int c_wait_fence_queue(unsigned long flags, char *why)
{
	EXPECT(wait_fence_raw(0x7fff0000, 0, (uint32_t)flags),
	       flags ? EINVAL : ENOENT, "WAIT_FENCE");
	return 0;
}

static int c_wait_fence_future(unsigned long arg, char *why)
{
	uint32_t q = 0;
	int r;

	(void)arg;
	EXPECT(queue_new(g_fd, 1, &q), 0, "SUBMITQUEUE_NEW");
	r = wait_fence_raw(q, 1, 0);
	queue_close(g_fd, q);
	EXPECT(r, EINVAL, "WAIT_FENCE fence 1 on a queue that never submitted");
	return 0;
}

/* ===== MADVISE ============================================================== */

static int c_madvise_bad(unsigned long madv, char *why)
{
	NEED_FIX();
	EXPECT(madvise_bo(g_fd, g_nop.handle, (uint32_t)madv, NULL), EINVAL, "MADVISE");
	return 0;
}

static int c_madvise_handle(unsigned long madv, char *why)
{
	NEED_FIX();
	EXPECT(madvise_bo(g_fd, g_nop.handle + 1000, (uint32_t)madv, NULL),
	       madv > 1 ? EINVAL : ENOENT, "MADVISE");
	return 0;
}

static int c_madvise_retained(unsigned long arg, char *why)
{
	struct bo b = {0};
	uint32_t ret1 = 0, ret2 = 0, ret3 = 0;
	int ret = 0;

	(void)arg;
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	b.map[0] = 1;		/* give it pages */
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &ret1), 0, "WILLNEED");
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, &ret2), 0, "DONTNEED");
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &ret3), 0, "WILLNEED again");
	if (ret1 != 1 || ret2 != 1 || ret3 != 1)
		FAILG("retained %u/%u/%u, expected 1/1/1", ret1, ret2, ret3);
	if (b.map[0] != 1)
		FAILG("contents lost without a purge");
out:
	bo_free(&b);
	return ret;
}

static int c_madvise_submit(unsigned long arg, char *why)
{
	struct bo b = {0};
	struct sub x;
	int ret = 0;

	(void)arg;
	NEED_FIX();
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, NULL), 0, "DONTNEED");
	sub_base(&x, 0);
	sub_bo(&x, b.handle, MSM_SUBMIT_BO_READ);
	EXPECTG(sub_try(g_fd, &x), EBUSY, "SUBMIT with a DONTNEED BO");
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, NULL), 0, "WILLNEED");
	sub_base(&x, 0);
	sub_bo(&x, b.handle, MSM_SUBMIT_BO_READ);
	if (sub_run(g_fd, &x, "SUBMIT after WILLNEED", why))
		BAILG();
out:
	bo_free(&b);
	return ret;
}

static sigjmp_buf g_sigbus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(g_sigbus_jmp, 1);
}

/* Read one byte at p: true if that raised SIGBUS. */
static bool read_gets_sigbus(volatile const uint8_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	volatile bool sigbus = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(g_sigbus_jmp, 1) == 0)
		(void)*p;
	else
		sigbus = true;
	sigaction(SIGBUS, &old, NULL);
	return sigbus;
}

/*
 * Userspace told the kernel it does not need the BO's pages, then touches a
 * page of its mapping that was never faulted in: msm_gem_fault() refuses it
 * with SIGBUS. A kernel warning on the way fails the run: a state that any
 * process with the render node can reach is no kernel bug to WARN about
 * (kernel-patches/0002).
 */
static int c_madvise_fault(unsigned long arg, char *why)
{
	struct bo b = {0};
	int ret = 0;

	(void)arg;
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, NULL), 0, "DONTNEED");
	if (!read_gets_sigbus((volatile const uint8_t *)b.map))
		FAILG("reading the never-faulted mapping of a DONTNEED BO gave no SIGBUS");
out:
	bo_free(&b);
	return ret;
}

/* purge through debugfs "shrink" (msm_debugfs.c) */
static struct { int state; char why[WHY_LEN]; uint32_t handle; } g_purge;

static int c_purge_retained(unsigned long arg, char *why)
{
	struct bo b = {0};
	uint32_t retained = 0;
	const char *lack;
	int ret = 0, r;

	(void)arg;
	g_purge.state = -1;
	snprintf(g_purge.why, WHY_LEN, "purge setup failed");
	/* the "shrink" knob is in debugfs: a kernel without it has none */
	lack = kconfig_lacks("CONFIG_DEBUG_FS");
	if (lack || !g_dbg[0] || access(g_dbg, F_OK)) {
		g_purge.state = 1;
		if (lack)
			snprintf(g_purge.why, WHY_LEN, "%s", lack);
		else
			snprintf(g_purge.why, WHY_LEN, "no debugfs dir for the device (%s)",
				 g_dbg[0] ? g_dbg : "debugfs not mounted");
		SKIP("%s", g_purge.why);
	}
	MAKE(&b, g_fd, 4096, MSM_BO_WC);
	b.map[0] = 0x12345678;	/* pages, sgt */
	munmap((void *)b.map, b.size);
	b.map = NULL;
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_DONTNEED, &retained), 0, "DONTNEED");
	r = dbg_write("shrink", 1000000);
	if (r)
		FAILG("write %s/shrink: %s", g_dbg, strerror(-r));
	EXPECTG(madvise_bo(g_fd, b.handle, MSM_MADV_WILLNEED, &retained), 0, "WILLNEED");
	if (retained != 0)
		FAILG("retained %u after the shrinker ran, expected 0 (purged)", retained);
	g_purge.state = 0;
	g_purge.handle = b.handle;
	b.handle = 0;		/* keep it for the next two cases */
out:
	bo_free(&b);
	return ret;
}

#define NEED_PURGE() do { \
	if (g_purge.state == 1) SKIP("%s", g_purge.why); \
	if (g_purge.state != 0) FAIL("%s", g_purge.why); } while (0)

static int c_purge_submit(unsigned long arg, char *why)
{
	struct sub x;

	(void)arg;
	NEED_PURGE();
	NEED_FIX();
	sub_base(&x, 0);
	sub_bo(&x, g_purge.handle, MSM_SUBMIT_BO_READ);
	return sub_expect(&x, EBUSY, why);
}

static int c_purge_dontneed(unsigned long arg, char *why)
{
	uint32_t retained = 7;
	int r;

	(void)arg;
	NEED_PURGE();
	r = madvise_bo(g_fd, g_purge.handle, MSM_MADV_DONTNEED, &retained);
	gem_close(g_fd, g_purge.handle);
	EXPECT(r, 0, "DONTNEED");
	if (retained != 0)
		FAIL("retained %u, expected 0 (purge is one-way)", retained);
	return 0;
}

/* ===== SUBMITQUEUE_* ======================================================== */

/* SUBMITQUEUE_NEW must fail with EINVAL; a queue it made anyway is closed. */
static int queue_new_rejected(uint32_t flags, uint32_t prio, char *why)
{
	struct drm_msm_submitqueue q;
	int r;

	memset(&q, 0, sizeof(q));
	q.flags = flags;
	q.prio = prio;
	r = xioctl(g_fd, DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);
	if (r == 0)
		queue_close(g_fd, q.id);
	EXPECT(r, EINVAL, "SUBMITQUEUE_NEW");
	return 0;
}

static int c_queue_flags_bit(unsigned long bit, char *why)
{
	return queue_new_rejected(1u << bit, 0, why);
}

static int c_queue_prio_bad(unsigned long prio, char *why)
{
	return queue_new_rejected(0, (uint32_t)prio, why);
}

static int c_queue_prio_good(unsigned long arg, char *why)
{
	uint32_t ids[3] = {0};
	int ret = 0;

	(void)arg;
	for (unsigned p = 0; p < 3; p++) {
		int r = queue_new(g_fd, p, &ids[p]);

		if (r)
			FAILG("SUBMITQUEUE_NEW prio %u: %s", p, ename(-r));
		if (ids[p] == 0 || (p && ids[p] <= ids[p - 1]))
			FAILG("ids %u, %u, %u: expected non-zero and increasing",
			      ids[0], ids[1], ids[2]);
	}
out:
	for (unsigned p = 0; p < 3; p++)
		if (ids[p])
			queue_close(g_fd, ids[p]);
	return ret;
}

static int c_queue_close(unsigned long which, char *why)
{
	uint32_t id = 0;

	switch (which) {
	case 0:
		EXPECT(queue_close(g_fd, 0), ENOENT, "SUBMITQUEUE_CLOSE 0");
		return 0;
	case 1:
		EXPECT(queue_close(g_fd, 0x7fff0000), ENOENT, "SUBMITQUEUE_CLOSE");
		return 0;
	default:
		EXPECT(queue_new(g_fd, 1, &id), 0, "SUBMITQUEUE_NEW");
		EXPECT(queue_close(g_fd, id), 0, "first SUBMITQUEUE_CLOSE");
		EXPECT(queue_close(g_fd, id), ENOENT, "second SUBMITQUEUE_CLOSE");
		if (which == 3) {
			struct sub x;

			NEED_FIX();
			sub_base(&x, id);
			return sub_expect(&x, ENOENT, why);
		}
		return 0;
	}
}

enum { QQ_PAD, QQ_ID, QQ_PARAM, QQ_BADPTR, QQ_GOOD, QQ_LEN0, QQ_DEFAULT };

static int c_queue_query(unsigned long which, char *why)
{
	struct drm_msm_submitqueue_query q;
	uint32_t faults, id = 0;
	int r, e = 0;

	if (which != QQ_DEFAULT)
		EXPECT(queue_new(g_fd, 1, &id), 0, "SUBMITQUEUE_NEW");
	faults_query(&q, id, &faults);
	switch (which) {
	case QQ_PAD: q.pad = 1; e = EINVAL; break;
	case QQ_ID: q.id = id + 1000; e = ENOENT; break;
	case QQ_PARAM: q.param = 1; e = EINVAL; break;
	case QQ_BADPTR: q.data = (uintptr_t)g_badptr; e = EFAULT; break;
	case QQ_LEN0: q.len = 0; break;
	}
	r = xioctl(g_fd, DRM_IOCTL_MSM_SUBMITQUEUE_QUERY, &q);
	if (id)
		queue_close(g_fd, id);
	EXPECT(r, e, "SUBMITQUEUE_QUERY");
	if (which == QQ_GOOD && faults != 0)
		FAIL("FAULTS of a new queue is %u, expected 0", faults);
	if (which == QQ_LEN0 && faults != 0xdeadbeef)
		FAIL("len 0 wrote 0x%x to data; it only asks for the size", faults);
	if (which == QQ_DEFAULT && faults == 0xdeadbeef)
		FAIL("FAULTS of queue 0 not written");
	return 0;
}

/* ===== SUBMIT: the seed commit's checks ===================================== */

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
	return sub_expect(&x, flags & (MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE) ?
			  0 : EINVAL, why);
}

static const uint32_t bad_cmd_types[] = {
	0, 4, 5, 0xff, 0x10001, 0x80000001, 0xffffffff,
};

static int c_submit_cmd_type(unsigned long type, char *why)
{
	struct sub x;
	int good = type >= MSM_SUBMIT_CMD_BUF && type <= MSM_SUBMIT_CMD_CTX_RESTORE_BUF;

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

/* ===== SUBMIT: everything else ============================================== */

enum {
	SV_BASE, SV_PAD, SV_PIPE0, SV_PIPE1, SV_PIPE2, SV_PIPE11, SV_PIPEFFFF,
	SV_QUEUE, SV_NR_BOS_HUGE, SV_NR_CMDS_HUGE, SV_FD_IN_NEG, SV_FD_IN_PIPE,
	SV_IN_BADPTR, SV_IN_POINT, SV_IN_FLAGS, SV_IN_HANDLE, SV_IN_NOFENCE,
	SV_OUT_BADPTR, SV_OUT_FLAGS, SV_OUT_POINT, SV_OUT_HANDLE,
	SV_BOS_NULL, SV_BOS_EDGE, SV_BO_HANDLE, SV_BO_HANDLE0, SV_CMDS_NULL,
	SV_CMDS_EDGE, SV_CMD_SIZE10, SV_CMD_SIZE2, SV_RELOCS_BADPTR,
	SV_RELOCS_HUGE, SV_IDX1, SV_IDX_NOBOS, SV_SIZE0, SV_PAST_END,
	SV_OFF_END, SV_SIZE_BIG, SV_OFF_HUGE, SV_FIT_END, SV_RELOC_ALIGN,
	SV_RELOC_OFF, SV_RELOC_DESC, SV_RELOC_IDX, SV_SN_ZERO, SV_NO_CMDS,
	SV_CMD_PAD, SV_OFF_UNALIGNED,
};

static const struct { int id; int err; const char *name; } submit_variants[] = {
	{ SV_BASE, 0, "SUBMIT baseline (one NOP IB, bo READ) accepted" },
	{ SV_PAD, EINVAL, "SUBMIT pad 1 rejected with EINVAL" },
	{ SV_PIPE0, EINVAL, "SUBMIT pipe 0 (NONE) rejected with EINVAL" },
	{ SV_PIPE1, EINVAL, "SUBMIT pipe 1 (2D0) rejected with EINVAL" },
	{ SV_PIPE2, EINVAL, "SUBMIT pipe 2 (2D1) rejected with EINVAL" },
	{ SV_PIPE11, EINVAL, "SUBMIT pipe 0x11 rejected with EINVAL" },
	{ SV_PIPEFFFF, EINVAL, "SUBMIT pipe 0xffff rejected with EINVAL" },
	{ SV_QUEUE, ENOENT, "SUBMIT unknown queueid rejected with ENOENT" },
	{ SV_NR_BOS_HUGE, ENOMEM, "SUBMIT nr_bos 0xffffffff rejected with ENOMEM" },
	{ SV_NR_CMDS_HUGE, ENOMEM, "SUBMIT nr_cmds 0xffffffff rejected with ENOMEM" },
	{ SV_FD_IN_NEG, EINVAL, "SUBMIT FENCE_FD_IN fd -1 rejected with EINVAL" },
	{ SV_FD_IN_PIPE, EINVAL, "SUBMIT FENCE_FD_IN of a pipe rejected with EINVAL" },
	{ SV_IN_BADPTR, EFAULT, "SUBMIT SYNCOBJ_IN bad pointer rejected with EFAULT" },
	{ SV_IN_POINT, EOPNOTSUPP, "SUBMIT SYNCOBJ_IN point 1 (no timelines) rejected with EOPNOTSUPP" },
	{ SV_IN_FLAGS, EINVAL, "SUBMIT SYNCOBJ_IN flags 0x2 rejected with EINVAL" },
	{ SV_IN_HANDLE, ENOENT, "SUBMIT SYNCOBJ_IN unknown handle rejected with ENOENT" },
	{ SV_IN_NOFENCE, EINVAL, "SUBMIT SYNCOBJ_IN syncobj without a fence rejected with EINVAL" },
	{ SV_OUT_BADPTR, EFAULT, "SUBMIT SYNCOBJ_OUT bad pointer rejected with EFAULT" },
	{ SV_OUT_FLAGS, EINVAL, "SUBMIT SYNCOBJ_OUT flags 0x1 rejected with EINVAL" },
	{ SV_OUT_POINT, EOPNOTSUPP, "SUBMIT SYNCOBJ_OUT point 1 (no timelines) rejected with EOPNOTSUPP" },
	{ SV_OUT_HANDLE, EINVAL, "SUBMIT SYNCOBJ_OUT unknown handle rejected with EINVAL" },
	{ SV_BOS_NULL, EFAULT, "SUBMIT bo table NULL rejected with EFAULT" },
	{ SV_BOS_EDGE, EFAULT, "SUBMIT bo table running into an unmapped page rejected with EFAULT" },
	{ SV_BO_HANDLE, EINVAL, "SUBMIT unknown bo handle rejected with EINVAL (not ENOENT)" },
	{ SV_BO_HANDLE0, EINVAL, "SUBMIT bo handle 0 rejected with EINVAL" },
	{ SV_CMDS_NULL, EFAULT, "SUBMIT cmd table NULL rejected with EFAULT" },
	{ SV_CMDS_EDGE, EFAULT, "SUBMIT cmd table running into an unmapped page rejected with EFAULT" },
	{ SV_CMD_SIZE10, EINVAL, "SUBMIT cmd size 10 (not a multiple of 4) rejected with EINVAL" },
	{ SV_CMD_SIZE2, EINVAL, "SUBMIT cmd size 2 rejected with EINVAL" },
	{ SV_RELOCS_BADPTR, EFAULT, "SUBMIT cmd relocs bad pointer rejected with EFAULT" },
	{ SV_RELOCS_HUGE, ENOMEM, "SUBMIT cmd nr_relocs 0xffffffff rejected with ENOMEM" },
	{ SV_IDX1, EINVAL, "SUBMIT cmd submit_idx 1 of 1 bo rejected with EINVAL" },
	{ SV_IDX_NOBOS, EINVAL, "SUBMIT cmd with nr_bos 0 rejected with EINVAL" },
	{ SV_SIZE0, EINVAL, "SUBMIT cmd size 0 rejected with EINVAL" },
	{ SV_PAST_END, EINVAL, "SUBMIT cmd offset+size 4 bytes past the bo rejected with EINVAL" },
	{ SV_OFF_END, EINVAL, "SUBMIT cmd submit_offset at the bo end rejected with EINVAL" },
	{ SV_SIZE_BIG, EINVAL, "SUBMIT cmd size bo size + 4 rejected with EINVAL" },
	{ SV_OFF_HUGE, EINVAL, "SUBMIT cmd submit_offset 0xfffffffc rejected with EINVAL" },
	{ SV_FIT_END, 0, "SUBMIT cmd ending exactly at the bo end accepted" },
	{ SV_RELOC_ALIGN, EINVAL, "SUBMIT reloc submit_offset 6 (unaligned) rejected with EINVAL" },
	{ SV_RELOC_OFF, EINVAL, "SUBMIT reloc submit_offset at the bo end rejected with EINVAL" },
	{ SV_RELOC_DESC, EINVAL, "SUBMIT relocs in descending order rejected with EINVAL" },
	{ SV_RELOC_IDX, EINVAL, "SUBMIT reloc_idx 1 of 1 bo rejected with EINVAL" },
	{ SV_SN_ZERO, EINVAL, "SUBMIT FENCE_SN_IN with fence 0 rejected with EINVAL" },
	{ SV_NO_CMDS, 0, "SUBMIT nr_cmds 0 (fence only) accepted" },
	{ SV_CMD_PAD, 0, "SUBMIT cmd pad 0xffffffff accepted (ignored in 6.12)" },
	{ SV_OFF_UNALIGNED, 0, "SUBMIT cmd submit_offset 2 accepted (6.12 divides by 4)" },
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
	int pfd[2] = { -1, -1 }, ret;
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
		int r = syncobj_create(id == SV_IN_NOFENCE ? 0 :
				       DRM_SYNCOBJ_CREATE_SIGNALED, &so);

		if (r)
			FAIL("SYNCOBJ_CREATE: %s", ename(-r));
	}

	switch (id) {
	case SV_BASE: break;
	case SV_PAD: x.s.pad = 1; break;
	case SV_PIPE0: x.s.flags = MSM_PIPE_NONE; break;
	case SV_PIPE1: x.s.flags = MSM_PIPE_2D0; break;
	case SV_PIPE2: x.s.flags = MSM_PIPE_2D1; break;
	case SV_PIPE11: x.s.flags = 0x11; break;
	case SV_PIPEFFFF: x.s.flags = 0xffff; break;
	case SV_QUEUE: x.s.queueid = 0x7fff0000; break;
	case SV_NR_BOS_HUGE: x.s.nr_bos = 0xffffffff; break;
	case SV_NR_CMDS_HUGE: x.s.nr_cmds = 0xffffffff; break;
	case SV_FD_IN_NEG:
		x.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
		x.s.fence_fd = -1;
		break;
	case SV_FD_IN_PIPE:
		if (pipe(pfd))
			FAIL("pipe: %s", strerror(errno));
		x.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
		x.s.fence_fd = pfd[0];
		break;
	case SV_IN_BADPTR:
		sub_in(&x, 0);
		x.s.in_syncobjs = (uintptr_t)g_badptr;
		break;
	case SV_IN_POINT: sub_in(&x, so)->point = 1; break;
	case SV_IN_FLAGS: sub_in(&x, so)->flags = 2; break;
	case SV_IN_NOFENCE: sub_in(&x, so); break;
	case SV_IN_HANDLE: sub_in(&x, 0x7fff0000); break;
	case SV_OUT_BADPTR:
		sub_out(&x, 0);
		x.s.out_syncobjs = (uintptr_t)g_badptr;
		break;
	case SV_OUT_FLAGS: sub_out(&x, so)->flags = 1; break;
	case SV_OUT_POINT: sub_out(&x, so)->point = 1; break;
	case SV_OUT_HANDLE: sub_out(&x, 0x7fff0000); break;
	case SV_BOS_NULL: x.s.bos = 0; break;
	case SV_BOS_EDGE:
		x.s.bos = edge_copy(&x.bos[0], sizeof(x.bos[0]));
		x.s.nr_bos = 2;
		break;
	case SV_BO_HANDLE: x.bos[0].handle = g_nop.handle + 1000; break;
	case SV_BO_HANDLE0: x.bos[0].handle = 0; break;
	case SV_CMDS_NULL: x.s.cmds = 0; break;
	case SV_CMDS_EDGE:
		x.s.cmds = edge_copy(&x.cmds[0], sizeof(x.cmds[0]));
		x.s.nr_cmds = 2;
		break;
	case SV_CMD_SIZE10: x.cmds[0].size = 10; break;
	case SV_CMD_SIZE2: x.cmds[0].size = 2; break;
	case SV_RELOCS_BADPTR:
		x.cmds[0].nr_relocs = 1;
		x.cmds[0].relocs = (uintptr_t)g_badptr;
		break;
	case SV_RELOCS_HUGE: x.cmds[0].nr_relocs = 0xffffffff; break;
	case SV_IDX1: x.cmds[0].submit_idx = 1; break;
	case SV_IDX_NOBOS: x.s.nr_bos = 0; break;
	case SV_SIZE0: x.cmds[0].size = 0; break;
	case SV_PAST_END: x.cmds[0].submit_offset = g_nop.size - 8; break;
	case SV_OFF_END: x.cmds[0].submit_offset = g_nop.size; x.cmds[0].size = 4; break;
	case SV_SIZE_BIG: x.cmds[0].size = g_nop.size + 4; break;
	case SV_OFF_HUGE: x.cmds[0].submit_offset = 0xfffffffc; x.cmds[0].size = 4; break;
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
	case SV_NO_CMDS: x.s.nr_cmds = 0; break;
	case SV_CMD_PAD: x.cmds[0].pad = 0xffffffff; break;
	case SV_OFF_UNALIGNED: x.cmds[0].submit_offset = 2; break;
	}
	ret = sub_expect(&x, submit_variants[i].err, why);
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	if (so)
		syncobj_destroy(so);
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
	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			maxfd = fd;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd < maxfd)
		;
	if (fd > maxfd)
		close(fd);
	rl.rlim_cur = rl.rlim_max = (rlim_t)maxfd + 1;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -1001;
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

/* ===== GPU execution ======================================================== */

/* The proof of execution of design note 5.3. */
static int exec_mem_write(unsigned long arg, struct bo *cmd, struct bo *dst,
			  char *why)
{
	const uint32_t ib[] = { PM4_PKT3(CP_MEM_WRITE, 2), lo(dst->iova), 0xCAFEBABE };
	uint32_t fence = 0;

	(void)arg;
	if (run_ib(0, cmd, 0, ib, ARRAY_SIZE(ib), dst, &fence, why))
		return -1;
	if (dst->map[0] != 0xCAFEBABE)
		FAIL("dword 0 of the BO is 0x%08x after the fence, expected 0xcafebabe",
		     dst->map[0]);
	if (dst->map[1] != 0)
		FAIL("dword 1 is 0x%08x: the CP wrote more than one dword", dst->map[1]);
	if (fence == 0)
		FAIL("SUBMIT returned fence 0");
	return 0;
}

static int exec_mem_write_multi(unsigned long arg, struct bo *cmd,
				struct bo *dst, char *why)
{
	/* three dwords into the middle of the second page */
	const uint32_t ib[] = { PM4_PKT3(CP_MEM_WRITE, 4), lo(dst->iova) + 2048,
				0x11111111, 0x22222222, 0x33333333 };

	(void)arg;
	if (run_ib(0, cmd, 0, ib, ARRAY_SIZE(ib), dst, NULL, why))
		return -1;
	if (dst->map[511] || dst->map[512] != 0x11111111 ||
	    dst->map[513] != 0x22222222 || dst->map[514] != 0x33333333 ||
	    dst->map[515])
		FAIL("dwords 511..515: %08x %08x %08x %08x %08x", dst->map[511],
		     dst->map[512], dst->map[513], dst->map[514], dst->map[515]);
	return 0;
}

static int exec_reg_to_mem(unsigned long arg, struct bo *cmd, struct bo *dst,
			   char *why)
{
	const uint32_t ib[] = {
		PM4_PKT0(REG_AXXX_CP_SCRATCH_REG3, 2), 0x5C7A7C43, 0x5C7A7C44,
		PM4_PKT3(CP_REG_TO_MEM, 2),
		REG_AXXX_CP_SCRATCH_REG3 | (2u << CP_REG_TO_MEM_CNT_SHIFT),
		lo(dst->iova) + 16,
	};

	(void)arg;
	if (run_ib(0, cmd, 0, ib, ARRAY_SIZE(ib), dst, NULL, why))
		return -1;
	if (dst->map[3] || dst->map[4] != 0x5C7A7C43 ||
	    dst->map[5] != 0x5C7A7C44 || dst->map[6])
		FAIL("dwords 3..6: %08x %08x %08x %08x, expected 0 5c7a7c43 5c7a7c44 0",
		     dst->map[3], dst->map[4], dst->map[5], dst->map[6]);
	return 0;
}

/* cmd is two pages: the IB at 4608 must run, not the decoy at 0. */
static int exec_offset(unsigned long arg, struct bo *cmd, struct bo *dst,
		       char *why)
{
	(void)arg;
	put_mem_write(cmd, 0, lo(dst->iova), 0xDEC0DEC0);
	if (run_mem_write(0, cmd, 4096 + 512, dst, 4, 0x0FF5E700, why))
		return -1;
	if (dst->map[0] != 0 || dst->map[1] != 0x0FF5E700)
		FAIL("dwords 0,1: %08x %08x, expected 0 0ff5e700 (IB at offset 4608)",
		     dst->map[0], dst->map[1]);
	return 0;
}

/* submit_offset 2 is divided by 4 (msm_gem_submit.c), so the IB starts at 0. */
static int exec_unaligned_offset(unsigned long arg, struct bo *cmd,
				 struct bo *dst, char *why)
{
	struct sub x;

	(void)arg;
	put_mem_write(cmd, 0, lo(dst->iova), 0x0FF5E702);
	sub_pair(&x, 0, cmd, dst);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 2, MEM_WRITE_BYTES);
	if (sub_run(g_fd, &x, "SUBMIT", why))
		return -1;
	if (dst->map[0] != 0x0FF5E702)
		FAIL("dword 0 is 0x%08x: the IB did not run from offset 0", dst->map[0]);
	return 0;
}

/*
 * which: 0 two BUF cmds, 1 BUF + IB_TARGET_BUF, 2 IB1 calling an IB2.
 * The second cmd (at 256) writes 0xB0B0B0B0 to dword 1.
 */
static int exec_cmds(unsigned long which, struct bo *cmd, struct bo *dst,
		     char *why)
{
	const uint32_t call[] = { PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2),
				  lo(cmd->iova) + 256, MEM_WRITE_BYTES / 4, PM4_PKT2,
				  PM4_PKT3(CP_MEM_WRITE, 2), lo(dst->iova) + 8,
				  0xC0C0C0C0 };
	struct sub x;

	if (which == 2)
		bo_write(cmd, 0, call, ARRAY_SIZE(call));
	else
		put_mem_write(cmd, 0, lo(dst->iova), 0xA0A0A0A0);
	put_mem_write(cmd, 256, lo(dst->iova) + 4, 0xB0B0B0B0);
	sub_pair(&x, 0, cmd, dst);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0,
		which == 2 ? sizeof(call) : MEM_WRITE_BYTES);
	sub_cmd(&x, which == 0 ? MSM_SUBMIT_CMD_BUF : MSM_SUBMIT_CMD_IB_TARGET_BUF,
		0, 256, MEM_WRITE_BYTES);
	if (sub_run(g_fd, &x, "SUBMIT", why))
		return -1;
	switch (which) {
	case 0:
		if (dst->map[0] != 0xA0A0A0A0 || dst->map[1] != 0xB0B0B0B0)
			FAIL("dwords 0,1: %08x %08x, expected a0a0a0a0 b0b0b0b0",
			     dst->map[0], dst->map[1]);
		break;
	case 1:
		if (dst->map[0] != 0xA0A0A0A0 || dst->map[1] != 0)
			FAIL("dwords 0,1: %08x %08x, expected a0a0a0a0 0 (IB_TARGET_BUF "
			     "is not put in the ring)", dst->map[0], dst->map[1]);
		break;
	default:
		if (dst->map[1] != 0xB0B0B0B0 || dst->map[2] != 0xC0C0C0C0)
			FAIL("dwords 1,2: %08x %08x, expected b0b0b0b0 (IB2) c0c0c0c0 "
			     "(IB1 after the call)", dst->map[1], dst->map[2]);
	}
	return 0;
}

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
		why_prefix(why, what);
		return -1;
	}
	if (dst->map[0] != val)
		FAIL("%s: the BUF cmd did not run (dword 0 is 0x%08x)", what,
		     dst->map[0]);
	if (dst->map[slot] != (ran ? val : 0))
		FAIL("%s: CTX_RESTORE_BUF %s (0x%08x)", what,
		     ran ? "did not run" : "ran", dst->map[slot]);
	return 0;
}

static int c_exec_ctx_restore(unsigned long which, char *why)
{
	struct bo cmd = {0}, dst = {0};
	int fd2, ret = 0;

	fd2 = open(g_render, O_RDWR | O_CLOEXEC);
	if (fd2 < 0)
		FAIL("open %s: %s", g_render, strerror(errno));
	if (pair_make(fd2, &cmd, 4096, &dst, MSM_BO_WC, why) ||
	    ctx_submit(fd2, &cmd, &dst, 1, true, "first submit of a new file", why))
		BAILG();
	if (which == 0) {
		if (ctx_submit(fd2, &cmd, &dst, 2, false,
			       "second submit of the same file", why))
			BAILG();
	} else {
		struct sub y;

		if (!g_fix_ok)
			FAILG("fixture: %.200s", g_fix_why);
		sub_base(&y, 0);	/* another context takes the GPU */
		if (sub_run(g_fd, &y, "SUBMIT from the main file", why) ||
		    ctx_submit(fd2, &cmd, &dst, 3, true, "after a context switch", why))
			BAILG();
	}
out:
	pair_free(&cmd, &dst);
	close(fd2);
	return ret;
}

/* which 0: relocated CP_MEM_WRITE address; 1: shift and or values */
static int exec_reloc(unsigned long which, struct bo *cmd, struct bo *dst,
		      char *why)
{
	struct drm_msm_gem_submit_reloc rel[4];
	struct sub x;

	memset(rel, 0, sizeof(rel));
	sub_pair(&x, 0, cmd, dst);
	if (which == 0) {
		put_mem_write(cmd, 0, 0xDEAD0000, 0x12345678);
		rel[0].submit_offset = 4;
		rel[0].reloc_idx = 1;
		rel[0].reloc_offset = 16;
		sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
		x.cmds[0].nr_relocs = 1;
	} else {
		/* the patched dwords are NOP payload: executing them is harmless */
		const uint32_t ib[] = { PM4_PKT3(CP_NOP, 4), 0xDEAD0001, 0xDEAD0002,
					0xDEAD0003, 0xDEAD0004 };

		bo_write(cmd, 0, ib, ARRAY_SIZE(ib));
		rel[0].submit_offset = 4;	/* ((dst + 0x100) >> 4) | 3 */
		rel[0].reloc_idx = 1;
		rel[0].reloc_offset = 0x100;
		rel[0].shift = -4;
		rel[0].or_value = 3;
		rel[1].submit_offset = 8;	/* (dst + 0x100) << 4, low 32 bits */
		rel[1].reloc_idx = 1;
		rel[1].reloc_offset = 0x100;
		rel[1].shift = 4;
		rel[2].submit_offset = 12;	/* cmd iova ... */
		rel[2].reloc_idx = 0;
		rel[3].submit_offset = 12;	/* ... overwritten: equal offsets are allowed */
		rel[3].reloc_idx = 1;
		rel[3].or_value = 1;
		sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(ib));
		x.cmds[0].nr_relocs = 4;
	}
	x.cmds[0].relocs = (uintptr_t)rel;
	if (sub_run(g_fd, &x, "SUBMIT", why))
		return -1;
	if (which == 0) {
		if (cmd->map[1] != lo(dst->iova) + 16)
			FAIL("patched dword 0x%08x, expected iova+16 = 0x%08x", cmd->map[1],
			     lo(dst->iova) + 16);
		if (dst->map[4] != 0x12345678 || dst->map[0] != 0)
			FAIL("dwords 0,4 of the target: %08x %08x, expected 0 12345678",
			     dst->map[0], dst->map[4]);
	} else {
		uint32_t w1 = (uint32_t)((dst->iova + 0x100) >> 4) | 3;
		uint32_t w2 = (uint32_t)((dst->iova + 0x100) << 4);
		uint32_t w3 = lo(dst->iova) | 1;

		if (cmd->map[1] != w1 || cmd->map[2] != w2 || cmd->map[3] != w3 ||
		    cmd->map[4] != 0xDEAD0004)
			FAIL("patched %08x %08x %08x %08x, expected %08x %08x %08x dead0004",
			     cmd->map[1], cmd->map[2], cmd->map[3], cmd->map[4], w1, w2, w3);
	}
	return 0;
}

/* dst is GPU_READONLY */
static int exec_readonly(unsigned long arg, struct bo *cmd, struct bo *dst,
			 char *why)
{
	(void)arg;
	if (run_mem_write(0, cmd, 0, dst, 0, 0xBADBAD00, why))
		return -1;
	if (dst->map[0] != 0)
		FAIL("the GPU wrote 0x%08x into a GPU_READONLY BO", dst->map[0]);
	return 0;
}

/* which 0: fence ids 1,2,3 on a new queue and last write wins; 1: 3 queues */
static int exec_queues(unsigned long which, struct bo *cmd, struct bo *dst,
		       char *why)
{
	uint32_t q[3] = {0}, fence[3] = {0};
	int ret = 0;

	for (unsigned i = 0; i < 3; i++) {
		int r = queue_new(g_fd, which ? i : 1, &q[i]);

		if (r)
			FAILG("SUBMITQUEUE_NEW: %s", ename(-r));
		if (!which)
			break;
	}
	for (unsigned i = 0; i < 3; i++) {
		uint32_t qi = which ? q[i] : q[0];
		const uint32_t ib[] = { PM4_PKT3(CP_MEM_WRITE, 3),
					lo(dst->iova) + (which ? 8 * i : 0),
					0x51000000 + i, 0x52000000 + i };
		struct sub x;
		int r;

		bo_write(cmd, 64 * i, ib, ARRAY_SIZE(ib));
		sub_pair(&x, qi, cmd, dst);
		sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 64 * i, sizeof(ib));
		r = sub_do(g_fd, &x);
		if (r)
			FAILG("SUBMIT %u: %s", i, ename(-r));
		fence[i] = x.s.fence;
	}
	if (which) {
		for (unsigned i = 0; i < 3; i++) {
			int r = wait_fence(g_fd, q[i], fence[i], 5000);

			if (r)
				FAILG("WAIT_FENCE queue %u: %s", q[i], ename(-r));
		}
		if (fence[0] != 1 || fence[1] != 1 || fence[2] != 1)
			FAILG("first fences of new queues %u %u %u, expected 1 1 1",
			      fence[0], fence[1], fence[2]);
		for (unsigned i = 0; i < 3; i++)
			if (dst->map[2 * i] != 0x51000000 + i ||
			    dst->map[2 * i + 1] != 0x52000000 + i)
				FAILG("queue %u (prio %u) did not write its slot: %08x %08x",
				      q[i], i, dst->map[2 * i], dst->map[2 * i + 1]);
	} else {
		int r = wait_fence(g_fd, q[0], fence[2], 5000);

		if (r)
			FAILG("WAIT_FENCE on the last fence: %s", ename(-r));
		if (fence[0] != 1 || fence[1] != 2 || fence[2] != 3)
			FAILG("fences %u %u %u on a new queue, expected 1 2 3",
			      fence[0], fence[1], fence[2]);
		r = wait_fence(g_fd, q[0], fence[0], -1);
		if (r)
			FAILG("WAIT_FENCE poll on the first (retired) fence: %s", ename(-r));
		r = wait_fence(g_fd, q[0], fence[2] + 1, -1);
		if (r != -EINVAL)
			FAILG("WAIT_FENCE on the next, unsubmitted fence: %s, expected EINVAL",
			      ename(-r));
		if (dst->map[0] != 0x51000002 || dst->map[1] != 0x52000002)
			FAILG("after 3 in-order submits: %08x %08x, expected 51000002 52000002",
			      dst->map[0], dst->map[1]);
	}
out:
	for (unsigned i = 0; i < 3; i++)
		if (q[i])
			queue_close(g_fd, q[i]);
	return ret;
}

static int c_exec_fence_only(unsigned long flags, char *why)
{
	struct sub x;

	sub_init(&x, 0);
	x.s.flags |= (uint32_t)flags;
	return sub_run(g_fd, &x, "SUBMIT with nr_bos = nr_cmds = 0", why);
}

static int exec_no_implicit(unsigned long arg, struct bo *cmd, struct bo *dst,
			    char *why)
{
	struct sub x;

	(void)arg;
	NEED_FEAT(F_SUBMIT_BO_NO_IMPLICIT);
	put_mem_write(cmd, 0, lo(dst->iova), 0x40C0FFEE);
	sub_init(&x, 0);
	x.s.flags |= MSM_SUBMIT_NO_IMPLICIT;
	sub_bo(&x, cmd->handle, MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_NO_IMPLICIT);
	sub_bo(&x, dst->handle, MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
	if (sub_run(g_fd, &x, "SUBMIT", why))
		return -1;
	if (dst->map[0] != 0x40C0FFEE)
		FAIL("dword 0 is 0x%08x, expected 0x40c0ffee", dst->map[0]);
	return 0;
}

static int exec_suspend(unsigned long arg, struct bo *cmd, struct bo *dst,
			char *why)
{
	uint64_t s0 = 0, s1 = 0;

	(void)arg;
	/* read before the submit: its resume must be followed by a suspend */
	EXPECT(get_param(g_fd, MSM_PARAM_SUSPENDS, &s0), 0, "GET_PARAM SUSPENDS");
	if (run_mem_write(0, cmd, 0, dst, 0, 0x5B5B0001, why)) {
		why_prefix(why, "before the idle period");
		return -1;
	}
	/* autosuspend delay is 66 ms (DRM_MSM_INACTIVE_PERIOD) */
	sleep_ms(600);
	EXPECT(get_param(g_fd, MSM_PARAM_SUSPENDS, &s1), 0, "GET_PARAM SUSPENDS");
	if (s1 <= s0)
		FAIL("SUSPENDS %llu before and %llu after 600 ms idle: no runtime suspend",
		     (unsigned long long)s0, (unsigned long long)s1);
	if (run_mem_write(0, cmd, 64, dst, 4, 0x5B5B0002, why)) {
		why_prefix(why, "after resume");
		return -1;
	}
	if (dst->map[0] != 0x5B5B0001 || dst->map[1] != 0x5B5B0002)
		FAIL("dwords 0,1: %08x %08x, expected 5b5b0001 5b5b0002", dst->map[0],
		     dst->map[1]);
	return 0;
}

static int c_exec_fence_fd(unsigned long arg, char *why)
{
	struct pollfd pfd;
	struct sub x, y;
	int fd = -1, ret = 0, r;

	(void)arg;
	NEED_FIX();
	sub_base(&x, 0);
	x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
	x.s.fence_fd = 0x7fffffff;
	EXPECT(sub_do(g_fd, &x), 0, "SUBMIT FENCE_FD_OUT");
	fd = x.s.fence_fd;
	if (fd < 0 || fd == 0x7fffffff)
		FAIL("fence_fd %d after SUBMIT", fd);
	if ((fcntl(fd, F_GETFD) & FD_CLOEXEC) == 0)
		FAILG("the fence fd is not O_CLOEXEC");
	EXPECTG(wait_fence(g_fd, 0, x.s.fence, 5000), 0, "WAIT_FENCE");
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	r = poll(&pfd, 1, 1000);
	if (r != 1 || !(pfd.revents & POLLIN))
		FAILG("poll on the sync_file after WAIT_FENCE: %d revents 0x%x", r,
		      pfd.revents);
	sub_base(&y, 0);
	y.s.flags |= MSM_SUBMIT_FENCE_FD_IN;
	y.s.fence_fd = fd;
	if (sub_run(g_fd, &y, "SUBMIT FENCE_FD_IN with that sync_file", why))
		BAILG();
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int c_exec_syncobj_out(unsigned long arg, char *why)
{
	uint32_t so = 0;
	struct sub x;
	int ret = 0;

	(void)arg;
	NEED_FIX();
	EXPECT(syncobj_create(0, &so), 0, "SYNCOBJ_CREATE");
	sub_base(&x, 0);
	sub_out(&x, so);
	EXPECTG(sub_do(g_fd, &x), 0, "SUBMIT SYNCOBJ_OUT");
	EXPECTG(syncobj_wait(so, 5000), 0, "SYNCOBJ_WAIT");
	EXPECTG(wait_fence(g_fd, 0, x.s.fence, -1), 0, "WAIT_FENCE poll");
out:
	syncobj_destroy(so);
	return ret;
}

static int c_exec_syncobj_in_reset(unsigned long arg, char *why)
{
	uint32_t so = 0;
	struct sub x;
	int ret = 0;

	(void)arg;
	NEED_FIX();
	EXPECT(syncobj_create(DRM_SYNCOBJ_CREATE_SIGNALED, &so), 0, "SYNCOBJ_CREATE");
	sub_base(&x, 0);
	sub_in(&x, so)->flags = MSM_SUBMIT_SYNCOBJ_RESET;
	if (sub_run(g_fd, &x, "SUBMIT SYNCOBJ_IN with RESET", why))
		BAILG();
	x.in[0].flags = 0;
	EXPECTG(sub_try(g_fd, &x), EINVAL,
		"second SUBMIT on the reset syncobj (no fence left)");
out:
	syncobj_destroy(so);
	return ret;
}

static int c_exec_fence_sn(unsigned long arg, char *why)
{
	uint32_t q = 0;
	struct sub x;
	int ret = 0;

	(void)arg;
	NEED_FIX();
	EXPECT(queue_new(g_fd, 1, &q), 0, "SUBMITQUEUE_NEW");
	sub_base(&x, q);
	x.s.flags |= MSM_SUBMIT_FENCE_SN_IN;
	x.s.fence = 1000;
	EXPECTG(sub_do(g_fd, &x), 0, "SUBMIT FENCE_SN_IN 1000");
	if (x.s.fence != 1000)
		FAILG("fence %u returned, expected 1000", x.s.fence);
	EXPECTG(wait_fence(g_fd, q, 1000, 5000), 0, "WAIT_FENCE 1000");
	EXPECTG(wait_fence(g_fd, q, 1001, -1), EINVAL, "WAIT_FENCE 1001 (not submitted)");
out:
	queue_close(g_fd, q);
	return ret;
}

/* ===== a job stalled on CP_WAIT_REG_MEM, released by the CPU ================ */

#define PRE_MARK	0x57A11ED0u
#define POST_MARK	0xD0E0D0E0u

static void stall_ib(uint32_t *ib, uint64_t sem_iova)
{
	unsigned n = 0;

	ib[n++] = PM4_PKT3(CP_MEM_WRITE, 2);
	ib[n++] = lo(sem_iova) + 4;
	ib[n++] = PRE_MARK;
	ib[n++] = PM4_PKT3(CP_WAIT_REG_MEM, 5);
	ib[n++] = WAIT_REG_MEM_POLL_MEM | WAIT_REG_MEM_FUNC_EQ;
	ib[n++] = lo(sem_iova);
	ib[n++] = 1;		/* reference */
	ib[n++] = 0xffffffff;	/* mask */
	ib[n++] = 16;		/* poll interval */
	ib[n++] = PM4_PKT3(CP_MEM_WRITE, 2);
	ib[n++] = lo(sem_iova) + 8;
	ib[n++] = POST_MARK;
}
#define STALL_IB_DWORDS	12

/*
 * A job of stall_ib() on its own queue, which the cases after its setup
 * case depend on: they fail with why unless ok.
 */
struct held {
	int ok;
	char why[WHY_LEN];
	struct bo cmd, sem;	/* the IB; the semaphore and the markers */
	uint32_t q, fence;
	int fd_out;		/* its FENCE_FD_OUT */
	uint64_t faults0;	/* GET_PARAM FAULTS before it */
	int64_t t0;		/* when it was submitted */
};

/* Submit j's job; rd, if any, is made and added as a READ BO.  0 or -1. */
static int held_submit(struct held *j, struct bo *rd, char *why)
{
	uint32_t ib[STALL_IB_DWORDS];
	struct sub x;
	int r;

	if (get_param(g_fd, MSM_PARAM_FAULTS, &j->faults0))
		FAIL("GET_PARAM FAULTS failed");
	if (bo_make(&j->cmd, g_fd, 4096, MSM_BO_WC, why, WHY_LEN) ||
	    bo_make(&j->sem, g_fd, 4096, MSM_BO_WC, why, WHY_LEN) ||
	    (rd && bo_make(rd, g_fd, 4096, MSM_BO_WC, why, WHY_LEN)))
		return -1;
	r = queue_new(g_fd, 1, &j->q);
	if (r)
		FAIL("SUBMITQUEUE_NEW: %s", ename(-r));
	stall_ib(ib, j->sem.iova);
	bo_write(&j->cmd, 0, ib, STALL_IB_DWORDS);
	sub_pair(&x, j->q, &j->cmd, &j->sem);
	x.s.flags |= MSM_SUBMIT_FENCE_FD_OUT;
	if (rd)
		sub_bo(&x, rd->handle, MSM_SUBMIT_BO_READ);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, sizeof(ib));
	j->t0 = mono_ns();
	r = sub_do(g_fd, &x);
	if (r)
		FAIL("SUBMIT of the stalling job: %s", ename(-r));
	j->fence = x.s.fence;
	j->fd_out = x.s.fence_fd;
	return 0;
}

/* The setup case of j: setup() submits the job and checks its start. */
static int held_setup(struct held *j, int (*setup)(char *why), char *why)
{
	j->ok = 0;
	if (setup(why)) {
		snprintf(j->why, WHY_LEN, "%.250s", why);
		return -1;
	}
	j->ok = 1;
	return 0;
}

static void held_free(struct held *j)
{
	if (j->fd_out >= 0)
		close(j->fd_out);
	j->fd_out = -1;
	if (j->q)
		queue_close(g_fd, j->q);
	j->q = 0;
	bo_free(&j->cmd);
	bo_free(&j->sem);
	j->ok = 0;
	snprintf(j->why, WHY_LEN, "released");
}

static struct held st = { .fd_out = -1 };
static struct bo st_rd;			/* a READ BO of the held job */
static long long st_period = -1;	/* saved hangcheck_period_ms, or -1 */

static int stall_setup(char *why)
{
	int64_t end;

	/* keep hangcheck out of the way while the job is held (if debugfs is there) */
	if (dbg_read("hangcheck_period_ms", &st_period) == 0)
		dbg_write("hangcheck_period_ms", 20000);
	else
		st_period = -1;
	if (held_submit(&st, &st_rd, why))
		return -1;
	end = mono_ns() + 3 * NS_PER_SEC;
	while (st.sem.map[1] != PRE_MARK && mono_ns() < end)
		sleep_ms(1);
	if (st.sem.map[1] != PRE_MARK)
		FAIL("the CP never reached the WAIT_REG_MEM (marker before it is 0x%08x)",
		     st.sem.map[1]);
	if (st.sem.map[2] != 0)
		FAIL("the CP went past an unsatisfied WAIT_REG_MEM (marker after it is 0x%08x)",
		     st.sem.map[2]);
	sleep_ms(20);
	if (st.sem.map[2] != 0)
		FAIL("the CP went past the WAIT_REG_MEM within 20 ms (0x%08x)", st.sem.map[2]);
	return 0;
}

static int c_stall_setup(unsigned long arg, char *why)
{
	(void)arg;
	return held_setup(&st, stall_setup, why);
}

#define NEED_STALL() do { if (!st.ok) FAIL("depends on the stalled job: %.200s", st.why); } while (0)

/*
 * A wait begun at t0 with a deadline ms later must not have ended early.
 * jiffies granularity: HZ=100 may end a 5-jiffy wait one jiffy early.
 */
static int not_early(int64_t t0, int ms, char *why)
{
	int64_t el = mono_ns() - t0;

	if (el < (int64_t)(ms - 20) * 1000000LL)
		FAIL("returned after %lld ms, deadline was %d ms",
		     (long long)(el / 1000000), ms);
	return 0;
}

/* ms 0 polls */
static int c_stall_wait_fence(unsigned long ms, char *why)
{
	int64_t t0;

	NEED_STALL();
	t0 = mono_ns();
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
	{ false, MSM_PREP_WRITE | MSM_PREP_NOSYNC, 1000, EBUSY },
	{ false, MSM_PREP_READ, -1, EBUSY },
	{ false, MSM_PREP_READ, 50, ETIMEDOUT },
	{ true, MSM_PREP_READ | MSM_PREP_NOSYNC, -1, 0 },
	{ true, MSM_PREP_WRITE | MSM_PREP_NOSYNC, -1, EBUSY },
};

static int c_stall_cpu_prep(unsigned long i, char *why)
{
	const struct bo *b = stall_cpu_prep[i].rd ? &st_rd : &st.sem;
	int64_t t0;

	NEED_STALL();
	t0 = mono_ns();
	EXPECT(cpu_prep(g_fd, b->handle, stall_cpu_prep[i].op, stall_cpu_prep[i].ms),
	       stall_cpu_prep[i].err, "CPU_PREP");
	if (stall_cpu_prep[i].err == ETIMEDOUT)
		return not_early(t0, stall_cpu_prep[i].ms, why);
	return 0;
}

static int c_stall_poll(unsigned long arg, char *why)
{
	struct pollfd pfd = { st.fd_out, POLLIN, 0 };
	int r;

	(void)arg;
	NEED_STALL();
	if (st.fd_out < 0)
		FAIL("no fence fd from SUBMIT FENCE_FD_OUT");
	r = poll(&pfd, 1, 0);
	if (r != 0)
		FAIL("poll returned %d revents 0x%x, expected 0 (not signalled)", r,
		     pfd.revents);
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
	struct pollfd pfd = { st.fd_out, POLLIN, 0 };
	uint64_t faults = 0;
	int ret = 0, r;

	(void)arg;
	if (st.sem.map)
		st.sem.map[0] = 1;	/* releases the WAIT_REG_MEM */
	__sync_synchronize();
	if (!st.ok)
		FAILG("depends on the stalled job: %.200s", st.why);
	EXPECTG(wait_fence(g_fd, st.q, st.fence, 5000), 0, "WAIT_FENCE after the release");
	if (st.sem.map[2] != POST_MARK)
		FAILG("marker after the WAIT_REG_MEM is 0x%08x, expected 0x%08x",
		      st.sem.map[2], POST_MARK);
	EXPECTG(get_param(g_fd, MSM_PARAM_FAULTS, &faults), 0, "GET_PARAM FAULTS");
	if (faults != st.faults0)
		FAILG("FAULTS went from %llu to %llu: hangcheck recovered the job instead",
		      (unsigned long long)st.faults0, (unsigned long long)faults);
	r = poll(&pfd, 1, 1000);
	if (r != 1 || !(pfd.revents & POLLIN))
		FAILG("poll on the fence fd: %d revents 0x%x, expected POLLIN", r,
		      pfd.revents);
	EXPECTG(cpu_prep(g_fd, st.sem.handle, MSM_PREP_WRITE, -1), 0,
		"CPU_PREP WRITE poll on the now idle BO");
out:
	if (st_period >= 0)
		dbg_write("hangcheck_period_ms", st_period);
	held_free(&st);
	bo_free(&st_rd);
	return ret;
}

/* ===== a job that never finishes: hangcheck and recovery ==================== */

/* The stall IB again, but nobody ever writes 1 to the semaphore. */
static struct held hg = { .fd_out = -1 };
static struct {
	struct bo cmd, dst;	/* a job queued behind the hang, on queue 0 */
	uint32_t fence;
	int r;			/* its SUBMIT */
	uint32_t q0_faults0;	/* queue 0's FAULTS before the hang */
	int64_t elapsed_ms;	/* until the hung job retired */
} hg_next;

static int hang_setup_and_wait(char *why)
{
	long long period = -1;
	struct sub y;
	int r;

	if (dbg_read("hangcheck_period_ms", &period) == 0 && period != 500)
		ktap_print_msg("hangcheck_period_ms is %lld (default 500)", period);
	if (queue_faults(g_fd, 0, &hg_next.q0_faults0))
		FAIL("SUBMITQUEUE_QUERY of queue 0 failed");
	if (pair_make(g_fd, &hg_next.cmd, 4096, &hg_next.dst, MSM_BO_WC, why))
		return -1;
	put_mem_write(&hg_next.cmd, 0, lo(hg_next.dst.iova), 0x4E9A7ED0);
	if (held_submit(&hg, NULL, why))
		return -1;
	/* an innocent job queued behind it, on another queue */
	sub_pair(&y, 0, &hg_next.cmd, &hg_next.dst);
	sub_cmd(&y, MSM_SUBMIT_CMD_BUF, 0, 0, MEM_WRITE_BYTES);
	hg_next.r = sub_do(g_fd, &y);
	hg_next.fence = y.s.fence;
	r = wait_fence(g_fd, hg.q, hg.fence, 15000);
	hg_next.elapsed_ms = (mono_ns() - hg.t0) / 1000000;
	ktap_print_msg("hung job retired after %lld ms", (long long)hg_next.elapsed_ms);
	if (r)
		FAIL("WAIT_FENCE (15 s) on the hanging job: %s (no recovery)", ename(-r));
	return 0;
}

static int c_hang_recover(unsigned long arg, char *why)
{
	(void)arg;
	if (held_setup(&hg, hang_setup_and_wait, why))
		return -1;
	/* hangcheck_timer_reset(): >= 500 ms after the job was kicked */
	if (hg_next.elapsed_ms < 450)
		FAIL("retired after %lld ms, before hangcheck could have fired",
		     (long long)hg_next.elapsed_ms);
	return 0;
}

#define NEED_HANG() do { if (!hg.ok) FAIL("depends on the recovered hang: %.200s", hg.why); } while (0)

static int c_hang_abandoned(unsigned long arg, char *why)
{
	(void)arg;
	NEED_HANG();
	if (hg.sem.map[1] != PRE_MARK)
		FAIL("the hung IB never reached the WAIT_REG_MEM (0x%08x)", hg.sem.map[1]);
	if (hg.sem.map[2] != 0)
		FAIL("the hung IB ran past its WAIT_REG_MEM (0x%08x)", hg.sem.map[2]);
	return 0;
}

static int c_hang_faults(unsigned long arg, char *why)
{
	uint64_t f = 0;

	(void)arg;
	NEED_HANG();
	EXPECT(get_param(g_fd, MSM_PARAM_FAULTS, &f), 0, "GET_PARAM FAULTS");
	if (f != hg.faults0 + 1)
		FAIL("FAULTS %llu, expected %llu + 1", (unsigned long long)f,
		     (unsigned long long)hg.faults0);
	return 0;
}

static int c_hang_queue_faults(unsigned long arg, char *why)
{
	uint32_t fq = 0, f0 = 0;

	(void)arg;
	NEED_HANG();
	EXPECT(queue_faults(g_fd, hg.q, &fq), 0, "SUBMITQUEUE_QUERY hung queue");
	EXPECT(queue_faults(g_fd, 0, &f0), 0, "SUBMITQUEUE_QUERY queue 0");
	if (fq != 1 || f0 != hg_next.q0_faults0)
		FAIL("queue faults: hung queue %u (expected 1), queue 0 %u (expected %u)",
		     fq, f0, hg_next.q0_faults0);
	return 0;
}

static int c_hang_sync_file(unsigned long arg, char *why)
{
	struct sync_file_info info;

	(void)arg;
	NEED_HANG();
	if (hg.fd_out < 0)
		FAIL("no fence fd from SUBMIT FENCE_FD_OUT");
	memset(&info, 0, sizeof(info));
	EXPECT(xioctl(hg.fd_out, SYNC_IOC_FILE_INFO, &info), 0, "SYNC_IOC_FILE_INFO");
	if (info.status != 1)
		FAIL("sync_file status %d, expected 1 (signalled, no error: 6.12 sets none)",
		     info.status);
	return 0;
}

static int c_hang_replay(unsigned long arg, char *why)
{
	(void)arg;
	NEED_HANG();
	EXPECT(hg_next.r, 0, "SUBMIT of the job behind the hang");
	EXPECT(wait_fence(g_fd, 0, hg_next.fence, 5000), 0, "WAIT_FENCE");
	if (hg_next.dst.map[0] != 0x4E9A7ED0)
		FAIL("the job queued behind the hang did not run (0x%08x)",
		     hg_next.dst.map[0]);
	return 0;
}

/* on the queue that hung */
static int hang_after(unsigned long arg, struct bo *cmd, struct bo *dst,
		      char *why)
{
	(void)arg;
	if (run_mem_write(hg.q, cmd, 0, dst, 0, 0xCAFEBABE, why))
		return -1;
	if (dst->map[0] != 0xCAFEBABE)
		FAIL("dword 0 is 0x%08x after recovery, expected 0xcafebabe", dst->map[0]);
	return 0;
}

/* the last case of the hang: the proof, then free the hang's state anyway */
static int c_hang_after(unsigned long arg, char *why)
{
	int ret = with_pair(hang_after, arg, 4096, MSM_BO_WC, why);

	held_free(&hg);
	pair_free(&hg_next.cmd, &hg_next.dst);
	return ret;
}

/* ===== hostile command streams =============================================== */

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
	for (unsigned i = 0; i < n; i++)
		if (cmd->map[i] == 0xB0B0B0B0)
			cmd->map[i] = lo(cmd->iova);
	__sync_synchronize();
	sub_init(&x, 0);
	sub_bo(&x, cmd->handle, MSM_SUBMIT_BO_READ);
	sub_cmd(&x, MSM_SUBMIT_CMD_BUF, 0, 0, n * 4);
	r = sub_do(g_fd, &x);
	if (r)
		FAIL("SUBMIT of the hostile stream: %s", ename(-r));
	r = wait_fence(g_fd, 0, x.s.fence, 10000);
	if (r)
		FAIL("the hostile stream's fence did not signal in 10 s: %s",
		     ename(-r));
	memset((void *)cmd->map, 0, 4096);
	if (run_mem_write(0, cmd, 0, dst, 0, 0xCAFEBABE, why))
		return -1;
	if (dst->map[0] != 0xCAFEBABE)
		FAIL("after the hostile stream the GPU wrote 0x%08x, expected 0xcafebabe",
		     dst->map[0]);
	return 0;
}

static int hostile(unsigned long arg, struct bo *cmd, struct bo *dst, char *why)
{
	/* 0xB0B0B0B0 is replaced by the stream's own GPU address */
	static const uint32_t self_ib[] = {
		PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2), 0xB0B0B0B0, 3,
	};
	static const uint32_t unmapped_write[] = {
		PM4_PKT3(CP_MEM_WRITE, 2), 0xFFFFF000, 0xDEADBEEF,
	};
	static const uint32_t unmapped_ib[] = {
		PM4_PKT3(CP_INDIRECT_BUFFER_PFD, 2), 0xFFFF0000, 1024,
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

/* ===== registration ========================================================= */

/* One case per bit of 32 from bit from on, but those in mask. */
static void add_bits(case_fn fn, uint32_t mask, unsigned from, const char *what)
{
	for (unsigned b = from; b < 32; b++)
		if (!(mask & (1u << b)))
			add(fn, b, "%s bit %u (0x%x) rejected with EINVAL", what, b,
			    1u << b);
}

static void register_cases(void)
{
	unsigned i;

	/* DRM core and identity */
	if (g_drv.known)
		add(c_version, 0, "DRM VERSION of the render node is msm %d.%d.%d",
		    g_drv.major, g_drv.minor, g_drv.patch);
	else
		add(c_version, 0, "DRM VERSION of the render node is msm 1.%d.0",
		    MSM_MINOR_NEWEST);
	add(c_card0, 0, "card0 is the msm primary node");
	add(c_core_nr, 0x09, "DRM ioctl nr 0x%02x (the GEM_SVM_NEW hole) rejected with EINVAL", 0x49);
	add(c_core_nr, 0x0D, "DRM ioctl nr 0x%02x (one past SUBMITQUEUE_QUERY) rejected with EINVAL", 0x4D);
	add(c_core_nr, 0x5F, "DRM ioctl nr 0x%02x (last driver nr) rejected with EINVAL", 0x9F);
	add(c_core_type, 0, "ioctl of type 'x' on the render node rejected with ENOTTY");
	add(c_short_param, 0, "GET_PARAM with the 16-byte pre-len struct returns GPU_ID (zero-extended)");

	/* GET_PARAM / SET_PARAM */
	for (i = 0; i < ARRAY_SIZE(get_param_pos); i++)
		add(c_get_param_pos, i, "GET_PARAM %s", get_param_pos[i].what);
	for (i = 0; i < ARRAY_SIZE(get_param_pos); i++)
		if (feat_state(get_param_pos[i].feat) == FEAT_NO)
			add(c_get_param_unknown, get_param_pos[i].param,
			    "GET_PARAM param 0x%x (%s, before %s) rejected with EINVAL",
			    get_param_pos[i].param,
			    msm_feats[get_param_pos[i].feat].what + strlen("MSM_PARAM_"),
			    feat_since(get_param_pos[i].feat));
	add(c_get_param_counter, MSM_PARAM_FAULTS, "GET_PARAM FAULTS readable");
	add(c_get_param_counter, MSM_PARAM_SUSPENDS, "GET_PARAM SUSPENDS readable");
	for (i = 0; i < ARRAY_SIZE(get_param_neg); i++)
		add(c_get_param_neg, i, "%s", get_param_neg[i].name);
	for (i = 0; i < ARRAY_SIZE(set_param_cases); i++)
		add(c_set_param, i, "%s", set_param_cases[i].name);
	add(c_sysprof_eperm, 0, "SET_PARAM SYSPROF without CAP_SYS_ADMIN rejected with EPERM");

	/* GEM_NEW: [2014] unknown flags, one case per bit */
	add_bits(c_gem_new_bit, MSM_BO_FLAGS, 0, "GEM_NEW flags");
	for (i = 0; i < ARRAY_SIZE(gem_new_bad_cache); i++)
		add(c_gem_new_cache, i, "GEM_NEW cache flags 0x%x rejected with EINVAL",
		    gem_new_bad_cache[i]);
	for (i = 0; i < ARRAY_SIZE(gem_new_good); i++)
		add(c_gem_new_good, i, feat_have(F_INFO_GET_FLAGS) ?
		    "GEM_NEW flags 0x%x accepted and reported by GET_FLAGS" :
		    "GEM_NEW flags 0x%x accepted", gem_new_good[i]);
	add(c_gem_new_size, 0, "GEM_NEW size 0 rejected with EINVAL");
	add(c_gem_new_size, 1ULL << 32, "GEM_NEW size 2^32 (0 as u32) rejected with EINVAL");
	add(c_gem_new_one_page, 1, "GEM_NEW size 1 accepted as one page");
	add(c_gem_new_one_page, (1ULL << 32) + (unsigned long)g_page,
	    "GEM_NEW size 2^32+PAGE_SIZE truncated to one page (6.12 u32 size)");
	add(c_gem_close_twice, 0, "GEM_CLOSE of a closed handle rejected with EINVAL");

	/* GEM_INFO and mmap */
	for (i = 0; i < ARRAY_SIZE(gem_info_neg); i++)
		if (gem_info_neg[i].id == GI_GET_NAME_SMALL &&
		    !feat_have(F_GET_NAME_ETOOSMALL))
			add(c_gem_info_neg, i, "GEM_INFO GET_NAME buffer too small rejected with EINVAL (ETOOSMALL from %s)",
			    feat_since(F_GET_NAME_ETOOSMALL));
		else
			add(c_gem_info_neg, i, "%s", gem_info_neg[i].name);
	/* infos of a newer driver are unknown ones here */
	if (feat_state(F_INFO_GET_FLAGS) == FEAT_NO)
		add(c_gem_info_unknown, MSM_INFO_GET_FLAGS,
		    "GEM_INFO info %u (GET_FLAGS, before %s) rejected with EINVAL",
		    MSM_INFO_GET_FLAGS, feat_since(F_INFO_GET_FLAGS));
	if (feat_state(F_INFO_METADATA) == FEAT_NO) {
		add(c_gem_info_unknown, MSM_INFO_SET_METADATA,
		    "GEM_INFO info %u (SET_METADATA, before %s) rejected with EINVAL",
		    MSM_INFO_SET_METADATA, feat_since(F_INFO_METADATA));
		add(c_gem_info_unknown, MSM_INFO_GET_METADATA,
		    "GEM_INFO info %u (GET_METADATA, before %s) rejected with EINVAL",
		    MSM_INFO_GET_METADATA, feat_since(F_INFO_METADATA));
	}
	add(c_gem_info_offset_iova, 0, "GEM_INFO GET_OFFSET and GET_IOVA: aligned, in the a2xx VA window, stable, disjoint");
	add(c_gem_info_name, 0, "GEM_INFO SET_NAME/GET_NAME round trip and size query");
	add(c_gem_info_name, 1, "GEM_INFO SET_NAME stops at the first non-printable character");
	add(c_gem_info_meta, 0, "GEM_INFO SET_METADATA/GET_METADATA round trip of 128 bytes");
	add(c_mmap_rw, 0, "mmap of a BO: zeroed, written data visible through a second mapping");
	add(c_mmap_too_big, 0, "mmap beyond the BO size rejected with EINVAL");
	add(c_mmap_other_file, 0, "mmap of a BO through another file rejected with EACCES");

	/* CPU_PREP / CPU_FINI: [2014] unknown op bits */
	add_bits(c_cpu_prep_bit, prep_flags(), 0, "GEM_CPU_PREP op");
	for (i = 0; i < ARRAY_SIZE(cpu_prep_good); i++)
		add(c_cpu_prep_good, i, "GEM_CPU_PREP op 0x%x on an idle BO accepted",
		    cpu_prep_good_op(i));
	add(c_cpu_prep_handle, MSM_PREP_READ, "GEM_CPU_PREP unknown handle rejected with ENOENT");
	add(c_cpu_prep_handle, 0x10, "GEM_CPU_PREP op 0x10 on an unknown handle rejected with EINVAL (op checked first)");
	add(c_cpu_fini, 1, "GEM_CPU_FINI unknown handle rejected with ENOENT");
	add(c_cpu_fini, 0, "GEM_CPU_FINI on a BO accepted");

	/* WAIT_FENCE: [2014, now flags] unknown flag bits */
	add_bits(c_wait_fence_bit, wait_fence_flags(), 0, "WAIT_FENCE flags");
	add(c_wait_fence_good, 0, "WAIT_FENCE fence 0 flags 0 returns 0");
	add(c_wait_fence_good, MSM_WAIT_FENCE_BOOST, "WAIT_FENCE fence 0 flags BOOST returns 0");
	add(c_wait_fence_queue, 0, "WAIT_FENCE unknown queueid rejected with ENOENT");
	add(c_wait_fence_queue, 2, "WAIT_FENCE flags 0x2 on an unknown queue rejected with EINVAL (flags checked first)");
	add(c_wait_fence_future, 0, "WAIT_FENCE on a fence not yet submitted rejected with EINVAL");

	/* MADVISE */
	add(c_madvise_bad, __MSM_MADV_PURGED, "GEM_MADVISE madv 2 (PURGED, internal) rejected with EINVAL");
	add(c_madvise_bad, 3, "GEM_MADVISE madv 3 rejected with EINVAL");
	add(c_madvise_bad, 0xffffffff, "GEM_MADVISE madv 0xffffffff rejected with EINVAL");
	add(c_madvise_handle, MSM_MADV_WILLNEED, "GEM_MADVISE unknown handle rejected with ENOENT");
	add(c_madvise_handle, 2, "GEM_MADVISE madv 2 on an unknown handle rejected with EINVAL (madv checked first)");
	add(c_madvise_retained, 0, "GEM_MADVISE WILLNEED/DONTNEED/WILLNEED report retained 1");
	add(c_madvise_submit, 0, "SUBMIT with a DONTNEED BO rejected with EBUSY, accepted again after WILLNEED");
	add(c_madvise_fault, 0, "GEM mmap of a DONTNEED BO: a first touch gets SIGBUS");
	add(c_purge_retained, 0, "GEM_MADVISE WILLNEED after the shrinker purged a DONTNEED BO reports retained 0");
	add(c_purge_submit, 0, "SUBMIT with a purged BO rejected with EBUSY");
	add(c_purge_dontneed, 0, "GEM_MADVISE DONTNEED on a purged BO reports retained 0");

	/* SUBMITQUEUE_* */
	add_bits(c_queue_flags_bit, 0, 0, "SUBMITQUEUE_NEW flags");
	add(c_queue_prio_bad, 3, "SUBMITQUEUE_NEW prio 3 (PRIORITIES) rejected with EINVAL");
	add(c_queue_prio_bad, 4, "SUBMITQUEUE_NEW prio 4 rejected with EINVAL");
	add(c_queue_prio_bad, 0xffffffff, "SUBMITQUEUE_NEW prio 0xffffffff rejected with EINVAL");
	add(c_queue_prio_good, 0, "SUBMITQUEUE_NEW prio 0, 1, 2 accepted with increasing non-zero ids");
	add(c_queue_close, 0, "SUBMITQUEUE_CLOSE id 0 (the default queue) rejected with ENOENT");
	add(c_queue_close, 1, "SUBMITQUEUE_CLOSE unknown id rejected with ENOENT");
	add(c_queue_close, 2, "SUBMITQUEUE_CLOSE twice: the second rejected with ENOENT");
	add(c_queue_close, 3, "SUBMIT to a closed queue rejected with ENOENT");
	add(c_queue_query, QQ_PAD, "SUBMITQUEUE_QUERY pad 1 rejected with EINVAL");
	add(c_queue_query, QQ_ID, "SUBMITQUEUE_QUERY unknown id rejected with ENOENT");
	add(c_queue_query, QQ_PARAM, "SUBMITQUEUE_QUERY param 1 rejected with EINVAL");
	add(c_queue_query, QQ_BADPTR, "SUBMITQUEUE_QUERY bad data pointer rejected with EFAULT");
	add(c_queue_query, QQ_GOOD, "SUBMITQUEUE_QUERY FAULTS of a new queue is 0");
	add(c_queue_query, QQ_LEN0, "SUBMITQUEUE_QUERY len 0 accepted without writing data");
	add(c_queue_query, QQ_DEFAULT, "SUBMITQUEUE_QUERY FAULTS of queue 0 accepted");

	/* SUBMIT: [2014] bo flags and cmd type; then the submit-level flags */
	add_bits(c_submit_bo_bit, submit_bo_flags(), 0, "SUBMIT bo flags");
	add(c_submit_bo_flags, 0, "SUBMIT bo flags 0 (neither READ nor WRITE) rejected with EINVAL");
	add(c_submit_bo_flags, MSM_SUBMIT_BO_DUMP, "SUBMIT bo flags DUMP alone rejected with EINVAL");
	add(c_submit_bo_flags, MSM_SUBMIT_BO_NO_IMPLICIT, "SUBMIT bo flags NO_IMPLICIT alone rejected with EINVAL");
	add(c_submit_bo_flags, MSM_SUBMIT_BO_WRITE, "SUBMIT bo flags WRITE accepted");
	add(c_submit_bo_flags, submit_bo_flags(), "SUBMIT bo flags READ|WRITE|DUMP%s accepted",
	    feat_have(F_SUBMIT_BO_NO_IMPLICIT) ? "|NO_IMPLICIT" : "");
	for (i = 0; i < ARRAY_SIZE(bad_cmd_types); i++)
		add(c_submit_cmd_type, bad_cmd_types[i],
		    "SUBMIT cmd type 0x%x rejected with EINVAL", bad_cmd_types[i]);
	add(c_submit_cmd_type, MSM_SUBMIT_CMD_IB_TARGET_BUF, "SUBMIT cmd type 2 (IB_TARGET_BUF) accepted");
	add(c_submit_cmd_type, MSM_SUBMIT_CMD_CTX_RESTORE_BUF, "SUBMIT cmd type 3 (CTX_RESTORE_BUF) accepted");
	/* bits 0..15 are the pipe */
	add_bits(c_submit_flag_bit, MSM_SUBMIT_FLAGS, 16, "SUBMIT flags");
	add(c_submit_sudo, 0, "SUBMIT SUDO without CAP_SYS_RAWIO rejected with EINVAL");
	add(c_submit_emfile, 0, "SUBMIT FENCE_FD_OUT with no free fd rejected with EMFILE");
	for (i = 0; i < ARRAY_SIZE(submit_variants); i++)
		add(c_submit_variant, i, "%s", submit_variants[i].name);

	/* GPU execution; most on a fresh pair of BOs (add_gpu) */
	add_gpu(exec_mem_write, 0, 4096, MSM_BO_WC, "GPU CP_MEM_WRITE puts 0xCAFEBABE in a WRITE BO, seen through mmap after WAIT_FENCE");
	add_gpu(exec_mem_write_multi, 0, 4096, MSM_BO_WC, "GPU CP_MEM_WRITE of 3 dwords lands exactly in the second page");
	add_gpu(exec_reg_to_mem, 0, 4096, MSM_BO_WC, "GPU PKT0 CP_SCRATCH_REG3..4 then CP_REG_TO_MEM copies both to memory");
	add_gpu(exec_offset, 0, 8192, MSM_BO_WC, "GPU runs an IB at a non-zero submit_offset (second page)");
	add_gpu(exec_unaligned_offset, 0, 4096, MSM_BO_WC, "GPU IB with submit_offset 2 runs from offset 0 (6.12 truncates)");
	add_gpu(exec_cmds, 0, 4096, MSM_BO_WC, "GPU runs both BUF cmds of one submit");
	add_gpu(exec_cmds, 1, 4096, MSM_BO_WC, "GPU does not run an IB_TARGET_BUF cmd by itself");
	add_gpu(exec_cmds, 2, 4096, MSM_BO_WC, "GPU IB1 calls an IB_TARGET_BUF as IB2 and resumes after it");
	add(c_exec_ctx_restore, 0, "GPU CTX_RESTORE_BUF runs on a file's first submit, not on its second");
	add(c_exec_ctx_restore, 1, "GPU CTX_RESTORE_BUF runs again after another file submitted");
	add_gpu(exec_reloc, 0, 4096, MSM_BO_WC, "GPU reloc patches the CP_MEM_WRITE address with iova+16, the write lands there");
	add_gpu(exec_reloc, 1, 4096, MSM_BO_WC, "SUBMIT relocs with shift -4 and or 3, shift 4, and a repeated offset patch exactly");
	add_gpu(exec_readonly, 0, 4096, MSM_BO_WC | MSM_BO_GPU_READONLY, "GPU CP_MEM_WRITE into a GPU_READONLY BO is dropped, the fence still signals");
	add_gpu(exec_queues, 0, 4096, MSM_BO_WC, "SUBMIT fences on a new queue are 1, 2, 3 and run in order");
	add_gpu(exec_queues, 1, 4096, MSM_BO_WC, "SUBMIT on queues of prio 0, 1, 2: each first fence is 1, all run");
	add(c_exec_fence_only, 0, "SUBMIT without bos or cmds (fence only) signals");
	add(c_exec_fence_only, MSM_SUBMIT_NO_IMPLICIT, "SUBMIT NO_IMPLICIT fence only signals");
	add_gpu(exec_no_implicit, 0, 4096, MSM_BO_WC, "GPU submit with NO_IMPLICIT, bo NO_IMPLICIT and DUMP writes its BO");
	add(c_exec_fence_fd, 0, "SUBMIT FENCE_FD_OUT sync_file is CLOEXEC, polls readable, feeds FENCE_FD_IN");
	add(c_exec_syncobj_out, 0, "SUBMIT SYNCOBJ_OUT syncobj signals (SYNCOBJ_WAIT)");
	add(c_exec_syncobj_in_reset, 0, "SUBMIT SYNCOBJ_IN with RESET consumes the fence (next use EINVAL)");
	add(c_exec_fence_sn, 0, "SUBMIT FENCE_SN_IN 1000 uses that fence id for WAIT_FENCE");
	add_gpu(exec_suspend, 0, 4096, MSM_BO_WC, "GET_PARAM SUSPENDS grows over 600 ms idle and the GPU runs after resume");

	/* a job held on CP_WAIT_REG_MEM */
	add(c_stall_setup, 0, "GPU CP_WAIT_REG_MEM on an unset semaphore holds the IB");
	add(c_stall_wait_fence, 0, "WAIT_FENCE poll on the held job returns ETIMEDOUT");
	add(c_stall_wait_fence, 50, "WAIT_FENCE 50 ms deadline on the held job returns ETIMEDOUT in time");
	add(c_stall_cpu_prep, 0, "GEM_CPU_PREP WRITE|NOSYNC on the held job's WRITE BO returns EBUSY");
	add(c_stall_cpu_prep, 1, "GEM_CPU_PREP READ with a past deadline on the WRITE BO returns EBUSY");
	add(c_stall_cpu_prep, 2, "GEM_CPU_PREP READ with a 50 ms deadline on the WRITE BO returns ETIMEDOUT");
	add(c_stall_cpu_prep, 3, "GEM_CPU_PREP READ|NOSYNC on the held job's READ BO returns 0");
	add(c_stall_cpu_prep, 4, "GEM_CPU_PREP WRITE|NOSYNC on the held job's READ BO returns EBUSY");
	add(c_stall_poll, 0, "poll on the held job's sync_file is not readable");
	add(c_stall_sn_busy, 0, "SUBMIT FENCE_SN_IN with the held job's fence id rejected with EINVAL");
	add(c_stall_release, 0, "CPU write releases CP_WAIT_REG_MEM: job completes without a fault");

	/* a job that never completes */
	add(c_hang_recover, 0, "GPU hang on CP_WAIT_REG_MEM is recovered by hangcheck: WAIT_FENCE returns 0");
	add(c_hang_abandoned, 0, "GPU hung IB is abandoned at the WAIT_REG_MEM");
	add(c_hang_faults, 0, "GET_PARAM FAULTS grew by exactly 1 after the hang");
	add(c_hang_queue_faults, 0, "SUBMITQUEUE_QUERY FAULTS is 1 on the hung queue, unchanged on queue 0");
	add(c_hang_sync_file, 0, "SUBMIT hung job's sync_file is signalled with status 1 after recovery");
	add(c_hang_replay, 0, "GPU job queued behind the hang is replayed and completes");
	add(c_hang_after, 0, "GPU CP_MEM_WRITE works again after recovery");

	/* hostile command streams: QEMU lives on, the driver recovers */
	add_gpu(hostile, 0, 4096, MSM_BO_WC, "GPU hostile: a self-referencing IB ends, then the GPU still executes");
	add_gpu(hostile, 1, 4096, MSM_BO_WC, "GPU hostile: CP_MEM_WRITE to an unmapped GPU address, then the GPU still executes");
	add_gpu(hostile, 2, 4096, MSM_BO_WC, "GPU hostile: an IB at an unmapped GPU address, then the GPU still executes");
	add_gpu(hostile, 3, 4096, MSM_BO_WC, "GPU hostile: 512 dwords of garbage packets, then the GPU still executes");
}

/* ===== main ================================================================= */

static void find_debugfs(void)
{
	struct stat sb;
	char p[160];

	if (fstat(g_fd, &sb))
		return;
	snprintf(p, sizeof(p), "/sys/kernel/debug/dri/%u", minor(sb.st_rdev));
	if (access(p, F_OK)) {
		mkdir("/sys/kernel/debug", 0755);
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	}
	if (access(p, F_OK) == 0)
		snprintf(g_dbg, sizeof(g_dbg), "%s", p);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	g_page = sysconf(_SC_PAGESIZE);
	ktap_print_header();

	g_badptr = mmap(NULL, g_page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	g_edge = mmap(NULL, 2 * g_page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	g_strbuf = malloc(g_page + 2);
	if (g_badptr == MAP_FAILED || g_edge == MAP_FAILED || !g_strbuf ||
	    mprotect(g_edge + g_page, g_page, PROT_NONE)) {
		snprintf(g_nodev, sizeof(g_nodev), "test setup: %s", strerror(errno));
	} else {
		memset(g_strbuf, 'p', g_page + 1);
		g_strbuf[g_page + 1] = 0;
		g_fd = msm_open_render(g_render, sizeof(g_render), g_nodev,
				       sizeof(g_nodev));
	}
	/* the cases depend on the driver's version: register them after */
	if (g_fd >= 0)
		driver_version_init(g_fd);
	register_cases();
	ktap_set_plan(g_ncases);
	if (g_fd >= 0) {
		uint64_t v = 0;
		int r = get_param(g_fd, MSM_PARAM_CHIP_ID, &v);

		find_debugfs();
		fixture_init();
		ktap_print_msg("%s: chip id 0x%llx (%s); debugfs %s; page size %ld",
			       g_render, (unsigned long long)v, r ? strerror(-r) : "ok",
			       g_dbg[0] ? g_dbg : "not available", g_page);
		ktap_print_msg("msm %d.%d.%d on Linux %s%s", g_drv.major, g_drv.minor,
			       g_drv.patch, g_drv.release,
			       g_drv.known ? "" : " (unknown: cases assume msm 1.12)");
	} else {
		ktap_print_msg("%s", g_nodev);
	}

	for (unsigned i = 0; i < g_ncases; i++) {
		const struct tcase *c = &g_cases[i];
		char why[WHY_LEN] = "";
		int r;

		if (g_nodev[0]) {
			ktap_test_fail(c->name, "%s", g_nodev);
			continue;
		}
		if (c->gpu)
			r = with_pair(c->gpu, c->arg, c->cmd_size, c->dst_flags, why);
		else
			r = c->fn(c->arg, why);
		if (r == 0)
			ktap_test_pass(c->name);
		else if (r > 0)
			ktap_test_skip(c->name, "%s", why);
		else
			ktap_test_fail(c->name, "%s", why[0] ? why : "failed");
	}
	return ktap_finished();
}
