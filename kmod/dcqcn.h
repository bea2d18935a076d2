/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN reaction point (RP) arithmetic, shared by rxe_cc.ko and the host
 * programs (dcqcn-sim, unit tests). Pure C: no kernel headers beyond the
 * integer types, no floating point, no allocation and no clock reads; the
 * caller passes time and byte counts in.
 *
 * Units, written into the names:
 *   _kbps   rates in kb/s, u32: 1 Mb/s .. 400 Gb/s is 1000 .. 4e8 (< 2^29)
 *   _mbps   parameters in Mb/s, as mlx5 takes them
 *   _ns     times in ns, u64 (the caller's monotonic clock)
 *   _us     parameters in us, as mlx5 takes them
 *   alpha   congestion estimate in 1/1024 units (DCQCN_ALPHA_ONE == 1.0)
 */
#ifndef _RXE_CC_DCQCN_H
#define _RXE_CC_DCQCN_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/math64.h>
#include <linux/types.h>
#else
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}
#endif

/* The API's limits (RXE_CC_*_MAX), from its spec. */
#include <linux/rxe_cc.h>

#define DCQCN_ALPHA_SHIFT	10
#define DCQCN_ALPHA_ONE		1024U	/* 1 << DCQCN_ALPHA_SHIFT */
#define DCQCN_KBPS_PER_MBPS	1000U
#define DCQCN_NS_PER_US		1000U
/* rp_byte_reset counts 64-byte units, as the firmware does. */
#define DCQCN_BYTE_RESET_UNIT	64U

/*
 * The knobs of the RP, with mlx5's names, meanings, units and defaults
 * (dcqcn_preset_mlx5). dcqcn_param_info[] finds each by its id.
 */
struct dcqcn_params {
	u32 clamp_tgt_rate;		/* bool: on a cut always Rt = Rc */
	u32 clamp_tgt_rate_ati;		/* bool: Rt = Rc on a cut once T stage > 0 */
	u32 time_reset_us;		/* increase timer period T */
	u32 byte_reset;			/* byte counter B, 64-byte units, 0 = off */
	u32 threshold;			/* F: fast-recovery stages */
	u32 max_rate_mbps;		/* ceiling of Rc and Rt, 0 = line rate */
	u32 ai_rate_mbps;		/* additive increase step R_AI */
	u32 hai_rate_mbps;		/* hyper increase step R_HAI */
	u32 gd;				/* cut = Rc * alpha >> gd */
	u32 min_dec_fac;		/* %: a cut keeps at least this share of Rc */
	u32 min_rate_mbps;		/* floor of Rc */
	u32 rate_to_set_on_first_cnp_mbps; /* Rc after a first CNP, 0 = off */
	u32 dce_tcp_g;			/* alpha gain, 1/1024 units */
	u32 dce_tcp_rtt_us;		/* alpha update period */
	u32 rate_reduce_monitor_period_us; /* at most one cut per period, 0 = off */
	u32 initial_alpha;		/* alpha of a new flow, 1/1024 units */
};

enum dcqcn_param_id {
	DCQCN_P_CLAMP_TGT_RATE,
	DCQCN_P_CLAMP_TGT_RATE_ATI,
	DCQCN_P_TIME_RESET,
	DCQCN_P_BYTE_RESET,
	DCQCN_P_THRESHOLD,
	DCQCN_P_MAX_RATE,
	DCQCN_P_AI_RATE,
	DCQCN_P_HAI_RATE,
	DCQCN_P_GD,
	DCQCN_P_MIN_DEC_FAC,
	DCQCN_P_MIN_RATE,
	DCQCN_P_RATE_TO_SET_ON_FIRST_CNP,
	DCQCN_P_DCE_TCP_G,
	DCQCN_P_DCE_TCP_RTT,
	DCQCN_P_RATE_REDUCE_MONITOR_PERIOD,
	DCQCN_P_INITIAL_ALPHA,
	DCQCN_P_COUNT,
};

/* What a person needs to know of one knob: names, unit and legal range. */
struct dcqcn_param_info {
	const char *mlx5_name;	/* rp_ai_rate: mlx5's debugfs/sysfs name */
	const char *key;	/* ai-rate: rocectl's key and JSON name */
	const char *unit;
	u32 min;
	u32 max;
	u32 offset;		/* of its u32 in struct dcqcn_params */
};

extern const struct dcqcn_param_info dcqcn_param_info[DCQCN_P_COUNT];

/* The spec lists the knobs' attributes in the order of their ids. */
static inline int dcqcn_param_attr(enum dcqcn_param_id id)
{
	return RXE_CC_A_DCQCN_CLAMP_TGT_RATE + id;
}

extern const struct dcqcn_params dcqcn_preset_mlx5;
extern const struct dcqcn_params dcqcn_preset_paper;

u32 dcqcn_param_get(const struct dcqcn_params *p, enum dcqcn_param_id id);
void dcqcn_param_set(struct dcqcn_params *p, enum dcqcn_param_id id, u32 value);

