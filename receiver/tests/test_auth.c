// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wire format v2 through the pipeline (rx.c): the MAC under a key (bad tag,
 * another key, v1 and unsigned v2 refused), replays told from duplicates, a
 * new epoch as a reinstall, n_events > 1; then the sparse bitmap and the
 * state budget that forged senders cannot exceed.
 */
#include <stdlib.h>

#include "craft.h"
#include "rx.h"
#include "tap.h"
#include "wire.h"

static struct bpfw_rx rx;
static uint8_t dg[CRAFT_MAX_FRAME];
static const uint8_t payload16[16] = "bpfwire-payload";
static uint64_t ts = 1;

/* Key 00 01 .. 0f: the SipHash paper's key. */
static struct bpfw_key key = {
	.key = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	.key_id = -1,
};

static void reset(const struct bpfw_key *k, uint64_t budget)
{
	craft_rx_reset(&rx, k, budget);
}

static enum bpfw_reason feed(uint32_t n)
{
	return craft_rx_feed(&rx, &ts, dg, n);
}

static uint32_t signed_dg(uint32_t sender, uint64_t epoch, uint64_t seq)
{
	uint32_t n = craft_wire_v2(dg, sender, epoch, seq, BPFWIRE_EV_TEST, 1,
				   payload16, 16);

	craft_wire_sign(dg, n, key.key, 3);
	return n;
}

/* Check and tag of one datagram, computed apart (Python) from wire.h's text. */
static void test_known_answer(void)
{
	uint32_t n = signed_dg(7, 0x1122334455667788ull, 5);
	uint64_t tag = 0;
	int i;

	for (i = 7; i >= 0; i--)
		tag = tag << 8 | dg[BPFWIRE_OFF_TAG + i];
	ASSERT_EQ(n, 72, "v2 datagram of 16 payload bytes is 72 bytes");
	ASSERT_EQ(bpfw_wire_check(dg, n), 0x5c73a389, "FNV-1a with check and tag as 0");
	ASSERT_EQ((dg[32] << 24 | dg[33] << 16 | dg[34] << 8 | dg[35]), 0x5c73a389,
		  "check stored big-endian");
	ASSERT_EQ(tag, 0xc303eac5e8389207ull, "SipHash-2-4 tag stored little-endian");
	ASSERT_EQ(bpfw_wire_tag(key.key, dg, n), 0xc303eac5e8389207ull,
		  "the receiver's bpfw_wire_tag agrees");
}

static void test_no_key(void)
{
	struct bpfw_wire w;
	uint32_t n;

	reset(NULL, 0);
	n = signed_dg(7, 1, 1);
	ASSERT_REASON(feed(n), BPFW_R_OK, "no key: signed v2 valid on FNV");
	n = signed_dg(7, 1, 2);
	dg[BPFWIRE_OFF_TAG] ^= 1;
	ASSERT_REASON(feed(n), BPFW_R_OK, "no key: a bad tag cannot be seen");
	n = craft_wire_v2(dg, 7, 1, 3, BPFWIRE_EV_TEST, 1, payload16, 16);
	ASSERT_REASON(feed(n), BPFW_R_OK, "no key: unsigned v2 valid");
	ASSERT_EQ(rx.sock.authenticated, 0, "no key: nothing authenticated");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->received, 3, "no key: tracked");

	/* v2's own header checks. */
	n = craft_wire_v2(dg, 7, 1, 4, BPFWIRE_EV_TEST, 1, payload16, 16);
	dg[BPFWIRE_OFF_TAG + 3] = 9;
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "unsigned v2 with a tag");
	n = craft_wire_v2(dg, 7, 1, 4, BPFWIRE_EV_TEST, 1, payload16, 16);
	dg[36] = 0x80;
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_RESERVED, "v2 unknown flag");
	n = craft_wire_v2(dg, 7, 1, 4, BPFWIRE_EV_TEST, 1, payload16, 16);
	dg[7] = 40;
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed(n), BPFW_R_WIRE_HDR_LEN, "v2 with v1's hdr_len");
	n = craft_wire_v2(dg, 7, 1, 4, BPFWIRE_EV_TEST, 0, payload16, 16);
	ASSERT_REASON(feed(n), BPFW_R_EVENT_LENGTH, "v2 with 0 events");
	n = craft_wire_v2(dg, 7, 1, 4, BPFWIRE_EV_TEST, 1, NULL, 0);
	ASSERT_REASON(bpfw_parse_wire(dg, 50, &w), BPFW_R_WIRE_TRUNCATED, "v2 cut at 50 bytes");
}

