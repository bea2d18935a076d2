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
from cnp_check import ETH_IPV4, ETH_IPV6, icrc, packets  # noqa: E402


def check(frame, sport):
    """Problems with one captured frame, as strings."""
    eth_type = struct.unpack("!H", frame[12:14])[0]
    ip = frame[14:]
    if eth_type == ETH_IPV4:
        v6, ip_len = False, (ip[0] & 0x0F) * 4
        ip = ip[:struct.unpack("!H", ip[2:4])[0]]
    elif eth_type == ETH_IPV6:
        v6, ip_len = True, 40
        ip = ip[:40 + struct.unpack("!H", ip[4:6])[0]]
    else:
        return ["not IP (ethertype %#06x)" % eth_type]
    src, dst = struct.unpack("!HH", ip[ip_len:ip_len + 4])
    if dst != 4791:
        return ["UDP port %d, not RoCEv2's 4791" % dst]
    problems = []
    if sport is not None and src != sport:
        problems.append("UDP source port %d, want %d" % (src, sport))
    got = struct.unpack("<I", ip[-4:])[0]
    want = icrc(ip[:-4], v6)
    if got != want:
        problems.append("ICRC %08x, want %08x" % (got, want))
    return problems


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
