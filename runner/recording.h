/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording: a run of patchbay-run --record, made with QEMU's
 * deterministic record/replay (-icount ...,rr=record), kept as a folder
 * that replays with nothing else from patchbay's cache but the same QEMU:
 *
 *   recording.json        what was recorded: the SHA-256 of QEMU, of the
 *                         kernel and of the initramfs; each VM's QEMU
 *                         argv, suites and verdict; the vmlinux to debug
 *   Image, initrd.cpio.gz the guest's kernel and initramfs, copied
 *   NAME.replay.bin       VM NAME's replay log (QEMU's rrfile)
 *   NAME.snapshot.qcow2   the snapshot of its start (rrsnapshot=init),
 *                         where a reverse step starts over from
 *   NAME.console          the bytes its serial console printed
 *
 * QEMU runs in the folder, and its argv names these files relative to it,
 * so the folder can be moved to another machine (docs/record-replay.md).
 */
#pragma once

#include <glib.h>

#define RECORDING_JSON     "recording.json"
#define RECORDING_KERNEL   "Image"
#define RECORDING_INITRD   "initrd.cpio.gz"
#define RECORDING_SNAPSHOT "init"

typedef struct {
    char *name;
    char **suites;
    char **argv; /* argv[0]: QEMU's file name only; NULL-terminated */
    int cpus;
    gboolean virtual_clock;
    char *verdict; /* pass, fail or incomplete */
    char *stop_why; /* why the runner stopped it (a hang), or NULL */
} RecordedVm;

typedef struct {
    char *dir;
    char *qemu_sha256, *kernel_sha256, *initrd_sha256;
    char *variant, *release;
    char *vmlinux; /* the DWARF vmlinux the kernel was linked with, or NULL */
    GPtrArray *vms; /* RecordedVm * */
} Recording;

Recording *recording_new(const char *dir);
void recording_free(Recording *rec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Recording, recording_free)

/*
 * Start a recording in rec->dir: create it, copy the kernel and the
 * initramfs into it, and note the three SHA-256 (QEMU's too).
 */
gboolean recording_prepare(Recording *rec, const char *qemu, const char *kernel,
                           const char *initrd, GError **error);

/* The path of VM vm's file with this suffix (".console", ...). */
char *recording_path(const Recording *rec, const char *vm, const char *suffix);

/* The empty qcow2 image that is to hold VM vm's starting snapshot
 * (qemu-img, from Debian's qemu-utils). */
gboolean recording_create_snapshot_image(const Recording *rec, const char *vm,
                                         GError **error);

/*
 * Append the arguments that record VM vm to a QEMU argv: -icount with
 * rr=record and sleep=off (whatever the suite's clock), its replay log, and
 * its snapshot image. The VM must have one vCPU: QEMU records no more.
 */
void recording_add_record_args(const char *vm, GPtrArray *argv);

/* Keep VM vm's argv (argv[0], QEMU, by its file name only; without the
 * runner's -qmp), suites, verdict and the runner's reason for stopping it
 * (NULL: it ended by itself) for recording_save(). */
void recording_add_vm(Recording *rec, const char *vm, char **suites,
                      GPtrArray *argv, int cpus, gboolean virtual_clock,
                      const char *verdict, const char *stop_why);

gboolean recording_save(const Recording *rec, GError **error);
Recording *recording_load(const char *dir, GError **error);

/* The recorded VM called name (NULL: the first that did not pass, else the
 * first), or NULL. */
const RecordedVm *recording_find_vm(const Recording *rec, const char *name);

/* FALSE (with a message) unless qemu is the QEMU that recorded: a replay on
 * another build diverges. */
gboolean recording_check_qemu(const Recording *rec, const char *qemu,
                              GError **error);

/* The argv that replays vm with this qemu (rr=replay), NULL-terminated. */
GPtrArray *recording_replay_argv(const RecordedVm *vm, const char *qemu);

/*
 * Compare a recorded console with a replayed one, byte for byte: *same, and
 * *report says how many bytes, or where they first differ (the line number
 * and both lines, escaped, cut at 200 bytes). FALSE if a file is unreadable.
 */
gboolean recording_compare_consoles(const char *recorded, const char *replayed,
                                    gboolean *same, char **report,
                                    GError **error);
