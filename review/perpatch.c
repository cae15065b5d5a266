// SPDX-License-Identifier: GPL-2.0-only
/* The per-patch checks of the static section: see perpatch.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "log.h"
#include "perpatch.h"
#include "timeutil.h"

/* make's output for a few objects with W=1 is some KiB; a hostile tree's is capped */
#define PP_LOG_MAX (32u << 20)
#define PP_LIST_MAX (1u << 20)
/* an object's distinct warnings kept; a patch's listed */
#define PP_SET_MAX 5000
#define PP_LISTED_MAX 200

/*
 * A file the sandbox wrote: plain (a FIFO would block root's open; the
 * sandbox has ended, so it stays plain), no link, capped.
 */
static char *read_data(const char *path, size_t max)
{
	struct stat st;

	if (lstat(path, &st))
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	return read_file_max(path, NULL, max);
}

static void warning_free(struct pp_warning *w)
{
	free(w->tool), free(w->file), free(w->symbol), free(w->message);
}

void pp_set_free(struct pp_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		warning_free(&s->w[i]);
	free(s->w);
	s->w = NULL;
	s->n = 0;
}

static bool same_warning(const struct pp_warning *a, const struct pp_warning *b)
{
	return !strcmp(a->tool, b->tool) && !strcmp(a->file, b->file) && !strcmp(a->symbol, b->symbol) &&
	       !strcmp(a->message, b->message);
}

static bool set_has(const struct pp_set *s, const struct pp_warning *w)
{
	for (size_t i = 0; i < s->n; i++)
		if (same_warning(&s->w[i], w))
			return true;
	return false;
}

/* A copy of w into s unless s has it: 0 or -ENOMEM (s full: dropped). */
static int set_add(struct pp_set *s, const struct pp_warning *w)
{
	struct pp_warning c, *nw;

	if (set_has(s, w) || s->n >= PP_SET_MAX)
		return 0;
	c.tool = strdup(w->tool), c.file = strdup(w->file), c.symbol = strdup(w->symbol);
	c.message = strdup(w->message);
	nw = realloc(s->w, (s->n + 1) * sizeof(*nw));
	if (!c.tool || !c.file || !c.symbol || !c.message || !nw) {
		warning_free(&c);
		if (nw)
			s->w = nw;
		return -ENOMEM;
	}
	s->w = nw;
	s->w[s->n++] = c;
	return 0;
}

/* path relative to the tree: the sandbox's path of it, then "./", taken off */
static const char *relative(const char *p, const char *prefix)
{
	size_t pl = prefix ? strlen(prefix) : 0;

	if (pl && !strncmp(p, prefix, pl) && p[pl] == '/')
		p += pl + 1;
	while (!strncmp(p, "./", 2))
		p += 2;
	return p;
}

/*
 * OBJS' index of PATH (an object, or its .c; relative, or a path that ends
 * in "/" and it: a source named from another root), or -1.
 */
static int find_object(const char *path, char **objs, size_t nobj)
{
	size_t l = strlen(path);

	if (l < 2 || path[l - 2] != '.' || (path[l - 1] != 'o' && path[l - 1] != 'c'))
		return -1;
	for (size_t i = 0; i < nobj; i++) {
		size_t ol = strlen(objs[i]);
		const char *tail;

		if (ol > l)
			continue;
		tail = path + l - ol;
		if (!strncmp(objs[i], tail, ol - 1) && (tail == path || tail[-1] == '/'))
			return (int)i;
	}
	return -1;
}

/* "  CC      net/core/sock.o", "  CC [M]  x.o", "  CHECK   /tree/net/core/sock.c": the word and the path */
static bool marker(const char *line, char *word, size_t wlen, const char **path)
{
	const char *s = line + 2;
	size_t n;

	if (strncmp(line, "  ", 2) || !(*s >= 'A' && *s <= 'Z'))
		return false;
	n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (n >= wlen || s[n] != ' ')
		return false;
	memcpy(word, s, n);
	word[n] = '\0';
	s += n;
	while (*s == ' ')
		s++;
	if (!strncmp(s, "[M]", 3))
		for (s += 3; *s == ' '; s++)
			;
	if (!*s || strchr(s, ' '))
		return false;
	*path = s;
	return true;
}

