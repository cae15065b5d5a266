// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bad input for bpf_netpoll_create: user space fills opts (and how to pass
 * them) in .bss, runs netpoll_create_probe (NULL opts: netpoll_create_null),
 * and reads back the error.
 * A context that does get created is released at once.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"

enum { PASS_OPTS = 0, PASS_NULL = 1, PASS_SHORT = 2, PASS_LONG = 3 };

struct bpf_netpoll_opts opts = {};
int pass = PASS_OPTS;

int create_err = 1;
int created;

/* Room for an opts__sz one byte larger than the struct. */
static char big[sizeof(struct bpf_netpoll_opts) + 8];

SEC("syscall")
int netpoll_create_probe(void *ctx)
{
	struct bpf_netpoll *bnp;
	int err = 0;

	created = 0;
	if (pass == PASS_SHORT)
		bnp = bpf_netpoll_create(&opts, sizeof(opts) - 1, &err);
	else if (pass == PASS_LONG) {
		__builtin_memcpy(big, &opts, sizeof(opts));
		bnp = bpf_netpoll_create((void *)big, sizeof(opts) + 1, &err);
	} else
		bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);

	create_err = err;
	if (bnp) {
		created = 1;
		bpf_netpoll_release(bnp);
	}
	return 0;
}

/*
 * NULL opts, in a program that loads only when asked (kt_load_null_arg):
 * create takes trusted arguments (7.x; fix 0019 on 6.12), so the verifier
 * refuses it but on 6.12's seed-only kernel, where the kfunc says -EINVAL.
 */
SEC("?syscall")
int netpoll_create_null(void *ctx)
{
	struct bpf_netpoll *bnp;
	int err = 0;

	created = 0;
	bnp = bpf_netpoll_create(NULL, 0, &err);
	create_err = err;
	if (bnp) {
		created = 1;
		bpf_netpoll_release(bnp);
	}
	return 0;
}

char __license[] SEC("license") = "GPL";
