/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * onewire.h - QEMU-free 1-Wire core: a bus with slaves at the time-slot
 * level, the ROM layer, search, CRCs and the emulated slave devices
 * (DS18B20, DS2431, DS2433, DS2408, DS2413, DS2401).
 *
 * Only the C standard library is used, nothing is allocated: every state
 * struct is public and filled by an init function in caller memory, so
 * the QEMU glue can embed them in QOM objects and describe them with
 * VMState.  The only pointers are the ops/bus links and the clock.
 *
 * Bus model: every slot the master offers a bit (0 = write-0, 1 = write-1
 * or read).  Each participating slave first says what it drives (1 =
 * released), the bus level is the wired AND of all of it, then every
 * slave samples that level.  Search, collisions and MATCH ROM fall out
 * of the same two-phase slot.
 *
 * Run-time inputs (the QEMU glue may write these fields at any time,
 * between bus calls):
 *   OWBus.shorted              bus short: no presence, read slots give 0
 *   OWSlave.present            via ow_slave_set_present() only
 *   OWDS18B20.temperature_mc   m°C, clamped to -55000..125000 when used
 *   OWDS2408.pio_input         external pin drive, 1 = released
 *   OWDS2413.pio_input         bit 0 PIOA, bit 1 PIOB, 1 = released
 * Configuration (set after init, before use; call ow_slave_power_on()
 * afterwards when it affects the power-on state):
 *   OWBus.instant, OWDS18B20.parasite/fail_conversion/require_spu/
 *   tconv_pct/eeprom[], OWDS2408.vcc/latch_init, OWDS2413.latch_init,
 *   OWDS2431.memory[], OWDS2433.memory[] (the EEPROM image).
 * Output for the glue: OWDS2431/OWDS2433 regs.dirty (see
 * ow_eeprom_take_dirty()) says which 32-byte blocks a copy changed.
 */
#ifndef ONEWIRE_H
#define ONEWIRE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __GNUC__
#define OW_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define OW_PRINTF(fmt, args)
#endif

#define OW_ROM_LEN 8
/*
 * Slaves per bus: above both the kernel's default max_slave_count (64,
 * drivers/w1/w1.c) and the 255 ids one DS2490 SEARCH_ACCESS returns, so
 * that a topology can go past either limit (docs/devices/ds2490.md).
 */
#define OW_MAX_SLAVES 256
#define OW_TX_RING 64           /* power of two */
#define OW_ROM_TEXT_LEN 16      /* "ff-dddddddddddd" + NUL */

/* Master speeds; the values are the DS2490 speed codes. */
#define OW_SPEED_REGULAR 0
#define OW_SPEED_FLEXIBLE 1
#define OW_SPEED_OVERDRIVE 2

/* ROM commands */
#define OW_ROM_READ 0x33
#define OW_ROM_READ_LEGACY 0x0F
#define OW_ROM_MATCH 0x55
#define OW_ROM_SKIP 0xCC
#define OW_ROM_SEARCH 0xF0
#define OW_ROM_COND_SEARCH 0xEC
#define OW_ROM_RESUME 0xA5
#define OW_ROM_OD_SKIP 0x3C
#define OW_ROM_OD_MATCH 0x69

/* OWSlaveOps.features: ROM commands beyond 33/55/CC/F0 */
#define OW_FEAT_RESUME 0x01       /* A5 */
#define OW_FEAT_OVERDRIVE 0x02    /* 3C, 69 */
#define OW_FEAT_COND_SEARCH 0x04  /* EC, participation by search_condition */
#define OW_FEAT_READ_LEGACY 0x08  /* 0F = READ ROM (DS2401) */

/* OWSlave.rom_state */
#define OW_RS_IDLE 0            /* ignore slots until the next reset */
#define OW_RS_CMD 1             /* receiving the ROM command */
#define OW_RS_MATCH 2           /* receiving the 64 ROM bits of 55/69 */
#define OW_RS_SEARCH 3          /* F0/EC bit triplets */
#define OW_RS_FUNC 4            /* selected: function layer */

/*
 * OWSlave.tail: what the function layer does once the tx ring is empty.
 * The endless streams are generated here, never stored.
 */
