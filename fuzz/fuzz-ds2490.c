/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-ds2490: what a guest can send to the usb-ds2490 device, driven
 * through the engine's public API as hw/overlay/hw/usb/dev-ds2490.c drives
 * it: vendor OUT requests (CONTROL, COMM, MODE, and any other bRequest the
 * glue would STALL), the GET_COMM_CMDS IN request, EP1 status polls, EP2
 * bulk OUT data and EP3 bulk IN reads, each followed by the glue's "kick"
 * (ds2490_run(), re-arm the timer, ds2490_ep3_became_ready()); plus virtual
 * time passing (the timer firing), a USB reset, and the QOM-settable bus
 * short and slave presence.  The bus is a models/onewire bus with two
 * DS18B20s, a DS2431, a DS2408, a DS2413 and two DS2401s; the device
 * properties (timing, strict-fifo, search-rts-data, search-eos,
 * detect-byte) come from the first input byte.
 *
 * After every operation: ds2490_state_valid(), FIFO levels within the
 * chip's capacity, return values within what was asked, a status packet
 * that agrees with the state it reports, a timer deadline in the future.
 * Amplification: 1-Wire slots per operation and in total bounded
 * (SLOTS_PER_OP, SLOTS_PER_BYTE; docs/fuzzing.md).
 */
#include <string.h>

#include "ds2490-core.h"
#include "ds2490-onewire.h"
#include "fuzz-input.h"
#include "fuzz-slaves.h"
#include "onewire.h"

/*
 * Bounds from measurement (docs/fuzzing.md), about twice the largest seen
 * in the campaigns.  One glue call runs the engine until a FIFO stops it:
 * 16 search passes of 200 slots fill EP3 (4248 slots and 17 resets were
 * the most one operation caused).  An EP3 read is two input bytes that
 * can let the next 16 passes run, so slots per input byte reach about
 * half of that (1252 seen).
 */
#define SLOTS_PER_OP    8192
#define RESETS_PER_OP   64
#define SLOTS_PER_BYTE  4096

typedef struct World {
    DS2490Core c;
    OWBus bus;
    int64_t now;
    int64_t deadline;           /* the glue's timer, -1 = not armed */
    OWDS18B20 t[2];
    OWDS2431 e;
    OWDS2408 p;
    OWDS2413 a;
    OWDS2401 id[2];
    OWSlave *all[7];
} World;

static World w;

static void world_init(uint8_t cfg)
{
    uint8_t rom[OW_ROM_LEN];
    int i;

    memset(&w, 0, sizeof(w));
    w.deadline = -1;
    ow_bus_init(&w.bus, fuzz_bus_clock, &w.now);
    fuzz_rom(OW_FAMILY_DS18B20, 0x1000, rom);
    ow_ds18b20_init(&w.t[0], rom);
    fuzz_rom(OW_FAMILY_DS18B20, 0x1101, rom);
    ow_ds18b20_init(&w.t[1], rom);
    w.t[1].parasite = true;
    fuzz_rom(OW_FAMILY_DS2431, 0x2202, rom);
    ow_ds2431_init(&w.e, rom);
    fuzz_rom(OW_FAMILY_DS2408, 0x3303, rom);
    ow_ds2408_init(&w.p, rom);
    fuzz_rom(OW_FAMILY_DS2413, 0x4404, rom);
    ow_ds2413_init(&w.a, rom);
    fuzz_rom(OW_FAMILY_DS2401, 0x5505, rom);
    ow_ds2401_init(&w.id[0], rom);
    fuzz_rom(OW_FAMILY_DS2401, 0x5506, rom);
    ow_ds2401_init(&w.id[1], rom);
    w.all[0] = &w.t[0].parent;
    w.all[1] = &w.t[1].parent;
    w.all[2] = &w.e.parent;
    w.all[3] = &w.p.parent;
    w.all[4] = &w.a.parent;
    w.all[5] = &w.id[0].parent;
    w.all[6] = &w.id[1].parent;
    for (i = 0; i < 7; i++) {
        FUZZ_CHECK(ow_bus_attach(&w.bus, w.all[i]) == 0);
    }
    /* as usb_ds2490_realize() */
    w.bus.instant = !(cfg & 1);
    ds2490_init(&w.c, &ds2490_onewire_bus_ops, &w.bus, fuzz_bus_clock, &w.now);
    w.c.timing = cfg & 1 ? DS2490_TIMING_REALTIME : DS2490_TIMING_INSTANT;
    w.c.strict_fifo = cfg & 2;
    w.c.search_rts_data = !(cfg & 4);
    w.c.search_eos = cfg & 8;
    w.c.detect_byte = cfg & 16;
    ds2490_power_on(&w.c);
}

