// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two runs' summary.json matched into a struct cmp_result (compare.h):
 * steps, checks and counts, each marked same, changed or one-sided.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "compare.h"
#include "errnames.h"
#include "file.h"
#include "jsonget.h"
#include "summary_read.h"

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

static void *grow(void *p, int n, size_t size)
{
	/* the arrays grow by one; summary.json's sizes are small */
	p = realloc(p, (size_t)(n + 1) * size);
	if (!p)
		abort();
	return p;
}

/* A field of o as text: a string as is, any other scalar as JSON; NULL if absent. */
static char *field_text(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	if (json_object_is_type(v, json_type_string))
		return xstrdup(json_object_get_string(v));
	return xstrdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* ---- loading ------------------------------------------------------------ */

static json_object *load_summary(const char *dir, struct cmp_run *run, char *err, size_t errlen)
{
	struct run_summary rs;
	char path[4096];
	const char *slash;
	json_object *o;
	size_t end;
	char date[32];

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	run_summary_load(&rs, dir);
	o = rs.root;	/* ours now: it outlives rs */
	err[0] = '\0';
	if (!rs.dir_ok)
		snprintf(err, errlen, "%s: not a run directory: %s", dir,
			 rs.dir_errno ? errno_str(rs.dir_errno) : "not a directory");
	else if (rs.read_errno)
		snprintf(err, errlen, "%s: %s", path, rs.read_errno == EFBIG ? "over the 64 MiB cap, not read"
			 : errno_str(rs.read_errno));
	else if (rs.jerr != json_tokener_success)
		snprintf(err, errlen, "%s: not JSON: %s", path, json_tokener_error_desc(rs.jerr));
	else if (!jget(o, "steps", json_type_array) || !json_object_object_get_ex(o, "verdict", NULL))
		snprintf(err, errlen, "%s: not a run's summary (no verdict and steps)", path);
	if (err[0]) {
		json_object_put(o);
		return NULL;
	}
	run->dir = xstrdup(dir);
	end = strlen(dir);
	while (end > 1 && dir[end - 1] == '/')
		end--;
	slash = memrchr(dir, '/', end);
	run->id = slash ? strndup(slash + 1, end - (size_t)(slash + 1 - dir)) : strndup(dir, end);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&rs.mtime));
	run->date = xstrdup(date);
	run->scenario = field_text(o, "scenario");
	run->verdict = field_text(o, "verdict");
	run->kernel_release = field_text(o, "kernel_release");
	run->kernel_series = field_text(o, "kernel_series");
	if (run->kernel_series && !strcmp(run->kernel_series, "null")) {
		free(run->kernel_series);
		run->kernel_series = NULL;
	}
	return o;
}

/* ---- steps and checks --------------------------------------------------- */

static void side_fill(struct cmp_side *s, json_object *js)
{
	char *out = field_text(js, "stdout_last"), *errs = field_text(js, "stderr_last");
	char *ex = field_text(js, "exit"), *vals = field_text(js, "values");

	s->verdict = field_text(js, "verdict");
	if (!s->verdict)
		s->verdict = xstrdup("?");
	s->why = field_text(js, "why");
	if (vals)
		s->detail = vals;
	else if (ex)
		s->detail = xprintf("exit %s", ex);
	free(ex);
	if ((out && *out) || (errs && *errs))
		s->output = xprintf("%s%s%s", out ? out : "", out && *out && errs && *errs ? "\n" : "",
				    errs ? errs : "");
	free(out);
	free(errs);
	s->seconds = jget_num(js, "seconds", 0);
}

static void side_free(struct cmp_side *s)
{
	free(s->verdict);
	free(s->detail);
	free(s->output);
	free(s->why);
}

static int step_line(json_object *js)
{
	return jget_int(js, "line", 0);
}

static bool step_key_eq(json_object *a, json_object *b, bool line_too)
{
	char *oa = field_text(a, "op"), *ob = field_text(b, "op");
	char *wa = field_text(a, "what"), *wb = field_text(b, "what");
	bool eq = same(oa, ob) && same(wa, wb) && (!line_too || step_line(a) == step_line(b));

	free(oa);
	free(ob);
	free(wa);
	free(wb);
	return eq;
}

static bool is_check(json_object *js)
{
	char *op = field_text(js, "op");
	bool c = op && !strcmp(op, "check");

	free(op);
	return c;
}

static void add_tests(struct cmp_result *r, const struct cmp_step *st, int ia, int ib);

