/*
 * Adreno-200-like GPU core: the PM4 command processor.
 *
 * The CP interprets PM4 directly (no microcode): the ring at CP_RB_BASE
 * from CP_RB_RPTR up to CP_RB_WPTR, and up to two levels of indirect
 * buffers below it.  CP_RB_RPTR moves past a ring packet only once that
 * packet (including any IB it called) has completed.
 *
 * Guest input bounds all work: agpu_run() executes a bounded number of
 * packets, long packets are processed in chunks, IB nesting is limited,
 * every memory access goes through the gpummu, and an IB tree that runs
 * too long (AGpuCore.hang_limit) hangs the CP until a reset, which is
 * what the kernel's hangcheck expects to see.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agpu-int.h"

/* dwords copied from the command stream at a time */
#define AGPU_CHUNK      32

/* a long packet costs one budget unit per this many dwords */
#define AGPU_COST_SHIFT 6

enum {
    AGPU_STEP_DONE,     /* a packet was executed or abandoned */
    AGPU_STEP_POP,      /* an IB ended */
    AGPU_STEP_IDLE,     /* the ring is empty */
    AGPU_STEP_STARVED,  /* the packet runs beyond CP_RB_WPTR */
    AGPU_STEP_WAIT,     /* CP_WAIT_REG_* not yet satisfied */
    AGPU_STEP_HUNG,
    AGPU_STEP_ABORT,    /* a register write reset the CP */
};

enum {
    AGPU_EXEC_DONE,         /* consume the packet */
    AGPU_EXEC_PUSH,         /* an IB was entered */
    AGPU_EXEC_WAIT,
    AGPU_EXEC_FETCH_FAULT,  /* the payload could not be read */
    AGPU_EXEC_ABORT,
};

uint32_t agpu_rb_size(const AGpuCore *g)
{
    uint32_t bufsz = g->regs[AGPU_REG_CP_RB_CNTL] & AGPU_RB_CNTL_BUFSZ_MASK;

    if (bufsz > AGPU_RB_BUFSZ_MAX) {
        bufsz = AGPU_RB_BUFSZ_MAX;
    }
    /* BUFSZ is log2(bytes / 8), so the ring holds 2 << BUFSZ dwords */
    return 2u << bufsz;
}

void agpu_cp_fix_ring(AGpuCore *g)
{
    uint32_t mask = agpu_rb_size(g) - 1;

    g->rb_rptr &= mask;
    g->rb_wptr &= mask;
    g->regs[AGPU_REG_CP_RB_WPTR] = g->rb_wptr;
}

/*
 * Drop everything in flight: a pending wait can then never complete and
 * no stale fence is written after the driver's recovery.
 */
void agpu_cp_reset(AGpuCore *g, bool soft)
{
    g->rb_rptr = 0;
    g->rb_wptr = 0;
    g->regs[AGPU_REG_CP_RB_WPTR] = 0;
    g->depth = 0;
    memset(g->ib_base, 0, sizeof(g->ib_base));
    memset(g->ib_size, 0, sizeof(g->ib_size));
    memset(g->ib_pos, 0, sizeof(g->ib_pos));
    memset(g->ib_ret, 0, sizeof(g->ib_ret));
    g->regs[AGPU_REG_CP_IB1_BASE] = 0;
    g->regs[AGPU_REG_CP_IB1_BUFSZ] = 0;
    g->regs[AGPU_REG_CP_IB2_BASE] = 0;
    g->regs[AGPU_REG_CP_IB2_BUFSZ] = 0;
    g->waiting = 0;
    g->wait_len = 0;
    g->hung = 0;
    g->hang_work = 0;
    g->cp_gen++;
    agpu_faults_cp_reset(g->faults);
    if (soft) {
        g->protected_mode = 0;
        g->regs[AGPU_REG_CP_INT_STATUS] = 0;
        agpu_update_irq(g);
    }
}

static bool agpu_cp_can_run(const AGpuCore *g)
{
    return !(g->regs[AGPU_REG_CP_ME_CNTL] & AGPU_ME_CNTL_HALT) &&
           !(g->regs[AGPU_REG_RBBM_SOFT_RESET] & AGPU_SOFT_RESET_CP) &&
           !g->hung && !agpu_faults_resetting(g->faults);
}

