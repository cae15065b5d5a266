// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-vcost: what the running kernel's verifier pays for each of the
 * agent's BPF programs, as BPF CI's veristat reports it: whether it loads,
 * the instructions processed (the kernel's verified_insns) and the peak
 * states (BPF_LOG_STATS). Deterministic for one kernel and one object,
 * even under TCG, so a review compares them between a baseline and a
 * series (review/vcost.c). Each program is loaded alone, so one that fails
 * takes no other with it.
 *
 * TAP, one line a program, its figures after "#" so that the case's name
 * is the same on every kernel:
 *   ok N - OBJECT: PROGRAM # insns=I peak_states=P total_states=T
 *   not ok N - OBJECT: PROGRAM # does not load: LAST LINE
 *   ok N - OBJECT: PROGRAM # SKIP not for this kernel's API: LAST LINE
 * An object fails only where the kernel's BTF has its API (kapi/): ksock
 * for the seed API, ksock_up for the merged one, netpoll where present,
 * ringbuf always. Each is loaded with the agent's fullest configuration
 * (set_cfg()).
 *
 * --object FILE measures a series' selftests' programs instead, as BPF CI
 * runs veristat on them; the case is named "FILE's name: PROGRAM". Some of
 * those are meant not to load (test_loader's __failure), so a refusal is
 *   not ok N - x.bpf.o: PROGRAM # TODO does not load: LAST LINE
 * which fails no test, yet ranks below ok: a program that loaded on the
 * base and not on the series is still worse in a review.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/socket.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kapi.h"
#include "libbpf_log.h"
#include "log.h"
#include "sender.h"	/* the types the skeletons' .rodata and maps name */

#include "ksock.bpf.skel.h"
#include "ksock_up.bpf.skel.h"
#include "netpoll.bpf.skel.h"
#include "ringbuf.bpf.skel.h"

#define PROG "bpfwire-vcost"
#define VLOG_SIZE (1u << 20)
#define BPF_LOG_STATS_LEVEL 4

struct vc_object {
	const char *name;
	const void *(*bytes)(size_t *sz);
	const char *path;	/* a file (--object), not an embedded skeleton */
	bool must;	/* set from the kernel's API */
};

#define MAX_FILES 128

static struct vc_object objects[] = {
	{ .name = "ksock", .bytes = bpfwire_ksock__elf_bytes },
	{ .name = "ksock_up", .bytes = bpfwire_ksock_up__elf_bytes },
	{ .name = "netpoll", .bytes = bpfwire_netpoll__elf_bytes },
	{ .name = "ringbuf", .bytes = bpfwire_ringbuf__elf_bytes },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [--btf FILE] [--object FILE]... [--dry-run]\n"
"\n"
"Loads each of bpfwire-agent's BPF programs alone into the running kernel\n"
"and prints TAP, a line a program: whether the verifier took it, the\n"
"instructions it processed (verified_insns) and its peak states. A program\n"
"of an API the kernel's BTF has (--btf, default the running kernel's)\n"
"that does not load is \"not ok\"; one of another API is a SKIP.\n"
"Run it in a guest: it loads BPF programs into the kernel it runs on.\n"
"\n"
"  --btf FILE   the BTF that decides which APIs must load\n"
"  --object FILE  a BPF object file (a series' selftests' x.bpf.o) to\n"
"               measure instead (128 at most); a program of it that does\n"
"               not load is a TODO line, not a failure\n"
"  --dry-run    list the objects, load nothing\n"
"  -h, --help   this text;  --version\n"
"\n"
"Exit: 0 every program of the kernel's APIs loaded, 1 one did not (or the\n"
"BTF could not be read), 2 usage error.\n");
}

/* The verifier's stats line; 0 when found. */
static int parse_stats(const char *log, unsigned *insns, unsigned *peak, unsigned *total)
{
	const char *p = strstr(log, "processed ");
	unsigned lim, maxs, mark;

	for (; p; p = strstr(p + 1, "processed "))
		if (sscanf(p, "processed %u insns (limit %u) max_states_per_insn %u "
			   "total_states %u peak_states %u mark_read %u",
			   insns, &lim, &maxs, total, peak, &mark) == 6)
			return 0;
	return -ENOENT;
}

/* The log's last line that is not a stats line, made safe for one TAP line. */
static void last_line(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *s, *e = end;
	size_t o = 0;

	out[0] = '\0';
	while (e > log) {
		while (e > log && (e[-1] == '\n' || e[-1] == ' '))
			e--;
		s = e;
		while (s > log && s[-1] != '\n')
			s--;
		if (e > s && strncmp(s, "processed ", 10) && strncmp(s, "verification time", 17) &&
		    strncmp(s, "stack depth ", 12))
			break;
		e = s;
	}
	if (e <= log) {
		snprintf(out, len, "(the verifier said nothing)");
		return;
	}
	for (const char *c = s; c < e && o + 3 < len; c++) {
		if (*c == '#')
			out[o++] = '\\';
		out[o++] = (*c >= ' ' && *c < 127) ? *c : '?';
	}
	out[o] = '\0';
}

/*
 * The agent fills .rodata's cfg before load, and the verifier prunes what
 * it turns off: with a zeroed cfg an event program is a few instructions.
 * Measure the most code the agent can load: both events, a path prefix,
 * signed v2 datagrams, batches of 8 with an age limit (ksock; the others
 * compile batching out). 0, or -ENOENT when the object has no cfg.
 */
static int set_cfg(struct bpf_object *bo)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	struct bpf_map *map, *ro = NULL;
	struct bpfwire_cfg *cfg;
	struct btf *btf = bpf_object__btf(bo);
	const void *init;
	size_t sz = 0;
	char *data;
	int id, err;

	bpf_object__for_each_map(map, bo) {
		const char *n = bpf_map__name(map);

		if (bpf_map__is_internal(map) && strlen(n) >= 7 && !strcmp(n + strlen(n) - 7, ".rodata"))
			ro = map;
	}
	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	init = ro ? bpf_map__initial_value(ro, &sz) : NULL;
	if (id < 0 || !init)
		return -ENOENT;
	data = malloc(sz);
	if (!data)
		return -ENOMEM;
	memcpy(data, init, sz);
	sec = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (strcmp(btf__name_by_offset(btf, v->name_off), "cfg") ||
		    vs->offset + sizeof(*cfg) > sz)
			continue;
		cfg = (struct bpfwire_cfg *)(data + vs->offset);
		memset(cfg, 0, sizeof(*cfg));
		cfg->sender_id = 1;
		cfg->events = BPFWIRE_EVF_EXEC | BPFWIRE_EVF_OPEN;
		cfg->family = AF_INET;
		memcpy(cfg->dst_addr, (unsigned char[]){ 192, 0, 2, 2 }, 4);
		cfg->dst_port = 7000;
		snprintf(cfg->dev, sizeof(cfg->dev), "eth0");
		cfg->prefix_len = 4;
		memcpy(cfg->prefix, "/tmp", 4);
		cfg->key_id = 1;
		cfg->wire_version = 2;
		cfg->batch = 8;
		cfg->batch_age_ms = 100;
		err = bpf_map__set_initial_value(ro, data, sz);
		free(data);
		return err;
	}
	free(data);
	return -ENOENT;
}

