// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest-sized data has a cap, each case what a guest
 * would do: a console filled to QEMU's cap or past it, a stage.failed of
 * 256 MiB (sparse: no disk used), and QEMU's own files, which stop at the
 * cap without QEMU being killed. A clean console counts only if teardown
 * proved it live, and only if ttyS0 was registered once.
 *
 * usage: test_caps [-f FILTER]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vm/console.h"
#include "vm/lifecycle.h"
#include "vm/model.h"
#include "vm/qemu.h"
#include "vm/util.h"

static char tmp[64];

static long maxrss_mib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/* A file of size bytes: head, then zeros (sparse), then tail at the end. */
static int make_file(const char *path, const char *head, off_t size, const char *tail)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, head, strlen(head)) == (ssize_t)strlen(head) && !ftruncate(fd, size) &&
	     pwrite(fd, tail, strlen(tail), size - (off_t)strlen(tail)) == (ssize_t)strlen(tail);
	close(fd);
	return ok ? 0 : -1;
}

/* A run with one guest "g" whose console is path; its scan's findings and text. */
static int scan(struct lab_run *r, char *out, size_t outlen)
{
	FILE *f = fmemopen(out, outlen, "w");
	int n;

	memset(out, 0, outlen);
	n = lab_scan_splats(r, f);
	fclose(f);
	for (char *p = out, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		printf("# %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	return n;
}

static void case_stage_failed(struct lab_run *r)
{
	char path[PATH_MAX + 32];
	long before;

	if (!tap_case_begin("a 256 MiB stage.failed fails the boot without being read"))
		return;
	snprintf(path, sizeof(path), "%s/stage.failed", r->guests[0].dir);
	if (ASSERT_OK(make_file(path, "x", 256 << 20, "\n"), "stage.failed made")) {
		before = maxrss_mib();
		ASSERT_TRUE(guest_init_failed(&r->guests[0]), "a failed boot");
		ASSERT_LE(maxrss_mib() - before, 8, "MiB more memory");
		unlink(path);
	}
	tap_case_end();
}

static void case_console(struct lab_run *r, const char *name, off_t size, const char *head,
			 int want, const char *says, const char *also)
{
	char path[PATH_MAX + 32], out[65536];

	if (!tap_case_begin(name))
		return;
	snprintf(path, sizeof(path), "%s/consoles/g.log", r->results);
	if (ASSERT_OK(make_file(path, head, size, "login: done\n"), "console made")) {
		ASSERT_EQ(scan(r, out, sizeof(out)), want, "findings");
		ASSERT_HAS(out, says, "the reason");
		if (also)
			ASSERT_HAS(out, also, "and");
		unlink(path);
	}
	tap_case_end();
}

/* A live console that ttyS0 was registered on twice is a gap: no evidence. */
static void case_gap(struct lab_run *r)
{
	char path[PATH_MAX + 32], out[65536];

	if (!tap_case_begin("a clean console with two ttyS0 registrations is a gap, no evidence"))
		return;
	snprintf(path, sizeof(path), "%s/consoles/g.log", r->results);
	if (ASSERT_OK(make_file(path, "[    0.4] printk: legacy console [ttyS0] enabled\n", 4096,
				"login: done\n"), "console made")) {
		lab_console_gaps(r);
		ASSERT_EQ(scan(r, out, sizeof(out)), 0, "findings with one registration");
		ASSERT_EQ((int)r->guests[0].console_proof, LAB_CONSOLE_LIVE, "still live");
		ASSERT_OK(make_file(path, "[    0.4] printk: legacy console [ttyS0] enabled\n"
				    "[   12.0] printk: legacy console [ttyS0] enabled\n", 4096,
				    "login: done\n"), "console made again");
		lab_console_gaps(r);
		ASSERT_EQ(scan(r, out, sizeof(out)), 1, "findings with two");
		ASSERT_HAS(out, "registered again", "the reason");
		unlink(path);
	}
	r->guests[0].console_proof = LAB_CONSOLE_LIVE;
	r->guests[0].console_why[0] = '\0';
	tap_case_end();
}

/* QEMU's child setup, then head writing 100000 bytes past the cap. */
static void case_qemu_files(void)
{
	char path[128], count[32];
	struct stat st;
	int status = -1;
	pid_t pid;

	if (!tap_case_begin("QEMU's files stop at the cap, and QEMU is not killed"))
		return;
	snprintf(path, sizeof(path), "%s/qemu-file", tmp);
	snprintf(count, sizeof(count), "%u", LAB_DATA_MAX + 100000);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "head", "-c", count, "/dev/zero", NULL };
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || qemu_child_setup(NULL))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	ASSERT_FALSE(WIFSIGNALED(status), "not killed (by SIGXFSZ)");
	/* head says "write error: File too large" and exits 1 */
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1, "head's write failed, exit 1");
	ASSERT_OK(stat(path, &st), "file written");
	ASSERT_EQ(st.st_size, LAB_DATA_MAX, "file size: the cap");
	unlink(path);
	tap_case_end();
}

