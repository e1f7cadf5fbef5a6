/*
 * patchbay agpu: an Adreno-200-like GPU on the virt platform bus
 *
 * Thin QEMU glue. The GPU itself (register file, gpummu, PM4 command
 * processor, interrupt logic, fault plans) is the QEMU-free core
 * agpu-core.c and agpu-faults.c from patchbay's models/adreno; this file
 * connects it to QEMU: the MMIO window, one level interrupt, DMA to guest
 * memory, a timer that runs the command processor, reset, the fault plan's
 * properties and migration.
 * See patchbay's docs/devices/agpu.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "exec/address-spaces.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/display/agpu.h"
#include "agpu-core.h"
#include "agpu-faults.h"
#include "trace.h"

/* the core does the work; the glue adds QEMU's resources and properties */
struct AGpuState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    QEMUTimer *timer; /* runs the command processor, on the virtual clock */

    /* properties */
    uint32_t chip_id;
    uint32_t gmem_size;
    uint32_t hang_limit;
    bool fw_strict;

    AGpuCore core;
    /*
     * The fault plan (properties faults and fault-script), beside the
     * core so that a plan set before realize survives agpu_init().
     */
    AGpuFaults faults;
};

/* Packets the command processor may execute per call of agpu_run(). */
#define AGPU_RUN_BUDGET 4096
/*
 * The virtual time one budget of packets takes: a command stream that
 * never ends (until hang-limit stops it) takes virtual time as it runs, so
 * the guest's hangcheck sees it as on a real GPU.
 */
#define AGPU_BUDGET_NS (10 * SCALE_US)
/* While the CP waits in CP_WAIT_REG_MEM/_EQ/_GTE, poll it. */
#define AGPU_POLL_NS (100 * SCALE_US)

/* DMA: guest physical memory, as seen by a device outside the PCI tree. */
static bool agpu_dev_dma(uint64_t addr, void *buf, uint32_t len,
                         bool is_write)
{
    MemTxResult r;

    r = address_space_rw(&address_space_memory, addr,
                         MEMTXATTRS_UNSPECIFIED, buf, len, is_write);
    if (r != MEMTX_OK) {
        trace_agpu_dma_error(is_write ? "write" : "read", addr, len);
        return false;
    }
    return true;
}

static bool agpu_dev_dma_read(void *opaque, uint64_t addr, void *buf,
                              uint32_t len)
{
    return agpu_dev_dma(addr, buf, len, false);
}

static bool agpu_dev_dma_write(void *opaque, uint64_t addr, const void *buf,
                               uint32_t len)
{
    return agpu_dev_dma(addr, (void *)buf, len, true);
}

static void agpu_dev_set_irq(void *opaque, bool level)
{
    AGpuState *s = opaque;

    trace_agpu_irq(level);
    /* the driver reads the fence from its handler: publish DMA first */
    smp_wmb();
    qemu_set_irq(s->irq, level);
}

static void agpu_dev_guest_error(void *opaque, const char *msg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s\n", msg);
}

/* a fault of the plan happened (the core is in the middle of a call) */
static void agpu_dev_fault(void *opaque, AGpuFaultKind kind,
                           AGpuFaultEvent event, uint32_t n)
{
    trace_agpu_fault(agpu_fault_name(kind), agpu_fault_event_name(event), n);
}

static const AGpuOps agpu_dev_ops = {
    .dma_read = agpu_dev_dma_read,
    .dma_write = agpu_dev_dma_write,
    .set_irq = agpu_dev_set_irq,
    .guest_error = agpu_dev_guest_error,
};

/*
 * Run the command processor from the virtual-clock timer, never from a
 * bottom half: under -icount an idle guest's clock jumps to its next timer
 * deadline at once, so work left to a bottom half (host time) could be
 * overtaken by the guest's hangcheck on a busy host. A timer due now holds
 * the virtual clock until it has run. As a guarded bottom half would, keep
 * the re-entrancy guard engaged: a DMA write aimed at our own MMIO window
 * is dropped by the memory core instead of recursing into the core.
 */
static void agpu_dev_kick(AGpuState *s, int64_t delay_ns)
{
    timer_mod_anticipate(s->timer,
                         qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + delay_ns);
}

static void agpu_dev_timer(void *opaque)
{
    AGpuState *s = opaque;
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
    bool engaged = guard->engaged_in_io;
    bool more, waiting;

    guard->engaged_in_io = true;
    more = agpu_run(&s->core, AGPU_RUN_BUDGET);
    guard->engaged_in_io = engaged;
    waiting = more && agpu_cp_waiting(&s->core);

    trace_agpu_run(more, waiting);
    if (more) {
        agpu_dev_kick(s, waiting ? AGPU_POLL_NS : AGPU_BUDGET_NS);
    }
}

