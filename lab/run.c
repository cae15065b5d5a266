// SPDX-License-Identifier: GPL-2.0-only
/* A lab run: netns, bridges, taps, dnsmasq, tcpdump, QEMU guests. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab-config.h"
#include "errnames.h"
#include "log.h"
#include "netns.h"
#include "qga.h"
#include "qmp.h"
#include "run.h"
#include "util.h"

int lab_load_state(const char *path, struct lab_run *r);

const char *lab_default_kernel(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("BPFWIRE_KERNEL");

	if (env && *env)
		return env;
	snprintf(path, sizeof(path), "%s/kernel/bzImage", BPFWIRE_BUILD_ROOT);
	if (!file_exists(path)) {
		/* a build dir configured with -Dkernel=disabled: the main one's */
		char alt[PATH_MAX];

		snprintf(alt, sizeof(alt), "%s/build/kernel/bzImage", BPFWIRE_SOURCE_ROOT);
		if (file_exists(alt))
			snprintf(path, sizeof(path), "%s", alt);
	}
	return path;
}

const struct lab_guest *lab_guest(const struct lab_run *r, const char *name)
{
	for (int i = 0; i < r->nguests; i++)
		if (!strcmp(r->guests[i].name, name))
			return &r->guests[i];
	return NULL;
}

static const struct lab_nic *guest_nic(const struct lab_guest *g, const char *ifname)
{
	for (int i = 0; i < g->nnics; i++)
		if (!strcmp(g->nics[i].ifname, ifname))
			return &g->nics[i];
	return NULL;
}

static void add_proc(struct lab_run *r, const char *role, const char *name, pid_t pid)
{
	struct lab_proc *p;

	if (r->nprocs == LAB_MAX_PROCS)
		return;
	p = &r->procs[r->nprocs++];
	snprintf(p->role, sizeof(p->role), "%s", role);
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->pid = pid;
	p->start = proc_starttime(pid);
}

/* ---- argv builder ---------------------------------------------------- */

struct argv {
	char *v[160];
	int n;
};

static __attribute__((format(printf, 2, 3))) void arg(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->n >= (int)ARRAY_SIZE(a->v) - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void argv_free(struct argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* ---- preflight --------------------------------------------------------- */

static bool need_program(const char *prog, const char *package)
{
	char path[PATH_MAX];

	if (find_program(prog, path, sizeof(path)))
		return true;
	pr_warn("couldn't find %s: install the Debian package %s", prog, package);
	return false;
}

static int preflight(const struct lab_up_opts *o, const struct topology *t, const char *kernel)
{
	bool ok = true, dhcp = false;

	for (int i = 0; i < t->nsegments; i++)
		dhcp |= t->segments[i].dhcp;
	if (geteuid() != 0) {
		pr_warn("the lab needs root (network namespaces, taps): run it as root");
		return -1;
	}
	if (!file_exists(kernel)) {
		pr_warn("couldn't find the lab kernel %s: build it with `meson compile -C build` "
			"(or pass --kernel PATH or set BPFWIRE_KERNEL)", kernel);
		ok = false;
	}
	ok &= need_program("qemu-system-x86_64", "qemu-system-x86");
	ok &= need_program("ip", "iproute2");
	if (!file_exists("/usr/sbin/qemu-ga")) {
		pr_warn("couldn't find /usr/sbin/qemu-ga (the guests run it from the host root): "
			"install the Debian package qemu-guest-agent");
		ok = false;
	}
	if (dhcp) {
		ok &= need_program("dnsmasq", "dnsmasq-base");
		if (!file_exists("/bin/busybox")) {
			pr_warn("couldn't find /bin/busybox (the guests' DHCP client): install the Debian package busybox-static");
			ok = false;
		}
	}
	if (o->capture)
		ok &= need_program("tcpdump", "tcpdump");
	if (!file_exists(BPFWIRE_GUEST_INIT)) {
		pr_warn("couldn't find the guest init %s", BPFWIRE_GUEST_INIT);
		ok = false;
	}
	return ok ? 0 : -1;
}

/* ---- accel ------------------------------------------------------------ */

static long host_tsc_khz(void)
{
	const char *env = getenv("BPFWIRE_TSC_KHZ");
	char line[256];
	double mhz = 0;
	FILE *f;

	if (env)
		return atol(env);
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
			break;
	fclose(f);
	return (long)(mhz * 1000);
}

/*
 * Boot the kernel under KVM and wait up to 3 s for its first console byte.
 * On these machines a KVM guest hangs silently, so silence means TCG. The
 * answer is cached per kernel in /run/bpfwire/kvm-probe.
 */
static bool kvm_works(struct lab_run *r, char *why, size_t whylen)
{
	char cache[PATH_MAX], key[PATH_MAX + 64], con[PATH_MAX + 32], *old;
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->netns, .setsid = true };
	struct stat st;
	bool alive = false;
	double t0;
	pid_t pid;

	if (access("/dev/kvm", R_OK | W_OK)) {
		snprintf(why, whylen, "no usable /dev/kvm");
		return false;
	}
	stat(r->kernel, &st);
	snprintf(key, sizeof(key), "%s %lld", r->kernel, (long long)st.st_mtime);
	snprintf(cache, sizeof(cache), "%s/kvm-probe", LAB_STATE_ROOT);
	old = read_file(cache, NULL);
	if (old && !strncmp(old, key, strlen(key)) && old[strlen(key)] == ' ') {
		alive = !strncmp(old + strlen(key) + 1, "yes", 3);
		snprintf(why, whylen, "cached KVM probe: %s", alive ? "boots" : "no sign of life in 3 s");
		free(old);
		return alive;
	}
	free(old);
	snprintf(con, sizeof(con), "%s/kvm-probe.console", r->statedir);
	arg(&a, "qemu-system-x86_64");
	arg(&a, "-accel"); arg(&a, "kvm");
	arg(&a, "-machine"); arg(&a, "pc");
	arg(&a, "-m"); arg(&a, "128");
	arg(&a, "-nodefaults"); arg(&a, "-display"); arg(&a, "none"); arg(&a, "-no-reboot");
	arg(&a, "-kernel"); arg(&a, "%s", r->kernel);
	arg(&a, "-append"); arg(&a, "console=ttyS0 earlyprintk=serial panic=-1");
	arg(&a, "-serial"); arg(&a, "file:%s", con);
	so.out = so.err = NULL;
	t0 = now_s();
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		snprintf(why, whylen, "couldn't start the KVM probe: %s", errno_str(pid));
		return false;
	}
	while (now_s() - t0 < 3.0 && !lab_interrupted) {
		if (!stat(con, &st) && st.st_size > 0) {
			alive = true;
			break;
		}
		if (!proc_alive(pid, 0))
			break;
		sleep_ms(20);
	}
	proc_kill(pid, 0, 500);
	reap_children();
	unlink(con);
	snprintf(why, whylen, "KVM probe: %s after %.1f s", alive ? "kernel printed" : "no sign of life",
		 now_s() - t0);
	if (!lab_interrupted) {
		snprintf(key + strlen(key), sizeof(key) - strlen(key), " %s\n", alive ? "yes" : "no");
		write_file_atomic(cache, key);
	}
	return alive;
}

