// SPDX-License-Identifier: GPL-2.0-only
/*
 * kapi-detect: the detector on BTF built here (btf__new_empty and friends):
 * the seed's and upstream's kfuncs, a changed prototype (an argument, an
 * opts size, bind kept beside the union), no ksock, netpoll present, changed
 * and absent; the printed prototypes; api.json and its reading; then
 * bpfwire-kapi (argv[1]) on a BTF file with a changed prototype.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/btf.h>
#include <json-c/json.h>

#include "fake_btf.h"
#include "file.h"
#include "kapi.h"
#include "tap.h"

static char *print_to_string(const struct kapi *k, const char *family, bool all)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kapi_print_family(f, k, family, all, "  ");
	fclose(f);
	return buf;
}

static void detect_sndbuf(const char *name, const struct variant *v, enum kapi_ksock ks,
			  enum kapi_netpoll np, bool sndbuf, struct kapi *k)
{
	struct btf *b = make_btf(v);

	memset(k, 0, sizeof(*k));
	tap_case_begin(name);
	ASSERT_OK(kapi_detect_btf(b, k), "detect");
	ASSERT_STREQ(kapi_ksock_name(k->ksock), kapi_ksock_name(ks), "ksock API");
	ASSERT_STREQ(kapi_netpoll_name(k->netpoll), kapi_netpoll_name(np), "netpoll");
	ASSERT_EQ(k->ksock_sndbuf, sndbuf, "the sndbuf extension");
	tap_case_end();
	btf__free(b);
}

/* Every case but the sndbuf ones: a kernel without the extension. */
static void detect(const char *name, const struct variant *v, enum kapi_ksock ks,
		   enum kapi_netpoll np, struct kapi *k)
{
	detect_sndbuf(name, v, ks, np, false, k);
}

/*
 * bpfwire-kapi (prog) --btf FILE --json OUT on v's BTF, written raw: its
 * output and api.json (compact) in *text and *json, or false.
 */
