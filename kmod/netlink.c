// SPDX-License-Identifier: GPL-2.0
/*
 * The rxe_cc generic netlink family (uapi/linux/rxe_cc.h).
 *
 * Reads are open to all; every set needs CAP_NET_ADMIN. Parameter ranges
 * live in the policies, which mirror the DCQCN core's validation; what a
 * policy cannot say (min-rate <= max-rate) is checked here with an extack
 * message. A set either applies completely or changes nothing.
 */

#include <linux/slab.h>
#include <linux/sort.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>

#include "rxe_cc.h"

static struct genl_family rxe_cc_genl;

/* Not const: 6.1's nla_policy points to a mutable range. */
#define RANGE(_min, _max) (&(struct netlink_range_validation){ .min = _min, .max = _max })
#define U32_RANGE(_min, _max) NLA_POLICY_FULL_RANGE(NLA_U32, RANGE(_min, _max))

static const struct nla_policy rxe_cc_dcqcn_policy[RXE_CC_A_DCQCN_MAX + 1] = {
	[RXE_CC_A_DCQCN_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_PRESET] = { .type = NLA_NUL_STRING, .len = 16 },
	[RXE_CC_A_DCQCN_CLAMP_TGT_RATE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_CLAMP_TGT_RATE_ATI] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_DCQCN_TIME_RESET] = U32_RANGE(1, DCQCN_TIME_MAX_US),
	[RXE_CC_A_DCQCN_BYTE_RESET] = U32_RANGE(0, DCQCN_BYTE_RESET_MAX),
	[RXE_CC_A_DCQCN_THRESHOLD] = U32_RANGE(1, DCQCN_THRESHOLD_MAX),
	[RXE_CC_A_DCQCN_MAX_RATE] = U32_RANGE(0, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN_AI_RATE] = U32_RANGE(1, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN_HAI_RATE] = U32_RANGE(1, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN_GD] = U32_RANGE(0, DCQCN_GD_MAX),
	[RXE_CC_A_DCQCN_MIN_DEC_FAC] = U32_RANGE(1, DCQCN_MIN_DEC_FAC_MAX),
	[RXE_CC_A_DCQCN_MIN_RATE] = U32_RANGE(1, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN_RATE_TO_SET_ON_FIRST_CNP] = U32_RANGE(0, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN_DCE_TCP_G] = U32_RANGE(0, DCQCN_G_MAX),
	[RXE_CC_A_DCQCN_DCE_TCP_RTT] = U32_RANGE(1, DCQCN_TIME_MAX_US),
	[RXE_CC_A_DCQCN_RATE_REDUCE_MONITOR_PERIOD] = U32_RANGE(0, DCQCN_TIME_MAX_US),
	[RXE_CC_A_DCQCN_INITIAL_ALPHA] = U32_RANGE(0, DCQCN_ALPHA_MAX),
};

static const struct nla_policy rxe_cc_np_policy[RXE_CC_A_NP_MAX + 1] = {
	[RXE_CC_A_NP_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS] = U32_RANGE(0, RXE_CC_NP_MIN_TIME_MAX_US),
	[RXE_CC_A_NP_PER_PORT] = NLA_POLICY_MAX(NLA_U32, 1),
	[RXE_CC_A_NP_CNP_DSCP] = NLA_POLICY_MAX(NLA_U32, RXE_CC_DSCP_MAX),
	[RXE_CC_A_NP_CNP_PRIO] = NLA_POLICY_MAX(NLA_U32, RXE_CC_PRIO_MAX),
	[RXE_CC_A_NP_CNP_PRIO_MODE] = NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct nla_policy rxe_cc_policy[RXE_CC_A_MAX + 1] = {
	[RXE_CC_A_DEV_INDEX] = { .type = NLA_U32 },
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IB_DEVICE_NAME_MAX - 1 },
	[RXE_CC_A_DEV_LINE_RATE] = U32_RANGE(1, DCQCN_RATE_MAX_MBPS),
	[RXE_CC_A_DCQCN] = NLA_POLICY_NESTED(rxe_cc_dcqcn_policy),
	[RXE_CC_A_NP] = NLA_POLICY_NESTED(rxe_cc_np_policy),
};

