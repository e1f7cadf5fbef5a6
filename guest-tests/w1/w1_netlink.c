// SPDX-License-Identifier: GPL-2.0
/*
 * w1_netlink - the w1 netlink (connector) protocol of Linux 6.12 against the
 * emulated DS2490 bus: test plan items N1-N14 and N16 of
 * docs/devices/ds2490.md section 4.9, above all commit 8a0427d192e6
 * ("w1: optional bundling of netlink kernel replies"):
 *
 *  - with W1_CN_BUNDLE (cn_msg.flags bit 0) every reply to a request comes
 *    back in ONE netlink message holding several cn_msgs, where the same
 *    request without the flag comes back as one netlink message per reply;
 *  - any other cn_msg flag bit is rejected: exactly one reply, the request's
 *    cn_msg header echoed (seq, ack, flags) with len 12, the first
 *    w1_netlink_msg header echoed with len 0 and status EINVAL, and nothing
 *    in the packet executed;
 *  - status replies carry the request's ack, data replies seq + 1.
 *
 * A raw NETLINK_CONNECTOR client: every request gets a fresh seq and an ack
 * unrelated to it (0x5a000000 | seq), replies are received with a 2 s
 * timeout (6 s for the first reply of the bit-by-bit TOUCH) and counted
 * exactly: after the expected ones, a grace period catches extra replies.  Each reply is rendered into a canonical
 * one-line form (netlink header, every cn_msg, w1_netlink_msg and
 * w1_netlink_cmd header) and compared as a whole with the shape the 6.12
 * code produces (w1_netlink.c: w1_cn_callback(), w1_process_cb(),
 * w1_netlink_queue_cmd(), w1_netlink_queue_status(), w1_reply_make_space(),
 * w1_netlink_send_error()); payload bytes are checked separately.
 * cn_msgs whose id is not {CN_W1_IDX, CN_W1_VAL} are skipped and logged:
 * unbundled requests whose only command is data-less or a lone READ/TOUCH
 * are preceded by a zeroed cn_msg (w1_reply_make_space() flushing an empty
 * buffer, "len + space >= maxlen").
 *
 * Events (W1_SLAVE_ADD/REMOVE) are read from a second socket joined to
 * multicast group CN_W1_IDX.  The background search is stopped while the
 * program runs (w1_master_search = 0) and restarted at the end.
 *
 * Not here: N15 (needs a bad-CRC device at boot); the QEMU-trace evidence
 * of N9/N12/N16 ("no COMM request", "no bytes on the bus", chunk sizes).
 *
 * A kernel without the connector (NEED_NETLINK) skips every case, naming
 * the options; a case that compares with a slave's sysfs file skips when
 * the kernel lacks that slave's family driver (the table's "needs").
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/connector.h>
#include <linux/netlink.h>

#include "kconfig.h"
#include "ktap.h"
#include "pbctl.h"
#include "w1util.h"
#include "w1req.h"

#define RX_TIMEOUT_MS	2000	/* wait for a reply that has not come yet */
#define GRACE_MS	300	/* after the expected replies, for extra ones */
#define GRACE_SILENT_MS	2000	/* when the point is that nothing comes */
#define HELPER_GRACE_MS	100	/* setup/verification exchanges */
#define TOUCH_TIMEOUT_MS	6000	/* first reply of an 88-bit TOUCH */
#define SETUP_WAIT_MS	20000	/* first program of the suite: boot discovery */
#define CONVERT_MS	800	/* DS18B20 12-bit conversion (750 ms max) */

#define ERR_E2BIG	7
#define ERR_ENODEV	19
#define ERR_EINVAL	22
#define ERR_EPROTO	71

static int nl_fd = -1;		/* requests and unicast replies */
static int ev_fd = -1;		/* multicast group CN_W1_IDX: events */
static uint32_t next_seq = 0x100;
static uint8_t ID1[8];		/* msg.id of MASTER_CMD for master 1 */
static long t1_mC = 21500;
static uint8_t sp_orig[9];	/* t1 scratchpad at start */
static bool sp_orig_valid;

/* ---- requests ------------------------------------------------------------- */

/* struct w1_req and w1_req_*(): w1req.h */

/* Most requests: one message holding one command. */
static void req_single(struct w1_req *r, uint8_t type, const uint8_t id[8],
		       uint8_t code, const void *data, uint16_t len)
{
	w1_req_init(r);
	w1_req_msg(r, type, id);
	w1_req_cmd(r, code, data, len);
}

/* ---- replies -------------------------------------------------------------- */

#define RX_MAX_NL	32
#define RX_MAX_ITEMS	128

struct rx_msg {			/* one w1_netlink_msg of a reply */
	int nl;			/* index of its netlink message */
	uint32_t nl_len;
	struct cn_msg cn;	/* its cn_msg header */
	struct w1_netlink_msg m;
	const uint8_t *data;	/* m.len bytes */
};

struct rx_cmd {			/* one w1_netlink_cmd of a reply */
	int msg;		/* index into rx.msg */
	struct w1_netlink_cmd c;
	const uint8_t *data;	/* c.len bytes */
};

struct rx {
	int n;			/* netlink messages carrying w1 cn_msgs */
	uint8_t *buf[RX_MAX_NL];
	int foreign;		/* netlink messages without any */
	int nmsg, ncmd;
	struct rx_msg msg[RX_MAX_ITEMS];
	struct rx_cmd cmd[RX_MAX_ITEMS];
	char render[16384];
	size_t rlen;
};

static void rx_free(struct rx *rx)
{
	for (int i = 0; i < rx->n && i < RX_MAX_NL; i++)
		free(rx->buf[i]);
	memset(rx, 0, sizeof(*rx));
}

/*
 * Append to the text s (size bytes, *len used), cutting what does not fit:
 * the received and the expected shape are rendered alike.
 */
static __attribute__((format(printf, 4, 0)))
void text_vappend(char *s, size_t size, size_t *len, const char *fmt,
		  va_list ap)
{
	int r;

	if (*len >= size - 1)
		return;
	r = vsnprintf(s + *len, size - *len, fmt, ap);
	if (r > 0)
		*len += (size_t)r;
	if (*len >= size)
		*len = size - 1;
}

static __attribute__((format(printf, 2, 3)))
void rx_out(struct rx *rx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vappend(rx->render, sizeof(rx->render), &rx->rlen, fmt, ap);
	va_end(ap);
}

static void fmt_id(const uint8_t id[8], char out[17])
{
	w1_hex(id, 8, out, 17);
}

/*
 * Walk one received datagram: log and skip cn_msgs whose id is not w1's,
 * render the rest canonically, record msgs and cmds for payload checks.
 */
static void rx_add(struct rx *rx, const uint8_t *buf, size_t got)
{
	struct nlmsghdr nlh;
	size_t off, end;
	uint8_t *copy;
	int w1_cns = 0, nl;
	size_t mark = rx->rlen;

	if (got < sizeof(nlh)) {
		ktap_print_msg("short netlink datagram of %zu bytes", got);
		return;
	}
	memcpy(&nlh, buf, sizeof(nlh));
	copy = malloc(got);
	if (!copy)
		return;
	memcpy(copy, buf, got);
	nl = rx->n;
	if (nl >= RX_MAX_NL) {
		free(copy);
		rx->n++;
		rx_out(rx, "[nl overflow]");
		return;
	}
	rx_out(rx, "[nl len=%u type=%u flags=%#x seq=%#x pid=%u]",
	       nlh.nlmsg_len, nlh.nlmsg_type, nlh.nlmsg_flags, nlh.nlmsg_seq,
	       nlh.nlmsg_pid);
	end = nlh.nlmsg_len;
	if (end > got || end < sizeof(nlh)) {
		rx_out(rx, "(bad nlmsg_len, received %zu)", got);
		end = got;
		w1_cns++;
	}
	for (off = sizeof(nlh); off < end;) {
		struct cn_msg cn;
		size_t moff;

		if (off + sizeof(cn) > end) {
			rx_out(rx, "(truncated cn_msg header: %zu bytes)", end - off);
			w1_cns++;
			break;
		}
		memcpy(&cn, copy + off, sizeof(cn));
		if (cn.id.idx != CN_W1_IDX || cn.id.val != CN_W1_VAL) {
			ktap_print_msg("skipped non-w1 cn_msg: idx %u val %u seq %u ack %u len %u flags %#x (nlmsg_len %u)",
				       cn.id.idx, cn.id.val, cn.seq, cn.ack,
				       cn.len, cn.flags, nlh.nlmsg_len);
			off += sizeof(cn) + cn.len;
			continue;
		}
		w1_cns++;
		rx_out(rx, "(cn seq=%#x ack=%#x len=%u flags=%#x)", cn.seq,
		       cn.ack, cn.len, cn.flags);
		if (off + sizeof(cn) + cn.len > end) {
			rx_out(rx, "(cn.len beyond the netlink message)");
			break;
		}
		for (moff = 0; moff < cn.len;) {
			size_t mbase = off + sizeof(cn) + moff;
			struct w1_netlink_msg m;
			struct rx_msg *rm;
			char hex[17];

			if (moff + sizeof(m) > cn.len) {
				rx_out(rx, "{truncated msg header}");
				break;
			}
			memcpy(&m, copy + mbase, sizeof(m));
			fmt_id(m.id.id, hex);
			rx_out(rx, "{msg type=%u status=%u len=%u id=%s}", m.type,
			       m.status, m.len, hex);
			if (moff + sizeof(m) + m.len > cn.len) {
				rx_out(rx, "{msg.len beyond cn.len}");
				break;
			}
			if (rx->nmsg < RX_MAX_ITEMS) {
				rm = &rx->msg[rx->nmsg++];
				rm->nl = nl;
				rm->nl_len = nlh.nlmsg_len;
				rm->cn = cn;
				rm->m = m;
				rm->data = copy + mbase + sizeof(m);
			}
			if ((m.type == W1_MASTER_CMD || m.type == W1_SLAVE_CMD) &&
			    m.len) {
				size_t coff;

				for (coff = 0; coff < m.len;) {
					struct w1_netlink_cmd c;

					if (coff + sizeof(c) > m.len) {
						rx_out(rx, "<truncated cmd header>");
						break;
					}
					memcpy(&c, copy + mbase + sizeof(m) + coff,
					       sizeof(c));
					rx_out(rx, "<cmd %u res=%u len=%u>", c.cmd,
					       c.res, c.len);
					if (coff + sizeof(c) + c.len > m.len) {
						rx_out(rx, "<cmd.len beyond msg.len>");
						break;
					}
					if (rx->ncmd < RX_MAX_ITEMS) {
						struct rx_cmd *rc = &rx->cmd[rx->ncmd++];

						rc->msg = rx->nmsg - 1;
						rc->c = c;
						rc->data = copy + mbase + sizeof(m) +
							   coff + sizeof(c);
					}
					coff += sizeof(c) + c.len;
				}
			}
			moff += sizeof(m) + m.len;
		}
		off += sizeof(cn) + cn.len;
	}
	if (!w1_cns) {
		/* nothing of w1 in it: not counted (logged above) */
		rx->rlen = mark;
		rx->render[mark] = '\0';
		rx->foreign++;
		free(copy);
		return;
	}
	rx->buf[nl] = copy;
	rx->n++;
}

