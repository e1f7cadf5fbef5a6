/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-ds18b20.c - DS18B20 digital thermometer (family 0x28).
 *
 * Scratchpad: 0/1 temperature, 2 TH, 3 TL, 4 config (0 R1 R0 1 1 1 1 1),
 * 5 0xFF, 6 reserved (0x0C at power-up), 7 0x10, 8 CRC8 of 0..7.
 */
#include <string.h>

#include "onewire.h"

#define DS18B20_CONVERT 0x44
#define DS18B20_READ_SP 0xBE
#define DS18B20_WRITE_SP 0x4E
#define DS18B20_COPY_SP 0x48
#define DS18B20_RECALL 0xB8
#define DS18B20_READ_POWER 0xB4

static OWDS18B20 *ds18b20(OWSlave *s)
{
    return (OWDS18B20 *)s;
}

static int ds18b20_resolution(uint8_t config)
{
    return 9 + ((config >> 5) & 3);
}

static uint8_t ds18b20_config(uint8_t v)
{
    /* only R1/R0 are writable; bits 4:0 read 1, bit 7 reads 0 */
    return (uint8_t)((v & 0x60) | 0x1F);
}

int16_t ow_ds18b20_encode(int32_t mc, int resolution)
{
    int64_t num;
    int32_t reg;

    if (mc < OW_DS18B20_MIN_MC) {
        mc = OW_DS18B20_MIN_MC;
    } else if (mc > OW_DS18B20_MAX_MC) {
        mc = OW_DS18B20_MAX_MC;
    }
    if (resolution < 9) {
        resolution = 9;
    } else if (resolution > 12) {
        resolution = 12;
    }
    /* nearest 1/16 C; ties cannot happen with integer m°C */
    num = (int64_t)mc * 16;
    if (num >= 0) {
        reg = (int32_t)((num + 500) / 1000);
    } else {
        reg = -(int32_t)((-num + 500) / 1000);
    }
    /* coarser resolution: undefined low bits read 0 (floor) */
    reg &= ~((1 << (12 - resolution)) - 1);
    return (int16_t)reg;
}

static void ds18b20_update_crc(OWDS18B20 *d)
{
    d->scratchpad[8] = ow_crc8(0, d->scratchpad, 8);
}

static void ds18b20_set_temp(OWDS18B20 *d, int16_t reg)
{
    uint16_t u = (uint16_t)reg;

    d->scratchpad[0] = (uint8_t)u;
    d->scratchpad[1] = (uint8_t)(u >> 8);
}

static void ds18b20_finish_conversion(OWDS18B20 *d)
{
    bool failed = d->fail_conversion ||
                  (d->parasite && d->require_spu && !d->spu_seen);
    int8_t t_int, th, tl;

    d->converting = false;
    if (failed) {
        /* as if never converted: power-on register and byte 6 */
        ds18b20_set_temp(d, OW_DS18B20_POWERON_REG);
        d->scratchpad[6] = 0x0C;
    } else {
        ds18b20_set_temp(d, d->conv_reg);
        /* what genuine parts leave in byte 6 after a conversion */
        d->scratchpad[6] = (uint8_t)(0x10 - (d->conv_reg & 0x0F));
    }
    /* alarm: integer part (bits 11:4) against TH/TL, both inclusive */
    t_int = (int8_t)(((uint16_t)d->scratchpad[1] << 4) |
                     (d->scratchpad[0] >> 4));
    th = (int8_t)d->scratchpad[2];
    tl = (int8_t)d->scratchpad[3];
    d->alarm = t_int >= th || t_int <= tl;
    ds18b20_update_crc(d);
}

static void ds18b20_tick(OWSlave *s)
{
    OWDS18B20 *d = ds18b20(s);

    if (d->converting && ow_slave_reached(s, d->conv_done)) {
        ds18b20_finish_conversion(d);
    }
}

static void ds18b20_power_on(OWSlave *s)
{
    OWDS18B20 *d = ds18b20(s);

    d->eeprom[2] = ds18b20_config(d->eeprom[2]);
    ds18b20_set_temp(d, OW_DS18B20_POWERON_REG);
    memcpy(&d->scratchpad[2], d->eeprom, 3);
    d->scratchpad[5] = 0xFF;
    d->scratchpad[6] = 0x0C;
    d->scratchpad[7] = 0x10;
    ds18b20_update_crc(d);
    d->alarm = false;
    d->cmd = 0;
    d->nrx = 0;
    d->converting = false;
    d->spu_seen = false;
    d->conv_reg = OW_DS18B20_POWERON_REG;
    d->conv_done = 0;
}

