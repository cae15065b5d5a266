// SPDX-License-Identifier: GPL-2.0-only
/* The series a reviewer names: see series.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "errnames.h"
#include "file.h"
#include "series.h"

/* An mbox of a long series with its cover letter is well under this. */
#define SERIES_MBOX_MAX (256u << 20)

int series_check(const char *path, char *err, size_t errlen)
{
	char buf[PATH_MAX + 16];
	struct stat st;
	char *text;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s/series", path);
		if (!file_exists(buf)) {
			snprintf(err, errlen, "%s: a directory without a series file (a patch directory lists its patches in SERIES/series)", path);
			return -1;
		}
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: neither an mbox nor a directory", path);
		return -1;
	}
	text = read_user_file(path, NULL);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	/* mboxrd, as b4 am and git format-patch --stdout write it */
	if (strncmp(text, "From ", 5) || (!strstr(text, "\nSubject:") && !strstr(text, "\nsubject:"))) {
		snprintf(err, errlen, "%s: not an mbox (b4 am or git format-patch --stdout output starts with a \"From \" line and has a Subject: header)", path);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static int count_selftests(const char *text)
{
	static const char mark[] = "\n+++ b/tools/testing/selftests/bpf/prog_tests/";
	int n = 0;

	for (const char *p = text ? strstr(text, mark) : NULL; p; p = strstr(p + 1, mark))
		n++;
	return n;
}

int series_selftests(const char *path)
{
	char buf[PATH_MAX + 16], *list, *save = NULL;
	struct stat st;
	int n = 0;

	if (stat(path, &st))
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		char *text = read_user_file(path, NULL);

		n = count_selftests(text);
		free(text);
		return n;
	}
	snprintf(buf, sizeof(buf), "%s/series", path);
	list = read_user_file(buf, NULL);
	for (char *l = list ? strtok_r(list, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char *text;

		if (!*l || *l == '#' || strchr(l, '/'))
			continue;
		snprintf(buf, sizeof(buf), "%s/%s", path, l);
		text = read_user_file(buf, NULL);
		n += count_selftests(text);
		free(text);
	}
	free(list);
	return n;
}

int series_name_ok(const char *name)
{
	if (!name[0] || name[0] == '.' || strlen(name) > 64)
		return -1;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			return -1;
	return 0;
}

int series_name(const char *path, char *out, size_t len)
{
	static const char *const ext[] = { ".mbx", ".mbox", ".patch", ".eml" };
	char tmp[PATH_MAX];
	const char *b;
	size_t l;

	snprintf(tmp, sizeof(tmp), "%s", path);
	l = strlen(tmp);
	while (l > 1 && tmp[l - 1] == '/')
		tmp[--l] = '\0';
	b = strrchr(tmp, '/');
	b = b ? b + 1 : tmp;
	snprintf(out, len, "%.64s", b);
	l = strlen(out);
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
		size_t e = strlen(ext[i]);

		if (l > e && !strcmp(out + l - e, ext[i])) {
			out[l - e] = '\0';
			break;
		}
	}
	for (char *p = out; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '_';
	while (out[0] == '.')
		memmove(out, out + 1, strlen(out));
	return out[0] ? 0 : -1;
}

/* More paths or names than a series has: past it, nothing is skipped. */
#define TOUCH_MAX 4096

void series_touch_free(struct series_touch *t)
{
	char **v[] = { t->files, t->kfuncs, t->funcs };
	size_t n[] = { t->nfiles, t->nkfuncs, t->nfuncs };

	for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
		for (size_t i = 0; i < n[k]; i++)
			free(v[k][i]);
		free(v[k]);
	}
	memset(t, 0, sizeof(*t));
}

static void unread(struct series_touch *t, const char *what, const char *why)
{
	if (!t->unread[0])
		snprintf(t->unread, sizeof(t->unread), "%.300s: %.200s", what, why);
}

