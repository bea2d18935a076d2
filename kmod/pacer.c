// SPDX-License-Identifier: GPL-2.0
/*
 * The pacer: each QP's requests leave at no more than its DCQCN rate Rc.
 *
 * Modelled on sch_fq: every QP has a time_next_ns, the earliest time its
 * next packet may leave. A packet that may leave at once is let through
 * (and pushes time_next_ns on by its length at Rc); otherwise it is stolen
 * from netfilter into the QP's queue, and the QP waits in a per-device
 * rbtree ordered by time_next_ns. One soft hrtimer per device serves the
 * tree in softirq context, handing packets back to the IP stack through the
 * netfilter continuation they were stolen from.
 *
 * rxe stops building packets for a QP with 64 in flight, held ones
 * included, so each queue is bounded without a limit of our own. A QP at
 * the line rate is not paced by its own rate: the port is its limit, as on
 * a NIC. Once it is also at rest there, its requests pass the packet path
 * without coming here at all (rxe_cc_qp_at_rest_at_line()) while the port
 * is free. Below the line rate (cut by DCQCN, or capped by max-rate) every
 * packet is timed.
 *
 * The port: all paced QPs of a device together leave at no more than its
 * line rate, as a NIC's port sends no faster than its link. Without it, an
 * emulated link's senders start an incast at whatever the CPU gives them,
 * and the switch drops before the first CNP can act. Every departure books
 * the port (dev->port_next_ns); a QP at the line rate waits while the port
 * is busy, and the timer serves no QP before the port is free. A line rate
 * at the netdev's own speed is the netdev's to keep (rxe_cc_port_paced()).
 *
 * rxe gives no notice of a QP's destruction, and destroy waits for every
 * packet of the QP still in flight, the ones held here included. So while
 * the pacer holds packets, a watchdog looks up each QP that has some in the
 * IB core's resource tracker, where destroy removes it before it waits, and
 * frees the packets of QPs that are gone or in error. It looks only in the
 * buckets of the QP table marked as holding (dev->pacer_held), so its work
 * grows with the QPs that hold packets, not with those the device tracks.
 *
 * Locking: qp->lock, then dev->pacer_lock inside it. A QP is in the tree
 * exactly when its queue is not empty, and leaves it before time_next_ns
 * changes.
 */

#include <linux/netfilter.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "rxe_cc.h"

/* Packets one timer run may send before it yields. */
#define RXE_CC_PACER_BUDGET 64
/*
 * How far a QP may fall behind its schedule and catch up with a burst: a
 * late timer or a late sender must not cost the QP its rate, but a QP idle
 * for long gets no credit. Under load the timer's softirq is deferred to
 * ksoftirqd, which may wait for the next tick (4 ms at HZ=250): with 1 ms
 * of slack a QP paced at 100 Mb/s under emulation got 94-96% of its rate,
 * with 4 ms 99%. Catching up at a bounded rate instead is no choice there:
 * each timer run is late by about 100 us, so one packet per run cannot
 * keep up even with 100 Mb/s.
 *
 * The slack counts from when the packet was ready, not from now: the time
 * a held packet waits for a late timer is the pacer's fault, not the QP's,
 * and is all given back. On a VM beside a busy CPU, where the timer ran
 * 30-80 ms late, QPs capped at 10 and 20 Mb/s got 8.9-9.3 and 17.0-18.0
 * Mb/s when the slack counted from now, 10.0 and 19.1-19.6 Mb/s since. The
 * catch-up burst is bounded by the queue, that is by rxe's 64 packets in
 * flight.
 *
 * A QP whose rate DCQCN has cut is congested, and a burst of catch-up
 * feeds the queue that marked it: it gets the short slack. With 4 ms for
 * all, the lab's DCQCN incast lost 9-17% of its goodput and its queue p99
 * grew from 44-49 to 64 KB.
 */
#define RXE_CC_PACER_SLACK_NS		(4 * NSEC_PER_MSEC)
#define RXE_CC_PACER_SLACK_CUT_NS	(1 * NSEC_PER_MSEC)
/* How often the watchdog looks for dead QPs while packets are held. */
#define RXE_CC_PACER_WATCH_MS		2

static bool pacer_at_line_rate(const struct rxe_cc_qp *qp)
{
	return dcqcn_rate_kbps(&qp->flow) >= qp->flow.line_kbps;
}

/*
 * When the timer must run next for the tree's earliest QP (pacer_lock
 * held): at its time, or when the port is free if that is later.
 */
static u64 pacer_due_ns(const struct rxe_cc_dev *dev, const struct rxe_cc_qp *qp)
{
	return max_t(u64, qp->time_next_ns, atomic64_read(&dev->port_next_ns));
}

