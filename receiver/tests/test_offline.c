// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv end to end in --read mode: generate pcaps here, run the
 * binary (optionally under a wrapper such as valgrind), and check its exit
 * code and the structure of its JSON summary.
 *
 * With --fields FILE (recv-json.fields), every summary it loads must have
 * only fields that FILE lists: a field added to recv.c without its line
 * there fails here.
 *
 * usage: test_offline BPFWIRE-RECV [--fields FILE] [--wrap WRAPPER ARGS...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <pcap/pcap.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "craft.h"
#include "fields.h"
#include "parse.h"
#include "tap.h"
#include "wire.h"

extern char **environ;

static const char *recv_path;
static char **wrap;
static int nwrap;
/* Private (tap_private_dir): the key files in it must pass keyfile.h's path rule. */
static char dir[256];
static char out_path[512], err_path[512];
static struct fields *fields;
static int fields_leaves;

static char *path(const char *name)
{
	static char buf[8][512];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* Run bpfwire-recv with a NULL-terminated argument list; returns exit code. */
static int run(const char *first, ...)
{
	char *argv[64];
	int argc = 0, status, i;
	posix_spawn_file_actions_t fa;
	va_list ap;
	pid_t pid;

	for (i = 0; i < nwrap; i++)
		argv[argc++] = wrap[i];
	argv[argc++] = (char *)recv_path;
	va_start(ap, first);
	for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		perror("posix_spawn");
		exit(1);
	}
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static char *slurp(const char *p)
{
	static char buf[1 << 20];
	FILE *f = fopen(p, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/* Integer at a dotted path in the JSON summary, -1 when absent. */
static int64_t jget(json_object *root, const char *dotted)
{
	char buf[256], *tok, *save;
	json_object *o = root;

	snprintf(buf, sizeof(buf), "%s", dotted);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save))
		if (!o || !json_object_object_get_ex(o, tok, &o))
			return -1;
	return o ? json_object_get_int64(o) : -1;
}

static const char *jstr(json_object *root, const char *key)
{
	json_object *o;

	return json_object_object_get_ex(root, key, &o) ? json_object_get_string(o) : NULL;
}

static int failed_has(json_object *root, const char *name)
{
	json_object *f;
	size_t i;

	if (!json_object_object_get_ex(root, "failed", &f))
		return 0;
	for (i = 0; i < json_object_array_length(f); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(f, i)), name))
			return 1;
	return 0;
}

static void field_bad(void *ctx, const char *path, const char *why)
{
	printf("# %s: %s %s\n", (const char *)ctx, path, why);
}

static json_object *load(const char *p)
{
	json_object *o = json_object_from_file(p);
	char name[600];
	int n = 0;

	if (!o)
		printf("# couldn't parse %s: %s\n", p, json_util_get_last_err());
	if (o && fields) {
		snprintf(name, sizeof(name), "%s: every leaf is in %s", strrchr(p, '/') + 1,
			 fields_path(fields));
		ASSERT_EQ(fields_check_json(fields, o, field_bad, (void *)p, &n), 0, name);
		fields_leaves += n;
	}
	return o;
}

static uint8_t f[CRAFT_MAX_FRAME], dg[CRAFT_MAX_FRAME];
static uint64_t ts = 1700000000ull * 1000000000ull;

static void put_good(struct craft_pcap *c, const struct craft_pkt *p,
		     uint32_t sender, uint64_t seq)
{
	uint32_t n = craft_wire(dg, sender, seq, BPFWIRE_EV_TEST,
				(const uint8_t *)"0123456789abcdef", 16);

	ts += 1000000;
	craft_pcap_write(c, ts, f, craft_frame(f, p, dg, n));
}

