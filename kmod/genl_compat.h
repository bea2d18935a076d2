/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kmod/genl.c, made by the kernel's ynl-gen-c (tools/ynl-regen), needs
 * from the oldest kernel rxe_cc builds for. Split ops came in 6.2: 6.1 has
 * one struct genl_ops per command, shared by its do and its dump. For it,
 * the split table is declared here with the members genl.c sets, and
 * netlink.c folds it into genl_ops before it registers the family.
 */
#ifndef _RXE_CC_GENL_COMPAT_H
#define _RXE_CC_GENL_COMPAT_H

#include <net/genetlink.h>

#ifdef RXE_CC_NO_SPLIT_OPS
struct genl_split_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	int (*start)(struct netlink_callback *cb);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	int (*done)(struct netlink_callback *cb);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 flags;
	u8 validate;
};
#endif

#endif /* _RXE_CC_GENL_COMPAT_H */
