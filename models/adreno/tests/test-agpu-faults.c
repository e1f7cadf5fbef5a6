/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Unit tests for the agpu fault plans (agpu-faults.[ch]): the two text
 * formats, good and bad; determinism; what each fault kind does, seen
 * through the core's public API as the a2xx driver sees it (and that the
 * driver's recovery gets past it); that a script entry fires on its Nth
 * event exactly; and that an empty plan changes nothing, reads included.
 * The fixture is test-agpu.c's (agpu-fake.[ch]): fake guest RAM, the
 * gpummu page table and the driver's register conversation.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <glib.h>
#include <string.h>

#include "agpu-fake.h"
#include "agpu-faults.h"
#include "faultplan-check.h"

/* ---- the rig: the fake GPU with a plan ---- */

typedef struct Rig {
    Fake *f;
    AGpuFaults p;
    GString *notes;             /* every fault the plan reported */
    uint32_t flag_va;           /* a word nobody sets (endless waits) */
    uint32_t counter;
} Rig;

static void rig_note(void *opaque, AGpuFaultKind kind, AGpuFaultEvent event,
                     uint32_t n)
{
    Rig *r = opaque;

    g_string_append_printf(r->notes, "%s@%s#%u;", agpu_fault_name(kind),
                           agpu_fault_event_name(event), n);
}

/*
 * A booted GPU (hw_init done without a plan); @with_plan attaches the
 * (empty) plan to the core, as the QEMU glue always does.
 */
static Rig *rig_new(bool with_plan)
{
    Rig *r = g_new0(Rig, 1);

    r->f = fake_booted();
    agpu_faults_init(&r->p);
    r->p.notify = rig_note;
    r->p.notify_opaque = r;
    if (with_plan) {
        r->f->gpu.faults = &r->p;
    }
    r->notes = g_string_new("");
    r->flag_va = bo_new(r->f, 1, PROT_RW);
    return r;
}

static void rig_free(Rig *r)
{
    g_string_free(r->notes, TRUE);
    fake_free(r->f);
    g_free(r);
}

/* set both parts of the plan; they must parse */
static void rig_plan(Rig *r, const char *random, const char *script)
{
    char err[AGPU_FAULTS_ERROR_MAX] = "";

    if (agpu_faults_set_random(&r->p, random, err, sizeof(err)) < 0 ||
        agpu_faults_set_script(&r->p, script, err, sizeof(err)) < 0) {
        g_error("plan \"%s\" / \"%s\": %s", random, script, err);
    }
    g_string_truncate(r->notes, 0);
}

static AGpuFaultKind kind_named(const char *name)
{
    int k;

    for (k = 0; k < AGPU_FAULT_KINDS; k++) {
        if (!strcmp(agpu_fault_name(k), name)) {
            return k;
        }
    }
    g_error("no fault kind %s", name);
}

/* a2xx_recover(): the register dump's reads, the soft reset, hw_init */
static bool kernel_recover(Fake *f)
{
    uint32_t i;

    for (i = 0; i < 8; i++) {
        rd(f, AGPU_REG_CP_SCRATCH_REG0 + i);
    }
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    rd(f, AGPU_REG_RBBM_SOFT_RESET);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    return kernel_hw_init(f, &fw_good);
}

/* a submit without IB (scratch, fence, CP_INTERRUPT), run to the end */
static uint32_t empty_submit(Fake *f)
{
    uint32_t seqno = kernel_submit(f, 0, 0);

    kick(f);
    return seqno;
}

/* ---- the formats ---- */

typedef struct GoodCase {
    bool script;
    const char *text;
    const char *canonical;
} GoodCase;

static const GoodCase good_cases[] = {
    { false, "", "" },
    { false, "seed=42,irq-storm=20,mmu-fault=5",
      "seed=42,irq-storm=20,mmu-fault=5" },
    { false, "stale-read=1,seed=3", "seed=3,stale-read=1" },
    { false, "reset-slow=1000", "seed=0,reset-slow=1000" },
    { false, "seed=0,cp-stall=0", "" },
    { false, "seed=18446744073709551615",
      "seed=18446744073709551615" },
    { false, "stale-read=9,reset-slow=8,mmu-fault=7,rptr-jump=6,"
             "cp-stall=5,spurious-mh=4,spurious-cp=3,spurious-rbbm=2,"
             "irq-storm=1",
      "seed=0,irq-storm=1,spurious-rbbm=2,spurious-cp=3,spurious-mh=4,"
      "cp-stall=5,rptr-jump=6,mmu-fault=7,reset-slow=8,stale-read=9" },
    { true, "", "" },
    { true, "submit:5:cp-stall;irq:12:spurious-cp",
      "submit:5:cp-stall;irq:12:spurious-cp" },
    { true, "read:4294967295:stale-read", "read:4294967295:stale-read" },
    { true, "ack:1:irq-storm;ack:1:irq-storm",
      "ack:1:irq-storm;ack:1:irq-storm" },
    { true, "submit:1:cp-stall;irq:1:spurious-rbbm;ack:1:irq-storm;"
            "reset:1:reset-slow;read:1:stale-read;rptr:1:rptr-jump;"
            "mmu:1:mmu-fault;irq:2:spurious-mh;irq:3:spurious-cp;"
            "submit:2:mmu-fault;submit:3:mmu-fault;submit:4:mmu-fault;"
            "submit:5:mmu-fault;submit:6:mmu-fault;submit:7:mmu-fault;"
            "submit:8:mmu-fault",
      "submit:1:cp-stall;irq:1:spurious-rbbm;ack:1:irq-storm;"
      "reset:1:reset-slow;read:1:stale-read;rptr:1:rptr-jump;"
      "mmu:1:mmu-fault;irq:2:spurious-mh;irq:3:spurious-cp;"
      "submit:2:mmu-fault;submit:3:mmu-fault;submit:4:mmu-fault;"
      "submit:5:mmu-fault;submit:6:mmu-fault;submit:7:mmu-fault;"
      "submit:8:mmu-fault" },
};

static void test_parse_good(void)
{
    char out[AGPU_FAULTS_TEXT_MAX];
    char err[AGPU_FAULTS_ERROR_MAX];
    AGpuFaults f, again;
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(good_cases); i++) {
        const GoodCase *gc = &good_cases[i];

        agpu_faults_init(&f);
        agpu_faults_init(&again);
        err[0] = '\0';
        if (gc->script) {
            g_assert_cmpint(agpu_faults_set_script(&f, gc->text, err,
                                                   sizeof(err)), ==, 0);
            agpu_faults_format_script(&f, out, sizeof(out));
        } else {
            g_assert_cmpint(agpu_faults_set_random(&f, gc->text, err,
                                                   sizeof(err)), ==, 0);
            agpu_faults_format_random(&f, out, sizeof(out));
        }
        g_assert_cmpstr(err, ==, "");
        g_assert_cmpstr(out, ==, gc->canonical);
        g_assert_true(agpu_faults_valid(&f));
        /* the canonical form means the same plan */
        if (gc->script) {
            g_assert_cmpint(agpu_faults_set_script(&again, out, NULL, 0),
                            ==, 0);
        } else {
            g_assert_cmpint(agpu_faults_set_random(&again, out, NULL, 0),
                            ==, 0);
        }
        g_assert_cmpmem(&f, sizeof(f), &again, sizeof(again));
    }
    /* NULL is the empty string */
    g_assert_cmpint(agpu_faults_set_random(&f, NULL, NULL, 0), ==, 0);
    g_assert_cmpint(agpu_faults_set_script(&f, NULL, NULL, 0), ==, 0);
    g_assert_false(agpu_faults_active(&f));
    g_assert_false(agpu_faults_in_use(&f));
    /* a full plan fits the documented buffer */
    g_assert_cmpint(agpu_faults_set_script(&f,
                    good_cases[G_N_ELEMENTS(good_cases) - 1].text,
                    NULL, 0), ==, 0);
    agpu_faults_format_script(&f, out, sizeof(out));
    g_assert_cmpint(strlen(out), <, sizeof(out) - 1);
    /* a small buffer truncates, terminated */
    agpu_faults_format_script(&f, out, 10);
    g_assert_cmpstr(out, ==, "submit:1:");
    /* NULL: no plan */
    agpu_faults_format_random(NULL, out, sizeof(out));
    g_assert_cmpstr(out, ==, "");
    agpu_faults_format_counts(NULL, out, sizeof(out));
    g_assert_cmpstr(out, ==, "");
}

