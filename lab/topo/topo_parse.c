// SPDX-License-Identifier: GPL-2.0-only
/* Topology file parser. Grammar and examples: topology/README.md. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "linegrammar.h"
#include "topo_lookup.h"
#include "topo_parse.h"
#include "topo_prefix.h"
#include "topo_remote.h"
#include "topo_validate.h"
#include "topology.h"

#define MAX_TOKENS 16

static bool valid_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n > max || !(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

static bool valid_token(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

static bool parse_onoff(const char *s, bool *out)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes")) {
		*out = true;
		return true;
	}
	if (!strcmp(s, "off") || !strcmp(s, "no")) {
		*out = false;
		return true;
	}
	return false;
}

static int parse_segment_key(struct parser *p, char **tok, int n)
{
	struct topo_segment *s = &p->t->segments[p->t->nsegments - 1];
	struct topo_prefix pf;

	if (!strcmp(tok[0], "ipv4") || !strcmp(tok[0], "ipv6")) {
		int fam = tok[0][3] == '4' ? AF_INET : AF_INET6;
		struct topo_prefix *dst = fam == AF_INET ? &s->v4 : &s->v6;

		if (n != 2)
			return lg_fail(&p->e, p->line, "'%s' takes one prefix", tok[0]);
		if (prefix_parse(tok[1], &pf) || pf.family != fam || pf.plen < 0)
			return lg_fail(&p->e, p->line, "bad %s prefix '%s'", tok[0], tok[1]);
		if (!prefix_host_zero(&pf))
			return lg_fail(&p->e, p->line, "prefix '%s' has host bits set", tok[1]);
		if (!prefix_documentation(&pf))
			return lg_fail(&p->e, p->line, "prefix '%s' is not inside a documentation prefix (192.0.2.0/24, 198.51.100.0/24, 2001:db8::/32)", tok[1]);
		if (fam == AF_INET && pf.plen > 30)
			return lg_fail(&p->e, p->line, "prefix '%s' is too small for a segment", tok[1]);
		if (dst->family)
			return lg_fail(&p->e, p->line, "segment '%s' already has an %s prefix", s->name, tok[0]);
		*dst = pf;
		return 0;
	}
	if (!strcmp(tok[0], "dhcp")) {
		if (n != 2 || !parse_onoff(tok[1], &s->dhcp))
			return lg_fail(&p->e, p->line, "'dhcp' takes on or off");
		return 0;
	}
	return lg_fail(&p->e, p->line, "unknown key '%s' in segment '%s'", tok[0], s->name);
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char tail;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return (mac[0] & 1) ? -1 : 0;	/* multicast */
}

static int host_memory(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	char *end;
	unsigned long v;

	(void)rest;
	if (n != 2)
		return lg_fail(&p->e, p->line, "'memory' takes one size");
	errno = 0;
	v = strtoul(tok[1], &end, 10);
	if (!strcmp(end, "G"))
		v *= 1024;
	else if (*end && strcmp(end, "M"))
		end = NULL;
	if (errno || !end || v < 64 || v > 4096)
		return lg_fail(&p->e, p->line, "bad memory size '%s' (64M to 4G)", tok[1]);
	h->memory_mib = (unsigned)v;
	return 0;
}

static int host_cpus(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	char *end;
	unsigned long v;

	(void)rest;
	if (n != 2)
		return lg_fail(&p->e, p->line, "'cpus' takes one number");
	v = strtoul(tok[1], &end, 10);
	if (*end || v < 1 || v > 4)
		return lg_fail(&p->e, p->line, "bad cpus '%s' (1 to 4)", tok[1]);
	h->cpus = (unsigned)v;
	return 0;
}

static int host_router(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];

	(void)rest;
	if (n != 2 || !parse_onoff(tok[1], &h->router))
		return lg_fail(&p->e, p->line, "'router' takes on or off");
	return 0;
}

static int host_icount(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];

	(void)rest;
	if (n != 2 || !parse_onoff(tok[1], &h->icount))
		return lg_fail(&p->e, p->line, "'icount' takes on or off");
	return 0;
}

