// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest's share has a size, host side, no guest: share_mount() puts a
 * 4 MiB tmpfs on a share dir; a writer with QEMU's uid (as QEMU writes for
 * its guest) writes a file without end and then empty files without end:
 * each stops with ENOSPC, and the free space of the file system that holds
 * the results (a 32 MiB tmpfs of the test's) drops by no more than the
 * share's size. share_unmount() then
 * leaves the files on disk, QEMU's uid's, and no mount. Needs root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "tap.h"
#include "vm/model.h"
#include "vm/qemu.h"
#include "vm/share.h"

#define SHARE_BYTES (4ull << 20)

static char tmp[] = "/var/tmp/test-share-XXXXXX";

static long long free_bytes(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) ? -1 : (long long)sv.f_bavail * (long long)sv.f_frsize;
}

/*
 * As QEMU's uid: one file written past the size, then empty files until no
 * more fit. Exit status: bit 0 the write ended in ENOSPC, bit 1 the
 * creates ended in ENOSPC; what it wrote goes to *report.
 */
static int fill_as_qemu(const char *share, char *report, size_t len)
{
	int pipefd[2], st;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		static char buf[65536];
		char path[PATH_MAX + 32], msg[256];
		long long total = 0;
		int e1 = 0, e2 = 0, fd, files = 0;

		close(pipefd[0]);
		if (setresgid(LAB_QEMU_UID, LAB_QEMU_UID, LAB_QEMU_UID) ||
		    setresuid(LAB_QEMU_UID, LAB_QEMU_UID, LAB_QEMU_UID))
			_exit(100);
		memset(buf, 'x', sizeof(buf));
		snprintf(path, sizeof(path), "%s/big", share);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		while (fd >= 0 && total < (long long)(4 * SHARE_BYTES)) {
			ssize_t n = write(fd, buf, sizeof(buf));

			if (n < 0) {
				e1 = errno;
				break;
			}
			total += n;
		}
		if (fd >= 0)
			close(fd);
		for (files = 0; files < 1000000; files++) {
			snprintf(path, sizeof(path), "%s/f%d", share, files);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0) {
				e2 = errno;
				break;
			}
			close(fd);
		}
		snprintf(msg, sizeof(msg), "wrote %lld bytes, then: %s; made %d empty files, then: %s",
			 total, strerror(e1), files, strerror(e2));
		if (write(pipefd[1], msg, strlen(msg)) < 0)
			_exit(101);
		_exit((e1 == ENOSPC) | (e2 == ENOSPC) << 1);
	}
	close(pipefd[1]);
	memset(report, 0, len);
	if (read(pipefd[0], report, len - 1) < 0)
		report[0] = '\0';
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	char share[PATH_MAX], path[PATH_MAX + 32], report[256];
	long long before, during, after;
	struct stat st, up;
	int r;

	if (geteuid())
		return tap_skip_all("needs root (mount, and QEMU's uid)");
	if (!mkdtemp(tmp))
		return tap_skip_all("no temp dir in /var/tmp");
	/* the results' file system: one of the test's own, so no other writer moves its free space */
	if (mount("bpfwire-test-results", tmp, "tmpfs", MS_NOSUID | MS_NODEV, "size=32m,mode=0755")) {
		rmdir(tmp);
		return tap_skip_all("no tmpfs for the results");
	}
	snprintf(share, sizeof(share), "%s/hosts/lone", tmp);
	mkdir_p(share, 0755);
	chmod(tmp, 0755);
	qemu_own_share(share);	/* as up lays it out */
	before = free_bytes(tmp);

	tap_case_begin("a 4 MiB share is a tmpfs mounted on the share dir");
	r = share_mount(share, SHARE_BYTES);
	if (r == -EOPNOTSUPP)
		tap_case_todo("this kernel's tmpfs has no user xattrs (Linux 6.6)");
	ASSERT_OK(r, "share_mount");
	ASSERT_TRUE(!stat(share, &st) && !stat(tmp, &up) && st.st_dev != up.st_dev, "a mount of its own");
	ASSERT_EQ(st.st_uid, LAB_QEMU_UID, "owned by QEMU's uid");
	tap_case_end();

	tap_case_begin("QEMU's uid writes past the size: ENOSPC, the disk keeps its space");
	printf("# writing 16 MiB into %s and then empty files, as uid %u\n", share, LAB_QEMU_UID);
	r = fill_as_qemu(share, report, sizeof(report));
	printf("# %s\n", report);
	ASSERT_TRUE(r >= 0 && (r & 1), "the write ended with ENOSPC");
	ASSERT_TRUE(r >= 0 && (r & 2), "the creates ended with ENOSPC");
	during = free_bytes(tmp);
	printf("# free on %s: %lld before, %lld with the share full\n", tmp, before, during);
	ASSERT_GE(during, before - (long long)SHARE_BYTES, "free space dropped by at most the share's size");
	tap_case_end();

	tap_case_begin("share_unmount keeps the files on disk and drops the mount");
	ASSERT_OK(share_unmount(share), "share_unmount");
	ASSERT_TRUE(!stat(share, &st) && !stat(tmp, &up) && st.st_dev == up.st_dev, "no mount left");
	snprintf(path, sizeof(path), "%s/big", share);
	ASSERT_OK(lstat(path, &st), "big is on disk");
	ASSERT_TRUE(S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= (off_t)SHARE_BYTES, "a file within the size");
	ASSERT_EQ(st.st_uid, LAB_QEMU_UID, "QEMU's uid's");
	snprintf(path, sizeof(path), "%s/f0", share);
	ASSERT_OK(lstat(path, &st), "the empty files too");
	after = free_bytes(tmp);
	printf("# free on %s after the copy: %lld\n", tmp, after);
	ASSERT_GE(after, before - (long long)SHARE_BYTES - (1ll << 20),
		  "the copy took at most the share's size (and 1 MiB of dirs)");
	ASSERT_OK(share_unmount(share), "again: nothing to do");
	tap_case_end();

	/* a mount left by a failed case must not outlive the test */
	umount2(share, MNT_DETACH);
	umount2(tmp, MNT_DETACH);
	rmdir(tmp);
	return tap_done();
}