typedef struct BadCase {
    bool script;
    const char *text;
    const char *says;           /* in the message */
} BadCase;

static const BadCase bad_cases[] = {
    { false, "irq-flood=3", "\"irq-flood=3\": unknown fault kind "
                            "\"irq-flood\" (kinds: irq-storm, "
                            "spurious-rbbm, spurious-cp, spurious-mh, "
                            "cp-stall, rptr-jump, mmu-fault, reset-slow, "
                            "stale-read)" },
    { false, "cp-stall=1001", "\"cp-stall=1001\": the probability is a "
                              "decimal number of per mille, 0 to 1000" },
    { false, "cp-stall=-1", "\"cp-stall=-1\": the probability" },
    { false, "cp-stall=0x10", "\"cp-stall=0x10\": the probability" },
    { false, "cp-stall=", "\"cp-stall=\": the probability" },
    { false, "cp-stall", "\"cp-stall\": expected seed=NUMBER or "
                         "KIND=PER-MILLE" },
    { false, "seed=x", "\"seed=x\": the seed is a decimal number" },
    { false, "seed=18446744073709551616", "the seed is a decimal number" },
    { false, "seed=1,seed=1", "\"seed=1\": seed given twice" },
    { false, "mmu-fault=1,mmu-fault=2", "\"mmu-fault=2\": mmu-fault given "
                                        "twice" },
    { false, "seed=1,,cp-stall=2", "empty item in" },
    { false, "cp-stall=2,", "empty item at the end of \"cp-stall=2,\"" },
    { false, "Cp-stall=2", "unknown fault kind \"Cp-stall\"" },
    { false, "submit:1:cp-stall", "\"submit:1:cp-stall\": expected seed=" },
    { true, "submit:0:cp-stall", "\"submit:0:cp-stall\": N counts events "
                                 "from 1 to 4294967295" },
    { true, "submit:4294967296:cp-stall", "N counts events" },
    { true, "submit::cp-stall", "N counts events" },
    { true, "submit:1", "\"submit:1\": expected EVENT:N:KIND" },
    { true, "submit:1:cp-stall:2", "expected EVENT:N:KIND" },
    { true, "wptr:1:cp-stall", "\"wptr:1:cp-stall\": unknown event "
                               "\"wptr\" (events: submit, irq, ack, "
                               "reset, read, rptr, mmu)" },
    { true, "submit:1:stall", "\"submit:1:stall\": unknown fault kind "
                              "\"stall\"" },
    { true, "submit:1:cp-stall;;irq:1:spurious-cp", "empty entry in" },
    { true, "submit:1:cp-stall;", "empty entry at the end of" },
    { true, "seed=1", "\"seed=1\": expected EVENT:N:KIND" },
    { true, "read:1:stale-read;read:2:stale-read;read:3:stale-read;"
            "read:4:stale-read;read:5:stale-read;read:6:stale-read;"
            "read:7:stale-read;read:8:stale-read;read:9:stale-read;"
            "read:10:stale-read;read:11:stale-read;read:12:stale-read;"
            "read:13:stale-read;read:14:stale-read;read:15:stale-read;"
            "read:16:stale-read;read:17:stale-read",
      "\"read:17:stale-read\": more than 16 script entries" },
};

static void test_parse_bad(void)
{
    static const char *const random_before = "seed=5,reset-slow=7";
    static const char *const script_before = "submit:3:cp-stall";
    char out[AGPU_FAULTS_TEXT_MAX];
    char err[AGPU_FAULTS_ERROR_MAX];
    AGpuFaults f, before;
    unsigned i;

    agpu_faults_init(&f);
    g_assert_cmpint(agpu_faults_set_random(&f, random_before, NULL, 0),
                    ==, 0);
    g_assert_cmpint(agpu_faults_set_script(&f, script_before, NULL, 0),
                    ==, 0);
    /* some run state, which a refused plan must not restart either */
    agpu_faults_submit(&f, 0);
    agpu_faults_write(&f, AGPU_REG_CP_SCRATCH_REG0, 5);
    g_assert_cmpuint(f.events[AGPU_FAULT_EV_SUBMIT], ==, 1);
    memcpy(&before, &f, sizeof(f));
    for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
        const BadCase *bc = &bad_cases[i];
        int ret;

        memset(err, 0, sizeof(err));
        if (bc->script) {
            ret = agpu_faults_set_script(&f, bc->text, err, sizeof(err));
        } else {
            ret = agpu_faults_set_random(&f, bc->text, err, sizeof(err));
        }
        if (ret != -1 || !strstr(err, bc->says)) {
            g_error("\"%s\": returned %d, said \"%s\", expected \"%s\"",
                    bc->text, ret, err, bc->says);
        }
        /* the previous plan stays, and so does its run state */
        g_assert_cmpmem(&f, sizeof(f), &before, sizeof(before));
        /* without a buffer it fails the same, silently */
        if (bc->script) {
            ret = agpu_faults_set_script(&f, bc->text, NULL, 0);
        } else {
            ret = agpu_faults_set_random(&f, bc->text, NULL, 0);
        }
        g_assert_cmpint(ret, ==, -1);
    }
    agpu_faults_format_random(&f, out, sizeof(out));
    g_assert_cmpstr(out, ==, random_before);
    agpu_faults_format_script(&f, out, sizeof(out));
    g_assert_cmpstr(out, ==, script_before);
}

/*
 * The table is well formed (models/faultplan's checks), it is the one
 * for the enums, and this device's parser knows each kind under its name,
 * at its own event.
 */
static void test_table(void)
{
    const FaultPlanTable *t = agpu_fault_plan_table();
    char err[AGPU_FAULTS_ERROR_MAX];
    char text[64];
    AGpuFaults f;
    int k;

    g_assert_cmpuint(t->nkinds, ==, AGPU_FAULT_KINDS);
    g_assert_cmpuint(t->nevents, ==, AGPU_FAULT_EVENTS);
    g_assert_cmpuint(t->script_max, ==, AGPU_FAULT_SCRIPT_MAX);
    faultplan_check_table(t);
    for (k = 0; k < AGPU_FAULT_KINDS; k++) {
        agpu_faults_init(&f);
        g_snprintf(text, sizeof(text), "%s=1", agpu_fault_name(k));
        g_assert_cmpint(agpu_faults_set_random(&f, text, err, sizeof(err)),
                        ==, 0);
        g_assert_cmpint(f.permille[k], ==, 1);
        g_snprintf(text, sizeof(text), "%s:1:%s",
                   agpu_fault_event_name(agpu_fault_event(k)),
                   agpu_fault_name(k));
        g_assert_cmpint(agpu_faults_set_script(&f, text, err, sizeof(err)),
                        ==, 0);
        g_assert_cmpint(f.script_kind[0], ==, k);
        g_assert_cmpint(f.script_event[0], ==, agpu_fault_event(k));
    }
}

