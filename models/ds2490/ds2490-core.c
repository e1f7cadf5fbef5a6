/*
 * DS2490 USB-to-1-Wire bridge engine, free of QEMU and USB.
 *
 * Every COMM command goes through the command FIFO and is run by a small
 * state machine (kind, phase, counters).  A step consumes EP2 data,
 * produces EP3 data, or finishes a phase, so ds2490_run() is bounded by
 * the FIFO sizes; a search pass needs 8 free EP3 bytes, so at most 16 run
 * per call.  In realtime mode each step also waits until its virtual end
 * time has passed, so its output appears when the real chip would have it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "ds2490-core.h"

/* steps per ds2490_run() call; well above what the FIFOs allow */
#define DS2490_RUN_BUDGET       1024

#define DS2490_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* SEARCH_ACCESS with N = 0 ("no limit") still stops here */
#define DS2490_SEARCH_CAP       255

/* bus time: slot 68 us regular, 10 us overdrive; reset ~1.1 ms */
#define DS2490_SLOT_REGULAR_NS  68000
#define DS2490_SLOT_OD_NS       10000
#define DS2490_RESET_NS         1096000
#define DS2490_RESET_OD_NS      136000
#define DS2490_SPU_UNIT_NS      16000000LL

/* search pass: ROM command byte + 64 x (bit, complement, direction) */
#define DS2490_SEARCH_SLOTS     (8 + 64 * 3)

enum {
    DS2490_PH_START,            /* optional RST reset */
    DS2490_PH_MAIN,
    DS2490_PH_SPU,              /* strong pullup after the operation */
};

/* sub-states of SEARCH_ACCESS in cmd_aux */
enum {
    DS2490_SEARCH_LOAD,         /* wait for the 8-byte start path */
    DS2490_SEARCH_PASS,
    DS2490_SEARCH_RTS,          /* push the discrepancy bytes */
};

typedef enum {
    DS2490_STEP_PROGRESS,
    DS2490_STEP_IO,             /* needs EP2 data or EP3 space */
    DS2490_STEP_TIME,           /* realtime: end of step not reached */
    DS2490_STEP_YIELD,          /* nothing more this call (PST retry) */
} DS2490Step;

typedef struct DS2490Run {
    int64_t now;
    int64_t deadline;
    bool chained;               /* a command finished during this call */
    bool retried;               /* a PST reset was tried during this call */
} DS2490Run;

/* per COMM code (wValue bits 4-7): kind, fixed bits 1-2, parameter bytes */
typedef struct DS2490CommInfo {
    uint8_t kind;
    uint8_t fixed;
    uint8_t params;
} DS2490CommInfo;

static const DS2490CommInfo ds2490_comm_info[16] = {
    [0x0] = { DS2490_KIND_ERROR_ESCAPE, 0x00, 0 },
    [0x1] = { DS2490_KIND_SET_DURATION, 0x02, 1 },
    [0x2] = { DS2490_KIND_BIT_IO, 0x00, 0 },
    [0x3] = { DS2490_KIND_PULSE, 0x00, 0 },
    [0x4] = { DS2490_KIND_RESET, 0x02, 1 },
    [0x5] = { DS2490_KIND_BYTE_IO, 0x02, 1 },
    [0x6] = { DS2490_KIND_MATCH_ACCESS, 0x04, 2 },
    [0x7] = { DS2490_KIND_BLOCK_IO, 0x04, 2 },
    [0x8] = { DS2490_KIND_READ_STRAIGHT, 0x00, 2 },
    [0x9] = { DS2490_KIND_UNIMP, 0x02, 0 },     /* DO_RELEASE */
    [0xA] = { DS2490_KIND_UNIMP, 0x02, 1 },     /* SET_PATH */
    [0xB] = { DS2490_KIND_UNIMP, 0x02, 1 },     /* WRITE_SRAM_PAGE */
    [0xC] = { DS2490_KIND_UNIMP, 0x04, 2 },     /* WRITE_EPROM */
    [0xD] = { DS2490_KIND_UNIMP, 0x04, 2 },     /* READ_CRC_PROT_PAGE */
    [0xE] = { DS2490_KIND_UNIMP, 0x04, 1 },     /* READ_REDIRECT_PAGE */
    [0xF] = { DS2490_KIND_SEARCH, 0x04, 2 },
};

/* false for codes the chip does not know (STALL) */
static bool ds2490_decode(uint16_t value, const DS2490CommInfo **info)
{
    uint8_t lo = value & 0xff;
    const DS2490CommInfo *ci = &ds2490_comm_info[lo >> 4];

    if ((lo >> 4) == 0) {
        /* only ERROR_ESCAPE lives in code 0 */
        if (lo != (DS2490_COMM_ERROR_ESCAPE & 0xff)) {
            return false;
        }
    } else if (ci->kind != DS2490_KIND_READ_STRAIGHT &&
               (lo & 0x06) != ci->fixed) {
        return false;
    }
    *info = ci;
    return true;
}

/* FIFO footprint of a command: wValue plus its parameter bytes */
static uint8_t ds2490_cmd_size(uint16_t value)
{
    const DS2490CommInfo *ci;

    if (!ds2490_decode(value, &ci)) {
        return 2;
    }
    return 2 + ci->params;
}

/* command names: CONTROL by wValue, MODE by register, COMM by code */
static const char *const ds2490_ctl_names[] = {
    "RESET_DEVICE", "START_EXE", "RESUME_EXE", "HALT_EXE_IDLE",
    "HALT_EXE_DONE", NULL, NULL, "FLUSH_COMM_CMDS", "FLUSH_RCV_BUFFER",
    "FLUSH_XMT_BUFFER", "GET_COMM_CMDS",
};

static const char *const ds2490_mod_names[] = {
    "PULSE_EN", "SPEED_CHANGE_EN", "1WIRE_SPEED", "STRONG_PU_DUR",
    "PULLDOWN_SLEW", "PROG_PULSE_DUR", "WRITE1_LOWTIME", "DSOW0_TREC",
};

