/* SPDX-License-Identifier: GPL-2.0-only */
/* The run's private network namespace, through iproute2 and setns(2). */
#ifndef BPFWIRE_LAB_NETNS_H
#define BPFWIRE_LAB_NETNS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>


bool netns_exists(const char *name);
/* ip netns add + lo up. 0, or -1 with err. */
int netns_create(const char *name, char *err, size_t errlen);
/* Every process whose network namespace is name; count or -errno. */
int netns_pids(const char *name, pid_t *pids, int max);
/* Kill every process left in it (by pid), then ip netns del. 0 or -1. */
int netns_delete(const char *name, char *err, size_t errlen);
/* Write /proc/sys/KEY (dots or slashes) inside the namespace. */
int netns_sysctl(const char *name, const char *key, const char *value);
/* ip -n NAME -batch FILE. 0, or -1 with ip's output in err. */
int netns_ip_batch(const char *name, const char *file, char *err, size_t errlen);
/* Run argv (e.g. ip, tc) in the namespace, output into err on failure. */
int netns_run(const char *name, char *const argv[], char *err, size_t errlen);
/* Names of the netns under /run/netns that start with prefix. */
int netns_list(const char *prefix, char names[][64], int max);

#endif
