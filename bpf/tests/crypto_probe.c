// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypto-probe: loads each program of crypto_probe.bpf.c alone and prints
 * what the verifier said (its last log line) or, for syscall_create, what
 * bpf_crypto_ctx_create() returned. A measurement for bpf/README.md, run by
 * hand in a guest of the lab kernel (never on a host); not a test.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "errnames.h"
#include "log.h"
#include "crypto_probe.bpf.skel.h"

static char vlog[1 << 20];

/* The verifier's verdict: the last log line before its statistics. */
static const char *verdict(void)
{
	char *end = vlog + strlen(vlog), *p;

	for (;;) {
		while (end > vlog && (end[-1] == '\n' || end[-1] == ' '))
			*--end = 0;
		for (p = end; p > vlog && p[-1] != '\n'; p--)
			;
		if (p == vlog || (strncmp(p, "processed ", 10) &&
				  strncmp(p, "verification time", 17) &&
				  strncmp(p, "stack depth", 11)))
			return p;
		end = p;
	}
}

static void probe(const char *name)
{
	struct bpfwire_crypto_probe *skel = bpfwire_crypto_probe__open();
	struct bpf_program *p, *me = NULL;
	int err;

	if (!skel) {
		printf("%s: couldn't open the skeleton: %s\n", name, errno_str(-errno));
		return;
	}
	bpf_object__for_each_program(p, skel->obj) {
		bool on = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, on);
		if (on)
			me = p;
	}
	vlog[0] = 0;
	bpf_program__set_log_buf(me, vlog, sizeof(vlog));
	bpf_program__set_log_level(me, 1);
	err = bpfwire_crypto_probe__load(skel);
	if (err) {
		printf("%s: refused at load, %s; verifier: %s\n", name, errno_str(err),
		       verdict());
	} else if (!strcmp(name, "syscall_create")) {
		LIBBPF_OPTS(bpf_test_run_opts, o);

		err = bpf_prog_test_run_opts(bpf_program__fd(me), &o);
		printf("%s: loaded; run %s, bpf_crypto_ctx_create err %s\n", name,
		       err ? errno_str(-errno) : "ok",
		       skel->bss->create_err ? errno_str(skel->bss->create_err) : "0");
	} else {
		printf("%s: loaded\n", name);
	}
	bpfwire_crypto_probe__destroy(skel);
}

int main(void)
{
	log_init("crypto-probe", LOG_WARN);
	probe("syscall_create");
	probe("lsm_encrypt");
	probe("syscall_encrypt");
	return 0;
}
