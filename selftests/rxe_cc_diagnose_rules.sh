#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl diagnose's other findings, made on purpose as in
# rxe_cc_diagnose.sh: hand-made CNPs (bad, stray, forged), a CNP spacing
# longer than the test, a switch that marks every packet, a QP capped
# beside a free one, a host firewall that drops its CNPs, ACKs later than
# the QP's timeout, a QP destroyed with packets in the pacer, a QP
# whose ACKs its host's firewall drops, and a line rate under what a flow
# takes. These
# judge the host's rules on real counters; the counters themselves are
# checked on every kernel by rxe_cc_cnp.sh and rxe_cc_control.sh, so this
# runs on the default kernel only (make check's time budget, README).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/testing/lateness.sh"
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
	# The port's marking is the healthy incast's business
	# (rxe_cc_diagnose.sh): a busy host's stops raise it past 50%, where
	# the hand-made CNPs, which can only slow the senders, cannot.
	expect cnp-malformed rxe1 -- cnp-unknown-qp cnp-wrong-source marking-high &&
		expect cnp-unknown-qp rxe1 -- cnp-malformed cnp-wrong-source marking-high &&
		expect cnp-wrong-source "rxe2 ${flow_qpn[2]}" -- cnp-malformed cnp-unknown-qp marking-high
}

cnp_spacing_too_long() {
	flows 2 || return 1
	# One CNP per 10 s for the whole port: diagnose starts just after one.
	rocectl np set dev rxe3 per-port on min-time-between-cnps 10000000 &&
		wait_stat rxe3 np-cnp-sent && diagnose && expect cnp-suppressed rxe3 -- $UNBRAKED
}

marks_everything() {
	# CE on every RoCE packet to host 3 (ECN bits set, the checksum redone):
	# a marking threshold of zero.
	topo_sw tc qdisc add dev "$(topo_port 3)" clsact &&
		topo_sw tc filter add dev "$(topo_port 3)" egress protocol ip u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			action pedit ex munge ip tos set 3 retain 3 pipe action csum ip || return 1
	# The senders' increase timer at 1 s: see the comment at the test.
	rocectl dcqcn set dev rxe1 time-reset 1000000 &&
		rocectl dcqcn set dev rxe2 time-reset 1000000 &&
		flows 2 && diagnose &&
		expect marking-high rxe3 -- rate-at-floor &&
		expect rate-at-floor "rxe1 ${flow_qpn[1]}" "rxe2 ${flow_qpn[2]}" -- marking-high
}

capped_qp() {
	healthy_port && flows 2 &&
		rocectl qp set dev rxe1 qpn "${flow_qpn[1]}" min-rate 1 max-rate 4 &&
		sleep 1 && diagnose && expect qp-starved "rxe1 ${flow_qpn[1]}"
}

cnp_firewalled() {
	local qpns
	# Host 3's own firewall drops the CNPs it makes (BTH opcode 0x81, the
	# first byte after the UDP header) on their way out.
	nft -f - <<-EOF || return 1
		table inet rxecc_diag {
			chain out {
				type filter hook output priority 0;
				oifname "$(topo_dev 3)" udp dport 4791 @th,64,8 0x81 drop
			}
		}
	EOF
	flows 2 && diagnose || return 1
	# The receiving ends of the two flows: rxe3's newest QPs.
	read -ra qpns <<<"$(qp_json rxe3 | jq -r '[.[].qpn] | sort | .[-2:] | join(" ")')"
	expect cnp-unresolved "rxe3 ${qpns[0]}" "rxe3 ${qpns[1]}" -- $UNBRAKED
}

