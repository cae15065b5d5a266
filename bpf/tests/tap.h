/* SPDX-License-Identifier: GPL-2.0-only */
/* Minimal TAP with selftests-style assertions that return bool. */
#ifndef BPFWIRE_BPF_TAP_H
#define BPFWIRE_BPF_TAP_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline bool tap_ok(bool ok, const char *name, const char *fmt_actual)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tap_n, name);
	if (!ok) {
		printf("#   %s\n", fmt_actual);
		tap_failed++;
	}
	return ok;
}

#define ASSERT_EQ(actual, expected, name) ({				\
	long long __a = (long long)(actual), __e = (long long)(expected); \
	char __m[160];							\
	snprintf(__m, sizeof(__m), "actual %lld (0x%llx) != expected %lld (0x%llx)", \
		 __a, (unsigned long long)__a, __e, (unsigned long long)__e); \
	tap_ok(__a == __e, name, __m); })

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *__a = (actual), *__e = (expected);			\
	char __m[512];							\
	snprintf(__m, sizeof(__m), "actual '%s' != expected '%s'", __a, __e); \
	tap_ok(!strcmp(__a, __e), name, __m); })

#define ASSERT_MEMEQ(actual, expected, len, name) ({			\
	tap_ok(!memcmp((actual), (expected), (len)), name, "bytes differ"); })

#define ASSERT_OK(r, name) ASSERT_EQ(r, 0, name)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
