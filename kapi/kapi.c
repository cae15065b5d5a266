// SPDX-License-Identifier: GPL-2.0-only
/* The kfunc API of a kernel, from its BTF; see kapi.h. */
#include "kapi.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <bpf/btf.h>
#include <json-c/json.h>

#include "errnames.h"

/*
 * What each known API's kfuncs look like, as kapi_render() prints them
 * from a built kernel's BTF (seed: build/kernel/vmlinux, upstream:
 * build-up/kernel/vmlinux). A pointee that has a NAME__sz argument beside
 * it carries its size, because the kfunc checks that size exactly.
 * The seed is the posted series (seeds 007-011): its create opts are 4
 * bytes. bpfwire's sndbuf extension (kernel/patches/sndbuf) makes them 8;
 * a kernel whose BTF has that layout (has_sndbuf()) may show seed_sndbuf.
 */
#define P_CREATE_OPTS "const struct bpf_ksock_create_opts *opts, u32 opts__sz, int *err__uninit"
static const struct kapi_func kapi_table[] = {
	{ "bpf_ksock_create",
	  .seed = "struct bpf_ksock *bpf_ksock_create(" P_CREATE_OPTS "); /* struct bpf_ksock_create_opts: 4 bytes */",
	  .seed_sndbuf = "struct bpf_ksock *bpf_ksock_create(" P_CREATE_OPTS "); /* struct bpf_ksock_create_opts: 8 bytes */",
	  .upstream = "struct bpf_ksock *bpf_ksock_create(" P_CREATE_OPTS "); /* struct bpf_ksock_create_opts: 4 bytes */" },
	{ "bpf_ksock_bind",
	  .seed = "int bpf_ksock_bind(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts, u32 opts__sz); /* struct bpf_ksock_addr_opts: 24 bytes */" },
	{ "bpf_ksock_connect",
	  .seed = "int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts, u32 opts__sz); /* struct bpf_ksock_addr_opts: 24 bytes */",
	  .upstream = "int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz); /* union bpf_ksock_addr: 28 bytes */" },
	{ "bpf_ksock_acquire",
	  .seed = "struct bpf_ksock *bpf_ksock_acquire(struct bpf_ksock *ks);",
	  .upstream = "struct bpf_ksock *bpf_ksock_acquire(struct bpf_ksock *ks);" },
	{ "bpf_ksock_release",
	  .seed = "void bpf_ksock_release(struct bpf_ksock *ks);",
	  .upstream = "void bpf_ksock_release(struct bpf_ksock *ks);" },
	{ "bpf_ksock_send",
	  .seed = "int bpf_ksock_send(struct bpf_ksock *ks, const void *data, u32 data__sz);",
	  .upstream = "int bpf_ksock_send(struct bpf_ksock *ks, const void *data, u32 data__sz);" },
	{ "bpf_netpoll_create",
	  .netpoll = "struct bpf_netpoll *bpf_netpoll_create(const struct bpf_netpoll_opts *opts, u32 opts__sz, int *err); /* struct bpf_netpoll_opts: 68 bytes */" },
	{ "bpf_netpoll_acquire",
	  .netpoll = "struct bpf_netpoll *bpf_netpoll_acquire(struct bpf_netpoll *bnp);" },
	{ "bpf_netpoll_release",
	  .netpoll = "void bpf_netpoll_release(struct bpf_netpoll *bnp);" },
	{ "bpf_netpoll_send_udp",
	  .netpoll = "int bpf_netpoll_send_udp(struct bpf_netpoll *bnp, const void *data, u32 data__sz);" },
};

_Static_assert(sizeof(kapi_table) / sizeof(kapi_table[0]) <= KAPI_NFUNCS, "KAPI_NFUNCS");

struct sbuf {
	char *p;
	size_t len, off;
};

static void sbuf_vprintf(void *ctx, const char *fmt, va_list ap)
{
	struct sbuf *b = ctx;
	int n;

	if (b->off >= b->len)
		return;
	n = vsnprintf(b->p + b->off, b->len - b->off, fmt, ap);
	if (n > 0)
		b->off = b->off + (size_t)n < b->len ? b->off + (size_t)n : b->len - 1;
}

