/* SPDX-License-Identifier: GPL-2.0-only */
/* One leveled printer for bpfwire-recv; everything goes to stderr. */
#ifndef BPFWIRE_RECV_LOG_H
#define BPFWIRE_RECV_LOG_H

#include <stdio.h>

enum bpfw_log_level { BPFW_LOG_WARN, BPFW_LOG_INFO, BPFW_LOG_DEBUG };

extern enum bpfw_log_level bpfw_log_level;

#define bpfw_pr(lvl, fmt, ...) do {					\
		if ((lvl) <= bpfw_log_level)				\
			fprintf(stderr, "bpfwire-recv: " fmt "\n", ##__VA_ARGS__); \
	} while (0)
#define pr_warn(fmt, ...)  bpfw_pr(BPFW_LOG_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  bpfw_pr(BPFW_LOG_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) bpfw_pr(BPFW_LOG_DEBUG, fmt, ##__VA_ARGS__)

#endif /* BPFWIRE_RECV_LOG_H */
