/*
 * Adreno 2xx register offsets, bits and PM4 opcodes used by the agpu core.
 *
 * Written by hand from the Linux 6.12 register database
 * (drivers/gpu/drm/msm/registers/adreno/a2xx.xml, adreno_common.xml,
 * adreno_pm4.xml).  Offsets are dword indices, as the driver uses them;
 * the byte offset in the MMIO window is the index * 4.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AGPU_REGS_H
#define AGPU_REGS_H

/* RBBM */
#define AGPU_REG_RBBM_PATCH_RELEASE     0x0001
#define AGPU_REG_RBBM_CNTL              0x003b
#define AGPU_REG_RBBM_SOFT_RESET        0x003c
#define AGPU_REG_RBBM_DEBUG             0x039b
#define AGPU_REG_RBBM_PM_OVERRIDE1      0x039c
#define AGPU_REG_RBBM_PM_OVERRIDE2      0x039d
#define AGPU_REG_RBBM_READ_ERROR        0x03b3
#define AGPU_REG_RBBM_INT_CNTL          0x03b4
#define AGPU_REG_RBBM_INT_STATUS        0x03b5
#define AGPU_REG_RBBM_INT_ACK           0x03b6
#define AGPU_REG_MASTER_INT_SIGNAL      0x03b7
#define AGPU_REG_RBBM_PERIPHID1         0x03f9
#define AGPU_REG_RBBM_PERIPHID2         0x03fa
#define AGPU_REG_RBBM_STATUS            0x05d0

#define AGPU_RBBM_INT_RDERR             (1u << 0)

#define AGPU_MASTER_MH_INT              (1u << 5)
#define AGPU_MASTER_SQ_INT              (1u << 26)
#define AGPU_MASTER_CP_INT              (1u << 30)
#define AGPU_MASTER_RBBM_INT            (1u << 31)

#define AGPU_RBBM_STATUS_CMDFIFO_AVAIL  0x10u       /* bits 4:0 */
#define AGPU_RBBM_STATUS_GUI_ACTIVE     (1u << 31)

#define AGPU_SOFT_RESET_CP              (1u << 0)

/* MH (memory hub) and its gpummu */
#define AGPU_REG_MH_MMU_CONFIG          0x0040
#define AGPU_REG_MH_MMU_VA_RANGE        0x0041
#define AGPU_REG_MH_MMU_PT_BASE         0x0042
#define AGPU_REG_MH_MMU_PAGE_FAULT      0x0043
#define AGPU_REG_MH_MMU_TRAN_ERROR      0x0044
#define AGPU_REG_MH_MMU_INVALIDATE      0x0045
#define AGPU_REG_MH_MMU_MPU_BASE        0x0046
#define AGPU_REG_MH_MMU_MPU_END         0x0047
#define AGPU_REG_MH_ARBITER_CONFIG      0x0a40
#define AGPU_REG_MH_INTERRUPT_MASK      0x0a42
#define AGPU_REG_MH_INTERRUPT_STATUS    0x0a43
#define AGPU_REG_MH_INTERRUPT_CLEAR     0x0a44
#define AGPU_REG_MH_AXI_ERROR           0x0a45  /* KGSL name; not in the XML */
#define AGPU_REG_MH_CLNT_INTF_CTRL_CONFIG1 0x0a54

#define AGPU_MMU_CONFIG_ENABLE          (1u << 0)
#define AGPU_MMU_VA_RANGE_REGIONS_MASK  0x00000fffu /* 64 KiB regions */
#define AGPU_MMU_VA_RANGE_BASE_MASK     0xfffff000u

#define AGPU_MH_INT_AXI_READ_ERROR      (1u << 0)
#define AGPU_MH_INT_AXI_WRITE_ERROR     (1u << 1)
#define AGPU_MH_INT_MMU_PAGE_FAULT      (1u << 2)

/* MH_MMU_PAGE_FAULT layout, as KGSL decodes it */
#define AGPU_PAGE_FAULT_VALID           (1u << 0)
#define AGPU_PAGE_FAULT_WRITE           (1u << 1)

/* PTE permission bits (a2xx_gpummu.c) */
#define AGPU_PTE_WRITE                  (1u << 0)
#define AGPU_PTE_READ                   (1u << 1)
#define AGPU_PTE_ADDR_MASK              0xfffff000u

