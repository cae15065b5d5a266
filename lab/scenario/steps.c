// SPDX-License-Identifier: GPL-2.0-only
/* The steps of a scenario: one function per kind, and the checks' arithmetic. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errnames.h"
#include "file.h"
#include "kapi.h"
#include "lab-config.h"
#include "scenario.h"
#include "steps.h"
#include "timeutil.h"
#include "vm/guest.h"
#include "vm/model.h"
#include "vm/qga.h"
#include "vm/remote_ssh.h"
#include "vm/sysrq.h"
#include "vm/util.h"

/* The values of scenario_vars; the parser refused any other ${NAME}. */
static const char *lookup(const char *name, void *ctx)
{
	struct runner *rn = ctx;

	if (!strcmp(name, "BUILD"))
		return BPFWIRE_BUILD_ROOT;
	if (!strcmp(name, "SRC"))
		return BPFWIRE_SOURCE_ROOT;
	if (!strcmp(name, "SHARE")) {
		/* guest-init mounts the share at the same path as on the host. */
		const struct lab_guest *g = lab_guest(rn->lab, rn->host);
		const struct lab_remote *m = lab_remote(rn->lab, rn->host);

		/* a remote host's is its own dir there; report and stats fetch from it */
		return g ? g->dir : m ? m->rdir : NULL;
	}
	if (!strcmp(name, "RUN"))
		return rn->results;
	if (!strcmp(name, "HOST"))
		return rn->host;
	/* the booted kernel's, from its BTF (api.json): a reviewed series' too */
	if (!strcmp(name, "KSOCK_API"))
		return rn->api_known ? kapi_ksock_name(rn->ksock) : "unknown";
	return NULL;
}

/* Every host and interface a step names must exist before the lab boots. */
static const struct spawned *find_spawned(const struct runner *rn, const char *id)
{
	for (int i = 0; i < rn->nspawned; i++)
		if (!strcmp(rn->spawned[i].id, id))
			return &rn->spawned[i];
	return NULL;
}

/* The last non-empty line of s, for one-line step summaries. */
static void last_line(const char *s, char *out, size_t len)
{
	const char *end, *start;

	out[0] = '\0';
	if (!s)
		return;
	end = s + strlen(s);
	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

static void save_output(struct runner *rn, int idx, const char *what, const char *text)
{
	char path[PATH_MAX + 32];

	if (!text || !*text)
		return;
	snprintf(path, sizeof(path), "%s/steps/%02d.%s", rn->results, idx + 1, what);
	write_file(path, text);
}

/* Splits netem arguments on spaces; "off" removes the qdisc. */
static int do_netem(struct runner *rn, const struct scn_step *st, char *args)
{
	char *argv[32], *save = NULL, *w;
	int n = 0;

	if (!strcmp(args, "off"))
		return lab_netem(rn->lab, st->host, st->iface, NULL);
	for (w = strtok_r(args, " \t", &save); w && n < 31; w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	argv[n] = NULL;
	return lab_netem(rn->lab, st->host, st->iface, argv);
}

static int remaining_ms(const struct runner *rn, double cap_s)
{
	double left = rn->s->timeout - (now_s() - rn->t0);

	if (left > cap_s)
		left = cap_s;
	return left > 1 ? (int)(left * 1000) : 1000;
}

/* Runs one step; returns 0 when its expectation holds. */
/* ID.a.b.0.c inside the folded reports; integers stand for themselves. */
static int operand_value(struct runner *rn, const char *x, long long *out, char *why, size_t whylen)
{
	char buf[256], *save = NULL, *part, *end;
	json_object *o = rn->reports;

	*out = strtoll(x, &end, 10);
	if (end != x && !*end)
		return 0;
	snprintf(buf, sizeof(buf), "%s", x);
	for (part = strtok_r(buf, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
		long idx = strtol(part, &end, 10);

		if (json_object_is_type(o, json_type_array) && end != part && !*end)
			o = json_object_array_get_idx(o, idx);
		else if (!json_object_object_get_ex(o, part, &o))
			o = NULL;
		if (!o) {
			snprintf(why, whylen, "%s: no '%s' in the report", x, part);
			return -1;
		}
	}
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_boolean)) {
		snprintf(why, whylen, "%s is %s, not an integer", x, json_object_to_json_string(o));
		return -1;
	}
	*out = json_object_get_int64(o);
	return 0;
}

/* OPERAND [(+|-) OPERAND]..., as the parser left it: words split by one space. */
static int side_value(struct runner *rn, const char *x, long long *out, char *why, size_t whylen)
{
	char buf[256], *save = NULL, *w;
	int sign = 1;

	*out = 0;
	snprintf(buf, sizeof(buf), "%s", x);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		long long v;

		if (!strcmp(w, "+") || !strcmp(w, "-")) {
			sign = w[0] == '-' ? -1 : 1;
			continue;
		}
		if (operand_value(rn, w, &v, why, whylen))
			return -1;
		*out += sign * v;
	}
	return 0;
}

