# SPDX-License-Identifier: GPL-2.0
#
# The lab's scenarios and options, read by the host side (tools/lab/run,
# tools/lab/report) and the guest side (tools/lab/guest) alike, so that
# both agree on what a run is.
#
# A scenario is two runs through one fabric. Most are an incast: N senders
# write to one receiver (ib_write_bw) through the switch port towards it,
# where a rate limit and RED/ECN marking make the congestion point; ecmp,
# ecmp-collision and oversubscribed send from one leaf of a leaf-spine
# fabric to another over two spines.
# scenario_NAME sets LAB_TITLE, LAB_TEXT (what to look for), LAB_RUNS (the
# runs' names) and LAB_FLOWS_DEFAULT, and LAB_GUEST, LAB_REPORT and
# LAB_PLOTS where it is not an incast; scenario_NAME RUN then changes the
# run_* settings that differ from lab_run_defaults for that run.

LAB_SCENARIOS="incast incast4 ecn-threshold-too-low cnp-blocked lossy tcp-mix"
LAB_SCENARIOS+=" ecmp ecmp-collision oversubscribed"
LAB_SCENARIO=incast
LAB_RATE=		# Mb/s, the bottleneck; by default the scenario's
LAB_RATE_DEFAULT=50
# Scenarios whose ports are not the default's: ecmp's two uplinks must be
# less than what one host gets through three routers under emulation;
# oversubscribed's rate is its hosts' links, and its uplinks' at 1:1.
declare -gA LAB_RATE_OF=([ecmp]=20 [ecmp-collision]=20 [oversubscribed]=20)
LAB_KMIN=10000		# bytes: RED starts marking
LAB_KMAX=40000		# bytes: RED marks with LAB_PMAX, above it every packet
LAB_PMAX=0.1		# as switches are set; Documentation/labs.rst
LAB_LIMIT=		# bytes: the port's buffer; by default the scenario's
LAB_LIMIT_DEFAULT=100000
# Scenarios whose buffer is not the default one.
declare -gA LAB_LIMIT_OF=([incast4]=300000 [ecmp]=2500000)
LAB_PRESET=mlx5
LAB_DURATION=20		# s per run
LAB_FLOWS=
LAB_SCALE=100		# DCQCN's timers times this (see lab_dcqcn)
LAB_LOSS=0.1		# %, the lossy scenario's random loss
LAB_OUT=
LAB_KERNEL=		# the VM's kernel (tools/testing/vm/fetch-kernel); 6.1 if empty
LAB_CLOCK=virtual	# the VM's clock: see lab_vm_args
LAB_QPS="1 4 16"	# ecmp: the QPs of the host pair, one phase each

