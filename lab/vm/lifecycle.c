// SPDX-License-Identifier: GPL-2.0-only
/*
 * A lab run, up and down: lab_up() claims a run id, lays out the results,
 * brings up the network (net.c), starts a QEMU per guest (qemu.c) and waits
 * until each answers on qemu-ga; lab_down() ends it all, whatever state it
 * was left in.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "console.h"
#include "errnames.h"
#include "file.h"
#include "guest.h"
#include "kseries.h"
#include "lab-config.h"
#include "lifecycle.h"
#include "log.h"
#include "model.h"
#include "net.h"
#include "netns.h"
#include "preflight.h"
#include "proc.h"
#include "qemu.h"
#include "qga.h"
#include "reaper.h"
#include "remote.h"
#include "share.h"
#include "state.h"
#include "sysrq.h"
#include "timeutil.h"
#include "topo/topo_prefix.h"
#include "topo/topology.h"
#include "util.h"

const char *lab_default_kernel(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("BPFWIRE_KERNEL");

	if (env && *env)
		return env;
	snprintf(path, sizeof(path), "%s/kernel/bzImage", BPFWIRE_BUILD_ROOT);
	if (!file_exists(path)) {
		/* a build dir configured with -Dkernel=disabled: the main one's */
		char alt[PATH_MAX];

		snprintf(alt, sizeof(alt), "%s/build/kernel/bzImage", BPFWIRE_SOURCE_ROOT);
		if (file_exists(alt))
			snprintf(path, sizeof(path), "%s", alt);
	}
	return path;
}

static bool valid_share_path(const char *p)
{
	for (; *p; p++)
		if (isspace((unsigned char)*p) || *p == '"' || *p == '\'' || *p == '\\')
			return false;
	return true;
}

static void progress(const struct lab_up_opts *o, double t0, const char *name, const char *what)
{
	if (!o->quiet)
		printf("[%6.2f s] %-12s %s\n", now_s() - t0, name, what);
	fflush(stdout);
}

/* The user that sudo ran the lab for: their own dirs are as safe as root's to them. */
static bool caller_uid(uid_t uid)
{
	const char *s = getenv("SUDO_UID");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return false;
	v = strtoul(s, &end, 10);
	return !*end && v == uid && uid != 0;
}

/*
 * Every directory above RUN (real, resolved), as OpenSSH's StrictModes
 * checks a home: root's (or the sudo caller's), and writable by no one
 * else unless it is root's and sticky (/tmp), where others can make
 * entries but not rename or remove root's. Otherwise whoever can write a
 * parent could swap RUN for a dir of theirs between runs, or under one.
 */
