// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP state: DCQCN flow, pacer queue and counters, keyed by (device,
 * local QPN) in a per-device RCU hash table.
 *
 * State is created from a QP's own egress packets only: those come from
 * rxe's per-QP socket, so a packet from the network can never make us
 * allocate. A QP number is reused after destroy; the QP's socket tells the
 * instances apart. State lingers RXE_CC_QP_LINGER_MS after the QP's last
 * packet so that its counters can still be read, then it is reaped.
 *
 * rxe gives no notice of a QP's destruction, and destroy waits for every
 * packet of the QP still in flight, the ones the pacer holds included. So
 * while the pacer holds packets, a watchdog looks up each such QP in the IB
 * core's resource tracker, where destroy removes it before it waits, and
 * frees the packets of QPs that are gone or in error.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "rxe_cc.h"

#define RXE_CC_QP_WATCH_MS	2
#define RXE_CC_QP_REAP_MS	5000

static void rxe_cc_qp_unlink(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp)
{
	lockdep_assert_held(&dev->qp_lock);
	hash_del_rcu(&qp->hnode);
	dev->nr_qps--;
}

/* The first packet of a QP: new state, unless another CPU made it first. */
struct rxe_cc_qp *rxe_cc_qp_create(struct rxe_cc_dev *dev, u32 qpn, const struct sock *sk)
{
	const struct rxe_cc_config *cfg = rxe_cc_cfg(dev);
	struct rxe_cc_qp *qp, *old;

	qp = kzalloc(sizeof(*qp), GFP_ATOMIC);
	if (!qp)
		return NULL;
	qp->dev = dev;
	qp->qpn = qpn;
	qp->sk = sk;
	qp->remote_qpn = RXE_CC_QPN_UNKNOWN;
	qp->last_seen = jiffies;
	spin_lock_init(&qp->lock);
	skb_queue_head_init(&qp->queue);
	RB_CLEAR_NODE(&qp->pacer_node);
	/* A new QP has no overrides: its device's parameters are its own. */
	dcqcn_init(&qp->flow, &cfg->rp, cfg->line_kbps);

	spin_lock_bh(&dev->qp_lock);
	old = rxe_cc_qp_lookup(dev, qpn);
	if (old && old->sk == sk) {
		/* Another CPU created it first. */
		spin_unlock_bh(&dev->qp_lock);
		kfree(qp);
		return old;
	}
	if (old) {
		/*
		 * A new QP with the number of a destroyed one. The old one's
		 * destroy waited for all its packets, so it holds none.
		 */
		rxe_cc_qp_unlink(dev, old);
		kfree_rcu(old, rcu);
	}
	if (dev->removing || dev->nr_qps >= RXE_CC_QPS_MAX) {
		spin_unlock_bh(&dev->qp_lock);
		kfree(qp);
		return NULL;
	}
	hash_add_rcu(dev->qps, &qp->hnode, qpn);
	dev->nr_qps++;
	spin_unlock_bh(&dev->qp_lock);
	return qp;
}

/*
 * The device's RP parameters DEV_RP with the rate limits MIN_MBPS/MAX_MBPS
 * in place of its own where they are not 0 (in BUF, if any is).
 */
const struct dcqcn_params *rxe_cc_rp_with_limits(const struct dcqcn_params *dev_rp,
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
const struct dcqcn_params *rxe_cc_qp_params(const struct rxe_cc_qp *qp,
					    const struct rxe_cc_config *cfg,
					    struct dcqcn_params *buf)
{
	return rxe_cc_rp_with_limits(&cfg->rp, READ_ONCE(qp->min_rate_mbps),
				     READ_ONCE(qp->max_rate_mbps), buf);
}

/* Which kind of step moved the rate; in one step a cut outranks increases. */
static int rxe_cc_rate_reason(const struct dcqcn_steps *steps)
{
	if (steps->cuts)
		return RXE_CC_RATE_CUT;
	if (steps->hyper)
		return RXE_CC_RATE_HYPER;
	if (steps->additive)
		return RXE_CC_RATE_ADDITIVE;
	if (steps->fast_recovery)
		return RXE_CC_RATE_FAST_RECOVERY;
	return RXE_CC_RATE_CEILING;
}

/*
 * One step of DCQCN on the QP (its lock held): counts the rate steps it
 * took on the QP and its device and tells the monitor group if Rc moved.
 */
static void rxe_cc_qp_step(struct rxe_cc_qp *qp, const struct dcqcn_params *p,
			   int event, u32 bytes, u64 now_ns)
{
	struct dcqcn_steps steps = {};
	struct dcqcn_flow *f = &qp->flow;
	u32 old_kbps = f->rc_kbps;

	switch (event) {
	case RXE_CC_DCQCN_CNP:
		dcqcn_on_cnp(f, p, now_ns, &steps);
		break;
	case RXE_CC_DCQCN_SENT:
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
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_RATE_CUTS, 1);
	if (steps.fast_recovery)
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_FAST_RECOVERY, steps.fast_recovery);
	if (steps.additive)
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_ADDITIVE, steps.additive);
	if (steps.hyper)
		rxe_cc_qp_count(qp, RXE_CC_A_STAT_HYPER, steps.hyper);
	if (f->rc_kbps != old_kbps)
		rxe_cc_monitor_rate_change(qp, old_kbps, rxe_cc_rate_reason(&steps), now_ns);
}

