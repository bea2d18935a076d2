# SPDX-License-Identifier: GPL-2.0
#
# Running perftest between two hosts of the topology (topo.sh).

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
# The QP timeout (perftest -u: 4.096 us * 2^N). rxe's retransmission timer
# runs while the pacer holds a packet, so it must outlast a full window
# (64 packets of ~1.1 KB) at the lowest rate a flow is paced to: 56 ms at
# 10 Mb/s, against perftest's default 2^14, 67 ms, which a slow VM
# overran: the QP retried, ran out of retries and its flow died
# (retry_exceeded_err) in mid-test. 2^18 is about 1 s.
PERFTEST_QP_TIMEOUT=${PERFTEST_QP_TIMEOUT:-18}

# perftest_wait_listen PORT: wait until a server listens on a TCP port.
perftest_wait_listen() {
	local i
	for i in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# perftest_watch HOST PID: follow HOST's netdev while process PID runs,
# every 20 ms; print the IP bytes it sent between the first and the last
# sample in which its counter moved, and the microseconds between them.
perftest_watch() {
	local stats first last t_first t_last

	stats=$(topo_tx_stats "$1")
	topo_tx_read "$stats"
	last=$tx_ip_bytes
	while kill -0 "$2" 2>/dev/null; do
		topo_tx_read "$stats"
		if [ "$tx_ip_bytes" != "$last" ]; then
			[ -n "${t_first:-}" ] || { first=$tx_ip_bytes t_first=$tx_us; }
			last=$tx_ip_bytes t_last=$tx_us
		fi
		sleep 0.02
	done
	[ -n "${t_first:-}" ] || { echo "0 0"; return; }
	echo "$((last - first)) $((t_last - t_first))"
}

# perftest_bw TOOL SRC DST SECONDS [EXTRA...]: run TOOL (ib_write_bw, ...)
# from host SRC to host DST over their GIDs of $PERFTEST_FAMILY for SECONDS;
# print the rate at which SRC's netdev sent IP bytes while the flow ran, in
# Mb/s: the unit rxe_cc's max-rate paces. perftest's own figure is not
# used: it times itself with the TSC and the CPU frequency it measures,
# and under emulation it printed 0.000 on a loaded host. Both sides'
# output goes to $PERFTEST_LOG and $PERFTEST_LOG.server.
perftest_bw() {
	local tool=$1 src=$2 dst=$3 secs=$4 sgid dgid port srv cli rc bytes us
	shift 4
	sgid=$(topo_gid_index "$src" "$PERFTEST_FAMILY") ||
		{ echo "# no IPv$PERFTEST_FAMILY GID on host $src" >&2; return 1; }
	dgid=$(topo_gid_index "$dst" "$PERFTEST_FAMILY") ||
		{ echo "# no IPv$PERFTEST_FAMILY GID on host $dst" >&2; return 1; }
	port=$((PERFTEST_PORT + dst))
	: "${PERFTEST_LOG:=/tmp/perftest.log}"

	"$tool" -d "$(topo_rxe "$dst")" -x "$dgid" -p "$port" -D "$secs" -F \
		-u "$PERFTEST_QP_TIMEOUT" --report_gbits "$@" >"$PERFTEST_LOG.server" 2>&1 &
	srv=$!
	if ! perftest_wait_listen "$port"; then
		kill "$srv" 2>/dev/null
		echo "# $tool server did not start" >&2
		cat "$PERFTEST_LOG.server" >&2
		return 1
	fi
	"$tool" -d "$(topo_rxe "$src")" -x "$sgid" -p "$port" -D "$secs" -F \
		-u "$PERFTEST_QP_TIMEOUT" --report_gbits "$@" $PERFTEST_OOB >"$PERFTEST_LOG" 2>&1 &
	cli=$!
	read -r bytes us < <(perftest_watch "$src" "$cli")
	wait "$cli"
	rc=$?
	# A server whose client failed would wait for it forever.
	[ $rc -eq 0 ] || kill "$srv" 2>/dev/null
	wait "$srv" || rc=1
	if [ $rc -ne 0 ]; then
		echo "# $tool failed:" >&2
		sed 's/^/#   /' "$PERFTEST_LOG" "$PERFTEST_LOG.server" >&2
		return 1
	fi
	awk -v b="$bytes" -v us="$us" 'BEGIN { printf "%.1f\n", (us > 0 ? b * 8 / us : 0) }'
}

# perftest_background SRC DST SECS LOG [EXTRA...]: ib_write_bw from host SRC
# to host DST for SECS in the background, with EXTRA options on both sides
# (-q 4, ...), on port PERFTEST_PORT + SRC so that several senders can run
# at once. Sets perftest_pids to the server's and the client's PIDs;
# output goes to LOG.server and LOG.client. Fails, with the server's
# output, when the server does not listen.
perftest_background() {
	local src=$1 dst=$2 secs=$3 log=$4 port sgid dgid
	shift 4
	port=$((PERFTEST_PORT + src))
	sgid=$(topo_gid_index "$src" "$PERFTEST_FAMILY") &&
		dgid=$(topo_gid_index "$dst" "$PERFTEST_FAMILY") ||
		{ echo "# no IPv$PERFTEST_FAMILY GID on host $src or $dst" >&2; return 1; }
	ib_write_bw -d "$(topo_rxe "$dst")" -x "$dgid" -p "$port" -D "$secs" -F \
		-u "$PERFTEST_QP_TIMEOUT" "$@" >"$log.server" 2>&1 &
	perftest_pids=($!)
	if ! perftest_wait_listen "$port"; then
		kill "${perftest_pids[0]}" 2>/dev/null
		echo "# ib_write_bw server on host $dst did not start:" >&2
		sed 's/^/#   /' "$log.server" >&2
		return 1
	fi
	ib_write_bw -d "$(topo_rxe "$src")" -x "$sgid" -p "$port" -D "$secs" -F \
		-u "$PERFTEST_QP_TIMEOUT" "$@" $PERFTEST_OOB >"$log.client" 2>&1 &
	perftest_pids+=($!)
}
