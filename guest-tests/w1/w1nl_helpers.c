/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1nl_helpers.c - w1_netlink's setup and verification exchanges (see
 * w1nl.h): they read and write slaves, list ids, add and remove fake slaves
 * and collect events for the cases to compare with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "w1nl.h"

/* ---- helper exchanges (setup and verification) ---------------------------- */

/* SLAVE_CMD s [WRITE w][READ rn]; data into rd. */
int nl_write_read(const struct w1_slave_rom *s, const uint8_t *w, uint16_t wn,
                  uint8_t *rd, uint16_t rn, char *why, size_t wl)
{
    static struct w1_req r;
    struct xchg *xc = &h_xc;
    struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
    const struct rx_cmd *c;
    uint8_t zero[256] = {0};

    req_single(&r, W1_SLAVE_CMD, s->id, W1_CMD_WRITE, w, wn);
    xb_status(x, W1_SLAVE_CMD, 0, s->id, W1_CMD_WRITE);
    if (rn) {
        w1_req_cmd(&r, W1_CMD_READ, zero, rn);
        xb_data_status(x, W1_SLAVE_CMD, s->id, W1_CMD_READ, rn);
    }
    if (!xchg_check(xc, &r, rn ? 3 : 1, HELPER_GRACE_MS, why, wl)) {
        return -1;
    }
    if (rn) {
        c = rx_find_cmd(&xc->rx, W1_CMD_READ, 0);
        if (!c || c->c.len != rn) {
            snprintf(why, wl, "no READ data");
            return -1;
        }
        memcpy(rd, c->data, rn);
    }
    return 0;
}

int nl_read_scratchpad(uint8_t sp[9], char *why, size_t wl)
{
    const uint8_t be = 0xbe;

    if (nl_write_read(T1, &be, 1, sp, 9, why, wl)) {
        return -1;
    }
    if (w1_crc8(sp, 9) != 0) {
        snprintf(why, wl,
                 "scratchpad %02x %02x %02x %02x %02x %02x %02x %02x %02x "
                 "fails CRC8",
                 sp[0], sp[1], sp[2], sp[3], sp[4], sp[5], sp[6], sp[7], sp[8]);
        return -1;
    }
    return 0;
}

/* MASTER_CMD 1 [code], code a data-returning list command: ids out. */
int nl_list(uint8_t code, uint8_t ids[][8], int max, int *n, char *why,
            size_t wl)
{
    static struct w1_req r;
    struct xchg *xc = &h_xc;
    struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
    const struct rx_cmd *c = NULL;

    req_single(&r, W1_MASTER_CMD, ID1, code, NULL, 0);
    *n = 0;
    if (xchg_send(xc, &r, 2, HELPER_GRACE_MS, -1)) {
        snprintf(why, wl, "send: %s", strerror(errno));
        return -1;
    }
    /* the data reply whatever its length: the caller judges the ids */
    for (int i = 0; i < xc->rx.ncmd; i++) {
        if (xc->rx.cmd[i].c.cmd == code &&
            xc->rx.msg[xc->rx.cmd[i].msg].cn.ack == xc->seq + 1) {
            c = &xc->rx.cmd[i];
        }
    }
    xb_data_status(x, W1_MASTER_CMD, ID1, code, c ? c->c.len : 0);
    if (!xchg_shape_ok(xc, why, wl)) {
        return -1;
    }
    if (!c) {
        snprintf(why, wl, "no data reply");
        return -1;
    }
    if (c->c.len % 8) {
        snprintf(why, wl, "id list of %u bytes", c->c.len);
        return -1;
    }
    *n = rx_ids(c, ids, max);
    return 0;
}

/* MASTER_CMD 1 [SLAVE_ADD/REMOVE id]: the status byte, or -1. */
static int nl_addremove(uint8_t code, const uint8_t id[8], char *why, size_t wl)
{
    static struct w1_req r;
    struct xchg *xc = &h_xc;

    xchg_begin(xc, 0, ACK_OTHER);
    req_single(&r, W1_MASTER_CMD, ID1, code, id, 8);
    if (xchg_send(xc, &r, 1, HELPER_GRACE_MS, -1)) {
        snprintf(why, wl, "send: %s", strerror(errno));
        return -1;
    }
    if (xc->rx.nmsg != 1) {
        snprintf(why, wl, "%d reply msgs to SLAVE_ADD/REMOVE", xc->rx.nmsg);
        return -1;
    }
    return xc->rx.msg[0].m.status;
}

