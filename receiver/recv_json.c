// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv's JSON summary (fields listed in recv-json.fields).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "recv_capture.h"
#include "recv_json.h"
#include "recv_run.h"
#include "recv_verdict.h"

/* One sender's counts; add_to sums a second epoch of the same id into o. */
static void sender_counts(json_object *o, const struct bpfw_sender *snd, int add_to)
{
	static const char *const keys[] = {
		"received", "lost", "duplicates", "replays", "reordered", "stale", "events",
	};
	uint64_t v[] = {
		snd->received, bpfw_sender_lost(snd), snd->duplicates, snd->replays,
		snd->reordered, snd->stale, snd->events,
	};
	json_object *old;
	unsigned i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (add_to && json_object_object_get_ex(o, keys[i], &old))
			v[i] += json_object_get_uint64(old);
		json_object_object_add(o, keys[i], json_object_new_uint64(v[i]));
	}
}

static json_object *sender_json(const struct bpfw_sender *snd)
{
	json_object *so = json_object_new_object();
	char a[INET6_ADDRSTRLEN], ep[20];

	fmt_addr(snd->family, snd->src, a, sizeof(a));
	json_object_object_add(so, "src", json_object_new_string(a));
	json_object_object_add(so, "sport", json_object_new_int(snd->sport));
	sender_counts(so, snd, 0);
	json_object_object_add(so, "first_seq", json_object_new_uint64(snd->first_seq));
	json_object_object_add(so, "last_seq", json_object_new_uint64(snd->last_seq));
	snprintf(ep, sizeof(ep), "%016llx", (unsigned long long)snd->epoch);
	json_object_object_add(so, "epoch", json_object_new_string(ep));
	json_object_object_add(so, "state_bytes", json_object_new_uint64(bpfw_sender_bytes(snd)));
	return so;
}

/*
 * senders, keyed by id. A reinstalled sender (several epochs) sums its
 * epochs' counts, spans their first and last seq, and lists each in epochs.
 */
static json_object *senders_json(struct bpfw_senders *ss)
{
	json_object *senders = json_object_new_object();
	json_object *so = NULL, *epochs = NULL;
	const struct bpfw_sender *snd, *prev = NULL;
	char id[16];
	unsigned i;

	for (i = 0; i < bpfw_senders_count(ss); i++, prev = snd) {
		snd = bpfw_senders_get(ss, i);
		if (prev && prev->sender_id == snd->sender_id) {
			json_object *e = sender_json(snd);

			if (!epochs) {
				epochs = json_object_new_object();
				json_object_object_add(epochs, json_object_get_string(
					json_object_object_get(so, "epoch")), sender_json(prev));
				json_object_object_add(so, "epochs", epochs);
			}
			json_object_object_add(epochs, json_object_get_string(
				json_object_object_get(e, "epoch")), e);
			sender_counts(so, snd, 1);
			if (snd->first_seq < json_object_get_uint64(json_object_object_get(so, "first_seq")))
				json_object_object_add(so, "first_seq",
					json_object_new_uint64(snd->first_seq));
			if (snd->last_seq > json_object_get_uint64(json_object_object_get(so, "last_seq")))
				json_object_object_add(so, "last_seq",
					json_object_new_uint64(snd->last_seq));
			continue;
		}
		so = sender_json(snd);
		epochs = NULL;
		snprintf(id, sizeof(id), "%u", snd->sender_id);
		json_object_object_add(senders, id, so);
	}
	return senders;
}

