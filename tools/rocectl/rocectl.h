/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rocectl's objects share: argument helpers (args.c), the reading of
 * rxe_cc's attributes (msg.c) and the command of each object (dev.c,
 * params.c, qp.c, monitor.c).
 */
#ifndef _ROCECTL_H
#define _ROCECTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/rxe_cc.h>

#include "nl.h"

/* -s: counters with every record. */
extern bool show_stats;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A limit from the uAPI as text: "0.." STR(RXE_CC_RATE_MAX_MBPS). */
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * One rule for words: objects and commands may be abbreviated, and an
 * abbreviation names the first that it begins in its table's order, as in
 * ip(8) ("d" is dev); keys and values are written in full.
 */

/* A command of an object: ARGC/ARGV are what follows it. */
struct rocectl_cmd {
	const char *name;
	int (*run)(struct nl *nl, int argc, char **argv);
};

/* args.c */
/* ARG abbreviates WORD: a non-empty prefix of it. */
bool matches(const char *arg, const char *word);
/*
 * Runs the command of CMDS (N of them) that CMD names; an unknown one is a
 * usage error that lists OBJ's commands.
 */
int run_cmd(const char *obj, const struct rocectl_cmd *cmds, size_t n, const char *cmd,
	    struct nl *nl, int argc, char **argv);
/* Prints "rocectl: " FMT and returns EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
/* Print why and return -1 when S is not a u32 / on or off. */
int parse_u32(const char *key, const char *s, uint32_t *v);
int parse_onoff(const char *key, const char *s, uint32_t *v);

/* msg.c */
/* Attributes of a message (by type, up to RXE_CC_A_MAX); -1 if no device. */
int parse_top(const struct nlmsghdr *nlh, struct nlattr **tb);
void parse_nested(const struct nlattr *nest, struct nlattr **tb, int max);
const char *dev_of(struct nlattr **tb);
void show_stats_nest(const struct nlattr *nest);

/*
 * OBJECT show [ dev DEV ] (or a bare DEV if BARE_DEV), for the objects
 * shown per device: dumps the devices and prints each through SHOW.
 */
int show_devs(struct nl *nl, int argc, char **argv, void (*show)(struct nlattr **tb),
	      bool bare_dev);

/*
 * Commands: ARGC/ARGV are what follows OBJECT COMMAND. Each returns the exit
 * code (0, EXIT_USAGE, EXIT_KERNEL).
 */
int cmd_dev(struct nl *nl, const char *cmd, int argc, char **argv);
int cmd_stats(struct nl *nl, const char *cmd, int argc, char **argv);
int cmd_dcqcn(struct nl *nl, const char *cmd, int argc, char **argv);
int cmd_np(struct nl *nl, const char *cmd, int argc, char **argv);
int cmd_qp(struct nl *nl, const char *cmd, int argc, char **argv);
int cmd_monitor(struct nl *nl, const char *cmd, int argc, char **argv);
/* NL is NULL when rxe_cc is not loaded: diagnose reads rxe's counters alone. */
int cmd_diagnose(struct nl *nl, const char *cmd, int argc, char **argv);

void help_dev(FILE *f);
void help_stats(FILE *f);
void help_dcqcn(FILE *f);
void help_np(FILE *f);
void help_qp(FILE *f);
void help_monitor(FILE *f);
void help_diagnose(FILE *f);

/* diagnose.c: the sysfs root it reads rxe's port counters under. */
extern const char *diag_sysfs;

/* peer.c: the QPs of FILE (rocectl -j -s qp show) into *QPS; prints why not. */
struct diag_qp;
int diag_read_peer(const char *file, struct diag_qp **qps, int *n);

/*
 * Requests that set something remember which key put each attribute, so
 * that the attribute the kernel blames is reported by the key the user
 * typed, with its range.
 */
struct key_at {
	uint32_t off;
	const char *key;
	const char *range;	/* "1..400000 Mb/s", or NULL */
};

struct set_req {
	struct nlmsghdr *nlh;
	struct key_at keys[64];
	int nkeys;
};

void put_u32_key(struct set_req *r, uint16_t type, uint32_t v, const char *key,
		 const char *range);
void put_u16_key(struct set_req *r, uint16_t type, uint16_t v, const char *key,
		 const char *range);
/* Sends a set; on failure prints the kernel's reason, naming the key. */
int set_talk(struct nl *nl, struct set_req *r, const char *what);

#endif /* _ROCECTL_H */
