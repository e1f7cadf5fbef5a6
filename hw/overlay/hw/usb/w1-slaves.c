/*
 * 1-Wire slave devices: DS18B20, DS2431, DS2433, DS2408, DS2413, DS2401.
 *
 * Each QOM device embeds the plain C core of its chip (onewire.h); this file
 * only maps properties onto the core. Run-time inputs (temperature, PIO
 * input levels, presence) can be changed with QMP qom-set while the guest
 * runs. See patchbay's docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/module.h"
#include "onewire-bus.h"
#include "trace.h"

/* A run-time integer input stored in the chip's core. */
typedef struct W1Input {
    size_t offset;      /* of the field in the device's instance */
    size_t size;        /* 1 or 4 bytes */
    int64_t min, max;
} W1Input;

static void w1_input_get(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    const W1Input *in = opaque;
    uint8_t *field = (uint8_t *)obj + in->offset;
    int64_t value = in->size == 1 ? *field : *(int32_t *)field;

    visit_type_int(v, name, &value, errp);
}

static void w1_input_set(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    const W1Input *in = opaque;
    uint8_t *field = (uint8_t *)obj + in->offset;
    int64_t value;

    if (!visit_type_int(v, name, &value, errp)) {
        return;
    }
    if (value < in->min || value > in->max) {
        error_setg(errp, "%s must be between %" PRId64 " and %" PRId64,
                   name, in->min, in->max);
        return;
    }
    trace_onewire_slave_input(ONEWIRE_SLAVE(obj)->rom, name, value);
    if (in->size == 1) {
        *field = value;
    } else {
        *(int32_t *)field = value;
    }
}

/* What distinguishes one slave type from another, as class_data. */
typedef struct W1SlaveInfo {
    const char *desc;
    uint8_t family;
    OWSlave *(*core)(OneWireSlave *s);
    void (*init_core)(OneWireSlave *s, const uint8_t *rom);
} W1SlaveInfo;

static void w1_slave_class_init(ObjectClass *klass, void *data)
{
    const W1SlaveInfo *info = data;
    OneWireSlaveClass *sc = ONEWIRE_SLAVE_CLASS(klass);

    DEVICE_CLASS(klass)->desc = info->desc;
    sc->family = info->family;
    sc->core = info->core;
    sc->init_core = info->init_core;
}

/* DS18B20 digital thermometer */

#define TYPE_W1_DS18B20 "w1-ds18b20"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS18B20, W1_DS18B20)

struct W1DS18B20 {
    OneWireSlave parent_obj;

    OWDS18B20 core;
    int32_t initial_temperature;
    bool parasite;
};

static OWSlave *w1_ds18b20_core(OneWireSlave *s)
{
    return &W1_DS18B20(s)->core.parent;
}

static void w1_ds18b20_init_core(OneWireSlave *s, const uint8_t *rom)
{
    W1DS18B20 *d = W1_DS18B20(s);

    ow_ds18b20_init(&d->core, rom);
    d->core.temperature_mc = d->initial_temperature;
    d->core.parasite = d->parasite;
}

static const W1Input ds18b20_temperature = {
    .offset = offsetof(W1DS18B20, core.temperature_mc),
    .size = 4, .min = -55000, .max = 125000,
};

static void w1_ds18b20_get_parasite(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    bool value = W1_DS18B20(obj)->core.parasite;

    visit_type_bool(v, name, &value, errp);
}

static void w1_ds18b20_set_parasite(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    W1DS18B20 *d = W1_DS18B20(obj);
    bool value;

    if (visit_type_bool(v, name, &value, errp)) {
        d->parasite = value;
        d->core.parasite = value;
    }
}

static void w1_ds18b20_instance_init(Object *obj)
{
    W1DS18B20 *d = W1_DS18B20(obj);

    /* the temperature a real sensor would see on a desk */
    d->initial_temperature = 21500;
}

static void w1_ds18b20_get_initial(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    W1DS18B20 *d = W1_DS18B20(obj);
    int64_t value = DEVICE(obj)->realized ? d->core.temperature_mc
                                          : d->initial_temperature;

    visit_type_int(v, name, &value, errp);
}

