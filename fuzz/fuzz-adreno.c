/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-adreno: a hostile driver of the agpu core.  The input is a program
 * of MMIO writes and reads, guest memory contents (ring packets, IBs, the
 * gpummu page table: all of it is guest RAM the fuzzer writes), and the
 * glue's calls of agpu_run().  The first byte picks the budget setting
 * (agpu_run()'s budget and the hang-limit property) and whether the
 * harness first boots the GPU as a2xx_hw_init() does (MMU on, a 1 Ki-dword
 * ring), so that short inputs reach the command processor.
 *
 * Guest RAM is 128 KiB at 0x40000000; a DMA outside it is a bus error.
 * The page table is its first page, mapping 16 VA pages from 0x01000000 to
 * physical pages in reverse order; the ring is VA page 0.
 *
 * After every operation: agpu_state_valid(), ring pointers within the
 * ring, the IB stack within its depth and each IB position within its IB,
 * hang_work within hang_limit, the interrupt line as set_irq() last saw it
 * equal to MASTER_INT_SIGNAL != 0, and register reads without side
 * effects.  Amplification: per agpu_run() call, packets <= budget + 1 and
 * DMA bytes <= DMA_PER_UNIT * (budget + 1) + DMA_PER_CALL.
 */
#include <string.h>

#include "agpu-core.h"
#include "agpu-regs.h"
#include "fuzz-input.h"

#define MEM_BASE        0x40000000u
#define MEM_SIZE        (128u << 10)
#define PAGE            4096u
#define VA_START        0x01000000u
#define VA_PAGES        16u             /* MH_MMU_VA_RANGE: one region */
#define RING_DWORDS     1024u
#define RB_CNTL         (0x08000000u | 9u)  /* NO_UPDATE, 2 << 9 dwords */

/*
 * Bytes of DMA per budget unit and per call (docs/fuzzing.md): a unit is
 * a packet of up to 64 dwords, read once and possibly written once
 * (MEM_WRITE, REG_TO_MEM), each chunk of 32 dwords (AGPU_CHUNK) costing a
 * 4-byte page-table read; a call also runs one packet past its budget, at
 * most 16 Ki dwords (so 512 chunks each way), and one RPTR write-back.
 * (A bound of one page-table read per page was too tight: the fuzzer
 * found a call of 135168 bytes, a 16 Ki-dword packet read and written.)
 */
#define DMA_PER_UNIT    (2 * 4 * 64 + 2 * 4 * 2)
#define DMA_PER_CALL    (2 * (4 * 16384 + 4 * (16384 / 32)) + 2 * 4 * 64 + 64)

static const uint32_t budgets[] = { 1, 2, 16, 256, 4096 };
static const uint32_t hang_limits[] = {
    AGPU_DEFAULT_HANG_LIMIT, 0, 1, 64, 4096,
};

typedef struct World {
    AGpuCore g;
    uint8_t mem[MEM_SIZE];
    uint32_t budget;
    bool irq;                   /* the line as set_irq() left it */
    bool bus_error;             /* every DMA fails */
    uint64_t dma_bytes;
    uint32_t ring_cur;
} World;

static World w;
static AGpuCore snap;           /* for "reads have no side effects" */

static bool in_ram(uint64_t addr, uint32_t len)
{
    return addr >= MEM_BASE && len <= MEM_SIZE &&
           addr - MEM_BASE <= MEM_SIZE - len;
}

static bool w_dma_read(void *opaque, uint64_t addr, void *buf, uint32_t len)
{
    World *ww = opaque;

    ww->dma_bytes += len;
    if (ww->bus_error || !in_ram(addr, len)) {
        return false;
    }
    memcpy(buf, ww->mem + (addr - MEM_BASE), len);
    return true;
}

static bool w_dma_write(void *opaque, uint64_t addr, const void *buf,
                        uint32_t len)
{
    World *ww = opaque;

    ww->dma_bytes += len;
    if (ww->bus_error || !in_ram(addr, len)) {
        return false;
    }
    memcpy(ww->mem + (addr - MEM_BASE), buf, len);
    return true;
}

static void w_set_irq(void *opaque, bool level)
{
    World *ww = opaque;

    ww->irq = level;
}

static const AGpuOps w_ops = {
    .dma_read = w_dma_read,
    .dma_write = w_dma_write,
    .set_irq = w_set_irq,
};

static void pa_w32(uint32_t pa, uint32_t v)
{
    uint32_t off = (pa - MEM_BASE) % MEM_SIZE & ~3u;

    memcpy(w.mem + off, &v, 4);
}

/* VA page i -> the (31 - i)th physical page: no linear VA->PA mapping */
static uint32_t va_to_pa(uint32_t va)
{
    uint32_t page = (va - VA_START) / PAGE % VA_PAGES;

    return MEM_BASE + (MEM_SIZE / PAGE - 1 - page) * PAGE + (va & (PAGE - 1));
}

static void wr(uint32_t reg, uint32_t v)
{
    agpu_reg_write(&w.g, reg, v);
}

/* a2xx_hw_init(), without the firmware magic unless cfg asks for it */
static void boot(bool fw_magic)
{
    uint32_t i;

    for (i = 0; i < VA_PAGES; i++) {
        pa_w32(MEM_BASE + i * 4, va_to_pa(VA_START + i * PAGE) | 3);
    }
    wr(AGPU_REG_CP_ME_CNTL, AGPU_ME_CNTL_HALT);
    wr(AGPU_REG_RBBM_SOFT_RESET, 0xffffffff);
    wr(AGPU_REG_RBBM_SOFT_RESET, 0);
    wr(AGPU_REG_MH_MMU_MPU_BASE, 0);
    wr(AGPU_REG_MH_MMU_MPU_END, 0xfffff000);
    wr(AGPU_REG_MH_MMU_CONFIG, 0x01555551);
    wr(AGPU_REG_MH_MMU_VA_RANGE, VA_START | 1);
    wr(AGPU_REG_MH_MMU_PT_BASE, MEM_BASE);
    wr(AGPU_REG_RBBM_INT_CNTL, 1);
    wr(AGPU_REG_CP_INT_CNTL, 0xcf800000);
    wr(AGPU_REG_MH_INTERRUPT_MASK, 7);
    wr(AGPU_REG_CP_RB_CNTL, RB_CNTL);
    wr(AGPU_REG_CP_RB_BASE, VA_START);
    wr(AGPU_REG_CP_ME_RAM_WADDR, 0);
    wr(AGPU_REG_CP_ME_RAM_DATA, 0x00200001);
    wr(AGPU_REG_CP_ME_RAM_DATA, fw_magic ? AGPU_FW_MAGIC : 0);
    wr(AGPU_REG_CP_PFP_UCODE_ADDR, 0);
    wr(AGPU_REG_CP_PFP_UCODE_DATA, fw_magic ? AGPU_FW_MAGIC : 0);
    wr(AGPU_REG_CP_ME_CNTL, 0);
}

static void world_init(uint8_t cfg)
{
    memset(&w, 0, sizeof(w));
    agpu_init(&w.g, &w_ops, &w, AGPU_CHIP_ID_A200, AGPU_GMEM_A200);
    w.budget = budgets[(cfg & 7) % 5];
    w.g.hang_limit = hang_limits[((cfg >> 3) & 7) % 5];
    w.g.fw_strict = cfg & 0x40;
    if (!(cfg & 0x80)) {
        boot(!(cfg & 0x40) || (cfg & 0x20));
    }
}

static uint32_t rb_size(void)
{
    uint32_t bufsz = w.g.regs[AGPU_REG_CP_RB_CNTL] & AGPU_RB_CNTL_BUFSZ_MASK;

    return 2u << (bufsz < AGPU_RB_BUFSZ_MAX ? bufsz : AGPU_RB_BUFSZ_MAX);
}

static void check_invariants(void)
{
    uint32_t i;

    FUZZ_CHECK(agpu_state_valid(&w.g));
    FUZZ_CHECK(w.g.rb_rptr < rb_size());
    FUZZ_CHECK(w.g.rb_wptr < rb_size());
    FUZZ_CHECK(agpu_reg_read(&w.g, AGPU_REG_CP_RB_RPTR) == w.g.rb_rptr);
    FUZZ_CHECK(w.g.depth <= AGPU_IB_DEPTH);
    for (i = 0; i < w.g.depth; i++) {
        FUZZ_CHECK(w.g.ib_pos[i] <= w.g.ib_size[i]);
    }
    FUZZ_CHECK(w.g.hang_limit == 0 || w.g.hang_work <= w.g.hang_limit);
    FUZZ_CHECK(!w.g.waiting || agpu_cp_waiting(&w.g) || w.g.hung ||
               (w.g.regs[AGPU_REG_CP_ME_CNTL] & AGPU_ME_CNTL_HALT) ||
               (w.g.regs[AGPU_REG_RBBM_SOFT_RESET] & 1));
    FUZZ_CHECK(w.irq == w.g.irq_level);
    FUZZ_CHECK(w.irq == (agpu_reg_read(&w.g, AGPU_REG_MASTER_INT_SIGNAL) != 0));
}

/* the glue's bottom half: one agpu_run() and what it may have done */
static bool run_once(void)
{
    uint64_t packets = w.g.stat_packets, dma = w.dma_bytes;
    uint32_t rptr = w.g.rb_rptr;
    bool hung = w.g.hung;
    bool more = agpu_run(&w.g, w.budget);

    FUZZ_MEASURE("packets-per-call/(budget+1)",
                 (double)(w.g.stat_packets - packets) / (w.budget + 1));
    FUZZ_MEASURE("dma-bytes-per-call/(budget+1)",
                 (double)(w.dma_bytes - dma) / (w.budget + 1));
    FUZZ_MEASURE("dma-bytes-per-call", w.dma_bytes - dma);
    FUZZ_CHECK(w.g.stat_packets - packets <= (uint64_t)w.budget + 1);
    FUZZ_CHECK(w.dma_bytes - dma <=
               (uint64_t)DMA_PER_UNIT * (w.budget + 1) + DMA_PER_CALL);
    if (hung) {
        /* a hung CP stays put until a soft reset */
        FUZZ_CHECK(!more && w.g.rb_rptr == rptr &&
                   w.g.stat_packets == packets);
    }
    return more;
}

/* registers a driver touches: the fuzzer picks them by one byte */
static const uint16_t regs[] = {
    AGPU_REG_RBBM_SOFT_RESET, AGPU_REG_RBBM_INT_CNTL, AGPU_REG_RBBM_INT_ACK,
    AGPU_REG_MH_MMU_CONFIG, AGPU_REG_MH_MMU_VA_RANGE, AGPU_REG_MH_MMU_PT_BASE,
    AGPU_REG_MH_MMU_PAGE_FAULT, AGPU_REG_MH_MMU_MPU_BASE,
    AGPU_REG_MH_MMU_MPU_END, AGPU_REG_MH_INTERRUPT_MASK,
    AGPU_REG_MH_INTERRUPT_CLEAR, AGPU_REG_CP_PFP_UCODE_ADDR,
    AGPU_REG_CP_PFP_UCODE_DATA, AGPU_REG_CP_RB_BASE, AGPU_REG_CP_RB_CNTL,
    AGPU_REG_CP_RB_RPTR_ADDR, AGPU_REG_CP_RB_WPTR, AGPU_REG_CP_INT_CNTL,
    AGPU_REG_CP_INT_ACK, AGPU_REG_CP_ME_CNTL, AGPU_REG_CP_ME_RAM_WADDR,
    AGPU_REG_CP_ME_RAM_DATA, AGPU_REG_CP_SCRATCH_REG0, AGPU_REG_CP_IB1_BASE,
    AGPU_REG_RBBM_PM_OVERRIDE1, AGPU_REG_SQ_INT_CNTL, AGPU_REG_RBBM_STATUS,
    AGPU_REG_MASTER_INT_SIGNAL, AGPU_REG_CP_RB_RPTR, AGPU_REG_CP_STAT,
    AGPU_REG_MH_AXI_ERROR, AGPU_REG_CP_INT_STATUS,
};

/* dwords of the input to guest memory at pa (page by page, wrapping) */
static void copy_dwords(FuzzIn *in, uint32_t pa, uint32_t n)
{
    uint32_t i;

    for (i = 0; i < n && fuzz_more(in); i++) {
        pa_w32(pa + i * 4, fuzz_u32(in));
    }
}

static void step(FuzzIn *in)
{
    uint8_t op = fuzz_u8(in);
    uint32_t reg, v, n, i, va;

    /* the low nibble picks, the high one is a parameter */
    switch (op & 15) {
    case 0:
        reg = regs[fuzz_u8(in) % (sizeof(regs) / sizeof(regs[0]))];
        wr(reg, fuzz_u32(in));
        break;
    case 1:
        /* any dword index, including outside the window */
        reg = fuzz_u16(in) & (op & 0x10 ? 0xffffu : 0x7fffu);
        wr(reg, fuzz_u32(in));
        break;
    case 2:
        /* reads have no side effects (the driver dumps them on a hang) */
        reg = op & 0x10 ? regs[fuzz_u8(in) % (sizeof(regs) / sizeof(regs[0]))]
                        : (fuzz_u16(in) & 0x7fffu);
        memcpy(&snap, &w.g, sizeof(snap));
        v = agpu_reg_read(&w.g, reg);
        FUZZ_CHECK(agpu_reg_read(&w.g, reg) == v);
        FUZZ_CHECK(memcmp(&snap, &w.g, sizeof(snap)) == 0);
        break;
    case 3:
        /* OUT_RING and flush: packets on the ring */
        n = fuzz_u8(in) % 64;
        for (i = 0; i < n && fuzz_more(in); i++) {
            pa_w32(va_to_pa(VA_START + w.ring_cur * 4), fuzz_u32(in));
            w.ring_cur = (w.ring_cur + 1) % RING_DWORDS;
        }
        wr(AGPU_REG_CP_RB_WPTR, w.ring_cur);
        break;
    case 4:
        /* guest memory anywhere: IBs, the page table, fences */
        reg = MEM_BASE + (uint32_t)fuzz_u16(in) * 4 % MEM_SIZE;
        copy_dwords(in, reg, fuzz_u8(in) % 64);
        break;
    case 5:
        /* an IB in VA page 1..15 and the ring packet that calls it */
        va = VA_START + (1 + (op >> 4) % (VA_PAGES - 1)) * PAGE;
        n = fuzz_u8(in) % 64;
        for (i = 0; i < n && fuzz_more(in); i++) {
            pa_w32(va_to_pa(va + i * 4), fuzz_u32(in));
        }
        v = w.ring_cur;
        pa_w32(va_to_pa(VA_START + v * 4),
               AGPU_PM4_PKT3(AGPU_CP_INDIRECT_BUFFER_PFD, 2));
        pa_w32(va_to_pa(VA_START + (v + 1) % RING_DWORDS * 4), va);
        pa_w32(va_to_pa(VA_START + (v + 2) % RING_DWORDS * 4), i);
        w.ring_cur = (v + 3) % RING_DWORDS;
        wr(AGPU_REG_CP_RB_WPTR, w.ring_cur);
        break;
    case 6:
    case 7:
    case 12:
    case 13:
        run_once();
        break;
    case 8:
        /* the glue's bottom half and poll timer until the CP rests */
        for (i = 0; i < 1u + (op >> 4) * 4 && run_once(); i++) {
            check_invariants();
        }
        break;
    case 9:
        /* a2xx_irq(): acknowledge what is pending */
        wr(AGPU_REG_MH_INTERRUPT_CLEAR,
           agpu_reg_read(&w.g, AGPU_REG_MH_INTERRUPT_STATUS));
        wr(AGPU_REG_CP_INT_ACK, agpu_reg_read(&w.g, AGPU_REG_CP_INT_STATUS));
        wr(AGPU_REG_RBBM_INT_ACK,
           agpu_reg_read(&w.g, AGPU_REG_RBBM_INT_STATUS));
        break;
    case 10:
        /* recovery: soft reset and the ring from the start */
        wr(AGPU_REG_RBBM_SOFT_RESET, 1);
        wr(AGPU_REG_RBBM_SOFT_RESET, 0);
        w.ring_cur = 0;
        if (op & 0x10) {
            agpu_reset(&w.g);
        }
        break;
    case 11:
        w.bus_error = op & 0x10;
        if (op & 0x20) {
            agpu_sync_irq(&w.g);
        }
        break;
    default:
        /* OUT_RING of one dword: a packet header or a payload word */
        pa_w32(va_to_pa(VA_START + w.ring_cur * 4), fuzz_u32(in));
        w.ring_cur = (w.ring_cur + 1) % RING_DWORDS;
        wr(AGPU_REG_CP_RB_WPTR, w.ring_cur);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size, 0 };

    world_init(fuzz_u8(&in));
    check_invariants();
    while (fuzz_more(&in)) {
        step(&in);
        check_invariants();
    }
    return 0;
}
