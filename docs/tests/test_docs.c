// SPDX-License-Identifier: GPL-2.0-only
/*
 * docs-commands and docs-links: what the READMEs teach must work as
 * written. Every line of every ```sh block in every README.md and docs/ page
 * is run the way it parses without doing anything: `./run --dry-run`, a
 * bpfwire tool with --dry-run (or as is, where the line asks for --help or
 * --version), `meson test --list`, `meson setup`'s -D options against the
 * build's own; a script of the repository must exist and be executable;
 * other programs are only counted. Exit 2 (a usage error), 126 or 127 fails.
 * Every relative link must name a file inside the repository.
 *
 * usage: test_docs SOURCE BUILD   (run from SOURCE)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include <json-c/json.h>

#include "file.h"
#include "tap.h"
#include "proc.h"

static const char *src, *build;
static char src_real[PATH_MAX];

/* The project's executables, by name, where Meson builds them. */
static const char *const tools[][2] = {
	{ "bpfwire-lab", "lab" }, { "bpfwire-trigger", "lab" },
	{ "bpfwire-recv", "receiver" }, { "bpfwire-agent", "bpf" },
	{ "bpfwire-bench", "bench" }, { "bpfwire-bench-guest", "bench/guest" },
	{ "bpfwire-trace", "trace" }, { "bpfwire-path", "trace" },
	{ "bpfwire-splat", "common" }, { "bpfwire-lock", "common" }, { "bpfwire-review", "review" },
	{ "bpfwire-kapi", "kapi" }, { "bpfwire-kfunc-decls", "selftests" },
	{ "bpfwire-selftests-run", "selftests" },
};

struct counts {
	int cmds, run, checked_only, other, links;
};

/* ---- the documents ------------------------------------------------------ */

static bool skip_dir(const char *name)
{
	return name[0] == '.' || !strncmp(name, "build", 5) || !strcmp(name, "results") ||
	       !strcmp(name, "subprojects");
}

/* README.md in every folder, and every .md in docs/; relative to SOURCE, sorted. */
static void find_docs(const char *rel, char ***out, int *n)
{
	char path[PATH_MAX * 2];
	struct dirent **de;
	int m;

	snprintf(path, sizeof(path), "%s/%s", src, rel);
	m = scandir(path, &de, NULL, alphasort);
	for (int i = 0; i < m; i++) {
		const char *d = de[i]->d_name;
		char sub[PATH_MAX / 2];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", d);
		snprintf(path, sizeof(path), "%s/%s", src, sub);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && !skip_dir(d)) {
			find_docs(sub, out, n);
		} else if (S_ISREG(st.st_mode) &&
			   (!strcmp(d, "README.md") ||
			    (!strcmp(rel, "docs") && strlen(d) > 3 && !strcmp(d + strlen(d) - 3, ".md")))) {
			*out = realloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = strdup(sub);
		}
		free(de[i]);
	}
	if (m >= 0)
		free(de);
}

/* ---- commands ----------------------------------------------------------- */

/* Cut a trailing "  # comment" that is outside quotes. */
static void cut_comment(char *s)
{
	char q = 0;

	for (char *p = s; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			break;
		}
	}
	for (size_t l = strlen(s); l && isspace((unsigned char)s[l - 1]);)
		s[--l] = '\0';
}

/*
 * The simple commands of a line: split at &&, ||, ; and | outside quotes.
 * Returns how many (at most max), each a strdup.
 */
static int split_commands(const char *line, char **out, int max)
{
	char q = 0, *buf = strdup(line), *start = buf;
	int n = 0;

	for (char *p = buf; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == ';' || *p == '|' || (*p == '&' && p[1] == '&')) {
			bool two = (p[0] == '&' || p[0] == '|') && p[1] == p[0];

			*p = '\0';
			if (n < max)
				out[n++] = strdup(start);
			p += two;
			start = p + 1;
		}
	}
	if (n < max)
		out[n++] = strdup(start);
	free(buf);
	return n;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static bool has_word(char **w, int n, const char *word)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(w[i], word))
			return true;
	return false;
}

/* Run argv from SOURCE; fold its output into a TAP comment on failure. */
static int run(struct argv *a, char *out, size_t outlen)
{
	return run_cmd(a->v, NULL, out, outlen);
}

/* The option NAME of `meson introspect --buildoptions BUILD`, or NULL. */
static json_object *build_option(json_object *opts, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(opts); i++) {
		json_object *o = json_object_array_get_idx(opts, i), *n;

		if (json_object_object_get_ex(o, "name", &n) && !strcmp(json_object_get_string(n), name))
			return o;
	}
	return NULL;
}