static const char *const ds2490_comm_names[16] = {
    "ERROR_ESCAPE", "SET_DURATION", "BIT_IO", "PULSE", "1_WIRE_RESET",
    "BYTE_IO", "MATCH_ACCESS", "BLOCK_IO", "READ_STRAIGHT", "DO_RELEASE",
    "SET_PATH", "WRITE_SRAM_PAGE", "WRITE_EPROM", "READ_CRC_PROT_PAGE",
    "READ_REDIRECT_PAGE", "SEARCH_ACCESS",
};

const char *ds2490_cmdname(uint8_t request, uint16_t value)
{
    const DS2490CommInfo *ci;
    const char *name = NULL;

    switch (request) {
    case DS2490_REQ_CONTROL:
        if (value < DS2490_ARRAY_SIZE(ds2490_ctl_names)) {
            name = ds2490_ctl_names[value];
        }
        break;
    case DS2490_REQ_MODE:
        if (value < DS2490_ARRAY_SIZE(ds2490_mod_names)) {
            name = ds2490_mod_names[value];
        }
        break;
    case DS2490_REQ_COMM:
        if (ds2490_decode(value, &ci)) {
            name = ds2490_comm_names[(value & 0xff) >> 4];
        }
        break;
    }
    return name ? name : "unknown";
}

static void ds2490_guest_error(DS2490Core *c, const char *fmt, ...)
    DS2490_PRINTF(2, 3);

static void ds2490_guest_error(DS2490Core *c, const char *fmt, ...)
{
    va_list ap;

    if (c->guest_error) {
        va_start(ap, fmt);
        c->guest_error(c->guest_error_opaque, fmt, ap);
        va_end(ap);
    }
}

/* ---- rings ---- */

/*
 * EP2, EP3 and the result register FIFO are byte rings of the same shape.
 * Their storage stays in DS2490Core's plain fields (buffer, head, count),
 * which VMState migrates as they are; these two helpers work on any of them.
 */
static bool ds2490_ring_push(uint8_t *buf, uint8_t size, uint8_t head,
                             uint8_t *count, uint8_t b)
{
    if (*count >= size) {
        return false;
    }
    buf[(head + *count) % size] = b;
    (*count)++;
    return true;
}

static bool ds2490_ring_pop(const uint8_t *buf, uint8_t size, uint8_t *head,
                            uint8_t *count, uint8_t *b)
{
    if (*count == 0) {
        return false;
    }
    *b = buf[*head % size];
    *head = (*head + 1) % size;
    (*count)--;
    return true;
}

static void ds2490_ep2_push(DS2490Core *c, uint8_t b)
{
    ds2490_ring_push(c->ep2, DS2490_EP2_SIZE, c->ep2_head, &c->ep2_count, b);
}

/* An empty EP2 gives 0xff: eight read slots on the bus */
static uint8_t ds2490_ep2_pop(DS2490Core *c)
{
    uint8_t b = 0xff;

    ds2490_ring_pop(c->ep2, DS2490_EP2_SIZE, &c->ep2_head, &c->ep2_count, &b);
    return b;
}

static int ds2490_ep3_free(const DS2490Core *c)
{
    return DS2490_EP3_SIZE - c->ep3_count;
}

static void ds2490_ep3_push(DS2490Core *c, uint8_t b)
{
    ds2490_ring_push(c->ep3, DS2490_EP3_SIZE, c->ep3_head, &c->ep3_count, b);
}

static void ds2490_ep3_push64(DS2490Core *c, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        ds2490_ep3_push(c, (v >> (8 * i)) & 0xff);
    }
}

static uint8_t ds2490_ep3_pop(DS2490Core *c)
{
    uint8_t b = 0;

    ds2490_ring_pop(c->ep3, DS2490_EP3_SIZE, &c->ep3_head, &c->ep3_count, &b);
    return b;
}

static void ds2490_result_push(DS2490Core *c, uint8_t v)
{
    if (!ds2490_ring_push(c->results, DS2490_RESULT_SIZE, c->results_head,
                          &c->results_count, v)) {
        ds2490_guest_error(c, "result register FIFO full: result 0x%02x of "
                           "%s 0x%04x dropped", v,
                           ds2490_cmdname(DS2490_REQ_COMM, c->cmd_value),
                           c->cmd_value);
        c->results_dropped++;
    }
}

static uint8_t ds2490_result_pop(DS2490Core *c)
{
    uint8_t v = 0;

    ds2490_ring_pop(c->results, DS2490_RESULT_SIZE, &c->results_head,
                    &c->results_count, &v);
    return v;
}

static void ds2490_cmdq_pop(DS2490Core *c)
{
    uint8_t size;

    if (c->cmdq_len == 0) {
        return;
    }
    size = ds2490_cmd_size(c->cmdq_value[c->cmdq_head %
                                         DS2490_CMD_FIFO_SLOTS]);
    c->cmdq_head = (c->cmdq_head + 1) % DS2490_CMD_FIFO_SLOTS;
    c->cmdq_len--;
    c->cmdq_bytes = c->cmdq_bytes > size ? c->cmdq_bytes - size : 0;
    if (c->cmdq_len == 0) {
        c->cmdq_bytes = 0;
    }
}

static void ds2490_flush_cmdq(DS2490Core *c)
{
    c->cmdq_head = 0;
    c->cmdq_len = 0;
    c->cmdq_bytes = 0;
}

static void ds2490_flush_ep2(DS2490Core *c)
{
    c->ep2_head = 0;
    c->ep2_count = 0;
}

static void ds2490_flush_ep3(DS2490Core *c)
{
    c->ep3_head = 0;
    c->ep3_count = 0;
}

/* ---- bus ---- */

/* result flags of a reset pulse: 0, NRS or SH */
static uint8_t ds2490_bus_reset(DS2490Core *c)
{
    bool shorted = false;
    bool presence = false;
    uint8_t res;

    if (c->ops && c->ops->reset) {
        presence = c->ops->reset(c->bus, &shorted);
    }
    if (shorted) {
        res = DS2490_RR_SH;
    } else {
        res = presence ? 0 : DS2490_RR_NRS;
    }
    return ds2490_faults_bus_reset(c->faults, res);
}

static int ds2490_bus_bit(DS2490Core *c, int bit)
{
    int level = 1;

    bit &= 1;
    if (c->ops && c->ops->touch_bit) {
        level = c->ops->touch_bit(c->bus, bit) ? 1 : 0;
    }
    /* a write-0 slot reads 0 whatever the bus says */
    return level & bit;
}

