// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl's argument helpers: abbreviations, command tables and values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl.h"

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

int run_cmd(const char *obj, const struct rocectl_cmd *cmds, size_t n, const char *cmd,
	    struct nl *nl, int argc, char **argv)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (matches(cmd, cmds[i].name))
			return cmds[i].run(nl, argc, argv);
	fprintf(stderr, "rocectl: unknown command \"%s\" (", cmd);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", cmds[i].name);
	fprintf(stderr, "; rocectl %s help)\n", obj);
	return EXIT_USAGE;
}

int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "rocectl: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int parse_u32(const char *key, const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+')
		goto bad;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		goto bad;
	*v = x;
	return 0;
bad:
	fprintf(stderr, "rocectl: %s: \"%s\" is not a number\n", key, s ? s : "");
	return -1;
}

int parse_onoff(const char *key, const char *s, uint32_t *v)
{
	if (s && (!strcmp(s, "on") || !strcmp(s, "1"))) {
		*v = 1;
		return 0;
	}
	if (s && (!strcmp(s, "off") || !strcmp(s, "0"))) {
		*v = 0;
		return 0;
	}
	fprintf(stderr, "rocectl: %s: expected on or off, got \"%s\"\n", key, s ? s : "");
	return -1;
}
