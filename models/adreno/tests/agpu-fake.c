/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The agpu unit tests' fixture (agpu-fake.h): fake guest RAM, the gpummu
 * page table, and the a2xx driver's register conversation.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include <string.h>

#include "agpu-fake.h"

/* ---- fake guest RAM ---- */

static bool in_ram(uint64_t addr, uint32_t len)
{
    return addr >= MEM_BASE && addr + len <= (uint64_t)MEM_BASE + MEM_SIZE;
}

static bool fake_dma_read(void *opaque, uint64_t addr, void *buf,
                          uint32_t len)
{
    Fake *f = opaque;

    f->dma_calls++;
    f->dma_reads++;
    if (f->watch_pa && addr <= f->watch_pa && f->watch_pa < addr + len) {
        f->watch_reads++;
    }
    if (!in_ram(addr, len)) {
        return false;
    }
    memcpy(buf, f->mem + (addr - MEM_BASE), len);
    return true;
}

static bool fake_dma_write(void *opaque, uint64_t addr, const void *buf,
                           uint32_t len)
{
    Fake *f = opaque;

    f->dma_calls++;
    if (!in_ram(addr, len)) {
        return false;
    }
    memcpy(f->mem + (addr - MEM_BASE), buf, len);
    return true;
}

uint32_t pa_r32(Fake *f, uint32_t pa)
{
    const uint8_t *b;

    g_assert_true(in_ram(pa, 4));
    b = f->mem + (pa - MEM_BASE);
    return b[0] | (b[1] << 8) | (b[2] << 16) | ((uint32_t)b[3] << 24);
}

void pa_w32(Fake *f, uint32_t pa, uint32_t v)
{
    uint8_t *b;

    g_assert_true(in_ram(pa, 4));
    b = f->mem + (pa - MEM_BASE);
    b[0] = v;
    b[1] = v >> 8;
    b[2] = v >> 16;
    b[3] = v >> 24;
}

static void fake_set_irq(void *opaque, bool level)
{
    Fake *f = opaque;

    if (level == f->irq) {
        return;     /* reset re-sends the level */
    }
    f->irq = level;
    f->irq_changes++;
    if (level) {
        f->irq_rises++;
        if (f->memptrs_va) {
            /* what msm_gpu_retire() would read from the handler */
            uint32_t pte = pa_r32(f, f->pt_pa +
                                  (f->memptrs_va - VA_START) / PAGE * 4);
            f->fence_at_rise = pa_r32(f, (pte & ~0xfffu) + 4);
        }
    }
}

static void fake_guest_error(void *opaque, const char *msg)
{
    Fake *f = opaque;

    f->guest_errors++;
    g_strlcpy(f->last_error, msg, sizeof(f->last_error));
}

static const AGpuOps fake_ops = {
    .dma_read = fake_dma_read,
    .dma_write = fake_dma_write,
    .set_irq = fake_set_irq,
    .guest_error = fake_guest_error,
};

/* ---- kernel-side page table and buffer objects ---- */

void map_page(Fake *f, uint32_t va, uint32_t pa, uint32_t prot)
{
    g_assert_cmpuint(va, >=, VA_START);
    g_assert_cmpuint(va, <, VA_END);
    pa_w32(f, f->pt_pa + (va - VA_START) / PAGE * 4, pa | prot);
}

void unmap_page(Fake *f, uint32_t va)
{
    pa_w32(f, f->pt_pa + (va - VA_START) / PAGE * 4, 0);
}

/* a BO of n pages; VA page i uses the (n-1-i)th new physical page */
uint32_t bo_new(Fake *f, uint32_t npages, uint32_t prot)
{
    uint32_t va = f->next_va, i;

    g_assert_cmpuint(f->next_pa + npages * PAGE, <=, MEM_BASE + MEM_SIZE);
    for (i = 0; i < npages; i++) {
        map_page(f, va + i * PAGE, f->next_pa + (npages - 1 - i) * PAGE,
                 prot);
    }
    f->next_pa += npages * PAGE;
    /* one guard page between BOs, unmapped */
    f->next_va += (npages + 1) * PAGE;
    return va;
}

