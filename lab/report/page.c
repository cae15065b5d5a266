// SPDX-License-Identifier: GPL-2.0-only
/*
 * RUN/index.html: one page per run, from summary.json and the
 * run's files, built with html.h. Everything a guest shaped (step output,
 * report keys and values, console lines) goes in as text.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "file.h"
#include "html.h"
#include "page.h"
#include "splat.h"
#include "summary_read.h"
#include "topo_svg.h"

/*
 * How much of a step's output is shown folded; the rest is in the linked
 * file. A page over HTML_MAX_BYTES is made again with less (64 KiB, 4 KiB,
 * none), so a run with huge output still gets its page.
 */
static const size_t fold_sizes[] = { 64u << 10, 4u << 10, 0 };
static size_t fold_max;
/* Lines of console shown before and after a splat line. */
#define CTX_BEFORE 3
#define CTX_AFTER 11
#define SPLATS_SHOWN 20
#define FILES_LISTED 2000

/* A section's heading, with an id so a reply can link RUN/index.html#checks. */
static void section(xmlNodePtr body, const char *id, const char *title)
{
	xmlNodePtr h = html_el(body, "h2", NULL, title);

	if (h)
		xmlSetProp(h, BAD_CAST "id", BAD_CAST id);
}

static bool is_file(const char *dir, const char *rel)
{
	char path[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !lstat(path, &st) && S_ISREG(st.st_mode);
}

static const char *verdict_class(const char *v)
{
	if (!strcasecmp(v, "ok") || !strcasecmp(v, "pass"))
		return "pass";
	if (!strcasecmp(v, "skip"))
		return "skip";
	return "fail";
}

static void head_row(xmlNodePtr table, const char *k, const char *v)
{
	xmlNodePtr tr = html_row(table);

	html_el(tr, "th", NULL, k);
	html_cell(tr, NULL, v);
}

static void section_overview(xmlNodePtr body, struct run_summary *r)
{
	json_object *j = r->root;
	const char *verdict = js_str(j, "verdict"), *reason = js_str(j, "reason");
	xmlNodePtr p = html_el(body, "p", NULL, NULL), t;
	char buf[128];

	html_el(p, "strong", !strcmp(verdict, "PASS") ? "verdict pass" : "verdict fail",
		verdict[0] ? verdict : "no verdict");
	if (reason[0]) {
		html_text(p, ": ", 2);
		html_text(p, reason, strlen(reason));
	}
	html_el(body, "p", NULL, js_str(j, "summary"));
	t = html_table(body, NULL, 0);
	head_row(t, "scenario", js_str(j, "scenario"));
	head_row(t, "run", r->name);
	fmt_when(r->when, buf, sizeof(buf));
	head_row(t, "finished", buf);
	fmt_seconds(js_num(j, "total_seconds"), buf, sizeof(buf));
	head_row(t, "duration", buf);
	fmt_seconds(js_num(j, "boot_seconds"), buf, sizeof(buf));
	head_row(t, "boot", buf);
	head_row(t, "topology", js_str(j, "topology"));
	head_row(t, "accel", js_str(j, "accel"));
	snprintf(buf, sizeof(buf), "%d", (int)js_num(j, "splats"));
	head_row(t, "console splats", buf);
	/* teardown's SysRq proof, per guest: a console not proven live is no evidence */
	{
		json_object *cons = js_arr(j, "consoles");

		for (size_t i = 0; cons && i < json_object_array_length(cons); i++) {
			json_object *c = json_object_array_get_idx(cons, i);
			char row[96], val[512];
			bool live = !strcmp(js_str(c, "proof"), "live");

			snprintf(row, sizeof(row), "console %.64s", js_str(c, "host"));
			snprintf(val, sizeof(val), "%s: %s", live ? "proven live" : js_str(c, "proof"),
				 js_str(c, "why"));
			head_row(t, row, val);
		}
	}
}

/* "series": {"base", "patches": [{"subject"}...], "mbox_sha256"} when the run recorded one. */
static void section_kernel(xmlNodePtr body, json_object *j)
{
	json_object *series = js_obj(j, "series"), *patches = js_arr(series, "patches");
	xmlNodePtr t, ol;

	section(body, "kernel", "Kernel");
	t = html_table(body, NULL, 0);
	head_row(t, "release", js_str(j, "kernel_release")[0] ? js_str(j, "kernel_release") : "unknown");
	head_row(t, "flavour", js_str(j, "kernel_series")[0] ? js_str(j, "kernel_series") : "unknown");
	head_row(t, "image", js_str(j, "kernel"));
	if (!series) {
		html_el(body, "p", NULL, "The run recorded no patch series beyond the flavour.");
		return;
	}
	if (js_str(series, "base")[0])
		head_row(t, "series base", js_str(series, "base"));
	if (js_str(series, "mbox_sha256")[0])
		head_row(t, "mbox sha256", js_str(series, "mbox_sha256"));
	ol = html_el(body, "ol", NULL, NULL);
	for (size_t i = 0; patches && i < json_object_array_length(patches); i++) {
		json_object *pt = json_object_array_get_idx(patches, i);

		html_el(ol, "li", NULL, json_object_is_type(pt, json_type_string) ?
			json_object_get_string(pt) : js_str(pt, "subject"));
	}
}

static void section_topology(xmlNodePtr body, struct run_summary *r, bool svg)
{
	xmlNodePtr p;

	section(body, "topology", "Topology");
	if (svg)
		html_img(body, "topology.svg", "the topology: hosts, segments and NICs");
	p = html_el(body, "p", NULL, "From ");
	html_link_file(p, r->dir, "topology.topo", "topology.topo");
}

/* The first FOLD_MAX bytes of a step's file, linked, with a note when there is more. */
static void fold_file(xmlNodePtr parent, const char *dir, const char *rel, const char *label)
{
	char path[8192];
	const char *why;
	size_t len = 0;
	char *text;
	xmlNodePtr p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	text = read_file_max(path, &len, LAB_PAGE_FILE_MAX);
	why = !text && errno == EFBIG ? ": too big to show here" : ": unreadable";
	p = html_el(parent, "p", NULL, label);
	html_text(p, " (", 2);
	html_link_file(p, dir, rel, rel);
	html_text(p, ")", 1);
	if (!text) {
		html_text(p, why, strlen(why));
		return;
	}
	html_pre(parent, NULL, text, len < fold_max ? len : fold_max);
	if (len > fold_max)
		html_el(parent, "p", NULL, "... cut here: the whole output is in the file linked above.");
	free(text);
}

static void section_steps(xmlNodePtr body, struct run_summary *r)
{
	static const char *const heads[] = { "#", "line", "status", "time", "op", "host", "command", "output" };
	json_object *steps = js_arr(r->root, "steps");
	size_t n = steps ? json_object_array_length(steps) : 0;
	xmlNodePtr t;

	section(body, "steps", "Steps");
	if (!n) {
		html_el(body, "p", NULL, "No steps ran.");
		return;
	}
	t = html_table(body, heads, 8);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		const char *v = js_str(s, "verdict"), *why = js_str(s, "why"), *last = js_str(s, "stdout_last");
		const char *elast = js_str(s, "stderr_last");
		char buf[64], host[64], out[32], err[32];
		xmlNodePtr tr = html_row(t), td, d;

		snprintf(buf, sizeof(buf), "%zu", i + 1);
		html_cell(tr, "num", buf);
		snprintf(buf, sizeof(buf), "%d", (int)js_num(s, "line"));
		html_cell(tr, "num", buf);
		html_cell(tr, verdict_class(v), v);
		snprintf(buf, sizeof(buf), "%.1f s", js_num(s, "seconds"));
		html_cell(tr, "num", buf);
		html_cell(tr, NULL, js_str(s, "op"));
		step_host(s, host, sizeof(host));
		html_cell(tr, NULL, host);
		td = html_cell(tr, "text", js_str(s, "what"));
		if (why[0]) {
			xmlNodePtr p = html_el(td, "div", "fail", "why: ");

			html_text(p, why, strlen(why));
		}
		td = html_cell(tr, "text", NULL);
		snprintf(out, sizeof(out), "steps/%02zu.out", i + 1);
		snprintf(err, sizeof(err), "steps/%02zu.err", i + 1);
		if (!is_file(r->dir, out) && !is_file(r->dir, err)) {
			if (last[0] || elast[0]) {
				d = html_details(td, last[0] ? last : elast, false);
				if (last[0])
					html_pre(d, NULL, last, strlen(last));
				if (elast[0])
					html_pre(d, NULL, elast, strlen(elast));
			}
			continue;
		}
		d = html_details(td, last[0] ? last : elast[0] ? elast : "output", false);
		if (is_file(r->dir, out))
			fold_file(d, r->dir, out, "stdout");
		if (is_file(r->dir, err))
			fold_file(d, r->dir, err, "stderr");
	}
}

