// SPDX-License-Identifier: GPL-2.0-only
/*
 * Remote hosts: real machines reached over SSH (remote_ssh.c), each NIC
 * joined to its segment by a VXLAN. The lab's end is made in the underlay
 * netns (where the remote is reachable), moved into the run's netns and
 * enslaved to the segment's bridge; the remote's end is made over SSH with
 * the topology's addresses. Both are recorded in the state file before they
 * exist, so `down` removes them whoever killed the lab.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "file.h"
#include "log.h"
#include "model.h"
#include "netns.h"
#include "proc.h"
#include "qga.h"
#include "remote.h"
#include "remote_ssh.h"
#include "splat.h"
#include "state.h"
#include "timeutil.h"
#include "topo/topo_lookup.h"
#include "topo/topo_prefix.h"
#include "topo/topology.h"
#include "util.h"

#define VXLAN_PORT 4789
/* outer Ethernet 14 + IP 20|40 + UDP 8 + VXLAN 8 under a 1500-byte underlay */
#define VXLAN_MTU_V4 1450
#define VXLAN_MTU_V6 1430

struct topology *remote_guests_only(const struct topology *t, const char *part)
{
	struct topology *g = malloc(sizeof(*g));

	if (!g)
		return NULL;
	*g = *t;
	g->nhosts = 0;
	for (int h = 0; h < t->nhosts; h++) {
		const struct topo_host *th = &t->hosts[h];

		if (th->remote.on || (part && strcmp(t->parts[th->part].name, part)))
			continue;
		g->hosts[g->nhosts++] = *th;
	}
	return g;
}

/* FNV-1a of the run id: the VNIs of a run, the same in every process. */
static unsigned run_hash(const char *id)
{
	unsigned h = 2166136261u;

	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h;
}

static bool part_on_segment(const struct topology *t, int part, int s)
{
	for (int h = 0; h < t->nhosts; h++)
		for (int n = 0; n < t->hosts[h].nnics; n++)
			if (t->hosts[h].part == part && t->hosts[h].nics[n].segment == s)
				return true;
	return false;
}

/*
 * up --part: one VXLAN per (segment, other part) where both parts have a
 * host. Both machines derive the VNI from the topology's content (segment,
 * both parts and their addresses, in file order), not from their run ids.
 */
static int layout_links(struct lab_run *r, const struct topology *t, const char *part)
{
	int me = -1;

	for (int i = 0; i < t->nparts; i++)
		if (!strcmp(t->parts[i].name, part))
			me = i;
	if (me < 0)
		return -1;
	snprintf(r->part, sizeof(r->part), "%s", part);
	for (int s = 0; s < t->nsegments; s++)
		for (int q = 0; q < t->nparts; q++) {
			const struct topo_part *a = &t->parts[q < me ? q : me], *b = &t->parts[q < me ? me : q];
			struct lab_tunnel *tn = &r->links[r->nlinks];
			char key[256];

			if (q == me || !part_on_segment(t, me, s) || !part_on_segment(t, q, s))
				continue;
			snprintf(key, sizeof(key), "%s|%s|%s|%s|%s", t->segments[s].name, a->name, a->addr,
				 b->name, b->addr);
			snprintf(tn->segment, sizeof(tn->segment), "%s", t->segments[s].name);
			snprintf(tn->ifname, sizeof(tn->ifname), "part-%s", t->parts[q].name);
			snprintf(tn->peer, sizeof(tn->peer), "%s", t->parts[q].addr);
			tn->vni = run_hash(key) % 0xfffffeu + 1;
			snprintf(tn->dev, sizeof(tn->dev), "vp%06x", tn->vni);
			tn->mtu = t->parts[q].family == AF_INET ? VXLAN_MTU_V4 : VXLAN_MTU_V6;
			if (!r->segments[s].mtu || tn->mtu < r->segments[s].mtu)
				r->segments[s].mtu = tn->mtu;
			r->nlinks++;
		}
	return 0;
}

