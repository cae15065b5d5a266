// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel a reviewed series is for, and the meson setup of the
 * review's build and of its baseline: see fit.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "fit.h"
#include "kernels.h"
#include "log.h"
#include "proc.h"
#include "review-config.h"

/*
 * -Dkernel_name: the release's -bpfwire-NAME, lower-case letters, digits
 * and '-'; up and seed are the shipped flavours'.
 */
static void release_name(const char *name, char *out, size_t len)
{
	char k[80];
	size_t i;

	for (i = 0; name[i] && i < sizeof(k) - 1; i++)
		k[i] = (name[i] >= 'A' && name[i] <= 'Z') ? name[i] - 'A' + 'a' :
		       ((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')) ? name[i] : '-';
	k[i] = '\0';
	snprintf(out, len, "-Dkernel_name=%s%s", k[0] == '-' || !strcmp(k, "up") || !strcmp(k, "seed") ?
		 "review-" : "", k);
}

#define FIT_KEEP 16384

/*
 * 0. The kernel: --source's version (the newest known one not newer than
 * it), --kernel, or the newest known kernel that takes the series, each
 * tried by build.sh --fit in the sandbox. 0 with the X.Y in ver, or
 * REVIEW_NOBUILD with every kernel tried and why it did not fit.
 */
int pick_kernel(const struct opts *o, const char *series, const char *source,
		       char *ver, size_t len)
{
	char vers[KERNELS_MAX][KERNELS_VLEN], tmp[PATH_MAX], tried[KERNELS_MAX][768];
	char xy[KERNELS_VLEN];
	char tarball[64], *keep;
	const char *root = o->build_root ? o->build_root : BPFWIRE_SOURCE_ROOT;
	int n, ntried = 0, r = REVIEW_NOBUILD;

	n = kernels_known(BPFWIRE_SOURCE_ROOT "/kernel/source-versions", vers, KERNELS_MAX);
	if (n <= 0) {
		pr_warn("%s/kernel/source-versions lists no kernel", BPFWIRE_SOURCE_ROOT);
		return REVIEW_NOBUILD;
	}
	if (o->kernel) {
		int i;

		for (i = 0; i < n && strcmp(vers[i], o->kernel); i++)
			;
		if (i == n)
			return cli_bad_value(PROG, "--kernel", o->kernel,
					     "a kernel that kernel/source-versions lists (X.Y)");
	}
	snprintf(tmp, sizeof(tmp), "%s/.review-fit-XXXXXX", root);
	keep = malloc(FIT_KEEP);
	if (!keep || !mkdtemp(tmp)) {
		pr_warn("%s: %s", tmp, errno_str(errno));
		free(keep);
		return REVIEW_NOBUILD;
	}
	char *fit[16] = { "bash", BPFWIRE_SOURCE_ROOT "/kernel/build.sh", "--fit", "--sandbox",
			  "--out", tmp, "--user-patches", (char *)series };

	if (source[0]) {
		const char *v;

		fit[8] = "--source";
		fit[9] = (char *)source;
		fit[10] = NULL;
		pr_info("kernel: reading the version of %s", source);
		int st = proc_run_keep(fit, NULL, 10, keep, FIT_KEEP);

		if (st && proc_stopped()) {
			r = REVIEW_STOPPED;
		} else if (st || kernels_linux_xy(keep, xy, sizeof(xy))) {
			pr_warn("kernel: %s: no version read (see above)", source);
		} else if (!(v = kernels_at_most(vers, n, xy))) {
			pr_warn("kernel: %s is Linux %s, older than every kernel bpfwire knows (%s is the oldest)",
				source, xy, vers[n - 1]);
		} else {
			if (strcmp(v, xy))
				pr_info("kernel: Linux %s is not a kernel bpfwire knows: built with %s's configs and netpoll series",
					xy, v);
			snprintf(ver, len, "%s", v);
			r = 0;
		}
		goto out;
	}
	for (int i = 0; i < n; i++) {
		if (o->kernel && strcmp(vers[i], o->kernel))
			continue;
		if (snprintf(tarball, sizeof(tarball), "/usr/src/linux-source-%s.tar.xz", vers[i]) >=
		    (int)sizeof(tarball))
			continue;	/* no version of kernels_known() is that long */
		if (!file_exists(tarball)) {
			snprintf(tried[ntried++], sizeof(tried[0]), "%s: not installed (%s linux-source-%s)", vers[i],
				 !strcmp(vers[i], "6.12") ? "apt-get install" : "tools/install-sources", vers[i]);
			pr_info("kernel: %s", tried[ntried - 1]);
			continue;
		}
		fit[8] = "--kernel-version";
		fit[9] = vers[i];
		fit[10] = NULL;
		pr_info("kernel: trying Linux %s", vers[i]);
		if (!proc_run_keep(fit, NULL, 10, keep, FIT_KEEP)) {
			snprintf(ver, len, "%s", vers[i]);
			r = 0;
			break;
		}
		if (proc_stopped()) {
			r = REVIEW_STOPPED;
			goto out;
		}
		char why[640];

		kernels_failure(keep, why, sizeof(why));
		if (snprintf(tried[ntried], sizeof(tried[0]), "%s: %s", vers[i],
			     why[0] ? why : "build.sh --fit failed (see above)") >= (int)sizeof(tried[0]))
			pr_debug("kernel: Linux %s's reason was cut", vers[i]);
		ntried++;
	}
	if (r) {
		fprintf(stderr, PROG ": no kernel bpfwire knows takes the series; tried:\n");
		for (int i = 0; i < ntried; i++) {
			fputs("  ", stderr);
			esc_fwrite(stderr, tried[i], strlen(tried[i]), 0);
			fputc('\n', stderr);
		}
	} else {
		pr_info("kernel: Linux %s takes the series%s", ver, ntried ? " (newer kernels tried first did not)" : "");
	}
out:
	{
		char *rm[] = { "rm", "-rf", "--", tmp, NULL };

		proc_capture(rm, keep, FIT_KEEP);
	}
	free(keep);
	return r;
}

/* The meson options of a baseline on version: 6.12's flavours by API, else the one X.Y ships. */
void base_setup(const char *version, bool seed, char *bs[], char *opt, size_t optlen)
{
	char p[PATH_MAX];
	int a = 4;

	if (strcmp(version, "6.12")) {
		snprintf(opt, optlen, "-Dkernel_version=%s", version);
		bs[a++] = opt;
		snprintf(p, sizeof(p), "%s/kernel/patches/%s/series", BPFWIRE_SOURCE_ROOT, version);
		seed = file_exists(p);
	}
	if (!seed)
		bs[a++] = "-Dkernel_series=upstream";
	bs[a] = NULL;
}

/* The meson options of a review build (kernel/meson.build's kinputs). */

void review_setup(struct review_setup *rs, const char *bdir, const char *series, const char *name,
			 const char *source, const char *cfg, const char *netpoll, const char *version)
{
	char p[PATH_MAX + 16];
	int a = 7;

	snprintf(rs->d_patches, sizeof(rs->d_patches), "-Dkernel_patches=%s", series);
	snprintf(rs->d_version, sizeof(rs->d_version), "-Dkernel_version=%s", version);
	snprintf(rs->d_source, sizeof(rs->d_source), "-Dkernel_source=%s", source);
	snprintf(rs->d_config, sizeof(rs->d_config), "-Dkernel_config=%s", cfg);
	snprintf(rs->d_netpoll, sizeof(rs->d_netpoll), "-Dkernel_netpoll=%s", netpoll ? netpoll : "");
	release_name(name, rs->d_name, sizeof(rs->d_name));
	rs->argv[0] = "meson";
	rs->argv[1] = "setup";
	rs->argv[2] = (char *)bdir;
	rs->argv[3] = BPFWIRE_SOURCE_ROOT;
	rs->argv[4] = rs->d_patches;
	rs->argv[5] = rs->d_name;
	rs->argv[6] = rs->d_version;
	if (source[0])
		rs->argv[a++] = rs->d_source;
	rs->argv[a++] = rs->d_config;	/* also clears a fragment of an earlier review of NAME */
	if (netpoll)
		rs->argv[a++] = rs->d_netpoll;
	rs->argv[a] = NULL;
	snprintf(p, sizeof(p), "%s/build.ninja", bdir);
	if (file_exists(p)) {
		/* "meson configure DIR -D...": an existing review is rebuilt incrementally */
		rs->argv[1] = "configure";
		memmove(&rs->argv[3], &rs->argv[4], (a - 3) * sizeof(*rs->argv));
	}
}
