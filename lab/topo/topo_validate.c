// SPDX-License-Identifier: GPL-2.0-only
/* The topology checks that need the whole file: names, addresses, remote hosts. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "linegrammar.h"
#include "topo_lookup.h"
#include "topo_prefix.h"
#include "topo_remote.h"
#include "topo_validate.h"
#include "topology.h"

static int validate_remote(struct parser *p, const struct topo_host *h)
{
	const char *why;

	if (!h->remote.on)
		return 0;
	why = topo_remote_check_addr(p->t, &h->remote);
	if (why)
		return lg_fail(&p->e, h->remote.line, "remote host '%s' at %s: %s", h->name, h->remote.addr, why);
	if (!h->nnics)
		return lg_fail(&p->e, h->remote.line, "remote host '%s' has no NIC: it would join no segment", h->name);
	return 0;
}

/* Parts: each has an underlay address; every guest is in one; no remote hosts. */
static int validate_parts(struct parser *p)
{
	struct topology *t = p->t;

	for (int i = 0; i < t->nparts; i++) {
		struct topo_part *pt = &t->parts[i];
		struct topo_remote rm = { .family = pt->family };
		const char *why;

		if (!pt->addr[0])
			return lg_fail(&p->e, pt->line, "part '%s' has no underlay address", pt->name);
		snprintf(rm.addr, sizeof(rm.addr), "%s", pt->addr);
		if ((why = topo_remote_check_addr(t, &rm)))
			return lg_fail(&p->e, pt->line, "part '%s' underlay %s: %s", pt->name, pt->addr, why);
		for (int j = 0; j < i; j++)
			if (!strcmp(t->parts[j].addr, pt->addr))
				return lg_fail(&p->e, pt->line, "parts '%s' and '%s' have the same underlay address", t->parts[j].name, pt->name);
	}
	for (int hi = 0; hi < t->nhosts; hi++) {
		struct topo_host *h = &t->hosts[hi];

		h->part = -1;
		for (int i = 0; i < t->nparts; i++)
			if (!strcmp(t->parts[i].name, p->host_part[hi]))
				h->part = i;
		if (p->host_part[hi][0] && h->part < 0)
			return lg_fail(&p->e, h->line, "host '%s': unknown part '%s'", h->name, p->host_part[hi]);
		if (t->nparts && h->remote.on)
			return lg_fail(&p->e, h->line, "remote host '%s': a topology with parts takes no remote hosts (yet)", h->name);
		if (t->nparts && h->part < 0)
			return lg_fail(&p->e, h->line, "host '%s' has no part (the topology has parts)", h->name);
	}
	for (int s = 0; s < t->nsegments; s++) {
		int first = -1;

		if (!t->segments[s].dhcp)
			continue;
		for (int hi = 0; hi < t->nhosts; hi++)
			for (int ni = 0; ni < t->hosts[hi].nnics; ni++) {
				if (t->hosts[hi].nics[ni].segment != s)
					continue;
				if (first < 0)
					first = t->hosts[hi].part;
				else if (first != t->hosts[hi].part)
					return lg_fail(&p->e, t->segments[s].line, "segment '%s' has dhcp on and hosts in two parts: "
						    "each part's dnsmasq would serve it", t->segments[s].name);
			}
	}
	return 0;
}

