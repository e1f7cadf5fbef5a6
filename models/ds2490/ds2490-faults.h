/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans for the DS2490 engine: what the real chip, its 1-Wire bus
 * or a hostile USB device can do to a driver, at chosen or random moments.
 *
 * Two modes, which combine:
 *   random    "seed=42,ep3-short=20,result-crc=5": each fault kind happens
 *             at its own event with a probability in per mille, drawn from
 *             a splitmix64 generator started from the seed;
 *   scripted  "ep3:5:ep3-short;comm:12:never-idle": at the Nth EVENT
 *             (1-based) the fault happens; when EVENT is not the kind's
 *             own event, the fault waits for the next one of those.
 * One kind is different: "unplug" happens at the very event its script
 * entry names, whichever it is ("comm:1:unplug": as the search starts),
 * and at random at vendor requests; the glue then detaches the device
 * from its USB port after the transfer in progress.
 * Events are counted from the moment a plan is set, also an empty one
 * (fault-events: what a script's numbers count); setting either part of
 * the plan (even to the same text) restarts the counters, the pending
 * script faults and the generator.  The same seed, script and sequence of
 * host requests give the same faults.  The formats and the generator are
 * models/faultplan's, which the agpu's plans share.
 *
 * The engine reaches the plan through DS2490Core.faults (NULL: no faults)
 * and calls one hook per site (ds2490_faults_stall() ...); an empty plan
 * changes nothing, it only counts the events.  The state is plain data, like
 * DS2490Core's, so the glue migrates it with VMState; all-zero is the
 * empty plan.  docs/devices/ds2490.md ("Fault plans") has the table of
 * kinds and why each one is something hardware can do.
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef DS2490_FAULTS_H
#define DS2490_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* where faults happen; the script counts them ("ep3:5:...") */
typedef enum DS2490FaultEvent {
    DS2490_EVENT_EP1,       /* EP1 status reads */
    DS2490_EVENT_EP2,       /* EP2 bulk OUT writes (non-empty) */
    DS2490_EVENT_EP3,       /* EP3 bulk IN reads that find data */
    DS2490_EVENT_VENDOR,    /* vendor requests: CONTROL, COMM, MODE, IN */
    DS2490_EVENT_COMM,      /* COMM commands started (left the FIFO) */
    DS2490_EVENT_RESET,     /* 1-Wire reset pulses, incl. RST and search */
    DS2490_EVENT_SEARCH,    /* search passes that found an id */
    DS2490_EVENT_BYTE,      /* data bytes read from the bus */
    DS2490_EVENT_STD,       /* standard control requests (USB chapter 9) */
    DS2490_FAULT_EVENTS
} DS2490FaultEvent;

/* the kinds, in the order of the table in ds2490-faults.c and the docs */
typedef enum DS2490FaultKind {
    DS2490_FAULT_EP1_SHORT,     /* status packet of 0..15 bytes */
    DS2490_FAULT_EP2_NAK,       /* bulk OUT packet NAKed once */
    DS2490_FAULT_EP3_NAK,       /* bulk IN NAKed although data is ready */
    DS2490_FAULT_EP3_SHORT,     /* bulk IN cut short; the rest stays */
    DS2490_FAULT_STALL,         /* vendor request STALLed, not executed */
    DS2490_FAULT_RESULT_NRS,    /* result byte gets RR_NRS */
    DS2490_FAULT_RESULT_SH,     /* ... RR_SH */
    DS2490_FAULT_RESULT_APP,    /* ... RR_APP */
    DS2490_FAULT_RESULT_CMP,    /* ... RR_CMP */
    DS2490_FAULT_RESULT_CRC,    /* ... RR_CRC */
    DS2490_FAULT_NEVER_IDLE,    /* command wedged until reset/halt/flush */
    DS2490_FAULT_NO_PRESENCE,   /* 1-Wire reset sees no presence pulse */
    DS2490_FAULT_SEARCH_OTHER,  /* search pass reports a phantom id */
    DS2490_FAULT_BIT_FLIP,      /* byte read from the bus, one bit flipped */
    DS2490_FAULT_UNPLUG,        /* the device drops off the USB bus */
    DS2490_FAULT_STD_STALL,     /* a standard request STALLed */
    DS2490_FAULT_KINDS
} DS2490FaultKind;

#define DS2490_FAULT_SCRIPT_MAX     16      /* script entries */
#define DS2490_FAULT_PERMILLE       1000    /* "always" */
#define DS2490_FAULTS_TEXT_MAX      1024    /* a formatted plan, with NUL */
#define DS2490_FAULTS_ERROR_MAX     320     /* a parse error, with NUL */

typedef struct DS2490Faults DS2490Faults;

struct DS2490Faults {
    /*
     * Link, not migrated: told about every fault that happens, with the
     * count of the event it happened at (the glue traces it, schedules
     * the host's retry of a NAK and, for an unplug, detaches the device).
     * Optional.
     */
    void (*notify)(void *opaque, DS2490FaultKind kind, DS2490FaultEvent event,
                   uint32_t n);
    void *notify_opaque;

    /* the plan, as the user set it */
    uint64_t seed;
    uint16_t permille[DS2490_FAULT_KINDS];
    uint8_t script_len;
    /*
     * Script entry i: at the script_n[i]-th script_event[i], fault
     * script_kind[i].  Parallel arrays, so that VMState describes them
     * as they are.
     */
    uint8_t script_event[DS2490_FAULT_SCRIPT_MAX];
    uint8_t script_kind[DS2490_FAULT_SCRIPT_MAX];
    uint32_t script_n[DS2490_FAULT_SCRIPT_MAX];

    /* run state, restarted whenever the plan is set */
    uint64_t prng;                          /* splitmix64 state */
    uint32_t events[DS2490_FAULT_EVENTS];   /* seen (saturating) */
    uint32_t injected[DS2490_FAULT_KINDS];  /* faults that happened */
    bool pending[DS2490_FAULT_KINDS];       /* due, waiting for their event */

    /*
     * Chip state a fault left behind: the current command is wedged
     * (never-idle).  Kept when the plan changes, like any chip state;
     * CTL_RESET_DEVICE, HALT and FLUSH_COMM_CMDS end it.
     */
    bool wedged;

    /*
     * The last EP3 read was cut short: the glue ends the USB transfer
     * there.  Read in the same call, so not migrated.
     */
    bool ep3_cut;
};

/* ---- the plan ---- */

/* the empty plan, links cleared */
void ds2490_faults_init(DS2490Faults *f);

/*
 * Parse and set the random part ("seed=S,KIND=PERMILLE,...") or the
 * script ("EVENT:N:KIND;..."); "" clears that part.  Returns 0, or -1
 * with a message naming the bad item in err (if not NULL); then the
 * previous plan stays as it was.  On success the run state restarts.
 */
int ds2490_faults_set_random(DS2490Faults *f, const char *text,
                             char *err, size_t errlen);
int ds2490_faults_set_script(DS2490Faults *f, const char *text,
                             char *err, size_t errlen);

/*
 * The plan in canonical form (kinds in table order, zero probabilities
 * and a zero seed without faults left out; the script in its order), and
 * the injected counters ("ep3-short=3,stall=1", non-zero ones only).
 * Truncated to size, always terminated; DS2490_FAULTS_TEXT_MAX fits all.
 */
void ds2490_faults_format_random(const DS2490Faults *f, char *buf,
                                 size_t size);
void ds2490_faults_format_script(const DS2490Faults *f, char *buf,
                                 size_t size);
void ds2490_faults_format_counts(const DS2490Faults *f, char *buf,
                                 size_t size);
/* the events since the plan was last set: "ep1=12,ep3=2,comm=3" */
void ds2490_faults_format_events(const DS2490Faults *f, char *buf,
                                 size_t size);

/* a plan is set, or a fault left state behind (VMState .needed) */
bool ds2490_faults_in_use(const DS2490Faults *f);

/* sanity check of a loaded state (VMState post_load): false = reject */
bool ds2490_faults_valid(const DS2490Faults *f);

/* the last ds2490_ep3_read() was cut short: the USB transfer ends there */
bool ds2490_faults_ep3_cut_short(const DS2490Faults *f);

/* the table: names as the parser, the trace and the docs spell them */
const char *ds2490_fault_name(DS2490FaultKind kind);
const char *ds2490_fault_description(DS2490FaultKind kind);
DS2490FaultEvent ds2490_fault_event(DS2490FaultKind kind);
const char *ds2490_fault_event_name(DS2490FaultEvent event);

/*
 * The table itself, for the checks every device's tests share
 * (models/faultplan/tests/faultplan-check.h); declared, not included,
 * so that this header still needs no faultplan.h.
 */
struct FaultPlanTable;
const struct FaultPlanTable *ds2490_fault_plan_table(void);

/*
 * ---- hooks, for ds2490-core.c ----
 *
 * Each counts its event and says what the plan does to it; f may be NULL.
 */

/* a vendor request: true = STALL it without executing it */
bool ds2490_faults_stall(DS2490Faults *f);

/* a standard control request: true = STALL it without executing it */
bool ds2490_faults_std_stall(DS2490Faults *f);

/* a non-empty EP2 packet: true = NAK it */
bool ds2490_faults_ep2_nak(DS2490Faults *f);

/* an EP3 read that would deliver @ready (> 0) bytes: -1 = NAK, or how many */
int ds2490_faults_ep3_read(DS2490Faults *f, int ready);

/* an EP1 packet with @len (1..16) state bytes: how many to send */
int ds2490_faults_ep1_length(DS2490Faults *f, int len);

/* a command starts: the RR_* error bits its result gets (wedges it, too) */
uint8_t ds2490_faults_command_start(DS2490Faults *f);

/* the current command is wedged: the engine must not advance it */
bool ds2490_faults_wedged(const DS2490Faults *f);

/* the host reset, halted or flushed: true if a wedge ended (abort it) */
bool ds2490_faults_unwedge(DS2490Faults *f);

/* a reset pulse with @result (0, RR_NRS or RR_SH): the result reported */
uint8_t ds2490_faults_bus_reset(DS2490Faults *f, uint8_t result);

/* a data byte read from the bus: the byte the host gets */
uint8_t ds2490_faults_bus_byte(DS2490Faults *f, uint8_t byte);

/* a search pass found @rom (ROM byte 0 in bits 0-7): the id reported */
uint64_t ds2490_faults_search_id(DS2490Faults *f, uint64_t rom);

#endif /* DS2490_FAULTS_H */
