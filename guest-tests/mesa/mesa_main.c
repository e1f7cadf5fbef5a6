/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_egl - Debian's own Mesa on the emulated Adreno 200
 * (docs/suites/mesa.md): the parent, which prints the KTAP.
 *
 * First the msm render node; then Mesa runs in a forked child (the cases
 * of mesa_egl.c, mesa_child.c; watched through common/child.h), which
 * reports every case over a pipe, so
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
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/drm.h>

#include "child.h"
#include "ktap.h"
#include "mesa.h"

#define RENDER_NODE "/dev/dri/renderD128"
#define EGLINFO     "/usr/bin/eglinfo.aarch64-linux-gnu"
#define EGLINFO_ALT "/usr/bin/eglinfo"

/* Bounds; all of it takes about 2 s.  /init's limit is 300 s. */
#define NODE_WAIT_MS 5000   /* the msm render node after boot */
#define STALL_MS     60000  /* no output from the Mesa child: hung */
#define CHILD_MS     180000 /* the whole Mesa child */
#define QUIT_MS      10000  /* its backtrace after SIGQUIT */
#define EGLINFO_MS   60000
#define EGLINFO_MAX  (1 << 16) /* bytes of its output read; then configs */

/* KTAP number of mesa_cases[0]: case 1 is the render node */
#define CASE_BASE 2

/* FD_MESA_DEBUG=msgs: one line per format query, only counted */
static unsigned int format_lines;

/* Mesa's output: every line a diagnostic, except the many of one kind */
static void mesa_line(const char *s, size_t len, void *arg)
{
    (void)arg;
    if (memmem(s, len, "is_format_supported", 19)) {
        format_lines++;
        return;
    }
    if (len == 0) {
        return; /* EGL_LOG_LEVEL=debug ends lines twice */
    }
    ktap_print_msg("mesa: %.*s", (int)len, s);
}

/* The Mesa child's pipes (report, ack) and where its table is. */
struct mesa_run {
    int rep[2], ack[2];
    struct child_table t;
};

static void mesa_run_child(void *arg)
{
    struct mesa_run *run = arg;

    close(run->rep[0]);
    close(run->ack[1]);
    mesa_child(run->rep[1], run->ack[0]);
}

/* A report: a result is printed, then acknowledged (mesa_child.c). */
static bool on_report(int fd, void *arg)
{
    struct mesa_run *run = arg;
    struct child_report r;
    int got = child_table_read(&run->t, fd, &r);

    if (got == 1) {
        ktap_test_result(r.kind, mesa_cases[run->t.next++].name, r.text);
    }
    /* every result, in order or not: the child waits for it */
    if (got >= 0 && r.kind != CHILD_START && r.kind != CHILD_NOTE &&
        write(run->ack[1], "", 1) < 0) {
        return false;
    }
    return got >= 0;
}

/* Run the case table in a child; one result per case. */
static void run_child(void)
{
    static struct child c;
    struct mesa_run run = {
        .rep = {-1, -1},
        .ack = {-1, -1},
        .t = {.n = mesa_ncases, .running = -1},
    };
    struct child_table *t = &run.t;
    struct child_spec spec = {
        .fn = mesa_run_child,
        .arg = &run,
        .on_line = mesa_line,
        .on_event = on_report,
        .ctx = &run,
        .stall_ms = STALL_MS,
        .total_ms = CHILD_MS,
        .quit_ms = QUIT_MS,
        .output_is_progress = true,
    };
    struct child_result res = {.pid = -1};
    char why[WHY_LEN], w2[WHY_LEN + 40];
    long long start = now_ms();

    if (pipe2(run.rep, O_CLOEXEC) || pipe2(run.ack, O_CLOEXEC)) {
        res.err = errno;
    } else {
        spec.event_fd = run.rep[0];
        child_start(&c, &spec);
        close(run.rep[1]);
        close(run.ack[0]);
        child_watch(&c, &res);
        close(run.rep[0]);
        close(run.ack[1]);
    }
    if (format_lines) {
        ktap_print_msg(
            "mesa: (%u lines of fd2_screen_is_format_supported left out)",
            format_lines);
    }
    child_describe(&res, "Mesa", why, sizeof(why));
    for (; t->next < t->n; t->next++) {
        if (t->next == t->running) {
            snprintf(w2, sizeof(w2), "%s in this case", why);
        } else {
            snprintf(w2, sizeof(w2), "not run: %s in case %d", why,
                     t->running + CASE_BASE);
        }
        ktap_test_result(KTAP_FAIL, mesa_cases[t->next].name, w2);
    }
    ktap_print_msg("Mesa child: %lld ms", now_ms() - start);
}

/* ---- eglinfo ------------------------------------------------------------- */

/* What eglinfo said: the Surfaceless platform's driver name */
static struct {
    size_t bytes;     /* read so far, up to EGLINFO_MAX */
    bool surfaceless; /* in the Surfaceless platform's section */
    bool found;
    char drv[64];
} egl;

