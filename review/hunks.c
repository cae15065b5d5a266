// SPDX-License-Identifier: GPL-2.0-only
/* The hunks of a series, known by what they change: see hunks.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "hunks.h"

enum seg_kind { SEG_TEXT, SEG_HEAD, SEG_HUNK };

struct seg {
	const char *start, *end;
	enum seg_kind kind;
	size_t section;
	bool kept;
	char id[HK_ID_LEN + 1];
};

struct parse {
	struct seg *v;
	size_t n, cap, sections;
	const char *key, *key_end;	/* the section's "diff --git" (or ---/+++) lines */
};

static const char *line_end(const char *l, const char *end)
{
	const char *nl = memchr(l, '\n', end - l);

	return nl ? nl + 1 : end;
}

static bool starts(const char *l, const char *end, const char *p)
{
	size_t n = strlen(p);

	return (size_t)(end - l) >= n && !memcmp(l, p, n);
}

/*
 * Feeds l[0..n) without its trailing whitespace (a mailer's, a CR). Spaces
 * inside a line stay: "y - --z" and "y-- - z" are other code.
 */
static void digest_line(EVP_MD_CTX *c, const char *l, size_t n)
{
	while (n && isspace((unsigned char)l[n - 1]))
		n--;
	EVP_DigestUpdate(c, l, n);
	EVP_DigestUpdate(c, "\n", 1);
}

/*
 * The identity of [s, e): the section's key, then each line of the hunk
 * but its "@@" line (its line numbers change with every version); of a
 * section without hunks, each header line but "index" (its blob ids do).
 */
static int identity(const struct parse *p, const char *s, const char *e, bool hunk,
		    char out[HK_ID_LEN + 1])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdn = 0;

	if (!c)
		return -ENOMEM;
	EVP_DigestInit_ex(c, EVP_sha256(), NULL);
	for (const char *l = p->key; l < p->key_end; l = line_end(l, p->key_end))
		digest_line(c, l, line_end(l, p->key_end) - l);
	EVP_DigestUpdate(c, "\0", 1);
	for (const char *l = hunk ? line_end(s, e) : s; l < e; l = line_end(l, e))
		if (hunk || ((l < p->key || l >= p->key_end) && !starts(l, e, "index ")))
			digest_line(c, l, line_end(l, e) - l);
	EVP_DigestFinal_ex(c, md, &mdn);
	EVP_MD_CTX_free(c);
	for (unsigned i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/* k: SEG_HUNK with hunk set, or a section without hunks (a hunk of its own) */
static int add_seg(struct parse *p, const char *s, const char *e, enum seg_kind k, bool hunk)
{
	if (s == e)
		return 0;
	if (k == SEG_TEXT && p->n && p->v[p->n - 1].kind == SEG_TEXT && p->v[p->n - 1].end == s) {
		p->v[p->n - 1].end = e;
		return 0;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct seg *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n] = (struct seg){ .start = s, .end = e, .kind = k, .section = p->sections };
	if (k == SEG_HUNK && identity(p, s, e, hunk, p->v[p->n].id))
		return -ENOMEM;
	p->n++;
	return 0;
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts, or false. */
static bool hunk_counts(const char *l, const char *end, long *old, long *new)
{
	char buf[96];
	size_t n = end - l < (long)sizeof(buf) - 1 ? (size_t)(end - l) : sizeof(buf) - 1;
	long a, c;

	memcpy(buf, l, n);
	buf[n] = '\0';
	*old = *new = 1;
	if (sscanf(buf, "@@ -%ld,%ld +%ld,%ld", &a, old, &c, new) == 4)
		return true;
	*old = *new = 1;
	if (sscanf(buf, "@@ -%ld +%ld,%ld", &a, &c, new) == 3 && strstr(buf, " +") &&
	    !memchr(buf, ',', strstr(buf, " +") - buf))
		return true;
	*new = 1;
	if (sscanf(buf, "@@ -%ld,%ld +%ld", &a, old, &c) == 3)
		return true;
	*old = 1;
	return sscanf(buf, "@@ -%ld +%ld", &a, &c) == 2;
}

/* A git header line that may follow "diff --git" before the first hunk. */
static bool header_line(const char *l, const char *end)
{
	static const char *const h[] = {
		"index ", "old mode ", "new mode ", "deleted file mode ", "new file mode ",
		"similarity index ", "dissimilarity index ", "rename from ", "rename to ",
		"copy from ", "copy to ", "Binary files ", "GIT binary patch", "--- ", "+++ ",
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		if (starts(l, end, h[i]))
			return true;
	return false;
}

static int parse(const char *text, size_t len, struct parse *p)
{
	const char *end = text + len, *l = text, *out = text;

	memset(p, 0, sizeof(*p));
	while (l < end) {
		const char *next = line_end(l, end), *sec, *hs, *he;
		bool git = starts(l, end, "diff --git ");

		if (!git && !(starts(l, end, "--- ") && starts(next, end, "+++ "))) {
			l = next;
			continue;
		}
		/* a file section: its key, its other header lines, then its hunks */
		if (add_seg(p, out, l, SEG_TEXT, false))
			return -ENOMEM;
		p->sections++;
		sec = l;
		p->key = l;
		p->key_end = git ? next : line_end(next, end);
		l = p->key_end;
		while (l < end && header_line(l, end) && !starts(l, end, "@@ ")) {
			/* its data, each block ending in a blank line, is its identity */
			for (bool bin = starts(l, end, "GIT binary patch"); bin; ) {
				l = line_end(l, end);
				while (l < end && *l != '\n' && !starts(l, end, "\r\n"))
					l = line_end(l, end);
				bin = starts(line_end(l, end), end, "literal ") ||
				      starts(line_end(l, end), end, "delta ");
			}
			l = line_end(l, end);
		}
		hs = l;
		while (l < end && starts(l, end, "@@ ")) {
			long old, new;
			const char *h = l;

			if (!hunk_counts(l, end, &old, &new))
				break;
			if (h == hs && add_seg(p, sec, hs, SEG_HEAD, false))
				return -ENOMEM;
			l = line_end(l, end);
			while (l < end && (old > 0 || new > 0)) {
				char c = *l;

				if (c == ' ' || c == '\n' || (c == '\r' && starts(l, end, "\r\n")))
					old--, new--;
				else if (c == '-')
					old--;
				else if (c == '+')
					new--;
				else if (c != '\\')
					break;	/* cut short: the hunk ends here */
				l = line_end(l, end);
			}
			while (l < end && *l == '\\')
				l = line_end(l, end);
			if (add_seg(p, h, l, SEG_HUNK, true))
				return -ENOMEM;
		}
		he = l;
		if (he == hs && add_seg(p, sec, he, SEG_HUNK, false))	/* no hunk: the section is one */
			return -ENOMEM;
		out = l;
	}
	return add_seg(p, out, end, SEG_TEXT, false);
}

static bool in_set(const struct hk_set *s, const char *id)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->ids[i], id))
			return true;
	return false;
}

