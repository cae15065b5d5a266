// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario runner: parse a scenario and its topology, check every step
 * against the topology before anything boots, bring the lab up, run the
 * steps in order, scan the consoles, write summary.json and summary.txt,
 * and always tear down (unless --keep). The exit code is the verdict.
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab-config.h"
#include "errnames.h"
#include "log.h"
#include "run.h"
#include "scenario.h"
#include "topology.h"
#include "util.h"

struct spawned {
	char id[SCN_ID_MAX + 1];
	char host[SCN_ID_MAX + 1];
	long pid;
};

struct runner {
	struct scenario *s;
	struct topology *t;
	struct lab_run *lab;
	const char *host;	/* the current step's host, for ${HOST} */
	char results[PATH_MAX];
	int nspawned;
	struct spawned spawned[SCN_MAX_STEPS];
	json_object *steps, *reports;
	double t0;
};

static int eval_check(struct runner *rn, const struct scn_step *st, json_object *js,
		      char *why, size_t whylen);

const char *runner_scenario_dir(void)
{
	static char dir[PATH_MAX];

	if (!dir[0]) {
		const char *env = getenv("BPFWIRE_SCENARIOS");

		snprintf(dir, sizeof(dir), "%s", env ? env : BPFWIRE_SOURCE_ROOT "/scenarios");
	}
	return dir;
}

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

		return g ? g->dir : NULL;
	}
	if (!strcmp(name, "RUN"))
		return rn->results;
	if (!strcmp(name, "HOST"))
		return rn->host;
	return NULL;
}

