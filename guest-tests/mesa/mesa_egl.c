/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_egl - Debian's own Mesa (bookworm, freedreno's msm_dri.so) on the
 * emulated Adreno 200, through the unmodified drm/msm driver: the cases
 * that run Mesa, in the child (mesa_child.c).
 *
 * EGL on the surfaceless platform (EGL_MESA_platform_surfaceless), a GLES2
 * context made current without a surface (EGL_KHR_surfaceless_context),
 * the GL strings, then work that makes freedreno's a2xx backend (fd2)
 * submit command streams to the GPU: a glFinish with nothing to draw, a
 * clear into a framebuffer object and a glReadPixels of it.  Each GPU case
 * checks that a submit reached the GPU and that the kernel log written
 * during the case has no msm error (mesa_watch.c).
 *
 * The model has no 3D pipe (docs/devices/agpu.md): draws, clears and GMEM
 * resolves are accepted and ignored, so the pixels glReadPixels returns
 * are what the buffer held before, not the clear colour.  The readback
 * case reports them and checks only that the call completes.
 *
 * Mesa's silent software fallback: when the hardware driver fails,
 * eglInitialize() retries with swrast (llvmpipe) and succeeds.  So the
 * driver case asks EGL which driver it loaded (EGL_MESA_query_driver) and
 * the renderer case wants "FD200", never "llvmpipe".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include "mesa.h"
#include "mesa_watch.h"

/* Expected identity (Mesa: freedreno_devices.py GPUId(200), getstring.c) */
#define WANT_RENDERER "FD200"
#define WANT_VENDOR   "freedreno"
#define WANT_VERSION  "OpenGL ES 2.0"

#define FBO_W 64
#define FBO_H 64

static struct {
    EGLDisplay dpy;
    EGLConfig cfg;
    EGLContext ctx;
    bool initialized, current;
    GLuint tex, fbo;
} g = {
    .dpy = EGL_NO_DISPLAY,
    .cfg = EGL_NO_CONFIG_KHR,
    .ctx = EGL_NO_CONTEXT,
};

static bool has_ext(const char *list, const char *ext)
{
    size_t n = strlen(ext);

    for (const char *p = list; p && (p = strstr(p, ext)); p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static const char *egl_err(void)
{
    static char buf[32];
    EGLint e = eglGetError();

    switch (e) {
#define E(x) \
    case x:  \
        return #x
        E(EGL_SUCCESS);
        E(EGL_NOT_INITIALIZED);
        E(EGL_BAD_ACCESS);
        E(EGL_BAD_ALLOC);
        E(EGL_BAD_ATTRIBUTE);
        E(EGL_BAD_CONFIG);
        E(EGL_BAD_CONTEXT);
        E(EGL_BAD_CURRENT_SURFACE);
        E(EGL_BAD_DISPLAY);
        E(EGL_BAD_MATCH);
        E(EGL_BAD_NATIVE_PIXMAP);
        E(EGL_BAD_NATIVE_WINDOW);
        E(EGL_BAD_PARAMETER);
        E(EGL_BAD_SURFACE);
        E(EGL_CONTEXT_LOST);
#undef E
    }
    snprintf(buf, sizeof(buf), "EGL error 0x%x", e);
    return buf;
}

static const char *gl_err_name(GLenum e)
{
    static char buf[32];

    switch (e) {
#define E(x) \
    case x:  \
        return #x
        E(GL_NO_ERROR);
        E(GL_INVALID_ENUM);
        E(GL_INVALID_VALUE);
        E(GL_INVALID_OPERATION);
        E(GL_INVALID_FRAMEBUFFER_OPERATION);
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

    for (int i = 0; i < 16 && (e = glGetError()) != GL_NO_ERROR; i++) {
        /* the rest of the queue, dropped */
    }
    return first == GL_NO_ERROR ? NULL : gl_err_name(first);
}

static int c_display(char *why)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;
    const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);

    if (!cext) {
        FAIL("no client extensions (EGL_EXT_client_extensions): %s", egl_err());
    }
    diag("EGL client extensions: %s", cext);
    if (!has_ext(cext, "EGL_MESA_platform_surfaceless")) {
        FAIL("EGL_MESA_platform_surfaceless not among the client extensions");
    }
    get_platform_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
        "eglGetPlatformDisplayEXT");
    if (!get_platform_display) {
        FAIL("no eglGetPlatformDisplayEXT");
    }
    g.dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
                                 EGL_DEFAULT_DISPLAY, NULL);
    if (g.dpy == EGL_NO_DISPLAY) {
        FAIL("eglGetPlatformDisplayEXT(SURFACELESS_MESA): %s", egl_err());
    }
    PASS();
}

