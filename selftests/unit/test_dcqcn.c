// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the DCQCN core (kmod/dcqcn.c), run on the host.
 *
 * Every expected value is worked out by hand from the formulas in the
 * comment above it, never by running the code under test. Integer division
 * truncates; "half way" rounds up: Rc' = (Rc + Rt + 1) / 2.
 */
#include <string.h>

#include "dcqcn.h"
#include "tap.h"

#define US 1000ULL		/* ns */
#define LINE_10G 10000000U	/* kb/s */

/* mlx5 defaults, but alpha frozen: its period is the longest legal one. */
static struct dcqcn_params mlx5_fixed_alpha(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;

	p.dce_tcp_rtt_us = RXE_CC_TIME_MAX_US;
	return p;
}

static void test_first_cnp(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	dcqcn_init(&f, &p, LINE_10G);
	tap_is(f.rc_kbps, LINE_10G, "new flow starts at line rate");
	tap_is(f.alpha, 0, "no alpha before the first CNP");
	tap_is(dcqcn_next_event_ns(&f), DCQCN_NO_EVENT, "no timers before the first CNP");

	/*
	 * cut = 10000000 * 1023 >> 11 = 10230000000 / 2048 = 4995117 (.1875)
	 * bound = 10000000 * (100 - 50) / 100 = 5000000, not binding
	 * Rc = 10000000 - 4995117 = 5004883, Rt = the old Rc
	 */
	tap_is(dcqcn_on_cnp(&f, &p, 0, &n), DCQCN_CNP_CUT, "first CNP cuts");
	tap_is(f.rc_kbps, 5004883, "first CNP: Rc = Rc - Rc * alpha / 2");
	tap_is(f.rt_kbps, LINE_10G, "first CNP: Rt = old Rc");
	tap_is(f.limited, 1, "first CNP starts rate limiting");
	tap_is(n.cuts, 1, "first CNP counted as a cut");
	tap_is(f.alpha, 1023, "first CNP loads initial_alpha");

	/*
	 * Alpha periods of 1 us from the first CNP, which loaded alpha and
	 * does not raise it again. 1 us: 1023 * 1019 = 1042437 >> 10 = 1018.
	 * 2 us: 1018 * 1019 = 1037342 >> 10 = 1013. 3 us: 1032247 >> 10 = 1008.
	 */
	dcqcn_advance(&f, &p, 1 * US, &n);
	tap_is(f.alpha, 1018, "the first CNP does not raise alpha at its period's end");
	dcqcn_advance(&f, &p, 3 * US, &n);
	tap_is(f.alpha, 1008, "alpha decays without CNPs");

	/*
	 * Timer events every 300 us, F = 1, byte stage 0:
	 * 300 us: stages (0, 0) < F: fast recovery,
	 *   Rc = (5004883 + 10000000 + 1) / 2 = 7502442
	 * 600 us: timer stage 1 >= F: additive, Rt = 10005000 capped at the
	 *   line rate, Rc = (7502442 + 10000001) / 2 = 8751221
	 */
	dcqcn_advance(&f, &p, 300 * US, &n);
	tap_is(f.rc_kbps, 7502442, "300 us: fast recovery half way to Rt");
	tap_is(n.fast_recovery, 1, "300 us: one fast recovery step");
	dcqcn_advance(&f, &p, 600 * US, &n);
	tap_is(f.rc_kbps, 8751221, "600 us: additive increase");
	tap_is(f.rt_kbps, LINE_10G, "600 us: Rt capped at the line rate");
	tap_is(n.additive, 1, "600 us: one additive step");
}

/*
 * A QP that sent for 10 ms without congestion is cut by its first CNP
 * exactly as a new one (test_first_cnp): alpha starts at that CNP.
 */
static void test_late_first_cnp(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };
	u64 t;

	dcqcn_init(&f, &p, LINE_10G);
	for (t = 0; t < 10000 * US; t += 100 * US)
		dcqcn_on_bytes_sent(&f, &p, 1100, t, &n);
	dcqcn_advance(&f, &p, 10000 * US, &n);
	tap_is(dcqcn_at_rest(&f, &p), 1, "10 ms uncongested: at rest");
	tap_is(dcqcn_on_cnp(&f, &p, 10000 * US, &n), DCQCN_CNP_CUT, "late first CNP cuts");
	tap_is(f.alpha, 1023, "late first CNP loads initial_alpha");
	tap_is(f.rc_kbps, 5004883, "late first CNP: Rc as at t = 0");
	tap_is(f.rt_kbps, LINE_10G, "late first CNP: Rt = old Rc");
	tap_is(dcqcn_next_event_ns(&f), 10001 * US, "alpha's period starts at the first CNP");
	dcqcn_advance(&f, &p, 10300 * US, &n);
	tap_is(f.rc_kbps, 7502442, "late first CNP: fast recovery 300 us later");
	dcqcn_advance(&f, &p, 10600 * US, &n);
	tap_is(f.rc_kbps, 8751221, "late first CNP: additive increase 600 us later");
}

