// SPDX-License-Identifier: GPL-2.0
/*
 * The rxe_cc generic netlink family: the handlers of its commands.
 *
 * Documentation/netlink/specs/rxe_cc.yaml says what each command takes, who
 * may send it (reads are open to all, sets and resets need CAP_NET_ADMIN)
 * and every attribute's range; genl.c, generated from it, holds the
 * policies that check requests before they get here and the op table. What
 * a policy cannot say (min-rate <= max-rate) is checked here with an extack
 * message. A set either applies completely or changes nothing. A request
 * sees only the devices whose netdev is in its own network namespace.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>

#include "genl_compat.h"
#include "genl.h"
#include "rxe_cc.h"

/* Replies are built on the family that ends this file. */
static struct genl_family rxe_cc_genl;

/* The device ATTRS name, by index or name, in NET (config lock held). */
static struct rxe_cc_dev *rxe_cc_nl_find_dev(struct net *net, struct nlattr **attrs,
					     struct netlink_ext_ack *extack)
{
	struct rxe_cc_dev *dev;

	if (attrs[RXE_CC_A_DEV_INDEX]) {
		dev = rxe_cc_dev_by_index(net, nla_get_u32(attrs[RXE_CC_A_DEV_INDEX]));
		if (!dev)
			NL_SET_ERR_MSG_ATTR(extack, attrs[RXE_CC_A_DEV_INDEX],
					    "no such rxe device in this network namespace");
		return dev;
	}
	if (attrs[RXE_CC_A_DEV_NAME]) {
		dev = rxe_cc_dev_by_name(net, nla_data(attrs[RXE_CC_A_DEV_NAME]));
		if (!dev)
			NL_SET_ERR_MSG_ATTR(extack, attrs[RXE_CC_A_DEV_NAME],
					    "no such rxe device in this network namespace");
		return dev;
	}
	NL_SET_ERR_MSG(extack, "no device given (name or index)");
	return NULL;
}

static struct rxe_cc_dev *rxe_cc_nl_dev(struct genl_info *info)
{
	return rxe_cc_nl_find_dev(genl_info_net(info), info->attrs, info->extack);
}

/*
 * The QP a request names in its QP nest, parsed into TB, on DEV (config
 * lock held; the QP is RCU-protected).
 */
static struct rxe_cc_qp *rxe_cc_nl_qp(struct genl_info *info, struct rxe_cc_dev *dev,
				      struct nlattr **tb)
{
	struct rxe_cc_qp *qp;

	if (!tb[RXE_CC_A_QP_NUM]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RXE_CC_A_QP], "no QP number given");
		return NULL;
	}
	qp = rxe_cc_qp_lookup(dev, nla_get_u32(tb[RXE_CC_A_QP_NUM]));
	if (!qp)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RXE_CC_A_QP_NUM],
				    "no such QP: it has sent nothing yet or is gone");
	return qp;
}

/* Parses the request's QP nest into TB; it is required. */
static int rxe_cc_nl_parse_qp(struct genl_info *info, struct nlattr **tb)
{
	if (!info->attrs[RXE_CC_A_QP]) {
		GENL_SET_ERR_MSG(info, "no QP given");
		return -EINVAL;
	}
	return nla_parse_nested(tb, RXE_CC_A_QP_MAX, info->attrs[RXE_CC_A_QP],
				rxe_cc_qp_nl_policy, info->extack);
}

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