static uint64_t agpu_dev_mmio_read(void *opaque, hwaddr offset, unsigned size)
{
    AGpuState *s = opaque;
    uint32_t value;

    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: %u-byte read at 0x%" HWADDR_PRIx
                      " (only aligned 32-bit accesses)\n",
                      __func__, size, offset);
        return 0;
    }
    value = agpu_reg_read(&s->core, offset >> 2);
    trace_agpu_read(offset, agpu_regname(offset >> 2), value);
    return value;
}

static void agpu_dev_mmio_write(void *opaque, hwaddr offset, uint64_t value,
                            unsigned size)
{
    AGpuState *s = opaque;

    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: %u-byte write at 0x%" HWADDR_PRIx
                      " (only aligned 32-bit accesses)\n",
                      __func__, size, offset);
        return;
    }
    trace_agpu_write(offset, agpu_regname(offset >> 2), value);
    agpu_reg_write(&s->core, offset >> 2, value);
    if (agpu_cp_runnable(&s->core)) {
        /*
         * A slow reset (fault plan reset-slow) lasts a number of polls:
         * the guest's writes must not add any, so it lasts its 2 s.
         */
        agpu_dev_kick(s, agpu_faults_resetting(&s->faults) ? AGPU_POLL_NS
                                                           : 0);
    }
}

static const MemoryRegionOps agpu_dev_mmio_ops = {
    .read = agpu_dev_mmio_read,
    .write = agpu_dev_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* let every size through, so that wrong ones are logged, not faulted */
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
};

static void agpu_dev_reset_hold(Object *obj, ResetType type)
{
    AGpuState *s = AGPU(obj);

    trace_agpu_reset();
    timer_del(s->timer);
    agpu_reset(&s->core);
}

static void agpu_dev_realize(DeviceState *dev, Error **errp)
{
    AGpuState *s = AGPU(dev);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);

    if ((s->chip_id >> 24) != 2) {
        error_setg(errp, "chip-id 0x%08" PRIx32 " is not an Adreno 2xx"
                   " (0x02MMmmPP)", s->chip_id);
        return;
    }
    /* a201, a200, a220: RB_EDRAM_INFO encodes 16 KiB << 3..5 */
    if (s->gmem_size < 128 * KiB || s->gmem_size > 512 * KiB ||
        !is_power_of_2(s->gmem_size)) {
        error_setg(errp, "gmem-size %" PRIu32 " is not 128, 256 or 512 KiB",
                   s->gmem_size);
        return;
    }

    memory_region_init_io(&s->iomem, OBJECT(s), &agpu_dev_mmio_ops, s,
                          TYPE_AGPU, AGPU_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    sysbus_init_irq(sbd, &s->irq);
    agpu_init(&s->core, &agpu_dev_ops, s, s->chip_id, s->gmem_size);
    s->core.hang_limit = s->hang_limit;
    s->core.fw_strict = s->fw_strict;
    /* the plan itself may have been set already (-device agpu,faults=) */
    s->core.faults = &s->faults;
    s->faults.notify = agpu_dev_fault;
    s->faults.notify_opaque = s;
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, agpu_dev_timer, s);
}

static void agpu_dev_unrealize(DeviceState *dev)
{
    AGpuState *s = AGPU(dev);

    timer_free(s->timer);
    s->timer = NULL;
}

/*
 * "faults" and "fault-script": the fault plan's two parts in their text
 * formats (agpu-faults.h), settable before realize and at run time
 * (qom-set); a bad plan is refused with the parser's message and the old
 * one stays.  Reading gives the plan in its canonical form.
 */
static char *agpu_dev_get_faults(Object *obj, Error **errp)
{
    AGpuState *s = AGPU(obj);
    char *text = g_malloc(AGPU_FAULTS_TEXT_MAX);

    agpu_faults_format_random(&s->faults, text, AGPU_FAULTS_TEXT_MAX);
    return text;
}

static void agpu_dev_set_faults(Object *obj, const char *value, Error **errp)
{
    AGpuState *s = AGPU(obj);
    char err[AGPU_FAULTS_ERROR_MAX];

    if (agpu_faults_set_random(&s->faults, value, err, sizeof(err)) < 0) {
        error_setg(errp, "agpu: faults: %s", err);
        return;
    }
    trace_agpu_fault_plan("faults", value);
}

static char *agpu_dev_get_fault_script(Object *obj, Error **errp)
{
    AGpuState *s = AGPU(obj);
    char *text = g_malloc(AGPU_FAULTS_TEXT_MAX);

    agpu_faults_format_script(&s->faults, text, AGPU_FAULTS_TEXT_MAX);
    return text;
}

