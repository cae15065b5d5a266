// SPDX-License-Identifier: GPL-2.0-only
/*
 * RUN/summary.md: a few lines to paste in a reply on a list:
 * the verdict, the kernel and series, the failed checks and steps with
 * their values, the splats. Guest text is escaped twice: escape.h for
 * control bytes, then a backslash before each character Markdown acts on
 * inside a line (guest text never starts one here), so nothing in it is
 * Markdown; console lines go in a fence longer than any
 * run of backticks in them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "file.h"
#include "summary_md.h"
#include "summary_read.h"

/* Guest text in a line that already started: only the characters Markdown acts on inline. */
static void md_text(FILE *f, const char *s)
{
	size_t n = esc_str(NULL, 0, s, strlen(s), 0);
	char *e = malloc(n + 1);

	if (!e)
		return;
	esc_str(e, n + 1, s, strlen(s), 0);
	for (const char *p = e; *p; p++) {
		if (strchr("\\`*_[]<>|~&#", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
	free(e);
}

static void md_fence(FILE *f, const char *text)
{
	size_t run = 0, best = 0;
	char fence[64];

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	if (best < 3)
		best = 2;
	if (best > sizeof(fence) - 2)
		best = sizeof(fence) - 2;
	memset(fence, '`', best + 1);
	fence[best + 1] = '\0';
	/* the scan's quote went through escape.h already: a control byte left is a '?' */
	fprintf(f, "%s\n", fence);
	for (const char *p = text; *p; p++)
		fputc(((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f ? '?' : *p, f);
	if (text[0] && text[strlen(text) - 1] != '\n')
		fputc('\n', f);
	fprintf(f, "%s\n", fence);
}

static void failed_steps(FILE *f, json_object *steps)
{
	int n = 0;

	for (size_t i = 0; steps && i < json_object_array_length(steps); i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		bool check = !strcmp(js_str(s, "op"), "check");
		const char *v = js_str(s, "verdict");

		if (!strcmp(v, "ok") || !strcmp(v, "skip"))
			continue;
		if (!n++)
			fprintf(f, "\nFailed:\n\n");
		fprintf(f, "- line %d, %s: ", (int)js_num(s, "line"), check ? "check" : js_str(s, "op"));
		md_text(f, js_str(s, "what"));
		if (js_str(s, "values")[0]) {
			fputs(" (", f);
			md_text(f, js_str(s, "values"));
			fputc(')', f);
		}
		if (js_str(s, "why")[0]) {
			fputs(": ", f);
			md_text(f, js_str(s, "why"));
		}
		fputc('\n', f);
	}
}

int summary_md_write(const char *dir, char *err, size_t errlen)
{
	struct run_summary r;
	json_object *j, *series, *patches;
	char *text = NULL, path[4200], buf[64];
	size_t len = 0;
	FILE *f;
	int ret;

	if (run_summary_load(&r, dir)) {
		snprintf(err, errlen, "%s: %s", dir, r.why);
		return -1;
	}
	j = r.root;
	f = open_memstream(&text, &len);
	if (!f) {
		run_summary_free(&r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fputs("**", f);
	md_text(f, js_str(j, "scenario"));
	fputs(": ", f);
	md_text(f, js_str(j, "verdict"));
	fputs("**", f);
	if (js_str(j, "reason")[0]) {
		fputs(": ", f);
		md_text(f, js_str(j, "reason"));
	}
	fputs("\n\n> ", f);
	md_text(f, js_str(j, "summary"));
	fputs("\n\n- kernel: ", f);
	md_text(f, js_str(j, "kernel_release")[0] ? js_str(j, "kernel_release") : "unknown");
	fputs(", series ", f);
	md_text(f, js_str(j, "kernel_series")[0] ? js_str(j, "kernel_series") : "unknown");
	fmt_seconds(js_num(j, "total_seconds"), buf, sizeof(buf));
	fprintf(f, "\n- run: ");
	md_text(f, r.name);
	fprintf(f, ", %s, topology ", buf);
	md_text(f, js_str(j, "topology"));
	fputc('\n', f);
	series = js_obj(j, "series");
	patches = js_arr(series, "patches");
	if (series) {
		fputs("- series base: ", f);
		md_text(f, js_str(series, "base")[0] ? js_str(series, "base") : "unknown");
		fputc('\n', f);
		for (size_t i = 0; patches && i < json_object_array_length(patches); i++) {
			json_object *pt = json_object_array_get_idx(patches, i);

			fprintf(f, "  %zu. ", i + 1);
			md_text(f, json_object_is_type(pt, json_type_string) ?
				json_object_get_string(pt) : js_str(pt, "subject"));
			fputc('\n', f);
		}
	}
	failed_steps(f, js_arr(j, "steps"));
	fprintf(f, "\nConsole splats: %d\n", (int)js_num(j, "splats"));
	{
		json_object *cons = js_arr(j, "consoles");

		for (size_t i = 0; cons && i < json_object_array_length(cons); i++) {
			json_object *c = json_object_array_get_idx(cons, i);

			fputs("\nConsole ", f);
			md_text(f, js_str(c, "host"));
			fputs(": ", f);
			md_text(f, !strcmp(js_str(c, "proof"), "live") ? "proven live" : js_str(c, "proof"));
			fputs(", ", f);
			md_text(f, js_str(c, "why"));
			fputc('\n', f);
		}
	}
	if (js_str(j, "splat_text")[0]) {
		fputc('\n', f);
		md_fence(f, js_str(j, "splat_text"));
	}
	if (fclose(f) || !text) {
		free(text);
		run_summary_free(&r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	ret = write_file_atomic(path, text);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	free(text);
	run_summary_free(&r);
	return ret ? -1 : 0;
}
