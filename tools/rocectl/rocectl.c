// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: show and set rxe_cc's DCQCN congestion control, in the style of
 * iproute2's rdma tool: rocectl [OPTIONS] OBJECT COMMAND [KEY VALUE]...
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/rxe_cc.h>

#include "dcqcn-names.h"
#include "dcqcn.h"
#include "nl.h"
#include "print.h"

#define ROCECTL_VERSION "0.1.0"

static bool show_stats;

/* Counter names, hyphenated mlx5 names where mlx5 has the counter. */
static const char *const stat_names[RXE_CC_A_STAT_MAX + 1] = {
	[RXE_CC_A_STAT_TX_PACKETS] = "tx-packets",
	[RXE_CC_A_STAT_TX_BYTES] = "tx-bytes",
	[RXE_CC_A_STAT_RX_PACKETS] = "rx-packets",
	[RXE_CC_A_STAT_RX_BYTES] = "rx-bytes",
	[RXE_CC_A_STAT_ECN_MARKED] = "np-ecn-marked-roce-packets",
	[RXE_CC_A_STAT_CNP_SENT] = "np-cnp-sent",
	[RXE_CC_A_STAT_CNP_SUPPRESSED] = "np-cnp-suppressed",
	[RXE_CC_A_STAT_CNP_UNRESOLVED] = "np-cnp-unresolved",
	[RXE_CC_A_STAT_CNP_RECEIVED] = "rp-cnp-received",
	[RXE_CC_A_STAT_CNP_HANDLED] = "rp-cnp-handled",
	[RXE_CC_A_STAT_CNP_IGNORED] = "rp-cnp-ignored",
	[RXE_CC_A_STAT_RATE_CUTS] = "rp-rate-cuts",
	[RXE_CC_A_STAT_FAST_RECOVERY] = "rp-fast-recovery",
	[RXE_CC_A_STAT_ADDITIVE] = "rp-additive-increase",
	[RXE_CC_A_STAT_HYPER] = "rp-hyper-increase",
	[RXE_CC_A_STAT_PACED_PACKETS] = "paced-packets",
	[RXE_CC_A_STAT_PACED_NS] = "paced-ns",
	[RXE_CC_A_STAT_QUEUE_PEAK] = "queue-peak",
	[RXE_CC_A_STAT_PACED_DROPPED] = "paced-dropped",
	[RXE_CC_A_STAT_MALFORMED] = "malformed",
	[RXE_CC_A_STAT_UNKNOWN_QP] = "unknown-qp",
	[RXE_CC_A_STAT_HOOK_TX_NS] = "hook-tx-ns",
	[RXE_CC_A_STAT_HOOK_TX_PACKETS] = "hook-tx-packets",
	[RXE_CC_A_STAT_HOOK_RX_NS] = "hook-rx-ns",
	[RXE_CC_A_STAT_HOOK_RX_PACKETS] = "hook-rx-packets",
};

/* iproute2's abbreviations: ARG is a prefix of WORD. */
static bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "rocectl: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int parse_u32(const char *key, const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+')
		goto bad;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		goto bad;
	*v = x;
	return 0;
bad:
	fprintf(stderr, "rocectl: %s: \"%s\" is not a number\n", key, s ? s : "");
	return -1;
}

static int parse_onoff(const char *key, const char *s, uint32_t *v)
{
	if (s && (!strcmp(s, "on") || !strcmp(s, "1"))) {
		*v = 1;
		return 0;
	}
	if (s && (!strcmp(s, "off") || !strcmp(s, "0"))) {
		*v = 0;
		return 0;
	}
	fprintf(stderr, "rocectl: %s: expected on or off, got \"%s\"\n", key, s ? s : "");
	return -1;
}

/* ---- Reading devices ---- */

struct dev_filter {
	const char *name;	/* NULL: all */
	int found;
	void (*show)(struct nlattr **tb);
};

static void parse_nested(const struct nlattr *nest, struct nlattr **tb, int max)
{
	struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_for_each_nested(attr, nest)
		if (mnl_attr_get_type(attr) <= max)
			tb[mnl_attr_get_type(attr)] = attr;
}

