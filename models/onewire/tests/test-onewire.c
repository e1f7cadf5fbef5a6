/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the 1-Wire core and slaves, with datasheet vectors.
 * Everything goes through ow_bus_reset/touch_bit/touch_byte, as the
 * DS2490 engine will drive it.
 */
#include "ow-test-util.h"

/* ---- CRCs ---- */

static void test_crc8(void)
{
    /* Maxim AN27: family 02, serial 00000001B81C -> CRC A2 */
    uint8_t rom[8] = { 0x02, 0x1C, 0xB8, 0x01, 0x00, 0x00, 0x00, 0x00 };
    const uint8_t check[] = "123456789";

    g_assert_cmphex(ow_crc8(0, rom, 7), ==, 0xA2);
    rom[7] = 0xA2;
    g_assert_cmphex(ow_crc8(0, rom, 8), ==, 0);
    g_assert_true(ow_rom_crc_valid(rom));
    rom[3] ^= 0x10;
    g_assert_false(ow_rom_crc_valid(rom));
    /* CRC-8/MAXIM check value */
    g_assert_cmphex(ow_crc8(0, check, 9), ==, 0xA1);
    /* incremental == one shot */
    g_assert_cmphex(ow_crc8(ow_crc8(0, check, 4), check + 4, 5), ==, 0xA1);
}

static void test_crc16(void)
{
    const uint8_t check[] = "123456789";
    uint8_t buf[34];
    uint16_t crc;
    int i;

    /* CRC-16/ARC check value, as Linux crc16() */
    g_assert_cmphex(ow_crc16(0, check, 9), ==, 0xBB3D);
    for (i = 0; i < 32; i++) {
        buf[i] = (uint8_t)(i * 37 + 11);
    }
    crc = (uint16_t)~ow_crc16(0, buf, 32);
    buf[32] = (uint8_t)crc;
    buf[33] = (uint8_t)(crc >> 8);
    g_assert_cmphex(ow_crc16(0, buf, 34), ==, OW_CRC16_RESIDUE);
    buf[5] ^= 1;
    g_assert_cmphex(ow_crc16(0, buf, 34), !=, OW_CRC16_RESIDUE);
}

/* ---- ROM text ---- */

static void test_rom_text(void)
{
    static const char *const bad[] = {
        "", "2", "28", "28-", "28-0000012345a", "28-0000012345abc",
        "28_0000012345ab", "2g-0000012345ab", "28-0000012345xb",
        " 28-0000012345ab", "28-0000012345ab ", "28--000012345ab",
        "0x28-000012345a",
    };
    const uint8_t want[8] = { 0x28, 0xAB, 0x45, 0x23, 0x01, 0x00, 0x00 };
    uint8_t rom[8], keep[8];
    char text[OW_ROM_TEXT_LEN];
    size_t i;

    g_assert_true(ow_rom_parse("28-0000012345ab", rom));
    g_assert_cmpmem(rom, 7, want, 7);
    g_assert_true(ow_rom_crc_valid(rom));
    ow_rom_format(rom, text);
    g_assert_cmpstr(text, ==, "28-0000012345ab");

    /* upper case in, lower case out */
    g_assert_true(ow_rom_parse("2D-00000011AABB", rom));
    ow_rom_format(rom, text);
    g_assert_cmpstr(text, ==, "2d-00000011aabb");

    /* the AN27 device */
    g_assert_true(ow_rom_parse("02-000001b81c", rom) == false);
    g_assert_true(ow_rom_parse("02-00000001b81c", rom));
    g_assert_cmphex(rom[1], ==, 0x1C);
    g_assert_cmphex(rom[7], ==, 0xA2);

    memset(keep, 0x5A, sizeof(keep));
    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        memcpy(rom, keep, sizeof(rom));
        g_assert_false(ow_rom_parse(bad[i], rom));
        g_assert_cmpmem(rom, 8, keep, 8);
    }
    g_assert_false(ow_rom_parse(NULL, rom));
}

/* ---- bus, presence ---- */

static void test_presence(void)
{
    OWBus bus;
    OWDS2401 d[3];
    uint8_t rom[8];
    bool sh = true;
    int i;

    ow_bus_init(&bus, NULL, NULL);
    g_assert_false(ow_bus_reset(&bus, &sh));
    g_assert_false(sh);
    g_assert_cmpint(ow_bus_touch_bit(&bus, 1), ==, 1);

    for (i = 0; i < 3; i++) {
        make_rom(OW_FAMILY_DS2401, 0x100 + i, rom);
        ow_ds2401_init(&d[i], rom);
    }
    g_assert_cmpint(ow_bus_attach(&bus, &d[0].parent), ==, 0);
    g_assert_true(ow_bus_reset(&bus, &sh));
    g_assert_false(sh);
    g_assert_cmpint(ow_bus_attach(&bus, &d[1].parent), ==, 0);
    g_assert_cmpint(ow_bus_attach(&bus, &d[2].parent), ==, 0);
    g_assert_cmpint(ow_bus_attach(&bus, &d[2].parent), ==, 0);
    g_assert_cmpint(bus.nslaves, ==, 3);
    g_assert_true(ow_bus_reset(&bus, NULL));

    /* short: no presence, every slot reads 0 */
    bus.shorted = true;
    g_assert_false(ow_bus_reset(&bus, &sh));
    g_assert_true(sh);
    g_assert_cmphex(ow_bus_touch_byte(&bus, 0xFF), ==, 0x00);
    bus.shorted = false;
    g_assert_true(ow_bus_reset(&bus, &sh));
    g_assert_false(sh);

    /* absent slaves neither answer nor drive */
    for (i = 0; i < 3; i++) {
        ow_slave_set_present(&d[i].parent, false);
    }
    g_assert_false(ow_bus_reset(&bus, NULL));
    ow_slave_set_present(&d[1].parent, true);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_READ);
    bus_read(&bus, rom, 8);
    g_assert_cmpmem(rom, 8, d[1].parent.rom, 8);

    ow_bus_detach(&bus, &d[1].parent);
    g_assert_cmpint(bus.nslaves, ==, 2);
    g_assert_null(d[1].parent.bus);
    g_assert_false(ow_bus_reset(&bus, NULL));
}

static void test_attach_full(void)
{
    OWBus bus, other;
    OWDS2401 d[OW_MAX_SLAVES + 1];
    uint8_t rom[8];
    int i;

    ow_bus_init(&bus, NULL, NULL);
    ow_bus_init(&other, NULL, NULL);
    for (i = 0; i <= OW_MAX_SLAVES; i++) {
        make_rom(OW_FAMILY_DS2401, i, rom);
        ow_ds2401_init(&d[i], rom);
    }
    for (i = 0; i < OW_MAX_SLAVES; i++) {
        g_assert_cmpint(ow_bus_attach(&bus, &d[i].parent), ==, 0);
    }
    g_assert_cmpint(ow_bus_attach(&bus, &d[OW_MAX_SLAVES].parent), ==, -1);
    g_assert_cmpint(ow_bus_attach(&other, &d[0].parent), ==, -1);
    g_assert_cmpint(bus.nslaves, ==, OW_MAX_SLAVES);
}

/*
 * The slaves a slot visits (OWBus.active): those MATCH ROM leaves out drop
 * off, a detached one is never visited again, a reset or a change behind
 * the bus's back (a migration stream: ow_bus_invalidate()) brings them in.
 */
static void test_active(void)
{
    OWBus bus;
    OWDS2401 d[3];
    uint8_t rom[8];
    int i;

    ow_bus_init(&bus, NULL, NULL);
    for (i = 0; i < 3; i++) {
        make_rom(OW_FAMILY_DS2401, 0x200 + i, rom);
        ow_ds2401_init(&d[i], rom);
        g_assert_cmpint(ow_bus_attach(&bus, &d[i].parent), ==, 0);
    }
    bus_match(&bus, d[0].parent.rom);
    g_assert_cmpint(bus.nactive, ==, 1);
    bus.visits = 0;
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
    g_assert_cmpuint(bus.visits, ==, 8);

    /* detached while selected: no slot looks at it any more */
    ow_bus_detach(&bus, &d[0].parent);
    bus.visits = 0;
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
    g_assert_cmpuint(bus.visits, ==, 0);
    g_assert_cmpint(d[0].parent.rom_state, ==, OW_RS_FUNC);

    /* a loaded state: d[1] in the middle of READ ROM */
    d[1].parent.rom_state = OW_RS_FUNC;
    d[1].parent.tail = OW_TAIL_ONES;
    ow_slave_tx_push(&d[1].parent, d[1].parent.rom, OW_ROM_LEN);
    ow_bus_invalidate(&bus);
    g_assert_cmphex(bus_read8(&bus), ==, OW_FAMILY_DS2401);
    g_assert_cmpint(bus.nactive, ==, 1);

    /* unplugged: gone at once; plugged in again: back at the next reset */
    ow_slave_set_present(&d[1].parent, false);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
    ow_slave_set_present(&d[1].parent, true);
    g_assert_true(ow_bus_reset(&bus, NULL));
    g_assert_cmpint(bus.nactive, ==, 2);
    ow_bus_touch_byte(&bus, OW_ROM_READ);
    g_assert_cmphex(bus_read8(&bus), ==, OW_FAMILY_DS2401);
}