static uint8_t ds2490_bus_byte(DS2490Core *c, uint8_t b)
{
    uint8_t r = 0;
    int i;

    for (i = 0; i < 8; i++) {
        r |= ds2490_bus_bit(c, (b >> i) & 1) << i;
    }
    return r;
}

/* a data byte the host gets back (BYTE_IO, BLOCK_IO, READ_STRAIGHT) */
static uint8_t ds2490_bus_read_byte(DS2490Core *c, uint8_t b)
{
    return ds2490_faults_bus_byte(c->faults, ds2490_bus_byte(c, b));
}

static void ds2490_set_speed(DS2490Core *c, unsigned speed)
{
    if (speed > DS2490_SPEED_OVERDRIVE) {
        return;                 /* reserved codes change nothing */
    }
    c->speed = speed;
    if (c->ops && c->ops->set_speed) {
        c->ops->set_speed(c->bus, speed);
    }
}

static void ds2490_set_spua(DS2490Core *c, bool on)
{
    if (c->spua == on) {
        return;
    }
    c->spua = on;
    if (c->ops && c->ops->strong_pullup) {
        c->ops->strong_pullup(c->bus, on);
    }
}

/* ---- time ---- */

static bool ds2490_realtime(const DS2490Core *c)
{
    return c->timing == DS2490_TIMING_REALTIME && c->now_ns != NULL;
}

static int64_t ds2490_slot_ns(const DS2490Core *c)
{
    switch (c->speed) {
    case DS2490_SPEED_OVERDRIVE:
        return DS2490_SLOT_OD_NS;
    case DS2490_SPEED_FLEXIBLE:
        /* tLOW0 62 us + tREC0 3..10 us from the DSO/W0 code */
        return (62 + 3 + (c->dsow0_trec & 7)) * 1000;
    default:
        return DS2490_SLOT_REGULAR_NS;
    }
}

static int64_t ds2490_reset_ns(const DS2490Core *c)
{
    if (c->speed == DS2490_SPEED_OVERDRIVE) {
        return DS2490_RESET_OD_NS;
    }
    return DS2490_RESET_NS;
}

/*
 * Realtime: a step of @cost may run once its end is not in the future;
 * it then accounts for the time.  Otherwise record when it could run.
 */
static bool ds2490_time_ok(DS2490Core *c, DS2490Run *r, int64_t cost)
{
    if (!ds2490_realtime(c)) {
        return true;
    }
    if (c->io_wait) {
        /* waited for the host: the bus was idle meanwhile */
        c->io_wait = false;
        if (c->t_cursor < r->now) {
            c->t_cursor = r->now;
        }
    }
    if (c->t_cursor + cost <= r->now) {
        c->t_cursor += cost;
        return true;
    }
    r->deadline = c->t_cursor + cost;
    return false;
}

/* ---- command engine ---- */

/* embedded bits in the common positions (READ_STRAIGHT differs) */
static uint16_t ds2490_flags(const DS2490Core *c)
{
    uint16_t v = c->cmd_value;
    uint16_t f = 0;

    if (c->cmd_kind != DS2490_KIND_READ_STRAIGHT) {
        return v;
    }
    if (v & DS2490_RS_IM) {
        f |= DS2490_COMM_IM;
    }
    if (v & DS2490_RS_RST) {
        f |= DS2490_COMM_RST;
    }
    if (v & DS2490_RS_ICP) {
        f |= DS2490_COMM_ICP;
    }
    if (v & DS2490_RS_NTF) {
        f |= DS2490_COMM_NTF;
    }
    return f;
}

static void ds2490_finish(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);
    const uint8_t bus_errors = DS2490_RR_NRS | DS2490_RR_SH | DS2490_RR_VPP |
                               DS2490_RR_CMP | DS2490_RR_CRC;

    ds2490_set_spua(c, false);
    if (!(f & DS2490_COMM_ICP) && (c->cmd_result || (f & DS2490_COMM_NTF))) {
        ds2490_result_push(c, c->cmd_result);
    }
    if ((f & DS2490_COMM_F) && (c->cmd_result & bus_errors)) {
        /* F: drop what belonged to the failed macro */
        ds2490_flush_ep2(c);
        ds2490_flush_ep3(c);
        ds2490_flush_cmdq(c);
    }
    c->active = false;
    c->cmd_phase = DS2490_PH_START;
    c->spu_infinite = false;
    if (c->halt_pending) {
        c->halt_pending = false;
        c->halted = true;
    }
    if (r) {
        r->chained = true;
    }
}

static bool ds2490_start_next(DS2490Core *c, DS2490Run *r)
{
    uint8_t slot;
    uint16_t value;
    const DS2490CommInfo *ci;

    if (c->cmdq_len == 0) {
        c->exec_running = false;
        return false;
    }
    if (c->halted || !c->exec_running) {
        return false;
    }
    slot = c->cmdq_head % DS2490_CMD_FIFO_SLOTS;
    value = c->cmdq_value[slot];
    c->cmd_index = c->cmdq_index[slot];
    ds2490_cmdq_pop(c);
    c->cmd_value = value;
    c->cmd_kind = ds2490_decode(value, &ci) ? ci->kind : DS2490_KIND_NONE;
    c->cmd_phase = DS2490_PH_START;
    /* error bits a fault plan gives this command (0 without one) */
    c->cmd_result = ds2490_faults_command_start(c->faults);
    c->cmd_remaining = 0;
    c->cmd_aux = 0;
    c->spu_infinite = false;
    c->io_wait = false;
    c->active = true;
    if (ds2490_realtime(c)) {
        /* back to back after a command finished in this call */
        if (!r->chained && c->t_cursor < r->now) {
            c->t_cursor = r->now;
        }
        c->cmd_start_ns = c->t_cursor;
    }
    return true;
}

static int64_t ds2490_spu_ns(uint8_t code)
{
    if (code == 0xff) {
        return 0;               /* reserved: "< 1 us" on the chip */
    }
    return code * DS2490_SPU_UNIT_NS;
}

