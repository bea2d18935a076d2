/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxe_cc internals: the device and QP bookkeeping shared by the units.
 *
 * The units, along a packet's path and beside it:
 *   hook.c     netfilter hooks: parse, classify, count -> np | rp | pacer
 *   np.c       notification point: CE-marked packets -> CNPs
 *   rp.c       reaction point: CNPs -> the QP's DCQCN (dcqcn.c), its events
 *   pacer.c    holds a QP's requests to its rate; frees a dead QP's ones
 *   sport.c    rewrites a QP's UDP source port where one is set
 *   qp.c       the QP table and its lifetime
 *   dev.c      rxe devices and their configuration
 *   stats.c    reading and resetting counters
 *   monitor.c  events on the monitor group
 *   netlink.c  the generic netlink family: parse, call, fill
 *   genl.c     its policies and op table, generated from the spec
 * Calls go down this list's dependencies only: no unit calls one that
 * calls it back (selftests/kmod_layering.sh checks the objects).
 */
#ifndef _RXE_CC_H
#define _RXE_CC_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/rbtree.h>
#include <linux/rculist.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>
#include <linux/rxe_cc.h>

#include "dcqcn.h"

#define RXE_CC_VERSION "0.1.0"

/* The counters (counters.h), by the names the module counts them with. */
#define RXE_CC_QP_FAST(name)		RXE_CC_C_##name,
#define RXE_CC_QP_COUNTER(name)		RXE_CC_C_##name,
#define RXE_CC_QP_GAUGE(name)		RXE_CC_C_##name,
#define RXE_CC_DEV_COUNTER(name)	RXE_CC_C_##name,
enum rxe_cc_counter {
#include "counters.h"
	RXE_CC_NCOUNTERS
};

#undef RXE_CC_QP_FAST
#undef RXE_CC_QP_COUNTER
#undef RXE_CC_QP_GAUGE
#undef RXE_CC_DEV_COUNTER

/* Where the kinds begin: a QP's counters are the first RXE_CC_QP_NCOUNTERS. */
#define RXE_CC_QP_NFAST		RXE_CC_C_NP_ECN_MARKED_ROCE_PACKETS
#define RXE_CC_QP_NCOUNTERS	RXE_CC_C_MALFORMED
#define RXE_CC_QP_NLOCKED	(RXE_CC_QP_NCOUNTERS - RXE_CC_QP_NFAST)

struct rxe_cc_np_params {
	u32 enable;
	u32 min_time_between_cnps_us;
	u32 per_port;
	u32 cnp_dscp;
	u32 cnp_prio;
	u32 cnp_prio_mode;
};

/* The NP parameter that netlink attribute ATTR (RXE_CC_A_NP_*) carries. */
static inline u32 *rxe_cc_np_param(struct rxe_cc_np_params *np, int attr)
{
	switch (attr) {
	case RXE_CC_A_NP_ENABLE:
		return &np->enable;
	case RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS:
		return &np->min_time_between_cnps_us;
	case RXE_CC_A_NP_PER_PORT:
		return &np->per_port;
	case RXE_CC_A_NP_CNP_DSCP:
		return &np->cnp_dscp;
	case RXE_CC_A_NP_CNP_PRIO:
		return &np->cnp_prio;
	case RXE_CC_A_NP_CNP_PRIO_MODE:
		return &np->cnp_prio_mode;
	}
	return NULL;
}

/*
 * A device's configuration. Readers in the packet path take it under RCU;
 * writers build a new copy and swap it in, so every packet sees one
 * consistent set. Each copy has a generation of its own, never 0.
 */
struct rxe_cc_config {
	u32 gen;
	u32 line_kbps;
	u32 rp_enable;
	struct dcqcn_params rp;
	struct rxe_cc_np_params np;
	struct rcu_head rcu;
};

struct rxe_cc_dev_stats {
	u64 v[RXE_CC_NCOUNTERS];
};

/* QP state outlives the QP's last packet by this long, for readers. */
#define RXE_CC_QP_LINGER_MS	60000
/*
 * A bucket for every QP the device may track (RXE_CC_QPS_MAX, the uAPI's
 * bound against state floods; 128 KB of heads): chains stay near one entry
 * even at the bound, so a packet's lookup costs the same with 10 000 QPs as
 * with one. With 1024 buckets the hooks took 300 and 206 instructions at
 * 10 000 QPs against 279 and 184 at one. Nothing walks the whole table per
 * packet or per timer run: the pacer's watchdog looks in the buckets it
 * marked, only the reaper walks it all, every 5 s.
 */