/* ---- guest configuration ---------------------------------------------- */

static int write_setup(const struct lab_run *r, const struct topology *t, int hi)
{
	const struct topo_host *h = &t->hosts[hi];
	const struct lab_guest *g = &r->guests[hi];
	char path[PATH_MAX + 16], buf[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/setup.sh", g->dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# Generated by bpfwire-lab for host %s of topology %s (run %s).\n"
		   "# Sourced by lab/guest-init, which defines bw_* and $IP.\n",
		h->name, t->name, r->id);
	fprintf(f, "bw_hostname %s\n", h->name);
	for (int hj = 0; hj < t->nhosts; hj++)
		for (int n = 0; n < t->hosts[hj].nnics; n++)
			for (int a = 0; a < t->hosts[hj].nics[n].naddrs; a++) {
				struct topo_prefix p = t->hosts[hj].nics[n].addrs[a].a;

				p.plen = -1;
				topo_format_prefix(&p, buf, sizeof(buf));
				if (strncmp(buf, "fe80", 4))
					fprintf(f, "bw_hosts %s %s\n", buf, t->hosts[hj].name);
			}
	fprintf(f, "bw_sysctl net.ipv6.conf.all.accept_dad 0\n"
		   "bw_sysctl net.ipv6.conf.default.accept_dad 0\n");
	for (int n = 0; n < h->nnics; n++) {
		topo_format_mac(h->nics[n].mac, buf);
		fprintf(f, "bw_nic %s %d\n", buf, n);
	}
	for (int n = 0; n < h->nnics; n++)
		fprintf(f, "bw_name %d %s\n", n, h->nics[n].ifname);
	if (h->router)
		fprintf(f, "bw_sysctl net.ipv4.ip_forward 1\n"
			   "bw_sysctl net.ipv6.conf.all.forwarding 1\n");
	for (int s = 0; s < h->nsysctls; s++)
		fprintf(f, "bw_sysctl %s %s\n", h->sysctls[s].key, h->sysctls[s].value);
	fprintf(f, "bw_ip <<'EOF'\nlink set lo up\n");
	for (int n = 0; n < h->nnics; n++) {
		const struct topo_nic *nic = &h->nics[n];

		fprintf(f, "link set %s up\n", nic->ifname);
		for (int a = 0; a < nic->naddrs; a++) {
			topo_format_prefix(&nic->addrs[a].a, buf, sizeof(buf));
			fprintf(f, "addr add %s dev %s%s\n", buf, nic->ifname,
				nic->addrs[a].a.family == AF_INET6 ? " nodad" : "");
		}
	}
	fprintf(f, "EOF\n");
	for (int n = 0; n < h->nnics; n++) {
		const struct topo_nic *nic = &h->nics[n];
		const struct topo_segment *seg = &t->segments[nic->segment];

		if (nic->dhcp && seg->v4.family)
			fprintf(f, "bw_dhcp %s\n", nic->ifname);
		if (nic->dhcp && seg->v6.family) {
			topo_format_prefix(&seg->v6, buf, sizeof(buf));
			fprintf(f, "bw_slaac %s %s\n", nic->ifname, buf);
		}
	}
	if (h->nroutes)
		fprintf(f, "bw_ip <<'EOF'\n");
	for (int i = 0; i < h->nroutes; i++) {
		const struct topo_route *rt = &h->routes[i];

		/* iproute2 takes the family from the addresses (no -6 in a batch) */
		fprintf(f, "route add %s", rt->dest);
		if (rt->via[0])
			fprintf(f, " via %s", rt->via);
		if (rt->dev[0])
			fprintf(f, " dev %s", rt->dev);
		fprintf(f, "\n");
	}
	if (h->nroutes)
		fprintf(f, "EOF\n");
	if (fclose(f))
		return -errno;
	return 0;
}

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

/* ---- processes -------------------------------------------------------- */

