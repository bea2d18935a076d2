// SPDX-License-Identifier: GPL-2.0
/*
 * The reaction point: everything DCQCN does to a QP.
 *
 * Its input is a CNP that arrived for a local QP, checked as a NIC would
 * (length, P_Key, ICRC) and matched to the QP by its DestQP. CNPs for
 * unknown QPs, for QPs whose DCQCN is off (the device's or the QP's own
 * setting), or from an address that is not the QP's peer are counted as
 * ignored (mlx5's rp_cnp_ignored).
 *
 * The pacer and the netlink family move a QP's flow on through
 * rxe_cc_rp_run() too, with the time and the bytes sent; each step the core
 * reports is counted on the QP and its device, and a change of Rc goes to
 * the monitor group with the kind of step that made it.
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
		rxe_cc_dev_count(dev, RXE_CC_C_MALFORMED, 1);
		return;
	}
	qp = rxe_cc_qp_lookup(dev, roce_bth_dest_qp(&pkt->bth));
	if (!qp) {
		rxe_cc_dev_count(dev, RXE_CC_C_RP_CNP_RECEIVED, 1);
		rxe_cc_dev_count(dev, RXE_CC_C_UNKNOWN_QP, 1);
		rxe_cc_dev_count(dev, RXE_CC_C_RP_CNP_IGNORED, 1);
		return;
	}

	spin_lock_bh(&qp->lock);
	rxe_cc_qp_count(qp, RXE_CC_C_RP_CNP_RECEIVED, 1);
	from_peer = roce_pkt_saddr_is(skb, pkt, &qp->peer);
	if (!rxe_cc_qp_rp_enabled(qp, cfg) || !from_peer) {
		rxe_cc_qp_count(qp, RXE_CC_C_RP_CNP_IGNORED, 1);
	} else {
		now = ktime_get_ns();
		rxe_cc_rp_run(qp, cfg, RXE_CC_RP_CNP, 0, now);
		rxe_cc_qp_count(qp, RXE_CC_C_RP_CNP_HANDLED, 1);
		rxe_cc_monitor_cnp_handled(qp, now);
	}
	spin_unlock_bh(&qp->lock);
}

/*
 * The device's RP parameters DEV_RP with the rate limits MIN_MBPS/MAX_MBPS
 * in place of its own where they are not 0 (in BUF, if any is).
 */
static const struct dcqcn_params *rp_with_limits(const struct dcqcn_params *dev_rp,
						 u32 min_mbps, u32 max_mbps,
						 struct dcqcn_params *buf)
{
	if (likely(!min_mbps && !max_mbps))
		return dev_rp;
	*buf = *dev_rp;
	if (min_mbps)
		buf->min_rate_mbps = min_mbps;
	if (max_mbps)
		buf->max_rate_mbps = max_mbps;
	return buf;
}

/*
 * The DCQCN parameters of the QP: its device's, with the QP's rate limits
 * in place of the device's where it has them. The core keeps Rc between
 * floor and ceiling even when they cross.
 */
static const struct dcqcn_params *rp_params(const struct rxe_cc_qp *qp,
					    const struct rxe_cc_config *cfg,
					    struct dcqcn_params *buf)
{
	return rp_with_limits(&cfg->rp, READ_ONCE(qp->min_rate_mbps),
			      READ_ONCE(qp->max_rate_mbps), buf);
}

/* Which kind of step moved the rate; in one step a cut outranks increases. */
static int rp_rate_reason(const struct dcqcn_steps *steps)
{
	if (steps->cuts)
		return RXE_CC_RATE_CUT;
	if (steps->hyper)
		return RXE_CC_RATE_HYPER_INCREASE;
	if (steps->additive)
		return RXE_CC_RATE_ADDITIVE_INCREASE;
	if (steps->fast_recovery)
		return RXE_CC_RATE_FAST_RECOVERY;
	return RXE_CC_RATE_CEILING;
}

/*
 * One step of DCQCN on the QP (its lock held): counts the rate steps it
 * took on the QP and its device and tells the monitor group if Rc moved.
 */
static void rp_step(struct rxe_cc_qp *qp, const struct dcqcn_params *p,
		    enum rxe_cc_rp_event event, u32 bytes, u64 now_ns)
{
	struct dcqcn_steps steps = {};
	struct dcqcn_flow *f = &qp->flow;
	u32 old_kbps = f->rc_kbps;

