/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel a reviewed series is for (build.sh --fit in the sandbox, each
 * kernel kernel/source-versions lists, newest first), and the meson setup
 * of the review's build and of its baseline's.
 */
#ifndef REVIEW_FIT_H
#define REVIEW_FIT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* The meson options of a review build (kernel/meson.build's kinputs), argv NULL-ended. */
struct review_setup {
	char d_patches[PATH_MAX + 32], d_source[PATH_MAX + 32], d_config[4200], d_netpoll[128];
	char d_name[128], d_version[64];
	char *argv[16];
};

/*
 * --source's version (the newest known one not newer than it), --kernel,
 * or the newest known kernel that takes the series: 0 with the X.Y in
 * ver, REVIEW_NOBUILD with every kernel tried and why it did not fit
 * (said), REVIEW_STOPPED after a signal, or a usage error's status.
 */
int pick_kernel(const struct opts *o, const char *series, const char *source, char *ver, size_t len);
/* meson setup (or configure, when bdir is set up) of a review of series named name. */
void review_setup(struct review_setup *rs, const char *bdir, const char *series, const char *name,
		  const char *source, const char *cfg, const char *netpoll, const char *version);
/* bs[4..]: a baseline's options on version (6.12's flavours by API, else the one X.Y ships). */
void base_setup(const char *version, bool seed, char *bs[], char *opt, size_t optlen);

#endif
