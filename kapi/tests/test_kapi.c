// SPDX-License-Identifier: GPL-2.0-only
/*
 * kapi-detect: the detector on BTF built here (btf__new_empty and friends):
 * the seed's and upstream's kfuncs, a changed prototype (an argument, an
 * opts size, bind kept beside the union), no ksock, netpoll present, changed
 * and absent; the printed prototypes; api.json and its reading; then
 * bpfwire-kapi (argv[1]) on a BTF file with a changed prototype.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/btf.h>
#include <json-c/json.h>

#include "file.h"
#include "kapi.h"
#include "tap.h"

/* What a variant of the kernel changes. */
struct variant {
	int ksock;		/* 0 none, 1 seed, 2 upstream */
	int create_opts_sz;	/* sizeof(struct bpf_ksock_create_opts) */
	bool connect_flags;	/* a v8: connect takes a fourth argument */
	bool netpoll;
	bool netpoll_err_uninit; /* netpoll_create's err renamed err__uninit */
};

struct types {
	int u32, int_, void_ptr_c, ks_ptr, np_ptr;
};

static int add_proto(struct btf *b, const char *name, int ret, int n, const char *const *pn,
		     const int *pt)
{
	int proto = btf__add_func_proto(b, ret);

	for (int i = 0; i < n; i++)
		btf__add_func_param(b, pn[i], pt[i]);
	return btf__add_func(b, name, BTF_FUNC_STATIC, proto);
}

#define FUNC(b, name, ret, ...) ({						\
	const char *pn_[] = { __VA_ARGS__ };					\
	add_proto_names(b, name, ret, sizeof(pn_) / sizeof(pn_[0]) / 2, pn_); })

/* Arguments in pairs: name, then the type id as a string of digits. */
static int add_proto_names(struct btf *b, const char *name, int ret, int n, const char *const *pairs)
{
	const char *pn[8];
	int pt[8];

	for (int i = 0; i < n; i++) {
		pn[i] = pairs[2 * i];
		pt[i] = atoi(pairs[2 * i + 1]);
	}
	return add_proto(b, name, ret, n, pn, pt);
}

static const char *id(int v)
{
	static char buf[16][12];
	static int next;
	char *s = buf[next++ % 16];

	snprintf(s, 12, "%d", v);
	return s;
}

static int ptr_to_const(struct btf *b, int t)
{
	return btf__add_ptr(b, btf__add_const(b, t));
}

static struct btf *make_btf(const struct variant *v)
{
	struct btf *b = btf__new_empty();
	int uint, u32_, int_, ks, ksp, np, npp, intp, vcp;

	uint = btf__add_int(b, "unsigned int", 4, 0);
	int_ = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	u32_ = btf__add_typedef(b, "u32", btf__add_typedef(b, "__u32", uint));
	intp = btf__add_ptr(b, int_);
	vcp = ptr_to_const(b, 0);
	/* Unrelated functions with the prefix, as the real kernel has. */
	add_proto(b, "bpf_ksock_kfunc_init", int_, 0, NULL, NULL);
	if (v->ksock) {
		int co, ao, ua;

		ks = btf__add_struct(b, "bpf_ksock", 16);
		ksp = btf__add_ptr(b, ks);
		co = btf__add_struct(b, "bpf_ksock_create_opts", v->create_opts_sz);
		FUNC(b, "bpf_ksock_create", ksp, "opts", id(ptr_to_const(b, co)),
		     "opts__sz", id(u32_), "err__uninit", id(intp));
		if (v->ksock == 1) {
			ao = btf__add_struct(b, "bpf_ksock_addr_opts", 24);
			FUNC(b, "bpf_ksock_bind", int_, "ks", id(ksp), "opts", id(ptr_to_const(b, ao)),
			     "opts__sz", id(u32_));
			FUNC(b, "bpf_ksock_connect", int_, "ks", id(ksp), "opts", id(ptr_to_const(b, ao)),
			     "opts__sz", id(u32_));
		} else {
			ua = btf__add_union(b, "bpf_ksock_addr", 28);
			if (v->connect_flags)
				FUNC(b, "bpf_ksock_connect", int_, "ks", id(ksp), "addr", id(ptr_to_const(b, ua)),
				     "addr__sz", id(u32_), "flags", id(u32_));
			else
				FUNC(b, "bpf_ksock_connect", int_, "ks", id(ksp), "addr", id(ptr_to_const(b, ua)),
				     "addr__sz", id(u32_));
		}
		FUNC(b, "bpf_ksock_acquire", ksp, "ks", id(ksp));
		FUNC(b, "bpf_ksock_release", 0, "ks", id(ksp));
		FUNC(b, "bpf_ksock_send", int_, "ks", id(ksp), "data", id(vcp), "data__sz", id(u32_));
	}
	if (v->netpoll) {
		int no = btf__add_struct(b, "bpf_netpoll_opts", 68);

		np = btf__add_struct(b, "bpf_netpoll", 64);
		npp = btf__add_ptr(b, np);
		FUNC(b, "bpf_netpoll_create", npp, "opts", id(ptr_to_const(b, no)), "opts__sz", id(u32_),
		     v->netpoll_err_uninit ? "err__uninit" : "err", id(intp));
		FUNC(b, "bpf_netpoll_acquire", npp, "bnp", id(npp));
		FUNC(b, "bpf_netpoll_release", 0, "bnp", id(npp));
		FUNC(b, "bpf_netpoll_send_udp", int_, "bnp", id(npp), "data", id(vcp), "data__sz", id(u32_));
	}
	return b;
}

