#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RoCEv2 through a leaf-spine fabric (clos.sh): two leaves, two spines, one
# host under each leaf, 16 QPs from host 1 to host 2. Their packets differ
# only in the UDP source port rxe derives from the QP numbers, so the
# leaf's five-tuple hash spreads them over both spines while its address
# hash puts them all on one; each flow keeps to one path, the links'
# counters account for every packet host 1 sent, rxe_cc reports the port
# the fabric saw, a QP given another port by rxe_cc moves to the other
# spine with its packets intact, and a spine's downlink works as a
# congestion point whose CE marks come back through the fabric as CNPs.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/clos.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/capture.sh"

SECS=3
QPS=16
PERFTEST_LOG=$ksft_tmp/ecmp-bw.log
PATHS=$ksft_tmp/paths.jsonl
PATHS_L4=$ksft_tmp/paths-l4.jsonl	# the five-tuple hash's run
PINGPONG_PORT=18600
# 3000 took 4 s on an idle host, where the port was set not long before the
# end, and 32 s on a loaded one: twice as many leave time to set it.
PINGPONG_ITERS=6000

# Counters of one run, before and after.
declare -A before after
snapshot() { # ARRAY
	local -n snap=$1
	local s stats

	for s in 1 2; do
		stats=$(clos_link_stats 1 "$s" up packets bytes drops)
		read -r "snap[up$s]" "snap[up${s}_bytes]" "snap[up${s}_drops]" <<<"$stats"
	done
	snap[qp_tx]=$(qp_sum rxe1 tx-packets)
	snap[qp_tx_bytes]=$(qp_sum rxe1 tx-bytes)
	read -r "snap[veth_drops]" <"/sys/class/net/${TOPO_DEV}1/statistics/tx_dropped"
}
delta() { echo $((after[$1] - before[$1])); }

# run_qps HASH: 16 QPs from host 1 to host 2 with the routers hashing by
# HASH; the flows each uplink carried land in $PATHS.
run_qps() {
	local mbps

	clos_hash "$1" && clos_paths_reset 1 || return 1
	snapshot before
	mbps=$(perftest_bw ib_write_bw 1 2 $SECS -q $QPS) || return 1
	snapshot after
	clos_paths 1 >"$PATHS"
	ktap_print_msg "$1 hash: $mbps Mb/s; uplink to spine 1: $(delta up1) packets," \
		"to spine 2: $(delta up2); flows per uplink:" \
		"$(jq -s -c 'group_by(.uplink) | map({(.[0].uplink): length}) | add' "$PATHS")"
}

# all_flows_counted: the leaf counted one flow per QP; if not, the QPs it
# missed, with what rxe_cc counted for them, and the leaf's set as it is.
all_flows_counted() {
	local n

	n=$(jq -s 'length' "$PATHS")
	[ "$n" -eq $QPS ] && return 0
	fail "$n flows counted at the leaf, want $QPS"
	qp_json rxe1 | jq -c --argjson n $QPS --slurpfile seen "$PATHS" \
		'sort_by(.qpn) | .[-$n:][] | select(.["udp-sport"] as $p | $seen | any(.sport == $p) | not) |
		 {qpn, "udp-sport", "tx-packets": .stats["tx-packets"]}' |
		while read -r line; do ktap_print_msg "not counted: $line"; done
	clos_leaf 1 nft list set inet clos paths | while read -r line; do
		ktap_print_msg "leaf: $line"
	done
	return 1
}

# flows_on UPLINK: how many flows crossed UPLINK.
flows_on() {
	jq -s --arg u "$1" '[.[] | select(.uplink == $u)] | length' "$PATHS"
}

l4_spreads() {
	local split

	run_qps l4 && all_flows_counted || return 1
	# One flow on two paths would be reordered, which RoCE takes for loss.
	split=$(jq -s '[group_by(.sport)[] | select(length > 1)] | length' "$PATHS")
	[ "$split" -eq 0 ] || fail "$split flows took both spines" || return 1
	# All 16 on one spine: 2 in 2^16 with a fair hash.
	[ "$(flows_on spine1)" -ge 1 ] && [ "$(flows_on spine2)" -ge 1 ] ||
		fail "the five-tuple hash left a spine unused" || return 1
	cp "$PATHS" "$PATHS_L4"
}

