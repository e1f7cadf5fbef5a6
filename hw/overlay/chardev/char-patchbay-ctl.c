/*
 * patchbay host control channel, served inside QEMU
 *
 * A chardev backend (-chardev patchbay-ctl,id=ID) for the virtio-serial
 * port "patchbay.ctl" of patchbay's guest tests. The guest writes one
 * request line and reads one reply line:
 *
 *   qom-set <qom-path> <property> <json-value>  ->  ok | error <message>
 *   qom-get <qom-path> <property>               ->  ok <json> | error <message>
 *   anything else                               ->  error unknown operation '<op>'
 *
 * Without it, patchbay's runner serves the port through QMP; this backend
 * answers the same requests in-process (as the testdev chardev does), so a
 * VM needs no runner for them (LAVA). Splitting the guest's bytes into
 * lines, parsing them and wording the replies is patchbay's QEMU-free core
 * models/pbctl (pbctl-core.c, copied here by scripts/qemu-overlay), shared
 * with the runner; requests are carried out as QMP's qom-set and qom-get
 * do, and a failure is answered with the text QMP would give as the
 * error's "desc" (error_get_pretty()).
 *
 * The guest is untrusted: a request line is at most PBCTL_MAX_LINE bytes
 * (a longer one is dropped and answered with an error once its newline
 * arrives), and replies the guest does not read are held up to
 * PBCTL_CTL_MAX_QUEUED bytes, then dropped.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "chardev/char.h"
#include "qapi/error.h"
#include "qobject/qjson.h"
#include "qobject/qobject.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qom/object.h"
#include "qom/qom-qobject.h"
#include "pbctl-core.h"
#include "trace.h"

#define TYPE_CHARDEV_PATCHBAY_CTL "chardev-patchbay-ctl"

/* Replies waiting for the guest to read them, at most (bytes). */
#define PBCTL_CTL_MAX_QUEUED (64 * 1024)
/* A longer reply (a huge qom-get) is answered with an error instead. */
#define PBCTL_CTL_MAX_REPLY (PBCTL_CTL_MAX_QUEUED / 2)
/* How much of a too long request line the guest error log shows. */
#define PBCTL_CTL_LOG_HEAD 64

typedef struct PatchbayCtlChardev {
    Chardev parent;
    PbctlLines lines;   /* the request line being received */
    GString *out;       /* reply lines the frontend has not taken yet */
} PatchbayCtlChardev;

DECLARE_INSTANCE_CHECKER(PatchbayCtlChardev, PATCHBAY_CTL_CHARDEV,
                         TYPE_CHARDEV_PATCHBAY_CTL)

/*
 * Give the frontend as much of the queued replies as it takes now.  Called
 * in the guest's own write (and when it posts buffers), not from a bottom
 * half: the guest then sees its reply at a point fixed by what it executed,
 * so that a run recorded with -icount rr=record replays exactly (a bottom
 * half runs when the main loop gets to it; docs/record-replay.md).
 */
static void patchbay_ctl_flush(PatchbayCtlChardev *s)
{
    Chardev *chr = CHARDEV(s);

    while (s->out->len) {
        int n = MIN(qemu_chr_be_can_write(chr), (int)s->out->len);

        if (n <= 0) {
            return; /* again from chr_accept_input */
        }
        qemu_chr_be_write(chr, (const uint8_t *)s->out->str, n);
        g_string_erase(s->out, 0, n);
    }
}

static void patchbay_ctl_queue_reply(PatchbayCtlChardev *s, const char *reply)
{
    size_t len = strlen(reply);

    if (len > PBCTL_CTL_MAX_REPLY) {
        g_autofree char *msg = g_strdup_printf("reply too long (%zu bytes)",
                                               len);
        char *r = pbctl_reply_error(msg);

        patchbay_ctl_queue_reply(s, r);
        free(r);
        return;
    }
    if (s->out->len + len + 1 > PBCTL_CTL_MAX_QUEUED) {
        qemu_log_mask(LOG_GUEST_ERROR, "patchbay-ctl: the guest does not "
                      "read its replies (%u bytes queued): reply '%s' "
                      "dropped\n", (unsigned)s->out->len, reply);
        trace_patchbay_ctl_reply_dropped(len, s->out->len);
        return;
    }
    trace_patchbay_ctl_reply(reply);
    g_string_append_len(s->out, reply, len);
    g_string_append_c(s->out, '\n');
    patchbay_ctl_flush(s);
}

/* As QMP's qom-set (qom/qom-qmp-cmds.c): NULL for success. */
static char *patchbay_ctl_qom_set(const PbctlRequest *req)
{
    Error *err = NULL;
    QObject *value;
    Object *obj;
    char *reply;

    value = qobject_from_json(req->value, &err);
    if (!value) {
        qemu_log_mask(LOG_GUEST_ERROR, "patchbay-ctl: qom-set value is not "
                      "JSON: '%s'\n", req->value);
        reply = pbctl_reply_bad_value(err ? error_get_pretty(err) : "empty");
        error_free(err);
        return reply;
    }
    obj = object_resolve_path(req->path, NULL);
    if (!obj) {
        g_autofree char *msg = g_strdup_printf("Device '%s' not found",
                                               req->path);

        qobject_unref(value);
        return pbctl_reply_error(msg);
    }
    if (!object_property_set_qobject(obj, req->property, value, &err)) {
        reply = pbctl_reply_error(error_get_pretty(err));
        error_free(err);
    } else {
        reply = pbctl_reply_ok(NULL);
    }
    qobject_unref(value);
    return reply;
}

