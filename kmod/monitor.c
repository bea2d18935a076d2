// SPDX-License-Identifier: GPL-2.0
/*
 * Events on the monitor multicast group: a CNP sent, a CNP handled, a QP's
 * rate changed. Each carries the device, the QP, the time (CLOCK_MONOTONIC,
 * the clock of the packet path) and the QP's DCQCN state after the event.
 *
 * An incast makes thousands of events a second per QP, more than a
 * listener can read, so each device sends at most monitor_rate events a
 * second, in bursts of up to a tenth of that (a token bucket). Events over
 * the limit are counted, on the device (monitor-dropped) and in the next
 * event that goes out (RXE_CC_A_EVENT_DROPPED), so a listener knows what it
 * missed. With no listener in the device's namespace nothing is built.
 *
 * The events go out on the family that netlink.c registers and hands over
 * (rxe_cc_monitor_start()): the packet path reports upwards without
 * depending on the layer that serves requests.
 */

#include <linux/moduleparam.h>

#include "rxe_cc.h"

#define RXE_CC_MONITOR_RATE_MAX	1000000
/* Room for the largest event: two device ids and the event nest. */
#define RXE_CC_MONITOR_MSG_BYTES 256

unsigned int rxe_cc_monitor_rate = 1000;
/* The family events go out on; NULL while it is not registered. */
static const struct genl_family *monitor_family;

static int monitor_rate_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, RXE_CC_MONITOR_RATE_MAX);
}

static const struct kernel_param_ops monitor_rate_ops = {
	.set = monitor_rate_set,
	.get = param_get_uint,
};
module_param_cb(monitor_rate, &monitor_rate_ops, &rxe_cc_monitor_rate, 0644);
MODULE_PARM_DESC(monitor_rate, "monitor events per second and device, 1..1000000 (1000)");

/* The snapshot of a QP that an event reports. */
struct rxe_cc_event {
	u32 qpn;
	u32 remote_qpn;		/* RXE_CC_QPN_UNKNOWN: not reported */
	u32 rate_kbps;
	u32 old_rate_kbps;
	u32 target_kbps;
	u32 alpha;
	int reason;		/* -1: not reported */
	bool with_state;	/* rate, target and alpha */
};

void rxe_cc_monitor_init(struct rxe_cc_dev *dev)
{
	spin_lock_init(&dev->monitor_lock);
}

void rxe_cc_monitor_start(const struct genl_family *family)
{
	WRITE_ONCE(monitor_family, family);
}

void rxe_cc_monitor_stop(void)
{
	WRITE_ONCE(monitor_family, NULL);
}

/*
 * May an event go out now? One event costs 1/rate s of credit; credit
 * accrues with time up to a tenth of a second's worth (at least one event).
 * Returns the events dropped since the last one that went out, or -1 if
 * this one is dropped too.
 */
static int monitor_admit(struct rxe_cc_dev *dev, u64 now_ns)
{
	u64 cost_ns = NSEC_PER_SEC / READ_ONCE(rxe_cc_monitor_rate);
	u64 cap_ns = max_t(u64, NSEC_PER_SEC / 10, cost_ns);
	int dropped = -1;
	u64 credit_ns;

	spin_lock_bh(&dev->monitor_lock);
	credit_ns = dev->monitor_credit_ns;
	/* now_ns comes from several CPUs: never let time run backwards. */
	if (now_ns > dev->monitor_last_ns) {
		credit_ns += now_ns - dev->monitor_last_ns;
		dev->monitor_last_ns = now_ns;
	}
	credit_ns = min(credit_ns, cap_ns);
	if (credit_ns >= cost_ns) {
		credit_ns -= cost_ns;
		dropped = dev->monitor_dropped;
		dev->monitor_dropped = 0;
	} else if (dev->monitor_dropped < INT_MAX) {
		dev->monitor_dropped++;
	}
	dev->monitor_credit_ns = credit_ns;
	spin_unlock_bh(&dev->monitor_lock);
	if (dropped < 0)
		rxe_cc_dev_count(dev, RXE_CC_C_MONITOR_DROPPED, 1);
	return dropped;
}