static void layout_tunnels(struct lab_run *r, const struct topology *t, const struct topo_host *h,
			   struct lab_remote *m, unsigned *k)
{
	m->ntunnels = h->nnics;
	for (int n = 0; n < h->nnics; n++) {
		struct lab_tunnel *tn = &m->tunnels[n];
		struct lab_segment *seg = &r->segments[h->nics[n].segment];

		snprintf(tn->ifname, sizeof(tn->ifname), "%s", h->nics[n].ifname);
		snprintf(tn->segment, sizeof(tn->segment), "%s", t->segments[h->nics[n].segment].name);
		/* 1..0xfffffe, one per (segment, remote host) of the run */
		tn->vni = (run_hash(r->id) + (*k)++) % 0xfffffeu + 1;
		snprintf(tn->dev, sizeof(tn->dev), "vx%06x", tn->vni);
		topo_format_mac(h->nics[n].mac, tn->mac);
		tn->mtu = h->remote.family == AF_INET ? VXLAN_MTU_V4 : VXLAN_MTU_V6;
		/* the segment's MTU is lowered to the tunnel's, in every guest too */
		if (!seg->mtu || tn->mtu < seg->mtu)
			seg->mtu = tn->mtu;
	}
}

int remote_layout(struct lab_run *r, const struct topology *t, const char *part)
{
	char buf[PATH_MAX + 64];
	unsigned k = 0;
	int e;

	r->nremotes = 0;
	r->nlinks = 0;
	if (part && layout_links(r, t, part))
		return -1;
	for (int hi = 0; hi < t->nhosts; hi++) {
		const struct topo_host *h = &t->hosts[hi];
		struct lab_remote *m;

		if (!h->remote.on)
			continue;
		if (r->nremotes == LAB_MAX_REMOTES) {
			pr_warn("at most %d remote hosts per run", LAB_MAX_REMOTES);
			return -1;
		}
		m = &r->remotes[r->nremotes++];
		memset(m, 0, sizeof(*m));
		snprintf(m->name, sizeof(m->name), "%s", h->name);
		snprintf(m->user, sizeof(m->user), "%s", h->remote.user);
		snprintf(m->addr, sizeof(m->addr), "%s", h->remote.addr);
		snprintf(m->key, sizeof(m->key), "%s", h->remote.key);
		m->port = h->remote.port;
		/* its dir there (rbase, rdir) is mktemp's, made at up: remote_mkdir */
		if (snprintf(buf, sizeof(buf), "%s/hosts/%s", r->results, h->name) >= (int)sizeof(m->dir) ||
		    mkdir_p(buf, 0755)) {
			pr_warn("couldn't create %s/hosts/%s: %s", r->results, h->name, errno_str(errno));
			return -1;
		}
		/* a reused results dir: no stale fetched report may answer this run */
		e = dir_empty(buf);
		if (e) {
			pr_warn("couldn't empty %s, the share of an earlier run: %s", buf, errno_str(e));
			return -1;
		}
		snprintf(m->dir, sizeof(m->dir), "%.4095s", buf);
		layout_tunnels(r, t, h, m, &k);
	}
	return 0;
}

/* ssh://USER@ADDR:PORT, for messages. */
static const char *url(const struct lab_remote *m)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), strchr(m->addr, ':') ? "ssh://%s@[%s]:%u" : "ssh://%s@%s:%u",
		 m->user, m->addr, m->port);
	return buf;
}

