/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1util.h - what the w1 guest programs share (w1util.c): the default
 * 1-Wire topology, CRC8, the DS18B20 temperature register, the w1 sysfs
 * tree, the kernel log, the w1 netlink (connector) wire structs with an
 * event listener, and the DS2490 on USB. The case runner, time and file
 * helpers are the common library's (helpers.h).
 *
 * The w1 netlink structs are not UAPI (drivers/w1/w1_netlink.h), so they are
 * declared here and their sizes pinned with _Static_assert.
 */
#ifndef PATCHBAY_W1UTIL_H
#define PATCHBAY_W1UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/connector.h>
#include <linux/netlink.h>

#include "helpers.h"

#define W1_DEVICES  "/sys/bus/w1/devices"
#define W1_MASTER   W1_DEVICES "/w1_bus_master1"
#define QOM_PERIPH  "/machine/peripheral/"
#define USB_DEVICES "/sys/bus/usb/devices"

/* ---- default topology (images/suites/w1.qemu) ---- */

struct w1_slave_rom {
    const char *qom; /* QOM id: /machine/peripheral/<qom> */
    uint8_t family;
    uint64_t serial; /* 48 bits */
    char name[16];   /* sysfs name ff-dddddddddddd */
    uint8_t id[8];   /* wire order: family, serial LSB..MSB, CRC8 */
};

enum { SL_T1, SL_E1, SL_P1, SL_P2, SL_COUNT };

/* name and id are filled in by w1_topology_init() */
extern struct w1_slave_rom w1_slaves[SL_COUNT];

#define T1 (&w1_slaves[SL_T1]) /* DS18B20 */
#define E1 (&w1_slaves[SL_E1]) /* DS2431 */
#define P1 (&w1_slaves[SL_P1]) /* DS2408 */
#define P2 (&w1_slaves[SL_P2]) /* DS2413 */

/*
 * Kernel options some w1 cases need beyond images/suites/w1.requires, for
 * the "needs" column of the case tables (kconfig_lacks()): a slave's sysfs
 * files come from its family driver, events and requests from the w1
 * netlink connector.
 */
#define NEED_THERM   "CONFIG_W1_SLAVE_THERM"  /* t1, DS18B20 */
#define NEED_DS2431  "CONFIG_W1_SLAVE_DS2431" /* e1 */
#define NEED_DS2408  "CONFIG_W1_SLAVE_DS2408" /* p1 */
#define NEED_DS2413  "CONFIG_W1_SLAVE_DS2413" /* p2 */
#define NEED_NETLINK "CONFIG_NET CONFIG_CONNECTOR CONFIG_W1_CON"

void w1_topology_init(void);

/* Maxim CRC8 (x^8+x^5+x^4+1, reflected 0x8C, init 0), as w1_calc_crc8(). */
uint8_t w1_crc8(const uint8_t *p, size_t n);

/* Division rounding toward minus infinity (C's / truncates toward zero). */
long floor_div(long a, long b);

/*
 * The DS18B20 register the w1 suites expect for a temperature in m°C at a
 * resolution of 9..12 bits: 1/16 degC steps, clamped to -55..125 degC, the
 * bits below the resolution cleared.
 */
int ds18b20_reg(long mC, int bits);

/* Fill id[] (wire order with CRC) and name (may be NULL) for a ROM. */
void w1_make_rom(uint8_t family, uint64_t serial, uint8_t id[8], char *name,
                 size_t namelen);

/* n bytes as lower-case hex, cut to what fits outlen. */
void w1_hex(const uint8_t *p, size_t n, char *out, size_t outlen);

/* ---- sysfs ---- */

/* W1_DEVICES/<slave>/<attr> */
void w1_slave_path(char *buf, size_t len, const struct w1_slave_rom *s,
                   const char *attr);
bool slave_dir_exists(const char *name);
/* w1_master_slave_count of master 1, or -1 */
long master_slave_count(void);

/*
 * Wait (bounded) until bus master 1 exists and reports want slaves with all
 * four default slaves attached; true on success.
 */
bool wait_for_discovery(int want, long timeout_ms);

/* The first len bytes of e1's eeprom file (DS2431 memory); 0 or -1. */
int w1_read_eeprom(uint8_t *buf, size_t len);

/* ---- kernel log ---- */

#define KMSG_TAG "patchbay-w1:"

/* Write an info-level marker line (its text into out) into the kernel log. */
void kmsg_mark(char *out, size_t outlen, const char *what);