#define RXE_CC_QP_HASH_BITS	14
static_assert(1 << RXE_CC_QP_HASH_BITS >= RXE_CC_QPS_MAX);

struct rxe_cc_dev {
	struct list_head list;			/* rxe_cc_devs, RCU */
	struct ib_device *ibdev;
	struct net_device *ndev;		/* reference held */
	struct rxe_cc_config __rcu *cfg;
	struct rxe_cc_dev_stats __percpu *stats;
	u64 stats_base[RXE_CC_NCOUNTERS];	/* the sums at the last reset */

	spinlock_t qp_lock;			/* QP table writers */
	DECLARE_HASHTABLE(qps, RXE_CC_QP_HASH_BITS);
	unsigned int nr_qps;			/* written under qp_lock */

	/* Pacer: QPs with held packets, by the time their head may leave. */
	spinlock_t pacer_lock;
	struct rb_root pacer_tree;
	/* The QP table's buckets where a QP may hold packets (2 KB). */
	DECLARE_BITMAP(pacer_held, 1 << RXE_CC_QP_HASH_BITS);
	struct hrtimer pacer_timer;
	/*
	 * When the port may send the device's next paced request: together
	 * they leave at no more than the line rate (rxe_cc_port_take()).
	 */
	atomic64_t port_next_ns;
	/* The line rate the device started with: the netdev's speed. */
	u32 link_kbps;
	/* Frees held packets of QPs that are destroyed or in error. */
	struct delayed_work pacer_watch;
	/* Drops the state of QPs idle for RXE_CC_QP_LINGER_MS. */
	struct delayed_work qp_reap;

	atomic64_t np_last_cnp_ns;		/* per-port CNP spacing */
	bool removing;

	/* The monitor group's rate limit: a token bucket, in ns of credit. */
	spinlock_t monitor_lock;
	u64 monitor_credit_ns;
	u64 monitor_last_ns;
	int monitor_dropped;			/* since the last event that went out */
};

struct nf_hook_state;

typedef int (*rxe_cc_okfn_t)(struct net *net, struct sock *sk, struct sk_buff *skb);

#define RXE_CC_QPN_UNKNOWN	U32_MAX

/*
 * A QP's state. What a packet at rest reads and writes comes first and
 * fits the first two cache lines (the cache aligns every QP to a line):
 * the lookup's key, the packet path's tests, the peer it checks packets
 * against, the counters it moves and the head of the pacer's queue. The
 * rest is for the pacer, DCQCN and readers.
 */
struct rxe_cc_qp {
	struct hlist_node hnode;
	u32 qpn;
	/*
	 * The generation of the configuration under which the QP was last
	 * found at rest at the line rate, with nothing held; 0 when it is
	 * not. Set and cleared under the lock, read without it: it lets an
	 * uncongested QP's requests pass without the pacer and the lock. A
	 * new configuration outdates it; a CNP or an override of the QP
	 * clears it.
	 */
	u32 at_rest_gen;
	const struct sock *sk;			/* identity: a new QP has a new socket */
	struct rxe_cc_dev *dev;
	unsigned long last_seen;		/* jiffies */
	/* The peer and the UDP source port: set under the lock, read without. */
	u32 remote_qpn;
	/* Overrides of the device's DCQCN, set over netlink. */
	u32 max_rate_mbps;			/* 0: the device's */
	u16 udp_sport;				/* its flow's ECMP entropy */
	/* The UDP source port its packets leave with; 0: rxe's own. */
	u16 udp_sport_set;
	u8 dcqcn_mode;				/* enum rxe_cc_qp_dcqcn */
	bool peer_v6;
	u8 transport;				/* enum rxe_cc_transport */
	struct in6_addr peer;			/* v4 as a mapped address */
	/* RXE_CC_QP_FAST_COUNTERS, counted without the lock. */
	atomic64_t fast_stats[RXE_CC_QP_NFAST];
	/* Pacer: held requests; empty at rest. */
	struct sk_buff_head queue;

	spinlock_t lock;			/* all below, and the learning above */
	u32 min_rate_mbps;			/* 0: the device's */
	struct dcqcn_flow flow;
	u64 last_cnp_ns;			/* per-QP CNP spacing */
	u64 time_next_ns;			/* when the queue's head may leave */
	struct rb_node pacer_node;		/* under dev->pacer_lock; clear when out */
	rxe_cc_okfn_t okfn;
	struct net *net;
	u64 stats[RXE_CC_QP_NLOCKED];		/* RXE_CC_QP_LOCKED_COUNTERS */
	struct rcu_head rcu;
};

