/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The DS2490 engine's bus operations on a models/onewire bus (OWBus).
 *
 * Copyright (c) 2026 patchbay authors
 */
#ifndef DS2490_ONEWIRE_H
#define DS2490_ONEWIRE_H

#include "ds2490-core.h"

/* Pass an OWBus * as the engine's bus argument of ds2490_init(). */
extern const DS2490BusOps ds2490_onewire_bus_ops;

#endif
