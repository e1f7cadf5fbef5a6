/*
 * 1-Wire bus (QOM) and the abstract 1-Wire slave device.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "onewire-bus.h"
#include "trace.h"

void onewire_bus_init(OneWireBus *bus, size_t size, DeviceState *parent,
                      int64_t (*now_ns)(void *opaque), void *opaque)
{
    qbus_init(bus, size, TYPE_ONEWIRE_BUS, parent, NULL);
    ow_bus_init(&bus->core, now_ns, opaque);
}

static int onewire_bus_core_post_load(void *opaque, int version_id)
{
    OWBus *bus = opaque;

    if (bus->speed != OW_SPEED_REGULAR && bus->speed != OW_SPEED_FLEXIBLE &&
        bus->speed != OW_SPEED_OVERDRIVE) {
        error_report("onewire-bus: invalid speed %d in the migration stream",
                     bus->speed);
        return -EINVAL;
    }
    return 0;
}

/* not the slave array, the clock link or instant (usb-ds2490's timing) */
const VMStateDescription vmstate_onewire_bus_core = {
    .name = "onewire-bus-core",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = onewire_bus_core_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(shorted, OWBus),
        VMSTATE_BOOL(pullup, OWBus),
        VMSTATE_INT32(speed, OWBus),
        VMSTATE_UINT64(resets, OWBus),
        VMSTATE_UINT64(slots, OWBus),
        VMSTATE_END_OF_LIST()
    },
};

static int onewire_slave_core_post_load(void *opaque, int version_id)
{
    OWSlave *s = opaque;

    /* the ring positions and state enums of onewire.h */
    if (s->rom_state > OW_RS_FUNC || s->rom_bit > OW_ROM_LEN * 8 ||
        s->search_phase > 2 || s->rx_bits >= 8 ||
        s->tx_head >= OW_TX_RING || s->tx_count > OW_TX_RING ||
        s->tx_bits > 8 || s->tail > OW_TAIL_BUSY_AA) {
        error_report("onewire-slave: invalid state in the migration stream");
        return -EINVAL;
    }
    return 0;
}

/* not the ops/bus links, nor the ROM (the "rom" and "crc" properties) */
const VMStateDescription vmstate_onewire_slave_core = {
    .name = "onewire-slave-core",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = onewire_slave_core_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(present, OWSlave),
        VMSTATE_UINT8(rom_state, OWSlave),
        VMSTATE_UINT8(rom_bit, OWSlave),
        VMSTATE_UINT8(search_phase, OWSlave),
        VMSTATE_BOOL(overdrive, OWSlave),
        VMSTATE_BOOL(od_before, OWSlave),
        VMSTATE_BOOL(rc, OWSlave),
        VMSTATE_UINT8(rx_shift, OWSlave),
        VMSTATE_UINT8(rx_bits, OWSlave),
        VMSTATE_BOOL(slot_tx, OWSlave),
        VMSTATE_UINT8_ARRAY(tx_ring, OWSlave, OW_TX_RING),
        VMSTATE_UINT8(tx_head, OWSlave),
        VMSTATE_UINT8(tx_count, OWSlave),
        VMSTATE_UINT8(tx_byte, OWSlave),
        VMSTATE_UINT8(tx_bits, OWSlave),
        VMSTATE_UINT8(tail, OWSlave),
        VMSTATE_UINT8(tail_byte, OWSlave),
        VMSTATE_INT64(busy_until, OWSlave),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * "<master's path>/w1/28-00000a1b2c3d.a6" (ROM as Linux names it, then the
 * CRC byte, which "crc" may force): the slave's migration id, so that
 * slaves match by ROM rather than by creation order.
 */
static char *onewire_bus_get_dev_path(DeviceState *dev)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    const OWSlave *core = ONEWIRE_SLAVE_GET_CLASS(s)->core(s);
    BusState *bus = qdev_get_parent_bus(dev);
    g_autofree char *parent = qdev_get_dev_path(bus->parent);
    char rom[OW_ROM_TEXT_LEN];

    ow_rom_format(core->rom, rom);
    return g_strdup_printf("%s%sw1/%s.%02x", parent ? parent : "",
                           parent ? "/" : "", rom,
                           core->rom[OW_ROM_LEN - 1]);
}

