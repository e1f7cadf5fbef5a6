/*
 * Adreno-200-like GPU core, free of QEMU: register file, interrupt logic,
 * a PM4 command processor and the a2xx "gpummu" translation.
 *
 * It implements what the Linux 6.12 drm/msm a2xx driver uses (see
 * docs/devices/agpu.md): probe needs no register, hw_init programs the
 * MH/MMU, uploads the PM4/PFP firmware and sends CP_ME_INIT; a submit is
 * IB packets plus a scratch write, a wait-for-idle, a CACHE_FLUSH_TS
 * fence write and a CP_INTERRUPT.
 * README.md lists where the model is simpler than a real a200.
 *
 * Glue contract:
 *  - MMIO accesses are 32 bit; the glue passes the dword index
 *    (byte offset / 4) to agpu_reg_read() / agpu_reg_write().  Reads have
 *    no side effects (the driver dumps every register range on a hang),
 *    unless a fault plan is set (AGpuCore.faults, agpu-faults.h): then
 *    they count the plan's "read" and "rptr" events and may draw from its
 *    generator.
 *  - The CP never runs inside agpu_reg_write().  After a register write
 *    for which agpu_cp_runnable() is true (typically CP_RB_WPTR or
 *    CP_ME_CNTL), schedule a bottom half that calls agpu_run(); while
 *    agpu_run() returns true call it again, from a bottom half when
 *    agpu_cp_waiting() is false and from a ~100 us QEMU_CLOCK_VIRTUAL
 *    timer when it is true (a CP_WAIT_REG_MEM, _EQ or _GTE polls).
 *  - ops->set_irq() is called whenever the level of the single interrupt
 *    line changes; agpu_sync_irq() re-sends the current level.
 *  - dma_write() must make the data visible before the interrupt that
 *    follows it (the driver reads the fence from its IRQ handler).
 *  - The state is plain data (fixed-width fields, fixed-size arrays) so
 *    it can be described with VMState; the only pointers are the links
 *    ops, opaque and faults.  After loading, reject the state unless
 *    agpu_state_valid() is true.
 *  - A fault plan is optional: the glue owns an AGpuFaults, points
 *    AGpuCore.faults at it after agpu_init() and migrates it (a
 *    subsection, only when agpu_faults_in_use(); agpu_faults_valid()).
 *    A slow reset (reset-slow) is polled like a wait, one agpu_run() per
 *    ~100 us; while agpu_faults_resetting(), a register write schedules
 *    the next poll at that interval, not at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AGPU_CORE_H
#define AGPU_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agpu-faults.h"

/*
 * Register window: 128 KiB as on imx53; the highest register the a200
 * driver touches is 0x4908 (a200_registers[] dump), byte 0x12420.
 */
#define AGPU_MMIO_SIZE          0x20000
#define AGPU_NUM_REGS           (AGPU_MMIO_SIZE / 4)

#define AGPU_CHIP_ID_A200       0x02000000u
#define AGPU_GMEM_A200          (256 * 1024)

/* IB levels below the ring: RB -> IB1 -> IB2 */
#define AGPU_IB_DEPTH           2

/* firmware words kept (the rest is only counted and checksummed) */
#define AGPU_FW_KEEP            8
/* "QADR": ME RAM word 1 and PFP word 0 of the project's firmware */
#define AGPU_FW_MAGIC           0x52444151u

/*
 * Packets the CP may execute below one ring packet (i.e. inside the IBs
 * it calls) before it gives up and hangs; bounds the work of a looping
 * IB tree.  A field of AGpuCore so a property can change it.
 */
#define AGPU_DEFAULT_HANG_LIMIT (1u << 20)

/* the largest ring: BUFSZ is clamped to this (2 << 22 dwords, 32 MiB) */
#define AGPU_RB_BUFSZ_MAX       22

typedef struct AGpuOps {
    /* guest-physical DMA; return false on a bus error */
    bool (*dma_read)(void *opaque, uint64_t addr, void *buf, uint32_t len);
    bool (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                      uint32_t len);
    /* the level of the single GPU interrupt line */
    void (*set_irq)(void *opaque, bool level);
    /* optional (may be NULL): a guest error worth a LOG_GUEST_ERROR */
    void (*guest_error)(void *opaque, const char *msg);
} AGpuOps;

