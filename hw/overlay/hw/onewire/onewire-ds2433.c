/*
 * DS2433 4096-bit 1-Wire EEPROM, contents in RAM (-device onewire-ds2433):
 * 512 bytes of memory.
 *
 * The chip is models/onewire's OWDS2433 core (ow-ds2431.c); the glue is
 * that of every EEPROM of the family (onewire-eeprom.h). See patchbay's
 * docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "onewire-eeprom.h"

ONEWIRE_EEPROM_DEFINE_TYPE(ds2433, DS2433, 0x23,
                           "DS2433 4096-bit 1-Wire EEPROM")
