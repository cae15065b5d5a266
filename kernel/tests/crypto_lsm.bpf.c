// SPDX-License-Identifier: GPL-2.0-only
/*
 * AES-CTR in an LSM program (bpf/crypto.bpf.h). crypto_setup,
 * a SYSCALL program run once, makes the ecb(aes) context from key and
 * keeps it in a map as a kptr; crypto_open, on target_pid's next open,
 * encrypts the buffer map's data in place from the counter block iv.
 * test_crypto.c checks it against NIST SP 800-38A's CTR vectors.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "crypto.bpf.h"

/* Set by kernel-tests */
__u8 key[16];
__u8 iv[16];
__u32 len;
int target_pid;
int armed;

/* Results */
int create_err;	/* 1 until crypto_setup ran (set by kernel-tests) */
int encrypt_err;	/* likewise, for crypto_open */

struct ctx_value {
	struct bpf_crypto_ctx __kptr *ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct ctx_value);
} crypto_ctx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct bpfwire_ctr_buf);
} ctr_buf SEC(".maps");

SEC("syscall")
int crypto_setup(void *ctx)
{
	struct bpf_crypto_params p = {
		.type = "skcipher",
		.algo = "ecb(aes)",
		.key_len = sizeof(key),
	};
	struct bpf_crypto_ctx *c, *old;
	struct ctx_value *v;
	int zero = 0, err = 0;

	__builtin_memcpy(p.key, key, sizeof(key));
	c = bpf_crypto_ctx_create(&p, sizeof(p), &err);
	if (!c) {
		create_err = err ?: -1;
		return 0;
	}
	v = bpf_map_lookup_elem(&crypto_ctx, &zero);
	if (!v) {
		bpf_crypto_ctx_release(c);
		create_err = -2;
		return 0;
	}
	old = bpf_kptr_xchg(&v->ctx, c);
	if (old)
		bpf_crypto_ctx_release(old);
	create_err = 0;
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(crypto_open, struct file *file)
{
	struct bpfwire_ctr_buf *b;
	struct bpf_crypto_ctx *c;
	struct ctx_value *v;
	int zero = 0;

	if (!armed || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	armed = 0;
	v = bpf_map_lookup_elem(&crypto_ctx, &zero);
	b = bpf_map_lookup_elem(&ctr_buf, &zero);
	if (!v || !b) {
		encrypt_err = -2;
		return 0;
	}
	c = v->ctx;	/* RCU: the LSM program runs in a read section */
	if (!c) {
		encrypt_err = -3;
		return 0;
	}
	encrypt_err = bpfwire_aes_ctr(c, iv, b, len);
	return 0;
}

char __license[] SEC("license") = "GPL";
