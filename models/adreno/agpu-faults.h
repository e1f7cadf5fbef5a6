/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans for the agpu core: what a real a2xx GPU can do to its
 * driver (a stuck interrupt, status bits nothing caused, a CP that stops,
 * a read pointer that jumps, a page fault on a mapped page, a soft reset
 * that takes too long, a stale register read), at chosen or random
 * moments.  The formats are the DS2490's (models/faultplan):
 *
 *   random    "seed=42,irq-storm=20,mmu-fault=5": each fault kind happens
 *             at its own event with a probability in per mille;
 *   scripted  "submit:5:cp-stall;irq:12:spurious-cp": at the Nth EVENT
 *             (1-based) the fault happens; when EVENT is not the kind's
 *             own event, the fault waits for the next one of those.
 * Events are counted from the moment a plan is set; setting either part
 * of the plan (even to the same text) restarts the counters, the pending
 * script faults and the generator.  The same seed, script and sequence of
 * register accesses give the same faults.
 *
 * The core reaches the plan through AGpuCore.faults (NULL: no faults) and
 * calls one hook per site; an empty plan changes nothing and counts
 * nothing.  While a plan is set, agpu_reg_read() counts the guest's reads
 * (events "read" and "rptr") and may draw from the generator: reads then
 * have side effects, which they never have without a plan.  The state is
 * plain data, so the glue migrates it with VMState; all-zero is the empty
 * plan.  docs/devices/agpu.md ("Fault plans") has the table of kinds and
 * why a real a2xx can do each.
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef AGPU_FAULTS_H
#define AGPU_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* where faults happen; the script counts them ("submit:5:...") */
typedef enum AGpuFaultEvent {
    AGPU_FAULT_EV_SUBMIT,   /* CP_RB_WPTR writes that queue new work */
    AGPU_FAULT_EV_IRQ,      /* rises of the interrupt line */
    AGPU_FAULT_EV_ACK,      /* ack writes that clear a pending status bit */
    AGPU_FAULT_EV_RESET,    /* RBBM_SOFT_RESET writes with bit 0 (the CP) */
    AGPU_FAULT_EV_READ,     /* register reads by the guest */
    AGPU_FAULT_EV_RPTR,     /* CP_RB_RPTR reads, RPTR shadow write-backs */
    AGPU_FAULT_EV_MMU,      /* gpummu translations of a mapped page */
    AGPU_FAULT_EVENTS
} AGpuFaultEvent;

/* the kinds, in the order of the table in agpu-faults.c and the docs */
typedef enum AGpuFaultKind {
    AGPU_FAULT_IRQ_STORM,       /* acked status bits latch again */
    AGPU_FAULT_SPURIOUS_RBBM,   /* RBBM_INT_STATUS RDERR, no cause */
    AGPU_FAULT_SPURIOUS_CP,     /* a CP_INT_STATUS error bit, no cause */
    AGPU_FAULT_SPURIOUS_MH,     /* an MH AXI error bit, no cause */
    AGPU_FAULT_CP_STALL,        /* the CP hangs at the start of a submit */
    AGPU_FAULT_RPTR_JUMP,       /* the RPTR reported is another index */
    AGPU_FAULT_MMU_FAULT,       /* a page fault on a mapped page */
    AGPU_FAULT_RESET_SLOW,      /* a soft reset stays busy for 2 s */
    AGPU_FAULT_STALE_READ,      /* a read returns the value before a write */
    AGPU_FAULT_KINDS
} AGpuFaultKind;

#define AGPU_FAULT_SCRIPT_MAX       16      /* script entries */
#define AGPU_FAULT_PERMILLE         1000    /* "always" */
#define AGPU_FAULTS_TEXT_MAX        1024    /* a formatted plan, with NUL */
#define AGPU_FAULTS_ERROR_MAX       320     /* a parse error, with NUL */

/* register writes stale-read remembers: a read may overtake these */
#define AGPU_FAULT_STALE_WRITES     8

/*
 * agpu_run() calls a reset-slow reset stays busy for: the glue polls a
 * CP that waits every 100 us of virtual time, so 2 s; the driver gives
 * up after 1 s (spin_until() in adreno_idle() and a2xx_idle()).
 */
#define AGPU_FAULT_RESET_SLOW_POLLS 20000

/* the three interrupt blocks' status or mask registers */
typedef struct AGpuIrqBits {
    uint32_t cp;                /* CP_INT_STATUS / CP_INT_CNTL */
    uint32_t mh;                /* MH_INTERRUPT_STATUS / _MASK */
    uint32_t rbbm;              /* RBBM_INT_STATUS / RBBM_INT_CNTL */
} AGpuIrqBits;

typedef struct AGpuFaults AGpuFaults;

struct AGpuFaults {
    /*
     * Link, not migrated: told about every fault that happens, with the
     * count of the kind's own event (the glue traces it).  Optional.
     */
    void (*notify)(void *opaque, AGpuFaultKind kind, AGpuFaultEvent event,
                   uint32_t n);
    void *notify_opaque;

    /* the plan, as the user set it */
    uint64_t seed;
    uint16_t permille[AGPU_FAULT_KINDS];
    uint8_t script_len;
    /*
     * Script entry i: at the script_n[i]-th script_event[i], fault
     * script_kind[i].  Parallel arrays, so that VMState describes them
     * as they are.
     */
    uint8_t script_event[AGPU_FAULT_SCRIPT_MAX];
    uint8_t script_kind[AGPU_FAULT_SCRIPT_MAX];
    uint32_t script_n[AGPU_FAULT_SCRIPT_MAX];