static void pacer_tree_insert(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp)
{
	struct rb_node **link = &dev->pacer_tree.rb_node, *parent = NULL;
	bool leftmost = true;

	lockdep_assert_held(&dev->pacer_lock);
	while (*link) {
		struct rxe_cc_qp *other = rb_entry(*link, struct rxe_cc_qp, pacer_node);

		parent = *link;
		if (qp->time_next_ns < other->time_next_ns) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&qp->pacer_node, parent, link);
	rb_insert_color(&qp->pacer_node, &dev->pacer_tree);

	/* The watchdog fires for the earliest QP only. */
	if (leftmost)
		hrtimer_start(&dev->pacer_timer, ns_to_ktime(pacer_due_ns(dev, qp)),
			      HRTIMER_MODE_ABS_PINNED_SOFT);
}

static void pacer_tree_remove(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp)
{
	lockdep_assert_held(&dev->pacer_lock);
	rb_erase(&qp->pacer_node, &dev->pacer_tree);
	RB_CLEAR_NODE(&qp->pacer_node);
}

/*
 * A packet of LEN bytes, ready since READY_NS, leaves now (qp->lock held):
 * count it, feed the byte counter, and move time_next_ns on by its time on
 * the wire at Rc, from where the schedule says it should have left, at most
 * the QP's slack before it was ready: a QP that had nothing to send gets
 * little credit, but one whose packet waited for a late timer keeps all of
 * it. A cut QP is measured from now instead, as it is congested. The port
 * is booked for the packet too.
 */
static void pacer_depart(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			 unsigned int len, u64 ready_ns, u64 now_ns)
{
	u64 base = qp->time_next_ns, from_ns = ready_ns, slack_ns = RXE_CC_PACER_SLACK_NS;

	rxe_cc_qp_count_tx(qp, len);
	rxe_cc_port_book(qp->dev, cfg, len, now_ns);
	rxe_cc_rp_run(qp, cfg, RXE_CC_RP_SENT, len, now_ns);
	/*
	 * At the line rate too: the port serves the QPs that wait for it in
	 * the order of their own schedules, so that they share it evenly.
	 */
	if (qp->flow.limited) {
		from_ns = now_ns;
		slack_ns = RXE_CC_PACER_SLACK_CUT_NS;
	}
	if (base + slack_ns < from_ns)
		base = from_ns - slack_ns;
	qp->time_next_ns = base + dcqcn_tx_time_ns(len, dcqcn_rate_kbps(&qp->flow));
}

/* The QP's bucket in the QP table, as the table's own lookups find it. */
static unsigned int pacer_bucket(const struct rxe_cc_qp *qp)
{
	return hash_min(qp->qpn, HASH_BITS(qp->dev->qps));
}

/* Kicks the watchdog when the pacer starts holding packets. */
static void pacer_watch_kick(struct rxe_cc_dev *dev)
{
	if (!delayed_work_pending(&dev->pacer_watch))
		schedule_delayed_work(&dev->pacer_watch, msecs_to_jiffies(RXE_CC_PACER_WATCH_MS));
}

