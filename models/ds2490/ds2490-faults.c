/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans for the DS2490 engine (ds2490-faults.h): the table of fault
 * kinds, the text formats, a splitmix64 generator kept as plain data, and
 * the hooks the engine calls.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ds2490-core.h"
#include "ds2490-faults.h"
#include "onewire.h"

typedef struct DS2490FaultInfo {
    const char *name;
    DS2490FaultEvent event;     /* where it happens */
    uint8_t result;             /* RR_* bit of a result-* kind, else 0 */
    const char *description;
} DS2490FaultInfo;

/* the one table of kinds: parser, formatter, trace (docs: keep in step) */
static const DS2490FaultInfo ds2490_fault_info[DS2490_FAULT_KINDS] = {
    [DS2490_FAULT_EP1_SHORT] = {
        "ep1-short", DS2490_EVENT_EP1, 0,
        "the status packet is cut to 0-15 bytes; its result bytes stay "
        "queued",
    },
    [DS2490_FAULT_EP2_NAK] = {
        "ep2-nak", DS2490_EVENT_EP2, 0,
        "a bulk OUT packet is NAKed once",
    },
    [DS2490_FAULT_EP3_NAK] = {
        "ep3-nak", DS2490_EVENT_EP3, 0,
        "a bulk IN read is NAKed although data is ready",
    },
    [DS2490_FAULT_EP3_SHORT] = {
        "ep3-short", DS2490_EVENT_EP3, 0,
        "a bulk IN read ends with a short (or zero-length) packet; the "
        "rest stays queued",
    },
    [DS2490_FAULT_STALL] = {
        "stall", DS2490_EVENT_VENDOR, 0,
        "a vendor request is STALLed and not executed",
    },
    [DS2490_FAULT_RESULT_NRS] = {
        "result-nrs", DS2490_EVENT_COMM, DS2490_RR_NRS,
        "the command's result gets NRS (no presence)",
    },
    [DS2490_FAULT_RESULT_SH] = {
        "result-sh", DS2490_EVENT_COMM, DS2490_RR_SH,
        "the command's result gets SH (short)",
    },
    [DS2490_FAULT_RESULT_APP] = {
        "result-app", DS2490_EVENT_COMM, DS2490_RR_APP,
        "the command's result gets APP (alarming presence)",
    },
    [DS2490_FAULT_RESULT_CMP] = {
        "result-cmp", DS2490_EVENT_COMM, DS2490_RR_CMP,
        "the command's result gets CMP (compare error)",
    },
    [DS2490_FAULT_RESULT_CRC] = {
        "result-crc", DS2490_EVENT_COMM, DS2490_RR_CRC,
        "the command's result gets CRC (CRC error)",
    },
    [DS2490_FAULT_NEVER_IDLE] = {
        "never-idle", DS2490_EVENT_COMM, 0,
        "the command never completes, until CTL_RESET_DEVICE, a HALT or "
        "FLUSH_COMM_CMDS",
    },
    [DS2490_FAULT_NO_PRESENCE] = {
        "no-presence", DS2490_EVENT_RESET, 0,
        "a 1-Wire reset sees no presence pulse (NRS)",
    },
    [DS2490_FAULT_SEARCH_OTHER] = {
        "search-other", DS2490_EVENT_SEARCH, 0,
        "a search pass reports the id found with one serial bit flipped "
        "and a valid CRC",
    },
    [DS2490_FAULT_BIT_FLIP] = {
        "bit-flip", DS2490_EVENT_BYTE, 0,
        "a byte read from the bus has one bit flipped",
    },
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
};

/* a message naming the bad item; an item prints at most this much */
#define DS2490_ITEM_SHOWN       48

const char *ds2490_fault_name(DS2490FaultKind kind)
{
    return (unsigned)kind < DS2490_FAULT_KINDS ?
           ds2490_fault_info[kind].name : "unknown";
}

const char *ds2490_fault_description(DS2490FaultKind kind)
{
    return (unsigned)kind < DS2490_FAULT_KINDS ?
           ds2490_fault_info[kind].description : "";
}

