// SPDX-License-Identifier: GPL-2.0-only
/* Which tests a series can reach: see reach.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "hunks.h"
#include "log.h"
#include "reach.h"
#include "scenario/runner.h"
#include "scenario/scenario.h"

void rc_map_free(struct rc_map *m)
{
	for (size_t i = 0; i < m->n; i++) {
		for (size_t k = 0; k < m->r[i].nwords; k++)
			free(m->r[i].words[k]);
		free(m->r[i].words);
		free(m->r[i].glob);
	}
	free(m->r);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

static bool family_ok(const char *w)
{
	for (const char *p = w; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	return w[0] != '\0';
}

static bool special(const char *w)
{
	return !strcmp(w, "all") || !strcmp(w, "none");
}

/* One rule, its words split in place; "what is wrong" in why, or NULL. */
static const char *parse_rule(char *line, struct rc_rule *rule)
{
	static const char *const kinds[] = { "file", "kfunc", "test", "fallback" };
	char *save = NULL, *kw = strtok_r(line, " \t", &save), *w;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds) && strcmp(kw, kinds[k]); k++)
		;
	if (k == ARRAY_SIZE(kinds))
		return "unknown rule: 'file', 'kfunc', 'test' or 'fallback'";
	rule->kind = (enum rc_kind)k;
	if (rule->kind != RC_FALLBACK) {
		w = strtok_r(NULL, " \t", &save);
		if (!w || !(rule->glob = strdup(w)))
			return w ? "out of memory" : "a rule needs a GLOB and a FAMILY (e.g. 'file net/core/bpf_ksock.c ksock')";
	}
	while ((w = strtok_r(NULL, " \t", &save))) {
		char **nw;

		if (rule->kind == RC_FALLBACK ? !w[0] : !family_ok(w))
			return "a family is lower-case letters, digits, '-' and '_'";
		for (size_t i = 0; i < rule->nwords; i++)
			if (!strcmp(rule->words[i], w))
				return "a word twice";
		nw = realloc(rule->words, (rule->nwords + 1) * sizeof(*nw));
		if (!nw)
			return "out of memory";
		rule->words = nw;
		if (!(nw[rule->nwords] = strdup(w)))
			return "out of memory";
		rule->nwords++;
	}
	if (!rule->nwords)
		return rule->kind == RC_FALLBACK ? "'fallback' needs the tests it runs" :
		       "a rule needs a GLOB and a FAMILY (e.g. 'file net/core/bpf_ksock.c ksock')";
	if (rule->kind == RC_FALLBACK)
		return NULL;
	for (size_t i = 0; i < rule->nwords; i++)
		if (special(rule->words[i]) && (rule->kind == RC_TEST || rule->nwords > 1))
			return rule->kind == RC_TEST ? "a test sees families, never 'all' or 'none'" :
			       "'all' and 'none' stand alone";
	return NULL;
}

int rc_parse(const char *path, const char *text, size_t len, struct rc_map *m, char *err, size_t errlen)
{
	char *buf, *line, *next;
	int lineno = 0;

	memset(m, 0, sizeof(*m));
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: a NUL byte in it", path);
		return -1;
	}
	buf = strndup(text, len);
	m->path = strdup(path);
	if (!buf || !m->path) {
		snprintf(err, errlen, "%s: %s", path, errno_str(ENOMEM));
		free(buf);
		rc_map_free(m);
		return -1;
	}
	/* by hand, not strtok_r: an empty line counts */
	for (line = buf; line; line = next) {
		struct rc_rule rule = { .line = ++lineno }, *nr = NULL;
		const char *why;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		why = parse_rule(line, &rule);
		if (!why && !(nr = realloc(m->r, (m->n + 1) * sizeof(*nr))))
			why = "out of memory";
		if (why) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
			for (size_t k = 0; k < rule.nwords; k++)
				free(rule.words[k]);
			free(rule.words);
			free(rule.glob);
			free(buf);
			rc_map_free(m);
			return -1;
		}
		m->r = nr;
		m->r[m->n++] = rule;
	}
	free(buf);
	return 0;
}