unsigned int rxe_cc_pace(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			 struct sk_buff *skb, const struct nf_hook_state *state)
{
	struct rxe_cc_dev *dev = qp->dev;
	bool at_line;
	u32 queued;
	u64 now;

	spin_lock_bh(&qp->lock);
	/*
	 * The reaper took the QP out of the table after this packet found
	 * it: its state is freed once RCU allows and must hold nothing. The
	 * QP's next packet makes new state.
	 */
	if (unlikely(hlist_unhashed(&qp->hnode))) {
		spin_unlock_bh(&qp->lock);
		return NF_ACCEPT;
	}
	now = ktime_get_ns();
	rxe_cc_rp_run(qp, cfg, RXE_CC_RP_ADVANCE, 0, now);
	at_line = pacer_at_line_rate(qp);
	/*
	 * Below the line rate every packet goes through the queue and the
	 * timer, even one that could leave now: sent straight from rxe's
	 * context on one CPU, it could overtake its predecessor still in the
	 * timer CPU's receive backlog of the veth, and RoCE takes reordering
	 * for loss.
	 */
	if (skb_queue_empty(&qp->queue) && at_line && !rxe_cc_port_busy(dev, now)) {
		pacer_depart(qp, cfg, skb->len, now, now);
		/* The packet path lets the QP's next requests pass by itself. */
		if (rxe_cc_rp_at_rest(qp, cfg))
			WRITE_ONCE(qp->at_rest_gen, cfg->gen);
		spin_unlock_bh(&qp->lock);
		return NF_ACCEPT;
	}

	qp->okfn = state->okfn;
	qp->net = state->net;
	/* Until it leaves, the packet's timestamp is when it was held. */
	skb->tstamp = ns_to_ktime(now);
	__skb_queue_tail(&qp->queue, skb);
	rxe_cc_qp_count(qp, RXE_CC_C_PACED_PACKETS, 1);
	if (at_line && rxe_cc_port_paced(dev, cfg))
		rxe_cc_dev_count(dev, RXE_CC_C_PORT_HELD, 1);
	queued = skb_queue_len(&qp->queue);
	if (queued > rxe_cc_qp_stat(qp, RXE_CC_C_QUEUE_PEAK))
		rxe_cc_qp_stat(qp, RXE_CC_C_QUEUE_PEAK) = queued;
	if (RB_EMPTY_NODE(&qp->pacer_node)) {
		spin_lock(&dev->pacer_lock);
		pacer_tree_insert(dev, qp);
		spin_unlock(&dev->pacer_lock);
		/*
		 * The queue was empty or the timer is serving it: mark the
		 * bucket once the packet is in, for the watchdog, which
		 * clears the mark before it looks at the queues.
		 */
		smp_mb__before_atomic();
		set_bit(pacer_bucket(qp), dev->pacer_held);
	}
	spin_unlock_bh(&qp->lock);
	pacer_watch_kick(dev);
	return NF_STOLEN;
}

static void pacer_send(rxe_cc_okfn_t okfn, struct net *net, struct sk_buff *skb)
{
	skb->tstamp = 0;
	okfn(net, skb->sk, skb);
}

/*
 * Sends the head packet of the QP the tree said is due (softirq). Between
 * the timer taking the QP out of the tree and us taking its lock, the
 * packet path may have put it back: take it out again before its key,
 * time_next_ns, changes. The packet is handed on with the QP's lock held,
 * so that a later packet of the QP cannot pass it on another CPU: RoCE
 * takes reordering for loss. Nothing on the way out takes the lock again
 * (rxe's skb destructor only schedules its requester).
 */
static void pacer_serve(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp, u64 now)
{
	struct sk_buff *skb;

	spin_lock(&qp->lock);
	skb = __skb_dequeue(&qp->queue);
	if (!skb) {
		spin_unlock(&qp->lock);
		return;
	}
	spin_lock(&dev->pacer_lock);
	if (!RB_EMPTY_NODE(&qp->pacer_node))
		pacer_tree_remove(dev, qp);
	spin_unlock(&dev->pacer_lock);

	rxe_cc_qp_count(qp, RXE_CC_C_PACED_NS, now - ktime_to_ns(skb->tstamp));
	pacer_depart(qp, rxe_cc_cfg(dev), skb->len, ktime_to_ns(skb->tstamp), now);
	if (!skb_queue_empty(&qp->queue)) {
		spin_lock(&dev->pacer_lock);
		pacer_tree_insert(dev, qp);
		spin_unlock(&dev->pacer_lock);
	}
	pacer_send(qp->okfn, qp->net, skb);
	spin_unlock(&qp->lock);
}

/*
 * The timer is only ever armed with hrtimer_start(), here as in the packet
 * path: changing the expiry of a timer another CPU may have queued again
 * would corrupt the timer queue.
 */
static enum hrtimer_restart pacer_timer_fn(struct hrtimer *timer)
{
	struct rxe_cc_dev *dev = container_of(timer, struct rxe_cc_dev, pacer_timer);
	int budget = RXE_CC_PACER_BUDGET;
	struct rxe_cc_qp *qp;
	struct rb_node *node;
	u64 now;

	rcu_read_lock();
	while (budget--) {
		now = ktime_get_ns();
		spin_lock(&dev->pacer_lock);
		node = rb_first(&dev->pacer_tree);
		qp = node ? rb_entry(node, struct rxe_cc_qp, pacer_node) : NULL;
		if (!qp || pacer_due_ns(dev, qp) > now) {
			spin_unlock(&dev->pacer_lock);
			break;
		}
		pacer_tree_remove(dev, qp);
		spin_unlock(&dev->pacer_lock);
		pacer_serve(dev, qp, now);
	}
	rcu_read_unlock();

	spin_lock(&dev->pacer_lock);
	node = rb_first(&dev->pacer_tree);
	if (node) {
		qp = rb_entry(node, struct rxe_cc_qp, pacer_node);
		hrtimer_start(timer, ns_to_ktime(pacer_due_ns(dev, qp)),
			      HRTIMER_MODE_ABS_PINNED_SOFT);
	}
	spin_unlock(&dev->pacer_lock);
	return HRTIMER_NORESTART;
}

