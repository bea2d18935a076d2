/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every counter of rxe_cc, once. A counter is RXE_CC_C_<NAME> in the module
 * and the netlink attribute RXE_CC_A_STAT_<NAME> on the wire; storage
 * follows this list, not the attribute numbers. Adding a counter is one
 * line here, in its kind's group, and its attribute at the end of the
 * spec's stat attribute set.
 *
 * No include guard: each includer defines the four macros, one per kind,
 * to build what it needs from the list. The kinds, in this order:
 *   RXE_CC_QP_FAST      on the QP, moved by every packet: atomics counted
 *                       without the QP's lock; and summed on its device
 *   RXE_CC_QP_COUNTER   on the QP, under its lock; and summed on its device
 *   RXE_CC_QP_GAUGE     on the QP only, under its lock: a sum would mean
 *                       nothing
 *   RXE_CC_DEV_COUNTER  on the device only: no QP to blame
 * The first of each group names where it begins (rxe_cc.h);
 * selftests/unit/test_counters.c checks the order and the attributes.
 */
RXE_CC_QP_FAST(TX_PACKETS)
RXE_CC_QP_FAST(TX_BYTES)
RXE_CC_QP_FAST(RX_PACKETS)
RXE_CC_QP_FAST(RX_BYTES)
RXE_CC_QP_COUNTER(NP_ECN_MARKED_ROCE_PACKETS)		/* np_ecn_marked_roce_packets */
RXE_CC_QP_COUNTER(NP_CNP_SENT)		/* np_cnp_sent */
RXE_CC_QP_COUNTER(NP_CNP_SUPPRESSED)	/* CE marks inside the CNP spacing */
RXE_CC_QP_COUNTER(NP_CNP_UNRESOLVED)	/* CE marks before the peer is known */
RXE_CC_QP_COUNTER(RP_CNP_RECEIVED)
RXE_CC_QP_COUNTER(RP_CNP_HANDLED)		/* rp_cnp_handled */
RXE_CC_QP_COUNTER(RP_CNP_IGNORED)		/* rp_cnp_ignored */
RXE_CC_QP_COUNTER(RP_RATE_CUTS)
RXE_CC_QP_COUNTER(RP_FAST_RECOVERY)
RXE_CC_QP_COUNTER(RP_ADDITIVE_INCREASE)
RXE_CC_QP_COUNTER(RP_HYPER_INCREASE)
RXE_CC_QP_COUNTER(PACED_PACKETS)	/* packets the pacer held */
RXE_CC_QP_COUNTER(PACED_NS)		/* time they spent held */
RXE_CC_QP_GAUGE(QUEUE_PEAK)		/* most packets held at once */
RXE_CC_QP_COUNTER(PACED_DROPPED)	/* held packets freed: their QP died */
RXE_CC_DEV_COUNTER(MALFORMED)
RXE_CC_DEV_COUNTER(UNKNOWN_QP)
RXE_CC_DEV_COUNTER(HOOK_TX_NS)		/* each hook's time, then its packets */
RXE_CC_DEV_COUNTER(HOOK_TX_PACKETS)
RXE_CC_DEV_COUNTER(HOOK_RX_NS)
RXE_CC_DEV_COUNTER(HOOK_RX_PACKETS)
RXE_CC_DEV_COUNTER(MONITOR_DROPPED)	/* events the rate limit dropped */
RXE_CC_DEV_COUNTER(UDP_SPORT_FAILED)	/* a set port that could not be written */
RXE_CC_DEV_COUNTER(PORT_HELD)		/* requests held for the line rate */