/* CP */
#define AGPU_REG_CP_PFP_UCODE_ADDR      0x00c0
#define AGPU_REG_CP_PFP_UCODE_DATA      0x00c1
#define AGPU_REG_CP_RB_BASE             0x01c0
#define AGPU_REG_CP_RB_CNTL             0x01c1
#define AGPU_REG_CP_RB_RPTR_ADDR        0x01c3
#define AGPU_REG_CP_RB_RPTR             0x01c4
#define AGPU_REG_CP_RB_WPTR             0x01c5
#define AGPU_REG_CP_QUEUE_THRESHOLDS    0x01d5
#define AGPU_REG_SCRATCH_UMSK           0x01dc
#define AGPU_REG_SCRATCH_ADDR           0x01dd
#define AGPU_REG_CP_INT_CNTL            0x01f2
#define AGPU_REG_CP_INT_STATUS          0x01f3
#define AGPU_REG_CP_INT_ACK             0x01f4
#define AGPU_REG_CP_ME_CNTL             0x01f6
#define AGPU_REG_CP_ME_STATUS           0x01f7
#define AGPU_REG_CP_ME_RAM_WADDR        0x01f8
#define AGPU_REG_CP_ME_RAM_RADDR        0x01f9
#define AGPU_REG_CP_ME_RAM_DATA         0x01fa
#define AGPU_REG_CP_DEBUG               0x01fc
#define AGPU_REG_CP_IB1_BASE            0x0458
#define AGPU_REG_CP_IB1_BUFSZ           0x0459
#define AGPU_REG_CP_IB2_BASE            0x045a
#define AGPU_REG_CP_IB2_BUFSZ           0x045b
#define AGPU_REG_CP_STAT                0x047f
#define AGPU_REG_CP_SCRATCH_REG0        0x0578
#define AGPU_REG_CP_SCRATCH_REG7        0x057f

#define AGPU_RB_CNTL_BUFSZ_MASK         0x3fu
#define AGPU_RB_CNTL_NO_UPDATE          (1u << 27)
#define AGPU_RB_RPTR_ADDR_MASK          0xfffffffcu

#define AGPU_ME_CNTL_HALT               (1u << 28)
#define AGPU_ME_CNTL_BUSY               (1u << 29)

#define AGPU_CP_STAT_CP_BUSY            (1u << 31)

/* CP_INT_CNTL / CP_INT_STATUS / CP_INT_ACK bits */
#define AGPU_CP_INT_SW                  (1u << 19)
#define AGPU_CP_INT_T0_PACKET_IN_IB     (1u << 23)
#define AGPU_CP_INT_OPCODE_ERROR        (1u << 24)
#define AGPU_CP_INT_PROTECTED_MODE_ERROR (1u << 25)
#define AGPU_CP_INT_RESERVED_BIT_ERROR  (1u << 26)
#define AGPU_CP_INT_IB_ERROR            (1u << 27)
#define AGPU_CP_INT_IB2                 (1u << 29)
#define AGPU_CP_INT_IB1                 (1u << 30)
#define AGPU_CP_INT_RB                  (1u << 31)

/* SQ: never raised by this model, but the driver writes SQ_INT_CNTL */
#define AGPU_REG_SQ_FLOW_CONTROL        0x0d01
#define AGPU_REG_SQ_INT_CNTL            0x0d34
#define AGPU_REG_SQ_INT_STATUS          0x0d35
#define AGPU_REG_SQ_INT_ACK             0x0d36

#define AGPU_REG_RB_EDRAM_INFO          0x0f02

/* context registers start here (CP_SET_CONSTANT type 4 base) */
#define AGPU_REG_CONTEXT_BASE           0x2000
#define AGPU_REG_SQ_PS_PROGRAM          0x21f6
#define AGPU_REG_SQ_VS_PROGRAM          0x21f7

/* PM4 headers */
#define AGPU_PM4_TYPE(h)                ((h) >> 30)
#define AGPU_PM4_COUNT(h)               ((((h) >> 16) & 0x3fffu) + 1)
#define AGPU_PM4_T0_REG(h)              ((h) & 0x7fffu)
#define AGPU_PM4_T0_ONE_REG             (1u << 15)
#define AGPU_PM4_T3_OPCODE(h)           (((h) >> 8) & 0xffu)

#define AGPU_PM4_PKT0(reg, n) \
    ((((uint32_t)(n) - 1) << 16) | ((uint32_t)(reg) & 0x7fffu))
#define AGPU_PM4_PKT2                   0x80000000u
#define AGPU_PM4_PKT3(op, n) \
    (0xc0000000u | (((uint32_t)(n) - 1) << 16) | ((uint32_t)(op) << 8))

