/*
 * A 1-Wire bus as a QOM bus, and the abstract 1-Wire slave device.
 *
 * The bus wraps patchbay's plain C OWBus (onewire.h, models/onewire); a
 * slave device wraps one OWSlave core. Masters (usb-ds2490) own the bus;
 * slaves are created with
 * -device onewire-ds18b20,bus=<master id>.0,rom=28-00000a1b2c3d,...
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ONEWIRE_ONEWIRE_BUS_H
#define HW_ONEWIRE_ONEWIRE_BUS_H

#include "hw/qdev-core.h"
#include "qom/object.h"
#include "onewire.h"    /* the core, in hw/onewire (CONFIG_ONEWIRE) */

#define TYPE_ONEWIRE_BUS "onewire-bus"
OBJECT_DECLARE_SIMPLE_TYPE(OneWireBus, ONEWIRE_BUS)

struct OneWireBus {
    BusState parent_obj;

    OWBus core;
};

#define TYPE_ONEWIRE_SLAVE "onewire-slave"
OBJECT_DECLARE_TYPE(OneWireSlave, OneWireSlaveClass, ONEWIRE_SLAVE)

typedef struct OneWireSlaveInfo OneWireSlaveInfo;

struct OneWireSlaveClass {
    DeviceClass parent_class;

    const OneWireSlaveInfo *info;   /* see below */
};

struct OneWireSlave {
    DeviceState parent_obj;

    char *rom;                      /* "28-00000a1b2c3d", as Linux names it */
    int32_t crc;                    /* -1: computed; else forced (faults) */
    bool allow_family_mismatch;
};

/* The slave devices (hw/onewire/onewire-ds*.c) */
#define TYPE_ONEWIRE_DS18B20 "onewire-ds18b20"
#define TYPE_ONEWIRE_DS2401 "onewire-ds2401"
#define TYPE_ONEWIRE_DS2408 "onewire-ds2408"
#define TYPE_ONEWIRE_DS2413 "onewire-ds2413"
#define TYPE_ONEWIRE_DS2431 "onewire-ds2431"
#define TYPE_ONEWIRE_DS2433 "onewire-ds2433"

/*
 * Migration of the plain C cores' run-time state; the ops/bus/clock links,
 * the slave array and the configuration (ROM, OWBus.instant) are not part
 * of it. post_load rejects out-of-range ring positions and state values.
 */
extern const VMStateDescription vmstate_onewire_bus_core;
extern const VMStateDescription vmstate_onewire_slave_core;
/* the scratchpad/copy state of the DS2431 and DS2433 EEPROMs (OWEepromRegs) */
extern const VMStateDescription vmstate_onewire_eeprom_regs;

#define VMSTATE_ONEWIRE_BUS_CORE(_field, _state)                          \
    VMSTATE_STRUCT(_field, _state, 1, vmstate_onewire_bus_core, OWBus)
#define VMSTATE_ONEWIRE_SLAVE_CORE(_field, _state)                        \
    VMSTATE_STRUCT(_field, _state, 1, vmstate_onewire_slave_core, OWSlave)
/*
 * A PIO switch core's input, output latch and command state (DS2408,
 * DS2413): several fields, like DEFINE_VIRTIO_COMMON_FEATURES' properties.
 */
#define VMSTATE_ONEWIRE_SWITCH_FIELDS(_state)                             \
    VMSTATE_UINT8(core.pio_input, _state),                                \
    VMSTATE_UINT8(core.latch, _state),                                    \
    VMSTATE_UINT8(core.cmd, _state),                                      \
    VMSTATE_UINT8(core.nrx, _state),                                      \
    VMSTATE_UINT8(core.wr, _state)

/* For masters: create the bus, as a child of the master's device. */
void onewire_bus_init(OneWireBus *bus, size_t size, DeviceState *parent,
                      int64_t (*now_ns)(void *opaque), void *opaque);

static inline OWBus *onewire_bus_core(OneWireBus *bus)
{
    return &bus->core;
}

/*
 * For slave devices: a run-time integer input (a temperature, PIO input
 * levels) as a QOM property. Before realize it sets the device's initial
 * value (initial_offset), which realize copies into the core; afterwards
 * it reads and writes the core's live field (offset), and post_load
 * checks the live field's range.
 */
