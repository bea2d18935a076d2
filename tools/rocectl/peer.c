// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl diagnose peer FILE: the other host's QPs, as its
 * `rocectl -j -s qp show` printed them. A small JSON reader for that one
 * shape: an array of objects, each with dev, qpn, remote-qpn, peer and a
 * stats object of counters by name; other keys are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rocectl.h"
#include "rxe_cc_names.h"

#define PEER_MAX_BYTES (64 << 20)
#define PEER_MAX_DEPTH 16

struct reader {
	const char *p, *end;
};

static void ws(struct reader *r)
{
	while (r->p < r->end && strchr(" \t\r\n", *r->p))
		r->p++;
}

static bool eat(struct reader *r, char c)
{
	ws(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return true;
	}
	return false;
}

/* A string into OUT (LEN bytes, cut if longer); escapes other than \" and \\ become '?'. */
static int string(struct reader *r, char *out, size_t len)
{
	size_t n = 0;

	if (!eat(r, '"'))
		return -1;
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;

		if (c == '\\') {
			if (r->p >= r->end)
				return -1;
			c = *r->p++;
			if (c == 'u') {
				if (r->end - r->p < 4)
					return -1;
				r->p += 4;
				c = '?';
			} else if (c != '"' && c != '\\') {
				c = '?';
			}
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = '\0';
	return eat(r, '"') ? 0 : -1;
}

/* A number: counters are integers, rates have decimals (kept whole). */
static int number(struct reader *r, uint64_t *v)
{
	char *end;
	double d;

	ws(r);
	if (r->p >= r->end || !strchr("-0123456789", *r->p))
		return -1;
	d = strtod(r->p, &end);
	if (end == r->p || end > r->end)
		return -1;
	r->p = end;
	*v = d < 0 ? 0 : d > 1.8e19 ? UINT64_MAX : (uint64_t)d;
	return 0;
}

static int skip(struct reader *r, int depth)
{
	char scratch[8];
	uint64_t v;

	if (depth > PEER_MAX_DEPTH)
		return -1;
	ws(r);
	if (r->p >= r->end)
		return -1;
	if (*r->p == '"')
		return string(r, scratch, 0);
	if (eat(r, '{') || eat(r, '[')) {
		char close = r->p[-1] == '{' ? '}' : ']';

		if (eat(r, close))
			return 0;
		do {
			if (close == '}' && (string(r, scratch, 0) || !eat(r, ':')))
				return -1;
			if (skip(r, depth + 1))
				return -1;
		} while (eat(r, ','));
		return eat(r, close) ? 0 : -1;
	}
	if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "null", 4)) {
		r->p += 4;
		return 0;
	}
	if (!strncmp(r->p, "false", 5)) {
		r->p += 5;
		return 0;
	}
	return number(r, &v);
}

static int stat_by_name(const char *name)
{
	int i;

	for (i = 1; i <= RXE_CC_A_STAT_MAX; i++)
		if (rxe_cc_stat_name(i) && !strcmp(rxe_cc_stat_name(i), name))
			return i;
	return 0;
}

static int stats(struct reader *r, struct diag_qp *q, bool *seen)
{
	char key[64];
	uint64_t v;
	int i;

	if (!eat(r, '{'))
		return -1;
	if (eat(r, '}'))
		return 0;
	do {
		if (string(r, key, sizeof(key)) || !eat(r, ':') || number(r, &v))
			return -1;
		i = stat_by_name(key);
		if (i) {
			q->stat[i] = v;
			*seen = true;
		}
	} while (eat(r, ','));
	return eat(r, '}') ? 0 : -1;
}

static int qp(struct reader *r, struct diag_qp *q, bool *has_stats)
{
	char key[64];
	uint64_t v;
	int err;

	memset(q, 0, sizeof(*q));
	if (!eat(r, '{'))
		return -1;
	if (eat(r, '}'))
		return 0;
	do {
		if (string(r, key, sizeof(key)) || !eat(r, ':'))
			return -1;
		if (!strcmp(key, "dev")) {
			err = string(r, q->dev, sizeof(q->dev));
		} else if (!strcmp(key, "peer")) {
			err = string(r, q->peer, sizeof(q->peer));
		} else if (!strcmp(key, "qpn") || !strcmp(key, "remote-qpn")) {
			err = number(r, &v) || v > UINT32_MAX;
			if (key[0] == 'q') {
				q->qpn = v;
			} else {
				q->remote_qpn = v;
				q->remote_known = true;
			}
		} else if (!strcmp(key, "stats")) {
			err = stats(r, q, has_stats);
		} else {
			err = skip(r, 1);
		}
		if (err)
			return -1;
	} while (eat(r, ','));
	return eat(r, '}') ? 0 : -1;
}

static int parse(struct reader *r, struct diag_qp **qps, int *n)
{
	bool has_stats = false;
	struct diag_qp q;
	int size = 0;

	if (!eat(r, '['))
		return -1;
	if (!eat(r, ']')) {
		do {
			if (qp(r, &q, &has_stats))
				return -1;
			if (*n == size) {
				size = size ? 2 * size : 16;
				*qps = realloc(*qps, size * sizeof(**qps));
				if (!*qps)
					return -1;
			}
			(*qps)[(*n)++] = q;
		} while (eat(r, ','));
		if (!eat(r, ']'))
			return -1;
	}
	ws(r);
	return r->p == r->end && has_stats ? 0 : -1;
}

int diag_read_peer(const char *file, struct diag_qp **qps, int *n)
{
	struct reader r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "rocectl: peer: %s: %m\n", file);
		return -1;
	}
	buf = malloc(PEER_MAX_BYTES);
	if (buf)
		len = fread(buf, 1, PEER_MAX_BYTES, f);
	fclose(f);
	r.p = buf;
	r.end = buf + len;
	*qps = NULL;
	*n = 0;
	err = !buf || len == PEER_MAX_BYTES || parse(&r, qps, n);
	if (err)
		fprintf(stderr,
			"rocectl: peer: %s is not the output of rocectl -j -s qp show (at byte %zd)\n",
			file, buf ? (ssize_t)(r.p - buf) : 0);
	free(buf);
	if (err) {
		free(*qps);
		*qps = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