int rc_load(const char *path, struct rc_map *m, char *err, size_t errlen)
{
	size_t len;
	char *text = read_file(path, &len);
	int r;

	memset(m, 0, sizeof(*m));
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	r = rc_parse(path, text, len, m, err, errlen);
	free(text);
	return r;
}

void rc_sel_free(struct rc_sel *sel)
{
	for (size_t i = 0; i < sel->nreached; i++)
		free(sel->reached[i]);
	for (size_t i = 0; i < sel->nfiles; i++)
		free(sel->files[i].name), free(sel->files[i].families);
	for (size_t i = 0; i < sel->nkfuncs; i++)
		free(sel->kfuncs[i].name), free(sel->kfuncs[i].families);
	for (size_t i = 0; i < sel->n; i++)
		free(sel->t[i].name), free(sel->t[i].sees), free(sel->t[i].why);
	free(sel->reached), free(sel->files), free(sel->kfuncs), free(sel->t);
	free(sel->why_all), free(sel->map), free(sel->shared);
	memset(sel, 0, sizeof(*sel));
}

/* "a b c" of words */
static char *joined(char *const *w, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		strcat(strcat(s, i ? " " : ""), w[i]);
	return s;
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; p && (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

bool rc_reaches(const struct rc_sel *sel, const char *family)
{
	for (size_t i = 0; i < sel->nreached; i++)
		if (!strcmp(sel->reached[i], family))
			return true;
	return false;
}

static int add_reached(struct rc_sel *sel, const char *family)
{
	char **nr;

	if (special(family) || rc_reaches(sel, family))
		return 0;
	nr = realloc(sel->reached, (sel->nreached + 1) * sizeof(*nr));
	if (!nr)
		return -1;
	sel->reached = nr;
	return (nr[sel->nreached++] = strdup(family)) ? 0 : -1;
}

/* A path's or a kfunc's first matching rule of kind; its families into sel. */
static int map_one(const struct rc_map *m, enum rc_kind kind, const char *name, struct rc_src *src,
		   struct rc_sel *sel)
{
	src->name = strdup(name);
	if (!src->name)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		const struct rc_rule *r = &m->r[i];

		if (r->kind != kind || fnmatch(r->glob, name, 0))
			continue;
		src->line = r->line;
		src->families = joined(r->words, r->nwords);
		if (!src->families)
			return -1;
		for (size_t k = 0; k < r->nwords; k++)
			if (add_reached(sel, r->words[k]))
				return -1;
		return 0;
	}
	return 0;
}

static int set_all(struct rc_sel *sel, const char *fmt, const char *a, const char *b)
{
	char *why = NULL;

	if (sel->all)
		return 0;
	sel->all = true;
	if (asprintf(&why, fmt, a, b) < 0)
		return -1;
	sel->why_all = why;
	return 0;
}

/* The scenarios of scn_dir, listed once for a whole selection. */
struct scn_list {
	const char *dir;
	char *names[256];
	int n;
};

static void scn_list_free(struct scn_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->names[i]);
	l->n = 0;
}

static bool scn_listed(const struct scn_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return true;
	return false;
}

