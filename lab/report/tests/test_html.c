// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP: hostile text put through lab/report/html.c comes back,
 * when libxml2's HTML parser reads the page, as text: no <script> element,
 * no event attribute, no link off the page, and the bytes a terminal would
 * act on (ANSI escapes, NULs) shown as \xNN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>

#include "file.h"
#include "report/html.h"
#include "tap.h"

static const char hostile[] = "<script>alert(1)</script> & \"quoted\" 'single' "
			      "<img src=x onerror=alert(2)> \x1b[31mred\x1b[0m \x1b]0;title\x07"
			      " nul:\0:end";
#define HOSTILE_LEN (sizeof(hostile) - 1)

struct walk {
	int elements[8];	/* script, img, a, style, iframe, object, on*, details */
	int bad_href;
	xmlChar *text;		/* every text node of the body, joined */
};

static void walk(xmlNodePtr n, struct walk *w, int in_body)
{
	static const char *const names[] = { "script", "img", "a", "style", "iframe", "object" };

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			for (size_t i = 0; i < 6; i++)
				if (!xmlStrcasecmp(n->name, BAD_CAST names[i]))
					w->elements[i]++;
			if (!xmlStrcasecmp(n->name, BAD_CAST "details"))
				w->elements[7]++;
			for (xmlAttrPtr a = n->properties; a; a = a->next) {
				if (!xmlStrncasecmp(a->name, BAD_CAST "on", 2))
					w->elements[6]++;
				if (!xmlStrcasecmp(a->name, BAD_CAST "href") ||
				    !xmlStrcasecmp(a->name, BAD_CAST "src")) {
					xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);

					if (!v || !html_href_ok((const char *)v))
						w->bad_href++;
					xmlFree(v);
				}
			}
			walk(n->children, w, in_body || !xmlStrcasecmp(n->name, BAD_CAST "body"));
		} else if (n->type == XML_TEXT_NODE && in_body) {
			w->text = xmlStrcat(w->text, n->content);
		}
	}
}

static htmlDocPtr parse(const char *s, size_t len)
{
	return htmlReadMemory(s, (int)len, "page.html", "UTF-8",
			      HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
}

int main(void)
{
	char dir[] = "/tmp/test_html-XXXXXX", path[256];
	struct html_page p;
	struct walk w = { 0 };
	htmlDocPtr back = NULL;
	char *page = NULL;
	size_t len = 0;
	xmlNodePtr t, row, d;

	if (!mkdtemp(dir))
		return tap_skip_all("mkdtemp");
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	if (write_file(path, "x"))
		return tap_skip_all("write");

	if (!ASSERT_OK(html_open(&p, "title <script>alert(0)</script>"), "html_open"))
		return tap_done();
	html_el(p.body, "h2", NULL, "heading \x1b[1mbold");
	html_el(p.body, "p", NULL, hostile);
	html_pre(p.body, NULL, hostile, HOSTILE_LEN);
	t = html_table(p.body, (const char *const[]){ "key <b>", "value" }, 2);
	row = html_row(t);
	html_cell(row, "fail", hostile);
	html_cell(row, NULL, "\" onmouseover=\"alert(3)");
	d = html_details(p.body, hostile, false);
	html_pre(d, NULL, hostile, HOSTILE_LEN);
	/* links: a scheme, an absolute path and a quote break are refused */
	ASSERT_TRUE(html_link(p.body, "javascript:alert(4)", "js") == NULL, "javascript: refused");
	ASSERT_TRUE(html_link(p.body, "/etc/passwd", "abs") == NULL, "absolute path refused");
	ASSERT_TRUE(html_link(p.body, "a\" onclick=\"x", "quote") == NULL, "quote refused");
	ASSERT_TRUE(html_link(p.body, "../../x", "up") != NULL, "../ allowed");
	ASSERT_TRUE(html_link(p.body, "steps/01.out", hostile) != NULL, "relative link");
	ASSERT_TRUE(html_link_file(p.body, dir, "out.txt", "file") != NULL, "existing file linked");
	ASSERT_TRUE(html_link_file(p.body, dir, "none.txt", "file") == NULL, "missing file not linked");
	ASSERT_TRUE(html_img(p.body, "data:x", "x") == NULL, "img with a scheme refused");
	ASSERT_TRUE(html_img(p.body, "path.svg", "<script>") != NULL, "img");

	page = html_dump(&p, HTML_MAX_BYTES, &len);
	if (!ASSERT_OK_PTR(page, "html_dump"))
		goto out;
	ASSERT_TRUE(html_dump(&p, 100, NULL) == NULL && errno == EFBIG, "size cap");
	ASSERT_TRUE(!strncmp(page, "<!DOCTYPE html>", 15), "doctype html");
	ASSERT_HAS(page, "Content-Security-Policy", "CSP meta");
	ASSERT_HAS(page, "default-src 'none'", "CSP forbids script");
	ASSERT_TRUE(!strstr(page, "<script"), "no <script in the bytes");
	ASSERT_TRUE(!strstr(page, "<img src=x"), "no raw <img in the bytes");
	ASSERT_TRUE(!memchr(page, '\x1b', len), "no ESC byte in the page");
	ASSERT_EQ(strlen(page), len, "no NUL inside the page");
	ASSERT_HAS(page, "&lt;script&gt;alert(1)&lt;/script&gt;", "script as escaped text");
	ASSERT_HAS(page, "&amp;", "ampersand escaped");

	back = parse(page, len);
	if (!ASSERT_OK_PTR(back, "parsed back"))
		goto out;
	walk(xmlDocGetRootElement(back), &w, 0);
	ASSERT_EQ(w.elements[0], 0, "no script element");
	ASSERT_EQ(w.elements[1], 1, "the one img added");
	ASSERT_EQ(w.elements[2], 3, "three links");
	ASSERT_EQ(w.elements[3], 1, "one style element");
	ASSERT_EQ(w.elements[4] + w.elements[5], 0, "no iframe or object");
	ASSERT_EQ(w.elements[6], 0, "no on* attribute");
	ASSERT_EQ(w.elements[7], 1, "one details");
	ASSERT_EQ(w.bad_href, 0, "every href and src relative");
	ASSERT_HAS((char *)w.text, "<script>alert(1)</script> & \"quoted\" 'single'", "script as text");
	ASSERT_HAS((char *)w.text, "<img src=x onerror=alert(2)>", "img as text");
	ASSERT_HAS((char *)w.text, "\\x1b[31mred\\x1b[0m", "ANSI escape shown");
	ASSERT_HAS((char *)w.text, "\\x1b]0;title\\x07", "OSC title shown");
	ASSERT_HAS((char *)w.text, "nul:\\x00:end", "NUL shown, text after it kept");
	ASSERT_HAS((char *)w.text, "\" onmouseover=\"alert(3)", "attribute break as text");
	ASSERT_HAS((char *)w.text, "file (missing)", "missing file said");
out:
	xmlFree(w.text);
	if (back)
		xmlFreeDoc(back);
	free(page);
	html_close(&p);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
