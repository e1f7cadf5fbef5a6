/*
 * DS2490 USB-to-1-Wire bridge engine, free of QEMU and USB.
 *
 * Decodes the vendor requests (CONTROL, COMM and MODE), runs the
 * communication commands against a 1-Wire bus through DS2490BusOps, fills
 * the EP1 status packet and the EP3 FIFO and drains EP2.
 *
 * Glue contract: the USB glue owns the descriptors, endpoints and a
 * QEMU_CLOCK_VIRTUAL timer.  After every entry point below (and when the
 * timer fires) it calls ds2490_run() and re-arms the timer with the
 * returned deadline (or deletes it on -1), then calls usb_wakeup() on EP3
 * when ds2490_ep3_became_ready() says so.  The entry points already
 * advance the engine themselves, so status and EP3 data are up to date.
 *
 * The state is plain data (fixed-width fields, fixed-size rings) so that it
 * can be embedded in a QOM device and described with VMState; the only
 * pointers are the bus and clock links set by ds2490_init().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef DS2490_CORE_H
#define DS2490_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ds2490-faults.h"

#ifdef __GNUC__
#define DS2490_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define DS2490_PRINTF(fmt, args)
#endif

/* FIFO sizes of the chip */
#define DS2490_EP2_SIZE             128
#define DS2490_EP3_SIZE             128
#define DS2490_RESULT_SIZE          16
#define DS2490_CMD_FIFO_SIZE        16  /* bytes, as reported in status */
#define DS2490_CMD_FIFO_SLOTS       8   /* a queued command is >= 2 bytes */
#define DS2490_STATUS_SIZE          16  /* state registers */
#define DS2490_STATUS_MAX           32  /* state registers + results */

/* bRequest of the vendor requests (bmRequestType 0x40, or 0xC0 for IN) */
#define DS2490_REQ_CONTROL          0x00
#define DS2490_REQ_COMM             0x01
#define DS2490_REQ_MODE             0x02

/* CONTROL commands (wValue) */
#define DS2490_CTL_RESET_DEVICE     0x0000
#define DS2490_CTL_START_EXE        0x0001
#define DS2490_CTL_RESUME_EXE       0x0002
#define DS2490_CTL_HALT_EXE_IDLE    0x0003
#define DS2490_CTL_HALT_EXE_DONE    0x0004
#define DS2490_CTL_FLUSH_COMM_CMDS  0x0007
#define DS2490_CTL_FLUSH_RCV_BUFFER 0x0008
#define DS2490_CTL_FLUSH_XMT_BUFFER 0x0009
#define DS2490_CTL_GET_COMM_CMDS    0x000A

/* MODE commands (wValue = register, wIndex = value) */
#define DS2490_MOD_PULSE_EN         0x0000
#define DS2490_MOD_SPEED_CHANGE_EN  0x0001
#define DS2490_MOD_1WIRE_SPEED      0x0002
#define DS2490_MOD_STRONG_PU_DUR    0x0003
#define DS2490_MOD_PULLDOWN_SLEW    0x0004
#define DS2490_MOD_PROG_PULSE_DUR   0x0005
#define DS2490_MOD_WRITE1_LOWTIME   0x0006
#define DS2490_MOD_DSOW0_TREC       0x0007

/* MOD_PULSE_EN parameter bits (not the status byte 0 order!) */
#define DS2490_PULSE_PROG           0x01
#define DS2490_PULSE_SPUE           0x02

/* COMM commands: code in wValue bits 4-7, fixed bits 1-2 */
#define DS2490_COMM_ERROR_ESCAPE    0x0601
#define DS2490_COMM_SET_DURATION    0x0012
#define DS2490_COMM_BIT_IO          0x0020
#define DS2490_COMM_PULSE           0x0030
#define DS2490_COMM_1_WIRE_RESET    0x0042
#define DS2490_COMM_BYTE_IO         0x0052
#define DS2490_COMM_MATCH_ACCESS    0x0064
#define DS2490_COMM_BLOCK_IO        0x0074
#define DS2490_COMM_READ_STRAIGHT   0x0080
#define DS2490_COMM_DO_RELEASE      0x6092
#define DS2490_COMM_SET_PATH        0x00A2
#define DS2490_COMM_WRITE_SRAM_PAGE 0x00B2
#define DS2490_COMM_WRITE_EPROM     0x00C4
#define DS2490_COMM_READ_CRC_PROT   0x00D4
#define DS2490_COMM_READ_REDIRECT   0x21E4
#define DS2490_COMM_SEARCH_ACCESS   0x00F4