static json_object *side_json(struct bpfw_side *s)
{
	json_object *o = json_object_new_object();
	json_object *reasons = json_object_new_object();
	json_object *ignored = json_object_new_object();
	struct totals t = side_totals(s->senders);
	unsigned i;

	json_object_object_add(o, "frames", json_object_new_uint64(s->frames));
	json_object_object_add(o, "ignored", json_object_new_uint64(s->ignored));
	json_object_object_add(o, "datagrams", json_object_new_uint64(s->datagrams));
	json_object_object_add(o, "valid", json_object_new_uint64(s->valid));
	json_object_object_add(o, "invalid", json_object_new_uint64(s->invalid));
	/* Every invalid reason, zero or not: a stable schema for the lab. */
	for (i = 0; i < BPFW_R__COUNT; i++) {
		enum bpfw_class cls = bpfw_reason_class(i);

		if (cls == BPFW_CLASS_INVALID)
			json_object_object_add(reasons, bpfw_reason_name(i),
					       json_object_new_uint64(s->reasons[i]));
	}
	json_object_object_add(o, "reasons", reasons);
	json_object_object_add(o, "ignored_reasons", ignored);
	json_object_object_add(o, "udp_csum_zero", json_object_new_uint64(s->udp_csum_zero));
	json_object_object_add(o, "udp_csum_partial", json_object_new_uint64(s->udp_csum_partial));
	json_object_object_add(o, "ip4_df", json_object_new_uint64(s->ip4_df));
	json_object_object_add(o, "payload_bytes", json_object_new_uint64(s->payload_bytes));
	json_object_object_add(o, "events", json_object_new_uint64(s->events));
	json_object_object_add(o, "authenticated", json_object_new_uint64(s->authenticated));
	json_object_object_add(o, "decrypted", json_object_new_uint64(s->decrypted));
	json_object_object_add(o, "received", json_object_new_uint64(t.received));
	json_object_object_add(o, "lost", json_object_new_uint64(t.lost));
	json_object_object_add(o, "duplicates", json_object_new_uint64(t.duplicates));
	json_object_object_add(o, "replays", json_object_new_uint64(t.replays));
	json_object_object_add(o, "reordered", json_object_new_uint64(t.reordered));
	json_object_object_add(o, "tracked", json_object_new_uint64(bpfw_senders_count(s->senders)));
	json_object_object_add(o, "senders", senders_json(s->senders));
	return o;
}

static void add_ignored_reasons(json_object *side, struct bpfw_side *s)
{
	json_object *ign;
	unsigned i;

	json_object_object_get_ex(side, "ignored_reasons", &ign);
	for (i = 0; i < BPFW_R__COUNT; i++)
		if (bpfw_reason_class(i) == BPFW_CLASS_IGNORED && s->reasons[i])
			json_object_object_add(ign, bpfw_reason_name(i),
					       json_object_new_uint64(s->reasons[i]));
}

/* The memory the run took: sender state against its budget, and peak RSS. */
static json_object *state_json(struct run *run)
{
	json_object *o = json_object_new_object();
	const struct bpfw_budget *b = run->rx.budget;
	int split = run->rx.cfg.split_budget;
	struct rusage ru;

	/* Split, the two peaks may fall apart: their sum bounds the real one. */
	json_object_object_add(o, "budget_bytes", json_object_new_uint64(run->rx.cfg.state_budget));
	json_object_object_add(o, "split", json_object_new_boolean(split));
	json_object_object_add(o, "bytes", json_object_new_uint64(
		b[0].used + (split ? b[1].used : 0)));
	json_object_object_add(o, "peak_bytes", json_object_new_uint64(
		b[0].peak + (split ? b[1].peak : 0)));
	/* Before the summary is built, which is not sender state. */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		json_object_object_add(o, "max_rss_kb", json_object_new_int64(ru.ru_maxrss));
	return o;
}

