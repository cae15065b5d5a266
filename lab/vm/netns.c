// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"
#include "file.h"
#include "log.h"
#include "netns.h"
#include "proc.h"

bool netns_exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	return file_exists(path);
}

int netns_run(const char *name, char *const argv[], char *err, size_t errlen)
{
	char out[2048];
	int st = run_cmd(argv, name, out, sizeof(out));

	if (st) {
		char cmd[512] = "";

		for (int i = 0; argv[i]; i++)
			snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "", argv[i]);
		if (st < 0)
			snprintf(err, errlen, "couldn't run '%s': %s", cmd, errno_str(st));
		else
			snprintf(err, errlen, "'%s' failed (status %d): %s", cmd, st, out);
		return -1;
	}
	return 0;
}

int netns_create(const char *name, char *err, size_t errlen)
{
	char *add[] = { "ip", "netns", "add", (char *)name, NULL };
	char *lo[] = { "ip", "link", "set", "lo", "up", NULL };

	if (netns_run(NULL, add, err, errlen))
		return -1;
	return netns_run(name, lo, err, errlen);
}

int netns_pids(const char *name, pid_t *pids, int max)
{
	char path[300];
	struct stat ns, st;
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	if (stat(path, &ns))
		return -errno;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/ns/net", pid);
		if (stat(path, &st))
			continue;
		if (st.st_ino == ns.st_ino && st.st_dev == ns.st_dev && n < max)
			pids[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

int netns_delete(const char *name, char *err, size_t errlen)
{
	char *del[] = { "ip", "netns", "del", (char *)name, NULL };
	pid_t pids[256];
	int n;

	if (!netns_exists(name))
		return 0;
	n = netns_pids(name, pids, ARRAY_SIZE(pids));
	for (int i = 0; i < n; i++) {
		if (!proc_alive(pids[i], 0))
			continue;
		pr_info("netns %s: ending leftover pid %d", name, pids[i]);
		proc_kill(pids[i], 0, 2000);
	}
	return netns_run(NULL, del, err, errlen);
}

struct sysctl_write {
	const char *path, *value;
};

/* In a child in the netns: a /proc/sys file is the netns's of whoever opens it. */
static int write_sysctl(void *arg)
{
	const struct sysctl_write *w = arg;
	int fd = open(w->path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return write(fd, w->value, strlen(w->value)) == (ssize_t)strlen(w->value) ? 0 : -EIO;
}

int netns_sysctl(const char *name, const char *key, const char *value)
{
	char path[256];
	struct sysctl_write w = { path, value };
	enum spawn_step step;
	struct spawn_opts so = { .netns = name, .child_setup = write_sysctl, .child_arg = &w,
				 .failed = &step };
	pid_t pid;
	int st;

	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	for (char *p = path + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	pid = spawn(NULL, &so);
	if (pid < 0)
		return step > SPAWN_FORK ? -EIO : pid;
	st = proc_wait(pid, -1, NULL);
	return st < 0 ? st : st ? -EIO : 0;
}

int netns_ip_batch(const char *name, const char *file, char *err, size_t errlen)
{
	char *argv[] = { "ip", "-batch", (char *)file, NULL };

	return netns_run(name, argv, err, errlen);
}

int netns_list(const char *prefix, char names[][64], int max)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	/* a name that does not fit is no run of ours: the lab's are shorter */
	while ((e = readdir(d)) && n < max)
		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    snprintf(names[n], 64, "%s", e->d_name) < 64)
			n++;
	closedir(d);
	return n;
}
