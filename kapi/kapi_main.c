// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-kapi: which kfunc API a kernel has (kapi.h), from its BTF. The
 * build writes build/kernel/api.json with it; a reviewer runs it on a
 * vmlinux to see each kfunc's prototype beside what bpfwire expects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "errnames.h"
#include "file.h"
#include "kapi.h"
#include "libbpf_log.h"
#include "log.h"

#define PROG "bpfwire-kapi"

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [--btf FILE] [--json OUT] [--all] [--dry-run]\n"
"\n"
"Reads a kernel's BTF and says which ksock API it has (seed: the posted\n"
"series, upstream: as merged, unknown: present but a prototype matches\n"
"neither, absent) and whether netpoll is there (present, unknown, absent).\n"
"On the seed it also says whether bpfwire's sndbuf extension is there\n"
"(kernel/patches/sndbuf: 8-byte create opts). For an unknown API each\n"
"kfunc that differs is printed as C beside what each known API expects.\n"
"\n"
"  --btf FILE   a vmlinux (ELF with .BTF) or raw BTF; default\n"
"               /sys/kernel/btf/vmlinux, the running kernel's\n"
"  --json OUT   also write the result with every prototype (api.json)\n"
"  --all        print every kfunc, not only those that differ\n"
"  --dry-run    say what would be read and written, read nothing\n"
"  -h, --help   this text;  --version\n"
"\n"
"Exit: 0 read (whatever the API: an unknown API is a finding, not an\n"
"error), 1 the BTF could not be read or OUT written, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "btf", required_argument, NULL, 'b' },
		{ "json", required_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *btf = NULL, *json = NULL;
	bool all = false, dry = false;
	struct kapi k;
	char err[512];
	int c;

	log_init(PROG, LOG_WARN);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ah", opts, NULL)) != -1) {
		switch (c) {
		case 'b': btf = optarg; break;
		case 'j': json = optarg; break;
		case 'a': all = true; break;
		case 'n': dry = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, ":ah", opts);
		}
	}
	if (optind != argc)
		return cli_bad_args(PROG, "takes no arguments, got '%s'", argv[optind]);
	if (dry) {
		printf(PROG ": dry run: would read %s%s%s\n", btf ? btf : "/sys/kernel/btf/vmlinux",
		       json ? " and write " : "", json ? json : "");
		return 0;
	}
	log_route_libbpf();
	if (kapi_detect_file(btf, &k, err, sizeof(err))) {
		pr_warn("%s", err);
		return 1;
	}
	printf("%s: ksock API %s, netpoll %s\n", k.source, kapi_ksock_name(k.ksock),
	       kapi_netpoll_name(k.netpoll));
	if (k.ksock == KAPI_KSOCK_SEED)
		printf("  sndbuf extension (kernel/patches/sndbuf): %s\n", k.ksock_sndbuf ?
		       "present, bpf_ksock_create_opts is 8 bytes with sndbuf" :
		       "absent, bpf_ksock_create_opts is the posted series' 4 bytes");
	kapi_print_family(stdout, &k, "ksock", all, "  ");
	kapi_print_family(stdout, &k, "netpoll", all, "  ");
	if (json) {
		json_object *doc = kapi_to_json(&k);
		char *text;
		int r;

		if (asprintf(&text, "%s\n", json_object_to_json_string_ext(doc,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
			text = NULL;
		r = text ? write_file_atomic(json, text) : -ENOMEM;
		free(text);
		json_object_put(doc);
		if (r) {
			pr_warn("couldn't write %s: %s", json, errno_str(r));
			return 1;
		}
	}
	return 0;
}