    /* run state, restarted whenever the plan is set */
    uint64_t prng;                          /* splitmix64 state */
    uint32_t events[AGPU_FAULT_EVENTS];     /* seen (saturating) */
    uint32_t injected[AGPU_FAULT_KINDS];    /* faults that happened */
    bool pending[AGPU_FAULT_KINDS];         /* due, waiting for their event */

    /*
     * stale-read's memory, kept only while a plan is set: the last
     * writes, register (dword index) and what a read returned before it.
     * A ring: stale_next is the entry written next, stale_len <= the size.
     */
    uint32_t stale_reg[AGPU_FAULT_STALE_WRITES];
    uint32_t stale_old[AGPU_FAULT_STALE_WRITES];
    uint8_t stale_len;
    uint8_t stale_next;

    /*
     * GPU state a fault left behind, kept when the plan changes, like
     * any GPU state; a power-on reset ends it.  cp-stall: the CP hangs
     * when it reaches ring index stall_rptr (a soft reset or CP_RB_BASE
     * drops it).  reset-slow: agpu_run() calls until the CP leaves reset.
     */
    bool stall_armed;
    uint32_t stall_rptr;
    uint32_t reset_slow_left;
};

/* ---- the plan ---- */

/* the empty plan, links cleared */
void agpu_faults_init(AGpuFaults *f);

/*
 * Parse and set the random part ("seed=S,KIND=PERMILLE,...") or the
 * script ("EVENT:N:KIND;..."); "" clears that part.  Returns 0, or -1
 * with a message naming the bad item in err (if not NULL); then the
 * previous plan stays as it was.  On success the run state restarts.
 */
int agpu_faults_set_random(AGpuFaults *f, const char *text,
                           char *err, size_t errlen);
int agpu_faults_set_script(AGpuFaults *f, const char *text,
                           char *err, size_t errlen);

/*
 * The plan in canonical form (kinds in table order, zero probabilities
 * and a zero seed without faults left out; the script in its order), and
 * the injected counters ("irq-storm=3,cp-stall=1", non-zero ones only).
 * Truncated to size, always terminated; AGPU_FAULTS_TEXT_MAX fits all.
 */
void agpu_faults_format_random(const AGpuFaults *f, char *buf, size_t size);
void agpu_faults_format_script(const AGpuFaults *f, char *buf, size_t size);
void agpu_faults_format_counts(const AGpuFaults *f, char *buf, size_t size);

/* a plan is set: the hooks count events (and reads have side effects) */
bool agpu_faults_active(const AGpuFaults *f);

/* a plan or a seed is set, or a fault left state behind (VMState .needed) */
bool agpu_faults_in_use(const AGpuFaults *f);

/* sanity check of a loaded state (VMState post_load): false = reject */
bool agpu_faults_valid(const AGpuFaults *f);

/* the table: names as the parser, the trace and the docs spell them */
const char *agpu_fault_name(AGpuFaultKind kind);
const char *agpu_fault_description(AGpuFaultKind kind);
AGpuFaultEvent agpu_fault_event(AGpuFaultKind kind);
const char *agpu_fault_event_name(AGpuFaultEvent event);

/*
 * The table itself, for the checks every device's tests share
 * (models/faultplan/tests/faultplan-check.h); declared, not included,
 * so that this header still needs no faultplan.h.
 */
struct FaultPlanTable;
const struct FaultPlanTable *agpu_fault_plan_table(void);

/*
 * ---- hooks, for agpu-core.c, agpu-cp.c and agpu-mmu.c ----
 *
 * Each counts its event and says what the plan does to it; f may be NULL.
 */

/* power-on reset: the state faults left behind ends; the plan stays */
void agpu_faults_power_on(AGpuFaults *f);

/* a register write; @old is what a read returned before it (stale-read) */
void agpu_faults_write(AGpuFaults *f, uint32_t reg, uint32_t old);

/*
 * A guest read of @reg that returns @value, in a ring of @rb_size dwords:
 * the value the guest gets (rptr-jump for CP_RB_RPTR, stale-read).
 */
uint32_t agpu_faults_read(AGpuFaults *f, uint32_t reg, uint32_t value,
                          uint32_t rb_size);

/* RPTR @rptr written back to CP_RB_RPTR_ADDR: the value written */
uint32_t agpu_faults_rptr_shadow(AGpuFaults *f, uint32_t rptr,
                                 uint32_t rb_size);

/* CP_RB_WPTR moved on from @from: new work, which cp-stall may stop */
void agpu_faults_submit(AGpuFaults *f, uint32_t from);

/* the CP is about to execute the ring packet at @rptr: true = hang here */
bool agpu_faults_cp_stalls(AGpuFaults *f, uint32_t rptr);

/* the CP was reset (soft reset or CP_RB_BASE): a pending stall is gone */
void agpu_faults_cp_reset(AGpuFaults *f);

/*
 * The interrupt line rises, @enabled the three masks: the status bits a
 * spurious-* fault sets, within @enabled.
 */
AGpuIrqBits agpu_faults_irq(AGpuFaults *f, AGpuIrqBits enabled);

/* an ack cleared @cleared (non-zero) of one block: the bits set again */
uint32_t agpu_faults_ack(AGpuFaults *f, uint32_t cleared);

/* RBBM_SOFT_RESET was written with bit 0: a reset-slow may begin */
void agpu_faults_soft_reset(AGpuFaults *f);

/* a reset-slow reset is in progress: the CP is busy and does not run */
bool agpu_faults_resetting(const AGpuFaults *f);

/* one agpu_run() call during it: true while the reset goes on */
bool agpu_faults_reset_poll(AGpuFaults *f);

/* a gpummu translation of a mapped page: true = a page fault instead */
bool agpu_faults_mmu(AGpuFaults *f);

#endif /* AGPU_FAULTS_H */
