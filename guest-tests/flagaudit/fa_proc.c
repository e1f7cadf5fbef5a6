/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_proc.c - flagaudit's processes, signals, timers, memory and the
 * small fd-creating calls (eventfd2, signalfd4, epoll, timerfd, inotify,
 * memfd) and SysV messages.
 *
 * clone, clone3, unshare, execveat and mmap run in a throwaway child (the
 * row's child): a bit they accept could act. An accepted clone's child
 * _exits at once; the probe's child reaps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flagaudit.h"
#include "helpers.h"

/* linux/sched.h: struct clone_args up to CLONE_ARGS_SIZE_VER2 (5.7). */
struct fa_clone_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
        stack_size, tls, set_tid, set_tid_size, cgroup;
};

/* The kernel's struct sigaction on arm64 (asm-generic/signal.h). */
struct fa_ksigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
};

/* After an accepted clone: the new child leaves, the probe reaps it. */
static int clone_result(long ret, int err)
{
    if (ret == 0) {
        _exit(0);
    }
    if (ret < 0) {
        return err;
    }
    waitpid((pid_t)ret, NULL, __WALL);
    return 0;
}

static int p_clone(uint64_t bit)
{
    /* arm64: clone(flags, newsp, parent_tid, tls, child_tid) */
    long ret = syscall(SYS_clone, bit | SIGCHLD, 0, NULL, 0, NULL);

    return clone_result(ret, errno);
}

static int p_clone3(uint64_t bit)
{
    struct fa_clone_args args = {.flags = bit, .exit_signal = SIGCHLD};
    long ret = syscall(SYS_clone3, &args, sizeof(args));

    return clone_result(ret, errno);
}

static int p_unshare(uint64_t bit)
{
    /* not glibc's unshare(int): the kernel's argument is unsigned long */
    return fa_err(syscall(SYS_unshare, bit), errno);
}

static int p_clock_nanosleep(uint64_t bit)
{
    struct timespec ts = {0, 0};

    return fa_err(
        syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, (int)bit, &ts, NULL),
        errno);
}

static int p_timer_settime(uint64_t bit)
{
    static int timer = -1;
    struct itimerspec its = {{0, 0}, {0, 0}};

    if (timer < 0) {
        struct sigevent sev = {.sigev_notify = SIGEV_NONE};

        if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &timer) < 0) {
            return errno;
        }
    }
    /* a zero it_value disarms: nothing to fire whatever the bit means */
    return fa_err(syscall(SYS_timer_settime, timer, (int)bit, &its, NULL),
                  errno);
}

static void noop_handler(int sig)
{
    (void)sig;
}

static int p_sigaction(uint64_t bit)
{
    struct fa_ksigaction act = {.handler = noop_handler, .flags = bit};
    struct fa_ksigaction old, dfl = {.handler = SIG_DFL};
    int err;

    err = fa_err(syscall(SYS_rt_sigaction, SIGUSR2, &act, NULL, 8), errno);
    if (err) {
        return err;
    }
    syscall(SYS_rt_sigaction, SIGUSR2, &dfl, &old, 8);
    return old.flags & bit ? FA_KEPT : 0;
}

static int p_waitid(uint64_t bit)
{
    siginfo_t info;

    /* no child is left: ECHILD once past the check */
    return fa_err(syscall(SYS_waitid, P_ALL, 0, &info,
                          (int)(WEXITED | WNOHANG | bit), NULL),
                  errno);
}

static int p_wait4(uint64_t bit)
{
    return fa_err(syscall(SYS_wait4, -1, NULL, (int)(WNOHANG | bit), NULL),
                  errno);
}

static int self_pidfd(void)
{
    static int fd = -1;

    if (fd < 0) {
        fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    }
    return fd;
}

/* A call that returns a new fd: close it. */
static int fd_result(long fd, int err)
{
    if (fd < 0) {
        return err;
    }
    close((int)fd);
    return 0;
}

static int p_pidfd_open(uint64_t bit)
{
    return fd_result(syscall(SYS_pidfd_open, getpid(), (unsigned int)bit),
                     errno);
}