DS2490FaultEvent ds2490_fault_event(DS2490FaultKind kind)
{
    return (unsigned)kind < DS2490_FAULT_KINDS ?
           ds2490_fault_info[kind].event : DS2490_FAULT_EVENTS;
}

const char *ds2490_fault_event_name(DS2490FaultEvent event)
{
    return (unsigned)event < DS2490_FAULT_EVENTS ?
           ds2490_event_names[event] : "unknown";
}

/* ---- text ---- */

/* an output buffer that truncates and stays terminated */
typedef struct DS2490Text {
    char *buf;
    size_t size;
    size_t len;
} DS2490Text;

static void ds2490_text_add(DS2490Text *t, const char *fmt, ...)
    DS2490_PRINTF(2, 3);

static void ds2490_text_add(DS2490Text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (t->size == 0 || t->len >= t->size - 1) {
        return;
    }
    va_start(ap, fmt);
    n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    t->len += (size_t)n < t->size - t->len ? (size_t)n
                                           : t->size - t->len - 1;
}

static void ds2490_text_start(DS2490Text *t, char *buf, size_t size)
{
    t->buf = buf;
    t->size = buf ? size : 0;
    t->len = 0;
    if (t->size) {
        buf[0] = '\0';
    }
}

static void ds2490_faults_error(char *err, size_t errlen, const char *fmt,
                                ...) DS2490_PRINTF(3, 4);

static void ds2490_faults_error(char *err, size_t errlen, const char *fmt,
                                ...)
{
    va_list ap;

    if (!err || errlen == 0) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* how much of an item a message shows */
static int ds2490_shown(size_t len)
{
    return len > DS2490_ITEM_SHOWN ? DS2490_ITEM_SHOWN : (int)len;
}

static bool ds2490_word_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

static int ds2490_kind_lookup(const char *s, size_t len)
{
    int k;

    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (ds2490_word_is(s, len, ds2490_fault_info[k].name)) {
            return k;
        }
    }
    return -1;
}

static int ds2490_event_lookup(const char *s, size_t len)
{
    int e;

    for (e = 0; e < DS2490_FAULT_EVENTS; e++) {
        if (ds2490_word_is(s, len, ds2490_event_names[e])) {
            return e;
        }
    }
    return -1;
}

/* "ep1-short, ep2-nak, ..." for error messages */
static void ds2490_kind_list(char *buf, size_t size)
{
    DS2490Text t;
    int k;

    ds2490_text_start(&t, buf, size);
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        ds2490_text_add(&t, "%s%s", k ? ", " : "", ds2490_fault_info[k].name);
    }
}

static void ds2490_event_list(char *buf, size_t size)
{
    DS2490Text t;
    int e;

    ds2490_text_start(&t, buf, size);
    for (e = 0; e < DS2490_FAULT_EVENTS; e++) {
        ds2490_text_add(&t, "%s%s", e ? ", " : "", ds2490_event_names[e]);
    }
}

