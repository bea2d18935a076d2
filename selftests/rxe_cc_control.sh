#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The control plane beyond parameters: a QP's own overrides (max-rate caps
# it, dcqcn off makes it ignore CNPs, 0 and "device" give it back to its
# device; a device's max-rate reaches its QPs in mid-flow), a long-idle
# QP's first CNP (DCQCN's alpha starts there), counter resets,
# the monitor group (every CNP is an event; the rate limit holds and counts
# what it drops), and namespace scoping. Each refused input changes nothing.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"
. "$here/lib/testing/lateness.sh"

PERFTEST_LOG=$ksft_tmp/control-bw.log
EVENTS=$ksft_tmp/control-events.json
MONITOR_RATE=/sys/module/rxe_cc/parameters/monitor_rate

# start_flow: ib_write_bw from host 1 to 2 in the background, until
# flow_stop; leaves the sender's QP number in flow_qpn once rxe_cc has seen
# it send. The flow lasts as long as the test: under a slow VM (emulation
# on a busy host) a test's steps outlast any fixed duration.
start_flow() {
	perftest_background 1 2 300 "$ksft_tmp/control-flow" || return 1
	flow_srv=${perftest_pids[0]} flow_cli=${perftest_pids[1]}
	for _ in $(seq 50); do
		flow_qpn=$(qp_json rxe1 |
			jq '[.[] | select(.["idle-ms"] < 200 and .stats["tx-packets"] > 100)] |
			    max_by(.qpn).qpn // empty')
		[ -n "$flow_qpn" ] && return 0
		sleep 0.2
	done
	fail "the flow's QP never appeared"
}

# flow_stop: end the flow; its QP is destroyed as the processes exit.
flow_stop() {
	kill "$flow_cli" "$flow_srv" 2>/dev/null
	wait "$flow_cli" "$flow_srv" 2>/dev/null
	return 0
}

# with_flow TEST: run TEST with a flow going; the flow ends with it.
with_flow() {
	local rc=0
	start_flow && "$1" || rc=1
	flow_stop
	return $rc
}

# qp_get FILTER: of the flow's QP, read with a get (not a dump), on one
# line. Several fields are read with one call: jq takes half a second to
# start in the VM.
qp_get() {
	rocectl -j -s qp show dev rxe1 qpn "$flow_qpn" | jq -c ".[0]$1"
}

# qp_window SECS: the flow's QP over SECS: its send rate in window_mbps,
# from host 1's netdev (the flow is all it sends) read with builtins, so
# that the window's ends are the moments of the readings; and the packets
# the pacer held, from the QP's counters, in window_paced; and in
# window_own those held for the QP's own rate, not for the device's line
# rate: the device's paced-packets less its port-held, read together (the
# QP is all it sends). Timing rocectl calls instead put a loaded VM's
# process start-ups, up to seconds, into the window, and a capped QP
# looked a third slower than it was.
qp_window() {
	local stats bytes0 us0 p0 p1 own0
	stats=$(topo_tx_stats 1)
	p0=$(qp_get '.stats["paced-packets"]')
	own0=$(dev_held_own)
	topo_tx_read "$stats"
	bytes0=$tx_ip_bytes us0=$tx_us
	sleep "$1"
	topo_tx_read "$stats"
	p1=$(qp_get '.stats["paced-packets"]')
	window_own=$(($(dev_held_own) - own0))
	window_mbps=$(awk -v b=$((tx_ip_bytes - bytes0)) -v t=$((tx_us - us0)) \
		'BEGIN { printf "%.1f", b * 8 / t }')
	window_paced=$((p1 - p0))
}

# dev_held_own: rxe1's held packets but those held for its line rate.
dev_held_own() {
	rocectl -j stats show dev rxe1 | jq '.[0].stats | .["paced-packets"] - .["port-held"]'
}

qp_max_rate() {
	local peak
	rocectl qp set dev rxe1 qpn "$flow_qpn" max-rate 10 || return 1
	[ "$(qp_get '["max-rate"]')" = 10 ] || fail "max-rate does not read back" || return 1
	sleep 1
	capped_then_free "rocectl qp set dev rxe1 qpn $flow_qpn max-rate 0" || return 1
	[ "$(qp_get '["max-rate"]')" = null ] || fail "max-rate 0 still shows an override" ||
		return 1
	peak=$(qp_get '.stats["queue-peak"]')
	# rxe builds no more packets for a QP with 65 unfreed (its limit of 64
	# is checked before each one), held ones among them: that alone bounds
	# the queue.
	ktap_print_msg "queue peak $peak packets"
	[ "$peak" -gt 1 ] && [ "$peak" -le 65 ] ||
		fail "a capped QP held $peak packets: not bounded by rxe's 65 in flight"
}

# capped_then_free LIFT: the flow's QP, capped at 10 Mb/s, is measured for
# 3 s; LIFT lifts the cap and it is measured again. Capped, the pacer holds
# its packets and its rate is the cap's; free, the pacer holds none but
# for the line rate (200 Mb/s, about what rxe reaches here). How fast a
# free QP goes is the VM's speed, not ours: it only has to beat the cap.
capped_then_free() {
	local capped capped_paced
	qp_window 3
	capped=$window_mbps
	capped_paced=$window_paced
	$1 || return 1
	sleep 1
	qp_window 3
	ktap_print_msg "QP $flow_qpn: $capped Mb/s with max-rate 10 ($capped_paced packets held)," \
		"$window_mbps Mb/s without ($window_paced held, $window_own not for the line rate)"
	awk -v m="$capped" 'BEGIN { exit !(m <= 10 * 1.05 && m >= 10 * 0.8) }' ||
		fail "$capped Mb/s with a 10 Mb/s cap" || return 1
	[ "$capped_paced" -gt 0 ] || fail "the pacer held nothing under a 10 Mb/s cap" || return 1
	[ "$window_own" -eq 0 ] ||
		fail "the pacer still held $window_own packets for the QP's own rate" || return 1
	awk -v m="$window_mbps" 'BEGIN { exit !(m > 10 * 1.15) }' ||
		{ flow_evidence; fail "$window_mbps Mb/s once the cap was lifted"; }
}

# flow_evidence: why the flow moved nothing: its QP as rxe_cc sees it, both
# ends' rxe counters and the ends of ib_write_bw's output.
flow_evidence() {
	local h

	ktap_print_msg "QP $flow_qpn: $(qp_get ' | del(.stats) + {stats: (.stats |
		with_entries(select(.value != 0)))}')"
	for h in 1 2; do
		ktap_print_msg "$TOPO_RXE$h: $(topo_rxe_counters "$h")"
	done
	tail -n 3 "$ksft_tmp/control-flow.client" "$ksft_tmp/control-flow.server" |
		sed 's/^/#   /'
	ktap_print_msg "ib_write_bw client $(kill -0 "$flow_cli" 2>/dev/null && echo alive ||
		echo gone)"
}