/* the strong pullup counts from the command start (6.5) */
static void ds2490_spu_begin(DS2490Core *c)
{
    int64_t end = c->cmd_start_ns + ds2490_spu_ns(c->spu_duration);

    c->spu_infinite = c->spu_duration == 0;
    c->spu_end_ns = end > c->t_cursor ? end : c->t_cursor;
    c->cmd_phase = DS2490_PH_SPU;
    ds2490_set_spua(c, true);
}

static bool ds2490_spu_wanted(const DS2490Core *c)
{
    return (ds2490_flags(c) & DS2490_COMM_SPU) &&
           (c->pulse_en & DS2490_PULSE_SPUE);
}

/* SPU if asked for and enabled, else done */
static void ds2490_spu_or_finish(DS2490Core *c, DS2490Run *r)
{
    if (ds2490_spu_wanted(c)) {
        ds2490_spu_begin(c);
    } else {
        ds2490_finish(c, r);
    }
}

static DS2490Step ds2490_step_spu(DS2490Core *c, DS2490Run *r)
{
    if (c->spu_infinite) {
        return DS2490_STEP_YIELD;       /* until HALT or reset */
    }
    if (ds2490_realtime(c)) {
        if (r->now < c->spu_end_ns) {
            r->deadline = c->spu_end_ns;
            return DS2490_STEP_TIME;
        }
        if (c->t_cursor < c->spu_end_ns) {
            c->t_cursor = c->spu_end_ns;
        }
    }
    ds2490_finish(c, r);
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_bit(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);
    bool icp = f & DS2490_COMM_ICP;
    int rb;

    if (!icp && ds2490_ep3_free(c) < 1) {
        return DS2490_STEP_IO;
    }
    if (!ds2490_time_ok(c, r, ds2490_slot_ns(c))) {
        return DS2490_STEP_TIME;
    }
    rb = ds2490_bus_bit(c, (f & DS2490_COMM_X) ? 1 : 0);
    if (!icp) {
        ds2490_ep3_push(c, rb);
    }
    /* CIB: no pullup when the bit read back is 1 */
    if ((f & DS2490_COMM_RTS) && rb) {
        ds2490_finish(c, r);
    } else {
        ds2490_spu_or_finish(c, r);
    }
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_byte(DS2490Core *c, DS2490Run *r)
{
    bool icp = ds2490_flags(c) & DS2490_COMM_ICP;
    uint8_t rb;

    if (!icp && ds2490_ep3_free(c) < 1) {
        return DS2490_STEP_IO;
    }
    if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
        return DS2490_STEP_TIME;
    }
    rb = ds2490_bus_read_byte(c, c->cmd_index & 0xff);
    if (!icp) {
        ds2490_ep3_push(c, rb);
    }
    ds2490_spu_or_finish(c, r);
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_block(DS2490Core *c, DS2490Run *r)
{
    if (c->cmd_remaining == 0) {
        if (c->cmd_index != 0) {
            ds2490_spu_or_finish(c, r);
        } else {
            ds2490_finish(c, r);
        }
        return DS2490_STEP_PROGRESS;
    }
    if (c->ep2_count == 0 || ds2490_ep3_free(c) < 1) {
        return DS2490_STEP_IO;
    }
    if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
        return DS2490_STEP_TIME;
    }
    ds2490_ep3_push(c, ds2490_bus_read_byte(c, ds2490_ep2_pop(c)));
    c->cmd_remaining--;
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_reset(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);
    bool pst = f & DS2490_COMM_RTS;
    uint8_t res;

    if (c->cmd_aux == 0) {
        /* SE: switch speed first, if speed changes are enabled */
        if ((f & DS2490_COMM_X) && c->speed_change_en) {
            ds2490_set_speed(c, c->cmd_index & 0xff);
        }
        c->cmd_aux = 1;
    }
    if (pst) {
        if (!ds2490_realtime(c) && r->retried) {
            return DS2490_STEP_YIELD;
        }
        /* retries while nobody answers need not catch up on lost time */
        if (ds2490_realtime(c) && c->t_cursor < r->now - ds2490_reset_ns(c)) {
            c->t_cursor = r->now - ds2490_reset_ns(c);
        }
    }
    if (!ds2490_time_ok(c, r, ds2490_reset_ns(c))) {
        return DS2490_STEP_TIME;
    }
    if (pst) {
        r->retried = true;
    }
    res = ds2490_bus_reset(c);
    if (pst && res) {
        return DS2490_STEP_PROGRESS;    /* PST: again until presence */
    }
    c->cmd_result |= res;
    ds2490_finish(c, r);
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_pulse(DS2490Core *c, DS2490Run *r)
{
    if (ds2490_flags(c) & DS2490_COMM_X) {
        /* programming pulse: the model has no 12 V supply */
        if (c->pulse_en & DS2490_PULSE_PROG) {
            c->cmd_result |= DS2490_RR_VPP;
        }
        ds2490_finish(c, r);
    } else if (c->pulse_en & DS2490_PULSE_SPUE) {
        ds2490_spu_begin(c);
    } else {
        ds2490_finish(c, r);
    }
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_match(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);

    if (c->cmd_aux == 0) {
        if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
            return DS2490_STEP_TIME;
        }
        ds2490_bus_byte(c, c->cmd_index & 0xff);
        /* SE: the ROM bytes go at the new speed (overdrive match) */
        if ((f & DS2490_COMM_X) && c->speed_change_en) {
            ds2490_set_speed(c, c->cmd_index >> 8);
        }
        c->cmd_aux = 1;
        c->cmd_remaining = 8;
        return DS2490_STEP_PROGRESS;
    }
    if (c->cmd_remaining == 0) {
        ds2490_finish(c, r);
        return DS2490_STEP_PROGRESS;
    }
    if (c->ep2_count == 0) {
        return DS2490_STEP_IO;
    }
    if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
        return DS2490_STEP_TIME;
    }
    ds2490_bus_byte(c, ds2490_ep2_pop(c));
    c->cmd_remaining--;
    return DS2490_STEP_PROGRESS;
}

