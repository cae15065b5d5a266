// SPDX-License-Identifier: GPL-2.0-only
/* Per-sender loss, duplicate and reorder accounting over a seen-bitmap. */
#include <stdlib.h>
#include <string.h>

#include "seqtrack.h"

/* 2^24 sequence numbers (2 MiB) per sender is exact for any lab run. */
#define WINDOW_WORDS	((1u << 24) / 64)
#define FIRST_WORDS	16

struct bpfw_senders {
	struct bpfw_sender **list;	/* insertion order, sorted on demand */
	unsigned n, max;
	int sorted;
	struct bpfw_sender **slots;	/* open addressing on sender_id */
	unsigned nslots;
	struct bpfw_sender *last;	/* one sender is the common case */
};

struct bpfw_senders *bpfw_senders_new(unsigned max_senders)
{
	struct bpfw_senders *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->max = max_senders ? max_senders : 1;
	for (s->nslots = 16; s->nslots < 2 * s->max; s->nslots *= 2)
		;
	s->slots = calloc(s->nslots, sizeof(*s->slots));
	s->list = calloc(s->max, sizeof(*s->list));
	if (!s->slots || !s->list) {
		bpfw_senders_free(s);
		return NULL;
	}
	s->sorted = 1;
	return s;
}

void bpfw_senders_free(struct bpfw_senders *s)
{
	unsigned i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->list[i]->bits);
		free(s->list[i]);
	}
	free(s->list);
	free(s->slots);
	free(s);
}

static struct bpfw_sender *lookup(struct bpfw_senders *s, uint32_t id,
				  int create)
{
	unsigned mask = s->nslots - 1;
	unsigned h = (id * 2654435761u) & mask;
	struct bpfw_sender *snd;

	if (s->last && s->last->sender_id == id)
		return s->last;
	while (s->slots[h]) {
		if (s->slots[h]->sender_id == id)
			return s->last = s->slots[h];
		h = (h + 1) & mask;
	}
	if (!create || s->n == s->max)
		return NULL;
	snd = calloc(1, sizeof(*snd));
	if (!snd)
		return NULL;
	snd->sender_id = id;
	s->slots[h] = snd;
	s->list[s->n++] = snd;
	s->sorted = 0;
	return s->last = snd;
}

/* Make seq - base fit in the bitmap, growing it or sliding it forward. */
static int fit(struct bpfw_sender *snd, uint64_t seq)
{
	uint64_t need = (seq - snd->base) / 64 + 1;
	uint64_t nw, *nb;

	if (need <= snd->nwords)
		return 0;
	if (need > WINDOW_WORDS) {
		/* Slide: keep the upper half of the window behind seq. */
		uint64_t new_base = (seq - (uint64_t)WINDOW_WORDS * 32) & ~63ull;
		uint64_t drop = (new_base - snd->base) / 64;

		if (drop >= snd->nwords) {
			memset(snd->bits, 0, snd->nwords * 8);
		} else {
			memmove(snd->bits, snd->bits + drop,
				(snd->nwords - drop) * 8);
			memset(snd->bits + snd->nwords - drop, 0, drop * 8);
		}
		snd->base = new_base;
		need = (seq - snd->base) / 64 + 1;
		if (need <= snd->nwords)
			return 0;
	}
	nw = snd->nwords * 2;
	if (nw < need)
		nw = need;
	if (nw > WINDOW_WORDS)
		nw = WINDOW_WORDS;
	nb = realloc(snd->bits, nw * 8);
	if (!nb)
		return -1;
	memset(nb + snd->nwords, 0, (nw - snd->nwords) * 8);
	snd->bits = nb;
	snd->nwords = nw;
	return 0;
}

enum bpfw_seq_event bpfw_senders_record(struct bpfw_senders *s, uint32_t id,
					uint64_t seq, uint8_t family,
					const uint8_t *src, uint16_t sport)
{
	struct bpfw_sender *snd = lookup(s, id, 1);
	uint64_t idx, bit;
	int below;

	if (!snd)
		return BPFW_SEQ_FULL;
	if (!snd->bits) {
		snd->family = family;
		if (src)
			memcpy(snd->src, src, family == 4 ? 4 : 16);
		snd->sport = sport;
		snd->base = seq & ~63ull;
		snd->first_seq = snd->last_seq = seq;
		snd->bits = calloc(FIRST_WORDS, 8);
		if (!snd->bits)
			return BPFW_SEQ_FULL;
		snd->nwords = FIRST_WORDS;
	}
	below = seq < snd->last_seq;
	if (seq < snd->first_seq)
		snd->first_seq = seq;
	if (seq > snd->last_seq)
		snd->last_seq = seq;
	if (seq < snd->base) {
		/* Older than anything we remember: cannot tell a duplicate. */
		snd->stale++;
		snd->received++;
		snd->reordered++;
		return BPFW_SEQ_REORDERED;
	}
	if (fit(snd, seq))
		return BPFW_SEQ_FULL;
	idx = (seq - snd->base) / 64;
	bit = 1ull << ((seq - snd->base) % 64);
	if (snd->bits[idx] & bit) {
		snd->duplicates++;
		return BPFW_SEQ_DUPLICATE;
	}
	snd->bits[idx] |= bit;
	snd->received++;
	if (below) {
		snd->reordered++;
		return BPFW_SEQ_REORDERED;
	}
	return BPFW_SEQ_NEW;
}

unsigned bpfw_senders_count(const struct bpfw_senders *s)
{
	return s->n;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = (*(struct bpfw_sender *const *)a)->sender_id;
	uint32_t y = (*(struct bpfw_sender *const *)b)->sender_id;

	return x < y ? -1 : x > y;
}

const struct bpfw_sender *bpfw_senders_get(struct bpfw_senders *s, unsigned i)
{
	if (!s->sorted) {
		qsort(s->list, s->n, sizeof(*s->list), by_id);
		s->sorted = 1;
	}
	return i < s->n ? s->list[i] : NULL;
}

uint64_t bpfw_sender_lost(const struct bpfw_sender *snd)
{
	return snd->last_seq > snd->received ? snd->last_seq - snd->received : 0;
}
