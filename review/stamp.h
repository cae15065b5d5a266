/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A build's test logs and the bpfwire commit each is for
 * (meson-logs/NAME.json beside NAME.commit): ./run tests stamps testlog, a
 * review its own baseline run (review-baseline). A log of another
 * commit, or of a dirty tree, is never reused.
 */
#ifndef REVIEW_STAMP_H
#define REVIEW_STAMP_H

#include <stddef.h>

#include "testlog.h"

/* DIR/meson-logs/LOGBASE.EXT */
void stamp_path(const char *dir, const char *logbase, const char *ext, char *out, size_t len);
/* Load into log the logs of dir stamped with commit, the later one's tests winning. */
void base_reuse(const char *dir, const char *commit, struct tl_log *log);
/* Stamp dir's LOGBASE log as commit's. 0 or -errno. */
int write_stamp(const char *dir, const char *logbase, const char *commit);
/* Write the lines of log's tests named in names to path. 0 or -errno. */
int keep_log(const char *path, const struct tl_log *log, char **names, int n);

#endif
