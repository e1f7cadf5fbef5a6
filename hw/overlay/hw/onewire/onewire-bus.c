/*
 * 1-Wire bus (QOM) and the abstract 1-Wire slave device, with the helpers
 * the slave devices (onewire-ds*.c) share.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"
#include "trace.h"

/* the slaves' guest errors, after the bus and the ROM (-d guest_errors) */
static void G_GNUC_PRINTF(3, 0)
onewire_bus_guest_error(void *opaque, const OWSlave *s, const char *fmt,
                        va_list ap)
{
    OneWireBus *bus = opaque;
    g_autofree char *msg = NULL;
    char rom[OW_ROM_TEXT_LEN];

    if (qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        msg = g_strdup_vprintf(fmt, ap);
        ow_rom_format(s->rom, rom);
        qemu_log("%s: %s: %s\n", BUS(bus)->name, rom, msg);
    }
}

void onewire_bus_init(OneWireBus *bus, size_t size, DeviceState *parent,
                      int64_t (*now_ns)(void *opaque), void *opaque)
{
    qbus_init(bus, size, TYPE_ONEWIRE_BUS, parent, NULL);
    ow_bus_init(&bus->core, now_ns, opaque);
    bus->core.guest_error = onewire_bus_guest_error;
    bus->core.guest_error_opaque = bus;
}

int onewire_invalid_state(const char *type, const char *what, int64_t value)
{
    error_report("%s: invalid %s %" PRId64 " in the migration stream",
                 type, what, value);
    return -EINVAL;
}

static uint8_t *onewire_input_field(Object *obj, const OneWireInput *in)
{
    return (uint8_t *)obj +
           (DEVICE(obj)->realized ? in->offset : in->initial_offset);
}

static int64_t onewire_input_read(const OneWireInput *in, const void *field)
{
    return in->size == 1 ? *(const uint8_t *)field : *(const int32_t *)field;
}

static void onewire_input_write(const OneWireInput *in, void *field,
                                int64_t value)
{
    if (in->size == 1) {
        *(uint8_t *)field = value;
    } else {
        *(int32_t *)field = value;
    }
}

/*
 * "<master's path>/onewire/28-00000a1b2c3d.a6" (ROM as Linux names it,
 * then the CRC byte, which "crc" may force): the slave's migration id, so
 * that slaves match by ROM rather than by creation order.
 */
static char *onewire_bus_get_dev_path(DeviceState *dev)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    const OWSlave *core = onewire_slave_core(s);
    BusState *bus = qdev_get_parent_bus(dev);
    g_autofree char *parent = qdev_get_dev_path(bus->parent);
    char rom[OW_ROM_TEXT_LEN];

    ow_rom_format(core->rom, rom);
    return g_strdup_printf("%s%sonewire/%s.%02x", parent ? parent : "",
                           parent ? "/" : "", rom,
                           core->rom[OW_ROM_LEN - 1]);
}

static void onewire_slave_realize(DeviceState *dev, Error **errp)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    const OneWireSlaveInfo *info = ONEWIRE_SLAVE_GET_CLASS(s)->info;
    const OneWireInput *in = info->input;
    OneWireBus *bus = ONEWIRE_BUS(qdev_get_parent_bus(dev));
    uint8_t rom[OW_ROM_LEN];
    OWBus *core_bus = onewire_bus_core(bus);

    if (!s->rom || !ow_rom_parse(s->rom, rom)) {
        error_setg(errp, "%s: rom must look like 28-00000a1b2c3d (family, "
                   "then 12 hex digits of serial), not '%s'",
                   object_get_typename(OBJECT(dev)), s->rom ? s->rom : "");
        return;
    }
    if (rom[0] != info->family && !s->allow_family_mismatch) {
        error_setg(errp, "%s: family code 0x%02x, expected 0x%02x "
                   "(allow-family-mismatch=on to insist)",
                   object_get_typename(OBJECT(dev)), rom[0], info->family);
        return;
    }
    if (s->crc > 255) {
        error_setg(errp, "crc must be -1 (computed) or 0..255, not %d",
                   s->crc);
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
    info->init_core(s, rom);
    if (in) {
        onewire_input_write(in, (uint8_t *)s + in->offset,
                            onewire_input_read(in, (uint8_t *)s +
                                               in->initial_offset));
    }
    if (ow_bus_attach(core_bus, onewire_slave_core(s)) < 0) {
        error_setg(errp, "the 1-Wire bus is full (%d slaves)", OW_MAX_SLAVES);
        return;
    }
}

static void onewire_slave_unrealize(DeviceState *dev)
{
    OneWireSlave *s = ONEWIRE_SLAVE(dev);
    OneWireBus *bus = ONEWIRE_BUS(qdev_get_parent_bus(dev));

    ow_bus_detach(onewire_bus_core(bus), onewire_slave_core(s));
}

/* "present": run-time plug/unplug; false -> true is a power cycle. */
static void onewire_slave_get_present(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    OneWireSlave *s = ONEWIRE_SLAVE(obj);
    OWSlave *core = onewire_slave_core(s);
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
    ow_slave_set_present(onewire_slave_core(s), value);
}

