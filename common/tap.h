/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one TAP test harness, in the style of selftests' test_progs.h.
 * Every ASSERT_* returns bool, so `if (!ASSERT_OK(...)) goto out;` works,
 * and prints actual against expected when it fails.
 *
 * Outside a case each assertion is one TAP line. Between tap_case_begin()
 * and tap_case_end() the assertions are counted, and the case is one TAP
 * line: ok when at least one assertion ran and none failed. A case with a
 * TODO reason (a known kernel bug) is reported as "# TODO reason".
 */
#ifndef BPFWIRE_COMMON_TAP_H
#define BPFWIRE_COMMON_TAP_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct tap_opts {
	bool verbose;		/* also print each passing assertion in a case */
	bool list_only;		/* tap_case_begin prints the name, returns false */
	const char *filter;	/* run only cases whose name contains it */
};
extern struct tap_opts tap_opts;

/* Records one assertion; detail (printf) is printed only when !ok. */
bool tap_check(bool ok, const char *name, int line, const char *detail, ...)
	__attribute__((format(printf, 4, 5)));

/* false when the case is filtered out (or only listed): skip its body. */
bool tap_case_begin(const char *name);
/* A known failure: the case is reported with "# TODO reason". */
void tap_case_todo(const char *reason);
void tap_case_end(void);

/* " (-EPERM)" for -4095..-1, "" otherwise: errno returns read by name. */
const char *tap_errname(long long v);

/* Prints the plan; exit status 1 when anything failed or nothing ran. */
int tap_done(void);
/* "1..0 # SKIP reason": the TAP way to say the test cannot run here. */
int tap_skip_all(const char *reason);
/*
 * mkdtemp() of BASE/PREFIX.XXXXXX (0700) into buf, NULL on failure. BASE is
 * a directory that only root or the caller can write, as a key file's whole
 * path must be (keyfile.h; /tmp is not): $BPFWIRE_TEST_PRIVATE_DIR, else
 * /run for root, else $XDG_RUNTIME_DIR, else $HOME.
 */
char *tap_private_dir(char *buf, size_t len, const char *prefix);

#define ASSERT_EQ(actual, expected, name) ({				\
	long long a_ = (long long)(actual), e_ = (long long)(expected); \
	tap_check(a_ == e_, name, __LINE__,				\
		  "actual %lld%s != expected %lld%s",			\
		  a_, tap_errname(a_), e_, tap_errname(e_)); })
#define ASSERT_NEQ(actual, unexpected, name) ({				\
	long long a_ = (long long)(actual), e_ = (long long)(unexpected); \
	tap_check(a_ != e_, name, __LINE__, "actual %lld%s == %lld",	\
		  a_, tap_errname(a_), e_); })
#define ASSERT_GE(actual, bound, name) ({				\
	long long a_ = (long long)(actual), b_ = (long long)(bound);	\
	tap_check(a_ >= b_, name, __LINE__, "actual %lld%s < expected >= %lld", \
		  a_, tap_errname(a_), b_); })
#define ASSERT_LE(actual, bound, name) ({				\
	long long a_ = (long long)(actual), b_ = (long long)(bound);	\
	tap_check(a_ <= b_, name, __LINE__, "actual %lld > expected <= %lld", \
		  a_, b_); })
#define ASSERT_OK(actual, name) ASSERT_EQ(actual, 0, name)
#define ASSERT_TRUE(cond, name)						\
	tap_check(!!(cond), name, __LINE__, "%s is false", #cond)
#define ASSERT_FALSE(cond, name)					\
	tap_check(!(cond), name, __LINE__, "%s is true", #cond)
#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *a_ = (actual), *e_ = (expected);			\
	tap_check(a_ && e_ && !strcmp(a_, e_), name, __LINE__,		\
		  "actual '%s' != expected '%s'", a_ ? a_ : "(null)",	\
		  e_ ? e_ : "(null)"); })
#define ASSERT_HAS(haystack, needle, name) ({				\
	const char *h_ = (haystack), *n_ = (needle);			\
	tap_check(h_ && strstr(h_, n_), name, __LINE__,			\
		  "'%s' not found in:\n%s", n_, h_ ? h_ : "(null)"); })
#define ASSERT_MEMEQ(actual, expected, len, name) ({			\
	size_t l_ = (len);						\
	tap_check(!memcmp((actual), (expected), l_), name, __LINE__,	\
		  "actual \"%.*s\" != expected \"%.*s\" (%zu bytes)",	\
		  (int)l_, (const char *)(actual), (int)l_,		\
		  (const char *)(expected), l_); })
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *p_ = (ptr);						\
	int en_ = errno;						\
	tap_check(p_ != NULL, name, __LINE__,				\
		  "actual NULL (errno %d%s) != expected pointer",	\
		  en_, tap_errname(-en_)); })

#endif /* BPFWIRE_COMMON_TAP_H */