static bool run_kapi(const char *prog, const struct variant *v, char **text, char **json)
{
	char dir[] = "/tmp/kapi-test-XXXXXX", path[64], cmd[512];
	struct btf *b = make_btf(v);
	json_object *doc;
	const void *raw;
	bool ok = false;
	__u32 sz;
	FILE *f;
	int st;

	*text = *json = NULL;
	raw = btf__raw_data(b, &sz);
	if (!ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp"))
		goto out;
	snprintf(path, sizeof(path), "%s/btf", dir);
	f = fopen(path, "w");
	if (!ASSERT_OK_PTR(f, "write the BTF"))
		goto out_rm;
	fwrite(raw, 1, sz, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s --btf %s --json %s/api.json > %s/out 2>&1", prog, path, dir, dir);
	st = system(cmd);
	ASSERT_EQ(WEXITSTATUS(st), 0, "exit status");
	snprintf(path, sizeof(path), "%s/out", dir);
	*text = read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/api.json", dir);
	doc = json_object_from_file(path);
	if (doc)
		*json = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	ok = ASSERT_OK_PTR(*text, "read its output") && ASSERT_OK_PTR(*json, "api.json written");
out_rm:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ok = false;
out:
	btf__free(b);
	return ok;
}

int main(int argc, char **argv)
{
	/* The posted series (seeds 007-011): 4-byte create opts, and bind. */
	struct variant seed = { 1, 4, false, true, false, NULL }, up = { 2, 4, false, true, false, NULL };
	/* bpfwire's extension on top (kernel/patches/sndbuf): 8 bytes, sndbuf. */
	struct variant sndbuf = { 1, 8, false, true, false, "sndbuf" };
	struct variant v;
	struct kapi k;
	char *out;

	detect("the posted series (4-byte create opts, bind): seed, no sndbuf extension", &seed,
	       KAPI_KSOCK_SEED, KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("seed: nothing differs, so nothing is printed");
	ASSERT_STREQ(out, "", "print of the differing kfuncs");
	tap_case_end();
	free(out);

	detect_sndbuf("the seed with bpfwire's sndbuf (8-byte create opts, member sndbuf): seed, sndbuf extension",
		      &sndbuf, KAPI_KSOCK_SEED, KAPI_NETPOLL_PRESENT, true, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("seed with sndbuf: nothing differs; --all shows create as the extension has it");
	ASSERT_STREQ(out, "", "print of the differing kfuncs");
	free(out);
	out = print_to_string(&k, "ksock", true);
	ASSERT_HAS(out, "  bpf_ksock_create:\n"
		   "    found     struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 8 bytes */\n"
		   "    seed      struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 4 bytes */\n"
		   "    +sndbuf   struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 8 bytes */  [same]\n",
		   "create: found, the posted seed's, the extension's marked same");
	tap_case_end();
	free(out);

	v = sndbuf;
	v.create_opts_tail = "flags";
	detect("8-byte create opts whose fifth field is not sndbuf: unknown, no sndbuf extension", &v,
	       KAPI_KSOCK_UNKNOWN, KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown: create printed with its 8 bytes beside the seed's 4 and the extension's 8");
	ASSERT_HAS(out, "    found     struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 8 bytes */\n",
		   "the found size");
	ASSERT_HAS(out, "    +sndbuf   struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 8 bytes */  [the size only: no __u32 sndbuf at byte 4]\n",
		   "the extension's, its size the same but not its member");
	ASSERT_TRUE(!strstr(out, "[same]"), "nothing marked same");
	tap_case_end();
	free(out);

	v = up;
	v.create_opts_sz = 8;
	v.create_opts_tail = "sndbuf";
	detect_sndbuf("upstream's kfuncs with the sndbuf layout: unknown (the extension is the seed's)",
		      &v, KAPI_KSOCK_UNKNOWN, KAPI_NETPOLL_PRESENT, true, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown, though each kfunc matches some API: every kfunc printed, not nothing");
	ASSERT_HAS(out, "  bpf_ksock_create:\n    found     struct bpf_ksock *bpf_ksock_create(const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit); /* struct bpf_ksock_create_opts: 8 bytes */\n",
		   "create, as found");
	ASSERT_HAS(out, "  bpf_ksock_bind:\n    found     (not in this kernel's BTF)\n", "bind, absent");
	ASSERT_HAS(out, "  bpf_ksock_send:\n", "and the rest");
	tap_case_end();
	free(out);

	detect("upstream ksock, netpoll present", &up, KAPI_KSOCK_UPSTREAM, KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", true);
	tap_case_begin("upstream, --all: bind shown absent, connect found beside seed's and upstream's");
	ASSERT_HAS(out, "bpf_ksock_bind:\n    found     (not in this kernel's BTF)\n", "bind absent");
	ASSERT_HAS(out, "    upstream  (not in this API)  [same]\n", "as upstream has it");
	ASSERT_HAS(out, "    found     int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */\n",
		   "connect found, with the union's size");
	ASSERT_HAS(out, "    seed      int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts, u32 opts__sz); /* struct bpf_ksock_addr_opts: 24 bytes */\n",
		   "connect as the seed has it");
	ASSERT_HAS(out, "    upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */  [same]\n",
		   "connect as upstream has it, marked same");
	tap_case_end();
	free(out);

	v = up;
	v.connect_flags = true;
	detect("a changed prototype (connect gains an argument): unknown", &v, KAPI_KSOCK_UNKNOWN,
	       KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown: only connect printed, found beside both known APIs");
	ASSERT_HAS(out, "  bpf_ksock_connect:\n    found     int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz, u32 flags); /* union bpf_ksock_addr: 28 bytes */\n",
		   "the changed prototype, as C");
	ASSERT_HAS(out, "    seed      int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts", "seed's");
	ASSERT_HAS(out, "    upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */\n", "upstream's");
	ASSERT_TRUE(!strstr(out, "bpf_ksock_send"), "send matches: not printed");
	ASSERT_TRUE(!strstr(out, "bpf_ksock_bind"), "bind's absence matches upstream: not printed");
	ASSERT_TRUE(!strstr(out, "[same]"), "nothing marked same");
	tap_case_end();
	free(out);

	v = up;
	v.create_opts_sz = 12;
	detect("create opts of 12 bytes (a field added): unknown", &v, KAPI_KSOCK_UNKNOWN,
	       KAPI_NETPOLL_PRESENT, &k);
	out = print_to_string(&k, "ksock", false);
	tap_case_begin("unknown: create printed with its opts size");
	ASSERT_HAS(out, "/* struct bpf_ksock_create_opts: 12 bytes */\n", "the found size");
	tap_case_end();
	free(out);

	v = sndbuf;
	v.create_opts_tail = NULL;
	detect("the seed's bind with 8-byte create opts and no sndbuf member: unknown", &v,
	       KAPI_KSOCK_UNKNOWN, KAPI_NETPOLL_PRESENT, &k);

	v = seed;
	v.ksock = 0;
	v.netpoll = false;
	detect("no ksock, no netpoll: absent, absent", &v, KAPI_KSOCK_ABSENT, KAPI_NETPOLL_ABSENT, &k);
	v = up;
	v.netpoll = false;
	detect("upstream without netpoll", &v, KAPI_KSOCK_UPSTREAM, KAPI_NETPOLL_ABSENT, &k);
	v = sndbuf;
	v.netpoll_err_uninit = true;
	detect_sndbuf("netpoll_create's err renamed err__uninit: netpoll unknown", &v, KAPI_KSOCK_SEED,
		      KAPI_NETPOLL_UNKNOWN, true, &k);
	out = print_to_string(&k, "netpoll", false);
	tap_case_begin("netpoll unknown: create printed beside the expected");
	ASSERT_HAS(out, "  bpf_netpoll_create:\n    found     struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err__uninit);",
		   "found");
	ASSERT_HAS(out, "    expected  struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err); /* struct bpf_netpoll_opts: 68 bytes */\n",
		   "expected");
	tap_case_end();
	free(out);

	/* api.json round trip, and bad documents. */
	{
		json_object *doc = kapi_to_json(&k), *bad = json_tokener_parse("{\"ksock\":\"v8\",\"netpoll\":\"present\"}");
		json_object *old = json_tokener_parse("{\"ksock\":\"seed\",\"netpoll\":\"present\"}");
		enum kapi_ksock ks = KAPI_KSOCK_ABSENT;
		enum kapi_netpoll np = KAPI_NETPOLL_ABSENT;
		bool sb = false;
		char err[256] = "";

		tap_case_begin("api.json: written and read back; a bad one refused");
		ASSERT_OK(kapi_from_json(doc, &ks, &np, &sb, err, sizeof(err)), "read back");
		ASSERT_EQ(ks, KAPI_KSOCK_SEED, "ksock");
		ASSERT_EQ(np, KAPI_NETPOLL_UNKNOWN, "netpoll");
		ASSERT_EQ(sb, true, "ksock_sndbuf");
		ASSERT_HAS(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), "\"found\":\"struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err__uninit);",
			   "the found prototype in the JSON");
		ASSERT_HAS(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN), "\"ksock_sndbuf\":true",
			   "the extension in the JSON");
		ASSERT_EQ(kapi_from_json(bad, &ks, &np, NULL, err, sizeof(err)), -EINVAL, "ksock v8 refused");
		ASSERT_HAS(err, "seed, upstream, unknown or absent", "says what is accepted");
		ASSERT_OK(kapi_from_json(old, &ks, &np, NULL, err, sizeof(err)),
			  "without ksock_sndbuf, read when not asked for");
		ASSERT_EQ(kapi_from_json(old, &ks, &np, &sb, err, sizeof(err)), -EINVAL,
			  "without ksock_sndbuf, refused when asked for");
		ASSERT_HAS(err, "need a boolean \"ksock_sndbuf\"", "says what is missing");
		tap_case_end();
		json_object_put(doc);
		json_object_put(bad);
		json_object_put(old);
	}

	/* bpfwire-kapi on raw BTF files: a changed connect, the posted series. */
	if (argc > 1) {
		char *text, *json;

		v = up;
		v.connect_flags = true;
		tap_case_begin("bpfwire-kapi --btf FILE --json OUT on a changed connect: exit 0, unknown, both prototypes");
		if (run_kapi(argv[1], &v, &text, &json)) {
			ASSERT_HAS(text, ": ksock API unknown, netpoll present\n", "the verdict line");
			ASSERT_HAS(text, "u32 addr__sz, u32 flags);", "the found prototype");
			ASSERT_HAS(text, "upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz);", "the expected");
			ASSERT_TRUE(!strstr(text, "sndbuf extension"), "no sndbuf line: not the seed");
			ASSERT_HAS(json, "\"ksock\":\"unknown\"", "api.json says unknown");
		}
		tap_case_end();
		free(text);
		free(json);

		tap_case_begin("bpfwire-kapi on the posted series: seed, the sndbuf extension absent");
		if (run_kapi(argv[1], &seed, &text, &json)) {
			ASSERT_HAS(text, ": ksock API seed, netpoll present\n"
				   "  sndbuf extension (kernel/patches/sndbuf): absent, bpf_ksock_create_opts is the posted series' 4 bytes\n",
				   "the verdict and the extension");
			ASSERT_HAS(json, "\"ksock\":\"seed\"", "api.json says seed");
			ASSERT_HAS(json, "\"ksock_sndbuf\":false", "api.json: no extension");
		}
		tap_case_end();
		free(text);
		free(json);

		tap_case_begin("bpfwire-kapi on the seed with sndbuf: seed, the sndbuf extension present");
		if (run_kapi(argv[1], &sndbuf, &text, &json)) {
			ASSERT_HAS(text, ": ksock API seed, netpoll present\n"
				   "  sndbuf extension (kernel/patches/sndbuf): present, bpf_ksock_create_opts is 8 bytes with sndbuf\n",
				   "the verdict and the extension");
			ASSERT_HAS(json, "\"ksock_sndbuf\":true", "api.json: the extension");
		}
		tap_case_end();
		free(text);
		free(json);
	}
	return tap_done();
}