/* gcc's "FILE: In function 'f':" (ASCII or UTF-8 quotes), "FILE: At top level:" */
static bool context(const char *line, const char *prefix, char **file, char **symbol)
{
	const char *in = strstr(line, ": In function "), *top = strstr(line, ": At top level:");
	const char *q, *e, *at = in ? in : top;

	if (!at || memchr(line, ' ', at - line))
		return false;
	*file = memdupz(line, at - line);
	if (!*file)
		return false;
	memmove(*file, relative(*file, prefix), strlen(relative(*file, prefix)) + 1);
	if (!in) {
		*symbol = strdup("");
	} else {
		q = in + strlen(": In function ");
		if (*q == '\'')
			q++;
		else if (!strncmp(q, "\xe2\x80\x98", 3))
			q += 3;
		e = q + strcspn(q, "'\xe2");
		*symbol = memdupz(q, e - q);
	}
	if (!*symbol) {
		free(*file);
		return false;
	}
	return true;
}

/* objtool's "f+0x1c: ..." moves with any change before it: the offset goes */
static void drop_offsets(char *m)
{
	char *o = m;

	for (char *s = m; *s;) {
		if (s[0] == '+' && s[1] == '0' && s[2] == 'x' && strchr("0123456789abcdef", s[3]) && s[3]) {
			s += 3;
			while (*s && strchr("0123456789abcdef", *s))
				s++;
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
}

/* "LOC: warning: MSG", LOC a file with ":LINE[:COL]" or none: kind 'w' or 'e', else 0 */
static int diagnostic(const char *line, const char **loc_end, const char **msg)
{
	static const struct { const char *s; int kind; } k[] = {
		{ ": warning: ", 'w' }, { ": error: ", 'e' }, { ": fatal error: ", 'e' },
	};
	const char *best = NULL;
	int kind = 0;

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		const char *p = strstr(line, k[i].s);

		if (p && (!best || p < best)) {
			best = p;
			kind = k[i].kind;
			*msg = p + strlen(k[i].s);
		}
	}
	if (!best || best == line || memchr(line, ' ', best - line))
		return 0;
	*loc_end = best;
	return kind;
}

int pp_parse_log(const char *text, const char *prefix, char **objs, size_t nobj, struct pp_set *w, char **err)
{
	char *cfile = NULL, *csym = NULL, word[16];
	const char *tool = "W=1";
	int cur = -1, r = 0;

	for (const char *s = text; *s && !r;) {
		size_t n = strcspn(s, "\n");
		char *line = memdupz(s, n), *file, *sym;
		const char *path, *le = NULL, *msg = NULL;
		int kind;

		s += n + (s[n] == '\n');
		if (!line)
			return -ENOMEM;
		if (marker(line, word, sizeof(word), &path)) {
			cur = -1;
			if (!strcmp(word, "CC") || !strcmp(word, "CHECK")) {
				cur = find_object(relative(path, prefix), objs, nobj);
				tool = !strcmp(word, "CC") ? "W=1" : "sparse";
			}
			free(cfile), free(csym);
			cfile = csym = NULL;
		} else if (cur >= 0 && context(line, prefix, &file, &sym)) {
			free(cfile), free(csym);
			cfile = file, csym = sym;
		} else if (cur >= 0 && (kind = diagnostic(line, &le, &msg))) {
			char *loc = memdupz(line, le - line), *c;
			struct pp_warning x = { 0 };

			if (!loc) {
				r = -ENOMEM;
			} else if (kind == 'e' && !strcmp(tool, "W=1")) {
				/* a build error: the first one, as it reads (its line helps) */
				if (!err[cur] && asprintf(&err[cur], "%s: error: %s", relative(loc, prefix), msg) < 0) {
					err[cur] = NULL;
					r = -ENOMEM;
				}
			} else {
				/* the file without ":LINE:COL" */
				while ((c = strrchr(loc, ':')) && c[1] && strspn(c + 1, "0123456789") == strlen(c + 1))
					*c = '\0';
				x.tool = (char *)tool;
				x.file = (char *)relative(loc, prefix);
				x.symbol = cfile && !strcmp(cfile, x.file) ? csym : "";
				if (asprintf(&x.message, "%s%s", kind == 'e' ? "error: " : "", msg) < 0) {
					r = -ENOMEM;
				} else {
					drop_offsets(x.message);
					r = set_add(&w[cur], &x);
					free(x.message);
				}
			}
			free(loc);
		}
		free(line);
	}
	free(cfile), free(csym);
	return r;
}

/* One commit's objects, their state, warnings and first error. */
struct commit {
	bool loaded;
	char **objs;
	enum pp_state *st;
	struct pp_set *w;
	char **err;
	size_t n;
};

static void commit_free(struct commit *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->objs[i]);
		free(c->err[i]);
		pp_set_free(&c->w[i]);
	}
	free(c->objs), free(c->st), free(c->w), free(c->err);
	memset(c, 0, sizeof(*c));
}

