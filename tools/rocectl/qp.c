// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp: each QP's live DCQCN state, counters and overrides.
 */
#include <string.h>

#include <arpa/inet.h>

#include "dcqcn.h"
#include "print.h"
#include "rocectl.h"
#include "rxe_cc_names.h"

/* What qp show lists: QPs with this UDP source port, if by_udp_sport. */
struct qp_filter {
	int found;
	bool by_udp_sport;
	uint16_t udp_sport;
};

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1], *qa[RXE_CC_A_QP_MAX + 1];
	char addr[INET6_ADDRSTRLEN];
	struct qp_filter *filter = data;
	uint32_t mode;

	if (parse_top(nlh, tb) || !tb[RXE_CC_A_QP])
		return MNL_CB_OK;
	parse_nested(tb[RXE_CC_A_QP], qa, RXE_CC_A_QP_MAX);
	if (filter->by_udp_sport &&
	    (!qa[RXE_CC_A_QP_UDP_SPORT] ||
	     mnl_attr_get_u16(qa[RXE_CC_A_QP_UDP_SPORT]) != filter->udp_sport))
		return MNL_CB_OK;
	filter->found++;

	pr_open(NULL);
	pr_str("dev", dev_of(tb));
	pr_u64("qpn", mnl_attr_get_u32(qa[RXE_CC_A_QP_NUM]));
	if (qa[RXE_CC_A_QP_TRANSPORT]) {
		const char *name = rxe_cc_transport_name(mnl_attr_get_u32(qa[RXE_CC_A_QP_TRANSPORT]));

		pr_str("transport", name ? name : "unknown");
	}
	if (qa[RXE_CC_A_QP_REMOTE_NUM])
		pr_u64("remote-qpn", mnl_attr_get_u32(qa[RXE_CC_A_QP_REMOTE_NUM]));
	if (qa[RXE_CC_A_QP_PEER]) {
		int len = mnl_attr_get_payload_len(qa[RXE_CC_A_QP_PEER]);

		if (inet_ntop(len == 4 ? AF_INET : AF_INET6,
			      mnl_attr_get_payload(qa[RXE_CC_A_QP_PEER]), addr, sizeof(addr)))
			pr_str("peer", addr);
	}
	if (qa[RXE_CC_A_QP_UDP_SPORT])
		pr_u64("udp-sport", mnl_attr_get_u16(qa[RXE_CC_A_QP_UDP_SPORT]));
	if (qa[RXE_CC_A_QP_RXE_UDP_SPORT])
		pr_u64("rxe-udp-sport", mnl_attr_get_u16(qa[RXE_CC_A_QP_RXE_UDP_SPORT]));
	pr_rate_kbps("rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_RATE_KBPS]));
	pr_rate_kbps("target-rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_TARGET_RATE_KBPS]));
	pr_u64("alpha", mnl_attr_get_u32(qa[RXE_CC_A_QP_ALPHA]));
	pr_u64("timer-stage", mnl_attr_get_u32(qa[RXE_CC_A_QP_TIMER_STAGE]));
	pr_u64("byte-stage", mnl_attr_get_u32(qa[RXE_CC_A_QP_BYTE_STAGE]));
	pr_bool("limited", mnl_attr_get_u32(qa[RXE_CC_A_QP_LIMITED]));
	pr_u64("queue", mnl_attr_get_u32(qa[RXE_CC_A_QP_QUEUE]));
	pr_u64("idle-ms", mnl_attr_get_u32(qa[RXE_CC_A_QP_IDLE_MS]));
	mode = qa[RXE_CC_A_QP_DCQCN] ? mnl_attr_get_u32(qa[RXE_CC_A_QP_DCQCN]) : 0;
	pr_str("dcqcn", rxe_cc_qp_dcqcn_name(mode) ? rxe_cc_qp_dcqcn_name(mode) : "unknown");
	/* Overrides only where the QP has them: 0 is its device's value. */
	if (qa[RXE_CC_A_QP_MIN_RATE] && mnl_attr_get_u32(qa[RXE_CC_A_QP_MIN_RATE]))
		pr_u64("min-rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_MIN_RATE]));
	if (qa[RXE_CC_A_QP_MAX_RATE] && mnl_attr_get_u32(qa[RXE_CC_A_QP_MAX_RATE]))
		pr_u64("max-rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_MAX_RATE]));
	if (show_stats && qa[RXE_CC_A_QP_STATS])
		show_stats_nest(qa[RXE_CC_A_QP_STATS]);
	pr_close();
	return MNL_CB_OK;
}

/* dev DEV and qpn QPN, the keys every qp command starts from. */
struct qp_id {
	const char *dev;
	uint32_t qpn;
	bool by_qpn;
};

/* Takes dev/qpn off the front of ARGV; returns how many words it used or -1. */
static int parse_qp_id(int argc, char **argv, struct qp_id *id)
{
	int used = 0;

	while (argc - used >= 2) {
		if (!strcmp(argv[used], "dev")) {
			id->dev = argv[used + 1];
		} else if (!strcmp(argv[used], "qpn")) {
			if (parse_u32("qpn", argv[used + 1], &id->qpn))
				return -1;
			id->by_qpn = true;
		} else {
			break;
		}
		used += 2;
	}
	return used;
}

static int parse_port(const char *s, uint16_t *port)
{
	uint32_t v;

	if (parse_u32("udp-sport", s, &v))
		return -1;
	if (v > UINT16_MAX) {
		usage_error("udp-sport: %s is out of range (0..65535)", s);
		return -1;
	}
	*port = v;
	return 0;
}

/* qp show [ dev DEV [ qpn QPN ] ] [ udp-sport PORT ] */
static int qp_show(struct nl *nl, int argc, char **argv)
{
	struct qp_filter filter = { 0 };
	struct qp_id id = { 0 };
	struct set_req r = { 0 };
	struct nlattr *nest;
	int used, err;

	used = parse_qp_id(argc, argv, &id);
	if (used < 0)
		return EXIT_USAGE;
	if (argc - used >= 2 && !strcmp(argv[used], "udp-sport")) {
		if (parse_port(argv[used + 1], &filter.udp_sport))
			return EXIT_USAGE;
		filter.by_udp_sport = true;
		used += 2;
	}
	if (used < argc)
		return usage_error("unknown or incomplete argument \"%s\" (see rocectl qp help)",
				   argv[used]);
	if (id.by_qpn && !id.dev)
		return usage_error("%s", "qpn needs its device: dev DEV qpn QPN");

	/* One QP is a get; the rest a dump, of one device or all. */
	r.nlh = nl_request(nl, RXE_CC_CMD_QP_GET, id.by_qpn ? 0 : NLM_F_DUMP);
	if (id.dev)
		mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, id.dev);
	if (id.by_qpn) {
		nest = mnl_attr_nest_start(r.nlh, RXE_CC_A_QP);
		put_u32_key(&r, RXE_CC_A_QP_NUM, id.qpn, "qpn", NULL);
		mnl_attr_nest_end(r.nlh, nest);
	}
	pr_begin_list();
	err = nl_talk(nl, r.nlh, qp_cb, &filter);
	pr_end_list();
	if (err) {
		nl_perror(nl, err, id.by_qpn ? "qpn" : id.dev ? id.dev : "reading QPs");
		return EXIT_KERNEL;
	}
	return 0;
}

static int parse_qp_dcqcn(const char *s, uint32_t *mode)
{
	uint32_t i;

	for (i = 0; rxe_cc_qp_dcqcn_name(i); i++)
		if (!strcmp(s, rxe_cc_qp_dcqcn_name(i))) {
			*mode = i;
			return 0;
		}
	fprintf(stderr, "rocectl: dcqcn: expected on, off or device, got \"%s\"\n", s);
	return -1;
}

/*
 * qp set dev DEV qpn QPN [ dcqcn { on | off | device } ] [ min-rate MBPS ] [ max-rate MBPS ]
 *                        [ udp-sport PORT ]
 */
static int qp_set(struct nl *nl, int argc, char **argv)
{
	static const char rate_range[] = "0.." STR(RXE_CC_RATE_MAX_MBPS) " Mb/s, 0 = the device's";
	struct qp_id id = { 0 };
	struct set_req r = { 0 };
	struct nlattr *nest;
	int used, n = 0;
	uint16_t port;
	uint32_t v;

	used = parse_qp_id(argc, argv, &id);
	if (used < 0)
		return EXIT_USAGE;
	if (!id.dev || !id.by_qpn)
		return usage_error("%s", "which QP? dev DEV qpn QPN");
	r.nlh = nl_request(nl, RXE_CC_CMD_QP_SET, 0);
	mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, id.dev);
	nest = mnl_attr_nest_start(r.nlh, RXE_CC_A_QP);
	put_u32_key(&r, RXE_CC_A_QP_NUM, id.qpn, "qpn", NULL);
	for (argc -= used, argv += used; argc > 0; argc -= 2, argv += 2, n++) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (!strcmp(argv[0], "dcqcn")) {
			if (parse_qp_dcqcn(argv[1], &v))
				return EXIT_USAGE;
			put_u32_key(&r, RXE_CC_A_QP_DCQCN, v, "dcqcn", "on, off or device");
		} else if (!strcmp(argv[0], "min-rate") || !strcmp(argv[0], "max-rate")) {
			if (parse_u32(argv[0], argv[1], &v))
				return EXIT_USAGE;
			put_u32_key(&r, argv[0][1] == 'i' ? RXE_CC_A_QP_MIN_RATE :
				    RXE_CC_A_QP_MAX_RATE, v, argv[0], rate_range);
		} else if (!strcmp(argv[0], "udp-sport")) {
			if (parse_port(argv[1], &port))
				return EXIT_USAGE;
			put_u16_key(&r, RXE_CC_A_QP_UDP_SPORT, port, "udp-sport",
				    "0..65535, 0 = rxe's own");
		} else {
			return usage_error("unknown key \"%s\" (see rocectl qp help)", argv[0]);
		}
	}
	if (!n)
		return usage_error("%s", "nothing to set: dcqcn, min-rate, max-rate or udp-sport");
	mnl_attr_nest_end(r.nlh, nest);
	return set_talk(nl, &r, id.dev);
}

