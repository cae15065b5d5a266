// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-agent status and unload: read or remove BPFWIRE_PIN_ROOT/VIA/. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <json-c/json.h>
#include "kapi.h"
#include "loader.h"
#include "pins.h"
#include "status.h"

static const enum bpfwire_via all_vias[] = {
	BPFWIRE_VIA_KSOCK, BPFWIRE_VIA_NETPOLL, BPFWIRE_VIA_RINGBUF,
};

static int read_map(const char *dir, const char *name, void *val)
{
	char path[PATH_MAX + 32];
	__u32 key = 0;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	if (bpf_map_lookup_elem(fd, &key, val))
		err = -errno;
	close(fd);
	return err;
}

/* The open batch, read under its lock; -ENOENT without --batch. */
static int read_batch(const char *dir, struct bpfwire_batch *b)
{
	char path[PATH_MAX + 32];
	__u32 key = 0;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/batch", dir);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	if (bpf_map_lookup_elem_flags(fd, &key, b, BPF_F_LOCK))
		err = -errno;
	close(fd);
	return err;
}

static int read_status(const char *dir, struct status *st)
{
	struct bpfwire_batch *batch;
	struct bpfwire_state state;
	struct bpfwire_stats *pcpu;
	int ncpu = libbpf_num_possible_cpus(), i, j, err;

	memset(st, 0, sizeof(*st));
	err = read_map(dir, "info", &st->info);
	if (err) {
		pr_warn("couldn't read %s/info: %s", dir, errno_str(err));
		return err;
	}
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	pcpu = calloc(ncpu, sizeof(*pcpu));
	if (!pcpu)
		return -ENOMEM;
	err = read_map(dir, "stats", pcpu);
	if (err) {
		pr_warn("couldn't read %s/stats: %s", dir, errno_str(err));
		free(pcpu);
		return err;
	}
	for (i = 0; i < ncpu; i++) {
		st->k.events += pcpu[i].events;
		st->k.sent += pcpu[i].sent;
		st->k.failed += pcpu[i].failed;
		st->k.bytes += pcpu[i].bytes;
		st->k.events_sent += pcpu[i].events_sent;
		st->k.events_failed += pcpu[i].events_failed;
		st->k.events_batched += pcpu[i].events_batched;
		for (j = 0; j < BPFWIRE_ERRNO_SLOTS; j++)
			st->k.err[j] += pcpu[i].err[j];
	}
	free(pcpu);
	if (!read_map(dir, "state", &state))
		st->seq = state.seq;
	batch = calloc(1, sizeof(*batch));
	if (batch && !read_batch(dir, batch))
		st->pending = batch->n;
	free(batch);
	if (st->info.via == BPFWIRE_VIA_RINGBUF && !read_map(dir, "ustats", &st->u))
		st->have_u = 1;
	st->agent_running = st->info.agent_pid && !kill(st->info.agent_pid, 0);
	return 0;
}

/* The counters a receiver reconciles with: for ringbuf "sent" is the
 * agent's sendmsg successes and "queued" the kernel's ring buffer writes. */
static void totals(const struct status *st, struct bpfwire_stats *t, __u64 *queued)
{
	int j;

	*t = st->k;
	*queued = 0;
	if (st->info.via != BPFWIRE_VIA_RINGBUF)
		return;
	*queued = st->k.sent;
	t->sent = st->u.sent;
	t->bytes = st->u.bytes;
	t->failed += st->u.failed;
	t->events_sent = st->u.sent;
	t->events_failed += st->u.failed;
	for (j = 0; j < BPFWIRE_ERRNO_SLOTS; j++)
		t->err[j] += st->u.err[j];
}