/* -Dname=value: an option of this project or Meson, with a value it takes. */
static bool meson_option_ok(const char *d, json_object *opts, char *why, size_t len)
{
	const char *eq = strchr(d, '=');
	json_object *o, *v;
	char name[128];

	if (!eq || eq - d - 2 >= (int)sizeof(name)) {
		snprintf(why, len, "%s: not -Dname=value", d);
		return false;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - d - 2), d + 2);
	o = build_option(opts, name);
	if (!o) {
		snprintf(why, len, "-D%s: no such option", name);
		return false;
	}
	if (json_object_object_get_ex(o, "choices", &v)) {
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(v, i)), eq + 1))
				return true;
		snprintf(why, len, "-D%s=%s: not one of %s", name, eq + 1, json_object_to_json_string(v));
		return false;
	}
	json_object_object_get_ex(o, "type", &v);
	if (!strcmp(json_object_get_string(v), "boolean") && strcmp(eq + 1, "true") && strcmp(eq + 1, "false")) {
		snprintf(why, len, "-D%s=%s: not true or false", name, eq + 1);
		return false;
	}
	return true;
}

static json_object *build_opts;
/*
 * Files a document shows for the user to write ("`my.topo`:" before a
 * block): a command naming one is checked without running.
 */
static char user_files[8][64];
static int nuser_files;
static bool kernel_disabled;

/*
 * One simple command. Returns its exit status (0 for "not ours" and
 * "exists"), and says what was done in how.
 */
static int check_command(char **w, int n, struct counts *c, char *how, size_t howlen, char *out,
			 size_t outlen)
{
	const char *prog = w[0], *b = base(prog);
	struct argv a = { 0 };
	char path[PATH_MAX];
	int st = 0;

	out[0] = '\0';
	for (int i = 0; i < nuser_files; i++)
		if (has_word(w, n, user_files[i])) {
			snprintf(how, howlen, "names %.63s, a file the document asks the user to write", user_files[i]);
			c->checked_only++;
			return 0;
		}
	if (!strcmp(prog, "./run")) {
		argv_add(&a, "%s/run", src);
		argv_add(&a, "--dry-run");
		for (int i = 1; i < n; i++)
			argv_add(&a, "%s", w[i]);
		snprintf(how, howlen, "./run --dry-run");
		st = run(&a, out, outlen);
		c->run++;
	} else if (!strncmp(b, "bpfwire-", 8)) {
		const char *dir = NULL;

		for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
			if (!strcmp(tools[i][0], b))
				dir = tools[i][1];
		if (!dir) {
			snprintf(out, outlen, "%s: no such bpfwire tool", b);
			snprintf(how, howlen, "unknown tool");
			return 127;
		}
		snprintf(path, sizeof(path), "%s/%s/%s", build, dir, b);
		if (access(path, X_OK)) {
			snprintf(how, howlen, "not built in this configuration");
			c->other++;
			return 0;
		}
		argv_add(&a, "%s", path);
		if (!has_word(w, n, "--help") && !has_word(w, n, "--version"))
			argv_add(&a, "--dry-run");
		for (int i = 1; i < n; i++)
			argv_add(&a, "%s", w[i]);
		snprintf(how, howlen, "%s", a.n > 1 && !strcmp(a.v[1], "--dry-run") ? "--dry-run" : "as is");
		st = run(&a, out, outlen);
		c->run++;
	} else if (!strcmp(prog, "meson") && n > 1 && !strcmp(w[1], "test")) {
		argv_add(&a, "meson");
		argv_add(&a, "test");
		argv_add(&a, "--no-rebuild");
		argv_add(&a, "--list");
		for (int i = 2; i < n; i++) {
			if (!strcmp(w[i], "-C") && i + 1 < n) {
				argv_add(&a, "-C");
				argv_add(&a, "%s", build);
				i++;
			} else if (strcmp(w[i], "-v") && strcmp(w[i], "--print-errorlogs")) {
				argv_add(&a, "%s", w[i]);
			}
		}
		snprintf(how, howlen, "meson test --list");
		st = run(&a, out, outlen);
		/* a host-only build has no kernel tests to list */
		if (st && kernel_disabled) {
			snprintf(how, howlen, "not in a -Dkernel=disabled build");
			st = 0;
		} else if (st) {
			st = 2;	/* a test or suite that does not exist */
		}
		c->run++;
	} else if (!strcmp(prog, "meson")) {
		snprintf(how, howlen, "meson options checked");
		for (int i = 1; i < n; i++)
			if (!strncmp(w[i], "-D", 2) && !meson_option_ok(w[i], build_opts, out, outlen))
				st = 2;
		if (n < 2 || (strcmp(w[1], "setup") && strcmp(w[1], "compile") && strcmp(w[1], "configure"))) {
			snprintf(out, outlen, "meson %s: not a subcommand the docs should need", n > 1 ? w[1] : "");
			st = 2;
		}
		c->checked_only++;
	} else if (strchr(prog, '/')) {
		snprintf(path, sizeof(path), "%s/%s", src, prog);
		snprintf(how, howlen, "a script of the repository: exists");
		if (access(path, X_OK)) {
			snprintf(out, outlen, "%s: %s", prog, strerror(errno));
			st = 127;
		}
		c->checked_only++;
	} else {
		snprintf(how, howlen, "not ours: counted only");
		c->other++;
	}
	argv_free(&a);
	return st;
}

