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
#include "datagram.h"
#include "svg.h"

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

/* The panels and the lanes any of them crossed, in the stack's order. */
struct layout {
	struct group g[32];
	int ng;
	int lanes[TR_NPROBES];
	int nl;
};

/* One panel's drawing state: where it is, its scale, the median line so far. */
struct panel {
	const struct group *g;
	int x0, n;
	uint64_t xmax;
	int prev_x, prev_y;
};

static void collect(struct layout *lo, const struct host *hosts, int nhosts)
{
	int used[TR_NPROBES] = { 0 };

	memset(lo, 0, sizeof(*lo));
	for (int i = 0; i < nhosts; i++) {
		for (int j = 0; j < hosts[i].ndgs; j++) {
			const struct datagram *d = &hosts[i].dgs[j];
			int k;

			if (!d->nrecs)
				continue;
			for (int r = 0; r < d->nrecs; r++)
				used[d->recs[r].probe] = 1;
			for (k = 0; k < lo->ng; k++)
				if (lo->g[k].h == &hosts[i] && lo->g[k].sender == d->sender &&
				    lo->g[k].path == d->path)
					break;
			if (k == lo->ng && lo->ng < 32)
				lo->g[lo->ng++] = (struct group){ &hosts[i], d->sender, d->path };
		}
	}
	used[TR_BPF_KSOCK_SEND] = used[TR_BPF_NETPOLL_SEND_UDP] = 1;
	for (int p = 1; p < TR_NPROBES; p++)
		if (used[p])
			lo->lanes[lo->nl++] = p;
	for (int a = 1; a < lo->nl; a++)
		for (int b = a; b > 0 && rank(lo->lanes[b]) < rank(lo->lanes[b - 1]); b--) {
			int t = lo->lanes[b];

			lo->lanes[b] = lo->lanes[b - 1];
			lo->lanes[b - 1] = t;
		}
}

/* The title, the legend, and the lane labels with their stripes. */
static void svg_frame(FILE *f, const struct layout *lo, int width, int height)
{
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
	if (!lo->ng)
		fprintf(f, "<text x=\"10\" y=\"40\">no bpfwire datagram was traced in this run</text>\n");

	for (int l = 0; l < lo->nl; l++) {
		const struct tr_probe_info *pi = &tr_probes[lo->lanes[l]];
		int y = TOP + l * LANE_H;

		fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", y, width, LANE_H,
			l % 2 ? "#fafafa" : "#f0f0f0");
		fprintf(f, "<text x=\"8\" y=\"%d\"><tspan fill=\"%s\">%-9s</tspan> ", y + 13,
			layer_colour[pi->layer], tr_layer_name[pi->layer]);
		esc(f, pi->name);
		fputs("</text>\n", f);
	}
}

static int in_group(const struct datagram *d, const struct group *g)
{
	return d->sender == g->sender && d->path == g->path && d->nrecs;
}

/* How many datagrams the panel has, and its x scale. */
static int panel_scale(struct panel *pn)
{
	const struct host *h = pn->g->h;
	uint64_t *ends = NULL;
	int nends = 0;

	for (int j = 0; j < h->ndgs; j++) {
		const struct datagram *d = &h->dgs[j];

		if (!in_group(d, pn->g))
			continue;
		pn->n++;
		ends = realloc(ends, (nends + 1) * sizeof(*ends));
		if (!ends)
			return -1;
		ends[nends++] = d->total_ns;
	}
	qsort(ends, nends, sizeof(*ends), u64cmp);
	/* Scale to twice the median datagram; slower ones pile at the edge. */
	pn->xmax = nends ? ends[nends / 2] * 2 : 1000;
	if (pn->xmax < 1000)
		pn->xmax = 1000;
	free(ends);
	return 0;
}