typedef struct OneWireInput {
    const char *name;
    const char *desc;
    size_t offset;          /* of the live field in the device's instance */
    size_t initial_offset;  /* of the initial value, same type */
    size_t size;            /* 1 (uint8_t) or 4 (int32_t) */
    int64_t min, max;
} OneWireInput;

#define ONEWIRE_INPUT(_name, _desc, _state, _field, _initial, _min, _max) \
    {                                                                     \
        .name = (_name),                                                  \
        .desc = (_desc),                                                  \
        .offset = offsetof(_state, _field),                               \
        .initial_offset = offsetof(_state, _initial),                     \
        .size = sizeof_field(_state, _field),                             \
        .min = (_min),                                                    \
        .max = (_max),                                                    \
    }

/* For slave devices: a uint8_t state field that post_load range-checks */
typedef struct OneWireLimit {
    const char *name;       /* NULL ends a list */
    size_t offset;
    uint8_t max;
} OneWireLimit;

#define ONEWIRE_LIMIT(_state, _field, _max)                               \
    {                                                                     \
        .name = stringify(_field),                                        \
        .offset = offsetof(_state, _field),                               \
        .max = (_max),                                                    \
    }

/*
 * For slave devices: all that distinguishes one slave type from another.
 * onewire_slave_register() makes it a QOM type, a subclass of
 * TYPE_ONEWIRE_SLAVE.
 */
struct OneWireSlaveInfo {
    const char *name;                       /* TYPE_ONEWIRE_DS* */
    const char *desc;
    uint8_t family;                         /* the family code it must have */
    size_t instance_size;
    size_t core_offset;                     /* of its OWSlave core */
    void (*instance_init)(Object *obj);     /* or NULL */
    void (*class_init)(ObjectClass *klass); /* more properties, or NULL */
    /* the core's initialisation from a wire-order ROM */
    void (*init_core)(OneWireSlave *s, const uint8_t *rom);
    const OneWireInput *input;              /* or NULL */
    const OneWireLimit *limits;             /* or NULL */
    const VMStateDescription *vmsd;         /* ONEWIRE_SLAVE_VMSTATE */
};

void onewire_slave_register(const OneWireSlaveInfo *info);

/*
 * ONEWIRE_SLAVE_DEFINE_TYPE(prefix, TYPE, State, family, desc, ...): the
 * OneWireSlaveInfo prefix_info, with prefix_init_core and vmstate_prefix
 * and the other members given, and its registration (type_init).
 */
#define ONEWIRE_SLAVE_DEFINE_TYPE(_prefix, _type, _state, _family, _desc,  \
                                  ...)                                    \
    static const OneWireSlaveInfo _prefix##_info = {                      \
        .name = (_type),                                                  \
        .desc = (_desc),                                                  \
        .family = (_family),                                              \
        .instance_size = sizeof(_state),                                  \
        .core_offset = offsetof(_state, core.parent),                     \
        .init_core = _prefix##_init_core,                                 \
        .vmsd = &vmstate_##_prefix,                                       \
        __VA_ARGS__                                                       \
    };                                                                    \
                                                                          \
    static void _prefix##_register_types(void)                            \
    {                                                                     \
        onewire_slave_register(&_prefix##_info);                          \
    }                                                                     \
                                                                          \
    type_init(_prefix##_register_types)

static inline OWSlave *onewire_slave_core(OneWireSlave *s)
{
    const OneWireSlaveInfo *info = ONEWIRE_SLAVE_GET_CLASS(s)->info;

    return (OWSlave *)((char *)s + info->core_offset);
}

/*
 * A slave type's VMState: its OWSlave core (_state's core.parent) first,
 * then the fields given, checked by the type's input and limits after
 * loading.
 */
int onewire_slave_post_load(void *opaque, int version_id);

#define ONEWIRE_SLAVE_VMSTATE(_type, _state, ...)                         \
    {                                                                     \
        .name = (_type),                                                  \
        .version_id = 1,                                                  \
        .minimum_version_id = 1,                                          \
        .post_load = onewire_slave_post_load,                             \
        .fields = (const VMStateField[]) {                                \
            VMSTATE_ONEWIRE_SLAVE_CORE(core.parent, _state),              \
            __VA_ARGS__                                                   \
            VMSTATE_END_OF_LIST()                                         \
        },                                                                \
    }

/* For post_load: report a value out of range in TYPE's stream, -EINVAL */
int onewire_invalid_state(const char *type, const char *what, int64_t value);

#endif /* HW_ONEWIRE_ONEWIRE_BUS_H */
