// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `up` checks before it changes anything: the programs it needs, the
 * kernel, the underlay and parts, and that QEMU, once it runs as a user of
 * no rights, can read the trees it shares with the guests.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "file.h"
#include "lab-config.h"
#include "log.h"
#include "model.h"
#include "netns.h"
#include "preflight.h"
#include "topo/topology.h"
#include "util.h"

static bool need_program(const char *prog, const char *package)
{
	char path[PATH_MAX];

	if (find_program(prog, path, sizeof(path)))
		return true;
	pr_warn("couldn't find %s: install the Debian package %s", prog, package);
	return false;
}

static bool valid_netns_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || s[0] == '.')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

/* A split topology boots one part at a time; a whole one has none to pick. */
static bool preflight_part(const struct lab_up_opts *o, const struct topology *t)
{
	char names[TOPO_MAX_PARTS * (TOPO_NAME_MAX + 2) + 1] = "";

	for (int i = 0; i < t->nparts; i++) {
		if (o->part && !strcmp(o->part, t->parts[i].name))
			return true;
		strcat(strcat(names, " "), t->parts[i].name);
	}
	if (o->part && !t->nparts)
		pr_warn("--part %s: topology %s has no parts", o->part, t->name);
	else if (o->part)
		pr_warn("--part %s: topology %s has the parts%s", o->part, t->name, names);
	else if (t->nparts)
		pr_warn("topology %s is split into parts (%s): boot one with --part NAME", t->name, names + 1);
	else
		return true;
	return false;
}

int guest_readable(const char *tree, const char *path, char *why, size_t whylen)
{
	size_t n = strlen(tree);
	char buf[PATH_MAX];

	if (strncmp(path, tree, n) || (path[n] && path[n] != '/'))
		return 0;	/* not in that tree: not ours to judge */
	for (size_t i = n; ; i++) {
		struct stat st;
		bool last = !path[i];

		if (!last && path[i] != '/')
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)i, path);
		if (stat(buf, &st))
			return 0;	/* missing: made at run time, or another check's to say */
		if (S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH)) {
			snprintf(why, whylen, "%s is mode %04o: guests reach it as a user of no rights (QEMU's -runas): "
				 "chmod o+rx %s, or check out and build under umask 022", buf,
				 (unsigned)(st.st_mode & 07777), buf);
			return -1;
		}
		if (last && !S_ISDIR(st.st_mode) &&
		    (!(st.st_mode & S_IROTH) || ((st.st_mode & S_IXUSR) && !(st.st_mode & S_IXOTH)))) {
			snprintf(why, whylen, "%s is mode %04o: guests read it as a user of no rights (QEMU's -runas): "
				 "chmod o+r%s %s, or check out and build under umask 022", buf,
				 (unsigned)(st.st_mode & 07777), st.st_mode & S_IXUSR ? "x" : "", buf);
			return -1;
		}
		if (last)
			return 0;
	}
}

int lab_preflight(const struct lab_up_opts *o, const struct topology *t, const char *kernel)
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
	for (int i = 0; i < t->nhosts; i++)
		if (t->hosts[i].remote.on) {
			ok &= need_program("ssh", "openssh-client");
			break;
		}
	if (o->underlay_netns && (!valid_netns_name(o->underlay_netns) || !netns_exists(o->underlay_netns))) {
		pr_warn("--underlay-netns %s: no such network namespace (ip netns list)", o->underlay_netns);
		ok = false;
	}
	if (!preflight_part(o, t))
		ok = false;
	if (o->ssh_config && !file_exists(o->ssh_config)) {
		pr_warn("--ssh-config %s: no such file", o->ssh_config);
		ok = false;
	}
	if (!file_exists(BPFWIRE_GUEST_INIT)) {
		pr_warn("couldn't find the guest init %s", BPFWIRE_GUEST_INIT);
		ok = false;
	}
	/* QEMU reads them as LAB_QEMU_UID, as any user: their tops must let it in */
	for (const char *const *p = (const char *const[]){ BPFWIRE_SOURCE_ROOT, BPFWIRE_BUILD_ROOT, NULL }; *p; p++) {
		struct stat st;

		if (!stat(*p, &st) && (st.st_mode & (S_IROTH | S_IXOTH)) != (S_IROTH | S_IXOTH)) {
			pr_warn("%s is mode %04o: guests read it as a user of no rights, so it must be "
				"readable by others (chmod o+rx)", *p, (unsigned)(st.st_mode & 07777));
			ok = false;
		}
	}
	/* the guest's PID 1 and its DHCP hook, and every dir down to them (a checkout under umask 077) */
	if (ok) {
		char hook[PATH_MAX], why[PATH_MAX * 2 + 200];
		const char *slash = strrchr(BPFWIRE_GUEST_INIT, '/');

		snprintf(hook, sizeof(hook), "%.*s/udhcpc.script", (int)(slash - BPFWIRE_GUEST_INIT),
			 BPFWIRE_GUEST_INIT);
		for (const char *const *p = (const char *const[]){ BPFWIRE_GUEST_INIT, hook, NULL }; *p; p++)
			if (guest_readable(BPFWIRE_SOURCE_ROOT, *p, why, sizeof(why))) {
				pr_warn("%s", why);
				ok = false;
				break;
			}
	}
	return ok ? 0 : -1;
}
