/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-ds2408.c - DS2408 8-channel addressable switch (family 0x29).
 *
 * Register page 0x88-0x8F: 88 pin state, 89 output latch, 8A activity
 * latch, 8B conditional search mask, 8C polarity, 8D control/status,
 * 8E/8F read 0xFF.  The PIOs are open drain: pin = latch & pio_input.
 */
#include <string.h>

#include "onewire.h"

#define DS2408_READ_REGS 0xF0
#define DS2408_CHAN_READ 0xF5
#define DS2408_CHAN_WRITE 0x5A
#define DS2408_WRITE_CS 0xCC
#define DS2408_RESET_ACT 0xC3
#define DS2408_IGNORE 0xFF

#define DS2408_REG_FIRST 0x88
#define DS2408_REG_LAST 0x8F
#define DS2408_CS_FIRST 0x8B
#define DS2408_CS_LAST 0x8D
#define DS2408_CONFIRM 0xAA
#define DS2408_SAMPLES 32       /* CHANNEL-ACCESS READ bytes per CRC */

static OWDS2408 *ds2408(OWSlave *s)
{
    return (OWDS2408 *)s;
}

/*
 * Pin levels now; any change since the last look sets activity latches.
 * pio_input is written by the glue between bus calls, so edges that
 * cancel out between two looks are not seen.
 */
uint8_t ow_ds2408_pins(OWDS2408 *d)
{
    uint8_t pins = d->latch & d->pio_input;

    d->activity |= pins ^ d->last_pins;
    d->last_pins = pins;
    return pins;
}

void ow_ds2408_set_pio_input(OWDS2408 *d, uint8_t input)
{
    d->pio_input = input;
    ow_ds2408_pins(d);
}

static uint8_t ds2408_reg(OWDS2408 *d, uint16_t addr)
{
    switch (addr) {
    case 0x88:
        return ow_ds2408_pins(d);
    case 0x89:
        return d->latch;
    case 0x8A:
        ow_ds2408_pins(d);
        return d->activity;
    case 0x8B:
        return d->cs_mask;
    case 0x8C:
        return d->cs_polarity;
    case 0x8D:
        return (uint8_t)(d->control | (d->vcc ? OW_DS2408_VCCP : 0));
    default:
        return 0xFF;
    }
}

static void ds2408_write_reg(OWDS2408 *d, uint16_t addr, uint8_t v)
{
    uint8_t porl;

    switch (addr) {
    case 0x8B:
        d->cs_mask = v;
        break;
    case 0x8C:
        d->cs_polarity = v;
        break;
    case 0x8D:
        /* PLS, CT, ROS writable; PORL can only be cleared */
        porl = d->control & v & OW_DS2408_PORL;
        d->control = (uint8_t)((v & (OW_DS2408_PLS | OW_DS2408_CT |
                                     OW_DS2408_ROS)) | porl);
        break;
    default:
        break;
    }
}

static void ds2408_power_on(OWSlave *s)
{
    OWDS2408 *d = ds2408(s);

    d->latch = d->latch_init;
    d->activity = 0;
    d->cs_mask = 0;
    d->cs_polarity = 0;
    d->control = OW_DS2408_PORL;
    d->last_pins = d->latch & d->pio_input;
    d->cmd = 0;
    d->nrx = 0;
    d->wr = 0;
    d->addr = 0;
    d->crc = 0;
    d->nsamples = 0;
}

static void ds2408_reset(OWSlave *s, unsigned partial_bits)
{
    OWDS2408 *d = ds2408(s);

    (void)partial_bits;
    d->cmd = 0;
    d->nrx = 0;
}

static void ds2408_select(OWSlave *s)
{
    ds2408_reset(s, 0);
}

static void ds2408_tick(OWSlave *s)
{
    ow_ds2408_pins(ds2408(s));
}

