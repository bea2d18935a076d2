#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-made RoCEv2 packets over IPv4, for bad-input tests.

roce_send.py SRC DST KIND [--dest-qp N] [--count N] [--interval-ms MS]
KIND: short    a UDP/4791 datagram too short for a BTH and an ICRC
      cnp      a well-formed CNP (valid ICRC) to --dest-qp
      bad-icrc the same CNP with its ICRC flipped
      opcode   a BTH with an opcode RoCE does not define (0xfe)
--count sends the packet N times (default once; 0: until killed),
--interval-ms apart (default 1).
Needs CAP_NET_RAW: the IP header is built here so that the ICRC, which
covers it, can be computed.
"""
import argparse
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cnp_check import icrc  # noqa: E402


def ipv4_packet(src, dst, udp_payload):
    udp = struct.pack("!HHHH", 49152, 4791, 8 + len(udp_payload), 0) + udp_payload
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64,
                      socket.IPPROTO_UDP, 0, socket.inet_aton(src), socket.inet_aton(dst))
    return hdr + udp


def with_icrc(src, dst, transport, flip=False):
    """TRANSPORT (BTH onwards, no ICRC) in an IPv4 packet with its ICRC."""
    body = ipv4_packet(src, dst, transport + b"\0\0\0\0")[:-4]
    crc = icrc(body, False) ^ (1 if flip else 0)
    return body + struct.pack("<I", crc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("kind", choices=["short", "cnp", "bad-icrc", "opcode"])
    ap.add_argument("--dest-qp", type=int, default=0xABCDE)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--interval-ms", type=float, default=1)
    args = ap.parse_args()

    qp = args.dest_qp.to_bytes(3, "big")
    cnp = bytes([0x81, 0, 0xFF, 0xFF, 0x40]) + qp + b"\0" * 4 + b"\0" * 16
    if args.kind == "short":
        pkt = ipv4_packet(args.src, args.dst, b"\x81\0\xff\xff")
    elif args.kind == "cnp":
        pkt = with_icrc(args.src, args.dst, cnp)
    elif args.kind == "bad-icrc":
        pkt = with_icrc(args.src, args.dst, cnp, flip=True)
    else:
        pkt = with_icrc(args.src, args.dst, bytes([0xFE]) + cnp[1:])

    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    sent = 0
    while not args.count or sent < args.count:
        if sent:
            time.sleep(args.interval_ms / 1000)
        s.sendto(pkt, (args.dst, 0))
        sent += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