/* the table of kinds in docs/devices/agpu.md ("Fault plans") is the code's */
static void test_docs(void)
{
    faultplan_check_docs(agpu_fault_plan_table(), "AGPU_DOC");
}

static void test_valid(void)
{
    AGpuFaults f;

    agpu_faults_init(&f);
    g_assert_true(agpu_faults_valid(&f));
    g_assert_false(agpu_faults_in_use(&f));
    g_assert_cmpint(agpu_faults_set_script(&f, "irq:1:spurious-cp", NULL,
                                           0), ==, 0);
    g_assert_true(agpu_faults_in_use(&f));
    f.script_len = AGPU_FAULT_SCRIPT_MAX + 1;
    g_assert_false(agpu_faults_valid(&f));
    f.script_len = 1;
    f.script_event[0] = AGPU_FAULT_EVENTS;
    g_assert_false(agpu_faults_valid(&f));
    f.script_event[0] = 0;
    f.script_kind[0] = AGPU_FAULT_KINDS;
    g_assert_false(agpu_faults_valid(&f));
    f.script_kind[0] = 0;
    f.script_n[0] = 0;
    g_assert_false(agpu_faults_valid(&f));
    f.script_n[0] = 1;
    f.permille[3] = AGPU_FAULT_PERMILLE + 1;
    g_assert_false(agpu_faults_valid(&f));
    f.permille[3] = AGPU_FAULT_PERMILLE;
    g_assert_true(agpu_faults_valid(&f));
    f.stale_len = AGPU_FAULT_STALE_WRITES + 1;
    g_assert_false(agpu_faults_valid(&f));
    f.stale_len = 1;
    f.stale_reg[0] = AGPU_NUM_REGS;
    g_assert_false(agpu_faults_valid(&f));
    f.stale_reg[0] = AGPU_NUM_REGS - 1;
    f.stale_next = AGPU_FAULT_STALE_WRITES;
    g_assert_false(agpu_faults_valid(&f));
    f.stale_next = 1;
    f.reset_slow_left = AGPU_FAULT_RESET_SLOW_POLLS + 1;
    g_assert_false(agpu_faults_valid(&f));
    f.reset_slow_left = AGPU_FAULT_RESET_SLOW_POLLS;
    g_assert_true(agpu_faults_valid(&f));
    /* a seed alone is kept, so it is migrated; so is state left behind */
    agpu_faults_init(&f);
    g_assert_cmpint(agpu_faults_set_random(&f, "seed=3", NULL, 0), ==, 0);
    g_assert_true(agpu_faults_in_use(&f));
    g_assert_false(agpu_faults_active(&f));
    agpu_faults_init(&f);
    f.stall_armed = true;
    g_assert_true(agpu_faults_in_use(&f));
    agpu_faults_init(&f);
    f.reset_slow_left = 1;
    g_assert_true(agpu_faults_in_use(&f));
    /* NULL: no plan */
    g_assert_false(agpu_faults_in_use(NULL));
    g_assert_false(agpu_faults_active(NULL));
    g_assert_false(agpu_faults_resetting(NULL));
    g_assert_false(agpu_faults_reset_poll(NULL));
    g_assert_false(agpu_faults_mmu(NULL));
    g_assert_false(agpu_faults_cp_stalls(NULL, 0));
    g_assert_cmphex(agpu_faults_read(NULL, AGPU_REG_CP_RB_RPTR, 7, 16), ==,
                    7);
    g_assert_cmphex(agpu_faults_rptr_shadow(NULL, 7, 16), ==, 7);
    g_assert_cmphex(agpu_faults_ack(NULL, 1), ==, 0);
}

/* ---- the driver for a while, recorded ---- */

/*
 * The same driver actions for any plan (from their own generator), all
 * the driver sees appended to @log: fences, RPTR, status registers, the
 * interrupt line, and whether recovery worked.
 */
