#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ECMP labs, short, from the host. `tools/lab/run ecmp` boots its VM,
# builds the leaf-spine fabric and runs 1 and 16 QPs between two leaves
# under the address hash and the five-tuple hash; `tools/lab/run
# ecmp-collision` puts two flows on one spine and then moves one. The
# outcomes must keep their shape, so the labs cannot rot: the address
# hash keeps every phase's QPs on one spine and leaves the other uplink
# idle, the five-tuple hash spreads 16 QPs over both and moves more
# through the fabric, the report names a spine for every QP; two flows
# set on one spine stay there and leave the other idle, DCQCN drops less
# than no congestion control there, and moving one flow spreads them and
# moves more; `tools/lab/run oversubscribed` gives each host its link's
# rate at 1:1 and half of it at 2:1, where the uplinks mark and the
# senders handle CNPs; every file the labs promise exists. First, --qps
# values the lab cannot run with are refused before anything is made.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/lab.sh"

out=$top/.cache/check/lab-ecmp
coll=$top/.cache/check/lab-ecmp-collision
over=$top/.cache/check/lab-oversubscribed
rm -rf "$out" "$coll" "$over"
mkdir -p "${out%/*}"
table=$out/table.json

# phase RUN QPS EXPR [TABLE]: a jq expression on one phase of the named run.
phase() {
	jq -r --arg run "$1" --argjson q "$2" \
		".[] | select(.run == \$run) | .phases[] | select(.qps == \$q) | $3" "${4:-$table}"
}

# flow_spine RUN N: the spine flow N took in an ecmp-collision run.
flow_spine() {
	phase "$1" 2 ".qp_spine[] | select(.dev == \"rxe$2\") | .spine" "$coll/table.json"
}

bad_qps_refused() {
	lab_refuses "$out" ecmp <<'EOF' || return 1
--qps 0|lab: --qps: 0 is out of range (1..32)
--qps 4,33|lab: --qps: 33 is out of range (1..32)
--qps 1,,4|lab: --qps needs numbers separated by commas
--qps|lab: --qps needs numbers separated by commas
EOF
	lab_refuses "$out" oversubscribed <<'EOF' || return 1
--rate 1|lab: oversubscribed halves --rate for its 2:1 uplinks: 2 or more
EOF
	# The shell has the incast's fabric only, and says so before it boots.
	"$top/tools/lab/shell" ecmp >"$out.bad.log" 2>&1 </dev/null &&
		{ fail "tools/lab/shell ecmp was accepted"; return 1; }
	grep -qF "lab: the shell has the incast's fabric, not ecmp's" "$out.bad.log" ||
		fail "tools/lab/shell ecmp: $(head -n 1 "$out.bad.log")"
}

lab_runs() {
	"$top/tools/lab/run" ecmp --duration 8 --qps 1,16 --out "$out" >"$out.log" 2>&1 ||
		{ sed 's/^/#   /' "$out.log" | tail -n 30; return 1; }
	tail -n 1 "$out.log" | grep -qx "lab: results in $out" ||
		fail "the last line does not name the results folder"
}

