/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-ds2401.c - DS2401 silicon serial number (family 0x01): ROM only.
 *
 * No function commands: once selected it releases the bus until the
 * next reset.  READ ROM is also accepted as 0x0F (DS1990A legacy).
 */
#include <string.h>

#include "onewire.h"

static const OWSlaveOps ds2401_ops = {
    .features = OW_FEAT_READ_LEGACY,
    /* no select: the base then releases the bus until reset */
};

void ow_ds2401_init(OWDS2401 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    ow_slave_init(&d->parent, &ds2401_ops, rom);
}
