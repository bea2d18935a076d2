// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/rxe_cc.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "genl.h"

#include <uapi/linux/rxe_cc.h>

/* Integer value ranges */
static const struct netlink_range_validation rxe_cc_a_dev_line_rate_range = {
	.min	= 1ULL,
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_time_reset_range = {
	.min	= 1ULL,
	.max	= RXE_CC_TIME_MAX_US,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_byte_reset_range = {
	.max	= RXE_CC_BYTE_RESET_MAX,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_max_rate_range = {
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_ai_rate_range = {
	.min	= 1ULL,
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_hai_rate_range = {
	.min	= 1ULL,
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_min_rate_range = {
	.min	= 1ULL,
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_rate_on_first_cnp_range = {
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_dce_tcp_rtt_range = {
	.min	= 1ULL,
	.max	= RXE_CC_TIME_MAX_US,
};

static const struct netlink_range_validation rxe_cc_a_dcqcn_rate_reduce_monitor_period_range = {
	.max	= RXE_CC_TIME_MAX_US,
};

static const struct netlink_range_validation rxe_cc_a_np_min_time_between_cnps_range = {
	.max	= RXE_CC_TIME_MAX_US,
};

static const struct netlink_range_validation rxe_cc_a_qp_min_rate_range = {
	.max	= RXE_CC_RATE_MAX_MBPS,
};

static const struct netlink_range_validation rxe_cc_a_qp_max_rate_range = {
	.max	= RXE_CC_RATE_MAX_MBPS,
};

/* Common nested types */
const struct nla_policy rxe_cc_dcqcn_nl_policy[RXE_CC_A_DCQCN_INITIAL_ALPHA + 1] = {
	[RXE_CC_A_DCQCN_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_PRESET] = { .type = NLA_NUL_STRING, .len = RXE_CC_PRESET_MAX_LEN, },
	[RXE_CC_A_DCQCN_CLAMP_TGT_RATE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_CLAMP_TGT_RATE_ATI] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_TIME_RESET] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_time_reset_range),
	[RXE_CC_A_DCQCN_BYTE_RESET] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_byte_reset_range),
	[RXE_CC_A_DCQCN_THRESHOLD] = NLA_POLICY_RANGE(NLA_U32, 1, RXE_CC_THRESHOLD_MAX),
	[RXE_CC_A_DCQCN_MAX_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_max_rate_range),
	[RXE_CC_A_DCQCN_AI_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_ai_rate_range),
	[RXE_CC_A_DCQCN_HAI_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_hai_rate_range),
	[RXE_CC_A_DCQCN_GD] = NLA_POLICY_MAX(NLA_U32, RXE_CC_GD_MAX),
	[RXE_CC_A_DCQCN_MIN_DEC_FAC] = NLA_POLICY_RANGE(NLA_U32, 1, RXE_CC_MIN_DEC_FAC_MAX),
	[RXE_CC_A_DCQCN_MIN_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_min_rate_range),
	[RXE_CC_A_DCQCN_RATE_ON_FIRST_CNP] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_rate_on_first_cnp_range),
	[RXE_CC_A_DCQCN_DCE_TCP_G] = NLA_POLICY_MAX(NLA_U32, RXE_CC_ALPHA_MAX),
	[RXE_CC_A_DCQCN_DCE_TCP_RTT] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_dce_tcp_rtt_range),
	[RXE_CC_A_DCQCN_RATE_REDUCE_MONITOR_PERIOD] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dcqcn_rate_reduce_monitor_period_range),
	[RXE_CC_A_DCQCN_INITIAL_ALPHA] = NLA_POLICY_MAX(NLA_U32, RXE_CC_ALPHA_MAX),
};

const struct nla_policy rxe_cc_np_nl_policy[RXE_CC_A_NP_CNP_PRIO_MODE + 1] = {
	[RXE_CC_A_NP_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_np_min_time_between_cnps_range),
	[RXE_CC_A_NP_PER_PORT] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_NP_CNP_DSCP] = NLA_POLICY_MAX(NLA_U32, RXE_CC_DSCP_MAX),
	[RXE_CC_A_NP_CNP_PRIO] = NLA_POLICY_MAX(NLA_U32, RXE_CC_PRIO_MAX),
	[RXE_CC_A_NP_CNP_PRIO_MODE] = NLA_POLICY_MAX(NLA_U32, 1),
};

const struct nla_policy rxe_cc_qp_nl_policy[RXE_CC_A_QP_RXE_UDP_SPORT + 1] = {
	[RXE_CC_A_QP_NUM] = { .type = NLA_U32, },
	[RXE_CC_A_QP_REMOTE_NUM] = { .type = NLA_U32, },
	[RXE_CC_A_QP_PEER] = { .type = NLA_BINARY, },
	[RXE_CC_A_QP_RATE_KBPS] = { .type = NLA_U32, },
	[RXE_CC_A_QP_TARGET_RATE_KBPS] = { .type = NLA_U32, },
	[RXE_CC_A_QP_ALPHA] = { .type = NLA_U32, },
	[RXE_CC_A_QP_TIMER_STAGE] = { .type = NLA_U32, },
	[RXE_CC_A_QP_BYTE_STAGE] = { .type = NLA_U32, },
	[RXE_CC_A_QP_LIMITED] = { .type = NLA_U32, },
	[RXE_CC_A_QP_QUEUE] = { .type = NLA_U32, },
	[RXE_CC_A_QP_IDLE_MS] = { .type = NLA_U32, },
	[RXE_CC_A_QP_STATS] = NLA_POLICY_NESTED(rxe_cc_stat_nl_policy),
	[RXE_CC_A_QP_DCQCN] = NLA_POLICY_MAX(NLA_U32, 2),
	[RXE_CC_A_QP_MIN_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_qp_min_rate_range),
	[RXE_CC_A_QP_MAX_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_qp_max_rate_range),
	[RXE_CC_A_QP_TRANSPORT] = NLA_POLICY_MAX(NLA_U32, 5),
	[RXE_CC_A_QP_UDP_SPORT] = { .type = NLA_U16, },
	[RXE_CC_A_QP_RXE_UDP_SPORT] = { .type = NLA_U16, },
};

const struct nla_policy rxe_cc_stat_nl_policy[RXE_CC_A_STAT_PORT_HELD + 1] = {
	[RXE_CC_A_STAT_TX_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_TX_BYTES] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RX_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RX_BYTES] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_NP_CNP_SENT] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_CNP_RECEIVED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_CNP_HANDLED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_CNP_IGNORED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_RATE_CUTS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_FAST_RECOVERY] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_ADDITIVE_INCREASE] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_RP_HYPER_INCREASE] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_PACED_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_PACED_NS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_QUEUE_PEAK] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_PACED_DROPPED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_MALFORMED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_UNKNOWN_QP] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_HOOK_TX_NS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_HOOK_TX_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_HOOK_RX_NS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_HOOK_RX_PACKETS] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_MONITOR_DROPPED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_UDP_SPORT_FAILED] = { .type = NLA_U64, },
	[RXE_CC_A_STAT_PORT_HELD] = { .type = NLA_U64, },
};