static int parse_top(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * (RXE_CC_A_MAX + 1));
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) <= RXE_CC_A_MAX)
			tb[mnl_attr_get_type(attr)] = attr;
	return tb[RXE_CC_A_DEV_NAME] ? 0 : -1;
}

static void show_stats_nest(const struct nlattr *nest)
{
	struct nlattr *tb[RXE_CC_A_STAT_MAX + 1];
	int i;

	parse_nested(nest, tb, RXE_CC_A_STAT_MAX);
	pr_open("stats");
	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++)
		if (tb[i] && stat_names[i])
			pr_u64(stat_names[i], mnl_attr_get_u64(tb[i]));
	pr_close();
}

static void show_dev(struct nlattr **tb)
{
	struct nlattr *rp[RXE_CC_A_DCQCN_MAX + 1], *np[RXE_CC_A_NP_MAX + 1];

	parse_nested(tb[RXE_CC_A_DCQCN], rp, RXE_CC_A_DCQCN_MAX);
	parse_nested(tb[RXE_CC_A_NP], np, RXE_CC_A_NP_MAX);
	pr_open(NULL);
	pr_str("dev", mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]));
	pr_str("netdev", mnl_attr_get_str(tb[RXE_CC_A_DEV_IFNAME]));
	pr_rate_kbps("line-rate", mnl_attr_get_u32(tb[RXE_CC_A_DEV_LINE_RATE]) * 1000);
	pr_bool("dcqcn", mnl_attr_get_u32(rp[RXE_CC_A_DCQCN_ENABLE]));
	pr_bool("np", mnl_attr_get_u32(np[RXE_CC_A_NP_ENABLE]));
	if (show_stats && tb[RXE_CC_A_STATS])
		show_stats_nest(tb[RXE_CC_A_STATS]);
	pr_close();
}

static void show_dcqcn(struct nlattr **tb)
{
	struct nlattr *rp[RXE_CC_A_DCQCN_MAX + 1];
	int id;

	parse_nested(tb[RXE_CC_A_DCQCN], rp, RXE_CC_A_DCQCN_MAX);
	pr_open(NULL);
	pr_str("dev", mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]));
	pr_bool("enable", mnl_attr_get_u32(rp[RXE_CC_A_DCQCN_ENABLE]));
	pr_u64("line-rate", mnl_attr_get_u32(tb[RXE_CC_A_DEV_LINE_RATE]));
	for (id = 0; id < DCQCN_P_COUNT; id++) {
		struct nlattr *a = rp[RXE_CC_A_DCQCN_FIRST_PARAM + id];

		if (a)
			pr_u64(dcqcn_param_info[id].key, mnl_attr_get_u32(a));
	}
	pr_close();
}

static void show_np(struct nlattr **tb)
{
	struct nlattr *np[RXE_CC_A_NP_MAX + 1];

	parse_nested(tb[RXE_CC_A_NP], np, RXE_CC_A_NP_MAX);
	pr_open(NULL);
	pr_str("dev", mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]));
	pr_bool("enable", mnl_attr_get_u32(np[RXE_CC_A_NP_ENABLE]));
	pr_u64("min-time-between-cnps", mnl_attr_get_u32(np[RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS]));
	pr_bool("per-port", mnl_attr_get_u32(np[RXE_CC_A_NP_PER_PORT]));
	pr_u64("cnp-dscp", mnl_attr_get_u32(np[RXE_CC_A_NP_CNP_DSCP]));
	pr_u64("cnp-prio", mnl_attr_get_u32(np[RXE_CC_A_NP_CNP_PRIO]));
	pr_str("cnp-prio-mode", mnl_attr_get_u32(np[RXE_CC_A_NP_CNP_PRIO_MODE]) ? "data" : "fixed");
	pr_close();
}

static void show_dev_stats(struct nlattr **tb)
{
	pr_open(NULL);
	pr_str("dev", mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]));
	if (tb[RXE_CC_A_STATS])
		show_stats_nest(tb[RXE_CC_A_STATS]);
	pr_close();
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	struct dev_filter *f = data;

	if (parse_top(nlh, tb) ||
	    (f->name && strcmp(f->name, mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]))))
		return MNL_CB_OK;
	f->found++;
	f->show(tb);
	return MNL_CB_OK;
}

