# SPDX-License-Identifier: GPL-2.0
#
# Packet captures in the VM selftests. Needs ktap.sh.

# capture_start PCAP TCPDUMP-ARG...: tcpdump writing PCAP as packets come,
# in the background (capture_pid), returning once it listens: not after a
# fixed sleep, as a slow VM took longer than one to open its socket. Fails
# with tcpdump's own words.
capture_start() {
	local pcap=$1
	shift
	tcpdump -U -w "$pcap" "$@" 2>"$pcap.err" &
	capture_pid=$!
	for _ in $(seq 100); do
		grep -q '^tcpdump: listening on' "$pcap.err" && return 0
		sleep 0.1
	done
	kill "$capture_pid"
	fail "tcpdump did not start: $(cat "$pcap.err")"
}
