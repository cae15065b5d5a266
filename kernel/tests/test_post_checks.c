// SPDX-License-Identifier: GPL-2.0-only
/* The post-checks, after every other test: the init netns' quota counter
 * is back where it started, and the kernel log holds no splat. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "kt.h"
#include "splat.h"

KT_TEST(90, test_post_quota)
{
	if (!kt_needs(KT_NEED_SEED, "post: init netns quota counter back to its start"))
		return;
	if (!tap_case_begin("post: init netns quota counter back to its start"))
		return;
	if (ASSERT_GE(quota_start_count, 0, "counter readable at start"))
		quota_settles(quota_start_count, "init netns quota counter");
	tap_case_end();
}

/* The splat lines and what follows each, as TAP comments. */
static int scan_klog(const char *log, size_t len)
{
	char *quote = NULL, *line, *save;
	size_t qlen = 0;
	FILE *f = open_memstream(&quote, &qlen);
	int found = splat_scan(log, len, f, "kernel log");

	if (f)
		fclose(f);
	for (line = quote ? strtok_r(quote, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", line);
	free(quote);
	return found;
}

KT_TEST(91, test_post_kernel_log)
{
	static char buf[1 << 21];
	int n;

	if (!tap_case_begin("post: kernel log has no splat"))
		return;
	n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (ASSERT_GE(n, 1, "read the kernel log"))
		ASSERT_EQ(scan_klog(buf, n), 0, "splat lines in the kernel log");
	tap_case_end();
}
