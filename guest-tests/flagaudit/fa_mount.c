/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_mount.c - flagaudit's mount calls: mount_setattr, the new mount API
 * (fsopen, fsmount, move_mount, open_tree, fspick) and umount2.
 *
 * Each probe runs in a throwaway child in a mount namespace of its own,
 * with a fresh tmpfs on fa_dir/mnt: whatever an accepted bit does to the
 * mounts ends with the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flagaudit.h"
#include "helpers.h"

/* linux/mount.h */
struct fa_mount_attr {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};

#define FSCONFIG_CMD_CREATE 6
#define OPEN_TREE_CLONE     1
/* MS_UNBINDABLE, MS_PRIVATE, MS_SLAVE, MS_SHARED */
#define PROPAGATION_ALL (0xfULL << 17)

static char mnt[PATH_MAX], mnt2[PATH_MAX];

/* A mount namespace of our own with a tmpfs on mnt: 0 or the errno. */
static int private_mount(void)
{
    fa_path(mnt, "mnt");
    fa_path(mnt2, "mnt2");
    if (unshare(CLONE_NEWNS) < 0) {
        return errno;
    }
    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
    if (mount("flagaudit", mnt, "tmpfs", 0, NULL) < 0) {
        return errno;
    }
    return 0;
}

static int setattr(unsigned int flags, const struct fa_mount_attr *attr)
{
    int err = private_mount();

    if (err) {
        return err;
    }
    return fa_err(
        syscall(SYS_mount_setattr, AT_FDCWD, mnt, flags, attr, sizeof(*attr)),
        errno);
}

static int p_setattr_flags(uint64_t bit)
{
    struct fa_mount_attr attr = {0};

    return setattr((unsigned int)bit, &attr);
}

static int p_setattr_set(uint64_t bit)
{
    struct fa_mount_attr attr = {.attr_set = bit};

    return setattr(0, &attr);
}

static int p_setattr_clr(uint64_t bit)
{
    struct fa_mount_attr attr = {.attr_clr = bit};

    return setattr(0, &attr);
}

static int p_setattr_propagation(uint64_t bit)
{
    struct fa_mount_attr attr = {.propagation = bit};

    return setattr(0, &attr);
}

static int p_fsopen(uint64_t bit)
{
    int err = private_mount();
    long fd;

    if (err) {
        return err;
    }
    fd = syscall(SYS_fsopen, "tmpfs", (unsigned int)bit);
    return fa_err(fd, errno);
}

static int fsmount_with(unsigned int flags, unsigned int attr)
{
    int err = private_mount();
    long fd;

    if (err) {
        return err;
    }
    fd = syscall(SYS_fsopen, "tmpfs", 0);
    if (fd < 0 ||
        syscall(SYS_fsconfig, fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
        return errno;
    }
    return fa_err(syscall(SYS_fsmount, fd, flags, attr), errno);
}

static int p_fsmount_flags(uint64_t bit)
{
    return fsmount_with((unsigned int)bit, 0);
}

static int p_fsmount_attr(uint64_t bit)
{
    return fsmount_with(0, (unsigned int)bit);
}

static int p_move_mount(uint64_t bit)
{
    int err = private_mount();
    long fd;

    if (err) {
        return err;
    }
    fd = syscall(SYS_open_tree, AT_FDCWD, mnt, OPEN_TREE_CLONE);
    if (fd < 0) {
        return errno;
    }
    /* MOVE_MOUNT_F_EMPTY_PATH: from the detached tree's fd */
    return fa_err(syscall(SYS_move_mount, fd, "", AT_FDCWD, mnt2,
                          (unsigned int)(0x4 | bit)),
                  errno);
}

static int p_open_tree(uint64_t bit)
{
    int err = private_mount();

    if (err) {
        return err;
    }
    return fa_err(syscall(SYS_open_tree, AT_FDCWD, mnt, (unsigned int)bit),
                  errno);
}

static int p_fspick(uint64_t bit)
{
    int err = private_mount();

    if (err) {
        return err;
    }
    return fa_err(syscall(SYS_fspick, AT_FDCWD, mnt, (unsigned int)bit), errno);
}

static int p_umount2(uint64_t bit)
{
    int err = private_mount();

    if (err) {
        return err;
    }
    return fa_err(syscall(SYS_umount2, mnt, (int)bit), errno);
}

#define AT_PATH_FLAGS \
    (FA_AT_EMPTY_PATH | FA_AT_NO_AUTOMOUNT | FA_AT_SYMLINK_NOFOLLOW)

const struct fa_call fa_mount_calls[] = {
    {"mount_setattr", "flags", 32, AT_PATH_FLAGS | FA_AT_RECURSIVE, NULL,
     p_setattr_flags, 0, true},
    /* MOUNT_ATTR_*: bits 0-3, the MOUNT_ATTR__ATIME field (0x70),
     * NODIRATIME, IDMAP, NOSYMFOLLOW */
    {"mount_setattr", "attr.attr_set", 64, FA_MOUNT_ATTR_ALL, NULL,
     p_setattr_set, 0, true},
    {"mount_setattr", "attr.attr_clr", 64, FA_MOUNT_ATTR_ALL, NULL,
     p_setattr_clr, 0, true},
    {"mount_setattr", "attr.propagation", 64, PROPAGATION_ALL, NULL,
     p_setattr_propagation, 0, true},
    /* FSOPEN_CLOEXEC */
    {"fsopen", "flags", 32, 0x1, NULL, p_fsopen, 0, true},
    /* FSMOUNT_CLOEXEC */
    {"fsmount", "flags", 32, 0x1, NULL, p_fsmount_flags, 0, true},
    {"fsmount", "attr_flags", 32, FA_MOUNT_ATTR_ALL, NULL, p_fsmount_attr, 0,
     true},
    {"move_mount", "flags", 32, FA_MOVE_MOUNT_MASK, NULL, p_move_mount, 0,
     true},
    {"open_tree", "flags", 32,
     OPEN_TREE_CLONE | O_CLOEXEC | AT_PATH_FLAGS | FA_AT_RECURSIVE, NULL,
     p_open_tree, 0, true},
    /* FSPICK_CLOEXEC, _SYMLINK_NOFOLLOW, _NO_AUTOMOUNT, _EMPTY_PATH */
    {"fspick", "flags", 32, 0xf, NULL, p_fspick, 0, true},
    /* MNT_FORCE, MNT_DETACH, MNT_EXPIRE, UMOUNT_NOFOLLOW */
    {"umount2", "flags", 32, 0xf, NULL, p_umount2, 0, true},
};
const size_t fa_mount_ncalls = ARRAY_SIZE(fa_mount_calls);
