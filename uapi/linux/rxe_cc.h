/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * rxe_cc: DCQCN congestion control for soft-RoCE, user API.
 *
 * A generic netlink family, described by
 * Documentation/netlink/specs/rxe_cc.yaml. Devices are named by their rxe
 * device name (RXE_CC_A_DEV_NAME, "rxe0") or index (RXE_CC_A_DEV_INDEX, the
 * IB device index); QPs by device and QP number (RXE_CC_A_QP_NUM inside
 * RXE_CC_A_QP). A request sees the devices whose netdev is in its network
 * namespace. Events go to the "monitor" multicast group of that namespace.
 */
#ifndef _UAPI_LINUX_RXE_CC_H
#define _UAPI_LINUX_RXE_CC_H

#define RXE_CC_FAMILY_NAME	"rxe_cc"
#define RXE_CC_FAMILY_VERSION	1

#define RXE_CC_MCGRP_MONITOR	"monitor"

enum {
	RXE_CC_CMD_UNSPEC,
	RXE_CC_CMD_DEV_GET,	/* do/dump: devices, their parameters and counters */
	RXE_CC_CMD_DCQCN_SET,	/* reaction point parameters, preset, enable */
	RXE_CC_CMD_NP_SET,	/* notification point parameters */
	RXE_CC_CMD_QP_GET,	/* do/dump: QPs' counters and live DCQCN state */
	RXE_CC_CMD_QP_SET,	/* a QP's overrides of its device's DCQCN */
	RXE_CC_CMD_STATS_RESET,	/* zero a device's counters and its QPs', or one QP's */
	/* Events, on the monitor group; RXE_CC_A_EVENT says what happened. */
	RXE_CC_CMD_CNP_SENT_NTF,	/* the NP answered a CE mark */
	RXE_CC_CMD_CNP_HANDLED_NTF,	/* the RP fed a CNP to a QP's DCQCN */
	RXE_CC_CMD_RATE_NTF,		/* a QP's rate Rc changed */

	__RXE_CC_CMD_MAX,
	RXE_CC_CMD_MAX = __RXE_CC_CMD_MAX - 1
};

enum {
	RXE_CC_A_UNSPEC,
	RXE_CC_A_DEV_INDEX,	/* u32 */
	RXE_CC_A_DEV_NAME,	/* string */
	RXE_CC_A_DEV_IFNAME,	/* string: the netdev under the rxe device */
	RXE_CC_A_DEV_LINE_RATE,	/* u32, Mb/s: the ceiling of QP rates; set with DCQCN_SET */
	RXE_CC_A_DCQCN,		/* nest: RXE_CC_A_DCQCN_* */
	RXE_CC_A_NP,		/* nest: RXE_CC_A_NP_* */
	RXE_CC_A_STATS,		/* nest: RXE_CC_A_STAT_* */
	RXE_CC_A_QP,		/* nest: RXE_CC_A_QP_* */
	RXE_CC_A_PAD,
	RXE_CC_A_EVENT,		/* nest: RXE_CC_A_EVENT_* */

	__RXE_CC_A_MAX,
	RXE_CC_A_MAX = __RXE_CC_A_MAX - 1
};

/* Reaction point; every parameter a u32 in mlx5's units (see dcqcn.rst). */
enum {
	RXE_CC_A_DCQCN_UNSPEC,
	RXE_CC_A_DCQCN_ENABLE,
	RXE_CC_A_DCQCN_PRESET,		/* string, set only: "mlx5" or "paper" */
	RXE_CC_A_DCQCN_CLAMP_TGT_RATE,
	RXE_CC_A_DCQCN_CLAMP_TGT_RATE_ATI,
	RXE_CC_A_DCQCN_TIME_RESET,
	RXE_CC_A_DCQCN_BYTE_RESET,
	RXE_CC_A_DCQCN_THRESHOLD,
	RXE_CC_A_DCQCN_MAX_RATE,
	RXE_CC_A_DCQCN_AI_RATE,
	RXE_CC_A_DCQCN_HAI_RATE,
	RXE_CC_A_DCQCN_GD,
	RXE_CC_A_DCQCN_MIN_DEC_FAC,
	RXE_CC_A_DCQCN_MIN_RATE,
	RXE_CC_A_DCQCN_RATE_TO_SET_ON_FIRST_CNP,
	RXE_CC_A_DCQCN_DCE_TCP_G,
	RXE_CC_A_DCQCN_DCE_TCP_RTT,
	RXE_CC_A_DCQCN_RATE_REDUCE_MONITOR_PERIOD,
	RXE_CC_A_DCQCN_INITIAL_ALPHA,

