// SPDX-License-Identifier: GPL-2.0-only
/* Fragment reassembly: a small table scanned linearly; fragments are rare. */
#include <stdlib.h>
#include <string.h>

#include "reasm.h"

#define MAX_FRAGS	64		/* per datagram; 64 * 1280 covers 64 KiB */
#define MAX_IP_PAYLOAD	65535u

struct range {
	uint32_t off, len;
};

struct entry {
	uint8_t used;
	uint8_t dead;		/* rejected: swallow the rest until timeout */
	uint8_t family, proto;
	uint8_t link_dst_bad;
	uint8_t ttl, df;
	uint8_t src[16], dst[16];
	uint32_t id;
	uint64_t first_ns;
	uint32_t total;		/* known once the last fragment arrived */
	uint32_t have;		/* bytes held; ranges never overlap */
	uint32_t nranges;
	struct range r[MAX_FRAGS];
	uint8_t *buf;
	uint32_t cap;
};

struct bpfw_reasm {
	struct entry *e;
	unsigned n;
	uint64_t timeout_ns;
	struct bpfw_reasm_stats st;
};

struct bpfw_reasm *bpfw_reasm_new(unsigned max_entries, uint64_t timeout_ns)
{
	struct bpfw_reasm *ra = calloc(1, sizeof(*ra));

	if (!ra)
		return NULL;
	ra->e = calloc(max_entries ? max_entries : 1, sizeof(*ra->e));
	if (!ra->e) {
		free(ra);
		return NULL;
	}
	ra->n = max_entries ? max_entries : 1;
	ra->timeout_ns = timeout_ns;
	return ra;
}

void bpfw_reasm_free(struct bpfw_reasm *ra)
{
	unsigned i;

	if (!ra)
		return;
	for (i = 0; i < ra->n; i++)
		free(ra->e[i].buf);
	free(ra->e);
	free(ra);
}

const struct bpfw_reasm_stats *bpfw_reasm_stats(const struct bpfw_reasm *ra)
{
	return &ra->st;
}

static void drop(struct bpfw_reasm *ra, struct entry *e, int count)
{
	if (count && !e->dead)
		ra->st.incomplete++;
	e->used = 0;
	e->dead = 0;
	e->nranges = 0;
	e->have = 0;
	e->total = 0;
}

void bpfw_reasm_expire(struct bpfw_reasm *ra, uint64_t now_ns)
{
	unsigned i;

	for (i = 0; i < ra->n; i++) {
		struct entry *e = &ra->e[i];

		/* Captures can step back in time: never expire on a negative age. */
		if (e->used && (now_ns == UINT64_MAX ||
				(now_ns >= e->first_ns &&
				 now_ns - e->first_ns >= ra->timeout_ns)))
			drop(ra, e, 1);
	}
}

static int same_key(const struct entry *e, const struct bpfw_l3 *f)
{
	unsigned alen = f->family == 4 ? 4 : 16;

	/* IPv4 keys on the protocol too; IPv6 learns it only once whole. */
	return e->used && e->family == f->family && e->id == f->frag_id &&
	       (f->family == 6 || e->proto == f->proto) &&
	       !memcmp(e->src, f->src, alen) && !memcmp(e->dst, f->dst, alen);
}

static struct entry *find_or_make(struct bpfw_reasm *ra,
				  const struct bpfw_l3 *f, uint64_t now_ns)
{
	struct entry *free_e = NULL, *oldest = NULL;
	unsigned i;

	for (i = 0; i < ra->n; i++) {
		struct entry *e = &ra->e[i];

		if (same_key(e, f))
			return e;
		if (!e->used) {
			if (!free_e)
				free_e = e;
		} else if (!oldest || e->first_ns < oldest->first_ns) {
			oldest = e;
		}
	}
	if (!free_e) {
		/* Table full: the oldest datagram is the least likely to finish. */
		drop(ra, oldest, 1);
		free_e = oldest;
	}
	free_e->used = 1;
	free_e->family = f->family;
	free_e->proto = f->proto;
	free_e->id = f->frag_id;
	memcpy(free_e->src, f->src, 16);
	memcpy(free_e->dst, f->dst, 16);
	free_e->first_ns = now_ns;
	free_e->link_dst_bad = 0;
	return free_e;
}

