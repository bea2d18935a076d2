// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl diagnose's rules (diag.h). Each rule reads the deltas of one
 * interval and adds at most one finding per device or QP it blames.
 *
 * A counter that moved fewer than DIAG_MIN_EVENTS times is not evidence:
 * a QP's first CE mark comes before its peer is known, a CNP in flight
 * when a QP is destroyed meets an unknown QP, and one lost packet at a
 * link's start is not a lossy link.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

#define DIAG_MIN_EVENTS 5

/* CNPs lost: the sender got fewer than half of what its peer sent. */
#define DIAG_CNP_LOST_NUM 1
#define DIAG_CNP_LOST_DEN 2

/*
 * Marking high: half or more of the RoCE packets a QP receives carry CE.
 * A RED/WRED port marks at most Pmax of the packets while its queue is
 * between Kmin and Kmax and every packet above Kmax; with Pmax at 10%,
 * half marked means the queue stood above Kmax nearly half the time: the
 * thresholds are below where the load holds the queue, or the queue is
 * shared with traffic that does not back off. Under emulation DCQCN's
 * settled loop marks 30-45% (the lab's incast and incast4, tcp-mix's own
 * RoCE queue), a broken loop 85-100%.
 */
#define DIAG_MARKED_PCT 50
#define DIAG_MARKED_MIN_PACKETS 100

/* At its floor: at min-rate in four samples of five or more. */
#define DIAG_FLOOR_PCT 80
#define DIAG_FLOOR_MIN_SAMPLES 5

/*
 * Flows to one peer: a QP that moved under a third of the group's mean is
 * starved, under a hundredth stalled, once the group moved 64 KiB or more
 * per second on average (an idle group says nothing about shares).
 */
#define DIAG_STARVED_DIV 3
/*
 * Resends without gaps matter from 1% of the packets: the lab's clean
 * path, its one vCPU busy at 150 Mb/s, has 0.2% (late ACKs on a busy
 * responder), which costs little.
 */
#define DIAG_RESENDS_PCT 1
#define DIAG_STALLED_DIV 100
#define DIAG_GROUP_MIN_BPS (64 * 1024)

/*
 * rxe asks its peer for an ACK at least every 64 packets of an RC QP
 * (RXE_MAX_PKT_PER_ACK); a QP that sent four times that in the interval
 * and received nothing at all is not being answered.
 */
#define DIAG_UNANSWERED_MIN_PACKETS 256

/*
 * Port-limited from a quarter of a device's requests waiting for its line
 * rate: a QP at the line rate whose window is spent sends its next
 * packets back to back as the ACKs come, and some of those wait, which
 * says nothing (the lab's DCQCN runs: 0.1-0.3% of the requests); a
 * quarter means the link itself was full for long (CNPs blocked: 54%).
 */
#define DIAG_PORT_HELD_PCT 25

static const char *const id_names[DIAG_NR] = {
	[DIAG_NO_TRAFFIC] = "no-traffic",
	[DIAG_CC_NOT_LOADED] = "cc-not-loaded",
	[DIAG_NP_OFF] = "np-off",
	[DIAG_CNP_SUPPRESSED] = "cnp-suppressed",
	[DIAG_CNP_UNRESOLVED] = "cnp-unresolved",
	[DIAG_CNP_LOST] = "cnp-lost",
	[DIAG_CNP_MALFORMED] = "cnp-malformed",
	[DIAG_CNP_UNKNOWN_QP] = "cnp-unknown-qp",
	[DIAG_DCQCN_OFF] = "dcqcn-off",
	[DIAG_CNP_WRONG_SOURCE] = "cnp-wrong-source",
	[DIAG_MARKING_HIGH] = "marking-high",
	[DIAG_RATE_AT_FLOOR] = "rate-at-floor",
	[DIAG_LOSS_WITHOUT_MARKS] = "loss-without-marks",
	[DIAG_LOSS_WITH_MARKS] = "loss-with-marks",
	[DIAG_LOSS_WITHOUT_CC] = "loss-without-cc",
	[DIAG_RESENDS_WITHOUT_LOSS] = "resends-without-loss",
	[DIAG_QP_STALLED] = "qp-stalled",
	[DIAG_QP_STARVED] = "qp-starved",
	[DIAG_PACED_DROPPED] = "paced-dropped",
	[DIAG_RETRY_EXCEEDED] = "retry-exceeded",
	[DIAG_PORT_LIMITED] = "port-limited",
};