static void session(Rig *r, uint32_t seed, int steps, GString *log)
{
    GRand *rand = g_rand_new_with_seed(seed);
    Fake *f = r->f;
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t ib = bo_new(f, 1, PROT_RW);
    int step, k;

    for (step = 0; step < steps; step++) {
        int op = g_rand_int_range(rand, 0, 8);
        uint32_t seqno;

        g_string_append_printf(log, "%d:", op);
        switch (op) {
        case 0:
        case 1:
        case 2:
            /* a submit whose IB writes memory */
            va_w32(f, ib, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
            va_w32(f, ib + 4, dst);
            va_w32(f, ib + 8, step);
            seqno = kernel_submit(f, ib, 3);
            kick(f);
            g_string_append_printf(log, "%d,%x", fence(f) == seqno,
                                   va_r32(f, dst));
            break;
        case 3:
            seqno = empty_submit(f);
            g_string_append_printf(log, "%d", fence(f) == seqno);
            break;
        case 4:
        case 5:
            /* the IRQ handler, until the line is low */
            for (k = 0; k < 8 && f->irq; k++) {
                IrqResult ir = kernel_irq_handler(f);

                g_string_append_printf(log, "%x/%x/%x/%x/%x,", ir.master,
                                       ir.mh, ir.page_fault, ir.cp, ir.rbbm);
            }
            break;
        case 6: {
            /* one read after the other: with a plan, reads are events */
            static const uint32_t regs[] = {
                AGPU_REG_CP_RB_RPTR, AGPU_REG_RBBM_STATUS,
                AGPU_REG_CP_SCRATCH_REG0 + 2, AGPU_REG_CP_INT_CNTL,
            };

            for (k = 0; k < (int)G_N_ELEMENTS(regs); k++) {
                g_string_append_printf(log, "%x,", rd(f, regs[k]));
            }
            break;
        }
        case 7:
            /* hangcheck: no progress while busy means recovery */
            kick(f);
            if (rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE) {
                va_w32(f, f->memptrs_va + 4, f->seqno);
                g_string_append_printf(log, "recover%d", kernel_recover(f));
            }
            break;
        }
        g_string_append_printf(log, " irq%d\n", f->irq);
    }
    g_rand_free(rand);
}

/* a mixed plan: every kind now and then */
static const char *const mixed_plan =
    "seed=42,irq-storm=200,spurious-rbbm=60,spurious-cp=60,spurious-mh=60,"
    "cp-stall=60,rptr-jump=100,mmu-fault=3,reset-slow=150,stale-read=100";

static void test_determinism(void)
{
    Rig *a = rig_new(true), *b = rig_new(true), *c = rig_new(true);
    GString *la = g_string_new(""), *lb = g_string_new("");
    GString *lc = g_string_new("");
    char ca[AGPU_FAULTS_TEXT_MAX], cb[AGPU_FAULTS_TEXT_MAX];
    AGpuFaults pa, pb;
    uint32_t total = 0, seqno;
    int k;

    rig_plan(a, mixed_plan, "submit:3:cp-stall");
    rig_plan(b, mixed_plan, "submit:3:cp-stall");
    rig_plan(c, "seed=43,irq-storm=200,spurious-rbbm=60,spurious-cp=60,"
             "spurious-mh=60,cp-stall=60,rptr-jump=100,mmu-fault=3,"
             "reset-slow=150,stale-read=100", "submit:3:cp-stall");
    session(a, 7, 300, la);
    session(b, 7, 300, lb);
    session(c, 7, 300, lc);
    g_assert_cmpstr(la->str, ==, lb->str);
    g_assert_cmpstr(a->notes->str, ==, b->notes->str);
    pa = a->p;
    pb = b->p;
    pa.notify_opaque = pb.notify_opaque = NULL;
    g_assert_cmpmem(&pa, sizeof(pa), &pb, sizeof(pb));
    g_assert_cmpmem(a->f->gpu.regs, sizeof(a->f->gpu.regs),
                    b->f->gpu.regs, sizeof(b->f->gpu.regs));
    agpu_faults_format_counts(&a->p, ca, sizeof(ca));
    agpu_faults_format_counts(&b->p, cb, sizeof(cb));
    g_assert_cmpstr(ca, ==, cb);
    /* every kind happened, and another seed does something else */
    for (k = 0; k < AGPU_FAULT_KINDS; k++) {
        if (!a->p.injected[k]) {
            g_error("%s never happened (%s)", agpu_fault_name(k), ca);
        }
        total += a->p.injected[k];
    }
    g_assert_cmpuint(total, >, 20);
    g_assert_cmpstr(a->notes->str, !=, c->notes->str);
    /* the session recovered from what the plan did: it ends working */
    rig_plan(a, "", "");
    kick(a->f);
    if (a->f->gpu.hung || agpu_cp_busy(&a->f->gpu)) {
        va_w32(a->f, a->f->memptrs_va + 4, a->f->seqno);
        agpu_reset(&a->f->gpu);
        g_assert_true(kernel_hw_init(a->f, &fw_good));
    }
    while (a->f->irq) {
        kernel_irq(a->f);
    }
    seqno = empty_submit(a->f);
    g_assert_cmphex(fence(a->f), ==, seqno);
    g_test_message("faults: %s", ca);
    g_string_free(la, TRUE);
    g_string_free(lb, TRUE);
    g_string_free(lc, TRUE);
    rig_free(a);
    rig_free(b);
    rig_free(c);
}

/* no plan and an empty plan: the same session, the same state */
static void test_empty_plan(void)
{
    Rig *none = rig_new(false), *empty = rig_new(true);
    GString *ln = g_string_new(""), *le = g_string_new("");
    AGpuCore core_none, core_empty;
    AGpuFaults fresh;

    rig_plan(empty, "", "");
    session(none, 11, 300, ln);
    session(empty, 11, 300, le);
    g_assert_cmpstr(ln->str, ==, le->str);
    g_assert_cmpstr(empty->notes->str, ==, "");
    /* the plan counted nothing and kept nothing */
    agpu_faults_init(&fresh);
    fresh.notify = rig_note;
    fresh.notify_opaque = empty;
    g_assert_cmpmem(&empty->p, sizeof(empty->p), &fresh, sizeof(fresh));
    /* the cores agree but for their links */
    memcpy(&core_none, &none->f->gpu, sizeof(core_none));
    memcpy(&core_empty, &empty->f->gpu, sizeof(core_empty));
    core_none.opaque = core_empty.opaque = NULL;
    core_none.faults = core_empty.faults = NULL;
    g_assert_cmpmem(&core_none, sizeof(core_none), &core_empty,
                    sizeof(core_empty));
    g_assert_cmpmem(none->f->mem, MEM_SIZE, empty->f->mem, MEM_SIZE);
    g_assert_cmpuint(none->f->irq_changes, ==, empty->f->irq_changes);
    g_string_free(ln, TRUE);
    g_string_free(le, TRUE);
    rig_free(none);
    rig_free(empty);
}

/*
 * The glue contract: reads have no side effects without a plan; with one
 * they count the plan's events, and change nothing else.
 */
static void test_reads(void)
{
    Rig *r = rig_new(true);
    AGpuCore *before = g_new(AGpuCore, 1);
    AGpuFaults plan_before;
    uint32_t reg;

    empty_submit(r->f);
    g_assert_true(r->f->irq);
    memcpy(before, &r->f->gpu, sizeof(*before));
    memcpy(&plan_before, &r->p, sizeof(plan_before));
    for (reg = 0; reg < AGPU_NUM_REGS; reg++) {
        rd(r->f, reg);
    }
    g_assert_cmpmem(before, sizeof(*before), &r->f->gpu, sizeof(*before));
    g_assert_cmpmem(&plan_before, sizeof(plan_before), &r->p,
                    sizeof(r->p));

    /* a plan that changes no value: only its counts move */
    rig_plan(r, "", "reset:9:reset-slow");
    for (reg = 0; reg < AGPU_NUM_REGS; reg++) {
        rd(r->f, reg);
    }
    g_assert_cmpmem(before, sizeof(*before), &r->f->gpu, sizeof(*before));
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_READ], ==, AGPU_NUM_REGS);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_RPTR], ==, 1);
    /* outside the window: not a register, not an event */
    g_assert_cmpuint(rd(r->f, AGPU_NUM_REGS), ==, 0);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_READ], ==, AGPU_NUM_REGS);
    g_free(before);
    rig_free(r);
}

/* ---- each kind ---- */

/* irq-storm: what the driver acked latches again, the line rises again */
static void test_irq_storm(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    IrqResult ir;
    int i;

    rig_plan(r, "", "ack:1:irq-storm");
    empty_submit(f);
    g_assert_true(f->irq);
    ir = kernel_irq_handler(f);
    g_assert_cmphex(ir.cp, ==, AGPU_CP_INT_RB);
    /* raised again at once, with the status already handled */
    g_assert_true(f->irq);
    g_assert_cmpuint(f->irq_rises, ==, 2);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, AGPU_CP_INT_RB);
    g_assert_cmphex(rd(f, AGPU_REG_MASTER_INT_SIGNAL), ==,
                    AGPU_MASTER_CP_INT);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 2);
    /* the next ack ends it */
    ir = kernel_irq(f);
    g_assert_cmphex(ir.cp, ==, AGPU_CP_INT_RB);
    g_assert_cmpstr(r->notes->str, ==, "irq-storm@ack#1;");

    /* 1000 per mille: a stuck interrupt, every ack; until the plan goes */
    rig_plan(r, "irq-storm=1000", "");
    empty_submit(f);
    for (i = 0; i < 50; i++) {
        ir = kernel_irq_handler(f);
        g_assert_cmphex(ir.cp, ==, AGPU_CP_INT_RB);
        g_assert_true(f->irq);
    }
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_IRQ_STORM], ==, 50);
    rig_plan(r, "", "");
    kernel_irq(f);

    /* an ack of nothing is no event; a masked bit does not latch again */
    rig_plan(r, "irq-storm=1000", "");
    wr(f, AGPU_REG_CP_INT_ACK, AGPU_CP_INT_RB);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_ACK], ==, 0);
    empty_submit(f);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL & ~AGPU_CP_INT_RB);
    g_assert_false(f->irq);
    wr(f, AGPU_REG_CP_INT_ACK, AGPU_CP_INT_RB);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_ACK], ==, 1);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL);
    g_assert_false(f->irq);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, 0);

    /* MH and RBBM acks storm too */
    rig_plan(r, "", "ack:1:irq-storm;ack:2:irq-storm");
    va_w32(f, r->flag_va, 0);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, 0x00400000);            /* below the gpummu window */
    out_ring(f, 1);
    flush(f);
    kick(f);
    g_assert_true(f->irq);
    wr(f, AGPU_REG_MH_INTERRUPT_CLEAR, AGPU_MH_INT_MMU_PAGE_FAULT);
    g_assert_true(f->irq);
    g_assert_cmphex(rd(f, AGPU_REG_MH_INTERRUPT_STATUS), ==,
                    AGPU_MH_INT_MMU_PAGE_FAULT);
    wr(f, AGPU_REG_MH_INTERRUPT_CLEAR, AGPU_MH_INT_MMU_PAGE_FAULT);
    g_assert_true(f->irq);
    wr(f, AGPU_REG_MH_INTERRUPT_CLEAR, AGPU_MH_INT_MMU_PAGE_FAULT);
    g_assert_false(f->irq);
    g_assert_cmpstr(r->notes->str, ==, "irq-storm@ack#1;irq-storm@ack#2;");
    rig_free(r);
}