json_object *status_json(const char *dir, const struct status *st)
{
	const struct bpfwire_cfg *c = &st->info.cfg;
	json_object *o = json_object_new_object(), *cnt, *errs, *ev;
	struct bpfwire_stats t;
	char mac[24], epoch[24];
	__u64 queued;
	int j;

	totals(st, &t, &queued);
	json_object_object_add(o, "via", json_object_new_string(bpfwire_via_name(st->info.via)));
	json_object_object_add(o, "pin_dir", json_object_new_string(dir));
	json_object_object_add(o, "sender_id", json_object_new_int64(c->sender_id));
	json_object_object_add(o, "dst", json_object_new_string(st->info.dst));
	json_object_object_add(o, "bind", st->info.bind[0] ?
			       json_object_new_string(st->info.bind) : NULL);
	json_object_object_add(o, "dev", c->dev[0] ? json_object_new_string(c->dev) : NULL);
	bpfwire_fmt_mac(c->remote_mac, mac, sizeof(mac));
	json_object_object_add(o, "remote_mac", st->info.via == BPFWIRE_VIA_NETPOLL ?
			       json_object_new_string(mac) : NULL);
	ev = json_object_new_array();
	if (c->events & BPFWIRE_EVF_EXEC)
		json_object_array_add(ev, json_object_new_string("exec"));
	if (c->events & BPFWIRE_EVF_OPEN)
		json_object_array_add(ev, json_object_new_string("open"));
	json_object_object_add(o, "events", ev);
	json_object_object_add(o, "path_prefix",
			       json_object_new_string_len(c->prefix, c->prefix_len));
	/* ksock only: 0 is the default buffer (net.core.wmem_default) */
	json_object_object_add(o, "sndbuf", st->info.via == BPFWIRE_VIA_KSOCK ?
			       json_object_new_int64(c->sndbuf) : NULL);
	/* v2: key id and epoch, never the key (the map is write-only). The
	 * epoch is a hex string: a u64 does not fit every JSON reader. */
	json_object_object_add(o, "wire_version", json_object_new_int64(
			       c->wire_version ? c->wire_version : BPFWIRE_VERSION));
	json_object_object_add(o, "key_id", c->key_id ?
			       json_object_new_int64(c->key_id) : NULL);
	snprintf(epoch, sizeof(epoch), "0x%016llx", (unsigned long long)c->epoch);
	json_object_object_add(o, "epoch", c->key_id ? json_object_new_string(epoch) : NULL);
	/* --batch: events per datagram (1: none) and the age limit (0: none) */
	json_object_object_add(o, "batch", json_object_new_int64(c->batch ? c->batch : 1));
	json_object_object_add(o, "batch_age_ms", json_object_new_int64(c->batch_age_ms));
	json_object_object_add(o, "installed_unix", json_object_new_int64(st->info.installed_unix));
	json_object_object_add(o, "agent_pid", st->info.agent_pid ?
			       json_object_new_int64(st->info.agent_pid) : NULL);
	json_object_object_add(o, "agent_running", json_object_new_boolean(st->agent_running));

	cnt = json_object_new_object();
	json_object_object_add(cnt, "events", json_object_new_int64(t.events));
	json_object_object_add(cnt, "sent", json_object_new_int64(t.sent));
	json_object_object_add(cnt, "failed", json_object_new_int64(t.failed));
	json_object_object_add(cnt, "bytes", json_object_new_int64(t.bytes));
	json_object_object_add(cnt, "last_seq", json_object_new_int64(st->seq));
	/* events == events_sent + events_failed + events_pending */
	json_object_object_add(cnt, "events_sent", json_object_new_int64(t.events_sent));
	json_object_object_add(cnt, "events_failed", json_object_new_int64(t.events_failed));
	json_object_object_add(cnt, "events_batched", json_object_new_int64(t.events_batched));
	json_object_object_add(cnt, "events_pending", json_object_new_int64(st->pending));
	if (st->info.via == BPFWIRE_VIA_RINGBUF)
		json_object_object_add(cnt, "queued", json_object_new_int64(queued));
	errs = json_object_new_object();
	for (j = 1; j < BPFWIRE_ERRNO_SLOTS; j++)
		if (t.err[j])
			json_object_object_add(errs, errno_name(j),
					       json_object_new_int64(t.err[j]));
	if (t.err[0])
		json_object_object_add(errs, "other", json_object_new_int64(t.err[0]));
	json_object_object_add(cnt, "errors", errs);
	json_object_object_add(o, "counters", cnt);
	return o;
}