/* A test's scenario `needs` as families; false when it is no scenario of l->dir. */
static bool scenario_needs(const struct scn_list *l, const char *name, char *out, size_t len)
{
	char path[4096], err[512];
	struct scenario *s;
	bool ok = false;

	if (strchr(name, '/'))
		return false;
	snprintf(path, sizeof(path), "%s/%s", l->dir, name);
	if (!file_exists(path) || !scn_listed(l, name))
		return false;
	s = calloc(1, sizeof(*s));
	if (s && !scenario_parse(path, NULL, s, err, sizeof(err))) {
		unsigned n = s->needs;

		/* no `needs`: ksock, as the runner reads it */
		if (!(n & SCN_NEEDS_STATED))
			n |= SCN_NEEDS_KSOCK;
		snprintf(out, len, "%s%s%s", n & SCN_NEEDS_KSOCK ? "ksock" : "",
			 (n & SCN_NEEDS_KSOCK) && (n & SCN_NEEDS_NETPOLL) ? " " : "",
			 n & SCN_NEEDS_NETPOLL ? "netpoll" : "");
		ok = true;
	}
	if (s)
		scenario_free(s);
	free(s);
	return ok;
}

/* What a test sees: its `needs` and every `test` rule that matches; NULL *sees when nothing says. */
static int test_sees(const struct rc_map *m, const struct scn_list *l, const char *name, char **sees, bool *scn)
{
	char needs[64], buf[1024] = "";
	bool known;

	*scn = known = scenario_needs(l, name, needs, sizeof(needs));
	if (known)
		snprintf(buf, sizeof(buf), "%s", needs);
	for (size_t i = 0; i < m->n; i++) {
		const struct rc_rule *r = &m->r[i];

		if (r->kind != RC_TEST || fnmatch(r->glob, name, 0))
			continue;
		known = true;
		for (size_t k = 0; k < r->nwords; k++)
			if (!has_word(buf, r->words[k]))
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", buf[0] ? " " : "",
					 r->words[k]);
	}
	*sees = known ? strdup(buf) : NULL;
	return known && !*sees ? -1 : 0;
}

/* "ksock (net/core/bpf_ksock.c, kfunc bpf_ksock_send)": what reaches the series' families. */
static char *reach_summary(const struct rc_sel *sel)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	bool first = true;

	if (!f)
		return NULL;
	if (!sel->nreached)
		fputs("no family", f);
	for (size_t i = 0; i < sel->nreached; i++)
		fprintf(f, "%s%s", i ? " " : "", sel->reached[i]);
	fputs(" (", f);
	/* raw: the text escapes it once, as it prints it */
	for (size_t i = 0; i < sel->nfiles; i++, first = false)
		fprintf(f, "%s%s", first ? "" : ", ", sel->files[i].name);
	for (size_t i = 0; i < sel->nkfuncs; i++, first = false)
		fprintf(f, "%s%s", first ? "kfunc " : ", kfunc ", sel->kfuncs[i].name);
	fputc(')', f);
	fclose(f);
	return s;
}