static int commit_load(struct commit *c, const char *dir, int k, const char *prefix, char *err, size_t errlen)
{
	static const char *const words[] = { [PP_BUILT] = "built ", [PP_FAILED] = "failed ", [PP_ABSENT] = "absent " };
	char path[PATH_MAX];
	char *text, *log;
	int r = 0;

	if (c->loaded)
		return 0;
	snprintf(path, sizeof(path), "%s/s%d.status", dir, k);
	text = read_data(path, PP_LIST_MAX);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");

		for (int st = PP_BUILT; st <= PP_ABSENT; st++) {
			size_t wl = strlen(words[st]);
			char **no;
			enum pp_state *ns;
			struct pp_set *nw;
			char **ne;

			if (n <= wl || strncmp(s, words[st], wl))
				continue;
			no = realloc(c->objs, (c->n + 1) * sizeof(*no));
			if (no)
				c->objs = no;
			ns = realloc(c->st, (c->n + 1) * sizeof(*ns));
			if (ns)
				c->st = ns;
			nw = realloc(c->w, (c->n + 1) * sizeof(*nw));
			if (nw)
				c->w = nw;
			ne = realloc(c->err, (c->n + 1) * sizeof(*ne));
			if (ne)
				c->err = ne;
			if (!no || !ns || !nw || !ne || !(c->objs[c->n] = memdupz(s + wl, n - wl))) {
				r = -ENOMEM;
				break;
			}
			c->st[c->n] = st;
			c->w[c->n] = (struct pp_set){ 0 };
			c->err[c->n++] = NULL;
		}
		s += n + (s[n] == '\n');
	}
	free(text);
	snprintf(path, sizeof(path), "%s/s%d.log", dir, k);
	log = r ? NULL : read_data(path, PP_LOG_MAX);
	/* no make ran when every object was absent */
	if (!r && !log && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	if (!r && log)
		r = pp_parse_log(log, prefix, c->objs, c->n, c->w, c->err);
	free(log);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, errno_str(-r));
		return -1;
	}
	c->loaded = true;
	return 0;
}

static int commit_find(const struct commit *c, const char *obj)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->objs[i], obj))
			return (int)i;
	return -1;
}

/* a - b into out (a copy): what a has and b has not. */
static int set_minus(const struct pp_set *a, const struct pp_set *b, struct pp_warning **out, size_t *n)
{
	struct pp_set d = { 0 };

	for (size_t i = 0; i < a->n; i++)
		if (!set_has(b, &a->w[i]) && set_add(&d, &a->w[i]))
			return pp_set_free(&d), -ENOMEM;
	*out = d.w;
	*n = d.n;
	return 0;
}