/* usb_ds2490_kick() */
static void kick(void)
{
    int64_t d = ds2490_run(&w.c);

    /* the timer is never armed in the past: that would be a busy loop */
    FUZZ_CHECK(d == -1 || d > w.now);
    w.deadline = d;
    ds2490_ep3_became_ready(&w.c);
}

static void check_invariants(void)
{
    FUZZ_CHECK(ds2490_state_valid(&w.c));
    FUZZ_CHECK(w.c.ep2_count <= DS2490_EP2_SIZE);
    FUZZ_CHECK(w.c.ep3_count <= DS2490_EP3_SIZE);
    FUZZ_CHECK(w.c.results_count <= DS2490_RESULT_SIZE);
    FUZZ_CHECK(w.c.cmdq_len <= DS2490_CMD_FIFO_SLOTS);
    FUZZ_CHECK(w.c.cmdq_bytes <= DS2490_CMD_FIFO_SIZE);
    /* a queued command takes 2..4 bytes */
    FUZZ_CHECK(w.c.cmdq_bytes >= 2 * w.c.cmdq_len);
    FUZZ_CHECK(w.c.cmdq_bytes <= 4 * w.c.cmdq_len);
    FUZZ_CHECK(ds2490_ep2_space(&w.c) == DS2490_EP2_SIZE - w.c.ep2_count);
    FUZZ_CHECK(w.c.search_found <= 256);
    FUZZ_CHECK(w.bus.speed == w.c.speed);
}

/* EP1: the status packet agrees with the state it reports */
static void poll_status(int max)
{
    uint8_t st[64];
    uint8_t results;
    int n;

    kick();
    n = ds2490_status(&w.c, st, max);
    FUZZ_CHECK(n >= 0 && n <= DS2490_STATUS_MAX && n <= (max > 0 ? max : 0));
    if (max < DS2490_STATUS_SIZE) {
        FUZZ_CHECK(n == (max > 0 ? max : 0));
        return;
    }
    FUZZ_CHECK(n >= DS2490_STATUS_SIZE);
    results = n - DS2490_STATUS_SIZE;
    FUZZ_CHECK(st[1] == w.c.speed);
    FUZZ_CHECK(st[1] <= DS2490_SPEED_OVERDRIVE);
    FUZZ_CHECK(st[2] == w.c.spu_duration);
    FUZZ_CHECK(st[7] == 0 && st[14] == 0 && st[15] == 0);
    FUZZ_CHECK(!!(st[8] & DS2490_ST_HALT) == w.c.halted);
    FUZZ_CHECK(!!(st[8] & DS2490_ST_EP0F) == w.c.ep0f);
    FUZZ_CHECK(!!(st[8] & DS2490_ST_SPUA) == w.c.spua);
    FUZZ_CHECK(!!(st[8] & DS2490_ST_IDLE) == ds2490_is_idle(&w.c));
    FUZZ_CHECK((st[8] & (DS2490_ST_PRGA | DS2490_ST_12VP | 0x40)) == 0);
    FUZZ_CHECK(st[11] == w.c.cmdq_bytes && st[11] <= DS2490_CMD_FIFO_SIZE);
    FUZZ_CHECK(st[12] == w.c.ep2_count && st[12] <= DS2490_EP2_SIZE);
    FUZZ_CHECK(st[13] == w.c.ep3_count && st[13] <= DS2490_EP3_SIZE);
    FUZZ_CHECK(results <= DS2490_RESULT_SIZE);
    /* results are handed out only once: asking for more leaves none */
    if (n < max) {
        FUZZ_CHECK(w.c.results_count == 0);
    }
}

/* real COMM commands with fuzzed flag bits: deep states in few bytes */
static const uint16_t comm_codes[] = {
    0x0601, 0x0012, 0x0020, 0x0030, 0x0042, 0x0052, 0x0064, 0x0074,
    0x0080, 0x6092, 0x00A2, 0x00B2, 0x00C4, 0x00D4, 0x21E4, 0x00F4,
};