/* Every host and interface a step names must exist before the lab boots. */
static int check_against_topology(const struct scenario *s, const struct topology *t)
{
	for (int i = 0; i < s->nsteps; i++) {
		const struct scn_step *st = &s->steps[i];
		const struct topo_host *h;

		if (!st->host[0])
			continue;
		h = topo_host(t, st->host);
		if (!h) {
			fprintf(stderr, "%s:%d: host '%s' is not in topology %s\n",
				s->path, st->line, st->host, t->path);
			return -1;
		}
		if (st->iface[0] && topo_nic_index(h, st->iface) < 0) {
			fprintf(stderr, "%s:%d: host '%s' has no interface '%s' in %s\n",
				s->path, st->line, st->host, st->iface, t->path);
			return -1;
		}
	}
	return 0;
}

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
	char path[PATH_MAX];

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
static int run_step(struct runner *rn, int idx, json_object *js, char *why, size_t whylen)
{
	const struct scn_step *st = &rn->s->steps[idx];
	struct qga_result res = { 0 };
	char err[512], line[256];
	char *text = NULL;
	int ret = -1;

	rn->host = st->host;
	if (st->text && st->op != SCN_CHECK) {
		text = scenario_expand(st->text, lookup, rn, err, sizeof(err));
		if (!text) {
			snprintf(why, whylen, "%s:%d: %s", rn->s->path, st->line, err);
			return -1;
		}
		json_object_object_add(js, "text", json_object_new_string(text));
	}

	switch (st->op) {
	case SCN_EXEC:
	case SCN_WAIT: {
		int want = st->has_expect ? st->expect : 0, r;

		if (st->op == SCN_EXEC) {
			char *argv[] = { "/bin/sh", "-c", text, NULL };

			r = lab_exec(rn->lab, st->host, argv, remaining_ms(rn, 600), &res);
		} else {
			const struct spawned *sp = find_spawned(rn, st->id);

			if (!sp || sp->pid <= 0) {
				snprintf(why, whylen, "'%s' was never started", st->id);
				break;
			}
			r = lab_wait(rn->lab, sp->host, sp->pid,
				     remaining_ms(rn, st->seconds), &res);
		}
		save_output(rn, idx, "out", res.out);
		save_output(rn, idx, "err", res.err);
		last_line(res.out, line, sizeof(line));
		json_object_object_add(js, "stdout_last", json_object_new_string(line));
		{
			char eline[256];

			/* A failure quotes stderr's last line, else stdout's. */
			last_line(res.err, eline, sizeof(eline));
			json_object_object_add(js, "stderr_last", json_object_new_string(eline));
			if (eline[0])
				memcpy(line, eline, sizeof(line));
		}
		json_object_object_add(js, "expected_exit", json_object_new_int(want));
		if (r < 0 || !res.exited) {
			snprintf(why, whylen, "%s", r < 0 ? "could not run it in the guest (see the lab's message)"
							 : "did not finish in time");
			break;
		}
		if (st->expect_signal) {
			json_object_object_add(js, "expected_signal", json_object_new_int(st->expect_signal));
			json_object_object_add(js, "signal", json_object_new_int(res.signal));
			if (res.signal != st->expect_signal) {
				snprintf(why, whylen, "ended with %s %d, expected signal %d",
					 res.signal ? "signal" : "exit",
					 res.signal ? res.signal : res.exitcode, st->expect_signal);
				break;
			}
			ret = 0;
			break;
		}
		if (res.signal) {
			json_object_object_add(js, "signal", json_object_new_int(res.signal));
			snprintf(why, whylen, "killed by signal %d, expected exit %d", res.signal, want);
			break;
		}
		json_object_object_add(js, "exit", json_object_new_int(res.exitcode));
		if (res.exitcode != want) {
			snprintf(why, whylen, "exit %d, expected %d%s%s", res.exitcode, want,
				 line[0] ? ": " : "", line);
			break;
		}
		ret = 0;
		break;
	}
	case SCN_SPAWN: {
		char *argv[] = { "/bin/sh", "-c", text, NULL };
		struct spawned *sp = &rn->spawned[rn->nspawned];
		long pid = lab_spawn(rn->lab, st->host, argv);

		if (pid <= 0) {
			snprintf(why, whylen, "could not start it in the guest");
			break;
		}
		snprintf(sp->id, sizeof(sp->id), "%s", st->id);
		snprintf(sp->host, sizeof(sp->host), "%s", st->host);
		sp->pid = pid;
		rn->nspawned++;
		json_object_object_add(js, "pid", json_object_new_int64(pid));
		ret = 0;
		break;
	}
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
	case SCN_TAPSTATS: {
		const struct lab_guest *g = lab_guest(rn->lab, st->host);
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", g ? g->dir : "?", text);
		ret = lab_tap_stats(rn->lab, st->host, st->iface, path);
		if (ret)
			snprintf(why, whylen, "could not read the tap's counters into %s", path);
		break;
	}
	case SCN_SLEEP: {
		double end = now_s() + st->seconds;

		while (now_s() < end && !lab_interrupted)
			sleep_ms(50);
		ret = lab_interrupted ? -1 : 0;
		if (ret)
			snprintf(why, whylen, "interrupted");
		break;
	}
	case SCN_CHECK:
		ret = eval_check(rn, st, js, why, whylen);
		break;
	case SCN_REPORT:
	case SCN_STATS: {
		const struct lab_guest *g = lab_guest(rn->lab, st->host);
		char path[PATH_MAX];
		json_object *o;

		snprintf(path, sizeof(path), "%s/%s", g ? g->dir : "?", text);
		o = json_object_from_file(path);
		if (!o) {
			snprintf(why, whylen, "%s is missing or not JSON", path);
			break;
		}
		json_object_object_add(o, "kind", json_object_new_string(
			st->op == SCN_REPORT ? "receiver" : "sender-stats"));
		json_object_object_add(rn->reports, st->id, o);
		ret = 0;
		break;
	}
	}
	free(res.out);
	free(res.err);
	free(text);
	return ret;
}

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
static int trace_start(struct runner *rn, long *pids, char *why, size_t whylen)
{
	char cmd[PATH_MAX * 2];

	for (int i = 0; i < rn->lab->nguests; i++) {
		const struct lab_guest *g = &rn->lab->guests[i];
		char *argv[] = { "/bin/sh", "-c", cmd, NULL };
		struct qga_result res = { 0 };
		int r;

		snprintf(cmd, sizeof(cmd), "exec %s/trace/bpfwire-trace record --out %s/trace.jsonl "
			 "--ready-file /tmp/bpfwire-trace.ready > %s/trace.log 2>&1",
			 BPFWIRE_BUILD_ROOT, g->dir, g->dir);
		pids[i] = lab_spawn(rn->lab, g->name, argv);
		if (pids[i] <= 0) {
			snprintf(why, whylen, "couldn't start bpfwire-trace on %s", g->name);
			return -1;
		}
		snprintf(cmd, sizeof(cmd), "for i in $(seq 300); do [ -e /tmp/bpfwire-trace.ready ] && exit 0; "
			 "sleep 0.1; done; exit 1");
		r = lab_exec(rn->lab, g->name, argv, 60000, &res);
		free(res.out);
		free(res.err);
		if (r < 0 || !res.exited || res.exitcode) {
			snprintf(why, whylen, "bpfwire-trace on %s never became ready (see %s/trace.log)",
				 g->name, g->dir);
			return -1;
		}
	}
	return 0;
}