static void add_step(struct cmp_result *r, json_object *ja, json_object *jb, int ia, int ib)
{
	json_object *any = ja ? ja : jb;
	struct cmp_step **arr = is_check(any) ? &r->checks : &r->steps;
	int *n = is_check(any) ? &r->nchecks : &r->nsteps;
	struct cmp_step *s;

	*arr = grow(*arr, *n, sizeof(**arr));
	s = &(*arr)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->line = step_line(any);
	s->line_b = jb ? step_line(jb) : 0;
	s->op = field_text(any, "op");
	s->what = field_text(any, "what");
	if (!s->op)
		s->op = xstrdup("?");
	if (!s->what)
		s->what = xstrdup("");
	if (ja)
		side_fill(&s->side[0], ja);
	if (jb)
		side_fill(&s->side[1], jb);
	if (!ja || !jb) {
		s->mark = ja ? CMP_ONLY_A : CMP_ONLY_B;
		s->verdict_changed = true;
	} else if (!same(s->side[0].verdict, s->side[1].verdict)) {
		s->mark = CMP_CHANGED;
		s->verdict_changed = true;
	} else if (!same(s->side[0].detail, s->side[1].detail) || !same(s->side[0].why, s->side[1].why)) {
		s->mark = CMP_CHANGED;
	} else if (!same(s->side[0].output, s->side[1].output)) {
		s->output_changed = true;	/* not marked: timings and pids differ run to run */
		r->outputs_changed++;
	}
	if (s->verdict_changed)
		r->verdicts_changed++;
	if (strcmp(s->op, "check"))
		add_tests(r, s, ja ? ia : -1, jb ? ib : -1);
}

/*
 * A's steps in order, each with B's step of the same line, op and what,
 * else the first unmatched one of the same op and what; B's unmatched
 * steps go in after the A step that precedes them in B.
 */
static void match_steps(struct cmp_result *r, json_object *sa, json_object *sb)
{
	size_t na = json_object_array_length(sa), nb = json_object_array_length(sb);
	int *b_of_a = calloc(na + 1, sizeof(int)), *taken = calloc(nb + 1, sizeof(int));
	size_t next_b = 0;

	if (!b_of_a || !taken)
		abort();
	for (size_t i = 0; i < na; i++) {
		json_object *a = json_object_array_get_idx(sa, i);

		b_of_a[i] = -1;
		for (int pass = 0; pass < 2 && b_of_a[i] < 0; pass++)
			for (size_t j = 0; j < nb; j++)
				if (!taken[j] && step_key_eq(a, json_object_array_get_idx(sb, j), pass == 0)) {
					b_of_a[i] = (int)j;
					taken[j] = 1;
					break;
				}
	}
	for (size_t i = 0; i < na; i++) {
		/* B's own steps that stand before this A step's partner */
		if (b_of_a[i] >= 0) {
			for (; next_b < (size_t)b_of_a[i]; next_b++)
				if (!taken[next_b])
					add_step(r, NULL, json_object_array_get_idx(sb, next_b), -1, (int)next_b);
			next_b = (size_t)b_of_a[i] + 1;
		}
		add_step(r, json_object_array_get_idx(sa, i),
			 b_of_a[i] >= 0 ? json_object_array_get_idx(sb, (size_t)b_of_a[i]) : NULL, (int)i, b_of_a[i]);
	}
	for (; next_b < nb; next_b++)
		if (!taken[next_b])
			add_step(r, NULL, json_object_array_get_idx(sb, next_b), -1, (int)next_b);
	free(b_of_a);
	free(taken);
}

/* ---- tests: TAP lines in a step's output -------------------------------- */

struct tap_res {
	char *name;
	char *verdict;	/* "ok", "not ok", "ok # SKIP", "not ok # TODO" */
	bool taken;
};

/* "ok 3 - name # SKIP why" -> name and verdict; false for any other line. */
static bool tap_line(const char *l, size_t len, struct tap_res *t)
{
	size_t i = 0, name0, name1;
	bool ok;
	const char *hash;

	if (len >= 3 && !strncmp(l, "ok ", 3)) {
		ok = true;
		i = 3;
	} else if (len >= 7 && !strncmp(l, "not ok ", 7)) {
		ok = false;
		i = 7;
	} else {
		return false;
	}
	while (i < len && l[i] >= '0' && l[i] <= '9')
		i++;
	if (i + 3 <= len && !strncmp(l + i, " - ", 3))
		i += 3;
	while (i < len && l[i] == ' ')
		i++;
	name0 = i;
	hash = memmem(l + i, len - i, " # ", 3);
	name1 = hash ? (size_t)(hash - l) : len;
	t->name = strndup(l + name0, name1 - name0);
	if (!t->name)
		abort();
	if (hash && !strncasecmp(hash + 3, "skip", 4))
		t->verdict = xprintf("%s # SKIP", ok ? "ok" : "not ok");
	else if (hash && !strncasecmp(hash + 3, "todo", 4))
		t->verdict = xprintf("%s # TODO", ok ? "ok" : "not ok");
	else
		t->verdict = xstrdup(ok ? "ok" : "not ok");
	t->taken = false;
	return true;
}

