/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guestctl: guest requests over virtio-serial, carried out through QMP.
 * See guestctl.h for the protocol.
 */
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "guestctl.h"
#include "pbctl-core.h"

#define MAX_REQUEST PBCTL_MAX_LINE
/* What guestctl_shutdown_reason() reads of QMP after QEMU ended: events
 * only (QEMU rate-limits the ones a guest can cause at will). */
#define MAX_QMP_TAIL_LINES 4096

struct GuestCtl {
    char *qmp_path, *port_path;
    gboolean in_qemu; /* QEMU serves the port (chardev patchbay-ctl) */
    GSocketConnection *qmp, *port;
    GDataInputStream *qmp_in; /* QEMU's QMP: trusted */
    GuestCtlLines *requests;  /* the guest's port: bounded */
    char *shutdown_reason;    /* of QMP's last SHUTDOWN event */
    char chunk[512];
};

struct GuestCtlLines {
    GString *line;
    gsize max;
    gboolean overlong;
    /* console mode: cut overlong lines with this mark; CR ends lines too */
    char *cut_mark;
    gboolean after_cr; /* the LF of a CR LF is no second line */
};

GuestCtlLines *guestctl_lines_new(gsize max)
{
    GuestCtlLines *lines = g_new0(GuestCtlLines, 1);

    lines->line = g_string_sized_new(max + 1);
    lines->max = max;
    return lines;
}

GuestCtlLines *guestctl_lines_new_console(gsize max, const char *cut_mark)
{
    GuestCtlLines *lines = guestctl_lines_new(max);

    lines->cut_mark = g_strdup(cut_mark);
    return lines;
}

void guestctl_lines_free(GuestCtlLines *lines)
{
    if (lines) {
        g_string_free(lines->line, TRUE);
        g_free(lines->cut_mark);
        g_free(lines);
    }
}

static void end_line(GuestCtlLines *lines, GuestCtlLineFunc fn, gpointer data)
{
    /* a console line that was cut has been reported already */
    if (!lines->overlong || !lines->cut_mark) {
        fn(lines->overlong ? NULL : lines->line->str, data);
    }
    g_string_truncate(lines->line, 0);
    lines->overlong = FALSE;
}

void guestctl_lines_flush(GuestCtlLines *lines, GuestCtlLineFunc fn,
                          gpointer data)
{
    if (lines->line->len || lines->overlong) {
        end_line(lines, fn, data);
    }
}

gsize guestctl_lines_pending(const GuestCtlLines *lines)
{
    return lines->line->len;
}

void guestctl_lines_feed(GuestCtlLines *lines, const char *buf, gsize len,
                         GuestCtlLineFunc fn, gpointer data)
{
    for (gsize i = 0; i < len; i++) {
        gboolean after_cr = lines->after_cr;

        lines->after_cr = FALSE;
        if (buf[i] == '\n' && after_cr) {
            continue;
        }
        if (buf[i] == '\n' || (buf[i] == '\r' && lines->cut_mark)) {
            lines->after_cr = buf[i] == '\r';
            end_line(lines, fn, data);
        } else if (lines->overlong) {
            continue; /* dropped up to the line's end */
        } else if (lines->line->len < lines->max) {
            g_string_append_c(lines->line, buf[i]);
        } else {
            lines->overlong = TRUE;
            if (lines->cut_mark) {
                /* the console's head now, not when (if) its end comes */
                g_string_append(lines->line, lines->cut_mark);
                fn(lines->line->str, data);
                g_string_truncate(lines->line, 0);
            }
        }
    }
}

GuestCtl *guestctl_new(const char *dir, gboolean in_qemu)
{
    GuestCtl *ctl = g_new0(GuestCtl, 1);

    ctl->in_qemu = in_qemu;
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
    guestctl_lines_free(ctl->requests);
    g_clear_object(&ctl->qmp);
    g_clear_object(&ctl->port);
    g_free(ctl->shutdown_reason);
    g_free(ctl->qmp_path);
    g_free(ctl->port_path);
    g_free(ctl);
}