static int parents_safe(const char *real, char *why, size_t whylen)
{
	char parent[PATH_MAX], path[PATH_MAX], *s;
	size_t n;

	snprintf(parent, sizeof(parent), "%s", real);
	s = strrchr(parent, '/');
	if (!s)
		return 0;
	s[s == parent] = '\0';
	n = strlen(parent);
	for (size_t i = 0; i <= n; i++) {
		struct stat st;
		int fd;

		if (i < n && parent[i] != '/')
			continue;
		snprintf(path, sizeof(path), "%.*s", i ? (int)i : 1, parent);	/* "/", "/a", "/a/b" */
		fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			snprintf(why, whylen, "its parent %s: %s", path, errno_str(errno));
			if (fd >= 0)
				close(fd);
			return -EPERM;
		}
		close(fd);
		if (st.st_uid != 0 && !caller_uid(st.st_uid)) {
			snprintf(why, whylen, "its parent %s is owned by uid %u, not root: they could swap it",
				 path, (unsigned)st.st_uid);
			return -EPERM;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_uid == 0 && (st.st_mode & S_ISVTX))) {
			snprintf(why, whylen, "its parent %s is mode %04o, writable by others and not sticky: "
				 "they could swap it", path, (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
	}
	return 0;
}

int lab_claim_results(const char *dir, char *out, size_t len, char *why, size_t whylen)
{
	char path[PATH_MAX], real[PATH_MAX], *slash;
	struct stat st;
	int fd, e;

	if (!*dir || snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	while ((slash = strrchr(path, '/')) && slash != path && !slash[1])
		*slash = '\0';	/* "DIR/" is DIR */
	slash = strrchr(path, '/');
	if (slash && slash != path) {
		*slash = '\0';
		e = mkdir_p(path, 0755);
		if (e)
			return e;
		*slash = '/';
	}
	/* mkdir's EEXIST says someone was first: then it must be root's own */
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
		snprintf(why, whylen, "it must be a directory of root's that no one else can write, not a link");
		return -EPERM;
	}
	if (fd < 0)
		return -errno;
	e = fstat(fd, &st) ? -errno : 0;
	if (!e && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		snprintf(why, whylen, "it must be a directory of root's that no one else can write, not a link");
		e = -EPERM;
	}
	/*
	 * QEMU, as a user of no rights, reads setup.sh and the shares through
	 * RUN: a 0700 one (mktemp -d, umask 077) is made 0755, as ./results/ID is.
	 */
	if (!e && (st.st_mode & 0755) != 0755 && fchmod(fd, (st.st_mode & 07777) | 0755))
		e = -errno;
	close(fd);
	if (e)
		return e;
	/* the last component is no link, so realpath only resolves the parents */
	if (!realpath(path, real))
		return -errno;
	e = parents_safe(real, why, whylen);
	if (e)
		return e;
	return snprintf(out, len, "%s", real) >= (int)len ? -ENAMETOOLONG : 0;
}

/* Run id (attempt k of a generated one), netns, state dir and results dir; nothing is created yet. */
static int up_names(const struct lab_up_opts *o, const struct topology *t, struct lab_run *r, unsigned k)
{
	char path[PATH_MAX];

	if (o->run_id) {
		if (!lab_valid_id(o->run_id)) {
			pr_warn("bad run id '%s' (at most 24 of A-Z a-z 0-9 - _)", o->run_id);
			return LAB_EUSAGE;
		}
		snprintf(r->id, sizeof(r->id), "%s", o->run_id);
	} else {
		snprintf(r->id, sizeof(r->id), "%.16s-%04x", t->name,
			 (unsigned)(((getpid() + k * 40503u) * 2654435761u) ^ (unsigned)time(NULL)) & 0xffff);
		for (char *p = r->id; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '-')
				*p = '-';
	}
	snprintf(r->netns, sizeof(r->netns), "bpfwire-%s", r->id);
	snprintf(r->statedir, sizeof(r->statedir), "%s/%s", LAB_STATE_ROOT, r->id);
	if (o->results) {
		char why[PATH_MAX + 128] = "";
		int e = lab_claim_results(o->results, path, sizeof(path), why, sizeof(why));

		if (e) {
			pr_warn("results dir %s: %s%s", o->results, e == -EPERM ? "refused: " : "",
				e == -EPERM ? why : errno_str(e));
			return e == -EPERM ? LAB_EUSAGE : LAB_FAIL;
		}
		snprintf(r->results, sizeof(r->results), "%s", path);
	} else {
		if (!getcwd(path, sizeof(path)))
			return LAB_FAIL;
		if (snprintf(r->results, sizeof(r->results), "%s/results/%s", path, r->id) >=
		    (int)sizeof(r->results)) {
			pr_warn("results dir %s/results/%s is too long", path, r->id);
			return LAB_EUSAGE;
		}
	}
	if (!valid_share_path(r->results)) {
		pr_warn("results dir '%s' holds a space or quote; the guests' kernel command line can't carry it", r->results);
		return LAB_EUSAGE;
	}
	return LAB_OK;
}

/* Names of the segments, guests, NICs, sockets; the guests' dirs and setup.sh. */
static int up_guest_layout(const struct lab_up_opts *o, struct lab_run *r, const struct topology *t, int h)
{
	unsigned mib = o->share_mib ? o->share_mib : LAB_SHARE_DEFAULT_MIB;
	struct lab_guest *g = &r->guests[h];
	const struct topo_host *th = &t->hosts[h];
	char path[PATH_MAX];
	int e, ret;

	snprintf(g->name, sizeof(g->name), "%s", th->name);
	if (snprintf(g->dir, sizeof(g->dir), "%s/hosts/%s", r->results, th->name) >= (int)sizeof(g->dir) ||
	    snprintf(g->qmp, sizeof(g->qmp), "%s/%s.qmp", r->statedir, th->name) >= (int)sizeof(g->qmp) ||
	    snprintf(g->qga, sizeof(g->qga), "%s/%s.qga", r->statedir, th->name) >= (int)sizeof(g->qga) ||
	    snprintf(g->shell, sizeof(g->shell), "%s/%s.sh", r->statedir, th->name) >= (int)sizeof(g->shell)) {
		pr_warn("a path or socket path for %s is too long", th->name);
		return LAB_FAIL;
	}
	g->t_kernel = g->t_ready = -1;
	if (lab_guest_path(r, g->name, NULL, path, sizeof(path))) {
		pr_warn("the path of %s's lab files is too long", th->name);
		return LAB_FAIL;
	}
	e = mkdir_p(g->dir, 0755);
	if (!e)
		e = mkdir_p(path, 0755);
	if (!e)
		e = qemu_own_share(g->dir);
	if (e) {
		pr_warn("couldn't create %s or %s: %s", g->dir, path, errno_str(e));
		return LAB_FAIL;
	}
	/* a reused results dir: nothing a past guest left may answer this run */
	ret = dir_empty(g->dir);
	if (ret) {
		pr_warn("couldn't empty %s, the share of an earlier run: %s", g->dir, errno_str(ret));
		return LAB_FAIL;
	}
	/* what the guest writes has a size: a tmpfs until down copies it here */
	ret = share_mount(g->dir, (unsigned long long)mib << 20);
	if (ret == -EOPNOTSUPP) {
		/* Debian 12's own 6.1: the lab still runs, and says what it lacks */
		pr_warn("%s's share %s is not size-limited: this host kernel's tmpfs has no user xattrs, "
			"which QEMU's mapped-xattr needs (Linux 6.6 or later); only the 32 MiB a file cap holds",
			g->name, g->dir);
	} else if (ret) {
		pr_warn("couldn't mount %s's %u MiB share on %s: %s", g->name, mib, g->dir, errno_str(ret));
		return LAB_FAIL;
	}
	g->nnics = th->nnics;
	for (int n = 0; n < th->nnics; n++) {
		struct lab_nic *nic = &g->nics[n];

		snprintf(nic->ifname, sizeof(nic->ifname), "%s", th->nics[n].ifname);
		snprintf(nic->tap, sizeof(nic->tap), "tap%d-%d", h, n);
		snprintf(nic->segment, sizeof(nic->segment), "%s", t->segments[th->nics[n].segment].name);
		snprintf(nic->device, sizeof(nic->device), "nic%d", n);
		topo_format_mac(th->nics[n].mac, nic->mac);
	}
	if (guest_write_setup(r, t, h)) {
		pr_warn("couldn't write %s/setup.sh: %s", path, errno_str(errno));
		return LAB_FAIL;
	}
	return LAB_OK;
}

/*
 * The results tree and the run's layout; the first phase that needs
 * teardown. t is the whole topology, gt its guests (what boots).
 */
static int up_layout(const struct lab_up_opts *o, const struct topology *t, const struct topology *gt,
		     struct lab_run *r)
{
	char path[PATH_MAX + 32], *text;

	if (mkdir_p(r->statedir, 0700) || mkdir_p(r->results, 0755)) {
		pr_warn("couldn't create %s or %s: %s", r->statedir, r->results, errno_str(errno));
		return LAB_FAIL;
	}
	snprintf(path, sizeof(path), "%s/segments", r->results);
	mkdir_p(path, 0755);
	text = read_user_file(t->path, NULL);
	snprintf(path, sizeof(path), "%s/topology.topo", r->results);
	if (text)
		write_file(path, text);
	free(text);
	r->nsegments = t->nsegments;
	for (int s = 0; s < t->nsegments; s++) {
		struct lab_segment *seg = &r->segments[s];

		snprintf(seg->name, sizeof(seg->name), "%s", t->segments[s].name);
		snprintf(seg->bridge, sizeof(seg->bridge), "br-%s", seg->name);
		if (snprintf(seg->pcap, sizeof(seg->pcap), "%s/segments/%s.pcap", r->results, seg->name) >=
		    (int)sizeof(seg->pcap)) {
			pr_warn("the pcap path of segment %s is too long", seg->name);
			return LAB_FAIL;
		}
	}
	/* before the guests' setup.sh: it carries the segments' MTUs */
	if (remote_layout(r, t, o->part))
		return LAB_FAIL;
	r->nguests = gt->nhosts;
	for (int h = 0; h < gt->nhosts; h++)
		if (up_guest_layout(o, r, gt, h))
			return LAB_FAIL;
	lab_save(r);
	if (!o->quiet)
		printf("run %s: netns %s, results %s\n", r->id, r->netns, r->results);
	return LAB_OK;
}

static int up_accel(const struct lab_up_opts *o, struct lab_run *r)
{
	char why[256];

	qemu_choose_accel(r, o->accel, why, sizeof(why));
	if (lab_interrupted)
		return LAB_FAIL;
	if (!o->quiet)
		printf("accel: %s (%s)\n", r->accel, why);
	return LAB_OK;
}

static int up_start_guests(const struct lab_up_opts *o, const struct topology *t, struct lab_run *r,
			   double tq)
{
	for (int h = 0; h < r->nguests; h++) {
		struct lab_guest *g = &r->guests[h];
		pid_t pid = qemu_start(r, t, h, o->append);

		if (pid < 0) {
			pr_warn("couldn't start QEMU for %s: %s", g->name, errno_str(pid));
			return LAB_FAIL;
		}
		g->pid = pid;
		g->start = proc_starttime(pid);
		lab_add_proc(r, "qemu", g->name, pid);
		progress(o, tq, g->name, "starting");
	}
	lab_save(r);
	return LAB_OK;
}

#define STAGE_FAILED_MAX 65536

bool guest_init_failed(const struct lab_guest *g)
{
	char path[PATH_MAX + 32], *text, *p;

	snprintf(path, sizeof(path), "%s/stage.failed", g->dir);
	/* one line is all it may say: no guest makes us read megabytes each poll */
	text = read_file_max(path, NULL, STAGE_FAILED_MAX);
	if (!text && errno == EFBIG) {
		pr_warn("%s: boot failed, guest-init's stage.failed is over %d bytes, not read "
			"(every failure: %s/init.log)", g->name, STAGE_FAILED_MAX, g->dir);
		return true;
	}
	if (!text || !*text) {	/* not yet, or still being written */
		free(text);
		return false;
	}
	for (p = text; *p && *p != '\n' && p - text < 480; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	*p = '\0';
	pr_warn("%s: boot failed, guest-init's setup failed: %s (every failure: %s/init.log)",
		g->name, text, g->dir);
	free(text);
	return true;
}

/* One look at a booting guest: 1 ready, 0 not yet, -1 failed. */
static int guest_poll(const struct lab_up_opts *o, const struct lab_run *r, struct lab_guest *g,
		      double tq)
{
	double t = now_s() - tq;
	char path[PATH_MAX + 32];
	struct qga q;

	if (guest_init_failed(g))
		return -1;
	if (!proc_alive(g->pid, g->start)) {
		pr_warn("%s: QEMU (pid %d) ended before the guest was ready", g->name, g->pid);
		console_tail(r, g, 25);
		return -1;
	}
	if (g->t_kernel < 0) {
		snprintf(path, sizeof(path), "%s/stage.kernel-up", g->dir);
		if (file_exists(path)) {
			g->t_kernel = t;
			progress(o, tq, g->name, "kernel up");
		}
	}
	if (g->t_kernel >= 0) {
		snprintf(path, sizeof(path), "%s/stage.ready", g->dir);
		/* ready means qemu-ga answers, not just that guest-init said so */
		if (file_exists(path) && !qga_open(&q, g->qga, 2000)) {
			qga_close(&q);
			g->t_ready = now_s() - tq;
			progress(o, tq, g->name, "ready");
			return 1;
		}
	}
	if (t > o->timeout_s) {
		pr_warn("%s: not ready after %d s (%s)", g->name, o->timeout_s,
			g->t_kernel < 0 ? "guest-init never started" : "guest-init never signalled ready");
		lab_sysrq_dump(r, g->name, "not ready by the boot deadline");
		console_tail(r, g, 25);
		return -1;
	}
	return 0;
}

static int up_wait_ready(const struct lab_up_opts *o, struct lab_run *r, double tq)
{
	int ready = 0;

	while (ready < r->nguests) {
		if (lab_interrupted)
			return LAB_FAIL;
		reap_children();
		for (int h = 0; h < r->nguests; h++) {
			int st;

			if (r->guests[h].t_ready >= 0)
				continue;
			st = guest_poll(o, r, &r->guests[h], tq);
			if (st < 0)
				return LAB_FAIL;
			ready += st;
		}
		if (ready < r->nguests)
			sleep_ms(20);
	}
	r->boot_s = now_s() - tq;
	for (int h = 0; h < r->nguests; h++)
		r->guests[h].rss_kib = proc_rss_kib(r->guests[h].pid);
	snprintf(r->status, sizeof(r->status), "ready");
	lab_save(r);
	if (!o->quiet)
		printf("run %s ready: %d guest%s in %.2f s (%s); `bpfwire-lab down --run %s` ends it\n",
		       r->id, r->nguests, r->nguests == 1 ? "" : "s", r->boot_s, r->accel, r->id);
	return LAB_OK;
}

/* The phases after the run is claimed; any failure is torn down by lab_up. */
static int up_boot(const struct lab_up_opts *o, const struct topology *t, struct lab_run *r)
{
	struct topology *gt = remote_guests_only(t, o->part);
	double tq;
	int ret;

	if (!gt)
		return LAB_FAIL;
	ret = up_layout(o, t, gt, r);
	/* a remote that does not answer fails up before anything boots */
	if (!ret && remote_check(r, o->quiet))
		ret = LAB_FAIL;
	if (!ret && net_up(r, gt, o->capture))
		ret = LAB_FAIL;
	if (!ret && remote_up(r, t, o->capture))
		ret = LAB_FAIL;
	if (!ret)
		ret = up_accel(o, r);
	tq = now_s();
	if (!ret)
		ret = up_start_guests(o, gt, r, tq);
	if (!ret)
		ret = up_wait_ready(o, r, tq);
	free(gt);
	return ret;
}

/*
 * Take the run id: one mkdir() of its state dir, which fails on EEXIST, so
 * of two `up --run ID` exactly one wins and the other touches nothing of
 * the winner's. A generated id that is taken (or whose default results dir
 * exists) is drawn again.
 */
static int claim_run(const struct lab_up_opts *o, const struct topology *t, struct lab_run *r)
{
	for (unsigned k = 0; k < 16; k++) {
		int ret = up_names(o, t, r, k);

		if (ret)
			return ret;
		if (!o->run_id && !o->results && file_exists(r->results))
			continue;
		ret = mkdir_p(LAB_STATE_ROOT, 0755);
		if (ret) {
			pr_warn("couldn't create %s: %s", LAB_STATE_ROOT, errno_str(ret));
			return LAB_FAIL;
		}
		if (mkdir(r->statedir, 0700)) {
			int e = errno;

			if (e == EEXIST && !o->run_id)
				continue;
			if (e != EEXIST) {
				pr_warn("couldn't create %s: %s", r->statedir, errno_str(e));
				return LAB_FAIL;
			}
			pr_warn("run %s is already up or coming up (%s exists): pick another --run, "
				"or end it with `bpfwire-lab down --run %s`", r->id, r->statedir, r->id);
			return LAB_EUSAGE;
		}
		if (!o->results) {	/* ./results/ID, claimed like --results */
			char real[PATH_MAX], why[PATH_MAX + 128] = "";

			ret = lab_claim_results(r->results, real, sizeof(real), why, sizeof(why));
			if (ret) {
				rmdir(r->statedir);
				pr_warn("results dir %s: %s%s", r->results, ret == -EPERM ? "refused: " : "",
					ret == -EPERM ? why : errno_str(ret));
				return ret == -EPERM ? LAB_EUSAGE : LAB_FAIL;
			}
			snprintf(r->results, sizeof(r->results), "%s", real);
		}
		if (netns_exists(r->netns)) {
			/* not ours to delete: a crashed run's, for `down --all` */
			rmdir(r->statedir);
			pr_warn("netns %s exists without a run: `bpfwire-lab down --all` removes it", r->netns);
			return LAB_FAIL;
		}
		return LAB_OK;
	}
	pr_warn("couldn't find a free run id for %s: pass --run ID", t->name);
	return LAB_FAIL;
}

/* The reaper's teardown: the state file knows the pids; before it exists, the names suffice. */
static void reap_teardown(struct lab_run *snap)
{
	struct lab_run *r = NULL;

	if (lab_open(snap->id, &r) == LAB_OK)
		snap = r;
	snprintf(snap->status, sizeof(snap->status), "failed");
	lab_down(snap, false);
}

int lab_up(const struct lab_up_opts *o, const struct topology *t, struct lab_run **out)
{
	struct lab_run *r = calloc(1, sizeof(*r));
	struct lab_up_opts oo = *o;
	char rel[128], err[256];
	bool claimed = false;
	int ret;

	*out = NULL;
	if (!r)
		return LAB_FAIL;
	r->guard_fd = -1;
	snprintf(r->status, sizeof(r->status), "booting");	/* "ready" only at the end */
	snprintf(r->kernel, sizeof(r->kernel), "%s", o->kernel ? o->kernel : lab_default_kernel());
	ret = lab_preflight(o, t, r->kernel) ? LAB_FAIL : claim_run(o, t, r);
	/* A KASAN kernel boots an order of magnitude slower under TCG. */
	if (!ret && !kseries_bzimage_release(r->kernel, rel, sizeof(rel), err, sizeof(err))) {
		oo.timeout_s = kseries_boot_timeout(rel, o->timeout_s);
		if (oo.timeout_s != o->timeout_s)
			pr_info("%s is a KASAN kernel: boot deadline %d s instead of %d s", rel,
				oo.timeout_s, o->timeout_s);
	}
	o = &oo;
	if (!ret) {
		/* From here on the run is ours: every failure goes through teardown. */
		claimed = true;
		ret = guard_start(r, reap_teardown);
	}
	if (!ret) {
		if (!realpath(t->path, r->topology))
			snprintf(r->topology, sizeof(r->topology), "%s", t->path);
		snprintf(r->topo_name, sizeof(r->topo_name), "%s", t->name);
		snprintf(r->underlay, sizeof(r->underlay), "%s", o->underlay_netns ? o->underlay_netns : "");
		if (o->ssh_config && !realpath(o->ssh_config, r->ssh_config))
			snprintf(r->ssh_config, sizeof(r->ssh_config), "%s", o->ssh_config);
		r->created = time(NULL);
		ret = up_boot(o, t, r);
	}
	if (!ret) {
		*out = r;
		return LAB_OK;
	}
	if (claimed) {
		if (lab_interrupted)
			pr_warn("interrupted: tearing run %s down", r->id);
		snprintf(r->status, sizeof(r->status), "failed");
		if (file_exists(r->statedir))
			lab_save(r);
		lab_down(r, o->quiet);
	}
	free(r);
	return ret;
}

int lab_down(struct lab_run *r, bool quiet)
{
	char err[1024], path[PATH_MAX + 32];
	int splats = 0, ret = 0;
	FILE *f;

	/*
	 * While the QEMUs live: SysRq h proves each console live. A run that
	 * had already failed (up, the reaper) is spared the wait.
	 */
	if (strcmp(r->status, "failed")) {
		lab_prove_consoles(r);
	} else {
		for (int h = 0; h < r->nguests; h++)
			r->guests[h].console_proof = LAB_CONSOLE_SKIPPED;
	}
	/* first the remote hosts: their tcpdumps flush through ssh, their VXLANs go */
	if (remote_down(r))
		ret = LAB_FAIL;
	/* LIFO: QEMUs, then tcpdump (flushes on SIGTERM), then dnsmasq */
	for (int i = r->nprocs - 1; i >= 0; i--) {
		struct lab_proc *p = &r->procs[i];

		/* no start time, no identity: that pid may be anyone's by now */
		if (!p->start) {
			if (p->pid > 0)
				pr_warn("not signalling %s %s (pid %d): no start time recorded", p->role, p->name, p->pid);
			continue;
		}
		if (!proc_alive(p->pid, p->start))
			continue;
		if (proc_kill(p->pid, p->start, 3000)) {
			pr_warn("couldn't end %s %s (pid %d)", p->role, p->name, p->pid);
			ret = LAB_FAIL;
		}
	}
	reap_children();
	/* the QEMUs are gone: each share's tmpfs back onto the results' disk */
	for (int h = 0; h < r->nguests; h++) {
		int e = share_unmount(r->guests[h].dir);

		if (e) {
			pr_warn("couldn't keep %s's share %s on disk: %s", r->guests[h].name, r->guests[h].dir,
				errno_str(e));
			ret = LAB_FAIL;
		}
	}
	if (r->netns[0] && netns_delete(r->netns, err, sizeof(err))) {
		pr_warn("couldn't delete netns %s: %s", r->netns, err);
		ret = LAB_FAIL;
	}
	/* after the QEMUs ended: the whole console, up to the guest's last word */
	if (r->results[0]) {
		lab_console_gaps(r);
		char *text = NULL;
		size_t len = 0;
		FILE *mf = open_memstream(&text, &len);

		/* one scan, quoted both in RUN/splats.txt and on stderr */
		splats = lab_scan_splats(r, mf ? mf : stderr);
		if (mf)
			fclose(mf);
		snprintf(path, sizeof(path), "%s/splats.txt", r->results);
		if (splats && text) {
			f = share_fopen(r->results, "splats.txt");	/* never through a link */
			if (f) {
				fputs(text, f);
				fclose(f);
			}
			fputs(text, stderr);
		} else {
			unlink(path);
		}
		free(text);
	}
	if (r->statedir[0] && file_exists(r->statedir)) {
		/* keep a last copy of the state with the results */
		if (strcmp(r->status, "failed"))
			snprintf(r->status, sizeof(r->status), "down");
		if (r->results[0] && file_exists(r->results))
			lab_save(r);
		rm_rf(r->statedir);
	}
	guard_release(r, 'D');
	for (int h = 0; !quiet && h < r->nguests; h++)
		if (r->guests[h].console_proof == LAB_CONSOLE_LIVE)
			printf("%s: console proven live: %s\n", r->guests[h].name,
			       r->guests[h].console_why);
	if (!quiet)
		printf("run %s down%s%s\n", r->id,
		       splats ? ": kernel splats (or a console with no evidence) found, see " : "",
		       splats ? path : "");
	if (splats)
		ret = LAB_FAIL;
	return ret;
}


int lab_down_all(bool quiet)
{
	char ids[64][LAB_RUN_ID_MAX + 1], names[64][64], err[1024];
	int n = lab_run_ids(ids, 64), m, ret = 0;

	for (int i = 0; i < n; i++) {
		struct lab_run *r;
		char p[PATH_MAX];

		if (lab_open(ids[i], &r)) {
			snprintf(p, sizeof(p), "%s/%s", LAB_STATE_ROOT, ids[i]);
			rm_rf(p);
			continue;
		}
		ret |= lab_down(r, quiet);
		lab_free(r);
	}
	m = netns_list("bpfwire-", names, 64);
	for (int i = 0; i < m; i++) {
		if (!quiet)
			printf("orphan netns %s: deleting\n", names[i]);
		if (netns_delete(names[i], err, sizeof(err))) {
			pr_warn("%s", err);
			ret = LAB_FAIL;
		}
	}
	return ret;
}
