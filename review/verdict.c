// SPDX-License-Identifier: GPL-2.0-only
/* The review's comparison with its baseline: see verdict.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "verdict.h"

const char *vd_kind_name(enum vd_kind k)
{
	static const char *const n[] = { "test", "case", "check", "count" };

	return n[k];
}

const char *vd_mark_name(enum vd_mark m)
{
	static const char *const n[] = { "same", "changed", "better", "WORSE", "FLAKY", "known-flaky" };

	return n[m];
}

/* Where an item of mark is counted. */
static size_t *counter(struct vd_report *rep, enum vd_mark mark)
{
	switch (mark) {
	case VD_WORSE: return &rep->worse;
	case VD_BETTER: return &rep->better;
	case VD_FLAKY: return &rep->flaky;
	case VD_KNOWN_FLAKY: return &rep->known_flaky;
	default: return &rep->changed;
	}
}

int vd_add(struct vd_report *rep, enum vd_kind kind, enum vd_mark mark, const char *test,
	   const char *what, const char *base, const char *review, const char *note)
{
	struct vd_item *ni, *it;

	if (mark == VD_SAME) {
		rep->same[kind]++;
		return 0;
	}
	ni = realloc(rep->items, (rep->n + 1) * sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	rep->items = ni;
	it = &ni[rep->n];
	it->kind = kind;
	it->mark = mark;
	it->test = strdup(test);
	it->what = strdup(what ? what : "");
	it->base = strdup(base ? base : "(none)");
	it->review = strdup(review ? review : "(none)");
	it->note = strdup(note ? note : "");
	it->worse_runs = it->runs = 0;
	it->known = NULL;
	if (!it->test || !it->what || !it->base || !it->review || !it->note) {
		free(it->test), free(it->what), free(it->base), free(it->review), free(it->note);
		return -ENOMEM;
	}
	rep->n++;
	*counter(rep, mark) += 1;
	return 0;
}

int vd_remark(struct vd_report *rep, size_t i, enum vd_mark mark, const char *known)
{
	struct vd_item *it = &rep->items[i];
	char *k = known ? strdup(known) : NULL;

	if (known && !k)
		return -ENOMEM;
	*counter(rep, it->mark) -= 1;
	*counter(rep, mark) += 1;
	it->mark = mark;
	free(it->known);
	it->known = k;
	return 0;
}

static enum vd_mark by_rank(int base, int review)
{
	return review < base ? VD_WORSE : review > base ? VD_BETTER : VD_SAME;
}

/*
 * A case's name without what varies from run to run or kernel to kernel:
 * "(...)" dropped, the release's -bpfwire-NAME made -bpfwire*, each number
 * (decimal, hex, dotted) made '#'. "exited 0" and "exited 1" are one case.
 */
void vd_case_shape(const char *id, char *out, size_t len)
{
	size_t o = 0;
	int depth = 0;

	for (const char *p = id; *p && o + 2 < len; p++) {
		if (*p == '(') {
			depth++;
			continue;
		}
		if (*p == ')' && depth) {
			depth--;
			continue;
		}
		if (depth)
			continue;
		if (!strncmp(p, "-bpfwire", 8)) {
			const char *q = p + 8;

			while (*q == '-' || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9'))
				q++;
			o += snprintf(out + o, len - o, "-bpfwire*");
			p = q - 1;
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			while (p[1] == '.' || p[1] == 'x' || (p[1] >= '0' && p[1] <= '9') ||
			       (p[1] >= 'a' && p[1] <= 'f'))
				p++;
			out[o++] = '#';
			continue;
		}
		out[o++] = *p;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o < len ? o : len - 1] = '\0';
}

/* The base case for rc: the same name, else the one unmatched case of the same shape. */
static const struct tl_case *match_case(const struct tl_test *b, const struct tl_test *r,
					const struct tl_case *rc, bool *used)
{
	char want[1024], shape[1024];

	for (size_t i = 0; i < b->ncases; i++)
		if (!strcmp(b->cases[i].id, rc->id)) {
			used[i] = true;
			return &b->cases[i];
		}
	/* only when the review has no case of that exact name either */
	vd_case_shape(rc->id, want, sizeof(want));
	for (size_t i = 0; i < b->ncases; i++) {
		if (used[i] || tl_find_case(r, b->cases[i].id))
			continue;
		vd_case_shape(b->cases[i].id, shape, sizeof(shape));
		if (!strcmp(shape, want)) {
			used[i] = true;
			return &b->cases[i];
		}
	}
	return NULL;
}

static int compare_cases(const struct tl_test *b, const struct tl_test *r, struct vd_report *rep)
{
	bool *used = calloc(b->ncases + 1, sizeof(*used));
	int err = used ? 0 : -ENOMEM;

	/* exact names first, so a shape never takes a case that has its twin */
	for (size_t i = 0; i < r->ncases && !err; i++)
		for (size_t k = 0; k < b->ncases; k++)
			if (!strcmp(b->cases[k].id, r->cases[i].id))
				used[k] = true;
	for (size_t i = 0; i < r->ncases && !err; i++) {
		const struct tl_case *rc = &r->cases[i], *bc = match_case(b, r, rc, used);
		enum vd_mark m;

		if (!bc)
			m = VD_CHANGED;	/* new in the review: no baseline to be worse than */
		else if (rc->rank == bc->rank)
			/* the same skip for another reason is worth a look */
			m = rc->rank == TL_SKIP && strcmp(rc->note, bc->note) ? VD_CHANGED : VD_SAME;
		else
			m = by_rank(bc->rank, rc->rank);
		err = vd_add(rep, VD_CASE, m, r->name, rc->id, bc ? tl_rank_name(bc->rank) : NULL,
			     tl_rank_name(rc->rank), rc->note);
	}
	/*
	 * A case the baseline ran and the review did not: lost. Not so in
	 * `selftests`, which runs each kernel's own series' tests: the
	 * baseline's are not the review's to run.
	 */
	for (size_t i = 0; i < b->ncases && !err; i++)
		if (!used[i])
			err = vd_add(rep, VD_CASE, strcmp(r->name, "selftests") ? VD_WORSE : VD_CHANGED,
				     r->name, b->cases[i].id, tl_rank_name(b->cases[i].rank),
				     "(not run)", strcmp(r->name, "selftests") ? "" :
				     "the baseline's own selftests, not the series'");
	free(used);
	return err;
}

int vd_compare_logs(const struct tl_log *base, const struct tl_log *review, struct vd_report *rep)
{
	int err = 0;

	for (size_t i = 0; i < review->n && !err; i++) {
		const struct tl_test *r = &review->tests[i], *b = tl_find(base, r->name);

		if (!b) {
			err = vd_add(rep, VD_TEST, VD_CHANGED, r->name, "", NULL, r->result,
				     "the baseline has no such test");
			continue;
		}
		err = vd_add(rep, VD_TEST, by_rank(b->rank, r->rank), r->name, "", b->result, r->result, "");
		if (!err)
			err = compare_cases(b, r, rep);
	}
	return err;
}

void vd_free(struct vd_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		struct vd_item *it = &rep->items[i];

		free(it->test), free(it->what), free(it->base), free(it->review), free(it->note);
		free(it->known);
	}
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

void vd_write_item(FILE *f, const struct vd_item *it, bool mark)
{
	if (mark)
		fprintf(f, "  %-7s %-5s ", vd_mark_name(it->mark), vd_kind_name(it->kind));
	else
		fprintf(f, "  %-5s ", vd_kind_name(it->kind));
	esc_fputs(f, it->test, 0);
	if (it->what[0]) {
		fputs(": ", f);
		esc_fputs(f, it->what, 0);
	}
	fputs(": ", f);
	esc_fputs(f, it->base, 0);
	fputs(" -> ", f);
	esc_fputs(f, it->review, 0);
	if (it->note[0]) {
		fputs(" (", f);
		esc_fputs(f, it->note, 0);
		fputc(')', f);
	}
	if (it->known) {
		fputs(" [known flaky since ", f);
		esc_fputs(f, it->known, 0);
		fputc(']', f);
	} else if (it->runs) {
		fprintf(f, " [worse in %d of %d runs]", it->worse_runs, it->runs);
	}
	fputc('\n', f);
}

void vd_write_text(FILE *f, const struct vd_report *rep)
{
	static const enum vd_mark order[] = { VD_WORSE, VD_FLAKY, VD_KNOWN_FLAKY, VD_CHANGED, VD_BETTER };

	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (size_t i = 0; i < rep->n; i++)
			if (rep->items[i].mark == order[o])
				vd_write_item(f, &rep->items[i], true);
	fprintf(f, "same as the baseline: %zu tests, %zu cases, %zu checks, %zu counts\n",
		rep->same[VD_TEST], rep->same[VD_CASE], rep->same[VD_CHECK], rep->same[VD_COUNT]);
	fprintf(f, "%zu worse, %zu better, %zu changed\n", rep->worse, rep->better, rep->changed);
	if (rep->flaky || rep->known_flaky)
		fprintf(f, "%zu flaky (worse in some runs only), %zu known flaky (review/known-flaky): "
			"reported, not counted as worse\n", rep->flaky, rep->known_flaky);
}

/* s escaped (common/escape.h) into a malloc'd string; NULL: out of memory. */
static char *esc_dup(const char *s)
{
	size_t n = esc_str(NULL, 0, s, strlen(s), 0);
	char *e = malloc(n + 1);

	if (e)
		esc_str(e, n + 1, s, strlen(s), 0);
	return e;
}

int vd_header(char *out, size_t len, const char *name, const char *series, const char *commit,
	      const char *api, const char *base, int ntests)
{
	/* each part on its own: a newline in one must not start a line */
	char *e[5] = { esc_dup(name), esc_dup(series), esc_dup(commit),
		       esc_dup(api[0] ? api : "not detected"), esc_dup(base) };
	int r = -1;

	if (e[0] && e[1] && e[2] && e[3] && e[4])
		r = snprintf(out, len, "review %s: %s, bpfwire %s, ksock API %s\nbaseline: %s; %d tests compared\n",
			     e[0], e[1], e[2], e[3], e[4], ntests);
	else if (len)
		out[0] = '\0';
	for (int i = 0; i < 5; i++)
		free(e[i]);
	return r;
}

/* kernel-tests' found prototypes: under their test's heading, each line indented and escaped. */
static void write_protos(FILE *f, const struct tl_test *t)
{
	esc_fputs(f, t->name, 0);
	fputs(": kfuncs of an API bpfwire does not know, as this kernel's BTF has them:\n", f);
	for (const char *p = t->protos; *p;) {
		size_t n = strcspn(p, "\n");

		fputs("    ", f);
		esc_fwrite(f, p, n, 0);
		fputc('\n', f);
		p += n + (p[n] == '\n');
	}
}

void vd_write_verdict(FILE *f, const char *word, const struct vd_report *rep)
{
	fprintf(f, "%s: %s (%zu worse than the baseline", word, vd_worse(rep) ? "WORSE" : "OK", rep->worse);
	if (rep->static_worse)
		fprintf(f, ", %zu static findings under --strict", rep->static_worse);
	fputs(")\n", f);
}

void vd_write_review(FILE *f, const char *header, const struct vd_report *rep,
		     const struct tl_log *rlog, const char *extra, const char *results)
{
	/* vd_header escaped its parts; a line of it is ours */
	if (header)
		fputs(header, f);
	vd_write_text(f, rep);
	for (size_t i = 0; i < rlog->n; i++)
		if (rlog->tests[i].protos)
			write_protos(f, &rlog->tests[i]);
	if (extra)
		fputs(extra, f);
	vd_write_verdict(f, "verdict", rep);
	fputs(VD_CAVEAT "\n", f);
	if (results) {
		fputs("results: ", f);
		esc_fputs(f, results, 0);
		fputc('\n', f);
	}
}

json_object *vd_to_json(const struct vd_report *rep)
{
	json_object *o = json_object_new_object(), *items = json_object_new_array(),
		    *same = json_object_new_object();

	json_object_object_add(o, "worse", json_object_new_int64(rep->worse));
	json_object_object_add(o, "better", json_object_new_int64(rep->better));
	json_object_object_add(o, "changed", json_object_new_int64(rep->changed));
	json_object_object_add(o, "flaky", json_object_new_int64(rep->flaky));
	json_object_object_add(o, "known_flaky", json_object_new_int64(rep->known_flaky));
	for (int k = VD_TEST; k <= VD_COUNT; k++)
		json_object_object_add(same, vd_kind_name(k), json_object_new_int64(rep->same[k]));
	json_object_object_add(o, "same", same);
	for (size_t i = 0; i < rep->n; i++) {
		const struct vd_item *it = &rep->items[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "mark", json_object_new_string(vd_mark_name(it->mark)));
		json_object_object_add(j, "kind", json_object_new_string(vd_kind_name(it->kind)));
		json_object_object_add(j, "test", json_object_new_string(it->test));
		json_object_object_add(j, "what", json_object_new_string(it->what));
		json_object_object_add(j, "base", json_object_new_string(it->base));
		json_object_object_add(j, "review", json_object_new_string(it->review));
		json_object_object_add(j, "note", json_object_new_string(it->note));
		if (it->runs) {
			json_object_object_add(j, "worse_runs", json_object_new_int(it->worse_runs));
			json_object_object_add(j, "runs", json_object_new_int(it->runs));
		}
		if (it->known)
			json_object_object_add(j, "known_flaky", json_object_new_string(it->known));
		json_object_array_add(items, j);
	}
	json_object_object_add(o, "items", items);
	return o;
}
