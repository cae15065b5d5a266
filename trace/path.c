// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-path RUN
 *
 * Turns each guest's RUN/hosts/NAME/trace.jsonl (written by bpfwire-trace)
 * into RUN/hosts/NAME/path.json, and all of them into RUN/path.txt and
 * RUN/path.svg. A datagram is (sender id, seq, path); its records are ordered
 * by time and given offsets from its first one. Every segment capture
 * RUN/segments/NAME.pcap is searched for the same (sender id, seq): the capture
 * positions. Exit 0, or 1 with a message if a file can't be read or written.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <json-c/json.h>
#include <pcap/pcap.h>
#include "cli.h"
#include "errnames.h"
#include "log.h"
#include "parse.h"
#include "probes.h"
#include "datagram.h"
#include "svg.h"

static const char *path_name(int p)
{
	return p == TR_PATH_KSOCK ? "ksock" : p == TR_PATH_NETPOLL ? "netpoll" : "none";
}

static int path_by_name(const char *s)
{
	return !strcmp(s, "ksock") ? TR_PATH_KSOCK : !strcmp(s, "netpoll") ? TR_PATH_NETPOLL : 0;
}

static const char *dg_end_name(enum dg_end e)
{
	switch (e) {
	case END_DRIVER: return "driver";
	case END_DROPPED: return "dropped";
	case END_FAILED: return "failed";
	default: return "incomplete";
	}
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		pr_warn("out of memory");
		exit(1);
	}
	return p;
}

/* ---------------------------------------------------------------- read */

static struct datagram *dg_find(struct host *h, uint32_t sender, uint64_t seq, int path, int fresh)
{
	/* The newest instance: a sender id reused by a later load starts anew. */
	for (int i = h->ndgs - 1; i >= 0 && !fresh; i--) {
		struct datagram *d = &h->dgs[i];

		if (d->sender == sender && d->seq == seq && d->path == path)
			return d;
	}
	if (h->ndgs == h->capdgs) {
		h->capdgs = h->capdgs ? h->capdgs * 2 : 64;
		h->dgs = xrealloc(h->dgs, h->capdgs * sizeof(*h->dgs));
	}
	memset(&h->dgs[h->ndgs], 0, sizeof(h->dgs[0]));
	h->dgs[h->ndgs].sender = sender;
	h->dgs[h->ndgs].seq = seq;
	h->dgs[h->ndgs].path = path;
	return &h->dgs[h->ndgs++];
}

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

static int jhas(json_object *o, const char *k, json_object **v)
{
	return json_object_object_get_ex(o, k, v);
}