static int add_skipped(struct pp_patch *p, const char *path, const char *why)
{
	char **ns = realloc(p->skipped, (p->nskipped + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	p->skipped = ns;
	if (asprintf(&ns[p->nskipped], "%s%s", path, why) < 0)
		return -ENOMEM;
	p->nskipped++;
	return 0;
}

/* patch i (1-based): its files, then its objects at commits i - 1 and i */
static int load_patch(struct pp_report *pp, int i, struct commit *c, const char *dir, const char *prefix,
		      char *err, size_t errlen)
{
	struct pp_patch *p = &pp->p[i - 1];
	struct pp_set before = { 0 }, after = { 0 };
	bool compared = false;
	char path[PATH_MAX];
	char *text;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%04d.files", dir, i);
	text = read_data(path, PP_LIST_MAX);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return -1;
	}
	for (const char *s = text; *s && !r;) {
		size_t n = strcspn(s, "\n");
		char *line = memdupz(s, n);

		s += n + (s[n] == '\n');
		if (!line) {
			r = -ENOMEM;
		} else if (!strncmp(line, "c ", 2)) {
			struct pp_object *no = realloc(p->obj, (p->nobj + 1) * sizeof(*no));
			size_t l = strlen(line + 2);

			if (!no || l < 3 || strcmp(line + l, ".c")) {
				r = no ? 0 : -ENOMEM;
				if (no)
					p->obj = no;
			} else {
				p->obj = no;
				no[p->nobj] = (struct pp_object){ .path = strdup(line + 2) };
				if (!no[p->nobj].path)
					r = -ENOMEM;
				else
					no[p->nobj++].path[l - 1] = 'o';
			}
		} else if (!strncmp(line, "config ", 7)) {
			r = add_skipped(p, line + 7, ": not built in this config");
		} else if (!strncmp(line, "host ", 5)) {
			r = add_skipped(p, line + 5, ": a host tool's or a test's file, not the kernel's");
		} else if (!strncmp(line, "other ", 6)) {
			r = add_skipped(p, line + 6, ": not a .c file");
		} else if (!strcmp(line, "name")) {
			r = add_skipped(p, "a file", " with bytes in its name that a path of the kernel has not");
		}
		free(line);
	}
	free(text);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, errno_str(-r));
		return -1;
	}
	if (!p->nobj)
		return 0;
	if (commit_load(&c[i - 1], dir, i - 1, prefix, err, errlen) || commit_load(&c[i], dir, i, prefix, err, errlen))
		return -1;
	for (size_t j = 0; j < p->nobj; j++) {
		struct pp_object *o = &p->obj[j];
		int b = commit_find(&c[i - 1], o->path), a = commit_find(&c[i], o->path);

		o->parent = b < 0 ? PP_NOT_RUN : c[i - 1].st[b];
		o->patch = a < 0 ? PP_NOT_RUN : c[i].st[a];
		if (a >= 0 && c[i].err[a] && !(o->error = strdup(c[i].err[a])))
			return snprintf(err, errlen, "out of memory"), -1;
		if (o->patch == PP_FAILED && o->parent != PP_FAILED)
			p->breaks = true;
		if (o->parent == PP_FAILED && o->patch == PP_BUILT)
			p->repairs = true;
		/* the warnings of an object that does not build on both sides say nothing */
		if (o->parent == PP_FAILED || o->patch == PP_FAILED || o->parent == PP_NOT_RUN || o->patch == PP_NOT_RUN)
			continue;
		compared = true;
		for (size_t k = 0; b >= 0 && k < c[i - 1].w[b].n && !r; k++)
			r = set_add(&before, &c[i - 1].w[b].w[k]);
		for (size_t k = 0; a >= 0 && k < c[i].w[a].n && !r; k++)
			r = set_add(&after, &c[i].w[a].w[k]);
	}
	if (!r && compared) {
		p->nparent = before.n;
		p->npatch = after.n;
		r = set_minus(&after, &before, &p->added, &p->nadded);
		if (!r)
			r = set_minus(&before, &after, &p->gone, &p->ngone);
	}
	pp_set_free(&before);
	pp_set_free(&after);
	if (r)
		return snprintf(err, errlen, "out of memory"), -1;
	return 0;
}

