// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errnames.h"
#include "file.h"
#include "summary_read.h"

int run_summary_load(struct run_summary *r, const char *dir)
{
	char path[4200];
	const char *slash;
	struct stat st;
	char *text;
	size_t len = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	while (strlen(r->dir) > 1 && r->dir[strlen(r->dir) - 1] == '/')
		r->dir[strlen(r->dir) - 1] = '\0';
	slash = strrchr(r->dir, '/');
	snprintf(r->name, sizeof(r->name), "%.255s", slash ? slash + 1 : r->dir);
	if (!stat(dir, &st)) {
		r->when = st.st_mtime;
		r->dir_ok = S_ISDIR(st.st_mode);
	} else {
		r->dir_errno = errno;
	}
	snprintf(path, sizeof(path), "%s/summary.json", r->dir);
	if (!stat(path, &st))
		r->when = r->mtime = st.st_mtime;
	text = read_file_max(path, &len, RUN_SUMMARY_MAX);
	if (!text) {
		r->read_errno = errno;
		snprintf(r->why, sizeof(r->why), "summary.json: %s", errno_str(errno));
		return -1;
	}
	r->root = strlen(text) == len ? json_tokener_parse_verbose(text, &r->jerr) : NULL;
	if (strlen(text) != len)
		r->jerr = json_tokener_error_parse_unexpected;
	free(text);
	if (!r->root || !json_object_is_type(r->root, json_type_object)) {
		snprintf(r->why, sizeof(r->why), "summary.json: %s",
			 r->jerr != json_tokener_success ? json_tokener_error_desc(r->jerr) : "not a JSON object");
		json_object_put(r->root);
		r->root = NULL;
		return -1;
	}
	if (js_num(r->root, "finished_unix") > 0)
		r->when = (time_t)js_num(r->root, "finished_unix");
	return 0;
}

void run_summary_free(struct run_summary *r)
{
	json_object_put(r->root);
	r->root = NULL;
}

void js_text(json_object *v, char *out, size_t len)
{
	if (!v)
		snprintf(out, len, "-");
	else if (json_object_is_type(v, json_type_double))
		snprintf(out, len, "%.6g", json_object_get_double(v));
	else
		snprintf(out, len, "%s", json_object_get_string(v));
}

void step_host(json_object *step, char *out, size_t len)
{
	const char *op = js_str(step, "op"), *what = js_str(step, "what"), *from = what, *end;
	char stop = ':';

	out[0] = '\0';
	if (!strcmp(op, "spawn"))
		from = strstr(what, " on ");
	else if (!strcmp(op, "report") || !strcmp(op, "stats"))
		from = strstr(what, " from ");
	else if (!strcmp(op, "link") || !strcmp(op, "netem") || !strcmp(op, "tapstats"))
		stop = ' ';
	else if (strcmp(op, "exec"))
		return;
	if (!from)
		return;
	if (from != what)
		from += from[1] == 'o' ? 4 : 6;
	end = strchr(from, stop);
	/* a host name has no space: else this is no "HOST:" prefix */
	if (end && end > from && end - from < 64 && !memchr(from, ' ', (size_t)(end - from)))
		snprintf(out, len, "%.*s", (int)(end - from), from);
}

void fmt_seconds(double s, char *out, size_t len)
{
	if (s >= 60)
		snprintf(out, len, "%d min %.0f s", (int)(s / 60), s - 60 * (int)(s / 60));
	else
		snprintf(out, len, "%.1f s", s);
}

void fmt_when(time_t t, char *out, size_t len)
{
	struct tm tm;

	if (t && gmtime_r(&t, &tm))
		strftime(out, len, "%Y-%m-%d %H:%M UTC", &tm);
	else
		snprintf(out, len, "-");
}