/* SSH_CONNECTION (the lab's address as the remote sees it), uptime, root. */
static int check_one(struct lab_run *r, struct lab_remote *m, bool quiet)
{
	struct argv a = { 0 };
	struct qga_result res;
	char cmd[REMOTE_LINE_MAX], line[512], *p;
	int ret = -1, st;

	argv_add(&a, "check");
	if (remote_side_line(&a, cmd, sizeof(cmd)))
		return -1;
	st = ssh_run(r, m, cmd, 8000, NULL, &res);

	ssh_last_line(&res, line, sizeof(line));
	if (st == -ETIMEDOUT)
		pr_warn("remote host %s (%s): no answer over SSH in 8 s (underlay netns %s)", m->name,
			url(m), r->underlay[0] ? r->underlay : "the root one");
	else if (st < 0 || !res.exited || res.exitcode)
		pr_warn("remote host %s (%s): SSH failed (exit %d): %s", m->name, url(m), res.exitcode,
			line[0] ? line : "no message");
	else if (!(p = strstr(res.out, "conn ")) || sscanf(p, "conn %63s", m->lab_addr) != 1)
		pr_warn("remote host %s (%s): no SSH_CONNECTION in its environment", m->name, url(m));
	else if (!(p = strstr(res.out, "uptime ")) || sscanf(p, "uptime %lf", &m->uptime0) != 1)
		pr_warn("remote host %s (%s): couldn't read its /proc/uptime", m->name, url(m));
	else if (!strstr(res.out, "have-ip"))
		pr_warn("remote host %s (%s): no `ip` (iproute2) there", m->name, url(m));
	else if (!strstr(res.out, "have-nft"))
		pr_warn("remote host %s (%s): no `nft` (nftables) there: its VXLAN end would take frames from anyone",
			m->name, url(m));
	else if (!strstr(res.out, "have-root"))
		pr_warn("remote host %s (%s): %s is not root and `sudo -n` fails: the VXLAN needs root there",
			m->name, url(m), m->user);
	else
		ret = 0;
	if (!ret && !quiet)
		printf("remote %s: %s answers; the lab's underlay address there is %s\n", m->name, url(m),
		       m->lab_addr);
	qga_result_free(&res);
	return ret;
}

int remote_check(struct lab_run *r, bool quiet)
{
	for (int i = 0; i < r->nremotes; i++)
		if (check_one(r, &r->remotes[i], quiet))
			return -1;
	return r->nremotes ? lab_save(r) : 0;
}

void vxlan_add_argv(struct argv *a, const char *dev, unsigned vni, const char *peer)
{
	argv_add(a, "ip"); argv_add(a, "link"); argv_add(a, "add"); argv_add(a, "%s", dev);
	argv_add(a, "type"); argv_add(a, "vxlan"); argv_add(a, "id"); argv_add(a, "%u", vni);
	argv_add(a, "remote"); argv_add(a, "%s", peer);
	argv_add(a, "dstport"); argv_add(a, "%d", VXLAN_PORT);
	/* a frame never moves a MAC to its sender's address (vxlan_snoop) */
	argv_add(a, "nolearning");
}

/*
 * The VXLAN socket takes UDP 4789 from any source, and even without
 * learning the kernel delivers whatever carries the VNI (6.12's
 * vxlan_set_mac checks no outer source). So the VNI is taken from the peer
 * only, in raw prerouting: @th,96,24 is the VNI after the 8-byte UDP header.
 */
int vxlan_pin_argvs(const char *table, unsigned vni, const char *peer, struct argv cmds[4])
{
	const char *fam = strchr(peer, ':') ? "ip6" : "ip";

	memset(cmds, 0, 4 * sizeof(*cmds));
	argv_add(&cmds[0], "nft"); argv_add(&cmds[0], "add"); argv_add(&cmds[0], "table");
	argv_add(&cmds[0], "inet"); argv_add(&cmds[0], "%s", table);
	argv_add(&cmds[1], "nft"); argv_add(&cmds[1], "add"); argv_add(&cmds[1], "chain");
	argv_add(&cmds[1], "inet"); argv_add(&cmds[1], "%s", table); argv_add(&cmds[1], "pin");
	argv_add(&cmds[1], "{ type filter hook prerouting priority -300 ; policy accept ; }");
	argv_add(&cmds[2], "nft"); argv_add(&cmds[2], "add"); argv_add(&cmds[2], "rule");
	argv_add(&cmds[2], "inet"); argv_add(&cmds[2], "%s", table); argv_add(&cmds[2], "pin");
	argv_add(&cmds[2], "%s", fam); argv_add(&cmds[2], "saddr"); argv_add(&cmds[2], "%s", peer);
	argv_add(&cmds[2], "udp"); argv_add(&cmds[2], "dport"); argv_add(&cmds[2], "%d", VXLAN_PORT);
	argv_add(&cmds[2], "@th,96,24"); argv_add(&cmds[2], "%u", vni); argv_add(&cmds[2], "accept");
	argv_add(&cmds[3], "nft"); argv_add(&cmds[3], "add"); argv_add(&cmds[3], "rule");
	argv_add(&cmds[3], "inet"); argv_add(&cmds[3], "%s", table); argv_add(&cmds[3], "pin");
	argv_add(&cmds[3], "udp"); argv_add(&cmds[3], "dport"); argv_add(&cmds[3], "%d", VXLAN_PORT);
	argv_add(&cmds[3], "@th,96,24"); argv_add(&cmds[3], "%u", vni); argv_add(&cmds[3], "drop");
	return 4;
}