	__RXE_CC_A_DCQCN_MAX,
	RXE_CC_A_DCQCN_MAX = __RXE_CC_A_DCQCN_MAX - 1
};

/* The parameter attributes follow the DCQCN core's parameter ids. */
#define RXE_CC_A_DCQCN_FIRST_PARAM	RXE_CC_A_DCQCN_CLAMP_TGT_RATE

enum {
	RXE_CC_A_NP_UNSPEC,
	RXE_CC_A_NP_ENABLE,			/* u32 0/1 */
	RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS,	/* u32, us */
	RXE_CC_A_NP_PER_PORT,			/* u32 0/1: spacing per port, not per QP */
	RXE_CC_A_NP_CNP_DSCP,			/* u32, 0..63 */
	RXE_CC_A_NP_CNP_PRIO,			/* u32, 0..7 */
	RXE_CC_A_NP_CNP_PRIO_MODE,		/* u32 0/1: 1 = the data's priority */

	__RXE_CC_A_NP_MAX,
	RXE_CC_A_NP_MAX = __RXE_CC_A_NP_MAX - 1
};

/* Counters, u64 each; device counters carry mlx5's names where one exists. */
enum {
	RXE_CC_A_STAT_UNSPEC,
	RXE_CC_A_STAT_TX_PACKETS,
	RXE_CC_A_STAT_TX_BYTES,
	RXE_CC_A_STAT_RX_PACKETS,
	RXE_CC_A_STAT_RX_BYTES,
	RXE_CC_A_STAT_ECN_MARKED,	/* np_ecn_marked_roce_packets */
	RXE_CC_A_STAT_CNP_SENT,		/* np_cnp_sent */
	RXE_CC_A_STAT_CNP_SUPPRESSED,	/* CE marks inside the CNP spacing */
	RXE_CC_A_STAT_CNP_UNRESOLVED,	/* CE marks for a QP whose peer is not known yet */
	RXE_CC_A_STAT_CNP_RECEIVED,
	RXE_CC_A_STAT_CNP_HANDLED,	/* rp_cnp_handled */
	RXE_CC_A_STAT_CNP_IGNORED,	/* rp_cnp_ignored */
	RXE_CC_A_STAT_RATE_CUTS,
	RXE_CC_A_STAT_FAST_RECOVERY,
	RXE_CC_A_STAT_ADDITIVE,
	RXE_CC_A_STAT_HYPER,
	RXE_CC_A_STAT_PACED_PACKETS,	/* packets the pacer held */
	RXE_CC_A_STAT_PACED_NS,		/* time they spent held */
	RXE_CC_A_STAT_QUEUE_PEAK,	/* QP only: most packets held at once */
	RXE_CC_A_STAT_PACED_DROPPED,	/* held packets freed: their QP died */
	RXE_CC_A_STAT_MALFORMED,	/* device only */
	RXE_CC_A_STAT_UNKNOWN_QP,	/* device only */
	/* Device only, counted while the hook_timing module parameter is 1. */
	RXE_CC_A_STAT_HOOK_TX_NS,	/* time spent in the egress hook */
	RXE_CC_A_STAT_HOOK_TX_PACKETS,	/* packets it saw */
	RXE_CC_A_STAT_HOOK_RX_NS,	/* time spent in the ingress hook */
	RXE_CC_A_STAT_HOOK_RX_PACKETS,
	RXE_CC_A_STAT_MONITOR_DROPPED,	/* device only: events the rate limit dropped */
	RXE_CC_A_STAT_PAD,

