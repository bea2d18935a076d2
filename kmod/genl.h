/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/rxe_cc.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_RXE_CC_GEN_H
#define _LINUX_RXE_CC_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/rxe_cc.h>

/* Common nested types */
extern const struct nla_policy rxe_cc_dcqcn_nl_policy[RXE_CC_A_DCQCN_INITIAL_ALPHA + 1];
extern const struct nla_policy rxe_cc_np_nl_policy[RXE_CC_A_NP_CNP_PRIO_MODE + 1];
extern const struct nla_policy rxe_cc_qp_nl_policy[RXE_CC_A_QP_RXE_UDP_SPORT + 1];
extern const struct nla_policy rxe_cc_stat_nl_policy[RXE_CC_A_STAT_PORT_HELD + 1];

/* Ops table for rxe_cc */
extern const struct genl_split_ops rxe_cc_nl_ops[8];

int rxe_cc_nl_qp_get_start(struct netlink_callback *cb);
int rxe_cc_nl_qp_get_done(struct netlink_callback *cb);

int rxe_cc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int rxe_cc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rxe_cc_nl_dcqcn_set_doit(struct sk_buff *skb, struct genl_info *info);
int rxe_cc_nl_np_set_doit(struct sk_buff *skb, struct genl_info *info);
int rxe_cc_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info);
int rxe_cc_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rxe_cc_nl_qp_set_doit(struct sk_buff *skb, struct genl_info *info);
int rxe_cc_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	RXE_CC_NLGRP_MONITOR,
};

#endif /* _LINUX_RXE_CC_GEN_H */
