/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openat2_dir.h - the directory openat2_flags runs its cases in
 * (openat2_dir.c).
 */
#ifndef OPENAT2_DIR_H
#define OPENAT2_DIR_H

extern char test_dir[];  /* its path, once made */
extern int test_dirfd;   /* an O_PATH fd of it, or 0 */
extern char ro_why[160]; /* why "ro" is missing, or "" */

/*
 * A fresh directory under /tmp with "file" (empty, regular), "dir",
 * "symlink" (to "file"), "dangling" (to "missing", which does not exist)
 * and "ro", a tmpfs holding "file", remounted read-only: the superblock,
 * not just the mount. Returns 0, or KTAP_FAIL with a reason in why; a
 * failure with "ro" only leaves the reason in ro_why.
 */
int make_test_dir(char *why);
/* Unmount "ro", then remove everything make_test_dir() made. */
void remove_test_dir(void);

#endif /* OPENAT2_DIR_H */
