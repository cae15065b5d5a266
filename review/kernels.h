/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which kernel a series is reviewed on: the versions bpfwire knows
 * (kernel/source-versions), newest first, each tried with build.sh --fit
 * until one takes the series; and that version's baseline flavour.
 */
#ifndef BPFWIRE_REVIEW_KERNELS_H
#define BPFWIRE_REVIEW_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#define KERNELS_MAX 8
#define KERNELS_VLEN 16

/*
 * The X.Y of each linux-source-X.Y package that the file lists on a line
 * of its own (comments and blank lines skipped), once each, newest first.
 * The count, or -1 when the file cannot be read.
 */
int kernels_known(const char *versions_file, char vers[][KERNELS_VLEN], int max);
/* Version order of "X.Y[.Z...]": <0, 0, >0. */
int kernels_cmp(const char *a, const char *b);
/* "X.Y" of the last "Linux X.Y..." in text; 0, or -1 when there is none. */
int kernels_linux_xy(const char *text, char *xy, size_t len);
/* Of vers (newest first), the newest that is not newer than xy; NULL if none. */
const char *kernels_at_most(char vers[][KERNELS_VLEN], int n, const char *xy);
/*
 * What a failed fit says in one line: its "error: patch N ..." and first
 * "hunk: ..." lines (or its first error line), without their "kernel:"
 * prefix, joined by "; ".
 */
void kernels_failure(const char *text, char *out, size_t len);
/*
 * The baseline of a review on version: on 6.12 the shipped flavour of the
 * series' API (root/build for seed, root/build-up otherwise); on X.Y,
 * root/build-XY, the one flavour bpfwire ships there.
 */
void kernels_base(const char *root, const char *version, const char *api, char *dir, size_t len);

#endif
