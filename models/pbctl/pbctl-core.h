/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbctl-core.h - QEMU-free core of the host control channel's protocol.
 *
 * A guest test that needs the host to act while it runs writes one request
 * line to the virtio-serial port "patchbay.ctl" and reads one reply line:
 *
 *   qom-set <qom-path> <property> <json-value>  ->  ok | error <message>
 *   qom-get <qom-path> <property>               ->  ok <json> | error <message>
 *   anything else                               ->  error unknown operation '<op>'
 *
 * Two hosts serve it: the runner (runner/guestctl.c, through QMP) and the
 * chardev backend "patchbay-ctl" inside QEMU (chardev/char-patchbay-ctl.c).
 * Both split the guest's bytes, parse the lines and word the replies with
 * this core, so a guest gets the same answers from either.  Checking the
 * value's JSON and carrying out the request is the host's part.
 *
 * Plain C (standard library only) so that QEMU compiles pbctl_sources
 * directly.  Strings it returns are malloc()ed: free() them.
 */
#ifndef PBCTL_CORE_H
#define PBCTL_CORE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest request line a host takes (without its newline). */
#define PBCTL_MAX_LINE 4096

/* Replies of the line checks (pbctl_parse_line). */
#define PBCTL_REPLY_TOO_LONG "error request too long"
#define PBCTL_REPLY_NOT_UTF8 "error the request is not UTF-8 text"

typedef enum PbctlOp {
    PBCTL_OP_SET, /* qom-set */
    PBCTL_OP_GET, /* qom-get */
} PbctlOp;

typedef struct PbctlRequest {
    PbctlOp op;
    char *path;
    char *property;
    char *value; /* qom-set: the value's JSON text, unchecked; qom-get: NULL */
} PbctlRequest;

/* "qom-set" or "qom-get". */
const char *pbctl_op_name(PbctlOp op);

/*
 * Parse a request line (no newline; trailing blanks are part of the last
 * word): true with *req filled (pbctl_request_clear() it), or false with
 * *reply the error line to send back (malloc()ed), for an unknown operation
 * or a wrong number of words.  Words are separated by each single space or
 * tab; the value is the rest of the line after the property.
 */
bool pbctl_parse(const char *line, PbctlRequest *req, char **reply);

/*
 * The same for a line as the splitter (PbctlLines) reports it: NULL (too
 * long) and text that is not UTF-8 are answered with PBCTL_REPLY_TOO_LONG
 * and PBCTL_REPLY_NOT_UTF8; trailing ASCII white space (a guest may send
 * CR LF) is dropped before parsing.
 */
bool pbctl_parse_line(const char *line, PbctlRequest *req, char **reply);

void pbctl_request_clear(PbctlRequest *req);

/* Replies, without newline. */
char *pbctl_reply_ok(const char *json);       /* "ok", or "ok <json>" */
char *pbctl_reply_error(const char *message); /* "error <message>" */
/* qom-set whose value the host's JSON parser rejects (why: its message) */
char *pbctl_reply_bad_value(const char *why);

/* Is s (NUL-terminated) valid UTF-8, as g_utf8_validate(s, -1, NULL)? */
bool pbctl_utf8_valid(const char *s);

/*
 * Splits the guest's byte stream into request lines without ever holding
 * more than PBCTL_MAX_LINE bytes: a longer line is reported once, as NULL,
 * when its newline arrives, and its bytes are dropped (the guest is
 * untrusted); while fn runs for it, buf holds the line's first
 * PBCTL_MAX_LINE bytes (for a log).  No allocation: embed it,
 * pbctl_lines_init() it.
 */
typedef void (*PbctlLineFunc)(const char *line, void *opaque);
typedef struct PbctlLines {
    char buf[PBCTL_MAX_LINE + 1];
    size_t len;
    bool overlong;
} PbctlLines;

void pbctl_lines_init(PbctlLines *lines);
void pbctl_lines_feed(PbctlLines *lines, const void *buf, size_t len,
                      PbctlLineFunc fn, void *opaque);

#endif /* PBCTL_CORE_H */
