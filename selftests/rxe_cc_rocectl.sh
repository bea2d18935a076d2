#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl against the module: settings take effect and read back; refused
# input (unknown keys, out-of-range values, unprivileged users, devices
# that are not rxe, QPs that do not exist) gets a one-line reason and the
# right exit code and changes nothing; the QP counters match the traffic.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

PERFTEST_LOG=$ksft_tmp/rocectl-bw.log

dcqcn() { # DEV KEY
	rocectl -j dcqcn show dev "$1" | jq ".[0][\"$2\"]"
}

set_and_show() {
	rocectl dcqcn set dev rxe1 ai-rate 10 rp_hai_rate 100 || return 1
	[ "$(dcqcn rxe1 ai-rate)" -eq 10 ] || fail "ai-rate did not take" || return 1
	[ "$(dcqcn rxe1 hai-rate)" -eq 100 ] || fail "rp_hai_rate (mlx5 name) did not take" ||
		return 1
	[ "$(dcqcn rxe2 ai-rate)" -eq 5 ] || fail "the other device changed"
}

presets() {
	rocectl dcqcn set dev rxe1 preset paper time-reset 60 || return 1
	[ "$(dcqcn rxe1 threshold)" -eq 5 ] && [ "$(dcqcn rxe1 ai-rate)" -eq 40 ] ||
		fail "preset paper did not take" || return 1
	[ "$(dcqcn rxe1 time-reset)" -eq 60 ] || fail "a key after a preset must override it" ||
		return 1
	rocectl dcqcn set dev rxe1 preset mlx5 || return 1
	[ "$(dcqcn rxe1 time-reset)" -eq 300 ] && [ "$(dcqcn rxe1 ai-rate)" -eq 5 ] ||
		fail "preset mlx5 did not restore the defaults"
}

np_settings() {
	rocectl np set dev rxe2 min-time-between-cnps 50 per-port on cnp-dscp 26 \
		cnp-prio-mode data || return 1
	local j
	j=$(rocectl -j np show dev rxe2)
	[ "$(echo "$j" | jq '.[0]["min-time-between-cnps"]')" -eq 50 ] &&
		[ "$(echo "$j" | jq '.[0]["per-port"]')" = true ] &&
		[ "$(echo "$j" | jq '.[0]["cnp-dscp"]')" -eq 26 ] &&
		[ "$(echo "$j" | jq -r '.[0]["cnp-prio-mode"]')" = data ] ||
		fail "np settings did not read back: $j"
}

unchanged_after() { # what
	[ "$(dcqcn rxe1 ai-rate)" -eq 5 ] && [ "$(dcqcn rxe1 time-reset)" -eq 300 ] ||
		fail "a refused set ($1) changed the parameters"
}

bad_key() {
	refused 1 'unknown key "ai-speed"' dcqcn set dev rxe1 ai-speed 5 || return 1
	unchanged_after "unknown key"
}

bad_number() {
	refused 1 'ai-rate: "5x" is not a number' dcqcn set dev rxe1 ai-rate 5x || return 1
	unchanged_after "not a number"
}

out_of_range() {
	# time-reset is valid and comes first: a refused set changes nothing.
	refused 2 'ai-rate: .*(1..400000 Mb/s)' dcqcn set dev rxe1 time-reset 10 \
		ai-rate 400001 || return 1
	unchanged_after "out of range" || return 1
	refused 2 'cnp-dscp' np set dev rxe2 cnp-dscp 64 || return 1
	refused 2 'min-rate must not exceed max-rate' dcqcn set dev rxe1 max-rate 10 \
		min-rate 20 || return 1
	unchanged_after "min above max"
}

unprivileged() {
	ROCECTL_AS="runuser -u nobody --" \
		refused 2 'Operation not permitted' dcqcn set dev rxe1 ai-rate 7 || return 1
	unchanged_after "unprivileged" || return 1
	# Reading is open to everyone.
	runuser -u nobody -- "$ROCECTL" dcqcn show dev rxe1 >/dev/null ||
		fail "an unprivileged user cannot read"
}

not_rxe() {
	refused 2 'no such rxe device' dcqcn set dev lo ai-rate 5 || return 1
	refused 2 'rxe9 is not an rxe device' dcqcn show dev rxe9
}

no_such_qp() {
	refused 2 'qpn: no such QP' qp show dev rxe1 qpn 999999 || return 1
	refused 1 'qpn needs its device' qp show qpn 1
}

counters_match_traffic() {
	local mbps tx_pkts tx_bytes rx_pkts unknown port_rx
	mbps=$(perftest_bw ib_write_bw 1 2 3) || return 1
	tx_pkts=$(qp_json rxe1 | jq 'max_by(.qpn).stats["tx-packets"]')
	tx_bytes=$(qp_json rxe1 | jq 'max_by(.qpn).stats["tx-bytes"]')
	rx_pkts=$(qp_json rxe2 | jq 'max_by(.qpn).stats["rx-packets"]')
	unknown=$(dev_stat rxe2 unknown-qp)
	port_rx=$(topo_port_bytes 1 rx)
	ktap_print_msg "$mbps Mb/s; sender QP $tx_pkts packets $tx_bytes bytes;" \
		"receiver QP $rx_pkts packets (+$unknown before it knew the QP); switch $port_rx bytes"
	awk -v m="$mbps" 'BEGIN { exit !(m > 0) }' ||
		{ sed 's/^/#   /' "$PERFTEST_LOG"; fail "no bandwidth"; return 1; }
	[ $((rx_pkts + unknown)) -eq "$tx_pkts" ] ||
		fail "receiver saw $((rx_pkts + unknown)) packets, sender sent $tx_pkts" || return 1
	# On the wire each packet also has a 14-byte Ethernet header; the port
	# carries a little other traffic too (neighbour discovery).
	[ "$port_rx" -ge $((tx_bytes + 14 * tx_pkts)) ] &&
		[ "$port_rx" -le $((tx_bytes + 14 * tx_pkts + 20000)) ] ||
		fail "switch counted $port_rx bytes from the sender"
}

not_loaded() {
	rmmod rxe_cc || return 1
	refused 2 'rxe_cc is not loaded' dev show
	local rc=$?
	# rocectl must not have loaded it behind the user's back.
	! grep -q '^rxe_cc ' /proc/modules || fail "rocectl loaded rxe_cc" || rc=1
	modprobe rxe_cc
	return $rc
}


ktap_print_header
ktap_set_plan 12
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
ktap_test_result "dcqcn set reads back, by rocectl key and by mlx5 name" set_and_show
ktap_test_result "presets, with keys overriding them" presets
ktap_test_result "np settings read back" np_settings
ktap_test_result "an unknown key is refused (exit 1)" bad_key
ktap_test_result "a value that is not a number is refused (exit 1)" bad_number
ktap_test_result "out-of-range values are refused by the kernel, naming the key and range" out_of_range
ktap_test_result "an unprivileged set is refused (EPERM), reading is open" unprivileged
ktap_test_result "a device that is not rxe is refused" not_rxe
ktap_test_result "a QP that does not exist is refused" no_such_qp
ktap_test_result "-j -s qp show matches the traffic" counters_match_traffic
ktap_test_result "without the module: 'rxe_cc is not loaded'" not_loaded
help_without_module() {
	rmmod rxe_cc || return 1
	rocectl dcqcn help | grep -q 'rp_ai_rate'
	local rc=$?
	modprobe rxe_cc
	[ $rc -eq 0 ] || fail "no help"
}
ktap_test_result "help works without the module" help_without_module
ktap_finished
