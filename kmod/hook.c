// SPDX-License-Identifier: GPL-2.0
/*
 * The packet path: netfilter hooks on RoCEv2 (UDP 4791), IPv4 and IPv6, in
 * every network namespace.
 *
 * Egress (LOCAL_OUT, last): rxe sends each packet from its QP's kernel UDP
 * socket, so the socket names the QP. Requests of QPs under DCQCN are marked
 * ECN-capable and paced; responses (ACKs, READ and atomic responses) pass at
 * once. Our own CNPs have no socket and pass untouched.
 *
 * Ingress (LOCAL_IN): CNPs are consumed here and fed to the reaction point
 * (rxe does not know opcode 0x81 and would drop them); CE-marked data
 * packets make the notification point answer with a CNP.
 *
 * Same-device loopback (a QP talking to a QP of the same rxe device) never
 * enters the IP stack, so it is neither seen nor paced nor counted here.
 *
 * The packet path is inlined into the netfilter entry points (the timed
 * variant calls a copy of its own): under emulation a call and its return
 * cost as much as what the path does in between, and the benchmark's
 * throughput is an instruction count.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <rdma/ib_verbs.h>

#include "roce.h"
#include "rxe_cc.h"

/*
 * Finds the BTH of a RoCEv2 packet whose IP header is at skb->data.
 * Returns 0, -ENOENT for anything that is not RoCEv2 (not our business),
 * -EINVAL for RoCEv2 too short to hold a BTH and an ICRC.
 */
static __always_inline int roce_parse(struct sk_buff *skb, struct roce_pkt *pkt)
{
	struct udphdr _udph, *udph;
	const struct roce_bth *bth;
	unsigned int ip_len;

	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return -ENOENT;
		ip_len = iph->ihl * 4;
		pkt->v6 = false;
		pkt->ecn = iph->tos & INET_ECN_MASK;
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = ipv6_hdr(skb);

		/* rxe sends no extension headers. */
		if (ip6h->nexthdr != IPPROTO_UDP)
			return -ENOENT;
		ip_len = sizeof(*ip6h);
		pkt->v6 = true;
		pkt->ecn = ipv6_get_dsfield(ip6h) & INET_ECN_MASK;
	} else {
		return -ENOENT;
	}

	udph = skb_header_pointer(skb, ip_len, sizeof(_udph), &_udph);
	if (!udph || udph->dest != htons(ROCE_V2_UDP_DPORT))
		return -ENOENT;
	if (ntohs(udph->len) < sizeof(*udph) + ROCE_BTH_BYTES + ROCE_ICRC_BYTES ||
	    skb->len < ip_len + ntohs(udph->len))
		return -EINVAL;
	pkt->udp_len = ntohs(udph->len) - sizeof(*udph);
	pkt->sport = ntohs(udph->source);
	pkt->bth_off = ip_len + sizeof(*udph);
	/* A linear BTH (the usual case) is copied inline, without a call. */
	bth = skb_header_pointer(skb, pkt->bth_off, sizeof(pkt->bth), &pkt->bth);
	if (!bth)
		return -EINVAL;
	if (bth != &pkt->bth)
		pkt->bth = *bth;
	return 0;
}

/*
 * The number of the QP that sent SKB from its rxe socket. sk_user_data of
 * the socket is the QP itself on 6.1..6.9, 6.17+ and late 6.12.y, but its
 * pool index (which equals the QP number for rxe) on 6.10..6.16: a value
 * that is not a kernel address is an index. As a pointer it is only trusted
 * once its first field, ib_qp->device, is the device the packet leaves by.
 */
static __always_inline bool rxe_cc_skb_qpn(const struct sk_buff *skb,
					   const struct rxe_cc_dev *dev, u32 *qpn)
{
	const struct sock *sk = skb->sk;
	unsigned long ud;
	const struct ib_qp *ibqp;

	if (!sk || !sk_fullsock(sk) || !sk->sk_kern_sock || sk->sk_protocol != IPPROTO_UDP)
		return false;
	ud = (unsigned long)rcu_dereference_sk_user_data(sk);
	if (!ud)
		return false;
	if (ud <= U32_MAX) {
		*qpn = ud;
		return true;
	}
	ibqp = (const struct ib_qp *)ud;
	if (READ_ONCE(ibqp->device) != dev->ibdev)
		return false;
	*qpn = ibqp->qp_num;
	return true;
}

static __always_inline void rxe_cc_set_ect(struct sk_buff *skb, bool v6)
{
	if (v6)
		ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK, INET_ECN_ECT_0);
	else
		ipv4_change_dsfield(ip_hdr(skb), (u8)~INET_ECN_MASK, INET_ECN_ECT_0);
}

