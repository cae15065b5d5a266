// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side: wire.h's SipHash-2-4 (the C reference of the v2 tag) against
 * all 64 published 64-bit vectors, copied as data in siphash_vectors.h.
 */
#include <stdio.h>
#include "siphash_vectors.h"
#include "wire.h"
#include "tap.h"

static const __u8 want[64][8] = BPFWIRE_SIP64_VECTORS;

int main(void)
{
	__u8 key[BPFWIRE_KEY_LEN], msg[64];
	unsigned i, n = 0;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i;
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = i;
	for (i = 0; i < 64; i++) {
		char name[64];

		snprintf(name, sizeof(name), "siphash24 vector, len %u", i);
		/* The vectors are the output bytes; the tag is stored the same way. */
		if (ASSERT_EQ(bpfwire_siphash24(key, msg, i), bpfwire_le64(want[i]), name))
			n++;
	}
	printf("# %u of 64 vectors match\n", n);
	ASSERT_EQ(bpfwire_le64(want[0]), 0x726fdb47dd0e0e31ULL, "vector 0 as a u64");
	ASSERT_EQ(bpfwire_le64(want[63]), 0x958a324ceb064572ULL, "vector 63 as a u64");
	key[0] ^= 1;
	ASSERT_NEQ(bpfwire_siphash24(key, msg, 15), bpfwire_le64(want[15]),
		   "another key gives another tag");
	return tap_done();
}
