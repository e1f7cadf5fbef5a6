/*
 * DS2401 1-Wire silicon serial number (-device onewire-ds2401): a ROM
 * and nothing else.
 *
 * The chip is models/onewire's OWDS2401 core (ow-ds2401.c). See
 * patchbay's docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"

OBJECT_DECLARE_SIMPLE_TYPE(OneWireDS2401State, ONEWIRE_DS2401)

struct OneWireDS2401State {
    OneWireSlave parent_obj;

    OWDS2401 core;
};

static void onewire_ds2401_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2401_init(&ONEWIRE_DS2401(s)->core, rom);
}

/* a ROM and the bus-side state machine, nothing of its own */
static const VMStateDescription vmstate_onewire_ds2401 =
    ONEWIRE_SLAVE_VMSTATE(TYPE_ONEWIRE_DS2401, OneWireDS2401State);

ONEWIRE_SLAVE_DEFINE_TYPE(onewire_ds2401, TYPE_ONEWIRE_DS2401,
                          OneWireDS2401State, 0x01,
                          "DS2401 1-Wire silicon serial number")