static void test_key(void)
{
	static const uint8_t other[16] = "not-the-real-key";
	uint32_t n;

	reset(&key, 0);
	n = signed_dg(7, 1, 1);
	ASSERT_REASON(feed(n), BPFW_R_OK, "signed with our key");
	ASSERT_EQ(rx.sock.authenticated, 1, "counted authenticated");

	/* Forgeries with a right FNV: none may create or touch a sender. */
	n = signed_dg(8, 1, 1);
	dg[BPFWIRE_OFF_TAG + 7] ^= 0x80;
	ASSERT_REASON(feed(n), BPFW_R_AUTH, "bad tag (last byte)");
	n = craft_wire_v2(dg, 9, 1, 1, BPFWIRE_EV_TEST, 1, payload16, 16);
	craft_wire_sign(dg, n, other, 3);
	ASSERT_REASON(feed(n), BPFW_R_AUTH, "signed with another key");
	n = signed_dg(7, 1, 2);
	dg[20] ^= 1;			/* seq edited, FNV fixed, tag left */
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed(n), BPFW_R_AUTH, "seq edited after signing");
	n = signed_dg(7, 1, 2);
	dg[60] ^= 1;			/* corruption: the FNV check comes first */
	ASSERT_REASON(feed(n), BPFW_R_WIRE_CHECK, "corruption reads as wire_check");
	n = craft_wire(dg, 10, 1, BPFWIRE_EV_TEST, payload16, 16);
	ASSERT_REASON(feed(n), BPFW_R_UNAUTHENTICATED, "v1 under a key");
	n = craft_wire_v2(dg, 11, 1, 1, BPFWIRE_EV_TEST, 1, payload16, 16);
	ASSERT_REASON(feed(n), BPFW_R_UNAUTHENTICATED, "unsigned v2 under a key");
	ASSERT_EQ(bpfw_senders_count(rx.sock.senders), 1, "forgeries created no sender");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->received, 1, "nor touched one");

	/* Replays: the same (epoch, seq) again, never a duplicate. */
	n = signed_dg(7, 1, 1);
	ASSERT_REASON(feed(n), BPFW_R_REPLAY, "replay of seq 1");
	n = signed_dg(7, 1, 2);
	ASSERT_REASON(feed(n), BPFW_R_OK, "seq 2");
	ASSERT_REASON(feed(n), BPFW_R_REPLAY, "replay of seq 2");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->replays, 2, "replays counted");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->duplicates, 0, "apart from duplicates");

	/* A reinstall: new epoch, seq from 1 again; the old epoch stays known. */
	n = signed_dg(7, 2, 1);
	ASSERT_REASON(feed(n), BPFW_R_OK, "new epoch seq 1 is new");
	n = signed_dg(7, 2, 2);
	ASSERT_REASON(feed(n), BPFW_R_OK, "new epoch seq 2");
	n = signed_dg(7, 1, 2);
	ASSERT_REASON(feed(n), BPFW_R_REPLAY, "old epoch replayed after the reinstall");
	ASSERT_EQ(bpfw_senders_count(rx.sock.senders), 2, "one entry per epoch");
	ASSERT_EQ(rx.sock.reasons[BPFW_R_REPLAY], 3, "three replays");
	ASSERT_EQ(rx.sock.valid, 4, "four valid");

	/* --key-id: a tag made with the right key but another id. */
	key.key_id = 4;
	n = signed_dg(7, 2, 3);
	ASSERT_REASON(feed(n), BPFW_R_AUTH, "another key id");
	key.key_id = 3;
	ASSERT_REASON(feed(n), BPFW_R_OK, "our key id");
	key.key_id = -1;
}

/*
 * What an attacker on the segment does with a capture: wait until the
 * sender's window has slid past an old signed datagram, then send it again.
 * Its tag is good; only the sequence can refuse it.
 */
