#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A 2:1 incast: hosts 1 and 2 write to host 3 through a 50 Mb/s port with
# RED/ECN marking. With rxe_cc the two flows must share the port fairly
# (Jain's index >= 0.95 over the steady part) and lose nothing; the same
# run without rxe_cc shows why it is there: RED drops the non-ECN-capable
# packets and the receiver sees sequence gaps (go-back-N retransmissions).
#
# The receiver's out-of-sequence count must stay 0 with rxe_cc: the switch
# loses nothing (ECN marks instead of drops) and its ports keep order
# (lib/topo.sh pins each port's receive CPU; without that, 50 to 160 of a
# run's requests overtook one another between two CPUs' veth backlogs).
#
# DCQCN runs with the firmware's timers scaled by 100 (alpha period 100 us,
# increase timer 30 ms, reduce-monitor period 400 us, CNP spacing 400 us):
# under emulation a round trip takes about a millisecond, not microseconds.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/topo.sh"
. "$here/lib/perftest.sh"
. "$here/lib/rocectl.sh"

SECS=14
# rxe's retransmission timer runs while the pacer holds a packet: the QP
# timeout (perftest -u: 4.096 us * 2^18, about 1 s) must cover a full
# window (64 packets) at the lowest rate, 5 Mb/s: about 110 ms.
QP_TIMEOUT=18
MIN_MBPS=5
STEADY_FROM=5		# seconds into the run
STEADY_TO=12
BOTTLENECK=50mbit

scaled_dcqcn() {
	local d
	for d in rxe1 rxe2 rxe3; do
		rocectl dcqcn set dev $d line-rate 200 dce-tcp-rtt 100 time-reset 30000 \
			rate-reduce-monitor-period 400 min-rate $MIN_MBPS || return 1
		rocectl np set dev $d min-time-between-cnps 400 || return 1
	done
}

# seq_errors: out-of-sequence requests host 3's rxe saw (its hw counter).
seq_errors() {
	rdma -j statistic show link rxe3/1 | jq '.[0].out_of_seq_request // 0'
}

# flow_bytes WITH_CC HOST: what host HOST has sent so far: its newest
# QP's tx-bytes as rxe_cc counts them, or without rxe_cc what the switch
# port towards the host received.
flow_bytes() {
	if [ "$1" = 1 ]; then
		qp_json "$(topo_rxe "$2")" | jq 'max_by(.qpn).stats["tx-bytes"]'
	else
		topo_port_bytes "$2" rx
	fi
}

# incast_run WITH_CC: both flows for SECS; sets jain, q_p99, q_max, drops,
# seq and logs per-flow Mb/s over the steady part.
incast_run() {
	local with_cc=$1 g1 g2 g3 pids=() b1a b2a b1b b2b seq0 drops0 sampler
	g1=$(topo_gid_index 1 4)
	g2=$(topo_gid_index 2 4)
	g3=$(topo_gid_index 3 4)
	seq0=$(seq_errors)
	drops0=$(red_stat 3 drops)

	ib_write_bw -d rxe3 -x "$g3" -p 20001 -D $SECS -F -u $QP_TIMEOUT >/dev/null 2>&1 &
	pids+=($!)
	ib_write_bw -d rxe3 -x "$g3" -p 20002 -D $SECS -F -u $QP_TIMEOUT >/dev/null 2>&1 &
	pids+=($!)
	perftest_wait_listen 20001 && perftest_wait_listen 20002 || return 1
	ib_write_bw -d rxe1 -x "$g1" -p 20001 -D $SECS -F -u $QP_TIMEOUT "$(topo_ip4 3)" >/dev/null 2>&1 &
	pids+=($!)
	ib_write_bw -d rxe2 -x "$g2" -p 20002 -D $SECS -F -u $QP_TIMEOUT "$(topo_ip4 3)" >/dev/null 2>&1 &
	pids+=($!)

	# The switch queue, every 100 ms, during the steady part.
	sleep $STEADY_FROM
	(while :; do red_stat 3 backlog; sleep 0.1; done) >/tmp/incast.queue &
	sampler=$!
	b1a=$(flow_bytes "$with_cc" 1)
	b2a=$(flow_bytes "$with_cc" 2)
	sleep $((STEADY_TO - STEADY_FROM))
	b1b=$(flow_bytes "$with_cc" 1)
	b2b=$(flow_bytes "$with_cc" 2)
	kill "$sampler"
	wait "${pids[@]}"

	read -r jain m1 m2 < <(awk -v a=$((b1b - b1a)) -v b=$((b2b - b2a)) \
		-v s=$((STEADY_TO - STEADY_FROM)) 'BEGIN {
		j = (a + b) ^ 2 / (2 * (a * a + b * b));
		printf "%.4f %.1f %.1f\n", j, a * 8 / s / 1e6, b * 8 / s / 1e6 }')
	read -r q_p99 q_max < <(sort -n /tmp/incast.queue | awk '{ v[NR] = $1 } END {
		i = int(NR * 0.99); if (i < 1) i = 1; printf "%d %d\n", v[i], v[NR] }')
	drops=$(($(red_stat 3 drops) - drops0))
	seq=$(($(seq_errors) - seq0))
	ktap_info "$([ "$with_cc" = 1 ] && echo with || echo without) rxe_cc:" \
		"flows $m1 and $m2 Mb/s, Jain $jain, queue p99 $q_p99 max $q_max bytes," \
		"$drops drops, $seq out-of-sequence at the receiver"
}

fair_and_lossless() {
	scaled_dcqcn || return 1
	incast_run 1 || return 1
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.95) }' || fail "Jain's index $jain < 0.95" ||
		return 1
	[ "$seq" -eq 0 ] || fail "$seq requests arrived out of sequence: packets were lost" ||
		return 1
	cc_q_p99=$q_p99
}

without_cc() {
	rmmod rxe_cc || return 1
	incast_run 0
	local rc=$?
	modprobe rxe_cc
	[ $rc -eq 0 ] || return 1
	[ "$drops" -gt 0 ] || fail "RED dropped nothing without ECN-capable traffic" || return 1
	[ "$seq" -gt 0 ] || fail "no sequence gaps without congestion control" || return 1
}

ktap_plan 2
topo_setup 3 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
trap topo_teardown EXIT
topo_bottleneck 3 $BOTTLENECK red 30000 90000 0.1 400000
ktap_run "2:1 incast with DCQCN: fair (Jain >= 0.95) and lossless" fair_and_lossless
ktap_run "the same incast without rxe_cc: drops and retransmissions" without_cc
ktap_finish
