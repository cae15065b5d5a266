// SPDX-License-Identifier: GPL-2.0-only
/* Flakes, and the list of known ones: see flaky.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "file.h"
#include "flaky.h"
#include "runs.h"

void fl_free(struct fl_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].pattern), free(l->e[i].date), free(l->e[i].reason);
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static char *trimmed(const char *s, size_t n)
{
	char *d;

	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static bool is_date(const char *d)
{
	static const char shape[] = "dddd-dd-dd";

	if (strlen(d) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? (d[i] < '0' || d[i] > '9') : d[i] != '-')
			return false;
	return true;
}

int fl_load(const char *path, struct fl_list *l, char *err, size_t errlen)
{
	char *text = read_file(path, NULL), *line, *save = NULL;
	int lineno = 0, r = 0;

	memset(l, 0, sizeof(*l));
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	/* strtok_r would skip empty lines and so miscount: walk by hand */
	for (line = text; line && !r; line = save) {
		char *nl = strchr(line, '\n'), *a, *b;
		struct fl_known k = { 0 }, *ne;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		line += strspn(line, " \t");
		if (!*line || *line == '#' || *line == '\r')
			continue;
		a = strstr(line, " | ");
		b = a ? strstr(a + 3, " | ") : NULL;
		if (!b) {
			snprintf(err, errlen, "%s:%d: not \"PATTERN | YYYY-MM-DD | REASON\"", path, lineno);
			r = -1;
			break;
		}
		k.pattern = trimmed(line, a - line);
		k.date = trimmed(a + 3, b - a - 3);
		k.reason = trimmed(b + 3, strlen(b + 3));
		if (!k.pattern || !k.date || !k.reason) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, errno_str(ENOMEM));
			r = -1;
		} else if (!k.pattern[0] || !is_date(k.date) || !k.reason[0]) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno,
				 !k.pattern[0] ? "no pattern" : !k.reason[0] ? "no reason" :
				 "the date it was added is not YYYY-MM-DD");
			r = -1;
		} else if (!(ne = realloc(l->e, (l->n + 1) * sizeof(*ne)))) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, errno_str(ENOMEM));
			r = -1;
		} else {
			l->e = ne;
			l->e[l->n++] = k;
			continue;
		}
		free(k.pattern), free(k.date), free(k.reason);
	}
	free(text);
	if (r)
		fl_free(l);
	return r;
}

const struct fl_known *fl_match(const struct fl_list *l, const char *test, const char *what)
{
	size_t n = strlen(test) + strlen(what) + 3;
	char *subject = malloc(n);
	const struct fl_known *hit = NULL;

	if (!subject)
		return NULL;
	snprintf(subject, n, "%s%s%s", test, what[0] ? ": " : "", what);
	for (size_t i = 0; i < l->n && !hit; i++)
		if (!fnmatch(l->e[i].pattern, subject, 0))
			hit = &l->e[i];
	free(subject);
	return hit;
}

int fl_mark_known(struct vd_report *rep, const struct fl_list *l)
{
	for (size_t i = 0; i < rep->n; i++) {
		const struct fl_known *k;
		char why[1024];

		if (rep->items[i].mark != VD_WORSE || !(k = fl_match(l, rep->items[i].test, rep->items[i].what)))
			continue;
		snprintf(why, sizeof(why), "%s: %s", k->date, k->reason);
		if (vd_remark(rep, i, VD_KNOWN_FLAKY, why))
			return -ENOMEM;
	}
	return 0;
}

