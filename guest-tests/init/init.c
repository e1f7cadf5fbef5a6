/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay's /init: mount the pseudo filesystems, run the test suites named
 * on the kernel command line and print one KTAP v1 document on the console,
 * then power off.
 *
 * Kernel command line:
 *   patchbay.suites=a,b   suites to run, each a folder /suites/NAME whose
 *                         executables run in name order as its subtests
 *   patchbay.timeout=N    seconds one executable may run before it is
 *                         killed and reported "not ok ... # TIMEOUT"
 *                         (default 300; 0 = never; /suites/NAME/timeout
 *                         overrides it per suite)
 *   patchbay.shell=1      start an interactive shell instead of the suites
 *   patchbay.slow=1       also run the executables a suite lists in
 *                         /suites/NAME/slow; without it they are reported
 *                         "ok N NAME # SKIP slow: ..." (kunit's speed=slow)
 *   patchbay.lava=1       for a LAVA monitor (docs/lava.md), which sees one
 *                         console line at a time: every result line is
 *                         followed by "# patchbay-result: " and the same
 *                         line with the test's whole path as its name
 *                         ("ok 5 openat2/openat2_test/NAME # SKIP ..."),
 *                         and no test marks go to the kernel log (they
 *                         would cut the console's lines in two)
 *   patchbay.gcov=1       after the suites, send the kernel's gcov counters
 *                         (every .gcda in debugfs's gcov/) to the
 *                         virtio-serial port "patchbay.gcov" (gcovsend.c,
 *                         docs/coverage.md)
 *
 * The kernel's configuration is made available to the tests as
 * KCONFIG_PATH (common/kconfig.h): from /proc/config.gz when the kernel has
 * it, else the copy the host put into the initramfs, else it is unknown.  A
 * suite whose /suites/NAME/requires lists an option the kernel lacks is
 * reported "ok N NAME # SKIP kernel lacks CONFIG_X (not set)" and not run.
 *
 * Output (two spaces of indentation per level, as KTAP nests):
 *   KTAP version 1
 *   1..<suites>
 *     KTAP version 1
 *     # Subtest: <suite>
 *     1..<executables>
 *       <the executable's own KTAP or TAP output>
 *     ok 1 <executable>
 *   ok 1 <suite>
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gcovsend.h"
#include "kconfig.h"

#define SUITES_DIR      "/suites"
#define MAX_SUITES      64
#define MAX_EXECUTABLES 256
#define KSFT_SKIP       4    /* kselftest's exit code for "skipped" */
#define REQUIRES_MAX    8192 /* bytes of a suite's requires file we read */

static char cmdline[4096];
static int default_timeout_s = 300;
static int run_slow;
static int lava;

static void say(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

/*
 * In LAVA mode, repeat a result line (without its indentation) as a
 * diagnostic whose name has the test's whole path: "ok 5 NAME # SKIP" in
 * suite/program becomes "# patchbay-result: ok 5 suite/program/NAME # SKIP".
 * path is "" at the top level. Anything but a result line prints nothing.
 */
static void lava_result(const char *indent, const char *path, const char *line)
{
    size_t head;

    if (!lava) {
        return;
    }
    if (strncmp(line, "ok ", 3) == 0) {
        head = 3;
    } else if (strncmp(line, "not ok ", 7) == 0) {
        head = 7;
    } else {
        return;
    }
    /* the test number and TAP's optional "-" stay before the name */
    head += strspn(line + head, "0123456789");
    head += strspn(line + head, " \t");
    if (line[head] == '-' && line[head + 1] == ' ') {
        head += 1 + strspn(line + head + 1, " \t");
    }
    say("%s# patchbay-result: %.*s%s%s%s\n", indent, (int)head, line, path,
        *path ? "/" : "", line + head);
}

/* A result line of /init's own, at indent, and its LAVA repeat. */
static void say_result(const char *indent, const char *path, const char *fmt,
                       ...)
{
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    say("%s%s\n", indent, line);
    lava_result(indent, path, line);
}

static void mount_or_warn(const char *src, const char *dst, const char *type,
                          const char *opts)
{
    mkdir(dst, 0755);
    if (mount(src, dst, type, 0, opts) < 0 && errno != EBUSY) {
        say("# init: mount %s on %s failed: %s\n", type, dst, strerror(errno));
    }
}

/* Value of "key=" on the kernel command line, copied into buf. */
static const char *cmdline_get(const char *key, char *buf, size_t len)
{
    size_t klen = strlen(key);
    const char *p = cmdline;

    while ((p = strstr(p, key)) != NULL) {
        if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
            size_t n = strcspn(p + klen + 1, " \n");

            if (n >= len) {
                n = len - 1;
            }
            memcpy(buf, p + klen + 1, n);
            buf[n] = '\0';
            return buf;
        }
        p += klen;
    }
    return NULL;
}

static void read_cmdline(void)
{
    int fd = open("/proc/cmdline", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, cmdline, sizeof(cmdline) - 1) : -1;

    cmdline[n > 0 ? n : 0] = '\0';
    if (fd >= 0) {
        close(fd);
    }
}

static double uptime_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_BOOTTIME, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Executables of a suite folder, sorted; returns how many. */
static int list_executables(const char *dir, char **names, int max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d) {
        return -1;
    }
    while ((e = readdir(d)) != NULL && n < max) {
        char path[512];
        struct stat st;

        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) < 0 ||
            !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR)) {
            continue;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), by_name);
    return n;
}

