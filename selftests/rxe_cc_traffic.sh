#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two RoCE hosts, ib_write_bw from one to the other through the emulated
# switch: with rxe_cc loaded, then unloaded. Proves the VM harness and the
# topology: the traffic must complete with non-zero bandwidth and the switch
# ports' counters must show that it crossed the switch, not lo.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"

SECONDS_PER_RUN=3
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

module_loaded() {
	grep -q '^rxe_cc ' /proc/modules
}


ktap_print_header
ktap_set_plan 3
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown

modprobe rxe_cc
ktap_test_result "ib_write_bw through the switch, rxe_cc loaded" write_bw_crosses_switch

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