	__RXE_CC_A_STAT_MAX,
	RXE_CC_A_STAT_MAX = __RXE_CC_A_STAT_MAX - 1
};

enum {
	RXE_CC_A_QP_UNSPEC,
	RXE_CC_A_QP_NUM,		/* u32 */
	RXE_CC_A_QP_REMOTE_NUM,		/* u32, absent while unknown */
	RXE_CC_A_QP_PEER,		/* binary: IPv4 (4 bytes) or IPv6 (16) */
	RXE_CC_A_QP_RATE,		/* u32, kb/s: Rc, what the pacer enforces */
	RXE_CC_A_QP_TARGET_RATE,	/* u32, kb/s: Rt */
	RXE_CC_A_QP_ALPHA,		/* u32, 1/1024 */
	RXE_CC_A_QP_TIMER_STAGE,	/* u32 */
	RXE_CC_A_QP_BYTE_STAGE,		/* u32 */
	RXE_CC_A_QP_LIMITED,		/* u32 0/1: DCQCN is holding the rate down */
	RXE_CC_A_QP_QUEUE,		/* u32: packets held now */
	RXE_CC_A_QP_IDLE_MS,		/* u32: since the QP's last packet */
	RXE_CC_A_QP_STATS,		/* nest: RXE_CC_A_STAT_* */
	RXE_CC_A_QP_PAD,
	/* Overrides of the device's reaction point, set with QP_SET. */
	RXE_CC_A_QP_DCQCN,		/* u32, enum rxe_cc_qp_dcqcn */
	RXE_CC_A_QP_MIN_RATE,		/* u32, Mb/s: floor of Rc, 0 = the device's */
	RXE_CC_A_QP_MAX_RATE,		/* u32, Mb/s: ceiling of Rc, 0 = the device's */

	__RXE_CC_A_QP_MAX,
	RXE_CC_A_QP_MAX = __RXE_CC_A_QP_MAX - 1
};

/* Does DCQCN run for a QP? */
enum rxe_cc_qp_dcqcn {
	RXE_CC_QP_DCQCN_DEVICE,		/* as its device says (DCQCN_ENABLE) */
	RXE_CC_QP_DCQCN_ON,
	RXE_CC_QP_DCQCN_OFF,		/* CNPs ignored; paced only to its max-rate */
};

enum {
	RXE_CC_A_EVENT_UNSPEC,
	RXE_CC_A_EVENT_TIME_NS,		/* u64, CLOCK_MONOTONIC */
	RXE_CC_A_EVENT_QP_NUM,		/* u32: the local QP */
	RXE_CC_A_EVENT_REMOTE_NUM,	/* u32, CNP sent: the QP the CNP went to */
	RXE_CC_A_EVENT_RATE,		/* u32, kb/s: Rc after the event */
	RXE_CC_A_EVENT_OLD_RATE,	/* u32, kb/s, rate change: Rc before it */
	RXE_CC_A_EVENT_TARGET_RATE,	/* u32, kb/s: Rt after the event */
	RXE_CC_A_EVENT_ALPHA,		/* u32, 1/1024 */
	RXE_CC_A_EVENT_REASON,		/* u32, rate change: enum rxe_cc_rate_reason */
	RXE_CC_A_EVENT_DROPPED,		/* u32: events of this device dropped just before */
	RXE_CC_A_EVENT_PAD,

	__RXE_CC_A_EVENT_MAX,
	RXE_CC_A_EVENT_MAX = __RXE_CC_A_EVENT_MAX - 1
};

/* What moved a QP's rate. */
enum rxe_cc_rate_reason {
	RXE_CC_RATE_CUT,		/* a CNP */
	RXE_CC_RATE_FAST_RECOVERY,
	RXE_CC_RATE_ADDITIVE,
	RXE_CC_RATE_HYPER,
	RXE_CC_RATE_CEILING,		/* max-rate or line-rate changed */
};

#endif /* _UAPI_LINUX_RXE_CC_H */
