// SPDX-License-Identifier: GPL-2.0
/*
 * mesa_egl - Debian's own Mesa (bookworm, freedreno's msm_dri.so) on the
 * emulated Adreno 200, through the unmodified drm/msm driver.
 *
 * EGL on the surfaceless platform (EGL_MESA_platform_surfaceless), a GLES2
 * context made current without a surface (EGL_KHR_surfaceless_context),
 * the GL strings, then work that makes freedreno's a2xx backend (fd2)
 * submit command streams to the GPU: a glFinish with nothing to draw, a
 * clear into a framebuffer object and a glReadPixels of it.  Each GPU case
 * checks that a submit reached the GPU (the "gpu-irq" count in
 * /proc/interrupts grows: every msm submit ends in CP_INTERRUPT) and that
 * the kernel log written during the case has no msm error: no CP_INT,
 * MH_INT or RBBM_INT warning from a2xx_irq(), no hangcheck, no recovery,
 * no fault.  A CP_INT there is the GPU rejecting a packet Mesa sent
 * (OPCODE_ERROR, PROTECTED_MODE_ERROR, ...): on real hardware Mesa's fd2
 * streams raise none.
 *
 * The model has no 3D pipe (docs/devices/agpu.md): draws, clears and GMEM
 * resolves are accepted and ignored, so the pixels glReadPixels returns
 * are what the buffer held before, not the clear colour.  The readback
 * case reports them and checks only that the call completes.
 *
 * Mesa runs in a forked child: it reports every case over a pipe and the
 * parent prints the KTAP, so a crash or a hang in Mesa fails the case that
 * was running (signal named), the cases after it as not run, and the run
 * goes on.  The child's stdout and stderr (Mesa's messages: EGL_LOG_LEVEL,
 * LIBGL_DEBUG, FD_MESA_DEBUG; the one line per format query of
 * FD_MESA_DEBUG=msgs is only counted) come back as "# mesa: "
 * diagnostics, each case's before its result: the child waits for the
 * parent after every result.  At the end eglinfo (mesa-utils-bin) runs
 * once, as an independent check of the driver name; its exit status is
 * not checked (it fails on the X11 and Wayland platforms, which have no
 * server here).
 *
 * The program defines ioctl() itself (exported with
 * --export-dynamic-symbol), so that libdrm's and Mesa's calls land here
 * first: in the child every msm GET_PARAM with its answer, every GEM_NEW,
 * SUBMITQUEUE_NEW and GEM_SUBMIT, and every failing DRM ioctl is printed,
 * and a count per ioctl at the end.  That is the conversation between Mesa
 * and the kernel, without strace in the guest.
 *
 * Mesa's silent software fallback: when the hardware driver fails,
 * eglInitialize() retries with swrast (llvmpipe) and succeeds.  So the
 * driver case asks EGL which driver it loaded (EGL_MESA_query_driver) and
 * the renderer case wants "FD200", never "llvmpipe".
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/drm.h>
#include <drm/msm_drm.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define RENDER_NODE	"/dev/dri/renderD128"
#define EGLINFO		"/usr/bin/eglinfo.aarch64-linux-gnu"
#define EGLINFO_ALT	"/usr/bin/eglinfo"

/* Bounds; all of it takes about 2 s.  /init's limit is 300 s. */
#define NODE_WAIT_MS	5000	/* the msm render node after boot */
#define STALL_MS	60000	/* no output from the Mesa child: hung */
#define CHILD_MS	180000	/* the whole Mesa child */
#define QUIT_MS		10000	/* its backtrace after SIGQUIT */
#define EGLINFO_MS	60000

/* KTAP number of cases[0]: case 1 is the render node */
#define CASE_BASE	2

/* Expected identity (freedreno_devices.py GPUId(200), getstring.c) */
#define WANT_DRIVER	"msm"
#define WANT_RENDERER	"FD200"
#define WANT_VENDOR	"freedreno"
#define WANT_VERSION	"OpenGL ES 2.0"

#define FBO_W		64
#define FBO_H		64

enum { R_PASS, R_FAIL, R_SKIP, R_START, R_DIAG };

#define WHY_LEN		480
#define PASS()		return R_PASS
#define FAIL(...)	do { snprintf(why, WHY_LEN, __VA_ARGS__); return R_FAIL; } while (0)
#define SKIP(...)	do { snprintf(why, WHY_LEN, __VA_ARGS__); return R_SKIP; } while (0)

