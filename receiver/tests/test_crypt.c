// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wire v3 through the pipeline (rx.c, decrypt.c): decrypted
 * under both keys; 'decrypt' under a wrong encryption key and a good MAC
 * key; 'encrypted' with no key or a MAC key alone, yet sequenced; the MAC
 * and the replay check before any decryption; malformed v3 headers and
 * lengths, each with its reason.
 */
#include <stdlib.h>

#include "craft.h"
#include "rx.h"
#include "tap.h"
#include "wire.h"
#include "wirecrypt.h"

static struct bpfw_rx rx;
static uint8_t dg[CRAFT_MAX_FRAME];
static uint64_t ts = 1;

#define MAC_KEY { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }
#define ENC_KEY { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, \
		  0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c }

static const struct bpfw_key both = { .key = MAC_KEY, .key_id = -1, .enc = ENC_KEY, .has_enc = 1 };
static const struct bpfw_key mac_only = { .key = MAC_KEY, .key_id = -1 };
/* The right MAC key, another encryption key (the last byte differs). */
static const struct bpfw_key wrong_enc = {
	.key = MAC_KEY, .key_id = -1, .has_enc = 1,
	.enc = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
		 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3d },
};
static const struct bpfw_key wrong_mac = {
	.key = { 1 }, .key_id = -1, .enc = ENC_KEY, .has_enc = 1,
};

static void reset(const struct bpfw_key *k)
{
	craft_rx_reset(&rx, k, 0);
}

static enum bpfw_reason feed(uint32_t n)
{
	return craft_rx_feed(&rx, &ts, dg, n);
}

/* n open events with paths /tmp/bw/N.., as the agent's ringbuf sends them. */
static uint32_t v3_dg(uint64_t seq, unsigned n_events)
{
	static const uint8_t mac[16] = MAC_KEY, enc[16] = ENC_KEY;
	uint8_t pl[1024];
	uint32_t plen = 0, n;
	unsigned i;

	for (i = 0; i < n_events; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/tmp/bw/secret-%u", i);
		plen += craft_event(pl + plen, 100 + i, "cat", path);
	}
	n = craft_wire_v2(dg, 9, 0x5dcd7438b80d87c8ull, seq, BPFWIRE_EV_OPEN,
			  (uint16_t)n_events, pl, plen);
	craft_wire_sign(dg, n, mac, 3);
	craft_wire_encrypt(dg, n, mac, enc);
	return n;
}

/* Sign a v3 datagram again after a test edited its header (flags kept). */
static void resign(uint32_t n)
{
	static const uint8_t mac[16] = MAC_KEY;

	craft_wire_sign(dg, n, mac, dg[37]);
}

static void test_good(void)
{
	struct bpfw_wire w;
	uint32_t n;

	reset(&both);
	n = v3_dg(1, 1);
	ASSERT_REASON(bpfw_parse_wire_key(dg, n, &both, &w), BPFW_R_ENCRYPTED,
		      "parse: a good v3 header is ENCRYPTED, its payload unread");
	ASSERT_EQ(w.authenticated, 1, "parse: the MAC was checked first");
	ASSERT_REASON(feed(n), BPFW_R_OK, "both keys: v3 decrypted, 1 event");
	ASSERT_REASON(feed(v3_dg(2, 3)), BPFW_R_OK, "both keys: 3 events decrypted");
	ASSERT_EQ(rx.sock.valid, 2, "2 valid");
	ASSERT_EQ(rx.sock.decrypted, 2, "2 decrypted");
	ASSERT_EQ(rx.sock.authenticated, 2, "2 authenticated");
	ASSERT_EQ(rx.sock.events, 4, "4 events from the plaintext");
	ASSERT_REASON(feed(v3_dg(2, 3)), BPFW_R_REPLAY, "a replayed v3 is a replay");
	ASSERT_EQ(rx.sock.decrypted, 2, "a replay is not decrypted");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->received, 2, "2 sequenced");
	n = v3_dg(3, 1);
	dg[n - 1] ^= 0x20;
	ASSERT_REASON(feed(n), BPFW_R_WIRE_CHECK, "a flipped ciphertext bit: wire_check");
	n = v3_dg(3, 1);
	dg[n - 1] ^= 0x20;
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed(n), BPFW_R_AUTH, "FNV fixed, tag not: auth, never decrypted");
	reset(&wrong_mac);
	ASSERT_REASON(feed(v3_dg(1, 1)), BPFW_R_AUTH, "another MAC key: auth");
	ASSERT_EQ(rx.sock.decrypted, 0, "nothing decrypted under a bad MAC");
}