void vxlan_pin_table(const struct lab_run *r, const struct lab_remote *m, char *out, size_t len)
{
	if (m)
		snprintf(out, len, "bpfwire-%s-%s", r->id, m->name);
	else
		snprintf(out, len, "bpfwire-%s", r->id);
}

static int lab_pin(struct lab_run *r, const char *peer, const struct lab_tunnel *tn, char *err, size_t len)
{
	const char *u = r->underlay[0] ? r->underlay : NULL;
	struct argv cmds[4];
	char table[96];
	int n, ret = 0;

	vxlan_pin_table(r, NULL, table, sizeof(table));
	n = vxlan_pin_argvs(table, tn->vni, peer, cmds);
	for (int i = 0; i < n; i++) {
		if (!ret && netns_run(u, cmds[i].v, err, len))
			ret = -1;
		argv_free(&cmds[i]);
	}
	return ret;
}

static int lab_end(struct lab_run *r, const char *who, const char *addr, const struct lab_tunnel *tn)
{
	char mtu[8], err[2048], key[128];
	const char *u = r->underlay[0] ? r->underlay : NULL;
	char *move[] = { "ip", "link", "set", "dev", (char *)tn->dev, "netns", r->netns, NULL };
	char *set[] = { "ip", "link", "set", "dev", (char *)tn->dev, "mtu", mtu, "master", "", "up", NULL };
	struct argv add = { 0 };
	char br[24];
	int st;

	snprintf(mtu, sizeof(mtu), "%d", tn->mtu);
	snprintf(br, sizeof(br), "br-%s", tn->segment);
	set[8] = br;
	/* the pin first: no moment where the VNI is open to anyone */
	if (lab_pin(r, addr, tn, err, sizeof(err))) {
		pr_warn("%s: couldn't pin the VXLAN %s to %s (nft in the underlay netns): %s", who, tn->dev,
			addr, err);
		return -1;
	}
	vxlan_add_argv(&add, tn->dev, tn->vni, addr);
	st = netns_run(u, add.v, err, sizeof(err)) || netns_run(u, move, err, sizeof(err));
	argv_free(&add);
	if (st) {
		pr_warn("%s: couldn't make the lab's end %s of the VXLAN: %s", who, tn->dev, err);
		return -1;
	}
	snprintf(key, sizeof(key), "net.ipv6.conf.%s.disable_ipv6", tn->dev);
	netns_sysctl(r->netns, key, "1");	/* the port carries guests' frames only */
	if (netns_run(r->netns, set, err, sizeof(err))) {
		pr_warn("%s: couldn't put %s on %s: %s", who, tn->dev, br, err);
		return -1;
	}
	return 0;
}

int remote_end_script(const struct lab_run *r, const struct lab_remote *m, const struct lab_tunnel *tn,
		      const struct topo_nic *nic, char *out, size_t len)
{
	struct argv a = { 0 };
	char table[96], pfx[96];

	/* the same pin and link as the lab's end, toward the lab's address as it sees it */
	vxlan_pin_table(r, m, table, sizeof(table));
	argv_add(&a, "end"); argv_add(&a, "%s", table); argv_add(&a, "%u", tn->vni);
	argv_add(&a, "%s", m->lab_addr); argv_add(&a, "%s", tn->ifname); argv_add(&a, "%s", tn->mac);
	argv_add(&a, "%d", tn->mtu);
	for (int i = 0; i < nic->naddrs; i++) {
		topo_format_prefix(&nic->addrs[i].a, pfx, sizeof(pfx));
		argv_add(&a, "%s", pfx);	/* one with a ':' is IPv6, added nodad */
	}
	return remote_side_line(&a, out, len);
}