/* good.pcap: 2 senders (v4, v6) x 50, one fragmented datagram each, noise. */
static int make_good(void)
{
	static uint8_t frames[4][CRAFT_MAX_FRAME], big[2500];
	struct craft_pcap *c = craft_pcap_open(path("good.pcap"), DLT_EN10MB);
	struct craft_pkt p4, p6, other;
	uint32_t lens[4], n, i;
	unsigned nf, k;

	if (!c)
		return -1;
	craft_defaults(&p4, 4);
	craft_defaults(&p6, 6);
	p4.df = 0;
	for (i = 1; i <= 49; i++) {
		put_good(c, &p4, 10, i);
		put_good(c, &p6, 20, i);
	}
	for (k = 0; k < 2; k++) {
		struct craft_pkt *p = k ? &p6 : &p4;

		n = craft_wire(dg, k ? 20 : 10, 50, BPFWIRE_EV_TEST, big, sizeof(big));
		nf = craft_fragments(frames, lens, 4, p, dg, n, 1448);
		for (i = 0; i < nf; i++)
			craft_pcap_write(c, ts += 1000, frames[i], lens[i]);
	}
	/* Traffic for another port is not ours and must not count. */
	other = p4;
	other.dport = 53;
	put_good(c, &other, 99, 1);
	return craft_pcap_close(c);
}

/* bad.pcap: one good datagram, then one per kind of damage. */
static int make_bad(void)
{
	struct craft_pcap *c = craft_pcap_open(path("bad.pcap"), DLT_EN10MB);
	struct craft_pkt p;
	uint32_t n;

	if (!c)
		return -1;
	craft_defaults(&p, 4);
	put_good(c, &p, 1, 1);
	n = craft_wire(dg, 1, 2, BPFWIRE_EV_TEST, (const uint8_t *)"x", 1);
	n = craft_frame(f, &p, dg, n);
	f[n - 1] ^= 1;				/* udp_checksum */
	craft_pcap_write(c, ts += 1000, f, n);
	n = craft_wire(dg, 1, 2, BPFWIRE_EV_TEST, (const uint8_t *)"x", 1);
	dg[0] = 0;				/* wire_magic */
	craft_wire_fix(dg, n);
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	n = craft_wire(dg, 1, 2, BPFWIRE_EV_TEST, (const uint8_t *)"x", 1);
	dg[40] ^= 1;				/* wire_check */
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	n = craft_wire(dg, 1, 2, BPFWIRE_EV_TEST, (const uint8_t *)"x", 1);
	n = craft_frame(f, &p, dg, n);
	f[14 + 10] ^= 1;			/* ip4_checksum */
	craft_pcap_write(c, ts += 1000, f, n);
	craft_pcap_write(c, ts += 1000, f, 20);	/* ip4_truncated */
	put_good(c, &p, 1, 2);
	return craft_pcap_close(c);
}

/* seq.pcap: 1 2 4 3 3 6 from one sender: 1 lost, 1 dup, 1 reordered. */
static int make_seq(void)
{
	static const uint64_t seqs[] = { 1, 2, 4, 3, 3, 6 };
	struct craft_pcap *c = craft_pcap_open(path("seq.pcap"), DLT_EN10MB);
	struct craft_pkt p;
	unsigned i;

	if (!c)
		return -1;
	craft_defaults(&p, 6);
	for (i = 0; i < 6; i++)
		put_good(c, &p, 7, seqs[i]);
	return craft_pcap_close(c);
}

/* sll.pcap: the "any" device's cooked header. */
static int make_sll(void)
{
	struct craft_pcap *c = craft_pcap_open(path("sll.pcap"), DLT_LINUX_SLL);
	uint8_t s[CRAFT_MAX_FRAME];
	struct craft_pkt p;
	uint32_t n;
	int i;

	if (!c)
		return -1;
	craft_defaults(&p, 4);
	for (i = 1; i <= 3; i++) {
		n = craft_wire(dg, 5, (uint64_t)i, BPFWIRE_EV_TEST, NULL, 0);
		n = craft_frame(f, &p, dg, n);
		memset(s, 0, 16);
		s[14] = 0x08;
		memcpy(s + 16, f + 14, n - 14);
		craft_pcap_write(c, ts += 1000, s, n + 2);
	}
	return craft_pcap_close(c);
}

