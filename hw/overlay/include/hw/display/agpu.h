/*
 * patchbay agpu: an Adreno-200-like GPU for the virt machine
 *
 * What a board needs to create the device; the state struct itself is
 * defined by the glue (hw/display/agpu.h), as it embeds the core.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_DISPLAY_AGPU_PUBLIC_H
#define HW_DISPLAY_AGPU_PUBLIC_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AGPU "agpu"
OBJECT_DECLARE_SIMPLE_TYPE(AGpuState, AGPU)

#endif /* HW_DISPLAY_AGPU_PUBLIC_H */
