// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side: the encoder the BPF senders compile (encode.h) produces the
 * bytes bpf/README.md documents, and (when built beside the receiver) its
 * parser accepts them.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <string.h>
#include "encode.h"
#include "tap.h"
#ifdef HAVE_RECV_PARSER
#include "decrypt.h"
#include "parse.h"
#include "wirecrypt.h"
#endif

static __u32 fnv(const void *p, size_t n)
{
	return bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, p, n);
}

/* What sender.bpf.h does for one event. */
static __u32 build(__u8 *b, __u8 type, __u32 id, __u64 seq, __u64 ts, __u32 pid,
		   __u32 uid, const char *comm16, const char *path)
{
	__u16 plen = strlen(path);
	__u32 len = BPFWIRE_HDR_LEN + BPFWIRE_EVENT_FIXED_LEN + plen;

	memset(b, 0xee, BPFWIRE_DGRAM_MAX);
	bpfwire_put_hdr(b, type, id, len - BPFWIRE_HDR_LEN, seq, ts);
	bpfwire_put_event(b + BPFWIRE_HDR_LEN, pid, uid, comm16, plen);
	memcpy(b + BPFWIRE_HDR_LEN + BPFWIRE_EVENT_FIXED_LEN, path, plen);
	bpfwire_seal(b, len);
	return len;
}

/* What sender.bpf.h does for one event under a key (v2, signed). */
static __u32 build_v2(__u8 *b, const __u8 *key, __u8 key_id, __u64 epoch, __u64 seq,
		      const char *comm16, const char *path)
{
	__u16 plen = strlen(path);
	__u32 len = BPFWIRE_HDR_LEN_V2 + BPFWIRE_EVENT_FIXED_LEN + plen;

	memset(b, 0xee, BPFWIRE_DGRAM_MAX_V2);
	bpfwire_put_hdr_v2(b, BPFWIRE_EV_OPEN, 7, len - BPFWIRE_HDR_LEN_V2, seq,
			   0x0102030405060708ull, key_id, epoch);
	bpfwire_put_event(b + BPFWIRE_HDR_LEN_V2, 4242, 1000, comm16, plen);
	memcpy(b + BPFWIRE_HDR_LEN_V2 + BPFWIRE_EVENT_FIXED_LEN, path, plen);
	bpfwire_seal(b, len);
	bpfwire_put_tag(b, bpfwire_siphash24(key, b, len));
	return len;
}

