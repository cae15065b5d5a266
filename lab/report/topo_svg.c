// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "file.h"
#include "topo/topo_lookup.h"
#include "topo/topo_parse.h"
#include "topo/topo_prefix.h"
#include "topo/topology.h"
#include "topo_svg.h"

#define HOST_W 190
#define HOST_H 44
#define GAP 30
#define TOP 16
#define SEG0 (TOP + HOST_H + 70)
#define SEG_STEP 64

static xmlNodePtr el(xmlNodePtr parent, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An element with attributes given as "name=value|name=value" (our own numbers only). */
static xmlNodePtr el(xmlNodePtr parent, const char *tag, const char *fmt, ...)
{
	char attrs[512], *save = NULL, *kv;
	xmlNodePtr n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL);
	va_list ap;

	if (!n)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(attrs, sizeof(attrs), fmt, ap);
	va_end(ap);
	for (kv = strtok_r(attrs, "|", &save); kv; kv = strtok_r(NULL, "|", &save)) {
		char *eq = strchr(kv, '=');

		if (eq) {
			*eq = '\0';
			xmlSetProp(n, BAD_CAST kv, BAD_CAST(eq + 1));
		}
	}
	return n;
}

/* Text through a text node: names come from the topology file. */
static void text(xmlNodePtr parent, int x, int y, const char *cls, const char *s)
{
	xmlNodePtr t = el(parent, "text", "x=%d|y=%d|class=%s", x, y, cls);

	if (t)
		xmlAddChild(t, xmlNewText(BAD_CAST s));
}

char *topo_svg(const struct topology *t)
{
	int w = GAP + t->nhosts * (HOST_W + GAP), h = SEG0 + t->nsegments * SEG_STEP;
	xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr svg, style;
	xmlChar *mem = NULL;
	char *out = NULL, buf[160];
	int n = 0;

	if (w < 400)
		w = 400;
	svg = doc ? xmlNewDocNode(doc, NULL, BAD_CAST "svg", NULL) : NULL;
	if (!svg) {
		xmlFreeDoc(doc);
		errno = ENOMEM;
		return NULL;
	}
	xmlDocSetRootElement(doc, svg);
	xmlSetNs(svg, xmlNewNs(svg, BAD_CAST "http://www.w3.org/2000/svg", NULL));
	snprintf(buf, sizeof(buf), "0 0 %d %d", w, h);
	xmlSetProp(svg, BAD_CAST "viewBox", BAD_CAST buf);
	snprintf(buf, sizeof(buf), "%d", w);
	xmlSetProp(svg, BAD_CAST "width", BAD_CAST buf);
	snprintf(buf, sizeof(buf), "%d", h);
	xmlSetProp(svg, BAD_CAST "height", BAD_CAST buf);
	snprintf(buf, sizeof(buf), "topology %s", t->name);
	xmlAddChild(el(svg, "title", "%s", ""), xmlNewText(BAD_CAST buf));
	style = xmlNewChild(svg, NULL, BAD_CAST "style", NULL);
	xmlAddChild(style, xmlNewText(BAD_CAST
		"text{font:12px sans-serif;fill:#111}.host{font-weight:bold;font-size:14px}"
		".small{font-size:11px;fill:#333}rect{fill:#eef;stroke:#336}"
		"line.seg{stroke:#363;stroke-width:6}line.nic{stroke:#666;stroke-width:2}"
		"circle{fill:#363}.seg{font-weight:bold;fill:#363}"));
	for (int s = 0; s < t->nsegments; s++) {
		const struct topo_segment *sg = &t->segments[s];
		int y = SEG0 + s * SEG_STEP;
		char v4[64] = "", v6[64] = "";

		el(svg, "line", "class=seg|x1=10|y1=%d|x2=%d|y2=%d", y, w - 10, y);
		topo_format_prefix(&sg->v4, v4, sizeof(v4));
		topo_format_prefix(&sg->v6, v6, sizeof(v6));
		snprintf(buf, sizeof(buf), "segment %s  %s%s%s%s", sg->name, sg->v4.family ? v4 : "",
			 sg->v4.family && sg->v6.family ? "  " : "", sg->v6.family ? v6 : "",
			 sg->dhcp ? "  dhcp" : "");
		text(svg, 12, y + 20, "seg", buf);
	}
	for (int i = 0; i < t->nhosts; i++) {
		const struct topo_host *ho = &t->hosts[i];
		int x = GAP + i * (HOST_W + GAP);

		el(svg, "rect", "x=%d|y=%d|width=%d|height=%d|rx=4", x, TOP, HOST_W, HOST_H);
		text(svg, x + 8, TOP + 18, "host", ho->name);
		snprintf(buf, sizeof(buf), "%s%u MiB%s", ho->remote.on ? "remote, " : "",
			 ho->memory_mib, ho->router ? ", router" : "");
		text(svg, x + 8, TOP + 36, "small", buf);
		for (int k = 0; k < ho->nnics; k++) {
			const struct topo_nic *nic = &ho->nics[k];
			int nx = x + 14 + k * (HOST_W - 20) / (ho->nnics ? ho->nnics : 1);
			int y = SEG0 + nic->segment * SEG_STEP;
			char addr[64] = "dhcp";

			el(svg, "line", "class=nic|x1=%d|y1=%d|x2=%d|y2=%d", nx, TOP + HOST_H, nx, y);
			el(svg, "circle", "cx=%d|cy=%d|r=5", nx, y);
			if (nic->naddrs && nic->addrs[0].a.family)
				topo_format_prefix(&nic->addrs[0].a, addr, sizeof(addr));
			snprintf(buf, sizeof(buf), "%s %s", nic->ifname, topo_model_name(nic->model));
			text(svg, nx + 4, TOP + HOST_H + 16, "small", buf);
			text(svg, nx + 4, TOP + HOST_H + 30, "small", addr);
		}
	}
	xmlDocDumpFormatMemory(doc, &mem, &n, 1);
	if (mem && n > 0)
		out = strndup((const char *)mem, (size_t)n);
	xmlFree(mem);
	xmlFreeDoc(doc);
	if (!out)
		errno = ENOMEM;
	return out;
}

int topo_svg_write(const char *topo_path, const char *out, char *err, size_t errlen)
{
	struct topology *t = calloc(1, sizeof(*t));
	char *svg;
	int r;

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (topo_parse_file(topo_path, t, err, errlen)) {
		free(t);
		return -1;
	}
	svg = topo_svg(t);
	free(t);
	if (!svg) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		return -1;
	}
	r = write_file_atomic(out, svg);
	free(svg);
	if (r) {
		snprintf(err, errlen, "%s: %s", out, strerror(-r));
		return -1;
	}
	return 0;
}