/* The guest's port "patchbay.ctl" on the chardev "pbctl" (chardev_opts). */
static void add_port_args(GPtrArray *argv, char *chardev_opts)
{
    g_ptr_array_add(argv, g_strdup("-chardev"));
    g_ptr_array_add(argv, chardev_opts);
    g_ptr_array_add(argv, g_strdup("-device"));
    g_ptr_array_add(argv, g_strdup("virtio-serial-pci,id=pbctl-serial"));
    g_ptr_array_add(argv, g_strdup("-device"));
    g_ptr_array_add(argv,
                    g_strdup("virtserialport,chardev=pbctl,name=patchbay.ctl"));
}

void guestctl_add_qmp_args(GuestCtl *ctl, GPtrArray *argv)
{
    g_ptr_array_add(argv, g_strdup("-qmp"));
    g_ptr_array_add(
        argv, g_strdup_printf("unix:%s,server=on,wait=off", ctl->qmp_path));
}

void guestctl_add_qemu_args(GuestCtl *ctl, GPtrArray *argv)
{
    guestctl_add_qmp_args(ctl, argv);
    if (ctl->in_qemu) {
        guestctl_add_in_qemu_args(argv);
        return;
    }
    add_port_args(argv,
                  g_strdup_printf("socket,id=pbctl,path=%s,server=on,wait=off",
                                  ctl->port_path));
}

void guestctl_add_in_qemu_args(GPtrArray *argv)
{
    add_port_args(argv, g_strdup("patchbay-ctl,id=pbctl"));
}

/* The core's malloc()ed strings as g_malloc()ed ones (g_free). */
static char *take_core_string(char *s)
{
    char *g = g_strdup(s);

    free(s);
    return g;
}

/* The QMP command for a parsed request, or NULL with *reply set to the
 * error line (the value is not JSON). */
static char *request_to_qmp(const PbctlRequest *req, char **reply)
{
    g_autoptr(JsonBuilder) b = NULL;
    g_autoptr(JsonNode) value = NULL;
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GError) error = NULL;

    *reply = NULL;
    if (req->op == PBCTL_OP_SET) {
        value = json_from_string(req->value, &error);
        if (!value) {
            *reply = take_core_string(
                pbctl_reply_bad_value(error ? error->message : "empty"));
            return NULL;
        }
    }

    b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "execute");
    json_builder_add_string_value(b, pbctl_op_name(req->op));
    json_builder_set_member_name(b, "arguments");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "path");
    json_builder_add_string_value(b, req->path);
    json_builder_set_member_name(b, "property");
    json_builder_add_string_value(b, req->property);
    if (value) {
        json_builder_set_member_name(b, "value");
        json_builder_add_value(b, g_steal_pointer(&value));
    }
    json_builder_end_object(b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    return json_to_string(root, FALSE);
}

char *guestctl_request_to_qmp(const char *line, char **reply)
{
    PbctlRequest req;
    char *core_reply = NULL;
    char *command;

    *reply = NULL;
    if (!pbctl_parse(line, &req, &core_reply)) {
        *reply = take_core_string(core_reply);
        return NULL;
    }
    command = request_to_qmp(&req, reply);
    pbctl_request_clear(&req);
    return command;
}

char *guestctl_qmp_to_reply(const char *request_line, const char *qmp_response)
{
    g_autoptr(JsonNode) node = json_from_string(qmp_response, NULL);
    JsonObject *obj = node && JSON_NODE_HOLDS_OBJECT(node)
                          ? json_node_get_object(node)
                          : NULL;
    gboolean is_get = g_str_has_prefix(request_line, "qom-get");

    if (obj && json_object_has_member(obj, "return")) {
        g_autofree char *value = NULL;

        if (is_get) {
            value =
                json_to_string(json_object_get_member(obj, "return"), FALSE);
        }
        return take_core_string(pbctl_reply_ok(value));
    }
    if (obj && json_object_has_member(obj, "error")) {
        JsonObject *err = json_object_get_object_member(obj, "error");
        const char *desc = err ? json_object_get_string_member_with_default(
                                     err, "desc", "unknown error")
                               : "unknown error";
        return take_core_string(pbctl_reply_error(desc));
    }
    return take_core_string(pbctl_reply_error("no answer from QEMU"));
}

