# SPDX-License-Identifier: GPL-2.0
#
# What rxe_cc_diagnose*.sh share: three hosts, hosts 1 and 2 writing to
# host 3 through a 50 Mb/s port that marks ECN, rocectl -j diagnose while
# the flows run, and expect, which checks its findings. Needs ktap.sh,
# defer.sh, testing/topo.sh, testing/perftest.sh and rocectl.sh first.
#
# DCQCN runs with its timers scaled by 100 as in rxe_cc_incast.sh: under
# emulation a round trip takes about a millisecond.

diag_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIAG_SECS=5		# what diagnose samples
SWITCH_IP=10.77.0.250	# the switch's own address, for hand-made CNPs
flow_pids=()
sender_pids=()
FLOW_SECS=300		# flows last until stopped
START_LIMIT=20		# s: a flow not sending by then did not start
STARTED_BYTES=262144	# RDMA writes, not perftest's exchange
# Consequences a broken CNP loop may have besides its own finding: without
# the brake the queue stands at its limit (every packet marked) and
# overflows, a sender that does not slow down takes the port from one
# that does (held at its min-rate), and stays at its line rate, where its
# own link holds it.
UNBRAKED="loss-with-marks qp-starved qp-stalled marking-high rate-at-floor port-limited"

scaled_dcqcn() {
	local d
	for d in rxe1 rxe2 rxe3; do
		rocectl dcqcn set dev $d enable on line-rate 200 dce-tcp-rtt 100 time-reset 30000 \
			rate-reduce-monitor-period 400 min-rate 5 || return 1
		rocectl np set dev $d enable on min-time-between-cnps 400 || return 1
	done
}

