// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_path BPFWIRE_PATH FIXTURE_RUN: copies the fixture run, runs
 * bpfwire-path on it and checks path.json (layers, order, ends, capture
 * positions), path.txt and path.svg.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

static int n, failed;

static bool check(bool ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what);
	failed |= !ok;
	return ok;
}

static bool ASSERT_STR(const char *got, const char *want, const char *what)
{
	bool ok = got && !strcmp(got, want);

	if (!ok)
		printf("# %s: got '%s', want '%s'\n", what, got ? got : "(none)", want);
	return check(ok, what);
}

static bool ASSERT_INT(long long got, long long want, const char *what)
{
	if (got != want)
		printf("# %s: got %lld, want %lld\n", what, got, want);
	return check(got == want, what);
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

static const char *gets(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_string(v) : NULL;
}

static json_object *find_dg(json_object *dgs, const char *path, int seq)
{
	for (size_t i = 0; i < json_object_array_length(dgs); i++) {
		json_object *d = json_object_array_get_idx(dgs, i);

		if (!strcmp(gets(d, "path"), path) && json_object_get_int(get(d, "seq")) == seq)
			return d;
	}
	return NULL;
}

/* Probe names of the entries, in order, joined by spaces. */
static void entries(json_object *d, char *buf, size_t len)
{
	json_object *l = get(d, "layers");
	long long last = -1;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		json_object *r = json_object_array_get_idx(l, i);
		long long off = json_object_get_int64(get(r, "offset_ns"));

		if (off < last)
			snprintf(buf, len, "offsets go backwards at %zu", i);
		last = off;
		if (!strcmp(gets(r, "ev"), "entry") && strlen(buf) + 40 < len) {
			if (buf[0])
				strcat(buf, " ");
			strcat(buf, gets(r, "probe"));
		}
	}
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_path.XXXXXX", cmd[8192], buf[2048];
	json_object *o = NULL, *dgs, *d, *c;
	char *dir;

	if (argc != 3) {
		fprintf(stderr, "usage: test_path BPFWIRE_PATH FIXTURE_RUN\n");
		return 2;
	}
	printf("1..20\n");
	dir = mkdtemp(tmpl);
	if (!check(dir != NULL, "temporary run dir"))
		return 1;
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. '%s' && '%s' '%s' > '%s/out' 2>&1", argv[2], dir, argv[1], dir, dir);
	if (!check(system(cmd) == 0, "bpfwire-path exits 0")) {
		snprintf(cmd, sizeof(cmd), "sed 's/^/# /' '%s/out'", dir);
		system(cmd);
		goto out;
	}
	snprintf(buf, sizeof(buf), "%s/hosts/sender/path.json", dir);
	o = json_object_from_file(buf);
	if (!check(o != NULL, "hosts/sender/path.json parses"))
		goto out;
	dgs = get(o, "datagrams");
	ASSERT_INT(dgs ? json_object_array_length(dgs) : 0, 3, "three datagrams");

	d = find_dg(dgs, "ksock", 2);
	if (check(d != NULL, "ksock seq 2 is there")) {
		entries(d, buf, sizeof(buf));
		ASSERT_STR(buf, "bpf_ksock_send kernel_sendmsg security_socket_sendmsg udp_sendmsg ip_make_skb "
			   "udp_send_skb ip_send_skb __ip_local_out ip_output ip_finish_output2 __dev_queue_xmit "
			   "sch_direct_xmit dev_hard_start_xmit start_xmit consume_skb", "ksock entries in stack order");
		ASSERT_STR(gets(d, "end"), "driver", "ksock reached the driver");
		ASSERT_INT(json_object_array_length(get(d, "missing")), 0, "ksock misses no listed layer");
		ASSERT_INT(json_object_get_boolean(get(d, "in_order")), 1, "ksock in order");
		c = json_object_array_get_idx(get(d, "captures"), 0);
		ASSERT_STR(c ? gets(c, "pcap") : NULL, "segments/lan.pcap", "ksock captured on lan");
		ASSERT_INT(c ? json_object_get_int(get(c, "frame")) : 0, 1, "ksock at frame 1");
	}
	d = find_dg(dgs, "netpoll", 2);
	if (check(d != NULL, "netpoll seq 2 is there")) {
		entries(d, buf, sizeof(buf));
		ASSERT_STR(buf, "bpf_netpoll_send_udp netpoll_send_udp netpoll_send_skb netpoll_start_xmit "
			   "start_xmit consume_skb", "netpoll bypasses the stack");
		ASSERT_STR(gets(d, "end"), "driver", "netpoll reached the driver");
		c = json_object_array_get_idx(get(d, "captures"), 0);
		ASSERT_INT(c ? json_object_get_int(get(c, "frame")) : 0, 2, "netpoll at frame 2");
	}
	d = find_dg(dgs, "ksock", 3);
	if (check(d != NULL, "the netfilter drop is there")) {
		ASSERT_STR(gets(d, "end"), "dropped", "dropped");
		ASSERT_STR(gets(d, "end_at"), "nf_hook_slow", "the path ends at the netfilter hook");
		ASSERT_STR(gets(d, "reason"), "NETFILTER_DROP", "with the drop reason");
	}
	snprintf(cmd, sizeof(cmd), "grep -q 'ksock, sender id 1: 2 datagrams' '%s/path.txt' && "
		 "head -c 5 '%s/path.svg' | grep -q '<?xml' && grep -q 'not crossed' '%s/path.svg'", dir, dir, dir);
	check(system(cmd) == 0, "path.txt groups by sender, path.svg hatches the lanes netpoll skips");
out:
	json_object_put(o);
	if (dir) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		system(cmd);
	}
	while (n < 20)
		check(false, "skipped after an earlier failure");
	return failed;
}
