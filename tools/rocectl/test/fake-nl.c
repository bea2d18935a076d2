// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for rocectl's socket (nl.c) for host tests: no kernel, a
 * fixed pair of devices and QPs, and a script of events. Every request is
 * written to $ROCECTL_FAKE_LOG as one JSON line ({"cmd", "flags",
 * "attrs": [{"type", "hex" | "nested"}]}) for the test to decode with the
 * netlink spec. $ROCECTL_FAKE_ERROR="ERRNO:MESSAGE:TYPE" makes the next
 * request fail as the kernel would, blaming its first attribute of TYPE.
 * $ROCECTL_FAKE_NO_MODULE=1 plays a kernel without rxe_cc, and diagnose
 * reads rxe's port counters under $ROCECTL_FAKE_SYSFS instead of /sys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/rxe_cc.h>

#include "dcqcn.h"
#include "nl.h"

#define FAKE_FAMILY 0x1d
#define FAKE_GROUP 7

extern const char *diag_sysfs;

int nl_open(struct nl *nl)
{
	diag_sysfs = getenv("ROCECTL_FAKE_SYSFS") ?: "/nonexistent";
	memset(nl, 0, sizeof(*nl));
	nl->family = FAKE_FAMILY;
	nl->monitor_group = FAKE_GROUP;
	return 0;
}

int nl_open_quiet(struct nl *nl)
{
	const char *no_module = getenv("ROCECTL_FAKE_NO_MODULE");

	nl_open(nl);
	return no_module && !strcmp(no_module, "1") ? -1 : 0;
}

void nl_close(struct nl *nl)
{
}

static void log_attrs(FILE *f, const char *start, int len)
{
	const struct nlattr *a = (const struct nlattr *)start;
	bool first = true;
	int i;

	fputc('[', f);
	for (; mnl_attr_ok(a, len); a = mnl_attr_next(a)) {
		const unsigned char *p = mnl_attr_get_payload(a);

		fprintf(f, "%s{\"type\":%u,", first ? "" : ",", mnl_attr_get_type(a));
		first = false;
		if (a->nla_type & NLA_F_NESTED) {
			fputs("\"nested\":", f);
			log_attrs(f, (const char *)p, mnl_attr_get_payload_len(a));
		} else {
			fputs("\"hex\":\"", f);
			for (i = 0; i < mnl_attr_get_payload_len(a); i++)
				fprintf(f, "%02x", p[i]);
			fputc('"', f);
		}
		fputc('}', f);
		len -= MNL_ALIGN(a->nla_len);
	}
	fputc(']', f);
}

static void log_request(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const char *path = getenv("ROCECTL_FAKE_LOG");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "{\"cmd\":%u,\"flags\":%u,\"attrs\":", genl->cmd, nlh->nlmsg_flags);
	log_attrs(f, (const char *)mnl_nlmsg_get_payload_offset(nlh, sizeof(*genl)),
		  nlh->nlmsg_len - MNL_NLMSG_HDRLEN - MNL_ALIGN(sizeof(*genl)));
	fputs("}\n", f);
	fclose(f);
}

/* The first attribute of TYPE at any depth, or NULL. */
static const struct nlattr *find_attr(const char *start, int len, uint16_t type)
{
	const struct nlattr *a = (const struct nlattr *)start, *found;

	for (; mnl_attr_ok(a, len); len -= MNL_ALIGN(a->nla_len), a = mnl_attr_next(a)) {
		if (mnl_attr_get_type(a) == type)
			return a;
		if (a->nla_type & NLA_F_NESTED) {
			found = find_attr(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), type);
			if (found)
				return found;
		}
	}
	return NULL;
}

static int fake_error(struct nl *nl, const struct nlmsghdr *nlh)
{
	const char *spec = getenv("ROCECTL_FAKE_ERROR");
	const struct nlattr *a;
	char msg[256];
	int err, type;

	if (!spec || sscanf(spec, "%d:%255[^:]:%d", &err, msg, &type) != 3)
		return 0;
	snprintf(nl->err_msg, sizeof(nl->err_msg), "%s", msg);
	a = find_attr(mnl_nlmsg_get_payload_offset(nlh, sizeof(struct genlmsghdr)),
		      nlh->nlmsg_len - MNL_NLMSG_HDRLEN - MNL_ALIGN(sizeof(struct genlmsghdr)),
		      type);
	nl->err_off = a ? (const char *)a - (const char *)nlh : 0;
	return -err;
}

/* ---- The fixture ---- */

static char reply[8192];

