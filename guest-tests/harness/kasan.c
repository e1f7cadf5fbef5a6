/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Harness self-test for the kasan kernel variant: have LKDTM overflow a
 * slab object (provoke-crash/DIRECT SLAB_LINEAR_OVERFLOW), to prove that a
 * KASAN report fails the run and is pinned on this case even though the
 * kernel survives and the case itself reports "ok".  Without LKDTM (any
 * other kernel) the case skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "helpers.h"
#include "ktap.h"

#define DIRECT "/sys/kernel/debug/provoke-crash/DIRECT"
#define CRASH  "SLAB_LINEAR_OVERFLOW"

#define CONSOLE_SETTLE_MS 1000

int main(void)
{
    int fd;

    ktap_print_header();
    ktap_set_plan(2);
    ktap_test_pass("before the overflow");
    if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) < 0 &&
        errno != EBUSY) {
        ktap_test_skip(CRASH, "cannot mount debugfs: %s", strerror(errno));
        return ktap_finished();
    }
    fd = open(DIRECT, O_WRONLY);
    if (fd < 0) {
        ktap_test_skip(CRASH, "no LKDTM in this kernel "
                              "(--kernel-variant kasan has it)");
        return ktap_finished();
    }
    ktap_print_msg("overflowing a 1020-byte slab object through LKDTM");
    /*
     * /init copies these lines to the console: give it the time. A panic
     * or KASAN report prints straight to the UART, and what /init writes
     * meanwhile is interleaved with it byte by byte, which no parser can
     * take apart (seen: "[    # crashin g   t h0e. 8k9e5r1n0e7l]").
     */
    sleep_ms(CONSOLE_SETTLE_MS);
    if (write(fd, CRASH, strlen(CRASH)) < 0) {
        ktap_test_fail(CRASH, "write: %s", strerror(errno));
        return ktap_finished();
    }
    /*
     * KASAN reports and lets the kernel go on: the runner must fail the
     * run on the report, not on this line.
     */
    ktap_test_pass(CRASH " provoked");
    return ktap_finished();
}
