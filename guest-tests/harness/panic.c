/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Harness self-test: crash the kernel on purpose (sysrq 'c') in the middle
 * of a test case, to prove that the runner reports a panic, attributes it to
 * this case and exits 1.
 */
#include <fcntl.h>
#include <unistd.h>

#include "helpers.h"
#include "ktap.h"

#define CONSOLE_SETTLE_MS 1000

int main(void)
{
    int fd;

    ktap_print_header();
    ktap_set_plan(2);
    ktap_test_pass("before the crash");
    ktap_print_msg("crashing the kernel with sysrq-c during case 2");
    /*
     * /init copies these lines to the console: give it the time. A panic
     * or KASAN report prints straight to the UART, and what /init writes
     * meanwhile is interleaved with it byte by byte, which no parser can
     * take apart (seen: "[    # crashin g   t h0e. 8k9e5r1n0e7l]").
     */
    sleep_ms(CONSOLE_SETTLE_MS);
    fd = open("/proc/sysrq-trigger", O_WRONLY);
    if (fd < 0 || write(fd, "c", 1) != 1) {
        ktap_test_fail("sysrq-c", "cannot write /proc/sysrq-trigger");
        return ktap_finished();
    }
    /* Not reached: the kernel panics. */
    ktap_test_fail("sysrq-c", "the kernel survived sysrq-c");
    return ktap_finished();
}
