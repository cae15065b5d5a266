// SPDX-License-Identifier: GPL-2.0-only
/* Meson's test log and the TAP in it: see testlog.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errnames.h"
#include "file.h"
#include "jsonget.h"
#include "testlog.h"

/* A test log of a whole suite run is a few MiB; guests' output is capped. */
#define TL_LOG_MAX (64u << 20)

enum tl_rank tl_result_rank(const char *r)
{
	if (!strcmp(r, "OK") || !strcmp(r, "EXPECTEDFAIL"))
		return TL_PASS;
	if (!strcmp(r, "SKIP"))
		return TL_SKIP;
	return TL_FAIL;
}

const char *tl_rank_name(enum tl_rank r)
{
	static const char *const names[] = { "not ok", "skip", "todo", "ok" };

	return names[r];
}

static bool starts(const char *s, const char *e, const char *word)
{
	size_t l = strlen(word);

	return (size_t)(e - s) >= l && !strncmp(s, word, l);
}

static bool id_used(const struct tl_case *c, size_t from, size_t n, const char *id)
{
	for (size_t i = from; i < n; i++)
		if (!strcmp(c[i].id, id))
			return true;
	return false;
}

/*
 * "ok 3 - name # SKIP why" between s and e (no newline): fills c, id
 * relative to the parent. Returns false for a line that is no test line.
 */
static bool parse_line(const char *s, const char *e, struct tl_case *c, long *num)
{
	bool ok;
	const char *d, *hash;
	char *end;

	if (starts(s, e, "ok"))
		ok = true, s += 2;
	else if (starts(s, e, "not ok"))
		ok = false, s += 6;
	else
		return false;
	if (s < e && *s != ' ')
		return false;
	while (s < e && *s == ' ')
		s++;
	*num = strtol(s, &end, 10);
	if (end == s)
		*num = -1;
	d = end;
	while (d < e && (*d == ' ' || *d == '-'))
		d++;
	/* the directive: the first " # " (TAP escapes a literal '#' as "\#") */
	hash = NULL;
	for (const char *p = d; p < e; p++)
		if (*p == '#' && (p == d || p[-1] != '\\')) {
			hash = p;
			break;
		}
	const char *de = hash ? hash : e;

	while (de > d && de[-1] == ' ')
		de--;
	c->rank = ok ? TL_PASS : TL_FAIL;
	c->note = NULL;
	if (hash) {
		const char *dir = hash + 1;

		while (dir < e && *dir == ' ')
			dir++;
		if (!strncasecmp(dir, "SKIP", 4))
			c->rank = TL_SKIP;
		else if (!strncasecmp(dir, "TODO", 4))
			c->rank = ok ? TL_PASS : TL_TODO;
		if (c->rank == TL_SKIP || !strncasecmp(dir, "TODO", 4)) {
			dir += 4;
			while (dir < e && *dir == ' ')
				dir++;
		}
		c->note = memdupz(dir, e - dir);
	}
	if (de > d)
		c->id = memdupz(d, de - d);
	else
		c->id = NULL;	/* named by its number below */
	return true;
}

static int push(struct tl_case **cases, size_t *n, struct tl_case *c)
{
	struct tl_case *nc = realloc(*cases, (*n + 1) * sizeof(**cases));

	if (!nc)
		return -ENOMEM;
	*cases = nc;
	nc[(*n)++] = *c;
	return 0;
}

/* Name c (a number when it has no description), unique among cases[from..n). */
static int name_case(struct tl_case *c, long num, const char *prefix, struct tl_case *cases,
		     size_t from, size_t n)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s%s", prefix ? prefix : "", prefix ? "/" : "",
		 c->id ? c->id : "");
	if (!c->id)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%ld", num);
	if (id_used(cases, from, n, buf))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " #%ld", num);
	free(c->id);
	c->id = strdup(buf);
	if (!c->note)
		c->note = strdup("");
	return c->id && c->note ? 0 : -ENOMEM;
}

int tl_parse_tap(const char *text, struct tl_case **cases, size_t *n)
{
	/* a parent's subtests come before its own line: held until then */
	struct tl_case *sub = NULL;
	size_t nsub = 0, first = *n;
	long *subnum = NULL;
	const char *s = text;
	int err = 0;

	while (*s && !err) {
		const char *e = strchr(s, '\n');
		const char *t = s;
		struct tl_case c;
		long num;

		if (!e)
			e = s + strlen(s);
		while (t < e && (*t == ' ' || *t == '\t'))
			t++;
		if (parse_line(t, e, &c, &num)) {
			if (t > s) {
				long *nn = realloc(subnum, (nsub + 1) * sizeof(*subnum));

				if (!nn || push(&sub, &nsub, &c)) {
					free(nn ? nn : subnum);
					subnum = NULL;
					free(c.id);
					free(c.note);
					err = -ENOMEM;
					break;
				}
				subnum = nn;
				subnum[nsub - 1] = num;
			} else {
				err = name_case(&c, num, NULL, *cases, first, *n);
				if (!err)
					err = push(cases, n, &c);
				for (size_t i = 0; i < nsub && !err; i++) {
					err = name_case(&sub[i], subnum[i], c.id, *cases, first, *n);
					if (!err)
						err = push(cases, n, &sub[i]);
					else
						free(sub[i].note);
				}
				nsub = 0;
			}
		}
		s = *e ? e + 1 : e;
	}
	/* subtests with no parent line after them (a crash): kept as they are */
	for (size_t i = 0; i < nsub && !err; i++) {
		err = name_case(&sub[i], subnum[i], "(no parent)", *cases, first, *n);
		if (!err)
			err = push(cases, n, &sub[i]);
	}
	free(sub);
	free(subnum);
	return err;
}

