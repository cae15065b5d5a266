// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison (compare.h) as a GitHub Markdown table, for a README or a
 * reply on a list. Guest text is escaped for a terminal first
 * (common/escape.h), then every character Markdown or its inline HTML
 * would read (| ` * _ [ ] < > & ~ \) gets a backslash: a cell stays one
 * cell of plain text.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "escape.h"

#define MD_WHAT 60
#define MD_SIDE 90

static void md_text(FILE *f, const char *s, int width)
{
	char buf[512];
	size_t n, len;

	if (!s || !*s) {
		fputs(s ? "" : "-", f);
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
	for (const char *p = buf; *p; p++) {
		if (strchr("\\`*_[]<>|&~", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
}

/* A side's last output line: what a step printed that tells runs apart. */
static const char *last_line(const char *s, char *out, size_t outlen)
{
	const char *end, *start;

	if (!s)
		return NULL;
	end = s + strlen(s);
	while (end > s && end[-1] == '\n')
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(out, outlen, "%.*s", (int)(end - start), start);
	return out;
}

static void md_side(FILE *f, const struct cmp_side *s, bool with_output)
{
	char line[1024];

	if (!s->verdict) {
		fputs("(none)", f);
		return;
	}
	md_text(f, s->verdict, 16);
	if (s->detail) {
		fputs(": ", f);
		md_text(f, s->detail, MD_SIDE);
	}
	if (with_output && s->output) {
		fputs(": ", f);
		md_text(f, last_line(s->output, line, sizeof(line)), MD_SIDE);
	}
}

static void md_label(FILE *f, const struct cmp_run *run, char ab)
{
	fprintf(f, "%c: ", ab);
	md_text(f, run->kernel_series ? run->kernel_series : run->id, 32);
}

static void md_step(FILE *f, const struct cmp_step *s)
{
	char line[32];

	fprintf(f, "| %s | ", s->output_changed ? "~" : cmp_mark_sign(s->mark));
	snprintf(line, sizeof(line), "%d", s->line);
	md_text(f, line, 16);
	fputs(" ", f);
	md_text(f, s->op, 16);
	fputs(": ", f);
	md_text(f, s->what, MD_WHAT);
	fputs(" | ", f);
	md_side(f, &s->side[0], s->output_changed || s->mark != CMP_SAME);
	fputs(" | ", f);
	md_side(f, &s->side[1], s->output_changed || s->mark != CMP_SAME);
	fputs(" |\n", f);
}

void cmp_write_markdown(FILE *f, const struct cmp_result *r, bool all)
{
	for (int i = 0; i < 2; i++) {
		const struct cmp_run *run = &r->run[i];

		fprintf(f, "%s `", i ? "against" : "Compared:");
		md_text(f, run->id, 80);
		fprintf(f, "` (%s, ", run->date);
		md_text(f, run->kernel_release, 64);
		fputs(", ", f);
		md_text(f, run->verdict, 16);
		fprintf(f, ")%s", i ? ": " : " ");
	}
	fprintf(f, "%d verdict%s changed, %d count%s with other values.\n\n", r->verdicts_changed,
		r->verdicts_changed == 1 ? "" : "s", r->counts_changed, r->counts_changed == 1 ? "" : "s");
	fputs("| | step, check or count | ", f);
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
	fputs("\nMarks: * changed, < only in A, > only in B, ~ same verdict but other output (its last line shown).\n", f);
}