static int eval_check(struct runner *rn, const struct scn_step *st, json_object *js,
		     char *why, size_t whylen)
{
	long long a, b;
	bool holds;

	if (side_value(rn, st->lhs, &a, why, whylen) || side_value(rn, st->rhs, &b, why, whylen))
		return -1;
	json_object_object_add(js, "left", json_object_new_int64(a));
	json_object_object_add(js, "right", json_object_new_int64(b));
	if (!strcmp(st->cmp, "=="))
		holds = a == b;
	else if (!strcmp(st->cmp, "!="))
		holds = a != b;
	else if (!strcmp(st->cmp, "<="))
		holds = a <= b;
	else if (!strcmp(st->cmp, ">="))
		holds = a >= b;
	else if (!strcmp(st->cmp, "<"))
		holds = a < b;
	else
		holds = a > b;
	snprintf(why, whylen, "%s = %lld, %s = %lld", st->lhs, a, st->rhs, b);
	json_object_object_add(js, "values", json_object_new_string(why));
	if (!holds)
		return -1;
	why[0] = '\0';
	return 0;
}

/*
 * --trace: bpfwire-trace records in every guest from before the first step
 * to after the last; bpfwire-path turns the records into RUN/path.* on the
 * host. The interface between them is trace/README.md.
 */
void why_set(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= whylen && whylen > 4)
		memcpy(why + whylen - 4, "...", 4);
}

/* The last lines of the command's output, into js; line gets the one to quote. */
static void record_output(struct runner *rn, int idx, json_object *js, const struct qga_result *res,
			  char *line, size_t len)
{
	char eline[256];

	save_output(rn, idx, "out", res->out);
	save_output(rn, idx, "err", res->err);
	last_line(res->out, line, len);
	json_object_object_add(js, "stdout_last", json_object_new_string(line));
	/* A failure quotes stderr's last line, else stdout's. */
	last_line(res->err, eline, sizeof(eline));
	json_object_object_add(js, "stderr_last", json_object_new_string(eline));
	if (eline[0])
		snprintf(line, len, "%s", eline);
}

/* Did the command end as the step expects (exit code or signal)? */
static int judge_end(const struct scn_step *st, const struct qga_result *res, const char *line,
		     json_object *js, char *why, size_t whylen)
{
	int want = st->has_expect ? st->expect : 0;

	json_object_object_add(js, "expected_exit", json_object_new_int(want));
	if (st->expect_signal) {
		json_object_object_add(js, "expected_signal", json_object_new_int(st->expect_signal));
		json_object_object_add(js, "signal", json_object_new_int(res->signal));
		if (res->signal != st->expect_signal) {
			snprintf(why, whylen, "ended with %s %d, expected signal %d",
				 res->signal ? "signal" : "exit",
				 res->signal ? res->signal : res->exitcode, st->expect_signal);
			return -1;
		}
		return 0;
	}
	if (res->signal) {
		json_object_object_add(js, "signal", json_object_new_int(res->signal));
		snprintf(why, whylen, "killed by signal %d, expected exit %d", res->signal, want);
		return -1;
	}
	json_object_object_add(js, "exit", json_object_new_int(res->exitcode));
	if (res->exitcode != want) {
		why_set(why, whylen, "exit %d, expected %d%s%s", res->exitcode, want,
			line[0] ? ": " : "", line);
		return -1;
	}
	return 0;
}

