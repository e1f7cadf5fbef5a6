/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-pbctl: a hostile guest on the host control channel's core
 * (models/pbctl), as QEMU's patchbay-ctl chardev and the runner drive it.
 * The first byte picks the write size (1..256 bytes; the glue gets the
 * guest's bytes in pieces of any size), the rest is the guest's byte
 * stream: split into lines by PbctlLines, each line parsed with
 * pbctl_parse_line() and answered.
 *
 * Invariants: the splitter never holds more than PBCTL_MAX_LINE bytes; a
 * line it reports is at most that long; a request is either parsed (its
 * words are pieces of the line, UTF-8, the value only for qom-set) or
 * answered with one "error ..." line that has no newline and is at most
 * the line plus a fixed text long; every reply formats as one line.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"
#include "pbctl-core.h"

/* the longest fixed text of an error reply ("error usage: ...") */
#define MAX_REPLY_TEXT 80

static void check_reply(const char *reply, size_t line_len)
{
    FUZZ_CHECK(reply != NULL);
    FUZZ_CHECK(strncmp(reply, "error ", 6) == 0);
    FUZZ_CHECK(strchr(reply, '\n') == NULL);
    FUZZ_CHECK(strlen(reply) <= line_len + MAX_REPLY_TEXT);
}

static void on_line(const char *line, void *opaque)
{
    size_t len = line ? strlen(line) : 0;
    PbctlRequest req;
    char *reply = NULL;
    char *r;

    (void)opaque;
    FUZZ_CHECK(len <= PBCTL_MAX_LINE);
    if (!pbctl_parse_line(line, &req, &reply)) {
        check_reply(reply, len);
        FUZZ_CHECK(req.path == NULL && req.value == NULL);
        free(reply);
        return;
    }
    FUZZ_CHECK(reply == NULL);
    FUZZ_CHECK(req.path && req.property);
    FUZZ_CHECK((req.op == PBCTL_OP_SET) == (req.value != NULL));
    FUZZ_CHECK(strlen(req.path) + strlen(req.property) +
                   (req.value ? strlen(req.value) : 0) <= len);
    FUZZ_CHECK(pbctl_utf8_valid(req.path) && pbctl_utf8_valid(req.property));
    FUZZ_CHECK(strstr(line, req.path) != NULL);
    /* the replies a host words for it */
    r = pbctl_reply_ok(req.value ? req.value : req.path);
    FUZZ_CHECK(strncmp(r, "ok ", 3) == 0);
    free(r);
    r = pbctl_reply_error(req.property);
    check_reply(r, len);
    free(r);
    r = pbctl_reply_bad_value(req.path);
    check_reply(r, len);
    free(r);
    pbctl_request_clear(&req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static PbctlLines lines;
    FuzzIn in = {data, size, 0};
    size_t chunk = (size_t)fuzz_u8(&in) + 1;

    pbctl_lines_init(&lines);
    while (fuzz_more(&in)) {
        size_t n = in.size - in.pos < chunk ? in.size - in.pos : chunk;

        pbctl_lines_feed(&lines, in.data + in.pos, n, on_line, NULL);
        in.pos += n;
        FUZZ_CHECK(lines.len <= PBCTL_MAX_LINE);
    }
    return 0;
}
