/*
 * Adreno-200-like GPU core: register file and interrupt logic.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agpu-int.h"

#define AGPU_FNV_BASIS  0x811c9dc5u
#define AGPU_FNV_PRIME  0x01000193u

#define AGPU_REGNAME(r) { AGPU_REG_##r, #r }

/* names of the registers the core knows, for traces and guest errors */
static const struct {
    uint32_t reg;
    const char *name;
} agpu_regnames[] = {
    AGPU_REGNAME(RBBM_PATCH_RELEASE),
    AGPU_REGNAME(RBBM_CNTL),
    AGPU_REGNAME(RBBM_SOFT_RESET),
    AGPU_REGNAME(RBBM_DEBUG),
    AGPU_REGNAME(RBBM_PM_OVERRIDE1),
    AGPU_REGNAME(RBBM_PM_OVERRIDE2),
    AGPU_REGNAME(RBBM_READ_ERROR),
    AGPU_REGNAME(RBBM_INT_CNTL),
    AGPU_REGNAME(RBBM_INT_STATUS),
    AGPU_REGNAME(RBBM_INT_ACK),
    AGPU_REGNAME(MASTER_INT_SIGNAL),
    AGPU_REGNAME(RBBM_PERIPHID1),
    AGPU_REGNAME(RBBM_PERIPHID2),
    AGPU_REGNAME(RBBM_STATUS),
    AGPU_REGNAME(MH_MMU_CONFIG),
    AGPU_REGNAME(MH_MMU_VA_RANGE),
    AGPU_REGNAME(MH_MMU_PT_BASE),
    AGPU_REGNAME(MH_MMU_PAGE_FAULT),
    AGPU_REGNAME(MH_MMU_TRAN_ERROR),
    AGPU_REGNAME(MH_MMU_INVALIDATE),
    AGPU_REGNAME(MH_MMU_MPU_BASE),
    AGPU_REGNAME(MH_MMU_MPU_END),
    AGPU_REGNAME(MH_ARBITER_CONFIG),
    AGPU_REGNAME(MH_INTERRUPT_MASK),
    AGPU_REGNAME(MH_INTERRUPT_STATUS),
    AGPU_REGNAME(MH_INTERRUPT_CLEAR),
    AGPU_REGNAME(MH_AXI_ERROR),
    AGPU_REGNAME(MH_CLNT_INTF_CTRL_CONFIG1),
    AGPU_REGNAME(CP_PFP_UCODE_ADDR),
    AGPU_REGNAME(CP_PFP_UCODE_DATA),
    AGPU_REGNAME(CP_RB_BASE),
    AGPU_REGNAME(CP_RB_CNTL),
    AGPU_REGNAME(CP_RB_RPTR_ADDR),
    AGPU_REGNAME(CP_RB_RPTR),
    AGPU_REGNAME(CP_RB_WPTR),
    AGPU_REGNAME(CP_QUEUE_THRESHOLDS),
    AGPU_REGNAME(SCRATCH_UMSK),
    AGPU_REGNAME(SCRATCH_ADDR),
    AGPU_REGNAME(CP_INT_CNTL),
    AGPU_REGNAME(CP_INT_STATUS),
    AGPU_REGNAME(CP_INT_ACK),
    AGPU_REGNAME(CP_ME_CNTL),
    AGPU_REGNAME(CP_ME_STATUS),
    AGPU_REGNAME(CP_ME_RAM_WADDR),
    AGPU_REGNAME(CP_ME_RAM_RADDR),
    AGPU_REGNAME(CP_ME_RAM_DATA),
    AGPU_REGNAME(CP_DEBUG),
    AGPU_REGNAME(CP_IB1_BASE),
    AGPU_REGNAME(CP_IB1_BUFSZ),
    AGPU_REGNAME(CP_IB2_BASE),
    AGPU_REGNAME(CP_IB2_BUFSZ),
    AGPU_REGNAME(CP_STAT),
    AGPU_REGNAME(SQ_FLOW_CONTROL),
    AGPU_REGNAME(SQ_INT_CNTL),
    AGPU_REGNAME(SQ_INT_STATUS),
    AGPU_REGNAME(SQ_INT_ACK),
    AGPU_REGNAME(RB_EDRAM_INFO),
};