static const struct {
	enum diag_severity severity;
	const char *meaning;
	const char *advice;
} rules[DIAG_NR] = {
	[DIAG_NO_TRAFFIC] = { DIAG_INFO,
		"no RoCE packet moved during the interval: nothing to judge",
		"run the traffic, then diagnose while it runs" },
	[DIAG_CC_NOT_LOADED] = { DIAG_INFO,
		"rxe_cc is not loaded: no DCQCN, and only rxe's own counters were read",
		"modprobe rxe_cc" },
	[DIAG_NP_OFF] = { DIAG_ERROR,
		"CE-marked packets arrive but the notification point is off: no CNP goes back and the senders never slow down",
		"rocectl np set dev DEV enable on" },
	[DIAG_CNP_SUPPRESSED] = { DIAG_ERROR,
		"CE marks arrive but every CNP was held back by the CNP spacing: it is longer than the marks' spacing",
		"lower np min-time-between-cnps (mlx5: 4 us), or check per-port CNP spacing" },
	[DIAG_CNP_UNRESOLVED] = { DIAG_WARNING,
		"CNPs could not be sent: the QP's peer is not known, there is no route to it, or this host's firewall drops them on the way out",
		"check the route towards the peer from this device's netdev, and the host's nftables/iptables output rules for UDP 4791" },
	[DIAG_CNP_LOST] = { DIAG_ERROR,
		"the receiver sends CNPs that do not reach this sender: the fabric drops them (an ACL or firewall on UDP 4791, a CNP priority or DSCP with no queue or a paused one)",
		"check the switches' drops and filters for BTH opcode 0x81, and np cnp-dscp/cnp-prio against the fabric's classes" },
	[DIAG_CNP_MALFORMED] = { DIAG_WARNING,
		"RoCE packets or CNPs were refused as malformed: a wrong length, a P_Key other than the default, or a bad ICRC (a middlebox that rewrites them)",
		"capture on the netdev (tcpdump udp port 4791) and check the P_Key and ICRC of the CNPs" },
	[DIAG_CNP_UNKNOWN_QP] = { DIAG_WARNING,
		"CNPs arrive for QPs this device does not have: the peer's NP answers with a wrong destination QP, or for QPs already destroyed",
		"compare remote-qpn on both ends (rocectl qp show)" },
	[DIAG_DCQCN_OFF] = { DIAG_WARNING,
		"CNPs arrive but DCQCN is off for this QP (its own setting or its device's), so they are ignored",
		"rocectl dcqcn set dev DEV enable on, or rocectl qp set dev DEV qpn QPN dcqcn device" },
	[DIAG_CNP_WRONG_SOURCE] = { DIAG_ERROR,
		"CNPs arrive with DCQCN on but are ignored: they come from an address that is not the QP's peer (NAT, a GID of another subnet, an asymmetric route)",
		"compare the QP's peer (rocectl qp show) with the CNPs' source address (tcpdump)" },
	[DIAG_MARKING_HIGH] = { DIAG_WARNING,
		"a large share of the packets arrive CE-marked: the switch marks at a queue it never drains below (thresholds too low for the traffic, or the queue shared with traffic that does not back off)",
		"raise the switch's ECN thresholds (Kmin/Kmax), or give RoCE its own traffic class" },
	[DIAG_RATE_AT_FLOOR] = { DIAG_WARNING,
		"DCQCN holds the QP at its minimum rate: CNPs arrive faster than any increase (a queue that does not drain: traffic without congestion control in the same class, marking far too early)",
		"look at what else shares the congested queue; check the ECN thresholds and the QP's min-rate" },
	[DIAG_LOSS_WITHOUT_MARKS] = { DIAG_ERROR,
		"packets are lost and nothing is CE-marked: not congestion the switch signals but a lossy link or a port that drops instead of marking",
		"check link error counters (ethtool -S, FCS errors) and that the switch marks ECN on RoCE's class" },
	[DIAG_LOSS_WITH_MARKS] = { DIAG_ERROR,
		"packets are lost although the switch marks: the buffer overflows before DCQCN's cuts take effect (too many senders for the buffer, thresholds too close to the buffer's limit)",
		"lower Kmin/Kmax well below the buffer, give the port more buffer, or run PFC for RoCE's class" },
	[DIAG_LOSS_WITHOUT_CC] = { DIAG_ERROR,
		"packets are lost and there is no congestion control: RoCE's go-back-N resends whole windows for each loss",
		"modprobe rxe_cc and mark ECN at the congested port" },
	[DIAG_RESENDS_WITHOUT_LOSS] = { DIAG_WARNING,
		"requests are resent on timeouts although none went missing: ACKs come late (a responder short of CPU, a long queue on the way back) or are lost, or the QP's timeout is too short for the path",
		"raise the QP's timeout (ibv_modify_qp timeout; perftest -u), and look at the responder's load" },
	[DIAG_QP_STALLED] = { DIAG_ERROR,
		"the QP is stuck: it sends and nothing comes back (its peer's QP is gone, or the ACKs are dropped on the way back), or it moved almost no data while QPs to the same peer did (go-back-N timeouts, a paced queue that is not released)",
		"rocectl -s qp show dev DEV qpn QPN (queue, limited, idle-ms); rdma resource show qp on both ends; the path back from the peer" },
	[DIAG_QP_STARVED] = { DIAG_WARNING,
		"the QP got far less than its share of the path its peer's QPs share",
		"compare the QPs' rates and CNPs (rocectl -s qp show); with DCQCN off, enable it" },
	[DIAG_PACED_DROPPED] = { DIAG_WARNING,
		"packets held by the pacer were freed because their QP died (destroyed or reaped while paced)",
		"check the application's QP teardown; rocectl monitor shows the QP's rate before it" },
	[DIAG_RETRY_EXCEEDED] = { DIAG_ERROR,
		"QPs gave up: their peer did not answer within their timeout, retry count times over, and their work requests completed with a retry-exceeded error (the QP is in the error state)",
		"look for a qp-stalled QP and the path back from its peer; raise the QP's timeout or retry count where the path is slow" },
	[DIAG_PORT_LIMITED] = { DIAG_INFO,
		"the device's QPs together wanted more than its line rate: its own link, not the fabric or DCQCN, held them back",
		"expected when QPs share a link; if the link is faster than line-rate says, raise rocectl dcqcn set dev DEV line-rate" },
};

