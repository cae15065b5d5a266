// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's state file, STATEDIR/state.json (copied to RESULTS/state.json),
 * and what reads it: open, list, status.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "file.h"
#include "jsonget.h"
#include "log.h"
#include "model.h"
#include "reaper.h"
#include "state.h"
#include "topo/topology.h"

#define PUT_STR(o, k, v)  json_object_object_add(o, k, json_object_new_string(v))
#define PUT_INT(o, k, v)  json_object_object_add(o, k, json_object_new_int64(v))
#define PUT_DBL(o, k, v)  json_object_object_add(o, k, json_object_new_double(v))

/* up --part: the VXLANs to the other parts, recorded before they exist. */
static json_object *links_json(const struct lab_run *r)
{
	json_object *a = json_object_new_array(), *n;

	for (int i = 0; i < r->nlinks; i++) {
		n = json_object_new_object();
		PUT_STR(n, "to", r->links[i].ifname);
		PUT_STR(n, "segment", r->links[i].segment);
		PUT_STR(n, "dev", r->links[i].dev);
		PUT_STR(n, "peer", r->links[i].peer);
		PUT_INT(n, "vni", r->links[i].vni);
		PUT_INT(n, "mtu", r->links[i].mtu);
		json_object_array_add(a, n);
	}
	return a;
}

/* Remote hosts and both ends of their VXLANs, recorded before they exist. */
static json_object *remotes_json(const struct lab_run *r)
{
	json_object *a = json_object_new_array(), *e, *ts, *n;

	for (int i = 0; i < r->nremotes; i++) {
		const struct lab_remote *m = &r->remotes[i];

		e = json_object_new_object();
		PUT_STR(e, "name", m->name);
		PUT_STR(e, "user", m->user);
		PUT_STR(e, "addr", m->addr);
		PUT_INT(e, "port", m->port);
		PUT_STR(e, "key", m->key);
		PUT_STR(e, "dir", m->dir);
		PUT_STR(e, "rbase", m->rbase);
		PUT_STR(e, "rdir", m->rdir);
		PUT_STR(e, "lab_addr", m->lab_addr);
		PUT_DBL(e, "uptime0", m->uptime0);
		ts = json_object_new_array();
		for (int j = 0; j < m->ntunnels; j++) {
			const struct lab_tunnel *tn = &m->tunnels[j];

			n = json_object_new_object();
			PUT_STR(n, "ifname", tn->ifname);
			PUT_STR(n, "segment", tn->segment);
			PUT_STR(n, "dev", tn->dev);
			PUT_STR(n, "mac", tn->mac);
			PUT_INT(n, "vni", tn->vni);
			PUT_INT(n, "mtu", tn->mtu);
			json_object_array_add(ts, n);
		}
		json_object_object_add(e, "tunnels", ts);
		json_object_array_add(a, e);
	}
	return a;
}