int rc_select(const struct rc_map *m, const struct series_touch *touch, const char *forced, const char *scn_dir,
	      char *const *names, size_t n, struct rc_sel *sel)
{
	struct scn_list scns = { .dir = scn_dir };
	char *summary = NULL;
	size_t nhit = 0;

	memset(sel, 0, sizeof(*sel));
	sel->map = strdup(m->path ? m->path : "the map");
	sel->files = calloc(touch->nfiles + 1, sizeof(*sel->files));
	sel->kfuncs = calloc(touch->nkfuncs + touch->nfuncs + 1, sizeof(*sel->kfuncs));
	sel->t = calloc(n + 1, sizeof(*sel->t));
	if (!sel->map || !sel->files || !sel->kfuncs || !sel->t)
		goto oom;
	if (forced && set_all(sel, "%s%s", forced, !strcmp(forced, "--tests") ? " names them" : ""))
		goto oom;
	if (touch->unread[0] && set_all(sel, "%s%s", "the series could not be read whole: ", touch->unread))
		goto oom;
	for (size_t i = 0; i < touch->nfiles; i++) {
		struct rc_src *s = &sel->files[sel->nfiles++];

		if (map_one(m, RC_FILE, touch->files[i], s, sel))
			goto oom;
		if (!s->families && set_all(sel, "%s: no rule of %s maps this path", s->name, sel->map))
			goto oom;
		if (s->families && !strcmp(s->families, "all") &&
		    set_all(sel, "%s: %s says it reaches every test", s->name, sel->map))
			goto oom;
	}
	/* a kfunc defined or registered must be mapped; a function a hunk changes only when a rule names it */
	for (size_t i = 0; i < touch->nkfuncs + touch->nfuncs; i++) {
		bool defined = i < touch->nkfuncs;
		const char *name = defined ? touch->kfuncs[i] : touch->funcs[i - touch->nkfuncs];
		struct rc_src *s = &sel->kfuncs[sel->nkfuncs];
		bool dup = false;

		for (size_t k = 0; k < sel->nkfuncs; k++)
			dup = dup || !strcmp(sel->kfuncs[k].name, name);
		if (dup)
			continue;
		if (map_one(m, RC_KFUNC, name, s, sel))
			goto oom;
		if (!s->families && !defined) {
			free(s->name);
			memset(s, 0, sizeof(*s));
			continue;
		}
		sel->nkfuncs++;
		if (!s->families && set_all(sel, "kfunc %s: no rule of %s maps it", s->name, sel->map))
			goto oom;
		if (s->families && !strcmp(s->families, "all") &&
		    set_all(sel, "kfunc %s: %s says it reaches every test", s->name, sel->map))
			goto oom;
	}
	summary = reach_summary(sel);
	if (!summary)
		goto oom;
	/* names.sh runs once here, not once a test; a list it cannot give: no scenarios */
	scns.n = runner_scenario_names(scn_dir, scns.names, ARRAY_SIZE(scns.names));
	if (scns.n < 0)
		scns.n = 0;
	for (size_t i = 0; i < n; i++) {
		struct rc_test *t = &sel->t[sel->n++];
		char *hit = NULL, *miss = NULL;
		bool scn;
		int r;

		if (!(t->name = strdup(names[i])) || test_sees(m, &scns, names[i], &t->sees, &scn))
			goto oom;
		for (size_t k = 0; t->sees && k < sel->nreached; k++)
			if (has_word(t->sees, sel->reached[k])) {
				char *h = NULL;

				if (asprintf(&h, "%s%s%s", hit ? hit : "", hit ? " " : "", sel->reached[k]) < 0)
					goto oom;
				free(hit);
				hit = h;
			}
		/* a test of several families runs them all in one go: say which are not reached */
		for (const char *p = t->sees; p && *p; ) {
			size_t w = strcspn(p, " ");
			char word[64], *h = NULL;

			snprintf(word, sizeof(word), "%.*s", (int)w, p);
			if (!rc_reaches(sel, word)) {
				if (asprintf(&h, "%s%s%s", miss ? miss : "", miss ? ", " : "", word) < 0)
					goto oom;
				free(miss);
				miss = h;
			}
			p += w + (p[w] == ' ');
		}
		t->run = sel->all || !t->sees || hit;
		if (sel->all)
			r = asprintf(&t->why, "%s", !forced ? "every test runs" : !strcmp(forced, "--tests") ?
				     "named by --tests" : "--all");
		else if (!t->sees)
			r = asprintf(&t->why, "run: neither %s nor a scenario's `needs` says what it sees", sel->map);
		else if (hit)
			r = asprintf(&t->why, "reached: %s%s%s%s", hit, miss ? " (it also sees " : "", miss ? miss : "",
				     miss ? ", not reached: one test, run whole)" : "");
		else
			r = asprintf(&t->why, "not reached: the series touches only %s; it %s %s", summary,
				     scn ? "needs" : "sees", t->sees[0] ? t->sees : "no kfunc family");
		free(hit);
		free(miss);
		if (r < 0)
			goto oom;
		nhit += t->run && t->sees;
	}
	/* never a review of nothing reached: the map's fallback, else every test */
	if (!sel->all && !nhit && n) {
		for (size_t i = 0; i < m->n; i++)
			for (size_t k = 0; m->r[i].kind == RC_FALLBACK && k < m->r[i].nwords; k++)
				for (size_t j = 0; j < sel->n; j++)
					if (!strcmp(sel->t[j].name, m->r[i].words[k]) && !sel->t[j].run) {
						nhit++;
						free(sel->t[j].why);
						if (asprintf(&sel->t[j].why, "the series reaches no test (%s): the "
							     "fallback of %s runs", summary, sel->map) < 0) {
							sel->t[j].why = NULL;
							goto oom;
						}
						sel->t[j].run = true;
					}
		if (!nhit) {
			if (set_all(sel, "the series reaches no test (%s) and %s names no fallback among them",
				    summary, sel->map))
				goto oom;
			for (size_t j = 0; j < sel->n; j++) {
				free(sel->t[j].why);
				sel->t[j].run = true;
				if (!(sel->t[j].why = strdup("every test runs")))
					goto oom;
			}
		}
	}
	free(summary);
	scn_list_free(&scns);
	return 0;
oom:
	free(summary);
	scn_list_free(&scns);
	rc_sel_free(sel);
	return -1;
}

