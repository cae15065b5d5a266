/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The working memory of AES-CTR in BPF (crypto.bpf.h), shared with user
 * space, which fills and reads it through its map.
 */
#ifndef BPFWIRE_CTR_H
#define BPFWIRE_CTR_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define BPFWIRE_CTR_MAX 1536	/* bytes: a whole datagram */

/*
 * A map value, since 6.12's bpf_dynptr_from_mem() takes no stack buffer
 * (per-CPU in a sender, so two CPUs never share one).
 */
struct bpfwire_ctr_buf {
	__u8 ctr[BPFWIRE_CTR_MAX];	/* the counter blocks */
	__u8 ks[BPFWIRE_CTR_MAX];	/* their encryption: the keystream */
	__u8 data[BPFWIRE_CTR_MAX];	/* encrypted (or decrypted) in place */
};

#endif