/*
 * A flow ends when Rc is back at the line rate: its alpha is forgotten and
 * the next CNP is a first CNP again, with initial_alpha. The gap to the
 * line rate, 4995117 after the cut, halves (rounded up) at each 300 us
 * timer event and closes within 23 (2^23 > 4995117).
 */
static void test_flow_ends(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_advance(&f, &p, 23 * 300 * US, &n);
	tap_is(f.limited, 0, "recovered to the line rate: the flow ended");
	tap_is(f.alpha, 0, "an ended flow has no alpha");
	tap_is(dcqcn_at_rest(&f, &p), 1, "an ended flow is at rest");
	tap_is(dcqcn_next_event_ns(&f), DCQCN_NO_EVENT, "an ended flow has no timers");
	tap_is(dcqcn_on_cnp(&f, &p, 100000 * US, &n), DCQCN_CNP_CUT, "the next CNP begins a flow");
	tap_is(f.alpha, 1023, "a new flow's alpha is initial_alpha again");
	tap_is(f.rc_kbps, 5004883, "a new flow is cut as the first was");
	tap_is(n.cuts, 2, "two flows, two cuts");
}

static void test_rate_on_first_cnp(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	p.rate_to_set_on_first_cnp_mbps = 1000;
	dcqcn_init(&f, &p, LINE_10G);
	tap_is(dcqcn_on_cnp(&f, &p, 0, &n), DCQCN_CNP_FIRST_SET,
	       "rate_to_set_on_first_cnp: first CNP sets the rate");
	tap_is(f.rc_kbps, 1000000, "rate_to_set_on_first_cnp: Rc = 1000 Mb/s");
	tap_is(f.rt_kbps, 1000000, "rate_to_set_on_first_cnp: Rt = 1000 Mb/s too");
	tap_is(f.alpha, 1023, "rate_to_set_on_first_cnp: alpha starts too");

	/*
	 * A second CNP of a limited flow is an ordinary cut, with the alpha
	 * of 10 us later (g = 1019, a' = a * 1019 >> 10, periods of 1 us, the
	 * first CNP not counted): 1 us 1018, 2 us 1013, 3 us 1008,
	 * 4 us 1027152 >> 10 = 1003, 5 us 998, 6 us 993, 7 us 988, 8 us 983,
	 * 9 us 1001677 >> 10 = 978, 10 us 996582 >> 10 = 973.
	 * cut = 1000000 * 973 >> 11 = 475097, Rc = 524903; stages 0 and no
	 * clamping: Rt stays.
	 */
	tap_is(dcqcn_on_cnp(&f, &p, 10 * US, &n), DCQCN_CNP_CUT,
	       "rate_to_set_on_first_cnp: later CNPs cut");
	tap_is(f.alpha, 973, "alpha after 10 periods without CNPs");
	tap_is(f.rc_kbps, 524903, "rate_to_set_on_first_cnp: later cut by alpha");
	tap_is(f.rt_kbps, 1000000, "rate_to_set_on_first_cnp: later cut keeps Rt");
}

