// SPDX-License-Identifier: GPL-2.0-only
/* Scenario runs beside the baseline's, through lab/report/compare.h: see runs.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/summary_read.h"
#include "file.h"
#include "log.h"
#include "runs.h"

static bool ends(const char *s, const char *suffix)
{
	size_t l = strlen(s), k = strlen(suffix);

	return l >= k && !strcmp(s + l - k, suffix);
}

int runs_count_direction(const char *name)
{
	static const char *const more_worse[] = { ".lost", ".invalid", ".failed" };
	static const char *const fewer_worse[] = { ".valid", ".received" };

	if (!strcmp(name, "splats"))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(more_worse); i++)
		if (ends(name, more_worse[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(fewer_worse); i++)
		if (ends(name, fewer_worse[i]))
			return -1;
	return 0;
}

static enum vd_mark count_mark(const struct cmp_count *c)
{
	int dir = runs_count_direction(c->name);
	long long a, b;
	char *ea, *eb;

	if (c->mark == CMP_SAME)
		return VD_SAME;
	if (!c->val[0] || !c->val[1] || !dir)
		return VD_CHANGED;
	a = strtoll(c->val[0], &ea, 10);
	b = strtoll(c->val[1], &eb, 10);
	if (*ea || *eb || a == b)
		return VD_CHANGED;
	return (b - a) * dir > 0 ? VD_WORSE : VD_BETTER;
}

static enum vd_mark check_mark(const struct cmp_step *s)
{
	const char *a = s->side[0].verdict, *b = s->side[1].verdict;
	bool pa = a && !strcmp(a, "ok"), pb = b && !strcmp(b, "ok");

	if (!s->verdict_changed)
		return VD_SAME;
	if (pa && !pb)
		return VD_WORSE;
	return !pa && pb ? VD_BETTER : VD_CHANGED;
}

static double boot_seconds(const char *dir)
{
	struct run_summary rs;
	double s;

	run_summary_load(&rs, dir);
	s = js_num(rs.root, "boot_seconds");
	run_summary_free(&rs);
	return s;
}

int runs_compare(const struct tl_log *base, const struct tl_log *review, struct vd_report *rep,
		 double *boots)
{
	int err = 0;

	*boots = 0;
	for (size_t i = 0; i < review->n && !err; i++) {
		const struct tl_test *r = &review->tests[i], *b = tl_find(base, r->name);
		struct cmp_result cr = { 0 };
		char why[512];

		if (!r->results_dir)
			continue;
		*boots += boot_seconds(r->results_dir);
		if (!b || !b->results_dir)
			continue;
		if (cmp_load(b->results_dir, r->results_dir, &cr, why, sizeof(why))) {
			/* a run that SKIPped before booting has no summary: its test says it */
			pr_debug("%s: %s", r->name, why);
			cmp_free(&cr);
			continue;
		}
		for (int k = 0; k < cr.nchecks && !err; k++) {
			const struct cmp_step *s = &cr.checks[k];
			char what[1024];

			snprintf(what, sizeof(what), "check %s", s->what);
			err = vd_add(rep, VD_CHECK, check_mark(s), r->name, what,
				     s->side[0].verdict, s->side[1].verdict,
				     s->side[1].detail ? s->side[1].detail : "");
		}
		for (int k = 0; k < cr.ncounts && !err; k++) {
			const struct cmp_count *c = &cr.counts[k];

			/* the baseline is another flavour by definition */
			if (!strcmp(c->name, "kernel_release"))
				continue;
			err = vd_add(rep, VD_COUNT, count_mark(c), r->name, c->name, c->val[0], c->val[1], "");
		}
		cmp_free(&cr);
	}
	return err;
}