/*
 * The layout is for production kernels: lockdep and spinlock debugging
 * (the debug kernel) make its spinlocks several times larger.
 */
#if !IS_ENABLED(CONFIG_DEBUG_SPINLOCK) && !IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC)
/* What a packet at rest touches: the first two cache lines. */
static_assert(offsetofend(struct rxe_cc_qp, queue.next) <= 2 * L1_CACHE_BYTES);
/* Six lines: 384 bytes a QP, from the QP cache (qp.c). */
static_assert(sizeof(struct rxe_cc_qp) <= 6 * L1_CACHE_BYTES);
#endif

extern struct list_head rxe_cc_devs;
extern struct ib_client rxe_cc_client;

static inline struct rxe_cc_config *rxe_cc_cfg(struct rxe_cc_dev *dev)
{
	return rcu_dereference(dev->cfg);
}

static inline void rxe_cc_dev_count(struct rxe_cc_dev *dev, enum rxe_cc_counter c, u64 n)
{
	this_cpu_add(dev->stats->v[c], n);
}

/* The QP's counter C, one of RXE_CC_QP_LOCKED_COUNTERS. */
#define rxe_cc_qp_stat(qp, c)	((qp)->stats[(c) - RXE_CC_QP_NFAST])

/* Counts on the QP (its lock held) and on its device. */
static inline void rxe_cc_qp_count(struct rxe_cc_qp *qp, enum rxe_cc_counter c, u64 n)
{
	rxe_cc_qp_stat(qp, c) += n;
	rxe_cc_dev_count(qp->dev, c, n);
}

/* A packet of LEN bytes the QP sent; no lock needed. */
static inline void rxe_cc_qp_count_tx(struct rxe_cc_qp *qp, unsigned int len)
{
	atomic64_inc(&qp->fast_stats[RXE_CC_C_TX_PACKETS]);
	atomic64_add(len, &qp->fast_stats[RXE_CC_C_TX_BYTES]);
	rxe_cc_dev_count(qp->dev, RXE_CC_C_TX_PACKETS, 1);
	rxe_cc_dev_count(qp->dev, RXE_CC_C_TX_BYTES, len);
}

/* A packet of LEN bytes the QP received; no lock needed. */
static inline void rxe_cc_qp_count_rx(struct rxe_cc_qp *qp, unsigned int len)
{
	atomic64_inc(&qp->fast_stats[RXE_CC_C_RX_PACKETS]);
	atomic64_add(len, &qp->fast_stats[RXE_CC_C_RX_BYTES]);
	rxe_cc_dev_count(qp->dev, RXE_CC_C_RX_PACKETS, 1);
	rxe_cc_dev_count(qp->dev, RXE_CC_C_RX_BYTES, len);
}

/*
 * The packet path's lookups are inline: under emulation a call and its
 * return cost more than the few loads they do.
 */

/* The rxe device on NDEV, if any (RCU). */
static inline struct rxe_cc_dev *rxe_cc_dev_by_netdev(const struct net_device *ndev)
{
	struct rxe_cc_dev *dev;

	list_for_each_entry_rcu(dev, &rxe_cc_devs, list)
		if (dev->ndev == ndev)
			return dev;
	return NULL;
}

/* The state of the device's QP number QPN, if any (RCU). */
static inline struct rxe_cc_qp *rxe_cc_qp_lookup(struct rxe_cc_dev *dev, u32 qpn)
{
	struct rxe_cc_qp *qp;

	hash_for_each_possible_rcu(dev->qps, qp, hnode, qpn)
		if (qp->qpn == qpn)
			return qp;
	return NULL;
}

struct rxe_cc_qp *rxe_cc_qp_create(struct rxe_cc_dev *dev, u32 qpn, const struct sock *sk);

/* The state of the QP that sends from SK, created with its first packet. */
static inline struct rxe_cc_qp *rxe_cc_qp_get_or_create(struct rxe_cc_dev *dev, u32 qpn,
							const struct sock *sk)
{
	struct rxe_cc_qp *qp = rxe_cc_qp_lookup(dev, qpn);

	if (likely(qp && qp->sk == sk))
		return qp;
	return rxe_cc_qp_create(dev, qpn, sk);
}

static inline bool rxe_cc_qp_rp_enabled(const struct rxe_cc_qp *qp,
					const struct rxe_cc_config *cfg)
{
	switch (READ_ONCE(qp->dcqcn_mode)) {
	case RXE_CC_QP_DCQCN_ON:
		return true;
	case RXE_CC_QP_DCQCN_OFF:
		return false;
	default:
		return cfg->rp_enable;
	}
}

