// SPDX-License-Identifier: GPL-2.0
/*
 * sampler: the lab's clock. Every INTERVAL it prints one JSON line with the
 * time, the switch port's leaf qdisc (backlog, drops, ECN marks), the bytes
 * of each named nftables counter of one table, the receive PSN of every QP
 * of one RDMA device (what its responder has accepted in sequence: the
 * goodput, whatever was resent), and, with -q, every rxe_cc QP's rate,
 * target rate and alpha. It runs until SIGTERM/SIGINT.
 *
 * One long-lived process over netlink, not tc, nft and rocectl per sample:
 * under emulation each program start costs 40 to 150 ms, which would make
 * the samples a second apart and steal the CPU the traffic needs.
 *
 * Usage: sampler -n NETNS -d DEV -t NFT_TABLE -r RDMA_DEV [-q] [-i MS]
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/gen_stats.h>
#include <linux/genetlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>
#include <linux/rxe_cc.h>

#include "nl.h"

/* The lab's congestion point: the leaf qdisc under HTB class 1:1. */
#define IB_QP_STATE_RTR 2	/* enum ib_qp_state, as rdma netlink reports it */
#define LEAF_PARENT TC_H_MAKE(1 << 16, 1)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: sampler -n NETNS -d DEV -t NFT_TABLE -r RDMA_DEV [-q] [-i MS]\n");
	exit(EXIT_USAGE);
}

/* Starts a dump request of TYPE in NL's buffer. */
static struct nlmsghdr *dump_request(struct nl *nl, uint16_t type)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->req);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

struct leaf {
	int ifindex;
	bool found;
	struct gnet_stats_queue q;
	uint32_t marked;
};

static int qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct leaf *leaf = data;
	const struct nlattr *attr, *st;
	const char *kind = "";

	if (tcm->tcm_ifindex != leaf->ifindex || tcm->tcm_parent != LEAF_PARENT)
		return MNL_CB_OK;
	leaf->found = true;
	mnl_attr_for_each(attr, nlh, sizeof(*tcm))
		if (mnl_attr_get_type(attr) == TCA_KIND)
			kind = mnl_attr_get_str(attr);
	mnl_attr_for_each(attr, nlh, sizeof(*tcm)) {
		switch (mnl_attr_get_type(attr)) {
		case TCA_STATS2:
			mnl_attr_for_each_nested(st, attr)
				if (mnl_attr_get_type(st) == TCA_STATS_QUEUE &&
				    mnl_attr_get_payload_len(st) >= sizeof(leaf->q))
					memcpy(&leaf->q, mnl_attr_get_payload(st), sizeof(leaf->q));
			break;
		case TCA_XSTATS:
			if (!strcmp(kind, "red") &&
			    mnl_attr_get_payload_len(attr) >= sizeof(struct tc_red_xstats))
				leaf->marked = ((struct tc_red_xstats *)
						mnl_attr_get_payload(attr))->marked;
			break;
		}
	}
	return MNL_CB_OK;
}

static int sample_leaf(struct nl *rt, struct leaf *leaf)
{
	struct nlmsghdr *nlh = dump_request(rt, RTM_GETQDISC);
	struct tcmsg *tcm;

	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = leaf->ifindex;
	leaf->found = false;
	return nl_talk(rt, nlh, qdisc_cb, leaf);
}

static int counter_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *attr, *c;
	const char *name = NULL;
	uint64_t bytes = 0;
	int *n = data;

	mnl_attr_for_each(attr, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(attr) == NFTA_OBJ_NAME)
			name = mnl_attr_get_str(attr);
		if (mnl_attr_get_type(attr) == NFTA_OBJ_DATA)
			mnl_attr_for_each_nested(c, attr)
				if (mnl_attr_get_type(c) == NFTA_COUNTER_BYTES)
					bytes = be64toh(mnl_attr_get_u64(c));
	}
	if (name)
		printf("%s\"%s\":%llu", (*n)++ ? "," : "", name, (unsigned long long)bytes);
	return MNL_CB_OK;
}

static int sample_counters(struct nl *nf, const char *table)
{
	struct nlmsghdr *nlh = dump_request(nf, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETOBJ);
	struct nfgenmsg *nfg;
	int n = 0;

	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = NFPROTO_INET;
	nfg->version = NFNETLINK_V0;
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, table);
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htonl(NFT_OBJECT_COUNTER));
	return nl_talk(nf, nlh, counter_cb, &n);
}

