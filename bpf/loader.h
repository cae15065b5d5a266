/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the three sender loaders (ksock.c, netpoll.c, ringbuf.c) share:
 * fill the configuration, load, run the setup program, attach, pin, and
 * unpin on failure. Every sender object has cfg in .rodata, maps
 * stats/state/info and programs bpfwire_exec/bpfwire_open.
 */
#ifndef BPFWIRE_LOADER_H
#define BPFWIRE_LOADER_H

#include <limits.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "args.h"
#include "errnames.h"
#include "log.h"

struct sender {
	enum bpfwire_via via;
	struct bpf_object *obj;
	char dir[PATH_MAX];		/* pin dir, "" until created */
	struct bpf_link *links[2];	/* exec, open */
};

/* 0, or -1 after a message (no epoch: getrandom failed). */
struct kapi;
/* The running kernel's release (uname -r), for messages. */
const char *kernel_release(void);
/*
 * The kfunc API (kapi.h) of --btf FILE, or of the running kernel: 0, or -1
 * after a message. what gets "kernel RELEASE" or "BTF FILE", for messages.
 */
int sender_read_api(const struct agent_opts *o, struct kapi *k, char *what, size_t len);
int sender_fill_cfg(const struct agent_opts *o, struct bpfwire_cfg *cfg);
int sender_load(struct sender *s, int (*load)(void *skel), void *skel);
/* Runs SYSCALL program prog once; its return value in *retval. */
int sender_run_setup(struct sender *s, const char *prog, int *retval);
/* The same, with ctx_len bytes of ctx as the program's ctx. */
int sender_run_setup_ctx(struct sender *s, const char *prog, const void *ctx,
			 size_t ctx_len, int *retval);
/*
 * --encrypt, before anything is loaded: 0 when the running kernel lets LSM
 * programs call bpf_crypto_encrypt (bpfwire's crypto series), or without
 * --encrypt; -1 after a one-line message naming what is missing.
 */
int sender_check_encrypt(const struct agent_opts *o);
/*
 * --encrypt, after load: the key file's encryption key into the sender's
 * AES context (bpfwire_crypto_setup); the agent's copy is wiped.
 */
int sender_set_enc_key(struct sender *s, const struct agent_opts *o);
/*
 * --key-file: reads the key, writes it into map sign_key, freezes the map
 * and wipes the agent's copy. Nothing to do without a key.
 */
int sender_set_key(struct sender *s, const struct agent_opts *o);
int sender_write_info(struct sender *s, const struct agent_opts *o,
		      const struct bpfwire_cfg *cfg);
int sender_attach(struct sender *s, __u32 events);
/* mkdir BPFWIRE_PIN_ROOT/VIA; fails if a sender of that kind is installed. */
int sender_pin_dir(struct sender *s);
int sender_pin(struct sender *s, const char *const *maps, int pin_links);
/* Removes s->dir (what a failed install pinned), then the root if empty. */
void sender_unpin(struct sender *s);

/* Unpins everything in a pin dir and removes it: 0 or -errno. */
int pin_dir_remove(const char *dir);

#endif /* BPFWIRE_LOADER_H */