static struct nlmsghdr *reply_start(uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(reply);
	struct genlmsghdr *genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));

	nlh->nlmsg_type = FAKE_FAMILY;
	genl->cmd = cmd;
	genl->version = RXE_CC_FAMILY_VERSION;
	return nlh;
}

static void put_dev_id(struct nlmsghdr *nlh, uint32_t index, const char *name)
{
	mnl_attr_put_u32(nlh, RXE_CC_A_DEV_INDEX, index);
	mnl_attr_put_strz(nlh, RXE_CC_A_DEV_NAME, name);
}

static void put_stats(struct nlmsghdr *nlh, uint16_t type, uint64_t base)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	int i;

	/* Counter i of a record with BASE reads BASE + i. */
	for (i = RXE_CC_A_STAT_TX_PACKETS; i < RXE_CC_A_STAT_PAD; i++)
		mnl_attr_put_u64(nlh, i, base + i);
	mnl_attr_nest_end(nlh, nest);
}

/* rxe0 on veth0: DCQCN on, mlx5 preset, 200 Mb/s; rxe1 on veth1: DCQCN off. */
static struct nlmsghdr *fake_dev(int which)
{
	struct nlmsghdr *nlh = reply_start(RXE_CC_CMD_DEV_GET);
	struct nlattr *nest;
	int id;

	put_dev_id(nlh, which + 1, which ? "rxe1" : "rxe0");
	mnl_attr_put_strz(nlh, RXE_CC_A_DEV_IFNAME, which ? "veth1" : "veth0");
	mnl_attr_put_u32(nlh, RXE_CC_A_DEV_LINE_RATE, which ? 10000 : 200);
	nest = mnl_attr_nest_start(nlh, RXE_CC_A_DCQCN);
	mnl_attr_put_u32(nlh, RXE_CC_A_DCQCN_ENABLE, !which);
	for (id = 0; id < DCQCN_P_COUNT; id++)
		mnl_attr_put_u32(nlh, dcqcn_param_attr(id),
				 dcqcn_param_get(&dcqcn_preset_mlx5, id));
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, RXE_CC_A_NP);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_ENABLE, 1);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS, 4);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_PER_PORT, which);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_CNP_DSCP, 48);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_CNP_PRIO, 6);
	mnl_attr_put_u32(nlh, RXE_CC_A_NP_CNP_PRIO_MODE, which);
	mnl_attr_nest_end(nlh, nest);
	put_stats(nlh, RXE_CC_A_STATS, which ? 2000 : 1000);
	return nlh;
}

/*
 * QP 17 of rxe0: cut to 50.5 Mb/s, DCQCN off on its own, max-rate 20, its
 * UDP source port set by hand;
 * QP 18 of rxe1: at its line rate, IPv6 peer, no overrides.
 */
static struct nlmsghdr *fake_qp(int which)
{
	static const unsigned char v4[4] = { 10, 0, 0, 2 };
	unsigned char v6[16] = { 0xfd, [15] = 1 };
	struct nlmsghdr *nlh = reply_start(RXE_CC_CMD_QP_GET);
	struct nlattr *nest;

	put_dev_id(nlh, which + 1, which ? "rxe1" : "rxe0");
	nest = mnl_attr_nest_start(nlh, RXE_CC_A_QP);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_NUM, which ? 18 : 17);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_REMOTE_NUM, which ? 17 : 18);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_TRANSPORT,
			 which ? RXE_CC_TRANSPORT_UD : RXE_CC_TRANSPORT_RC);
	mnl_attr_put_u16(nlh, RXE_CC_A_QP_UDP_SPORT, which ? 49153 : 53017);
	if (!which)
		mnl_attr_put_u16(nlh, RXE_CC_A_QP_RXE_UDP_SPORT, 49441);
	if (which)
		mnl_attr_put(nlh, RXE_CC_A_QP_PEER, sizeof(v6), v6);
	else
		mnl_attr_put(nlh, RXE_CC_A_QP_PEER, sizeof(v4), v4);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_RATE_KBPS, which ? 10000000 : 50500);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_TARGET_RATE_KBPS, which ? 10000000 : 100000);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_ALPHA, which ? 1023 : 512);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_TIMER_STAGE, which ? 0 : 1);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_BYTE_STAGE, 0);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_LIMITED, !which);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_QUEUE, which ? 0 : 3);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_IDLE_MS, 5);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_DCQCN,
			 which ? RXE_CC_QP_DCQCN_DEVICE : RXE_CC_QP_DCQCN_OFF);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_MIN_RATE, 0);
	mnl_attr_put_u32(nlh, RXE_CC_A_QP_MAX_RATE, which ? 0 : 20);
	put_stats(nlh, RXE_CC_A_QP_STATS, which ? 200 : 100);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