/* ---- ROM layer ---- */

static void test_read_rom(void)
{
    OWBus bus;
    OWDS2401 id;
    OWDS18B20 t;
    uint8_t rom[8], got[8];

    ow_bus_init(&bus, NULL, NULL);
    make_rom(OW_FAMILY_DS2401, 0x0000DEADBEEFULL, rom);
    ow_ds2401_init(&id, rom);
    ow_bus_attach(&bus, &id.parent);

    g_assert_true(ow_bus_reset(&bus, NULL));
    g_assert_cmphex(ow_bus_touch_byte(&bus, OW_ROM_READ), ==, OW_ROM_READ);
    bus_read(&bus, got, 8);
    g_assert_cmpmem(got, 8, rom, 8);
    /* no function layer: all ones afterwards */
    g_assert_cmphex(ow_bus_touch_byte(&bus, 0x44), ==, 0x44);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);

    /* DS2401 also knows the legacy 0x0F */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_READ_LEGACY);
    bus_read(&bus, got, 8);
    g_assert_cmpmem(got, 8, rom, 8);

    /* a DS18B20 does not: it goes idle */
    ow_bus_detach(&bus, &id.parent);
    make_rom(OW_FAMILY_DS18B20, 0x123456, rom);
    ow_ds18b20_init(&t, rom);
    ow_bus_attach(&bus, &t.parent);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_READ_LEGACY);
    bus_read(&bus, got, 8);
    g_assert_cmphex(got[0], ==, 0xFF);
    g_assert_cmphex(got[7], ==, 0xFF);

    /* READ ROM then the function layer works (single drop) */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_READ);
    bus_read(&bus, got, 8);
    g_assert_cmpmem(got, 8, rom, 8);
    ow_bus_touch_byte(&bus, 0xBE);
    bus_read(&bus, got, 2);
    g_assert_cmphex(got[0], ==, 0x50);
    g_assert_cmphex(got[1], ==, 0x05);
}

static void test_collision(void)
{
    OWBus bus;
    OWDS18B20 t[2];
    uint8_t rom[2][8], got[9], want[9];
    int i;

    ow_bus_init(&bus, NULL, NULL);
    for (i = 0; i < 2; i++) {
        make_rom(OW_FAMILY_DS18B20, i ? 0x0000A5F00F5AULL : 0x00005A0FF0A5,
                 rom[i]);
        ow_ds18b20_init(&t[i], rom[i]);
        ow_bus_attach(&bus, &t[i].parent);
    }
    t[0].temperature_mc = 25062;
    t[1].temperature_mc = -10125;

    /* READ ROM with two slaves: the wired AND of both */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_READ);
    bus_read(&bus, got, 8);
    for (i = 0; i < 8; i++) {
        g_assert_cmphex(got[i], ==, rom[0][i] & rom[1][i]);
    }

    /* SKIP + CONVERT + SKIP + READ SCRATCHPAD: AND of the scratchpads */
    bus_skip(&bus);
    ow_bus_touch_byte(&bus, 0x44);
    bus_skip(&bus);
    ow_bus_touch_byte(&bus, 0xBE);
    bus_read(&bus, got, 9);
    for (i = 0; i < 9; i++) {
        want[i] = t[0].scratchpad[i] & t[1].scratchpad[i];
    }
    g_assert_cmpmem(got, 9, want, 9);
    g_assert_cmphex(t[0].scratchpad[0], ==, 0x91);
    g_assert_cmphex(t[1].scratchpad[0], ==, 0x5E);
    g_assert_cmphex(got[0], ==, 0x91 & 0x5E);
}

static void test_match(void)
{
    OWBus bus;
    OWDS18B20 t[3];
    uint8_t rom[3][8], got[9], nobody[8];
    static const int32_t mc[3] = { 125000, 0, -55000 };
    static const uint16_t reg[3] = { 0x07D0, 0x0000, 0xFC90 };
    int i;

    ow_bus_init(&bus, NULL, NULL);
    for (i = 0; i < 3; i++) {
        make_rom(OW_FAMILY_DS18B20, 0x1000 + i * 0x10001, rom[i]);
        ow_ds18b20_init(&t[i], rom[i]);
        t[i].temperature_mc = mc[i];
        ow_bus_attach(&bus, &t[i].parent);
    }
    for (i = 0; i < 3; i++) {
        bus_match(&bus, rom[i]);
        ow_bus_touch_byte(&bus, 0x44);
    }
    for (i = 0; i < 3; i++) {
        bus_match(&bus, rom[i]);
        g_assert_true(t[i].parent.rc);
        g_assert_false(t[(i + 1) % 3].parent.rc);
        ow_bus_touch_byte(&bus, 0xBE);
        bus_read(&bus, got, 9);
        g_assert_cmphex(got[0] | (got[1] << 8), ==, reg[i]);
        g_assert_cmphex(ow_crc8(0, got, 9), ==, 0);
    }
    /* an id nobody has: nobody answers */
    make_rom(OW_FAMILY_DS18B20, 0x999999, nobody);
    bus_match(&bus, nobody);
    ow_bus_touch_byte(&bus, 0xBE);
    bus_read(&bus, got, 9);
    for (i = 0; i < 9; i++) {
        g_assert_cmphex(got[i], ==, 0xFF);
    }
}

static void test_resume(void)
{
    OWBus bus;
    OWDS2413 a;
    OWDS2431 e;
    OWDS18B20 t;
    uint8_t rom_a[8], rom_e[8], rom_t[8];
    uint8_t st;

    ow_bus_init(&bus, NULL, NULL);
    make_rom(OW_FAMILY_DS2413, 0x778899, rom_a);
    make_rom(OW_FAMILY_DS2431, 0x112233, rom_e);
    make_rom(OW_FAMILY_DS18B20, 0x445566, rom_t);
    ow_ds2413_init(&a, rom_a);
    ow_ds2431_init(&e, rom_e);
    ow_ds18b20_init(&t, rom_t);
    ow_bus_attach(&bus, &a.parent);
    ow_bus_attach(&bus, &e.parent);
    ow_bus_attach(&bus, &t.parent);
    a.pio_input = 0x2;

    bus_match(&bus, rom_a);
    ow_bus_touch_byte(&bus, 0xF5);
    g_assert_cmphex(bus_read8(&bus), ==, ow_ds2413_status(&a));

    /* RESUME: only the DS2413 (RC = 1) answers */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_RESUME);
    ow_bus_touch_byte(&bus, 0xF5);
    st = bus_read8(&bus);
    g_assert_cmphex(st, ==, 0x1E);
    g_assert_cmphex(st & 0x0F, ==, (~st >> 4) & 0x0F);
    g_assert_cmpint(e.parent.rom_state, ==, OW_RS_IDLE);
    g_assert_cmpint(t.parent.rom_state, ==, OW_RS_IDLE);

    /* and again: RC survives RESUME */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_RESUME);
    ow_bus_touch_byte(&bus, 0xF5);
    g_assert_cmphex(bus_read8(&bus), ==, 0x1E);

    /* another ROM command clears RC */
    bus_match(&bus, rom_e);
    g_assert_false(a.parent.rc);
    g_assert_true(e.parent.rc);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_RESUME);
    ow_bus_touch_byte(&bus, 0xF0);
    ow_bus_touch_byte(&bus, 0x00);
    ow_bus_touch_byte(&bus, 0x00);
    g_assert_cmphex(bus_read8(&bus), ==, 0x00);     /* DS2431 memory */

    /* SKIP clears RC everywhere */
    bus_skip(&bus);
    g_assert_false(e.parent.rc);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_RESUME);
    ow_bus_touch_byte(&bus, 0xF5);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);

    /* DS18B20 has no RESUME even with RC set */
    bus_match(&bus, rom_t);
    g_assert_true(t.parent.rc);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_RESUME);
    ow_bus_touch_byte(&bus, 0xBE);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
}

