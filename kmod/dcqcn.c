// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN reaction point arithmetic.
 *
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015) is rate-based: switches mark ECN, the receiver turns marks
 * into CNPs, and the sender keeps per flow a current rate Rc, a target rate
 * Rt and a congestion estimate alpha:
 *
 *  - a flow begins with a CNP to a QP at rest (at its ceiling, in no
 *    flow): alpha is loaded with initial_alpha, its period starts there,
 *    and the CNP cuts at once.
 *  - every alpha period (dce_tcp_rtt) from then on: alpha = alpha * g +
 *    (1 - g) if a CNP arrived in the period, else alpha * g. In 1/1024
 *    units, with the firmware's g close to 1 (1019/1024), alpha moves
 *    slowly.
 *  - a cut at most once per rate_reduce_monitor_period: a CNP inside the
 *    period is remembered and cuts when the period ends. A cut remembers
 *    Rc as Rt (see clamping below), then cuts Rc by Rc * alpha / 2,
 *    bounded so that Rc keeps min_dec_fac percent and stays >= min_rate.
 *    The increase stages restart from zero.
 *  - rate increase events come from a timer (every time_reset) and a byte
 *    counter (every byte_reset * 64 bytes sent). Each event counts one more
 *    stage of its counter; with F = threshold and the stages reached before
 *    the event:
 *      both stages < F (of the counters in use): fast recovery, Rc moves
 *        half way to Rt; so the first F events after a cut are these;
 *      one stage >= F: additive increase, Rt += R_AI, then Rc half way;
 *      both stages > F: hyper increase, Rt += R_HAI, then Rc half way.
 *    Once Rc is back at the ceiling with no cut pending, the flow ends and
 *    its alpha and stages are forgotten: the next CNP begins a new flow.
 *
 * This follows the ConnectX firmware variant as NVIDIA documents it (knob
 * names, units and defaults: dcqcn_preset_mlx5) rather than the paper's
 * pseudo-code. rp_initial_alpha_value is the alpha "used when receiving the
 * first CNP for a flow", so a QP that ran uncongested for a long time is
 * cut as hard by its first CNP as a new one; rp_rate_to_set_on_first_cnp
 * sets both rates; within rate_reduce_monitor_period the rate is "reduced
 * at the start of the next" period, not left alone. The first CNP of a
 * flow does not raise alpha again at the end of its period (HPCC's ns-3
 * model does the same; the documentation does not say). Where firmware and
 * paper differ: the firmware enters additive increase at stage == F (the
 * paper at F + 1); hyper increase adds a constant R_HAI per event (the
 * paper adds i * R_HAI); alpha rises at the end of the alpha period in
 * which a CNP arrived, not at once; the paper keeps alpha from the start
 * and cuts on every CNP. The byte counter may be off (byte_reset 0): then
 * the timer stage alone decides, which makes the stage rule the paper's
 * rule for one counter.
 *
 * Rc moves half way to Rt rounded up, so that it reaches Rt instead of
 * stopping one kb/s short, and the flow can leave the limited state.
 *
 * Overflow: rates are below 2^29 kb/s (400 Gb/s), alpha at most 2^10, the
 * min_dec_fac factor at most 100 < 2^7: the products below fit 40 bits and
 * are done in u64. Rt + R_HAI stays below 2^30 and is clamped to the ceiling
 * at once. Times are u64 ns: parameters of up to 10 s (1e10 ns) added to the
 * clock cannot overflow for centuries.
 */

#include "dcqcn.h"

#define P(_id, _field, _mlx5, _key, _unit, _min, _max)				\
	[_id] = { .mlx5_name = _mlx5, .key = _key, .unit = _unit, .min = _min, .max = _max, \
		  .offset = offsetof(struct dcqcn_params, _field) }

