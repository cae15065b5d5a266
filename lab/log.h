/* SPDX-License-Identifier: GPL-2.0-only */
/* One leveled printer for bpfwire-lab (xdp-tools lib/util/logging.h style). */
#ifndef BPFWIRE_LAB_LOG_H
#define BPFWIRE_LAB_LOG_H

enum log_level { LOG_WARN = 0, LOG_INFO = 1, LOG_DEBUG = 2 };

extern enum log_level lab_log_level;

void lab_log(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_warn(...)  lab_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...)  lab_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) lab_log(LOG_DEBUG, __VA_ARGS__)

/* "Operation not permitted (EPERM, -1)"-style text for an errno value. */
const char *errno_str(int err);

#endif