static void test_alpha(void)
{
	struct dcqcn_params p = dcqcn_preset_paper;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/*
	 * g = 1020, periods of 55 us from the first CNP at 0, alpha from 0,
	 * a CNP in each period after it (no increases to end the flow):
	 * a' = a * 1020 >> 10 + 4:  0 -> 4; 4080 >> 10 = 3 -> 7;
	 * 7140 >> 10 = 6 -> 10; 10200 >> 10 = 9 -> 13.
	 */
	p.initial_alpha = 0;
	p.time_reset_us = RXE_CC_TIME_MAX_US;
	p.byte_reset = 0;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 1 * US, &n);
	dcqcn_advance(&f, &p, 55 * US, &n);
	tap_is(f.alpha, 4, "alpha rises on a CNP (0 -> 4)");
	dcqcn_on_cnp(&f, &p, 60 * US, &n);
	dcqcn_advance(&f, &p, 110 * US, &n);
	tap_is(f.alpha, 7, "alpha rises on a CNP (4 -> 7)");
	dcqcn_on_cnp(&f, &p, 120 * US, &n);
	dcqcn_on_cnp(&f, &p, 130 * US, &n);
	dcqcn_advance(&f, &p, 165 * US, &n);
	tap_is(f.alpha, 10, "two CNPs in one period count once (7 -> 10)");
	dcqcn_on_cnp(&f, &p, 170 * US, &n);
	dcqcn_advance(&f, &p, 220 * US, &n);
	tap_is(f.alpha, 13, "alpha rises on a CNP (10 -> 13)");
	/* No CNP: 13260 >> 10 = 12, then 12240 >> 10 = 11. */
	dcqcn_advance(&f, &p, 275 * US, &n);
	tap_is(f.alpha, 12, "alpha decays without CNPs (13 -> 12)");
	dcqcn_advance(&f, &p, 330 * US, &n);
	tap_is(f.alpha, 11, "alpha decays without CNPs (12 -> 11)");

	/*
	 * A long idle time: alpha reaches 0 and the periods are skipped in
	 * bulk. After 1 s the next update is the next multiple of 55 us:
	 * 1000000 / 55 = 18181.8, so 18182 * 55 us = 1000010 us.
	 */
	dcqcn_advance(&f, &p, 1000000 * US, &n);
	tap_is(f.alpha, 0, "alpha decays to 0 over a long idle time");
	tap_is(dcqcn_next_event_ns(&f), 1000010 * US,
	       "alpha periods stay on their grid after an idle time");
}

static void test_min_dec_fac(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/* gd 10: cut = Rc * 1023 / 1024 = 9990234, bound 50%: Rc = 5000000. */
	p.gd = 10;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, 5000000, "min_dec_fac 50 bounds the cut to half");

	/* min_dec_fac 80: cut <= 10000000 * 20 / 100 = 2000000. */
	p.min_dec_fac = 80;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, 8000000, "min_dec_fac 80 keeps 80% of Rc");

	/* min_dec_fac 100 allows no cut at all. */
	p.min_dec_fac = 100;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, LINE_10G, "min_dec_fac 100 leaves Rc unchanged");
}

static void test_min_max_rate(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/* The cut would give 5004883, the floor is 6000 Mb/s. */
	p.min_rate_mbps = 6000;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, 6000000, "min_rate is the floor of Rc");

	/*
	 * max_rate 2000 Mb/s on a 10 Gb/s link: the flow starts there and
	 * is cut from there: 2000000 * 1023 >> 11 = 999023, Rc = 1000977.
	 */
	p = mlx5_fixed_alpha();
	p.max_rate_mbps = 2000;
	dcqcn_init(&f, &p, LINE_10G);
	tap_is(f.rc_kbps, 2000000, "max_rate is the ceiling of a new flow");
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, 1000977, "cut from the max_rate ceiling");
	tap_is(f.rt_kbps, 2000000, "Rt from the max_rate ceiling");
	/*
	 * 300 us fast recovery: (1000977 + 2000001) / 2 = 1500489;
	 * 600 us additive: Rt = 2005000 capped to 2000000,
	 * Rc = (1500489 + 2000001) / 2 = 1750245.
	 */
	dcqcn_advance(&f, &p, 600 * US, &n);
	tap_is(f.rt_kbps, 2000000, "additive increase stops at max_rate");
	tap_is(f.rc_kbps, 1750245, "recovery towards max_rate");

	/* Lowering max_rate takes effect on a running flow at once. */
	p.max_rate_mbps = 1000;
	dcqcn_advance(&f, &p, 601 * US, &n);
	tap_is(f.rc_kbps, 1000000, "a lowered max_rate caps Rc at once");
	tap_is(f.rt_kbps, 1000000, "a lowered max_rate caps Rt at once");
}

static void test_clamp(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/*
	 * Second cut 100 us after the first, stages still 0:
	 * Rc = 5004883 - (5004883 * 1023 >> 11 = 5119995309 / 2048 = 2499997)
	 *    = 2504886; the bound 2502441 does not bind.
	 */
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 100 * US, &n);
	tap_is(f.rc_kbps, 2504886, "second cut by alpha / 2");
	tap_is(f.rt_kbps, LINE_10G, "no clamp, stages 0: Rt kept");

	p.clamp_tgt_rate = 1;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 100 * US, &n);
	tap_is(f.rt_kbps, 5004883, "clamp_tgt_rate: Rt = Rc on every cut");

	/* clamp_tgt_rate_ati after one timer event (300 us: Rc = 7502442). */
	p = mlx5_fixed_alpha();
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 350 * US, &n);
	tap_is(f.rt_kbps, 7502442, "clamp_tgt_rate_ati: Rt = Rc once the timer stage > 0");

	p.clamp_tgt_rate_ati = 0;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 350 * US, &n);
	tap_is(f.rt_kbps, LINE_10G, "no clamp_tgt_rate_ati: Rt kept after a timer event");
}

