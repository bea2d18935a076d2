#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's tcp-mix scenario, short, from the host: a TCP flow and two
# DCQCN flows in one queue, then with RoCE in a class of its own. The
# lesson must hold: in one queue TCP takes more than the RoCE flows
# together and the queue sits near the buffer; apart, RoCE gets more and
# its queue is shorter.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

out=$top/.cache/check/lab-tcp-mix
rm -rf "$out"
table=$out/table.json

run_field() { # RUN EXPR
	jq -r --arg run "$1" ".[] | select(.run == \$run) | $2" "$table"
}

lab_runs() {
	"$top/tools/lab/run" tcp-mix --duration 12 --out "$out" >"$out.log" 2>&1 ||
		{ sed 's/^/#   /' "$out.log" | tail -n 30; return 1; }
	sed -n '/^ *TCP and RoCE in one queue/,/^$/s/^/# /p' "$out.log"
	[ -s "$table" ] || fail "no table.json"
}

tcp_wins_shared() {
	local tcp roce
	tcp=$(run_field shared .tcp_mbps)
	roce=$(run_field shared .goodput_total_mbps)
	awk -v t="$tcp" -v r="$roce" 'BEGIN { exit !(t > r && r > 0) }' ||
		fail "one queue: TCP $tcp Mb/s, RoCE $roce Mb/s"
}

classes_help_roce() {
	local r1 r2 q1 q2
	r1=$(run_field shared .goodput_total_mbps)
	r2=$(run_field separate .goodput_total_mbps)
	q1=$(run_field shared .queue_p50_bytes)
	q2=$(run_field separate .queue_p50_bytes)
	ktap_info "RoCE $r1 -> $r2 Mb/s, RoCE queue p50 $q1 -> $q2 bytes;" \
		"TCP $(run_field separate .tcp_mbps) Mb/s"
	awk -v a="$r1" -v b="$r2" -v p="$q1" -v q="$q2" 'BEGIN { exit !(b > a && q < p) }' ||
		fail "a class of its own did not help RoCE"
}

ktap_plan 3
mkdir -p "$top/.cache/check"
ktap_run "tools/lab/run tcp-mix finishes with a table" lab_runs
ktap_run "in one queue TCP takes more than the RoCE flows together" tcp_wins_shared
ktap_run "a class of its own gives RoCE more goodput and a shorter queue" classes_help_roce
ktap_finish
