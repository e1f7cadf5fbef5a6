/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hostile-master tests: seeded random reset/bit/byte traffic (biased
 * towards real ROM and function commands so deep states are reached)
 * against every device type, plus corrupted state as a hostile
 * migration stream could load it.  Checked: no crash, no out-of-bounds
 * access (run under ASan/UBSan or valgrind), state invariants, and a
 * working bus afterwards.
 */
#include "ow-test-util.h"

#define HOSTILE_SLOTS 100000

typedef struct Zoo {
    OWBus bus;
    int64_t now;
    OWDS18B20 t[2];
    OWDS2431 e;
    OWDS2433 f;
    OWDS2408 p;
    OWDS2413 a;
    OWDS2401 id;
    OWSlave *all[7];
    int n;
} Zoo;

static void zoo_init(Zoo *z, GRand *r)
{
    uint8_t rom[8];
    int i;

    z->now = 0;
    ow_bus_init(&z->bus, fake_clock, &z->now);
    random_rom(r, OW_FAMILY_DS18B20, rom);
    ow_ds18b20_init(&z->t[0], rom);
    random_rom(r, OW_FAMILY_DS18B20, rom);
    ow_ds18b20_init(&z->t[1], rom);
    z->t[1].parasite = true;
    z->t[1].require_spu = true;
    random_rom(r, OW_FAMILY_DS2431, rom);
    ow_ds2431_init(&z->e, rom);
    random_rom(r, OW_FAMILY_DS2433, rom);
    ow_ds2433_init(&z->f, rom);
    random_rom(r, OW_FAMILY_DS2408, rom);
    ow_ds2408_init(&z->p, rom);
    random_rom(r, OW_FAMILY_DS2413, rom);
    ow_ds2413_init(&z->a, rom);
    random_rom(r, OW_FAMILY_DS2401, rom);
    ow_ds2401_init(&z->id, rom);
    z->all[0] = &z->t[0].parent;
    z->all[1] = &z->t[1].parent;
    z->all[2] = &z->e.parent;
    z->all[3] = &z->f.parent;
    z->all[4] = &z->p.parent;
    z->all[5] = &z->a.parent;
    z->all[6] = &z->id.parent;
    z->n = 7;
    for (i = 0; i < z->n; i++) {
        g_assert_cmpint(ow_bus_attach(&z->bus, z->all[i]), ==, 0);
    }
}

static void check_invariants(Zoo *z)
{
    int i;

    for (i = 0; i < z->n; i++) {
        OWSlave *s = z->all[i];

        g_assert_cmpuint(s->tx_count, <=, OW_TX_RING);
        g_assert_cmpuint(s->tx_bits, <=, 8);
        g_assert_cmpuint(s->rx_bits, <, 8);
        g_assert_cmpuint(s->rom_bit, <=, 64);
        g_assert_cmpuint(s->search_phase, <, 3);
        g_assert_cmpuint(s->rom_state, <=, OW_RS_FUNC);
        g_assert_cmpuint(s->tail, <=, OW_TAIL_BUSY_AA);
        g_assert_true(s->bus == &z->bus);
    }
    for (i = 0; i < 2; i++) {
        g_assert_cmphex(z->t[i].scratchpad[8], ==,
                        ow_crc8(0, z->t[i].scratchpad, 8));
        g_assert_cmphex(z->t[i].scratchpad[4] & 0x9F, ==, 0x1F);
    }
    g_assert_cmpuint(z->a.latch, <=, 3);
    g_assert_cmphex(z->p.control & 0xF0, ==, 0);
    g_assert_cmpuint(z->p.nsamples, <=, 32);
    g_assert_cmphex(z->e.regs.es & 0x58, ==, 0);
    g_assert_cmphex(z->f.regs.es & 0x40, ==, 0);
    g_assert_cmpuint(z->e.regs.dirty & ~0x1Fu, ==, 0);
    g_assert_cmpuint(z->f.regs.dirty & ~0xFFFFu, ==, 0);
}

