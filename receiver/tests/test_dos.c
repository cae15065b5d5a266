// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DoS capture: 2,000 forged sender ids, each sending seq 1, 2^24
 * and 3 * 2^23 with a valid FNV check (6,000 datagrams). bpfwire-recv --read
 * runs it under /usr/bin/time -v, and its maximum RSS must stay under the
 * state budget plus MARGIN_MB: the libraries, the pcap reader and the JSON
 * summary, which are not sender state. Before the budget and the sparse
 * bitmap, this capture took 2.0 GB.
 *
 * usage: test_dos BPFWIRE-RECV [--plain]
 * --plain: one run with no budget option, for a receiver older than it
 * (that is how the test was shown to fail on the receiver before the budget).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <json-c/json.h>
#include <pcap/pcap.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "craft.h"
#include "tap.h"
#include "wire.h"

#define IDS		2000
#define MARGIN_MB	16

extern char **environ;

static char dir[] = "/tmp/bpfwire-dos-test-XXXXXX";
static char pcap_path[600], json_path[600], err_path[600];
static int plain;

static int write_dos(void)
{
	static const uint64_t seqs[] = { 1, 1ull << 24, 3ull << 23 };
	struct craft_pcap *c = craft_pcap_open(pcap_path, DLT_EN10MB);
	uint8_t dg[128], f[CRAFT_MAX_FRAME];
	uint64_t ts = 1700000000ull * 1000000000ull;
	struct craft_pkt p;
	unsigned id, k, n;

	if (!c)
		return -1;
	craft_defaults(&p, 4);
	for (id = 1; id <= IDS; id++)
		for (k = 0; k < 3; k++) {
			n = craft_wire(dg, 100000 + id, seqs[k], BPFWIRE_EV_TEST,
				       (const uint8_t *)"forged", 6);
			craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
		}
	return craft_pcap_close(c);
}

/* /usr/bin/time -v RECV --read dos.pcap ARGS...; exit code, max RSS in KiB. */
static int run_timed(const char *recv, const char *budget, long *rss_kb)
{
	char *argv[] = {
		"/usr/bin/time", "-v", (char *)recv, "--read", pcap_path,
		"--json", json_path, "--max-loss", "any", "--max-reorder", "any",
		"--allow-invalid", "--state-budget-mb", (char *)budget, NULL,
	};

	if (!budget)
		argv[12] = NULL;
	posix_spawn_file_actions_t fa;
	char line[256];
	int status;
	pid_t pid;
	FILE *fp;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ))
		return -1;
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	*rss_kb = -1;
	fp = fopen(err_path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		sscanf(line, " Maximum resident set size (kbytes): %ld", rss_kb);
	if (fp)
		fclose(fp);
	return WEXITSTATUS(status);
}

static int64_t jget(json_object *root, const char *a, const char *b, const char *c)
{
	json_object *o = root;

	if (!o || !json_object_object_get_ex(o, a, &o) ||
	    !json_object_object_get_ex(o, b, &o) ||
	    (c && !json_object_object_get_ex(o, c, &o)))
		return -1;
	return json_object_get_int64(o);
}

static void one_run(const char *recv, double budget_mb)
{
	char budget[16], name[128];
	json_object *j;
	long rss = -1;
	int64_t untracked;

	snprintf(budget, sizeof(budget), "%g", budget_mb);
	if (!ASSERT_EQ(run_timed(recv, plain ? NULL : budget, &rss), 0,
		       "bpfwire-recv --read dos.pcap exits 0"))
		return;
	snprintf(name, sizeof(name), "budget %g MiB: max RSS %ld KiB <= (%g + %d) MiB",
		 budget_mb, rss, budget_mb, MARGIN_MB);
	ASSERT_GE(rss, 1, "time -v reported the max RSS");
	ASSERT_LE(rss, (long)((budget_mb + MARGIN_MB) * 1024), name);
	j = json_object_from_file(json_path);
	if (!ASSERT_TRUE(j, "summary JSON parses"))
		return;
	untracked = jget(j, "wire", "reasons", "untracked");
	ASSERT_EQ(jget(j, "wire", "datagrams", NULL), 3 * IDS, "every forged datagram counted");
	ASSERT_EQ(jget(j, "wire", "valid", NULL) + untracked, 3 * IDS, "valid or untracked");
	ASSERT_GE(jget(j, "state", "peak_bytes", NULL), 1, "state.peak_bytes reported");
	ASSERT_LE(jget(j, "state", "peak_bytes", NULL), (int64_t)(budget_mb * (1 << 20)),
		  "sender state within the budget");
	if (budget_mb >= 64)
		ASSERT_EQ(untracked, 0, "64 MiB tracks all 2,000 ids");
	else
		ASSERT_GE(untracked, 1, "a small budget leaves senders untracked");
	printf("# budget %g MiB: max RSS %ld KiB, state peak %lld bytes, %lld valid, %lld untracked\n",
	       budget_mb, rss, (long long)jget(j, "state", "peak_bytes", NULL),
	       (long long)jget(j, "wire", "valid", NULL), (long long)untracked);
	json_object_put(j);
}

int main(int argc, char **argv)
{
	int ret;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--plain"))) {
		fprintf(stderr, "usage: %s BPFWIRE-RECV [--plain]\n", argv[0]);
		return 2;
	}
	plain = argc == 3;
	if (access("/usr/bin/time", X_OK))
		return tap_skip_all("/usr/bin/time is not installed (Debian package time)");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(pcap_path, sizeof(pcap_path), "%s/dos.pcap", dir);
	snprintf(json_path, sizeof(json_path), "%s/dos.json", dir);
	snprintf(err_path, sizeof(err_path), "%s/time.txt", dir);
	if (ASSERT_OK(write_dos(), "dos.pcap written (2,000 ids x 3 seqs)")) {
		one_run(argv[1], 64);
		if (!plain)
			one_run(argv[1], 0.5);
	}
	ret = tap_done();
	unlink(pcap_path);
	unlink(json_path);
	unlink(err_path);
	rmdir(dir);
	return ret;
}