/*
 * The QP's parameters (rxe_cc_qp_params()) for a step of its flow, with
 * the flow's line rate brought up to date first: the device's may have
 * been set since, and the core re-caps. Its lock held.
 */
static const struct dcqcn_params *
rxe_cc_qp_flow_params(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
		      struct dcqcn_params *buf)
{
	qp->flow.line_kbps = cfg->line_kbps;
	return rxe_cc_qp_params(qp, cfg, buf);
}

/*
 * Runs one DCQCN event on the QP (its lock held), with the QP's own
 * parameters. A CNP first catches up with the time since the last event,
 * so that the increases it interrupts are told apart from its cut.
 */
void rxe_cc_qp_run_dcqcn(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			 int event, u32 bytes, u64 now_ns)
{
	struct dcqcn_params buf;
	const struct dcqcn_params *p = rxe_cc_qp_flow_params(qp, cfg, &buf);

	/*
	 * An uncongested QP would run the core for nothing, each time with a
	 * 64-bit division to keep alpha's period grid.
	 */
	if (event != RXE_CC_DCQCN_CNP && dcqcn_at_rest(&qp->flow, p))
		return;
	if (event == RXE_CC_DCQCN_CNP) {
		WRITE_ONCE(qp->at_rest_gen, 0);
		rxe_cc_qp_step(qp, p, RXE_CC_DCQCN_ADVANCE, 0, now_ns);
	}
	rxe_cc_qp_step(qp, p, event, bytes, now_ns);
}

/*
 * Is the QP's flow at rest (dcqcn_at_rest()) under its own parameters and
 * its device's current line rate? Its lock held.
 */
bool rxe_cc_qp_at_rest(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg)
{
	struct dcqcn_params buf;

	return dcqcn_at_rest(&qp->flow, rxe_cc_qp_flow_params(qp, cfg, &buf));
}

/* The QP's counters, by id, into STATS[RXE_CC_NSTATS]; its lock held. */
void rxe_cc_qp_stats_read(const struct rxe_cc_qp *qp, u64 *stats)
{
	lockdep_assert_held(&qp->lock);
	memset(stats, 0, RXE_CC_NSTATS * sizeof(*stats));
	stats[RXE_CC_A_STAT_TX_PACKETS] = atomic64_read(&qp->tx_packets);
	stats[RXE_CC_A_STAT_TX_BYTES] = atomic64_read(&qp->tx_bytes);
	stats[RXE_CC_A_STAT_RX_PACKETS] = atomic64_read(&qp->rx_packets);
	stats[RXE_CC_A_STAT_RX_BYTES] = atomic64_read(&qp->rx_bytes);
	memcpy(&stats[RXE_CC_QP_STAT_LOCKED], qp->stats, sizeof(qp->stats));
}

/*
 * Zeroes the QP's counters, its lock held; the device's are separate. A
 * packet counted on another CPU meanwhile may count before or after.
 */
void rxe_cc_qp_stats_reset(struct rxe_cc_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	atomic64_set(&qp->tx_packets, 0);
	atomic64_set(&qp->tx_bytes, 0);
	atomic64_set(&qp->rx_packets, 0);
	atomic64_set(&qp->rx_bytes, 0);
	memset(qp->stats, 0, sizeof(qp->stats));
}

