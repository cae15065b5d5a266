/* SPDX-License-Identifier: GPL-2.0-only */
/* One QEMU per guest (qemu.c): its command line, its accelerator, its start. */
#ifndef BPFWIRE_LAB_VM_QEMU_H
#define BPFWIRE_LAB_VM_QEMU_H

#include <stddef.h>
#include <sys/types.h>

#include "model.h"
#include "proc.h"
#include "topo/topology.h"

/* r->accel from auto|kvm|tcg, and why. */
void qemu_choose_accel(struct lab_run *r, const char *accel, char *why, size_t whylen);
/* A guest's share dir, given to LAB_QEMU_UID (model.h). 0 or -errno. */
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
/* Starts guest hi's QEMU in the run's netns; its pid or -errno. */
pid_t qemu_start(struct lab_run *r, const struct topology *t, int hi, const char *append);

#endif