files_made() {
	local f
	for f in table.json table.txt uplinks.png l3/uplinks.csv l4/uplinks.csv \
		l3/q16/paths.jsonl l4/q16/qps.json; do
		[ -s "$out/$f" ] || fail "$f is missing or empty" || return 1
	done
	[ "$(head -c 8 "$out/uplinks.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "uplinks.png is not a PNG"
}

# Every QP of a phase crossed the leaf and the report says which spine.
each_qp_named() {
	local run q n
	for run in l3 l4; do
		for q in 1 16; do
			n=$(phase "$run" "$q" '.qp_spine | length')
			[ "$n" -eq "$q" ] ||
				fail "$run, $q QPs: the report names a spine for $n of them" || return 1
			[ "$(phase "$run" "$q" '.flows | add')" -eq "$q" ] ||
				fail "$run, $q QPs: the leaf counted $(phase "$run" "$q" '.flows | add') flows" ||
				return 1
		done
	done
}

address_hash_one_spine() {
	local q flows idle
	for q in 1 16; do
		flows=$(phase l3 "$q" '.flows | map(tostring) | join("/")')
		idle=$(phase l3 "$q" '.utilization | min')
		ktap_print_msg "address hash, $q QPs: flows $flows, idle uplink at $idle"
		[ "$(phase l3 "$q" '.flows | min')" -eq 0 ] ||
			fail "the address hash split one host pair's QPs: $flows" || return 1
		awk -v u="$idle" 'BEGIN { exit !(u < 0.01) }' ||
			fail "the unused uplink carried $idle of its rate" || return 1
	done
}

five_tuple_spreads() {
	local flows l3 l4
	flows=$(phase l4 16 '.flows | map(tostring) | join("/")')
	l3=$(phase l3 16 '.mbps * 10 | round / 10')
	l4=$(phase l4 16 '.mbps * 10 | round / 10')
	ktap_print_msg "five-tuple hash, 16 QPs: flows $flows, $l4 Mb/s against the address hash's $l3"
	# All 16 on one spine: 2 in 2^16 with a fair hash.
	[ "$(phase l4 16 '.flows | min')" -gt 0 ] ||
		fail "the five-tuple hash left a spine unused: $flows" || return 1
	awk -v a="$l4" -v b="$l3" 'BEGIN { exit !(a >= 1.3 * b) }' ||
		fail "two spines moved $l4 Mb/s, not 1.3 times one spine's $l3"
}

# 20 s, as labs.rst measures it: the moved flow comes back from the cuts
# of its time on the shared spine by the increase timer's steps, and in 12
# s runs the two spines moved 23.4 Mb/s where 20 s runs moved 25.4 and
# 30.0.
collision_runs() {
	"$top/tools/lab/run" ecmp-collision --duration 20 --out "$coll" >"$coll.log" 2>&1 ||
		{ sed 's/^/#   /' "$coll.log" | tail -n 30; return 1; }
	[ -s "$coll/table.json" ] && [ -s "$coll/uplinks.png" ] ||
		fail "no table or plot in $coll"
}

collision_shape() {
	local run same moved rate
	for run in no-cc dcqcn; do
		ktap_print_msg "$run: flows on $(flow_spine "$run" 1) and $(flow_spine "$run" 2)," \
			"idle uplink at $(phase "$run" 2 '.utilization | min' "$coll/table.json")," \
			"$(phase "$run" 2 '.drops | add' "$coll/table.json") drops"
		[ -n "$(flow_spine "$run" 1)" ] && [ "$(flow_spine "$run" 1)" = "$(flow_spine "$run" 2)" ] ||
			fail "$run: the flows were not on one spine" || return 1
		awk -v u="$(phase "$run" 2 '.utilization | min' "$coll/table.json")" \
			'BEGIN { exit !(u < 0.01) }' || fail "$run: the other uplink was not idle" || return 1
	done
	[ "$(phase dcqcn 2 '.drops | add' "$coll/table.json")" -lt \
		"$(phase no-cc 2 '.drops | add' "$coll/table.json")" ] ||
		fail "DCQCN dropped no less than no congestion control" || return 1
	same=$(phase dcqcn 2 '.mbps * 10 | round / 10' "$coll/table.json")
	moved=$(phase moved 2 '.mbps * 10 | round / 10' "$coll/table.json")
	ktap_print_msg "moved: flows on $(flow_spine moved 1) and $(flow_spine moved 2)," \
		"$moved Mb/s against $same on one spine"
	[ -n "$(flow_spine moved 1)" ] && [ -n "$(flow_spine moved 2)" ] &&
		[ "$(flow_spine moved 1)" != "$(flow_spine moved 2)" ] ||
		fail "moving flow 2's port did not move it to the other spine" || return 1
	# More than one uplink could carry, by a margin: only both spines
	# together move that (at 1.3 times the one-spine run's figure 20 s
	# runs passed by 1.31 and 1.72).
	rate=$(jq -r '.[] | select(.run == "moved") | .params.rate' "$coll/table.json")
	awk -v a="$moved" -v r="$rate" 'BEGIN { exit !(a >= 1.1 * r) }' ||
		fail "two spines moved $moved Mb/s, not 1.1 times an uplink's $rate"
}

# 16 s: each run's phase of 8 s leaves about 4 s between the ports' setting
# and its last 10%.
oversubscribed_runs() {
	"$top/tools/lab/run" oversubscribed --duration 16 --out "$over" >"$over.log" 2>&1 ||
		{ sed 's/^/#   /' "$over.log" | tail -n 30; return 1; }
	[ -s "$over/table.json" ] && [ -s "$over/uplinks.png" ] ||
		fail "no table or plot in $over"
}

# over RUN EXPR: a jq expression on the phase of an oversubscribed run.
over() {
	phase "$1" 2 "$2" "$over/table.json"
}

oversubscribed_shape() {
	local run
	for run in 1to1 2to1; do
		ktap_print_msg "$run: hosts at $(over "$run" '.hosts_mbps | map(. * 10 | round / 10) |
			join(" and ")') Mb/s of $(over "$run" .nic), uplinks at $(over "$run" .rate)," \
			"$(over "$run" '.marked | add') CE marks, $(over "$run" '.cnp_handled | add') CNPs handled"
		[ "$(over "$run" '[.qp_spine[].spine] | unique | length')" -eq 2 ] ||
			fail "$run: the two flows did not take different spines" || return 1
	done
	# At 1:1 each host's link is the limit: virtual time paces it within
	# a percent (both 20.0 of 20 Mb/s).
	[ "$(over 1to1 '[.hosts_mbps[] / .nic | select(. >= 0.95)] | length')" -eq 2 ] ||
		fail "1:1: a host got less than 95% of its link" || return 1
	# At 2:1 each host has an uplink of half its link to itself and gets
	# about that (9.9 and 10.0 of 20 Mb/s); DCQCN holds it there on CNPs,
	# which 1:1 all but never sends.
	[ "$(over 2to1 '[.hosts_mbps[] / .nic | select(. > 0.35 and . <= 0.55)] | length')" -eq 2 ] ||
		fail "2:1: a host was not held to about half its link" || return 1
	[ "$(over 2to1 '[.cnp_handled[] | select(. > 0)] | length')" -eq 2 ] ||
		fail "2:1: a sender handled no CNP" || return 1
	[ "$(over 1to1 '.marked | add')" -lt "$(($(over 2to1 '.marked | add') / 100))" ] ||
		fail "1:1 marked $(over 1to1 '.marked | add') packets, not under 1% of 2:1's"
}

ktap_print_header
ktap_set_plan 10
rm -rf "$out.bad"
ktap_test_result "the ecmp lab refuses --qps it cannot run and the shell ecmp, and says why" \
	bad_qps_refused
mkdir -p "$out"
ktap_test_result "tools/lab/run ecmp finishes and names its folder" lab_runs
[ -s "$table" ] || { ktap_print_msg "no results: the rest cannot run"; ktap_finished; }
ktap_test_result "tables, CSV, flow counts and the PNG plot are written" files_made
ktap_test_result "every QP crossed the leaf, and the report names its spine" each_qp_named
ktap_test_result "address hash: one spine per host pair, the other uplink idle" \
	address_hash_one_spine
ktap_test_result "five-tuple hash: 16 QPs on both spines, more through the fabric" \
	five_tuple_spreads
ktap_test_result "tools/lab/run ecmp-collision finishes with its table and plot" collision_runs
ktap_test_result "collision: one spine, DCQCN drops less, the moved flow spreads them" \
	collision_shape
ktap_test_result "tools/lab/run oversubscribed finishes with its table and plot" oversubscribed_runs
ktap_test_result "oversubscribed: a host's link at 1:1, half of it and CNPs at 2:1" \
	oversubscribed_shape
ktap_finished
