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
# no finding at all. This part runs on every kernel;
# rxe_cc_diagnose_rules.sh makes the other findings.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/testing/lateness.sh"
. "$here/lib/diagnose.sh"

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

# Nothing marks, so the flow stays at its line rate, where its own link
# may hold it (seen: 2759 of 4992 requests): port-limited, rightly.
lossy() {
	topo_bottleneck 3 1000mbit netem 1 1000 || return 1
	flows 1 && diagnose && expect loss-without-marks rxe1 rxe3 -- port-limited
}

lossy_without_cc() {
	topo_bottleneck 3 1000mbit netem 1 1000 && rmmod rxe_cc || return 1
	flows 1 && diagnose && expect loss-without-cc rxe1 rxe3 -- cc-not-loaded &&
		expect cc-not-loaded "" -- loss-without-cc
}

diag_setup 6
ktap_test_result_starved "a healthy 2:1 incast with DCQCN: no problem found" with mend healthy
ktap_test_result "the receiver's NP off: np-off on it" with mend np_off
ktap_test_result "CNPs dropped by the switch: cnp-lost on both senders" with mend cnp_blocked
ktap_test_result "DCQCN off on a sender: dcqcn-off on its QP" with mend dcqcn_off
ktap_test_result "1% random loss, no marking: loss-without-marks" with mend lossy
ktap_test_result "the same without rxe_cc: loss-without-cc from rxe's counters" \
	with mend lossy_without_cc
ktap_finished