static void test_replay_below_window(void)
{
	const uint64_t last = (1ull << 24) + 1;	/* the window slides at 2^24 */
	const struct bpfw_sender *snd;
	uint64_t q, bad = 0, valid, received;
	uint32_t n;

	reset(&key, 0);
	for (q = 1; q <= last; q++)
		bad += feed(signed_dg(7, 1, q)) != BPFW_R_OK;
	printf("# sent signed seq 1..%llu from sender 7, epoch 1\n", (unsigned long long)last);
	ASSERT_EQ(bad, 0, "the signed stream is all valid");
	snd = bpfw_senders_get(rx.sock.senders, 0);
	valid = rx.sock.valid;
	received = snd->received;
	ASSERT_EQ(received, last, "every seq received once");

	printf("# replaying seq 1, 5 and 2^23 - 1, below the window's base 2^23\n");
	ASSERT_REASON(feed(signed_dg(7, 1, 1)), BPFW_R_REPLAY_OLD, "replay of seq 1 refused");
	ASSERT_REASON(feed(signed_dg(7, 1, 5)), BPFW_R_REPLAY_OLD, "replay of seq 5 refused");
	ASSERT_REASON(feed(signed_dg(7, 1, (1ull << 23) - 1)), BPFW_R_REPLAY_OLD,
		      "replay of seq 2^23 - 1 refused");
	printf("# replaying seq 2^23, the window's first, and 2^24, its newest\n");
	ASSERT_REASON(feed(signed_dg(7, 1, 1ull << 23)), BPFW_R_REPLAY, "replay of seq 2^23: replay");
	ASSERT_REASON(feed(signed_dg(7, 1, 1ull << 24)), BPFW_R_REPLAY, "replay of seq 2^24: replay");
	ASSERT_EQ(rx.sock.valid, valid, "valid count unchanged");
	ASSERT_EQ(snd->received, received, "received unchanged");
	ASSERT_EQ(rx.sock.reasons[BPFW_R_REPLAY_OLD], 3, "three counted replay_old");
	ASSERT_EQ(rx.sock.reasons[BPFW_R_REPLAY], 2, "two counted replay");
	ASSERT_EQ(snd->stale, 3, "the sender's stale counts the three");
	ASSERT_EQ(snd->reordered, 0, "none counted reordered");
	ASSERT_EQ(snd->first_seq, 1, "first_seq unchanged");
	/* The stream goes on after the replays. */
	n = signed_dg(7, 1, last + 1);
	ASSERT_REASON(feed(n), BPFW_R_OK, "the sender's next seq is valid");
	ASSERT_STREQ(bpfw_reason_name(BPFW_R_REPLAY_OLD), "replay_old", "reason's JSON name");
}

static void test_events(void)
{
	uint8_t pl[1024];
	uint32_t n, pn = 0;
	int i;

	reset(&key, 0);
	for (i = 0; i < 3; i++)
		pn += craft_event(pl + pn, 100 + i, "cat", i == 1 ? "/tmp/w/longer-name" : "/tmp/w/f");
	n = craft_wire_v2(dg, 5, 9, 1, BPFWIRE_EV_OPEN, 3, pl, pn);
	craft_wire_sign(dg, n, key.key, 0);
	ASSERT_REASON(feed(n), BPFW_R_OK, "three events in one datagram");
	ASSERT_EQ(rx.sock.events, 3, "side counts 3 events");
	ASSERT_EQ(bpfw_senders_get(rx.sock.senders, 0)->events, 3, "sender counts 3 events");
	n = craft_wire_v2(dg, 5, 9, 2, BPFWIRE_EV_OPEN, 4, pl, pn);
	craft_wire_sign(dg, n, key.key, 0);
	ASSERT_REASON(feed(n), BPFW_R_EVENT_LENGTH, "n_events 4 over 3 events");
	n = craft_wire_v2(dg, 5, 9, 2, BPFWIRE_EV_OPEN, 2, pl, pn);
	craft_wire_sign(dg, n, key.key, 0);
	ASSERT_REASON(feed(n), BPFW_R_EVENT_LENGTH, "n_events 2 with 3 events' bytes");
	n = craft_wire(dg, 6, 1, BPFWIRE_EV_OPEN, pl, pn);
	reset(NULL, 0);
	ASSERT_REASON(feed(n), BPFW_R_EVENT_LENGTH, "v1 holds exactly one event");
}