static int p_pidfd_send_signal(uint64_t bit)
{
    /* signal 0: the checks only */
    return fa_err(syscall(SYS_pidfd_send_signal, self_pidfd(), 0, NULL,
                          (unsigned int)bit),
                  errno);
}

static int p_pidfd_getfd(uint64_t bit)
{
    return fd_result(
        syscall(SYS_pidfd_getfd, self_pidfd(), 0, (unsigned int)bit), errno);
}

static int p_execveat(uint64_t bit)
{
    char *argv[] = {"file", NULL}, *envp[] = {NULL};
    int dir = open(fa_dir, O_RDONLY | O_DIRECTORY);

    if (dir < 0) {
        return errno;
    }
    /* mode 0644, not an executable: EACCES once past the flags check */
    return fa_err(syscall(SYS_execveat, dir, "file", argv, envp, (int)bit),
                  errno);
}

static int p_memfd_create(uint64_t bit)
{
    return fd_result(syscall(SYS_memfd_create, "flagaudit", (unsigned int)bit),
                     errno);
}

static int mmap_file(unsigned long type, uint64_t bit)
{
    char path[PATH_MAX];
    int fd = -1;
    void *p;

    if (!(type & MAP_ANONYMOUS)) {
        fd = open(fa_path(path, "file"), O_RDWR);
        if (fd < 0) {
            return errno;
        }
    }
    p = (void *)syscall(SYS_mmap, NULL, 4096, PROT_READ, type | bit, fd, 0);
    if (p == MAP_FAILED) {
        return errno;
    }
    munmap(p, 4096);
    return 0;
}

static int p_mmap_shared(uint64_t bit)
{
    return mmap_file(MAP_SHARED, bit);
}

static int p_mmap_validate(uint64_t bit)
{
    return mmap_file(MAP_SHARED_VALIDATE, bit);
}

static int p_mmap_anon(uint64_t bit)
{
    return mmap_file(MAP_PRIVATE | MAP_ANONYMOUS, bit);
}

static void *anon_page(void)
{
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p != MAP_FAILED) {
        memset(p, 1, 4096);
    }
    return p;
}

static int p_mremap(uint64_t bit)
{
    void *p = anon_page(), *q;

    if (p == MAP_FAILED) {
        return errno;
    }
    q = (void *)syscall(SYS_mremap, p, 4096, 4096, bit, NULL);
    if (q == MAP_FAILED) {
        int err = errno;

        munmap(p, 4096);
        return err;
    }
    munmap(q, 4096);
    return 0;
}

static int p_msync(uint64_t bit)
{
    void *p = anon_page();
    int err;

    if (p == MAP_FAILED) {
        return errno;
    }
    err = fa_err(syscall(SYS_msync, p, 4096, (int)bit), errno);
    munmap(p, 4096);
    return err;
}

static int p_mlock2(uint64_t bit)
{
    void *p = anon_page();
    int err;

    if (p == MAP_FAILED) {
        return errno;
    }
    err = fa_err(syscall(SYS_mlock2, p, 4096, (int)bit), errno);
    munmap(p, 4096); /* unlocks too */
    return err;
}

static int p_getrandom(uint64_t bit)
{
    char buf[1];

    return fa_err(syscall(SYS_getrandom, buf, 1, (unsigned int)bit), errno);
}

static int p_membarrier(uint64_t bit)
{
    /* MEMBARRIER_CMD_QUERY */
    return fa_err(syscall(SYS_membarrier, 0, (unsigned int)bit, 0), errno);
}

static int p_process_madvise(uint64_t bit)
{
    void *p = anon_page();
    struct iovec iov = {p, 4096};
    int err;

    if (p == MAP_FAILED) {
        return errno;
    }
    /* MADV_COLD (20): a hint */
    err = fa_err(syscall(SYS_process_madvise, self_pidfd(), &iov, 1, 20,
                         (unsigned int)bit),
                 errno);
    munmap(p, 4096);
    return err;
}

static int p_eventfd2(uint64_t bit)
{
    return fd_result(syscall(SYS_eventfd2, 0, (int)bit), errno);
}