static void test_good(void)
{
	json_object *j;

	ASSERT_EQ(run("--read", path("good.pcap"), "--port", "7000", "--json",
		      path("good.json"), "--expect-count", "100", NULL), 0, "good.pcap passes");
	j = load(path("good.json"));
	if (!ASSERT_TRUE(j, "good.json parses"))
		return;
	ASSERT_EQ(jget(j, "valid"), 100, "good valid");
	ASSERT_EQ(jget(j, "invalid"), 0, "good invalid");
	ASSERT_EQ(jget(j, "wire.ignored"), 1, "other port ignored");
	ASSERT_EQ(jget(j, "wire.fragments.reassembled"), 2, "fragments reassembled");
	ASSERT_EQ(jget(j, "wire.senders.10.received"), 50, "sender 10 received");
	ASSERT_EQ(jget(j, "wire.senders.20.last_seq"), 50, "sender 20 last_seq");
	ASSERT_EQ(jget(j, "wire.senders.20.lost"), 0, "sender 20 lost");
	ASSERT_STREQ(jstr(j, "verdict"), "pass", "verdict pass");
	json_object_put(j);

	ASSERT_EQ(run("--read", path("good.pcap"), "--json", path("g2.json"),
		      "--expect-count", "100", NULL), 1, "wrong count fails");
	j = load(path("g2.json"));
	if (j) {
		ASSERT_TRUE(failed_has(j, "expect_count_wire"), "failure names expect_count_wire");
		ASSERT_EQ(jget(j, "wire.ignored"), 0, "no --port: every port examined");
		ASSERT_EQ(jget(j, "wire.senders.99.received"), 1, "no --port: port 53 counted");
		json_object_put(j);
	}
	ASSERT_TRUE(strstr(slurp(out_path), "FAIL (expect_count_wire: 101 != 100"), "summary line names the failure");

	/* The capture is copied through, frame for frame. */
	ASSERT_EQ(run("--read", path("good.pcap"), "--pcap", path("copy.pcap"),
		      "--json", path("g3.json"), "--port", "7000", NULL), 0, "copy run");
	ASSERT_EQ(run("--read", path("copy.pcap"), "--json", path("g4.json"),
		      "--port", "7000", NULL), 0, "copy validates");
	j = load(path("g4.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.frames"), 98 + 4 + 1, "copy has every frame");
		json_object_put(j);
	}

	ASSERT_EQ(run("--read", path("good.pcap"), "--port", "7000",
		      "--expect-src", "192.0.2.1:40000", "--expect-src", "[2001:db8::1]:40000",
		      NULL), 0, "expected sources");
	ASSERT_EQ(run("--read", path("good.pcap"), "--port", "7000", "--json", path("g5.json"),
		      "--expect-src", "192.0.2.1", NULL), 1, "unexpected v6 source fails");
	j = load(path("g5.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.src_unexpected"), 50, "v6 datagrams unexpected");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("good.pcap"), "--port", "7000", "--json", path("g6.json"),
		      "--expect-src", "192.0.2.1", "--expect-src", "198.51.100.7",
		      "--allow-invalid", NULL), 1, "silent expected source fails");
	j = load(path("g6.json"));
	if (j) {
		ASSERT_TRUE(failed_has(j, "expect_src_all_seen"), "names expect_src_all_seen");
		json_object_put(j);
	}
	/* Our MAC is 02:..:02; claiming another makes every frame foreign. */
	ASSERT_EQ(run("--read", path("good.pcap"), "--port", "7000", "--json", path("g7.json"),
		      "--mac", "02:00:00:00:00:09", NULL), 1, "foreign MAC fails");
	j = load(path("g7.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.eth_dst_not_ours"), 100, "eth_dst_not_ours counted");
		json_object_put(j);
	}
}