int cmd_qp(struct nl *nl, const char *cmd, int argc, char **argv)
{
	static const struct rocectl_cmd cmds[] = {
		{ "show", qp_show },
		{ "list", qp_show },
		{ "set", qp_set },
	};

	return run_cmd("qp", cmds, ARRAY_SIZE(cmds), cmd, nl, argc, argv);
}

void help_qp(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -s ] qp show [ dev DEV [ qpn QPN ] ] [ udp-sport PORT ]\n"
		"       rocectl qp set dev DEV qpn QPN [ dcqcn { on | off | device } ]\n"
		"                      [ min-rate MBPS ] [ max-rate MBPS ] [ udp-sport PORT ]\n"
		"A QP's overrides win over its device's DCQCN: dcqcn off ignores its CNPs,\n"
		"max-rate caps it with DCQCN on or off; a rate of 0 is the device's again.\n"
		"udp-sport gives its packets that UDP source port (its flow another ECMP\n"
		"path; rxe-udp-sport shows rxe's own), 0 gives them rxe's again.\n"
		"udp-sport lists the QPs whose packets carry that UDP source port, the\n"
		"field ECMP's five-tuple hash tells their flows apart by.\n"
		"Examples: rocectl -j -s qp show dev rxe0\n"
		"          rocectl qp show udp-sport 53017\n"
		"          rocectl qp set dev rxe0 qpn 17 dcqcn off max-rate 20\n"
		"          rocectl qp set dev rxe0 qpn 17 udp-sport 53000\n");
}
