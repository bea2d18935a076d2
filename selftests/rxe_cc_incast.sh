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
# (tools/testing/lib/topo.sh pins each port's receive CPU; without that,
# 50 to 160 of a run's requests overtook one another between two CPUs'
# veth backlogs).
#
# DCQCN runs with the firmware's timers scaled by 100 (alpha period 100 us,
# increase timer 30 ms, reduce-monitor period 400 us, CNP spacing 400 us):
# under emulation a round trip takes about a millisecond, not microseconds.
#
# The steady part is timed from the flows' own starts, not from their
# launch: on a loaded host perftest takes 2 to 5 s to connect, and a fixed
# window once measured a flow that had not begun (0.0 Mb/s). Each flow's
# connection, first data, exit status and final QP state are printed; a
# flow that does not run is a failure of its own, named as such.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/testing/lateness.sh"

SECS=16			# each flow's length
# rxe's retransmission timer runs while the pacer holds a packet: the QP
# timeout (perftest -u: 4.096 us * 2^18, about 1 s) must cover a full
# window (64 packets) at the lowest rate, 5 Mb/s: about 110 ms.
QP_TIMEOUT=18
MIN_MBPS=5
START_LIMIT=12		# s from launch: a flow not sending by then did not start
SETTLE=3		# s after the later flow's start before the steady part
STEADY=7		# s, the steady part; it must end before the earlier flow
BOTTLENECK=50mbit
# A sender has started when its netdev has sent this much more than before
# the run: RDMA writes, not perftest's few hundred bytes of TCP exchange.
STARTED_BYTES=262144

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

now_us() { echo "${EPOCHREALTIME/./}"; }

# wait_starts T0: wait until both senders' first RDMA data has left, or
# START_LIMIT s after T0 (in us); sets start[1], start[2] to the time of
# that (us since T0), empty for a flow that did not start. Polls the
# netdevs' counters with builtins every 100 ms.
wait_starts() {
	local t0=$1 i b base=()
	for i in 1 2; do
		base[i]=$(topo_tx "$i" bytes)
		start[i]=
	done
	while [ -z "${start[1]}" ] || [ -z "${start[2]}" ]; do
		for i in 1 2; do
			[ -z "${start[i]}" ] || continue
			b=$(topo_tx "$i" bytes)
			[ $((b - base[i])) -lt $STARTED_BYTES ] || start[i]=$(($(now_us) - t0))
		done
		[ $(($(now_us) - t0)) -lt $((START_LIMIT * 1000000)) ] || break
		sleep 0.1
	done
}

secs() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1e6 }'; }