static int trace_stop(struct runner *rn, const long *pids, char *why, size_t whylen)
{
	int bad = 0;

	for (int i = 0; i < rn->lab->nguests; i++) {
		const struct lab_guest *g = &rn->lab->guests[i];
		char *argv[] = { "/bin/sh", "-c", "pkill -INT -x bpfwire-trace", NULL };
		struct qga_result res = { 0 };

		if (pids[i] <= 0)
			continue;
		lab_exec(rn->lab, g->name, argv, 10000, &res);
		free(res.out);
		free(res.err);
		memset(&res, 0, sizeof(res));
		if (lab_wait(rn->lab, g->name, pids[i], 30000, &res) < 0 || !res.exited ||
		    res.signal || res.exitcode) {
			snprintf(why, whylen, "bpfwire-trace on %s did not end cleanly (see %s/trace.log)",
				 g->name, g->dir);
			bad = -1;
		}
		free(res.out);
		free(res.err);
	}
	return bad;
}

static int trace_report(struct runner *rn, char *why, size_t whylen)
{
	char tool[PATH_MAX], out[4096];
	char *argv[] = { tool, rn->results, NULL };
	int r;

	snprintf(tool, sizeof(tool), "%s/trace/bpfwire-path", BPFWIRE_BUILD_ROOT);
	r = run_cmd(argv, NULL, out, sizeof(out));
	fputs(out, stdout);
	if (r) {
		snprintf(why, whylen, "bpfwire-path %s failed (exit %d)", rn->results, r);
		return -1;
	}
	return 0;
}

static void print_reports(FILE *f, json_object *reports)
{
	json_object_object_foreach(reports, id, o) {
		bool first = true;

		fprintf(f, "  %s:", id);
		json_object_object_foreach(o, k, v) {
			enum json_type ty = json_object_get_type(v);

			if (ty != json_type_int && ty != json_type_boolean && ty != json_type_double &&
			    ty != json_type_string)
				continue;
			fprintf(f, "%s %s=%s", first ? "" : ",", k, json_object_get_string(v));
			first = false;
		}
		fputc('\n', f);
	}
}

static void write_summary(struct runner *rn, const char *verdict, const char *reason,
			  int splats, const char *splat_text)
{
	json_object *root = json_object_new_object();
	char path[PATH_MAX];
	FILE *f;

	json_object_object_add(root, "scenario", json_object_new_string(rn->s->name));
	json_object_object_add(root, "summary", json_object_new_string(rn->s->summary));
	json_object_object_add(root, "topology", json_object_new_string(rn->s->topology));
	json_object_object_add(root, "verdict", json_object_new_string(verdict));
	json_object_object_add(root, "reason", json_object_new_string(reason));
	json_object_object_add(root, "accel", json_object_new_string(rn->lab ? rn->lab->accel : ""));
	json_object_object_add(root, "boot_seconds", json_object_new_double(rn->lab ? rn->lab->boot_s : 0));
	json_object_object_add(root, "total_seconds", json_object_new_double(now_s() - rn->t0));
	json_object_object_add(root, "splats", json_object_new_int(splats));
	json_object_object_add(root, "splat_text", json_object_new_string(splat_text ? splat_text : ""));
	json_object_object_add(root, "steps", json_object_get(rn->steps));
	json_object_object_add(root, "reports", json_object_get(rn->reports));
	snprintf(path, sizeof(path), "%s/summary.json", rn->results);
	if (json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY))
		pr_warn("couldn't write %s", path);

	snprintf(path, sizeof(path), "%s/summary.txt", rn->results);
	f = fopen(path, "w");
	if (f) {
		size_t n = json_object_array_length(rn->steps);

		fprintf(f, "%s: %s%s%s\n", rn->s->name, verdict, reason[0] ? ": " : "", reason);
		fprintf(f, "  %s\n", rn->s->summary);
		fprintf(f, "topology %s, accel %s, boot %.1f s, total %.1f s\n", rn->s->topology,
			rn->lab ? rn->lab->accel : "-", rn->lab ? rn->lab->boot_s : 0,
			now_s() - rn->t0);
		fprintf(f, "steps:\n");
		for (size_t i = 0; i < n; i++) {
			json_object *js = json_object_array_get_idx(rn->steps, i), *v;

			fprintf(f, "  %-4s line %-3d %-6s %-5.1fs %s",
				json_object_get_string(json_object_object_get(js, "verdict")),
				json_object_get_int(json_object_object_get(js, "line")),
				json_object_get_string(json_object_object_get(js, "op")),
				json_object_get_double(json_object_object_get(js, "seconds")),
				json_object_get_string(json_object_object_get(js, "what")));
			if (json_object_object_get_ex(js, "why", &v))
				fprintf(f, "  <- %s", json_object_get_string(v));
			else if (json_object_object_get_ex(js, "values", &v))
				fprintf(f, "  (%s)", json_object_get_string(v));
			fputc('\n', f);
			if (json_object_object_get_ex(js, "stdout_last", &v) &&
			    json_object_get_string_len(v))
				fprintf(f, "         | %s\n", json_object_get_string(v));
		}
		fprintf(f, "reports:\n");
		print_reports(f, rn->reports);
		fprintf(f, "console splats: %d\n%s", splats, splat_text ? splat_text : "");
		fclose(f);
	}
	json_object_put(root);
}