/* The TAP results in RUN/steps/NN.out (step idx), each name once. */
static int tap_read(const struct cmp_run *run, int idx, struct tap_res **out)
{
	char path[4200], *data, *p, *nl;
	struct tap_res *t = NULL;
	size_t len;
	int n = 0;

	*out = NULL;
	if (idx < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/steps/%02d.out", run->dir, idx + 1);
	data = read_file_max(path, &len, CMP_STEP_OUT_MAX);
	if (!data)
		return 0;	/* no output kept (spawn, check), or over the cap */
	for (p = data; p < data + len; p = nl + 1) {
		struct tap_res one;
		bool dup = false;

		nl = memchr(p, '\n', (size_t)(data + len - p));
		if (!nl)
			nl = data + len;
		if (!tap_line(p, (size_t)(nl - p), &one))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(t[i].name, one.name);
		if (dup) {	/* a step that prints its TAP twice (cat, then grep ^ok) */
			free(one.name);
			free(one.verdict);
			continue;
		}
		t = grow(t, n, sizeof(*t));
		t[n++] = one;
	}
	free(data);
	*out = t;
	return n;
}

static void add_test(struct cmp_result *r, const struct cmp_step *st, const char *name,
		     const char *va, const char *vb)
{
	struct cmp_step *s;

	r->tests = grow(r->tests, r->ntests, sizeof(*r->tests));
	s = &r->tests[r->ntests++];
	memset(s, 0, sizeof(*s));
	s->line = st->line;
	s->line_b = st->line_b;
	s->op = xstrdup("tap");
	s->what = xstrdup(name);
	if (va)
		s->side[0].verdict = xstrdup(va);
	if (vb)
		s->side[1].verdict = xstrdup(vb);
	s->mark = !va ? CMP_ONLY_B : !vb ? CMP_ONLY_A : same(va, vb) ? CMP_SAME : CMP_CHANGED;
	s->verdict_changed = s->mark != CMP_SAME;
	if (s->verdict_changed)
		r->verdicts_changed++;
}

/* The TAP results of one step on each side, matched by name. */
static void add_tests(struct cmp_result *r, const struct cmp_step *st, int ia, int ib)
{
	struct tap_res *ta, *tb;
	int na = tap_read(&r->run[0], ia, &ta), nb = tap_read(&r->run[1], ib, &tb);

	for (int i = 0; i < na; i++) {
		const char *vb = NULL;

		for (int j = 0; j < nb && !vb; j++)
			if (!tb[j].taken && !strcmp(ta[i].name, tb[j].name)) {
				tb[j].taken = true;
				vb = tb[j].verdict;
			}
		add_test(r, st, ta[i].name, ta[i].verdict, vb);
	}
	for (int j = 0; j < nb; j++)
		if (!tb[j].taken)
			add_test(r, st, tb[j].name, NULL, tb[j].verdict);
	for (int i = 0; i < na; i++) {
		free(ta[i].name);
		free(ta[i].verdict);
	}
	for (int j = 0; j < nb; j++) {
		free(tb[j].name);
		free(tb[j].verdict);
	}
	free(ta);
	free(tb);
}

/* ---- counts ------------------------------------------------------------- */

static void add_count(struct cmp_result *r, const char *name, char *va, char *vb)
{
	struct cmp_count *c;

	if (!va && !vb)
		return;	/* a field neither report has: nothing to show */
	r->counts = grow(r->counts, r->ncounts, sizeof(*r->counts));
	c = &r->counts[r->ncounts++];
	c->name = xstrdup(name);
	c->val[0] = va;
	c->val[1] = vb;
	c->mark = !va && vb ? CMP_ONLY_B : va && !vb ? CMP_ONLY_A : same(va, vb) ? CMP_SAME : CMP_CHANGED;
	if (c->mark != CMP_SAME)
		r->counts_changed++;
}

/* The object at a dotted path under o ("wire.senders"), or NULL. */
static json_object *at(json_object *o, const char *path)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); o && tok; tok = strtok_r(NULL, ".", &save)) {
		json_object *v = NULL;

		if (json_object_is_type(o, json_type_object))
			json_object_object_get_ex(o, tok, &v);
		else if (json_object_is_type(o, json_type_array))
			v = json_object_array_get_idx(o, (size_t)atoi(tok));
		o = v;
	}
	return o;
}

