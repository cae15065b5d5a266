// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-agent --via ksock: load, set up the kernel socket, attach, pin, exit. */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include "agent.h"
#include "loader.h"
#include "ksock.bpf.skel.h"

static int load(void *skel)
{
	return bpfwire_ksock__load(skel);
}

int install_ksock(const struct agent_opts *o)
{
	static const char *const maps[] = { "stats", "state", "info", NULL };
	struct sender s = { .via = BPFWIRE_VIA_KSOCK };
	struct bpfwire_ksock *skel;
	struct bpfwire_cfg cfg;
	char dst[96], src[96];
	int ret = -1, rv;

	bpfwire_fmt_addr(&o->dst, o->dst.port, dst, sizeof(dst));
	skel = bpfwire_ksock__open();
	if (!skel) {
		pr_warn("couldn't open the ksock sender: %s", errno_str(-errno));
		return -1;
	}
	s.obj = skel->obj;
	if (sender_fill_cfg(o, &cfg))
		goto out;
	skel->rodata->cfg = cfg;
	if (sender_load(&s, load, skel) || sender_set_key(&s, o))
		goto out;
	if (sender_write_info(&s, o, &cfg))
		goto out;

	if (sender_run_setup(&s, "bpfwire_ksock_setup", &rv))
		goto out;
	if (rv) {
		switch (skel->bss->setup_stage) {
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
			snprintf(sig, sizeof(sig), ", signed v2 (key id %u)", o->key_id);
		printf("bpfwire-agent: ksock sender %u installed: %s -> %s%s%s, pinned at %s\n",
		       o->sender_id, ev, dst, sb, sig, s.dir);
	}
out:
	if (ret)
		sender_unpin(&s);
	/* Pinned links keep the programs (and so the ksock) alive. */
	bpf_link__destroy(s.links[0]);
	bpf_link__destroy(s.links[1]);
	bpfwire_ksock__destroy(skel);
	return ret;
}