static int c_initialize(char *why)
{
    EGLint major = 0, minor = 0;
    long long t = now_ms();

    if (g.dpy == EGL_NO_DISPLAY) {
        SKIP("no display");
    }
    if (!eglInitialize(g.dpy, &major, &minor)) {
        FAIL("eglInitialize: %s", egl_err());
    }
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

    if (!g.initialized) {
        SKIP("EGL not initialized");
    }
    if (!has_ext(eglQueryString(g.dpy, EGL_EXTENSIONS),
                 "EGL_MESA_query_driver")) {
        FAIL("no EGL_MESA_query_driver: cannot tell msm from a software "
             "fallback");
    }
    driver_name = (PFNEGLGETDISPLAYDRIVERNAMEPROC)eglGetProcAddress(
        "eglGetDisplayDriverName");
    if (!driver_name) {
        FAIL("no eglGetDisplayDriverName");
    }
    name = driver_name(g.dpy);
    diag("EGL driver name: %s", name ? name : "(null)");
    if (!name || strcmp(name, WANT_DRIVER)) {
        FAIL("driver \"%s\", expected \"" WANT_DRIVER
             "\" (swrast/kms_swrast: Mesa fell back to software)",
             name ? name : "(null)");
    }
    PASS();
}

static int c_config(char *why)
{
    static const EGLint attrs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE,
        EGL_DONT_CARE,       EGL_NONE,
    };
    const char *ext;
    EGLint n = 0;

    if (!g.initialized) {
        SKIP("EGL not initialized");
    }
    ext = eglQueryString(g.dpy, EGL_EXTENSIONS);
    if (!has_ext(ext, "EGL_KHR_surfaceless_context")) {
        FAIL("no EGL_KHR_surfaceless_context");
    }
    if (has_ext(ext, "EGL_KHR_no_config_context") ||
        has_ext(ext, "EGL_MESA_configless_context")) {
        diag("config: EGL_NO_CONFIG_KHR (no-config context)");
        g.cfg = EGL_NO_CONFIG_KHR;
        PASS();
    }
    if (!eglChooseConfig(g.dpy, attrs, &g.cfg, 1, &n) || n < 1) {
        FAIL("eglChooseConfig(ES2): %s, %d configs", egl_err(), n);
    }
    PASS();
}

static int c_context(char *why)
{
    static const EGLint attrs[] = {
        EGL_CONTEXT_CLIENT_VERSION,
        2,
        EGL_NONE,
    };

    if (!g.initialized) {
        SKIP("EGL not initialized");
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        FAIL("eglBindAPI(EGL_OPENGL_ES_API): %s", egl_err());
    }
    g.ctx = eglCreateContext(g.dpy, g.cfg, EGL_NO_CONTEXT, attrs);
    if (g.ctx == EGL_NO_CONTEXT) {
        FAIL("eglCreateContext(ES 2): %s", egl_err());
    }
    PASS();
}

static int c_current(char *why)
{
    if (g.ctx == EGL_NO_CONTEXT) {
        SKIP("no context");
    }
    if (!eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g.ctx)) {
        FAIL("eglMakeCurrent(no surface): %s", egl_err());
    }
    g.current = true;
    PASS();
}

/* arg: the GLenum name; want: the prefix it must start with */
static int gl_string(GLenum name, const char *label, const char *want,
                     char *why)
{
    const char *s;

    if (!g.current) {
        SKIP("no current context");
    }
    s = (const char *)glGetString(name);
    diag("%s: %s", label, s ? s : "(null)");
    if (!s) {
        FAIL("glGetString(%s): %s", label, gl_err() ?: "NULL");
    }
    if (strncmp(s, want, strlen(want))) {
        FAIL("%s \"%s\", expected \"%s...\"", label, s, want);
    }
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

/* The end of a GPU case: no GL error from what, and what watch_end() says */
static int gpu_case_end(char *why, const char *what, bool need_submit)
{
    const char *e = gl_err();

    if (e) {
        FAIL("%s: %s", what, e);
    }
    if (watch_end(why, need_submit)) {
        return KTAP_FAIL;
    }
    PASS();
}

/* glFinish with no framebuffer bound: nothing to draw, no fd2 batch */
static int c_finish_empty(char *why)
{
    if (!g.current) {
        SKIP("no current context");
    }
    watch_begin();
    glFinish();
    return gpu_case_end(why, "glFinish", false);
}

static int c_fbo(char *why)
{
    GLenum st;
    const char *e;

    if (!g.current) {
        SKIP("no current context");
    }
    glGenTextures(1, &g.tex);
    glBindTexture(GL_TEXTURE_2D, g.tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, FBO_W, FBO_H, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &g.fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                           g.tex, 0);
    e = gl_err();
    if (e) {
        FAIL("texture/framebuffer setup: %s", e);
    }
    st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        FAIL("glCheckFramebufferStatus: 0x%x, expected GL_FRAMEBUFFER_COMPLETE",
             st);
    }
    glViewport(0, 0, FBO_W, FBO_H);
    PASS();
}

