/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ow-ds2431.c - DS2431 1 kbit EEPROM (family 0x2D) and DS2433 4 kbit
 * EEPROM (family 0x23): scratchpad, authorized copy, read memory.
 *
 * Both share one implementation, parameterised by OWEepromVariant:
 * DS2431: 144 bytes (0x80-0x8F protection/user registers), 8-byte
 *         scratchpad, only full aligned rows are copied, CRC16 after a
 *         full READ SCRATCHPAD, page protection (55h/AAh) honoured.
 * DS2433: 512 bytes, 32-byte scratchpad, partial copies T..E, READ
 *         SCRATCHPAD ends in 1s without a CRC.
 */
#include <string.h>

#include "onewire.h"

#define EE_WRITE_SP 0x0F
#define EE_READ_SP 0xAA
#define EE_COPY_SP 0x55
#define EE_READ_MEM 0xF0
#define EE_IGNORE 0xFF          /* unknown command: wait for reset */

#define DS2431_REG_BASE 0x80
#define DS2431_COPY_PROTECT 0x84
#define DS2431_FACTORY 0x85

typedef struct OWEepromVariant {
    uint16_t mem_size;
    uint16_t addr_mask;         /* applied to TA for memory access */
    uint8_t sp_mask;            /* scratchpad size - 1 */
    bool ds2431;                /* full-row copy, protection, RS CRC */
    int64_t tprog_ns;
} OWEepromVariant;

typedef struct OWEepromView {
    const OWEepromVariant *v;
    OWEepromRegs *r;
    uint8_t *mem;
    uint8_t *sp;
} OWEepromView;

static const OWEepromVariant ds2431_variant = {
    .mem_size = OW_DS2431_MEM_SIZE,
    .addr_mask = 0xFFFF,        /* TA >= 0x90 is invalid, not wrapped */
    .sp_mask = OW_DS2431_SP_SIZE - 1,
    .ds2431 = true,
    .tprog_ns = OW_DS2431_TPROG_NS,
};

static const OWEepromVariant ds2433_variant = {
    .mem_size = OW_DS2433_MEM_SIZE,
    .addr_mask = OW_DS2433_MEM_SIZE - 1,
    .sp_mask = OW_DS2433_SP_SIZE - 1,
    .ds2431 = false,
    .tprog_ns = OW_DS2433_TPROG_NS,
};

static const OWSlaveOps ds2431_ops;

static void ee_view(OWSlave *s, OWEepromView *ev)
{
    if (s->ops == &ds2431_ops) {
        OWDS2431 *d = (OWDS2431 *)s;

        ev->v = &ds2431_variant;
        ev->r = &d->regs;
        ev->mem = d->memory;
        ev->sp = d->scratchpad;
    } else {
        OWDS2433 *d = (OWDS2433 *)s;

        ev->v = &ds2433_variant;
        ev->r = &d->regs;
        ev->mem = d->memory;
        ev->sp = d->scratchpad;
    }
}

uint32_t ow_eeprom_take_dirty(OWEepromRegs *regs)
{
    uint32_t d = regs->dirty;

    regs->dirty = 0;
    return d;
}

static bool ds2431_prot_value(uint8_t v)
{
    return v == 0x55 || v == 0xAA;
}

/*
 * How a WRITE SCRATCHPAD byte for addr is loaded (DS2431 only):
 * 0 as sent, 1 write-protected (memory data), 2 EPROM (data AND memory).
 */
static int ds2431_protection(const uint8_t *mem, uint16_t addr)
{
    uint8_t p;

    if (addr < DS2431_REG_BASE) {
        p = mem[DS2431_REG_BASE + (addr >> 5)];
        return p == 0x55 ? 1 : (p == 0xAA ? 2 : 0);
    }
    if (addr <= DS2431_COPY_PROTECT) {
        /* 55h/AAh in a protection byte also protects that byte */
        return ds2431_prot_value(mem[addr]) ? 1 : 0;
    }
    if (addr == DS2431_FACTORY) {
        return ds2431_prot_value(mem[DS2431_FACTORY]) ? 1 : 0;
    }
    if (addr <= 0x87) {
        /* factory byte AAh also protects the user bytes */
        return mem[DS2431_FACTORY] == 0xAA ? 1 : 0;
    }
    return 0;
}

