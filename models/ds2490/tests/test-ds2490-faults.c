/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests for the DS2490 fault plans (ds2490-faults.[ch]): the two
 * text formats, good and bad; determinism; what each fault kind does,
 * seen through the engine's public API as a USB host sees it; that a
 * script entry fires on its Nth event exactly; and that an empty plan
 * changes nothing.  The engine drives a models/onewire bus with DS2401s
 * (the same bus operations as the QEMU device), so ROM ids, CRCs and
 * searches are the real ones.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <glib.h>
#include <string.h>

#include "ds2490-core.h"
#include "ds2490-faults.h"
#include "ds2490-onewire.h"
#include "faultplan-check.h"
#include "onewire.h"

#define RIG_IDS_MAX     4

/* COMM wValues, as the Linux driver sends them */
#define RESET_IM        (DS2490_COMM_1_WIRE_RESET | DS2490_COMM_IM)
#define BYTE_IO_IM      (DS2490_COMM_BYTE_IO | DS2490_COMM_IM)
#define BLOCK_IO_IM     (DS2490_COMM_BLOCK_IO | DS2490_COMM_IM)
#define SEARCH_LINUX    0x49FD  /* SEARCH_ACCESS|IM|RST|SM|F|RTS */

/* ---- the rig: engine, plan, a 1-Wire bus of DS2401s, a clock ---- */

typedef struct Rig {
    DS2490Core c;
    DS2490Faults f;
    OWBus bus;
    OWDS2401 id[RIG_IDS_MAX];
    int nids;
    int64_t now;
    GString *notes;             /* every fault the plan reported */
} Rig;

static int64_t rig_clock(void *opaque)
{
    return ((Rig *)opaque)->now;
}

static void rig_note(void *opaque, DS2490FaultKind kind,
                     DS2490FaultEvent event, uint32_t n)
{
    Rig *r = opaque;

    g_string_append_printf(r->notes, "%s@%s#%u;", ds2490_fault_name(kind),
                           ds2490_fault_event_name(event), n);
}

static bool rom_u64_crc_valid(uint64_t rom)
{
    uint8_t b[OW_ROM_LEN];

    ow_rom_from_u64(rom, b);
    return ow_rom_crc_valid(b);
}

/*
 * @nids DS2401s; @with_plan attaches the (empty) plan to the engine, as
 * the QEMU glue always does; without it DS2490Core.faults stays NULL.
 */
static Rig *rig_new(int nids, bool with_plan)
{
    Rig *r = g_new0(Rig, 1);
    uint8_t rom[OW_ROM_LEN];
    int i, j;

    g_assert_cmpint(nids, <=, RIG_IDS_MAX);
    ow_bus_init(&r->bus, rig_clock, r);
    r->bus.instant = true;
    for (i = 0; i < nids; i++) {
        uint64_t serial = 0xabc000 + i * 0x3777;

        rom[0] = OW_FAMILY_DS2401;
        for (j = 0; j < 6; j++) {
            rom[1 + j] = serial >> (8 * j);
        }
        ow_rom_set_crc(rom);
        ow_ds2401_init(&r->id[i], rom);
        g_assert_cmpint(ow_bus_attach(&r->bus, &r->id[i].parent), ==, 0);
    }
    r->nids = nids;
    ds2490_init(&r->c, &ds2490_onewire_bus_ops, &r->bus, rig_clock, r);
    ds2490_faults_init(&r->f);
    r->f.notify = rig_note;
    r->f.notify_opaque = r;
    if (with_plan) {
        r->c.faults = &r->f;
    }
    r->notes = g_string_new("");
    return r;
}

static void rig_free(Rig *r)
{
    g_string_free(r->notes, TRUE);
    g_free(r);
}

static uint64_t rig_rom(Rig *r, int i)
{
    return ow_rom_to_u64(r->id[i].parent.rom);
}

/* set both parts of the plan; they must parse */
static void rig_plan(Rig *r, const char *random, const char *script)
{
    char err[DS2490_FAULTS_ERROR_MAX] = "";

    if (ds2490_faults_set_random(&r->f, random, err, sizeof(err)) < 0 ||
        ds2490_faults_set_script(&r->f, script, err, sizeof(err)) < 0) {
        g_error("plan \"%s\" / \"%s\": %s", random, script, err);
    }
    g_string_truncate(r->notes, 0);
}

static int comm(Rig *r, uint16_t value, uint16_t index)
{
    return ds2490_vendor_out(&r->c, DS2490_REQ_COMM, value, index);
}

static int control(Rig *r, uint16_t value)
{
    return ds2490_vendor_out(&r->c, DS2490_REQ_CONTROL, value, 0);
}

static int mode(Rig *r, uint16_t reg, uint16_t value)
{
    return ds2490_vendor_out(&r->c, DS2490_REQ_MODE, reg, value);
}

/* an EP1 poll with room for every result byte */
static int status(Rig *r, uint8_t st[DS2490_STATUS_MAX])
{
    memset(st, 0xee, DS2490_STATUS_MAX);
    return ds2490_status(&r->c, st, DS2490_STATUS_MAX);
}

static int ep3(Rig *r, uint8_t *buf, int max)
{
    return ds2490_ep3_read(&r->c, buf, max);
}

/* BYTE_IO and the byte read back, as ds_read_byte() / ds_write_byte() */
static uint8_t byte_io(Rig *r, uint8_t b)
{
    uint8_t rb = 0;

    g_assert_cmpint(comm(r, BYTE_IO_IM, b), ==, 0);
    g_assert_cmpint(ep3(r, &rb, 1), ==, 1);
    return rb;
}

/* queue @len bytes of 0xFF and a BLOCK_IO for them */
static void block_read_start(Rig *r, int len)
{
    uint8_t ff[DS2490_EP2_SIZE];

    memset(ff, 0xff, sizeof(ff));
    g_assert_cmpint(ds2490_ep2_write(&r->c, ff, len), ==, len);
    g_assert_cmpint(comm(r, BLOCK_IO_IM, len), ==, 0);
}

/* reset and READ ROM (one slave on the bus), up to the 8 id bytes */
static void read_rom_start(Rig *r)
{
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    g_assert_cmphex(byte_io(r, OW_ROM_READ), ==, OW_ROM_READ);
    block_read_start(r, OW_ROM_LEN);
}

/* the result bytes of one status poll, as a string of hex pairs */
static char *results(Rig *r)
{
    uint8_t st[DS2490_STATUS_MAX];
    GString *s = g_string_new("");
    int n = status(r, st);
    int i;

    g_assert_cmpint(n, >=, DS2490_STATUS_SIZE);
    for (i = DS2490_STATUS_SIZE; i < n; i++) {
        g_string_append_printf(s, "%02x", st[i]);
    }
    return g_string_free(s, FALSE);
}

/* Linux's search (ds9490r_search()) from path 0: the ids in EP3 */
static int search(Rig *r, int limit, uint64_t *ids, int max)
{
    uint8_t zero[8] = { 0 };
    uint8_t buf[DS2490_EP3_SIZE];
    int n, i;

    g_assert_cmpint(ds2490_ep2_write(&r->c, zero, 8), ==, 8);
    g_assert_cmpint(comm(r, SEARCH_LINUX, 0xF0 | (limit << 8)), ==, 0);
    n = ep3(r, buf, sizeof(buf));
    g_assert_cmpint(n, >, 0);
    g_assert_cmpint(n % 8, ==, 0);
    for (i = 0; i < n / 8 && i < max; i++) {
        memcpy(&ids[i], &buf[8 * i], 8);
    }
    return n / 8;
}

/* ---- the formats ---- */

typedef struct GoodCase {
    bool script;
    const char *text;
    const char *canonical;      /* what the formatter gives back */
} GoodCase;

