// SPDX-License-Identifier: GPL-2.0
/*
 * The module's counter list (kmod/counters.h), as the module builds its
 * storage from it: kinds in their order (the module finds where each kind
 * begins by the first name of it), every counter once, and every stat
 * attribute of the uAPI but the padding a counter of the list.
 */
#include <string.h>
#include <linux/rxe_cc.h>

#include "tap.h"

enum kind { QP_FAST, QP_LOCKED, DEV };

static const struct {
	const char *name;
	enum kind kind;
	int attr;
} counters[] = {
#define RXE_CC_QP_FAST(name)		{ #name, QP_FAST, RXE_CC_A_STAT_##name },
#define RXE_CC_QP_COUNTER(name)		{ #name, QP_LOCKED, RXE_CC_A_STAT_##name },
#define RXE_CC_QP_GAUGE(name)		{ #name, QP_LOCKED, RXE_CC_A_STAT_##name },
#define RXE_CC_DEV_COUNTER(name)	{ #name, DEV, RXE_CC_A_STAT_##name },
#include "counters.h"
};

#define N (sizeof(counters) / sizeof(counters[0]))

int main(void)
{
	unsigned int i, j, out_of_order = 0, twice = 0, bad_attr = 0;

	for (i = 0; i < N; i++) {
		if (i && counters[i].kind < counters[i - 1].kind)
			out_of_order++;
		for (j = 0; j < i; j++)
			if (!strcmp(counters[i].name, counters[j].name) ||
			    counters[i].attr == counters[j].attr)
				twice++;
		if (counters[i].attr <= RXE_CC_A_STAT_UNSPEC ||
		    counters[i].attr >= RXE_CC_A_STAT_MAX + 1 ||
		    counters[i].attr == RXE_CC_A_STAT_PAD)
			bad_attr++;
	}
	tap_is(out_of_order, 0, "counters: QP fast, then QP locked, then device");
	tap_is(strcmp(counters[0].name, "TX_PACKETS"), 0,
	       "counters: the fast ones begin the list");
	for (i = 0; i < N && counters[i].kind == QP_FAST; i++)
		;
	tap_is(strcmp(counters[i].name, "NP_ECN_MARKED_ROCE_PACKETS"), 0,
	       "counters: NP_ECN_MARKED_ROCE_PACKETS begins the QP's locked ones (RXE_CC_QP_NFAST)");
	for (; i < N && counters[i].kind == QP_LOCKED; i++)
		;
	tap_is(strcmp(counters[i].name, "MALFORMED"), 0,
	       "counters: MALFORMED begins the device's (RXE_CC_QP_NCOUNTERS)");
	tap_is(twice, 0, "counters: each name and attribute once");
	tap_is(bad_attr, 0, "counters: each attribute a stat attribute");
	tap_is(N, RXE_CC_A_STAT_MAX - 1, "counters: every stat attribute but the padding");
	return tap_done();
}
