// SPDX-License-Identifier: GPL-2.0-only
/* The tokenizer and error formatter of the line grammars (linegrammar.h). */
#include "linegrammar.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>


int lg_vfail(const struct lg_err *e, int line, const char *fmt, va_list ap)
{
	int n;

	n = snprintf(e->err, e->errlen, "%s:%d: %s", e->path, line, e->within ? e->within : "");
	if (n < 0 || (size_t)n >= e->errlen)
		return -1;
	vsnprintf(e->err + n, e->errlen - n, fmt, ap);
	return -1;
}

int lg_fail(const struct lg_err *e, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lg_vfail(e, line, fmt, ap);
	va_end(ap);
	return -1;
}

char *lg_word(char **p)
{
	char *s = *p, *w;

	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

char *lg_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
