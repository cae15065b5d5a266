// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every built executable against common/cli.h's contract: --help
 * exits 0 with the usage on stdout, --version prints "NAME VERSION", an
 * unknown option exits 2 and is named, and an option after a positional
 * argument is still an option. Meson passes the paths of the ones it built.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "errnames.h"
#include "tap.h"

struct result {
	int status;		/* exit status; 128 + signal; -1 could not run */
	char out[16384], err[16384];
};

static void read_back(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	close(fd);
}

/* Runs path with args (NULL-terminated), stdout and stderr kept apart. */
static void run(const char *path, const char *const args[], struct result *r)
{
	char *argv[16] = { (char *)path };
	int out = memfd_create("stdout", 0), err = memfd_create("stderr", 0), st;
	pid_t pid;

	for (int i = 0; args[i] && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	r->status = -1;
	r->out[0] = r->err[0] = 0;
	if (out < 0 || err < 0)
		goto fail;
	pid = fork();
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		alarm(20);	/* a tool that waits on something is a failure, not a hang */
		execv(path, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		goto fail;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	read_back(out, r->out, sizeof(r->out));
	read_back(err, r->err, sizeof(r->err));
	return;
fail:
	printf("# %s: %s\n", path, errno_str(errno));
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
}

/*
 * For the tools that take positional arguments: the arguments that put
 * one before an option. Without GNU's permutation the option would be
 * read as a positional (a console, a RUN, a second command word).
 */
static const struct {
	const char *name;
	const char *args[4];
} after_positional[] = {
	{ "bpfwire-splat", { "/nonexistent/console", "--help" } },
	{ "bpfwire-path", { "/nonexistent/run", "--help" } },
	{ "bpfwire-bench", { "compare", "--help" } },
	{ "bpfwire-agent", { "status", "--help" } },
	{ "bpfwire-trace", { "record", "--help" } },
	{ "bpfwire-bench-guest", { "opens", "--help" } },
};

static void check_tool(const char *path)
{
	static struct result r;
	char copy[4096], name[256], want[512];
	const char *base;

	snprintf(copy, sizeof(copy), "%s", path);
	base = basename(copy);

	run(path, (const char *[]){ "--help", NULL }, &r);
	snprintf(name, sizeof(name), "%s --help exits 0", base);
	ASSERT_EQ(r.status, 0, name);
	snprintf(name, sizeof(name), "%s --help: usage on stdout", base);
	ASSERT_HAS(r.out, "usage", name);

	run(path, (const char *[]){ "--version", NULL }, &r);
	snprintf(name, sizeof(name), "%s --version exits 0", base);
	ASSERT_EQ(r.status, 0, name);
	snprintf(want, sizeof(want), "%s %s\n", base, bpfwire_version);
	snprintf(name, sizeof(name), "%s --version: name and version", base);
	ASSERT_STREQ(r.out, want, name);

	run(path, (const char *[]){ "--no-such-option", NULL }, &r);
	snprintf(name, sizeof(name), "%s --no-such-option exits 2", base);
	ASSERT_EQ(r.status, CLI_EUSAGE, name);
	snprintf(name, sizeof(name), "%s --no-such-option: named on stderr", base);
	ASSERT_HAS(r.err, "unknown option '--no-such-option'", name);

	for (size_t i = 0; i < sizeof(after_positional) / sizeof(after_positional[0]); i++) {
		if (strcmp(after_positional[i].name, base))
			continue;
		run(path, after_positional[i].args, &r);
		snprintf(name, sizeof(name), "%s %s %s: the option after it is taken, exit 0",
			 base, after_positional[i].args[0], after_positional[i].args[1]);
		ASSERT_EQ(r.status, 0, name);
		snprintf(name, sizeof(name), "%s %s %s: usage on stdout",
			 base, after_positional[i].args[0], after_positional[i].args[1]);
		ASSERT_HAS(r.out, "usage", name);
	}
}

/* The issue's own lines: --dry-run anywhere, nothing booted. */
static void check_bench(const char *path)
{
	static struct result r;

	run(path, (const char *[]){ "--dry-run", "--icount", NULL }, &r);
	ASSERT_EQ(r.status, 0, "bpfwire-bench --dry-run --icount exits 0");
	ASSERT_HAS(r.out, "--dry-run: would boot pair-icount", "it says what it would do");
	run(path, (const char *[]){ "--netem-loss", "5", "--paths", "ksock,netpoll", "--dry-run",
				    NULL }, &r);
	ASSERT_EQ(r.status, 0, "bpfwire-bench --netem-loss 5 --paths ksock,netpoll --dry-run");
	ASSERT_HAS(r.out, "measure ksock,netpoll", "the paths given");
	ASSERT_HAS(r.out, "netem loss 5%", "the loss given");
	run(path, (const char *[]){ "--dry-run", "--accel", "xen", NULL }, &r);
	ASSERT_EQ(r.status, CLI_EUSAGE, "--dry-run still checks the values: --accel xen exits 2");
	ASSERT_HAS(r.err, "--accel: 'xen' is not", "the bad value is named");
	run(path, (const char *[]){ "report", "--dry-run", NULL }, &r);
	ASSERT_EQ(r.status, CLI_EUSAGE, "report without RUN exits 2");
	ASSERT_HAS(r.err, "report takes one RUN", "the count is named");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		check_tool(argv[i]);
		if (!strcmp(strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i],
			    "bpfwire-bench"))
			check_bench(argv[i]);
	}
	printf("# checked %d executable%s\n", argc - 1, argc == 2 ? "" : "s");
	return tap_done();
}