json_object *summary_json(struct run *run, struct checks *c)
{
	struct opts *o = run->o;
	json_object *root = json_object_new_object();
	json_object *cfg = json_object_new_object();
	json_object *wire, *sock, *srcs = json_object_new_array();
	const struct bpfw_reasm_stats *rs = bpfw_reasm_stats(run->rx.reasm);
	double el = run->t_end - run->t_start;
	int wire_on = run->capture || !run->live;
	char mac[18];
	unsigned i;

	json_object_object_add(root, "tool", json_object_new_string("bpfwire-recv"));
	json_object_object_add(root, "version", json_object_new_string("0.1.0"));
	json_object_object_add(root, "mode", json_object_new_string(run->live ? "live" : "offline"));
	json_object_object_add(cfg, "port", json_object_new_int(run->port));
	if (run->live)
		json_object_object_add(cfg, "family", json_object_new_int(o->family));
	if (o->bind)
		json_object_object_add(cfg, "bind", json_object_new_string(o->bind));
	if (o->iface)
		json_object_object_add(cfg, "iface", json_object_new_string(o->iface));
	if (o->read)
		json_object_object_add(cfg, "read", json_object_new_string(o->read));
	if (o->have_mac) {
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", o->mac[0],
			 o->mac[1], o->mac[2], o->mac[3], o->mac[4], o->mac[5]);
		json_object_object_add(cfg, "mac", json_object_new_string(mac));
	}
	json_object_object_add(cfg, "dst_mac_checked", json_object_new_boolean(o->have_mac ||
				(run->capture && run->rx.cfg.link.link != BPFW_LINK_ETH)));
	if (o->expect_count != UNSET)
		json_object_object_add(cfg, "expect_count", json_object_new_int64(o->expect_count));
	for (i = 0; i < o->nsrcs; i++)
		json_object_array_add(srcs, json_object_new_string(o->src_text[i]));
	json_object_object_add(cfg, "expect_src", srcs);
	json_object_object_add(cfg, "accept_csum_partial", json_object_new_boolean(o->accept_partial));
	json_object_object_add(cfg, "authenticated", json_object_new_boolean(o->have_key));
	json_object_object_add(cfg, "decrypts", json_object_new_boolean(o->key.has_enc));
	if (o->key.key_id >= 0)
		json_object_object_add(cfg, "key_id", json_object_new_int(o->key.key_id));
	json_object_object_add(cfg, "max_senders", json_object_new_int64(o->max_senders));
	json_object_object_add(cfg, "state_budget_mb", json_object_new_double(o->budget_mb));
	if (o->timeout)
		json_object_object_add(cfg, "timeout_s", json_object_new_double(o->timeout));
	if (o->until_idle)
		json_object_object_add(cfg, "until_idle_s", json_object_new_double(o->until_idle));
	json_object_object_add(root, "config", cfg);
	json_object_object_add(root, "elapsed_s", json_object_new_double(el));
	json_object_object_add(root, "frames_per_s", json_object_new_double(
		el > 0 ? run->rx.wire.frames / el : 0));
	/* The wire's own clock: what a rate at the receiver is measured over. */
	json_object_object_add(root, "arrival_span_s", json_object_new_double(
		run->ts_last > run->ts_first ? (run->ts_last - run->ts_first) / 1e9 : 0));
	json_object_object_add(root, "stopped_by", json_object_new_string(
		run->stop_reason ? run->stop_reason : "?"));
	json_object_object_add(root, "interrupted", json_object_new_boolean(run->interrupted));
	json_object_object_add(root, "state", state_json(run));

	wire = side_json(&run->rx.wire);
	add_ignored_reasons(wire, &run->rx.wire);
	json_object_object_add(wire, "enabled", json_object_new_boolean(wire_on));
	{
		json_object *fr = json_object_new_object();

		json_object_object_add(fr, "fragments", json_object_new_uint64(rs->fragments));
		json_object_object_add(fr, "reassembled", json_object_new_uint64(rs->reassembled));
		json_object_object_add(fr, "duplicates", json_object_new_uint64(rs->duplicates));
		json_object_object_add(fr, "incomplete", json_object_new_uint64(rs->incomplete));
		json_object_object_add(fr, "after_reject", json_object_new_uint64(rs->dead));
		json_object_object_add(wire, "fragments", fr);
	}
	if (run->have_pst) {
		json_object *cap = json_object_new_object();

		json_object_object_add(cap, "received", json_object_new_uint64(run->pst.ps_recv));
		json_object_object_add(cap, "dropped", json_object_new_uint64(run->pst.ps_drop));
		json_object_object_add(cap, "if_dropped", json_object_new_uint64(run->pst.ps_ifdrop));
		json_object_object_add(wire, "capture", cap);
	}
	sock = side_json(&run->rx.sock);
	json_object_object_add(sock, "enabled", json_object_new_boolean(run->live));
	if (run->live)
		json_object_object_add(sock, "drops", json_object_new_uint64(run->sock_drops_u32));

	/* Headline counts: the wire when we saw it, else the socket. */
	{
		struct bpfw_side *m = wire_on ? &run->rx.wire : &run->rx.sock;

		json_object_object_add(root, "valid", json_object_new_uint64(m->valid));
		json_object_object_add(root, "invalid", json_object_new_uint64(m->invalid));
		json_object_object_add(root, "wire_count", json_object_new_uint64(run->rx.wire.valid));
		json_object_object_add(root, "socket_count", json_object_new_uint64(run->rx.sock.valid));
	}
	json_object_object_add(root, "wire", wire);
	json_object_object_add(root, "socket", sock);
	json_object_object_add(root, "expectations", json_object_get(c->list));
	json_object_object_add(root, "failed", json_object_get(c->failed));
	json_object_object_add(root, "verdict", json_object_new_string(
		json_object_array_length(c->failed) ? "fail" : "pass"));
	return root;
}

int write_json(const char *path, json_object *root)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		pr_warn("--json: path too long");
		return -1;
	}
	if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE) || rename(tmp, path)) {
		pr_warn("couldn't write JSON summary %s: %s", path,
			json_util_get_last_err() ? json_util_get_last_err() :
			errno_str(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