static int rxe_cc_fill_dev(struct sk_buff *msg, struct rxe_cc_dev *dev, u32 portid,
			   u32 seq, int flags)
{
	const struct rxe_cc_config *cfg = rcu_dereference_protected(dev->cfg,
						lockdep_is_held(&rxe_cc_config_lock));
	struct rxe_cc_np_params np = cfg->np;
	u64 stats[RXE_CC_NCOUNTERS];
	struct nlattr *nest;
	void *hdr;
	int id;

	hdr = genlmsg_put(msg, portid, seq, &rxe_cc_genl, flags, RXE_CC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rxe_cc_put_dev_id(msg, dev) ||
	    nla_put_string(msg, RXE_CC_A_DEV_IFNAME, dev->ndev->name) ||
	    nla_put_u32(msg, RXE_CC_A_DEV_LINE_RATE,
			cfg->line_kbps / DCQCN_KBPS_PER_MBPS) ||
	    nla_put_u32(msg, RXE_CC_A_DEV_QPS, READ_ONCE(dev->nr_qps)))
		goto cancel;

	nest = nla_nest_start(msg, RXE_CC_A_DCQCN);
	if (!nest || nla_put_u32(msg, RXE_CC_A_DCQCN_ENABLE, cfg->rp_enable))
		goto cancel;
	for (id = 0; id < DCQCN_P_COUNT; id++)
		if (nla_put_u32(msg, dcqcn_param_attr(id),
				dcqcn_param_get(&cfg->rp, id)))
			goto cancel;
	nla_nest_end(msg, nest);

	nest = nla_nest_start(msg, RXE_CC_A_NP);
	if (!nest)
		goto cancel;
	for (id = RXE_CC_A_NP_ENABLE; id <= RXE_CC_A_NP_MAX; id++)
		if (nla_put_u32(msg, id, *rxe_cc_np_param(&np, id)))
			goto cancel;
	nla_nest_end(msg, nest);

	rxe_cc_dev_stats_sum(dev, stats);
	if (rxe_cc_stats_put(msg, RXE_CC_A_STATS, stats, false))
		goto cancel;
	genlmsg_end(msg, hdr);
	return 0;

cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

int rxe_cc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
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
int rxe_cc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rxe_cc_dev *dev;
	long idx = 0;

	mutex_lock(&rxe_cc_config_lock);
	list_for_each_entry(dev, &rxe_cc_devs, list) {
		if (idx++ < cb->args[0])
			continue;
		if (net_eq(dev_net(dev->ndev), sock_net(skb->sk)) &&
		    rxe_cc_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				    NLM_F_MULTI))
			break;
		cb->args[0] = idx;
	}
	mutex_unlock(&rxe_cc_config_lock);
	return skb->len;
}

int rxe_cc_nl_dcqcn_set_doit(struct sk_buff *skb, struct genl_info *info)
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
				       rxe_cc_dcqcn_nl_policy, info->extack);
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
		struct nlattr *attr = tb[dcqcn_param_attr(id)];

		if (attr)
			dcqcn_param_set(&cfg.rp, id, nla_get_u32(attr));
	}
	/* The policy checked each range; only the rule across knobs is left. */
	if (dcqcn_params_check(&cfg.rp) >= 0) {
		NL_SET_ERR_MSG(info->extack, "min-rate must not exceed max-rate");
		err = -EINVAL;
		goto out;
	}
	if (info->attrs[RXE_CC_A_DEV_LINE_RATE])
		cfg.line_kbps = nla_get_u32(info->attrs[RXE_CC_A_DEV_LINE_RATE]) *
				DCQCN_KBPS_PER_MBPS;
	err = rxe_cc_dev_set_config(dev, &cfg);
out:
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

int rxe_cc_nl_np_set_doit(struct sk_buff *skb, struct genl_info *info)
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
			       rxe_cc_np_nl_policy, info->extack);
	if (err)
		return err;

	dev = rxe_cc_nl_dev_for_set(info, &cfg);
	if (!dev) {
		err = -ENODEV;
		goto out;
	}
	for (i = RXE_CC_A_NP_ENABLE; i <= RXE_CC_A_NP_MAX; i++)
		if (tb[i])
			*rxe_cc_np_param(&cfg.np, i) = nla_get_u32(tb[i]);
	err = rxe_cc_dev_set_config(dev, &cfg);
out:
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