# An uncongested QP passes the pacer without looking at its parameters
# again until they change: a device's new max-rate must reach it at once.
dev_max_rate() {
	sleep 1
	rocectl dcqcn set dev rxe1 max-rate 10 || return 1
	sleep 1
	capped_then_free "rocectl dcqcn set dev rxe1 max-rate 0"
}

# A QP that ran uncongested for seconds, under the firmware's defaults
# (alpha's period 1 us), gets one CNP: it begins a flow, alpha is
# initial-alpha (1023) from that CNP on, and the cut takes Rc from 200 to
# 200000 - (200000 * 1023 >> 11 = 99902) = 100098 kb/s, as for a new QP.
# The CNP is made by hand, from the QP's peer, so that it is the only one.
first_cnp_cuts() {
	local rc=0
	rocectl dcqcn set dev rxe1 preset mlx5 line-rate 200 || return 1
	first_cnp_cut_seen || rc=1
	rocectl dcqcn set dev rxe1 dce-tcp-rtt 400 || rc=1
	return $rc
}

first_cnp_cut_seen() {
	local mon events=$ksft_tmp/control-first-cnp.json cut handled
	sleep 2
	[ "$(qp_get ' | [.limited, .alpha, .rate]')" = '[false,0,200]' ] ||
		fail "before its first CNP the QP is not at rest: $(qp_get '')" || return 1
	"$ROCECTL" -j monitor dev rxe1 >"$events" 2>/dev/null &
	mon=$!
	sleep 1
	topo_sw python3 "$here/lib/roce_send.py" "$(topo_ip4 2)" "$(topo_ip4 1)" cnp \
		--dest-qp "$flow_qpn" || { kill "$mon"; fail "could not send"; return 1; }
	sleep 1
	kill "$mon"
	wait "$mon" 2>/dev/null
	handled=$(jq -sc --argjson q "$flow_qpn" \
		'[.[] | select(.qpn == $q and .event == "cnp-handled")]' "$events")
	cut=$(jq -sc --argjson q "$flow_qpn" \
		'[.[] | select(.qpn == $q and .event == "rate" and .reason == "cut")]' "$events")
	ktap_print_msg "cnp-handled: $handled; cut: $cut"
	[ "$(jq length <<<"$handled")" = 1 ] && [ "$(jq '.[0].alpha' <<<"$handled")" = 1023 ] ||
		fail "one CNP handled with alpha 1023 expected" || return 1
	[ "$(jq length <<<"$cut")" = 1 ] &&
		jq -e '.[0] | .["old-rate"] == 200 and .rate == 100.098' <<<"$cut" >/dev/null ||
		fail "the first CNP must cut 200 Mb/s to 100.098"
}

