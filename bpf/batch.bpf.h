/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --batch for the senders that include sender.bpf.h (ksock): up to
 * cfg.batch events per wire-v2 datagram (bpf/README.md, "Batching").
 *
 * The LSM programs are sleepable and run on every CPU at once, so the open
 * batch lives in map "batch" and is appended to under its bpf_spin_lock.
 * The task that closes a batch copies it, still under the lock, into its
 * own task storage (batch_out), which no other task writes, then seals,
 * signs and sends it with no lock held: a kfunc may not run under the
 * lock, and the 512-byte stack cannot hold a 1452-byte datagram. A timer
 * cannot send (ksock refuses async callbacks), so a partial batch waits for
 * the next event, or for SYSCALL program bpfwire_flush (`bpfwire-agent
 * flush`, and unload).
 *
 * Included by sender.bpf.h; cfg, the maps and the counters are
 * sender_base.bpf.h's, and the send is the sender's bpfwire_xmit() (a
 * buffer in a map value, 56 + used bytes).
 */
#ifndef BPFWIRE_BATCH_BPF_H
#define BPFWIRE_BATCH_BPF_H

#include "sign.bpf.h"
#include "sender_base.bpf.h"

/*
 * SipHash goes through sign.bpf.h's block callback, which reads at most
 * BPFWIRE_SIP_MAX_BLOCKS blocks from its msg: a batch takes SIP_CHUNKS
 * calls, each from msg + SIP_CHUNK further, and the buffer is long enough
 * for the last call's bound.
 */
#define SIP_CHUNK	(BPFWIRE_SIP_MAX_BLOCKS * 8)
#define SIP_CHUNKS	((BPFWIRE_BATCH_DGRAM / 8 + BPFWIRE_SIP_MAX_BLOCKS - 1) / \
			 BPFWIRE_SIP_MAX_BLOCKS)
#define BATCH_BLOCKS	(BPFWIRE_BATCH_DGRAM / 8)

struct bpfwire_out {
	__u8 d[SIP_CHUNKS * SIP_CHUNK];
};

_Static_assert(sizeof(struct bpfwire_out) >= OFF_PAYLOAD + BPFWIRE_BATCH_WORDS * 8,
	       "batch_out holds a whole batch");
_Static_assert(sizeof(struct bpfwire_out) >= BATCH_BLOCKS * 8 + 8,
	       "batch_out holds the last FNV block and SipHash word");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct bpfwire_out);
} batch_out SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwire_batch);
} batch SEC(".maps");

struct batch_meta {
	__u32 n, used, type;
	__u64 ts, seq;
};

/*
 * Under b->lock (no calls): move the batch into out's payload, empty it.
 * The seq is taken here too, so seq order is the order batches closed;
 * only batch closers touch st->seq, all under this lock. The sends may
 * still leave in another order (two closers, no lock held to send).
 */
static __always_inline void batch_take(struct bpfwire_batch *b, struct bpfwire_out *out,
				       struct batch_meta *m, struct bpfwire_state *st)
{
	int i;

	m->seq = ++st->seq;
	m->n = b->n;
	m->used = b->used;
	m->type = b->type;
	m->ts = b->ts_first;
#pragma unroll
	for (i = 0; i < BPFWIRE_BATCH_WORDS; i++)
		*(__u64 *)(out->d + OFF_PAYLOAD + i * 8) = *(__u64 *)(b->data + i * 8);
	b->n = 0;
	b->used = 0;
}

struct bpfwire_fnv {
	__u32 h;
	const __u8 *msg;
};

static long bpfwire_fnv_block(__u64 i, void *ctx)
{
	struct bpfwire_fnv *f = ctx;
	const __u8 *p;
	__u32 h = f->h;
	int j;

	if (i >= BATCH_BLOCKS)
		return 1;
	p = f->msg + i * 8;
#pragma unroll
	for (j = 0; j < 8; j++) {
		h ^= p[j];
		h *= BPFWIRE_FNV_PRIME;
	}
	f->h = h;
	return 0;
}

/* wire.h's FNV-1a over d[0..len), 8 bytes per bpf_loop() step, then stored. */
static __always_inline void batch_seal(__u8 *d, __u32 len)
{
	struct bpfwire_fnv f = { .h = BPFWIRE_FNV_OFFSET, .msg = d };
	__u32 nb = len / 8, j;

	if (nb > BATCH_BLOCKS)
		return;
	bpf_loop(nb, bpfwire_fnv_block, &f, 0);
	for (j = 0; j < 7; j++) {
		if (j >= (len & 7))
			break;
		f.h ^= d[nb * 8 + j];
		f.h *= BPFWIRE_FNV_PRIME;
	}
	bpfwire_put32(d + BPFWIRE_OFF_CHECK, f.h);
}