int fl_worse_tests(const struct vd_report *rep, char ***names, int *n)
{
	*n = 0;
	*names = calloc(rep->n + 1, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	for (size_t i = 0; i < rep->n; i++) {
		bool seen = false;

		if (rep->items[i].mark != VD_WORSE)
			continue;
		for (int k = 0; k < *n && !seen; k++)
			seen = !strcmp((*names)[k], rep->items[i].test);
		if (!seen)
			(*names)[(*n)++] = rep->items[i].test;
	}
	return 0;
}

/* One finding in another run: the same kind, test and what (a case by its shape). */
static bool same_item(const struct vd_item *a, const struct vd_item *b)
{
	char sa[1024], sb[1024];

	if (a->kind != b->kind || strcmp(a->test, b->test))
		return false;
	if (a->kind != VD_CASE)
		return !strcmp(a->what, b->what);
	vd_case_shape(a->what, sa, sizeof(sa));
	vd_case_shape(b->what, sb, sizeof(sb));
	return !strcmp(sa, sb);
}

static bool worse_in(const struct vd_report *rep, const struct vd_item *it)
{
	for (size_t i = 0; i < rep->n; i++)
		if (rep->items[i].mark == VD_WORSE && same_item(&rep->items[i], it))
			return true;
	return false;
}

/*
 * Test t's items that are worse in any of its runs: the first run's
 * (rep's, already in it) and each covered round's (added to rep as
 * flaky, once). Then each gets its counts.
 */
static int classify_test(struct vd_report *rep, const struct vd_report *rounds, const bool *covered,
			 int nrounds, const char *t)
{
	int runs = 1, err = 0;
	size_t first_new = rep->n;

	for (int r = 0; r < nrounds; r++)
		runs += covered[r];
	if (runs == 1)
		return 0;	/* never run again: the first run's word stands */
	for (int r = 0; r < nrounds && !err; r++)
		for (size_t i = 0; covered[r] && i < rounds[r].n && !err; i++) {
			const struct vd_item *it = &rounds[r].items[i];
			bool known = false;

			if (it->mark != VD_WORSE || strcmp(it->test, t))
				continue;
			for (size_t k = 0; k < rep->n && !known; k++)
				known = (rep->items[k].mark == VD_WORSE || k >= first_new) &&
					same_item(&rep->items[k], it);
			if (!known)
				err = vd_add(rep, it->kind, VD_FLAKY, it->test, it->what, it->base, it->review,
					     it->note);
		}
	for (size_t i = 0; i < rep->n && !err; i++) {
		struct vd_item *it = &rep->items[i];
		int w;

		if (strcmp(it->test, t) || (it->mark != VD_WORSE && i < first_new))
			continue;
		w = i < first_new;
		for (int r = 0; r < nrounds; r++)
			w += covered[r] && worse_in(&rounds[r], it);
		it->worse_runs = w;
		it->runs = runs;
		if (it->mark == VD_WORSE && w < runs)
			err = vd_remark(rep, i, VD_FLAKY, NULL);
	}
	return err;
}

int fl_classify(struct vd_report *rep, const struct fl_list *known, const struct tl_log *rlogs,
		const struct tl_log *blogs, int nrounds, char *const *names, int ntests)
{
	struct vd_report *rounds = calloc(nrounds + 1, sizeof(*rounds));
	bool *covered = calloc(nrounds + 1, sizeof(*covered));
	double boots;
	int err = rounds && covered ? 0 : -ENOMEM;

	for (int r = 0; r < nrounds && !err; r++) {
		err = vd_compare_logs(&blogs[r], &rlogs[r], &rounds[r]);
		if (!err)
			err = runs_compare(&blogs[r], &rlogs[r], &rounds[r], &boots);
		if (!err && known)
			err = fl_mark_known(&rounds[r], known);
	}
	for (int t = 0; t < ntests && !err; t++) {
		for (int r = 0; r < nrounds; r++)
			covered[r] = tl_find(&rlogs[r], names[t]) && tl_find(&blogs[r], names[t]);
		err = classify_test(rep, rounds, covered, nrounds, names[t]);
	}
	for (int r = 0; rounds && r < nrounds; r++)
		vd_free(&rounds[r]);
	free(rounds);
	free(covered);
	return err;
}
