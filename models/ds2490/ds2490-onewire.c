/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The DS2490 engine's bus operations on a models/onewire bus (OWBus),
 * shared by the usb-ds2490 QEMU device and the host unit tests.
 *
 * Copyright (c) 2026 patchbay authors
 */
#include "ds2490-onewire.h"
#include "onewire.h"

static bool ds2490_onewire_reset(void *bus, bool *shorted)
{
    return ow_bus_reset(bus, shorted);
}

static int ds2490_onewire_touch_bit(void *bus, int bit)
{
    return ow_bus_touch_bit(bus, bit);
}

static void ds2490_onewire_set_speed(void *bus, int speed)
{
    ow_bus_set_speed(bus, speed);
}

static void ds2490_onewire_strong_pullup(void *bus, bool active)
{
    ow_bus_set_pullup(bus, active);
}

const DS2490BusOps ds2490_onewire_bus_ops = {
    .reset = ds2490_onewire_reset,
    .touch_bit = ds2490_onewire_touch_bit,
    .set_speed = ds2490_onewire_set_speed,
    .strong_pullup = ds2490_onewire_strong_pullup,
};
