// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-kernel-series: writes build/kernel/series.json, the record of
 * what went into a lab kernel (kernel/build.sh calls it after a build).
 * In C with json-c because the subjects and authors come from a user's
 * mbox: any byte may be in them, and json-c escapes them all.
 *
 * The patches come as a file of NUL-terminated fields, five a patch:
 * SERIES SUBJECT AUTHOR KIND VALUE, where KIND is "file" (VALUE the entry
 * of the series file) or "mbox_index" (VALUE the 1-based number of the
 * message in the mbox).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "errnames.h"
#include "file.h"
#include "log.h"

#define PROG "bpfwire-kernel-series"
/* A series of a few thousand patches is far below this. */
#define PATCHES_MAX (16u << 20)

static void usage(void)
{
	printf("usage: " PROG " --out FILE --flavour NAME --release RELEASE\n"
	       "       [--kernel-version V] --base-kind tarball|git|tree (--base-name NAME | --base-commit SHA)\n"
	       "       [--package-version V] [--dirty] [--patches-source PATH]\n"
	       "       [--mbox-sha256 HEX] --netpoll-series true|false\n"
	       "       [--fragment FILE]... [--patches LIST] [--dry-run]\n"
	       "\n"
	       "Writes FILE (build/kernel/series.json): the flavour, the release, the\n"
	       "kernel version (with --kernel-version; build.sh gives it on 7.x), the\n"
	       "base tree, each patch applied (LIST: NUL-terminated fields, five a patch:\n"
	       "SERIES SUBJECT AUTHOR file|mbox_index VALUE), the mbox's sha256, whether\n"
	       "bpfwire's netpoll series went on top, and the config fragments.\n"
	       "--dry-run prints the JSON to stdout instead. kernel/build.sh runs it.\n");
}

/* The next NUL-terminated field of buf[*at..len), or NULL at the end. */
static const char *next_field(const char *buf, size_t len, size_t *at)
{
	const char *s = buf + *at, *end;

	if (*at >= len)
		return NULL;
	end = memchr(s, '\0', len - *at);
	if (!end)
		return NULL;
	*at = end - buf + 1;
	return s;
}

static json_object *read_patches(const char *path)
{
	json_object *arr = json_object_new_array();
	size_t len = 0, at = 0;
	char *buf = read_file_max(path, &len, PATCHES_MAX);
	const char *f[5];

	if (!buf) {
		pr_warn("%s: %s", path, errno_str(errno));
		json_object_put(arr);
		return NULL;
	}
	while (at < len) {
		json_object *p = json_object_new_object();
		int i;

		for (i = 0; i < 5 && (f[i] = next_field(buf, len, &at)); i++)
			;
		if (i < 5 || (strcmp(f[3], "file") && strcmp(f[3], "mbox_index"))) {
			pr_warn("%s: a record is cut short or has a kind other than file or mbox_index",
				path);
			json_object_put(p);
			json_object_put(arr);
			free(buf);
			return NULL;
		}
		json_object_object_add(p, "series", json_object_new_string(f[0]));
		json_object_object_add(p, "subject", json_object_new_string(f[1]));
		json_object_object_add(p, "author", json_object_new_string(f[2]));
		if (!strcmp(f[3], "file"))
			json_object_object_add(p, "file", json_object_new_string(f[4]));
		else
			json_object_object_add(p, "mbox_index", json_object_new_int(atoi(f[4])));
		json_object_array_add(arr, p);
	}
	free(buf);
	return arr;
}