/*
 * Collect replies: wait up to RX_TIMEOUT_MS for each of the want w1 netlink
 * messages, then grace_ms more for any extra one.
 */
static int rx_wait_ms = RX_TIMEOUT_MS;

static void rx_collect(struct rx *rx, int want, int grace_ms)
{
	static uint8_t buf[65536];

	for (;;) {
		int to = rx->n < want ? rx_wait_ms : grace_ms;
		ssize_t n = w1_nl_recv(nl_fd, buf, sizeof(buf), to);

		if (n <= 0)
			break;
		rx_add(rx, buf, (size_t)n);
	}
}

/* Log and drop whatever is still queued from earlier requests. */
static void rx_drain(void)
{
	static uint8_t buf[65536];
	ssize_t n;

	while ((n = w1_nl_recv(nl_fd, buf, sizeof(buf), 0)) > 0) {
		struct nlmsghdr nlh;

		memcpy(&nlh, buf, sizeof(nlh));
		ktap_print_msg("dropped a late reply: nlmsg_len %u seq %#x",
			       nlh.nlmsg_len, nlh.nlmsg_seq);
	}
}

/* ---- expected shapes ------------------------------------------------------ */

struct xb {
	char s[16384];
	size_t n;
	uint32_t seq, ack;
	uint16_t flags;
};

static __attribute__((format(printf, 2, 3)))
void xb_out(struct xb *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vappend(x->s, sizeof(x->s), &x->n, fmt, ap);
	va_end(ap);
}

static void xb_nl(struct xb *x, unsigned int len)
{
	xb_out(x, "[nl len=%u type=%u flags=%#x seq=%#x pid=%u]", len,
	       NLMSG_DONE, 0u, x->seq, 0u);
}

static void xb_cn(struct xb *x, uint32_t ack, unsigned int len)
{
	xb_out(x, "(cn seq=%#x ack=%#x len=%u flags=%#x)", x->seq, ack, len,
	       x->flags);
}

static void xb_msg(struct xb *x, uint8_t type, uint8_t status,
		   unsigned int len, const uint8_t id[8])
{
	char hex[17];

	fmt_id(id, hex);
	xb_out(x, "{msg type=%u status=%u len=%u id=%s}", type, status, len,
	       hex);
}

static void xb_cmd(struct xb *x, uint8_t code, unsigned int len)
{
	xb_out(x, "<cmd %u res=0 len=%u>", code, len);
}

#define NL_HDRS	(16 + 20)

/* A msg holding one cmd header: a status (n 0) or n bytes of data. */
static void xb_reply(struct xb *x, uint8_t type, uint8_t status,
		     const uint8_t id[8], uint8_t code, unsigned int n)
{
	xb_msg(x, type, status, 4 + n, id);
	xb_cmd(x, code, n);
}

/* The cn_msg of a status reply (w1_netlink_queue_status()): ack echoed. */
static void xb_cn_status(struct xb *x, uint8_t type, uint8_t status,
			 const uint8_t id[8], uint8_t code)
{
	xb_cn(x, x->ack, 16);
	xb_reply(x, type, status, id, code, 0);
}

/* The cn_msg of a data reply (w1_netlink_queue_cmd()): ack seq + 1. */
static void xb_cn_data(struct xb *x, uint8_t type, const uint8_t id[8],
		       uint8_t code, unsigned int n)
{
	xb_cn(x, x->seq + 1, 16 + n);
	xb_reply(x, type, 0, id, code, n);
}

/* A status reply sent on its own. */
static void xb_status(struct xb *x, uint8_t type, uint8_t status,
		      const uint8_t id[8], uint8_t code)
{
	xb_nl(x, NL_HDRS + 16);
	xb_cn_status(x, type, status, id, code);
}

/* A data reply sent on its own. */
static void xb_data(struct xb *x, uint8_t type, const uint8_t id[8],
		    uint8_t code, unsigned int n)
{
	xb_nl(x, NL_HDRS + 16 + n);
	xb_cn_data(x, type, id, code, n);
}

/* A READ/TOUCH/list command unbundled: its data, then its status 0. */
static void xb_data_status(struct xb *x, uint8_t type, const uint8_t id[8],
			   uint8_t code, unsigned int n)
{
	xb_data(x, type, id, code, n);
	xb_status(x, type, 0, id, code);
}

/* The same bundled: both cn_msgs in one netlink message. */
static void xb_bundled_data_status(struct xb *x, uint8_t type,
				   const uint8_t id[8], uint8_t code,
				   unsigned int n)
{
	xb_nl(x, NL_HDRS + 16 + n + 20 + 16);
	xb_cn_data(x, type, id, code, n);
	xb_cn_status(x, type, 0, id, code);
}

/* w1_netlink_send_error(): header copies, cn.len 12, msg.len 0. */
static void xb_error(struct xb *x, uint8_t type, uint8_t status,
		     const uint8_t id[8])
{
	xb_nl(x, NL_HDRS + 12);
	xb_cn(x, x->ack, 12);
	xb_msg(x, type, status, 0, id);
}

/* ---- exchanges ------------------------------------------------------------ */

struct xchg {
	uint32_t seq, ack;
	uint16_t flags;
	struct rx rx;
	struct xb x;
};

enum ack_mode { ACK_OTHER, ACK_SEQ_PLUS_1 };

/*
 * An exchange: xchg_begin() picks seq and ack and returns the expected
 * shape, which the caller fills in with xb_*() before or after
 * xchg_send(); xchg_shape_ok() compares.  xchg_check() sends and compares.
 */
static struct xb *xchg_begin(struct xchg *xc, uint16_t flags,
			     enum ack_mode am)
{
	rx_free(&xc->rx);
	xc->seq = next_seq++;
	xc->ack = am == ACK_SEQ_PLUS_1 ? xc->seq + 1 : 0x5a000000u | xc->seq;
	xc->flags = flags;
	memset(&xc->x, 0, sizeof(xc->x));
	xc->x.seq = xc->seq;
	xc->x.ack = xc->ack;
	xc->x.flags = flags;
	return &xc->x;
}

/*
 * Send r and collect the replies.  want: w1 netlink messages expected;
 * cn_len < 0 means r->len.  0, or -1 if the send failed.
 */
static int xchg_send(struct xchg *xc, struct w1_req *r, int want,
		     int grace_ms, int cn_len)
{
	rx_drain();
	if (w1_req_send(r, nl_fd, xc->seq, xc->ack, xc->flags, cn_len))
		return -1;
	rx_collect(&xc->rx, want, grace_ms);
	return 0;
}

/* Compare the rendered replies with the expected shape. */
static bool xchg_shape_ok(struct xchg *xc, char *why, size_t wl)
{
	if (strcmp(xc->rx.render, xc->x.s) == 0)
		return true;
	ktap_print_msg("expected: %s", xc->x.s[0] ? xc->x.s : "(no reply)");
	ktap_print_msg("received: %s", xc->rx.render[0] ? xc->rx.render : "(no reply)");
	snprintf(why, wl,
		 "%d netlink message(s) received; reply shape differs from the 6.12 one (see diagnostics)",
		 xc->rx.n);
	return false;
}

/*
 * Send r (true cn.len) and compare the replies with the expected shape;
 * netlink messages without a w1 cn_msg (zeroed flushes) are only noted.
 */
static bool xchg_check(struct xchg *xc, struct w1_req *r, int want,
		       int grace_ms, char *why, size_t wl)
{
	if (xchg_send(xc, r, want, grace_ms, -1)) {
		snprintf(why, wl, "send: %s", strerror(errno));
		return false;
	}
	if (xc->rx.foreign)
		ktap_print_msg("%d zeroed cn_msg(s) before the replies (w1_reply_make_space)",
			       xc->rx.foreign);
	return xchg_shape_ok(xc, why, wl);
}

/* The n-th cmd with the given code and data length, or NULL. */
static const struct rx_cmd *rx_find_cmd(const struct rx *rx, uint8_t code,
					int n)
{
	for (int i = 0; i < rx->ncmd; i++)
		if (rx->cmd[i].c.cmd == code && rx->cmd[i].c.len &&
		    n-- == 0)
			return &rx->cmd[i];
	return NULL;
}

/* The 8-byte ids in a list reply's data (none if c is NULL), max at most. */
static int rx_ids(const struct rx_cmd *c, uint8_t ids[][8], int max)
{
	int n = 0;

	for (int i = 0; c && i < c->c.len / 8 && i < max; i++)
		memcpy(ids[n++], c->data + 8 * i, 8);
	return n;
}

