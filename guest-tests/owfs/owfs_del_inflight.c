/* SPDX-License-Identifier: GPL-2.0 */
/*
 * owfs_del_inflight - minimal reproducer of an owfs 3.2p4 use-after-free
 * (docs/suites/owfs.md, "owfs's own bugs"): not a test, a program to run by
 * hand in "scripts/patchbay shell --suite owfs":
 *
 *     /libexec/patchbay/owfs_del_inflight   -> Segmentation fault
 *
 * RemoveW1Bus() is what owfs's w1 client runs when the kernel announces
 * W1_MASTER_REMOVE (the DS2490 unbound or unplugged). Del_InFlight() walks
 * its list with pin = pin->next after freeing pin; glibc's tcache has put
 * a mangled pointer there, and the next iteration dereferences it. No
 * kernel, no netlink and no device are involved: the two calls below are
 * the whole path.
 */
#include <stdio.h>

/* libow's exported internals (module/owlib/src/include, not installed) */
void API_setup(int program_type);
void AddW1Bus(int bus_master);
void RemoveW1Bus(int bus_master);
#define OWFS_PROGRAM_TYPE_CLIBRARY 7 /* enum enum_program_type */

int main(void)
{
    API_setup(OWFS_PROGRAM_TYPE_CLIBRARY);
    AddW1Bus(1); /* as if W1_LIST_MASTERS had listed master 1 */
    fprintf(stderr,
            "owfs: bus 1 added; removing it as W1_MASTER_REMOVE would\n");
    RemoveW1Bus(1);
    fprintf(stderr, "owfs: survived RemoveW1Bus(1): the bug is fixed\n");
    return 0;
}