/* preamble (wValue high byte) from EP2, then wIndex bytes read to EP3 */
static DS2490Step ds2490_step_read_straight(DS2490Core *c, DS2490Run *r)
{
    if (c->cmd_remaining > 0) {
        if (c->ep2_count == 0) {
            return DS2490_STEP_IO;
        }
        if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
            return DS2490_STEP_TIME;
        }
        ds2490_bus_byte(c, ds2490_ep2_pop(c));
        c->cmd_remaining--;
        return DS2490_STEP_PROGRESS;
    }
    if (c->cmd_aux > 0) {
        if (ds2490_ep3_free(c) < 1) {
            return DS2490_STEP_IO;
        }
        if (!ds2490_time_ok(c, r, 8 * ds2490_slot_ns(c))) {
            return DS2490_STEP_TIME;
        }
        ds2490_ep3_push(c, ds2490_bus_read_byte(c, 0xff));
        c->cmd_aux--;
        return DS2490_STEP_PROGRESS;
    }
    ds2490_finish(c, r);
    return DS2490_STEP_PROGRESS;
}

/* highest set bit, or -1 */
static int ds2490_msb64(uint64_t v)
{
    int i;

    for (i = 63; i >= 0; i--) {
        if (v & (1ULL << i)) {
            return i;
        }
    }
    return -1;
}

/* end of search with fewer ids than asked for */
static void ds2490_search_end(DS2490Core *c, DS2490Run *r)
{
    uint8_t n = c->cmd_index >> 8;

    if (c->search_eos && n != 0 && c->search_found < n) {
        c->cmd_result |= DS2490_RR_EOS;
    }
    ds2490_finish(c, r);
}

/* one AN187 pass; pushes the ROM and decides how to go on */
static DS2490Step ds2490_search_pass(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);
    bool sm = f & DS2490_COMM_X;
    bool rts = f & DS2490_COMM_RTS;
    bool do_reset = c->search_first_pass ? (f & DS2490_COMM_RST) : true;
    int need = (!sm && rts) ? 16 : 8;
    int64_t cost = DS2490_SEARCH_SLOTS * ds2490_slot_ns(c);
    uint64_t rom = 0;
    uint64_t disc = 0;
    uint8_t res;
    int i, j;

    /* ids are never split: wait for room for a whole one */
    if (ds2490_ep3_free(c) < need) {
        return DS2490_STEP_IO;
    }
    if (do_reset) {
        cost += ds2490_reset_ns(c);
    }
    if (!ds2490_time_ok(c, r, cost)) {
        return DS2490_STEP_TIME;
    }
    if (do_reset) {
        res = ds2490_bus_reset(c);
        if (res) {
            c->cmd_result |= res;
            ds2490_finish(c, r);
            return DS2490_STEP_PROGRESS;
        }
    }
    c->search_first_pass = false;
    ds2490_bus_byte(c, c->cmd_index & 0xff);
    for (i = 0; i < 64; i++) {
        int b = ds2490_bus_bit(c, 1);
        int cb = ds2490_bus_bit(c, 1);
        int dir;

        if (b && cb) {
            /* nobody (left) taking part: no id from this pass */
            ds2490_search_end(c, r);
            return DS2490_STEP_PROGRESS;
        }
        if (b != cb) {
            dir = b;
        } else {
            dir = (c->search_path >> i) & 1;
            disc |= 1ULL << i;
        }
        ds2490_bus_bit(c, dir);
        rom |= (uint64_t)dir << i;
    }
    /* a fault plan may report another id; the search goes on from rom */
    ds2490_ep3_push64(c, ds2490_faults_search_id(c->faults, rom));
    c->search_found++;
    c->search_disc = disc;
    if (!sm) {
        /* search-and-access one device: it stays selected */
        if (rts) {
            ds2490_ep3_push64(c, disc);
        }
        ds2490_finish(c, r);
        return DS2490_STEP_PROGRESS;
    }
    /* next path: last discrepancy where 0 was taken now takes 1 */
    j = ds2490_msb64(disc & ~rom);
    if (j < 0) {
        ds2490_search_end(c, r);
        return DS2490_STEP_PROGRESS;
    }
    c->search_path = (rom & ((1ULL << j) - 1)) | (1ULL << j);
    if (c->search_found >= c->search_limit) {
        if (rts && c->search_rts_data) {
            c->cmd_aux = DS2490_SEARCH_RTS;
        } else {
            ds2490_finish(c, r);
        }
    }
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step_search(DS2490Core *c, DS2490Run *r)
{
    int i;

    switch (c->cmd_aux) {
    case DS2490_SEARCH_LOAD:
        if (c->ep2_count < 8) {
            return DS2490_STEP_IO;
        }
        c->search_path = 0;
        for (i = 0; i < 8; i++) {
            c->search_path |= (uint64_t)ds2490_ep2_pop(c) << (8 * i);
        }
        c->search_disc = 0;
        c->search_found = 0;
        c->search_limit = c->cmd_index >> 8;
        if (c->search_limit == 0) {
            c->search_limit = DS2490_SEARCH_CAP;
        }
        c->search_first_pass = true;
        c->cmd_aux = DS2490_SEARCH_PASS;
        return DS2490_STEP_PROGRESS;
    case DS2490_SEARCH_PASS:
        return ds2490_search_pass(c, r);
    default:
        if (ds2490_ep3_free(c) < 8) {
            return DS2490_STEP_IO;
        }
        ds2490_ep3_push64(c, c->search_disc);
        ds2490_finish(c, r);
        return DS2490_STEP_PROGRESS;
    }
}

/* RST before BLOCK_IO, MATCH_ACCESS and READ_STRAIGHT */
static DS2490Step ds2490_step_start(DS2490Core *c, DS2490Run *r)
{
    uint16_t f = ds2490_flags(c);
    bool rst = false;
    uint8_t res;

    switch (c->cmd_kind) {
    case DS2490_KIND_BLOCK_IO:
    case DS2490_KIND_MATCH_ACCESS:
    case DS2490_KIND_READ_STRAIGHT:
        rst = f & DS2490_COMM_RST;
        break;
    default:
        break;
    }
    if (rst) {
        if (!ds2490_time_ok(c, r, ds2490_reset_ns(c))) {
            return DS2490_STEP_TIME;
        }
        res = ds2490_bus_reset(c);
        c->cmd_result |= res;
        if (res && c->cmd_kind == DS2490_KIND_MATCH_ACCESS) {
            ds2490_finish(c, r);
            return DS2490_STEP_PROGRESS;
        }
    }
    switch (c->cmd_kind) {
    case DS2490_KIND_BLOCK_IO:
        c->cmd_remaining = c->cmd_index;
        break;
    case DS2490_KIND_READ_STRAIGHT:
        c->cmd_remaining = c->cmd_value >> 8;
        c->cmd_aux = c->cmd_index;
        break;
    default:
        c->cmd_remaining = 0;
        c->cmd_aux = 0;
        break;
    }
    c->cmd_phase = DS2490_PH_MAIN;
    return DS2490_STEP_PROGRESS;
}