late_acks() {
	# Host 1's ACKs leave the switch in bursts every 30 ms (netem slots),
	# where its QP waits 8 ms for them (perftest -u 10: two jiffies at
	# HZ=250): each burst comes after a timeout, and the QP resends what
	# arrived. No marking port, no loss. rxe counts the duplicates at the
	# responder; the requester counts a timeout, not the packets it
	# resends. The writes are of one packet: under such resends rxe 6.1's
	# responder now and then fails a write of several (NAK invalid
	# request at its last packet, the QP in error, the flow gone), with
	# rxe_cc loaded or not.
	topo_bottleneck 3 1000mbit netem 0 1000 &&
		topo_sw tc qdisc add dev "$(topo_port 1)" root netem slot 30ms limit 10000 ||
		return 1
	PERFTEST_QP_TIMEOUT=10 flows 1 -s 1024 && diagnose && expect resends-without-loss rxe3
}

# drop_acks_to QPN: host 1's firewall drops what comes in for its QP QPN
# (the BTH's destination QP, bytes 5-7 after the UDP header): ACKs, CNPs.
drop_acks_to() {
	nft -f - <<-EOF
		table inet rxecc_diag {
			chain in {
				type filter hook input priority 0;
				iifname "$(topo_dev 1)" udp dport 4791 @th,104,24 $1 drop
			}
		}
	EOF
}

acks_dropped() {
	# From just before the interval nothing reaches flow 1's QP: it resends
	# its window on each timeout (268 ms, perftest -u 16), for ever
	# (perftest's retry count is 7, which means no limit), so rxe's
	# retry-exceeded is left to the unit test. The responder counts the
	# resends as duplicates.
	healthy_port && PERFTEST_QP_TIMEOUT=16 flows 1 && drop_acks_to "${flow_qpn[1]}" &&
		diagnose && expect qp-stalled "rxe1 ${flow_qpn[1]}" -- resends-without-loss cnp-lost
}

paced_qp_destroyed() {
	# Paced to 1 Mb/s, the QP has packets held when its process dies.
	flows 1 && rocectl qp set dev rxe1 qpn "${flow_qpn[1]}" min-rate 1 max-rate 1 && sleep 1 || return 1
	diagnose 2 flows_stop && expect paced-dropped rxe1
}

# A line rate under what host 1's flow takes through a free port.
port_limited() {
	rocectl dcqcn set dev rxe1 line-rate 10 && healthy_port && flows 1 && diagnose &&
		expect port-limited rxe1
}

diag_setup 9
ktap_test_result "bad, stray and forged CNPs: cnp-malformed, cnp-unknown-qp, cnp-wrong-source" \
	with mend bad_cnps
ktap_test_result "one CNP per 10 s: cnp-suppressed at the receiver" with mend cnp_spacing_too_long
# rate-at-floor wants a QP at its floor in 80% of diagnose's samples. At
# its floor a QP gets a CNP every 2 ms, too seldom to keep alpha above 0
# (its period is 100 us), and its target rate is still the line rate
# (the CNPs cut it before any increase event). A VM that stops for longer
# than the increase timer (30 ms, and stops of 33-164 ms were seen under
# make check) lets one fast-recovery step lift the rate half way to the
# line rate, where cuts of alpha 0 leave it for seconds. So the timer is
# 1 s here, longer than any stop; the probe's retry is for the starved VM
# whose CNPs come late all the time.
ktap_test_result_starved "every packet marked: marking-high at the receiver, rate-at-floor at both senders" \
	with mend marks_everything
ktap_test_result "a QP capped at 4 Mb/s beside a free one: qp-starved on it" with mend capped_qp
ktap_test_result "the receiver's firewall drops its CNPs: cnp-unresolved on its QPs" \
	with mend cnp_firewalled
ktap_test_result "ACKs later than the QP's timeout: resends-without-loss at the responder" \
	with mend late_acks
ktap_test_result "a QP destroyed while paced: paced-dropped on its device" \
	with mend paced_qp_destroyed
ktap_test_result "no ACK reaches a QP: qp-stalled on it" \
	with mend acks_dropped
ktap_test_result "a line rate under the flow's: port-limited on its device" \
	with mend port_limited
ktap_finished