static void ee_power_on(OWSlave *s)
{
    OWEepromView ev;

    ee_view(s, &ev);
    memset(ev.sp, 0xFF, (size_t)ev.v->sp_mask + 1);
    ev.r->ta = 0;
    /* scratchpad content is not valid after a loss of power */
    ev.r->es = OW_ES_PF;
    ev.r->cmd = 0;
    ev.r->nrx = 0;
    ev.r->offset = 0;
    ev.r->auth_ok = false;
    ev.r->addr = 0;
    ev.r->crc = 0;
}

static void ee_reset(OWSlave *s, unsigned partial_bits)
{
    OWEepromView ev;

    ee_view(s, &ev);
    /* stopped inside a data byte of WRITE SCRATCHPAD */
    if (ev.r->cmd == EE_WRITE_SP && ev.r->nrx >= 2 && partial_bits) {
        ev.r->es |= OW_ES_PF;
    }
    ev.r->cmd = 0;
    ev.r->nrx = 0;
}

static void ee_select(OWSlave *s)
{
    ee_reset(s, 0);
}

static void ee_write_sp_byte(OWSlave *s, OWEepromView *ev, uint8_t byte)
{
    OWEepromRegs *r = ev->r;
    uint8_t mask = ev->v->sp_mask;
    uint8_t off;
    uint16_t addr;

    r->crc = ow_crc16(r->crc, &byte, 1);
    if (r->nrx == 0) {
        r->addr = byte;
        return;
    }
    if (r->nrx == 1) {
        r->ta = (uint16_t)(r->addr | (byte << 8));
        r->offset = (uint8_t)(r->ta & mask);
        /* AA and PF cleared, E starts at T */
        r->es = r->offset;
        return;
    }
    off = r->offset;
    if (off > mask) {
        ow_slave_guest_error(s, "WRITE SCRATCHPAD: write past the end of "
                             "the scratchpad: TA 0x%04x, data 0x%02x",
                             r->ta, byte);
        return;
    }
    addr = (uint16_t)(((r->ta & ~mask) + off) & ev->v->addr_mask);
    if (ev->v->ds2431 && addr < ev->v->mem_size) {
        switch (ds2431_protection(ev->mem, addr)) {
        case 1:
            byte = ev->mem[addr];
            break;
        case 2:
            byte &= ev->mem[addr];
            break;
        default:
            break;
        }
    }
    ev->sp[off & mask] = byte;
    r->es = off;
    r->offset = (uint8_t)(off + 1);
    if (r->offset > mask) {
        /* end of scratchpad: CRC of command, TA and data as sent */
        ow_slave_tx_push_crc16(s, r->crc);
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
    }
}

static void ee_read_sp(OWSlave *s, OWEepromView *ev)
{
    OWEepromRegs *r = ev->r;
    uint8_t mask = ev->v->sp_mask;
    uint8_t hdr[4];
    uint8_t t = (uint8_t)(r->ta & mask);
    uint16_t crc;

    hdr[0] = EE_READ_SP;
    hdr[1] = (uint8_t)r->ta;
    hdr[2] = (uint8_t)(r->ta >> 8);
    hdr[3] = r->es;
    ow_slave_tx_push(s, &hdr[1], 3);
    ow_slave_tx_push(s, &ev->sp[t], (size_t)(mask + 1 - t));
    if (ev->v->ds2431) {
        crc = ow_crc16(0, hdr, 4);
        crc = ow_crc16(crc, &ev->sp[t], (size_t)(mask + 1 - t));
        ow_slave_tx_push_crc16(s, crc);
    }
    ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
}

static bool ds2431_copy_allowed(OWEepromView *ev)
{
    OWEepromRegs *r = ev->r;
    const uint8_t *mem = ev->mem;

    /* only whole, aligned rows that were written completely */
    if ((r->ta & 7) != 0 || (r->es & 7) != 7 || r->ta >= ev->v->mem_size) {
        return false;
    }
    if (ds2431_prot_value(mem[DS2431_COPY_PROTECT])) {
        if (r->ta >= DS2431_REG_BASE ||
            mem[DS2431_REG_BASE + (r->ta >> 5)] == 0x55) {
            return false;
        }
    }
    return true;
}

