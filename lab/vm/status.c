// SPDX-License-Identifier: GPL-2.0-only
/* The views of runs for people: `bpfwire-lab list` and `status`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "errnames.h"
#include "file.h"
#include "guest.h"
#include "jsonget.h"
#include "log.h"
#include "model.h"
#include "netns.h"
#include "proc.h"
#include "qga.h"
#include "qmp.h"
#include "state.h"
#include "status.h"

int lab_list(FILE *f)
{
	char ids[64][LAB_RUN_ID_MAX + 1], names[64][64];
	int n = lab_run_ids(ids, 64), m = netns_list("bpfwire-", names, 64);

	for (int i = 0; i < n; i++) {
		struct lab_run *r;
		int alive = 0;

		if (lab_open(ids[i], &r)) {
			fprintf(f, "%-24s (no readable state: `bpfwire-lab down --run %s`)\n", ids[i], ids[i]);
			continue;
		}
		for (int g = 0; g < r->nguests; g++)
			alive += proc_alive(r->guests[g].pid, r->guests[g].start);
		fprintf(f, "%-24s %-8s %-7s %s %d/%d guests alive  %s\n", r->id, r->topo_name, r->status,
			r->accel[0] ? r->accel : "-", alive, r->nguests, r->results);
		lab_free(r);
	}
	for (int i = 0; i < m; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", LAB_STATE_ROOT, names[i] + strlen("bpfwire-"));
		if (!file_exists(p))
			fprintf(f, "%-24s orphan netns %s: `bpfwire-lab down --all` removes it\n",
				names[i] + strlen("bpfwire-"), names[i]);
	}
	if (!n && !m)
		fprintf(f, "no runs\n");
	return 0;
}

void lab_status(struct lab_run *r, FILE *f)
{
	fprintf(f, "run        %s\ntopology   %s (%s)\nstatus     %s\naccel      %s\nnetns      %s (%s)\n"
		   "results    %s\nkernel     %s\n",
		r->id, r->topo_name, r->topology, r->status, r->accel, r->netns,
		netns_exists(r->netns) ? "present" : "MISSING", r->results, r->kernel);
	if (r->boot_s > 0)
		fprintf(f, "boot       %.2f s to all ready\n", r->boot_s);
	for (int i = 0; i < r->nprocs; i++) {
		const struct lab_proc *p = &r->procs[i];

		fprintf(f, "process    %-8s %-12s pid %-7d %s\n", p->role, p->name, p->pid,
			proc_alive(p->pid, p->start) ? "running" : "GONE");
	}
	for (int i = 0; i < r->nguests; i++) {
		struct lab_guest *g = &r->guests[i];
		char vm[64] = "-", agent[16] = "-", err[256];
		struct qmp q;
		struct qga a;

		if (proc_alive(g->pid, g->start)) {
			int lock = guest_lock(r, g->name);

			if (!qmp_open(&q, g->qmp, 2000)) {
				json_object *st = qmp_execute(&q, "query-status", NULL, 2000, err, sizeof(err)), *v;

				if ((v = jget(st, "status", json_type_string)))
					snprintf(vm, sizeof(vm), "%s", json_object_get_string(v));
				json_object_put(st);
				qmp_close(&q);
			}
			if (!qga_open(&a, g->qga, 2000)) {
				json_object *pong = qga_execute(&a, "guest-ping", NULL, 2000, err, sizeof(err));

				snprintf(agent, sizeof(agent), "%s", pong ? "answers" : "silent");
				json_object_put(pong);
				qga_close(&a);
			} else {
				snprintf(agent, sizeof(agent), "silent");
			}
			if (lock >= 0)
				close(lock);
		}
		fprintf(f, "guest      %-12s pid %-7d vm %-9s qemu-ga %-8s ready %.2f s  rss %ld MiB\n",
			g->name, g->pid, vm, agent, g->t_ready, proc_rss_kib(g->pid) / 1024);
		for (int n = 0; n < g->nnics; n++)
			fprintf(f, "  nic      %-6s %s on %-8s tap %-8s device %s\n", g->nics[n].ifname,
				g->nics[n].mac, g->nics[n].segment, g->nics[n].tap, g->nics[n].device);
	}
	for (int s = 0; s < r->nsegments; s++)
		fprintf(f, "segment    %-12s bridge %-10s pcap %s%s\n", r->segments[s].name,
			r->segments[s].bridge, r->segments[s].pcap, r->segments[s].mtu ? " (MTU lowered for a VXLAN)" : "");
	if (r->part[0])
		fprintf(f, "part       %s\n", r->part);
	for (int i = 0; i < r->nlinks; i++)
		fprintf(f, "link       %-12s on %-8s vxlan id %u to %s, lab end %s, MTU %d\n", r->links[i].ifname,
			r->links[i].segment, r->links[i].vni, r->links[i].peer, r->links[i].dev, r->links[i].mtu);
	for (int i = 0; i < r->nremotes; i++) {
		const struct lab_remote *m = &r->remotes[i];

		fprintf(f, "remote     %-12s ssh %s@%s port %u, underlay netns %s, lab address there %s\n",
			m->name, m->user, m->addr, m->port, r->underlay[0] ? r->underlay : "(root)",
			m->lab_addr[0] ? m->lab_addr : "-");
		for (int j = 0; j < m->ntunnels; j++)
			fprintf(f, "  tunnel   %-6s %s on %-8s vxlan id %u, lab end %s, MTU %d\n", m->tunnels[j].ifname,
				m->tunnels[j].mac, m->tunnels[j].segment, m->tunnels[j].vni, m->tunnels[j].dev,
				m->tunnels[j].mtu);
	}
}