static int read_trace(struct host *h, const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int err = 0;

	if (!f) {
		pr_warn("couldn't open %s: %s", file, errno_str(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o, *v;
		const char *type, *probe, *ev;
		struct datagram *d;
		struct rec *r;
		int p, kfunc_entry;

		lineno++;
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			pr_warn("%s:%ld: not a JSON object", file, lineno);
			json_object_put(o);
			err = -1;
			break;
		}
		type = jstr(o, "type");
		if (type) {
			if (!strcmp(type, "end")) {
				h->have_end = 1;
				if (jhas(o, "records", &v))
					h->records = json_object_get_int64(v);
				if (jhas(o, "lost", &v))
					h->lost = json_object_get_int64(v);
			}
			json_object_put(o);
			continue;
		}
		probe = jstr(o, "probe");
		ev = jstr(o, "ev");
		p = probe ? tr_probe_by_name(probe) : -1;
		if (p < 0 || !ev || !jstr(o, "path") || !jhas(o, "t", &v)) {
			pr_warn("%s:%ld: a record needs t, probe (a known one), ev and path", file, lineno);
			json_object_put(o);
			err = -1;
			break;
		}
		kfunc_entry = tr_probes[p].layer == L_KFUNC && !strcmp(ev, "entry");
		d = dg_find(h, jhas(o, "sender", &v) ? json_object_get_int64(v) : 0,
			    jhas(o, "seq", &v) ? json_object_get_uint64(v) : 0,
			    path_by_name(jstr(o, "path")), 0);
		if (kfunc_entry && d->nrecs)
			d = dg_find(h, d->sender, d->seq, d->path, 1);
		if (d->nrecs == d->caprecs) {
			d->caprecs = d->caprecs ? d->caprecs * 2 : 32;
			d->recs = xrealloc(d->recs, d->caprecs * sizeof(*d->recs));
		}
		r = &d->recs[d->nrecs++];
		memset(r, 0, sizeof(*r));
		r->probe = p;
		r->exit = !strcmp(ev, "exit");
		jhas(o, "t", &v);
		r->t = json_object_get_uint64(v);
		if (jhas(o, "ret", &v)) {
			r->ret = json_object_get_int64(v);
			r->has_ret = 1;
		}
		snprintf(r->skb, sizeof(r->skb), "%s", jstr(o, "skb") ? jstr(o, "skb") : "");
		snprintf(r->dev, sizeof(r->dev), "%s", jstr(o, "dev") ? jstr(o, "dev") : "");
		snprintf(r->reason, sizeof(r->reason), "%s", jstr(o, "reason") ? jstr(o, "reason") : "");
		r->len = jhas(o, "len", &v) ? json_object_get_int64(v) : 0;
		r->pid = jhas(o, "pid", &v) ? json_object_get_int64(v) : 0;
		r->cpu = jhas(o, "cpu", &v) ? json_object_get_int64(v) : 0;
		json_object_put(o);
	}
	free(line);
	fclose(f);
	if (!err && !h->have_end)
		pr_warn("%s: no end record: bpfwire-trace did not stop cleanly (kept what is there)", file);
	return err;
}

/* ---------------------------------------------------------------- derive */

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* The layers each path must cross, in order; "a|b" means either. */
static const char *const need_ksock4[] = { "bpf_ksock_send", "kernel_sendmsg",
	"security_socket_sendmsg", "udp_sendmsg", "ip_make_skb", "udp_send_skb", "ip_send_skb",
	"__ip_local_out", "ip_output", "ip_finish_output2", "__dev_queue_xmit",
	"qdisc_enqueue|sch_direct_xmit", "dev_hard_start_xmit", "start_xmit|e1000_xmit_frame", NULL };
static const char *const need_ksock6[] = { "bpf_ksock_send", "kernel_sendmsg",
	"security_socket_sendmsg", "udpv6_sendmsg", "ip6_make_skb", "udp_v6_send_skb",
	"ip6_send_skb", "ip6_output", "ip6_finish_output2", "__dev_queue_xmit",
	"qdisc_enqueue|sch_direct_xmit", "dev_hard_start_xmit", "start_xmit|e1000_xmit_frame", NULL };
static const char *const need_netpoll[] = { "bpf_netpoll_send_udp", "netpoll_send_udp",
	"netpoll_send_skb", "netpoll_start_xmit", "start_xmit|e1000_xmit_frame", NULL };

/* The time of the first entry of any of "a|b", or -1. */
static int64_t first_entry(const struct datagram *d, const char *alts)
{
	char buf[128], *save = NULL, *tok;
	int64_t best = -1;

	snprintf(buf, sizeof(buf), "%s", alts);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		int p = tr_probe_by_name(tok);

		for (int i = 0; i < d->nrecs; i++) {
			if (d->recs[i].probe == p && !d->recs[i].exit) {
				if (best < 0 || (int64_t)d->recs[i].t < best)
					best = d->recs[i].t;
				break;
			}
		}
	}
	return best;
}