/* The device a request names, by index or name (config lock held). */
static struct rxe_cc_dev *rxe_cc_nl_dev(struct genl_info *info)
{
	struct rxe_cc_dev *dev = NULL;

	if (info->attrs[RXE_CC_A_DEV_INDEX])
		dev = rxe_cc_dev_by_index(nla_get_u32(info->attrs[RXE_CC_A_DEV_INDEX]));
	else if (info->attrs[RXE_CC_A_DEV_NAME])
		dev = rxe_cc_dev_by_name(nla_data(info->attrs[RXE_CC_A_DEV_NAME]));
	else
		GENL_SET_ERR_MSG(info, "no device given (name or index)");
	if (!dev && (info->attrs[RXE_CC_A_DEV_INDEX] || info->attrs[RXE_CC_A_DEV_NAME]))
		GENL_SET_ERR_MSG(info, "no such rxe device");
	return dev;
}

/*
 * Counters as a nest of type TYPE. A device has no queue of its own; a QP
 * sees no malformed packets and is never unknown.
 */
/*
 * For a set: the named device and a copy of its configuration to change,
 * with rxe_cc_config_lock held (also on failure: callers unlock).
 */
static struct rxe_cc_dev *rxe_cc_nl_dev_for_set(struct genl_info *info,
						struct rxe_cc_config *cfg)
{
	struct rxe_cc_dev *dev;

	mutex_lock(&rxe_cc_config_lock);
	dev = rxe_cc_nl_dev(info);
	if (dev)
		*cfg = *rcu_dereference_protected(dev->cfg,
						  lockdep_is_held(&rxe_cc_config_lock));
	return dev;
}

static int rxe_cc_put_stats(struct sk_buff *msg, int type, const u64 *stats)
{
	struct nlattr *nest = nla_nest_start(msg, type);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = RXE_CC_A_STAT_UNSPEC + 1; i < RXE_CC_A_STAT_PAD; i++) {
		bool dev_only = i >= RXE_CC_A_STAT_MALFORMED;

		if (type == RXE_CC_A_STATS ? i == RXE_CC_A_STAT_QUEUE_PEAK : dev_only)
			continue;
		if (nla_put_u64_64bit(msg, i, stats[i], RXE_CC_A_STAT_PAD))
			return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int rxe_cc_put_dev_id(struct sk_buff *msg, struct rxe_cc_dev *dev)
{
	if (nla_put_u32(msg, RXE_CC_A_DEV_INDEX, dev->ibdev->index) ||
	    nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&dev->ibdev->dev)))
		return -EMSGSIZE;
	return 0;
}