static int host_append(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];

	(void)tok;
	(void)n;
	if (!rest || !*rest)
		return lg_fail(&p->e, p->line, "'append' takes kernel parameters");
	if (strlen(rest) >= sizeof(h->append))
		return lg_fail(&p->e, p->line, "'append' is too long");
	if (!valid_token(rest, " ._-=,:/+"))
		return lg_fail(&p->e, p->line, "'append' holds a character outside [A-Za-z0-9 ._-=,:/+]");
	strcpy(h->append, rest);
	return 0;
}

static int host_nic(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	struct topo_nic *nic;

	(void)rest;
	if (n < 3 || (n - 3) % 2)
		return lg_fail(&p->e, p->line, "usage: nic IFACE SEGMENT [model MODEL] [mac MAC]");
	if (h->nnics == TOPO_MAX_NICS)
		return lg_fail(&p->e, p->line, "too many NICs on host '%s' (at most %d)", h->name, TOPO_MAX_NICS);
	if (!valid_name(tok[1], TOPO_IFNAME_MAX))
		return lg_fail(&p->e, p->line, "bad interface name '%s'", tok[1]);
	if (topo_nic_index(h, tok[1]) >= 0)
		return lg_fail(&p->e, p->line, "duplicate NIC '%s' on host '%s'", tok[1], h->name);
	nic = &h->nics[h->nnics];
	memset(nic, 0, sizeof(*nic));
	snprintf(nic->ifname, sizeof(nic->ifname), "%s", tok[1]);
	nic->line = p->line;
	snprintf(p->nic_seg[hi][h->nnics], sizeof(p->nic_seg[0][0]), "%s", tok[2]);
	for (int i = 3; i < n; i += 2) {
		if (!strcmp(tok[i], "model")) {
			int m;

			for (m = 0; m < 3; m++)
				if (!strcmp(tok[i + 1], topo_model_name((enum nic_model)m)))
					break;
			if (m == 3)
				return lg_fail(&p->e, p->line, "bad NIC model '%s' (expected virtio-net, e1000 or e1000e)", tok[i + 1]);
			if (h->remote.on)
				return lg_fail(&p->e, p->line, "a remote host's NIC is a VXLAN device: it takes no model");
			nic->model = (enum nic_model)m;
		} else if (!strcmp(tok[i], "mac")) {
			if (parse_mac(tok[i + 1], nic->mac))
				return lg_fail(&p->e, p->line, "bad MAC address '%s'", tok[i + 1]);
			nic->mac_given = true;
		} else {
			return lg_fail(&p->e, p->line, "unknown NIC option '%s' (expected model or mac)", tok[i]);
		}
	}
	if (!nic->mac_given) {
		uint8_t mac[6] = { 0x52, 0x54, 0x00, 0xbf, (uint8_t)(hi + 1), (uint8_t)h->nnics };

		memcpy(nic->mac, mac, 6);
	}
	h->nnics++;
	return 0;
}

static int host_address(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	struct topo_addr *a;

	(void)rest;
	if (n != 3)
		return lg_fail(&p->e, p->line, "usage: address IFACE ADDRESS[/LEN]|dhcp");
	if (p->npend[hi] == TOPO_MAX_NICS * TOPO_MAX_ADDRS)
		return lg_fail(&p->e, p->line, "too many addresses on host '%s'", h->name);
	a = &p->pend_addr[hi][p->npend[hi]];
	memset(a, 0, sizeof(*a));
	a->line = p->line;
	if (strcmp(tok[2], "dhcp") && prefix_parse(tok[2], &a->a))
		return lg_fail(&p->e, p->line, "bad address '%s'", tok[2]);
	snprintf(p->addr_dev[hi][p->npend[hi]], TOPO_IFNAME_MAX + 1, "%.15s", tok[1]);
	p->npend[hi]++;
	return 0;
}