static void test_overdrive(void)
{
    OWBus bus;
    OWDS2413 a;
    OWDS18B20 t;
    OWDS2431 e;
    uint8_t rom_a[8], rom_t[8], rom_e[8];

    ow_bus_init(&bus, NULL, NULL);
    make_rom(OW_FAMILY_DS2413, 1, rom_a);
    make_rom(OW_FAMILY_DS18B20, 2, rom_t);
    make_rom(OW_FAMILY_DS2431, 3, rom_e);
    ow_ds2413_init(&a, rom_a);
    ow_ds18b20_init(&t, rom_t);
    ow_ds2431_init(&e, rom_e);
    ow_bus_attach(&bus, &a.parent);
    ow_bus_attach(&bus, &t.parent);
    ow_bus_attach(&bus, &e.parent);

    /* OVERDRIVE SKIP: DS2413 and DS2431 switch, DS18B20 goes idle */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_OD_SKIP);
    g_assert_true(a.parent.overdrive);
    g_assert_true(e.parent.overdrive);
    g_assert_false(t.parent.overdrive);

    /* regular-speed slots are ignored by overdrive slaves */
    g_assert_cmphex(ow_bus_touch_byte(&bus, 0xF5), ==, 0xF5);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);

    ow_bus_set_speed(&bus, OW_SPEED_OVERDRIVE);
    ow_bus_set_speed(&bus, 7);      /* reserved: ignored */
    g_assert_cmpint(bus.speed, ==, OW_SPEED_OVERDRIVE);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_MATCH);
    bus_write(&bus, rom_a, 8);
    ow_bus_touch_byte(&bus, 0xF5);
    g_assert_cmphex(bus_read8(&bus), ==, 0x0F);
    g_assert_cmpint(t.parent.rom_state, ==, OW_RS_IDLE);

    /* a regular reset brings everybody back to regular speed */
    ow_bus_set_speed(&bus, OW_SPEED_REGULAR);
    g_assert_true(ow_bus_reset(&bus, NULL));
    g_assert_false(a.parent.overdrive);
    g_assert_false(e.parent.overdrive);
    ow_bus_touch_byte(&bus, OW_ROM_MATCH);
    bus_write(&bus, rom_t, 8);
    ow_bus_touch_byte(&bus, 0xBE);
    g_assert_cmphex(bus_read8(&bus), ==, 0x50);

    /* OVERDRIVE MATCH: the ROM bits come at overdrive speed */
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_OD_MATCH);
    ow_bus_set_speed(&bus, OW_SPEED_OVERDRIVE);
    bus_write(&bus, rom_e, 8);
    g_assert_true(e.parent.overdrive);
    g_assert_false(a.parent.overdrive);     /* mismatch: back */
    ow_bus_touch_byte(&bus, 0xF0);
    ow_bus_touch_byte(&bus, 0x00);
    ow_bus_touch_byte(&bus, 0x00);
    g_assert_cmphex(bus_read8(&bus), ==, 0x00);
    ow_bus_set_speed(&bus, OW_SPEED_REGULAR);
    g_assert_true(ow_bus_reset(&bus, NULL));
    g_assert_false(e.parent.overdrive);
}

/* ---- search ---- */

/*
 * A full search of n slaves finds each exactly once, in AN187 order.
 * Returns the slaves the slots looked at (OWBus.visits) over the search.
 */
static uint64_t search_n(int n)
{
    GRand *r = g_rand_new_with_seed(0x1EE7 + n);
    OWBus bus;
    /* on the heap: OW_MAX_SLAVES of each type is too much for a stack */
    OWSlave **slaves = g_new0(OWSlave *, OW_MAX_SLAVES);
    OWDS2401 *ids = g_new0(OWDS2401, OW_MAX_SLAVES);
    OWDS18B20 *temps = g_new0(OWDS18B20, OW_MAX_SLAVES);
    OWDS2408 *sw8 = g_new0(OWDS2408, OW_MAX_SLAVES);
    uint8_t (*want)[8] = g_malloc0(OW_MAX_SLAVES * 8);
    uint8_t (*got)[8] = g_malloc0((OW_MAX_SLAVES + 1) * 8);
    uint64_t visits;
    int i, found;

    ow_bus_init(&bus, NULL, NULL);
    for (i = 0; i < n; i++) {
        /* a mix of device types; the search must not care */
        switch (i % 3) {
        case 0:
            random_rom(r, OW_FAMILY_DS2401, want[i]);
            ow_ds2401_init(&ids[i], want[i]);
            slaves[i] = &ids[i].parent;
            break;
        case 1:
            random_rom(r, OW_FAMILY_DS18B20, want[i]);
            ow_ds18b20_init(&temps[i], want[i]);
            slaves[i] = &temps[i].parent;
            break;
        default:
            random_rom(r, OW_FAMILY_DS2408, want[i]);
            ow_ds2408_init(&sw8[i], want[i]);
            slaves[i] = &sw8[i].parent;
            break;
        }
        g_assert_cmpint(ow_bus_attach(&bus, slaves[i]), ==, 0);
    }
    bus.visits = 0;
    found = an187_search(&bus, OW_ROM_SEARCH, got, OW_MAX_SLAVES + 1);
    visits = bus.visits;
    g_assert_cmpint(found, ==, n);
    qsort(want, n, 8, rom_cmp);
    for (i = 0; i < n; i++) {
        g_assert_cmpmem(got[i], 8, want[i], 8);
    }

    /* the survivor of the last pass is selected, RC set */
    for (i = 0; i < n; i++) {
        if (!memcmp(slaves[i]->rom, want[n - 1], 8)) {
            g_assert_true(slaves[i]->rc);
            g_assert_cmpint(slaves[i]->rom_state, ==, OW_RS_FUNC);
        } else {
            g_assert_false(slaves[i]->rc);
        }
    }
    g_free(got);
    g_free(want);
    g_free(sw8);
    g_free(temps);
    g_free(ids);
    g_free(slaves);
    g_rand_free(r);
    return visits;
}

static void test_search_1(void)
{
    search_n(1);
}

static void test_search_3(void)
{
    search_n(3);
}

static void test_search_17(void)
{
    search_n(17);
}

static void test_search_128(void)
{
    search_n(128);
}

static void test_search_max(void)
{
    search_n(OW_MAX_SLAVES);
}

/*
 * What a full search costs the core, in slaves visited by slots: a pass
 * is the ROM command byte (8 slots that every slave takes part in), then
 * 64 triplets that only the slaves still matching the path take part in:
 * all of a family for its 8 bits, then fewer and fewer.  About 25 n per
 * pass here, where visiting every slave in every slot was 200 n: so the
 * n passes stay below 50 n^2, 1/4 of that.  (The n passes themselves, a
 * reset each, are the protocol's.)
 */
static void test_search_cost(void)
{
    static const int sizes[] = { 32, 128, OW_MAX_SLAVES };
    uint64_t visits[G_N_ELEMENTS(sizes)];
    gint64 t0;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(sizes); i++) {
        uint64_t n = sizes[i];

        t0 = g_get_monotonic_time();
        visits[i] = search_n(sizes[i]);
        g_test_message("full search of %d slaves: %" G_GUINT64_FORMAT
                       " slave visits (%.1f per slave and pass), %" G_GINT64_FORMAT
                       " us (with the test's checks)", sizes[i], visits[i],
                       (double)visits[i] / (double)(n * n),
                       g_get_monotonic_time() - t0);
        g_assert_cmpuint(visits[i], <, 50 * n * n);
    }
    g_test_message("128 vs 32 slaves: %.1f x the visits (slots: 4 x)",
                   (double)visits[1] / (double)visits[0]);
}

static void test_search_empty(void)
{
    OWBus bus;
    uint8_t got[2][8];

    ow_bus_init(&bus, NULL, NULL);
    g_assert_cmpint(an187_search(&bus, OW_ROM_SEARCH, got, 2), ==, 0);
}

static void test_search_alarm(void)
{
    OWBus bus;
    OWDS18B20 t[4];
    OWDS2401 id;
    uint8_t rom[5][8], got[6][8], want[4][8];
    /* TH 30, TL 10 everywhere; 25 C is fine, the others alarm */
    static const int32_t mc[4] = { 25000, 30000, 10000, -5500 };
    int i, found, nwant = 0;

    ow_bus_init(&bus, NULL, NULL);
    for (i = 0; i < 4; i++) {
        make_rom(OW_FAMILY_DS18B20, 0x00A0 + 0x1111 * i, rom[i]);
        ow_ds18b20_init(&t[i], rom[i]);
        t[i].temperature_mc = mc[i];
        ow_bus_attach(&bus, &t[i].parent);
    }
    make_rom(OW_FAMILY_DS2401, 0xABCDEF, rom[4]);
    ow_ds2401_init(&id, rom[4]);
    ow_bus_attach(&bus, &id.parent);

    /* alarm flags are clear at power-up: nobody answers */
    g_assert_cmpint(an187_search(&bus, OW_ROM_COND_SEARCH, got, 6), ==, 0);

    bus_skip(&bus);
    ow_bus_touch_byte(&bus, 0x4E);
    ow_bus_touch_byte(&bus, 30);
    ow_bus_touch_byte(&bus, 10);
    ow_bus_touch_byte(&bus, 0x7F);
    bus_skip(&bus);
    ow_bus_touch_byte(&bus, 0x44);

    for (i = 1; i < 4; i++) {
        memcpy(want[nwant++], rom[i], 8);
    }
    found = an187_search(&bus, OW_ROM_COND_SEARCH, got, 6);
    g_assert_cmpint(found, ==, nwant);
    qsort(want, nwant, 8, rom_cmp);
    for (i = 0; i < nwant; i++) {
        g_assert_cmpmem(got[i], 8, want[i], 8);
    }
    g_assert_false(t[0].alarm);

    /* back in range after the next conversion */
    t[1].temperature_mc = 20000;
    t[2].temperature_mc = 20000;
    t[3].temperature_mc = 20000;
    bus_skip(&bus);
    ow_bus_touch_byte(&bus, 0x44);
    g_assert_cmpint(an187_search(&bus, OW_ROM_COND_SEARCH, got, 6), ==, 0);
    /* plain search still finds all five */
    g_assert_cmpint(an187_search(&bus, OW_ROM_SEARCH, got, 6), ==, 5);
}