typedef struct SpuriousCase {
    const char *kind;
    uint32_t status_reg;
    uint32_t mask_reg;
    uint32_t master;
    uint32_t normal;            /* the bits the submit itself raises */
    uint32_t can;               /* the bits the fault may set */
} SpuriousCase;

static const SpuriousCase spurious_cases[] = {
    { "spurious-rbbm", AGPU_REG_RBBM_INT_STATUS, AGPU_REG_RBBM_INT_CNTL,
      AGPU_MASTER_RBBM_INT, 0, AGPU_RBBM_INT_RDERR },
    { "spurious-cp", AGPU_REG_CP_INT_STATUS, AGPU_REG_CP_INT_CNTL,
      AGPU_MASTER_CP_INT, AGPU_CP_INT_RB,
      AGPU_CP_INT_T0_PACKET_IN_IB | AGPU_CP_INT_OPCODE_ERROR |
      AGPU_CP_INT_PROTECTED_MODE_ERROR | AGPU_CP_INT_RESERVED_BIT_ERROR |
      AGPU_CP_INT_IB_ERROR },
    { "spurious-mh", AGPU_REG_MH_INTERRUPT_STATUS, AGPU_REG_MH_INTERRUPT_MASK,
      AGPU_MASTER_MH_INT, 0,
      AGPU_MH_INT_AXI_READ_ERROR | AGPU_MH_INT_AXI_WRITE_ERROR },
};

/* a status bit with the interrupt, one the driver handles, no cause */
static void test_spurious(gconstpointer data)
{
    const SpuriousCase *sc = data;
    Rig *r = rig_new(true);
    Fake *f = r->f;
    g_autofree char *plan = g_strdup_printf("seed=9,%s=1000", sc->kind);
    g_autofree char *note = g_strdup_printf("%s@irq#2;", sc->kind);
    uint32_t seen = 0, st, seqno;
    uint32_t fault_reg = rd(f, AGPU_REG_MH_MMU_PAGE_FAULT);
    uint32_t mask = rd(f, sc->mask_reg);
    int i;

    rig_plan(r, plan, "");
    for (i = 0; i < 60; i++) {
        IrqResult ir;

        seqno = empty_submit(f);
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_true(f->irq);
        g_assert_true(rd(f, AGPU_REG_MASTER_INT_SIGNAL) & sc->master);
        st = rd(f, sc->status_reg) & ~sc->normal;
        /* one of the bits, nothing else */
        g_assert_cmphex(st & ~sc->can, ==, 0);
        g_assert_cmpuint(__builtin_popcount(st), ==, 1);
        seen |= st;
        ir = kernel_irq(f);
        g_assert_cmphex(ir.cp & ~(AGPU_CP_INT_RB | sc->can), ==, 0);
    }
    /* every bit turns up; nothing else moved: no page fault, no VA */
    g_assert_cmphex(seen, ==, sc->can);
    g_assert_cmphex(rd(f, AGPU_REG_MH_MMU_PAGE_FAULT), ==, fault_reg);
    g_assert_cmpuint(f->gpu.stat_mmu_faults + f->gpu.stat_bus_errors +
                     f->gpu.stat_opcode_errors, ==, 0);
    g_assert_cmpuint(f->guest_errors, ==, 0);

    /* a block whose causes are all masked cannot show one: it waits */
    wr(f, sc->mask_reg, mask & ~sc->can);
    g_autofree char *script = g_strdup_printf("irq:1:%s", sc->kind);
    rig_plan(r, "", script);
    empty_submit(f);
    g_assert_cmphex(rd(f, sc->status_reg) & sc->can, ==, 0);
    kernel_irq(f);
    wr(f, sc->mask_reg, mask);
    empty_submit(f);
    g_assert_cmpuint(__builtin_popcount(rd(f, sc->status_reg) & sc->can),
                     ==, 1);
    kernel_irq(f);
    g_assert_cmpstr(r->notes->str, ==, note);
    assert_sane_idle(f);
    rig_free(r);
}

/* the rate of a random plan is its per mille */
static void test_random_rate(void)
{
    Rig *r = rig_new(true);
    char counts[AGPU_FAULTS_TEXT_MAX];
    g_autofree char *want = NULL;
    int i, hits = 0;

    rig_plan(r, "seed=1,spurious-cp=250", "");
    for (i = 0; i < 2000; i++) {
        empty_submit(r->f);
        hits += (rd(r->f, AGPU_REG_CP_INT_STATUS) & ~AGPU_CP_INT_RB) != 0;
        kernel_irq(r->f);
    }
    g_assert_cmpint(hits, >, 430);
    g_assert_cmpint(hits, <, 570);
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_SPURIOUS_CP], ==, hits);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 2000);
    agpu_faults_format_counts(&r->p, counts, sizeof(counts));
    want = g_strdup_printf("spurious-cp=%d", hits);
    g_assert_cmpstr(counts, ==, want);
    rig_free(r);
}

/* cp-stall: a hang the driver's hangcheck and a2xx_recover() get past */
static void test_cp_stall(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    AGpuCore *g = &f->gpu;
    uint32_t rptr0 = f->ring_cur, seqno, i;

    rig_plan(r, "", "submit:1:cp-stall");
    seqno = kernel_submit(f, 0, 0);
    g_assert_false(agpu_run(g, 256));
    /* hung: busy, RPTR on the submit's first packet, no fence, no IRQ */
    g_assert_true(g->hung);
    g_assert_cmpuint(g->stat_hangs, ==, 1);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_cmphex(fence(f), !=, seqno);
    g_assert_false(f->irq);
    g_assert_false(agpu_cp_runnable(g));
    for (i = 0; i < 3; i++) {
        g_assert_false(agpu_run(g, 256));
        g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    }
    g_assert_cmpuint(f->guest_errors, ==, 0);
    g_assert_cmpstr(r->notes->str, ==, "cp-stall@submit#1;");
    /* recover_worker(): the fence by the CPU, then a2xx_recover() */
    va_w32(f, f->memptrs_va + 4, seqno);
    g_assert_true(kernel_recover(f));
    seqno = empty_submit(f);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);
    assert_sane_idle(f);

    /* with two submits queued, the CP stops at the second one's start */
    rig_plan(r, "", "submit:2:cp-stall");
    kernel_submit(f, 0, 0);
    rptr0 = f->ring_cur;
    seqno = kernel_submit(f, 0, 0);
    kick(f);
    g_assert_true(g->hung);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_cmphex(fence(f), ==, seqno - 1);
    kernel_irq(f);
    va_w32(f, f->memptrs_va + 4, seqno);
    g_assert_true(kernel_recover(f));

    /* a reset before the CP gets there drops the stall */
    rig_plan(r, "", "submit:1:cp-stall");
    wr(f, AGPU_REG_CP_ME_CNTL, AGPU_ME_CNTL_HALT);
    kernel_submit(f, 0, 0);
    g_assert_true(r->p.stall_armed);
    g_assert_true(agpu_faults_in_use(&r->p));
    va_w32(f, f->memptrs_va + 4, f->seqno);
    g_assert_true(kernel_recover(f));
    g_assert_false(r->p.stall_armed);
    seqno = empty_submit(f);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);
    assert_sane_idle(f);

    /* one stall at a time: a second one waits for the next submit */
    rig_plan(r, "", "submit:1:cp-stall;submit:2:cp-stall");
    wr(f, AGPU_REG_CP_ME_CNTL, AGPU_ME_CNTL_HALT);
    rptr0 = f->ring_cur;
    kernel_submit(f, 0, 0);
    kernel_submit(f, 0, 0);
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_CP_STALL], ==, 1);
    g_assert_true(r->p.pending[AGPU_FAULT_CP_STALL]);
    wr(f, AGPU_REG_CP_ME_CNTL, 0);
    kick(f);
    g_assert_true(f->gpu.hung);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    va_w32(f, f->memptrs_va + 4, f->seqno);
    /* the waiting one takes the next submit: hw_init's me_init fails */
    g_assert_false(kernel_recover(f));
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_CP_STALL], ==, 2);
    g_assert_true(f->gpu.hung);
    g_assert_cmpstr(r->notes->str, ==,
                    "cp-stall@submit#1;cp-stall@submit#3;");
    /* and the next recovery works */
    g_assert_true(kernel_recover(f));
    rig_free(r);
}

