/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests for models/faultplan: the two text formats over a small
 * table of kinds and events, good and bad (nothing written on bad input),
 * the canonical forms, the bounds check, the splitmix64 generator against
 * its reference values, and the rule that decides a fault.  The devices'
 * own tests (ds2490-faults, agpu-faults) test the same code through
 * their tables and hooks.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <glib.h>
#include <string.h>

#include "faultplan.h"

enum { EV_TICK, EV_TOCK, EVENTS };
enum { K_SLOW, K_LOST, K_FLIP, KINDS };
#define SCRIPT_MAX      4

static const FaultPlanKind kinds[KINDS] = {
    [K_SLOW] = { "slow", EV_TICK, "a tick takes longer" },
    [K_LOST] = { "lost", EV_TICK, "a tick is lost" },
    [K_FLIP] = { "flip", EV_TOCK, "a tock is inverted" },
};

static const char *const events[EVENTS] = {
    [EV_TICK] = "tick",
    [EV_TOCK] = "tock",
};

static const FaultPlanTable table = {
    .kinds = kinds,
    .nkinds = KINDS,
    .events = events,
    .nevents = EVENTS,
    .script_max = SCRIPT_MAX,
};

static void test_table(void)
{
    g_assert_cmpstr(faultplan_kind_name(&table, K_FLIP), ==, "flip");
    g_assert_cmpstr(faultplan_kind_name(&table, KINDS), ==, "unknown");
    g_assert_cmpstr(faultplan_kind_description(&table, K_LOST), ==,
                    "a tick is lost");
    g_assert_cmpstr(faultplan_kind_description(&table, KINDS), ==, "");
    g_assert_cmpuint(faultplan_kind_event(&table, K_FLIP), ==, EV_TOCK);
    g_assert_cmpuint(faultplan_kind_event(&table, KINDS), ==, EVENTS);
    g_assert_cmpstr(faultplan_event_name(&table, EV_TOCK), ==, "tock");
    g_assert_cmpstr(faultplan_event_name(&table, EVENTS), ==, "unknown");
}

typedef struct RandomCase {
    const char *text;
    uint64_t seed;
    uint16_t permille[KINDS];
    const char *canonical;
} RandomCase;

static const RandomCase random_cases[] = {
    { "", 0, { 0, 0, 0 }, "" },
    { "seed=42,lost=20", 42, { 0, 20, 0 }, "seed=42,lost=20" },
    { "flip=1000,slow=1", 0, { 1, 0, 1000 }, "seed=0,slow=1,flip=1000" },
    { "seed=7", 7, { 0, 0, 0 }, "seed=7" },
    { "seed=0,flip=0", 0, { 0, 0, 0 }, "" },
};

static void test_random_good(void)
{
    char out[FAULTPLAN_TEXT_MAX];
    char err[128];
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(random_cases); i++) {
        const RandomCase *rc = &random_cases[i];
        uint16_t permille[KINDS] = { 9, 9, 9 };
        uint16_t again[KINDS];
        uint64_t seed = 99, seed2;

        err[0] = '\0';
        g_assert_cmpint(faultplan_parse_random(&table, rc->text, &seed,
                                               permille, err, sizeof(err)),
                        ==, 0);
        g_assert_cmpstr(err, ==, "");
        g_assert_cmpuint(seed, ==, rc->seed);
        g_assert_cmpmem(permille, sizeof(permille), rc->permille,
                        sizeof(rc->permille));
        g_assert_true(faultplan_random_set(&table, permille) ==
                      (rc->permille[0] || rc->permille[1] ||
                       rc->permille[2]));
        faultplan_format_random(&table, seed, permille, out, sizeof(out));
        g_assert_cmpstr(out, ==, rc->canonical);
        /* the canonical form is the same plan */
        g_assert_cmpint(faultplan_parse_random(&table, out, &seed2, again,
                                               NULL, 0), ==, 0);
        g_assert_cmpmem(again, sizeof(again), permille, sizeof(permille));
        g_assert_cmpuint(seed2, ==, seed);
    }
    /* NULL is "" */
    {
        uint16_t permille[KINDS] = { 9, 9, 9 };
        uint64_t seed = 99;

        g_assert_cmpint(faultplan_parse_random(&table, NULL, &seed, permille,
                                               NULL, 0), ==, 0);
        g_assert_cmpuint(seed, ==, 0);
        g_assert_false(faultplan_random_set(&table, permille));
    }
}

