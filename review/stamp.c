// SPDX-License-Identifier: GPL-2.0-only
/* Which bpfwire commit a build's test log is for: see stamp.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "log.h"
#include "stamp.h"

void stamp_path(const char *dir, const char *logbase, const char *ext, char *out, size_t len)
{
	snprintf(out, len, "%s/meson-logs/%s.%s", dir, logbase, ext);
}

/*
 * The baseline's results of the same bpfwire commit: meson-logs/testlog
 * (./run tests stamps it) then review-baseline (a review's own run of the
 * baseline), later ones winning.
 */
void base_reuse(const char *dir, const char *commit, struct tl_log *log)
{
	static const char *const bases[] = { "testlog", "review-baseline" };
	const char *order[2] = { bases[0], bases[1] };
	struct stat s0, s1;
	char p0[PATH_MAX + 64], p1[PATH_MAX + 64];

	stamp_path(dir, bases[0], "json", p0, sizeof(p0));
	stamp_path(dir, bases[1], "json", p1, sizeof(p1));
	if (!stat(p0, &s0) && !stat(p1, &s1) && s0.st_mtime > s1.st_mtime)
		order[0] = bases[1], order[1] = bases[0];
	for (int i = 0; i < 2; i++) {
		char sp[PATH_MAX + 64], jp[PATH_MAX + 64], err[512];
		char *c;

		stamp_path(dir, order[i], "commit", sp, sizeof(sp));
		stamp_path(dir, order[i], "json", jp, sizeof(jp));
		c = read_file(sp, NULL);
		if (!c)
			continue;
		c[strcspn(c, "\n")] = '\0';
		if (strcmp(c, commit) || strstr(commit, "dirty") || !strcmp(commit, "unknown")) {
			pr_info("baseline: %s is for bpfwire %.12s, not %.12s: not reused", jp, c, commit);
		} else if (tl_load(jp, log, err, sizeof(err))) {
			pr_warn("baseline: %s", err);
		} else {
			pr_info("baseline: reusing %s (bpfwire %.12s)", jp, c);
		}
		free(c);
	}
}

int write_stamp(const char *dir, const char *logbase, const char *commit)
{
	char p[PATH_MAX + 64], text[256];

	stamp_path(dir, logbase, "commit", p, sizeof(p));
	snprintf(text, sizeof(text), "%s\n", commit);
	return write_file_atomic(p, text);
}

int keep_log(const char *path, const struct tl_log *log, char **names, int n)
{
	size_t cap = 1, used = 0;
	char *text = NULL;
	int r;

	for (int i = 0; i < n; i++) {
		const struct tl_test *t = tl_find(log, names[i]);

		if (t)
			cap += strlen(t->raw) + 1;
	}
	text = malloc(cap);
	if (!text)
		return -ENOMEM;
	text[0] = '\0';
	for (int i = 0; i < n; i++) {
		const struct tl_test *t = tl_find(log, names[i]);

		if (t)
			used += sprintf(text + used, "%s\n", t->raw);
	}
	r = write_file_atomic(path, text);
	free(text);
	return r;
}