static DS2490Step ds2490_step(DS2490Core *c, DS2490Run *r)
{
    if (c->cmd_phase == DS2490_PH_START) {
        return ds2490_step_start(c, r);
    }
    if (c->cmd_phase == DS2490_PH_SPU) {
        return ds2490_step_spu(c, r);
    }
    switch (c->cmd_kind) {
    case DS2490_KIND_SET_DURATION:
        if (ds2490_flags(c) & DS2490_COMM_X) {
            c->pp_duration = c->cmd_index & 0xff;
        } else {
            c->spu_duration = c->cmd_index & 0xff;
        }
        break;
    case DS2490_KIND_BIT_IO:
        return ds2490_step_bit(c, r);
    case DS2490_KIND_BYTE_IO:
        return ds2490_step_byte(c, r);
    case DS2490_KIND_BLOCK_IO:
        return ds2490_step_block(c, r);
    case DS2490_KIND_RESET:
        return ds2490_step_reset(c, r);
    case DS2490_KIND_PULSE:
        return ds2490_step_pulse(c, r);
    case DS2490_KIND_MATCH_ACCESS:
        return ds2490_step_match(c, r);
    case DS2490_KIND_READ_STRAIGHT:
        return ds2490_step_read_straight(c, r);
    case DS2490_KIND_SEARCH:
        return ds2490_step_search(c, r);
    case DS2490_KIND_UNIMP:
        ds2490_guest_error(c, "unimplemented COMM command %s 0x%04x "
                           "(index 0x%04x) completes as a no-op",
                           ds2490_cmdname(DS2490_REQ_COMM, c->cmd_value),
                           c->cmd_value, c->cmd_index);
        c->unimp_count++;
        c->unimp_value = c->cmd_value;
        break;
    default:
        break;                  /* ERROR_ESCAPE, or a corrupt kind */
    }
    ds2490_finish(c, r);
    return DS2490_STEP_PROGRESS;
}

int64_t ds2490_run(DS2490Core *c)
{
    DS2490Run r = { .deadline = -1 };
    int budget;

    r.now = c->now_ns ? c->now_ns(c->clock_opaque) : 0;
    for (budget = DS2490_RUN_BUDGET; budget > 0; budget--) {
        if (!c->active && !ds2490_start_next(c, &r)) {
            return -1;
        }
        if (ds2490_faults_wedged(c->faults)) {
            return -1;          /* never-idle: only the host ends it */
        }
        switch (ds2490_step(c, &r)) {
        case DS2490_STEP_PROGRESS:
            break;
        case DS2490_STEP_IO:
            c->io_wait = true;
            return -1;
        case DS2490_STEP_TIME:
            return r.deadline;
        default:
            return -1;
        }
    }
    /* not reached with sane FIFOs; ask to be called again */
    return r.now;
}

/* ---- control, mode, comm ---- */

static void ds2490_reset_device(DS2490Core *c)
{
    ds2490_set_spua(c, false);
    c->pulse_en = 0;
    c->speed_change_en = 0;
    c->spu_duration = DS2490_DEF_SPU_DURATION;
    c->pp_duration = DS2490_DEF_PP_DURATION;
    c->slew = DS2490_DEF_SLEW;
    c->write1_low = DS2490_DEF_WRITE1_LOW;
    c->dsow0_trec = DS2490_DEF_DSOW0_TREC;
    ds2490_set_speed(c, DS2490_SPEED_REGULAR);

    c->ep0f = false;
    c->halted = false;
    c->halt_pending = false;
    c->exec_running = false;
    ds2490_flush_cmdq(c);
    ds2490_flush_ep2(c);
    ds2490_flush_ep3(c);
    c->results_head = 0;
    c->results_count = 0;

    c->active = false;
    ds2490_faults_unwedge(c->faults);
    c->cmd_kind = DS2490_KIND_NONE;
    c->cmd_phase = DS2490_PH_START;
    c->cmd_result = 0;
    c->cmd_value = 0;
    c->cmd_index = 0;
    c->cmd_remaining = 0;
    c->cmd_aux = 0;

    c->search_path = 0;
    c->search_disc = 0;
    c->search_found = 0;
    c->search_limit = 0;
    c->search_first_pass = false;

    c->io_wait = false;
    c->spu_infinite = false;
    c->cmd_start_ns = 0;
    c->spu_end_ns = 0;
}

/* the host gave up on a command a fault plan wedged: it ends, no result */
static void ds2490_end_wedge(DS2490Core *c)
{
    if (ds2490_faults_unwedge(c->faults) && c->active) {
        c->active = false;
        c->cmd_phase = DS2490_PH_START;
        c->spu_infinite = false;
    }
}

/* both end an infinite pulse; HALT_EXE_IDLE (@at_once) any pulse */
static void ds2490_halt(DS2490Core *c, bool at_once)
{
    ds2490_end_wedge(c);
    if (c->active && c->cmd_phase == DS2490_PH_SPU &&
        (at_once || c->spu_infinite)) {
        ds2490_finish(c, NULL);
    } else if (c->active && c->cmd_kind == DS2490_KIND_RESET &&
               (ds2490_flags(c) & DS2490_COMM_RTS)) {
        /* PST would retry forever */
        c->cmd_result |= DS2490_RR_NRS;
        ds2490_finish(c, NULL);
    }
    if (c->active) {
        c->halt_pending = true;
    } else {
        c->halted = true;
    }
}