static enum bpfw_reason reject(struct entry *e, enum bpfw_reason r)
{
	e->dead = 1;
	return r;
}

enum bpfw_reason bpfw_reasm_add(struct bpfw_reasm *ra, const struct bpfw_l3 *f,
				uint64_t now_ns, struct bpfw_l3 *whole)
{
	uint32_t off = f->frag_off, len = f->l4_len, end = off + len;
	struct entry *e;
	uint32_t i;

	ra->st.fragments++;
	e = find_or_make(ra, f, now_ns);
	if (e->dead) {
		ra->st.dead++;
		return BPFW_R_FRAGMENT;
	}
	if (len == 0 || (f->more_frags && len % 8))
		return reject(e, BPFW_R_FRAG_LENGTH);
	if (end > MAX_IP_PAYLOAD - (f->family == 4 ? 20 : 0))
		return reject(e, BPFW_R_FRAG_TOO_BIG);
	if (!f->more_frags) {
		if (e->total && e->total != end)
			return reject(e, BPFW_R_FRAG_LENGTH);
		for (i = 0; i < e->nranges; i++)
			if (e->r[i].off + e->r[i].len > end)
				return reject(e, BPFW_R_FRAG_LENGTH);
	} else if (e->total && end > e->total) {
		return reject(e, BPFW_R_FRAG_LENGTH);
	}
	for (i = 0; i < e->nranges; i++) {
		const struct range *r = &e->r[i];

		if (off >= r->off + r->len || end <= r->off)
			continue;
		/* A copy the network duplicated is harmless; anything else overlaps. */
		if (r->off == off && r->len == len &&
		    !memcmp(e->buf + off, f->l4, len)) {
			ra->st.duplicates++;
			return BPFW_R_FRAGMENT;
		}
		return reject(e, BPFW_R_FRAG_OVERLAP);	/* RFC 5722 */
	}
	if (e->nranges == MAX_FRAGS)
		return reject(e, BPFW_R_FRAG_TOO_MANY);
	if (end > e->cap) {
		uint32_t cap = e->cap ? e->cap : 2048;
		uint8_t *nb;

		while (cap < end)
			cap *= 2;
		nb = realloc(e->buf, cap);
		if (!nb)
			return reject(e, BPFW_R_FRAG_TOO_BIG);
		e->buf = nb;
		e->cap = cap;
	}
	memcpy(e->buf + off, f->l4, len);
	e->r[e->nranges++] = (struct range){ off, len };
	e->have += len;
	e->link_dst_bad |= f->link_dst_bad;
	if (off == 0) {
		e->ttl = f->ttl;
		e->df = f->df;
	}
	if (!f->more_frags)
		e->total = end;
	if (!e->total || e->have != e->total)
		return BPFW_R_FRAGMENT;

	/* Whole: no overlaps and every byte present. */
	memset(whole, 0, sizeof(*whole));
	whole->family = e->family;
	whole->ttl = e->ttl;
	whole->df = e->df;
	whole->link_dst_bad = e->link_dst_bad;
	memcpy(whole->src, e->src, 16);
	memcpy(whole->dst, e->dst, 16);
	whole->frag_id = e->id;
	whole->is_fragment = 1;
	whole->l4 = e->buf;
	whole->l4_len = e->total;
	whole->proto = e->proto;
	ra->st.reassembled++;
	drop(ra, e, 0);		/* buf stays allocated: l4 points into it */
	if (whole->family == 6) {
		struct bpfw_l3 tmp = { 0 };
		uint32_t hoff = 0;
		uint8_t nh = whole->proto;
		enum bpfw_reason r;

		/* The fragmentable part may begin with destination options. */
		r = bpfw_ip6_walk(&nh, whole->l4, whole->l4_len, &hoff, 0, &tmp);
		if (r == BPFW_R_FRAGMENT)
			return BPFW_R_IP6_NESTED_FRAGMENT;
		if (r != BPFW_R_OK)
			return r;
		whole->proto = nh;
		whole->l4 += hoff;
		whole->l4_len -= hoff;
	}
	return whole->proto == 17 ? BPFW_R_OK : BPFW_R_NOT_UDP;
}
