/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one leveled logger (xdp-tools lib/util/logging.h style). Every line
 * goes to stderr as "PROG: message\n". The rule: a message carries no
 * trailing newline; the logger adds exactly one.
 */
#ifndef BPFWIRE_COMMON_LOG_H
#define BPFWIRE_COMMON_LOG_H

#include <stdarg.h>

enum log_level { LOG_WARN = 0, LOG_INFO = 1, LOG_DEBUG = 2, LOG_TRACE = 3 };

extern enum log_level log_level;

/* The prefix of every line: the program's name. */
void log_init(const char *prog, enum log_level level);
/* That name, for a line that is not the logger's (a child's, quoted). */
const char *log_prog_name(void);
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void log_vmsg(enum log_level level, const char *fmt, va_list ap);
/* A library's own line (it brings its newline): printed as is, if enabled. */
int log_vraw(enum log_level level, const char *fmt, va_list ap);

#define pr_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define pr_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif /* BPFWIRE_COMMON_LOG_H */