/*
 * Timer only (byte counter off), F = 5, T = 55 us, R_AI 40, R_HAI 200 Mb/s,
 * clamp_tgt_rate. Cut at 0: Rc 5004883, Rt 10000000; cut at 10 us:
 * Rt = 5004883, Rc = 2504886. Timer events from 65 us every 55 us:
 *   FR  65: (2504886 + 5004883 + 1) / 2 = 3754885
 *   FR 120: (3754885 + 5004884) / 2 = 4379884
 *   FR 175: (4379884 + 5004884) / 2 = 4692384
 *   FR 230: (4692384 + 5004884) / 2 = 4848634
 *   FR 285: (4848634 + 5004884) / 2 = 4926759
 *   AI 340: Rt 5044883, Rc (4926759 + 5044884) / 2 = 4985821
 *   HAI 395: Rt 5244883, Rc (4985821 + 5244884) / 2 = 5115352
 *   HAI 450: Rt 5444883, Rc (5115352 + 5444884) / 2 = 5280118
 */
static struct dcqcn_params paper_timer_only(void)
{
	struct dcqcn_params p = dcqcn_preset_paper;

	p.byte_reset = 0;
	p.dce_tcp_rtt_us = RXE_CC_TIME_MAX_US;
	return p;
}

static void test_increase_stages(void)
{
	static const u32 rc_after[] = {
		3754885, 4379884, 4692384, 4848634, 4926759, 4985821, 5115352, 5280118,
	};
	struct dcqcn_params p = paper_timer_only();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };
	char name[80];
	unsigned int i;

	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 10 * US, &n);
	tap_is(f.rt_kbps, 5004883, "stages: clamped Rt after the second cut");
	tap_is(f.rc_kbps, 2504886, "stages: Rc after the second cut");

	for (i = 0; i < sizeof(rc_after) / sizeof(rc_after[0]); i++) {
		dcqcn_advance(&f, &p, (65 + 55 * i) * US, &n);
		snprintf(name, sizeof(name), "timer event %u: Rc", i + 1);
		tap_is(f.rc_kbps, rc_after[i], name);
		if (i == 4) {
			tap_is(n.fast_recovery, 5, "F = 5 fast recovery steps");
			tap_is(f.rt_kbps, 5004883, "fast recovery leaves Rt alone");
		}
	}
	tap_is(n.additive, 1, "then one additive step");
	tap_is(n.hyper, 2, "then hyper increase");
	tap_is(f.rt_kbps, 5444883, "hyper increase adds R_HAI per event");
	tap_is(f.timer_stage, 8, "timer stage counts events");
}

static void test_byte_counter(void)
{
	static const u32 rc_after[] = {
		3754885, 4379884, 4692384, 4848634, 4926759, 4985821, 5035352,
	};
	struct dcqcn_params p = paper_timer_only();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };
	char name[80];
	unsigned int i;

	/*
	 * The same recovery, driven by a byte counter of 16 * 64 = 1024 bytes
	 * with the timer out of the way. With the timer stage at 0, hyper
	 * increase (both stages > F) never comes: event 7 is additive again,
	 * Rt 5084883, Rc (4985821 + 5084884) / 2 = 5035352.
	 */
	p.byte_reset = 16;
	p.time_reset_us = RXE_CC_TIME_MAX_US;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 10 * US, &n);
	dcqcn_on_bytes_sent(&f, &p, 1023, 11 * US, &n);
	tap_is(f.rc_kbps, 2504886, "byte counter: no event below 1024 bytes");
	dcqcn_on_bytes_sent(&f, &p, 1, 11 * US, &n);
	tap_is(f.rc_kbps, rc_after[0], "byte counter: event at 1024 bytes");
	for (i = 1; i < sizeof(rc_after) / sizeof(rc_after[0]); i++) {
		dcqcn_on_bytes_sent(&f, &p, 1024, 12 * US, &n);
		snprintf(name, sizeof(name), "byte event %u: Rc", i + 1);
		tap_is(f.rc_kbps, rc_after[i], name);
	}
	tap_is(f.byte_stage, 7, "byte stage counts events");
	tap_is(n.fast_recovery, 5, "byte counter: F fast recovery steps");
	tap_is(n.additive, 2, "byte counter alone: additive, never hyper");

	/* One call of 3 units runs 3 events: stage 7 -> 10. */
	dcqcn_on_bytes_sent(&f, &p, 3 * 1024, 13 * US, &n);
	tap_is(f.byte_stage, 10, "several byte events in one call");
}

