// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <string.h>

#include "escape.h"
#include "splat.h"

const char *const splat_patterns[] = {
	"BUG:", "WARNING:", "Oops", "Kernel panic", "general protection fault",
	"Call Trace:", "refcount_t:", "UBSAN:", "KASAN:", "hung_task",
	/* khungtaskd and the lockup detectors (debug.config) */
	"INFO: task", "blocked for more than", "soft lockup", "hard LOCKUP",
	"rcu_sched detected stall", "rcu: INFO:",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage",
	"possible irq lock inversion", "bad unlock balance",
	"lock held when returning to user space", "DEBUG_LOCKS_WARN_ON",
	"lockdep is turned off",
	"sleeping function called from invalid context",
	"unregister_netdevice: waiting for",
	/* the console lost records: a splat may be among them */
	"printk messages dropped",
};
const size_t splat_npatterns = sizeof(splat_patterns) / sizeof(splat_patterns[0]);

const char *splat_match(const char *line, size_t len)
{
	for (size_t i = 0; i < splat_npatterns; i++)
		if (memmem(line, len, splat_patterns[i], strlen(splat_patterns[i])))
			return splat_patterns[i];
	return NULL;
}

/* A quoted line stops at 512 bytes: a guest's 32 MiB line must not fill a summary. */
#define QUOTE_MAX 512

/*
 * A guest's line: escaped (escape.h), NULs included, so it cannot end the
 * quote or forge one. The serial console ends lines in CRLF: not quoted.
 */
static void quote_line(FILE *f, const char *line, size_t len)
{
	while (len && line[len - 1] == '\r')
		len--;
	fputs("    ", f);
	esc_fwrite(f, line, len < QUOTE_MAX ? len : QUOTE_MAX, 0);
	if (len > QUOTE_MAX)
		fprintf(f, " [%zu more bytes]", len - QUOTE_MAX);
	fputc('\n', f);
}

int splat_scan(const char *text, size_t len, FILE *quote, const char *label)
{
	const char *p = text, *end = text + len;
	int found = 0, after = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (splat_match(p, n)) {
			if (quote && !after)
				fprintf(quote, "%s: splat:\n", label ? label : "console");
			found++;
			after = 12;
		}
		if (quote && after > 0) {
			quote_line(quote, p, n);
			after--;
		}
		p += n + 1;
	}
	return found;
}
