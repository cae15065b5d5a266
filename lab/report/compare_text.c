// SPDX-License-Identifier: GPL-2.0-only
/*
 * A comparison (compare.h) as aligned ASCII for a terminal: every cell
 * escaped (common/escape.h) and cut to its column, so that a guest's text
 * can neither move the cursor nor start a line of its own.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_text.h"
#include "escape.h"

#define W_WHAT 48	/* a step's command or a check's expression */
#define W_SIDE 32	/* one run's verdict and detail */
#define W_NAME 48	/* a count's name */
#define W_OUT 100	/* an output line */

/* s escaped into out, cut to width with ".." when longer. */
static const char *cell(char *out, size_t outlen, const char *s, int width)
{
	size_t n, len;

	if (!s)
		s = "-";
	len = strlen(s);
	if ((size_t)width + 1 > outlen)
		width = (int)outlen - 1;
	n = esc_str(out, (size_t)width + 1, s, len, 0);
	if (n > (size_t)width) {
		esc_str(out, (size_t)width - 1, s, len, 0);
		strcat(out, "..");
	}
	return out;
}

/* "ok exit 0", "FAIL rx.valid = 9, 10 = 10", "-" for a side without it. */
static const char *side_text(char *out, size_t outlen, const struct cmp_side *s, int width)
{
	char joined[1024];

	if (!s->verdict)
		return cell(out, outlen, "-", width);
	snprintf(joined, sizeof(joined), "%s%s%s", s->verdict, s->detail ? " " : "", s->detail ? s->detail : "");
	return cell(out, outlen, joined, width);
}

static void run_line(FILE *f, const char *label, const struct cmp_run *run)
{
	char id[128], scn[96], verdict[32], rel[96], series[32];

	fprintf(f, "%s %s  %s  %s  %s  kernel %s%s%s%s\n", label, cell(id, sizeof(id), run->id, 80), run->date,
		cell(scn, sizeof(scn), run->scenario, 64), cell(verdict, sizeof(verdict), run->verdict, 16),
		cell(rel, sizeof(rel), run->kernel_release, 64), run->kernel_series ? " (" : "",
		run->kernel_series ? cell(series, sizeof(series), run->kernel_series, 16) : "",
		run->kernel_series ? ")" : "");
}

/* Each side's output, its last lines, one escaped line each. */
static void outputs(FILE *f, const struct cmp_step *s)
{
	for (int i = 0; i < 2; i++) {
		const char *text = s->side[i].output, *nl;
		int lines = 0;

		if (s->side[i].why) {
			char buf[W_OUT + 4];

			fprintf(f, "        %c why: %s\n", "AB"[i], cell(buf, sizeof(buf), s->side[i].why, W_OUT));
		}
		for (; text && *text && lines < 4; text = nl ? nl + 1 : NULL, lines++) {
			char line[1024], buf[W_OUT + 4];

			nl = strchr(text, '\n');
			snprintf(line, sizeof(line), "%.*s", (int)(nl ? (size_t)(nl - text) : strlen(text)), text);
			fprintf(f, "        %c | %s\n", "AB"[i], cell(buf, sizeof(buf), line, W_OUT));
		}
		if (text && *text)
			fprintf(f, "        %c | ...\n", "AB"[i]);
	}
}

static void step_rows(FILE *f, const char *title, const struct cmp_step *steps, int n, bool show_outputs,
		      int w_what, int w_side)
{
	char what[W_WHAT + W_SIDE + 4], a[W_SIDE + 4], b[W_SIDE + 4];

	fprintf(f, "\n%s (%d):\n  %-5s %-7s %-*s %-*s %s\n", title, n, "line", "op", w_what, "what",
		w_side, "A", "B");
	for (int i = 0; i < n; i++) {
		const struct cmp_step *s = &steps[i];
		char op[16], line[16];

		if (s->line_b && s->line_b != s->line)
			snprintf(line, sizeof(line), "%d/%d", s->line, s->line_b);
		else
			snprintf(line, sizeof(line), "%d", s->line);
		fprintf(f, "%s %-5s %-7s %-*s %-*s %s%s\n", s->output_changed ? "~" : cmp_mark_sign(s->mark), line,
			cell(op, sizeof(op), s->op, 7), w_what, cell(what, sizeof(what), s->what, w_what),
			w_side, side_text(a, sizeof(a), &s->side[0], w_side),
			side_text(b, sizeof(b), &s->side[1], w_side),
			s->mark == CMP_ONLY_A ? "  (only in A)" : s->mark == CMP_ONLY_B ? "  (only in B)" : "");
		if (s->mark != CMP_SAME || (show_outputs && s->output_changed))
			outputs(f, s);
	}
}

void cmp_write_text(FILE *f, const struct cmp_result *r, bool show_outputs)
{
	char name[W_NAME + 4], a[W_SIDE + 4], b[W_SIDE + 4];
	int status = cmp_exit_status(r);

	run_line(f, "A:", &r->run[0]);
	run_line(f, "B:", &r->run[1]);
	fprintf(f, "marks: * changed  < only in A  > only in B  ~ same verdict, other output\n");
	step_rows(f, "steps", r->steps, r->nsteps, show_outputs, W_WHAT, W_SIDE);
	step_rows(f, "checks", r->checks, r->nchecks, show_outputs, W_WHAT, W_SIDE);
	/* a test's name says what it saw; its verdict is short */
	if (r->ntests)
		step_rows(f, "tests (TAP lines in step output)", r->tests, r->ntests, show_outputs,
			  W_WHAT + W_SIDE - 16, 16);
	fprintf(f, "\ncounts (%d):\n  %-*s %-*s %s\n", r->ncounts, W_NAME, "name", W_SIDE, "A", "B");
	for (int i = 0; i < r->ncounts; i++) {
		const struct cmp_count *c = &r->counts[i];

		fprintf(f, "%s %-*s %-*s %s\n", cmp_mark_sign(c->mark), W_NAME, cell(name, sizeof(name), c->name, W_NAME),
			W_SIDE, cell(a, sizeof(a), c->val[0], W_SIDE), cell(b, sizeof(b), c->val[1], W_SIDE));
	}
	fprintf(f, "\n%s: %d verdict%s changed, %d count%s with other values, %d step%s with other output%s\n",
		status ? "DIFFERENT" : "SAME VERDICTS", r->verdicts_changed, r->verdicts_changed == 1 ? "" : "s",
		r->counts_changed, r->counts_changed == 1 ? "" : "s", r->outputs_changed,
		r->outputs_changed == 1 ? "" : "s", show_outputs || !r->outputs_changed ? "" : " (--outputs shows them)");
}