/*
 * CNPs 1 us apart against the 4 us monitor period, alpha frozen at 1023:
 * the CNP at 0 cuts; those at 1, 2, 3 wait and cut once at 4; those at
 * 4 .. 7 once at 8; 8 and 9 at 12. Each cut takes Rc * 1023 >> 11:
 *   0: 10000000 - 4995117 = 5004883
 *   4: 5004883 - 2499997 = 2504886
 *   8: 2504886 - (2562498378 >> 11 = 1251219) = 1253667
 *  12: 1253667 - (1282501341 >> 11 = 626221) = 627446
 * Rt stays at the line rate: stages 0, no clamping.
 */
static void test_monitor_period(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };
	unsigned int deferred = 0, cuts_by_299 = 0;
	u64 t;

	dcqcn_init(&f, &p, LINE_10G);
	tap_is(dcqcn_on_cnp(&f, &p, 0, &n), DCQCN_CNP_CUT, "CNP at 0 cuts");
	for (t = 1; t <= 3; t++)
		deferred += dcqcn_on_cnp(&f, &p, t * US, &n) == DCQCN_CNP_DEFERRED;
	tap_is(deferred, 3, "CNPs at 1, 2, 3 us wait for the period's end");
	tap_is(f.rc_kbps, 5004883, "a deferred CNP leaves Rc alone until then");
	tap_is(dcqcn_next_event_ns(&f), 4 * US, "the deferred cut is the next event");
	tap_is(dcqcn_on_cnp(&f, &p, 4 * US, &n), DCQCN_CNP_DEFERRED,
	       "CNP at the period's end: the waiting cut first, then it waits");
	tap_is(n.cuts, 2, "one cut for the CNPs at 1..3 us, at 4 us");
	tap_is(f.rc_kbps, 2504886, "the cut at 4 us");
	for (t = 5; t <= 9; t++)
		dcqcn_on_cnp(&f, &p, t * US, &n);
	tap_is(f.rc_kbps, 1253667, "the cut at 8 us");
	dcqcn_advance(&f, &p, 12 * US, &n);
	tap_is(n.cuts, 4, "CNPs at 0..9 us: cuts at 0, 4, 8, 12 us");
	tap_is(f.rc_kbps, 627446, "the cut at 12 us: none lost");
	tap_is(n.cnp_deferred, 9, "nine CNPs deferred");
	tap_is(f.rt_kbps, LINE_10G, "deferred cuts follow the clamping rules");

	/*
	 * CNPs every 3 us from 0 to 297 us: every 4 us period holds one, so
	 * there is a cut at each multiple of 4 us below 300: 75 (dropping
	 * the CNPs inside a period instead cut every 6 us: 50).
	 */
	dcqcn_init(&f, &p, LINE_10G);
	n = (struct dcqcn_steps){ 0 };
	for (t = 0; t < 300; t += 3)
		dcqcn_on_cnp(&f, &p, t * US, &n);
	dcqcn_advance(&f, &p, 299 * US, &n);
	cuts_by_299 = n.cuts;
	tap_is(cuts_by_299, 75, "CNPs every 3 us: 75 cuts in 300 us");
	tap_is(n.cnp_deferred, 99, "CNPs every 3 us: all but the first deferred");

	/*
	 * The deferred cut takes the alpha of its own time. mlx5 defaults:
	 * CNP at 0 (alpha 1023), CNP at 2 us; alpha at 1 us 1018, 2 us 1013,
	 * 3 us (CNP at 2) 1008 + 5 = 1013, 4 us 1008. The cut at 4 us:
	 * 5004883 * 1008 >> 11 = 2463340, Rc = 2541543.
	 */
	p = dcqcn_preset_mlx5;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_on_cnp(&f, &p, 2 * US, &n);
	dcqcn_advance(&f, &p, 4 * US, &n);
	tap_is(f.rc_kbps, 2541543, "a deferred cut uses alpha at the period's end");

	p.rate_reduce_monitor_period_us = 0;
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(dcqcn_on_cnp(&f, &p, 0, &n), DCQCN_CNP_CUT,
	       "monitor period 0: every CNP cuts");
}