/* The v2 bytes, the check over tag = 0 and the tag over check filled in. */
static void test_v2(void)
{
	static const __u8 want_v2[12] = {
		0x01, 0x05, 0x00, 0x01,		/* flags SIGNED, key id 5, n_events 1 */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* epoch */
	};
	__u8 key[BPFWIRE_KEY_LEN], b[BPFWIRE_DGRAM_MAX_V2], z[BPFWIRE_DGRAM_MAX_V2];
	char comm[16] = "cat";
	__u32 len, i, check;
	__u64 tag;

	for (i = 0; i < sizeof(key); i++)
		key[i] = 0xa0 + i;
	ASSERT_EQ(sizeof(struct bpfwire_hdr_v2), BPFWIRE_HDR_LEN_V2, "sizeof hdr v2");
	len = build_v2(b, key, 5, 0x1122334455667788ull, 258, comm, "/tmp/bw/x");
	ASSERT_EQ(len, 56 + 28 + 9, "v2 datagram length");
	ASSERT_EQ(b[4], 2, "version 2");
	ASSERT_EQ(b[6] << 8 | b[7], 56, "hdr_len 56");
	ASSERT_EQ((__u32)b[12] << 24 | b[13] << 16 | b[14] << 8 | b[15], 28 + 9,
		  "payload_len");
	ASSERT_MEMEQ(b + 36, want_v2, 12, "flags, key id, n_events, epoch");
	ASSERT_EQ((__u32)b[56] << 24 | b[57] << 16 | b[58] << 8 | b[59], 4242,
		  "payload at 56");

	memcpy(z, b, len);
	memset(z + BPFWIRE_OFF_CHECK, 0, 4);
	memset(z + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	check = (__u32)b[32] << 24 | b[33] << 16 | b[34] << 8 | b[35];
	ASSERT_EQ(check, fnv(z, len), "check over the datagram with check = 0, tag = 0");
	memcpy(z + BPFWIRE_OFF_CHECK, b + BPFWIRE_OFF_CHECK, 4);
	tag = bpfwire_siphash24(key, z, len);
	ASSERT_EQ(bpfwire_le64(b + BPFWIRE_OFF_TAG), tag,
		  "tag: SipHash over check filled, tag = 0, stored little-endian");
	key[3] ^= 0x40;
	ASSERT_NEQ(bpfwire_siphash24(key, z, len), tag, "a wrong key gives another tag");
	key[3] ^= 0x40;
	z[len - 1] ^= 1;
	ASSERT_NEQ(bpfwire_siphash24(key, z, len), tag, "a flipped path bit changes the tag");

	/* The longest v2 datagram fits the signer's buffer and netpoll's cap. */
	{
		char path[BPFWIRE_PATH_MAX + 1];

		memset(path, 'p', BPFWIRE_PATH_MAX);
		path[BPFWIRE_PATH_MAX] = 0;
		len = build_v2(b, key, 1, 1, 1, comm, path);
		ASSERT_EQ(len, BPFWIRE_DGRAM_MAX_V2, "longest v2 datagram");
		ASSERT_EQ(len <= BPFWIRE_MAX_DATAGRAM, 1, "v2 fits netpoll's 1460");
	}
}

/* A host copy of batch.bpf.h's packer: events in, datagrams out. */
struct packer {
	__u8 data[BPFWIRE_BATCH_PAYLOAD];
	__u32 n, used, type, max_n;
	__u64 ts_first, age_ns, seq;
	const __u8 *key;		/* NULL: unsigned v2 */
	__u8 out[8][BPFWIRE_BATCH_DGRAM];
	__u32 out_len[8], nout;
};

static void pack_close(struct packer *p)
{
	__u8 *b = p->out[p->nout];
	__u32 len = BPFWIRE_HDR_LEN_V2 + p->used;

	bpfwire_put_hdr_v2n(b, p->type, 9, p->used, ++p->seq, p->ts_first,
			    p->key ? 4 : 0, 0xabcdefull, p->n);
	memcpy(b + BPFWIRE_HDR_LEN_V2, p->data, p->used);
	/* bpfwire_seal() stops at 340 bytes; batch.bpf.h's batch_seal() does not */
	bpfwire_put32(b + BPFWIRE_OFF_CHECK, fnv(b, len));
	if (p->key)
		bpfwire_put_tag(b, bpfwire_siphash24(p->key, b, len));
	p->out_len[p->nout++] = len;
	p->n = p->used = 0;
}

static int pack_event(struct packer *p, __u8 type, const char *path, __u64 now)
{
	__u16 plen = strlen(path);
	__u32 evlen = BPFWIRE_EVENT_FIXED_LEN + plen;
	char comm[16] = "w";
	int act = bpfwire_batch_step(p->n, p->used, p->type, p->ts_first, type, evlen,
				     now, p->max_n, p->age_ns);

	if (act & BPFWIRE_CLOSE_BEFORE)
		pack_close(p);
	bpfwire_put_event(p->data + p->used, 1, 0, comm, plen);
	memcpy(p->data + p->used + BPFWIRE_EVENT_FIXED_LEN, path, plen);
	if (!p->n) {
		p->ts_first = now;
		p->type = type;
	}
	p->n++;
	p->used += evlen;
	if (act == BPFWIRE_CLOSE_AFTER)
		pack_close(p);
	return act;
}

static void test_batch(void)
{
	static struct packer p;
	static const __u8 key[BPFWIRE_KEY_LEN] = { 1, 2, 3 };
	char longp[BPFWIRE_PATH_MAX + 1];
	__u32 i;

	/* The decisions alone. */
	ASSERT_EQ(bpfwire_batch_step(0, 0, 0, 0, 2, 36, 5, 8, 0), 0, "first event joins");
	ASSERT_EQ(bpfwire_batch_step(7, 252, 2, 0, 2, 36, 5, 8, 0), BPFWIRE_CLOSE_AFTER,
		  "the 8th event of 8 joins and the batch goes");
	ASSERT_EQ(bpfwire_batch_step(3, 108, 2, 0, 1, 36, 5, 8, 0), BPFWIRE_CLOSE_BEFORE,
		  "another type: the batch goes without it");
	ASSERT_EQ(bpfwire_batch_step(4, 1136, 2, 0, 2, 284, 5, 48, 0), BPFWIRE_CLOSE_BEFORE,
		  "a 5th 284-byte event would make 1420 > 1396: goes first");
	ASSERT_EQ(bpfwire_batch_step(4, 1112, 2, 0, 2, 284, 5, 48, 0), 0,
		  "1396 bytes exactly still fit");
	ASSERT_EQ(bpfwire_batch_step(2, 72, 2, 1000, 2, 36, 1000 + 99, 32, 100), 0,
		  "99 ns old, age 100: waits");
	ASSERT_EQ(bpfwire_batch_step(2, 72, 2, 1000, 2, 36, 1000 + 100, 32, 100),
		  BPFWIRE_CLOSE_AFTER, "100 ns old: this event joins and the batch goes");
	ASSERT_EQ(bpfwire_batch_step(2, 72, 2, 1000, 2, 36, 900, 32, 100), 0,
		  "an earlier hook time (the lock taken in the other order): no age");
	ASSERT_EQ(bpfwire_batch_step(2, 72, 2, 0, 2, 36, 1ull << 40, 32, 0), 0,
		  "age 0: only size closes");

	/* 20 opens, a type change, then 2 longest paths and the rest: batch 8. */
	memset(&p, 0, sizeof(p));
	p.max_n = 8;
	p.key = key;
	for (i = 0; i < 20; i++)
		pack_event(&p, BPFWIRE_EV_OPEN, "/tmp/bw/f1", 10 + i);
	pack_event(&p, BPFWIRE_EV_EXEC, "/tmp/bw/t", 40);
	memset(longp, 'p', BPFWIRE_PATH_MAX);
	longp[BPFWIRE_PATH_MAX] = 0;
	for (i = 0; i < 5; i++)
		pack_event(&p, BPFWIRE_EV_EXEC, longp, 41 + i);
	pack_close(&p);		/* the flush */
	/* 8, 8, then 4 opens (type change), 1 + 4 long execs (1396 bytes max),
	 * then the last long one alone */
	ASSERT_EQ(p.nout, 5, "5 datagrams");
	{
		static const __u16 want_n[5] = { 8, 8, 4, 5, 1 };
		__u32 sum = 0;

		for (i = 0; i < p.nout; i++) {
			__u8 *b = p.out[i];

			ASSERT_EQ(b[38] << 8 | b[39], want_n[i], "n_events of each datagram");
			ASSERT_EQ(p.out_len[i] <= BPFWIRE_BATCH_DGRAM, 1, "under 1452 bytes");
			sum += b[38] << 8 | b[39];
#ifdef HAVE_RECV_PARSER
			{
				struct bpfw_wire w;
				struct bpfw_key k;

				memcpy(k.key, key, sizeof(k.key));
				k.key_id = 4;
				ASSERT_EQ(bpfw_parse_wire_key(b, p.out_len[i], &k, &w), BPFW_R_OK,
					  "receiver accepts the signed batch under the key");
				ASSERT_EQ(w.n_events, want_n[i], "receiver reads n_events");
				ASSERT_EQ(w.seq, i + 1, "seq per datagram");
			}
#endif
		}
		ASSERT_EQ(sum, 26, "26 events in, 26 out");
		ASSERT_EQ(p.out_len[3], BPFWIRE_HDR_LEN_V2 + 4 * 284 + 37, "9-byte exec then 4 long: 1229 bytes");
	}

	/* 48 shortest events: exactly 1452 bytes; unsigned v2 without a key. */
	memset(&p, 0, sizeof(p));
	p.max_n = BPFWIRE_BATCH_MAX;
	for (i = 0; i < BPFWIRE_BATCH_MAX; i++)
		pack_event(&p, BPFWIRE_EV_OPEN, "/", 1);
	ASSERT_EQ(p.nout, 1, "48 shortest events: one datagram");
	ASSERT_EQ(p.out_len[0], BPFWIRE_HDR_LEN_V2 + 48 * 29, "1448 bytes");
	ASSERT_EQ(p.out[0][36] | p.out[0][37], 0, "unsigned: flags 0, key id 0");
#ifdef HAVE_RECV_PARSER
	{
		struct bpfw_wire w;
		struct bpfw_key k = { .key_id = -1 };

		ASSERT_EQ(bpfw_parse_wire(p.out[0], p.out_len[0], &w), BPFW_R_OK,
			  "receiver without a key accepts unsigned v2");
		ASSERT_EQ(w.n_events, 48, "48 events");
		ASSERT_EQ(bpfw_parse_wire_key(p.out[0], p.out_len[0], &k, &w),
			  BPFW_R_UNAUTHENTICATED, "with a key: unauthenticated");
		bpfwire_put16(p.out[0] + 38, 49);
		bpfwire_put32(p.out[0] + BPFWIRE_OFF_CHECK, 0);
		bpfwire_put32(p.out[0] + BPFWIRE_OFF_CHECK, fnv(p.out[0], p.out_len[0]));
		ASSERT_EQ(bpfw_parse_wire(p.out[0], p.out_len[0], &w), BPFW_R_EVENT_LENGTH,
			  "n_events 49 over 48 events: event_length");
	}
#endif
}

#ifdef HAVE_RECV_PARSER
/*
 * --encrypt on ringbuf: the programs' signed v2 bytes (build_v2,
 * what sender.bpf.h makes), turned into v3 as the agent's forwarder does
 * (wire_encrypt_datagram), read back by the receiver under both keys.
 */
static void test_v3_ringbuf(void)
{
	struct bpfw_key k = { .key_id = 5, .has_enc = 1 };
	__u8 b[BPFWIRE_DGRAM_MAX_V2], plain[BPFWIRE_MAX_PAYLOAD_V3], v2[BPFWIRE_DGRAM_MAX_V2];
	char comm[16] = "cat", err[160] = "";
	struct bpfw_wire w;
	__u32 len, i;

	for (i = 0; i < 16; i++) {
		k.key[i] = 0xa0 + i;
		k.enc[i] = 0x50 + i;
	}
	len = build_v2(b, k.key, 5, 0x1122334455667788ull, 258, comm, "/tmp/bw/secret");
	memcpy(v2, b, len);
	if (!ASSERT_OK(wire_encrypt_datagram(b, len, k.key, k.enc, err, sizeof(err)),
		       "the BPF encoder's signed v2 becomes v3"))
		printf("#   %s\n", err);
	ASSERT_EQ(memcmp(b + 56, v2 + 56, len - 56) != 0, 1, "the payload changed");
	ASSERT_EQ(memcmp(b + 5, v2 + 5, 27), 0, "the header's fields stay clear");
	ASSERT_EQ(bpfw_parse_wire_key(b, len, &k, &w), BPFW_R_ENCRYPTED,
		  "the receiver's parser: a good v3 header, MAC checked");
	ASSERT_EQ(bpfw_wire_decrypt(&k, &w, plain), BPFW_R_OK, "decrypts to one event");
	ASSERT_EQ(memcmp(w.payload, v2 + 56, len - 56), 0, "the plaintext is the v2 payload");
	k.enc[0] ^= 1;
	ASSERT_EQ(bpfw_parse_wire_key(b, len, &k, &w), BPFW_R_ENCRYPTED, "another encryption key: MAC still good");
	ASSERT_EQ(bpfw_wire_decrypt(&k, &w, plain), BPFW_R_DECRYPT, "another encryption key: decrypt");
	/* The longest single event fits the forwarder's 1460-byte buffer. */
	{
		char path[BPFWIRE_PATH_MAX + 1];

		memset(path, 'p', BPFWIRE_PATH_MAX);
		path[BPFWIRE_PATH_MAX] = 0;
		k.enc[0] ^= 1;
		len = build_v2(b, k.key, 5, 9, 1, comm, path);
		ASSERT_OK(wire_encrypt_datagram(b, len, k.key, k.enc, err, sizeof(err)),
			  "the longest v2 datagram becomes v3");
		ASSERT_EQ(bpfw_parse_wire_key(b, len, &k, &w), BPFW_R_ENCRYPTED, "longest: good header");
		ASSERT_EQ(bpfw_wire_decrypt(&k, &w, plain), BPFW_R_OK, "longest: decrypts");
	}
}

/*
 * --encrypt on ksock and netpoll: what sender.bpf.h's encrypting
 * path does (the event, its payload encrypted in place, bpfwire_put_hdr_v3,
 * seal, tag), with the C cipher standing in for crypto.bpf.h's (kernel case
 * 81 checks that one on the same vectors), gives the very bytes of the
 * ringbuf agent's v3 of the same event.
 */
static void test_v3_bpf(void)
{
	static const __u8 mac[16] = "0123456789abcdef", enc[16] = "fedcba9876543210";
	const char *path = "/tmp/w-ksock/secret-ksock";
	__u8 b[BPFWIRE_DGRAM_MAX_V2], ref[BPFWIRE_DGRAM_MAX_V2];
	char comm[16] = "bpfwire-trigger", err[160] = "";
	__u16 plen = strlen(path);
	__u32 len = BPFWIRE_HDR_LEN_V2 + BPFWIRE_EVENT_FIXED_LEN + plen, rlen;
	__u64 epoch = 0x1122334455667788ull, seq = 77;

	rlen = build_v2(ref, mac, 1, epoch, seq, comm, path);
	ASSERT_OK(wire_encrypt_datagram(ref, rlen, mac, enc, err, sizeof(err)), "the reference v3");
	memset(b, 0xee, sizeof(b));
	bpfwire_put_event(b + BPFWIRE_HDR_LEN_V2, 4242, 1000, comm, plen);
	memcpy(b + BPFWIRE_HDR_LEN_V2 + BPFWIRE_EVENT_FIXED_LEN, path, plen);
	ASSERT_OK(wire_payload_crypt(enc, epoch, seq, b + BPFWIRE_HDR_LEN_V2,
				     b + BPFWIRE_HDR_LEN_V2, len - BPFWIRE_HDR_LEN_V2),
		  "the payload encrypted for (epoch, seq)");
	bpfwire_put_hdr_v3(b, BPFWIRE_EV_OPEN, 7, len - BPFWIRE_HDR_LEN_V2, seq,
			   0x0102030405060708ull, 1, epoch);
	bpfwire_seal(b, len);
	bpfwire_put_tag(b, bpfwire_siphash24(mac, b, len));
	ASSERT_EQ(rlen, len, "the same length");
	ASSERT_EQ(memcmp(b, ref, len), 0, "the BPF path's v3 is the agent's, byte for byte");
	ASSERT_EQ(b[4] == BPFWIRE_VERSION_3 && b[36] == BPFWIRE_F_V3, 1, "version 3, flags 0x03");
	ASSERT_EQ(memmem(b, len, path, plen) == NULL, 1, "the path is nowhere in the datagram");
}
#endif

int main(void)
{
	static const __u8 want_hdr[32] = {
		0x42, 0x50, 0x57, 0x57,		/* magic "BPWW" */
		0x01, 0x02, 0x00, 0x28,		/* version 1, open, hdr_len 40 */
		0x00, 0x00, 0x00, 0x07,		/* sender 7 */
		0x00, 0x00, 0x00, 0x25,		/* payload 28 + 9 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,	/* seq 258 */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* timestamp */
	};
	char comm[16] = "cat";
	__u8 b[BPFWIRE_DGRAM_MAX], z[BPFWIRE_DGRAM_MAX];
	__u32 len, check;

	/* FNV-1a 32 reference vectors. */
	ASSERT_EQ(fnv("", 0), 0x811c9dc5u, "fnv1a('')");
	ASSERT_EQ(fnv("a", 1), 0xe40c292cu, "fnv1a('a')");
	ASSERT_EQ(fnv("foobar", 6), 0xbf9cf968u, "fnv1a('foobar')");

	ASSERT_EQ(sizeof(struct bpfwire_hdr), BPFWIRE_HDR_LEN, "sizeof hdr");
	ASSERT_EQ(sizeof(struct bpfwire_event), BPFWIRE_EVENT_FIXED_LEN, "sizeof event");

	len = build(b, BPFWIRE_EV_OPEN, 7, 258, 0x0102030405060708ull, 4242, 1000,
		    comm, "/tmp/bw/x");
	ASSERT_EQ(len, 40 + 28 + 9, "datagram length");
	ASSERT_MEMEQ(b, want_hdr, sizeof(want_hdr), "header bytes 0..31");
	ASSERT_EQ(b[36] | b[37] | b[38] | b[39], 0, "reserved is zero");
	ASSERT_EQ((__u32)b[40] << 24 | b[41] << 16 | b[42] << 8 | b[43], 4242, "pid big-endian");
	ASSERT_EQ((__u32)b[44] << 24 | b[45] << 16 | b[46] << 8 | b[47], 1000, "uid big-endian");
	ASSERT_MEMEQ(b + 48, comm, 16, "comm");
	ASSERT_EQ(b[64] << 8 | b[65], 9, "path_len");
	ASSERT_EQ(b[66] | b[67], 0, "event reserved");
	ASSERT_MEMEQ(b + 68, "/tmp/bw/x", 9, "path");

	/* The check is FNV-1a over the datagram with the check field zero. */
	check = (__u32)b[32] << 24 | b[33] << 16 | b[34] << 8 | b[35];
	memcpy(z, b, len);
	memset(z + 32, 0, 4);
	ASSERT_EQ(check, fnv(z, len), "check over datagram with check = 0");
	ASSERT_EQ(bpfwire_seal(z, len), check, "seal is idempotent");
	z[len - 1] ^= 1;
	ASSERT_EQ(bpfwire_seal(z, len) != check, 1, "a flipped bit changes the check");

	/* Longest path: the bound in bpfwire_seal covers every byte. */
	{
		char path[BPFWIRE_PATH_MAX + 1];

		memset(path, 'p', BPFWIRE_PATH_MAX);
		path[BPFWIRE_PATH_MAX] = 0;
		len = build(b, BPFWIRE_EV_EXEC, 1, 1, 1, 1, 0, comm, path);
		ASSERT_EQ(len, BPFWIRE_DGRAM_MAX, "longest datagram");
		memcpy(z, b, len);
		memset(z + 32, 0, 4);
		ASSERT_EQ((__u32)b[32] << 24 | b[33] << 16 | b[34] << 8 | b[35], fnv(z, len),
			  "check covers the last byte");
		ASSERT_EQ(len <= BPFWIRE_MAX_DATAGRAM, 1, "fits netpoll's 1460");
	}

#ifdef HAVE_RECV_PARSER
	{
		struct bpfw_wire w;

		len = build(b, BPFWIRE_EV_OPEN, 7, 3, 99, 1, 2, comm, "/etc/hosts");
		ASSERT_EQ(bpfw_parse_wire(b, len, &w), BPFW_R_OK, "receiver accepts it");
		ASSERT_EQ(w.seq, 3, "receiver reads seq");
		ASSERT_EQ(w.sender_id, 7, "receiver reads sender id");
		b[50] ^= 0x20;
		ASSERT_EQ(bpfw_parse_wire(b, len, &w), BPFW_R_WIRE_CHECK,
			  "receiver rejects a flipped comm byte");
	}
#endif
	test_v2();
	test_batch();
#ifdef HAVE_RECV_PARSER
	test_v3_ringbuf();
	test_v3_bpf();
#endif
	return tap_done();
}
