// SPDX-License-Identifier: GPL-2.0
/*
 * Counters: reading and resetting them, for a QP and for a device.
 *
 * A device counts on per-CPU counters, which the packet path adds to
 * without a lock. A QP counts the four counters every packet moves in
 * atomics, the others under its lock. Both are indexed by their netlink
 * attribute id (rxe_cc.h).
 */

#include "rxe_cc.h"

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
 * Zeroes the QP's counters; the device's are separate. A packet counted on
 * another CPU meanwhile may count before or after.
 */
void rxe_cc_qp_stats_reset(struct rxe_cc_qp *qp)
{
	spin_lock_bh(&qp->lock);
	atomic64_set(&qp->tx_packets, 0);
	atomic64_set(&qp->tx_bytes, 0);
	atomic64_set(&qp->rx_packets, 0);
	atomic64_set(&qp->rx_bytes, 0);
	memset(qp->stats, 0, sizeof(qp->stats));
	spin_unlock_bh(&qp->lock);
}

static void dev_stats_raw(struct rxe_cc_dev *dev, u64 *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(u64) * RXE_CC_NSTATS);
	for_each_possible_cpu(cpu) {
		const struct rxe_cc_dev_stats *s = per_cpu_ptr(dev->stats, cpu);

		for (i = 0; i < RXE_CC_NSTATS; i++)
			sum[i] += READ_ONCE(s->v[i]);
	}
}

/* The device's counters since the last reset (rxe_cc_config_lock held). */
void rxe_cc_dev_stats_sum(struct rxe_cc_dev *dev, u64 *sum)
{
	int i;

	lockdep_assert_held(&rxe_cc_config_lock);
	dev_stats_raw(dev, sum);
	for (i = 0; i < RXE_CC_NSTATS; i++)
		sum[i] -= dev->stats_base[i];
}

/*
 * Zeroes the device's counters and all its QPs' (rxe_cc_config_lock held).
 * Per-CPU counters cannot be zeroed under the CPUs that add to them: a
 * reset records their sums instead, and readers subtract those.
 */
void rxe_cc_dev_stats_reset(struct rxe_cc_dev *dev)
{
	struct rxe_cc_qp *qp;
	int bkt;

	lockdep_assert_held(&rxe_cc_config_lock);
	dev_stats_raw(dev, dev->stats_base);
	rcu_read_lock();
	hash_for_each_rcu(dev->qps, bkt, qp, hnode)
		rxe_cc_qp_stats_reset(qp);
	rcu_read_unlock();
}