static int remote_end(struct lab_run *r, const struct lab_remote *m, const struct lab_tunnel *tn,
		      const struct topo_nic *nic)
{
	char cmd[REMOTE_LINE_MAX], line[512];
	struct qga_result res;
	int ret = 0;

	if (remote_end_script(r, m, tn, nic, cmd, sizeof(cmd))) {
		pr_warn("remote host %s: its VXLAN end's command is too long", m->name);
		return -1;
	}
	if (ssh_run(r, m, cmd, 15000, NULL, &res) < 0 || !res.exited || res.exitcode) {
		ssh_last_line(&res, line, sizeof(line));
		pr_warn("remote host %s (%s): couldn't make its end %s of the VXLAN: %s", m->name, url(m),
			tn->ifname, line);
		ret = -1;
	}
	qga_result_free(&res);
	return ret;
}

/*
 * tcpdump of the remote's end, streamed over ssh into RUN/hosts/NAME/IFACE.pcap.
 * Frames are at most the tunnel's MTU: a small snaplen and a 4 MiB buffer keep
 * a burst from overflowing the ring while ssh drains the pipe (with -s 0 a
 * 80-frame burst at a loaded ssh lost 50; tcpdump's count is in IFACE.tcpdump.log).
 */
static int remote_capture(struct lab_run *r, const struct lab_remote *m, const struct lab_tunnel *tn)
{
	char pcap[PATH_MAX + 32], log[PATH_MAX + 32], cmd[REMOTE_LINE_MAX];
	struct spawn_opts so = { .netns = r->underlay[0] ? r->underlay : NULL, .setsid = true,
				 .out = pcap, .err = log };
	struct argv a = { 0 };
	double end = now_s() + 8;
	struct stat st;
	pid_t pid;

	snprintf(pcap, sizeof(pcap), "%s/%s.pcap", m->dir, tn->ifname);
	snprintf(log, sizeof(log), "%s/%s.tcpdump.log", m->dir, tn->ifname);
	unlink(pcap);
	if (!m->rbase[0] || !m->rdir[0])
		return -1;
	argv_add(&a, "capture"); argv_add(&a, "%s", m->rbase); argv_add(&a, "%s", tn->ifname);
	argv_add(&a, "%d", tn->mtu + 64);
	if (remote_side_line(&a, cmd, sizeof(cmd)))
		return -1;
	ssh_argv(r, m, &a);
	argv_add(&a, "%s", cmd);
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("remote host %s: couldn't start ssh for its capture: %s", m->name, errno_str(pid));
		return -1;
	}
	lab_add_proc(r, "ssh-tcpdump", m->name, pid);
	while (stat(pcap, &st) || st.st_size < 24) {
		if (now_s() > end || lab_interrupted || !proc_alive(pid, 0)) {
			pr_warn("remote host %s: its tcpdump on %s wrote no pcap header (see %s)", m->name,
				tn->ifname, log);
			return -1;
		}
		sleep_ms(20);
	}
	return 0;
}

/*
 * The run's dir there: mktemp's, not a name anyone there can guess and make
 * first. Recorded in the state file at once: down removes it.
 */
static int remote_mkdir(struct lab_run *r, struct lab_remote *m)
{
	char cmd[REMOTE_LINE_MAX], line[512], base[128] = "", *p;
	struct argv a = { 0 };
	struct qga_result res;
	int ret = -1;

	argv_add(&a, "mkdir"); argv_add(&a, "%s", r->id); argv_add(&a, "%s", m->name);
	if (remote_side_line(&a, cmd, sizeof(cmd)))
		return -1;
	if (ssh_run(r, m, cmd, 10000, NULL, &res) < 0 || !res.exited || res.exitcode) {
		ssh_last_line(&res, line, sizeof(line));
		pr_warn("remote host %s (%s): couldn't make its dir in /tmp (mktemp -d): %s", m->name, url(m), line);
	} else if (!(p = strstr(res.out, "dir ")) || sscanf(p, "dir %127s", base) != 1 ||
		   !remote_base_valid(r->id, base)) {
		pr_warn("remote host %s (%s): mktemp -d answered '%s', not /tmp/bpfwire-%s.XXXXXXXX", m->name,
			url(m), base, r->id);
	} else {
		snprintf(m->rbase, sizeof(m->rbase), "%s", base);
		snprintf(m->rdir, sizeof(m->rdir), "%s/%s", base, m->name);
		ret = lab_save(r);
	}
	qga_result_free(&res);
	return ret;
}

