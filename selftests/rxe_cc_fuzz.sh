#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input from both of rxe_cc's doors while a flow runs: requests to its
# netlink family made from the spec and broken (lib/nl_fuzz.py), as root and
# as nobody, and broken RoCEv2 packets at its receive hook
# (lib/pkt_fuzz.py). Every request is answered, a refused one changes
# nothing, nobody carries out no admin command, and afterwards the module
# still serves requests and moves traffic. On the debug kernel the runner
# adds KASAN, UBSAN, lockdep and kmemleak's verdicts.
#
# FUZZ_SEED (default 1) and FUZZ_COUNT (default 1000 requests, twice as many
# packets) make a run longer or different; the seed is printed so that a
# failure can be replayed.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

SEED=${FUZZ_SEED:-1}
COUNT=${FUZZ_COUNT:-1000}
SPEC=$here/../Documentation/netlink/specs/rxe_cc.yaml
[ -f "$SPEC" ] || SPEC=$here/rxe_cc.yaml
PERFTEST_LOG=$ksft_tmp/fuzz-bw.log

# start_flow: ib_write_bw host 1 -> 2 in the background for the whole
# test, so that QPs exist and the pacer and the hooks are busy while the
# fuzzers run; leaves host 1's QP numbers in flow_qpns.
start_flow() {
	perftest_background 1 2 600 "$ksft_tmp/flow" || return 1
	defer kill "${perftest_pids[@]}"
	for _ in $(seq 50); do
		flow_qpns=$(qp_json rxe1 | jq -r '.[] | select(.stats["tx-packets"] > 100) | .qpn')
		[ -n "$flow_qpns" ] && return 0
		sleep 0.2
	done
	return 1
}

nl_fuzz() { # [--unprivileged] COUNT
	local out=$ksft_tmp/nl-fuzz.out rc
	python3 "$here/lib/nl_fuzz.py" "$SPEC" rxe1 "$SEED" "${@: -1}" "${@:1:$#-1}" >"$out" 2>&1
	rc=$?
	head -n 20 "$out"
	[ $rc -eq 0 ] || fail "violations (replay: FUZZ_SEED=$SEED)"
}

fuzz_netlink_root() {
	nl_fuzz "$COUNT"
}

fuzz_netlink_nobody() {
	nl_fuzz --unprivileged $((COUNT / 3))
}

fuzz_packets() {
	local args=() q m0 m1 u0 u1
	for q in $flow_qpns; do
		args+=(--qpn "$q")
	done
	m0=$(dev_stat rxe1 malformed)
	u0=$(dev_stat rxe1 unknown-qp)
	topo_sw python3 "$here/lib/pkt_fuzz.py" "$(topo_ip4 250)" "$(topo_ip4 1)" "$SEED" \
		$((COUNT * 2)) "${args[@]}" --qpn 11259375 || fail "could not send" || return 1
	sleep 1
	m1=$(dev_stat rxe1 malformed)
	u1=$(dev_stat rxe1 unknown-qp)
	ktap_print_msg "rxe1: malformed +$((m1 - m0)), unknown-qp +$((u1 - u0))"
	# Packets cut inside the BTH reach the hook: it must have seen them.
	[ "$m1" -gt "$m0" ] || fail "no packet counted as malformed"
}

still_serves() {
	local mbps
	rocectl dev show >/dev/null || fail "rocectl dev show failed" || return 1
	rocectl dcqcn set dev rxe1 preset mlx5 >/dev/null ||
		fail "a valid set was refused" || return 1
	rocectl qp set dev rxe1 qpn "$(echo "$flow_qpns" | head -n 1)" dcqcn device \
		min-rate 0 max-rate 0 >/dev/null 2>&1
	mbps=$(perftest_bw ib_write_bw 1 2 2) || return 1
	ktap_print_msg "a new flow after the fuzzing: $mbps Mb/s"
	awk -v m="$mbps" 'BEGIN { exit !(m > 0) }' || fail "no bandwidth"
}

ktap_print_header
ktap_set_plan 4
ktap_print_msg "FUZZ_SEED=$SEED FUZZ_COUNT=$COUNT"
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
# The fuzzed packets come from the switch, as a misbehaving peer's would.
topo_sw ip addr add "$(topo_ip4 250)/24" dev br0 ||
	{ echo "Bail out! no address on the switch"; exit $KSFT_FAIL; }
start_flow || { echo "Bail out! the background flow did not start"; exit $KSFT_FAIL; }
ktap_test_result "fuzzed netlink requests as root: all answered, refused ones change nothing" \
	fuzz_netlink_root
ktap_test_result "fuzzed netlink requests as nobody: no admin command carried out" \
	fuzz_netlink_nobody
ktap_test_result "broken RoCEv2 packets at the receive hook are counted and dropped" \
	fuzz_packets
ktap_test_result "afterwards rxe_cc still serves requests and moves traffic" still_serves
ktap_finished
