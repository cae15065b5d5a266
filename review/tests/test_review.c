// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare: the review's parts on crafted meson test logs
 * (base/same/worse/api-skip/forged.testlog.json), mboxes and files, a file
 * for each part (test_verdict.c, test_output.c, test_reply.c, test_flaky.c,
 * test_checkpatch.c, test_rangediff.c, test_perpatch.c); here main() and
 * the helpers they share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_review.h"

const char *crafted_dir;

bool load(const char *name, struct tl_log *log)
{
	char path[4096], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", crafted_dir, name);
	return ASSERT_OK(tl_load(path, log, err, sizeof(err)), name);
}

const struct vd_item *find(const struct vd_report *rep, const char *test, const char *what)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->items[i].test, test) && !strcmp(rep->items[i].what, what))
			return &rep->items[i];
	return NULL;
}

/* Lines of text that start with prefix. */
int lines_starting(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_review TESTS_DIR\n");
		return 2;
	}
	crafted_dir = argv[1];
	test_tap();
	test_log();
	test_worse();
	test_same_and_skip();
	test_counts_and_series();
	test_page();
	test_forged_text();
	test_child_output();
	test_selftests();
	test_kernels();
	test_reply();
	test_flaky();
	test_static();
	test_range();
	test_perpatch();
	return tap_done();
}
