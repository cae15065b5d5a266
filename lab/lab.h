/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of a run share with each other; lab-private: only lab/
 * includes it (run.h is the lab's public API).
 */
#ifndef BPFWIRE_LAB_LAB_H
#define BPFWIRE_LAB_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "run.h"

/* preflight.c: what up needs before anything changes; -1 after saying what is missing. */
int lab_preflight(const struct lab_up_opts *o, const struct topology *t, const char *kernel);
/*
 * path in tree (a tree the guests see at its own path): -1 with why (one
 * line: the file or dir, its mode, the chmod) when QEMU, as a user of no
 * rights, could not reach it, read it, or run it though its owner can;
 * else 0 (also when it is missing or outside tree).
 */
int guest_readable(const char *tree, const char *path, char *why, size_t whylen);

/* run.c: remember a process of the run, with its start time. */
void lab_add_proc(struct lab_run *r, const char *role, const char *name, pid_t pid);
/*
 * guest-init's first reason for a failed setup (stage.failed in the share),
 * as a warning; false when it gave none. Guest-written: one printable line,
 * and a stage.failed over 64 KiB is a failed boot, not read.
 */
bool guest_init_failed(const struct lab_guest *g);

/*
 * reaper.c: guard_start forks the run's reaper (it tears the run down if
 * this process dies first); guard_release tells it why it is no longer
 * needed ('D' down, 'H' handed over).
 */
int guard_start(struct lab_run *r);
void guard_release(struct lab_run *r, char why);

/*
 * run.c: a results dir RUN for a run, DIR itself (not through a link),
 * made 0755 if missing; an existing one must be root's and writable by no
 * one else, or a user could have planted links where the lab writes
 * (consoles/HOST.log). Every dir above it must be root's (or the sudo
 * caller's) and writable by no one else unless root's and sticky (/tmp),
 * or its owner could swap RUN. out: its real path. 0, -EPERM refused
 * (why: one line), or -errno.
 */
int lab_claim_results(const char *dir, char *out, size_t len, char *why, size_t whylen);

/*
 * run.c: RUN/guests/HOST, where the lab writes what it keeps about a guest
 * for people (qemu.cmdline, qemu.log, setup.sh): outside the guest's share,
 * so the guest can change none of it. With file, that file's path. 0 or
 * -ENAMETOOLONG.
 */
int lab_guest_path(const struct lab_run *r, const char *host, const char *file, char *buf, size_t len);

/* state.c */
int lab_load_state(const char *path, struct lab_run *r);
/* At most 24 of A-Z a-z 0-9 - _: safe as a path component and netns name. */
bool lab_valid_id(const char *id);
/* The run ids that have a state dir under LAB_STATE_ROOT. */
int lab_run_ids(char ids[][LAB_RUN_ID_MAX + 1], int max);

/* qemu.c: r->accel from auto|kvm|tcg, and why. */
void qemu_choose_accel(struct lab_run *r, const char *accel, char *why, size_t whylen);
/*
 * The uid and gid QEMU runs as once set up (-runas): no user's, so it can
 * read only what any user of the host could, and write only the guests'
 * shares, which qemu_own_share gives it. 0 or -errno.
 */
#define LAB_QEMU_UID 2147480000u
int qemu_own_share(const char *dir);
/* Guest hi's QEMU command line into a (console and root view paths given): 0 or -ENOMEM. */
int qemu_argv(const struct lab_run *r, const struct topology *t, int hi, const char *append,
	      const char *console, const char *root, struct argv *a);
/* The KVM probe's QEMU command line (its console file given): 0 or -ENOMEM. */
int qemu_probe_argv(const struct lab_run *r, const char *console, struct argv *a);
/*
 * QEMU's spawn_opts.child_setup: every file QEMU writes (console, qemu.log,
 * a guest's file in its share) stops at LAB_DATA_MAX; then it enters the
 * struct rootview arg (none if NULL). 0 or -errno.
 */
int qemu_child_setup(void *arg);
/*
 * share.c: a guest's share DIR (RUN/hosts/NAME) as a tmpfs of bytes (and
 * an inode per 16 KiB) mounted on it, owned by LAB_QEMU_UID: a guest that
 * fills it gets ENOSPC. A stale one of a crashed run is dropped first.
 * -EOPNOTSUPP: this kernel's tmpfs has no user xattrs (before Linux 6.6),
 * which QEMU's mapped-xattr needs. 0 or -errno.
 */
#define LAB_SHARE_DEFAULT_MIB 128u
int share_mount(const char *dir, unsigned long long bytes);
/*
 * After the guest's QEMU ended: DIR's tmpfs detached and its files and
 * dirs copied into the directory it covered. 0 also when DIR is no such
 * mount (never mounted, or already done); else -errno.
 */
int share_unmount(const char *dir);
/* Starts guest hi's QEMU in the run's netns; its pid or -errno. */
pid_t qemu_start(struct lab_run *r, const struct topology *t, int hi, const char *append);

/*
 * rootview.c: the guests' root, a read-only view of the system trees and the
 * kept trees, built on the empty directory dir in a private mount namespace.
 * rootview_enter is a spawn_opts.child_setup for QEMU: 0 or -errno.
 */
#define ROOTVIEW_KEEP_MAX 4
struct rootview {
	const char *dir;
	const char *keep[ROOTVIEW_KEEP_MAX];	/* absolute paths, NULL-terminated if fewer */
};
int rootview_enter(void *arg);
/* bpfwire-lab confine: the same view around any command. */
int rootview_cmd(int argc, char **argv);

/* net.c: the netns with its bridges and taps, dnsmasq, one tcpdump per segment. */
int net_up(struct lab_run *r, const struct topology *t, bool capture);
int net_start_tcpdump(struct lab_run *r, int s);

/* remote.c: remote hosts over SSH, their VXLANs (see lab/README.md). */
/* A copy of t with only what boots (no remote hosts, only part's guests), or NULL. */
struct topology *remote_guests_only(const struct topology *t, const char *part);
/* Names, VNIs and MTUs of the remote hosts' tunnels; before the guests' setup.sh. */
int remote_layout(struct lab_run *r, const struct topology *t, const char *part);
/* Each remote answers over SSH within 8 s: 0, or -1 naming the one that does not. */
int remote_check(struct lab_run *r, bool quiet);
/* Both ends of every VXLAN, the remote's addresses and its capture; the links to other parts. */
int remote_up(struct lab_run *r, const struct topology *t, bool capture);
/* Removes both ends (verified by VNI), kills what the lab started there, keeps its dmesg. */
int remote_down(struct lab_run *r);
/* remote_ssh.c: exec, spawn, wait and link on remote host m, over SSH. */
int remote_exec(struct lab_run *r, const struct lab_remote *m, char *const argv[], int timeout_ms,
		struct qga_result *res);
long remote_spawn(struct lab_run *r, const struct lab_remote *m, char *const argv[]);
int remote_wait(struct lab_run *r, const struct lab_remote *m, long pid, int timeout_ms,
		struct qga_result *res);
int remote_link(struct lab_run *r, const struct lab_remote *m, const char *iface, bool up,
		enum link_how how);
/* remote.c: each remote's dmesg.log since up (root there only), scanned like a console. */
int remote_scan_splats(const struct lab_run *r, FILE *f);

/* guest.c */
/*
 * FILE (relative) in a guest's share DIR, created anew for the host to write:
 * no component may be a link, an old FILE is unlinked first and the new one
 * made with O_EXCL, so nothing the guest left there is followed. fd or -errno.
 */
int share_create(const char *dir, const char *file);
/* The same as a FILE; NULL with errno set. */
FILE *share_fopen(const char *dir, const char *file);
int guest_write_setup(const struct lab_run *r, const struct topology *t, int hi);
/* One qemu-ga client per guest at a time: an flock'd fd, or -1. */
int guest_lock(const struct lab_run *r, const char *host);

/*
 * splat.c: a guest's console is RUN/consoles/NAME.log, outside its share so
 * the guest cannot edit the evidence. _prepare also creates RUN/consoles.
 * Both 0 or -errno.
 */
int lab_console_path(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len);
int lab_console_prepare(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len);
/* The last lines of a guest's console (or its qemu.log) to stderr. */
void console_tail(const struct lab_run *r, const struct lab_guest *g, int lines);

#endif