#define OW_TAIL_RX 0            /* receive bytes (ops->rx_byte) */
#define OW_TAIL_ONES 1          /* release the bus until reset */
#define OW_TAIL_REPEAT 2        /* send tail_byte forever */
#define OW_TAIL_CALLBACK 3      /* ask ops->tx_more for more bytes */
#define OW_TAIL_BUSY_ZEROS 4    /* 0 until busy_until, then 1s */
#define OW_TAIL_BUSY_AA 5       /* 1s until busy_until, then 0xAA loop */

typedef struct OWBus OWBus;
typedef struct OWSlave OWSlave;

/*
 * Per device type.  The base handles the ROM layer and bits <-> bytes;
 * every callback is optional.
 */
typedef struct OWSlaveOps {
    uint32_t features;                  /* OW_FEAT_* */
    /* power cycle: volatile state to its power-on value */
    void (*power_on)(OWSlave *s);
    /*
     * reset pulse seen; partial_bits = bits of an unfinished byte the
     * function layer was receiving (DS2431/DS2433 PF flag)
     */
    void (*reset)(OWSlave *s, unsigned partial_bits);
    /* the function layer was entered (SKIP, MATCH, RESUME, ...) */
    void (*select)(OWSlave *s);
    /* a byte received by the function layer */
    void (*rx_byte)(OWSlave *s, uint8_t byte);
    /* tail OW_TAIL_CALLBACK ran dry: push bytes or change the tail */
    void (*tx_more)(OWSlave *s);
    /* participates in CONDITIONAL/ALARM SEARCH (0xEC) */
    bool (*search_condition)(OWSlave *s);
    /*
     * before every reset, and every slot the slave takes part in (not
     * idle until the next reset): finish elapsed busy windows
     */
    void (*tick)(OWSlave *s);
    /* the master switched the strong pullup on or off */
    void (*pullup)(OWSlave *s, bool on);
} OWSlaveOps;

struct OWSlave {
    const OWSlaveOps *ops;
    OWBus *bus;                 /* set by ow_bus_attach() */
    uint8_t rom[OW_ROM_LEN];    /* wire order: family, serial LSB.., CRC */
    bool present;               /* run-time input: ow_slave_set_present() */

    /* ROM layer */
    uint8_t rom_state;          /* OW_RS_* */
    uint8_t rom_bit;            /* 0..63 in MATCH/SEARCH */
    uint8_t search_phase;       /* 0 bit, 1 complement, 2 direction */
    bool overdrive;             /* slave speed (3C/69) */
    bool od_before;             /* speed to restore when a 69 mismatches */
    bool rc;                    /* RESUME flag */

    /* bit <-> byte */
    uint8_t rx_shift;
    uint8_t rx_bits;
    bool slot_tx;               /* this slot's drive came from tx */
    uint8_t tx_ring[OW_TX_RING];
    uint8_t tx_head;
    uint8_t tx_count;
    uint8_t tx_byte;            /* byte being shifted out */
    uint8_t tx_bits;            /* bits of tx_byte still to send */
    uint8_t tail;               /* OW_TAIL_* */
    uint8_t tail_byte;          /* OW_TAIL_REPEAT */
    int64_t busy_until;         /* OW_TAIL_BUSY_*, bus clock ns */
};

struct OWBus {
    OWSlave *slaves[OW_MAX_SLAVES];
    int32_t nslaves;
    /*
     * The slaves a slot can concern: present and not idle until the next
     * reset (a search leaves ever fewer), so that a slot does not visit
     * every slave.  A cache rebuilt by every reset and whenever
     * active_valid is false; attach, detach, ow_slave_set_present() and
     * ow_bus_invalidate() clear it.  Not migrated.
     */
    OWSlave *active[OW_MAX_SLAVES];
    int32_t nactive;
    bool active_valid;
    bool shorted;               /* run-time input */
    bool instant;               /* every busy window ends at once */
    bool pullup;                /* strong pullup active (informational) */
    int32_t speed;              /* OW_SPEED_* */
    int64_t (*now_ns)(void *opaque);
    void *clock_opaque;
    /*
     * Slave s saw something a real chip ignores or refuses: a message
     * with the context (command, address), printf-style, without a
     * newline. Optional; set after ow_bus_init(), not migrated.
     */
    void (*guest_error)(void *opaque, const OWSlave *s, const char *fmt,
                        va_list ap) OW_PRINTF(3, 0);
    void *guest_error_opaque;
    uint64_t resets;            /* statistics */
    uint64_t slots;
    uint64_t visits;            /* slaves a slot looked at */
};

