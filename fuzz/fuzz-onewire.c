/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-onewire: a hostile master on a models/onewire bus with one of every
 * chip and a pool of DS2401s (attached and detached at will).  The input is
 * a program: resets, bits, bytes, byte strings, speed and pullup changes,
 * presence, shorts, clock steps and the run-time inputs of the chips.
 *
 * After every operation: the bus's slave table and active cache are
 * consistent, every slave's ROM-layer and bit/byte state is within its
 * enum or range, and the chips' own register invariants hold (those of
 * tests/test-onewire-hostile.c).  Amplification: an operation uses at
 * most 8 slots per input byte it consumed (plus the reset), and a slot
 * looks at no more slaves than the bus holds.
 */
#include <string.h>

#include "fuzz-input.h"
#include "fuzz-slaves.h"
#include "onewire.h"

#define POOL 32                 /* DS2401s that come and go */
#define ZOO 7
#define MAX_RUN 64              /* bytes of one "string" operation */

/* slots one input byte may cause: a byte is 8, a reset 1 (counted apart) */
#define SLOTS_PER_BYTE 8

typedef struct World {
    OWBus bus;
    int64_t now;
    OWDS18B20 t[2];
    OWDS2431 e;
    OWDS2433 f;
    OWDS2408 p;
    OWDS2413 a;
    OWDS2401 id;
    OWDS2401 pool[POOL];
    OWSlave *all[ZOO + POOL];
} World;

static World w;

static void world_init(uint8_t cfg)
{
    uint8_t rom[OW_ROM_LEN];
    int i;

    memset(&w, 0, sizeof(w));
    ow_bus_init(&w.bus, fuzz_bus_clock, &w.now);
    w.bus.instant = cfg & 1;
    fuzz_rom(OW_FAMILY_DS18B20, 0x101, rom);
    ow_ds18b20_init(&w.t[0], rom);
    fuzz_rom(OW_FAMILY_DS18B20, 0x202, rom);
    ow_ds18b20_init(&w.t[1], rom);
    w.t[1].parasite = true;
    w.t[1].require_spu = cfg & 2;
    fuzz_rom(OW_FAMILY_DS2431, 0x303, rom);
    ow_ds2431_init(&w.e, rom);
    fuzz_rom(OW_FAMILY_DS2433, 0x404, rom);
    ow_ds2433_init(&w.f, rom);
    fuzz_rom(OW_FAMILY_DS2408, 0x505, rom);
    ow_ds2408_init(&w.p, rom);
    fuzz_rom(OW_FAMILY_DS2413, 0x606, rom);
    ow_ds2413_init(&w.a, rom);
    fuzz_rom(OW_FAMILY_DS2401, 0x707, rom);
    ow_ds2401_init(&w.id, rom);
    w.all[0] = &w.t[0].parent;
    w.all[1] = &w.t[1].parent;
    w.all[2] = &w.e.parent;
    w.all[3] = &w.f.parent;
    w.all[4] = &w.p.parent;
    w.all[5] = &w.a.parent;
    w.all[6] = &w.id.parent;
    for (i = 0; i < POOL; i++) {
        /* near neighbours: searches branch deep in the ROM */
        fuzz_rom(OW_FAMILY_DS2401, 0xab0000 + i * (cfg & 4 ? 1 : 0x1111), rom);
        ow_ds2401_init(&w.pool[i], rom);
        w.all[ZOO + i] = &w.pool[i].parent;
    }
    for (i = 0; i < ZOO; i++) {
        FUZZ_CHECK(ow_bus_attach(&w.bus, w.all[i]) == 0);
    }
}

/* index of s in w.all, or -1: O(ZOO), the pool by address */
static int slave_index(const OWSlave *s)
{
    uintptr_t a = (uintptr_t)s, pool = (uintptr_t)w.pool;
    int i;

    if (a >= pool && a < pool + sizeof(w.pool) &&
        (a - pool) % sizeof(w.pool[0]) == 0) {
        return ZOO + (int)((a - pool) / sizeof(w.pool[0]));
    }
    for (i = 0; i < ZOO; i++) {
        if (w.all[i] == s) {
            return i;
        }
    }
    return -1;
}

