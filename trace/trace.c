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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include "probes.h"
#include "trace.skel.h"

static int verbose;
static volatile sig_atomic_t stop;

#define pr_warn(...) logf_(0, __VA_ARGS__)
#define pr_info(...) logf_(1, __VA_ARGS__)
#define pr_debug(...) logf_(2, __VA_ARGS__)

static void logf_(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > verbose)
		return;
	va_start(ap, fmt);
	fputs("bpfwire-trace: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf one level down: its warnings only with -v. */
	if ((level == LIBBPF_WARN && verbose < 1) || (level != LIBBPF_WARN && verbose < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

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
		pr_warn("couldn't create ready file %s: %s (%d)\n", path, strerror(errno), -errno);
}

static const char usage[] =
"usage: bpfwire-trace record --out FILE [--ready-file FILE] [-v]\n"
"Trace every bpfwire datagram through the sender's stack until SIGINT.\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *out_path = NULL, *ready = NULL;
	struct ctx c = { .reason_type = -1 };
	struct bpfwire_trace *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct btf *btf = NULL;
	struct bpf_program *prog;
	struct bpf_link *links[TR_NPROBES * 2];
	int nlinks = 0;
	json_object *meta = NULL, *probes, *end;
	struct timespec mono, real;
	int opt, err, ret = 1;

	while ((opt = getopt_long(argc, argv, "o:r:vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': out_path = optarg; break;
		case 'r': ready = optarg; break;
		case 'v': verbose++; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "record") || !out_path) {
		fputs(usage, stderr);
		return 2;
	}
	libbpf_set_print(libbpf_print);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		pr_warn("couldn't load this kernel's BTF: %s (%d)\n", strerror(errno), -errno);
		goto out;
	}
	c.vmlinux = btf;
	c.reason_type = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);

	skel = bpfwire_trace__open();
	if (!skel) {
		pr_warn("couldn't open the tracer: %s (%d)\n", strerror(errno), -errno);
		goto out;
	}
	/* A function this kernel lacks (or inlined away) is skipped, not fatal. */
	meta = json_object_new_object();
	probes = json_object_new_array();
	bpf_object__for_each_program(prog, skel->obj) {
		const char *target;

		if (!target_exists(btf, bpf_program__section_name(prog), &target)) {
			bpf_program__set_autoload(prog, false);
			pr_info("%s: not in this kernel's BTF, skipped\n", bpf_program__section_name(prog));
		}
	}
	err = bpfwire_trace__load(skel);
	if (err) {
		pr_warn("couldn't load the tracer: %s (%d); -v shows the verifier\n", strerror(-err), err);
		goto out;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		const char *sec = bpf_program__section_name(prog), *target;
		json_object *p = json_object_new_object();
		struct bpf_link *l;

		target_exists(btf, sec, &target);
		json_object_object_add(p, "program", json_object_new_string(sec));
		if (!bpf_program__autoload(prog)) {
			json_object_object_add(p, "attached", json_object_new_boolean(0));
			json_object_object_add(p, "why", json_object_new_string("not in BTF"));
		} else if (!(l = bpf_program__attach(prog))) {
			err = -errno;
			pr_warn("couldn't attach %s: %s (%d)\n", sec, strerror(-err), err);
			json_object_object_add(p, "attached", json_object_new_boolean(0));
			json_object_object_add(p, "why", json_object_new_string(strerror(-err)));
		} else {
			if (nlinks < (int)(sizeof(links) / sizeof(links[0])))
				links[nlinks++] = l;
			json_object_object_add(p, "attached", json_object_new_boolean(1));
		}
		json_object_array_add(probes, p);
	}

	c.out = fopen(out_path, "w");
	if (!c.out) {
		pr_warn("couldn't open %s: %s (%d)\n", out_path, strerror(errno), -errno);
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_record, &c, NULL);
	if (!rb) {
		pr_warn("couldn't open the ring buffer: %s (%d)\n", strerror(errno), -errno);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	json_object_object_add(meta, "type", json_object_new_string("meta"));
	json_object_object_add(meta, "version", json_object_new_int(1));
	json_object_object_add(meta, "clock", json_object_new_string("bpf_ktime_get_ns (CLOCK_MONOTONIC)"));
	json_object_object_add(meta, "mono_ns", json_object_new_int64(mono.tv_sec * 1000000000LL + mono.tv_nsec));
	json_object_object_add(meta, "realtime_ns", json_object_new_int64(real.tv_sec * 1000000000LL + real.tv_nsec));
	json_object_object_add(meta, "probes", probes);
	fprintf(c.out, "%s\n", json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PLAIN));
	fflush(c.out);
	if (ready)
		touch(ready);
	pr_info("recording into %s\n", out_path);

	while (!stop) {
		err = ring_buffer__poll(rb, 200);
		if (err < 0 && err != -EINTR) {
			pr_warn("couldn't poll the ring buffer: %s (%d)\n", strerror(-err), err);
			goto out;
		}
		fflush(c.out);
	}
	ring_buffer__consume(rb);
	end = json_object_new_object();
	json_object_object_add(end, "type", json_object_new_string("end"));
	json_object_object_add(end, "records", json_object_new_uint64(c.records));
	json_object_object_add(end, "lost", json_object_new_uint64(skel->bss->lost));
	fprintf(c.out, "%s\n", json_object_to_json_string_ext(end, JSON_C_TO_STRING_PLAIN));
	json_object_put(end);
	if (fflush(c.out)) {
		pr_warn("couldn't write %s: %s (%d)\n", out_path, strerror(errno), -errno);
		goto out;
	}
	pr_info("%llu records, %llu lost\n", c.records, (unsigned long long)skel->bss->lost);
	ret = 0;
out:
	ring_buffer__free(rb);
	if (c.out && fclose(c.out) && !ret) {
		pr_warn("couldn't close %s: %s (%d)\n", out_path, strerror(errno), -errno);
		ret = 1;
	}
	json_object_put(meta);
	while (nlinks > 0)
		bpf_link__destroy(links[--nlinks]);
	bpfwire_trace__destroy(skel);
	btf__free(btf);
	return ret;
}
