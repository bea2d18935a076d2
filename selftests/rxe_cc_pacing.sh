#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pacer: a QP's requests leave at no more than its rate, a device's at
# no more than its line rate; data arrives intact when paced; and QP
# destroy, device removal and module unload in the middle of paced traffic
# finish at once, with a clean kernel log (the VM runner fails the test on
# any warning).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

PERFTEST_LOG=$ksft_tmp/pacing.log
CAP_MBPS=20

pace_both() { # MBPS
	rocectl dcqcn set dev rxe1 max-rate "$1" && rocectl dcqcn set dev rxe2 max-rate "$1"
}

rate_is_capped() {
	local mbps
	pace_both $CAP_MBPS || return 1
	mbps=$(perftest_bw ib_write_bw 1 2 4) || return 1
	ktap_print_msg "ib_write_bw with max-rate $CAP_MBPS: $mbps Mb/s"
	# IP bytes, the unit max-rate paces.
	awk -v m="$mbps" -v c=$CAP_MBPS 'BEGIN { exit !(m <= c * 1.02 && m >= c * 0.5) }' ||
		fail "$mbps Mb/s with a $CAP_MBPS Mb/s cap"
	[ "$(dev_stat rxe1 paced-packets)" -gt 0 ] || fail "the pacer held nothing"
}

# The port: two QPs at the line rate together send at no more than it, and
# share it. Without the port each would go at the line rate.
PORT_MBPS=20
port_caps_the_device() {
	local line mbps held top2
	line=$(rocectl -j dcqcn show dev rxe1 | jq '.[0]["line-rate"]')
	rocectl dcqcn set dev rxe1 max-rate 0 line-rate $PORT_MBPS || return 1
	rocectl stats reset dev rxe1 || return 1
	mbps=$(perftest_bw ib_write_bw 1 2 4 -q 2)
	rocectl dcqcn set dev rxe1 line-rate "$line" || return 1
	[ -n "$mbps" ] || return 1
	held=$(dev_stat rxe1 port-held)
	ktap_print_msg "ib_write_bw -q 2 with line-rate $PORT_MBPS: $mbps Mb/s," \
		"$held requests held for the port"
	awk -v m="$mbps" -v c=$PORT_MBPS 'BEGIN { exit !(m <= c * 1.02 && m >= c * 0.5) }' ||
		fail "two QPs sent $mbps Mb/s through a $PORT_MBPS Mb/s port" || return 1
	[ "$held" -gt 0 ] || fail "the port held nothing" || return 1
	top2=$(qp_json rxe1 | jq -r '[.[].stats["tx-bytes"]] | sort | .[-2:] | "\(.[0]) \(.[1])"')
	ktap_print_msg "the two QPs sent $top2 bytes"
	awk -v a="${top2% *}" -v b="${top2#* }" 'BEGIN { exit !(a >= 0.8 * b) }' ||
		fail "the port's share was uneven: $top2 bytes"
}

data_intact() {
	local gid1 gid2 srv rc
	pace_both 5 || return 1
	gid1=$(topo_gid_index 1 4)
	gid2=$(topo_gid_index 2 4)
	ibv_rc_pingpong -d rxe2 -g "$gid2" -s 8192 -n 200 -c >$ksft_tmp/pp.server 2>&1 &
	srv=$!
	# ibv_rc_pingpong's default port; a fixed sleep lost the race on a busy host.
	perftest_wait_listen 18515 || { kill "$srv"; fail "pingpong server did not listen"; return 1; }
	ibv_rc_pingpong -d rxe1 -g "$gid1" -s 8192 -n 200 -c $PERFTEST_OOB >$ksft_tmp/pp.client 2>&1
	rc=$?
	[ $rc -eq 0 ] || kill "$srv" 2>/dev/null
	wait "$srv" || rc=1
	ktap_print_msg "$(grep -h 'bytes in' $ksft_tmp/pp.client)"
	[ $rc -eq 0 ] || { sed 's/^/#   /' $ksft_tmp/pp.client $ksft_tmp/pp.server; fail "pingpong failed"; }
}