/* ---- CRCs and ROM ids ---- */

/* Dallas/Maxim CRC8, x^8+x^5+x^4+1, LSB first (reflected 0x8C) */
uint8_t ow_crc8(uint8_t crc, const uint8_t *data, size_t len);
/* CRC16 x^16+x^15+x^2+1, LSB first (reflected 0xA001, Linux crc16()) */
uint16_t ow_crc16(uint16_t crc, const uint8_t *data, size_t len);
/* CRC16 over data + the two inverted CRC bytes a device sends */
#define OW_CRC16_RESIDUE 0xB001

/* rom[7] = CRC8 of rom[0..6] */
void ow_rom_set_crc(uint8_t rom[OW_ROM_LEN]);
bool ow_rom_crc_valid(const uint8_t rom[OW_ROM_LEN]);
/* a ROM id as the number the wire sends LSB first (rom[0] = bits 0-7) */
uint64_t ow_rom_to_u64(const uint8_t rom[OW_ROM_LEN]);
void ow_rom_from_u64(uint64_t v, uint8_t rom[OW_ROM_LEN]);
/*
 * "28-0000012345ab" (Linux sysfs form: family, then the 48-bit serial MSB
 * first; hex digits in either case) -> wire-order ROM with CRC.  Returns
 * false, leaving rom untouched, on malformed input.
 */
bool ow_rom_parse(const char *text, uint8_t rom[OW_ROM_LEN]);
/* inverse of ow_rom_parse, lower case; the CRC byte is not shown */
void ow_rom_format(const uint8_t rom[OW_ROM_LEN], char out[OW_ROM_TEXT_LEN]);

/* ---- bus (the master side: what the DS2490 engine calls) ---- */

/* now_ns may be NULL: then every busy window ends at once, as instant */
void ow_bus_init(OWBus *bus, int64_t (*now_ns)(void *opaque), void *opaque);
/* 0, or -1 when the bus is full or s sits on another bus; idempotent */
int ow_bus_attach(OWBus *bus, OWSlave *s);
void ow_bus_detach(OWBus *bus, OWSlave *s);
/*
 * Slave state changed behind the bus's back (a migration stream loaded):
 * the next slot finds its active slaves again.
 */
void ow_bus_invalidate(OWBus *bus);
/* reset pulse; returns presence; *shorted (may be NULL) = bus short */
bool ow_bus_reset(OWBus *bus, bool *shorted);
/* one slot; bit != 0 is write-1/read; returns the wired-AND bus level */
int ow_bus_touch_bit(OWBus *bus, int bit);
/* 8 slots LSB first; returns the bits read */
uint8_t ow_bus_touch_byte(OWBus *bus, uint8_t byte);
/* OW_SPEED_*; other values are ignored */
void ow_bus_set_speed(OWBus *bus, int speed);
/* strong pullup on/off, so parasite-powered slaves can see it */
void ow_bus_set_pullup(OWBus *bus, bool on);
int64_t ow_bus_now(const OWBus *bus);

/* ---- slaves: common part ---- */

/* false -> true is a power cycle (ops->power_on) */
void ow_slave_set_present(OWSlave *s, bool present);
/* power cycle now, e.g. after the glue changed configuration fields */
void ow_slave_power_on(OWSlave *s);

/* For slave implementations */
void ow_slave_init(OWSlave *s, const OWSlaveOps *ops,
                   const uint8_t rom[OW_ROM_LEN]);
