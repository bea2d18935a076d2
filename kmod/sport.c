// SPDX-License-Identifier: GPL-2.0
/*
 * A QP's UDP source port, set by hand.
 *
 * RoCEv2 flows between two hosts differ only in their UDP source port, the
 * entropy ECMP hashes; rxe derives it from the two QP numbers, so some QPs
 * land on one fabric path together while another idles. NICs let the
 * application pick it (the flow label it is folded from); rxe_cc lets the
 * operator set it per QP, as a remedy to show in the lab. The port is
 * covered by the ICRC (only the UDP checksum is masked), so the packet's
 * ICRC is computed again.
 */

#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/checksum.h>

#include "rxe_cc.h"
#include "roce.h"

int rxe_cc_set_sport(struct sk_buff *skb, const struct roce_pkt *pkt, u16 sport)
{
	unsigned int udp_off = pkt->bth_off - sizeof(struct udphdr);
	__be16 port = htons(sport);
	struct udphdr *udph;
	__le32 icrc;
	int err;

	/* The ICRC ends the packet: nothing may follow it. */
	if (skb->len != pkt->bth_off + pkt->udp_len)
		return -EINVAL;
	/* roce_icrc() reads the packet linearly. */
	err = skb_ensure_writable(skb, skb->len);
	if (err)
		return err;
	udph = (struct udphdr *)(skb->data + udp_off);
	/* rxe sends no UDP checksum; one that is there is kept right. */
	if (udph->check) {
		inet_proto_csum_replace2(&udph->check, skb, udph->source, port, false);
		if (!udph->check)
			udph->check = CSUM_MANGLED_0;
	}
	udph->source = port;
	icrc = roce_icrc(skb);
	memcpy(skb->data + pkt->bth_off + pkt->udp_len - ROCE_ICRC_BYTES, &icrc, sizeof(icrc));
	return 0;
}