static void onewire_bus_class_init(ObjectClass *klass, void *data)
{
    BusClass *k = BUS_CLASS(klass);

    k->get_dev_path = onewire_bus_get_dev_path;
}

static void onewire_slave_realize(DeviceState *dev, Error **errp)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    OneWireSlaveClass *sc = ONEWIRE_SLAVE_GET_CLASS(s);
    OneWireBus *bus = ONEWIRE_BUS(qdev_get_parent_bus(dev));
    uint8_t rom[OW_ROM_LEN];
    OWBus *core_bus = onewire_bus_core(bus);

    if (!s->rom || !ow_rom_parse(s->rom, rom)) {
        error_setg(errp, "%s: rom must look like 28-00000a1b2c3d (family, "
                   "then 12 hex digits of serial), not '%s'",
                   object_get_typename(OBJECT(dev)), s->rom ? s->rom : "");
        return;
    }
    if (rom[0] != sc->family && !s->allow_family_mismatch) {
        error_setg(errp, "%s: family code 0x%02x, expected 0x%02x "
                   "(allow-family-mismatch=on to insist)",
                   object_get_typename(OBJECT(dev)), rom[0], sc->family);
        return;
    }
    if (s->crc > 255) {
        error_setg(errp, "crc must be -1 (computed) or 0..255");
        return;
    }
    if (s->crc >= 0) {
        rom[OW_ROM_LEN - 1] = s->crc;   /* a broken id, on purpose */
    }
    for (int i = 0; i < core_bus->nslaves; i++) {
        if (!memcmp(core_bus->slaves[i]->rom, rom, OW_ROM_LEN)) {
            error_setg(errp, "another slave on this bus has rom %s", s->rom);
            return;
        }
    }
    sc->init_core(s, rom);
    if (ow_bus_attach(core_bus, sc->core(s)) < 0) {
        error_setg(errp, "the 1-Wire bus is full (%d slaves)", OW_MAX_SLAVES);
        return;
    }
}

static void onewire_slave_unrealize(DeviceState *dev)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    OneWireBus *bus = ONEWIRE_BUS(qdev_get_parent_bus(dev));

    ow_bus_detach(onewire_bus_core(bus), ONEWIRE_SLAVE_GET_CLASS(s)->core(s));
}

/* "present": run-time plug/unplug; false -> true is a power cycle. */
static void onewire_slave_get_present(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    OneWireSlave *s = ONEWIRE_SLAVE(obj);
    OWSlave *core = ONEWIRE_SLAVE_GET_CLASS(s)->core(s);
    bool value = core->present;

    visit_type_bool(v, name, &value, errp);
}

static void onewire_slave_set_present(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    OneWireSlave *s = ONEWIRE_SLAVE(obj);
    bool value;

    if (!visit_type_bool(v, name, &value, errp)) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "present can only change on a running slave");
        return;
    }
    trace_onewire_slave_present(s->rom, value);
    ow_slave_set_present(ONEWIRE_SLAVE_GET_CLASS(s)->core(s), value);
}

static const Property onewire_slave_properties[] = {
    DEFINE_PROP_STRING("rom", OneWireSlave, rom),
    DEFINE_PROP_INT32("crc", OneWireSlave, crc, -1),
    DEFINE_PROP_BOOL("allow-family-mismatch", OneWireSlave,
                     allow_family_mismatch, false),
};

static void onewire_slave_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = onewire_slave_realize;
    dc->unrealize = onewire_slave_unrealize;
    dc->bus_type = TYPE_ONEWIRE_BUS;
    device_class_set_props(dc, onewire_slave_properties);
    object_class_property_add(klass, "present", "bool",
                              onewire_slave_get_present,
                              onewire_slave_set_present, NULL, NULL);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo onewire_types[] = {
    {
        .name          = TYPE_ONEWIRE_BUS,
        .parent        = TYPE_BUS,
        .instance_size = sizeof(OneWireBus),
        .class_init    = onewire_bus_class_init,
    }, {
        .name          = TYPE_ONEWIRE_SLAVE,
        .parent        = TYPE_DEVICE,
        .instance_size = sizeof(OneWireSlave),
        .abstract      = true,
        .class_size    = sizeof(OneWireSlaveClass),
        .class_init    = onewire_slave_class_init,
    },
};

DEFINE_TYPES(onewire_types)
