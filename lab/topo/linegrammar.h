/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two line grammars (scenario files, topology .topo files) share: words
 * split at white space in place, and errors worded "file:line: what".
 */
#ifndef BPFWIRE_LAB_LINEGRAMMAR_H
#define BPFWIRE_LAB_LINEGRAMMAR_H

#include <stdarg.h>
#include <stddef.h>

/* Where a parser puts its one error. */
struct lg_err {
	const char *path;
	char *err;
	size_t errlen;
	const char *within;	/* NULL, or said before what: a line that stands for another */
};

/* "path:line: [within]what" into e->err; always -1, so a parser returns it. */
__attribute__((format(printf, 3, 4)))
int lg_fail(const struct lg_err *e, int line, const char *fmt, ...);
__attribute__((format(printf, 3, 0)))
int lg_vfail(const struct lg_err *e, int line, const char *fmt, va_list ap);

/* The next white-space-separated word of *p, NUL-terminated in place; NULL at the end. */
char *lg_word(char **p);
/* s without white space at either end (the end is cut in place). */
char *lg_trim(char *s);

#endif