static void test_bad(void)
{
	json_object *j;

	ASSERT_EQ(run("--read", path("bad.pcap"), "--json", path("bad.json"), NULL), 1,
		  "bad.pcap fails");
	j = load(path("bad.json"));
	if (!ASSERT_TRUE(j, "bad.json parses"))
		return;
	ASSERT_EQ(jget(j, "valid"), 2, "bad: valid");
	ASSERT_EQ(jget(j, "invalid"), 5, "bad: invalid");
	ASSERT_EQ(jget(j, "wire.reasons.udp_checksum"), 1, "bad: udp_checksum");
	ASSERT_EQ(jget(j, "wire.reasons.wire_magic"), 1, "bad: wire_magic");
	ASSERT_EQ(jget(j, "wire.reasons.wire_check"), 1, "bad: wire_check");
	ASSERT_EQ(jget(j, "wire.reasons.ip4_checksum"), 1, "bad: ip4_checksum");
	ASSERT_EQ(jget(j, "wire.reasons.ip4_truncated"), 1, "bad: ip4_truncated");
	ASSERT_TRUE(failed_has(j, "no_invalid"), "bad: names no_invalid");
	json_object_put(j);
	ASSERT_EQ(run("--read", path("bad.pcap"), "--allow-invalid", NULL), 0,
		  "bad.pcap passes with --allow-invalid");

	/* --log: one JSON line per datagram, then the summary line. */
	ASSERT_EQ(run("--read", path("bad.pcap"), "--log", "--allow-invalid", NULL), 0, "log run");
	{
		char *out = slurp(out_path), *line, *save;
		int lines = 0, parsed = 0;

		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			json_object *o;

			if (line[0] != '{')
				continue;
			lines++;
			o = json_tokener_parse(line);
			if (o && jstr(o, "reason"))
				parsed++;
			json_object_put(o);
		}
		ASSERT_EQ(lines, 7, "one log line per datagram");
		ASSERT_EQ(parsed, 7, "log lines are JSON with a reason");
	}
}

static void test_seq(void)
{
	json_object *j;

	ASSERT_EQ(run("--read", path("seq.pcap"), "--json", path("seq.json"), NULL), 1,
		  "seq.pcap fails by default");
	j = load(path("seq.json"));
	if (!ASSERT_TRUE(j, "seq.json parses"))
		return;
	ASSERT_EQ(jget(j, "wire.senders.7.received"), 5, "seq received");
	ASSERT_EQ(jget(j, "wire.senders.7.lost"), 1, "seq lost");
	ASSERT_EQ(jget(j, "wire.senders.7.duplicates"), 1, "seq duplicates");
	ASSERT_EQ(jget(j, "wire.senders.7.reordered"), 1, "seq reordered");
	ASSERT_EQ(jget(j, "wire.senders.7.first_seq"), 1, "seq first");
	ASSERT_EQ(jget(j, "wire.senders.7.last_seq"), 6, "seq last");
	ASSERT_TRUE(failed_has(j, "max_loss") && failed_has(j, "max_dup") &&
		    failed_has(j, "max_reorder"), "seq names loss, dup, reorder");
	json_object_put(j);
	ASSERT_EQ(run("--read", path("seq.pcap"), "--max-loss", "1", "--max-dup", "1",
		      "--max-reorder", "1", NULL), 0, "seq within limits");
	ASSERT_EQ(run("--read", path("seq.pcap"), "--max-loss", "any", "--max-dup", "any",
		      "--max-reorder", "0", NULL), 1, "seq reorder still checked");
}

static void test_sll(void)
{
	ASSERT_EQ(run("--read", path("sll.pcap"), "--expect-count", "3", NULL), 0,
		  "linux cooked capture");
}

/* signed.pcap: 3 signed datagrams, a replay, a bad tag, a v1 one, a new epoch. */
static const uint8_t test_key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static int make_signed(void)
{
	struct craft_pcap *c = craft_pcap_open(path("signed.pcap"), DLT_EN10MB);
	struct craft_pkt p;
	uint32_t n;
	int i;

	if (!c)
		return -1;
	craft_defaults(&p, 4);
	for (i = 1; i <= 3; i++) {
		n = craft_wire_v2(dg, 11, 0xe90c, (uint64_t)i, BPFWIRE_EV_TEST, 1,
				  (const uint8_t *)"signed", 6);
		craft_wire_sign(dg, n, test_key, 1);
		craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	}
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));	/* replay */
	dg[BPFWIRE_OFF_TAG] ^= 1;					/* forged */
	dg[23] = 4;
	craft_wire_fix(dg, n);
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	put_good(c, &p, 12, 1);						/* v1 */
	n = craft_wire_v2(dg, 11, 0xe90d, 1, BPFWIRE_EV_TEST, 1, (const uint8_t *)"again", 5);
	craft_wire_sign(dg, n, test_key, 1);				/* reinstall */
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	return craft_pcap_close(c);
}