/* COMM embedded bits */
#define DS2490_COMM_IM              0x0001
#define DS2490_COMM_X               0x0008  /* D, SE, SM, TYPE, Z, CH, R */
#define DS2490_COMM_RST             0x0100
#define DS2490_COMM_ICP             0x0200
#define DS2490_COMM_NTF             0x0400
#define DS2490_COMM_F               0x0800
#define DS2490_COMM_SPU             0x1000
#define DS2490_COMM_DT              0x2000
#define DS2490_COMM_RTS             0x4000  /* PS, PST, CIB, RTS */

/* READ_STRAIGHT keeps its flags in the low nibble */
#define DS2490_RS_IM                0x0001
#define DS2490_RS_RST               0x0002
#define DS2490_RS_ICP               0x0004
#define DS2490_RS_NTF               0x0008

/* status byte 0: enable flags */
#define DS2490_EN_SPUE              0x01
#define DS2490_EN_PRGE              0x02
#define DS2490_EN_SPCE              0x04

/* status byte 8: device status flags */
#define DS2490_ST_SPUA              0x01
#define DS2490_ST_PRGA              0x02
#define DS2490_ST_12VP              0x04
#define DS2490_ST_PMOD              0x08
#define DS2490_ST_HALT              0x10
#define DS2490_ST_IDLE              0x20
#define DS2490_ST_EP0F              0x80

/* result register values (status bytes 16..) */
#define DS2490_RR_DETECT            0xA5
#define DS2490_RR_NRS               0x01
#define DS2490_RR_SH                0x02
#define DS2490_RR_APP               0x04
#define DS2490_RR_VPP               0x08
#define DS2490_RR_CMP               0x10
#define DS2490_RR_CRC               0x20
#define DS2490_RR_RDP               0x40
#define DS2490_RR_EOS               0x80

/* 1-Wire speeds (MOD_1WIRE_SPEED, 1_WIRE_RESET with SE) */
#define DS2490_SPEED_REGULAR        0
#define DS2490_SPEED_FLEXIBLE       1
#define DS2490_SPEED_OVERDRIVE      2

/* values of DS2490Core.timing */
#define DS2490_TIMING_INSTANT       0
#define DS2490_TIMING_REALTIME      1

/* power-on register values (datasheet, and a real DS9490R status dump) */
#define DS2490_DEF_SPU_DURATION     0x20    /* 512 ms */
#define DS2490_DEF_PP_DURATION      0x40    /* 512 us */
#define DS2490_DEF_SLEW             0x05
#define DS2490_DEF_WRITE1_LOW       0x04
#define DS2490_DEF_DSOW0_TREC       0x04

/*
 * The 1-Wire bus the engine drives.  Bytes are 8 touch_bit slots, LSB
 * first.  strong_pullup may be NULL; it tells the bus when the 5 V strong
 * pullup starts and ends (parasite-powered slaves need it).
 */
typedef struct DS2490BusOps {
    bool (*reset)(void *bus, bool *shorted);    /* returns presence */
    int (*touch_bit)(void *bus, int bit);       /* returns the bus level */
    void (*set_speed)(void *bus, int speed);    /* DS2490_SPEED_* */
    void (*strong_pullup)(void *bus, bool active);
} DS2490BusOps;

