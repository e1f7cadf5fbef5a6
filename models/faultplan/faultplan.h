/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans, the part every device shares: the two text formats over a
 * device's table of fault kinds and events, and the generator that decides
 * when a random fault happens.  Used by models/ds2490 (ds2490-faults.c)
 * and models/adreno (agpu-faults.c), so that one campaign tool drives
 * every device the same way:
 *
 *   random    "seed=42,KIND=PER-MILLE,...": each kind happens at its own
 *             event with a probability in per mille, drawn from a
 *             splitmix64 generator started from the seed;
 *   scripted  "EVENT:N:KIND;...": at the Nth EVENT (1-based) the fault is
 *             due; it happens at that event, or at the next event of its
 *             own when EVENT is another one.
 *
 * Plain C, no allocation and no state of its own: the device keeps its
 * plan in its own struct, as fixed-size arrays that VMState can describe
 * (seed, permille[kinds], script_event/kind/n[script_max], prng,
 * events[events], injected[kinds], pending[kinds]), and passes them in.
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef FAULTPLAN_H
#define FAULTPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAULTPLAN_PERMILLE      1000    /* "always" */
#define FAULTPLAN_KINDS_MAX     64      /* kinds (and events) of a table */
#define FAULTPLAN_SCRIPT_MAX    64      /* the longest script a table allows */
#define FAULTPLAN_TEXT_MAX      1024    /* a list of kinds in a message */

/* one fault kind of a device */
typedef struct FaultPlanKind {
    const char *name;           /* as the formats spell it: "ep3-short" */
    uint8_t event;              /* index in FaultPlanTable.events */
    const char *description;    /* one line, for traces and help */
} FaultPlanKind;

/* a device's kinds and events, in the order of its enums */
typedef struct FaultPlanTable {
    const FaultPlanKind *kinds;
    unsigned nkinds;            /* <= FAULTPLAN_KINDS_MAX */
    const char *const *events;  /* event names: "ep3", "submit" */
    unsigned nevents;           /* <= FAULTPLAN_KINDS_MAX */
    unsigned script_max;        /* script entries, <= FAULTPLAN_SCRIPT_MAX */
} FaultPlanTable;

/* ---- the table ---- */

/* "unknown" / "" / t->nevents for an index out of range */
const char *faultplan_kind_name(const FaultPlanTable *t, unsigned kind);
const char *faultplan_kind_description(const FaultPlanTable *t,
                                       unsigned kind);
unsigned faultplan_kind_event(const FaultPlanTable *t, unsigned kind);
const char *faultplan_event_name(const FaultPlanTable *t, unsigned event);

/* ---- the text formats ---- */

/*
 * "seed=S,KIND=PER-MILLE,...": 0, with *seed and permille[t->nkinds]
 * set (kinds not named get 0, no seed is seed 0); or -1 with a message
 * naming the bad item in err (if not NULL), and nothing written.  NULL
 * or "" is the empty plan.
 */
int faultplan_parse_random(const FaultPlanTable *t, const char *text,
                           uint64_t *seed, uint16_t *permille,
                           char *err, size_t errlen);

/*
 * "EVENT:N:KIND;...": the number of entries, written to the parallel
 * arrays event[], kind[] and n[] (t->script_max each); or -1 with a
 * message in err, and nothing written.
 */
int faultplan_parse_script(const FaultPlanTable *t, const char *text,
                           uint8_t *event, uint8_t *kind, uint32_t *n,
                           char *err, size_t errlen);

/*
 * Canonical forms: kinds in table order, zero probabilities and a zero
 * seed without faults left out, the script in its order; the counts of
 * faults that happened ("ep3-short=3,stall=1", non-zero ones only).
 * Truncated to size, always terminated.
 */
void faultplan_format_random(const FaultPlanTable *t, uint64_t seed,
                             const uint16_t *permille, char *buf,
                             size_t size);
void faultplan_format_script(const FaultPlanTable *t, unsigned len,
                             const uint8_t *event, const uint8_t *kind,
                             const uint32_t *n, char *buf, size_t size);
void faultplan_format_counts(const FaultPlanTable *t,
                             const uint32_t *injected, char *buf,
                             size_t size);
/* the events seen ("ep1=12,comm=3", non-zero ones, in the table's order) */
void faultplan_format_events(const FaultPlanTable *t, const uint32_t *events,
                             char *buf, size_t size);

/* some kind has a probability */
bool faultplan_random_set(const FaultPlanTable *t, const uint16_t *permille);

/* a loaded plan is within its bounds (VMState post_load) */
bool faultplan_valid(const FaultPlanTable *t, const uint16_t *permille,
                     unsigned len, const uint8_t *event,
                     const uint8_t *kind, const uint32_t *n);

/* ---- deciding ---- */

/* splitmix64: the next 64 bits; any state, including 0, is fine */
uint64_t faultplan_next(uint64_t *prng);

/* 0 .. bound - 1 (bound > 0) */
uint32_t faultplan_below(uint64_t *prng, uint32_t bound);

/*
 * The @count-th @event happened: every script entry due now marks its
 * kind in pending[t->nkinds].
 */
void faultplan_script_due(const FaultPlanTable *t, unsigned len,
                          const uint8_t *event, const uint8_t *kind,
                          const uint32_t *n, unsigned ev, uint32_t count,
                          bool *pending);

/*
 * Does a kind happen now, at its own event?  A pending script entry
 * says yes; a kind with a probability draws either way, so that the
 * draws follow the events, not the script.  If it happens, *pending is
 * cleared and *injected counted (saturating).
 */
bool faultplan_happens(uint64_t *prng, uint16_t permille, bool *pending,
                       uint32_t *injected);

#endif /* FAULTPLAN_H */
