// SPDX-License-Identifier: GPL-2.0-only
/* The small lookups on a parsed topology (topology.h), below both its reader and its checks. */
#include <string.h>

#include "log.h"
#include "topo_lookup.h"
#include "topology.h"

static const char *const model_names[] = { "virtio-net", "e1000", "e1000e" };
static const char *const model_qemu[] = { "virtio-net-pci", "e1000", "e1000e" };

const char *topo_model_name(enum nic_model m) { return model_names[m]; }
const char *topo_model_qemu(enum nic_model m) { return model_qemu[m]; }

const struct topo_host *topo_host(const struct topology *t, const char *name)
{
	for (int i = 0; i < t->nhosts; i++)
		if (!strcmp(t->hosts[i].name, name))
			return &t->hosts[i];
	return NULL;
}

/* bpfwire-lab up --icount NAME: that guest boots as if its topology said
 * `icount on`. A remote host has no QEMU to give it to. */
int topo_set_icount(struct topology *t, const char *name)
{
	const struct topo_host *h = topo_host(t, name);

	if (!h || h->remote.on) {
		pr_warn("--icount %s: no guest of that name in %s", name, t->path);
		return -1;
	}
	t->hosts[h - t->hosts].icount = true;
	return 0;
}

int topo_nic_index(const struct topo_host *h, const char *ifname)
{
	for (int i = 0; i < h->nnics; i++)
		if (!strcmp(h->nics[i].ifname, ifname))
			return i;
	return -1;
}

int topo_segment_index(const struct topology *t, const char *name)
{
	for (int i = 0; i < t->nsegments; i++)
		if (!strcmp(t->segments[i].name, name))
			return i;
	return -1;
}
