/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/rxe_cc.yaml by tools/ynl-names.py */

#ifndef _RXE_CC_NAMES_GEN_H
#define _RXE_CC_NAMES_GEN_H

#include <stddef.h>

#include <linux/rxe_cc.h>

/* Each counter's name, by its attribute. */
static inline const char *rxe_cc_stat_name(unsigned int value)
{
	static const char *const names[] = {
		[RXE_CC_A_STAT_TX_PACKETS] = "tx-packets",
		[RXE_CC_A_STAT_TX_BYTES] = "tx-bytes",
		[RXE_CC_A_STAT_RX_PACKETS] = "rx-packets",
		[RXE_CC_A_STAT_RX_BYTES] = "rx-bytes",
		[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = "np-ecn-marked-roce-packets",
		[RXE_CC_A_STAT_NP_CNP_SENT] = "np-cnp-sent",
		[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = "np-cnp-suppressed",
		[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = "np-cnp-unresolved",
		[RXE_CC_A_STAT_RP_CNP_RECEIVED] = "rp-cnp-received",
		[RXE_CC_A_STAT_RP_CNP_HANDLED] = "rp-cnp-handled",
		[RXE_CC_A_STAT_RP_CNP_IGNORED] = "rp-cnp-ignored",
		[RXE_CC_A_STAT_RP_RATE_CUTS] = "rp-rate-cuts",
		[RXE_CC_A_STAT_RP_FAST_RECOVERY] = "rp-fast-recovery",
		[RXE_CC_A_STAT_RP_ADDITIVE_INCREASE] = "rp-additive-increase",
		[RXE_CC_A_STAT_RP_HYPER_INCREASE] = "rp-hyper-increase",
		[RXE_CC_A_STAT_PACED_PACKETS] = "paced-packets",
		[RXE_CC_A_STAT_PACED_NS] = "paced-ns",
		[RXE_CC_A_STAT_QUEUE_PEAK] = "queue-peak",
		[RXE_CC_A_STAT_PACED_DROPPED] = "paced-dropped",
		[RXE_CC_A_STAT_MALFORMED] = "malformed",
		[RXE_CC_A_STAT_UNKNOWN_QP] = "unknown-qp",
		[RXE_CC_A_STAT_HOOK_TX_NS] = "hook-tx-ns",
		[RXE_CC_A_STAT_HOOK_TX_PACKETS] = "hook-tx-packets",
		[RXE_CC_A_STAT_HOOK_RX_NS] = "hook-rx-ns",
		[RXE_CC_A_STAT_HOOK_RX_PACKETS] = "hook-rx-packets",
		[RXE_CC_A_STAT_MONITOR_DROPPED] = "monitor-dropped",
		[RXE_CC_A_STAT_UDP_SPORT_FAILED] = "udp-sport-failed",
		[RXE_CC_A_STAT_PORT_HELD] = "port-held",
	};

	return value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;
}

/* enum rxe_cc_qp_dcqcn's names. */
static inline const char *rxe_cc_qp_dcqcn_name(unsigned int value)
{
	static const char *const names[] = {
		[RXE_CC_QP_DCQCN_DEVICE] = "device",
		[RXE_CC_QP_DCQCN_ON] = "on",
		[RXE_CC_QP_DCQCN_OFF] = "off",
	};

	return value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;
}

/* enum rxe_cc_rate_reason's names. */
static inline const char *rxe_cc_rate_reason_name(unsigned int value)
{
	static const char *const names[] = {
		[RXE_CC_RATE_CUT] = "cut",
		[RXE_CC_RATE_FAST_RECOVERY] = "fast-recovery",
		[RXE_CC_RATE_ADDITIVE_INCREASE] = "additive-increase",
		[RXE_CC_RATE_HYPER_INCREASE] = "hyper-increase",
		[RXE_CC_RATE_CEILING] = "ceiling",
	};

	return value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;
}

/* enum rxe_cc_transport's names. */
static inline const char *rxe_cc_transport_name(unsigned int value)
{
	static const char *const names[] = {
		[RXE_CC_TRANSPORT_RC] = "rc",
		[RXE_CC_TRANSPORT_UC] = "uc",
		[RXE_CC_TRANSPORT_RD] = "rd",
		[RXE_CC_TRANSPORT_UD] = "ud",
		[RXE_CC_TRANSPORT_CNP] = "cnp",
		[RXE_CC_TRANSPORT_XRC] = "xrc",
	};

	return value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;
}

/* Each notification's name, by its command: the op's without -ntf. */
static inline const char *rxe_cc_ntf_name(unsigned int value)
{
	static const char *const names[] = {
		[RXE_CC_CMD_CNP_SENT_NTF] = "cnp-sent",
		[RXE_CC_CMD_CNP_HANDLED_NTF] = "cnp-handled",
		[RXE_CC_CMD_RATE_NTF] = "rate",
	};

	return value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;
}

#endif /* _RXE_CC_NAMES_GEN_H */
