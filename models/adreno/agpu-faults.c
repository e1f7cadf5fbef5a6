/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans for the agpu core (agpu-faults.h): the table of fault kinds
 * and events, and the hooks the core calls.  The text formats and the
 * generator are models/faultplan's, shared with the other devices.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <string.h>

#include "agpu-core.h"
#include "agpu-faults.h"
#include "agpu-regs.h"
#include "faultplan.h"

/* the one table of kinds: parser, formatter, trace (docs: keep in step) */
static const FaultPlanKind agpu_fault_kinds[AGPU_FAULT_KINDS] = {
    [AGPU_FAULT_IRQ_STORM] = {
        "irq-storm", AGPU_FAULT_EV_ACK,
        "the status bits the driver just acknowledged latch again and the "
        "interrupt line rises again",
    },
    [AGPU_FAULT_SPURIOUS_RBBM] = {
        "spurious-rbbm", AGPU_FAULT_EV_IRQ,
        "RBBM_INT_STATUS gets RDERR with the interrupt, no read error "
        "happened",
    },
    [AGPU_FAULT_SPURIOUS_CP] = {
        "spurious-cp", AGPU_FAULT_EV_IRQ,
        "CP_INT_STATUS gets an error bit with the interrupt, no packet "
        "caused it",
    },
    [AGPU_FAULT_SPURIOUS_MH] = {
        "spurious-mh", AGPU_FAULT_EV_IRQ,
        "MH_INTERRUPT_STATUS gets an AXI error bit with the interrupt, no "
        "access failed",
    },
    [AGPU_FAULT_CP_STALL] = {
        "cp-stall", AGPU_FAULT_EV_SUBMIT,
        "the CP stops at the start of this submit (RPTR stays) until a "
        "soft reset",
    },
    [AGPU_FAULT_RPTR_JUMP] = {
        "rptr-jump", AGPU_FAULT_EV_RPTR,
        "the read pointer reported is another index within the ring",
    },
    [AGPU_FAULT_MMU_FAULT] = {
        "mmu-fault", AGPU_FAULT_EV_MMU,
        "a gpummu page fault on a mapped page: MH_MMU_PAGE_FAULT latches "
        "its VA, the access fails",
    },
    [AGPU_FAULT_RESET_SLOW] = {
        "reset-slow", AGPU_FAULT_EV_RESET,
        "the soft reset keeps the CP busy and stopped for 2 s, longer "
        "than the driver waits",
    },
    [AGPU_FAULT_STALE_READ] = {
        "stale-read", AGPU_FAULT_EV_READ,
        "a register read returns the value before the last write to it",
    },
};

static const char *const agpu_event_names[AGPU_FAULT_EVENTS] = {
    [AGPU_FAULT_EV_SUBMIT] = "submit",
    [AGPU_FAULT_EV_IRQ] = "irq",
    [AGPU_FAULT_EV_ACK] = "ack",
    [AGPU_FAULT_EV_RESET] = "reset",
    [AGPU_FAULT_EV_READ] = "read",
    [AGPU_FAULT_EV_RPTR] = "rptr",
    [AGPU_FAULT_EV_MMU] = "mmu",
};

/* what models/faultplan parses and formats for this device */
static const FaultPlanTable agpu_fault_table = {
    .kinds = agpu_fault_kinds,
    .nkinds = AGPU_FAULT_KINDS,
    .events = agpu_event_names,
    .nevents = AGPU_FAULT_EVENTS,
    .script_max = AGPU_FAULT_SCRIPT_MAX,
};

/*
 * The status bits a spurious-* fault may set: the error causes the a2xx
 * driver enables in hw_init and reports from a2xx_irq().  MH's
 * MMU_PAGE_FAULT is mmu-fault's, with a VA; RB_INT and IB1_INT are not
 * errors.
 */
