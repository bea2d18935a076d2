# SPDX-License-Identifier: GPL-2.0
#
# Is the VM starved? A test whose figures depend on the guest getting its
# CPUs (rates, fairness, queue shapes) cannot tell a fault of ours from a
# host that gave its vCPUs no time, unless it measures that. Under TCG the
# guest's clock follows the host's real time (tsc=reliable, see vm/run), so
# a starved vCPU shows as timers that fire late. The probe sleeps 20 ms at a
# time in a bash builtin (no fork, no exec) and records how late it woke.
#
#   lateness_start             start the probe in the background
#   lateness_stop              stop it; sets lateness_p99_ms, lateness_max_ms
#                              and lateness_ticks
#   lateness_starved [P99_MS]  true if the last probe (or P99_MS, a p99 of
#                              the same kind) says the VM was starved
# (selftests/lib/ktap.sh's ktap_test_result_starved runs a test under the probe.)
#
# The limit, from runs on this project's 2-core machine: an idle VM's p99
# is 2.4-3.9 ms; during rxe_cc_incast.sh it is 8.6-9.1 ms on an idle host,
# 21-28 ms with one host core kept busy, 24-32 ms with a second VM beside
# it. A p99 above LATENESS_STARVED_MS means the vCPUs lost scheduler
# slices to the host.

LATENESS_TICK_US=20000
LATENESS_STARVED_MS=${LATENESS_STARVED_MS:-15}
lateness_pid=
lateness_file=

lateness_start() {
	lateness_file=$(mktemp)
	(
		fifo=$(mktemp -u)
		mkfifo "$fifo"
		exec 9<>"$fifo"
		rm -f "$fifo"
		trap 'exit 0' TERM
		while :; do
			t0=${EPOCHREALTIME/./}
			read -r -t 0.02 -u 9
			t1=${EPOCHREALTIME/./}
			echo $((t1 - t0 - LATENESS_TICK_US))
		done
	) >"$lateness_file" &
	lateness_pid=$!
}

lateness_stop() {
	[ -n "$lateness_pid" ] || return 1
	kill "$lateness_pid" 2>/dev/null
	wait "$lateness_pid" 2>/dev/null
	lateness_pid=
	read -r lateness_ticks lateness_p99_ms lateness_max_ms < <(sort -n "$lateness_file" |
		awk '{ v[NR] = $1 } END {
			if (NR == 0) { print 0, 0, 0; exit }
			i = int(NR * 0.99); if (i < 1) i = 1
			printf "%d %.1f %.1f\n", NR, v[i] / 1000, v[NR] / 1000 }')
	rm -f "$lateness_file"
}

# lateness_starved [P99_MS]: true if P99_MS (default: the last probe's
# p99) says the VM was starved.
lateness_starved() {
	awk -v p="${1:-$lateness_p99_ms}" -v l="$LATENESS_STARVED_MS" 'BEGIN { exit !(p > l) }'
}
