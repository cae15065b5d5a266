// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv's expectations: each becomes a named check, and the
 * one human line says the verdict and the counts.
 */
#define _GNU_SOURCE
#include <string.h>

#include "recv_capture.h"
#include "recv_run.h"
#include "recv_verdict.h"

/* ---- expectations and reports ---- */

struct totals side_totals(struct bpfw_senders *s)
{
	struct totals t = { 0 };
	unsigned i;

	for (i = 0; i < bpfw_senders_count(s); i++) {
		const struct bpfw_sender *snd = bpfw_senders_get(s, i);

		t.received += snd->received;
		t.lost += bpfw_sender_lost(snd);
		t.duplicates += snd->duplicates;
		t.replays += snd->replays;
		t.reordered += snd->reordered;
	}
	return t;
}

static void check(struct checks *c, const char *name, int ok, const char *rel,
		  long long expected, long long actual)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "expected", json_object_new_int64(expected));
	json_object_object_add(o, "relation", json_object_new_string(rel));
	json_object_object_add(o, "actual", json_object_new_int64(actual));
	json_object_array_add(c->list, o);
	if (!ok) {
		json_object_array_add(c->failed, json_object_new_string(name));
		if (c->off < sizeof(c->line))
			c->off += (size_t)snprintf(c->line + c->off,
				sizeof(c->line) - c->off, "%s%s: %lld %s %lld",
				c->off ? ", " : "", name, actual,
				!strcmp(rel, "==") ? "!=" : ">", expected);
	}
}

static int src_seen(const struct bpfw_src_expect *e, struct bpfw_senders *s)
{
	unsigned i;

	for (i = 0; i < bpfw_senders_count(s); i++) {
		const struct bpfw_sender *snd = bpfw_senders_get(s, i);

		if (snd->family == e->family &&
		    !memcmp(snd->src, e->addr, e->family == 4 ? 4 : 16) &&
		    (!e->port || e->port == snd->sport))
			return 1;
	}
	return 0;
}

void evaluate(struct run *run, struct checks *c)
{
	struct opts *o = run->o;
	int wire = run->capture || !run->live;
	/* Loss and order come from the wire when we saw it, else the socket. */
	struct bpfw_side *main_side = wire ? &run->rx.wire : &run->rx.sock;
	struct totals t = side_totals(main_side->senders);
	unsigned i;

	if (!o->allow_invalid)
		check(c, "no_invalid", run->rx.wire.invalid + run->rx.sock.invalid == 0,
		      "==", 0, (long long)(run->rx.wire.invalid + run->rx.sock.invalid));
	if (o->expect_count != UNSET) {
		if (wire)
			check(c, "expect_count_wire",
			      total_received(run->rx.wire.senders) == (uint64_t)o->expect_count,
			      "==", o->expect_count,
			      (long long)total_received(run->rx.wire.senders));
		if (run->live)
			check(c, "expect_count_socket",
			      total_received(run->rx.sock.senders) == (uint64_t)o->expect_count,
			      "==", o->expect_count,
			      (long long)total_received(run->rx.sock.senders));
	}
	if (o->max_loss != UNSET)
		check(c, "max_loss", t.lost <= (uint64_t)o->max_loss, "<=",
		      o->max_loss, (long long)t.lost);
	if (o->max_dup != UNSET)
		check(c, "max_dup", t.duplicates <= (uint64_t)o->max_dup, "<=",
		      o->max_dup, (long long)t.duplicates);
	if (o->max_reorder != UNSET)
		check(c, "max_reorder", t.reordered <= (uint64_t)o->max_reorder, "<=",
		      o->max_reorder, (long long)t.reordered);
	if (o->nsrcs) {
		unsigned seen = 0;

		for (i = 0; i < o->nsrcs; i++)
			seen += src_seen(&o->srcs[i], main_side->senders);
		check(c, "expect_src_all_seen", seen == o->nsrcs, "==",
		      o->nsrcs, seen);
	}
	if (run->live && run->capture) {
		struct bpfw_senders *ws = run->rx.wire.senders, *ss = run->rx.sock.senders;
		unsigned mismatched = 0;

		/* Every sender's distinct count agrees on both sides. */
		for (i = 0; i < bpfw_senders_count(ws); i++) {
			const struct bpfw_sender *w = bpfw_senders_get(ws, i);
			const struct bpfw_sender *s = NULL;
			unsigned j;

			for (j = 0; j < bpfw_senders_count(ss); j++)
				if (bpfw_senders_get(ss, j)->sender_id == w->sender_id &&
				    bpfw_senders_get(ss, j)->epoch == w->epoch)
					s = bpfw_senders_get(ss, j);
			if (!s || s->received != w->received)
				mismatched++;
		}
		if (bpfw_senders_count(ss) > bpfw_senders_count(ws))
			mismatched += bpfw_senders_count(ss) - bpfw_senders_count(ws);
		check(c, "socket_matches_wire", mismatched == 0, "==", 0, mismatched);
		check(c, "capture_complete", !run->have_pst || run->pst.ps_drop == 0,
		      "==", 0, run->have_pst ? (long long)run->pst.ps_drop : 0);
	}
	/* Socket drops are loss too: --max-loss any (the benchmark) allows them. */
	if (run->live && o->max_loss != UNSET)
		check(c, "socket_no_drops", run->sock_drops_u32 <= o->max_loss, "<=", o->max_loss,
		      run->sock_drops_u32);
}


void print_line(struct run *run, struct checks *c)
{
	struct bpfw_side *w = &run->rx.wire, *s = &run->rx.sock;
	int wire_on = run->capture || !run->live;
	struct totals t = side_totals((wire_on ? w : s)->senders);
	double el = run->t_end - run->t_start;
	char reasons[256] = "";
	size_t off = 0;
	unsigned i;

	for (i = 0; i < BPFW_R__COUNT && off < sizeof(reasons); i++)
		if (bpfw_reason_class(i) == BPFW_CLASS_INVALID &&
		    w->reasons[i] + s->reasons[i])
			off += (size_t)snprintf(reasons + off, sizeof(reasons) - off,
				"%s%s=%llu", off ? " " : " [", bpfw_reason_name(i),
				(unsigned long long)(w->reasons[i] + s->reasons[i]));
	if (off && off < sizeof(reasons) - 1)
		strcat(reasons, "]");
	printf("bpfwire-recv: %s%s%s%s: ", c->off ? "FAIL (" : "PASS",
	       c->line, c->off ? ")" : "", run->interrupted ? " interrupted" : "");
	if (wire_on)
		printf("wire %llu valid %llu invalid%s",
		       (unsigned long long)w->valid, (unsigned long long)w->invalid,
		       run->live ? "; " : "");
	if (run->live)
		printf("socket %llu valid %llu invalid",
		       (unsigned long long)s->valid, (unsigned long long)s->invalid);
	printf("%s; %u sender%s: %llu received, %llu lost, %llu dup, %llu reordered; "
	       "%.3f s, %.0f frames/s\n", reasons,
	       bpfw_senders_count((wire_on ? w : s)->senders),
	       bpfw_senders_count((wire_on ? w : s)->senders) == 1 ? "" : "s",
	       (unsigned long long)t.received, (unsigned long long)t.lost,
	       (unsigned long long)t.duplicates, (unsigned long long)t.reordered,
	       el, el > 0 ? w->frames / el : 0.0);
	fflush(stdout);
}
