// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl dev and stats: rxe devices, their CC state and counters, and the
 * reset of counters. Also the device dump the parameter objects print from.
 */
#include <string.h>

#include "print.h"
#include "rocectl.h"

struct dev_filter {
	const char *name;	/* NULL: all */
	int found;
	void (*show)(struct nlattr **tb);
};

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	struct dev_filter *f = data;

	if (parse_top(nlh, tb) || (f->name && strcmp(f->name, dev_of(tb))))
		return MNL_CB_OK;
	f->found++;
	f->show(tb);
	return MNL_CB_OK;
}

int show_devs(struct nl *nl, int argc, char **argv, void (*show)(struct nlattr **tb),
	      bool bare_dev)
{
	struct dev_filter f = { .show = show };
	struct nlmsghdr *nlh;
	int err;

	for (; argc > 0; argc -= 2, argv += 2) {
		if (!strcmp(argv[0], "dev") && argc > 1)
			f.name = argv[1];
		else if (argc == 1 && bare_dev && !f.name)
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

static void show_dev(struct nlattr **tb)
{
	struct nlattr *rp[RXE_CC_A_DCQCN_MAX + 1], *np[RXE_CC_A_NP_MAX + 1];

	parse_nested(tb[RXE_CC_A_DCQCN], rp, RXE_CC_A_DCQCN_MAX);
	parse_nested(tb[RXE_CC_A_NP], np, RXE_CC_A_NP_MAX);
	pr_open(NULL);
	pr_str("dev", dev_of(tb));
	pr_str("netdev", mnl_attr_get_str(tb[RXE_CC_A_DEV_IFNAME]));
	pr_rate_kbps("line-rate", mnl_attr_get_u32(tb[RXE_CC_A_DEV_LINE_RATE]) * 1000);
	if (tb[RXE_CC_A_DEV_QPS])
		pr_u64("qps", mnl_attr_get_u32(tb[RXE_CC_A_DEV_QPS]));
	pr_bool("dcqcn", mnl_attr_get_u32(rp[RXE_CC_A_DCQCN_ENABLE]));
	pr_bool("np", mnl_attr_get_u32(np[RXE_CC_A_NP_ENABLE]));
	if (show_stats && tb[RXE_CC_A_STATS])
		show_stats_nest(tb[RXE_CC_A_STATS]);
	pr_close();
}

static void show_dev_stats(struct nlattr **tb)
{
	pr_open(NULL);
	pr_str("dev", dev_of(tb));
	if (tb[RXE_CC_A_STATS])
		show_stats_nest(tb[RXE_CC_A_STATS]);
	pr_close();
}

static int dev_show(struct nl *nl, int argc, char **argv)
{
	return show_devs(nl, argc, argv, show_dev, true);
}

int cmd_dev(struct nl *nl, const char *cmd, int argc, char **argv)
{
	static const struct rocectl_cmd cmds[] = {
		{ "show", dev_show },
		{ "list", dev_show },
	};

	return run_cmd("dev", cmds, ARRAY_SIZE(cmds), cmd, nl, argc, argv);
}

/* stats reset dev DEV [ qpn QPN ] */
static int stats_reset(struct nl *nl, int argc, char **argv)
{
	const char *dev = NULL;
	struct set_req r = { 0 };
	struct nlattr *nest;
	bool by_qpn = false;
	uint32_t qpn = 0;

	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value", argv[0]);
		if (!strcmp(argv[0], "dev")) {
			dev = argv[1];
		} else if (!strcmp(argv[0], "qpn")) {
			if (parse_u32("qpn", argv[1], &qpn))
				return EXIT_USAGE;
			by_qpn = true;
		} else {
			return usage_error("unknown key \"%s\" (see rocectl stats help)", argv[0]);
		}
	}
	if (!dev)
		return usage_error("%s", "which device? dev DEV");
	r.nlh = nl_request(nl, RXE_CC_CMD_STATS_RESET, 0);
	mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, dev);
	if (by_qpn) {
		nest = mnl_attr_nest_start(r.nlh, RXE_CC_A_QP);
		put_u32_key(&r, RXE_CC_A_QP_NUM, qpn, "qpn", NULL);
		mnl_attr_nest_end(r.nlh, nest);
	}
	return set_talk(nl, &r, dev);
}

static int stats_show(struct nl *nl, int argc, char **argv)
{
	return show_devs(nl, argc, argv, show_dev_stats, false);
}

int cmd_stats(struct nl *nl, const char *cmd, int argc, char **argv)
{
	static const struct rocectl_cmd cmds[] = {
		{ "show", stats_show },
		{ "reset", stats_reset },
	};

	return run_cmd("stats", cmds, ARRAY_SIZE(cmds), cmd, nl, argc, argv);
}

void help_dev(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -s ] dev show [ DEV ]\n"
		"Example: rocectl -s dev show rxe0\n");
}

void help_stats(FILE *f)
{
	fprintf(f,
		"Usage: rocectl stats show [ dev DEV ]\n"
		"       rocectl stats reset dev DEV [ qpn QPN ]\n"
		"Without qpn, reset zeroes the device's counters and those of all its QPs.\n"
		"Example: rocectl stats reset dev rxe0\n");
}