/* RXE_CC_CMD_DEV_GET - do */
static const struct nla_policy rxe_cc_dev_get_nl_policy[RXE_CC_A_DEV_NAME + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
};

/* RXE_CC_CMD_DCQCN_SET - do */
static const struct nla_policy rxe_cc_dcqcn_set_nl_policy[RXE_CC_A_DCQCN + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
	[RXE_CC_A_DEV_LINE_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rxe_cc_a_dev_line_rate_range),
	[RXE_CC_A_DCQCN] = NLA_POLICY_NESTED(rxe_cc_dcqcn_nl_policy),
};

/* RXE_CC_CMD_NP_SET - do */
static const struct nla_policy rxe_cc_np_set_nl_policy[RXE_CC_A_NP + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
	[RXE_CC_A_NP] = NLA_POLICY_NESTED(rxe_cc_np_nl_policy),
};

/* RXE_CC_CMD_QP_GET - do */
static const struct nla_policy rxe_cc_qp_get_do_nl_policy[RXE_CC_A_QP + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
	[RXE_CC_A_QP] = NLA_POLICY_NESTED(rxe_cc_qp_nl_policy),
};

/* RXE_CC_CMD_QP_GET - dump */
static const struct nla_policy rxe_cc_qp_get_dump_nl_policy[RXE_CC_A_DEV_NAME + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
};

/* RXE_CC_CMD_QP_SET - do */
static const struct nla_policy rxe_cc_qp_set_nl_policy[RXE_CC_A_QP + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
	[RXE_CC_A_QP] = NLA_POLICY_NESTED(rxe_cc_qp_nl_policy),
};

/* RXE_CC_CMD_STATS_RESET - do */
static const struct nla_policy rxe_cc_stats_reset_nl_policy[RXE_CC_A_QP + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32, },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = RXE_CC_DEV_NAME_MAX_LEN, },
	[RXE_CC_A_QP] = NLA_POLICY_NESTED(rxe_cc_qp_nl_policy),
};

/* Ops table for rxe_cc */
const struct genl_split_ops rxe_cc_nl_ops[8] = {
	{
		.cmd		= RXE_CC_CMD_DEV_GET,
		.doit		= rxe_cc_nl_dev_get_doit,
		.policy		= rxe_cc_dev_get_nl_policy,
		.maxattr	= RXE_CC_A_DEV_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= RXE_CC_CMD_DEV_GET,
		.dumpit	= rxe_cc_nl_dev_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= RXE_CC_CMD_DCQCN_SET,
		.doit		= rxe_cc_nl_dcqcn_set_doit,
		.policy		= rxe_cc_dcqcn_set_nl_policy,
		.maxattr	= RXE_CC_A_DCQCN,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= RXE_CC_CMD_NP_SET,
		.doit		= rxe_cc_nl_np_set_doit,
		.policy		= rxe_cc_np_set_nl_policy,
		.maxattr	= RXE_CC_A_NP,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= RXE_CC_CMD_QP_GET,
		.doit		= rxe_cc_nl_qp_get_doit,
		.policy		= rxe_cc_qp_get_do_nl_policy,
		.maxattr	= RXE_CC_A_QP,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= RXE_CC_CMD_QP_GET,
		.start		= rxe_cc_nl_qp_get_start,
		.dumpit		= rxe_cc_nl_qp_get_dumpit,
		.done		= rxe_cc_nl_qp_get_done,
		.policy		= rxe_cc_qp_get_dump_nl_policy,
		.maxattr	= RXE_CC_A_DEV_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= RXE_CC_CMD_QP_SET,
		.doit		= rxe_cc_nl_qp_set_doit,
		.policy		= rxe_cc_qp_set_nl_policy,
		.maxattr	= RXE_CC_A_QP,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= RXE_CC_CMD_STATS_RESET,
		.doit		= rxe_cc_nl_stats_reset_doit,
		.policy		= rxe_cc_stats_reset_nl_policy,
		.maxattr	= RXE_CC_A_QP,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group rxe_cc_nl_mcgrps[] = {
	[RXE_CC_NLGRP_MONITOR] = { "monitor", },
};