static const uint8_t rom_cmds[] = {
    0x33, 0x55, 0xCC, 0xF0, 0xEC, 0xA5, 0x3C, 0x69, 0x0F, 0x96,
};
static const uint8_t func_cmds[] = {
    0x44, 0xBE, 0x4E, 0x48, 0xB8, 0xB4,             /* DS18B20 */
    0x0F, 0xAA, 0x55, 0xF0,                         /* DS2431/DS2433 */
    0xF5, 0x5A, 0xCC, 0xC3,                         /* DS2408/DS2413 */
};

static uint8_t pick(GRand *r, const uint8_t *set, size_t n)
{
    return set[g_rand_int_range(r, 0, (gint32)n)];
}

/* one random action; returns the number of slots it used */
static int hostile_step(Zoo *z, GRand *r)
{
    int k = g_rand_int_range(r, 0, 100);
    int i, slots = 0;

    if (k < 8) {
        ow_bus_reset(&z->bus, NULL);
        /* usually follow up with a real ROM command and function */
        if (g_rand_boolean(r)) {
            ow_bus_touch_byte(&z->bus, pick(r, rom_cmds, sizeof(rom_cmds)));
            slots += 8;
            if (g_rand_int_range(r, 0, 3) == 0) {
                OWSlave *s = z->all[g_rand_int_range(r, 0, z->n)];

                bus_write(&z->bus, s->rom, OW_ROM_LEN);
                slots += 64;
            }
            ow_bus_touch_byte(&z->bus,
                              pick(r, func_cmds, sizeof(func_cmds)));
            slots += 8;
        }
    } else if (k < 40) {
        ow_bus_touch_bit(&z->bus, g_rand_boolean(r));
        slots = 1;
    } else if (k < 75) {
        ow_bus_touch_byte(&z->bus, (uint8_t)g_rand_int(r));
        slots = 8;
    } else if (k < 88) {
        /* long reads: endless streams must be generated */
        for (i = g_rand_int_range(r, 1, 80); i > 0; i--) {
            ow_bus_touch_byte(&z->bus, 0xFF);
            slots += 8;
        }
    } else if (k < 90) {
        ow_bus_set_speed(&z->bus, g_rand_int_range(r, -1, 5));
    } else if (k < 91) {
        ow_bus_set_pullup(&z->bus, g_rand_boolean(r));
    } else if (k < 92) {
        ow_slave_set_present(z->all[g_rand_int_range(r, 0, z->n)],
                             g_rand_int_range(r, 0, 4) != 0);
    } else if (k < 93) {
        z->bus.shorted = g_rand_int_range(r, 0, 8) == 0;
    } else if (k < 94) {
        z->bus.instant = g_rand_boolean(r);
    } else if (k < 97) {
        z->now += g_rand_int_range(r, 0, 20000000);
    } else {
        z->t[0].temperature_mc = (int32_t)g_rand_int(r);
        z->t[1].temperature_mc = g_rand_int_range(r, -60000, 130000);
        z->p.pio_input = (uint8_t)g_rand_int(r);
        z->a.pio_input = (uint8_t)g_rand_int(r);
        z->t[0].tconv_pct = (uint8_t)g_rand_int(r);
    }
    return slots;
}

/* afterwards the bus must still work normally */
static void check_usable(Zoo *z)
{
    uint8_t got[8][8], sp[9];
    int i;

    z->bus.shorted = false;
    z->bus.instant = true;
    ow_bus_set_speed(&z->bus, OW_SPEED_REGULAR);
    for (i = 0; i < z->n; i++) {
        ow_slave_set_present(z->all[i], true);
    }
    g_assert_true(ow_bus_reset(&z->bus, NULL));
    g_assert_cmpint(an187_search(&z->bus, OW_ROM_SEARCH, got, 8), ==, z->n);
    for (i = 0; i < z->n; i++) {
        bus_match(&z->bus, z->all[i]->rom);
        g_assert_true(z->all[i]->rc);
    }
    bus_match(&z->bus, z->t[0].parent.rom);
    ow_bus_touch_byte(&z->bus, 0xBE);
    bus_read(&z->bus, sp, 9);
    g_assert_cmphex(ow_crc8(0, sp, 9), ==, 0);
}