lab_usage() {
	cat <<EOF
Usage: tools/lab/run [SCENARIO] [OPTION VALUE]...
       tools/lab/run --list
SCENARIO: $LAB_SCENARIOS (default $LAB_SCENARIO)
Options:
  --rate MBPS       bottleneck rate (default $LAB_RATE_DEFAULT; ecmp: ${LAB_RATE_OF[ecmp]}, each uplink;
                    oversubscribed: ${LAB_RATE_OF[oversubscribed]}, each host's link)
  --kmin BYTES      RED marking threshold, start (default $LAB_KMIN)
  --kmax BYTES      RED marking threshold, full (default $LAB_KMAX)
  --pmax P          marking probability at kmax (default $LAB_PMAX)
  --limit BYTES     the switch port's buffer (default $LAB_LIMIT_DEFAULT; incast4: ${LAB_LIMIT_OF[incast4]};
                    ecmp: ${LAB_LIMIT_OF[ecmp]})
  --preset NAME     DCQCN preset: mlx5 or paper (default $LAB_PRESET)
  --scale N         DCQCN's timers (alpha period, increase timer, CNP
                    spacing) times N (default $LAB_SCALE); the alpha period
                    is at least the CNP spacing
  --duration SEC    length of each run (default $LAB_DURATION)
  --flows N         senders (default: the scenario's)
  --loss PCT        random loss of the lossy scenario (default $LAB_LOSS)
  --qps N,N,...     ecmp: the QPs between the two hosts, one phase each
                    (default ${LAB_QPS// /,}; 1..32 each)
  --out DIR         results folder (default .cache/lab/SCENARIO-DATE)
  --kernel K        the VM's kernel: 6.1 (default), 6.12, 7 or a Debian ABI
  --clock C         the VM's clock: virtual (default; counts instructions,
                    one vCPU, the same figures on a busy host) or real
                    (the host's, two vCPUs)
Examples:
  tools/lab/run
  tools/lab/run incast4 --duration 30
  tools/lab/run ecn-threshold-too-low --kmin 30000 --kmax 80000
  tools/lab/run incast --kernel 6.12
  tools/lab/run ecmp --qps 2,8,32
EOF
}

# lab_parse_args ARG...: sets the LAB_* options; fails with a reason.
lab_parse_args() {
	local re_num='^[0-9]+$' re_real='^[0-9]*\.?[0-9]+$'

	while [ $# -gt 0 ]; do
		case $1 in
		--rate | --kmin | --kmax | --limit | --duration | --flows | --scale)
			[ $# -ge 2 ] && [[ $2 =~ $re_num ]] && [ "$2" -gt 0 ] ||
				{ echo "lab: $1 needs a positive integer" >&2; return 1; } ;;&
		--pmax | --loss)
			[ $# -ge 2 ] && [[ $2 =~ $re_real ]] ||
				{ echo "lab: $1 needs a number" >&2; return 1; } ;;&
		--rate) LAB_RATE=$2 ;;
		--kmin) LAB_KMIN=$2 ;;
		--kmax) LAB_KMAX=$2 ;;
		--pmax) LAB_PMAX=$2 ;;
		--limit) LAB_LIMIT=$2 ;;
		--duration) LAB_DURATION=$2 ;;
		--flows) LAB_FLOWS=$2 ;;
		--scale) LAB_SCALE=$2 ;;
		--loss) LAB_LOSS=$2 ;;
		--qps)
			[ $# -ge 2 ] && [[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]] ||
				{ echo "lab: --qps needs numbers separated by commas" >&2; return 1; }
			LAB_QPS=${2//,/ } ;;
		--preset)
			case ${2:-} in
			mlx5 | paper) LAB_PRESET=$2 ;;
			*) echo "lab: --preset is mlx5 or paper" >&2; return 1 ;;
			esac ;;
		--out)
			[ $# -ge 2 ] || { echo "lab: --out needs a folder" >&2; return 1; }
			LAB_OUT=$2 ;;
		--kernel)
			[ $# -ge 2 ] && [ -n "$2" ] && [[ $2 != -* ]] ||
				{ echo "lab: --kernel needs a kernel" >&2; return 1; }
			LAB_KERNEL=$2 ;;
		--clock)
			case ${2:-} in
			virtual | real) LAB_CLOCK=$2 ;;
			*) echo "lab: --clock is virtual or real" >&2; return 1 ;;
			esac ;;
		-*) echo "lab: unknown option $1 (see --help)" >&2; return 1 ;;
		*)
			[[ " $LAB_SCENARIOS " == *" $1 "* ]] ||
				{ echo "lab: unknown scenario $1 (one of: $LAB_SCENARIOS)" >&2; return 1; }
			LAB_SCENARIO=$1
			shift
			continue ;;
		esac
		shift 2
	done
	[ "$LAB_DURATION" -ge 6 ] ||
		{ echo "lab: --duration must be 6 s or more" >&2; return 1; }
	[ -z "$LAB_FLOWS" ] || [ "$LAB_FLOWS" -le 8 ] ||
		{ echo "lab: at most 8 flows" >&2; return 1; }
	lab_scenario "$LAB_SCENARIO" || return 1
	: "${LAB_FLOWS:=$LAB_FLOWS_DEFAULT}"
	local q
	for q in $LAB_QPS; do
		[ "$q" -ge 1 ] && [ "$q" -le 32 ] ||
			{ echo "lab: --qps: $q is out of range (1..32)" >&2; return 1; }
	done
	# RED averages the queue in packets of avpkt (1000 bytes) and cannot
	# start marking below one.
	[ "$LAB_KMIN" -gt 1000 ] ||
		{ echo "lab: --kmin must be above 1000 bytes (one average packet for RED)" >&2; return 1; }
	[ "$LAB_KMIN" -lt "$LAB_KMAX" ] ||
		{ echo "lab: --kmin must be below --kmax" >&2; return 1; }
	[ "$LAB_KMAX" -lt "$LAB_LIMIT" ] ||
		{ echo "lab: --kmax must be below --limit" >&2; return 1; }
}

