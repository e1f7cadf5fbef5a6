/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Harness self-test: a case that never ends and never prints again, to prove
 * that the runner's watchdog reports a hang for this case and exits 1. The
 * suite's timeout file disables /init's own per-executable timeout.
 */
#include <unistd.h>

#include "ktap.h"

int main(void)
{
    ktap_print_header();
    ktap_set_plan(2);
    ktap_test_pass("before the hang");
    ktap_print_msg("case 2 sleeps forever");
    for (;;) {
        pause();
    }
}
