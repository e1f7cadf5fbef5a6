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
#include "qemu/error-report.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
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
    const VMStateDescription *vmsd;
} W1SlaveInfo;

static void w1_slave_class_init(ObjectClass *klass, void *data)
{
    const W1SlaveInfo *info = data;
    OneWireSlaveClass *sc = ONEWIRE_SLAVE_CLASS(klass);

    DEVICE_CLASS(klass)->desc = info->desc;
    DEVICE_CLASS(klass)->vmsd = info->vmsd;
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

static int w1_ds18b20_post_load(void *opaque, int version_id)
{
    W1DS18B20 *d = opaque;

    if (d->core.nrx > 3 ||
        d->core.temperature_mc < ds18b20_temperature.min ||
        d->core.temperature_mc > ds18b20_temperature.max) {
        error_report("%s: invalid state in the migration stream",
                     TYPE_W1_DS18B20);
        return -EINVAL;
    }
    d->parasite = d->core.parasite;
    return 0;
}

/*
 * parasite can change at run time (qom-set), so it moves along; the
 * other configuration (fail_conversion, require_spu, tconv_pct) keeps the
 * core's defaults, which no property changes.
 */
static const VMStateDescription vmstate_w1_ds18b20 = {
    .name = TYPE_W1_DS18B20,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = w1_ds18b20_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS18B20),
        VMSTATE_INT32(core.temperature_mc, W1DS18B20),
        VMSTATE_BOOL(core.parasite, W1DS18B20),
        VMSTATE_UINT8_ARRAY(core.eeprom, W1DS18B20,
                            sizeof_field(OWDS18B20, eeprom)),
        VMSTATE_UINT8_ARRAY(core.scratchpad, W1DS18B20,
                            sizeof_field(OWDS18B20, scratchpad)),
        VMSTATE_BOOL(core.alarm, W1DS18B20),
        VMSTATE_UINT8(core.cmd, W1DS18B20),
        VMSTATE_UINT8(core.nrx, W1DS18B20),
        VMSTATE_BOOL(core.converting, W1DS18B20),
        VMSTATE_BOOL(core.spu_seen, W1DS18B20),
        VMSTATE_INT16(core.conv_reg, W1DS18B20),
        VMSTATE_INT64(core.conv_done, W1DS18B20),
        VMSTATE_END_OF_LIST()
    },
};

static const W1SlaveInfo w1_ds18b20_info = {
    .desc = "DS18B20 1-Wire digital thermometer", .family = 0x28,
    .core = w1_ds18b20_core, .init_core = w1_ds18b20_init_core,
    .vmsd = &vmstate_w1_ds18b20,
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

/* scratchpad/copy protocol state shared by both */
static const VMStateDescription vmstate_w1_eeprom_regs = {
    .name = "w1-eeprom-regs",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(ta, OWEepromRegs),
        VMSTATE_UINT8(es, OWEepromRegs),
        VMSTATE_UINT8(cmd, OWEepromRegs),
        VMSTATE_UINT8(nrx, OWEepromRegs),
        VMSTATE_UINT8(offset, OWEepromRegs),
        VMSTATE_BOOL(auth_ok, OWEepromRegs),
        VMSTATE_UINT16(addr, OWEepromRegs),
        VMSTATE_UINT16(crc, OWEepromRegs),
        VMSTATE_UINT32(dirty, OWEepromRegs),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * The write offset runs from T up to the end of the scratchpad; TA and the
 * READ MEMORY pointer may hold any value (the core checks them on use).
 */
static int w1_eeprom_check(const OWEepromRegs *regs, unsigned sp_size,
                           const char *type)
{
    if (regs->offset > sp_size) {
        error_report("%s: invalid state in the migration stream", type);
        return -EINVAL;
    }
    return 0;
}

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

static int w1_ds2431_post_load(void *opaque, int version_id)
{
    W1DS2431 *d = opaque;

    return w1_eeprom_check(&d->core.regs, OW_DS2431_SP_SIZE, TYPE_W1_DS2431);
}

static const VMStateDescription vmstate_w1_ds2431 = {
    .name = TYPE_W1_DS2431,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = w1_ds2431_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS2431),
        VMSTATE_UINT8_ARRAY(core.memory, W1DS2431, OW_DS2431_MEM_SIZE),
        VMSTATE_UINT8_ARRAY(core.scratchpad, W1DS2431, OW_DS2431_SP_SIZE),
        VMSTATE_STRUCT(core.regs, W1DS2431, 1, vmstate_w1_eeprom_regs,
                       OWEepromRegs),
        VMSTATE_END_OF_LIST()
    },
};