static void agpu_dev_set_fault_script(Object *obj, const char *value,
                                      Error **errp)
{
    AGpuState *s = AGPU(obj);
    char err[AGPU_FAULTS_ERROR_MAX];

    if (agpu_faults_set_script(&s->faults, value, err, sizeof(err)) < 0) {
        error_setg(errp, "agpu: fault-script: %s", err);
        return;
    }
    trace_agpu_fault_plan("fault-script", value);
}

/* "fault-counts" (read-only): the faults injected since the plan was set */
static char *agpu_dev_get_fault_counts(Object *obj, Error **errp)
{
    AGpuState *s = AGPU(obj);
    char *text = g_malloc(AGPU_FAULTS_TEXT_MAX);

    agpu_faults_format_counts(&s->faults, text, AGPU_FAULTS_TEXT_MAX);
    return text;
}

static int agpu_dev_post_load(void *opaque, int version_id)
{
    AGpuState *s = opaque;

    if (!agpu_state_valid(&s->core)) {
        return -EINVAL;
    }
    agpu_sync_irq(&s->core);
    /*
     * A ring that was running or stalled resumes by the migrated timer,
     * due when it was. Arming one here that the source did not have would
     * stop a record/replay run's replay from its starting snapshot for
     * good: the timer is in no recording (docs/record-replay.md).
     */
    return 0;
}

static bool agpu_dev_faults_needed(void *opaque)
{
    AGpuState *s = opaque;

    return agpu_faults_in_use(&s->faults);
}

static int agpu_dev_faults_post_load(void *opaque, int version_id)
{
    AGpuState *s = opaque;

    if (!agpu_faults_valid(&s->faults)) {
        error_report("agpu: invalid fault plan in the migration stream");
        return -EINVAL;
    }
    return 0;
}

/*
 * The fault plan, only when one (or a seed) is set or a fault left state
 * behind (a stalled submit, a slow reset), so that a stream without
 * faults is the same as before plans existed.  The plan goes with its
 * run state, the generator, the event counts, the pending script faults
 * and stale-read's last writes, so that the destination (or a replay)
 * goes on with the faults the source would have had; a plan set with
 * qom-set would otherwise be lost.  Not migrated: the notify link.
 */
