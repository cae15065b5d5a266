// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-review's modes that read test logs only: see readlogs.h. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "escape.h"
#include "options.h"
#include "readlogs.h"
#include "runs.h"
#include "testlog.h"
#include "vcost.h"
#include "verdict.h"

/*
 * ./run tests' note on a failure the list knows: each failed test or case
 * of a meson test log that known names, with its date and reason. The
 * failure stands: this only says it is known. 0, or 2 when the log is bad.
 */
int review_flaky_report(const char *log, const struct fl_list *known)
{
	struct tl_log l = { 0 };
	char err[PATH_MAX + 256];
	int named = 0;

	if (tl_load(log, &l, err, sizeof(err))) {
		fprintf(stderr, PROG ": --flaky-report: %s\n", err);
		return CLI_EUSAGE;
	}
	for (size_t i = 0; i < l.n; i++) {
		const struct tl_test *t = &l.tests[i];

		/* each failed case, then the test's own result */
		for (size_t c = 0; c <= t->ncases; c++) {
			const struct tl_case *tc = c < t->ncases ? &t->cases[c] : NULL;
			const struct fl_known *k;

			if ((tc ? tc->rank : t->rank) != TL_FAIL || !(k = fl_match(known, t->name, tc ? tc->id : "")))
				continue;
			fputs("known flaky, failed all the same: ", stdout);
			esc_fputs(stdout, t->name, 0);
			if (tc) {
				fputs(": ", stdout);
				esc_fputs(stdout, tc->id, 0);
			}
			printf(" (listed %s: %s)\n", k->date, k->reason);
			named++;
		}
	}
	if (named)
		printf("%d failure%s of %s on the list of known flaky cases\n", named, named == 1 ? "" : "s", log);
	tl_free(&l);
	return 0;
}

int review_compare_logs(const char *base, const char *review, bool dry, const struct fl_list *known,
			unsigned insns_threshold)
{
	struct tl_log b = { 0 }, r = { 0 };
	char *vtext = NULL;
	size_t vlen = 0;
	FILE *vf = NULL;
	struct vd_report rep = { 0 };
	char err[PATH_MAX + 256];
	double boots;
	int st;

	if (tl_load(base, &b, err, sizeof(err)) || tl_load(review, &r, err, sizeof(err))) {
		fprintf(stderr, PROG ": --compare: %s\n", err);
		tl_free(&b);
		tl_free(&r);
		return CLI_EUSAGE;
	}
	if (dry) {
		printf(PROG ": dry run: would compare %zu tests of %s with %s\n", r.n, review, base);
		st = 0;
	} else if (vd_compare_logs(&b, &r, &rep) || runs_compare(&b, &r, &rep, &boots) ||
		   fl_mark_known(&rep, known)) {
		st = REVIEW_NOBUILD;
	} else if (!(vf = open_memstream(&vtext, &vlen)) ||
		   vc_compare(&b, &r, insns_threshold, &rep, vf)) {
		if (vf)
			fclose(vf);
		st = REVIEW_NOBUILD;
	} else {
		fclose(vf);
		vd_write_review(stdout, NULL, &rep, &r, vtext && *vtext ? vtext : NULL, NULL);
		st = rep.worse ? REVIEW_WORSE : 0;
	}
	free(vtext);
	vd_free(&rep);
	tl_free(&b);
	tl_free(&r);
	return st;
}