static void step(FuzzIn *in)
{
    uint8_t op = fuzz_u8(in);
    uint8_t buf[DS2490_EP3_SIZE * 4];
    uint16_t value, index;
    int ret, len, done;

    /* the low nibble picks, the high one is a parameter */
    switch (op & 15) {
    case 0:
    case 1:
        /* COMM: a known code, the flags of the input */
        value = comm_codes[(op >> 4) & 15] | (fuzz_u16(in) & 0x7f09);
        index = fuzz_u16(in);
        ret = ds2490_vendor_out(&w.c, DS2490_REQ_COMM, value, index);
        FUZZ_CHECK(ret == 0 || ret == -1);
        if (ret == 0) {
            kick();
        }
        break;
    case 2:
        /* any vendor OUT request, as the glue passes bRequest 0..2 */
        value = fuzz_u16(in);
        index = fuzz_u16(in);
        ret = ds2490_vendor_out(&w.c, (op >> 4) % 3, value, index);
        FUZZ_CHECK(ret == 0 || ret == -1);
        if (ret == 0) {
            kick();
        }
        break;
    case 3:
        /* CONTROL and MODE with small values: the commands that exist */
        value = fuzz_u8(in) % 12;
        index = fuzz_u16(in);
        ret = ds2490_vendor_out(&w.c, op & 0x10 ? DS2490_REQ_MODE :
                                DS2490_REQ_CONTROL, value, index);
        FUZZ_CHECK(ret == 0 || ret == -1);
        if (ret == 0) {
            kick();
        }
        break;
    case 4:
        /* vendor IN: GET_COMM_CMDS, wLength from the input */
        len = fuzz_u8(in) % 64;
        ret = ds2490_vendor_in(&w.c, 0x00, fuzz_u8(in) % 12, 0, buf, len);
        FUZZ_CHECK(ret >= -1 && ret <= len);
        if (ret >= 0) {
            kick();
        }
        break;
    case 5:
        poll_status((op >> 4) < 12 ? 32 : (int)(op >> 4) * 4 - 44);
        break;
    case 6:
        /* EP2 bulk OUT: a packet of the input's bytes */
        len = fuzz_u8(in);
        for (ret = 0; ret < len; ret++) {
            buf[ret] = fuzz_u8(in);
        }
        ret = ds2490_ep2_write(&w.c, buf, len);
        FUZZ_CHECK(ret == -1 || (ret >= 0 && ret <= len));
        if (ret >= 0) {
            kick();
        }
        break;
    case 7:
        /* EP3 bulk IN: the glue's loop over one transfer */
        len = 1 + fuzz_u8(in) * 2;
        done = 0;
        kick();
        while (done < len) {
            int want = len - done < DS2490_EP3_SIZE ? len - done :
                       DS2490_EP3_SIZE;

            ret = ds2490_ep3_read(&w.c, buf, want);
            FUZZ_CHECK(ret == -1 || (ret > 0 && ret <= want));
            if (ret <= 0) {
                FUZZ_CHECK(w.c.ep3_count == 0);
                break;
            }
            done += ret;
            kick();
        }
        break;
    case 8:
        /* virtual time passes; the timer fires if it was due */
        w.now += (int64_t)fuzz_u16(in) * 10000 * ((op >> 4) + 1);
        if (w.deadline >= 0 && w.deadline <= w.now) {
            kick();
        }
        break;
    case 9:
        /* the glue's timer fires: time jumps to its deadline */
        if (w.deadline >= 0) {
            w.now = w.deadline;
        }
        kick();
        break;
    case 10:
        /* QOM: a slave comes or goes, the bus shorts, a sensor changes */
        ow_slave_set_present(w.all[(op >> 4) % 7], !(op & 0x80));
        if ((op >> 4) == 7) {
            w.bus.shorted = !w.bus.shorted;
        }
        w.t[0].temperature_mc = (int16_t)fuzz_u16(in) * 4;
        ds2490_queue_detect(&w.c);
        kick();
        break;
    case 11:
        /* USB reset: usb_ds2490_handle_reset() */
        w.deadline = -1;
        ds2490_power_on(&w.c);
        break;
    default:
        /* the driver's status poll while it waits for idle */
        poll_status(32);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size, 0 };

    world_init(fuzz_u8(&in));
    check_invariants();
    while (fuzz_more(&in)) {
        uint64_t slots = w.bus.slots, resets = w.bus.resets;

        step(&in);
        check_invariants();
        FUZZ_MEASURE("slots-per-op", w.bus.slots - slots);
        FUZZ_MEASURE("resets-per-op", w.bus.resets - resets);
        FUZZ_CHECK(w.bus.slots - slots <= SLOTS_PER_OP);
        FUZZ_CHECK(w.bus.resets - resets <= RESETS_PER_OP);
    }
    FUZZ_MEASURE("slots-per-input-byte", (double)w.bus.slots / (size + !size));
    FUZZ_CHECK(w.bus.slots <= SLOTS_PER_BYTE * (uint64_t)size + SLOTS_PER_OP);
    return 0;
}