/* "bpfwire:kernel / kernel-suite" -> "kernel-suite" */
static const char *short_name(const char *name)
{
	const char *p = strstr(name, " / ");

	return p ? p + 3 : name;
}

/* A scenario prints "results: DIR" once its results dir exists. */
static char *results_line(const char *out)
{
	for (const char *s = out; s && *s;) {
		const char *e = strchr(s, '\n');

		if (!e)
			e = s + strlen(s);
		if (starts(s, e, "results: ") && e - s > 9)
			return memdupz(s + 9, e - s - 9);
		s = *e ? e + 1 : NULL;
	}
	return NULL;
}

/* kernel-tests prints an unknown API's kfuncs as "#     found     PROTO". */
static char *found_protos(const char *out)
{
	static const char tag[] = "#     found     ";
	size_t len = 0;
	char *r = NULL;

	for (const char *s = out; s && *s;) {
		const char *e = strchr(s, '\n');

		if (!e)
			e = s + strlen(s);
		if (starts(s, e, tag)) {
			size_t l = e - s - (sizeof(tag) - 1);
			char *nr = realloc(r, len + l + 2);

			if (!nr)
				break;
			r = nr;
			memcpy(r + len, s + sizeof(tag) - 1, l);
			len += l;
			r[len++] = '\n';
			r[len] = '\0';
		}
		s = *e ? e + 1 : NULL;
	}
	return r;
}

static void test_free(struct tl_test *t)
{
	for (size_t i = 0; i < t->ncases; i++) {
		free(t->cases[i].id);
		free(t->cases[i].note);
	}
	free(t->cases);
	free(t->name);
	free(t->result);
	free(t->results_dir);
	free(t->raw);
	free(t->protos);
	memset(t, 0, sizeof(*t));
}

const struct tl_case *tl_find_case(const struct tl_test *t, const char *id)
{
	for (size_t i = 0; t && i < t->ncases; i++)
		if (t->cases[i].id && !strcmp(t->cases[i].id, id))
			return &t->cases[i];
	return NULL;
}

struct tl_test *tl_find(const struct tl_log *log, const char *name)
{
	for (size_t i = 0; i < log->n; i++)
		if (!strcmp(log->tests[i].name, name))
			return &log->tests[i];
	return NULL;
}

int tl_add_line(struct tl_log *log, const char *line, char *err, size_t errlen)
{
	json_object *o = json_tokener_parse(line);
	const char *name = jget_str(o, "name", NULL), *result = jget_str(o, "result", NULL), *text;
	struct tl_test t = { 0 }, *old;
	int r = -ENOMEM;

	if (!name || !result) {
		snprintf(err, errlen, "not a meson test log line (a JSON object with a name and a result)");
		json_object_put(o);
		return -EINVAL;
	}
	t.name = strdup(short_name(name));
	t.result = strdup(result);
	t.raw = strdup(line);
	if (!t.name || !t.result || !t.raw)
		goto out;
	t.rank = tl_result_rank(t.result);
	t.duration = jget_num(o, "duration", 0);
	text = jget_str(o, "stdout", NULL);
	if (text) {
		t.results_dir = results_line(text);
		t.protos = found_protos(text);
		if (tl_parse_tap(text, &t.cases, &t.ncases))
			goto out;
	}
	old = tl_find(log, t.name);
	if (old) {
		test_free(old);
		*old = t;
	} else {
		struct tl_test *nt = realloc(log->tests, (log->n + 1) * sizeof(*nt));

		if (!nt)
			goto out;
		log->tests = nt;
		nt[log->n++] = t;
	}
	memset(&t, 0, sizeof(t));
	r = 0;
out:
	if (r)
		snprintf(err, errlen, "%s", errno_str(-r));
	test_free(&t);
	json_object_put(o);
	return r;
}

int tl_load(const char *path, struct tl_log *log, char *err, size_t errlen)
{
	char *text = read_file_max(path, NULL, TL_LOG_MAX), *s, *e;
	int lineno = 0, r = 0;

	if (!text) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return r;
	}
	for (s = text; *s && !r; s = e) {
		char why[256];

		e = strchr(s, '\n');
		if (e)
			*e++ = '\0';
		else
			e = s + strlen(s);
		lineno++;
		if (!*s)
			continue;
		r = tl_add_line(log, s, why, sizeof(why));
		if (r)
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
	}
	free(text);
	return r;
}

static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t lf = strlen(from), lt = strlen(to), n = 0;
	const char *p;
	char *out, *o;

	for (p = strstr(s, from); p; p = strstr(p + lf, from))
		n++;
	out = malloc(strlen(s) + n * (lt > lf ? lt - lf : 0) + 1);
	if (!out)
		return NULL;
	for (o = out; (p = strstr(s, from)); s = p + lf) {
		memcpy(o, s, p - s);
		o += p - s;
		memcpy(o, to, lt);
		o += lt;
	}
	strcpy(o, s);
	return out;
}

int tl_rename_root(struct tl_log *log, const char *root)
{
	if (!root[0])
		return 0;
	for (size_t i = 0; i < log->n; i++)
		for (size_t k = 0; k < log->tests[i].ncases; k++) {
			struct tl_case *c = &log->tests[i].cases[k];
			char *id;

			if (!strstr(c->id, root))
				continue;
			id = replace_all(c->id, root, "BUILD");
			if (!id)
				return -ENOMEM;
			free(c->id);
			c->id = id;
		}
	return 0;
}

void tl_free(struct tl_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		test_free(&log->tests[i]);
	free(log->tests);
	log->tests = NULL;
	log->n = 0;
}