static void finish(struct datagram *d)
{
	const char *const *need;
	int64_t last = -1;
	int driver = -1;

	qsort(d->recs, d->nrecs, sizeof(*d->recs), rec_cmp);
	d->end = END_INCOMPLETE;
	d->end_probe = 0;
	for (int i = 0; i < d->nrecs; i++) {
		const struct rec *r = &d->recs[i];
		int layer = tr_probes[r->probe].layer;

		if (r->probe == TR_UDPV6_SENDMSG)
			d->ipv6 = 1;
		if (layer == L_KFUNC && r->exit) {
			d->kfunc_ret = r->ret;
			d->has_kfunc_ret = 1;
		}
		if (layer == L_DRIVER && !r->exit && driver < 0)
			driver = i;
		if (r->probe == TR_KFREE_SKB && d->end != END_DROPPED) {
			d->end = END_DROPPED;
			d->reason = r->reason;
		}
		if (layer != L_END && !r->exit && d->end != END_DROPPED)
			d->end_probe = r->probe;
	}
	if (d->end != END_DROPPED) {
		if (driver >= 0)
			d->end = END_DRIVER;
		else if (d->has_kfunc_ret && d->kfunc_ret < 0)
			d->end = END_FAILED;
	}
	d->total_ns = 0;
	if (d->nrecs) {
		uint64_t stop = d->recs[d->nrecs - 1].t;

		if (driver >= 0)
			stop = d->recs[driver].t;
		d->total_ns = stop - d->recs[0].t;
	}
	need = d->path == TR_PATH_NETPOLL ? need_netpoll : d->ipv6 ? need_ksock6 : need_ksock4;
	d->nmissing = 0;
	d->in_order = 1;
	for (int i = 0; need[i]; i++) {
		int64_t t = first_entry(d, need[i]);

		if (t < 0) {
			if (d->nmissing < 16)
				d->missing[d->nmissing++] = need[i];
			continue;
		}
		if (t < last)
			d->in_order = 0;
		last = t;
	}
}

/* ---------------------------------------------------------------- pcaps */

struct capref {
	uint32_t sender;
	uint64_t seq;
	struct capture c;
};

static struct capref *caps;
static int ncaps, capcaps;

static void fmt_endpoint(char *buf, size_t len, const struct bpfw_l3 *l3,
			 const uint8_t *addr, uint16_t port)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(l3->family == 6 ? AF_INET6 : AF_INET, addr, a, sizeof(a));
	snprintf(buf, len, l3->family == 6 ? "[%s]:%u" : "%s:%u", a, port);
}

/* A bpfwire datagram in this frame, found by the receiver's parser. */
static void scan_packet(const char *rel, long frame, const struct pcap_pkthdr *ph, const uint8_t *p)
{
	static const struct bpfw_link_cfg eth = { .link = BPFW_LINK_ETH };
	struct bpfw_l3 l3;
	struct bpfw_udp udp;
	struct bpfw_wire w;
	struct capref *c;

	if (bpfw_find_wire(&eth, p, ph->caplen, ph->len, &l3, &udp, &w) != BPFW_R_OK)
		return;
	if (ncaps == capcaps) {
		capcaps = capcaps ? capcaps * 2 : 256;
		caps = xrealloc(caps, capcaps * sizeof(*caps));
	}
	c = &caps[ncaps++];
	memset(c, 0, sizeof(*c));
	c->sender = w.sender_id;
	c->seq = w.seq;
	snprintf(c->c.pcap, sizeof(c->c.pcap), "%s", rel);
	c->c.frame = frame;
	c->c.ts_us = (long long)ph->ts.tv_sec * 1000000 + ph->ts.tv_usec;
	fmt_endpoint(c->c.src, sizeof(c->c.src), &l3, l3.src, udp.sport);
	fmt_endpoint(c->c.dst, sizeof(c->c.dst), &l3, l3.dst, udp.dport);
}

static int scan_pcaps(const char *run)
{
	char dir[PATH_MAX], file[PATH_MAX * 2], rel[200], errbuf[PCAP_ERRBUF_SIZE];
	struct dirent **ents;
	int n;

	snprintf(dir, sizeof(dir), "%s/segments", run);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return 0;	/* a run without captures has no positions */
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name);
		const struct pcap_pkthdr *ph;
		const u_char *data;
		pcap_t *pc;
		long frame = 0;
		int r;

		if (len < 6 || strcmp(name + len - 5, ".pcap")) {
			free(ents[i]);
			continue;
		}
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		snprintf(rel, sizeof(rel), "segments/%s", name);
		pc = pcap_open_offline(file, errbuf);
		if (!pc) {
			/* tcpdump killed mid-write can leave an empty file: say so, go on. */
			pr_warn("couldn't read %s: %s (skipped)", file, errbuf);
			free(ents[i]);
			continue;
		}
		if (pcap_datalink(pc) == DLT_EN10MB) {
			while ((r = pcap_next_ex(pc, (struct pcap_pkthdr **)&ph, &data)) == 1)
				scan_packet(rel, ++frame, ph, data);
			if (r == PCAP_ERROR)
				pr_warn("%s: frame %ld: %s (kept the frames before)", file, frame + 1,
					pcap_geterr(pc));
		}
		pcap_close(pc);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static void attach_caps(struct host *h)
{
	for (int i = 0; i < h->ndgs; i++) {
		struct datagram *d = &h->dgs[i];

		for (int j = 0; j < ncaps; j++) {
			if (caps[j].sender != d->sender || caps[j].seq != d->seq)
				continue;
			d->caps = xrealloc(d->caps, (d->ncaps + 1) * sizeof(*d->caps));
			d->caps[d->ncaps++] = caps[j].c;
		}
	}
}

