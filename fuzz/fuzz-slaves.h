/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-slaves.h - what the 1-Wire harnesses (fuzz-onewire, fuzz-ds2490)
 * both need to build a bus of slave models: the bus's clock, read from
 * the harness's own "now", and ROM ids from a family and a serial.
 */
#ifndef FUZZ_SLAVES_H
#define FUZZ_SLAVES_H

#include <stdint.h>

#include "onewire.h"

static inline int64_t fuzz_bus_clock(void *opaque)
{
    return *(int64_t *)opaque;
}

static inline void fuzz_rom(uint8_t family, uint64_t serial,
                            uint8_t rom[OW_ROM_LEN])
{
    rom[0] = family;
    for (int i = 1; i < 7; i++) {
        rom[i] = serial >> (8 * (i - 1));
    }
    ow_rom_set_crc(rom);
}

#endif
