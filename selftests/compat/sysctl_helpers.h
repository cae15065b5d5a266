/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire's stand-in for the selftests' sysctl helpers, which 6.12 lacks:
 * build.sh puts this directory on the include path (after the tree's) and
 * links sysctl_helpers.c only when the tree has no sysctl_helpers.h.
 */
#ifndef BPFWIRE_COMPAT_SYSCTL_HELPERS_H
#define BPFWIRE_COMPAT_SYSCTL_HELPERS_H

/*
 * The tree's contract (7.x's sysctl_helpers.c): write new_val to the file
 * sysctl_path (/proc/sys/..., as given); when old_val is not NULL, first
 * read the current value into it (up to 128 bytes, no newline). 0 or
 * -errno.
 */
int sysctl_set(const char *sysctl_path, char *old_val, const char *new_val);
/* The same, failing the running test (and saying which) when it fails. */
int sysctl_set_or_fail(const char *sysctl_path, char *old_val, const char *new_val);
#endif