/*
 * Returns -1 when every knob is in range and they agree with each other,
 * else the id of the first offending knob; dcqcn_param_info[] names it and
 * its range. The only rule across knobs: min_rate <= max_rate (when set).
 */
int dcqcn_params_check(const struct dcqcn_params *p);

/*
 * Per-flow (per-QP) state: 48 bytes, so 10000 QPs cost under 0.5 MiB.
 *
 * A QP is in a flow (limited) from a CNP that finds it at rest until its
 * Rc is back at the ceiling with no cut pending; alpha, the alpha period
 * and the stages exist only inside a flow.
 */
struct dcqcn_flow {
	u64 alpha_next_ns;	/* next alpha update, in a flow */
	u64 timer_next_ns;	/* next increase-timer event, in a flow */
	u64 cut_next_ns;	/* rate_reduce_monitor_period ends: next cut allowed */
	u32 line_kbps;		/* the link's rate, the ceiling with max_rate */
	u32 rc_kbps;		/* current rate Rc: what the pacer enforces */
	u32 rt_kbps;		/* target rate Rt */
	u32 byte_count;		/* bytes towards the next byte-counter event */
	u16 alpha;		/* 0 outside a flow */
	u8 timer_stage;		/* saturates at 255 */
	u8 byte_stage;
	u8 limited;		/* in a flow: cut since it was last at rest */
	u8 cnp_in_period;	/* a CNP arrived in this alpha period */
	u8 cut_pending;		/* a CNP inside the monitor period: cut at its end */
};

static_assert(sizeof(struct dcqcn_flow) <= 48, "dcqcn_flow grew past 48 bytes");

/*
 * What the calls below did to a flow, added to the caller's tally: the
 * caller counts and reports from it, and need not compare states. One call
 * takes at most two cuts (a deferred one and its own) and a bounded number
 * of increase steps (DCQCN_MAX_EVENTS_PER_CALL per loop); a tally kept
 * across calls is u32 and wraps like any counter.
 */
struct dcqcn_steps {
	u32 cuts;		/* rate cuts applied, deferred ones included */
	u32 first_cnp_sets;	/* cuts that were rate_to_set_on_first_cnp */
	u32 fast_recovery;	/* increase steps, by kind */
	u32 additive;
	u32 hyper;
	u32 cnp_deferred;	/* CNPs inside the monitor period, cut at its end */
};

enum dcqcn_cnp_result {
	DCQCN_CNP_CUT,			/* the rate was cut */
	DCQCN_CNP_FIRST_SET,		/* a first CNP set rate_to_set_on_first_cnp */
	DCQCN_CNP_DEFERRED,		/* inside rate_reduce_monitor_period: cut at its end */
};

/*
 * A single call processes at most this many timer events or byte-counter
 * events, so that no call is unbounded after a long idle time; the rest are
 * processed by the next call.
 */
#define DCQCN_MAX_EVENTS_PER_CALL 1024U

/* A QP at rest at its ceiling: no flow until a CNP comes. */
void dcqcn_init(struct dcqcn_flow *f, const struct dcqcn_params *p, u32 line_kbps);
/* Each of these adds what it did to *STEPS. */
void dcqcn_advance(struct dcqcn_flow *f, const struct dcqcn_params *p, u64 now_ns,
		   struct dcqcn_steps *steps);
enum dcqcn_cnp_result dcqcn_on_cnp(struct dcqcn_flow *f, const struct dcqcn_params *p,
				   u64 now_ns, struct dcqcn_steps *steps);
void dcqcn_on_bytes_sent(struct dcqcn_flow *f, const struct dcqcn_params *p,
			 u32 bytes, u64 now_ns, struct dcqcn_steps *steps);
/*
 * The earliest time at which dcqcn_advance() has something to do;
 * DCQCN_NO_EVENT outside a flow.
 */
#define DCQCN_NO_EVENT (~0ULL)
u64 dcqcn_next_event_ns(const struct dcqcn_flow *f);
/*
 * Is the QP at rest: in no flow, at its ceiling? Then neither time nor
 * bytes sent change it, and the caller may skip dcqcn_advance() and
 * dcqcn_on_bytes_sent(); only a CNP (or a lower ceiling) ends the rest.
 */
bool dcqcn_at_rest(const struct dcqcn_flow *f, const struct dcqcn_params *p);

static inline u32 dcqcn_rate_kbps(const struct dcqcn_flow *f)
{
	return f->rc_kbps;
}

/*
 * Time that BYTES take on the wire at RATE_KBPS, in ns. Overflow: bytes <
 * 2^32 and 8e6 < 2^23 keep the product below 2^55.
 */
static inline u64 dcqcn_tx_time_ns(u32 bytes, u32 rate_kbps)
{
	return div_u64((u64)bytes * 8 * 1000000, rate_kbps ? rate_kbps : 1);
}

#endif /* _RXE_CC_DCQCN_H */