bool agpu_cp_busy(const AGpuCore *g)
{
    return g->rb_rptr != g->rb_wptr || g->depth || g->waiting || g->hung ||
           agpu_faults_resetting(g->faults);
}

/* a slow reset (reset-slow) ends by the glue's polls, like a wait */
bool agpu_cp_waiting(const AGpuCore *g)
{
    return (g->waiting && agpu_cp_can_run(g)) ||
           agpu_faults_resetting(g->faults);
}

bool agpu_cp_runnable(const AGpuCore *g)
{
    return (agpu_cp_can_run(g) &&
            (g->rb_rptr != g->rb_wptr || g->depth || g->waiting)) ||
           agpu_faults_resetting(g->faults);
}

/* GPU address of the packet the CP is executing, and its level */
static uint32_t agpu_cp_pc(const AGpuCore *g)
{
    uint32_t i;

    if (g->depth == 0) {
        return (g->regs[AGPU_REG_CP_RB_BASE] & ~3u) + g->rb_rptr * 4;
    }
    i = g->depth - 1;
    return g->ib_base[i] + g->ib_pos[i] * 4;
}

static const char *agpu_cp_level(const AGpuCore *g)
{
    static const char *const names[] = { "RB", "IB1", "IB2" };

    return g->depth < 3 ? names[g->depth] : "IB?";
}

/* raise a CP_INT error bit; the message names the packet's address */
static void __attribute__((format(printf, 3, 4)))
agpu_cp_error(AGpuCore *g, uint32_t bit, const char *fmt, ...)
{
    char msg[160];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    switch (bit) {
    case AGPU_CP_INT_OPCODE_ERROR:
        g->stat_opcode_errors++;
        break;
    case AGPU_CP_INT_IB_ERROR:
        g->stat_ib_errors++;
        break;
    case AGPU_CP_INT_PROTECTED_MODE_ERROR:
        g->stat_protect_errors++;
        break;
    default:
        break;
    }
    agpu_guest_error(g, "agpu: %s (%s packet at 0x%08x)", msg,
                     agpu_cp_level(g), agpu_cp_pc(g));
    agpu_raise_cp(g, bit);
}

static void agpu_cp_hang(AGpuCore *g, const char *msg)
{
    g->hung = 1;
    g->stat_hangs++;
    agpu_guest_error(g, "agpu: %s (%s packet at 0x%08x), CP hung", msg,
                     agpu_cp_level(g), agpu_cp_pc(g));
}

/*
 * Registers an IB may not write once the ring has enabled protected
 * mode: everything below CP_INT_CNTL (AGPU_PROTECT_LIMIT), i.e. RBBM
 * control and soft reset, the MH MMU, the PFP upload port and the CP
 * ring registers.  Above it stay writable, as on the real a2xx: the CP
 * interrupt and ME registers, RBBM_PM_OVERRIDE1/2 (which Mesa's a2xx
 * driver writes in every batch), RBBM_INT_*, the MH arbiter and
 * interrupt registers, scratch and context registers.
 */
static bool agpu_reg_protected(uint32_t reg)
{
    return reg < AGPU_PROTECT_LIMIT;
}

/* dwords the CP may fetch at its current level */
static uint32_t agpu_cp_avail(const AGpuCore *g)
{
    uint32_t i;

    if (g->depth == 0) {
        return (g->rb_wptr - g->rb_rptr) & (agpu_rb_size(g) - 1);
    }
    i = g->depth - 1;
    return g->ib_pos[i] < g->ib_size[i] ? g->ib_size[i] - g->ib_pos[i] : 0;
}

/* copy n dwords at offset off from the start of the current packet */
static bool agpu_cp_fetch(AGpuCore *g, uint32_t off, uint32_t *buf,
                          uint32_t n)
{
    uint32_t i;

    if (g->depth == 0) {
        uint32_t size = agpu_rb_size(g);
        uint32_t idx = (g->rb_rptr + off) & (size - 1);
        uint64_t base = g->regs[AGPU_REG_CP_RB_BASE] & ~3u;

        /* packets may straddle the end of the ring */
        while (n) {
            uint32_t run = size - idx < n ? size - idx : n;

            if (!agpu_mem_read32(g, base + (uint64_t)idx * 4, buf, run)) {
                return false;
            }
            buf += run;
            n -= run;
            idx = 0;
        }
        return true;
    }
    i = g->depth - 1;
    return agpu_mem_read32(g, (uint64_t)g->ib_base[i] +
                           ((uint64_t)g->ib_pos[i] + off) * 4, buf, n);
}

