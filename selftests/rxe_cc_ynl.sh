#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own netlink tools talk to rxe_cc through our spec
# (Documentation/netlink/specs/rxe_cc.yaml): YNL decodes the replies, every
# range the spec gives is the one the kernel enforces, and YNL receives the
# monitor group's events. selftests/check fetches the tools first.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$here/lib/testing/topo.sh"
. "$here/lib/testing/perftest.sh"
. "$here/lib/rocectl.sh"

PERFTEST_LOG=$ksft_tmp/ynl-bw.log
# In the project's tree, its fetched kernel tools and its spec; installed
# (make install), the spec installed beside this test and a kernel source
# tree named by KSRC.
SRC=${KSRC:-$here/../.cache/linux-tools/src}
SPEC=$here/../Documentation/netlink/specs/rxe_cc.yaml
[ -f "$SPEC" ] || SPEC=$here/rxe_cc.yaml

ynl_check() { # CHECK [ARG]
	local out
	out=$(/usr/bin/python3 "$here/lib/ynl_check.py" "$SRC" "$SPEC" rxe1 "$qpn" "$@" 2>&1)
	echo "$out" | grep -v '^PASS$' | sed 's/^\([^#]\)/# \1/'
	[ "$(echo "$out" | tail -n 1)" = PASS ]
}


ktap_print_header
ktap_set_plan 3
[ -f "$SRC/tools/net/ynl/lib/ynl.py" ] ||
	{ echo "Bail out! no kernel tools in $SRC (tools/fetch-linux-tools, or KSRC)"; exit $KSFT_FAIL; }
topo_setup 2 || { echo "Bail out! topology setup failed"; exit $KSFT_FAIL; }
defer topo_teardown
# A QP for the per-QP attributes: rxe_cc keeps its state for a minute.
perftest_bw ib_write_bw 1 2 1 >/dev/null && qpn=$(qp_json rxe1 | jq 'max_by(.qpn).qpn') ||
	{ echo "Bail out! no traffic"; exit $KSFT_FAIL; }
ktap_test_result "YNL dumps and gets; commands refuse others' attributes" ynl_check dump
ktap_test_result "the spec's ranges are the kernel's" ynl_check ranges
# Emulation delivers few CNPs: with the firmware's 1 us alpha period alpha
# decays to nothing between them and a cut cuts nothing (labs.rst).
topo_bottleneck 2 50mbit red 30000 90000 0.1 400000 &&
	rocectl dcqcn set dev rxe1 line-rate 200 dce-tcp-rtt 1000 time-reset 30000 ||
	{ echo "Bail out! bottleneck setup failed"; exit $KSFT_FAIL; }
# YNL's Python, polled every 0.1 s under emulation, reads fewer events than
# the default limit of 1000 a second per device lets through, and its socket
# overflows (ENOBUFS): this test is about decoding them, not their number.
echo 100 >/sys/module/rxe_cc/parameters/monitor_rate ||
	{ echo "Bail out! monitor_rate not set"; exit $KSFT_FAIL; }
ktap_test_result "YNL receives the monitor group's CNP events" ynl_check monitor \
	". $here/lib/ktap.sh; . $here/lib/testing/topo.sh; . $here/lib/testing/perftest.sh;
	 PERFTEST_LOG=$PERFTEST_LOG perftest_bw ib_write_bw 1 2 2 >/dev/null"
ktap_finished