static const GoodCase good_cases[] = {
    { false, "", "" },
    { false, "seed=42,ep3-short=20,result-crc=5",
      "seed=42,ep3-short=20,result-crc=5" },
    { false, "result-crc=5,seed=7", "seed=7,result-crc=5" },
    { false, "stall=1000", "seed=0,stall=1000" },
    { false, "seed=0", "" },
    { false, "seed=9", "seed=9" },
    { false, "ep3-short=0,bit-flip=0", "" },
    { false, "seed=18446744073709551615,never-idle=1",
      "seed=18446744073709551615,never-idle=1" },
    { false, "bit-flip=1,search-other=2,no-presence=3,never-idle=4,"
             "result-crc=5,result-cmp=6,result-app=7,result-sh=8,"
             "result-nrs=9,stall=10,ep3-short=11,ep3-nak=12,ep2-nak=13,"
             "ep1-short=14",
      "seed=0,ep1-short=14,ep2-nak=13,ep3-nak=12,ep3-short=11,stall=10,"
      "result-nrs=9,result-sh=8,result-app=7,result-cmp=6,result-crc=5,"
      "never-idle=4,no-presence=3,search-other=2,bit-flip=1" },
    { true, "", "" },
    { true, "ep3:5:ep3-short;comm:12:never-idle",
      "ep3:5:ep3-short;comm:12:never-idle" },
    { true, "vendor:1:stall", "vendor:1:stall" },
    { true, "comm:2:ep3-short;comm:2:ep3-short",
      "comm:2:ep3-short;comm:2:ep3-short" },
    { true, "byte:4294967295:bit-flip", "byte:4294967295:bit-flip" },
    { true, "ep1:1:ep1-short;ep2:1:ep2-nak;ep3:1:ep3-nak;vendor:1:stall;"
            "comm:1:result-nrs;reset:1:no-presence;search:1:search-other;"
            "byte:1:bit-flip;ep1:2:ep1-short;ep1:3:ep1-short;"
            "ep1:4:ep1-short;ep1:5:ep1-short;ep1:6:ep1-short;"
            "ep1:7:ep1-short;ep1:8:ep1-short;ep1:9:ep1-short",
      "ep1:1:ep1-short;ep2:1:ep2-nak;ep3:1:ep3-nak;vendor:1:stall;"
      "comm:1:result-nrs;reset:1:no-presence;search:1:search-other;"
      "byte:1:bit-flip;ep1:2:ep1-short;ep1:3:ep1-short;"
      "ep1:4:ep1-short;ep1:5:ep1-short;ep1:6:ep1-short;"
      "ep1:7:ep1-short;ep1:8:ep1-short;ep1:9:ep1-short" },
};

static void test_parse_good(void)
{
    char out[DS2490_FAULTS_TEXT_MAX];
    char err[DS2490_FAULTS_ERROR_MAX];
    DS2490Faults f, again;
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(good_cases); i++) {
        const GoodCase *gc = &good_cases[i];

        ds2490_faults_init(&f);
        ds2490_faults_init(&again);
        err[0] = '\0';
        if (gc->script) {
            g_assert_cmpint(ds2490_faults_set_script(&f, gc->text, err,
                                                     sizeof(err)), ==, 0);
            ds2490_faults_format_script(&f, out, sizeof(out));
        } else {
            g_assert_cmpint(ds2490_faults_set_random(&f, gc->text, err,
                                                     sizeof(err)), ==, 0);
            ds2490_faults_format_random(&f, out, sizeof(out));
        }
        g_assert_cmpstr(err, ==, "");
        g_assert_cmpstr(out, ==, gc->canonical);
        g_assert_true(ds2490_faults_valid(&f));
        /* the canonical form means the same plan */
        if (gc->script) {
            g_assert_cmpint(ds2490_faults_set_script(&again, out, NULL, 0),
                            ==, 0);
        } else {
            g_assert_cmpint(ds2490_faults_set_random(&again, out, NULL, 0),
                            ==, 0);
        }
        g_assert_cmpmem(&f, sizeof(f), &again, sizeof(again));
    }
    /* NULL is the empty string */
    g_assert_cmpint(ds2490_faults_set_random(&f, NULL, NULL, 0), ==, 0);
    g_assert_cmpint(ds2490_faults_set_script(&f, NULL, NULL, 0), ==, 0);
    g_assert_false(ds2490_faults_in_use(&f));
    /* a full plan fits the documented buffer */
    g_assert_cmpint(ds2490_faults_set_script(&f,
                    good_cases[G_N_ELEMENTS(good_cases) - 1].text,
                    NULL, 0), ==, 0);
    ds2490_faults_format_script(&f, out, sizeof(out));
    g_assert_cmpint(strlen(out), <, sizeof(out) - 1);
    /* a small buffer truncates, terminated */
    ds2490_faults_format_script(&f, out, 8);
    g_assert_cmpstr(out, ==, "ep1:1:e");
}

typedef struct BadCase {
    bool script;
    const char *text;
    const char *says;           /* in the message */
} BadCase;

static const BadCase bad_cases[] = {
    { false, "ep4-short=3", "\"ep4-short=3\": unknown fault kind "
                            "\"ep4-short\" (kinds: ep1-short, ep2-nak" },
    { false, "ep3-short=1001", "\"ep3-short=1001\": the probability is a "
                               "decimal number of per mille, 0 to 1000" },
    { false, "ep3-short=-1", "\"ep3-short=-1\": the probability" },
    { false, "ep3-short=20x", "\"ep3-short=20x\": the probability" },
    { false, "ep3-short=", "\"ep3-short=\": the probability" },
    { false, "ep3-short= 2", "\"ep3-short= 2\": the probability" },
    { false, "ep3-short", "\"ep3-short\": expected seed=NUMBER or "
                          "KIND=PER-MILLE" },
    { false, "seed=abc", "\"seed=abc\": the seed is a decimal number" },
    { false, "seed=", "\"seed=\": the seed" },
    { false, "seed=0x10", "\"seed=0x10\": the seed" },
    { false, "seed=18446744073709551616", "\"seed=18446744073709551616\": "
                                          "the seed" },
    { false, "seed=1,seed=2", "\"seed=2\": seed given twice" },
    { false, "stall=1,stall=2", "\"stall=2\": stall given twice" },
    { false, "seed=1,,stall=2", "empty item in \"seed=1,,stall=2\"" },
    { false, ",stall=2", "empty item" },
    { false, "stall=2,", "empty item at the end of \"stall=2,\"" },
    { false, "seed=1, stall=2", "\" stall=2\": unknown fault kind" },
    { false, "ep3:5:ep3-short", "\"ep3:5:ep3-short\": expected seed=" },
    { true, "ep3:0:ep3-short", "\"ep3:0:ep3-short\": N counts events "
                               "from 1 to 4294967295" },
    { true, "ep3:4294967296:stall", "\"ep3:4294967296:stall\": N counts" },
    { true, "ep3:-1:stall", "\"ep3:-1:stall\": N counts" },
    { true, "ep3::stall", "\"ep3::stall\": N counts" },
    { true, "ep3:5", "\"ep3:5\": expected EVENT:N:KIND" },
    { true, "ep3", "\"ep3\": expected EVENT:N:KIND" },
    { true, "ep3:5:ep3-short:1", "\"ep3:5:ep3-short:1\": expected" },
    { true, "ep9:1:stall", "\"ep9:1:stall\": unknown event \"ep9\" "
                           "(events: ep1, ep2, ep3, vendor, comm, reset, "
                           "search, byte, std)" },
    { true, "ep3:1:foo", "\"ep3:1:foo\": unknown fault kind \"foo\"" },
    { true, "ep3:1:", "\"ep3:1:\": unknown fault kind \"\"" },
    { true, "ep3:1:stall;;ep3:2:stall", "empty entry in" },
    { true, "ep3:1:stall;", "empty entry at the end of" },
    { true, "seed=1", "\"seed=1\": expected EVENT:N:KIND" },
    { true, "ep1:1:stall;ep1:2:stall;ep1:3:stall;ep1:4:stall;ep1:5:stall;"
            "ep1:6:stall;ep1:7:stall;ep1:8:stall;ep1:9:stall;ep1:10:stall;"
            "ep1:11:stall;ep1:12:stall;ep1:13:stall;ep1:14:stall;"
            "ep1:15:stall;ep1:16:stall;ep1:17:stall",
      "\"ep1:17:stall\": more than 16 script entries" },
};