static void step_what(const struct scn_step *st, char *out, size_t len)
{
	switch (st->op) {
	case SCN_EXEC:   snprintf(out, len, "%s: %s", st->host, st->text); break;
	case SCN_SPAWN:  snprintf(out, len, "%s on %s: %s", st->id, st->host, st->text); break;
	case SCN_WAIT:   snprintf(out, len, "%s", st->id); break;
	case SCN_LINK:   snprintf(out, len, "%s %s %s%s", st->host, st->iface, st->up ? "up" : "down",
				  st->bridge ? " (bridge port)" : ""); break;
	case SCN_NETEM:  snprintf(out, len, "%s %s %s", st->host, st->iface, st->text); break;
	case SCN_TAPSTATS: snprintf(out, len, "%s %s > %s", st->host, st->iface, st->text); break;
	case SCN_SLEEP:  snprintf(out, len, "%.1f s", st->seconds); break;
	case SCN_REPORT:
	case SCN_STATS:  snprintf(out, len, "%s from %s:%s", st->id, st->host, st->text); break;
	case SCN_CHECK:  snprintf(out, len, "%s", st->text); break;
	}
}

static void default_results(const char *name, char *out, size_t len)
{
	char cwd[PATH_MAX], stamp[32];
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(out, len, "%s/results/%s-%s", cwd, name, stamp);
}