int lab_save(const struct lab_run *r)
{
	json_object *o = json_object_new_object(), *a, *e, *n;
	char path[PATH_MAX + 32];
	const char *text;
	int ret;

	PUT_STR(o, "run", r->id);
	PUT_STR(o, "netns", r->netns);
	PUT_STR(o, "statedir", r->statedir);
	PUT_STR(o, "results", r->results);
	PUT_STR(o, "topology", r->topology);
	PUT_STR(o, "topology_name", r->topo_name);
	PUT_STR(o, "kernel", r->kernel);
	PUT_STR(o, "accel", r->accel);
	PUT_STR(o, "status", r->status);
	PUT_INT(o, "created", r->created);
	PUT_DBL(o, "boot_s", r->boot_s);
	PUT_INT(o, "lab_pid", getpid());

	a = json_object_new_array();
	for (int i = 0; i < r->nprocs; i++) {
		e = json_object_new_object();
		PUT_STR(e, "role", r->procs[i].role);
		PUT_STR(e, "name", r->procs[i].name);
		PUT_INT(e, "pid", r->procs[i].pid);
		PUT_INT(e, "start", (long long)r->procs[i].start);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "procs", a);

	a = json_object_new_array();
	for (int i = 0; i < r->nsegments; i++) {
		e = json_object_new_object();
		PUT_STR(e, "name", r->segments[i].name);
		PUT_STR(e, "bridge", r->segments[i].bridge);
		PUT_STR(e, "pcap", r->segments[i].pcap);
		PUT_INT(e, "mtu", r->segments[i].mtu);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "segments", a);

	a = json_object_new_array();
	for (int i = 0; i < r->nguests; i++) {
		const struct lab_guest *g = &r->guests[i];
		json_object *nics = json_object_new_array();

		e = json_object_new_object();
		PUT_STR(e, "name", g->name);
		PUT_STR(e, "dir", g->dir);
		PUT_STR(e, "qmp", g->qmp);
		PUT_STR(e, "qga", g->qga);
		PUT_STR(e, "shell", g->shell);
		PUT_INT(e, "pid", g->pid);
		PUT_INT(e, "start", (long long)g->start);
		PUT_DBL(e, "t_kernel", g->t_kernel);
		PUT_DBL(e, "t_ready", g->t_ready);
		PUT_INT(e, "rss_kib", g->rss_kib);
		for (int j = 0; j < g->nnics; j++) {
			n = json_object_new_object();
			PUT_STR(n, "ifname", g->nics[j].ifname);
			PUT_STR(n, "tap", g->nics[j].tap);
			PUT_STR(n, "segment", g->nics[j].segment);
			PUT_STR(n, "device", g->nics[j].device);
			PUT_STR(n, "mac", g->nics[j].mac);
			json_object_array_add(nics, n);
		}
		json_object_object_add(e, "nics", nics);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "guests", a);
	PUT_STR(o, "underlay", r->underlay);
	PUT_STR(o, "ssh_config", r->ssh_config);
	json_object_object_add(o, "remotes", remotes_json(r));
	PUT_STR(o, "part", r->part);
	json_object_object_add(o, "links", links_json(r));

	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	snprintf(path, sizeof(path), "%s/state.json", r->statedir);
	ret = write_file_atomic(path, text);
	if (ret)
		pr_warn("couldn't write state file %s: %s", path, errno_str(ret));
	if (r->results[0]) {
		snprintf(path, sizeof(path), "%s/state.json", r->results);
		write_file_atomic(path, text);
	}
	json_object_put(o);
	return ret;
}

static void get_str(json_object *o, const char *k, char *out, size_t len)
{
	snprintf(out, len, "%s", jget_str(o, k, ""));
}

static void load_remotes(json_object *o, struct lab_run *r)
{
	json_object *a, *e, *ts, *n;

	if (!json_object_object_get_ex(o, "remotes", &a))
		return;
	for (size_t i = 0; i < json_object_array_length(a) && r->nremotes < LAB_MAX_REMOTES; i++) {
		struct lab_remote *m = &r->remotes[r->nremotes++];

		e = json_object_array_get_idx(a, i);
		get_str(e, "name", m->name, sizeof(m->name));
		get_str(e, "user", m->user, sizeof(m->user));
		get_str(e, "addr", m->addr, sizeof(m->addr));
		m->port = (unsigned)jget_int64(e, "port", 0);
		get_str(e, "key", m->key, sizeof(m->key));
		get_str(e, "dir", m->dir, sizeof(m->dir));
		get_str(e, "rbase", m->rbase, sizeof(m->rbase));
		get_str(e, "rdir", m->rdir, sizeof(m->rdir));
		get_str(e, "lab_addr", m->lab_addr, sizeof(m->lab_addr));
		m->uptime0 = jget_num(e, "uptime0", -1);
		if (!json_object_object_get_ex(e, "tunnels", &ts))
			continue;
		for (size_t j = 0; j < json_object_array_length(ts) && m->ntunnels < TOPO_MAX_NICS; j++) {
			struct lab_tunnel *tn = &m->tunnels[m->ntunnels++];

			n = json_object_array_get_idx(ts, j);
			get_str(n, "ifname", tn->ifname, sizeof(tn->ifname));
			get_str(n, "segment", tn->segment, sizeof(tn->segment));
			get_str(n, "dev", tn->dev, sizeof(tn->dev));
			get_str(n, "mac", tn->mac, sizeof(tn->mac));
			tn->vni = (unsigned)jget_int64(n, "vni", 0);
			tn->mtu = (int)jget_int64(n, "mtu", 0);
		}
	}
}