/*
 * Requests go through the pacer while DCQCN runs for the QP, while it has a
 * max-rate of its own (a static limit, DCQCN on or not) and while it still
 * holds packets, which later ones must not overtake.
 */
static inline bool rxe_cc_qp_paced(const struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg)
{
	return rxe_cc_qp_rp_enabled(qp, cfg) || READ_ONCE(qp->max_rate_mbps) ||
	       !skb_queue_empty_lockless(&qp->queue);
}

/*
 * May a request of the QP pass without the pacer? While the QP is at rest
 * at the line rate under CFG and holds nothing, the pacer has nothing to
 * time and DCQCN nothing to step (see qp->at_rest_gen). rxe sends a QP's
 * requests one after the other, so none is held when the queue is seen
 * empty here.
 */
static inline bool rxe_cc_qp_at_rest_at_line(const struct rxe_cc_qp *qp,
					     const struct rxe_cc_config *cfg)
{
	return READ_ONCE(qp->at_rest_gen) == cfg->gen && skb_queue_empty_lockless(&qp->queue);
}

/*
 * How far the port may fall behind its line rate and catch up with a
 * burst: as for a QP not cut (pacer.c), a late timer must not cost the
 * device its line rate.
 */
#define RXE_CC_PORT_SLACK_NS	(4 * NSEC_PER_MSEC)

/*
 * Is the port rxe_cc's to pace? Only while the line rate is below the
 * netdev's own speed (an emulated link set lower): at that speed the
 * netdev holds the device to it by itself, and a QP at rest there costs
 * no clock read in the packet path.
 */
static inline bool rxe_cc_port_paced(const struct rxe_cc_dev *dev,
				     const struct rxe_cc_config *cfg)
{
	return cfg->line_kbps < dev->link_kbps;
}

/*
 * Books the port for a packet of LEN bytes at the line rate, from when it
 * is free or at most its slack before NOW. The link carries the packet in
 * an Ethernet frame, and a link's rate counts frames (as a switch port's
 * rate limit does): at 1 KB MTU the header is 1.3% of the wire. Lockless:
 * two CPUs that both found the port free book one after the other, so the
 * device keeps its rate.
 */
static inline void __rxe_cc_port_book(struct rxe_cc_dev *dev, const struct rxe_cc_config *cfg,
				      unsigned int len, u64 now_ns)
{
	s64 next = atomic64_read(&dev->port_next_ns);
	u64 start;

	do {
		start = (u64)next + RXE_CC_PORT_SLACK_NS < now_ns ?
			now_ns - RXE_CC_PORT_SLACK_NS : (u64)next;
	} while (!atomic64_try_cmpxchg(&dev->port_next_ns, &next,
				       start + dcqcn_tx_time_ns(len + ETH_HLEN, cfg->line_kbps)));
}

/* The same where the port is rxe_cc's to pace. */
static inline void rxe_cc_port_book(struct rxe_cc_dev *dev, const struct rxe_cc_config *cfg,
				    unsigned int len, u64 now_ns)
{
	if (rxe_cc_port_paced(dev, cfg))
		__rxe_cc_port_book(dev, cfg, len, now_ns);
}

static inline bool rxe_cc_port_busy(const struct rxe_cc_dev *dev, u64 now_ns)
{
	return (u64)atomic64_read(&dev->port_next_ns) > now_ns;
}

/*
 * May a request of LEN bytes of a QP at rest at the line rate leave
 * without the pacer? Only while the port is free, which it then books.
 */
static inline bool rxe_cc_port_take(struct rxe_cc_dev *dev, const struct rxe_cc_config *cfg,
				    unsigned int len)
{
	u64 now;

	if (!rxe_cc_port_paced(dev, cfg))
		return true;
	now = ktime_get_ns();
	if (rxe_cc_port_busy(dev, now))
		return false;
	__rxe_cc_port_book(dev, cfg, len, now);
	return true;
}

/* The device's identity attributes, in replies and events alike. */
static inline int rxe_cc_put_dev_id(struct sk_buff *msg, const struct rxe_cc_dev *dev)
{
	if (nla_put_u32(msg, RXE_CC_A_DEV_INDEX, dev->ibdev->index) ||
	    nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&dev->ibdev->dev)))
		return -EMSGSIZE;
	return 0;
}