/* The type's OneWireInput: its initial value, then the live one. */
static void onewire_slave_get_input(Object *obj, Visitor *v,
                                    const char *name, void *opaque,
                                    Error **errp)
{
    const OneWireInput *in = opaque;
    int64_t value = onewire_input_read(in, onewire_input_field(obj, in));

    visit_type_int(v, name, &value, errp);
}

static void onewire_slave_set_input(Object *obj, Visitor *v,
                                    const char *name, void *opaque,
                                    Error **errp)
{
    const OneWireInput *in = opaque;
    int64_t value;

    if (!visit_type_int(v, name, &value, errp)) {
        return;
    }
    if (value < in->min || value > in->max) {
        error_setg(errp, "%s must be between %" PRId64 " and %" PRId64
                   ", not %" PRId64, name, in->min, in->max, value);
        return;
    }
    if (DEVICE(obj)->realized) {
        trace_onewire_slave_input(ONEWIRE_SLAVE(obj)->rom, name, value);
    }
    onewire_input_write(in, onewire_input_field(obj, in), value);
}

static int onewire_bus_core_post_load(void *opaque, int version_id)
{
    OWBus *bus = opaque;

    if (bus->speed != OW_SPEED_REGULAR && bus->speed != OW_SPEED_FLEXIBLE &&
        bus->speed != OW_SPEED_OVERDRIVE) {
        return onewire_invalid_state(TYPE_ONEWIRE_BUS, "speed", bus->speed);
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
    /* the ring positions and state enums of onewire.h, and their limits */
    const struct {
        const char *name;
        unsigned value, max;
    } checks[] = {
        { "rom_state", s->rom_state, OW_RS_FUNC },
        { "rom_bit", s->rom_bit, OW_ROM_LEN * 8 },
        { "search_phase", s->search_phase, 2 },
        { "rx_bits", s->rx_bits, 7 },
        { "tx_head", s->tx_head, OW_TX_RING - 1 },
        { "tx_count", s->tx_count, OW_TX_RING },
        { "tx_bits", s->tx_bits, 8 },
        { "tail", s->tail, OW_TAIL_BUSY_AA },
    };

    for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
        if (checks[i].value > checks[i].max) {
            return onewire_invalid_state(TYPE_ONEWIRE_SLAVE, checks[i].name,
                                         checks[i].value);
        }
    }
    /* rom_state and present came from the stream: the bus looks again */
    if (s->bus) {
        ow_bus_invalidate(s->bus);
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

/* A slave type's own state: its input and its limits (OneWireSlaveInfo) */
int onewire_slave_post_load(void *opaque, int version_id)
{
    const OneWireSlaveInfo *info = ONEWIRE_SLAVE_GET_CLASS(opaque)->info;
    const OneWireInput *in = info->input;
    const OneWireLimit *l;

    if (in) {
        int64_t value = onewire_input_read(in, (uint8_t *)opaque + in->offset);

        if (value < in->min || value > in->max) {
            return onewire_invalid_state(info->name, in->name, value);
        }
    }
    for (l = info->limits; l && l->name; l++) {
        uint8_t value = *((uint8_t *)opaque + l->offset);

        if (value > l->max) {
            return onewire_invalid_state(info->name, l->name, value);
        }
    }
    return 0;
}

/*
 * The DS2431's and DS2433's scratchpad/copy protocol. The write offset
 * runs from T up to the end of the scratchpad (a limit of the device);
 * TA and the READ MEMORY pointer may hold any value (the core checks them
 * on use).
 */
const VMStateDescription vmstate_onewire_eeprom_regs = {
    .name = "onewire-eeprom-regs",
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

static const Property onewire_slave_properties[] = {
    DEFINE_PROP_STRING("rom", OneWireSlave, rom),
    DEFINE_PROP_INT32("crc", OneWireSlave, crc, -1),
    DEFINE_PROP_BOOL("allow-family-mismatch", OneWireSlave,
                     allow_family_mismatch, false),
};

static void onewire_bus_class_init(ObjectClass *klass, void *data)
{
    BusClass *k = BUS_CLASS(klass);

    k->get_dev_path = onewire_bus_get_dev_path;
}

static void onewire_slave_base_class_init(ObjectClass *klass, void *data)
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

static void onewire_slave_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    const OneWireSlaveInfo *info = data;
    const OneWireInput *in = info->input;

    ONEWIRE_SLAVE_CLASS(klass)->info = info;
    dc->desc = info->desc;
    dc->vmsd = info->vmsd;
    if (in) {
        object_class_property_add(klass, in->name, "int",
                                  onewire_slave_get_input,
                                  onewire_slave_set_input, NULL, (void *)in);
        object_class_property_set_description(klass, in->name, in->desc);
    }
    if (info->class_init) {
        info->class_init(klass);
    }
}

void onewire_slave_register(const OneWireSlaveInfo *info)
{
    const TypeInfo type = {
        .name          = info->name,
        .parent        = TYPE_ONEWIRE_SLAVE,
        .instance_size = info->instance_size,
        .instance_init = info->instance_init,
        .class_init    = onewire_slave_class_init,
        .class_data    = (void *)info,
    };

    type_register_static(&type);   /* copies what it keeps */
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
        .class_init    = onewire_slave_base_class_init,
    },
};

DEFINE_TYPES(onewire_types)