static const VMStateDescription vmstate_agpu_faults = {
    .name = "agpu/faults",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = agpu_dev_faults_needed,
    .post_load = agpu_dev_faults_post_load,
    .fields = (const VMStateField[]) {
        /* the plan */
        VMSTATE_UINT64(faults.seed, AGpuState),
        VMSTATE_UINT16_ARRAY(faults.permille, AGpuState, AGPU_FAULT_KINDS),
        VMSTATE_UINT8(faults.script_len, AGpuState),
        VMSTATE_UINT8_ARRAY(faults.script_event, AGpuState,
                            AGPU_FAULT_SCRIPT_MAX),
        VMSTATE_UINT8_ARRAY(faults.script_kind, AGpuState,
                            AGPU_FAULT_SCRIPT_MAX),
        VMSTATE_UINT32_ARRAY(faults.script_n, AGpuState,
                             AGPU_FAULT_SCRIPT_MAX),
        /* its run state */
        VMSTATE_UINT64(faults.prng, AGpuState),
        VMSTATE_UINT32_ARRAY(faults.events, AGpuState, AGPU_FAULT_EVENTS),
        VMSTATE_UINT32_ARRAY(faults.injected, AGpuState, AGPU_FAULT_KINDS),
        VMSTATE_BOOL_ARRAY(faults.pending, AGpuState, AGPU_FAULT_KINDS),
        VMSTATE_UINT32_ARRAY(faults.stale_reg, AGpuState,
                             AGPU_FAULT_STALE_WRITES),
        VMSTATE_UINT32_ARRAY(faults.stale_old, AGpuState,
                             AGPU_FAULT_STALE_WRITES),
        VMSTATE_UINT8(faults.stale_len, AGpuState),
        VMSTATE_UINT8(faults.stale_next, AGpuState),
        /* the GPU state faults left behind */
        VMSTATE_BOOL(faults.stall_armed, AGpuState),
        VMSTATE_UINT32(faults.stall_rptr, AGpuState),
        VMSTATE_UINT32(faults.reset_slow_left, AGpuState),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_agpu = {
    .name = TYPE_AGPU,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = agpu_dev_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(core.irq_level, AGpuState),
        VMSTATE_UINT32_ARRAY(core.regs, AGpuState, AGPU_NUM_REGS),
        VMSTATE_UINT32(core.rb_rptr, AGpuState),
        VMSTATE_UINT32(core.rb_wptr, AGpuState),
        VMSTATE_UINT32(core.depth, AGpuState),
        VMSTATE_UINT32_ARRAY(core.ib_base, AGpuState, AGPU_IB_DEPTH),
        VMSTATE_UINT32_ARRAY(core.ib_size, AGpuState, AGPU_IB_DEPTH),
        VMSTATE_UINT32_ARRAY(core.ib_pos, AGpuState, AGPU_IB_DEPTH),
        VMSTATE_UINT32_ARRAY(core.ib_ret, AGpuState, AGPU_IB_DEPTH),
        VMSTATE_UINT8(core.waiting, AGpuState),
        VMSTATE_UINT32(core.wait_len, AGpuState),
        VMSTATE_UINT32(core.wait_ctrl, AGpuState),
        VMSTATE_UINT32(core.wait_addr, AGpuState),
        VMSTATE_UINT32(core.wait_ref, AGpuState),
        VMSTATE_UINT32(core.wait_mask, AGpuState),
        VMSTATE_UINT8(core.protected_mode, AGpuState),
        VMSTATE_UINT8(core.hung, AGpuState),
        VMSTATE_UINT32(core.hang_work, AGpuState),
        VMSTATE_UINT32(core.cp_gen, AGpuState),
        VMSTATE_UINT32(core.me_addr, AGpuState),
        VMSTATE_UINT32(core.me_count, AGpuState),
        VMSTATE_UINT32(core.me_csum, AGpuState),
        VMSTATE_UINT32_ARRAY(core.me_ram, AGpuState, AGPU_FW_KEEP),
        VMSTATE_UINT32(core.pfp_addr, AGpuState),
        VMSTATE_UINT32(core.pfp_count, AGpuState),
        VMSTATE_UINT32(core.pfp_csum, AGpuState),
        VMSTATE_UINT32_ARRAY(core.pfp_ram, AGpuState, AGPU_FW_KEEP),
        VMSTATE_UINT64(core.stat_packets, AGpuState),
        VMSTATE_UINT64(core.stat_ibs, AGpuState),
        VMSTATE_UINT32(core.stat_mmu_faults, AGpuState),
        VMSTATE_UINT32(core.stat_bus_errors, AGpuState),
        VMSTATE_UINT32(core.stat_opcode_errors, AGpuState),
        VMSTATE_UINT32(core.stat_ib_errors, AGpuState),
        VMSTATE_UINT32(core.stat_protect_errors, AGpuState),
        VMSTATE_UINT32(core.stat_wptr_errors, AGpuState),
        VMSTATE_UINT32(core.stat_unimplemented, AGpuState),
        VMSTATE_UINT32(core.stat_hangs, AGpuState),
        VMSTATE_TIMER_PTR(timer, AGpuState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_agpu_faults,
        NULL
    },
};

static const Property agpu_dev_properties[] = {
    DEFINE_PROP_UINT32("chip-id", AGpuState, chip_id, AGPU_CHIP_ID_A200),
    DEFINE_PROP_UINT32("gmem-size", AGpuState, gmem_size, AGPU_GMEM_A200),
    DEFINE_PROP_UINT32("hang-limit", AGpuState, hang_limit,
                       AGPU_DEFAULT_HANG_LIMIT),
    DEFINE_PROP_BOOL("fw-strict", AGpuState, fw_strict, false),
};

static void agpu_dev_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Adreno-200-like GPU (drm/msm, headless)";
    dc->realize = agpu_dev_realize;
    dc->unrealize = agpu_dev_unrealize;
    dc->vmsd = &vmstate_agpu;
    dc->user_creatable = true;
    rc->phases.hold = agpu_dev_reset_hold;
    device_class_set_props(dc, agpu_dev_properties);
    /* not qdev properties: those cannot be set after realize */
    object_class_property_add_str(klass, "faults", agpu_dev_get_faults,
                                  agpu_dev_set_faults);
    object_class_property_set_description(klass, "faults",
        "random faults: seed=N,KIND=PER-MILLE,... (docs/devices/agpu.md)");
    object_class_property_add_str(klass, "fault-script",
                                  agpu_dev_get_fault_script,
                                  agpu_dev_set_fault_script);
    object_class_property_set_description(klass, "fault-script",
        "scripted faults: EVENT:N:KIND;... (docs/devices/agpu.md)");
    object_class_property_add_str(klass, "fault-counts",
                                  agpu_dev_get_fault_counts, NULL);
    object_class_property_set_description(klass, "fault-counts",
        "faults injected since the plan was set: KIND=COUNT,...");
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo agpu_dev_info = {
    .name = TYPE_AGPU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AGpuState),
    .class_init = agpu_dev_class_init,
};

static void agpu_dev_register_types(void)
{
    type_register_static(&agpu_dev_info);
}

type_init(agpu_dev_register_types)
