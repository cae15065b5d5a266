// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 16's stretch question, by hand (crypto_probe.c loads each program
 * alone): may a SYSCALL or LSM sender use 6.12's BPF crypto kfuncs to
 * encrypt the payload? The answers are in bpf/README.md.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* pahole 1.24 leaves kfuncs out of vmlinux.h (as kfuncs.h says). */
extern struct bpf_crypto_ctx *bpf_crypto_ctx_create(const struct bpf_crypto_params *params,
						    u32 params__sz, int *err) __ksym;
extern void bpf_crypto_ctx_release(struct bpf_crypto_ctx *ctx) __ksym;
extern int bpf_crypto_encrypt(struct bpf_crypto_ctx *ctx, const struct bpf_dynptr *src,
			      const struct bpf_dynptr *dst,
			      const struct bpf_dynptr *siv__nullable) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

struct crypto_slot {
	struct bpf_crypto_ctx __kptr *ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct crypto_slot);
} slot SEC(".maps");

/* dynptr memory: 6.12's bpf_dynptr_from_mem refuses a stack buffer. */
struct crypto_buf {
	__u8 in[16], out[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct crypto_buf);
} bufs SEC(".maps");

int create_err;
int encrypt_ret;

/* What a sender's setup would do: an AES context from the key. */
SEC("syscall")
int syscall_create(void *ctx)
{
	struct bpf_crypto_params p = {
		.type = "skcipher",
		.algo = "ecb(aes)",
		.key_len = 16,
	};
	struct bpf_crypto_ctx *c;
	int err = 0;

	c = bpf_crypto_ctx_create(&p, sizeof(p), &err);
	create_err = err;
	if (c)
		bpf_crypto_ctx_release(c);
	return 0;
}

static __always_inline int encrypt16(void)
{
	struct bpf_dynptr src, dst;
	struct crypto_slot *s;
	struct crypto_buf *b;
	struct bpf_crypto_ctx *c;
	__u32 key = 0;
	int ret = -1;

	s = bpf_map_lookup_elem(&slot, &key);
	b = bpf_map_lookup_elem(&bufs, &key);
	if (!s || !b)
		return -1;
	bpf_dynptr_from_mem(b->in, sizeof(b->in), 0, &src);
	bpf_dynptr_from_mem(b->out, sizeof(b->out), 0, &dst);
	bpf_rcu_read_lock();
	c = s->ctx;
	if (c)
		ret = bpf_crypto_encrypt(c, &src, &dst, NULL);
	bpf_rcu_read_unlock();
	return ret;
}

/* Where a sender encrypts: its LSM hook... */
SEC("lsm.s/file_open")
int BPF_PROG(lsm_encrypt, struct file *file)
{
	encrypt_ret = encrypt16();
	return 0;
}

/* ...or a SYSCALL program. */
SEC("syscall")
int syscall_encrypt(void *ctx)
{
	encrypt_ret = encrypt16();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
