/*
 * DS2431 1024-bit 1-Wire EEPROM, contents in RAM (-device onewire-ds2431):
 * 128 bytes of memory and 8 of registers.
 *
 * The chip is models/onewire's OWDS2431 core (ow-ds2431.c); the glue is
 * that of every EEPROM of the family (onewire-eeprom.h). See patchbay's
 * docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "onewire-eeprom.h"

ONEWIRE_EEPROM_DEFINE_TYPE(ds2431, DS2431, 0x2d,
                           "DS2431 1024-bit 1-Wire EEPROM")