static int start_tcpdump(struct lab_run *r, int s)
{
	struct lab_segment *seg = &r->segments[s];
	char log[PATH_MAX + 32];
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->netns, .setsid = true };
	pid_t pid;

	snprintf(log, sizeof(log), "%s/segments/%s.tcpdump.log", r->results, seg->name);
	so.out = log;
	arg(&a, "tcpdump"); arg(&a, "-i"); arg(&a, "%s", seg->bridge);
	arg(&a, "-w"); arg(&a, "%s", seg->pcap);
	arg(&a, "-U"); arg(&a, "-n"); arg(&a, "-s"); arg(&a, "0");
	arg(&a, "--immediate-mode"); arg(&a, "-Z"); arg(&a, "root");
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("couldn't start tcpdump on %s: %s", seg->bridge, errno_str(pid));
		return -1;
	}
	add_proc(r, "tcpdump", seg->name, pid);
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
	arg(&a, "dnsmasq"); arg(&a, "--keep-in-foreground"); arg(&a, "--conf-file=/dev/null");
	arg(&a, "--port=0"); arg(&a, "--bind-interfaces"); arg(&a, "--user=root");
	arg(&a, "--log-dhcp"); arg(&a, "--log-facility=-");
	arg(&a, "--no-ping");	/* no 3 s ICMP check before each offer */
	arg(&a, "--dhcp-leasefile=%s", leases);
	arg(&a, "--dhcp-option=3"); arg(&a, "--dhcp-option=6");	/* no router, no DNS */
	arg(&a, "--enable-ra");
	for (int s = 0; s < t->nsegments; s++) {
		const struct topo_segment *seg = &t->segments[s];
		struct topo_prefix lo, hi;
		char lob[64], hib[64];

		if (!seg->dhcp)
			continue;
		any = true;
		arg(&a, "--interface=%s", r->segments[s].bridge);
		if (seg->v4.family) {
			/* the upper half of the prefix, minus broadcast */
			uint32_t net = ntohl(seg->v4.addr.v4.s_addr), size = 1u << (32 - seg->v4.plen);

			lo = hi = seg->v4;
			lo.addr.v4.s_addr = htonl(net + size / 2);
			hi.addr.v4.s_addr = htonl(net + size - 2);
			lo.plen = hi.plen = -1;
			topo_format_prefix(&lo, lob, sizeof(lob));
			topo_format_prefix(&hi, hib, sizeof(hib));
			arg(&a, "--dhcp-range=%s,%s,%u", lob, hib, 3600);
		}
		if (seg->v6.family) {
			lo = seg->v6;
			lo.plen = -1;
			topo_format_prefix(&lo, buf, sizeof(buf));
			arg(&a, "--dhcp-range=%s,ra-only,%d", buf, seg->v6.plen);
			arg(&a, "--ra-param=%s,10,0", r->segments[s].bridge);	/* not a default router */
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
	add_proc(r, "dnsmasq", "all", pid);
	return 0;
}

static pid_t start_qemu(struct lab_run *r, const struct topology *t, int hi, const char *append)
{
	const struct topo_host *h = &t->hosts[hi];
	struct lab_guest *g = &r->guests[hi];
	struct argv a = { 0 };
	char log[PATH_MAX + 32];
	struct spawn_opts so = { .netns = r->netns, .setsid = true, .out = log };
	long tsc = host_tsc_khz();
	pid_t pid;

	snprintf(log, sizeof(log), "%s/qemu.log", g->dir);
	arg(&a, "qemu-system-x86_64");
	arg(&a, "-name"); arg(&a, "bpfwire-%s-%s,process=bpfwire-%s", r->id, h->name, h->name);
	if (!strcmp(r->accel, "kvm")) {
		arg(&a, "-accel"); arg(&a, "kvm");
	} else {
		arg(&a, "-accel"); arg(&a, "tcg");
		arg(&a, "-cpu"); arg(&a, "max");
	}
	arg(&a, "-machine"); arg(&a, "pc");
	arg(&a, "-m"); arg(&a, "%u", h->memory_mib);
	arg(&a, "-smp"); arg(&a, "%u", h->cpus);
	arg(&a, "-nodefaults"); arg(&a, "-no-user-config"); arg(&a, "-display"); arg(&a, "none");
	arg(&a, "-no-reboot");
	arg(&a, "-kernel"); arg(&a, "%s", r->kernel);
	char tscarg[64] = "";

	if (tsc > 0)
		snprintf(tscarg, sizeof(tscarg), " tsc_early_khz=%ld", tsc);
	/*
	 * no_timer_check: under a loaded TCG host the IO-APIC timer check can
	 * fail and panic the boot. bpfwire.keep: the project's trees, which
	 * guest-init keeps visible even under the /tmp it covers with tmpfs.
	 */
	arg(&a, "-append");
	arg(&a, "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose "
		"ro init=%s panic=-1 tsc=reliable%s no_timer_check bpfwire.dir=%s bpfwire.host=%s "
		"bpfwire.keep=%s,%s%s%s%s%s",
	    BPFWIRE_GUEST_INIT, tscarg, g->dir, h->name, BPFWIRE_SOURCE_ROOT, BPFWIRE_BUILD_ROOT,
	    h->append[0] ? " " : "", h->append,
	    append && *append ? " " : "", append ? append : "");
	/* host / read-only, and the guest's writable results share */
	arg(&a, "-fsdev"); arg(&a, "local,id=root,path=/,readonly=on,security_model=none,multidevs=remap");
	arg(&a, "-device"); arg(&a, "virtio-9p-pci,fsdev=root,mount_tag=/dev/root");
	arg(&a, "-fsdev"); arg(&a, "local,id=results,path=%s,security_model=none", g->dir);
	arg(&a, "-device"); arg(&a, "virtio-9p-pci,fsdev=results,mount_tag=results");
	/* QMP, qemu-ga, console file, interactive shell on ttyS1 */
	arg(&a, "-chardev"); arg(&a, "socket,id=qmp,path=%s,server=on,wait=off", g->qmp);
	arg(&a, "-mon"); arg(&a, "chardev=qmp,mode=control");
	arg(&a, "-chardev"); arg(&a, "socket,id=qga,path=%s,server=on,wait=off", g->qga);
	arg(&a, "-device"); arg(&a, "virtio-serial-pci");
	arg(&a, "-device"); arg(&a, "virtserialport,chardev=qga,name=org.qemu.guest_agent.0");
	arg(&a, "-serial"); arg(&a, "file:%s/console.log", g->dir);
	arg(&a, "-chardev"); arg(&a, "socket,id=shell,path=%s,server=on,wait=off", g->shell);
	arg(&a, "-serial"); arg(&a, "chardev:shell");
	for (int n = 0; n < g->nnics; n++) {
		arg(&a, "-netdev"); arg(&a, "tap,id=net%d,ifname=%s,script=no,downscript=no", n, g->nics[n].tap);
		arg(&a, "-device"); arg(&a, "%s,netdev=net%d,id=%s,mac=%s", topo_model_qemu(h->nics[n].model),
					n, g->nics[n].device, g->nics[n].mac);
	}
	{
		char cmd[PATH_MAX + 16];
		FILE *f;

		snprintf(cmd, sizeof(cmd), "%s/qemu.cmdline", g->dir);
		f = fopen(cmd, "w");
		if (f) {
			for (int i = 0; i < a.n; i++) {
				char q[2048];

				shell_quote(a.v[i], q, sizeof(q));
				fprintf(f, "%s%s", i ? " \\\n  " : "", q);
			}
			fprintf(f, "\n");
			fclose(f);
		}
	}
	pid = spawn(a.v, &so);
	argv_free(&a);
	return pid;
}

/* ---- up --------------------------------------------------------------- */

static void console_tail(const struct lab_guest *g, int lines)
{
	char path[PATH_MAX + 16], *text;
	size_t len;
	int seen = 0;
	char *p;

	snprintf(path, sizeof(path), "%s/console.log", g->dir);
	text = read_file(path, &len);
	if (!text || !len) {
		pr_warn("%s: the console (%s) is empty", g->name, path);
		free(text);
		snprintf(path, sizeof(path), "%s/qemu.log", g->dir);
		text = read_file(path, &len);
		if (text && len)
			fprintf(stderr, "--- %s: qemu.log ---\n%s\n---\n", g->name, text);
		free(text);
		return;
	}
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && p != text + len && ++seen > lines)
			break;
	fprintf(stderr, "--- %s: last %d lines of %s ---\n%s%s---\n", g->name, lines, path, p,
		text[len - 1] == '\n' ? "" : "\n");
	free(text);
}