struct report {
	int idx;
	int kind;
	char text[WHY_LEN];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- the child's state ------------------------------------------------------ */

static struct {
	int report_fd;
	int ack_fd;	/* the parent has printed a case's result */
	EGLDisplay dpy;
	EGLConfig cfg;
	EGLContext ctx;
	bool initialized, current;
	GLuint tex, fbo;
	/* the kernel log and the GPU interrupt count at the start of a case */
	int kmsg_fd;
	long long irqs;
} g = {
	.report_fd = -1,
	.ack_fd = -1,
	.dpy = EGL_NO_DISPLAY,
	.cfg = EGL_NO_CONFIG_KHR,
	.ctx = EGL_NO_CONTEXT,
	.kmsg_fd = -1,
};

static void report(int idx, int kind, const char *text)
{
	struct report r = { .idx = idx, .kind = kind };

	snprintf(r.text, sizeof(r.text), "%s", text);
	/* Mesa's messages before the report that follows them */
	fflush(stdout);
	fflush(stderr);
	/* one write of less than PIPE_BUF: atomic, from any of Mesa's threads */
	if (write(g.report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
	/*
	 * After a case's result Mesa waits until the parent has printed it,
	 * so that the next case's messages come after it on the console.
	 */
	if (kind != R_START && kind != R_DIAG) {
		char c;

		while (read(g.ack_fd, &c, 1) < 0 && errno == EINTR)
			;
	}
}

/* A diagnostic line in the parent's KTAP; safe from any thread. */
static KTAP_PRINTF(1, 2) void diag(const char *fmt, ...)
{
	char text[WHY_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	report(-1, R_DIAG, text);
}

static bool has_ext(const char *list, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = list; p && (p = strstr(p, ext)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static const char *egl_err(void)
{
	static char buf[32];
	EGLint e = eglGetError();

	switch (e) {
#define E(x) case x: return #x
	E(EGL_SUCCESS); E(EGL_NOT_INITIALIZED); E(EGL_BAD_ACCESS);
	E(EGL_BAD_ALLOC); E(EGL_BAD_ATTRIBUTE); E(EGL_BAD_CONFIG);
	E(EGL_BAD_CONTEXT); E(EGL_BAD_CURRENT_SURFACE); E(EGL_BAD_DISPLAY);
	E(EGL_BAD_MATCH); E(EGL_BAD_NATIVE_PIXMAP); E(EGL_BAD_NATIVE_WINDOW);
	E(EGL_BAD_PARAMETER); E(EGL_BAD_SURFACE); E(EGL_CONTEXT_LOST);
#undef E
	}
	snprintf(buf, sizeof(buf), "EGL error 0x%x", e);
	return buf;
}

static const char *gl_err_name(GLenum e)
{
	static char buf[32];

	switch (e) {
#define E(x) case x: return #x
	E(GL_NO_ERROR); E(GL_INVALID_ENUM); E(GL_INVALID_VALUE);
	E(GL_INVALID_OPERATION); E(GL_INVALID_FRAMEBUFFER_OPERATION);
	E(GL_OUT_OF_MEMORY);
#undef E
	}
	snprintf(buf, sizeof(buf), "GL error 0x%x", e);
	return buf;
}

/* The first GL error since the last call, or NULL (the queue is drained). */
static const char *gl_err(void)
{
	GLenum first = glGetError(), e;

	for (int i = 0; i < 16 && (e = glGetError()) != GL_NO_ERROR; i++)
		;
	return first == GL_NO_ERROR ? NULL : gl_err_name(first);
}

/* ---- the kernel log and the GPU interrupt ----------------------------------- */

/* The "gpu-irq" line of /proc/interrupts, summed over the CPUs; -1 if none. */
static long long gpu_irqs(void)
{
	char line[1024];
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p, *end;

		if (!strstr(line, "gpu-irq") || !(p = strchr(line, ':')))
			continue;
		sum = 0;
		for (p++;; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}

/* Start watching: the kernel log from now on, and the interrupt count. */
static void watch_begin(void)
{
	if (g.kmsg_fd < 0)
		g.kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (g.kmsg_fd >= 0)
		lseek(g.kmsg_fd, 0, SEEK_END);
	g.irqs = gpu_irqs();
}

/* msm messages that mean the GPU saw something wrong (a2xx_irq, msm_gpu.c) */
static const char *const bad_log[] = {
	"CP_INT:", "MH_INT:", "RBBM_INT:", "MMU_PAGE_FAULT",
	"hangcheck", "recover", "fault", "gpu hw init failed",
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
	if (g.kmsg_fd < 0) {
		snprintf(why, WHY_LEN, "/dev/kmsg: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = read(g.kmsg_fd, rec, sizeof(rec) - 1);
		char *msg, *p;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;message\n" plus continuation lines */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(bad_log); i++) {
			if (!strstr(msg, bad_log[i]))
				continue;
			if (bad < 20)
				diag("kernel: %s", msg);
			bad++;
			p = strstr(msg, "CP_INT: ");
			if (p)
				*cp_int |= (unsigned int)strtoul(p + 8, NULL, 16);
			break;
		}
	}
	return bad;
}

/*
 * The end of a GPU case: 0 if a submit reached the GPU (when need_submit)
 * and the kernel logged no msm error, else -1 with why.
 */
static int watch_end(char *why, bool need_submit)
{
	long long irqs = gpu_irqs();
	unsigned int cp_int;
	int bad = watch_log(why, &cp_int);

	diag("gpu-irq: %lld -> %lld", g.irqs, irqs);
	if (bad < 0)
		return -1;
	if (bad > 0) {
		snprintf(why, WHY_LEN,
			 "%d msm error line(s) in the kernel log (CP_INT bits 0x%08x%s%s)",
			 bad, cp_int,
			 cp_int & (1u << 24) ? ": OPCODE_ERROR" : "",
			 cp_int & (1u << 25) ? ": PROTECTED_MODE_ERROR" : "");
		return -1;
	}
	if (need_submit && (irqs < 0 || irqs <= g.irqs)) {
		snprintf(why, WHY_LEN,
			 "no GPU interrupt during the case (gpu-irq %lld -> %lld): nothing was submitted",
			 g.irqs, irqs);
		return -1;
	}
	return 0;
}

/* ---- the ioctls Mesa makes --------------------------------------------------- */

#define DRM_NR_MAX	0x100

static struct {
	volatile bool on;		/* in the child, while Mesa runs */
	unsigned int calls[DRM_NR_MAX];
	unsigned int errors[DRM_NR_MAX];
} ioc;

static const char *drm_nr_name(unsigned int nr)
{
	static const char *const msm[] = {
		"MSM_GET_PARAM", "MSM_SET_PARAM", "MSM_GEM_NEW", "MSM_GEM_INFO",
		"MSM_GEM_CPU_PREP", "MSM_GEM_CPU_FINI", "MSM_GEM_SUBMIT",
		"MSM_WAIT_FENCE", "MSM_GEM_MADVISE", "MSM_GEM_SVM_NEW",
		"MSM_SUBMITQUEUE_NEW", "MSM_SUBMITQUEUE_CLOSE",
		"MSM_SUBMITQUEUE_QUERY",
	};
	static char buf[4][24];
	static unsigned int n;
	char *b;

	if (nr >= DRM_COMMAND_BASE && nr - DRM_COMMAND_BASE < ARRAY_SIZE(msm))
		return msm[nr - DRM_COMMAND_BASE];
	switch (nr) {
	case 0x00: return "VERSION";
	case 0x01: return "GET_UNIQUE";
	case 0x02: return "GET_MAGIC";
	case 0x09: return "GEM_CLOSE";
	case 0x0a: return "GEM_FLINK";
	case 0x0b: return "GEM_OPEN";
	case 0x0c: return "GET_CAP";
	case 0x0d: return "SET_CLIENT_CAP";
	case 0x2d: return "PRIME_HANDLE_TO_FD";
	case 0x2e: return "PRIME_FD_TO_HANDLE";
	case 0xbf: return "SYNCOBJ_CREATE";
	case 0xc0: return "SYNCOBJ_DESTROY";
	case 0xc1: return "SYNCOBJ_HANDLE_TO_FD";
	case 0xc2: return "SYNCOBJ_FD_TO_HANDLE";
	case 0xc3: return "SYNCOBJ_WAIT";
	case 0xc4: return "SYNCOBJ_RESET";
	case 0xc5: return "SYNCOBJ_SIGNAL";
	}
	b = buf[__atomic_fetch_add(&n, 1, __ATOMIC_RELAXED) % 4];
	snprintf(b, sizeof(buf[0]), "DRM nr 0x%02x", nr);
	return b;
}

static const char *msm_param_name(unsigned int p)
{
	static const char *const names[] = {
		[MSM_PARAM_GPU_ID] = "GPU_ID", [MSM_PARAM_GMEM_SIZE] = "GMEM_SIZE",
		[MSM_PARAM_CHIP_ID] = "CHIP_ID", [MSM_PARAM_MAX_FREQ] = "MAX_FREQ",
		[MSM_PARAM_TIMESTAMP] = "TIMESTAMP", [MSM_PARAM_GMEM_BASE] = "GMEM_BASE",
		[MSM_PARAM_PRIORITIES] = "PRIORITIES", [MSM_PARAM_PP_PGTABLE] = "PP_PGTABLE",
		[MSM_PARAM_FAULTS] = "FAULTS", [MSM_PARAM_SUSPENDS] = "SUSPENDS",
		[MSM_PARAM_SYSPROF] = "SYSPROF", [MSM_PARAM_COMM] = "COMM",
		[MSM_PARAM_CMDLINE] = "CMDLINE", [MSM_PARAM_VA_START] = "VA_START",
		[MSM_PARAM_VA_SIZE] = "VA_SIZE", [0x10] = "HIGHEST_BANK_BIT",
		[0x11] = "RAYTRACING", [0x12] = "UBWC_SWIZZLE", [0x13] = "MACROTILE_MODE",
	};

	return p < ARRAY_SIZE(names) && names[p] ? names[p] : "?";
}

/* What one DRM ioctl did, into the diagnostics; counted per number. */
static void log_ioctl(unsigned long req, void *arg, long ret, int err)
{
	unsigned int nr = _IOC_NR(req);
	const char *res = ret < 0 ? strerror(err) : "0";

	__atomic_fetch_add(&ioc.calls[nr], 1, __ATOMIC_RELAXED);
	if (ret < 0)
		__atomic_fetch_add(&ioc.errors[nr], 1, __ATOMIC_RELAXED);
	if (req == DRM_IOCTL_MSM_GET_PARAM) {
		struct drm_msm_param *p = arg;

		diag("ioctl MSM_GET_PARAM %s (0x%x) -> %s, value %llu (0x%llx)",
		     msm_param_name(p->param), p->param, res,
		     (unsigned long long)p->value, (unsigned long long)p->value);
	} else if (req == DRM_IOCTL_MSM_GEM_NEW) {
		struct drm_msm_gem_new *p = arg;

		diag("ioctl MSM_GEM_NEW size %llu flags 0x%x -> %s, handle %u",
		     (unsigned long long)p->size, p->flags, res, p->handle);
	} else if (req == DRM_IOCTL_MSM_SUBMITQUEUE_NEW) {
		struct drm_msm_submitqueue *p = arg;

		diag("ioctl MSM_SUBMITQUEUE_NEW flags 0x%x prio %u -> %s, id %u",
		     p->flags, p->prio, res, p->id);
	} else if (req == DRM_IOCTL_MSM_GEM_SUBMIT) {
		struct drm_msm_gem_submit *p = arg;

		diag("ioctl MSM_GEM_SUBMIT flags 0x%x queue %u, %u cmds, %u bos -> %s, fence %u",
		     p->flags, p->queueid, p->nr_cmds, p->nr_bos, res, p->fence);
	} else if (ret < 0) {
		diag("ioctl %s (0x%lx) -> %s", drm_nr_name(nr), req, res);
	}
}

/*
 * Every ioctl() of the process, libdrm's and Mesa's included: the
 * executable exports this symbol, which comes first in the lookup scope.
 */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	long ret;
	int err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	ret = syscall(SYS_ioctl, fd, req, arg);
	if (!ioc.on || _IOC_TYPE(req) != DRM_IOCTL_BASE)
		return ret;
	err = ret < 0 ? errno : 0;
	log_ioctl(req, arg, ret, err);
	errno = err;
	return ret;
}

static void ioctl_summary(void)
{
	char line[WHY_LEN];
	int n = 0;

	for (unsigned int nr = 0; nr < DRM_NR_MAX; nr++) {
		if (!ioc.calls[nr])
			continue;
		n += snprintf(line + n, sizeof(line) - n, "%s%s %u", n ? ", " : "",
			      drm_nr_name(nr), ioc.calls[nr]);
		if (ioc.errors[nr] && n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, " (%u failed)",
				      ioc.errors[nr]);
		if (n >= (int)sizeof(line) - 40) {
			diag("ioctls: %s", line);
			n = 0;
		}
	}
	if (n)
		diag("ioctls: %s", line);
}

/* ---- cases ----------------------------------------------------------------- */

static int c_display(char *why)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;
	const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);

	if (!cext)
		FAIL("no client extensions (EGL_EXT_client_extensions): %s", egl_err());
	diag("EGL client extensions: %s", cext);
	if (!has_ext(cext, "EGL_MESA_platform_surfaceless"))
		FAIL("EGL_MESA_platform_surfaceless not among the client extensions");
	get_platform_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_platform_display)
		FAIL("no eglGetPlatformDisplayEXT");
	g.dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
				     EGL_DEFAULT_DISPLAY, NULL);
	if (g.dpy == EGL_NO_DISPLAY)
		FAIL("eglGetPlatformDisplayEXT(SURFACELESS_MESA): %s", egl_err());
	PASS();
}

static int c_initialize(char *why)
{
	EGLint major = 0, minor = 0;
	long long t = now_ms();

	if (g.dpy == EGL_NO_DISPLAY)
		SKIP("no display");
	if (!eglInitialize(g.dpy, &major, &minor))
		FAIL("eglInitialize: %s", egl_err());
	g.initialized = true;
	diag("eglInitialize: EGL %d.%d in %lld ms", major, minor, now_ms() - t);
	diag("EGL_VENDOR: %s", eglQueryString(g.dpy, EGL_VENDOR));
	diag("EGL_VERSION: %s", eglQueryString(g.dpy, EGL_VERSION));
	diag("EGL_CLIENT_APIS: %s", eglQueryString(g.dpy, EGL_CLIENT_APIS));
	diag("EGL_EXTENSIONS: %s", eglQueryString(g.dpy, EGL_EXTENSIONS));
	PASS();
}

static int c_driver(char *why)
{
	PFNEGLGETDISPLAYDRIVERNAMEPROC driver_name;
	const char *name;

	if (!g.initialized)
		SKIP("EGL not initialized");
	if (!has_ext(eglQueryString(g.dpy, EGL_EXTENSIONS), "EGL_MESA_query_driver"))
		FAIL("no EGL_MESA_query_driver: cannot tell msm from a software fallback");
	driver_name = (PFNEGLGETDISPLAYDRIVERNAMEPROC)
		eglGetProcAddress("eglGetDisplayDriverName");
	if (!driver_name)
		FAIL("no eglGetDisplayDriverName");
	name = driver_name(g.dpy);
	diag("EGL driver name: %s", name ? name : "(null)");
	if (!name || strcmp(name, WANT_DRIVER))
		FAIL("driver \"%s\", expected \"" WANT_DRIVER "\" (swrast/kms_swrast: Mesa fell back to software)",
		     name ? name : "(null)");
	PASS();
}

static int c_config(char *why)
{
	static const EGLint attrs[] = {
		EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
		EGL_SURFACE_TYPE, EGL_DONT_CARE,
		EGL_NONE,
	};
	const char *ext;
	EGLint n = 0;

	if (!g.initialized)
		SKIP("EGL not initialized");
	ext = eglQueryString(g.dpy, EGL_EXTENSIONS);
	if (!has_ext(ext, "EGL_KHR_surfaceless_context"))
		FAIL("no EGL_KHR_surfaceless_context");
	if (has_ext(ext, "EGL_KHR_no_config_context") ||
	    has_ext(ext, "EGL_MESA_configless_context")) {
		diag("config: EGL_NO_CONFIG_KHR (no-config context)");
		g.cfg = EGL_NO_CONFIG_KHR;
		PASS();
	}
	if (!eglChooseConfig(g.dpy, attrs, &g.cfg, 1, &n) || n < 1)
		FAIL("eglChooseConfig(ES2): %s, %d configs", egl_err(), n);
	PASS();
}

static int c_context(char *why)
{
	static const EGLint attrs[] = {
		EGL_CONTEXT_CLIENT_VERSION, 2,
		EGL_NONE,
	};

	if (!g.initialized)
		SKIP("EGL not initialized");
	if (!eglBindAPI(EGL_OPENGL_ES_API))
		FAIL("eglBindAPI(EGL_OPENGL_ES_API): %s", egl_err());
	g.ctx = eglCreateContext(g.dpy, g.cfg, EGL_NO_CONTEXT, attrs);
	if (g.ctx == EGL_NO_CONTEXT)
		FAIL("eglCreateContext(ES 2): %s", egl_err());
	PASS();
}

static int c_current(char *why)
{
	if (g.ctx == EGL_NO_CONTEXT)
		SKIP("no context");
	if (!eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g.ctx))
		FAIL("eglMakeCurrent(no surface): %s", egl_err());
	g.current = true;
	PASS();
}

/* arg: the GLenum name; want: the prefix it must start with */
static int gl_string(GLenum name, const char *label, const char *want,
		     char *why)
{
	const char *s;

	if (!g.current)
		SKIP("no current context");
	s = (const char *)glGetString(name);
	diag("%s: %s", label, s ? s : "(null)");
	if (!s)
		FAIL("glGetString(%s): %s", label, gl_err() ?: "NULL");
	if (strncmp(s, want, strlen(want)))
		FAIL("%s \"%s\", expected \"%s...\"", label, s, want);
	PASS();
}

static int c_vendor(char *why)
{
	return gl_string(GL_VENDOR, "GL_VENDOR", WANT_VENDOR, why);
}

static int c_renderer(char *why)
{
	return gl_string(GL_RENDERER, "GL_RENDERER", WANT_RENDERER, why);
}

static int c_version(char *why)
{
	int r = gl_string(GL_VERSION, "GL_VERSION", WANT_VERSION, why);

	if (g.current) {
		diag("GL_SHADING_LANGUAGE_VERSION: %s",
		     (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
		diag("GL_EXTENSIONS: %s", (const char *)glGetString(GL_EXTENSIONS));
	}
	return r;
}

/* glFinish with no framebuffer bound: nothing to draw, no fd2 batch */
static int c_finish_empty(char *why)
{
	const char *e;

	if (!g.current)
		SKIP("no current context");
	watch_begin();
	glFinish();
	e = gl_err();
	if (e)
		FAIL("glFinish: %s", e);
	if (watch_end(why, false))
		return R_FAIL;
	PASS();
}

static int c_fbo(char *why)
{
	GLenum st;
	const char *e;

	if (!g.current)
		SKIP("no current context");
	glGenTextures(1, &g.tex);
	glBindTexture(GL_TEXTURE_2D, g.tex);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, FBO_W, FBO_H, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	glGenFramebuffers(1, &g.fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
			       GL_TEXTURE_2D, g.tex, 0);
	e = gl_err();
	if (e)
		FAIL("texture/framebuffer setup: %s", e);
	st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE)
		FAIL("glCheckFramebufferStatus: 0x%x, expected GL_FRAMEBUFFER_COMPLETE", st);
	glViewport(0, 0, FBO_W, FBO_H);
	PASS();
}

/* the first clear into the FBO: fd2 emits its restore (fd2_emit_restore) */
static int c_clear(char *why)
{
	const char *e;

	if (!g.fbo)
		SKIP("no framebuffer object");
	watch_begin();
	glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	e = gl_err();
	if (e)
		FAIL("glClear + glFinish: %s", e);
	if (watch_end(why, true))
		return R_FAIL;
	PASS();
}

/* a second batch: a clear, then a readback, which flushes and waits */
static int c_readback(char *why)
{
	static uint8_t px[FBO_W * FBO_H * 4];
	const char *e;
	size_t clear = 0, zero = 0, other = 0;

	if (!g.fbo)
		SKIP("no framebuffer object");
	watch_begin();
	memset(px, 0xa5, sizeof(px));
	glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glReadPixels(0, 0, FBO_W, FBO_H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	e = gl_err();
	if (e)
		FAIL("glClear + glReadPixels: %s", e);
	for (size_t i = 0; i < sizeof(px); i += 4) {
		uint32_t v = (uint32_t)px[i] << 24 | px[i + 1] << 16 |
			     px[i + 2] << 8 | px[i + 3];

		if (v == 0x00ff00ff)
			clear++;
		else if (v == 0)
			zero++;
		else
			other++;
	}
	diag("glReadPixels RGBA: first pixel %02x%02x%02x%02x; %zu of %d pixels the clear colour 00ff00ff, %zu zero, %zu other",
	     px[0], px[1], px[2], px[3], clear, FBO_W * FBO_H, zero, other);
	diag("(no 3D pipe in the model: the clear is not rendered, the pixels are what the buffer held)");
	if (watch_end(why, true))
		return R_FAIL;
	PASS();
}

static int c_teardown(char *why)
{
	const char *e;

	if (!g.initialized)
		SKIP("EGL not initialized");
	if (g.current) {
		watch_begin();
		if (g.fbo) {
			glBindFramebuffer(GL_FRAMEBUFFER, 0);
			glDeleteFramebuffers(1, &g.fbo);
			glDeleteTextures(1, &g.tex);
		}
		e = gl_err();
		if (e)
			FAIL("deleting the framebuffer: %s", e);
		if (!eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
				    EGL_NO_CONTEXT))
			FAIL("eglMakeCurrent(none): %s", egl_err());
	}
	if (g.ctx != EGL_NO_CONTEXT && !eglDestroyContext(g.dpy, g.ctx))
		FAIL("eglDestroyContext: %s", egl_err());
	if (!eglTerminate(g.dpy))
		FAIL("eglTerminate: %s", egl_err());
	if (g.current && watch_end(why, false))
		return R_FAIL;
	PASS();
}

static const struct mcase {
	const char *name;
	int (*fn)(char *why);
} cases[] = {
	{ "EGL surfaceless platform display (EGL_MESA_platform_surfaceless)", c_display },
	{ "eglInitialize", c_initialize },
	{ "EGL driver is msm, not a software fallback (EGL_MESA_query_driver)", c_driver },
	{ "EGL_KHR_surfaceless_context and a GLES2 config", c_config },
	{ "GLES2 context created", c_context },
	{ "context made current without a surface", c_current },
	{ "GL_VENDOR is " WANT_VENDOR, c_vendor },
	{ "GL_RENDERER is " WANT_RENDERER, c_renderer },
	{ "GL_VERSION is " WANT_VERSION, c_version },
	{ "glFinish with nothing drawn: no msm error", c_finish_empty },
	{ "framebuffer object on a 64x64 RGBA texture is complete", c_fbo },
	{ "glClear + glFinish into the FBO: a submit reaches the GPU, no msm error", c_clear },
	{ "glClear + glReadPixels: returns, a submit reaches the GPU, no msm error", c_readback },
	{ "context destroyed, eglTerminate", c_teardown },
};

/* ---- the child ------------------------------------------------------------- */

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	void *frames[64];
	char line[200];
	int n;

	(void)uc;
	n = snprintf(line, sizeof(line),
		     "mesa_egl: caught SIG%s (si_code %d, address %p) in thread %ld; backtrace:\n",
		     sigabbrev_np(sig), si->si_code, si->si_addr,
		     (long)syscall(SYS_gettid));
	if (write(2, line, n) < 0)
		_exit(4);
	n = backtrace(frames, ARRAY_SIZE(frames));
	backtrace_symbols_fd(frames, n, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void child(int fd, int ack)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGQUIT };
	struct sigaction sa = { .sa_sigaction = crash_handler, .sa_flags = SA_SIGINFO };
	char why[WHY_LEN];
	void *warm[2];

	g.report_fd = fd;
	g.ack_fd = ack;
	backtrace(warm, 2);	/* loads libgcc_s now, not in the handler */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	ioc.on = true;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r;

		report((int)i, R_START, "");
		why[0] = '\0';
		r = cases[i].fn(why);
		report((int)i, r, why);
	}
	ioc.on = false;
	ioctl_summary();
	_exit(0);
}