/*
 * Load program index want of obj alone and print its TAP line: 0, 1 if it
 * failed where it must load, -ENOENT past the last program, -EIO when the
 * object does not open (said).
 */
static int one(const struct vc_object *obj, int want, int *n, char *vlog)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = obj->name);
	struct bpf_program *prog, *mine = NULL;
	struct bpf_object *bo;
	const void *bytes;
	size_t sz;
	char name[128], why[200];
	int i = 0, err, bad = 0;

	if (obj->path) {
		bo = bpf_object__open_file(obj->path, &oo);
	} else {
		bytes = obj->bytes(&sz);
		bo = bpf_object__open_mem(bytes, sz, &oo);
	}
	if (!bo) {
		printf("not ok %d - %s: (object) # does not open: %s\n", ++*n, obj->name, strerror(errno));
		return -EIO;
	}
	bpf_object__for_each_program(prog, bo) {
		bpf_program__set_autoload(prog, i == want);
		if (i++ == want)
			mine = prog;
	}
	if (!mine) {
		bpf_object__close(bo);
		return -ENOENT;
	}
	if (!obj->path && set_cfg(bo)) {
		printf("not ok %d - %s: %s # no .rodata cfg to fill\n", ++*n, obj->name,
		       bpf_program__name(mine));
		bpf_object__close(bo);
		return 1;
	}
	snprintf(name, sizeof(name), "%s", bpf_program__name(mine));
	vlog[0] = '\0';
	bpf_program__set_log_buf(mine, vlog, VLOG_SIZE);
	bpf_program__set_log_level(mine, BPF_LOG_STATS_LEVEL);
	err = bpf_object__load(bo);
	if (!err) {
		struct bpf_prog_info info = {};
		__u32 ilen = sizeof(info);
		unsigned insns = 0, peak = 0, total = 0;

		if (parse_stats(vlog, &insns, &peak, &total))
			insns = peak = total = 0;
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(mine), &info, &ilen) && info.verified_insns)
			insns = info.verified_insns;
		printf("ok %d - %s: %s # insns=%u peak_states=%u total_states=%u\n", ++*n, obj->name,
		       name, insns, peak, total);
	} else {
		last_line(vlog, why, sizeof(why));
		if (!vlog[0])
			snprintf(why, sizeof(why), "%s", strerror(-err));
		if (obj->path) {
			printf("not ok %d - %s: %s # TODO does not load: %s\n", ++*n, obj->name, name, why);
		} else if (obj->must) {
			printf("not ok %d - %s: %s # does not load: %s\n", ++*n, obj->name, name, why);
			bad = 1;
		} else {
			printf("ok %d - %s: %s # SKIP not for this kernel's API: %s\n", ++*n, obj->name,
			       name, why);
		}
	}
	bpf_object__close(bo);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "btf", required_argument, NULL, 'b' },
		{ "object", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static struct vc_object files[MAX_FILES];
	struct vc_object *objs = objects;
	size_t nobjs = sizeof(objects) / sizeof(objects[0]), nfiles = 0;
	const char *btf = NULL;
	bool dry = false;
	struct kapi k;
	char err[512], *vlog;
	int c, n = 0, bad = 0;

	log_init(PROG, LOG_WARN);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': btf = optarg; break;
		case 'o':
			if (nfiles == MAX_FILES)
				return cli_bad_args(PROG, "at most %d --object", MAX_FILES);
			files[nfiles].path = optarg;
			files[nfiles++].name = strrchr(optarg, '/') ? strrchr(optarg, '/') + 1 : optarg;
			break;
		case 'n': dry = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, ":h", opts);
		}
	}
	if (optind != argc)
		return cli_bad_args(PROG, "takes no arguments, got '%s'", argv[optind]);
	if (nfiles) {
		objs = files;
		nobjs = nfiles;
	}
	if (dry) {
		printf(PROG ": dry run: would load each program of");
		for (size_t i = 0; i < nobjs; i++)
			printf(" %s", objs[i].name);
		printf(", the APIs read from %s\n", btf ? btf : "/sys/kernel/btf/vmlinux");
		return 0;
	}
	log_route_libbpf();
	if (kapi_detect_file(btf, &k, err, sizeof(err))) {
		pr_warn("%s", err);
		return 1;
	}
	objects[0].must = k.ksock == KAPI_KSOCK_SEED;
	objects[1].must = k.ksock == KAPI_KSOCK_UPSTREAM;
	objects[2].must = k.netpoll == KAPI_NETPOLL_PRESENT;
	objects[3].must = true;
	printf("# kernel: ksock API %s, netpoll %s\n", kapi_ksock_name(k.ksock),
	       kapi_netpoll_name(k.netpoll));
	vlog = malloc(VLOG_SIZE);
	if (!vlog) {
		pr_warn("out of memory");
		return 1;
	}
	for (size_t i = 0; i < nobjs; i++)
		for (int p = 0;; p++) {
			int r = one(&objs[i], p, &n, vlog);

			if (r == -EIO)
				bad = 1;
			if (r < 0)
				break;
			bad |= r;
		}
	free(vlog);
	printf("1..%d\n", n);
	return bad || !n;
}