/*
 * hook_timing=1 makes every hook call on an rxe device add its duration to
 * the device's hook-tx/rx counters, for the benchmark. Off, it costs a
 * patched-out branch.
 */
static DEFINE_STATIC_KEY_FALSE(rxe_cc_hook_timing);

static int hook_timing_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	if (on && !static_key_enabled(&rxe_cc_hook_timing))
		static_branch_enable(&rxe_cc_hook_timing);
	else if (!on && static_key_enabled(&rxe_cc_hook_timing))
		static_branch_disable(&rxe_cc_hook_timing);
	return 0;
}

static int hook_timing_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", static_key_enabled(&rxe_cc_hook_timing));
}

static const struct kernel_param_ops hook_timing_ops = {
	.set = hook_timing_set,
	.get = hook_timing_get,
};
module_param_cb(hook_timing, &hook_timing_ops, NULL, 0644);
MODULE_PARM_DESC(hook_timing, "count the time spent in the hooks per device (0/1)");

/* Each hook's time counter is followed by its packet counter. */
static_assert(RXE_CC_C_HOOK_TX_PACKETS - RXE_CC_C_HOOK_TX_NS == 1);
static_assert(RXE_CC_C_HOOK_RX_PACKETS - RXE_CC_C_HOOK_RX_NS == 1);

typedef unsigned int (*rxe_cc_hook_fn)(struct sk_buff *skb, const struct nf_hook_state *state);

/* Runs HOOK and adds its time to NDEV's NS_STAT, if NDEV is an rxe device. */
static unsigned int rxe_cc_timed(rxe_cc_hook_fn hook, struct sk_buff *skb,
				 const struct nf_hook_state *state,
				 const struct net_device *ndev, enum rxe_cc_counter ns_stat)
{
	u64 start_ns = ktime_get_ns();
	unsigned int verdict = hook(skb, state);
	u64 ns = ktime_get_ns() - start_ns;
	struct rxe_cc_dev *dev = ndev ? rxe_cc_dev_by_netdev(ndev) : NULL;

	if (dev) {
		rxe_cc_dev_count(dev, ns_stat, ns);
		rxe_cc_dev_count(dev, ns_stat + 1, 1);
	}
	return verdict;
}

static __always_inline unsigned int __rxe_cc_egress(struct sk_buff *skb,
						    const struct nf_hook_state *state)
{
	struct rxe_cc_config *cfg;
	struct rxe_cc_dev *dev;
	struct rxe_cc_qp *qp;
	struct roce_pkt pkt;
	u32 qpn, remote_qpn;
	bool request;
	u16 port;

	if (!skb->sk || !state->out)
		return NF_ACCEPT;
	dev = rxe_cc_dev_by_netdev(state->out);
	if (!dev || !rxe_cc_skb_qpn(skb, dev, &qpn))
		return NF_ACCEPT;
	if (roce_parse(skb, &pkt))
		return NF_ACCEPT;

	qp = rxe_cc_qp_get_or_create(dev, qpn, skb->sk);
	if (!qp)
		return NF_ACCEPT;
	cfg = rxe_cc_cfg(dev);
	request = !roce_opcode_is_response(pkt.bth.opcode);

	WRITE_ONCE(qp->last_seen, jiffies);
	remote_qpn = roce_bth_dest_qp(&pkt.bth);
	/*
	 * An RC QP's peer and UDP source port never change once it is
	 * connected: the lock is only taken to learn them (an unlocked look
	 * that races with the learning just learns again).
	 */
	if (unlikely(READ_ONCE(qp->remote_qpn) != remote_qpn ||
		     READ_ONCE(qp->udp_sport) != pkt.sport ||
		     !roce_pkt_daddr_is(skb, &pkt, &qp->peer))) {
		spin_lock_bh(&qp->lock);
		qp->remote_qpn = remote_qpn;
		roce_pkt_daddr(skb, &pkt, &qp->peer);
		qp->peer_v6 = pkt.v6;
		qp->transport = roce_opcode_transport(pkt.bth.opcode);
		WRITE_ONCE(qp->udp_sport, pkt.sport);
		spin_unlock_bh(&qp->lock);
	}
	port = READ_ONCE(qp->udp_sport_set);
	if (unlikely(port) && rxe_cc_set_sport(skb, &pkt, port))
		rxe_cc_dev_count(dev, RXE_CC_C_UDP_SPORT_FAILED, 1);
	/*
	 * Requests are ECN-capable whenever rxe_cc runs, as on a NIC with ECN
	 * on for the priority; whether CNPs are acted on is the RP's choice.
	 * The application's own ECN choice stands.
	 */
	if (request && pkt.ecn == INET_ECN_NOT_ECT)
		rxe_cc_set_ect(skb, pkt.v6);
	if (!request || !rxe_cc_qp_paced(qp, cfg) ||
	    (rxe_cc_qp_at_rest_at_line(qp, cfg) && rxe_cc_port_take(dev, cfg, skb->len))) {
		rxe_cc_qp_count_tx(qp, skb->len);
		return NF_ACCEPT;
	}
	return rxe_cc_pace(qp, cfg, skb, state);
}

