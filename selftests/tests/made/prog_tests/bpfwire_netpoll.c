// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire's own netpoll selftest: one subtest per tagged program. */
#include <test_progs.h>
#include "bpfwire_netpoll.skel.h"

void test_bpfwire_netpoll(void)
{
	RUN_TESTS(bpfwire_netpoll);
}
