# SPDX-License-Identifier: GPL-2.0
#
# A two-tier leaf-spine (folded Clos) fabric inside one VM, for selftests
# and labs: the fabric of topo.sh's hosts when one switch is not enough to
# show ECMP, a second congestion point or oversubscription.
#
# The hosts are topo.sh's (roceN in init_net, where rxe works on every
# kernel, with rxeN on it), but their other ends are ports of a leaf
# router instead of a bridge. Every leaf and every spine is a namespace
# that routes IPv4: a leaf reaches its own hosts over their ports and every
# other host over one equal-cost path per spine, as a multipath route; a
# spine reaches each host through that host's leaf. The leaf picks a
# path per packet by the hash of its headers (fib_multipath_hash_policy),
# so what spreads RoCEv2 flows is the one field that differs between the
# QPs of two hosts: the UDP source port rxe derives from the QP numbers.
# With the five-tuple hash the kernel takes the hash its port's RPS
# computed on receipt, seeded at boot: the same five-tuple takes the same
# path until the VM reboots, but `ip route get ... sport` (which hashes
# on its own) cannot tell which; clos_paths measures it.
# Every link can carry a congestion point (topo_queue) in each direction.
# IPv6 is not routed: the hosts' IPv6 GIDs reach no one through the fabric.
#
#   clos_setup LEAVES SPINES HOSTS_PER_LEAF
#                             leaves 1..LEAVES, spines 1..SPINES, hosts
#                             1..LEAVES*HOSTS_PER_LEAF, host H under leaf
#                             (H - 1) / HOSTS_PER_LEAF + 1
#   clos_hash l3|l4|FIELDS    the multipath hash of every router
#   clos_link_queue LEAF SPINE up|down RATE QUEUE...
#                             a topo_queue on a link: up from the leaf,
#                             down from the spine
#   clos_link_stats LEAF SPINE up|down [FIELD...]
#   clos_paths_watch LEAF / clos_paths LEAF / clos_paths_reset LEAF
#                             which uplink each RoCEv2 flow took
#   topo_teardown             remove all of it
#
# Needs topo.sh sourced first. Tunables (set before sourcing): CLOS_NS, the
# prefix of the routers' namespaces (by default a new name, rxcl-XXXXXX-;
# the lab makes it empty, so that its users see leaf1 and spine1);
# CLOS_LINK_NET, the first two octets of the links' addresses.

CLOS_NS=${CLOS_NS-$(mktemp -u rxcl-XXXXXX-)}
CLOS_LINK_NET=${CLOS_LINK_NET:-10.79}
CLOS_MAX_LEAVES=4
CLOS_MAX_SPINES=4
clos_leaves=0
clos_spines=0
clos_per_leaf=0
declare -gA clos_port_mac

clos_leaf_ns() { echo "${CLOS_NS}leaf$1"; }
clos_spine_ns() { echo "${CLOS_NS}spine$1"; }
clos_leaf() { ip netns exec "$(clos_leaf_ns "$1")" "${@:2}"; }
# A link's two ends are named after what they lead to: leaf L's port
# towards spine S is spineS, spine S's port towards leaf L is leafL.
clos_uplink() { echo "spine$1"; }
clos_downlink() { echo "leaf$1"; }
# The link between leaf L and spine S is a /30: its leaf end .4L+1, its
# spine end .4L+2, in CLOS_LINK_NET.S.
clos_leaf_ip() { echo "$CLOS_LINK_NET.$2.$((4 * $1 + 1))"; }
clos_spine_ip() { echo "$CLOS_LINK_NET.$2.$((4 * $1 + 2))"; }

# clos_link_mac LEAF SPINE 1|2: the MAC address of the link's leaf (1) or
# spine (2) end, set when the link is made, so that the other end's static
# neighbour needs no look-up.
clos_link_mac() {
	printf '02:79:00:%02x:%02x:%02x' "$2" "$1" "$3"
}

# clos_host_mac I J: host I sends everything to its leaf's port, in
# topo_mac (clos_setup learnt the leaf ports' addresses).
clos_host_mac() {
	topo_mac=${clos_port_mac[$TOPO_PORT$1]}
}