# flow_evidence HOST STATUS: one line on how a flow went: its client's exit
# status, whether it connected (perftest printed the peer's QP), when its
# first data left, and what rxe_cc and rxe say of its QP at the end. Fails
# for a flow that did not start or did not finish cleanly, with the ends of
# its perftest logs.
flow_evidence() {
	local h=$1 status=$2 log=$ksft_tmp/client$1.log qp hw
	qp=$(qp_json "$(topo_rxe "$h")" 2>/dev/null | jq -c 'max_by(.qpn) // {} |
		{qpn, rate, queue, "idle-ms", tx: .stats["tx-packets"],
		 paced: .stats["paced-packets"], cnps: .stats["rp-cnp-handled"],
		 cuts: .stats["rp-rate-cuts"]}' 2>/dev/null)
	hw=$(topo_rxe_counters "$h" 2>/dev/null)
	ktap_print_msg "flow $h: client exit $status," \
		"$(grep -q 'remote address' "$log" && echo connected || echo 'not connected')," \
		"first data at $([ -n "${start[h]}" ] && secs "${start[h]}" || echo never) s;" \
		"rxe_cc QP ${qp:-none}; rxe $hw"
	if [ -z "${start[h]}" ]; then
		fail "flow $h did not start: no data left host $h within $START_LIMIT s"
	elif [ "$status" -ne 0 ]; then
		fail "flow $h: ib_write_bw exited with status $status"
	else
		return 0
	fi
	sed 's/^/#   client: /' "$log" | tail -n 5
	sed 's/^/#   server: /' "$ksft_tmp/server$h.log" | tail -n 5
	return 1
}

# incast_run WITH_CC: both flows; over the steady part, which begins SETTLE
# s after the later flow's first data, sets jain, m1, m2 (Mb/s), q_p99,
# q_max; over the run drops and seq. Fails, naming the flow, when a flow
# did not connect, start or finish cleanly, or when the flows overlapped
# too little for a steady part.
incast_run() {
	local with_cc=$1 g3 i srv=() cli=() st rc=0 b1a b2a b1b b2b ta tb seq0 drops0 \
		sampler t0 first last
	start=()
	g3=$(topo_gid_index 3 4)
	seq0=$(seq_errors)
	drops0=$(red_stat 3 drops)

	for i in 1 2; do
		ib_write_bw -d rxe3 -x "$g3" -p $((20000 + i)) -D $SECS -F -u $QP_TIMEOUT \
			>"$ksft_tmp/server$i.log" 2>&1 &
		srv[i]=$!
	done
	perftest_wait_listen 20001 && perftest_wait_listen 20002 ||
		fail "the perftest servers did not listen" || return 1
	t0=$(now_us)
	for i in 1 2; do
		ib_write_bw -d "$(topo_rxe "$i")" -x "$(topo_gid_index "$i" 4)" -p $((20000 + i)) \
			-D $SECS -F -u $QP_TIMEOUT $PERFTEST_OOB >"$ksft_tmp/client$i.log" 2>&1 &
		cli[i]=$!
	done

	wait_starts "$t0"
	if [ -n "${start[1]}" ] && [ -n "${start[2]}" ]; then
		first=$((start[1] < start[2] ? start[1] : start[2]))
		last=$((start[1] > start[2] ? start[1] : start[2]))
		# The steady part must end a second before the earlier flow.
		if [ $((last + (SETTLE + STEADY + 1) * 1000000)) -gt $((first + SECS * 1000000)) ]; then
			fail "the flows started $(secs $((last - first))) s apart: too far for a" \
				"steady part of $STEADY s in flows of $SECS s"
			rc=1
		else
			i=$((SETTLE * 1000000 - ($(now_us) - t0 - last)))
			[ $i -le 0 ] || sleep "$(secs $i)"
			(while :; do red_stat 3 backlog; sleep 0.1; done) >"$ksft_tmp/queue" &
			sampler=$!
			ta=$(now_us)
			b1a=$(topo_tx 1 bytes)
			b2a=$(topo_tx 2 bytes)
			sleep $STEADY
			b1b=$(topo_tx 1 bytes)
			b2b=$(topo_tx 2 bytes)
			tb=$(now_us)
			kill "$sampler"
		fi
	fi
	for i in 1 2; do
		wait "${cli[i]}"
		st=$?
		flow_evidence "$i" "$st" || rc=1
		# A server whose client failed would wait for it for ever.
		[ "$st" -eq 0 ] || kill "${srv[i]}" 2>/dev/null
		wait "${srv[i]}"
	done
	[ $rc -eq 0 ] || return 1

	read -r jain m1 m2 < <(awk -v a=$((b1b - b1a)) -v b=$((b2b - b2a)) \
		-v us=$((tb - ta)) 'BEGIN {
		j = (a + b) ^ 2 / (2 * (a * a + b * b));
		printf "%.4f %.1f %.1f\n", j, a * 8 / us, b * 8 / us }')
	read -r q_p99 q_max < <(sort -n "$ksft_tmp/queue" | awk '{ v[NR] = $1 } END {
		i = int(NR * 0.99); if (i < 1) i = 1; printf "%d %d\n", v[i], v[NR] }')
	drops=$(($(red_stat 3 drops) - drops0))
	seq=$(($(seq_errors) - seq0))
	ktap_print_msg "$([ "$with_cc" = 1 ] && echo with || echo without) rxe_cc:" \
		"flows $m1 and $m2 Mb/s over $(secs $((tb - ta))) s from" \
		"$(secs $((ta - t0))) s, Jain $jain, queue p99 $q_p99 max $q_max bytes," \
		"$drops drops, $seq out-of-sequence at the receiver"
}

fair_and_lossless() {
	scaled_dcqcn || return 1
	incast_run 1 || return 1
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.95) }' || fail "Jain's index $jain < 0.95" ||
		return 1
	[ "$seq" -eq 0 ] || fail "$seq requests arrived out of sequence: packets were lost" ||
		return 1
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


ktap_print_header
ktap_set_plan 2
topo_setup 3 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
topo_bottleneck 3 $BOTTLENECK red 30000 90000 0.1 400000
ktap_test_result_starved "2:1 incast with DCQCN: fair (Jain >= 0.95) and lossless" fair_and_lossless
ktap_test_result_starved "the same incast without rxe_cc: drops and retransmissions" without_cc
ktap_finished