static void load_links(json_object *o, struct lab_run *r)
{
	json_object *a, *n;

	if (!json_object_object_get_ex(o, "links", &a))
		return;
	for (size_t i = 0; i < json_object_array_length(a) && r->nlinks < (int)ARRAY_SIZE(r->links); i++) {
		struct lab_tunnel *tn = &r->links[r->nlinks++];

		n = json_object_array_get_idx(a, i);
		get_str(n, "to", tn->ifname, sizeof(tn->ifname));
		get_str(n, "segment", tn->segment, sizeof(tn->segment));
		get_str(n, "dev", tn->dev, sizeof(tn->dev));
		get_str(n, "peer", tn->peer, sizeof(tn->peer));
		tn->vni = (unsigned)jget_int64(n, "vni", 0);
		tn->mtu = (int)jget_int64(n, "mtu", 0);
	}
}

int lab_load_state(const char *path, struct lab_run *r)
{
	json_object *o = json_object_from_file(path), *a, *e, *n;

	if (!o) {
		pr_warn("couldn't read state file %s: %s", path, json_util_get_last_err());
		return -1;
	}
	memset(r, 0, sizeof(*r));
	r->guard_fd = -1;
	get_str(o, "run", r->id, sizeof(r->id));
	get_str(o, "netns", r->netns, sizeof(r->netns));
	get_str(o, "statedir", r->statedir, sizeof(r->statedir));
	get_str(o, "results", r->results, sizeof(r->results));
	get_str(o, "topology", r->topology, sizeof(r->topology));
	get_str(o, "topology_name", r->topo_name, sizeof(r->topo_name));
	get_str(o, "kernel", r->kernel, sizeof(r->kernel));
	get_str(o, "accel", r->accel, sizeof(r->accel));
	get_str(o, "status", r->status, sizeof(r->status));
	r->created = jget_int64(o, "created", 0);
	r->boot_s = jget_num(o, "boot_s", -1);

	if (json_object_object_get_ex(o, "procs", &a))
		for (size_t i = 0; i < json_object_array_length(a) && r->nprocs < LAB_MAX_PROCS; i++) {
			struct lab_proc *p = &r->procs[r->nprocs++];

			e = json_object_array_get_idx(a, i);
			get_str(e, "role", p->role, sizeof(p->role));
			get_str(e, "name", p->name, sizeof(p->name));
			p->pid = (pid_t)jget_int64(e, "pid", 0);
			p->start = (unsigned long long)jget_int64(e, "start", 0);
		}
	if (json_object_object_get_ex(o, "segments", &a))
		for (size_t i = 0; i < json_object_array_length(a) && r->nsegments < TOPO_MAX_SEGMENTS; i++) {
			struct lab_segment *s = &r->segments[r->nsegments++];

			e = json_object_array_get_idx(a, i);
			get_str(e, "name", s->name, sizeof(s->name));
			get_str(e, "bridge", s->bridge, sizeof(s->bridge));
			get_str(e, "pcap", s->pcap, sizeof(s->pcap));
			s->mtu = (int)jget_int64(e, "mtu", 0);
		}
	if (json_object_object_get_ex(o, "guests", &a))
		for (size_t i = 0; i < json_object_array_length(a) && r->nguests < TOPO_MAX_HOSTS; i++) {
			struct lab_guest *g = &r->guests[r->nguests++];
			json_object *nics;

			e = json_object_array_get_idx(a, i);
			get_str(e, "name", g->name, sizeof(g->name));
			get_str(e, "dir", g->dir, sizeof(g->dir));
			get_str(e, "qmp", g->qmp, sizeof(g->qmp));
			get_str(e, "qga", g->qga, sizeof(g->qga));
			get_str(e, "shell", g->shell, sizeof(g->shell));
			g->pid = (pid_t)jget_int64(e, "pid", 0);
			g->start = (unsigned long long)jget_int64(e, "start", 0);
			g->t_kernel = jget_num(e, "t_kernel", -1);
			g->t_ready = jget_num(e, "t_ready", -1);
			g->rss_kib = (long)jget_int64(e, "rss_kib", 0);
			if (json_object_object_get_ex(e, "nics", &nics))
				for (size_t j = 0; j < json_object_array_length(nics) && g->nnics < TOPO_MAX_NICS; j++) {
					struct lab_nic *nc = &g->nics[g->nnics++];

					n = json_object_array_get_idx(nics, j);
					get_str(n, "ifname", nc->ifname, sizeof(nc->ifname));
					get_str(n, "tap", nc->tap, sizeof(nc->tap));
					get_str(n, "segment", nc->segment, sizeof(nc->segment));
					get_str(n, "device", nc->device, sizeof(nc->device));
					get_str(n, "mac", nc->mac, sizeof(nc->mac));
				}
		}
	get_str(o, "underlay", r->underlay, sizeof(r->underlay));
	get_str(o, "ssh_config", r->ssh_config, sizeof(r->ssh_config));
	load_remotes(o, r);
	get_str(o, "part", r->part, sizeof(r->part));
	load_links(o, r);
	json_object_put(o);
	return 0;
}

