/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fault plans shared by the device cores (faultplan.h): the parser and
 * formatter of the two text formats over a device's table, a splitmix64
 * generator kept as plain data, and the rule that decides a fault.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "faultplan.h"

#define FAULTPLAN_PRINTF(fmt, args) \
    __attribute__((format(printf, fmt, args)))

/* a message naming the bad item; an item prints at most this much */
#define FAULTPLAN_ITEM_SHOWN    48

/* ---- the table ---- */

const char *faultplan_kind_name(const FaultPlanTable *t, unsigned kind)
{
    return kind < t->nkinds ? t->kinds[kind].name : "unknown";
}

const char *faultplan_kind_description(const FaultPlanTable *t,
                                       unsigned kind)
{
    return kind < t->nkinds ? t->kinds[kind].description : "";
}

unsigned faultplan_kind_event(const FaultPlanTable *t, unsigned kind)
{
    return kind < t->nkinds ? t->kinds[kind].event : t->nevents;
}

const char *faultplan_event_name(const FaultPlanTable *t, unsigned event)
{
    return event < t->nevents ? t->events[event] : "unknown";
}

/* ---- text ---- */

/* an output buffer that truncates and stays terminated */
typedef struct FaultPlanText {
    char *buf;
    size_t size;
    size_t len;
} FaultPlanText;

static void faultplan_text_add(FaultPlanText *t, const char *fmt, ...)
    FAULTPLAN_PRINTF(2, 3);

static void faultplan_text_add(FaultPlanText *t, const char *fmt, ...)
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

static void faultplan_text_start(FaultPlanText *t, char *buf, size_t size)
{
    t->buf = buf;
    t->size = buf ? size : 0;
    t->len = 0;
    if (t->size) {
        buf[0] = '\0';
    }
}

static void faultplan_error(char *err, size_t errlen, const char *fmt, ...)
    FAULTPLAN_PRINTF(3, 4);

static void faultplan_error(char *err, size_t errlen, const char *fmt, ...)
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
static int faultplan_shown(size_t len)
{
    return len > FAULTPLAN_ITEM_SHOWN ? FAULTPLAN_ITEM_SHOWN : (int)len;
}

static bool faultplan_word_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

static int faultplan_kind_lookup(const FaultPlanTable *t, const char *s,
                                 size_t len)
{
    unsigned k;

    for (k = 0; k < t->nkinds; k++) {
        if (faultplan_word_is(s, len, t->kinds[k].name)) {
            return k;
        }
    }
    return -1;
}

static int faultplan_event_lookup(const FaultPlanTable *t, const char *s,
                                  size_t len)
{
    unsigned e;

    for (e = 0; e < t->nevents; e++) {
        if (faultplan_word_is(s, len, t->events[e])) {
            return e;
        }
    }
    return -1;
}

/* "ep1-short, ep2-nak, ..." for error messages */
static void faultplan_kind_list(const FaultPlanTable *t, char *buf,
                                size_t size)
{
    FaultPlanText out;
    unsigned k;

    faultplan_text_start(&out, buf, size);
    for (k = 0; k < t->nkinds; k++) {
        faultplan_text_add(&out, "%s%s", k ? ", " : "", t->kinds[k].name);
    }
}

static void faultplan_event_list(const FaultPlanTable *t, char *buf,
                                 size_t size)
{
    FaultPlanText out;
    unsigned e;

    faultplan_text_start(&out, buf, size);
    for (e = 0; e < t->nevents; e++) {
        faultplan_text_add(&out, "%s%s", e ? ", " : "", t->events[e]);
    }
}