static void test_parse_bad(void)
{
    static const char *const random_before = "seed=5,stall=7";
    static const char *const script_before = "ep2:3:ep2-nak";
    char out[DS2490_FAULTS_TEXT_MAX];
    char err[DS2490_FAULTS_ERROR_MAX];
    DS2490Faults f, before;
    unsigned i;

    ds2490_faults_init(&f);
    g_assert_cmpint(ds2490_faults_set_random(&f, random_before, NULL, 0),
                    ==, 0);
    g_assert_cmpint(ds2490_faults_set_script(&f, script_before, NULL, 0),
                    ==, 0);
    /* some run state, which a refused plan must not restart either */
    ds2490_faults_ep2_nak(&f);
    g_assert_cmpuint(f.events[DS2490_EVENT_EP2], ==, 1);
    memcpy(&before, &f, sizeof(f));
    for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
        const BadCase *bc = &bad_cases[i];
        int ret;

        memset(err, 0, sizeof(err));
        if (bc->script) {
            ret = ds2490_faults_set_script(&f, bc->text, err, sizeof(err));
        } else {
            ret = ds2490_faults_set_random(&f, bc->text, err, sizeof(err));
        }
        if (ret != -1 || !strstr(err, bc->says)) {
            g_error("\"%s\": returned %d, said \"%s\", expected \"%s\"",
                    bc->text, ret, err, bc->says);
        }
        /* the previous plan stays, and so does its run state */
        g_assert_cmpmem(&f, sizeof(f), &before, sizeof(before));
        /* without a buffer it fails the same, silently */
        if (bc->script) {
            ret = ds2490_faults_set_script(&f, bc->text, NULL, 0);
        } else {
            ret = ds2490_faults_set_random(&f, bc->text, NULL, 0);
        }
        g_assert_cmpint(ret, ==, -1);
    }
    ds2490_faults_format_random(&f, out, sizeof(out));
    g_assert_cmpstr(out, ==, random_before);
    ds2490_faults_format_script(&f, out, sizeof(out));
    g_assert_cmpstr(out, ==, script_before);
    /* a message is cut to the buffer, terminated */
    g_assert_cmpint(ds2490_faults_set_random(&f, "nope=1", err, 10), ==, -1);
    g_assert_cmpstr(err, ==, "\"nope=1\":");
}

/*
 * The table is well formed (models/faultplan's checks), it is the one
 * for the enums, and this device's parser knows each kind under its name,
 * at its own event.
 */
static void test_table(void)
{
    const FaultPlanTable *t = ds2490_fault_plan_table();
    char err[DS2490_FAULTS_ERROR_MAX];
    char text[64];
    DS2490Faults f;
    int k;

    g_assert_cmpuint(t->nkinds, ==, DS2490_FAULT_KINDS);
    g_assert_cmpuint(t->nevents, ==, DS2490_FAULT_EVENTS);
    g_assert_cmpuint(t->script_max, ==, DS2490_FAULT_SCRIPT_MAX);
    faultplan_check_table(t);
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        ds2490_faults_init(&f);
        g_snprintf(text, sizeof(text), "%s=1", ds2490_fault_name(k));
        g_assert_cmpint(ds2490_faults_set_random(&f, text, err, sizeof(err)),
                        ==, 0);
        g_assert_cmpint(f.permille[k], ==, 1);
        g_snprintf(text, sizeof(text), "%s:1:%s",
                   ds2490_fault_event_name(ds2490_fault_event(k)),
                   ds2490_fault_name(k));
        g_assert_cmpint(ds2490_faults_set_script(&f, text, err, sizeof(err)),
                        ==, 0);
        g_assert_cmpint(f.script_kind[0], ==, k);
        g_assert_cmpint(f.script_event[0], ==, ds2490_fault_event(k));
    }
}

/* the table of kinds in docs/devices/ds2490.md ("Fault plans") is the code's */
static void test_docs(void)
{
    faultplan_check_docs(ds2490_fault_plan_table(), "DS2490_DOC");
}

/* ---- a long sequence of host requests, recorded ---- */

/*
 * The same requests for any plan (they come from their own generator),
 * everything the host gets back appended to @log.
 */
static void host_session(Rig *r, uint32_t seed, int steps, GString *log)
{
    GRand *rand = g_rand_new_with_seed(seed);
    uint8_t buf[DS2490_EP3_SIZE];
    int step, i, n;

    for (step = 0; step < steps; step++) {
        int op = g_rand_int_range(rand, 0, 12);
        int len;

        g_string_append_printf(log, "%d:", op);
        switch (op) {
        case 0:
            n = comm(r, RESET_IM, 0);
            break;
        case 1:
            n = comm(r, BYTE_IO_IM, g_rand_int_range(rand, 0, 256));
            break;
        case 2:
            len = g_rand_int_range(rand, 1, 17);
            memset(buf, g_rand_boolean(rand) ? 0xff : 0x33, len);
            n = ds2490_ep2_write(&r->c, buf, len);
            g_string_append_printf(log, "%d,", n);
            n = comm(r, BLOCK_IO_IM | (g_rand_boolean(rand) ?
                                       DS2490_COMM_RST : 0), len);
            break;
        case 3:
            memset(buf, 0, 8);
            n = ds2490_ep2_write(&r->c, buf, 8);
            g_string_append_printf(log, "%d,", n);
            n = comm(r, SEARCH_LINUX, 0xF0 |
                     (g_rand_int_range(rand, 1, 5) << 8));
            break;
        case 4:
        case 5:
            n = status(r, buf);
            for (i = 0; i < n; i++) {
                g_string_append_printf(log, "%02x", buf[i]);
            }
            break;
        case 6:
        case 7:
            n = ep3(r, buf, g_rand_int_range(rand, 1, 65));
            for (i = 0; i < n; i++) {
                g_string_append_printf(log, "%02x", buf[i]);
            }
            g_string_append_printf(log, "%s",
                                   ds2490_faults_ep3_cut_short(r->c.faults) ?
                                   "cut" : "");
            break;
        case 8:
            n = mode(r, g_rand_int_range(rand, 0, 8),
                     g_rand_int_range(rand, 0, 3));
            break;
        case 9: {
            static const uint16_t ctl[] = {
                DS2490_CTL_RESET_DEVICE, DS2490_CTL_HALT_EXE_IDLE,
                DS2490_CTL_RESUME_EXE, DS2490_CTL_FLUSH_COMM_CMDS,
                DS2490_CTL_START_EXE, DS2490_CTL_FLUSH_RCV_BUFFER,
            };

            n = control(r, ctl[g_rand_int_range(rand, 0, G_N_ELEMENTS(ctl))]);
            break;
        }
        case 10:
            n = ds2490_vendor_in(&r->c, DS2490_REQ_CONTROL,
                                 DS2490_CTL_GET_COMM_CMDS, 0, buf, 16);
            break;
        default:
            /* a slave comes and goes: the bus changes under the engine */
            if (r->nids) {
                i = g_rand_int_range(rand, 0, r->nids);
                ow_slave_set_present(&r->id[i].parent,
                                     !r->id[i].parent.present);
            }
            n = 0;
            break;
        }
        g_string_append_printf(log, "%d;", n);
        g_assert_true(ds2490_state_valid(&r->c));
        g_assert_true(ds2490_faults_valid(&r->f));
    }
    g_rand_free(rand);
}

