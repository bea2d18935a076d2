// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl diagnose: samples rxe_cc's device and QP counters and rxe's own
 * port counters over an interval, and prints what diag.c's rules find in
 * them, the most severe first, each with its evidence and what to try.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include "diag.h"
#include "print.h"
#include "rocectl.h"
#include "rxe_cc_names.h"

#define DIAG_MAX_FINDINGS 256
/* Rate samples: every SAMPLE_MS, or fewer for long intervals. */
#define SAMPLE_MS 100
#define MAX_SAMPLES 100
#define DURATION_MAX_S 3600

/* Where rxe's port counters are; rocectl-fake points it at a fixture. */
const char *diag_sysfs = "/sys";

/* A QP as read: what diag_qp keeps, and what is resolved later. */
struct qp_raw {
	struct diag_qp q;
	uint32_t mode;		/* enum rxe_cc_qp_dcqcn */
	uint32_t min_rate_mbps;	/* its own, 0 = its device's */
	uint32_t rate_kbps;
	bool limited;
};

/* Everything read at one instant. */
struct snapshot {
	bool cc;		/* rxe_cc is loaded: read its devices and QPs */
	struct diag_dev *devs;
	uint32_t *dev_min_rate_mbps;	/* per devs[] */
	int ndevs;
	struct qp_raw *qps;
	int nqps;
};

/* REALLOC_ARRAY-like: room for element N of an array that doubles. */
static void *grow(void *p, int n, size_t size)
{
	if (n && (n & (n - 1)))
		return p;
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p) {
		perror("rocectl");
		exit(EXIT_KERNEL);
	}
	return p;
}

static struct diag_dev *find_dev(const struct snapshot *s, const char *name)
{
	int i;

	for (i = 0; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}

static struct diag_dev *add_dev(struct snapshot *s, const char *name)
{
	struct diag_dev *d = find_dev(s, name);

	if (d)
		return d;
	s->devs = grow(s->devs, s->ndevs, sizeof(*s->devs));
	s->dev_min_rate_mbps = grow(s->dev_min_rate_mbps, s->ndevs, sizeof(uint32_t));
	s->dev_min_rate_mbps[s->ndevs] = 0;
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

static void read_stats(const struct nlattr *nest, uint64_t *stat)
{
	struct nlattr *tb[RXE_CC_A_STAT_MAX + 1];
	int i;

	parse_nested(nest, tb, RXE_CC_A_STAT_MAX);
	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++)
		stat[i] = tb[i] && i != RXE_CC_A_STAT_PAD ? mnl_attr_get_u64(tb[i]) : 0;
}

static uint32_t u32_or(struct nlattr *a, uint32_t dflt)
{
	return a ? mnl_attr_get_u32(a) : dflt;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1], *rp[RXE_CC_A_DCQCN_MAX + 1], *np[RXE_CC_A_NP_MAX + 1];
	struct snapshot *s = data;
	struct diag_dev *d;

