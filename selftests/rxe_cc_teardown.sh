#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Teardown under load: while QPs are paced hard (their packets held in
# rxe_cc's queues and its hrtimer armed), netlink dumps run in a loop and a
# monitor listens, rxe_cc is unloaded, the QPs' processes are killed, the
# rxe device is deleted under them, its netdev goes down, and the switch's
# namespace is deleted, taking the netdev and the device with it. Each must
# finish promptly, leave no packet held and no state behind, and the next
# round must start from a clean slate. On the debug kernel the runner adds
# KASAN, lockdep, debug objects (the pacer's timer freed while armed) and
# kmemleak.
#
# TEARDOWN_ROUNDS (default 2) is the rounds of each kind. Each kind says
# how much unreclaimable slab grew over its second half of rounds (the
# first fills caches); from SLAB_JUDGED_ROUNDS rounds on (make stress) more
# than SLAB_KB_PER_ROUND a round fails it.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

ROUNDS=${TEARDOWN_ROUNDS:-2}
SLAB_FROM=$(((ROUNDS + 1) / 2))
# A round makes and ends four QPs and their processes. Single rounds moved
# unreclaimable slab by -4 to +212 kB here, caches settling; over a
# hundred rounds that is under 2 kB a round, and the four QP states (about
# 500 bytes each) or sockets of a leaking round are more.
SLAB_JUDGED_ROUNDS=50
SLAB_KB_PER_ROUND=2
# Paced far below what the flow offers: the queues stay full.
CAP_MBPS=5