/* CPU view of a GPU VA, walking the table independently of the core */
uint32_t va_to_pa(Fake *f, uint32_t va)
{
    uint32_t pte = pa_r32(f, f->pt_pa + (va - VA_START) / PAGE * 4);

    g_assert_cmpuint(pte & ~0xfffu, !=, 0);
    return (pte & ~0xfffu) | (va & 0xfff);
}

uint32_t va_r32(Fake *f, uint32_t va)
{
    return pa_r32(f, va_to_pa(f, va));
}

void va_w32(Fake *f, uint32_t va, uint32_t v)
{
    pa_w32(f, va_to_pa(f, va), v);
}

Fake *fake_new(void)
{
    Fake *f = g_new0(Fake, 1);

    f->mem = g_malloc0(MEM_SIZE);
    f->pt_pa = MEM_BASE;
    f->next_pa = MEM_BASE + 0x100000;
    f->next_va = VA_START;
    agpu_init(&f->gpu, &fake_ops, f, AGPU_CHIP_ID_A200, AGPU_GMEM_A200);
    /* as in a2xx_create_address_space(): memptrs first, then the ring */
    f->memptrs_va = bo_new(f, 1, PROT_RW);
    f->ring_va = bo_new(f, RING_PAGES, PROT_R);
    return f;
}

void fake_free(Fake *f)
{
    g_free(f->mem);
    g_free(f);
}

void wr(Fake *f, uint32_t reg, uint32_t v)
{
    agpu_reg_write(&f->gpu, reg, v);
}

uint32_t rd(Fake *f, uint32_t reg)
{
    return agpu_reg_read(&f->gpu, reg);
}

/* the glue: bottom half / timer calls while agpu_run() asks for more */
uint32_t kick(Fake *f)
{
    uint32_t calls = 0;

    while (calls < 10000 && agpu_run(&f->gpu, 256)) {
        calls++;
    }
    return calls;
}

/* OUT_RING: no padding at the end, the ring just wraps */
void out_ring(Fake *f, uint32_t v)
{
    va_w32(f, f->ring_va + f->ring_cur * 4, v);
    f->ring_cur = (f->ring_cur + 1) % RING_DWORDS;
}

/* adreno_flush() */
void flush(Fake *f)
{
    wr(f, AGPU_REG_CP_RB_WPTR, f->ring_cur);
}

/* a2xx_idle(): RPTR reaches WPTR, then RBBM_STATUS.GUI_ACTIVE clears */
bool kernel_idle(Fake *f)
{
    kick(f);
    return rd(f, AGPU_REG_CP_RB_RPTR) == f->ring_cur &&
           !(rd(f, AGPU_REG_RBBM_STATUS) & AGPU_RBBM_STATUS_GUI_ACTIVE);
}

/* ---- firmware images (little-endian dwords, as loaded) ---- */

const uint32_t fw_pm4[FW_PM4_WORDS] = {
    0x00000000, 0x00200001, AGPU_FW_MAGIC, 0x00010000,
};
const uint32_t fw_pfp[FW_PFP_WORDS] = {
    0x00000000, AGPU_FW_MAGIC, 0x00010000, 0, 0, 0x00000123, 0, 0,
};
static const uint32_t fw_pm4_legacy[] = {
    0x00000000, 0x00000000, 0x11111111, 0x22222222,
};
static const uint32_t fw_pfp_plain[] = {
    0, 0x33333333, 0, 0, 0, 0, 0, 0,
};

const Firmware fw_good = {
    fw_pm4, G_N_ELEMENTS(fw_pm4), fw_pfp, G_N_ELEMENTS(fw_pfp),
};
const Firmware fw_legacy = {
    fw_pm4_legacy, G_N_ELEMENTS(fw_pm4_legacy),
    fw_pfp_plain, G_N_ELEMENTS(fw_pfp_plain),
};

