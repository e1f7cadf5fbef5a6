/*
 * A 1-Wire bus as a QOM bus, and the abstract 1-Wire slave device.
 *
 * The bus wraps patchbay's plain C OWBus (onewire.h); a slave device wraps
 * one OWSlave core. Masters (usb-ds2490) own the bus; slaves are created
 * with -device w1-ds18b20,bus=<master id>.0,rom=28-00000a1b2c3d,...
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_USB_ONEWIRE_BUS_H
#define HW_USB_ONEWIRE_BUS_H

#include "hw/qdev-core.h"
#include "qom/object.h"
#include "onewire.h"

#define TYPE_ONEWIRE_BUS "onewire-bus"
OBJECT_DECLARE_SIMPLE_TYPE(OneWireBus, ONEWIRE_BUS)

struct OneWireBus {
    BusState parent_obj;

    OWBus core;
};

#define TYPE_ONEWIRE_SLAVE "onewire-slave"
OBJECT_DECLARE_TYPE(OneWireSlave, OneWireSlaveClass, ONEWIRE_SLAVE)

struct OneWireSlaveClass {
    DeviceClass parent_class;

    uint8_t family;                 /* the family code the device must have */
    /* the device's core, and its initialisation from a wire-order ROM */
    OWSlave *(*core)(OneWireSlave *s);
    void (*init_core)(OneWireSlave *s, const uint8_t *rom);
};

struct OneWireSlave {
    DeviceState parent_obj;

    char *rom;                      /* "28-00000a1b2c3d", as Linux names it */
    int32_t crc;                    /* -1: computed; else forced (faults) */
    bool allow_family_mismatch;
};

/*
 * Migration of the plain C cores' run-time state; the ops/bus/clock links,
 * the slave array and the configuration (ROM, OWBus.instant) are not part
 * of it. post_load rejects out-of-range ring positions and state values.
 */
extern const VMStateDescription vmstate_onewire_bus_core;
extern const VMStateDescription vmstate_onewire_slave_core;

#define VMSTATE_ONEWIRE_BUS_CORE(_field, _state)                          \
    VMSTATE_STRUCT(_field, _state, 1, vmstate_onewire_bus_core, OWBus)
#define VMSTATE_ONEWIRE_SLAVE_CORE(_field, _state)                        \
    VMSTATE_STRUCT(_field, _state, 1, vmstate_onewire_slave_core, OWSlave)

void onewire_bus_init(OneWireBus *bus, size_t size, DeviceState *parent,
                      int64_t (*now_ns)(void *opaque), void *opaque);

static inline OWBus *onewire_bus_core(OneWireBus *bus)
{
    return &bus->core;
}

#endif
