/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gcovport: the guest's gcov stream, received and bounded. See gcovport.h.
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gcovport.h"

struct GcovPort {
    char *sock_path;
    GSocketConnection *conn;
    GcovSink sink;
    GcovPortEndFunc end;
    gpointer end_data;
    gboolean ended;
    char chunk[65536];
};

void gcovsink_init(GcovSink *sink, gsize max)
{
    sink->kept = g_byte_array_new();
    sink->max = max;
    sink->received = 0;
}

void gcovsink_clear(GcovSink *sink)
{
    if (sink->kept) {
        g_byte_array_unref(sink->kept);
        sink->kept = NULL;
    }
}

void gcovsink_feed(GcovSink *sink, const void *buf, gsize len)
{
    gsize room = sink->max - sink->kept->len;

    /* past max the bytes are counted, not kept: memory stays bounded and
     * the guest never waits on us */
    g_byte_array_append(sink->kept, buf, MIN(len, room));
    sink->received += len;
}

GcovPort *gcovport_new(const char *dir, gsize max)
{
    GcovPort *port = g_new0(GcovPort, 1);

    port->sock_path = g_build_filename(dir, "gcov.sock", NULL);
    gcovsink_init(&port->sink, max);
    port->ended = TRUE; /* until started */
    return port;
}

void gcovport_free(GcovPort *port)
{
    if (!port) {
        return;
    }
    g_clear_object(&port->conn);
    gcovsink_clear(&port->sink);
    g_free(port->sock_path);
    g_free(port);
}

const char *gcovport_socket_path(const GcovPort *port)
{
    return port->sock_path;
}

void gcovport_add_qemu_args(GcovPort *port, GPtrArray *argv)
{
    g_ptr_array_add(argv, g_strdup("-chardev"));
    g_ptr_array_add(
        argv, g_strdup_printf("socket,id=pbgcov,path=%s,server=on,wait=off",
                              port->sock_path));
    g_ptr_array_add(argv, g_strdup("-device"));
    /* guestctl's bus (virtio-serial-pci,id=pbctl-serial) */
    g_ptr_array_add(argv, g_strdup("virtserialport,bus=pbctl-serial.0,"
                                   "chardev=pbgcov,name=patchbay.gcov"));
}

static void read_more(GcovPort *port);

static void finish(GcovPort *port)
{
    if (!port->ended) {
        port->ended = TRUE;
        if (port->end) {
            port->end(port->end_data);
        }
    }
}

static void on_data(GObject *src, GAsyncResult *res, gpointer data)
{
    GcovPort *port = data;
    gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, NULL);

    if (n <= 0) {
        finish(port); /* QEMU went away */
        return;
    }
    gcovsink_feed(&port->sink, port->chunk, n);
    read_more(port);
}

static void read_more(GcovPort *port)
{
    g_input_stream_read_async(
        g_io_stream_get_input_stream(G_IO_STREAM(port->conn)), port->chunk,
        sizeof(port->chunk), G_PRIORITY_DEFAULT, NULL, on_data, port);
}

gboolean gcovport_start(GcovPort *port, int timeout_ms, GcovPortEndFunc end,
                        gpointer data, GError **error)
{
    g_autoptr(GSocketClient) client = g_socket_client_new();
    g_autoptr(GSocketAddress) addr = g_unix_socket_address_new(port->sock_path);
    gint64 deadline = g_get_monotonic_time() + timeout_ms * 1000LL;

    for (;;) {
        g_autoptr(GError) local = NULL;

        port->conn = g_socket_client_connect(client, G_SOCKET_CONNECTABLE(addr),
                                             NULL, &local);
        if (port->conn) {
            break;
        }
        if (g_get_monotonic_time() > deadline) {
            g_propagate_prefixed_error(error, g_steal_pointer(&local),
                                       "%s: ", port->sock_path);
            return FALSE;
        }
        g_usleep(20 * 1000);
    }
    port->end = end;
    port->end_data = data;
    port->ended = FALSE;
    read_more(port);
    return TRUE;
}

gboolean gcovport_ended(const GcovPort *port)
{
    return port->ended;
}

GBytes *gcovport_bytes(const GcovPort *port)
{
    return g_bytes_new(port->sink.kept->data, port->sink.kept->len);
}

guint64 gcovport_received(const GcovPort *port)
{
    return port->sink.received;
}

gboolean gcovport_write(const GcovPort *port, const char *path, GError **error)
{
    g_autofree char *cut_path = g_strconcat(path, ".cut", NULL);

    g_unlink(cut_path);
    if (!g_file_set_contents(path, (const char *)port->sink.kept->data,
                             port->sink.kept->len, error)) {
        return FALSE;
    }
    if (gcovsink_cut(&port->sink)) {
        g_autofree char *why =
            g_strdup_printf("cut: the guest sent %" G_GUINT64_FORMAT
                            " bytes, only the first %u were kept\n",
                            port->sink.received, port->sink.kept->len);

        return g_file_set_contents(cut_path, why, -1, error);
    }
    return TRUE;
}