static void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* t with its typedefs and modifiers skipped */
static const struct btf_type *resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/* The struct or union a pointer parameter points to, or NULL. */
static const struct btf_type *pointee_aggregate(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = resolve(btf, id);

	if (!t || !btf_is_ptr(t))
		return NULL;
	t = resolve(btf, t->type);
	return t && (btf_is_struct(t) || btf_is_union(t)) ? t : NULL;
}

/*
 * FUNC name's prototype as one line of C into out, without the ';', and
 * its FUNC_PROTO in *proto. -ENOENT when btf has no such FUNC.
 */
static int decl(const struct btf *btf, const char *name, const struct btf_type **proto,
		char *out, size_t len)
{
	struct sbuf b = { out, len, 0 };
	const struct btf_type *fn;
	struct btf_dump *d;
	int id, err;

	out[0] = 0;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id <= 0)
		return -ENOENT;
	fn = btf__type_by_id(btf, id);
	*proto = btf__type_by_id(btf, fn->type);
	if (!*proto || !btf_is_func_proto(*proto))
		return -EINVAL;
	d = btf_dump__new(btf, sbuf_vprintf, &b, NULL);
	if (!d)
		return -errno;
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);
	err = btf_dump__emit_type_decl(d, fn->type, &o);
	btf_dump__free(d);
	return err;
}

int kapi_decl(const struct btf *btf, const char *name, char *out, size_t len)
{
	const struct btf_type *proto;

	return decl(btf, name, &proto, out, len);
}

/* kapi_decl(), then the size of each pointee checked against a NAME__sz argument */
static int kapi_render(const struct btf *btf, const char *name, char *out, size_t len)
{
	struct sbuf b = { out, len, 0 };
	const struct btf_type *proto;
	const struct btf_param *p;
	int n, err;

	err = decl(btf, name, &proto, out, len);
	if (err)
		return err;
	b.off = strlen(out);
	sbuf_printf(&b, ";");
	n = btf_vlen(proto);
	p = btf_params(proto);
	for (int i = 0; i < n; i++) {
		const char *pn = btf__name_by_offset(btf, p[i].name_off);
		const struct btf_type *agg = pointee_aggregate(btf, p[i].type);
		char want[128];
		bool sized = false;

		if (!agg || !pn || !*pn)
			continue;
		snprintf(want, sizeof(want), "%s__sz", pn);
		for (int j = 0; j < n; j++) {
			const char *qn = btf__name_by_offset(btf, p[j].name_off);

			if (qn && !strcmp(qn, want))
				sized = true;
		}
		if (sized)
			sbuf_printf(&b, " /* %s %s: %u bytes */",
				    btf_is_union(agg) ? "union" : "struct",
				    btf__name_by_offset(btf, agg->name_off), agg->size);
	}
	return 0;
}

/*
 * Does btf's struct bpf_ksock_create_opts have bpfwire's sndbuf extension:
 * 8 bytes, with a 4-byte integer named sndbuf at byte 4? By member, not by
 * size alone: a field of another name there is another API.
 */
static bool has_sndbuf(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "bpf_ksock_create_opts", BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_member *m;

	if (!t || t->size != 8)
		return false;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		const struct btf_type *mt = resolve(btf, m->type);

		if (name && !strcmp(name, "sndbuf"))
			return btf_member_bit_offset(t, i) == 32 &&
			       !btf_member_bitfield_size(t, i) &&
			       mt && btf_is_int(mt) && mt->size == 4;
	}
	return false;
}

static bool is_family(const struct kapi_func *f, const char *family)
{
	return !strcmp(family, "netpoll") ? f->netpoll != NULL : f->netpoll == NULL;
}

enum { WANT_SEED, WANT_UPSTREAM, WANT_NETPOLL };

/* A kfunc as found against what one API expects (NULL: it has none). */
static bool same(const char *want, const char *found)
{
	return want ? !strcmp(want, found) : !found[0];
}

static const char *want_of(const struct kapi_func *f, int api)
{
	return api == WANT_SEED ? f->seed : api == WANT_UPSTREAM ? f->upstream : f->netpoll;
}

/* As the seed has it, or as the sndbuf extension makes it when the BTF has that. */
static bool same_seed(const struct kapi *k, const struct kapi_func *f)
{
	return same(f->seed, f->found) ||
	       (k->ksock_sndbuf && f->seed_sndbuf && same(f->seed_sndbuf, f->found));
}

