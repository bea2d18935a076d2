# SPDX-License-Identifier: GPL-2.0
#
# A small RoCE fabric inside one VM, for selftests and labs.
#
# Every host is a veth pair: the host end (roceN, with its IPv4/IPv6 address
# and an rxe device rxeN on it) stays in init_net, because on 6.1 rxe only
# works there; the other end (swpN) is a port of a bridge in the switch
# namespace. Policy routing makes traffic between two host addresses leave
# through the host's veth instead of short-cutting through lo, so every RoCE
# packet crosses the switch, where a congestion point (a rate limit and ECN
# marking) can sit on the port towards any host.
#
#   topo_setup N              hosts 1..N (N <= 16)
#   topo_bottleneck H RATE [red MIN MAX PROB LIMIT [nodrop] | fifo LIMIT |
#                   netem LOSS LIMIT]
#                             congestion point on the switch port towards H
#   topo_teardown             remove all of it
#
# Tunables (set before sourcing): TOPO_NS, the switch's namespace (by
# default a new name, rxsw-XXXXXX, as kselftest's setup_ns makes them;
# the lab names it rxsw for its users); TOPO_NET4, TOPO_NET6, TOPO_MTU
# (before topo_setup).

TOPO_NS=${TOPO_NS:-$(mktemp -u rxsw-XXXXXX)}
TOPO_NET4=${TOPO_NET4:-10.77.0}
TOPO_NET6=${TOPO_NET6:-fd77::}
TOPO_MTU=${TOPO_MTU:-1500}
TOPO_TABLE_BASE=1000
TOPO_RULE_PREF=10
TOPO_LOCAL_PREF=100
topo_hosts=0
topo_namespaces=()

# Host H's interface is $TOPO_DEV$H, its switch port $TOPO_PORT$H, its rxe
# device $TOPO_RXE$H: the loops that build a topology write them so, the
# tests ask the functions below.
TOPO_DEV=roce
TOPO_PORT=swp
TOPO_RXE=rxe

topo_ip4() { echo "$TOPO_NET4.$1"; }
topo_ip6() { echo "$TOPO_NET6$1"; }
topo_dev() { echo "$TOPO_DEV$1"; }
topo_port() { echo "$TOPO_PORT$1"; }
topo_rxe() { echo "$TOPO_RXE$1"; }
# topo_rxe_counters H: rxe's own packet, retry and sequence counters of host
# H, one JSON line: what tells a dead or stalled flow's story.
topo_rxe_counters() {
	rdma -j statistic show link "$(topo_rxe "$1")/1" | jq -c '.[0] |
		{sent_pkts, rcvd_pkts, duplicate_request, out_of_seq_request,
		 completer_retry_err, retry_exceeded_err, rcvd_seq_err}'
}
topo_sw() { ip netns exec "$TOPO_NS" "$@"; }
# topo_sysctl KEY=VALUE...: set sysctls of this network namespace. A
# process started in the VM costs 70-200 ms under emulation (sysctl, ip,
# most of a topology's setup time): these are written by the shell.
topo_sysctl() {
	local kv key
	for kv; do
		key=${kv%%=*}
		echo "${kv#*=}" >"/proc/sys/${key//.//}" || return 1
	done
}

topo_setup() {
	local n=$1 i

	[ "$n" -ge 2 ] && [ "$n" -le 16 ] || { echo "topo_setup: 2..16 hosts" >&2; return 1; }
	topo_netns_add "$TOPO_NS" || return 1
	ip -n "$TOPO_NS" link add br0 up type bridge || return 1
	for ((i = 1; i <= n; i++)); do
		topo_host_add "$i" "$TOPO_NS" "$TOPO_PORT$i" master br0 || return 1
	done
	topo_hosts_route topo_host_mac || return 1
}

# topo_host_mac I J: where host I sends what is for host J, in topo_mac: on
# the bridge, straight to J's own interface.
topo_host_mac() {
	read -r topo_mac <"/sys/class/net/$TOPO_DEV$2/address"
}

# topo_netns_add NS: a namespace of the fabric, which topo_teardown
# deletes.
topo_netns_add() {
	ip netns add "$1" || return 1
	topo_namespaces+=("$1")
	ip -n "$1" link set lo up
}