/* OBJECT show [dev DEV]: dumps the devices through SHOW. */
static int cmd_show_devs(struct nl *nl, int argc, char **argv, void (*show)(struct nlattr **))
{
	struct dev_filter f = { .show = show };
	struct nlmsghdr *nlh;
	int err;

	for (; argc > 0; argc -= 2, argv += 2) {
		if (matches(argv[0], "dev") && argc > 1)
			f.name = argv[1];
		else if (argc == 1 && show == show_dev && !f.name)
			f.name = argv[0];
		else
			return usage_error("unknown or incomplete argument \"%s\"", argv[0]);
		if (argc == 1)
			break;
	}
	nlh = nl_request(nl, RXE_CC_CMD_DEV_GET, NLM_F_DUMP);
	pr_begin_list();
	err = nl_talk(nl, nlh, dev_cb, &f);
	pr_end_list();
	if (err) {
		nl_perror(nl, err, "reading devices");
		return EXIT_KERNEL;
	}
	if (f.name && !f.found) {
		fprintf(stderr, "rocectl: %s is not an rxe device rxe_cc knows\n", f.name);
		return EXIT_KERNEL;
	}
	return 0;
}

/* ---- Setting parameters ---- */

/* Which key a request attribute came from, to name it in kernel errors. */
struct key_at {
	uint32_t off;
	const char *key;
	int param;	/* dcqcn param id, or -1 */
};

struct set_req {
	struct nlmsghdr *nlh;
	struct key_at keys[64];
	int nkeys;
};

static void put_u32_key(struct set_req *r, uint16_t type, uint32_t v, const char *key, int param)
{
	if (r->nkeys < (int)(sizeof(r->keys) / sizeof(r->keys[0]))) {
		r->keys[r->nkeys].off = (char *)mnl_nlmsg_get_payload_tail(r->nlh) - (char *)r->nlh;
		r->keys[r->nkeys].key = key;
		r->keys[r->nkeys].param = param;
		r->nkeys++;
	}
	mnl_attr_put_u32(r->nlh, type, v);
}

static int set_talk(struct nl *nl, struct set_req *r, const char *dev)
{
	int err = nl_talk(nl, r->nlh, NULL, NULL);
	int i;

	if (!err)
		return 0;
	for (i = 0; i < r->nkeys && nl->err_off; i++) {
		if (r->keys[i].off != nl->err_off)
			continue;
		if (r->keys[i].param >= 0) {
			const struct dcqcn_param_info *p = &dcqcn_param_info[r->keys[i].param];

			fprintf(stderr, "rocectl: %s: %s (%u..%u %s)\n", r->keys[i].key,
				nl->err_msg[0] ? nl->err_msg : strerror(-err), p->min, p->max,
				p->unit);
			return EXIT_KERNEL;
		}
		nl_perror(nl, err, r->keys[i].key);
		return EXIT_KERNEL;
	}
	nl_perror(nl, err, dev);
	return EXIT_KERNEL;
}

