/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire's stand-in for ASSERT_MEMEQ, which test_progs.h gained after
 * 6.12: compare LEN bytes, and on a difference fail the test with the
 * first differing offset and both sides in hex. build.sh force-includes
 * this only when the tree's test_progs.h has no ASSERT_MEMEQ; the macro
 * expands where it is used, after test_progs.h (PRINT_FAIL).
 */
#ifndef BPFWIRE_COMPAT_ASSERT_MEMEQ_H
#define BPFWIRE_COMPAT_ASSERT_MEMEQ_H
#include <stdio.h>
#include <string.h>

static inline void bpfwire_hex(const char *what, const void *p, size_t len)
{
	const unsigned char *b = p;

	fprintf(stdout, "%s:", what);
	for (size_t i = 0; i < len && i < 64; i++)
		fprintf(stdout, " %02x", b[i]);
	fprintf(stdout, "%s\n", len > 64 ? " ..." : "");
}

#define ASSERT_MEMEQ(actual, expected, len, name) ({			\
	const void *__a = (actual), *__e = (expected);			\
	size_t __l = (len), __i = 0;					\
	bool ___ok = memcmp(__a, __e, __l) == 0;			\
	if (!___ok) {							\
		while (((const unsigned char *)__a)[__i] ==		\
		       ((const unsigned char *)__e)[__i])		\
			__i++;						\
		PRINT_FAIL("%s: %zu bytes differ from offset %zu\n",	\
			   (name), __l, __i);				\
		bpfwire_hex("actual  ", __a, __l);			\
		bpfwire_hex("expected", __e, __l);			\
	}								\
	___ok;								\
})
#endif
