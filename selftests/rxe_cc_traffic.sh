#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two RoCE hosts, ib_write_bw from one to the other through the emulated
# switch: with rxe_cc loaded, then unloaded. Proves the VM harness and the
# topology: the traffic must complete with non-zero bandwidth and the switch
# ports' counters must show that it crossed the switch, not lo. With
# hundreds of QPs at once, rxe_cc must keep every one's state.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

SECONDS_PER_RUN=3
MANY_QPS=500
PERFTEST_LOG=$ksft_tmp/traffic.log

# write_bw_crosses_switch: run ib_write_bw host 1 -> host 2 and check that
# what host 1's netdev sent crossed the switch: its port from host 1
# received it and its port to host 2 sent it on.
write_bw_crosses_switch() {
	local rx0 tx0 rx1 tx1 sent0 sent1 mbps sent

	rx0=$(topo_port_bytes 1 rx)
	tx0=$(topo_port_bytes 2 tx)
	sent0=$(topo_tx 1 bytes)
	mbps=$(perftest_bw ib_write_bw 1 2 $SECONDS_PER_RUN) || return 1
	sent1=$(topo_tx 1 bytes)
	rx1=$(topo_port_bytes 1 rx)
	tx1=$(topo_port_bytes 2 tx)
	sent=$((sent1 - sent0))
	ktap_print_msg "ib_write_bw: $mbps Mb/s; host 1 sent $sent bytes; switch:" \
		"$((rx1 - rx0)) bytes in from host 1, $((tx1 - tx0)) out to host 2"

	awk -v m="$mbps" 'BEGIN { exit !(m > 0) }' || fail "no bandwidth" || return 1
	[ $((rx1 - rx0)) -ge "$sent" ] ||
		fail "switch port 1 received $((rx1 - rx0)) bytes, host 1 sent $sent" || return 1
	[ $((tx1 - tx0)) -ge "$sent" ] ||
		fail "switch port 2 sent $((tx1 - tx0)) bytes, host 1 sent $sent" || return 1
}

# many_qps_tracked: ib_write_bw with MANY_QPS QPs, 1 KB writes, one in
# flight per QP (as make bench runs them): rxe_cc must keep a state for each
# of them, dev show must count every QP that qp show lists, and the QPs'
# packets must add up to the device's.
many_qps_tracked() {
	local qps listed busy dev_tx qp_tx

	perftest_bw ib_write_bw 1 2 $SECONDS_PER_RUN -q $MANY_QPS -s 1024 -t 1 >/dev/null ||
		return 1
	qps=$(rocectl -j dev show dev rxe1 | jq '.[0].qps')
	qp_json rxe1 >"$ksft_tmp/qps.json" || fail "rocectl qp show failed" || return 1
	listed=$(jq length "$ksft_tmp/qps.json")
	busy=$(jq '[.[] | select(.stats["tx-packets"] > 0)] | length' "$ksft_tmp/qps.json")
	qp_tx=$(jq '[.[].stats["tx-packets"]] | add' "$ksft_tmp/qps.json")
	dev_tx=$(dev_stat rxe1 tx-packets)
	ktap_print_msg "$MANY_QPS QPs: dev show counts $qps, qp show lists $listed," \
		"$busy of them sent; $qp_tx packets by the QPs, $dev_tx by the device"
	[ "$busy" -ge $MANY_QPS ] ||
		fail "$busy QPs with packets of their own, want $MANY_QPS" || return 1
	[ "$qps" = "$listed" ] || fail "dev show counts $qps QPs, qp show lists $listed" ||
		return 1
	[ "$qp_tx" = "$dev_tx" ] ||
		fail "the QPs sent $qp_tx packets, the device $dev_tx"
}

module_loaded() {
	grep -q '^rxe_cc ' /proc/modules
}


ktap_print_header
ktap_set_plan 4
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown

modprobe rxe_cc
ktap_test_result "ib_write_bw through the switch, rxe_cc loaded" write_bw_crosses_switch
ktap_test_result "$MANY_QPS QPs at once: each has its state, counted and listed" many_qps_tracked

dmesg_lines=$(dmesg | wc -l)
rmmod rxe_cc
unload_clean() {
	! module_loaded || fail "rxe_cc still loaded" || return 1
	local new
	new=$(dmesg | tail -n +$((dmesg_lines + 1)))
	[ -z "$new" ] || fail "rmmod left kernel log lines: $new"
}
ktap_test_result "rmmod rxe_cc under an active topology leaves no trace" unload_clean
ktap_test_result "ib_write_bw through the switch, rxe_cc unloaded" write_bw_crosses_switch
ktap_finished
