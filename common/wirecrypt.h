/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wire v3's cipher (wire.h, bpf/README.md): AES-128-CTR through
 * OpenSSL's libcrypto, never a cipher of our own. bpfwire-agent encrypts
 * with it (ringbuf), bpfwire-recv decrypts, the tests craft with it.
 * Linked apart from common_dep (common_crypto_dep), as fields.c is.
 */
#ifndef BPFWIRE_COMMON_WIRECRYPT_H
#define BPFWIRE_COMMON_WIRECRYPT_H

#include <stddef.h>
#include <stdint.h>

#define WIRE_ENC_KEY_LEN	16

/*
 * AES-128-CTR of len bytes from in to out (the same buffer is fine),
 * starting at counter block ctr, which goes up as one 128-bit big-endian
 * number (SP 800-38A's standard increment). Encrypts and decrypts alike.
 * 0, or -1 when libcrypto fails.
 */
int wire_ctr_crypt(const uint8_t key[WIRE_ENC_KEY_LEN], const uint8_t ctr[16],
		   const uint8_t *in, uint8_t *out, size_t len);

/*
 * A v3 payload of the datagram (epoch, seq): counter blocks from
 * bpfwire_ctr_block(epoch, seq, 0). -1 (nothing written) for seq 0 or
 * over BPFWIRE_SEQ_MAX_V3, or len over BPFWIRE_MAX_PAYLOAD_V3: no counter
 * block of wire.h's layout could serve it.
 */
int wire_payload_crypt(const uint8_t key[WIRE_ENC_KEY_LEN], uint64_t epoch,
		       uint64_t seq, const uint8_t *in, uint8_t *out, size_t len);

/*
 * A signed v2 datagram of len bytes turned into v3 in place: version 3,
 * flags BPFWIRE_F_V3, the payload encrypted, then the check and the tag
 * again over header and ciphertext (encrypt-then-MAC). 0, or -1 with why
 * in err (not a signed v2 datagram, a seq past the counter's range, ...),
 * buf unchanged.
 */
int wire_encrypt_datagram(uint8_t *buf, size_t len,
			  const uint8_t mac_key[16],
			  const uint8_t enc_key[WIRE_ENC_KEY_LEN],
			  char *err, size_t errlen);

#endif /* BPFWIRE_COMMON_WIRECRYPT_H */
