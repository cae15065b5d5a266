/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lab's pages for people: a thin layer over libxml2's HTML
 * tree and serializer, so no page is built by pasting strings. Text, guest
 * text above all, only ever becomes a text node: libxml2 escapes < > & and
 * quotes, and the text is first put through escape.h, so ANSI escapes,
 * control characters and NULs show as \xNN. Every page carries a
 * Content-Security-Policy that forbids script and anything from the
 * network, and one plain inline style sheet that prints.
 */
#ifndef BPFWIRE_LAB_HTML_H
#define BPFWIRE_LAB_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

/* A page is written only when its serialized form is at most this big. */
#define HTML_MAX_BYTES (16u << 20)

struct html_page {
	xmlDocPtr doc;
	xmlNodePtr head, body;
};

/* A page titled title (also its <h1>); -ENOMEM. */
int html_open(struct html_page *p, const char *title);
void html_close(struct html_page *p);

/*
 * An element tag under parent holding text (NULL: none), escaped. cls, if
 * not NULL, is its class. Returns the element (NULL only without memory:
 * the callers' later calls on a NULL parent do nothing).
 */
xmlNodePtr html_el(xmlNodePtr parent, const char *tag, const char *cls, const char *text);
/* len bytes of text (NULs and all) appended to parent, escaped; multi-line. */
void html_text(xmlNodePtr parent, const char *text, size_t len);
/* A <pre> holding len bytes of text, escaped. */
xmlNodePtr html_pre(xmlNodePtr parent, const char *cls, const char *text, size_t len);

/*
 * A relative link: href must be a path of [A-Za-z0-9._+/-] that starts with
 * neither '/' nor a scheme; anything else is refused (text only, NULL back).
 */
bool html_href_ok(const char *href);
xmlNodePtr html_link(xmlNodePtr parent, const char *href, const char *text);
/*
 * A link to base/rel only when that is a regular file now, so every link
 * on a page resolves; else text with " (missing)". Returns the link or NULL.
 */
xmlNodePtr html_link_file(xmlNodePtr parent, const char *base, const char *rel, const char *text);
/* <img src alt>, src relative as for html_link. */
xmlNodePtr html_img(xmlNodePtr parent, const char *src, const char *alt);

/* <details><summary>summary</summary>...</details>: returns the <details>. */
xmlNodePtr html_details(xmlNodePtr parent, const char *summary, bool open);

/* A <table> with a header row of n cells (none when 0); rows go in with html_row. */
xmlNodePtr html_table(xmlNodePtr parent, const char *const *heads, size_t n);
xmlNodePtr html_row(xmlNodePtr table);
/* A <td> with text; cls "changed", "fail", "pass", ... or NULL. */
xmlNodePtr html_cell(xmlNodePtr row, const char *cls, const char *text);

/*
 * The page serialized (UTF-8, indented), malloc'd, NUL-terminated; NULL
 * with errno (EFBIG past max bytes).
 */
char *html_dump(struct html_page *p, size_t max, size_t *len);
/* html_dump, then write_file_atomic; -errno. */
int html_write(struct html_page *p, const char *path, size_t max);

#endif /* BPFWIRE_LAB_HTML_H */