/* ---- DS18B20 ---- */

typedef struct TempBus {
    OWBus bus;
    OWDS18B20 t;
    uint8_t rom[8];
    int64_t now;
} TempBus;

static void temp_bus_init(TempBus *tb, bool instant)
{
    tb->now = 1000;
    ow_bus_init(&tb->bus, fake_clock, &tb->now);
    tb->bus.instant = instant;
    make_rom(OW_FAMILY_DS18B20, 0x0000012345ABULL, tb->rom);
    ow_ds18b20_init(&tb->t, tb->rom);
    ow_bus_attach(&tb->bus, &tb->t.parent);
}

static void temp_read_sp(TempBus *tb, uint8_t sp[9])
{
    bus_match(&tb->bus, tb->rom);
    ow_bus_touch_byte(&tb->bus, 0xBE);
    bus_read(&tb->bus, sp, 9);
    g_assert_cmphex(ow_crc8(0, sp, 9), ==, 0);
    /* then ones */
    g_assert_cmphex(bus_read8(&tb->bus), ==, 0xFF);
}

static uint16_t temp_convert(TempBus *tb, int32_t mc)
{
    uint8_t sp[9];

    tb->t.temperature_mc = mc;
    bus_match(&tb->bus, tb->rom);
    ow_bus_touch_byte(&tb->bus, 0x44);
    /* instant: conversion already over, read slots give 1 */
    g_assert_cmphex(bus_read8(&tb->bus), ==, 0xFF);
    temp_read_sp(tb, sp);
    return (uint16_t)(sp[0] | (sp[1] << 8));
}

static void test_ds18b20_encoding(void)
{
    /* DS18B20 datasheet table 1, plus what w1_therm prints */
    static const struct {
        int32_t mc;
        uint16_t reg;
        int kernel_t;
    } table[] = {
        { 125000, 0x07D0, 125000 },
        { 85000, 0x0550, 85000 },
        { 25062, 0x0191, 25062 },   /* 25.0625 as the kernel prints it */
        { 25063, 0x0191, 25062 },
        { 10125, 0x00A2, 10125 },
        { 500, 0x0008, 500 },
        { 0, 0x0000, 0 },
        { -500, 0xFFF8, -500 },
        { -10125, 0xFF5E, -10125 },
        { -25062, 0xFE6F, -25062 },
        { -55000, 0xFC90, -55000 },
        { -60000, 0xFC90, -55000 }, /* clamped */
        { 130000, 0x07D0, 125000 },
    };
    TempBus tb;
    size_t i;

    temp_bus_init(&tb, true);
    for (i = 0; i < G_N_ELEMENTS(table); i++) {
        uint16_t reg = temp_convert(&tb, table[i].mc);

        g_assert_cmphex(reg, ==, table[i].reg);
        g_assert_cmpint((int16_t)reg * 1000 / 16, ==, table[i].kernel_t);
        g_assert_cmphex((uint16_t)ow_ds18b20_encode(table[i].mc, 12), ==,
                        table[i].reg);
    }
}

static void test_ds18b20_resolution(void)
{
    /* +25.9375 C = 0x019F at 12 bit */
    static const struct {
        uint8_t config;
        uint16_t reg;
        int64_t tconv;
    } table[] = {
        { 0x1F, 0x0198, 93750000 },
        { 0x3F, 0x019C, 187500000 },
        { 0x5F, 0x019E, 375000000 },
        { 0x7F, 0x019F, 750000000 },
    };
    TempBus tb;
    uint8_t sp[9];
    size_t i;

    temp_bus_init(&tb, false);
    for (i = 0; i < G_N_ELEMENTS(table); i++) {
        int64_t t = table[i].tconv * 90 / 100;

        g_assert_cmphex(OW_DS18B20_CONFIG(9 + (int)i), ==, table[i].config);

        bus_match(&tb.bus, tb.rom);
        ow_bus_touch_byte(&tb.bus, 0x4E);
        ow_bus_touch_byte(&tb.bus, 75);
        ow_bus_touch_byte(&tb.bus, 70);
        /* reserved bits: bit 7 reads 0, bits 4:0 read 1 */
        ow_bus_touch_byte(&tb.bus, (table[i].config & 0x60) | 0x80);
        temp_read_sp(&tb, sp);
        g_assert_cmphex(sp[4], ==, table[i].config);

        tb.t.temperature_mc = 25937;
        bus_match(&tb.bus, tb.rom);
        ow_bus_touch_byte(&tb.bus, 0x44);
        /* external power: read slots give 0 until the conversion ends */
        g_assert_cmphex(bus_read8(&tb.bus), ==, 0x00);
        tb.now += t - 1;
        g_assert_cmpint(ow_bus_touch_bit(&tb.bus, 1), ==, 0);
        tb.now += 1;
        g_assert_cmpint(ow_bus_touch_bit(&tb.bus, 1), ==, 1);
        g_assert_cmphex(bus_read8(&tb.bus), ==, 0xFF);
        temp_read_sp(&tb, sp);
        g_assert_cmphex(sp[0] | (sp[1] << 8), ==, table[i].reg);
        g_assert_cmphex(ow_ds18b20_encode(25937, 9 + (int)i), ==,
                        table[i].reg);
    }
}

static void test_ds18b20_scratchpad(void)
{
    TempBus tb;
    uint8_t sp[9];

    temp_bus_init(&tb, false);

    /* power-on: 85 C, EEPROM bytes, byte 6 0x0C */
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[0], ==, 0x50);
    g_assert_cmphex(sp[1], ==, 0x05);
    g_assert_cmphex(sp[2], ==, 75);
    g_assert_cmphex(sp[3], ==, 70);
    g_assert_cmphex(sp[4], ==, 0x7F);
    g_assert_cmphex(sp[5], ==, 0xFF);
    g_assert_cmphex(sp[6], ==, 0x0C);
    g_assert_cmphex(sp[7], ==, 0x10);

    /* WRITE SCRATCHPAD, COPY, power cycle: EEPROM reloaded */
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0x4E);
    ow_bus_touch_byte(&tb.bus, 0x33);
    ow_bus_touch_byte(&tb.bus, 0xF0);
    ow_bus_touch_byte(&tb.bus, 0x3F);
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[2], ==, 0x33);
    g_assert_cmphex(sp[3], ==, 0xF0);
    g_assert_cmphex(sp[4], ==, 0x3F);

    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0x48);
    g_assert_cmphex(bus_read8(&tb.bus), ==, 0x00);     /* copying */
    tb.now += OW_DS18B20_TCOPY_NS;
    g_assert_cmphex(bus_read8(&tb.bus), ==, 0xFF);
    g_assert_cmpmem(tb.t.eeprom, 3, &sp[2], 3);

    /* convert, then power cycle: back to 85 C with the new EEPROM */
    tb.bus.instant = true;
    temp_convert(&tb, 20000);
    ow_slave_set_present(&tb.t.parent, false);
    g_assert_false(ow_bus_reset(&tb.bus, NULL));
    ow_slave_set_present(&tb.t.parent, true);
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[0] | (sp[1] << 8), ==, 0x0550);
    g_assert_cmphex(sp[2], ==, 0x33);
    g_assert_cmphex(sp[3], ==, 0xF0);
    g_assert_cmphex(sp[4], ==, 0x3F);
    g_assert_cmphex(sp[6], ==, 0x0C);

    /* a genuine 85 C conversion is not the power-on pattern */
    temp_convert(&tb, 85000);
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[0] | (sp[1] << 8), ==, 0x0550);
    g_assert_cmphex(sp[6], !=, 0x0C);

    /* RECALL E2 undoes scratchpad edits */
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0x4E);
    ow_bus_touch_byte(&tb.bus, 1);
    ow_bus_touch_byte(&tb.bus, 2);
    ow_bus_touch_byte(&tb.bus, 0x7F);
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0xB8);
    g_assert_cmphex(bus_read8(&tb.bus), ==, 0xFF);     /* done */
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[2], ==, 0x33);
    g_assert_cmphex(sp[3], ==, 0xF0);
    g_assert_cmphex(sp[4], ==, 0x3F);
}

