// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-kfunc-decls: the kfunc prototypes that a pahole which tags kfuncs
 * (1.25+) would put into vmlinux.h, made from the kernel's BTF for the
 * functions a series' BPF programs call. Debian 12's pahole 1.24 writes
 * none, so programs written against a newer tree do not compile as they
 * are. Writes a vmlinux.h that includes the real one, then one
 * "extern PROTO __weak __ksym;" per name, under BPF_NO_KFUNC_PROTOTYPES as
 * bpftool does. Names on stdout (the build log's bridge line).
 */
#define _GNU_SOURCE
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "errnames.h"
#include "file.h"
#include "kapi.h"
#include "libbpf_log.h"
#include "log.h"

#define PROG "bpfwire-kfunc-decls"
#define MAX_NAMES 512

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " --btf VMLINUX --vmlinux-h H --out FILE [--declared HDR]...\n"
"       SOURCE...\n"
"\n"
"Each identifier that SOURCE calls (NAME followed by '('), that the kernel's\n"
"BTF has as a FUNC, and that neither H nor a --declared header declares,\n"
"gets its prototype from BTF. FILE: '#include \"H\"' and those\n"
"prototypes as 'extern ... __weak __ksym;'. Prints the names, one line.\n"
"\n"
"  --btf VMLINUX   an ELF with .BTF, or raw BTF\n"
"  --vmlinux-h H   the vmlinux.h FILE wraps\n"
"  --declared HDR  a header whose declarations win (bpf_helper_defs.h...)\n"
"  --out FILE      the vmlinux.h to write\n"
"  --dry-run       say what would be read and written\n"
"  -h, --help      this text;  --version\n"
"\n"
"Exit: 0 written, 1 a file could not be read or written, 2 usage error.\n");
}

struct names {
	char *v[MAX_NAMES];
	int n;
};

static bool has(const struct names *s, const char *w, size_t len)
{
	for (int i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !strncmp(s->v[i], w, len))
			return true;
	return false;
}

static void add(struct names *s, const char *w, size_t len)
{
	if (s->n < MAX_NAMES && !has(s, w, len))
		s->v[s->n++] = strndup(w, len);
}

/*
 * The identifiers text calls (NAME, blanks, '('): comments, strings and
 * character constants skipped. Enough for C, not a parser: a false hit is
 * a name BTF has no FUNC of, and is dropped.
 */
static void scan_calls(const char *t, struct names *calls)
{
	const char *p = t;

	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (*p && *p != q) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p)
				p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *w = p, *q;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			for (q = p; *q == ' ' || *q == '\t'; q++)
				;
			if (*q == '(' && (w == t || (!isalnum((unsigned char)w[-1]) && w[-1] != '.'
						     && w[-1] != '>')))
				add(calls, w, (size_t)(p - w));
		} else {
			p++;
		}
	}
}

/* Whether text declares or defines name: NAME followed by '(' or ')' after
 * a type, '(*NAME)' of a helper pointer, or a macro of that name. */