/* Is name a line of the suite's slow file (tests left out without --all)? */
static int is_slow(const char *suite_dir, const char *name)
{
    char path[512], line[256];
    int slow = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/slow", suite_dir);
    f = fopen(path, "r");
    if (!f) {
        return 0;
    }
    while (!slow && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        slow = line[0] != '#' && strcmp(line, name) == 0;
    }
    fclose(f);
    return slow;
}

static int suite_timeout(const char *suite_dir)
{
    char path[512], buf[32];
    int fd, timeout = default_timeout_s;
    ssize_t n;

    snprintf(path, sizeof(path), "%s/timeout", suite_dir);
    fd = open(path, O_RDONLY);
    if (fd >= 0) {
        n = read(fd, buf, sizeof(buf) - 1);
        if (n > 0) {
            buf[n] = '\0';
            timeout = atoi(buf);
        }
        close(fd);
    }
    return timeout;
}

/*
 * Copy the child's output to the console, every line indented by `indent`
 * (in LAVA mode with its results repeated under path). Returns once the
 * child closed its end (exited), or -1 on timeout.
 */
static int relay_output(int fd, const char *indent, const char *path,
                        int timeout_s)
{
    char buf[4096], line[8192];
    size_t used = 0;
    double deadline = timeout_s > 0 ? uptime_s() + timeout_s : 0;

    for (;;) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int wait_ms = -1;
        ssize_t n;

        if (deadline) {
            double left = deadline - uptime_s();

            if (left <= 0) {
                return -1;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        if (poll(&pfd, 1, wait_ms) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return 0;
        }
        if (pfd.revents == 0) {
            continue;
        }
        n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n' || used == sizeof(line) - 1) {
                line[used] = '\0';
                say("%s%s\n", indent, line);
                lava_result(indent, path, line);
                used = 0;
                if (buf[i] == '\n') {
                    continue;
                }
            }
            if (buf[i] != '\r') {
                line[used++] = buf[i];
            }
        }
    }
    if (used) {
        line[used] = '\0';
        say("%s%s\n", indent, line);
        lava_result(indent, path, line);
    }
    return 0;
}

/*
 * "patchbay-ktap: SUITE/PROGRAM 0" before a program starts and "... end"
 * after it, in the kernel log, where they are ordered with the kernel's own
 * reports: the host pins a crash on the program (and, with the marks of
 * common/ktap.h, on the test) that was running.
 */
static void kmsg_mark(const char *dir, const char *name, const char *what)
{
    static int fd = -2;
    char line[320];
    int n;

    if (fd == -2) {
        fd = lava ? -1 : open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
    }
    n = snprintf(line, sizeof(line), "<12>patchbay-ktap: %s/%s %s\n",
                 dir + strlen(SUITES_DIR "/"), name, what);
    if (fd >= 0 && n > 0 && n < (int)sizeof(line) && write(fd, line, n) < 0) {
        fd = -1;
    }
}