static int cmd_dcqcn_set(struct nl *nl, int argc, char **argv)
{
	struct set_req r = { 0 };
	const char *dev = NULL, *line_rate = NULL;
	struct nlattr *nest;
	uint32_t v;
	int id;

	r.nlh = nl_request(nl, RXE_CC_CMD_DCQCN_SET, 0);
	nest = mnl_attr_nest_start(r.nlh, RXE_CC_A_DCQCN);
	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (!strcmp(argv[0], "dev")) {
			dev = argv[1];
		} else if (!strcmp(argv[0], "preset")) {
			if (strcmp(argv[1], "mlx5") && strcmp(argv[1], "paper"))
				return usage_error("unknown preset \"%s\" (mlx5, paper)", argv[1]);
			mnl_attr_put_strz(r.nlh, RXE_CC_A_DCQCN_PRESET, argv[1]);
		} else if (!strcmp(argv[0], "enable")) {
			if (parse_onoff("enable", argv[1], &v))
				return EXIT_USAGE;
			put_u32_key(&r, RXE_CC_A_DCQCN_ENABLE, v, "enable", -1);
		} else if (!strcmp(argv[0], "line-rate")) {
			line_rate = argv[1];
		} else if ((id = dcqcn_param_by_name(argv[0])) >= 0) {
			if (parse_u32(argv[0], argv[1], &v))
				return EXIT_USAGE;
			put_u32_key(&r, RXE_CC_A_DCQCN_FIRST_PARAM + id, v,
				    dcqcn_param_info[id].key, id);
		} else {
			return usage_error("unknown key \"%s\" (see rocectl dcqcn help)", argv[0]);
		}
	}
	mnl_attr_nest_end(r.nlh, nest);
	if (!dev)
		return usage_error("%s", "which device? dev DEV");
	mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, dev);
	if (line_rate) {
		if (parse_u32("line-rate", line_rate, &v))
			return EXIT_USAGE;
		put_u32_key(&r, RXE_CC_A_DEV_LINE_RATE, v, "line-rate", -1);
	}
	return set_talk(nl, &r, dev);
}

static const struct {
	const char *key;
	uint16_t type;
	bool onoff;
} np_keys[] = {
	{ "enable", RXE_CC_A_NP_ENABLE, true },
	{ "min-time-between-cnps", RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS, false },
	{ "per-port", RXE_CC_A_NP_PER_PORT, true },
	{ "cnp-dscp", RXE_CC_A_NP_CNP_DSCP, false },
	{ "cnp-prio", RXE_CC_A_NP_CNP_PRIO, false },
};

static int cmd_np_set(struct nl *nl, int argc, char **argv)
{
	struct set_req r = { 0 };
	const char *dev = NULL;
	struct nlattr *nest;
	size_t i;
	uint32_t v;

	r.nlh = nl_request(nl, RXE_CC_CMD_NP_SET, 0);
	nest = mnl_attr_nest_start(r.nlh, RXE_CC_A_NP);
	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (!strcmp(argv[0], "dev")) {
			dev = argv[1];
			continue;
		}
		if (!strcmp(argv[0], "cnp-prio-mode")) {
			if (strcmp(argv[1], "data") && strcmp(argv[1], "fixed"))
				return usage_error("cnp-prio-mode: \"%s\" is not data or fixed",
						   argv[1]);
			put_u32_key(&r, RXE_CC_A_NP_CNP_PRIO_MODE, !strcmp(argv[1], "data"),
				    "cnp-prio-mode", -1);
			continue;
		}
		for (i = 0; i < sizeof(np_keys) / sizeof(np_keys[0]); i++)
			if (!strcmp(argv[0], np_keys[i].key))
				break;
		if (i == sizeof(np_keys) / sizeof(np_keys[0]))
			return usage_error("unknown key \"%s\" (see rocectl np help)", argv[0]);
		if (np_keys[i].onoff ? parse_onoff(argv[0], argv[1], &v) :
				       parse_u32(argv[0], argv[1], &v))
			return EXIT_USAGE;
		put_u32_key(&r, np_keys[i].type, v, np_keys[i].key, -1);
	}
	mnl_attr_nest_end(r.nlh, nest);
	if (!dev)
		return usage_error("%s", "which device? dev DEV");
	mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, dev);
	return set_talk(nl, &r, dev);
}

/* ---- QPs ---- */

