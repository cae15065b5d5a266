/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-patch checks of the static section: each patch of the series,
 * on its own parent, builds the objects it touches (the first that does
 * not is named), and adds no W=1 or sparse warning there. Warnings are
 * compared as sets of (tool, file, function, message), never by count and
 * never by line: one that replaces another is named. review/perpatch.sh
 * runs make in the sandbox; this reads what it wrote, as data.
 */
#ifndef BPFWIRE_REVIEW_PERPATCH_H
#define BPFWIRE_REVIEW_PERPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* An object at one commit. */
enum pp_state { PP_NOT_RUN, PP_BUILT, PP_FAILED, PP_ABSENT };

struct pp_warning {
	char *tool;		/* "W=1" (the compiler's make) or "sparse" */
	char *file;		/* relative to the tree */
	char *symbol;		/* the function gcc names, or "" */
	char *message;		/* without file and line */
};

struct pp_object {
	char *path;		/* net/core/sock.o */
	enum pp_state parent, patch;
	char *error;		/* the first error at the patch, or NULL */
};

struct pp_patch {
	struct pp_object *obj;
	size_t nobj;
	char **skipped;		/* "PATH: why", touched and not compiled */
	size_t nskipped;
	struct pp_warning *added, *gone;
	size_t nadded, ngone;
	size_t nparent, npatch;	/* distinct warnings of its objects, each side */
	bool breaks;		/* an object of it built (or was absent) at its parent, fails at it */
	bool repairs;		/* one failed at its parent, builds at it */
};

struct pp_report {
	bool ran;
	int patches;
	struct pp_patch *p;	/* [patches] */
	char *tools;		/* "sparse 0.6.4, gcc 12.2.0" */
	bool sparse;
	char *not_run;		/* why it did not run, or NULL */
	int first_broken;	/* 1-based, 0: none */
	size_t added;		/* new warnings, all patches */
	double seconds;
};

/*
 * What perpatch.sh wrote in DIR for a series of patches: 0, or -1 with
 * what is missing in err. prefix: the tree's path in the sandbox (its
 * warnings name files under it), stripped.
 */
int pp_load(struct pp_report *pp, int patches, const char *dir, const char *prefix, char *err, size_t errlen);

/*
 * One make log's warnings and errors, per object: for the tests. Each
 * entry of objs (net/core/sock.o) gets its warnings in w[i] (a set) and
 * its first error in err[i] (or NULL).
 */
struct pp_set {
	struct pp_warning *w;
	size_t n;
};
int pp_parse_log(const char *text, const char *prefix, char **objs, size_t nobj, struct pp_set *w, char **err);
void pp_set_free(struct pp_set *s);

/* What --strict counts: the patches that break the build, the new warnings. */
size_t pp_counted(const struct pp_report *pp, bool strict);
/* Its lines of the static section (escaped); subjects[patch - 1] each patch's. */
void pp_write_text(FILE *f, const struct pp_report *pp, char *const *subjects, bool strict);
json_object *pp_to_json(const struct pp_report *pp, char *const *subjects);
void pp_not_run(struct pp_report *pp, const char *why);
void pp_free(struct pp_report *pp);

/*
 * Runs review/perpatch.sh in the sandbox: ROOT's kernel/sandbox.sh, the
 * tree BDIR/kernel/sbx/{src,obj}, BDIR/perpatch-tree kept, BDIR/perpatch
 * made anew; then pp_load. run: proc_run. What kept it from running is
 * said in pp. Returns run's status (-1 not started).
 */
int pp_run(struct pp_report *pp, const char *root, const char *bdir, int patches,
	   int (*run)(char *const argv[], const char *lock, int nice_inc));

#endif /* BPFWIRE_REVIEW_PERPATCH_H */
