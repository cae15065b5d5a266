// SPDX-License-Identifier: GPL-2.0-only
/* The base layer: errno names, the splat scan, file helpers, the logger. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "file.h"
#include "log.h"
#include "splat.h"
#include "tap.h"

static void test_errnames(void)
{
	ASSERT_STREQ(errno_name(EPERM), "EPERM", "EPERM by name");
	ASSERT_STREQ(errno_name(-ENOSPC), "ENOSPC", "negative errno by name");
	ASSERT_STREQ(errno_name(524), "ENOTSUPP", "kernel-only ENOTSUPP");
	ASSERT_STREQ(errno_name(4000), "E4000", "unknown code");
	ASSERT_STREQ(errno_str(-EBUSY), "Device or resource busy (EBUSY, -16)",
		     "errno_str form");
	ASSERT_STREQ(tap_errname(-EAGAIN), " (-EAGAIN)", "harness names errnos");
	ASSERT_STREQ(tap_errname(5), "", "harness leaves positives alone");
}

static void test_splat(void)
{
	static const char clean[] = "Linux version 6.12\nbpfwire: ready\n";
	static const char nul[] = "\0\0\0\0boot\n[  1.0] WARNING: CPU: 0 at x\nmore\n";
	char *q = NULL;
	size_t qlen = 0;
	FILE *f = open_memstream(&q, &qlen);
	int n;

	ASSERT_EQ(splat_scan(clean, sizeof(clean) - 1, NULL, NULL), 0, "clean console");
	n = splat_scan(nul, sizeof(nul) - 1, f, "sender");
	fclose(f);
	ASSERT_EQ(n, 1, "splat after leading NULs is found");
	ASSERT_HAS(q, "WARNING: CPU: 0", "splat quoted");
	ASSERT_HAS(q, "sender: splat", "quote labelled");
	free(q);
	for (size_t i = 0; i < splat_npatterns; i++)
		if (!splat_match(splat_patterns[i], strlen(splat_patterns[i])))
			ASSERT_TRUE(0, splat_patterns[i]);
	ASSERT_GE(splat_npatterns, 13, "the list holds the required patterns");
	ASSERT_TRUE(splat_match("refcount_t: underflow", 21), "refcount_t");
	ASSERT_TRUE(splat_match("INFO: hung_task", 15), "hung_task");
	/* the detectors' own lines, as 6.12 prints them (debug.config) */
	static const char *const detectors[] = {
		"[   12.345678] INFO: task dstate-waiter:97 blocked for more than 1 seconds.",
		"[   60.123456] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [swapper/1:0]",
		"[   60.123456] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1",
		/* printk's own line when the console fell behind (a guest's printk_delay, a flood) */
		"[   61.000001] ** 12 printk messages dropped **",
	};
	for (size_t i = 0; i < sizeof(detectors) / sizeof(detectors[0]); i++)
		ASSERT_TRUE(splat_match(detectors[i], strlen(detectors[i])), detectors[i]);
}

static void test_files(void)
{
	char dir[] = "/tmp/bpfwire-common-XXXXXX", path[256], link[256], sub[256];
	size_t len = 0;
	char *text;

	if (!ASSERT_TRUE(mkdtemp(dir) != NULL, "temp dir"))
		return;
	snprintf(sub, sizeof(sub), "%s/a/b/c", dir);
	ASSERT_OK(mkdir_p(sub, 0755), "mkdir_p makes parents");
	ASSERT_OK(mkdir_p(sub, 0755), "mkdir_p on an existing dir");
	snprintf(path, sizeof(path), "%s/f", dir);
	ASSERT_OK(write_file(path, "hello"), "write_file");
	text = read_file(path, &len);
	ASSERT_STREQ(text, "hello", "read_file reads it back");
	ASSERT_EQ(len, 5, "read_file length");
	free(text);
	ASSERT_EQ(write_file_new(path, "x"), -EEXIST, "write_file_new refuses an existing file");
	snprintf(link, sizeof(link), "%s/l", dir);
	ASSERT_OK(symlink(path, link), "symlink made");
	ASSERT_EQ(write_file(link, "through"), -ELOOP, "write_file never follows a symlink");
	errno = 0;
	ASSERT_TRUE(read_file(link, NULL) == NULL && errno == ELOOP,
		    "read_file never follows a symlink");
	text = read_user_file(link, NULL);
	ASSERT_STREQ(text, "hello", "read_user_file follows a user's symlink");
	free(text);
	text = read_file_max(path, &len, 5);
	ASSERT_STREQ(text, "hello", "read_file_max reads a file of max bytes");
	free(text);
	errno = 0;
	ASSERT_TRUE(read_file_max(path, &len, 4) == NULL && errno == EFBIG,
		    "read_file_max refuses a byte more with EFBIG");
	{
		/* A FIFO planted where data is read: refused at once, never a hang. */
		char fifo[PATH_MAX];

		snprintf(fifo, sizeof(fifo), "%s.fifo", path);
		ASSERT_EQ(mkfifo(fifo, 0600), 0, "mkfifo");
		alarm(10);
		ASSERT_TRUE(read_file_max(fifo, &len, 4) == NULL && errno == EINVAL,
			    "read_file_max refuses a FIFO with EINVAL, without blocking");
		alarm(0);
		unlink(fifo);
	}
	ASSERT_OK(write_file_atomic(path, "new"), "write_file_atomic");
	text = read_file(path, NULL);
	ASSERT_STREQ(text, "new", "atomic write read back");
	free(text);
	unlink(link);
	unlink(path);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	rmdir(sub);
	ASSERT_OK(rmdir(dir), "temp dir removed");
}

static void test_log(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *saved = stderr;

	stderr = open_memstream(&out, &len);
	log_init("test", LOG_INFO);
	pr_warn("one %d", 1);
	pr_info("two\n");
	pr_debug("hidden");
	fclose(stderr);
	stderr = saved;
	ASSERT_STREQ(out, "test: one 1\ntest: two\n", "one newline per message, debug hidden");
	free(out);
}

int main(void)
{
	test_errnames();
	test_splat();
	test_files();
	test_log();
	return tap_done();
}