/* a2xx_me_init(): 21 dwords at ring index 0 (19 without protection) */
void emit_me_init(Fake *f, bool protect)
{
    static const uint32_t body[18] = {
        0x000003ff, 0, 0, 0x00000000, 0x00000080, 0x00000100, 0x00000180,
        0x00000200, 0x00000280, 0x00000300, 0x00000380, 0x80000180, 1, 0,
        0, 0x200001f2, 0, 0,
    };
    uint32_t i;

    out_ring(f, 0xc0114800);
    for (i = 0; i < 18; i++) {
        out_ring(f, (i == 15 && !protect) ? 0 : body[i]);
    }
    if (protect) {
        out_ring(f, 0xc0005f00);
        out_ring(f, 1);
    }
}

/* a2xx_hw_init() with adreno_hw_init(), in the driver's exact order */
bool kernel_hw_init(Fake *f, const Firmware *fw)
{
    bool protect = fw->pm4[1] != 0;
    uint32_t i;

    wr(f, AGPU_REG_CP_ME_CNTL, AGPU_ME_CNTL_HALT);
    wr(f, AGPU_REG_RBBM_PM_OVERRIDE1, 0xfffffffe);
    wr(f, AGPU_REG_RBBM_PM_OVERRIDE2, 0xffffffff);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0xffffffff);
    wr(f, AGPU_REG_RBBM_SOFT_RESET, 0x00000000);
    wr(f, AGPU_REG_RBBM_CNTL, 0x00004442);
    wr(f, AGPU_REG_MH_MMU_MPU_BASE, 0x00000000);
    wr(f, AGPU_REG_MH_MMU_MPU_END, 0xfffff000);
    wr(f, AGPU_REG_MH_MMU_CONFIG, HW_MMU_CONFIG);
    wr(f, AGPU_REG_MH_MMU_VA_RANGE, VA_START | 0xfff);
    wr(f, AGPU_REG_MH_MMU_PT_BASE, f->pt_pa);
    wr(f, AGPU_REG_MH_MMU_TRAN_ERROR, f->pt_pa + PT_BYTES);
    wr(f, AGPU_REG_MH_MMU_INVALIDATE, 3);
    wr(f, AGPU_REG_MH_ARBITER_CONFIG, HW_ARB_CONFIG);
    wr(f, AGPU_REG_SQ_VS_PROGRAM, 0);
    wr(f, AGPU_REG_SQ_PS_PROGRAM, 0);
    wr(f, AGPU_REG_RBBM_PM_OVERRIDE1, 0);
    wr(f, AGPU_REG_RBBM_PM_OVERRIDE2, 0);
    wr(f, AGPU_REG_RBBM_DEBUG, 0x00080000);
    wr(f, AGPU_REG_RBBM_INT_CNTL, AGPU_RBBM_INT_RDERR);
    wr(f, AGPU_REG_CP_INT_CNTL, HW_CP_INT_CNTL);
    wr(f, AGPU_REG_SQ_INT_CNTL, 0);
    wr(f, AGPU_REG_MH_INTERRUPT_MASK, 7);
    wr(f, AGPU_REG_RB_EDRAM_INFO, 4);
    /* adreno_hw_init(): memory only */
    f->ring_cur = 0;
    va_w32(f, f->memptrs_va, 0);
    wr(f, AGPU_REG_CP_RB_CNTL, HW_RB_CNTL);
    wr(f, AGPU_REG_CP_RB_BASE, f->ring_va);
    wr(f, AGPU_REG_CP_DEBUG, 0x02000000);
    wr(f, AGPU_REG_CP_ME_RAM_WADDR, 0);
    for (i = 1; i < fw->pm4_len; i++) {
        wr(f, AGPU_REG_CP_ME_RAM_DATA, fw->pm4[i]);
    }
    wr(f, AGPU_REG_CP_PFP_UCODE_ADDR, 0);
    for (i = 1; i < fw->pfp_len; i++) {
        wr(f, AGPU_REG_CP_PFP_UCODE_DATA, fw->pfp[i]);
    }
    wr(f, AGPU_REG_CP_QUEUE_THRESHOLDS, 0x000c0804);
    wr(f, AGPU_REG_CP_ME_CNTL, 0);
    emit_me_init(f, protect);
    flush(f);
    return kernel_idle(f);
}