struct rdma_dev {
	const char *name;
	uint32_t index;
	bool found;
};

static int rdma_dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_DEV_NAME + 1] = { 0 };
	struct rdma_dev *d = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, 0)
		if (mnl_attr_get_type(attr) <= RDMA_NLDEV_ATTR_DEV_NAME)
			tb[mnl_attr_get_type(attr)] = (struct nlattr *)attr;
	if (tb[RDMA_NLDEV_ATTR_DEV_INDEX] && tb[RDMA_NLDEV_ATTR_DEV_NAME] &&
	    !strcmp(mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]), d->name)) {
		d->index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
		d->found = true;
	}
	return MNL_CB_OK;
}

static int find_rdma_dev(struct nl *rd, struct rdma_dev *d)
{
	struct nlmsghdr *nlh = dump_request(rd, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
								  RDMA_NLDEV_CMD_GET));
	int err;

	err = nl_talk(rd, nlh, rdma_dev_cb, d);
	if (!err && !d->found)
		err = -ENODEV;
	return err;
}

/*
 * One QP of a resource dump: prints "LQPN":RQ_PSN once the QP is connected
 * (RTR or later: perftest leaves its server side in RTR); before, its PSN is
 * not yet the one the peer starts from.
 */
static void print_rq_psn(const struct nlattr *entry, int *n)
{
	const struct nlattr *attr;
	uint32_t lqpn = 0, psn = 0;
	bool have_psn = false, connected = false;

	mnl_attr_for_each_nested(attr, entry) {
		if (mnl_attr_get_type(attr) == RDMA_NLDEV_ATTR_RES_LQPN)
			lqpn = mnl_attr_get_u32(attr);
		if (mnl_attr_get_type(attr) == RDMA_NLDEV_ATTR_RES_STATE)
			connected = mnl_attr_get_u8(attr) >= IB_QP_STATE_RTR;
		if (mnl_attr_get_type(attr) == RDMA_NLDEV_ATTR_RES_RQ_PSN) {
			psn = mnl_attr_get_u32(attr);
			have_psn = true;
		}
	}
	if (have_psn && connected)
		printf("%s\"%u\":%u", (*n)++ ? "," : "", lqpn, psn);
}

static int rq_psn_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *attr, *entry;

	mnl_attr_for_each(attr, nlh, 0)
		if (mnl_attr_get_type(attr) == RDMA_NLDEV_ATTR_RES_QP)
			mnl_attr_for_each_nested(entry, attr)
				print_rq_psn(entry, data);
	return MNL_CB_OK;
}

static int sample_rq_psns(struct nl *rd, const struct rdma_dev *d)
{
	struct nlmsghdr *nlh = dump_request(rd, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
								  RDMA_NLDEV_CMD_RES_QP_GET));
	int n = 0;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	return nl_talk(rd, nlh, rq_psn_cb, &n);
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *attr, *qa;
	const char *dev = "";
	uint32_t qpn = 0, rate = 0, target = 0, alpha = 0;
	int *n = data;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == RXE_CC_A_DEV_NAME)
			dev = mnl_attr_get_str(attr);
		if (mnl_attr_get_type(attr) != RXE_CC_A_QP)
			continue;
		mnl_attr_for_each_nested(qa, attr) {
			switch (mnl_attr_get_type(qa)) {
			case RXE_CC_A_QP_NUM:
				qpn = mnl_attr_get_u32(qa);
				break;
			case RXE_CC_A_QP_RATE_KBPS:
				rate = mnl_attr_get_u32(qa);
				break;
			case RXE_CC_A_QP_TARGET_RATE_KBPS:
				target = mnl_attr_get_u32(qa);
				break;
			case RXE_CC_A_QP_ALPHA:
				alpha = mnl_attr_get_u32(qa);
				break;
			}
		}
	}
	printf("%s{\"dev\":\"%s\",\"qpn\":%u,\"rate_kbps\":%u,\"target_kbps\":%u,\"alpha\":%u}",
	       (*n)++ ? "," : "", dev, qpn, rate, target, alpha);
	return MNL_CB_OK;
}

static int sample_qps(struct nl *cc)
{
	int n = 0;

	return nl_talk(cc, nl_request(cc, RXE_CC_CMD_QP_GET, NLM_F_DUMP), qp_cb, &n);
}