const struct dcqcn_param_info dcqcn_param_info[DCQCN_P_COUNT] = {
	P(DCQCN_P_CLAMP_TGT_RATE, clamp_tgt_rate,
	  "rp_clamp_tgt_rate", "clamp-tgt-rate", "bool", 0, 1),
	P(DCQCN_P_CLAMP_TGT_RATE_ATI, clamp_tgt_rate_ati,
	  "rp_clamp_tgt_rate_ati", "clamp-tgt-rate-ati", "bool", 0, 1),
	P(DCQCN_P_TIME_RESET, time_reset_us,
	  "rp_time_reset", "time-reset", "us", 1, RXE_CC_TIME_MAX_US),
	P(DCQCN_P_BYTE_RESET, byte_reset,
	  "rp_byte_reset", "byte-reset", "64B", 0, RXE_CC_BYTE_RESET_MAX),
	P(DCQCN_P_THRESHOLD, threshold,
	  "rp_threshold", "threshold", "stages", 1, RXE_CC_THRESHOLD_MAX),
	P(DCQCN_P_MAX_RATE, max_rate_mbps,
	  "rp_max_rate", "max-rate", "Mb/s", 0, RXE_CC_RATE_MAX_MBPS),
	P(DCQCN_P_AI_RATE, ai_rate_mbps,
	  "rp_ai_rate", "ai-rate", "Mb/s", 1, RXE_CC_RATE_MAX_MBPS),
	P(DCQCN_P_HAI_RATE, hai_rate_mbps,
	  "rp_hai_rate", "hai-rate", "Mb/s", 1, RXE_CC_RATE_MAX_MBPS),
	P(DCQCN_P_GD, gd,
	  "rp_gd", "gd", "shift", 0, RXE_CC_GD_MAX),
	P(DCQCN_P_MIN_DEC_FAC, min_dec_fac,
	  "rp_min_dec_fac", "min-dec-fac", "%", 1, RXE_CC_MIN_DEC_FAC_MAX),
	P(DCQCN_P_MIN_RATE, min_rate_mbps,
	  "rp_min_rate", "min-rate", "Mb/s", 1, RXE_CC_RATE_MAX_MBPS),
	P(DCQCN_P_RATE_TO_SET_ON_FIRST_CNP, rate_to_set_on_first_cnp_mbps,
	  "rp_rate_to_set_on_first_cnp", "rate-on-first-cnp", "Mb/s", 0, RXE_CC_RATE_MAX_MBPS),
	P(DCQCN_P_DCE_TCP_G, dce_tcp_g,
	  "rp_dce_tcp_g", "dce-tcp-g", "1/1024", 0, RXE_CC_ALPHA_MAX),
	P(DCQCN_P_DCE_TCP_RTT, dce_tcp_rtt_us,
	  "rp_dce_tcp_rtt", "dce-tcp-rtt", "us", 1, RXE_CC_TIME_MAX_US),
	P(DCQCN_P_RATE_REDUCE_MONITOR_PERIOD, rate_reduce_monitor_period_us,
	  "rp_rate_reduce_monitor_period", "rate-reduce-monitor-period", "us",
	  0, RXE_CC_TIME_MAX_US),
	P(DCQCN_P_INITIAL_ALPHA, initial_alpha,
	  "rp_initial_alpha_value", "initial-alpha", "1/1024", 0, RXE_CC_ALPHA_MAX),
};

#undef P

/* ConnectX firmware defaults. */
const struct dcqcn_params dcqcn_preset_mlx5 = {
	.clamp_tgt_rate = 0,
	.clamp_tgt_rate_ati = 1,
	.time_reset_us = 300,
	.byte_reset = 32767,
	.threshold = 1,
	.max_rate_mbps = 0,
	.ai_rate_mbps = 5,
	.hai_rate_mbps = 50,
	.gd = 11,
	.min_dec_fac = 50,
	.min_rate_mbps = 1,
	.rate_to_set_on_first_cnp_mbps = 0,
	.dce_tcp_g = 1019,
	.dce_tcp_rtt_us = 1,
	.rate_reduce_monitor_period_us = 4,
	.initial_alpha = 1023,
};

/*
 * SIGCOMM 2015: g = 1/256 (alpha * 1020/1024), F = 5, T = 55 us, B = 10 MB
 * (156250 units of 64 bytes), R_AI = 40 Mb/s, R_HAI = 200 Mb/s, alpha
 * period K = 55 us, every CNP cuts (no monitor period), Rt = Rc on every
 * cut, alpha starts at 1.
 */
