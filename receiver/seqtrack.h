/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-sender sequence accounting. Sequence numbers start at 1 (wire.h), so
 * a sender whose highest sequence is S and from which U distinct numbers
 * arrived lost exactly S - U datagrams so far; losses after S are visible
 * only to --expect-count.
 */
#ifndef BPFWIRE_RECV_SEQTRACK_H
#define BPFWIRE_RECV_SEQTRACK_H

#include <stdint.h>

enum bpfw_seq_event {
	BPFW_SEQ_NEW,		/* first time seen, in order */
	BPFW_SEQ_REORDERED,	/* first time seen, below the highest so far */
	BPFW_SEQ_DUPLICATE,	/* seen before */
	BPFW_SEQ_FULL,		/* too many senders: not tracked */
};

struct bpfw_sender {
	uint32_t sender_id;
	uint8_t family;		/* source of the first datagram */
	uint8_t src[16];
	uint16_t sport;
	uint64_t received;	/* distinct sequence numbers */
	uint64_t duplicates;
	uint64_t reordered;
	uint64_t stale;		/* below the tracking window: counted as new */
	uint64_t first_seq;	/* lowest seen */
	uint64_t last_seq;	/* highest seen */
	/* bit i <=> seq base + i was seen */
	uint64_t base;
	uint64_t *bits;
	uint64_t nwords;
};

struct bpfw_senders;

struct bpfw_senders *bpfw_senders_new(unsigned max_senders);
void bpfw_senders_free(struct bpfw_senders *s);
enum bpfw_seq_event bpfw_senders_record(struct bpfw_senders *s, uint32_t id,
					uint64_t seq, uint8_t family,
					const uint8_t *src, uint16_t sport);
unsigned bpfw_senders_count(const struct bpfw_senders *s);
/* Senders sorted by id, for stable output. */
const struct bpfw_sender *bpfw_senders_get(struct bpfw_senders *s, unsigned i);
uint64_t bpfw_sender_lost(const struct bpfw_sender *snd);

#endif /* BPFWIRE_RECV_SEQTRACK_H */
