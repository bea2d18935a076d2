#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The notification point and the reaction point on the wire: ib_write_bw
# from host 1 to host 2 through a 50 Mb/s bottleneck whose RED queue marks
# ECN. The switch's CE marks must become CNPs at host 2, laid out as IBTA
# RoCEv2 Annex A17 says with a valid ICRC, spaced as configured, and every
# CNP must reach host 1's reaction point and cut its rate; over IPv4 and
# IPv6. Hand-made bad packets are counted and change nothing.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/capture.sh"

SECS=3
PCAP=$ksft_tmp/cnp.pcap
PERFTEST_LOG=$ksft_tmp/cnp-bw.log
# The emulated link: pacing ceilings start from here, not from veth's 10G.
LINE_MBPS=200

# Counter snapshots, taken around each traffic run.
declare -A before after
snapshot() { # ARRAY
	local -n snap=$1
	snap[marked]=$(red_stat 2 marked)
	snap[ecn]=$(dev_stat rxe2 np-ecn-marked-roce-packets)
	snap[sent]=$(dev_stat rxe2 np-cnp-sent)
	snap[suppressed]=$(dev_stat rxe2 np-cnp-suppressed)
	snap[unresolved]=$(dev_stat rxe2 np-cnp-unresolved)
	snap[handled]=$(dev_stat rxe1 rp-cnp-handled)
	snap[received]=$(dev_stat rxe1 rp-cnp-received)
	snap[cuts]=$(dev_stat rxe1 rp-rate-cuts)
}
delta() { echo $((after[$1] - before[$1])); }

# marked_run: traffic through the marking bottleneck, the CNPs captured as
# they leave the receiver; sets run_secs to its duration.
marked_run() {
	local t0 t1
	rm -f "$PCAP"
	# On the receiver's own port: its capture times are the send times.
	capture_start "$PCAP" -i roce2 -Q out -s 128 \
		'udp dst port 4791 and ((ip and udp[8] == 0x81) or (ip6 and ip6[48] == 0x81))' ||
		return 1
	snapshot before
	t0=$(date +%s%N)
	perftest_bw ib_write_bw 1 2 $SECS >/dev/null || { kill "$capture_pid"; return 1; }
	t1=$(date +%s%N)
	sleep 0.5
	snapshot after
	kill -INT "$capture_pid"
	wait "$capture_pid"
	run_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	ktap_print_msg "$(for k in marked ecn sent suppressed unresolved received handled cuts; do
		printf '%s %s ' "$k" "$(delta $k)"; done)in ${run_secs}s"
}

marks_become_cnps() {
	marked_run || return 1
	[ "$(delta marked)" -gt 0 ] || fail "the switch marked nothing: no congestion" || return 1
	[ "$(delta ecn)" -eq "$(delta marked)" ] ||
		fail "receiver counted $(delta ecn) CE marks, the switch made $(delta marked)" || return 1
	[ "$(delta sent)" -gt 0 ] || fail "no CNP sent" || return 1
	[ $(($(delta sent) + $(delta suppressed) + $(delta unresolved))) -eq "$(delta ecn)" ] ||
		fail "every CE mark must be a CNP sent, suppressed or unresolved"
}

cnps_reach_rp() {
	[ "$(delta received)" -eq "$(delta sent)" ] ||
		fail "sender received $(delta received) CNPs of $(delta sent)" || return 1
	[ "$(delta handled)" -eq "$(delta sent)" ] ||
		fail "sender handled $(delta handled) CNPs of $(delta sent)" || return 1
	[ "$(delta cuts)" -gt 0 ] || fail "no rate decrease"
}

cnp_on_the_wire() {
	local qpn
	# QP numbers grow: the newest QP is the last run's sender.
	qpn=$(qp_json rxe1 | jq 'max_by(.qpn).qpn')
	python3 "$here/lib/cnp_check.py" "$PCAP" --dscp "${1:-48}" --dest-qp "$qpn" |
		sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "captured CNPs are wrong"
}