static void test_ds18b20_power(void)
{
    TempBus tb;
    uint8_t sp[9];

    temp_bus_init(&tb, true);
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0xB4);
    g_assert_cmpint(ow_bus_touch_bit(&tb.bus, 1), ==, 1);   /* external */

    tb.t.parasite = true;
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0xB4);
    g_assert_cmpint(ow_bus_touch_bit(&tb.bus, 1), ==, 0);
    g_assert_cmpint(ow_bus_touch_bit(&tb.bus, 1), ==, 0);

    /* parasite + require_spu: no strong pullup, no conversion */
    tb.t.require_spu = true;
    tb.t.temperature_mc = 21500;
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0x44);
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[0] | (sp[1] << 8), ==, 0x0550);
    g_assert_cmphex(sp[6], ==, 0x0C);

    /* strong pullup right after the command byte: converts */
    bus_match(&tb.bus, tb.rom);
    ow_bus_touch_byte(&tb.bus, 0x44);
    ow_bus_set_pullup(&tb.bus, true);
    ow_bus_set_pullup(&tb.bus, false);
    temp_read_sp(&tb, sp);
    g_assert_cmphex(sp[0] | (sp[1] << 8), ==, 0x0158);

    /* fail_conversion keeps 85 C */
    tb.t.fail_conversion = true;
    g_assert_cmphex(temp_convert(&tb, 30000), ==, 0x0550);
}

/* ---- DS2431 / DS2433 ---- */

typedef struct EeBus {
    OWBus bus;
    OWDS2431 e;
    OWDS2433 f;
    uint8_t rom_e[8];
    uint8_t rom_f[8];
    int64_t now;
} EeBus;

static void ee_bus_init(EeBus *eb, bool instant)
{
    eb->now = 5000;
    ow_bus_init(&eb->bus, fake_clock, &eb->now);
    eb->bus.instant = instant;
    make_rom(OW_FAMILY_DS2431, 0x000000112233ULL, eb->rom_e);
    make_rom(OW_FAMILY_DS2433, 0x000000445566ULL, eb->rom_f);
    ow_ds2431_init(&eb->e, eb->rom_e);
    ow_ds2433_init(&eb->f, eb->rom_f);
    ow_bus_attach(&eb->bus, &eb->e.parent);
    ow_bus_attach(&eb->bus, &eb->f.parent);
}

/* the w1_ds2431 write: WS + 8 bytes, returns the CRC bytes read */
static void ds2431_ws(EeBus *eb, uint16_t ta, const uint8_t *data,
                      size_t len, uint8_t crc_out[2])
{
    uint8_t hdr[3] = { 0x0F, (uint8_t)ta, (uint8_t)(ta >> 8) };

    bus_match(&eb->bus, eb->rom_e);
    bus_write(&eb->bus, hdr, 3);
    bus_write(&eb->bus, data, len);
    if (crc_out) {
        bus_read(&eb->bus, crc_out, 2);
    }
}

/* the slaves' guest errors, after their ROM, kept in a string array */
static void G_GNUC_PRINTF(3, 0)
ee_guest_error(void *opaque, const OWSlave *s, const char *fmt, va_list ap)
{
    char rom[OW_ROM_TEXT_LEN];
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);

    ow_rom_format(s->rom, rom);
    g_ptr_array_add(opaque, g_strdup_printf("%s: %s", rom, msg));
}

static void test_guest_errors(void)
{
    EeBus eb;
    g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
    const uint8_t data[8] = { 0 };
    const uint8_t copy[4] = { 0x55, 0x21, 0x00, 0x07 };    /* TA 0x0020 */

    ee_bus_init(&eb, true);
    eb.bus.guest_error = ee_guest_error;
    eb.bus.guest_error_opaque = msgs;

    /* the ROM, then the command */
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0x12);
    bus_match(&eb.bus, eb.rom_f);
    ow_bus_touch_byte(&eb.bus, 0xEE);
    g_assert_cmpuint(msgs->len, ==, 2);
    g_assert_cmpstr(g_ptr_array_index(msgs, 0), ==,
                    "2d-000000112233: unknown function command 0x12");
    g_assert_cmpstr(g_ptr_array_index(msgs, 1), ==,
                    "23-000000445566: unknown function command 0xee");

    /* COPY SCRATCHPAD with the wrong TA: which TA and E/S it had */
    ds2431_ws(&eb, 0x0020, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, copy, 4);
    g_assert_cmpuint(msgs->len, ==, 3);
    g_assert_cmpstr(g_ptr_array_index(msgs, 2), ==,
                    "2d-000000112233: COPY SCRATCHPAD refused: "
                    "authorization code mismatch (TA 0x0020, E/S 0x07)");
}

static void test_ds2431_scratchpad(void)
{
    EeBus eb;
    const uint8_t data[8] = { 1, 2, 3, 4, 0xA5, 0x5A, 0xFE, 0x80 };
    uint8_t buf[16], rs[14];

    ee_bus_init(&eb, true);

    /* fresh device: PF set (scratchpad not valid after power-up) */
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(rs[2] & OW_ES_PF, ==, OW_ES_PF);

    /* WRITE SCRATCHPAD to 0x0020: inverted CRC16 of cmd, TA, data */
    ds2431_ws(&eb, 0x0020, data, 8, buf + 11);
    buf[0] = 0x0F;
    buf[1] = 0x20;
    buf[2] = 0x00;
    memcpy(buf + 3, data, 8);
    g_assert_cmphex(ow_crc16(0, buf, 13), ==, OW_CRC16_RESIDUE);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);

    /* READ SCRATCHPAD: TA1 TA2 E/S data ~CRC16, then ones */
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 13);
    g_assert_cmphex(rs[0], ==, 0x20);
    g_assert_cmphex(rs[1], ==, 0x00);
    g_assert_cmphex(rs[2], ==, 0x07);   /* E = 7, AA = 0, PF = 0 */
    g_assert_cmpmem(rs + 3, 8, data, 8);
    buf[0] = 0xAA;
    memcpy(buf + 1, rs, 13);
    g_assert_cmphex(ow_crc16(0, buf, 14), ==, OW_CRC16_RESIDUE);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);

    /* starting at offset 5: 3 bytes, the CRC follows at once */
    ds2431_ws(&eb, 0x0045, data, 3, buf + 6);
    buf[0] = 0x0F;
    buf[1] = 0x45;
    buf[2] = 0x00;
    memcpy(buf + 3, data, 3);
    g_assert_cmphex(ow_crc16(0, buf, 8), ==, OW_CRC16_RESIDUE);
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 8);
    g_assert_cmphex(rs[0], ==, 0x45);
    g_assert_cmphex(rs[2], ==, 0x07);
    g_assert_cmpmem(rs + 3, 3, data, 3);
    buf[0] = 0xAA;
    memcpy(buf + 1, rs, 8);
    g_assert_cmphex(ow_crc16(0, buf, 9), ==, OW_CRC16_RESIDUE);

    /* stopped early: E = last offset written, no CRC */
    ds2431_ws(&eb, 0x0008, data, 2, NULL);
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(rs[2], ==, 0x01);
}

