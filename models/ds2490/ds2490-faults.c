/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans for the DS2490 engine (ds2490-faults.h): the table of fault
 * kinds and events, and the hooks the engine calls.  The text formats and
 * the generator are models/faultplan's, shared with the other devices.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <string.h>

#include "ds2490-core.h"
#include "ds2490-faults.h"
#include "faultplan.h"
#include "onewire.h"

/* the one table of kinds: parser, formatter, trace (docs: keep in step) */
static const FaultPlanKind ds2490_fault_kinds[DS2490_FAULT_KINDS] = {
    [DS2490_FAULT_EP1_SHORT] = {
        "ep1-short", DS2490_EVENT_EP1,
        "the status packet is cut to 0-15 bytes; its result bytes stay "
        "queued",
    },
    [DS2490_FAULT_EP2_NAK] = {
        "ep2-nak", DS2490_EVENT_EP2,
        "a bulk OUT packet is NAKed once",
    },
    [DS2490_FAULT_EP3_NAK] = {
        "ep3-nak", DS2490_EVENT_EP3,
        "a bulk IN read is NAKed although data is ready",
    },
    [DS2490_FAULT_EP3_SHORT] = {
        "ep3-short", DS2490_EVENT_EP3,
        "a bulk IN read ends with a short (or zero-length) packet; the "
        "rest stays queued",
    },
    [DS2490_FAULT_STALL] = {
        "stall", DS2490_EVENT_VENDOR,
        "a vendor request is STALLed and not executed",
    },
    [DS2490_FAULT_RESULT_NRS] = {
        "result-nrs", DS2490_EVENT_COMM,
        "the command's result gets NRS (no presence)",
    },
    [DS2490_FAULT_RESULT_SH] = {
        "result-sh", DS2490_EVENT_COMM,
        "the command's result gets SH (short)",
    },
    [DS2490_FAULT_RESULT_APP] = {
        "result-app", DS2490_EVENT_COMM,
        "the command's result gets APP (alarming presence)",
    },
    [DS2490_FAULT_RESULT_CMP] = {
        "result-cmp", DS2490_EVENT_COMM,
        "the command's result gets CMP (compare error)",
    },
    [DS2490_FAULT_RESULT_CRC] = {
        "result-crc", DS2490_EVENT_COMM,
        "the command's result gets CRC (CRC error)",
    },
    [DS2490_FAULT_NEVER_IDLE] = {
        "never-idle", DS2490_EVENT_COMM,
        "the command never completes, until CTL_RESET_DEVICE, a HALT or "
        "FLUSH_COMM_CMDS",
    },
    [DS2490_FAULT_NO_PRESENCE] = {
        "no-presence", DS2490_EVENT_RESET,
        "a 1-Wire reset sees no presence pulse (NRS)",
    },
    [DS2490_FAULT_SEARCH_OTHER] = {
        "search-other", DS2490_EVENT_SEARCH,
        "a search pass reports the id found with one serial bit flipped "
        "and a valid CRC",
    },
    [DS2490_FAULT_BIT_FLIP] = {
        "bit-flip", DS2490_EVENT_BYTE,
        "a byte read from the bus has one bit flipped",
    },
    [DS2490_FAULT_UNPLUG] = {
        "unplug", DS2490_EVENT_VENDOR,
        "the device drops off the USB bus after the transfer in progress "
        "(scripted: at the event named; random: at a vendor request)",
    },
    [DS2490_FAULT_STD_STALL] = {
        "std-stall", DS2490_EVENT_STD,
        "a standard request (SET_CONFIGURATION, SET_INTERFACE, "
        "GET_DESCRIPTOR ...) is STALLed and not executed",
    },
};

