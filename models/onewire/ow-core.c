/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-core.c - 1-Wire bus, ROM layer, CRCs and ROM text.
 *
 * See onewire.h for the model.  Everything here is bounded by the slot
 * the master offers: one call handles one reset or one slot.
 */
#include <string.h>

#include "onewire.h"

#define OW_TX_MASK (OW_TX_RING - 1)

/* ---- CRCs ---- */

uint8_t ow_crc8(uint8_t crc, const uint8_t *data, size_t len)
{
    size_t i;
    int b;

    for (i = 0; i < len; i++) {
        crc ^= data[i];
        for (b = 0; b < 8; b++) {
            crc = (crc & 1) ? (uint8_t)((crc >> 1) ^ 0x8C)
                            : (uint8_t)(crc >> 1);
        }
    }
    return crc;
}

uint16_t ow_crc16(uint16_t crc, const uint8_t *data, size_t len)
{
    size_t i;
    int b;

    for (i = 0; i < len; i++) {
        crc ^= data[i];
        for (b = 0; b < 8; b++) {
            crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001)
                            : (uint16_t)(crc >> 1);
        }
    }
    return crc;
}

/* ---- ROM ids ---- */

void ow_rom_set_crc(uint8_t rom[OW_ROM_LEN])
{
    rom[OW_ROM_LEN - 1] = ow_crc8(0, rom, OW_ROM_LEN - 1);
}

bool ow_rom_crc_valid(const uint8_t rom[OW_ROM_LEN])
{
    return ow_crc8(0, rom, OW_ROM_LEN) == 0;
}

uint64_t ow_rom_to_u64(const uint8_t rom[OW_ROM_LEN])
{
    uint64_t v = 0;
    int i;

    for (i = 0; i < OW_ROM_LEN; i++) {
        v |= (uint64_t)rom[i] << (8 * i);
    }
    return v;
}

void ow_rom_from_u64(uint64_t v, uint8_t rom[OW_ROM_LEN])
{
    int i;

    for (i = 0; i < OW_ROM_LEN; i++) {
        rom[i] = v >> (8 * i);
    }
}

static int ow_hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* two hex digits at p (p[0] and p[1] must be readable or NUL) */
static int ow_hex_byte(const char *p)
{
    int hi = ow_hex_digit(p[0]);
    int lo;

    if (hi < 0) {
        return -1;
    }
    lo = ow_hex_digit(p[1]);
    if (lo < 0) {
        return -1;
    }
    return (hi << 4) | lo;
}

bool ow_rom_parse(const char *text, uint8_t rom[OW_ROM_LEN])
{
    uint8_t tmp[OW_ROM_LEN];
    int i, v;

    if (!text) {
        return false;
    }
    /* "ff-" then 12 digits then NUL; each check stops at a NUL */
    v = ow_hex_byte(text);
    if (v < 0 || text[2] != '-') {
        return false;
    }
    tmp[0] = (uint8_t)v;
    /* the serial is printed MSB first, sent LSB first */
    for (i = 0; i < 6; i++) {
        v = ow_hex_byte(text + 3 + 2 * i);
        if (v < 0) {
            return false;
        }
        tmp[6 - i] = (uint8_t)v;
    }
    if (text[15] != '\0') {
        return false;
    }
    ow_rom_set_crc(tmp);
    memcpy(rom, tmp, OW_ROM_LEN);
    return true;
}

void ow_rom_format(const uint8_t rom[OW_ROM_LEN], char out[OW_ROM_TEXT_LEN])
{
    static const char hex[] = "0123456789abcdef";
    int i;

    out[0] = hex[rom[0] >> 4];
    out[1] = hex[rom[0] & 15];
    out[2] = '-';
    for (i = 0; i < 6; i++) {
        out[3 + 2 * i] = hex[rom[6 - i] >> 4];
        out[4 + 2 * i] = hex[rom[6 - i] & 15];
    }
    out[15] = '\0';
}

/* ---- clock ---- */

int64_t ow_bus_now(const OWBus *bus)
{
    if (!bus || !bus->now_ns) {
        return 0;
    }
    return bus->now_ns(bus->clock_opaque);
}

static bool ow_bus_is_instant(const OWBus *bus)
{
    return !bus || bus->instant || !bus->now_ns;
}

