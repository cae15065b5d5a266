// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison (compare.h) as a page, built with lab/report/html.h (libxml2's
 * HTML tree): every string from a run becomes a text node, escaped there,
 * and the page forbids script. Rows that differ carry class "changed" (a
 * verdict that changed also "fail"), one-sided ones "only".
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_html.h"
#include "html.h"

static const char *mark_words(enum cmp_mark m, bool out_changed)
{
	switch (m) {
	case CMP_SAME: return out_changed ? "~ other output" : "";
	case CMP_CHANGED: return "* changed";
	case CMP_ONLY_A: return "< only in A";
	case CMP_ONLY_B: return "> only in B";
	}
	return "?";
}

static const char *side_cls(const struct cmp_side *s)
{
	/* "text": long values wrap inside their cell (html.c's style) */
	if (!s->verdict)
		return "skip text";
	return !strcmp(s->verdict, "ok") || !strncmp(s->verdict, "ok #", 4) ? "pass text" :
	       !strcmp(s->verdict, "skip") ? "skip text" : "fail text";
}

static void side_cell(xmlNodePtr tr, const struct cmp_side *s, bool show_output)
{
	char vd[1024];
	xmlNodePtr td;

	if (!s->verdict) {
		html_cell(tr, "skip", "(none)");
		return;
	}
	snprintf(vd, sizeof(vd), "%s%s%s", s->verdict, s->detail ? " " : "", s->detail ? s->detail : "");
	td = html_cell(tr, side_cls(s), vd);
	if (s->why)
		html_pre(td, NULL, s->why, strlen(s->why));
	if (show_output && s->output) {
		xmlNodePtr d = html_details(td, "output", false);

		html_pre(d, NULL, s->output, strlen(s->output));
	}
}

static void step_table(xmlNodePtr body, const char *title, const struct cmp_step *steps, int n)
{
	static const char *const heads[] = { "", "line", "op", "what", "A", "B" };
	xmlNodePtr t;
	char line[32];

	html_el(body, "h2", NULL, title);
	t = html_table(body, heads, 6);
	for (int i = 0; i < n; i++) {
		const struct cmp_step *s = &steps[i];
		xmlNodePtr tr = html_row(t);

		html_cell(tr, s->verdict_changed ? "fail" : s->mark != CMP_SAME ? "changed" : NULL,
			  mark_words(s->mark, s->output_changed));
		if (s->line_b && s->line_b != s->line)
			snprintf(line, sizeof(line), "%d/%d", s->line, s->line_b);
		else
			snprintf(line, sizeof(line), "%d", s->line);
		html_cell(tr, NULL, line);
		html_cell(tr, NULL, s->op);
		html_cell(tr, "text", s->what);
		side_cell(tr, &s->side[0], s->mark != CMP_SAME || s->output_changed);
		side_cell(tr, &s->side[1], s->mark != CMP_SAME || s->output_changed);
	}
}

int cmp_write_html(const struct cmp_result *r, const char *path)
{
	static const char *const run_heads[] = { "", "run", "date", "scenario", "verdict", "kernel", "series" };
	static const char *const count_heads[] = { "", "count", "A", "B" };
	struct html_page p;
	char title[512], line[256];
	xmlNodePtr t;
	int ret;

	snprintf(title, sizeof(title), "compare %s with %s", r->run[0].id, r->run[1].id);
	ret = html_open(&p, title);
	if (ret)
		return ret;
	snprintf(line, sizeof(line), "%s: %d verdict%s changed, %d count%s with other values, %d step%s with other output",
		 cmp_exit_status(r) ? "DIFFERENT" : "SAME VERDICTS", r->verdicts_changed,
		 r->verdicts_changed == 1 ? "" : "s", r->counts_changed, r->counts_changed == 1 ? "" : "s",
		 r->outputs_changed, r->outputs_changed == 1 ? "" : "s");
	html_el(p.body, "p", cmp_exit_status(r) ? "fail" : "pass", line);
	t = html_table(p.body, run_heads, 7);
	for (int i = 0; i < 2; i++) {
		const struct cmp_run *run = &r->run[i];
		xmlNodePtr tr = html_row(t);

		html_cell(tr, NULL, i ? "B" : "A");
		html_cell(tr, NULL, run->id);
		html_cell(tr, NULL, run->date);
		html_cell(tr, NULL, run->scenario);
		html_cell(tr, run->verdict && !strcmp(run->verdict, "PASS") ? "pass" : "fail", run->verdict);
		html_cell(tr, NULL, run->kernel_release);
		html_cell(tr, NULL, run->kernel_series ? run->kernel_series : "");
	}
	html_el(p.body, "p", NULL, "Marks: * changed, < only in A, > only in B, ~ same verdict but other output.");
	step_table(p.body, "Steps", r->steps, r->nsteps);
	step_table(p.body, "Checks", r->checks, r->nchecks);
	if (r->ntests)
		step_table(p.body, "Tests (TAP lines in a step's output)", r->tests, r->ntests);
	html_el(p.body, "h2", NULL, "Counts");
	t = html_table(p.body, count_heads, 4);
	for (int i = 0; i < r->ncounts; i++) {
		const struct cmp_count *c = &r->counts[i];
		xmlNodePtr tr = html_row(t);

		html_cell(tr, c->mark != CMP_SAME ? "changed" : NULL, mark_words(c->mark, false));
		html_cell(tr, "text", c->name);
		html_cell(tr, c->mark != CMP_SAME ? "changed" : NULL, c->val[0] ? c->val[0] : "-");
		html_cell(tr, c->mark != CMP_SAME ? "changed" : NULL, c->val[1] ? c->val[1] : "-");
	}
	ret = html_write(&p, path, HTML_MAX_BYTES);
	html_close(&p);
	return ret;
}