/* the RR_* bit a result-* kind puts into the command's result */
static const uint8_t ds2490_fault_result[DS2490_FAULT_KINDS] = {
    [DS2490_FAULT_RESULT_NRS] = DS2490_RR_NRS,
    [DS2490_FAULT_RESULT_SH] = DS2490_RR_SH,
    [DS2490_FAULT_RESULT_APP] = DS2490_RR_APP,
    [DS2490_FAULT_RESULT_CMP] = DS2490_RR_CMP,
    [DS2490_FAULT_RESULT_CRC] = DS2490_RR_CRC,
};

static const char *const ds2490_event_names[DS2490_FAULT_EVENTS] = {
    [DS2490_EVENT_EP1] = "ep1",
    [DS2490_EVENT_EP2] = "ep2",
    [DS2490_EVENT_EP3] = "ep3",
    [DS2490_EVENT_VENDOR] = "vendor",
    [DS2490_EVENT_COMM] = "comm",
    [DS2490_EVENT_RESET] = "reset",
    [DS2490_EVENT_SEARCH] = "search",
    [DS2490_EVENT_BYTE] = "byte",
    [DS2490_EVENT_STD] = "std",
};

/* what models/faultplan parses and formats for this device */
static const FaultPlanTable ds2490_fault_table = {
    .kinds = ds2490_fault_kinds,
    .nkinds = DS2490_FAULT_KINDS,
    .events = ds2490_event_names,
    .nevents = DS2490_FAULT_EVENTS,
    .script_max = DS2490_FAULT_SCRIPT_MAX,
};

const char *ds2490_fault_name(DS2490FaultKind kind)
{
    return faultplan_kind_name(&ds2490_fault_table, kind);
}

const char *ds2490_fault_description(DS2490FaultKind kind)
{
    return faultplan_kind_description(&ds2490_fault_table, kind);
}

DS2490FaultEvent ds2490_fault_event(DS2490FaultKind kind)
{
    return faultplan_kind_event(&ds2490_fault_table, kind);
}

const char *ds2490_fault_event_name(DS2490FaultEvent event)
{
    return faultplan_event_name(&ds2490_fault_table, event);
}

const FaultPlanTable *ds2490_fault_plan_table(void)
{
    return &ds2490_fault_table;
}

/* ---- the plan ---- */

/* anything can happen: the hooks count and decide only then */
static bool ds2490_faults_planned(const DS2490Faults *f)
{
    return f && (f->script_len ||
                 faultplan_random_set(&ds2490_fault_table, f->permille));
}

/* a new plan: events count from here, the generator starts from the seed */
static void ds2490_faults_restart(DS2490Faults *f)
{
    f->prng = f->seed;
    memset(f->events, 0, sizeof(f->events));
    memset(f->injected, 0, sizeof(f->injected));
    memset(f->pending, 0, sizeof(f->pending));
    f->ep3_cut = false;
}

void ds2490_faults_init(DS2490Faults *f)
{
    memset(f, 0, sizeof(*f));
}

int ds2490_faults_set_random(DS2490Faults *f, const char *text,
                             char *err, size_t errlen)
{
    if (faultplan_parse_random(&ds2490_fault_table, text, &f->seed,
                               f->permille, err, errlen) < 0) {
        return -1;
    }
    ds2490_faults_restart(f);
    return 0;
}

int ds2490_faults_set_script(DS2490Faults *f, const char *text,
                             char *err, size_t errlen)
{
    int n = faultplan_parse_script(&ds2490_fault_table, text,
                                   f->script_event, f->script_kind,
                                   f->script_n, err, errlen);

    if (n < 0) {
        return -1;
    }
    f->script_len = n;
    ds2490_faults_restart(f);
    return 0;
}

void ds2490_faults_format_random(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    static const uint16_t none[DS2490_FAULT_KINDS];

    faultplan_format_random(&ds2490_fault_table, f ? f->seed : 0,
                            f ? f->permille : none, buf, size);
}

void ds2490_faults_format_script(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    faultplan_format_script(&ds2490_fault_table, f ? f->script_len : 0,
                            f ? f->script_event : NULL,
                            f ? f->script_kind : NULL,
                            f ? f->script_n : NULL, buf, size);
}