static struct xchg g_xc;	/* large: keep it off the stack */
static struct xchg h_xc;	/* for helpers */

/* ---- helper exchanges (setup and verification) ---------------------------- */

/* SLAVE_CMD s [WRITE w][READ rn]; data into rd. */
static int nl_write_read(const struct w1_slave_rom *s, const uint8_t *w,
			 uint16_t wn, uint8_t *rd, uint16_t rn, char *why,
			 size_t wl)
{
	static struct w1_req r;
	struct xchg *xc = &h_xc;
	struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
	const struct rx_cmd *c;
	uint8_t zero[256] = { 0 };

	req_single(&r, W1_SLAVE_CMD, s->id, W1_CMD_WRITE, w, wn);
	xb_status(x, W1_SLAVE_CMD, 0, s->id, W1_CMD_WRITE);
	if (rn) {
		w1_req_cmd(&r, W1_CMD_READ, zero, rn);
		xb_data_status(x, W1_SLAVE_CMD, s->id, W1_CMD_READ, rn);
	}
	if (!xchg_check(xc, &r, rn ? 3 : 1, HELPER_GRACE_MS, why, wl))
		return -1;
	if (rn) {
		c = rx_find_cmd(&xc->rx, W1_CMD_READ, 0);
		if (!c || c->c.len != rn) {
			snprintf(why, wl, "no READ data");
			return -1;
		}
		memcpy(rd, c->data, rn);
	}
	return 0;
}

static int nl_read_scratchpad(uint8_t sp[9], char *why, size_t wl)
{
	const uint8_t be = 0xbe;

	if (nl_write_read(T1, &be, 1, sp, 9, why, wl))
		return -1;
	if (w1_crc8(sp, 9) != 0) {
		snprintf(why, wl,
			 "scratchpad %02x %02x %02x %02x %02x %02x %02x %02x %02x fails CRC8",
			 sp[0], sp[1], sp[2], sp[3], sp[4], sp[5], sp[6], sp[7],
			 sp[8]);
		return -1;
	}
	return 0;
}

/* MASTER_CMD 1 [code], code a data-returning list command: ids out. */
static int nl_list(uint8_t code, uint8_t ids[][8], int max, int *n,
		   char *why, size_t wl)
{
	static struct w1_req r;
	struct xchg *xc = &h_xc;
	struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
	const struct rx_cmd *c = NULL;

	req_single(&r, W1_MASTER_CMD, ID1, code, NULL, 0);
	*n = 0;
	if (xchg_send(xc, &r, 2, HELPER_GRACE_MS, -1)) {
		snprintf(why, wl, "send: %s", strerror(errno));
		return -1;
	}
	/* the data reply whatever its length: the caller judges the ids */
	for (int i = 0; i < xc->rx.ncmd; i++)
		if (xc->rx.cmd[i].c.cmd == code && xc->rx.msg[xc->rx.cmd[i].msg].cn.ack == xc->seq + 1)
			c = &xc->rx.cmd[i];
	xb_data_status(x, W1_MASTER_CMD, ID1, code, c ? c->c.len : 0);
	if (!xchg_shape_ok(xc, why, wl))
		return -1;
	if (!c) {
		snprintf(why, wl, "no data reply");
		return -1;
	}
	if (c->c.len % 8) {
		snprintf(why, wl, "id list of %u bytes", c->c.len);
		return -1;
	}
	*n = rx_ids(c, ids, max);
	return 0;
}

/* MASTER_CMD 1 [SLAVE_ADD/REMOVE id]: the status byte, or -1. */
static int nl_addremove(uint8_t code, const uint8_t id[8], char *why,
			size_t wl)
{
	static struct w1_req r;
	struct xchg *xc = &h_xc;

	xchg_begin(xc, 0, ACK_OTHER);
	req_single(&r, W1_MASTER_CMD, ID1, code, id, 8);
	if (xchg_send(xc, &r, 1, HELPER_GRACE_MS, -1)) {
		snprintf(why, wl, "send: %s", strerror(errno));
		return -1;
	}
	if (xc->rx.nmsg != 1) {
		snprintf(why, wl, "%d reply msgs to SLAVE_ADD/REMOVE", xc->rx.nmsg);
		return -1;
	}
	return xc->rx.msg[0].m.status;
}

static void fake_rom(uint16_t tag, uint8_t id[8], char *name, size_t len)
{
	w1_make_rom(0x01, 0xfa0000000000ULL | tag, id, name, len);
}

/* Remove a fake slave left by a failed case (negative controls). */
static void fake_cleanup(const uint8_t id[8], const char *sysname)
{
	char why[300];

	if (!slave_dir_exists(sysname))
		return;
	ktap_print_msg("removing leftover slave %s", sysname);
	if (nl_addremove(W1_CMD_SLAVE_REMOVE, id, why, sizeof(why)) != 0)
		ktap_print_msg("SLAVE_REMOVE %s: %s", sysname, why);
}

/* Events received within ms (all of them, after any already queued). */
static int events_within(struct w1_event *evs, int max, long ms)
{
	long long end = now_ms() + ms;
	int n = 0;

	for (;;) {
		struct w1_event ev;
		long left = (long)(end - now_ms());

		if (left < 0)
			left = 0;
		if (w1_event_recv(ev_fd, &ev, left) != 1)
			break;
		if (n < max)
			evs[n] = ev;
		n++;
	}
	for (int i = 0; i < n && i < max; i++) {
		char s[300];

		w1_event_str(&evs[i], s, sizeof(s));
		ktap_print_msg("event: %s", s);
	}
	return n;
}

static bool ids_equal_set(uint8_t ids[][8], int n, const int *want, int nwant,
			  char *why, size_t wl)
{
	bool seen[SL_COUNT] = { false };

	if (n != nwant) {
		snprintf(why, wl, "%d ids, expected %d", n, nwant);
		goto dump;
	}
	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < nwant; k++)
			if (!memcmp(ids[i], w1_slaves[want[k]].id, 8))
				break;
		if (k == nwant || seen[k]) {
			char hex[17];

			fmt_id(ids[i], hex);
			snprintf(why, wl, "%s id %s", k == nwant ? "unexpected" :
				 "duplicate", hex);
			goto dump;
		}
		seen[k] = true;
	}
	return true;
dump:
	for (int i = 0; i < n; i++) {
		char hex[17];

		fmt_id(ids[i], hex);
		ktap_print_msg("id[%d] = %s", i, hex);
	}
	return false;
}

static const int ALL4[] = { SL_T1, SL_E1, SL_P1, SL_P2 };

/* ---- temperature ---------------------------------------------------------- */

/* CRC8 valid and the temperature register is the model's. */
static bool scratchpad_ok(const uint8_t sp[9], char *why, size_t wl)
{
	int reg = ds18b20_reg(t1_mC, 12);

	if (w1_crc8(sp, 9) != 0) {
		snprintf(why, wl, "scratchpad CRC8 invalid (byte 8 %02x, computed %02x)",
			 sp[8], w1_crc8(sp, 8));
		return false;
	}
	if (sp[0] != (uint8_t)reg || sp[1] != (uint8_t)(reg >> 8)) {
		snprintf(why, wl, "temperature register %02x %02x, expected %02x %02x (%ld m°C)",
			 sp[0], sp[1], (uint8_t)reg, (uint8_t)(reg >> 8), t1_mC);
		return false;
	}
	return true;
}

/* ---- cases ---------------------------------------------------------------- */

static bool setup_ok;

static void c_setup(const char *name)
{
	long v = -1;
	char why[300];

	if (!wait_for_discovery(SL_COUNT, SETUP_WAIT_MS))
		FAIL("w1_bus_master1 with 4 slaves did not appear within %d ms (slave count %ld)",
		     SETUP_WAIT_MS, master_slave_count());
	if (write_str(W1_MASTER "/w1_master_search", "0\n") ||
	    read_long(W1_MASTER "/w1_master_search", &v) || v != 0)
		FAIL("cannot stop the background search (w1_master_search %ld)", v);
	/* a search may have been running; let it finish */
	sleep_ms(1200);
	if (nl_read_scratchpad(sp_orig, why, sizeof(why)))
		FAIL("reading t1's scratchpad over netlink: %s", why);
	sp_orig_valid = true;
	setup_ok = true;
	PASS();
}

static void n1_list_masters(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	const struct rx_msg *m;
	uint8_t zero[8] = { 0 };
	uint32_t id;

	xchg_begin(xc, 0, ACK_OTHER);
	w1_req_init(&r);
	w1_req_msg(&r, W1_LIST_MASTERS, zero);
	if (xchg_send(xc, &r, 1, GRACE_MS, -1))
		FAIL("send: %s", strerror(errno));
	if (xc->rx.n != 1 || xc->rx.nmsg != 1)
		FAIL("%d netlink messages / %d msgs, expected 1 / 1: %s", xc->rx.n,
		     xc->rx.nmsg, xc->rx.render);
	m = &xc->rx.msg[0];
	/* cn.flags and msg.id are uninitialised kmalloc memory in 6.12 */
	if (m->nl_len != NL_HDRS + 16 || m->cn.seq != xc->seq ||
	    m->cn.ack != xc->seq + 1 || m->cn.len != 16 ||
	    m->m.type != W1_LIST_MASTERS || m->m.status != 0 || m->m.len != 4)
		FAIL("reply %s; expected nlmsg_len 52, cn seq %#x ack %#x len 16, msg type 6 status 0 len 4",
		     xc->rx.render, xc->seq, xc->seq + 1);
	memcpy(&id, m->data, 4);
	if (id != 1)
		FAIL("master id list [%u], expected [1]", id);
	PASS();
}

