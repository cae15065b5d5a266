/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files: a summary, a topology and a list of steps that the lab
 * runs in order. Grammar: scenarios/README.md.
 */
#ifndef BPFWIRE_LAB_SCENARIO_H
#define BPFWIRE_LAB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#define SCN_NAME_MAX	63
#define SCN_ID_MAX	31
#define SCN_MAX_STEPS	1024	/* the benchmark writes about 330 */

enum scn_op {
	SCN_EXEC,	/* exec HOST [expect N] -- CMD */
	SCN_SPAWN,	/* spawn ID HOST -- CMD */
	SCN_WAIT,	/* wait ID [expect N] [timeout S] */
	SCN_LINK,	/* link HOST IFACE up|down [bridge] */
	SCN_NETEM,	/* netem HOST IFACE ARGS... */
	SCN_TAPSTATS,	/* tapstats HOST IFACE FILE: the tap's counters */
	SCN_SLEEP,	/* sleep S [until HOST FILE] */
	SCN_REPORT,	/* report ID HOST FILE: a bpfwire-recv JSON summary */
	SCN_STATS,	/* stats ID HOST FILE: a bpfwire-agent status JSON */
	SCN_CHECK,	/* check A OP B: operands are ID.json.path or integers */
};

struct scn_step {
	enum scn_op op;
	int line;
	char host[SCN_ID_MAX + 1];
	char id[SCN_ID_MAX + 1];
	char iface[16];
	bool has_expect;
	int expect;		/* exit code for exec/wait; default 0 */
	int expect_signal;	/* instead: ended by this signal (wait/exec) */
	double seconds;		/* sleep length, wait timeout (0 = default) */
	bool up;		/* link */
	bool bridge;		/* link: bridge port instead of QMP set_link */
	char *text;		/* command, netem arguments, report file, check */
	char *lhs, *rhs;	/* check operands */
	char cmp[3];		/* check: == != <= >= < > */
};

struct scenario {
	char name[SCN_NAME_MAX + 1];
	char path[4096];
	char summary[256];
	char topology[SCN_NAME_MAX + 1];
	double timeout;		/* the whole scenario, seconds */
	unsigned series;	/* `series`: KSERIES_* (kseries.h); 0: not stated, any */
	unsigned needs;		/* `needs`: SCN_NEEDS_*; without the statement, ksock */
	int nsteps;
	struct scn_step steps[SCN_MAX_STEPS];
};

/* The kfunc families a scenario's steps use (`needs`), checked before boot. */
#define SCN_NEEDS_KSOCK		(1u << 0)
#define SCN_NEEDS_NETPOLL	(1u << 1)
#define SCN_NEEDS_STATED	(1u << 31)	/* `needs` was given ("none": this bit alone) */

#define SCN_DEFAULT_TIMEOUT	900.0
#define SCN_DEFAULT_WAIT	120.0

/*
 * Parse a scenario. The name is the file's base name. text may be NULL to
 * read path. On error return -1 with "file:line: what is wrong" in err.
 */
int scenario_parse(const char *path, const char *text, struct scenario *s,
		   char *err, size_t errlen);
void scenario_free(struct scenario *s);
const char *scenario_op_name(enum scn_op op);

/* The names ${NAME} may use, NULL-terminated; steps.c gives their values. */
extern const char *const scenario_vars[];

/*
 * Expand ${NAME} references in a step's text. lookup returns the value or
 * NULL for an unknown name, which is an error naming it. Returns a malloc'd
 * string or NULL with err set.
 */
char *scenario_expand(const char *text, const char *(*lookup)(const char *name, void *ctx),
		      void *ctx, char *err, size_t errlen);

#endif