# Every packet the QPs sent left through an uplink, or was dropped on the
# way there (the host's veth, the uplink's queue); the links' bytes carry
# an Ethernet header more than the QPs' counters (IP bytes).
counters_add_up() {
	local up up_bytes lost

	up=$(($(delta up1) + $(delta up2)))
	up_bytes=$(($(delta up1_bytes) + $(delta up2_bytes)))
	lost=$(($(delta up1_drops) + $(delta up2_drops) + $(delta veth_drops)))
	ktap_print_msg "QPs sent $(delta qp_tx) packets, $(delta qp_tx_bytes) IP bytes;" \
		"uplinks carried $up packets, $up_bytes bytes; $lost dropped"
	[ "$(delta qp_tx)" -gt 0 ] || fail "the QPs sent nothing" || return 1
	[ $((up + lost)) -eq "$(delta qp_tx)" ] ||
		fail "uplinks and drops: $((up + lost)) packets, the QPs sent $(delta qp_tx)" ||
		return 1
	[ "$lost" -gt 0 ] || [ "$up_bytes" -eq $(($(delta qp_tx_bytes) + 14 * up)) ] ||
		fail "uplinks carried $up_bytes bytes, want $(delta qp_tx_bytes) + 14 x $up"
}

l3_one_path() {
	run_qps l3 && all_flows_counted || return 1
	[ "$(flows_on spine1)" -eq 0 ] || [ "$(flows_on spine2)" -eq 0 ] ||
		fail "the address hash split one host pair's flows over both spines" || return 1
	[ "$(delta up1)" -eq 0 ] || [ "$(delta up2)" -eq 0 ] ||
		fail "both uplinks carried packets: $(delta up1) and $(delta up2)"
}

# The ports the leaf saw are the ones rxe_cc reports for host 1's QPs, and
# qp show udp-sport finds each QP by its port.
sport_reported() {
	local wire reported port qpn

	wire=$(jq -s -c 'map(.sport) | sort' "$PATHS")
	# The last run's QPs: the highest numbers.
	reported=$(qp_json rxe1 | jq -c --argjson n $QPS \
		'sort_by(.qpn) | .[-$n:] | map(.["udp-sport"]) | sort')
	ktap_print_msg "ports at the leaf: $wire"
	[ "$wire" = "$reported" ] || fail "rxe_cc reports $reported" || return 1
	port=$(jq -s '.[0].sport' "$PATHS")
	qpn=$(qp_json rxe1 | jq --argjson p "$port" '[.[] | select(.["udp-sport"] == $p)][0].qpn')
	[ "$(rocectl -j qp show dev rxe1 udp-sport "$port" | jq -c 'map(.qpn)')" = "[$qpn]" ] ||
		fail "qp show udp-sport $port does not list QP $qpn alone"
}

# Both spines' downlinks to leaf 2 mark ECN at 20 Mb/s each: host 2's NP
# answers the marks with CNPs that find host 1 through the fabric. Four
# QPs, whose windows (rxe lets an RC QP have 128 packets unacknowledged:
# 4 x 128 x 1.1 KB) one queue can hold whatever the hash does with them:
# an ECN-only port drops nothing below its limit.
spine_congestion() {
	local s marked=0 drops=0 link_marked link_drops sent0 handled0 sent handled

	clos_hash l4 || return 1
	for s in 1 2; do
		clos_link_queue 2 "$s" down 20mbit red 10000 40000 1 1000000 nodrop || return 1
	done
	rocectl dcqcn set dev rxe1 enable on line-rate 200 &&
		rocectl np set dev rxe2 enable on || return 1
	sent0=$(dev_stat rxe2 np-cnp-sent)
	handled0=$(dev_stat rxe1 rp-cnp-handled)
	perftest_bw ib_write_bw 1 2 $SECS -q 4 >/dev/null || return 1
	for s in 1 2; do
		read -r link_marked link_drops < <(clos_link_stats 2 "$s" down marked drops)
		marked=$((marked + link_marked)) drops=$((drops + link_drops))
	done
	sent=$(($(dev_stat rxe2 np-cnp-sent) - sent0))
	handled=$(($(dev_stat rxe1 rp-cnp-handled) - handled0))
	ktap_print_msg "spine downlinks: $marked marked, $drops dropped; CNPs: $sent sent" \
		"by host 2, $handled handled by host 1"
	[ "$marked" -gt 0 ] || fail "no CE mark at the spines' downlinks" || return 1
	[ "$drops" -eq 0 ] || fail "an ECN-only queue dropped $drops packets" || return 1
	[ "$sent" -gt 0 ] && [ "$handled" -gt 0 ] ||
		fail "the marks did not come back as CNPs that host 1 acted on"
}