/* decoded command kinds, DS2490Core.cmd_kind */
enum {
    DS2490_KIND_NONE,
    DS2490_KIND_ERROR_ESCAPE,
    DS2490_KIND_SET_DURATION,
    DS2490_KIND_BIT_IO,
    DS2490_KIND_PULSE,
    DS2490_KIND_RESET,
    DS2490_KIND_BYTE_IO,
    DS2490_KIND_MATCH_ACCESS,
    DS2490_KIND_BLOCK_IO,
    DS2490_KIND_READ_STRAIGHT,
    DS2490_KIND_SEARCH,
    DS2490_KIND_UNIMP,          /* accepted, completes as a no-op */
};

typedef struct DS2490Core {
    /* links, set by ds2490_init(); not migrated */
    const DS2490BusOps *ops;
    void *bus;
    int64_t (*now_ns)(void *opaque);
    void *clock_opaque;
    /*
     * The guest did something the chip rejects or drops: a message with
     * the context (command, value), printf-style, without a newline.
     * Optional; set after ds2490_init(), not migrated.
     */
    void (*guest_error)(void *opaque, const char *fmt, va_list ap)
        DS2490_PRINTF(2, 0);
    void *guest_error_opaque;
    /*
     * The fault plan (ds2490-faults.h) the hooks consult, or NULL for
     * none.  Optional; set after ds2490_init(), not migrated here: the
     * glue owns and migrates the plan.
     */
    DS2490Faults *faults;

    /* properties (usb-ds2490); set after ds2490_init() */
    int32_t timing;             /* DS2490_TIMING_INSTANT / _REALTIME */
    bool strict_fifo;           /* EP2: NAK packets that do not fit */
    bool search_rts_data;       /* 8 discrepancy bytes when N reached */
    bool search_eos;            /* EOS result when fewer than N found */
    bool detect_byte;           /* ds2490_queue_detect() queues 0xA5 */
    bool pmod;                  /* status PMOD bit */

    /* mode registers */
    uint8_t pulse_en;           /* MOD_PULSE_EN encoding: PROG | SPUE */
    uint8_t speed_change_en;
    uint8_t speed;
    uint8_t spu_duration;       /* 16 ms units, 0 = infinite */
    uint8_t pp_duration;        /* 8 us units, 0 = infinite */
    uint8_t slew;
    uint8_t write1_low;
    uint8_t dsow0_trec;

    /* device flags */
    bool ep0f;                  /* command FIFO overflowed */
    bool halted;
    bool halt_pending;          /* halt once the current command ends */
    bool exec_running;          /* queued commands may start */
    bool spua;                  /* strong pullup active */
    bool ep3_nak_pending;       /* EP3 NAKed, wake the host on data */

    /* command FIFO: queued, not yet started commands */
    uint16_t cmdq_value[DS2490_CMD_FIFO_SLOTS];
    uint16_t cmdq_index[DS2490_CMD_FIFO_SLOTS];
    uint8_t cmdq_head;
    uint8_t cmdq_len;           /* commands */
    uint8_t cmdq_bytes;         /* bytes, <= DS2490_CMD_FIFO_SIZE */

    /* EP2 (host to 1-Wire), EP3 (1-Wire to host), result register FIFO */
    uint8_t ep2[DS2490_EP2_SIZE];
    uint8_t ep2_head;
    uint8_t ep2_count;
    uint8_t ep3[DS2490_EP3_SIZE];
    uint8_t ep3_head;
    uint8_t ep3_count;
    uint8_t results[DS2490_RESULT_SIZE];
    uint8_t results_head;
    uint8_t results_count;

    /* current command (cmd_value stays as the last one when idle) */
    bool active;
    uint8_t cmd_kind;           /* DS2490_KIND_* */
    uint8_t cmd_phase;
    uint8_t cmd_result;         /* RR_* flags collected so far */
    uint16_t cmd_value;
    uint16_t cmd_index;
    uint32_t cmd_remaining;     /* bytes left in the current phase */
    uint32_t cmd_aux;           /* sub-state, or READ_STRAIGHT count */

    /* SEARCH_ACCESS */
    uint64_t search_path;       /* start/next path, bit i = ROM bit i */
    uint64_t search_disc;       /* discrepancy bitmap of the last pass */
    uint16_t search_found;
    uint16_t search_limit;      /* 1..255 (0 from the host = 255) */
    bool search_first_pass;

    /* realtime timing (virtual ns) */
    bool io_wait;               /* blocked on EP2/EP3: restart the clock */
    bool spu_infinite;
    int64_t t_cursor;           /* time accounted for by the engine */
    int64_t cmd_start_ns;
    int64_t spu_end_ns;

    /* diagnostics for the glue (trace / LOG_UNIMP / LOG_GUEST_ERROR) */
    uint32_t unimp_count;       /* unimplemented COMM commands seen */
    uint16_t unimp_value;       /* the last one */
    uint32_t results_dropped;   /* result FIFO was full */
    uint32_t cmds_dropped;      /* command FIFO was full (EP0F) */
} DS2490Core;

