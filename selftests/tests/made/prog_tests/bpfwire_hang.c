// SPDX-License-Identifier: GPL-2.0-only
/*
 * A test that hangs on purpose: it marks its map, then sleeps far past any
 * watchdog. bpfwire-selftests-run must end it as FAIL with the reason and
 * the map, dmesg and the stacks of its tasks, then go on to the next test.
 */
#include <unistd.h>
#include <test_progs.h>
#include "bpfwire_hang.skel.h"

void test_bpfwire_hang(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpfwire_hang *skel;

	skel = bpfwire_hang__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.hang_mark), &topts),
		  "hang_mark");
	fprintf(stdout, "marked; sleeping past the watchdog\n");
	fflush(stdout);
	sleep(3600);
	bpfwire_hang__destroy(skel);
}