/* queue bytes to transmit; returns how many fit in the ring */
size_t ow_slave_tx_push(OWSlave *s, const uint8_t *data, size_t len);
void ow_slave_tx_push_byte(OWSlave *s, uint8_t byte);
/* queue the inverted CRC16, low byte first */
void ow_slave_tx_push_crc16(OWSlave *s, uint16_t crc);
void ow_slave_set_tail(OWSlave *s, uint8_t tail, uint8_t tail_byte);
/* OW_TAIL_BUSY_* ending at deadline (from ow_slave_deadline) */
void ow_slave_set_busy(OWSlave *s, uint8_t tail, int64_t deadline);
/* bus clock + dur_ns, or "now" when the bus is instant / has no clock */
int64_t ow_slave_deadline(const OWSlave *s, int64_t dur_ns);
bool ow_slave_reached(const OWSlave *s, int64_t deadline);
/* report a guest error of the slave to its bus's guest_error */
void ow_slave_guest_error(const OWSlave *s, const char *fmt, ...)
    OW_PRINTF(2, 3);

/* ---- DS18B20 (family 0x28) ---- */

#define OW_FAMILY_DS18B20 0x28
#define OW_DS18B20_MIN_MC (-55000)
#define OW_DS18B20_MAX_MC 125000
#define OW_DS18B20_TCONV_MAX_NS 750000000LL  /* 12 bit; halves per bit */
#define OW_DS18B20_TCOPY_NS 10000000LL
#define OW_DS18B20_POWERON_REG 0x0550         /* +85 C */

typedef struct OWDS18B20 {
    OWSlave parent;
    /* run-time input */
    int32_t temperature_mc;
    /* configuration */
    bool parasite;              /* READ POWER SUPPLY answers 0 */
    bool fail_conversion;       /* conversions leave 85 C */
    bool require_spu;           /* parasite: no strong pullup -> 85 C */
    uint8_t tconv_pct;          /* % of the datasheet maximum, default 90 */
    uint8_t eeprom[3];          /* TH, TL, config (factory 75, 70, 0x7F) */
    /* state */
    uint8_t scratchpad[9];
    bool alarm;
    uint8_t cmd;                /* function command being executed */
    uint8_t nrx;                /* WRITE SCRATCHPAD bytes received */
    bool converting;
    bool spu_seen;
    int16_t conv_reg;           /* result of the running conversion */
    int64_t conv_done;
} OWDS18B20;

/* config byte for a resolution of 9..12 bit */
#define OW_DS18B20_CONFIG(res) ((uint8_t)((((res) - 9) & 3) << 5 | 0x1F))

/*
 * Defaults: 25 °C, external power, tconv_pct 90, EEPROM TH 75 TL 70
 * config 0x7F (12 bit).  Conversion windows are tconv_pct % of
 * 93.75/187.5/375/750 ms; COPY SCRATCHPAD is busy 10 ms; RECALL is
 * instantaneous.  Read slots give 0 while busy (external power only).
 */
void ow_ds18b20_init(OWDS18B20 *d, const uint8_t rom[OW_ROM_LEN]);
/*
 * m°C -> temperature register: rounded to the nearest 1/16 °C (so that
 * the kernel's truncating "t=" value maps back to the same register),
 * clamped, low bits cleared for 9..11 bit resolution.
 */
int16_t ow_ds18b20_encode(int32_t mc, int resolution);

/* ---- DS2431 (family 0x2D) and DS2433 (family 0x23) ---- */

#define OW_FAMILY_DS2431 0x2D
#define OW_FAMILY_DS2433 0x23
#define OW_DS2431_MEM_SIZE 144      /* 0x00-0x7F data, 0x80-0x8F regs */
#define OW_DS2431_SP_SIZE 8
#define OW_DS2431_TPROG_NS 10000000LL
#define OW_DS2433_MEM_SIZE 512
#define OW_DS2433_SP_SIZE 32
#define OW_DS2433_TPROG_NS 5000000LL
#define OW_ES_AA 0x80
#define OW_ES_PF 0x20

