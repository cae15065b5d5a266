// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP: the topology picture of every topology given, parsed back
 * as XML: an <svg> root in the SVG namespace, one <rect> per host, one bar
 * per segment, one <circle> per NIC, and each host's name as text.
 * usage: test_topo_svg TOPO...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "report/topo_svg.h"
#include "tap.h"
#include "topo/topo_parse.h"
#include "topo/topology.h"

struct counts {
	int rect, seg, circle;
	xmlChar *text;
};

static void walk(xmlNodePtr n, struct counts *c)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlChar *cls = xmlGetProp(n, BAD_CAST "class");

			c->rect += !xmlStrcmp(n->name, BAD_CAST "rect");
			c->circle += !xmlStrcmp(n->name, BAD_CAST "circle");
			c->seg += !xmlStrcmp(n->name, BAD_CAST "line") && cls && !xmlStrcmp(cls, BAD_CAST "seg");
			xmlFree(cls);
			if (!xmlStrcmp(n->name, BAD_CAST "text")) {
				xmlChar *t = xmlNodeGetContent(n);

				c->text = xmlStrcat(xmlStrcat(c->text, t), BAD_CAST "\n");
				xmlFree(t);
			}
			walk(n->children, c);
		}
	}
}

int main(int argc, char **argv)
{
	int files = 0;

	for (int i = 1; i < argc; i++) {
		struct topology *t = calloc(1, sizeof(*t));
		struct counts c = { 0 };
		char err[1024], name[256];
		xmlDocPtr doc = NULL;
		xmlNodePtr root;
		char *svg = NULL;
		int nics = 0;

		snprintf(name, sizeof(name), "%s", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
		if (!t || topo_parse_file(argv[i], t, err, sizeof(err))) {
			tap_check(false, name, __LINE__, "parse: %s", t ? err : "no memory");
			free(t);
			continue;
		}
		files++;
		tap_case_begin(name);
		svg = topo_svg(t);
		if (!ASSERT_OK_PTR(svg, "topo_svg"))
			goto next;
		doc = xmlReadMemory(svg, (int)strlen(svg), "t.svg", NULL, XML_PARSE_NONET);
		if (!ASSERT_OK_PTR(doc, "parses as XML"))
			goto next;
		root = xmlDocGetRootElement(doc);
		ASSERT_TRUE(root && !xmlStrcmp(root->name, BAD_CAST "svg") && root->ns &&
			    !xmlStrcmp(root->ns->href, BAD_CAST "http://www.w3.org/2000/svg"), "an svg root");
		walk(root, &c);
		for (int h = 0; h < t->nhosts; h++)
			nics += t->hosts[h].nnics;
		ASSERT_EQ(c.rect, t->nhosts, "a box per host");
		ASSERT_EQ(c.seg, t->nsegments, "a bar per segment");
		ASSERT_EQ(c.circle, nics, "a dot per NIC");
		for (int h = 0; h < t->nhosts; h++) {
			char line[64];

			snprintf(line, sizeof(line), "%s\n", t->hosts[h].name);
			ASSERT_HAS((char *)c.text, line, "the host's name");
		}
next:
		tap_case_end();
		xmlFree(c.text);
		xmlFreeDoc(doc);
		free(svg);
		free(t);
	}
	printf("# %d topologies drawn\n", files);
	return tap_done();
}
