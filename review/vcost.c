// SPDX-License-Identifier: GPL-2.0-only
/* Verifier cost, base against series: see vcost.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "vcost.h"

int vc_parse_note(const char *note, unsigned *insns, unsigned *peak)
{
	const char *i = note ? strstr(note, "insns=") : NULL;
	const char *p = note ? strstr(note, "peak_states=") : NULL;

	if (!i || !p || sscanf(i, "insns=%u", insns) != 1 || sscanf(p, "peak_states=%u", peak) != 1)
		return -EINVAL;
	return 0;
}

/* One program's figures as the section shows them: "1234 insns, 12 peak states" or why not. */
static void figures(const struct tl_case *c, char *out, size_t len)
{
	unsigned insns, peak;

	if (!c)
		snprintf(out, len, "(not there)");
	else if (c->rank == TL_PASS && !vc_parse_note(c->note, &insns, &peak))
		snprintf(out, len, "%u insns, %u peak states", insns, peak);
	else
		snprintf(out, len, "%s", c->rank == TL_SKIP ? "does not load (another API)" :
			 c->rank == TL_PASS ? "loads (no figures)" : "does not load");
}

/* A case of the selftests test that bpfwire-vcost measured: "x.bpf.o: PROG". */
static bool is_object_case(const char *id)
{
	return id && strstr(id, ".bpf.o: ");
}

/*
 * One test's programs: items for rises over the threshold, a section line
 * each. only_objects: the selftests test, whose other cases are tests.
 */
static int compare_test(const struct tl_test *bt, const struct tl_test *rt, bool only_objects,
			unsigned threshold, struct vd_report *rep, FILE *section)
{
	for (size_t i = 0; i < rt->ncases; i++) {
		const struct tl_case *rc = &rt->cases[i], *bc;
		unsigned bi, bp, ri, rp;
		char b[96], r[96], note[160];

		if (!rc->id || (only_objects && !is_object_case(rc->id)))
			continue;
		bc = bt ? tl_find_case(bt, rc->id) : NULL;
		figures(bc, b, sizeof(b));
		figures(rc, r, sizeof(r));
		note[0] = '\0';
		if (bc && bc->rank == TL_PASS && rc->rank == TL_PASS &&
		    !vc_parse_note(bc->note, &bi, &bp) && !vc_parse_note(rc->note, &ri, &rp) && bi) {
			double pct = 100.0 * ((double)ri - bi) / bi;

			snprintf(note, sizeof(note), " (%+.1f%%)", pct);
			if (pct > threshold) {
				char bs[32], rs[32], why[96];

				snprintf(bs, sizeof(bs), "insns=%u", bi);
				snprintf(rs, sizeof(rs), "insns=%u", ri);
				snprintf(why, sizeof(why), "instructions processed %+.1f%%, over the %u%% threshold",
					 pct, threshold);
				if (vd_add(rep, VD_CASE, VD_CHANGED, rt->name, rc->id, bs, rs, why))
					return -ENOMEM;
				if (rep->same[VD_CASE])
					rep->same[VD_CASE]--;	/* vd_compare_logs counted it the same */
				strncat(note, " OVER THE THRESHOLD", sizeof(note) - strlen(note) - 1);
			}
		} else if (!bc) {
			snprintf(note, sizeof(note), " (new)");
		}
		if (section) {
			/* the name is the guest's text */
			fputs("  ", section);
			esc_fputs(section, rc->id, 0);
			fprintf(section, ": %s -> %s%s\n", b, r, note);
		}
	}
	return 0;
}

/* Whether t has a program case (of also's, when also is not NULL). */
static bool has_objects(const struct tl_test *t, const struct tl_test *also)
{
	for (size_t i = 0; t && i < t->ncases; i++)
		if (is_object_case(t->cases[i].id) && (!also || tl_find_case(also, t->cases[i].id)))
			return true;
	return false;
}

int vc_compare(const struct tl_log *base, const struct tl_log *review, unsigned threshold,
	       struct vd_report *rep, FILE *section)
{
	const struct tl_test *bt = tl_find(base, VC_TEST), *rt = tl_find(review, VC_TEST);
	const struct tl_test *bs = tl_find(base, VC_SELFTESTS), *rs = tl_find(review, VC_SELFTESTS);

	if (!bt && !rt && !has_objects(bs, NULL) && !has_objects(rs, NULL))
		return 0;
	if (section)
		fprintf(section, "verifier cost (%s: instructions processed, peak states; base -> series; "
			"a rise over %u%% is changed):\n", VC_TEST, threshold);
	if (!rt) {
		if (section)
			fprintf(section, "  the series' run has no %s test\n", VC_TEST);
	} else if (compare_test(bt, rt, false, threshold, rep, section)) {
		return -ENOMEM;
	}
	if (!has_objects(rs, NULL))
		return 0;
	if (section)
		fprintf(section, "  the programs of the series' own selftests (%s%s):\n", VC_SELFTESTS,
			bs && has_objects(rs, bs) ? "" : "; the base ran none of them: each with its absolute cost");
	return compare_test(bs, rs, true, threshold, rep, section);
}