# A QP given another UDP source port mid-flow: its packets leave with the
# new port, take the other spine, carry a valid ICRC (checked here apart
# from rxe), and ibv_rc_pingpong -c finds every buffer it received intact.
# The new port is one the five-tuple run saw on the other spine: the same
# five-tuple hashes the same (the leaf's hash is the one its port's RPS
# computes from the headers, with a seed of the boot's, so no route
# lookup can foretell it, but the run measured it).
sport_set_moves_flow() {
	local gid1 gid2 last qpn old spine port pids=() pcap=$ksft_tmp/sport.pcap
	local log=$ksft_tmp/pingpong rc=0 i moved

	[ -s "$PATHS_L4" ] || { fail "no five-tuple run to take a port from"; return 1; }
	clos_hash l4 && clos_paths_reset 1 || return 1
	gid1=$(topo_gid_index 1 4) && gid2=$(topo_gid_index 2 4) || return 1
	last=$(qp_json rxe1 | jq '[.[].qpn] | max // 0')
	ibv_rc_pingpong -d rxe2 -g "$gid2" -p $PINGPONG_PORT -s 4096 -n $PINGPONG_ITERS -c \
		>"$log.server" 2>&1 &
	pids+=($!)
	perftest_wait_listen $PINGPONG_PORT || fail "ibv_rc_pingpong did not listen" || return 1
	ibv_rc_pingpong -d rxe1 -g "$gid1" -p $PINGPONG_PORT -s 4096 -n $PINGPONG_ITERS -c \
		127.0.0.1 >"$log.client" 2>&1 &
	pids+=($!)
	# The QP's first packets, and the spine they took.
	for i in $(seq 100); do
		qpn=$(qp_json rxe1 | jq --argjson last "$last" '[.[].qpn | select(. > $last)] | max // empty')
		[ -n "$qpn" ] && old=$(rocectl -j qp show dev rxe1 qpn "$qpn" | jq '.[0]["udp-sport"]') &&
			spine=$(clos_paths 1 | jq -r --argjson p "$old" 'select(.sport == $p) | .uplink') &&
			[ -n "$spine" ] && break
		sleep 0.1
	done
	[ -n "$spine" ] || { kill "${pids[@]}"; fail "the pingpong's QP never crossed the leaf"; return 1; }
	port=$(jq -rs --arg s "$spine" '[.[] | select(.uplink != $s)][0].sport' "$PATHS_L4")
	capture_start "$pcap" -i roce2 -Q in -s 0 -c 200 "udp dst port 4791 and udp src port $port" ||
		{ kill "${pids[@]}"; return 1; }
	kill -0 "${pids[1]}" 2>/dev/null ||
		{ kill "$capture_pid" "${pids[0]}"; fail "the pingpong ended before its port was set"; return 1; }
	rocectl qp set dev rxe1 qpn "$qpn" udp-sport "$port" ||
		{ kill "$capture_pid" "${pids[@]}"; return 1; }
	for i in "${pids[@]}"; do
		wait "$i" || rc=1
	done
	sleep 0.5
	kill "$capture_pid" 2>/dev/null
	wait "$capture_pid"
	clos_paths 1 >"$PATHS"
	moved=$(jq -rs --argjson p "$port" '[.[] | select(.sport == $p) | "\(.uplink) \(.packets)"][0] // "none 0"' "$PATHS")
	ktap_print_msg "QP $qpn: port $old on $spine, set to $port: ${moved% *}, ${moved#* } packets;" \
		"$(tail -n 1 "$log.client")"
	[ $rc -eq 0 ] || { sed 's/^/#   /' "$log.client" "$log.server"; fail "ibv_rc_pingpong -c failed"; return 1; }
	[ "${moved% *}" != "$spine" ] && [ "${moved% *}" != none ] && [ "${moved#* }" -gt 0 ] ||
		fail "port $port did not take the other spine at the leaf" || return 1
	[ "$(rocectl -j qp show dev rxe1 qpn "$qpn" | jq -c '.[0] | [.["udp-sport"], .["rxe-udp-sport"]]')" = "[$port,$old]" ] ||
		fail "qp show does not give udp-sport $port and rxe-udp-sport $old" || return 1
	"$here/lib/icrc_check.py" --sport "$port" "$pcap" | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "packets with the new port are wrong at host 2"
}

ktap_print_header
ktap_set_plan 6
clos_setup 2 2 1 || { echo "Bail out! fabric setup failed"; exit "$KSFT_FAIL"; }
defer topo_teardown
modprobe rxe_cc || { echo "Bail out! modprobe rxe_cc failed"; exit "$KSFT_FAIL"; }
clos_paths_watch 1 || { echo "Bail out! nftables at leaf 1 failed"; exit "$KSFT_FAIL"; }

ktap_test_result "five-tuple hash: $QPS QPs take both spines, each flow one path" l4_spreads
ktap_test_result "the uplinks' counters account for every packet the QPs sent" counters_add_up
ktap_test_result "address hash: one host pair's $QPS QPs share one spine" l3_one_path
ktap_test_result "rxe_cc reports the UDP source port the fabric saw" sport_reported
ktap_test_result "qp set udp-sport moves a flow to the other spine, ICRC and data intact" \
	sport_set_moves_flow
ktap_test_result "a spine downlink marks ECN and the CNPs cross the fabric" spine_congestion
ktap_finished