/* links and property defaults, then ds2490_power_on() */
void ds2490_init(DS2490Core *c, const DS2490BusOps *ops, void *bus,
                 int64_t (*now_ns)(void *opaque), void *clock_opaque);

/* USB reset / power-on: CTL_RESET_DEVICE defaults; properties are kept */
void ds2490_power_on(DS2490Core *c);

/* vendor OUT request with wLength 0: 0, or -1 = STALL */
int ds2490_vendor_out(DS2490Core *c, uint8_t request, uint16_t value,
                      uint16_t index);

/* vendor IN request (only CTL_GET_COMM_CMDS): bytes, or -1 = STALL */
int ds2490_vendor_in(DS2490Core *c, uint8_t request, uint16_t value,
                     uint16_t index, uint8_t *buf, int max);

/*
 * EP1 interrupt IN: 16 state bytes followed by the pending result bytes
 * (up to 16, removed once delivered).  Never NAKs.  Returns the length,
 * at most max; fewer than 16 only when max asks so or a fault plan cuts
 * the packet short (ep1-short: its result bytes stay queued).
 */
int ds2490_status(DS2490Core *c, uint8_t *buf, int max);

/*
 * EP2 bulk OUT: returns len when accepted, -1 = NAK.  With strict_fifo a
 * packet is taken whole or not at all; without it, as many bytes as fit
 * are taken (the return value can be less than len) like the silicon.
 */
int ds2490_ep2_write(DS2490Core *c, const uint8_t *buf, int len);

/*
 * EP3 bulk IN: up to max bytes, or -1 = NAK when empty (0 if max <= 0).
 * Bytes beyond max stay queued (the chip would fail such a short read).
 * A fault plan can NAK although data is ready (ep3-nak) or deliver fewer
 * bytes, even none (ep3-short): ds2490_faults_ep3_cut_short() then says
 * the USB transfer ends there, and the rest stays queued.
 */
int ds2490_ep3_read(DS2490Core *c, uint8_t *buf, int max);

/*
 * Advance the engine as far as EP2 data, EP3 space and (realtime) virtual
 * time allow.  Returns the virtual time (ns) at which it should be called
 * again, or -1 when only host activity can make progress.
 */
int64_t ds2490_run(DS2490Core *c);

/* true once after EP3 got data since it last NAKed (glue: usb_wakeup) */
bool ds2490_ep3_became_ready(DS2490Core *c);

/* a slave appeared at run time: queue RR_DETECT if detect_byte */
void ds2490_queue_detect(DS2490Core *c);

/* no command executing and none that would start */
bool ds2490_is_idle(const DS2490Core *c);

/* free bytes in EP2, e.g. to feed a partly accepted packet later */
int ds2490_ep2_space(const DS2490Core *c);

/* sanity check of a loaded state (VMState post_load): false = reject */
bool ds2490_state_valid(const DS2490Core *c);

/*
 * The name of a vendor request's command, for traces and error messages:
 * request DS2490_REQ_CONTROL, _COMM or _MODE and its wValue, e.g.
 * "BYTE_IO" for COMM 0x0053; "unknown" for a command the chip rejects.
 */
const char *ds2490_cmdname(uint8_t request, uint16_t value);

#endif /* DS2490_CORE_H */