# flows N [OPTION...]: N senders (hosts 1..N) write to host 3 until
# flows_stop, with perftest's OPTIONs; waits until each one's netdev has
# sent STARTED_BYTES more, and with rxe_cc loaded leaves its QP in
# flow_qpn[i].
flows() {
	local n=$1 i qpn base=()
	shift
	flow_pids=()
	for i in $(seq "$n"); do
		base[i]=$(topo_tx "$i" bytes)
		perftest_background "$i" 3 $FLOW_SECS "$ksft_tmp/flow$i" "$@" ||
			fail "flow $i: the server did not start" || return 1
		flow_pids+=("${perftest_pids[@]}")
	done
	for i in $(seq "$n"); do
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

# flows_alive: each flow's perftest still runs; one that exited is a
# failure, with the first lines of its log, where its error is (stderr is
# written at once, the rest when it exits).
flows_alive() {
	local i flow role roles=(server client) rc=0
	for i in "${!flow_pids[@]}"; do
		kill -0 "${flow_pids[i]}" 2>/dev/null && continue
		flow=$((i / 2 + 1)) role=${roles[i % 2]}
		fail "flow $flow's $role exited:" \
			"$(head -n 3 "$ksft_tmp/flow$flow.$role" | tr -s '\n ' '  ')"
		rc=1
	done
	return $rc
}

flows_stop() {
	# send_cnps's senders run under a subshell each: kill them by name.
	if [ ${#sender_pids[@]} -gt 0 ]; then
		pkill -f "$diag_lib/roce_send.py"
		wait "${sender_pids[@]}" 2>/dev/null
		sender_pids=()
	fi
	[ ${#flow_pids[@]} -gt 0 ] || return 0
	kill "${flow_pids[@]}" 2>/dev/null
	wait "${flow_pids[@]}" 2>/dev/null
	flow_pids=()
	return 0
}

# diagnose [DELAY COMMAND...]: rocectl -j diagnose over DIAG_SECS into
# $found, with its findings printed one per line; COMMAND runs DELAY s into
# the interval, for a trouble that is one event.
diagnose() {
	local pid
	rocectl -j diagnose duration $DIAG_SECS >"$ksft_tmp/diagnose.json" &
	pid=$!
	if [ $# -gt 0 ]; then
		sleep "$1"
		shift
		"$@" || { wait $pid; fail "$*: failed"; return 1; }
	fi
	wait $pid || fail "rocectl diagnose failed" || return 1
	found=$(cat "$ksft_tmp/diagnose.json")
	# One jq a call: it takes half a second to start in the VM.
	jq -r 'if length == 0 then "no problem found" else
		.[] | "\(.severity) \(.id) \(.dev // "") \(.qpn // ""): \(.summary)" end' \
		<<<"$found" | while read -r line; do ktap_print_msg "  $line"; done
	flows_alive
}

# expect ID WHERE... [-- ALLOWED...]: each WHERE ("rxe3", "rxe1 QPN") has
# finding ID, and every other finding's id is among ALLOWED. Each miss
# and the spurious ids are failures of their own.
expect() {
	local id=$1 wheres=() problems
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		wheres+=("$1")
		shift
	done
	[ "${1:-}" != -- ] || shift
	problems=$(jq -r --arg id "$id" --arg ok " $* " '. as $found |
		($ARGS.positional[] | . as $where | (index(" ") // length) as $cut |
		 $where[:$cut] as $dev | ($where[$cut + 1:] | if . == "" then $dev else . end) as $qpn |
		 select(any($found[]; .id == $id and (.dev // "") == $dev and
			    ($qpn == $dev or (.qpn | tostring) == $qpn)) | not) |
		 "no \($id) on \($where)"),
		([.[] | .id | select(. != $id) | . as $f | select($ok | contains(" \($f) ") | not)] |
		 unique | select(length > 0) | "spurious findings: \(join(" "))")' \
		--args "${wheres[@]}" <<<"$found") || { fail "jq could not read the findings"; return 1; }
	[ -n "$problems" ] || return 0
	while read -r line; do fail "$line"; done <<<"$problems"
	return 1
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
	topo_sw tc qdisc del dev "$(topo_port 1)" root 2>/dev/null
	nft delete table inet rxecc_diag 2>/dev/null
	rocectl np set dev rxe3 per-port off 2>/dev/null
	modprobe rxe_cc && scaled_dcqcn &&
		topo_bottleneck 3 50mbit red 10000 40000 1 100000 nodrop
}

# rxe_cc_incast.sh's port: marking from 30 KB with at most 10%, a buffer
# that holds the senders' first windows.
healthy_port() {
	topo_bottleneck 3 50mbit red 30000 90000 0.1 400000
}

# send_cnps KIND HOST [QPN]: hand-made CNPs of roce_send.py's KIND from
# the switch's own address to HOST, 50 a second until flows_stop.
send_cnps() {
	# Their shell's "Terminated" at flows_stop goes to the log too.
	{ topo_sw python3 "$diag_lib/roce_send.py" $SWITCH_IP "$(topo_ip4 "$2")" "$1" \
		--count 0 --interval-ms 20 ${3:+--dest-qp "$3"}; } 2>>"$ksft_tmp/senders.log" &
	sender_pids+=($!)
}

# wait_stat DEV NAME: waits up to START_LIMIT s for a device counter to
# move, and returns within 0.1 s of it: a test that starts diagnose right
# after a rare event (one CNP per 10 s) has all of the interval after it.
wait_stat() {
	local base
	base=$(dev_stat "$1" "$2")
	for _ in $(seq $((START_LIMIT * 10))); do
		[ "$(dev_stat "$1" "$2")" -eq "$base" ] || return 0
		sleep 0.1
	done
	fail "$1 $2 did not move in $START_LIMIT s"
}

# diag_setup PLAN: the TAP header, the fabric and rxe_cc as mend leaves them.
diag_setup() {
	ktap_print_header
	ktap_set_plan "$1"
	topo_setup 3 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
	topo_sw ip addr add $SWITCH_IP/24 dev br0
	defer topo_teardown
	defer flows_stop
	mend || { echo "Bail out! no rxe_cc or no congestion point"; exit $KSFT_FAIL; }
}
