// SPDX-License-Identifier: GPL-2.0
/*
 * The QP table: per-QP state keyed by (device, local QPN) in a per-device
 * RCU hash table, and its lifetime.
 *
 * State is created from a QP's own egress packets only: those come from
 * rxe's per-QP socket, so a packet from the network can never make us
 * allocate. A QP number is reused after destroy; the QP's socket tells the
 * instances apart. State lingers RXE_CC_QP_LINGER_MS after the QP's last
 * packet so that its counters can still be read, then it is reaped; never
 * while the pacer holds packets of it (pacer.c frees those of a QP that
 * is gone).
 *
 * Locking: dev->qp_lock, then a QP's lock inside it.
 */

#include <linux/slab.h>
#include <linux/sort.h>

#include "rxe_cc.h"

#define RXE_CC_QP_REAP_MS	5000

/*
 * QP state comes from a cache of its own: each QP gets the 384 bytes it
 * needs, aligned to a cache line (kmalloc would give 512), and
 * /proc/slabinfo counts them.
 */
static struct kmem_cache *rxe_cc_qp_cache;

int rxe_cc_qp_cache_init(void)
{
	rxe_cc_qp_cache = KMEM_CACHE(rxe_cc_qp, SLAB_HWCACHE_ALIGN);
	return rxe_cc_qp_cache ? 0 : -ENOMEM;
}

/* Every device is gone; their QPs' frees may still wait for RCU. */
void rxe_cc_qp_cache_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(rxe_cc_qp_cache);
}

static void rxe_cc_qp_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(rxe_cc_qp_cache, container_of(head, struct rxe_cc_qp, rcu));
}

/* Frees unlinked state once no reader can hold it. */
static void rxe_cc_qp_free(struct rxe_cc_qp *qp)
{
	call_rcu(&qp->rcu, rxe_cc_qp_free_rcu);
}

static void rxe_cc_qp_unlink(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp)
{
	lockdep_assert_held(&dev->qp_lock);
	hash_del_rcu(&qp->hnode);
	WRITE_ONCE(dev->nr_qps, dev->nr_qps - 1);
}

/*
 * Takes the QP out of the table and frees it, unless the pacer holds
 * packets of it. A packet that found the QP just
 * before may be on its way to the pacer: it looks at the table under the
 * QP's lock too, and holds nothing for a QP that is out.
 */
static void rxe_cc_qp_drop_idle(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp)
{
	bool idle;

	spin_lock(&qp->lock);
	idle = skb_queue_empty(&qp->queue);
	if (idle)
		rxe_cc_qp_unlink(dev, qp);
	spin_unlock(&qp->lock);
	if (idle)
		rxe_cc_qp_free(qp);
}

/* The first packet of a QP: new state, unless another CPU made it first. */
struct rxe_cc_qp *rxe_cc_qp_create(struct rxe_cc_dev *dev, u32 qpn, const struct sock *sk)
{
	const struct rxe_cc_config *cfg = rxe_cc_cfg(dev);
	struct rxe_cc_qp *qp, *old;

	qp = kmem_cache_zalloc(rxe_cc_qp_cache, GFP_ATOMIC);
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
		kmem_cache_free(rxe_cc_qp_cache, qp);
		return old;
	}
	if (old) {
		/*
		 * A new QP with the number of a destroyed one. The old one's
		 * destroy waited for all its packets, so it holds none; if
		 * rxe gave up waiting, the pacer still sends what it holds
		 * and the reaper takes it after. The new one goes first in
		 * the chain, where lookups find it.
		 */
		rxe_cc_qp_drop_idle(dev, old);
	}
	if (dev->removing || dev->nr_qps >= RXE_CC_QPS_MAX) {
		spin_unlock_bh(&dev->qp_lock);
		kmem_cache_free(rxe_cc_qp_cache, qp);
		return NULL;
	}
	hash_add_rcu(dev->qps, &qp->hnode, qpn);
	WRITE_ONCE(dev->nr_qps, dev->nr_qps + 1);
	spin_unlock_bh(&dev->qp_lock);
	return qp;
}

/*
 * The QP's state at NOW_NS for a reader, in one piece: its flow brought up
 * to date and its counters taken under the same lock.
 */
void rxe_cc_qp_snapshot(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg, u64 now_ns,
			struct rxe_cc_qp_snapshot *snap)
{
	spin_lock_bh(&qp->lock);
	rxe_cc_rp_run(qp, cfg, RXE_CC_RP_ADVANCE, 0, now_ns);
	snap->flow = qp->flow;
	snap->dcqcn_mode = qp->dcqcn_mode;
	snap->min_rate_mbps = qp->min_rate_mbps;
	snap->max_rate_mbps = qp->max_rate_mbps;
	rxe_cc_qp_stats_read(qp, snap->stats);
	snap->remote_qpn = qp->remote_qpn;
	snap->peer = qp->peer;
	snap->peer_v6 = qp->peer_v6;
	snap->transport = qp->transport;
	snap->udp_sport = qp->udp_sport;
	snap->udp_sport_set = READ_ONCE(qp->udp_sport_set);
	snap->queued = skb_queue_len(&qp->queue);
	snap->idle_ms = jiffies_to_msecs(jiffies - READ_ONCE(qp->last_seen));
	spin_unlock_bh(&qp->lock);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The numbers of the device's QPs, in order, into QPNS[RXE_CC_QPS_MAX];
 * returns how many. RCU read lock held.
 */
u32 rxe_cc_qp_numbers(struct rxe_cc_dev *dev, u32 *qpns)
{
	struct rxe_cc_qp *qp;
	u32 n = 0;
	int bkt;

	hash_for_each_rcu(dev->qps, bkt, qp, hnode)
		if (n < RXE_CC_QPS_MAX)
			qpns[n++] = qp->qpn;
	sort(qpns, n, sizeof(*qpns), cmp_u32, NULL);
	return n;
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
	hash_for_each_safe(dev->qps, bkt, tmp, qp, hnode)
		if (!time_before(jiffies, READ_ONCE(qp->last_seen) + linger))
			rxe_cc_qp_drop_idle(dev, qp);
	spin_unlock_bh(&dev->qp_lock);
	schedule_delayed_work(&dev->qp_reap, msecs_to_jiffies(RXE_CC_QP_REAP_MS));
}

void rxe_cc_qps_init(struct rxe_cc_dev *dev)
{
	spin_lock_init(&dev->qp_lock);
	hash_init(dev->qps);
	INIT_DELAYED_WORK(&dev->qp_reap, rxe_cc_qp_reap);
	schedule_delayed_work(&dev->qp_reap, msecs_to_jiffies(RXE_CC_QP_REAP_MS));
}

/* The device is unreachable from the packet path: stop the reaper. */
void rxe_cc_qps_stop(struct rxe_cc_dev *dev)
{
	spin_lock_bh(&dev->qp_lock);
	dev->removing = true;
	spin_unlock_bh(&dev->qp_lock);
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
		rxe_cc_qp_free(qp);
	}
	spin_unlock_bh(&dev->qp_lock);
}