static void section_checks(xmlNodePtr body, json_object *j)
{
	static const char *const heads[] = { "line", "check", "status", "left", "right", "values" };
	json_object *steps = js_arr(j, "steps");
	xmlNodePtr t = NULL;
	int n = 0;

	section(body, "checks", "Checks");
	for (size_t i = 0; steps && i < json_object_array_length(steps); i++) {
		json_object *s = json_object_array_get_idx(steps, i), *v;
		char buf[64];
		xmlNodePtr tr, td;

		if (strcmp(js_str(s, "op"), "check"))
			continue;
		if (!t)
			t = html_table(body, heads, 6);
		tr = html_row(t);
		snprintf(buf, sizeof(buf), "%d", (int)js_num(s, "line"));
		html_cell(tr, "num", buf);
		html_cell(tr, "text", js_str(s, "what"));
		html_cell(tr, verdict_class(js_str(s, "verdict")), js_str(s, "verdict"));
		js_text(json_object_object_get_ex(s, "left", &v) ? v : NULL, buf, sizeof(buf));
		html_cell(tr, "num", buf);
		js_text(json_object_object_get_ex(s, "right", &v) ? v : NULL, buf, sizeof(buf));
		html_cell(tr, "num", buf);
		td = html_cell(tr, "text", js_str(s, "values"));
		if (js_str(s, "why")[0])
			html_el(td, "div", "fail", js_str(s, "why"));
		n++;
	}
	if (!n)
		html_el(body, "p", NULL, "The scenario has no checks.");
}