int main(int argc, char **argv)
{
	static const char shortopts[] = "h";
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "flavour", required_argument, NULL, 'f' },
		{ "release", required_argument, NULL, 'r' },
		{ "kernel-version", required_argument, NULL, 'K' },
		{ "base-kind", required_argument, NULL, 'k' },
		{ "base-name", required_argument, NULL, 'n' },
		{ "base-commit", required_argument, NULL, 'c' },
		{ "package-version", required_argument, NULL, 'p' },
		{ "dirty", no_argument, NULL, 'd' },
		{ "patches-source", required_argument, NULL, 's' },
		{ "mbox-sha256", required_argument, NULL, 'm' },
		{ "netpoll-series", required_argument, NULL, 'N' },
		{ "fragment", required_argument, NULL, 'F' },
		{ "patches", required_argument, NULL, 'P' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *out = NULL, *flavour = NULL, *release = NULL, *kind = NULL, *name = NULL;
	const char *commit = NULL, *pkg = NULL, *source = NULL, *sha = NULL, *netpoll = NULL;
	const char *patches = NULL, *kversion = NULL;
	bool dirty = false, dry = false;
	json_object *root, *base, *frags = json_object_new_array(), *list;
	int c, ret;

	log_init(PROG, LOG_INFO);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f': flavour = optarg; break;
		case 'r': release = optarg; break;
		case 'K': kversion = optarg; break;
		case 'k': kind = optarg; break;
		case 'n': name = optarg; break;
		case 'c': commit = optarg; break;
		case 'p': pkg = optarg; break;
		case 'd': dirty = true; break;
		case 's': source = optarg; break;
		case 'm': sha = optarg; break;
		case 'N': netpoll = optarg; break;
		case 'F': json_object_array_add(frags, json_object_new_string(optarg)); break;
		case 'P': patches = optarg; break;
		case 'D': dry = true; break;
		case 'h': usage(); json_object_put(frags); return 0;
		case 'V': cli_version(PROG); json_object_put(frags); return 0;
		default:
			json_object_put(frags);
			return cli_bad_option(PROG, argv, shortopts, longopts);
		}
	}
	if (optind != argc) {
		json_object_put(frags);
		return cli_bad_args(PROG, "no arguments besides the options, got '%s'", argv[optind]);
	}
	if ((!out && !dry) || !flavour || !release || !kind || !netpoll || (!name == !commit)) {
		json_object_put(frags);
		return cli_bad_args(PROG, "--out (or --dry-run), --flavour, --release, --base-kind, "
				    "--netpoll-series and one of --base-name or --base-commit are needed");
	}
	if (strcmp(kind, "tarball") && strcmp(kind, "git") && strcmp(kind, "tree")) {
		json_object_put(frags);
		return cli_bad_value(PROG, "--base-kind", kind, "tarball, git or tree");
	}
	if (strcmp(netpoll, "true") && strcmp(netpoll, "false")) {
		json_object_put(frags);
		return cli_bad_value(PROG, "--netpoll-series", netpoll, "true or false");
	}
	list = patches ? read_patches(patches) : json_object_new_array();
	if (!list) {
		json_object_put(frags);
		return 1;
	}

	root = json_object_new_object();
	base = json_object_new_object();
	json_object_object_add(root, "flavour", json_object_new_string(flavour));
	json_object_object_add(root, "release", json_object_new_string(release));
	if (kversion && kversion[0])
		json_object_object_add(root, "kernel_version", json_object_new_string(kversion));
	json_object_object_add(base, "kind", json_object_new_string(kind));
	if (name)
		json_object_object_add(base, "name", json_object_new_string(name));
	if (commit)
		json_object_object_add(base, "commit", json_object_new_string(commit));
	if (pkg && pkg[0])
		json_object_object_add(base, "package_version", json_object_new_string(pkg));
	if (!strcmp(kind, "git"))
		json_object_object_add(base, "dirty", json_object_new_boolean(dirty));
	json_object_object_add(root, "base", base);
	if (source)
		json_object_object_add(root, "patches_source", json_object_new_string(source));
	json_object_object_add(root, "patches", list);
	if (sha && sha[0])
		json_object_object_add(root, "mbox_sha256", json_object_new_string(sha));
	json_object_object_add(root, "netpoll_series", json_object_new_boolean(!strcmp(netpoll, "true")));
	json_object_object_add(root, "config_fragments", frags);

	if (dry) {
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		ret = 0;
	} else {
		char *text = NULL;

		if (asprintf(&text, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
			text = NULL;
		ret = text ? write_file_atomic(out, text) : -ENOMEM;
		if (ret)
			pr_warn("%s: %s", out, errno_str(-ret));
		free(text);
	}
	json_object_put(root);
	return ret ? 1 : 0;
}
