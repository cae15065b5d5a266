/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libbpf's output through the one logger, one level down: its warnings
 * show at -v, its info at -vv. Header-only so common/ needs no libbpf.
 */
#ifndef BPFWIRE_COMMON_LIBBPF_LOG_H
#define BPFWIRE_COMMON_LIBBPF_LOG_H

#include <bpf/libbpf.h>
#include "log.h"

static int log_libbpf_print(enum libbpf_print_level level, const char *fmt,
			    va_list ap)
{
	enum log_level ours = level == LIBBPF_WARN ? LOG_INFO :
			      level == LIBBPF_INFO ? LOG_DEBUG : LOG_TRACE;

	return log_vraw(ours, fmt, ap);	/* its lines start with "libbpf: " */
}

static inline void log_route_libbpf(void)
{
	libbpf_set_print(log_libbpf_print);
}

#endif /* BPFWIRE_COMMON_LIBBPF_LOG_H */