# load: ib_write_bw host 1 -> 2 with 4 QPs, each capped at CAP_MBPS, a
# netlink dump loop and a monitor; sets load_pids (the flow's) and ctl_pids
# and waits until the pacer holds packets.
load() {
	local q
	perftest_background 1 2 600 "$ksft_tmp/load" -q 4 ||
		{ fail "the flow did not start"; return 1; }
	load_pids=("${perftest_pids[@]}")
	# The loop ends after the dump under way; the monitor is the binary
	# itself, not a shell around it, so that stop_load's signal reaches it.
	(
		trap exit TERM
		while :; do
			rocectl -j -s qp show >/dev/null 2>&1
			rocectl -j -s dev show >/dev/null 2>&1
		done
	) &
	ctl_pids=($!)
	"$ROCECTL" monitor >/dev/null 2>&1 &
	ctl_pids+=($!)
	for _ in $(seq 100); do
		for q in $(qp_json rxe1 | jq -r '.[] | select(.stats["tx-packets"] > 0 and
				(.["max-rate"] // 0) == 0) | .qpn'); do
			rocectl qp set dev rxe1 qpn "$q" max-rate $CAP_MBPS >/dev/null 2>&1
		done
		[ "$(qp_json rxe1 | jq '[.[] | select(.queue > 0)] | length')" -ge 1 ] && return 0
		sleep 0.2
	done
	fail "the pacer never held a packet"
}

# stop_load [SIGNAL]: end what load started, the flow by SIGNAL.
stop_load() {
	kill -"${1:-TERM}" "${load_pids[@]}" 2>/dev/null
	kill "${ctl_pids[@]}" 2>/dev/null
	wait "${load_pids[@]}" "${ctl_pids[@]}" 2>/dev/null
	return 0
}

# slab_kb: unreclaimable slab in kB, where a leaked allocation stays.
slab_kb() {
	sync
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

# slab_after KIND KB: say how much unreclaimable slab grew since KB, taken
# after KIND's round SLAB_FROM, and judge it when there were enough rounds.
slab_after() {
	local kind=$1 kb0=$2 kb1 rounds=$((ROUNDS - SLAB_FROM))
	sleep 2		# RCU frees what the last round let go
	kb1=$(slab_kb)
	ktap_print_msg "$kind: unreclaimable slab ${kb0} -> ${kb1} kB over $rounds rounds"
	# KASAN's quarantine keeps freed objects in slab (the debug kernel grew
	# 377 kB a round): there kmemleak, which the runner reads, judges.
	[ ! -e /sys/kernel/debug/kmemleak ] || return 0
	[ "$ROUNDS" -lt $SLAB_JUDGED_ROUNDS ] || [ $((kb1 - kb0)) -le $((SLAB_KB_PER_ROUND * rounds)) ] ||
		fail "$kind: slab grew $((kb1 - kb0)) kB in $rounds rounds"
}

# rounds KIND ROUND_FN DONE: ROUND_FN ROUND for each round, then DONE
# said and how much unreclaimable slab grew over the second half of them.
rounds() {
	local kind=$1 round_fn=$2 done=$3 r kb0
	for r in $(seq "$ROUNDS"); do
		"$round_fn" "$r" || return 1
		[ "$r" -ne "$SLAB_FROM" ] || kb0=$(slab_kb)
	done
	ktap_print_msg "$ROUNDS $done"
	slab_after "$kind" "$kb0"
}

# within SECS CMD...: CMD must finish within SECS seconds.
within() {
	local secs=$1
	shift
	timeout "$secs" "$@" || fail "'$*' failed or took over $secs s (exit $?)"
}

unload_round() {
	local b0 b1
	modprobe rxe_cc || { fail "modprobe failed in round $1"; return 1; }
	load || { stop_load; return 1; }
	# A dump in progress holds a reference to the module: rmmod
	# refuses (EBUSY) until it ends, as for any genetlink family.
	within 30 bash -c 'until rmmod rxe_cc 2>/dev/null; do sleep 0.05; done' ||
		{ stop_load; return 1; }
	# rxe goes on without rxe_cc: the held packets were sent or freed,
	# and the flow still moves.
	b0=$(topo_tx 1 bytes)
	sleep 1
	b1=$(topo_tx 1 bytes)
	stop_load
	[ "$b1" -gt "$b0" ] || fail "round $1: the flow stopped once rxe_cc was gone"
}

unload_under_load() {
	rounds unloads unload_round "unloads with queues full, dumps and a monitor running"
}

# held_freed ROUND: the held packets of the dead QPs are let go.
held_freed() {
	local held
	for _ in $(seq 50); do
		held=$(qp_json rxe1 | jq '[.[].queue] | add // 0')
		[ "$held" -eq 0 ] && return 0
		sleep 0.2
	done
	fail "round $1: $held packets still held after the QPs died"
}

kill_round() {
	modprobe rxe_cc
	load || { stop_load; return 1; }
	stop_load KILL
	# Destroyed QPs give their held packets up at once.
	held_freed "$1"
}

kill_under_load() {
	rounds kills kill_round "kills of paced QPs' processes"
}

wait_gid() {
	for _ in $(seq 50); do
		topo_gid_index 1 4 >/dev/null && return 0
		sleep 0.2
	done
	fail "host 1 has no IPv4 GID"
}

delete_round() {
	modprobe rxe_cc
	load || { stop_load; return 1; }
	stop_load KILL
	within 30 rdma link del rxe1 || return 1
	rocectl dev show dev rxe1 >/dev/null 2>&1 &&
		{ fail "round $1: rxe_cc still shows the deleted rxe1"; return 1; }
	within 30 rdma link add rxe1 type rxe netdev "$(topo_dev 1)" || return 1
	within 10 "$ROCECTL" dev show dev rxe1 >/dev/null ||
		{ fail "round $1: rxe_cc does not show the new rxe1"; return 1; }
	wait_gid
}

delete_device_under_load() {
	rounds deletions delete_round "deletions of a device right after its paced QPs died"
}

# The netdev under rxe1 goes down with packets held: what the pacer sends
# then is dropped by the stack, and the QPs' death frees the rest.
netdev_down_round() {
	modprobe rxe_cc
	load || { stop_load; return 1; }
	within 10 ip link set dev "$(topo_dev 1)" down || { stop_load; return 1; }
	sleep 0.5
	stop_load KILL
	held_freed "$1" || return 1
	within 10 ip link set dev "$(topo_dev 1)" up || return 1
	wait_gid
}

netdev_down_under_load() {
	rounds downs netdev_down_round "netdevs down under paced QPs"
}

# The switch's namespace is deleted under paced QPs: its ports go, and
# with them, veth pairs that they are, the hosts' netdevs and the rxe
# devices on them. rxe unregisters a device only once no process has it
# open, so the QPs' processes die after the deletion; then rxe_cc must let
# the device go, and the fabric is built anew.
netns_delete_round() {
	modprobe rxe_cc
	load || { stop_load; return 1; }
	within 10 ip netns del "$TOPO_NS" || { stop_load; return 1; }
	sleep 0.5
	stop_load KILL
	for _ in $(seq 100); do
		rocectl dev show dev rxe1 >/dev/null 2>&1 || break
		sleep 0.2
	done
	rocectl dev show dev rxe1 >/dev/null 2>&1 &&
		{ fail "round $1: rxe_cc still shows rxe1 20 s after its netdev went"; return 1; }
	topo_teardown
	topo_setup 2 || { fail "round $1: the fabric could not be built again"; return 1; }
	wait_gid
}

netns_delete_under_load() {
	rounds namespaces netns_delete_round "deletions of the switch's namespace under paced QPs"
}

still_works() {
	local mbps
	modprobe rxe_cc || fail "modprobe failed" || return 1
	mbps=$(perftest_bw ib_write_bw 1 2 2) || return 1
	ktap_print_msg "a new flow: $mbps Mb/s"
	awk -v m="$mbps" 'BEGIN { exit !(m > 0) }' || fail "no bandwidth"
}

ktap_print_header
ktap_set_plan 6
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
PERFTEST_LOG=$ksft_tmp/teardown-bw.log
ktap_test_result "rmmod rxe_cc with queues full, dumps and a monitor running" unload_under_load
ktap_test_result "killing paced QPs' processes frees their held packets" kill_under_load
ktap_test_result "deleting an rxe device right after its paced QPs died" delete_device_under_load
ktap_test_result "the netdev going down under paced QPs" netdev_down_under_load
ktap_test_result "the switch's namespace deleted under paced QPs" netns_delete_under_load
ktap_test_result "afterwards rxe_cc loads and moves traffic" still_works
ktap_finished