static const char *const all_kinds_random =
    "ep1-short=100,ep2-nak=100,ep3-nak=100,ep3-short=100,stall=50,"
    "result-nrs=50,result-sh=50,result-app=50,result-cmp=50,"
    "result-crc=50,never-idle=80,no-presence=100,search-other=300,"
    "bit-flip=50,unplug=20";

static char *session_with(const char *random, const char *script,
                          uint32_t requests, bool with_plan,
                          DS2490Faults *after)
{
    Rig *r = rig_new(3, with_plan);
    GString *log = g_string_new("");

    rig_plan(r, random, script);
    host_session(r, requests, 600, log);
    if (after) {
        *after = r->f;
    }
    rig_free(r);
    return g_string_free(log, FALSE);
}

/* no plan, an empty one, a seed alone, a script that never fires: same */
static void test_empty_plan(void)
{
    static const struct {
        const char *random;
        const char *script;
    } plans[] = {
        { "", "" },
        { "seed=99", "" },
        { "ep3-short=0,stall=0", "" },
        { "", "ep3:4000000000:ep3-short;comm:4000000000:never-idle" },
    };
    g_autofree char *none = session_with("", "", 7, false, NULL);
    DS2490Faults after;
    unsigned i;
    int k;

    for (i = 0; i < G_N_ELEMENTS(plans); i++) {
        g_autofree char *log = session_with(plans[i].random, plans[i].script,
                                            7, true, &after);

        g_assert_cmpstr(log, ==, none);
        for (k = 0; k < DS2490_FAULT_KINDS; k++) {
            g_assert_cmpuint(after.injected[k], ==, 0);
            g_assert_false(after.pending[k]);
        }
        /* every plan counts the events (fault-events), the empty one too */
        g_assert_cmpuint(after.events[DS2490_EVENT_EP1], >, 0);
        g_assert_false(after.wedged);
    }
}

static void test_determinism(void)
{
    DS2490Faults a, b, c;
    g_autofree char *random1 = g_strdup_printf("seed=1,%s",
                                               all_kinds_random);
    g_autofree char *random2 = g_strdup_printf("seed=4,%s",
                                               all_kinds_random);
    g_autofree char *log1 = session_with(random1, "", 7, true, &a);
    g_autofree char *again = session_with(random1, "", 7, true, &b);
    g_autofree char *log2 = session_with(random2, "", 7, true, &c);
    g_autofree char *none = session_with("", "", 7, true, NULL);
    char counts[DS2490_FAULTS_TEXT_MAX];
    int k;

    g_assert_cmpstr(log1, ==, again);
    g_assert_cmpmem(a.injected, sizeof(a.injected),
                    b.injected, sizeof(b.injected));
    g_assert_cmpuint(a.prng, ==, b.prng);
    g_assert_cmpstr(log1, !=, log2);
    g_assert_cmpstr(log1, !=, none);
    ds2490_faults_format_counts(&a, counts, sizeof(counts));
    g_test_message("seed 1: %s", counts);
    ds2490_faults_format_counts(&c, counts, sizeof(counts));
    g_test_message("seed 4: %s", counts);
    /* the session meets every kind at its rate, with either seed */
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (k == DS2490_FAULT_STD_STALL) {
            continue;   /* standard requests are the glue's, not a session's */
        }
        if (a.injected[k] == 0 || c.injected[k] == 0) {
            g_error("%s: injected %u (seed 1), %u (seed 4)",
                    ds2490_fault_name(k), a.injected[k], c.injected[k]);
        }
    }
}

/* ---- what each kind does ---- */

static void test_ep3_short(void)
{
    Rig *r = rig_new(1, true);
    uint8_t id[OW_ROM_LEN], b;
    int n, m;

    read_rom_start(r);
    rig_plan(r, "", "ep3:1:ep3-short");
    n = ep3(r, id, sizeof(id));
    g_assert_cmpint(n, >=, 0);
    g_assert_cmpint(n, <, OW_ROM_LEN);
    g_assert_true(ds2490_faults_ep3_cut_short(&r->f));
    g_assert_cmpint(r->c.ep3_count, ==, OW_ROM_LEN - n);
    /* the rest comes with the next read, in order */
    m = ep3(r, id + n, sizeof(id) - n);
    g_assert_cmpint(m, ==, OW_ROM_LEN - n);
    g_assert_false(ds2490_faults_ep3_cut_short(&r->f));
    g_assert_cmphex(ow_rom_to_u64(id), ==, rig_rom(r, 0));
    g_assert_cmpstr(r->notes->str, ==, "ep3-short@ep3#1;");

    /* one byte ready: the short packet is a zero-length one */
    rig_plan(r, "", "ep3:1:ep3-short");
    g_assert_cmpint(comm(r, BYTE_IO_IM, 0x5a), ==, 0);
    g_assert_cmpint(ep3(r, &b, 1), ==, 0);
    g_assert_true(ds2490_faults_ep3_cut_short(&r->f));
    g_assert_cmpint(ep3(r, &b, 1), ==, 1);
    g_assert_cmphex(b, ==, 0x5a);
    /* an empty EP3 NAKs as always, and is no ep3 event */
    g_assert_cmpint(ep3(r, &b, 1), ==, -1);
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP3], ==, 2);
    rig_free(r);
}

static void test_ep3_nak(void)
{
    Rig *r = rig_new(1, true);
    uint8_t id[OW_ROM_LEN];

    read_rom_start(r);
    rig_plan(r, "", "ep3:1:ep3-nak");
    g_assert_cmpint(r->c.ep3_count, ==, OW_ROM_LEN);
    g_assert_cmpint(ep3(r, id, sizeof(id)), ==, -1);
    g_assert_cmpint(r->c.ep3_count, ==, OW_ROM_LEN);
    /* the glue wakes the host: the data is there */
    g_assert_true(ds2490_ep3_became_ready(&r->c));
    g_assert_cmpint(ep3(r, id, sizeof(id)), ==, OW_ROM_LEN);
    g_assert_cmphex(ow_rom_to_u64(id), ==, rig_rom(r, 0));

    /* a NAK and a short due at once: NAK now, short on the next read */
    read_rom_start(r);
    rig_plan(r, "", "ep3:1:ep3-short;ep3:1:ep3-nak");
    g_assert_cmpint(ep3(r, id, sizeof(id)), ==, -1);
    g_assert_cmpint(ep3(r, id, sizeof(id)), <, OW_ROM_LEN);
    g_assert_cmpstr(r->notes->str, ==, "ep3-nak@ep3#1;ep3-short@ep3#2;");
    rig_free(r);
}

static void test_ep1_short(void)
{
    Rig *r = rig_new(0, true);
    uint8_t st[DS2490_STATUS_MAX];
    uint8_t full[DS2490_STATUS_MAX];
    int n;

    /* an empty bus: the reset queues NRS */
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    rig_plan(r, "", "ep1:1:ep1-short");
    n = status(r, st);
    g_assert_cmpint(n, >=, 0);
    g_assert_cmpint(n, <, DS2490_STATUS_SIZE);
    g_assert_cmpint(r->c.results_count, ==, 1);
    /* the next poll delivers the result the cut packet did not */
    g_assert_cmpint(status(r, st), ==, DS2490_STATUS_SIZE + 1);
    g_assert_cmphex(st[DS2490_STATUS_SIZE], ==, DS2490_RR_NRS);
    g_assert_cmpint(status(r, st), ==, DS2490_STATUS_SIZE);

    /* the cut packet is a prefix of the real one */
    rig_plan(r, "seed=3", "ep1:1:ep1-short");
    n = status(r, st);
    g_assert_cmpint(status(r, full), ==, DS2490_STATUS_SIZE);
    g_assert_cmpmem(st, n, full, n);
    rig_free(r);
}

