/* SPDX-License-Identifier: GPL-2.0-only */
/* What a reviewer names: the series (an mbox or a patch directory), its review's name. */
#ifndef BPFWIRE_REVIEW_SERIES_H
#define BPFWIRE_REVIEW_SERIES_H

#include <stddef.h>

/*
 * 0 when path is an mbox (its first line "From ", a Subject: header in
 * it) or a directory with a `series` file; else -1 with one line in err.
 */
int series_check(const char *path, char *err, size_t errlen);
/*
 * The review's default name: SERIES's last component without .mbx, .mbox,
 * .patch or .eml, every byte outside [A-Za-z0-9._-] made '_'. 0, or -1
 * when nothing is left.
 */
int series_name(const char *path, char *out, size_t len);
/*
 * How many of the series' files add or change a selftest
 * (tools/testing/selftests/bpf/prog_tests/): the review then runs the
 * kernel suite's `selftests` case, which builds and runs them. 0 when none
 * or unreadable.
 */
int series_selftests(const char *path);
/* 0 when name is usable in build-review-NAME. */
int series_name_ok(const char *name);

/*
 * What a series' patches touch, read from their text as git apply reads
 * it (no shell, no git): each path of a diff header (diff --git, ---, +++,
 * rename and copy lines; a quoted path kept quoted), the kfuncs its
 * changed lines define or register (__bpf_kfunc, BTF_ID_FLAGS(func, X))
 * and the functions its hunks change (a hunk header's function context).
 * Each name once, in the order first seen. What could not be read (an
 * encoded message, a NUL byte, a series entry outside the directory, an
 * unreadable file, no diff at all) is said in unread: a reader must then
 * assume the series touches anything.
 */
struct series_touch {
	char **files, **kfuncs, **funcs;
	size_t nfiles, nkfuncs, nfuncs;
	char unread[512];
};

/* 0, or -1 only out of memory (err says so). */
int series_touches(const char *path, struct series_touch *t, char *err, size_t errlen);
/*
 * SERIES's text: the mbox, or a patch directory's patches in its series
 * order, each ending in a newline; what cannot be read is said in t's
 * unread. *text is malloc'd. 0 or -ENOMEM.
 */
int series_text(const char *path, char **text, size_t *len, struct series_touch *t);
/* Appends s[0..n) and a newline to the malloc'd *text of *len bytes. 0 or -ENOMEM. */
int series_append(char **text, size_t *len, const char *s, size_t n);
/* The same on one text (a message or an mbox); len counts its bytes. */
int series_touches_text(const char *text, size_t len, const char *what, struct series_touch *t);
void series_touch_free(struct series_touch *t);

#endif
