/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFWIRE_COMMON_TIMEUTIL_H
#define BPFWIRE_COMMON_TIMEUTIL_H

#include <stdint.h>

double now_s(void);		/* CLOCK_MONOTONIC, seconds */
uint64_t now_ns(void);		/* CLOCK_MONOTONIC, nanoseconds */
/* A signal cuts it short; callers that must wait the whole time loop. */
void sleep_ms(int ms);

#endif /* BPFWIRE_COMMON_TIMEUTIL_H */