static int host_route(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	struct topo_route *r;
	struct topo_prefix d, v;

	(void)rest;
	if (n < 4 || n % 2)
		return lg_fail(&p->e, p->line, "usage: route DEST|default via GATEWAY [dev IFACE] or route DEST dev IFACE");
	if (h->nroutes == TOPO_MAX_ROUTES)
		return lg_fail(&p->e, p->line, "too many routes on host '%s'", h->name);
	r = &h->routes[h->nroutes];
	memset(r, 0, sizeof(*r));
	r->line = p->line;
	if (strcmp(tok[1], "default")) {
		if (prefix_parse(tok[1], &d) || d.plen < 0 || !prefix_host_zero(&d))
			return lg_fail(&p->e, p->line, "bad route destination '%s'", tok[1]);
		r->family = d.family;
	}
	snprintf(r->dest, sizeof(r->dest), "%s", tok[1]);
	for (int i = 2; i < n; i += 2) {
		if (!strcmp(tok[i], "via")) {
			if (prefix_parse(tok[i + 1], &v) || v.plen >= 0)
				return lg_fail(&p->e, p->line, "bad gateway '%s'", tok[i + 1]);
			if (r->family && r->family != v.family)
				return lg_fail(&p->e, p->line, "gateway '%s' is not of the destination's family", tok[i + 1]);
			r->family = v.family;
			snprintf(r->via, sizeof(r->via), "%s", tok[i + 1]);
		} else if (!strcmp(tok[i], "dev")) {
			if (topo_nic_index(h, tok[i + 1]) < 0)
				return lg_fail(&p->e, p->line, "unknown interface '%s' on host '%s'", tok[i + 1], h->name);
			snprintf(r->dev, sizeof(r->dev), "%s", tok[i + 1]);
		} else {
			return lg_fail(&p->e, p->line, "unknown route option '%s' (expected via or dev)", tok[i]);
		}
	}
	if (!r->family)
		return lg_fail(&p->e, p->line, "a default route needs a gateway ('via')");
	h->nroutes++;
	return 0;
}

static int host_sysctl(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	struct topo_sysctl *s;
	char *eq;

	(void)rest;
	if (n != 2 || !(eq = strchr(tok[1], '=')) || eq == tok[1])
		return lg_fail(&p->e, p->line, "usage: sysctl KEY=VALUE");
	if (h->nsysctls == TOPO_MAX_SYSCTLS)
		return lg_fail(&p->e, p->line, "too many sysctls on host '%s'", h->name);
	*eq = '\0';
	s = &h->sysctls[h->nsysctls];
	if (strlen(tok[1]) >= sizeof(s->key) || strlen(eq + 1) >= sizeof(s->value) ||
	    !valid_token(tok[1], "._-/") || strstr(tok[1], "..") || !valid_token(eq + 1, "._-:,"))
		return lg_fail(&p->e, p->line, "bad sysctl '%s=%s'", tok[1], eq + 1);
	strcpy(s->key, tok[1]);
	strcpy(s->value, eq + 1);
	s->line = p->line;
	h->nsysctls++;
	return 0;
}

static int host_key(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	struct topo_host *h = &p->t->hosts[hi];
	char why[1200];

	(void)rest;
	if (n != 2)
		return lg_fail(&p->e, p->line, "'key' takes one file");
	if (h->remote.key[0])
		return lg_fail(&p->e, p->line, "host '%s' already has a key", h->name);
	if (topo_resolve_key(p->e.path, tok[1], h->remote.key, sizeof(h->remote.key), why, sizeof(why)))
		return lg_fail(&p->e, p->line, "%s", why);
	return 0;
}

static int host_part(struct parser *p, int hi, char **tok, int n, const char *rest)
{
	(void)rest;
	if (n != 2)
		return lg_fail(&p->e, p->line, "'part' takes one part name");
	if (p->host_part[hi][0])
		return lg_fail(&p->e, p->line, "host '%s' already has a part", p->t->hosts[hi].name);
	snprintf(p->host_part[hi], sizeof(p->host_part[hi]), "%s", tok[1]);
	return 0;
}

typedef int host_key_fn(struct parser *p, int hi, char **tok, int n, const char *rest);

static const struct {
	const char *key;
	host_key_fn *parse;
} host_keys[] = {
	{ "memory", host_memory },
	{ "cpus", host_cpus },
	{ "router", host_router },
	{ "icount", host_icount },
	{ "append", host_append },
	{ "nic", host_nic },
	{ "address", host_address },
	{ "route", host_route },
	{ "sysctl", host_sysctl },
	{ "key", host_key },
	{ "part", host_part },
};

