// SPDX-License-Identifier: GPL-2.0-only
/* Every page of one run, then its results dir's index. */
#define _GNU_SOURCE
#include <dirent.h>
#include <libgen.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "log.h"
#include "page.h"
#include "page_index.h"
#include "pages.h"
#include "summary_md.h"
#include "topo_svg.h"

int report_run(const char *dir)
{
	char path[4200], topo[4200], parent[4200], err[1024], *pd;
	struct stat st;
	bool svg = false;
	int failed = 0;

	snprintf(topo, sizeof(topo), "%s/topology.topo", dir);
	snprintf(path, sizeof(path), "%s/topology.svg", dir);
	if (file_exists(topo)) {
		if (topo_svg_write(topo, path, err, sizeof(err)))
			pr_warn("report: topology picture: %s", err);
		else
			svg = true;
	}
	if (page_run_write(dir, svg, err, sizeof(err))) {
		pr_warn("report: %s", err);
		failed++;
	}
	if (summary_md_write(dir, err, sizeof(err))) {
		pr_warn("report: %s", err);
		failed++;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	while (strlen(parent) > 1 && parent[strlen(parent) - 1] == '/')
		parent[strlen(parent) - 1] = '\0';
	/*
	 * A results dir is ours and nobody else's (runner.c makes ./results so);
	 * `--results /tmp/x` puts a run in a dir of everyone's: no index there.
	 */
	pd = dirname(parent);
	if (stat(pd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		pr_debug("report: no index in %s, a dir others can write or we do not own", pd);
		return failed;
	}
	if (page_index_write(pd, err, sizeof(err))) {
		pr_warn("report: %s", err);
		failed++;
	}
	return failed;
}

int report_latest(const char *results, const char *scenario, char *out, size_t len)
{
	struct dirent **de;
	size_t sl = strlen(scenario);
	int n = scandir(results, &de, NULL, alphasort), found = -1;

	/* NAME-YYYYmmdd-HHMMSS[-N]: the stamps sort as they were taken */
	for (int i = 0; i < n; i++) {
		const char *d = de[i]->d_name;
		char sum[4200];

		snprintf(sum, sizeof(sum), "%s/%s/summary.json", results, d);
		if (!strncmp(d, scenario, sl) && d[sl] == '-' && d[sl + 1] >= '0' && d[sl + 1] <= '9' &&
		    file_exists(sum) && snprintf(out, len, "%s/%s", results, d) < (int)len)
			found = 0;
		free(de[i]);
	}
	if (n >= 0)
		free(de);
	return found;
}
