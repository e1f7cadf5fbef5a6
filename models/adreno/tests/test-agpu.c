/*
 * Unit tests for the agpu core: register file, interrupt line, PM4
 * decoding, the a200 register conversation of the Linux 6.12 msm driver
 * (hw_init, me_init, submit, IRQ, recovery), the gpummu, and hostile
 * command streams.
 *
 * The fixture (agpu-fake.[ch], shared with test-agpu-faults.c) is a
 * 16 MiB fake guest RAM at 0x40000000 with a gpummu page table built the
 * way a2xx_gpummu.c builds it; buffer objects are mapped to physical pages
 * in reverse order so that any code that assumes a linear VA->PA mapping
 * fails.  The interrupt line is recorded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "agpu-fake.h"

/* ---- registers and interrupt line ---- */

static void test_reset_values(void)
{
    Fake *f = fake_new();
    AGpuCore *g = &f->gpu;

    g_assert_true(agpu_state_valid(g));
    g_assert_false(f->irq);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_ME_CNTL), ==, AGPU_ME_CNTL_HALT);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_STATUS), ==, 0x10);
    g_assert_cmpuint(rd(f, AGPU_REG_MASTER_INT_SIGNAL), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_RB_EDRAM_INFO), ==, 4);

    /* plain storage, unknown registers included */
    g_assert_cmpuint(rd(f, 0x2345), ==, 0);
    wr(f, 0x2345, 0xdeadbeef);
    g_assert_cmpuint(rd(f, 0x2345), ==, 0xdeadbeef);
    wr(f, AGPU_REG_CP_SCRATCH_REG0 + 5, 77);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 5), ==, 77);
    wr(f, AGPU_REG_MH_MMU_INVALIDATE, 3);
    g_assert_cmpuint(rd(f, AGPU_REG_MH_MMU_INVALIDATE), ==, 3);
    wr(f, AGPU_NUM_REGS - 1, 5);
    g_assert_cmpuint(rd(f, AGPU_NUM_REGS - 1), ==, 5);

    /* outside the window: ignored, reads 0 */
    wr(f, AGPU_NUM_REGS, 0x1234);
    g_assert_cmpuint(rd(f, AGPU_NUM_REGS), ==, 0);
    g_assert_cmpuint(rd(f, 0xffffffff), ==, 0);

    /* read-only registers ignore writes */
    wr(f, AGPU_REG_RBBM_STATUS, 0xffffffff);
    wr(f, AGPU_REG_CP_RB_RPTR, 7);
    wr(f, AGPU_REG_CP_INT_STATUS, 0xffffffff);
    wr(f, AGPU_REG_MH_INTERRUPT_STATUS, 0xffffffff);
    wr(f, AGPU_REG_MASTER_INT_SIGNAL, 0xffffffff);
    wr(f, AGPU_REG_MH_MMU_PAGE_FAULT, 0xffffffff);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_STATUS), ==, 0x10);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_INT_STATUS), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_MH_INTERRUPT_STATUS), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_MH_MMU_PAGE_FAULT), ==, 0);
    g_assert_false(f->irq);

    /* power-on reset forgets it all */
    agpu_reset(g);
    g_assert_cmpuint(rd(f, 0x2345), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_ME_CNTL), ==, AGPU_ME_CNTL_HALT);
    fake_free(f);
}

static void test_reads_have_no_side_effects(void)
{
    Fake *f = fake_booted();
    AGpuCore *before = g_new(AGpuCore, 1);
    uint32_t ib[] = { AGPU_PM4_PKT3(AGPU_CP_NOP, 1), 0 };
    uint32_t reg;

    /* leave something pending everywhere: RB_INT and a page fault */
    run_ib(f, ib, 2);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, 0x00400000);
    out_ring(f, 1);
    flush(f);
    kick(f);
    g_assert_true(f->irq);

    memcpy(before, &f->gpu, sizeof(*before));
    for (reg = 0; reg < AGPU_NUM_REGS; reg++) {
        uint32_t a = rd(f, reg);

        g_assert_cmpuint(rd(f, reg), ==, a);
    }
    g_assert_cmpint(memcmp(before, &f->gpu, sizeof(*before)), ==, 0);
    g_assert_true(f->irq);
    g_free(before);
    fake_free(f);
}

static void test_chip_id(void)
{
    static const uint32_t ids[] = {
        0x02000000, 0x02000001, 0x02020000, 0x02020105,
    };
    uint32_t i;

    for (i = 0; i < G_N_ELEMENTS(ids); i++) {
        AGpuCore *g = g_new0(AGpuCore, 1);
        uint32_t core, major, rev, id;

        agpu_init(g, NULL, NULL, ids[i], AGPU_GMEM_A200);
        /* decode as KGSL's a2xx_getchipid() does */
        core = agpu_reg_read(g, AGPU_REG_RBBM_PERIPHID1) & 0xf;
        major = (agpu_reg_read(g, AGPU_REG_RBBM_PERIPHID2) >> 4) & 0xf;
        rev = agpu_reg_read(g, AGPU_REG_RBBM_PATCH_RELEASE);
        id = (core << 24) | (major << 16) | ((rev & 0xff) << 8) |
             ((rev >> 16) & 0xff);
        g_assert_cmphex(id, ==, ids[i]);
        g_assert_cmpuint(agpu_reg_read(g, AGPU_REG_RBBM_PERIPHID1), ==,
                         (ids[i] >> 24) & 0xf);
        g_free(g);
    }
}

static void test_irq_line(void)
{
    Fake *f = fake_booted();
    uint32_t changes;

    /* CP_INTERRUPT sets RB_INT: line up, MASTER bit 30 */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_INTERRUPT, 1));
    out_ring(f, AGPU_CP_INT_RB);
    flush(f);
    kick(f);
    g_assert_true(f->irq);
    g_assert_cmphex(rd(f, AGPU_REG_MASTER_INT_SIGNAL), ==,
                    AGPU_MASTER_CP_INT);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, AGPU_CP_INT_RB);

    /* masking drops the line, status stays; unmasking raises it again */
    wr(f, AGPU_REG_CP_INT_CNTL, 0);
    g_assert_false(f->irq);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, AGPU_CP_INT_RB);
    g_assert_cmphex(rd(f, AGPU_REG_MASTER_INT_SIGNAL), ==, 0);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL);
    g_assert_true(f->irq);

    /* acknowledging a different bit changes nothing */
    wr(f, AGPU_REG_CP_INT_ACK, AGPU_CP_INT_IB1);
    g_assert_true(f->irq);
    /* the ack drops the line at once */
    changes = f->irq_changes;
    wr(f, AGPU_REG_CP_INT_ACK, AGPU_CP_INT_RB);
    g_assert_false(f->irq);
    g_assert_cmpuint(f->irq_changes, ==, changes + 1);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, 0);

    /* a cause that is not enabled never latches (IB2 is not enabled) */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_INTERRUPT, 1));
    out_ring(f, AGPU_CP_INT_IB2);
    flush(f);
    kick(f);
    g_assert_false(f->irq);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_STATUS), ==, 0);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL | AGPU_CP_INT_IB2);
    g_assert_false(f->irq);

    /* IB1_INT is enabled by the driver */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_INTERRUPT, 1));
    out_ring(f, AGPU_CP_INT_IB1 | 0x1234);
    flush(f);
    kick(f);
    g_assert_true(f->irq);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_IB1);

    /* SQ and RBBM never fire; SQ status reads 0 */
    g_assert_cmpuint(rd(f, AGPU_REG_SQ_INT_STATUS), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_INT_STATUS), ==, 0);
    fake_free(f);
}

/* ---- firmware ---- */

static uint32_t fnv(const uint32_t *w, uint32_t n)
{
    uint32_t h = 0x811c9dc5u, i;

    for (i = 0; i < n; i++) {
        h = (h ^ w[i]) * 0x01000193u;
    }
    return h;
}

static void test_firmware_upload(void)
{
    Fake *f = fake_booted();
    AGpuCore *g = &f->gpu;
    uint32_t i;

    g_assert_cmpuint(g->me_count, ==, G_N_ELEMENTS(fw_pm4) - 1);
    g_assert_cmpuint(g->pfp_count, ==, G_N_ELEMENTS(fw_pfp) - 1);
    g_assert_cmphex(g->me_csum, ==, fnv(fw_pm4 + 1,
                                        G_N_ELEMENTS(fw_pm4) - 1));
    g_assert_cmphex(g->pfp_csum, ==, fnv(fw_pfp + 1,
                                         G_N_ELEMENTS(fw_pfp) - 1));
    g_assert_cmphex(g->me_ram[0], ==, 0x00200001);
    g_assert_cmphex(g->pfp_ram[4], ==, 0x00000123);     /* ptr[5] */
    g_assert_true(agpu_fw_valid(g));
    g_assert_true(g->protected_mode);

    /* ME RAM reads back through RADDR without side effects */
    wr(f, AGPU_REG_CP_ME_RAM_RADDR, 1);
    g_assert_cmphex(rd(f, AGPU_REG_CP_ME_RAM_DATA), ==, AGPU_FW_MAGIC);
    g_assert_cmphex(rd(f, AGPU_REG_CP_ME_RAM_DATA), ==, AGPU_FW_MAGIC);

    /* a long upload is counted and checksummed, storage stays bounded */
    wr(f, AGPU_REG_CP_PFP_UCODE_ADDR, 0);
    for (i = 0; i < 100000; i++) {
        wr(f, AGPU_REG_CP_PFP_UCODE_DATA, i);
    }
    g_assert_cmpuint(g->pfp_count, ==, 100000);
    g_assert_true(agpu_state_valid(g));
    fake_free(f);
}

static void test_firmware_legacy(void)
{
    Fake *f = fake_new();
    uint32_t ib[] = { AGPU_PM4_PKT0(AGPU_REG_CP_INT_CNTL, 1), 0 };

    /* PM4 ptr[1] == 0: 19-dword me_init, no protected mode */
    g_assert_true(kernel_hw_init(f, &fw_legacy));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 19);
    g_assert_false(f->gpu.protected_mode);
    g_assert_false(agpu_fw_valid(&f->gpu));
    /* without protection an IB may write control registers */
    run_ib(f, ib, 2);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_CNTL), ==, 0);
    g_assert_cmpuint(f->gpu.stat_protect_errors, ==, 0);
    fake_free(f);
}