const char *diag_hw_name(enum diag_hw hw)
{
	static const char *const names[DIAG_HW_NR] = {
		[DIAG_HW_SENT_PKTS] = "sent_pkts",
		[DIAG_HW_RCVD_PKTS] = "rcvd_pkts",
		[DIAG_HW_OUT_OF_SEQ] = "out_of_seq_request",
		[DIAG_HW_DUPLICATE] = "duplicate_request",
		[DIAG_HW_SEQ_ERR] = "rcvd_seq_err",
		[DIAG_HW_RETRY] = "completer_retry_err",
		[DIAG_HW_RETRY_EXCEEDED] = "retry_exceeded_err",
	};

	return hw < DIAG_HW_NR ? names[hw] : NULL;
}

const char *diag_id_name(enum diag_id id)
{
	return id < DIAG_NR ? id_names[id] : NULL;
}

const char *diag_severity_name(enum diag_severity sev)
{
	static const char *const names[] = { "error", "warning", "info" };

	return sev <= DIAG_INFO ? names[sev] : NULL;
}

const char *diag_meaning(enum diag_id id)
{
	return id < DIAG_NR ? rules[id].meaning : NULL;
}

const char *diag_advice(enum diag_id id)
{
	return id < DIAG_NR ? rules[id].advice : NULL;
}

