// SPDX-License-Identifier: GPL-2.0-only
/* The series a reviewer names: see series.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
