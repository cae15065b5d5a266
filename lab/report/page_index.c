// SPDX-License-Identifier: GPL-2.0-only
/*
 * RESULTS/index.html: every run in a results dir, newest first,
 * with scenario, verdict, kernel, date and duration. A dir whose
 * summary.json is missing or malformed is listed as such.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "html.h"
#include "page_index.h"
#include "summary_read.h"

/* More runs than this in one dir: the newest are listed. */
#define INDEX_MAX_RUNS 5000

static int newest_first(const void *a, const void *b)
{
	const struct run_summary *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? 1 : -1;
	return strcmp(y->name, x->name);
}

int page_index_write(const char *results, char *err, size_t errlen)
{
	static const char *const heads[] = { "run", "scenario", "verdict", "kernel", "date", "duration" };
	struct run_summary *runs = NULL;
	struct dirent *de;
	struct html_page p;
	size_t n = 0, cap = 0;
	char path[4200];
	xmlNodePtr t;
	DIR *d = opendir(results);
	int ret;

	if (!d) {
		snprintf(err, errlen, "%s: %s", results, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && n < INDEX_MAX_RUNS) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", results, de->d_name);
		/* runs are dirs the lab made; a link is none of them */
		if (de->d_name[0] == '.' || lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (n == cap) {
			struct run_summary *nr = realloc(runs, (cap = cap ? cap * 2 : 64) * sizeof(*runs));

			if (!nr)
				break;
			runs = nr;
		}
		run_summary_load(&runs[n++], path);
	}
	closedir(d);
	qsort(runs, n, sizeof(*runs), newest_first);
	if (html_open(&p, "bpfwire runs")) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	snprintf(path, sizeof(path), "%zu runs in %s, newest first.", n, results);
	html_el(p.body, "p", NULL, path);
	t = html_table(p.body, heads, 6);
	for (size_t i = 0; i < n; i++) {
		struct run_summary *r = &runs[i];
		xmlNodePtr tr = html_row(t), td = html_cell(tr, NULL, NULL);
		const char *v = js_str(r->root, "verdict");
		char buf[256], href[300];

		snprintf(href, sizeof(href), "%s/index.html", r->name);
		snprintf(path, sizeof(path), "%s/%s", results, href);
		/* a run without its page (no summary yet, or an old one) is listed by name */
		if (file_exists(path))
			html_link(td, href, r->name);
		else
			html_text(td, r->name, strlen(r->name));
		html_cell(tr, NULL, js_str(r->root, "scenario"));
		if (!r->root)
			html_cell(tr, "fail", r->why);
		else
			html_cell(tr, !strcmp(v, "PASS") ? "pass" : "fail", v[0] ? v : "no verdict");
		snprintf(buf, sizeof(buf), "%s%s%s%s", js_str(r->root, "kernel_release"),
			 js_str(r->root, "kernel_series")[0] ? " (" : "", js_str(r->root, "kernel_series"),
			 js_str(r->root, "kernel_series")[0] ? ")" : "");
		html_cell(tr, NULL, buf);
		fmt_when(r->when, buf, sizeof(buf));
		html_cell(tr, NULL, buf);
		if (r->root)
			fmt_seconds(js_num(r->root, "total_seconds"), buf, sizeof(buf));
		else
			buf[0] = '\0';
		html_cell(tr, "num", buf);
	}
	snprintf(path, sizeof(path), "%s/index.html", results);
	ret = html_write(&p, path, HTML_MAX_BYTES);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	html_close(&p);
out:
	for (size_t i = 0; i < n; i++)
		run_summary_free(&runs[i]);
	free(runs);
	return ret ? -1 : 0;
}