static void num_cell(xmlNodePtr tr, json_object *o, const char *key)
{
	json_object *v;
	char buf[64];

	js_text(json_object_object_get_ex(o, key, &v) ? v : NULL, buf, sizeof(buf));
	html_cell(tr, "num", buf);
}

/* A receiver's report: per plane (wire, socket) and sender, what arrived and what was lost. */
static void receiver_rows(xmlNodePtr t, const char *name, json_object *rep)
{
	static const char *const planes[] = { "wire", "socket" };

	for (size_t p = 0; p < 2; p++) {
		json_object *plane = js_obj(rep, planes[p]), *senders = js_obj(plane, "senders");

		if (!senders)
			continue;
		json_object_object_foreach(senders, id, snd) {
			double rx = js_num(snd, "received"), lost = js_num(snd, "lost");
			xmlNodePtr tr = html_row(t);
			char buf[64];

			html_cell(tr, NULL, name);
			html_cell(tr, NULL, planes[p]);
			html_cell(tr, NULL, id);
			html_cell(tr, NULL, js_str(snd, "src"));
			num_cell(tr, snd, "received");
			num_cell(tr, snd, "lost");
			snprintf(buf, sizeof(buf), "%.2f %%", rx + lost > 0 ? 100.0 * lost / (rx + lost) : 0.0);
			html_cell(tr, lost > 0 ? "fail" : "num", buf);
			num_cell(tr, snd, "duplicates");
			num_cell(tr, snd, "reordered");
			num_cell(tr, snd, "events");
		}
	}
}