static int rxe_cc_fill_qp(struct sk_buff *msg, struct rxe_cc_dev *dev, struct rxe_cc_qp *qp,
			  u32 portid, u32 seq, int flags)
{
	const struct rxe_cc_config *cfg = rcu_dereference_protected(dev->cfg,
						lockdep_is_held(&rxe_cc_config_lock));
	struct rxe_cc_qp_snapshot snap;
	const struct in6_addr *peer = &snap.peer;
	struct nlattr *nest;
	void *hdr;

	rxe_cc_qp_snapshot(qp, cfg, ktime_get_ns(), &snap);
	hdr = genlmsg_put(msg, portid, seq, &rxe_cc_genl, flags, RXE_CC_CMD_QP_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rxe_cc_put_dev_id(msg, dev))
		goto cancel;
	nest = nla_nest_start(msg, RXE_CC_A_QP);
	if (!nest || nla_put_u32(msg, RXE_CC_A_QP_NUM, qp->qpn))
		goto cancel;
	/*
	 * Peer, remote QP, transport and UDP source port are learnt
	 * together, from the QP's first packet.
	 */
	if (snap.remote_qpn != RXE_CC_QPN_UNKNOWN &&
	    (nla_put_u32(msg, RXE_CC_A_QP_REMOTE_NUM, snap.remote_qpn) ||
	     nla_put_u32(msg, RXE_CC_A_QP_TRANSPORT, snap.transport) ||
	     nla_put_u16(msg, RXE_CC_A_QP_UDP_SPORT, snap.udp_sport_set ?: snap.udp_sport) ||
	     (snap.udp_sport_set &&
	      nla_put_u16(msg, RXE_CC_A_QP_RXE_UDP_SPORT, snap.udp_sport)) ||
	     nla_put(msg, RXE_CC_A_QP_PEER,
		     snap.peer_v6 ? sizeof(*peer) : sizeof(peer->s6_addr32[3]),
		     snap.peer_v6 ? (const void *)peer : &peer->s6_addr32[3])))
		goto cancel;
	if (nla_put_u32(msg, RXE_CC_A_QP_RATE_KBPS, snap.flow.rc_kbps) ||
	    nla_put_u32(msg, RXE_CC_A_QP_TARGET_RATE_KBPS, snap.flow.rt_kbps) ||
	    nla_put_u32(msg, RXE_CC_A_QP_ALPHA, snap.flow.alpha) ||
	    nla_put_u32(msg, RXE_CC_A_QP_TIMER_STAGE, snap.flow.timer_stage) ||
	    nla_put_u32(msg, RXE_CC_A_QP_BYTE_STAGE, snap.flow.byte_stage) ||
	    nla_put_u32(msg, RXE_CC_A_QP_LIMITED, snap.flow.limited) ||
	    nla_put_u32(msg, RXE_CC_A_QP_QUEUE, snap.queued) ||
	    nla_put_u32(msg, RXE_CC_A_QP_IDLE_MS, snap.idle_ms) ||
	    nla_put_u32(msg, RXE_CC_A_QP_DCQCN, snap.dcqcn_mode) ||
	    nla_put_u32(msg, RXE_CC_A_QP_MIN_RATE, snap.min_rate_mbps) ||
	    nla_put_u32(msg, RXE_CC_A_QP_MAX_RATE, snap.max_rate_mbps) ||
	    rxe_cc_stats_put(msg, RXE_CC_A_QP_STATS, snap.stats, true))
		goto cancel;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;

cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

int rxe_cc_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RXE_CC_A_QP_MAX + 1];
	struct rxe_cc_dev *dev;
	struct rxe_cc_qp *qp;
	struct sk_buff *msg;
	int err;

	err = rxe_cc_nl_parse_qp(info, tb);
	if (err)
		return err;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&rxe_cc_config_lock);
	rcu_read_lock();
	err = -ENODEV;
	dev = rxe_cc_nl_dev(info);
	qp = dev ? rxe_cc_nl_qp(info, dev, tb) : NULL;
	if (qp)
		err = rxe_cc_fill_qp(msg, dev, qp, info->snd_portid, info->snd_seq, 0);
	else if (dev)
		err = -ENOENT;
	rcu_read_unlock();
	mutex_unlock(&rxe_cc_config_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * QPs are dumped per device in QP number order. The numbers are taken once
 * per device, sorted, when its first message is built: a QP that lived
 * through the whole dump appears exactly once, and a message costs the QPs
 * it carries, not a walk and a sort of the device's whole table (with
 * 10 000 QPs, a dump is some 300 messages). The dump's state, in cb->args:
 */