static void test_key_file(void)
{
	char key[512], link[512];
	json_object *j;
	FILE *fp;

	/* path() reuses 8 buffers: keep these two. */
	snprintf(key, sizeof(key), "%s", path("key"));
	snprintf(link, sizeof(link), "%s", path("key.link"));
	fp = fopen(key, "w");

	fputs("0001020304050607\n 08090a0b0c0d0e0f\n", fp);
	fclose(fp);
	chmod(key, 0600);
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", key, "--key-id", "1",
		      "--json", path("k.json"), "--allow-invalid", NULL), 0, "signed.pcap with the key");
	j = load(path("k.json"));
	if (j) {
		ASSERT_EQ(jget(j, "valid"), 4, "key: 4 valid");
		ASSERT_EQ(jget(j, "wire.reasons.auth"), 1, "key: 1 auth");
		ASSERT_EQ(jget(j, "wire.reasons.replay"), 1, "key: 1 replay");
		ASSERT_EQ(jget(j, "wire.reasons.unauthenticated"), 1, "key: 1 unauthenticated");
		ASSERT_EQ(jget(j, "wire.senders.11.replays"), 1, "key: sender replays");
		ASSERT_EQ(jget(j, "wire.authenticated"), 4, "key: 4 authenticated");
		ASSERT_EQ(jget(j, "wire.events"), 4, "key: 4 events");
		/* Two epochs of sender 11: summed, and each listed. */
		ASSERT_EQ(jget(j, "wire.tracked"), 2, "key: two entries for two epochs");
		ASSERT_EQ(jget(j, "wire.senders.11.received"), 4, "key: epochs summed");
		ASSERT_EQ(jget(j, "wire.senders.11.lost"), 0, "key: no loss in either epoch");
		ASSERT_EQ(jget(j, "wire.senders.11.last_seq"), 3, "key: last_seq over epochs");
		ASSERT_EQ(jget(j, "wire.senders.11.epochs.000000000000e90c.received"), 3,
			  "key: first epoch's own count");
		ASSERT_EQ(jget(j, "wire.senders.11.epochs.000000000000e90d.received"), 1,
			  "key: the reinstall's own count");
		json_object_put(j);
	}
	/* Without the key the forgery passes on its FNV check. */
	ASSERT_EQ(run("--read", path("signed.pcap"), "--json", path("nk.json"),
		      "--max-dup", "any", NULL), 0, "signed.pcap without a key");
	j = load(path("nk.json"));
	if (j) {
		ASSERT_EQ(jget(j, "valid"), 7, "no key: all 7 valid");
		ASSERT_EQ(jget(j, "wire.senders.11.duplicates"), 1, "no key: replay is a duplicate");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", key, "--key-id", "2",
		      "--json", path("k2.json"), NULL), 1, "another --key-id fails");
	j = load(path("k2.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.auth"), 6, "--key-id 2: all 6 signed are auth");
		json_object_put(j);
	}
	chmod(key, 0640);
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", key, NULL), 2,
		  "group-readable key refused");
	ASSERT_HAS(slurp(err_path), "can be read by group or others", "says why");
	chmod(key, 0600);
	ASSERT_EQ(symlink(key, link), 0, "symlink made");
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", link, NULL), 2,
		  "key through a symlink refused");
	ASSERT_HAS(slurp(err_path), "symbolic link", "says symlink");
	/* A world-writable directory on the way: anyone could swap the key. */
	if (ASSERT_OK(chmod(dir, 01777), "test dir made 1777, as /tmp")) {
		ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", key, NULL), 2,
			  "key in a world-writable dir refused");
		ASSERT_HAS(slurp(err_path), "can be written by group or others (mode 1777)",
			   "says which dir");
		chmod(dir, 0700);
	}
	fp = fopen(key, "w");
	fputs("0001020304050607 08090a0b0c0d0e0", fp);	/* 31 digits */
	fclose(fp);
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", key, NULL), 2,
		  "31 hex digits refused");
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-file", path("nokey"), NULL), 2,
		  "missing key file refused");
	ASSERT_EQ(run("--read", path("signed.pcap"), "--key-id", "1", NULL), 2,
		  "--key-id without --key-file refused");
	ASSERT_EQ(run("--read", path("signed.pcap"), "--state-budget-mb", "-1", NULL), 2,
		  "negative budget refused");
	ASSERT_EQ(run("--read", path("signed.pcap"), "--max-senders", "0", NULL), 2,
		  "--max-senders 0 refused");
}