static int ds2490_control(DS2490Core *c, uint16_t value)
{
    switch (value) {
    case DS2490_CTL_RESET_DEVICE:
        ds2490_reset_device(c);
        break;
    case DS2490_CTL_START_EXE:
        c->exec_running = true;
        break;
    case DS2490_CTL_RESUME_EXE:
        c->halted = false;
        c->halt_pending = false;
        break;
    case DS2490_CTL_HALT_EXE_IDLE:
        ds2490_halt(c, true);
        break;
    case DS2490_CTL_HALT_EXE_DONE:
        ds2490_halt(c, false);
        break;
    case DS2490_CTL_FLUSH_COMM_CMDS:
        ds2490_end_wedge(c);
        ds2490_flush_cmdq(c);
        break;
    case DS2490_CTL_FLUSH_RCV_BUFFER:
        ds2490_flush_ep3(c);
        break;
    case DS2490_CTL_FLUSH_XMT_BUFFER:
        ds2490_flush_ep2(c);
        break;
    default:                    /* incl. GET_COMM_CMDS without IN stage */
        ds2490_guest_error(c, "CONTROL: unsupported command %s 0x%04x",
                           ds2490_cmdname(DS2490_REQ_CONTROL, value), value);
        return -1;
    }
    return 0;
}

static int ds2490_mode(DS2490Core *c, uint16_t value, uint16_t index)
{
    uint8_t v = index & 0xff;

    switch (value) {
    case DS2490_MOD_PULSE_EN:
        c->pulse_en = v & (DS2490_PULSE_PROG | DS2490_PULSE_SPUE);
        break;
    case DS2490_MOD_SPEED_CHANGE_EN:
        c->speed_change_en = v != 0;
        break;
    case DS2490_MOD_1WIRE_SPEED:
        ds2490_set_speed(c, v);
        break;
    case DS2490_MOD_STRONG_PU_DUR:
        c->spu_duration = v;
        break;
    case DS2490_MOD_PULLDOWN_SLEW:
        c->slew = v & 7;
        break;
    case DS2490_MOD_PROG_PULSE_DUR:
        c->pp_duration = v;
        break;
    case DS2490_MOD_WRITE1_LOWTIME:
        c->write1_low = v & 7;
        break;
    case DS2490_MOD_DSOW0_TREC:
        c->dsow0_trec = v & 7;
        break;
    default:
        ds2490_guest_error(c, "MODE: unknown register 0x%04x (value 0x%02x)",
                           value, v);
        return -1;
    }
    return 0;
}

static int ds2490_comm(DS2490Core *c, uint16_t value, uint16_t index)
{
    const DS2490CommInfo *ci;
    uint8_t size, slot;

    if (!ds2490_decode(value, &ci)) {
        ds2490_guest_error(c, "COMM: unknown command 0x%04x (code 0x%x, "
                           "index 0x%04x)", value, (value >> 4) & 0xf, index);
        return -1;
    }
    size = 2 + ci->params;
    if (c->cmdq_len >= DS2490_CMD_FIFO_SLOTS ||
        c->cmdq_bytes + size > DS2490_CMD_FIFO_SIZE) {
        /* the chip drops the setup packet and flags EP0F */
        ds2490_guest_error(c, "COMM: command FIFO full (%u commands, %u "
                           "bytes): %s 0x%04x dropped", c->cmdq_len,
                           c->cmdq_bytes, ds2490_cmdname(DS2490_REQ_COMM,
                                                         value), value);
        c->ep0f = true;
        c->cmds_dropped++;
        return 0;
    }
    /* only the parameter bytes the command has are kept */
    if (ci->params == 0) {
        index = 0;
    } else if (ci->params == 1) {
        index &= 0xff;
    }
    slot = (c->cmdq_head + c->cmdq_len) % DS2490_CMD_FIFO_SLOTS;
    c->cmdq_value[slot] = value;
    c->cmdq_index[slot] = index;
    c->cmdq_len++;
    c->cmdq_bytes += size;
    if (value & DS2490_COMM_IM) {
        c->exec_running = true;
    }
    return 0;
}

/* ---- public entry points ---- */

void ds2490_init(DS2490Core *c, const DS2490BusOps *ops, void *bus,
                 int64_t (*now_ns)(void *opaque), void *clock_opaque)
{
    memset(c, 0, sizeof(*c));
    c->ops = ops;
    c->bus = bus;
    c->now_ns = now_ns;
    c->clock_opaque = clock_opaque;
    c->timing = DS2490_TIMING_INSTANT;
    c->strict_fifo = true;
    c->search_rts_data = true;
    c->search_eos = false;
    c->detect_byte = true;
    c->pmod = false;
    ds2490_power_on(c);
}

void ds2490_power_on(DS2490Core *c)
{
    ds2490_reset_device(c);
    c->ep3_nak_pending = false;
    c->t_cursor = 0;
}

int ds2490_vendor_out(DS2490Core *c, uint8_t request, uint16_t value,
                      uint16_t index)
{
    int ret;

    if (ds2490_faults_stall(c->faults)) {
        return -1;              /* refused before the chip looks at it */
    }
    /* finish what is due under the old settings first */
    ds2490_run(c);
    switch (request) {
    case DS2490_REQ_CONTROL:
        ret = ds2490_control(c, value);
        break;
    case DS2490_REQ_COMM:
        ret = ds2490_comm(c, value, index);
        break;
    case DS2490_REQ_MODE:
        ret = ds2490_mode(c, value, index);
        break;
    default:
        ds2490_guest_error(c, "unknown vendor request 0x%02x (value 0x%04x)",
                           request, value);
        return -1;
    }
    ds2490_run(c);
    return ret;
}

int ds2490_vendor_in(DS2490Core *c, uint8_t request, uint16_t value,
                     uint16_t index, uint8_t *buf, int max)
{
    int n = 0;

    (void)index;
    if (ds2490_faults_stall(c->faults)) {
        return -1;
    }
    if (request != DS2490_REQ_CONTROL || value != DS2490_CTL_GET_COMM_CMDS) {
        ds2490_guest_error(c, "IN vendor request 0x%02x: unsupported %s "
                           "0x%04x (only GET_COMM_CMDS reads)", request,
                           ds2490_cmdname(request, value), value);
        return -1;
    }
    if (!buf) {
        return 0;
    }
    /* whole commands only, removed as they are handed out */
    while (c->cmdq_len > 0) {
        uint8_t slot = c->cmdq_head % DS2490_CMD_FIFO_SLOTS;
        uint16_t v = c->cmdq_value[slot];
        uint16_t i = c->cmdq_index[slot];
        int size = ds2490_cmd_size(v);

        if (n + size > max) {
            break;
        }
        buf[n] = v & 0xff;
        buf[n + 1] = v >> 8;
        if (size > 2) {
            buf[n + 2] = i & 0xff;
        }
        if (size > 3) {
            buf[n + 3] = i >> 8;
        }
        n += size;
        ds2490_cmdq_pop(c);
    }
    return n;
}

