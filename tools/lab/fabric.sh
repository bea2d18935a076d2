# SPDX-License-Identifier: GPL-2.0
#
# The lab's fabric inside the VM, shared by its experiment (guest) and its
# shell (shell-guest): the settings under which DCQCN works on an emulated
# fabric. Needs tools/testing/lib/{topo,perftest,rocectl}.sh
# and scenarios.sh sourced, and $recv, the receiving host.

# rxe's retransmission timer runs while the pacer holds a packet, so the
# QP timeout (4.096 us * 2^16, 268 ms) must cover a full window (64
# packets) at the lowest rate: about 110 ms at 5 Mb/s. Both runs use it.
QP_TIMEOUT=16
MIN_RATE=5
# A host's link, Mb/s, where a scenario does not give it the port's speed
# (lab_dcqcn): about what rxe reaches under emulation, so that the ecmp
# fabric's hosts can fill both of their leaf's uplinks.
LINE_RATE=200
# DCQCN's rate steps and rate reduction period, fitted to the lab's port
# (Documentation/labs.rst has the measurements). A firmware step of 5 Mb/s
# is a tenth of a 50 Mb/s port, where on a ConnectX port it is a few
# thousandths of a percent: each additive step pushed the target rate far
# past a fair share. And a cut shows at the switch only after a round trip
# and the queue's drain, 40 KB in 6.4 ms: cutting every 400 us (4 us
# scaled) took the QPs down to min-rate dozens of cuts at a time.
AI_RATE=1		# Mb/s, the least rocectl takes: a fiftieth of the port
RATE_REDUCE_PERIOD=4000	# us
PORT_BASE=20000		# perftest's TCP port for the flow from host N: + N

# lab_dcqcn [LINE_MBPS]: DCQCN on every device, the preset with its timers
# scaled, and each host's link at LINE_MBPS (default LINE_RATE): rxe_cc
# then holds the host's QPs together to it, as a NIC's port does. A
# round trip through the emulated fabric takes about a millisecond instead
# of a few microseconds, so at the firmware's timings the senders would
# react a hundred times too often for the feedback they get. The alpha
# period is made at least the CNP spacing: at a few thousand packets a
# second a congested flow gets a CNP at most every spacing, and alpha,
# which loses at least 1/1024 per period in integer arithmetic, must gain
# more from a CNP than it loses between two (the paper, too, has its alpha
# period K close to the CNP interval).
lab_dcqcn() {
	local d rtt reset line=${1:-$LINE_RATE}
	for d in $(seq "$recv"); do
		d=$(topo_rxe "$d")
		rocectl dcqcn set dev "$d" preset "$LAB_PRESET" enable on \
			line-rate "$line" || return 1
		read -r rtt reset < <(rocectl -j dcqcn show dev "$d" | jq -r \
			'.[0] | "\(.["dce-tcp-rtt"]) \(.["time-reset"])"')
		rtt=$((rtt * LAB_SCALE))
		[ $rtt -ge $((4 * LAB_SCALE)) ] || rtt=$((4 * LAB_SCALE))
		rocectl dcqcn set dev "$d" dce-tcp-rtt $rtt \
			time-reset $((reset * LAB_SCALE)) \
			rate-reduce-monitor-period $RATE_REDUCE_PERIOD \
			ai-rate $AI_RATE min-rate $MIN_RATE || return 1
		rocectl np set dev "$d" enable on min-time-between-cnps $((4 * LAB_SCALE)) ||
			return 1
	done
}