static void test_ep2_nak(void)
{
    Rig *r = rig_new(1, true);
    uint8_t data[4] = { 1, 2, 3, 4 };

    rig_plan(r, "", "ep2:2:ep2-nak");
    g_assert_cmpint(ds2490_ep2_write(&r->c, data, 4), ==, 4);
    g_assert_cmpint(ds2490_ep2_write(&r->c, data, 4), ==, -1);
    g_assert_cmpint(r->c.ep2_count, ==, 4);
    /* the host's retry goes through */
    g_assert_cmpint(ds2490_ep2_write(&r->c, data, 4), ==, 4);
    g_assert_cmpint(r->c.ep2_count, ==, 8);
    /* a zero-length packet is no ep2 event */
    g_assert_cmpint(ds2490_ep2_write(&r->c, data, 0), ==, 0);
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP2], ==, 3);
    rig_free(r);
}

static void test_stall(void)
{
    Rig *r = rig_new(1, true);
    uint8_t st[DS2490_STATUS_MAX];
    uint8_t buf[16];

    rig_plan(r, "", "vendor:2:stall");
    g_assert_cmpint(mode(r, DS2490_MOD_SPEED_CHANGE_EN, 1), ==, 0);
    /* STALLed and not executed */
    g_assert_cmpint(mode(r, DS2490_MOD_PULSE_EN, DS2490_PULSE_SPUE), ==, -1);
    status(r, st);
    g_assert_cmphex(st[0], ==, DS2490_EN_SPCE);
    g_assert_cmpint(mode(r, DS2490_MOD_PULSE_EN, DS2490_PULSE_SPUE), ==, 0);
    status(r, st);
    g_assert_cmphex(st[0], ==, DS2490_EN_SPCE | DS2490_EN_SPUE);

    /* a COMM request that STALLs is not queued */
    rig_plan(r, "", "vendor:1:stall");
    g_assert_cmpint(comm(r, BYTE_IO_IM, 0xff), ==, -1);
    g_assert_cmpint(r->c.ep3_count, ==, 0);
    g_assert_true(ds2490_is_idle(&r->c));

    /* the IN request too */
    rig_plan(r, "", "vendor:1:stall");
    g_assert_cmpint(ds2490_vendor_in(&r->c, DS2490_REQ_CONTROL,
                                     DS2490_CTL_GET_COMM_CMDS, 0, buf,
                                     sizeof(buf)), ==, -1);
    g_assert_cmpint(ds2490_vendor_in(&r->c, DS2490_REQ_CONTROL,
                                     DS2490_CTL_GET_COMM_CMDS, 0, buf,
                                     sizeof(buf)), ==, 0);
    rig_free(r);
}

typedef struct ResultCase {
    const char *kind;
    uint8_t bit;
    bool bus_error;             /* F flushes on it */
} ResultCase;

static const ResultCase result_cases[] = {
    { "result-nrs", DS2490_RR_NRS, true },
    { "result-sh", DS2490_RR_SH, true },
    { "result-app", DS2490_RR_APP, false },
    { "result-cmp", DS2490_RR_CMP, true },
    { "result-crc", DS2490_RR_CRC, true },
};

static void test_result(gconstpointer data)
{
    const ResultCase *rc = data;
    Rig *r = rig_new(1, true);
    g_autofree char *script = g_strdup_printf("comm:1:%s", rc->kind);
    g_autofree char *one = g_strdup_printf("%02x", rc->bit);
    char *res;
    uint8_t b;

    /* without NTF the chip reports errors only: here, the fault */
    rig_plan(r, "", script);
    g_assert_cmphex(byte_io(r, 0xff), ==, 0xff);
    res = results(r);
    g_assert_cmpstr(res, ==, one);
    g_free(res);
    /* the next command is clean again */
    g_assert_cmphex(byte_io(r, 0xff), ==, 0xff);
    res = results(r);
    g_assert_cmpstr(res, ==, "");
    g_free(res);

    /* with NTF: one result byte, the error in it */
    rig_plan(r, "", script);
    g_assert_cmpint(comm(r, BYTE_IO_IM | DS2490_COMM_NTF, 0xff), ==, 0);
    g_assert_cmpint(ep3(r, &b, 1), ==, 1);
    res = results(r);
    g_assert_cmpstr(res, ==, one);
    g_free(res);

    /* with ICP (inside a macro) the chip reports nothing */
    rig_plan(r, "", script);
    g_assert_cmpint(comm(r, BYTE_IO_IM | DS2490_COMM_ICP, 0xff), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "");
    g_free(res);

    /* with F a bus error flushes the macro's data, as the chip does */
    rig_plan(r, "", script);
    g_assert_cmpint(comm(r, BYTE_IO_IM | DS2490_COMM_F, 0xff), ==, 0);
    g_assert_cmpint(r->c.ep3_count, ==, rc->bus_error ? 0 : 1);
    res = results(r);
    g_assert_cmpstr(res, ==, one);
    g_free(res);
    g_assert_cmpuint(r->f.injected[DS2490_FAULT_RESULT_NRS] +
                     r->f.injected[DS2490_FAULT_RESULT_SH] +
                     r->f.injected[DS2490_FAULT_RESULT_APP] +
                     r->f.injected[DS2490_FAULT_RESULT_CMP] +
                     r->f.injected[DS2490_FAULT_RESULT_CRC], ==, 1);
    rig_free(r);
}

/* several result kinds on one command: one result byte with all bits */
static void test_result_combined(void)
{
    Rig *r = rig_new(1, true);
    char *res;

    rig_plan(r, "", "comm:1:result-crc;comm:1:result-cmp");
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "30");
    g_free(res);
    rig_free(r);
}

typedef enum {
    WEDGE_END_RESET_DEVICE,
    WEDGE_END_HALT_IDLE,
    WEDGE_END_HALT_DONE,
    WEDGE_END_FLUSH,
} WedgeEnd;