/* Scratchpad/copy protocol state shared by DS2431 and DS2433 */
typedef struct OWEepromRegs {
    uint16_t ta;                /* TA2:TA1 */
    uint8_t es;                 /* AA, PF, E */
    uint8_t cmd;
    uint8_t nrx;                /* bytes received for cmd (saturating) */
    uint8_t offset;             /* next WRITE SCRATCHPAD offset */
    bool auth_ok;               /* COPY authorization so far */
    uint16_t addr;              /* READ MEMORY pointer, TA being received */
    uint16_t crc;               /* running CRC16 of WRITE SCRATCHPAD */
    uint32_t dirty;             /* bit n: bytes 32n..32n+31 were written */
} OWEepromRegs;

typedef struct OWDS2431 {
    OWSlave parent;
    uint8_t memory[OW_DS2431_MEM_SIZE];
    uint8_t scratchpad[OW_DS2431_SP_SIZE];
    OWEepromRegs regs;
} OWDS2431;

typedef struct OWDS2433 {
    OWSlave parent;
    uint8_t memory[OW_DS2433_MEM_SIZE];
    uint8_t scratchpad[OW_DS2433_SP_SIZE];
    OWEepromRegs regs;
} OWDS2433;

/* memory all 0x00: the glue loads its image into memory[] afterwards */
void ow_ds2431_init(OWDS2431 *d, const uint8_t rom[OW_ROM_LEN]);
void ow_ds2433_init(OWDS2433 *d, const uint8_t rom[OW_ROM_LEN]);
/* returns and clears the dirty block mask */
uint32_t ow_eeprom_take_dirty(OWEepromRegs *regs);

/* ---- DS2408 (family 0x29) ---- */

#define OW_FAMILY_DS2408 0x29
#define OW_DS2408_PLS 0x01
#define OW_DS2408_CT 0x02
#define OW_DS2408_ROS 0x04
#define OW_DS2408_PORL 0x08
#define OW_DS2408_VCCP 0x80

typedef struct OWDS2408 {
    OWSlave parent;
    /* run-time input */
    uint8_t pio_input;          /* 1 = released; pin = latch & input */
    /* configuration */
    bool vcc;                   /* VCCP status bit */
    uint8_t latch_init;         /* output latch at power-on, 0xFF */
    /* registers */
    uint8_t latch;              /* 0x89 */
    uint8_t activity;           /* 0x8A */
    uint8_t cs_mask;            /* 0x8B */
    uint8_t cs_polarity;        /* 0x8C */
    uint8_t control;            /* 0x8D without VCCP */
    uint8_t last_pins;          /* for the activity latches */
    /* function layer */
    uint8_t cmd;
    uint8_t nrx;
    uint8_t wr;                 /* CHANNEL-ACCESS WRITE byte */
    uint16_t addr;
    uint16_t crc;
    uint8_t nsamples;           /* CHANNEL-ACCESS READ, 0..32 */
} OWDS2408;

void ow_ds2408_init(OWDS2408 *d, const uint8_t rom[OW_ROM_LEN]);
/* pin logic state (0x88) */
uint8_t ow_ds2408_pins(OWDS2408 *d);
/* set pio_input and latch the activity at once */
void ow_ds2408_set_pio_input(OWDS2408 *d, uint8_t input);

/* ---- DS2413 (family 0x3A) ---- */

#define OW_FAMILY_DS2413 0x3A

typedef struct OWDS2413 {
    OWSlave parent;
    /* run-time input */
    uint8_t pio_input;          /* bit 0 PIOA, bit 1 PIOB, 1 = released */
    /* configuration */
    uint8_t latch_init;         /* 0x3 */
    /* state */
    uint8_t latch;              /* bits 0..1 */
    uint8_t cmd;
    uint8_t nrx;
    uint8_t wr;
} OWDS2413;

void ow_ds2413_init(OWDS2413 *d, const uint8_t rom[OW_ROM_LEN]);
/* PIO ACCESS READ status byte, complement in the high nibble */
uint8_t ow_ds2413_status(const OWDS2413 *d);

/* ---- DS2401 (family 0x01), ROM only ---- */

#define OW_FAMILY_DS2401 0x01

typedef struct OWDS2401 {
    OWSlave parent;
} OWDS2401;

void ow_ds2401_init(OWDS2401 *d, const uint8_t rom[OW_ROM_LEN]);

#endif /* ONEWIRE_H */
