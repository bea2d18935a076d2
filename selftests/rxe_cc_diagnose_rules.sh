#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl diagnose's other findings, made on purpose as in
# rxe_cc_diagnose.sh: hand-made CNPs (bad, stray, forged), a CNP spacing
# longer than the test, a switch that marks every packet, and a QP capped
# beside a free one. These judge the host's rules on real counters; the
# counters themselves are checked on every kernel by rxe_cc_cnp.sh and
# rxe_cc_control.sh, so this runs on the default kernel only (make
# check's time budget, README).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/diagnose.sh"

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

diag_setup 4
ktap_test_result "bad, stray and forged CNPs: cnp-malformed, cnp-unknown-qp, cnp-wrong-source" \
	with mend bad_cnps
ktap_test_result "one CNP per 10 s: cnp-suppressed at the receiver" with mend cnp_spacing_too_long
ktap_test_result "every packet marked: marking-high at the receiver, rate-at-floor at both senders" \
	with mend marks_everything
ktap_test_result "a QP capped at 4 Mb/s beside a free one: qp-starved on it" with mend capped_qp
ktap_finished
