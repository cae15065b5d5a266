// SPDX-License-Identifier: GPL-2.0-only
/* A series against its previous version: see rangediff.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "log.h"
#include "proc.h"
#include "rangediff.h"
#include "timeutil.h"

/* the range-diff of two long series is some hundred KiB */
#define RD_TEXT_MAX (8u << 20)
#define RD_LIST_MAX (1u << 20)
/* more patches than any series on the list */
#define RD_PATCHES_MAX 1000

static const char *const names[RD_NSTATUS] = { "unchanged", "changed", "new", "dropped" };

const char *rd_status_name(enum rd_status s)
{
	return s < RD_NSTATUS ? names[s] : "?";
}

void rd_not_run(struct rd_report *rd, const char *why)
{
	if (!rd->not_run)
		rd->not_run = strdup(why);
}

static void free_side(struct rd_patch *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].subject), free(p[i].patch_id);
	free(p);
}

void rd_free(struct rd_report *rd)
{
	free_side(rd->base, rd->nbase);
	free_side(rd->series, rd->nseries);
	free(rd->base_name);
	free(rd->text);
	free(rd->not_run);
	memset(rd, 0, sizeof(*rd));
}

/* A decimal from 1 to RD_PATCHES_MAX at *s, moving past it; 0 if none. */
static int index_at(const char **s, const char *e)
{
	int v = 0;

	if (*s >= e || **s < '1' || **s > '9')
		return 0;
	while (*s < e && **s >= '0' && **s <= '9') {
		v = v * 10 + (**s - '0');
		if (v > RD_PATCHES_MAX)
			return 0;
		(*s)++;
	}
	return v;
}

static int bad_line(char *err, size_t errlen, const char *what, int line, const char *s, size_t n)
{
	char shown[96];

	esc_str(shown, sizeof(shown), s, n < 48 ? n : 48, 0);
	snprintf(err, errlen, "%s line %d is not what git writes: \"%s\"", what, line, shown);
	return -EINVAL;
}

int rd_parse_patches(struct rd_report *rd, const char *text, char *err, size_t errlen)
{
	int line = 0;

	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		const char *e = s + n, *p = s;
		struct rd_patch **side, x = { 0 };
		size_t *count;

		line++;
		if (line == 1) {
			if (n == 9 && !memcmp(s, "tree same", 9))
				rd->same_tree = true;
			else if (!(n == 12 && !memcmp(s, "tree differs", 12)))
				return bad_line(err, errlen, "range-patches.txt", line, s, n);
			goto next;
		}
		if (n > 5 && !memcmp(s, "base ", 5)) {
			side = &rd->base, count = &rd->nbase, p += 5;
		} else if (n > 7 && !memcmp(s, "series ", 7)) {
			side = &rd->series, count = &rd->nseries, p += 7;
		} else {
			return bad_line(err, errlen, "range-patches.txt", line, s, n);
		}
		/* each side's patches come in order, 1 first */
		x.n = index_at(&p, e);
		if (x.n != (int)*count + 1 || p >= e || *p++ != ' ')
			return bad_line(err, errlen, "range-patches.txt", line, s, n);
		if (e - p >= 41 && strspn(p, "0123456789abcdef") == 40 && p[40] == ' ') {
			x.patch_id = memdupz(p, 40);
			p += 41;
		} else if (e - p >= 2 && p[0] == '-' && p[1] == ' ') {
			x.patch_id = strdup("");
			p += 2;
		} else {
			return bad_line(err, errlen, "range-patches.txt", line, s, n);
		}
		x.subject = memdupz(p, e - p);
		struct rd_patch *np = x.subject && x.patch_id ? realloc(*side, (*count + 1) * sizeof(*np)) : NULL;

		if (!np) {
			free(x.subject), free(x.patch_id);
			return -ENOMEM;
		}
		np[(*count)++] = x;
		*side = np;
next:
		s = e + (*e == '\n');
	}
	if (!line)
		return bad_line(err, errlen, "range-patches.txt", 1, "", 0);
	return 0;
}

/*
 * "N:" or "-:" (git pads N on the left to the width of the largest, at
 * most 3 spaces here; a range-diff's body is indented by 4): N, 0 for
 * '-', -1 if neither.
 */
static int pair_index(const char **s, const char *e)
{
	const char *start = *s;
	int v;

	while (*s < e && **s == ' ' && *s - start < 3)
		(*s)++;
	if (*s < e && **s == '-') {
		(*s)++;
		v = 0;
	} else if (!(v = index_at(s, e))) {
		return -1;
	}
	if (*s >= e || **s != ':')
		return -1;
	(*s)++;
	while (*s < e && **s == ' ')
		(*s)++;
	/* the commit: hex, or dashes for none */
	if (*s >= e || !strchr("0123456789abcdef-", **s))
		return -1;
	while (*s < e && **s && strchr("0123456789abcdef-", **s))
		(*s)++;
	return *s < e && **s == ' ' ? v : -1;
}