/* A receiver's report that has per-sender counts in a plane (a `report` of other JSON has none). */
static bool has_senders(json_object *rep)
{
	return js_obj(js_obj(rep, "wire"), "senders") || js_obj(js_obj(rep, "socket"), "senders");
}

static void section_counts(xmlNodePtr body, json_object *j)
{
	static const char *const rheads[] = { "report", "plane", "sender", "source", "received",
					      "lost", "loss", "duplicates", "reordered", "events" };
	static const char *const sheads[] = { "report", "via", "sender", "destination", "events",
					      "sent", "failed", "bytes" };
	json_object *reports = js_obj(j, "reports");
	xmlNodePtr rt = NULL, st = NULL, other = NULL;

	section(body, "counts", "Counts");
	if (!reports) {
		html_el(body, "p", NULL, "No reports.");
		return;
	}
	json_object_object_foreach(reports, name, rep) {
		const char *kind = js_str(rep, "kind");
		json_object *senders = js_arr(rep, "senders");

		if (!strcmp(kind, "receiver") && has_senders(rep)) {
			if (!rt) {
				html_el(body, "h3", NULL, "Received, per sender");
				rt = html_table(body, rheads, 10);
			}
			receiver_rows(rt, name, rep);
		} else if (!strcmp(kind, "sender-stats") && senders) {
			if (!st) {
				html_el(body, "h3", NULL, "Sent, per sender");
				st = html_table(body, sheads, 8);
			}
			for (size_t i = 0; i < json_object_array_length(senders); i++) {
				json_object *s = json_object_array_get_idx(senders, i);
				json_object *c = js_obj(s, "counters"), *v;
				xmlNodePtr tr = html_row(st);
				char buf[64];

				html_cell(tr, NULL, name);
				html_cell(tr, NULL, js_str(s, "via"));
				js_text(json_object_object_get_ex(s, "sender_id", &v) ? v : NULL, buf, sizeof(buf));
				html_cell(tr, "num", buf);
				html_cell(tr, NULL, js_str(s, "dst"));
				num_cell(tr, c, "events");
				num_cell(tr, c, "sent");
				num_cell(tr, c, "failed");
				num_cell(tr, c, "bytes");
			}
		} else {
			char *text = NULL;

			if (!other) {
				html_el(body, "h3", NULL, "Other reports");
				other = html_el(body, "div", NULL, NULL);
			}
			text = strdup(json_object_to_json_string_ext(rep, JSON_C_TO_STRING_PRETTY));
			if (text) {
				xmlNodePtr d = html_details(other, name, false);

				html_pre(d, NULL, text, strlen(text));
				free(text);
			}
		}
	}
	if (!rt && !st && !other)
		html_el(body, "p", NULL, "No reports.");
}