void fake_rom(uint16_t tag, uint8_t id[8], char *name, size_t len)
{
    w1_make_rom(0x01, 0xfa0000000000ULL | tag, id, name, len);
}

/* Remove a fake slave left by a failed case (negative controls). */
void fake_cleanup(const uint8_t id[8], const char *sysname)
{
    char why[300];

    if (!slave_dir_exists(sysname)) {
        return;
    }
    ktap_print_msg("removing leftover slave %s", sysname);
    if (nl_addremove(W1_CMD_SLAVE_REMOVE, id, why, sizeof(why)) != 0) {
        ktap_print_msg("SLAVE_REMOVE %s: %s", sysname, why);
    }
}

/* Events received within ms (all of them, after any already queued). */
int events_within(struct w1_event *evs, int max, long ms)
{
    long long end = now_ms() + ms;
    int n = 0;

    for (;;) {
        struct w1_event ev;
        long left = (long)(end - now_ms());

        if (left < 0) {
            left = 0;
        }
        if (w1_event_recv(ev_fd, &ev, left) != 1) {
            break;
        }
        if (n < max) {
            evs[n] = ev;
        }
        n++;
    }
    w1_events_print(evs, n < max ? n : max);
    return n;
}

bool ids_equal_set(uint8_t ids[][8], int n, const int *want, int nwant,
                   char *why, size_t wl)
{
    bool seen[SL_COUNT] = {false};

    if (n != nwant) {
        snprintf(why, wl, "%d ids, expected %d", n, nwant);
        goto dump;
    }
    for (int i = 0; i < n; i++) {
        int k;

        for (k = 0; k < nwant; k++) {
            if (!memcmp(ids[i], w1_slaves[want[k]].id, 8)) {
                break;
            }
        }
        if (k == nwant || seen[k]) {
            char hex[17];

            fmt_id(ids[i], hex);
            snprintf(why, wl, "%s id %s",
                     k == nwant ? "unexpected" : "duplicate", hex);
            goto dump;
        }
        seen[k] = true;
    }
    return true;
dump:
    for (int i = 0; i < n; i++) {
        char hex[17];

        fmt_id(ids[i], hex);
        ktap_print_msg("id[%d] = %s", i, hex);
    }
    return false;
}

const int ALL4[SL_COUNT] = {SL_T1, SL_E1, SL_P1, SL_P2};

/* ---- temperature ---------------------------------------------------------- */

/* CRC8 valid and the temperature register is the model's. */
bool scratchpad_ok(const uint8_t sp[9], char *why, size_t wl)
{
    int reg = ds18b20_reg(t1_mC, 12);

    if (w1_crc8(sp, 9) != 0) {
        snprintf(why, wl,
                 "scratchpad CRC8 invalid (byte 8 %02x, computed %02x)", sp[8],
                 w1_crc8(sp, 8));
        return false;
    }
    if (sp[0] != (uint8_t)reg || sp[1] != (uint8_t)(reg >> 8)) {
        snprintf(why, wl,
                 "temperature register %02x %02x, expected %02x %02x (%ld m°C)",
                 sp[0], sp[1], (uint8_t)reg, (uint8_t)(reg >> 8), t1_mC);
        return false;
    }
    return true;
}

int status_case(char *why, uint8_t type, const uint8_t id[8], uint8_t code,
                const void *data, uint16_t len, uint8_t status)
{
    static struct w1_req r;
    struct xchg *xc = &g_xc;
    struct xb *x;

    req_single(&r, type, id, code, data, len);
    x = xchg_begin(xc, 0, ACK_OTHER);
    xb_status(x, type, status, id, code);
    if (!xchg_check(xc, &r, 1, GRACE_MS, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}
