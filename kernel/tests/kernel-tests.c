// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-tests: the bpfwire kernel suite. Runs INSIDE a guest booted on the
 * patched kernel, as root. It reads the kernel's kfunc API from its BTF
 * (kapi/) first: the cases of another ksock API, or of one the kernel
 * lacks or that bpfwire does not know, print # SKIP with the reason, and
 * an unknown API's prototypes are printed as comments (kt_needs()). Each
 * seed selftest is reproduced as its own case,
 * then every bad input with its exact errno, the verifier's refusals, and
 * the post-checks (quota counters, kernel log). One TAP line per case.
 *
 *   kernel-tests [-v] [-l [--btf FILE]] [FILTER]
 *       -l lists the cases, FILTER is a substring of the case names to run;
 *       --btf FILE (with -l only) lists them as on a kernel of that BTF
 *
 * The tests live in test_*.c, one file per area; each registers itself
 * with KT_TEST (kt.h) and runs here in the order of its key.
 *
 * Never run this on a host: it loads BPF programs and creates devices.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errnames.h"
#include "libbpf_log.h"
#include "log.h"
#include "kt.h"

extern const struct kt_test *const __start_kt_cases[];
extern const struct kt_test *const __stop_kt_cases[];

static int by_order(const void *a, const void *b)
{
	const struct kt_test *x = *(const struct kt_test *const *)a;
	const struct kt_test *y = *(const struct kt_test *const *)b;

	return (x->order > y->order) - (x->order < y->order);
}

/* The registered tests in order of their keys; NULL on a duplicate key,
 * which would leave the TAP order to the linker. */
static const struct kt_test **sorted_tests(size_t *n)
{
	const struct kt_test **t;
	size_t i;

	*n = (size_t)(__stop_kt_cases - __start_kt_cases);
	t = calloc(*n ? *n : 1, sizeof(*t));
	if (!t)
		return NULL;
	memcpy(t, __start_kt_cases, *n * sizeof(*t));
	qsort(t, *n, sizeof(*t), by_order);
	for (i = 1; i < *n; i++) {
		if (t[i]->order == t[i - 1]->order) {
			printf("Bail out! %s and %s have the same order key %d\n",
			       t[i - 1]->name, t[i]->name, t[i]->order);
			free(t);
			return NULL;
		}
	}
	return t;
}

/* --btf FILE: only to list (-l); a run always reads the running kernel's. */
static const char *btf_file;

static int parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			tap_opts.verbose = true;
		else if (!strcmp(argv[i], "-l"))
			tap_opts.list_only = true;
		else if (!strcmp(argv[i], "--btf") && i + 1 < argc)
			btf_file = argv[++i];
		else
			tap_opts.filter = argv[i];
	}
	if (btf_file && !tap_opts.list_only) {
		fprintf(stderr, "kernel-tests: --btf FILE lists the cases as on that kernel (-l); a run reads the running kernel's BTF\n");
		return -1;
	}
	return 0;
}

/* The kernel's kfunc API into kt_api, said as comments; an unknown one's prototypes too. */
static int read_api(void)
{
	char err[512];

	if (tap_opts.list_only && !btf_file) {
		/* Listing on the host: every case, as on a known API. */
		kt_api.ksock = KAPI_KSOCK_SEED;
		kt_api.ksock_sndbuf = true;
		kt_api.netpoll = KAPI_NETPOLL_PRESENT;
		return 0;
	}
	if (kapi_detect_file(btf_file, &kt_api, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return -1;
	}
	printf("# kernel API (from %s): ksock %s, netpoll %s\n", kt_api.source,
	       kapi_ksock_name(kt_api.ksock), kapi_netpoll_name(kt_api.netpoll));
	if (kt_api.ksock == KAPI_KSOCK_SEED)
		printf("# bpfwire's sndbuf extension (kernel/patches/sndbuf): %s\n",
		       kt_api.ksock_sndbuf ? "present" : "absent, its cases SKIP");
	if (kt_api.ksock == KAPI_KSOCK_UNKNOWN) {
		printf("# ksock API unknown: its kfuncs that match neither known API, as found beside the seed's and upstream's:\n");
		kapi_print_family(stdout, &kt_api, "ksock", false, "#   ");
	}
	if (kt_api.netpoll == KAPI_NETPOLL_UNKNOWN) {
		printf("# netpoll unknown: its kfuncs that differ, as found beside the expected:\n");
		kapi_print_family(stdout, &kt_api, "netpoll", false, "#   ");
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct kt_test **tests;
	size_t n, i;

	if (parse_args(argc, argv))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	/* libbpf's own output (stderr) only with -v, all of it, as before. */
	log_init("kernel-tests", tap_opts.verbose ? LOG_TRACE : LOG_WARN);
	log_route_libbpf();

	tests = sorted_tests(&n);
	if (!tests)
		return 1;
	if (!tap_opts.list_only && geteuid() != 0)
		return tap_skip_all("kernel-tests must run as root inside a bpfwire guest");
	if (read_api())
		return 1;
	if (!tap_opts.list_only) {
		if (kt_api.ksock != KAPI_KSOCK_SEED) {
			printf("# kernel: ksock API %s, no quota counter\n", kapi_ksock_name(kt_api.ksock));
		} else {
			if (!quota_counter_load())
				printf("# couldn't load ksock_counter: %s\n", errno_str(errno));
			quota_start_count = quota_count();
			printf("# init netns ksock quota counter at start: %d\n", quota_start_count);
			printf("# kernel: %s (the seed bugs' cases are %s)\n",
			       kt_seed_kernel() ? "the seed series alone (" SEED_RELEASE_SUFFIX ")"
						: "the seed series and the fixes",
			       kt_seed_kernel() ? "TAP # TODO" : "normal cases");
		}
	}

	for (i = 0; i < n; i++)
		tests[i]->run();
	free(tests);

	if (tap_opts.list_only)
		return 0;
	quota_counter_destroy();
	return tap_done();
}