cnp_spacing() {
	local gap_us=2000 max
	rocectl np set dev rxe2 min-time-between-cnps $gap_us cnp-dscp 26 || return 1
	marked_run || return 1
	[ "$(delta suppressed)" -gt 0 ] || fail "nothing suppressed by a ${gap_us} us spacing" ||
		return 1
	[ $(($(delta sent) + $(delta suppressed) + $(delta unresolved))) -eq "$(delta ecn)" ] ||
		fail "every CE mark must be a CNP sent, suppressed or unresolved" || return 1
	max=$(awk -v s="$run_secs" -v g=$gap_us 'BEGIN { printf "%d", s * 1e6 / g + 1 }')
	[ "$(delta sent)" -le "$max" ] ||
		fail "$(delta sent) CNPs in ${run_secs}s, at most $max with a ${gap_us} us spacing" ||
		return 1
	# Capture times are taken after the NP's clock. Under emulation on a
	# busy host a vCPU can stall for milliseconds between the two, and
	# one late CNP then looks close to the next (294 us in CI): spans of
	# 10 gaps with 25% slack allow 5 ms. Without spacing, marked packets
	# come about 100 us apart, 10 gaps 1 ms.
	python3 "$here/lib/cnp_check.py" "$PCAP" --dscp 26 --min-gap-us $((gap_us * 3 / 4)) \
		--gap-window 10 | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "captured CNPs closer than the spacing or wrong"
}

ipv6_cnps() {
	rocectl np set dev rxe2 min-time-between-cnps 4 cnp-dscp 48 || return 1
	PERFTEST_FAMILY=6
	marked_run
	local rc=$?
	PERFTEST_FAMILY=4
	[ $rc -eq 0 ] || return 1
	[ "$(delta sent)" -gt 0 ] || fail "no CNP over IPv6" || return 1
	[ "$(delta handled)" -eq "$(delta sent)" ] ||
		fail "sender handled $(delta handled) of $(delta sent) IPv6 CNPs" || return 1
	local first
	first=$(tcpdump -nn -r "$PCAP" 2>/dev/null | head -n 1)
	[[ "$first" == *"IP6 $(topo_ip6 2)."*" > $(topo_ip6 1).4791"* ]] ||
		fail "the captured CNPs are not IPv6: $first" || return 1
	cnp_on_the_wire 48
}

# bad_input KIND STAT...: a hand-made packet from the switch to host 1 must
# raise each device counter STAT of rxe1 by one and change nothing else.
bad_input() {
	local kind=$1 stat b a cuts0
	shift
	declare -A b0
	for stat in "$@" malformed unknown-qp rp-cnp-ignored rp-cnp-handled; do
		b0[$stat]=$(dev_stat rxe1 "$stat")
	done
	cuts0=$(dev_stat rxe1 rp-rate-cuts)
	topo_sw python3 "$here/lib/roce_send.py" 10.77.0.250 "$(topo_ip4 1)" "$kind" ||
		fail "could not send" || return 1
	sleep 0.5
	for stat in malformed unknown-qp rp-cnp-ignored rp-cnp-handled; do
		b=${b0[$stat]}
		a=$(dev_stat rxe1 "$stat")
		if [[ " $* " == *" $stat "* ]]; then
			[ "$a" -eq $((b + 1)) ] || fail "$kind: $stat $b -> $a, want +1" || return 1
		else
			[ "$a" -eq "$b" ] || fail "$kind: $stat $b -> $a, want unchanged" || return 1
		fi
	done
	[ "$(dev_stat rxe1 rp-rate-cuts)" -eq "$cuts0" ] || fail "$kind cut a rate"
}


ktap_print_header
ktap_set_plan 9
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
topo_bottleneck 2 50mbit red 30000 90000 0.1 400000
# At emulation's CNP rates alpha needs a period near the CNP spacing, or it
# decays to nothing between CNPs and a cut cuts nothing (labs.rst).
rocectl dcqcn set dev rxe1 line-rate $LINE_MBPS dce-tcp-rtt 400
rocectl dcqcn set dev rxe2 line-rate $LINE_MBPS
# The switch's own address, for hand-made packets.
topo_sw ip addr add 10.77.0.250/24 dev br0

ktap_test_result "CE marks from the switch become CNPs at the receiver" marks_become_cnps
ktap_test_result "every CNP reaches the sender's RP and cuts its rate" cnps_reach_rp
ktap_test_result "captured CNPs follow Annex A17, ICRC computed independently" cnp_on_the_wire
ktap_test_result "np min-time-between-cnps spaces CNPs" cnp_spacing
ktap_test_result "CNPs over IPv6 GIDs" ipv6_cnps
ktap_test_result "a datagram too short for RoCEv2 is counted as malformed" bad_input short malformed
ktap_test_result "a CNP for a QP that does not exist is ignored" \
	bad_input cnp unknown-qp rp-cnp-ignored
ktap_test_result "a CNP with a bad ICRC is counted as malformed" bad_input bad-icrc malformed
ktap_test_result "an unknown opcode is counted as malformed and left to rxe" bad_input opcode malformed
ktap_finished