static void ds2408_read_regs(OWSlave *s, OWDS2408 *d)
{
    uint8_t hdr[3];
    uint16_t a;
    uint8_t v;

    if (d->addr < DS2408_REG_FIRST || d->addr > DS2408_REG_LAST) {
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    hdr[0] = DS2408_READ_REGS;
    hdr[1] = (uint8_t)d->addr;
    hdr[2] = (uint8_t)(d->addr >> 8);
    d->crc = ow_crc16(0, hdr, 3);
    for (a = d->addr; a <= DS2408_REG_LAST; a++) {
        v = ds2408_reg(d, a);
        d->crc = ow_crc16(d->crc, &v, 1);
        ow_slave_tx_push_byte(s, v);
    }
    ow_slave_tx_push_crc16(s, d->crc);
    ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
}

static void ds2408_rx_byte(OWSlave *s, uint8_t byte)
{
    OWDS2408 *d = ds2408(s);
    uint8_t b;

    switch (d->cmd) {
    case 0:
        d->cmd = byte;
        d->nrx = 0;
        switch (byte) {
        case DS2408_READ_REGS:
        case DS2408_CHAN_WRITE:
        case DS2408_WRITE_CS:
            break;
        case DS2408_CHAN_READ:
            d->crc = ow_crc16(0, &byte, 1);
            d->nsamples = 0;
            ow_slave_set_tail(s, OW_TAIL_CALLBACK, 0xFF);
            break;
        case DS2408_RESET_ACT:
            ow_ds2408_pins(d);
            d->activity = 0;
            ow_slave_set_tail(s, OW_TAIL_REPEAT, DS2408_CONFIRM);
            break;
        default:
            ow_slave_guest_error(s, "unknown function command 0x%02x", byte);
            d->cmd = DS2408_IGNORE;
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            break;
        }
        return;
    case DS2408_READ_REGS:
    case DS2408_WRITE_CS:
        if (d->nrx == 0) {
            d->addr = byte;
        } else if (d->nrx == 1) {
            d->addr = (uint16_t)(d->addr | (byte << 8));
            if (d->cmd == DS2408_READ_REGS) {
                ds2408_read_regs(s, d);
            } else if (d->addr < DS2408_CS_FIRST || d->addr > DS2408_CS_LAST) {
                ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            }
        } else {
            ds2408_write_reg(d, d->addr, byte);
            if (++d->addr > DS2408_CS_LAST) {
                ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            }
        }
        break;
    case DS2408_CHAN_WRITE:
        if (d->nrx == 0) {
            d->wr = byte;
            d->nrx = 1;
            return;
        }
        if ((byte ^ d->wr) != 0xFF) {
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            return;
        }
        ow_ds2408_pins(d);
        d->latch = d->wr;
        b = DS2408_CONFIRM;
        ow_slave_tx_push_byte(s, b);
        ow_slave_tx_push_byte(s, ow_ds2408_pins(d));
        /* then ready for the next byte pair */
        d->nrx = 0;
        return;
    default:
        break;
    }
    if (d->nrx < 255) {
        d->nrx++;
    }
}

/* CHANNEL-ACCESS READ: 32 pin samples, inverted CRC16, repeat */
static void ds2408_tx_more(OWSlave *s)
{
    OWDS2408 *d = ds2408(s);
    uint8_t v;

    if (d->cmd != DS2408_CHAN_READ) {
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    if (d->nsamples < DS2408_SAMPLES) {
        v = ow_ds2408_pins(d);
        d->crc = ow_crc16(d->crc, &v, 1);
        ow_slave_tx_push_byte(s, v);
        d->nsamples++;
        return;
    }
    /* the first CRC covers the command byte too, later ones only data */
    ow_slave_tx_push_crc16(s, d->crc);
    d->crc = 0;
    d->nsamples = 0;
}

static bool ds2408_condition(OWSlave *s)
{
    OWDS2408 *d = ds2408(s);
    uint8_t src, hit;

    if (d->control & OW_DS2408_PORL) {
        return true;
    }
    ow_ds2408_pins(d);
    src = (d->control & OW_DS2408_PLS) ? d->activity : d->last_pins;
    hit = (uint8_t)(~(src ^ d->cs_polarity) & d->cs_mask);
    if (d->cs_mask == 0) {
        return false;
    }
    if (d->control & OW_DS2408_CT) {
        return hit == d->cs_mask;
    }
    return hit != 0;
}

static const OWSlaveOps ds2408_ops = {
    .features = OW_FEAT_RESUME | OW_FEAT_OVERDRIVE | OW_FEAT_COND_SEARCH,
    .power_on = ds2408_power_on,
    .reset = ds2408_reset,
    .select = ds2408_select,
    .rx_byte = ds2408_rx_byte,
    .tx_more = ds2408_tx_more,
    .search_condition = ds2408_condition,
    .tick = ds2408_tick,
};

void ow_ds2408_init(OWDS2408 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    d->pio_input = 0xFF;
    d->latch_init = 0xFF;
    ow_slave_init(&d->parent, &ds2408_ops, rom);
}
