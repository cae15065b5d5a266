/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A series against its previous version (bpfwire-review --base SERIES):
 * kernel/build.sh --fit --range-base applies both to the same pristine
 * files in the sandbox and writes what git says of them (range-diff.txt,
 * range-pairs.txt, range-patches.txt); this reads those files as data and
 * gives each patch of the series a status: unchanged (the same git
 * patch-id --stable as a base patch), changed (paired by git range-diff,
 * another patch-id) or new; a base patch neither matched nor paired is
 * dropped. Every subject and line is the series' text: escaped wherever
 * it is printed.
 */
#ifndef BPFWIRE_REVIEW_RANGEDIFF_H
#define BPFWIRE_REVIEW_RANGEDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

enum rd_status { RD_UNCHANGED, RD_CHANGED, RD_NEW, RD_DROPPED, RD_NSTATUS };

struct rd_patch {
	int n;			/* 1-based, in its series */
	char *subject;
	char *patch_id;		/* 40 hex digits, or "" when it has no diff */
	int pair;		/* the other side's patch git range-diff pairs it with, or 0 */
	int match;		/* the base patch of the same patch-id, or 0 */
	enum rd_status status;	/* a base patch: RD_DROPPED or RD_UNCHANGED (kept) */
};

struct rd_report {
	char *base_name;	/* the base series as named */
	struct rd_patch *base, *series;
	size_t nbase, nseries;
	size_t count[RD_NSTATUS];	/* of the series' patches; RD_DROPPED: of the base's */
	bool same_tree;		/* both make the same tree: the same kernel source */
	bool reused;		/* so the base was neither built nor run (bpfwire-review sets it) */
	char *text;		/* git range-diff's output */
	char *not_run;		/* why there is no range, or NULL */
	double seconds;
};

const char *rd_status_name(enum rd_status s);
/*
 * range-patches.txt: "tree same|differs", then "SIDE N PATCH-ID SUBJECT"
 * a patch, each side's in order. 0, -EINVAL (with the line in err) or
 * -ENOMEM.
 */
int rd_parse_patches(struct rd_report *rd, const char *text, char *err, size_t errlen);
/* range-pairs.txt (git range-diff --no-patch): the pairs, '=' and '!'. */
int rd_parse_pairs(struct rd_report *rd, const char *text, char *err, size_t errlen);
/* The statuses and counts, from the patch-ids and pairs. */
void rd_classify(struct rd_report *rd);
/* DIR's three files (plain files, read with a cap), parsed and classified. */
int rd_load(struct rd_report *rd, const char *dir, char *err, size_t errlen);
/*
 * The section: "range: against the base series ...", a line a patch and
 * a dropped one, and with full the range-diff, each line indented and
 * escaped. Without it (review.eml), the statuses only.
 */
void rd_write_text(FILE *f, const struct rd_report *rd, bool full);
/* The section as a string to free (rd_write_text's), or NULL. */
char *rd_text(const struct rd_report *rd, bool full);
/*
 * kernel/build.sh (ROOT's) --fit --range-base BASE on SERIES and the
 * review's kernel, in the sandbox, into BDIR/range; then rd_load. What
 * kept it from running is rd->not_run, not fatal. -1 only when a signal
 * stopped it (proc.c).
 */
int rd_run(struct rd_report *rd, const char *root, const char *bdir, const char *series, const char *base,
	   const char *version, const char *source);
/* review.json's "range". */
json_object *rd_to_json(const struct rd_report *rd);
/* Sets rd->not_run (copied) when it is not yet set. */
void rd_not_run(struct rd_report *rd, const char *why);
void rd_free(struct rd_report *rd);

#endif /* BPFWIRE_REVIEW_RANGEDIFF_H */