# clos_setup's parts. A process started in the VM costs 70-300 ms under
# emulation (ip netns exec the most): each router's configuration is one
# ip -n NS -batch, its sysfs and sysctls one ip netns exec.
#
# clos_router_add NS: a namespace that forwards IPv4 and has no IPv6, so
# that nothing but the hosts' traffic crosses its links.
clos_router_add() {
	topo_netns_add "$1" || return 1
	ip netns exec "$1" sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward &&
		for c in all default; do
			echo 0 >/proc/sys/net/ipv4/conf/$c/rp_filter &&
			echo 1 >/proc/sys/net/ipv6/conf/$c/disable_ipv6 || exit 1
		done'
}

# clos_router_ports NS: one receive CPU per port, as for the hosts'
# (topo_host_add): a router forwards from whichever CPU received, and a
# flow that crossed two CPUs could arrive out of order. Then what the
# ports' MAC addresses are, in clos_port_mac.
clos_router_ports() {
	local name mac

	ip netns exec "$1" sh -c 'for d in /sys/class/net/*; do
		[ "${d##*/}" = lo ] || echo 1 >$d/queues/rx-0/rps_cpus || exit 1
	done' || return 1
	while read -r name _ mac _; do
		clos_port_mac[${name%@*}]=$mac
	done < <(ip -n "$1" -br link show)
}

clos_setup() {
	local l s h other lns sns hops links=()
	local -A router

	[ "$1" -ge 1 ] && [ "$1" -le $CLOS_MAX_LEAVES ] &&
		[ "$2" -ge 1 ] && [ "$2" -le $CLOS_MAX_SPINES ] &&
		[ "$3" -ge 1 ] && [ $(($1 * $3)) -ge 2 ] && [ $(($1 * $3)) -le 16 ] || {
		echo "clos_setup: 1..$CLOS_MAX_LEAVES leaves, 1..$CLOS_MAX_SPINES spines, 2..16 hosts" >&2
		return 1
	}
	clos_leaves=$1 clos_spines=$2 clos_per_leaf=$3
	clos_port_mac=()
	# What each router's ip -batch does, line by line.
	for ((l = 1; l <= clos_leaves; l++)); do
		clos_router_add "${CLOS_NS}leaf$l" || return 1
	done
	for ((s = 1; s <= clos_spines; s++)); do
		sns=${CLOS_NS}spine$s
		clos_router_add "$sns" || return 1
		# The link between leaf L and spine S, with static neighbours
		# at both ends (no ARP on the links while traffic is counted).
		for ((l = 1; l <= clos_leaves; l++)); do
			lns=${CLOS_NS}leaf$l
			links+=("link add spine$s netns $lns address $(clos_link_mac $l $s 1) mtu $TOPO_MTU type veth peer name leaf$l netns $sns address $(clos_link_mac $l $s 2) mtu $TOPO_MTU")
			router[$lns]+="
				addr add $(clos_leaf_ip $l $s)/30 dev spine$s
				link set spine$s up
				neigh replace $(clos_spine_ip $l $s) lladdr $(clos_link_mac $l $s 2) nud permanent dev spine$s"
			router[$sns]+="
				addr add $(clos_spine_ip $l $s)/30 dev leaf$l
				link set leaf$l up
				neigh replace $(clos_leaf_ip $l $s) lladdr $(clos_link_mac $l $s 1) nud permanent dev leaf$l"
		done
	done
	printf '%s\n' "${links[@]}" | ip -batch - || return 1
	for ((h = 1; h <= clos_leaves * clos_per_leaf; h++)); do
		l=$(((h - 1) / clos_per_leaf + 1))
		topo_host_add $h "${CLOS_NS}leaf$l" "$TOPO_PORT$h" || return 1
		router[${CLOS_NS}leaf$l]+="
			route add $TOPO_NET4.$h/32 dev $TOPO_PORT$h
			neigh replace $TOPO_NET4.$h nud permanent dev $TOPO_PORT$h lladdr $(</sys/class/net/$TOPO_DEV$h/address)"
		for ((s = 1; s <= clos_spines; s++)); do
			router[${CLOS_NS}spine$s]+="
				route add $TOPO_NET4.$h/32 via $(clos_leaf_ip $l $s) dev leaf$l"
		done
		# Every other leaf: one path per spine.
		for ((other = 1; other <= clos_leaves; other++)); do
			[ $other = $l ] && continue
			hops=
			for ((s = 1; s <= clos_spines; s++)); do
				hops+=" nexthop via $(clos_spine_ip $other $s) dev spine$s"
			done
			router[${CLOS_NS}leaf$other]+="
				route add $TOPO_NET4.$h/32$hops"
		done
	done
	for lns in "${!router[@]}"; do
		ip -n "$lns" -batch - <<<"${router[$lns]}" || return 1
		clos_router_ports "$lns" || return 1
	done
	topo_hosts_route clos_host_mac
}

