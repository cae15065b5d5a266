// SPDX-License-Identifier: GPL-2.0-only
/* Wire v3's payload decrypted and checked: see decrypt.h. */
#include "decrypt.h"
#include "wirecrypt.h"

/* The senders send each event's reserved field as 0: known plaintext. */
static int reserved_zero(const struct bpfw_wire *w)
{
	uint32_t off = 0;
	unsigned i;

	if (w->type != BPFWIRE_EV_EXEC && w->type != BPFWIRE_EV_OPEN)
		return 1;
	for (i = 0; i < w->n_events; i++) {
		if (w->payload[off + 26] || w->payload[off + 27])
			return 0;
		off += BPFWIRE_EVENT_FIXED_LEN +
		       ((uint32_t)w->payload[off + 24] << 8 | w->payload[off + 25]);
	}
	return 1;
}

enum bpfw_reason bpfw_wire_decrypt(const struct bpfw_key *key, struct bpfw_wire *w,
				   uint8_t plain[BPFWIRE_MAX_PAYLOAD_V3])
{
	struct bpfw_wire d;

	if (!key || !key->has_enc)
		return BPFW_R_ENCRYPTED;
	/* parse.c bounds payload_len and seq for v3; this checks them again. */
	if (wire_payload_crypt(key->enc, w->epoch, w->seq, w->payload, plain,
			       w->payload_len))
		return BPFW_R_DECRYPT;
	d = *w;
	d.payload = plain;
	if (bpfw_check_events(&d) != BPFW_R_OK || !reserved_zero(&d))
		return BPFW_R_DECRYPT;
	w->payload = plain;
	w->decrypted = 1;
	return BPFW_R_OK;
}