int hk_collect(const char *text, size_t len, struct hk_set *set)
{
	struct parse p;
	int r = parse(text, len, &p);

	for (size_t i = 0; !r && i < p.n; i++) {
		if (p.v[i].kind != SEG_HUNK || in_set(set, p.v[i].id))
			continue;
		if (set->n == set->cap) {
			size_t cap = set->cap ? 2 * set->cap : 64;
			void *v = realloc(set->ids, cap * sizeof(*set->ids));

			if (!v) {
				r = -ENOMEM;
				break;
			}
			set->ids = v;
			set->cap = cap;
		}
		memcpy(set->ids[set->n++], p.v[i].id, HK_ID_LEN + 1);
	}
	free(p.v);
	return r;
}

int hk_filter(const char *text, size_t len, const struct hk_set *drop, char **out, size_t *outlen,
	      size_t *kept, size_t *dropped)
{
	struct parse p;
	bool *live;
	size_t o = 0;
	int r = parse(text, len, &p);

	*kept = *dropped = 0;
	live = r ? NULL : calloc(p.sections + 1, sizeof(*live));
	*out = live ? malloc(len + 1) : NULL;
	if (!*out) {
		free(live);
		free(p.v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p.n; i++)
		if (p.v[i].kind == SEG_HUNK) {
			p.v[i].kept = !in_set(drop, p.v[i].id);
			live[p.v[i].section] |= p.v[i].kept;
			*(p.v[i].kept ? kept : dropped) += 1;
		}
	for (size_t i = 0; i < p.n; i++) {
		const struct seg *s = &p.v[i];

		if (s->kind == SEG_TEXT || (s->kind == SEG_HEAD && live[s->section]) || s->kept) {
			memcpy(*out + o, s->start, s->end - s->start);
			o += s->end - s->start;
		}
	}
	(*out)[o] = '\0';
	*outlen = o;
	free(live);
	free(p.v);
	return 0;
}

void hk_set_free(struct hk_set *set)
{
	free(set->ids);
	memset(set, 0, sizeof(*set));
}
