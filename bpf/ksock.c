// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-agent --via ksock: pick the object for the kernel's ksock API
 * (seed or upstream, from its BTF), load, set up the kernel socket,
 * attach, pin, exit.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/socket.h>
#include "ksock.h"
#include "kapi.h"
#include "loader.h"
#include "ksock.bpf.skel.h"
#include "ksock_up.bpf.skel.h"

/* What install needs of either skeleton; both have the same maps and programs. */
struct ksock_obj {
	void *skel;
	struct bpf_object *obj;
	struct bpfwire_cfg *cfg;	/* .rodata */
	int *setup_stage;		/* .bss */
	int (*load)(void *skel);
	void (*destroy)(void *skel);
};

static int load_seed(void *skel)
{
	return bpfwire_ksock__load(skel);
}

static void destroy_seed(void *skel)
{
	bpfwire_ksock__destroy(skel);
}

static int load_up(void *skel)
{
	return bpfwire_ksock_up__load(skel);
}

static void destroy_up(void *skel)
{
	bpfwire_ksock_up__destroy(skel);
}

static int ksock_obj_open(int api, struct ksock_obj *k)
{
	if (api == KAPI_KSOCK_SEED) {
		struct bpfwire_ksock *s = bpfwire_ksock__open();

		if (!s)
			return -1;
		*k = (struct ksock_obj){ s, s->obj, &s->rodata->cfg,
			&s->bss->setup_stage, load_seed, destroy_seed };
	} else {
		struct bpfwire_ksock_up *s = bpfwire_ksock_up__open();

		if (!s)
			return -1;
		*k = (struct ksock_obj){ s, s->obj, &s->rodata->cfg,
			&s->bss->setup_stage, load_up, destroy_up };
	}
	return 0;
}

/*
 * The kernel's API (KAPI_KSOCK_SEED or _UPSTREAM); -KAPI_EXIT_API after a
 * message when it has none bpfwire knows (the prototypes found printed
 * beside the expected ones) or none at all; -1 after a message for an
 * option the kernel cannot serve: --bind on upstream, --sndbuf without
 * bpfwire's sndbuf extension. All before anything is loaded.
 */
static int ksock_api_check(const struct agent_opts *o)
{
	char what[PATH_MAX + 16];
	struct kapi k;

	if (sender_read_api(o, &k, what, sizeof(what)))
		return -1;
	if (k.ksock == KAPI_KSOCK_ABSENT) {
		pr_warn("%s has no ksock kfuncs (no bpf_ksock_* kfunc in its BTF): not installed (exit %d); use --via netpoll or ringbuf",
			what, KAPI_EXIT_API);
		return -KAPI_EXIT_API;
	}
	if (k.ksock == KAPI_KSOCK_UNKNOWN) {
		pr_warn("%s has a ksock API bpfwire does not know: not installed (exit %d). Its kfuncs that match neither known API, as found beside the seed's and upstream's:",
			what, KAPI_EXIT_API);
		kapi_print_family(stderr, &k, "ksock", false, "  ");
		return -KAPI_EXIT_API;
	}
	if (k.ksock == KAPI_KSOCK_UPSTREAM && o->bind.family) {
		pr_warn("--bind needs bpf_ksock_bind, which %s (the upstream ksock API) does not have: drop --bind, or run the seed kernel",
			what);
		return -1;
	}
	if (o->sndbuf && !k.ksock_sndbuf) {
		pr_warn("--sndbuf needs bpfwire's sndbuf extension (kernel/patches/sndbuf: bpf_ksock_create_opts.sndbuf), which %s (the %s ksock API) lacks: drop --sndbuf, or run a kernel with the extension",
			what, kapi_ksock_name(k.ksock));
		return -1;
	}
	return k.ksock;
}

static void setup_error(const struct agent_opts *o, int stage, int rv, const char *dst)
{
	char src[96];

	switch (stage) {
	case BPFWIRE_STAGE_CREATE:
		pr_warn("couldn't create ksock (%s UDP%s): %s%s",
			o->dst.family == AF_INET ? "AF_INET" : "AF_INET6",
			o->sndbuf ? ", --sndbuf" : "", errno_str(rv),
			rv == -EPERM && o->sndbuf ?
			" (--sndbuf needs CAP_NET_ADMIN)" : "");
		break;
	case BPFWIRE_STAGE_BIND:
		bpfwire_fmt_addr(&o->bind, o->bind.port, src, sizeof(src));
		pr_warn("couldn't bind ksock to %s: %s", src, errno_str(rv));
		break;
	case BPFWIRE_STAGE_CONNECT:
		pr_warn("couldn't connect ksock to %s: %s", dst, errno_str(rv));
		break;
	default:
		pr_warn("couldn't store ksock for %s in map ksock_slot: %s",
			dst, errno_str(rv));
	}
}

int install_ksock(const struct agent_opts *o)
{
	static const char *const maps[] = { "stats", "state", "info", NULL };
	struct sender s = { .via = BPFWIRE_VIA_KSOCK };
	struct ksock_obj k;
	struct bpfwire_cfg cfg;
	char dst[96];
	int ret = -1, rv, api;

	api = ksock_api_check(o);
	if (api < 0)
		return api == -KAPI_EXIT_API ? KAPI_EXIT_API : -1;
	if (sender_check_encrypt(o))
		return -1;
	if (o->btf) {
		printf("bpfwire-agent: --btf %s: ksock API %s: the ksock sender would install; nothing loaded\n",
		       o->btf, kapi_ksock_name(api));
		return 0;
	}
	bpfwire_fmt_addr(&o->dst, o->dst.port, dst, sizeof(dst));
	if (ksock_obj_open(api, &k)) {
		pr_warn("couldn't open the ksock sender: %s", errno_str(-errno));
		return -1;
	}
	s.obj = k.obj;
	if (sender_fill_cfg(o, &cfg))
		goto out;
	*k.cfg = cfg;
	if (sender_load(&s, k.load, k.skel) || sender_set_key(&s, o) ||
	    sender_set_enc_key(&s, o))
		goto out;
	if (sender_write_info(&s, o, &cfg))
		goto out;

	if (sender_run_setup(&s, "bpfwire_ksock_setup", &rv))
		goto out;
	if (rv) {
		setup_error(o, *k.setup_stage, rv, dst);
		goto out;
	}
	pr_debug("ksock connected to %s", dst);

	if (sender_attach(&s, o->events) || sender_pin_dir(&s) ||
	    sender_pin(&s, maps, 1))
		goto out;
	ret = 0;
	{
		char ev[16];
		char sb[32] = "", sig[64] = "";

		bpfwire_events_str(o->events, ev, sizeof(ev));
		if (o->sndbuf)
			snprintf(sb, sizeof(sb), ", sndbuf %u", o->sndbuf);
		if (o->key_id)
			snprintf(sig, sizeof(sig), ", %s (key id %u)",
				 o->encrypt ? "encrypted v3" : "signed v2", o->key_id);
		printf("bpfwire-agent: ksock sender %u installed: %s -> %s%s%s, %s API, pinned at %s\n",
		       o->sender_id, ev, dst, sb, sig, kapi_ksock_name(api), s.dir);
	}
out:
	if (ret)
		sender_unpin(&s);
	/* Pinned links keep the programs (and so the ksock) alive. */
	bpf_link__destroy(s.links[0]);
	bpf_link__destroy(s.links[1]);
	k.destroy(k.skel);
	return ret;
}
