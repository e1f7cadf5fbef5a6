// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Harness self-test: crash the kernel on purpose (sysrq 'c') in the middle
 * of a test case, to prove that the runner reports a panic, attributes it to
 * this case and exits 1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int fd;

    printf("KTAP version 1\n1..2\nok 1 before the crash\n");
    printf("# crashing the kernel with sysrq-c during case 2\n");
    fflush(stdout);
    fd = open("/proc/sysrq-trigger", O_WRONLY);
    if (fd < 0 || write(fd, "c", 1) != 1) {
        printf("not ok 2 sysrq-c # cannot write /proc/sysrq-trigger\n");
        return 1;
    }
    /* Not reached: the kernel panics. */
    printf("not ok 2 sysrq-c # the kernel survived sysrq-c\n");
    return 1;
}