int rd_parse_pairs(struct rd_report *rd, const char *text, char *err, size_t errlen)
{
	int line = 0;

	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		const char *e = s + n, *p = s;
		int b, r;
		char st;

		line++;
		if (!n)
			goto next;
		b = pair_index(&p, e);
		if (b < 0 || e - p < 3 || !strchr("=!<>", p[1]) || p[2] != ' ')
			return bad_line(err, errlen, "range-pairs.txt", line, s, n);
		st = p[1];
		p += 3;
		r = pair_index(&p, e);
		if (r < 0 || (size_t)b > rd->nbase || (size_t)r > rd->nseries ||
		    ((st == '=' || st == '!') != (b && r)) || (st == '<' && (!b || r)) || (st == '>' && (b || !r)))
			return bad_line(err, errlen, "range-pairs.txt", line, s, n);
		if (b && r) {
			rd->base[b - 1].pair = r;
			rd->series[r - 1].pair = b;
		}
next:
		s = e + (*e == '\n');
	}
	return 0;
}

void rd_classify(struct rd_report *rd)
{
	memset(rd->count, 0, sizeof(rd->count));
	for (size_t i = 0; i < rd->nbase; i++)
		rd->base[i].status = RD_DROPPED;
	for (size_t i = 0; i < rd->nseries; i++) {
		struct rd_patch *s = &rd->series[i];

		s->match = 0;
		/* the paired base patch first, then any with the same patch-id */
		if (s->patch_id[0] && s->pair && !strcmp(rd->base[s->pair - 1].patch_id, s->patch_id))
			s->match = s->pair;
		for (size_t k = 0; s->patch_id[0] && !s->match && k < rd->nbase; k++)
			if (!strcmp(rd->base[k].patch_id, s->patch_id))
				s->match = (int)k + 1;
		s->status = s->match ? RD_UNCHANGED : s->pair ? RD_CHANGED : RD_NEW;
		if (s->match)
			rd->base[s->match - 1].status = RD_UNCHANGED;
		if (s->pair)
			rd->base[s->pair - 1].status = RD_UNCHANGED;
		rd->count[s->status]++;
	}
	for (size_t i = 0; i < rd->nbase; i++)
		rd->count[RD_DROPPED] += rd->base[i].status == RD_DROPPED;
}

int rd_load(struct rd_report *rd, const char *dir, char *err, size_t errlen)
{
	static const char *const files[] = { "range-patches.txt", "range-pairs.txt", "range-diff.txt" };
	char *text[3] = { 0 };
	int r = 0;

	for (int i = 0; i < 3 && !r; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		/* O_NOFOLLOW, capped: the sandbox wrote them */
		text[i] = read_file_max(path, NULL, i == 2 ? RD_TEXT_MAX : RD_LIST_MAX);
		if (!text[i]) {
			snprintf(err, errlen, "%s: %s", path, errno_str(errno));
			r = -1;
		}
	}
	if (!r && (rd_parse_patches(rd, text[0], err, errlen) || rd_parse_pairs(rd, text[1], err, errlen)))
		r = -1;
	if (!r) {
		rd_classify(rd);
		rd->text = text[2];
		text[2] = NULL;
	}
	for (int i = 0; i < 3; i++)
		free(text[i]);
	return r;
}

static void subject(FILE *f, const char *s)
{
	fputc('"', f);
	esc_fputs(f, s, 0);
	fputc('"', f);
}

void rd_write_text(FILE *f, const struct rd_report *rd, bool full)
{
	fputs("range: against the base series ", f);
	esc_fputs(f, rd->base_name ? rd->base_name : "?", 0);
	if (rd->not_run) {
		fputs(": not run: ", f);
		esc_fputs(f, rd->not_run, 0);
		fputc('\n', f);
		return;
	}
	fprintf(f, " (git range-diff; unchanged: the same git patch-id --stable): %zu patches: %zu unchanged, "
		"%zu changed, %zu new; %zu of the base's %zu dropped\n", rd->nseries, rd->count[RD_UNCHANGED],
		rd->count[RD_CHANGED], rd->count[RD_NEW], rd->count[RD_DROPPED], rd->nbase);
	for (size_t i = 0; i < rd->nseries; i++) {
		const struct rd_patch *s = &rd->series[i];

		fprintf(f, "  patch %d ", s->n);
		subject(f, s->subject);
		fprintf(f, ": %s", rd_status_name(s->status));
		if (s->status != RD_NEW)
			fprintf(f, " (base patch %d)", s->match ? s->match : s->pair);
		fputc('\n', f);
	}
	for (size_t i = 0; i < rd->nbase; i++)
		if (rd->base[i].status == RD_DROPPED) {
			fprintf(f, "  dropped: base patch %d ", rd->base[i].n);
			subject(f, rd->base[i].subject);
			fputc('\n', f);
		}
	if (rd->same_tree)
		fprintf(f, "  the two series make the same tree: the same kernel but for its release name%s\n",
			rd->reused ? "; the base was neither built nor run, the review's results stand for it" : "");
	if (!full) {
		fputs("  (the range-diff is in review.txt)\n", f);
		return;
	}
	fputs("range-diff:\n", f);
	/* a line at a time, indented: none of the series' text starts a line */
	for (const char *s = rd->text ? rd->text : ""; *s;) {
		size_t n = strcspn(s, "\n");

		fputs("  ", f);
		esc_fwrite(f, s, n, ESC_KEEP_NL);
		fputc('\n', f);
		s += n + (s[n] == '\n');
	}
}