static void ds18b20_reset(OWSlave *s, unsigned partial_bits)
{
    OWDS18B20 *d = ds18b20(s);

    (void)partial_bits;
    /* a running conversion or copy carries on */
    d->cmd = 0;
    d->nrx = 0;
}

static void ds18b20_select(OWSlave *s)
{
    ds18b20_reset(s, 0);
}

static void ds18b20_convert(OWDS18B20 *d)
{
    OWSlave *s = &d->parent;
    int res = ds18b20_resolution(d->scratchpad[4]);
    int64_t t = (OW_DS18B20_TCONV_MAX_NS >> (12 - res)) * d->tconv_pct / 100;

    d->conv_reg = ow_ds18b20_encode(d->temperature_mc, res);
    d->converting = true;
    d->spu_seen = s->bus && s->bus->pullup;
    d->conv_done = ow_slave_deadline(s, t);
    if (d->parasite) {
        /* the strong pullup holds the bus high: nothing to signal */
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
    } else {
        ow_slave_set_busy(s, OW_TAIL_BUSY_ZEROS, d->conv_done);
    }
    /*
     * Finish at once when the window is already over, unless a pullup
     * that the master may switch on right after this byte matters.
     */
    if (!(d->parasite && d->require_spu)) {
        ds18b20_tick(s);
    }
}

static void ds18b20_rx_byte(OWSlave *s, uint8_t byte)
{
    OWDS18B20 *d = ds18b20(s);

    if (d->cmd == DS18B20_WRITE_SP) {
        /* TH, TL, config; each byte lands as it arrives */
        if (d->nrx == 0) {
            d->scratchpad[2] = byte;
        } else if (d->nrx == 1) {
            d->scratchpad[3] = byte;
        } else if (d->nrx == 2) {
            d->scratchpad[4] = ds18b20_config(byte);
        }
        if (d->nrx < 3) {
            d->nrx++;
            ds18b20_update_crc(d);
        }
        if (d->nrx >= 3) {
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        }
        return;
    }

    d->cmd = byte;
    d->nrx = 0;
    switch (byte) {
    case DS18B20_CONVERT:
        ds18b20_convert(d);
        break;
    case DS18B20_READ_SP:
        ow_slave_tx_push(s, d->scratchpad, sizeof(d->scratchpad));
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        break;
    case DS18B20_WRITE_SP:
        break;
    case DS18B20_COPY_SP:
        memcpy(d->eeprom, &d->scratchpad[2], 3);
        if (d->parasite) {
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        } else {
            ow_slave_set_busy(s, OW_TAIL_BUSY_ZEROS,
                              ow_slave_deadline(s, OW_DS18B20_TCOPY_NS));
        }
        break;
    case DS18B20_RECALL:
        /* the recall itself is instantaneous in the model */
        memcpy(&d->scratchpad[2], d->eeprom, 3);
        ds18b20_update_crc(d);
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        break;
    case DS18B20_READ_POWER:
        ow_slave_set_tail(s, OW_TAIL_REPEAT, d->parasite ? 0x00 : 0xFF);
        break;
    default:
        ow_slave_guest_error(s, "unknown function command 0x%02x", byte);
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        break;
    }
}

static bool ds18b20_alarm(OWSlave *s)
{
    return ds18b20(s)->alarm;
}

static void ds18b20_pullup(OWSlave *s, bool on)
{
    OWDS18B20 *d = ds18b20(s);

    if (on && d->converting) {
        d->spu_seen = true;
    }
}

static const OWSlaveOps ds18b20_ops = {
    .features = OW_FEAT_COND_SEARCH,
    .power_on = ds18b20_power_on,
    .reset = ds18b20_reset,
    .select = ds18b20_select,
    .rx_byte = ds18b20_rx_byte,
    .search_condition = ds18b20_alarm,
    .tick = ds18b20_tick,
    .pullup = ds18b20_pullup,
};

void ow_ds18b20_init(OWDS18B20 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    d->temperature_mc = 25000;
    d->tconv_pct = 90;
    d->eeprom[0] = 75;
    d->eeprom[1] = 70;
    d->eeprom[2] = 0x7F;
    ow_slave_init(&d->parent, &ds18b20_ops, rom);
}