# Through the marking port: with dcqcn off the QP ignores every CNP.
qp_dcqcn_off() {
	local handled ignored cuts rate dcqcn
	rocectl qp set dev rxe1 qpn "$flow_qpn" dcqcn off || return 1
	rocectl stats reset dev rxe1 qpn "$flow_qpn" || return 1
	sleep 3
	read -r handled ignored cuts rate dcqcn < <(qp_get ' | .stats as $s |
		[$s["rp-cnp-handled"], $s["rp-cnp-ignored"], $s["rp-rate-cuts"], .rate, .dcqcn] |
		map(tostring) | join(" ")' | tr -d '"')
	ktap_print_msg "dcqcn off: handled $handled ignored $ignored cuts $cuts rate $rate Mb/s"
	[ "$dcqcn" = off ] || fail "dcqcn off does not read back: $dcqcn" || return 1
	[ "$handled" -eq 0 ] && [ "$cuts" -eq 0 ] && [ "$ignored" -gt 0 ] ||
		fail "with dcqcn off CNPs must be ignored, not handled" || return 1
	rocectl qp set dev rxe1 qpn "$flow_qpn" dcqcn device || return 1
	rocectl stats reset dev rxe1 qpn "$flow_qpn" || return 1
	sleep 3
	# One read: a CNP cuts at most once, now or at its monitor period's end.
	read -r handled cuts < <(qp_get '.stats | "\(.["rp-cnp-handled"]) \(.["rp-rate-cuts"])"' |
		tr -d '"')
	ktap_print_msg "dcqcn device: handled $handled cuts $cuts"
	[ "$handled" -gt 0 ] && [ "$cuts" -gt 0 ] || fail "dcqcn device did not react again" ||
		return 1
	[ "$cuts" -le "$handled" ] || fail "more cuts than CNPs handled"
}

overrides_unchanged() {
	local overrides
	overrides=$(qp_get ' | [.dcqcn, .["min-rate"], .["max-rate"]]')
	[ "$overrides" = '["device",null,null]' ] ||
		fail "a refused qp set ($1) changed the QP: dcqcn, min-rate, max-rate $overrides"
}

qp_set_refused() {
	refused 2 'min-rate must not exceed max-rate' \
		qp set dev rxe1 qpn "$flow_qpn" min-rate 50 max-rate 20 || return 1
	overrides_unchanged "min above max" || return 1
	refused 2 'max-rate: .*(0..400000 Mb/s' qp set dev rxe1 qpn "$flow_qpn" max-rate 400001 ||
		return 1
	refused 1 'dcqcn: expected on, off or device' qp set dev rxe1 qpn "$flow_qpn" dcqcn maybe ||
		return 1
	refused 2 'no such QP' qp set dev rxe1 qpn 999999 max-rate 5 || return 1
	refused 1 'nothing to set' qp set dev rxe1 qpn "$flow_qpn" || return 1
	ROCECTL_AS="runuser -u nobody --" \
		refused 2 'Operation not permitted' qp set dev rxe1 qpn "$flow_qpn" dcqcn off ||
		return 1
	overrides_unchanged "unprivileged"
}

stats_reset() {
	local tx qp_tx
	perftest_bw ib_write_bw 1 2 2 >/dev/null || return 1
	[ "$(dev_stat rxe1 tx-packets)" -gt 0 ] || fail "no traffic counted" || return 1
	ROCECTL_AS="runuser -u nobody --" \
		refused 2 'Operation not permitted' stats reset dev rxe1 || return 1
	[ "$(dev_stat rxe1 tx-packets)" -gt 0 ] || fail "a refused reset zeroed" || return 1
	# One QP: its counters only.
	tx=$(dev_stat rxe1 tx-packets)
	rocectl stats reset dev rxe1 qpn "$flow_qpn" || return 1
	[ "$(qp_get '.stats["tx-packets"]')" -eq 0 ] || fail "the QP's counters stay" || return 1
	[ "$(dev_stat rxe1 tx-packets)" -eq "$tx" ] || fail "a QP reset moved the device's" ||
		return 1
	rocectl stats reset dev rxe1 || return 1
	tx=$(dev_stat rxe1 tx-packets)
	qp_tx=$(qp_sum rxe1 tx-packets)
	[ "$tx" -eq 0 ] && [ "$qp_tx" -eq 0 ] ||
		fail "after a reset: device $tx, QPs $qp_tx packets" || return 1
	[ "$(dev_stat rxe2 tx-packets)" -gt 0 ] || fail "the reset reached the other device"
}

# monitored SECS RATE: traffic through the marking port for SECS with a
# monitor listening to both devices and monitor_rate RATE; the events in
# $EVENTS and the counters' changes in d_*.
monitored() {
	local mon sent0 handled0 cuts0 dropped0
	echo "$2" >$MONITOR_RATE || return 1
	# Not through the rocectl function: $! must be rocectl itself.
	"$ROCECTL" -j monitor >"$EVENTS" 2>$ksft_tmp/control-monitor.err &
	mon=$!
	sleep 1
	sent0=$(dev_stat rxe2 np-cnp-sent)
	handled0=$(dev_stat rxe1 rp-cnp-handled)
	cuts0=$(dev_stat rxe1 rp-rate-cuts)
	dropped0=$(($(dev_stat rxe1 monitor-dropped) + $(dev_stat rxe2 monitor-dropped)))
	perftest_bw ib_write_bw 1 2 "$1" >/dev/null || { kill "$mon"; return 1; }
	sleep 0.5
	d_sent=$(($(dev_stat rxe2 np-cnp-sent) - sent0))
	d_handled=$(($(dev_stat rxe1 rp-cnp-handled) - handled0))
	d_cuts=$(($(dev_stat rxe1 rp-rate-cuts) - cuts0))
	d_dropped=$(($(dev_stat rxe1 monitor-dropped) + $(dev_stat rxe2 monitor-dropped) - dropped0))
	kill "$mon"
	wait "$mon" 2>/dev/null
	[ ! -s $ksft_tmp/control-monitor.err ] || { ktap_print_msg "$(cat $ksft_tmp/control-monitor.err)"; }
	echo 1000 >$MONITOR_RATE
}

count_events() { # JQ-FILTER
	jq -s "[.[] | select($1)] | length" "$EVENTS"
}

# Rate events of each QP chain: each starts at the rate the one before left.
rates_chain() {
	jq -se 'group_by([.dev, .qpn]) | all(.[];
		[.[] | select(.event == "rate")] as $r |
		all(range(1; $r | length); $r[.]["old-rate"] == $r[. - 1].rate))' "$EVENTS" >/dev/null
}