int64_t ow_slave_deadline(const OWSlave *s, int64_t dur_ns)
{
    int64_t now = ow_bus_now(s->bus);

    if (ow_bus_is_instant(s->bus) || dur_ns <= 0) {
        return now;
    }
    if (now > INT64_MAX - dur_ns) {
        return INT64_MAX;
    }
    return now + dur_ns;
}

bool ow_slave_reached(const OWSlave *s, int64_t deadline)
{
    if (ow_bus_is_instant(s->bus)) {
        return true;
    }
    return ow_bus_now(s->bus) >= deadline;
}

/* ---- slave transmit machinery ---- */

static void ow_slave_io_clear(OWSlave *s)
{
    s->rx_shift = 0;
    s->rx_bits = 0;
    s->slot_tx = false;
    s->tx_head = 0;
    s->tx_count = 0;
    s->tx_byte = 0;
    s->tx_bits = 0;
    s->tail = OW_TAIL_RX;
    s->tail_byte = 0xFF;
    s->busy_until = 0;
}

size_t ow_slave_tx_push(OWSlave *s, const uint8_t *data, size_t len)
{
    size_t n = 0;

    while (n < len && s->tx_count < OW_TX_RING) {
        s->tx_ring[(s->tx_head + s->tx_count) & OW_TX_MASK] = data[n];
        s->tx_count++;
        n++;
    }
    return n;
}

void ow_slave_tx_push_byte(OWSlave *s, uint8_t byte)
{
    ow_slave_tx_push(s, &byte, 1);
}

void ow_slave_tx_push_crc16(OWSlave *s, uint16_t crc)
{
    uint8_t b[2];

    crc = (uint16_t)~crc;
    b[0] = (uint8_t)crc;
    b[1] = (uint8_t)(crc >> 8);
    ow_slave_tx_push(s, b, 2);
}

void ow_slave_set_tail(OWSlave *s, uint8_t tail, uint8_t tail_byte)
{
    s->tail = tail;
    s->tail_byte = tail_byte;
}

void ow_slave_set_busy(OWSlave *s, uint8_t tail, int64_t deadline)
{
    s->tail = tail;
    s->busy_until = deadline;
}

/* take the next byte from the ring into tx_byte, if any */
static bool ow_slave_tx_pop(OWSlave *s)
{
    if (s->tx_count == 0) {
        return false;
    }
    s->tx_byte = s->tx_ring[s->tx_head & OW_TX_MASK];
    s->tx_head = (s->tx_head + 1) & OW_TX_MASK;
    s->tx_count--;
    s->tx_bits = 8;
    return true;
}

/*
 * Function layer drive for one slot.  Sets slot_tx: whether the slave
 * transmits (true) or receives (false) in this slot.
 */
static int ow_slave_tx_drive(OWSlave *s)
{
    int round;

    s->slot_tx = true;
    if (s->tx_count > OW_TX_RING) {
        s->tx_count = 0;        /* corrupt state: drop it */
    }
    /* the callback gets one chance to refill: bounded */
    for (round = 0; s->tx_bits == 0 && round < 2; round++) {
        if (ow_slave_tx_pop(s)) {
            break;
        }
        switch (s->tail) {
        case OW_TAIL_RX:
            s->slot_tx = false;
            return 1;
        case OW_TAIL_REPEAT:
            s->tx_byte = s->tail_byte;
            s->tx_bits = 8;
            break;
        case OW_TAIL_CALLBACK:
            if (round == 0 && s->ops && s->ops->tx_more) {
                s->ops->tx_more(s);
                continue;
            }
            s->tail = OW_TAIL_ONES;
            return 1;
        case OW_TAIL_BUSY_ZEROS:
            return ow_slave_reached(s, s->busy_until) ? 1 : 0;
        case OW_TAIL_BUSY_AA:
            if (!ow_slave_reached(s, s->busy_until)) {
                return 1;
            }
            s->tail = OW_TAIL_REPEAT;
            s->tail_byte = 0xAA;
            s->tx_byte = 0xAA;
            s->tx_bits = 8;
            break;
        default:
            s->tail = OW_TAIL_ONES;
            return 1;
        }
    }
    if (s->tx_bits == 0 || s->tx_bits > 8) {
        s->tx_bits = 0;
        return 1;
    }
    return (s->tx_byte >> (8 - s->tx_bits)) & 1;
}