/*
 * enc.pcap, 5 wire v3 datagrams (open events of secret paths);
 * encbad.pcap, malformed v3 under good MACs: cut by a byte, a 1405-byte
 * payload, 2 events claimed over 1, the encrypted flag missing, a good one.
 */
static const uint8_t enc_key[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				     0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };

static uint32_t v3_open(uint64_t seq)
{
	uint8_t ev[128];
	char p[64];
	uint32_t n;

	snprintf(p, sizeof(p), "/tmp/bw/secret-%llu", (unsigned long long)seq);
	n = craft_event(ev, 4000 + (uint32_t)seq, "cat", p);
	n = craft_wire_v2(dg, 21, 0x5dcd7438b80d87c8ull, seq, BPFWIRE_EV_OPEN, 1, ev, n);
	craft_wire_sign(dg, n, test_key, 1);
	craft_wire_encrypt(dg, n, test_key, enc_key);
	return n;
}

static int make_encrypted(void)
{
	struct craft_pcap *c = craft_pcap_open(path("enc.pcap"), DLT_EN10MB);
	struct craft_pkt p;
	uint32_t n;
	int i;

	if (!c)
		return -1;
	craft_defaults(&p, 4);
	for (i = 1; i <= 5; i++) {
		n = v3_open((uint64_t)i);
		craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	}
	if (craft_pcap_close(c))
		return -1;
	c = craft_pcap_open(path("encbad.pcap"), DLT_EN10MB);
	if (!c)
		return -1;
	n = v3_open(1);
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n - 1));	/* cut */
	n = craft_wire_v2(dg, 21, 7, 2, BPFWIRE_EV_TEST, 1, NULL, 0);
	memset(dg + n, 0x41, BPFWIRE_MAX_PAYLOAD_V3 + 1);
	n += BPFWIRE_MAX_PAYLOAD_V3 + 1;
	dg[14] = (uint8_t)((n - BPFWIRE_HDR_LEN_V2) >> 8);
	dg[15] = (uint8_t)(n - BPFWIRE_HDR_LEN_V2);
	dg[4] = BPFWIRE_VERSION_3;
	dg[36] = BPFWIRE_F_V3;
	craft_wire_sign(dg, n, test_key, 1);				/* 1405 bytes */
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	n = v3_open(3);
	dg[39] = 2;
	craft_wire_sign(dg, n, test_key, 1);				/* 2 events over 1 */
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	n = v3_open(4);
	dg[36] = BPFWIRE_F_SIGNED;
	dg[BPFWIRE_OFF_TAG] = 0;
	craft_wire_fix(dg, n);
	craft_wire_sign(dg, n, test_key, 1);				/* no encrypted flag */
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));
	n = v3_open(5);
	craft_pcap_write(c, ts += 1000, f, craft_frame(f, &p, dg, n));	/* good */
	return craft_pcap_close(c);
}

/* A 0600 key file of the given hex text. */
static void put_key(const char *p, const char *hex)
{
	FILE *fp = fopen(p, "w");

	if (fp) {
		fputs(hex, fp);
		fclose(fp);
	}
	chmod(p, 0600);
}

#define MAC_HEX "000102030405060708090a0b0c0d0e0f"