const struct dcqcn_params dcqcn_preset_paper = {
	.clamp_tgt_rate = 1,
	.clamp_tgt_rate_ati = 1,
	.time_reset_us = 55,
	.byte_reset = 156250,
	.threshold = 5,
	.max_rate_mbps = 0,
	.ai_rate_mbps = 40,
	.hai_rate_mbps = 200,
	.gd = 11,
	.min_dec_fac = 50,
	.min_rate_mbps = 1,
	.rate_to_set_on_first_cnp_mbps = 0,
	.dce_tcp_g = 1020,
	.dce_tcp_rtt_us = 55,
	.rate_reduce_monitor_period_us = 0,
	.initial_alpha = 1023,
};

u32 dcqcn_param_get(const struct dcqcn_params *p, enum dcqcn_param_id id)
{
	return *(const u32 *)((const char *)p + dcqcn_param_info[id].offset);
}

void dcqcn_param_set(struct dcqcn_params *p, enum dcqcn_param_id id, u32 value)
{
	*(u32 *)((char *)p + dcqcn_param_info[id].offset) = value;
}

int dcqcn_params_check(const struct dcqcn_params *p)
{
	int id;

	for (id = 0; id < DCQCN_P_COUNT; id++) {
		u32 v = dcqcn_param_get(p, id);

		if (v < dcqcn_param_info[id].min || v > dcqcn_param_info[id].max)
			return id;
	}
	if (p->max_rate_mbps && p->min_rate_mbps > p->max_rate_mbps)
		return DCQCN_P_MIN_RATE;
	return -1;
}

static u32 ceiling_kbps(const struct dcqcn_flow *f, const struct dcqcn_params *p)
{
	u32 max_kbps = p->max_rate_mbps * DCQCN_KBPS_PER_MBPS;

	return p->max_rate_mbps && max_kbps < f->line_kbps ? max_kbps : f->line_kbps;
}

static u32 floor_kbps(const struct dcqcn_flow *f, const struct dcqcn_params *p)
{
	u32 min_kbps = p->min_rate_mbps * DCQCN_KBPS_PER_MBPS;
	u32 ceil = ceiling_kbps(f, p);

	return min_kbps < ceil ? min_kbps : ceil;
}

static u32 clamp_rate(u64 kbps, u32 lo, u32 hi)
{
	if (kbps < lo)
		return lo;
	if (kbps > hi)
		return hi;
	return kbps;
}

static u64 us_to_ns(u32 us)
{
	return (u64)us * DCQCN_NS_PER_US;
}

/* The increase stages start over: after a cut, and when a flow ends. */
static void restart_stages(struct dcqcn_flow *f)
{
	f->timer_stage = 0;
	f->byte_stage = 0;
	f->byte_count = 0;
}

/* Back at the ceiling with no cut pending: the flow is over. */
static void end_flow(struct dcqcn_flow *f)
{
	f->limited = 0;
	restart_stages(f);
	f->alpha = 0;
	f->cnp_in_period = 0;
}

/*
 * One increase event of the timer or the byte counter (STAGE points at its
 * stage count). The kind of step depends on the stages reached before this
 * event, so that after a cut the first F events are fast recovery, as in
 * the paper; then the firing counter's stage goes up.
 */
static void rate_increase(struct dcqcn_flow *f, const struct dcqcn_params *p, u8 *stage,
			  struct dcqcn_steps *steps)
{
	u32 ceil = ceiling_kbps(f, p);
	u8 lo = f->timer_stage, hi = f->timer_stage;
	u64 rt = f->rt_kbps;