static void test_never_idle(gconstpointer data)
{
    WedgeEnd how = GPOINTER_TO_INT(data);
    Rig *r = rig_new(1, true);
    uint8_t st[DS2490_STATUS_MAX];
    uint8_t b;
    int i;

    rig_plan(r, "", "comm:1:never-idle");
    g_assert_cmpint(comm(r, BYTE_IO_IM, 0xff), ==, 0);
    g_assert_cmpint(comm(r, BYTE_IO_IM, 0x0f), ==, 0);
    /* more polls than ds_wait_status() makes, and virtual time */
    for (i = 0; i < 150; i++) {
        r->now += 1000000;
        g_assert_cmpint(status(r, st), ==, DS2490_STATUS_SIZE);
        g_assert_false(st[8] & DS2490_ST_IDLE);
        g_assert_cmphex(st[9], ==, BYTE_IO_IM & 0xff);
        g_assert_cmpint(st[11], ==, 3);         /* the second, queued */
        g_assert_cmpint(st[13], ==, 0);         /* nothing read */
        g_assert_cmpint(ds2490_run(&r->c), ==, -1);
    }
    g_assert_cmpint(ep3(r, &b, 1), ==, -1);
    g_assert_cmpuint(r->f.injected[DS2490_FAULT_NEVER_IDLE], ==, 1);

    switch (how) {
    case WEDGE_END_RESET_DEVICE:
        g_assert_cmpint(control(r, DS2490_CTL_RESET_DEVICE), ==, 0);
        status(r, st);
        g_assert_true(st[8] & DS2490_ST_IDLE);
        g_assert_cmpint(st[11], ==, 0);
        g_assert_cmphex(byte_io(r, 0x3c), ==, 0x3c);
        break;
    case WEDGE_END_HALT_IDLE:
    case WEDGE_END_HALT_DONE:
        g_assert_cmpint(control(r, how == WEDGE_END_HALT_IDLE ?
                                DS2490_CTL_HALT_EXE_IDLE :
                                DS2490_CTL_HALT_EXE_DONE), ==, 0);
        status(r, st);
        g_assert_cmphex(st[8] & (DS2490_ST_IDLE | DS2490_ST_HALT), ==,
                        DS2490_ST_IDLE | DS2490_ST_HALT);
        g_assert_cmpint(st[13], ==, 0);
        /* RESUME runs what was queued behind the wedged command */
        g_assert_cmpint(control(r, DS2490_CTL_RESUME_EXE), ==, 0);
        g_assert_cmpint(ep3(r, &b, 1), ==, 1);
        g_assert_cmphex(b, ==, 0x0f);
        break;
    case WEDGE_END_FLUSH:
        g_assert_cmpint(control(r, DS2490_CTL_FLUSH_COMM_CMDS), ==, 0);
        status(r, st);
        g_assert_true(st[8] & DS2490_ST_IDLE);
        g_assert_cmpint(st[11], ==, 0);
        g_assert_cmpint(ep3(r, &b, 1), ==, -1);
        break;
    }
    /* the wedged command never reports a result */
    status(r, st);
    g_assert_true(st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(status(r, st), ==, DS2490_STATUS_SIZE);
    g_assert_false(r->f.wedged);
    rig_free(r);
}

/* a wedge is chip state: clearing the plan does not end it */
static void test_never_idle_outlives_plan(void)
{
    Rig *r = rig_new(1, true);

    rig_plan(r, "", "comm:1:never-idle");
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    rig_plan(r, "", "");
    g_assert_false(ds2490_is_idle(&r->c));
    g_assert_true(ds2490_faults_in_use(&r->f));
    /* a USB reset (power-on) ends it like CTL_RESET_DEVICE */
    ds2490_power_on(&r->c);
    g_assert_true(ds2490_is_idle(&r->c));
    g_assert_false(ds2490_faults_in_use(&r->f));
    rig_free(r);
}

static void test_no_presence(void)
{
    Rig *r = rig_new(2, true);
    uint8_t id[OW_ROM_LEN];
    char *res;

    rig_plan(r, "", "reset:2:no-presence");
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "");
    g_free(res);
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "01");
    g_free(res);
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "");
    g_free(res);

    /* the reset a BLOCK_IO's RST flag sends counts and fails too */
    rig_plan(r, "", "reset:1:no-presence");
    memset(id, 0xff, sizeof(id));
    g_assert_cmpint(ds2490_ep2_write(&r->c, id, 1), ==, 1);
    g_assert_cmpint(comm(r, BLOCK_IO_IM | DS2490_COMM_RST, 1), ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "01");
    g_free(res);
    g_assert_cmpint(ep3(r, id, 1), ==, 1);

    /* a search pass's reset: the search ends with NRS, no id */
    rig_plan(r, "", "reset:1:no-presence");
    memset(id, 0, sizeof(id));
    g_assert_cmpint(ds2490_ep2_write(&r->c, id, 8), ==, 8);
    g_assert_cmpint(comm(r, SEARCH_LINUX, 0xF0 | (64 << 8)), ==, 0);
    g_assert_cmpint(r->c.ep3_count, ==, 0);
    res = results(r);
    g_assert_cmpstr(res, ==, "01");
    g_free(res);
    rig_free(r);
}

static void test_bit_flip(void)
{
    Rig *r = rig_new(1, true);
    uint8_t id[OW_ROM_LEN];
    uint8_t want[OW_ROM_LEN];
    int i;

    memcpy(want, r->id[0].parent.rom, OW_ROM_LEN);
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    /* byte 1 is the echo of READ ROM, byte 2 the family code */
    rig_plan(r, "", "byte:2:bit-flip");
    g_assert_cmphex(byte_io(r, OW_ROM_READ), ==, OW_ROM_READ);
    for (i = 0; i < OW_ROM_LEN; i++) {
        id[i] = byte_io(r, 0xff);
    }
    g_assert_cmpint(__builtin_popcount(id[0] ^ want[0]), ==, 1);
    /* the slave did not see it: the rest is its ROM, the CRC fails */
    g_assert_cmpmem(id + 1, OW_ROM_LEN - 1, want + 1, OW_ROM_LEN - 1);
    g_assert_false(ow_rom_crc_valid(id));
    g_assert_cmpstr(r->notes->str, ==, "bit-flip@byte#2;");

    /* BLOCK_IO and READ_STRAIGHT bytes are bus bytes too */
    rig_plan(r, "", "byte:3:bit-flip");
    read_rom_start(r);
    g_assert_cmpint(ep3(r, id, sizeof(id)), ==, OW_ROM_LEN);
    g_assert_cmpmem(id, 1, want, 1);
    g_assert_cmpint(__builtin_popcount(id[1] ^ want[1]), ==, 1);
    g_assert_cmpmem(id + 2, OW_ROM_LEN - 2, want + 2, OW_ROM_LEN - 2);
    rig_free(r);
}

static void test_search_other(void)
{
    Rig *r = rig_new(3, true);
    uint64_t real[8], got[8], diff;
    int i, j;

    g_assert_cmpint(search(r, 64, real, 8), ==, 3);
    rig_plan(r, "", "search:2:search-other");
    g_assert_cmpint(search(r, 64, got, 8), ==, 3);
    /* the other passes, and the search's path, are untouched */
    g_assert_cmphex(got[0], ==, real[0]);
    g_assert_cmphex(got[2], ==, real[2]);
    /* the phantom: one serial bit off, a valid CRC, nobody on the bus */
    diff = got[1] ^ real[1];
    g_assert_cmphex(diff & 0xff, ==, 0);
    g_assert_cmpint(__builtin_popcountll(diff & 0x00ffffffffffff00ULL), ==,
                    1);
    g_assert_true(rom_u64_crc_valid(got[1]));
    for (j = 0; j < r->nids; j++) {
        g_assert_cmphex(got[1], !=, rig_rom(r, j));
    }
    g_assert_cmpstr(r->notes->str, ==, "search-other@search#2;");

    /* over many searches: always a valid id that is not there */
    rig_plan(r, "seed=11,search-other=500", "");
    for (i = 0; i < 50; i++) {
        g_assert_cmpint(search(r, 64, got, 8), ==, 3);
        for (j = 0; j < 3; j++) {
            g_assert_true(rom_u64_crc_valid(got[j]));
            g_assert_cmphex(got[j] & 0xff, ==, OW_FAMILY_DS2401);
        }
    }
    g_assert_cmpuint(r->f.injected[DS2490_FAULT_SEARCH_OTHER], >, 40);
    g_assert_cmpuint(r->f.injected[DS2490_FAULT_SEARCH_OTHER], <, 110);
    rig_free(r);
}

/* ---- the script: the Nth event, not the one before or after ---- */

typedef struct ExactCase {
    const char *kind;
    /* one event of the kind's own; true if the fault showed */
    bool (*event)(Rig *r);
} ExactCase;

static bool exact_ep2(Rig *r)
{
    uint8_t b = 0x55;
    bool nak = ds2490_ep2_write(&r->c, &b, 1) < 0;

    control(r, DS2490_CTL_FLUSH_XMT_BUFFER);
    return nak;
}

static bool exact_vendor(Rig *r)
{
    return mode(r, DS2490_MOD_PULLDOWN_SLEW, 3) < 0;
}

static bool exact_reset(Rig *r)
{
    g_autofree char *res = NULL;

    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    res = results(r);
    return strcmp(res, "") != 0;
}

