// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the whole validation pipeline (parse, reassembly,
 * sequence tracking). One input is a small capture:
 *   byte 0: bits 0-1 link type, bit 2 accept partial checksums,
 *           bit 3 any port (else 7000), bit 4 expect a source,
 *           bit 5 a MAC key, bit 6 a 4 KiB state budget, bit 7 with bit 5:
 *           an encryption key too (wire v3 decrypted)
 *   then records of [len hi][len lo][seconds to advance][frame bytes]
 * so that fragments, timeouts and sequences span several frames. Every
 * frame is also handed to the socket side as a UDP payload.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "rx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct bpfw_src_expect src = {
		.family = 4, .addr = { 192, 0, 2, 1 }, .port = 0,
	};
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 2 };
	static const struct bpfw_key key = { .key = "fuzz-fuzz-fuzz!", .key_id = 1 };
	static const struct bpfw_key key_enc = {
		.key = "fuzz-fuzz-fuzz!", .key_id = 1, .enc = "fuzz-enc-fuzz!!", .has_enc = 1,
	};
	struct bpfw_rx_cfg cfg = { 0 };
	struct bpfw_rx rx;
	uint64_t ts = 1000000000ull;
	size_t off = 1;

	if (size < 1)
		return 0;
	cfg.link.link = (enum bpfw_link)(data[0] & 3);
	memcpy(cfg.link.mac, mac, 6);
	cfg.link.have_mac = 1;
	cfg.accept_csum_partial = !!(data[0] & 4);
	cfg.port = data[0] & 8 ? 0 : 7000;
	if (data[0] & 16) {
		cfg.srcs = &src;
		cfg.nsrcs = 1;
	}
	if (data[0] & 32)
		cfg.key = data[0] & 128 ? &key_enc : &key;
	if (data[0] & 64)
		cfg.state_budget = 4096;
	/* Small tables so eviction and "too many senders" are reachable. */
	cfg.max_senders = 4;
	cfg.frag_entries = 4;
	if (bpfw_rx_init(&rx, &cfg))
		return 0;
	while (size - off >= 3) {
		size_t len = (size_t)data[off] << 8 | data[off + 1];

		ts += (uint64_t)data[off + 2] * 1000000000ull;
		off += 3;
		if (len > size - off)
			len = size - off;
		/* Claim a longer wire length now and then: snaplen cuts. */
		bpfw_rx_frame(&rx, ts, data + off, (uint32_t)len,
			      (uint32_t)len + (data[off - 1] & 1));
		bpfw_rx_socket(&rx, ts, 4, src.addr, 40000, data + off, (uint32_t)len);
		off += len;
	}
	bpfw_rx_expire(&rx, UINT64_MAX);
	bpfw_rx_fini(&rx);
	return 0;
}