	if (parse_top(nlh, tb))
		return MNL_CB_OK;
	parse_nested(tb[RXE_CC_A_DCQCN], rp, RXE_CC_A_DCQCN_MAX);
	parse_nested(tb[RXE_CC_A_NP], np, RXE_CC_A_NP_MAX);
	d = add_dev(s, dev_of(tb));
	d->cc = true;
	d->np = u32_or(np[RXE_CC_A_NP_ENABLE], 0);
	d->dcqcn = u32_or(rp[RXE_CC_A_DCQCN_ENABLE], 0);
	d->min_time_between_cnps_us = u32_or(np[RXE_CC_A_NP_MIN_TIME_BETWEEN_CNPS], 0);
	s->dev_min_rate_mbps[d - s->devs] = u32_or(rp[RXE_CC_A_DCQCN_MIN_RATE], 0);
	read_stats(tb[RXE_CC_A_STATS], d->stat);
	return MNL_CB_OK;
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1], *qa[RXE_CC_A_QP_MAX + 1], *peer;
	struct snapshot *s = data;
	struct qp_raw *r;
	int len;

	if (parse_top(nlh, tb) || !tb[RXE_CC_A_QP])
		return MNL_CB_OK;
	parse_nested(tb[RXE_CC_A_QP], qa, RXE_CC_A_QP_MAX);
	if (!qa[RXE_CC_A_QP_NUM])
		return MNL_CB_OK;
	s->qps = grow(s->qps, s->nqps, sizeof(*s->qps));
	r = &s->qps[s->nqps++];
	memset(r, 0, sizeof(*r));
	snprintf(r->q.dev, sizeof(r->q.dev), "%s", dev_of(tb));
	r->q.qpn = mnl_attr_get_u32(qa[RXE_CC_A_QP_NUM]);
	if (qa[RXE_CC_A_QP_REMOTE_NUM]) {
		r->q.remote_known = true;
		r->q.remote_qpn = mnl_attr_get_u32(qa[RXE_CC_A_QP_REMOTE_NUM]);
	}
	peer = qa[RXE_CC_A_QP_PEER];
	len = peer ? mnl_attr_get_payload_len(peer) : 0;
	if (len == 4 || len == 16)
		inet_ntop(len == 4 ? AF_INET : AF_INET6, mnl_attr_get_payload(peer),
			  r->q.peer, sizeof(r->q.peer));
	r->q.rc = qa[RXE_CC_A_QP_TRANSPORT] &&
		  mnl_attr_get_u32(qa[RXE_CC_A_QP_TRANSPORT]) == RXE_CC_TRANSPORT_RC;
	r->mode = u32_or(qa[RXE_CC_A_QP_DCQCN], RXE_CC_QP_DCQCN_DEVICE);
	r->min_rate_mbps = u32_or(qa[RXE_CC_A_QP_MIN_RATE], 0);
	r->rate_kbps = u32_or(qa[RXE_CC_A_QP_RATE_KBPS], 0);
	r->limited = u32_or(qa[RXE_CC_A_QP_LIMITED], 0);
	read_stats(qa[RXE_CC_A_QP_STATS], r->q.stat);
	return MNL_CB_OK;
}

static uint64_t read_u64_file(const char *path, bool *ok)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%llu", &v) != 1)
		*ok = false;
	if (f)
		fclose(f);
	return v;
}

/* rxe's port counters of every RDMA device: /sys/class/infiniband/DEV/ports/1/hw_counters. */
static void read_hw(struct snapshot *s)
{
	char path[512], base[300];
	struct diag_dev *d;
	struct dirent *e;
	bool ok;
	DIR *dir;
	int h;

	snprintf(path, sizeof(path), "%s/class/infiniband", diag_sysfs);
	dir = opendir(path);
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(base, sizeof(base), "%s/class/infiniband/%.64s/ports/1/hw_counters",
			 diag_sysfs, e->d_name);
		d = add_dev(s, e->d_name);
		ok = true;
		for (h = 0; h < DIAG_HW_NR; h++) {
			snprintf(path, sizeof(path), "%s/%s", base, diag_hw_name(h));
			d->hw[h] = read_u64_file(path, &ok);
		}
		d->has_hw = ok;
	}
	closedir(dir);
}


/* Reads the QPs (and unless QPS_ONLY, the devices and rxe's counters) into S. */
static int take(struct nl *nl, struct snapshot *s, bool qps_only)
{
	struct nlmsghdr *nlh;
	int err;

	if (s->cc) {
		nlh = nl_request(nl, RXE_CC_CMD_QP_GET, NLM_F_DUMP);
		err = nl_talk(nl, nlh, qp_cb, s);
		if (!err && !qps_only) {
			nlh = nl_request(nl, RXE_CC_CMD_DEV_GET, NLM_F_DUMP);
			err = nl_talk(nl, nlh, dev_cb, s);
		}
		if (err) {
			nl_perror(nl, err, "reading rxe_cc's counters");
			return -1;
		}
	}
	if (!qps_only)
		read_hw(s);
	return 0;
}