/* Is the QP gone (destroy has begun) or unable to send (error, reset)? */
static bool rxe_cc_qp_is_dead(struct rxe_cc_dev *dev, u32 qpn)
{
	struct rdma_restrack_entry *res;
	struct ib_qp_init_attr init_attr;
	struct ib_qp_attr attr;
	bool dead;

	res = rdma_restrack_get_byid(dev->ibdev, RDMA_RESTRACK_QP, qpn);
	if (IS_ERR(res))
		return true;
	dead = ib_query_qp(container_of(res, struct ib_qp, res), &attr, IB_QP_STATE,
			   &init_attr) == 0 &&
	       (attr.qp_state == IB_QPS_ERR || attr.qp_state == IB_QPS_RESET);
	rdma_restrack_put(res);
	return dead;
}

static void rxe_cc_qp_watch(struct work_struct *work)
{
	struct rxe_cc_dev *dev = container_of(to_delayed_work(work), struct rxe_cc_dev,
					      qp_watch);
	struct rxe_cc_qp *qp;
	bool holding = false;
	int bkt;

	/* Nothing in here sleeps; RCU keeps QPs from being freed meanwhile. */
	rcu_read_lock();
	hash_for_each_rcu(dev->qps, bkt, qp, hnode) {
		if (skb_queue_empty_lockless(&qp->queue))
			continue;
		if (rxe_cc_qp_is_dead(dev, qp->qpn))
			rxe_cc_pacer_flush_qp(qp, false);
		holding |= !skb_queue_empty_lockless(&qp->queue);
	}
	rcu_read_unlock();
	if (holding)
		schedule_delayed_work(&dev->qp_watch, msecs_to_jiffies(RXE_CC_QP_WATCH_MS));
}

static void rxe_cc_qp_reap(struct work_struct *work)
{
	struct rxe_cc_dev *dev = container_of(to_delayed_work(work), struct rxe_cc_dev,
					      qp_reap);
	unsigned long linger = msecs_to_jiffies(RXE_CC_QP_LINGER_MS);
	struct hlist_node *tmp;
	struct rxe_cc_qp *qp;
	int bkt;

	spin_lock_bh(&dev->qp_lock);
	hash_for_each_safe(dev->qps, bkt, tmp, qp, hnode) {
		if (!skb_queue_empty_lockless(&qp->queue) ||
		    time_before(jiffies, READ_ONCE(qp->last_seen) + linger))
			continue;
		rxe_cc_qp_unlink(dev, qp);
		kfree_rcu(qp, rcu);
	}
	spin_unlock_bh(&dev->qp_lock);
	schedule_delayed_work(&dev->qp_reap, msecs_to_jiffies(RXE_CC_QP_REAP_MS));
}

void rxe_cc_qps_init(struct rxe_cc_dev *dev)
{
	spin_lock_init(&dev->qp_lock);
	hash_init(dev->qps);
	INIT_DELAYED_WORK(&dev->qp_watch, rxe_cc_qp_watch);
	INIT_DELAYED_WORK(&dev->qp_reap, rxe_cc_qp_reap);
	schedule_delayed_work(&dev->qp_reap, msecs_to_jiffies(RXE_CC_QP_REAP_MS));
}

/* Kicks the watchdog; the pacer calls it when it starts holding packets. */
void rxe_cc_qp_watch_kick(struct rxe_cc_dev *dev)
{
	if (!delayed_work_pending(&dev->qp_watch))
		schedule_delayed_work(&dev->qp_watch, msecs_to_jiffies(RXE_CC_QP_WATCH_MS));
}

/* The device is unreachable from the packet path: stop the workers. */
void rxe_cc_qps_stop(struct rxe_cc_dev *dev)
{
	spin_lock_bh(&dev->qp_lock);
	dev->removing = true;
	spin_unlock_bh(&dev->qp_lock);
	cancel_delayed_work_sync(&dev->qp_watch);
	cancel_delayed_work_sync(&dev->qp_reap);
}

/* The pacer holds nothing any more: free all QP state. */
void rxe_cc_qps_destroy(struct rxe_cc_dev *dev)
{
	struct hlist_node *tmp;
	struct rxe_cc_qp *qp;
	int bkt;

	spin_lock_bh(&dev->qp_lock);
	hash_for_each_safe(dev->qps, bkt, tmp, qp, hnode) {
		rxe_cc_qp_unlink(dev, qp);
		kfree_rcu(qp, rcu);
	}
	spin_unlock_bh(&dev->qp_lock);
}
