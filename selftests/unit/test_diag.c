// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl diagnose's rules (tools/rocectl/diag.c) on hand-made intervals:
 * a 2:1 incast over one second, healthy, then broken one way at a time.
 * Each trouble must be named where it is, nothing else may be, and each
 * threshold holds at its edge.
 *
 *   rxe0 qpn 17 --\
 *                  >-- rxe2 qpn 20 / 21 (10.0.0.3)
 *   rxe1 qpn 18 --/
 */
#include <string.h>

#include "diag.h"
#include "tap.h"

#define MB 1000000ULL

static struct diag_dev devs[3];
static struct diag_qp qps[4];
static struct diag_input in;
static struct diag_finding found[32];
static int nfound;

static void qp(struct diag_qp *q, const char *dev, uint32_t qpn, uint32_t remote,
	       const char *peer)
{
	memset(q, 0, sizeof(*q));
	strcpy(q->dev, dev);
	q->qpn = qpn;
	q->remote_qpn = remote;
	q->remote_known = true;
	strcpy(q->peer, peer);
	q->dcqcn = true;
	q->rc = true;
	q->min_rate_kbps = 1000;
}

/* The healthy incast: 1% marked, every CNP handled, no loss, fair shares. */
static void healthy(void)
{
	int i;

	memset(devs, 0, sizeof(devs));
	for (i = 0; i < 3; i++) {
		strcpy(devs[i].name, i == 0 ? "rxe0" : i == 1 ? "rxe1" : "rxe2");
		devs[i].cc = devs[i].np = devs[i].dcqcn = devs[i].has_hw = true;
		devs[i].min_time_between_cnps_us = 4;
	}
	qp(&qps[0], "rxe0", 17, 20, "10.0.0.3");
	qp(&qps[1], "rxe1", 18, 21, "10.0.0.3");
	qp(&qps[2], "rxe2", 20, 17, "10.0.0.1");
	qp(&qps[3], "rxe2", 21, 18, "10.0.0.2");
	for (i = 0; i < 2; i++) {
		struct diag_qp *s = &qps[i], *r = &qps[i + 2];

		s->stat[RXE_CC_A_STAT_TX_PACKETS] = r->stat[RXE_CC_A_STAT_RX_PACKETS] = 5000;
		s->stat[RXE_CC_A_STAT_TX_BYTES] = r->stat[RXE_CC_A_STAT_RX_BYTES] = 5 * MB;
		r->stat[RXE_CC_A_STAT_TX_PACKETS] = s->stat[RXE_CC_A_STAT_RX_PACKETS] = 80;
		r->stat[RXE_CC_A_STAT_TX_BYTES] = s->stat[RXE_CC_A_STAT_RX_BYTES] = 80 * 64;
		r->stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 50;
		r->stat[RXE_CC_A_STAT_NP_CNP_SENT] = 40;
		r->stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = 10;
		s->stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 40;
		s->stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 40;
		s->stat[RXE_CC_A_STAT_RP_RATE_CUTS] = 30;
		s->samples = 10;
		s->samples_at_floor = 1;
		devs[i].hw[DIAG_HW_SENT_PKTS] = 5000;
		devs[i].hw[DIAG_HW_RCVD_PKTS] = 80;
		devs[2].hw[DIAG_HW_SENT_PKTS] += 80;
		devs[2].hw[DIAG_HW_RCVD_PKTS] += 5000;
	}
	/* The device sums: what its QPs did. */
	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++) {
		devs[0].stat[i] = qps[0].stat[i];
		devs[1].stat[i] = qps[1].stat[i];
		devs[2].stat[i] = qps[2].stat[i] + qps[3].stat[i];
	}
	memset(&in, 0, sizeof(in));
	in.interval_ms = 1000;
	in.cc_loaded = true;
	in.devs = devs;
	in.ndevs = 3;
	in.qps = qps;
	in.nqps = 4;
}

static void run(void)
{
	memset(found, 0, sizeof(found));
	nfound = diag_run(&in, found, 32);
}

/* Whether the findings are exactly ID on each of WHO ("rxe0/17", "rxe2", "" the host). */
static int only(enum diag_id id, const char *who1, const char *who2)
{
	const char *who[2] = { who1, who2 };
	int want = who2 ? 2 : 1, i;
	char me[48];

	if (nfound != want) {
		for (i = 0; i < nfound; i++)
			printf("#   found %s on %s/%lld: %s\n", diag_id_name(found[i].id),
			       found[i].dev, (long long)found[i].qpn, found[i].text);
		return 0;
	}
	for (i = 0; i < want; i++) {
		if (found[i].qpn >= 0)
			snprintf(me, sizeof(me), "%s/%lld", found[i].dev, (long long)found[i].qpn);
		else
			snprintf(me, sizeof(me), "%s", found[i].dev);
		if (found[i].id != id || strcmp(me, who[i])) {
			printf("#   found %s on %s\n", diag_id_name(found[i].id), me);
			return 0;
		}
	}
	return 1;
}