static void agpu_cp_consume(AGpuCore *g, uint32_t len)
{
    uint32_t i;

    if (g->depth == 0) {
        g->rb_rptr = (g->rb_rptr + len) & (agpu_rb_size(g) - 1);
        return;
    }
    i = g->depth - 1;
    if (len > g->ib_size[i] - g->ib_pos[i]) {
        len = g->ib_size[i] - g->ib_pos[i];
    }
    g->ib_pos[i] += len;
}

/* leave the current IB and complete the IB packet that called it */
static void agpu_cp_pop(AGpuCore *g)
{
    uint32_t ret = g->ib_ret[g->depth - 1];

    g->depth--;
    agpu_cp_consume(g, ret);
    if (g->depth == 0) {
        g->hang_work = 0;
    }
}

static int agpu_cp_fetch_fault(AGpuCore *g)
{
    if (g->depth == 0) {
        /* no way past an unreadable ring: look hung to hangcheck */
        agpu_cp_hang(g, "cannot fetch from the ring");
        return AGPU_STEP_HUNG;
    }
    /* abandon the IB; the MH interrupt has been raised */
    agpu_cp_pop(g);
    return AGPU_STEP_DONE;
}

static uint32_t agpu_packet_len(uint32_t hdr)
{
    switch (AGPU_PM4_TYPE(hdr)) {
    case 0:
    case 3:
        return 1 + AGPU_PM4_COUNT(hdr);
    case 1:
        return 3;       /* header + two register values */
    default:
        return 1;
    }
}

static int agpu_exec_type0(AGpuCore *g, uint32_t hdr, uint32_t len)
{
    uint32_t reg = AGPU_PM4_T0_REG(hdr);
    bool one_reg = hdr & AGPU_PM4_T0_ONE_REG;
    bool check = g->depth > 0 && g->protected_mode;
    uint32_t gen = g->cp_gen;
    uint32_t n = len - 1;
    uint32_t buf[AGPU_CHUNK];
    uint32_t done = 0, i;
    uint32_t denied = 0, denied_reg = 0, denied_val = 0;

    while (done < n) {
        uint32_t k = n - done < AGPU_CHUNK ? n - done : AGPU_CHUNK;

        if (!agpu_cp_fetch(g, 1 + done, buf, k)) {
            return AGPU_EXEC_FETCH_FAULT;
        }
        for (i = 0; i < k; i++) {
            uint32_t r = one_reg ? reg : reg + done + i;

            if (check && agpu_reg_protected(r)) {
                if (!denied++) {
                    denied_reg = r;
                    denied_val = buf[i];
                }
                continue;
            }
            agpu_reg_write(g, r, buf[i]);
            if (g->cp_gen != gen) {
                return AGPU_EXEC_ABORT;
            }
        }
        done += k;
    }
    if (denied) {
        agpu_cp_error(g, AGPU_CP_INT_PROTECTED_MODE_ERROR,
                      "PKT0 write of protected register 0x%04x (%s) value "
                      "0x%08x refused (%u of %u writes)", denied_reg,
                      agpu_regname(denied_reg), denied_val, denied, n);
    }
    return AGPU_EXEC_DONE;
}

static int agpu_op_ib(AGpuCore *g, const uint32_t *p, uint32_t len)
{
    uint32_t i = g->depth;

    if (i >= AGPU_IB_DEPTH) {
        agpu_cp_error(g, AGPU_CP_INT_IB_ERROR,
                      "IB to 0x%08x (%u dwords) nested too deep", p[0], p[1]);
        return AGPU_EXEC_DONE;
    }
    if (p[1] == 0) {
        return AGPU_EXEC_DONE;
    }
    g->ib_base[i] = p[0] & ~3u;
    g->ib_size[i] = p[1];
    g->ib_pos[i] = 0;
    g->ib_ret[i] = len;
    g->regs[AGPU_REG_CP_IB1_BASE + 2 * i] = g->ib_base[i];
    g->regs[AGPU_REG_CP_IB1_BUFSZ + 2 * i] = g->ib_size[i];
    g->depth++;
    g->stat_ibs++;
    return AGPU_EXEC_PUSH;
}