static void test_ds2431_copy(void)
{
    EeBus eb;
    const uint8_t data[8] = { 0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x23, 0x45, 0x67 };
    uint8_t auth[4] = { 0x55, 0x20, 0x00, 0x07 };
    uint8_t mem[OW_DS2431_MEM_SIZE + 2], want[OW_DS2431_MEM_SIZE];
    uint8_t rs[3];
    int i;

    ee_bus_init(&eb, true);
    for (i = 0; i < OW_DS2431_MEM_SIZE; i++) {
        eb.e.memory[i] = (uint8_t)(0x80 + i);
    }
    eb.e.memory[0x80] = 0;      /* pages unprotected */
    eb.e.memory[0x81] = 0;
    eb.e.memory[0x84] = 0;
    eb.e.memory[0x85] = 0;
    memcpy(want, eb.e.memory, sizeof(want));
    memcpy(want + 0x20, data, 8);

    ds2431_ws(&eb, 0x0020, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, auth, 4);
    /* instant: programming is over, the AA loop runs until reset */
    for (i = 0; i < 4; i++) {
        g_assert_cmphex(bus_read8(&eb.bus), ==, 0xAA);
    }
    g_assert_cmphex(ow_eeprom_take_dirty(&eb.e.regs), ==, 1u << 1);
    g_assert_cmphex(ow_eeprom_take_dirty(&eb.e.regs), ==, 0);

    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x00, 0x00 }, 3);
    bus_read(&eb.bus, mem, sizeof(mem));
    g_assert_cmpmem(mem, OW_DS2431_MEM_SIZE, want, OW_DS2431_MEM_SIZE);
    /* past the end: ones */
    g_assert_cmphex(mem[OW_DS2431_MEM_SIZE], ==, 0xFF);
    g_assert_cmphex(mem[OW_DS2431_MEM_SIZE + 1], ==, 0xFF);

    /* AA now set in E/S */
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(rs[2], ==, OW_ES_AA | 7);

    /* reading from 0x88: 8 bytes, then ones; from 0x90: ones only */
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x88, 0x00 }, 3);
    bus_read(&eb.bus, mem, 10);
    g_assert_cmpmem(mem, 8, want + 0x88, 8);
    g_assert_cmphex(mem[8], ==, 0xFF);
    g_assert_cmphex(mem[9], ==, 0xFF);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x90, 0x00 }, 3);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x00, 0x01 }, 3);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
}

static void test_ds2431_copy_refused(void)
{
    EeBus eb;
    const uint8_t data[8] = { 9, 8, 7, 6, 5, 4, 3, 2 };
    uint8_t mem[8], rs[3], zero[8] = { 0 };

    ee_bus_init(&eb, true);

    /* wrong authorization: ones, nothing written */
    ds2431_ws(&eb, 0x0040, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x40, 0x00, 0x06 }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x41, 0x00, 0x07 }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    g_assert_cmpmem(eb.e.memory + 0x40, 8, zero, 8);
    g_assert_cmphex(eb.e.regs.dirty, ==, 0);

    /* unaligned target: the copy is blocked even with a matching code */
    ds2431_ws(&eb, 0x0042, data, 6, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x42, 0x00, 0x07 }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    g_assert_cmpmem(eb.e.memory + 0x40, 8, zero, 8);

    /* row not written completely (E = 3) */
    ds2431_ws(&eb, 0x0040, data, 4, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x40, 0x00, 0x03 }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);

    /* a reset inside a data byte sets PF, which blocks the copy */
    ds2431_ws(&eb, 0x0040, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x0F, 0x40, 0x00 }, 3);
    bus_write(&eb.bus, data, 7);
    ow_bus_touch_bit(&eb.bus, 1);
    ow_bus_touch_bit(&eb.bus, 0);
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(rs[2], ==, OW_ES_PF | 6);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x40, 0x00, rs[2] }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x40, 0x00 }, 3);
    bus_read(&eb.bus, mem, 8);
    g_assert_cmpmem(mem, 8, zero, 8);

    /* write-protected page (55h): the scratchpad gets the memory data */
    eb.e.memory[0x81] = 0x55;
    eb.e.memory[0x20] = 0x11;
    ds2431_ws(&eb, 0x0020, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0x11);
    /* EPROM mode (AAh): data AND memory */
    eb.e.memory[0x82] = 0xAA;
    memset(eb.e.memory + 0x40, 0xF0, 8);
    ds2431_ws(&eb, 0x0040, (const uint8_t[]){ 0x3C, 0x3C, 0x3C, 0x3C,
                                              0x3C, 0x3C, 0x3C, 0x3C },
              8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, rs, 3);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0x30);
}

/* copy one row with the matching authorization; true on the AA loop */
static bool ds2431_write_row(EeBus *eb, uint16_t ta, const uint8_t *data)
{
    uint8_t rs[3];

    ds2431_ws(eb, ta, data, 8, NULL);
    bus_match(&eb->bus, eb->rom_e);
    ow_bus_touch_byte(&eb->bus, 0xAA);
    bus_read(&eb->bus, rs, 3);
    bus_match(&eb->bus, eb->rom_e);
    ow_bus_touch_byte(&eb->bus, 0x55);
    bus_write(&eb->bus, rs, 3);
    return bus_read8(&eb->bus) == 0xAA;
}

static void test_ds2431_protection(void)
{
    EeBus eb;
    const uint8_t regs[8] = { 0x55, 0xAA, 0x00, 0x00, 0x00, 0x55, 0x12,
                              0x34 };
    const uint8_t ones[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                              0xFF };
    const uint8_t other[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                               0x08 };
    uint8_t want[8];

    ee_bus_init(&eb, true);
    memset(eb.e.memory + 0x20, 0xFF, 32);   /* EPROM page starts erased */

    /* page 0 write-protected, page 1 EPROM mode, factory byte 55h */
    g_assert_true(ds2431_write_row(&eb, 0x0080, regs));
    g_assert_cmpmem(eb.e.memory + 0x80, 8, regs, 8);

    /*
     * Protection bytes with 55h/AAh protect themselves; 85h = 55h
     * protects only itself, 86h/87h stay writable.
     */
    g_assert_true(ds2431_write_row(&eb, 0x0080, other));
    memcpy(want, other, 8);
    want[0] = 0x55;
    want[1] = 0xAA;
    want[5] = 0x55;
    g_assert_cmpmem(eb.e.memory + 0x80, 8, want, 8);
    /* factory byte AAh protects 86h/87h too */
    eb.e.memory[0x85] = 0xAA;
    g_assert_true(ds2431_write_row(&eb, 0x0080, ones));
    g_assert_cmphex(eb.e.memory[0x80], ==, 0x55);
    g_assert_cmphex(eb.e.memory[0x84], ==, 0xFF);
    g_assert_cmphex(eb.e.memory[0x85], ==, 0xAA);
    g_assert_cmphex(eb.e.memory[0x86], ==, 0x07);
    g_assert_cmphex(eb.e.memory[0x87], ==, 0x08);

    /* page 0: the copy runs but refreshes the old data */
    g_assert_true(ds2431_write_row(&eb, 0x0000, other));
    g_assert_cmphex(eb.e.memory[0x00], ==, 0x00);
    /* page 1: bits only go from 1 to 0 */
    g_assert_true(ds2431_write_row(&eb, 0x0020, other));
    g_assert_true(ds2431_write_row(&eb, 0x0020, (const uint8_t[]){
        0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00 }));
    g_assert_cmphex(eb.e.memory[0x20], ==, 0x00);
    g_assert_cmphex(eb.e.memory[0x21], ==, 0x02);
    g_assert_cmphex(eb.e.memory[0x27], ==, 0x00);

    /*
     * Copy protection: the register row and write-protected pages refuse
     * the copy, the other pages still accept it.
     */
    eb.e.memory[0x84] = 0x55;
    g_assert_false(ds2431_write_row(&eb, 0x0080, ones));
    g_assert_false(ds2431_write_row(&eb, 0x0000, ones));
    g_assert_true(ds2431_write_row(&eb, 0x0040, other));
    g_assert_cmpmem(eb.e.memory + 0x40, 8, other, 8);
    g_assert_true(ds2431_write_row(&eb, 0x0028, other));
}

static void test_ds2431_tprog(void)
{
    EeBus eb;
    const uint8_t data[8] = { 1, 1, 2, 3, 5, 8, 13, 21 };
    int i;

    ee_bus_init(&eb, false);
    ds2431_ws(&eb, 0x0078, data, 8, NULL);
    bus_match(&eb.bus, eb.rom_e);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x78, 0x00, 0x07 }, 4);
    /* programming: the bus stays high */
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
    eb.now += OW_DS2431_TPROG_NS;
    for (i = 0; i < 3; i++) {
        g_assert_cmphex(bus_read8(&eb.bus), ==, 0xAA);
    }
    g_assert_cmpmem(eb.e.memory + 0x78, 8, data, 8);
    /* the AA loop ends with the reset */
    bus_match(&eb.bus, eb.rom_e);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xFF);
}