/* ---- the parent: KTAP ------------------------------------------------------ */

static void result(const char *name, int kind, const char *why)
{
	if (kind == R_PASS)
		ktap_test_pass("%s", name);
	else if (kind == R_SKIP)
		ktap_test_skip(name, "%s", why);
	else
		ktap_test_fail(name, "%s", why[0] ? why : "failed");
}

/* Mesa's output: every line a diagnostic, except the many of one kind */
static struct {
	char buf[8192];
	size_t used;
	unsigned int formats;	/* FD_MESA_DEBUG=msgs: one per format query */
} out;

static void mesa_line(const char *s, int len)
{
	if (memmem(s, len, "is_format_supported", 19)) {
		out.formats++;
		return;
	}
	if (len == 0)
		return;		/* EGL_LOG_LEVEL=debug ends lines twice */
	ktap_print_msg("mesa: %.*s", len, s);
}

/*
 * Everything fd has now (non-blocking), line by line; with flush also a
 * partial last line.  false at end of file.
 */
static bool relay_mesa(int fd, bool flush)
{
	bool open = true;
	char *nl;

	for (;;) {
		ssize_t n = read(fd, out.buf + out.used,
				 sizeof(out.buf) - 1 - out.used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			open = false;
		if (n <= 0)
			break;
		out.used += n;
		while ((nl = memchr(out.buf, '\n', out.used)) ||
		       out.used == sizeof(out.buf) - 1) {
			size_t len = nl ? (size_t)(nl - out.buf) : out.used;

			mesa_line(out.buf, (int)len);
			len += nl ? 1 : 0;
			memmove(out.buf, out.buf + len, out.used - len);
			out.used -= len;
		}
	}
	if ((flush || !open) && out.used) {
		mesa_line(out.buf, (int)out.used);
		out.used = 0;
	}
	return open;
}

/* Run the case table in a child; one result per case. */
static void run_child(void)
{
	char why[WHY_LEN];
	int rep[2], log[2], ack[2], st = 0, next = 0, running = -1;
	long long start = now_ms(), last = start;
	bool hung = false, log_open = true, rep_open = true;
	pid_t pid;

	if (pipe2(rep, O_CLOEXEC) || pipe2(ack, O_CLOEXEC) ||
	    pipe2(log, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(why, sizeof(why), "pipe: %s", strerror(errno));
		for (; next < (int)ARRAY_SIZE(cases); next++)
			result(cases[next].name, R_FAIL, why);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		close(rep[0]);
		close(log[0]);
		close(ack[1]);
		/* blocking again for Mesa: O_NONBLOCK is per open file */
		fcntl(log[1], F_SETFL, 0);
		dup2(log[1], 1);
		dup2(log[1], 2);
		child(rep[1], ack[0]);
	}
	close(rep[1]);
	close(log[1]);
	close(ack[0]);
	while (rep_open) {
		struct pollfd pf[2] = {
			{ .fd = rep[0], .events = POLLIN },
			{ .fd = log_open ? log[0] : -1, .events = POLLIN },
		};
		long long t = now_ms(), left = last + STALL_MS - t;
		struct report r;
		ssize_t n;

		if (start + CHILD_MS - t < left)
			left = start + CHILD_MS - t;
		if (left <= 0 || poll(pf, 2, (int)left) == 0) {
			hung = true;
			break;
		}
		last = now_ms();
		/* Mesa's messages first: they were written before the report */
		if (log_open)
			log_open = relay_mesa(log[0], false);
		if (!pf[0].revents)
			continue;
		n = read(rep[0], &r, sizeof(r));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rep_open = false;
			break;
		}
		if (n != sizeof(r))
			continue;
		/* what Mesa printed before this report comes first */
		if (log_open)
			log_open = relay_mesa(log[0], false);
		if (r.kind == R_DIAG) {
			ktap_print_msg("%s", r.text);
		} else if (r.kind == R_START) {
			running = r.idx;
		} else {
			if (r.idx == next)
				result(cases[next++].name, r.kind, r.text);
			if (write(ack[1], "", 1) < 0)
				break;
		}
	}
	if (hung) {
		/* a backtrace of the stuck thread, then stop it */
		kill(pid, SIGQUIT);
		for (int i = 0; i < QUIT_MS / 100 && waitpid(pid, &st, WNOHANG) == 0; i++)
			sleep_ms(100);
		kill(pid, SIGKILL);
	}
	close(ack[1]);
	waitpid(pid, &st, 0);
	relay_mesa(log[0], true);
	close(rep[0]);
	close(log[0]);
	if (out.formats)
		ktap_print_msg("mesa: (%u lines of fd2_screen_is_format_supported left out)",
			       out.formats);
	if (hung)
		snprintf(why, sizeof(why), "Mesa hung: no progress for %d s (%lld s into the run), killed",
			 STALL_MS / 1000, (now_ms() - start) / 1000);
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof(why), "Mesa died with SIG%s (signal %d)",
			 sigabbrev_np(WTERMSIG(st)), WTERMSIG(st));
	else
		snprintf(why, sizeof(why), "the Mesa child exited with status %d",
			 WEXITSTATUS(st));
	for (; next < (int)ARRAY_SIZE(cases); next++) {
		char w2[WHY_LEN + 40];

		if (next == running)
			snprintf(w2, sizeof(w2), "%s in this case", why);
		else
			snprintf(w2, sizeof(w2), "not run: %s in case %d", why,
				 running + CASE_BASE);
		result(cases[next].name, R_FAIL, w2);
	}
	ktap_print_msg("Mesa child: %lld ms", now_ms() - start);
}