monitor_every_cnp() {
	local sent handled cuts
	# Slower increase timers keep rate events few enough to read them all.
	rocectl dcqcn set dev rxe1 time-reset 30000 || return 1
	monitored 3 1000000 || return 1
	sent=$(count_events '.dev == "rxe2" and .event == "cnp-sent"')
	handled=$(count_events '.dev == "rxe1" and .event == "cnp-handled"')
	cuts=$(count_events '.event == "rate" and .reason == "cut"')
	ktap_print_msg "events: $sent cnp-sent ($d_sent CNPs sent), $handled cnp-handled" \
		"($d_handled handled), $cuts that cut the rate ($d_cuts cuts), $d_dropped dropped;" \
		"$(count_events '.event == "rate"') rate events in all"
	[ "$d_sent" -gt 0 ] || fail "no CNPs: no congestion" || return 1
	[ "$d_dropped" -eq 0 ] || fail "the rate limit dropped events at 1000000/s" || return 1
	[ "$sent" -eq "$d_sent" ] && [ "$handled" -eq "$d_handled" ] ||
		fail "CNP events and counters disagree" || return 1
	[ "$cuts" -gt 0 ] && [ "$cuts" -eq "$d_cuts" ] || fail "cut events and cuts disagree" ||
		return 1
	rates_chain || fail "a QP's rate changed without an event" || return 1
	jq -se 'all(.[] | select(.event == "rate" and .reason == "cut"); .rate < .["old-rate"])' \
		"$EVENTS" >/dev/null || fail "a cut event that did not lower the rate" || return 1
	jq -se 'all(.[] | select(.event == "cnp-handled");
		    .rate > 0 and .["target-rate"] >= .rate and .alpha >= 0)' "$EVENTS" \
		>/dev/null || fail "a cnp-handled event lacks its QP's state" || return 1
	# Events of one device come in time order.
	jq -se '[.[] | select(.dev == "rxe1") | .time] | . == sort' "$EVENTS" >/dev/null ||
		fail "rxe1's events are not in time order"
}

