/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 on the wire, as far as rxe_cc needs it: the base transport header
 * (BTH), the CNP (IBTA RoCEv2 Annex A17) and the invariant CRC.
 */
#ifndef _RXE_CC_ROCE_H
#define _RXE_CC_ROCE_H

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>

#define ROCE_BTH_BYTES		12
#define ROCE_ICRC_BYTES		4
/* A CNP carries 16 reserved bytes after its BTH. */
#define ROCE_CNP_RSVD_BYTES	16
#define ROCE_CNP_PAYLOAD_BYTES	(ROCE_BTH_BYTES + ROCE_CNP_RSVD_BYTES + ROCE_ICRC_BYTES)

#define ROCE_OPCODE_CNP		0x81	/* RoCEv2's, not InfiniBand's 0x80 */
#define ROCE_DEFAULT_PKEY	0xffff
#define ROCE_BTH_BECN		0x40	/* in the byte after the P_Key */
#define ROCE_QPN_MASK		0x00ffffff

struct roce_bth {
	u8 opcode;
	u8 flags;		/* SE, M, PadCnt, TVer */
	__be16 pkey;
	u8 resv8a;		/* FECN, BECN */
	u8 dest_qp[3];
	__be32 apsn;		/* AckReq and PSN */
};

static inline u32 roce_bth_dest_qp(const struct roce_bth *bth)
{
	return bth->dest_qp[0] << 16 | bth->dest_qp[1] << 8 | bth->dest_qp[2];
}

static inline void roce_bth_set_dest_qp(struct roce_bth *bth, u32 qpn)
{
	bth->dest_qp[0] = qpn >> 16;
	bth->dest_qp[1] = qpn >> 8;
	bth->dest_qp[2] = qpn;
}

/*
 * Opcodes rxe knows: RC (0x00..0x17, FLUSH 0x1c and ATOMIC WRITE 0x1d on
 * newer kernels), UC (0x20..0x2b), UD SEND ONLY (0x64, 0x65), and RoCEv2's
 * CNP. Anything else rxe drops without a trace; we count it as malformed.
 */
static inline bool roce_opcode_is_known(u8 opcode)
{
	return opcode <= 0x17 || opcode == 0x1c || opcode == 0x1d ||
	       (opcode >= 0x20 && opcode <= 0x2b) || opcode == 0x64 || opcode == 0x65 ||
	       opcode == ROCE_OPCODE_CNP;
}

/* The service type (enum rxe_cc_transport): an opcode's top three bits. */
static inline u8 roce_opcode_transport(u8 opcode)
{
	return opcode >> 5;
}

/*
 * Packets a responder sends: RC RDMA READ responses (0x0d..0x10), ACK
 * (0x11) and ATOMIC ACK (0x12). They answer the peer's requests and are
 * never paced: rxe does not bound them, so holding them would be unbounded.
 */
static inline bool roce_opcode_is_response(u8 opcode)
{
	return opcode >= 0x0d && opcode <= 0x12;
}

/*
 * Where a RoCEv2 packet's headers are, once found in an skb whose IP header
 * is at skb->data. The addresses are not copied out: only a CE mark, a CNP
 * or a new peer needs them, not every packet.
 */
struct roce_pkt {
	struct roce_bth bth;
	unsigned int bth_off;	/* from skb->data (the IP header) */
	unsigned int udp_len;	/* UDP payload: BTH .. ICRC */
	bool v6;
	u8 ecn;
	u16 sport;		/* UDP source port, host order */
};

/* The packet's destination address; IPv4 as a mapped address. */
static inline void roce_pkt_daddr(const struct sk_buff *skb, const struct roce_pkt *pkt,
				  struct in6_addr *addr)
{
	if (pkt->v6)
		*addr = ipv6_hdr(skb)->daddr;
	else
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, addr);
}

/* Is ADDR (IPv4 as a mapped address) the packet's source? */
static inline bool roce_pkt_saddr_is(const struct sk_buff *skb, const struct roce_pkt *pkt,
				     const struct in6_addr *addr)
{
	if (pkt->v6)
		return ipv6_addr_equal(&ipv6_hdr(skb)->saddr, addr);
	return ipv6_addr_v4mapped(addr) && addr->s6_addr32[3] == ip_hdr(skb)->saddr;
}

/* Is ADDR (IPv4 as a mapped address) the packet's destination? */
static inline bool roce_pkt_daddr_is(const struct sk_buff *skb, const struct roce_pkt *pkt,
				     const struct in6_addr *addr)
{
	if (pkt->v6)
		return ipv6_addr_equal(&ipv6_hdr(skb)->daddr, addr);
	return ipv6_addr_v4mapped(addr) && addr->s6_addr32[3] == ip_hdr(skb)->daddr;
}

/*
 * The ICRC of a RoCEv2 packet whose IP header starts at skb->data and whose
 * ICRC field is the last ROCE_ICRC_BYTES bytes: computed over the masked
 * pseudo header, ready to be stored as it is (little-endian, inverted).
 */
__le32 roce_icrc(const struct sk_buff *skb);

#endif /* _RXE_CC_ROCE_H */