/* Where findings go: OUT up to MAX of them, N counts them all. */
struct diag_out {
	struct diag_finding *f;
	int max;
	int n;
};

static struct diag_finding *add(struct diag_out *o, enum diag_id id, const char *dev,
				int64_t qpn, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static struct diag_finding *add(struct diag_out *o, enum diag_id id, const char *dev,
				int64_t qpn, const char *fmt, ...)
{
	enum diag_severity severity = rules[id].severity;
	int kept = o->n < o->max ? o->n : o->max, at = kept;
	struct diag_finding *f;
	va_list ap;

	/* Kept in order of severity, then of arrival: the least go first when full. */
	while (at > 0 && o->f[at - 1].severity > severity)
		at--;
	o->n++;
	if (at >= o->max)
		return NULL;
	memmove(&o->f[at + 1], &o->f[at], (kept - at - (kept == o->max)) * sizeof(*f));
	f = &o->f[at];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = severity;
	snprintf(f->dev, sizeof(f->dev), "%s", dev ? dev : "");
	f->qpn = qpn;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	return f;
}

static void evidence(struct diag_finding *f, const char *name, uint64_t value)
{
	if (!f || f->nevidence >= DIAG_MAX_EVIDENCE)
		return;
	snprintf(f->evidence[f->nevidence].name, sizeof(f->evidence[0].name), "%s", name);
	f->evidence[f->nevidence++].value = value;
}

/* A counter's name as evidence, after who counted it when not the finding's subject. */
static void evidence_of(struct diag_finding *f, const struct diag_qp *who,
			const char *stat_name, uint64_t value)
{
	char name[48];

	snprintf(name, sizeof(name), "%.16s qpn %u %s", who->dev, who->qpn, stat_name);
	evidence(f, name, value);
}

/* Per second over the interval, rounded down. */
static uint64_t per_s(const struct diag_input *in, uint64_t count)
{
	return in->interval_ms ? count * 1000 / in->interval_ms : 0;
}

static bool host_idle(const struct diag_input *in)
{
	int i;

	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];

		if (d->stat[RXE_CC_A_STAT_TX_PACKETS] || d->stat[RXE_CC_A_STAT_RX_PACKETS] ||
		    d->hw[DIAG_HW_SENT_PKTS] || d->hw[DIAG_HW_RCVD_PKTS])
			return false;
	}
	return true;
}

/* The NP's side, per device: marks that make no CNP. */
static void rule_np(const struct diag_input *in, struct diag_out *o)
{
	struct diag_finding *f;
	int i;

	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];
		uint64_t marks = d->stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS];
		uint64_t sent = d->stat[RXE_CC_A_STAT_NP_CNP_SENT];
		uint64_t held = d->stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED];
		uint64_t unresolved = d->stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED];

		if (!d->cc || marks < DIAG_MIN_EVENTS || sent)
			continue;
		if (!d->np)
			f = add(o, DIAG_NP_OFF, d->name, -1,
				"%llu CE-marked packets (%llu/s), no CNP sent: np is off",
				(unsigned long long)marks, (unsigned long long)per_s(in, marks));
		/*
		 * A CNP that failed to go out took its spacing slot too: the
		 * marks it held back are cnp-unresolved's, per QP, not the
		 * spacing's.
		 */
		else if (held >= DIAG_MIN_EVENTS && unresolved < DIAG_MIN_EVENTS)
			f = add(o, DIAG_CNP_SUPPRESSED, d->name, -1,
				"%llu CE-marked packets, %llu CNPs held back by a spacing of %u us, none sent",
				(unsigned long long)marks, (unsigned long long)held,
				d->min_time_between_cnps_us);
		else
			continue;
		evidence(f, "np-ecn-marked-roce-packets", marks);
		evidence(f, "np-cnp-sent", sent);
		evidence(f, "np-cnp-suppressed", held);
	}
	for (i = 0; i < in->nqps; i++) {
		const struct diag_qp *q = &in->qps[i];
		uint64_t unresolved = q->stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED];
		uint64_t sent = q->stat[RXE_CC_A_STAT_NP_CNP_SENT];

		if (unresolved < DIAG_MIN_EVENTS || unresolved <= sent)
			continue;
		f = add(o, DIAG_CNP_UNRESOLVED, q->dev, q->qpn,
			"%llu CNPs could not be sent, %llu were",
			(unsigned long long)unresolved, (unsigned long long)sent);
		evidence(f, "np-cnp-unresolved", unresolved);
		evidence(f, "np-cnp-sent", sent);
	}
}