static bool exact_ep3(Rig *r)
{
    uint8_t b;

    if (r->c.ep3_count == 0) {
        block_read_start(r, 16);
    }
    return ep3(r, &b, 1) < 0;
}

static bool exact_ep1(Rig *r)
{
    uint8_t st[DS2490_STATUS_MAX];

    return status(r, st) < DS2490_STATUS_SIZE;
}

static bool exact_comm(Rig *r)
{
    g_autofree char *res = NULL;

    g_assert_cmpint(comm(r, DS2490_COMM_BIT_IO | DS2490_COMM_IM, 0), ==, 0);
    res = results(r);
    return strcmp(res, "") != 0;
}

static bool exact_byte(Rig *r)
{
    /* an empty bus reads 0xff */
    return byte_io(r, 0xff) != 0xff;
}

static bool exact_search(Rig *r)
{
    uint64_t id;

    search(r, 64, &id, 1);
    return id != rig_rom(r, 0);
}

static const ExactCase exact_cases[] = {
    { "ep2-nak", exact_ep2 },
    { "stall", exact_vendor },
    { "no-presence", exact_reset },
    { "ep3-nak", exact_ep3 },
    { "ep1-short", exact_ep1 },
    { "result-crc", exact_comm },
    { "bit-flip", exact_byte },
    { "search-other", exact_search },
};

static void test_exact(gconstpointer data)
{
    const ExactCase *ec = data;
    DS2490FaultKind kind = 0;
    uint32_t n;
    int i, k;

    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (!strcmp(ds2490_fault_name(k), ec->kind)) {
            kind = k;
        }
    }
    g_assert_cmpstr(ds2490_fault_name(kind), ==, ec->kind);
    for (n = 1; n <= 6; n++) {
        /* one device: presence, an id to find, and nobody driving reads */
        Rig *r = rig_new(1, true);
        g_autofree char *script = g_strdup_printf("%s:%u:%s",
                ds2490_fault_event_name(ds2490_fault_event(kind)), n,
                ec->kind);
        g_autofree char *note = g_strdup_printf("%s@%s#%u;", ec->kind,
                ds2490_fault_event_name(ds2490_fault_event(kind)), n);

        rig_plan(r, "", script);
        for (i = 1; i <= 7; i++) {
            bool showed = ec->event(r);

            if (showed != (i == (int)n)) {
                g_error("%s: event %d of 7 %s", script, i,
                        showed ? "faulted" : "did not fault");
            }
        }
        g_assert_cmpuint(r->f.injected[kind], ==, 1);
        g_assert_cmpstr(r->notes->str, ==, note);
        rig_free(r);
    }
}

/* an entry at another event waits for the next event of its kind */
static void test_cross_event(void)
{
    Rig *r = rig_new(1, true);
    uint8_t b;

    rig_plan(r, "", "comm:2:ep3-short");
    g_assert_cmphex(byte_io(r, 0x11), ==, 0x11);
    g_assert_cmpint(comm(r, BYTE_IO_IM, 0x22), ==, 0);
    g_assert_cmpint(ep3(r, &b, 1), ==, 0);
    g_assert_true(ds2490_faults_ep3_cut_short(&r->f));
    g_assert_cmpint(ep3(r, &b, 1), ==, 1);
    g_assert_cmphex(b, ==, 0x22);
    g_assert_cmpstr(r->notes->str, ==, "ep3-short@ep3#2;");

    /* after the first EP2 packet, the next vendor request STALLs */
    rig_plan(r, "", "ep2:1:stall");
    g_assert_cmpint(mode(r, DS2490_MOD_PULLDOWN_SLEW, 1), ==, 0);
    g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, 1);
    g_assert_cmpint(mode(r, DS2490_MOD_PULLDOWN_SLEW, 2), ==, -1);
    g_assert_cmpint(mode(r, DS2490_MOD_PULLDOWN_SLEW, 2), ==, 0);
    g_assert_cmpstr(r->notes->str, ==, "stall@vendor#2;");
    rig_free(r);
}

/* setting a plan restarts the counts; a refused one changes nothing */
static void test_restart(void)
{
    Rig *r = rig_new(0, true);
    uint8_t b = 0;
    char counts[DS2490_FAULTS_TEXT_MAX];
    int i;

    rig_plan(r, "", "ep2:2:ep2-nak");
    for (i = 0; i < 5; i++) {
        g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, i == 1 ? -1 : 1);
    }
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP2], ==, 5);
    ds2490_faults_format_counts(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "ep2-nak=1");
    rig_plan(r, "", "ep2:2:ep2-nak");
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP2], ==, 0);
    ds2490_faults_format_counts(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "");
    g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, 1);
    g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, -1);
    /* the random part restarts the script's counts, too */
    g_assert_cmpint(ds2490_faults_set_random(&r->f, "", NULL, 0), ==, 0);
    g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, 1);
    g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, -1);
    /* and the USB reset does not */
    ds2490_power_on(&r->c);
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP2], ==, 2);
    rig_free(r);
}

static void test_random_rate(void)
{
    Rig *r = rig_new(0, true);
    char counts[DS2490_FAULTS_TEXT_MAX];
    g_autofree char *want = NULL;
    uint8_t b = 0;
    int i, naks = 0;

    rig_plan(r, "seed=1,ep2-nak=250", "");
    for (i = 0; i < 4000; i++) {
        if (ds2490_ep2_write(&r->c, &b, 1) < 0) {
            naks++;
        } else {
            control(r, DS2490_CTL_FLUSH_XMT_BUFFER);
        }
    }
    g_assert_cmpint(naks, >, 900);
    g_assert_cmpint(naks, <, 1100);
    g_assert_cmpuint(r->f.injected[DS2490_FAULT_EP2_NAK], ==, naks);
    g_assert_cmpuint(r->f.events[DS2490_EVENT_EP2], ==, 4000);
    ds2490_faults_format_counts(&r->f, counts, sizeof(counts));
    want = g_strdup_printf("ep2-nak=%d", naks);
    g_assert_cmpstr(counts, ==, want);

    /* 1000 per mille is always */
    rig_plan(r, "ep2-nak=1000", "");
    for (i = 0; i < 100; i++) {
        g_assert_cmpint(ds2490_ep2_write(&r->c, &b, 1), ==, -1);
    }
    rig_free(r);
}

static void test_notify_and_counts(void)
{
    Rig *r = rig_new(0, true);
    char counts[DS2490_FAULTS_TEXT_MAX];
    uint8_t b = 0;
    int i;

    rig_plan(r, "", "ep2:3:ep2-nak;vendor:1:stall;vendor:3:stall");
    for (i = 0; i < 3; i++) {
        ds2490_ep2_write(&r->c, &b, 1);
        control(r, DS2490_CTL_FLUSH_XMT_BUFFER);
    }
    g_assert_cmpstr(r->notes->str, ==,
                    "stall@vendor#1;ep2-nak@ep2#3;stall@vendor#3;");
    ds2490_faults_format_counts(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "ep2-nak=1,stall=2");
    /* the events, also those of a plan that injects nothing */
    rig_plan(r, "", "");
    ds2490_faults_format_events(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "");
    ds2490_ep2_write(&r->c, &b, 1);
    control(r, DS2490_CTL_FLUSH_XMT_BUFFER);
    control(r, DS2490_CTL_FLUSH_XMT_BUFFER);
    ds2490_faults_format_events(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "ep2=1,vendor=2");
    /* without a notify hook the faults happen all the same */
    r->f.notify = NULL;
    rig_plan(r, "", "vendor:1:stall");
    g_assert_cmpint(control(r, DS2490_CTL_FLUSH_XMT_BUFFER), ==, -1);
    rig_free(r);
}

/*
 * unplug: the engine goes on as if nothing happened (the glue detaches
 * the device after the transfer in progress); scripted, it happens in the
 * event its entry names; at random, at a vendor request only.
 */
