/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Verifier cost, base against series, as BPF CI's veristat --compare
 * shows it: the kernel suite's verifier-cost test (bpf/vcost.c) prints,
 * for each of the agent's programs, whether it loads, its instructions
 * processed and its peak states. A program that loads on the base and not
 * on the series is already worse (its case's rank drops: verdict.c). Here:
 * a rise in instructions beyond a threshold is changed and named, and
 * every program, the new ones with their absolute cost, is listed in the
 * review's verifier section. The programs of a series' own selftests are
 * measured in the selftests test (cases "x.bpf.o: PROGRAM") and shown the
 * same way; the base's are bpfwire's own unless --base names a series.
 */
#ifndef BPFWIRE_REVIEW_VCOST_H
#define BPFWIRE_REVIEW_VCOST_H

#include <stdio.h>

#include "testlog.h"
#include "verdict.h"

#define VC_TEST "verifier-cost"
#define VC_SELFTESTS "selftests"
#define VC_THRESHOLD_DEFAULT 10

/* A case's note "insns=I peak_states=P ...": 0 with both read, else -EINVAL. */
int vc_parse_note(const char *note, unsigned *insns, unsigned *peak);
/*
 * Add a changed item to rep for each program whose instructions rose more
 * than threshold percent, and write the verifier section to section (when
 * not NULL): nothing at all when neither log has the test. 0 or -ENOMEM.
 */
int vc_compare(const struct tl_log *base, const struct tl_log *review, unsigned threshold,
	       struct vd_report *rep, FILE *section);

#endif