static void check_invariants(void)
{
    bool on_bus[ZOO + POOL] = { false };
    int i, k;

    FUZZ_CHECK(w.bus.nslaves >= 0 && w.bus.nslaves <= ZOO + POOL);
    FUZZ_CHECK(w.bus.nactive >= 0 && w.bus.nactive <= w.bus.nslaves);
    FUZZ_CHECK(w.bus.speed >= OW_SPEED_REGULAR &&
               w.bus.speed <= OW_SPEED_OVERDRIVE);
    for (i = 0; i < w.bus.nslaves; i++) {
        OWSlave *s = w.bus.slaves[i];

        FUZZ_CHECK(s && s->bus == &w.bus);
        k = slave_index(s);
        FUZZ_CHECK(k >= 0 && !on_bus[k]);       /* ours, and only once */
        on_bus[k] = true;
    }
    if (w.bus.active_valid) {
        for (i = 0; i < w.bus.nactive; i++) {
            k = slave_index(w.bus.active[i]);
            FUZZ_CHECK(k >= 0 && on_bus[k]);
            FUZZ_CHECK(w.bus.active[i]->present);
        }
    }
    for (i = 0; i < ZOO + POOL; i++) {
        OWSlave *s = w.all[i];

        FUZZ_CHECK(s->bus == NULL || s->bus == &w.bus);
        FUZZ_CHECK((s->bus != NULL) == on_bus[i]);
        FUZZ_CHECK(s->tx_count <= OW_TX_RING);
        FUZZ_CHECK(s->tx_head < OW_TX_RING);
        FUZZ_CHECK(s->tx_bits <= 8);
        FUZZ_CHECK(s->rx_bits < 8);
        FUZZ_CHECK(s->rom_bit <= 64);
        FUZZ_CHECK(s->search_phase < 3);
        FUZZ_CHECK(s->rom_state <= OW_RS_FUNC);
        FUZZ_CHECK(s->tail <= OW_TAIL_BUSY_AA);
    }
    for (i = 0; i < 2; i++) {
        FUZZ_CHECK(w.t[i].scratchpad[8] == ow_crc8(0, w.t[i].scratchpad, 8));
        FUZZ_CHECK((w.t[i].scratchpad[4] & 0x9F) == 0x1F);
        FUZZ_CHECK(w.t[i].nrx <= 3);
    }
    FUZZ_CHECK(w.a.latch <= 3);
    FUZZ_CHECK((w.p.control & 0xF0) == 0);
    FUZZ_CHECK(w.p.nsamples <= 32);
    FUZZ_CHECK((w.e.regs.es & 0x58) == 0);
    FUZZ_CHECK((w.f.regs.es & 0x40) == 0);
    FUZZ_CHECK((w.e.regs.dirty & ~0x1Fu) == 0);
    FUZZ_CHECK((w.f.regs.dirty & ~0xFFFFu) == 0);
    FUZZ_CHECK(w.e.regs.offset <= OW_DS2431_SP_SIZE);
    FUZZ_CHECK(w.f.regs.offset <= OW_DS2433_SP_SIZE);
}

/* real command bytes, so short inputs reach the function layers */
static const uint8_t rom_cmds[] = {
    0x33, 0x55, 0xCC, 0xF0, 0xEC, 0xA5, 0x3C, 0x69, 0x0F,
};
static const uint8_t func_cmds[] = {
    0x44, 0xBE, 0x4E, 0x48, 0xB8, 0xB4,             /* DS18B20 */
    0x0F, 0xAA, 0x55, 0xF0, 0xA5,                   /* DS2431/DS2433 */
    0xF5, 0x5A, 0xCC, 0xC3, 0x3C,                   /* DS2408/DS2413 */
};

