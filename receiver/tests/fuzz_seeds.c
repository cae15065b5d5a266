// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the fuzzer's seed corpus into DIR: the crafted good packets of
 * every shape (IPv4, IPv6, extension headers, fragments, events, SLL, raw)
 * plus a few broken ones, in fuzz_rx.c's input format.
 * usage: fuzz_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "craft.h"
#include "wire.h"

static const char *dir;
static int nseed;
static uint8_t in[65536];
static size_t in_len;

static void start(uint8_t flags)
{
	in[0] = flags;
	in_len = 1;
}

static void add(const uint8_t *frame, uint32_t len, uint8_t dt)
{
	if (in_len + 3 + len > sizeof(in))
		return;
	in[in_len++] = (uint8_t)(len >> 8);
	in[in_len++] = (uint8_t)len;
	in[in_len++] = dt;
	memcpy(in + in_len, frame, len);
	in_len += len;
}

static int finish(void)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/seed-%03d", dir, nseed++);
	f = fopen(p, "wb");
	if (!f || fwrite(in, 1, in_len, f) != in_len || fclose(f)) {
		perror(p);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t f[CRAFT_MAX_FRAME], dg[CRAFT_MAX_FRAME], big[3000];
	static uint8_t frames[4][CRAFT_MAX_FRAME];
	uint8_t ext[16];
	uint32_t lens[4], n;
	struct craft_pkt p;
	unsigned fam, i, nf;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fuzz_seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	for (fam = 4; fam <= 6; fam += 2) {
		/* A short in-order stream with a gap and a duplicate. */
		craft_defaults(&p, (int)fam);
		start(0);
		for (i = 1; i <= 4; i++) {
			n = craft_wire(dg, 1, i == 3 ? 2 : i, BPFWIRE_EV_TEST,
				       (const uint8_t *)"seed", 4);
			add(f, craft_frame(f, &p, dg, n), 0);
		}
		err |= finish();

		/* Events. */
		start(0);
		n = craft_event(big, 1, "sh", "/bin/sh");
		n = craft_wire(dg, 2, 1, BPFWIRE_EV_EXEC, big, n);
		add(f, craft_frame(f, &p, dg, n), 0);
		err |= finish();

		/* Fragments, out of order, then a timeout. */
		p.df = 0;
		start(0);
		n = craft_wire(dg, 3, 1, BPFWIRE_EV_TEST, big, 2500);
		nf = craft_fragments(frames, lens, 4, &p, dg, n, 1232);
		for (i = nf; i-- > 0;)
			add(frames[i], lens[i], 0);
		add(frames[0], lens[0], 31);
		err |= finish();

		/* SLL and raw link types around the same packet. */
		craft_defaults(&p, (int)fam);
		n = craft_wire(dg, 4, 1, BPFWIRE_EV_TEST, NULL, 0);
		n = craft_frame(f, &p, dg, n);
		start(3);
		add(f + 14, n - 14, 0);
		err |= finish();
		start(1);
		{
			uint8_t s[CRAFT_MAX_FRAME] = { 0 };

			s[14] = fam == 4 ? 0x08 : 0x86;
			s[15] = fam == 4 ? 0x00 : 0xdd;
			memcpy(s + 16, f + 14, n - 14);
			add(s, n + 2, 0);
		}
		err |= finish();

		/* A broken one per layer. */
		start(0);
		f[14 + 8] = 0;
		add(f, n, 0);
		f[14 + 8] = 64;
		add(f, n - 3, 0);
		f[n - 1] ^= 1;
		add(f, n, 0);
		err |= finish();
	}
	/* IPv6 with destination options before UDP. */
	craft_defaults(&p, 6);
	memset(ext, 0, sizeof(ext));
	ext[2] = 1;
	ext[3] = 4;
	p.ext = ext;
	p.ext_len = 8;
	p.ext_first_nh = 60;
	start(0);
	n = craft_wire(dg, 5, 1, BPFWIRE_EV_TEST, NULL, 0);
	add(f, craft_frame(f, &p, dg, n), 0);
	err |= finish();
	/* Wire v2 under the fuzzer's key: signed, replayed, a new epoch, unsigned. */
	{
		static const uint8_t key[16] = "fuzz-fuzz-fuzz!";

		craft_defaults(&p, 4);
		start(32 | 64);
		for (i = 0; i < 4; i++) {
			n = craft_wire_v2(dg, 6, i == 2 ? 2 : 1, i == 1 ? 1 : (uint64_t)i + 1,
					  BPFWIRE_EV_TEST, 1, NULL, 0);
			if (i < 3)
				craft_wire_sign(dg, n, key, 1);
			add(f, craft_frame(f, &p, dg, n), 0);
		}
		err |= finish();
	}
	/* Wire v3 under the fuzzer's two keys: a good open, a replay, a bad tag. */
	{
		static const uint8_t key[16] = "fuzz-fuzz-fuzz!", enc[16] = "fuzz-enc-fuzz!!";
		uint8_t ev[BPFWIRE_EVENT_FIXED_LEN + 32];
		uint32_t el = craft_event(ev, 42, "cat", "/etc/fuzz");

		craft_defaults(&p, 4);
		start(32 | 64 | 128);
		for (i = 0; i < 3; i++) {
			n = craft_wire_v2(dg, 7, 9, i == 1 ? 1 : (uint64_t)i + 1,
					  BPFWIRE_EV_OPEN, 1, ev, el);
			craft_wire_sign(dg, n, key, 1);
			craft_wire_encrypt(dg, n, key, enc);
			if (i == 2)
				dg[BPFWIRE_OFF_TAG] ^= 1;
			add(f, craft_frame(f, &p, dg, n), 0);
		}
		err |= finish();
	}
	printf("%d seeds in %s\n", nseed, dir);
	return err ? 1 : 0;
}
