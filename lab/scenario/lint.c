// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-lab check: lint scenarios without booting (lint.h). */
#define _GNU_SOURCE
#include "lint.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "file.h"
#include "lab-config.h"
#include "runner.h"
#include "scenario.h"
#include "topo/topo_parse.h"
#include "topo/topology.h"
#include "vm/model.h"

/* Who wrote a report's or stats' FILE, as far as the commands tell. */
enum writer {
	W_NONE,		/* no earlier step names it */
	W_OTHER,	/* jq, a script, send_wire: no field list */
	W_TAP,		/* tapstats: ip -s -j link */
	W_RECV,		/* bpfwire-recv --json */
	W_AGENT,	/* bpfwire-agent status --json */
};

struct lint {
	const char *path;
	char *text;		/* the file, lines replaced as errors are found */
	struct scenario *s;
	bool *skip;		/* by line: a step stood in for a line with an error */
	int nlines;
	FILE *err;
	int errors;
	int linted, unlinted;	/* check operands against a field list, or not */
	struct fields *recv, *agent;
};

static void lint_err(struct lint *l, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void lint_err(struct lint *l, int line, const char *fmt, ...)
{
	va_list ap;

	if (line > 0)
		fprintf(l->err, "%s:%d: ", l->path, line);
	else
		fprintf(l->err, "%s: ", l->path);
	va_start(ap, fmt);
	vfprintf(l->err, fmt, ap);
	va_end(ap);
	fputc('\n', l->err);
	l->errors++;
}

/* The N in "PATH:N: what", as scenario_parse words its errors; 0 if none. */
static int error_line(const char *path, const char *msg)
{
	size_t n = strlen(path);

	if (strncmp(msg, path, n) || msg[n] != ':' || !isdigit((unsigned char)msg[n + 1]))
		return 0;
	return atoi(msg + n + 1);
}

/* Start and length of line n (1-based) of text. */
static char *line_at(char *text, int n, size_t *len)
{
	char *p = text;

	for (int i = 1; i < n && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	*len = strcspn(p, "\n");
	return p;
}

/* text with line n replaced by repl; malloc'd. */
static char *replace_line(const char *text, int n, const char *repl)
{
	char *copy = strdup(text), *p, *out = NULL;
	size_t len;

	if (!copy)
		return NULL;
	p = line_at(copy, n, &len);
	if (p && asprintf(&out, "%.*s%s%s", (int)(p - copy), copy, repl, p + len) < 0)
		out = NULL;
	free(copy);
	return out;
}

/*
 * A line error or one about the whole file (no summary, nothing judges)?
 * The parser reads every line before it judges the whole, so a bad line
 * appended after the last is reported first only when the error was the
 * whole file's.
 */
static bool whole_file_error(struct lint *l)
{
	char *probe = NULL, msg[1024];
	bool whole = false;

	if (asprintf(&probe, "%s\n@lint-probe\n", l->text) < 0)
		return true;
	if (scenario_parse(l->path, probe, l->s, msg, sizeof(msg)))
		whole = error_line(l->path, msg) == l->nlines + 1;
	else
		scenario_free(l->s);
	free(probe);
	return whole;
}

/*
 * A stand-in for line n that keeps what later lines rely on: the spawn's
 * or report's ID (so a wait or check on it is not a second error), with a
 * command or file that parses. NULL: blank the line.
 */
static int keyword_line(const char *text, const char *kw);

static char *stand_in(const char *line, size_t len)
{
	char buf[512], *w[4] = { NULL }, *save = NULL, *out = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
	for (char *t = strtok_r(buf, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	if (n >= 3 && !strcmp(w[0], "spawn"))
		return asprintf(&out, "spawn %s %s -- :", w[1], w[2]) < 0 ? NULL : out;
	if (n >= 3 && (!strcmp(w[0], "report") || !strcmp(w[0], "stats")))
		return asprintf(&out, "%s %s %s lint-stand-in", w[0], w[1], w[2]) < 0 ? NULL : out;
	return NULL;
}

/*
 * scenario_parse stops at its first error. To report them all, each line
 * it refuses is replaced (stand_in, else blanked) and the file parsed
 * again, until it parses or the error is about the whole file. Returns 0
 * with l->s parsed, -1 when nothing parses.
 */
static int parse_all(struct lint *l)
{
	char msg[1024];
	size_t len;

	if (!scenario_parse(l->path, NULL, l->s, msg, sizeof(msg)))
		return 0;
	fprintf(l->err, "%s\n", msg);	/* "file:line: what", as the parser words it */
	l->errors++;
	if (!l->text || !l->nlines)
		return -1;	/* unreadable, or a NUL byte: nothing more to read */
	for (int tries = 0; tries <= l->nlines; tries++) {
		int n = error_line(l->path, msg);
		char *line, *repl, *next = NULL;

		if (n < 1 || n > l->nlines || whole_file_error(l))
			return -1;
		line = line_at(l->text, n, &len);
		/* a block's own line: blanked, its body would be read as steps */
		if (line && keyword_line(line, "block") == 1)
			return -1;
		repl = line ? stand_in(line, len) : NULL;
		if (repl) {
			char m2[1024];

			next = replace_line(l->text, n, repl);
			/* The stand-in must get past line n (an ID taken twice does not). */
			if (next && scenario_parse(l->path, next, l->s, m2, sizeof(m2)) &&
			    error_line(l->path, m2) == n) {
				free(next);
				next = NULL;
			} else if (next) {
				scenario_free(l->s);
			}
		}
		free(repl);
		if (!next)
			next = replace_line(l->text, n, "");
		if (!next)
			return -1;
		free(l->text);
		l->text = next;
		l->skip[n] = true;
		if (!scenario_parse(l->path, l->text, l->s, msg, sizeof(msg)))
			return 0;
		fprintf(l->err, "%s\n", msg);
		l->errors++;
	}
	return -1;
}

/* The first line whose first word is kw, for errors about a statement. */
static int keyword_line(const char *text, const char *kw)
{
	size_t k = strlen(kw);
	int n = 1;

	for (const char *p = text; p && *p; n++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, kw, k) && (p[k] == ' ' || p[k] == '\t'))
			return n;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static bool file_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-' || c == '/';
}

/* The shell list element around pos: split at ; && || and newlines, not at |. */
static void segment(const char *cmd, const char *pos, const char **b, const char **e)
{
	const char *p;

	for (p = pos; p > cmd; p--)
		if (p[-1] == ';' || p[-1] == '\n' ||
		    (p - cmd >= 2 && (!strncmp(p - 2, "&&", 2) || !strncmp(p - 2, "||", 2))))
			break;
	*b = p;
	for (p = pos; *p; p++)
		if (*p == ';' || *p == '\n' || !strncmp(p, "&&", 2) || !strncmp(p, "||", 2))
			break;
	*e = p;
}

static bool seg_has(const char *b, const char *e, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = b; p + n <= e; p++)
		if (!strncmp(p, s, n))
			return true;
	return false;
}

/*
 * What a command does with ${SHARE}/FILE: bpfwire-recv writing it with
 * --json, bpfwire-agent status --json (not through jq) writing it, or
 * anything else. The scenarios write every file they report this way.
 */
static enum writer classify(const char *cmd, const char *file)
{
	static const char share[] = "${SHARE}/";
	enum writer best = W_NONE;
	size_t fl = strlen(file);

	for (const char *p = strstr(cmd, share); p; p = strstr(p + 1, share)) {
		const char *f = p + sizeof(share) - 1, *b, *e;
		enum writer w = W_OTHER;

		if (strncmp(f, file, fl) || file_char(f[fl]))
			continue;
		segment(cmd, p, &b, &e);
		if (seg_has(b, e, "bpfwire-recv") &&
		    ((p - cmd >= 7 && !strncmp(p - 7, "--json ", 7)) ||
		     (p - cmd >= 3 && !strncmp(p - 3, "-j ", 3))))
			w = W_RECV;
		else if (seg_has(b, e, "bpfwire-agent") && seg_has(b, e, " status") &&
			 seg_has(b, e, "--json") && !seg_has(b, e, "jq"))
			w = W_AGENT;
		if (w > best)
			best = w;
	}
	return best;
}

/* The latest step before idx on the same host that writes step idx's file. */
static enum writer find_writer(struct lint *l, int idx, int *line)
{
	const struct scn_step *r = &l->s->steps[idx];

	for (int j = idx - 1; j >= 0; j--) {
		const struct scn_step *st = &l->s->steps[j];
		enum writer w = W_NONE;

		if (l->skip[st->line] || strcmp(st->host, r->host) || !st->text)
			continue;
		if (st->op == SCN_TAPSTATS && !strcmp(st->text, r->text))
			w = W_TAP;
		else if (st->op == SCN_EXEC || st->op == SCN_SPAWN)
			w = classify(st->text, r->text);
		if (w != W_NONE) {
			*line = st->line;
			return w;
		}
	}
	/* A line before it had an error: what it would have written is unknown. */
	for (int n = 1; n < r->line; n++)
		if (l->skip[n])
			return W_OTHER;
	return W_NONE;
}

static const char *writer_name(enum writer w)
{
	return w == W_RECV ? "bpfwire-recv --json" : "bpfwire-agent status --json";
}

/* Where that writer's fields are listed, as the messages name it. */
static const char *fields_rel(enum writer w)
{
	return w == W_RECV ? "receiver/recv-json.fields" : "bpf/status-json.fields";
}

/* Every report and stats: a file an earlier step writes, of the right kind. */
static void lint_reports(struct lint *l, enum writer *kinds)
{
	for (int i = 0; i < l->s->nsteps; i++) {
		const struct scn_step *st = &l->s->steps[i];
		const char *kw = scenario_op_name(st->op);
		int wl = 0;

		kinds[i] = W_NONE;
		if ((st->op != SCN_REPORT && st->op != SCN_STATS) || l->skip[st->line])
			continue;
		kinds[i] = find_writer(l, i, &wl);
		if (kinds[i] == W_NONE)
			lint_err(l, st->line, "%s %s reads %s, which no earlier exec or spawn on %s "
				 "writes (as ${SHARE}/%s) nor a tapstats", kw, st->id, st->text,
				 st->host, st->text);
		else if (st->op == SCN_REPORT && kinds[i] == W_AGENT)
			lint_err(l, st->line, "report %s reads %s, which line %d writes with %s: "
				 "that is 'stats %s %s %s'", st->id, st->text, wl, writer_name(W_AGENT),
				 st->id, st->host, st->text);
		else if (st->op == SCN_STATS && kinds[i] == W_RECV)
			lint_err(l, st->line, "stats %s reads %s, which line %d writes with %s: "
				 "that is 'report %s %s %s'", st->id, st->text, wl, writer_name(W_RECV),
				 st->id, st->host, st->text);
	}
}

/* One ID.path operand of the check at step idx. */
static void lint_operand(struct lint *l, int idx, const enum writer *kinds, const char *x)
{
	const struct scn_step *st = &l->s->steps[idx];
	const char *dot = strchr(x, '.'), *path = dot + 1, *type;
	const struct fields *f = NULL;
	char id[SCN_ID_MAX + 1], near[256];
	bool inner;
	int j;

	snprintf(id, sizeof(id), "%.*s", (int)(dot - x), x);
	for (j = idx - 1; j >= 0; j--)
		if ((l->s->steps[j].op == SCN_REPORT || l->s->steps[j].op == SCN_STATS) &&
		    !strcmp(l->s->steps[j].id, id))
			break;
	if (j < 0 || l->skip[l->s->steps[j].line])
		return;		/* the parser said so, or that line had an error */
	if (kinds[j] == W_RECV)
		f = l->recv;
	else if (kinds[j] == W_AGENT)
		f = l->agent;
	if (!f) {
		l->unlinted++;	/* jq's or a script's JSON: no list of its fields */
		return;
	}
	l->linted++;
	type = fields_type(f, path, &inner);
	if (type && (!strcmp(type, "int") || !strcmp(type, "bool")))
		return;
	if (type)
		lint_err(l, st->line, "'%s' is a %s in %s (%s); check compares integers",
			 x, type, writer_name(kinds[j]), fields_rel(kinds[j]));
	else if (inner)
		lint_err(l, st->line, "'%s' holds fields in %s (%s), not an integer",
			 x, writer_name(kinds[j]), fields_rel(kinds[j]));
	else if (fields_suggest(f, path, near, sizeof(near)))
		lint_err(l, st->line, "'%s': no field '%s' in %s (%s); did you mean %s.%s?",
			 x, path, writer_name(kinds[j]), fields_rel(kinds[j]), id, near);
	else
		lint_err(l, st->line, "'%s': no field '%s' in %s (%s)",
			 x, path, writer_name(kinds[j]), fields_rel(kinds[j]));
}

static void lint_checks(struct lint *l, const enum writer *kinds)
{
	for (int i = 0; i < l->s->nsteps; i++) {
		const struct scn_step *st = &l->s->steps[i];
		char buf[512], *save = NULL;

		if (st->op != SCN_CHECK || l->skip[st->line])
			continue;
		snprintf(buf, sizeof(buf), "%s %s", st->lhs, st->rhs);
		for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			char *end;

			errno = 0;
			strtoll(w, &end, 10);
			if ((end != w && !*end) || !strcmp(w, "+") || !strcmp(w, "-") || !strchr(w, '.'))
				continue;
			lint_operand(l, i, kinds, w);
		}
	}
}

static struct fields *load_fields(struct lint *l, enum writer w)
{
	const char *rel = fields_rel(w);
	char path[PATH_MAX], why[PATH_MAX + 128];
	struct fields *f;

	snprintf(path, sizeof(path), "%s/%s", BPFWIRE_SOURCE_ROOT, rel);
	f = fields_load(path, why, sizeof(why));
	if (!f)
		lint_err(l, 0, "can't lint its checks: %s", why);
	return f;
}

/*
 * A step that installs a ksock or netpoll sender (or runs kernel-tests,
 * ksock's) needs that kfunc family in `needs`; otherwise a kernel without
 * it would fail the run where it should skip it.
 */
static void lint_needs(struct lint *l)
{
	unsigned needs = l->s->needs & SCN_NEEDS_STATED ? l->s->needs : SCN_NEEDS_KSOCK;

	for (int i = 0; i < l->s->nsteps; i++) {
		const struct scn_step *st = &l->s->steps[i];

		if ((st->op != SCN_EXEC && st->op != SCN_SPAWN) || !st->text)
			continue;
		if (strstr(st->text, "--via netpoll") && !(needs & SCN_NEEDS_NETPOLL))
			lint_err(l, st->line, "installs a netpoll sender, but 'needs' does not list netpoll: a kernel without netpoll would fail the run instead of skipping it");
		if ((strstr(st->text, "--via ksock") || strstr(st->text, "kernel-tests")) &&
		    !(needs & SCN_NEEDS_KSOCK))
			lint_err(l, st->line, "uses ksock, but 'needs' does not list ksock: a kernel without it would fail the run instead of skipping it");
	}
}

static int lint_one(const char *arg, FILE *out, FILE *err);

struct msg {
	int line;
	const char *text;
};

static int cmp_msg(const void *a, const void *b)
{
	const struct msg *x = a, *y = b;

	/* by line; qsort is not stable, so the order found breaks ties */
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
				  : (x->text > y->text) - (x->text < y->text);
}

/* The errors, found parse first and topology next, in the file's order. */
static void flush_sorted(const char *path, char *buf, FILE *err)
{
	struct msg *v;
	size_t n = 0, k = 0;

	for (char *p = buf; *p; p++)
		n += *p == '\n';
	v = calloc(n + 1, sizeof(*v));
	if (!v) {
		fputs(buf, err);
		return;
	}
	for (char *p = buf; *p && k < n; k++) {
		char *nl = strchr(p, '\n');

		*nl = '\0';
		v[k] = (struct msg){ .line = error_line(path, p), .text = p };
		p = nl + 1;
	}
	qsort(v, k, sizeof(*v), cmp_msg);
	for (size_t i = 0; i < k; i++)
		fprintf(err, "%s\n", v[i].text);
	free(v);
}

int lint_scenario(const char *arg, FILE *out, FILE *err)
{
	char *ebuf = NULL, path[PATH_MAX + 32];
	size_t elen = 0;
	FILE *mem = open_memstream(&ebuf, &elen);
	int n;

	runner_scenario_path(arg, path, sizeof(path));

	if (!mem)
		return lint_one(arg, out, err);
	n = lint_one(arg, out, mem);
	fclose(mem);
	flush_sorted(path, ebuf, err);
	free(ebuf);
	return n;
}

static int lint_one(const char *arg, FILE *out, FILE *err)
{
	char path[PATH_MAX + 32], topo_path[PATH_MAX + 32], why[1024];
	struct lint l = { .path = path, .err = err };
	struct topology *t = calloc(1, sizeof(*t));
	enum writer *kinds = NULL;
	size_t len = 0;
	int nchecks = 0;

	runner_scenario_path(arg, path, sizeof(path));
	l.s = calloc(1, sizeof(*l.s));
	l.text = read_user_file(path, &len);
	if (l.text && !memchr(l.text, '\0', len)) {
		l.nlines = 1;
		for (size_t i = 0; i < len; i++)
			l.nlines += l.text[i] == '\n';
	}
	l.skip = calloc(l.nlines + 2, sizeof(*l.skip));
	if (!t || !l.s || !l.skip) {
		lint_err(&l, 0, "out of memory");
		goto out;
	}
	if (parse_all(&l))
		goto out;
	runner_topology_path(l.s, topo_path, sizeof(topo_path));
	if (topo_parse_file(topo_path, t, why, sizeof(why)))
		lint_err(&l, keyword_line(l.text ? l.text : "", "topology"), "topology %s: %s",
			 l.s->topology, why);
	else
		l.errors += runner_check_topology(l.s, t, err);
	l.recv = load_fields(&l, W_RECV);
	l.agent = load_fields(&l, W_AGENT);
	kinds = calloc(l.s->nsteps + 1, sizeof(*kinds));
	if (!kinds) {
		lint_err(&l, 0, "out of memory");
		goto out_free;
	}
	lint_reports(&l, kinds);
	lint_checks(&l, kinds);
	lint_needs(&l);
	for (int i = 0; i < l.s->nsteps; i++)
		nchecks += l.s->steps[i].op == SCN_CHECK;
	if (!l.errors) {
		fprintf(out, "%s: ok, %d step%s, %d check%s", path, l.s->nsteps,
			l.s->nsteps == 1 ? "" : "s", nchecks, nchecks == 1 ? "" : "s");
		if (l.unlinted)
			fprintf(out, " (%d of %d fields against a field list; the rest are in "
				"JSON that jq or a script writes)", l.linted, l.linted + l.unlinted);
		fputc('\n', out);
	}
out_free:
	scenario_free(l.s);
out:
	fields_free(l.recv);
	fields_free(l.agent);
	free(kinds);
	free(l.text);
	free(l.skip);
	free(l.s);
	free(t);
	return l.errors;
}

/* A topology as `check` always parsed one; 0 or LAB_EUSAGE. */
static int check_topology(const char *path)
{
	struct topology *t = malloc(sizeof(*t));
	char err[1024];
	int ret = LAB_EUSAGE;

	if (!t)
		return LAB_FAIL;
	if (topo_parse_file(path, t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
	} else {
		printf("%s: %d segment%s, %d host%s\n", t->path, t->nsegments,
		       t->nsegments == 1 ? "" : "s", t->nhosts, t->nhosts == 1 ? "" : "s");
		ret = 0;
	}
	free(t);
	return ret;
}

int lint_check(int argc, char **argv)
{
	int ret = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t n = strlen(a);
		char topo[PATH_MAX], scn[PATH_MAX + 32];
		bool is_topo = n > 5 && !strcmp(a + n - 5, ".topo"), is_scn = !is_topo;

		if (!is_topo && !strchr(a, '/')) {
			/* "pair" is a topology, as always; "routed" is both */
			snprintf(topo, sizeof(topo), "%s/topology/%s.topo", BPFWIRE_SOURCE_ROOT, a);
			is_topo = file_exists(topo);
			runner_scenario_path(a, scn, sizeof(scn));
			is_scn = !is_topo || file_exists(scn);
		} else {
			snprintf(topo, sizeof(topo), "%s", a);
		}
		if (is_topo && check_topology(topo))
			ret = LAB_EUSAGE;
		if (is_scn && lint_scenario(a, stdout, stderr))
			ret = LAB_EUSAGE;
	}
	return ret;
}
