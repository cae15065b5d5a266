// SPDX-License-Identifier: GPL-2.0-only
/* QEMU for each guest: the accelerator, the command line, the start. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"
#include "errnames.h"
#include "file.h"
#include "lab-config.h"
#include "log.h"
#include "model.h"
#include "proc.h"
#include "qemu.h"
#include "rootview.h"
#include "share.h"
#include "timeutil.h"
#include "topo/topo_lookup.h"
#include "topo/topology.h"
#include "util.h"

/*
 * There is no size option for a file chardev: RLIMIT_FSIZE makes a write
 * past the cap fail with EFBIG (the serial port drops the byte, a guest
 * writing its share gets EIO) while QEMU, SIGXFSZ ignored, lives on; the
 * splat scan reports a console that reached the cap as lost evidence.
 */
int qemu_child_setup(void *arg)
{
	int e = limit_file_size(LAB_DATA_MAX);

	return e ? e : arg ? rootview_enter(arg) : 0;
}

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
 * QEMU's own confinement once its files, taps and sockets are open: it
 * drops root for LAB_QEMU_UID (-runas), so what it reads for a guest is
 * what any user of the host could read (not the 0600 files of the trees it
 * exports), and a seccomp filter denies it obsolete calls, fork/exec and
 * scheduler/resource changes. elevateprivileges stays allowed: QEMU 7.2
 * installs the filter before -runas's setgid/setuid, which
 * elevateprivileges=deny kills (SIGSYS); once -runas has run, no uid of
 * QEMU's is root, so set*id can no longer raise anything.
 */
static void add_confinement(struct argv *a)
{
	argv_add(a, "-sandbox");
	argv_add(a, "on,obsolete=deny,elevateprivileges=allow,spawn=deny,resourcecontrol=deny");
	argv_add(a, "-runas"); argv_add(a, "%u:%u", LAB_QEMU_UID, LAB_QEMU_UID);
}

