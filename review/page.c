// SPDX-License-Identifier: GPL-2.0-only
/* RESULTS/review.html: see page.h. Every string goes in as a text node. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "page.h"

int review_page(const char *dir, const char *title, const char *header, const struct vd_report *rep)
{
	static const char *const heads[] = { "", "kind", "test", "case, check or count", "baseline",
					     "review", "note" };
	static const enum vd_mark order[] = { VD_WORSE, VD_FLAKY, VD_KNOWN_FLAKY, VD_CHANGED, VD_BETTER };
	struct html_page p;
	char path[4096], line[256], runs[600];
	xmlNodePtr t, para;
	int r;

	if (html_open(&p, title))
		return -ENOMEM;
	html_pre(p.body, NULL, header, strlen(header));
	snprintf(line, sizeof(line), "verdict: %s: %zu worse, %zu better, %zu changed; the same as the baseline: "
		 "%zu tests, %zu cases, %zu checks, %zu counts", vd_worse(rep) ? "WORSE" : "OK", rep->worse,
		 rep->better, rep->changed, rep->same[VD_TEST], rep->same[VD_CASE], rep->same[VD_CHECK],
		 rep->same[VD_COUNT]);
	html_el(p.body, "p", vd_worse(rep) ? "fail" : "pass", line);
	if (rep->flaky || rep->known_flaky) {
		snprintf(line, sizeof(line), "%zu flaky (worse in some runs only), %zu known flaky: reported, "
			 "not counted as worse", rep->flaky, rep->known_flaky);
		html_el(p.body, "p", "changed", line);
	}
	t = html_table(p.body, heads, sizeof(heads) / sizeof(heads[0]));
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (size_t i = 0; i < rep->n; i++) {
			const struct vd_item *it = &rep->items[i];
			xmlNodePtr row;

			if (it->mark != order[o])
				continue;
			row = html_row(t);
			html_cell(row, it->mark == VD_WORSE ? "fail" : it->mark == VD_BETTER ? "pass" : "changed",
				  vd_mark_name(it->mark));
			html_cell(row, NULL, vd_kind_name(it->kind));
			html_cell(row, NULL, it->test);
			html_cell(row, NULL, it->what);
			html_cell(row, NULL, it->base);
			html_cell(row, NULL, it->review);
			if (it->known)
				snprintf(runs, sizeof(runs), "%s%sknown flaky since %s", it->note, it->note[0] ? "; " : "",
					 it->known);
			else if (it->runs)
				snprintf(runs, sizeof(runs), "%s%sworse in %d of %d runs", it->note,
					 it->note[0] ? "; " : "", it->worse_runs, it->runs);
			html_cell(row, NULL, it->known || it->runs ? runs : it->note);
		}
	para = html_el(p.body, "p", NULL, "Files: ");
	html_link_file(para, dir, "review.txt", "review.txt");
	html_text(para, ", ", 2);
	html_link_file(para, dir, "review.json", "review.json");
	html_text(para, ", ", 2);
	html_link_file(para, dir, "review.testlog.json", "review.testlog.json");
	html_text(para, ", ", 2);
	html_link_file(para, dir, "baseline.testlog.json", "baseline.testlog.json");
	snprintf(path, sizeof(path), "%s/review.html", dir);
	r = html_write(&p, path, HTML_MAX_BYTES);
	html_close(&p);
	return r;
}