/* exec HOST -- CMD, or wait ID: run or collect, then judge how it ended. */
static int step_exec_wait(struct runner *rn, int idx, const struct scn_step *st, char *text,
			  json_object *js, char *why, size_t whylen)
{
	struct qga_result res = { 0 };
	const char *host = st->host;
	char line[256];
	int r, ret = -1;

	if (st->op == SCN_EXEC) {
		char *argv[] = { "/bin/sh", "-c", text, NULL };

		r = lab_exec(rn->lab, st->host, argv, remaining_ms(rn, 600), &res);
	} else {
		const struct spawned *sp = find_spawned(rn, st->id);

		if (!sp || sp->pid <= 0) {
			snprintf(why, whylen, "'%s' was never started", st->id);
			return -1;
		}
		host = sp->host;
		r = lab_wait(rn->lab, sp->host, sp->pid, remaining_ms(rn, st->seconds), &res);
	}
	record_output(rn, idx, js, &res, line, sizeof(line));
	if (r < 0 || !res.exited) {
		json_object_object_add(js, "expected_exit",
				       json_object_new_int(st->has_expect ? st->expect : 0));
		snprintf(why, whylen, "%s", r < 0 ? "could not run it in the guest (see the lab's message)"
						 : "did not finish in time");
		/* the teardown kills it next: first its stacks, in case it hangs */
		lab_sysrq_dump(rn->lab, host,
			       r < 0 ? "a step did not finish in it (its deadline, or qemu-ga)"
				     : "a step missed its deadline");
	} else {
		ret = judge_end(st, &res, line, js, why, whylen);
	}
	free(res.out);
	free(res.err);
	return ret;
}

static int step_spawn(struct runner *rn, const struct scn_step *st, char *text, json_object *js,
		      char *why, size_t whylen)
{
	char *argv[] = { "/bin/sh", "-c", text, NULL };
	struct spawned *sp = &rn->spawned[rn->nspawned];
	long pid = lab_spawn(rn->lab, st->host, argv);

	if (pid <= 0) {
		snprintf(why, whylen, "could not start it in the guest");
		return -1;
	}
	snprintf(sp->id, sizeof(sp->id), "%s", st->id);
	snprintf(sp->host, sizeof(sp->host), "%s", st->host);
	sp->pid = pid;
	rn->nspawned++;
	json_object_object_add(js, "pid", json_object_new_int64(pid));
	return 0;
}

/* HOST's share/FILE, as the host sees it. */
static int share_path(struct runner *rn, const struct scn_step *st, const char *file,
		      char *path, size_t len, char *why, size_t whylen)
{
	const struct lab_guest *g = lab_guest(rn->lab, st->host);
	const struct lab_remote *m = lab_remote(rn->lab, st->host);

	if (snprintf(path, len, "%s/%s", g ? g->dir : m ? m->dir : "?", file) >= (int)len) {
		why_set(why, whylen, "the path of %s in %s's share is too long", file, st->host);
		return -1;
	}
	return 0;
}

static int step_tapstats(struct runner *rn, const struct scn_step *st, const char *text,
			 char *why, size_t whylen)
{
	char path[PATH_MAX];

	if (share_path(rn, st, text, path, sizeof(path), why, whylen))
		return -1;
	if (lab_tap_stats(rn->lab, st->host, st->iface, text)) {
		why_set(why, whylen, "could not read the tap's counters into %s", path);
		return -1;
	}
	return 0;
}

/*
 * sleep S until HOST FILE ends early once FILE is in HOST's share. Only
 * lstat()ed, never opened: all a guest can do with it is end the sleep,
 * and the step after it (a wait) still judges. Remote shares are not
 * watched.
 */
static int step_sleep(struct runner *rn, const struct scn_step *st, const char *text,
		      char *why, size_t whylen)
{
	double t0 = now_s(), end = t0 + st->seconds;
	char path[PATH_MAX];
	struct stat sb;

	if (text && (lab_remote(rn->lab, st->host) ||
		     share_path(rn, st, text, path, sizeof(path), why, whylen)))
		text = NULL;
	while (now_s() < end && !lab_interrupted) {
		if (text && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			printf("[%6.1fs]   %s has %s after %.1f s: the sleep ends\n",
			       now_s() - rn->t0, st->host, text, now_s() - t0);
			break;
		}
		sleep_ms(50);
	}
	if (!lab_interrupted)
		return 0;
	snprintf(why, whylen, "interrupted");
	return -1;
}