const struct rc_test *rc_find(const struct rc_sel *sel, const char *name)
{
	for (size_t i = 0; i < sel->n; i++)
		if (!strcmp(sel->t[i].name, name))
			return &sel->t[i];
	return NULL;
}

void rc_keep(const struct rc_sel *sel, char **names, int *n)
{
	int k = 0;

	for (int i = 0; i < *n; i++) {
		const struct rc_test *t = rc_find(sel, names[i]);

		if (!t || t->run)
			names[k++] = names[i];
		else
			free(names[i]);
	}
	*n = k;
}

static void write_srcs(FILE *f, const char *what, const struct rc_src *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : what, f);
		esc_fputs(f, s[i].name, 0);
		fprintf(f, " (%s)", s[i].families ? s[i].families : "no rule");
	}
}

void rc_write_text(FILE *f, const struct rc_sel *sel)
{
	size_t nrun = 0;

	for (size_t i = 0; i < sel->n; i++)
		nrun += sel->t[i].run;
	fputs("reach: the series touches ", f);
	if (!sel->nfiles)
		fputs("no file read here", f);
	write_srcs(f, "", sel->files, sel->nfiles);
	write_srcs(f, "; kfuncs ", sel->kfuncs, sel->nkfuncs);
	fputs(": it reaches ", f);
	for (size_t i = 0; i < sel->nreached; i++)
		fprintf(f, "%s%s", i ? " " : "", sel->reached[i]);
	fprintf(f, "%s (%s)\n", sel->nreached ? "" : "no test family", sel->map);
	if (sel->shared) {
		fputs("reach: ", f);
		esc_fputs(f, sel->shared, 0);
		fputc('\n', f);
	}
	if (sel->all) {
		fprintf(f, "reach: every test runs (%zu): ", sel->n);
		esc_fputs(f, sel->why_all, 0);
		fputc('\n', f);
	} else {
		fprintf(f, "reach: %zu of %zu tests run, %zu not reached (--all runs every one)\n", nrun, sel->n,
			sel->n - nrun);
	}
	for (size_t i = 0; i < sel->n; i++) {
		fprintf(f, "  %-4s ", sel->t[i].run ? "run" : "skip");
		esc_fputs(f, sel->t[i].name, 0);
		fputs(": ", f);
		esc_fputs(f, sel->t[i].why, 0);
		fputc('\n', f);
	}
}

void rc_log(const struct rc_sel *sel)
{
	char *text = NULL, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	rc_write_text(f, sel);
	fclose(f);
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		pr_info("%s", l);
	free(text);
}