/*
 * Does the kernel have exactly the API's kfuncs of its family: each one it
 * expects with that prototype, and none it does not have (upstream has no
 * bind)?
 */
static bool api_matches(const struct kapi *k, int api)
{
	const char *family = api == WANT_NETPOLL ? "netpoll" : "ksock";

	for (int i = 0; i < k->nfuncs; i++) {
		const struct kapi_func *f = &k->funcs[i];
		const char *want = want_of(f, api);

		if (!is_family(f, family))
			continue;
		if (api == WANT_SEED ? !same_seed(k, f) : !same(want, f->found))
			return false;
	}
	return true;
}

static bool family_present(const struct kapi *k, const char *family)
{
	for (int i = 0; i < k->nfuncs; i++)
		if (is_family(&k->funcs[i], family) && k->funcs[i].found[0])
			return true;
	return false;
}

int kapi_detect_btf(const struct btf *btf, struct kapi *k)
{
	k->nfuncs = (int)(sizeof(kapi_table) / sizeof(kapi_table[0]));
	for (int i = 0; i < k->nfuncs; i++) {
		int err;

		k->funcs[i] = kapi_table[i];
		err = kapi_render(btf, k->funcs[i].name, k->funcs[i].found,
				  sizeof(k->funcs[i].found));
		if (err && err != -ENOENT)
			return err;
	}
	k->ksock_sndbuf = has_sndbuf(btf);
	if (!family_present(k, "ksock"))
		k->ksock = KAPI_KSOCK_ABSENT;
	else if (api_matches(k, WANT_SEED))
		k->ksock = KAPI_KSOCK_SEED;
	else if (api_matches(k, WANT_UPSTREAM))
		k->ksock = KAPI_KSOCK_UPSTREAM;
	else
		k->ksock = KAPI_KSOCK_UNKNOWN;
	if (!family_present(k, "netpoll"))
		k->netpoll = KAPI_NETPOLL_ABSENT;
	else if (api_matches(k, WANT_NETPOLL))
		k->netpoll = KAPI_NETPOLL_PRESENT;
	else
		k->netpoll = KAPI_NETPOLL_UNKNOWN;
	return 0;
}

int kapi_detect_file(const char *path, struct kapi *k, char *err, size_t errlen)
{
	struct btf *btf;
	int r;

	memset(k, 0, sizeof(*k));
	if (!path)
		path = "/sys/kernel/btf/vmlinux";
	snprintf(k->source, sizeof(k->source), "%s", path);
	btf = btf__parse(path, NULL);
	if (!btf) {
		r = -errno;
		snprintf(err, errlen, "couldn't read BTF from %s: %s", path, errno_str(r));
		return r;
	}
	r = kapi_detect_btf(btf, k);
	btf__free(btf);
	if (r)
		snprintf(err, errlen, "couldn't render the kfuncs of %s: %s", path, errno_str(r));
	return r;
}

static const char *const ksock_names[] = { "absent", "seed", "upstream", "unknown" };
static const char *const netpoll_names[] = { "absent", "present", "unknown" };

const char *kapi_ksock_name(enum kapi_ksock a)
{
	return (unsigned)a < 4 ? ksock_names[a] : "?";
}

const char *kapi_netpoll_name(enum kapi_netpoll a)
{
	return (unsigned)a < 3 ? netpoll_names[a] : "?";
}

int kapi_ksock_parse(const char *name)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, ksock_names[i]))
			return i;
	return -1;
}

int kapi_netpoll_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, netpoll_names[i]))
			return i;
	return -1;
}

static void print_want(FILE *f, const char *indent, const char *api, const char *want,
		       bool match, const char *note)
{
	fprintf(f, "%s  %-9s %s%s\n", indent, api, want ? want : "(not in this API)",
		match ? "  [same]" : note);
}

/* Matches no known API's text for it, whichever API the others match. */
static bool func_differs(const struct kapi *k, const struct kapi_func *fn)
{
	return fn->netpoll ? !same(fn->netpoll, fn->found) :
	       !same_seed(k, fn) && !same(fn->upstream, fn->found);
}

