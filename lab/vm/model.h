/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A lab run's model: one netns, its bridges, taps, dnsmasq, tcpdump and one
 * QEMU per guest, as structs, with the small lookups every part of the
 * engine needs (model.c). The lifecycle that fills it is lifecycle.h's.
 */
#ifndef BPFWIRE_LAB_VM_MODEL_H
#define BPFWIRE_LAB_VM_MODEL_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "topo/topology.h"

#define LAB_STATE_ROOT "/run/bpfwire"
/*
 * The uid and gid QEMU runs as once set up (-runas): no user's, so it can
 * read only what any user of the host could, and write only the guests'
 * shares (qemu_own_share, and share_mount's tmpfs).
 */
#define LAB_QEMU_UID 2147480000u
#define LAB_RUN_ID_MAX 32
#define LAB_MAX_PROCS  (TOPO_MAX_HOSTS + TOPO_MAX_SEGMENTS + 4)


struct lab_proc {
	char role[16];		/* qemu, dnsmasq, tcpdump */
	char name[32];		/* guest or segment */
	pid_t pid;
	unsigned long long start;	/* /proc/PID/stat starttime: pid reuse guard */
};

struct lab_nic {
	char ifname[TOPO_IFNAME_MAX + 1];
	char tap[16];
	char segment[TOPO_NAME_MAX + 1];
	char device[16];	/* QEMU device id, for set_link */
	char mac[18];
};

/*
 * A console with no splat proves nothing if guest root removed it. At
 * teardown each guest gets SysRq h, whose banner must reach its console.
 * UNCHECKED (no proof taken) and NO_EVIDENCE count as findings of the
 * scan; SKIPPED is a run that had already failed (up failed, the reaper).
 */
enum lab_console_proof {
	LAB_CONSOLE_UNCHECKED = 0,
	LAB_CONSOLE_LIVE,
	LAB_CONSOLE_NO_EVIDENCE,
	LAB_CONSOLE_SKIPPED,
};

struct lab_guest {
	char name[TOPO_NAME_MAX + 1];
	char dir[PATH_MAX];	/* RESULTS/hosts/NAME, the guest's writable share */
	char qmp[108], qga[108], shell[108];
	pid_t pid;
	unsigned long long start;
	double t_kernel, t_ready;	/* seconds after its QEMU started, -1 if not */
	long rss_kib;
	int nnics;
	struct lab_nic nics[TOPO_MAX_NICS];
	/* Teardown's proof that the console was live (sysrq.c); not saved. */
	enum lab_console_proof console_proof;
	char console_why[256];
};

struct lab_segment {
	char name[TOPO_NAME_MAX + 1];
	char bridge[16];
	char pcap[PATH_MAX];
	int mtu;		/* lowered for a VXLAN to a remote host; 0: the default */
};

/* One VXLAN per (segment, remote host): lab/remote.c. */
struct lab_tunnel {
	char ifname[TOPO_IFNAME_MAX + 1];	/* the remote's device: the topology's IFACE */
	char segment[TOPO_NAME_MAX + 1];
	char dev[16];		/* the lab's end, vxVVVVVV: made in the underlay netns, then in the run's */
	char mac[18];		/* the remote end's MAC */
	unsigned vni;
	int mtu;
	char peer[64];		/* a link between parts: the other part's underlay address */
};

#define LAB_MAX_REMOTES 8
struct lab_remote {
	char name[TOPO_NAME_MAX + 1];
	char user[TOPO_USER_MAX + 1];
	char addr[64];
	unsigned port;
	char key[1024];		/* "" : ssh's own identities */
	char dir[PATH_MAX];	/* RUN/hosts/NAME: fetched files, the tunnel's pcap, dmesg.log */
	char rbase[96];		/* mktemp -d /tmp/bpfwire-ID.XXXXXXXX on the remote, made at up; "": none */
	char rdir[128];		/* RBASE/NAME there: its ${SHARE}; "" until up made it */
	char lab_addr[64];	/* the lab's underlay address as the remote sees it */
	double uptime0;		/* the remote's /proc/uptime at up: its dmesg since then */
	int ntunnels;
	struct lab_tunnel tunnels[TOPO_MAX_NICS];
};