typedef struct BadCase {
    bool script;
    const char *text;
    const char *says;
} BadCase;

static const BadCase bad_cases[] = {
    { false, "slow=1001", "\"slow=1001\": the probability is a decimal "
                          "number of per mille, 0 to 1000" },
    { false, "fast=1", "\"fast=1\": unknown fault kind \"fast\" (kinds: "
                       "slow, lost, flip)" },
    { false, "slow=1,slow=2", "\"slow=2\": slow given twice" },
    { false, "seed=1,seed=1", "\"seed=1\": seed given twice" },
    { false, "seed=-1", "\"seed=-1\": the seed is a decimal number from 0 "
                        "to 18446744073709551615" },
    { false, "slow", "\"slow\": expected seed=NUMBER or KIND=PER-MILLE" },
    { false, "slow=1,", "empty item at the end of \"slow=1,\"" },
    { false, ",slow=1", "empty item in \",slow=1\"" },
    { true, "tick:1", "\"tick:1\": expected EVENT:N:KIND" },
    { true, "tick:1:slow:2", "\"tick:1:slow:2\": expected EVENT:N:KIND" },
    { true, "tack:1:slow", "\"tack:1:slow\": unknown event \"tack\" "
                           "(events: tick, tock)" },
    { true, "tick:0:slow", "\"tick:0:slow\": N counts events from 1 to "
                           "4294967295" },
    { true, "tick:1:fast", "\"tick:1:fast\": unknown fault kind \"fast\" "
                           "(kinds: slow, lost, flip)" },
    { true, "tick:1:slow;;tock:1:flip", "empty entry in" },
    { true, "tick:1:slow;", "empty entry at the end of \"tick:1:slow;\"" },
    { true, "tick:1:slow;tick:2:slow;tick:3:slow;tick:4:slow;tick:5:slow",
      "\"tick:5:slow\": more than 4 script entries" },
};

static void test_bad(void)
{
    char err[FAULTPLAN_TEXT_MAX];
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
        const BadCase *bc = &bad_cases[i];
        uint16_t permille[KINDS] = { 1, 2, 3 };
        uint64_t seed = 5;
        uint8_t ev[SCRIPT_MAX] = { 1, 1, 1, 1 };
        uint8_t kind[SCRIPT_MAX] = { 2, 2, 2, 2 };
        uint32_t n[SCRIPT_MAX] = { 7, 7, 7, 7 };
        int ret;

        memset(err, 0, sizeof(err));
        if (bc->script) {
            ret = faultplan_parse_script(&table, bc->text, ev, kind, n, err,
                                         sizeof(err));
        } else {
            ret = faultplan_parse_random(&table, bc->text, &seed, permille,
                                         err, sizeof(err));
        }
        if (ret != -1 || !strstr(err, bc->says)) {
            g_error("\"%s\": returned %d, said \"%s\", expected \"%s\"",
                    bc->text, ret, err, bc->says);
        }
        /* nothing written */
        g_assert_cmpuint(seed, ==, 5);
        g_assert_cmpuint(permille[0] + permille[1] + permille[2], ==, 6);
        g_assert_true(ev[0] == 1 && kind[0] == 2 && n[0] == 7 &&
                      ev[3] == 1 && kind[3] == 2 && n[3] == 7);
    }
    /* a message is cut to its buffer, terminated; NULL says nothing */
    {
        uint16_t permille[KINDS];
        uint64_t seed;

        g_assert_cmpint(faultplan_parse_random(&table, "fast=1", &seed,
                                               permille, err, 9), ==, -1);
        g_assert_cmpstr(err, ==, "\"fast=1\"");
        g_assert_cmpint(faultplan_parse_random(&table, "fast=1", &seed,
                                               permille, NULL, 0), ==, -1);
    }
}