static void test_healthy(void)
{
	healthy();
	run();
	tap_is(nfound, 0, "healthy incast: no problem found");

	healthy();
	memset(devs, 0, sizeof(devs));
	memset(qps, 0, sizeof(qps));
	strcpy(devs[0].name, "rxe0");
	devs[0].cc = true;
	run();
	tap_ok(only(DIAG_NO_TRAFFIC, "", NULL), "idle host: no-traffic, nothing else");
}

static void test_np(void)
{
	healthy();
	devs[2].np = false;
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_SENT] = qps[3].stat[RXE_CC_A_STAT_NP_CNP_SENT] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = qps[1].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = qps[1].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 0;
	devs[2].stat[RXE_CC_A_STAT_NP_CNP_SENT] = 0;
	devs[2].stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = 0;
	run();
	tap_ok(only(DIAG_NP_OFF, "rxe2", NULL), "np off with CE marks: np-off on the receiver");
	tap_ok(found[0].nevidence == 3 && found[0].evidence[0].value == 100,
	       "np-off: evidence np-ecn-marked-roce-packets 100");

	devs[2].np = true;
	devs[2].stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = 100;
	run();
	tap_ok(only(DIAG_CNP_SUPPRESSED, "rxe2", NULL), "every CNP held back: cnp-suppressed");

	/* CNPs that failed took their slots: the spacing is not the cause. */
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 5;
	devs[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 5;
	run();
	tap_ok(only(DIAG_CNP_UNRESOLVED, "rxe2/20", NULL),
	       "held back behind CNPs that failed: cnp-unresolved, not cnp-suppressed");
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 0;
	devs[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 0;

	devs[2].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 4;
	run();
	tap_is(nfound, 0, "4 marks without CNP: below the evidence threshold");

	healthy();
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 41;
	run();
	tap_ok(only(DIAG_CNP_UNRESOLVED, "rxe2/20", NULL), "more unresolved than sent: cnp-unresolved");
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_UNRESOLVED] = 40;
	run();
	tap_is(nfound, 0, "as many unresolved as sent: nothing");
}

static void test_cnp_path(void)
{
	healthy();
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = qps[1].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = qps[1].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 0;
	run();
	tap_ok(only(DIAG_CNP_LOST, "rxe0/17", "rxe1/18"), "CNPs dropped by the fabric: cnp-lost on both senders");
	tap_ok(!strcmp(found[0].evidence[0].name, "rxe2 qpn 20 np-cnp-sent") &&
	       found[0].evidence[0].value == 40,
	       "cnp-lost: the receiver's QP and its count as evidence");

	healthy();
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 20;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 20;
	run();
	tap_is(nfound, 0, "half of the CNPs arrive: not lost");
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 19;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 19;
	run();
	tap_ok(only(DIAG_CNP_LOST, "rxe0/17", NULL), "19 of 40 arrive: cnp-lost");

	healthy();
	qps[0].remote_qpn = 99;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 0;
	run();
	tap_is(nfound, 0, "QPs that do not name each other are not a pair");

	healthy();
	devs[0].stat[RXE_CC_A_STAT_MALFORMED] = 5;
	devs[1].stat[RXE_CC_A_STAT_UNKNOWN_QP] = 5;
	run();
	tap_ok(nfound == 2 && found[0].id == DIAG_CNP_MALFORMED && found[1].id == DIAG_CNP_UNKNOWN_QP,
	       "malformed and unknown-QP CNPs: cnp-malformed, cnp-unknown-qp");

	healthy();
	qps[1].stat[RXE_CC_A_STAT_RP_CNP_IGNORED] = 40;
	qps[1].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 0;
	qps[1].dcqcn = false;
	run();
	tap_ok(only(DIAG_DCQCN_OFF, "rxe1/18", NULL), "CNPs ignored, DCQCN off: dcqcn-off");
	qps[1].dcqcn = true;
	run();
	tap_ok(only(DIAG_CNP_WRONG_SOURCE, "rxe1/18", NULL), "CNPs ignored, DCQCN on: cnp-wrong-source");
}

static void test_loop(void)
{
	healthy();
	qps[2].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 2500;
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = 2460;
	run();
	tap_ok(only(DIAG_MARKING_HIGH, "rxe2/20", NULL), "50%% of packets marked: marking-high");
	qps[2].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 2499;
	run();
	tap_is(nfound, 0, "49.98% marked: not high");

	healthy();
	qps[0].samples_at_floor = 8;
	run();
	tap_ok(only(DIAG_RATE_AT_FLOOR, "rxe0/17", NULL), "8 of 10 samples at min-rate: rate-at-floor");
	qps[0].samples_at_floor = 7;
	run();
	tap_is(nfound, 0, "7 of 10 at min-rate: not pinned");
	qps[0].samples_at_floor = 4;
	qps[0].samples = 4;
	run();
	tap_is(nfound, 0, "4 of 4 samples: too few to judge");
}

