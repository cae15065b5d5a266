// SPDX-License-Identifier: GPL-2.0-only
/* The run's network: netns, bridges, taps, dnsmasq, one tcpdump per segment. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "log.h"
#include "model.h"
#include "net.h"
#include "netns.h"
#include "proc.h"
#include "state.h"
#include "timeutil.h"
#include "topo/topo_prefix.h"
#include "topo/topology.h"
#include "util.h"

static int write_netns_batch(const struct lab_run *r, const struct topology *t, const char *path)
{
	FILE *f = fopen(path, "w");
	char buf[128];

	if (!f)
		return -errno;
	for (int s = 0; s < t->nsegments; s++) {
		const struct topo_segment *seg = &t->segments[s];
		const char *br = r->segments[s].bridge;
		struct topo_prefix lab;

		fprintf(f, "link add %s type bridge forward_delay 0 mcast_snooping 0 stp_state 0\n", br);
		if (seg->dhcp) {
			if (seg->v4.family) {
				topo_segment_lab_addr(&seg->v4, &lab);
				topo_format_prefix(&lab, buf, sizeof(buf));
				fprintf(f, "addr add %s dev %s\n", buf, br);
			}
			if (seg->v6.family) {
				topo_segment_lab_addr(&seg->v6, &lab);
				topo_format_prefix(&lab, buf, sizeof(buf));
				fprintf(f, "addr add %s dev %s nodad\n", buf, br);
			}
		}
		fprintf(f, "link set %s up\n", br);
	}
	for (int g = 0; g < r->nguests; g++)
		for (int n = 0; n < r->guests[g].nnics; n++) {
			const struct lab_nic *nic = &r->guests[g].nics[n];

			fprintf(f, "tuntap add dev %s mode tap\n", nic->tap);
			fprintf(f, "link set %s master br-%s up\n", nic->tap, nic->segment);
		}
	return fclose(f) ? -errno : 0;
}

/* An unprivileged user for the daemons once their sockets are open. */
static const char *daemon_user(const char *own)
{
	return getpwnam(own) ? own : "nobody";
}

/*
 * tcpdump drops to its own user (-Z) once the capture is open, so it writes
 * the pcap to stdout, which the lab opened (truncated, never through a
 * link): the user needs no access to the results tree.
 */
int net_start_tcpdump(struct lab_run *r, int s)
{
	struct lab_segment *seg = &r->segments[s];
	char log[PATH_MAX + 32];
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->netns, .setsid = true, .out = seg->pcap, .err = log };
	pid_t pid;
	int fd;

	snprintf(log, sizeof(log), "%s/segments/%s.tcpdump.log", r->results, seg->name);
	fd = open(seg->pcap, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		pr_warn("couldn't create %s: %s", seg->pcap, errno_str(-errno));
		return -1;
	}
	close(fd);
	argv_add(&a, "tcpdump"); argv_add(&a, "-i"); argv_add(&a, "%s", seg->bridge);
	argv_add(&a, "-w"); argv_add(&a, "-");
	argv_add(&a, "-U"); argv_add(&a, "-n"); argv_add(&a, "-s"); argv_add(&a, "0");
	argv_add(&a, "--immediate-mode"); argv_add(&a, "-Z"); argv_add(&a, "%s", daemon_user("tcpdump"));
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("couldn't start tcpdump on %s: %s", seg->bridge, errno_str(pid));
		return -1;
	}
	lab_add_proc(r, "tcpdump", seg->name, pid);
	return 0;
}

static int wait_pcaps(struct lab_run *r)
{
	double deadline = now_s() + 5;

	for (int s = 0; s < r->nsegments; s++) {
		struct stat st;

		while (stat(r->segments[s].pcap, &st) || st.st_size < 24) {
			if (now_s() > deadline || lab_interrupted) {
				pr_warn("tcpdump on %s wrote no pcap header to %s in 5 s",
					r->segments[s].bridge, r->segments[s].pcap);
				return -1;
			}
			sleep_ms(10);
		}
	}
	return 0;
}