/* ---- ROM layer ---- */

static int ow_rom_bit(const OWSlave *s, unsigned i)
{
    return (s->rom[(i >> 3) & 7] >> (i & 7)) & 1;
}

static void ow_slave_select(OWSlave *s, bool rc)
{
    s->rom_state = OW_RS_FUNC;
    s->rc = rc;
    ow_slave_io_clear(s);
    if (s->ops && s->ops->select) {
        s->ops->select(s);
    } else {
        s->tail = OW_TAIL_ONES;
    }
}

static bool ow_slave_has(const OWSlave *s, uint32_t feature)
{
    return s->ops && (s->ops->features & feature);
}

static void ow_rom_command(OWSlave *s, uint8_t cmd)
{
    if (cmd != OW_ROM_RESUME) {
        /* every ROM command but RESUME clears RC; success sets it again */
        s->rc = false;
    }
    s->rom_bit = 0;
    s->search_phase = 0;

    switch (cmd) {
    case OW_ROM_READ_LEGACY:
        if (!ow_slave_has(s, OW_FEAT_READ_LEGACY)) {
            break;
        }
        /* fall through */
    case OW_ROM_READ:
        ow_slave_select(s, false);
        /* the ROM goes out first, then the function layer runs */
        s->tx_head = 0;
        s->tx_count = 0;
        ow_slave_tx_push(s, s->rom, OW_ROM_LEN);
        return;
    case OW_ROM_SKIP:
        ow_slave_select(s, false);
        return;
    case OW_ROM_MATCH:
        s->od_before = s->overdrive;
        s->rom_state = OW_RS_MATCH;
        return;
    case OW_ROM_SEARCH:
        s->rom_state = OW_RS_SEARCH;
        return;
    case OW_ROM_COND_SEARCH:
        if (ow_slave_has(s, OW_FEAT_COND_SEARCH) &&
            s->ops->search_condition && s->ops->search_condition(s)) {
            s->rom_state = OW_RS_SEARCH;
            return;
        }
        break;
    case OW_ROM_RESUME:
        if (ow_slave_has(s, OW_FEAT_RESUME) && s->rc) {
            ow_slave_select(s, true);
            return;
        }
        break;
    case OW_ROM_OD_SKIP:
        if (ow_slave_has(s, OW_FEAT_OVERDRIVE)) {
            s->overdrive = true;
            ow_slave_select(s, false);
            return;
        }
        break;
    case OW_ROM_OD_MATCH:
        if (ow_slave_has(s, OW_FEAT_OVERDRIVE)) {
            /* the 64 ROM bits already come at overdrive speed */
            s->od_before = s->overdrive;
            s->overdrive = true;
            s->rom_state = OW_RS_MATCH;
            return;
        }
        break;
    default:
        break;
    }
    /* unknown or unsupported: wait for the next reset */
    s->rom_state = OW_RS_IDLE;
}

/* ROM layer drive for one slot */
static int ow_slave_drive(OWSlave *s)
{
    int bit;

    s->slot_tx = false;
    switch (s->rom_state) {
    case OW_RS_SEARCH:
        bit = ow_rom_bit(s, s->rom_bit);
        if (s->search_phase == 0) {
            return bit;
        }
        if (s->search_phase == 1) {
            return !bit;
        }
        return 1;
    case OW_RS_FUNC:
        return ow_slave_tx_drive(s);
    default:
        return 1;
    }
}