/* A remote host takes nic, address and key; a guest every key but key. */
static bool key_fits(const struct topo_host *h, const char *key)
{
	bool remote_key = !strcmp(key, "nic") || !strcmp(key, "address") || !strcmp(key, "key");

	if (!strcmp(key, "part") && h->remote.on)
		return false;

	return h->remote.on ? remote_key : strcmp(key, "key") != 0;
}

static int parse_host_key(struct parser *p, char **tok, int n, const char *rest)
{
	int hi = p->t->nhosts - 1;

	for (size_t i = 0; i < sizeof(host_keys) / sizeof(host_keys[0]); i++) {
		if (strcmp(tok[0], host_keys[i].key))
			continue;
		if (!key_fits(&p->t->hosts[hi], tok[0]))
			return lg_fail(&p->e, p->line, p->t->hosts[hi].remote.on ?
				    "'%s' does not apply to remote host '%s' (it takes nic, address and key)" :
				    "'%s' is for a remote host; '%s' is a guest", tok[0], p->t->hosts[hi].name);
		return host_keys[i].parse(p, hi, tok, n, rest);
	}
	return lg_fail(&p->e, p->line, "unknown key '%s' in host '%s'", tok[0], p->t->hosts[hi].name);
}

static int topo_open_part(struct parser *p, char **tok, int n)
{
	struct topo_part *pt;

	if (n != 2)
		return lg_fail(&p->e, p->line, "usage: part NAME");
	if (!valid_name(tok[1], TOPO_NAME_MAX))
		return lg_fail(&p->e, p->line, "bad part name '%s' (a-z, 0-9, '-', '_', at most %d)", tok[1], TOPO_NAME_MAX);
	for (int i = 0; i < p->t->nparts; i++)
		if (!strcmp(p->t->parts[i].name, tok[1]))
			return lg_fail(&p->e, p->line, "duplicate part '%s' (first at line %d)", tok[1], p->t->parts[i].line);
	if (p->t->nparts == TOPO_MAX_PARTS)
		return lg_fail(&p->e, p->line, "too many parts (at most %d)", TOPO_MAX_PARTS);
	pt = &p->t->parts[p->t->nparts++];
	snprintf(pt->name, sizeof(pt->name), "%s", tok[1]);
	pt->line = p->line;
	p->blk = BLK_PART;
	return 0;
}

/* underlay ADDR: the address the other parts' VXLANs send to */
static int topo_part_key(struct parser *p, char **tok, int n)
{
	struct topo_part *pt = &p->t->parts[p->t->nparts - 1];
	struct topo_prefix a;

	if (strcmp(tok[0], "underlay"))
		return lg_fail(&p->e, p->line, "unknown key '%s' in part '%s'", tok[0], pt->name);
	if (n != 2 || prefix_parse(tok[1], &a) || a.plen >= 0)
		return lg_fail(&p->e, p->line, "'underlay' takes one IPv4 or IPv6 address");
	if (pt->addr[0])
		return lg_fail(&p->e, p->line, "part '%s' already has an underlay address", pt->name);
	snprintf(pt->addr, sizeof(pt->addr), "%s", tok[1]);
	pt->family = a.family;
	return 0;
}

