// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c's bench.svg: the latency CDFs and the loss bars.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "errnames.h"
#include "gen.h"
#include "report_int.h"
#include "report_read.h"
#include "report_svg.h"

/* ---- svg ------------------------------------------------------------------ */

static const char *colour[] = { "#555555", "#999999", "#1f77b4", "#2ca02c", "#d62728", "#ff7f0e",
				"#9467bd", "#8c564b", "#17becf", "#bcbd22", "#e377c2" };

static void svg_cdf(FILE *f, const struct report *rp, int half, double x0, double y0,
		    double w, double h)
{
	double lo = 1e9, hi = 0;

	for (int m = 0; m < bench_nmethods; m++) {
		const struct lat *l = &rp->r[m].lat[half];

		if (!have(rp, m) || !l->ok || !l->nns)
			continue;
		if (l->ns[0] > 0 && l->ns[0] < lo)
			lo = l->ns[0];
		if (l->ns[l->nns - 1] > hi)
			hi = l->ns[l->nns - 1];
	}
	if (hi <= 0) {
		lo = 1e3;
		hi = 1e6;
	}
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
	fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' stroke='#000'/>\n",
		x0, y0, w, h);
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='14'>Hook-to-wire latency CDF, %s</text>\n",
		x0, y0 - 8, half ? "half of each path's max rate" : "low rate");
	for (double d = lo; d <= hi * 1.0001; d *= 10) {
		double x = x0 + w * log10(d / lo) / log10(hi / lo);

		fprintf(f, "<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' stroke='#ddd'/>\n", x, y0, x,
			y0 + h);
		fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%g us</text>\n",
			x, y0 + h + 14, d / 1e3);
	}
	for (int q = 0; q <= 4; q++)
		fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%.2f</text>\n",
			x0 - 4, y0 + h - h * q / 4 + 4, q / 4.0);
	for (int m = 0, k = 0; m < bench_nmethods; m++) {
		const struct lat *l = &rp->r[m].lat[half];

		if (!have(rp, m) || !l->ok || !l->nns)
			continue;
		fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1.5' points='", colour[m]);
		for (int i = 0; i < l->nns; i++) {
			double v = l->ns[i] > lo ? l->ns[i] : lo;
			double x = x0 + w * log10(v / lo) / log10(hi / lo);

			fprintf(f, "%.1f,%.1f ", x, y0 + h - h * (i + 1) / l->nns);
		}
		fprintf(f, "'/>\n<text x='%.0f' y='%.0f' font-size='12' fill='%s'>%s</text>\n",
			x0 + 8, y0 + 16 + 14 * k++, colour[m], bench_methods[m].name);
	}
}

static void svg_loss(FILE *f, const struct report *rp, double x0, double y0, double w, double h)
{
	double xmax = 0, ymax = 1;

	for (int m = 0; m < bench_nmethods; m++)
		for (int i = 0; have(rp, m) && i < rp->r[m].nruns; i++) {
			const struct rate_run *rr = &rp->r[m].runs[i];
			double loss = rr->events ? 100.0 * (rr->events - rr->delivered) / rr->events : 0;

			if (rr->offered > xmax)
				xmax = rr->offered;
			if (loss > ymax)
				ymax = loss;
		}
	/* Four ticks at round numbers: 1, 2 or 5 times a power of ten. */
	{
		double step = xmax > 0 ? xmax / 4 : 1, mag = pow(10, floor(log10(step)));

		step = step <= mag ? mag : step <= 2 * mag ? 2 * mag : step <= 5 * mag ? 5 * mag : 10 * mag;
		xmax = 4 * step;
	}
	ymax = ceil(ymax / 20) * 20;
	fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' stroke='#000'/>\n",
		x0, y0, w, h);
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='14'>Offered rate vs loss, each run "
		"(loss: events not delivered to the receiver's socket)</text>\n", x0, y0 - 8);
	for (int q = 0; q <= 4; q++) {
		fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%.0f%%</text>\n",
			x0 - 4, y0 + h - h * q / 4 + 4, ymax * q / 4);
		fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%.0f</text>\n",
			x0 + w * q / 4, y0 + h + 14, xmax * q / 4);
	}
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='11' text-anchor='middle'>offered "
		"events/s</text>\n", x0 + w / 2, y0 + h + 28);
	for (int m = 0, k = 0; m < bench_nmethods; m++) {
		if (!have(rp, m))
			continue;
		for (int i = 0; i < rp->r[m].nruns; i++) {
			const struct rate_run *rr = &rp->r[m].runs[i];
			double loss = rr->events ? 100.0 * (rr->events - rr->delivered) / rr->events : 0;

			fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n",
				x0 + w * rr->offered / xmax, y0 + h - h * loss / ymax, colour[m]);
		}
		/* Top left: high loss at a low rate is the corner no run reaches. */
		fprintf(f, "<text x='%.0f' y='%.0f' font-size='12' fill='%s'>%s</text>\n",
			x0 + 8, y0 + 16 + 14 * k++, colour[m], bench_methods[m].name);
	}
}

void write_svg(FILE *f, const struct report *rp)
{
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='1000' height='720' "
		"font-family='sans-serif'>\n<rect width='1000' height='720' fill='#fff'/>\n");
	fprintf(f, "<text x='20' y='24' font-size='16'>bpfwire benchmark, %s, accel %s</text>\n",
		rp->date, rp->accel);
	svg_cdf(f, rp, 0, 60, 70, 400, 260);
	svg_cdf(f, rp, 1, 560, 70, 400, 260);
	svg_loss(f, rp, 60, 420, 900, 240);
	fprintf(f, "</svg>\n");
}