void kapi_print_family(FILE *f, const struct kapi *k, const char *family, bool all,
		       const char *indent)
{
	bool unknown = !strcmp(family, "netpoll") ? k->netpoll == KAPI_NETPOLL_UNKNOWN :
			k->ksock == KAPI_KSOCK_UNKNOWN;
	bool any = false;

	for (int i = 0; i < k->nfuncs; i++)
		any |= is_family(&k->funcs[i], family) && func_differs(k, &k->funcs[i]);
	/*
	 * Each kfunc may match some known API but not all the same one: an
	 * unknown verdict is never printed without its kfuncs.
	 */
	if (unknown && !any)
		all = true;
	for (int i = 0; i < k->nfuncs; i++) {
		const struct kapi_func *fn = &k->funcs[i];

		if (!is_family(fn, family))
			continue;
		if (!all && !func_differs(k, fn))
			continue;
		fprintf(f, "%s%s:\n", indent, fn->name);
		fprintf(f, "%s  %-9s %s\n", indent, "found",
			fn->found[0] ? fn->found : "(not in this kernel's BTF)");
		if (fn->netpoll) {
			print_want(f, indent, "expected", fn->netpoll, same(fn->netpoll, fn->found), "");
			continue;
		}
		print_want(f, indent, "seed", fn->seed, same(fn->seed, fn->found), "");
		/* The same text is not the extension unless the member is sndbuf. */
		if (fn->seed_sndbuf)
			print_want(f, indent, "+sndbuf", fn->seed_sndbuf,
				   k->ksock_sndbuf && same(fn->seed_sndbuf, fn->found),
				   same(fn->seed_sndbuf, fn->found) ?
				   "  [the size only: no __u32 sndbuf at byte 4]" : "");
		print_want(f, indent, "upstream", fn->upstream, same(fn->upstream, fn->found), "");
	}
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *kapi_to_json(const struct kapi *k)
{
	json_object *doc = json_object_new_object(), *arr = json_object_new_array();

	json_object_object_add(doc, "btf", json_object_new_string(k->source));
	json_object_object_add(doc, "ksock", json_object_new_string(kapi_ksock_name(k->ksock)));
	json_object_object_add(doc, "netpoll", json_object_new_string(kapi_netpoll_name(k->netpoll)));
	json_object_object_add(doc, "ksock_sndbuf", json_object_new_boolean(k->ksock_sndbuf));
	for (int i = 0; i < k->nfuncs; i++) {
		const struct kapi_func *fn = &k->funcs[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(fn->name));
		json_object_object_add(o, "found", fn->found[0] ? json_object_new_string(fn->found) : NULL);
		if (fn->netpoll) {
			json_object_object_add(o, "expected", str_or_null(fn->netpoll));
		} else {
			json_object_object_add(o, "seed", str_or_null(fn->seed));
			json_object_object_add(o, "upstream", str_or_null(fn->upstream));
		}
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "kfuncs", arr);
	return doc;
}

int kapi_from_json(const json_object *doc, enum kapi_ksock *ksock,
		   enum kapi_netpoll *netpoll, bool *ksock_sndbuf, char *err, size_t errlen)
{
	json_object *ks, *np, *sb;
	int a, b;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "ksock", &ks) ||
	    !json_object_object_get_ex(doc, "netpoll", &np) ||
	    !json_object_is_type(ks, json_type_string) ||
	    !json_object_is_type(np, json_type_string)) {
		snprintf(err, errlen, "not an api.json: need string members \"ksock\" and \"netpoll\"");
		return -EINVAL;
	}
	a = kapi_ksock_parse(json_object_get_string(ks));
	b = kapi_netpoll_parse(json_object_get_string(np));
	if (a < 0 || b < 0) {
		snprintf(err, errlen, "api.json: ksock must be seed, upstream, unknown or absent and netpoll present, unknown or absent");
		return -EINVAL;
	}
	if (ksock_sndbuf) {
		if (!json_object_object_get_ex(doc, "ksock_sndbuf", &sb) ||
		    !json_object_is_type(sb, json_type_boolean)) {
			snprintf(err, errlen, "api.json: need a boolean \"ksock_sndbuf\" (written by a bpfwire-kapi from before it: rebuild)");
			return -EINVAL;
		}
		*ksock_sndbuf = json_object_get_boolean(sb);
	}
	*ksock = (enum kapi_ksock)a;
	*netpoll = (enum kapi_netpoll)b;
	return 0;
}