int remote_up(struct lab_run *r, const struct topology *t, bool capture)
{
	for (int i = 0; i < r->nremotes; i++) {
		struct lab_remote *m = &r->remotes[i];
		const struct topo_host *h = topo_host(t, m->name);

		if (remote_mkdir(r, m))
			return -1;

		for (int n = 0; n < m->ntunnels; n++) {
			char who[64];

			snprintf(who, sizeof(who), "remote host %s", m->name);
			if (lab_end(r, who, m->addr, &m->tunnels[n]) || remote_end(r, m, &m->tunnels[n], &h->nics[n]))
				return -1;
			if (capture && remote_capture(r, m, &m->tunnels[n]))
				return -1;
		}
		lab_save(r);
	}
	for (int i = 0; i < r->nlinks; i++) {
		char who[64];

		snprintf(who, sizeof(who), "the link to %s (%s)", r->links[i].ifname, r->links[i].peer);
		if (lab_end(r, who, r->links[i].peer, &r->links[i]))
			return -1;
	}
	return 0;
}

/* The lab's end, if a crash left it in the underlay netns (verified by its VNI). */
static int lab_end_down(const struct lab_run *r, const struct lab_tunnel *tn)
{
	char out[4096], want[32], err[1024];
	char *show[] = { "ip", "-d", "link", "show", "dev", (char *)tn->dev, NULL };
	char *del[] = { "ip", "link", "del", "dev", (char *)tn->dev, NULL };
	const char *u = r->underlay[0] ? r->underlay : NULL;

	if (u && !netns_exists(u))
		return 0;
	if (run_cmd(show, u, out, sizeof(out)))
		return 0;	/* not there: moved into the run's netns, gone with it */
	snprintf(want, sizeof(want), "vxlan id %u ", tn->vni);
	if (!strstr(out, want))
		return 0;
	if (netns_run(u, del, err, sizeof(err))) {
		pr_warn("couldn't delete %s from the underlay netns: %s", tn->dev, err);
		return -1;
	}
	return 0;
}

/* dmesg since up into RUN/hosts/NAME/dmesg.log (root there only). */
static void remote_dmesg(struct lab_run *r, const struct lab_remote *m)
{
	char cmd[REMOTE_LINE_MAX], path[PATH_MAX + 32];
	struct argv a = { 0 };
	struct qga_result res;

	snprintf(path, sizeof(path), "%s/dmesg.log", m->dir);
	argv_add(&a, "dmesg"); argv_add(&a, "%.6f", m->uptime0);
	if (remote_side_line(&a, cmd, sizeof(cmd)))
		return;
	if (ssh_run(r, m, cmd, 15000, path, &res) < 0 || !res.exited || res.exitcode) {
		unlink(path);
		pr_warn("remote host %s: no dmesg (exit %d): its kernel log is not scanned", m->name,
			res.exitcode);
	}
	qga_result_free(&res);
}

/*
 * down's line there: what the lab started (spawned commands, tcpdump) by
 * pid, read only from the run's own dir and never through a link; the
 * VXLANs; their pin; the dir. A dir that fails its check is left alone.
 */
int remote_down_script(const struct lab_run *r, const struct lab_remote *m, char *out, size_t len)
{
	struct argv a = { 0 };
	char table[96];

	vxlan_pin_table(r, m, table, sizeof(table));
	argv_add(&a, "down"); argv_add(&a, "%s", table);
	argv_add(&a, "%s", m->rbase[0] && m->rdir[0] ? m->rbase : "");	/* "": up made no dir there */
	for (int i = 0; i < m->ntunnels; i++) {
		argv_add(&a, "%s", m->tunnels[i].ifname);
		argv_add(&a, "%u", m->tunnels[i].vni);
	}
	return remote_side_line(&a, out, len);
}

/* Each "bpfwire: " line of the remote's stderr (a refused dir or link), as a warning. */
static void say_refusals(const struct lab_remote *m, const struct qga_result *res)
{
	for (const char *p = res->err; p && (p = strstr(p, "bpfwire: ")); p += 9)
		pr_warn("remote host %s: %.*s", m->name, (int)strcspn(p + 9, "\n"), p + 9);
}

