// SPDX-License-Identifier: GPL-2.0-only
/* The run's reaper: it tears a run down when the lab that owns it dies. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errnames.h"
#include "log.h"
#include "model.h"
#include "reaper.h"
#include "util.h"

/*
 * The reaper: a child in a session of its own (meson's SIGKILL goes to the
 * lab's process group, and QEMU, tcpdump and dnsmasq run in sessions of
 * their own, so nothing else would end them). It holds the read end of a
 * pipe whose write end only the lab has (O_CLOEXEC: no child inherits it).
 * EOF without a word means the lab died while it owned the run: call the
 * teardown the lab gave (so the reaper needs nothing of the lifecycle). 'D' (lab_down ran) or 'H' (handed over
 * to later commands, see lab_detach) make it exit quietly.
 */
static void reaper_main(struct lab_run *snap, int rfd, void (*teardown)(struct lab_run *snap))
{
	char c, log[PATH_MAX + 32];
	ssize_t n;
	int fd = open("/dev/null", O_RDWR), lab = (int)getppid();

	setsid();
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	lab_interrupted = 0;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (rfd != 3) {
		dup2(rfd, 3);
		rfd = 3;
	}
	close_range(4, ~0U, 0);	/* nothing of the lab's, above all no other pipe */
	do
		n = read(rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		_exit(0);
	snprintf(log, sizeof(log), "%s/reaper.log", snap->results);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	pr_warn("run %s: the lab (pid %d) died while it owned the run: tearing it down",
		snap->id, lab);
	teardown(snap);
	_exit(0);
}

int guard_start(struct lab_run *r, void (*teardown)(struct lab_run *snap))
{
	int pfd[2];
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC)) {
		pr_warn("couldn't create the reaper's pipe: %s", errno_str(errno));
		return LAB_FAIL;
	}
	fflush(NULL);
	/* not spawn, which waits for an exec: the reaper runs lab code until the lab dies */
	pid = fork();
	if (pid < 0) {
		pr_warn("couldn't fork the reaper: %s", errno_str(errno));
		close(pfd[0]);
		close(pfd[1]);
		return LAB_FAIL;
	}
	if (pid == 0) {
		close(pfd[1]);
		reaper_main(r, pfd[0], teardown);
	}
	close(pfd[0]);
	r->guard_fd = pfd[1];
	return LAB_OK;
}

void guard_release(struct lab_run *r, char why)
{
	ssize_t n;

	if (r->guard_fd < 0)
		return;
	n = write(r->guard_fd, &why, 1);
	(void)n;
	close(r->guard_fd);
	r->guard_fd = -1;
}

void lab_detach(struct lab_run *r)
{
	guard_release(r, 'H');
}