static void ow_slave_sample(OWSlave *s, int level)
{
    uint8_t byte;

    switch (s->rom_state) {
    case OW_RS_CMD:
        s->rx_shift |= (uint8_t)(level << (s->rx_bits & 7));
        if (++s->rx_bits >= 8) {
            byte = s->rx_shift;
            s->rx_shift = 0;
            s->rx_bits = 0;
            ow_rom_command(s, byte);
        }
        break;
    case OW_RS_MATCH:
        if (level != ow_rom_bit(s, s->rom_bit)) {
            s->overdrive = s->od_before;
            s->rom_state = OW_RS_IDLE;
        } else if (++s->rom_bit >= 64) {
            ow_slave_select(s, true);
        }
        break;
    case OW_RS_SEARCH:
        if (s->search_phase < 2) {
            s->search_phase++;
        } else if (level != ow_rom_bit(s, s->rom_bit)) {
            s->rom_state = OW_RS_IDLE;
        } else {
            s->search_phase = 0;
            if (++s->rom_bit >= 64) {
                /* the survivor is selected as by MATCH ROM */
                ow_slave_select(s, true);
            }
        }
        break;
    case OW_RS_FUNC:
        if (s->slot_tx) {
            if (s->tx_bits > 0) {
                s->tx_bits--;
            }
            break;
        }
        s->rx_shift |= (uint8_t)(level << (s->rx_bits & 7));
        if (++s->rx_bits >= 8) {
            byte = s->rx_shift;
            s->rx_shift = 0;
            s->rx_bits = 0;
            if (s->ops && s->ops->rx_byte) {
                s->ops->rx_byte(s, byte);
            } else {
                s->tail = OW_TAIL_ONES;
            }
        }
        break;
    default:
        /* IDLE, or a corrupt state: wait for reset */
        s->rom_state = OW_RS_IDLE;
        break;
    }
}

/* ---- slaves: common part ---- */

void ow_slave_power_on(OWSlave *s)
{
    s->rom_state = OW_RS_IDLE;
    s->rom_bit = 0;
    s->search_phase = 0;
    s->overdrive = false;
    s->od_before = false;
    s->rc = false;
    ow_slave_io_clear(s);
    if (s->ops && s->ops->power_on) {
        s->ops->power_on(s);
    }
}

void ow_slave_set_present(OWSlave *s, bool present)
{
    if (present && !s->present) {
        ow_slave_power_on(s);
    }
    s->present = present;
    if (s->bus) {
        ow_bus_invalidate(s->bus);
    }
}

void ow_slave_init(OWSlave *s, const OWSlaveOps *ops,
                   const uint8_t rom[OW_ROM_LEN])
{
    s->ops = ops;
    s->bus = NULL;
    memcpy(s->rom, rom, OW_ROM_LEN);
    s->present = true;
    ow_slave_power_on(s);
}

/* ---- bus ---- */

void ow_slave_guest_error(const OWSlave *s, const char *fmt, ...)
{
    va_list ap;

    if (s->bus && s->bus->guest_error) {
        va_start(ap, fmt);
        s->bus->guest_error(s->bus->guest_error_opaque, s, fmt, ap);
        va_end(ap);
    }
}

void ow_bus_init(OWBus *bus, int64_t (*now_ns)(void *opaque), void *opaque)
{
    memset(bus, 0, sizeof(*bus));
    bus->now_ns = now_ns;
    bus->clock_opaque = opaque;
    bus->speed = OW_SPEED_REGULAR;
}

static int ow_bus_count(const OWBus *bus)
{
    if (bus->nslaves < 0) {
        return 0;
    }
    return bus->nslaves > OW_MAX_SLAVES ? OW_MAX_SLAVES : bus->nslaves;
}

int ow_bus_attach(OWBus *bus, OWSlave *s)
{
    int i, n = ow_bus_count(bus);

    if (s->bus && s->bus != bus) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (bus->slaves[i] == s) {
            return 0;
        }
    }
    if (n >= OW_MAX_SLAVES) {
        return -1;
    }
    bus->slaves[n] = s;
    bus->nslaves = n + 1;
    s->bus = bus;
    ow_bus_invalidate(bus);
    return 0;
}

void ow_bus_detach(OWBus *bus, OWSlave *s)
{
    int i, j, n = ow_bus_count(bus);

    for (i = 0; i < n; i++) {
        if (bus->slaves[i] == s) {
            for (j = i; j + 1 < n; j++) {
                bus->slaves[j] = bus->slaves[j + 1];
            }
            bus->slaves[n - 1] = NULL;
            bus->nslaves = n - 1;
            s->bus = NULL;
            /* the cache must not keep a pointer to s */
            ow_bus_invalidate(bus);
            return;
        }
    }
}

void ow_bus_invalidate(OWBus *bus)
{
    bus->active_valid = false;
    bus->nactive = 0;
}

/*
 * Idle slaves (and absent ones) ignore slots until the next reset, so a
 * slot need not visit them; the reset that wakes them rebuilds the list.
 */