const char *agpu_regname(uint32_t reg)
{
    static const char *const scratch[] = {
        "CP_SCRATCH_REG0", "CP_SCRATCH_REG1", "CP_SCRATCH_REG2",
        "CP_SCRATCH_REG3", "CP_SCRATCH_REG4", "CP_SCRATCH_REG5",
        "CP_SCRATCH_REG6", "CP_SCRATCH_REG7",
    };
    size_t i;

    if (reg >= AGPU_REG_CP_SCRATCH_REG0 && reg <= AGPU_REG_CP_SCRATCH_REG7) {
        return scratch[reg - AGPU_REG_CP_SCRATCH_REG0];
    }
    for (i = 0; i < sizeof(agpu_regnames) / sizeof(agpu_regnames[0]); i++) {
        if (agpu_regnames[i].reg == reg) {
            return agpu_regnames[i].name;
        }
    }
    return "unknown";
}

void agpu_guest_error(AGpuCore *g, const char *fmt, ...)
{
    char msg[200];
    va_list ap;

    if (!g->ops || !g->ops->guest_error) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    g->ops->guest_error(g->opaque, msg);
}

/* MASTER_INT_SIGNAL: one bit per block with an enabled, pending cause */
static uint32_t agpu_master_int(const AGpuCore *g)
{
    uint32_t m = 0;

    if (g->regs[AGPU_REG_MH_INTERRUPT_STATUS] &
        g->regs[AGPU_REG_MH_INTERRUPT_MASK]) {
        m |= AGPU_MASTER_MH_INT;
    }
    if (g->regs[AGPU_REG_CP_INT_STATUS] & g->regs[AGPU_REG_CP_INT_CNTL]) {
        m |= AGPU_MASTER_CP_INT;
    }
    if (g->regs[AGPU_REG_RBBM_INT_STATUS] &
        g->regs[AGPU_REG_RBBM_INT_CNTL]) {
        m |= AGPU_MASTER_RBBM_INT;
    }
    /* SQ (bit 26) is never raised: the driver would never acknowledge it */
    return m;
}

/* the line rises: a fault plan may add status bits nothing caused */
static void agpu_irq_rises(AGpuCore *g)
{
    AGpuIrqBits enabled = {
        .cp = g->regs[AGPU_REG_CP_INT_CNTL],
        .mh = g->regs[AGPU_REG_MH_INTERRUPT_MASK],
        .rbbm = g->regs[AGPU_REG_RBBM_INT_CNTL],
    };
    AGpuIrqBits extra = agpu_faults_irq(g->faults, enabled);

    g->regs[AGPU_REG_CP_INT_STATUS] |= extra.cp & enabled.cp;
    g->regs[AGPU_REG_MH_INTERRUPT_STATUS] |= extra.mh & enabled.mh;
    g->regs[AGPU_REG_RBBM_INT_STATUS] |= extra.rbbm & enabled.rbbm;
}

void agpu_update_irq(AGpuCore *g)
{
    uint8_t level = agpu_master_int(g) != 0;

    if (level && !g->irq_level) {
        agpu_irq_rises(g);
    }
    if (level != g->irq_level) {
        g->irq_level = level;
        if (g->ops && g->ops->set_irq) {
            g->ops->set_irq(g->opaque, level);
        }
    }
}

void agpu_sync_irq(AGpuCore *g)
{
    g->irq_level = agpu_master_int(g) != 0;
    if (g->ops && g->ops->set_irq) {
        g->ops->set_irq(g->opaque, g->irq_level);
    }
}

/* Status bits only latch while enabled, so a masked cause never fires. */
void agpu_raise_cp(AGpuCore *g, uint32_t bits)
{
    g->regs[AGPU_REG_CP_INT_STATUS] |= bits & g->regs[AGPU_REG_CP_INT_CNTL];
    agpu_update_irq(g);
}

void agpu_raise_mh(AGpuCore *g, uint32_t bits)
{
    g->regs[AGPU_REG_MH_INTERRUPT_STATUS] |=
        bits & g->regs[AGPU_REG_MH_INTERRUPT_MASK];
    agpu_update_irq(g);
}

bool agpu_fw_valid(const AGpuCore *g)
{
    return g->me_count >= 2 && g->me_ram[1] == AGPU_FW_MAGIC &&
           g->pfp_count >= 1 && g->pfp_ram[0] == AGPU_FW_MAGIC;
}