static int start_dnsmasq(struct lab_run *r, const struct topology *t)
{
	char log[PATH_MAX + 32], leases[PATH_MAX + 32], buf[128];
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->netns, .setsid = true };
	bool any = false;
	pid_t pid;

	snprintf(log, sizeof(log), "%s/segments/dnsmasq.log", r->results);
	snprintf(leases, sizeof(leases), "%s/dnsmasq.leases", r->statedir);
	so.out = log;
	argv_add(&a, "dnsmasq"); argv_add(&a, "--keep-in-foreground"); argv_add(&a, "--conf-file=/dev/null");
	argv_add(&a, "--port=0"); argv_add(&a, "--bind-interfaces");
	/* drops root once its sockets and the lease file are open */
	argv_add(&a, "--user=%s", daemon_user("dnsmasq")); argv_add(&a, "--group=nogroup");
	argv_add(&a, "--pid-file");	/* none: the lab keeps the pid */
	argv_add(&a, "--log-dhcp"); argv_add(&a, "--log-facility=-");
	argv_add(&a, "--no-ping");	/* no 3 s ICMP check before each offer */
	argv_add(&a, "--dhcp-leasefile=%s", leases);
	argv_add(&a, "--dhcp-option=3"); argv_add(&a, "--dhcp-option=6");	/* no router, no DNS */
	argv_add(&a, "--enable-ra");
	for (int s = 0; s < t->nsegments; s++) {
		const struct topo_segment *seg = &t->segments[s];
		struct topo_prefix lo, hi;
		char lob[64], hib[64];

		if (!seg->dhcp)
			continue;
		any = true;
		argv_add(&a, "--interface=%s", r->segments[s].bridge);
		if (seg->v4.family) {
			/* the upper half of the prefix, minus broadcast */
			uint32_t net = ntohl(seg->v4.addr.v4.s_addr), size = 1u << (32 - seg->v4.plen);

			lo = hi = seg->v4;
			lo.addr.v4.s_addr = htonl(net + size / 2);
			hi.addr.v4.s_addr = htonl(net + size - 2);
			lo.plen = hi.plen = -1;
			topo_format_prefix(&lo, lob, sizeof(lob));
			topo_format_prefix(&hi, hib, sizeof(hib));
			argv_add(&a, "--dhcp-range=%s,%s,%u", lob, hib, 3600);
		}
		if (seg->v6.family) {
			lo = seg->v6;
			lo.plen = -1;
			topo_format_prefix(&lo, buf, sizeof(buf));
			argv_add(&a, "--dhcp-range=%s,ra-only,%d", buf, seg->v6.plen);
			argv_add(&a, "--ra-param=%s,10,0", r->segments[s].bridge);	/* not a default router */
		}
	}
	if (!any) {
		argv_free(&a);
		return 0;
	}
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("couldn't start dnsmasq: %s", errno_str(pid));
		return -1;
	}
	lab_add_proc(r, "dnsmasq", "all", pid);
	return 0;
}

/* Keep captures quiet: no IPv6 on taps, nor on bridges the lab doesn't serve. */
static void quiet_ipv6(const struct lab_run *r, const struct topology *t)
{
	char key[128];

	for (int g = 0; g < r->nguests; g++)
		for (int n = 0; n < r->guests[g].nnics; n++) {
			snprintf(key, sizeof(key), "net.ipv6.conf.%s.disable_ipv6", r->guests[g].nics[n].tap);
			netns_sysctl(r->netns, key, "1");
		}
	for (int s = 0; s < t->nsegments; s++)
		if (!t->segments[s].dhcp) {
			snprintf(key, sizeof(key), "net.ipv6.conf.%s.disable_ipv6", r->segments[s].bridge);
			netns_sysctl(r->netns, key, "1");
		}
}

int net_up(struct lab_run *r, const struct topology *t, bool capture)
{
	char path[PATH_MAX + 32], err[2048] = "";

	if (netns_create(r->netns, err, sizeof(err))) {
		pr_warn("couldn't create netns %s: %s", r->netns, err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/netns.batch", r->statedir);
	if (write_netns_batch(r, t, path) || netns_ip_batch(r->netns, path, err, sizeof(err))) {
		pr_warn("couldn't set up bridges and taps in %s: %s", r->netns, err);
		return -1;
	}
	quiet_ipv6(r, t);
	if (start_dnsmasq(r, t))
		return -1;
	for (int s = 0; capture && s < r->nsegments; s++)
		if (net_start_tcpdump(r, s))
			return -1;
	lab_save(r);
	return capture ? wait_pcaps(r) : 0;
}

int lab_capture_start(struct lab_run *r, const char *segment)
{
	for (int s = 0; s < r->nsegments; s++) {
		if (strcmp(r->segments[s].name, segment))
			continue;
		for (int i = 0; i < r->nprocs; i++)
			if (!strcmp(r->procs[i].role, "tcpdump") && !strcmp(r->procs[i].name, segment) &&
			    proc_alive(r->procs[i].pid, r->procs[i].start)) {
				printf("%s: already capturing into %s (tcpdump pid %d)\n", segment,
				       r->segments[s].pcap, r->procs[i].pid);
				return 0;
			}
		if (net_start_tcpdump(r, s))
			return -1;
		lab_save(r);
		return 0;
	}
	pr_warn("run %s has no segment '%s'", r->id, segment);
	return -1;
}

