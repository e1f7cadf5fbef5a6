/*
 * guestctl: guest requests over virtio-serial, carried out through QMP.
 * See guestctl.h for the protocol.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "guestctl.h"

#define MAX_REQUEST 4096

struct GuestCtl {
    char *qmp_path, *port_path;
    GSocketConnection *qmp, *port;
    GDataInputStream *qmp_in, *port_in;
};

GuestCtl *guestctl_new(const char *dir)
{
    GuestCtl *ctl = g_new0(GuestCtl, 1);

    ctl->qmp_path = g_build_filename(dir, "qmp.sock", NULL);
    ctl->port_path = g_build_filename(dir, "ctl.sock", NULL);
    return ctl;
}

void guestctl_free(GuestCtl *ctl)
{
    if (!ctl) {
        return;
    }
    g_clear_object(&ctl->qmp_in);
    g_clear_object(&ctl->port_in);
    g_clear_object(&ctl->qmp);
    g_clear_object(&ctl->port);
    g_free(ctl->qmp_path);
    g_free(ctl->port_path);
    g_free(ctl);
}

void guestctl_add_qemu_args(GuestCtl *ctl, GPtrArray *argv)
{
    g_ptr_array_add(argv, g_strdup("-qmp"));
    g_ptr_array_add(argv, g_strdup_printf("unix:%s,server=on,wait=off",
                                          ctl->qmp_path));
    g_ptr_array_add(argv, g_strdup("-chardev"));
    g_ptr_array_add(argv, g_strdup_printf(
        "socket,id=pbctl,path=%s,server=on,wait=off", ctl->port_path));
    g_ptr_array_add(argv, g_strdup("-device"));
    g_ptr_array_add(argv, g_strdup("virtio-serial-pci,id=pbctl-serial"));
    g_ptr_array_add(argv, g_strdup("-device"));
    g_ptr_array_add(argv, g_strdup(
        "virtserialport,chardev=pbctl,name=patchbay.ctl"));
}

char *guestctl_request_to_qmp(const char *line, char **reply)
{
    g_auto(GStrv) words = g_strsplit_set(line, " \t", 4);
    guint n = g_strv_length(words);
    g_autoptr(JsonBuilder) b = NULL;
    g_autoptr(JsonNode) value = NULL;
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GError) error = NULL;
    const char *op = n ? words[0] : "";

    *reply = NULL;
    if (strcmp(op, "qom-set") == 0 && n == 4) {
        value = json_from_string(words[3], &error);
        if (!value) {
            *reply = g_strdup_printf("error qom-set: the value is not JSON: %s",
                                     error ? error->message : "empty");
            return NULL;
        }
    } else if (strcmp(op, "qom-get") == 0 && n == 3) {
        /* no value */
    } else if (strcmp(op, "qom-set") == 0 || strcmp(op, "qom-get") == 0) {
        *reply = g_strdup_printf("error usage: qom-set PATH PROPERTY JSON | "
                                 "qom-get PATH PROPERTY");
        return NULL;
    } else {
        *reply = g_strdup_printf("error unknown operation '%s'", op);
        return NULL;
    }

    b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "execute");
    json_builder_add_string_value(b, op);
    json_builder_set_member_name(b, "arguments");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "path");
    json_builder_add_string_value(b, words[1]);
    json_builder_set_member_name(b, "property");
    json_builder_add_string_value(b, words[2]);
    if (value) {
        json_builder_set_member_name(b, "value");
        json_builder_add_value(b, g_steal_pointer(&value));
    }
    json_builder_end_object(b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    return json_to_string(root, FALSE);
}

char *guestctl_qmp_to_reply(const char *request_line, const char *qmp_response)
{
    g_autoptr(JsonNode) node = json_from_string(qmp_response, NULL);
    JsonObject *obj = node && JSON_NODE_HOLDS_OBJECT(node) ?
                      json_node_get_object(node) : NULL;
    gboolean is_get = g_str_has_prefix(request_line, "qom-get");

    if (obj && json_object_has_member(obj, "return")) {
        g_autofree char *value = NULL;

        if (!is_get) {
            return g_strdup("ok");
        }
        value = json_to_string(json_object_get_member(obj, "return"), FALSE);
        return g_strdup_printf("ok %s", value);
    }
    if (obj && json_object_has_member(obj, "error")) {
        JsonObject *err = json_object_get_object_member(obj, "error");
        const char *desc = err ? json_object_get_string_member_with_default(
                                     err, "desc", "unknown error")
                               : "unknown error";
        return g_strdup_printf("error %s", desc);
    }
    return g_strdup("error no answer from QEMU");
}

