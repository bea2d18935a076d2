// SPDX-License-Identifier: GPL-2.0
/*
 * rxe_cc messages: reading the attributes of replies, counters by name,
 * and set requests that can name the key the kernel refused.
 */
#include <errno.h>
#include <string.h>

#include <linux/genetlink.h>

#include "print.h"
#include "rocectl.h"
#include "rxe_cc_names.h"

void parse_nested(const struct nlattr *nest, struct nlattr **tb, int max)
{
	struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	if (!nest)
		return;
	mnl_attr_for_each_nested(attr, nest)
		if (mnl_attr_get_type(attr) <= max)
			tb[mnl_attr_get_type(attr)] = attr;
}

int parse_top(const struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * (RXE_CC_A_MAX + 1));
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) <= RXE_CC_A_MAX)
			tb[mnl_attr_get_type(attr)] = attr;
	return tb[RXE_CC_A_DEV_NAME] ? 0 : -1;
}

const char *dev_of(struct nlattr **tb)
{
	return mnl_attr_get_str(tb[RXE_CC_A_DEV_NAME]);
}

void show_stats_nest(const struct nlattr *nest)
{
	struct nlattr *tb[RXE_CC_A_STAT_MAX + 1];
	int i;

	parse_nested(nest, tb, RXE_CC_A_STAT_MAX);
	pr_open("stats");
	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++)
		if (tb[i] && rxe_cc_stat_name(i))
			pr_u64(rxe_cc_stat_name(i), mnl_attr_get_u64(tb[i]));
	pr_close();
}

/* The attribute put next is KEY's: an error the kernel points at it names KEY. */
static void note_key(struct set_req *r, const char *key, const char *range)
{
	if (r->nkeys < (int)(sizeof(r->keys) / sizeof(r->keys[0]))) {
		r->keys[r->nkeys].off = (char *)mnl_nlmsg_get_payload_tail(r->nlh) - (char *)r->nlh;
		r->keys[r->nkeys].key = key;
		r->keys[r->nkeys].range = range;
		r->nkeys++;
	}
}

void put_u32_key(struct set_req *r, uint16_t type, uint32_t v, const char *key,
		 const char *range)
{
	note_key(r, key, range);
	mnl_attr_put_u32(r->nlh, type, v);
}

void put_u16_key(struct set_req *r, uint16_t type, uint16_t v, const char *key,
		 const char *range)
{
	note_key(r, key, range);
	mnl_attr_put_u16(r->nlh, type, v);
}

int set_talk(struct nl *nl, struct set_req *r, const char *what)
{
	int err = nl_talk(nl, r->nlh, NULL, NULL);
	int i;

	if (!err)
		return 0;
	for (i = 0; i < r->nkeys && nl->err_off; i++) {
		if (r->keys[i].off != nl->err_off)
			continue;
		if (r->keys[i].range) {
			fprintf(stderr, "rocectl: %s: %s (%s)\n", r->keys[i].key,
				nl->err_msg[0] ? nl->err_msg : strerror(-err), r->keys[i].range);
			return EXIT_KERNEL;
		}
		nl_perror(nl, err, r->keys[i].key);
		return EXIT_KERNEL;
	}
	nl_perror(nl, err, what);
	return EXIT_KERNEL;
}