static void test_firmware_strict(void)
{
    Fake *f = fake_new();

    /* fw-strict: the ME refuses to leave HALT, me_init times out */
    f->gpu.fw_strict = 1;
    g_assert_false(kernel_hw_init(f, &fw_legacy));
    g_assert_cmphex(rd(f, AGPU_REG_CP_ME_CNTL) & AGPU_ME_CNTL_HALT, ==,
                    AGPU_ME_CNTL_HALT);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) &
                  AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_cmpuint(f->guest_errors, >, 0);
    /* the project's firmware passes */
    g_assert_true(kernel_hw_init(f, &fw_good));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 21);
    fake_free(f);
}

/* ---- the a200 conversation ---- */

static void test_a200_boot_and_submit(void)
{
    Fake *f = fake_new();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t ibw[] = { AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0xcafebabe };
    uint32_t ib = ib_new(f, ibw, 3);
    uint32_t expect[14] = {
        0xc0013700, ib, 3, 0x80000000, 0x0000057a, 0xffffff01, 0xc0002600,
        0x00000000, 0xc0024600, 0x00000004, f->memptrs_va + 4, 0xffffff01,
        0xc0004000, 0x80000000,
    };
    uint32_t i, seqno;
    IrqResult r;

    g_assert_true(kernel_hw_init(f, &fw_good));
    /* ME_INIT (19) + SET_PROTECTED_MODE (2) consumed */
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 21);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), ==, 21);
    g_assert_cmphex(va_r32(f, f->ring_va), ==, 0xc0114800);
    g_assert_cmphex(va_r32(f, f->ring_va + 16 * 4), ==, 0x200001f2);
    g_assert_cmphex(va_r32(f, f->ring_va + 19 * 4), ==, 0xc0005f00);
    g_assert_false(f->irq);
    g_assert_cmpuint(f->gpu.stat_opcode_errors, ==, 0);

    seqno = kernel_submit(f, ib, 3);
    g_assert_cmphex(seqno, ==, 0xffffff01);
    /* the ring holds exactly the submit words 21..34 of the kernel */
    for (i = 0; i < 14; i++) {
        g_assert_cmphex(va_r32(f, f->ring_va + (21 + i) * 4), ==, expect[i]);
    }
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), ==, 35);
    /* nothing runs inside the register write */
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 21);
    g_assert_true(agpu_cp_runnable(&f->gpu));
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);

    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 35);
    g_assert_cmphex(va_r32(f, dst), ==, 0xcafebabe);
    g_assert_cmphex(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 2), ==, seqno);
    g_assert_cmphex(fence(f), ==, seqno);
    /* RB_INT asserted, and the fence was in memory when the line rose */
    g_assert_true(f->irq);
    g_assert_cmpuint(f->irq_rises, ==, 1);
    g_assert_cmphex(f->fence_at_rise, ==, seqno);
    g_assert_cmphex(rd(f, AGPU_REG_MASTER_INT_SIGNAL), ==,
                    AGPU_MASTER_CP_INT);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_STATUS), ==, 0x10);
    g_assert_cmphex(rd(f, AGPU_REG_CP_IB1_BASE), ==, ib);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_IB1_BUFSZ), ==, 3);

    r = kernel_irq(f);
    g_assert_cmphex(r.master, ==, AGPU_MASTER_CP_INT);
    g_assert_cmphex(r.cp, ==, AGPU_CP_INT_RB);
    g_assert_cmpuint(f->irq_changes, ==, 2);

    /* a fence-only submit (nr_cmds = 0), then a second real one */
    seqno = kernel_submit(f, 0, 0);
    kick(f);
    g_assert_cmphex(fence(f), ==, 0xffffff02);
    kernel_irq(f);
    seqno = run_ib(f, ibw, 3);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);
    assert_sane_idle(f);
    g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 0);
    g_assert_cmpuint(f->guest_errors, ==, 0);

    /* runtime PM: a full re-init restarts the ring at 0 and still works */
    g_assert_true(kernel_hw_init(f, &fw_good));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 21);
    seqno = run_ib(f, ibw, 3);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);
    assert_sane_idle(f);
    fake_free(f);
}

/* 255 submits later the seqno wraps past 0; fences are opaque */
static void test_fence_wrap(void)
{
    Fake *f = fake_booted();
    uint32_t i, seqno = 0;

    for (i = 0; i < 300; i++) {
        seqno = kernel_submit(f, 0, 0);
        kick(f);
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    }
    g_assert_cmphex(seqno, ==, SEQNO_FIRST + 299);
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- PM4 decoding ---- */

static void test_pm4_type0(void)
{
    Fake *f = fake_booted();
    uint32_t start = f->ring_cur;

    /* count 3 from SCRATCH_REG1 */
    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0 + 1, 3));
    out_ring(f, 11);
    out_ring(f, 12);
    out_ring(f, 13);
    /* one-register form (bit 15): every value to SCRATCH_REG5 */
    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0 + 5, 3) |
             AGPU_PM4_T0_ONE_REG);
    out_ring(f, 21);
    out_ring(f, 22);
    out_ring(f, 23);
    /* a context register */
    out_ring(f, AGPU_PM4_PKT0(0x2100, 1));
    out_ring(f, 0xabcdef);
    flush(f);
    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 1), ==, 11);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 2), ==, 12);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 3), ==, 13);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 4), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 5), ==, 23);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 6), ==, 0);
    g_assert_cmphex(rd(f, 0x2100), ==, 0xabcdef);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, start + 10);
    g_assert_cmpuint(f->gpu.stat_packets, ==, 3 + 2);   /* + me_init */
    assert_sane_idle(f);
    fake_free(f);
}

static void test_pm4_type2_type3(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint64_t pk = f->gpu.stat_packets;

    /* type 2: one dword each */
    out_ring(f, AGPU_PM4_PKT2);
    out_ring(f, AGPU_PM4_PKT2);
    /* type-3 NOP with 4 payload dwords that look like a MEM_WRITE */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_NOP, 4));
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst);
    out_ring(f, 0x11111111);
    out_ring(f, AGPU_PM4_PKT2);
    /* MEM_WRITE count 3: exactly two data dwords */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 3));
    out_ring(f, dst + 4);
    out_ring(f, 0xaaaa0001);
    out_ring(f, 0xaaaa0002);
    /* WAIT_FOR_IDLE, SET_CONSTANT (type 4 = registers, type 0 ignored) */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_WAIT_FOR_IDLE, 1));
    out_ring(f, 0);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 3));
    out_ring(f, (4u << 16) | 0x180);
    out_ring(f, 0x5555);
    out_ring(f, 0x6666);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2));
    out_ring(f, (0u << 16) | 0x10);
    out_ring(f, 0x7777);
    /* a 3D opcode the model accepts and ignores */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_DRAW_INDX, 3));
    out_ring(f, 0);
    out_ring(f, 0);
    out_ring(f, 0);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 0);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 0xaaaa0001);
    g_assert_cmphex(va_r32(f, dst + 8), ==, 0xaaaa0002);
    g_assert_cmphex(va_r32(f, dst + 12), ==, 0);
    g_assert_cmphex(rd(f, 0x2180), ==, 0x5555);
    g_assert_cmphex(rd(f, 0x2181), ==, 0x6666);
    g_assert_cmphex(rd(f, 0x2010), ==, 0);
    g_assert_cmpuint(f->gpu.stat_packets - pk, ==, 8);
    g_assert_cmpuint(f->gpu.stat_unimplemented, ==, 2);
    g_assert_cmpuint(f->gpu.stat_opcode_errors, ==, 0);
    g_assert_false(f->irq);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_pm4_type1_and_unknown(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);

    /* type 1: OPCODE_ERROR, header + 2 dwords skipped */
    out_ring(f, 0x40000000 | (AGPU_REG_CP_SCRATCH_REG0 << 11) |
             (AGPU_REG_CP_SCRATCH_REG0 + 1));
    /* values that would raise IB1_INT if decoded as packets */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_INTERRUPT, 1));
    out_ring(f, AGPU_CP_INT_IB1);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst);
    out_ring(f, 1);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 1);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0), ==, 0);
    g_assert_true(f->irq);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_OPCODE_ERROR);

    /* unknown opcode 0xee with 3 dwords: skipped, not halted; named */
    out_ring(f, AGPU_PM4_PKT3(0xee, 3));
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst);
    out_ring(f, 0xbad);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst + 4);
    out_ring(f, 2);
    /* a known opcode with too short a payload */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 2));
    out_ring(f, 0x13);
    out_ring(f, dst);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 1);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 2);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_OPCODE_ERROR);
    g_assert_cmpuint(f->gpu.stat_opcode_errors, ==, 3);
    g_assert_nonnull(strstr(f->last_error, "opcode 0x3c with 2 payload "
                            "dwords, needs 4 (RB packet at 0x"));
    assert_sane_idle(f);
    fake_free(f);
}

/* a packet whose payload is not yet below WPTR waits for it */
static void test_pm4_starved(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t start = f->ring_cur;

    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 3));
    out_ring(f, dst);
    flush(f);
    g_assert_false(agpu_run(&f->gpu, 100));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, start);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    out_ring(f, 5);
    out_ring(f, 6);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 5);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 6);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_budget(void)
{
    Fake *f = fake_booted();
    uint64_t pk;
    uint32_t i;

    for (i = 0; i < 100; i++) {
        out_ring(f, AGPU_PM4_PKT2);
    }
    flush(f);
    pk = f->gpu.stat_packets;
    g_assert_true(agpu_run(&f->gpu, 0));
    g_assert_cmpuint(f->gpu.stat_packets, ==, pk);
    g_assert_true(agpu_run(&f->gpu, 10));
    g_assert_cmpuint(f->gpu.stat_packets, ==, pk + 10);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 21 + 10);
    g_assert_true(agpu_run(&f->gpu, 89));
    g_assert_false(agpu_run(&f->gpu, 89));
    g_assert_cmpuint(f->gpu.stat_packets, ==, pk + 100);

    /* a 1000-register PKT0 costs 1 + 1001 / 64 = 16 units */
    out_ring(f, AGPU_PM4_PKT0(0x3000, 1000));
    for (i = 0; i < 1000; i++) {
        out_ring(f, i);
    }
    for (i = 0; i < 20; i++) {
        out_ring(f, AGPU_PM4_PKT2);
    }
    flush(f);
    pk = f->gpu.stat_packets;
    g_assert_true(agpu_run(&f->gpu, 20));
    g_assert_cmpuint(f->gpu.stat_packets, ==, pk + 1 + 4);
    g_assert_cmpuint(rd(f, 0x3000 + 999), ==, 999);
    kick(f);
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- ring ---- */