/* The QP at the other end of Q among QPS (N of them): each names the other. */
static const struct diag_qp *partner(const struct diag_qp *q, const struct diag_qp *qps, int n)
{
	int i;

	if (!q->remote_known)
		return NULL;
	for (i = 0; i < n; i++)
		if (&qps[i] != q && qps[i].remote_known && qps[i].qpn == q->remote_qpn &&
		    qps[i].remote_qpn == q->qpn)
			return &qps[i];
	return NULL;
}

/* CNPs a receiver NP sent to S: did S get them? */
static void check_cnp_path(struct diag_out *o, const struct diag_qp *np_side,
			   const struct diag_qp *s, bool totals)
{
	uint64_t sent = np_side->stat[RXE_CC_A_STAT_NP_CNP_SENT];
	uint64_t got = s->stat[RXE_CC_A_STAT_RP_CNP_RECEIVED];
	struct diag_finding *f;

	if (sent < DIAG_MIN_EVENTS || got * DIAG_CNP_LOST_DEN >= sent * DIAG_CNP_LOST_NUM)
		return;
	f = add(o, DIAG_CNP_LOST, s->dev, s->qpn,
		"%s qpn %u sent %llu CNPs to it%s, it received %llu",
		np_side->dev, np_side->qpn, (unsigned long long)sent,
		totals ? " (totals since the counters' reset)" : "", (unsigned long long)got);
	evidence_of(f, np_side, "np-cnp-sent", sent);
	evidence(f, "rp-cnp-received", got);
}

/* The peer's CNPs, from its saved totals, against this host's totals. */
static void rule_peer(const struct diag_input *in, struct diag_out *o)
{
	const struct diag_qp *s;
	int i;

	for (i = 0; i < in->npeers; i++) {
		s = partner(&in->peers[i], in->qps_total, in->nqps);
		if (s)
			check_cnp_path(o, &in->peers[i], s, true);
	}
}