/* report / stats: fold HOST's JSON file into the reports under ID. */
static int step_report(struct runner *rn, const struct scn_step *st, const char *text,
		       char *why, size_t whylen)
{
	enum json_tokener_error jerr;
	char path[PATH_MAX], *data;
	json_object *o;

	if (share_path(rn, st, text, path, sizeof(path), why, whylen))
		return -1;
	if (lab_remote(rn->lab, st->host) && lab_fetch(rn->lab, st->host, text)) {
		why_set(why, whylen, "could not fetch %s from remote host %s", text, st->host);
		return -1;
	}
	data = read_file_max(path, NULL, LAB_DATA_MAX);	/* O_NOFOLLOW: never a link into the host */
	if (!data && errno == EFBIG) {
		why_set(why, whylen, "%s is over the 32 MiB cap, not read", path);
		return -1;
	}
	if (!data) {
		why_set(why, whylen, "can't read %s: %s", path, errno_str(errno));
		return -1;
	}
	o = json_tokener_parse_verbose(data, &jerr);
	free(data);
	if (jerr != json_tokener_success) {
		why_set(why, whylen, "%s is not JSON: %s", path, json_tokener_error_desc(jerr));
		return -1;
	}
	/* a guest's [], 42 or null: json-c would abort on adding "kind" to it */
	if (!json_object_is_type(o, json_type_object)) {
		why_set(why, whylen, "%s is a JSON %s, not an object", path,
			json_type_to_name(json_object_get_type(o)));
		json_object_put(o);
		return -1;
	}
	json_object_object_add(o, "kind", json_object_new_string(
		st->op == SCN_REPORT ? "receiver" : "sender-stats"));
	json_object_object_add(rn->reports, st->id, o);
	return 0;
}

int run_step(struct runner *rn, int idx, json_object *js, char *why, size_t whylen)
{
	const struct scn_step *st = &rn->s->steps[idx];
	char err[512], *text = NULL;
	int ret = -1;

	rn->host = st->host;
	if (st->text && st->op != SCN_CHECK) {
		text = scenario_expand(st->text, lookup, rn, err, sizeof(err));
		if (!text) {
			why_set(why, whylen, "%s:%d: %s", rn->s->path, st->line, err);
			return -1;
		}
		json_object_object_add(js, "text", json_object_new_string(text));
	}
	switch (st->op) {
	case SCN_EXEC:
	case SCN_WAIT:
		ret = step_exec_wait(rn, idx, st, text, js, why, whylen);
		break;
	case SCN_SPAWN:
		ret = step_spawn(rn, st, text, js, why, whylen);
		break;
	case SCN_LINK:
		ret = lab_link(rn->lab, st->host, st->iface, st->up,
			       st->bridge ? LINK_BRIDGE_PORT : LINK_CARRIER);
		if (ret)
			snprintf(why, whylen, "could not set the link %s", st->up ? "up" : "down");
		break;
	case SCN_NETEM:
		ret = do_netem(rn, st, text);
		if (ret)
			snprintf(why, whylen, "could not set netem");
		break;
	case SCN_TAPSTATS:
		ret = step_tapstats(rn, st, text, why, whylen);
		break;
	case SCN_SLEEP:
		ret = step_sleep(rn, st, text, why, whylen);
		break;
	case SCN_CHECK:
		ret = eval_check(rn, st, js, why, whylen);
		break;
	case SCN_REPORT:
	case SCN_STATS:
		ret = step_report(rn, st, text, why, whylen);
		break;
	}
	free(text);
	return ret;
}

void step_what(const struct scn_step *st, char *out, size_t len)
{
	switch (st->op) {
	case SCN_EXEC:   snprintf(out, len, "%s: %s", st->host, st->text); break;
	case SCN_SPAWN:  snprintf(out, len, "%s on %s: %s", st->id, st->host, st->text); break;
	case SCN_WAIT:   snprintf(out, len, "%s", st->id); break;
	case SCN_LINK:   snprintf(out, len, "%s %s %s%s", st->host, st->iface, st->up ? "up" : "down",
				  st->bridge ? " (bridge port)" : ""); break;
	case SCN_NETEM:  snprintf(out, len, "%s %s %s", st->host, st->iface, st->text); break;
	case SCN_TAPSTATS: snprintf(out, len, "%s %s > %s", st->host, st->iface, st->text); break;
	case SCN_SLEEP:
		if (st->text)
			snprintf(out, len, "%.1f s until %s has %s", st->seconds, st->host, st->text);
		else
			snprintf(out, len, "%.1f s", st->seconds);
		break;
	case SCN_REPORT:
	case SCN_STATS:  snprintf(out, len, "%s from %s:%s", st->id, st->host, st->text); break;
	case SCN_CHECK:  snprintf(out, len, "%s", st->text); break;
	}
}