static void status_text(const char *dir, const struct status *st)
{
	const struct bpfwire_cfg *c = &st->info.cfg;
	struct bpfwire_stats t;
	char ev[16], mac[24];
	__u64 queued;
	int j, any = 0;

	totals(st, &t, &queued);
	bpfwire_events_str(c->events, ev, sizeof(ev));
	printf("%s: sender %u, %s -> %s", bpfwire_via_name(st->info.via),
	       c->sender_id, ev, st->info.dst);
	if (st->info.bind[0])
		printf(" from %s", st->info.bind);
	if (st->info.via == BPFWIRE_VIA_NETPOLL) {
		bpfwire_fmt_mac(c->remote_mac, mac, sizeof(mac));
		printf(" on %s via %s", c->dev, mac);
	}
	if (st->info.via == BPFWIRE_VIA_KSOCK && c->sndbuf)
		printf(", sndbuf %u", c->sndbuf);
	if (c->key_id)
		printf(", %s (key id %u, epoch 0x%016llx)",
		       c->wire_version == BPFWIRE_VERSION_3 ? "encrypted v3" : "signed v2",
		       c->key_id, (unsigned long long)c->epoch);
	if (c->batch)
		printf(", batch %u (age %u ms)", c->batch, c->batch_age_ms);
	printf(", prefix '%.*s' (%s)\n", (int)c->prefix_len, c->prefix, dir);
	if (st->info.via == BPFWIRE_VIA_RINGBUF)
		printf("  agent %u %s, queued %llu\n", st->info.agent_pid,
		       st->agent_running ? "running" : "gone",
		       (unsigned long long)queued);
	printf("  events %llu  sent %llu  failed %llu  bytes %llu  last_seq %llu\n",
	       (unsigned long long)t.events, (unsigned long long)t.sent,
	       (unsigned long long)t.failed, (unsigned long long)t.bytes,
	       (unsigned long long)st->seq);
	if (c->batch)
		printf("  events sent %llu  failed %llu  pending %u  (datagrams above)\n",
		       (unsigned long long)t.events_sent,
		       (unsigned long long)t.events_failed, st->pending);
	for (j = 0; j < BPFWIRE_ERRNO_SLOTS; j++) {
		if (!t.err[j])
			continue;
		printf("%s%s %llu", any ? "  " : "  errors: ",
		       j ? errno_name(j) : "other",
		       (unsigned long long)t.err[j]);
		any = 1;
	}
	if (any)
		printf("\n");
}

static int selected(const struct agent_opts *o, enum bpfwire_via v)
{
	return !o->only || !strcmp(o->only, bpfwire_via_name(v));
}

/* The pin dir of all_vias[i] when that kind is selected and installed. */
static const char *installed_dir(const struct agent_opts *o, size_t i, char *dir, size_t len)
{
	if (!selected(o, all_vias[i]))
		return NULL;
	snprintf(dir, len, BPFWIRE_PIN_ROOT "/%s", bpfwire_via_name(all_vias[i]));
	return access(dir, F_OK) ? NULL : dir;
}

json_object *status_doc(json_object *senders, int api)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "senders", senders);
	/* The kernel's ksock API (kapi.h); null: absent or no BTF. */
	json_object_object_add(root, "ksock_api", api > 0 ?
		json_object_new_string(kapi_ksock_name(api)) : NULL);
	return root;
}