# topo_host_add H NS PORT [LINK-SET-ARG...]: host H, its interface roceH in
# init_net and the other end PORT up in namespace NS, with the ip link set
# arguments given (master br0).
topo_host_add() {
	local h=$1 ns=$2 port=$3 dev=$TOPO_DEV$1

	ip -batch - <<-EOF || return 1
		link add $dev mtu $TOPO_MTU type veth peer name $port mtu $TOPO_MTU netns $ns
		addr add $TOPO_NET4.$h/24 dev $dev
		addr add $TOPO_NET6$h/64 dev $dev nodad
		link set $dev up
	EOF
	ip -n "$ns" link set "$port" up "${@:4}" || return 1
	# One receive CPU per switch port, as one wire: a veth hands a packet
	# to the backlog of the CPU that sent it, so two packets of one QP
	# sent from two CPUs (rxe's tasklets and the pacer's timer move
	# between CPUs) could swap places, and RoCE takes reordering for loss.
	ip netns exec "$ns" sh -c "echo 1 >/sys/class/net/$port/queues/rx-0/rps_cpus" ||
		return 1
	# The same at the host end: what leaves a switch port is sent from
	# whichever CPU runs its qdisc (the enqueuer's, or the CPU of its
	# watchdog timer).
	echo 1 >"/sys/class/net/$dev/queues/rx-0/rps_cpus" || return 1
	# Each host answers ARP for its own address only: all the addresses
	# are local to every host end.
	topo_sysctl "net.ipv4.conf.$dev.accept_local=1" "net.ipv4.conf.$dev.rp_filter=0" \
		"net.ipv4.conf.$dev.arp_ignore=1" "net.ipv4.conf.$dev.arp_announce=2" || return 1
	topo_hosts=$h
}

# topo_hosts_route MAC_FN: routes between every two of the hosts added, each
# through its own interface to the MAC address "MAC_FN I J" leaves in
# topo_mac, and their rxe devices. One ip per address family does it all.
topo_hosts_route() {
	local mac_fn=$1 n=$topo_hosts i j table v4=() v6=() rxe=()

	# A port's buffer is its qdisc's. Every port hands its packets to one
	# CPU's backlog (rps_cpus), which by default drops beyond 1000: fewer
	# than 16 QPs' windows of 64 packets, sent in one burst.
	topo_sysctl net.ipv4.conf.all.accept_local=1 net.ipv4.conf.all.rp_filter=0 \
		net.core.netdev_max_backlog=10000 || return 1
	# Locally generated packets from one host address to another use the
	# source host's table (iif lo keeps arriving packets out of it); the
	# local table moves below these rules.
	for ((i = 1; i <= n; i++)); do
		table=$((TOPO_TABLE_BASE + i))
		for ((j = 1; j <= n; j++)); do
			[ $i = $j ] && continue
			# Static neighbours: a host would not answer ARP/ND for
			# an address that is local to the one asking.
			"$mac_fn" $i $j || return 1
			v4+=("rule add from $TOPO_NET4.$i to $TOPO_NET4.$j iif lo lookup $table pref $TOPO_RULE_PREF"
			     "route add $TOPO_NET4.$j dev $TOPO_DEV$i src $TOPO_NET4.$i table $table"
			     "neigh replace $TOPO_NET4.$j lladdr $topo_mac dev $TOPO_DEV$i nud permanent")
			v6+=("rule add from $TOPO_NET6$i to $TOPO_NET6$j iif lo lookup $table pref $TOPO_RULE_PREF"
			     "route add $TOPO_NET6$j dev $TOPO_DEV$i src $TOPO_NET6$i table $table"
			     "neigh replace $TOPO_NET6$j lladdr $topo_mac dev $TOPO_DEV$i nud permanent")
		done
		rxe+=("link add $TOPO_RXE$i type rxe netdev $TOPO_DEV$i")
	done
	v4+=("rule del pref 0 lookup local" "rule add pref $TOPO_LOCAL_PREF lookup local")
	v6+=("rule del pref 0 lookup local" "rule add pref $TOPO_LOCAL_PREF lookup local")
	printf '%s\n' "${v4[@]}" | ip -4 -batch - &&
		printf '%s\n' "${v6[@]}" | ip -6 -batch - &&
		printf '%s\n' "${rxe[@]}" | rdma -b -
}

