// SPDX-License-Identifier: GPL-2.0-only
/* Wire v3's AES-128-CTR; see wirecrypt.h. */
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>

#include "wire.h"
#include "wirecrypt.h"

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int wire_ctr_crypt(const uint8_t key[WIRE_ENC_KEY_LEN], const uint8_t ctr[16],
		   const uint8_t *in, uint8_t *out, size_t len)
{
	EVP_CIPHER_CTX *c;
	int n = 0, m = 0, ok;

	if (len > BPFWIRE_MAX_PAYLOAD_V3 * 64)	/* far past any datagram; int-safe */
		return -1;
	c = EVP_CIPHER_CTX_new();
	if (!c)
		return -1;
	ok = EVP_EncryptInit_ex(c, EVP_aes_128_ctr(), NULL, key, ctr) == 1 &&
	     EVP_EncryptUpdate(c, out, &n, in, (int)len) == 1 &&
	     EVP_EncryptFinal_ex(c, out + n, &m) == 1 && (size_t)(n + m) == len;
	EVP_CIPHER_CTX_free(c);	/* wipes the key schedule */
	return ok ? 0 : -1;
}

int wire_payload_crypt(const uint8_t key[WIRE_ENC_KEY_LEN], uint64_t epoch,
		       uint64_t seq, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t ctr[BPFWIRE_CTR_BLOCK_LEN];

	if (!seq || seq > BPFWIRE_SEQ_MAX_V3 || len > BPFWIRE_MAX_PAYLOAD_V3)
		return -1;
	bpfwire_ctr_block(ctr, epoch, seq, 0);
	return wire_ctr_crypt(key, ctr, in, out, len);
}

int wire_encrypt_datagram(uint8_t *buf, size_t len, const uint8_t mac_key[16],
			  const uint8_t enc_key[WIRE_ENC_KEY_LEN], char *err,
			  size_t errlen)
{
	uint32_t hdr_len, plen, check;
	uint64_t seq, tag;
	int i;

	if (len < BPFWIRE_HDR_LEN_V2 || bpfwire_be32(buf) != BPFWIRE_MAGIC ||
	    buf[4] != BPFWIRE_VERSION_2)
		ERR("not a wire v2 datagram (%zu bytes)", len);
	hdr_len = (uint32_t)buf[6] << 8 | buf[7];
	plen = bpfwire_be32(buf + 12);
	seq = bpfwire_be64(buf + 16);
	if (hdr_len < BPFWIRE_HDR_LEN_V2 || hdr_len > len || plen != len - hdr_len)
		ERR("v2 datagram of %zu bytes with hdr_len %u and payload_len %u", len,
		    hdr_len, plen);
	if (buf[36] != BPFWIRE_F_SIGNED || !buf[37])
		ERR("v2 datagram not signed (flags 0x%02x, key id %u): encryption needs the MAC",
		    buf[36], buf[37]);
	if (!seq || seq > BPFWIRE_SEQ_MAX_V3)
		ERR("seq %llu is outside 1..2^48-1, the counter block's range",
		    (unsigned long long)seq);
	if (plen > BPFWIRE_MAX_PAYLOAD_V3)
		ERR("payload of %u bytes: over %d", plen, BPFWIRE_MAX_PAYLOAD_V3);
	if (wire_payload_crypt(enc_key, bpfwire_be64(buf + 40), seq, buf + hdr_len,
			       buf + hdr_len, plen))
		ERR("libcrypto's AES-128-CTR failed");
	/* Then, as a v2 sender: seal (check and tag zero), then sign. */
	buf[4] = BPFWIRE_VERSION_3;
	buf[36] = BPFWIRE_F_V3;
	memset(buf + BPFWIRE_OFF_CHECK, 0, 4);
	memset(buf + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	check = bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, buf, (uint32_t)len);
	for (i = 0; i < 4; i++)
		buf[BPFWIRE_OFF_CHECK + i] = (uint8_t)(check >> (24 - 8 * i));
	tag = bpfwire_siphash24(mac_key, buf, (uint32_t)len);
	for (i = 0; i < BPFWIRE_TAG_LEN; i++)	/* little-endian, as SipHash gives it */
		buf[BPFWIRE_OFF_TAG + i] = (uint8_t)(tag >> (8 * i));
	return 0;
}