struct qp_filter {
	const char *dev;
	uint32_t qpn;
	bool by_qpn;
	int found;
};

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1], *qa[RXE_CC_A_QP_MAX + 1];
	struct qp_filter *f = data;
	char addr[INET6_ADDRSTRLEN];
	uint32_t qpn;

	if (parse_top(nlh, tb) || !tb[RXE_CC_A_QP])
		return MNL_CB_OK;
	if (f->dev && strcmp(f->dev, mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME])))
		return MNL_CB_OK;
	parse_nested(tb[RXE_CC_A_QP], qa, RXE_CC_A_QP_MAX);
	qpn = mnl_attr_get_u32(qa[RXE_CC_A_QP_NUM]);
	if (f->by_qpn && qpn != f->qpn)
		return MNL_CB_OK;
	f->found++;

	pr_open(NULL);
	pr_str("dev", mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]));
	pr_u64("qpn", qpn);
	if (qa[RXE_CC_A_QP_REMOTE_NUM])
		pr_u64("remote-qpn", mnl_attr_get_u32(qa[RXE_CC_A_QP_REMOTE_NUM]));
	if (qa[RXE_CC_A_QP_PEER]) {
		int len = mnl_attr_get_payload_len(qa[RXE_CC_A_QP_PEER]);

		if (inet_ntop(len == 4 ? AF_INET : AF_INET6,
			      mnl_attr_get_payload(qa[RXE_CC_A_QP_PEER]), addr, sizeof(addr)))
			pr_str("peer", addr);
	}
	pr_rate_kbps("rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_RATE]));
	pr_rate_kbps("target-rate", mnl_attr_get_u32(qa[RXE_CC_A_QP_TARGET_RATE]));
	pr_u64("alpha", mnl_attr_get_u32(qa[RXE_CC_A_QP_ALPHA]));
	pr_u64("timer-stage", mnl_attr_get_u32(qa[RXE_CC_A_QP_TIMER_STAGE]));
	pr_u64("byte-stage", mnl_attr_get_u32(qa[RXE_CC_A_QP_BYTE_STAGE]));
	pr_bool("limited", mnl_attr_get_u32(qa[RXE_CC_A_QP_LIMITED]));
	pr_u64("queue", mnl_attr_get_u32(qa[RXE_CC_A_QP_QUEUE]));
	pr_u64("idle-ms", mnl_attr_get_u32(qa[RXE_CC_A_QP_IDLE_MS]));
	if (show_stats && qa[RXE_CC_A_QP_STATS])
		show_stats_nest(qa[RXE_CC_A_QP_STATS]);
	pr_close();
	return MNL_CB_OK;
}

static int cmd_qp_show(struct nl *nl, int argc, char **argv)
{
	struct qp_filter f = { 0 };
	struct nlmsghdr *nlh;
	int err;

	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (matches(argv[0], "dev")) {
			f.dev = argv[1];
		} else if (matches(argv[0], "qpn")) {
			if (parse_u32("qpn", argv[1], &f.qpn))
				return EXIT_USAGE;
			f.by_qpn = true;
		} else {
			return usage_error("unknown key \"%s\" (see rocectl qp help)", argv[0]);
		}
	}
	nlh = nl_request(nl, RXE_CC_CMD_QP_GET, NLM_F_DUMP);
	pr_begin_list();
	err = nl_talk(nl, nlh, qp_cb, &f);
	pr_end_list();
	if (err) {
		nl_perror(nl, err, "reading QPs");
		return EXIT_KERNEL;
	}
	if (f.by_qpn && !f.found) {
		fprintf(stderr, "rocectl: no QP %u%s%s\n", f.qpn, f.dev ? " on " : "",
			f.dev ? f.dev : "");
		return EXIT_KERNEL;
	}
	return 0;
}

/* ---- Help and dispatch ---- */

static void help_dcqcn(FILE *f)
{
	int id;

	fprintf(f,
		"Usage: rocectl dcqcn show [ dev DEV ]\n"
		"       rocectl dcqcn set dev DEV [ preset { mlx5 | paper } ] [ enable { on | off } ]\n"
		"                         [ line-rate MBPS ] [ KEY VALUE ]...\n"
		"KEY (mlx5 names are accepted too):\n");
	for (id = 0; id < DCQCN_P_COUNT; id++)
		fprintf(f, "  %-28s %-30s %s, %u..%u\n", dcqcn_param_info[id].key,
			dcqcn_param_info[id].mlx5_name, dcqcn_param_info[id].unit,
			dcqcn_param_info[id].min, dcqcn_param_info[id].max);
	fprintf(f, "Example: rocectl dcqcn set dev rxe0 ai-rate 5 time-reset 300\n");
}