static int agpu_op_mem_write(AGpuCore *g, uint32_t addr, uint32_t len)
{
    uint64_t va = addr & ~3u;
    uint32_t n = len - 2;
    uint32_t buf[AGPU_CHUNK];
    uint32_t done = 0;

    while (done < n) {
        uint32_t k = n - done < AGPU_CHUNK ? n - done : AGPU_CHUNK;

        if (!agpu_cp_fetch(g, 2 + done, buf, k)) {
            return AGPU_EXEC_FETCH_FAULT;
        }
        if (!agpu_mem_write32(g, va + (uint64_t)done * 4, buf, k)) {
            return AGPU_EXEC_DONE;      /* abandoned */
        }
        done += k;
    }
    return AGPU_EXEC_DONE;
}

static int agpu_op_reg_to_mem(AGpuCore *g, const uint32_t *p,
                              uint32_t *cost)
{
    uint32_t reg = AGPU_R2M_REG(p[0]);
    uint32_t n = AGPU_R2M_CNT(p[0]) ? AGPU_R2M_CNT(p[0]) : 1;
    uint64_t va = p[1] & ~3u;
    uint32_t buf[AGPU_CHUNK];
    uint32_t done = 0, i;

    /* a short packet that copies many registers costs like a long one */
    *cost += n >> AGPU_COST_SHIFT;

    while (done < n) {
        uint32_t k = n - done < AGPU_CHUNK ? n - done : AGPU_CHUNK;

        for (i = 0; i < k; i++) {
            buf[i] = agpu_reg_value(g, reg + done + i);
        }
        if (!agpu_mem_write32(g, va + (uint64_t)done * 4, buf, k)) {
            return AGPU_EXEC_DONE;      /* abandoned */
        }
        done += k;
    }
    return AGPU_EXEC_DONE;
}

static int agpu_op_set_constant(AGpuCore *g, uint32_t p0, uint32_t len)
{
    uint32_t reg = AGPU_REG_CONTEXT_BASE + AGPU_SETC_OFFSET(p0);
    uint32_t gen = g->cp_gen;
    uint32_t n = len - 2;
    uint32_t buf[AGPU_CHUNK];
    uint32_t done = 0, i;

    if (AGPU_SETC_TYPE(p0) != AGPU_SETC_TYPE_REGISTER) {
        /* shader constants are not modelled */
        g->stat_unimplemented++;
        return AGPU_EXEC_DONE;
    }
    while (done < n) {
        uint32_t k = n - done < AGPU_CHUNK ? n - done : AGPU_CHUNK;

        if (!agpu_cp_fetch(g, 2 + done, buf, k)) {
            return AGPU_EXEC_FETCH_FAULT;
        }
        for (i = 0; i < k; i++) {
            agpu_reg_write(g, reg + done + i, buf[i]);
            if (g->cp_gen != gen) {
                return AGPU_EXEC_ABORT;
            }
        }
        done += k;
    }
    return AGPU_EXEC_DONE;
}

static bool agpu_compare(uint32_t func, uint32_t val, uint32_t ref,
                         bool is_signed)
{
    if (is_signed) {
        /* flipping the sign bit maps the signed order onto the unsigned */
        val ^= 0x80000000u;
        ref ^= 0x80000000u;
    }
    switch (func) {
    case 1:
        return val < ref;
    case 2:
        return val <= ref;
    case 3:
        return val == ref;
    case 4:
        return val != ref;
    case 5:
        return val >= ref;
    case 6:
        return val > ref;
    default:
        return true;    /* 0 is "always"; 7 is rejected at decode */
    }
}

/* 1: condition met, 0: keep waiting, -1: the poll faulted */
static int agpu_wait_check(AGpuCore *g)
{
    uint32_t val;

    if (g->wait_ctrl & AGPU_WRM_MEMORY) {
        if (!agpu_mem_read32(g, g->wait_addr & ~3u, &val, 1)) {
            return -1;
        }
    } else {
        val = agpu_reg_value(g, g->wait_addr);
    }
    return agpu_compare(AGPU_WRM_FUNC(g->wait_ctrl), val & g->wait_mask,
                        g->wait_ctrl & AGPU_WAIT_UNMASKED_REF ?
                        g->wait_ref : g->wait_ref & g->wait_mask,
                        g->wait_ctrl & AGPU_WRM_SIGNED);
}

