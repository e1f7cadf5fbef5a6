// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Harness self-test: one passing, one failing and one skipped case, to prove
 * that a plain test failure gives verdict "fail" and exit code 1.
 */
#include <stdio.h>

int main(void)
{
    printf("KTAP version 1\n1..3\n");
    printf("ok 1 a passing case\n");
    printf("not ok 2 a failing case # expected 1, got 2\n");
    printf("ok 3 a skipped case # SKIP on purpose\n");
    return 1;
}
