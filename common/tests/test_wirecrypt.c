// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wire v3's cipher (wirecrypt.h) against NIST SP 800-38A's published
 * AES-128-CTR vectors (F.5.1 encrypt, F.5.2 decrypt), the counter blocks
 * of wire.h's layout, and one datagram turned from signed v2 into v3.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>

#include "tap.h"
#include "wire.h"
#include "wirecrypt.h"

/* SP 800-38A, F.5.1/F.5.2, copied as data: key, initial counter, 4 blocks. */
static const char *const sp_key = "2b7e151628aed2a6abf7158809cf4f3c";
static const char *const sp_ctr = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
static const char *const sp_pt =
	"6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
	"30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710";
static const char *const sp_ct =
	"874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
	"5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee";
/* F.5.1's output blocks (the keystream) for counters ...feff, ff00, ff01, ff02. */
static const char *const sp_out =
	"ec8cdf7398607cb0f2d21675ea9ea1e4" "362b7c3c6773516318a077d7fc5073ae"
	"6a2cc3787889374fbeb4c81b17ba6c44" "e89c399ff0f198c6d40a31db156cabfe";

static void unhex(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned v = 0;

		sscanf(s + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static const char *hex(const uint8_t *p, size_t n, char *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
	buf[2 * n] = 0;
	return buf;
}

#define ASSERT_HEX(actual, len, expected_hex, name) ({			\
	char h_[2 * 2048 + 1];						\
	ASSERT_STREQ(hex((actual), (len), h_), (expected_hex), name); })

static void test_sp800_38a(void)
{
	uint8_t key[16], ctr[16], pt[64], ct[64], out[64], buf[64];
	char want[129];

	unhex(sp_key, key, 16);
	unhex(sp_ctr, ctr, 16);
	unhex(sp_pt, pt, 64);
	unhex(sp_ct, ct, 64);
	ASSERT_OK(wire_ctr_crypt(key, ctr, pt, out, 64), "F.5.1 CTR-AES128.Encrypt runs");
	ASSERT_HEX(out, 64, sp_ct, "F.5.1: the 4 ciphertext blocks");
	ASSERT_OK(wire_ctr_crypt(key, ctr, ct, out, 64), "F.5.2 CTR-AES128.Decrypt runs");
	ASSERT_HEX(out, 64, sp_pt, "F.5.2: the 4 plaintext blocks");
	memcpy(buf, pt, 64);
	ASSERT_OK(wire_ctr_crypt(key, ctr, buf, buf, 64), "in place");
	ASSERT_HEX(buf, 64, sp_ct, "F.5.1 in place");
	/* A stream mode: 37 bytes are the first 37 of the 64. */
	ASSERT_OK(wire_ctr_crypt(key, ctr, pt, out, 37), "a partial block");
	memcpy(want, sp_ct, 74);
	want[74] = 0;
	ASSERT_HEX(out, 37, want, "37 bytes: the ciphertext's first 37, no padding");
}

/*
 * What the BPF half will compute (bpf/README.md): 6.12's lskcipher has
 * ecb(aes) but no ctr, so the sender runs ECB over its counter blocks and
 * XORs. F.5.1's output blocks are that ECB output, and P ^ C.
 */
static void test_ecb_composition(void)
{
	uint8_t key[16], blocks[64], ks[64], pt[64], ct[64];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, i;

	unhex(sp_key, key, 16);
	unhex(sp_pt, pt, 64);
	unhex(sp_ct, ct, 64);
	unhex(sp_ctr, blocks, 16);
	for (i = 1; i < 4; i++) {	/* the standard increment of F.5.1 */
		memcpy(blocks + 16 * i, blocks, 16);
		blocks[16 * i + 14] = 0xff;
		blocks[16 * i + 15] = (uint8_t)(i - 1);
	}
	ASSERT_TRUE(c && EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, key, NULL) == 1 &&
		    EVP_CIPHER_CTX_set_padding(c, 0) == 1 &&
		    EVP_EncryptUpdate(c, ks, &n, blocks, 64) == 1 && n == 64,
		    "ECB over F.5.1's 4 counter blocks");
	EVP_CIPHER_CTX_free(c);
	ASSERT_HEX(ks, 64, sp_out, "ECB output = F.5.1's output blocks");
	for (i = 0; i < 64; i++)
		ks[i] ^= pt[i];
	ASSERT_HEX(ks, 64, sp_ct, "ECB output XOR plaintext = F.5.1's ciphertext");
}

static void test_ctr_block(void)
{
	uint8_t b[16];

	bpfwire_ctr_block(b, 0x0102030405060708ull, 0xa1a2a3a4a5a6ull, 0x57);
	ASSERT_HEX(b, 16, "0102030405060708a1a2a3a4a5a60057",
		   "counter block: epoch, seq's low 48 bits, block index");
	bpfwire_ctr_block(b, 0xffffffffffffffffull, BPFWIRE_SEQ_MAX_V3, 87);
	ASSERT_HEX(b, 16, "ffffffffffffffffffffffffffff0057",
		   "the largest epoch and seq, block 87 (the last of 1404 bytes)");
	ASSERT_EQ((BPFWIRE_MAX_PAYLOAD_V3 + 15) / 16, 88, "a v3 payload is at most 88 blocks");
}