static int p_signalfd4(uint64_t bit)
{
    uint64_t mask = 1ULL << (SIGUSR2 - 1);

    return fd_result(syscall(SYS_signalfd4, -1, &mask, 8, (int)bit), errno);
}

static int p_epoll_create1(uint64_t bit)
{
    return fd_result(syscall(SYS_epoll_create1, (int)bit), errno);
}

static int p_epoll_ctl(uint64_t bit)
{
    struct epoll_event ev = {.events = EPOLLIN | (uint32_t)bit};
    int ep = epoll_create1(0), efd = eventfd(0, 0), err;

    if (ep < 0 || efd < 0) {
        err = errno;
    } else {
        err =
            fa_err(syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, efd, &ev), errno);
    }
    close(ep);
    close(efd);
    return err;
}

static int p_timerfd_create(uint64_t bit)
{
    return fd_result(syscall(SYS_timerfd_create, CLOCK_MONOTONIC, (int)bit),
                     errno);
}

static int p_timerfd_settime(uint64_t bit)
{
    struct itimerspec its = {{0, 0}, {0, 0}};
    int fd = (int)syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 0), err;

    if (fd < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_timerfd_settime, fd, (int)bit, &its, NULL), errno);
    close(fd);
    return err;
}

static int p_inotify_init1(uint64_t bit)
{
    return fd_result(syscall(SYS_inotify_init1, (int)bit), errno);
}

struct fa_msg {
    long type;
    char text[8];
};

static int p_msgsnd(uint64_t bit)
{
    struct fa_msg m = {1, "x"};
    int q = msgget(IPC_PRIVATE, 0600), err;

    if (q < 0) {
        return errno;
    }
    err = fa_err(syscall(SYS_msgsnd, q, &m, 1, (int)(IPC_NOWAIT | bit)), errno);
    msgctl(q, IPC_RMID, NULL);
    return err;
}

static int p_msgrcv(uint64_t bit)
{
    struct fa_msg m = {1, "x"};
    int q = msgget(IPC_PRIVATE, 0600), err;

    if (q < 0) {
        return errno;
    }
    err = fa_err(msgsnd(q, &m, 1, IPC_NOWAIT), errno);
    if (!err) {
        err = fa_err(syscall(SYS_msgrcv, q, &m, sizeof(m.text), 0,
                             (int)(IPC_NOWAIT | bit)),
                     errno);
    }
    msgctl(q, IPC_RMID, NULL);
    return err;
}

/*
 * Every bit of the low 32 is a CLONE_* flag but 0-7, CSIGNAL (the exit
 * signal for clone), of which clone3 and unshare take CLONE_NEWTIME only.
 */
#define CLONE_LOW32        0xffffffffULL
#define O_CLOEXEC_NONBLOCK ((uint64_t)(O_CLOEXEC | O_NONBLOCK))