/*
 * Latch a wait condition and check it once: done at once when it holds
 * or the poll faults (a faulting poll abandons the packet rather than
 * stalling forever), else stall the CP until agpu_run() sees it hold.
 */
static int agpu_cp_start_wait(AGpuCore *g, uint32_t ctrl, uint32_t addr,
                              uint32_t ref, uint32_t mask, uint32_t len)
{
    g->wait_ctrl = ctrl;
    g->wait_addr = addr;
    g->wait_ref = ref;
    g->wait_mask = mask;
    g->wait_len = len;
    if (agpu_wait_check(g) != 0) {
        return AGPU_EXEC_DONE;
    }
    g->waiting = 1;
    return AGPU_EXEC_WAIT;
}

static int agpu_op_wait_reg_mem(AGpuCore *g, const uint32_t *p, uint32_t len)
{
    if (AGPU_WRM_FUNC(p[0]) == 7) {
        agpu_cp_error(g, AGPU_CP_INT_RESERVED_BIT_ERROR,
                      "CP_WAIT_REG_MEM 0x%08x with a reserved function",
                      p[0]);
        return AGPU_EXEC_DONE;
    }
    return agpu_cp_start_wait(g, p[0] & AGPU_WRM_CTRL_MASK, p[1], p[2], p[3],
                              len);
}

/*
 * CP_WAIT_REG_EQ / CP_WAIT_REG_GTE (a2xx-a4xx): [register][value][mask]
 * [interval], as KGSL's adreno_wait_reg_eq() builds it; the CP stalls
 * until (register & mask) == value (>= for GTE, unsigned).  The register
 * is a dword index.  The poll interval (in 16-clock units) is the glue's
 * timer instead.  Mesa's a2xx driver waits for RBBM_STATUS & 0x5f601000
 * (or & 0x1000, VGT_BUSY_NO_DMA) to be 0 in every batch; without a 3D
 * pipe those bits are never set and the wait ends at once.
 */
static int agpu_op_wait_reg(AGpuCore *g, bool gte, const uint32_t *p,
                            uint32_t len)
{
    uint32_t ctrl = gte ? AGPU_WAIT_FUNC_GE : AGPU_WAIT_FUNC_EQ;

    return agpu_cp_start_wait(g, ctrl | AGPU_WAIT_UNMASKED_REF, p[0], p[1],
                              p[2], len);
}

/* a2xx 3D opcodes that are accepted and ignored: no 3D pipe is modelled */
static bool agpu_op_ignored(uint32_t op)
{
    switch (op) {
    case AGPU_CP_DRAW_INDX:
    case AGPU_CP_VIZ_QUERY:
    case AGPU_CP_SET_STATE:
    case AGPU_CP_IM_LOAD:
    case AGPU_CP_IM_LOAD_IMMEDIATE:
    case AGPU_CP_IM_STORE:
    case AGPU_CP_LOAD_CONSTANT_CONTEXT:
    case AGPU_CP_SET_BIN_DATA:
    case AGPU_CP_DRAW_INDX_BIN:
    case AGPU_CP_DRAW_INDX_2_BIN:
    case AGPU_CP_DRAW_INDX_2:
    case AGPU_CP_INVALIDATE_STATE:
    case AGPU_CP_SET_SHADER_BASES:
    case AGPU_CP_SET_BIN_BASE_OFFSET:
    case AGPU_CP_SET_BIN:
    case AGPU_CP_SET_BIN_MASK:
    case AGPU_CP_SET_BIN_SELECT:
    case AGPU_CP_CONTEXT_UPDATE:
        return true;
    default:
        return false;
    }
}

/* payload dwords an opcode needs; 0 for opcodes that read none */
static uint32_t agpu_op_min_payload(uint32_t op)
{
    switch (op) {
    case AGPU_CP_SET_PROTECTED_MODE:
    case AGPU_CP_EVENT_WRITE:
    case AGPU_CP_INTERRUPT:
        return 1;
    case AGPU_CP_INDIRECT_BUFFER_PFD:
    case AGPU_CP_INDIRECT_BUFFER:
    case AGPU_CP_MEM_WRITE:
    case AGPU_CP_REG_TO_MEM:
    case AGPU_CP_SET_CONSTANT:
        return 2;
    case AGPU_CP_WAIT_REG_MEM:
    case AGPU_CP_WAIT_REG_EQ:
    case AGPU_CP_WAIT_REG_GTE:
        return 4;
    default:
        return 0;
    }
}

