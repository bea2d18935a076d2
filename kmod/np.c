// SPDX-License-Identifier: GPL-2.0
/*
 * The notification point: a CE-marked RoCEv2 packet for a local QP is
 * answered with a CNP to the QP that sent it (IBTA RoCEv2 Annex A17): BTH
 * opcode 0x81 with BECN set and DestQP the sender's QP number, 16 reserved
 * bytes, the ICRC; not ECN-capable, DSCP np_cnp_dscp. At most one CNP per
 * np_min_time_between_cnps, per QP as in the paper or per port as the
 * firmware does it. CNPs leave at once: they are never paced.
 */

#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <rdma/ib_verbs.h>

#include "roce.h"
#include "rxe_cc.h"

#define ROCE_CNP_TTL		64
/* Source ports from rxe's range, one per destination QP, as NICs hash them. */
#define ROCE_CNP_SPORT_BASE	0xc000
#define ROCE_CNP_SPORT_BITS	14

static void np_fill_transport(struct sk_buff *skb, unsigned int ip_len, u32 dest_qpn)
{
	struct udphdr *udph = (struct udphdr *)(skb->data + ip_len);
	struct roce_bth *bth = (struct roce_bth *)(udph + 1);

	skb_set_transport_header(skb, ip_len);
	udph->source = htons(ROCE_CNP_SPORT_BASE | hash_32(dest_qpn, ROCE_CNP_SPORT_BITS));
	udph->dest = htons(ROCE_V2_UDP_DPORT);
	udph->len = htons(sizeof(*udph) + ROCE_CNP_PAYLOAD_BYTES);
	bth->opcode = ROCE_OPCODE_CNP;
	bth->pkey = htons(ROCE_DEFAULT_PKEY);
	bth->resv8a = ROCE_BTH_BECN;
	roce_bth_set_dest_qp(bth, dest_qpn);
}

static void np_set_icrc(struct sk_buff *skb)
{
	__le32 icrc = roce_icrc(skb);

	memcpy(skb_tail_pointer(skb) - ROCE_ICRC_BYTES, &icrc, ROCE_ICRC_BYTES);
}

static struct sk_buff *np_alloc(unsigned int ip_len)
{
	unsigned int len = ip_len + sizeof(struct udphdr) + ROCE_CNP_PAYLOAD_BYTES;
	struct sk_buff *skb;

	skb = alloc_skb(LL_MAX_HEADER + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_MAX_HEADER);
	skb_put_zero(skb, len);
	skb_reset_network_header(skb);
	return skb;
}

static int np_send_v4(struct rxe_cc_dev *dev, const struct rxe_cc_np_params *np,
		      const struct sk_buff *data, u32 dest_qpn, u32 prio)
{
	struct net *net = dev_net(dev->ndev);
	struct flowi4 fl4 = {
		.flowi4_oif = dev->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		/* The CNP goes back: from the data's destination to its source. */
		.saddr = ip_hdr(data)->daddr,
		.daddr = ip_hdr(data)->saddr,
	};
	struct sk_buff *skb;
	struct iphdr *iph;
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	skb = np_alloc(sizeof(*iph));
	if (!skb) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = np->cnp_dscp << 2;	/* ECN 00: not ECN-capable */
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = ROCE_CNP_TTL;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = fl4.saddr;
	iph->daddr = fl4.daddr;
	np_fill_transport(skb, sizeof(*iph), dest_qpn);
	np_set_icrc(skb);

	skb->protocol = htons(ETH_P_IP);
	skb->priority = prio;
	skb_dst_set(skb, &rt->dst);
	return ip_local_out(net, NULL, skb);
}