/* ---- eglinfo --------------------------------------------------------------- */

/*
 * eglinfo 8.5.0 initializes every platform in turn and prints each one's
 * strings and configs.  Only the strings are relayed (the config tables
 * are long); the case wants "EGL driver name: msm" in the Surfaceless
 * platform's section.
 */
static int c_eglinfo(char *why)
{
	static char out[1 << 16];
	const char *path = access(EGLINFO, X_OK) == 0 ? EGLINFO : EGLINFO_ALT;
	char *section = NULL, *drv = NULL;
	size_t used = 0;
	long long start = now_ms();
	int p[2], st = 0;
	bool timed_out = false;
	pid_t pid;

	if (access(path, X_OK))
		SKIP("no %s (mesa-utils-bin)", EGLINFO);
	if (pipe2(p, O_CLOEXEC))
		FAIL("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };

		signal(SIGPIPE, SIG_DFL);
		dup2(p[1], 1);
		dup2(p[1], 2);
		/* the Mesa child's debug output is enough */
		unsetenv("EGL_LOG_LEVEL");
		unsetenv("LIBGL_DEBUG");
		unsetenv("FD_MESA_DEBUG");
		setenv("XDG_RUNTIME_DIR", "/tmp", 1);
		execv(path, argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		long long left = start + EGLINFO_MS - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			timed_out = true;
			kill(pid, SIGKILL);
			break;
		}
		n = read(p[0], out + used, sizeof(out) - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += n;
		if (used == sizeof(out) - 1)
			break;	/* enough; the rest is config tables */
	}
	close(p[0]);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	out[used] = '\0';
	for (char *s = strtok(out, "\n"); s; s = strtok(NULL, "\n")) {
		if (strstr(s, "platform") || strstr(s, "EGL ") ||
		    strstr(s, "eglinfo") || strstr(s, "error"))
			ktap_print_msg("eglinfo: %s", s);
		if (strstr(s, "Surfaceless platform"))
			section = s;
		else if (strstr(s, " platform:"))
			section = NULL;
		if (section && !drv && strncmp(s, "EGL driver name: ", 17) == 0)
			drv = s + 17;
	}
	ktap_print_msg("eglinfo: %lld ms, %s %d", now_ms() - start,
		       WIFSIGNALED(st) ? "signal" : "exit status",
		       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	if (timed_out)
		FAIL("eglinfo did not finish in %d s", EGLINFO_MS / 1000);
	if (!drv)
		FAIL("no \"EGL driver name\" in eglinfo's Surfaceless platform section");
	if (strcmp(drv, WANT_DRIVER))
		FAIL("eglinfo: Surfaceless platform driver \"%s\", expected \"" WANT_DRIVER "\"", drv);
	PASS();
}

/* ---- main ------------------------------------------------------------------ */

/* DRM_IOCTL_VERSION of the render node is msm (the emulated Adreno 200) */
static int c_node(char *why)
{
	char name[32] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	long long end = now_ms() + NODE_WAIT_MS;
	int fd;

	while ((fd = open(RENDER_NODE, O_RDWR | O_CLOEXEC)) < 0 &&
	       now_ms() < end)
		sleep_ms(50);
	if (fd < 0)
		FAIL("%s: %s (no msm device: is -device agpu on the command line?)",
		     RENDER_NODE, strerror(errno));
	if (ioctl(fd, DRM_IOCTL_VERSION, &v)) {
		snprintf(why, WHY_LEN, "DRM_IOCTL_VERSION: %s", strerror(errno));
		close(fd);
		return R_FAIL;
	}
	close(fd);
	ktap_print_msg("%s: %s %d.%d.%d", RENDER_NODE, name, v.version_major,
		       v.version_minor, v.version_patchlevel);
	if (strcmp(name, "msm"))
		FAIL("%s is \"%s\", expected \"msm\"", RENDER_NODE, name);
	PASS();
}

int main(void)
{
	static const char *const node_name = RENDER_NODE " is msm";
	static const char *const eglinfo_name =
		"eglinfo: the Surfaceless platform's EGL driver is msm";
	char why[WHY_LEN];
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a child that died must not kill us through the ack pipe */
	signal(SIGPIPE, SIG_IGN);
	ktap_print_header();
	ktap_set_plan(ARRAY_SIZE(cases) + 2);

	why[0] = '\0';
	r = c_node(why);
	result(node_name, r, why);

	/* Mesa's own diagnostics, unless the environment says otherwise */
	setenv("EGL_LOG_LEVEL", "debug", 0);
	setenv("LIBGL_DEBUG", "verbose", 0);
	setenv("FD_MESA_DEBUG", "msgs", 0);
	setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
	if (r == R_PASS) {
		run_child();
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			result(cases[i].name, R_SKIP, "no msm render node");
	}

	why[0] = '\0';
	r = r == R_PASS ? c_eglinfo(why) : R_SKIP;
	result(eglinfo_name, r, r == R_SKIP && !why[0] ? "no msm render node" : why);
	return ktap_finished();
}
