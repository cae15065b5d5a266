/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The series' static checks, per patch: the series' own
 * scripts/checkpatch.pl --strict on each of its patches, run in the
 * sandbox by review/checkpatch.sh. Findings are a section of their own;
 * they count as worse only under bpfwire-review --strict (errors and
 * warnings; checkpatch's CHECKs never). The text is the series' tool's:
 * data, escaped wherever it is printed.
 */
#ifndef BPFWIRE_REVIEW_STATIC_H
#define BPFWIRE_REVIEW_STATIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "perpatch.h"

/* A finding of checkpatch's: "ERROR:TYPE: message" and its "#N: FILE: path:line:". */
struct st_finding {
	int patch;		/* 1-based */
	char *level;		/* ERROR, WARNING, CHECK */
	char *type;		/* checkpatch's --show-types name, or "" */
	char *message;
	char *where;		/* "path:line", or "" */
};

struct st_report {
	int patches;		/* the series' patches */
	char **subjects;	/* each one's, from series.json */
	struct st_finding *f;
	size_t n;
	size_t errors, warnings, checks;
	char *not_run;		/* why the checks did not run, or NULL */
	double seconds;
	struct pp_report pp;	/* each patch built on its parent, W=1 and sparse */
};

/*
 * series.json's patches of the series itself ("series": "user"), in
 * order: their count and subjects into st. -1 when it names none.
 */
int st_series_patches(struct st_report *st, json_object *series_json);
/* checkpatch's output for patch (1-based) into st. 0 or -ENOMEM. */
int st_parse(struct st_report *st, int patch, const char *text);
/*
 * DIR/NNNN.checkpatch of each of st's patches (plain files, read with a
 * cap): 0, or -1 with what is missing in err.
 */
int st_load(struct st_report *st, const char *dir, char *err, size_t errlen);
/*
 * What --strict counts as worse: errors and warnings, the patches that
 * break the build, the new W=1 and sparse warnings; 0 without it.
 */
size_t st_counted(const struct st_report *st, bool strict);
/*
 * The section: "static: checkpatch.pl --strict ... N errors, ..." and a
 * line a finding, "  patch 2 \"SUBJECT\": ERROR TYPE: MESSAGE (WHERE)",
 * escaped.
 */
void st_write_text(FILE *f, const struct st_report *st, bool strict);
json_object *st_to_json(const struct st_report *st, bool strict);
/* Sets st->not_run (copied) when it is not yet set. */
void st_not_run(struct st_report *st, const char *why);
void st_free(struct st_report *st);

#endif /* BPFWIRE_REVIEW_STATIC_H */