int qemu_probe_argv(const struct lab_run *r, const char *console, struct argv *a)
{
	argv_add(a, "qemu-system-x86_64");
	argv_add(a, "-accel"); argv_add(a, "kvm");
	argv_add(a, "-machine"); argv_add(a, "pc");
	argv_add(a, "-m"); argv_add(a, "128");
	argv_add(a, "-nodefaults"); argv_add(a, "-display"); argv_add(a, "none"); argv_add(a, "-no-reboot");
	argv_add(a, "-kernel"); argv_add(a, "%s", r->kernel);
	argv_add(a, "-append"); argv_add(a, "console=ttyS0 earlyprintk=serial panic=-1 ignore_loglevel");
	argv_add(a, "-serial"); argv_add(a, "file:%s", console);
	add_confinement(a);
	return a->n > 0 ? 0 : -ENOMEM;
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
	struct spawn_opts so = { .netns = r->netns, .setsid = true, .child_setup = qemu_child_setup };
	struct stat st;
	bool alive = false;
	double t0;
	pid_t pid;
	int fd;

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
	/* made anew, never through a link, as a guest's console is */
	fd = share_create(r->statedir, "kvm-probe.console");
	if (fd < 0) {
		snprintf(why, whylen, "couldn't create the KVM probe's console in %s: %s", r->statedir,
			 errno_str(fd));
		return false;
	}
	close(fd);
	snprintf(con, sizeof(con), "%s/kvm-probe.console", r->statedir);
	qemu_probe_argv(r, con, &a);
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

void qemu_choose_accel(struct lab_run *r, const char *accel, char *why, size_t whylen)
{
	if (!strcmp(accel, "tcg") || !strcmp(accel, "kvm")) {
		snprintf(r->accel, sizeof(r->accel), "%s", accel);
		snprintf(why, whylen, "asked for");
		return;
	}
	snprintf(r->accel, sizeof(r->accel), "%s", kvm_works(r, why, whylen) ? "kvm" : "tcg");
}

/*
 * no_timer_check: under a loaded TCG host the IO-APIC timer check can fail
 * and panic the boot. bpfwire.keep: the source, build and results trees, which guest-init
 * keeps visible even under the /tmp it covers with tmpfs. ignore_loglevel
 * comes last, after the topology's append and --append, so that a `quiet`
 * there can never hide a WARN from the console scan.
 */
static void add_kernel_params(struct argv *a, const struct lab_run *r, const struct lab_guest *g,
			      const struct topo_host *h, const char *append)
{
	/* Under icount QEMU's TSC ticks once per ns of its instruction clock. */
	long tsc = h->icount ? 1000000 : host_tsc_khz();
	char tscarg[64] = "";

	if (tsc > 0)
		snprintf(tscarg, sizeof(tscarg), " tsc_early_khz=%ld", tsc);
	argv_add(a, "-append");
	argv_add(a, "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose "
		"ro init=%s panic=-1 tsc=reliable%s no_timer_check bpfwire.dir=%s bpfwire.host=%s "
		"bpfwire.keep=%s,%s,%s%s%s%s%s ignore_loglevel",
	    BPFWIRE_GUEST_INIT, tscarg, g->dir, h->name, BPFWIRE_SOURCE_ROOT, BPFWIRE_BUILD_ROOT, r->results,
	    h->append[0] ? " " : "", h->append,
	    append && *append ? " " : "", append ? append : "");
}

static void add_machine(struct argv *a, const struct lab_run *r, const struct topo_host *h)
{
	/* debug-threads: vCPU threads are "CPU N/TCG", so bpfwire-bench can pin them. */
	argv_add(a, "-name"); argv_add(a, "bpfwire-%s-%s,process=bpfwire-%s,debug-threads=on", r->id,
					h->name, h->name);
	if (!strcmp(r->accel, "kvm")) {
		if (h->icount)
			pr_warn("%s: icount needs TCG; under KVM its clock is not an instruction count",
				h->name);
		argv_add(a, "-accel"); argv_add(a, "kvm");
	} else {
		argv_add(a, "-accel"); argv_add(a, "tcg");
		/*
		 * Under icount no RDRAND/RDSEED: the host's entropy would seed the
		 * guest's hash tables and ports differently on every boot.
		 */
		argv_add(a, "-cpu"); argv_add(a, h->icount ? "max,-rdrand,-rdseed" : "max");
		/*
		 * The guest's clock advances 1 ns per guest instruction, and when
		 * idle jumps to the next timer: costs become instruction counts,
		 * blind to host load (lab/README.md, "icount").
		 */
		if (h->icount) {
			argv_add(a, "-icount"); argv_add(a, "shift=0,sleep=off");
		}
	}
	/*
	 * q35, not pc: pc's _PRT is an AML loop that the kernel evaluates once
	 * per PCI device, about 1 s each under TCG on the debug kernel (four
	 * of a lone guest's 6.4 s to kernel-up); q35's is a static table.
	 */
	argv_add(a, "-machine"); argv_add(a, "q35");
	argv_add(a, "-m"); argv_add(a, "%u", h->memory_mib);
	argv_add(a, "-smp"); argv_add(a, "%u", h->cpus);
	argv_add(a, "-nodefaults"); argv_add(a, "-no-user-config"); argv_add(a, "-display"); argv_add(a, "none");
	argv_add(a, "-no-reboot");
	argv_add(a, "-kernel"); argv_add(a, "%s", r->kernel);
}

/* Shares, QMP, qemu-ga, serial ports and NICs. */
static void add_devices(struct argv *a, const struct lab_guest *g, const struct topo_host *h,
			const char *console, const char *root)
{
	/*
	 * The root: the read-only view rootview.c builds (multidevs=remap: it
	 * spans file systems). The results share is mapped-xattr: what the
	 * guest makes is a plain root-owned 0644/0755 file or directory on the
	 * host, its mode, owner, device numbers and link targets kept in
	 * user.virtfs.* xattrs, so no setuid file, device node or symlink of the
	 * guest's ever exists on the host.
	 */
	argv_add(a, "-fsdev"); argv_add(a, "local,id=root,path=%s,readonly=on,security_model=none,multidevs=remap", root);
	argv_add(a, "-device"); argv_add(a, "virtio-9p-pci,fsdev=root,mount_tag=/dev/root");
	argv_add(a, "-fsdev"); argv_add(a, "local,id=results,path=%s,security_model=mapped-xattr,fmode=0644,dmode=0755", g->dir);
	argv_add(a, "-device"); argv_add(a, "virtio-9p-pci,fsdev=results,mount_tag=results");
	/* QMP, qemu-ga, console file, interactive shell on ttyS1 */
	argv_add(a, "-chardev"); argv_add(a, "socket,id=qmp,path=%s,server=on,wait=off", g->qmp);
	argv_add(a, "-mon"); argv_add(a, "chardev=qmp,mode=control");
	argv_add(a, "-chardev"); argv_add(a, "socket,id=qga,path=%s,server=on,wait=off", g->qga);
	argv_add(a, "-device"); argv_add(a, "virtio-serial-pci");
	argv_add(a, "-device"); argv_add(a, "virtserialport,chardev=qga,name=org.qemu.guest_agent.0");
	/* the console outside the share: the guest cannot edit the evidence */
	argv_add(a, "-serial"); argv_add(a, "file:%s", console);
	argv_add(a, "-chardev"); argv_add(a, "socket,id=shell,path=%s,server=on,wait=off", g->shell);
	argv_add(a, "-serial"); argv_add(a, "chardev:shell");
	for (int n = 0; n < g->nnics; n++) {
		argv_add(a, "-netdev"); argv_add(a, "tap,id=net%d,ifname=%s,script=no,downscript=no", n, g->nics[n].tap);
		/*
		 * Under icount, virtio-net's TX runs on a timer of the instruction
		 * clock, not in a bottom half the host schedules: whether a send
		 * kicks the device no longer depends on host timing.
		 */
		bool txtimer = h->icount && h->nics[n].model == NIC_VIRTIO;

		argv_add(a, "-device");
		argv_add(a, "%s,netdev=net%d,id=%s,mac=%s%s", topo_model_qemu(h->nics[n].model), n,
			 g->nics[n].device, g->nics[n].mac, txtimer ? ",tx=timer" : "");
	}
}

int qemu_own_share(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	if (fchown(fd, LAB_QEMU_UID, LAB_QEMU_UID) || fchmod(fd, 0755))
		e = -errno;
	close(fd);
	return e;
}

int qemu_argv(const struct lab_run *r, const struct topology *t, int hi, const char *append,
	      const char *console, const char *root, struct argv *a)
{
	const struct topo_host *h = &t->hosts[hi];
	const struct lab_guest *g = &r->guests[hi];

	argv_add(a, "qemu-system-x86_64");
	add_machine(a, r, h);
	add_kernel_params(a, r, g, h, append);
	add_devices(a, g, h, console, root);
	add_confinement(a);
	return a->n > 0 ? 0 : -ENOMEM;
}

/* RUN/guests/NAME/qemu.cmdline: the command, to rerun a guest by hand. */
static void write_cmdline(const struct lab_run *r, const struct lab_guest *g, const struct argv *a)
{
	char dir[PATH_MAX];
	FILE *f;

	if (lab_guest_path(r, g->name, NULL, dir, sizeof(dir)))
		return;
	f = share_fopen(dir, "qemu.cmdline");

	if (!f)
		return;
	fprintf(f, "# The root share's path is a view that exists only in QEMU's own mount\n"
		   "# namespace (lab/vm/rootview.c); by hand, give it a directory of your own.\n");
	for (int i = 0; i < a->n; i++) {
		char q[2048];

		shell_quote(a->v[i], q, sizeof(q));
		fprintf(f, "%s%s", i ? " \\\n  " : "", q);
	}
	fprintf(f, "\n");
	fclose(f);
}

pid_t qemu_start(struct lab_run *r, const struct topology *t, int hi, const char *append)
{
	struct lab_guest *g = &r->guests[hi];
	struct argv a = { 0 };
	char log[PATH_MAX + 32], console[PATH_MAX + 32], root[PATH_MAX + 32], dir[PATH_MAX];
	/* guests see the source, build and results trees at their own paths */
	struct rootview view = { .dir = root, .keep = { BPFWIRE_SOURCE_ROOT, BPFWIRE_BUILD_ROOT, r->results } };
	struct spawn_opts so = { .netns = r->netns, .setsid = true, .out = log,
				 .child_setup = qemu_child_setup, .child_arg = &view };
	pid_t pid;
	int fd;

	pid = lab_console_prepare(r, g, console, sizeof(console));
	if (pid < 0)
		return pid;
	/* the view's mount point: an empty dir on the host, in every namespace but QEMU's */
	snprintf(root, sizeof(root), "%s/guest-root", r->statedir);
	if (mkdir(root, 0700) && errno != EEXIST)
		return -errno;
	/* qemu.log anew outside the share, then appended to by QEMU, never through a link */
	if (lab_guest_path(r, g->name, NULL, dir, sizeof(dir)))
		return -ENAMETOOLONG;
	fd = share_create(dir, "qemu.log");
	if (fd < 0)
		return fd;
	close(fd);
	snprintf(log, sizeof(log), "%s/qemu.log", dir);
	if (qemu_argv(r, t, hi, append, console, root, &a)) {
		argv_free(&a);
		return -ENOMEM;
	}
	write_cmdline(r, g, &a);
	pid = spawn(a.v, &so);
	argv_free(&a);
	return pid;
}
