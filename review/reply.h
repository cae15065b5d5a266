/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RESULTS/review.eml: the review as a plain-text mail in reply to the
 * series' first message (its cover letter, or patch 1), for a reviewer to
 * send: what is worse, better or changed against the named baseline, the
 * environment, the command that reproduces it, and Tested-by only when
 * nothing is worse. Every byte of the series' and the guests' text goes
 * through common/escape.h: none starts a line, a header or a trailer.
 */
#ifndef BPFWIRE_REVIEW_REPLY_H
#define BPFWIRE_REVIEW_REPLY_H

#include <stdio.h>
#include <time.h>

#include <json-c/json.h>

#include "verdict.h"

#define REPLY_TESTED_BY "Tested-by: bpfwire <bpfwire@example.invalid>"

/* The headers of the message replied to, unfolded; NULL when absent. */
struct reply_to {
	char *message_id, *subject, *from, *to, *cc, *references;
};

/*
 * The first message of SERIES (an mbox, or a patch directory's first
 * listed patch). 0, or -1 with one line in err (no file, no headers).
 */
int reply_read_series(const char *series, struct reply_to *t, char *err, size_t errlen);
void reply_to_free(struct reply_to *t);

/* What the mail says of the review; "" or NULL where unknown. */
struct reply_env {
	const char *name;	/* the review's name */
	const char *kernel;	/* "Linux 7.3, release ..., from ..." */
	const char *base;	/* the baseline */
	const char *configs;	/* the config fragments, comma-separated */
	const char *compiler;	/* `gcc --version`'s first line */
	const char *bpfwire;	/* bpfwire's commit */
	const char *command;	/* one command that reproduces the review */
	const char *id;		/* the reply's Message-ID is <ID@example.invalid> */
	const char *static_text;	/* the static section (st_write_text: escaped), or NULL */
	const char *range_text;	/* against the base series (rd_write_text: escaped), or NULL */
	time_t date;
	int ntests;
};

/*
 * The environment's lines from the build's series.json (NULL: unknown):
 * "Linux X.Y, release R, from BASE PACKAGE" and its config fragments,
 * comma-separated, bpfwire's own named relative to root.
 */
void reply_kernel_line(json_object *series_json, const char *version, char *out, size_t len);
void reply_configs(json_object *series_json, const char *root, char *out, size_t len);
/*
 * "./run review ARGS" from the review's argv, each argument quoted for a
 * shell where it needs it; pin (when not NULL) appended as "--kernel X.Y"
 * so that the command builds the same kernel.
 */
void reply_command(int argc, char **argv, const char *pin, char *out, size_t len);

/* The whole mail to f. 0, or -EIO when a write failed. */
int reply_write(FILE *f, const struct reply_to *t, const struct reply_env *env, const struct vd_report *rep);

#endif /* BPFWIRE_REVIEW_REPLY_H */
