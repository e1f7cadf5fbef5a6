/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gcovport: the host end of the guest's virtio-serial port "patchbay.gcov"
 * (patchbay-run --gcov FILE, scripts/patchbay coverage, docs/coverage.md).
 *
 * After its suites, a guest booted with patchbay.gcov=1 writes its kernel's
 * gcov counters to the port (guest-tests/init/gcovsend.c). The port is a
 * unix-socket chardev on guestctl's virtio-serial bus; the runner keeps at
 * most a fixed number of the bytes (the rest is read and dropped, so that
 * the guest never blocks on a full port) and writes them, as they came, to
 * a file whose name the host chose. patchbay-gcov parses them.
 */
#pragma once

#include <gio/gio.h>

/* The bytes a VM may send: past them the stream is cut. */
#define GCOVPORT_MAX_BYTES (32u << 20)

typedef struct GcovPort GcovPort;
typedef void (*GcovPortEndFunc)(gpointer data);

/* Its socket lives in dir; nothing is started yet. At most max bytes are
 * kept. */
GcovPort *gcovport_new(const char *dir, gsize max);
void gcovport_free(GcovPort *port);

/* Append the QEMU arguments for the chardev and the port, on the
 * virtio-serial bus that guestctl_add_qemu_args() creates. */
void gcovport_add_qemu_args(GcovPort *port, GPtrArray *argv);

/* Connect to QEMU's socket (retrying while QEMU starts, up to timeout_ms)
 * and read the guest's stream on the default main context; end(data) is
 * called once, when it ends (QEMU closed it, or a read failed). */
gboolean gcovport_start(GcovPort *port, int timeout_ms, GcovPortEndFunc end,
                        gpointer data, GError **error);

/* Has the stream ended (or never started)? */
gboolean gcovport_ended(const GcovPort *port);

/* The bytes kept (at most max), and the bytes the guest sent in all. */
GBytes *gcovport_bytes(const GcovPort *port);
guint64 gcovport_received(const GcovPort *port);

/* Write the kept bytes to path (created or truncated: the name is the
 * host's); when the stream was cut, path.cut says so. */
gboolean gcovport_write(const GcovPort *port, const char *path, GError **error);

/* The socket's path, for cleaning up. */
const char *gcovport_socket_path(const GcovPort *port);

/* Pure part: the bounded buffer, unit-tested without QEMU. */
typedef struct {
    GByteArray *kept;
    gsize max;
    guint64 received;
} GcovSink;

void gcovsink_init(GcovSink *sink, gsize max);
void gcovsink_clear(GcovSink *sink);
void gcovsink_feed(GcovSink *sink, const void *buf, gsize len);
static inline gboolean gcovsink_cut(const GcovSink *sink)
{
    return sink->received > sink->kept->len;
}