# topo_teardown: what topo_setup (or clos_setup) made, however far it got:
# one rdma and one ip per address family, which go on past what is not
# there, and one ip for the namespaces.
topo_teardown() {
	local i ns fam routes=() rxe=() netns=() put_back

	for ((i = 1; i <= topo_hosts; i++)); do
		rxe+=("link del $TOPO_RXE$i")
		routes+=("route flush table $((TOPO_TABLE_BASE + i))")
	done
	# topo_hosts_route added a rule per ordered pair of hosts.
	for ((i = 0; i < topo_hosts * topo_hosts; i++)); do
		routes+=("rule del pref $TOPO_RULE_PREF")
	done
	[ ${#rxe[@]} -eq 0 ] || printf '%s\n' "${rxe[@]}" | rdma -f -b - 2>/dev/null
	for fam in 4 6; do
		put_back=()
		[[ "$(ip -$fam rule show pref 0)" == *local* ]] ||
			put_back=("rule add pref 0 lookup local"
				  "rule del pref $TOPO_LOCAL_PREF lookup local")
		printf '%s\n' "${routes[@]}" "${put_back[@]}" | ip -$fam -force -batch - 2>/dev/null
	done
	# Deleting a namespace deletes the veth ends in it, and with them
	# the host ends.
	for ns in "${topo_namespaces[@]}"; do
		netns+=("netns del $ns")
	done
	[ ${#netns[@]} -eq 0 ] || printf '%s\n' "${netns[@]}" | ip -force -batch - 2>/dev/null
	topo_namespaces=()
	topo_hosts=0
}

# topo_expand6 ADDR: an IPv6 address in the full form sysfs shows GIDs in.
topo_expand6() {
	local addr=$1 head tail groups=() g n
	head=${addr%%::*}
	if [ "$head" != "$addr" ]; then
		tail=${addr#*::}
		n=$((8 - $(echo "$head:$tail" | tr ':' '\n' | grep -c .)))
		addr=$head$(printf ':0%.0s' $(seq "$n")):$tail
		addr=${addr#:}
		addr=${addr%:}
	fi
	IFS=: read -ra groups <<<"$addr"
	for g in "${groups[@]}"; do
		printf '%04x:' "0x$g"
	done | sed 's/:$/\n/' 
}

# topo_gid_index HOST 4|6: the GID index of the host's IPv4 or global IPv6
# address on its rxe device (perftest's -x). rxe adds GIDs in address order,
# so they are looked up, not assumed.
topo_gid_index() {
	local h=$1 want port gid g idx type
	if [ "$2" = 4 ]; then
		want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
			$(topo_ip4 "$h" | tr . ' '))
	else
		want=$(topo_expand6 "$(topo_ip6 "$h")")
	fi
	port=/sys/class/infiniband/$(topo_rxe "$h")/ports/1
	# The table has hundreds of slots; shell builtins keep the scan cheap
	# under emulation.
	for g in "$port"/gids/*; do
		idx=${g##*/}
		read -r gid <"$g" 2>/dev/null || continue
		[ "$gid" = "$want" ] || continue
		read -r type <"$port/gid_attrs/types/$idx" 2>/dev/null || continue
		[ "$type" = "RoCE v2" ] || continue
		echo "$idx"
		return 0
	done
	return 1
}

# topo_bottleneck HOST RATE QUEUE...: the congestion point on the switch
# port towards HOST, a topo_queue.
topo_bottleneck() {
	topo_queue "$TOPO_NS" "$(topo_port "$1")" "${@:2}"
}

# topo_queue NS DEV RATE [red MIN MAX PROB LIMIT [nodrop] | fifo LIMIT |
#            netem LOSS LIMIT | red2 MIN MAX PROB LIMIT [nodrop]]
# Limit the egress of DEV in namespace NS to RATE (tc units, e.g. 50mbit) with an
# HTB class, queueing in RED with ECN marking (thresholds and limit in bytes,
# probability 0..1), in a plain tail-drop FIFO of LIMIT packets, or in a
# FIFO of LIMIT packets that loses LOSS percent of them at random. RED drops
# packets that are not ECN-capable where it would mark them; with nodrop it
# queues them up to LIMIT instead, as a switch port in ECN-only mode does
# (marking, no WRED). red2 gives RoCEv2 (UDP 4791) that RED queue in class
# 1:1 and everything else a tail-drop queue of LIMIT bytes in class 1:2,
# each guaranteed half of RATE and allowed all of it: a switch port with a
# lossless-ish RoCE class apart from the rest.
#
# HTB's default burst is one packet: a dequeue timer that fires late loses
# the time for good, and under emulation timers are late often (the lab's
# DCQCN incast got 30 Mb/s through a 50 Mb/s port). A burst of 2 ms at RATE
# lets the port catch up, as a real port's serializer never falls behind
# (the same incast: 40 Mb/s); an idle port saves no more than that.
topo_queue() {
	local tc=(tc -n "$1") port=$2 rate=$3 kind=${4:-red} burst hb
	shift	# the queue's arguments from $4 on, as topo_bottleneck's
	hb=$(($(topo_mbit "$rate") * 1000000 / 8 / 500))
	[ "$hb" -ge 3200 ] || hb=3200
	"${tc[@]}" qdisc del dev "$port" root 2>/dev/null
	if [ "$kind" = red2 ]; then
		"${tc[@]}" qdisc add dev "$port" root handle 1: htb default 2 &&
			"${tc[@]}" class add dev "$port" parent 1: classid 1:5 htb \
				rate "$rate" ceil "$rate" burst $hb cburst $hb &&
			"${tc[@]}" class add dev "$port" parent 1:5 classid 1:1 htb \
				rate "$(($(topo_mbit "$rate") / 2))mbit" ceil "$rate" \
				burst $hb cburst $hb &&
			"${tc[@]}" class add dev "$port" parent 1:5 classid 1:2 htb \
				rate "$(($(topo_mbit "$rate") / 2))mbit" ceil "$rate" \
				burst $hb cburst $hb &&
			"${tc[@]}" qdisc add dev "$port" parent 1:2 handle 20: bfifo limit "$7" &&
			"${tc[@]}" filter add dev "$port" parent 1: protocol ip prio 1 u32 \
				match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:1 ||
			return 1
		kind=red
	else
		"${tc[@]}" qdisc add dev "$port" root handle 1: htb default 1 || return 1
		"${tc[@]}" class add dev "$port" parent 1: classid 1:1 htb rate "$rate" \
			ceil "$rate" burst $hb cburst $hb || return 1
	fi
	case $kind in
	red)
		# RED marks on the queue as it is, as DCQCN's switches do: with
		# the least burst tc takes (min / avpkt, + 1 for rounding) the
		# average weighs each packet by a quarter and follows the queue
		# within a few packets. The customary (2 * min + max) / (3 *
		# avpkt) averaged over some 20 packets, 3.5 ms at 50 Mb/s: the
		# lab's 2:1 incast marked late and overshot into drops
		# (Documentation/labs.rst).
		burst=$(($4 / 1000 + 1))
		"${tc[@]}" qdisc add dev "$port" parent 1:1 handle 10: red \
			limit "$7" min "$4" max "$5" avpkt 1000 burst "$burst" \
			probability "$6" bandwidth "$rate" ecn ${8:+"$8"}
		;;
	fifo)
		"${tc[@]}" qdisc add dev "$port" parent 1:1 handle 10: pfifo limit "$4"
		;;
	netem)
		"${tc[@]}" qdisc add dev "$port" parent 1:1 handle 10: netem \
			loss random "$4%" limit "$5"
		;;
	*) echo "topo_queue: unknown queue $kind" >&2; return 1 ;;
	esac
}

