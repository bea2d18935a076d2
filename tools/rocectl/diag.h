/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl diagnose's rules: from what the counters of rxe_cc and of rxe
 * did over an interval, the troubles of a RoCE fabric they point at.
 *
 * Pure C, no I/O: diagnose.c samples and prints, selftests/unit/test_diag.c
 * feeds the rules hand-made intervals. Every threshold is named here, with
 * why it is where it is; Documentation/rocectl.rst lists the findings.
 */
#ifndef _ROCECTL_DIAG_H
#define _ROCECTL_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/rxe_cc.h>

/* rxe's own port counters (sysfs hw_counters, rdma statistic) we read. */
enum diag_hw {
	DIAG_HW_SENT_PKTS,
	DIAG_HW_RCVD_PKTS,
	DIAG_HW_OUT_OF_SEQ,	/* out_of_seq_request: a gap seen by the responder */
	DIAG_HW_DUPLICATE,	/* duplicate_request: a resent request it had */
	DIAG_HW_SEQ_ERR,	/* rcvd_seq_err: NAKs (sequence error) the requester got */
	DIAG_HW_RETRY,		/* completer_retry_err: requester timeouts and resends */
	DIAG_HW_RETRY_EXCEEDED,	/* retry_exceeded_err: QPs that gave up */
	DIAG_HW_NR
};

const char *diag_hw_name(enum diag_hw hw);

#define DIAG_NAME_LEN 32

struct diag_dev {
	char name[DIAG_NAME_LEN];
	bool cc;		/* rxe_cc runs on it: the rest but hw is known */
	bool np;		/* its NP answers CE marks */
	bool dcqcn;		/* its RP acts on CNPs */
	uint32_t min_time_between_cnps_us;
	bool has_hw;
	uint64_t stat[RXE_CC_A_STAT_MAX + 1];	/* deltas, by attribute */
	uint64_t hw[DIAG_HW_NR];		/* deltas */
};

struct diag_qp {
	char dev[DIAG_NAME_LEN];
	uint32_t qpn;
	uint32_t remote_qpn;	/* RXE_CC_QPN_UNKNOWN-like: see remote_known */
	bool remote_known;
	char peer[48];		/* the peer's address, as text; "" if unknown */
	bool dcqcn;		/* DCQCN acts on its CNPs (its own or its device's) */
	bool rc;		/* reliable connected: its peer acknowledges it */
	uint32_t min_rate_kbps;	/* the floor DCQCN holds it at */
	uint64_t stat[RXE_CC_A_STAT_MAX + 1];	/* deltas, by attribute */
	/* Its rate, sampled through the interval while it sent. */
	uint32_t samples;
	uint32_t samples_at_floor;
};

/*
 * One interval. PEERS are QPs of the other host, from its saved
 * `rocectl -j -s qp show`: their counters are totals since their last
 * reset, and are compared with this host's totals (QPS_TOTAL).
 */
struct diag_input {
	uint64_t interval_ms;
	bool cc_loaded;
	const struct diag_dev *devs;
	int ndevs;
	const struct diag_qp *qps;
	int nqps;
	const struct diag_qp *peers;
	const struct diag_qp *qps_total;	/* this host's totals, for PEERS */
	int npeers;
};

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_INFO };

/* Stable ids: scripts match on their names (diag_id_name). */
enum diag_id {
	DIAG_NO_TRAFFIC,
	DIAG_CC_NOT_LOADED,
	DIAG_NP_OFF,
	DIAG_CNP_SUPPRESSED,
	DIAG_CNP_UNRESOLVED,
	DIAG_CNP_LOST,
	DIAG_CNP_MALFORMED,
	DIAG_CNP_UNKNOWN_QP,
	DIAG_DCQCN_OFF,
	DIAG_CNP_WRONG_SOURCE,
	DIAG_MARKING_HIGH,
	DIAG_RATE_AT_FLOOR,
	DIAG_LOSS_WITHOUT_MARKS,
	DIAG_LOSS_WITH_MARKS,
	DIAG_LOSS_WITHOUT_CC,
	DIAG_RESENDS_WITHOUT_LOSS,
	DIAG_QP_STALLED,
	DIAG_QP_STARVED,
	DIAG_PACED_DROPPED,
	DIAG_RETRY_EXCEEDED,
	DIAG_PORT_LIMITED,
	DIAG_NR
};

#define DIAG_MAX_EVIDENCE 6

struct diag_finding {
	enum diag_id id;
	enum diag_severity severity;
	char dev[DIAG_NAME_LEN];	/* "" for the host */
	int64_t qpn;			/* -1 for a device */
	char text[256];			/* what was seen, with its figures */
	int nevidence;
	struct {
		char name[48];		/* "np-cnp-sent" or "rxe2 qpn 18 np-cnp-sent" */
		uint64_t value;		/* over the interval */
	} evidence[DIAG_MAX_EVIDENCE];
};

const char *diag_id_name(enum diag_id id);
const char *diag_severity_name(enum diag_severity sev);
/* What the finding means, and what to try, in a sentence each. */
const char *diag_meaning(enum diag_id id);
const char *diag_advice(enum diag_id id);

/*
 * Applies every rule to IN; writes up to MAX findings to OUT, the most
 * severe first, and returns how many there are (which may exceed MAX).
 */
int diag_run(const struct diag_input *in, struct diag_finding *out, int max);

#endif /* _ROCECTL_DIAG_H */
