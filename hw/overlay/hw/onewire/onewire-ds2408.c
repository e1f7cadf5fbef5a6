/*
 * DS2408 1-Wire 8-channel addressable switch (-device onewire-ds2408)
 *
 * The chip is models/onewire's OWDS2408 core (ow-ds2408.c); this file
 * maps QOM properties onto it. "pio-input" (the level an external circuit
 * drives on each pin, 1 = released) can change with qom-set while the
 * guest runs. See patchbay's docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"

OBJECT_DECLARE_SIMPLE_TYPE(OneWireDS2408State, ONEWIRE_DS2408)

struct OneWireDS2408State {
    OneWireSlave parent_obj;

    OWDS2408 core;
    uint8_t initial_input;          /* until realize */
};

/* CHANNEL-ACCESS READ samples per CRC (ow-ds2408.c) */
#define ONEWIRE_DS2408_SAMPLES 32

static void onewire_ds2408_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2408_init(&ONEWIRE_DS2408(s)->core, rom);
}

static void onewire_ds2408_instance_init(Object *obj)
{
    ONEWIRE_DS2408(obj)->initial_input = 0xff;     /* every pin released */
}

/* vcc and latch_init are configuration that no property changes */
static const VMStateDescription vmstate_onewire_ds2408 =
    ONEWIRE_SLAVE_VMSTATE(TYPE_ONEWIRE_DS2408, OneWireDS2408State,
        VMSTATE_ONEWIRE_SWITCH_FIELDS(OneWireDS2408State),
        VMSTATE_UINT8(core.activity, OneWireDS2408State),
        VMSTATE_UINT8(core.cs_mask, OneWireDS2408State),
        VMSTATE_UINT8(core.cs_polarity, OneWireDS2408State),
        VMSTATE_UINT8(core.control, OneWireDS2408State),
        VMSTATE_UINT8(core.last_pins, OneWireDS2408State),
        VMSTATE_UINT16(core.addr, OneWireDS2408State),
        VMSTATE_UINT16(core.crc, OneWireDS2408State),
        VMSTATE_UINT8(core.nsamples, OneWireDS2408State),
    );

static const OneWireInput onewire_ds2408_pio_input =
    ONEWIRE_INPUT("pio-input", "levels driven on P0-P7, 1 = released",
                  OneWireDS2408State, core.pio_input, initial_input,
                  0, 0xff);

static const OneWireLimit onewire_ds2408_limits[] = {
    ONEWIRE_LIMIT(OneWireDS2408State, core.nsamples, ONEWIRE_DS2408_SAMPLES),
    { NULL }
};

ONEWIRE_SLAVE_DEFINE_TYPE(onewire_ds2408, TYPE_ONEWIRE_DS2408,
                          OneWireDS2408State, 0x29,
                          "DS2408 1-Wire 8-channel addressable switch",
                          .instance_init = onewire_ds2408_instance_init,
                          .input = &onewire_ds2408_pio_input,
                          .limits = onewire_ds2408_limits)