static void test_ring_wrap(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t pad, i;

    /* move to 3 dwords before the end with one big NOP */
    pad = RING_DWORDS - 3 - f->ring_cur;
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_NOP, pad - 1));
    f->ring_cur = (f->ring_cur + pad - 1) % RING_DWORDS;
    flush(f);
    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, RING_DWORDS - 3);

    /* a 6-dword MEM_WRITE straddles the end of the ring */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 5));
    out_ring(f, dst);
    out_ring(f, 0x1001);
    g_assert_cmpuint(f->ring_cur, ==, 0);
    out_ring(f, 0x1002);
    out_ring(f, 0x1003);
    out_ring(f, 0x1004);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 0x1001);
    g_assert_cmphex(va_r32(f, dst + 12), ==, 0x1004);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 3);

    /* submits keep working across many wraps */
    for (i = 0; i < 2000; i++) {
        uint32_t seqno = kernel_submit(f, 0, 0);

        kick(f);
        g_assert_cmphex(fence(f), ==, seqno);
        kernel_irq(f);
    }
    assert_sane_idle(f);
    fake_free(f);
}

static void test_ring_wptr_beyond(void)
{
    Fake *f = fake_booted();
    uint32_t errors = f->guest_errors;

    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0, 1));
    out_ring(f, 42);
    /* the true index plus one ring size: masked, and flagged */
    wr(f, AGPU_REG_CP_RB_WPTR, f->ring_cur + RING_DWORDS);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), ==, f->ring_cur);
    g_assert_cmpuint(f->gpu.stat_wptr_errors, ==, 1);
    g_assert_cmpuint(f->guest_errors, ==, errors + 1);
    g_assert_true(f->irq);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RESERVED_BIT_ERROR);
    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0), ==, 42);
    assert_sane_idle(f);

    /* all ones: masked to 8191, so the CP runs the whole stale ring */
    wr(f, AGPU_REG_CP_RB_WPTR, 0xffffffff);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), ==, RING_DWORDS - 1);
    g_assert_true(agpu_state_valid(&f->gpu));
    kick(f);
    g_assert_true(agpu_state_valid(&f->gpu));
    g_assert_cmpuint(f->gpu.stat_wptr_errors, ==, 2);

    /* a ring-size change re-masks the pointers */
    wr(f, AGPU_REG_CP_RB_CNTL, 2);      /* 8 dwords */
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), <, 8);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), <, 8);
    g_assert_true(agpu_state_valid(&f->gpu));
    /* a huge BUFSZ is clamped */
    wr(f, AGPU_REG_CP_RB_CNTL, 0x3f);
    wr(f, AGPU_REG_CP_RB_WPTR, 0xffffffff);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_WPTR), ==,
                     (2u << AGPU_RB_BUFSZ_MAX) - 1);
    g_assert_true(agpu_state_valid(&f->gpu));
    fake_free(f);
}

/* ---- indirect buffers ---- */

static void test_ib_nesting(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t ib2w[] = {
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 4, 0xb,
        AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0 + 3, 1), 0x33,
    };
    uint32_t ib2 = ib_new(f, ib2w, 5);
    uint32_t ib1w[] = {
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0xa,
        /* a longer IB packet: the extra dword is not a packet */
        AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER, 3), ib2, 5,
        AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0 + 7, 1),
        AGPU_PM4_PKT2,
        /* REG_TO_MEM sees the IB2 scratch write: IB2 ran in between */
        AGPU_PM4_PKT3(AGPU_CP_REG_TO_MEM, 2),
        AGPU_REG_CP_SCRATCH_REG0 + 3, dst + 8,
    };
    uint32_t seqno;

    seqno = run_ib(f, ib1w, G_N_ELEMENTS(ib1w));
    g_assert_cmphex(va_r32(f, dst), ==, 0xa);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 0xb);
    g_assert_cmphex(va_r32(f, dst + 8), ==, 0x33);
    g_assert_cmphex(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 7), ==, 0);
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_cmpuint(f->gpu.stat_ibs, ==, 2);
    g_assert_cmphex(rd(f, AGPU_REG_CP_IB2_BASE), ==, ib2);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_IB2_BUFSZ), ==, 5);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_ib_stepwise(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t ib2w[] = { AGPU_PM4_PKT2, AGPU_PM4_PKT2, AGPU_PM4_PKT2 };
    uint32_t ib2 = ib_new(f, ib2w, 3);
    uint32_t ib1w[] = {
        AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2), ib2, 3,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 7,
    };
    uint32_t ib1 = ib_new(f, ib1w, 6);
    uint32_t rptr0 = f->ring_cur, n = 0;

    kernel_submit(f, ib1, 6);
    /* one packet at a time: RPTR stays on the IB packet until it ends */
    while (agpu_run(&f->gpu, 1)) {
        if (f->gpu.depth > 0) {
            g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
            g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) &
                          AGPU_RBBM_STATUS_GUI_ACTIVE);
        }
        g_assert_true(agpu_state_valid(&f->gpu));
        n++;
        g_assert_cmpuint(n, <, 100);
    }
    g_assert_cmphex(va_r32(f, dst), ==, 7);
    g_assert_cmpuint(f->gpu.stat_ibs, ==, 2);
    kernel_irq(f);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_ib_depth_limit(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t ib3w[] = { AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0xbad };
    uint32_t ib3 = ib_new(f, ib3w, 3);
    uint32_t ib2w[] = {
        AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2), ib3, 3,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 4, 0x2,
    };
    uint32_t ib2 = ib_new(f, ib2w, 6);
    uint32_t ib1w[] = {
        AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2), ib2, 6,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 8, 0x1,
    };
    uint32_t seqno;
    IrqResult r;

    seqno = run_ib(f, ib1w, 6);
    /* IB3 is refused with IB_ERROR and skipped; the rest runs */
    g_assert_cmphex(va_r32(f, dst), ==, 0);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 2);
    g_assert_cmphex(va_r32(f, dst + 8), ==, 1);
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_cmpuint(f->gpu.stat_ib_errors, ==, 1);
    g_assert_cmpuint(f->gpu.stat_ibs, ==, 2);
    r = kernel_irq(f);
    g_assert_cmphex(r.cp, ==, AGPU_CP_INT_IB_ERROR | AGPU_CP_INT_RB);

    /* a packet running past the end of its IB: IB_ERROR, IB abandoned */
    {
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 12, 0x3,
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 5), dst + 16, 0xbad,
        };

        seqno = run_ib(f, w, G_N_ELEMENTS(w));
        g_assert_cmphex(va_r32(f, dst + 12), ==, 3);
        g_assert_cmphex(va_r32(f, dst + 16), ==, 0);
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmpuint(f->gpu.stat_ib_errors, ==, 2);
        kernel_irq(f);
    }
    /* an IB of size 0 is a no-op */
    {
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2), 0x7777000, 0,
        };

        seqno = run_ib(f, w, 3);
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 0);
        kernel_irq(f);
    }
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- gpummu ---- */

static void test_mmu_translation(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 3, PROT_RW);
    uint32_t ibw[16];
    uint32_t i, n = 0, seqno;

    /* 8 dwords across the page boundary of a non-contiguous BO */
    ibw[n++] = AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 9);
    ibw[n++] = dst + PAGE - 16;
    for (i = 0; i < 8; i++) {
        ibw[n++] = 0x100 + i;
    }
    /* scratch 0..2 -> memory, across the next boundary */
    ibw[n++] = AGPU_PM4_PKT3(AGPU_CP_REG_TO_MEM, 2);
    ibw[n++] = AGPU_REG_CP_SCRATCH_REG0 | (3u << 18);
    ibw[n++] = dst + 2 * PAGE - 8;
    /* CNT 0 copies one register */
    ibw[n++] = AGPU_PM4_PKT3(AGPU_CP_REG_TO_MEM, 2);
    ibw[n++] = AGPU_REG_CP_SCRATCH_REG0 + 1;
    ibw[n++] = dst + 64;

    wr(f, AGPU_REG_CP_SCRATCH_REG0, 0xa0);
    wr(f, AGPU_REG_CP_SCRATCH_REG0 + 1, 0xa1);
    wr(f, AGPU_REG_CP_SCRATCH_REG0 + 2, 0xa2);
    wr(f, AGPU_REG_CP_SCRATCH_REG0 + 3, 0xa3);
    seqno = run_ib(f, ibw, n);
    g_assert_cmphex(fence(f), ==, seqno);

    /* the physical pages are in reverse order */
    g_assert_cmpuint(va_to_pa(f, dst + PAGE), ==, va_to_pa(f, dst) - PAGE);
    for (i = 0; i < 8; i++) {
        g_assert_cmphex(va_r32(f, dst + PAGE - 16 + i * 4), ==, 0x100 + i);
    }
    g_assert_cmphex(pa_r32(f, va_to_pa(f, dst) + PAGE - 16), ==, 0x100);
    g_assert_cmphex(pa_r32(f, va_to_pa(f, dst + PAGE)), ==, 0x104);
    g_assert_cmphex(va_r32(f, dst + 2 * PAGE - 8), ==, 0xa0);
    g_assert_cmphex(va_r32(f, dst + 2 * PAGE - 4), ==, 0xa1);
    g_assert_cmphex(va_r32(f, dst + 2 * PAGE), ==, 0xa2);
    g_assert_cmphex(va_r32(f, dst + 2 * PAGE + 4), ==, 0);
    g_assert_cmphex(va_r32(f, dst + 64), ==, 0xa1);
    g_assert_cmphex(va_r32(f, dst + 68), ==, 0);
    g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 0);

    /* the table is walked on every access: no stale translation */
    map_page(f, dst, va_to_pa(f, dst + 2 * PAGE), PROT_RW);
    wr(f, AGPU_REG_MH_MMU_INVALIDATE, 3);
    {
        uint32_t w[] = { AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 32, 9 };

        run_ib(f, w, 3);
    }
    g_assert_cmphex(va_r32(f, dst + 2 * PAGE + 32), ==, 9);
    kernel_irq(f);
    assert_sane_idle(f);
    fake_free(f);
}

