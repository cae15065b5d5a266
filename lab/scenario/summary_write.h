/* SPDX-License-Identifier: GPL-2.0-only */
/* RUN/summary.json and RUN/summary.txt, from the runner's state (summary_write.c). */
#ifndef BPFWIRE_LAB_SCENARIO_SUMMARY_WRITE_H
#define BPFWIRE_LAB_SCENARIO_SUMMARY_WRITE_H

#include "steps.h"

/* After the run: its verdict, its reason, the splat scan's count and text. */
void runner_write_summary(struct runner *rn, const char *verdict, const char *reason,
			  int splats, const char *splat_text);

#endif