/* CP_ME_RAM_WADDR / CP_PFP_UCODE_ADDR: start an upload at addr */
static void agpu_fw_begin(uint32_t *addr, uint32_t *count, uint32_t *csum,
                          uint32_t value)
{
    *addr = value;
    *count = 0;
    *csum = AGPU_FNV_BASIS;
}

static void agpu_fw_word(uint32_t *addr, uint32_t *count, uint32_t *csum,
                         uint32_t *ram, uint32_t value)
{
    if (*addr < AGPU_FW_KEEP) {
        ram[*addr] = value;
    }
    if (*addr != UINT32_MAX) {
        (*addr)++;
    }
    if (*count != UINT32_MAX) {
        (*count)++;
    }
    *csum = (*csum ^ value) * AGPU_FNV_PRIME;
}

static uint32_t agpu_edram_info(uint32_t gmem_size)
{
    uint32_t i;

    /* RB_EDRAM_INFO: GMEM = 16 KiB << i, as a2xx_hw_init() computes it */
    for (i = 3; i <= 5; i++) {
        if ((16384u << i) == gmem_size) {
            break;
        }
    }
    return i;
}

void agpu_reset(AGpuCore *g)
{
    memset(g->regs, 0, sizeof(g->regs));
    g->regs[AGPU_REG_CP_ME_CNTL] = AGPU_ME_CNTL_HALT;
    g->regs[AGPU_REG_RB_EDRAM_INFO] = agpu_edram_info(g->gmem_size);

    g->rb_rptr = 0;
    g->rb_wptr = 0;
    g->depth = 0;
    memset(g->ib_base, 0, sizeof(g->ib_base));
    memset(g->ib_size, 0, sizeof(g->ib_size));
    memset(g->ib_pos, 0, sizeof(g->ib_pos));
    memset(g->ib_ret, 0, sizeof(g->ib_ret));
    g->waiting = 0;
    g->wait_len = 0;
    g->wait_ctrl = 0;
    g->wait_addr = 0;
    g->wait_ref = 0;
    g->wait_mask = 0;
    g->protected_mode = 0;
    g->hung = 0;
    g->hang_work = 0;
    g->cp_gen++;

    g->me_addr = 0;
    g->me_count = 0;
    g->me_csum = AGPU_FNV_BASIS;
    memset(g->me_ram, 0, sizeof(g->me_ram));
    g->pfp_addr = 0;
    g->pfp_count = 0;
    g->pfp_csum = AGPU_FNV_BASIS;
    memset(g->pfp_ram, 0, sizeof(g->pfp_ram));

    g->stat_packets = 0;
    g->stat_ibs = 0;
    g->stat_mmu_faults = 0;
    g->stat_bus_errors = 0;
    g->stat_opcode_errors = 0;
    g->stat_ib_errors = 0;
    g->stat_protect_errors = 0;
    g->stat_wptr_errors = 0;
    g->stat_unimplemented = 0;
    g->stat_hangs = 0;

    agpu_faults_power_on(g->faults);
    agpu_sync_irq(g);
}

void agpu_init(AGpuCore *g, const AGpuOps *ops, void *opaque,
               uint32_t chip_id, uint32_t gmem_size)
{
    memset(g, 0, sizeof(*g));
    g->ops = ops;
    g->opaque = opaque;
    g->chip_id = chip_id;
    g->gmem_size = gmem_size;
    g->hang_limit = AGPU_DEFAULT_HANG_LIMIT;
    g->irq_level = 0;
    agpu_reset(g);
}

