// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl monitor: rxe_cc's events as they happen, one line each (JSON
 * lines with -j), until interrupted.
 */
#include <string.h>

#include <linux/genetlink.h>

#include "print.h"
#include "rocectl.h"
#include "rxe_cc_names.h"

struct monitor_filter {
	const char *dev;
	uint32_t qpn;
	bool by_qpn;
	unsigned int events;	/* bit per command; 0: all */
};

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct nlattr *tb[RXE_CC_A_MAX + 1], *ev[RXE_CC_A_EVENT_MAX + 1];
	const struct monitor_filter *f = data;
	const char *event = rxe_cc_ntf_name(genl->cmd), *reason;

	if (!event ||
	    parse_top(nlh, tb) || !tb[RXE_CC_A_EVENT])
		return MNL_CB_OK;
	parse_nested(tb[RXE_CC_A_EVENT], ev, RXE_CC_A_EVENT_MAX);
	if (!ev[RXE_CC_A_EVENT_TIME_NS] || !ev[RXE_CC_A_EVENT_QP_NUM])
		return MNL_CB_OK;
	if ((f->dev && strcmp(f->dev, dev_of(tb))) ||
	    (f->by_qpn && f->qpn != mnl_attr_get_u32(ev[RXE_CC_A_EVENT_QP_NUM])) ||
	    (f->events && !(f->events & (1u << genl->cmd))))
		return MNL_CB_OK;

	pr_open(NULL);
	pr_time_ns("time", mnl_attr_get_u64(ev[RXE_CC_A_EVENT_TIME_NS]));
	pr_str("dev", dev_of(tb));
	pr_str("event", event);
	pr_u64("qpn", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_QP_NUM]));
	if (ev[RXE_CC_A_EVENT_REMOTE_NUM])
		pr_u64("remote-qpn", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_REMOTE_NUM]));
	if (ev[RXE_CC_A_EVENT_REASON]) {
		reason = rxe_cc_rate_reason_name(mnl_attr_get_u32(ev[RXE_CC_A_EVENT_REASON]));
		pr_str("reason", reason ? reason : "unknown");
	}
	if (ev[RXE_CC_A_EVENT_OLD_RATE_KBPS])
		pr_rate_kbps("old-rate", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_OLD_RATE_KBPS]));
	if (ev[RXE_CC_A_EVENT_RATE_KBPS])
		pr_rate_kbps("rate", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_RATE_KBPS]));
	if (ev[RXE_CC_A_EVENT_TARGET_RATE_KBPS])
		pr_rate_kbps("target-rate", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_TARGET_RATE_KBPS]));
	if (ev[RXE_CC_A_EVENT_ALPHA])
		pr_u64("alpha", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_ALPHA]));
	/* The rate limit's losses, before this event. */
	if (ev[RXE_CC_A_EVENT_DROPPED])
		pr_u64("dropped", mnl_attr_get_u32(ev[RXE_CC_A_EVENT_DROPPED]));
	pr_close();
	pr_stream_end_record();
	return MNL_CB_OK;
}

static int parse_event(const char *s, unsigned int *events)
{
	unsigned int cmd;

	for (cmd = 0; cmd <= RXE_CC_CMD_MAX; cmd++)
		if (rxe_cc_ntf_name(cmd) && !strcmp(s, rxe_cc_ntf_name(cmd))) {
			*events |= 1u << cmd;
			return 0;
		}
	fprintf(stderr, "rocectl: event: \"%s\" is not cnp-sent, cnp-handled or rate\n", s);
	return -1;
}

int cmd_monitor(struct nl *nl, const char *cmd, int argc, char **argv)
{
	struct monitor_filter f = { 0 };
	int err;

	/* "rocectl monitor" alone, or with its filters, is a show. */
	if (cmd && !matches(cmd, "show")) {
		argc++;
		argv--;
	}
	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (!strcmp(argv[0], "dev")) {
			f.dev = argv[1];
		} else if (!strcmp(argv[0], "qpn")) {
			if (parse_u32("qpn", argv[1], &f.qpn))
				return EXIT_USAGE;
			f.by_qpn = true;
		} else if (!strcmp(argv[0], "event")) {
			if (parse_event(argv[1], &f.events))
				return EXIT_USAGE;
		} else {
			return usage_error("unknown key \"%s\" (see rocectl monitor help)", argv[0]);
		}
	}
	if (nl_join_monitor(nl))
		return EXIT_KERNEL;
	err = nl_recv_events(nl, event_cb, &f);
	if (err) {
		nl_perror(nl, err, "reading events");
		return EXIT_KERNEL;
	}
	return 0;
}

void help_monitor(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -j ] monitor [ dev DEV ] [ qpn QPN ]\n"
		"                      [ event { cnp-sent | cnp-handled | rate } ]...\n"
		"Prints CNPs sent and handled and QP rate changes as they happen, until\n"
		"interrupted. Each device sends at most monitor_rate events a second (a\n"
		"module parameter, 1000); \"dropped N\" says how many it held back before.\n"
		"Example: rocectl -j monitor dev rxe0 event rate\n");
}
