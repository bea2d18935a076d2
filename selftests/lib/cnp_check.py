#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check captured RoCEv2 CNPs against IBTA RoCEv2 Annex A17, with an ICRC
computed here from the standard CRC-32 (zlib), independently of rxe_cc.

cnp_check.py PCAP [--dscp N] [--dest-qp N] [--min-gap-us N [--gap-window K]]
Reads a pcap (Ethernet link type) of CNPs; prints one line per problem and a
summary; exits 1 if any CNP is wrong or none was found. With --min-gap-us,
any K consecutive gaps (default 1) must together span K times N us: a
capture time late by up to (K - 1) N us, a vCPU the host held up, passes.
"""
import argparse
import struct
import sys
import zlib

ETH_IPV4, ETH_IPV6 = 0x0800, 0x86DD


def icrc(ip_and_rest, v6):
    """The ICRC of a RoCEv2 packet (IP header onwards, ICRC excluded)."""
    pkt = bytearray(ip_and_rest)
    if v6:
        pkt[0] = (pkt[0] & 0xF0) | 0x0F          # traffic class, high nibble
        pkt[1:4] = b"\xff\xff\xff"               # traffic class low + flow label
        pkt[7] = 0xFF                            # hop limit
        udp = 40
    else:
        ihl = (pkt[0] & 0x0F) * 4
        pkt[1] = 0xFF                            # TOS
        pkt[8] = 0xFF                            # TTL
        pkt[10:12] = b"\xff\xff"                 # header checksum
        udp = ihl
    pkt[udp + 6:udp + 8] = b"\xff\xff"           # UDP checksum
    pkt[udp + 8 + 4] = 0xFF                      # BTH resv8a (FECN/BECN)
    # zlib's CRC-32 starts from all ones and inverts at the end: the eight
    # bytes of ones stand for the LRH RoCEv2 does not carry.
    return zlib.crc32(b"\xff" * 8 + bytes(pkt)) & 0xFFFFFFFF


def packets(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    scale = 1e-9 if magic in (0xA1B23C4D, 0x4D3CB2A1) else 1e-6
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(endian + "IIII", data[off:off + 16])
        yield sec + frac * scale, data[off + 16:off + 16 + incl]
        off += 16 + incl


def ip_packet(frame):
    """A captured Ethernet frame's IP packet, cut to the length its header
    gives, as (packet, v6, offset of the UDP header, TOS); None if the frame
    is not IP."""
    eth_type = struct.unpack("!H", frame[12:14])[0]
    ip = frame[14:]
    if eth_type == ETH_IPV4:
        return ip[:struct.unpack("!H", ip[2:4])[0]], False, (ip[0] & 0x0F) * 4, ip[1]
    if eth_type == ETH_IPV6:
        return (ip[:40 + struct.unpack("!H", ip[4:6])[0]], True, 40,
                ((ip[0] & 0x0F) << 4) | (ip[1] >> 4))
    return None


def icrc_problems(ip, v6):
    """The ICRC that ends IP packet IP against the one computed here."""
    got = struct.unpack("<I", ip[-4:])[0]
    want = icrc(ip[:-4], v6)
    return [] if got == want else ["ICRC %08x, want %08x" % (got, want)]


def check(frame, args):
    """Problems with one captured frame, as strings."""
    parsed = ip_packet(frame)
    if parsed is None:
        return ["not IP"]
    ip, v6, udp, tos = parsed
    problems = []
    dport, ulen = struct.unpack("!HH", ip[udp + 2:udp + 6])
    payload = ip[udp + 8:]
    if dport != 4791:
        problems.append("UDP port %d" % dport)
    if ulen != 8 + 32 or len(payload) != 32:
        problems.append("UDP length %d, payload %d (want 40, 32)" % (ulen, len(payload)))
        return problems
    if tos & 3:
        problems.append("ECN %d (a CNP is not ECN-capable)" % (tos & 3))
    if args.dscp is not None and tos >> 2 != args.dscp:
        problems.append("DSCP %d, want %d" % (tos >> 2, args.dscp))
    opcode, flags, pkey, resv8a = payload[0], payload[1], payload[2:4], payload[4]
    dest_qp = int.from_bytes(payload[5:8], "big")
    apsn = payload[8:12]
    if opcode != 0x81:
        problems.append("opcode 0x%02x" % opcode)
    if flags != 0:
        problems.append("SE/M/PadCnt/TVer 0x%02x, want 0" % flags)
    if pkey != b"\xff\xff":
        problems.append("P_Key %s" % pkey.hex())
    if resv8a != 0x40:
        problems.append("FECN/BECN byte 0x%02x, want 0x40 (BECN)" % resv8a)
    if apsn != b"\x00" * 4:
        problems.append("AckReq/PSN %s, want 0" % apsn.hex())
    if payload[12:28] != b"\x00" * 16:
        problems.append("reserved bytes not zero")
    if args.dest_qp is not None and dest_qp != args.dest_qp:
        problems.append("DestQP %d, want %d" % (dest_qp, args.dest_qp))
    return problems + icrc_problems(ip, v6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap")
    ap.add_argument("--dscp", type=int)
    ap.add_argument("--dest-qp", type=int)
    ap.add_argument("--min-gap-us", type=float)
    ap.add_argument("--gap-window", type=int, default=1)
    args = ap.parse_args()
    if args.gap_window < 1:
        ap.error("--gap-window must be at least 1")

    count = bad = 0
    times = []
    for ts, frame in packets(args.pcap):
        count += 1
        times.append(ts)
        for p in check(frame, args):
            bad += 1
            if bad <= 10:
                print("CNP %d: %s" % (count, p))
    gaps = [(b - a) * 1e6 for a, b in zip(times, times[1:])]
    k = args.gap_window
    # The shortest span of K consecutive gaps, per gap.
    spans = [(times[i + k] - times[i]) * 1e6 / k for i in range(len(times) - k)]
    if args.min_gap_us is not None and spans and min(spans) < args.min_gap_us:
        bad += 1
        print("CNPs %.1f us apart over %d gaps, the spacing is %.1f us" % (
            min(spans), k, args.min_gap_us))
    print("%d CNPs checked, %d problems%s" % (
        count, bad, ", closest %.1f us apart" % min(gaps) if gaps else ""))
    return 1 if bad or not count else 0


if __name__ == "__main__":
    sys.exit(main())