static int add_name(struct series_touch *t, char ***v, size_t *n, const char *s, size_t len)
{
	char **nv;

	if (!len)
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !memcmp((*v)[i], s, len))
			return 0;
	if (*n >= TOUCH_MAX) {
		unread(t, "the series", "more than 4096 paths or functions");
		return 0;
	}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(s, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/*
 * A header's path, as git apply takes it: up to a tab (diff -u puts a
 * date there), none for /dev/null, without its first component when
 * strip (-p1). A quoted path stays quoted: no rule matches it.
 */
static int add_path(struct series_touch *t, const char *s, size_t len, bool strip)
{
	const char *tab = memchr(s, '\t', len), *sl;

	if (tab)
		len = tab - s;
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		return 0;
	if (strip && len && s[0] != '"' && (sl = memchr(s, '/', len))) {
		len -= sl + 1 - s;
		s = sl + 1;
	}
	return add_name(t, &t->files, &t->nfiles, s, len);
}

/* "diff --git a/P b/Q": P and Q; a line it cannot split is kept whole, and so matches no rule. */
static int add_git_line(struct series_touch *t, const char *s, size_t len)
{
	const char *b = NULL;

	for (size_t i = 2; len > 5 && s[0] != '"' && i + 3 <= len; i++)
		if (!memcmp(s + i, " b/", 3)) {
			if (b)
				return add_name(t, &t->files, &t->nfiles, s, len);	/* two: ambiguous */
			b = s + i;
		}
	if (!b || memcmp(s, "a/", 2))
		return add_name(t, &t->files, &t->nfiles, s, len);
	return add_name(t, &t->files, &t->nfiles, s + 2, b - s - 2) ?:
	       add_name(t, &t->files, &t->nfiles, b + 3, s + len - b - 3);
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The identifier right before the first '(' of s[0..len), or 0. */
static size_t ident_before_paren(const char *s, size_t len, const char **name)
{
	const char *p = memchr(s, '(', len), *e;

	if (!p)
		return 0;
	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	e = p;
	while (p > s && ident_char(p[-1]))
		p--;
	if (p == e || (*p >= '0' && *p <= '9'))
		return 0;
	*name = p;
	return e - p;
}

/* "__bpf_kfunc" as a word (not __bpf_kfunc_start_defs): where it ends, or NULL. */
static const char *kfunc_mark(const char *s, size_t len)
{
	static const char m[] = "__bpf_kfunc";

	for (const char *p = s; p + sizeof(m) - 1 <= s + len; p++)
		if (!memcmp(p, m, sizeof(m) - 1) && (p == s || !ident_char(p[-1])) &&
		    (p + sizeof(m) - 1 == s + len || !ident_char(p[sizeof(m) - 1])))
			return p + sizeof(m) - 1;
	return NULL;
}

static bool prefix_ci(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !strncasecmp(s, pre, n);
}

int series_touches_text(const char *text, size_t len, const char *what, struct series_touch *t)
{
	const char *end = text + len, *name;
	char pending = 0;	/* a __bpf_kfunc line without its name: the next line of that sign has it */
	int r = 0;

	if (memchr(text, '\0', len))
		unread(t, what, "a NUL byte in it");
	for (const char *l = text; l < end && !r; ) {
		const char *nl = memchr(l, '\n', end - l);
		size_t n = (nl ? nl : end) - l, k;

		if (n && l[n - 1] == '\r')
			n--;
		if (prefix_ci(l, n, "Content-Transfer-Encoding:")) {
			const char *v = l + 26;
			size_t vn = n - 26;

			while (vn && (*v == ' ' || *v == '\t'))
				v++, vn--;
			if (!prefix_ci(v, vn, "7bit") && !prefix_ci(v, vn, "8bit") && !prefix_ci(v, vn, "binary"))
				unread(t, what, "an encoded message (not 7bit or 8bit): its diff is not read here");
		} else if (n > 11 && !memcmp(l, "diff --git ", 11)) {
			r = add_git_line(t, l + 11, n - 11);
		} else if (n > 4 && (!memcmp(l, "--- ", 4) || !memcmp(l, "+++ ", 4))) {
			r = add_path(t, l + 4, n - 4, true);
		} else if (n > 12 && (!memcmp(l, "rename from ", 12))) {
			r = add_path(t, l + 12, n - 12, false);
		} else if (n > 10 && (!memcmp(l, "rename to ", 10) || !memcmp(l, "copy from ", 10))) {
			r = add_path(t, l + 10, n - 10, false);
		} else if (n > 8 && !memcmp(l, "copy to ", 8)) {
			r = add_path(t, l + 8, n - 8, false);
		} else if (n > 3 && !memcmp(l, "@@ ", 3)) {
			/* "@@ -a,b +c,d @@ CONTEXT": the function the hunk changes */
			const char *c = memmem(l + 3, n - 3, " @@", 3), *m;

			pending = 0;
			if (c) {
				c += 3;
				k = ident_before_paren(c, l + n - c, &name);
				m = kfunc_mark(c, l + n - c);
				if (k)
					r = add_name(t, m ? &t->kfuncs : &t->funcs, m ? &t->nkfuncs : &t->nfuncs, name, k);
			}
		} else if (n > 1 && (l[0] == '+' || l[0] == '-')) {
			const char *m = kfunc_mark(l + 1, n - 1), *f = memmem(l + 1, n - 1, "BTF_ID_FLAGS(func,", 18);

			if (f) {
				const char *s = f + 18, *e;

				while (s < l + n && (*s == ' ' || *s == '\t'))
					s++;
				for (e = s; e < l + n && ident_char(*e); e++)
					;
				r = add_name(t, &t->kfuncs, &t->nkfuncs, s, e - s);
			} else if (m || pending == l[0]) {
				const char *from = m ? m : l + 1;

				k = ident_before_paren(from, l + n - from, &name);
				if (k)
					r = add_name(t, &t->kfuncs, &t->nkfuncs, name, k);
				pending = k || !m ? 0 : l[0];
			}
		}
		l = nl ? nl + 1 : end;
	}
	return r;
}

int series_append(char **text, size_t *len, const char *s, size_t n)
{
	char *v = realloc(*text, *len + n + 2);

	if (!v)
		return -ENOMEM;
	memcpy(v + *len, s, n);
	*len += n;
	v[(*len)++] = '\n';
	v[*len] = '\0';
	*text = v;
	return 0;
}

int series_text(const char *path, char **text, size_t *len, struct series_touch *t)
{
	char buf[PATH_MAX + 16], *list, *save = NULL, *one;
	struct stat st;
	size_t n;
	int r = 0;

	*text = NULL;
	*len = 0;
	if (stat(path, &st)) {
		unread(t, path, errno_str(errno));
		return series_append(text, len, "", 0);
	}
	if (!S_ISDIR(st.st_mode)) {
		one = read_user_file(path, &n);
		if (!one)
			unread(t, path, errno_str(errno));
		r = series_append(text, len, one ? one : "", one ? n : 0);
		free(one);
		return r;
	}
	snprintf(buf, sizeof(buf), "%s/series", path);
	list = read_user_file(buf, NULL);
	if (!list)
		unread(t, buf, errno_str(errno));
	r = series_append(text, len, "", 0);
	for (char *l = list ? strtok_r(list, "\n", &save) : NULL; l && !r; l = strtok_r(NULL, "\n", &save)) {
		l[strcspn(l, "\r")] = '\0';
		if (!*l || *l == '#')
			continue;
		/* never a path the series file steers outside the directory */
		if (strchr(l, '/')) {
			unread(t, l, "a series entry with a '/' is not read here");
			continue;
		}
		snprintf(buf, sizeof(buf), "%s/%s", path, l);
		one = read_user_file(buf, &n);
		if (!one)
			unread(t, buf, errno_str(errno));
		else
			r = series_append(text, len, one, n);
		free(one);
	}
	free(list);
	return r;
}

int series_touches(const char *path, struct series_touch *t, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int r;

	memset(t, 0, sizeof(*t));
	r = series_text(path, &text, &len, t) ?: series_touches_text(text, len, path, t);
	free(text);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, errno_str(-r));
		series_touch_free(t);
		return -1;
	}
	if (!t->nfiles)
		unread(t, path, "no diff found in it");
	return 0;
}