/*
 * Each call tells what it did, and nothing of what earlier calls did.
 * mlx5 defaults with alpha fixed, 4 us monitor period, 300 us timer: the
 * CNP at 0 cuts; the one at 1 us waits; the one at 4 us finds the waiting
 * cut due (it comes first) and waits itself, for 8 us. The cut at 8 us
 * restarts the timer, so at 300 us nothing else has happened, and at
 * 308 us the timer's first event is fast recovery.
 */
static void test_steps_per_call(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_steps n;
	struct dcqcn_flow f;

	dcqcn_init(&f, &p, LINE_10G);
	n = (struct dcqcn_steps){ 0 };
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(n.cuts * 10 + n.cnp_deferred, 10, "steps: the first CNP cuts");
	n = (struct dcqcn_steps){ 0 };
	dcqcn_on_cnp(&f, &p, 1 * US, &n);
	tap_is(n.cuts * 10 + n.cnp_deferred, 1, "steps: a CNP inside the period is deferred");
	n = (struct dcqcn_steps){ 0 };
	dcqcn_on_cnp(&f, &p, 4 * US, &n);
	tap_is(n.cuts * 10 + n.cnp_deferred, 11, "steps: the waiting cut, then this CNP waits");
	n = (struct dcqcn_steps){ 0 };
	dcqcn_advance(&f, &p, 300 * US, &n);
	tap_is(n.cuts * 10 + n.fast_recovery, 10, "steps: the deferred cut at 8 us, no increase");
	n = (struct dcqcn_steps){ 0 };
	dcqcn_advance(&f, &p, 308 * US, &n);
	tap_is(n.cuts * 10 + n.fast_recovery, 1, "steps: fast recovery at 308 us");
	tap_is(n.additive + n.hyper + n.first_cnp_sets, 0, "steps: no other kind");
}

static void test_recovery_ends(void)
{
	struct dcqcn_params p = mlx5_fixed_alpha();
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/*
	 * After the cut the gap to the line rate halves (rounded up) at each
	 * timer event; it is 4995117 after the cut, so it closes within
	 * 23 events (2^23 > 4995117): by 23 * 300 us the flow is unlimited.
	 */
	dcqcn_init(&f, &p, LINE_10G);
	dcqcn_on_cnp(&f, &p, 0, &n);
	dcqcn_advance(&f, &p, 23 * 300 * US, &n);
	tap_is(f.rc_kbps, LINE_10G, "recovery reaches the line rate");
	tap_is(f.limited, 0, "recovered flow is no longer limited");
	tap_is(dcqcn_next_event_ns(&f), DCQCN_NO_EVENT,
	       "recovered flow has no timer event pending");
}

static void test_at_rest(void)
{
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f, before;
	struct dcqcn_steps n = { 0 };

	dcqcn_init(&f, &p, LINE_10G);
	tap_is(dcqcn_at_rest(&f, &p), 1, "a new QP is at rest: no flow before a CNP");

	/* At rest, time and bytes change nothing. */
	before = f;
	dcqcn_on_bytes_sent(&f, &p, 1500, 5000 * US, &n);
	dcqcn_advance(&f, &p, 9000 * US, &n);
	tap_is(memcmp(&before, &f, sizeof(f)), 0, "a flow at rest stays as it is");
	tap_is(n.cuts + n.fast_recovery + n.additive + n.hyper, 0, "a flow at rest takes no step");

	p.max_rate_mbps = 1000;
	tap_is(dcqcn_at_rest(&f, &p), 0, "a lowered ceiling ends the rest");
	p.max_rate_mbps = 0;

	/*
	 * A CNP at 1000000.5 us begins a flow: alpha 1023 at once, its
	 * period from there, 1000001.5 us, where it becomes
	 * 1023 * 1019 >> 10 = 1018.
	 */
	dcqcn_on_cnp(&f, &p, 1000000 * US + 500, &n);
	tap_is(dcqcn_at_rest(&f, &p), 0, "a CNP ends the rest");
	tap_is(dcqcn_next_event_ns(&f), 1000001 * US + 500,
	       "the next alpha update is one period after the CNP");
	dcqcn_advance(&f, &p, 1000001 * US + 500, &n);
	tap_is(f.alpha, 1018, "alpha decays from the CNP on");
}