/* a2xx_submit() for one CMD_BUF (or none) */
uint32_t kernel_submit(Fake *f, uint32_t ib_va, uint32_t ib_dwords)
{
    uint32_t seqno = SEQNO_FIRST + f->submits++;

    f->seqno = seqno;
    if (ib_dwords) {
        out_ring(f, 0xc0013700);
        out_ring(f, ib_va);
        out_ring(f, ib_dwords);
        out_ring(f, 0x80000000);
    }
    out_ring(f, 0x0000057a);
    out_ring(f, seqno);
    out_ring(f, 0xc0002600);
    out_ring(f, 0x00000000);
    out_ring(f, 0xc0024600);
    out_ring(f, 0x00000004);
    out_ring(f, f->memptrs_va + 4);
    out_ring(f, seqno);
    out_ring(f, 0xc0004000);
    out_ring(f, 0x80000000);
    flush(f);
    return seqno;
}

uint32_t fence(Fake *f)
{
    return va_r32(f, f->memptrs_va + 4);
}

/* a2xx_irq(): what it reads, and the acks it writes */
IrqResult kernel_irq_handler(Fake *f)
{
    IrqResult r = { 0 };

    r.master = rd(f, AGPU_REG_MASTER_INT_SIGNAL);
    if (r.master & AGPU_MASTER_MH_INT) {
        r.mh = rd(f, AGPU_REG_MH_INTERRUPT_STATUS);
        r.page_fault = rd(f, AGPU_REG_MH_MMU_PAGE_FAULT);
        wr(f, AGPU_REG_MH_INTERRUPT_CLEAR, r.mh);
    }
    if (r.master & AGPU_MASTER_CP_INT) {
        r.cp = rd(f, AGPU_REG_CP_INT_STATUS);
        wr(f, AGPU_REG_CP_INT_ACK, r.cp);
    }
    if (r.master & AGPU_MASTER_RBBM_INT) {
        r.rbbm = rd(f, AGPU_REG_RBBM_INT_STATUS);
        wr(f, AGPU_REG_RBBM_INT_ACK, r.rbbm);
    }
    return r;
}

/* the same; the line must be low once everything is acknowledged */
IrqResult kernel_irq(Fake *f)
{
    IrqResult r = kernel_irq_handler(f);

    g_assert_false(f->irq);
    return r;
}

Fake *fake_booted(void)
{
    Fake *f = fake_new();

    g_assert_true(kernel_hw_init(f, &fw_good));
    return f;
}

/* an IB in a new RW BO, written by the CPU */
uint32_t ib_new(Fake *f, const uint32_t *dw, uint32_t n)
{
    uint32_t va = bo_new(f, (n * 4 + PAGE - 1) / PAGE + 1, PROT_RW), i;

    for (i = 0; i < n; i++) {
        va_w32(f, va + i * 4, dw[i]);
    }
    return va;
}

/* submit one IB and run the CP to idle; returns the seqno */
uint32_t run_ib(Fake *f, const uint32_t *dw, uint32_t n)
{
    uint32_t seqno = kernel_submit(f, ib_new(f, dw, n), n);

    kick(f);
    return seqno;
}

void assert_sane_idle(Fake *f)
{
    g_assert_true(agpu_state_valid(&f->gpu));
    g_assert_cmpuint(rd(f, AGPU_REG_CP_RB_RPTR), ==, f->ring_cur);
    g_assert_cmpuint(rd(f, AGPU_REG_RBBM_STATUS), ==,
                     AGPU_RBBM_STATUS_CMDFIFO_AVAIL);
    g_assert_false(agpu_cp_runnable(&f->gpu));
}
