// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink requests and their errors, apart from the socket (nl.c)
 * so that rocectl's host tests can answer requests without a kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/rxe_cc.h>

#include "nl.h"

struct nlmsghdr *nl_genl_put(struct nl *nl, uint16_t type, uint8_t cmd,
			     uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->req);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

struct nlmsghdr *nl_request(struct nl *nl, uint8_t cmd, uint16_t flags)
{
	return nl_genl_put(nl, nl->family, cmd, RXE_CC_FAMILY_VERSION, flags);
}

void nl_perror(const struct nl *nl, int err, const char *what)
{
	const char *reason = nl->err_msg[0] ? nl->err_msg : strerror(-err);

	if (err == -EPERM)
		reason = "Operation not permitted (needs CAP_NET_ADMIN)";
	fprintf(stderr, "rocectl: %s: %s\n", what, reason);
}
