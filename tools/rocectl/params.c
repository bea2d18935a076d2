// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl dcqcn and np: a device's reaction point and notification point
 * parameters, shown and set by key.
 */
#include <string.h>

#include "dcqcn-names.h"
#include "dcqcn.h"
#include "print.h"
#include "rocectl.h"

/* "1..400000 Mb/s" for each DCQCN knob, for errors. */
static char dcqcn_range[DCQCN_P_COUNT][48];

static const char *dcqcn_range_of(int id)
{
	const struct dcqcn_param_info *p = &dcqcn_param_info[id];

	snprintf(dcqcn_range[id], sizeof(dcqcn_range[id]), "%u..%u %s", p->min, p->max, p->unit);
	return dcqcn_range[id];
}

static void show_dcqcn(struct nlattr **tb)
{
	struct nlattr *rp[RXE_CC_A_DCQCN_MAX + 1];
	int id;

	parse_nested(tb[RXE_CC_A_DCQCN], rp, RXE_CC_A_DCQCN_MAX);
	pr_open(NULL);
	pr_str("dev", dev_of(tb));
	pr_bool("enable", mnl_attr_get_u32(rp[RXE_CC_A_DCQCN_ENABLE]));
	pr_u64("line-rate", mnl_attr_get_u32(tb[RXE_CC_A_DEV_LINE_RATE]));
	for (id = 0; id < DCQCN_P_COUNT; id++) {
		struct nlattr *a = rp[dcqcn_param_attr(id)];

		if (a)
			pr_u64(dcqcn_param_info[id].key, mnl_attr_get_u32(a));
	}
	pr_close();
}

static int dcqcn_set(struct nl *nl, int argc, char **argv)
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
			put_u32_key(&r, RXE_CC_A_DCQCN_ENABLE, v, "enable", NULL);
		} else if (!strcmp(argv[0], "line-rate")) {
			line_rate = argv[1];
		} else if ((id = dcqcn_param_by_name(argv[0])) >= 0) {
			if (parse_u32(argv[0], argv[1], &v))
				return EXIT_USAGE;
			put_u32_key(&r, dcqcn_param_attr(id), v,
				    dcqcn_param_info[id].key, dcqcn_range_of(id));
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
		put_u32_key(&r, RXE_CC_A_DEV_LINE_RATE, v, "line-rate",
			    "1.." STR(RXE_CC_RATE_MAX_MBPS) " Mb/s");
	}
	return set_talk(nl, &r, dev);
}

static int dcqcn_show(struct nl *nl, int argc, char **argv)
{
	return show_devs(nl, argc, argv, show_dcqcn, false);
}

int cmd_dcqcn(struct nl *nl, const char *cmd, int argc, char **argv)
{
	static const struct rocectl_cmd cmds[] = {
		{ "show", dcqcn_show },
		{ "set", dcqcn_set },
	};

	return run_cmd("dcqcn", cmds, ARRAY_SIZE(cmds), cmd, nl, argc, argv);
}

void help_dcqcn(FILE *f)
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
	fprintf(f,
		"Examples: rocectl dcqcn set dev rxe0 ai-rate 5 time-reset 300\n"
		"          rocectl dcqcn set dev rxe0 preset mlx5\n");
}

/*
 * The NP keys; cnp-prio-mode takes words, the others numbers or on/off.
 * DSCP is 6 bits, the priority a 3-bit PCP.
 */
static const struct {
	const char *key;
	uint16_t type;
	bool onoff;
	uint32_t max;
	const char *unit;
} np_keys[] = {
	{ "enable", RXE_CC_A_NP_ENABLE, true, 1, "" },
	{ "min-time-between-cnps", RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS, false,
	  RXE_CC_TIME_MAX_US, " us" },
	{ "per-port", RXE_CC_A_NP_PER_PORT, true, 1, "" },
	{ "cnp-dscp", RXE_CC_A_NP_CNP_DSCP, false, RXE_CC_DSCP_MAX, "" },
	{ "cnp-prio", RXE_CC_A_NP_CNP_PRIO, false, RXE_CC_PRIO_MAX, "" },
};

#define NP_NKEYS (sizeof(np_keys) / sizeof(np_keys[0]))

static char np_range[NP_NKEYS][48];

static const char *np_range_of(size_t i)
{
	if (np_keys[i].onoff)
		return "on or off";
	snprintf(np_range[i], sizeof(np_range[i]), "0..%u%s", np_keys[i].max, np_keys[i].unit);
	return np_range[i];
}

static void show_np(struct nlattr **tb)
{
	struct nlattr *np[RXE_CC_A_NP_MAX + 1];
	size_t i;

	parse_nested(tb[RXE_CC_A_NP], np, RXE_CC_A_NP_MAX);
	pr_open(NULL);
	pr_str("dev", dev_of(tb));
	for (i = 0; i < NP_NKEYS; i++) {
		uint32_t v = mnl_attr_get_u32(np[np_keys[i].type]);

		if (np_keys[i].onoff)
			pr_bool(np_keys[i].key, v);
		else
			pr_u64(np_keys[i].key, v);
	}
	pr_str("cnp-prio-mode", mnl_attr_get_u32(np[RXE_CC_A_NP_CNP_PRIO_MODE]) ? "data" : "fixed");
	pr_close();
}

static int np_set(struct nl *nl, int argc, char **argv)
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
				    "cnp-prio-mode", "fixed or data");
			continue;
		}
		for (i = 0; i < NP_NKEYS; i++)
			if (!strcmp(argv[0], np_keys[i].key))
				break;
		if (i == NP_NKEYS)
			return usage_error("unknown key \"%s\" (see rocectl np help)", argv[0]);
		if (np_keys[i].onoff ? parse_onoff(argv[0], argv[1], &v) :
				       parse_u32(argv[0], argv[1], &v))
			return EXIT_USAGE;
		put_u32_key(&r, np_keys[i].type, v, np_keys[i].key, np_range_of(i));
	}
	mnl_attr_nest_end(r.nlh, nest);
	if (!dev)
		return usage_error("%s", "which device? dev DEV");
	mnl_attr_put_strz(r.nlh, RXE_CC_A_DEV_NAME, dev);
	return set_talk(nl, &r, dev);
}

static int np_show(struct nl *nl, int argc, char **argv)
{
	return show_devs(nl, argc, argv, show_np, false);
}

int cmd_np(struct nl *nl, const char *cmd, int argc, char **argv)
{
	static const struct rocectl_cmd cmds[] = {
		{ "show", np_show },
		{ "set", np_set },
	};

	return run_cmd("np", cmds, ARRAY_SIZE(cmds), cmd, nl, argc, argv);
}

void help_np(FILE *f)
{
	fprintf(f,
		"Usage: rocectl np show [ dev DEV ]\n"
		"       rocectl np set dev DEV [ enable { on | off } ] [ min-time-between-cnps US ]\n"
		"                      [ per-port { on | off } ] [ cnp-dscp 0..63 ] [ cnp-prio 0..7 ]\n"
		"                      [ cnp-prio-mode { fixed | data } ]\n"
		"Example: rocectl np set dev rxe0 min-time-between-cnps 50\n");
}