/* sign.bpf.h's bpfwire_siphash_bpf() for up to BPFWIRE_BATCH_DGRAM bytes. */
static __always_inline __u64 batch_sign(const __u8 *key, const __u8 *d, __u32 len)
{
	struct bpfwire_sip s;
	__u32 nb = len / 8, rest = nb, k;
	int c;

	if (nb > BATCH_BLOCKS)
		return 0;
	bpfwire_sip_init(&s, key, d);
#pragma unroll
	for (c = 0; c < SIP_CHUNKS; c++) {
		k = rest < BPFWIRE_SIP_MAX_BLOCKS ? rest : BPFWIRE_SIP_MAX_BLOCKS;
		bpf_loop(k, bpfwire_sip_block, &s, 0);
		rest -= k;
		s.msg += SIP_CHUNK;
	}
	return bpfwire_sip_finish(&s, d, len);
}

/* A taken batch: header, check, tag, send, count. */
static __always_inline int batch_send(struct bpfwire_out *out, const struct batch_meta *m,
				      struct bpfwire_stats *s, const __u8 *key)
{
	__u32 used = m->used, len;
	int ret;

	if (!m->n || used > BPFWIRE_BATCH_PAYLOAD)
		return 0;
	len = OFF_PAYLOAD + used;
	bpfwire_put_hdr_v2n(out->d, m->type, cfg.sender_id, used, m->seq, m->ts,
			    cfg.key_id, cfg.epoch, m->n);
	batch_seal(out->d, len);
	if (cfg.key_id)
		bpfwire_put_tag(out->d, batch_sign(key, out->d, len));
	ret = bpfwire_xmit(out->d, len);
	bpfwire_count_sent(s, ret, len, m->n);
	return ret;
}

/* One event (evlen bytes at ev, on the stack, 8-aligned) into the batch. */
static __always_inline void bpfwire_batch_event(__u8 type, const __u8 *ev, __u32 evlen,
						__u64 t_hook, struct bpfwire_stats *s,
						struct bpfwire_state *st, const __u8 *key)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct batch_meta m = {};
	struct bpfwire_batch *b;
	struct bpfwire_out *out;
	__u32 k0 = 0, used;
	int act, i;

	b = bpf_map_lookup_elem(&batch, &k0);
	out = bpf_task_storage_get(&batch_out, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!b || !out) {
		bpfwire_count_err(s, -ENOMEM);
		__sync_fetch_and_add(&s->events_failed, 1);
		return;
	}
	bpf_spin_lock(&b->lock);
	act = bpfwire_batch_step(b->n, b->used, b->type, b->ts_first, type, evlen,
				 t_hook, cfg.batch, cfg.batch_age_ms * 1000000ULL);
	if (act & BPFWIRE_CLOSE_BEFORE)
		batch_take(b, out, &m, st);
	used = b->used;
	if (used > BPFWIRE_BATCH_PAYLOAD) {	/* never: a bound for the verifier */
		bpf_spin_unlock(&b->lock);
		bpfwire_count_err(s, -EOVERFLOW);
		__sync_fetch_and_add(&s->events_failed, 1);
		return;
	}
#pragma unroll
	for (i = 0; i < BPFWIRE_EVENT_WORDS; i++)
		*(__u64 *)(b->data + used + i * 8) = *(const __u64 *)(ev + i * 8);
	if (!b->n) {
		b->ts_first = t_hook;
		b->type = type;
	}
	b->n++;
	b->used = used + evlen;
	/* One taken batch per event: out holds one. */
	if (act == BPFWIRE_CLOSE_AFTER)
		batch_take(b, out, &m, st);
	bpf_spin_unlock(&b->lock);
	__sync_fetch_and_add(&s->events_batched, 1);
	if (m.n)
		batch_send(out, &m, s, key);
}

/*
 * `bpfwire-agent flush` and unload: send the partial batch now. Returns
 * the events sent (0: none waiting), or the send's -errno (counted).
 */
SEC("syscall")
int bpfwire_flush(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct batch_meta m = {};
	struct bpfwire_key *key_val;
	struct bpfwire_stats *s;
	struct bpfwire_state *st;
	struct bpfwire_batch *b;
	struct bpfwire_out *out;
	__u32 k0 = 0;
	int ret;

	s = bpf_map_lookup_elem(&stats, &k0);
	st = bpf_map_lookup_elem(&state, &k0);
	key_val = bpf_map_lookup_elem(&sign_key, &k0);
	b = bpf_map_lookup_elem(&batch, &k0);
	if (!s || !st || !key_val || !b)
		return -ENOENT;
	out = bpf_task_storage_get(&batch_out, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!out)
		return -ENOMEM;
	bpf_spin_lock(&b->lock);
	if (b->n)
		batch_take(b, out, &m, st);
	bpf_spin_unlock(&b->lock);
	if (!m.n)
		return 0;
	ret = batch_send(out, &m, s, key_val->k);
	return ret < 0 ? ret : (int)m.n;
}

#endif /* BPFWIRE_BATCH_BPF_H */
