/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --encrypt for the BPF senders (ksock, netpoll): wire v3 built in BPF
 * (wire.h; bpf/README.md, "Encryption"). SYSCALL program
 * bpfwire_crypto_setup, run once at install, makes the ecb(aes) context
 * from the key the agent passes as its ctx and keeps it in crypto_slot as
 * a kptr; the key is in no map. The LSM programs encrypt the payload with
 * bpfwire_aes_ctr() from counter block bpfwire_ctr_block(epoch, seq, 0).
 *
 * The working buffers (the datagram, the counter blocks, the keystream)
 * are task storage, not a per-CPU value: the programs
 * are sleepable and may be preempted between copying a payload in and
 * copying its ciphertext out, and another task on that CPU would then
 * overwrite it; the datagram could leave with another event's plaintext.
 * No other task writes a task's own storage.
 *
 * Included by sender.bpf.h, before bpfwire_event(); cfg and OFF_PAYLOAD
 * are sender_base.bpf.h's.
 */
#ifndef BPFWIRE_ENCRYPT_BPF_H
#define BPFWIRE_ENCRYPT_BPF_H

#include "crypto.bpf.h"
#include "sender_base.bpf.h"

/* The setup program's ctx: what the agent passes through BPF_PROG_TEST_RUN. */
struct bpfwire_crypto_args {
	__u8 key[BPFWIRE_ENC_KEY_LEN];
};

struct crypto_slot {
	struct bpf_crypto_ctx __kptr *ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct crypto_slot);
} crypto_slot SEC(".maps");

struct bpfwire_enc_task {
	__u8 dgram[BPFWIRE_SIGN_BUF] __attribute__((aligned(8)));
	__u8 iv[BPFWIRE_CTR_BLOCK_LEN];
	struct bpfwire_ctr_buf b;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct bpfwire_enc_task);
} enc_task SEC(".maps");

static __always_inline struct bpfwire_enc_task *bpfwire_enc_task_get(void)
{
	return bpf_task_storage_get(&enc_task, bpf_get_current_task_btf(), 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
}

static __always_inline bool bpfwire_encrypting(void)
{
	return cfg.wire_version == BPFWIRE_VERSION_3;
}

/*
 * The payload of t's datagram (plen bytes at t->dgram + OFF_PAYLOAD, zero
 * beyond them for BPFWIRE_EVENT_WORDS words) encrypted in place for seq.
 * 0 or -errno; on failure it is zeroed, so no plaintext can be sent.
 */
static __always_inline int bpfwire_encrypt_payload(struct bpfwire_enc_task *t, __u32 plen,
						   __u64 seq)
{
	__u8 *p = t->dgram + OFF_PAYLOAD;
	struct crypto_slot *cs;
	struct bpf_crypto_ctx *c;
	__u32 k0 = 0;
	int i, err;

	cs = bpf_map_lookup_elem(&crypto_slot, &k0);
	if (!cs) {
		err = -ENOMEM;
		goto wipe;
	}
	if (!seq || seq > BPFWIRE_SEQ_MAX_V3) {
		err = -EOVERFLOW;
		goto wipe;
	}
	bpfwire_ctr_block(t->iv, cfg.epoch, seq, 0);
#pragma unroll
	for (i = 0; i < BPFWIRE_EVENT_WORDS; i++)
		*(__u64 *)(t->b.data + i * 8) = *(__u64 *)(p + i * 8);
	bpf_rcu_read_lock();
	c = cs->ctx;
	err = c ? bpfwire_aes_ctr(c, t->iv, &t->b, plen) : -ENOKEY;
	bpf_rcu_read_unlock();
	if (err)
		goto wipe;
#pragma unroll
	for (i = 0; i < BPFWIRE_EVENT_WORDS; i++)
		*(__u64 *)(p + i * 8) = *(__u64 *)(t->b.data + i * 8);
	return 0;
wipe:
	__builtin_memset(p, 0, BPFWIRE_EVENT_WORDS * 8);
	return err;
}

/* Install: the AES context from ctx->key, into crypto_slot. 0 or -errno. */
SEC("syscall")
int bpfwire_crypto_setup(struct bpfwire_crypto_args *ctx)
{
	struct bpf_crypto_params p = {
		.type = "skcipher",
		.algo = "ecb(aes)",
		.key_len = BPFWIRE_ENC_KEY_LEN,
	};
	struct bpf_crypto_ctx *c, *old;
	struct crypto_slot *cs;
	__u32 k0 = 0;
	int i, err = 0;

	if (!bpfwire_encrypting())	/* the agent checked the kernel (loader.c) */
		return -EOPNOTSUPP;
	for (i = 0; i < BPFWIRE_ENC_KEY_LEN; i++)
		p.key[i] = ctx->key[i];
	c = bpf_crypto_ctx_create(&p, sizeof(p), &err);
	__builtin_memset(p.key, 0, sizeof(p.key));
	if (!c)
		return err ? err : -ENOMEM;
	cs = bpf_map_lookup_elem(&crypto_slot, &k0);
	if (!cs) {
		bpf_crypto_ctx_release(c);
		return -ENOENT;
	}
	old = bpf_kptr_xchg(&cs->ctx, c);
	if (old) {
		bpf_crypto_ctx_release(old);
		return -EEXIST;
	}
	return 0;
}

#endif /* BPFWIRE_ENCRYPT_BPF_H */