int pp_load(struct pp_report *pp, int patches, const char *dir, const char *prefix, char *err, size_t errlen)
{
	struct commit *c;
	char path[PATH_MAX], *tools;
	int r = 0;

	pp->patches = patches;
	pp->p = calloc(patches, sizeof(*pp->p));
	c = calloc(patches + 1, sizeof(*c));
	snprintf(path, sizeof(path), "%s/tools", dir);
	tools = read_data(path, 4096);
	if (!pp->p || !c || !tools) {
		snprintf(err, errlen, "%s: %s", path, errno_str(pp->p && c ? errno : ENOMEM));
		free(c), free(tools);
		return -1;
	}
	/* "sparse VERSION\ngcc VERSION\n": one line, "sparse VERSION, gcc VERSION" */
	pp->sparse = strncmp(tools, "sparse none", 11) != 0;
	pp->tools = calloc(2, strlen(tools) + 1);
	for (char *t = tools, *o = pp->tools; o && *t; t++) {
		if (*t != '\n')
			*o++ = *t;
		else if (t[1])
			*o++ = ',', *o++ = ' ';
	}
	free(tools);
	if (!pp->tools) {
		snprintf(err, errlen, "out of memory");
		free(c);
		return -1;
	}
	for (int i = 1; i <= patches && !r; i++) {
		r = load_patch(pp, i, c, dir, prefix, err, errlen);
		if (!r && pp->p[i - 1].breaks && !pp->first_broken)
			pp->first_broken = i;
		if (!r)
			pp->added += pp->p[i - 1].nadded;
	}
	for (int i = 0; i <= patches; i++)
		commit_free(&c[i]);
	free(c);
	pp->ran = !r;
	return r;
}

size_t pp_counted(const struct pp_report *pp, bool strict)
{
	size_t n = 0;

	if (!strict || !pp->ran)
		return 0;
	for (int i = 0; i < pp->patches; i++)
		n += pp->p[i].breaks;
	return n + pp->added;
}

static const char *state_name(enum pp_state s)
{
	static const char *const n[] = { "not run", "built", "failed", "absent" };

	return n[s];
}

static void patch_line(FILE *f, int i, char *const *subjects)
{
	fprintf(f, "  patch %d \"", i);
	esc_fputs(f, subjects ? subjects[i - 1] : "", 0);
	fputs("\": ", f);
}

static void warning_text(FILE *f, const char *what, const struct pp_warning *w)
{
	fprintf(f, "%s ", what);
	esc_fputs(f, w->tool, 0);
	fputs(" warning: ", f);
	esc_fputs(f, w->file, 0);
	if (w->symbol[0]) {
		fputs(": ", f);
		esc_fputs(f, w->symbol, 0);
		fputs("()", f);
	}
	fputs(": ", f);
	esc_fputs(f, w->message, 0);
	fputc('\n', f);
}

