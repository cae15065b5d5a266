// SPDX-License-Identifier: GPL-2.0-only
/*
 * The grammar of a remote host (topology/README.md): its ssh:// URL, its key
 * file and what is checked of its underlay address.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "topo_prefix.h"
#include "topo_remote.h"
#include "topology.h"

static bool valid_user(const char *u, size_t n)
{
	if (!n || n > TOPO_USER_MAX || !(islower((unsigned char)u[0]) || u[0] == '_'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)u[i]) && !isdigit((unsigned char)u[i]) && !strchr("_-.", u[i]))
			return false;
	return true;
}

static const char *parse_port(const char *s, unsigned *port)
{
	char *end;
	unsigned long v;

	if (!*s || !isdigit((unsigned char)*s))
		return "the port is not a number";
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v < 1 || v > 65535)
		return "the port is not in 1..65535";
	*port = (unsigned)v;
	return NULL;
}

const char *topo_parse_remote_url(const char *url, struct topo_remote *r)
{
	const char *at, *host, *end, *why;
	char addr[64];
	unsigned char bin[16];
	size_t n;

	memset(r, 0, sizeof(*r));
	r->port = 22;
	if (strncmp(url, "ssh://", 6))
		return "the URL does not start with ssh://";
	url += 6;
	at = strchr(url, '@');
	if (!at)
		return "the URL has no USER@";
	if (!valid_user(url, (size_t)(at - url)))
		return "bad user name (a-z 0-9 _ - ., at most 32, starting with a letter or _)";
	snprintf(r->user, sizeof(r->user), "%.*s", (int)(at - url), url);
	host = at + 1;
	if (*host == '[') {
		end = strchr(++host, ']');
		if (!end)
			return "an IPv6 address in brackets has no ']'";
		n = (size_t)(end - host);
		end++;
	} else {
		end = strpbrk(host, ":/");
		if (!end)
			end = host + strlen(host);
		n = (size_t)(end - host);
	}
	if (!n || n >= sizeof(addr))
		return "the URL has no address";
	snprintf(addr, sizeof(addr), "%.*s", (int)n, host);
	if (*end == ':') {
		why = parse_port(end + 1, &r->port);
		if (why)
			return why;
	} else if (*end) {
		return "junk after the address (a path? the URL is ssh://USER@ADDR[:PORT])";
	}
	if (inet_pton(AF_INET, addr, bin) == 1)
		r->family = AF_INET;
	else if (inet_pton(AF_INET6, addr, bin) == 1)
		r->family = AF_INET6;
	else
		return "the address is not an IPv4 or IPv6 address (the lab resolves no names)";
	snprintf(r->addr, sizeof(r->addr), "%s", addr);
	r->on = true;
	return NULL;
}

/*
 * The underlay address is the user's real machine, so no prefix is imposed
 * on it; what can never be a remote machine is refused, and so is an
 * address inside a segment (an overlay address is not an underlay).
 */
const char *topo_remote_check_addr(const struct topology *t, const struct topo_remote *r)
{
	struct topo_prefix a, any;
	const uint8_t *b;

	if (prefix_parse(r->addr, &a))
		return "the address does not parse";
	b = prefix_bytes(&a);
	if (a.family == AF_INET) {
		if (b[0] == 0 || b[0] == 127 || b[0] >= 224)
			return "the address is unspecified, loopback, multicast or broadcast";
		if (b[0] == 169 && b[1] == 254)
			return "the address is link-local";
	} else {
		static const uint8_t zero[16];

		if (!memcmp(b, zero, 15) && (b[15] == 0 || b[15] == 1))
			return "the address is unspecified or loopback";
		if (b[0] == 0xff)
			return "the address is multicast";
		prefix_parse("fe80::/10", &any);
		if (prefix_contains(&any, &a))
			return "the address is link-local (it needs a scope, which an ssh:// URL cannot carry)";
	}
	for (int s = 0; s < t->nsegments; s++) {
		const struct topo_prefix *net = a.family == AF_INET ? &t->segments[s].v4 : &t->segments[s].v6;

		if (net->family && prefix_contains(net, &a))
			return "the address lies inside a segment's prefix: the underlay must be outside the lab";
	}
	return NULL;
}

int topo_resolve_key(const char *topo_path, const char *file, char *out, size_t len,
		     char *why, size_t whylen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(topo_path, '/');
	struct stat st;

	if (file[0] == '/')
		snprintf(dir, sizeof(dir), "%s", "");
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s/", (int)(slash - topo_path), topo_path);
	else
		snprintf(dir, sizeof(dir), "./");
	if (snprintf(out, len, "%s%s", dir, file) >= (int)len) {
		snprintf(why, whylen, "key file '%s': the path is too long", file);
		return -1;
	}
	if (stat(out, &st)) {
		snprintf(why, whylen, "key file '%s'%s: %s", file,
			 file[0] == '/' ? "" : ", relative to the topology's directory", errno_str(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "key file '%s' is not a regular file", file);
		return -1;
	}
	if (file[0] != '/') {
		char abs[PATH_MAX];

		if (realpath(out, abs))
			snprintf(out, len, "%s", abs);
	}
	return 0;
}
