/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The agpu unit tests' fixture, shared by test-agpu.c and
 * test-agpu-faults.c: the core on a 16 MiB fake guest RAM at 0x40000000
 * with a gpummu page table built the way a2xx_gpummu.c builds it (buffer
 * objects map to physical pages in reverse order, so that any code that
 * assumes a linear VA->PA mapping fails), the interrupt line recorded,
 * and the Linux 6.12 a2xx driver's side of the conversation: hw_init,
 * submit, the IRQ handler.
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef AGPU_FAKE_H
#define AGPU_FAKE_H

#include <glib.h>

#include "agpu-core.h"
#include "agpu-regs.h"

#define MEM_BASE        0x40000000u
#define MEM_SIZE        (16u << 20)
#define PAGE            4096u

#define VA_START        0x01000000u
#define VA_PAGES        (0xfffu * 16)           /* 0xfff * 64 KiB / 4 KiB */
#define VA_END          (VA_START + VA_PAGES * PAGE)
#define PT_BYTES        (VA_PAGES * 4)          /* 262080 */

#define RING_DWORDS     8192u
#define RING_PAGES      (RING_DWORDS * 4 / PAGE)
#define SEQNO_FIRST     0xffffff01u

#define PROT_W          1u
#define PROT_R          2u
#define PROT_RW         3u

/* values a2xx_hw_init() writes */
#define HW_MMU_CONFIG   0x01555551u
#define HW_ARB_CONFIG   0x07c8e590u
#define HW_CP_INT_CNTL  0xcf800000u
#define HW_RB_CNTL      0x0800020cu

typedef struct Fake {
    AGpuCore gpu;
    uint8_t *mem;

    /* recorded interrupt line */
    bool irq;
    uint32_t irq_changes;
    uint32_t irq_rises;
    uint32_t fence_at_rise;

    /* DMA accounting */
    uint64_t dma_calls;
    uint64_t dma_reads;
    uint32_t watch_pa;          /* reads of this dword are counted */
    uint32_t watch_reads;

    uint32_t guest_errors;
    char last_error[256];

    /* kernel side */
    uint32_t pt_pa;
    uint32_t next_pa;
    uint32_t next_va;
    uint32_t memptrs_va;
    uint32_t ring_va;
    uint32_t ring_cur;
    uint32_t seqno;
    uint32_t submits;
} Fake;

/* the PM4 and PFP firmware files, little-endian dwords as loaded */
#define FW_PM4_WORDS    4
#define FW_PFP_WORDS    8

typedef struct Firmware {
    const uint32_t *pm4;
    uint32_t pm4_len;
    const uint32_t *pfp;
    uint32_t pfp_len;
} Firmware;

/* what one run of a2xx_irq() read */
typedef struct IrqResult {
    uint32_t master;
    uint32_t mh;
    uint32_t page_fault;
    uint32_t cp;
    uint32_t rbbm;
} IrqResult;

extern const uint32_t fw_pm4[FW_PM4_WORDS];
extern const uint32_t fw_pfp[FW_PFP_WORDS];
extern const Firmware fw_good;      /* protected mode, the project's magic */
extern const Firmware fw_legacy;    /* PM4 version 0: no protected mode */

/* guest RAM by physical address, and the page table */
uint32_t pa_r32(Fake *f, uint32_t pa);
void pa_w32(Fake *f, uint32_t pa, uint32_t v);
void map_page(Fake *f, uint32_t va, uint32_t pa, uint32_t prot);
void unmap_page(Fake *f, uint32_t va);
uint32_t bo_new(Fake *f, uint32_t npages, uint32_t prot);
uint32_t va_to_pa(Fake *f, uint32_t va);
uint32_t va_r32(Fake *f, uint32_t va);
void va_w32(Fake *f, uint32_t va, uint32_t v);

/* the core with memptrs and the ring mapped; booted: after hw_init */
Fake *fake_new(void);
Fake *fake_booted(void);
void fake_free(Fake *f);

/* MMIO, and the glue's calls of agpu_run() while it asks for more */
void wr(Fake *f, uint32_t reg, uint32_t v);
uint32_t rd(Fake *f, uint32_t reg);
uint32_t kick(Fake *f);

/* the kernel driver */
void out_ring(Fake *f, uint32_t v);
void flush(Fake *f);
bool kernel_idle(Fake *f);
void emit_me_init(Fake *f, bool protect);
bool kernel_hw_init(Fake *f, const Firmware *fw);
uint32_t kernel_submit(Fake *f, uint32_t ib_va, uint32_t ib_dwords);
uint32_t fence(Fake *f);
IrqResult kernel_irq_handler(Fake *f);
IrqResult kernel_irq(Fake *f);
uint32_t ib_new(Fake *f, const uint32_t *dw, uint32_t n);
uint32_t run_ib(Fake *f, const uint32_t *dw, uint32_t n);
void assert_sane_idle(Fake *f);

#endif /* AGPU_FAKE_H */