static void free_snapshot(struct snapshot *s)
{
	free(s->devs);
	free(s->dev_min_rate_mbps);
	free(s->qps);
	s->devs = NULL;
	s->dev_min_rate_mbps = NULL;
	s->qps = NULL;
	s->ndevs = s->nqps = 0;
}

static struct qp_raw *find_qp(const struct snapshot *s, const char *dev, uint32_t qpn)
{
	int i;

	for (i = 0; i < s->nqps; i++)
		if (s->qps[i].q.qpn == qpn && !strcmp(s->qps[i].q.dev, dev))
			return &s->qps[i];
	return NULL;
}

/* R's floor: its own min-rate, else its device's (as DEVS has it). */
static uint32_t floor_kbps(const struct snapshot *devs, const struct qp_raw *r)
{
	const struct diag_dev *d = find_dev(devs, r->q.dev);

	if (r->min_rate_mbps)
		return r->min_rate_mbps * 1000;
	return d ? devs->dev_min_rate_mbps[d - devs->devs] * 1000 : 0;
}

/*
 * One rate sample of every QP of NOW that sent since PREV, onto its entry
 * in TRACK (a snapshot whose QPs only carry samples), by DEVS' floors.
 */
static void sample_rates(struct snapshot *track, const struct snapshot *now,
			 const struct snapshot *prev, const struct snapshot *devs)
{
	int i;

	for (i = 0; i < now->nqps; i++) {
		const struct qp_raw *n = &now->qps[i];
		const struct qp_raw *p = find_qp(prev, n->q.dev, n->q.qpn);
		struct qp_raw *t;

		/* Only while it sent: an idle QP keeps whatever rate it had. */
		if (!p || n->q.stat[RXE_CC_A_STAT_TX_BYTES] == p->q.stat[RXE_CC_A_STAT_TX_BYTES])
			continue;
		t = find_qp(track, n->q.dev, n->q.qpn);
		if (!t) {
			track->qps = grow(track->qps, track->nqps, sizeof(*track->qps));
			t = &track->qps[track->nqps++];
			memset(t, 0, sizeof(*t));
			snprintf(t->q.dev, sizeof(t->q.dev), "%s", n->q.dev);
			t->q.qpn = n->q.qpn;
		}
		t->q.samples++;
		if (n->limited && n->rate_kbps <= floor_kbps(devs, n))
			t->q.samples_at_floor++;
	}
}

/* Counters are monotonic, but a reset or a new QP restarts them. */
static void diff_stats(uint64_t *after, const uint64_t *before)
{
	int i;

	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++)
		if (i != RXE_CC_A_STAT_QUEUE_PEAK && after[i] >= before[i])
			after[i] -= before[i];
}

static void diff_hw(uint64_t *after, const uint64_t *before)
{
	int h;

	for (h = 0; h < DIAG_HW_NR; h++)
		if (after[h] >= before[h])
			after[h] -= before[h];
}