/* ---------------------------------------------------------------- write */

static json_object *dg_json(const struct datagram *d)
{
	json_object *o = json_object_new_object(), *layers = json_object_new_array(), *a;
	uint64_t t0 = d->nrecs ? d->recs[0].t : 0;

	json_object_object_add(o, "sender", json_object_new_int64(d->sender));
	json_object_object_add(o, "seq", json_object_new_uint64(d->seq));
	json_object_object_add(o, "path", json_object_new_string(path_name(d->path)));
	json_object_object_add(o, "family", json_object_new_string(d->path == TR_PATH_NETPOLL ? "ipv4" :
				d->ipv6 ? "ipv6" : "ipv4"));
	json_object_object_add(o, "t0_ns", json_object_new_uint64(t0));
	json_object_object_add(o, "total_ns", json_object_new_uint64(d->total_ns));
	json_object_object_add(o, "end", json_object_new_string(dg_end_name(d->end)));
	if (d->end_probe)
		json_object_object_add(o, "end_at", json_object_new_string(tr_probes[d->end_probe].name));
	if (d->reason && d->reason[0])
		json_object_object_add(o, "reason", json_object_new_string(d->reason));
	if (d->has_kfunc_ret)
		json_object_object_add(o, "kfunc_ret", json_object_new_int64(d->kfunc_ret));
	for (int i = 0; i < d->nrecs; i++) {
		const struct rec *r = &d->recs[i];
		json_object *l = json_object_new_object();

		json_object_object_add(l, "probe", json_object_new_string(tr_probes[r->probe].name));
		json_object_object_add(l, "layer", json_object_new_string(tr_layer_name[tr_probes[r->probe].layer]));
		json_object_object_add(l, "ev", json_object_new_string(r->exit ? "exit" : "entry"));
		json_object_object_add(l, "offset_ns", json_object_new_uint64(r->t - t0));
		if (r->has_ret)
			json_object_object_add(l, "ret", json_object_new_int64(r->ret));
		if (r->reason[0])
			json_object_object_add(l, "reason", json_object_new_string(r->reason));
		if (r->skb[0])
			json_object_object_add(l, "skb", json_object_new_string(r->skb));
		if (r->dev[0])
			json_object_object_add(l, "dev", json_object_new_string(r->dev));
		json_object_object_add(l, "cpu", json_object_new_int64(r->cpu));
		json_object_object_add(l, "pid", json_object_new_int64(r->pid));
		json_object_array_add(layers, l);
	}
	json_object_object_add(o, "layers", layers);
	a = json_object_new_array();
	for (int i = 0; i < d->nmissing; i++)
		json_object_array_add(a, json_object_new_string(d->missing[i]));
	json_object_object_add(o, "missing", a);
	json_object_object_add(o, "in_order", json_object_new_boolean(d->in_order));
	a = json_object_new_array();
	for (int i = 0; i < d->ncaps; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "pcap", json_object_new_string(d->caps[i].pcap));
		json_object_object_add(c, "frame", json_object_new_int64(d->caps[i].frame));
		json_object_object_add(c, "time_us", json_object_new_int64(d->caps[i].ts_us));
		json_object_object_add(c, "src", json_object_new_string(d->caps[i].src));
		json_object_object_add(c, "dst", json_object_new_string(d->caps[i].dst));
		json_object_array_add(a, c);
	}
	json_object_object_add(o, "captures", a);
	return o;
}