/* Send one QMP command and return its response, skipping async events. */
static char *qmp_execute(GuestCtl *ctl, const char *command, GError **error)
{
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(ctl->qmp));
    g_autofree char *line = g_strconcat(command, "\n", NULL);

    if (!g_output_stream_write_all(out, line, strlen(line), NULL, NULL, error)) {
        return NULL;
    }
    for (;;) {
        gsize len;
        char *resp = g_data_input_stream_read_line_utf8(ctl->qmp_in, &len,
                                                        NULL, error);

        if (!resp) {
            if (error && !*error) {
                g_set_error(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
                            "QMP connection closed");
            }
            return NULL;
        }
        if (!strstr(resp, "\"event\"")) {
            return resp;
        }
        g_free(resp);
    }
}

static void send_reply(GuestCtl *ctl, const char *reply)
{
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(ctl->port));
    g_autofree char *line = g_strconcat(reply, "\n", NULL);

    g_output_stream_write_all(out, line, strlen(line), NULL, NULL, NULL);
}

static void on_request(GObject *src, GAsyncResult *res, gpointer data)
{
    GuestCtl *ctl = data;
    g_autoptr(GError) error = NULL;
    gsize len;
    g_autofree char *line = g_data_input_stream_read_line_finish_utf8(
        G_DATA_INPUT_STREAM(src), res, &len, &error);
    g_autofree char *reply = NULL;
    g_autofree char *command = NULL;

    if (!line) {
        if (error && g_error_matches(error, G_IO_ERROR,
                                     G_IO_ERROR_INVALID_DATA)) {
            send_reply(ctl, "error the request is not UTF-8 text");
            goto next;
        }
        return;  /* QEMU went away */
    }
    g_strchomp(line);
    if (len > MAX_REQUEST) {
        reply = g_strdup("error request too long");
    } else if ((command = guestctl_request_to_qmp(line, &reply))) {
        g_autofree char *resp = qmp_execute(ctl, command, &error);

        reply = resp ? guestctl_qmp_to_reply(line, resp)
                     : g_strdup_printf("error QMP: %s", error->message);
    }
    send_reply(ctl, reply);
next:
    g_data_input_stream_read_line_async(ctl->port_in, G_PRIORITY_DEFAULT, NULL,
                                        on_request, ctl);
}

static GSocketConnection *connect_unix(const char *path, int timeout_ms,
                                       GError **error)
{
    g_autoptr(GSocketClient) client = g_socket_client_new();
    g_autoptr(GSocketAddress) addr = g_unix_socket_address_new(path);
    gint64 deadline = g_get_monotonic_time() + timeout_ms * 1000LL;

    for (;;) {
        g_autoptr(GError) local = NULL;
        GSocketConnection *conn = g_socket_client_connect(
            client, G_SOCKET_CONNECTABLE(addr), NULL, &local);

        if (conn) {
            return conn;
        }
        if (g_get_monotonic_time() > deadline) {
            g_propagate_prefixed_error(error, g_steal_pointer(&local),
                                       "%s: ", path);
            return NULL;
        }
        g_usleep(20 * 1000);
    }
}

gboolean guestctl_start(GuestCtl *ctl, int timeout_ms, GError **error)
{
    g_autofree char *greeting = NULL;
    g_autofree char *caps = NULL;
    gsize len;

    ctl->qmp = connect_unix(ctl->qmp_path, timeout_ms, error);
    if (!ctl->qmp) {
        return FALSE;
    }
    ctl->qmp_in = g_data_input_stream_new(
        g_io_stream_get_input_stream(G_IO_STREAM(ctl->qmp)));
    greeting = g_data_input_stream_read_line_utf8(ctl->qmp_in, &len, NULL,
                                                  error);
    if (!greeting) {
        return FALSE;
    }
    caps = qmp_execute(ctl, "{\"execute\": \"qmp_capabilities\"}", error);
    if (!caps) {
        return FALSE;
    }
    ctl->port = connect_unix(ctl->port_path, timeout_ms, error);
    if (!ctl->port) {
        return FALSE;
    }
    ctl->port_in = g_data_input_stream_new(
        g_io_stream_get_input_stream(G_IO_STREAM(ctl->port)));
    g_data_input_stream_read_line_async(ctl->port_in, G_PRIORITY_DEFAULT, NULL,
                                        on_request, ctl);
    return TRUE;
}