/* host NAME, or host NAME remote ssh://USER@ADDR[:PORT] */
static int open_host(struct parser *p, char **tok, int n)
{
	const struct topo_host *dup;
	struct topo_host *h;
	struct topo_remote rm = { 0 };
	const char *why;

	if (n != 2 && !(n == 4 && !strcmp(tok[2], "remote")))
		return lg_fail(&p->e, p->line, "usage: host NAME [remote ssh://USER@ADDR[:PORT]]");
	if (!valid_name(tok[1], TOPO_NAME_MAX))
		return lg_fail(&p->e, p->line, "bad host name '%s' (a-z, 0-9, '-', '_', at most %d)", tok[1], TOPO_NAME_MAX);
	if ((dup = topo_host(p->t, tok[1])))
		return lg_fail(&p->e, p->line, "duplicate host '%s' (first at line %d)", tok[1], dup->line);
	if (p->t->nhosts == TOPO_MAX_HOSTS)
		return lg_fail(&p->e, p->line, "too many hosts (at most %d)", TOPO_MAX_HOSTS);
	if (n == 4 && (why = topo_parse_remote_url(tok[3], &rm)))
		return lg_fail(&p->e, p->line, "bad remote '%s': %s", tok[3], why);
	h = &p->t->hosts[p->t->nhosts++];
	snprintf(h->name, sizeof(h->name), "%s", tok[1]);
	h->line = p->line;
	h->memory_mib = TOPO_DEFAULT_MEMORY_MIB;
	h->cpus = 1;
	h->remote = rm;
	h->remote.line = p->line;
	h->part = -1;
	p->blk = BLK_HOST;
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	char *tok[MAX_TOKENS], *rest, *s, *w;
	bool indented = line[0] == ' ' || line[0] == '\t';
	int n = 0;

	s = strchr(line, '#');
	if (s)
		*s = '\0';
	s = line;
	tok[n] = lg_word(&s);
	if (!tok[n++])
		return 0;
	/* what follows the key, whole: the words below are cut out of s in place */
	rest = strdup(lg_trim(s));
	while ((w = lg_word(&s))) {
		if (n == MAX_TOKENS) {
			free(rest);
			return lg_fail(&p->e, p->line, "too many words");
		}
		tok[n++] = w;
	}

	int ret;

	if (!indented) {
		ret = 0;
		if (!strcmp(tok[0], "segment")) {
			struct topo_segment *seg;

			if (n != 2)
				ret = lg_fail(&p->e, p->line, "usage: segment NAME");
			else if (!valid_name(tok[1], TOPO_NAME_MAX))
				ret = lg_fail(&p->e, p->line, "bad segment name '%s' (a-z, 0-9, '-', '_', at most %d)", tok[1], TOPO_NAME_MAX);
			else if (topo_segment_index(p->t, tok[1]) >= 0)
				ret = lg_fail(&p->e, p->line, "duplicate segment '%s' (first at line %d)", tok[1],
					   p->t->segments[topo_segment_index(p->t, tok[1])].line);
			else if (p->t->nsegments == TOPO_MAX_SEGMENTS)
				ret = lg_fail(&p->e, p->line, "too many segments (at most %d)", TOPO_MAX_SEGMENTS);
			else {
				seg = &p->t->segments[p->t->nsegments++];
				snprintf(seg->name, sizeof(seg->name), "%s", tok[1]);
				seg->line = p->line;
				seg->dhcp = false;
				p->blk = BLK_SEGMENT;
			}
		} else if (!strcmp(tok[0], "host")) {
			ret = open_host(p, tok, n);
		} else if (!strcmp(tok[0], "part")) {
			ret = topo_open_part(p, tok, n);
		} else {
			ret = lg_fail(&p->e, p->line, "unknown key '%s' (a block starts with 'segment NAME', 'host NAME' or 'part NAME')", tok[0]);
		}
	} else if (p->blk == BLK_SEGMENT) {
		ret = parse_segment_key(p, tok, n);
	} else if (p->blk == BLK_HOST) {
		ret = parse_host_key(p, tok, n, rest);
	} else if (p->blk == BLK_PART) {
		ret = topo_part_key(p, tok, n);
	} else {
		ret = lg_fail(&p->e, p->line, "indented '%s' outside a segment or host block", tok[0]);
	}
	free(rest);
	return ret;
}

int topo_parse(const char *path, const char *text, struct topology *t,
	       char *err, size_t errlen)
{
	struct parser *p;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;
	const char *base;

	memset(t, 0, sizeof(*t));
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	p->e.path = path;
	p->t = t;
	p->e.err = err;
	p->e.errlen = errlen;
	err[0] = '\0';

	f = text ? fmemopen((void *)text, strlen(text), "r") : fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: couldn't open topology: %s", path, errno_str(errno));
		free(p);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(t->name, sizeof(t->name), "%s", base);
	if (strchr(t->name, '.'))
		*strchr(t->name, '.') = '\0';

	while ((len = getline(&line, &cap, f)) >= 0) {
		p->line++;
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		ret = parse_line(p, line);
		if (ret)
			break;
	}
	if (!ret)
		ret = topo_validate(p);
	free(line);
	fclose(f);
	free(p);
	return ret;
}
