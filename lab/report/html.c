// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/HTMLtree.h>

#include "escape.h"
#include "file.h"
#include "html.h"

/* No script, nothing from the network: only this page's style and its run's images. */
static const char csp[] =
	"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
	"base-uri 'none'; form-action 'none'";

static const char style[] =
	"body{font:15px/1.4 sans-serif;max-width:72em;margin:1em auto;padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.5em}\nh2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.5em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top;"
	"overflow-wrap:break-word}\nth{white-space:nowrap}\n"
	"th{background:#eee}\ntd.num{text-align:right}\ntd.text{overflow-wrap:anywhere;min-width:12em}\n"
	"pre{background:#f6f6f6;border:1px solid #ddd;padding:.5em;overflow-x:auto;"
	"white-space:pre-wrap;word-break:break-all;font-size:13px}\n"
	".pass{background:#dfd}.fail{background:#fdd;font-weight:bold}\n"
	".changed{background:#ffd;font-weight:bold}\n.skip{background:#eee}\n"
	".verdict{font-size:1.4em;padding:.1em .4em}\n"
	"mark{background:#fc8}\n"
	"details summary{cursor:pointer}\n"
	"img{max-width:100%;border:1px solid #ddd}\n"
	"@media print{details>*{display:block}a{color:#000}pre{white-space:pre-wrap}}\n";

/* Text safe as a text node: escape.h's form, which shows control bytes as \xNN. */
static char *clean(const char *text, size_t len)
{
	size_t n = esc_str(NULL, 0, text, len, ESC_KEEP_NL);
	char *out = malloc(n + 1);

	if (out)
		esc_str(out, n + 1, text, len, ESC_KEEP_NL);
	return out;
}

void html_text(xmlNodePtr parent, const char *text, size_t len)
{
	char *s;
	xmlNodePtr t;

	if (!parent || !text)
		return;
	s = clean(text, len);
	if (!s)
		return;
	/* xmlNewText stores the text as it is; the serializer escapes it */
	t = xmlNewText(BAD_CAST s);
	if (t && !xmlAddChild(parent, t))
		xmlFreeNode(t);
	free(s);
}

xmlNodePtr html_el(xmlNodePtr parent, const char *tag, const char *cls, const char *text)
{
	xmlNodePtr n;

	if (!parent)
		return NULL;
	n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL);
	if (!n)
		return NULL;
	if (cls)
		xmlSetProp(n, BAD_CAST "class", BAD_CAST cls);
	if (text)
		html_text(n, text, strlen(text));
	return n;
}

xmlNodePtr html_pre(xmlNodePtr parent, const char *cls, const char *text, size_t len)
{
	xmlNodePtr n = html_el(parent, "pre", cls, NULL);

	html_text(n, text, len);
	return n;
}

bool html_href_ok(const char *href)
{
	size_t n = href ? strlen(href) : 0;

	if (!n || n > 1024 || href[0] == '/')
		return false;
	/* no ':' means no scheme, and no '?', '#', '%' or space to reinterpret */
	return strspn(href, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+/-") == n;
}

xmlNodePtr html_link(xmlNodePtr parent, const char *href, const char *text)
{
	xmlNodePtr a;

	if (!html_href_ok(href)) {
		html_text(parent, text, strlen(text));
		return NULL;
	}
	a = html_el(parent, "a", NULL, text);
	if (a)
		xmlSetProp(a, BAD_CAST "href", BAD_CAST href);
	return a;
}

xmlNodePtr html_link_file(xmlNodePtr parent, const char *base, const char *rel, const char *text)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path) &&
	    html_href_ok(rel) && !stat(path, &st) && S_ISREG(st.st_mode))
		return html_link(parent, rel, text);
	html_text(parent, text, strlen(text));
	html_text(parent, " (missing)", 10);
	return NULL;
}

xmlNodePtr html_img(xmlNodePtr parent, const char *src, const char *alt)
{
	xmlNodePtr n;

	if (!html_href_ok(src))
		return NULL;
	n = html_el(parent, "img", NULL, NULL);
	if (n) {
		xmlSetProp(n, BAD_CAST "src", BAD_CAST src);
		xmlSetProp(n, BAD_CAST "alt", BAD_CAST alt);
	}
	return n;
}