/* Opens an rtnetlink socket inside network namespace NETNS. */
static int open_rtnl_in(struct nl *rt, const char *netns, const char *dev, int *ifindex)
{
	char path[256];
	int self, target, err = -1;

	snprintf(path, sizeof(path), "/run/netns/%s", netns);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	target = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || target < 0 || setns(target, CLONE_NEWNET)) {
		fprintf(stderr, "sampler: network namespace %s: %s\n", netns, strerror(errno));
		goto out;
	}
	*ifindex = if_nametoindex(dev);
	if (!*ifindex)
		fprintf(stderr, "sampler: no device %s in %s\n", dev, netns);
	else
		err = nl_open_bus(rt, NETLINK_ROUTE);
	if (setns(self, CLONE_NEWNET)) {
		perror("sampler: back to our network namespace");
		err = -1;
	}
out:
	if (self >= 0)
		close(self);
	if (target >= 0)
		close(target);
	return err;
}

int main(int argc, char **argv)
{
	const char *netns = NULL, *dev = NULL, *table = NULL;
	struct nl *rt, *nf, *rd, *cc = NULL;
	struct rdma_dev rdev = { 0 };
	long interval_ms = 100;
	struct timespec next, start, now;
	struct leaf leaf = { 0 };
	long long late_us;
	int opt, err;

	while ((opt = getopt(argc, argv, "n:d:t:r:qi:")) != -1) {
		switch (opt) {
		case 'n': netns = optarg; break;
		case 'd': dev = optarg; break;
		case 't': table = optarg; break;
		case 'r': rdev.name = optarg; break;
		case 'q': cc = calloc(1, sizeof(*cc)); break;
		case 'i': interval_ms = strtol(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (!netns || !dev || !table || !rdev.name || optind != argc || interval_ms <= 0 || interval_ms > 10000)
		usage();

	rt = calloc(1, sizeof(*rt));
	nf = calloc(1, sizeof(*nf));
	rd = calloc(1, sizeof(*rd));
	if (!rt || !nf || !rd || open_rtnl_in(rt, netns, dev, &leaf.ifindex) ||
	    nl_open_bus(nf, NETLINK_NETFILTER) || nl_open_bus(rd, NETLINK_RDMA) ||
	    (cc && nl_open(cc)))
		return EXIT_KERNEL;
	err = find_rdma_dev(rd, &rdev);
	if (err) {
		fprintf(stderr, "sampler: RDMA device %s: %s\n", rdev.name, strerror(-err));
		return EXIT_KERNEL;
	}

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop) {
		/*
		 * How late this sample starts against when it was due: a late
		 * wake-up or an overrun of the last sample. Under TCG the
		 * guest's clock follows the host's, so a starved vCPU shows
		 * here; the report prints it. A late sample starts the
		 * schedule anew rather than bunching samples up.
		 */
		clock_gettime(CLOCK_MONOTONIC, &start);
		late_us = (start.tv_sec - next.tv_sec) * 1000000LL +
			  (start.tv_nsec - next.tv_nsec) / 1000;
		if (late_us > 0)
			next = start;
		else
			late_us = 0;
		clock_gettime(CLOCK_REALTIME, &now);
		err = sample_leaf(rt, &leaf);
		if (err || !leaf.found) {
			fprintf(stderr, "sampler: no qdisc under 1:1 on %s: %s\n", dev,
				err ? strerror(-err) : "not found");
			return EXIT_KERNEL;
		}
		printf("{\"t\":%lld.%06ld,\"late_us\":%lld,\"backlog\":%u,\"qlen\":%u,\"drops\":%u,\"marked\":%u,\"flows\":{",
		       (long long)now.tv_sec, now.tv_nsec / 1000, late_us, leaf.q.backlog,
		       leaf.q.qlen, leaf.q.drops, leaf.marked);
		err = sample_counters(nf, table);
		printf("},\"rq_psn\":{");
		if (!err)
			err = sample_rq_psns(rd, &rdev);
		printf("},\"qps\":[");
		if (!err && cc)
			err = sample_qps(cc);
		printf("]}\n");
		if (err) {
			fprintf(stderr, "sampler: %s\n", strerror(-err));
			return EXIT_KERNEL;
		}

		next.tv_nsec += interval_ms * 1000000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR && !stop)
			;
	}
	return 0;
}
