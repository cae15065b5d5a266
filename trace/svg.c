// SPDX-License-Identifier: GPL-2.0-only
/*
 * RUN/path.svg: one lane per probe (rows, top = the kfunc, bottom = the
 * driver and the skb's end), one panel per (host, sender id, path), side by
 * side, so netpoll's empty lanes beside ksock's show what it bypasses. Each
 * datagram is a faint dot per lane at its offset; the median is the
 * connected line. Lanes a panel never crossed are hatched.
 */
#include <stdlib.h>
#include <string.h>
#include "probes.h"
#include "path.h"

#define LABEL_W	230
#define PANEL_W	420
#define GAP	30
#define LANE_H	18
#define TOP	70

static const char *const layer_colour[L_NLAYERS] = {
	[L_KFUNC] = "#6a3d9a", [L_SOCKET] = "#1f78b4", [L_LSM] = "#e31a1c",
	[L_UDP] = "#33a02c", [L_ROUTE] = "#b15928", [L_IP] = "#ff7f00",
	[L_NETFILTER] = "#fb9a99", [L_NEIGH] = "#cab2d6", [L_DEV] = "#a6cee3",
	[L_QDISC] = "#b2df8a", [L_NETPOLL] = "#fdbf6f", [L_DRIVER] = "#000000",
	[L_END] = "#999999",
};

/* Lane order: the kfuncs first, then the enum (the stack's order). */
static double rank(int p)
{
	return p == TR_BPF_NETPOLL_SEND_UDP ? 1.5 : p;
}

struct group { const struct host *h; uint32_t sender; int path; };

static int u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int first_entry(const struct datagram *d, int p, uint64_t *off)
{
	for (int j = 0; j < d->nrecs; j++) {
		if (d->recs[j].probe == p && !d->recs[j].exit) {
			*off = d->recs[j].t - d->recs[0].t;
			return 1;
		}
	}
	return 0;
}

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<') fputs("&lt;", f);
		else if (*s == '>') fputs("&gt;", f);
		else if (*s == '&') fputs("&amp;", f);
		else fputc(*s, f);
	}
}