static const uint32_t agpu_spurious_rbbm[] = {
    AGPU_RBBM_INT_RDERR,
};
static const uint32_t agpu_spurious_cp[] = {
    AGPU_CP_INT_T0_PACKET_IN_IB,
    AGPU_CP_INT_OPCODE_ERROR,
    AGPU_CP_INT_PROTECTED_MODE_ERROR,
    AGPU_CP_INT_RESERVED_BIT_ERROR,
    AGPU_CP_INT_IB_ERROR,
};
static const uint32_t agpu_spurious_mh[] = {
    AGPU_MH_INT_AXI_READ_ERROR,
    AGPU_MH_INT_AXI_WRITE_ERROR,
};

#define AGPU_ARRAY_SIZE(a)      (sizeof(a) / sizeof((a)[0]))

const char *agpu_fault_name(AGpuFaultKind kind)
{
    return faultplan_kind_name(&agpu_fault_table, kind);
}

const char *agpu_fault_description(AGpuFaultKind kind)
{
    return faultplan_kind_description(&agpu_fault_table, kind);
}

AGpuFaultEvent agpu_fault_event(AGpuFaultKind kind)
{
    return faultplan_kind_event(&agpu_fault_table, kind);
}

const char *agpu_fault_event_name(AGpuFaultEvent event)
{
    return faultplan_event_name(&agpu_fault_table, event);
}

const FaultPlanTable *agpu_fault_plan_table(void)
{
    return &agpu_fault_table;
}

/* ---- the plan ---- */

bool agpu_faults_active(const AGpuFaults *f)
{
    return f && (f->script_len ||
                 faultplan_random_set(&agpu_fault_table, f->permille));
}

/* a new plan: events count from here, the generator starts from the seed */
static void agpu_faults_restart(AGpuFaults *f)
{
    f->prng = f->seed;
    memset(f->events, 0, sizeof(f->events));
    memset(f->injected, 0, sizeof(f->injected));
    memset(f->pending, 0, sizeof(f->pending));
    /* writes before the plan were not recorded; do not mix them in */
    memset(f->stale_reg, 0, sizeof(f->stale_reg));
    memset(f->stale_old, 0, sizeof(f->stale_old));
    f->stale_len = 0;
    f->stale_next = 0;
}

void agpu_faults_init(AGpuFaults *f)
{
    memset(f, 0, sizeof(*f));
}

int agpu_faults_set_random(AGpuFaults *f, const char *text,
                           char *err, size_t errlen)
{
    if (faultplan_parse_random(&agpu_fault_table, text, &f->seed,
                               f->permille, err, errlen) < 0) {
        return -1;
    }
    agpu_faults_restart(f);
    return 0;
}

int agpu_faults_set_script(AGpuFaults *f, const char *text,
                           char *err, size_t errlen)
{
    int n = faultplan_parse_script(&agpu_fault_table, text, f->script_event,
                                   f->script_kind, f->script_n, err, errlen);

    if (n < 0) {
        return -1;
    }
    f->script_len = n;
    agpu_faults_restart(f);
    return 0;
}

void agpu_faults_format_random(const AGpuFaults *f, char *buf, size_t size)
{
    static const uint16_t none[AGPU_FAULT_KINDS];

    faultplan_format_random(&agpu_fault_table, f ? f->seed : 0,
                            f ? f->permille : none, buf, size);
}

void agpu_faults_format_script(const AGpuFaults *f, char *buf, size_t size)
{
    faultplan_format_script(&agpu_fault_table, f ? f->script_len : 0,
                            f ? f->script_event : NULL,
                            f ? f->script_kind : NULL,
                            f ? f->script_n : NULL, buf, size);
}

void agpu_faults_format_counts(const AGpuFaults *f, char *buf, size_t size)
{
    static const uint32_t none[AGPU_FAULT_KINDS];

    faultplan_format_counts(&agpu_fault_table, f ? f->injected : none,
                            buf, size);
}

bool agpu_faults_in_use(const AGpuFaults *f)
{
    return f && (agpu_faults_active(f) || f->seed || f->stall_armed ||
                 f->reset_slow_left);
}