/* dev.c */
int rxe_cc_dev_init(void);
void rxe_cc_dev_exit(void);
struct rxe_cc_dev *rxe_cc_dev_by_name(const struct net *net, const char *name);
struct rxe_cc_dev *rxe_cc_dev_by_index(const struct net *net, u32 index);
int rxe_cc_dev_set_config(struct rxe_cc_dev *dev, const struct rxe_cc_config *cfg);
extern struct mutex rxe_cc_config_lock;

/* qp.c */

/* What a reader sees of a QP (rxe_cc_qp_snapshot()). */
struct rxe_cc_qp_snapshot {
	struct dcqcn_flow flow;
	u64 stats[RXE_CC_QP_NCOUNTERS];
	struct in6_addr peer;
	bool peer_v6;
	u8 transport;
	u8 dcqcn_mode;
	u16 udp_sport;
	u16 udp_sport_set;
	u32 remote_qpn;
	u32 min_rate_mbps;
	u32 max_rate_mbps;
	u32 queued;
	u32 idle_ms;
};

int rxe_cc_qp_cache_init(void);
void rxe_cc_qp_cache_exit(void);
void rxe_cc_qp_snapshot(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg, u64 now_ns,
			struct rxe_cc_qp_snapshot *snap);
u32 rxe_cc_qp_numbers(struct rxe_cc_dev *dev, u32 *qpns);
void rxe_cc_qps_init(struct rxe_cc_dev *dev);
void rxe_cc_qps_stop(struct rxe_cc_dev *dev);
void rxe_cc_qps_destroy(struct rxe_cc_dev *dev);

/* stats.c */
void rxe_cc_qp_stats_read(const struct rxe_cc_qp *qp, u64 *stats);
void rxe_cc_qp_stats_reset(struct rxe_cc_qp *qp);
void rxe_cc_dev_stats_sum(struct rxe_cc_dev *dev, u64 *sum);
void rxe_cc_dev_stats_reset(struct rxe_cc_dev *dev);
int rxe_cc_stats_put(struct sk_buff *msg, int type, const u64 *stats, bool qp);

/* pacer.c */
unsigned int rxe_cc_pace(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			 struct sk_buff *skb, const struct nf_hook_state *state);
void rxe_cc_pacer_init(struct rxe_cc_dev *dev);
void rxe_cc_pacer_stop(struct rxe_cc_dev *dev, bool send);

struct roce_pkt;

/* np.c */
void rxe_cc_np_ce(struct rxe_cc_dev *dev, struct rxe_cc_config *cfg,
		  struct rxe_cc_qp *qp, struct sk_buff *skb, const struct roce_pkt *pkt);

/* rp.c */
enum rxe_cc_rp_event {
	RXE_CC_RP_ADVANCE,		/* time passed */
	RXE_CC_RP_CNP,			/* a CNP from the QP's peer */
	RXE_CC_RP_SENT,			/* the QP sent bytes */
};

void rxe_cc_rp_cnp(struct rxe_cc_dev *dev, struct rxe_cc_config *cfg,
		   struct sk_buff *skb, const struct roce_pkt *pkt);
void rxe_cc_rp_run(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
		   enum rxe_cc_rp_event event, u32 bytes, u64 now_ns);
bool rxe_cc_rp_at_rest(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg);
int rxe_cc_rp_set_overrides(struct rxe_cc_qp *qp, const struct rxe_cc_config *cfg,
			    enum rxe_cc_qp_dcqcn mode, u32 min_mbps, u32 max_mbps);

/* sport.c */
int rxe_cc_set_sport(struct sk_buff *skb, const struct roce_pkt *pkt, u16 sport);

/* hook.c */
int rxe_cc_hooks_init(void);
void rxe_cc_hooks_exit(void);

/* netlink.c */
int rxe_cc_netlink_init(void);
void rxe_cc_netlink_exit(void);

/* monitor.c: events for the monitor group; cheap when nobody listens. */
extern unsigned int rxe_cc_monitor_rate;
void rxe_cc_monitor_start(const struct genl_family *family);
void rxe_cc_monitor_stop(void);
void rxe_cc_monitor_init(struct rxe_cc_dev *dev);
void rxe_cc_monitor_cnp_sent(struct rxe_cc_dev *dev, u32 qpn, u32 remote_qpn, u64 now_ns);
void rxe_cc_monitor_cnp_handled(struct rxe_cc_qp *qp, u64 now_ns);
void rxe_cc_monitor_rate_change(struct rxe_cc_qp *qp, u32 old_kbps, int reason, u64 now_ns);

#endif /* _RXE_CC_H */