/* One console's splat lines, each with its context, the matched lines marked. */
static int console_splats(xmlNodePtr body, struct run_summary *r, const char *rel)
{
	char path[8192];
	size_t len = 0, nl = 0, cap = 0;
	const char **lines = NULL;
	size_t *lens = NULL;
	char *text;
	int shown = 0;
	size_t last_end = 0;
	xmlNodePtr pre = NULL;

	snprintf(path, sizeof(path), "%s/%s", r->dir, rel);
	text = read_file_max(path, &len, SPLAT_CONSOLE_MAX);
	if (!text)
		return 0;
	for (size_t i = 0; i < len;) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		if (nl == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			const char **nlines = realloc(lines, ncap * sizeof(*lines));
			size_t *nlens = nlines ? realloc(lens, ncap * sizeof(*lens)) : NULL;

			if (nlines)
				lines = nlines;
			if (!nlens)
				goto out;
			lens = nlens;
			cap = ncap;
		}
		lines[nl] = text + i;
		lens[nl++] = e - i;
		i = e + 1;
	}
	for (size_t i = 0; i < nl && shown < SPLATS_SHOWN; i++) {
		size_t from, to;

		if (!splat_match(lines[i], lens[i]))
			continue;
		if (!shown) {
			xmlNodePtr p = html_el(body, "h3", NULL, NULL);

			html_link(p, rel, rel);
		}
		shown++;
		from = i > CTX_BEFORE ? i - CTX_BEFORE : 0;
		to = i + CTX_AFTER < nl ? i + CTX_AFTER : nl - 1;
		if (!pre || from > last_end) {
			pre = html_pre(body, NULL, "", 0);
			if (from < last_end)
				from = last_end;
		} else {
			from = last_end;
		}
		for (size_t k = from; k <= to; k++) {
			char num[32];
			bool m = splat_match(lines[k], lens[k]) != NULL;
			xmlNodePtr at = m ? html_el(pre, "mark", NULL, NULL) : pre;

			size_t l = lens[k];

			/* a serial console ends its lines with CR LF */
			if (l && lines[k][l - 1] == '\r')
				l--;
			snprintf(num, sizeof(num), "%6zu  ", k + 1);
			html_text(at, num, strlen(num));
			html_text(at, lines[k], l);
			html_text(pre, "\n", 1);
		}
		last_end = to + 1;
		i = to;
	}
out:
	free(lines);
	free(lens);
	free(text);
	return shown;
}

static int cmp_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void section_splats(xmlNodePtr body, struct run_summary *r)
{
	const char *quoted = js_str(r->root, "splat_text");
	struct dirent **ents = NULL;
	char dir[4200];
	int n, found = 0;
	xmlNodePtr p;

	section(body, "splats", "Kernel splats");
	snprintf(dir, sizeof(dir), "%s/consoles", r->dir);
	n = scandir(dir, &ents, NULL, cmp_name);
	for (int i = 0; i < n; i++) {
		char rel[300];

		snprintf(rel, sizeof(rel), "consoles/%s", ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && is_file(r->dir, rel))
			found += console_splats(body, r, rel);
		free(ents[i]);
	}
	free(ents);
	if (!found) {
		p = html_el(body, "p", NULL, NULL);
		snprintf(dir, sizeof(dir), "No console line matched a splat pattern (summary.json: %d).",
			 (int)js_num(r->root, "splats"));
		html_text(p, dir, strlen(dir));
	}
	if (quoted[0]) {
		xmlNodePtr d = html_details(body, "The scan's own quote (summary.json)", !found);

		html_pre(d, NULL, quoted, strlen(quoted));
	}
}

static void section_path(xmlNodePtr body, struct run_summary *r)
{
	xmlNodePtr p;

	if (!is_file(r->dir, "path.svg"))
		return;
	section(body, "path", "Path of the events (traced)");
	html_img(body, "path.svg", "where each event went, from the trace");
	p = html_el(body, "p", NULL, NULL);
	html_link_file(p, r->dir, "path.svg", "path.svg");
	if (is_file(r->dir, "path.txt")) {
		html_text(p, ", ", 2);
		html_link_file(p, r->dir, "path.txt", "path.txt");
	}
}

/*
 * The types the file list links to: ones a browser shows as text or
 * downloads, never renders as a page. Guests name the files in their
 * shares, and once results are served over HTTP a guest's evil.html or
 * evil.svg (or .xhtml, .xml, .pdf, or no extension a server could sniff
 * as HTML) would run its script in the results' origin; those are listed
 * by name only. An allow list, so an unforeseen type is never a link.
 */
