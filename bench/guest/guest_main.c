// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest: the in-guest half of the sender benchmark. Each
 * subcommand measures one thing, prints one human line and writes one JSON
 * object that the host-side driver collects from the guest's share.
 *
 *   opens    N open()+close() of a file, the event the senders send;
 *            --latency times each datagram from the LSM hook to the driver
 *   sendto   the user-space reference: a connected UDP socket, N send()s
 *   pktgen   the kernel's ceiling on this NIC
 *   cost     per-open() cost, R timed rounds
 *
 * Exit: 0 measured, 1 could not measure (the JSON says why, "ok": false),
 * 2 usage error.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "guest.h"
#include "guest_cost.h"
#include "guest_opens.h"
#include "guest_out.h"
#include "guest_pktgen.h"
#include "guest_sendto.h"
#include "log.h"

/* ---- main ----------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " SUBCOMMAND [options] --json OUT\n"
"\n"
"  opens   N open()+close() of a file (the senders' events); --latency times\n"
"          each datagram from the LSM hook to the NIC driver\n"
"  sendto  the user-space reference: N send()s on a connected UDP socket\n"
"  pktgen  the kernel's ceiling: N packets from pktgen\n"
"  cost    per-open() cost over R timed rounds\n"
"\n"
"Each writes one JSON object to --json OUT and prints one line. Every JSON has\n"
"\"clocksource\" and the deltas over the measured interval of\n"
"udp_sndbuf_errors, udp6_sndbuf_errors, tx_dropped and qdisc_drops of --dev.\n"
"'" PROG " SUBCOMMAND --help' for its options.\n"
"Exit: 0 measured, 1 could not measure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "opens", cmd_opens }, { "sendto", cmd_sendto },
		{ "pktgen", cmd_pktgen }, { "cost", cmd_cost },
	};

	/* '+': stop at the subcommand, whose own parser takes the options after it. */
	static const char shortopts[] = "+h";
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int c;

	log_init(log_prog, LOG_INFO);
	/* 10 significant digits: ns and rates, without %.17g's noise. */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, lo);
		}
	}
	if (optind == argc)
		return cli_bad_args(PROG, "missing the subcommand: opens, sendto, pktgen or cost");
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	argc -= optind - 1;
	argv += optind - 1;
	optind = 0;	/* full reset: the subcommand parser permutes, from after its name */
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(argv[1], cmds[i].name)) {
			cur_cmd = cmds[i].name;
			snprintf(log_prog, sizeof(log_prog), "%s %s", PROG, cur_cmd);
			setvbuf(stdout, NULL, _IOLBF, 0);
			return cmds[i].fn(argc - 1, argv + 1);
		}
	}
	return cli_bad_args(PROG, "unknown subcommand '%s': opens, sendto, pktgen or cost", argv[1]);
}