static unsigned int rxe_cc_egress(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	if (static_branch_unlikely(&rxe_cc_hook_timing))
		return rxe_cc_timed(__rxe_cc_egress, skb, state, state->out,
				    RXE_CC_C_HOOK_TX_NS);
	return __rxe_cc_egress(skb, state);
}

static __always_inline unsigned int __rxe_cc_ingress(struct sk_buff *skb,
						     const struct nf_hook_state *state)
{
	struct rxe_cc_config *cfg;
	struct rxe_cc_dev *dev;
	struct rxe_cc_qp *qp;
	struct roce_pkt pkt;
	u32 qpn;
	int err;

	if (!state->in)
		return NF_ACCEPT;
	dev = rxe_cc_dev_by_netdev(state->in);
	if (!dev)
		return NF_ACCEPT;
	err = roce_parse(skb, &pkt);
	if (err == -ENOENT)
		return NF_ACCEPT;
	if (err || !roce_opcode_is_known(pkt.bth.opcode)) {
		/* rxe drops these itself; we only count them. */
		rxe_cc_dev_count(dev, RXE_CC_C_MALFORMED, 1);
		return NF_ACCEPT;
	}
	cfg = rxe_cc_cfg(dev);
	qpn = roce_bth_dest_qp(&pkt.bth);

	if (pkt.bth.opcode == ROCE_OPCODE_CNP) {
		rxe_cc_rp_cnp(dev, cfg, skb, &pkt);
		consume_skb(skb);
		return NF_STOLEN;
	}

	qp = rxe_cc_qp_lookup(dev, qpn);
	if (!qp) {
		/* Not one of our QPs yet: no peer QP to send a CNP to. */
		rxe_cc_dev_count(dev, RXE_CC_C_UNKNOWN_QP, 1);
		if (pkt.ecn == INET_ECN_CE) {
			rxe_cc_dev_count(dev, RXE_CC_C_NP_ECN_MARKED_ROCE_PACKETS, 1);
			rxe_cc_dev_count(dev, RXE_CC_C_NP_CNP_UNRESOLVED, 1);
		}
		return NF_ACCEPT;
	}
	WRITE_ONCE(qp->last_seen, jiffies);
	rxe_cc_qp_count_rx(qp, skb->len);
	if (pkt.ecn == INET_ECN_CE)
		rxe_cc_np_ce(dev, cfg, qp, skb, &pkt);
	return NF_ACCEPT;
}

static unsigned int rxe_cc_ingress(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	if (static_branch_unlikely(&rxe_cc_hook_timing))
		return rxe_cc_timed(__rxe_cc_ingress, skb, state, state->in,
				    RXE_CC_C_HOOK_RX_NS);
	return __rxe_cc_ingress(skb, state);
}

static const struct nf_hook_ops rxe_cc_nf_ops[] = {
	{
		.hook = rxe_cc_egress,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_OUT,
		/* Last, so that no later hook is skipped when we re-inject. */
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = rxe_cc_ingress,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = rxe_cc_egress,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_OUT,
		.priority = NF_IP6_PRI_LAST,
	},
	{
		.hook = rxe_cc_ingress,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP6_PRI_LAST,
	},
};

static int __net_init rxe_cc_net_init(struct net *net)
{
	return nf_register_net_hooks(net, rxe_cc_nf_ops, ARRAY_SIZE(rxe_cc_nf_ops));
}

static void __net_exit rxe_cc_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rxe_cc_nf_ops, ARRAY_SIZE(rxe_cc_nf_ops));
}

static struct pernet_operations rxe_cc_net_ops = {
	.init = rxe_cc_net_init,
	.exit = rxe_cc_net_exit,
};

int rxe_cc_hooks_init(void)
{
	return register_pernet_subsys(&rxe_cc_net_ops);
}

void rxe_cc_hooks_exit(void)
{
	unregister_pernet_subsys(&rxe_cc_net_ops);
}