static void check_line(const char *doc, int lineno, const char *line, struct counts *c)
{
	char *cmds[8], name[512], out[4096], how[192], *bare = strdup(line);
	int ncmd;

	cut_comment(bare);
	ncmd = split_commands(bare, cmds, 8);
	free(bare);
	for (int k = 0; k < ncmd; k++) {
		wordexp_t we;
		int st, r;

		snprintf(name, sizeof(name), "%s:%d: %s", doc, lineno, cmds[k]);
		r = wordexp(cmds[k], &we, WRDE_NOCMD);
		if (r) {
			tap_check(false, name, __LINE__, "the shell would not parse it (wordexp %d)", r);
			free(cmds[k]);
			continue;
		}
		if (we.we_wordc == 0) {
			wordfree(&we);
			free(cmds[k]);
			continue;
		}
		c->cmds++;
		st = check_command(we.we_wordv, (int)we.we_wordc, c, how, sizeof(how), out, sizeof(out));
		tap_check(st != 2 && st != 126 && st != 127 && st >= 0, name, __LINE__,
			  "exit %d (%s):\n%s", st, how, out);
		if (st && st != 2 && st != 126 && st != 127)
			printf("# %s: exit %d (%s), not a usage error\n", name, st, how);
		wordfree(&we);
		free(cmds[k]);
	}
}

static void check_commands(const char *doc, const char *text, struct counts *c)
{
	const char *p = text;
	bool in_sh = false, in_block = false;

	nuser_files = 0;
	char line[4096] = "";
	int lineno = 0, start = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *t = p;

		lineno++;
		while (t < p + len && *t == ' ')
			t++;
		if (*t == '`' && len > 3 && !strncmp(p + len - 2, "`:", 2) && nuser_files < 8 &&
		    len - (t - p) < sizeof(user_files[0]) + 2)
			snprintf(user_files[nuser_files++], sizeof(user_files[0]), "%.*s",
				 (int)(len - (t - p) - 3), t + 1);
		if (!strncmp(t, "```", 3)) {
			in_sh = !in_block && !strncmp(t + 3, "sh", 2) && (t + 5 >= p + len || isspace((unsigned char)t[5]));
			in_block = !in_block;
		} else if (in_sh && len) {
			size_t l = strlen(line);

			if (!l)
				start = lineno;
			snprintf(line + l, sizeof(line) - l, "%.*s", (int)len, p);
			l = strlen(line);
			if (l && line[l - 1] == '\\') {
				line[l - 1] = ' ';
			} else {
				check_line(doc, start, line, c);
				line[0] = '\0';
			}
		}
		p += len + (nl != NULL);
	}
}

/* ---- links -------------------------------------------------------------- */

/*
 * A link's target, relative to the document; a path named in `code`
 * (loose, true) may also be relative to the repository's root.
 */
static void check_target(const char *doc, int lineno, const char *target, size_t tlen, bool loose,
			 struct counts *c)
{
	char t[PATH_MAX / 4], dir[PATH_MAX / 4], full[PATH_MAX], real[PATH_MAX], name[PATH_MAX / 2];
	char *hash;

	snprintf(t, sizeof(t), "%.*s", (int)tlen, target);
	if (!strncmp(t, "https://", 8) || !strncmp(t, "http://", 7) || !strncmp(t, "mailto:", 7) ||
	    t[0] == '#' || !t[0])
		return;
	c->links++;
	hash = strchr(t, '#');
	if (hash)
		*hash = '\0';
	snprintf(dir, sizeof(dir), "%s", doc);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	snprintf(full, sizeof(full), "%s/%s%s%s", src, dir, dir[0] ? "/" : "", t);
	snprintf(name, sizeof(name), "%s:%d: link %s", doc, lineno, t);
	if (t[0] == '/' || strchr(t, ':')) {
		tap_check(false, name, __LINE__, "not a path inside the repository");
		return;
	}
	if (loose && access(full, F_OK) && t[0] != '.')
		snprintf(full, sizeof(full), "%s/%s", src, t);
	if (!realpath(full, real)) {
		tap_check(false, name, __LINE__, "%s: %s", full, strerror(errno));
		return;
	}
	tap_check(!strncmp(real, src_real, strlen(src_real)) &&
		  (real[strlen(src_real)] == '/' || !real[strlen(src_real)]),
		  name, __LINE__, "%s is outside the repository %s", real, src_real);
}