/* Run one executable; print its result line at `indent`. 0 if it passed. */
static int run_executable(const char *dir, const char *name, int number,
                          int timeout_s)
{
    const char *suite = dir + strlen(SUITES_DIR "/");
    char path[512], test[512], workdir[] = "/tmp/pb-XXXXXX";
    int pipefd[2], status = 0, timed_out;
    pid_t pid;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    snprintf(test, sizeof(test), "%s/%s", suite, name);
    if (pipe(pipefd) < 0 || !mkdtemp(workdir)) {
        say_result("  ", suite, "not ok %d %s # init: %s", number, name,
                   strerror(errno));
        return 1;
    }
    /*
     * Names the executable's level before its own KTAP arrives, so that a
     * crash in it is attributed to it by name.
     */
    say("    # Subtest: %s\n", name);
    kmsg_mark(dir, name, "0");
    pid = fork();
    if (pid == 0) {
        char *argv[] = {path, NULL};

        setpgid(0, 0);
        dup2(pipefd[1], STDOUT_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        close(pipefd[1]);
        if (chdir(workdir) < 0) {
            _exit(127);
        }
        /* common/ktap.h marks each result in the kernel log */
        if (!lava) {
            setenv("PATCHBAY_KMSG_MARKS", "1", 1);
        }
        execv(path, argv);
        printf("# init: exec %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        say_result("  ", suite, "not ok %d %s # init: fork: %s", number, name,
                   strerror(errno));
        return 1;
    }
    timed_out = relay_output(pipefd[0], "    ", test, timeout_s) < 0;
    if (timed_out) {
        kill(-pid, SIGKILL);
    }
    close(pipefd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    /* Leftovers of the test (its process group) must not outlive it. */
    kill(-pid, SIGKILL);
    kmsg_mark(dir, name, "end");

    if (timed_out) {
        say_result("  ", suite, "not ok %d %s # TIMEOUT %d seconds", number,
                   name, timeout_s);
        return 1;
    }
    if (WIFSIGNALED(status)) {
        say_result("  ", suite, "not ok %d %s # killed by signal %d (%s)",
                   number, name, WTERMSIG(status), strsignal(WTERMSIG(status)));
        return 1;
    }
    if (WEXITSTATUS(status) == KSFT_SKIP) {
        say_result("  ", suite, "ok %d %s # SKIP exit code %d", number, name,
                   KSFT_SKIP);
        return 0;
    }
    if (WEXITSTATUS(status) != 0) {
        say_result("  ", suite, "not ok %d %s # exit=%d", number, name,
                   WEXITSTATUS(status));
        return 1;
    }
    say_result("  ", suite, "ok %d %s", number, name);
    return 0;
}

/*
 * Why the kernel cannot run the suite in dir, from its requires file (one
 * option a line, "#" comments), or NULL: no file, every option built in, or
 * the configuration unknown.
 */
static const char *suite_lacks(const char *dir)
{
    char path[512], buf[REQUIRES_MAX + 1];
    ssize_t n, used = 0;
    int fd;

    snprintf(path, sizeof(path), "%s/requires", dir);
    fd = open(path, O_RDONLY);
    if (fd < 0) {
        return NULL;
    }
    while (used < REQUIRES_MAX &&
           (n = read(fd, buf + used, REQUIRES_MAX - used)) > 0) {
        used += n;
    }
    close(fd);
    buf[used] = '\0';
    /* comments out; kconfig_lacks() takes blank-separated options */
    for (char *c = buf; (c = strchr(c, '#')) != NULL;) {
        size_t len = strcspn(c, "\n");

        memset(c, ' ', len);
        c += len;
    }
    return kconfig_lacks(buf);
}

static int run_suite(const char *suite, int number)
{
    char dir[256], *names[MAX_EXECUTABLES];
    const char *lacks;
    int n, failed = 0, timeout_s;
    double start = uptime_s();

    snprintf(dir, sizeof(dir), "%s/%s", SUITES_DIR, suite);
    n = list_executables(dir, names, MAX_EXECUTABLES);
    if (n <= 0) {
        say_result("", "", "not ok %d %s # no such suite in the initramfs",
                   number, suite);
        return 1;
    }
    /*
     * A kernel without an option the suite needs cannot run it: a skip
     * naming the options, not a failure (docs/your-kernel.md).
     */
    lacks = suite_lacks(dir);
    if (lacks) {
        say_result("", "", "ok %d %s # SKIP %s", number, suite, lacks);
        for (int i = 0; i < n; i++) {
            free(names[i]);
        }
        return 0;
    }
    timeout_s = suite_timeout(dir);
    say("  KTAP version 1\n  # Subtest: %s\n  1..%d\n", suite, n);
    for (int i = 0; i < n; i++) {
        if (!run_slow && is_slow(dir, names[i])) {
            say_result("  ", suite,
                       "ok %d %s # SKIP slow: left out, scripts/patchbay run "
                       "--all runs it",
                       i + 1, names[i]);
        } else {
            failed += run_executable(dir, names[i], i + 1, timeout_s) != 0;
        }
        free(names[i]);
    }
    say_result("", "", "%s %d %s # %d of %d failed, %.2f s",
               failed ? "not ok" : "ok", number, suite, failed, n,
               uptime_s() - start);
    return failed;
}

/*
 * Decompress /proc/config.gz into KCONFIG_PATH with busybox zcat (through a
 * temporary file, so that a failure leaves the host's copy alone).  0 on
 * success, else -1 with why.
 */
static int unpack_proc_config(char *why, size_t len)
{
    static const char tmp[] = KCONFIG_PATH ".tmp";
    char *argv[] = {"/bin/busybox", "zcat", "/proc/config.gz", NULL};
    struct stat st;
    int status = -1;
    pid_t pid;

    pid = fork();
    if (pid == 0) {
        int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);

        if (out < 0) {
            _exit(126);
        }
        dup2(out, STDOUT_FILENO);
        if (null >= 0) {
            dup2(null, STDERR_FILENO); /* we report the failure ourselves */
        }
        execv(argv[0], argv);
        _exit(127);
    }
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (pid < 0) {
        snprintf(why, len, "fork: %s", strerror(errno));
    } else if (WIFSIGNALED(status)) {
        snprintf(why, len, "%s zcat killed by signal %d", argv[0],
                 WTERMSIG(status));
    } else if (WEXITSTATUS(status) != 0) {
        snprintf(why, len, "%s zcat failed with exit code %d", argv[0],
                 WEXITSTATUS(status));
    } else if (stat(tmp, &st) < 0 || st.st_size == 0) {
        snprintf(why, len, "%s zcat wrote nothing", argv[0]);
    } else if (rename(tmp, KCONFIG_PATH) < 0) {
        snprintf(why, len, "rename to %s: %s", KCONFIG_PATH, strerror(errno));
    } else {
        return 0;
    }
    unlink(tmp);
    return -1;
}

/*
 * Make the kernel's configuration available as KCONFIG_PATH; the diagnostic
 * lines saying where it came from go into diag (printed inside the KTAP
 * document, which has not started yet).
 */
static void setup_kernel_config(char *diag, size_t len)
{
    char why[256] = "";
    size_t used = 0;

    mkdir("/etc", 0755);
    mkdir("/etc/patchbay", 0755);
    /*
     * The running kernel's own configuration is the truth: it wins over
     * what the host supplied.
     */
    if (access("/proc/config.gz", F_OK) == 0) {
        if (unpack_proc_config(why, sizeof(why)) == 0 && kconfig_known()) {
            snprintf(diag, len,
                     "# patchbay init: kernel configuration from "
                     "/proc/config.gz\n");
            return;
        }
        if (why[0]) {
            used = snprintf(diag, len,
                            "# patchbay init: /proc/config.gz "
                            "unusable: %s\n",
                            why);
            used = used < len ? used : len - 1;
        }
    }
    if (kconfig_known()) {
        snprintf(diag + used, len - used,
                 "# patchbay init: kernel "
                 "configuration from the host (%s in the initramfs)\n",
                 KCONFIG_PATH);
    } else if (access(KCONFIG_PATH, F_OK) == 0) {
        snprintf(diag + used, len - used,
                 "# patchbay init: kernel "
                 "configuration unknown (%s unreadable or over %d bytes); no "
                 "suite or case is skipped for its options\n",
                 KCONFIG_PATH, KCONFIG_MAX_BYTES);
    } else {
        snprintf(diag + used, len - used,
                 "# patchbay init: kernel "
                 "configuration unknown (no /proc/config.gz, no .config from "
                 "the host); no suite or case is skipped for its options\n");
    }
}

/* Run a command to completion, output to the console. */
static int run_command(char *const argv[])
{
    int status = -1;
    pid_t pid = fork();

    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

/*
 * busybox poweroff, halt and reboot ask PID 1 with SIGUSR2, SIGUSR1 and
 * SIGTERM; all of them end the VM.
 */
static volatile sig_atomic_t shutdown_requested;

static void on_shutdown_signal(int sig)
{
    (void)sig;
    shutdown_requested = 1;
}

static void run_shell(void)
{
    char *install[] = {"/bin/busybox", "--install", "-s", "/bin", NULL};
    char *argv[] = {"/bin/sh", NULL};
    char *envp[] = {"HOME=/root", "PATH=/sbin:/bin:/usr/sbin:/usr/bin:/suites",
                    "TERM=linux", "PS1=patchbay:\\w# ", NULL};
    pid_t pid;

    /*
     * The applet links (ls, cat, ...) are made here, not in the cpio,
     * because the host cannot run the arm64 busybox to list them.
     */
    run_command(install);
    pid = fork();

    if (pid == 0) {
        int fd;

        /*
         * A new session opening the console takes it as its controlling
         * terminal, so that ^C reaches the shell's jobs.
         */
        setsid();
        /* /dev/console cannot be a controlling terminal; the UART can. */
        fd = open("/dev/ttyAMA0", O_RDWR);
        if (fd < 0) {
            fd = open("/dev/console", O_RDWR);
        }
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (chdir("/root") < 0) {
            _exit(126);
        }
        execve(argv[0], argv, envp);
        _exit(127);
    }
    /* No SA_RESTART: the signal must interrupt waitpid(). */
    struct sigaction sa = {.sa_handler = on_shutdown_signal};
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR &&
           !shutdown_requested) {
    }
}

int main(void)
{
    char buf[1024], *suites[MAX_SUITES], *save = NULL, *s, kdiag[512];
    int nsuites = 0, failed = 0;
    struct utsname uts;

    mount_or_warn("proc", "/proc", "proc", NULL);
    mount_or_warn("sysfs", "/sys", "sysfs", NULL);
    mount_or_warn("devtmpfs", "/dev", "devtmpfs", NULL);
    mount_or_warn("tmpfs", "/tmp", "tmpfs", "mode=1777");
    mkdir("/root", 0700);
    setenv("PATH", "/sbin:/bin:/usr/sbin:/usr/bin", 1);
    setenv("HOME", "/root", 1);
    read_cmdline();
    uname(&uts);
    /* Before the shell too: tests started by hand read it as well. */
    setup_kernel_config(kdiag, sizeof(kdiag));

    if (cmdline_get("patchbay.timeout", buf, sizeof(buf))) {
        default_timeout_s = atoi(buf);
    }
    if (cmdline_get("patchbay.slow", buf, sizeof(buf))) {
        run_slow = atoi(buf);
    }
    if (cmdline_get("patchbay.lava", buf, sizeof(buf))) {
        lava = atoi(buf);
    }
    if (cmdline_get("patchbay.shell", buf, sizeof(buf)) && atoi(buf)) {
        say("patchbay shell: Linux %s, %.2f s after boot\n"
            "  tests:  /suites/<suite>/<test>, e.g. /suites/msm/msm_ioctl\n"
            "  quit:   exit, poweroff or Ctrl-D (QEMU: Ctrl-A x; monitor: "
            "Ctrl-A c)\n",
            uts.release, uptime_s());
        run_shell();
        sync();
        reboot(RB_POWER_OFF);
        return 0;
    }

    if (cmdline_get("patchbay.suites", buf, sizeof(buf))) {
        for (s = strtok_r(buf, ",", &save); s && nsuites < MAX_SUITES;
             s = strtok_r(NULL, ",", &save)) {
            suites[nsuites++] = s;
        }
    }
    say("KTAP version 1\n");
    say("# patchbay init: Linux %s %s, /init started %.2f s after boot\n",
        uts.release, uts.version, uptime_s());
    say("%s", kdiag);
    say("1..%d\n", nsuites);
    for (int i = 0; i < nsuites; i++) {
        failed += run_suite(suites[i], i + 1) != 0;
    }
    /* not buf: the suites' names point into it */
    if (cmdline_get("patchbay.gcov", kdiag, sizeof(kdiag)) && atoi(kdiag)) {
        char why[512];

        gcov_send(why, sizeof(why));
        say("# patchbay init: gcov: %s\n", why);
    }
    say("# patchbay init: %d of %d suites failed, powering off\n", failed,
        nsuites);
    sync();
    reboot(RB_POWER_OFF);
    return 0;
}
