#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl diagnose against troubles made on purpose. Hosts 1 and 2 write
# to host 3 through a 50 Mb/s port that marks ECN; each test breaks one
# thing, runs `rocectl -j diagnose` while the flows run, and checks that
# the finding that names the trouble is there, on the device or QP that
# has it, and that nothing else is, except the trouble's own consequences,
# each listed with its test (an NP that is off lets the queue overflow:
# loss-with-marks is true then, not spurious). A healthy incast must give
# no finding at all.
#
# DCQCN runs with its timers scaled by 100 as in rxe_cc_incast.sh: under
# emulation a round trip takes about a millisecond.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/testing/lateness.sh"

DIAG_SECS=5		# what diagnose samples
SWITCH_IP=10.77.0.250	# the switch's own address, for hand-made CNPs
flow_pids=()
sender_pids=()
FLOW_SECS=300		# flows last until stopped
START_LIMIT=20		# s: a flow not sending by then did not start
STARTED_BYTES=262144	# RDMA writes, not perftest's exchange
# Consequences a broken CNP loop may have besides its own finding: without
# the brake the queue stands at its limit (every packet marked) and
# overflows, and a sender that does not slow down takes the port from one
# that does (held at its min-rate).
UNBRAKED="loss-with-marks qp-starved qp-stalled marking-high rate-at-floor"

scaled_dcqcn() {
	local d
	for d in rxe1 rxe2 rxe3; do
		rocectl dcqcn set dev $d enable on line-rate 200 dce-tcp-rtt 100 time-reset 30000 \
			rate-reduce-monitor-period 400 min-rate 5 || return 1
		rocectl np set dev $d enable on min-time-between-cnps 400 || return 1
	done
}

# flows N: N senders (hosts 1..N) write to host 3 until flows_stop; waits
# until each one's netdev has sent STARTED_BYTES more, and with rxe_cc
# loaded leaves its QP in flow_qpn[i].
flows() {
	local i qpn base=()
	flow_pids=()
	for i in $(seq "$1"); do
		base[i]=$(topo_tx "$i" bytes)
		perftest_background "$i" 3 $FLOW_SECS "$ksft_tmp/flow$i" ||
			fail "flow $i: the server did not start" || return 1
		flow_pids+=("${perftest_pids[@]}")
	done
	for i in $(seq "$1"); do
		for _ in $(seq $((START_LIMIT * 5))); do
			[ $(($(topo_tx "$i" bytes) - base[i])) -lt $STARTED_BYTES ] || break
			sleep 0.2
		done
		[ $(($(topo_tx "$i" bytes) - base[i])) -ge $STARTED_BYTES ] ||
			fail "flow $i did not start within $START_LIMIT s:" \
				"$(tail -n 2 "$ksft_tmp/flow$i.client" | tr '\n' ' ')" || return 1
		[ -d /sys/module/rxe_cc ] || continue
		# rxe numbers QPs upwards: the flow's is the device's newest.
		qpn=$(qp_json "$(topo_rxe "$i")" | jq 'max_by(.qpn).qpn // empty')
		[ -n "$qpn" ] || fail "flow $i has no QP in rxe_cc" || return 1
		flow_qpn[i]=$qpn
	done
}