/* The RP's side: CNPs that are lost on the way, refused or ignored. */
static void rule_rp(const struct diag_input *in, struct diag_out *o)
{
	const struct diag_qp *s;
	struct diag_finding *f;
	int i;

	for (i = 0; i < in->nqps; i++) {
		s = partner(&in->qps[i], in->qps, in->nqps);
		if (s)
			check_cnp_path(o, &in->qps[i], s, false);
	}
	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];
		uint64_t bad = d->stat[RXE_CC_A_STAT_MALFORMED];
		uint64_t unknown = d->stat[RXE_CC_A_STAT_UNKNOWN_QP];

		if (d->cc && bad >= DIAG_MIN_EVENTS) {
			f = add(o, DIAG_CNP_MALFORMED, d->name, -1,
				"%llu RoCE packets refused as malformed", (unsigned long long)bad);
			evidence(f, "malformed", bad);
		}
		if (d->cc && unknown >= DIAG_MIN_EVENTS) {
			f = add(o, DIAG_CNP_UNKNOWN_QP, d->name, -1,
				"%llu CNPs for QPs the device does not have", (unsigned long long)unknown);
			evidence(f, "unknown-qp", unknown);
		}
	}
	for (i = 0; i < in->nqps; i++) {
		const struct diag_qp *q = &in->qps[i];
		uint64_t ignored = q->stat[RXE_CC_A_STAT_RP_CNP_IGNORED];

		if (ignored < DIAG_MIN_EVENTS)
			continue;
		f = add(o, q->dcqcn ? DIAG_CNP_WRONG_SOURCE : DIAG_DCQCN_OFF, q->dev, q->qpn,
			"%llu of %llu CNPs received were ignored%s", (unsigned long long)ignored,
			(unsigned long long)q->stat[RXE_CC_A_STAT_RP_CNP_RECEIVED],
			q->dcqcn ? " with DCQCN on" : ": DCQCN is off");
		evidence(f, "rp-cnp-received", q->stat[RXE_CC_A_STAT_RP_CNP_RECEIVED]);
		evidence(f, "rp-cnp-ignored", ignored);
		evidence(f, "rp-cnp-handled", q->stat[RXE_CC_A_STAT_RP_CNP_HANDLED]);
	}
}

/* The loop's operating point: marks on most packets, rates at the floor. */
static void rule_loop(const struct diag_input *in, struct diag_out *o)
{
	struct diag_finding *f;
	int i;

	for (i = 0; i < in->nqps; i++) {
		const struct diag_qp *q = &in->qps[i];
		uint64_t rx = q->stat[RXE_CC_A_STAT_RX_PACKETS];
		uint64_t marks = q->stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS];

		if (rx < DIAG_MARKED_MIN_PACKETS || marks * 100 < rx * DIAG_MARKED_PCT)
			continue;
		f = add(o, DIAG_MARKING_HIGH, q->dev, q->qpn,
			"%llu%% of the %llu RoCE packets it received were CE-marked",
			(unsigned long long)(marks * 100 / rx), (unsigned long long)rx);
		evidence(f, "rx-packets", rx);
		evidence(f, "np-ecn-marked-roce-packets", marks);
		evidence(f, "np-cnp-sent", q->stat[RXE_CC_A_STAT_NP_CNP_SENT]);
	}
	for (i = 0; i < in->nqps; i++) {
		const struct diag_qp *q = &in->qps[i];

		if (!q->dcqcn || q->samples < DIAG_FLOOR_MIN_SAMPLES ||
		    q->samples_at_floor * 100 < q->samples * DIAG_FLOOR_PCT)
			continue;
		f = add(o, DIAG_RATE_AT_FLOOR, q->dev, q->qpn,
			"at its min-rate (%u kb/s) in %u of %u samples while it sent",
			q->min_rate_kbps, q->samples_at_floor, q->samples);
		evidence(f, "samples", q->samples);
		evidence(f, "samples-at-min-rate", q->samples_at_floor);
		evidence(f, "rp-cnp-handled", q->stat[RXE_CC_A_STAT_RP_CNP_HANDLED]);
		evidence(f, "rp-rate-cuts", q->stat[RXE_CC_A_STAT_RP_RATE_CUTS]);
	}
}

/* Gaps in the packet sequence: the responder saw one, or the requester was told of one. */
static uint64_t hw_gaps(const struct diag_dev *d)
{
	return d->hw[DIAG_HW_OUT_OF_SEQ] + d->hw[DIAG_HW_SEQ_ERR];
}

/* Resends on a timeout, and the duplicates they make: loss, or late ACKs. */
static uint64_t hw_resends(const struct diag_dev *d)
{
	return d->hw[DIAG_HW_DUPLICATE] + d->hw[DIAG_HW_RETRY];
}

static void hw_evidence(struct diag_finding *f, const struct diag_dev *d)
{
	int h;

	for (h = DIAG_HW_OUT_OF_SEQ; h < DIAG_HW_NR; h++)
		if (d->hw[h])
			evidence(f, diag_hw_name(h), d->hw[h]);
}