bool agpu_faults_valid(const AGpuFaults *f)
{
    unsigned i;

    if (!faultplan_valid(&agpu_fault_table, f->permille, f->script_len,
                         f->script_event, f->script_kind, f->script_n)) {
        return false;
    }
    if (f->stale_len > AGPU_FAULT_STALE_WRITES ||
        f->stale_next >= AGPU_FAULT_STALE_WRITES ||
        f->reset_slow_left > AGPU_FAULT_RESET_SLOW_POLLS) {
        return false;
    }
    for (i = 0; i < f->stale_len; i++) {
        if (f->stale_reg[i] >= AGPU_NUM_REGS) {
            return false;
        }
    }
    return true;
}

/* ---- deciding ---- */

/* the Nth @event happened: script entries due now become pending */
static void agpu_faults_count(AGpuFaults *f, AGpuFaultEvent event)
{
    if (f->events[event] == UINT32_MAX) {
        return;                 /* saturated: no entry is due twice */
    }
    f->events[event]++;
    faultplan_script_due(&agpu_fault_table, f->script_len, f->script_event,
                         f->script_kind, f->script_n, event,
                         f->events[event], f->pending);
}

/* does @kind happen now, at its own event (faultplan_happens())? */
static bool agpu_faults_happens(AGpuFaults *f, AGpuFaultKind kind)
{
    AGpuFaultEvent event = agpu_fault_kinds[kind].event;

    if (!faultplan_happens(&f->prng, f->permille[kind], &f->pending[kind],
                           &f->injected[kind])) {
        return false;
    }
    if (f->notify) {
        f->notify(f->notify_opaque, kind, event, f->events[event]);
    }
    return true;
}

/*
 * A spurious-* fault: one of @bits that is @enabled, drawn from the
 * generator.  A block with none enabled cannot show one: the kind is not
 * asked, and a due script entry waits for the next interrupt.
 */
static uint32_t agpu_faults_spurious(AGpuFaults *f, AGpuFaultKind kind,
                                     const uint32_t *bits, unsigned nbits,
                                     uint32_t enabled)
{
    uint32_t can[8];
    unsigned n = 0, i;

    for (i = 0; i < nbits && n < AGPU_ARRAY_SIZE(can); i++) {
        if (bits[i] & enabled) {
            can[n++] = bits[i];
        }
    }
    if (n == 0 || !agpu_faults_happens(f, kind)) {
        return 0;
    }
    return can[faultplan_below(&f->prng, n)];
}

/* the old value stale-read would return for @reg, if a write is recorded */
static bool agpu_faults_stale_value(const AGpuFaults *f, uint32_t reg,
                                    uint32_t *old)
{
    unsigned i;

    /* newest first: the value before the last write */
    for (i = 1; i <= f->stale_len; i++) {
        unsigned e = (f->stale_next + AGPU_FAULT_STALE_WRITES - i) %
                     AGPU_FAULT_STALE_WRITES;

        if (f->stale_reg[e] == reg) {
            *old = f->stale_old[e];
            return true;
        }
    }
    return false;
}

/* a report of the read pointer: rptr-jump moves it within the ring */
static uint32_t agpu_faults_report_rptr(AGpuFaults *f, uint32_t rptr,
                                        uint32_t rb_size)
{
    agpu_faults_count(f, AGPU_FAULT_EV_RPTR);
    if (rb_size < 2 || !agpu_faults_happens(f, AGPU_FAULT_RPTR_JUMP)) {
        return rptr;
    }
    /* any other index: rb_size is a power of two */
    return (rptr + 1 + faultplan_below(&f->prng, rb_size - 1)) &
           (rb_size - 1);
}

/* ---- hooks ---- */

void agpu_faults_power_on(AGpuFaults *f)
{
    if (!f) {
        return;
    }
    f->stall_armed = false;
    f->stall_rptr = 0;
    f->reset_slow_left = 0;
    /* every register has its power-on value now */
    f->stale_len = 0;
    f->stale_next = 0;
}

void agpu_faults_write(AGpuFaults *f, uint32_t reg, uint32_t old)
{
    if (!agpu_faults_active(f)) {
        return;
    }
    f->stale_reg[f->stale_next] = reg;
    f->stale_old[f->stale_next] = old;
    f->stale_next = (f->stale_next + 1) % AGPU_FAULT_STALE_WRITES;
    if (f->stale_len < AGPU_FAULT_STALE_WRITES) {
        f->stale_len++;
    }
}

