// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest's writable share, RUN/hosts/NAME, has a size: while the run is up
 * it is a tmpfs of its own mounted there (size= and nr_inodes=), so a guest
 * that writes without end gets ENOSPC and the host's disks lose nothing.
 * At teardown, once its QEMU has ended, the tmpfs is detached and what it
 * holds is copied into the directory it covered, so the results stay on
 * disk as before; the copy is bounded by the same size.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "errnames.h"
#include "log.h"
#include "model.h"
#include "share.h"
#include "util.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* Deeper dirs than this are not copied: a chain a guest made to exhaust the stack. */
#define SHARE_COPY_DEPTH 32

/* One inode per 16 KiB of size: room for logs and reports, not for millions of empty files. */
static unsigned long long share_inodes(unsigned long long bytes)
{
	unsigned long long n = bytes / 16384;

	return n < 1024 ? 1024 : n;
}

/* True when the directory fd is the root of a tmpfs mounted there (not just on one). */
static bool is_share_mount(int fd)
{
	struct stat st, up;
	struct statfs sf;

	if (fstatfs(fd, &sf) || sf.f_type != TMPFS_MAGIC || fstat(fd, &st) ||
	    fstatat(fd, "..", &up, 0))
		return false;
	return st.st_dev != up.st_dev;
}

static int fsconfig_str(int fs, const char *key, const char *fmt, unsigned long long v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	return fsconfig(fs, FSCONFIG_SET_STRING, key, buf, 0) ? -errno : 0;
}

int share_mount(const char *dir, unsigned long long bytes)
{
	int dfd, fs = -1, mnt = -1, e = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/* a crashed run's tmpfs is still there: ours to drop, its guest is gone */
	if (is_share_mount(dfd)) {
		close(dfd);
		if (umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW))
			return -errno;
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			return -errno;
		/* what it covered is older still: down's copy must find the dir empty */
		e = dir_empty(dir);
		if (e) {
			close(dfd);
			return e;
		}
	}
	fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		e = -errno;
	if (!e)
		e = fsconfig_str(fs, "size", "%llu", bytes);
	if (!e)
		e = fsconfig_str(fs, "nr_inodes", "%llu", share_inodes(bytes));
	if (!e)
		e = fsconfig_str(fs, "mode", "%llo", 0755);
	if (!e)
		e = fsconfig_str(fs, "uid", "%llu", LAB_QEMU_UID);
	if (!e)
		e = fsconfig_str(fs, "gid", "%llu", LAB_QEMU_UID);
	if (!e && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		e = -errno;
	if (!e) {
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
		if (mnt < 0)
			e = -errno;
	}
	/* onto the dir we opened, never a path a link could redirect */
	if (!e && move_mount(mnt, "", dfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH))
		e = -errno;
	if (mnt >= 0)
		close(mnt);
	if (fs >= 0)
		close(fs);
	close(dfd);
	if (e)
		return e;
	/* QEMU's security_model=mapped-xattr keeps modes in user.* xattrs (tmpfs: Linux 6.6) */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		e = -errno;
	else if (!is_share_mount(dfd))
		e = -EIO;
	else if (fsetxattr(dfd, "user.bpfwire", "1", 1, 0) || fremovexattr(dfd, "user.bpfwire"))
		e = -errno;
	if (dfd >= 0)
		close(dfd);
	if (e)
		umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW);
	return e;
}

static int copy_file(int sdir, int ddir, const char *name, const struct stat *st)
{
	char buf[65536];
	int in, out, e = 0;
	ssize_t n;

	in = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st->st_mode & 0777);
	if (out < 0) {
		e = -errno;
		close(in);
		return e;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			e = -(errno ? errno : EIO);
			break;
		}
	if (n < 0)
		e = -errno;
	/* the guest's files stay QEMU's uid's, as when they were written to disk */
	if (fchown(out, st->st_uid, st->st_gid) && !e)
		e = -errno;
	close(out);
	close(in);
	return e;
}

/* sdir's files and dirs into ddir; anything else (none under mapped-xattr) is left out. */
static int copy_tree(int sdir, int ddir, int depth, int *skipped)
{
	int e = 0, dup_fd = dup(sdir);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int r = 0;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(sdir, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			r = -errno;
		} else if (S_ISREG(st.st_mode)) {
			r = copy_file(sdir, ddir, de->d_name, &st);
		} else if (S_ISDIR(st.st_mode) && depth < SHARE_COPY_DEPTH) {
			int s = openat(sdir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), t = -1;

			if (s >= 0 && (!mkdirat(ddir, de->d_name, 0755) || errno == EEXIST))
				t = openat(ddir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (s < 0 || t < 0)
				r = -errno;
			else if (!(r = copy_tree(s, t, depth + 1, skipped)) && fchown(t, st.st_uid, st.st_gid))
				r = -errno;
			if (s >= 0)
				close(s);
			if (t >= 0)
				close(t);
		} else {
			(*skipped)++;
		}
		if (r && !e)
			e = r;
	}
	closedir(d);
	return e;
}

int share_unmount(const char *dir)
{
	int src, dst, e, skipped = 0;

	src = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (src < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!is_share_mount(src)) {
		close(src);
		return 0;
	}
	/* detached, the tmpfs lives on through src until the copy is done */
	if (umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW)) {
		e = -errno;
		close(src);
		return e;
	}
	dst = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dst < 0) {
		e = -errno;
		close(src);
		return e;
	}
	e = copy_tree(src, dst, 0, &skipped);
	if (skipped)
		pr_warn("%s: %d entries that are neither file nor directory, or nested over %d deep, not kept",
			dir, skipped, SHARE_COPY_DEPTH);
	close(dst);
	close(src);
	return e;
}

/* A path component a share write may not name: empty, "." or "..". */
static bool bad_component(const char *name)
{
	return !*name || !strcmp(name, ".") || !strcmp(name, "..");
}

/* Opens one component below dfd, never through a link. */
static int open_component(int dfd, const char *name, int flags, mode_t mode)
{
	if (bad_component(name))
		return -EINVAL;
	dfd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	return dfd < 0 ? -errno : dfd;
}

int share_create(const char *dir, const char *file)
{
	char buf[PATH_MAX], *save = NULL, *part, *next;
	int dfd, fd;

	if (snprintf(buf, sizeof(buf), "%s", file) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	part = strtok_r(buf, "/", &save);
	while (part && (next = strtok_r(NULL, "/", &save))) {
		fd = open_component(dfd, part, O_RDONLY | O_DIRECTORY, 0);
		close(dfd);
		if (fd < 0)
			return fd;
		dfd = fd;
		part = next;
	}
	fd = -EINVAL;
	if (part && !bad_component(part)) {
		/* unlinkat removes a link itself, never its target */
		if (unlinkat(dfd, part, 0) && errno != ENOENT)
			fd = -errno;
		else
			fd = open_component(dfd, part, O_WRONLY | O_CREAT | O_EXCL, 0644);
	}
	close(dfd);
	return fd;
}

FILE *share_fopen(const char *dir, const char *file)
{
	int fd = share_create(dir, file);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}