static char *print_to_string(const struct kapi *k, const char *family, bool all)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kapi_print_family(f, k, family, all, "  ");
	fclose(f);
	return buf;
}

static void detect(const char *name, const struct variant *v, enum kapi_ksock ks,
		   enum kapi_netpoll np, struct kapi *k)
{
	struct btf *b = make_btf(v);

	memset(k, 0, sizeof(*k));
	tap_case_begin(name);
	ASSERT_OK(kapi_detect_btf(b, k), "detect");
	ASSERT_STREQ(kapi_ksock_name(k->ksock), kapi_ksock_name(ks), "ksock API");
	ASSERT_STREQ(kapi_netpoll_name(k->netpoll), kapi_netpoll_name(np), "netpoll");
	tap_case_end();
	btf__free(b);
}

int main(int argc, char **argv)
{
	struct variant seed = { 1, 8, false, true, false }, up = { 2, 4, false, true, false };
	struct variant v;
	struct kapi k;
	char *out;

	detect("seed ksock, netpoll present", &seed, KAPI_KSOCK_SEED, KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("seed: nothing differs, so nothing is printed");
	ASSERT_STREQ(out, "", "print of the differing kfuncs");
	tap_case_end();
	free(out);

	detect("upstream ksock, netpoll present", &up, KAPI_KSOCK_UPSTREAM, KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", true);
	tap_case_begin("upstream, --all: bind shown absent, connect found beside seed's and upstream's");
	ASSERT_HAS(out, "bpf_ksock_bind:\n    found     (not in this kernel's BTF)\n", "bind absent");
	ASSERT_HAS(out, "    found     int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */\n",
		   "connect found, with the union's size");
	ASSERT_HAS(out, "    seed      int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts, u32 opts__sz); /* struct bpf_ksock_addr_opts: 24 bytes */\n",
		   "connect as the seed has it");
	ASSERT_HAS(out, "    upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */  [same]\n",
		   "connect as upstream has it, marked same");
	tap_case_end();
	free(out);

	v = up;
	v.connect_flags = true;
	detect("a changed prototype (connect gains an argument): unknown", &v, KAPI_KSOCK_UNKNOWN,
	       KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown: only connect printed, found beside both known APIs");
	ASSERT_HAS(out, "  bpf_ksock_connect:\n    found     int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz, u32 flags); /* union bpf_ksock_addr: 28 bytes */\n",
		   "the changed prototype, as C");
	ASSERT_HAS(out, "    seed      int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts", "seed's");
	ASSERT_HAS(out, "    upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */\n", "upstream's");
	ASSERT_TRUE(!strstr(out, "bpf_ksock_send"), "send matches: not printed");
	ASSERT_TRUE(!strstr(out, "[same]"), "nothing marked same");
	tap_case_end();
	free(out);

	v = up;
	v.create_opts_sz = 12;
	detect("create opts of 12 bytes (a field added): unknown", &v, KAPI_KSOCK_UNKNOWN,
	       KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown: create printed with its opts size");
	ASSERT_HAS(out, "/* struct bpf_ksock_create_opts: 12 bytes */\n", "the found size");
	tap_case_end();
	free(out);

	v = seed;
	v.create_opts_sz = 4;
	detect("the seed's bind with upstream's 4-byte create opts: unknown", &v, KAPI_KSOCK_UNKNOWN,
	       KAPI_NETPOLL_PRESENT, &k);

	v = seed;
	v.ksock = 0;
	v.netpoll = false;
	detect("no ksock, no netpoll: absent, absent", &v, KAPI_KSOCK_ABSENT, KAPI_NETPOLL_ABSENT, &k);
	v = up;
	v.netpoll = false;
	detect("upstream without netpoll", &v, KAPI_KSOCK_UPSTREAM, KAPI_NETPOLL_ABSENT, &k);
	v = seed;
	v.netpoll_err_uninit = true;
	detect("netpoll_create's err renamed err__uninit: netpoll unknown", &v, KAPI_KSOCK_SEED,
	       KAPI_NETPOLL_UNKNOWN, &k);
	out = print_to_string(&k, "netpoll", false);
	tap_case_begin("netpoll unknown: create printed beside the expected");
	ASSERT_HAS(out, "  bpf_netpoll_create:\n    found     struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err__uninit);",
		   "found");
	ASSERT_HAS(out, "    expected  struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err); /* struct bpf_netpoll_opts: 68 bytes */\n",
		   "expected");
	tap_case_end();
	free(out);

	/* api.json round trip, and bad documents. */
	{
		json_object *doc = kapi_to_json(&k), *bad = json_tokener_parse("{\"ksock\":\"v8\",\"netpoll\":\"present\"}");
		enum kapi_ksock ks = KAPI_KSOCK_ABSENT;
		enum kapi_netpoll np = KAPI_NETPOLL_ABSENT;
		char err[256] = "";

		tap_case_begin("api.json: written and read back; a bad one refused");
		ASSERT_OK(kapi_from_json(doc, &ks, &np, err, sizeof(err)), "read back");
		ASSERT_EQ(ks, KAPI_KSOCK_SEED, "ksock");
		ASSERT_EQ(np, KAPI_NETPOLL_UNKNOWN, "netpoll");
		ASSERT_HAS(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), "\"found\":\"struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err__uninit);",
			   "the found prototype in the JSON");
		ASSERT_EQ(kapi_from_json(bad, &ks, &np, err, sizeof(err)), -EINVAL, "ksock v8 refused");
		ASSERT_HAS(err, "seed, upstream, unknown or absent", "says what is accepted");
		tap_case_end();
		json_object_put(doc);
		json_object_put(bad);
	}

	/* bpfwire-kapi on a raw BTF file of a changed connect. */
	if (argc > 1) {
		char dir[] = "/tmp/kapi-test-XXXXXX", path[64], cmd[512], *text = NULL;
		const void *raw;
		__u32 sz;
		struct btf *b;
		FILE *f;
		int st;

		v = up;
		v.connect_flags = true;
		b = make_btf(&v);
		raw = btf__raw_data(b, &sz);
		tap_case_begin("bpfwire-kapi --btf FILE --json OUT on a changed connect: exit 0, unknown, both prototypes");
		if (ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp")) {
			snprintf(path, sizeof(path), "%s/btf", dir);
			f = fopen(path, "w");
			fwrite(raw, 1, sz, f);
			fclose(f);
			snprintf(cmd, sizeof(cmd), "%s --btf %s --json %s/api.json > %s/out 2>&1", argv[1], path, dir, dir);
			st = system(cmd);
			ASSERT_EQ(WEXITSTATUS(st), 0, "exit status");
			snprintf(path, sizeof(path), "%s/out", dir);
			text = read_file(path, NULL);
			ASSERT_OK_PTR(text, "read its output");
			ASSERT_HAS(text, ": ksock API unknown, netpoll present\n", "the verdict line");
			ASSERT_HAS(text, "u32 addr__sz, u32 flags);", "the found prototype");
			ASSERT_HAS(text, "upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz);", "the expected");
			free(text);
			text = NULL;
			snprintf(path, sizeof(path), "%s/api.json", dir);
			text = read_file(path, NULL);
			ASSERT_OK_PTR(text, "api.json written");
			ASSERT_HAS(text, "\"ksock\":\"unknown\"", "api.json says unknown");
			free(text);
			snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
			system(cmd);
		}
		tap_case_end();
		btf__free(b);
	}
	return tap_done();
}
