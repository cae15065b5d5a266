// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-trace record --out FILE [--ready-file FILE] [-v]
 *
 * Runs in a lab guest: attaches trace.bpf.c to every function of the ksock
 * and netpoll send paths that this kernel's BTF has, touches the ready file,
 * and writes one JSON line per record until SIGINT or SIGTERM, then drains
 * the ring buffer and exits 0. The first line ("type":"meta") says which
 * probes were attached and why the others were not; the last ("type":"end")
 * counts records and losses. trace/README.md documents the format.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include "cli.h"
#include "errnames.h"
#include "libbpf_log.h"
#include "log.h"
#include "probes.h"
#include "trace.bpf.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct ctx {
	FILE *out;
	const struct btf *vmlinux;
	int reason_type;		/* BTF id of enum skb_drop_reason, or -1 */
	unsigned long long records;
};

static const char *drop_reason(const struct ctx *c, long long v)
{
	const struct btf_type *t;
	const struct btf_enum *e;

	if (c->reason_type < 0)
		return NULL;
	t = btf__type_by_id(c->vmlinux, c->reason_type);
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++) {
		if (e->val == v) {
			const char *n = btf__name_by_offset(c->vmlinux, e->name_off);

			return strncmp(n, "SKB_DROP_REASON_", 16) ? n : n + 16;
		}
	}
	return NULL;
}

static const char *path_name(int p)
{
	return p == TR_PATH_KSOCK ? "ksock" : p == TR_PATH_NETPOLL ? "netpoll" : "none";
}

static int on_record(void *arg, void *data, size_t size)
{
	struct ctx *c = arg;
	const struct tr_event *e = data;
	json_object *o;
	char buf[32];

	if (size < sizeof(*e) || e->probe == 0 || e->probe >= TR_NPROBES)
		return 0;
	o = json_object_new_object();
	json_object_object_add(o, "t", json_object_new_uint64(e->ts));
	json_object_object_add(o, "probe", json_object_new_string(tr_probes[e->probe].name));
	json_object_object_add(o, "layer", json_object_new_string(tr_layer_name[tr_probes[e->probe].layer]));
	json_object_object_add(o, "ev", json_object_new_string(e->kind == TR_EXIT ? "exit" : "entry"));
	json_object_object_add(o, "path", json_object_new_string(path_name(e->path)));
	json_object_object_add(o, "sender", json_object_new_int64(e->sender_id));
	json_object_object_add(o, "seq", json_object_new_uint64(e->seq));
	if (e->skb) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)e->skb);
		json_object_object_add(o, "skb", json_object_new_string(buf));
	}
	if (e->kind == TR_EXIT)
		json_object_object_add(o, "ret", json_object_new_int64(e->ret));
	if (e->probe == TR_KFREE_SKB) {
		const char *r = drop_reason(c, e->ret);

		json_object_object_add(o, "reason", r ? json_object_new_string(r) :
				       json_object_new_int64(e->ret));
	}
	if (e->ifindex && if_indextoname(e->ifindex, buf))
		json_object_object_add(o, "dev", json_object_new_string(buf));
	json_object_object_add(o, "len", json_object_new_int64(e->len));
	json_object_object_add(o, "pid", json_object_new_int64(e->pid));
	json_object_object_add(o, "cpu", json_object_new_int64(e->cpu));
	fprintf(c->out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	c->records++;
	return 0;
}

/* "fentry/udp_sendmsg" -> is udp_sendmsg a FUNC (or tracepoint) in this kernel? */
static int target_exists(const struct btf *btf, const char *sec, const char **target)
{
	char name[128];
	const char *slash = strchr(sec, '/');

	*target = slash ? slash + 1 : sec;
	if (!strncmp(sec, "tp_btf/", 7)) {
		snprintf(name, sizeof(name), "btf_trace_%s", *target);
		return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) >= 0;
	}
	return btf__find_by_name_kind(btf, *target, BTF_KIND_FUNC) >= 0;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
	else
		pr_warn("couldn't create ready file %s: %s", path, errno_str(errno));
}

#define PROG "bpfwire-trace"

static const char usage[] =
"usage: " PROG " record --out FILE [--ready-file FILE] [-v]\n"
"Trace every bpfwire datagram through the sender's stack until SIGINT.\n"
"Exit 0 recorded, 1 could not trace, 2 a usage error.\n";

/* -1 to go on, else the exit code. Each -v is one log level more. */
static int parse_args(int argc, char **argv, const char **out_path, const char **ready)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const char shortopts[] = "o:r:vh";
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (opt) {
		case 'o': *out_path = optarg; break;
		case 'r': *ready = optarg; break;
		case 'v':
			if (log_level < LOG_TRACE)
				log_level++;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, opts);
		}
	}
	if (optind >= argc)
		return cli_bad_args(PROG, "missing the command: record");
	if (strcmp(argv[optind], "record"))
		return cli_bad_args(PROG, "unknown command '%s': the one command is record",
				    argv[optind]);
	if (optind + 1 < argc)
		return cli_bad_args(PROG, "record takes no argument: '%s'", argv[optind + 1]);
	if (!*out_path)
		return cli_bad_args(PROG, "record needs --out FILE");
	return -1;
}

struct tracer {
	struct bpfwire_trace *skel;
	struct btf *btf;
	struct bpf_link *links[TR_NPROBES * 2];
	int nlinks;
};