typedef struct FaultCase {
    const char *name;
    uint32_t va;        /* 0: the unmapped guard page after the BO */
    bool read_only;     /* write to a read-only (ring-like) page */
} FaultCase;

static void test_mmu_faults(void)
{
    static const FaultCase tab[] = {
        { "unmapped", 0, false },
        { "below-window", 0x00400000, false },
        { "at-window-end", VA_END, false },
        { "far-above", 0xfffff000, false },
        { "read-only", 0, true },
    };
    uint32_t k;

    for (k = 0; k < G_N_ELEMENTS(tab); k++) {
        Fake *f = fake_booted();
        uint32_t dst = bo_new(f, 1, PROT_RW);
        uint32_t ro = bo_new(f, 1, PROT_R);
        uint32_t bad = tab[k].va ? tab[k].va :
                       tab[k].read_only ? ro + 8 : dst + PAGE + 8;
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 3), bad, 0xbad, 0xbad,
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0x600d,
        };
        uint32_t before = tab[k].read_only ? va_r32(f, ro + 8) : 0;
        uint32_t seqno;
        IrqResult r;
        char *want;

        seqno = run_ib(f, w, G_N_ELEMENTS(w));
        /* the faulting packet is abandoned, the next one runs */
        g_assert_cmphex(va_r32(f, dst), ==, 0x600d);
        g_assert_cmphex(fence(f), ==, seqno);
        if (tab[k].read_only) {
            g_assert_cmphex(va_r32(f, ro + 8), ==, before);
        }
        g_assert_true(f->irq);
        g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 1);
        /* the message carries the faulting GPU address */
        want = g_strdup_printf("gpummu page fault, write VA 0x%08x", bad);
        g_assert_nonnull(strstr(f->last_error, want));
        g_free(want);
        r = kernel_irq(f);
        g_assert_cmphex(r.master, ==, AGPU_MASTER_MH_INT | AGPU_MASTER_CP_INT);
        g_assert_cmphex(r.mh, ==, AGPU_MH_INT_MMU_PAGE_FAULT);
        g_assert_cmphex(r.page_fault, ==, (bad & ~0xfffu) |
                        AGPU_PAGE_FAULT_WRITE | AGPU_PAGE_FAULT_VALID);
        g_assert_cmphex(r.cp, ==, AGPU_CP_INT_RB);
        assert_sane_idle(f);
        g_test_message("fault case %s ok", tab[k].name);
        fake_free(f);
    }
}

static void test_mmu_read_faults(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t wo = bo_new(f, 1, PROT_W);
    uint32_t hole = dst + PAGE;
    uint32_t seqno;
    IrqResult r;

    /* an IB in an unmapped page: abandoned, MH fault with the read bit */
    seqno = kernel_submit(f, hole, 4);
    kick(f);
    g_assert_cmphex(fence(f), ==, seqno);
    r = kernel_irq(f);
    g_assert_cmphex(r.mh, ==, AGPU_MH_INT_MMU_PAGE_FAULT);
    g_assert_cmphex(r.page_fault, ==, hole | AGPU_PAGE_FAULT_VALID);
    assert_sane_idle(f);

    /* an IB whose second page is missing: abandoned mid-way */
    {
        uint32_t ib = bo_new(f, 2, PROT_RW), i;

        for (i = 0; i < PAGE / 4 - 3; i++) {
            va_w32(f, ib + i * 4, AGPU_PM4_PKT2);
        }
        va_w32(f, ib + PAGE - 12, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
        va_w32(f, ib + PAGE - 8, dst);
        va_w32(f, ib + PAGE - 4, 0x77);
        unmap_page(f, ib + PAGE);
        seqno = kernel_submit(f, ib, 2 * PAGE / 4);
        kick(f);
        g_assert_cmphex(va_r32(f, dst), ==, 0x77);
        g_assert_cmphex(fence(f), ==, seqno);
        r = kernel_irq(f);
        g_assert_cmphex(r.page_fault, ==, (ib + PAGE) |
                        AGPU_PAGE_FAULT_VALID);
    }

    /* a write-only page cannot be read by WAIT_REG_MEM: no stall */
    {
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x13, wo, 1, ~0u, 1,
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 4, 0x88,
        };

        seqno = run_ib(f, w, G_N_ELEMENTS(w));
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmphex(va_r32(f, dst + 4), ==, 0x88);
        r = kernel_irq(f);
        g_assert_cmphex(r.page_fault, ==, wo | AGPU_PAGE_FAULT_VALID);
    }
    g_assert_false(agpu_cp_waiting(&f->gpu));
    assert_sane_idle(f);
    fake_free(f);
}

static void test_mmu_fault_latch(void)
{
    Fake *f = fake_booted();
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), 0x00500000, 1,
        AGPU_PM4_PKT3(AGPU_CP_REG_TO_MEM, 2), AGPU_REG_CP_SCRATCH_REG0,
        0x00600000,
    };
    IrqResult r;

    run_ib(f, w, G_N_ELEMENTS(w));
    g_assert_cmpuint(f->gpu.stat_mmu_faults, ==, 2);
    /* the first fault stays latched until cleared */
    r = kernel_irq(f);
    g_assert_cmphex(r.page_fault, ==, 0x00500000 | 3);
    run_ib(f, w + 3, 3);
    r = kernel_irq(f);
    g_assert_cmphex(r.page_fault, ==, 0x00600000 | 3);

    /* with the page fault masked nothing latches or fires */
    wr(f, AGPU_REG_MH_INTERRUPT_MASK, AGPU_MH_INT_AXI_READ_ERROR);
    run_ib(f, w, 3);
    g_assert_cmphex(rd(f, AGPU_REG_MH_INTERRUPT_STATUS), ==, 0);
    g_assert_cmphex(kernel_irq(f).master, ==, AGPU_MASTER_CP_INT);
    assert_sane_idle(f);
    fake_free(f);
}

/* agpu_regname(): the names the traces and guest errors print */
static void test_regnames(void)
{
    g_assert_cmpstr(agpu_regname(AGPU_REG_CP_RB_WPTR), ==, "CP_RB_WPTR");
    g_assert_cmpstr(agpu_regname(AGPU_REG_MH_MMU_PT_BASE), ==,
                    "MH_MMU_PT_BASE");
    g_assert_cmpstr(agpu_regname(AGPU_REG_CP_SCRATCH_REG0 + 2), ==,
                    "CP_SCRATCH_REG2");
    g_assert_cmpstr(agpu_regname(AGPU_REG_RB_EDRAM_INFO), ==,
                    "RB_EDRAM_INFO");
    g_assert_cmpstr(agpu_regname(0x0002), ==, "unknown");
}

