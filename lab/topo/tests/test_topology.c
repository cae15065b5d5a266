// SPDX-License-Identifier: GPL-2.0-only
/*
 * Topology parser tests (TAP). Every file given on the command line is
 * parsed; a file whose first line is "# expect-error: LINE: MESSAGE" must
 * fail with exactly "FILE:LINE: MESSAGE", any other must parse. Then a few
 * files are checked field by field.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topo/topo_lookup.h"
#include "topo/topo_parse.h"
#include "topo/topo_prefix.h"
#include "topo/topo_remote.h"
#include "topo/topology.h"

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
	ASSERT_EQ(h->icount, 1, "icount on");
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

static void check_remote(const char *path)
{
	char err[512];
	const struct topo_host *h;

	if (!ASSERT_EQ(topo_parse_file(path, &topo, err, sizeof(err)), 0, "good-remote parses"))
		return;
	h = topo_host(&topo, "sender");
	if (ASSERT_OK_PTR(h, "guest sender found"))
		ASSERT_EQ(h->remote.on, 0, "sender is a guest");
	h = topo_host(&topo, "far");
	if (!ASSERT_OK_PTR(h, "remote far found"))
		return;
	ASSERT_EQ(h->remote.on, 1, "far is remote");
	ASSERT_STREQ(h->remote.user, "root", "far user");
	ASSERT_STREQ(h->remote.addr, "198.51.100.2", "far address");
	ASSERT_EQ(h->remote.family, AF_INET, "far underlay is IPv4");
	ASSERT_EQ(h->remote.port, 2222, "far port");
	ASSERT_OK_PTR(strstr(h->remote.key, "/lab/topo/tests/dummy-key"), "key resolved next to the topology");
	ASSERT_EQ(h->remote.key[0], '/', "key path made absolute");
	ASSERT_EQ(h->nnics, 1, "far nics");
	ASSERT_EQ(h->nics[0].naddrs, 2, "far addresses");
	h = topo_host(&topo, "far6");
	if (!ASSERT_OK_PTR(h, "remote far6 found"))
		return;
	ASSERT_STREQ(h->remote.user, "bpf_user", "far6 user");
	ASSERT_STREQ(h->remote.addr, "2001:db8:ff::2", "IPv6 address out of its brackets");
	ASSERT_EQ(h->remote.family, AF_INET6, "far6 underlay is IPv6");
	ASSERT_EQ(h->remote.port, 22, "default port");
	ASSERT_EQ(h->remote.key[0], 0, "no key");
}

static void check_parts(const char *path)
{
	char err[512];

	if (!ASSERT_EQ(topo_parse_file(path, &topo, err, sizeof(err)), 0, "good-parts parses"))
		return;
	ASSERT_EQ(topo.nparts, 2, "two parts");
	ASSERT_STREQ(topo.parts[1].name, "b", "part b");
	ASSERT_STREQ(topo.parts[1].addr, "198.51.100.2", "part b's underlay");
	ASSERT_EQ(topo_host(&topo, "left")->part, 0, "left is in part a");
	ASSERT_EQ(topo_host(&topo, "right")->part, 1, "right is in part b");
}

/* The URL's grammar, case by case (the .topo cases cover the messages in context). */
static void check_urls(void)
{
	static const struct { const char *url, *why; } bad[] = {
		{ "ssh://198.51.100.2", "the URL has no USER@" },
		{ "ssh://Root@198.51.100.2", "bad user name (a-z 0-9 _ - ., at most 32, starting with a letter or _)" },
		{ "ssh://root@", "the URL has no address" },
		{ "ssh://root@198.51.100.2:", "the port is not a number" },
		{ "ssh://root@198.51.100.2:0", "the port is not in 1..65535" },
		{ "ssh://root@198.51.100.2:22x", "the port is not in 1..65535" },
		{ "ssh://root@198.51.100.2/home", "junk after the address (a path? the URL is ssh://USER@ADDR[:PORT])" },
		{ "ssh://root@[2001:db8::2", "an IPv6 address in brackets has no ']'" },
		{ "ssh://root@2001:db8::2", "the port is not a number" },
		{ "ssh://root@198.51.100.256", "the address is not an IPv4 or IPv6 address (the lab resolves no names)" },
	};
	struct topo_remote r;
	char name[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = topo_parse_remote_url(bad[i].url, &r);

		snprintf(name, sizeof(name), "%s is refused: %s", bad[i].url, bad[i].why);
		ASSERT_STREQ(why ? why : "(accepted)", bad[i].why, name);
	}
	ASSERT_EQ(topo_parse_remote_url("ssh://root@[2001:db8::2]:2022", &r) == NULL, 1, "bracketed v6 with port");
	ASSERT_EQ(r.port, 2022, "v6 port");
}

