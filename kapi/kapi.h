/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kfunc API a kernel has, read from its BTF: which ksock API (the
 * seed's, the one Linux merged, another, none) and whether netpoll is
 * there. Each kfunc's prototype is rendered as C text (libbpf's btf_dump)
 * and compared with the text each known API expects, so an unknown API is
 * shown, not guessed. The one detector: the agent, kernel-tests, the lab
 * and the build (bpfwire-kapi, api.json) all link it. See kapi/README.md.
 */
#ifndef BPFWIRE_KAPI_H
#define BPFWIRE_KAPI_H

#include <stdbool.h>
#include <stdio.h>

struct btf;

enum kapi_ksock {
	KAPI_KSOCK_ABSENT	= 0,	/* no bpf_ksock_* kfunc in BTF */
	KAPI_KSOCK_SEED		= 1,	/* the posted series (seed 008), kernel/patches 0003 */
	KAPI_KSOCK_UPSTREAM	= 2,	/* kernel/patches/upstream/0003, as merged */
	KAPI_KSOCK_UNKNOWN	= 3,	/* present, but a prototype matches neither */
};

enum kapi_netpoll {
	KAPI_NETPOLL_ABSENT	= 0,
	KAPI_NETPOLL_PRESENT	= 1,	/* kernel/patches 0001 */
	KAPI_NETPOLL_UNKNOWN	= 2,
};

/* Exit status of bpfwire-agent (and bpfwire-kapi) for an API it cannot use. */
#define KAPI_EXIT_API	3

#define KAPI_PROTO_MAX	512
#define KAPI_NFUNCS	10

/* One kfunc the detector looks for. */
struct kapi_func {
	const char *name;
	const char *seed;	/* the prototype each API expects; NULL: not in it */
	const char *seed_sndbuf; /* the seed's with bpfwire's sndbuf extension; NULL: the same */
	const char *upstream;
	const char *netpoll;
	char found[KAPI_PROTO_MAX];	/* "" when the kernel has no such FUNC */
};

struct kapi {
	enum kapi_ksock ksock;
	enum kapi_netpoll netpoll;
	/*
	 * bpfwire's own extension of the seed API (kernel/patches/sndbuf, not
	 * in the posted series): struct bpf_ksock_create_opts is 8 bytes, a
	 * __u32 sndbuf after the posted 4. Read from BTF whatever the verdict;
	 * a seed kernel without it takes only the 4-byte opts.
	 */
	bool ksock_sndbuf;
	struct kapi_func funcs[KAPI_NFUNCS];
	int nfuncs;
	char source[256];	/* the BTF's path, for messages */
};

/*
 * FUNC name's prototype in btf as C (btf_dump), no ';': what a pahole that
 * tags kfuncs puts in vmlinux.h. 0, -ENOENT (no such FUNC) or -errno.
 */
int kapi_decl(const struct btf *btf, const char *name, char *out, size_t len);
/* Classify the kfuncs in btf (vmlinux BTF, or a synthetic one). 0 or -errno. */
int kapi_detect_btf(const struct btf *btf, struct kapi *k);
/*
 * The same from a file: raw BTF (/sys/kernel/btf/vmlinux) or an ELF with a
 * .BTF section (build/kernel/vmlinux). path NULL: /sys/kernel/btf/vmlinux.
 * 0, or -errno with a one-line reason in err.
 */
int kapi_detect_file(const char *path, struct kapi *k, char *err, size_t errlen);

const char *kapi_ksock_name(enum kapi_ksock a);		/* seed, upstream, unknown, absent */
const char *kapi_netpoll_name(enum kapi_netpoll a);	/* present, unknown, absent */
/* "seed" etc. -> the value; -1 when no name matches. */
int kapi_ksock_parse(const char *name);
int kapi_netpoll_parse(const char *name);

/*
 * Each kfunc of one family ("ksock" or "netpoll") as found beside what
 * each known API expects, one block per kfunc that differs (all with
 * all = true), every line starting with indent.
 */
void kapi_print_family(FILE *f, const struct kapi *k, const char *family, bool all,
		       const char *indent);

/* api.json: { "btf", "ksock", "netpoll", "ksock_sndbuf", "kfuncs": [{name, found, seed, upstream} or {name, found, expected}] } */
struct json_object;
struct json_object *kapi_to_json(const struct kapi *k);
/*
 * The verdicts back from an api.json document (the lab, the review and the
 * benchmark read these before anything boots). ksock_sndbuf may be NULL;
 * when it is not, the document must have the boolean "ksock_sndbuf". 0, or
 * -EINVAL with a reason in err.
 */
int kapi_from_json(const struct json_object *doc, enum kapi_ksock *ksock,
		   enum kapi_netpoll *netpoll, bool *ksock_sndbuf, char *err, size_t errlen);

#endif /* BPFWIRE_KAPI_H */