/* the first clear into the FBO: fd2 emits its restore (fd2_emit_restore) */
static int c_clear(char *why)
{
    if (!g.fbo) {
        SKIP("no framebuffer object");
    }
    watch_begin();
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    return gpu_case_end(why, "glClear + glFinish", true);
}

/* a second batch: a clear, then a readback, which flushes and waits */
static int c_readback(char *why)
{
    static uint8_t px[FBO_W * FBO_H * 4];
    const char *e;
    size_t clear = 0, zero = 0, other = 0;

    if (!g.fbo) {
        SKIP("no framebuffer object");
    }
    watch_begin();
    memset(px, 0xa5, sizeof(px));
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(0, 0, FBO_W, FBO_H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    e = gl_err();
    if (e) {
        FAIL("glClear + glReadPixels: %s", e);
    }
    for (size_t i = 0; i < sizeof(px); i += 4) {
        uint32_t v = (uint32_t)px[i] << 24 | px[i + 1] << 16 | px[i + 2] << 8 |
                     px[i + 3];

        if (v == 0x00ff00ff) {
            clear++;
        } else if (v == 0) {
            zero++;
        } else {
            other++;
        }
    }
    diag("glReadPixels RGBA: first pixel %02x%02x%02x%02x; %zu of %d pixels "
         "the clear colour 00ff00ff, %zu zero, %zu other",
         px[0], px[1], px[2], px[3], clear, FBO_W * FBO_H, zero, other);
    diag("(no 3D pipe in the model: the clear is not rendered, the pixels are "
         "what the buffer held)");
    if (watch_end(why, true)) {
        return KTAP_FAIL;
    }
    PASS();
}

static int c_teardown(char *why)
{
    const char *e;

    if (!g.initialized) {
        SKIP("EGL not initialized");
    }
    if (g.current) {
        watch_begin();
        if (g.fbo) {
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glDeleteFramebuffers(1, &g.fbo);
            glDeleteTextures(1, &g.tex);
        }
        e = gl_err();
        if (e) {
            FAIL("deleting the framebuffer: %s", e);
        }
        if (!eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
                            EGL_NO_CONTEXT)) {
            FAIL("eglMakeCurrent(none): %s", egl_err());
        }
    }
    if (g.ctx != EGL_NO_CONTEXT && !eglDestroyContext(g.dpy, g.ctx)) {
        FAIL("eglDestroyContext: %s", egl_err());
    }
    if (!eglTerminate(g.dpy)) {
        FAIL("eglTerminate: %s", egl_err());
    }
    if (g.current && watch_end(why, false)) {
        return KTAP_FAIL;
    }
    PASS();
}

const struct mcase mesa_cases[] = {
    {"EGL surfaceless platform display (EGL_MESA_platform_surfaceless)",
     c_display},
    {"eglInitialize", c_initialize},
    {"EGL driver is " WANT_DRIVER
     ", not a software fallback (EGL_MESA_query_driver)",
     c_driver},
    {"EGL_KHR_surfaceless_context and a GLES2 config", c_config},
    {"GLES2 context created", c_context},
    {"context made current without a surface", c_current},
    {"GL_VENDOR is " WANT_VENDOR, c_vendor},
    {"GL_RENDERER is " WANT_RENDERER, c_renderer},
    {"GL_VERSION is " WANT_VERSION, c_version},
    {"glFinish with nothing drawn: no msm error", c_finish_empty},
    {"framebuffer object on a 64x64 RGBA texture is complete", c_fbo},
    {"glClear + glFinish into the FBO: a submit reaches the GPU, no msm error",
     c_clear},
    {"glClear + glReadPixels: returns, a submit reaches the GPU, no msm error",
     c_readback},
    {"context destroyed, eglTerminate", c_teardown},
};

const size_t mesa_ncases = ARRAY_SIZE(mesa_cases);
