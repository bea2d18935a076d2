// SPDX-License-Identifier: GPL-2.0
/*
 * The reaction point's input: a CNP that arrived for a local QP. It is
 * checked as a NIC would (length, P_Key, ICRC), matched to the QP by its
 * DestQP, and fed to the QP's DCQCN flow. CNPs for unknown QPs, for QPs of
 * a device with the RP off, or from an address that is not the QP's peer
 * are counted as ignored (mlx5's rp_cnp_ignored); so are CNPs for a QP
 * whose DCQCN is turned off on its own.
 */

#include <linux/skbuff.h>
#include <net/ipv6.h>

#include "roce.h"
#include "rxe_cc.h"

static bool rp_cnp_valid(struct sk_buff *skb, const struct roce_pkt *pkt)
{
	unsigned int len = pkt->bth_off + pkt->udp_len;
	__le32 icrc;

	if (pkt->udp_len != ROCE_CNP_PAYLOAD_BYTES ||
	    ntohs(pkt->bth.pkey) != ROCE_DEFAULT_PKEY || skb->len < len)
		return false;
	/* The ICRC is computed over linear data ending at the ICRC field. */
	if (skb->len > len && pskb_trim(skb, len))
		return false;
	if (skb_linearize(skb))
		return false;
	memcpy(&icrc, skb_tail_pointer(skb) - ROCE_ICRC_BYTES, ROCE_ICRC_BYTES);
	return icrc == roce_icrc(skb);
}

void rxe_cc_rp_cnp(struct rxe_cc_dev *dev, struct rxe_cc_config *cfg,
		   struct sk_buff *skb, const struct roce_pkt *pkt)
{
	struct rxe_cc_qp *qp;
	bool from_peer;
	u64 now;

	if (!rp_cnp_valid(skb, pkt)) {
		rxe_cc_dev_count(dev, RXE_CC_A_STAT_MALFORMED, 1);
		return;
	}
	qp = rxe_cc_qp_lookup(dev, roce_bth_dest_qp(&pkt->bth));
	if (!qp) {
		rxe_cc_dev_count(dev, RXE_CC_A_STAT_CNP_RECEIVED, 1);
		rxe_cc_dev_count(dev, RXE_CC_A_STAT_UNKNOWN_QP, 1);
		rxe_cc_dev_count(dev, RXE_CC_A_STAT_CNP_IGNORED, 1);
		return;
	}

	spin_lock_bh(&qp->lock);
	rxe_cc_qp_count(qp, RXE_CC_A_STAT_CNP_RECEIVED, 1);
	from_peer = roce_pkt_saddr_is(skb, pkt, &qp->peer);
	if (!rxe_cc_qp_rp_enabled(qp, cfg) || !from_peer) {
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_CNP_IGNORED, 1);
	} else {
		now = ktime_get_ns();
		rxe_cc_qp_run_dcqcn(qp, cfg, RXE_CC_DCQCN_CNP, 0, now);
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_CNP_HANDLED, 1);
		rxe_cc_monitor_cnp_handled(qp, now);
	}
	spin_unlock_bh(&qp->lock);
}
