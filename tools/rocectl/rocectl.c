// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: show and set rxe_cc's DCQCN congestion control.
 */
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/rxe_cc.h>

#define ROCECTL_VERSION "0.1.0"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       rocectl -V\n"
		"where  OBJECT := { dev | dcqcn | np | qp | stats | monitor }\n"
		"       OPTIONS := { -V[ersion] | -j[son] | -p[retty] | -s[tatistics] }\n");
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "-Version"))) {
		printf("rocectl %s (rxe_cc netlink family \"%s\" v%d, libmnl)\n",
		       ROCECTL_VERSION, RXE_CC_FAMILY_NAME, RXE_CC_FAMILY_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 1;
}