/* AFTER becomes the interval's deltas since BEFORE, with TRACK's samples. */
static void make_deltas(struct snapshot *after, const struct snapshot *before,
			const struct snapshot *track)
{
	const struct diag_dev *bd;
	const struct qp_raw *b, *t;
	int i;

	for (i = 0; i < after->ndevs; i++) {
		bd = find_dev(before, after->devs[i].name);
		if (!bd)
			continue;
		diff_stats(after->devs[i].stat, bd->stat);
		diff_hw(after->devs[i].hw, bd->hw);
	}
	for (i = 0; i < after->nqps; i++) {
		struct qp_raw *r = &after->qps[i];
		const struct diag_dev *d = find_dev(after, r->q.dev);

		r->q.dcqcn = r->mode == RXE_CC_QP_DCQCN_ON ||
			     (r->mode == RXE_CC_QP_DCQCN_DEVICE && d && d->dcqcn);
		r->q.min_rate_kbps = floor_kbps(after, r);
		b = find_qp(before, r->q.dev, r->q.qpn);
		if (b)
			diff_stats(r->q.stat, b->q.stat);
		t = find_qp(track, r->q.dev, r->q.qpn);
		if (t) {
			r->q.samples = t->q.samples;
			r->q.samples_at_floor = t->q.samples_at_floor;
		}
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void sleep_until_ms(uint64_t t)
{
	uint64_t now = now_ms();
	struct timespec ts;

	if (t <= now)
		return;
	ts.tv_sec = (t - now) / 1000;
	ts.tv_nsec = (t - now) % 1000 * 1000000;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct diag_args {
	const char *dev;
	uint32_t qpn;
	bool by_qpn;
	uint32_t duration_s;
	const char *peer_file;
};

static int parse_args(int argc, char **argv, struct diag_args *a)
{
	a->duration_s = 5;
	for (; argc > 0; argc -= 2, argv += 2) {
		if (argc < 2)
			return usage_error("\"%s\" needs a value (see rocectl diagnose help)", argv[0]);
		if (!strcmp(argv[0], "dev")) {
			a->dev = argv[1];
		} else if (!strcmp(argv[0], "qpn")) {
			if (parse_u32("qpn", argv[1], &a->qpn))
				return EXIT_USAGE;
			a->by_qpn = true;
		} else if (!strcmp(argv[0], "duration")) {
			if (parse_u32("duration", argv[1], &a->duration_s))
				return EXIT_USAGE;
			if (a->duration_s < 1 || a->duration_s > DURATION_MAX_S) {
				fprintf(stderr, "rocectl: duration: %u is out of range (1..%u s)\n",
					a->duration_s, DURATION_MAX_S);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[0], "peer")) {
			a->peer_file = argv[1];
		} else {
			return usage_error("unknown key \"%s\" (see rocectl diagnose help)", argv[0]);
		}
	}
	if (a->by_qpn && !a->dev)
		return usage_error("%s", "qpn needs its device: dev DEV qpn QPN");
	return 0;
}

static bool wanted(const struct diag_args *a, const struct diag_finding *f)
{
	if (!a->dev || !f->dev[0])
		return true;
	if (strcmp(a->dev, f->dev))
		return false;
	return !a->by_qpn || f->qpn < 0 || f->qpn == a->qpn;
}

static void print_finding(const struct diag_finding *f, uint64_t interval_ms)
{
	int i;

	if (pr_json()) {
		pr_open(NULL);
		pr_str("id", diag_id_name(f->id));
		pr_str("severity", diag_severity_name(f->severity));
		if (f->dev[0])
			pr_str("dev", f->dev);
		if (f->qpn >= 0)
			pr_u64("qpn", f->qpn);
		pr_str("summary", f->text);
		pr_str("meaning", diag_meaning(f->id));
		pr_str("try", diag_advice(f->id));
		pr_u64("interval-ms", interval_ms);
		pr_open("evidence");
		for (i = 0; i < f->nevidence; i++)
			pr_u64(f->evidence[i].name, f->evidence[i].value);
		pr_close();
		pr_close();
		return;
	}
	printf("%s %s", diag_severity_name(f->severity), diag_id_name(f->id));
	if (f->dev[0])
		printf(" dev %s", f->dev);
	if (f->qpn >= 0)
		printf(" qpn %" PRId64, f->qpn);
	printf(": %s\n    %s\n", f->text, diag_meaning(f->id));
	for (i = 0; i < f->nevidence; i++)
		printf("%s%s %" PRIu64, i ? ", " : "    evidence: ", f->evidence[i].name,
		       f->evidence[i].value);
	if (f->nevidence)
		putchar('\n');
	printf("    try: %s\n", diag_advice(f->id));
}

/* The QPs of S as the rules take them. */
static struct diag_qp *qps_of(const struct snapshot *s)
{
	struct diag_qp *q = calloc(s->nqps + 1, sizeof(*q));
	int i;

	if (!q) {
		perror("rocectl");
		exit(EXIT_KERNEL);
	}
	for (i = 0; i < s->nqps; i++)
		q[i] = s->qps[i].q;
	return q;
}

static int print_findings(const struct diag_args *a, const struct diag_input *in)
{
	struct diag_finding *found = calloc(DIAG_MAX_FINDINGS, sizeof(*found));
	int i, n, shown = 0;

	if (!found) {
		perror("rocectl");
		return EXIT_KERNEL;
	}
	n = diag_run(in, found, DIAG_MAX_FINDINGS);
	if (n > DIAG_MAX_FINDINGS)
		n = DIAG_MAX_FINDINGS;
	pr_begin_list();
	for (i = 0; i < n; i++) {
		if (!wanted(a, &found[i]))
			continue;
		print_finding(&found[i], in->interval_ms);
		shown++;
	}
	pr_end_list();
	if (!shown && !pr_json())
		printf("no problem found in %" PRIu64 " ms\n", in->interval_ms);
	free(found);
	return 0;
}

static int diagnose(struct nl *nl, int argc, char **argv)
{
	bool cc = nl != NULL;
	struct snapshot before = { .cc = cc }, prev = { .cc = cc }, cur = { .cc = cc };
	struct snapshot after = { .cc = cc }, track = { 0 };
	struct diag_qp *qps = NULL, *qps_total = NULL, *peers = NULL;
	struct diag_input in = { .cc_loaded = cc };
	const struct snapshot *last;
	uint64_t start, end, step, t;
	struct diag_args a = { 0 };
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret;
	if (a.peer_file && diag_read_peer(a.peer_file, &peers, &in.npeers))
		return EXIT_USAGE;
	start = now_ms();
	end = start + a.duration_s * 1000ULL;
	step = a.duration_s * 1000ULL / MAX_SAMPLES;
	if (step < SAMPLE_MS)
		step = SAMPLE_MS;
	ret = EXIT_KERNEL;
	if (take(nl, &before, false))
		goto out;
	/* The first samples compare with BEFORE's QPs, the next with the last ones. */
	for (t = start + step, last = &before; t < end; t += step, last = &prev) {
		sleep_until_ms(t);
		if (take(nl, &cur, true))
			goto out;
		sample_rates(&track, &cur, last, &before);
		free_snapshot(&prev);
		prev = cur;
		cur.qps = NULL;
		cur.nqps = 0;
	}
	sleep_until_ms(end);
	if (take(nl, &after, false))
		goto out;
	in.interval_ms = now_ms() - start;
	/* The peer's totals meet this host's totals, not its deltas. */
	if (in.npeers)
		qps_total = qps_of(&after);
	make_deltas(&after, &before, &track);
	qps = qps_of(&after);
	in.devs = after.devs;
	in.ndevs = after.ndevs;
	in.qps = qps;
	in.nqps = after.nqps;
	in.peers = peers;
	in.qps_total = qps_total;
	ret = print_findings(&a, &in);
out:
	free(qps);
	free(qps_total);
	free(peers);
	free_snapshot(&before);
	free_snapshot(&prev);
	free_snapshot(&cur);
	free_snapshot(&after);
	free_snapshot(&track);
	return ret;
}

int cmd_diagnose(struct nl *nl, const char *cmd, int argc, char **argv)
{
	/* diagnose takes no command: what follows it are its keys. */
	if (strcmp(cmd, "show")) {
		argc++;
		argv--;
	}
	return diagnose(nl, argc, argv);
}

void help_diagnose(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ -j ] diagnose [ dev DEV [ qpn QPN ] ] [ duration SECS ]\n"
		"                             [ peer FILE ]\n"
		"Samples rxe_cc's and rxe's counters for SECS (default 5, 1..%u) while the\n"
		"traffic runs, and prints the troubles they point at, the most severe first,\n"
		"each with its evidence and what to try. FILE is the other host's\n"
		"rocectl -j -s qp show, taken after the traffic, with both hosts' counters\n"
		"reset before it: it tells whether the CNPs its NP sent reached this host.\n"
		"Examples: rocectl diagnose\n"
		"          rocectl -j diagnose dev rxe0 duration 10\n"
		"          rocectl diagnose peer receiver-qps.json\n", DURATION_MAX_S);
}