static void test_mmu_bus_errors(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t bad = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), bad, 1,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 2,
    };
    uint32_t seqno;
    IrqResult r;

    /* a PTE that points outside RAM: AXI write error */
    map_page(f, bad, 0x00001000, PROT_RW);
    seqno = run_ib(f, w, G_N_ELEMENTS(w));
    g_assert_cmphex(va_r32(f, dst), ==, 2);
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_cmpuint(f->gpu.stat_bus_errors, ==, 1);
    g_assert_cmphex(rd(f, AGPU_REG_MH_AXI_ERROR), ==, 0x00001000);
    g_assert_nonnull(strstr(f->last_error,
                            "DMA bus error, write PA 0x00001000"));
    r = kernel_irq(f);
    g_assert_cmphex(r.mh, ==, AGPU_MH_INT_AXI_WRITE_ERROR);

    /* the page table itself outside RAM: AXI read error on the walk */
    seqno = kernel_submit(f, 0, 0);
    wr(f, AGPU_REG_MH_MMU_PT_BASE, 0x10000000);
    kick(f);
    g_assert_true(f->gpu.hung);     /* the ring cannot be fetched */
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    r = kernel_irq(f);
    g_assert_cmphex(r.mh, ==, AGPU_MH_INT_AXI_READ_ERROR);
    g_assert_cmphex(rd(f, AGPU_REG_MH_AXI_ERROR), ==,
                    0x10000000 + (f->ring_va - VA_START) / PAGE * 4 +
                    rd(f, AGPU_REG_CP_RB_RPTR) * 4 / PAGE * 4);
    g_assert_false(agpu_run(&f->gpu, 100));
    g_assert_true(agpu_state_valid(&f->gpu));
    /* recovery */
    g_assert_true(kernel_hw_init(f, &fw_good));
    seqno = kernel_submit(f, 0, 0);
    kick(f);
    g_assert_cmphex(fence(f), ==, seqno);
    kernel_irq(f);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_mmu_disabled(void)
{
    Fake *f = fake_booted();
    uint32_t ring = f->next_pa, dst = f->next_pa + PAGE;
    uint32_t limit = MEM_BASE + MEM_SIZE / 2;

    /* the MMU off: physical addresses, bounded by the MPU range */
    f->next_pa += 2 * PAGE;
    wr(f, AGPU_REG_MH_MMU_CONFIG, 0);
    wr(f, AGPU_REG_MH_MMU_MPU_BASE, MEM_BASE);
    wr(f, AGPU_REG_MH_MMU_MPU_END, limit);
    wr(f, AGPU_REG_CP_RB_CNTL, 8 | AGPU_RB_CNTL_NO_UPDATE);
    wr(f, AGPU_REG_CP_RB_BASE, ring);
    pa_w32(f, ring, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    pa_w32(f, ring + 4, dst);
    pa_w32(f, ring + 8, 0x1234);
    pa_w32(f, ring + 12, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    pa_w32(f, ring + 16, limit - 4);
    pa_w32(f, ring + 20, 0x4321);
    pa_w32(f, ring + 24, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    pa_w32(f, ring + 28, limit);
    pa_w32(f, ring + 32, 0x5678);
    wr(f, AGPU_REG_CP_RB_WPTR, 9);
    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 9);
    g_assert_cmphex(pa_r32(f, dst), ==, 0x1234);
    g_assert_cmphex(pa_r32(f, limit - 4), ==, 0x4321);
    g_assert_cmphex(pa_r32(f, limit), ==, 0);
    g_assert_cmphex(kernel_irq(f).page_fault, ==, limit | 3);
    g_assert_true(agpu_state_valid(&f->gpu));
    g_assert_false(agpu_cp_busy(&f->gpu));
    fake_free(f);
}

/* ---- CP_WAIT_REG_MEM ---- */

static void test_wait_reg_mem(void)
{
    Fake *f = fake_booted();
    uint32_t flag = bo_new(f, 1, PROT_RW);
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x13, flag, 5, 0xff, 16,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0x5eed,
    };
    uint32_t rptr0 = f->ring_cur, seqno, i;
    uint64_t reads;

    seqno = kernel_submit(f, ib_new(f, w, G_N_ELEMENTS(w)),
                          G_N_ELEMENTS(w));
    f->watch_pa = va_to_pa(f, flag);
    g_assert_true(agpu_run(&f->gpu, 256));
    g_assert_true(agpu_cp_waiting(&f->gpu));
    /* the first call evaluates the condition once, then stops */
    g_assert_cmpuint(f->watch_reads, ==, 1);
    /* each later call polls exactly once: no spinning */
    for (i = 0; i < 50; i++) {
        reads = f->dma_reads;
        g_assert_true(agpu_run(&f->gpu, 256));
        g_assert_cmpuint(f->dma_reads - reads, ==, 2);  /* PTE + value */
        g_assert_cmpuint(f->watch_reads, ==, 2 + i);
    }
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_cmphex(va_r32(f, dst), ==, 0);
    g_assert_cmphex(fence(f), !=, seqno);
    g_assert_true(agpu_state_valid(&f->gpu));

    /* a value that matches only outside the mask does not release it */
    va_w32(f, flag, 0x104);
    g_assert_true(agpu_run(&f->gpu, 256));
    va_w32(f, flag, 0x305);
    g_assert_false(agpu_run(&f->gpu, 256));
    g_assert_cmphex(va_r32(f, dst), ==, 0x5eed);
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_false(agpu_cp_waiting(&f->gpu));
    kernel_irq(f);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_wait_functions(void)
{
    static const struct {
        uint32_t ctrl, val, ref;
        bool met;
    } t[] = {
        { 0x10, 1, 2, true },           /* always */
        { 0x11, 1, 2, true },           /* < */
        { 0x11, 2, 2, false },
        { 0x12, 2, 2, true },           /* <= */
        { 0x12, 3, 2, false },
        { 0x13, 2, 2, true },           /* == */
        { 0x14, 2, 2, false },          /* != */
        { 0x14, 3, 2, true },
        { 0x15, 2, 2, true },           /* >= */
        { 0x15, 1, 2, false },
        { 0x16, 3, 2, true },           /* > */
        { 0x16, 0xffffffff, 2, true },  /* unsigned */
        { 0x1e, 0xffffffff, 2, false }, /* signed: -1 > 2 is false */
        { 0x19, 0xffffffff, 2, true },  /* signed: -1 < 2 */
        { 0x1b, 5, 5, true },           /* signed == */
    };
    uint32_t i;

    for (i = 0; i < G_N_ELEMENTS(t); i++) {
        Fake *f = fake_booted();
        uint32_t flag = bo_new(f, 1, PROT_RW);
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), t[i].ctrl, flag,
            t[i].ref, ~0u, 0,
        };
        bool again;

        va_w32(f, flag, t[i].val);
        kernel_submit(f, ib_new(f, w, 6), 6);
        again = agpu_run(&f->gpu, 256);
        g_assert_cmpint(again, ==, !t[i].met);
        g_assert_cmpint(agpu_cp_waiting(&f->gpu), ==, !t[i].met);
        fake_free(f);
    }

    /* register space (bit 4 clear): poll a scratch register */
    {
        Fake *f = fake_booted();
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x03,
            AGPU_REG_CP_SCRATCH_REG0 + 6, 9, ~0u, 0,
        };
        uint32_t seqno = kernel_submit(f, ib_new(f, w, 6), 6);

        g_assert_true(agpu_run(&f->gpu, 256));
        g_assert_true(agpu_run(&f->gpu, 256));
        wr(f, AGPU_REG_CP_SCRATCH_REG0 + 6, 9);
        g_assert_false(agpu_run(&f->gpu, 256));
        g_assert_cmphex(fence(f), ==, seqno);
        fake_free(f);
    }

    /* function 7 is reserved */
    {
        Fake *f = fake_booted();
        uint32_t w[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x17, 0, 0, 0, 0,
        };
        uint32_t seqno = kernel_submit(f, ib_new(f, w, 6), 6);

        g_assert_false(agpu_run(&f->gpu, 256));
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmphex(kernel_irq(f).cp, ==,
                        AGPU_CP_INT_RESERVED_BIT_ERROR | AGPU_CP_INT_RB);
        fake_free(f);
    }
}

/* a soft reset cancels a pending wait: no stale fence afterwards */
static void test_wait_cancelled_by_reset(void)
{
    Fake *f = fake_booted();
    uint32_t flag = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x13, flag, 1, ~0u, 0,
    };

    kernel_submit(f, ib_new(f, w, 6), 6);
    g_assert_true(agpu_run(&f->gpu, 256));
    g_assert_true(agpu_cp_waiting(&f->gpu));
    /* what recover_worker() does: fence from the CPU, then a2xx_recover */
    va_w32(f, f->memptrs_va + 4, f->seqno);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_SOFT_RESET), ==, 1);
    /* held in reset: nothing runs */
    g_assert_false(agpu_run(&f->gpu, 256));
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    g_assert_false(agpu_cp_waiting(&f->gpu));
    g_assert_false(agpu_cp_busy(&f->gpu));
    g_assert_false(f->gpu.protected_mode);
    va_w32(f, flag, 1);
    va_w32(f, f->memptrs_va + 4, 0x12345678);
    g_assert_false(agpu_run(&f->gpu, 256));
    g_assert_cmphex(fence(f), ==, 0x12345678);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_true(kernel_hw_init(f, &fw_good));
    g_assert_cmphex(fence(f), ==, 0x12345678);
    fake_free(f);
}

/*
 * CP_WAIT_REG_EQ / CP_WAIT_REG_GTE: [register][value][mask][interval];
 * the CP stalls until (register & mask) == value (>= for GTE, unsigned),
 * polled once per agpu_run() like CP_WAIT_REG_MEM.
 */
static void test_wait_reg_eq_gte(void)
{
    const uint32_t r6 = AGPU_REG_CP_SCRATCH_REG0 + 6;
    const uint32_t r7 = AGPU_REG_CP_SCRATCH_REG0 + 7;
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_EQ, 4), r6, 0x5, 0xff, 1,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 1,
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_GTE, 4), r7, 0x10, 0xffff, 1,
        AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 4, 2,
    };
    uint32_t rptr0 = f->ring_cur, seqno, i;

    seqno = kernel_submit(f, ib_new(f, w, G_N_ELEMENTS(w)),
                          G_N_ELEMENTS(w));
    for (i = 0; i < 20; i++) {
        g_assert_true(agpu_run(&f->gpu, 256));
        g_assert_true(agpu_cp_waiting(&f->gpu));
    }
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_cmphex(va_r32(f, dst), ==, 0);

    /* EQ: bits outside the mask do not matter in the register... */
    wr(f, r6, 0xab05);
    /* ...GTE: 0xf < 0x10 keeps waiting */
    wr(f, r7, 0xf);
    g_assert_true(agpu_run(&f->gpu, 256));
    g_assert_cmphex(va_r32(f, dst), ==, 1);
    g_assert_cmphex(va_r32(f, dst + 4), ==, 0);
    g_assert_true(agpu_cp_waiting(&f->gpu));
    /* GTE compares the masked register: 0xffff0000 & 0xffff = 0 */
    wr(f, r7, 0xffff0000);
    g_assert_true(agpu_run(&f->gpu, 256));
    /* unsigned: 0x8000 >= 0x10 */
    wr(f, r7, 0x00008000);
    g_assert_false(agpu_run(&f->gpu, 256));
    g_assert_cmphex(va_r32(f, dst + 4), ==, 2);
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_false(agpu_cp_waiting(&f->gpu));
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    g_assert_cmpuint(f->gpu.stat_opcode_errors, ==, 0);
    assert_sane_idle(f);

    /*
     * Unlike CP_WAIT_REG_MEM the value is not masked: value 0x105 with
     * mask 0xff can never match, the CP waits until hangcheck's reset.
     */
    {
        uint32_t w2[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_EQ, 4), r6, 0x105, 0xff, 1,
        };

        wr(f, r6, 0x105);
        seqno = kernel_submit(f, ib_new(f, w2, 5), 5);
        for (i = 0; i < 100; i++) {
            g_assert_true(agpu_run(&f->gpu, 256));
        }
        g_assert_cmphex(fence(f), !=, seqno);
        va_w32(f, f->memptrs_va + 4, seqno);
        wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
        wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
        g_assert_false(agpu_cp_waiting(&f->gpu));
        g_assert_true(kernel_hw_init(f, &fw_good));
    }

    /* a payload shorter than four dwords is an opcode error, skipped */
    {
        uint32_t w3[] = {
            AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_GTE, 3), r7, 0, 0,
            AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst + 8, 3,
        };

        seqno = run_ib(f, w3, G_N_ELEMENTS(w3));
        g_assert_cmphex(fence(f), ==, seqno);
        g_assert_cmphex(va_r32(f, dst + 8), ==, 3);
        g_assert_nonnull(strstr(f->last_error, "opcode 0x53 with 3 payload "
                                "dwords, needs 4"));
        g_assert_cmphex(kernel_irq(f).cp, ==,
                        AGPU_CP_INT_OPCODE_ERROR | AGPU_CP_INT_RB);
    }
    assert_sane_idle(f);
    fake_free(f);
}