char *rd_text(const struct rd_report *rd, bool full)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	rd_write_text(f, rd, full);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int rd_run(struct rd_report *rd, const char *root, const char *bdir, const char *series, const char *base,
	   const char *version, const char *source)
{
	char out[PATH_MAX + 16], sh[PATH_MAX + 32], err[PATH_MAX + 160], shown[PATH_MAX + 64];
	char *argv[16] = { "bash", sh, "--fit", "--sandbox", "--range-base", (char *)base, "--out", out,
			   "--user-patches", (char *)series, "--kernel-version", (char *)version };
	double t0 = now_s();
	int a = 12, r;

	free(rd->base_name);
	rd->base_name = strdup(base);
	snprintf(sh, sizeof(sh), "%s/kernel/build.sh", root);
	snprintf(out, sizeof(out), "%s/range", bdir);
	if (source && source[0]) {
		argv[a++] = "--source";
		argv[a++] = (char *)source;
	}
	argv[a] = NULL;
	esc_str(shown, sizeof(shown), base, strlen(base), 0);
	pr_info("range: the series against the base series %s (git range-diff and patch-id on the same pristine "
		"files, in the sandbox)", shown);
	r = proc_run(argv, NULL, 10);
	rd->seconds = now_s() - t0;
	if (proc_stopped())
		return -1;
	if (r) {
		snprintf(err, sizeof(err), "kernel/build.sh --fit --range-base exited %d (see above: a series that "
			 "does not apply to Linux %s is named)", r, version);
		rd_not_run(rd, err);
	} else if (rd_load(rd, out, err, sizeof(err))) {
		rd_not_run(rd, err);
	}
	return 0;
}

json_object *rd_to_json(const struct rd_report *rd)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array(), *dropped = json_object_new_array();
	json_object *c = json_object_new_object();

	json_object_object_add(o, "base", json_object_new_string(rd->base_name ? rd->base_name : ""));
	if (rd->not_run) {
		json_object_object_add(o, "not_run", json_object_new_string(rd->not_run));
		json_object_put(list);
		json_object_put(dropped);
		json_object_put(c);
		return o;
	}
	json_object_object_add(o, "same_tree", json_object_new_boolean(rd->same_tree));
	json_object_object_add(o, "baseline_reused", json_object_new_boolean(rd->reused));
	for (int s = 0; s < RD_NSTATUS; s++)
		json_object_object_add(c, names[s], json_object_new_int64(rd->count[s]));
	json_object_object_add(o, "counts", c);
	for (size_t i = 0; i < rd->nseries; i++) {
		const struct rd_patch *s = &rd->series[i];
		json_object *j = json_object_new_object();
		int b = s->match ? s->match : s->pair;

		json_object_object_add(j, "patch", json_object_new_int(s->n));
		json_object_object_add(j, "subject", json_object_new_string(s->subject));
		json_object_object_add(j, "status", json_object_new_string(rd_status_name(s->status)));
		json_object_object_add(j, "patch_id", json_object_new_string(s->patch_id));
		if (b) {
			json_object_object_add(j, "base_patch", json_object_new_int(b));
			json_object_object_add(j, "base_subject", json_object_new_string(rd->base[b - 1].subject));
			json_object_object_add(j, "base_patch_id", json_object_new_string(rd->base[b - 1].patch_id));
		}
		json_object_array_add(list, j);
	}
	json_object_object_add(o, "patches", list);
	for (size_t i = 0; i < rd->nbase; i++)
		if (rd->base[i].status == RD_DROPPED) {
			json_object *j = json_object_new_object();

			json_object_object_add(j, "base_patch", json_object_new_int(rd->base[i].n));
			json_object_object_add(j, "subject", json_object_new_string(rd->base[i].subject));
			json_object_object_add(j, "patch_id", json_object_new_string(rd->base[i].patch_id));
			json_object_array_add(dropped, j);
		}
	json_object_object_add(o, "dropped", dropped);
	json_object_object_add(o, "range_diff", json_object_new_string(rd->text ? rd->text : ""));
	json_object_object_add(o, "seconds", json_object_new_double(rd->seconds));
	return o;
}
