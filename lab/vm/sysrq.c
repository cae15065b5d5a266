// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest that missed its deadline leaves its stacks before the lab kills
 * it: SysRq w (the tasks blocked in D state) and l (every CPU's backtrace),
 * pressed on its PS/2 keyboard through QMP, land on its console, which the
 * splat scan reads after teardown. The guest can refuse (kernel.sysrq=0, a
 * kernel without MAGIC_SYSRQ): the console then says nothing more, and the
 * lab says so.
 *
 * At every teardown SysRq h proves each console live: a console that guest
 * root removed, or a kernel.sysrq of 0, leaves no banner, and a clean scan
 * of such a console is no evidence.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"
#include "errnames.h"
#include "log.h"
#include "model.h"
#include "proc.h"
#include "qmp.h"
#include "sysrq.h"
#include "timeutil.h"
#include "topo/topology.h"
#include "util.h"

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

/*
 * One guest's console from where it stood before the press. The banner is
 * looked for only in what came after; a carry keeps one that straddles two
 * reads.
 */
struct proof {
	int fd;
	off_t off;
	char carry[sizeof(LAB_PROOF_BANNER)];
	size_t ncarry;
	double pressed;		/* now_s() of the press; 0: not pressed */
	double seen;		/* seconds after the press; -1: not yet */
};

static void proof_read(struct proof *p)
{
	char buf[sizeof(p->carry) + 65536];
	size_t blen = sizeof(LAB_PROOF_BANNER) - 1;
	ssize_t n;

	/* a guest that prints without end is read at most 8 MiB a round */
	for (int i = 0; i < 128 && p->seen < 0; i++) {
		memcpy(buf, p->carry, p->ncarry);
		n = pread(p->fd, buf + p->ncarry, sizeof(buf) - p->ncarry, p->off);
		if (n <= 0)
			return;
		p->off += n;
		n += (ssize_t)p->ncarry;
		if (memmem(buf, (size_t)n, LAB_PROOF_BANNER, blen)) {
			p->seen = now_s() - p->pressed;
			return;
		}
		p->ncarry = (size_t)n < blen - 1 ? (size_t)n : blen - 1;
		memcpy(p->carry, buf + n - (ssize_t)p->ncarry, p->ncarry);
	}
}

static int press_h(const struct lab_guest *g, char *why, size_t len)
{
	char err[512];
	struct qmp q;
	int ret = qmp_open(&q, g->qmp, 2000);

	if (ret) {
		snprintf(why, len, "QMP (%s) did not answer for SysRq h: %s", g->qmp, errno_str(ret));
		return -1;
	}
	ret = qmp_sysrq(&q, 'h', err, sizeof(err));
	qmp_close(&q);
	if (ret)
		snprintf(why, len, "SysRq h through QMP: %.200s", err);
	return ret;
}

void lab_prove_consoles(struct lab_run *r)
{
	struct proof p[TOPO_MAX_HOSTS];
	double t0;
	int waiting = 0;

	for (int h = 0; h < r->nguests && h < TOPO_MAX_HOSTS; h++) {
		struct lab_guest *g = &r->guests[h];
		char path[PATH_MAX + 32];
		struct stat st;

		p[h] = (struct proof){ .fd = -1, .seen = -1 };
		if (g->pid <= 0)
			continue;	/* never started: no console to prove (the scan skips it) */
		g->console_proof = LAB_CONSOLE_NO_EVIDENCE;
		if (!proc_alive(g->pid, g->start)) {
			snprintf(g->console_why, sizeof(g->console_why),
				 "its QEMU had ended before teardown, so SysRq could not prove the console live");
			continue;
		}
		lab_console_path(r, g, path, sizeof(path));
		p[h].fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (p[h].fd < 0 || fstat(p[h].fd, &st)) {
			snprintf(g->console_why, sizeof(g->console_why), "its console file: %s",
				 errno_str(errno));
			continue;
		}
		p[h].off = st.st_size;
		if (press_h(g, g->console_why, sizeof(g->console_why)))
			continue;
		p[h].pressed = now_s();
		waiting++;
	}
	/* one wait for all guests: a live one answers in well under a second */
	t0 = now_s();
	while (waiting && now_s() - t0 < LAB_PROOF_WAIT_S && !lab_interrupted) {
		sleep_ms(100);
		waiting = 0;
		for (int h = 0; h < r->nguests && h < TOPO_MAX_HOSTS; h++) {
			if (!p[h].pressed || p[h].seen >= 0)
				continue;
			proof_read(&p[h]);
			waiting += p[h].seen < 0;
		}
	}
	for (int h = 0; h < r->nguests && h < TOPO_MAX_HOSTS; h++) {
		struct lab_guest *g = &r->guests[h];

		if (p[h].fd >= 0)
			close(p[h].fd);
		if (!p[h].pressed)
			continue;
		if (p[h].seen >= 0) {
			g->console_proof = LAB_CONSOLE_LIVE;
			snprintf(g->console_why, sizeof(g->console_why),
				 "SysRq h's banner \"%s\" reached the console %.1f s after the press",
				 LAB_PROOF_BANNER, p[h].seen);
		} else {
			snprintf(g->console_why, sizeof(g->console_why),
				 "SysRq h's banner \"%s\" did not reach the console within %d s%s: guest "
				 "root removed the console (ttyS0's console off, 8250 unbound) or set "
				 "kernel.sysrq to 0, or the kernel has no MAGIC_SYSRQ",
				 LAB_PROOF_BANNER, LAB_PROOF_WAIT_S,
				 lab_interrupted ? " (interrupted)" : "");
		}
	}
}
