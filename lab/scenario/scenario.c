// SPDX-License-Identifier: GPL-2.0-only
/* Scenario file parser; the grammar is in scenarios/README.md. */
#define _GNU_SOURCE
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "proc.h"
#include "topo/linegrammar.h"
#include "vm/kseries.h"

/* block NAME PARAM... / end: lines kept to be parsed as steps at each use. */
#define BLOCK_MAX	16
#define BLOCK_PARAMS	16
#define BLOCK_LINES	128

struct block {
	char name[SCN_ID_MAX + 1];
	int line;
	int nparams, nbody;
	char param[BLOCK_PARAMS][SCN_ID_MAX + 1];
	const char *body[BLOCK_LINES];	/* into the parser's copy of the file */
	int body_line[BLOCK_LINES];
};

struct pctx {
	struct lg_err e;
	int line;
	struct block *blocks, *open;	/* open: its body is being read */
	int nblocks;
};

static int fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lg_vfail(&c->e, c->line, fmt, ap);
	va_end(ap);
	return -1;
}

static int copy_name(struct pctx *c, char *dst, size_t len, const char *src,
		     const char *what)
{
	const char *p;

	if (!src || !*src)
		return fail(c, "missing %s", what);
	if (strlen(src) >= len)
		return fail(c, "%s '%s' is longer than %zu characters", what, src, len - 1);
	for (p = src; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			return fail(c, "%s '%s' has a character other than [A-Za-z0-9._-]", what, src);
	strcpy(dst, src);
	return 0;
}

/* FILE of tapstats, report, stats and sleep until: a name inside the host's results share. */
static int share_file(struct pctx *c, struct scn_step *st, const char *w, const char *kw)
{
	if (!w)
		return fail(c, "%s needs a file in the host's results share", kw);
	if (w[0] == '/' || strstr(w, ".."))
		return fail(c, "'%s' must be relative to the host's results share", w);
	st->text = strdup(w);
	return 0;
}

static int parse_seconds(struct pctx *c, const char *s, double *out, const char *what)
{
	char *end;
	double v;

	if (!s)
		return fail(c, "missing %s", what);
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0 || v > 86400)
		return fail(c, "%s '%s' is not a number of seconds", what, s);
	*out = v;
	return 0;
}

static int parse_code(struct pctx *c, const char *s, int *out);

/* "expect N" or "expect signal N" */
static int parse_expect(struct pctx *c, char **rest, struct scn_step *st)
{
	char *w = lg_word(rest);

	st->has_expect = true;
	if (w && strcmp(w, "signal") == 0) {
		if (parse_code(c, lg_word(rest), &st->expect_signal))
			return -1;
		if (st->expect_signal < 1 || st->expect_signal > 64)
			return fail(c, "signal %d is not in 1..64", st->expect_signal);
		return 0;
	}
	return parse_code(c, w, &st->expect);
}

static int parse_code(struct pctx *c, const char *s, int *out)
{
	char *end;
	long v;

	if (!s)
		return fail(c, "'expect' needs an exit code");
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > 255)
		return fail(c, "exit code '%s' is not in 0..255", s);
	*out = (int)v;
	return 0;
}

/* "[expect N] -- CMD": the command is everything after the first " -- ". */
static int parse_command(struct pctx *c, char *rest, struct scn_step *st)
{
	char *sep = strstr(rest, "--"), *w;

	while (sep && !((sep == rest || isspace((unsigned char)sep[-1])) &&
			(sep[2] == '\0' || isspace((unsigned char)sep[2]))))
		sep = strstr(sep + 2, "--");
	if (!sep)
		return fail(c, "%s needs '-- COMMAND'", scenario_op_name(st->op));
	*sep = '\0';
	while ((w = lg_word(&rest))) {
		if (strcmp(w, "expect") == 0 && st->op == SCN_EXEC) {
			if (parse_expect(c, &rest, st))
				return -1;
		} else {
			return fail(c, "unexpected '%s' before '--'", w);
		}
	}
	w = lg_trim(sep + 2);
	if (!*w)
		return fail(c, "empty command after '--'");
	st->text = strdup(w);
	return st->text ? 0 : fail(c, "out of memory");
}