static int agpu_exec_type3(AGpuCore *g, uint32_t hdr, uint32_t len,
                           uint32_t *cost)
{
    uint32_t op = AGPU_PM4_T3_OPCODE(hdr);
    uint32_t need = agpu_op_min_payload(op);
    uint32_t p[4];
    uint32_t v;

    if (need) {
        if (len - 1 < need) {
            agpu_cp_error(g, AGPU_CP_INT_OPCODE_ERROR,
                          "type-3 opcode 0x%02x with %u payload dwords, "
                          "needs %u", op, len - 1, need);
            return AGPU_EXEC_DONE;
        }
        if (!agpu_cp_fetch(g, 1, p, need)) {
            return AGPU_EXEC_FETCH_FAULT;
        }
    }

    switch (op) {
    case AGPU_CP_NOP:
    case AGPU_CP_WAIT_FOR_IDLE:     /* the model is always idle between */
    case AGPU_CP_ME_INIT:           /* nothing to set up */
        return AGPU_EXEC_DONE;
    case AGPU_CP_SET_PROTECTED_MODE:
        if (g->depth > 0 && g->protected_mode) {
            agpu_cp_error(g, AGPU_CP_INT_PROTECTED_MODE_ERROR,
                          "CP_SET_PROTECTED_MODE %u from an IB refused",
                          p[0]);
            return AGPU_EXEC_DONE;
        }
        g->protected_mode = p[0] & 1;
        return AGPU_EXEC_DONE;
    case AGPU_CP_INDIRECT_BUFFER_PFD:
    case AGPU_CP_INDIRECT_BUFFER:
        return agpu_op_ib(g, p, len);
    case AGPU_CP_EVENT_WRITE:
        if (len - 1 >= 3) {
            if (!agpu_cp_fetch(g, 2, p + 1, 2)) {
                return AGPU_EXEC_FETCH_FAULT;
            }
            v = p[2];
            if (!agpu_mem_write32(g, p[1] & ~3u, &v, 1)) {
                return AGPU_EXEC_DONE;  /* abandoned, no interrupt */
            }
        }
        if (p[0] & AGPU_EVENT_IRQ) {
            agpu_raise_cp(g, AGPU_CP_INT_RB);
        }
        return AGPU_EXEC_DONE;
    case AGPU_CP_INTERRUPT:
        agpu_raise_cp(g, p[0] & (AGPU_CP_INT_RB | AGPU_CP_INT_IB1 |
                                 AGPU_CP_INT_IB2));
        return AGPU_EXEC_DONE;
    case AGPU_CP_MEM_WRITE:
        return agpu_op_mem_write(g, p[0], len);
    case AGPU_CP_REG_TO_MEM:
        return agpu_op_reg_to_mem(g, p, cost);
    case AGPU_CP_WAIT_REG_MEM:
        return agpu_op_wait_reg_mem(g, p, len);
    case AGPU_CP_WAIT_REG_EQ:
    case AGPU_CP_WAIT_REG_GTE:
        return agpu_op_wait_reg(g, op == AGPU_CP_WAIT_REG_GTE, p, len);
    case AGPU_CP_SET_CONSTANT:
        return agpu_op_set_constant(g, p[0], len);
    default:
        if (agpu_op_ignored(op)) {
            g->stat_unimplemented++;
            return AGPU_EXEC_DONE;
        }
        agpu_cp_error(g, AGPU_CP_INT_OPCODE_ERROR,
                      "unknown type-3 opcode 0x%02x (header 0x%08x), "
                      "%u dwords skipped", op, hdr, len);
        return AGPU_EXEC_DONE;
    }
}

