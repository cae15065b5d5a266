// SPDX-License-Identifier: GPL-2.0-only
/* Field lists of the JSON writers (fields.h). */
#define _GNU_SOURCE
#include "fields.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "errnames.h"
#include "file.h"

#define FIELDS_MAX_COMP	16
#define FIELDS_MAX_PATH	256

struct field {
	char *comp[FIELDS_MAX_COMP];
	int ncomp;
	char type[8];
};

struct fields {
	char path[4096];
	struct field *v;
	int n;
};

static const char *const types[] = { "int", "bool", "double", "string" };

/* Split a copy of path at dots into comp; -1 for an empty part or too many. */
static int split(char *buf, char **comp)
{
	int n = 0;

	for (char *p = buf;; p++) {
		char *dot = strchr(p, '.');

		if (n == FIELDS_MAX_COMP)
			return -1;
		comp[n++] = p;
		if (!dot) {
			if (!*p)
				return -1;
			return n;
		}
		*dot = '\0';
		if (dot == p)
			return -1;
		p = dot;
	}
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* An errno name the writers can print: errno_name()'s, its E<n>, or "other". */
static bool is_errno(const char *s)
{
	if (!strcmp(s, "other") || (s[0] == 'E' && all_digits(s + 1)))
		return true;
	if (s[0] != 'E')
		return false;
	for (int e = 1; e < 4096; e++)
		if (!strcmp(errno_name(e), s))
			return true;
	return false;
}

static bool comp_fits(const char *pattern, const char *s)
{
	if (!strcmp(pattern, "N"))
		return all_digits(s);
	if (!strcmp(pattern, "*"))
		return *s;
	if (!strcmp(pattern, "ERRNO"))
		return is_errno(s);
	return !strcmp(pattern, s);
}

struct fields *fields_load(const char *path, char *err, size_t errlen)
{
	struct fields *f = calloc(1, sizeof(*f));
	char *text = read_user_file(path, NULL), *line, *next;
	int lineno = 0, cap = 0;

	if (!f || !text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		goto fail;
	}
	snprintf(f->path, sizeof(f->path), "%s", path);
	for (line = text; line; line = next) {
		char *p, *type, *extra, *save = NULL;
		struct field *fl;
		size_t t;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		p = strtok_r(line, " \t", &save);
		if (!p || *p == '#')
			continue;
		type = strtok_r(NULL, " \t", &save);
		extra = strtok_r(NULL, " \t", &save);
		for (t = 0; type && t < sizeof(types) / sizeof(types[0]); t++)
			if (!strcmp(type, types[t]))
				break;
		if (!type || t == sizeof(types) / sizeof(types[0]) || extra) {
			snprintf(err, errlen, "%s:%d: expected 'PATH TYPE' (int, bool, double or string)",
				 path, lineno);
			goto fail;
		}
		if (f->n == cap) {
			struct field *v = realloc(f->v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!v) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			f->v = v;
		}
		fl = &f->v[f->n];
		memset(fl, 0, sizeof(*fl));
		snprintf(fl->type, sizeof(fl->type), "%s", type);
		fl->comp[0] = strdup(p);
		if (!fl->comp[0] || (fl->ncomp = split(fl->comp[0], fl->comp)) < 0) {
			free(fl->comp[0]);
			snprintf(err, errlen, "%s:%d: '%s' is no dotted path", path, lineno, p);
			goto fail;
		}
		f->n++;
	}
	free(text);
	return f;
fail:
	free(text);
	fields_free(f);
	return NULL;
}

void fields_free(struct fields *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++)
		free(f->v[i].comp[0]);
	free(f->v);
	free(f);
}

const char *fields_path(const struct fields *f)
{
	return f->path;
}

const char *fields_type(const struct fields *f, const char *path, bool *inner)
{
	char buf[FIELDS_MAX_PATH], *comp[FIELDS_MAX_COMP];
	int n;

	*inner = false;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf) || (n = split(buf, comp)) < 0)
		return NULL;
	for (int i = 0; i < f->n; i++) {
		const struct field *fl = &f->v[i];
		int k;

		if (fl->ncomp < n)
			continue;
		for (k = 0; k < n && comp_fits(fl->comp[k], comp[k]); k++)
			;
		if (k < n)
			continue;
		if (fl->ncomp == n)
			return fl->type;
		*inner = true;
	}
	return NULL;
}

