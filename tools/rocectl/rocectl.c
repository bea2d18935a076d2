// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: show and set rxe_cc's DCQCN congestion control, in the style of
 * iproute2's rdma tool: rocectl [OPTIONS] OBJECT COMMAND [KEY VALUE]...
 */
#include <getopt.h>
#include <stdlib.h>

#include "print.h"
#include "rocectl.h"

#define ROCECTL_VERSION "0.2.0"

bool show_stats;

static const struct object {
	const char *name;
	int (*cmd)(struct nl *nl, const char *cmd, int argc, char **argv);
	void (*help)(FILE *f);
	bool without_module;	/* runs, with less to say, when rxe_cc is not loaded */
} objects[] = {
	/* In order of precedence for abbreviations: "d" is dev. */
	{ "dev", cmd_dev, help_dev, false },
	{ "dcqcn", cmd_dcqcn, help_dcqcn, false },
	{ "np", cmd_np, help_np, false },
	{ "cnp", cmd_np, help_np, false },
	{ "qp", cmd_qp, help_qp, false },
	{ "stats", cmd_stats, help_stats, false },
	{ "monitor", cmd_monitor, help_monitor, false },
	{ "diagnose", cmd_diagnose, help_diagnose, true },
};

#define NR_OBJECTS (sizeof(objects) / sizeof(objects[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       rocectl -V\n"
		"where  OBJECT := { dev | dcqcn | np | qp | stats | monitor | diagnose }\n"
		"       OPTIONS := { -V[ersion] | -j[son] | -p[retty] | -s[tatistics] }\n"
		"Examples:\n"
		"  rocectl dev show\n"
		"  rocectl dcqcn set dev rxe0 ai-rate 5\n"
		"  rocectl -j -s qp show\n"
		"  rocectl monitor dev rxe0\n"
		"  rocectl diagnose duration 10\n");
}

static const struct object *find_object(const char *name)
{
	size_t i;

	for (i = 0; i < NR_OBJECTS; i++)
		if (matches(name, objects[i].name))
			return &objects[i];
	return NULL;
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
	const struct object *obj;
	const char *cmd;
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
	if (matches(argv[0], "help")) {
		usage(stdout);
		return 0;
	}
	obj = find_object(argv[0]);
	if (!obj)
		return usage_error("unknown object \"%s\" (rocectl help)", argv[0]);
	/* Help needs no kernel: answer it before talking to one. */
	if (argc > 1 && matches(argv[1], "help")) {
		obj->help(stdout);
		return 0;
	}
	cmd = argc > 1 ? argv[1] : "show";
	pr_init(json, pretty);
	if (obj->without_module ? nl_open_quiet(&nl) : nl_open(&nl)) {
		nl_close(&nl);
		if (!obj->without_module)
			return EXIT_KERNEL;
		return obj->cmd(NULL, cmd, argc > 2 ? argc - 2 : 0, argv + 2);
	}
	ret = obj->cmd(&nl, cmd, argc > 2 ? argc - 2 : 0, argv + 2);
	nl_close(&nl);
	return ret;
}
