/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent internals shared by agent.c, the per-sender loaders and pins.c. */
#ifndef BPFWIRE_AGENT_H
#define BPFWIRE_AGENT_H

#include <limits.h>
#include <bpf/libbpf.h>
#include "args.h"

enum { LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE };
extern int agent_log_level;
void agent_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define pr_warn(...)  agent_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...)  agent_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) agent_log(LOG_DEBUG, __VA_ARGS__)

/* "Network is unreachable (-101)" for -101 or 101 */
const char *errstr(int err);

/* What every sender object has: cfg in .rodata, maps stats/state/info,
 * programs bpfwire_exec/bpfwire_open. */
struct sender {
	enum bpfwire_via via;
	struct bpf_object *obj;
	char dir[PATH_MAX];		/* pin dir, "" until created */
	struct bpf_link *links[2];	/* exec, open */
};

void sender_fill_cfg(const struct agent_opts *o, struct bpfwire_cfg *cfg);
int sender_load(struct sender *s, int (*load)(void *skel), void *skel);
int sender_run_setup(struct sender *s, const char *prog, int *retval);
int sender_write_info(struct sender *s, const struct agent_opts *o,
		      const struct bpfwire_cfg *cfg);
int sender_attach(struct sender *s, __u32 events);
/* mkdir BPFWIRE_PIN_ROOT/VIA; fails if a sender of that kind is installed. */
int sender_pin_dir(struct sender *s);
int sender_pin(struct sender *s, const char *const *maps, int pin_links);
void sender_unpin(struct sender *s);

int install_ksock(const struct agent_opts *o);
int install_netpoll(const struct agent_opts *o);
int run_ringbuf(const struct agent_opts *o);

int cmd_status(const struct agent_opts *o);
int cmd_unload(const struct agent_opts *o);

/* neigh.c */
struct route_info {
	int oif;
	int have_gw;
	__u8 gw[16];
	int have_src;
	__u8 src[16];
};
int route_get(int family, const __u8 *dst, int oif, struct route_info *ri);
/* 0 and mac filled, -ENOENT when no usable entry */
int neigh_get(int family, const __u8 *addr, int ifindex, __u8 mac[6]);
int neigh_resolve(int family, const __u8 *addr, int ifindex, __u8 mac[6],
		  int timeout_ms);

#endif /* BPFWIRE_AGENT_H */