/* Only the strings are relayed: the config tables are long */
static void eglinfo_line(const char *s, size_t len, void *arg)
{
    char line[CHILD_LINE_MAX + 1];

    (void)arg;
    egl.bytes += len + 1;
    if (len == 0 || egl.bytes > EGLINFO_MAX) {
        return;
    }
    memcpy(line, s, len);
    line[len] = '\0';
    if (strstr(line, "platform") || strstr(line, "EGL ") ||
        strstr(line, "eglinfo") || strstr(line, "error")) {
        ktap_print_msg("eglinfo: %s", line);
    }
    if (strstr(line, "Surfaceless platform")) {
        egl.surfaceless = true;
    } else if (strstr(line, " platform:")) {
        egl.surfaceless = false;
    }
    if (egl.surfaceless && !egl.found &&
        strncmp(line, "EGL driver name: ", 17) == 0) {
        egl.found = true;
        str_copy(egl.drv, line + 17, sizeof(egl.drv));
    }
}

/*
 * eglinfo 8.5.0 initializes every platform in turn and prints each one's
 * strings and configs; the case wants "EGL driver name: msm" in the
 * Surfaceless platform's section.
 */
static int c_eglinfo(char *why)
{
    const char *path = access(EGLINFO, X_OK) == 0 ? EGLINFO : EGLINFO_ALT;
    char *argv[] = {(char *)path, NULL};
    struct child_spec spec = {
        .argv = argv,
        .on_line = eglinfo_line,
        .total_ms = EGLINFO_MS,
    };
    struct child_result res;

    if (access(path, X_OK)) {
        SKIP("no %s (mesa-utils-bin)", EGLINFO);
    }
    /* the Mesa child's debug output is enough; it has run */
    unsetenv("EGL_LOG_LEVEL");
    unsetenv("LIBGL_DEBUG");
    unsetenv("FD_MESA_DEBUG");
    setenv("XDG_RUNTIME_DIR", "/tmp", 1);
    if (child_run(&spec, &res)) {
        FAIL("cannot start eglinfo: %s", strerror(res.err));
    }
    ktap_print_msg("eglinfo: %lld ms, %s %d", res.run_ms,
                   res.signal ? "signal" : "exit status",
                   res.signal ? res.signal : res.exit_code);
    if (res.timed_out) {
        FAIL("eglinfo did not finish in %d s", EGLINFO_MS / 1000);
    }
    if (!egl.found) {
        FAIL(
            "no \"EGL driver name\" in eglinfo's Surfaceless platform section");
    }
    if (strcmp(egl.drv, WANT_DRIVER)) {
        FAIL("eglinfo: Surfaceless platform driver \"%s\", expected "
             "\"" WANT_DRIVER "\"",
             egl.drv);
    }
    PASS();
}

/* ---- main ---------------------------------------------------------------- */

/* DRM_IOCTL_VERSION of the render node is msm (the emulated Adreno 200) */
static int c_node(char *why)
{
    char name[32] = "";
    struct drm_version v = {.name = name, .name_len = sizeof(name) - 1};
    long long end = now_ms() + NODE_WAIT_MS;
    int fd;

    while ((fd = open(RENDER_NODE, O_RDWR | O_CLOEXEC)) < 0 && now_ms() < end) {
        sleep_ms(50);
    }
    if (fd < 0) {
        FAIL("%s: %s (no msm device: is -device agpu on the command line?)",
             RENDER_NODE, strerror(errno));
    }
    if (ioctl(fd, DRM_IOCTL_VERSION, &v)) {
        snprintf(why, WHY_LEN, "DRM_IOCTL_VERSION: %s", strerror(errno));
        close(fd);
        return KTAP_FAIL;
    }
    close(fd);
    ktap_print_msg("%s: %s %d.%d.%d", RENDER_NODE, name, v.version_major,
                   v.version_minor, v.version_patchlevel);
    if (strcmp(name, "msm")) {
        FAIL("%s is \"%s\", expected \"msm\"", RENDER_NODE, name);
    }
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
    ktap_test_result(r, node_name, why);

    /* Mesa's own diagnostics, unless the environment says otherwise */
    setenv("EGL_LOG_LEVEL", "debug", 0);
    setenv("LIBGL_DEBUG", "verbose", 0);
    setenv("FD_MESA_DEBUG", "msgs", 0);
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    if (r == KTAP_PASS) {
        run_child();
    } else {
        for (size_t i = 0; i < mesa_ncases; i++) {
            ktap_test_result(KTAP_SKIP, mesa_cases[i].name,
                             "no msm render node");
        }
    }

    why[0] = '\0';
    r = r == KTAP_PASS ? c_eglinfo(why) : KTAP_SKIP;
    ktap_test_result(r, eglinfo_name,
                     r == KTAP_SKIP && !why[0] ? "no msm render node" : why);
    return ktap_finished();
}
