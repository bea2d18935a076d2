// SPDX-License-Identifier: GPL-2.0
/*
 * Counters (counters.h): reading, resetting and reporting them, for a QP
 * and for a device.
 *
 * A device counts every counter on per-CPU counters, which the packet path
 * adds to without a lock. A QP counts the counters every packet moves in
 * atomics and the others under its lock. Readers get an array indexed by
 * enum rxe_cc_counter; only reporting knows the netlink attributes.
 */

#include "rxe_cc.h"

enum rxe_cc_counter_scope {
	RXE_CC_SCOPE_BOTH,
	RXE_CC_SCOPE_QP,
	RXE_CC_SCOPE_DEV,
};

/* Each counter's netlink attribute, and where it is reported. */
#define RXE_CC_COUNTER_INFO(name, where) \
	[RXE_CC_C_##name] = { RXE_CC_A_STAT_##name, RXE_CC_SCOPE_##where },
#define RXE_CC_QP_FAST(name)		RXE_CC_COUNTER_INFO(name, BOTH)
#define RXE_CC_QP_COUNTER(name)		RXE_CC_COUNTER_INFO(name, BOTH)
#define RXE_CC_QP_GAUGE(name)		RXE_CC_COUNTER_INFO(name, QP)
#define RXE_CC_DEV_COUNTER(name)	RXE_CC_COUNTER_INFO(name, DEV)
static const struct {
	u16 attr;
	u8 scope;
} rxe_cc_counter_info[RXE_CC_NCOUNTERS] = {
#include "counters.h"
};

/* The QP's counters into STATS[RXE_CC_QP_NCOUNTERS]; its lock held. */
void rxe_cc_qp_stats_read(const struct rxe_cc_qp *qp, u64 *stats)
{
	int i;

	lockdep_assert_held(&qp->lock);
	for (i = 0; i < RXE_CC_QP_NFAST; i++)
		stats[i] = atomic64_read(&qp->fast_stats[i]);
	memcpy(&stats[RXE_CC_QP_NFAST], qp->stats, sizeof(qp->stats));
}

/*
 * Zeroes the QP's counters; the device's are separate. A packet counted on
 * another CPU meanwhile may count before or after.
 */
void rxe_cc_qp_stats_reset(struct rxe_cc_qp *qp)
{
	int i;

	spin_lock_bh(&qp->lock);
	for (i = 0; i < RXE_CC_QP_NFAST; i++)
		atomic64_set(&qp->fast_stats[i], 0);
	memset(qp->stats, 0, sizeof(qp->stats));
	spin_unlock_bh(&qp->lock);
}

static void dev_stats_raw(struct rxe_cc_dev *dev, u64 *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(u64) * RXE_CC_NCOUNTERS);
	for_each_possible_cpu(cpu) {
		const struct rxe_cc_dev_stats *s = per_cpu_ptr(dev->stats, cpu);

		for (i = 0; i < RXE_CC_NCOUNTERS; i++)
			sum[i] += READ_ONCE(s->v[i]);
	}
}

/*
 * The device's counters since the last reset into SUM[RXE_CC_NCOUNTERS]
 * (rxe_cc_config_lock held).
 */
void rxe_cc_dev_stats_sum(struct rxe_cc_dev *dev, u64 *sum)
{
	int i;

	lockdep_assert_held(&rxe_cc_config_lock);
	dev_stats_raw(dev, sum);
	for (i = 0; i < RXE_CC_NCOUNTERS; i++)
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

/*
 * A QP's (QP) or a device's counters, as read above, as a nest of type
 * TYPE of their netlink attributes.
 */
int rxe_cc_stats_put(struct sk_buff *msg, int type, const u64 *stats, bool qp)
{
	struct nlattr *nest = nla_nest_start(msg, type);
	int n = qp ? RXE_CC_QP_NCOUNTERS : RXE_CC_NCOUNTERS;
	int skip = qp ? RXE_CC_SCOPE_DEV : RXE_CC_SCOPE_QP;
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		if (rxe_cc_counter_info[i].scope == skip)
			continue;
		if (nla_put_u64_64bit(msg, rxe_cc_counter_info[i].attr, stats[i],
				      RXE_CC_A_STAT_PAD))
			return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}