# lab_vm_args: tools/testing/vm/run's options for LAB_CLOCK. On the host's
# clock a guest that loses its CPUs to other work sees its timers fire
# late, its port fall behind and TCP lose to DCQCN (tcp-mix with one host
# core busy: timer lateness 25-45 ms, TCP 10 Mb/s against RoCE's 15). On
# a clock that counts instructions (2 ns each) the guest cannot tell a
# busy host from an idle one: the same run gave lateness 0.6 ms and TCP
# 35 Mb/s against 10.5. qemu 7.2 runs it with one vCPU only.
lab_vm_args() {
	case $LAB_CLOCK in
	virtual) echo "--icount 1 -c 1" ;;
	real) echo "-c 2" ;;
	esac
}

# lab_scenario NAME [RUN]: scenario NAME's settings (of RUN), with the
# rate and the buffer settled first: --rate and --limit if given, else the
# scenario's own.
lab_scenario() {
	: "${LAB_RATE:=${LAB_RATE_OF[$1]:-$LAB_RATE_DEFAULT}}"
	: "${LAB_LIMIT:=${LAB_LIMIT_OF[$1]:-$LAB_LIMIT_DEFAULT}}"
	LAB_GUEST=guest LAB_REPORT=report
	LAB_PLOTS="overview.png (all), rates.png, queue.png, alpha.png"
	# What a run takes in the VM: its traffic, its set-up and the flows'
	# start, on the VM's clock.
	LAB_RUN_SECS=$((LAB_DURATION + 40))
	"scenario_${1//-/_}" "${@:2}"
}

# The settings of one run, before its scenario changes them.
lab_run_defaults() {
	run_title=
	run_cc=0		# rxe_cc loaded, DCQCN on
	run_rate=$LAB_RATE
	run_kmin=$LAB_KMIN
	run_kmax=$LAB_KMAX
	run_loss=0		# % random loss at the port, instead of RED
	run_cnp_block=0		# the switch drops CNPs
	run_tcp=0		# a TCP flow (iperf3) from host 1 too
	run_classes=1		# 2: RoCE and the rest in separate queues
	run_hash=l4		# ecmp: the routers' multipath hash (clos_hash)
	run_moved=0		# ecmp-collision: flow 2's port on the other spine
}

scenario_incast() {
	LAB_TITLE="2:1 incast"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(no-cc dcqcn)
	LAB_TEXT="Two senders write to one receiver through a ${LAB_RATE} Mb/s port that marks ECN.
Without congestion control every sender sends as fast as rxe lets it: the
port's queue fills to its limit, packets are dropped, and RoCE's go-back-N
resends whole windows, so goodput falls and one flow may starve. With DCQCN
the receiver answers CE marks with CNPs, the senders cut their rates, and
the queue stays near the marking thresholds: no drops, fair shares."
	case ${1:-} in
	no-cc) run_title="no congestion control" ;;
	dcqcn) run_title="DCQCN ($LAB_PRESET)"; run_cc=1 ;;
	esac
}

scenario_incast4() {
	scenario_incast "$@"
	LAB_TITLE="4:1 incast"
	LAB_FLOWS_DEFAULT=4
	LAB_TEXT="The incast with four senders, through a deeper buffer ($LAB_LIMIT bytes): it
holds their four windows (4 x 64 packets), so without congestion control
nothing is lost, but the queue stands near its limit and every packet waits
behind it (latency at 50 Mb/s: 40 ms). DCQCN holds the queue near the
marking thresholds at a cost in goodput. Then run it with --limit 100000:
the four windows overflow the buffer at once, before a CNP can act, and
both runs collapse into go-back-N timeouts; a flow waiting out its timeout
recovers its Rc meanwhile and bursts back in. How much buffer a number of
senders needs before DCQCN's reaction catches up is the lesson."
}