static int agpu_cp_step(AGpuCore *g, uint32_t *cost)
{
    uint32_t avail = agpu_cp_avail(g);
    uint32_t hdr, len;
    int r;

    *cost = 1;
    if (avail == 0) {
        if (g->depth == 0) {
            return AGPU_STEP_IDLE;
        }
        agpu_cp_pop(g);
        return AGPU_STEP_POP;
    }
    /* cp-stall: hung at the start of the submit, until a soft reset */
    if (g->depth == 0 && agpu_faults_cp_stalls(g->faults, g->rb_rptr)) {
        g->hung = 1;
        g->stat_hangs++;
        return AGPU_STEP_HUNG;
    }
    if (!agpu_cp_fetch(g, 0, &hdr, 1)) {
        return agpu_cp_fetch_fault(g);
    }
    len = agpu_packet_len(hdr);
    if (len > avail) {
        if (g->depth == 0) {
            /* wait for the guest to write the rest (or for hangcheck) */
            return AGPU_STEP_STARVED;
        }
        agpu_cp_error(g, AGPU_CP_INT_IB_ERROR,
                      "packet 0x%08x of %u dwords runs past the end of its "
                      "IB (%u left)", hdr, len, avail);
        agpu_cp_pop(g);
        return AGPU_STEP_DONE;
    }

    g->stat_packets++;
    *cost = 1 + (len >> AGPU_COST_SHIFT);

    switch (AGPU_PM4_TYPE(hdr)) {
    case 0:
        r = agpu_exec_type0(g, hdr, len);
        break;
    case 1:
        agpu_cp_error(g, AGPU_CP_INT_OPCODE_ERROR, "type-1 packet 0x%08x",
                      hdr);
        r = AGPU_EXEC_DONE;
        break;
    case 2:
        r = AGPU_EXEC_DONE;
        break;
    default:
        r = agpu_exec_type3(g, hdr, len, cost);
        break;
    }

    switch (r) {
    case AGPU_EXEC_DONE:
        agpu_cp_consume(g, len);
        break;
    case AGPU_EXEC_PUSH:
        break;
    case AGPU_EXEC_WAIT:
        return AGPU_STEP_WAIT;
    case AGPU_EXEC_FETCH_FAULT:
        return agpu_cp_fetch_fault(g);
    default:
        return AGPU_STEP_ABORT;
    }

    if (g->depth > 0 && g->hang_limit && ++g->hang_work >= g->hang_limit) {
        agpu_cp_hang(g, "IB ran too long (hang-limit packets)");
        return AGPU_STEP_HUNG;
    }
    return AGPU_STEP_DONE;
}

/* re-evaluate a pending CP_WAIT_REG_*; true if the CP may go on */
static bool agpu_cp_wait_poll(AGpuCore *g)
{
    if (agpu_wait_check(g) == 0) {
        return false;
    }
    g->waiting = 0;
    agpu_cp_consume(g, g->wait_len);
    return true;
}

static void agpu_rptr_writeback(AGpuCore *g)
{
    uint32_t addr = g->regs[AGPU_REG_CP_RB_RPTR_ADDR] & AGPU_RB_RPTR_ADDR_MASK;
    uint32_t v;

    /* the msm driver sets NO_UPDATE; KGSL-style drivers shadow RPTR */
    if (!(g->regs[AGPU_REG_CP_RB_CNTL] & AGPU_RB_CNTL_NO_UPDATE) && addr) {
        v = agpu_faults_rptr_shadow(g->faults, g->rb_rptr, agpu_rb_size(g));
        agpu_mem_write32(g, addr, &v, 1);
    }
}

bool agpu_run(AGpuCore *g, uint32_t budget)
{
    uint32_t start_rptr = g->rb_rptr;
    bool polled = false;
    bool again;

    /* reset-slow: each call is one poll; the CP stays in reset till then */
    if (agpu_faults_reset_poll(g->faults)) {
        return true;
    }
    for (;;) {
        uint32_t cost;
        int r;

        if (!agpu_cp_can_run(g)) {
            again = false;
            break;
        }
        if (g->waiting) {
            /* one poll per call: the glue's timer paces the retries */
            if (polled || budget == 0) {
                again = true;
                break;
            }
            polled = true;
            budget--;
            if (!agpu_cp_wait_poll(g)) {
                again = true;
                break;
            }
            continue;
        }
        if (budget == 0) {
            again = agpu_cp_runnable(g);
            break;
        }
        r = agpu_cp_step(g, &cost);
        if (r == AGPU_STEP_DONE || r == AGPU_STEP_ABORT) {
            budget -= cost < budget ? cost : budget;
        } else if (r == AGPU_STEP_WAIT) {
            polled = true;
        } else if (r != AGPU_STEP_POP) {
            again = false;      /* idle, starved or hung */
            break;
        }
    }

    if (g->rb_rptr != start_rptr) {
        agpu_rptr_writeback(g);
    }
    return again;
}
