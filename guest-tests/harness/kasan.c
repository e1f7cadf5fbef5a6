// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Harness self-test for the kasan kernel variant: have LKDTM overflow a
 * slab object (provoke-crash/DIRECT SLAB_LINEAR_OVERFLOW), to prove that a
 * KASAN report fails the run and is pinned on this case even though the
 * kernel survives and the case itself reports "ok".  Without LKDTM (any
 * other kernel) the case skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"
#define CRASH "SLAB_LINEAR_OVERFLOW"

int main(void)
{
    int fd;

    printf("KTAP version 1\n1..2\nok 1 before the overflow\n");
    fflush(stdout);
    if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) < 0 &&
        errno != EBUSY) {
        printf("ok 2 " CRASH " # SKIP cannot mount debugfs: %s\n",
               strerror(errno));
        return 0;
    }
    fd = open(DIRECT, O_WRONLY);
    if (fd < 0) {
        printf("ok 2 " CRASH " # SKIP no LKDTM in this kernel "
               "(--kernel-variant kasan has it)\n");
        return 0;
    }
    printf("# overflowing a 1020-byte slab object through LKDTM\n");
    fflush(stdout);
    if (write(fd, CRASH, strlen(CRASH)) < 0) {
        printf("not ok 2 " CRASH " # write: %s\n", strerror(errno));
        return 1;
    }
    /* KASAN reports and lets the kernel go on: the runner must fail the
     * run on the report, not on this line. */
    printf("ok 2 " CRASH " provoked\n");
    return 0;
}