static int monitor_fill(struct sk_buff *msg, struct rxe_cc_dev *dev, const struct rxe_cc_event *ev,
			u64 now_ns, u32 dropped)
{
	struct nlattr *nest;

	if (rxe_cc_put_dev_id(msg, dev))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, RXE_CC_A_EVENT);
	if (!nest ||
	    nla_put_u64_64bit(msg, RXE_CC_A_EVENT_TIME_NS, now_ns, RXE_CC_A_EVENT_PAD) ||
	    nla_put_u32(msg, RXE_CC_A_EVENT_QP_NUM, ev->qpn) ||
	    (ev->remote_qpn != RXE_CC_QPN_UNKNOWN &&
	     nla_put_u32(msg, RXE_CC_A_EVENT_REMOTE_NUM, ev->remote_qpn)) ||
	    (ev->with_state &&
	     (nla_put_u32(msg, RXE_CC_A_EVENT_RATE_KBPS, ev->rate_kbps) ||
	      nla_put_u32(msg, RXE_CC_A_EVENT_TARGET_RATE_KBPS, ev->target_kbps) ||
	      nla_put_u32(msg, RXE_CC_A_EVENT_ALPHA, ev->alpha))) ||
	    (ev->reason >= 0 &&
	     (nla_put_u32(msg, RXE_CC_A_EVENT_OLD_RATE_KBPS, ev->old_rate_kbps) ||
	      nla_put_u32(msg, RXE_CC_A_EVENT_REASON, ev->reason))) ||
	    (dropped && nla_put_u32(msg, RXE_CC_A_EVENT_DROPPED, dropped)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* Called in atomic context, possibly with the QP's lock held. */
static void monitor_send(struct rxe_cc_dev *dev, u8 cmd, const struct rxe_cc_event *ev,
			 u64 now_ns)
{
	const struct genl_family *family = READ_ONCE(monitor_family);
	struct sk_buff *msg;
	int dropped;
	void *hdr;

	if (!family || !genl_has_listeners(family, dev_net(dev->ndev), 0))
		return;
	dropped = monitor_admit(dev, now_ns);
	if (dropped < 0)
		return;
	msg = genlmsg_new(RXE_CC_MONITOR_MSG_BYTES, GFP_ATOMIC);
	if (!msg)
		goto lost;
	hdr = genlmsg_put(msg, 0, 0, family, 0, cmd);
	if (!hdr || monitor_fill(msg, dev, ev, now_ns, dropped)) {
		nlmsg_free(msg);
		goto lost;
	}
	genlmsg_end(msg, hdr);
	/* -ESRCH: the listener left meanwhile; a full socket is its own loss. */
	genlmsg_multicast_netns(family, dev_net(dev->ndev), msg, 0, 0, GFP_ATOMIC);
	return;
lost:
	rxe_cc_dev_count(dev, RXE_CC_C_MONITOR_DROPPED, 1);
}

void rxe_cc_monitor_cnp_sent(struct rxe_cc_dev *dev, u32 qpn, u32 remote_qpn, u64 now_ns)
{
	struct rxe_cc_event ev = {
		.qpn = qpn,
		.remote_qpn = remote_qpn,
		.reason = -1,
	};

	monitor_send(dev, RXE_CC_CMD_CNP_SENT_NTF, &ev, now_ns);
}

static void monitor_qp_event(struct rxe_cc_qp *qp, struct rxe_cc_event *ev)
{
	lockdep_assert_held(&qp->lock);
	ev->qpn = qp->qpn;
	ev->remote_qpn = qp->remote_qpn;
	ev->rate_kbps = qp->flow.rc_kbps;
	ev->target_kbps = qp->flow.rt_kbps;
	ev->alpha = qp->flow.alpha;
	ev->with_state = true;
}

void rxe_cc_monitor_cnp_handled(struct rxe_cc_qp *qp, u64 now_ns)
{
	struct rxe_cc_event ev = { .reason = -1 };

	monitor_qp_event(qp, &ev);
	monitor_send(qp->dev, RXE_CC_CMD_CNP_HANDLED_NTF, &ev, now_ns);
}

void rxe_cc_monitor_rate_change(struct rxe_cc_qp *qp, u32 old_kbps, int reason, u64 now_ns)
{
	struct rxe_cc_event ev = {
		.old_rate_kbps = old_kbps,
		.reason = reason,
	};

	monitor_qp_event(qp, &ev);
	monitor_send(qp->dev, RXE_CC_CMD_RATE_NTF, &ev, now_ns);
}
