/* SPDX-License-Identifier: GPL-2.0-only */
/* What up needs before anything changes (preflight.c). */
#ifndef BPFWIRE_LAB_VM_PREFLIGHT_H
#define BPFWIRE_LAB_VM_PREFLIGHT_H

#include <stddef.h>

#include "model.h"
#include "topo/topology.h"

/* -1 after saying what is missing, else 0. */
int lab_preflight(const struct lab_up_opts *o, const struct topology *t, const char *kernel);
/*
 * path in tree (a tree the guests see at its own path): -1 with why (one
 * line: the file or dir, its mode, the chmod) when QEMU, as a user of no
 * rights, could not reach it, read it, or run it though its owner can;
 * else 0 (also when it is missing or outside tree).
 */
int guest_readable(const char *tree, const char *path, char *why, size_t whylen);

#endif
