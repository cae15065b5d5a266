// SPDX-License-Identifier: GPL-2.0-only
/* The series' static checks: see static.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "jsonget.h"
#include "static.h"

/* checkpatch's output for one patch of a long series is a few KiB */
#define ST_OUTPUT_MAX (4u << 20)
/* a patch with more findings than this is summed, not listed */
#define ST_FINDINGS_MAX 200

void st_not_run(struct st_report *st, const char *why)
{
	if (!st->not_run)
		st->not_run = strdup(why);
}

void st_free(struct st_report *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->f[i].level), free(st->f[i].type), free(st->f[i].message), free(st->f[i].where);
	for (int i = 0; st->subjects && i < st->patches; i++)
		free(st->subjects[i]);
	free(st->subjects);
	free(st->f);
	free(st->not_run);
	pp_free(&st->pp);
	memset(st, 0, sizeof(*st));
}

int st_series_patches(struct st_report *st, json_object *sj)
{
	json_object *list = jget(sj, "patches", json_type_array), *p;
	size_t len;

	if (!list)
		return -1;
	len = json_object_array_length(list);
	st->subjects = calloc(len + 1, sizeof(*st->subjects));
	if (!st->subjects)
		return -1;
	st->patches = 0;
	for (size_t i = 0; i < len; i++) {
		p = json_object_array_get_idx(list, i);
		if (strcmp(jget_str(p, "series", ""), "user"))
			continue;
		st->subjects[st->patches] = strdup(jget_str(p, "subject", ""));
		if (!st->subjects[st->patches++])
			return -1;
	}
	return st->patches ? 0 : -1;
}

static const char *const levels[] = { "ERROR", "WARNING", "CHECK" };

/* "ERROR:TYPE: message" (--show-types) or "ERROR: message": its level's index, or -1. */
static int finding_line(const char *s, size_t n, struct st_finding *f)
{
	for (int l = 0; l < 3; l++) {
		size_t ll = strlen(levels[l]);
		const char *t, *colon, *e = s + n;

		if (n <= ll || strncmp(s, levels[l], ll) || s[ll] != ':')
			continue;
		t = s + ll + 1;
		colon = memchr(t, ':', e - t);
		/* a type is one word of capitals and '_' right after the level */
		if (colon && colon > t && strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == (size_t)(colon - t)) {
			f->type = memdupz(t, colon - t);
			t = colon + 1;
		} else {
			f->type = strdup("");
		}
		while (t < e && *t == ' ')
			t++;
		f->level = strdup(levels[l]);
		f->message = memdupz(t, e - t);
		f->where = strdup("");
		return l;
	}
	return -1;
}

int st_parse(struct st_report *st, int patch, const char *text)
{
	struct st_finding *last = NULL;
	size_t listed = 0;

	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		struct st_finding f = { .patch = patch };
		const char *file;
		int l;

		if ((l = finding_line(s, n, &f)) >= 0) {
			size_t *count[] = { &st->errors, &st->warnings, &st->checks };

			(*count[l])++;
			if (!f.level || !f.type || !f.message || !f.where) {
				free(f.level), free(f.type), free(f.message), free(f.where);
				return -ENOMEM;
			}
			if (listed++ >= ST_FINDINGS_MAX) {
				free(f.level), free(f.type), free(f.message), free(f.where);
				last = NULL;
			} else {
				struct st_finding *nf = realloc(st->f, (st->n + 1) * sizeof(*nf));

				if (!nf) {
					free(f.level), free(f.type), free(f.message), free(f.where);
					return -ENOMEM;
				}
				st->f = nf;
				nf[st->n] = f;
				last = &nf[st->n++];
			}
		} else if (last && !last->where[0] && n > 1 && s[0] == '#' &&
			   (file = memmem(s, n, ": FILE: ", 8))) {
			/* "#22: FILE: net/core/x.c:4:" */
			const char *w = file + 8, *e = s + n;

			while (e > w && (e[-1] == ':' || e[-1] == ' '))
				e--;
			free(last->where);
			last->where = memdupz(w, e - w);
			if (!last->where)
				return -ENOMEM;
			last = NULL;
		}
		s += n + (s[n] == '\n');
	}
	return 0;
}

