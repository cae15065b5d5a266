// SPDX-License-Identifier: GPL-2.0-only
/*
 * kapi-fake-btf VARIANT OUT: writes raw BTF of a made-up kernel for the
 * tests of the agent (--btf) and the lab (a kernel dir's vmlinux), so that
 * they can show an unknown API without building a kernel. VARIANT: seed
 * (the posted series: 4-byte create opts), seed-sndbuf (with bpfwire's
 * sndbuf extension: 8 bytes, member sndbuf), upstream, connect-flags
 * (upstream's connect with a fourth argument), create-12 (upstream with
 * 12-byte create opts), no-ksock, no-netpoll (upstream without netpoll).
 */
#include <string.h>
#include "fake_btf.h"

int main(int argc, char **argv)
{
	struct variant v = { 2, 4, false, true, false, NULL };
	const void *raw;
	struct btf *b;
	__u32 sz;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: kapi-fake-btf seed|seed-sndbuf|upstream|connect-flags|create-12|no-ksock|no-netpoll OUT\n");
		return 2;
	}
	if (!strcmp(argv[1], "seed"))
		v = (struct variant){ 1, 4, false, true, false, NULL };
	else if (!strcmp(argv[1], "seed-sndbuf"))
		v = (struct variant){ 1, 8, false, true, false, "sndbuf" };
	else if (!strcmp(argv[1], "connect-flags"))
		v.connect_flags = true;
	else if (!strcmp(argv[1], "create-12"))
		v.create_opts_sz = 12;
	else if (!strcmp(argv[1], "no-ksock"))
		v.ksock = 0;
	else if (!strcmp(argv[1], "no-netpoll"))
		v.netpoll = false;
	else if (strcmp(argv[1], "upstream")) {
		fprintf(stderr, "kapi-fake-btf: unknown variant '%s'\n", argv[1]);
		return 2;
	}
	b = make_btf(&v);
	raw = btf__raw_data(b, &sz);
	f = fopen(argv[2], "w");
	if (!f || fwrite(raw, 1, sz, f) != sz || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	btf__free(b);
	return 0;
}