flows_stop() {
	# send_cnps's senders run under a subshell each: kill them by name.
	if [ ${#sender_pids[@]} -gt 0 ]; then
		pkill -f "$here/lib/roce_send.py"
		wait "${sender_pids[@]}" 2>/dev/null
		sender_pids=()
	fi
	[ ${#flow_pids[@]} -gt 0 ] || return 0
	kill "${flow_pids[@]}" 2>/dev/null
	wait "${flow_pids[@]}" 2>/dev/null
	flow_pids=()
	return 0
}

# diagnose: rocectl -j diagnose over DIAG_SECS into $found, with its
# findings printed one per line.
diagnose() {
	found=$(rocectl -j diagnose duration $DIAG_SECS) || fail "rocectl diagnose failed" || return 1
	jq -r '.[] | "\(.severity) \(.id) \(.dev // "") \(.qpn // ""): \(.summary)"' <<<"$found" |
		while read -r line; do ktap_print_msg "  $line"; done
	[ "$(jq length <<<"$found")" -gt 0 ] || ktap_print_msg "  no problem found"
}

# expect ID WHERE... [-- ALLOWED...]: each WHERE ("rxe3", "rxe1 QPN") has
# finding ID, and every other finding's id is among ALLOWED.
expect() {
	local id=$1 where others
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		where=$1
		shift
		jq -e --arg id "$id" --arg dev "${where% *}" --arg qpn "${where#* }" \
			'any(.[]; .id == $id and (.dev // "") == $dev and
			     ($qpn == $dev or (.qpn | tostring) == $qpn))' <<<"$found" >/dev/null ||
			fail "no $id on $where" || return 1
	done
	[ "${1:-}" != -- ] || shift
	others=$(jq -r --arg id "$id" --arg ok " $* " \
		'[.[] | .id | select(. != $id) | . as $f | select($ok | contains(" \($f) ") | not)] |
		 unique | join(" ")' <<<"$found")
	[ -z "$others" ] || fail "spurious findings: $others"
}

# with TEARDOWN CASE: runs CASE, then whatever it broke is mended.
with() {
	local rc=0
	"$2" || rc=1
	flows_stop
	$1
	return $rc
}

mend() {
	topo_sw tc qdisc del dev "$(topo_port 3)" clsact 2>/dev/null
	rocectl np set dev rxe3 per-port off 2>/dev/null
	modprobe rxe_cc && scaled_dcqcn &&
		topo_bottleneck 3 50mbit red 10000 40000 1 100000 nodrop
}

# rxe_cc_incast.sh's port: marking from 30 KB with at most 10%, a buffer
# that holds the senders' first windows.
healthy_port() {
	topo_bottleneck 3 50mbit red 30000 90000 0.1 400000
}

healthy() {
	healthy_port && flows 2 && diagnose || return 1
	[ "$(jq length <<<"$found")" -eq 0 ] || fail "findings on a healthy incast"
}

np_off() {
	rocectl np set dev rxe3 enable off || return 1
	flows 2 && diagnose && expect np-off rxe3 -- $UNBRAKED
}

cnp_blocked() {
	# BTH opcode 0x81, the first byte after the UDP header.
	topo_sw tc qdisc add dev "$(topo_port 3)" clsact &&
		topo_sw tc filter add dev "$(topo_port 3)" ingress protocol ip u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			match u8 0x81 0xff at 28 action drop || return 1
	flows 2 && diagnose &&
		expect cnp-lost "rxe1 ${flow_qpn[1]}" "rxe2 ${flow_qpn[2]}" -- $UNBRAKED
}

dcqcn_off() {
	rocectl dcqcn set dev rxe1 enable off || return 1
	flows 2 && diagnose && expect dcqcn-off "rxe1 ${flow_qpn[1]}" -- $UNBRAKED
}

# send_cnps KIND HOST [QPN]: hand-made CNPs of roce_send.py's KIND from
# the switch's own address to HOST, 50 a second until flows_stop.
send_cnps() {
	# Their shell's "Terminated" at flows_stop goes to the log too.
	{ topo_sw python3 "$here/lib/roce_send.py" $SWITCH_IP "$(topo_ip4 "$2")" "$1" \
		--count 0 --interval-ms 20 ${3:+--dest-qp "$3"}; } 2>>"$ksft_tmp/senders.log" &
	sender_pids+=($!)
}

# wait_stat DEV NAME: waits up to START_LIMIT s for a device counter to move.
wait_stat() {
	local base
	base=$(dev_stat "$1" "$2")
	for _ in $(seq $((START_LIMIT * 5))); do
		[ "$(dev_stat "$1" "$2")" -eq "$base" ] || return 0
		sleep 0.2
	done
	fail "$1 $2 did not move in $START_LIMIT s"
}

bad_cnps() {
	# A bad ICRC and no such QP to host 1, flow 2's QP from an address
	# that is not its peer's; diagnose once all three arrive.
	healthy_port && flows 2 || return 1
	send_cnps bad-icrc 1
	send_cnps cnp 1
	send_cnps cnp 2 "${flow_qpn[2]}"
	wait_stat rxe1 malformed && wait_stat rxe1 unknown-qp &&
		wait_stat rxe2 rp-cnp-ignored && diagnose || return 1
	expect cnp-malformed rxe1 -- cnp-unknown-qp cnp-wrong-source &&
		expect cnp-unknown-qp rxe1 -- cnp-malformed cnp-wrong-source &&
		expect cnp-wrong-source "rxe2 ${flow_qpn[2]}" -- cnp-malformed cnp-unknown-qp
}

# cnp_sent_after N: waits up to 15 s for rxe3's np-cnp-sent to pass N.
cnp_sent_after() {
	for _ in $(seq 150); do
		[ "$(dev_stat rxe3 np-cnp-sent)" -le "$1" ] || return 0
		sleep 0.1
	done
	fail "rxe3 sent no CNP in 15 s"
}

cnp_spacing_too_long() {
	local sent
	flows 2 || return 1
	# One CNP per 10 s for the whole port: diagnose starts just after one.
	rocectl np set dev rxe3 per-port on min-time-between-cnps 10000000 || return 1
	sent=$(dev_stat rxe3 np-cnp-sent)
	cnp_sent_after "$sent" && diagnose && expect cnp-suppressed rxe3 -- $UNBRAKED
}

marks_everything() {
	# CE on every RoCE packet to host 3 (ECN bits set, the checksum redone):
	# a marking threshold of zero.
	topo_sw tc qdisc add dev "$(topo_port 3)" clsact &&
		topo_sw tc filter add dev "$(topo_port 3)" egress protocol ip u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			action pedit ex munge ip tos set 3 retain 3 pipe action csum ip || return 1
	flows 2 && diagnose &&
		expect marking-high rxe3 -- rate-at-floor &&
		expect rate-at-floor "rxe1 ${flow_qpn[1]}" "rxe2 ${flow_qpn[2]}" -- marking-high
}

capped_qp() {
	healthy_port && flows 2 &&
		rocectl qp set dev rxe1 qpn "${flow_qpn[1]}" min-rate 1 max-rate 4 &&
		sleep 1 && diagnose && expect qp-starved "rxe1 ${flow_qpn[1]}"
}

lossy() {
	topo_bottleneck 3 1000mbit netem 1 1000 || return 1
	flows 1 && diagnose && expect loss-without-marks rxe1 rxe3
}

lossy_without_cc() {
	topo_bottleneck 3 1000mbit netem 1 1000 && rmmod rxe_cc || return 1
	flows 1 && diagnose && expect loss-without-cc rxe1 rxe3 -- cc-not-loaded &&
		expect cc-not-loaded "" -- loss-without-cc
}

ktap_print_header
ktap_set_plan 10
topo_setup 3 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
topo_sw ip addr add $SWITCH_IP/24 dev br0
defer topo_teardown
defer flows_stop
mend || { echo "Bail out! no rxe_cc or no congestion point"; exit $KSFT_FAIL; }
ktap_test_result_starved "a healthy 2:1 incast with DCQCN: no problem found" with mend healthy
ktap_test_result "the receiver's NP off: np-off on it" with mend np_off
ktap_test_result "CNPs dropped by the switch: cnp-lost on both senders" with mend cnp_blocked
ktap_test_result "DCQCN off on a sender: dcqcn-off on its QP" with mend dcqcn_off
ktap_test_result "bad, stray and forged CNPs: cnp-malformed, cnp-unknown-qp, cnp-wrong-source" \
	with mend bad_cnps
ktap_test_result "one CNP per 10 s: cnp-suppressed at the receiver" with mend cnp_spacing_too_long
ktap_test_result "every packet marked: marking-high at the receiver, rate-at-floor at both senders" \
	with mend marks_everything
ktap_test_result "a QP capped at 4 Mb/s beside a free one: qp-starved on it" with mend capped_qp
ktap_test_result "1% random loss, no marking: loss-without-marks" with mend lossy
ktap_test_result "the same without rxe_cc: loss-without-cc from rxe's counters" \
	with mend lossy_without_cc
ktap_finished