int st_load(struct st_report *st, const char *dir, char *err, size_t errlen)
{
	for (int i = 1; i <= st->patches; i++) {
		char path[PATH_MAX];
		char *text;
		int r;

		snprintf(path, sizeof(path), "%s/%04d.checkpatch", dir, i);
		/* O_NOFOLLOW: the sandbox wrote the directory */
		text = read_file_max(path, NULL, ST_OUTPUT_MAX);
		if (!text) {
			snprintf(err, errlen, "%s: %s", path, errno_str(errno));
			return -1;
		}
		r = st_parse(st, i, text);
		free(text);
		if (r) {
			snprintf(err, errlen, "%s: %s", path, errno_str(-r));
			return -1;
		}
	}
	return 0;
}

size_t st_counted(const struct st_report *st, bool strict)
{
	return (strict && !st->not_run ? st->errors + st->warnings : 0) + pp_counted(&st->pp, strict);
}

void st_write_text(FILE *f, const struct st_report *st, bool strict)
{
	if (st->not_run) {
		fputs("static: checkpatch.pl --strict not run: ", f);
		esc_fputs(f, st->not_run, 0);
		fputc('\n', f);
		pp_write_text(f, &st->pp, st->subjects, strict);
		return;
	}
	fprintf(f, "static: checkpatch.pl --strict of the series' tree on each of its %d patches: "
		"%zu errors, %zu warnings, %zu checks (%s)\n", st->patches, st->errors, st->warnings, st->checks,
		strict ? "--strict: errors and warnings count as worse" : "not counted as worse; --strict counts "
		"errors and warnings");
	for (size_t i = 0; i < st->n; i++) {
		const struct st_finding *x = &st->f[i];

		fprintf(f, "  patch %d \"", x->patch);
		if (x->patch >= 1 && x->patch <= st->patches)
			esc_fputs(f, st->subjects[x->patch - 1], 0);
		fputs("\": ", f);
		esc_fputs(f, x->level, 0);
		fputc(' ', f);
		if (x->type[0]) {
			esc_fputs(f, x->type, 0);
			fputs(": ", f);
		}
		esc_fputs(f, x->message, 0);
		if (x->where[0]) {
			fputs(" (", f);
			esc_fputs(f, x->where, 0);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	if (st->errors + st->warnings + st->checks > st->n)
		fprintf(f, "  (%zu more not listed: see static/NNNN.checkpatch in the build)\n",
			st->errors + st->warnings + st->checks - st->n);
	pp_write_text(f, &st->pp, st->subjects, strict);
}

json_object *st_to_json(const struct st_report *st, bool strict)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();

	json_object_object_add(o, "tool", json_object_new_string("checkpatch.pl --strict"));
	if (st->not_run)
		json_object_object_add(o, "not_run", json_object_new_string(st->not_run));
	json_object_object_add(o, "patches", json_object_new_int(st->patches));
	json_object_object_add(o, "errors", json_object_new_int64(st->errors));
	json_object_object_add(o, "warnings", json_object_new_int64(st->warnings));
	json_object_object_add(o, "checks", json_object_new_int64(st->checks));
	json_object_object_add(o, "counted_as_worse", json_object_new_int64(st_counted(st, strict)));
	json_object_object_add(o, "seconds", json_object_new_double(st->seconds));
	for (size_t i = 0; i < st->n; i++) {
		const struct st_finding *x = &st->f[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "patch", json_object_new_int(x->patch));
		if (x->patch >= 1 && x->patch <= st->patches)
			json_object_object_add(j, "subject", json_object_new_string(st->subjects[x->patch - 1]));
		json_object_object_add(j, "level", json_object_new_string(x->level));
		json_object_object_add(j, "type", json_object_new_string(x->type));
		json_object_object_add(j, "message", json_object_new_string(x->message));
		json_object_object_add(j, "where", json_object_new_string(x->where));
		json_object_array_add(list, j);
	}
	json_object_object_add(o, "findings", list);
	json_object_object_add(o, "per_patch", pp_to_json(&st->pp, st->subjects));
	return o;
}
