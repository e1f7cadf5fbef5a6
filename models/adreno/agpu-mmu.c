/*
 * Adreno-200-like GPU core: the a2xx "gpummu".
 *
 * One flat table of 32-bit PTEs at MH_MMU_PT_BASE covers the VA window
 * MH_MMU_VA_RANGE (base in bits 31:12, size in 64 KiB regions in bits
 * 11:0).  A PTE is (physical page | bit1 read | bit0 write); 0 is
 * unmapped (a2xx_gpummu.c).  Nothing is cached: the driver rewrites the
 * table on every map/unmap, so every access walks it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "agpu-int.h"

#define AGPU_PAGE_SIZE  4096u
#define AGPU_PAGE_MASK  (AGPU_PAGE_SIZE - 1)

/* bytes converted per step by agpu_mem_write32() */
#define AGPU_XFER_DWORDS 32

static uint32_t agpu_ldl_le(const uint8_t *b)
{
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) |
           ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static void agpu_stl_le(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

/* latch and raise a page fault (a fault plan's has no guest error) */
static void agpu_mmu_fault_raise(AGpuCore *g, uint64_t va, bool write)
{
    g->stat_mmu_faults++;
    /* the first fault stays latched until MH_INTERRUPT_CLEAR */
    if (!(g->regs[AGPU_REG_MH_INTERRUPT_STATUS] &
          AGPU_MH_INT_MMU_PAGE_FAULT)) {
        g->regs[AGPU_REG_MH_MMU_PAGE_FAULT] =
            ((uint32_t)va & ~AGPU_PAGE_MASK) |
            (write ? AGPU_PAGE_FAULT_WRITE : 0) | AGPU_PAGE_FAULT_VALID;
    }
    agpu_raise_mh(g, AGPU_MH_INT_MMU_PAGE_FAULT);
}

static void agpu_mmu_fault(AGpuCore *g, uint64_t va, bool write)
{
    agpu_guest_error(g, "agpu: gpummu page fault, %s VA 0x%08" PRIx64,
                     write ? "write" : "read", va);
    agpu_mmu_fault_raise(g, va, write);
}

static void agpu_bus_error(AGpuCore *g, uint64_t pa, bool write)
{
    g->stat_bus_errors++;
    agpu_guest_error(g, "agpu: DMA bus error, %s PA 0x%08" PRIx64,
                     write ? "write" : "read", pa);
    g->regs[AGPU_REG_MH_AXI_ERROR] = (uint32_t)pa;
    agpu_raise_mh(g, write ? AGPU_MH_INT_AXI_WRITE_ERROR :
                             AGPU_MH_INT_AXI_READ_ERROR);
}

/*
 * Translate [va, va + len), which must not cross a page.  With the MMU
 * off, addresses are physical and bounded by MH_MMU_MPU_BASE/END.
 */
static bool agpu_translate(AGpuCore *g, uint64_t va, uint32_t len,
                           bool write, uint64_t *pa)
{
    uint32_t range = g->regs[AGPU_REG_MH_MMU_VA_RANGE];
    uint64_t base = range & AGPU_MMU_VA_RANGE_BASE_MASK;
    uint64_t size = (uint64_t)(range & AGPU_MMU_VA_RANGE_REGIONS_MASK) << 16;
    uint64_t pte_addr;
    uint8_t b[4];
    uint32_t pte;

    if (!(g->regs[AGPU_REG_MH_MMU_CONFIG] & AGPU_MMU_CONFIG_ENABLE)) {
        if (va < g->regs[AGPU_REG_MH_MMU_MPU_BASE] ||
            va + len > g->regs[AGPU_REG_MH_MMU_MPU_END]) {
            agpu_mmu_fault(g, va, write);
            return false;
        }
        *pa = va;
        return true;
    }

    if (va < base || va - base >= size) {
        agpu_mmu_fault(g, va, write);
        return false;
    }
    pte_addr = (uint64_t)g->regs[AGPU_REG_MH_MMU_PT_BASE] +
               ((va - base) >> 12) * 4;
    if (!g->ops->dma_read(g->opaque, pte_addr, b, sizeof(b))) {
        agpu_bus_error(g, pte_addr, false);
        return false;
    }
    pte = agpu_ldl_le(b);
    if (!(pte & (write ? AGPU_PTE_WRITE : AGPU_PTE_READ))) {
        agpu_mmu_fault(g, va, write);
        return false;
    }
    /* mmu-fault: the walk of a mapped page fails all the same */
    if (agpu_faults_mmu(g->faults)) {
        agpu_mmu_fault_raise(g, va, write);
        return false;
    }
    *pa = (pte & AGPU_PTE_ADDR_MASK) | (va & AGPU_PAGE_MASK);
    return true;
}

/* both directions: walk the range page by page, translate and DMA */
static bool agpu_mem_access(AGpuCore *g, uint64_t va, uint8_t *p,
                            uint32_t len, bool write)
{
    while (len) {
        uint32_t chunk = AGPU_PAGE_SIZE - (va & AGPU_PAGE_MASK);
        uint64_t pa;
        bool ok;

        if (chunk > len) {
            chunk = len;
        }
        if (!agpu_translate(g, va, chunk, write, &pa)) {
            return false;
        }
        ok = write ? g->ops->dma_write(g->opaque, pa, p, chunk)
                   : g->ops->dma_read(g->opaque, pa, p, chunk);
        if (!ok) {
            agpu_bus_error(g, pa, write);
            return false;
        }
        p += chunk;
        va += chunk;
        len -= chunk;
    }
    return true;
}

bool agpu_mem_read(AGpuCore *g, uint64_t va, void *buf, uint32_t len)
{
    return agpu_mem_access(g, va, buf, len, false);
}

bool agpu_mem_write(AGpuCore *g, uint64_t va, const void *buf, uint32_t len)
{
    /* the buffer is only read from on this path */
    return agpu_mem_access(g, va, (uint8_t *)buf, len, true);
}

bool agpu_mem_read32(AGpuCore *g, uint64_t va, uint32_t *out, uint32_t n)
{
    uint32_t i;

    if (n > UINT32_MAX / 4 || !agpu_mem_read(g, va, out, n * 4)) {
        return false;
    }
    for (i = 0; i < n; i++) {
        uint8_t b[4];

        memcpy(b, &out[i], sizeof(b));
        out[i] = agpu_ldl_le(b);
    }
    return true;
}

bool agpu_mem_write32(AGpuCore *g, uint64_t va, const uint32_t *in,
                      uint32_t n)
{
    uint8_t b[AGPU_XFER_DWORDS * 4];

    while (n) {
        uint32_t k = n < AGPU_XFER_DWORDS ? n : AGPU_XFER_DWORDS;
        uint32_t i;

        for (i = 0; i < k; i++) {
            agpu_stl_le(&b[i * 4], in[i]);
        }
        if (!agpu_mem_write(g, va, b, k * 4)) {
            return false;
        }
        va += (uint64_t)k * 4;
        in += k;
        n -= k;
    }
    return true;
}