static void test_script(void)
{
    uint8_t ev[SCRIPT_MAX] = { 0 }, kind[SCRIPT_MAX] = { 0 };
    uint32_t n[SCRIPT_MAX] = { 0 };
    char out[FAULTPLAN_TEXT_MAX];

    g_assert_cmpint(faultplan_parse_script(&table, "tock:3:flip;tick:9:lost;"
                                           "tick:1:flip;tick:4294967295:slow",
                                           ev, kind, n, NULL, 0), ==, 4);
    g_assert_cmpuint(ev[0], ==, EV_TOCK);
    g_assert_cmpuint(kind[0], ==, K_FLIP);
    g_assert_cmpuint(n[0], ==, 3);
    g_assert_cmpuint(n[3], ==, 4294967295u);
    g_assert_true(faultplan_valid(&table, (uint16_t[KINDS]) { 0 }, 4, ev,
                                  kind, n));
    faultplan_format_script(&table, 4, ev, kind, n, out, sizeof(out));
    g_assert_cmpstr(out, ==, "tock:3:flip;tick:9:lost;tick:1:flip;"
                    "tick:4294967295:slow");
    faultplan_format_script(&table, 4, ev, kind, n, out, 10);
    g_assert_cmpstr(out, ==, "tock:3:fl");
    faultplan_format_script(&table, 0, NULL, NULL, NULL, out, sizeof(out));
    g_assert_cmpstr(out, ==, "");
    g_assert_cmpint(faultplan_parse_script(&table, "", ev, kind, n, NULL, 0),
                    ==, 0);
    g_assert_cmpint(faultplan_parse_script(&table, NULL, ev, kind, n, NULL,
                                           0), ==, 0);
}

static void test_counts(void)
{
    uint32_t injected[KINDS] = { 3, 0, UINT32_MAX };
    char out[FAULTPLAN_TEXT_MAX];

    faultplan_format_counts(&table, injected, out, sizeof(out));
    g_assert_cmpstr(out, ==, "slow=3,flip=4294967295");
    injected[0] = injected[2] = 0;
    faultplan_format_counts(&table, injected, out, sizeof(out));
    g_assert_cmpstr(out, ==, "");
    /* a zero-sized buffer is left alone */
    out[0] = 'x';
    faultplan_format_counts(&table, injected, out, 0);
    g_assert_cmpint(out[0], ==, 'x');
}

static void test_valid(void)
{
    uint16_t permille[KINDS] = { 0, 1000, 0 };
    uint8_t ev[SCRIPT_MAX] = { EV_TOCK }, kind[SCRIPT_MAX] = { K_FLIP };
    uint32_t n[SCRIPT_MAX] = { 1 };

    g_assert_true(faultplan_valid(&table, permille, 1, ev, kind, n));
    g_assert_false(faultplan_valid(&table, permille, SCRIPT_MAX + 1, ev,
                                   kind, n));
    permille[1] = 1001;
    g_assert_false(faultplan_valid(&table, permille, 1, ev, kind, n));
    permille[1] = 0;
    ev[0] = EVENTS;
    g_assert_false(faultplan_valid(&table, permille, 1, ev, kind, n));
    ev[0] = EV_TICK;
    kind[0] = KINDS;
    g_assert_false(faultplan_valid(&table, permille, 1, ev, kind, n));
    kind[0] = K_SLOW;
    n[0] = 0;
    g_assert_false(faultplan_valid(&table, permille, 1, ev, kind, n));
    /* entries past the length are not looked at */
    g_assert_true(faultplan_valid(&table, permille, 0, ev, kind, n));
}