static char *at_text(json_object *o, const char *path)
{
	const char *dot = strrchr(path, '.');
	char parent[256];

	if (!dot)
		return field_text(o, path);
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	return field_text(at(o, parent), dot + 1);
}

static void count_paths(struct cmp_result *r, const char *id, json_object *ra, json_object *rb,
			const char *const *paths)
{
	for (int i = 0; paths[i]; i++) {
		char name[512];

		snprintf(name, sizeof(name), "%s.%s", id, paths[i]);
		add_count(r, name, at_text(ra, paths[i]), at_text(rb, paths[i]));
	}
}

/* The keys of both objects, A's first then B's own, for per-sender rows. */
static int union_keys(json_object *a, json_object *b, const char ***out)
{
	const char **k = NULL;
	int n = 0;
	json_object *sides[2] = { a, b };

	for (int s = 0; s < 2; s++) {
		if (!sides[s] || !json_object_is_type(sides[s], json_type_object))
			continue;
		json_object_object_foreach(sides[s], key, val) {
			bool seen = false;

			(void)val;
			for (int i = 0; i < n && !seen; i++)
				seen = !strcmp(k[i], key);
			if (!seen) {
				k = grow(k, n, sizeof(*k));
				k[n++] = key;
			}
		}
	}
	*out = k;
	return n;
}

static const char *const rx_paths[] = {
	"valid", "invalid", "wire.received", "wire.lost", "wire.duplicates", "wire.reordered", NULL
};
static const char *const rx_sender_paths[] = { "received", "lost", "duplicates", "reordered", NULL };

static void receiver_counts(struct cmp_result *r, const char *id, json_object *ra, json_object *rb)
{
	json_object *sa = at(ra, "wire.senders"), *sb = at(rb, "wire.senders");
	const char **keys;
	int n;

	count_paths(r, id, ra, rb, rx_paths);
	n = union_keys(sa, sb, &keys);
	for (int i = 0; i < n; i++) {
		char prefix[512];

		snprintf(prefix, sizeof(prefix), "%s.wire.senders.%s", id, keys[i]);
		for (int p = 0; rx_sender_paths[p]; p++) {
			char name[640];

			snprintf(name, sizeof(name), "%s.%s", prefix, rx_sender_paths[p]);
			add_count(r, name, field_text(at(sa, keys[i]), rx_sender_paths[p]),
				  field_text(at(sb, keys[i]), rx_sender_paths[p]));
		}
	}
	free(keys);
}

/* Every scalar leaf under a and b (objects), named prefix.key.key... */
static void leaf_counts(struct cmp_result *r, const char *prefix, json_object *a, json_object *b, int depth)
{
	const char **keys;
	int n = union_keys(a, b, &keys);

	for (int i = 0; i < n; i++) {
		json_object *va = NULL, *vb = NULL;
		char name[640];

		if (a)
			json_object_object_get_ex(a, keys[i], &va);
		if (b)
			json_object_object_get_ex(b, keys[i], &vb);
		snprintf(name, sizeof(name), "%s.%s", prefix, keys[i]);
		if ((json_object_is_type(va, json_type_object) || json_object_is_type(vb, json_type_object))) {
			if (depth < 4)
				leaf_counts(r, name, json_object_is_type(va, json_type_object) ? va : NULL,
					    json_object_is_type(vb, json_type_object) ? vb : NULL, depth + 1);
		} else if (!json_object_is_type(va, json_type_array) && !json_object_is_type(vb, json_type_array)) {
			add_count(r, name, field_text(a, keys[i]), field_text(b, keys[i]));
		}
	}
	free(keys);
}

static void sender_counts(struct cmp_result *r, const char *id, json_object *ra, json_object *rb)
{
	json_object *sa = at(ra, "senders"), *sb = at(rb, "senders");
	size_t na = json_object_is_type(sa, json_type_array) ? json_object_array_length(sa) : 0;
	size_t nb = json_object_is_type(sb, json_type_array) ? json_object_array_length(sb) : 0;

	for (size_t i = 0; i < (na > nb ? na : nb); i++) {
		json_object *ca = i < na ? at(json_object_array_get_idx(sa, i), "counters") : NULL;
		json_object *cb = i < nb ? at(json_object_array_get_idx(sb, i), "counters") : NULL;
		char prefix[512];

		snprintf(prefix, sizeof(prefix), "%s.senders.%zu.counters", id, i);
		if (!ca && !cb)
			continue;
		leaf_counts(r, prefix, json_object_is_type(ca, json_type_object) ? ca : NULL,
			    json_object_is_type(cb, json_type_object) ? cb : NULL, 0);
	}
}