enum {
	QP_DUMP_DEVS_DONE,
	QP_DUMP_FILTER,		/* the one device asked for: index + 1, or 0 */
	QP_DUMP_NUMBERS,	/* the current device's QP numbers, or 0 */
	QP_DUMP_NUMBERS_DEV,	/* whose they are: index + 1 */
	QP_DUMP_COUNT,		/* how many */
	QP_DUMP_NEXT,		/* the first not yet sent */
};

static_assert(sizeof_field(struct netlink_callback, args) > QP_DUMP_NEXT * sizeof(long));

static void rxe_cc_qp_dump_numbers_free(struct netlink_callback *cb)
{
	kvfree((u32 *)cb->args[QP_DUMP_NUMBERS]);
	cb->args[QP_DUMP_NUMBERS] = 0;
	cb->args[QP_DUMP_NUMBERS_DEV] = 0;
	cb->args[QP_DUMP_COUNT] = 0;
	cb->args[QP_DUMP_NEXT] = 0;
}

/*
 * DEV's QP numbers, taken on its first message; again if devices came or
 * went since and another one is now in its place in the list.
 */
static u32 *rxe_cc_qp_dump_numbers(struct netlink_callback *cb, struct rxe_cc_dev *dev)
{
	long dev_id = (long)dev->ibdev->index + 1;
	u32 *qpns;

	if (cb->args[QP_DUMP_NUMBERS] && cb->args[QP_DUMP_NUMBERS_DEV] == dev_id)
		return (u32 *)cb->args[QP_DUMP_NUMBERS];
	rxe_cc_qp_dump_numbers_free(cb);
	qpns = kvmalloc_array(RXE_CC_QPS_MAX, sizeof(*qpns), GFP_KERNEL);
	if (!qpns)
		return NULL;
	rcu_read_lock();
	cb->args[QP_DUMP_COUNT] = rxe_cc_qp_numbers(dev, qpns);
	rcu_read_unlock();
	cb->args[QP_DUMP_NUMBERS] = (long)qpns;
	cb->args[QP_DUMP_NUMBERS_DEV] = dev_id;
	return qpns;
}

/*
 * A dump filtered by device resolves it once. The core has validated the
 * request against the op's policy, but where it keeps the parsed
 * attributes for a dump moved between 6.1 and 6.12; picking the device's
 * out again, with no policy to check them against a second time, needs no
 * version test.
 */
int rxe_cc_nl_qp_get_start(struct netlink_callback *cb)
{
	struct nlattr *attrs[RXE_CC_A_DEV_NAME + 1];
	struct rxe_cc_dev *dev;
	int err;

	err = nlmsg_parse_deprecated(cb->nlh, GENL_HDRLEN, attrs, RXE_CC_A_DEV_NAME, NULL,
				     cb->extack);
	if (err)
		return err;
	if (!attrs[RXE_CC_A_DEV_INDEX] && !attrs[RXE_CC_A_DEV_NAME])
		return 0;
	mutex_lock(&rxe_cc_config_lock);
	dev = rxe_cc_nl_find_dev(sock_net(cb->skb->sk), attrs, cb->extack);
	if (dev)
		cb->args[QP_DUMP_FILTER] = (long)dev->ibdev->index + 1;
	mutex_unlock(&rxe_cc_config_lock);
	return dev ? 0 : -ENODEV;
}

