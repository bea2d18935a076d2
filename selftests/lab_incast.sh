#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's default scenario, short, from the host: `tools/lab/run incast`
# boots its VM, runs the 2:1 incast without and with DCQCN, and leaves
# tables and plots behind. The outcome must keep its shape, so the demo
# cannot rot: with DCQCN the flows share the port (Jain >= 0.9) and the
# switch queue's p99 stays below the run without congestion control;
# the table's capacity row is the steady goodput over the port's payload
# capacity; every CNP the receiver sent was handled; rocectl diagnose
# finds nothing with DCQCN and the loss without it; and every file the lab
# promises exists and is not empty. First, options it cannot run with are
# refused, with a reason, before anything is made.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/lab.sh"

out=$top/.cache/check/lab-incast
rm -rf "$out"
mkdir -p "${out%/*}"
table=$out/table.json

# run_field RUN EXPR: a jq expression on the named run's results.
run_field() {
	jq -r --arg run "$1" ".[] | select(.run == \$run) | $2" "$table"
}

# One bad command line per line: its arguments, then what the refusal says.
bad_options_refused() {
	lab_refuses "$out" <<'EOF'
--kmin 800|lab: --kmin must be above 1000 bytes
ecn-threshold-too-low --limit 50000|--limit, which must be 50050 or more
--kmin 40000 --kmax 10000|lab: --kmin must be below --kmax
--kmax 200000|lab: --kmax must be below --limit
--rate 0|lab: --rate needs a positive integer
--pmax high|lab: --pmax needs a number
--preset dctcp|lab: --preset is mlx5 or paper
--flows 9|lab: at most 8 flows
--duration 5|lab: --duration must be 6 s or more
nosuch|lab: unknown scenario nosuch
--bogus 1|lab: unknown option --bogus
--kernel|lab: --kernel needs a kernel
EOF
}

lab_runs() {
	"$top/tools/lab/run" incast --duration 16 --out "$out" >"$out.log" 2>&1 ||
		{ sed 's/^/#   /' "$out.log" | tail -n 30; return 1; }
	tail -n 1 "$out.log" | grep -qx "lab: results in $out" ||
		fail "the last line does not name the results folder"
}

files_made() {
	local f
	for f in table.json table.txt overview.png rates.png queue.png alpha.png \
		no-cc/timeseries.csv no-cc/samples.jsonl \
		dcqcn/timeseries.csv dcqcn/qp.csv dcqcn/samples.jsonl dcqcn/rocectl-qp.json; do
		[ -s "$out/$f" ] || fail "$f is missing or empty" || return 1
	done
	for f in overview.png rates.png queue.png alpha.png; do
		[ "$(head -c 8 "$out/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
			fail "$f is not a PNG" || return 1
	done
	# Rc and alpha were sampled for both flows, all along.
	[ "$(awk -F, 'NR > 1 { n[$2]++ } END { print (n[1] > 50 && n[2] > 50) }' \
		"$out/dcqcn/qp.csv")" = 1 ] || fail "qp.csv lacks samples of a flow"
}

dcqcn_fair() {
	local jain
	jain=$(run_field dcqcn .jain)
	ktap_print_msg "DCQCN: Jain $jain, steady $(run_field dcqcn '.steady_goodput_mbps | map(tostring) | join(" and ")') Mb/s"
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.9) }' || fail "Jain's index $jain < 0.9"
}

# The table's capacity row: the steady goodput over what the port can carry
# as RoCE payload, its rate times 1024 / (1024 + 58) at MTU 1024
# (Documentation/labs.rst).
capacity_row() {
	local run rate sum ratio
	for run in no-cc dcqcn; do
		rate=$(run_field $run .params.rate)
		sum=$(run_field $run .steady_goodput_total_mbps)
		ratio=$(run_field $run .steady_goodput_to_capacity)
		ktap_print_msg "$run: $sum Mb/s steady, $ratio of the port's payload capacity"
		awk -v r="$ratio" -v s="$sum" -v c="$rate" 'BEGIN {
			want = s / (c * 1024 / (1024 + 58)); d = r - want
			exit !(r > 0 && d < 0.005 && d > -0.005) }' ||
			fail "$run: ratio $ratio is not $sum / ($rate * 1024 / 1082)" || return 1
	done
	grep -q "^goodput / port's payload capacity (steady) " "$out/table.txt" ||
		fail "the table has no capacity row"
}

dcqcn_queue_shorter() {
	local cc nocc
	cc=$(run_field dcqcn .queue_p99_bytes)
	nocc=$(run_field no-cc .queue_p99_bytes)
	ktap_print_msg "queue p99: $cc bytes with DCQCN, $nocc without"
	[ "$cc" -lt "$nocc" ] || fail "queue p99 $cc with DCQCN is not below $nocc without"
}

cnps_handled() {
	local sent handled
	sent=$(run_field dcqcn .cnp_sent)
	handled=$(run_field dcqcn .cnp_handled)
	ktap_print_msg "CNPs: $sent sent, $handled handled"
	[ "$sent" -gt 0 ] || fail "the receiver sent no CNP" || return 1
	[ "$handled" -eq "$sent" ] || fail "$sent CNPs sent but $handled handled"
}

# rocectl diagnose ran in both runs: the DCQCN run is healthy, the run
# without rxe_cc loses packets to the full buffer and says so.
diagnose_named() {
	local cc nocc
	cc=$(run_field dcqcn '.diagnose | map(.id) | join(" ")')
	nocc=$(run_field no-cc '.diagnose | map(.id) | unique | join(" ")')
	ktap_print_msg "rocectl diagnose: DCQCN run: ${cc:-no problem found}; without: $nocc"
	[ "$(run_field dcqcn '.diagnose | length')" = 0 ] ||
		fail "findings on the DCQCN run: $cc" || return 1
	[ "$nocc" = loss-without-cc ] || [ "$nocc" = "cc-not-loaded loss-without-cc" ] ||
		fail "the run without rxe_cc: \"$nocc\", not loss-without-cc"
	grep -q "^rocectl diagnose, DCQCN" "$out/table.txt" ||
		fail "no findings under the table"
}

ktap_print_header
ktap_set_plan 8
rm -rf "$out.bad"
ktap_test_result "the lab refuses options it cannot run with, and says why" bad_options_refused
mkdir -p "$out"
ktap_test_result "tools/lab/run incast finishes and names its folder" lab_runs
[ -s "$table" ] || ktap_finished
ktap_test_result "tables, CSV, rocectl counters and PNG plots are written" files_made
ktap_test_result "with DCQCN the flows share the port (Jain >= 0.9)" dcqcn_fair
ktap_test_result "the table puts the steady goodput against the port's capacity" capacity_row
ktap_test_result "with DCQCN the queue's p99 is below the no-CC run's" dcqcn_queue_shorter
ktap_test_result "every CNP sent is handled by a sender" cnps_handled
ktap_test_result "rocectl diagnose: nothing with DCQCN, loss-without-cc without" diagnose_named
ktap_finished