static int write_json(const struct host *h, const char *file)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	int err = 0;

	json_object_object_add(o, "host", json_object_new_string(h->name));
	json_object_object_add(o, "clock", json_object_new_string("bpf_ktime_get_ns (CLOCK_MONOTONIC of the guest)"));
	json_object_object_add(o, "records", json_object_new_int64(h->records));
	json_object_object_add(o, "lost", json_object_new_int64(h->lost));
	for (int i = 0; i < h->ndgs; i++)
		json_object_array_add(a, dg_json(&h->dgs[i]));
	json_object_object_add(o, "datagrams", a);
	if (json_object_to_file_ext(file, o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED)) {
		pr_warn("couldn't write %s: %s", file, json_util_get_last_err());
		err = -1;
	}
	json_object_put(o);
	return err;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void fmt_ns(char *buf, size_t n, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, n, "%llu ns", (unsigned long long)ns);
	else if (ns < 10000000)
		snprintf(buf, n, "%.1f us", ns / 1e3);
	else
		snprintf(buf, n, "%.1f ms", ns / 1e6);
}

static void fmt_cap(char *buf, size_t n, const struct capture *c)
{
	time_t s = c->ts_us / 1000000;
	struct tm tm;
	char hms[16];

	gmtime_r(&s, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	snprintf(buf, n, "%s frame %ld at %s.%06lld UTC, %s -> %s", c->pcap, c->frame, hms,
		 c->ts_us % 1000000, c->src, c->dst);
}

static void txt_timeline(FILE *f, const struct datagram *d)
{
	uint64_t t0 = d->recs[0].t;
	char b[32], cap[1024];

	for (int i = 0; i < d->nrecs; i++) {
		const struct rec *r = &d->recs[i];
		const struct tr_probe_info *pi = &tr_probes[r->probe];

		fmt_ns(b, sizeof(b), r->t - t0);
		fprintf(f, "    %10s  %-9s %*s%s%s", b, tr_layer_name[pi->layer], pi->depth * 2, "",
			r->exit ? "<- " : "", pi->name);
		if (r->has_ret)
			fprintf(f, " = %lld", (long long)r->ret);
		if (r->reason[0])
			fprintf(f, " (%s)", r->reason);
		if (r->dev[0] && pi->layer == L_DRIVER && !r->exit)
			fprintf(f, " [%s]", r->dev);
		fputc('\n', f);
	}
	for (int i = 0; i < d->ncaps; i++) {
		fmt_cap(cap, sizeof(cap), &d->caps[i]);
		fprintf(f, "    on the wire: %s\n", cap);
	}
	if (!d->ncaps)
		fprintf(f, "    on the wire: not in any segment capture\n");
}

static void txt_group(FILE *f, const struct host *h, uint32_t sender, int path)
{
	const struct datagram *first = NULL;
	int n = 0, ends[4] = { 0 }, incomplete = 0, disorder = 0, nocap = 0;
	uint64_t *offs;
	char b1[32], b2[32], b3[32];

	for (int i = 0; i < h->ndgs; i++) {
		const struct datagram *d = &h->dgs[i];

		if (d->sender != sender || d->path != path)
			continue;
		if (!first)
			first = d;
		n++;
		ends[d->end]++;
		incomplete += d->nmissing > 0;
		disorder += !d->in_order;
		nocap += d->ncaps == 0;
	}
	fprintf(f, "\n== %s: %s, sender id %u: %d datagram%s; %d reached the driver, %d dropped, "
		"%d failed, %d incomplete; %d missing a listed layer, %d out of order, %d not captured\n",
		h->name, path_name(path), sender, n, n == 1 ? "" : "s", ends[END_DRIVER], ends[END_DROPPED],
		ends[END_FAILED], ends[END_INCOMPLETE], incomplete, disorder, nocap);
	fprintf(f, "\n  seq %llu, the first (t0 = %.9f s on %s's clock), ends: %s%s%s%s\n",
		(unsigned long long)first->seq, first->recs[0].t / 1e9, h->name, dg_end_name(first->end),
		first->end_probe ? " after " : "", first->end_probe ? tr_probes[first->end_probe].name : "",
		first->reason && first->reason[0] ? " (reason below)" : "");
	txt_timeline(f, first);
	if (first->nmissing) {
		fprintf(f, "    never reached:");
		for (int i = 0; i < first->nmissing; i++)
			fprintf(f, " %s", first->missing[i]);
		fputc('\n', f);
	}

	/* Per probe over the group: how many datagrams, median and max offset. */
	offs = xrealloc(NULL, n * sizeof(*offs));
	fprintf(f, "\n  every probe over the %d (entries; offset from each datagram's first record):\n", n);
	fprintf(f, "    %-26s %9s %12s %12s %12s\n", "probe", "seen", "min", "median", "max");
	for (int p = 1; p < TR_NPROBES; p++) {
		int k = 0;

		for (int i = 0; i < h->ndgs; i++) {
			const struct datagram *d = &h->dgs[i];

			if (d->sender != sender || d->path != path)
				continue;
			for (int j = 0; j < d->nrecs; j++) {
				if (d->recs[j].probe == p && !d->recs[j].exit) {
					offs[k++] = d->recs[j].t - d->recs[0].t;
					break;
				}
			}
		}
		if (!k)
			continue;
		qsort(offs, k, sizeof(*offs), u64_cmp);
		fmt_ns(b1, sizeof(b1), offs[0]);
		fmt_ns(b2, sizeof(b2), offs[k / 2]);
		fmt_ns(b3, sizeof(b3), offs[k - 1]);
		fprintf(f, "    %-26s %4d/%-4d %12s %12s %12s\n", tr_probes[p].name, k, n, b1, b2, b3);
	}
	free(offs);

	fprintf(f, "\n  each datagram:\n");
	for (int i = 0; i < h->ndgs; i++) {
		const struct datagram *d = &h->dgs[i];

		if (d->sender != sender || d->path != path)
			continue;
		fmt_ns(b1, sizeof(b1), d->total_ns);
		fprintf(f, "    seq %-5llu %2d records %10s  %-10s", (unsigned long long)d->seq, d->nrecs, b1,
			dg_end_name(d->end));
		if (d->end != END_DRIVER && d->end_probe)
			fprintf(f, " at %s", tr_probes[d->end_probe].name);
		if (d->reason && d->reason[0])
			fprintf(f, " (%s)", d->reason);
		if (d->has_kfunc_ret && d->kfunc_ret)
			fprintf(f, " kfunc=%lld", (long long)d->kfunc_ret);
		if (d->nmissing)
			fprintf(f, " missing %d", d->nmissing);
		if (!d->in_order)
			fprintf(f, " OUT OF ORDER");
		for (int j = 0; j < d->ncaps; j++)
			fprintf(f, " %s#%ld", strrchr(d->caps[j].pcap, '/') + 1, d->caps[j].frame);
		fputc('\n', f);
	}
}

static int write_txt(const char *file, const char *run, const struct host *hosts, int nhosts)
{
	FILE *f = fopen(file, "w");

	if (!f) {
		pr_warn("couldn't write %s: %s", file, errno_str(errno));
		return -1;
	}
	fprintf(f, "bpfwire path trace of %s\n", run);
	fprintf(f, "Offsets are from each datagram's first record, on the sender's bpf_ktime_get_ns().\n"
		"Indentation is the call depth; \"<-\" is a return and its value. trace/README.md explains.\n");
	for (int i = 0; i < nhosts; i++) {
		const struct host *h = &hosts[i];

		fprintf(f, "\nhost %s: %d datagram%s traced, %lld records, %lld lost\n", h->name, h->ndgs,
			h->ndgs == 1 ? "" : "s", h->records, h->lost);
		/* One group per (sender id, path), in order of first appearance. */
		for (int j = 0; j < h->ndgs; j++) {
			int seen = 0;

			for (int k = 0; k < j && !seen; k++)
				seen = h->dgs[k].sender == h->dgs[j].sender && h->dgs[k].path == h->dgs[j].path;
			if (!seen && h->dgs[j].nrecs)
				txt_group(f, h, h->dgs[j].sender, h->dgs[j].path);
		}
	}
	if (fclose(f)) {
		pr_warn("couldn't write %s: %s", file, errno_str(errno));
		return -1;
	}
	return 0;
}

static int host_cmp(const void *a, const void *b)
{
	return strcmp(((const struct host *)a)->name, ((const struct host *)b)->name);
}

#define PROG "bpfwire-path"

static void usage(void)
{
	fputs("usage: " PROG " RUN\n"
	      "Writes RUN/hosts/*/path.json, RUN/path.txt and RUN/path.svg from\n"
	      "RUN/hosts/*/trace.jsonl (bpfwire-trace) and RUN/segments/*.pcap.\n"
	      "Exit 0 written, 1 a file could not be read or written, 2 a usage error.\n",
	      stdout);
}

/* RUN, or -1 after --help or --version, or CLI_EUSAGE. */
static int parse_args(int argc, char **argv, const char **run)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static const char shortopts[] = "h";
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(); return -1;
		case 'V': cli_version(PROG); return -1;
		default: return cli_bad_option(PROG, argv, shortopts, opts);
		}
	}
	if (argc - optind != 1)
		return cli_bad_args(PROG, "takes one RUN directory, not %d arguments",
				    argc - optind);
	*run = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], file[PATH_MAX * 2];
	const char *run = NULL;
	struct host *hosts = NULL;
	int nhosts = 0, err;
	struct dirent *de;
	DIR *dp;
	FILE *f;

	log_init(PROG, LOG_WARN);
	err = parse_args(argc, argv, &run);
	if (err)
		return err < 0 ? 0 : err;
	snprintf(dir, sizeof(dir), "%s/hosts", run);
	dp = opendir(dir);
	if (!dp) {
		pr_warn("couldn't open %s: %s", dir, errno_str(errno));
		return 1;
	}
	if (scan_pcaps(run))
		err = 1;
	while ((de = readdir(dp))) {
		struct host *h;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/trace.jsonl", dir, de->d_name);
		if (stat(file, &st)) {
			snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
			if (!stat(file, &st) && S_ISDIR(st.st_mode))
				pr_warn("%s/trace.jsonl: missing; did bpfwire-trace run there?", file);
			err = 1;
			continue;
		}
		hosts = xrealloc(hosts, (nhosts + 1) * sizeof(*hosts));
		h = &hosts[nhosts++];
		memset(h, 0, sizeof(*h));
		snprintf(h->name, sizeof(h->name), "%s", de->d_name);
		if (read_trace(h, file))
			err = 1;
	}
	closedir(dp);
	qsort(hosts, nhosts, sizeof(*hosts), host_cmp);
	for (int i = 0; i < nhosts; i++) {
		for (int j = 0; j < hosts[i].ndgs; j++)
			finish(&hosts[i].dgs[j]);
		attach_caps(&hosts[i]);
		snprintf(file, sizeof(file), "%s/%s/path.json", dir, hosts[i].name);
		if (write_json(&hosts[i], file))
			err = 1;
	}
	snprintf(file, sizeof(file), "%s/path.txt", run);
	if (write_txt(file, run, hosts, nhosts))
		err = 1;
	snprintf(file, sizeof(file), "%s/path.svg", run);
	f = fopen(file, "w");
	if (!f || write_svg(f, hosts, nhosts) || fclose(f)) {
		pr_warn("couldn't write %s: %s", file, errno_str(errno));
		err = 1;
	}
	for (int i = 0; i < nhosts; i++) {
		int traced = 0;

		for (int j = 0; j < hosts[i].ndgs; j++)
			traced += hosts[i].dgs[j].nrecs > 0;
		if (traced)
			printf("bpfwire-path: %s: %d datagram%s traced\n", hosts[i].name, traced, traced == 1 ? "" : "s");
		for (int j = 0; j < hosts[i].ndgs; j++) {
			free(hosts[i].dgs[j].recs);
			free(hosts[i].dgs[j].caps);
		}
		free(hosts[i].dgs);
	}
	printf("bpfwire-path: %s/path.txt, %s/path.svg\n", run, run);
	free(hosts);
	free(caps);
	return err;
}