	switch (event) {
	case RXE_CC_RP_CNP:
		dcqcn_on_cnp(f, p, now_ns, &steps);
		break;
	case RXE_CC_RP_SENT:
		dcqcn_on_bytes_sent(f, p, bytes, now_ns, &steps);
		break;
	default:
		dcqcn_advance(f, p, now_ns, &steps);
		break;
	}
	/*
	 * A decrease counts when Rc went down: a cut by an alpha that decayed
	 * to nothing, or at the floor, leaves the rate where it was.
	 */
	if (steps.cuts && f->rc_kbps < old_kbps)
		rxe_cc_qp_count(qp, RXE_CC_C_RP_RATE_CUTS, 1);
	if (steps.fast_recovery)
		rxe_cc_qp_count(qp, RXE_CC_C_RP_FAST_RECOVERY, steps.fast_recovery);
	if (steps.additive)
		rxe_cc_qp_count(qp, RXE_CC_C_RP_ADDITIVE_INCREASE, steps.additive);
	if (steps.hyper)
		rxe_cc_qp_count(qp, RXE_CC_C_RP_HYPER_INCREASE, steps.hyper);
	if (f->rc_kbps != old_kbps)
		rxe_cc_monitor_rate_change(qp, old_kbps, rp_rate_reason(&steps), now_ns);
}

/*
 * The QP's parameters (rp_params()) for a step of its flow, with the
 * flow's line rate brought up to date first: the device's may have been
 * set since, and the core re-caps. Its lock held.
 */
static const struct dcqcn_params *rp_flow_params(struct rxe_cc_qp *qp,
						 const struct rxe_cc_config *cfg,
						 struct dcqcn_params *buf)
{
	qp->flow.line_kbps = cfg->line_kbps;
	return rp_params(qp, cfg, buf);
}

/*
 * Runs one DCQCN event on the QP (its lock held), with the QP's own
 * parameters. A CNP first catches up with the time since the last event,
 * so that the increases it interrupts are told apart from its cut.
 */
void rxe_cc_rp_run(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
		   enum rxe_cc_rp_event event, u32 bytes, u64 now_ns)
{
	struct dcqcn_params buf;
	const struct dcqcn_params *p = rp_flow_params(qp, cfg, &buf);

	/*
	 * An uncongested QP would run the core for nothing, each time with a
	 * 64-bit division to keep alpha's period grid.
	 */
	if (event != RXE_CC_RP_CNP && dcqcn_at_rest(&qp->flow, p))
		return;
	if (event == RXE_CC_RP_CNP) {
		WRITE_ONCE(qp->at_rest_gen, 0);
		rp_step(qp, p, RXE_CC_RP_ADVANCE, 0, now_ns);
	}
	rp_step(qp, p, event, bytes, now_ns);
}

/*
 * Is the QP's flow at rest (dcqcn_at_rest()) under its own parameters and
 * its device's current line rate? Its lock held.
 */
bool rxe_cc_rp_at_rest(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg)
{
	struct dcqcn_params buf;

	return dcqcn_at_rest(&qp->flow, rp_flow_params(qp, cfg, &buf));
}

/*
 * Sets the QP's overrides of its device's DCQCN (CFG): MODE, and rate
 * limits in Mb/s, 0 for the device's. -EINVAL, changing nothing, if the
 * floor would lie above the ceiling. Turning its DCQCN off restarts its
 * flow at the ceiling, so that no cut outlives the decision; rate limits
 * take effect with the QP's next packet, as a device's do.
 */
int rxe_cc_rp_set_overrides(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			    enum rxe_cc_qp_dcqcn mode, u32 min_mbps, u32 max_mbps)
{
	struct dcqcn_params buf;

	if (dcqcn_params_check(rp_with_limits(&cfg->rp, min_mbps, max_mbps, &buf)) >= 0)
		return -EINVAL;
	spin_lock_bh(&qp->lock);
	WRITE_ONCE(qp->dcqcn_mode, mode);
	WRITE_ONCE(qp->min_rate_mbps, min_mbps);
	WRITE_ONCE(qp->max_rate_mbps, max_mbps);
	WRITE_ONCE(qp->at_rest_gen, 0);
	if (!rxe_cc_qp_rp_enabled(qp, cfg))
		dcqcn_init(&qp->flow, rp_params(qp, cfg, &buf), cfg->line_kbps);
	spin_unlock_bh(&qp->lock);
	return 0;
}
