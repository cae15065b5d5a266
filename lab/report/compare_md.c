// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison (compare.h) as a GitHub Markdown table, for a README or a
 * reply on a list. Guest text is escaped for a terminal first
 * (common/escape.h), then put in a code span, where neither Markdown nor
 * HTML is read, with | escaped: a cell stays one cell of plain text.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_md.h"
#include "escape.h"

#define MD_WHAT 60
#define MD_SIDE 90

static void md_text(FILE *f, const char *s, int width)
{
	size_t n, len, run = 0, longest = 0;
	char buf[512];

	if (!s) {
		fputs("-", f);
		return;
	}
	len = strlen(s);
	if ((size_t)width + 1 > sizeof(buf))
		width = sizeof(buf) - 1;
	n = esc_str(buf, (size_t)width + 1, s, len, 0);
	if (n > (size_t)width) {
		esc_str(buf, (size_t)width - 1, s, len, 0);
		strcat(buf, "..");
	}
	/* the span's fence outruns any run of ` inside it */
	for (const char *p = buf; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
	fputc(' ', f);
	for (const char *p = buf; *p; p++) {
		if (*p == '|')	/* a table cell ends at a bare |, even in a code span */
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc(' ', f);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
}

/* Does text hold a line equal to line[0..len)? */
static bool has_line(const char *text, const char *line, size_t len)
{
	for (const char *o = text; o && *o;) {
		const char *nl = strchr(o, '\n');
		size_t olen = nl ? (size_t)(nl - o) : strlen(o);

		if (olen == len && !memcmp(o, line, len))
			return true;
		o = nl ? nl + 1 : o + olen;
	}
	return false;
}

/* The first line of s that other lacks (what tells the runs apart), else s's last. */
static const char *telling_line(const char *s, const char *other, char *out, size_t outlen)
{
	const char *pick = NULL;
	size_t pick_len = 0;

	for (const char *line = s; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len) {
			pick = line;
			pick_len = len;
			if (!has_line(other, line, len))
				break;
		}
		line = nl ? nl + 1 : line + len;
	}
	if (!pick)
		return NULL;
	snprintf(out, outlen, "%.*s", (int)pick_len, pick);
	return out;
}

static void md_side(FILE *f, const struct cmp_side *s, const struct cmp_side *other, bool with_output)
{
	char line[1024], vd[1024];

	if (!s->verdict) {
		fputs("(none)", f);
		return;
	}
	snprintf(vd, sizeof(vd), "%s%s%s", s->verdict, s->detail ? " " : "", s->detail ? s->detail : "");
	md_text(f, vd, MD_SIDE);
	if (with_output && s->output) {
		fputc(' ', f);
		md_text(f, telling_line(s->output, other->output, line, sizeof(line)), MD_SIDE);
	}
}

static void md_label(FILE *f, const struct cmp_run *run, char ab)
{
	fprintf(f, "%c: ", ab);
	md_text(f, run->kernel_series ? run->kernel_series : run->id, 32);
}

static void md_step(FILE *f, const struct cmp_step *s)
{
	bool out = s->output_changed || s->mark != CMP_SAME;

	fprintf(f, "| %s | %d %s: ", s->output_changed ? "~" : cmp_mark_sign(s->mark), s->line,
		strcmp(s->op, "check") && strcmp(s->op, "tap") ? "step" : s->op);
	md_text(f, s->what, MD_WHAT);
	fputs(" | ", f);
	md_side(f, &s->side[0], &s->side[1], out);
	fputs(" | ", f);
	md_side(f, &s->side[1], &s->side[0], out);
	fputs(" |\n", f);
}

void cmp_write_markdown(FILE *f, const struct cmp_result *r, bool all)
{
	for (int i = 0; i < 2; i++) {
		const struct cmp_run *run = &r->run[i];

		fputs(i ? " against B " : "A ", f);
		md_text(f, run->id, 80);
		fprintf(f, " (%s, ", run->date);
		md_text(f, run->kernel_release, 64);
		fputs(", ", f);
		md_text(f, run->verdict, 16);
		fputs(")", f);
	}
	fprintf(f, ": %d verdict%s changed, %d count%s with other values.\n\n", r->verdicts_changed,
		r->verdicts_changed == 1 ? "" : "s", r->counts_changed, r->counts_changed == 1 ? "" : "s");
	fputs("| | step, check, test or count | ", f);
	md_label(f, &r->run[0], 'A');
	fputs(" | ", f);
	md_label(f, &r->run[1], 'B');
	fputs(" |\n| --- | --- | --- | --- |\n", f);
	for (int i = 0; i < r->ncounts; i++) {
		const struct cmp_count *c = &r->counts[i];

		if (c->mark == CMP_SAME && !all)
			continue;
		fprintf(f, "| %s | ", cmp_mark_sign(c->mark));
		md_text(f, c->name, MD_WHAT);
		fputs(" | ", f);
		md_text(f, c->val[0], MD_SIDE);
		fputs(" | ", f);
		md_text(f, c->val[1], MD_SIDE);
		fputs(" |\n", f);
	}
	for (int i = 0; i < r->nsteps; i++)
		if (all || r->steps[i].mark != CMP_SAME || r->steps[i].output_changed)
			md_step(f, &r->steps[i]);
	for (int i = 0; i < r->nchecks; i++)
		md_step(f, &r->checks[i]);
	for (int i = 0; i < r->ntests; i++)
		if (all || r->tests[i].mark != CMP_SAME)
			md_step(f, &r->tests[i]);
	fprintf(f, "\n\\* changed, < only in A, > only in B, ~ same verdict but other output (the first line"
		" that differs); %s.\n", all ? "every step, test and count shown" : "equal steps, tests and counts left out");
}