static void test_wrong_or_no_key(void)
{
	unsigned i;

	reset(&wrong_enc);
	for (i = 1; i <= 20; i++)
		ASSERT_REASON(feed(v3_dg(i, 1 + i % 3)), BPFW_R_DECRYPT,
			      "good MAC, wrong encryption key: decrypt");
	ASSERT_EQ(rx.sock.reasons[BPFW_R_DECRYPT], 20, "20 decrypt");
	ASSERT_EQ(rx.sock.authenticated, 0, "none counted authenticated (none valid)");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->received, 20,
		  "decrypt: still sequenced (the MAC held)");
	ASSERT_EQ(rx.sock.events, 0, "no events from noise");

	reset(NULL);
	for (i = 1; i <= 5; i++)
		ASSERT_REASON(feed(v3_dg(i + (i > 3), 1)), BPFW_R_ENCRYPTED, "no key: encrypted");
	ASSERT_REASON(feed(v3_dg(2, 1)), BPFW_R_ENCRYPTED, "no key: a repeat is encrypted too");
	ASSERT_EQ(rx.sock.invalid, 6, "encrypted counts as invalid");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->received, 5, "no key: 5 sequenced");
	ASSERT_EQ(bpfw_sender_lost(bpfw_senders_get(rx.sock.senders, 0)), 1,
		  "no key: seq 4 missing, 1 lost");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->duplicates, 1, "no key: 1 duplicate");
	ASSERT_EQ(rx.sock.events, 0, "no key: no events parsed");

	reset(&mac_only);
	ASSERT_REASON(feed(v3_dg(1, 1)), BPFW_R_ENCRYPTED, "MAC key alone: encrypted");
	ASSERT_REASON(feed(v3_dg(1, 1)), BPFW_R_REPLAY, "MAC key alone: a repeat is a replay");
	{
		uint32_t n = v3_dg(2, 1);

		dg[BPFWIRE_OFF_TAG] ^= 1;
		ASSERT_REASON(feed(n), BPFW_R_AUTH, "MAC key alone: a bad tag is auth");
	}
}

static void test_malformed(void)
{
	static const uint8_t mac[16] = MAC_KEY;
	struct bpfw_wire w;
	uint32_t n;

	reset(&both);
	n = v3_dg(1, 1);
	ASSERT_REASON(feed(n - 1), BPFW_R_WIRE_PAYLOAD_LEN, "v3 one byte short");
	ASSERT_REASON(feed(40), BPFW_R_WIRE_TRUNCATED, "v3 cut to 40 bytes");
	n = v3_dg(1, 1);
	dg[7] = 48;		/* hdr_len 48 */
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_HDR_LEN, "v3 hdr_len 48");
	/* A forged longer payload: 1405 bytes, past what any sender makes. */
	n = craft_wire_v2(dg, 9, 1, 1, BPFWIRE_EV_TEST, 1, NULL, 0);
	memset(dg + n, 0x41, BPFWIRE_MAX_PAYLOAD_V3 + 1);
	n += BPFWIRE_MAX_PAYLOAD_V3 + 1;
	dg[12] = (uint8_t)((n - 56) >> 24);
	dg[13] = (uint8_t)((n - 56) >> 16);
	dg[14] = (uint8_t)((n - 56) >> 8);
	dg[15] = (uint8_t)(n - 56);
	dg[4] = BPFWIRE_VERSION_3;
	dg[36] = BPFWIRE_F_V3;
	dg[37] = 3;
	resign(n);
	ASSERT_REASON(bpfw_parse_wire_key(dg, n, &both, &w), BPFW_R_WIRE_PAYLOAD_LEN,
		      "v3 payload of 1405 bytes: wire_payload_len");
	n = v3_dg(1, 1);
	dg[36] = BPFWIRE_F_SIGNED;
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "v3 without the encrypted flag");
	n = v3_dg(1, 1);
	dg[36] = BPFWIRE_F_V3 | 0x80;
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "v3 with an unknown flag");
	n = v3_dg(1, 1);
	dg[16] = 1;		/* seq 2^56 + 1: past the counter block's 48 bits */
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "v3 seq past 2^48-1");
	n = v3_dg(1, 1);
	dg[38] = 0;
	dg[39] = 0;
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_EVENT_LENGTH, "v3 with 0 events: event_length, not decrypted");
	n = v3_dg(1, 1);
	dg[39] = 2;		/* 2 events claimed, 1 encrypted */
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_DECRYPT, "v3 claiming 2 events over 1: decrypt");
	/* A v2 datagram may not carry v3's flag: v2 readers would misread it. */
	n = craft_wire_v2(dg, 9, 1, 5, BPFWIRE_EV_TEST, 1, NULL, 0);
	craft_wire_sign(dg, n, mac, 3);
	dg[36] = BPFWIRE_F_V3;
	resign(n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "v2 with the encrypted flag");
	/* Ciphertext of a TEST payload has no structure: any bytes decrypt. */
	n = craft_wire_v2(dg, 9, 1, 6, BPFWIRE_EV_TEST, 1, (const uint8_t *)"abc", 3);
	craft_wire_sign(dg, n, mac, 3);
	craft_wire_encrypt(dg, n, mac, both.enc);
	ASSERT_REASON(feed(n), BPFW_R_OK, "a v3 test payload decrypts");
	ASSERT_EQ(rx.sock.decrypted, 1, "1 decrypted in the malformed run");
	/* An event whose reserved field is not 0 after decryption. */
	{
		uint8_t ev[64];
		uint32_t el = craft_event(ev, 1, "cat", "/x");

		ev[27] = 1;
		n = craft_wire_v2(dg, 9, 1, 7, BPFWIRE_EV_OPEN, 1, ev, el);
		craft_wire_sign(dg, n, mac, 3);
		craft_wire_encrypt(dg, n, mac, both.enc);
		ASSERT_REASON(feed(n), BPFW_R_DECRYPT, "a decrypted event with reserved != 0");
	}
}

int main(void)
{
	test_good();
	test_wrong_or_no_key();
	test_malformed();
	bpfw_rx_fini(&rx);
	return tap_done();
}