static json_object *srcs_json(const struct rc_src *s, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(s[i].name));
		json_object_object_add(o, "families", s[i].families ? json_object_new_string(s[i].families) : NULL);
		json_object_object_add(o, "rule_line", json_object_new_int(s[i].line));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *rc_to_json(const struct rc_sel *sel)
{
	json_object *j = json_object_new_object(), *a = json_object_new_array(), *t = json_object_new_array();

	json_object_object_add(j, "map", json_object_new_string(sel->map ? sel->map : ""));
	json_object_object_add(j, "all", json_object_new_boolean(sel->all));
	json_object_object_add(j, "why_all", sel->why_all ? json_object_new_string(sel->why_all) : NULL);
	json_object_object_add(j, "shared", sel->shared ? json_object_new_string(sel->shared) : NULL);
	for (size_t i = 0; i < sel->nreached; i++)
		json_object_array_add(a, json_object_new_string(sel->reached[i]));
	json_object_object_add(j, "reached", a);
	json_object_object_add(j, "files", srcs_json(sel->files, sel->nfiles));
	json_object_object_add(j, "kfuncs", srcs_json(sel->kfuncs, sel->nkfuncs));
	for (size_t i = 0; i < sel->n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(sel->t[i].name));
		json_object_object_add(o, "run", json_object_new_boolean(sel->t[i].run));
		json_object_object_add(o, "sees", sel->t[i].sees ? json_object_new_string(sel->t[i].sees) : NULL);
		json_object_object_add(o, "why", json_object_new_string(sel->t[i].why));
		json_object_array_add(t, o);
	}
	json_object_object_add(j, "tests", t);
	return j;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * What the series touches, from the hunks its kernel and the baseline's do
 * not share: the series' own, and the baseline's that the review's kernel
 * lacks. *shared says what was left out. 0 or -ENOMEM.
 */
static int touches_beside(const char *series, const char *text, size_t len, const struct rc_base *b,
			  struct series_touch *t, char **shared, size_t *hunks)
{
	struct hk_set bset = { 0 }, sset = { 0 };
	char *ft = NULL, *fb = NULL;
	size_t ftl, fbl, kept, dropped, bkept, bdropped;
	int r;

	r = hk_collect(b->base, b->base_len, &bset) ?: hk_collect(text, len, &sset) ?:
	    hk_collect(b->own, b->own_len, &sset) ?:
	    hk_filter(text, len, &bset, &ft, &ftl, &kept, &dropped) ?:
	    hk_filter(b->base, b->base_len, &sset, &fb, &fbl, &bkept, &bdropped) ?:
	    series_touches_text(ft, ftl, series, t) ?: series_touches_text(fb, fbl, b->what, t);
	if (!r && asprintf(shared, "%zu of the series' %zu hunks are in %s too and do not count; "
			   "%zu of its hunks are not in the review's kernel and count",
			   dropped, kept + dropped, b->what, bkept) < 0)
		r = -ENOMEM;
	*hunks = r ? 0 : kept + dropped;
	free(ft);
	free(fb);
	hk_set_free(&bset);
	hk_set_free(&sset);
	return r;
}

/* The files list names (a path a line), one after another; NULL when list or one of them cannot be read. */
static char *listed_text(const char *list, size_t *len)
{
	char *paths = read_user_file(list, NULL), *save = NULL, *text = calloc(1, 1);
	int r = paths && text ? 0 : -1;

	*len = 0;
	for (char *l = r ? NULL : strtok_r(paths, "\n", &save); l && !r; l = strtok_r(NULL, "\n", &save)) {
		size_t n;
		char *one = read_user_file(l, &n);

		r = one ? series_append(&text, len, one, n) : -1;
		free(one);
	}
	free(paths);
	if (r) {
		free(text);
		return NULL;
	}
	return text;
}

