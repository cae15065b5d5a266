// SPDX-License-Identifier: GPL-2.0-only
/* `bpfwire-lab compare RUN_A RUN_B`: the command over compare.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmdline.h"
#include "compare_cmd.h"
#include "errnames.h"
#include "report/compare.h"
#include "report/compare_html.h"
#include "report/compare_md.h"
#include "report/compare_text.h"

static const char usage_compare[] =
"usage: bpfwire-lab compare [OPTIONS] RUN_A RUN_B\n"
"Two runs side by side, from their summary.json: each step and check\n"
"(matched by line, op and what) with both verdicts, then the counts (the\n"
"run's verdict, splats, kernel release and series; per report: receiver\n"
"valid, invalid, received, lost, duplicates, reordered, overall and per\n"
"sender; each sender's counters). Marks: * changed, < only in A, > only\n"
"in B, ~ same verdict but other output. Guest text is escaped.\n"
"  --outputs        also the output of steps whose output alone differs\n"
"  --html OUT       also write the comparison as a page, OUT (libxml2; no script)\n"
"  --markdown       a Markdown table instead (what differs, and every check)\n"
"  --all            with --markdown: every step and count, equal or not\n"
"Exit status: 0 no step, check or run verdict changed (counts may differ);\n"
"1 one did; 2 bad usage, a run or its summary.json missing or malformed.\n";

struct compare_opts {
	bool outputs, markdown, all;
	const char *html;
};

static int compare_opt(int c, const char *arg, void *p)
{
	struct compare_opts *o = p;

	switch (c) {
	case 'H': o->html = arg; return 0;
	case 'O': o->outputs = true; return 0;
	case 'M': o->markdown = true; return 0;
	case 'a': o->all = true; return 0;
	}
	return -1;
}

int compare_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "outputs", no_argument, NULL, 'O' },
		{ "markdown", no_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'a' },
		{ "html", required_argument, NULL, 'H' },
		{ 0 }
	};
	struct compare_opts o = { 0 };
	struct cmp_result r;
	char err[4096 + 256];
	int status;

	COMMON(argc, argv, usage_compare, "", opts, compare_opt, &o);
	if (argc != 2)
		return bad_args(argc, argv, "RUN_A RUN_B");
	if (o.all && !o.markdown) {
		fprintf(stderr, "%s: --all goes with --markdown\n", cmd_prog);
		return CLI_EUSAGE;
	}
	if (opt_dry_run)	/* the arguments only: the runs may not be there yet */
		return dry_run_say("compare %s with %s%s%s", argv[0], argv[1], o.html ? ", a page to " : "",
			       o.html ? o.html : "");
	if (cmp_load(argv[0], argv[1], &r, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd_prog, err);
		return CLI_EUSAGE;
	}
	if (o.html) {
		int ret = cmp_write_html(&r, o.html);

		if (ret) {
			fprintf(stderr, "%s: --html %s: %s\n", cmd_prog, o.html, errno_str(-ret));
			cmp_free(&r);
			return CLI_EUSAGE;
		}
	}
	if (o.markdown)
		cmp_write_markdown(stdout, &r, o.all);
	else
		cmp_write_text(stdout, &r, o.outputs);
	status = cmp_exit_status(&r);
	cmp_free(&r);
	return status;
}
