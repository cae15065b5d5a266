/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-sender sequence accounting. Sequence numbers start at 1 (wire.h), so
 * a sender whose highest sequence is S and from which U distinct numbers
 * arrived lost exactly S - U datagrams so far; losses after S are visible
 * only to --expect-count.
 *
 * A sender is a (sender_id, epoch) pair: a reinstalled sender (v2, new
 * epoch) starts a sequence space of its own. v1 has epoch 0.
 *
 * Each sender's window is 2^24 numbers; once it has slid forward, a number
 * below it may have been seen, so it is refused (SEQ_OLD), never counted:
 * under a key it would otherwise be a replay that passes.
 *
 * All the state lives under a budget of bytes: past it a new sender, or a
 * sender that needs more bitmap, is not tracked (BPFW_SEQ_UNTRACKED), so
 * forged traffic cannot grow memory without bound.
 */
#ifndef BPFWIRE_RECV_SEQTRACK_H
#define BPFWIRE_RECV_SEQTRACK_H

#include <stdint.h>

enum bpfw_seq_event {
	BPFW_SEQ_NEW,		/* first time seen, in order */
	BPFW_SEQ_REORDERED,	/* first time seen, below the highest so far */
	BPFW_SEQ_DUPLICATE,	/* seen before */
	BPFW_SEQ_OLD,		/* below the window: cannot tell from a repeat, refused */
	BPFW_SEQ_FULL,		/* too many senders (--max-senders): not tracked */
	BPFW_SEQ_UNTRACKED,	/* the state budget is spent: not tracked */
};

/* 512 sequence numbers, the unit the bitmap grows by. */
struct bpfw_seq_chunk {
	uint64_t no;		/* seq / 512 */
	uint64_t bits[8];
};

struct bpfw_sender {
	uint32_t sender_id;
	uint64_t epoch;		/* v2; 0 for v1 */
	uint8_t family;		/* source of the first datagram */
	uint8_t src[16];
	uint16_t sport;
	uint64_t received;	/* distinct sequence numbers */
	uint64_t duplicates;	/* repeats of an unauthenticated datagram */
	uint64_t replays;	/* repeats of an authenticated one */
	uint64_t reordered;
	uint64_t stale;		/* below the window (SEQ_OLD): refused, not received */
	uint64_t events;	/* n_events of the distinct datagrams */
	uint64_t first_seq;	/* lowest seen */
	uint64_t last_seq;	/* highest seen */
	/* Sparse seen-bitmap: chunks sorted by no, all at or above base. */
	uint64_t base;
	struct bpfw_seq_chunk *chunks;
	uint32_t nchunks, cap, hint;
};

/* Bytes of state; limit 0 means no limit. One budget may serve two tables. */
struct bpfw_budget {
	uint64_t limit;
	uint64_t used;
	uint64_t peak;
};

struct bpfw_senders;

/* budget may be NULL: unlimited, and not counted. */
struct bpfw_senders *bpfw_senders_new(unsigned max_senders,
				      struct bpfw_budget *budget);
void bpfw_senders_free(struct bpfw_senders *s);
/* authenticated: a repeat is a replay, counted apart from duplicates. */
enum bpfw_seq_event bpfw_senders_record(struct bpfw_senders *s, uint32_t id,
					uint64_t epoch, uint64_t seq,
					int authenticated, uint8_t family,
					const uint8_t *src, uint16_t sport);
/* The sender a NEW or REORDERED record just counted, for its event count. */
struct bpfw_sender *bpfw_senders_last(struct bpfw_senders *s);
unsigned bpfw_senders_count(const struct bpfw_senders *s);
/* Senders sorted by id, then epoch, for stable output. */
const struct bpfw_sender *bpfw_senders_get(struct bpfw_senders *s, unsigned i);
uint64_t bpfw_sender_lost(const struct bpfw_sender *snd);
/* Bytes a sender's state takes (what the budget charges for it). */
uint64_t bpfw_sender_bytes(const struct bpfw_sender *snd);

#endif /* BPFWIRE_RECV_SEQTRACK_H */