int rc_base_builds(const char *base_build, const char *review_build, struct rc_base *b)
{
	char p[4200];

	memset(b, 0, sizeof(*b));
	snprintf(p, sizeof(p), "%s/kernel/patches.list", base_build);
	b->base = listed_text(p, &b->base_len);
	snprintf(p, sizeof(p), "%s/kernel/patches.list", review_build);
	b->own = b->base ? listed_text(p, &b->own_len) : NULL;
	if (!b->own) {
		rc_base_free(b);
		return -1;
	}
	snprintf(b->what, sizeof(b->what), "the baseline's kernel (%.200s)", base_build);
	return 0;
}

int rc_base_series(const char *base_series, struct rc_base *b)
{
	struct series_touch t = { 0 };

	memset(b, 0, sizeof(*b));
	b->own = calloc(1, 1);
	if (!b->own || series_text(base_series, &b->base, &b->base_len, &t) || t.unread[0]) {
		rc_base_free(b);
		return -1;
	}
	snprintf(b->what, sizeof(b->what), "the base series");
	return 0;
}

void rc_base_free(struct rc_base *b)
{
	free(b->own);
	free(b->base);
	memset(b, 0, sizeof(*b));
}

int rc_review(const struct rc_map *m, const char *series, const struct rc_base *base, const char *forced,
	      const char *scn_dir, char **names, int *n, struct rc_sel *sel, char *err, size_t errlen)
{
	struct series_touch t = { 0 };
	char *text = NULL, *shared = NULL;
	size_t len, hunks = 0;
	int r;

	if (!base || !base->base) {
		if (series_touches(series, &t, err, errlen))
			return -1;
	} else {
		r = series_text(series, &text, &len, &t) ?:
		    touches_beside(series, text, len, base, &t, &shared, &hunks);
		free(text);
		if (!r && !hunks)
			snprintf(t.unread, sizeof(t.unread), "%.300s: no diff found in it", series);
		if (r) {
			snprintf(err, errlen, "%s: %s", series, errno_str(-r));
			series_touch_free(&t);
			return -1;
		}
	}
	r = rc_select(m, &t, forced, scn_dir, names, *n, sel);
	series_touch_free(&t);
	if (r) {
		free(shared);
		snprintf(err, errlen, "choosing the tests: %s", errno_str(ENOMEM));
		return -1;
	}
	sel->shared = shared;
	rc_keep(sel, names, n);
	return 0;
}

int rc_candidates(const char *scn_dir, const char *only, bool selftests, char ***names, int *n)
{
	/* the last, selftests, only when the series carries them */
	static const char *const fixed[] = { "kernel-suite", "agent-guest", "verifier-cost", "selftests" };
	const size_t nfixed = ARRAY_SIZE(fixed) - !selftests;
	char **v, *scn[256];
	int k = 0, cap = 64, ns;

	*n = 0;
	if (only) {
		char *tmp = strdup(only), *save = NULL;
		bool ok = tmp != NULL;

		*names = v = calloc(strlen(only) / 2 + 2, sizeof(*v));
		ok = ok && v;
		for (char *w = ok ? strtok_r(tmp, ",", &save) : NULL; w && ok; w = strtok_r(NULL, ",", &save))
			ok = (v[k++] = strdup(w)) != NULL;
		free(tmp);
		*n = k;
		return ok ? 0 : -1;
	}
	*names = v = calloc(cap, sizeof(*v));
	ns = v ? runner_scenario_names(scn_dir, scn, ARRAY_SIZE(scn)) : -1;
	if (ns < 0)
		return -1;
	for (size_t i = 0; i < nfixed; i++)
		v[k++] = strdup(fixed[i]);
	for (int i = 0; i < ns; i++) {
		if (k + 1 >= cap) {
			char **nv = realloc(v, (cap *= 2) * sizeof(*nv));

			if (!nv) {
				while (i < ns)
					free(scn[i++]);
				break;
			}
			*names = v = nv;
		}
		v[k++] = scn[i];
	}
	for (int i = 0; i < k; i++)
		if (!v[i])
			return -1;
	qsort(v + nfixed, k - nfixed, sizeof(*v), cmp_str);
	*n = k;
	return 0;
}
