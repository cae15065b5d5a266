/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel BTF made up for tests (btf__new_empty, btf__add_func_proto, ...):
 * the seed's or upstream's kfuncs, or a variant that changes one. Shared by
 * test_kapi.c and fake_btf.c (the BTF files of the agent's and the lab's
 * tests); static, so each includes its own.
 */
#ifndef KAPI_FAKE_BTF_H
#define KAPI_FAKE_BTF_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/btf.h>

/* What a variant of the kernel changes. */
struct variant {
	int ksock;		/* 0 none, 1 seed, 2 upstream */
	int create_opts_sz;	/* sizeof(struct bpf_ksock_create_opts): 4 posted; past 4,
				 * a __u32 at byte 4 named create_opts_tail */
	bool connect_flags;	/* a v8: connect takes a fourth argument */
	bool netpoll;
	bool netpoll_err_uninit; /* netpoll_create's err renamed err__uninit */
	const char *create_opts_tail;	/* "sndbuf": bpfwire's extension (kernel/patches/sndbuf) */
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

/*
 * struct bpf_ksock_create_opts as the posted series has it (four __u8),
 * and past 4 bytes one __u32 named tail (NULL: none named) at byte 4.
 */
static int add_create_opts(struct btf *b, int sz, const char *tail, int u8_, int u32_)
{
	static const char *const posted[] = { "family", "type", "protocol", "reserved" };
	int co = btf__add_struct(b, "bpf_ksock_create_opts", sz);

	for (int i = 0; i < 4; i++)
		btf__add_field(b, posted[i], u8_, i * 8, 0);
	if (sz >= 8 && tail)
		btf__add_field(b, tail, u32_, 32, 0);
	return co;
}

static struct btf *make_btf(const struct variant *v)
{
	struct btf *b = btf__new_empty();
	int uint, u32_, u8_, int_, ks, ksp, np, npp, intp, vcp;

	uint = btf__add_int(b, "unsigned int", 4, 0);
	int_ = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	u32_ = btf__add_typedef(b, "u32", btf__add_typedef(b, "__u32", uint));
	u8_ = btf__add_typedef(b, "__u8", btf__add_int(b, "unsigned char", 1, 0));
	intp = btf__add_ptr(b, int_);
	vcp = ptr_to_const(b, 0);
	/* Unrelated functions with the prefix, as the real kernel has. */
	add_proto(b, "bpf_ksock_kfunc_init", int_, 0, NULL, NULL);
	if (v->ksock) {
		int co, ao, ua;

		ks = btf__add_struct(b, "bpf_ksock", 16);
		ksp = btf__add_ptr(b, ks);
		co = add_create_opts(b, v->create_opts_sz, v->create_opts_tail, u8_, u32_);
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

#endif /* KAPI_FAKE_BTF_H */