int runner_run(const char *name, const struct runner_opts *o)
{
	struct runner rn = { 0 };
	struct lab_up_opts up = { .accel = o->accel ? o->accel : "auto", .capture = !o->no_capture,
				  .kernel = o->kernel, .timeout_s = 120 };
	char path[PATH_MAX], err[1024], reason[1024] = "";
	char *splat_text = NULL;
	size_t splat_len = 0;
	int splats = 0, failed = 0, nsteps;
	long trace_pids[TOPO_MAX_HOSTS] = { 0 };

	rn.s = calloc(1, sizeof(*rn.s));
	rn.t = calloc(1, sizeof(*rn.t));
	if (!rn.s || !rn.t)
		return LAB_FAIL;
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", runner_scenario_dir(), name);
	if (scenario_parse(path, NULL, rn.s, err, sizeof(err))) {
		pr_warn("run: %s", err);
		if (!strchr(name, '/') && access(path, F_OK))
			pr_warn("run: 'bpfwire-lab list' shows the scenarios");
		free(rn.s);
		free(rn.t);
		return LAB_EUSAGE;
	}
	snprintf(path, sizeof(path), "%s/topology/%s.topo", BPFWIRE_SOURCE_ROOT, rn.s->topology);
	if (topo_parse_file(path, rn.t, err, sizeof(err)) || check_against_topology(rn.s, rn.t)) {
		if (err[0])
			pr_warn("run: %s", err);
		failed = LAB_EUSAGE;
		goto out_free;
	}

	if (o->results)
		snprintf(rn.results, sizeof(rn.results), "%s", o->results);
	else
		default_results(rn.s->name, rn.results, sizeof(rn.results));
	snprintf(path, sizeof(path), "%s/steps", rn.results);
	if (mkdir_p(path, 0755)) {
		pr_warn("run: can't create %s: %s", path, errno_str(errno));
		failed = LAB_EUSAGE;
		goto out_free;
	}
	up.results = rn.results;
	rn.steps = json_object_new_array();
	rn.reports = json_object_new_object();
	rn.t0 = now_s();

	printf("scenario %s: %s\n", rn.s->name, rn.s->summary);
	printf("results: %s\n", rn.results);
	fflush(stdout);
	lab_install_signals();
	if (lab_up(&up, rn.t, &rn.lab)) {
		snprintf(reason, sizeof(reason), "the lab did not come up (topology %s)", rn.s->topology);
		failed = LAB_FAIL;
		goto summary;
	}

	if (o->trace && trace_start(&rn, trace_pids, reason, sizeof(reason))) {
		failed = LAB_FAIL;
		printf("FAIL: %s\n", reason);
	}
	nsteps = rn.s->nsteps;
	for (int i = 0; i < nsteps; i++) {
		const struct scn_step *st = &rn.s->steps[i];
		json_object *js = json_object_new_object();
		char what[512], why[768] = "";
		double t = now_s();
		int r;

		step_what(st, what, sizeof(what));
		json_object_object_add(js, "line", json_object_new_int(st->line));
		json_object_object_add(js, "op", json_object_new_string(scenario_op_name(st->op)));
		json_object_object_add(js, "what", json_object_new_string(what));
		json_object_array_add(rn.steps, js);
		if (failed || lab_interrupted) {
			json_object_object_add(js, "verdict", json_object_new_string("skip"));
			json_object_object_add(js, "seconds", json_object_new_double(0));
			continue;
		}
		printf("[%6.1fs] step %d/%d (line %d): %s %s\n", now_s() - rn.t0, i + 1, nsteps,
		       st->line, scenario_op_name(st->op), what);
		fflush(stdout);
		r = run_step(&rn, i, js, why, sizeof(why));
		json_object_object_add(js, "seconds", json_object_new_double(now_s() - t));
		json_object_object_add(js, "verdict", json_object_new_string(r ? "FAIL" : "ok"));
		if (r) {
			json_object_object_add(js, "why", json_object_new_string(why));
			printf("[%6.1fs]   FAIL: %s\n", now_s() - rn.t0, why);
			snprintf(reason, sizeof(reason), "step %d (%s:%d, %s) failed: %s", i + 1,
				 rn.s->name, st->line, scenario_op_name(st->op), why);
			failed = LAB_FAIL;
		} else if (now_s() - rn.t0 > rn.s->timeout) {
			snprintf(reason, sizeof(reason), "scenario timeout of %.0f s exceeded", rn.s->timeout);
			failed = LAB_FAIL;
		}
	}
	if (lab_interrupted && !failed) {
		snprintf(reason, sizeof(reason), "interrupted");
		failed = LAB_FAIL;
	}
	if (o->trace && !lab_interrupted) {
		char why[512] = "";

		/* The recorders have flushed their shares: build RUN/path.*. */
		if ((trace_stop(&rn, trace_pids, why, sizeof(why)) ||
		     trace_report(&rn, why, sizeof(why))) && !failed) {
			snprintf(reason, sizeof(reason), "%s", why);
			failed = LAB_FAIL;
		}
	}

	{
		FILE *mf = open_memstream(&splat_text, &splat_len);

		splats = lab_scan_splats(rn.lab, mf ? mf : stderr);
		if (mf)
			fclose(mf);
	}
	if (splats > 0) {
		if (!failed)
			snprintf(reason, sizeof(reason), "%d kernel splat(s) in the consoles", splats);
		failed = LAB_FAIL;
	}
summary:
	write_summary(&rn, failed ? "FAIL" : "PASS", reason, splats, splat_text);
	if (rn.lab) {
		if (o->keep && !lab_interrupted) {
			printf("lab left up (--keep): bpfwire-lab status %s; bpfwire-lab down %s\n",
			       rn.lab->id, rn.lab->id);
		} else {
			lab_down(rn.lab, false);
		}
		lab_free(rn.lab);
	}
	printf("%s: %s%s%s\n", rn.s->name, failed ? "FAIL" : "PASS", reason[0] ? ": " : "", reason);
	printf("traces: %s (summary.txt, summary.json, consoles, pcaps)\n", rn.results);
	free(splat_text);
	json_object_put(rn.steps);
	json_object_put(rn.reports);
out_free:
	scenario_free(rn.s);
	free(rn.s);
	free(rn.t);
	return failed;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int runner_list(FILE *f)
{
	const char *dir = runner_scenario_dir();
	struct scenario *s = calloc(1, sizeof(*s));
	char *names[256], path[PATH_MAX], err[512];
	struct dirent *de;
	int n = 0, bad = 0;
	DIR *d = opendir(dir);

	if (!d || !s) {
		pr_warn("list: can't read %s: %s", dir, errno_str(errno));
		free(s);
		if (d)
			closedir(d);
		return LAB_FAIL;
	}
	while ((de = readdir(d)) && n < 256) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;	/* README.md and friends are not scenarios */
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (scenario_parse(path, NULL, s, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			bad = 1;
		} else {
			fprintf(f, "%-16s %-8s %s\n", s->name, s->topology, s->summary);
			scenario_free(s);
		}
		free(names[i]);
	}
	free(s);
	return bad ? LAB_FAIL : LAB_OK;
}
