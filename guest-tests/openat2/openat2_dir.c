/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openat2_dir.c - the directory openat2_flags runs its cases in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "ktap.h"
#include "openat2_dir.h"

char test_dir[] = "/tmp/openat2_flags.XXXXXX";
int test_dirfd;
char ro_why[160];

static char ro_dir[sizeof("/tmp/openat2_flags.XXXXXX/ro")];
static bool ro_mounted;

/*
 * "ro": a tmpfs with "file", remounted read-only (the superblock, not just
 * the mount). A failure fails only the cases on it, with ro_why.
 */
static void mount_ro_tmpfs(void)
{
    int fd;

    snprintf(ro_dir, sizeof(ro_dir), "%s/ro", test_dir);
    if (mkdir(ro_dir, 0755)) {
        snprintf(ro_why, sizeof(ro_why), "mkdir %s: %s", ro_dir,
                 strerror(errno));
        return;
    }
    if (mount("tmpfs", ro_dir, "tmpfs", 0, "size=64k")) {
        snprintf(ro_why, sizeof(ro_why), "mount tmpfs on %s: %s", ro_dir,
                 strerror(errno));
        return;
    }
    ro_mounted = true;
    fd = openat(test_dirfd, "ro/file", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
                0644);
    if (fd < 0 || close(fd)) {
        snprintf(ro_why, sizeof(ro_why), "creating %s/file: %s", ro_dir,
                 strerror(errno));
        return;
    }
    if (mount(NULL, ro_dir, NULL, MS_REMOUNT | MS_RDONLY, NULL)) {
        snprintf(ro_why, sizeof(ro_why), "remounting %s read-only: %s", ro_dir,
                 strerror(errno));
    }
}

int make_test_dir(char *why)
{
    const char *dir = test_dir;
    int fd;

    if (!mkdtemp(test_dir)) {
        return kt_fail(why, "mkdtemp %s: %s", dir, strerror(errno));
    }
    test_dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (test_dirfd < 0) {
        return kt_fail(why, "open %s: %s", dir, strerror(errno));
    }
    fd = openat(test_dirfd, "file", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
                0644);
    if (fd < 0 || close(fd) || mkdirat(test_dirfd, "dir", 0755) ||
        symlinkat("file", test_dirfd, "symlink") ||
        symlinkat("missing", test_dirfd, "dangling")) {
        return kt_fail(why, "populating %s: %s", dir, strerror(errno));
    }
    mount_ro_tmpfs();
    if (ro_why[0]) {
        ktap_print_msg("%s", ro_why);
    }
    return 0;
}

void remove_test_dir(void)
{
    const char *dir = test_dir;
    DIR *d = opendir(dir);
    struct dirent *e;

    if (ro_mounted && umount2(ro_dir, MNT_DETACH)) {
        ktap_print_msg("umount %s: %s", ro_dir, strerror(errno));
    }
    if (!d) {
        ktap_print_msg("opendir %s: %s", dir, strerror(errno));
        return;
    }
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) {
            continue;
        }
        if (unlinkat(dirfd(d), e->d_name,
                     e->d_type == DT_DIR ? AT_REMOVEDIR : 0)) {
            ktap_print_msg("removing %s/%s: %s", dir, e->d_name,
                           strerror(errno));
        }
    }
    closedir(d);
    close(test_dirfd);
    if (rmdir(dir)) {
        ktap_print_msg("rmdir %s: %s", dir, strerror(errno));
    }
}