/* enc.pcap under each kind of key file; not under valgrind (below). */
static void test_encrypted_keys(const char *both, const char *wrong, const char *mac,
				const char *same)
{
	json_object *j;

	ASSERT_EQ(run("--read", path("enc.pcap"), "--key-file", both, "--expect-count", "5",
		      "--json", path("e.json"), "--log", NULL), 0, "enc.pcap with both keys");
	ASSERT_HAS(slurp(out_path), "\"encrypted\":true,\"decrypted\":true", "--log: decrypted");
	j = load(path("e.json"));
	if (j) {
		ASSERT_EQ(jget(j, "valid"), 5, "both keys: 5 valid");
		ASSERT_EQ(jget(j, "wire.decrypted"), 5, "both keys: 5 decrypted");
		ASSERT_EQ(jget(j, "wire.authenticated"), 5, "both keys: 5 authenticated");
		ASSERT_EQ(jget(j, "wire.events"), 5, "both keys: 5 events");
		ASSERT_EQ(jget(j, "config.decrypts"), 1, "config says it decrypts");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("enc.pcap"), "--key-file", wrong, "--json",
		      path("w.json"), NULL), 1, "wrong encryption key fails");
	j = load(path("w.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.decrypt"), 5, "wrong encryption key: 5 decrypt");
		ASSERT_EQ(jget(j, "wire.decrypted"), 0, "wrong encryption key: none decrypted");
		ASSERT_EQ(jget(j, "wire.received"), 5, "wrong encryption key: 5 sequenced");
		ASSERT_EQ(failed_has(j, "no_invalid"), 1, "wrong encryption key: no_invalid failed");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("enc.pcap"), "--json", path("n.json"), NULL), 1,
		  "no key: fails no_invalid");
	j = load(path("n.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.encrypted"), 5, "no key: 5 encrypted");
		ASSERT_EQ(jget(j, "wire.received"), 5, "no key: 5 sequenced");
		ASSERT_EQ(jget(j, "wire.lost"), 0, "no key: 0 lost");
		ASSERT_EQ(jget(j, "wire.events"), 0, "no key: no events parsed");
		ASSERT_EQ(jget(j, "config.decrypts"), 0, "config: no decryption");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("enc.pcap"), "--allow-invalid", "--expect-count", "5",
		      NULL), 0, "no key, --allow-invalid: the 5 still count as sequenced");
	ASSERT_EQ(run("--read", path("enc.pcap"), "--key-file", mac, "--json", path("m.json"),
		      "--allow-invalid", NULL), 0, "MAC key alone");
	j = load(path("m.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.encrypted"), 5, "MAC key alone: 5 encrypted");
		ASSERT_EQ(jget(j, "wire.reasons.auth"), 0, "MAC key alone: tags good");
		json_object_put(j);
	}
	ASSERT_EQ(run("--read", path("enc.pcap"), "--key-file", same, NULL), 2,
		  "a key file with equal halves refused");
	ASSERT_HAS(slurp(err_path), "give two distinct keys", "says why");
}

static void test_encrypted(void)
{
	char both[512], wrong[512], mac[512], same[512];
	const char *pcap;
	json_object *j;

	snprintf(both, sizeof(both), "%s", path("enc.key"));
	snprintf(wrong, sizeof(wrong), "%s", path("wrong-enc.key"));
	snprintf(mac, sizeof(mac), "%s", path("mac.key"));
	snprintf(same, sizeof(same), "%s", path("same.key"));
	put_key(both, MAC_HEX "\n2b7e151628aed2a6abf7158809cf4f3c\n");
	put_key(wrong, MAC_HEX "\n2b7e151628aed2a6abf7158809cf4f3d\n");
	put_key(mac, MAC_HEX "\n");
	put_key(same, MAC_HEX MAC_HEX);

	pcap = slurp(path("enc.pcap"));
	ASSERT_EQ(memmem(pcap, 4096, "secret", 6) == NULL, 1,
		  "enc.pcap: no path in the capture's bytes");
	/*
	 * Under valgrind (--wrap) a run takes about a second: encbad.pcap alone
	 * goes through decryption, its failure and the malformed headers; the
	 * key kinds' paths run under ASan in recv-fuzz-smoke's v3 seeds.
	 */
	if (!nwrap)
		test_encrypted_keys(both, wrong, mac, same);
	ASSERT_EQ(run("--read", path("encbad.pcap"), "--key-file", both, "--json",
		      path("b.json"), NULL), 1, "malformed v3: fails, does not crash");
	j = load(path("b.json"));
	if (j) {
		ASSERT_EQ(jget(j, "wire.reasons.wire_payload_len"), 2,
			  "malformed: cut and 1405-byte payloads are wire_payload_len");
		ASSERT_EQ(jget(j, "wire.reasons.decrypt"), 1, "malformed: 2 events over 1 is decrypt");
		ASSERT_EQ(jget(j, "wire.reasons.wire_reserved"), 1,
			  "malformed: v3 without the encrypted flag is wire_reserved");
		ASSERT_EQ(jget(j, "wire.decrypted"), 1, "malformed: the good one decrypted");
		json_object_put(j);
	}
}