static int down_one(struct lab_run *r, const struct lab_remote *m)
{
	char cmd[REMOTE_LINE_MAX], line[512];
	struct qga_result res;
	int ret = 0;

	if (remote_down_script(r, m, cmd, sizeof(cmd)))
		return -1;
	if (ssh_run(r, m, cmd, 20000, NULL, &res) < 0 || !res.exited || res.exitcode) {
		ssh_last_line(&res, line, sizeof(line));
		pr_warn("remote host %s (%s): couldn't remove its VXLAN end(s) and %s: %s",
			m->name, url(m), m->rbase[0] ? m->rbase : "its pin", line[0] ? line : "no answer");
		for (int i = 0; i < m->ntunnels; i++)
			pr_warn("  by hand there: ip link del %s (vxlan id %u)", m->tunnels[i].ifname,
				m->tunnels[i].vni);
		ret = -1;
	}
	say_refusals(m, &res);
	qga_result_free(&res);
	if (!ret && m->uptime0 > 0)	/* after the teardown there: a splat in it counts */
		remote_dmesg(r, m);
	ssh_stop_master(r, m);
	for (int i = 0; i < m->ntunnels; i++)
		ret |= lab_end_down(r, &m->tunnels[i]);
	return ret;
}

/* The lab's pins in the underlay netns: one table per run, named by its id. */
static int lab_pin_down(const struct lab_run *r)
{
	const char *u = r->underlay[0] ? r->underlay : NULL;
	char table[96], out[1024], err[1024];
	char *list[] = { "nft", "list", "table", "inet", table, NULL };
	char *del[] = { "nft", "delete", "table", "inet", table, NULL };

	if ((!r->nremotes && !r->nlinks) || (u && !netns_exists(u)))
		return 0;
	vxlan_pin_table(r, NULL, table, sizeof(table));
	if (run_cmd(list, u, out, sizeof(out)))
		return 0;	/* never made */
	if (netns_run(u, del, err, sizeof(err))) {
		pr_warn("couldn't delete the nft table inet %s of the VXLAN pins: %s", table, err);
		return -1;
	}
	return 0;
}

int remote_down(struct lab_run *r)
{
	int ret = 0;

	for (int i = 0; i < r->nlinks; i++)
		ret |= lab_end_down(r, &r->links[i]);
	for (int i = 0; i < r->nremotes; i++) {
		const struct lab_remote *m = &r->remotes[i];

		/* never reached at up: nothing was made there, and its lab ends come after */
		if (!m->lab_addr[0]) {
			ssh_stop_master(r, m);
			continue;
		}
		if (r->underlay[0] && !netns_exists(r->underlay)) {
			ssh_stop_master(r, m);
			pr_warn("remote host %s: the underlay netns %s is gone, so it can't be reached", m->name,
				r->underlay);
			for (int j = 0; j < m->ntunnels; j++)
				pr_warn("  by hand there: ip link del %s (vxlan id %u)", m->tunnels[j].ifname,
					m->tunnels[j].vni);
			ret = -1;
			continue;
		}
		ret |= down_one(r, m);
	}
	/* after the lab's ends, which a crash may have left there */
	ret |= lab_pin_down(r);
	return ret;
}

int remote_scan_splats(const struct lab_run *r, FILE *f)
{
	int found = 0;

	for (int i = 0; i < r->nremotes; i++) {
		const struct lab_remote *m = &r->remotes[i];
		char path[PATH_MAX + 32], label[PATH_MAX + 64], *text;
		size_t len = 0;

		snprintf(path, sizeof(path), "%s/dmesg.log", m->dir);
		text = read_file_max(path, &len, LAB_DATA_MAX);
		if (!text && errno == EFBIG) {
			if (f)
				fprintf(f, "%s (%s): dmesg over the 32 MiB cap, not read: "
					"counted as a splat\n", m->name, path);
			found++;
			continue;
		}
		if (!text)
			continue;	/* no root there: said at down */
		snprintf(label, sizeof(label), "%s dmesg since up (%s)", m->name, path);
		found += splat_scan(text, len, f, label);
		free(text);
	}
	return found;
}
