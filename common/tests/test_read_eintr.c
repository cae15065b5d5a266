// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_file returns the whole file even when a signal lands mid-read. The
 * lab's handlers (lab_install_signals) may come without SA_RESTART, so a
 * read() can end in EINTR: that is no end of file. A FIFO whose writer
 * pauses between two halves, and a SIGALRM handler without SA_RESTART
 * that fires during the pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "tap.h"

#define HALF 5000

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* The writer: one half, a pause the alarm lands in, the other half. */
static void writer(const char *fifo)
{
	char buf[HALF];
	int fd = open(fifo, O_WRONLY);

	if (fd < 0)
		_exit(1);
	memset(buf, 'a', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		_exit(1);
	usleep(400 * 1000);
	memset(buf, 'b', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		_exit(1);
	_exit(0);
}

int main(void)
{
	char dir[] = "/tmp/test_read_eintr-XXXXXX", fifo[64];
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART, as the lab's */
	struct itimerval it = { .it_value = { .tv_usec = 150 * 1000 } };
	size_t len = 0;
	char *text;
	pid_t pid;
	int st = 0;

	if (!mkdtemp(dir))
		return tap_skip_all("no temp dir");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mkfifo(fifo, 0600))
		return tap_skip_all("no FIFO");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	pid = fork();
	if (pid == 0)
		writer(fifo);
	setitimer(ITIMER_REAL, &it, NULL);
	text = read_file(fifo, &len);
	waitpid(pid, &st, 0);
	ASSERT_EQ(alarms, 1, "the alarm fired during the read");
	ASSERT_OK_PTR(text, "read_file of the FIFO");
	ASSERT_EQ(len, 2 * HALF, "read_file returns both halves, not the one before the signal");
	if (text && len == 2 * HALF)
		ASSERT_TRUE(text[0] == 'a' && text[2 * HALF - 1] == 'b' && !text[2 * HALF],
			    "in order, NUL-terminated");
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st), "the writer wrote both halves");
	free(text);
	unlink(fifo);
	rmdir(dir);
	return tap_done();
}
