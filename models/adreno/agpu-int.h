/*
 * Adreno-200-like GPU core: declarations shared by agpu-core.c,
 * agpu-cp.c and agpu-mmu.c.  Not part of the glue API.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AGPU_INT_H
#define AGPU_INT_H

#include "agpu-core.h"
#include "agpu-regs.h"

/* agpu-core.c */
/* a register's value as the GPU sees it: no fault plan, no side effect */
uint32_t agpu_reg_value(const AGpuCore *g, uint32_t reg);
void agpu_update_irq(AGpuCore *g);
void agpu_raise_cp(AGpuCore *g, uint32_t bits);
void agpu_raise_mh(AGpuCore *g, uint32_t bits);
/* a guest error for ops->guest_error(), printf-style */
void agpu_guest_error(AGpuCore *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* agpu-cp.c */
uint32_t agpu_rb_size(const AGpuCore *g);
void agpu_cp_reset(AGpuCore *g, bool clear_status);
void agpu_cp_fix_ring(AGpuCore *g);

/*
 * agpu-mmu.c: CP memory accesses through the gpummu.  On failure the
 * MH interrupt is raised (page fault or AXI error) and false returned;
 * part of a write that crosses into a bad page may have happened.
 */
bool agpu_mem_read(AGpuCore *g, uint64_t va, void *buf, uint32_t len);
bool agpu_mem_write(AGpuCore *g, uint64_t va, const void *buf,
                    uint32_t len);
/* the same for little-endian dwords, converted to/from host order */
bool agpu_mem_read32(AGpuCore *g, uint64_t va, uint32_t *out, uint32_t n);
bool agpu_mem_write32(AGpuCore *g, uint64_t va, const uint32_t *in,
                      uint32_t n);

#endif
