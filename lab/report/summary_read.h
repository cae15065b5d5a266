/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A finished run read back for its pages: RUN/summary.json,
 * parsed once, with typed lookups that never fail (a missing or mistyped
 * field reads as "" or 0, since a guest shaped part of the file).
 */
#ifndef BPFWIRE_LAB_RUN_SUMMARY_H
#define BPFWIRE_LAB_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <json-c/json.h>

#include "jsonget.h"

/* A summary.json bigger than this is refused (steps quote a line each). */
#define RUN_SUMMARY_MAX (64u << 20)

struct run_summary {
	char dir[4096];
	char name[256];		/* the run dir's last component */
	json_object *root;	/* NULL: missing or malformed, said in why */
	char why[256];
	time_t when;		/* its finished_unix, else summary.json's mtime, else the dir's */
	/* what failed, for a reader that says it in its own words (compare.c) */
	bool dir_ok;		/* dir is a directory; dir_errno: stat's errno, when it failed */
	int dir_errno;
	int read_errno;		/* reading summary.json: 0, or EFBIG over RUN_SUMMARY_MAX, ... */
	enum json_tokener_error jerr;	/* parsing it; success for a text that is no object */
	time_t mtime;		/* summary.json's, 0 when it has none */
};

/*
 * 0 when summary.json parsed as an object; -1 with why set otherwise. A NUL
 * inside is refused: json-c would stop at it.
 */
int run_summary_load(struct run_summary *r, const char *dir);
void run_summary_free(struct run_summary *r);

/* o.key as a string ("" if absent or no string), number (0), array, object (NULL). */
static inline const char *js_str(json_object *o, const char *key) { return jget_str(o, key, ""); }
static inline double js_num(json_object *o, const char *key) { return jget_num(o, key, 0); }
static inline json_object *js_arr(json_object *o, const char *key) { return jget(o, key, json_type_array); }
static inline json_object *js_obj(json_object *o, const char *key) { return jget(o, key, json_type_object); }
/* A value of any type as short text (numbers without trailing zeros). */
void js_text(json_object *v, char *out, size_t len);

/* The host a step ran on, from its "what" ("HOST: cmd", "N on HOST: cmd", ...). */
void step_host(json_object *step, char *out, size_t len);
/* "12.3 s", "1 m 5 s". */
void fmt_seconds(double s, char *out, size_t len);
/* UTC "2026-12-04 22:14". */
void fmt_when(time_t t, char *out, size_t len);

#endif
