// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-sender loss, duplicate and reorder accounting over a sparse
 * seen-bitmap: 512-number chunks, sorted, so a sender that jumps across the
 * window costs one chunk per place it lands, not the whole window.
 */
#include <stdlib.h>
#include <string.h>

#include "seqtrack.h"

#define CHUNK_SEQS	512ull
/* 2^24 sequence numbers per sender is exact for any lab run. */
#define WINDOW_SEQS	(1ull << 24)
#define MAX_CHUNKS	((uint32_t)(WINDOW_SEQS / CHUNK_SEQS))

struct bpfw_senders {
	struct bpfw_sender **list;	/* insertion order, sorted on demand */
	unsigned n, max;
	int sorted;
	struct bpfw_sender **slots;	/* open addressing on (id, epoch) */
	unsigned nslots;
	struct bpfw_sender *last;	/* one sender is the common case */
	struct bpfw_budget *budget;
	uint64_t table_bytes;
};

static int charge(struct bpfw_budget *b, uint64_t bytes)
{
	if (!b)
		return 0;
	if (b->limit && b->used + bytes > b->limit)
		return -1;
	b->used += bytes;
	if (b->used > b->peak)
		b->peak = b->used;
	return 0;
}

static void refund(struct bpfw_budget *b, uint64_t bytes)
{
	if (b)
		b->used -= bytes < b->used ? bytes : b->used;
}

struct bpfw_senders *bpfw_senders_new(unsigned max_senders,
				      struct bpfw_budget *budget)
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
	/* The table is state too; it is charged even past the limit. */
	s->budget = budget;
	s->table_bytes = sizeof(*s) + (uint64_t)(s->nslots + s->max) * sizeof(void *);
	if (budget) {
		budget->used += s->table_bytes;
		if (budget->used > budget->peak)
			budget->peak = budget->used;
	}
	return s;
}

uint64_t bpfw_sender_bytes(const struct bpfw_sender *snd)
{
	return sizeof(*snd) + (uint64_t)snd->cap * sizeof(struct bpfw_seq_chunk);
}

void bpfw_senders_free(struct bpfw_senders *s)
{
	unsigned i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		refund(s->budget, bpfw_sender_bytes(s->list[i]));
		free(s->list[i]->chunks);
		free(s->list[i]);
	}
	refund(s->budget, s->table_bytes);
	free(s->list);
	free(s->slots);
	free(s);
}

static unsigned hash(uint32_t id, uint64_t epoch, unsigned mask)
{
	uint64_t h = (id ^ epoch ^ (epoch >> 32)) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 32) & mask;
}

/* NULL with *ev set when the sender cannot be tracked. */
static struct bpfw_sender *lookup(struct bpfw_senders *s, uint32_t id,
				  uint64_t epoch, enum bpfw_seq_event *ev)
{
	unsigned mask = s->nslots - 1;
	unsigned h = hash(id, epoch, mask);
	struct bpfw_sender *snd;

	if (s->last && s->last->sender_id == id && s->last->epoch == epoch)
		return s->last;
	while (s->slots[h]) {
		if (s->slots[h]->sender_id == id && s->slots[h]->epoch == epoch)
			return s->last = s->slots[h];
		h = (h + 1) & mask;
	}
	*ev = BPFW_SEQ_FULL;
	if (s->n == s->max)
		return NULL;
	/* A new sender must afford itself and its first chunk. */
	*ev = BPFW_SEQ_UNTRACKED;
	if (charge(s->budget, sizeof(*snd) + sizeof(struct bpfw_seq_chunk)))
		return NULL;
	snd = calloc(1, sizeof(*snd));
	if (snd)
		snd->chunks = calloc(1, sizeof(*snd->chunks));
	if (!snd || !snd->chunks) {
		refund(s->budget, sizeof(*snd) + sizeof(struct bpfw_seq_chunk));
		free(snd);
		return NULL;
	}
	snd->cap = 1;
	snd->sender_id = id;
	snd->epoch = epoch;
	s->slots[h] = snd;
	s->list[s->n++] = snd;
	s->sorted = 0;
	return s->last = snd;
}

/* Slide the window forward: forget the chunks below the new base. */
static void slide(struct bpfw_sender *snd, uint64_t seq)
{
	uint64_t new_base = (seq - WINDOW_SEQS / 2) & ~(CHUNK_SEQS - 1);
	uint32_t drop = 0;

	while (drop < snd->nchunks && snd->chunks[drop].no < new_base / CHUNK_SEQS)
		drop++;
	memmove(snd->chunks, snd->chunks + drop,
		(snd->nchunks - drop) * sizeof(*snd->chunks));
	snd->nchunks -= drop;
	snd->hint = 0;
	snd->base = new_base;
}