static int rxe_cc_fill_dev(struct sk_buff *msg, struct rxe_cc_dev *dev, u32 portid,
			   u32 seq, int flags)
{
	const struct rxe_cc_config *cfg = rcu_dereference_protected(dev->cfg,
						lockdep_is_held(&rxe_cc_config_lock));
	u64 stats[RXE_CC_NSTATS];
	struct nlattr *nest;
	void *hdr;
	int id;

	hdr = genlmsg_put(msg, portid, seq, &rxe_cc_genl, flags, RXE_CC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rxe_cc_put_dev_id(msg, dev) ||
	    nla_put_string(msg, RXE_CC_A_DEV_IFNAME, dev->ndev->name) ||
	    nla_put_u32(msg, RXE_CC_A_DEV_LINE_RATE,
			READ_ONCE(dev->line_kbps) / DCQCN_KBPS_PER_MBPS))
		goto cancel;

	nest = nla_nest_start(msg, RXE_CC_A_DCQCN);
	if (!nest || nla_put_u32(msg, RXE_CC_A_DCQCN_ENABLE, cfg->rp_enable))
		goto cancel;
	for (id = 0; id < DCQCN_P_COUNT; id++)
		if (nla_put_u32(msg, RXE_CC_A_DCQCN_FIRST_PARAM + id,
				dcqcn_param_get(&cfg->rp, id)))
			goto cancel;
	nla_nest_end(msg, nest);

	nest = nla_nest_start(msg, RXE_CC_A_NP);
	if (!nest)
		goto cancel;
	for (id = RXE_CC_A_NP_ENABLE; id <= RXE_CC_A_NP_MAX; id++)
		if (nla_put_u32(msg, id, rxe_cc_np_param_get(&cfg->np, id)))
			goto cancel;
	nla_nest_end(msg, nest);

	rxe_cc_dev_stats_sum(dev, stats);
	if (rxe_cc_put_stats(msg, RXE_CC_A_STATS, stats))
		goto cancel;
	genlmsg_end(msg, hdr);
	return 0;

cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int rxe_cc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rxe_cc_dev *dev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&rxe_cc_config_lock);
	dev = rxe_cc_nl_dev(info);
	err = dev ? rxe_cc_fill_dev(msg, dev, info->snd_portid, info->snd_seq, 0) : -ENODEV;
	mutex_unlock(&rxe_cc_config_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: devices already dumped. */
static int rxe_cc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rxe_cc_dev *dev;
	long idx = 0;

	mutex_lock(&rxe_cc_config_lock);
	list_for_each_entry(dev, &rxe_cc_devs, list) {
		if (idx++ < cb->args[0])
			continue;
		if (rxe_cc_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				    NLM_F_MULTI))
			break;
		cb->args[0] = idx;
	}
	mutex_unlock(&rxe_cc_config_lock);
	return skb->len;
}

static int rxe_cc_nl_dcqcn_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RXE_CC_A_DCQCN_MAX + 1];
	struct rxe_cc_config cfg;
	struct rxe_cc_dev *dev;
	int err, id;

	if (!info->attrs[RXE_CC_A_DCQCN] && !info->attrs[RXE_CC_A_DEV_LINE_RATE]) {
		GENL_SET_ERR_MSG(info, "no DCQCN parameters given");
		return -EINVAL;
	}
	memset(tb, 0, sizeof(tb));
	if (info->attrs[RXE_CC_A_DCQCN]) {
		err = nla_parse_nested(tb, RXE_CC_A_DCQCN_MAX, info->attrs[RXE_CC_A_DCQCN],
				       rxe_cc_dcqcn_policy, info->extack);
		if (err)
			return err;
	}

	dev = rxe_cc_nl_dev_for_set(info, &cfg);
	if (!dev) {
		err = -ENODEV;
		goto out;
	}
	/* A preset first, so that single knobs given with it override it. */
	if (tb[RXE_CC_A_DCQCN_PRESET]) {
		const char *name = nla_data(tb[RXE_CC_A_DCQCN_PRESET]);

		if (!strcmp(name, "mlx5")) {
			cfg.rp = dcqcn_preset_mlx5;
		} else if (!strcmp(name, "paper")) {
			cfg.rp = dcqcn_preset_paper;
		} else {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[RXE_CC_A_DCQCN_PRESET],
					    "unknown preset (mlx5, paper)");
			err = -EINVAL;
			goto out;
		}
	}
	if (tb[RXE_CC_A_DCQCN_ENABLE])
		cfg.rp_enable = nla_get_u32(tb[RXE_CC_A_DCQCN_ENABLE]);
	for (id = 0; id < DCQCN_P_COUNT; id++) {
		struct nlattr *attr = tb[RXE_CC_A_DCQCN_FIRST_PARAM + id];

		if (attr)
			dcqcn_param_set(&cfg.rp, id, nla_get_u32(attr));
	}
	/* The policy checked each range; only the rule across knobs is left. */
	if (dcqcn_params_check(&cfg.rp) >= 0) {
		NL_SET_ERR_MSG(info->extack, "min-rate must not exceed max-rate");
		err = -EINVAL;
		goto out;
	}
	err = rxe_cc_dev_set_config(dev, &cfg);
	if (!err && info->attrs[RXE_CC_A_DEV_LINE_RATE])
		WRITE_ONCE(dev->line_kbps, nla_get_u32(info->attrs[RXE_CC_A_DEV_LINE_RATE]) *
					   DCQCN_KBPS_PER_MBPS);
