// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn-sim: replay CNP arrivals against the DCQCN core that rxe_cc.ko runs
 * (kmod/dcqcn.c, compiled in unchanged) and print the reaction point's
 * trajectory as CSV, so that the algorithm can be watched without a VM.
 *
 * The simulated flow always has data: it sends packets of --packet bytes
 * back to back at its current rate Rc, which drives the byte counter. Time
 * moves from one event to the next (packet departure, CNP, the core's own
 * timers), in ns.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn-names.h"
#include "dcqcn.h"

#define NS_PER_US 1000ULL

struct cnp_list {
	u64 *t_ns;
	size_t n, cap;
};

struct sim {
	struct dcqcn_params params;
	u32 line_mbps;
	u64 duration_ns;
	u64 sample_ns;		/* 0: no periodic rows */
	u32 packet_bytes;
	struct cnp_list cnps;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dcqcn-sim [OPTIONS]\n"
		"Replay CNP arrivals against rxe_cc's DCQCN core; print CSV:\n"
		"  time_us,rc_mbps,rt_mbps,alpha,timer_stage,byte_stage,event\n"
		"\n"
		"Options:\n"
		"  -p, --preset NAME      mlx5 (default) or paper\n"
		"  -s, --set KEY=VALUE    override a parameter, by rocectl key or mlx5 name\n"
		"                         (ai-rate=10, rp_time_reset=55); repeatable\n"
		"  -l, --line-rate MBPS   link rate (default 10000)\n"
		"  -d, --duration US      simulated time (default 10000)\n"
		"  -c, --cnp PATTERN      CNP arrivals, repeatable:\n"
		"                           once:T             one CNP at T us\n"
		"                           periodic:START:PERIOD[:COUNT]\n"
		"                           burst:START:N:GAP:EVERY[:BURSTS]\n"
		"                           (times in us; without a count: until the end)\n"
		"                           file:PATH          one time in us per line\n"
		"  -S, --sample US        also print a row every US (event \"sample\")\n"
		"  -P, --packet BYTES     packet size on the wire (default 1100)\n"
		"  -L, --list             list the parameters with units, ranges and presets\n"
		"  -h, --help\n"
		"\n"
		"Examples: one CNP at t=0 on a 10 Gb/s flow, firmware defaults:\n"
		"  dcqcn-sim -p mlx5 -l 10000 -c once:0 -d 8000\n"
		"the same flow's first CNP after 5 ms uncongested: the same cut\n"
		"  dcqcn-sim -p mlx5 -l 10000 -c once:5000 -d 13000\n"
		"CNPs every 3 us: one cut per 4 us monitor period, the rest deferred\n"
		"  dcqcn-sim -p mlx5 -c periodic:0:3:100 -d 320\n");
}