/* The chunk for cno, inserted (zeroed) when absent; NULL past the budget. */
static struct bpfw_seq_chunk *chunk_for(struct bpfw_senders *s,
					struct bpfw_sender *snd, uint64_t cno)
{
	uint32_t lo = 0, hi = snd->nchunks, h = snd->hint;
	struct bpfw_seq_chunk *c;

	/* In-order streams hit the same chunk or the next one. */
	if (h < snd->nchunks && snd->chunks[h].no == cno)
		return &snd->chunks[h];
	if (h + 1 < snd->nchunks && snd->chunks[h + 1].no == cno)
		return &snd->chunks[snd->hint = h + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (snd->chunks[mid].no < cno)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < snd->nchunks && snd->chunks[lo].no == cno)
		return &snd->chunks[snd->hint = lo];
	if (snd->nchunks == snd->cap) {
		uint32_t nc = snd->cap * 2 > MAX_CHUNKS ? MAX_CHUNKS : snd->cap * 2;

		/* Doubling may not fit the budget when one more chunk does. */
		if (charge(s->budget, (uint64_t)(nc - snd->cap) * sizeof(*c))) {
			nc = snd->cap + 1;
			if (charge(s->budget, sizeof(*c)))
				return NULL;
		}
		c = realloc(snd->chunks, (size_t)nc * sizeof(*c));
		if (!c) {
			refund(s->budget, (uint64_t)(nc - snd->cap) * sizeof(*c));
			return NULL;
		}
		snd->chunks = c;
		snd->cap = nc;
	}
	memmove(snd->chunks + lo + 1, snd->chunks + lo,
		(snd->nchunks - lo) * sizeof(*c));
	snd->nchunks++;
	c = &snd->chunks[snd->hint = lo];
	memset(c, 0, sizeof(*c));
	c->no = cno;
	return c;
}

static void first_datagram(struct bpfw_sender *snd, uint64_t seq, uint8_t family,
			   const uint8_t *src, uint16_t sport)
{
	snd->family = family;
	if (src)
		memcpy(snd->src, src, family == 4 ? 4 : 16);
	snd->sport = sport;
	/* Half a window below the first seq, as after a slide: earlier numbers
	 * that arrive late are reordered, not refused as old. */
	snd->base = seq > WINDOW_SEQS / 2 ? (seq - WINDOW_SEQS / 2) & ~(CHUNK_SEQS - 1) : 0;
	snd->first_seq = snd->last_seq = seq;
}

enum bpfw_seq_event bpfw_senders_record(struct bpfw_senders *s, uint32_t id,
					uint64_t epoch, uint64_t seq,
					int authenticated, uint8_t family,
					const uint8_t *src, uint16_t sport)
{
	enum bpfw_seq_event ev = BPFW_SEQ_FULL;
	struct bpfw_sender *snd = lookup(s, id, epoch, &ev);
	struct bpfw_seq_chunk *c;
	uint64_t off, bit;

	if (!snd)
		return ev;
	if (!snd->last_seq)
		first_datagram(snd, seq, family, src, sport);
	if (seq < snd->base) {
		/* Forgotten: it may have been seen, so it cannot count as new. */
		snd->stale++;
		return BPFW_SEQ_OLD;
	}
	if (seq - snd->base >= WINDOW_SEQS)
		slide(snd, seq);
	c = chunk_for(s, snd, seq / CHUNK_SEQS);
	if (!c)
		return BPFW_SEQ_UNTRACKED;
	if (seq < snd->first_seq)
		snd->first_seq = seq;
	off = seq % CHUNK_SEQS;
	bit = 1ull << (off % 64);
	if (c->bits[off / 64] & bit) {
		if (authenticated)
			snd->replays++;
		else
			snd->duplicates++;
		return BPFW_SEQ_DUPLICATE;
	}
	c->bits[off / 64] |= bit;
	snd->received++;
	if (seq < snd->last_seq) {
		snd->reordered++;
		return BPFW_SEQ_REORDERED;
	}
	snd->last_seq = seq;
	return BPFW_SEQ_NEW;
}

struct bpfw_sender *bpfw_senders_last(struct bpfw_senders *s)
{
	return s->last;
}

unsigned bpfw_senders_count(const struct bpfw_senders *s)
{
	return s->n;
}

static int by_id(const void *a, const void *b)
{
	const struct bpfw_sender *x = *(struct bpfw_sender *const *)a;
	const struct bpfw_sender *y = *(struct bpfw_sender *const *)b;

	if (x->sender_id != y->sender_id)
		return x->sender_id < y->sender_id ? -1 : 1;
	return x->epoch < y->epoch ? -1 : x->epoch > y->epoch;
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