int write_svg(FILE *f, const struct host *hosts, int nhosts)
{
	struct group g[32];
	int ng = 0, lanes[TR_NPROBES], nl = 0, used[TR_NPROBES] = { 0 };
	int width, height;

	for (int i = 0; i < nhosts; i++) {
		for (int j = 0; j < hosts[i].ndgs; j++) {
			const struct datagram *d = &hosts[i].dgs[j];
			int k;

			if (!d->nrecs)
				continue;
			for (int r = 0; r < d->nrecs; r++)
				used[d->recs[r].probe] = 1;
			for (k = 0; k < ng; k++)
				if (g[k].h == &hosts[i] && g[k].sender == d->sender && g[k].path == d->path)
					break;
			if (k == ng && ng < 32)
				g[ng++] = (struct group){ &hosts[i], d->sender, d->path };
		}
	}
	used[TR_BPF_KSOCK_SEND] = used[TR_BPF_NETPOLL_SEND_UDP] = 1;
	for (int p = 1; p < TR_NPROBES; p++)
		if (used[p])
			lanes[nl++] = p;
	for (int a = 1; a < nl; a++)
		for (int b = a; b > 0 && rank(lanes[b]) < rank(lanes[b - 1]); b--) {
			int t = lanes[b];

			lanes[b] = lanes[b - 1];
			lanes[b - 1] = t;
		}

	width = LABEL_W + (ng ? ng : 1) * (PANEL_W + GAP);
	height = TOP + nl * LANE_H + 60;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"monospace\" font-size=\"11\">\n", width, height);
	fprintf(f, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
		"<path d=\"M0,6 L6,0\" stroke=\"#ddd\"/></pattern></defs>\n");
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	/* The legend goes below the axis: one title line would overflow a one-panel image. */
	fprintf(f, "<text x=\"10\" y=\"18\" font-size=\"14\">bpfwire: each datagram's path "
		"through the sender's stack</text>\n"
		"<text x=\"10\" y=\"%d\" fill=\"#555\">x: offset from each datagram's first record; "
		"dots = datagrams, diamonds = medians;</text>\n"
		"<text x=\"10\" y=\"%d\" fill=\"#555\">line = the median path through the layers "
		"that most datagrams cross</text>\n", height - 26, height - 12);
	if (!ng)
		fprintf(f, "<text x=\"10\" y=\"40\">no bpfwire datagram was traced in this run</text>\n");

	for (int l = 0; l < nl; l++) {
		const struct tr_probe_info *pi = &tr_probes[lanes[l]];
		int y = TOP + l * LANE_H;

		fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", y, width, LANE_H,
			l % 2 ? "#fafafa" : "#f0f0f0");
		fprintf(f, "<text x=\"8\" y=\"%d\"><tspan fill=\"%s\">%-9s</tspan> ", y + 13,
			layer_colour[pi->layer], tr_layer_name[pi->layer]);
		esc(f, pi->name);
		fputs("</text>\n", f);
	}

	for (int k = 0; k < ng; k++) {
		const struct host *h = g[k].h;
		int x0 = LABEL_W + k * (PANEL_W + GAP), n = 0;
		uint64_t *ends = NULL, xmax;
		int nends = 0, prev_x = -1, prev_y = -1;

		for (int j = 0; j < h->ndgs; j++) {
			const struct datagram *d = &h->dgs[j];

			if (d->sender != g[k].sender || d->path != g[k].path || !d->nrecs)
				continue;
			n++;
			ends = realloc(ends, (nends + 1) * sizeof(*ends));
			if (!ends)
				return -1;
			ends[nends++] = d->total_ns;
		}
		qsort(ends, nends, sizeof(*ends), u64cmp);
		/* Scale to twice the median datagram; slower ones pile at the edge. */
		xmax = nends ? ends[nends / 2] * 2 : 1000;
		if (xmax < 1000)
			xmax = 1000;
		free(ends);

		fprintf(f, "<text x=\"%d\" y=\"40\" font-size=\"12\" font-weight=\"bold\">%s: %s, sender %u "
			"(%d datagram%s)</text>\n", x0, h->name, g[k].path == TR_PATH_KSOCK ? "ksock" : "netpoll",
			g[k].sender, n, n == 1 ? "" : "s");
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", x0, TOP - 4,
			x0, TOP + nl * LANE_H);
		for (int t = 0; t <= 4; t++) {
			int x = x0 + t * (PANEL_W - 20) / 4;

			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\" "
				"stroke-dasharray=\"2,3\"/>\n", x, TOP, x, TOP + nl * LANE_H);
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f us</text>\n", x,
				TOP + nl * LANE_H + 14, xmax * t / 4 / 1e3);
		}
		fprintf(f, "<text x=\"%d\" y=\"58\" fill=\"#555\">0 .. %.1f us; later ones at the right edge</text>\n",
			x0, xmax / 1e3);

		for (int l = 0; l < nl; l++) {
			int p = lanes[l], y = TOP + l * LANE_H + LANE_H / 2, cnt = 0;
			uint64_t *offs = malloc(n * sizeof(*offs) + 1);

			if (!offs)
				return -1;
			for (int j = 0; j < h->ndgs; j++) {
				const struct datagram *d = &h->dgs[j];
				uint64_t off;
				double x;

				if (d->sender != g[k].sender || d->path != g[k].path || !d->nrecs)
					continue;
				if (!first_entry(d, p, &off))
					continue;
				offs[cnt++] = off;
				x = x0 + (off > xmax ? 1.0 : (double)off / xmax) * (PANEL_W - 20);
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.3\"/>\n",
					x, y, p == TR_KFREE_SKB ? "#e31a1c" : layer_colour[tr_probes[p].layer]);
			}
			if (!cnt) {
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#hatch)\"/>\n",
					x0 + 1, y - LANE_H / 2, PANEL_W - 20, LANE_H);
				fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#aaa\">not crossed</text>\n", x0 + 6, y + 4);
			} else {
				uint64_t med;
				int x;

				qsort(offs, cnt, sizeof(*offs), u64cmp);
				med = offs[cnt / 2];
				x = x0 + (med > xmax ? 1.0 : (double)med / xmax) * (PANEL_W - 20);
				/* A layer few datagrams cross (e.g. ARP) would bend the typical path. */
				if (p != TR_KFREE_SKB && p != TR_CONSUME_SKB && cnt * 2 >= n) {
					if (prev_x >= 0)
						fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
							"stroke-width=\"1.5\"/>\n", prev_x, prev_y, x, y);
					prev_x = x;
					prev_y = y;
				}
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"6\" height=\"6\" fill=\"#333\" "
					"transform=\"rotate(45 %d %d)\"/>\n", x - 3, y - 3, x, y);
				fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#333\">%d/%d</text>\n",
					x0 + PANEL_W - 18, y + 4, cnt, n);
			}
			free(offs);
		}
	}
	fputs("</svg>\n", f);
	return 0;
}