static void test_ds2433_page(void)
{
    EeBus eb;
    uint8_t data[32], buf[40], mem[OW_DS2433_MEM_SIZE + 1];
    uint8_t want[OW_DS2433_MEM_SIZE];
    int i;

    ee_bus_init(&eb, true);
    for (i = 0; i < 32; i++) {
        data[i] = (uint8_t)(0xC0 + i);
    }
    memset(want, 0, sizeof(want));

    /* w1_ds2433: 16 bytes at 0x1F0, E/S = (addr + len - 1) & 0x1F */
    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x0F, 0xF0, 0x01 }, 3);
    bus_write(&eb.bus, data, 16);
    /* the end of the scratchpad was reached: ~CRC16 follows */
    bus_read(&eb.bus, buf + 19, 2);
    buf[0] = 0x0F;
    buf[1] = 0xF0;
    buf[2] = 0x01;
    memcpy(buf + 3, data, 16);
    g_assert_cmphex(ow_crc16(0, buf, 21), ==, OW_CRC16_RESIDUE);

    bus_match(&eb.bus, eb.rom_f);
    ow_bus_touch_byte(&eb.bus, 0xAA);
    bus_read(&eb.bus, buf, 19 + 1);
    g_assert_cmphex(buf[0], ==, 0xF0);
    g_assert_cmphex(buf[1], ==, 0x01);
    g_assert_cmphex(buf[2], ==, 0x1F);
    g_assert_cmpmem(buf + 3, 16, data, 16);
    g_assert_cmphex(buf[19], ==, 0xFF);     /* no CRC on the DS2433 */

    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0xF0, 0x01, 0x1F }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xAA);
    memcpy(want + 0x1F0, data, 16);
    g_assert_cmphex(ow_eeprom_take_dirty(&eb.f.regs), ==, 1u << 15);

    /* a partial page in the middle: only T..E is copied */
    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x0F, 0x05, 0x01 }, 3);
    bus_write(&eb.bus, data + 8, 5);
    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x05, 0x01, 0x09 }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xAA);
    memcpy(want + 0x105, data + 8, 5);

    /* a full page at 0 */
    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x0F, 0x00, 0x00 }, 3);
    bus_write(&eb.bus, data, 32);
    bus_read(&eb.bus, buf, 2);
    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0x55, 0x00, 0x00, 0x1F }, 4);
    g_assert_cmphex(bus_read8(&eb.bus), ==, 0xAA);
    memcpy(want, data, 32);

    bus_match(&eb.bus, eb.rom_f);
    bus_write(&eb.bus, (const uint8_t[]){ 0xF0, 0x00, 0x00 }, 3);
    bus_read(&eb.bus, mem, sizeof(mem));
    g_assert_cmpmem(mem, OW_DS2433_MEM_SIZE, want, OW_DS2433_MEM_SIZE);
    g_assert_cmphex(mem[OW_DS2433_MEM_SIZE], ==, 0xFF);

    /* the DS2431 on the same bus was not touched */
    for (i = 0; i < OW_DS2431_MEM_SIZE; i++) {
        g_assert_cmphex(eb.e.memory[i], ==, 0);
    }
}

/* ---- DS2408 ---- */

typedef struct PioBus {
    OWBus bus;
    OWDS2408 p;
    uint8_t rom[8];
} PioBus;

static void pio_bus_init(PioBus *pb)
{
    ow_bus_init(&pb->bus, NULL, NULL);
    make_rom(OW_FAMILY_DS2408, 0x000000445566ULL, pb->rom);
    ow_ds2408_init(&pb->p, pb->rom);
    ow_bus_attach(&pb->bus, &pb->p.parent);
}

/* the w1_ds2408 _read_reg(): F0 addr 00, one byte */
static uint8_t pio_reg(PioBus *pb, uint8_t addr)
{
    bus_match(&pb->bus, pb->rom);
    bus_write(&pb->bus, (const uint8_t[]){ 0xF0, addr, 0x00 }, 3);
    return bus_read8(&pb->bus);
}

static void test_ds2408_registers(void)
{
    PioBus pb;
    uint8_t buf[13];

    pio_bus_init(&pb);
    ow_ds2408_set_pio_input(&pb.p, 0xF0);

    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xF0, 0x88, 0x00 }, 3);
    bus_read(&pb.bus, buf + 3, 10);
    g_assert_cmphex(buf[3], ==, 0xF0);      /* pins = latch & input */
    g_assert_cmphex(buf[4], ==, 0xFF);      /* latch */
    g_assert_cmphex(buf[5], ==, 0x0F);      /* activity: P0-3 fell */
    g_assert_cmphex(buf[6], ==, 0x00);
    g_assert_cmphex(buf[7], ==, 0x00);
    g_assert_cmphex(buf[8], ==, OW_DS2408_PORL);
    g_assert_cmphex(buf[9], ==, 0xFF);
    g_assert_cmphex(buf[10], ==, 0xFF);
    buf[0] = 0xF0;
    buf[1] = 0x88;
    buf[2] = 0x00;
    g_assert_cmphex(ow_crc16(0, buf, 13), ==, OW_CRC16_RESIDUE);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xFF);

    /* from 0x8D: one register, CRC */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xF0, 0x8D, 0x00 }, 3);
    bus_read(&pb.bus, buf + 3, 5);
    buf[1] = 0x8D;
    g_assert_cmphex(ow_crc16(0, buf, 8), ==, OW_CRC16_RESIDUE);
    /* invalid address: ones */
    g_assert_cmphex(pio_reg(&pb, 0x87), ==, 0xFF);
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xF0, 0x88, 0x01 }, 3);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xFF);

    /* the w1_ds2408 status_control write: CC 8D 00 v, read back */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8D, 0x00, 0x04 }, 4);
    g_assert_cmphex(pio_reg(&pb, 0x8D), ==, 0x04);  /* PORL cleared */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8D, 0x00, 0xFF }, 4);
    g_assert_cmphex(pio_reg(&pb, 0x8D), ==, 0x07);  /* PORL stays 0 */
    pb.p.vcc = true;
    g_assert_cmphex(pio_reg(&pb, 0x8D), ==, 0x87);

    /* 8B..8D in one go, then the write stops */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8B, 0x00, 0xFF, 0xFF,
                                          0x01, 0x55 }, 7);
    g_assert_cmphex(pio_reg(&pb, 0x8B), ==, 0xFF);
    g_assert_cmphex(pio_reg(&pb, 0x8C), ==, 0xFF);
    g_assert_cmphex(pio_reg(&pb, 0x8D), ==, 0x81);
    /* an address outside 8B..8D writes nothing */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8A, 0x00, 0x00, 0x00 }, 5);
    g_assert_cmphex(pio_reg(&pb, 0x8B), ==, 0xFF);
}

static void test_ds2408_channel(void)
{
    PioBus pb;
    uint8_t buf[35];
    int pass, i;

    pio_bus_init(&pb);
    ow_ds2408_set_pio_input(&pb.p, 0xF0);

    /* CHANNEL-ACCESS WRITE with complement, AA, new pin state */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0x5A, 0x55, 0xAA }, 3);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xAA);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0x50);
    /* repeatable without a reset */
    bus_write(&pb.bus, (const uint8_t[]){ 0xFF, 0x00 }, 2);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xAA);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xF0);
    g_assert_cmphex(pb.p.latch, ==, 0xFF);
    /* bad complement: nothing changes, ones until reset */
    bus_write(&pb.bus, (const uint8_t[]){ 0x00, 0x00 }, 2);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xFF);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xFF);
    g_assert_cmphex(pb.p.latch, ==, 0xFF);
    g_assert_cmphex(pio_reg(&pb, 0x89), ==, 0xFF);

    /* the kernel's output write: 5A v ~v, expect AA */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0x5A, 0x0F, 0xF0 }, 3);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xAA);
    g_assert_cmphex(pio_reg(&pb, 0x89), ==, 0x0F);
    g_assert_cmphex(pio_reg(&pb, 0x88), ==, 0x00);

    /* CHANNEL-ACCESS READ: 32 samples + ~CRC16, CRC includes F5 once */
    ow_ds2408_set_pio_input(&pb.p, 0xFF);
    bus_match(&pb.bus, pb.rom);
    ow_bus_touch_byte(&pb.bus, 0xF5);
    for (pass = 0; pass < 2; pass++) {
        buf[0] = 0xF5;
        bus_read(&pb.bus, buf + 1, 34);
        for (i = 0; i < 32; i++) {
            g_assert_cmphex(buf[1 + i], ==, 0x0F);
        }
        if (pass == 0) {
            g_assert_cmphex(ow_crc16(0, buf, 35), ==, OW_CRC16_RESIDUE);
        } else {
            g_assert_cmphex(ow_crc16(0, buf + 1, 34), ==, OW_CRC16_RESIDUE);
        }
    }
    /* samples follow pio_input at run time */
    pb.p.pio_input = 0x03;
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0x03);

    /* activity latches and RESET ACTIVITY LATCHES (AA loop) */
    g_assert_cmphex(pio_reg(&pb, 0x8A), !=, 0x00);
    bus_match(&pb.bus, pb.rom);
    ow_bus_touch_byte(&pb.bus, 0xC3);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xAA);
    g_assert_cmphex(bus_read8(&pb.bus), ==, 0xAA);
    g_assert_cmphex(pio_reg(&pb, 0x8A), ==, 0x00);
    pb.p.pio_input = 0x01;
    g_assert_cmphex(pio_reg(&pb, 0x8A), ==, 0x02);
}