static void test_bad_input(void)
{
	FILE *fp;
	struct stat st;

	/* Not a pcap, missing, empty, and cut in the middle of a record. */
	fp = fopen(path("text.pcap"), "w");
	fputs("this is not a capture\n", fp);
	fclose(fp);
	ASSERT_EQ(run("--read", path("text.pcap"), NULL), 2, "text file exit 2");
	ASSERT_TRUE(strstr(slurp(err_path), "text.pcap"), "error names the file");
	ASSERT_EQ(run("--read", path("missing.pcap"), NULL), 2, "missing file exit 2");
	fclose(fopen(path("empty.pcap"), "w"));
	ASSERT_EQ(run("--read", path("empty.pcap"), NULL), 2, "empty file exit 2");
	if (stat(path("good.pcap"), &st) == 0) {
		ASSERT_EQ(truncate(path("copy.pcap"), st.st_size - 30), 0, "cut copy");
		ASSERT_EQ(run("--read", path("copy.pcap"), "--json", path("cut.json"), NULL), 2,
			  "cut pcap exit 2");
		ASSERT_TRUE(access(path("cut.json"), F_OK) != 0, "no JSON left for a bad file");
		ASSERT_TRUE(access(path("cut.json.tmp"), F_OK) != 0, "no temp JSON left");
	}

	ASSERT_EQ(run("--port", "abc", NULL), 2, "bad port exit 2");
	ASSERT_EQ(run("--port", "70000", NULL), 2, "port out of range exit 2");
	ASSERT_EQ(run("--bogus", NULL), 2, "unknown option exit 2");
	ASSERT_EQ(run("--timeout", "1", NULL), 2, "live without --port exit 2");
	ASSERT_TRUE(strstr(slurp(err_path), "--port"), "error says --port is needed");
	ASSERT_EQ(run("--read", path("good.pcap"), "--iface", "eth0", NULL), 2,
		  "--iface with --read exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "--expect-count", "-1", NULL), 2,
		  "negative count exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "--timeout", "0", NULL), 2,
		  "zero timeout exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "--expect-src", "not-an-address", NULL), 2,
		  "bad --expect-src exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "--mac", "zz", NULL), 2, "bad --mac exit 2");
	ASSERT_EQ(run("--port", "7000", "--family", "5", NULL), 2, "bad family exit 2");
	ASSERT_EQ(run("--port", "7000", "--bind", "not-an-ip", NULL), 2, "bad --bind exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "extra", NULL), 2, "stray argument exit 2");
	ASSERT_EQ(run("--read", NULL), 2, "missing argument exit 2");
	ASSERT_EQ(run("--read", path("good.pcap"), "--json", path("nodir/x.json"), NULL), 2,
		  "unwritable JSON exit 2");
	ASSERT_EQ(run("--help", NULL), 0, "--help exit 0");
	ASSERT_TRUE(strstr(slurp(out_path), "usage: bpfwire-recv"), "--help prints usage");
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s BPFWIRE-RECV [--fields FILE] [--wrap CMD ARGS...]\n", argv[0]);
		return 2;
	}
	recv_path = argv[1];
	if (argc > 3 && !strcmp(argv[2], "--fields")) {
		char err[512];

		fields = fields_load(argv[3], err, sizeof(err));
		if (!fields) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc > 3 && !strcmp(argv[2], "--wrap")) {
		wrap = argv + 3;
		nwrap = argc - 3;
	}
	if (!tap_private_dir(dir, sizeof(dir), "bpfwire-recv-test")) {
		perror("tap_private_dir");
		return 1;
	}
	snprintf(out_path, sizeof(out_path), "%s/stdout", dir);
	snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
	if (!ASSERT_EQ(make_good() | make_bad() | make_seq() | make_sll() | make_signed() |
		       make_encrypted(), 0,
		       "pcaps written"))
		goto out;
	test_good();
	test_bad();
	test_seq();
	test_sll();
	test_key_file();
	test_encrypted();
	test_bad_input();
	if (fields)
		ASSERT_GE(fields_leaves, 500, "the summaries had leaves to check");
out:
	fields_free(fields);
	i = tap_done();
	if (!getenv("BPFWIRE_KEEP_TEST_DIR")) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# couldn't remove %s\n", dir);
	} else {
		printf("# kept %s\n", dir);
	}
	return i;
}
