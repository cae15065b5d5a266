// SPDX-License-Identifier: GPL-2.0-only
/*
 * hang-dstate: a task in D state on purpose, for the hung-task lab test
 * with nothing but the debug kernel's userfaultfd. Thread
 * dstate-holder writes to a memfd from a page registered with userfaultfd:
 * it sleeps in that fault holding the file's inode lock. Thread
 * dstate-waiter then writes to the same memfd and waits for the lock
 * uninterruptibly (down_write: D, what khungtaskd and SysRq w name). After
 * --hold SECONDS the page is filled in (UFFDIO_ZEROPAGE), both writes end,
 * and it exits 0, or 1 if the waiter was never seen in D.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "errnames.h"
#include "timeutil.h"

#define PROG "hang-dstate"

static const char usage[] =
"usage: " PROG " [--hold SECONDS]\n"
"Put thread dstate-waiter in D state (waiting for a memfd's inode lock that\n"
"dstate-holder holds across a userfaultfd fault) for SECONDS (default 5),\n"
"then let both go. Exit 0 when the waiter was in D state all along, 1 if\n"
"not, 2 a usage error.\n";

static int memfd = -1;
static char *page;
static long pagesz;
static volatile pid_t waiter_tid;
static ssize_t holder_ret, waiter_ret;

static void *holder(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "dstate-holder");
	holder_ret = pwrite(memfd, page, (size_t)pagesz, 0);
	return NULL;
}

static void *waiter(void *arg)
{
	char c = 'x';

	(void)arg;
	prctl(PR_SET_NAME, "dstate-waiter");
	waiter_tid = (pid_t)syscall(SYS_gettid);
	waiter_ret = pwrite(memfd, &c, 1, 0);
	return NULL;
}

/* The state letter of one of our threads (R, S, D...), '?' if unreadable. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* userfaultfd with the page registered for missing-page faults: the fd or -1. */
static int uffd_setup(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (unsigned long)page, .len = (unsigned long)pagesz },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, PROG ": userfaultfd: %s (a kernel without USERFAULTFD?)\n",
			errno_str(errno));
		return -1;
	}
	if (ioctl(fd, UFFDIO_API, &api) || ioctl(fd, UFFDIO_REGISTER, &reg)) {
		fprintf(stderr, PROG ": userfaultfd setup: %s\n", errno_str(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Waits for the holder's fault: then it holds the inode lock. */
static int wait_fault(int uffd)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		fprintf(stderr, PROG ": dstate-holder never faulted on the page\n");
		return -1;
	}
	return 0;
}

/* Polls the waiter's state for up to 10 s: true once it is D. */
static bool waiter_in_d(void)
{
	for (int i = 0; i < 1000; i++) {
		if (waiter_tid && thread_state(waiter_tid) == 'D')
			return true;
		sleep_ms(10);
	}
	return false;
}

static int parse_hold(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 0 || *out > 3600 ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hold", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static const char shortopts[] = "h";
	struct uffdio_zeropage zp;
	pthread_t th, tw;
	bool in_d = false, stayed = true;
	long hold = 5;
	double t0;
	int c, uffd;

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			if (parse_hold(optarg, &hold))
				return cli_bad_value(PROG, "--hold", optarg, "seconds in [0, 3600]");
			break;
		case 'h': fputs(usage, stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, opts);
		}
	}
	if (optind != argc)
		return cli_bad_args(PROG, "unexpected argument '%s'", argv[optind]);

	pagesz = sysconf(_SC_PAGESIZE);
	memfd = memfd_create(PROG, MFD_CLOEXEC);
	page = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memfd < 0 || page == MAP_FAILED) {
		fprintf(stderr, PROG ": memfd or mmap: %s\n", errno_str(errno));
		return 1;
	}
	uffd = uffd_setup();
	if (uffd < 0)
		return 1;
	if (pthread_create(&th, NULL, holder, NULL))
		return 1;
	if (wait_fault(uffd))
		return 1;
	if (pthread_create(&tw, NULL, waiter, NULL))
		return 1;
	in_d = waiter_in_d();
	t0 = now_s();
	if (in_d) {
		printf(PROG ": dstate-waiter (tid %d) in D state, held for %ld s\n", (int)waiter_tid, hold);
		fflush(stdout);
		/* looked at every 100 ms: D the whole time, or the test proves nothing */
		while (now_s() - t0 < hold) {
			sleep_ms(100);
			if (thread_state(waiter_tid) != 'D')
				stayed = false;
		}
	} else {
		fprintf(stderr, PROG ": dstate-waiter never entered D state (state %c)\n",
			waiter_tid ? thread_state(waiter_tid) : '?');
	}
	zp = (struct uffdio_zeropage){ .range = { (unsigned long)page, (unsigned long)pagesz } };
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp)) {
		fprintf(stderr, PROG ": UFFDIO_ZEROPAGE: %s\n", errno_str(errno));
		return 1;
	}
	pthread_join(th, NULL);
	pthread_join(tw, NULL);
	if (holder_ret != pagesz || waiter_ret != 1) {
		fprintf(stderr, PROG ": writes returned %zd and %zd\n", holder_ret, waiter_ret);
		return 1;
	}
	if (in_d && !stayed)
		fprintf(stderr, PROG ": dstate-waiter left D state during the hold\n");
	printf(PROG ": released after %.1f s; both writes done\n", now_s() - t0);
	return in_d && stayed ? 0 : 1;
}