out:
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

static int rxe_cc_nl_np_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RXE_CC_A_NP_MAX + 1];
	struct rxe_cc_config cfg;
	struct rxe_cc_dev *dev;
	int err, i;

	if (!info->attrs[RXE_CC_A_NP]) {
		GENL_SET_ERR_MSG(info, "no NP parameters given");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, RXE_CC_A_NP_MAX, info->attrs[RXE_CC_A_NP],
			       rxe_cc_np_policy, info->extack);
	if (err)
		return err;

	dev = rxe_cc_nl_dev_for_set(info, &cfg);
	if (!dev) {
		err = -ENODEV;
		goto out;
	}
	for (i = RXE_CC_A_NP_ENABLE; i <= RXE_CC_A_NP_MAX; i++)
		if (tb[i])
			rxe_cc_np_param_set(&cfg.np, i, nla_get_u32(tb[i]));
	err = rxe_cc_dev_set_config(dev, &cfg);
out:
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

static int rxe_cc_fill_qp(struct sk_buff *msg, struct rxe_cc_dev *dev, struct rxe_cc_qp *qp,
			  u32 portid, u32 seq)
{
	u64 stats[RXE_CC_NSTATS];
	struct dcqcn_flow flow;
	struct in6_addr peer;
	u32 remote, queued, idle_ms;
	struct nlattr *nest;
	bool v6;
	void *hdr;

	spin_lock_bh(&qp->lock);
	rxe_cc_qp_run_dcqcn(qp, &rcu_dereference(dev->cfg)->rp, RXE_CC_DCQCN_ADVANCE, 0,
			    ktime_get_ns());
	flow = qp->flow;
	memcpy(stats, qp->stats, sizeof(stats));
	remote = qp->remote_qpn;
	peer = qp->peer;
	v6 = qp->peer_v6;
	queued = skb_queue_len(&qp->queue);
	idle_ms = jiffies_to_msecs(jiffies - qp->last_seen);
	spin_unlock_bh(&qp->lock);

	hdr = genlmsg_put(msg, portid, seq, &rxe_cc_genl, NLM_F_MULTI, RXE_CC_CMD_QP_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rxe_cc_put_dev_id(msg, dev))
		goto cancel;
	nest = nla_nest_start(msg, RXE_CC_A_QP);
	if (!nest || nla_put_u32(msg, RXE_CC_A_QP_NUM, qp->qpn))
		goto cancel;
	/* Peer and remote QP are learnt together, from the QP's first packet. */
	if (remote != RXE_CC_QPN_UNKNOWN &&
	    (nla_put_u32(msg, RXE_CC_A_QP_REMOTE_NUM, remote) ||
	     nla_put(msg, RXE_CC_A_QP_PEER, v6 ? sizeof(peer) : sizeof(peer.s6_addr32[3]),
		     v6 ? (void *)&peer : &peer.s6_addr32[3])))
		goto cancel;
	if (nla_put_u32(msg, RXE_CC_A_QP_RATE, flow.rc_kbps) ||
	    nla_put_u32(msg, RXE_CC_A_QP_TARGET_RATE, flow.rt_kbps) ||
	    nla_put_u32(msg, RXE_CC_A_QP_ALPHA, flow.alpha) ||
	    nla_put_u32(msg, RXE_CC_A_QP_TIMER_STAGE, flow.timer_stage) ||
	    nla_put_u32(msg, RXE_CC_A_QP_BYTE_STAGE, flow.byte_stage) ||
	    nla_put_u32(msg, RXE_CC_A_QP_LIMITED, flow.limited) ||
	    nla_put_u32(msg, RXE_CC_A_QP_QUEUE, queued) ||
	    nla_put_u32(msg, RXE_CC_A_QP_IDLE_MS, idle_ms) ||
	    rxe_cc_put_stats(msg, RXE_CC_A_QP_STATS, stats))
		goto cancel;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;

cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * QPs are dumped per device in QP number order, so that a dump resumes
 * after the last QP number it sent (cb->args[1]) however QPs came and went
 * meanwhile: a QP that lived through the whole dump appears exactly once.
 * cb->args[0] counts the devices done; args[2] filters by device index + 1.
 */
static int rxe_cc_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct rxe_cc_dev *dev;
	long idx = 0;
	int err = 0;

	if (!cb->args[2] && info->attrs[RXE_CC_A_DEV_INDEX])
		cb->args[2] = (long)nla_get_u32(info->attrs[RXE_CC_A_DEV_INDEX]) + 1;

	mutex_lock(&rxe_cc_config_lock);
	list_for_each_entry(dev, &rxe_cc_devs, list) {
		struct rxe_cc_qp *qp;
		u32 *qpns, n = 0, i;
		int bkt;

		if (idx++ < cb->args[0])
			continue;
		if (cb->args[2] && dev->ibdev->index != cb->args[2] - 1) {
			cb->args[0] = idx;
			continue;
		}
		qpns = kvmalloc_array(RXE_CC_QPS_MAX, sizeof(*qpns), GFP_KERNEL);
		if (!qpns) {
			err = -ENOMEM;
			break;
		}
		rcu_read_lock();
		hash_for_each_rcu(dev->qps, bkt, qp, hnode)
			if (n < RXE_CC_QPS_MAX && (!cb->args[1] || qp->qpn > cb->args[1] - 1))
				qpns[n++] = qp->qpn;
		sort(qpns, n, sizeof(*qpns), cmp_u32, NULL);
		for (i = 0; i < n && !err; i++) {
			qp = rxe_cc_qp_lookup(dev, qpns[i]);
			if (!qp)
				continue;
			err = rxe_cc_fill_qp(skb, dev, qp, NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq);
			if (!err)
				cb->args[1] = (long)qpns[i] + 1;
		}
		rcu_read_unlock();
		kvfree(qpns);
		if (err)
			break;
		cb->args[0] = idx;
		cb->args[1] = 0;
	}
	mutex_unlock(&rxe_cc_config_lock);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static const struct genl_ops rxe_cc_ops[] = {
	{
		.cmd = RXE_CC_CMD_DEV_GET,
		.doit = rxe_cc_nl_dev_get_doit,
		.dumpit = rxe_cc_nl_dev_get_dumpit,
	},
	{
		.cmd = RXE_CC_CMD_DCQCN_SET,
		.doit = rxe_cc_nl_dcqcn_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = RXE_CC_CMD_NP_SET,
		.doit = rxe_cc_nl_np_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = RXE_CC_CMD_QP_GET,
		.dumpit = rxe_cc_nl_qp_get_dumpit,
	},
};

static struct genl_family rxe_cc_genl __ro_after_init = {
	.name = RXE_CC_FAMILY_NAME,
	.version = RXE_CC_FAMILY_VERSION,
	.maxattr = RXE_CC_A_MAX,
	.policy = rxe_cc_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = rxe_cc_ops,
	.n_ops = ARRAY_SIZE(rxe_cc_ops),
	.resv_start_op = RXE_CC_CMD_QP_GET + 1,
};

int rxe_cc_netlink_init(void)
{
	return genl_register_family(&rxe_cc_genl);
}

void rxe_cc_netlink_exit(void)
{
	genl_unregister_family(&rxe_cc_genl);
}
