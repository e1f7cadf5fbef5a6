/*
 * The DS2431 and DS2433 1-Wire EEPROMs (onewire-ds2431.c,
 * onewire-ds2433.c): the same glue around two sizes of one core
 * (models/onewire's ow-ds2431.c), contents in RAM.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ONEWIRE_ONEWIRE_EEPROM_H
#define HW_ONEWIRE_ONEWIRE_EEPROM_H

#include "migration/vmstate.h"
#include "hw/onewire/onewire-bus.h"

/*
 * ONEWIRE_EEPROM_DEFINE_TYPE(ds2431, DS2431, family, desc): the QOM type
 * TYPE_ONEWIRE_DS2431 with its state OneWireDS2431State (the OWDS2431
 * core), its VMState (the slave, then the memory, the scratchpad and the
 * copy registers; the write offset runs from T up to the end of the
 * scratchpad) and its registration.
 */
#define ONEWIRE_EEPROM_DEFINE_TYPE(_chip, _CHIP, _family, _desc)          \
    OBJECT_DECLARE_SIMPLE_TYPE(OneWire##_CHIP##State, ONEWIRE_##_CHIP)    \
                                                                          \
    struct OneWire##_CHIP##State {                                        \
        OneWireSlave parent_obj;                                          \
                                                                          \
        OW##_CHIP core;                                                   \
    };                                                                    \
                                                                          \
    static void onewire_##_chip##_init_core(OneWireSlave *s,              \
                                            const uint8_t *rom)           \
    {                                                                     \
        ow_##_chip##_init(&ONEWIRE_##_CHIP(s)->core, rom);                \
    }                                                                     \
                                                                          \
    static const VMStateDescription vmstate_onewire_##_chip =             \
        ONEWIRE_SLAVE_VMSTATE(TYPE_ONEWIRE_##_CHIP, OneWire##_CHIP##State, \
            VMSTATE_UINT8_ARRAY(core.memory, OneWire##_CHIP##State,       \
                                sizeof_field(OW##_CHIP, memory)),         \
            VMSTATE_UINT8_ARRAY(core.scratchpad, OneWire##_CHIP##State,   \
                                sizeof_field(OW##_CHIP, scratchpad)),     \
            VMSTATE_STRUCT(core.regs, OneWire##_CHIP##State, 1,           \
                           vmstate_onewire_eeprom_regs, OWEepromRegs),    \
        );                                                                \
                                                                          \
    static const OneWireLimit onewire_##_chip##_limits[] = {              \
        ONEWIRE_LIMIT(OneWire##_CHIP##State, core.regs.offset,            \
                      OW_##_CHIP##_SP_SIZE),                              \
        { NULL }                                                          \
    };                                                                    \
                                                                          \
    ONEWIRE_SLAVE_DEFINE_TYPE(onewire_##_chip, TYPE_ONEWIRE_##_CHIP,      \
                              OneWire##_CHIP##State, _family, _desc,      \
                              .limits = onewire_##_chip##_limits)

#endif /* HW_ONEWIRE_ONEWIRE_EEPROM_H */