static bool declares(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + n, *b = p;

		if (isalnum((unsigned char)*q) || *q == '_')
			continue;
		if (b > text && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		/* "(* const NAME)(" of a helper, or "#define NAME" */
		if (*q == ')' && strstr(text, "(*") && b > text && (b[-1] == '*' || isalpha((unsigned char)b[-1])))
			return true;
		if (b - text >= 7 && !strncmp(b - 7, "#define", 7))
			return true;
		/* "TYPE NAME(": preceded by a type word or '*', not by '=', '(', ',' or an operator */
		if (*q == '(' && b > text && (b[-1] == '*' || isalnum((unsigned char)b[-1]) || b[-1] == '_')) {
			const char *w = b;
			while (w > text && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
				w--;
			if (!((b - w == 6 && !strncmp(w, "return", 6)) ||
			      (b - w == 4 && !strncmp(w, "else", 4))))
				return true;
		}
	}
	return false;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "btf", required_argument, NULL, 'b' },
		{ "vmlinux-h", required_argument, NULL, 'v' },
		{ "declared", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *btf_path = NULL, *vh = NULL, *out = NULL, *declared[16];
	struct names calls = { 0 }, used = { 0 };
	char *texts[64];
	int ndecl = 0, ntexts = 0, c, rc = 0;
	bool dry = false;
	struct btf *btf;
	char *doc = NULL, proto[KAPI_PROTO_MAX];
	size_t len = 0;
	FILE *m;

	log_init(PROG, LOG_WARN);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': btf_path = optarg; break;
		case 'v': vh = optarg; break;
		case 'd':
			if (ndecl == 16)
				return cli_bad_args(PROG, "at most 16 --declared headers");
			declared[ndecl++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'n': dry = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, ":h", opts);
		}
	}
	if (!btf_path || !vh || !out)
		return cli_bad_args(PROG, "--btf, --vmlinux-h and --out are required");
	if (optind == argc)
		return cli_bad_args(PROG, "no SOURCE to read the calls of");
	if (argc - optind + ndecl + 1 > 64)
		return cli_bad_args(PROG, "at most %d files", 63 - ndecl);
	if (dry) {
		printf(PROG ": dry run: would read %s and %d sources, write %s\n", btf_path,
		       argc - optind, out);
		return 0;
	}
	/* texts: the sources, then the headers that declare things themselves */
	for (int i = optind; i < argc; i++) {
		if (!(texts[ntexts++] = read_file(argv[i], NULL))) {
			pr_warn("couldn't read %s: %s", argv[i], errno_str(-errno));
			return 1;
		}
		scan_calls(texts[ntexts - 1], &calls);
	}
	for (int i = 0; i <= ndecl; i++) {
		const char *p = i < ndecl ? declared[i] : vh;
		if (!(texts[ntexts++] = read_file(p, NULL))) {
			pr_warn("couldn't read %s: %s", p, errno_str(-errno));
			return 1;
		}
	}
	log_route_libbpf();
	btf = btf__parse(btf_path, NULL);
	if (!btf) {
		pr_warn("couldn't read BTF from %s: %s", btf_path, errno_str(-errno));
		return 1;
	}
	m = open_memstream(&doc, &len);
	fprintf(m, "/* Written by " PROG " from %s: the kfuncs the series' programs\n"
		   " * call, as a pahole that tags kfuncs would emit them. */\n"
		   "#include \"%s\"\n#ifndef BPF_NO_KFUNC_PROTOTYPES\n"
		   "#ifndef __ksym\n#define __ksym __attribute__((section(\".ksyms\")))\n#endif\n"
		   "#ifndef __weak\n#define __weak __attribute__((weak))\n#endif\n", btf_path, vh);
	/*
	 * Only the shared headers' declarations win: a series' own header that
	 * declares a kfunc is not included by every program (a newer pahole
	 * declares it in vmlinux.h all the same, and the two must agree).
	 */
	for (int i = 0; i < calls.n; i++) {
		bool mine = false;

		for (int t = argc - optind; t < ntexts && !mine; t++)
			mine = declares(texts[t], calls.v[i]);
		if (mine || kapi_decl(btf, calls.v[i], proto, sizeof(proto)))
			continue;
		/* btf_dump writes "f()" for no parameters: no prototype, and no BTF */
		size_t pl = strlen(proto);
		if (pl > 2 && !strcmp(proto + pl - 2, "()") && pl + 4 < sizeof(proto))
			strcpy(proto + pl - 1, "void)");
		fprintf(m, "extern %s __weak __ksym;\n", proto);
		add(&used, calls.v[i], strlen(calls.v[i]));
	}
	fprintf(m, "#endif /* BPF_NO_KFUNC_PROTOTYPES */\n");
	fclose(m);
	if (write_file_atomic(out, doc)) {
		pr_warn("couldn't write %s: %s", out, errno_str(-errno));
		rc = 1;
	}
	for (int i = 0; i < used.n; i++)
		printf("%s%s", i ? " " : "", used.v[i]);
	printf("%s\n", used.n ? "" : "none needed");
	btf__free(btf);
	free(doc);
	return rc;
}