monitor_rate_limit() {
	local got told secs=3 limit=20
	monitored $secs $limit || return 1
	got=$(count_events '.dev == "rxe1"')
	told=$(jq -s '[.[] | select(.dev == "rxe1") | .dropped // 0] | add // 0' "$EVENTS")
	ktap_print_msg "monitor_rate $limit: rxe1 sent $got events, said $told were dropped;" \
		"devices counted $d_dropped dropped"
	# Over the run plus the half second after it, with a burst of 2.
	[ "$got" -ge 1 ] && [ "$got" -le $((limit * (secs + 1) + 2)) ] ||
		fail "$got events from rxe1 at $limit a second" || return 1
	[ "$told" -gt 0 ] && [ "$d_dropped" -ge "$told" ] ||
		fail "the dropped events were not counted"
}

namespaced() {
	local listed
	listed=$(topo_sw "$ROCECTL" -j dev show)
	[ "$listed" = "[]" ] || fail "another namespace sees devices: $listed" || return 1
	ROCECTL_AS="topo_sw" refused 2 'no such rxe device in this network namespace' \
		dcqcn set dev rxe1 ai-rate 7 || return 1
	[ "$(rocectl -j dcqcn show dev rxe1 | jq '.[0]["ai-rate"]')" -eq 5 ] ||
		fail "a set from another namespace changed rxe1"
}


ktap_print_header
ktap_set_plan 9
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
# On an emulated 200 Mb/s link: rates start from there, not from veth's 10G.
# At emulation's CNP rates alpha needs a period near the CNP spacing, or it
# decays to nothing between CNPs and a cut cuts nothing (labs.rst).
rocectl dcqcn set dev rxe1 line-rate 200 dce-tcp-rtt 400 &&
	rocectl dcqcn set dev rxe2 line-rate 200 ||
	{ echo "Bail out! line rate not set"; exit $KSFT_FAIL; }
# The switch's own address, for a hand-made CNP.
topo_sw ip addr add 10.77.0.250/24 dev br0
# Without congestion, so that the QP's own rate shows.
ktap_test_result_starved "qp set max-rate caps the QP; 0 returns it to its device" \
	with_flow qp_max_rate
ktap_test_result_starved "a device's max-rate set mid-flow caps its QPs; 0 frees them" \
	with_flow dev_max_rate
ktap_test_result "a QP's first CNP after seconds at rest cuts it to (1 - 1023/2048)" \
	with_flow first_cnp_cuts
# From here on a 50 Mb/s port that marks ECN.
topo_bottleneck 2 50mbit red 30000 90000 0.1 400000 ||
	{ echo "Bail out! bottleneck setup failed"; exit $KSFT_FAIL; }
ktap_test_result "refused qp sets change nothing" qp_set_refused
ktap_test_result "stats reset: a QP's, a device's, privileged only" stats_reset
ktap_test_result "another namespace sees no devices and cannot set them" namespaced
ktap_test_result "qp set dcqcn off ignores CNPs; device gives DCQCN back" with_flow qp_dcqcn_off
ktap_test_result "monitor: every CNP sent, handled and cut is an event" monitor_every_cnp
ktap_test_result "monitor: the rate limit holds and counts what it drops" monitor_rate_limit
ktap_finished
