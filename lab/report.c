// SPDX-License-Identifier: GPL-2.0-only
/* Every page of one run, then its results dir's index (issue 31). */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "file.h"
#include "log.h"
#include "page.h"
#include "topo_svg.h"

int report_run(const char *dir)
{
	char path[4200], topo[4200], parent[4200], err[1024];
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
	if (page_index_write(dirname(parent), err, sizeof(err))) {
		pr_warn("report: %s", err);
		failed++;
	}
	return failed;
}