static void test_ds2408_kernel_probe(void)
{
    PioBus pb;
    uint8_t magic[10] = { 0x96 };

    /* w1_f29_disable_test_mode: reset, 96 + ROM + 3C, reset */
    pio_bus_init(&pb);
    memcpy(magic + 1, pb.rom, 8);
    magic[9] = 0x3C;
    g_assert_true(ow_bus_reset(&pb.bus, NULL));
    bus_write(&pb.bus, magic, 10);
    g_assert_false(pb.p.parent.overdrive);
    g_assert_true(ow_bus_reset(&pb.bus, NULL));
    g_assert_cmphex(pio_reg(&pb, 0x89), ==, 0xFF);
}

static void test_ds2408_cond_search(void)
{
    PioBus pb;
    uint8_t got[2][8];

    pio_bus_init(&pb);
    /* PORL is set after power-up: the device answers */
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 1);
    g_assert_cmpmem(got[0], 8, pb.rom, 8);

    /* clear PORL; empty mask: no answer */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8D, 0x00, 0x00 }, 4);
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 0);

    /* P0 low selected (OR) */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8B, 0x00, 0x01, 0x00 }, 5);
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 0);
    pb.p.pio_input = 0xFE;
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 1);

    /* AND over P0 low and P1 low */
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8B, 0x00, 0x03, 0x00,
                                          OW_DS2408_CT }, 6);
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 0);
    pb.p.pio_input = 0xFC;
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 1);

    /* activity latch as the source (PLS) */
    bus_match(&pb.bus, pb.rom);
    ow_bus_touch_byte(&pb.bus, 0xC3);
    bus_match(&pb.bus, pb.rom);
    bus_write(&pb.bus, (const uint8_t[]){ 0xCC, 0x8B, 0x00, 0x80, 0x80,
                                          OW_DS2408_PLS }, 6);
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 0);
    pb.p.pio_input = 0x7C;
    g_assert_cmpint(an187_search(&pb.bus, OW_ROM_COND_SEARCH, got, 2), ==, 1);

    /* power cycle: PORL again, registers back to defaults */
    ow_slave_set_present(&pb.p.parent, false);
    ow_slave_set_present(&pb.p.parent, true);
    g_assert_cmphex(pio_reg(&pb, 0x8D), ==, OW_DS2408_PORL);
    g_assert_cmphex(pio_reg(&pb, 0x8B), ==, 0x00);
}

/* ---- DS2413 ---- */

static void test_ds2413(void)
{
    OWBus bus;
    OWDS2413 a;
    uint8_t rom[8], st;

    ow_bus_init(&bus, NULL, NULL);
    make_rom(OW_FAMILY_DS2413, 0x000000778899ULL, rom);
    ow_ds2413_init(&a, rom);
    ow_bus_attach(&bus, &a.parent);

    /* PIO ACCESS READ: both latches off, pins high */
    bus_match(&bus, rom);
    ow_bus_touch_byte(&bus, 0xF5);
    st = bus_read8(&bus);
    g_assert_cmphex(st, ==, 0xF0 ^ 0xFF);   /* 0x0F */
    g_assert_cmphex(st & 0x0F, ==, (~st >> 4) & 0x0F);
    /* repeated, resampled per byte */
    a.pio_input = 0x1;                     /* PIOB pulled low outside */
    st = bus_read8(&bus);
    g_assert_cmphex(st, ==, 0x4B);         /* 1011: A pin, A/B latch */
    g_assert_cmphex(st & 0x0F, ==, (~st >> 4) & 0x0F);

    /* PIO ACCESS WRITE (the kernel ORs 0xFC): AA, then the status */
    a.pio_input = 0x3;
    bus_match(&bus, rom);
    bus_write(&bus, (const uint8_t[]){ 0x5A, 0xFE, 0x01 }, 3);
    g_assert_cmphex(bus_read8(&bus), ==, 0xAA);
    st = bus_read8(&bus);
    g_assert_cmphex(st, ==, 0x0C | 0x30);  /* A latch on (pin low) */
    g_assert_cmphex(a.latch, ==, 0x2);
    /* repeatable */
    bus_write(&bus, (const uint8_t[]){ 0xFD, 0x02 }, 2);
    g_assert_cmphex(bus_read8(&bus), ==, 0xAA);
    g_assert_cmphex(bus_read8(&bus), ==, 0x03 | 0xC0);
    /* bad complement: ones, latch unchanged */
    bus_write(&bus, (const uint8_t[]){ 0xFC, 0x00 }, 2);
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
    g_assert_cmphex(a.latch, ==, 0x1);

    /* power cycle restores latch_init */
    ow_slave_set_present(&a.parent, false);
    ow_slave_set_present(&a.parent, true);
    g_assert_cmphex(a.latch, ==, 0x3);
}

/* ---- DS2401 ---- */

static void test_ds2401(void)
{
    OWBus bus;
    OWDS2401 id;
    uint8_t rom[8], got[2][8];
    int i;

    ow_bus_init(&bus, NULL, NULL);
    g_assert_true(ow_rom_parse("01-0000075bcd15", rom));
    ow_ds2401_init(&id, rom);
    ow_bus_attach(&bus, &id.parent);

    g_assert_cmpint(an187_search(&bus, OW_ROM_SEARCH, got, 2), ==, 1);
    g_assert_cmpmem(got[0], 8, rom, 8);
    /* after the search it is selected but has nothing to say */
    g_assert_cmphex(bus_read8(&bus), ==, 0xFF);

    /* no function commands: all ones, whatever is sent */
    for (i = 0; i < 256; i += 17) {
        bus_skip(&bus);
        ow_bus_touch_byte(&bus, (uint8_t)i);
        g_assert_cmphex(bus_read8(&bus), ==, 0xFF);
    }
    /* no conditional search, no overdrive, no resume */
    g_assert_cmpint(an187_search(&bus, OW_ROM_COND_SEARCH, got, 2), ==, 0);
    g_assert_true(ow_bus_reset(&bus, NULL));
    ow_bus_touch_byte(&bus, OW_ROM_OD_SKIP);
    g_assert_false(id.parent.overdrive);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    g_test_add_func("/onewire/crc/crc8", test_crc8);
    g_test_add_func("/onewire/crc/crc16", test_crc16);
    g_test_add_func("/onewire/rom/text", test_rom_text);
    g_test_add_func("/onewire/bus/presence", test_presence);
    g_test_add_func("/onewire/bus/attach-full", test_attach_full);
    g_test_add_func("/onewire/bus/active", test_active);
    g_test_add_func("/onewire/rom/read", test_read_rom);
    g_test_add_func("/onewire/rom/collision", test_collision);
    g_test_add_func("/onewire/rom/match", test_match);
    g_test_add_func("/onewire/rom/resume", test_resume);
    g_test_add_func("/onewire/rom/overdrive", test_overdrive);
    g_test_add_func("/onewire/search/empty", test_search_empty);
    g_test_add_func("/onewire/search/1", test_search_1);
    g_test_add_func("/onewire/search/3", test_search_3);
    g_test_add_func("/onewire/search/17", test_search_17);
    g_test_add_func("/onewire/search/128", test_search_128);
    g_test_add_func("/onewire/search/max", test_search_max);
    g_test_add_func("/onewire/search/cost", test_search_cost);
    g_test_add_func("/onewire/search/alarm", test_search_alarm);
    g_test_add_func("/onewire/ds18b20/encoding", test_ds18b20_encoding);
    g_test_add_func("/onewire/ds18b20/resolution", test_ds18b20_resolution);
    g_test_add_func("/onewire/ds18b20/scratchpad", test_ds18b20_scratchpad);
    g_test_add_func("/onewire/ds18b20/power", test_ds18b20_power);
    g_test_add_func("/onewire/ds2431/scratchpad", test_ds2431_scratchpad);
    g_test_add_func("/onewire/ds2431/copy", test_ds2431_copy);
    g_test_add_func("/onewire/ds2431/copy-refused", test_ds2431_copy_refused);
    g_test_add_func("/onewire/ds2431/protection", test_ds2431_protection);
    g_test_add_func("/onewire/ds2431/tprog", test_ds2431_tprog);
    g_test_add_func("/onewire/ds2433/page", test_ds2433_page);
    g_test_add_func("/onewire/ds2408/registers", test_ds2408_registers);
    g_test_add_func("/onewire/ds2408/channel", test_ds2408_channel);
    g_test_add_func("/onewire/ds2408/kernel-probe", test_ds2408_kernel_probe);
    g_test_add_func("/onewire/ds2408/cond-search", test_ds2408_cond_search);
    g_test_add_func("/onewire/ds2413", test_ds2413);
    g_test_add_func("/onewire/ds2401", test_ds2401);
    g_test_add_func("/onewire/guest-errors", test_guest_errors);

    return g_test_run();
}