static void test_loss(void)
{
	healthy();
	for (int i = 0; i < 3; i++)
		devs[i].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 0;
	qps[2].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 0;
	qps[3].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 0;
	devs[2].hw[DIAG_HW_OUT_OF_SEQ] = 3;
	devs[2].hw[DIAG_HW_SEQ_ERR] = 2;
	run();
	tap_ok(only(DIAG_LOSS_WITHOUT_MARKS, "rxe2", NULL), "sequence gaps, no marks: loss-without-marks");
	tap_ok(found[0].nevidence == 2 && !strcmp(found[0].evidence[0].name, "out_of_seq_request"),
	       "loss: rxe's counters that moved as evidence");
	devs[2].hw[DIAG_HW_SEQ_ERR] = 1;
	run();
	tap_is(nfound, 0, "4 sequence gaps: below the evidence threshold");

	/* rxe2 moved 10160 packets: 1% is 101.6. */
	devs[2].hw[DIAG_HW_OUT_OF_SEQ] = 0;
	devs[2].hw[DIAG_HW_SEQ_ERR] = 0;
	devs[2].hw[DIAG_HW_DUPLICATE] = 100;
	devs[2].hw[DIAG_HW_RETRY] = 1;
	run();
	tap_is(nfound, 0, "101 resends in 10160 packets, no gap: under 1%, nothing");
	devs[2].hw[DIAG_HW_RETRY] = 2;
	run();
	tap_ok(only(DIAG_RESENDS_WITHOUT_LOSS, "rxe2", NULL),
	       "102 resends in 10160 packets, no gap: resends-without-loss");

	healthy();
	devs[0].hw[DIAG_HW_SEQ_ERR] = 10;
	devs[0].hw[DIAG_HW_RETRY] = 2;
	run();
	tap_ok(only(DIAG_LOSS_WITH_MARKS, "rxe0", NULL), "NAKs and retries with marks: loss-with-marks");

	healthy();
	in.cc_loaded = false;
	for (int i = 0; i < 3; i++) {
		devs[i].cc = false;
		memset(devs[i].stat, 0, sizeof(devs[i].stat));
	}
	in.nqps = 0;
	devs[2].hw[DIAG_HW_OUT_OF_SEQ] = 50;
	run();
	tap_ok(nfound == 2 && found[0].id == DIAG_LOSS_WITHOUT_CC && !strcmp(found[0].dev, "rxe2") &&
	       found[1].id == DIAG_CC_NOT_LOADED,
	       "no rxe_cc: loss-without-cc first, then cc-not-loaded");

	/* 8 timeouts in 5080 packets is no loss finding; a QP that gave up is. */
	healthy();
	devs[0].hw[DIAG_HW_RETRY] = 8;
	devs[0].hw[DIAG_HW_RETRY_EXCEEDED] = 1;
	run();
	tap_ok(only(DIAG_RETRY_EXCEEDED, "rxe0", NULL), "one QP gave up: retry-exceeded");
}

static void test_shares(void)
{
	healthy();
	/* Mean 3 MB: 1 MB is a third of it, not under. */
	qps[0].stat[RXE_CC_A_STAT_TX_BYTES] = 5 * MB;
	qps[1].stat[RXE_CC_A_STAT_TX_BYTES] = 1 * MB;
	run();
	tap_is(nfound, 0, "a third of the mean: not starved");
	qps[1].stat[RXE_CC_A_STAT_TX_BYTES] = MB - 3;
	run();
	tap_ok(only(DIAG_QP_STARVED, "rxe1/18", NULL), "under a third of the mean: qp-starved");
	qps[1].stat[RXE_CC_A_STAT_TX_BYTES] = 0;
	run();
	tap_ok(only(DIAG_QP_STALLED, "rxe1/18", NULL), "nothing sent beside 5 MB: qp-stalled");
	qps[1].stat[RXE_CC_A_STAT_RX_PACKETS] = 0;
	qps[1].stat[RXE_CC_A_STAT_TX_PACKETS] = 0;
	run();
	tap_is(nfound, 0, "a QP that moved no packet at all (maybe destroyed): not judged");
	qps[1].stat[RXE_CC_A_STAT_RX_PACKETS] = 80;
	qps[0].stat[RXE_CC_A_STAT_TX_BYTES] = 64 * 1024;
	run();
	tap_is(nfound, 0, "a group that moved 32 KiB/s on average: too idle to judge");

	/* rxe0's QP keeps resending and nothing comes back: ACKs or its peer gone. */
	healthy();
	qps[2].stat[RXE_CC_A_STAT_NP_ECN_MARKED_ROCE_PACKETS] = 0;
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_SENT] = 0;
	qps[2].stat[RXE_CC_A_STAT_NP_CNP_SUPPRESSED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_CNP_HANDLED] = 0;
	qps[0].stat[RXE_CC_A_STAT_RP_RATE_CUTS] = 0;
	qps[0].stat[RXE_CC_A_STAT_RX_PACKETS] = 0;
	qps[0].stat[RXE_CC_A_STAT_RX_BYTES] = 0;
	qps[0].stat[RXE_CC_A_STAT_TX_PACKETS] = 256;
	run();
	tap_ok(only(DIAG_QP_STALLED, "rxe0/17", NULL), "256 packets sent, none received: qp-stalled");
	qps[0].stat[RXE_CC_A_STAT_TX_PACKETS] = 255;
	run();
	tap_is(nfound, 0, "255 packets sent, none received: under four ACK periods, not judged");
	qps[0].stat[RXE_CC_A_STAT_TX_PACKETS] = 5000;
	qps[0].rc = false;
	run();
	tap_is(nfound, 0, "a UD QP that receives nothing: not judged, nothing acknowledges it");
}