static void run_hostile(guint32 seed, bool corrupt)
{
    GRand *r = g_rand_new_with_seed(seed);
    Zoo z;
    long slots = 0;
    int steps = 0;

    zoo_init(&z, r);
    while (slots < HOSTILE_SLOTS) {
        if (corrupt && g_rand_int_range(r, 0, 200) == 0) {
            OWSlave *s = z.all[g_rand_int_range(r, 0, z.n)];

            /* what a hostile migration stream could load */
            /* mostly valid states, so the function layer sees it */
            s->rom_state = g_rand_boolean(r) ?
                           (uint8_t)g_rand_int_range(r, 0, 6) :
                           (uint8_t)g_rand_int(r);
            s->rom_bit = (uint8_t)g_rand_int(r);
            s->search_phase = (uint8_t)g_rand_int(r);
            s->rx_bits = (uint8_t)g_rand_int(r);
            s->tx_head = (uint8_t)g_rand_int(r);
            s->tx_count = (uint8_t)g_rand_int(r);
            s->tx_bits = (uint8_t)g_rand_int(r);
            s->tail = (uint8_t)g_rand_int(r);
            s->busy_until = (int64_t)g_rand_int(r) << 31;
            z.e.regs.ta = (uint16_t)g_rand_int(r);
            z.e.regs.es = (uint8_t)g_rand_int(r);
            z.e.regs.offset = (uint8_t)g_rand_int(r);
            z.e.regs.addr = (uint16_t)g_rand_int(r);
            z.e.regs.cmd = (uint8_t)g_rand_int(r);
            z.f.regs.ta = (uint16_t)g_rand_int(r);
            z.f.regs.offset = (uint8_t)g_rand_int(r);
            z.f.regs.addr = (uint16_t)g_rand_int(r);
            z.f.regs.cmd = (uint8_t)g_rand_int(r);
            z.p.addr = (uint16_t)g_rand_int(r);
            z.p.nsamples = (uint8_t)g_rand_int(r);
            z.p.cmd = (uint8_t)g_rand_int(r);
            z.a.latch = (uint8_t)g_rand_int(r);
            z.t[0].scratchpad[4] = (uint8_t)g_rand_int(r);
            z.t[0].cmd = (uint8_t)g_rand_int(r);
            z.t[0].nrx = (uint8_t)g_rand_int(r);
            z.bus.nslaves = g_rand_int_range(r, -3, 100);
        }
        slots += hostile_step(&z, r);
        if (!corrupt) {
            check_invariants(&z);
        }
        steps++;
        if (corrupt && z.bus.nslaves != z.n) {
            z.bus.nslaves = z.n;
        }
    }
    g_test_message("seed %u: %d steps, %ld slots, %" G_GUINT64_FORMAT
                   " resets", seed, steps, slots, z.bus.resets);
    if (corrupt) {
        /* a power cycle brings every device back to sane state */
        int i;

        for (i = 0; i < z.n; i++) {
            ow_slave_set_present(z.all[i], false);
        }
        z.a.latch = 3;
    }
    check_usable(&z);
    g_rand_free(r);
}

static void test_hostile_traffic(gconstpointer data)
{
    run_hostile(GPOINTER_TO_UINT(data), false);
}

static void test_hostile_state(gconstpointer data)
{
    run_hostile(GPOINTER_TO_UINT(data), true);
}

int main(int argc, char **argv)
{
    static const guint32 seeds[] = { 1, 0xC0FFEE, 20261203 };
    char name[64];
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(seeds); i++) {
        g_snprintf(name, sizeof(name), "/onewire/hostile/traffic/%u",
                   seeds[i]);
        g_test_add_data_func(name, GUINT_TO_POINTER(seeds[i]),
                             test_hostile_traffic);
        g_snprintf(name, sizeof(name), "/onewire/hostile/state/%u",
                   seeds[i]);
        g_test_add_data_func(name, GUINT_TO_POINTER(seeds[i]),
                             test_hostile_state);
    }
    return g_test_run();
}