/*
 * The IB Debian's Mesa 22.3.6 (freedreno fd2, a20x path) submits for its
 * first clear into a framebuffer object, the start of fd2_emit_restore()
 * as the guest's mesa suite captured it, plus the a20x draw workaround
 * (fd2_draw.c: CP_WAIT_REG_EQ on VGT_BUSY_NO_DMA, then a dummy
 * CP_DRAW_INDX_BIN) and the userspace fence.  On the real a200 this
 * raises nothing but the fence; so must the model: no OPCODE_ERROR for
 * CP_WAIT_REG_EQ, no PROTECTED_MODE_ERROR for RBBM_PM_OVERRIDE1/2.
 */
static void test_mesa_fd2_restore(void)
{
    Fake *f = fake_booted();
    uint32_t ctrl = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT0(0x0f01, 1), 0x1c004046,           /* RB_BC_CONTROL */
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2), 0x00040293, 0x00000020,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2), 0x00040316, 0x00000002,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2), 0x00040317, 0x00000002,
        AGPU_PM4_PKT0(0x0444, 1), 0,                    /* CP_PERFMON_CNTL */
        AGPU_PM4_PKT0(AGPU_REG_RBBM_PM_OVERRIDE1, 2), 0xffffffff, 0x00000fff,
        AGPU_PM4_PKT0(0x0e1e, 1), 0x00000002,           /* TP0_CHICKEN */
        AGPU_PM4_PKT3(AGPU_CP_INVALIDATE_STATE, 1), 0x00007fff,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2), 0x00040307, 0x00100020,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 2), 0x00040308, 0x000e0120,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 3), 0x00040100, 0xffffffff, 0,
        /* DRAW_INIT_FLAGS */
        AGPU_PM4_PKT3(AGPU_CP_SET_BIN_BASE_OFFSET, 1), 0,
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_EQ, 4),
        AGPU_REG_RBBM_STATUS, 0x00000000, 0x5f601000, 0x00000001,
        AGPU_PM4_PKT0(0x0d02, 1), 0x00000180,   /* SQ_INST_STORE_MANAGMENT */
        AGPU_PM4_PKT3(AGPU_CP_INVALIDATE_STATE, 1), 0x00000300,
        AGPU_PM4_PKT3(AGPU_CP_SET_SHADER_BASES, 1), 0x80000180,
        AGPU_PM4_PKT3(AGPU_CP_SET_CONSTANT, 13), 0, 0, 0, 0, 0, 0x469c4000,
        0x3f800000, 0x3f000000, 0, 0x40000000, 0x3f400000, 0x3ec00000,
        0x3e800000,
        AGPU_PM4_PKT0(0x0e00, 1), 0x00000001,           /* TC_CNTL_STATUS */
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_EQ, 4),
        AGPU_REG_RBBM_STATUS, 0x00000000, 0x00001000, 0x00000001,
        AGPU_PM4_PKT3(AGPU_CP_DRAW_INDX_BIN, 6), 0, 0x0003c004, 0, 3,
        ctrl + 64, 6,
        AGPU_PM4_PKT3(AGPU_CP_EVENT_WRITE, 3), AGPU_EVENT_CACHE_FLUSH_TS,
        ctrl, 1,
    };
    uint32_t seqno;

    seqno = run_ib(f, w, G_N_ELEMENTS(w));
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_cmphex(va_r32(f, ctrl), ==, 1);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_PM_OVERRIDE1), ==, 0xffffffff);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_PM_OVERRIDE2), ==, 0x00000fff);
    g_assert_cmphex(rd(f, 0x0f01), ==, 0x1c004046);
    g_assert_cmphex(rd(f, 0x2293), ==, 0x20);
    g_assert_cmpuint(f->gpu.stat_opcode_errors, ==, 0);
    g_assert_cmpuint(f->gpu.stat_protect_errors, ==, 0);
    g_assert_cmpuint(f->guest_errors, ==, 0);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- hangs and recovery ---- */

static void check_hang_and_recover(Fake *f, uint32_t ib, uint32_t ndw)
{
    AGpuCore *g = &f->gpu;
    uint32_t rptr0 = f->ring_cur, seqno, calls = 0, i;
    uint32_t scratch2 = rd(f, AGPU_REG_CP_SCRATCH_REG0 + 2);
    uint64_t pk0 = g->stat_packets, dma0 = f->dma_calls;
    const uint32_t budget = 1000;

    seqno = kernel_submit(f, ib, ndw);
    for (;;) {
        uint64_t pk = g->stat_packets;
        bool again = agpu_run(g, budget);

        g_assert_cmpuint(g->stat_packets - pk, <=, budget);
        g_assert_true(agpu_state_valid(g));
        calls++;
        if (!again) {
            break;
        }
        g_assert_cmpuint(calls, <, 10 * (g->hang_limit / budget + 10));
    }
    /* hung: busy, RPTR stuck on the IB packet, no fence */
    g_assert_true(g->hung);
    g_assert_cmpuint(g->stat_packets - pk0, <=, (uint64_t)g->hang_limit + 1);
    g_assert_cmpuint(f->dma_calls - dma0, <=,
                     (uint64_t)g->hang_limit * 8 + 1000);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_true(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
    g_assert_cmphex(fence(f), !=, seqno);
    g_assert_false(agpu_cp_runnable(g));
    for (i = 0; i < 3; i++) {
        uint64_t pk = g->stat_packets;

        g_assert_false(agpu_run(g, budget));
        g_assert_cmpuint(g->stat_packets, ==, pk);
        g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    }
    kernel_irq(f);

    /* recover_worker(): fence += 1 from the CPU, a2xx_recover(), hw_init */
    va_w32(f, f->memptrs_va + 4, seqno);
    for (i = 0; i < 8; i++) {
        rd(f, AGPU_REG_CP_SCRATCH_REG0 + i);
    }
    g_assert_cmphex(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 2), ==, scratch2);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    rd(f, AGPU_REG_RBBM_SOFT_RESET);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    g_assert_false(g->hung);
    g_assert_false(agpu_cp_busy(g));
    g_assert_true(kernel_hw_init(f, &fw_good));

    /* the next submit works; the hung one never writes its fence */
    {
        uint32_t dst = bo_new(f, 1, PROT_RW);
        uint32_t w[] = { AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2), dst, 0x900d };
        uint32_t s2 = run_ib(f, w, 3);

        g_assert_cmphex(va_r32(f, dst), ==, 0x900d);
        g_assert_cmphex(fence(f), ==, s2);
        g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);
    }
    assert_sane_idle(f);
}

/* an IB full of calls to itself: K * K packets, more than the limit */
static uint32_t self_ref_ib(Fake *f, uint32_t k)
{
    uint32_t ndw = 3 * k;
    uint32_t va = bo_new(f, (ndw * 4 + PAGE - 1) / PAGE, PROT_RW), i;

    for (i = 0; i < k; i++) {
        va_w32(f, va + i * 12, AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2));
        va_w32(f, va + i * 12 + 4, va);
        va_w32(f, va + i * 12 + 8, ndw);
    }
    return va;
}

static void test_hang_self_ref_ib(void)
{
    Fake *f = fake_booted();

    /* default limit: 1100 * 1100 > 2^20 */
    g_assert_cmpuint(f->gpu.hang_limit, ==, AGPU_DEFAULT_HANG_LIMIT);
    check_hang_and_recover(f, self_ref_ib(f, 1100), 3 * 1100);
    g_assert_cmpuint(f->gpu.stat_hangs, ==, 1);
    fake_free(f);
}

static void test_hang_small_limit(void)
{
    Fake *f = fake_booted();
    uint32_t n = 2000, i;
    uint32_t va = bo_new(f, (n * 4 + PAGE - 1) / PAGE, PROT_RW);

    f->gpu.hang_limit = 500;
    /* a plain long IB of NOPs also trips the limit */
    for (i = 0; i < n; i++) {
        va_w32(f, va + i * 4, AGPU_PM4_PKT2);
    }
    check_hang_and_recover(f, va, n);
    /* and an IB tree that stays under it does not */
    {
        uint32_t seqno = kernel_submit(f, va, 400);

        kick(f);
        g_assert_cmphex(fence(f), ==, seqno);
        kernel_irq(f);
    }
    fake_free(f);
}

/* the CP stalled forever in a WAIT: the same recovery works */
static void test_hang_wait_forever(void)
{
    Fake *f = fake_booted();
    uint32_t flag = bo_new(f, 1, PROT_RW);
    uint32_t w[] = {
        AGPU_PM4_PKT3(AGPU_CP_WAIT_REG_MEM, 5), 0x13, flag, 1, ~0u, 0,
    };
    uint32_t rptr0 = f->ring_cur, seqno, i;

    seqno = kernel_submit(f, ib_new(f, w, 6), 6);
    for (i = 0; i < 1000; i++) {
        g_assert_true(agpu_run(&f->gpu, 256));
    }
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, rptr0);
    g_assert_cmphex(fence(f), !=, seqno);
    va_w32(f, f->memptrs_va + 4, seqno);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    g_assert_true(kernel_hw_init(f, &fw_good));
    va_w32(f, flag, 1);
    kick(f);
    g_assert_cmphex(fence(f), ==, seqno);
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- protected mode ---- */

/*
 * Protected mode refuses IB writes below CP_INT_CNTL (AGPU_PROTECT_LIMIT,
 * from the 0x200001f2 protection word of CP_ME_INIT) and allows the rest,
 * RBBM_PM_OVERRIDE1/2 and the MH interrupt registers included.
 */
