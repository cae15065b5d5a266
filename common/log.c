// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "log.h"

enum log_level log_level = LOG_INFO;
static const char *log_prog = "bpfwire";

void log_init(const char *prog, enum log_level level)
{
	log_prog = prog;
	log_level = level;
}

const char *log_prog_name(void)
{
	return log_prog;
}

void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	char line[4096];
	size_t n;

	if (level > log_level)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	/* Tolerate one stray newline instead of printing a blank line. */
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	fprintf(stderr, "%s: %s\n", log_prog, line);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

int log_vraw(enum log_level level, const char *fmt, va_list ap)
{
	if (level > log_level)
		return 0;
	return vfprintf(stderr, fmt, ap);
}