static void w1_ds18b20_set_temperature(Object *obj, Visitor *v,
                                       const char *name, void *opaque,
                                       Error **errp)
{
    W1DS18B20 *d = W1_DS18B20(obj);

    if (DEVICE(obj)->realized) {
        w1_input_set(obj, v, name, (void *)&ds18b20_temperature, errp);
        return;
    }
    /* before realize the core does not exist yet: remember the value */
    {
        int64_t value;

        if (!visit_type_int(v, name, &value, errp)) {
            return;
        }
        if (value < ds18b20_temperature.min ||
            value > ds18b20_temperature.max) {
            error_setg(errp, "temperature must be between -55000 and "
                       "125000 (m°C)");
            return;
        }
        d->initial_temperature = value;
    }
}

static const W1SlaveInfo w1_ds18b20_info = {
    .desc = "DS18B20 1-Wire digital thermometer", .family = 0x28,
    .core = w1_ds18b20_core, .init_core = w1_ds18b20_init_core,
};

static void w1_ds18b20_class_init(ObjectClass *klass, void *data)
{
    w1_slave_class_init(klass, data);
    object_class_property_add(klass, "temperature", "int",
                              w1_ds18b20_get_initial,
                              w1_ds18b20_set_temperature, NULL, NULL);
    object_class_property_set_description(klass, "temperature",
                                          "temperature in m°C");
    object_class_property_add(klass, "parasite", "bool",
                              w1_ds18b20_get_parasite,
                              w1_ds18b20_set_parasite, NULL, NULL);
}

/* DS2431 (1 Kbit) and DS2433 (4 Kbit) EEPROMs, contents in RAM */

#define TYPE_W1_DS2431 "w1-ds2431"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS2431, W1_DS2431)

struct W1DS2431 {
    OneWireSlave parent_obj;

    OWDS2431 core;
};

static OWSlave *w1_ds2431_core(OneWireSlave *s)
{
    return &W1_DS2431(s)->core.parent;
}

static void w1_ds2431_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2431_init(&W1_DS2431(s)->core, rom);
}

static const W1SlaveInfo w1_ds2431_info = {
    .desc = "DS2431 1024-bit 1-Wire EEPROM", .family = 0x2d,
    .core = w1_ds2431_core, .init_core = w1_ds2431_init_core,
};

#define TYPE_W1_DS2433 "w1-ds2433"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS2433, W1_DS2433)

struct W1DS2433 {
    OneWireSlave parent_obj;

    OWDS2433 core;
};

static OWSlave *w1_ds2433_core(OneWireSlave *s)
{
    return &W1_DS2433(s)->core.parent;
}

static void w1_ds2433_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2433_init(&W1_DS2433(s)->core, rom);
}

static const W1SlaveInfo w1_ds2433_info = {
    .desc = "DS2433 4096-bit 1-Wire EEPROM", .family = 0x23,
    .core = w1_ds2433_core, .init_core = w1_ds2433_init_core,
};

/* DS2408 8-channel and DS2413 2-channel addressable switches */

#define TYPE_W1_DS2408 "w1-ds2408"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS2408, W1_DS2408)

struct W1DS2408 {
    OneWireSlave parent_obj;

    OWDS2408 core;
    uint8_t initial_input;
};

static OWSlave *w1_ds2408_core(OneWireSlave *s)
{
    return &W1_DS2408(s)->core.parent;
}

static void w1_ds2408_init_core(OneWireSlave *s, const uint8_t *rom)
{
    W1DS2408 *d = W1_DS2408(s);

    ow_ds2408_init(&d->core, rom);
    d->core.pio_input = d->initial_input;
}

static const W1Input ds2408_pio_input = {
    .offset = offsetof(W1DS2408, core.pio_input), .size = 1,
    .min = 0, .max = 0xff,
};
static const W1Input ds2408_initial_input = {
    .offset = offsetof(W1DS2408, initial_input), .size = 1,
    .min = 0, .max = 0xff,
};

static void w1_ds2408_instance_init(Object *obj)
{
    W1_DS2408(obj)->initial_input = 0xff;   /* every pin released */
}

#define TYPE_W1_DS2413 "w1-ds2413"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS2413, W1_DS2413)

struct W1DS2413 {
    OneWireSlave parent_obj;

    OWDS2413 core;
    uint8_t initial_input;
};

static OWSlave *w1_ds2413_core(OneWireSlave *s)
{
    return &W1_DS2413(s)->core.parent;
}