void pp_write_text(FILE *f, const struct pp_report *pp, char *const *subjects, bool strict)
{
	size_t objects = 0, broken = 0, listed = 0;

	if (!pp->ran) {
		if (pp->not_run) {
			fputs("static: per patch, the objects it touches with W=1 and sparse: not run: ", f);
			esc_fputs(f, pp->not_run, 0);
			fputc('\n', f);
		}
		return;
	}
	for (int i = 0; i < pp->patches; i++) {
		objects += pp->p[i].nobj;
		broken += pp->p[i].breaks;
	}
	fprintf(f, "static: per patch, on its parent, the .c files it touches that the config builds, with W=1%s (",
		pp->sparse ? " and sparse (C=1)" : "; sparse is not installed (apt-get install sparse)");
	esc_fputs(f, pp->tools, 0);
	fprintf(f, "), warnings compared as sets (file, function, message): %d patches, %zu objects, "
		"%zu patches break the build, %zu new warnings (%s), %.0f s\n", pp->patches, objects, broken, pp->added,
		strict ? "--strict: they count as worse" : "not counted as worse; --strict counts them", pp->seconds);
	if (pp->first_broken) {
		fprintf(f, "  the first patch that breaks the build: patch %d \"", pp->first_broken);
		esc_fputs(f, subjects ? subjects[pp->first_broken - 1] : "", 0);
		fputs("\"\n", f);
	}
	for (int i = 1; i <= pp->patches; i++) {
		const struct pp_patch *p = &pp->p[i - 1];

		for (size_t j = 0; j < p->nobj; j++) {
			const struct pp_object *o = &p->obj[j];

			if (o->patch == PP_FAILED) {
				patch_line(f, i, subjects);
				fputs(o->parent == PP_FAILED ? "still does not build: " : "does not build: ", f);
				esc_fputs(f, o->path, 0);
				if (o->error) {
					fputs(": ", f);
					esc_fputs(f, o->error, 0);
				}
				fputc('\n', f);
			} else if (o->parent == PP_FAILED) {
				patch_line(f, i, subjects);
				fputs("builds again: ", f);
				esc_fputs(f, o->path, 0);
				fputc('\n', f);
			}
		}
		for (size_t j = 0; j < p->nadded && listed < PP_LISTED_MAX; j++, listed++) {
			patch_line(f, i, subjects);
			warning_text(f, "new", &p->added[j]);
		}
		for (size_t j = 0; j < p->ngone && listed < PP_LISTED_MAX; j++, listed++) {
			patch_line(f, i, subjects);
			warning_text(f, "gone", &p->gone[j]);
		}
		if (p->nadded && p->nadded == p->ngone) {
			patch_line(f, i, subjects);
			fprintf(f, "%zu warnings at its parent, %zu at it: the same count, another set\n",
				p->nparent, p->npatch);
		}
		for (size_t j = 0; j < p->nskipped; j++) {
			patch_line(f, i, subjects);
			fputs("not compiled: ", f);
			esc_fputs(f, p->skipped[j], 0);
			fputc('\n', f);
		}
	}
	if (listed >= PP_LISTED_MAX)
		fprintf(f, "  (more not listed: see review.json)\n");
}

static json_object *warning_json(const struct pp_warning *w)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "tool", json_object_new_string(w->tool));
	json_object_object_add(j, "file", json_object_new_string(w->file));
	json_object_object_add(j, "function", json_object_new_string(w->symbol));
	json_object_object_add(j, "message", json_object_new_string(w->message));
	return j;
}

json_object *pp_to_json(const struct pp_report *pp, char *const *subjects)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();

	json_object_object_add(o, "tools", json_object_new_string(pp->tools ? pp->tools : ""));
	json_object_object_add(o, "sparse", json_object_new_boolean(pp->sparse));
	if (pp->not_run)
		json_object_object_add(o, "not_run", json_object_new_string(pp->not_run));
	json_object_object_add(o, "first_broken", pp->first_broken ? json_object_new_int(pp->first_broken) : NULL);
	json_object_object_add(o, "new_warnings", json_object_new_int64(pp->added));
	json_object_object_add(o, "seconds", json_object_new_double(pp->seconds));
	for (int i = 1; pp->ran && i <= pp->patches; i++) {
		const struct pp_patch *p = &pp->p[i - 1];
		json_object *j = json_object_new_object(), *objs = json_object_new_array();
		json_object *added = json_object_new_array(), *gone = json_object_new_array();
		json_object *skipped = json_object_new_array();

		json_object_object_add(j, "patch", json_object_new_int(i));
		if (subjects)
			json_object_object_add(j, "subject", json_object_new_string(subjects[i - 1]));
		json_object_object_add(j, "breaks", json_object_new_boolean(p->breaks));
		json_object_object_add(j, "repairs", json_object_new_boolean(p->repairs));
		for (size_t k = 0; k < p->nobj; k++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "object", json_object_new_string(p->obj[k].path));
			json_object_object_add(x, "parent", json_object_new_string(state_name(p->obj[k].parent)));
			json_object_object_add(x, "patch", json_object_new_string(state_name(p->obj[k].patch)));
			if (p->obj[k].error)
				json_object_object_add(x, "error", json_object_new_string(p->obj[k].error));
			json_object_array_add(objs, x);
		}
		json_object_object_add(j, "objects", objs);
		json_object_object_add(j, "warnings_parent", json_object_new_int64(p->nparent));
		json_object_object_add(j, "warnings_patch", json_object_new_int64(p->npatch));
		for (size_t k = 0; k < p->nadded; k++)
			json_object_array_add(added, warning_json(&p->added[k]));
		for (size_t k = 0; k < p->ngone; k++)
			json_object_array_add(gone, warning_json(&p->gone[k]));
		for (size_t k = 0; k < p->nskipped; k++)
			json_object_array_add(skipped, json_object_new_string(p->skipped[k]));
		json_object_object_add(j, "new", added);
		json_object_object_add(j, "gone", gone);
		json_object_object_add(j, "not_compiled", skipped);
		json_object_array_add(list, j);
	}
	json_object_object_add(o, "patches", list);
	return o;
}