# clos_hash l3|l4|FIELDS: how every router hashes a packet to pick its path:
# l3, its addresses (fib_multipath_hash_policy 0); l4, its five-tuple (1);
# FIELDS, a mask of fib_multipath_hash_fields (policy 3, e.g. 0x0037 for
# the five-tuple, 0x0020 for the source port alone).
clos_hash() {
	local set=() ns

	case $1 in
	l3) set=(net.ipv4.fib_multipath_hash_policy=0) ;;
	l4) set=(net.ipv4.fib_multipath_hash_policy=1) ;;
	0x[0-9a-fA-F]*)
		set=(net.ipv4.fib_multipath_hash_policy=3 "net.ipv4.fib_multipath_hash_fields=$1") ;;
	*) echo "clos_hash: l3, l4 or a field mask, not $1" >&2; return 1 ;;
	esac
	for ns in "${topo_namespaces[@]}"; do
		ip netns exec "$ns" sysctl -qw "${set[@]}" || return 1
	done
}

# clos_link_end LEAF SPINE up|down: the namespace and port a link's
# direction leaves from.
clos_link_end() {
	case $3 in
	up) echo "$(clos_leaf_ns "$1") $(clos_uplink "$2")" ;;
	down) echo "$(clos_spine_ns "$2") $(clos_downlink "$1")" ;;
	*) echo "clos: a link's direction is up or down, not $3" >&2; return 1 ;;
	esac
}

# clos_link_queue LEAF SPINE up|down RATE QUEUE...: a congestion point on
# one direction of a link (topo_queue's RATE and QUEUE).
clos_link_queue() {
	local end

	end=$(clos_link_end "$1" "$2" "$3") || return 1
	# shellcheck disable=SC2086 # namespace and port, two words
	topo_queue $end "${@:4}"
}

# clos_link_stats LEAF SPINE up|down [FIELD...]: one JSON line of what the
# link's direction carried (bytes with their Ethernet headers, packets) and
# what its queue, if it has one, dropped, marked and holds; with FIELDs,
# their values on one line, in that order.
clos_link_stats() {
	local end ns port

	end=$(clos_link_end "$1" "$2" "$3") || return 1
	read -r ns port <<<"$end"
	shift 3
	{
		ip -n "$ns" -s -j link show dev "$port"
		tc -n "$ns" -s -j qdisc show dev "$port" parent 1:1 2>/dev/null ||
			echo '[]'
	} | jq -rcs '((.[0][0].stats64.tx | {bytes, packets}) +
		{drops: (.[1][0].drops // 0), marked: (.[1][0].marked // 0),
		 backlog: (.[1][0].backlog // 0)}) as $link |
		if $ARGS.positional == [] then $link
		else [$ARGS.positional[] | $link[.] | tostring] | join(" ") end' --args "$@"
}

# clos_paths_watch LEAF: count, at leaf LEAF, the RoCEv2 packets it
# forwards from its hosts, per source, uplink and UDP source port: which
# spine each flow took. (Both directions of an RC connection carry the same port; the
# ACKs coming down are not counted.)
clos_paths_watch() {
	clos_leaf "$1" nft -f - <<EOF
table inet clos {
	set paths {
		type ipv4_addr . ifname . inet_service
		flags dynamic
		counter
	}
	chain forward {
		type filter hook forward priority 0
		iifname "swp*" udp dport 4791 add @paths { ip saddr . oifname . udp sport }
	}
}
EOF
}

# clos_paths LEAF: what clos_paths_watch counted, one JSON line per flow:
# {"src": "10.77.0.1", "uplink": "spine2", "sport": 53017, "packets": N,
# "bytes": N}.
clos_paths() {
	clos_leaf "$1" nft -j list set inet clos paths | jq -c '.nftables[] | .set? // empty |
		.elem[]? | {src: .elem.val.concat[0], uplink: .elem.val.concat[1],
			    sport: .elem.val.concat[2]} + (.elem.counter | {packets, bytes})'
}

# clos_paths_reset LEAF: forget the flows counted so far.
clos_paths_reset() {
	clos_leaf "$1" nft flush set inet clos paths
}
