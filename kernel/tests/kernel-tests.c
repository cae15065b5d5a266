// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-tests: the bpfwire kernel suite. Runs INSIDE a guest booted on the
 * patched kernel, as root. Built for one ksock API (-Dkernel_series: seed
 * or upstream, KT_UPSTREAM); the other API's cases print # SKIP. Each seed selftest is reproduced as its own case,
 * then every bad input with its exact errno, the verifier's refusals, and
 * the post-checks (quota counters, kernel log). One TAP line per case.
 *
 *   kernel-tests [-v] [-l] [FILTER]   -l lists the cases, FILTER is a
 *                                     substring of the case names to run
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

static void parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			tap_opts.verbose = true;
		else if (!strcmp(argv[i], "-l"))
			tap_opts.list_only = true;
		else
			tap_opts.filter = argv[i];
	}
}

int main(int argc, char **argv)
{
	const struct kt_test **tests;
	size_t n, i;

	parse_args(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	/* libbpf's own output (stderr) only with -v, all of it, as before. */
	log_init("kernel-tests", tap_opts.verbose ? LOG_TRACE : LOG_WARN);
	log_route_libbpf();

	tests = sorted_tests(&n);
	if (!tests)
		return 1;
	if (!tap_opts.list_only) {
		if (geteuid() != 0)
			return tap_skip_all("kernel-tests must run as root inside a bpfwire guest");
		printf("# built for the %s ksock API; the other's cases are # SKIP\n", KT_FLAVOUR);
		if (KT_UPSTREAM) {
			printf("# kernel: the upstream series (" UPSTREAM_RELEASE_SUFFIX "), no quota counter\n");
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
