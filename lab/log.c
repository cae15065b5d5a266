// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

enum log_level lab_log_level = LOG_INFO;

void lab_log(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (level > lab_log_level)
		return;
	va_start(ap, fmt);
	fputs("bpfwire-lab: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

const char *errno_str(int err)
{
	static __thread char buf[128];

	if (err < 0)
		err = -err;
	snprintf(buf, sizeof(buf), "%s (%s, %d)", strerror(err),
		 strerrorname_np(err) ? strerrorname_np(err) : "?", -err);
	return buf;
}