/* Each id reaches its own field: set all to distinct values, read fields. */
static void test_param_access(void)
{
	struct dcqcn_params p = { 0 };
	unsigned int id, wrong = 0;

	for (id = 0; id < DCQCN_P_COUNT; id++)
		dcqcn_param_set(&p, id, 1000 + id);
	for (id = 0; id < DCQCN_P_COUNT; id++)
		wrong += dcqcn_param_get(&p, id) != 1000 + id;
	tap_is(wrong, 0, "every parameter id reads back what was set");
	tap_is(p.clamp_tgt_rate, 1000 + DCQCN_P_CLAMP_TGT_RATE, "clamp-tgt-rate is its field");
	tap_is(p.ai_rate_mbps, 1000 + DCQCN_P_AI_RATE, "ai-rate is its field");
	tap_is(p.rate_to_set_on_first_cnp_mbps, 1000 + DCQCN_P_RATE_TO_SET_ON_FIRST_CNP,
	       "rate-on-first-cnp is its field");
	tap_is(p.initial_alpha, 1000 + DCQCN_P_INITIAL_ALPHA, "initial-alpha is its field");
}

/* Each knob's attribute, by name: the spec must list them in id order. */
static void test_param_attrs(void)
{
	static const struct {
		enum dcqcn_param_id id;
		int attr;
	} pairs[] = {
		{ DCQCN_P_CLAMP_TGT_RATE, RXE_CC_A_DCQCN_CLAMP_TGT_RATE },
		{ DCQCN_P_CLAMP_TGT_RATE_ATI, RXE_CC_A_DCQCN_CLAMP_TGT_RATE_ATI },
		{ DCQCN_P_TIME_RESET, RXE_CC_A_DCQCN_TIME_RESET },
		{ DCQCN_P_BYTE_RESET, RXE_CC_A_DCQCN_BYTE_RESET },
		{ DCQCN_P_THRESHOLD, RXE_CC_A_DCQCN_THRESHOLD },
		{ DCQCN_P_MAX_RATE, RXE_CC_A_DCQCN_MAX_RATE },
		{ DCQCN_P_AI_RATE, RXE_CC_A_DCQCN_AI_RATE },
		{ DCQCN_P_HAI_RATE, RXE_CC_A_DCQCN_HAI_RATE },
		{ DCQCN_P_GD, RXE_CC_A_DCQCN_GD },
		{ DCQCN_P_MIN_DEC_FAC, RXE_CC_A_DCQCN_MIN_DEC_FAC },
		{ DCQCN_P_MIN_RATE, RXE_CC_A_DCQCN_MIN_RATE },
		{ DCQCN_P_RATE_TO_SET_ON_FIRST_CNP, RXE_CC_A_DCQCN_RATE_ON_FIRST_CNP },
		{ DCQCN_P_DCE_TCP_G, RXE_CC_A_DCQCN_DCE_TCP_G },
		{ DCQCN_P_DCE_TCP_RTT, RXE_CC_A_DCQCN_DCE_TCP_RTT },
		{ DCQCN_P_RATE_REDUCE_MONITOR_PERIOD, RXE_CC_A_DCQCN_RATE_REDUCE_MONITOR_PERIOD },
		{ DCQCN_P_INITIAL_ALPHA, RXE_CC_A_DCQCN_INITIAL_ALPHA },
	};
	const unsigned int n = sizeof(pairs) / sizeof(pairs[0]);
	unsigned int i, wrong = 0;

	tap_is(n, DCQCN_P_COUNT, "every knob has its attribute listed");
	for (i = 0; i < n; i++)
		wrong += dcqcn_param_attr(pairs[i].id) != pairs[i].attr;
	tap_is(wrong, 0, "each knob's id leads to its own attribute");
	tap_is(RXE_CC_A_DCQCN_INITIAL_ALPHA, RXE_CC_A_DCQCN_MAX, "no attribute after the knobs");
}