static const W1SlaveInfo w1_ds2431_info = {
    .desc = "DS2431 1024-bit 1-Wire EEPROM", .family = 0x2d,
    .core = w1_ds2431_core, .init_core = w1_ds2431_init_core,
    .vmsd = &vmstate_w1_ds2431,
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

static int w1_ds2433_post_load(void *opaque, int version_id)
{
    W1DS2433 *d = opaque;

    return w1_eeprom_check(&d->core.regs, OW_DS2433_SP_SIZE, TYPE_W1_DS2433);
}

static const VMStateDescription vmstate_w1_ds2433 = {
    .name = TYPE_W1_DS2433,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = w1_ds2433_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS2433),
        VMSTATE_UINT8_ARRAY(core.memory, W1DS2433, OW_DS2433_MEM_SIZE),
        VMSTATE_UINT8_ARRAY(core.scratchpad, W1DS2433, OW_DS2433_SP_SIZE),
        VMSTATE_STRUCT(core.regs, W1DS2433, 1, vmstate_w1_eeprom_regs,
                       OWEepromRegs),
        VMSTATE_END_OF_LIST()
    },
};

static const W1SlaveInfo w1_ds2433_info = {
    .desc = "DS2433 4096-bit 1-Wire EEPROM", .family = 0x23,
    .core = w1_ds2433_core, .init_core = w1_ds2433_init_core,
    .vmsd = &vmstate_w1_ds2433,
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

/* CHANNEL-ACCESS READ samples per CRC (ow-ds2408.c) */
#define W1_DS2408_SAMPLES 32

static int w1_ds2408_post_load(void *opaque, int version_id)
{
    W1DS2408 *d = opaque;

    if (d->core.nsamples > W1_DS2408_SAMPLES) {
        error_report("%s: invalid state in the migration stream",
                     TYPE_W1_DS2408);
        return -EINVAL;
    }
    return 0;
}

/* vcc and latch_init are configuration that no property changes */
static const VMStateDescription vmstate_w1_ds2408 = {
    .name = TYPE_W1_DS2408,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = w1_ds2408_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS2408),
        VMSTATE_UINT8(core.pio_input, W1DS2408),
        VMSTATE_UINT8(core.latch, W1DS2408),
        VMSTATE_UINT8(core.activity, W1DS2408),
        VMSTATE_UINT8(core.cs_mask, W1DS2408),
        VMSTATE_UINT8(core.cs_polarity, W1DS2408),
        VMSTATE_UINT8(core.control, W1DS2408),
        VMSTATE_UINT8(core.last_pins, W1DS2408),
        VMSTATE_UINT8(core.cmd, W1DS2408),
        VMSTATE_UINT8(core.nrx, W1DS2408),
        VMSTATE_UINT8(core.wr, W1DS2408),
        VMSTATE_UINT16(core.addr, W1DS2408),
        VMSTATE_UINT16(core.crc, W1DS2408),
        VMSTATE_UINT8(core.nsamples, W1DS2408),
        VMSTATE_END_OF_LIST()
    },
};

static int w1_ds2413_post_load(void *opaque, int version_id)
{
    W1DS2413 *d = opaque;

    /* two PIOs: bits 0 and 1 only */
    if (d->core.pio_input > ds2413_pio_input.max || d->core.latch > 3) {
        error_report("%s: invalid state in the migration stream",
                     TYPE_W1_DS2413);
        return -EINVAL;
    }
    return 0;
}

/* latch_init is configuration that no property changes */
static const VMStateDescription vmstate_w1_ds2413 = {
    .name = TYPE_W1_DS2413,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = w1_ds2413_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS2413),
        VMSTATE_UINT8(core.pio_input, W1DS2413),
        VMSTATE_UINT8(core.latch, W1DS2413),
        VMSTATE_UINT8(core.cmd, W1DS2413),
        VMSTATE_UINT8(core.nrx, W1DS2413),
        VMSTATE_UINT8(core.wr, W1DS2413),
        VMSTATE_END_OF_LIST()
    },
};

static const W1SlaveInfo w1_ds2408_info = {
    .desc = "DS2408 1-Wire 8-channel addressable switch", .family = 0x29,
    .core = w1_ds2408_core, .init_core = w1_ds2408_init_core,
    .vmsd = &vmstate_w1_ds2408,
};

static const W1SlaveInfo w1_ds2413_info = {
    .desc = "DS2413 1-Wire dual-channel addressable switch", .family = 0x3a,
    .core = w1_ds2413_core, .init_core = w1_ds2413_init_core,
    .vmsd = &vmstate_w1_ds2413,
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

/* a ROM and the bus-side state machine, nothing of its own */
static const VMStateDescription vmstate_w1_ds2401 = {
    .name = TYPE_W1_DS2401,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, W1DS2401),
        VMSTATE_END_OF_LIST()
    },
};

static const W1SlaveInfo w1_ds2401_info = {
    .desc = "DS2401 1-Wire silicon serial number", .family = 0x01,
    .core = w1_ds2401_core, .init_core = w1_ds2401_init_core,
    .vmsd = &vmstate_w1_ds2401,
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