void ds2490_faults_format_counts(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    static const uint32_t none[DS2490_FAULT_KINDS];

    faultplan_format_counts(&ds2490_fault_table, f ? f->injected : none,
                            buf, size);
}

void ds2490_faults_format_events(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    static const uint32_t none[DS2490_FAULT_EVENTS];

    faultplan_format_events(&ds2490_fault_table, f ? f->events : none, buf,
                            size);
}

bool ds2490_faults_in_use(const DS2490Faults *f)
{
    return f && (ds2490_faults_planned(f) || f->seed || f->wedged);
}

bool ds2490_faults_valid(const DS2490Faults *f)
{
    return faultplan_valid(&ds2490_fault_table, f->permille, f->script_len,
                           f->script_event, f->script_kind, f->script_n);
}

bool ds2490_faults_ep3_cut_short(const DS2490Faults *f)
{
    return f && f->ep3_cut;
}

/* ---- deciding ---- */

/* 0 .. bound - 1, from the plan's generator */
static uint32_t ds2490_faults_below(DS2490Faults *f, uint32_t bound)
{
    return faultplan_below(&f->prng, bound);
}

static void ds2490_faults_notify(DS2490Faults *f, DS2490FaultKind kind,
                                 DS2490FaultEvent event)
{
    if (f->notify) {
        f->notify(f->notify_opaque, kind, event, f->events[event]);
    }
}

/* the Nth @event happened: script entries due now become pending */
static void ds2490_faults_count(DS2490Faults *f, DS2490FaultEvent event)
{
    if (f->events[event] == UINT32_MAX) {
        return;                 /* saturated: no entry is due twice */
    }
    f->events[event]++;
    faultplan_script_due(&ds2490_fault_table, f->script_len,
                         f->script_event, f->script_kind, f->script_n,
                         event, f->events[event], f->pending);
    /* a scripted unplug happens in the event it names, not at its own */
    if (f->pending[DS2490_FAULT_UNPLUG]) {
        f->pending[DS2490_FAULT_UNPLUG] = false;
        if (f->injected[DS2490_FAULT_UNPLUG] < UINT32_MAX) {
            f->injected[DS2490_FAULT_UNPLUG]++;
        }
        ds2490_faults_notify(f, DS2490_FAULT_UNPLUG, event);
    }
}

/* does @kind happen now, at its own event (faultplan_happens())? */
static bool ds2490_faults_happens(DS2490Faults *f, DS2490FaultKind kind)
{
    DS2490FaultEvent event = ds2490_fault_kinds[kind].event;

    if (!faultplan_happens(&f->prng, f->permille[kind], &f->pending[kind],
                           &f->injected[kind])) {
        return false;
    }
    ds2490_faults_notify(f, kind, event);
    return true;
}

/* ---- hooks ---- */

bool ds2490_faults_stall(DS2490Faults *f)
{
    if (!f) {
        return false;
    }
    ds2490_faults_count(f, DS2490_EVENT_VENDOR);
    if (!ds2490_faults_planned(f)) {
        return false;
    }
    /* at random: the request in progress completes, then the device goes */
    ds2490_faults_happens(f, DS2490_FAULT_UNPLUG);
    return ds2490_faults_happens(f, DS2490_FAULT_STALL);
}

bool ds2490_faults_std_stall(DS2490Faults *f)
{
    if (!f) {
        return false;
    }
    ds2490_faults_count(f, DS2490_EVENT_STD);
    if (!ds2490_faults_planned(f)) {
        return false;
    }
    return ds2490_faults_happens(f, DS2490_FAULT_STD_STALL);
}

bool ds2490_faults_ep2_nak(DS2490Faults *f)
{
    if (!f) {
        return false;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP2);
    if (!ds2490_faults_planned(f)) {
        return false;
    }
    return ds2490_faults_happens(f, DS2490_FAULT_EP2_NAK);
}

