#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""pkt_fuzz.py SRC DST SEED COUNT [--qpn N]...

Send COUNT broken RoCEv2 packets over IPv4 from SRC to DST's UDP port 4791,
for rxe_cc's receive hook to parse: each starts from a well-formed packet
(a CNP to one of the QPNs, or an RDMA WRITE) with a valid ICRC and is then
damaged: cut anywhere, random bytes in the BTH or the payload, an opcode
RoCE does not define, an ICRC that does not match, a UDP length that lies,
IP options, an IP fragment, the ECN field set to CE. Needs CAP_NET_RAW.
Prints how many of each kind it sent. The same SEED sends the same packets.
"""
import argparse
import collections
import os
import random
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cnp_check import icrc  # noqa: E402

ECN_CE = 3


def ipv4(src, dst, payload, tos=0, options=b"", frag=0x4000, udp_len=None):
    udp = struct.pack("!HHHH", 49152, 4791, udp_len if udp_len is not None else 8 + len(payload), 0)
    ihl = 5 + len(options) // 4
    total = ihl * 4 + len(udp) + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos, total, 0, frag, 64, socket.IPPROTO_UDP, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    return hdr + options + udp + payload


def transport(rng, qpns):
    """A well-formed BTH onwards (no ICRC): a CNP or an RDMA WRITE."""
    qp = rng.choice(qpns).to_bytes(3, "big")
    if rng.random() < 0.6:
        return bytes([0x81, 0, 0xFF, 0xFF, 0x40]) + qp + b"\0" * 4 + b"\0" * 16
    psn = rng.getrandbits(24).to_bytes(3, "big")
    reth = rng.getrandbits(64).to_bytes(8, "big") + b"\0\0\0\x01" + struct.pack("!I", 64)
    return bytes([0x0A, 0, 0xFF, 0xFF, 0]) + qp + b"\x80" + psn + reth + rng.randbytes(64)


def with_icrc(src, dst, body, tos):
    """BODY in an IPv4/UDP packet with the ICRC it should carry."""
    pkt = ipv4(src, dst, body + b"\0\0\0\0", tos)[:-4]
    return pkt + struct.pack("<I", icrc(pkt, False))


def damaged(rng, src, dst, qpns):
    body = transport(rng, qpns)
    tos = ECN_CE if rng.random() < 0.3 else rng.choice([0, 1, 2])
    kind = rng.choice(["cut", "bth-bytes", "payload-bytes", "opcode", "icrc", "udp-len",
                       "ip-options", "fragment", "ce-only"])
    if kind == "cut":
        pkt = with_icrc(src, dst, body, tos)
        return kind, pkt[:rng.randint(20, len(pkt) - 1)]
    if kind == "bth-bytes":
        b = bytearray(body)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(12)] = rng.getrandbits(8)
        return kind, with_icrc(src, dst, bytes(b), tos)
    if kind == "payload-bytes":
        b = bytearray(body)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(12, len(b))] = rng.getrandbits(8)
        return kind, with_icrc(src, dst, bytes(b), tos)
    if kind == "opcode":
        return kind, with_icrc(src, dst, bytes([rng.choice([0x1F, 0x60, 0x7F, 0xC0, 0xFE])]) + body[1:], tos)
    if kind == "icrc":
        pkt = bytearray(with_icrc(src, dst, body, tos))
        pkt[-rng.randint(1, 4)] ^= 1 << rng.randrange(8)
        return kind, bytes(pkt)
    if kind == "udp-len":
        lie = rng.choice([0, 1, 7, 8, 9, 20, 8 + len(body) + 4 + 1, 0xFFFF])
        return kind, ipv4(src, dst, body + b"\0\0\0\0", tos, udp_len=lie)
    if kind == "ip-options":
        return kind, ipv4(src, dst, body + b"\0\0\0\0", tos, options=b"\x01" * 4 * rng.randint(1, 10))
    if kind == "fragment":
        return kind, ipv4(src, dst, body + b"\0\0\0\0", tos, frag=rng.choice([0x2000, 0x0001, 0x2001]))
    return kind, with_icrc(src, dst, body, ECN_CE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--qpn", type=int, action="append", default=[])
    args = ap.parse_args()
    rng = random.Random(args.seed)
    qpns = args.qpn or [0xABCDE]
    sent = collections.Counter()
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    for _ in range(args.count):
        kind, pkt = damaged(rng, args.src, args.dst, qpns)
        try:
            s.sendto(pkt, (args.dst, 0))
            sent[kind] += 1
        except OSError as e:
            # The local stack refuses some lies before the wire.
            sent[f"{kind} (refused here: {e.strerror})"] += 1
    print("# sent: " + ", ".join(f"{k} {v}" for k, v in sorted(sent.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
