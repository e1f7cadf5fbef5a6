/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-ds2413.c - DS2413 dual-channel addressable switch (family 0x3A).
 *
 * Status byte: b0 PIOA pin, b1 PIOA latch, b2 PIOB pin, b3 PIOB latch,
 * b7:4 the complement of b3:0.  Open drain: pin = latch & pio_input.
 */
#include <string.h>

#include "onewire.h"

#define DS2413_ACCESS_READ 0xF5
#define DS2413_ACCESS_WRITE 0x5A
#define DS2413_IGNORE 0xFF
#define DS2413_CONFIRM 0xAA

static OWDS2413 *ds2413(OWSlave *s)
{
    return (OWDS2413 *)s;
}

uint8_t ow_ds2413_status(const OWDS2413 *d)
{
    uint8_t latch = d->latch & 3;
    uint8_t pins = latch & d->pio_input & 3;
    uint8_t st;

    st = (uint8_t)((pins & 1) | ((latch & 1) << 1) |
                   ((pins & 2) << 1) | ((latch & 2) << 2));
    return (uint8_t)(st | ((~st & 0x0F) << 4));
}

static void ds2413_power_on(OWSlave *s)
{
    OWDS2413 *d = ds2413(s);

    d->latch = d->latch_init & 3;
    d->cmd = 0;
    d->nrx = 0;
    d->wr = 0;
}

static void ds2413_reset(OWSlave *s, unsigned partial_bits)
{
    OWDS2413 *d = ds2413(s);

    (void)partial_bits;
    d->cmd = 0;
    d->nrx = 0;
}

static void ds2413_select(OWSlave *s)
{
    ds2413_reset(s, 0);
}

static void ds2413_rx_byte(OWSlave *s, uint8_t byte)
{
    OWDS2413 *d = ds2413(s);

    switch (d->cmd) {
    case 0:
        d->cmd = byte;
        d->nrx = 0;
        if (byte == DS2413_ACCESS_READ) {
            /* the status is sampled again for every byte read */
            ow_slave_set_tail(s, OW_TAIL_CALLBACK, 0xFF);
        } else if (byte != DS2413_ACCESS_WRITE) {
            ow_slave_guest_error(s, "unknown function command 0x%02x", byte);
            d->cmd = DS2413_IGNORE;
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        }
        break;
    case DS2413_ACCESS_WRITE:
        if (d->nrx == 0) {
            d->wr = byte;
            d->nrx = 1;
            break;
        }
        if ((byte ^ d->wr) != 0xFF) {
            ow_slave_guest_error(s, "PIO ACCESS WRITE: 0x%02x is not the "
                                 "complement of 0x%02x", byte, d->wr);
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            break;
        }
        /* b7:2 should be 1 and are ignored */
        d->latch = d->wr & 3;
        ow_slave_tx_push_byte(s, DS2413_CONFIRM);
        ow_slave_tx_push_byte(s, ow_ds2413_status(d));
        d->nrx = 0;
        break;
    default:
        break;
    }
}

static void ds2413_tx_more(OWSlave *s)
{
    OWDS2413 *d = ds2413(s);

    if (d->cmd != DS2413_ACCESS_READ) {
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    ow_slave_tx_push_byte(s, ow_ds2413_status(d));
}

static const OWSlaveOps ds2413_ops = {
    .features = OW_FEAT_RESUME | OW_FEAT_OVERDRIVE,
    .power_on = ds2413_power_on,
    .reset = ds2413_reset,
    .select = ds2413_select,
    .rx_byte = ds2413_rx_byte,
    .tx_more = ds2413_tx_more,
};

void ow_ds2413_init(OWDS2413 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    d->pio_input = 0x3;
    d->latch_init = 0x3;
    ow_slave_init(&d->parent, &ds2413_ops, rom);
}