static const struct scn_step *find_spawn(const struct scenario *s, const char *id)
{
	for (int i = 0; i < s->nsteps; i++)
		if (s->steps[i].op == SCN_SPAWN && strcmp(s->steps[i].id, id) == 0)
			return &s->steps[i];
	return NULL;
}

/* Spawns name processes, reports name JSON files: two separate namespaces. */
static bool id_taken(const struct scenario *s, enum scn_op op, const char *id)
{
	bool spawn = op == SCN_SPAWN;

	for (int i = 0; i < s->nsteps; i++) {
		const struct scn_step *st = &s->steps[i];

		if ((st->op == SCN_SPAWN) == spawn &&
		    (st->op == SCN_SPAWN || st->op == SCN_REPORT || st->op == SCN_STATS) &&
		    strcmp(st->id, id) == 0)
			return true;
	}
	return false;
}

/* An integer, or ID.path where ID names an earlier report or stats step. */
static int check_operand(struct pctx *c, const struct scenario *s, const char *x)
{
	char id[SCN_ID_MAX + 1], *end;
	const char *dot;

	errno = 0;
	strtoll(x, &end, 10);
	if (end != x && !*end)
		return errno ? fail(c, "'%s' does not fit in a 64-bit integer", x) : 0;
	dot = strchr(x, '.');
	if (!dot || dot == x || !dot[1] || (size_t)(dot - x) > SCN_ID_MAX)
		return fail(c, "'%s' is neither an integer nor ID.path", x);
	memcpy(id, x, dot - x);
	id[dot - x] = '\0';
	for (int i = 0; i < s->nsteps; i++)
		if ((s->steps[i].op == SCN_REPORT || s->steps[i].op == SCN_STATS) &&
		    strcmp(s->steps[i].id, id) == 0)
			return 0;
	return fail(c, "'%s' names no earlier report or stats '%s'", x, id);
}

/* check LEFT OP RIGHT, where LEFT and RIGHT are each OPERAND [(+|-) OPERAND]... */
static int parse_check(struct pctx *c, struct scenario *s, struct scn_step *st, char *rest)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
	char side[2][256] = { "", "" }, *w;
	const char *op = NULL;
	int n[2] = { 0, 0 }, k2 = 0;
	size_t k;

	while ((w = lg_word(&rest))) {
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			if (strcmp(w, ops[k]) == 0)
				break;
		if (k < sizeof(ops) / sizeof(ops[0])) {
			if (op || !n[0])
				return fail(c, "check needs 'LEFT OP RIGHT', e.g. 'check rx.valid == 60'");
			op = ops[k];
			k2 = 1;
			continue;
		}
		if (n[k2] % 2) {
			if (strcmp(w, "+") && strcmp(w, "-")) {
				if (!op && strpbrk(w, "=<>!~"))
					return fail(c, "unknown comparison '%s' (use == != <= >= < >)", w);
				return fail(c, "expected + or - or the end of the line, not '%s'", w);
			}
		} else if (check_operand(c, s, w)) {
			return -1;
		}
		if (strlen(side[k2]) + strlen(w) + 2 > sizeof(side[k2]))
			return fail(c, "check operand too long");
		if (n[k2]++)
			strcat(side[k2], " ");
		strcat(side[k2], w);
	}
	if (!op || !n[0] || !n[1])
		return fail(c, "check needs 'LEFT OP RIGHT', e.g. 'check rx.valid == 60'");
	if (!(n[0] % 2) || !(n[1] % 2))
		return fail(c, "check: '%s' ends without an operand", !(n[0] % 2) ? side[0] : side[1]);
	strcpy(st->cmp, op);
	st->lhs = strdup(side[0]);
	st->rhs = strdup(side[1]);
	if (asprintf(&st->text, "%s %s %s", side[0], op, side[1]) < 0)
		return fail(c, "out of memory");
	return 0;
}

