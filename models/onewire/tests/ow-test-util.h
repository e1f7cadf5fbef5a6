/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the 1-Wire unit tests: a fake clock, byte I/O on the
 * bus and a test-side AN187 search that works only through touch_bit.
 */
#ifndef OW_TEST_UTIL_H
#define OW_TEST_UTIL_H

#include <glib.h>
#include <string.h>

#include "onewire.h"

static inline int64_t fake_clock(void *opaque)
{
    return *(int64_t *)opaque;
}

static inline void bus_write(OWBus *bus, const uint8_t *data, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        ow_bus_touch_byte(bus, data[i]);
    }
}

static inline void bus_read(OWBus *bus, uint8_t *data, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        data[i] = ow_bus_touch_byte(bus, 0xFF);
    }
}

static inline uint8_t bus_read8(OWBus *bus)
{
    return ow_bus_touch_byte(bus, 0xFF);
}

static inline void bus_skip(OWBus *bus)
{
    g_assert_true(ow_bus_reset(bus, NULL));
    ow_bus_touch_byte(bus, OW_ROM_SKIP);
}

static inline void bus_match(OWBus *bus, const uint8_t rom[OW_ROM_LEN])
{
    g_assert_true(ow_bus_reset(bus, NULL));
    ow_bus_touch_byte(bus, OW_ROM_MATCH);
    bus_write(bus, rom, OW_ROM_LEN);
}

static inline void make_rom(uint8_t family, uint64_t serial,
                            uint8_t rom[OW_ROM_LEN])
{
    int i;

    rom[0] = family;
    for (i = 0; i < 6; i++) {
        rom[1 + i] = (uint8_t)(serial >> (8 * i));
    }
    ow_rom_set_crc(rom);
}

static inline void random_rom(GRand *r, uint8_t family,
                              uint8_t rom[OW_ROM_LEN])
{
    uint64_t serial = ((uint64_t)g_rand_int(r) << 32) | g_rand_int(r);

    make_rom(family, serial & 0xFFFFFFFFFFFFULL, rom);
}

/* the order AN187 finds devices in: ROM bits compared LSB first */
static inline uint64_t rom_search_key(const uint8_t rom[OW_ROM_LEN])
{
    uint64_t key = 0;
    int i;

    for (i = 0; i < 64; i++) {
        key = (key << 1) | ((rom[i >> 3] >> (i & 7)) & 1);
    }
    return key;
}

static inline gint rom_cmp(gconstpointer a, gconstpointer b)
{
    uint64_t ka = rom_search_key(a), kb = rom_search_key(b);

    return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

/*
 * Maxim AN187 search, bit by bit through ow_bus_touch_bit.  Returns the
 * number of ROMs found (all with a valid CRC), at most max.
 */
static inline int an187_search(OWBus *bus, uint8_t cmd,
                               uint8_t (*out)[OW_ROM_LEN], int max)
{
    uint8_t rom[OW_ROM_LEN] = { 0 };
    int last_discrepancy = 0;
    bool last_device = false;
    int n = 0;

    while (!last_device && n < max) {
        int last_zero = 0;
        int id_bit;

        if (!ow_bus_reset(bus, NULL)) {
            break;
        }
        ow_bus_touch_byte(bus, cmd);
        for (id_bit = 1; id_bit <= 64; id_bit++) {
            int i = id_bit - 1;
            int b = ow_bus_touch_bit(bus, 1);
            int cb = ow_bus_touch_bit(bus, 1);
            int dir;

            if (b && cb) {
                return n;       /* nobody participates */
            }
            if (b != cb) {
                dir = b;
            } else {
                if (id_bit < last_discrepancy) {
                    dir = (rom[i >> 3] >> (i & 7)) & 1;
                } else {
                    dir = id_bit == last_discrepancy;
                }
                if (!dir) {
                    last_zero = id_bit;
                }
            }
            if (dir) {
                rom[i >> 3] |= (uint8_t)(1 << (i & 7));
            } else {
                rom[i >> 3] &= (uint8_t)~(1 << (i & 7));
            }
            ow_bus_touch_bit(bus, dir);
        }
        g_assert_true(ow_rom_crc_valid(rom));
        last_discrepancy = last_zero;
        if (last_discrepancy == 0) {
            last_device = true;
        }
        memcpy(out[n++], rom, OW_ROM_LEN);
    }
    return n;
}

#endif /* OW_TEST_UTIL_H */