static void test_protected_mode(void)
{
    Fake *f = fake_booted();
    uint32_t w[] = {
        AGPU_PM4_PKT0(AGPU_REG_MH_MMU_CONFIG, 1), 0,
        AGPU_PM4_PKT0(AGPU_REG_MH_MMU_PT_BASE, 1), 0x1000,
        AGPU_PM4_PKT0(AGPU_REG_CP_RB_BASE, 1), 0,
        AGPU_PM4_PKT0(AGPU_REG_RBBM_SOFT_RESET, 1), 1,
        AGPU_PM4_PKT0(AGPU_REG_CP_PFP_UCODE_ADDR, 1), 0,
        /* spans 0x1f1 (protected) and CP_INT_CNTL 0x1f2 (not) */
        AGPU_PM4_PKT0(AGPU_PROTECT_LIMIT - 1, 2), 0x11, HW_CP_INT_CNTL,
        AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0 + 3, 1), 0x1234,
        AGPU_PM4_PKT0(0x2200, 1), 0x4321,
        /* what Mesa's fd2_emit_restore() writes, and more above 0x1f2 */
        AGPU_PM4_PKT0(AGPU_REG_RBBM_PM_OVERRIDE1, 2), 0xffffffff, 0xfff,
        AGPU_PM4_PKT0(AGPU_REG_RBBM_DEBUG, 1), 0x00080001,
        AGPU_PM4_PKT0(AGPU_REG_MH_INTERRUPT_MASK, 1), 7,
        AGPU_PM4_PKT0(AGPU_REG_CP_DEBUG, 1), 0x02000001,
        AGPU_PM4_PKT3(AGPU_CP_SET_PROTECTED_MODE, 1), 0,
    };
    uint32_t seqno;
    IrqResult r;

    g_assert_true(f->gpu.protected_mode);
    seqno = run_ib(f, w, G_N_ELEMENTS(w));
    g_assert_cmphex(fence(f), ==, seqno);
    g_assert_cmphex(rd(f, AGPU_REG_MH_MMU_CONFIG), ==, HW_MMU_CONFIG);
    g_assert_cmphex(rd(f, AGPU_REG_MH_MMU_PT_BASE), ==, f->pt_pa);
    g_assert_cmphex(rd(f, AGPU_REG_CP_RB_BASE), ==, f->ring_va);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_SOFT_RESET), ==, 0);
    g_assert_cmpuint(f->gpu.pfp_count, ==, G_N_ELEMENTS(fw_pfp) - 1);
    g_assert_cmphex(rd(f, AGPU_PROTECT_LIMIT - 1), ==, 0);
    g_assert_cmphex(rd(f, AGPU_REG_CP_INT_CNTL), ==, HW_CP_INT_CNTL);
    g_assert_cmphex(rd(f, AGPU_REG_CP_SCRATCH_REG0 + 3), ==, 0x1234);
    g_assert_cmphex(rd(f, 0x2200), ==, 0x4321);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_PM_OVERRIDE1), ==, 0xffffffff);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_PM_OVERRIDE2), ==, 0xfff);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_DEBUG), ==, 0x00080001);
    g_assert_cmphex(rd(f, AGPU_REG_MH_INTERRUPT_MASK), ==, 7);
    g_assert_cmphex(rd(f, AGPU_REG_CP_DEBUG), ==, 0x02000001);
    g_assert_true(f->gpu.protected_mode);
    /* one error per refused packet (5 + the span) and one per mode change */
    g_assert_cmpuint(f->gpu.stat_protect_errors, ==, 7);
    g_assert_nonnull(strstr(f->last_error, "CP_SET_PROTECTED_MODE 0"));
    r = kernel_irq(f);
    g_assert_cmphex(r.cp, ==, AGPU_CP_INT_PROTECTED_MODE_ERROR |
                    AGPU_CP_INT_RB);

    /* the message names the register, the value and the IB */
    {
        uint32_t w2[] = { AGPU_PM4_PKT0(AGPU_REG_MH_MMU_VA_RANGE, 1), 0xbad };

        run_ib(f, w2, G_N_ELEMENTS(w2));
        g_assert_nonnull(strstr(f->last_error, "register 0x0041 "
                                "(MH_MMU_VA_RANGE) value 0x00000bad refused "
                                "(1 of 1 writes)"));
        g_assert_nonnull(strstr(f->last_error, "IB1 packet at 0x"));
        g_assert_cmphex(kernel_irq(f).cp, ==,
                        AGPU_CP_INT_PROTECTED_MODE_ERROR | AGPU_CP_INT_RB);
    }

    /* from the ring (the kernel) protected registers stay writable */
    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_RBBM_CNTL, 1));
    out_ring(f, 0x4443);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_SET_PROTECTED_MODE, 1));
    out_ring(f, 0);
    flush(f);
    kick(f);
    g_assert_cmphex(rd(f, AGPU_REG_RBBM_CNTL), ==, 0x4443);
    g_assert_false(f->gpu.protected_mode);
    g_assert_false(f->irq);
    assert_sane_idle(f);
    fake_free(f);
}

/* the kernel's own ring may reset the CP through PKT0; nothing breaks */
static void test_ring_writes_cp_registers(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);

    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_CP_SCRATCH_REG0, 1));
    out_ring(f, 1);
    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_RBBM_SOFT_RESET, 2));
    out_ring(f, 1);
    out_ring(f, 0);                     /* RBBM_SOFT_RESET + 1 */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst);
    out_ring(f, 0xbad);
    flush(f);
    kick(f);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_SCRATCH_REG0), ==, 1);
    g_assert_cmphex(va_r32(f, dst), ==, 0);
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, 0);
    g_assert_true(agpu_state_valid(&f->gpu));
    g_assert_false(agpu_run(&f->gpu, 100));     /* held in reset */
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    g_assert_true(kernel_hw_init(f, &fw_good));

    /* halting the ME from the ring stops the CP after that packet */
    out_ring(f, AGPU_PM4_PKT0(AGPU_REG_CP_ME_CNTL, 1));
    out_ring(f, AGPU_ME_CNTL_HALT);
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_MEM_WRITE, 2));
    out_ring(f, dst);
    out_ring(f, 0x1);
    flush(f);
    g_assert_false(agpu_run(&f->gpu, 100));
    g_assert_cmphex(va_r32(f, dst), ==, 0);
    g_assert_false(agpu_cp_runnable(&f->gpu));
    wr(f, AGPU_REG_CP_ME_CNTL, 0);
    g_assert_true(agpu_cp_runnable(&f->gpu));
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 1);
    assert_sane_idle(f);
    fake_free(f);
}

/* ---- misc CP behaviour ---- */

static void test_event_write(void)
{
    Fake *f = fake_booted();
    uint32_t dst = bo_new(f, 1, PROT_RW);

    /* an event without an address is a no-op */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_EVENT_WRITE, 1));
    out_ring(f, 7);
    /* bit 31 asks for an interrupt [design] */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_EVENT_WRITE, 3));
    out_ring(f, AGPU_EVENT_CACHE_FLUSH_TS | AGPU_EVENT_IRQ);
    out_ring(f, dst);
    out_ring(f, 0x77);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, dst), ==, 0x77);
    g_assert_true(f->irq);
    g_assert_cmphex(f->fence_at_rise, ==, 0);
    g_assert_cmphex(kernel_irq(f).cp, ==, AGPU_CP_INT_RB);

    /* a faulting fence write raises no RB_INT */
    out_ring(f, AGPU_PM4_PKT3(AGPU_CP_EVENT_WRITE, 3));
    out_ring(f, AGPU_EVENT_CACHE_FLUSH_TS | AGPU_EVENT_IRQ);
    out_ring(f, 0x00100000);
    out_ring(f, 0x78);
    flush(f);
    kick(f);
    g_assert_cmphex(kernel_irq(f).master, ==, AGPU_MASTER_MH_INT);
    assert_sane_idle(f);
    fake_free(f);
}

static void test_rptr_writeback(void)
{
    Fake *f = fake_booted();

    /* NO_UPDATE (the msm setting): memptrs->rptr is left alone */
    va_w32(f, f->memptrs_va, 0xdead);
    wr(f, AGPU_REG_CP_RB_RPTR_ADDR, f->memptrs_va);
    out_ring(f, AGPU_PM4_PKT2);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, f->memptrs_va), ==, 0xdead);

    /* without NO_UPDATE RPTR is shadowed to CP_RB_RPTR_ADDR */
    wr(f, AGPU_REG_CP_RB_CNTL, HW_RB_CNTL & ~AGPU_RB_CNTL_NO_UPDATE);
    out_ring(f, AGPU_PM4_PKT2);
    out_ring(f, AGPU_PM4_PKT2);
    flush(f);
    kick(f);
    g_assert_cmphex(va_r32(f, f->memptrs_va), ==, f->ring_cur);
    g_assert_cmphex(va_r32(f, f->memptrs_va), ==, 24);
    fake_free(f);
}

static void test_state_valid(void)
{
    Fake *f = fake_booted();
    AGpuCore *g = &f->gpu;
    AGpuCore *saved = g_new(AGpuCore, 1);
    uint32_t ib2w[] = { AGPU_PM4_PKT2, AGPU_PM4_PKT2 };
    uint32_t ib2 = ib_new(f, ib2w, 2);
    uint32_t ib1w[] = {
        AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2), ib2, 2,
    };

    kernel_submit(f, ib_new(f, ib1w, 3), 3);
    g_assert_true(agpu_run(&f->gpu, 2));
    g_assert_cmpuint(g->depth, ==, 2);
    g_assert_true(agpu_state_valid(g));
    memcpy(saved, g, sizeof(*g));

    g->depth = 3;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->ib_pos[1] = g->ib_size[1] + 1;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->ib_ret[0] = 0;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->rb_rptr = RING_DWORDS;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->rb_wptr = 0xffffffff;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->waiting = 1;
    g->wait_len = 0;
    g_assert_false(agpu_state_valid(g));
    memcpy(g, saved, sizeof(*g));
    g->irq_level = 2;
    g_assert_false(agpu_state_valid(g));

    /* a restored copy resumes where it stopped */
    memcpy(g, saved, sizeof(*g));
    g_assert_true(agpu_state_valid(g));
    kick(f);
    g_assert_cmphex(fence(f), ==, f->seqno);
    kernel_irq(f);
    assert_sane_idle(f);
    g_free(saved);
    fake_free(f);
}

/* ---- hostile streams ---- */

static const uint32_t garbage_ops[] = {
    AGPU_CP_NOP, AGPU_CP_INDIRECT_BUFFER_PFD, AGPU_CP_INDIRECT_BUFFER,
    AGPU_CP_MEM_WRITE, AGPU_CP_REG_TO_MEM, AGPU_CP_WAIT_REG_MEM,
    AGPU_CP_EVENT_WRITE, AGPU_CP_INTERRUPT, AGPU_CP_SET_CONSTANT,
    AGPU_CP_SET_PROTECTED_MODE, AGPU_CP_ME_INIT, AGPU_CP_WAIT_FOR_IDLE,
    AGPU_CP_DRAW_INDX, AGPU_CP_WAIT_REG_EQ, AGPU_CP_WAIT_REG_GTE,
};

#define GARBAGE_VA      0x01800000u
#define GARBAGE_PAGES   256u

