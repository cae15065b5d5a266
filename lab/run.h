/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A lab run: one netns, its bridges, taps, dnsmasq, tcpdump and one QEMU
 * per guest. This is the API a scenario runner calls (see lab/README.md):
 *
 *	lab_install_signals();
 *	lab_up(&opts, &topo, &run);          boots; tears down itself on failure
 *	lab_exec(run, "receiver", argv, 10000, &res);
 *	lab_link(run, "sender", "eth0", false, LINK_CARRIER);
 *	lab_down(run);                       always; returns splat count > 0 as 1
 *	lab_free(run);
 */
#ifndef BPFWIRE_LAB_RUN_H
#define BPFWIRE_LAB_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "qga.h"
#include "topology.h"
#include "util.h"

#define LAB_STATE_ROOT "/run/bpfwire"
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

const char *lab_default_kernel(void);
int lab_up(const struct lab_up_opts *o, const struct topology *t, struct lab_run **out);
/*
 * lab_up's run is guarded by a reaper process that tears it down if this
 * process dies before lab_down (SIGKILL included). lab_detach hands the
 * run over instead: it stays up for later commands (what `up` does);
 * lab_free without lab_down does the same.
 */
void lab_detach(struct lab_run *r);
/* Load a run from its state file; id NULL picks the only one. */
int lab_open(const char *id, struct lab_run **out);
/* Tear down (certain, idempotent). Returns 0, or 1 if a console had a splat. */
int lab_down(struct lab_run *r, bool quiet);
void lab_free(struct lab_run *r);
int lab_save(const struct lab_run *r);
const struct lab_guest *lab_guest(const struct lab_run *r, const char *name);
/* A remote host of the run (lab/remote.c), or NULL. */
const struct lab_remote *lab_remote(const struct lab_run *r, const char *name);
/* Copies FILE from a remote host's ${SHARE} into RUN/hosts/NAME/FILE. 0 or -1. */
int lab_fetch(struct lab_run *r, const char *host, const char *file);

int lab_exec(struct lab_run *r, const char *host, char *const argv[], int timeout_ms,
	     struct qga_result *res);
long lab_spawn(struct lab_run *r, const char *host, char *const argv[]);
int lab_wait(struct lab_run *r, const char *host, long pid, int timeout_ms,
	     struct qga_result *res);
int lab_link(struct lab_run *r, const char *host, const char *iface, bool up, enum link_how how);
/* tc netem in the guest on IFACE's egress; args NULL: remove. */
int lab_netem(struct lab_run *r, const char *host, const char *iface, char *const args[]);
/* The same on the NIC's tap in the lab netns (needs sch_netem in the host kernel). */
int lab_netem_tap(struct lab_run *r, const char *host, const char *iface, char *const args[]);
/* `ip -s -j link show` of IFACE's tap, written to FILE (relative) in HOST's
 * share, never through a link: drops between the bridge and the guest show
 * there, not in the guest. */
int lab_tap_stats(struct lab_run *r, const char *host, const char *iface, const char *file);
int lab_capture_start(struct lab_run *r, const char *segment);
void lab_status(struct lab_run *r, FILE *f);
/*
 * Scan every started guest's whole console for splats; quote them to f.
 * Returns how many, plus one per console that is missing, empty,
 * unreadable, or not proven live at teardown (lab_prove_consoles,
 * lab_console_gaps): no evidence is not a clean run.
 */
int lab_scan_splats(const struct lab_run *r, FILE *f);
/*
 * Before the lab kills a guest that missed its deadline (why says which):
 * SysRq w and l through QMP, so its console holds the blocked tasks' and
 * the CPUs' stacks. host NULL: every guest. sysrq.c.
 */
void lab_sysrq_dump(const struct lab_run *r, const char *host, const char *why);
/*
 * Teardown's console proof, before any QEMU is killed: SysRq h on every
 * started guest through QMP, then up to LAB_PROOF_WAIT_S for its banner
 * (LAB_PROOF_BANNER) to reach the console file, which only the host
 * writes. Sets each guest's console_proof and console_why. sysrq.c.
 */
#define LAB_PROOF_BANNER "sysrq: HELP : "
#define LAB_PROOF_WAIT_S 10
void lab_prove_consoles(struct lab_run *r);
/*
 * After the QEMUs ended (or right after the proof, for a run left up): a
 * live console that says "console [ttyS0] enabled" more than once was
 * removed and registered again, so it is no evidence after all. splat.c.
 */
void lab_console_gaps(struct lab_run *r);
/* "live", "no evidence", "unchecked" or "skipped". */
const char *lab_console_proof_name(enum lab_console_proof p);
int lab_shell(struct lab_run *r, const char *host);
/* Run ids that have a state dir, and bpfwire-* netns without one. */
int lab_list(FILE *f);
/* down every run and every orphan bpfwire-* netns. */
int lab_down_all(bool quiet);

#endif