uint32_t agpu_faults_read(AGpuFaults *f, uint32_t reg, uint32_t value,
                          uint32_t rb_size)
{
    uint32_t old;

    if (!agpu_faults_active(f)) {
        return value;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_READ);
    if (reg == AGPU_REG_CP_RB_RPTR) {
        uint32_t reported = agpu_faults_report_rptr(f, value, rb_size);

        /* a jumped pointer is not also stale: a due one waits */
        if (reported != value) {
            return reported;
        }
    }
    /* only a register written lately can be stale */
    if (agpu_faults_stale_value(f, reg, &old) &&
        agpu_faults_happens(f, AGPU_FAULT_STALE_READ)) {
        return old;
    }
    return value;
}

uint32_t agpu_faults_rptr_shadow(AGpuFaults *f, uint32_t rptr,
                                 uint32_t rb_size)
{
    if (!agpu_faults_active(f)) {
        return rptr;
    }
    return agpu_faults_report_rptr(f, rptr, rb_size);
}

void agpu_faults_submit(AGpuFaults *f, uint32_t from)
{
    if (!agpu_faults_active(f)) {
        return;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_SUBMIT);
    /* one stall at a time: a due cp-stall waits for the next submit */
    if (!f->stall_armed && agpu_faults_happens(f, AGPU_FAULT_CP_STALL)) {
        f->stall_armed = true;
        f->stall_rptr = from;
    }
}

bool agpu_faults_cp_stalls(AGpuFaults *f, uint32_t rptr)
{
    if (!f || !f->stall_armed || rptr != f->stall_rptr) {
        return false;
    }
    f->stall_armed = false;
    return true;
}

void agpu_faults_cp_reset(AGpuFaults *f)
{
    if (f) {
        f->stall_armed = false;
    }
}

AGpuIrqBits agpu_faults_irq(AGpuFaults *f, AGpuIrqBits enabled)
{
    AGpuIrqBits extra = { 0, 0, 0 };

    if (!agpu_faults_active(f)) {
        return extra;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_IRQ);
    extra.rbbm = agpu_faults_spurious(f, AGPU_FAULT_SPURIOUS_RBBM,
                                      agpu_spurious_rbbm,
                                      AGPU_ARRAY_SIZE(agpu_spurious_rbbm),
                                      enabled.rbbm);
    extra.cp = agpu_faults_spurious(f, AGPU_FAULT_SPURIOUS_CP,
                                    agpu_spurious_cp,
                                    AGPU_ARRAY_SIZE(agpu_spurious_cp),
                                    enabled.cp);
    extra.mh = agpu_faults_spurious(f, AGPU_FAULT_SPURIOUS_MH,
                                    agpu_spurious_mh,
                                    AGPU_ARRAY_SIZE(agpu_spurious_mh),
                                    enabled.mh);
    return extra;
}

uint32_t agpu_faults_ack(AGpuFaults *f, uint32_t cleared)
{
    if (!agpu_faults_active(f) || !cleared) {
        return 0;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_ACK);
    return agpu_faults_happens(f, AGPU_FAULT_IRQ_STORM) ? cleared : 0;
}

void agpu_faults_soft_reset(AGpuFaults *f)
{
    if (!agpu_faults_active(f)) {
        return;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_RESET);
    /* a slow reset during a slow one starts the wait over */
    if (agpu_faults_happens(f, AGPU_FAULT_RESET_SLOW)) {
        f->reset_slow_left = AGPU_FAULT_RESET_SLOW_POLLS;
    }
}

bool agpu_faults_resetting(const AGpuFaults *f)
{
    return f && f->reset_slow_left;
}

bool agpu_faults_reset_poll(AGpuFaults *f)
{
    if (!agpu_faults_resetting(f)) {
        return false;
    }
    return --f->reset_slow_left != 0;
}

bool agpu_faults_mmu(AGpuFaults *f)
{
    if (!agpu_faults_active(f)) {
        return false;
    }
    agpu_faults_count(f, AGPU_FAULT_EV_MMU);
    return agpu_faults_happens(f, AGPU_FAULT_MMU_FAULT);
}