/* rptr-jump: CP_RB_RPTR, or its shadow, reports another ring index */
static void test_rptr_jump(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    uint32_t size = RING_DWORDS, shadow = bo_new(f, 1, PROT_RW);
    uint32_t v, i, seqno;

    empty_submit(f);
    kernel_irq(f);
    rig_plan(r, "seed=4,rptr-jump=1000", "");
    for (i = 0; i < 200; i++) {
        v = rd(f, AGPU_REG_CP_RB_RPTR);
        g_assert_cmpuint(v, !=, f->ring_cur);
        g_assert_cmpuint(v, <, size);
    }
    /* the CP itself is where it was: idle, the next submit works */
    g_assert_cmpuint(f->gpu.rb_rptr, ==, f->ring_cur);
    rig_plan(r, "", "");
    seqno = empty_submit(f);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);

    /* scripted: the third report only; the register is not also stale */
    rig_plan(r, "stale-read=1000", "rptr:3:rptr-jump");
    wr(f, AGPU_REG_CP_RB_RPTR, 5);      /* ignored; recorded */
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, f->ring_cur);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, f->ring_cur);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), !=, f->ring_cur);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, f->ring_cur);
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_STALE_READ], ==, 3);

    /* the shadow a KGSL-style driver reads (NO_UPDATE clear) */
    rig_plan(r, "", "");
    wr(f, AGPU_REG_CP_RB_CNTL, HW_RB_CNTL & ~AGPU_RB_CNTL_NO_UPDATE);
    wr(f, AGPU_REG_CP_RB_RPTR_ADDR, shadow);
    empty_submit(f);
    kernel_irq(f);
    g_assert_cmpuint(va_r32(f, shadow), ==, f->ring_cur);
    rig_plan(r, "rptr-jump=1000", "");
    empty_submit(f);
    kernel_irq(f);
    g_assert_cmpuint(va_r32(f, shadow), !=, f->ring_cur);
    g_assert_cmpuint(va_r32(f, shadow), <, size);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), !=, f->ring_cur);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_RPTR], ==, 2);
    rig_free(r);
}

/* what an mmu-fault at the Kth gpummu access of a submit did */
typedef enum MmuOutcome {
    MMU_HUNG,                   /* a ring fetch failed: the CP hangs */
    MMU_NO_WRITE,               /* the IB's write or its fetch failed */
    MMU_NO_FENCE,               /* the fence write failed */
    MMU_OUTCOMES
} MmuOutcome;

/*
 * mmu-fault: at every gpummu translation of a submit in turn, a page
 * fault on a page the driver mapped, as the MH latches and reports one.
 */
static void test_mmu_fault(void)
{
    Rig *r = rig_new(true);
    uint32_t dst, ib, w[3], total, k, outcomes[MMU_OUTCOMES] = { 0 };
    uint32_t writes = 0;

    /* how many translations the submit makes: a plan that never fires */
    dst = bo_new(r->f, 1, PROT_RW);
    w[0] = AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2);
    w[1] = dst;
    w[2] = 0x900d;
    ib = ib_new(r->f, w, 3);
    rig_plan(r, "", "reset:4294967295:reset-slow");
    kernel_submit(r->f, ib, 3);
    kick(r->f);
    g_assert_cmphex(va_r32(r->f, dst), ==, 0x900d);
    total = r->p.events[AGPU_FAULT_EV_MMU];
    g_assert_cmpuint(total, >=, 6);
    rig_free(r);

    for (k = 1; k <= total; k++) {
        g_autofree char *script = g_strdup_printf("mmu:%u:mmu-fault", k);
        Fake *f;
        uint32_t seqno, fault, pte;
        IrqResult ir;

        r = rig_new(true);
        f = r->f;
        dst = bo_new(f, 1, PROT_RW);
        ib = ib_new(f, w, 3);
        w[1] = dst;
        va_w32(f, ib + 4, dst);
        rig_plan(r, "", script);
        seqno = kernel_submit(f, ib, 3);
        kick(f);
        g_assert_cmpuint(r->p.injected[AGPU_FAULT_MMU_FAULT], ==, 1);
        g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 1);
        /*
         * The hardware's fault, not a guest error; only what follows a
         * failed ring fetch (the CP hangs) is logged.
         */
        if (f->guest_errors) {
            g_assert_cmpuint(f->guest_errors, ==, 1);
            g_assert_true(f->gpu.hung);
            g_assert_nonnull(strstr(f->last_error,
                                    "cannot fetch from the ring"));
        }
        g_assert_true(f->irq);
        ir = kernel_irq_handler(f);
        g_assert_true(ir.master & AGPU_MASTER_MH_INT);
        g_assert_cmphex(ir.mh & AGPU_MH_INT_MMU_PAGE_FAULT, !=, 0);
        /* a valid VA, on a page the page table maps */
        fault = ir.page_fault;
        g_assert_true(fault & AGPU_PAGE_FAULT_VALID);
        g_assert_cmpuint(fault & ~0xfffu, >=, VA_START);
        g_assert_cmpuint(fault & ~0xfffu, <, VA_END);
        pte = pa_r32(f, f->pt_pa + ((fault & ~0xfffu) - VA_START) / PAGE * 4);
        g_assert_cmphex(pte & ~0xfffu, !=, 0);
        if (fault & AGPU_PAGE_FAULT_WRITE) {
            writes++;
        }
        if (f->gpu.hung) {
            /* the packets after the fault's never ran, the fence maybe */
            outcomes[MMU_HUNG]++;
            g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), !=, f->ring_cur);
        } else if (va_r32(f, dst) != 0x900d) {
            outcomes[MMU_NO_WRITE]++;
            g_assert_cmphex(fence(f), ==, seqno);
        } else {
            outcomes[MMU_NO_FENCE]++;
            g_assert_cmphex(fence(f), !=, seqno);
        }
        /* whatever it hit, recovery gets the GPU back */
        while (f->irq) {
            kernel_irq(f);
        }
        va_w32(f, f->memptrs_va + 4, seqno);
        g_assert_true(kernel_recover(f));
        seqno = empty_submit(f);
        g_assert_cmphex(fence(f), ==, seqno);
        kernel_irq(f);
        rig_free(r);
    }
    g_assert_cmpuint(outcomes[MMU_HUNG], >=, 1);
    g_assert_cmpuint(outcomes[MMU_NO_WRITE], >=, 1);
    g_assert_cmpuint(outcomes[MMU_NO_FENCE], >=, 1);
    g_assert_cmpuint(writes, >=, 2);    /* the IB's write and the fence */
}

/*
 * reset-slow: after the soft reset the CP stays busy and stopped for 2 s
 * of polls; the driver's wait (1 s) times out, hw_init fails, and the
 * GPU comes back on its own afterwards.
 */
