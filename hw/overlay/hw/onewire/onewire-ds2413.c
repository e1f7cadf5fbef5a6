/*
 * DS2413 1-Wire dual-channel addressable switch (-device onewire-ds2413)
 *
 * The chip is models/onewire's OWDS2413 core (ow-ds2413.c); this file
 * maps QOM properties onto it. "pio-input" (bit 0 PIOA, bit 1 PIOB,
 * 1 = released) can change with qom-set while the guest runs. See
 * patchbay's docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"

/* two PIOs: bits 0 and 1 of the input and of the latch */
#define ONEWIRE_DS2413_PIOS 0x3

OBJECT_DECLARE_SIMPLE_TYPE(OneWireDS2413State, ONEWIRE_DS2413)

struct OneWireDS2413State {
    OneWireSlave parent_obj;

    uint8_t initial_input;          /* until realize */
    OWDS2413 core;
};

static void onewire_ds2413_instance_init(Object *obj)
{
    ONEWIRE_DS2413(obj)->initial_input = ONEWIRE_DS2413_PIOS;
}

static void onewire_ds2413_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2413_init(&ONEWIRE_DS2413(s)->core, rom);
}

/* latch_init is configuration that no property changes */
static const VMStateDescription vmstate_onewire_ds2413 =
    ONEWIRE_SLAVE_VMSTATE(TYPE_ONEWIRE_DS2413, OneWireDS2413State,
        VMSTATE_ONEWIRE_SWITCH_FIELDS(OneWireDS2413State),
    );

static const OneWireLimit onewire_ds2413_limits[] = {
    ONEWIRE_LIMIT(OneWireDS2413State, core.latch, ONEWIRE_DS2413_PIOS),
    { NULL }
};

static const OneWireInput onewire_ds2413_pio_input =
    ONEWIRE_INPUT("pio-input", "levels driven on PIOA (bit 0) and PIOB "
                  "(bit 1), 1 = released", OneWireDS2413State,
                  core.pio_input, initial_input, 0, ONEWIRE_DS2413_PIOS);

ONEWIRE_SLAVE_DEFINE_TYPE(onewire_ds2413, TYPE_ONEWIRE_DS2413,
                          OneWireDS2413State, 0x3a,
                          "DS2413 1-Wire dual-channel addressable switch",
                          .input = &onewire_ds2413_pio_input,
                          .limits = onewire_ds2413_limits,
                          .instance_init = onewire_ds2413_instance_init)