static int parse_u64(const char *s, u64 *out)
{
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-')
		return -1;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* A time in us, possibly with a fraction ("12.5"), as ns. */
static int parse_us(const char *s, u64 *ns)
{
	char *end;
	double us;

	errno = 0;
	us = strtod(s, &end);
	if (errno || end == s || (*end && *end != '\n') || us < 0 || us > 1e12)
		return -1;
	*ns = (u64)(us * NS_PER_US + 0.5);
	return 0;
}

static void cnp_add(struct cnp_list *l, u64 t_ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->t_ns = realloc(l->t_ns, l->cap * sizeof(*l->t_ns));
		if (!l->t_ns) {
			perror("dcqcn-sim");
			exit(1);
		}
	}
	l->t_ns[l->n++] = t_ns;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int cnp_file(struct cnp_list *l, const char *path)
{
	char line[128];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	u64 t;

	if (!f) {
		fprintf(stderr, "dcqcn-sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (parse_us(line, &t)) {
			fprintf(stderr, "dcqcn-sim: %s:%u: not a time in us: %s", path, lineno, line);
			fclose(f);
			return -1;
		}
		cnp_add(l, t);
	}
	fclose(f);
	return 0;
}

/* Splits "a:b:c" into at most MAX fields of u64 us-times or counts. */
static int split_fields(char *s, char **field, int max)
{
	int n = 0;
	char *tok;

	for (tok = strtok(s, ":"); tok && n < max; tok = strtok(NULL, ":"))
		field[n++] = tok;
	return tok ? -1 : n;
}

/* Adds the CNP times of one --cnp pattern that fall before END_NS. */
static int cnp_pattern(struct cnp_list *l, const char *arg, u64 end_ns)
{
	char buf[256], *f[7];
	u64 start, period, count = ~0ULL, n, gap, every, bursts = ~0ULL, i, j;
	int nf;

	if (!strncmp(arg, "file:", 5))
		return cnp_file(l, arg + 5);
	snprintf(buf, sizeof(buf), "%s", arg);
	nf = split_fields(buf, f, 7);
	if (nf == 2 && !strcmp(f[0], "once") && !parse_us(f[1], &start)) {
		cnp_add(l, start);
		return 0;
	}
	if (nf >= 3 && nf <= 4 && !strcmp(f[0], "periodic") &&
	    !parse_us(f[1], &start) && !parse_us(f[2], &period) && period &&
	    (nf == 3 || !parse_u64(f[3], &count))) {
		for (i = 0; i < count && start + i * period <= end_ns; i++)
			cnp_add(l, start + i * period);
		return 0;
	}
	if (nf >= 5 && nf <= 6 && !strcmp(f[0], "burst") && !parse_us(f[1], &start) &&
	    !parse_u64(f[2], &n) && !parse_us(f[3], &gap) && !parse_us(f[4], &every) &&
	    every && (nf == 5 || !parse_u64(f[5], &bursts))) {
		for (i = 0; i < bursts && start + i * every <= end_ns; i++)
			for (j = 0; j < n && start + i * every + j * gap <= end_ns; j++)
				cnp_add(l, start + i * every + j * gap);
		return 0;
	}
	fprintf(stderr, "dcqcn-sim: bad CNP pattern \"%s\" (see --help)\n", arg);
	return -1;
}

static int param_override(struct dcqcn_params *p, const char *arg)
{
	char name[64];
	const char *eq = strchr(arg, '=');
	u64 v;
	int id;

	if (!eq || (size_t)(eq - arg) >= sizeof(name)) {
		fprintf(stderr, "dcqcn-sim: --set wants KEY=VALUE, got \"%s\"\n", arg);
		return -1;
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	id = dcqcn_param_by_name(name);
	if (id < 0) {
		fprintf(stderr, "dcqcn-sim: unknown parameter \"%s\" (--list shows them)\n", name);
		return -1;
	}
	if (parse_u64(eq + 1, &v) || v < dcqcn_param_info[id].min ||
	    v > dcqcn_param_info[id].max) {
		fprintf(stderr, "dcqcn-sim: %s must be %u..%u %s, got \"%s\"\n",
			dcqcn_param_info[id].key, dcqcn_param_info[id].min,
			dcqcn_param_info[id].max, dcqcn_param_info[id].unit, eq + 1);
		return -1;
	}
	dcqcn_param_set(p, id, v);
	return 0;
}

static void list_params(void)
{
	int id;

	printf("%-28s %-30s %-7s %-12s %7s %7s\n", "key", "mlx5 name", "unit", "range",
	       "mlx5", "paper");
	for (id = 0; id < DCQCN_P_COUNT; id++) {
		const struct dcqcn_param_info *i = &dcqcn_param_info[id];
		char range[32];

		snprintf(range, sizeof(range), "%u..%u", i->min, i->max);
		printf("%-28s %-30s %-7s %-12s %7u %7u\n", i->key, i->mlx5_name, i->unit, range,
		       dcqcn_param_get(&dcqcn_preset_mlx5, id),
		       dcqcn_param_get(&dcqcn_preset_paper, id));
	}
}

static void print_row(u64 t_ns, const struct dcqcn_flow *f, const char *event)
{
	printf("%llu.%03llu,%u.%03u,%u.%03u,%u,%u,%u,%s\n",
	       (unsigned long long)(t_ns / NS_PER_US), (unsigned long long)(t_ns % NS_PER_US),
	       f->rc_kbps / 1000, f->rc_kbps % 1000, f->rt_kbps / 1000, f->rt_kbps % 1000,
	       f->alpha, f->timer_stage, f->byte_stage, event);
}

/* Appends NAME to the "+"-joined list in BUF. */
static void name_add(char *buf, size_t len, size_t *used, const char *name)
{
	if (*used < len)
		*used += snprintf(buf + *used, len - *used, "%s%s", *used ? "+" : "", name);
}

/*
 * Names what one call did (STEPS) and how the flow changed from A to B,
 * "+"-joined; ON_CNP when the call was a CNP's, so that a cut it deferred
 * is told apart.
 */
static const char *describe(const struct dcqcn_flow *a, const struct dcqcn_flow *b,
			    const struct dcqcn_steps *steps, bool on_cnp, char *buf, size_t len)
{
	const struct {
		u32 n;
		const char *name;
	} kinds[] = {
		{ steps->first_cnp_sets, "cnp-first-rate" },
		{ steps->cnp_deferred, "cnp-deferred" },
		{ steps->fast_recovery, "fast-recovery" },
		{ steps->additive, "additive" },
		{ steps->hyper, "hyper" },
	};
	size_t i, used = 0;

	buf[0] = '\0';
	if (!a->limited && b->limited)
		name_add(buf, len, &used, "first-cnp");
	if (steps->cuts && !steps->first_cnp_sets)
		name_add(buf, len, &used, on_cnp && !steps->cnp_deferred ?
					  "cnp-cut" : "deferred-cut");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].n)
			name_add(buf, len, &used, kinds[i].name);
	if (a->limited && !b->limited)
		name_add(buf, len, &used, "recovered");
	return buf;
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static void simulate(struct sim *s)
{
	const u64 never = ~0ULL;
	struct dcqcn_flow f, before;
	struct dcqcn_steps steps;
	u64 now = 0, next_tx = 0, next_sample = s->sample_ns ? 0 : never, t;
	size_t next_cnp = 0;
	char what[96];
	bool on_cnp;

	dcqcn_init(&f, &s->params, s->line_mbps * DCQCN_KBPS_PER_MBPS);
	qsort(s->cnps.t_ns, s->cnps.n, sizeof(u64), cmp_u64);
	printf("time_us,rc_mbps,rt_mbps,alpha,timer_stage,byte_stage,event\n");
	print_row(0, &f, "start");

	for (;;) {
		t = min_u64(dcqcn_next_event_ns(&f), next_tx);
		t = min_u64(t, next_sample);
		if (next_cnp < s->cnps.n)
			t = min_u64(t, s->cnps.t_ns[next_cnp]);
		if (t > s->duration_ns)
			break;
		now = t;
		before = f;
		steps = (struct dcqcn_steps){ 0 };

		/* At equal times: a CNP first, then the timers, then a packet. */
		on_cnp = next_cnp < s->cnps.n && s->cnps.t_ns[next_cnp] == now;
		if (on_cnp) {
			next_cnp++;
			dcqcn_on_cnp(&f, &s->params, now, &steps);
		} else if (next_tx == now) {
			dcqcn_on_bytes_sent(&f, &s->params, s->packet_bytes, now, &steps);
			next_tx = now + dcqcn_tx_time_ns(s->packet_bytes, dcqcn_rate_kbps(&f));
		} else {
			dcqcn_advance(&f, &s->params, now, &steps);
		}
		describe(&before, &f, &steps, on_cnp, what, sizeof(what));
		if (what[0])
			print_row(now, &f, what);
		if (next_sample == now) {
			print_row(now, &f, "sample");
			next_sample += s->sample_ns;
		}
	}
	print_row(s->duration_ns, &f, "end");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "line-rate", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cnp", required_argument, NULL, 'c' },
		{ "sample", required_argument, NULL, 'S' },
		{ "packet", required_argument, NULL, 'P' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim s = {
		.params = dcqcn_preset_mlx5,
		.line_mbps = 10000,
		.duration_ns = 10000 * NS_PER_US,
		.packet_bytes = 1100,
	};
	const char *overrides[DCQCN_P_COUNT * 4], *patterns[64];
	int n_overrides = 0, n_patterns = 0, opt, bad, i;
	u64 v;

	while ((opt = getopt_long(argc, argv, "p:s:l:d:c:S:P:Lh", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (!strcmp(optarg, "mlx5")) {
				s.params = dcqcn_preset_mlx5;
			} else if (!strcmp(optarg, "paper")) {
				s.params = dcqcn_preset_paper;
			} else {
				fprintf(stderr, "dcqcn-sim: unknown preset \"%s\" (mlx5, paper)\n",
					optarg);
				return 1;
			}
			break;
		case 's':
			if (n_overrides == (int)(sizeof(overrides) / sizeof(overrides[0]))) {
				fprintf(stderr, "dcqcn-sim: too many --set options\n");
				return 1;
			}
			overrides[n_overrides++] = optarg;
			break;
		case 'l':
			if (parse_u64(optarg, &v) || !v || v > RXE_CC_RATE_MAX_MBPS) {
				fprintf(stderr, "dcqcn-sim: line rate must be 1..%u Mb/s\n",
					RXE_CC_RATE_MAX_MBPS);
				return 1;
			}
			s.line_mbps = v;
			break;
		case 'd':
			if (parse_us(optarg, &s.duration_ns) || !s.duration_ns) {
				fprintf(stderr, "dcqcn-sim: bad duration \"%s\" (us)\n", optarg);
				return 1;
			}
			break;
		case 'c':
			if (n_patterns == (int)(sizeof(patterns) / sizeof(patterns[0]))) {
				fprintf(stderr, "dcqcn-sim: too many --cnp options\n");
				return 1;
			}
			patterns[n_patterns++] = optarg;
			break;
		case 'S':
			if (parse_us(optarg, &s.sample_ns) || !s.sample_ns) {
				fprintf(stderr, "dcqcn-sim: bad sample interval \"%s\" (us)\n",
					optarg);
				return 1;
			}
			break;
		case 'P':
			if (parse_u64(optarg, &v) || v < 64 || v > 65536) {
				fprintf(stderr, "dcqcn-sim: packet size must be 64..65536 bytes\n");
				return 1;
			}
			s.packet_bytes = v;
			break;
		case 'L':
			list_params();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dcqcn-sim: unexpected argument \"%s\"\n", argv[optind]);
		return 1;
	}
	/* Overrides apply on top of whichever preset was chosen. */
	for (i = 0; i < n_overrides; i++)
		if (param_override(&s.params, overrides[i]))
			return 1;
	bad = dcqcn_params_check(&s.params);
	if (bad >= 0) {
		fprintf(stderr, "dcqcn-sim: %s is out of range (%u..%u) or above max-rate\n",
			dcqcn_param_info[bad].key, dcqcn_param_info[bad].min,
			dcqcn_param_info[bad].max);
		return 1;
	}
	/* Patterns expand once the duration is known. */
	for (i = 0; i < n_patterns; i++)
		if (cnp_pattern(&s.cnps, patterns[i], s.duration_ns))
			return 1;
	simulate(&s);
	free(s.cnps.t_ns);
	return 0;
}