/* Round trips under (epoch, seq), and the keystream of every block index. */
static void test_payload(void)
{
	static const uint8_t key[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				       0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
	uint8_t pt[BPFWIRE_MAX_PAYLOAD_V3 + 1], ct[sizeof(pt)], back[sizeof(pt)];
	uint8_t ctr[16], ref[sizeof(pt)], zero[sizeof(pt)] = { 0 };
	uint64_t epoch = 0x5dcd7438b80d87c8ull;
	unsigned i, diff;

	for (i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)(i * 7 + 1);
	ASSERT_OK(wire_payload_crypt(key, epoch, 3, pt, ct, 340), "encrypt 340 bytes at seq 3");
	ASSERT_OK(wire_payload_crypt(key, epoch, 3, ct, back, 340), "decrypt them");
	ASSERT_EQ(memcmp(back, pt, 340), 0, "round trip under (epoch, seq 3)");
	ASSERT_NEQ(memcmp(ct, pt, 340), 0, "the ciphertext is not the plaintext");
	bpfwire_ctr_block(ctr, epoch, 3, 0);
	ASSERT_OK(wire_ctr_crypt(key, ctr, pt, ref, 340), "CTR from wire.h's block 0");
	ASSERT_EQ(memcmp(ct, ref, 340), 0, "wire_payload_crypt = CTR from bpfwire_ctr_block(epoch, seq, 0)");

	/* The keystream of block i is CTR from bpfwire_ctr_block(.., i): no carry into seq. */
	ASSERT_OK(wire_payload_crypt(key, epoch, 3, zero, ct, BPFWIRE_MAX_PAYLOAD_V3),
		  "keystream of a 1404-byte payload");
	diff = 0;
	for (i = 0; i < 88; i++) {
		bpfwire_ctr_block(ctr, epoch, 3, (uint16_t)i);
		wire_ctr_crypt(key, ctr, zero, ref, 16);
		diff += memcmp(ct + 16 * i, ref, i == 87 ? 12 : 16) != 0;
	}
	ASSERT_EQ(diff, 0, "88 blocks: block i's keystream is block index i's counter");

	ASSERT_OK(wire_payload_crypt(key, epoch, 4, zero, ref, 64), "keystream at seq 4");
	ASSERT_NEQ(memcmp(ct, ref, 64), 0, "another seq, another keystream");
	ASSERT_OK(wire_payload_crypt(key, epoch + 1, 3, zero, ref, 64), "keystream, next epoch");
	ASSERT_NEQ(memcmp(ct, ref, 64), 0, "another epoch, another keystream");
	/* seq 1's block 1 must not be seq 2's block 0 (a naive epoch||seq IV's flaw). */
	ASSERT_OK(wire_payload_crypt(key, epoch, 1, zero, ct, 32), "seq 1, two blocks");
	ASSERT_OK(wire_payload_crypt(key, epoch, 2, zero, ref, 16), "seq 2, one block");
	ASSERT_NEQ(memcmp(ct + 16, ref, 16), 0, "seq 1's block 1 is not seq 2's block 0");

	ASSERT_EQ(wire_payload_crypt(key, epoch, 0, pt, ct, 16), -1, "seq 0 refused");
	ASSERT_EQ(wire_payload_crypt(key, epoch, BPFWIRE_SEQ_MAX_V3 + 1, pt, ct, 16), -1,
		  "seq 2^48 refused: the counter block has 48 bits of it");
	ASSERT_OK(wire_payload_crypt(key, epoch, BPFWIRE_SEQ_MAX_V3, pt, ct, 16),
		  "seq 2^48-1 accepted");
	ASSERT_EQ(wire_payload_crypt(key, epoch, 5, pt, ct, BPFWIRE_MAX_PAYLOAD_V3 + 1), -1,
		  "1405 bytes refused");
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* A signed v2 datagram, the fields as bpf/README.md draws them. */
static uint32_t signed_v2(uint8_t *b, const uint8_t mac[16], uint64_t seq)
{
	static const char path[] = "/etc/shadow";
	uint32_t plen = 28 + sizeof(path) - 1, len = 56 + plen, check;
	uint64_t tag;
	int i;

	memset(b, 0, len);
	put_be(b, BPFWIRE_MAGIC, 4);
	b[4] = 2;
	b[5] = BPFWIRE_EV_OPEN;
	put_be(b + 6, 56, 2);
	put_be(b + 8, 7, 4);
	put_be(b + 12, plen, 4);
	put_be(b + 16, seq, 8);
	put_be(b + 24, 123456789, 8);
	b[36] = BPFWIRE_F_SIGNED;
	b[37] = 3;
	put_be(b + 38, 1, 2);
	put_be(b + 40, 0x5dcd7438b80d87c8ull, 8);
	put_be(b + 56, 4242, 4);
	put_be(b + 60, 1000, 4);
	memcpy(b + 64, "cat", 3);
	put_be(b + 80, sizeof(path) - 1, 2);
	memcpy(b + 84, path, sizeof(path) - 1);
	check = bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, b, len);
	put_be(b + 32, check, 4);
	tag = bpfwire_siphash24(mac, b, len);
	for (i = 0; i < 8; i++)
		b[48 + i] = (uint8_t)(tag >> (8 * i));
	return len;
}

static void test_datagram(void)
{
	static const uint8_t mac[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const uint8_t enc[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				       0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
	uint8_t b[256], orig[256], z[256], plain[256];
	char err[160] = "";
	uint32_t len = signed_v2(b, mac, 9), check;
	uint64_t tag;
	int i;

	memcpy(orig, b, len);
	if (!ASSERT_OK(wire_encrypt_datagram(b, len, mac, enc, err, sizeof(err)),
		       "a signed v2 datagram becomes v3"))
		printf("#   %s\n", err);
	ASSERT_EQ(b[4], BPFWIRE_VERSION_3, "version 3");
	ASSERT_EQ(b[36], BPFWIRE_F_SIGNED | BPFWIRE_F_ENCRYPTED, "flags 0x03");
	ASSERT_EQ(memcmp(b + 5, orig + 5, 27), 0, "type, hdr_len, sender, lengths, seq, stamp clear");
	ASSERT_EQ(memcmp(b + 37, orig + 37, 11), 0, "key id, n_events, epoch clear");
	ASSERT_EQ(memmem(b, len, "shadow", 6) == NULL, 1, "the path is not in the datagram");
	ASSERT_EQ(memmem(b, len, "cat", 3) == NULL, 1, "nor the comm");
	ASSERT_OK(wire_payload_crypt(enc, 0x5dcd7438b80d87c8ull, 9, b + 56, plain, len - 56),
		  "decrypt the payload under (epoch, seq 9)");
	ASSERT_EQ(memcmp(plain, orig + 56, len - 56), 0, "it is the v2 payload");
	/* Encrypt-then-MAC: check and tag over the header and the ciphertext. */
	memcpy(z, b, len);
	memset(z + 32, 0, 4);
	memset(z + 48, 0, 8);
	check = bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, z, len);
	ASSERT_EQ(check, (uint32_t)b[32] << 24 | b[33] << 16 | b[34] << 8 | b[35],
		  "check: FNV-1a over header and ciphertext, check and tag 0");
	memcpy(z + 32, b + 32, 4);
	tag = bpfwire_siphash24(mac, z, len);
	for (i = 0; i < 8; i++)
		if (b[48 + i] != (uint8_t)(tag >> (8 * i)))
			break;
	ASSERT_EQ(i, 8, "tag: SipHash-2-4 under the MAC key over header and ciphertext");
	tag = bpfwire_siphash24(enc, z, len);
	ASSERT_NEQ(memcmp(b + 48, &tag, 8), 0, "not under the encryption key");

	/* Refusals leave the datagram as it was. */
	memcpy(b, orig, len);
	b[36] = 0;
	b[37] = 0;
	ASSERT_EQ(wire_encrypt_datagram(b, len, mac, enc, err, sizeof(err)), -1,
		  "unsigned v2 refused");
	ASSERT_HAS(err, "not signed", "message: not signed");
	ASSERT_EQ(b[4], 2, "refused: still v2");
	len = signed_v2(b, mac, BPFWIRE_SEQ_MAX_V3 + 1);
	ASSERT_EQ(wire_encrypt_datagram(b, len, mac, enc, err, sizeof(err)), -1,
		  "seq 2^48 refused");
	ASSERT_HAS(err, "outside 1..2^48-1", "message: the seq's range");
	len = signed_v2(b, mac, 9);
	ASSERT_EQ(wire_encrypt_datagram(b, len - 1, mac, enc, err, sizeof(err)), -1,
		  "payload_len against the length refused");
	ASSERT_HAS(err, "payload_len", "message: payload_len");
	b[4] = 1;
	ASSERT_EQ(wire_encrypt_datagram(b, len, mac, enc, err, sizeof(err)), -1, "v1 refused");
	ASSERT_HAS(err, "not a wire v2 datagram", "message: not v2");
	ASSERT_EQ(wire_encrypt_datagram(b, 20, mac, enc, err, sizeof(err)), -1,
		  "20 bytes refused");
}

int main(void)
{
	test_sp800_38a();
	test_ecb_composition();
	test_ctr_block();
	test_payload();
	test_datagram();
	return tap_done();
}