/*
 * rxe's own view: go-back-N at work, and whether marks came with it. A
 * gap is a lost packet; resends without gaps are timeouts, which a slow
 * responder causes as well as a lost ACK.
 */
static void rule_loss(const struct diag_input *in, struct diag_out *o)
{
	uint64_t marks = 0, gaps, resends, packets;
	struct diag_finding *f;
	enum diag_id id;
	int i;

	for (i = 0; i < in->ndevs; i++)
		marks += in->devs[i].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS];
	id = !in->cc_loaded ? DIAG_LOSS_WITHOUT_CC :
	     marks ? DIAG_LOSS_WITH_MARKS : DIAG_LOSS_WITHOUT_MARKS;
	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];

		if (!d->has_hw)
			continue;
		gaps = hw_gaps(d);
		resends = hw_resends(d);
		packets = d->hw[DIAG_HW_RCVD_PKTS] + d->hw[DIAG_HW_SENT_PKTS];
		if (gaps >= DIAG_MIN_EVENTS)
			f = add(o, id, d->name, -1,
				"%llu sequence gaps (%llu/s) and %llu resends in %llu packets received and sent%s",
				(unsigned long long)gaps, (unsigned long long)per_s(in, gaps),
				(unsigned long long)resends, (unsigned long long)packets,
				id == DIAG_LOSS_WITH_MARKS ? ", with CE marks on the host" : "");
		else if (resends >= DIAG_MIN_EVENTS && resends * 100 >= packets * DIAG_RESENDS_PCT)
			f = add(o, DIAG_RESENDS_WITHOUT_LOSS, d->name, -1,
				"%llu resends and duplicates, %llu sequence gaps, in %llu packets",
				(unsigned long long)resends, (unsigned long long)gaps,
				(unsigned long long)packets);
		else
			continue;
		hw_evidence(f, d);
	}
}

/*
 * A QP that sends data, or should: it sent at least what it received, or
 * received too little to be the receiving end of a flow (a stalled sender
 * may still get a few ACKs or NAKs), and it moved a packet in the interval.
 */
static bool data_sender(const struct diag_qp *q)
{
	uint64_t rx = q->stat[RXE_CC_A_STAT_RX_BYTES];

	/* rxe_cc lists a QP for 60 s after its last packet: a QP that moved nothing may be gone. */
	if (!q->stat[RXE_CC_A_STAT_TX_PACKETS] && !q->stat[RXE_CC_A_STAT_RX_PACKETS])
		return false;
	return q->peer[0] && (q->stat[RXE_CC_A_STAT_TX_BYTES] >= rx || rx < DIAG_GROUP_MIN_BPS);
}

/* An RC QP that sends and gets no ACK, NAK or response back. */
static bool unanswered(const struct diag_qp *q)
{
	return q->rc && q->stat[RXE_CC_A_STAT_TX_PACKETS] >= DIAG_UNANSWERED_MIN_PACKETS &&
	       !q->stat[RXE_CC_A_STAT_RX_PACKETS];
}