# start_paced_flow: ib_write_bw at 1 Mb/s for long; its QP fills the pacer.
start_paced_flow() {
	local gid1 gid2
	pace_both 1 || return 1
	gid1=$(topo_gid_index 1 4)
	gid2=$(topo_gid_index 2 4)
	ib_write_bw -d rxe2 -x "$gid2" -D 60 -F >/dev/null 2>&1 &
	flow_srv=$!
	perftest_wait_listen 18515 || return 1
	ib_write_bw -d rxe1 -x "$gid1" -D 60 -F $PERFTEST_OOB >/dev/null 2>&1 &
	flow_cli=$!
	# Wait until the pacer holds packets of the flow.
	for _ in $(seq 50); do
		[ "$(qp_json rxe1 | jq '[.[].queue] | add // 0')" -gt 0 ] && return 0
		sleep 0.2
	done
	fail "the pacer never held packets"
}

# timed COMMAND...: run COMMAND in this shell (it may wait for this
# shell's children), leaving how long it took in $elapsed_ms.
timed() {
	local t0
	t0=$(date +%s%N)
	"$@"
	elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
}

# kill_and_wait: end the flow; its QPs are destroyed as the processes exit.
kill_and_wait() {
	{
		kill -9 "$flow_cli" "$flow_srv"
		wait "$flow_cli" "$flow_srv"
	} 2>/dev/null
	return 0
}

qp_destroy_prompt() {
	local ms dropped0
	dropped0=$(dev_stat rxe1 paced-dropped)
	start_paced_flow || { kill_and_wait; return 1; }
	timed kill_and_wait
	ms=$elapsed_ms
	ktap_print_msg "killing the paced ib_write_bw (QP destroy) took $ms ms"
	[ "$ms" -lt 5000 ] || fail "QP destroy took $ms ms" || return 1
	[ "$(dev_stat rxe1 paced-dropped)" -gt "$dropped0" ] ||
		fail "destroy finished without the pacer letting go of its packets"
}

# rxe cannot take a device from a process using it: rdma link del waits
# for the process to go. From then on it must finish at once.
device_removal_prompt() {
	local del ms t0
	start_paced_flow || { kill_and_wait; return 1; }
	rdma link del rxe1 &
	del=$!
	sleep 1
	t0=$(date +%s%N)
	kill_and_wait
	wait "$del" || fail "rdma link del failed"
	ms=$((($(date +%s%N) - t0) / 1000000))
	ktap_print_msg "rdma link del rxe1 under paced traffic: done $ms ms after its users went"
	rdma link add rxe1 type rxe netdev roce1 || return 1
	[ "$ms" -lt 5000 ] || fail "device removal took $ms ms after its users went"
}

unload_prompt() {
	local ms
	start_paced_flow || { kill_and_wait; return 1; }
	timed rmmod rxe_cc
	ms=$elapsed_ms
	ktap_print_msg "rmmod rxe_cc under paced traffic took $ms ms"
	# The flow goes on without rxe_cc: its QP must still work.
	sleep 2
	kill -0 "$flow_cli" 2>/dev/null || fail "the flow died when rxe_cc went" || {
		kill_and_wait; return 1; }
	kill_and_wait
	[ "$ms" -lt 5000 ] || fail "rmmod took $ms ms"
}


ktap_print_header
ktap_set_plan 6
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
ktap_test_result "a QP sends at no more than max-rate" rate_is_capped
ktap_test_result "a device's QPs together send at no more than its line rate" port_caps_the_device
ktap_test_result "data arrives intact under pacing (ibv_rc_pingpong -c)" data_intact
ktap_test_result "QP destroy in paced traffic frees held packets at once" qp_destroy_prompt
ktap_test_result "rdma link del in paced traffic finishes promptly" device_removal_prompt
ktap_test_result "rmmod rxe_cc in paced traffic finishes promptly, traffic goes on" unload_prompt
ktap_finished