/* splitmix64's reference output for seed 0 */
static void test_prng(void)
{
    uint64_t s = 0, a = 12345, b = 12345;
    uint32_t hist[10] = { 0 };
    int i;

    g_assert_cmphex(faultplan_next(&s), ==, 0xe220a8397b1dcdafULL);
    g_assert_cmphex(faultplan_next(&s), ==, 0x6e789e6aa1b965f4ULL);
    g_assert_cmphex(faultplan_next(&s), ==, 0x06c45d188009454fULL);
    /* the state is the whole generator */
    for (i = 0; i < 100; i++) {
        g_assert_cmphex(faultplan_next(&a), ==, faultplan_next(&b));
    }
    for (i = 0; i < 10000; i++) {
        uint32_t v = faultplan_below(&a, 10);

        g_assert_cmpuint(v, <, 10);
        hist[v]++;
    }
    for (i = 0; i < 10; i++) {
        g_assert_cmpuint(hist[i], >, 850);
        g_assert_cmpuint(hist[i], <, 1150);
    }
    g_assert_cmpuint(faultplan_below(&a, 1), ==, 0);
}

static void test_happens(void)
{
    uint64_t prng = 1, ref = 1;
    uint32_t injected = 0;
    bool pending = false;
    int i, hits = 0;

    /* no probability, nothing pending: no draw, no fault */
    g_assert_false(faultplan_happens(&prng, 0, &pending, &injected));
    g_assert_cmphex(prng, ==, ref);
    /* pending: it happens once, and a kind with a probability still draws */
    pending = true;
    g_assert_true(faultplan_happens(&prng, 0, &pending, &injected));
    g_assert_false(pending);
    g_assert_cmpuint(injected, ==, 1);
    g_assert_cmphex(prng, ==, ref);
    pending = true;
    g_assert_true(faultplan_happens(&prng, 1, &pending, &injected));
    faultplan_next(&ref);
    g_assert_cmphex(prng, ==, ref);
    /* 1000 is always; 250 about a quarter */
    for (i = 0; i < 100; i++) {
        g_assert_true(faultplan_happens(&prng, 1000, &pending, &injected));
    }
    injected = 0;
    for (i = 0; i < 4000; i++) {
        hits += faultplan_happens(&prng, 250, &pending, &injected);
    }
    g_assert_cmpint(hits, >, 900);
    g_assert_cmpint(hits, <, 1100);
    g_assert_cmpuint(injected, ==, hits);
    /* the count saturates */
    injected = UINT32_MAX;
    pending = true;
    g_assert_true(faultplan_happens(&prng, 0, &pending, &injected));
    g_assert_cmpuint(injected, ==, UINT32_MAX);
}

static void test_script_due(void)
{
    uint8_t ev[SCRIPT_MAX] = { EV_TICK, EV_TOCK, EV_TICK, EV_TICK };
    uint8_t kind[SCRIPT_MAX] = { K_SLOW, K_FLIP, K_LOST, KINDS };
    uint32_t n[SCRIPT_MAX] = { 2, 2, 3, 2 };
    bool pending[KINDS] = { false };

    faultplan_script_due(&table, 3, ev, kind, n, EV_TICK, 1, pending);
    g_assert_false(pending[K_SLOW] || pending[K_LOST] || pending[K_FLIP]);
    /* the 2nd tick: entry 0 only (entry 3 is past the length) */
    faultplan_script_due(&table, 3, ev, kind, n, EV_TICK, 2, pending);
    g_assert_true(pending[K_SLOW]);
    g_assert_false(pending[K_LOST] || pending[K_FLIP]);
    /* an entry whose kind is out of range is ignored */
    faultplan_script_due(&table, 4, ev, kind, n, EV_TICK, 2, pending);
    faultplan_script_due(&table, 3, ev, kind, n, EV_TOCK, 2, pending);
    g_assert_true(pending[K_FLIP]);
    g_assert_false(pending[K_LOST]);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/faultplan/table", test_table);
    g_test_add_func("/faultplan/random/good", test_random_good);
    g_test_add_func("/faultplan/bad", test_bad);
    g_test_add_func("/faultplan/script", test_script);
    g_test_add_func("/faultplan/counts", test_counts);
    g_test_add_func("/faultplan/valid", test_valid);
    g_test_add_func("/faultplan/prng", test_prng);
    g_test_add_func("/faultplan/happens", test_happens);
    g_test_add_func("/faultplan/script-due", test_script_due);
    return g_test_run();
}