struct lab_run {
	char id[LAB_RUN_ID_MAX + 1];
	char netns[64];
	char statedir[PATH_MAX];	/* /run/bpfwire/ID: state.json, sockets */
	char results[PATH_MAX];		/* RUN: consoles, pcaps, shares */
	char topology[PATH_MAX];
	char topo_name[64];
	char kernel[PATH_MAX];
	char accel[8];
	char status[16];		/* booting, ready, failed */
	long long created;		/* epoch seconds */
	double boot_s;			/* up: first QEMU start to all ready */
	int nprocs, nguests, nsegments;
	struct lab_proc procs[LAB_MAX_PROCS];
	struct lab_guest guests[TOPO_MAX_HOSTS];
	struct lab_segment segments[TOPO_MAX_SEGMENTS];
	int guard_fd;			/* pipe to the run's reaper; -1: none */
	char underlay[64];		/* netns that reaches the remote hosts; "": the root one */
	char ssh_config[PATH_MAX];	/* ssh -F FILE; "": ssh's defaults */
	int nremotes;
	struct lab_remote remotes[LAB_MAX_REMOTES];
	char part[TOPO_NAME_MAX + 1];	/* up --part: the part this run boots; "" whole */
	int nlinks;			/* VXLANs to the other parts, one per (segment, part) */
	struct lab_tunnel links[TOPO_MAX_SEGMENTS * TOPO_MAX_PARTS];
};

struct lab_up_opts {
	const char *run_id;	/* NULL: TOPO-XXXX */
	const char *results;	/* NULL: ./results/ID */
	const char *kernel;	/* NULL: $BPFWIRE_KERNEL or BUILD/kernel/bzImage */
	const char *accel;	/* auto, kvm, tcg */
	const char *append;	/* extra kernel parameters for every guest */
	int timeout_s;		/* per guest, to ready */
	bool capture;		/* tcpdump per segment */
	bool quiet;		/* no progress lines */
	const char *underlay_netns;	/* remote hosts' underlay; NULL: the root netns */
	const char *ssh_config;	/* ssh -F for remote hosts; NULL: none */
	const char *part;	/* boot only this part of a split topology */
	unsigned share_mib;	/* each guest's share, a tmpfs of this size; 0: LAB_SHARE_DEFAULT_MIB */
};

enum link_how { LINK_CARRIER, LINK_BRIDGE_PORT };

/* Exit statuses of the CLI that library calls map to. */
/*
 * LAB_NA: `run` on a kernel series the scenario does not list, or a
 * --kernel-series whose kernel is not built (77: meson's SKIP).
 */
enum { LAB_OK = 0, LAB_FAIL = 1, LAB_EUSAGE = 2, LAB_NA = 77 };

const struct lab_guest *lab_guest(const struct lab_run *r, const char *name);
/* A remote host of the run, or NULL. */
const struct lab_remote *lab_remote(const struct lab_run *r, const char *name);
/* Remember a process of the run, with its start time. */
void lab_add_proc(struct lab_run *r, const char *role, const char *name, pid_t pid);
/*
 * RUN/guests/HOST, where the lab writes what it keeps about a guest for
 * people (qemu.cmdline, qemu.log, setup.sh): outside the guest's share, so
 * the guest can change none of it. With file, that file's path. 0 or
 * -ENAMETOOLONG.
 */
int lab_guest_path(const struct lab_run *r, const char *host, const char *file, char *buf, size_t len);
/* At most 24 of A-Z a-z 0-9 - _: safe as a path component and netns name. */
bool lab_valid_id(const char *id);
/* "live", "no evidence", "unchecked" or "skipped". */
const char *lab_console_proof_name(enum lab_console_proof p);

#endif