/* The whole kernel log (SYSLOG_ACTION_READ_ALL); malloc'ed, or NULL. */
char *klog_read_all(void);

/*
 * Whether a log line containing needle follows the last marker line; -1
 * when the log or the marker cannot be found.
 */
int klog_has_after(const char *marker, const char *needle);

/* ---- w1 netlink ---- */

#define W1_CN_BUNDLE 0x0001

enum {
    W1_SLAVE_ADD = 0,
    W1_SLAVE_REMOVE,
    W1_MASTER_ADD,
    W1_MASTER_REMOVE,
    W1_MASTER_CMD,
    W1_SLAVE_CMD,
    W1_LIST_MASTERS,
};

enum {
    W1_CMD_READ = 0,
    W1_CMD_WRITE,
    W1_CMD_SEARCH,
    W1_CMD_ALARM_SEARCH,
    W1_CMD_TOUCH,
    W1_CMD_RESET,
    W1_CMD_SLAVE_ADD,
    W1_CMD_SLAVE_REMOVE,
    W1_CMD_LIST_SLAVES,
    W1_CMD_MAX,
};

struct w1_netlink_msg {
    uint8_t type;
    uint8_t status;
    uint16_t len;
    union {
        uint8_t id[8];
        struct {
            uint32_t id;
            uint32_t res;
        } mst;
    } id;
    uint8_t data[];
};

struct w1_netlink_cmd {
    uint8_t cmd;
    uint8_t res;
    uint16_t len;
    uint8_t data[];
};

_Static_assert(sizeof(struct nlmsghdr) == 16, "nlmsghdr is 16 bytes");
_Static_assert(sizeof(struct cn_msg) == 20, "cn_msg is 20 bytes");
_Static_assert(sizeof(struct w1_netlink_msg) == 12,
               "w1_netlink_msg is 12 bytes");
_Static_assert(sizeof(struct w1_netlink_cmd) == 4, "w1_netlink_cmd is 4 bytes");

/* A NETLINK_CONNECTOR socket; groups W1_EVENT_GROUPS for events. */
int cn_socket(uint32_t groups);

#define W1_EVENT_GROUPS (1u << (CN_W1_IDX - 1))

/* One w1 event (kernel broadcast), as received. */
struct w1_event {
    uint32_t nlmsg_len;
    uint32_t nlmsg_seq;
    struct cn_msg cn;
    struct w1_netlink_msg msg;
    bool well_formed; /* cn id {3,1}, cn.len 12, nlmsg_len 48 */
};

/*
 * Receive one event within timeout_ms: 1 got one, 0 timeout, -1 error.
 * Datagrams whose cn id is not {CN_W1_IDX, CN_W1_VAL} are skipped.
 */
int w1_event_recv(int fd, struct w1_event *ev, long timeout_ms);

/* w1_event_recv() into evs[*nev], kept only while *nev < max. */
int w1_event_take(int fd, struct w1_event *evs, int *nev, int max,
                  long timeout_ms);

/* Drain everything already queued on fd (events from earlier activity). */
int w1_event_drain(int fd);

const char *w1_event_name(uint8_t type);

/* "SLAVE_ADD(type 0) status=... " for diagnostics. */
void w1_event_str(const struct w1_event *ev, char *out, size_t len);

/* A "# event: ..." line for each of n events. */
void w1_events_print(const struct w1_event *evs, int n);

/*
 * An event is exactly what w1_netlink_send() produces: cn {3,1, ack 0,
 * len 12, flags 0}, msg {type, status 0, len 0, id}.  For slave events id
 * is the ROM; for master events id.mst = {master id, 0}.
 */
bool w1_event_is(const struct w1_event *ev, uint8_t type, const uint8_t id[8]);

/* The msg.id of a master: {id, 0}. */
void w1_master_id_bytes(uint32_t id, uint8_t out[8]);

/* ---- USB ---- */

/* The sysfs name (e.g. "1-1") of the first 04fa:2490 device; 0 or -1. */
int ds2490_find(char *dev, size_t len);

/* "<dev>:<config>.0", the DS2490's only interface. */
void ds2490_intf(const char *dev, char *intf, size_t len);

/* Basename of <USB_DEVICES>/<intf>/driver, "" when unbound. */
void usb_intf_driver(const char *intf, char *drv, size_t len);

#endif /* PATCHBAY_W1UTIL_H */