xmlNodePtr html_details(xmlNodePtr parent, const char *summary, bool open)
{
	xmlNodePtr d = html_el(parent, "details", NULL, NULL);

	if (d && open)
		xmlSetProp(d, BAD_CAST "open", BAD_CAST "open");
	html_el(d, "summary", NULL, summary);
	return d;
}

xmlNodePtr html_table(xmlNodePtr parent, const char *const *heads, size_t n)
{
	xmlNodePtr t = html_el(parent, "table", NULL, NULL);
	xmlNodePtr tr = n ? html_el(t, "tr", NULL, NULL) : NULL;

	for (size_t i = 0; i < n; i++)
		html_el(tr, "th", NULL, heads[i]);
	return t;
}

xmlNodePtr html_row(xmlNodePtr table)
{
	return html_el(table, "tr", NULL, NULL);
}

xmlNodePtr html_cell(xmlNodePtr row, const char *cls, const char *text)
{
	return html_el(row, "td", cls, text ? text : "");
}

int html_open(struct html_page *p, const char *title)
{
	xmlNodePtr html, meta;

	memset(p, 0, sizeof(*p));
	p->doc = htmlNewDocNoDtD(NULL, NULL);
	if (!p->doc)
		return -ENOMEM;
	/* the serializer writes <!DOCTYPE html> for this internal subset */
	xmlCreateIntSubset(p->doc, BAD_CAST "html", NULL, NULL);
	html = xmlNewDocNode(p->doc, NULL, BAD_CAST "html", NULL);
	if (!html) {
		html_close(p);
		return -ENOMEM;
	}
	xmlDocSetRootElement(p->doc, html);
	xmlSetProp(html, BAD_CAST "lang", BAD_CAST "en");
	p->head = html_el(html, "head", NULL, NULL);
	meta = html_el(p->head, "meta", NULL, NULL);
	xmlSetProp(meta, BAD_CAST "charset", BAD_CAST "utf-8");
	meta = html_el(p->head, "meta", NULL, NULL);
	xmlSetProp(meta, BAD_CAST "http-equiv", BAD_CAST "Content-Security-Policy");
	xmlSetProp(meta, BAD_CAST "content", BAD_CAST csp);
	meta = html_el(p->head, "meta", NULL, NULL);
	xmlSetProp(meta, BAD_CAST "name", BAD_CAST "viewport");
	xmlSetProp(meta, BAD_CAST "content", BAD_CAST "width=device-width");
	html_el(p->head, "title", NULL, title);
	/* our own constant, not guest text: added as it is */
	xmlNewTextChild(p->head, NULL, BAD_CAST "style", BAD_CAST style);
	p->body = html_el(html, "body", NULL, NULL);
	html_el(p->body, "h1", NULL, title);
	if (!p->head || !meta || !p->body) {
		html_close(p);
		return -ENOMEM;
	}
	return 0;
}

void html_close(struct html_page *p)
{
	if (p->doc)
		xmlFreeDoc(p->doc);
	memset(p, 0, sizeof(*p));
}

char *html_dump(struct html_page *p, size_t max, size_t *len)
{
	xmlChar *mem = NULL;
	int n = 0;
	char *out;

	htmlDocDumpMemoryFormat(p->doc, &mem, &n, 1);
	if (!mem || n < 0) {
		xmlFree(mem);
		errno = ENOMEM;
		return NULL;
	}
	if ((size_t)n > max) {
		xmlFree(mem);
		errno = EFBIG;
		return NULL;
	}
	/* libxml2's allocator is malloc here, but the caller frees with free() */
	out = strndup((const char *)mem, (size_t)n);
	xmlFree(mem);
	if (!out)
		errno = ENOMEM;
	else if (len)
		*len = (size_t)n;
	return out;
}

int html_write(struct html_page *p, const char *path, size_t max)
{
	char *text = html_dump(p, max, NULL);
	int ret;

	if (!text)
		return -errno;
	ret = write_file_atomic(path, text);
	free(text);
	return ret;
}
