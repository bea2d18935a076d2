#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading rxe_cc: modprobe pulls in what it needs, the module
# logs one line when it loads and nothing when it goes, and it comes and goes
# cleanly while rxe devices come and go.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"

loaded() {
	grep -q "^$1 " /proc/modules
}

# take_new_log: the kernel log lines since the last call, into $new_log
# (not printed: a command substitution would lose the mark).
log_mark=0
new_log=
take_new_log() {
	local all
	all=$(dmesg)
	new_log=$(echo "$all" | tail -n +$((log_mark + 1)))
	log_mark=$(echo "$all" | wc -l)
}

modprobe_pulls_deps() {
	modprobe -r rxe_cc rdma_rxe || fail "cannot unload rxe_cc and rdma_rxe" || return 1
	modprobe -r ib_uverbs ib_core 2>/dev/null
	! loaded rdma_rxe || fail "rdma_rxe still loaded" || return 1
	take_new_log
	modprobe rxe_cc || fail "modprobe rxe_cc failed" || return 1
	loaded rdma_rxe || fail "modprobe rxe_cc did not load rdma_rxe" || return 1
	loaded ib_core || fail "modprobe rxe_cc did not load ib_core" || return 1
}

logs_one_line() {
	local lines
	take_new_log
	lines=$(echo "$new_log" | grep 'rxe_cc')
	ktap_print_msg "load: $lines"
	[ "$(echo "$lines" | grep -c .)" -eq 1 ] ||
		fail "expected one rxe_cc line, got: $lines" || return 1
	echo "$lines" | grep -q "rxe_cc: version [0-9.]* loaded" ||
		fail "unexpected load message" || return 1
}

unload_silent() {
	rmmod rxe_cc || fail "rmmod failed" || return 1
	! loaded rxe_cc || fail "still loaded" || return 1
	take_new_log
	[ -z "$new_log" ] || fail "rmmod logged: $new_log"
}

# Devices added while loaded, removed while loaded, and present at unload.
device_churn() {
	local i
	topo_setup 2 || return 1
	for i in $(seq 5); do
		modprobe rxe_cc || { topo_teardown; fail "load $i failed"; return 1; }
		rdma link del rxe2 || { topo_teardown; fail "rdma link del failed"; return 1; }
		rdma link add rxe2 type rxe netdev roce2 ||
			{ topo_teardown; fail "rdma link add failed"; return 1; }
		rmmod rxe_cc || { topo_teardown; fail "unload $i failed"; return 1; }
	done
	topo_teardown
	modprobe rxe_cc || fail "load after teardown failed" || return 1
	rmmod rxe_cc || fail "unload after teardown failed" || return 1
	take_new_log
	! echo "$new_log" | grep -v 'rxe_cc: version' | grep -i 'rxe_cc' ||
		fail "unexpected rxe_cc kernel log lines"
}


ktap_print_header
ktap_set_plan 4
ktap_test_result "modprobe rxe_cc pulls in rdma_rxe and ib_core" modprobe_pulls_deps
ktap_test_result "loading logs exactly one line" logs_one_line
ktap_test_result "rmmod rxe_cc logs nothing" unload_silent
ktap_test_result "load and unload while rxe devices come and go" device_churn
ktap_finished