static void panel_axis(FILE *f, const struct panel *pn, int nl)
{
	int x0 = pn->x0;

	fprintf(f, "<text x=\"%d\" y=\"40\" font-size=\"12\" font-weight=\"bold\">%s: %s, sender %u "
		"(%d datagram%s)</text>\n", x0, pn->g->h->name, pn->g->path == TR_PATH_KSOCK ? "ksock" : "netpoll",
		pn->g->sender, pn->n, pn->n == 1 ? "" : "s");
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", x0, TOP - 4,
		x0, TOP + nl * LANE_H);
	for (int t = 0; t <= 4; t++) {
		int x = x0 + t * (PANEL_W - 20) / 4;

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\" "
			"stroke-dasharray=\"2,3\"/>\n", x, TOP, x, TOP + nl * LANE_H);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f us</text>\n", x,
			TOP + nl * LANE_H + 14, pn->xmax * t / 4 / 1e3);
	}
	fprintf(f, "<text x=\"%d\" y=\"58\" fill=\"#555\">0 .. %.1f us; later ones at the right edge</text>\n",
		x0, pn->xmax / 1e3);
}

/* The median's diamond, its count, and the line from the previous lane's. */
static void lane_median(FILE *f, struct panel *pn, int p, int y, uint64_t *offs, int cnt)
{
	uint64_t med;
	int x;

	qsort(offs, cnt, sizeof(*offs), u64cmp);
	med = offs[cnt / 2];
	x = pn->x0 + (med > pn->xmax ? 1.0 : (double)med / pn->xmax) * (PANEL_W - 20);
	/* A layer few datagrams cross (e.g. ARP) would bend the typical path. */
	if (p != TR_KFREE_SKB && p != TR_CONSUME_SKB && cnt * 2 >= pn->n) {
		if (pn->prev_x >= 0)
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
				"stroke-width=\"1.5\"/>\n", pn->prev_x, pn->prev_y, x, y);
		pn->prev_x = x;
		pn->prev_y = y;
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"6\" height=\"6\" fill=\"#333\" "
		"transform=\"rotate(45 %d %d)\"/>\n", x - 3, y - 3, x, y);
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#333\">%d/%d</text>\n",
		pn->x0 + PANEL_W - 18, y + 4, cnt, pn->n);
}

/* One lane of one panel: a dot per datagram, then the median or the hatch. */
static int panel_lane(FILE *f, struct panel *pn, int p, int l)
{
	const struct host *h = pn->g->h;
	int y = TOP + l * LANE_H + LANE_H / 2, cnt = 0;
	uint64_t *offs = malloc(pn->n * sizeof(*offs) + 1);

	if (!offs)
		return -1;
	for (int j = 0; j < h->ndgs; j++) {
		const struct datagram *d = &h->dgs[j];
		uint64_t off;
		double x;

		if (!in_group(d, pn->g) || !first_entry(d, p, &off))
			continue;
		offs[cnt++] = off;
		x = pn->x0 + (off > pn->xmax ? 1.0 : (double)off / pn->xmax) * (PANEL_W - 20);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.3\"/>\n",
			x, y, p == TR_KFREE_SKB ? "#e31a1c" : layer_colour[tr_probes[p].layer]);
	}
	if (!cnt) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#hatch)\"/>\n",
			pn->x0 + 1, y - LANE_H / 2, PANEL_W - 20, LANE_H);
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#aaa\">not crossed</text>\n", pn->x0 + 6, y + 4);
	} else {
		lane_median(f, pn, p, y, offs, cnt);
	}
	free(offs);
	return 0;
}

int write_svg(FILE *f, const struct host *hosts, int nhosts)
{
	struct layout lo;
	int width, height;

	collect(&lo, hosts, nhosts);
	width = LABEL_W + (lo.ng ? lo.ng : 1) * (PANEL_W + GAP);
	height = TOP + lo.nl * LANE_H + 60;
	svg_frame(f, &lo, width, height);
	for (int k = 0; k < lo.ng; k++) {
		struct panel pn = { .g = &lo.g[k], .x0 = LABEL_W + k * (PANEL_W + GAP),
				    .prev_x = -1, .prev_y = -1 };

		if (panel_scale(&pn))
			return -1;
		panel_axis(f, &pn, lo.nl);
		for (int l = 0; l < lo.nl; l++)
			if (panel_lane(f, &pn, lo.lanes[l], l))
				return -1;
	}
	fputs("</svg>\n", f);
	return 0;
}
