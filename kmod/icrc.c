// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 invariant CRC.
 *
 * CRC-32 (reflected Ethernet polynomial) over a pseudo packet: eight bytes
 * of ones standing for the LRH that RoCEv2 does not carry, then IP, UDP, BTH
 * and payload, with every field a router may rewrite set to ones first (IPv4
 * TOS, TTL and checksum; IPv6 traffic class, flow label and hop limit; the
 * UDP checksum; the BTH byte holding FECN/BECN). ECN marking therefore never
 * invalidates it.
 */

#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>

#include "roce.h"

/* CRC-32 of eight 0xff bytes from a seed of all ones: the masked LRH. */
#define ROCE_ICRC_LRH_SEED	0xdebb20e3

__le32 roce_icrc(const struct sk_buff *skb)
{
	u8 pseudo[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + ROCE_BTH_BYTES];
	unsigned int ip_len, hdr_len, rest;
	struct roce_bth *bth;
	struct udphdr *udph;
	u32 crc;

	if (ip_hdr(skb)->version == 4) {
		struct iphdr *iph = (struct iphdr *)pseudo;

		ip_len = sizeof(*iph);
		memcpy(pseudo, skb->data, ip_len + sizeof(*udph) + ROCE_BTH_BYTES);
		iph->tos = 0xff;
		iph->ttl = 0xff;
		iph->check = (__force __sum16)0xffff;
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)pseudo;

		ip_len = sizeof(*ip6h);
		memcpy(pseudo, skb->data, ip_len + sizeof(*udph) + ROCE_BTH_BYTES);
		ip6h->priority = 0xf;
		memset(ip6h->flow_lbl, 0xff, sizeof(ip6h->flow_lbl));
		ip6h->hop_limit = 0xff;
	}
	udph = (struct udphdr *)(pseudo + ip_len);
	udph->check = (__force __sum16)0xffff;
	bth = (struct roce_bth *)(udph + 1);
	bth->resv8a = 0xff;

	hdr_len = ip_len + sizeof(*udph) + ROCE_BTH_BYTES;
	crc = crc32_le(ROCE_ICRC_LRH_SEED, pseudo, hdr_len);
	rest = skb->len - hdr_len - ROCE_ICRC_BYTES;
	crc = crc32_le(crc, skb->data + hdr_len, rest);
	return cpu_to_le32(~crc);
}
