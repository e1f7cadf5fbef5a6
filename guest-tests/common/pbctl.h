/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pbctl.h - guest side of the patchbay host control channel (common/pbctl.c).
 *
 * A guest test that needs the host to act while it runs (change a sensor's
 * temperature, unplug an emulated device) talks to the runner over the
 * virtio-serial port named "patchbay.ctl".  One request line, one reply
 * line, ASCII (runner/guestctl.h):
 *
 *     qom-set <qom-path> <property> <json-value>  ->  ok | error <message>
 *     qom-get <qom-path> <property>               ->  ok <json> | error <message>
 *     anything else                               ->  error unknown operation '<op>'
 *
 *     if (pbctl_open())
 *         return kt_skip(why, "%s", pbctl_unavailable_reason());
 *     if (pbctl_qom_set_int("/machine/peripheral/t1", "temperature", -10125))
 *         return kt_fail(why, "%s", pbctl_last_reply());
 *
 * The port is found by scanning /sys/class/virtio-ports/<dev>/name; the node
 * is /dev/<dev> (devtmpfs).  Every request has a 10 s deadline for writing
 * the request and reading the reply.
 */
#ifndef PATCHBAY_PBCTL_H
#define PATCHBAY_PBCTL_H

#include <stddef.h>

#define PBCTL_PORT_NAME  "patchbay.ctl"
#define PBCTL_TIMEOUT_MS 10000
#define PBCTL_MAX_LINE   4096

/* 0 when the port is open (idempotent), -1 with pbctl_unavailable_reason(). */
int pbctl_open(void);

/*
 * The /dev node of the virtio-serial port named port (as QEMU's
 * virtserialport name=) into dev: 0, or -1 with errno ENOENT when no port
 * has that name, another errno when the ports cannot be listed.
 */
int pbctl_find_port(const char *port, char *dev, size_t len);
void pbctl_close(void);

/* Why pbctl_open() failed, for a SKIP reason. */
const char *pbctl_unavailable_reason(void);

/* The last reply line (without newline) of the qom wrappers. */
const char *pbctl_last_reply(void);

/*
 * Send one request (a printf format, no newline needed) and read the reply
 * line into reply (without its newline). Returns 0 if the reply is "ok" or
 * "ok <value>", -1 otherwise; reply then holds the host's "error ..." line or
 * a description of the local failure (no port, timeout, host gone).
 */
__attribute__((format(printf, 3, 4)))
int pbctl_request(char *reply, size_t len, const char *fmt, ...);

/*
 * Write len bytes of 'x' and no newline, as a broken client would (a test
 * of the host's line bound). 0, or -1 on an error or the 10 s deadline.
 */
int pbctl_send_garbage(size_t len);

int pbctl_qom_set_int(const char *path, const char *prop, long long value);
int pbctl_qom_set_bool(const char *path, const char *prop, int value);
/* A string without '"', '\\' or control characters (a fault plan). */
int pbctl_qom_set_str(const char *path, const char *prop, const char *value);
/* Copies the JSON text of the value (e.g. "21500", "true") into value. */
int pbctl_qom_get(const char *path, const char *prop, char *value, size_t len);
/* qom-get of an integer property; -1 if the request or the parse failed. */
int pbctl_qom_get_int(const char *path, const char *prop, long long *value);
/* qom-get of a string property: its contents, without the quotes. */
int pbctl_qom_get_str(const char *path, const char *prop, char *value,
                      size_t len);

/*
 * Set a device's fault plan (docs/hostile-hardware.md): its "faults" (a
 * seeded random plan) and "fault-script" properties; "" and "" clear it.
 * The device's "fault-counts" is read with pbctl_qom_get_str().
 */
int pbctl_fault_plan(const char *path, const char *faults, const char *script);

#endif /* PATCHBAY_PBCTL_H */