# topo_mbit RATE: a tc rate given in mbit as its number (50mbit: 50).
topo_mbit() {
	[[ $1 =~ ^([0-9]+)mbit$ ]] || { echo "topo: rate $1 is not in mbit" >&2; return 1; }
	echo "${BASH_REMATCH[1]}"
}

# topo_qdisc_stats HOST: the switch port's leaf qdisc statistics as JSON
# (bytes, packets, drops, backlog, qlen, and RED's marked/early/pdrop).
topo_qdisc_stats() {
	topo_queue_stats "$TOPO_NS" "$(topo_port "$1")"
}

# topo_queue_stats NS DEV: the same of a topo_queue.
topo_queue_stats() {
	tc -n "$1" -s -j qdisc show dev "$2" parent 1:1
}

# topo_tx HOST bytes|packets: what host HOST's netdev has sent: its RoCE
# traffic (perftest's own exchange goes over lo). A builtin read, so that
# the moment of the reading is known on a loaded VM too.
topo_tx() {
	local v
	read -r v <"$(topo_tx_stats "$1")/tx_$2"
	echo "$v"
}

# topo_tx_stats HOST: the statistics folder of host HOST's netdev, for
# topo_tx_read.
topo_tx_stats() {
	echo "/sys/class/net/$(topo_dev "$1")/statistics"
}

# topo_tx_read STATS: what the netdev of STATS (topo_tx_stats) has sent,
# read with builtins in this shell, so that the moment of the reading is
# known on a loaded VM too: tx_ip_bytes, its frames less their 14-byte
# Ethernet header (IP bytes, the unit max-rate paces), and tx_us, when.
topo_tx_read() {
	local bytes packets

	read -r bytes <"$1/tx_bytes"
	read -r packets <"$1/tx_packets"
	tx_us=${EPOCHREALTIME/./}
	tx_ip_bytes=$((bytes - 14 * packets))
}

# topo_port_bytes HOST rx|tx: bytes the switch port towards HOST received
# from it or sent to it.
topo_port_bytes() {
	ip -n "$TOPO_NS" -s -j link show dev "$TOPO_PORT$1" |
		jq ".[0].stats64.$2.bytes"
}