char *guestctl_event_shutdown_reason(const char *qmp_line)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonObject *o, *data;
    JsonNode *root;

    if (!json_parser_load_from_data(parser, qmp_line, -1, NULL)) {
        return NULL;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        return NULL;
    }
    o = json_node_get_object(root);
    if (g_strcmp0(json_object_get_string_member_with_default(o, "event", ""),
                  "SHUTDOWN") != 0 ||
        !json_object_has_member(o, "data") ||
        !JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "data"))) {
        return NULL;
    }
    data = json_object_get_object_member(o, "data");
    return g_strdup(
        json_object_get_string_member_with_default(data, "reason", "unknown"));
}

/* Remember what an async event says that the runner wants later. */
static void note_event(GuestCtl *ctl, const char *line)
{
    char *reason = guestctl_event_shutdown_reason(line);

    if (reason) {
        g_free(ctl->shutdown_reason);
        ctl->shutdown_reason = reason;
    }
}

const char *guestctl_shutdown_reason(GuestCtl *ctl)
{
    for (guint n = 0; ctl->qmp_in && n < MAX_QMP_TAIL_LINES; n++) {
        gsize len;
        g_autofree char *line =
            g_data_input_stream_read_line_utf8(ctl->qmp_in, &len, NULL, NULL);

        if (!line) {
            break;
        }
        note_event(ctl, line);
    }
    return ctl->shutdown_reason;
}

/* Send one QMP command and return its response, noting async events. */
static char *qmp_execute(GuestCtl *ctl, const char *command, GError **error)
{
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(ctl->qmp));
    g_autofree char *line = g_strconcat(command, "\n", NULL);

    if (!g_output_stream_write_all(out, line, strlen(line), NULL, NULL,
                                   error)) {
        return NULL;
    }
    for (;;) {
        gsize len;
        char *resp =
            g_data_input_stream_read_line_utf8(ctl->qmp_in, &len, NULL, error);

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
        note_event(ctl, resp);
        g_free(resp);
    }
}

static void send_reply(GuestCtl *ctl, const char *reply)
{
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(ctl->port));
    g_autofree char *line = g_strconcat(reply, "\n", NULL);

    g_output_stream_write_all(out, line, strlen(line), NULL, NULL, NULL);
}

static void on_request(const char *line, gpointer data)
{
    GuestCtl *ctl = data;
    g_autoptr(GError) error = NULL;
    g_autofree char *reply = NULL;
    g_autofree char *command = NULL;
    PbctlRequest req;
    char *core_reply = NULL;

    /* too long, not UTF-8, CR LF: as QEMU's patchbay-ctl chardev does */
    if (!pbctl_parse_line(line, &req, &core_reply)) {
        reply = take_core_string(core_reply);
    } else if ((command = request_to_qmp(&req, &reply))) {
        g_autofree char *resp = qmp_execute(ctl, command, &error);

        reply = resp ? guestctl_qmp_to_reply(pbctl_op_name(req.op), resp)
                     : g_strdup_printf("error QMP: %s", error->message);
    }
    pbctl_request_clear(&req);
    send_reply(ctl, reply);
}

static void read_port(GuestCtl *ctl);

static void on_port_data(GObject *src, GAsyncResult *res, gpointer data)
{
    GuestCtl *ctl = data;
    gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, NULL);

    if (n <= 0) {
        return; /* QEMU went away */
    }
    guestctl_lines_feed(ctl->requests, ctl->chunk, n, on_request, ctl);
    read_port(ctl);
}

static void read_port(GuestCtl *ctl)
{
    g_input_stream_read_async(
        g_io_stream_get_input_stream(G_IO_STREAM(ctl->port)), ctl->chunk,
        sizeof(ctl->chunk), G_PRIORITY_DEFAULT, NULL, on_port_data, ctl);
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
    greeting =
        g_data_input_stream_read_line_utf8(ctl->qmp_in, &len, NULL, error);
    if (!greeting) {
        return FALSE;
    }
    caps = qmp_execute(ctl, "{\"execute\": \"qmp_capabilities\"}", error);
    if (!caps) {
        return FALSE;
    }
    if (ctl->in_qemu) {
        return TRUE;
    }
    ctl->port = connect_unix(ctl->port_path, timeout_ms, error);
    if (!ctl->port) {
        return FALSE;
    }
    ctl->requests = guestctl_lines_new(MAX_REQUEST);
    read_port(ctl);
    return TRUE;
}
