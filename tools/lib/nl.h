/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxe_cc's netlink client on libmnl, for rocectl and the lab's sampler:
 * the rxe_cc family, requests and replies, the kernel's extended ACK, and
 * events.
 */
#ifndef _RXE_CC_NL_H
#define _RXE_CC_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

struct nl {
	struct mnl_socket *sock;
	uint16_t family;
	uint32_t monitor_group;	/* the id of rxe_cc's "monitor" group */
	uint32_t seq;
	char req[4096];		/* the request, kept for err_off */
	char buf[32768];	/* replies: a dump's messages are up to 32 KiB */
	/* Set by a failed request: the kernel's message and the offset of
	 * the attribute it blamed, from the start of the request (0: none).
	 */
	char err_msg[256];
	uint32_t err_off;
};

/* Exit codes. */
#define EXIT_USAGE	1
#define EXIT_KERNEL	2

/* genl.c: requests and errors. */
/* Starts a generic netlink request of family TYPE in nl->req. */
struct nlmsghdr *nl_genl_put(struct nl *nl, uint16_t type, uint8_t cmd,
			     uint8_t version, uint16_t flags);
/* Starts a request for CMD in nl->req. */
struct nlmsghdr *nl_request(struct nl *nl, uint8_t cmd, uint16_t flags);
/* Prints the error of a failed nl_talk(): "rocectl: WHAT: reason". */
void nl_perror(const struct nl *nl, int err, const char *what);

/* nl.c: the socket. */
/* Opens the socket and resolves the family; prints why on failure. */
int nl_open(struct nl *nl);
/* The same, but says nothing when rxe_cc is not loaded. */
int nl_open_quiet(struct nl *nl);
/* Opens a socket on another netlink BUS (NETLINK_ROUTE, ...) for nl_talk(). */
int nl_open_bus(struct nl *nl, int bus);
void nl_close(struct nl *nl);

/*
 * Sends NLH and runs CB on every reply message (may be NULL for an ACK).
 * Returns 0, or -errno from the kernel with err_msg/err_off filled in.
 */
int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/* Joins the monitor group; prints why on failure. */
int nl_join_monitor(struct nl *nl);
/* Runs CB on every event until an error (-errno) or, from CB, MNL_CB_STOP (0). */
int nl_recv_events(struct nl *nl, mnl_cb_t cb, void *data);

#endif /* _RXE_CC_NL_H */
