/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guestctl: the host side of the guest's control channel.
 *
 * A guest test that needs the host to act while it runs (change a sensor's
 * temperature, unplug a slave) writes one request line to the virtio-serial
 * port "patchbay.ctl"; the runner turns it into a QMP command and writes one
 * reply line back:
 *
 *   qom-set <qom-path> <property> <json-value>  ->  ok | error <message>
 *   qom-get <qom-path> <property>               ->  ok <json> | error <message>
 *   anything else                               ->  error unknown operation
 *
 * The QMP connection also tells how QEMU ended (guestctl_shutdown_reason).
 */
#pragma once

#include <gio/gio.h>

typedef struct GuestCtl GuestCtl;

/*
 * Sockets live in dir; nothing is started yet. in_qemu: QEMU serves the
 * port itself (chardev patchbay-ctl), this side only keeps QMP, for how
 * QEMU ended: a recorded run (--record) has no input from outside the VM.
 */
GuestCtl *guestctl_new(const char *dir, gboolean in_qemu);
void guestctl_free(GuestCtl *ctl);

/* Append the QEMU arguments for the QMP socket alone (a replay: the port's
 * are in the recorded argv). */
void guestctl_add_qmp_args(GuestCtl *ctl, GPtrArray *argv);
/* Append the QEMU arguments for the QMP socket and the virtio-serial port. */
void guestctl_add_qemu_args(GuestCtl *ctl, GPtrArray *argv);

/* Append the QEMU arguments for the same port served inside QEMU, by our
 * chardev patchbay-ctl (the same requests and replies): for a VM that runs
 * without this runner, such as a LAVA job. */
void guestctl_add_in_qemu_args(GPtrArray *argv);

/* Connect to QEMU's sockets (retrying while QEMU starts up, up to
 * timeout_ms), negotiate QMP and start serving guest requests on the
 * default main context. */
gboolean guestctl_start(GuestCtl *ctl, int timeout_ms, GError **error);

/* Once QEMU has exited: the reason of its last QMP SHUTDOWN event
 * ("guest-shutdown" for a power-off, "guest-reset" for a reset under
 * -no-reboot, "host-signal", ...), or NULL (no QMP, or no such event).
 * Owned by ctl. */
const char *guestctl_shutdown_reason(GuestCtl *ctl);

/* Pure parts, unit-tested without QEMU. */

/* The reason of a QMP SHUTDOWN event line (g_free), or NULL for any other
 * line. */
char *guestctl_event_shutdown_reason(const char *qmp_line);

/* The QMP command (JSON text) for a request line, or NULL with *reply set
 * to the error line to send back. */
char *guestctl_request_to_qmp(const char *line, char **reply);

/* The reply line (without newline) for a QMP response object. */
char *guestctl_qmp_to_reply(const char *request_line, const char *qmp_response);

/* Splits the guest's byte stream into request lines without ever holding
 * more than max bytes: a longer line is reported once, as NULL, when its
 * newline arrives, and its bytes are dropped (the guest is untrusted). */
typedef struct GuestCtlLines GuestCtlLines;
typedef void (*GuestCtlLineFunc)(const char *line, gpointer data);
GuestCtlLines *guestctl_lines_new(gsize max);
void guestctl_lines_free(GuestCtlLines *lines);
void guestctl_lines_feed(GuestCtlLines *lines, const char *buf, gsize len,
                         GuestCtlLineFunc fn, gpointer data);
/* Bytes held for the current, unfinished line (at most max). */
gsize guestctl_lines_pending(const GuestCtlLines *lines);
/*
 * The same splitter for the serial console (patchbay-run): a longer line is
 * not dropped but cut, reported at once as its first max bytes followed by
 * cut_mark (KTAP_LIMIT_LINE_CUT), its other bytes dropped up to its end;
 * "\n", "\r" and "\r\n" each end a line, as G_DATA_STREAM_NEWLINE_TYPE_ANY
 * does.
 */
GuestCtlLines *guestctl_lines_new_console(gsize max, const char *cut_mark);
/* End of stream: report the unfinished line, if any. */
void guestctl_lines_flush(GuestCtlLines *lines, GuestCtlLineFunc fn,
                          gpointer data);
