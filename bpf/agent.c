// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-agent: installs a BPF sender (ksock, netpoll) and exits, or runs
 * the ringbuf baseline in the foreground; status and unload work on the
 * pinned state under /sys/fs/bpf/bpfwire/. See bpf/README.md.
 */
#include <stdio.h>
#include "cli.h"
#include "kapi.h"
#include "ksock.h"
#include "libbpf_log.h"
#include "log.h"
#include "netpoll.h"
#include "pins.h"
#include "ringbuf.h"

int main(int argc, char **argv)
{
	struct agent_opts o;
	char err[256];
	int r;

	log_init("bpfwire-agent", LOG_WARN);
	r = bpfwire_parse_cli(argc, argv, &o, err, sizeof(err));
	if (r == -1)
		return cli_bad_args("bpfwire-agent", "%s", err);
	if (r)
		return CLI_EUSAGE;	/* cli_bad_option said which */
	/* -v, -vv, -vvv; libbpf's output one level down (its warnings at -v) */
	log_level = o.verbose >= LOG_TRACE ? LOG_TRACE : (enum log_level)o.verbose;
	log_route_libbpf();

	switch (o.cmd) {
	case CMD_HELP:
		bpfwire_usage(stdout);
		return 0;
	case CMD_VERSION:
		cli_version("bpfwire-agent");
		return 0;
	case CMD_STATUS:
		return cmd_status(&o) ? 1 : 0;
	case CMD_UNLOAD:
		return cmd_unload(&o) ? 1 : 0;
	case CMD_FLUSH:
		return cmd_flush(&o) ? 1 : 0;
	case CMD_INSTALL:
		break;
	}
	switch (o.via) {
	case BPFWIRE_VIA_KSOCK:
		r = install_ksock(&o);
		return r == KAPI_EXIT_API ? KAPI_EXIT_API : r ? 1 : 0;
	case BPFWIRE_VIA_NETPOLL:
		r = install_netpoll(&o);
		return r == KAPI_EXIT_API ? KAPI_EXIT_API : r ? 1 : 0;
	case BPFWIRE_VIA_RINGBUF:
		if (o.btf) {	/* no kfunc needed; --btf loads nothing */
			printf("bpfwire-agent: --btf %s: ringbuf needs no kfunc: it would run; nothing loaded\n", o.btf);
			return 0;
		}
		return run_ringbuf(&o) ? 1 : 0;
	}
	return 2;
}
