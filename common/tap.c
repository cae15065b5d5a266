// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errnames.h"
#include "tap.h"

struct tap_opts tap_opts;

static int tap_n, tap_failed;
static struct {
	const char *name;
	const char *todo;
	int asserts, fails;
} cur;

/* A failure's detail on stdout and stderr: meson's error log of a TAP test (what CI prints) shows stderr only. */
static void print_detail(const char *detail, va_list ap)
{
	char buf[8192], *line, *save;

	vsnprintf(buf, sizeof(buf), detail, ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		printf("#   %s\n", line);
		fprintf(stderr, "#   %s\n", line);
	}
}

bool tap_check(bool ok, const char *name, int line, const char *detail, ...)
{
	va_list ap;

	if (cur.name) {
		cur.asserts++;
		if (!ok) {
			cur.fails++;
			printf("# %s:%d: %s: FAIL\n", cur.name, line, name);
			fprintf(stderr, "# %s:%d: %s: FAIL\n", cur.name, line, name);
		} else if (tap_opts.verbose) {
			printf("#   %s: ok\n", name);
		}
	} else {
		printf("%sok %d - %s\n", ok ? "" : "not ", ++tap_n, name);
		if (!ok) {
			fprintf(stderr, "not ok %d - %s\n", tap_n, name);
			tap_failed++;
		}
	}
	if (!ok) {
		va_start(ap, detail);
		print_detail(detail, ap);
		va_end(ap);
	}
	fflush(stdout);
	return ok;
}

bool tap_case_begin(const char *name)
{
	if (tap_opts.filter && !strstr(name, tap_opts.filter))
		return false;
	if (tap_opts.list_only) {
		printf("%s\n", name);
		return false;
	}
	memset(&cur, 0, sizeof(cur));
	cur.name = name;
	return true;
}

void tap_case_todo(const char *reason)
{
	cur.todo = reason;
}

void tap_case_end(void)
{
	bool ok = cur.asserts > 0 && cur.fails == 0;

	if (!cur.asserts)
		printf("# %s: no assertion ran\n", cur.name);
	printf("%sok %d - %s", ok ? "" : "not ", ++tap_n, cur.name);
	if (cur.todo)
		printf(" # TODO %s", cur.todo);
	printf("\n");
	fflush(stdout);
	/* A TODO case that passes counts too (meson: unexpected pass). */
	if (!ok != !!cur.todo)
		tap_failed++;
	memset(&cur, 0, sizeof(cur));
}

const char *tap_errname(long long v)
{
	static char buf[4][48];
	static int i;

	if (v >= 0 || v < -4095)
		return "";
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), " (-%s)", errno_name((int)-v));
	return buf[i];
}

int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_n == 0) {
		printf("# no test ran\n");
		return 1;
	}
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

int tap_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	return 0;
}

char *tap_private_dir(char *buf, size_t len, const char *prefix)
{
	const char *base = getenv("BPFWIRE_TEST_PRIVATE_DIR");

	if (!base || !*base)
		base = geteuid() == 0 ? "/run" : getenv("XDG_RUNTIME_DIR");
	if (!base || !*base)
		base = getenv("HOME");
	if (!base || !*base || (size_t)snprintf(buf, len, "%s/%s.XXXXXX", base, prefix) >= len)
		return NULL;
	return mkdtemp(buf);
}
