// SPDX-License-Identifier: GPL-2.0
/*
 * mesa_egl - Debian's own Mesa on the emulated Adreno 200
 * (docs/suites/mesa.md): the parent, which prints the KTAP.
 *
 * First the msm render node; then Mesa runs in a forked child (the cases
 * of mesa_egl.c, mesa_child.c), which reports every case over a pipe, so
 * that a crash or a hang in Mesa fails the case that was running (signal
 * named), the cases after it as not run, and the run goes on.  The child's
 * stdout and stderr (Mesa's messages: EGL_LOG_LEVEL, LIBGL_DEBUG,
 * FD_MESA_DEBUG; the one line per format query of FD_MESA_DEBUG=msgs is
 * only counted) come back as "# mesa: " diagnostics.  At the end eglinfo
 * (mesa-utils-bin) runs once, as an independent check of the driver name;
 * its exit status is not checked (it fails on the X11 and Wayland
 * platforms, which have no server here).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/drm.h>

#include "ktap.h"
#include "mesa.h"

#define RENDER_NODE	"/dev/dri/renderD128"
#define EGLINFO		"/usr/bin/eglinfo.aarch64-linux-gnu"
#define EGLINFO_ALT	"/usr/bin/eglinfo"

/* Bounds; all of it takes about 2 s.  /init's limit is 300 s. */
#define NODE_WAIT_MS	5000	/* the msm render node after boot */
#define STALL_MS	60000	/* no output from the Mesa child: hung */
#define CHILD_MS	180000	/* the whole Mesa child */
#define QUIT_MS		10000	/* its backtrace after SIGQUIT */
#define EGLINFO_MS	60000

/* KTAP number of mesa_cases[0]: case 1 is the render node */
#define CASE_BASE	2

static void result(const char *name, int kind, const char *why)
{
	if (kind == R_PASS)
		ktap_test_pass(name);
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

/*
 * fork() with the child's stdout and stderr on out, and SIGPIPE back to
 * its default (main() ignores it): 0 in the child, else the pid or -1.
 */
static pid_t fork_output(int out)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		dup2(out, 1);
		dup2(out, 2);
	}
	return pid;
}

/* Run the case table in a child; one result per case. */
static void run_child(void)
{
	char why[WHY_LEN];
	int rep[2], log[2], ack[2], st = 0, next = 0, running = -1;
	long long start = now_ms(), last = start;
	bool hung = false, log_open = true, rep_open = true;
	pid_t pid = -1;

	if (pipe2(rep, O_CLOEXEC) || pipe2(ack, O_CLOEXEC) ||
	    pipe2(log, O_CLOEXEC | O_NONBLOCK))
		snprintf(why, sizeof(why), "pipe: %s", strerror(errno));
	else if ((pid = fork_output(log[1])) < 0)
		snprintf(why, sizeof(why), "fork: %s", strerror(errno));
	if (pid < 0) {
		for (; next < (int)mesa_ncases; next++)
			result(mesa_cases[next].name, R_FAIL, why);
		return;
	}
	if (pid == 0) {
		close(rep[0]);
		close(log[0]);
		close(ack[1]);
		/* blocking again for Mesa: O_NONBLOCK is per open file */
		fcntl(log[1], F_SETFL, 0);
		mesa_child(rep[1], ack[0]);
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
				result(mesa_cases[next++].name, r.kind, r.text);
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
	for (; next < (int)mesa_ncases; next++) {
		char w2[WHY_LEN + 40];

		if (next == running)
			snprintf(w2, sizeof(w2), "%s in this case", why);
		else
			snprintf(w2, sizeof(w2), "not run: %s in case %d", why,
				 running + CASE_BASE);
		result(mesa_cases[next].name, R_FAIL, w2);
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
	pid = fork_output(p[1]);
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };

		/* the Mesa child's debug output is enough */
		unsetenv("EGL_LOG_LEVEL");
		unsetenv("LIBGL_DEBUG");
		unsetenv("FD_MESA_DEBUG");
		setenv("XDG_RUNTIME_DIR", "/tmp", 1);
		execv(path, argv);
		_exit(127);
	}
	if (pid < 0) {
		snprintf(why, WHY_LEN, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return R_FAIL;
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
	ktap_set_plan(mesa_ncases + 2);

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
		for (size_t i = 0; i < mesa_ncases; i++)
			result(mesa_cases[i].name, R_SKIP, "no msm render node");
	}

	why[0] = '\0';
	r = r == R_PASS ? c_eglinfo(why) : R_SKIP;
	result(eglinfo_name, r, r == R_SKIP && !why[0] ? "no msm render node" : why);
	return ktap_finished();
}
