// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Harness self-test: a case that never ends and never prints again, to prove
 * that the runner's watchdog reports a hang for this case and exits 1. The
 * suite's timeout file disables /init's own per-executable timeout.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    printf("KTAP version 1\n1..2\nok 1 before the hang\n");
    printf("# case 2 sleeps forever\n");
    fflush(stdout);
    for (;;) {
        pause();
    }
}