/* The request's top-level attribute of TYPE, or NULL. */
static const struct nlattr *request_attr(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

/* The QP number in the request's QP nest, or NULL. */
static const struct nlattr *request_qpn(const struct nlmsghdr *nlh)
{
	const struct nlattr *qp = request_attr(nlh, RXE_CC_A_QP), *a;

	if (!qp)
		return NULL;
	mnl_attr_for_each_nested(a, qp)
		if (mnl_attr_get_type(a) == RXE_CC_A_QP_NUM)
			return a;
	return NULL;
}

static int which_dev(const struct nlmsghdr *nlh)
{
	const struct nlattr *name = request_attr(nlh, RXE_CC_A_DEV_NAME);

	if (!name)
		return -1;
	if (!strcmp(mnl_attr_get_str(name), "rxe0"))
		return 0;
	if (!strcmp(mnl_attr_get_str(name), "rxe1"))
		return 1;
	return -2;
}

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *qpn;
	int err, dev, i;

	nl->err_msg[0] = '\0';
	nl->err_off = 0;
	log_request(nlh);
	err = fake_error(nl, nlh);
	if (err)
		return err;
	dev = which_dev(nlh);
	if (dev == -2) {
		snprintf(nl->err_msg, sizeof(nl->err_msg),
			 "no such rxe device in this network namespace");
		return -ENODEV;
	}
	switch (genl->cmd) {
	case RXE_CC_CMD_DEV_GET:
		for (i = 0; i < 2; i++)
			if (cb)
				cb(fake_dev(i), data);
		return 0;
	case RXE_CC_CMD_QP_GET:
		qpn = request_qpn(nlh);
		if (qpn && mnl_attr_get_u32(qpn) != (dev ? 18u : 17u)) {
			snprintf(nl->err_msg, sizeof(nl->err_msg),
				 "no such QP: it has sent nothing yet or is gone");
			return -ENOENT;
		}
		for (i = 0; i < 2; i++)
			if (cb && (dev < 0 || dev == i))
				cb(fake_qp(i), data);
		return 0;
	default:
		return 0;
	}
}

int nl_join_monitor(struct nl *nl)
{
	return 0;
}

static struct nlattr *event_nest;

static struct nlmsghdr *fake_event(uint8_t cmd, int dev, uint64_t time_ns, uint32_t qpn)
{
	struct nlmsghdr *nlh = reply_start(cmd);

	put_dev_id(nlh, dev + 1, dev ? "rxe1" : "rxe0");
	event_nest = mnl_attr_nest_start(nlh, RXE_CC_A_EVENT);
	mnl_attr_put_u64(nlh, RXE_CC_A_EVENT_TIME_NS, time_ns);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_QP_NUM, qpn);
	return nlh;
}

static void fake_qp_state(struct nlmsghdr *nlh, uint32_t rate, uint32_t target, uint32_t alpha)
{
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_RATE_KBPS, rate);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_TARGET_RATE_KBPS, target);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_ALPHA, alpha);
}

static void fake_event_end(struct nlmsghdr *nlh)
{
	mnl_attr_nest_end(nlh, event_nest);
}

/* A CNP from rxe1's QP 18 to QP 17, handled there, cutting its rate. */
int nl_recv_events(struct nl *nl, mnl_cb_t cb, void *data)
{
	struct nlmsghdr *nlh;

	nlh = fake_event(RXE_CC_CMD_CNP_SENT_NTF, 1, 1500000000ULL, 18);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_REMOTE_NUM, 17);
	fake_event_end(nlh);
	cb(nlh, data);

	nlh = fake_event(RXE_CC_CMD_CNP_HANDLED_NTF, 0, 1500010000ULL, 17);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_REMOTE_NUM, 18);
	fake_qp_state(nlh, 50000, 100000, 1023);
	fake_event_end(nlh);
	cb(nlh, data);

	nlh = fake_event(RXE_CC_CMD_RATE_NTF, 0, 1500020000ULL, 17);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_REMOTE_NUM, 18);
	fake_qp_state(nlh, 50000, 100000, 1023);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_OLD_RATE_KBPS, 100000);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_REASON, RXE_CC_RATE_CUT);
	mnl_attr_put_u32(nlh, RXE_CC_A_EVENT_DROPPED, 4);
	fake_event_end(nlh);
	cb(nlh, data);
	return 0;
}
