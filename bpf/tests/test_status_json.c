// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-agent status --json against status-json.fields. Reading a status
 * needs pinned maps, so the lab kernel; here pins.c's own writers
 * (status_json, status_doc) run on made-up readings of every kind of
 * sender, each optional field both set and unset, every errno slot counted.
 * Every leaf they print must be a field of that file, of its type.
 *
 * usage: test_status_json STATUS-JSON.FIELDS
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "kapi.h"
#include "pins.h"
#include "status.h"
#include "tap.h"

static void bad(void *ctx, const char *path, const char *why)
{
	printf("# %s: %s %s\n", (const char *)ctx, path, why);
}

/* A reading with every optional field set (full) or none. */
static void reading(struct status *st, __u32 via, int full)
{
	struct bpfwire_cfg *c = &st->info.cfg;

	memset(st, 0, sizeof(*st));
	st->info.via = via;
	st->info.installed_unix = 1700000000;
	snprintf(st->info.dst, sizeof(st->info.dst), "192.0.2.20:7000");
	c->sender_id = 7;
	c->events = full ? BPFWIRE_EVF_EXEC | BPFWIRE_EVF_OPEN : BPFWIRE_EVF_OPEN;
	st->k.events = 10;
	st->k.sent = 9;
	if (!full)
		return;
	snprintf(st->info.bind, sizeof(st->info.bind), "192.0.2.10:5555");
	snprintf(c->dev, sizeof(c->dev), "eth0");
	memcpy(c->prefix, "/tmp/w/", 7);
	c->prefix_len = 7;
	c->sndbuf = 65536;
	c->key_id = 1;
	c->epoch = 0xe90c;
	c->wire_version = 2;
	c->batch = 8;
	c->batch_age_ms = 100;
	st->info.agent_pid = 42;
	st->agent_running = 1;
	st->seq = 9;
	st->pending = 1;
	/* Every slot: 0 prints as "other", the rest by errno name. */
	for (int j = 0; j < BPFWIRE_ERRNO_SLOTS; j++)
		st->k.err[j] = st->u.err[j] = 1;
	st->k.failed = st->u.failed = BPFWIRE_ERRNO_SLOTS;
	st->have_u = 1;
	st->u.sent = 9;
}

int main(int argc, char **argv)
{
	static const __u32 vias[] = { BPFWIRE_VIA_KSOCK, BPFWIRE_VIA_NETPOLL, BPFWIRE_VIA_RINGBUF };
	static const int apis[] = { KAPI_KSOCK_SEED, KAPI_KSOCK_UPSTREAM, KAPI_KSOCK_UNKNOWN, KAPI_KSOCK_ABSENT, -2 };
	struct fields *f;
	char err[512], name[128];
	int total = 0, n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s STATUS-JSON.FIELDS\n", argv[0]);
		return 2;
	}
	f = fields_load(argv[1], err, sizeof(err));
	if (!ASSERT_OK_PTR(f, "status-json.fields loads")) {
		printf("# %s\n", err);
		return tap_done();
	}
	for (size_t a = 0; a < sizeof(apis) / sizeof(apis[0]); a++) {
		json_object *arr = json_object_new_array(), *doc;
		int full = a % 2 == 0;

		/* All three kinds in one document, as status prints them. */
		for (size_t v = 0; v < sizeof(vias) / sizeof(vias[0]); v++) {
			struct status st;

			reading(&st, vias[v], full);
			json_object_array_add(arr, status_json("/sys/fs/bpf/bpfwire/x", &st));
		}
		doc = status_doc(arr, apis[a]);
		snprintf(name, sizeof(name), "ksock_api %s, %s readings: every leaf is a field",
			 apis[a] >= 0 ? kapi_ksock_name(apis[a]) : "-errno", full ? "full" : "bare");
		ASSERT_EQ(fields_check_json(f, doc, bad, name, &n), 0, name);
		total += n;
		json_object_put(doc);
	}
	/* 135 errno names alone: the full readings really printed them. */
	ASSERT_GE(total, 2 * 3 * BPFWIRE_ERRNO_SLOTS, "the documents had leaves to check");
	/* The list is read, not waved through: a typo is no field. */
	{
		bool inner;

		ASSERT_TRUE(fields_type(f, "senders.0.counters.errors.EPERM", &inner), "EPERM is a field");
		ASSERT_FALSE(fields_type(f, "senders.0.counters.sent_", &inner), "sent_ is no field");
	}
	fields_free(f);
	return tap_done();
}
