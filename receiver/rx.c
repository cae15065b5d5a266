// SPDX-License-Identifier: GPL-2.0-only
/* The validation pipeline: see rx.h. */
#include <stdlib.h>
#include <string.h>

#include "decrypt.h"
#include "rx.h"

int bpfw_rx_init(struct bpfw_rx *rx, const struct bpfw_rx_cfg *cfg)
{
	memset(rx, 0, sizeof(*rx));
	rx->cfg = *cfg;
	if (!rx->cfg.max_senders)
		rx->cfg.max_senders = 4096;
	if (!rx->cfg.frag_entries)
		rx->cfg.frag_entries = 64;
	if (!rx->cfg.frag_timeout_ns)
		rx->cfg.frag_timeout_ns = 30ull * 1000000000ull;	/* Linux ipfrag_time */
	rx->reasm = bpfw_reasm_new(rx->cfg.frag_entries, rx->cfg.frag_timeout_ns);
	/*
	 * Split, each side sees the same datagrams in the same order against
	 * the same limit, so both track the same senders and socket_matches_wire
	 * holds past the budget. Unsplit, one side is in use and has it all.
	 */
	if (rx->cfg.split_budget) {
		rx->budget[0].limit = rx->budget[1].limit = rx->cfg.state_budget / 2;
		if (rx->cfg.state_budget && !rx->budget[0].limit)
			rx->budget[0].limit = rx->budget[1].limit = 1;
	} else {
		rx->budget[0].limit = rx->cfg.state_budget;
	}
	rx->wire.senders = bpfw_senders_new(rx->cfg.max_senders, &rx->budget[0]);
	rx->sock.senders = bpfw_senders_new(rx->cfg.max_senders,
					    &rx->budget[rx->cfg.split_budget ? 1 : 0]);
	if (!rx->reasm || !rx->wire.senders || !rx->sock.senders) {
		bpfw_rx_fini(rx);
		return -1;
	}
	return 0;
}

void bpfw_rx_fini(struct bpfw_rx *rx)
{
	bpfw_reasm_free(rx->reasm);
	bpfw_senders_free(rx->wire.senders);
	bpfw_senders_free(rx->sock.senders);
	rx->reasm = NULL;
	rx->wire.senders = rx->sock.senders = NULL;
}

static void verdict(struct bpfw_rx *rx, struct bpfw_side *side,
		    struct bpfw_dgram_info *info, enum bpfw_reason r)
{
	info->reason = r;
	side->datagrams++;
	side->reasons[r]++;
	if (r == BPFW_R_OK)
		side->valid++;
	else
		side->invalid++;
	if (rx->cfg.cb)
		rx->cfg.cb(rx->cfg.cb_arg, info);
}

static int src_expected(const struct bpfw_rx_cfg *cfg, uint8_t family,
			const uint8_t *src, uint16_t sport)
{
	unsigned i;

	if (!cfg->nsrcs)
		return 1;
	for (i = 0; i < cfg->nsrcs; i++) {
		const struct bpfw_src_expect *e = &cfg->srcs[i];

		if (e->family == family &&
		    !memcmp(e->addr, src, family == 4 ? 4 : 16) &&
		    (!e->port || e->port == sport))
			return 1;
	}
	return 0;
}

/* A sequence event's verdict: not tracked, below the window, or a repeat under a key. */
static enum bpfw_reason seq_reason(const struct bpfw_dgram_info *info,
				   const struct bpfw_wire *w)
{
	switch (info->seq_event) {
	case BPFW_SEQ_FULL: return BPFW_R_TOO_MANY_SENDERS;
	case BPFW_SEQ_UNTRACKED: return BPFW_R_UNTRACKED;
	case BPFW_SEQ_DUPLICATE: return w->authenticated ? BPFW_R_REPLAY : BPFW_R_OK;
	case BPFW_SEQ_OLD: return BPFW_R_REPLAY_OLD;
	default: return BPFW_R_OK;
	}
}

/*
 * The layers both sides share: wire format and MAC, expectations, sequence,
 * then for v3 the payload's decryption: the clear header is sequenced (and
 * a replay refused) before any ciphertext is read.
 */