int ds2490_faults_ep3_read(DS2490Faults *f, int ready)
{
    if (f) {
        f->ep3_cut = false;
    }
    if (!f || ready <= 0) {
        return ready;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP3);
    if (!ds2490_faults_planned(f)) {
        return ready;
    }
    /* a NAKed read has nothing to cut: a due ep3-short takes the next one */
    if (ds2490_faults_happens(f, DS2490_FAULT_EP3_NAK)) {
        return -1;
    }
    if (ds2490_faults_happens(f, DS2490_FAULT_EP3_SHORT)) {
        f->ep3_cut = true;
        return ds2490_faults_below(f, ready);   /* 0 is a zero-length packet */
    }
    return ready;
}

int ds2490_faults_ep1_length(DS2490Faults *f, int len)
{
    if (!f || len <= 0) {
        return len;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP1);
    if (!ds2490_faults_planned(f)) {
        return len;
    }
    if (ds2490_faults_happens(f, DS2490_FAULT_EP1_SHORT)) {
        return ds2490_faults_below(f, len);
    }
    return len;
}

uint8_t ds2490_faults_command_start(DS2490Faults *f)
{
    uint8_t result = 0;
    int k;

    if (!f) {
        return 0;
    }
    /* only the command that was wedged can be; a new one starts clean */
    f->wedged = false;
    if (!f) {
        return 0;
    }
    ds2490_faults_count(f, DS2490_EVENT_COMM);
    if (!ds2490_faults_planned(f)) {
        return 0;
    }
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (ds2490_fault_result[k] && ds2490_faults_happens(f, k)) {
            result |= ds2490_fault_result[k];
        }
    }
    f->wedged = ds2490_faults_happens(f, DS2490_FAULT_NEVER_IDLE);
    return result;
}

bool ds2490_faults_wedged(const DS2490Faults *f)
{
    return f && f->wedged;
}

bool ds2490_faults_unwedge(DS2490Faults *f)
{
    bool was = ds2490_faults_wedged(f);

    if (f) {
        f->wedged = false;
    }
    return was;
}

uint8_t ds2490_faults_bus_reset(DS2490Faults *f, uint8_t result)
{
    if (!f) {
        return result;
    }
    ds2490_faults_count(f, DS2490_EVENT_RESET);
    if (!ds2490_faults_planned(f)) {
        return result;
    }
    /*
     * The pulse reached the slaves; the chip missed their answer.  A bus
     * that already failed (NRS, SH) reports what it reported.
     */
    if (ds2490_faults_happens(f, DS2490_FAULT_NO_PRESENCE) && result == 0) {
        return DS2490_RR_NRS;
    }
    return result;
}

uint8_t ds2490_faults_bus_byte(DS2490Faults *f, uint8_t byte)
{
    if (!f) {
        return byte;
    }
    ds2490_faults_count(f, DS2490_EVENT_BYTE);
    if (!ds2490_faults_planned(f)) {
        return byte;
    }
    if (ds2490_faults_happens(f, DS2490_FAULT_BIT_FLIP)) {
        byte ^= 1u << ds2490_faults_below(f, 8);
    }
    return byte;
}

uint64_t ds2490_faults_search_id(DS2490Faults *f, uint64_t rom)
{
    uint8_t b[OW_ROM_LEN];

    if (!f) {
        return rom;
    }
    ds2490_faults_count(f, DS2490_EVENT_SEARCH);
    if (!ds2490_faults_planned(f)) {
        return rom;
    }
    if (!ds2490_faults_happens(f, DS2490_FAULT_SEARCH_OTHER)) {
        return rom;
    }
    /*
     * A device that is not there: one bit of the 48-bit serial (ROM bits
     * 8-55) flipped, the family kept and the CRC made valid, so that it
     * passes the CRC check and reaches the family driver.
     */
    ow_rom_from_u64(rom ^ 1ULL << (8 + ds2490_faults_below(f, 48)), b);
    ow_rom_set_crc(b);
    return ow_rom_to_u64(b);
}