/* Shares among the QPs that send to one peer; a QP not answered at all. */
static void rule_shares(const struct diag_input *in, struct diag_out *o)
{
	struct diag_finding *f;
	int i, j;

	for (i = 0; i < in->nqps; i++) {
		const struct diag_qp *q = &in->qps[i];
		uint64_t total = 0, mine = q->stat[RXE_CC_A_STAT_TX_BYTES], mean;
		int n = 0;

		if (unanswered(q)) {
			f = add(o, DIAG_QP_STALLED, q->dev, q->qpn,
				"sent %llu packets and received none: no ACK came back",
				(unsigned long long)q->stat[RXE_CC_A_STAT_TX_PACKETS]);
			evidence(f, "tx-packets", q->stat[RXE_CC_A_STAT_TX_PACKETS]);
			evidence(f, "rx-packets", 0);
			continue;
		}
		if (!data_sender(q))
			continue;
		for (j = 0; j < in->nqps; j++)
			if (data_sender(&in->qps[j]) && !strcmp(in->qps[j].peer, q->peer)) {
				total += in->qps[j].stat[RXE_CC_A_STAT_TX_BYTES];
				n++;
			}
		mean = total / n;
		if (n < 2 || per_s(in, mean) < DIAG_GROUP_MIN_BPS)
			continue;
		if (mine * DIAG_STALLED_DIV < mean)
			f = add(o, DIAG_QP_STALLED, q->dev, q->qpn,
				"sent %llu bytes while the %d QPs to %s sent %llu on average",
				(unsigned long long)mine, n, q->peer, (unsigned long long)mean);
		else if (mine * DIAG_STARVED_DIV < mean)
			f = add(o, DIAG_QP_STARVED, q->dev, q->qpn,
				"sent %llu%% of the mean of the %d QPs to %s",
				(unsigned long long)(mine * 100 / mean), n, q->peer);
		else
			continue;
		evidence(f, "tx-bytes", mine);
		evidence(f, "peer-group-mean-tx-bytes", mean);
		evidence(f, "peer-group-qps", n);
	}
}

static void rule_pacer(const struct diag_input *in, struct diag_out *o)
{
	struct diag_finding *f;
	int i;

	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];
		uint64_t dropped = d->stat[RXE_CC_A_STAT_PACED_DROPPED];
		uint64_t held = d->stat[RXE_CC_A_STAT_PORT_HELD];
		uint64_t sent = d->stat[RXE_CC_A_STAT_TX_PACKETS];

		if (!d->cc)
			continue;
		if (dropped) {
			f = add(o, DIAG_PACED_DROPPED, d->name, -1,
				"%llu held packets freed with their QP", (unsigned long long)dropped);
			evidence(f, "paced-dropped", dropped);
		}
		if (held >= DIAG_MIN_EVENTS && held * 100 >= sent * DIAG_PORT_HELD_PCT) {
			f = add(o, DIAG_PORT_LIMITED, d->name, -1,
				"%llu of the %llu packets it sent waited for the line rate",
				(unsigned long long)held, (unsigned long long)sent);
			evidence(f, "port-held", held);
			evidence(f, "tx-packets", sent);
		}
	}
}

/*
 * QPs that gave up on their peer. One is enough: each is a QP in the error
 * state, its work requests failed.
 */
static void rule_retries(const struct diag_input *in, struct diag_out *o)
{
	struct diag_finding *f;
	int i;

	for (i = 0; i < in->ndevs; i++) {
		const struct diag_dev *d = &in->devs[i];
		uint64_t gave_up = d->hw[DIAG_HW_RETRY_EXCEEDED];

		if (!d->has_hw || !gave_up)
			continue;
		f = add(o, DIAG_RETRY_EXCEEDED, d->name, -1,
			"%llu QPs gave up after %llu timeouts", (unsigned long long)gave_up,
			(unsigned long long)d->hw[DIAG_HW_RETRY]);
		hw_evidence(f, d);
	}
}

int diag_run(const struct diag_input *in, struct diag_finding *out, int max)
{
	struct diag_out o = { .f = out, .max = max };

	if (!in->cc_loaded)
		add(&o, DIAG_CC_NOT_LOADED, NULL, -1, "rxe_cc is not loaded");
	/* Totals need no traffic now: the peer's file may come after it. */
	rule_peer(in, &o);
	if (host_idle(in)) {
		add(&o, DIAG_NO_TRAFFIC, NULL, -1, "no RoCE packet in %llu ms",
		    (unsigned long long)in->interval_ms);
	} else {
		rule_np(in, &o);
		rule_rp(in, &o);
		rule_loop(in, &o);
		rule_loss(in, &o);
		rule_shares(in, &o);
		rule_pacer(in, &o);
		rule_retries(in, &o);
	}
	return o.n;
}