/* one operation; returns the input bytes it consumed */
static size_t step(FuzzIn *in)
{
    size_t start = in->pos;
    uint8_t op = fuzz_u8(in);
    OWSlave *s;
    int i, n;

    switch (op % 16) {
    case 0:
        ow_bus_reset(&w.bus, NULL);
        break;
    case 1:
        ow_bus_touch_bit(&w.bus, op & 0x10);
        break;
    case 2:
        ow_bus_touch_byte(&w.bus, fuzz_u8(in));
        break;
    case 3:
        /* a string of bytes, e.g. a ROM id after MATCH or data to write */
        n = fuzz_u8(in) % MAX_RUN;
        for (i = 0; i < n && fuzz_more(in); i++) {
            ow_bus_touch_byte(&w.bus, fuzz_u8(in));
        }
        break;
    case 4:
        /* read slots: the endless streams are generated, never stored */
        n = op >> 4;
        for (i = 0; i <= n; i++) {
            ow_bus_touch_byte(&w.bus, 0xFF);
        }
        break;
    case 5:
        /* reset + ROM command + function command, as drivers do */
        ow_bus_reset(&w.bus, NULL);
        ow_bus_touch_byte(&w.bus, rom_cmds[(op >> 4) % sizeof(rom_cmds)]);
        ow_bus_touch_byte(&w.bus, func_cmds[fuzz_u8(in) % sizeof(func_cmds)]);
        break;
    case 6:
        /* MATCH ROM of a slave the bus knows (or knew) */
        s = w.all[fuzz_u8(in) % (ZOO + POOL)];
        ow_bus_reset(&w.bus, NULL);
        ow_bus_touch_byte(&w.bus, op & 0x10 ? OW_ROM_OD_MATCH : OW_ROM_MATCH);
        for (i = 0; i < OW_ROM_LEN; i++) {
            ow_bus_touch_byte(&w.bus, s->rom[i]);
        }
        break;
    case 7:
        ow_bus_set_speed(&w.bus, (int)(op >> 4) - 1);
        break;
    case 8:
        ow_bus_set_pullup(&w.bus, op & 0x10);
        break;
    case 9:
        s = w.all[fuzz_u8(in) % (ZOO + POOL)];
        ow_slave_set_present(s, op & 0x10);
        break;
    case 10:
        s = w.all[fuzz_u8(in) % (ZOO + POOL)];
        if (op & 0x10) {
            ow_bus_detach(&w.bus, s);
        } else {
            ow_bus_attach(&w.bus, s);
        }
        break;
    case 11:
        w.bus.shorted = op & 0x10;
        w.bus.instant = op & 0x20;
        break;
    case 12:
        w.now += (int64_t)fuzz_u16(in) * 100000;   /* up to 6.5 s */
        break;
    case 13:
        w.t[0].temperature_mc = (int32_t)fuzz_u32(in);
        w.t[1].temperature_mc = (int16_t)fuzz_u16(in) * 4;
        w.t[0].tconv_pct = fuzz_u8(in);
        break;
    case 14:
        ow_ds2408_set_pio_input(&w.p, fuzz_u8(in));
        w.a.pio_input = fuzz_u8(in);
        break;
    default:
        /* a search step as AN187 does it: bit, complement, direction */
        ow_bus_touch_bit(&w.bus, 1);
        ow_bus_touch_bit(&w.bus, 1);
        ow_bus_touch_bit(&w.bus, op & 0x10);
        ow_eeprom_take_dirty(&w.e.regs);
        break;
    }
    return in->pos - start;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size, 0 };

    world_init(fuzz_u8(&in));
    check_invariants();
    while (fuzz_more(&in)) {
        uint64_t slots = w.bus.slots, resets = w.bus.resets;
        uint64_t visits = w.bus.visits;
        size_t used = step(&in);
        uint64_t dslots = w.bus.slots - slots;

        check_invariants();
        FUZZ_MEASURE("slots-per-op-byte", (double)dslots / used);
        /* read-slot runs (op 4) take 16 bytes from one opcode byte */
        FUZZ_CHECK(dslots <= SLOTS_PER_BYTE * 16 * used + 3);
        FUZZ_CHECK(w.bus.resets - resets <= 1);
        FUZZ_CHECK(w.bus.visits - visits <=
                   (dslots + w.bus.resets - resets) * (uint64_t)w.bus.nslaves);
    }
    /* whole input: linear in its size */
    FUZZ_CHECK(w.bus.slots <= SLOTS_PER_BYTE * 16 * size);
    return 0;
}
