/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1req.h - building and sending w1 netlink requests and receiving the
 * replies' datagrams (header-only), shared by the w1 suite (w1_netlink.c)
 * and the w1 benchmarks (w1_bench.c):
 *
 *	struct w1_req r;
 *
 *	w1_req_init(&r);
 *	w1_req_msg(&r, W1_MASTER_CMD, master_id);
 *	w1_req_cmd(&r, W1_CMD_RESET, NULL, 0);
 *	w1_req_send(&r, fd, seq, 0, W1_CN_BUNDLE, -1);
 *
 * One netlink message carries one cn_msg whose payload is a list of
 * w1_netlink_msg, each followed by its w1_netlink_cmd list
 * (drivers/w1/w1_netlink.c).  Include ktap.h and w1util.h first.
 */
#ifndef PATCHBAY_W1REQ_H
#define PATCHBAY_W1REQ_H

/* A little more than the connector takes (CONNECTOR_MAX_MSG_SIZE), so that
 * the w1 suite can send oversized requests on purpose. */
#define W1_REQ_MAX	16600

struct w1_req {
	_Alignas(8) uint8_t buf[sizeof(struct nlmsghdr) + sizeof(struct cn_msg) +
				W1_REQ_MAX];
	size_t len;		/* bytes after the cn_msg header */
	size_t cur;		/* offset of the current w1_netlink_msg */
	bool have_msg;
	int ncmd;		/* commands in the request */
};

#define W1_REQ_DATA(r)	((r)->buf + sizeof(struct nlmsghdr) + sizeof(struct cn_msg))

static inline void w1_req_init(struct w1_req *r)
{
	memset(r->buf, 0, sizeof(struct nlmsghdr) + sizeof(struct cn_msg));
	r->len = 0;
	r->cur = 0;
	r->have_msg = false;
	r->ncmd = 0;
}

/* Append n bytes; p NULL appends zeroes (a READ buffer). */
static inline void w1_req_put(struct w1_req *r, const void *p, size_t n)
{
	if (r->len + n > W1_REQ_MAX) {
		fprintf(stderr, "request buffer overflow\n");
		exit(2);
	}
	if (p)
		memcpy(W1_REQ_DATA(r) + r->len, p, n);
	else
		memset(W1_REQ_DATA(r) + r->len, 0, n);
	r->len += n;
}

/* Overwrite the current message's len (malformed requests use it too). */
static inline void w1_req_set_msg_len(struct w1_req *r, uint16_t len)
{
	struct w1_netlink_msg m;

	memcpy(&m, W1_REQ_DATA(r) + r->cur, sizeof(m));
	m.len = len;
	memcpy(W1_REQ_DATA(r) + r->cur, &m, sizeof(m));
}

/* Grow the current message's len by n. */
static inline void w1_req_grow(struct w1_req *r, size_t n)
{
	struct w1_netlink_msg m;

	memcpy(&m, W1_REQ_DATA(r) + r->cur, sizeof(m));
	w1_req_set_msg_len(r, (uint16_t)(m.len + n));
}

/* Start a message with len 0. */
static inline void w1_req_msg(struct w1_req *r, uint8_t type,
			      const uint8_t id[8])
{
	struct w1_netlink_msg m = { .type = type };

	memcpy(m.id.id, id, 8);
	r->cur = r->len;
	r->have_msg = true;
	w1_req_put(r, &m, sizeof(m));
}

/* Append a command (header + data; data NULL = zeroes) to the current
 * message. */
static inline void w1_req_cmd(struct w1_req *r, uint8_t code,
			      const void *data, uint16_t len)
{
	struct w1_netlink_cmd c = { .cmd = code, .len = len };

	w1_req_put(r, &c, sizeof(c));
	if (len)
		w1_req_put(r, data, len);
	w1_req_grow(r, sizeof(c) + len);
	r->ncmd++;
}

/* Append raw bytes; they count into the current message's len if grow. */
static inline void w1_req_raw(struct w1_req *r, const void *p, size_t n,
			      bool grow)
{
	w1_req_put(r, p, n);
	if (grow)
		w1_req_grow(r, n);
}

/* Send on fd (a NETLINK_CONNECTOR socket); cn_len < 0 means the true
 * payload length, anything else is written into cn_msg.len as is. */
static inline int w1_req_send(struct w1_req *r, int fd, uint32_t seq,
			      uint32_t ack, uint16_t flags, int cn_len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr nlh = {
		.nlmsg_len = (uint32_t)(sizeof(nlh) + sizeof(struct cn_msg) + r->len),
		.nlmsg_type = NLMSG_DONE,
		.nlmsg_seq = seq,
	};
	struct cn_msg cn = {
		.id = { .idx = CN_W1_IDX, .val = CN_W1_VAL },
		.seq = seq,
		.ack = ack,
		.len = (uint16_t)(cn_len < 0 ? (int)r->len : cn_len),
		.flags = flags,
	};
	ssize_t n;

	memcpy(r->buf, &nlh, sizeof(nlh));
	memcpy(r->buf + sizeof(nlh), &cn, sizeof(cn));
	n = sendto(fd, r->buf, nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa));
	return n == (ssize_t)nlh.nlmsg_len ? 0 : -1;
}

/*
 * Receive one datagram on fd within timeout_ms: its length, 0 on timeout,
 * -1 on error.  A datagram longer than len is logged and cut to len, so
 * that the caller never looks past what it got.
 */
static inline ssize_t w1_nl_recv(int fd, uint8_t *buf, size_t len,
				 int timeout_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, timeout_ms);
		ssize_t n;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r;
		n = recv(fd, buf, len, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n > (ssize_t)len) {
			ktap_print_msg("netlink datagram of %zd bytes truncated to %zu",
				       n, len);
			n = (ssize_t)len;
		}
		return n;
	}
}

#endif /* PATCHBAY_W1REQ_H */