static int np_send_v6(struct rxe_cc_dev *dev, const struct rxe_cc_np_params *np,
		      const struct sk_buff *data, u32 dest_qpn, u32 prio)
{
	struct net *net = dev_net(dev->ndev);
	struct flowi6 fl6 = {
		.flowi6_oif = dev->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.saddr = ipv6_hdr(data)->daddr,
		.daddr = ipv6_hdr(data)->saddr,
	};
	struct ipv6hdr *ip6h;
	struct dst_entry *dst;
	struct sk_buff *skb;
	struct udphdr *udph;
	unsigned int udp_len;

	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error) {
		int err = dst->error;

		dst_release(dst);
		return err;
	}
	skb = np_alloc(sizeof(*ip6h));
	if (!skb) {
		dst_release(dst);
		return -ENOMEM;
	}
	udp_len = sizeof(*udph) + ROCE_CNP_PAYLOAD_BYTES;
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, np->cnp_dscp << 2, 0);
	ip6h->payload_len = htons(udp_len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = ROCE_CNP_TTL;
	ip6h->saddr = fl6.saddr;
	ip6h->daddr = fl6.daddr;
	np_fill_transport(skb, sizeof(*ip6h), dest_qpn);
	np_set_icrc(skb);

	/* UDP over IPv6 needs its checksum; the ICRC does not cover it. */
	udph = udp_hdr(skb);
	udph->check = csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr, udp_len, IPPROTO_UDP,
				      csum_partial(udph, udp_len, 0));
	if (!udph->check)
		udph->check = CSUM_MANGLED_0;

	skb->protocol = htons(ETH_P_IPV6);
	skb->priority = prio;
	skb_dst_set(skb, dst);
	return ip6_local_out(net, NULL, skb);
}

/* Is a CNP allowed now, given the spacing? Takes the slot if so. */
static bool np_take_slot(struct rxe_cc_dev *dev, struct rxe_cc_qp *qp,
			 const struct rxe_cc_np_params *np, u64 now)
{
	u64 gap = (u64)np->min_time_between_cnps_us * NSEC_PER_USEC;
	u64 last;

	if (np->per_port) {
		last = atomic64_read(&dev->np_last_cnp_ns);
		if (last && now - last < gap)
			return false;
		return atomic64_cmpxchg(&dev->np_last_cnp_ns, last, now) == last;
	}
	lockdep_assert_held(&qp->lock);
	if (qp->last_cnp_ns && now - qp->last_cnp_ns < gap)
		return false;
	qp->last_cnp_ns = now;
	return true;
}

void rxe_cc_np_ce(struct rxe_cc_dev *dev, struct rxe_cc_config *cfg,
		  struct rxe_cc_qp *qp, struct sk_buff *skb, const struct roce_pkt *pkt)
{
	const struct rxe_cc_np_params *np = &cfg->np;
	u64 now = ktime_get_ns();
	bool send = false;
	u32 dest_qpn, prio;
	int err;

	spin_lock_bh(&qp->lock);
	rxe_cc_qp_count(qp, RXE_CC_C_NP_ECN_MARKED_ROCE_PACKETS, 1);
	dest_qpn = qp->remote_qpn;
	if (np->enable) {
		if (dest_qpn == RXE_CC_QPN_UNKNOWN)
			rxe_cc_qp_count(qp, RXE_CC_C_NP_CNP_UNRESOLVED, 1);
		else if (!np_take_slot(dev, qp, np, now))
			rxe_cc_qp_count(qp, RXE_CC_C_NP_CNP_SUPPRESSED, 1);
		else
			send = true;
	}
	spin_unlock_bh(&qp->lock);
	if (!send)
		return;

	prio = np->cnp_prio_mode ? skb->priority : np->cnp_prio;
	if (pkt->v6)
		err = np_send_v6(dev, np, skb, dest_qpn, prio);
	else
		err = np_send_v4(dev, np, skb, dest_qpn, prio);

	spin_lock_bh(&qp->lock);
	rxe_cc_qp_count(qp, err ? RXE_CC_C_NP_CNP_UNRESOLVED : RXE_CC_C_NP_CNP_SENT, 1);
	spin_unlock_bh(&qp->lock);
	if (!err)
		rxe_cc_monitor_cnp_sent(dev, qp->qpn, dest_qpn, now);
}