/* plain decimal digits, at most @max: no sign, no spaces, no base prefix */
static bool faultplan_number(const char *s, size_t len, uint64_t max,
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
static size_t faultplan_item(const char *p, char sep, const char **next)
{
    const char *end = strchr(p, sep);

    if (!end) {
        *next = NULL;
        return strlen(p);
    }
    *next = end + 1;
    return end - p;
}

/* ---- the formats ---- */

int faultplan_parse_random(const FaultPlanTable *t, const char *text,
                           uint64_t *seed_out, uint16_t *permille_out,
                           char *err, size_t errlen)
{
    uint16_t permille[FAULTPLAN_KINDS_MAX] = { 0 };
    bool given[FAULTPLAN_KINDS_MAX] = { false };
    bool seed_given = false;
    uint64_t seed = 0;
    const char *p = text ? text : "";
    char list[FAULTPLAN_TEXT_MAX];

    if (t->nkinds > FAULTPLAN_KINDS_MAX) {
        faultplan_error(err, errlen, "more than %d fault kinds in the table",
                        FAULTPLAN_KINDS_MAX);
        return -1;
    }
    while (*p) {
        const char *next;
        size_t len = faultplan_item(p, ',', &next);
        const char *eq = memchr(p, '=', len);
        const char *value;
        size_t nlen, vlen;
        uint64_t v;
        int kind;

        if (len == 0) {
            faultplan_error(err, errlen, "empty item in \"%s\"", text);
            return -1;
        }
        if (!eq) {
            faultplan_error(err, errlen, "\"%.*s\": expected seed=NUMBER "
                            "or KIND=PER-MILLE", faultplan_shown(len), p);
            return -1;
        }
        nlen = eq - p;
        value = eq + 1;
        vlen = len - nlen - 1;
        if (faultplan_word_is(p, nlen, "seed")) {
            if (seed_given) {
                faultplan_error(err, errlen, "\"%.*s\": seed given twice",
                                faultplan_shown(len), p);
                return -1;
            }
            if (!faultplan_number(value, vlen, UINT64_MAX, &seed)) {
                faultplan_error(err, errlen, "\"%.*s\": the seed is a "
                                "decimal number from 0 to %" PRIu64,
                                faultplan_shown(len), p, UINT64_MAX);
                return -1;
            }
            seed_given = true;
        } else {
            kind = faultplan_kind_lookup(t, p, nlen);
            if (kind < 0) {
                faultplan_kind_list(t, list, sizeof(list));
                faultplan_error(err, errlen, "\"%.*s\": unknown fault kind "
                                "\"%.*s\" (kinds: %s)", faultplan_shown(len),
                                p, faultplan_shown(nlen), p, list);
                return -1;
            }
            if (given[kind]) {
                faultplan_error(err, errlen, "\"%.*s\": %s given twice",
                                faultplan_shown(len), p,
                                t->kinds[kind].name);
                return -1;
            }
            if (!faultplan_number(value, vlen, FAULTPLAN_PERMILLE, &v)) {
                faultplan_error(err, errlen, "\"%.*s\": the probability is "
                                "a decimal number of per mille, 0 to %d",
                                faultplan_shown(len), p, FAULTPLAN_PERMILLE);
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
            faultplan_error(err, errlen, "empty item at the end of \"%s\"",
                            text);
            return -1;
        }
    }
    *seed_out = seed;
    memcpy(permille_out, permille, t->nkinds * sizeof(permille[0]));
    return 0;
}

int faultplan_parse_script(const FaultPlanTable *t, const char *text,
                           uint8_t *event_out, uint8_t *kind_out,
                           uint32_t *n_out, char *err, size_t errlen)
{
    uint8_t events[FAULTPLAN_SCRIPT_MAX];
    uint8_t kinds[FAULTPLAN_SCRIPT_MAX];
    uint32_t ns[FAULTPLAN_SCRIPT_MAX];
    unsigned max = t->script_max < FAULTPLAN_SCRIPT_MAX ?
                   t->script_max : FAULTPLAN_SCRIPT_MAX;
    unsigned count = 0;
    const char *p = text ? text : "";
    char list[FAULTPLAN_TEXT_MAX];

    while (*p) {
        const char *next;
        size_t len = faultplan_item(p, ';', &next);
        const char *c1 = memchr(p, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (c1 + 1 - p)) : NULL;
        const char *kp;
        size_t klen;
        uint64_t n;
        int event, kind;

        if (len == 0) {
            faultplan_error(err, errlen, "empty entry in \"%s\"", text);
            return -1;
        }
        if (!c2 || memchr(c2 + 1, ':', len - (c2 + 1 - p))) {
            faultplan_error(err, errlen, "\"%.*s\": expected EVENT:N:KIND",
                            faultplan_shown(len), p);
            return -1;
        }
        kp = c2 + 1;
        klen = len - (kp - p);
        if (count == max) {
            faultplan_error(err, errlen, "\"%.*s\": more than %u script "
                            "entries", faultplan_shown(len), p, max);
            return -1;
        }
        event = faultplan_event_lookup(t, p, c1 - p);
        if (event < 0) {
            faultplan_event_list(t, list, sizeof(list));
            faultplan_error(err, errlen, "\"%.*s\": unknown event \"%.*s\" "
                            "(events: %s)", faultplan_shown(len), p,
                            faultplan_shown(c1 - p), p, list);
            return -1;
        }
        if (!faultplan_number(c1 + 1, c2 - (c1 + 1), UINT32_MAX, &n) ||
            n == 0) {
            faultplan_error(err, errlen, "\"%.*s\": N counts events from 1 "
                            "to %" PRIu32, faultplan_shown(len), p,
                            UINT32_MAX);
            return -1;
        }
        kind = faultplan_kind_lookup(t, kp, klen);
        if (kind < 0) {
            faultplan_kind_list(t, list, sizeof(list));
            faultplan_error(err, errlen, "\"%.*s\": unknown fault kind "
                            "\"%.*s\" (kinds: %s)", faultplan_shown(len), p,
                            faultplan_shown(klen), kp, list);
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
            faultplan_error(err, errlen, "empty entry at the end of \"%s\"",
                            text);
            return -1;
        }
    }
    memcpy(event_out, events, count);
    memcpy(kind_out, kinds, count);
    memcpy(n_out, ns, count * sizeof(ns[0]));
    return count;
}

bool faultplan_random_set(const FaultPlanTable *t, const uint16_t *permille)
{
    unsigned k;

    for (k = 0; k < t->nkinds; k++) {
        if (permille[k]) {
            return true;
        }
    }
    return false;
}

void faultplan_format_random(const FaultPlanTable *t, uint64_t seed,
                             const uint16_t *permille, char *buf,
                             size_t size)
{
    FaultPlanText out;
    unsigned k;

    faultplan_text_start(&out, buf, size);
    if (!seed && !faultplan_random_set(t, permille)) {
        return;
    }
    faultplan_text_add(&out, "seed=%" PRIu64, seed);
    for (k = 0; k < t->nkinds; k++) {
        if (permille[k]) {
            faultplan_text_add(&out, ",%s=%u", t->kinds[k].name,
                               permille[k]);
        }
    }
}

void faultplan_format_script(const FaultPlanTable *t, unsigned len,
                             const uint8_t *event, const uint8_t *kind,
                             const uint32_t *n, char *buf, size_t size)
{
    FaultPlanText out;
    unsigned i;

    faultplan_text_start(&out, buf, size);
    for (i = 0; i < len && i < t->script_max; i++) {
        faultplan_text_add(&out, "%s%s:%" PRIu32 ":%s", i ? ";" : "",
                           faultplan_event_name(t, event[i]), n[i],
                           faultplan_kind_name(t, kind[i]));
    }
}

void faultplan_format_counts(const FaultPlanTable *t,
                             const uint32_t *injected, char *buf,
                             size_t size)
{
    FaultPlanText out;
    bool first = true;
    unsigned k;

    faultplan_text_start(&out, buf, size);
    for (k = 0; k < t->nkinds; k++) {
        if (injected[k]) {
            faultplan_text_add(&out, "%s%s=%" PRIu32, first ? "" : ",",
                               t->kinds[k].name, injected[k]);
            first = false;
        }
    }
}

void faultplan_format_events(const FaultPlanTable *t, const uint32_t *events,
                             char *buf, size_t size)
{
    FaultPlanText out;
    bool first = true;
    unsigned e;

    faultplan_text_start(&out, buf, size);
    for (e = 0; e < t->nevents; e++) {
        if (events[e]) {
            faultplan_text_add(&out, "%s%s=%" PRIu32, first ? "" : ",",
                               t->events[e], events[e]);
            first = false;
        }
    }
}

bool faultplan_valid(const FaultPlanTable *t, const uint16_t *permille,
                     unsigned len, const uint8_t *event,
                     const uint8_t *kind, const uint32_t *n)
{
    unsigned i;

    if (len > t->script_max) {
        return false;
    }
    for (i = 0; i < t->nkinds; i++) {
        if (permille[i] > FAULTPLAN_PERMILLE) {
            return false;
        }
    }
    for (i = 0; i < len; i++) {
        if (event[i] >= t->nevents || kind[i] >= t->nkinds || n[i] == 0) {
            return false;
        }
    }
    return true;
}

/* ---- deciding ---- */

/* splitmix64 (Steele, Lea, Flood 2014): any seed, 64 bits of state */
uint64_t faultplan_next(uint64_t *prng)
{
    uint64_t z = (*prng += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the modulo bias is below 2^-32 for any 32-bit bound */
uint32_t faultplan_below(uint64_t *prng, uint32_t bound)
{
    return faultplan_next(prng) % bound;
}

void faultplan_script_due(const FaultPlanTable *t, unsigned len,
                          const uint8_t *event, const uint8_t *kind,
                          const uint32_t *n, unsigned ev, uint32_t count,
                          bool *pending)
{
    unsigned i;

    for (i = 0; i < len && i < t->script_max; i++) {
        if (event[i] == ev && n[i] == count && kind[i] < t->nkinds) {
            pending[kind[i]] = true;
        }
    }
}

bool faultplan_happens(uint64_t *prng, uint16_t permille, bool *pending,
                       uint32_t *injected)
{
    bool due = *pending;

    if (permille && faultplan_below(prng, FAULTPLAN_PERMILLE) < permille) {
        due = true;
    }
    if (!due) {
        return false;
    }
    *pending = false;
    if (*injected < UINT32_MAX) {
        (*injected)++;
    }
    return true;
}