	if (p->byte_reset) {
		lo = f->byte_stage < lo ? f->byte_stage : lo;
		hi = f->byte_stage > hi ? f->byte_stage : hi;
	}
	if (lo > p->threshold) {
		rt += (u64)p->hai_rate_mbps * DCQCN_KBPS_PER_MBPS;
		steps->hyper++;
	} else if (hi >= p->threshold) {
		rt += (u64)p->ai_rate_mbps * DCQCN_KBPS_PER_MBPS;
		steps->additive++;
	} else {
		steps->fast_recovery++;
	}
	if (*stage < 255)
		(*stage)++;
	f->rt_kbps = clamp_rate(rt, floor_kbps(f, p), ceil);
	f->rc_kbps = clamp_rate(((u64)f->rc_kbps + f->rt_kbps + 1) / 2,
				floor_kbps(f, p), ceil);
	if (f->rc_kbps >= ceil && !f->cut_pending)
		end_flow(f);
}

/*
 * A rate cut at NOW_NS; FIRST for the CNP that began the flow, which
 * takes Rt from Rc by definition (later cuts only when clamping says so)
 * and may set rate_to_set_on_first_cnp instead.
 */
static void cut_rate(struct dcqcn_flow *f, const struct dcqcn_params *p, u64 now_ns,
		     bool first, struct dcqcn_steps *steps)
{
	u32 ceil = ceiling_kbps(f, p), lo = floor_kbps(f, p);
	u64 cut, bound;

	if (first && p->rate_to_set_on_first_cnp_mbps) {
		f->rc_kbps = clamp_rate((u64)p->rate_to_set_on_first_cnp_mbps *
					DCQCN_KBPS_PER_MBPS, lo, ceil);
		f->rt_kbps = f->rc_kbps;
		steps->first_cnp_sets++;
	} else {
		if (first || p->clamp_tgt_rate || f->byte_stage > 0 ||
		    (p->clamp_tgt_rate_ati && f->timer_stage > 0))
			f->rt_kbps = f->rc_kbps;
		cut = ((u64)f->rc_kbps * f->alpha) >> p->gd;
		bound = div_u64((u64)f->rc_kbps * (100 - p->min_dec_fac), 100);
		if (cut > bound)
			cut = bound;
		f->rc_kbps = clamp_rate(f->rc_kbps - cut, lo, ceil);
	}
	steps->cuts++;
	f->limited = 1;
	f->cut_pending = 0;
	restart_stages(f);
	f->timer_next_ns = now_ns + us_to_ns(p->time_reset_us);
	f->cut_next_ns = now_ns + us_to_ns(p->rate_reduce_monitor_period_us);
}

static void advance_alpha(struct dcqcn_flow *f, const struct dcqcn_params *p, u64 now_ns)
{
	u64 period_ns = us_to_ns(p->dce_tcp_rtt_us);
	u32 alpha = f->alpha;

	/*
	 * Bounded: after the first period the CNP flag is clear, and
	 * alpha * g / 1024 <= alpha - 1 for 1 <= alpha <= 1024, g <= 1023, so
	 * alpha reaches 0 within 1024 periods; from there on whole periods
	 * are skipped at once.
	 */
	while (f->alpha_next_ns <= now_ns) {
		alpha = (alpha * p->dce_tcp_g) >> DCQCN_ALPHA_SHIFT;
		if (f->cnp_in_period)
			alpha += DCQCN_ALPHA_ONE - p->dce_tcp_g;
		f->cnp_in_period = 0;
		f->alpha_next_ns += period_ns;
		if (!alpha && f->alpha_next_ns <= now_ns) {
			f->alpha_next_ns += (div64_u64(now_ns - f->alpha_next_ns, period_ns) + 1) *
					    period_ns;
			break;
		}
	}
	f->alpha = alpha;
}

/* Timer events up to NOW_NS; false if it stopped short at the cap. */
static bool advance_timer(struct dcqcn_flow *f, const struct dcqcn_params *p, u64 now_ns,
			  struct dcqcn_steps *steps)
{
	u32 events = 0;

	while (f->limited && f->timer_next_ns <= now_ns) {
		if (events++ == DCQCN_MAX_EVENTS_PER_CALL)
			return false;
		f->timer_next_ns += us_to_ns(p->time_reset_us);
		rate_increase(f, p, &f->timer_stage, steps);
	}
	return true;
}