static void w1_ds2413_init_core(OneWireSlave *s, const uint8_t *rom)
{
    W1DS2413 *d = W1_DS2413(s);

    ow_ds2413_init(&d->core, rom);
    d->core.pio_input = d->initial_input;
}

static const W1Input ds2413_pio_input = {
    .offset = offsetof(W1DS2413, core.pio_input), .size = 1,
    .min = 0, .max = 3,
};
static const W1Input ds2413_initial_input = {
    .offset = offsetof(W1DS2413, initial_input), .size = 1,
    .min = 0, .max = 3,
};

static void w1_ds2413_instance_init(Object *obj)
{
    W1_DS2413(obj)->initial_input = 0x3;
}

/* "pio-input": before realize the initial level, afterwards the live one. */
static const W1Input *w1_switch_input(Object *obj)
{
    bool realized = DEVICE(obj)->realized;

    if (object_dynamic_cast(obj, TYPE_W1_DS2408)) {
        return realized ? &ds2408_pio_input : &ds2408_initial_input;
    }
    return realized ? &ds2413_pio_input : &ds2413_initial_input;
}

static void w1_switch_input_get(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    w1_input_get(obj, v, name, (void *)w1_switch_input(obj), errp);
}

static void w1_switch_input_set(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    w1_input_set(obj, v, name, (void *)w1_switch_input(obj), errp);
}

static const W1SlaveInfo w1_ds2408_info = {
    .desc = "DS2408 1-Wire 8-channel addressable switch", .family = 0x29,
    .core = w1_ds2408_core, .init_core = w1_ds2408_init_core,
};

static const W1SlaveInfo w1_ds2413_info = {
    .desc = "DS2413 1-Wire dual-channel addressable switch", .family = 0x3a,
    .core = w1_ds2413_core, .init_core = w1_ds2413_init_core,
};

/* DS2408 and DS2413: the same run-time "pio-input" */
static void w1_switch_class_init(ObjectClass *klass, void *data)
{
    w1_slave_class_init(klass, data);
    object_class_property_add(klass, "pio-input", "int", w1_switch_input_get,
                              w1_switch_input_set, NULL, NULL);
}

/* DS2401 silicon serial number: a ROM and nothing else */

#define TYPE_W1_DS2401 "w1-ds2401"
OBJECT_DECLARE_SIMPLE_TYPE(W1DS2401, W1_DS2401)

struct W1DS2401 {
    OneWireSlave parent_obj;

    OWDS2401 core;
};

static OWSlave *w1_ds2401_core(OneWireSlave *s)
{
    return &W1_DS2401(s)->core.parent;
}

static void w1_ds2401_init_core(OneWireSlave *s, const uint8_t *rom)
{
    ow_ds2401_init(&W1_DS2401(s)->core, rom);
}

static const W1SlaveInfo w1_ds2401_info = {
    .desc = "DS2401 1-Wire silicon serial number", .family = 0x01,
    .core = w1_ds2401_core, .init_core = w1_ds2401_init_core,
};

static const TypeInfo w1_slave_types[] = {
    {
        .name          = TYPE_W1_DS18B20,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS18B20),
        .instance_init = w1_ds18b20_instance_init,
        .class_init    = w1_ds18b20_class_init,
        .class_data    = (void *)&w1_ds18b20_info,
    }, {
        .name          = TYPE_W1_DS2431,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS2431),
        .class_init    = w1_slave_class_init,
        .class_data    = (void *)&w1_ds2431_info,
    }, {
        .name          = TYPE_W1_DS2433,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS2433),
        .class_init    = w1_slave_class_init,
        .class_data    = (void *)&w1_ds2433_info,
    }, {
        .name          = TYPE_W1_DS2408,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS2408),
        .instance_init = w1_ds2408_instance_init,
        .class_init    = w1_switch_class_init,
        .class_data    = (void *)&w1_ds2408_info,
    }, {
        .name          = TYPE_W1_DS2413,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS2413),
        .instance_init = w1_ds2413_instance_init,
        .class_init    = w1_switch_class_init,
        .class_data    = (void *)&w1_ds2413_info,
    }, {
        .name          = TYPE_W1_DS2401,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = sizeof(W1DS2401),
        .class_init    = w1_slave_class_init,
        .class_data    = (void *)&w1_ds2401_info,
    },
};

DEFINE_TYPES(w1_slave_types)
