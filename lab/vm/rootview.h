/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guests' root (rootview.c): a read-only view of the system trees and
 * the kept trees, built on the empty directory dir in a private mount
 * namespace.
 */
#ifndef BPFWIRE_LAB_VM_ROOTVIEW_H
#define BPFWIRE_LAB_VM_ROOTVIEW_H

#define ROOTVIEW_KEEP_MAX 4
struct rootview {
	const char *dir;
	const char *keep[ROOTVIEW_KEEP_MAX];	/* absolute paths, NULL-terminated if fewer */
};
/* A spawn_opts.child_setup for QEMU: 0 or -errno. */
int rootview_enter(void *arg);
/* bpfwire-lab confine: the same view around any command. */
int rootview_cmd(int argc, char **argv);

#endif