scenario_ecn_threshold_too_low() {
	[ $((LAB_LIMIT / 50)) -gt 1000 ] || {
		echo "lab: ecn-threshold-too-low marks from 2% of --limit, which must be 50050 or more" >&2
		return 1
	}
	LAB_TITLE="ECN threshold too low"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(too-low sane)
	LAB_TEXT="The same DCQCN incast twice: once with the marking thresholds at a few
percent of the buffer ($((LAB_LIMIT / 50)) and $((LAB_LIMIT / 20)) bytes: two and five packets), once
at the sane ones. On hardware, marking that early costs throughput: after
each cut the short queue runs dry and the link idles. Look at the queue
and at the CNPs sent: the threshold moves the queue, not the rate. DCQCN
is rate-based; its loop settles where the CNPs balance the increase
timer, and the queue stands wherever the switch marks that often, so both
runs get about as many CNPs. The goodput lost on hardware is idle time,
and under emulation there is little to lose: the port delivers about 47
of its 50 Mb/s at best and DCQCN gets 44-45 at either threshold
(Documentation/labs.rst has the measurements)."
	case ${1:-} in
	too-low)
		run_title="marking at $((LAB_LIMIT / 50))/$((LAB_LIMIT / 20)) bytes"
		run_cc=1 run_kmin=$((LAB_LIMIT / 50)) run_kmax=$((LAB_LIMIT / 20)) ;;
	sane) run_title="marking at $LAB_KMIN/$LAB_KMAX bytes"; run_cc=1 ;;
	esac
}

scenario_cnp_blocked() {
	LAB_TITLE="CNPs blocked"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(cnp-blocked dcqcn)
	LAB_TEXT="DCQCN is on, but the switch drops every CNP (an ACL, a wrong CNP priority
with no queue for it, a firewall on UDP 4791 opcode 0x81). The receiver
marks and answers as it should, so np_cnp_sent rises, but rp_cnp_handled at
the senders stays flat: they never slow down, the queue grows to its limit
and drops begin, as if there were no congestion control at all. That pair
of counters is how to spot it on real hardware."
	case ${1:-} in
	cnp-blocked) run_title="DCQCN, CNPs dropped by the switch"; run_cc=1 run_cnp_block=1 ;;
	dcqcn) run_title="DCQCN, CNPs delivered"; run_cc=1 ;;
	esac
}

scenario_lossy() {
	LAB_TITLE="a lossy path"
	LAB_FLOWS_DEFAULT=1
	LAB_RUNS=(clean lossy)
	LAB_TEXT="One flow with DCQCN on, through a port that is not a bottleneck (1 Gb/s,
more than rxe sends under emulation) and does not mark: once clean, once
losing ${LAB_LOSS}% of the packets at random. RoCE assumes a lossless fabric:
each loss makes the receiver NAK and the sender go back and resend
everything after the lost packet, so a fraction of a percent of loss costs
a large share of the throughput. DCQCN cannot help: nothing is marked, so
no CNP comes. This is why RoCE deployments make the fabric lossless, and
why a flapping optic hurts RDMA far more than TCP."
	case ${1:-} in
	clean) run_title="no loss"; run_cc=1 run_rate=1000 ;;
	lossy) run_title="${LAB_LOSS}% random loss"; run_cc=1 run_rate=1000 run_loss=$LAB_LOSS ;;
	esac
}

scenario_tcp_mix() {
	LAB_TITLE="TCP and RoCE"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(shared separate)
	LAB_TEXT="Two RoCE senders with DCQCN and one TCP flow (iperf3, CUBIC, not
ECN-capable) from host 1 through the ${LAB_RATE} Mb/s port. Shared: one queue for
all. TCP slows down only on loss, and the ECN-only port drops nothing until
its buffer is full, so TCP fills the buffer while the RoCE flows see CE
marks on every packet and DCQCN holds them at its floor (min-rate): RoCE
starves behind a full queue. Separate: RoCE has its own queue (the one
plotted) and each class is guaranteed half of the port, as switches give
RoCE a class of its own: the RoCE queue stays short and DCQCN shares the
RoCE half, TCP takes its half and borrows what RoCE leaves. The TCP
flow's rate is in the table and the rates plot."
	case ${1:-} in
	shared) run_title="TCP and RoCE in one queue"; run_cc=1 run_tcp=1 ;;
	separate) run_title="TCP and RoCE in separate queues"; run_cc=1 run_tcp=1 run_classes=2 ;;
	esac
}

