// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink socket on libmnl: opening it, the rxe_cc family and its
 * monitor group, requests and their replies, events.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rxe_cc.h>

#include "nl.h"

/* The monitor group's id, from one CTRL_ATTR_MCAST_GRP_* nest. */
static void family_group(const struct nlattr *grp, struct nl *nl)
{
	const char *name = NULL;
	struct nlattr *attr;
	uint32_t id = 0;

	mnl_attr_for_each_nested(attr, grp) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GRP_NAME &&
		    !mnl_attr_validate(attr, MNL_TYPE_NUL_STRING))
			name = mnl_attr_get_str(attr);
		if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GRP_ID &&
		    !mnl_attr_validate(attr, MNL_TYPE_U32))
			id = mnl_attr_get_u32(attr);
	}
	if (name && !strcmp(name, RXE_CC_MCGRP_MONITOR))
		nl->monitor_group = id;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr, *grp;
	struct nl *nl = data;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    !mnl_attr_validate(attr, MNL_TYPE_U16))
			nl->family = mnl_attr_get_u16(attr);
		if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(grp, attr)
				family_group(grp, nl);
	}
	return MNL_CB_OK;
}

int nl_open_bus(struct nl *nl, int bus)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->seq = time(NULL);
	nl->sock = mnl_socket_open(bus);
	if (!nl->sock || mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("rocectl: netlink socket");
		return -1;
	}
	/* Ask for the kernel's reasons with errors; old kernels ignore it. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

static int open_family(struct nl *nl, bool quiet)
{
	struct nlmsghdr *nlh;
	int err;

	if (nl_open_bus(nl, NETLINK_GENERIC))
		return -1;
	nlh = nl_genl_put(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, RXE_CC_FAMILY_NAME);
	err = nl_talk(nl, nlh, family_cb, nl);
	if (err == -ENOENT || (!err && !nl->family)) {
		if (!quiet)
			fprintf(stderr, "rocectl: rxe_cc is not loaded (modprobe rxe_cc)\n");
		return -1;
	}
	if (err) {
		nl_perror(nl, err, "looking up the rxe_cc netlink family");
		return -1;
	}
	return 0;
}

int nl_open(struct nl *nl)
{
	return open_family(nl, false);
}

int nl_open_quiet(struct nl *nl)
{
	return open_family(nl, true);
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
}

/* Keeps the kernel's extended ACK of an error message. */
static void parse_extack(struct nl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);
	struct nlattr *attr;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	mnl_attr_for_each(attr, nlh, off) {
		switch (mnl_attr_get_type(attr)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(nl->err_msg, sizeof(nl->err_msg), "%s",
				 mnl_attr_get_str(attr));
			break;
		case NLMSGERR_ATTR_OFFS:
			nl->err_off = mnl_attr_get_u32(attr);
			break;
		}
	}
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	errno = -e->error;
	return e->error ? MNL_CB_ERROR : MNL_CB_STOP;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
}

/* After an error: find the error message among the replies in nl->buf. */
static void find_extack(struct nl *nl, int len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->buf;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			parse_extack(nl, nlh);
			return;
		}
}

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	/* With our own table libmnl drops its defaults: DONE must stop. */
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = error_cb, [NLMSG_DONE] = done_cb };
	uint32_t portid = mnl_socket_get_portid(nl->sock);
	uint32_t seq = nlh->nlmsg_seq;
	int len, ret;

	nl->err_msg[0] = '\0';
	nl->err_off = 0;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		len = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (len < 0)
			return -errno;
		ret = mnl_cb_run2(nl->buf, len, seq, portid, cb, data, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR) {
			int err = errno ? -errno : -EIO;

			find_extack(nl, len);
			return err;
		}
	} while (ret > MNL_CB_STOP);
	return 0;
}

/* Room for bursts of events; more than rmem_max allows needs CAP_NET_ADMIN. */
#define NL_EVENT_RCVBUF (4 << 20)

int nl_join_monitor(struct nl *nl)
{
	int rcvbuf = NL_EVENT_RCVBUF;

	if (setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)))
		setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			   sizeof(rcvbuf));
	if (!nl->monitor_group) {
		fprintf(stderr, "rocectl: this rxe_cc has no monitor group\n");
		return -1;
	}
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &nl->monitor_group,
				  sizeof(nl->monitor_group)) < 0) {
		perror("rocectl: joining the monitor group");
		return -1;
	}
	return 0;
}

int nl_recv_events(struct nl *nl, mnl_cb_t cb, void *data)
{
	int len, ret;

	for (;;) {
		len = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (len < 0 && errno == ENOBUFS) {
			/* The kernel dropped events for us: say so, read on. */
			fprintf(stderr, "rocectl: events lost: the socket buffer overflowed\n");
			continue;
		}
		if (len < 0)
			return -errno;
		/* Events carry sequence number and port 0. */
		ret = mnl_cb_run(nl->buf, len, 0, 0, cb, data);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret == MNL_CB_ERROR)
			return -errno;
	}
}
