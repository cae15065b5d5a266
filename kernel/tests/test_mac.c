// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF SipHash-2-4 the signing senders run (bpf/sign.bpf.h),
 * through BPF_PROG_TEST_RUN with ctx_in: all 64 published vectors (key
 * 00..0f, message 00..len-1), and a message over the longest v2 datagram
 * refused. Longer messages are checked in bpf/tests/guest_senders.sh,
 * where signed datagrams verify with wire.h's C reference.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>

#include "errnames.h"
#include "kt.h"
#include "mac.bpf.skel.h"

#define MAC_MAX_LEN 340		/* BPFWIRE_DGRAM_MAX_V2 */

/* Must match struct mac_ctx in mac.bpf.c. */
struct mac_ctx {
	__u8  key[16];
	__u32 len;
	__u32 pad;
	__u8  msg[MAC_MAX_LEN + 4];
};

/* 0 and the MAC in out, or a negative errno, or the program's nonzero retval. */
static int run_mac(struct bpf_program *prog, struct mac_ctx *c, __u64 *out,
		   struct mac *skel)
{
	int err, retval = 0;

	skel->bss->mac = 0;
	err = run_prog_ctx(prog, c, sizeof(*c), &retval);
	if (err)
		return err;
	if (retval)
		return retval;
	*out = skel->bss->mac;
	return 0;
}

static __u64 le64(const volatile __u8 *p)
{
	__u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * Not an assertion: what signing costs in BPF on this guest, for
 * bpf/README.md. mac_bench times 10000 MACs in a row in the kernel
 * (bpf_ktime_get_ns); SYSCALL programs take no repeat count.
 */
static void mac_timing(struct mac *skel, struct mac_ctx *c)
{
	static const unsigned lens[] = { 0, 94, 340 };
	unsigned i;
	int ret, err, rv;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		rv = 0;
		c->len = lens[i];
		err = run_prog_ctx(skel->progs.mac_bench, c, sizeof(*c), &rv);
		ret = err ? err : rv;
		if (ret)
			printf("# mac_bench, %u bytes: %s\n", lens[i], errno_str(ret));
		else
			printf("# mac_bench, %u bytes: %llu ns per MAC (mean of 10000 in a row)\n",
			       lens[i], (unsigned long long)skel->bss->bench_ns / 10000);
	}
}

KT_TEST(80, test_mac_vectors)
{
	struct mac_ctx c = { 0 };
	struct mac *skel;
	unsigned i, n = 0;
	__u64 got = 0;

	if (!tap_case_begin("mac_bpf_siphash_vectors"))
		return;
	skel = mac__open_and_load();
	if (!ASSERT_OK_PTR(skel, "mac open_and_load"))
		goto out;
	for (i = 0; i < 16; i++)
		c.key[i] = i;
	for (i = 0; i < 64; i++)
		c.msg[i] = i;
	for (i = 0; i < 64; i++) {
		char name[64];

		c.len = i;
		snprintf(name, sizeof(name), "BPF siphash24, len %u", i);
		if (!ASSERT_OK(run_mac(skel->progs.mac_bpf, &c, &got, skel), name))
			continue;
		if (ASSERT_EQ(got, le64(skel->rodata->sip64_vectors[i]), name))
			n++;
	}
	printf("# %u of 64 published vectors match in BPF\n", n);
	c.len = MAC_MAX_LEN + 1;
	ASSERT_EQ(run_mac(skel->progs.mac_bpf, &c, &got, skel), -22,
		  "a message over 340 bytes is refused");
	mac_timing(skel, &c);
out:
	mac__destroy(skel);
	tap_case_end();
}