/* Optimal string alignment distance: a swapped pair of letters costs one. */
static int distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b);
	int d[FIELDS_MAX_PATH + 1][FIELDS_MAX_PATH + 1];

	if (la > FIELDS_MAX_PATH || lb > FIELDS_MAX_PATH)
		return 1 << 20;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		for (int j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* The errno name nearest to s (EPREM -> EPERM). */
static const char *nearest_errno(const char *s)
{
	const char *best = "EPERM";
	int bd = 1 << 20;

	for (int e = 1; e < 4096 && s; e++) {
		const char *n = errno_name(e);
		int d;

		if (all_digits(n + 1))
			continue;	/* E4000: no name to suggest */
		d = distance(s, n);
		if (d < bd) {
			bd = d;
			best = n;
		}
	}
	return best;
}

bool fields_suggest(const struct fields *f, const char *path, char *out, size_t len)
{
	char buf[FIELDS_MAX_PATH], *comp[FIELDS_MAX_COMP], cand[FIELDS_MAX_PATH];
	int n, best = 1 << 20, limit, plen = strlen(path);

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return false;
	n = split(buf, comp);
	if (n < 0)
		n = 0;	/* "a..b": still compare the whole string */
	/* A typo, not another field: one edit in a short name, three in a long path. */
	limit = plen <= 5 ? 1 : plen <= 14 ? 2 : 3;
	for (int i = 0; i < f->n; i++) {
		const struct field *fl = &f->v[i];
		size_t off = 0;
		int d;

		for (int k = 0; k < fl->ncomp && off < sizeof(cand); k++) {
			const char *c = fl->comp[k], *u = k < n ? comp[k] : NULL;

			if (u && comp_fits(c, u))
				c = u;
			else if (!strcmp(c, "N"))
				c = "0";
			else if (!strcmp(c, "ERRNO"))
				c = nearest_errno(u);
			else if (!strcmp(c, "*"))
				c = u ? u : "KEY";
			off += snprintf(cand + off, sizeof(cand) - off, "%s%s", k ? "." : "", c);
		}
		if (off >= sizeof(cand))
			continue;
		d = distance(path, cand);
		if (d && d < best) {
			best = d;
			snprintf(out, len, "%s", cand);
		}
	}
	return best <= limit;
}

static const char *leaf_type(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_int: return "int";
	case json_type_boolean: return "bool";
	case json_type_double: return "double";
	case json_type_string: return "string";
	default: return NULL;	/* null */
	}
}

struct walk {
	const struct fields *f;
	void (*bad)(void *ctx, const char *path, const char *why);
	void *ctx;
	int nbad, leaves;
};

static void walk(struct walk *w, json_object *o, char *path, size_t off)
{
	enum json_type t = json_object_get_type(o);
	const char *want, *have;
	char why[4096 + 128];
	bool inner;

	if (off >= FIELDS_MAX_PATH) {
		w->bad(w->ctx, path, "path too long");
		w->nbad++;
		return;
	}
	if (t == json_type_object) {
		json_object_object_foreach(o, k, v) {
			snprintf(path + off, FIELDS_MAX_PATH - off, "%s%s", off ? "." : "", k);
			walk(w, v, path, off + strlen(path + off));
		}
		path[off] = '\0';
		return;
	}
	if (t == json_type_array) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			snprintf(path + off, FIELDS_MAX_PATH - off, "%s%zu", off ? "." : "", i);
			walk(w, json_object_array_get_idx(o, i), path, off + strlen(path + off));
		}
		path[off] = '\0';
		return;
	}
	w->leaves++;
	want = fields_type(w->f, path, &inner);
	have = leaf_type(o);
	if (!want) {
		snprintf(why, sizeof(why), "not in %s%s", w->f->path,
			 inner ? " (it lists fields under it: an object there)" : "");
	} else if (have && strcmp(want, have)) {
		snprintf(why, sizeof(why), "is %s, %s says %s", have, w->f->path, want);
	} else {
		return;
	}
	w->bad(w->ctx, path, why);
	w->nbad++;
}

int fields_check_json(const struct fields *f, json_object *o,
		      void (*bad)(void *ctx, const char *path, const char *why),
		      void *ctx, int *leaves)
{
	struct walk w = { .f = f, .bad = bad, .ctx = ctx };
	char path[FIELDS_MAX_PATH + 1] = "";

	walk(&w, o, path, 0);
	if (leaves)
		*leaves = w.leaves;
	return w.nbad;
}
