// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP: files a guest wrote into its share are listed on the run page, but
 * a type a browser would render as a page (evil.html, evil.svg, .xhtml,
 * .xml, no extension) gets no <a href>: served over HTTP it would run its
 * script in the results' origin. Text, JSON and captures stay links. The
 * page is written by page_run_write() and read back with libxml2's HTML
 * parser.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/HTMLparser.h>

#include "file.h"
#include "report/page.h"
#include "tap.h"
#include "vm/util.h"

static const char *const hostile[] = { "evil.html", "evil.svg", "evil.xhtml", "evil.xml", "evil.HTM", "noext" };
static const char *const inert[] = { "rx.json", "rx.pcap", "init.log" };

struct seen {
	char hrefs[64][256];
	int n;
	xmlChar *text;
};

static void walk(xmlNodePtr n, struct seen *s)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlChar *h = xmlStrcasecmp(n->name, BAD_CAST "a") ? NULL : xmlGetProp(n, BAD_CAST "href");

			if (h && s->n < 64)
				snprintf(s->hrefs[s->n++], sizeof(s->hrefs[0]), "%s", (const char *)h);
			xmlFree(h);
			walk(n->children, s);
		} else if (n->type == XML_TEXT_NODE) {
			s->text = xmlStrcat(s->text, n->content);
		}
	}
}

static bool linked(const struct seen *s, const char *file)
{
	for (int i = 0; i < s->n; i++) {
		const char *slash = strrchr(s->hrefs[i], '/');

		if (!strcmp(slash ? slash + 1 : s->hrefs[i], file))
			return true;
	}
	return false;
}

int main(void)
{
	char tmp[] = "/tmp/test-page-links-XXXXXX", path[PATH_MAX], err[512];
	struct seen s = { 0 };
	htmlDocPtr doc;

	if (!mkdtemp(tmp))
		return tap_skip_all("no temp dir");
	snprintf(path, sizeof(path), "%s/hosts/r", tmp);
	mkdir_p(path, 0755);
	snprintf(path, sizeof(path), "%s/summary.json", tmp);
	write_file(path, "{\"scenario\": \"links\", \"verdict\": \"PASS\", \"steps\": []}\n");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		snprintf(path, sizeof(path), "%s/hosts/r/%s", tmp, hostile[i]);
		write_file(path, "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(2)</script></svg>\n");
	}
	for (size_t i = 0; i < ARRAY_SIZE(inert); i++) {
		snprintf(path, sizeof(path), "%s/hosts/r/%s", tmp, inert[i]);
		write_file(path, "{}\n");
	}

	tap_case_begin("the run page is written");
	printf("# a share holding");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		printf(" %s", hostile[i]);
	printf(", and");
	for (size_t i = 0; i < ARRAY_SIZE(inert); i++)
		printf(" %s", inert[i]);
	printf("\n");
	ASSERT_OK(page_run_write(tmp, false, err, sizeof(err)), err);
	snprintf(path, sizeof(path), "%s/index.html", tmp);
	doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	ASSERT_TRUE(doc != NULL, "libxml2 parses it");
	if (doc)
		walk(xmlDocGetRootElement(doc), &s);
	printf("# %d links on the page\n", s.n);
	tap_case_end();

	tap_case_begin("no <a href> to a file a browser would render");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		char name[300];

		snprintf(name, sizeof(name), "no link to hosts/r/%s", hostile[i]);
		ASSERT_FALSE(linked(&s, hostile[i]), name);
		snprintf(name, sizeof(name), "hosts/r/%s listed as text", hostile[i]);
		snprintf(path, sizeof(path), "hosts/r/%s", hostile[i]);
		ASSERT_TRUE(s.text && strstr((const char *)s.text, path), name);
	}
	tap_case_end();

	tap_case_begin("text, JSON and captures are still links");
	for (size_t i = 0; i < ARRAY_SIZE(inert); i++)
		ASSERT_TRUE(linked(&s, inert[i]), inert[i]);
	tap_case_end();

	xmlFree(s.text);
	if (doc)
		xmlFreeDoc(doc);
	rm_rf(tmp);
	return tap_done();
}