static void ee_copy(OWSlave *s, OWEepromView *ev)
{
    OWEepromRegs *r = ev->r;
    uint8_t mask = ev->v->sp_mask;
    unsigned t = r->ta & mask, e = r->es & mask, i;
    uint16_t base = (uint16_t)(r->ta & ev->v->addr_mask & ~mask);

    if (!r->auth_ok || (r->es & OW_ES_PF)) {
        ow_slave_guest_error(s, "COPY SCRATCHPAD refused: %s (TA 0x%04x, "
                             "E/S 0x%02x)", r->auth_ok ? "partial byte"
                             : "authorization code mismatch", r->ta, r->es);
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    if (ev->v->ds2431 ? !ds2431_copy_allowed(ev)
                      : (unsigned)base + mask >= ev->v->mem_size) {
        ow_slave_guest_error(s, "COPY SCRATCHPAD refused: TA 0x%04x, "
                             "E/S 0x%02x (protected, unaligned or past the "
                             "end of memory)", r->ta, r->es);
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    for (i = t; i <= e && i <= mask; i++) {
        ev->mem[base + i] = ev->sp[i];
    }
    r->dirty |= 1u << ((base >> 5) & 31);
    r->es |= OW_ES_AA;
    /* 1s while programming, then the AA loop until reset */
    ow_slave_set_busy(s, OW_TAIL_BUSY_AA,
                      ow_slave_deadline(s, ev->v->tprog_ns));
}

static void ee_rx_byte(OWSlave *s, uint8_t byte)
{
    OWEepromView ev;
    OWEepromRegs *r;

    ee_view(s, &ev);
    r = ev.r;
    switch (r->cmd) {
    case 0:
        r->cmd = byte;
        r->nrx = 0;
        switch (byte) {
        case EE_WRITE_SP:
            r->crc = ow_crc16(0, &byte, 1);
            break;
        case EE_READ_SP:
            ee_read_sp(s, &ev);
            break;
        case EE_COPY_SP:
            r->auth_ok = true;
            break;
        case EE_READ_MEM:
            break;
        default:
            ow_slave_guest_error(s, "unknown function command 0x%02x", byte);
            r->cmd = EE_IGNORE;
            ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
            break;
        }
        return;
    case EE_WRITE_SP:
        ee_write_sp_byte(s, &ev, byte);
        break;
    case EE_COPY_SP:
        if (r->nrx == 0) {
            r->auth_ok = byte == (uint8_t)r->ta;
        } else if (r->nrx == 1) {
            r->auth_ok = r->auth_ok && byte == (uint8_t)(r->ta >> 8);
        } else if (r->nrx == 2) {
            r->auth_ok = r->auth_ok && byte == r->es;
            ee_copy(s, &ev);
        }
        break;
    case EE_READ_MEM:
        if (r->nrx == 0) {
            r->addr = byte;
        } else if (r->nrx == 1) {
            r->addr = (uint16_t)(r->addr | (byte << 8));
            r->addr &= ev.v->addr_mask;
            ow_slave_set_tail(s, OW_TAIL_CALLBACK, 0xFF);
        }
        break;
    default:
        break;
    }
    if (r->nrx < 255) {
        r->nrx++;
    }
}

/* READ MEMORY: the data up to the end of memory, then 1s */
static void ee_tx_more(OWSlave *s)
{
    OWEepromView ev;
    OWEepromRegs *r;
    size_t n;

    ee_view(s, &ev);
    r = ev.r;
    if (r->cmd != EE_READ_MEM || r->addr >= ev.v->mem_size) {
        ow_slave_set_tail(s, OW_TAIL_ONES, 0xFF);
        return;
    }
    n = ev.v->mem_size - r->addr;
    if (n > 16) {
        n = 16;
    }
    n = ow_slave_tx_push(s, &ev.mem[r->addr], n);
    r->addr = (uint16_t)(r->addr + n);
}

static const OWSlaveOps ds2431_ops = {
    .features = OW_FEAT_RESUME | OW_FEAT_OVERDRIVE,
    .power_on = ee_power_on,
    .reset = ee_reset,
    .select = ee_select,
    .rx_byte = ee_rx_byte,
    .tx_more = ee_tx_more,
};

static const OWSlaveOps ds2433_ops = {
    .features = OW_FEAT_OVERDRIVE,
    .power_on = ee_power_on,
    .reset = ee_reset,
    .select = ee_select,
    .rx_byte = ee_rx_byte,
    .tx_more = ee_tx_more,
};

void ow_ds2431_init(OWDS2431 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    ow_slave_init(&d->parent, &ds2431_ops, rom);
}

void ow_ds2433_init(OWDS2433 *d, const uint8_t rom[OW_ROM_LEN])
{
    memset(d, 0, sizeof(*d));
    ow_slave_init(&d->parent, &ds2433_ops, rom);
}