/* After the whole file: resolve names, check addresses. */
int topo_validate(struct parser *p)
{
	struct topology *t = p->t;

	if (!t->nhosts)
		return lg_fail(&p->e, p->line, "no hosts defined");
	for (int si = 0; si < t->nsegments; si++) {
		struct topo_segment *s = &t->segments[si];

		if (!s->v4.family && !s->v6.family)
			return lg_fail(&p->e, s->line, "segment '%s' has neither an ipv4 nor an ipv6 prefix", s->name);
	}
	for (int hi = 0; hi < t->nhosts; hi++) {
		struct topo_host *h = &t->hosts[hi];

		if (validate_remote(p, h))
			return -1;
		for (int ni = 0; ni < h->nnics; ni++) {
			struct topo_nic *nic = &h->nics[ni];

			nic->segment = topo_segment_index(t, p->nic_seg[hi][ni]);
			if (nic->segment < 0)
				return lg_fail(&p->e, nic->line, "unknown segment '%s'", p->nic_seg[hi][ni]);
		}
		for (int ai = 0; ai < p->npend[hi]; ai++) {
			struct topo_addr *a = &p->pend_addr[hi][ai];
			int ni = topo_nic_index(h, p->addr_dev[hi][ai]);
			struct topo_nic *nic;
			struct topo_segment *s;
			const struct topo_prefix *net;
			char buf[80];

			if (ni < 0)
				return lg_fail(&p->e, a->line, "unknown interface '%s' on host '%s'", p->addr_dev[hi][ai], h->name);
			nic = &h->nics[ni];
			s = &t->segments[nic->segment];
			if (!a->a.family) {
				if (h->remote.on)
					return lg_fail(&p->e, a->line, "remote host '%s' takes static addresses only", h->name);
				if (!s->dhcp)
					return lg_fail(&p->e, a->line, "'%s' asks for dhcp but segment '%s' has dhcp off", nic->ifname, s->name);
				if (nic->dhcp)
					return lg_fail(&p->e, a->line, "duplicate dhcp on '%s'", nic->ifname);
				nic->dhcp = true;
				continue;
			}
			if (a->a.family == AF_INET6 && prefix_link_local(&a->a)) {
				if (a->a.plen < 0)
					a->a.plen = 64;
				if (a->a.plen != 64)
					return lg_fail(&p->e, a->line, "a link-local address takes /64");
			} else {
				net = a->a.family == AF_INET ? &s->v4 : &s->v6;
				topo_format_prefix(&a->a, buf, sizeof(buf));
				if (!net->family)
					return lg_fail(&p->e, a->line, "address %s: segment '%s' has no %s prefix", buf, s->name,
						    a->a.family == AF_INET ? "ipv4" : "ipv6");
				if (!prefix_contains(net, &a->a)) {
					char nb[80];

					topo_format_prefix(net, nb, sizeof(nb));
					return lg_fail(&p->e, a->line, "address %s is outside segment '%s' prefix %s", buf, s->name, nb);
				}
				if (a->a.plen < 0)
					a->a.plen = net->plen;
				topo_format_prefix(&a->a, buf, sizeof(buf));
				if (a->a.plen != net->plen)
					return lg_fail(&p->e, a->line, "address %s: prefix length differs from segment '%s' (/%d)", buf, s->name, net->plen);
				if (prefix_host_zero(&a->a) || (a->a.family == AF_INET && prefix_host_ones(&a->a)))
					return lg_fail(&p->e, a->line, "address %s is the network or broadcast address", buf);
				if (s->dhcp) {
					struct topo_prefix lab;

					topo_segment_lab_addr(net, &lab);
					if (prefix_same(&lab, &a->a))
						return lg_fail(&p->e, a->line, "address %s is reserved for the lab's dnsmasq on segment '%s'", buf, s->name);
				}
			}
			/* duplicates across the whole topology */
			for (int hj = 0; hj <= hi; hj++) {
				struct topo_host *h2 = &t->hosts[hj];

				for (int nj = 0; nj < h2->nnics; nj++)
					for (int aj = 0; aj < h2->nics[nj].naddrs; aj++)
						if (prefix_same(&h2->nics[nj].addrs[aj].a, &a->a)) {
							char ab[80];

							inet_ntop(a->a.family, prefix_bytes(&a->a), ab, sizeof(ab));
							return lg_fail(&p->e, a->line, "duplicate address %s (already on %s %s, line %d)",
								    ab, h2->name, h2->nics[nj].ifname, h2->nics[nj].addrs[aj].line);
						}
			}
			if (nic->naddrs == TOPO_MAX_ADDRS)
				return lg_fail(&p->e, a->line, "too many addresses on '%s'", nic->ifname);
			nic->addrs[nic->naddrs++] = *a;
		}
		for (int ni = 0; ni < h->nnics; ni++)
			for (int hj = 0; hj <= hi; hj++)
				for (int nj = 0; nj < t->hosts[hj].nnics; nj++) {
					if (hj == hi && nj == ni)
						break;
					if (!memcmp(t->hosts[hj].nics[nj].mac, h->nics[ni].mac, 6))
						return lg_fail(&p->e, h->nics[ni].line, "duplicate MAC address (also on %s %s)",
							    t->hosts[hj].name, t->hosts[hj].nics[nj].ifname);
				}
		for (int ri = 0; ri < h->nroutes; ri++) {
			struct topo_route *r = &h->routes[ri];

			if (!r->via[0] && !r->dev[0])
				return lg_fail(&p->e, r->line, "a route needs 'via' or 'dev'");
			if (!h->nnics)
				return lg_fail(&p->e, r->line, "route on host '%s' without NICs", h->name);
		}
	}
	return validate_parts(p);
}