typedef struct AGpuCore {
    /* links, set by agpu_init(); not migrated */
    const AGpuOps *ops;
    void *opaque;
    /*
     * The fault plan the hooks consult (agpu-faults.h), or NULL for none.
     * Optional; set after agpu_init(), not migrated here: the glue owns
     * and migrates the plan.
     */
    AGpuFaults *faults;

    /* configuration (properties), set by agpu_init() or the glue */
    uint32_t chip_id;
    uint32_t gmem_size;
    uint32_t hang_limit;        /* see AGPU_DEFAULT_HANG_LIMIT; 0 = never */
    uint8_t fw_strict;          /* ME stays halted without the fw magic */

    /* the interrupt line as last sent to set_irq() */
    uint8_t irq_level;

    /*
     * Register file, indexed by dword.  Registers with behaviour keep
     * their stored value here too (masks, status, ...); computed ones
     * (RPTR, RBBM_STATUS, MASTER_INT_SIGNAL, IDs) are derived on read.
     */
    uint32_t regs[AGPU_NUM_REGS];

    /* ring: dword indices, always < the ring size */
    uint32_t rb_rptr;
    uint32_t rb_wptr;

    /*
     * IB stack.  depth 0 = executing the ring, n = executing IBn.
     * Entry i describes IB level i + 1; ib_ret[i] is the length of the
     * IB packet in the caller, consumed when the IB returns.
     */
    uint32_t depth;
    uint32_t ib_base[AGPU_IB_DEPTH];    /* GPU VA */
    uint32_t ib_size[AGPU_IB_DEPTH];    /* dwords */
    uint32_t ib_pos[AGPU_IB_DEPTH];     /* dword offset of the next packet */
    uint32_t ib_ret[AGPU_IB_DEPTH];

    /*
     * CP_WAIT_REG_MEM/_EQ/_GTE in progress: re-evaluated per run.
     * wait_ctrl is CP_WAIT_REG_MEM's dword 0 (function, signed, memory)
     * plus AGPU_WAIT_UNMASKED_REF for _EQ/_GTE.
     */
    uint8_t waiting;
    uint32_t wait_len;          /* packet length to consume when done */
    uint32_t wait_ctrl;
    uint32_t wait_addr;
    uint32_t wait_ref;
    uint32_t wait_mask;

    uint8_t protected_mode;     /* CP_SET_PROTECTED_MODE from the ring */
    uint8_t hung;               /* CP gave up; only a reset clears it */
    uint32_t hang_work;         /* packets since the ring packet started */
    uint32_t cp_gen;            /* bumped by every CP reset */

    /* firmware uploads (CP_ME_RAM_* and CP_PFP_UCODE_*) */
    uint32_t me_addr;           /* write position */
    uint32_t me_count;          /* words written since the last WADDR */
    uint32_t me_csum;           /* FNV-1a over those words */
    uint32_t me_ram[AGPU_FW_KEEP];
    uint32_t pfp_addr;
    uint32_t pfp_count;
    uint32_t pfp_csum;
    uint32_t pfp_ram[AGPU_FW_KEEP];

    /* counters, for tracing and tests */
    uint64_t stat_packets;      /* packets decoded */
    uint64_t stat_ibs;          /* IBs entered */
    uint32_t stat_mmu_faults;
    uint32_t stat_bus_errors;
    uint32_t stat_opcode_errors;
    uint32_t stat_ib_errors;
    uint32_t stat_protect_errors;
    uint32_t stat_wptr_errors;
    uint32_t stat_unimplemented;
    uint32_t stat_hangs;
} AGpuCore;

void agpu_init(AGpuCore *g, const AGpuOps *ops, void *opaque,
               uint32_t chip_id, uint32_t gmem_size);
/* power-on values; lowers the interrupt line */
void agpu_reset(AGpuCore *g);

/*
 * reg = dword index; indices outside the window read 0 / are ignored.
 * agpu_reg_read() is the guest's read: a fault plan may change the value
 * it returns (rptr-jump, stale-read).
 */
uint32_t agpu_reg_read(AGpuCore *g, uint32_t reg);
/* the register's name (dword index reg), or "unknown" */
const char *agpu_regname(uint32_t reg);
void agpu_reg_write(AGpuCore *g, uint32_t reg, uint32_t value);

/*
 * Run the CP for at most `budget` packets (a long packet counts one per
 * 64 dwords).  Returns true if it should be called again soon: more
 * ring/IB work, a CP_WAIT_REG_* pending, or a slow reset (reset-slow)
 * in progress, which each call brings one poll nearer its end.  Returns
 * false when idle, halted, hung, or waiting for the rest of a packet
 * beyond CP_RB_WPTR.
 */
bool agpu_run(AGpuCore *g, uint32_t budget);

/* agpu_run() could make progress now (schedule it after MMIO writes) */
bool agpu_cp_runnable(const AGpuCore *g);
/*
 * the CP is stalled in CP_WAIT_REG_MEM/_EQ/_GTE, or held in a slow reset
 * (reset-slow): poll from a timer
 */
bool agpu_cp_waiting(const AGpuCore *g);
/* the CP has work in flight, is stalled, hung or in a slow reset */
bool agpu_cp_busy(const AGpuCore *g);
/* the firmware images carry the project's magic */
bool agpu_fw_valid(const AGpuCore *g);

/* re-send the interrupt level (e.g. after migration) */
void agpu_sync_irq(AGpuCore *g);

/* for VMState post_load: indices within bounds */
bool agpu_state_valid(const AGpuCore *g);

#endif