/* Any other kind: its top-level numbers. */
static void other_counts(struct cmp_result *r, const char *id, json_object *ra, json_object *rb)
{
	const char **keys;
	int n = union_keys(ra, rb, &keys);

	for (int i = 0; i < n; i++) {
		json_object *va = NULL, *vb = NULL;
		char name[640];

		if (ra)
			json_object_object_get_ex(ra, keys[i], &va);
		if (rb)
			json_object_object_get_ex(rb, keys[i], &vb);
		if (!json_object_is_type(va, json_type_int) && !json_object_is_type(va, json_type_double) &&
		    !json_object_is_type(vb, json_type_int) && !json_object_is_type(vb, json_type_double))
			continue;
		snprintf(name, sizeof(name), "%s.%s", id, keys[i]);
		add_count(r, name, field_text(ra, keys[i]), field_text(rb, keys[i]));
	}
	free(keys);
}

static void report_counts(struct cmp_result *r, json_object *ja, json_object *jb)
{
	json_object *repa = at(ja, "reports"), *repb = at(jb, "reports");
	const char **ids;
	int n = union_keys(repa, repb, &ids);

	for (int i = 0; i < n; i++) {
		json_object *ra = at(repa, ids[i]), *rb = at(repb, ids[i]);
		char *kind = field_text(ra ? ra : rb, "kind");

		if (ra && !json_object_is_type(ra, json_type_object))
			ra = NULL;
		if (rb && !json_object_is_type(rb, json_type_object))
			rb = NULL;
		add_count(r, ids[i], ra ? field_text(ra, "kind") : NULL, rb ? field_text(rb, "kind") : NULL);
		if (kind && !strcmp(kind, "receiver"))
			receiver_counts(r, ids[i], ra, rb);
		else if (kind && !strcmp(kind, "sender-stats"))
			sender_counts(r, ids[i], ra, rb);
		else
			other_counts(r, ids[i], ra, rb);
		free(kind);
	}
	free(ids);
}

/* ---- the API ------------------------------------------------------------ */

int cmp_load(const char *dir_a, const char *dir_b, struct cmp_result *r, char *err, size_t errlen)
{
	static const char *const run_fields[] = { "verdict", "splats", "kernel_release", "kernel_series", NULL };
	json_object *ja, *jb, *sa, *sb;

	memset(r, 0, sizeof(*r));
	ja = load_summary(dir_a, &r->run[0], err, errlen);
	jb = ja ? load_summary(dir_b, &r->run[1], err, errlen) : NULL;
	if (!ja || !jb) {
		json_object_put(ja);
		cmp_free(r);
		return -1;
	}
	json_object_object_get_ex(ja, "steps", &sa);
	json_object_object_get_ex(jb, "steps", &sb);
	match_steps(r, sa, sb);
	for (int i = 0; run_fields[i]; i++)
		add_count(r, run_fields[i], field_text(ja, run_fields[i]), field_text(jb, run_fields[i]));
	if (!same(r->run[0].verdict, r->run[1].verdict))
		r->verdicts_changed++;
	report_counts(r, ja, jb);
	json_object_put(ja);
	json_object_put(jb);
	return 0;
}

static void steps_free(struct cmp_step *s, int n)
{
	for (int i = 0; i < n; i++) {
		free(s[i].op);
		free(s[i].what);
		side_free(&s[i].side[0]);
		side_free(&s[i].side[1]);
	}
	free(s);
}

void cmp_free(struct cmp_result *r)
{
	for (int i = 0; i < 2; i++) {
		struct cmp_run *run = &r->run[i];

		free(run->dir);
		free(run->id);
		free(run->date);
		free(run->scenario);
		free(run->verdict);
		free(run->kernel_release);
		free(run->kernel_series);
	}
	steps_free(r->steps, r->nsteps);
	steps_free(r->checks, r->nchecks);
	steps_free(r->tests, r->ntests);
	for (int i = 0; i < r->ncounts; i++) {
		free(r->counts[i].name);
		free(r->counts[i].val[0]);
		free(r->counts[i].val[1]);
	}
	free(r->counts);
	memset(r, 0, sizeof(*r));
}

int cmp_exit_status(const struct cmp_result *r)
{
	return r->verdicts_changed ? 1 : 0;
}

const char *cmp_mark_sign(enum cmp_mark m)
{
	switch (m) {
	case CMP_SAME: return " ";
	case CMP_CHANGED: return "*";
	case CMP_ONLY_A: return "<";
	case CMP_ONLY_B: return ">";
	}
	return "?";
}
