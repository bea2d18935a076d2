#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the ICRC of captured RoCEv2 packets, computed here with zlib's CRC-32
(cnp_check.icrc), independently of rxe and rxe_cc.

icrc_check.py PCAP [--sport N]
Reads a pcap (Ethernet link type, whole packets) of RoCEv2 packets over
IPv4 or IPv6; with --sport, each must carry that UDP source port. Prints
one line per problem (the first ten) and a summary; exits 1 if any packet
is wrong or none was found.
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cnp_check import icrc_problems, ip_packet, packets  # noqa: E402


def check(frame, sport):
    """Problems with one captured frame, as strings."""
    parsed = ip_packet(frame)
    if parsed is None:
        return ["not IP"]
    ip, v6, udp, _ = parsed
    src, dst = struct.unpack("!HH", ip[udp:udp + 4])
    if dst != 4791:
        return ["UDP port %d, not RoCEv2's 4791" % dst]
    problems = []
    if sport is not None and src != sport:
        problems.append("UDP source port %d, want %d" % (src, sport))
    return problems + icrc_problems(ip, v6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap")
    ap.add_argument("--sport", type=int)
    args = ap.parse_args()
    count = bad = 0
    for _, frame in packets(args.pcap):
        count += 1
        for p in check(frame, args.sport):
            bad += 1
            if bad <= 10:
                print("packet %d: %s" % (count, p))
    print("%d packets checked, %d problems" % (count, bad))
    return 1 if bad or not count else 0


if __name__ == "__main__":
    sys.exit(main())