/* As QMP's qom-get, the value as JSON. */
static char *patchbay_ctl_qom_get(const PbctlRequest *req)
{
    g_autoptr(GString) json = NULL;
    Error *err = NULL;
    QObject *value;
    Object *obj;

    obj = object_resolve_path(req->path, NULL);
    if (!obj) {
        g_autofree char *msg = g_strdup_printf("Device '%s' not found",
                                               req->path);

        return pbctl_reply_error(msg);
    }
    value = object_property_get_qobject(obj, req->property, &err);
    if (!value) {
        char *reply = pbctl_reply_error(error_get_pretty(err));

        error_free(err);
        return reply;
    }
    json = qobject_to_json(value);
    qobject_unref(value);
    return pbctl_reply_ok(json->str);
}

/* One line from the guest (NULL: it was too long). */
static void patchbay_ctl_request(const char *line, void *opaque)
{
    PatchbayCtlChardev *s = opaque;
    PbctlRequest req;
    char *reply = NULL;

    if (!line) {
        /* while the splitter reports it, buf holds the line's head */
        g_autofree char *head = g_strndup(s->lines.buf,
                                          PBCTL_CTL_LOG_HEAD);
        g_autofree char *bytes = g_strescape(head, NULL);

        qemu_log_mask(LOG_GUEST_ERROR, "patchbay-ctl: request line longer "
                      "than %d bytes dropped: '%s...'\n", PBCTL_MAX_LINE,
                      bytes);
        trace_patchbay_ctl_request_too_long(PBCTL_MAX_LINE);
    } else {
        trace_patchbay_ctl_request(line);
    }
    if (!pbctl_parse_line(line, &req, &reply)) {
        if (line) {
            g_autofree char *bytes = g_strescape(line, NULL);

            qemu_log_mask(LOG_GUEST_ERROR, "patchbay-ctl: malformed request "
                          "'%s': %s\n", bytes, reply);
        }
    } else if (req.op == PBCTL_OP_SET) {
        reply = patchbay_ctl_qom_set(&req);
    } else {
        reply = patchbay_ctl_qom_get(&req);
    }
    pbctl_request_clear(&req);
    patchbay_ctl_queue_reply(s, reply);
    free(reply);
}

/* The guest wrote to the port. */
static int patchbay_ctl_chr_write(Chardev *chr, const uint8_t *buf, int len)
{
    PatchbayCtlChardev *s = PATCHBAY_CTL_CHARDEV(chr);

    if (len <= 0) {
        return 0;
    }
    pbctl_lines_feed(&s->lines, buf, len, patchbay_ctl_request, s);
    return len;
}

/* The frontend (the guest) can take input again. */
static void patchbay_ctl_chr_accept_input(Chardev *chr)
{
    PatchbayCtlChardev *s = PATCHBAY_CTL_CHARDEV(chr);

    patchbay_ctl_flush(s);
}

/*
 * The guest opened or closed the port: what an earlier user of it left
 * (a partial line, unread replies) is not for the next one.
 */
static void patchbay_ctl_chr_set_fe_open(Chardev *chr, int fe_open)
{
    PatchbayCtlChardev *s = PATCHBAY_CTL_CHARDEV(chr);

    trace_patchbay_ctl_guest_open(fe_open, s->out->len);
    if (!fe_open) {
        pbctl_lines_init(&s->lines);
        g_string_truncate(s->out, 0);
    }
}

static void patchbay_ctl_init(Object *obj)
{
    PatchbayCtlChardev *s = PATCHBAY_CTL_CHARDEV(obj);

    pbctl_lines_init(&s->lines);
    s->out = g_string_new(NULL);
}

static void patchbay_ctl_finalize(Object *obj)
{
    PatchbayCtlChardev *s = PATCHBAY_CTL_CHARDEV(obj);

    g_string_free(s->out, true);
}

static void char_patchbay_ctl_class_init(ObjectClass *oc, void *data)
{
    ChardevClass *cc = CHARDEV_CLASS(oc);

    cc->chr_write = patchbay_ctl_chr_write;
    cc->chr_accept_input = patchbay_ctl_chr_accept_input;
    cc->chr_set_fe_open = patchbay_ctl_chr_set_fe_open;
}

static const TypeInfo char_patchbay_ctl_type_info = {
    .name = TYPE_CHARDEV_PATCHBAY_CTL,
    .parent = TYPE_CHARDEV,
    .instance_size = sizeof(PatchbayCtlChardev),
    .instance_init = patchbay_ctl_init,
    .instance_finalize = patchbay_ctl_finalize,
    .class_init = char_patchbay_ctl_class_init,
};

static void register_types(void)
{
    type_register_static(&char_patchbay_ctl_type_info);
}

type_init(register_types);