static void ow_bus_find_active(OWBus *bus)
{
    int i, n = ow_bus_count(bus);

    bus->nactive = 0;
    for (i = 0; i < n; i++) {
        OWSlave *s = bus->slaves[i];

        if (s && s->present && s->rom_state != OW_RS_IDLE) {
            bus->active[bus->nactive++] = s;
        }
    }
    bus->active_valid = true;
}

static void ow_bus_tick(OWBus *bus)
{
    int i, n = ow_bus_count(bus);

    for (i = 0; i < n; i++) {
        OWSlave *s = bus->slaves[i];

        if (s && s->present && s->ops && s->ops->tick) {
            s->ops->tick(s);
        }
    }
}

bool ow_bus_reset(OWBus *bus, bool *shorted)
{
    bool od = bus->speed == OW_SPEED_OVERDRIVE;
    bool presence = false;
    int i, n;

    bus->resets++;
    if (shorted) {
        *shorted = bus->shorted;
    }
    if (bus->shorted) {
        return false;
    }
    ow_bus_tick(bus);
    n = ow_bus_count(bus);
    for (i = 0; i < n; i++) {
        OWSlave *s = bus->slaves[i];
        unsigned partial;

        if (!s || !s->present) {
            continue;
        }
        /* a short overdrive reset is a slot to regular-speed slaves */
        if (od && !s->overdrive) {
            continue;
        }
        if (!od) {
            s->overdrive = false;
        }
        partial = (s->rom_state == OW_RS_FUNC && !s->slot_tx) ?
                  (s->rx_bits & 7) : 0;
        if (s->ops && s->ops->reset) {
            s->ops->reset(s, partial);
        }
        ow_slave_io_clear(s);
        s->rom_state = OW_RS_CMD;
        s->rom_bit = 0;
        s->search_phase = 0;
        presence = true;
    }
    ow_bus_find_active(bus);
    return presence;
}

static bool ow_slave_on_slot(const OWBus *bus, const OWSlave *s)
{
    return s && s->present &&
           s->overdrive == (bus->speed == OW_SPEED_OVERDRIVE);
}

int ow_bus_touch_bit(OWBus *bus, int bit)
{
    int level = bit ? 1 : 0;
    int i, j, n;

    bus->slots++;
    if (bus->shorted) {
        return 0;
    }
    if (!bus->active_valid) {
        ow_bus_find_active(bus);
    }
    n = bus->nactive;
    bus->visits += n;
    /* only the slaves a slot concerns look at the time (and the pins) */
    for (i = 0; i < n; i++) {
        OWSlave *s = bus->active[i];

        if (s->ops && s->ops->tick) {
            s->ops->tick(s);
        }
    }
    for (i = 0; i < n; i++) {
        if (ow_slave_on_slot(bus, bus->active[i])) {
            level &= ow_slave_drive(bus->active[i]);
        }
    }
    /* sample, and drop those that went idle until the next reset */
    for (i = j = 0; i < n; i++) {
        OWSlave *s = bus->active[i];

        if (ow_slave_on_slot(bus, s)) {
            ow_slave_sample(s, level);
        }
        if (s->rom_state != OW_RS_IDLE) {
            bus->active[j++] = s;
        }
    }
    bus->nactive = j;
    return level;
}

uint8_t ow_bus_touch_byte(OWBus *bus, uint8_t byte)
{
    uint8_t in = 0;
    int i;

    for (i = 0; i < 8; i++) {
        if (ow_bus_touch_bit(bus, (byte >> i) & 1)) {
            in |= (uint8_t)(1u << i);
        }
    }
    return in;
}

void ow_bus_set_speed(OWBus *bus, int speed)
{
    if (speed == OW_SPEED_REGULAR || speed == OW_SPEED_FLEXIBLE ||
        speed == OW_SPEED_OVERDRIVE) {
        bus->speed = speed;
    }
}

void ow_bus_set_pullup(OWBus *bus, bool on)
{
    int i, n = ow_bus_count(bus);

    bus->pullup = on;
    for (i = 0; i < n; i++) {
        OWSlave *s = bus->slaves[i];

        if (s && s->present && s->ops && s->ops->pullup) {
            s->ops->pullup(s, on);
        }
    }
}