int cmd_status(const struct agent_opts *o)
{
	json_object *root;
	json_object *arr = json_object_new_array();
	char dir[PATH_MAX];
	size_t i;
	int ret = 0, n = 0;

	for (i = 0; i < sizeof(all_vias) / sizeof(all_vias[0]); i++) {
		struct status st;

		if (!installed_dir(o, i, dir, sizeof(dir)))
			continue;
		if (read_status(dir, &st)) {
			ret = -1;
			continue;
		}
		n++;
		if (o->json)
			json_object_array_add(arr, status_json(dir, &st));
		else
			status_text(dir, &st);
	}
	{
		struct kapi k;
		char err[512];

		root = status_doc(arr, kapi_detect_file(NULL, &k, err, sizeof(err)) ? -1 : (int)k.ksock);
	}
	if (o->json)
		printf("%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	else if (!n && !ret)
		printf("no sender installed under %s\n", BPFWIRE_PIN_ROOT);
	json_object_put(root);
	return ret;
}

/*
 * --batch: run the pinned bpfwire_flush, which sends the open batch.
 * Returns the events it sent (0: none waiting, or no --batch), or -errno.
 */
static int flush_dir(const char *dir)
{
	LIBBPF_OPTS(bpf_test_run_opts, ropts);
	char path[PATH_MAX + 32];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/prog_flush", dir);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	ret = bpf_prog_test_run_opts(fd, &ropts) ? -errno : (int)ropts.retval;
	close(fd);
	return ret;
}

int cmd_flush(const struct agent_opts *o)
{
	char dir[PATH_MAX];
	size_t i;
	int ret = 0, n;

	for (i = 0; i < sizeof(all_vias) / sizeof(all_vias[0]); i++) {
		if (!installed_dir(o, i, dir, sizeof(dir)))
			continue;
		n = flush_dir(dir);
		if (n < 0) {
			pr_warn("couldn't flush the %s batch: %s",
				bpfwire_via_name(all_vias[i]), errno_str(n));
			ret = -1;
			continue;
		}
		printf("bpfwire-agent: flushed %s: %d event%s%s\n",
		       bpfwire_via_name(all_vias[i]), n, n == 1 ? "" : "s",
		       n ? " in 1 datagram" : "");
	}
	return ret;
}

/*
 * Before a --batch sender's pins go: detach its links, so no event joins
 * the batch any more, then send what waits. A program already running when
 * its link went may still append after this (a window of one event).
 */
static void unload_flush(const char *dir, const char *via)
{
	char path[PATH_MAX + 32];
	int n;

	snprintf(path, sizeof(path), "%s/prog_flush", dir);
	if (access(path, F_OK))
		return;
	snprintf(path, sizeof(path), "%s/link_exec", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/link_open", dir);
	unlink(path);
	n = flush_dir(dir);
	if (n < 0)
		pr_warn("couldn't flush the %s batch at unload: %s", via, errno_str(n));
	else if (n)
		printf("bpfwire-agent: flushed %s: %d event%s in 1 datagram\n", via, n,
		       n == 1 ? "" : "s");
}

int cmd_unload(const struct agent_opts *o)
{
	char dir[PATH_MAX];
	size_t i;
	int ret = 0, n = 0;

	for (i = 0; i < sizeof(all_vias) / sizeof(all_vias[0]); i++) {
		struct status st;

		if (!installed_dir(o, i, dir, sizeof(dir)))
			continue;
		/* A running ringbuf agent is stopped too: unload removes everything. */
		if (!read_status(dir, &st) && st.agent_running &&
		    st.info.agent_pid != (__u32)getpid()) {
			pr_info("stopping ringbuf agent %u", st.info.agent_pid);
			kill(st.info.agent_pid, SIGTERM);
		}
		unload_flush(dir, bpfwire_via_name(all_vias[i]));
		if (pin_dir_remove(dir)) {
			ret = -1;
			continue;
		}
		n++;
		printf("bpfwire-agent: unloaded %s\n", bpfwire_via_name(all_vias[i]));
	}
	rmdir(BPFWIRE_PIN_ROOT);
	if (!n && !ret)
		printf("bpfwire-agent: nothing to unload under %s\n", BPFWIRE_PIN_ROOT);
	return ret;
}