int main(int argc, char **argv)
{
	struct lab_run *r = calloc(1, sizeof(*r));
	char dir[PATH_MAX + 32];
	int c;

	while ((c = getopt(argc, argv, "f:")) != -1) {
		if (c != 'f') {
			fprintf(stderr, "usage: test_caps [-f FILTER]\n");
			return 2;
		}
		tap_opts.filter = optarg;
	}
	snprintf(tmp, sizeof(tmp), "/tmp/test_caps.XXXXXX");
	if (!r || !mkdtemp(tmp))
		return tap_skip_all("no temporary directory");
	snprintf(r->results, sizeof(r->results), "%s", tmp);
	r->nguests = 1;
	snprintf(r->guests[0].name, sizeof(r->guests[0].name), "g");
	snprintf(r->guests[0].dir, sizeof(r->guests[0].dir), "%s/hosts-g", tmp);
	r->guests[0].pid = 1;	/* it ran: its console is evidence */
	r->guests[0].console_proof = LAB_CONSOLE_LIVE;	/* as if teardown's SysRq h was seen */
	snprintf(dir, sizeof(dir), "%s/consoles", tmp);
	mkdir(dir, 0755);
	mkdir(r->guests[0].dir, 0755);

	case_stage_failed(r);
	case_console(r, "a clean console under the cap: no finding", 1 << 20, "Linux version\n",
		     0, "", NULL);
	case_console(r, "a console at QEMU's 32 MiB cap is lost evidence, its splat still quoted",
		     LAB_DATA_MAX, "WARNING: at the start\n", 2, "reached the 32 MiB cap",
		     /* the 32 MiB line after it is quoted, cut */
		     "more bytes]");
	case_console(r, "a console over the cap is not read, counted as a splat",
		     (off_t)LAB_DATA_MAX + 4096, "Linux version\n", 1, "over the 32 MiB cap", NULL);
	case_qemu_files();
	/* teardown's proof (lab_prove_consoles): a clean console proves nothing without it */
	case_gap(r);
	r->guests[0].console_proof = LAB_CONSOLE_UNCHECKED;
	case_console(r, "a clean console never proven live is no evidence", 4096,
		     "[    0.4] printk: legacy console [ttyS0] enabled\n", 1,
		     "no SysRq proof was taken", NULL);
	r->guests[0].console_proof = LAB_CONSOLE_NO_EVIDENCE;
	snprintf(r->guests[0].console_why, sizeof(r->guests[0].console_why), "no banner in 10 s");
	case_console(r, "a clean console whose SysRq banner never came is no evidence", 4096,
		     "Linux version\n", 1, "console not proven live: no banner in 10 s", NULL);
	r->guests[0].console_proof = LAB_CONSOLE_SKIPPED;
	case_console(r, "a run that had already failed is not waited for", 4096, "Linux version\n",
		     0, "", NULL);

	rmdir(r->guests[0].dir);
	rmdir(dir);
	rmdir(tmp);
	free(r);
	return tap_done();
}
