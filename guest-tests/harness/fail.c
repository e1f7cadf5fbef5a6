/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Harness self-test: one passing, one failing and one skipped case, to prove
 * that a plain test failure gives verdict "fail" and exit code 1.
 */
#include "ktap.h"

int main(void)
{
    ktap_print_header();
    ktap_set_plan(3);
    ktap_test_pass("a passing case");
    ktap_test_fail("a failing case", "expected 1, got 2");
    ktap_test_skip("a skipped case", "on purpose");
    return ktap_finished();
}