/* plain decimal digits, at most @max: no sign, no spaces, no base prefix */
static bool ds2490_number(const char *s, size_t len, uint64_t max,
                          uint64_t *out)
{
    uint64_t v = 0;
    size_t i;

    if (len == 0) {
        return false;
    }
    for (i = 0; i < len; i++) {
        unsigned d;

        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        d = s[i] - '0';
        if (v > (max - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* the next item of @p up to @sep: its length, and where the rest starts */
static size_t ds2490_item(const char *p, char sep, const char **next)
{
    const char *end = strchr(p, sep);

    if (!end) {
        *next = NULL;
        return strlen(p);
    }
    *next = end + 1;
    return end - p;
}

/* ---- the plan ---- */

/* some kind has a probability */
static bool ds2490_faults_random(const DS2490Faults *f)
{
    int k;

    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (f->permille[k]) {
            return true;
        }
    }
    return false;
}

/* anything can happen: the hooks count and decide only then */
static bool ds2490_faults_planned(const DS2490Faults *f)
{
    return f && (f->script_len || ds2490_faults_random(f));
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
    uint16_t permille[DS2490_FAULT_KINDS] = { 0 };
    bool given[DS2490_FAULT_KINDS] = { false };
    bool seed_given = false;
    uint64_t seed = 0;
    const char *p = text ? text : "";
    char list[DS2490_FAULTS_TEXT_MAX];

    while (*p) {
        const char *next;
        size_t len = ds2490_item(p, ',', &next);
        const char *eq = memchr(p, '=', len);
        const char *value;
        size_t nlen, vlen;
        uint64_t v;
        int kind;

        if (len == 0) {
            ds2490_faults_error(err, errlen, "empty item in \"%s\"", text);
            return -1;
        }
        if (!eq) {
            ds2490_faults_error(err, errlen, "\"%.*s\": expected seed=NUMBER "
                                "or KIND=PER-MILLE", ds2490_shown(len), p);
            return -1;
        }
        nlen = eq - p;
        value = eq + 1;
        vlen = len - nlen - 1;
        if (ds2490_word_is(p, nlen, "seed")) {
            if (seed_given) {
                ds2490_faults_error(err, errlen, "\"%.*s\": seed given twice",
                                    ds2490_shown(len), p);
                return -1;
            }
            if (!ds2490_number(value, vlen, UINT64_MAX, &seed)) {
                ds2490_faults_error(err, errlen, "\"%.*s\": the seed is a "
                                    "decimal number from 0 to %" PRIu64,
                                    ds2490_shown(len), p, UINT64_MAX);
                return -1;
            }
            seed_given = true;
        } else {
            kind = ds2490_kind_lookup(p, nlen);
            if (kind < 0) {
                ds2490_kind_list(list, sizeof(list));
                ds2490_faults_error(err, errlen, "\"%.*s\": unknown fault kind "
                                    "\"%.*s\" (kinds: %s)", ds2490_shown(len),
                                    p, ds2490_shown(nlen), p, list);
                return -1;
            }
            if (given[kind]) {
                ds2490_faults_error(err, errlen, "\"%.*s\": %s given twice",
                                    ds2490_shown(len), p,
                                    ds2490_fault_info[kind].name);
                return -1;
            }
            if (!ds2490_number(value, vlen, DS2490_FAULT_PERMILLE, &v)) {
                ds2490_faults_error(err, errlen, "\"%.*s\": the probability is "
                                    "a decimal number of per mille, 0 to %d",
                                    ds2490_shown(len), p,
                                    DS2490_FAULT_PERMILLE);
                return -1;
            }
            given[kind] = true;
            permille[kind] = v;
        }
        if (!next) {
            break;
        }
        p = next;
        if (!*p) {
            ds2490_faults_error(err, errlen, "empty item at the end of \"%s\"",
                                text);
            return -1;
        }
    }
    f->seed = seed;
    memcpy(f->permille, permille, sizeof(permille));
    ds2490_faults_restart(f);
    return 0;
}

int ds2490_faults_set_script(DS2490Faults *f, const char *text,
                             char *err, size_t errlen)
{
    uint8_t events[DS2490_FAULT_SCRIPT_MAX];
    uint8_t kinds[DS2490_FAULT_SCRIPT_MAX];
    uint32_t ns[DS2490_FAULT_SCRIPT_MAX];
    int count = 0;
    const char *p = text ? text : "";
    char list[DS2490_FAULTS_TEXT_MAX];

    while (*p) {
        const char *next;
        size_t len = ds2490_item(p, ';', &next);
        const char *c1 = memchr(p, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (c1 + 1 - p)) : NULL;
        const char *kp;
        size_t klen;
        uint64_t n;
        int event, kind;

        if (len == 0) {
            ds2490_faults_error(err, errlen, "empty entry in \"%s\"", text);
            return -1;
        }
        if (!c2 || memchr(c2 + 1, ':', len - (c2 + 1 - p))) {
            ds2490_faults_error(err, errlen, "\"%.*s\": expected EVENT:N:KIND",
                                ds2490_shown(len), p);
            return -1;
        }
        kp = c2 + 1;
        klen = len - (kp - p);
        if (count == DS2490_FAULT_SCRIPT_MAX) {
            ds2490_faults_error(err, errlen, "\"%.*s\": more than %d script "
                                "entries", ds2490_shown(len), p,
                                DS2490_FAULT_SCRIPT_MAX);
            return -1;
        }
        event = ds2490_event_lookup(p, c1 - p);
        if (event < 0) {
            ds2490_event_list(list, sizeof(list));
            ds2490_faults_error(err, errlen, "\"%.*s\": unknown event \"%.*s\" "
                                "(events: %s)", ds2490_shown(len), p,
                                ds2490_shown(c1 - p), p, list);
            return -1;
        }
        if (!ds2490_number(c1 + 1, c2 - (c1 + 1), UINT32_MAX, &n) || n == 0) {
            ds2490_faults_error(err, errlen, "\"%.*s\": N counts events from 1 "
                                "to %" PRIu32, ds2490_shown(len), p,
                                UINT32_MAX);
            return -1;
        }
        kind = ds2490_kind_lookup(kp, klen);
        if (kind < 0) {
            ds2490_kind_list(list, sizeof(list));
            ds2490_faults_error(err, errlen, "\"%.*s\": unknown fault kind "
                                "\"%.*s\" (kinds: %s)", ds2490_shown(len), p,
                                ds2490_shown(klen), kp, list);
            return -1;
        }
        events[count] = event;
        kinds[count] = kind;
        ns[count] = n;
        count++;
        if (!next) {
            break;
        }
        p = next;
        if (!*p) {
            ds2490_faults_error(err, errlen, "empty entry at the end of "
                                "\"%s\"", text);
            return -1;
        }
    }
    f->script_len = count;
    memcpy(f->script_event, events, count);
    memcpy(f->script_kind, kinds, count);
    memcpy(f->script_n, ns, count * sizeof(ns[0]));
    ds2490_faults_restart(f);
    return 0;
}

void ds2490_faults_format_random(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    DS2490Text t;
    int k;

    ds2490_text_start(&t, buf, size);
    if (!f || (!f->seed && !ds2490_faults_random(f))) {
        return;
    }
    ds2490_text_add(&t, "seed=%" PRIu64, f->seed);
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (f->permille[k]) {
            ds2490_text_add(&t, ",%s=%u", ds2490_fault_info[k].name,
                            f->permille[k]);
        }
    }
}

void ds2490_faults_format_script(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    DS2490Text t;
    int i;

    ds2490_text_start(&t, buf, size);
    for (i = 0; f && i < f->script_len && i < DS2490_FAULT_SCRIPT_MAX; i++) {
        ds2490_text_add(&t, "%s%s:%" PRIu32 ":%s", i ? ";" : "",
                        ds2490_fault_event_name(f->script_event[i]),
                        f->script_n[i],
                        ds2490_fault_name(f->script_kind[i]));
    }
}

void ds2490_faults_format_counts(const DS2490Faults *f, char *buf,
                                 size_t size)
{
    DS2490Text t;
    bool first = true;
    int k;

    ds2490_text_start(&t, buf, size);
    for (k = 0; f && k < DS2490_FAULT_KINDS; k++) {
        if (f->injected[k]) {
            ds2490_text_add(&t, "%s%s=%" PRIu32, first ? "" : ",",
                            ds2490_fault_info[k].name, f->injected[k]);
            first = false;
        }
    }
}

bool ds2490_faults_in_use(const DS2490Faults *f)
{
    return f && (ds2490_faults_planned(f) || f->seed || f->wedged);
}

bool ds2490_faults_valid(const DS2490Faults *f)
{
    int i;

    if (f->script_len > DS2490_FAULT_SCRIPT_MAX) {
        return false;
    }
    for (i = 0; i < DS2490_FAULT_KINDS; i++) {
        if (f->permille[i] > DS2490_FAULT_PERMILLE) {
            return false;
        }
    }
    for (i = 0; i < f->script_len; i++) {
        if (f->script_event[i] >= DS2490_FAULT_EVENTS ||
            f->script_kind[i] >= DS2490_FAULT_KINDS ||
            f->script_n[i] == 0) {
            return false;
        }
    }
    return true;
}

bool ds2490_faults_ep3_cut_short(const DS2490Faults *f)
{
    return f && f->ep3_cut;
}

/* ---- deciding ---- */

/* splitmix64 (Steele, Lea, Flood 2014): any seed, 64 bits of state */
static uint64_t ds2490_faults_next(DS2490Faults *f)
{
    uint64_t z = (f->prng += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 0 .. bound - 1 (the modulo bias is below 2^-50 for these bounds) */
static uint32_t ds2490_faults_below(DS2490Faults *f, uint32_t bound)
{
    return ds2490_faults_next(f) % bound;
}

/* the Nth @event happened: script entries due now become pending */
static void ds2490_faults_count(DS2490Faults *f, DS2490FaultEvent event)
{
    uint32_t n;
    int i;

    if (f->events[event] == UINT32_MAX) {
        return;                 /* saturated: no entry is due twice */
    }
    n = ++f->events[event];
    for (i = 0; i < f->script_len && i < DS2490_FAULT_SCRIPT_MAX; i++) {
        if (f->script_event[i] == event && f->script_n[i] == n &&
            f->script_kind[i] < DS2490_FAULT_KINDS) {
            f->pending[f->script_kind[i]] = true;
        }
    }
}

/*
 * Does @kind happen now, at its own event?  A pending script entry says
 * yes; a kind with a probability draws once either way, so that the
 * draws follow the events, not the script.
 */
static bool ds2490_faults_happens(DS2490Faults *f, DS2490FaultKind kind)
{
    DS2490FaultEvent event = ds2490_fault_info[kind].event;
    bool due = f->pending[kind];

    if (f->permille[kind] &&
        ds2490_faults_below(f, DS2490_FAULT_PERMILLE) < f->permille[kind]) {
        due = true;
    }
    if (!due) {
        return false;
    }
    f->pending[kind] = false;
    if (f->injected[kind] < UINT32_MAX) {
        f->injected[kind]++;
    }
    if (f->notify) {
        f->notify(f->notify_opaque, kind, event, f->events[event]);
    }
    return true;
}

/* ---- hooks ---- */

bool ds2490_faults_stall(DS2490Faults *f)
{
    if (!ds2490_faults_planned(f)) {
        return false;
    }
    ds2490_faults_count(f, DS2490_EVENT_VENDOR);
    return ds2490_faults_happens(f, DS2490_FAULT_STALL);
}

bool ds2490_faults_ep2_nak(DS2490Faults *f)
{
    if (!ds2490_faults_planned(f)) {
        return false;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP2);
    return ds2490_faults_happens(f, DS2490_FAULT_EP2_NAK);
}

int ds2490_faults_ep3_read(DS2490Faults *f, int ready)
{
    if (f) {
        f->ep3_cut = false;
    }
    if (!ds2490_faults_planned(f) || ready <= 0) {
        return ready;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP3);
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
    if (!ds2490_faults_planned(f) || len <= 0) {
        return len;
    }
    ds2490_faults_count(f, DS2490_EVENT_EP1);
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
    if (!ds2490_faults_planned(f)) {
        return 0;
    }
    ds2490_faults_count(f, DS2490_EVENT_COMM);
    for (k = 0; k < DS2490_FAULT_KINDS; k++) {
        if (ds2490_fault_info[k].result && ds2490_faults_happens(f, k)) {
            result |= ds2490_fault_info[k].result;
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
    if (!ds2490_faults_planned(f)) {
        return result;
    }
    ds2490_faults_count(f, DS2490_EVENT_RESET);
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
    if (!ds2490_faults_planned(f)) {
        return byte;
    }
    ds2490_faults_count(f, DS2490_EVENT_BYTE);
    if (ds2490_faults_happens(f, DS2490_FAULT_BIT_FLIP)) {
        byte ^= 1u << ds2490_faults_below(f, 8);
    }
    return byte;
}

uint64_t ds2490_faults_search_id(DS2490Faults *f, uint64_t rom)
{
    uint8_t b[OW_ROM_LEN];

    if (!ds2490_faults_planned(f)) {
        return rom;
    }
    ds2490_faults_count(f, DS2490_EVENT_SEARCH);
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
