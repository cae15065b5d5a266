// SPDX-License-Identifier: GPL-2.0-only
/* Address arithmetic for topologies: prefixes, containment, formatting. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_prefix.h"
#include "topology.h"

/* "ADDR" or "ADDR/LEN"; plen = -1 when absent. */
int prefix_parse(const char *s, struct topo_prefix *out)
{
	char buf[80], *slash, *end;
	long len = -1;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		errno = 0;
		len = strtol(slash + 1, &end, 10);
		if (errno || *end || end == slash + 1 || len < 0)
			return -1;
	}
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, buf, &out->addr.v4) == 1) {
		out->family = AF_INET;
		if (len > 32)
			return -1;
	} else if (inet_pton(AF_INET6, buf, &out->addr.v6) == 1) {
		out->family = AF_INET6;
		if (len > 128)
			return -1;
	} else {
		return -1;
	}
	out->plen = (int)len;
	return 0;
}

const uint8_t *prefix_bytes(const struct topo_prefix *p)
{
	return p->family == AF_INET ? (const uint8_t *)&p->addr.v4
				    : (const uint8_t *)&p->addr.v6;
}

/* Is address a inside network n/n.plen? */
bool prefix_contains(const struct topo_prefix *n, const struct topo_prefix *a)
{
	const uint8_t *nb = prefix_bytes(n), *ab = prefix_bytes(a);
	int bits = n->plen;

	if (n->family != a->family)
		return false;
	for (int i = 0; bits > 0; i++, bits -= 8) {
		uint8_t mask = bits >= 8 ? 0xff : (uint8_t)(0xff << (8 - bits));

		if ((nb[i] & mask) != (ab[i] & mask))
			return false;
	}
	return true;
}

bool prefix_host_zero(const struct topo_prefix *p)
{
	const uint8_t *b = prefix_bytes(p);
	int total = p->family == AF_INET ? 32 : 128;

	for (int bit = p->plen; bit < total; bit++)
		if (b[bit / 8] & (0x80 >> (bit % 8)))
			return false;
	return true;
}

bool prefix_host_ones(const struct topo_prefix *p)
{
	const uint8_t *b = prefix_bytes(p);

	for (int bit = p->plen; bit < 32; bit++)
		if (!(b[bit / 8] & (0x80 >> (bit % 8))))
			return false;
	return true;
}

bool prefix_same(const struct topo_prefix *a, const struct topo_prefix *b)
{
	if (a->family != b->family)
		return false;
	return memcmp(prefix_bytes(a), prefix_bytes(b),
		      a->family == AF_INET ? 4 : 16) == 0;
}

/* Only documentation prefixes and link-local may appear in a topology. */
bool prefix_documentation(const struct topo_prefix *p)
{
	static const char *const allowed[] = {
		"192.0.2.0/24", "198.51.100.0/24", "2001:db8::/32",
	};
	struct topo_prefix n;

	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		prefix_parse(allowed[i], &n);
		if (p->family == n.family && p->plen >= n.plen && prefix_contains(&n, p))
			return true;
	}
	return false;
}

bool prefix_link_local(const struct topo_prefix *p)
{
	struct topo_prefix ll;

	prefix_parse("fe80::/64", &ll);
	return prefix_contains(&ll, p);
}

void topo_format_prefix(const struct topo_prefix *p, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (!p->family) {
		snprintf(out, len, "dhcp");
		return;
	}
	inet_ntop(p->family, prefix_bytes(p), a, sizeof(a));
	if (p->plen >= 0)
		snprintf(out, len, "%s/%d", a, p->plen);
	else
		snprintf(out, len, "%s", a);
}

void topo_segment_lab_addr(const struct topo_prefix *p, struct topo_prefix *out)
{
	uint8_t *b;

	*out = *p;
	b = out->family == AF_INET ? (uint8_t *)&out->addr.v4 : (uint8_t *)&out->addr.v6;
	b[out->family == AF_INET ? 3 : 15] |= 1;
}

void topo_format_mac(const uint8_t mac[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