uint32_t agpu_reg_value(const AGpuCore *g, uint32_t reg)
{
    uint32_t chip = g->chip_id;

    if (reg >= AGPU_NUM_REGS) {
        return 0;
    }
    switch (reg) {
    /* chip id as KGSL's a2xx_getchipid() decodes it */
    case AGPU_REG_RBBM_PERIPHID1:
        return (chip >> 24) & 0xf;
    case AGPU_REG_RBBM_PERIPHID2:
        return ((chip >> 16) & 0xf) << 4;
    case AGPU_REG_RBBM_PATCH_RELEASE:
        return ((chip >> 8) & 0xff) | ((chip & 0xff) << 16);
    case AGPU_REG_RBBM_STATUS:
        return AGPU_RBBM_STATUS_CMDFIFO_AVAIL |
               (agpu_cp_busy(g) ? AGPU_RBBM_STATUS_GUI_ACTIVE : 0);
    case AGPU_REG_MASTER_INT_SIGNAL:
        return agpu_master_int(g);
    case AGPU_REG_CP_RB_RPTR:
        return g->rb_rptr;
    case AGPU_REG_CP_RB_WPTR:
        return g->rb_wptr;
    case AGPU_REG_CP_ME_CNTL:
        return g->regs[reg] | (agpu_cp_busy(g) ? AGPU_ME_CNTL_BUSY : 0);
    case AGPU_REG_CP_STAT:
        return agpu_cp_busy(g) ? AGPU_CP_STAT_CP_BUSY : 0;
    case AGPU_REG_CP_ME_RAM_DATA:
        /* read back through RADDR, without auto-increment */
        if (g->regs[AGPU_REG_CP_ME_RAM_RADDR] < AGPU_FW_KEEP) {
            return g->me_ram[g->regs[AGPU_REG_CP_ME_RAM_RADDR]];
        }
        return 0;
    /* write-only: acks and upload ports */
    case AGPU_REG_CP_INT_ACK:
    case AGPU_REG_RBBM_INT_ACK:
    case AGPU_REG_MH_INTERRUPT_CLEAR:
    case AGPU_REG_SQ_INT_ACK:
    case AGPU_REG_SQ_INT_STATUS:
    case AGPU_REG_CP_PFP_UCODE_DATA:
        return 0;
    default:
        return g->regs[reg];
    }
}

uint32_t agpu_reg_read(AGpuCore *g, uint32_t reg)
{
    if (reg >= AGPU_NUM_REGS) {
        return 0;
    }
    return agpu_faults_read(g->faults, reg, agpu_reg_value(g, reg),
                            agpu_rb_size(g));
}

static void agpu_write_wptr(AGpuCore *g, uint32_t value)
{
    uint32_t size = agpu_rb_size(g);
    uint32_t from = g->rb_wptr;

    if (value >= size) {
        /* the kernel always masks (adreno_flush()); flag, then wrap */
        g->stat_wptr_errors++;
        agpu_guest_error(g, "agpu: CP_RB_WPTR 0x%x beyond the ring size "
                         "(%u dwords)", value, size);
        agpu_raise_cp(g, AGPU_CP_INT_RESERVED_BIT_ERROR);
        value &= size - 1;
    }
    g->rb_wptr = value;
    g->regs[AGPU_REG_CP_RB_WPTR] = value;
    if (value != from) {
        agpu_faults_submit(g->faults, from);
    }
}

/*
 * An ack of @value in @status_reg, whose causes latch only while enabled
 * in @mask_reg.  With irq-storm the bits just cleared latch again: the
 * line drops and rises again at once.
 */
static void agpu_ack(AGpuCore *g, uint32_t status_reg, uint32_t mask_reg,
                     uint32_t value)
{
    uint32_t cleared = g->regs[status_reg] & value;
    uint32_t again;

    g->regs[status_reg] &= ~value;
    agpu_update_irq(g);
    if (!cleared) {
        return;
    }
    again = agpu_faults_ack(g->faults, cleared) & g->regs[mask_reg];
    if (again) {
        g->regs[status_reg] |= again;
        agpu_update_irq(g);
    }
}