bool ds2490_is_idle(const DS2490Core *c)
{
    return !c->active &&
           (c->cmdq_len == 0 || !c->exec_running || c->halted);
}

int ds2490_status(DS2490Core *c, uint8_t *buf, int max)
{
    uint8_t st[DS2490_STATUS_MAX];
    int n, nres = 0;
    int i;

    ds2490_run(c);
    if (!buf || max <= 0) {
        return 0;
    }
    memset(st, 0, sizeof(st));
    /* byte 0 uses its own bit order: SPUE 0x01, PRGE 0x02, SPCE 0x04 */
    if (c->pulse_en & DS2490_PULSE_SPUE) {
        st[0] |= DS2490_EN_SPUE;
    }
    if (c->pulse_en & DS2490_PULSE_PROG) {
        st[0] |= DS2490_EN_PRGE;
    }
    if (c->speed_change_en) {
        st[0] |= DS2490_EN_SPCE;
    }
    st[1] = c->speed;
    st[2] = c->spu_duration;
    st[3] = c->pp_duration;
    st[4] = c->slew;
    st[5] = c->write1_low;
    st[6] = c->dsow0_trec;
    st[8] = (c->spua ? DS2490_ST_SPUA : 0) |
            (c->pmod ? DS2490_ST_PMOD : 0) |
            (c->halted ? DS2490_ST_HALT : 0) |
            (ds2490_is_idle(c) ? DS2490_ST_IDLE : 0) |
            (c->ep0f ? DS2490_ST_EP0F : 0);
    /* a real DS9490R keeps showing the last command when idle */
    st[9] = c->cmd_value & 0xff;
    st[10] = c->cmd_value >> 8;
    st[11] = c->cmdq_bytes;
    st[12] = c->ep2_count;
    st[13] = c->ep3_count;

    n = max < DS2490_STATUS_SIZE ? max : DS2490_STATUS_SIZE;
    /* a packet a fault plan cut short carries no result bytes */
    n = ds2490_faults_ep1_length(c->faults, n);
    if (n == DS2490_STATUS_SIZE && max > DS2490_STATUS_SIZE) {
        nres = max - DS2490_STATUS_SIZE;
        if (nres > c->results_count) {
            nres = c->results_count;
        }
        if (nres > DS2490_RESULT_SIZE) {
            nres = DS2490_RESULT_SIZE;
        }
    }
    for (i = 0; i < nres; i++) {
        st[DS2490_STATUS_SIZE + i] = ds2490_result_pop(c);
    }
    memcpy(buf, st, n + nres);
    return n + nres;
}

int ds2490_ep2_space(const DS2490Core *c)
{
    return DS2490_EP2_SIZE - c->ep2_count;
}

int ds2490_ep2_write(DS2490Core *c, const uint8_t *buf, int len)
{
    int space = ds2490_ep2_space(c);
    int i;

    if (len < 0 || (len > 0 && !buf)) {
        return -1;
    }
    if (len == 0) {
        return 0;
    }
    if (ds2490_faults_ep2_nak(c->faults)) {
        return -1;
    }
    if (len > space) {
        if (c->strict_fifo || space <= 0) {
            return -1;
        }
        len = space;
    }
    for (i = 0; i < len; i++) {
        ds2490_ep2_push(c, buf[i]);
    }
    ds2490_run(c);
    return len;
}

int ds2490_ep3_read(DS2490Core *c, uint8_t *buf, int max)
{
    int n, i;

    ds2490_run(c);
    if (c->ep3_count == 0) {
        c->ep3_nak_pending = true;
        return -1;
    }
    if (!buf || max <= 0) {
        return 0;
    }
    /* the chip fails short reads; we hand out what fits, keep the rest */
    n = c->ep3_count < max ? c->ep3_count : max;
    /* a fault plan may NAK anyway, or end the transfer early */
    n = ds2490_faults_ep3_read(c->faults, n);
    if (n < 0) {
        c->ep3_nak_pending = true;
        return -1;
    }
    for (i = 0; i < n; i++) {
        buf[i] = ds2490_ep3_pop(c);
    }
    /* room in EP3 resumes a paused search or block */
    ds2490_run(c);
    return n;
}

bool ds2490_ep3_became_ready(DS2490Core *c)
{
    if (c->ep3_nak_pending && c->ep3_count > 0) {
        c->ep3_nak_pending = false;
        return true;
    }
    return false;
}

void ds2490_queue_detect(DS2490Core *c)
{
    if (c->detect_byte) {
        ds2490_result_push(c, DS2490_RR_DETECT);
    }
}

bool ds2490_state_valid(const DS2490Core *c)
{
    return c->ep2_head < DS2490_EP2_SIZE &&
           c->ep2_count <= DS2490_EP2_SIZE &&
           c->ep3_head < DS2490_EP3_SIZE &&
           c->ep3_count <= DS2490_EP3_SIZE &&
           c->results_head < DS2490_RESULT_SIZE &&
           c->results_count <= DS2490_RESULT_SIZE &&
           c->cmdq_head < DS2490_CMD_FIFO_SLOTS &&
           c->cmdq_len <= DS2490_CMD_FIFO_SLOTS &&
           c->cmdq_bytes <= DS2490_CMD_FIFO_SIZE &&
           c->cmd_kind <= DS2490_KIND_UNIMP &&
           c->cmd_phase <= DS2490_PH_SPU &&
           c->speed <= DS2490_SPEED_OVERDRIVE &&
           c->search_limit <= DS2490_SEARCH_CAP &&
           (c->timing == DS2490_TIMING_INSTANT ||
            c->timing == DS2490_TIMING_REALTIME);
}
