/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal TAP assertions in the selftests style: each returns bool and
 * prints actual against expected, so `if (!ASSERT_EQ(...)) return;` works.
 */
#ifndef BPFWIRE_RECV_TAP_H
#define BPFWIRE_RECV_TAP_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline bool tap_ok(bool ok, const char *name, const char *fmt_a,
			  const char *fmt_e)
{
	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%sok %d - %s", ok ? "" : "not ", tap_n, name);
	if (!ok)
		printf(" # actual %s, expected %s", fmt_a, fmt_e);
	printf("\n");
	return ok;
}

#define ASSERT_EQ(actual, expected, name) ({				\
	int64_t a_ = (int64_t)(actual), e_ = (int64_t)(expected);	\
	char as_[32], es_[32];						\
	snprintf(as_, sizeof(as_), "%" PRId64, a_);			\
	snprintf(es_, sizeof(es_), "%" PRId64, e_);			\
	tap_ok(a_ == e_, name, as_, es_);				\
})

#define ASSERT_TRUE(cond, name) tap_ok(!!(cond), name, "false", "true")

/* Reasons print by name, which is what a reader wants in a failure. */
#define ASSERT_REASON(actual, expected, name) ({			\
	enum bpfw_reason a_ = (actual), e_ = (expected);		\
	tap_ok(a_ == e_, name, bpfw_reason_name(a_), bpfw_reason_name(e_)); \
})

#define ASSERT_STR(actual, expected, name) ({				\
	const char *a_ = (actual), *e_ = (expected);			\
	tap_ok(a_ && e_ && !strcmp(a_, e_), name, a_ ? a_ : "(null)", e_); \
})

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_n == 0) {
		printf("# no assertions ran\n");
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif /* BPFWIRE_RECV_TAP_H */
