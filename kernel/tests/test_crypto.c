// SPDX-License-Identifier: GPL-2.0-only
/*
 * AES-CTR made in an LSM program from the kernel's crypto kfuncs
 * (bpf/crypto.bpf.h), against NIST SP 800-38A F.5.1 (encrypt) and F.5.2
 * (decrypt), then a length that ends inside a block. Without
 * kernel/patches/crypto the LSM program does not load: 6.12 registers
 * bpf_crypto_encrypt for SCHED_CLS, SCHED_ACT and XDP only.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "errnames.h"
#include "kt.h"
#include "ctr.h"
#include "crypto_lsm.bpf.skel.h"

/* SP 800-38A F.5.1 CTR-AES128: key, initial counter block, 4 blocks. */
static const __u8 sp_key[16] = {
	0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
	0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
};
static const __u8 sp_ctr[16] = {
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};
static const __u8 sp_plain[64] = {
	0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
	0xae, 0x2d, 0x8a, 0x57, 0x1e, 0x03, 0xac, 0x9c, 0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51,
	0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c, 0xe4, 0x11, 0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef,
	0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17, 0xad, 0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10,
};
static const __u8 sp_cipher[64] = {
	0x87, 0x4d, 0x61, 0x91, 0xb6, 0x20, 0xe3, 0x26, 0x1b, 0xef, 0x68, 0x64, 0x99, 0x0d, 0xb6, 0xce,
	0x98, 0x06, 0xf6, 0x6b, 0x79, 0x70, 0xfd, 0xff, 0x86, 0x17, 0x18, 0x7b, 0xb9, 0xff, 0xfd, 0xff,
	0x5a, 0xe4, 0xdf, 0x3e, 0xdb, 0xd5, 0xd3, 0x5e, 0x5b, 0x4f, 0x09, 0x02, 0x0d, 0xb0, 0x3e, 0xab,
	0x1e, 0x03, 0x1d, 0xda, 0x2f, 0xbe, 0x03, 0xd1, 0x79, 0x21, 0x70, 0xa0, 0xf3, 0x00, 0x9c, 0xee,
};

/* The LSM program over in[0, n) on this task's next open: 0, or why not. */
static int ctr_run(struct crypto_lsm *skel, struct bpfwire_ctr_buf *b, const __u8 *in,
		   __u32 n, __u8 *out)
{
	int zero = 0, fd;

	memset(b, 0, sizeof(*b));
	memcpy(b->data, in, n);
	if (bpf_map__update_elem(skel->maps.ctr_buf, &zero, sizeof(zero), b, sizeof(*b), 0))
		return -errno;
	skel->bss->len = n;
	skel->bss->encrypt_err = 1;
	skel->bss->target_pid = getpid();
	skel->bss->armed = 1;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (skel->bss->encrypt_err)
		return skel->bss->encrypt_err;
	if (bpf_map__lookup_elem(skel->maps.ctr_buf, &zero, sizeof(zero), b, sizeof(*b), 0))
		return -errno;
	memcpy(out, b->data, n);
	return 0;
}

KT_TEST(81, test_crypto_lsm_ctr)
{
	struct crypto_lsm *skel = NULL;
	struct bpfwire_ctr_buf *b;
	__u8 out[64];
	int err, rv = 0;

	/* Filtered out: not begun, so not ended either (no "(null)" case). */
	if (!tap_case_begin("crypto: an LSM program encrypts the SP 800-38A AES-CTR vectors"))
		return;
	b = calloc(1, sizeof(*b));
	if (!ASSERT_OK_PTR(b, "buffer"))
		goto out;
	skel = crypto_lsm__open();
	if (!ASSERT_OK_PTR(skel, "crypto_lsm open"))
		goto out;
	/* On a kernel without kernel/patches/crypto: "calling kernel function ... is not allowed". */
	err = crypto_lsm__load(skel);
	if (!ASSERT_OK(err, "the LSM program calling bpf_crypto_encrypt loads (kernel/patches/crypto)"))
		goto out;
	if (!ASSERT_OK(crypto_lsm__attach(skel), "attach"))
		goto out;
	memcpy(skel->bss->key, sp_key, sizeof(sp_key));
	memcpy(skel->bss->iv, sp_ctr, sizeof(sp_ctr));
	skel->bss->create_err = 1;
	err = run_prog(skel->progs.crypto_setup, &rv);
	if (!ASSERT_OK(err ?: rv, "run crypto_setup") ||
	    !ASSERT_EQ(skel->bss->create_err, 0, "bpf_crypto_ctx_create(skcipher, ecb(aes))"))
		goto out;

	err = ctr_run(skel, b, sp_plain, 64, out);
	if (ASSERT_OK(err, "F.5.1: encrypt 64 bytes"))
		ASSERT_MEMEQ(out, sp_cipher, 64, "F.5.1: the ciphertext is the vector's");
	err = ctr_run(skel, b, sp_cipher, 64, out);
	if (ASSERT_OK(err, "F.5.2: decrypt 64 bytes"))
		ASSERT_MEMEQ(out, sp_plain, 64, "F.5.2: the plaintext is the vector's");
	/* 21 bytes: one block and 5 bytes of the next, the rest of it unused. */
	err = ctr_run(skel, b, sp_plain, 21, out);
	if (ASSERT_OK(err, "21 bytes"))
		ASSERT_MEMEQ(out, sp_cipher, 21, "21 bytes: the vector's first 21");
	ASSERT_EQ(ctr_run(skel, b, sp_plain, 0, out), -EINVAL, "0 bytes -> EINVAL");
out:
	crypto_lsm__destroy(skel);
	free(b);
	tap_case_end();
}
