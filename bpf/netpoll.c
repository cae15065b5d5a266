// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-agent --via netpoll: find the device, source and next hop MAC,
 * load, set up netpoll, attach, pin, exit.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <sys/socket.h>
#include "netpoll.h"
#include "kapi.h"
#include "loader.h"
#include "neigh.h"
#include "netpoll.bpf.skel.h"

#define NETPOLL_DEFAULT_SRC_PORT 6666	/* netconsole's */

static int load(void *skel)
{
	return bpfwire_netpoll__load(skel);
}

int install_netpoll(const struct agent_opts *o)
{
	static const char *const maps[] = { "stats", "state", "info", NULL };
	struct sender s = { .via = BPFWIRE_VIA_NETPOLL };
	struct bpfwire_netpoll *skel = NULL;
	struct agent_opts eff = *o;
	struct route_info ri;
	struct bpfwire_cfg cfg;
	char dst[96], src[96], hop[96], mac[24], ev[16];
	struct bpfwire_addr nh;
	int ret = -1, rv, ifindex = 0, err, alen = o->dst.family == AF_INET ? 4 : 16;

	{
		char what[PATH_MAX + 16];
		struct kapi k;

		if (sender_read_api(o, &k, what, sizeof(what)))
			return -1;
		if (k.netpoll == KAPI_NETPOLL_ABSENT) {
			pr_warn("%s has no netpoll kfuncs (no bpf_netpoll_* kfunc in its BTF; the series lacks kernel/patches 0001): not installed (exit %d); use --via ksock or ringbuf",
				what, KAPI_EXIT_API);
			return KAPI_EXIT_API;
		}
		if (k.netpoll == KAPI_NETPOLL_UNKNOWN) {
			pr_warn("%s has netpoll kfuncs bpfwire does not know: not installed (exit %d). Those that differ, as found beside the expected:",
				what, KAPI_EXIT_API);
			kapi_print_family(stderr, &k, "netpoll", false, "  ");
			return KAPI_EXIT_API;
		}
		if (sender_check_encrypt(o))
			return -1;
		if (o->btf) {
			printf("bpfwire-agent: --btf %s: netpoll present: the netpoll sender would install; nothing loaded\n",
			       o->btf);
			return 0;
		}
	}
	bpfwire_fmt_addr(&o->dst, o->dst.port, dst, sizeof(dst));
	if (o->dev[0]) {
		ifindex = if_nametoindex(o->dev);
		/* --dev-unchecked: the kernel looks the name up, not us */
		if (!ifindex)
			pr_info("--dev-unchecked: no interface '%s' here; passing it "
				"to the kernel as is", o->dev);
	} else if (o->dst.scope_id)
		ifindex = o->dst.scope_id;

	/* The route gives the device, the source and the gateway, if any. */
	err = route_get(o->dst.family, o->dst.addr, ifindex, &ri);
	if (err && !ifindex) {
		pr_warn("couldn't find a route to %s: %s; give --dev", dst,
			errno_str(err));
		return -1;
	}
	if (!ifindex)
		ifindex = ri.oif;
	if (!eff.dev[0] && !if_indextoname(ifindex, eff.dev)) {
		pr_warn("couldn't name interface %d: %s", ifindex, errno_str(-errno));
		return -1;
	}
	if (!o->bind.family) {
		eff.bind.family = o->dst.family;
		if (!err && ri.have_src)
			memcpy(eff.bind.addr, ri.src, alen);
		eff.bind.port = NETPOLL_DEFAULT_SRC_PORT;
	} else if (!o->bind.port) {
		eff.bind.port = NETPOLL_DEFAULT_SRC_PORT;
	}

	nh = o->dst;
	if (!err && ri.have_gw && ri.oif == ifindex)
		memcpy(nh.addr, ri.gw, alen);
	if (nh.family == AF_INET6 && nh.addr[0] == 0xfe && (nh.addr[1] & 0xc0) == 0x80)
		snprintf(nh.ifname, sizeof(nh.ifname), "%s", eff.dev);
	bpfwire_fmt_addr(&nh, -1, hop, sizeof(hop));
	if (!o->have_mac) {
		err = neigh_resolve(o->dst.family, nh.addr, ifindex, eff.mac, 3000);
		if (err) {
			pr_warn("couldn't resolve the MAC of next hop %s on %s: no neighbour "
				"entry after 3 s; give --remote-mac", hop, eff.dev);
			return -1;
		}
	}
	bpfwire_fmt_mac(eff.mac, mac, sizeof(mac));
	bpfwire_fmt_addr(&eff.bind, eff.bind.port, src, sizeof(src));
	pr_info("netpoll on %s from %s to %s, next hop %s at %s", eff.dev, src, dst, hop, mac);

	skel = bpfwire_netpoll__open();
	if (!skel) {
		pr_warn("couldn't open the netpoll sender: %s", errno_str(-errno));
		return -1;
	}
	s.obj = skel->obj;
	if (sender_fill_cfg(&eff, &cfg))
		goto out;
	skel->rodata->cfg = cfg;
	if (sender_load(&s, load, skel) || sender_set_key(&s, o) ||
	    sender_set_enc_key(&s, o) || sender_write_info(&s, o, &cfg))
		goto out;
	if (sender_run_setup(&s, "bpfwire_netpoll_setup", &rv))
		goto out;
	if (rv) {
		if (skel->bss->setup_stage == BPFWIRE_STAGE_CREATE)
			pr_warn("couldn't set up netpoll on %s from %s to %s via %s: "
				"%s%s",
				eff.dev, src, dst, mac, errno_str(rv),
				/* 524 on the seeds alone; fix 0013 maps it. */
				rv == -524 || rv == -EOPNOTSUPP ?
				" (the device refuses netpoll)" : "");
		else
			pr_warn("couldn't store netpoll for %s in map netpoll_slot: %s",
				dst, errno_str(rv));
		goto out;
	}
	if (sender_attach(&s, o->events) || sender_pin_dir(&s) ||
	    sender_pin(&s, maps, 1))
		goto out;
	ret = 0;
	bpfwire_events_str(o->events, ev, sizeof(ev));
	printf("bpfwire-agent: netpoll sender %u installed: %s -> %s on %s via %s%s, pinned at %s\n",
	       o->sender_id, ev, dst, eff.dev, mac,
	       o->encrypt ? ", encrypted v3" : o->key_id ? ", signed v2" : "", s.dir);
out:
	if (ret)
		sender_unpin(&s);
	bpf_link__destroy(s.links[0]);
	bpf_link__destroy(s.links[1]);
	bpfwire_netpoll__destroy(skel);
	return ret;
}