void pp_not_run(struct pp_report *pp, const char *why)
{
	if (!pp->not_run)
		pp->not_run = strdup(why);
}

void pp_free(struct pp_report *pp)
{
	for (int i = 0; pp->p && i < pp->patches; i++) {
		struct pp_patch *p = &pp->p[i];

		for (size_t j = 0; j < p->nobj; j++)
			free(p->obj[j].path), free(p->obj[j].error);
		for (size_t j = 0; j < p->nskipped; j++)
			free(p->skipped[j]);
		for (size_t j = 0; j < p->nadded; j++)
			warning_free(&p->added[j]);
		for (size_t j = 0; j < p->ngone; j++)
			warning_free(&p->gone[j]);
		free(p->obj), free(p->skipped), free(p->added), free(p->gone);
	}
	free(pp->p);
	free(pp->tools);
	free(pp->not_run);
	memset(pp, 0, sizeof(*pp));
}

int pp_run(struct pp_report *pp, const char *root, const char *bdir, int patches,
	   int (*run)(char *const argv[], const char *lock, int nice_inc))
{
	char src[PATH_MAX], obj[PATH_MAX], work[PATH_MAX], out[PATH_MAX], sandbox[PATH_MAX], script[PATH_MAX];
	char nstr[16], real[PATH_MAX], prefix[PATH_MAX + 32], err[PATH_MAX + 128];
	char *rm[] = { "rm", "-rf", "--", out, NULL };
	double t0 = now_s();
	int r;

	snprintf(src, sizeof(src), "%s/kernel/sbx/src", bdir);
	snprintf(obj, sizeof(obj), "%s/kernel/sbx/obj", bdir);
	/* beside the sandbox's sbx, never in it: root names these, made by root */
	snprintf(work, sizeof(work), "%s/perpatch-tree", bdir);
	snprintf(out, sizeof(out), "%s/perpatch", bdir);
	snprintf(sandbox, sizeof(sandbox), "%s/kernel/sandbox.sh", root);
	snprintf(script, sizeof(script), "%s/review/perpatch.sh", root);
	snprintf(nstr, sizeof(nstr), "%d", patches);
	snprintf(prefix, sizeof(prefix), "%s/src", work);
	/* make names files by its real path (getcwd): bdir is root's, so is its realpath */
	if (realpath(bdir, real))
		snprintf(prefix, sizeof(prefix), "%s/perpatch-tree/src", real);
	if (!file_exists(obj)) {
		snprintf(err, sizeof(err), "no sandboxed build at %s", obj);
		pp_not_run(pp, err);
		return 0;
	}
	run(rm, NULL, 0);
	pr_info("static: each of the %d patches on its parent: the objects it touches, make W=1%s, in the sandbox",
		patches, " (and C=1 when sparse is installed)");
	char *argv[] = { "bash", sandbox, "--rw", work, "--rw", out, "--ro", src, "--ro", obj, "--ro", (char *)root,
			 "--", "bash", script, src, obj, nstr, work, out, NULL };

	r = run(argv, NULL, 10);
	pp->seconds = now_s() - t0;
	if (r) {
		snprintf(err, sizeof(err), "review/perpatch.sh in the sandbox exited %d (see above)", r);
		pp_not_run(pp, err);
	} else if (pp_load(pp, patches, out, prefix, err, sizeof(err))) {
		pp_not_run(pp, err);
	}
	return r;
}