static uint32_t garbage_dword(GRand *r)
{
    switch (g_rand_int_range(r, 0, 12)) {
    case 0:
    case 1:
        return g_rand_int(r);
    case 2:
        return AGPU_PM4_PKT0(g_rand_int_range(r, 0, 0x8000),
                             g_rand_int_range(r, 1, 9)) |
               (g_rand_boolean(r) ? AGPU_PM4_T0_ONE_REG : 0);
    case 3:
        return AGPU_PM4_PKT2;
    case 4:
        return 0x40000000 | (g_rand_int(r) & 0x3fffffff);
    case 5:
    case 6:
    case 7:
        return AGPU_PM4_PKT3(garbage_ops[g_rand_int_range(r, 0,
                                         G_N_ELEMENTS(garbage_ops))],
                             g_rand_int_range(r, 1, 8));
    case 8:
    case 9:
        /* an address into the mapped garbage, or near it */
        return GARBAGE_VA + g_rand_int_range(r, -0x2000,
                                             GARBAGE_PAGES * PAGE + 0x2000);
    default:
        return g_rand_int_range(r, 0, 64);
    }
}

/* the page table as the kernel wrote it, restored before every episode */
static uint8_t *garbage_pt;

static void garbage_restart(Fake *f)
{
    /* a stream that turned the MMU off may have written the table */
    memcpy(f->mem + (f->pt_pa - MEM_BASE), garbage_pt, PT_BYTES);
    /* what a recovery would do: reset, restore the MMU, restart the CP */
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    wr(f, AGPU_REG_MH_MMU_CONFIG, HW_MMU_CONFIG);
    wr(f, AGPU_REG_MH_MMU_VA_RANGE, VA_START | 0xfff);
    wr(f, AGPU_REG_MH_MMU_PT_BASE, f->pt_pa);
    wr(f, AGPU_REG_MH_MMU_MPU_BASE, 0);
    wr(f, AGPU_REG_MH_MMU_MPU_END, 0xfffff000);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL);
    wr(f, AGPU_REG_MH_INTERRUPT_MASK, 7);
    wr(f, AGPU_REG_CP_RB_CNTL, HW_RB_CNTL);
    wr(f, AGPU_REG_CP_RB_BASE, f->ring_va);
    wr(f, AGPU_REG_CP_ME_CNTL, 0);
    f->ring_cur = 0;
}

static void test_garbage(void)
{
    Fake *f = fake_booted();
    AGpuCore *g = &f->gpu;
    GRand *r = g_rand_new_with_seed(0x5eed2026);
    const uint32_t budget = 64;
    uint64_t total = 0;
    uint32_t i, episodes = 0, hangs = 0, waits = 0, iter = 0;

    g->hang_limit = 4096;
    /* garbage pages the random addresses and IBs land in */
    for (i = 0; i < GARBAGE_PAGES; i++) {
        uint32_t pa = f->next_pa + i * PAGE, j;

        map_page(f, GARBAGE_VA + i * PAGE, pa, PROT_RW);
        for (j = 0; j < PAGE; j += 4) {
            pa_w32(f, pa + j, garbage_dword(r));
        }
    }
    f->next_pa += GARBAGE_PAGES * PAGE;
    /* a hostile stream also gets to write the ring's pages */
    for (i = 0; i < RING_PAGES; i++) {
        map_page(f, f->ring_va + i * PAGE,
                 va_to_pa(f, f->ring_va + i * PAGE), PROT_RW);
    }
    garbage_pt = g_memdup2(f->mem + (f->pt_pa - MEM_BASE), PT_BYTES);

    while (total < 100000) {
        uint32_t polls = 0;

        g_assert_cmpuint(++episodes, <, 10000);
        garbage_restart(f);
        for (i = 0; i < RING_DWORDS - 1; i++) {
            out_ring(f, garbage_dword(r));
        }
        flush(f);
        for (;;) {
            uint64_t pk = g->stat_packets, dma = f->dma_calls;
            bool again = agpu_run(g, budget);

            g_assert_cmpuint(++iter, <, 10000000);
            g_assert_cmpuint(g->stat_packets - pk, <=, budget);
            g_assert_cmpuint(f->dma_calls - dma, <=, 24 * budget + 8192);
            g_assert_true(agpu_state_valid(g));
            total += g->stat_packets - pk;
            if (f->irq) {
                kernel_irq(f);
            }
            if (!again) {
                break;
            }
            if (agpu_cp_waiting(g) && ++polls > 3) {
                waits++;
                break;
            }
        }
        hangs += g->hung;
    }
    g_test_message("garbage: %" G_GUINT64_FORMAT " packets, %u episodes, "
                   "%u hangs, %u stuck waits, %u IBs, %u opcode errors, "
                   "%u faults", total, episodes, hangs, waits,
                   (uint32_t)g->stat_ibs, g->stat_opcode_errors,
                   g->stat_mmu_faults);
    g_assert_cmpuint(g->stat_opcode_errors, >, 0);
    g_assert_cmpuint(g->stat_ibs, >, 0);

    /* the device still boots and submits afterwards */
    g->hang_limit = AGPU_DEFAULT_HANG_LIMIT;
    memcpy(f->mem + (f->pt_pa - MEM_BASE), garbage_pt, PT_BYTES);
    g_free(garbage_pt);
    garbage_pt = NULL;
    for (i = 0; i < RING_PAGES; i++) {
        map_page(f, f->ring_va + i * PAGE,
                 va_to_pa(f, f->ring_va + i * PAGE), PROT_R);
    }
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 1);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0);
    g_assert_true(kernel_hw_init(f, &fw_good));
    {
        uint32_t seqno = kernel_submit(f, 0, 0);

        kick(f);
        g_assert_cmphex(fence(f), ==, seqno);
    }
    kernel_irq(f);
    g_rand_free(r);
    fake_free(f);
}

/* random register writes (what a confused driver could do) */
static void test_random_registers(void)
{
    Fake *f = fake_booted();
    GRand *r = g_rand_new_with_seed(42);
    uint32_t i;

    for (i = 0; i < 200000; i++) {
        uint32_t reg = g_rand_boolean(r) ?
                       (uint32_t)g_rand_int_range(r, 0, 0x600) :
                       g_rand_int(r) & 0xffff;

        wr(f, reg, g_rand_boolean(r) ? g_rand_int(r) :
                   (uint32_t)g_rand_int_range(r, 0, 16));
        rd(f, g_rand_int(r) & 0xffff);
        if ((i & 63) == 0) {
            agpu_run(&f->gpu, 32);
        }
        g_assert_true(agpu_state_valid(&f->gpu));
        /* the line always equals "any enabled cause pending" */
        g_assert_cmpint(f->irq, ==,
                        rd(f, AGPU_REG_MASTER_INT_SIGNAL) != 0);
    }
    g_rand_free(r);
    fake_free(f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    g_test_add_func("/agpu/regs/reset-values", test_reset_values);
    g_test_add_func("/agpu/regs/reads-no-side-effects",
                    test_reads_have_no_side_effects);
    g_test_add_func("/agpu/regs/chip-id", test_chip_id);
    g_test_add_func("/agpu/irq/line", test_irq_line);
    g_test_add_func("/agpu/fw/upload", test_firmware_upload);
    g_test_add_func("/agpu/fw/legacy", test_firmware_legacy);
    g_test_add_func("/agpu/fw/strict", test_firmware_strict);
    g_test_add_func("/agpu/a200/boot-and-submit", test_a200_boot_and_submit);
    g_test_add_func("/agpu/a200/fence-wrap", test_fence_wrap);
    g_test_add_func("/agpu/pm4/type0", test_pm4_type0);
    g_test_add_func("/agpu/pm4/type2-type3", test_pm4_type2_type3);
    g_test_add_func("/agpu/pm4/type1-unknown", test_pm4_type1_and_unknown);
    g_test_add_func("/agpu/pm4/starved", test_pm4_starved);
    g_test_add_func("/agpu/pm4/budget", test_budget);
    g_test_add_func("/agpu/ring/wrap", test_ring_wrap);
    g_test_add_func("/agpu/ring/wptr-beyond", test_ring_wptr_beyond);
    g_test_add_func("/agpu/ring/cp-register-writes",
                    test_ring_writes_cp_registers);
    g_test_add_func("/agpu/ring/rptr-writeback", test_rptr_writeback);
    g_test_add_func("/agpu/ib/nesting", test_ib_nesting);
    g_test_add_func("/agpu/ib/stepwise", test_ib_stepwise);
    g_test_add_func("/agpu/ib/depth-limit", test_ib_depth_limit);
    g_test_add_func("/agpu/mmu/translation", test_mmu_translation);
    g_test_add_func("/agpu/mmu/write-faults", test_mmu_faults);
    g_test_add_func("/agpu/mmu/read-faults", test_mmu_read_faults);
    g_test_add_func("/agpu/mmu/fault-latch", test_mmu_fault_latch);
    g_test_add_func("/agpu/mmu/bus-errors", test_mmu_bus_errors);
    g_test_add_func("/agpu/regs/names", test_regnames);
    g_test_add_func("/agpu/mmu/disabled", test_mmu_disabled);
    g_test_add_func("/agpu/wait/memory", test_wait_reg_mem);
    g_test_add_func("/agpu/wait/functions", test_wait_functions);
    g_test_add_func("/agpu/wait/cancelled-by-reset",
                    test_wait_cancelled_by_reset);
    g_test_add_func("/agpu/wait/reg-eq-gte", test_wait_reg_eq_gte);
    g_test_add_func("/agpu/mesa/fd2-restore", test_mesa_fd2_restore);
    g_test_add_func("/agpu/hang/self-ref-ib", test_hang_self_ref_ib);
    g_test_add_func("/agpu/hang/small-limit", test_hang_small_limit);
    g_test_add_func("/agpu/hang/wait-forever", test_hang_wait_forever);
    g_test_add_func("/agpu/protect/ib-writes", test_protected_mode);
    g_test_add_func("/agpu/cp/event-write", test_event_write);
    g_test_add_func("/agpu/state/valid", test_state_valid);
    g_test_add_func("/agpu/hostile/garbage", test_garbage);
    g_test_add_func("/agpu/hostile/registers", test_random_registers);

    return g_test_run();
}
