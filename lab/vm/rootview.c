// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guests' root file system: not the host's /, but a read-only view of
 * what guests need, built in QEMU's own mount namespace, so that nothing of
 * it shows on the host and it goes away with QEMU. A tmpfs holds the system
 * trees (/usr, /etc, /bin, /sbin, /lib*: bind mounts or the same links), the
 * kept trees (source, build, results) at their own paths, and empty mount
 * points for what guest-init mounts itself (/proc, /sys, /dev, /run, /tmp).
 * In /etc, whatever a host user other than root could not read (shadow,
 * gshadow, private keys) is covered by an empty file or directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdbool.h>

#include "errnames.h"
#include "file.h"
#include "log.h"
#include "rootview.h"

#define MASK_FILE ".bpfwire-mask"

static const char *const system_trees[] = { "usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32" };
/* mount points for guest-init; var/run and var/lock as the host has them */
static const char *const empty_dirs[] = { "proc", "sys", "dev", "run", "tmp", "var", "var/tmp" };
static const char *const var_links[] = { "var/run", "var/lock" };

static char mask_file[PATH_MAX];	/* for nftw's callback */

/* /NAME into ROOT/NAME: the same symlink, or a bind mount of the directory. */
static int add_host_entry(const char *root, const char *name, bool dir_ok)
{
	char host[PATH_MAX], view[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(host, sizeof(host), "/%s", name);
	snprintf(view, sizeof(view), "%s/%s", root, name);
	if (lstat(host, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(host, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		return symlink(target, view) ? -errno : 0;
	}
	if (!S_ISDIR(st.st_mode) || !dir_ok)
		return 0;
	if (mkdir(view, 0755) && errno != EEXIST)
		return -errno;
	return mount(host, view, NULL, MS_BIND | MS_REC, NULL) ? -errno : 0;
}

/* True when PATH is TREE or lies under it. */
static bool path_under(const char *path, const char *tree)
{
	size_t n = strlen(tree);

	return !strncmp(path, tree, n) && (path[n] == '/' || !path[n]);
}

/* A kept tree at its own path, unless the view already shows it. */
static int add_kept_tree(const char *root, const char *const keep[], int i)
{
	const char *path = keep[i];
	char view[PATH_MAX];
	struct stat st;
	int ret;

	if (path[0] != '/' || !path[1])
		return -EINVAL;
	if (stat(path, &st))	/* e.g. an installed lab whose build dir is gone */
		return errno == ENOENT ? 0 : -errno;
	for (int j = 0; j < i; j++)
		if (keep[j] && path_under(path, keep[j]))
			return 0;
	for (size_t j = 0; j < ARRAY_SIZE(system_trees); j++) {
		char top[64];

		snprintf(top, sizeof(top), "/%s", system_trees[j]);
		if (path_under(path, top))
			return 0;
	}
	if (snprintf(view, sizeof(view), "%s%s", root, path) >= (int)sizeof(view))
		return -ENAMETOOLONG;
	ret = mkdir_p(view, 0755);
	if (ret)
		return ret;
	return mount(path, view, NULL, MS_BIND | MS_REC, NULL) ? -errno : 0;
}

/* Covers what only root may read: an empty file, or an empty read-only tmpfs. */
static int mask_secret(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (ftw->level == 0 || type == FTW_SL || S_ISLNK(st->st_mode))
		return FTW_CONTINUE;
	if (type == FTW_D || type == FTW_DNR) {
		if ((st->st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH))
			return FTW_CONTINUE;
		if (mount("bpfwire-mask", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "mode=0755,size=4k"))
			return FTW_STOP;
		return FTW_SKIP_SUBTREE;
	}
	if (st->st_mode & S_IROTH)
		return FTW_CONTINUE;
	return mount(mask_file, path, NULL, MS_BIND, NULL) ? FTW_STOP : FTW_CONTINUE;
}

static int mask_etc(const char *root)
{
	char etc[PATH_MAX];
	int fd, ret;

	snprintf(mask_file, sizeof(mask_file), "%s/" MASK_FILE, root);
	fd = open(mask_file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	close(fd);
	snprintf(etc, sizeof(etc), "%s/etc", root);
	ret = nftw(etc, mask_secret, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	ret = ret == FTW_STOP || ret < 0 ? -(errno ? errno : EIO) : 0;
	unlink(mask_file);	/* the masks keep its inode */
	return ret;
}

/* The whole view read-only, nosuid, nodev (QEMU's readonly=on is the first guard). */
static int seal(const char *root)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };

	if (!mount_setattr(AT_FDCWD, root, AT_RECURSIVE, &attr, sizeof(attr)))
		return 0;
	if (errno != ENOSYS)
		return -errno;
	/* older kernels: at least the tmpfs itself */
	return mount(NULL, root, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) ? -errno : 0;
}

static int build_view(const struct rootview *v, const char **what)
{
	const char *root = v->dir;
	char path[PATH_MAX];
	int ret;

	*what = "system trees";
	for (size_t i = 0; i < ARRAY_SIZE(system_trees); i++)
		if ((ret = add_host_entry(root, system_trees[i], true)))
			return ret;
	*what = "mount points";
	for (size_t i = 0; i < ARRAY_SIZE(empty_dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, empty_dirs[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
	}
	for (size_t i = 0; i < ARRAY_SIZE(var_links); i++)
		if ((ret = add_host_entry(root, var_links[i], false)))
			return ret;
	*what = "kept trees";
	for (int i = 0; i < ROOTVIEW_KEEP_MAX && v->keep[i]; i++)
		if ((ret = add_kept_tree(root, v->keep, i)))
			return ret;
	*what = "masks in /etc";
	if ((ret = mask_etc(root)))
		return ret;
	*what = "read-only seal";
	return seal(root);
}

int rootview_enter(void *arg)
{
	const struct rootview *v = arg;
	const char *what = "private mount namespace";
	int ret = 0;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ret = -errno;
	if (!ret) {
		what = "tmpfs";
		if (mount("bpfwire-root", v->dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m"))
			ret = -errno;
	}
	if (!ret)
		ret = build_view(v, &what);
	if (ret)
		pr_warn("guest root view in %s: %s: %s", v->dir, what, errno_str(ret));
	return ret;
}

static const char usage_confine[] =
"usage: bpfwire-lab confine DIR [--keep PATH]... -- CMD [ARGS]...\n"
"Runs CMD (a QEMU that shares DIR as a guest's root) in a private mount\n"
"namespace where the empty directory DIR holds the guests' read-only view:\n"
"the system trees with /etc's secrets masked, and each kept PATH (at most\n"
"%d). For guests the lab does not boot itself, e.g. bpf/tests.\n";

int rootview_cmd(int argc, char **argv)
{
	struct rootview v = { 0 };
	int i = 1, nkeep = 0, ret;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf(usage_confine, ROOTVIEW_KEEP_MAX);
		return 0;
	}
	if (i < argc && strcmp(argv[i], "--"))
		v.dir = argv[i++];
	for (; i + 1 < argc && !strcmp(argv[i], "--keep"); i += 2) {
		if (nkeep == ROOTVIEW_KEEP_MAX || argv[i + 1][0] != '/') {
			pr_warn("confine: --keep takes at most %d absolute paths", ROOTVIEW_KEEP_MAX);
			return 2;
		}
		v.keep[nkeep++] = argv[i + 1];
	}
	if (!v.dir || i + 1 >= argc || strcmp(argv[i], "--")) {
		fprintf(stderr, usage_confine, ROOTVIEW_KEEP_MAX);
		return 2;
	}
	ret = rootview_enter(&v);
	if (ret)
		return 1;
	/* exec in place, not spawn: CMD stays in this process's new mount namespace */
	execvp(argv[i + 1], argv + i + 1);
	pr_warn("confine: can't run %s: %s", argv[i + 1], errno_str(errno));
	return 127;
}