static void test_unplug(void)
{
    Rig *r = rig_new(1, true);
    char counts[DS2490_FAULTS_TEXT_MAX];
    uint8_t buf[16];
    int i;

    rig_plan(r, "", "ep3:2:unplug");
    block_read_start(r, 4);
    g_assert_cmpint(ep3(r, buf, 1), ==, 1);
    g_assert_cmpstr(r->notes->str, ==, "");
    g_assert_cmpint(ep3(r, buf, 3), ==, 3);    /* the read is whole */
    g_assert_cmpstr(r->notes->str, ==, "unplug@ep3#2;");
    ds2490_faults_format_counts(&r->f, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "unplug=1");

    g_string_truncate(r->notes, 0);
    rig_plan(r, "", "comm:1:unplug");
    g_assert_cmpint(comm(r, RESET_IM, 0), ==, 0);
    g_assert_cmpstr(r->notes->str, ==, "unplug@comm#1;");

    /* random: drawn at vendor requests, not at the EP3 reads between */
    g_string_truncate(r->notes, 0);
    rig_plan(r, "seed=5,unplug=1000", "");
    block_read_start(r, 4);
    g_assert_cmpstr(r->notes->str, ==, "unplug@vendor#1;");
    g_string_truncate(r->notes, 0);
    for (i = 0; i < 4; i++) {
        g_assert_cmpint(ep3(r, buf, 1), ==, 1);
    }
    g_assert_cmpstr(r->notes->str, ==, "");
    rig_free(r);
}

/* std-stall: the glue asks before it handles a standard request */
static void test_std_stall(void)
{
    Rig *r = rig_new(0, true);
    char text[DS2490_FAULTS_TEXT_MAX];

    rig_plan(r, "", "std:2:std-stall");
    g_assert_false(ds2490_faults_std_stall(&r->f));
    g_assert_true(ds2490_faults_std_stall(&r->f));
    g_assert_false(ds2490_faults_std_stall(&r->f));
    g_assert_cmpstr(r->notes->str, ==, "std-stall@std#2;");
    ds2490_faults_format_events(&r->f, text, sizeof(text));
    g_assert_cmpstr(text, ==, "std=3");
    /* counted with an empty plan too, never STALLed; no plan: no count */
    rig_plan(r, "", "");
    g_assert_false(ds2490_faults_std_stall(&r->f));
    ds2490_faults_format_events(&r->f, text, sizeof(text));
    g_assert_cmpstr(text, ==, "std=1");
    g_assert_false(ds2490_faults_std_stall(NULL));
    rig_free(r);
}

static void test_valid(void)
{
    DS2490Faults f;

    ds2490_faults_init(&f);
    g_assert_true(ds2490_faults_valid(&f));
    g_assert_false(ds2490_faults_in_use(&f));
    g_assert_cmpint(ds2490_faults_set_script(&f, "ep1:1:stall", NULL, 0),
                    ==, 0);
    g_assert_true(ds2490_faults_in_use(&f));
    f.script_len = DS2490_FAULT_SCRIPT_MAX + 1;
    g_assert_false(ds2490_faults_valid(&f));
    f.script_len = 1;
    f.script_event[0] = DS2490_FAULT_EVENTS;
    g_assert_false(ds2490_faults_valid(&f));
    f.script_event[0] = 0;
    f.script_kind[0] = DS2490_FAULT_KINDS;
    g_assert_false(ds2490_faults_valid(&f));
    f.script_kind[0] = 0;
    f.script_n[0] = 0;
    g_assert_false(ds2490_faults_valid(&f));
    f.script_n[0] = 1;
    f.permille[3] = DS2490_FAULT_PERMILLE + 1;
    g_assert_false(ds2490_faults_valid(&f));
    f.permille[3] = DS2490_FAULT_PERMILLE;
    g_assert_true(ds2490_faults_valid(&f));
    /* a seed alone is kept, so it is migrated */
    ds2490_faults_init(&f);
    g_assert_cmpint(ds2490_faults_set_random(&f, "seed=3", NULL, 0), ==, 0);
    g_assert_true(ds2490_faults_in_use(&f));
    /* NULL: no plan */
    g_assert_false(ds2490_faults_in_use(NULL));
    g_assert_false(ds2490_faults_ep3_cut_short(NULL));
    g_assert_false(ds2490_faults_stall(NULL));
    g_assert_cmpint(ds2490_faults_ep3_read(NULL, 5), ==, 5);
    g_assert_cmphex(ds2490_faults_search_id(NULL, 0x1234), ==, 0x1234);
}

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ds2490-faults/parse/good", test_parse_good);
    g_test_add_func("/ds2490-faults/parse/bad", test_parse_bad);
    g_test_add_func("/ds2490-faults/table", test_table);
    g_test_add_func("/ds2490-faults/docs", test_docs);
    g_test_add_func("/ds2490-faults/valid", test_valid);
    g_test_add_func("/ds2490-faults/empty-plan", test_empty_plan);
    g_test_add_func("/ds2490-faults/determinism", test_determinism);
    g_test_add_func("/ds2490-faults/random-rate", test_random_rate);
    g_test_add_func("/ds2490-faults/restart", test_restart);
    g_test_add_func("/ds2490-faults/notify", test_notify_and_counts);
    g_test_add_func("/ds2490-faults/kind/ep3-short", test_ep3_short);
    g_test_add_func("/ds2490-faults/kind/ep3-nak", test_ep3_nak);
    g_test_add_func("/ds2490-faults/kind/ep1-short", test_ep1_short);
    g_test_add_func("/ds2490-faults/kind/ep2-nak", test_ep2_nak);
    g_test_add_func("/ds2490-faults/kind/stall", test_stall);
    for (i = 0; i < G_N_ELEMENTS(result_cases); i++) {
        g_autofree char *name = g_strdup_printf("/ds2490-faults/kind/%s",
                                                result_cases[i].kind);

        g_test_add_data_func(name, &result_cases[i], test_result);
    }
    g_test_add_func("/ds2490-faults/kind/result-combined",
                    test_result_combined);
    g_test_add_data_func("/ds2490-faults/kind/never-idle/reset-device",
                         GINT_TO_POINTER(WEDGE_END_RESET_DEVICE),
                         test_never_idle);
    g_test_add_data_func("/ds2490-faults/kind/never-idle/halt-idle",
                         GINT_TO_POINTER(WEDGE_END_HALT_IDLE),
                         test_never_idle);
    g_test_add_data_func("/ds2490-faults/kind/never-idle/halt-done",
                         GINT_TO_POINTER(WEDGE_END_HALT_DONE),
                         test_never_idle);
    g_test_add_data_func("/ds2490-faults/kind/never-idle/flush",
                         GINT_TO_POINTER(WEDGE_END_FLUSH), test_never_idle);
    g_test_add_func("/ds2490-faults/kind/never-idle/outlives-plan",
                    test_never_idle_outlives_plan);
    g_test_add_func("/ds2490-faults/kind/no-presence", test_no_presence);
    g_test_add_func("/ds2490-faults/kind/bit-flip", test_bit_flip);
    g_test_add_func("/ds2490-faults/kind/search-other", test_search_other);
    g_test_add_func("/ds2490-faults/kind/unplug", test_unplug);
    g_test_add_func("/ds2490-faults/kind/std-stall", test_std_stall);
    for (i = 0; i < G_N_ELEMENTS(exact_cases); i++) {
        g_autofree char *name = g_strdup_printf("/ds2490-faults/script/"
                                                "exact/%s",
                                                exact_cases[i].kind);

        g_test_add_data_func(name, &exact_cases[i], test_exact);
    }
    g_test_add_func("/ds2490-faults/script/cross-event", test_cross_event);
    return g_test_run();
}