/* type-3 opcodes (adreno_pm4.xml) */
#define AGPU_CP_NOP                     0x10
#define AGPU_CP_DRAW_INDX               0x22
#define AGPU_CP_VIZ_QUERY               0x23
#define AGPU_CP_SET_STATE               0x25
#define AGPU_CP_WAIT_FOR_IDLE           0x26
#define AGPU_CP_IM_LOAD                 0x27
#define AGPU_CP_IM_LOAD_IMMEDIATE       0x2b
#define AGPU_CP_IM_STORE                0x2c
#define AGPU_CP_SET_CONSTANT            0x2d
#define AGPU_CP_LOAD_CONSTANT_CONTEXT   0x2e
#define AGPU_CP_SET_BIN_DATA            0x2f
#define AGPU_CP_DRAW_INDX_BIN           0x34
#define AGPU_CP_DRAW_INDX_2_BIN         0x35
#define AGPU_CP_DRAW_INDX_2             0x36
#define AGPU_CP_INDIRECT_BUFFER_PFD     0x37
#define AGPU_CP_INVALIDATE_STATE        0x3b
#define AGPU_CP_WAIT_REG_MEM            0x3c
#define AGPU_CP_MEM_WRITE               0x3d
#define AGPU_CP_REG_TO_MEM              0x3e
#define AGPU_CP_INDIRECT_BUFFER         0x3f
#define AGPU_CP_INTERRUPT               0x40
#define AGPU_CP_EVENT_WRITE             0x46
#define AGPU_CP_ME_INIT                 0x48
#define AGPU_CP_SET_SHADER_BASES        0x4a
#define AGPU_CP_SET_BIN_BASE_OFFSET     0x4b
#define AGPU_CP_SET_BIN                 0x4c
#define AGPU_CP_SET_BIN_MASK            0x50
#define AGPU_CP_SET_BIN_SELECT          0x51
#define AGPU_CP_WAIT_REG_EQ             0x52
#define AGPU_CP_WAIT_REG_GTE            0x53
#define AGPU_CP_CONTEXT_UPDATE          0x5e
#define AGPU_CP_SET_PROTECTED_MODE      0x5f

/* CP_EVENT_WRITE */
#define AGPU_EVENT_CACHE_FLUSH_TS       4
#define AGPU_EVENT_IRQ                  (1u << 31)  /* [design] */

/* CP_REG_TO_MEM dword 0 */
#define AGPU_R2M_REG(v)                 ((v) & 0x3ffffu)
#define AGPU_R2M_CNT(v)                 (((v) >> 18) & 0xfffu)

/* CP_WAIT_REG_MEM dword 0 */
#define AGPU_WRM_FUNC(v)                ((v) & 0x7u)
#define AGPU_WRM_SIGNED                 (1u << 3)
#define AGPU_WRM_MEMORY                 (1u << 4)
#define AGPU_WRM_CTRL_MASK              0x1fu
/* wait functions, shared with CP_WAIT_REG_EQ (==) and _GTE (>=) */
#define AGPU_WAIT_FUNC_EQ               3
#define AGPU_WAIT_FUNC_GE               5
/*
 * Internal to AGpuCore.wait_ctrl, never a packet bit: compare against
 * the reference as given (CP_WAIT_REG_EQ/GTE, "(reg & mask) == value"),
 * not against reference & mask (CP_WAIT_REG_MEM).
 */
#define AGPU_WAIT_UNMASKED_REF          (1u << 31)

/*
 * Protected mode: PKT0 writes below this register are refused.  The
 * a2xx microcode takes the bound from CP_ME_INIT's protection word,
 * 0x200001f2 from the msm driver and KGSL alike; KGSL documents it as
 * "protected mode error checking below register address 0x800 [...] if
 * CP_INTERRUPT packet is used then checking needs to change to below
 * register address 0x7C8" (byte addresses: 0x7c8 / 4 = 0x1f2,
 * CP_INT_CNTL).  Both drivers use CP_INTERRUPT.
 */
#define AGPU_PROTECT_LIMIT              0x01f2

/* CP_SET_CONSTANT dword 0 */
#define AGPU_SETC_TYPE(v)               (((v) >> 16) & 0xffu)
#define AGPU_SETC_OFFSET(v)             ((v) & 0xffffu)
#define AGPU_SETC_TYPE_REGISTER         4

#endif
