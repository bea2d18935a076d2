# SPDX-License-Identifier: GPL-2.0
#
# Running perftest between two hosts of the topology (lib/topo.sh).

PERFTEST_PORT=${PERFTEST_PORT:-18515}
# RoCE over the hosts' IPv4 (4) or IPv6 (6) GIDs.
PERFTEST_FAMILY=${PERFTEST_FAMILY:-4}
# Where a perftest (or ibv_*_pingpong) client makes its out-of-band TCP
# connection to exchange QP numbers and GIDs: over lo, as a management
# network apart from the fabric under test. Through a congested switch
# port RED drops those packets (they are not ECN-capable) and a flow's
# start slips by TCP's retransmission timeouts, seconds at a time. The
# hosts all live in init_net, so lo reaches every server; the RDMA traffic
# still goes where the GIDs say.
PERFTEST_OOB=127.0.0.1

# perftest_wait_listen PORT: wait until a server listens on a TCP port.
perftest_wait_listen() {
	local i
	for i in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# perftest_bw TOOL SRC DST SECONDS [EXTRA...]: run TOOL (ib_write_bw, ...)
# from host SRC to host DST over their GIDs of $PERFTEST_FAMILY for SECONDS;
# print the average bandwidth in Mb/s. Both sides' output goes to
# $PERFTEST_LOG and $PERFTEST_LOG.server.
perftest_bw() {
	local tool=$1 src=$2 dst=$3 secs=$4 sgid dgid port srv rc
	shift 4
	sgid=$(topo_gid_index "$src" "$PERFTEST_FAMILY") ||
		{ echo "# no IPv$PERFTEST_FAMILY GID on host $src" >&2; return 1; }
	dgid=$(topo_gid_index "$dst" "$PERFTEST_FAMILY") ||
		{ echo "# no IPv$PERFTEST_FAMILY GID on host $dst" >&2; return 1; }
	port=$((PERFTEST_PORT + dst))
	: "${PERFTEST_LOG:=/tmp/perftest.log}"

	"$tool" -d "$(topo_rxe "$dst")" -x "$dgid" -p "$port" -D "$secs" -F \
		--report_gbits "$@" >"$PERFTEST_LOG.server" 2>&1 &
	srv=$!
	if ! perftest_wait_listen "$port"; then
		kill "$srv" 2>/dev/null
		echo "# $tool server did not start" >&2
		cat "$PERFTEST_LOG.server" >&2
		return 1
	fi
	"$tool" -d "$(topo_rxe "$src")" -x "$sgid" -p "$port" -D "$secs" -F \
		--report_gbits "$@" $PERFTEST_OOB >"$PERFTEST_LOG" 2>&1
	rc=$?
	# A server whose client failed would wait for it forever.
	[ $rc -eq 0 ] || kill "$srv" 2>/dev/null
	wait "$srv" || rc=1
	if [ $rc -ne 0 ]; then
		echo "# $tool failed:" >&2
		sed 's/^/#   /' "$PERFTEST_LOG" "$PERFTEST_LOG.server" >&2
		return 1
	fi
	# The result row: bytes, iterations, peak and average Gb/s, Mpps.
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { avg = $4 } END { if (avg == "") exit 1; printf "%.1f\n", avg * 1000 }' \
		"$PERFTEST_LOG"
}