/* The pattern: seq 1, 2^24, 3 * 2^23 from one forged id. */
static void test_sparse(void)
{
	struct bpfw_senders *s = bpfw_senders_new(4, NULL);
	const struct bpfw_sender *snd;
	unsigned bad = 0;
	uint64_t q;

	ASSERT_EQ(bpfw_senders_record(s, 1, 0, 1, 0, 4, NULL, 0), BPFW_SEQ_NEW, "seq 1");
	ASSERT_EQ(bpfw_senders_record(s, 1, 0, 1ull << 24, 0, 4, NULL, 0), BPFW_SEQ_NEW, "seq 2^24");
	ASSERT_EQ(bpfw_senders_record(s, 1, 0, 3ull << 23, 0, 4, NULL, 0), BPFW_SEQ_NEW,
		  "seq 3*2^23");
	ASSERT_EQ(bpfw_senders_record(s, 1, 0, 1ull << 24, 0, 4, NULL, 0), BPFW_SEQ_DUPLICATE,
		  "seq 2^24 again");
	snd = bpfw_senders_get(s, 0);
	ASSERT_LE(bpfw_sender_bytes(snd), 1024, "three far numbers take under 1 KiB");
	ASSERT_EQ(snd->received, 3, "three received");
	/* A dense stream: every number once, each duplicate seen. */
	for (q = 1; q <= 100000; q++)
		bad += bpfw_senders_record(s, 2, 0, q, 0, 4, NULL, 0) != BPFW_SEQ_NEW;
	for (q = 1; q <= 100000; q += 997)
		bad += bpfw_senders_record(s, 2, 0, q, 0, 4, NULL, 0) != BPFW_SEQ_DUPLICATE;
	ASSERT_EQ(bad, 0, "100000 in order, then duplicates");
	snd = bpfw_senders_get(s, 1);
	ASSERT_EQ(snd->received, 100000, "dense received");
	ASSERT_EQ(bpfw_sender_lost(snd), 0, "dense lost");
	ASSERT_LE(bpfw_sender_bytes(snd), 200 + 256 * 72, "dense: 72 bytes per 512 numbers");
	bpfw_senders_free(s);
}

/* 2,000 forged ids under a 256 KiB budget: untracked past it, never over it. */
static void test_budget(void)
{
	unsigned id, untracked = 0, full = 0;
	int k;

	reset(NULL, 256 << 10);
	for (id = 1; id <= 2000; id++)
		for (k = 0; k < 3; k++) {
			static const uint64_t seqs[] = { 1, 1ull << 24, 3ull << 23 };
			uint32_t n = craft_wire(dg, id, seqs[k], BPFWIRE_EV_TEST, payload16, 16);
			enum bpfw_reason r = feed(n);

			untracked += r == BPFW_R_UNTRACKED;
			full += r == BPFW_R_TOO_MANY_SENDERS;
		}
	ASSERT_GE(untracked, 1, "past the budget: untracked");
	ASSERT_EQ(full, 0, "not too_many_senders (max 4096)");
	ASSERT_EQ(rx.sock.valid + untracked, 6000, "every other datagram valid");
	ASSERT_LE(rx.budget[0].peak, 256 << 10, "state never over the budget");
	ASSERT_GE(rx.budget[0].peak, 200 << 10, "and the budget was used");
	printf("# budget 262144: peak %llu bytes, %u senders tracked, %u datagrams untracked\n",
	       (unsigned long long)rx.budget[0].peak, bpfw_senders_count(rx.sock.senders), untracked);

	/* --max-senders is the other limit, with its own reason. */
	{
		struct bpfw_rx_cfg cfg = { .port = 7000, .max_senders = 2 };

		bpfw_rx_fini(&rx);
		bpfw_rx_init(&rx, &cfg);
		for (id = 1; id <= 3; id++)
			full = feed(craft_wire(dg, id, 1, BPFWIRE_EV_TEST, payload16, 16));
		ASSERT_REASON(full, BPFW_R_TOO_MANY_SENDERS, "third sender over --max-senders 2");
	}
}

int main(void)
{
	test_known_answer();
	test_no_key();
	test_key();
	test_replay_below_window();
	test_events();
	test_sparse();
	test_budget();
	bpfw_rx_fini(&rx);
	return tap_done();
}