int rxe_cc_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	long filter = cb->args[QP_DUMP_FILTER], idx = 0;
	struct rxe_cc_dev *dev;
	int err = 0;

	mutex_lock(&rxe_cc_config_lock);
	list_for_each_entry(dev, &rxe_cc_devs, list) {
		struct rxe_cc_qp *qp;
		u32 *qpns;
		long i;

		if (idx++ < cb->args[QP_DUMP_DEVS_DONE])
			continue;
		if (!net_eq(dev_net(dev->ndev), sock_net(skb->sk)) ||
		    (filter && dev->ibdev->index != filter - 1)) {
			cb->args[QP_DUMP_DEVS_DONE] = idx;
			continue;
		}
		qpns = rxe_cc_qp_dump_numbers(cb, dev);
		if (!qpns) {
			err = -ENOMEM;
			break;
		}
		rcu_read_lock();
		for (i = cb->args[QP_DUMP_NEXT]; i < cb->args[QP_DUMP_COUNT]; i++) {
			/* A QP gone since its number was taken is left out. */
			qp = rxe_cc_qp_lookup(dev, qpns[i]);
			if (qp) {
				err = rxe_cc_fill_qp(skb, dev, qp, NETLINK_CB(cb->skb).portid,
						     cb->nlh->nlmsg_seq, NLM_F_MULTI);
				if (err)
					break;
			}
			cb->args[QP_DUMP_NEXT] = i + 1;
		}
		rcu_read_unlock();
		if (err)
			break;
		rxe_cc_qp_dump_numbers_free(cb);
		cb->args[QP_DUMP_DEVS_DONE] = idx;
	}
	mutex_unlock(&rxe_cc_config_lock);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* The dump ended, or its socket closed before it did. */
int rxe_cc_nl_qp_get_done(struct netlink_callback *cb)
{
	rxe_cc_qp_dump_numbers_free(cb);
	return 0;
}

/*
 * A QP's overrides of its device's DCQCN (rxe_cc_rp_set_overrides()) and
 * of its UDP source port.
 */
int rxe_cc_nl_qp_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RXE_CC_A_QP_MAX + 1];
	const struct rxe_cc_config *cfg;
	struct rxe_cc_dev *dev;
	struct rxe_cc_qp *qp;
	u32 min_mbps, max_mbps, mode;
	int err;

	err = rxe_cc_nl_parse_qp(info, tb);
	if (err)
		return err;
	if (!tb[RXE_CC_A_QP_DCQCN] && !tb[RXE_CC_A_QP_MIN_RATE] && !tb[RXE_CC_A_QP_MAX_RATE] &&
	    !tb[RXE_CC_A_QP_UDP_SPORT]) {
		GENL_SET_ERR_MSG(info, "nothing to set (dcqcn, min-rate, max-rate, udp-sport)");
		return -EINVAL;
	}
	mutex_lock(&rxe_cc_config_lock);
	rcu_read_lock();
	err = -ENODEV;
	dev = rxe_cc_nl_dev(info);
	if (!dev)
		goto out;
	err = -ENOENT;
	qp = rxe_cc_nl_qp(info, dev, tb);
	if (!qp)
		goto out;
	cfg = rcu_dereference_protected(dev->cfg, lockdep_is_held(&rxe_cc_config_lock));
	/* Overrides change under rxe_cc_config_lock only: these stay as read. */
	mode = tb[RXE_CC_A_QP_DCQCN] ? nla_get_u32(tb[RXE_CC_A_QP_DCQCN]) :
				       READ_ONCE(qp->dcqcn_mode);
	min_mbps = tb[RXE_CC_A_QP_MIN_RATE] ? nla_get_u32(tb[RXE_CC_A_QP_MIN_RATE]) :
					      READ_ONCE(qp->min_rate_mbps);
	max_mbps = tb[RXE_CC_A_QP_MAX_RATE] ? nla_get_u32(tb[RXE_CC_A_QP_MAX_RATE]) :
					      READ_ONCE(qp->max_rate_mbps);
	err = rxe_cc_rp_set_overrides(qp, cfg, mode, min_mbps, max_mbps);
	if (err) {
		NL_SET_ERR_MSG(info->extack,
			       "min-rate must not exceed max-rate (the QP's or its device's)");
		goto out;
	}
	/* Last, as it cannot fail: a refused request changes nothing. */
	if (tb[RXE_CC_A_QP_UDP_SPORT])
		WRITE_ONCE(qp->udp_sport_set, nla_get_u16(tb[RXE_CC_A_QP_UDP_SPORT]));