static void check_strings(void)
{
	char err[512];

	ASSERT_EQ(topo_parse("inline", "segment s\n    ipv4 192.0.2.0/24\n", &topo, err, sizeof(err)), -1,
		   "no hosts is rejected");
	ASSERT_STREQ(err, "inline:2: no hosts defined", "no hosts message");
	ASSERT_EQ(topo_parse("inline", "host a\n icount maybe\n", &topo, err, sizeof(err)), -1,
		   "icount neither on nor off");
	ASSERT_STREQ(err, "inline:2: 'icount' takes on or off", "icount message");
	ASSERT_EQ(topo_parse("inline", "host a\nhost b\n icount off\n", &topo, err, sizeof(err)), 0,
		   "icount off parses");
	ASSERT_EQ(topo.hosts[0].icount + topo.hosts[1].icount, 0, "icount is off unless said");
	ASSERT_EQ(topo_set_icount(&topo, "b"), 0, "up --icount b");
	ASSERT_EQ(topo.hosts[1].icount, 1, "up --icount b: b is on");
	ASSERT_EQ(topo_set_icount(&topo, "nosuch"), -1, "up --icount of no such guest");
	ASSERT_EQ(topo_parse("inline", "host a\n  nic eth0 s\n", &topo, err, sizeof(err)), -1,
		   "nic on undefined segment");
	ASSERT_STREQ(err, "inline:2: unknown segment 's'", "undefined segment message");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv4 192.0.2.0/24\nhost a\n nic eth0 s\n address eth0 192.0.2.255\n",
			      &topo, err, sizeof(err)), -1, "broadcast address");
	ASSERT_STREQ(err, "inline:5: address 192.0.2.255/24 is the network or broadcast address", "broadcast message");
	ASSERT_EQ(topo_parse("inline", "  memory 1G\n", &topo, err, sizeof(err)), -1, "key outside a block");
	ASSERT_STREQ(err, "inline:1: indented 'memory' outside a segment or host block", "outside block message");
	ASSERT_EQ(topo_parse("inline", "host lone\n", &topo, err, sizeof(err)), 0, "a host without NICs");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv4 192.0.2.0/24\nhost r remote ssh://root@198.51.100.2\n",
			      &topo, err, sizeof(err)), -1, "a remote host without NICs");
	ASSERT_STREQ(err, "inline:3: remote host 'r' has no NIC: it would join no segment", "remote without NICs message");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv6 2001:db8:1::/64\nhost r remote ssh://root@[fe80::1]\n nic bw0 s\n",
			      &topo, err, sizeof(err)), -1, "a link-local underlay");
	ASSERT_STREQ(err, "inline:3: remote host 'r' at fe80::1: the address is link-local (it needs a scope, which an ssh:// URL cannot carry)",
		     "link-local underlay message");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv4 192.0.2.0/24\n dhcp on\nhost r remote ssh://root@198.51.100.2\n nic bw0 s\n address bw0 dhcp\n",
			      &topo, err, sizeof(err)), -1, "dhcp on a remote");
	ASSERT_STREQ(err, "inline:6: remote host 'r' takes static addresses only", "dhcp on a remote message");
	ASSERT_EQ(topo_parse("inline", "segment s\n ipv4 192.0.2.0/24\nhost r remote ssh://root@198.51.100.2\n nic bw0 s model e1000\n",
			      &topo, err, sizeof(err)), -1, "a model on a remote NIC");
	ASSERT_STREQ(err, "inline:4: a remote host's NIC is a VXLAN device: it takes no model", "remote model message");
	ASSERT_EQ(topo_parse("inline", "host r remote ssh://root@203.0.113.7 x\n", &topo, err, sizeof(err)), -1,
		   "host line with a word too many");
	ASSERT_STREQ(err, "inline:1: usage: host NAME [remote ssh://USER@ADDR[:PORT]]", "host usage message");
}

/*
 * --shipped DIR first: every *.topo in DIR must be among the arguments, so a
 * topology added without meson.build's list fails here. Prints the count.
 */
static int check_shipped(const char *dir, int argc, char **argv)
{
	char name[300];
	int n = 0, given = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!ASSERT_OK_PTR(d, "topology/ opens"))
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		bool found = false;

		if (l < 6 || strcmp(e->d_name + l - 5, ".topo"))
			continue;
		n++;
		for (int i = 1; i < argc && !found; i++) {
			const char *b = strrchr(argv[i], '/');

			found = !strcmp(b ? b + 1 : argv[i], e->d_name) && strstr(argv[i], "topology/");
		}
		given += found;
		snprintf(name, sizeof(name), "shipped %s is parsed", e->d_name);
		ASSERT_TRUE(found, name);
	}
	closedir(d);
	printf("# %d shipped topologies in %s, %d of them parsed\n", n, dir, given);
	ASSERT_TRUE(n > 0, "topology/ has topologies");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--shipped")) {
		check_shipped(argv[2], argc, argv);
		argv += 2;
		argc -= 2;
	}
	for (int i = 1; i < argc; i++) {
		check_file(argv[i]);
		if (strstr(argv[i], "good-everything"))
			check_everything(argv[i]);
		if (strstr(argv[i], "good-remote"))
			check_remote(argv[i]);
		if (strstr(argv[i], "good-parts"))
			check_parts(argv[i]);
	}
	check_urls();
	check_strings();
	return tap_done();
}