static void test_reset_slow(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    AGpuCore *g = &f->gpu;
    uint32_t i, seqno;

    rig_plan(r, "", "reset:1:reset-slow");
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    g_assert_true(agpu_faults_resetting(&r->p));
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_SOFT_RESET), ==, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    /* busy in every status the driver (and KGSL) reads */
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_true(rd(f, AGPU_REG_CP_STAT) & AGPU_CP_STAT_CP_BUSY);
    g_assert_true(rd(f, AGPU_REG_CP_ME_CNTL) & AGPU_ME_CNTL_BUSY);
    /* the glue polls it like a wait */
    g_assert_true(agpu_cp_runnable(g));
    g_assert_true(agpu_cp_waiting(g));
    for (i = 1; i < AGPU_FAULT_RESET_SLOW_POLLS; i++) {
        if (!agpu_run(g, 256) || !agpu_faults_resetting(&r->p)) {
            g_error("the reset ended after %u polls", i);
        }
    }
    g_assert_false(agpu_run(g, 256));
    g_assert_false(agpu_faults_resetting(&r->p));
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_STATUS), ==,
                    AGPU_RBBM_STATUS_CMDFIFO_AVAIL);
    g_assert_cmpstr(r->notes->str, ==, "reset-slow@reset#1;");

    /* the recovery path: a2xx_recover(), hw_init's own reset, me_init */
    rig_plan(r, "", "reset:1:reset-slow");
    g_assert_false(kernel_recover(f));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_RESET], ==, 2);
    /* ... then the reset completes and the CP runs what is queued */
    seqno = kernel_submit(f, 0, 0);
    g_assert_true(kernel_idle(f));
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_true(f->gpu.protected_mode);
    kernel_irq(f);
    assert_sane_idle(f);

    /* clearing the plan does not end a slow reset; a power-on reset does */
    rig_plan(r, "", "reset:1:reset-slow");
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    rig_plan(r, "", "");
    g_assert_true(agpu_faults_in_use(&r->p));
    g_assert_true(agpu_cp_busy(g));
    agpu_reset(g);
    g_assert_false(agpu_faults_resetting(&r->p));
    g_assert_false(agpu_faults_in_use(&r->p));
    g_assert_true(kernel_hw_init(f, &fw_good));
    rig_free(r);
}

/* stale-read: a read overtakes the last write to its register */
static void test_stale_read(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    uint32_t scratch = AGPU_REG_CP_SCRATCH_REG0 + 5, i, seqno, out;
    uint32_t r2m[] = { AGPU_PM4_PKT3(AGPU_CP_REG_TO_MEM, 2),
                       AGPU_REG_CP_SCRATCH_REG0 + 2, 0 };

    rig_plan(r, "", "read:1:stale-read");
    wr(f, scratch, 1);
    wr(f, scratch, 2);
    g_assert_cmpuint(rd(f, scratch), ==, 1);
    g_assert_cmpuint(rd(f, scratch), ==, 2);
    g_assert_cmpstr(r->notes->str, ==, "stale-read@read#1;");

    /* a register not written lately is never stale: the fault waits */
    rig_plan(r, "", "read:1:stale-read");
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_STATUS), ==,
                    AGPU_RBBM_STATUS_CMDFIFO_AVAIL);
    wr(f, scratch, 3);
    g_assert_cmpuint(rd(f, scratch), ==, 2);
    g_assert_cmpstr(r->notes->str, ==, "stale-read@read#2;");

    /* the CP's own writes count: the scratch seqno of the last submit */
    rig_plan(r, "stale-read=1000", "");
    empty_submit(f);
    kernel_irq(f);
    seqno = empty_submit(f);
    g_assert_cmphex(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 2), ==, seqno - 1);
    kernel_irq(f);

    /* only the last AGPU_FAULT_STALE_WRITES writes are remembered */
    rig_plan(r, "stale-read=1000", "");
    for (i = 0; i <= AGPU_FAULT_STALE_WRITES; i++) {
        wr(f, AGPU_REG_CP_SCRATCH_REG0 + 0, 100 + i);
    }
    for (i = 0; i < AGPU_FAULT_STALE_WRITES; i++) {
        wr(f, AGPU_REG_SQ_PS_PROGRAM, 200 + i);
    }
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0), ==,
                     100 + AGPU_FAULT_STALE_WRITES);
    g_assert_cmpuint(rd(f, AGPU_REG_SQ_PS_PROGRAM), ==,
                     200 + AGPU_FAULT_STALE_WRITES - 2);

    /* the CP's reads are never stale: only the guest's are */
    out = bo_new(f, 1, PROT_RW);
    r2m[2] = out;
    seqno = run_ib(f, r2m, 3);
    /* the IB runs before its submit writes the scratch: the last seqno */
    g_assert_cmphex(va_r32(f, out), ==, seqno - 1);
    kernel_irq(f);

    /* without a plan nothing is remembered: a new plan starts afresh */
    rig_plan(r, "", "");
    wr(f, scratch, 9);
    rig_plan(r, "stale-read=1000", "");
    g_assert_cmpuint(rd(f, scratch), ==, 9);
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_STALE_READ], ==, 0);
    /* and a power-on reset forgets the writes */
    wr(f, scratch, 10);
    agpu_reset(&f->gpu);
    g_assert_cmpuint(rd(f, scratch), ==, 0);
    rig_free(r);
}

/* ---- the script: the Nth event, not the one before or after ---- */

typedef struct ExactCase {
    const char *kind;
    void (*setup)(Rig *r);      /* before the plan is set; optional */
    /* one event of the kind's own; true if the fault showed */
    bool (*event)(Rig *r);
} ExactCase;

static bool exact_ack(Rig *r)
{
    Fake *f = r->f;

    if (!(rd(f, AGPU_REG_CP_INT_STATUS) & AGPU_CP_INT_RB)) {
        empty_submit(f);
    }
    wr(f, AGPU_REG_CP_INT_ACK, AGPU_CP_INT_RB);
    return f->irq;
}

/* one interrupt: does @status_reg show more than @normal? */
static bool exact_irq(Rig *r, uint32_t status_reg, uint32_t normal)
{
    uint32_t st;

    empty_submit(r->f);
    g_assert_true(r->f->irq);
    st = rd(r->f, status_reg);
    kernel_irq(r->f);
    return (st & ~normal) != 0;
}

static bool exact_irq_rbbm(Rig *r)
{
    return exact_irq(r, AGPU_REG_RBBM_INT_STATUS, 0);
}

static bool exact_irq_cp(Rig *r)
{
    return exact_irq(r, AGPU_REG_CP_INT_STATUS, AGPU_CP_INT_RB);
}

static bool exact_irq_mh(Rig *r)
{
    return exact_irq(r, AGPU_REG_MH_INTERRUPT_STATUS, 0);
}

static bool exact_submit(Rig *r)
{
    Fake *f = r->f;
    uint32_t seqno = empty_submit(f);

    if (fence(f) == seqno) {
        kernel_irq(f);
        return false;
    }
    /* stalled: a soft reset (not a submit) gets the CP going again */
    g_assert_true(f->gpu.hung);
    va_w32(f, f->memptrs_va + 4, seqno);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    f->ring_cur = 0;
    return true;
}

static bool exact_rptr(Rig *r)
{
    return rd(r->f, AGPU_REG_CP_RB_RPTR) != r->f->gpu.rb_rptr;
}

/* a CP_WAIT_REG_MEM on memory: every poll is one gpummu translation */
static void exact_mmu_setup(Rig *r)
{
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x13, r->flag_va, 1, ~0u, 0,
    };
    int i;

    kernel_submit(r->f, ib_new(r->f, w, 6), 6);
    for (i = 0; i < 10 && !agpu_cp_waiting(&r->f->gpu); i++) {
        agpu_run(&r->f->gpu, 256);
    }
    g_assert_true(agpu_cp_waiting(&r->f->gpu));
}