scenario_ecmp() {
	LAB_TITLE="ECMP over two spines"
	LAB_FLOWS_DEFAULT=1
	LAB_RUNS=(l3 l4)
	LAB_GUEST=ecmp LAB_REPORT=ecmp-report
	LAB_PLOTS="uplinks.png"
	# A phase per number of QPs, each half the duration.
	LAB_RUN_SECS=$(($(wc -w <<<"$LAB_QPS") * (LAB_DURATION / 2 + 20)))
	LAB_TEXT="A leaf-spine fabric: host 1 under leaf 1 writes to host 2 under leaf 2 with
${LAB_QPS// /, } QPs in turn (ib_write_bw -q), DCQCN on. Leaf 1 reaches leaf 2 over
two spines, each uplink a ${LAB_RATE} Mb/s port that marks ECN, and picks a spine per
packet by a hash of its headers. The QPs of one host pair share addresses
and destination port (4791); only the UDP source port differs, which rxe
derives from the two QP numbers. Address hash (L3): every QP of the pair
takes the same spine however many there are, one uplink full and the
other idle. Five-tuple hash (L4): the QPs spread by source port, one QP
cannot, a few split unevenly (3:1 or 4:0 of four is common: the field's
'one uplink above 80%, the other under 30%'), many come close to even.
The table names the spine each QP took; rocectl qp show udp-sport PORT
finds a QP from a port a switch counter names."
	case ${1:-} in
	l3) run_title="address hash (L3)"; run_cc=1 run_hash=l3 ;;
	l4) run_title="five-tuple hash (L4)"; run_cc=1 run_hash=l4 ;;
	esac
}

scenario_ecmp_collision() {
	LAB_TITLE="two elephant flows on one spine"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(no-cc dcqcn moved)
	LAB_GUEST=ecmp LAB_REPORT=ecmp-report
	LAB_PLOTS="uplinks.png"
	LAB_RUN_SECS=$((LAB_DURATION / 2 + 30))
	LAB_TEXT="Hosts 1 and 2 under leaf 1 write to hosts 3 and 4 under leaf 2, one QP
each: two elephant flows, over two spines whose uplinks from leaf 1 are
${LAB_RATE} Mb/s ports that mark ECN, with the five-tuple hash. The lab first
learns which spine a few UDP source ports take, then gives both QPs ports
(rocectl qp set ... udp-sport) that the hash puts on the same spine, as
bad luck would. No congestion control: both flows crowd one uplink, its
buffer overflows and go-back-N wastes what is left, while the other
uplink idles. DCQCN: the two share the one uplink without loss, but
DCQCN only sets rates; it cannot change a path, so half the fabric still
idles. Moved: flow 2's QP gets a port on the other spine, the remedy a
NIC offers through the flow label, and each flow has an uplink of its own."
	case ${1:-} in
	no-cc) run_title="one spine, no congestion control" ;;
	dcqcn) run_title="one spine, DCQCN"; run_cc=1 ;;
	moved) run_title="flow 2 moved, DCQCN"; run_cc=1 run_moved=1 ;;
	esac
}

scenario_oversubscribed() {
	[ "$LAB_RATE" -ge 2 ] ||
		{ echo "lab: oversubscribed halves --rate for its 2:1 uplinks: 2 or more" >&2; return 1; }
	LAB_TITLE="oversubscribed uplinks"
	LAB_FLOWS_DEFAULT=2
	LAB_RUNS=(1to1 2to1)
	LAB_GUEST=ecmp LAB_REPORT=ecmp-report
	LAB_PLOTS="uplinks.png"
	LAB_RUN_SECS=$((LAB_DURATION / 2 + 30))
	LAB_TEXT="Hosts 1 and 2 under leaf 1 write to hosts 3 and 4 under leaf 2, each host's
link ${LAB_RATE} Mb/s (rxe_cc holds its QPs together to it, as a NIC's port does),
DCQCN on, one QP each, given UDP source ports that put them on different
spines, so the hash is out of the picture (ecmp-collision has that
lesson). 1:1: leaf 1's two uplinks are ${LAB_RATE} Mb/s each, as much as its
hosts' links together; every host gets its link's rate, nothing is
marked. 2:1: the uplinks are $((LAB_RATE / 2)) Mb/s each, half of what the hosts
can send; when both send at once each host gets at most half its link,
the uplinks mark ECN and DCQCN holds the senders there with a stream of
CNPs. A leaf's uplinks should carry what its hosts can send
(oversubscription 1:1) wherever RoCE hosts may all send at once."
	case ${1:-} in
	1to1) run_title="1:1, uplinks ${LAB_RATE} Mb/s"; run_cc=1 run_moved=1 ;;
	2to1)
		run_title="2:1, uplinks $((LAB_RATE / 2)) Mb/s"
		run_cc=1 run_moved=1 run_rate=$((LAB_RATE / 2)) ;;
	esac
}