/* A state file names its own run, netns and state dir: down acts on those. */
static bool state_is_of(const struct lab_run *r, const char *id)
{
	char netns[64], statedir[PATH_MAX];

	snprintf(netns, sizeof(netns), "bpfwire-%s", id);
	snprintf(statedir, sizeof(statedir), "%s/%s", LAB_STATE_ROOT, id);
	return !strcmp(r->id, id) && !strcmp(r->netns, netns) && !strcmp(r->statedir, statedir);
}

int lab_run_ids(char ids[][LAB_RUN_ID_MAX + 1], int max)
{
	DIR *d = opendir(LAB_STATE_ROOT);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char p[PATH_MAX];
		struct stat st;

		if (!lab_valid_id(e->d_name))
			continue;
		snprintf(p, sizeof(p), "%s/%s", LAB_STATE_ROOT, e->d_name);
		if (stat(p, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(ids[n++], LAB_RUN_ID_MAX + 1, "%.*s", LAB_RUN_ID_MAX, e->d_name);
	}
	closedir(d);
	return n;
}

int lab_open(const char *id, struct lab_run **out)
{
	char ids[64][LAB_RUN_ID_MAX + 1], path[PATH_MAX];
	struct lab_run *r;
	int n;

	*out = NULL;
	if (!id && getenv("BPFWIRE_RUN")) {
		id = getenv("BPFWIRE_RUN");
		if (!lab_valid_id(id)) {
			pr_warn("bad run id '%s' in $BPFWIRE_RUN (at most 24 of A-Z a-z 0-9 - _)", id);
			return LAB_EUSAGE;
		}
	} else if (id && !lab_valid_id(id)) {
		/* checked before any path is built from it: no ../ out of the state root */
		pr_warn("bad run id '%s' (at most 24 of A-Z a-z 0-9 - _)", id);
		return LAB_EUSAGE;
	}
	if (!id) {
		n = lab_run_ids(ids, 64);
		if (n == 0) {
			pr_warn("no lab run is up (nothing in %s)", LAB_STATE_ROOT);
			return LAB_FAIL;
		}
		if (n > 1) {
			char list[64 * (LAB_RUN_ID_MAX + 1) + 1] = "";

			for (int i = 0; i < n; i++)
				strcat(strcat(list, " "), ids[i]);
			pr_warn("%d runs are up; pick one with --run ID (or BPFWIRE_RUN):%s", n, list);
			return LAB_EUSAGE;
		}
		id = ids[0];
	}
	snprintf(path, sizeof(path), "%s/%s/state.json", LAB_STATE_ROOT, id);
	if (!file_exists(path)) {
		pr_warn("no run %s (no %s)", id, path);
		return LAB_FAIL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || lab_load_state(path, r)) {
		free(r);
		return LAB_FAIL;
	}
	if (!state_is_of(r, id)) {
		pr_warn("%s names run '%s', netns '%s', state dir '%s': not run %s; refusing it",
			path, r->id, r->netns, r->statedir, id);
		free(r);
		return LAB_FAIL;
	}
	*out = r;
	return LAB_OK;
}

/* Freed without lab_down: the caller leaves the run up on purpose (`up`, `run --keep`). */
void lab_free(struct lab_run *r)
{
	if (r)
		lab_detach(r);
	free(r);
}