static void test_port(void)
{
	healthy();
	devs[1].stat[RXE_CC_A_STAT_PORT_HELD] = 1250;
	run();
	tap_ok(only(DIAG_PORT_LIMITED, "rxe1", NULL) && found[0].severity == DIAG_INFO &&
	       strstr(found[0].text, "1250 of the 5000 packets"),
	       "a quarter of the requests held for the line rate: port-limited, info, with the share");
	devs[1].stat[RXE_CC_A_STAT_PORT_HELD] = 1249;
	run();
	tap_is(nfound, 0, "just under a quarter: bursts now and then, not judged");
	devs[1].stat[RXE_CC_A_STAT_PORT_HELD] = 5;
	devs[1].stat[RXE_CC_A_STAT_TX_PACKETS] = 20;
	run();
	tap_ok(only(DIAG_PORT_LIMITED, "rxe1", NULL), "5 of 20: port-limited");
	devs[1].stat[RXE_CC_A_STAT_PORT_HELD] = 4;
	devs[1].stat[RXE_CC_A_STAT_TX_PACKETS] = 16;
	run();
	tap_is(nfound, 0, "4 of 16: under DIAG_MIN_EVENTS, not judged");
}

static void test_peer_and_order(void)
{
	struct diag_qp peer, totals[4];
	int n;

	healthy();
	memcpy(totals, qps, sizeof(totals));
	qp(&peer, "rxe7", 20, 17, "10.0.0.1");
	peer.stat[RXE_CC_A_STAT_NP_CNP_SENT] = 500;
	totals[0].stat[RXE_CC_A_STAT_RP_CNP_RECEIVED] = 3;
	in.peers = &peer;
	in.npeers = 1;
	in.qps_total = totals;
	run();
	tap_ok(nfound == 1 && found[0].id == DIAG_CNP_LOST && found[0].qpn == 17 &&
	       strstr(found[0].text, "totals"),
	       "peer file: its 500 CNPs against 3 received in total: cnp-lost, said to be totals");

	healthy();
	devs[2].stat[RXE_CC_A_STAT_PACED_DROPPED] = 1;
	devs[1].stat[RXE_CC_A_STAT_MALFORMED] = 9;
	devs[0].hw[DIAG_HW_OUT_OF_SEQ] = 9;
	run();
	tap_ok(nfound == 3 && found[0].severity == DIAG_ERROR && found[1].severity == DIAG_WARNING &&
	       found[1].id == DIAG_CNP_MALFORMED && found[2].id == DIAG_PACED_DROPPED,
	       "the most severe first, then in the rules' order");
	n = diag_run(&in, found, 1);
	tap_ok(n == 3 && found[0].id == DIAG_LOSS_WITH_MARKS,
	       "room for one: all three counted, the first kept");
}

static void test_names(void)
{
	int i, missing = 0;

	for (i = 0; i < DIAG_NR; i++)
		if (!diag_id_name(i) || !diag_meaning(i) || !diag_advice(i))
			missing++;
	for (i = 0; i < DIAG_HW_NR; i++)
		if (!diag_hw_name(i))
			missing++;
	tap_is(missing, 0, "every finding has a name, a meaning and advice; every hw counter a name");
	tap_ok(!diag_id_name(DIAG_NR) && !diag_severity_name(DIAG_INFO + 1), "out of range: NULL");
}

int main(void)
{
	test_healthy();
	test_np();
	test_cnp_path();
	test_loop();
	test_loss();
	test_shares();
	test_port();
	test_peer_and_order();
	test_names();
	return tap_done();
}
