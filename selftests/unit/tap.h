/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the host unit tests: the plan is printed last
 * ("1..N"), which TAP allows, so tests need no count kept by hand.
 */
#ifndef _RXE_CC_TAP_H
#define _RXE_CC_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline void tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
}

#define tap_is(got, want, name) do {						\
	uint64_t _g = (got), _w = (want);					\
	tap_ok(_g == _w, "%s", name);						\
	if (_g != _w)								\
		printf("#   %s: got %" PRIu64 ", want %" PRIu64 "\n", #got, _g, _w); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* _RXE_CC_TAP_H */