const struct fa_call fa_proc_calls[] = {
    /* legacy clone: bits 0-7 are the exit signal, not flags */
    {"clone", "flags", 64,
     CLONE_LOW32 | FA_CLONE_CLEAR_SIGHAND | FA_CLONE_INTO_CGROUP, NULL, p_clone,
     0, true},
    {"clone3", "clone_args.flags", 64,
     (CLONE_LOW32 & ~0xffULL) | FA_CLONE_NEWTIME | FA_CLONE_CLEAR_SIGHAND |
         FA_CLONE_INTO_CGROUP,
     NULL, p_clone3, 0, true},
    {"unshare", "flags", 64,
     (CLONE_LOW32 & ~0xffULL) | FA_CLONE_NEWTIME | FA_CLONE_CLEAR_SIGHAND |
         FA_CLONE_INTO_CGROUP,
     NULL, p_unshare, 0, true},
    {"clock_nanosleep", "flags", 32, TIMER_ABSTIME, NULL, p_clock_nanosleep, 0,
     false},
    {"timer_settime", "flags", 32, TIMER_ABSTIME, "CONFIG_POSIX_TIMERS",
     p_timer_settime, 0, false},
    {"rt_sigaction", "sa_flags", 64, FA_SA_ALL, NULL, p_sigaction, 0, false},
    {"waitid", "options", 32,
     WNOHANG | WSTOPPED | WEXITED | WCONTINUED | WNOWAIT | __WNOTHREAD |
         __WALL | 0x80000000ULL,
     NULL, p_waitid, ECHILD, false},
    {"wait4", "options", 32,
     WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | 0x80000000ULL,
     NULL, p_wait4, ECHILD, false},
    {"pidfd_open", "flags", 32, O_NONBLOCK | FA_PIDFD_THREAD, NULL,
     p_pidfd_open, 0, false},
    {"pidfd_send_signal", "flags", 32, FA_PIDFD_SIGNAL_ALL, NULL,
     p_pidfd_send_signal, 0, false},
    {"pidfd_getfd", "flags", 32, 0, NULL, p_pidfd_getfd, 0, false},
    {"execveat", "flags", 32, FA_AT_SYMLINK_NOFOLLOW | FA_AT_EMPTY_PATH, NULL,
     p_execveat, EACCES, true},
    {"memfd_create", "flags", 32, FA_MFD_ALL, "CONFIG_MEMFD_CREATE",
     p_memfd_create, 0, false},
    {"mmap(MAP_SHARED)", "flags", 64, FA_MAP_ALL, NULL, p_mmap_shared, 0, true},
    {"mmap(MAP_SHARED_VALIDATE)", "flags", 64, FA_MAP_ALL, NULL,
     p_mmap_validate, 0, true},
    {"mmap(MAP_PRIVATE|MAP_ANONYMOUS)", "flags", 64, FA_MAP_ALL, NULL,
     p_mmap_anon, 0, true},
    {"mremap", "flags", 64, 0x7, NULL, p_mremap, 0, false},
    {"msync", "flags", 32, 0x7, NULL, p_msync, 0, false},
    {"mlock2", "flags", 32, 0x1, NULL, p_mlock2, 0, false},
    {"getrandom", "flags", 32, 0x7, NULL, p_getrandom, 0, false},
    {"membarrier", "flags", 32, 0x1, "CONFIG_MEMBARRIER", p_membarrier, 0,
     false},
    {"process_madvise", "flags", 32, 0, "CONFIG_ADVISE_SYSCALLS",
     p_process_madvise, 0, false},
    {"eventfd2", "flags", 32, 0x1 | O_CLOEXEC_NONBLOCK, "CONFIG_EVENTFD",
     p_eventfd2, 0, false},
    {"signalfd4", "flags", 32, O_CLOEXEC_NONBLOCK, "CONFIG_SIGNALFD",
     p_signalfd4, 0, false},
    {"epoll_create1", "flags", 32, O_CLOEXEC, "CONFIG_EPOLL", p_epoll_create1,
     0, false},
    /* EPOLLIN..EPOLLMSG, EPOLLRDHUP, EPOLL_URING_WAKE .. EPOLLET */
    {"epoll_ctl", "event.events", 32, 0x7ffULL | 0x2000 | 0xf8000000ULL,
     "CONFIG_EPOLL", p_epoll_ctl, 0, false},
    {"timerfd_create", "flags", 32, O_CLOEXEC_NONBLOCK, "CONFIG_TIMERFD",
     p_timerfd_create, 0, false},
    {"timerfd_settime", "flags", 32, 0x3, "CONFIG_TIMERFD", p_timerfd_settime,
     0, false},
    {"inotify_init1", "flags", 32, O_CLOEXEC_NONBLOCK, "CONFIG_INOTIFY_USER",
     p_inotify_init1, 0, false},
    {"msgsnd", "msgflg", 32, IPC_NOWAIT, "CONFIG_SYSVIPC", p_msgsnd, 0, false},
    /* IPC_NOWAIT, MSG_NOERROR, MSG_EXCEPT, MSG_COPY */
    {"msgrcv", "msgflg", 32, 0x7800ULL, "CONFIG_SYSVIPC", p_msgrcv, 0, false},
};
const size_t fa_proc_ncalls = ARRAY_SIZE(fa_proc_calls);
