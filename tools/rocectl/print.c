// SPDX-License-Identifier: GPL-2.0
/*
 * Text and JSON output for rocectl.
 */
#include <inttypes.h>
#include <stdio.h>

#include "print.h"

#define PR_MAX_DEPTH 8

static bool json, pretty;
static int depth;
static bool first[PR_MAX_DEPTH];	/* nothing printed yet at this depth */

void pr_init(bool want_json, bool want_pretty)
{
	json = want_json;
	pretty = want_pretty;
	first[0] = true;
}

bool pr_json(void)
{
	return json;
}

static void indent(void)
{
	int i;

	if (!pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

/* JSON: the separator and key before a value; text: the key. */
static void key(const char *k)
{
	if (json) {
		if (!first[depth])
			putchar(',');
		first[depth] = false;
		indent();
		if (k)
			printf(pretty ? "\"%s\": " : "\"%s\":", k);
		return;
	}
	if (!first[depth])
		putchar(' ');
	first[depth] = false;
	if (k)
		printf("%s ", k);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

void pr_begin_list(void)
{
	depth = 0;
	first[0] = true;
	if (json)
		putchar('[');
}

void pr_end_list(void)
{
	if (json) {
		if (pretty && !first[0])
			putchar('\n');
		puts("]");
	}
}

void pr_open(const char *k)
{
	if (json) {
		key(k);
		putchar('{');
	} else if (k) {
		/* A group goes on its own indented line in text. */
		printf("\n%*s%s:", depth * 4 + 4, "", k);
	}
	if (depth < PR_MAX_DEPTH - 1)
		depth++;
	first[depth] = true;
	if (!json && k)
		first[depth] = false;
}

void pr_close(void)
{
	bool empty = first[depth];

	if (depth > 0)
		depth--;
	if (json) {
		if (pretty && !empty) {
			indent();
		}
		putchar('}');
	} else if (depth == 0) {
		putchar('\n');
	}
	if (!json && depth == 0)
		first[0] = true;
}

void pr_u64(const char *k, uint64_t value)
{
	key(k);
	printf("%" PRIu64, value);
}

void pr_str(const char *k, const char *value)
{
	key(k);
	if (json)
		json_string(value);
	else
		fputs(value, stdout);
}

void pr_bool(const char *k, bool value)
{
	key(k);
	if (json)
		fputs(value ? "true" : "false", stdout);
	else
		fputs(value ? "on" : "off", stdout);
}

void pr_rate_kbps(const char *k, uint32_t kbps)
{
	key(k);
	if (json)
		printf("%u.%03u", kbps / 1000, kbps % 1000);
	else if (kbps % 1000)
		printf("%u.%03uMbit", kbps / 1000, kbps % 1000);
	else
		printf("%uMbit", kbps / 1000);
}

void pr_time_ns(const char *k, uint64_t ns)
{
	key(k);
	if (json)
		printf("%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
	else
		printf("%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

void pr_stream_end_record(void)
{
	if (json)
		putchar('\n');
	first[0] = true;
	fflush(stdout);
}