static bool exact_mmu(Rig *r)
{
    Fake *f = r->f;

    if (!agpu_cp_waiting(&f->gpu)) {
        /* the faulting poll ended the wait: a new one, after the fault */
        kick(f);
        while (f->irq) {
            kernel_irq(f);
        }
        exact_mmu_setup(r);
    }
    agpu_run(&f->gpu, 1);
    return rd(f, AGPU_REG_MH_INTERRUPT_STATUS) & AGPU_MH_INT_MMU_PAGE_FAULT;
}

static bool exact_reset(Rig *r)
{
    Fake *f = r->f;
    bool slow;

    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    slow = rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE;
    if (slow) {
        agpu_reset(&f->gpu);    /* ends it, counts nothing */
    }
    return slow;
}

static bool exact_read(Rig *r)
{
    uint32_t v = ++r->counter;

    wr(r->f, AGPU_REG_CP_SCRATCH_REG0 + 3, v);
    return rd(r->f, AGPU_REG_CP_SCRATCH_REG0 + 3) != v;
}

static const ExactCase exact_cases[] = {
    { "irq-storm", NULL, exact_ack },
    { "spurious-rbbm", NULL, exact_irq_rbbm },
    { "spurious-cp", NULL, exact_irq_cp },
    { "spurious-mh", NULL, exact_irq_mh },
    { "cp-stall", NULL, exact_submit },
    { "rptr-jump", NULL, exact_rptr },
    { "mmu-fault", exact_mmu_setup, exact_mmu },
    { "reset-slow", NULL, exact_reset },
    { "stale-read", NULL, exact_read },
};

static void test_exact(gconstpointer data)
{
    const ExactCase *ec = data;
    AGpuFaultKind kind = kind_named(ec->kind);
    const char *event = agpu_fault_event_name(agpu_fault_event(kind));
    uint32_t n;
    int i;

    for (n = 1; n <= 5; n++) {
        Rig *r = rig_new(true);
        g_autofree char *script = g_strdup_printf("%s:%u:%s", event, n,
                                                  ec->kind);
        g_autofree char *note = g_strdup_printf("%s@%s#%u;", ec->kind,
                                                event, n);

        if (ec->setup) {
            ec->setup(r);
        }
        rig_plan(r, "", script);
        for (i = 1; i <= 6; i++) {
            bool showed = ec->event(r);

            if (showed != (i == (int)n)) {
                g_error("%s: event %d of 6 %s", script, i,
                        showed ? "faulted" : "did not fault");
            }
        }
        g_assert_cmpuint(r->p.injected[kind], ==, 1);
        g_assert_cmpstr(r->notes->str, ==, note);
        rig_free(r);
    }
}

/* an entry at another event waits for the next event of its kind */
static void test_cross_event(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    uint32_t seqno;

    /* the first interrupt after the 2nd submit */
    rig_plan(r, "", "submit:2:spurious-cp");
    empty_submit(f);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    empty_submit(f);
    g_assert_cmphex(kernel_irq(f).cp & ~AGPU_CP_INT_RB, !=, 0);
    empty_submit(f);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    g_assert_cmpstr(r->notes->str, ==, "spurious-cp@irq#2;");

    /* the first submit after the 3rd read */
    rig_plan(r, "", "read:3:cp-stall");
    rd(f, AGPU_REG_RBBM_STATUS);
    rd(f, AGPU_REG_RBBM_STATUS);
    seqno = empty_submit(f);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);      /* its reads: the 3rd makes it due */
    seqno = empty_submit(f);
    g_assert_true(f->gpu.hung);
    g_assert_cmphex(fence(f), !=, seqno);
    g_assert_cmpstr(r->notes->str, ==, "cp-stall@submit#2;");
    va_w32(f, f->memptrs_va + 4, seqno);
    g_assert_true(kernel_recover(f));
    rig_free(r);
}

/* setting a plan restarts the counts; a refused one or a reset does not */
static void test_restart(void)
{
    Rig *r = rig_new(true);
    Fake *f = r->f;
    char counts[AGPU_FAULTS_TEXT_MAX];
    int i;

    rig_plan(r, "", "irq:2:spurious-rbbm;irq:3:spurious-mh");
    for (i = 0; i < 4; i++) {
        empty_submit(f);
        kernel_irq(f);
    }
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 4);
    agpu_faults_format_counts(&r->p, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "spurious-rbbm=1,spurious-mh=1");
    g_assert_cmpstr(r->notes->str, ==,
                    "spurious-rbbm@irq#2;spurious-mh@irq#3;");
    g_assert_cmpint(agpu_faults_set_script(&r->p, "bad", NULL, 0), ==, -1);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 4);
    /* the random part restarts the script's counts, too */
    g_assert_cmpint(agpu_faults_set_random(&r->p, "", NULL, 0), ==, 0);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 0);
    agpu_faults_format_counts(&r->p, counts, sizeof(counts));
    g_assert_cmpstr(counts, ==, "");
    /* a power-on reset does not */
    empty_submit(f);
    kernel_irq(f);
    agpu_reset(&f->gpu);
    g_assert_cmpuint(r->p.events[AGPU_FAULT_EV_IRQ], ==, 1);
    g_assert_cmpuint(r->p.injected[AGPU_FAULT_SPURIOUS_RBBM], ==, 0);
    /* without a notify hook the faults happen all the same */
    g_assert_true(kernel_hw_init(f, &fw_good));
    r->p.notify = NULL;
    rig_plan(r, "", "irq:1:spurious-rbbm");
    empty_submit(f);
    g_assert_cmphex(kernel_irq(f).rbbm, ==, AGPU_RBBM_INT_RDERR);
    rig_free(r);
}

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/agpu-faults/parse/good", test_parse_good);
    g_test_add_func("/agpu-faults/parse/bad", test_parse_bad);
    g_test_add_func("/agpu-faults/table", test_table);
    g_test_add_func("/agpu-faults/docs", test_docs);
    g_test_add_func("/agpu-faults/valid", test_valid);
    g_test_add_func("/agpu-faults/empty-plan", test_empty_plan);
    g_test_add_func("/agpu-faults/reads", test_reads);
    g_test_add_func("/agpu-faults/determinism", test_determinism);
    g_test_add_func("/agpu-faults/random-rate", test_random_rate);
    g_test_add_func("/agpu-faults/restart", test_restart);
    g_test_add_func("/agpu-faults/kind/irq-storm", test_irq_storm);
    for (i = 0; i < G_N_ELEMENTS(spurious_cases); i++) {
        g_autofree char *name = g_strdup_printf("/agpu-faults/kind/%s",
                                                spurious_cases[i].kind);

        g_test_add_data_func(name, &spurious_cases[i], test_spurious);
    }
    g_test_add_func("/agpu-faults/kind/cp-stall", test_cp_stall);
    g_test_add_func("/agpu-faults/kind/rptr-jump", test_rptr_jump);
    g_test_add_func("/agpu-faults/kind/mmu-fault", test_mmu_fault);
    g_test_add_func("/agpu-faults/kind/reset-slow", test_reset_slow);
    g_test_add_func("/agpu-faults/kind/stale-read", test_stale_read);
    for (i = 0; i < G_N_ELEMENTS(exact_cases); i++) {
        g_autofree char *name = g_strdup_printf("/agpu-faults/script/"
                                                "exact/%s",
                                                exact_cases[i].kind);

        g_test_add_data_func(name, &exact_cases[i], test_exact);
    }
    g_test_add_func("/agpu-faults/script/cross-event", test_cross_event);
    return g_test_run();
}