/* Releases (SEND) or frees everything the QP holds, at once. */
static void pacer_flush_qp(struct rxe_cc_qp *qp, bool send)
{
	struct rxe_cc_dev *dev = qp->dev;
	struct sk_buff_head list;
	struct sk_buff *skb;
	rxe_cc_okfn_t okfn;
	struct net *net;

	__skb_queue_head_init(&list);
	spin_lock_bh(&qp->lock);
	skb_queue_splice_init(&qp->queue, &list);
	if (!RB_EMPTY_NODE(&qp->pacer_node)) {
		spin_lock(&dev->pacer_lock);
		pacer_tree_remove(dev, qp);
		spin_unlock(&dev->pacer_lock);
	}
	okfn = qp->okfn;
	net = qp->net;
	spin_unlock_bh(&qp->lock);

	if (!send && !skb_queue_empty(&list)) {
		spin_lock_bh(&qp->lock);
		rxe_cc_qp_count(qp, RXE_CC_C_PACED_DROPPED, skb_queue_len(&list));
		spin_unlock_bh(&qp->lock);
	}
	local_bh_disable();
	while ((skb = __skb_dequeue(&list))) {
		if (send)
			pacer_send(okfn, net, skb);
		else
			kfree_skb(skb);
	}
	local_bh_enable();
}

/* Is the QP gone (destroy has begun) or unable to send (error, reset)? */
static bool pacer_qp_is_dead(struct rxe_cc_dev *dev, u32 qpn)
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

/*
 * Looks at every QP that holds packets, every run while any does: a QP
 * under destroy may look dead only for moments (rxe's destroy, then the IB
 * core's, each take it out of sight at their own time), and one missed
 * holds destroy until rxe gives up on it and frees the QP under the
 * packets still held (seen on 6.12 when only part of the table was looked
 * at per run). It finds them in the buckets marked as holding, and marks
 * again those where a QP still holds after its look.
 */
static void pacer_watch(struct work_struct *work)
{
	struct rxe_cc_dev *dev = container_of(to_delayed_work(work), struct rxe_cc_dev,
					      pacer_watch);
	struct rxe_cc_qp *qp;
	bool holding = false;
	unsigned int bkt;

	/* Nothing in here sleeps; RCU keeps QPs from being freed meanwhile. */
	rcu_read_lock();
	for_each_set_bit(bkt, dev->pacer_held, HASH_SIZE(dev->qps)) {
		clear_bit(bkt, dev->pacer_held);
		/*
		 * Cleared before the queues are read, as the packet path
		 * marks after its packet is in: a packet held from now on
		 * is seen here or marks the bucket again.
		 */
		smp_mb__after_atomic();
		hlist_for_each_entry_rcu(qp, &dev->qps[bkt], hnode) {
			if (skb_queue_empty_lockless(&qp->queue))
				continue;
			if (pacer_qp_is_dead(dev, qp->qpn))
				pacer_flush_qp(qp, false);
			if (!skb_queue_empty_lockless(&qp->queue)) {
				set_bit(bkt, dev->pacer_held);
				holding = true;
			}
		}
	}
	rcu_read_unlock();
	if (holding)
		schedule_delayed_work(&dev->pacer_watch, msecs_to_jiffies(RXE_CC_PACER_WATCH_MS));
}

void rxe_cc_pacer_init(struct rxe_cc_dev *dev)
{
	spin_lock_init(&dev->pacer_lock);
	dev->pacer_tree = RB_ROOT;
	INIT_DELAYED_WORK(&dev->pacer_watch, pacer_watch);
#ifdef RXE_CC_HAVE_HRTIMER_SETUP
	hrtimer_setup(&dev->pacer_timer, pacer_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_PINNED_SOFT);
#else
	hrtimer_init(&dev->pacer_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_SOFT);
	dev->pacer_timer.function = pacer_timer_fn;
#endif
}

/*
 * The device is unreachable from the packet path: stop the watchdog and
 * release (SEND) or free what every QP holds.
 */
void rxe_cc_pacer_stop(struct rxe_cc_dev *dev, bool send)
{
	struct rxe_cc_qp *qp;
	int bkt;

	cancel_delayed_work_sync(&dev->pacer_watch);
	hrtimer_cancel(&dev->pacer_timer);
	rcu_read_lock();
	hash_for_each_rcu(dev->qps, bkt, qp, hnode)
		pacer_flush_qp(qp, send);
	rcu_read_unlock();
}