void dcqcn_init(struct dcqcn_flow *f, const struct dcqcn_params *p, u32 line_kbps)
{
	*f = (struct dcqcn_flow) {
		.line_kbps = line_kbps ? line_kbps : 1,
	};
	f->rc_kbps = ceiling_kbps(f, p);
	f->rt_kbps = f->rc_kbps;
}

void dcqcn_advance(struct dcqcn_flow *f, const struct dcqcn_params *p, u64 now_ns,
		   struct dcqcn_steps *steps)
{
	u32 ceil = ceiling_kbps(f, p);

	/* max_rate may have changed since the last call. */
	if (f->rt_kbps > ceil)
		f->rt_kbps = ceil;
	if (f->rc_kbps > ceil || !f->limited)
		f->rc_kbps = ceil;
	if (!f->limited)
		return;
	/*
	 * A deferred cut comes when its monitor period ends, after the alpha
	 * updates and increase events due until then, and with their alpha.
	 */
	if (f->cut_pending && f->cut_next_ns <= now_ns) {
		advance_alpha(f, p, f->cut_next_ns);
		if (!advance_timer(f, p, f->cut_next_ns, steps))
			return;
		cut_rate(f, p, f->cut_next_ns, false, steps);
	}
	advance_alpha(f, p, now_ns);
	advance_timer(f, p, now_ns, steps);
}

u64 dcqcn_next_event_ns(const struct dcqcn_flow *f)
{
	u64 next = f->alpha_next_ns;

	if (!f->limited)
		return DCQCN_NO_EVENT;
	if (f->timer_next_ns < next)
		next = f->timer_next_ns;
	if (f->cut_pending && f->cut_next_ns < next)
		next = f->cut_next_ns;
	return next;
}

bool dcqcn_at_rest(const struct dcqcn_flow *f, const struct dcqcn_params *p)
{
	u32 ceil = ceiling_kbps(f, p);

	return !f->limited && f->rc_kbps == ceil && f->rt_kbps <= ceil;
}

enum dcqcn_cnp_result dcqcn_on_cnp(struct dcqcn_flow *f, const struct dcqcn_params *p,
				   u64 now_ns, struct dcqcn_steps *steps)
{
	dcqcn_advance(f, p, now_ns, steps);

	if (!f->limited) {
		/* The flow's first CNP: alpha is this value, not raised again. */
		f->alpha = p->initial_alpha;
		f->alpha_next_ns = now_ns + us_to_ns(p->dce_tcp_rtt_us);
		f->cnp_in_period = 0;
		cut_rate(f, p, now_ns, true, steps);
		return p->rate_to_set_on_first_cnp_mbps ? DCQCN_CNP_FIRST_SET : DCQCN_CNP_CUT;
	}
	f->cnp_in_period = 1;
	/* Still pending after dcqcn_advance(): its period has not ended. */
	if (f->cut_pending ||
	    (p->rate_reduce_monitor_period_us && now_ns < f->cut_next_ns)) {
		f->cut_pending = 1;
		steps->cnp_deferred++;
		return DCQCN_CNP_DEFERRED;
	}
	cut_rate(f, p, now_ns, false, steps);
	return DCQCN_CNP_CUT;
}

void dcqcn_on_bytes_sent(struct dcqcn_flow *f, const struct dcqcn_params *p,
			 u32 bytes, u64 now_ns, struct dcqcn_steps *steps)
{
	u64 unit = (u64)p->byte_reset * DCQCN_BYTE_RESET_UNIT;
	u64 count;
	u32 events = 0;

	dcqcn_advance(f, p, now_ns, steps);
	if (!f->limited || !unit)
		return;
	count = (u64)f->byte_count + bytes;
	while (f->limited && count >= unit && events++ < DCQCN_MAX_EVENTS_PER_CALL) {
		count -= unit;
		rate_increase(f, p, &f->byte_stage, steps);
	}
	/*
	 * Bytes beyond what was processed wait for the next call; only a
	 * single call of more than 1024 byte-counter units saturates here.
	 */
	if (!f->limited)
		count = 0;
	f->byte_count = count > 0xffffffffULL ? 0xffffffffU : count;
}
