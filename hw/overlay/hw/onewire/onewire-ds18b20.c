/*
 * DS18B20 1-Wire digital thermometer (-device onewire-ds18b20)
 *
 * The chip is models/onewire's OWDS18B20 core (ow-ds18b20.c); this file
 * maps QOM properties onto it. "temperature" (m°C) and "parasite" can
 * change with qom-set while the guest runs. See patchbay's
 * docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"

OBJECT_DECLARE_SIMPLE_TYPE(OneWireDS18B20State, ONEWIRE_DS18B20)

struct OneWireDS18B20State {
    OneWireSlave parent_obj;

    OWDS18B20 core;
    int32_t initial_temperature;    /* m°C, until realize */
    bool parasite;                  /* until realize */
};

static void onewire_ds18b20_init_core(OneWireSlave *s, const uint8_t *rom)
{
    OneWireDS18B20State *d = ONEWIRE_DS18B20(s);

    ow_ds18b20_init(&d->core, rom);
    d->core.parasite = d->parasite;
}

static bool onewire_ds18b20_get_parasite(Object *obj, Error **errp)
{
    OneWireDS18B20State *d = ONEWIRE_DS18B20(obj);

    return DEVICE(obj)->realized ? d->core.parasite : d->parasite;
}

static void onewire_ds18b20_set_parasite(Object *obj, bool value,
                                         Error **errp)
{
    OneWireDS18B20State *d = ONEWIRE_DS18B20(obj);

    d->parasite = value;
    d->core.parasite = value;
}

static void onewire_ds18b20_instance_init(Object *obj)
{
    /* the temperature a real sensor would see on a desk */
    ONEWIRE_DS18B20(obj)->initial_temperature = 21500;
}

/*
 * parasite can change at run time (qom-set), so it moves along; the
 * other configuration (fail_conversion, require_spu, tconv_pct) keeps the
 * core's defaults, which no property changes.
 */
static const VMStateDescription vmstate_onewire_ds18b20 =
    ONEWIRE_SLAVE_VMSTATE(TYPE_ONEWIRE_DS18B20, OneWireDS18B20State,
        VMSTATE_INT32(core.temperature_mc, OneWireDS18B20State),
        VMSTATE_BOOL(core.parasite, OneWireDS18B20State),
        VMSTATE_BOOL(core.alarm, OneWireDS18B20State),
        VMSTATE_UINT8_ARRAY(core.eeprom, OneWireDS18B20State,
                            sizeof_field(OWDS18B20, eeprom)),
        VMSTATE_UINT8(core.cmd, OneWireDS18B20State),
        VMSTATE_UINT8(core.nrx, OneWireDS18B20State),
        VMSTATE_BOOL(core.converting, OneWireDS18B20State),
        VMSTATE_UINT8_ARRAY(core.scratchpad, OneWireDS18B20State,
                            sizeof_field(OWDS18B20, scratchpad)),
        VMSTATE_BOOL(core.spu_seen, OneWireDS18B20State),
        VMSTATE_INT16(core.conv_reg, OneWireDS18B20State),
        VMSTATE_INT64(core.conv_done, OneWireDS18B20State),
    );

/* the sensor's range, in m°C */
static const OneWireInput onewire_ds18b20_temperature =
    ONEWIRE_INPUT("temperature", "temperature in m°C", OneWireDS18B20State,
                  core.temperature_mc, initial_temperature, -55000, 125000);

/* the bytes of a function command received so far */
static const OneWireLimit onewire_ds18b20_limits[] = {
    ONEWIRE_LIMIT(OneWireDS18B20State, core.nrx, 3),
    { NULL }
};

static void onewire_ds18b20_class_init(ObjectClass *klass)
{
    object_class_property_add_bool(klass, "parasite",
                                   onewire_ds18b20_get_parasite,
                                   onewire_ds18b20_set_parasite);
}

ONEWIRE_SLAVE_DEFINE_TYPE(onewire_ds18b20, TYPE_ONEWIRE_DS18B20,
                          OneWireDS18B20State, 0x28,
                          "DS18B20 1-Wire digital thermometer",
                          .instance_init = onewire_ds18b20_instance_init,
                          .class_init = onewire_ds18b20_class_init,
                          .input = &onewire_ds18b20_temperature,
                          .limits = onewire_ds18b20_limits)
