/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_flush.c - w1_netlink's N17 cases (see docs/suites/w1.md): where
 * w1_reply_make_space() flushes the reply buffer, one request per case.
 *
 * The buffer holds block->maxlen bytes after the first cn_msg header;
 * w1_cn_callback() makes maxlen = reply_size = sizeof(struct cn_msg) (20) +
 * cn->len + the slave-list allowance (none here), plus 2 * 36 per command
 * with W1_CN_BUNDLE.  Every w1_reply_make_space(block, space) flushes what
 * it holds when len + space >= maxlen, space being 20 + 12 + 4 + cmd->len
 * for a data reply (w1_netlink_queue_cmd()) and 36 for a status
 * (w1_netlink_queue_status()), len the bytes held (0 when empty).
 *
 * A request of one MASTER_CMD message with one data-less command has
 * cn->len = 12 + 4, so maxlen = 36: the first make_space, with nothing
 * held, already has len + space == maxlen, and the buffer is sent empty: a
 * netlink message of a zeroed cn_msg (block->first_cn, kzalloc'd) before
 * the real replies.  After a data reply has been sent (unbundled), the next
 * such flush sends the cn_msg header left in first_cn, now a w1 one (the
 * data reply's seq, ack seq + 1) with len 0.  One byte more of request
 * (a second command, or bundling) and nothing is flushed early.  The
 * mutant ">" (scripts/mutagen.py's gen-0036) never sends either.
 *
 * The commands are RESET and READ/WRITE of 0 bytes: ds9490r_read_block()
 * and ds9490r_write_block() return at once for len 0, so only RESET puts
 * anything on the bus.
 */
#include <stdio.h>
#include <string.h>

#include "w1nl.h"

#define N17_MAX_CMDS 2

/* READ answers with a data reply (of 0 bytes here) before its status */
static bool is_read(uint8_t code)
{
    return code == W1_CMD_READ;
}

static const struct {
    const char *name;
    /* input: cn_msg flags, MASTER_CMD 1 holding these commands, no data */
    uint16_t flags;
    int ncmd;
    uint8_t code[N17_MAX_CMDS];
    /* expected: maxlen (for the record), zeroed cn_msgs before the replies,
     * and whether an empty w1 cn_msg follows a data reply (unbundled) */
    unsigned int maxlen;
    int zeroed;
    bool empty_after_data;
} n17_cases[] = {
    {
        .name = "N17 RESET unbundled: maxlen 36 = the status's 36, one zeroed "
                "cn_msg, then the status",
        .flags = 0,
        .ncmd = 1,
        .code = {W1_CMD_RESET},
        .maxlen = 36,
        .zeroed = 1,
    },
    {
        .name =
            "N17 WRITE 0 bytes unbundled: one zeroed cn_msg, then the status",
        .flags = 0,
        .ncmd = 1,
        .code = {W1_CMD_WRITE},
        .maxlen = 36,
        .zeroed = 1,
    },
    {
        .name = "N17 READ 0 bytes unbundled: zeroed cn_msg, data, an empty "
                "cn_msg (ack seq+1), status",
        .flags = 0,
        .ncmd = 1,
        .code = {W1_CMD_READ},
        .maxlen = 36,
        .zeroed = 1,
        .empty_after_data = true,
    },
    {
        .name = "N17 RESET, RESET unbundled: maxlen 40 > 36, two statuses, "
                "nothing flushed early",
        .flags = 0,
        .ncmd = 2,
        .code = {W1_CMD_RESET, W1_CMD_RESET},
        .maxlen = 40,
        .zeroed = 0,
    },
    {
        .name = "N17 READ 0, READ 0 unbundled: maxlen 40 > 36, data and status "
                "twice, nothing flushed early",
        .flags = 0,
        .ncmd = 2,
        .code = {W1_CMD_READ, W1_CMD_READ},
        .maxlen = 40,
        .zeroed = 0,
    },
    {
        .name =
            "N17 RESET bundled: maxlen 108, one status, nothing flushed early",
        .flags = W1_CN_BUNDLE,
        .ncmd = 1,
        .code = {W1_CMD_RESET},
        .maxlen = 108,
        .zeroed = 0,
    },
    {
        .name = "N17 READ 0 bytes bundled: maxlen 108, data and status in one "
                "message",
        .flags = W1_CN_BUNDLE,
        .ncmd = 1,
        .code = {W1_CMD_READ},
        .maxlen = 108,
        .zeroed = 0,
    },
};

/* The w1 cn_msg header a flush leaves in first_cn: data reply's, len 0. */
static void xb_empty_after_data(struct xb *x)
{
    xb_nl(x, NL_HDRS);
    xb_cn(x, x->seq + 1, 0);
}

static int n17_flush(unsigned long arg, char *why)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x;
    int want = 0;

    w1_req_init(&r);
    w1_req_msg(&r, W1_MASTER_CMD, ID1);
    for (int i = 0; i < n17_cases[arg].ncmd; i++) {
        w1_req_cmd(&r, n17_cases[arg].code[i], NULL, 0);
    }
    x = xchg_begin(xc, n17_cases[arg].flags, ACK_OTHER);
    if (n17_cases[arg].flags & W1_CN_BUNDLE) {
        /* one command: one netlink message at the end */
        uint8_t code = n17_cases[arg].code[0];

        if (is_read(code)) {
            xb_bundled_data_status(x, W1_MASTER_CMD, ID1, code, 0);
        } else {
            xb_status(x, W1_MASTER_CMD, 0, ID1, code);
        }
        want = 1;
    } else {
        for (int i = 0; i < n17_cases[arg].ncmd; i++) {
            uint8_t code = n17_cases[arg].code[i];

            if (is_read(code)) {
                xb_nl(x, NL_HDRS + 16);
                xb_cn_data(x, W1_MASTER_CMD, ID1, code, 0);
                want++;
                if (n17_cases[arg].empty_after_data) {
                    xb_empty_after_data(x);
                    want++;
                }
            }
            xb_status(x, W1_MASTER_CMD, 0, ID1, code);
            want++;
        }
    }
    if (!xchg_check(xc, &r, want, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (xc->rx.foreign != n17_cases[arg].zeroed) {
        return kt_fail(why,
                       "%d zeroed cn_msg(s) before the replies, expected %d "
                       "(maxlen %u: w1_reply_make_space() flushes at len + "
                       "space >= maxlen)",
                       xc->rx.foreign, n17_cases[arg].zeroed,
                       n17_cases[arg].maxlen);
    }
    return KTAP_PASS;
}

/* The table above as rows of the case runner (w1nl_flush_init()). */
static struct kt_row rows[ARRAY_SIZE(n17_cases)];

void w1nl_flush_init(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(n17_cases); i++) {
        rows[i] = (struct kt_row){n17_cases[i].name, NULL, n17_flush, i};
    }
}

const struct w1nl_part w1nl_flush = {rows, ARRAY_SIZE(rows)};
