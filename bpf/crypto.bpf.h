/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AES-CTR in BPF from the kernel's crypto kfuncs (kernel/bpf/crypto.c).
 * 6.12's lskcipher has ecb and cbc templates and no ctr, so the keystream
 * is ecb(aes) over the counter blocks, and the XOR is the program's. With
 * kernel/patches/crypto, encrypt is callable from LSM programs; the
 * context is made by a SYSCALL program (bpf_crypto_ctx_create sleeps) and
 * kept in a map as a kptr. Include after vmlinux.h and bpf_helpers.h.
 */
#ifndef BPFWIRE_CRYPTO_BPF_H
#define BPFWIRE_CRYPTO_BPF_H

extern struct bpf_crypto_ctx *bpf_crypto_ctx_create(const struct bpf_crypto_params *params,
						    __u32 params__sz, int *err) __ksym __weak;
extern void bpf_crypto_ctx_release(struct bpf_crypto_ctx *ctx) __ksym __weak;
extern int bpf_crypto_encrypt(struct bpf_crypto_ctx *ctx, const struct bpf_dynptr *src,
			      const struct bpf_dynptr *dst,
			      const struct bpf_dynptr *siv__nullable) __ksym __weak;

#include "ctr.h"

/*
 * b->data[0, len) ^= AES-CTR keystream from the initial counter block
 * iv; block i's counter is iv + i, big-endian, carried within its low
 * 64 bits (a datagram has at most 96 blocks). 0 or a negative errno.
 */
static __always_inline int bpfwire_aes_ctr(struct bpf_crypto_ctx *c, const __u8 *iv,
					   struct bpfwire_ctr_buf *b, __u32 len)
{
	struct bpf_dynptr src, dst;
	__u32 blocks = (len + 15) / 16, i;
	__u64 lo = 0, v;
	int k, err;

	if (!len || len > BPFWIRE_CTR_MAX)
		return -22;	/* EINVAL */
	for (k = 0; k < 8; k++)
		lo = lo << 8 | iv[8 + k];
	for (i = 0; i < blocks && i < BPFWIRE_CTR_MAX / 16; i++) {
		__u8 *blk = &b->ctr[i * 16];

		v = lo + i;
		for (k = 0; k < 8; k++) {
			blk[k] = iv[k];
			blk[15 - k] = v >> (8 * k);
		}
	}
	err = bpf_dynptr_from_mem(b->ctr, blocks * 16, 0, &src);
	err = err ?: bpf_dynptr_from_mem(b->ks, blocks * 16, 0, &dst);
	if (err)
		return err;
	err = bpf_crypto_encrypt(c, &src, &dst, NULL);
	if (err)
		return err;
	for (i = 0; i < len && i < BPFWIRE_CTR_MAX; i++)
		b->data[i] ^= b->ks[i];
	return 0;
}

#endif