static void help_np(FILE *f)
{
	fprintf(f,
		"Usage: rocectl np show [ dev DEV ]\n"
		"       rocectl np set dev DEV [ enable { on | off } ] [ min-time-between-cnps US ]\n"
		"                      [ per-port { on | off } ] [ cnp-dscp 0..63 ] [ cnp-prio 0..7 ]\n"
		"                      [ cnp-prio-mode { fixed | data } ]\n"
		"Example: rocectl np set dev rxe0 min-time-between-cnps 50\n");
}

static void help_qp(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -s ] qp show [ dev DEV ] [ qpn QPN ]\n"
		"Example: rocectl -j -s qp show dev rxe0\n");
}

static void help_dev(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -s ] dev show [ DEV ]\n"
		"       rocectl stats show [ dev DEV ]\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       rocectl -V\n"
		"where  OBJECT := { dev | dcqcn | np | qp | stats }\n"
		"       OPTIONS := { -V[ersion] | -j[son] | -p[retty] | -s[tatistics] }\n"
		"Examples:\n"
		"  rocectl dev show\n"
		"  rocectl dcqcn set dev rxe0 ai-rate 5\n"
		"  rocectl -j -s qp show\n");
}

static bool wants_help(int argc, char **argv)
{
	return argc > 0 && matches(argv[0], "help");
}

static int run(struct nl *nl, int argc, char **argv)
{
	const char *obj = argv[0], *cmd = argc > 1 ? argv[1] : "show";
	int rest = argc > 2 ? argc - 2 : 0;
	char **args = argv + 2;

	if (matches(obj, "dev") || matches(obj, "stats")) {
		if (!matches(cmd, "show"))
			return usage_error("unknown command \"%s\" (show)", cmd);
		return cmd_show_devs(nl, rest, args, matches(obj, "dev") ? show_dev : show_dev_stats);
	}
	if (matches(obj, "dcqcn")) {
		if (matches(cmd, "show"))
			return cmd_show_devs(nl, rest, args, show_dcqcn);
		if (matches(cmd, "set"))
			return cmd_dcqcn_set(nl, rest, args);
		return usage_error("unknown command \"%s\" (show, set)", cmd);
	}
	if (matches(obj, "np")) {
		if (matches(cmd, "show"))
			return cmd_show_devs(nl, rest, args, show_np);
		if (matches(cmd, "set"))
			return cmd_np_set(nl, rest, args);
		return usage_error("unknown command \"%s\" (show, set)", cmd);
	}
	if (matches(obj, "qp")) {
		if (matches(cmd, "show"))
			return cmd_qp_show(nl, rest, args);
		return usage_error("unknown command \"%s\" (show)", cmd);
	}
	return usage_error("unknown object \"%s\" (rocectl help)", obj);
}

/* Help needs no kernel: answer it before talking to one. */
static int help(int argc, char **argv)
{
	const char *obj = argv[0];

	if (matches(obj, "help")) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || !wants_help(argc - 1, argv + 1))
		return -1;
	if (matches(obj, "dcqcn"))
		help_dcqcn(stdout);
	else if (matches(obj, "np"))
		help_np(stdout);
	else if (matches(obj, "qp"))
		help_qp(stdout);
	else if (matches(obj, "dev") || matches(obj, "stats"))
		help_dev(stdout);
	else
		return usage_error("unknown object \"%s\" (rocectl help)", obj);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "Version", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "statistics", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false;
	struct nl nl;
	int opt, ret;

	while ((opt = getopt_long_only(argc, argv, "+Vjpsh", opts, NULL)) != -1) {
		switch (opt) {
		case 'V':
			printf("rocectl %s (rxe_cc netlink family \"%s\" v%d, libmnl)\n",
			       ROCECTL_VERSION, RXE_CC_FAMILY_NAME, RXE_CC_FAMILY_VERSION);
			return 0;
		case 'j':
			json = true;
			break;
		case 'p':
			pretty = true;
			break;
		case 's':
			show_stats = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	pr_init(json, pretty);
	ret = help(argc, argv);
	if (ret >= 0)
		return ret;
	if (nl_open(&nl)) {
		nl_close(&nl);
		return EXIT_KERNEL;
	}
	ret = run(&nl, argc, argv);
	nl_close(&nl);
	return ret;
}
