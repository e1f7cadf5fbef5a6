/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_net.c - flagaudit's sockets: the type flags of socket and
 * socketpair, accept4, and the MSG_* flags of sendto/recvfrom (what send
 * and recv are on arm64) and sendmsg/recvmsg, on AF_UNIX sockets.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "flagaudit.h"
#include "helpers.h"

#define SOCK_TYPE_MASK 0xfULL
#define SOCK_FLAGS_ALL ((uint64_t)(SOCK_CLOEXEC | SOCK_NONBLOCK))

static int p_socket(uint64_t bit)
{
    long fd = syscall(SYS_socket, AF_UNIX, (int)(SOCK_DGRAM | bit), 0);

    if (fd < 0) {
        return errno;
    }
    close((int)fd);
    return 0;
}

static int p_socketpair(uint64_t bit)
{
    int sv[2];

    if (syscall(SYS_socketpair, AF_UNIX, (int)(SOCK_DGRAM | bit), 0, sv) < 0) {
        return errno;
    }
    close(sv[0]);
    close(sv[1]);
    return 0;
}

static int p_accept4(uint64_t bit)
{
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0), err;

    if (s < 0) {
        return errno;
    }
    /* an abstract name, no file: "\0flagaudit-accept4" */
    memcpy(sun.sun_path + 1, "flagaudit-accept4", 17);
    if (bind(s, (struct sockaddr *)&sun, sizeof(sa_family_t) + 18) < 0 ||
        listen(s, 1) < 0) {
        err = errno;
    } else {
        /* nothing pending on a non-blocking listener: EAGAIN past the
         * flags check */
        long fd = syscall(SYS_accept4, s, NULL, NULL, (int)bit);

        err = fa_err(fd, errno);
        if (fd >= 0) {
            close((int)fd);
        }
    }
    close(s);
    return err;
}

/* A datagram pair; with data, a byte waiting on sv[1]. */
static int pair(int sv[2], bool data)
{
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv) < 0) {
        return errno;
    }
    if (data && send(sv[0], "x", 1, 0) != 1) {
        int err = errno;

        close(sv[0]);
        close(sv[1]);
        return err;
    }
    return 0;
}

static int with_pair(bool data, uint64_t bit, int (*call)(int, uint64_t))
{
    int sv[2], err = pair(sv, data);

    if (err) {
        return err;
    }
    err = call(data ? sv[1] : sv[0], bit);
    close(sv[0]);
    close(sv[1]);
    return err;
}

static int do_sendto(int fd, uint64_t bit)
{
    return fa_err(syscall(SYS_sendto, fd, "x", 1,
                          (unsigned int)(MSG_DONTWAIT | bit), NULL, 0),
                  errno);
}

static int do_recvfrom(int fd, uint64_t bit)
{
    char buf[4];

    return fa_err(syscall(SYS_recvfrom, fd, buf, sizeof(buf),
                          (unsigned int)(MSG_DONTWAIT | bit), NULL, NULL),
                  errno);
}

static int do_sendmsg(int fd, uint64_t bit)
{
    struct iovec iov = {"x", 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};

    return fa_err(
        syscall(SYS_sendmsg, fd, &msg, (unsigned int)(MSG_DONTWAIT | bit)),
        errno);
}

static int do_recvmsg(int fd, uint64_t bit)
{
    char buf[4];
    struct iovec iov = {buf, sizeof(buf)};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};

    return fa_err(
        syscall(SYS_recvmsg, fd, &msg, (unsigned int)(MSG_DONTWAIT | bit)),
        errno);
}

static int p_sendto(uint64_t bit)
{
    return with_pair(false, bit, do_sendto);
}

static int p_recvfrom(uint64_t bit)
{
    return with_pair(true, bit, do_recvfrom);
}

static int p_sendmsg(uint64_t bit)
{
    return with_pair(false, bit, do_sendmsg);
}

static int p_recvmsg(uint64_t bit)
{
    return with_pair(true, bit, do_recvmsg);
}

const struct fa_call fa_net_calls[] = {
    /* the type's low 4 bits are the type (SOCK_TYPE_MASK) */
    {"socket", "type", 32, SOCK_TYPE_MASK | SOCK_FLAGS_ALL, "CONFIG_UNIX",
     p_socket, 0, false},
    {"socketpair", "type", 32, SOCK_TYPE_MASK | SOCK_FLAGS_ALL, "CONFIG_UNIX",
     p_socketpair, 0, false},
    {"accept4", "flags", 32, SOCK_FLAGS_ALL, "CONFIG_UNIX", p_accept4, EAGAIN,
     false},
    {"sendto", "flags", 32, FA_MSG_ALL, "CONFIG_UNIX", p_sendto, 0, false},
    {"recvfrom", "flags", 32, FA_MSG_ALL, "CONFIG_UNIX", p_recvfrom, 0, false},
    {"sendmsg", "flags", 32, FA_MSG_ALL, "CONFIG_UNIX", p_sendmsg, 0, false},
    {"recvmsg", "flags", 32, FA_MSG_ALL, "CONFIG_UNIX", p_recvmsg, 0, false},
};
const size_t fa_net_ncalls = ARRAY_SIZE(fa_net_calls);
