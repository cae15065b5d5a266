// SPDX-License-Identifier: GPL-2.0-only
/* Which kernel a series is reviewed on: see kernels.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* Up to 4 numbers of "X.Y.Z..."; the parts after a non-number are 0. */
static void parts(const char *v, unsigned long n[4])
{
	for (int i = 0; i < 4; i++) {
		char *e;

		n[i] = isdigit((unsigned char)*v) ? strtoul(v, &e, 10) : 0;
		if (!isdigit((unsigned char)*v))
			continue;
		v = *e == '.' ? e + 1 : "";
	}
}

int kernels_cmp(const char *a, const char *b)
{
	unsigned long x[4], y[4];

	parts(a, x);
	parts(b, y);
	for (int i = 0; i < 4; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

int kernels_known(const char *versions_file, char vers[][KERNELS_VLEN], int max)
{
	char line[512], v[KERNELS_VLEN];
	FILE *f = fopen(versions_file, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		int len = 0, i;

		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "linux-source-", 13))
			continue;
		p += 13;
		while (len < KERNELS_VLEN - 1 && (isdigit((unsigned char)p[len]) || p[len] == '.'))
			len++;
		if (!len || !isspace((unsigned char)p[len]))
			continue;
		memcpy(v, p, len);
		v[len] = '\0';
		for (i = 0; i < n && strcmp(vers[i], v); i++)
			;
		if (i < n || n == max)
			continue;
		/* newest first: insert before the first older one */
		for (i = n; i > 0 && kernels_cmp(vers[i - 1], v) < 0; i--)
			memcpy(vers[i], vers[i - 1], KERNELS_VLEN);
		memcpy(vers[i], v, KERNELS_VLEN);
		n++;
	}
	fclose(f);
	return n;
}

int kernels_linux_xy(const char *text, char *xy, size_t len)
{
	const char *p = text, *found = NULL;
	unsigned long x, y;

	while ((p = strstr(p, "Linux "))) {
		p += 6;
		if (isdigit((unsigned char)*p))
			found = p;
	}
	if (!found || sscanf(found, "%lu.%lu", &x, &y) != 2)
		return -1;
	return snprintf(xy, len, "%lu.%lu", x, y) < (int)len ? 0 : -1;
}

const char *kernels_at_most(char vers[][KERNELS_VLEN], int n, const char *xy)
{
	for (int i = 0; i < n; i++)
		if (kernels_cmp(vers[i], xy) <= 0)
			return vers[i];
	return NULL;
}

/* Append the line [s, e) without its "kernel:" prefix and indent. */
static void add(char *out, size_t len, const char *s, const char *e)
{
	size_t n = strlen(out);

	if (!strncmp(s, "kernel:", 7))
		s += 7;
	while (s < e && *s == ' ')
		s++;
	snprintf(out + n, len - n, "%s%.*s", n ? "; " : "", (int)(e - s), s);
}

void kernels_failure(const char *text, char *out, size_t len)
{
	const char *s = text, *first_err = NULL, *first_err_end = NULL;
	bool patch = false, hunk = false;

	out[0] = '\0';
	while (*s) {
		const char *e = strchr(s, '\n');
		const char *b = s;

		if (!e)
			e = s + strlen(s);
		if (!strncmp(b, "kernel:", 7))
			b += 7;
		while (*b == ' ' && b < e)
			b++;
		if (!patch && !strncmp(b, "error: patch ", 13)) {
			add(out, len, s, e);
			patch = true;
		} else if (patch && !hunk && !strncmp(b, "hunk: ", 6)) {
			add(out, len, s, e);
			hunk = true;
		} else if (!first_err && !strncmp(b, "error: ", 7)) {
			first_err = s;
			first_err_end = e;
		}
		s = *e ? e + 1 : e;
	}
	if (!patch && first_err)
		add(out, len, first_err, first_err_end);
}

void kernels_base(const char *root, const char *version, const char *api, char *dir, size_t len)
{
	char name[32];
	int j = 0;

	if (!strcmp(version, "6.12")) {
		snprintf(dir, len, "%s/%s", root, !strcmp(api, "seed") ? "build" : "build-up");
		return;
	}
	for (const char *p = version; *p && j < (int)sizeof(name) - 1; p++)
		if (*p != '.')
			name[j++] = *p;
	name[j] = '\0';
	snprintf(dir, len, "%s/build-%s", root, name);
}