static void test_validation(void)
{
	struct dcqcn_params p;
	char name[120];
	int id;

	tap_is(dcqcn_params_check(&dcqcn_preset_mlx5), (u64)-1, "mlx5 preset is valid");
	tap_is(dcqcn_params_check(&dcqcn_preset_paper), (u64)-1, "paper preset is valid");

	for (id = 0; id < DCQCN_P_COUNT; id++) {
		const struct dcqcn_param_info *info = &dcqcn_param_info[id];

		p = dcqcn_preset_mlx5;
		dcqcn_param_set(&p, id, info->max + 1);
		snprintf(name, sizeof(name), "%s above %u rejected", info->mlx5_name, info->max);
		tap_is(dcqcn_params_check(&p), id, name);
		if (info->min > 0) {
			p = dcqcn_preset_mlx5;
			dcqcn_param_set(&p, id, info->min - 1);
			snprintf(name, sizeof(name), "%s below %u rejected",
				 info->mlx5_name, info->min);
			tap_is(dcqcn_params_check(&p), id, name);
		}
		p = dcqcn_preset_mlx5;
		dcqcn_param_set(&p, id, info->max);
		if (id == DCQCN_P_MIN_RATE)
			p.max_rate_mbps = 0;
		snprintf(name, sizeof(name), "%s at its maximum %u accepted",
			 info->mlx5_name, info->max);
		tap_is(dcqcn_params_check(&p), (u64)-1, name);
	}

	p = dcqcn_preset_mlx5;
	p.max_rate_mbps = 100;
	p.min_rate_mbps = 200;
	tap_is(dcqcn_params_check(&p), DCQCN_P_MIN_RATE, "min_rate above max_rate rejected");

	tap_is(dcqcn_param_get(&dcqcn_preset_mlx5, DCQCN_P_AI_RATE), 5,
	       "parameter ids index the struct (ai_rate)");
	tap_ok(!strcmp(dcqcn_param_info[DCQCN_P_DCE_TCP_G].mlx5_name, "rp_dce_tcp_g") &&
	       !strcmp(dcqcn_param_info[DCQCN_P_AI_RATE].key, "ai-rate"),
	       "parameter names follow mlx5 and rocectl");
}

static void test_extremes(void)
{
	const u32 line = RXE_CC_RATE_MAX_MBPS * DCQCN_KBPS_PER_MBPS;	/* 4e8 */
	struct dcqcn_params p = dcqcn_preset_mlx5;
	struct dcqcn_flow f;
	struct dcqcn_steps n = { 0 };

	/*
	 * 400 Gb/s with the most extreme legal knobs: gd 0 makes the cut
	 * Rc * 1023, min_dec_fac 1 bounds it to 99%: Rc = 4000000. Increases
	 * add up to 400 Gb/s to Rt, which the ceiling caps.
	 */
	p.gd = 0;
	p.min_dec_fac = 1;
	p.ai_rate_mbps = RXE_CC_RATE_MAX_MBPS;
	p.hai_rate_mbps = RXE_CC_RATE_MAX_MBPS;
	p.max_rate_mbps = RXE_CC_RATE_MAX_MBPS;
	p.time_reset_us = 1;
	p.byte_reset = 1;
	p.threshold = 1;
	p.dce_tcp_g = RXE_CC_ALPHA_MAX;
	p.dce_tcp_rtt_us = 1;
	p.rate_reduce_monitor_period_us = 0;
	tap_is(dcqcn_params_check(&p), (u64)-1, "extreme parameters are legal");

	dcqcn_init(&f, &p, line);
	dcqcn_on_cnp(&f, &p, 0, &n);
	tap_is(f.rc_kbps, 4000000, "400G: cut bounded to 99% without overflow");
	/* First timer event at 1 us, stages (0, 0): fast recovery,
	 * (4000000 + 400000000 + 1) / 2 = 202000000.
	 */
	dcqcn_advance(&f, &p, 1 * US, &n);
	tap_is(f.rc_kbps, 202000000, "400G: fast recovery without overflow");
	/* Event 2 (64 bytes, byte stage 0, timer stage 1): additive, Rt capped,
	 * (202000000 + 400000001) / 2 = 301000000.
	 */
	dcqcn_on_bytes_sent(&f, &p, 64, 1 * US, &n);
	tap_is(f.rc_kbps, 301000000, "400G: additive increase capped at the ceiling");
	tap_is(f.rt_kbps, line, "400G: Rt at the ceiling");

	/* Longest frame time: 2^32 - 1 bytes at 1 Mb/s = 4294967295 * 8000 ns. */
	tap_is(dcqcn_tx_time_ns(0xffffffffU, 1000), 34359738360000ULL,
	       "tx time of 4 GiB at 1 Mb/s without overflow");
	tap_is(dcqcn_tx_time_ns(1500, line), 30, "tx time of 1500 bytes at 400 Gb/s");
	tap_is(sizeof(struct dcqcn_flow), 48, "per-flow state is 48 bytes");
}

int main(void)
{
	test_first_cnp();
	test_late_first_cnp();
	test_flow_ends();
	test_rate_on_first_cnp();
	test_alpha();
	test_min_dec_fac();
	test_min_max_rate();
	test_clamp();
	test_increase_stages();
	test_byte_counter();
	test_monitor_period();
	test_steps_per_call();
	test_recovery_ends();
	test_at_rest();
	test_param_access();
	test_param_attrs();
	test_validation();
	test_extremes();
	return tap_done();
}