/* `lab/README.md`, `../topology/pair.topo`: a document, or a file named upwards, in code. */
static void check_code_path(const char *doc, int lineno, const char *s, const char *end, struct counts *c)
{
	const char *e = memchr(s, '`', end - s);
	size_t l = e ? (size_t)(e - s) : 0;

	if (!l || memchr(s, ' ', l) || memchr(s, '$', l) || memchr(s, '*', l))
		return;
	static const char *const ext[] = { ".md", ".topo", ".sh", ".c", ".h", ".build", ".config", ".patch" };

	/* kernel-tree paths (net/core/...) are named in code too: only ./ and ../ */
	if (!memchr(s, '/', l) || (strncmp(s, "../", 3) && strncmp(s, "./", 2) &&
				   (l < 3 || memcmp(s + l - 3, ".md", 3))))
		return;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t el = strlen(ext[i]);

		if (l > el && !memcmp(s + l - el, ext[i], el)) {
			check_target(doc, lineno, s, l, true, c);
			return;
		}
	}
}

/* [text](target) and reference definitions "[x]: target", outside code. */
static void check_links(const char *doc, const char *text, struct counts *c)
{
	bool in_block = false;
	int lineno = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p), *t = p;

		lineno++;
		while (t < end && *t == ' ')
			t++;
		if (!strncmp(t, "```", 3)) {
			in_block = !in_block;
		} else if (!in_block) {
			bool code = false;

			for (const char *q = p; q < end; q++) {
				if (*q == '`') {
					code = !code;
					if (code)
						check_code_path(doc, lineno, q + 1, end, c);
				}
				if (code)
					continue;
				if (q[0] == ']' && q[1] == '(') {
					const char *s = q + 2, *e = memchr(s, ')', end - s);

					if (e)
						check_target(doc, lineno, s, strcspn(s, " )"), false, c);
				} else if (q == t && *q == '[' && strstr(q, "]: ") && strstr(q, "]: ") < end) {
					const char *s = strstr(q, "]: ") + 3;

					check_target(doc, lineno, s, strcspn(s, " \n"), false, c);
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
}

int main(int argc, char **argv)
{
	char **docs = NULL, *text, out[1 << 16];
	struct counts total = { 0 };
	int ndocs = 0;
	size_t len;

	if (argc != 3) {
		fprintf(stderr, "usage: test_docs SOURCE BUILD\n");
		return 2;
	}
	src = argv[1];
	build = argv[2];
	if (!realpath(src, src_real) || chdir(src))
		return tap_skip_all("source tree unreadable");
	setenv("BPFWIRE_BUILD", build, 1);
	setenv("BPFWIRE_BENCH_BUILD", build, 1);
	{
		struct argv a = { 0 };

		argv_add(&a, "meson");
		argv_add(&a, "introspect");
		argv_add(&a, "--buildoptions");
		argv_add(&a, "%s", build);
		if (run(&a, out, sizeof(out)))
			return tap_skip_all("meson introspect failed");
		argv_free(&a);
		build_opts = json_tokener_parse(out);
		if (!json_object_is_type(build_opts, json_type_array))
			return tap_skip_all("meson introspect printed no option list");
		json_object *k = build_option(build_opts, "kernel"), *v;
		kernel_disabled = k && json_object_object_get_ex(k, "value", &v) &&
				  !strcmp(json_object_get_string(v), "disabled");
	}
	find_docs("", &docs, &ndocs);
	for (int i = 0; i < ndocs; i++) {
		struct counts c = { 0 };

		text = read_file(docs[i], &len);
		if (!text) {
			tap_check(false, docs[i], __LINE__, "unreadable");
			continue;
		}
		check_commands(docs[i], text, &c);
		check_links(docs[i], text, &c);
		printf("# %s: %d commands (%d run, %d checked without running, %d not ours or not built), %d links\n",
		       docs[i], c.cmds, c.run, c.checked_only, c.other, c.links);
		total.cmds += c.cmds;
		total.links += c.links;
		free(text);
		free(docs[i]);
	}
	printf("# %d documents, %d commands, %d links\n", ndocs, total.cmds, total.links);
	free(docs);
	json_object_put(build_opts);
	tap_check(ndocs > 0 && total.cmds > 0, "found documents and commands", __LINE__,
		  "%d documents, %d commands", ndocs, total.cmds);
	return tap_done();
}