/* BTF, then the programs whose function this kernel has, loaded. */
static int open_tracer(struct tracer *t, struct ctx *c)
{
	struct bpf_program *prog;
	int err;

	t->btf = btf__load_vmlinux_btf();
	if (!t->btf) {
		pr_warn("couldn't load this kernel's BTF: %s", errno_str(errno));
		return -1;
	}
	c->vmlinux = t->btf;
	c->reason_type = btf__find_by_name_kind(t->btf, "skb_drop_reason", BTF_KIND_ENUM);

	t->skel = bpfwire_trace__open();
	if (!t->skel) {
		pr_warn("couldn't open the tracer: %s", errno_str(errno));
		return -1;
	}
	/* A function this kernel lacks (or inlined away) is skipped, not fatal. */
	bpf_object__for_each_program(prog, t->skel->obj) {
		const char *target;

		if (!target_exists(t->btf, bpf_program__section_name(prog), &target)) {
			bpf_program__set_autoload(prog, false);
			pr_info("%s: not in this kernel's BTF, skipped", bpf_program__section_name(prog));
		}
	}
	err = bpfwire_trace__load(t->skel);
	if (err) {
		pr_warn("couldn't load the tracer: %s; -v shows the verifier", errno_str(err));
		return -1;
	}
	return 0;
}

/* Attaches every loaded program; the meta line's "probes" says how each went. */
static json_object *attach_all(struct tracer *t)
{
	json_object *probes = json_object_new_array();
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, t->skel->obj) {
		const char *sec = bpf_program__section_name(prog), *target;
		json_object *p = json_object_new_object();
		struct bpf_link *l;
		int err;

		target_exists(t->btf, sec, &target);
		json_object_object_add(p, "program", json_object_new_string(sec));
		if (!bpf_program__autoload(prog)) {
			json_object_object_add(p, "attached", json_object_new_boolean(0));
			json_object_object_add(p, "why", json_object_new_string("not in BTF"));
		} else if (!(l = bpf_program__attach(prog))) {
			err = -errno;
			pr_warn("couldn't attach %s: %s", sec, errno_str(err));
			json_object_object_add(p, "attached", json_object_new_boolean(0));
			json_object_object_add(p, "why", json_object_new_string(strerror(-err)));
		} else {
			if (t->nlinks < (int)(sizeof(t->links) / sizeof(t->links[0])))
				t->links[t->nlinks++] = l;
			json_object_object_add(p, "attached", json_object_new_boolean(1));
		}
		json_object_array_add(probes, p);
	}
	return probes;
}

/* The first line: the clocks and the probes (taken over). */
static void write_meta(FILE *out, json_object *probes)
{
	json_object *meta = json_object_new_object();
	struct timespec mono, real;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	json_object_object_add(meta, "type", json_object_new_string("meta"));
	json_object_object_add(meta, "version", json_object_new_int(1));
	json_object_object_add(meta, "clock", json_object_new_string("bpf_ktime_get_ns (CLOCK_MONOTONIC)"));
	json_object_object_add(meta, "mono_ns", json_object_new_int64(mono.tv_sec * 1000000000LL + mono.tv_nsec));
	json_object_object_add(meta, "realtime_ns", json_object_new_int64(real.tv_sec * 1000000000LL + real.tv_nsec));
	json_object_object_add(meta, "probes", probes);
	fprintf(out, "%s\n", json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PLAIN));
	fflush(out);
	json_object_put(meta);
}

/* Records until SIGINT or SIGTERM, drains the ring, writes the end line. */
static int record(struct ring_buffer *rb, struct ctx *c, const char *out_path,
		  const struct bpfwire_trace *skel)
{
	json_object *end;
	int err;

	while (!stop) {
		err = ring_buffer__poll(rb, 200);
		if (err < 0 && err != -EINTR) {
			pr_warn("couldn't poll the ring buffer: %s", errno_str(err));
			return -1;
		}
		fflush(c->out);
	}
	ring_buffer__consume(rb);
	end = json_object_new_object();
	json_object_object_add(end, "type", json_object_new_string("end"));
	json_object_object_add(end, "records", json_object_new_uint64(c->records));
	json_object_object_add(end, "lost", json_object_new_uint64(skel->bss->lost));
	fprintf(c->out, "%s\n", json_object_to_json_string_ext(end, JSON_C_TO_STRING_PLAIN));
	json_object_put(end);
	if (fflush(c->out)) {
		pr_warn("couldn't write %s: %s", out_path, errno_str(errno));
		return -1;
	}
	pr_info("%llu records, %llu lost", c->records, (unsigned long long)skel->bss->lost);
	return 0;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *ready = NULL;
	struct ctx c = { .reason_type = -1 };
	struct tracer t = { 0 };
	struct ring_buffer *rb = NULL;
	json_object *probes = NULL;
	int ret;

	log_init(PROG, LOG_WARN);
	ret = parse_args(argc, argv, &out_path, &ready);
	if (ret >= 0)
		return ret;
	ret = 1;
	log_route_libbpf();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	if (open_tracer(&t, &c))
		goto out;
	probes = attach_all(&t);
	c.out = fopen(out_path, "w");
	if (!c.out) {
		pr_warn("couldn't open %s: %s", out_path, errno_str(errno));
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(t.skel->maps.events), on_record, &c, NULL);
	if (!rb) {
		pr_warn("couldn't open the ring buffer: %s", errno_str(errno));
		goto out;
	}
	write_meta(c.out, probes);
	probes = NULL;
	if (ready)
		touch(ready);
	pr_info("recording into %s", out_path);
	if (!record(rb, &c, out_path, t.skel))
		ret = 0;
out:
	ring_buffer__free(rb);
	if (c.out && fclose(c.out) && !ret) {
		pr_warn("couldn't close %s: %s", out_path, errno_str(errno));
		ret = 1;
	}
	json_object_put(probes);
	while (t.nlinks > 0)
		bpf_link__destroy(t.links[--t.nlinks]);
	bpfwire_trace__destroy(t.skel);
	btf__free(t.btf);
	return ret;
}
