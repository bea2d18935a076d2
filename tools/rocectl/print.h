/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer for text and JSON: commands describe what they show once,
 * as keys and values, and -j/-p choose the form. Keys are the same in both.
 */
#ifndef _ROCECTL_PRINT_H
#define _ROCECTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

void pr_init(bool json, bool pretty);
/* Whether the output is JSON: for commands whose text is not key-value. */
bool pr_json(void);
/* The list of records a command prints: a JSON array, lines of text. */
void pr_begin_list(void);
void pr_end_list(void);
/* A record (KEY NULL) or a named group of values inside one. */
void pr_open(const char *key);
void pr_close(void);
void pr_u64(const char *key, uint64_t value);
void pr_str(const char *key, const char *value);
void pr_bool(const char *key, bool value);
/* A rate in kb/s: JSON gives the number in Mb/s, text appends the unit. */
void pr_rate_kbps(const char *key, uint32_t kbps);
/* A time in ns, shown in seconds: to the ns in JSON, the us in text. */
void pr_time_ns(const char *key, uint64_t ns);
/* Ends a record of a stream (monitor): JSON lines, one object per line. */
void pr_stream_end_record(void);

#endif /* _ROCECTL_PRINT_H */