static bool valid_id(const char *id)
{
	size_t n = strlen(id);

	if (!n || n > 24)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_')
			return false;
	return true;
}

static bool valid_share_path(const char *p)
{
	for (; *p; p++)
		if (isspace((unsigned char)*p) || *p == '"' || *p == '\'' || *p == '\\')
			return false;
	return true;
}

static void progress(const struct lab_up_opts *o, double t0, const char *name, const char *what)
{
	if (!o->quiet)
		printf("[%6.2f s] %-12s %s\n", now_s() - t0, name, what);
	fflush(stdout);
}

int lab_up(const struct lab_up_opts *o, const struct topology *t, struct lab_run **out)
{
	struct lab_run *r = calloc(1, sizeof(*r));
	char path[PATH_MAX + 64], err[2048], why[256];
	double t0 = now_s(), tq = 0;
	int ready = 0;

	*out = NULL;
	if (!r)
		return LAB_FAIL;
	snprintf(r->status, sizeof(r->status), "booting");	/* "ready" only at the end */
	snprintf(r->kernel, sizeof(r->kernel), "%s", o->kernel ? o->kernel : lab_default_kernel());
	if (preflight(o, t, r->kernel)) {
		free(r);
		return LAB_FAIL;
	}
	if (o->run_id) {
		if (!valid_id(o->run_id)) {
			pr_warn("bad run id '%s' (at most 24 of A-Z a-z 0-9 - _)", o->run_id);
			free(r);
			return LAB_EUSAGE;
		}
		snprintf(r->id, sizeof(r->id), "%s", o->run_id);
	} else {
		snprintf(r->id, sizeof(r->id), "%.16s-%04x", t->name,
			 (unsigned)((getpid() * 2654435761u) ^ (unsigned)time(NULL)) & 0xffff);
		for (char *p = r->id; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '-')
				*p = '-';
	}
	snprintf(r->netns, sizeof(r->netns), "bpfwire-%s", r->id);
	snprintf(r->statedir, sizeof(r->statedir), "%s/%s", LAB_STATE_ROOT, r->id);
	if (o->results) {
		if (!realpath(o->results, path) && (mkdir_p(o->results, 0755) || !realpath(o->results, path))) {
			pr_warn("couldn't create results dir %s: %s", o->results, errno_str(errno));
			free(r);
			return LAB_FAIL;
		}
		snprintf(r->results, sizeof(r->results), "%s", path);
	} else {
		if (!getcwd(path, sizeof(path))) {
			free(r);
			return LAB_FAIL;
		}
		snprintf(r->results, sizeof(r->results), "%.3000s/results/%s", path, r->id);
	}
	if (!valid_share_path(r->results)) {
		pr_warn("results dir '%s' holds a space or quote; the guests' kernel command line can't carry it", r->results);
		free(r);
		return LAB_EUSAGE;
	}
	if (file_exists(r->statedir) || netns_exists(r->netns)) {
		pr_warn("run %s already exists (%s): pick another --run or `bpfwire-lab down --run %s`",
			r->id, r->statedir, r->id);
		free(r);
		return LAB_FAIL;
	}
	if (!realpath(t->path, r->topology))
		snprintf(r->topology, sizeof(r->topology), "%s", t->path);
	snprintf(r->topo_name, sizeof(r->topo_name), "%s", t->name);
	r->created = time(NULL);

	/* From here on, every failure goes through teardown. */
	if (mkdir_p(r->statedir, 0700) || mkdir_p(r->results, 0755)) {
		pr_warn("couldn't create %s or %s: %s", r->statedir, r->results, errno_str(errno));
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/segments", r->results);
	mkdir_p(path, 0755);
	{
		char *text = read_user_file(t->path, NULL);

		snprintf(path, sizeof(path), "%s/topology.topo", r->results);
		if (text)
			write_file(path, text);
		free(text);
	}
	r->nsegments = t->nsegments;
	for (int s = 0; s < t->nsegments; s++) {
		struct lab_segment *seg = &r->segments[s];

		snprintf(seg->name, sizeof(seg->name), "%s", t->segments[s].name);
		snprintf(seg->bridge, sizeof(seg->bridge), "br-%s", seg->name);
		snprintf(seg->pcap, sizeof(seg->pcap), "%.4000s/segments/%s.pcap", r->results, seg->name);
	}
	r->nguests = t->nhosts;
	for (int h = 0; h < t->nhosts; h++) {
		struct lab_guest *g = &r->guests[h];
		const struct topo_host *th = &t->hosts[h];

		snprintf(g->name, sizeof(g->name), "%s", th->name);
		snprintf(g->dir, sizeof(g->dir), "%.4000s/hosts/%s", r->results, th->name);
		if (snprintf(g->qmp, sizeof(g->qmp), "%s/%s.qmp", r->statedir, th->name) >= (int)sizeof(g->qmp) ||
		    snprintf(g->qga, sizeof(g->qga), "%s/%s.qga", r->statedir, th->name) >= (int)sizeof(g->qga) ||
		    snprintf(g->shell, sizeof(g->shell), "%s/%s.sh", r->statedir, th->name) >= (int)sizeof(g->shell)) {
			pr_warn("socket path for %s is too long", th->name);
			goto fail;
		}
		g->t_kernel = g->t_ready = -1;
		if (mkdir_p(g->dir, 0755)) {
			pr_warn("couldn't create %s: %s", g->dir, errno_str(errno));
			goto fail;
		}
		g->nnics = th->nnics;
		for (int n = 0; n < th->nnics; n++) {
			struct lab_nic *nic = &g->nics[n];

			snprintf(nic->ifname, sizeof(nic->ifname), "%s", th->nics[n].ifname);
			snprintf(nic->tap, sizeof(nic->tap), "tap%d-%d", h, n);
			snprintf(nic->segment, sizeof(nic->segment), "%s", t->segments[th->nics[n].segment].name);
			snprintf(nic->device, sizeof(nic->device), "nic%d", n);
			topo_format_mac(th->nics[n].mac, nic->mac);
		}
		if (write_setup(r, t, h)) {
			pr_warn("couldn't write %s/setup.sh: %s", g->dir, errno_str(errno));
			goto fail;
		}
	}
	lab_save(r);
	if (!o->quiet)
		printf("run %s: netns %s, results %s\n", r->id, r->netns, r->results);

	if (netns_create(r->netns, err, sizeof(err))) {
		pr_warn("couldn't create netns %s: %s", r->netns, err);
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/netns.batch", r->statedir);
	if (write_netns_batch(r, t, path) || netns_ip_batch(r->netns, path, err, sizeof(err))) {
		pr_warn("couldn't set up bridges and taps in %s: %s", r->netns, err);
		goto fail;
	}
	/* keep captures quiet: no IPv6 on taps, nor on bridges the lab doesn't serve */
	for (int g = 0; g < r->nguests; g++)
		for (int n = 0; n < r->guests[g].nnics; n++) {
			snprintf(path, sizeof(path), "net.ipv6.conf.%s.disable_ipv6", r->guests[g].nics[n].tap);
			netns_sysctl(r->netns, path, "1");
		}
	for (int s = 0; s < t->nsegments; s++)
		if (!t->segments[s].dhcp) {
			snprintf(path, sizeof(path), "net.ipv6.conf.%s.disable_ipv6", r->segments[s].bridge);
			netns_sysctl(r->netns, path, "1");
		}
	if (start_dnsmasq(r, t))
		goto fail;
	if (o->capture) {
		for (int s = 0; s < r->nsegments; s++)
			if (start_tcpdump(r, s))
				goto fail;
	}
	lab_save(r);
	if (o->capture && wait_pcaps(r))
		goto fail;

	if (!strcmp(o->accel, "tcg")) {
		snprintf(r->accel, sizeof(r->accel), "tcg");
		snprintf(why, sizeof(why), "asked for");
	} else if (!strcmp(o->accel, "kvm")) {
		snprintf(r->accel, sizeof(r->accel), "kvm");
		snprintf(why, sizeof(why), "asked for");
	} else {
		snprintf(r->accel, sizeof(r->accel), "%s", kvm_works(r, why, sizeof(why)) ? "kvm" : "tcg");
	}
	if (lab_interrupted)
		goto interrupted;
	if (!o->quiet)
		printf("accel: %s (%s)\n", r->accel, why);

	tq = now_s();
	for (int h = 0; h < r->nguests; h++) {
		struct lab_guest *g = &r->guests[h];
		pid_t pid = start_qemu(r, t, h, o->append);

		if (pid < 0) {
			pr_warn("couldn't start QEMU for %s: %s", g->name, errno_str(pid));
			goto fail;
		}
		g->pid = pid;
		g->start = proc_starttime(pid);
		add_proc(r, "qemu", g->name, pid);
		progress(o, tq, g->name, "starting");
	}
	lab_save(r);

	while (ready < r->nguests) {
		if (lab_interrupted)
			goto interrupted;
		reap_children();
		for (int h = 0; h < r->nguests; h++) {
			struct lab_guest *g = &r->guests[h];
			double t = now_s() - tq;

			if (g->t_ready >= 0)
				continue;
			if (!proc_alive(g->pid, g->start)) {
				pr_warn("%s: QEMU (pid %d) ended before the guest was ready", g->name, g->pid);
				console_tail(g, 25);
				goto fail;
			}
			if (g->t_kernel < 0) {
				snprintf(path, sizeof(path), "%s/stage.kernel-up", g->dir);
				if (file_exists(path)) {
					g->t_kernel = t;
					progress(o, tq, g->name, "kernel up");
				}
			}
			if (g->t_kernel >= 0) {
				snprintf(path, sizeof(path), "%s/stage.ready", g->dir);
				if (file_exists(path)) {
					struct qga q;

					if (!qga_open(&q, g->qga, 2000)) {
						qga_close(&q);
						g->t_ready = now_s() - tq;
						ready++;
						progress(o, tq, g->name, "ready");
						continue;
					}
				}
			}
			if (t > o->timeout_s) {
				pr_warn("%s: not ready after %d s (%s)", g->name, o->timeout_s,
					g->t_kernel < 0 ? "guest-init never started" : "guest-init never signalled ready");
				console_tail(g, 25);
				goto fail;
			}
		}
		if (ready < r->nguests)
			sleep_ms(20);
	}
	r->boot_s = now_s() - tq;
	for (int h = 0; h < r->nguests; h++)
		r->guests[h].rss_kib = proc_rss_kib(r->guests[h].pid);
	snprintf(r->status, sizeof(r->status), "ready");
	lab_save(r);
	if (!o->quiet)
		printf("run %s ready: %d guest%s in %.2f s (%s); `bpfwire-lab down --run %s` ends it\n",
		       r->id, r->nguests, r->nguests == 1 ? "" : "s", r->boot_s, r->accel, r->id);
	(void)t0;
	*out = r;
	return LAB_OK;

interrupted:
	pr_warn("interrupted: tearing run %s down", r->id);
fail:
	snprintf(r->status, sizeof(r->status), "failed");
	if (r->statedir[0] && file_exists(r->statedir))
		lab_save(r);
	lab_down(r, o->quiet);
	free(r);
	return LAB_FAIL;
}

/* ---- open, down, list ------------------------------------------------- */

static int run_ids(char ids[][LAB_RUN_ID_MAX + 1], int max)
{
	DIR *d = opendir(LAB_STATE_ROOT);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char p[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' || strlen(e->d_name) > LAB_RUN_ID_MAX)
			continue;
		snprintf(p, sizeof(p), "%s/%s", LAB_STATE_ROOT, e->d_name);
		if (stat(p, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(ids[n++], LAB_RUN_ID_MAX + 1, "%s", e->d_name);
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
	if (!id)
		id = getenv("BPFWIRE_RUN");
	if (!id) {
		n = run_ids(ids, 64);
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
	*out = r;
	return LAB_OK;
}

void lab_free(struct lab_run *r)
{
	free(r);
}

int lab_down(struct lab_run *r, bool quiet)
{
	char err[1024], path[PATH_MAX + 32];
	int splats = 0, ret = 0;
	FILE *f;

	/* LIFO: QEMUs, then tcpdump (flushes on SIGTERM), then dnsmasq */
	for (int i = r->nprocs - 1; i >= 0; i--) {
		struct lab_proc *p = &r->procs[i];

		if (!proc_alive(p->pid, p->start))
			continue;
		if (proc_kill(p->pid, p->start, 3000)) {
			pr_warn("couldn't end %s %s (pid %d)", p->role, p->name, p->pid);
			ret = LAB_FAIL;
		}
	}
	reap_children();
	if (r->netns[0] && netns_delete(r->netns, err, sizeof(err))) {
		pr_warn("couldn't delete netns %s: %s", r->netns, err);
		ret = LAB_FAIL;
	}
	if (r->results[0] && file_exists(r->results)) {
		snprintf(path, sizeof(path), "%s/splats.txt", r->results);
		f = fopen(path, "w");
		splats = lab_scan_splats(r, f);
		if (f)
			fclose(f);
		if (!splats)
			unlink(path);
		else
			lab_scan_splats(r, stderr);
	}
	if (r->statedir[0] && file_exists(r->statedir)) {
		/* keep a last copy of the state with the results */
		if (strcmp(r->status, "failed"))
			snprintf(r->status, sizeof(r->status), "down");
		if (r->results[0] && file_exists(r->results))
			lab_save(r);
		rm_rf(r->statedir);
	}
	if (!quiet)
		printf("run %s down%s%s\n", r->id, splats ? ": kernel splats found, see " : "",
		       splats ? path : "");
	if (splats)
		ret = LAB_FAIL;
	return ret;
}

int lab_list(FILE *f)
{
	char ids[64][LAB_RUN_ID_MAX + 1], names[64][64];
	int n = run_ids(ids, 64), m = netns_list("bpfwire-", names, 64);

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

int lab_down_all(bool quiet)
{
	char ids[64][LAB_RUN_ID_MAX + 1], names[64][64], err[1024];
	int n = run_ids(ids, 64), m, ret = 0;

	for (int i = 0; i < n; i++) {
		struct lab_run *r;
		char p[PATH_MAX];

		if (lab_open(ids[i], &r)) {
			snprintf(p, sizeof(p), "%s/%s", LAB_STATE_ROOT, ids[i]);
			rm_rf(p);
			continue;
		}
		ret |= lab_down(r, quiet);
		lab_free(r);
	}
	m = netns_list("bpfwire-", names, 64);
	for (int i = 0; i < m; i++) {
		if (!quiet)
			printf("orphan netns %s: deleting\n", names[i]);
		if (netns_delete(names[i], err, sizeof(err))) {
			pr_warn("%s", err);
			ret = LAB_FAIL;
		}
	}
	return ret;
}

/* ---- splats ----------------------------------------------------------- */

static const char *const splat_patterns[] = {
	"BUG:", "WARNING:", "Oops", "Kernel panic", "general protection fault",
	"possible circular locking dependency", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage", "possible irq lock inversion",
	"bad unlock balance", "lock held when returning to user space", "DEBUG_LOCKS_WARN_ON",
	"sleeping function called from invalid context", "KASAN", "UBSAN",
	"INFO: task", "rcu_sched detected stall", "rcu: INFO:",
};

int lab_scan_splats(const struct lab_run *r, FILE *f)
{
	int found = 0;

	for (int g = 0; g < r->nguests; g++) {
		char path[PATH_MAX + 16], *text, *line, *save;
		int quote = 0;

		snprintf(path, sizeof(path), "%s/console.log", r->guests[g].dir);
		text = read_file(path, NULL);
		if (!text)
			continue;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			bool hit = false;

			for (size_t i = 0; i < ARRAY_SIZE(splat_patterns) && !hit; i++)
				hit = strstr(line, splat_patterns[i]) != NULL;
			if (hit) {
				if (f)
					fprintf(f, "%s: splat in %s:\n", r->guests[g].name, path);
				found++;
				quote = 12;
			}
			if (quote > 0 && f) {
				fprintf(f, "    %s\n", line);
				quote--;
			}
		}
		free(text);
	}
	return found;
}

/* ---- exec, spawn, wait, link, netem ------------------------------------ */

static int guest_lock(const struct lab_run *r, const char *host)
{
	char path[PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/%s.lock", r->statedir, host);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		flock(fd, LOCK_EX);	/* one qemu-ga client per guest at a time */
	return fd;
}

static const struct lab_guest *need_guest(const struct lab_run *r, const char *host)
{
	const struct lab_guest *g = lab_guest(r, host);

	if (!g) {
		char list[TOPO_MAX_HOSTS * (TOPO_NAME_MAX + 2) + 1] = "";

		for (int i = 0; i < r->nguests; i++)
			strcat(strcat(list, " "), r->guests[i].name);
		pr_warn("run %s has no host '%s'; hosts:%s", r->id, host, list);
	}
	return g;
}

/* HOST's NIC IFACE, or NULL after saying which is missing. */
static const struct lab_nic *need_nic(const struct lab_run *r, const char *host,
				      const char *iface, const struct lab_guest **gp)
{
	const struct lab_guest *g = need_guest(r, host);
	const struct lab_nic *nic = g ? guest_nic(g, iface) : NULL;

	if (g && !nic)
		pr_warn("%s has no interface '%s'", host, iface);
	if (gp)
		*gp = g;
	return nic;
}

static int guest_qga(const struct lab_run *r, const struct lab_guest *g, struct qga *q)
{
	int ret;

	if (!proc_alive(g->pid, g->start)) {
		pr_warn("%s: its QEMU (pid %d) is not running", g->name, g->pid);
		return -1;
	}
	ret = qga_open(q, g->qga, 5000);
	if (ret)
		pr_warn("%s: couldn't reach qemu-ga on %s: %s", g->name, g->qga, errno_str(ret));
	(void)r;
	return ret ? -1 : 0;
}

int lab_exec(struct lab_run *r, const char *host, char *const argv[], int timeout_ms,
	     struct qga_result *res)
{
	const struct lab_guest *g = need_guest(r, host);
	char err[512];
	struct qga q;
	int lock, ret = -1;
	long pid;

	memset(res, 0, sizeof(*res));
	if (!g)
		return -1;
	lock = guest_lock(r, host);
	if (guest_qga(r, g, &q))
		goto out;
	pid = qga_exec_start(&q, argv, NULL, err, sizeof(err));
	if (pid < 0)
		pr_warn("%s: couldn't run %s: %s", host, argv[0], err);
	else if (qga_exec_wait(&q, pid, timeout_ms, res, err, sizeof(err)))
		pr_warn("%s: %s: %s", host, argv[0], err);
	else
		ret = 0;
	qga_close(&q);
out:
	if (lock >= 0)
		close(lock);
	return ret;
}

long lab_spawn(struct lab_run *r, const char *host, char *const argv[])
{
	const struct lab_guest *g = need_guest(r, host);
	char err[512];
	struct qga q;
	long pid = -1;
	int lock;

	if (!g)
		return -1;
	lock = guest_lock(r, host);
	if (!guest_qga(r, g, &q)) {
		pid = qga_exec_start(&q, argv, NULL, err, sizeof(err));
		if (pid < 0)
			pr_warn("%s: couldn't start %s: %s", host, argv[0], err);
		qga_close(&q);
	}
	if (lock >= 0)
		close(lock);
	return pid;
}

int lab_wait(struct lab_run *r, const char *host, long pid, int timeout_ms,
	     struct qga_result *res)
{
	const struct lab_guest *g = need_guest(r, host);
	char err[512];
	struct qga q;
	int lock, ret = -1;

	memset(res, 0, sizeof(*res));
	if (!g)
		return -1;
	lock = guest_lock(r, host);
	if (!guest_qga(r, g, &q)) {
		if (qga_exec_wait(&q, pid, timeout_ms, res, err, sizeof(err)))
			pr_warn("%s: %s", host, err);
		else
			ret = 0;
		qga_close(&q);
	}
	if (lock >= 0)
		close(lock);
	return ret;
}

int lab_link(struct lab_run *r, const char *host, const char *iface, bool up, enum link_how how)
{
	const struct lab_guest *g;
	const struct lab_nic *nic = need_nic(r, host, iface, &g);
	char err[1024];
	struct qmp q;
	int ret;

	if (!nic)
		return -1;
	if (how == LINK_BRIDGE_PORT) {
		char *argv[] = { "ip", "link", "set", "dev", (char *)nic->tap, up ? "up" : "down", NULL };

		if (netns_run(r->netns, argv, err, sizeof(err))) {
			pr_warn("couldn't set bridge port %s %s: %s", nic->tap, up ? "up" : "down", err);
			return -1;
		}
		return 0;
	}
	ret = qmp_open(&q, g->qmp, 5000);
	if (ret) {
		pr_warn("%s: couldn't open QMP %s: %s", host, g->qmp, errno_str(ret));
		return -1;
	}
	ret = qmp_set_link(&q, nic->device, up, err, sizeof(err));
	if (ret)
		pr_warn("%s: set_link %s (%s) %s: %s", host, nic->device, iface, up ? "up" : "down", err);
	qmp_close(&q);
	return ret;
}

/*
 * netem in the guest, on IFACE's egress (tc from the host root over 9p): the
 * guest kernel has sch_netem; this machine's kernel may not, and the lab
 * never loads anything into it. lab_netem_tap() shapes the host side tap
 * instead (frames towards the guest) where the host kernel has netem.
 */
int lab_netem(struct lab_run *r, const char *host, const char *iface, char *const args[])
{
	const struct lab_guest *g = need_guest(r, host);
	struct qga_result res;
	struct argv a = { 0 };
	int ret;

	if (!g)
		return -1;
	if (!guest_nic(g, iface)) {
		pr_warn("%s has no interface '%s'", host, iface);
		return -1;
	}
	arg(&a, "/usr/sbin/tc"); arg(&a, "qdisc");
	if (!args) {
		arg(&a, "del"); arg(&a, "dev"); arg(&a, "%s", iface); arg(&a, "root");
	} else {
		arg(&a, "replace"); arg(&a, "dev"); arg(&a, "%s", iface); arg(&a, "root"); arg(&a, "netem");
		for (int i = 0; args[i]; i++)
			arg(&a, "%s", args[i]);
	}
	ret = lab_exec(r, host, a.v, 10000, &res);
	if (!ret && (res.exitcode || res.signal)) {
		pr_warn("%s: netem on %s: tc failed (status %d): %s", host, iface, res.exitcode,
			res.err ? res.err : "");
		ret = -1;
	}
	qga_result_free(&res);
	argv_free(&a);
	return ret;
}

int lab_netem_tap(struct lab_run *r, const char *host, const char *iface, char *const args[])
{
	const struct lab_nic *nic = need_nic(r, host, iface, NULL);
	struct argv a = { 0 };
	char err[1024];
	int ret;

	if (!nic)
		return -1;
	arg(&a, "tc"); arg(&a, "qdisc");
	if (!args) {
		arg(&a, "del"); arg(&a, "dev"); arg(&a, "%s", nic->tap); arg(&a, "root");
	} else {
		arg(&a, "replace"); arg(&a, "dev"); arg(&a, "%s", nic->tap); arg(&a, "root"); arg(&a, "netem");
		for (int i = 0; args[i]; i++)
			arg(&a, "%s", args[i]);
	}
	ret = netns_run(r->netns, a.v, err, sizeof(err));
	if (ret)
		pr_warn("netem on tap %s (%s %s): %s", nic->tap, host, iface, err);
	argv_free(&a);
	return ret;
}

int lab_tap_stats(struct lab_run *r, const char *host, const char *iface, const char *path)
{
	const struct lab_nic *nic = need_nic(r, host, iface, NULL);
	char out[16384], tap[64];
	char *argv[] = { "ip", "-s", "-j", "link", "show", "dev", tap, NULL };
	int st;
	FILE *f;

	if (!nic)
		return -1;
	snprintf(tap, sizeof(tap), "%s", nic->tap);
	out[0] = 0;
	st = run_cmd(argv, r->netns, out, sizeof(out));
	if (st) {
		pr_warn("ip -s link show %s (%s %s) failed: %s", tap, host, iface, out);
		return -1;
	}
	f = fopen(path, "w");
	if (!f) {
		pr_warn("couldn't write %s: %s", path, errno_str(errno));
		return -1;
	}
	st = fputs(out, f) < 0;
	if (fclose(f) || st) {
		pr_warn("couldn't write %s", path);
		return -1;
	}
	return 0;
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
		if (start_tcpdump(r, s))
			return -1;
		lab_save(r);
		return 0;
	}
	pr_warn("run %s has no segment '%s'", r->id, segment);
	return -1;
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

				if (st && json_object_object_get_ex(st, "status", &v))
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
		fprintf(f, "segment    %-12s bridge %-10s pcap %s\n", r->segments[s].name,
			r->segments[s].bridge, r->segments[s].pcap);
}

/* ---- shell: the guest's second serial port, interactive ---------------- */

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>

int lab_shell(struct lab_run *r, const char *host)
{
	const struct lab_guest *g = need_guest(r, host);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct termios old, raw;
	bool tty = isatty(0);
	int fd, ret = 0;

	if (!g)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", g->shell);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		pr_warn("%s: couldn't connect to its shell port %s: %s", host, g->shell, errno_str(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(stderr, "%s: shell on ttyS1 (kernel console in %s/console.log); Ctrl-] leaves\n", host, g->dir);
	if (tty) {
		tcgetattr(0, &old);
		raw = old;
		cfmakeraw(&raw);
		tcsetattr(0, TCSANOW, &raw);
	}
	if (write(fd, "\n", 1) < 0)
		ret = -1;
	while (!ret && !lab_interrupted) {
		struct pollfd p[2] = { { .fd = 0, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
		char buf[4096];
		ssize_t n;

		if (poll(p, 2, 500) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents) {
			n = read(0, buf, sizeof(buf));
			if (n <= 0 || memchr(buf, 0x1d, n))
				break;
			if (write(fd, buf, n) != n)
				break;
		}
		if (p[1].revents) {
			n = read(fd, buf, sizeof(buf));
			if (n <= 0)
				break;
			if (write(1, buf, n) != n)
				break;
		}
	}
	if (tty)
		tcsetattr(0, TCSANOW, &old);
	close(fd);
	fprintf(stderr, "\n");
	return ret;
}
