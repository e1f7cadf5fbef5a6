/*
 * patchbay agpu: an Adreno-200-like GPU for the virt machine
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_DISPLAY_AGPU_H
#define HW_DISPLAY_AGPU_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "agpu-core.h"

#define TYPE_AGPU "agpu"
OBJECT_DECLARE_SIMPLE_TYPE(AGpuState, AGPU)

struct AGpuState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    QEMUBH *bh;
    QEMUTimer *timer;

    /* properties */
    uint32_t chip_id;
    uint32_t gmem_size;
    uint32_t hang_limit;
    bool fw_strict;

    AGpuCore core;
};

#endif /* HW_DISPLAY_AGPU_H */