/* The step at s->nsteps; counted (and so later freed) only once it is whole. */
static int parse_step_fields(struct pctx *c, struct scenario *s, struct scn_step *st, const char *kw, char *rest)
{
	char *w;

	if (strcmp(kw, "exec") == 0) {
		st->op = SCN_EXEC;
		if (copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host"))
			return -1;
		if (parse_command(c, rest, st))
			return -1;
	} else if (strcmp(kw, "spawn") == 0) {
		st->op = SCN_SPAWN;
		if (copy_name(c, st->id, sizeof(st->id), lg_word(&rest), "spawn id") ||
		    copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host"))
			return -1;
		if (id_taken(s, st->op, st->id))
			return fail(c, "id '%s' is already used", st->id);
		if (parse_command(c, rest, st))
			return -1;
	} else if (strcmp(kw, "wait") == 0) {
		st->op = SCN_WAIT;
		if (copy_name(c, st->id, sizeof(st->id), lg_word(&rest), "spawn id"))
			return -1;
		if (!find_spawn(s, st->id))
			return fail(c, "wait for '%s', which no earlier spawn started", st->id);
		st->seconds = SCN_DEFAULT_WAIT;
		while ((w = lg_word(&rest))) {
			if (strcmp(w, "expect") == 0) {
				if (parse_expect(c, &rest, st))
					return -1;
			} else if (strcmp(w, "timeout") == 0) {
				if (parse_seconds(c, lg_word(&rest), &st->seconds, "timeout"))
					return -1;
			} else {
				return fail(c, "unknown wait option '%s'", w);
			}
		}
	} else if (strcmp(kw, "link") == 0) {
		st->op = SCN_LINK;
		if (copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host") ||
		    copy_name(c, st->iface, sizeof(st->iface), lg_word(&rest), "interface"))
			return -1;
		w = lg_word(&rest);
		if (!w || (strcmp(w, "up") && strcmp(w, "down")))
			return fail(c, "link needs 'up' or 'down'");
		st->up = strcmp(w, "up") == 0;
		w = lg_word(&rest);
		if (w && strcmp(w, "bridge") == 0)
			st->bridge = true;
		else if (w)
			return fail(c, "unknown link option '%s'", w);
	} else if (strcmp(kw, "netem") == 0) {
		st->op = SCN_NETEM;
		if (copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host") ||
		    copy_name(c, st->iface, sizeof(st->iface), lg_word(&rest), "interface"))
			return -1;
		rest = lg_trim(rest);
		if (!*rest)
			return fail(c, "netem needs arguments (e.g. 'loss 5%%' or 'off')");
		st->text = strdup(rest);
	} else if (strcmp(kw, "tapstats") == 0) {
		st->op = SCN_TAPSTATS;
		if (copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host") ||
		    copy_name(c, st->iface, sizeof(st->iface), lg_word(&rest), "interface"))
			return -1;
		w = lg_word(&rest);
		if (!w || lg_word(&rest))
			return fail(c, "tapstats needs one file in the host's results share");
		if (share_file(c, st, w, "tapstats"))
			return -1;
	} else if (strcmp(kw, "sleep") == 0) {
		st->op = SCN_SLEEP;
		if (parse_seconds(c, lg_word(&rest), &st->seconds, "sleep"))
			return -1;
		w = lg_word(&rest);
		if (w && strcmp(w, "until") == 0) {
			if (copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host") ||
			    share_file(c, st, lg_word(&rest), "sleep until"))
				return -1;
		} else if (w) {
			return fail(c, "unexpected '%s' at end of line", w);
		}
	} else if (strcmp(kw, "report") == 0 || strcmp(kw, "stats") == 0) {
		st->op = kw[0] == 'r' ? SCN_REPORT : SCN_STATS;
		if (copy_name(c, st->id, sizeof(st->id), lg_word(&rest), "id") ||
		    copy_name(c, st->host, sizeof(st->host), lg_word(&rest), "host"))
			return -1;
		if (id_taken(s, st->op, st->id))
			return fail(c, "id '%s' is already used", st->id);
		if (share_file(c, st, lg_word(&rest), kw))
			return -1;
	} else if (strcmp(kw, "check") == 0) {
		st->op = SCN_CHECK;
		if (parse_check(c, s, st, rest))
			return -1;
	} else {
		return fail(c, "unknown keyword '%s'", kw);
	}
	if ((st->op == SCN_LINK || st->op == SCN_SLEEP || st->op == SCN_WAIT ||
	     st->op == SCN_REPORT || st->op == SCN_STATS) && (w = lg_word(&rest)))
		return fail(c, "unexpected '%s' at end of line", w);
	return 0;
}

static int parse_step(struct pctx *c, struct scenario *s, const char *kw, char *rest)
{
	struct scn_step *st;

	if (s->nsteps >= SCN_MAX_STEPS)
		return fail(c, "more than %d steps", SCN_MAX_STEPS);
	st = &s->steps[s->nsteps];
	memset(st, 0, sizeof(*st));
	st->line = c->line;
	if (parse_step_fields(c, s, st, kw, rest)) {
		/* a refused step is not counted: what it copied goes here */
		free(st->text);
		free(st->lhs);
		free(st->rhs);
		memset(st, 0, sizeof(*st));
		return -1;
	}
	s->nsteps++;
	return 0;
}

const char *const scenario_vars[] = { "BUILD", "SRC", "SHARE", "HOST", "RUN", "KSOCK_API", NULL };

static const char *known_var(const char *name, void *ctx)
{
	(void)ctx;
	for (int i = 0; scenario_vars[i]; i++)
		if (!strcmp(name, scenario_vars[i]))
			return "";
	return NULL;
}

/* Every ${NAME} a step will expand must exist: found here, not after boot. */
static int check_vars(struct pctx *c, const struct scn_step *st)
{
	char why[256], *x;

	if (!st->text || st->op == SCN_CHECK)
		return 0;
	x = scenario_expand(st->text, known_var, NULL, why, sizeof(why));
	free(x);
	return x ? 0 : fail(c, "%s", why);
}

/* The whole file, refusing a NUL byte (a line would silently end there). */
static char *read_scenario(struct pctx *c, char *err, size_t errlen)
{
	FILE *f = fopen(c->e.path, "r");
	size_t len = 0, cap = 0, n;
	char *buf = NULL, *nul, *tmp;

	if (!f) {
		snprintf(err, errlen, "%s: %s", c->e.path, errno_str(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			tmp = realloc(buf, cap);
			if (!tmp) {
				snprintf(err, errlen, "%s: out of memory", c->e.path);
				goto fail;
			}
			buf = tmp;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", c->e.path, errno_str(errno));
		goto fail;
	}
	buf[len] = '\0';
	nul = memchr(buf, '\0', len);
	if (nul) {
		c->line = 1;
		for (char *p = buf; p < nul; p++)
			c->line += *p == '\n';
		fail(c, "a NUL byte");
		goto fail;
	}
	fclose(f);
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

/* series NAME...: the kernel series (kseries.h) the scenario applies to. */
static int parse_series(struct pctx *c, struct scenario *s, char *rest)
{
	char *w;

	if (s->series)
		return fail(c, "a second 'series'");
	while ((w = lg_word(&rest))) {
		unsigned one = kseries_parse(w);

		if (!one)
			return fail(c, "unknown series '%s': seed or upstream", w);
		if (s->series & one)
			return fail(c, "series '%s' twice", w);
		s->series |= one;
	}
	if (!s->series)
		return fail(c, "'series' needs seed, upstream or both");
	return 0;
}

/*
 * needs ksock|netpoll...|none: the kfunc families the steps use, so that a
 * kernel without them (kapi/) is SKIP before boot. Without it, ksock.
 */
static int parse_needs(struct pctx *c, struct scenario *s, char *rest)
{
	bool none = false, any = false;
	char *w;

	if (s->needs)
		return fail(c, "a second 'needs'");
	s->needs = SCN_NEEDS_STATED;
	while ((w = lg_word(&rest))) {
		unsigned one = !strcmp(w, "ksock") ? SCN_NEEDS_KSOCK :
			       !strcmp(w, "netpoll") ? SCN_NEEDS_NETPOLL : 0;

		if (!strcmp(w, "none"))
			none = true;
		else if (!one)
			return fail(c, "unknown need '%s': ksock, netpoll or none", w);
		else if (s->needs & one)
			return fail(c, "need '%s' twice", w);
		any = any || one;
		s->needs |= one;
	}
	if (none == any)
		return fail(c, "'needs' takes ksock, netpoll, both, or none alone");
	return 0;
}

/* A block's parameter: a lowercase letter, then a-z, 0-9, _ (${NAME}s are uppercase). */
static bool param_name(const char *w)
{
	if (!islower((unsigned char)w[0]) || strlen(w) > SCN_ID_MAX)
		return false;
	for (; *w; w++)
		if (!islower((unsigned char)*w) && !isdigit((unsigned char)*w) && *w != '_')
			return false;
	return true;
}

static bool first_word_is(const char *line, const char *kw)
{
	size_t n = strlen(kw);

	return !strncmp(line, kw, n) && (!line[n] || isspace((unsigned char)line[n]));
}

/* "block NAME PARAM...": the lines up to "end" are its body. */
static int open_block(struct pctx *c, char *rest)
{
	struct block *b;
	char *w = lg_word(&rest);

	if (c->nblocks == BLOCK_MAX)
		return fail(c, "more than %d blocks", BLOCK_MAX);
	b = &c->blocks[c->nblocks];
	memset(b, 0, sizeof(*b));
	if (copy_name(c, b->name, sizeof(b->name), w, "block name"))
		return -1;
	for (int i = 0; i < c->nblocks; i++)
		if (!strcmp(c->blocks[i].name, b->name))
			return fail(c, "a second block '%s' (the first is at line %d)", b->name, c->blocks[i].line);
	while ((w = lg_word(&rest))) {
		if (!param_name(w))
			return fail(c, "parameter '%s' of block '%s' is not a lowercase letter and then a-z, 0-9, _ (at most %d)",
				    w, b->name, SCN_ID_MAX);
		for (int i = 0; i < b->nparams; i++)
			if (!strcmp(b->param[i], w))
				return fail(c, "parameter '%s' twice in block '%s'", w, b->name);
		if (b->nparams == BLOCK_PARAMS)
			return fail(c, "block '%s' has more than %d parameters", b->name, BLOCK_PARAMS);
		strcpy(b->param[b->nparams++], w);
	}
	b->line = c->line;
	c->nblocks++;
	c->open = b;
	return 0;
}

/*
 * text with each ${PARAM} of b replaced by its value (values NULL: by
 * nothing, used marks the parameters seen); any other ${NAME} stays for
 * scenario_expand. A lowercase ${name} that is no parameter is an error.
 */
static char *bind(struct pctx *c, const struct block *b, const char *text, char *const *values,
		  bool *used)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f) {
		fail(c, "out of memory");
		return NULL;
	}
	for (const char *p = text; *p;) {
		const char *end = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
		int k = -1;

		for (k = end ? b->nparams - 1 : -1; k >= 0; k--)
			if (strlen(b->param[k]) == (size_t)(end - p - 2) && !strncmp(p + 2, b->param[k], end - p - 2))
				break;
		if (end && k < 0 && islower((unsigned char)p[2])) {
			fclose(f);
			free(out);
			fail(c, "'%.*s' is no parameter of block '%s'", (int)(end - p + 1), p, b->name);
			return NULL;
		}
		if (k < 0) {
			fputc(*p++, f);
			continue;
		}
		if (used)
			used[k] = true;
		fputs(values ? values[k] : "", f);
		p = end + 1;
	}
	if (fclose(f)) {
		free(out);
		fail(c, "out of memory");
		return NULL;
	}
	return out;
}

/* A line inside an open block: kept for its uses, or "end". */
static int block_line(struct pctx *c, char *line)
{
	struct block *b = c->open;
	bool used[BLOCK_PARAMS] = { false };
	int at = c->line;

	if (first_word_is(line, "block") || first_word_is(line, "use"))
		return fail(c, "'%.*s' inside block '%s' (line %d): a block holds steps only",
			    (int)strcspn(line, " \t"), line, b->name, b->line);
	if (!first_word_is(line, "end")) {
		if (b->nbody == BLOCK_LINES)
			return fail(c, "block '%s' has more than %d lines", b->name, BLOCK_LINES);
		b->body[b->nbody] = line;
		b->body_line[b->nbody++] = c->line;
		return 0;
	}
	if (strcmp(line, "end"))
		return fail(c, "'end' takes nothing after it");
	if (!b->nbody)
		return fail(c, "block '%s' has no steps", b->name);
	for (int i = 0; i < b->nbody; i++) {
		char *x;

		c->line = b->body_line[i];
		x = bind(c, b, b->body[i], NULL, used);
		free(x);
		if (!x)
			return -1;
	}
	c->line = b->line;
	for (int i = 0; i < b->nparams; i++)
		if (!used[i])
			return fail(c, "parameter '%s' of block '%s' is never used in it", b->param[i], b->name);
	c->line = at;
	c->open = NULL;
	return 0;
}

/* "use NAME VALUE...": the block's steps here, each parameter its value. */
static int use_block(struct pctx *c, struct scenario *s, char *rest)
{
	char *w = lg_word(&rest), *values[BLOCK_PARAMS], params[BLOCK_PARAMS * (SCN_ID_MAX + 1)] = "";
	char within[SCN_ID_MAX + 64];
	const struct block *b = NULL;
	int n = 0, ret = 0;

	if (!w)
		return fail(c, "'use' needs a block name");
	for (int i = 0; i < c->nblocks; i++)
		if (!strcmp(c->blocks[i].name, w))
			b = &c->blocks[i];
	if (!b)
		return fail(c, "no block '%s' before this line", w);
	while ((w = lg_word(&rest))) {
		if (n < BLOCK_PARAMS)
			values[n] = w;
		n++;
	}
	if (n != b->nparams) {
		for (int i = 0; i < b->nparams; i++)
			strcat(strcat(params, i ? " " : ""), b->param[i]);
		return fail(c, "block '%s' takes %d value%s (%s), not %d", b->name, b->nparams,
			    b->nparams == 1 ? "" : "s", params, n);
	}
	for (int i = 0; i < b->nbody && !ret; i++) {
		char *text = bind(c, b, b->body[i], values, NULL), *words = text, *kw;

		if (!text)
			return -1;
		/* an error in a step of the block: at this line, naming the block's */
		snprintf(within, sizeof(within), "block '%s' line %d: ", b->name, b->body_line[i]);
		c->e.within = within;
		kw = lg_word(&words);
		ret = parse_step(c, s, kw, words) || check_vars(c, &s->steps[s->nsteps - 1]) ? -1 : 0;
		c->e.within = NULL;
		free(text);
	}
	return ret;
}

/* What the whole file must have once every line is read. */
static int check_whole(struct pctx *c, const struct scenario *s)
{
	bool judged = false;

	c->line = 1;
	if (!s->summary[0])
		return fail(c, "missing 'summary TEXT' (one line saying what the scenario teaches)");
	if (!s->topology[0])
		return fail(c, "missing 'topology NAME'");
	if (!s->nsteps)
		return fail(c, "no steps");
	for (int i = 0; i < s->nsteps; i++)
		judged |= s->steps[i].op == SCN_CHECK || s->steps[i].op == SCN_REPORT;
	if (!judged)
		return fail(c, "no 'check' or 'report': nothing would judge the run");
	return 0;
}

int scenario_parse(const char *path, const char *text, struct scenario *s,
		   char *err, size_t errlen)
{
	struct pctx c = { .e = { .path = path, .err = err, .errlen = errlen } };
	char *buf = NULL, *line, *next, *base;
	bool has_timeout = false;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	s->timeout = SCN_DEFAULT_TIMEOUT;
	snprintf(s->path, sizeof(s->path), "%s", path);
	base = strrchr(path, '/');
	base = base ? base + 1 : (char *)path;
	if (copy_name(&c, s->name, sizeof(s->name), base, "scenario name"))
		return -1;

	if (text) {
		buf = strdup(text);
		if (!buf)
			snprintf(err, errlen, "%s: out of memory", path);
	} else {
		buf = read_scenario(&c, err, errlen);
	}
	c.blocks = buf ? calloc(BLOCK_MAX, sizeof(*c.blocks)) : NULL;
	if (buf && !c.blocks) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(buf);
		buf = NULL;
	}
	if (!buf)
		return -1;
	c.line = 0;

	for (line = buf; line; line = next) {
		char *kw, *rest;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		c.line++;
		rest = lg_trim(line);
		if (!*rest || *rest == '#')
			continue;
		if (c.open) {
			if (block_line(&c, rest))
				goto out;
			continue;
		}
		kw = lg_word(&rest);
		if (strcmp(kw, "summary") == 0) {
			rest = lg_trim(rest);
			if (!*rest) {
				fail(&c, "'summary' needs a line of text");
				goto out;
			}
			if (s->summary[0]) {
				fail(&c, "a second 'summary'");
				goto out;
			}
			if (strlen(rest) >= sizeof(s->summary)) {
				fail(&c, "'summary' is longer than %zu characters", sizeof(s->summary) - 1);
				goto out;
			}
			strcpy(s->summary, rest);
		} else if (strcmp(kw, "topology") == 0) {
			if (s->topology[0]) {
				fail(&c, "a second 'topology'");
				goto out;
			}
			if (copy_name(&c, s->topology, sizeof(s->topology), lg_word(&rest), "topology"))
				goto out;
		} else if (strcmp(kw, "series") == 0) {
			if (parse_series(&c, s, rest))
				goto out;
		} else if (strcmp(kw, "needs") == 0) {
			if (parse_needs(&c, s, rest))
				goto out;
		} else if (strcmp(kw, "timeout") == 0) {
			if (has_timeout) {
				fail(&c, "a second 'timeout'");
				goto out;
			}
			has_timeout = true;
			if (parse_seconds(&c, lg_word(&rest), &s->timeout, "timeout"))
				goto out;
		} else if (strcmp(kw, "block") == 0) {
			if (open_block(&c, rest))
				goto out;
		} else if (strcmp(kw, "end") == 0) {
			fail(&c, "'end' without a 'block'");
			goto out;
		} else if (strcmp(kw, "use") == 0) {
			if (use_block(&c, s, rest))
				goto out;
		} else if (parse_step(&c, s, kw, rest) ||
			   check_vars(&c, &s->steps[s->nsteps - 1])) {
			goto out;
		}
	}
	if (c.open) {
		c.line = c.open->line;
		fail(&c, "block '%s' has no 'end'", c.open->name);
		goto out;
	}
	if (check_whole(&c, s))
		goto out;
	ret = 0;
out:
	free(c.blocks);
	free(buf);
	if (ret)
		scenario_free(s);
	return ret;
}

void scenario_free(struct scenario *s)
{
	for (int i = 0; i < s->nsteps; i++) {
		free(s->steps[i].text);
		free(s->steps[i].lhs);
		free(s->steps[i].rhs);
		s->steps[i].text = s->steps[i].lhs = s->steps[i].rhs = NULL;
	}
	s->nsteps = 0;
}

const char *scenario_op_name(enum scn_op op)
{
	static const char *const names[] = {
		[SCN_EXEC] = "exec", [SCN_SPAWN] = "spawn", [SCN_WAIT] = "wait",
		[SCN_LINK] = "link", [SCN_NETEM] = "netem", [SCN_TAPSTATS] = "tapstats", [SCN_SLEEP] = "sleep",
		[SCN_REPORT] = "report", [SCN_STATS] = "stats", [SCN_CHECK] = "check",
	};

	return (unsigned)op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

char *scenario_expand(const char *text, const char *(*lookup)(const char *name, void *ctx),
		      void *ctx, char *err, size_t errlen)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);
	const char *p = text;

	if (!out) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	while (*p) {
		const char *val, *end;
		char name[64];
		size_t vlen;

		if (p[0] != '$' || p[1] != '{') {
			out[len++] = *p++;
			continue;
		}
		end = strchr(p + 2, '}');
		if (!end || (size_t)(end - p - 2) >= sizeof(name) || end == p + 2) {
			snprintf(err, errlen, "unterminated or empty ${...} in '%s'", text);
			free(out);
			return NULL;
		}
		memcpy(name, p + 2, end - p - 2);
		name[end - p - 2] = '\0';
		val = lookup(name, ctx);
		if (!val) {
			snprintf(err, errlen, "unknown variable ${%s}", name);
			free(out);
			return NULL;
		}
		vlen = strlen(val);
		if (len + vlen + strlen(end + 1) + 1 > cap) {
			char *n;

			cap = len + vlen + strlen(end + 1) + 1;
			n = realloc(out, cap);
			if (!n) {
				free(out);
				snprintf(err, errlen, "out of memory");
				return NULL;
			}
			out = n;
		}
		memcpy(out + len, val, vlen);
		len += vlen;
		p = end + 1;
	}
	out[len] = '\0';
	return out;
}