/*
 * The kernel builds the LIST_MASTERS reply in a buffer of its own; every
 * header byte it sends must be set. cn.flags and msg.id were left as
 * kmalloc() returned them (6.12.118: w1_process_command_root());
 * slub_debug=P on kmalloc-4k (images/suites/w1.append) makes such bytes
 * 0x6b every time instead of whatever the heap held.
 */
static void n1_list_masters_zeroed(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	const struct rx_msg *m;
	uint8_t zero[8] = { 0 };

	xchg_begin(xc, 0, ACK_OTHER);
	w1_req_init(&r);
	w1_req_msg(&r, W1_LIST_MASTERS, zero);
	if (xchg_send(xc, &r, 1, GRACE_MS, -1))
		FAIL("send: %s", strerror(errno));
	if (xc->rx.nmsg != 1)
		FAIL("%d msgs in the reply, expected 1: %s", xc->rx.nmsg, xc->rx.render);
	m = &xc->rx.msg[0];
	if (m->cn.flags != 0 || memcmp(m->m.id.id, zero, 8))
		FAIL("cn flags %#06x, msg id %02x%02x%02x%02x%02x%02x%02x%02x: kernel memory, expected zeros",
		     m->cn.flags, m->m.id.id[0], m->m.id.id[1], m->m.id.id[2],
		     m->m.id.id[3], m->m.id.id[4], m->m.id.id[5], m->m.id.id[6],
		     m->m.id.id[7]);
	PASS();
}

/*
 * MASTER_CMD 1 [code], code SEARCH or LIST_SLAVES: data and status reply
 * as flags say, the data listing the four default slaves; ids out.
 */
