// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest that missed its deadline leaves its stacks before the lab kills
 * it: SysRq w (the tasks blocked in D state) and l (every CPU's backtrace),
 * pressed on its PS/2 keyboard through QMP, land on its console, which the
 * splat scan reads after teardown. The guest can refuse (kernel.sysrq=0, a
 * kernel without MAGIC_SYSRQ): the console then says nothing more, and the
 * lab says so.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "errnames.h"
#include "lab.h"
#include "log.h"
#include "qmp.h"

static long long console_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/*
 * Waits for the console to grow, then to stay quiet for half a second (a
 * TCG guest prints a long dump slowly); at most 8 s. True if it grew.
 */
static bool console_settle(const char *path, long long before)
{
	double t0 = now_s(), quiet_since = t0;
	long long last = before;
	bool grew = false;

	while (now_s() - t0 < 8 && !lab_interrupted) {
		long long n;

		sleep_ms(100);
		n = console_size(path);
		if (n != last) {
			last = n;
			grew = true;
			quiet_since = now_s();
		} else if (grew ? now_s() - quiet_since >= 0.5 : now_s() - t0 >= 3) {
			break;
		}
	}
	return grew;
}

static void dump_guest(const struct lab_run *r, const struct lab_guest *g, const char *why)
{
	char path[PATH_MAX + 32], err[512], heard[3] = "";
	size_t nheard = 0;
	struct qmp q;
	int ret;

	if (!proc_alive(g->pid, g->start))
		return;
	lab_console_path(r, g, path, sizeof(path));
	ret = qmp_open(&q, g->qmp, 2000);
	if (ret) {
		pr_warn("%s: %s, but QMP %s did not answer for SysRq: %s", g->name, why, g->qmp,
			errno_str(ret));
		return;
	}
	for (const char *k = "wl"; *k; k++) {
		long long before = console_size(path);

		if (qmp_sysrq(&q, *k, err, sizeof(err))) {
			pr_warn("%s: SysRq %c: %s", g->name, *k, err);
			break;
		}
		if (console_settle(path, before))
			heard[nheard++] = *k;
	}
	qmp_close(&q);
	if (nheard == 2)
		pr_warn("%s: %s: sent SysRq w and l, the blocked tasks' and CPUs' stacks are in %s",
			g->name, why, path);
	else
		pr_warn("%s: %s: sent SysRq w and l, but its console (%s) did not grow after%s%s "
			"(kernel.sysrq off in the guest, or a kernel without MAGIC_SYSRQ?)",
			g->name, why, path, strchr(heard, 'w') ? "" : " w",
			strchr(heard, 'l') ? "" : " l");
}

void lab_sysrq_dump(const struct lab_run *r, const char *host, const char *why)
{
	for (int h = 0; h < r->nguests; h++)
		if (!host || !strcmp(host, r->guests[h].name))
			dump_guest(r, &r->guests[h], why);
}
