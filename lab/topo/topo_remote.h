/* SPDX-License-Identifier: GPL-2.0-only */
/* The remote host's grammar (topo_remote.c); lab-private. */
#ifndef BPFWIRE_LAB_TOPO_REMOTE_H
#define BPFWIRE_LAB_TOPO_REMOTE_H

#include <stddef.h>

#include "topology.h"

/* NULL, or why the underlay address can't be a remote machine's. */
const char *topo_remote_check_addr(const struct topology *t, const struct topo_remote *r);
/*
 * FILE, relative to the topology file's directory unless absolute, into out
 * (absolute); it must be an existing regular file. 0, or -1 with why.
 */
int topo_resolve_key(const char *topo_path, const char *file, char *out, size_t len,
		     char *why, size_t whylen);

/* ssh://USER@ADDR[:PORT] (ADDR of IPv6 in brackets) into r; NULL or what is wrong. */
const char *topo_parse_remote_url(const char *url, struct topo_remote *r);

#endif