static void finish(struct bpfw_rx *rx, struct bpfw_side *side,
		   struct bpfw_dgram_info *info, const uint8_t *buf,
		   uint32_t len)
{
	uint8_t plain[BPFWIRE_MAX_PAYLOAD_V3];
	struct bpfw_wire w;
	enum bpfw_reason r;

	info->len = len;
	/* The MAC is checked here, before any per-sender state is looked up. */
	r = bpfw_parse_wire_key(buf, len, rx->cfg.key, &w);
	info->wire = &w;
	if (r != BPFW_R_OK && r != BPFW_R_ENCRYPTED)
		goto out;
	if (!src_expected(&rx->cfg, info->family, info->src, info->sport)) {
		r = BPFW_R_SRC_UNEXPECTED;
		goto out;
	}
	info->seq_event = bpfw_senders_record(side->senders, w.sender_id, w.epoch,
					      w.seq, w.authenticated,
					      info->family, info->src,
					      info->sport);
	r = seq_reason(info, &w);
	if (r != BPFW_R_OK)
		goto out;
	/* ENCRYPTED without the key: counted and sequenced, never parsed. */
	if (w.encrypted && (r = bpfw_wire_decrypt(rx->cfg.key, &w, plain)) != BPFW_R_OK)
		goto out;
	side->decrypted += w.decrypted;
	side->payload_bytes += w.payload_len;
	side->authenticated += w.authenticated;
	if (info->seq_event != BPFW_SEQ_DUPLICATE) {
		side->events += w.n_events;
		bpfw_senders_last(side->senders)->events += w.n_events;
	}
out:
	verdict(rx, side, info, r);
}

static void sync_incomplete(struct bpfw_rx *rx, uint64_t ts_ns)
{
	const struct bpfw_reasm_stats *st = bpfw_reasm_stats(rx->reasm);

	/* Each datagram that never completed is one invalid datagram. */
	while (rx->incomplete_counted < st->incomplete) {
		struct bpfw_dgram_info info = {
			.side = BPFW_SIDE_WIRE, .ts_ns = ts_ns, .fragmented = 1,
		};

		rx->incomplete_counted++;
		verdict(rx, &rx->wire, &info, BPFW_R_FRAG_INCOMPLETE);
	}
}

void bpfw_rx_expire(struct bpfw_rx *rx, uint64_t now_ns)
{
	bpfw_reasm_expire(rx->reasm, now_ns);
	sync_incomplete(rx, now_ns == UINT64_MAX ? 0 : now_ns);
}

enum bpfw_reason bpfw_rx_frame(struct bpfw_rx *rx, uint64_t ts_ns,
			       const uint8_t *frame, uint32_t caplen,
			       uint32_t wirelen)
{
	struct bpfw_side *side = &rx->wire;
	struct bpfw_dgram_info info = { .side = BPFW_SIDE_WIRE, .ts_ns = ts_ns };
	struct bpfw_l3 l3, whole;
	const struct bpfw_l3 *ip = &l3;
	struct bpfw_udp udp;
	enum bpfw_reason r;

	side->frames++;
	r = bpfw_parse_frame(&rx->cfg.link, frame, caplen, wirelen, &l3);
	if (r == BPFW_R_FRAGMENT) {
		bpfw_reasm_expire(rx->reasm, ts_ns);
		r = bpfw_reasm_add(rx->reasm, &l3, ts_ns, &whole);
		sync_incomplete(rx, ts_ns);
		if (r == BPFW_R_FRAGMENT)
			return r;
		ip = &whole;
		info.fragmented = 1;
	}
	info.family = ip->family;
	memcpy(info.src, ip->src, 16);
	memcpy(info.dst, ip->dst, 16);
	switch (bpfw_reason_class(r)) {
	case BPFW_CLASS_IGNORED:
		side->ignored++;
		return r;
	case BPFW_CLASS_INVALID:
		verdict(rx, side, &info, r);
		return r;
	default:
		break;
	}

	r = bpfw_parse_udp(ip, ip->l4, ip->l4_len, rx->cfg.port, &udp);
	info.sport = udp.sport;
	info.dport = udp.dport;
	if (r == BPFW_R_OTHER_PORT) {
		side->ignored++;
		return r;
	}
	if (r == BPFW_R_UDP_CHECKSUM_PARTIAL && rx->cfg.accept_csum_partial) {
		side->udp_csum_partial++;
		r = BPFW_R_OK;
	}
	if (r == BPFW_R_OK && ip->link_dst_bad)
		r = BPFW_R_ETH_DST;
	if (r != BPFW_R_OK) {
		verdict(rx, side, &info, r);
		return r;
	}
	if (udp.csum_zero)
		side->udp_csum_zero++;
	if (ip->family == 4 && ip->df)
		side->ip4_df++;
	finish(rx, side, &info, udp.data, udp.data_len);
	return info.reason;
}

enum bpfw_reason bpfw_rx_socket(struct bpfw_rx *rx, uint64_t ts_ns,
				uint8_t family, const uint8_t *src,
				uint16_t sport, const uint8_t *buf, uint32_t len)
{
	struct bpfw_dgram_info info = {
		.side = BPFW_SIDE_SOCKET, .ts_ns = ts_ns,
		.family = family, .sport = sport, .dport = rx->cfg.port,
	};

	rx->sock.frames++;
	memcpy(info.src, src, family == 4 ? 4 : 16);
	finish(rx, &rx->sock, &info, buf, len);
	return info.reason;
}