void agpu_reg_write(AGpuCore *g, uint32_t reg, uint32_t value)
{
    if (reg >= AGPU_NUM_REGS) {
        return;
    }
    /* stale-read: what a read overtaking this write would still see */
    if (agpu_faults_active(g->faults)) {
        agpu_faults_write(g->faults, reg, agpu_reg_value(g, reg));
    }
    switch (reg) {
    case AGPU_REG_RBBM_SOFT_RESET:
        g->regs[reg] = value;
        if (value & AGPU_SOFT_RESET_CP) {
            agpu_cp_reset(g, true);
            agpu_faults_soft_reset(g->faults);
        }
        break;
    case AGPU_REG_CP_ME_CNTL:
        value &= ~AGPU_ME_CNTL_BUSY;
        if (!(value & AGPU_ME_CNTL_HALT) && g->fw_strict &&
            !agpu_fw_valid(g)) {
            agpu_guest_error(g, "agpu: CP_ME_CNTL 0x%08x: no valid firmware, "
                             "ME stays halted", value);
            value |= AGPU_ME_CNTL_HALT;
        }
        g->regs[reg] = value;
        break;
    case AGPU_REG_CP_RB_BASE:
        g->regs[reg] = value;
        agpu_cp_reset(g, false);
        break;
    case AGPU_REG_CP_RB_CNTL:
        g->regs[reg] = value;
        agpu_cp_fix_ring(g);
        break;
    case AGPU_REG_CP_RB_WPTR:
        agpu_write_wptr(g, value);
        break;
    case AGPU_REG_CP_INT_CNTL:
    case AGPU_REG_RBBM_INT_CNTL:
    case AGPU_REG_MH_INTERRUPT_MASK:
        g->regs[reg] = value;
        agpu_update_irq(g);
        break;
    case AGPU_REG_CP_INT_ACK:
        agpu_ack(g, AGPU_REG_CP_INT_STATUS, AGPU_REG_CP_INT_CNTL, value);
        break;
    case AGPU_REG_RBBM_INT_ACK:
        agpu_ack(g, AGPU_REG_RBBM_INT_STATUS, AGPU_REG_RBBM_INT_CNTL, value);
        break;
    case AGPU_REG_MH_INTERRUPT_CLEAR:
        agpu_ack(g, AGPU_REG_MH_INTERRUPT_STATUS, AGPU_REG_MH_INTERRUPT_MASK,
                 value);
        break;
    case AGPU_REG_CP_ME_RAM_WADDR:
        g->regs[reg] = value;
        agpu_fw_begin(&g->me_addr, &g->me_count, &g->me_csum, value);
        break;
    case AGPU_REG_CP_ME_RAM_DATA:
        agpu_fw_word(&g->me_addr, &g->me_count, &g->me_csum, g->me_ram,
                     value);
        break;
    case AGPU_REG_CP_PFP_UCODE_ADDR:
        g->regs[reg] = value;
        agpu_fw_begin(&g->pfp_addr, &g->pfp_count, &g->pfp_csum, value);
        break;
    case AGPU_REG_CP_PFP_UCODE_DATA:
        agpu_fw_word(&g->pfp_addr, &g->pfp_count, &g->pfp_csum, g->pfp_ram,
                     value);
        break;
    /* read-only or computed */
    case AGPU_REG_RBBM_PATCH_RELEASE:
    case AGPU_REG_RBBM_PERIPHID1:
    case AGPU_REG_RBBM_PERIPHID2:
    case AGPU_REG_RBBM_STATUS:
    case AGPU_REG_RBBM_INT_STATUS:
    case AGPU_REG_MASTER_INT_SIGNAL:
    case AGPU_REG_MH_INTERRUPT_STATUS:
    case AGPU_REG_MH_MMU_PAGE_FAULT:
    case AGPU_REG_MH_AXI_ERROR:
    case AGPU_REG_CP_RB_RPTR:
    case AGPU_REG_CP_INT_STATUS:
    case AGPU_REG_CP_STAT:
    case AGPU_REG_CP_IB1_BASE:
    case AGPU_REG_CP_IB1_BUFSZ:
    case AGPU_REG_CP_IB2_BASE:
    case AGPU_REG_CP_IB2_BUFSZ:
    case AGPU_REG_SQ_INT_STATUS:
    case AGPU_REG_SQ_INT_ACK:
        break;
    default:
        /* plain storage, including MH_MMU_INVALIDATE: no TLB is kept */
        g->regs[reg] = value;
        break;
    }
}

bool agpu_state_valid(const AGpuCore *g)
{
    uint32_t size = agpu_rb_size(g);
    uint32_t i;

    if (g->depth > AGPU_IB_DEPTH || g->irq_level > 1) {
        return false;
    }
    if (g->rb_rptr >= size || g->rb_wptr >= size) {
        return false;
    }
    for (i = 0; i < g->depth; i++) {
        /* a packet is at most 1 + 0x4000 dwords */
        if (g->ib_pos[i] > g->ib_size[i] || g->ib_ret[i] == 0 ||
            g->ib_ret[i] > 0x4001) {
            return false;
        }
    }
    if (g->waiting && (g->wait_len == 0 || g->wait_len > 0x4001)) {
        return false;
    }
    return true;
}
