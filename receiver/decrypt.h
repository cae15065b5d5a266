/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wire v3's payload (common/wire.h), decrypted after the MAC and the sequence
 * checks passed: the cipher is common/wirecrypt.h's (libcrypto).
 */
#ifndef BPFWIRE_RECV_DECRYPT_H
#define BPFWIRE_RECV_DECRYPT_H

#include "parse.h"
#include "wire.h"

/*
 * w: a datagram bpfw_parse_wire_key() called ENCRYPTED. Without an
 * encryption key (key NULL or MAC only) it stays ENCRYPTED. Else the
 * payload is decrypted into plain (BPFWIRE_MAX_PAYLOAD_V3 bytes), and it
 * must be a valid event list with each event's reserved field 0: OK, with
 * w->payload at plain and w->decrypted set, or DECRYPT. A wrong encryption
 * key passes that only by chance (bpf/README.md: about 2^-32 a datagram);
 * the MAC is what authenticates.
 */
enum bpfw_reason bpfw_wire_decrypt(const struct bpfw_key *key, struct bpfw_wire *w,
				   uint8_t plain[BPFWIRE_MAX_PAYLOAD_V3]);

#endif /* BPFWIRE_RECV_DECRYPT_H */