static bool inert_type(const char *name)
{
	static const char *const inert[] = { "txt", "log", "json", "jsonl", "pcap", "pcapng", "tap",
					     "out", "err", "csv", "md", "topo", "cmdline", "sh" };
	const char *base = strrchr(name, '/'), *dot;

	dot = strrchr(base ? base + 1 : name, '.');
	if (!dot)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(inert); i++)
		if (!strcasecmp(dot + 1, inert[i]))
			return true;
	return false;
}

/* Every regular file of the run, by folder; links are never followed. */
static int list_files(xmlNodePtr ul, const char *root, const char *rel, int depth, int *left)
{
	struct dirent **ents = NULL;
	char dir[8192];
	int n, listed = 0;

	snprintf(dir, sizeof(dir), "%s%s%s", root, rel[0] ? "/" : "", rel);
	n = scandir(dir, &ents, NULL, cmp_name);
	for (int i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;
		char sub[4200];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", nm);
		snprintf(dir, sizeof(dir), "%s/%s", root, sub);
		if (nm[0] == '.' || *left <= 0 || lstat(dir, &st))
			goto next;
		if (S_ISDIR(st.st_mode) && depth < 3) {
			listed += list_files(ul, root, sub, depth + 1, left);
		} else if (S_ISREG(st.st_mode) && html_href_ok(sub) && strcmp(sub, "index.html")) {
			xmlNodePtr li = html_el(ul, "li", NULL, NULL);
			char size[48];

			if (inert_type(sub))
				html_link(li, sub, sub);
			else
				html_text(li, sub, strlen(sub));
			snprintf(size, sizeof(size), " (%lld bytes%s)", (long long)st.st_size,
				 inert_type(sub) ? "" : ", not linked");
			html_text(li, size, strlen(size));
			(*left)--;
			listed++;
		}
next:
		free(ents[i]);
	}
	free(ents);
	return listed;
}

static void section_files(xmlNodePtr body, struct run_summary *r)
{
	int left = FILES_LISTED;
	xmlNodePtr d;

	section(body, "files", "Files");
	html_el(body, "p", NULL, "Segment captures (pcap), consoles, step output, "
		"the hosts' shares and the lab's own files of this run. Only text, JSON, "
		"logs and captures are links; a file a browser could render as a page "
		"(.html, .svg, ...: a guest names its files) is listed by name only.");
	d = html_el(body, "ul", NULL, NULL);
	list_files(d, r->dir, "", 0, &left);
	if (left <= 0)
		html_el(body, "p", NULL, "... and more files than are listed here.");
}

int page_run_write(const char *dir, bool topo_svg, char *err, size_t errlen)
{
	struct run_summary r;
	char title[512], path[4200];
	int ret = -EFBIG;

	if (run_summary_load(&r, dir)) {
		snprintf(err, errlen, "%s: %s", dir, r.why);
		return -1;
	}
	snprintf(title, sizeof(title), "%s: %s", js_str(r.root, "scenario"), js_str(r.root, "verdict"));
	snprintf(path, sizeof(path), "%s/index.html", r.dir);
	for (size_t i = 0; i < sizeof(fold_sizes) / sizeof(fold_sizes[0]) && ret == -EFBIG; i++) {
		struct html_page p;

		fold_max = fold_sizes[i];
		if (html_open(&p, title)) {
			ret = -ENOMEM;
			break;
		}
		section_overview(p.body, &r);
		section_kernel(p.body, r.root);
		section_topology(p.body, &r, topo_svg);
		section_steps(p.body, &r);
		section_checks(p.body, r.root);
		section_counts(p.body, r.root);
		section_splats(p.body, &r);
		section_path(p.body, &r);
		section_files(p.body, &r);
		html_el(p.body, "p", NULL, "Written by bpfwire-lab; `bpfwire-lab report RUN` writes it again.");
		ret = html_write(&p, path, HTML_MAX_BYTES);
		html_close(&p);
	}
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	run_summary_free(&r);
	return ret ? -1 : 0;
}