out:
	rcu_read_unlock();
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

/* A device's counters and all its QPs', or, given a QP, that QP's only. */
int rxe_cc_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RXE_CC_A_QP_MAX + 1];
	struct rxe_cc_dev *dev;
	struct rxe_cc_qp *qp;
	int err = 0;

	if (info->attrs[RXE_CC_A_QP]) {
		err = rxe_cc_nl_parse_qp(info, tb);
		if (err)
			return err;
	}
	mutex_lock(&rxe_cc_config_lock);
	rcu_read_lock();
	dev = rxe_cc_nl_dev(info);
	if (!dev) {
		err = -ENODEV;
	} else if (info->attrs[RXE_CC_A_QP]) {
		qp = rxe_cc_nl_qp(info, dev, tb);
		if (qp)
			rxe_cc_qp_stats_reset(qp);
		else
			err = -ENOENT;
	} else {
		rxe_cc_dev_stats_reset(dev);
	}
	rcu_read_unlock();
	mutex_unlock(&rxe_cc_config_lock);
	return err;
}

#ifdef RXE_CC_NO_SPLIT_OPS
/*
 * 6.1: one genl_ops per command. A command's do and dump are neighbours in
 * the split table and share an op, with the do's policy: qp-get's is the
 * dump's and a QP nest, which a dump ignores.
 */
static struct genl_ops rxe_cc_ops[ARRAY_SIZE(rxe_cc_nl_ops)];

static unsigned int rxe_cc_fold_split_ops(void)
{
	const u8 caps = GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(rxe_cc_nl_ops); i++) {
		const struct genl_split_ops *split = &rxe_cc_nl_ops[i];
		struct genl_ops *op;

		if (!n || rxe_cc_ops[n - 1].cmd != split->cmd)
			n++;
		op = &rxe_cc_ops[n - 1];
		op->cmd = split->cmd;
		op->flags |= split->flags & ~caps;
		op->validate |= split->validate;
		if (split->doit) {
			op->doit = split->doit;
			op->policy = split->policy;
			op->maxattr = split->maxattr;
		} else {
			op->start = split->start;
			op->dumpit = split->dumpit;
			op->done = split->done;
			if (!op->policy) {
				op->policy = split->policy;
				op->maxattr = split->maxattr;
			}
		}
	}
	return n;
}
#endif

static const struct genl_multicast_group rxe_cc_mcgrps[] = {
	[RXE_CC_NLGRP_MONITOR] = { .name = RXE_CC_MCGRP_MONITOR },
};

/* New: every command is strictly validated (resv_start_op 0). */
static struct genl_family rxe_cc_genl __ro_after_init = {
	.name = RXE_CC_FAMILY_NAME,
	.version = RXE_CC_FAMILY_VERSION,
	.maxattr = RXE_CC_A_MAX,
	.netnsok = true,
	.module = THIS_MODULE,
#ifdef RXE_CC_NO_SPLIT_OPS
	.ops = rxe_cc_ops,
#else
	.split_ops = rxe_cc_nl_ops,
	.n_split_ops = ARRAY_SIZE(rxe_cc_nl_ops),
#endif
	.mcgrps = rxe_cc_mcgrps,
	.n_mcgrps = ARRAY_SIZE(rxe_cc_mcgrps),
};

int rxe_cc_netlink_init(void)
{
	int err;

#ifdef RXE_CC_NO_SPLIT_OPS
	rxe_cc_genl.n_ops = rxe_cc_fold_split_ops();
#endif
	err = genl_register_family(&rxe_cc_genl);
	if (!err)
		rxe_cc_monitor_start(&rxe_cc_genl);
	return err;
}

void rxe_cc_netlink_exit(void)
{
	rxe_cc_monitor_stop();
	genl_unregister_family(&rxe_cc_genl);
}
