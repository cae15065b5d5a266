/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the bpf_wq tests share: the wq kfuncs, a one-slot map holding the
 * bpf_wq, the callback's results, and the SYSCALL program that starts it.
 */
#ifndef KT_WQ_BPF_H
#define KT_WQ_BPF_H

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
/*
 * The callback's kfunc, by the kernel the build is for (the BPF build
 * rule's BPFWIRE_KERNEL_VERSION, from -Dkernel_version): 6.12 has
 * bpf_wq_set_callback_impl with the verifier's aux__ign; 7.x has
 * bpf_wq_set_callback (KF_IMPLICIT_ARGS), and the _impl name left in its
 * BTF takes a struct bpf_prog_aux *, which libbpf 1.1 finds incompatible
 * with 6.12's, failing the whole object, even if __weak.
 */
#ifndef BPFWIRE_KERNEL_VERSION
#error "BPFWIRE_KERNEL_VERSION is set by meson.build's BPF build rule"
#endif
#if BPFWIRE_KERNEL_VERSION >= KERNEL_VERSION(7, 0, 0)
extern int bpf_wq_set_callback(struct bpf_wq *wq,
		int (callback_fn)(void *map, int *key, void *value),
		unsigned int flags) __ksym;
#define KT_WQ_SET_CALLBACK(wq, cb)	bpf_wq_set_callback(wq, cb, 0)
#else
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
		int (callback_fn)(void *map, int *key, void *value),
		unsigned int flags, void *aux__ign) __ksym;
#define KT_WQ_SET_CALLBACK(wq, cb)	bpf_wq_set_callback_impl(wq, cb, 0, NULL)
#endif

struct elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_map SEC(".maps");

/* Set by the callback: its kfunc's err, whether it got an object, done. */
int wq_err = 1;
int wq_created;
__u32 wq_done;

/*
 * A SYSCALL program NAME that runs CB once in a kworker. A macro, not a
 * function: the verifier needs CB as a constant at the kfunc call.
 */
#define KT_WQ_START_PROG(name, cb)					\
SEC("syscall")								\
int name(void *ctx)							\
{									\
	struct elem *val;						\
	int key = 0;							\
									\
	val = bpf_map_lookup_elem(&wq_map, &key);			\
	if (!val)							\
		return -ENOENT;						\
	if (bpf_wq_init(&val->w, &wq_map, 0))				\
		return -1;						\
	if (KT_WQ_SET_CALLBACK(&val->w, cb))				\
		return -2;						\
	if (bpf_wq_start(&val->w, 0))					\
		return -3;						\
	return 0;							\
}

#endif /* KT_WQ_BPF_H */