static void list_case(const char *name, uint8_t code, uint16_t flags,
		      uint8_t ids[16][8], int *n)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x = xchg_begin(xc, flags, ACK_OTHER);
	bool bundled = flags & W1_CN_BUNDLE;
	char why[300];

	req_single(&r, W1_MASTER_CMD, ID1, code, NULL, 0);
	if (bundled)
		xb_bundled_data_status(x, W1_MASTER_CMD, ID1, code, 8 * SL_COUNT);
	else
		xb_data_status(x, W1_MASTER_CMD, ID1, code, 8 * SL_COUNT);
	if (!xchg_check(xc, &r, bundled ? 1 : 2, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	*n = rx_ids(rx_find_cmd(&xc->rx, code, 0), ids, 16);
	if (!ids_equal_set(ids, *n, ALL4, SL_COUNT, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static uint8_t search_ids[16][8];
static int search_n = -1;

static void n2_search(const char *name)
{
	list_case(name, W1_CMD_SEARCH, 0, search_ids, &search_n);
}

static uint64_t bitrev_key(const uint8_t id[8])
{
	uint64_t v = 0, k = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | id[i];
	for (int i = 0; i < 64; i++)
		k |= ((v >> i) & 1) << (63 - i);
	return k;
}

/* ds2490.md 2.9: starting at path 0 the ids come in ascending bit-reversed order */
static void n2_search_order(const char *name)
{
	int order[SL_COUNT] = { SL_T1, SL_E1, SL_P1, SL_P2 };

	if (search_n != SL_COUNT)
		FAIL("the SEARCH case did not return 4 ids");
	for (int i = 0; i < SL_COUNT; i++)
		for (int j = i + 1; j < SL_COUNT; j++)
			if (bitrev_key(w1_slaves[order[j]].id) <
			    bitrev_key(w1_slaves[order[i]].id)) {
				int t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
	for (int i = 0; i < SL_COUNT; i++)
		if (memcmp(search_ids[i], w1_slaves[order[i]].id, 8)) {
			char got[17];

			fmt_id(search_ids[i], got);
			FAIL("id %d is %s, expected %s (order %s %s %s %s)", i, got,
			     w1_slaves[order[i]].name, w1_slaves[order[0]].name,
			     w1_slaves[order[1]].name, w1_slaves[order[2]].name,
			     w1_slaves[order[3]].name);
		}
	PASS();
}

static void n3_search_bundled(const char *name)
{
	uint8_t ids[16][8];
	int n;

	list_case(name, W1_CMD_SEARCH, W1_CN_BUNDLE, ids, &n);
}

static void n4_list_slaves(const char *name)
{
	uint8_t ids[16][8];
	int n;

	list_case(name, W1_CMD_LIST_SLAVES, 0, ids, &n);
}

/* One message with one command, answered by a lone status reply. */
static void status_case(const char *name, uint8_t type, const uint8_t id[8],
			uint8_t code, const void *data, uint16_t len,
			uint8_t status)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x;
	char why[300];

	req_single(&r, type, id, code, data, len);
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_status(x, type, status, id, code);
	if (!xchg_check(xc, &r, 1, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void n5_reset(const char *name)
{
	status_case(name, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0, 0);
}

static void n6_convert(const char *name)
{
	const uint8_t conv = 0x44;

	status_case(name, W1_SLAVE_CMD, T1->id, W1_CMD_WRITE, &conv, 1, 0);
	sleep_ms(CONVERT_MS);	/* before the next case reads the result */
}

/* Append SLAVE_CMD t1 [WRITE be (read scratchpad)][READ 9]. */
static void add_read_sp(struct w1_req *r)
{
	static const uint8_t be = 0xbe, z[9] = { 0 };

	w1_req_msg(r, W1_SLAVE_CMD, T1->id);
	w1_req_cmd(r, W1_CMD_WRITE, &be, 1);
	w1_req_cmd(r, W1_CMD_READ, z, 9);
}

static void read_sp_req(struct w1_req *r)
{
	w1_req_init(r);
	add_read_sp(r);
}

/* MASTER_CMD 1 [RESET] first */
static void multi_req(struct w1_req *r)
{
	req_single(r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
	add_read_sp(r);
}

/*
 * The scratchpad read cases: send the request build() makes on the exchange
 * xc begun by the caller, who wrote the expected shape of want netlink
 * messages; the READ data must be t1's scratchpad.
 */
static void sp_case(const char *name, struct xchg *xc,
		    void (*build)(struct w1_req *r), int want)
{
	static struct w1_req r;
	char why[300];

	build(&r);
	if (!xchg_check(xc, &r, want, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	if (xc->rx.n != want)
		FAIL("%d netlink messages, expected %d", xc->rx.n, want);
	if (!scratchpad_ok(rx_find_cmd(&xc->rx, W1_CMD_READ, 0)->data, why,
			   sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void n6_read_unbundled(const char *name)
{
	struct xb *x = xchg_begin(&g_xc, 0, ACK_OTHER);

	/* nlmsg_len 52 / 61 / 52 */
	xb_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
	xb_data_status(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
	sp_case(name, &g_xc, read_sp_req, 3);
}

static void n6_read_bundled(const char *name)
{
	struct xb *x = xchg_begin(&g_xc, W1_CN_BUNDLE, ACK_OTHER);

	/* one netlink message of 16 + 36 + 45 + 36 = 133 bytes */
	xb_nl(x, 133);
	xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
	xb_cn_data(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
	xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ);
	sp_case(name, &g_xc, read_sp_req, 1);
}

/*
 * w1_netlink_setup_msg() appends to the current cn_msg whenever the ack
 * matches: with ack == seq + 1 the status replies (ack echoed) and the data
 * reply (seq + 1) all land in one cn_msg.
 */
static void n6_read_bundled_ack(const char *name)
{
	struct xb *x = xchg_begin(&g_xc, W1_CN_BUNDLE, ACK_SEQ_PLUS_1);

	xb_nl(x, NL_HDRS + 57);
	xb_cn(x, x->seq + 1, 57);
	xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE, 0);
	xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ, 9);
	xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ, 0);
	sp_case(name, &g_xc, read_sp_req, 1);
}

static int read_eeprom_sysfs(uint8_t *buf, size_t len)
{
	char path[256];
	int fd, n;

	snprintf(path, sizeof(path), W1_DEVICES "/%s/eeprom", E1->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = (int)pread(fd, buf, len, 0);
	close(fd);
	return n == (int)len ? 0 : -1;
}

static void n7_touch(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x;
	const struct rx_cmd *c;
	uint8_t t[11] = { 0xf0, 0x00, 0x00 }, mem[8];
	char why[300], got[40], want[40];
	bool ok;

	if (read_eeprom_sysfs(mem, sizeof(mem)))
		FAIL("cannot read %s/eeprom", E1->name);
	memset(t + 3, 0xff, 8);
	req_single(&r, W1_SLAVE_CMD, E1->id, W1_CMD_TOUCH, t, sizeof(t));
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_data_status(x, W1_SLAVE_CMD, E1->id, W1_CMD_TOUCH, 11);
	/*
	 * w1_touch_block() does one DS2490 BIT_IO round trip (COMM, status
	 * poll at the 1 ms interrupt interval, bulk IN) per bit: 88 of them
	 * before the first reply; allow more than 2 s on a slow emulator.
	 */
	rx_wait_ms = TOUCH_TIMEOUT_MS;
	ok = xchg_check(xc, &r, 2, GRACE_MS, why, sizeof(why));
	rx_wait_ms = RX_TIMEOUT_MS;
	if (!ok)
		FAIL("%s", why);
	c = rx_find_cmd(&xc->rx, W1_CMD_TOUCH, 0);
	if (memcmp(c->data, t, 3) || memcmp(c->data + 3, mem, 8)) {
		w1_hex(c->data, 11, got, sizeof(got));
		w1_hex(mem, 8, want, sizeof(want));
		FAIL("TOUCH returned %s, expected f00000 + %s", got, want);
	}
	PASS();
}

static void n8_multi_bundled(const char *name)
{
	struct xb *x = xchg_begin(&g_xc, W1_CN_BUNDLE, ACK_OTHER);

	/*
	 * 16 + (20 + 32) + (20 + 25) + (20 + 16) = 149: the two status
	 * replies with ack A share the first cn_msg.
	 */
	xb_nl(x, 149);
	xb_cn(x, x->ack, 32);
	xb_reply(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET, 0);
	xb_reply(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE, 0);
	xb_cn_data(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
	xb_cn_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_READ);
	sp_case(name, &g_xc, multi_req, 1);
}

static void n8_multi_unbundled(const char *name)
{
	struct xb *x = xchg_begin(&g_xc, 0, ACK_OTHER);

	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
	xb_status(x, W1_SLAVE_CMD, 0, T1->id, W1_CMD_WRITE);
	xb_data_status(x, W1_SLAVE_CMD, T1->id, W1_CMD_READ, 9);
	sp_case(name, &g_xc, multi_req, 4);
}

/*
 * ALARM_SEARCH (N4): p1 (DS2408) is set up not to take part in a
 * conditional search (mask PIO0, polarity 0, OR, pin high); DS2431 and
 * DS2413 have no conditional search; so t1 alone decides.
 */
static bool alarm_setup_done;

static int alarm_setup(char *why, size_t wl)
{
	static const uint8_t out_ff[] = { 0x5a, 0xff, 0x00 };
	static const uint8_t cond[] = { 0xcc, 0x8b, 0x00, 0x01, 0x00, 0x00 };
	uint8_t confirm;
	char w2[300];

	if (nl_write_read(P1, out_ff, sizeof(out_ff), &confirm, 1, w2, sizeof(w2))) {
		snprintf(why, wl, "p1 channel write ff: %s", w2);
		return -1;
	}
	if (confirm != 0xaa) {
		snprintf(why, wl, "p1 channel write ff confirmed with %02x, expected aa",
			 confirm);
		return -1;
	}
	if (nl_write_read(P1, cond, sizeof(cond), NULL, 0, w2, sizeof(w2))) {
		snprintf(why, wl, "p1 conditional search registers: %s", w2);
		return -1;
	}
	alarm_setup_done = true;
	return 0;
}

static void alarm_teardown(void)
{
	static const uint8_t cond[] = { 0xcc, 0x8b, 0x00, 0x00, 0x00, 0x00 };
	char why[300];

	if (alarm_setup_done &&
	    nl_write_read(P1, cond, sizeof(cond), NULL, 0, why, sizeof(why)))
		ktap_print_msg("restoring p1 conditional search registers: %s", why);
	if (sp_orig_valid) {
		uint8_t w[4] = { 0x4e, sp_orig[2], sp_orig[3], sp_orig[4] };

		if (nl_write_read(T1, w, sizeof(w), NULL, 0, why, sizeof(why)))
			ktap_print_msg("restoring t1 TH/TL/config: %s", why);
	}
	alarm_setup_done = false;
}

/* Write TH/TL, convert, ALARM_SEARCH; ids out. */
static int alarm_search(int8_t th, int8_t tl, uint8_t ids[][8], int *n,
			char *why, size_t wl)
{
	uint8_t w[4] = { 0x4e, (uint8_t)th, (uint8_t)tl, sp_orig[4] };
	const uint8_t conv = 0x44;
	char w2[300];

	if (nl_write_read(T1, w, sizeof(w), NULL, 0, w2, sizeof(w2))) {
		snprintf(why, wl, "t1 write scratchpad: %s", w2);
		return -1;
	}
	if (nl_write_read(T1, &conv, 1, NULL, 0, w2, sizeof(w2))) {
		snprintf(why, wl, "t1 convert: %s", w2);
		return -1;
	}
	sleep_ms(CONVERT_MS);
	return nl_list(W1_CMD_ALARM_SEARCH, ids, 16, n, why, wl);
}

/* With t1's TH at th and TL at -55, ALARM_SEARCH finds exactly want. */
static void alarm_case(const char *name, int th, const int *want, int nwant)
{
	uint8_t ids[16][8];
	char why[400];
	int n;

	if (!sp_orig_valid)
		FAIL("t1's scratchpad is unknown (setup failed)");
	if (!alarm_setup_done && alarm_setup(why, sizeof(why)))
		FAIL("setup: %s", why);
	if (alarm_search((int8_t)th, -55, ids, &n, why, sizeof(why)))
		FAIL("%s", why);
	if (!ids_equal_set(ids, n, want, nwant, why, sizeof(why)))
		FAIL("TH %d: %s", th, why);
	PASS();
}

static void n4_alarm_none(const char *name)
{
	/* TH 125, TL -55: no alarm at any temperature inside the range */
	alarm_case(name, 125, NULL, 0);
}

static void n4_alarm_t1(const char *name)
{
	static const int want[] = { SL_T1 };
	/* T_int - 1: alarming whether the device compares >= or > */
	int th = (int)floor_div(ds18b20_reg(t1_mC, 12), 16) - 1;

	alarm_case(name, th, want, 1);
}

/*
 * A netlink (ALARM_)SEARCH runs w1_search_process_cb(): every attached
 * slave the search did not find loses one ttl, and the two alarm searches
 * above (wire.slave_ttl=2) detach all but t1. A plain SEARCH attaches them
 * again. The alarm setup is undone only then, since it talks to p1.
 */
static void n4_alarm_ages_out(const char *name)
{
	uint8_t ids[16][8];
	char why[400];
	int after_alarm, found, attached;

	/*
	 * Count through LIST_SLAVES, which the master thread serialises after
	 * the detaches. Reading w1_master_slave_count in sysfs at this moment
	 * blocked for over 60 s on 6.12.118 (docs/suites/w1.md).
	 */
	if (nl_list(W1_CMD_LIST_SLAVES, ids, 16, &after_alarm, why, sizeof(why)) ||
	    nl_list(W1_CMD_SEARCH, ids, 16, &found, why, sizeof(why)) ||
	    nl_list(W1_CMD_LIST_SLAVES, ids, 16, &attached, why, sizeof(why))) {
		alarm_teardown();
		FAIL("%s", why);
	}
	alarm_teardown();
	if (after_alarm != 1)
		FAIL("%d slaves attached after two alarm searches, expected 1 (t1)",
		     after_alarm);
	if (found != SL_COUNT || attached != SL_COUNT)
		FAIL("SEARCH found %d ids, then %d attached, expected %d", found,
		     attached, SL_COUNT);
	PASS();
}

/* ---- N9: unknown cn_msg flags --------------------------------------------- */

/* An N9 case has two results: "<table name>: <each of these>". */
#define N9_REPLY	"single EINVAL reply echoing the request header"
#define N9_NOTHING	"nothing in the packet executed"

static void unknown_flag(const char *name, uint16_t flag, uint16_t tag)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	char name1[160], name2[160], why[400] = "", path[256];
	char alarms_before[64] = "", alarms_after[64] = "", fake_name[32];
	uint8_t fake[8], ids[16][8], w[4] = { 0x4e, 0x11, 0x22, 0x7f };
	struct w1_event evs[8];
	struct xb *x;
	int nev, nids = 0, r1 = -ENOENT;
	bool shape;
	/* without w1_therm, t1's alarms file cannot show the scratchpad write */
	const char *no_therm = kconfig_lacks(NEED_THERM);

	snprintf(name1, sizeof(name1), "%s: " N9_REPLY, name);
	snprintf(name2, sizeof(name2), "%s: " N9_NOTHING, name);
	fake_rom(tag, fake, fake_name, sizeof(fake_name));
	snprintf(path, sizeof(path), W1_DEVICES "/%s/alarms", T1->name);

	if (!no_therm)
		r1 = (int)read_file(path, alarms_before, sizeof(alarms_before));
	if (r1 > 0) {
		int tl = 0, th = 0;

		/* make the scratchpad write observable */
		if (sscanf(alarms_before, "%d %d", &tl, &th) == 2) {
			if (th == 0x11)
				w[1] = 0x13;
			if (tl == 0x22)
				w[2] = 0x24;
		}
	}
	w1_event_drain(ev_fd);

	/* msg 1: MASTER_CMD 1 [SLAVE_ADD fake]; msg 2: SLAVE_CMD t1 [WRITE 4e ..] */
	req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_ADD, fake, 8);
	w1_req_msg(&r, W1_SLAVE_CMD, T1->id);
	w1_req_cmd(&r, W1_CMD_WRITE, w, sizeof(w));
	x = xchg_begin(xc, flag, ACK_OTHER);
	xb_error(x, W1_MASTER_CMD, ERR_EINVAL, ID1);
	if (xchg_send(xc, &r, 1, GRACE_SILENT_MS, -1)) {
		ktap_test_fail(name1, "send: %s", strerror(errno));
		ktap_test_fail(name2, "send failed");
		return;
	}
	shape = xchg_shape_ok(xc, why, sizeof(why));
	if (shape && xc->rx.foreign)
		snprintf(why, sizeof(why), "%d extra non-w1 netlink message(s)",
			 xc->rx.foreign);
	if (shape && !xc->rx.foreign)
		ktap_test_pass(name1);
	else
		ktap_test_fail(name1, "%s", why);

	/* nothing executed: no slave added, no scratchpad write, no event */
	why[0] = '\0';
	nev = events_within(evs, (int)ARRAY_SIZE(evs), 0);
	if (r1 > 0 && read_file(path, alarms_after, sizeof(alarms_after)) <= 0)
		alarms_after[0] = '\0';
	if (slave_dir_exists(fake_name))
		snprintf(why, sizeof(why), "SLAVE_ADD executed: %s/%s exists",
			 W1_DEVICES, fake_name);
	else if (master_slave_count() != SL_COUNT)
		snprintf(why, sizeof(why), "w1_master_slave_count %ld, expected %d",
			 master_slave_count(), SL_COUNT);
	if (!why[0]) {
		char w2[300];

		if (nl_list(W1_CMD_LIST_SLAVES, ids, 16, &nids, w2, sizeof(w2)))
			snprintf(why, sizeof(why), "LIST_SLAVES: %s", w2);
		else if (!ids_equal_set(ids, nids, ALL4, SL_COUNT, w2, sizeof(w2)))
			snprintf(why, sizeof(why), "LIST_SLAVES: %s", w2);
	}
	if (!why[0] && nev)
		snprintf(why, sizeof(why), "%d w1 event(s) broadcast", nev);
	if (!why[0] && !no_therm) {
		if (r1 <= 0 || !alarms_after[0])
			snprintf(why, sizeof(why), "cannot read %s", path);
		else if (strcmp(alarms_before, alarms_after))
			snprintf(why, sizeof(why),
				 "scratchpad write executed: t1 alarms '%.*s' -> '%.*s'",
				 (int)strcspn(alarms_before, "\n"), alarms_before,
				 (int)strcspn(alarms_after, "\n"), alarms_after);
	}
	/*
	 * Evidence that something ran fails the case on any kernel; with part
	 * of the evidence missing, a clean result is not a pass.
	 */
	if (why[0])
		ktap_test_fail(name2, "%s", why);
	else if (no_therm)
		ktap_test_skip(name2, "%s: no t1 alarms file to show the scratchpad write",
			       no_therm);
	else
		ktap_test_pass(name2);

	/* undo whatever a kernel without the check did */
	fake_cleanup(fake, fake_name);
	if (alarms_before[0] && alarms_after[0] &&
	    strcmp(alarms_before, alarms_after))
		write_str(path, alarms_before);
	w1_event_drain(ev_fd);
}

/*
 * An unknown flag on a request that holds no w1_netlink_msg (cn.len 0):
 * the EINVAL reply echoes the cn_msg, and its msg can only be zeros with
 * the status. 6.12.118 copied 12 bytes from past the end of the request,
 * out of the socket buffer's tail (w1_netlink_send_error()); slub_debug=P
 * on skbuff_small_head (images/suites/w1.append) makes them 0x6b.
 */
static void n9_flag_empty(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	const struct rx_msg *m;
	const uint8_t zero[8] = { 0 };

	xchg_begin(xc, 0x8000, ACK_OTHER);
	w1_req_init(&r);
	if (xchg_send(xc, &r, 1, GRACE_MS, 0))
		FAIL("send: %s", strerror(errno));
	if (xc->rx.nmsg != 1)
		FAIL("%d msgs in the reply, expected 1: %s", xc->rx.nmsg, xc->rx.render);
	m = &xc->rx.msg[0];
	if (m->cn.flags != 0x8000 || m->cn.len != sizeof(m->m) ||
	    m->m.status != EINVAL)
		FAIL("reply cn flags %#x len %u status %u, expected 0x8000, %zu, EINVAL: %s",
		     m->cn.flags, m->cn.len, m->m.status, sizeof(m->m), xc->rx.render);
	if (m->m.type != 0 || m->m.len != 0 || memcmp(m->m.id.id, zero, 8))
		FAIL("reply msg type %#x len %u id %02x%02x%02x%02x%02x%02x%02x%02x: bytes the request did not have, expected zeros",
		     m->m.type, m->m.len, m->m.id.id[0], m->m.id.id[1],
		     m->m.id.id[2], m->m.id.id[3], m->m.id.id[4], m->m.id.id[5],
		     m->m.id.id[6], m->m.id.id[7]);
	PASS();
}

static void n9_flag_0002(const char *name)
{
	unknown_flag(name, 0x0002, 0x0902);
}

static void n9_flag_8000(const char *name)
{
	unknown_flag(name, 0x8000, 0x0980);
}

static void n9_flag_ffff(const char *name)
{
	unknown_flag(name, 0xffff, 0x09ff);
}

/* ---- N10-N13 errors ------------------------------------------------------- */

static void n10_enodev_continues(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x = xchg_begin(xc, W1_CN_BUNDLE, ACK_OTHER);
	uint8_t fake[8], ids[16][8], z = 0;
	char why[300], fname[32];
	int n;

	fake_rom(0x0a10, fake, fname, sizeof(fname));
	req_single(&r, W1_SLAVE_CMD, fake, W1_CMD_READ, &z, 1);
	w1_req_msg(&r, W1_MASTER_CMD, ID1);
	w1_req_cmd(&r, W1_CMD_LIST_SLAVES, NULL, 0);
	/* the error is sent at once from the callback, never bundled */
	xb_error(x, W1_SLAVE_CMD, ERR_ENODEV, fake);
	xb_bundled_data_status(x, W1_MASTER_CMD, ID1, W1_CMD_LIST_SLAVES,
			       8 * SL_COUNT);
	if (!xchg_check(xc, &r, 2, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	n = rx_ids(rx_find_cmd(&xc->rx, W1_CMD_LIST_SLAVES, 0), ids, 16);
	if (!ids_equal_set(ids, n, ALL4, SL_COUNT, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

/* r is answered by one error reply about its msg (type, id), nothing else. */
static void error_case(const char *name, struct w1_req *r, uint8_t type,
		       uint8_t status, const uint8_t id[8])
{
	struct xchg *xc = &g_xc;
	struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
	char why[300];

	xb_error(x, type, status, id);
	if (!xchg_check(xc, r, 1, 1000, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

static void n10_enodev_master(const char *name)
{
	static struct w1_req r;
	uint8_t id99[8];

	w1_master_id_bytes(99, id99);
	req_single(&r, W1_MASTER_CMD, id99, W1_CMD_LIST_SLAVES, NULL, 0);
	error_case(name, &r, W1_MASTER_CMD, ERR_ENODEV, id99);
}

static void n11_eproto_len0(const char *name)
{
	static struct w1_req r;

	w1_req_init(&r);
	w1_req_msg(&r, W1_SLAVE_CMD, T1->id);	/* msg.len 0 */
	w1_req_msg(&r, W1_MASTER_CMD, ID1);
	w1_req_cmd(&r, W1_CMD_LIST_SLAVES, NULL, 0);
	/* the LIST_SLAVES message is not executed */
	error_case(name, &r, W1_SLAVE_CMD, ERR_EPROTO, T1->id);
}

static void wrong_type(const char *name, uint8_t type, bool check_log)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x;
	const uint8_t junk[4] = { 0 };
	char why[300], marker[128], needle[128];
	int found;

	kmsg_mark(marker, sizeof(marker), "w1_netlink wrong type");
	w1_req_init(&r);
	w1_req_msg(&r, type, T1->id);
	w1_req_raw(&r, junk, sizeof(junk), true);	/* msg.len 4 */
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_error(x, type, ERR_EPROTO, T1->id);
	if (!xchg_check(xc, &r, 1, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	if (check_log) {
		snprintf(needle, sizeof(needle),
			 "w1_cn_callback: cn: %x.%x, wrong type: %u, len: 4.",
			 CN_W1_IDX, CN_W1_VAL, type);
		found = klog_has_after(marker, needle);
		if (found != 1)
			FAIL("kernel log: '%s' %s", needle,
			     found < 0 ? "(log or marker unreadable)" : "not found");
	}
	PASS();
}

static void n11_eproto_type0(const char *name)
{
	wrong_type(name, W1_SLAVE_ADD, true);
}

static void n11_eproto_type7(const char *name)
{
	wrong_type(name, 7, false);
}

static void n12_e2big_cmd(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x = xchg_begin(xc, 0, ACK_OTHER);
	struct w1_netlink_cmd big = { .cmd = W1_CMD_READ, .len = 100 };
	const uint8_t pad[4] = { 0 };
	char why[300];

	req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
	w1_req_raw(&r, &big, sizeof(big), true);	/* READ claiming 100 bytes */
	w1_req_raw(&r, pad, sizeof(pad), true);	/* ... of which 4 follow */
	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
	xb_status(x, W1_MASTER_CMD, ERR_E2BIG, ID1, W1_CMD_READ);
	if (!xchg_check(xc, &r, 2, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	PASS();
}

/*
 * A malformed packet: MASTER_CMD 1 [SLAVE_ADD fake tag], then what
 * malform() appends (if anything), cn.len cn_extra bytes beyond the
 * payload.  No reply at all, the fake slave not added, no event.
 */
static void silent_case(const char *name, uint16_t tag,
			void (*malform)(struct w1_req *r), int cn_extra)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct w1_event evs[4];
	uint8_t fake[8];
	char why[300], fake_name[32];
	int nev;

	fake_rom(tag, fake, fake_name, sizeof(fake_name));
	req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_ADD, fake, 8);
	if (malform)
		malform(&r);
	w1_event_drain(ev_fd);
	xchg_begin(xc, 0, ACK_OTHER);	/* expected: nothing */
	if (xchg_send(xc, &r, 0, GRACE_SILENT_MS,
		      cn_extra ? (int)r.len + cn_extra : -1))
		FAIL("send: %s", strerror(errno));
	nev = events_within(evs, (int)ARRAY_SIZE(evs), 0);
	if (slave_dir_exists(fake_name)) {
		fake_cleanup(fake, fake_name);
		FAIL("the packet was executed: slave %s added", fake_name);
	}
	if (!xchg_shape_ok(xc, why, sizeof(why)))
		FAIL("%s", why);
	if (xc->rx.foreign)
		FAIL("%d non-w1 netlink message(s) received", xc->rx.foreign);
	if (nev)
		FAIL("%d w1 event(s) broadcast", nev);
	PASS();
}

/* A second message with msg.len 40 and nothing following. */
static void msg_len_beyond(struct w1_req *r)
{
	w1_req_msg(r, W1_MASTER_CMD, ID1);
	w1_req_set_msg_len(r, 40);
}

static void n12_e2big_msg(const char *name)
{
	silent_case(name, 0x0c12, msg_len_beyond, 0);
}

static void n12_cn_len(const char *name)
{
	/* cn.len 64 bytes beyond what the netlink message carries */
	silent_case(name, 0x0c13, NULL, 64);
}

/* cn.len 16400: netlink payload 20 + 16400 > CONNECTOR_MAX_MSG_SIZE */
static void oversize_write(struct w1_req *r)
{
	static uint8_t pad[16400];

	w1_req_msg(r, W1_MASTER_CMD, ID1);
	memset(pad, 0xff, sizeof(pad));
	w1_req_cmd(r, W1_CMD_WRITE, pad,
		   (uint16_t)(16400 - r->len - sizeof(struct w1_netlink_cmd)));
}

static void n16_oversize(const char *name)
{
	silent_case(name, 0x0f16, oversize_write, 0);
}

static void einval_case(const char *name, uint8_t type,
			const uint8_t id[8], uint8_t code, const void *data,
			uint16_t len)
{
	status_case(name, type, id, code, data, len, ERR_EINVAL);
}

static void n13_slave_reset(const char *name)
{
	einval_case(name, W1_SLAVE_CMD, T1->id, W1_CMD_RESET, NULL, 0);
}

static void n13_slave_search(const char *name)
{
	einval_case(name, W1_SLAVE_CMD, T1->id, W1_CMD_SEARCH, NULL, 0);
}

static void n13_master_cmd9(const char *name)
{
	einval_case(name, W1_MASTER_CMD, ID1, W1_CMD_MAX, NULL, 0);
}

static void n13_add_len7(const char *name)
{
	uint8_t fake[8];

	fake_rom(0x0d13, fake, NULL, 0);
	einval_case(name, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_ADD, fake, 7);
}

static void n13_remove_len9(const char *name)
{
	uint8_t buf[9];

	memcpy(buf, T1->id, 8);
	buf[8] = 0;
	einval_case(name, W1_MASTER_CMD, ID1, W1_CMD_SLAVE_REMOVE, buf, 9);
}

/* ---- N14 SLAVE_ADD / SLAVE_REMOVE with events ----------------------------- */

static uint8_t n14_id[8];
static char n14_name[32];
static uint32_t n14_add_seq;
static bool n14_added;

static void addremove_case(const char *name, uint8_t code, uint8_t status,
			   int want_event, bool want_present)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x;
	struct w1_event evs[8];
	char why[300], s[300];
	int nev;

	w1_event_drain(ev_fd);
	req_single(&r, W1_MASTER_CMD, ID1, code, n14_id, 8);
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_status(x, W1_MASTER_CMD, status, ID1, code);
	if (xchg_send(xc, &r, 1, GRACE_MS, -1))
		FAIL("send: %s", strerror(errno));
	/* collect the events and note the slave's state before any check */
	nev = events_within(evs, (int)ARRAY_SIZE(evs), 500);
	if (code == W1_CMD_SLAVE_ADD && status == 0 && slave_dir_exists(n14_name))
		n14_added = true;
	if (code == W1_CMD_SLAVE_REMOVE && status == 0 && !slave_dir_exists(n14_name))
		n14_added = false;
	if (!xchg_shape_ok(xc, why, sizeof(why)))
		FAIL("%s", why);
	if (slave_dir_exists(n14_name) != want_present)
		FAIL("%s/%s %s", W1_DEVICES, n14_name,
		     want_present ? "missing" : "still present");
	if (master_slave_count() != SL_COUNT + (want_present ? 1 : 0))
		FAIL("w1_master_slave_count %ld, expected %d", master_slave_count(),
		     SL_COUNT + (want_present ? 1 : 0));
	if (want_event < 0) {
		if (nev)
			FAIL("%d event(s), expected none", nev);
		PASS();
	}
	if (nev != 1)
		FAIL("%d events, expected exactly one %s", nev,
		     w1_event_name((uint8_t)want_event));
	w1_event_str(&evs[0], s, sizeof(s));
	if (!w1_event_is(&evs[0], (uint8_t)want_event, n14_id))
		FAIL("event %s, expected %s with cn ack 0 len 12 flags 0", s,
		     w1_event_name((uint8_t)want_event));
	if (want_event == W1_SLAVE_ADD) {
		n14_add_seq = evs[0].cn.seq;
	} else if (evs[0].cn.seq != n14_add_seq + 1) {
		FAIL("W1_SLAVE_REMOVE cn.seq %u, expected %u (master counter after the add)",
		     evs[0].cn.seq, n14_add_seq + 1);
	}
	PASS();
}

static void n14_add(const char *name)
{
	addremove_case(name, W1_CMD_SLAVE_ADD, 0, W1_SLAVE_ADD, true);
}

static void n14_add_again(const char *name)
{
	if (!n14_added)
		FAIL("the slave was not added by the previous case");
	addremove_case(name, W1_CMD_SLAVE_ADD, ERR_EINVAL, -1, true);
}

static void n14_remove(const char *name)
{
	if (!n14_added)
		FAIL("the slave was not added by the previous cases");
	addremove_case(name, W1_CMD_SLAVE_REMOVE, 0, W1_SLAVE_REMOVE, false);
}

static void n14_remove_again(const char *name)
{
	if (n14_added)
		FAIL("the slave is still attached");
	addremove_case(name, W1_CMD_SLAVE_REMOVE, ERR_EINVAL, -1, false);
}

/* ---- N16 large I/O -------------------------------------------------------- */

static void n16_read200(const char *name)
{
	static struct w1_req r;
	struct xchg *xc = &g_xc;
	struct xb *x;
	uint8_t w[12] = { 0x55 }, mem[128], z[200] = { 0 }, tail[17];
	const struct rx_cmd *c;
	char why[300], hex[40];

	if (read_eeprom_sysfs(mem, sizeof(mem)))
		FAIL("cannot read %s/eeprom", E1->name);
	/* MATCH ROM e1 (SKIP would make the DS2408 answer F0 too), READ MEMORY 0 */
	memcpy(w + 1, E1->id, 8);
	w[9] = 0xf0;
	w[10] = 0x00;
	w[11] = 0x00;
	req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
	w1_req_cmd(&r, W1_CMD_WRITE, w, sizeof(w));
	w1_req_cmd(&r, W1_CMD_READ, z, sizeof(z));
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_WRITE);
	xb_data_status(x, W1_MASTER_CMD, ID1, W1_CMD_READ, 200);
	if (!xchg_check(xc, &r, 4, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	c = rx_find_cmd(&xc->rx, W1_CMD_READ, 0);
	for (int i = 0; i < 128; i++)
		if (c->data[i] != mem[i])
			FAIL("memory byte %#x reads %02x over netlink, %02x through sysfs",
			     i, c->data[i], mem[i]);
	memcpy(tail, c->data + 128, 16);
	w1_hex(tail, 16, hex, sizeof(hex));
	ktap_print_msg("DS2431 register page 0x80-0x8f: %s", hex);
	for (int i = 144; i < 200; i++)
		if (c->data[i] != 0xff)
			FAIL("byte %d (past address 0x8f) reads %02x, expected ff", i,
			     c->data[i]);
	PASS();
}

/*
 * ds_write_block() sends the whole block as one bulk OUT; with the model's
 * strict-fifo (default on) a > 128-byte packet is NAKed and the driver
 * logs "Failed to write 1-wire data to ep0x2: err=-110"; w1_write_block()
 * returns nothing, so the status is 0.  The bus must still be usable.
 */
static void n16_write300(const char *name)
{
	static struct w1_req r;
	static uint8_t ff[300];
	struct xchg *xc = &g_xc;
	struct xb *x;
	const uint8_t rd[3] = { 0xf0, 0x00, 0x00 };
	uint8_t mem[8], got[8];
	char why[300], marker[128], strict[32] = "";
	const char *needle = "Failed to write 1-wire data to ep0x2: err=-110";
	bool have_strict = false;
	int found;

	if (read_eeprom_sysfs(mem, sizeof(mem)))
		FAIL("cannot read %s/eeprom", E1->name);
	if (pbctl_open() == 0) {
		if (pbctl_qom_get(QOM_PERIPH "ds2490", "strict-fifo", strict,
				  sizeof(strict)) == 0)
			have_strict = true;
		else
			ktap_print_msg("qom-get ds2490 strict-fifo: %s",
				       pbctl_last_reply());
	}
	memset(ff, 0xff, sizeof(ff));
	kmsg_mark(marker, sizeof(marker), "w1_netlink WRITE 300");
	req_single(&r, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0);
	w1_req_cmd(&r, W1_CMD_WRITE, ff, sizeof(ff));
	x = xchg_begin(xc, 0, ACK_OTHER);
	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_RESET);
	xb_status(x, W1_MASTER_CMD, 0, ID1, W1_CMD_WRITE);
	if (!xchg_check(xc, &r, 2, GRACE_MS, why, sizeof(why)))
		FAIL("%s", why);
	found = klog_has_after(marker, needle);
	if (have_strict) {
		bool on = strcmp(strict, "true") == 0;

		if (found < 0)
			FAIL("kernel log or marker unreadable");
		if (on != (found == 1))
			FAIL("strict-fifo %s but '%s' %s in the kernel log", strict,
			     needle, found ? "found" : "not found");
	} else {
		ktap_print_msg("strict-fifo unknown (no control channel); '%s' %s",
			       needle, found == 1 ? "logged" : "not logged");
	}
	if (nl_write_read(E1, rd, sizeof(rd), got, sizeof(got), why, sizeof(why)))
		FAIL("bus unusable afterwards: %s", why);
	if (memcmp(got, mem, sizeof(mem)))
		FAIL("reading DS2431 memory 0-7 afterwards returns different data");
	PASS();
}

/* ---- N5 empty bus (needs the host) ---------------------------------------- */

static bool slaves_absent;

static void set_all_present(bool on)
{
	for (int i = 0; i < SL_COUNT; i++) {
		char path[64];

		snprintf(path, sizeof(path), QOM_PERIPH "%s", w1_slaves[i].qom);
		if (pbctl_qom_set_bool(path, "present", on))
			ktap_print_msg("qom-set %s present %s: %s", path,
				       on ? "true" : "false", pbctl_last_reply());
	}
	slaves_absent = !on;
}

static void n5_reset_empty(const char *name)
{
	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	for (int i = 0; i < SL_COUNT; i++) {
		char path[64];

		snprintf(path, sizeof(path), QOM_PERIPH "%s", w1_slaves[i].qom);
		slaves_absent = true;
		if (pbctl_qom_set_bool(path, "present", 0))
			FAIL("qom-set %s present false: %s", path, pbctl_last_reply());
	}
	/* RESET reports success whatever the presence pulse (ds9490r_reset) */
	status_case(name, W1_MASTER_CMD, ID1, W1_CMD_RESET, NULL, 0, 0);
}

static void n5_absent_slave_read(const char *name)
{
	uint8_t sp[9];
	const uint8_t be = 0xbe;
	char why[300];

	if (pbctl_open())
		SKIP("%s", pbctl_unavailable_reason());
	if (!slaves_absent)
		FAIL("the slaves were not unplugged by the previous case");
	if (nl_write_read(T1, &be, 1, sp, 9, why, sizeof(why))) {
		set_all_present(true);
		FAIL("%s", why);
	}
	set_all_present(true);
	for (int i = 0; i < 9; i++)
		if (sp[i] != 0xff)
			FAIL("byte %d reads %02x from an absent slave, expected ff", i,
			     sp[i]);
	PASS();
}

/* ---- main ----------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(const char *name);
	int results;
	const char *needs;	/* kernel options, kconfig_lacks() */
} cases[] = {
	{ "setup: master 1 with 4 slaves, background search stopped", c_setup, 1, NULL },
	{ "N1 LIST_MASTERS: one reply, ack seq+1, master ids [1]", n1_list_masters, 1, NULL },
	{ "N1 LIST_MASTERS reply header fully set: cn flags 0, msg id 0", n1_list_masters_zeroed, 1, NULL },
	{ "N2 SEARCH unbundled: data reply (4 ids, ack seq+1), then status (ack echoed)", n2_search, 1, NULL },
	{ "N2 SEARCH returns the ids in 1-Wire search order", n2_search_order, 1, NULL },
	{ "N3 SEARCH bundled: one netlink message with data and status cn_msgs", n3_search_bundled, 1, NULL },
	{ "N4 LIST_SLAVES: data reply with the 4 attached ids, then status", n4_list_slaves, 1, NULL },
	{ "N5 RESET on the populated bus: status 0", n5_reset, 1, NULL },
	{ "N6 SLAVE_CMD WRITE 44 (convert T): status 0", n6_convert, 1, NULL },
	{ "N6 scratchpad read unbundled: 3 messages of 52/61/52 bytes", n6_read_unbundled, 1, NULL },
	{ "N6 scratchpad read bundled: 1 message of 133 bytes, 3 cn_msgs", n6_read_bundled, 1, NULL },
	{ "N6 bundled with ack = seq+1: all replies share one cn_msg (93 bytes)", n6_read_bundled_ack, 1, NULL },
	{ "N7 TOUCH on the DS2431: f0 00 00 echoed, then memory 0-7", n7_touch, 1, NEED_DS2431 },
	{ "N8 bundled MASTER RESET + SLAVE read: exactly one netlink message (149 bytes)", n8_multi_bundled, 1, NULL },
	{ "N8 the same request unbundled: four netlink messages in request order", n8_multi_unbundled, 1, NULL },
	{ "N4 ALARM_SEARCH with nothing alarming: empty data reply and status", n4_alarm_none, 1, NULL },
	{ "N4 ALARM_SEARCH with TH below the temperature: only t1", n4_alarm_t1, 1, NULL },
	{ "N4 alarm searches age out the other slaves, SEARCH attaches them again", n4_alarm_ages_out, 1, NULL },
	{ "unknown cn_msg flag 0x0002", n9_flag_0002, 2, NULL },
	{ "unknown cn_msg flag 0x8000", n9_flag_8000, 2, NULL },
	{ "unknown cn_msg flag on an empty request: EINVAL, msg all zeros but status", n9_flag_empty, 1, NULL },
	{ "unknown cn_msg flag 0xffff", n9_flag_ffff, 2, NULL },
	{ "N10 ENODEV for an unknown slave ROM sent at once, processing continues", n10_enodev_continues, 1, NULL },
	{ "N10 ENODEV for master id 99", n10_enodev_master, 1, NULL },
	{ "N11 EPROTO for msg.len 0 stops the packet", n11_eproto_len0, 1, NULL },
	{ "N11 EPROTO for message type 0 with data, notice logged", n11_eproto_type0, 1, NULL },
	{ "N11 EPROTO for message type 7", n11_eproto_type7, 1, NULL },
	{ "N12 E2BIG status for cmd.len beyond msg.len, earlier command done", n12_e2big_cmd, 1, NULL },
	{ "N12 msg.len beyond cn.len: no reply, nothing executed", n12_e2big_msg, 1, NULL },
	{ "N12 cn.len beyond the netlink payload: dropped by the connector", n12_cn_len, 1, NULL },
	{ "N13 EINVAL for SLAVE_CMD RESET", n13_slave_reset, 1, NULL },
	{ "N13 EINVAL for SLAVE_CMD SEARCH", n13_slave_search, 1, NULL },
	{ "N13 EINVAL for MASTER_CMD command 9", n13_master_cmd9, 1, NULL },
	{ "N13 EINVAL for SLAVE_ADD with cmd.len 7", n13_add_len7, 1, NULL },
	{ "N13 EINVAL for SLAVE_REMOVE with cmd.len 9", n13_remove_len9, 1, NULL },
	{ "N14 SLAVE_ADD of a new id: status 0, W1_SLAVE_ADD event, sysfs entry", n14_add, 1, NULL },
	{ "N14 SLAVE_ADD of an attached id: EINVAL, no event", n14_add_again, 1, NULL },
	{ "N14 SLAVE_REMOVE: status 0, W1_SLAVE_REMOVE event with the next seq", n14_remove, 1, NULL },
	{ "N14 SLAVE_REMOVE of an unknown id: EINVAL, no event", n14_remove_again, 1, NULL },
	{ "N16 MATCH e1 + READ 200: memory as in sysfs, ff past 0x8f", n16_read200, 1, NEED_DS2431 },
	{ "N16 WRITE 300 bytes: status 0, driver error as per strict-fifo, bus usable", n16_write300, 1, NEED_DS2431 },
	{ "N16 netlink payload above 16384 bytes: dropped, nothing executed", n16_oversize, 1, NULL },
	{ "N5 RESET with every slave absent: status 0", n5_reset_empty, 1, NULL },
	{ "N5 SLAVE_CMD to an attached but absent slave reads ff, status 0", n5_absent_slave_read, 1, NULL },
};

/*
 * Every result of cases[i] failed or skipped with why, for a case that
 * cannot run: its name, or the N9 pair named after it.
 */
static void report_all(size_t i, bool skip, const char *why)
{
	static const char *const n9[] = { N9_REPLY, N9_NOTHING };
	char name[200];

	for (int k = 0; k < cases[i].results; k++) {
		if (cases[i].results == 1)
			snprintf(name, sizeof(name), "%s", cases[i].name);
		else
			snprintf(name, sizeof(name), "%s: %s", cases[i].name,
				 n9[k % 2]);
		if (skip)
			ktap_test_skip(name, "%s", why);
		else
			ktap_test_fail(name, "%s", why);
	}
}

int main(void)
{
	unsigned int plan = 0;
	const char *lack;
	long long v;
	char marker[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	w1_topology_init();
	w1_master_id_bytes(1, ID1);
	fake_rom(0x0e14, n14_id, n14_name, sizeof(n14_name));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		plan += (unsigned int)cases[i].results;

	ktap_print_header();
	ktap_set_plan(plan);
	ktap_print_msg("not checked here: N15 (needs a bad-CRC device at boot); "
		       "QEMU-trace evidence (no COMM request for rejected packets, "
		       "bytes on the wire, READ chunk sizes)");
	kmsg_mark(marker, sizeof(marker), "w1_netlink start");

	/* the whole program is the netlink interface: none of it without it */
	lack = kconfig_lacks(NEED_NETLINK);
	if (lack) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			report_all(i, true, lack);
		return ktap_finished();
	}
	nl_fd = cn_socket(0);
	ev_fd = cn_socket(W1_EVENT_GROUPS);
	if (nl_fd < 0 || ev_fd < 0) {
		ktap_print_msg("NETLINK_CONNECTOR socket: %s", strerror(errno));
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			report_all(i, false, "no netlink socket");
		return ktap_finished();
	}
	if (pbctl_open() == 0 &&
	    pbctl_qom_get_int(QOM_PERIPH "t1", "temperature", &v) == 0)
		t1_mC = (long)v;
	else
		ktap_print_msg("t1 temperature from the default topology (%s)",
			       pbctl_open() ? pbctl_unavailable_reason() :
			       pbctl_last_reply());
	ktap_print_msg("t1 temperature %ld m°C", t1_mC);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		/* e.g. no w1_ds2431: e1's eeprom file, the reference, is absent */
		lack = kconfig_lacks(cases[i].needs);
		if (lack)
			report_all(i, true, lack);
		else
			cases[i].fn(cases[i].name);
	}

	if (slaves_absent)
		set_all_present(true);
	if (alarm_setup_done)
		alarm_teardown();
	if (n14_added)
		fake_cleanup(n14_id, n14_name);
	if (path_exists(W1_MASTER))
		write_str(W1_MASTER "/w1_master_search", "-1\n");
	rx_free(&g_xc.rx);
	rx_free(&h_xc.rx);
	close(nl_fd);
	close(ev_fd);
	return ktap_finished();
}
