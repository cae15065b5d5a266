// SPDX-License-Identifier: GPL-2.0-only
/*
 * Topology parser tests (TAP). Every file given on the command line is
 * parsed; a file whose first line is "# expect-error: LINE: MESSAGE" must
 * fail with exactly "FILE:LINE: MESSAGE", any other must parse. Then a few
 * files are checked field by field.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topology.h"

static struct topology topo;

static void check_file(const char *path)
{
	char err[512], first[512] = "", expect[600], name[700];
	FILE *f = fopen(path, "r");
	const char *tag = "# expect-error: ";
	int ret;

	if (f) {
		if (!fgets(first, sizeof(first), f))
			first[0] = '\0';
		fclose(f);
	}
	first[strcspn(first, "\n")] = '\0';
	ret = topo_parse_file(path, &topo, err, sizeof(err));
	if (!strncmp(first, tag, strlen(tag))) {
		snprintf(expect, sizeof(expect), "%s:%s", path, first + strlen(tag));
		snprintf(name, sizeof(name), "%s is rejected", path);
		ASSERT_EQ(ret, -1, name);
		snprintf(name, sizeof(name), "%s error message", path);
		ASSERT_STREQ(err, expect, name);
	} else {
		snprintf(name, sizeof(name), "%s parses", path);
		if (!ASSERT_EQ(ret, 0, name))
			printf("#   error: %s\n", err);
	}
}

static void check_everything(const char *path)
{
	char err[512], buf[80];
	const struct topo_host *h;

	if (!ASSERT_EQ(topo_parse_file(path, &topo, err, sizeof(err)), 0, "good-everything parses"))
		return;
	ASSERT_EQ(topo.nsegments, 2, "segments");
	ASSERT_EQ(topo.segments[0].dhcp, 1, "left has dhcp");
	ASSERT_EQ(topo.segments[1].dhcp, 0, "right has dhcp off by default");
	ASSERT_EQ(topo.segments[1].v4.family, 0, "right has no ipv4");
	topo_format_prefix(&topo.segments[0].v4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "192.0.2.0/25", "left ipv4");
	h = topo_host(&topo, "gw");
	if (!ASSERT_OK_PTR(h, "host gw found"))
		return;
	ASSERT_EQ(h->memory_mib, 1024, "memory 1G");
	ASSERT_EQ(h->cpus, 2, "cpus");
	ASSERT_EQ(h->router, 1, "router");
	ASSERT_STREQ(h->append, "loglevel=7 bpfwire.debug=1", "append");
	ASSERT_EQ(h->nnics, 2, "nics");
	ASSERT_STREQ(topo_model_qemu(h->nics[0].model), "e1000e", "eth0 model");
	ASSERT_STREQ(topo_model_qemu(h->nics[1].model), "virtio-net-pci", "eth1 default model");
	topo_format_mac(h->nics[0].mac, buf);
	ASSERT_STREQ(buf, "02:00:00:00:00:01", "given MAC");
	topo_format_mac(h->nics[1].mac, buf);
	ASSERT_STREQ(buf, "52:54:00:bf:01:01", "derived MAC");
	ASSERT_EQ(h->nics[0].dhcp, 1, "eth0 dhcp");
	ASSERT_EQ(h->nics[0].naddrs, 1, "eth0 static addresses");
	topo_format_prefix(&h->nics[0].addrs[0].a, buf, sizeof(buf));
	ASSERT_STREQ(buf, "192.0.2.2/25", "address takes segment length");
	topo_format_prefix(&h->nics[1].addrs[1].a, buf, sizeof(buf));
	ASSERT_STREQ(buf, "fe80::1/64", "link-local address");
	ASSERT_EQ(h->nroutes, 2, "routes");
	ASSERT_EQ(h->routes[1].family, AF_INET6, "default route family from gateway");
	ASSERT_STREQ(h->routes[1].dev, "eth1", "route dev");
	ASSERT_EQ(h->nsysctls, 1, "sysctls");
	ASSERT_STREQ(h->sysctls[0].key, "net.ipv4.conf.all.rp_filter", "sysctl key");
	ASSERT_STREQ(h->sysctls[0].value, "0", "sysctl value");
}

static void check_strings(void)
{
	char err[512];

	ASSERT_EQ(topo_parse("inline", "segment s\n    ipv4 192.0.2.0/24\n", &topo, err, sizeof(err)), -1,
		   "no hosts is rejected");
	ASSERT_STREQ(err, "inline:2: no hosts defined", "no hosts message");
	ASSERT_EQ(topo_parse("inline", "host a\n  nic eth0 s\n", &topo, err, sizeof(err)), -1,
		   "nic on undefined segment");
	ASSERT_STREQ(err, "inline:2: unknown segment 's'", "undefined segment message");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv4 192.0.2.0/24\nhost a\n nic eth0 s\n address eth0 192.0.2.255\n",
			      &topo, err, sizeof(err)), -1, "broadcast address");
	ASSERT_STREQ(err, "inline:5: address 192.0.2.255/24 is the network or broadcast address", "broadcast message");
	ASSERT_EQ(topo_parse("inline", "  memory 1G\n", &topo, err, sizeof(err)), -1, "key outside a block");
	ASSERT_STREQ(err, "inline:1: indented 'memory' outside a segment or host block", "outside block message");
	ASSERT_EQ(topo_parse("inline", "host lone\n", &topo, err, sizeof(err)), 0, "a host without NICs");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		check_file(argv[i]);
		if (strstr(argv[i], "good-everything"))
			check_everything(argv[i]);
	}
	check_strings();
	return tap_done();
}
