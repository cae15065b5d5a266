// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv's options: parsing, checking and --help.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <net/if.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "recv_opts.h"
#include "recv_run.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: bpfwire-recv --port PORT [--bind ADDR] [--family 4|6] [--iface IF]\n"
"                    [--pcap OUT.pcap] [--json OUT.json] [--log] [--ready-file PATH]\n"
"                    [expectations] [--timeout S] [--until-idle S]\n"
"       bpfwire-recv --read FILE.pcap [--port PORT] [--mac MAC] [--json OUT.json]\n"
"                    [--log] [expectations]\n"
"\n"
"Receive bpfwire telemetry on a UDP socket, capture the same traffic on IF with\n"
"libpcap, and validate every datagram on the wire: Ethernet, IPv4/IPv6 (with\n"
"extension headers and fragments), UDP, the bpfwire header and the per-sender\n"
"sequence. --read validates a saved capture through the same code path.\n"
"\n"
"Live mode:\n"
"  -p, --port PORT        UDP port to receive on (0 = any free one; see --ready-file)\n"
"  -b, --bind ADDR        address to bind (fe80::1%%eth0 for link-local); default any\n"
"  -f, --family 4|6       socket family; default 6 dual-stack, or ADDR's family\n"
"  -i, --iface IF         capture on IF (\"any\" works); without it, socket only\n"
"  -w, --pcap FILE        write the captured frames (pcap, nanosecond stamps)\n"
"      --ready-file PATH  written once the socket is bound and capture is active\n"
"      --rcvbuf BYTES     socket receive buffer (default 4194304)\n"
"Offline mode:\n"
"  -r, --read FILE        validate FILE (pcap or pcapng); --port filters, else any\n"
"      --mac MAC          our MAC: frames to another unicast MAC are invalid\n"
"                         (live mode reads it from IF)\n"
"Output:\n"
"  -j, --json FILE        JSON summary (counts by verdict, reason, sender)\n"
"  -l, --log              one JSON line per datagram on stdout\n"
"      --log-file FILE    the same lines into FILE\n"
"  -v, --verbose          more diagnostics on stderr (repeat for debug)\n"
"Expectations (exit 1 when one fails):\n"
"  -n, --expect-count N   exactly N distinct valid datagrams (live: ends the run,\n"
"                         unless --until-idle is given)\n"
"      --max-loss N       at most N lost, and N socket drops (default 0; \"any\"\n"
"                         disables both)\n"
"      --max-dup N        at most N duplicates (default 0; \"any\" disables)\n"
"      --max-reorder N    at most N reordered (default 0; \"any\" disables)\n"
"  -s, --expect-src ADDR[:PORT]  datagrams only from these sources, and from each\n"
"                         of them ([v6addr]:port; repeat up to 16 times)\n"
"      --allow-invalid    invalid datagrams do not fail the run\n"
"      --accept-csum-partial  a UDP checksum left partial by TX offload is valid\n"
"Authentication and memory:\n"
"      --key-file FILE    SipHash-2-4 key (32 hex digits; mode 0600, no symlink):\n"
"                         v1 and unsigned v2 are then 'unauthenticated', a bad\n"
"                         tag 'auth', a repeated (epoch, seq) 'replay'. 64\n"
"                         digits: the MAC key, then the AES-128 key that wire\n"
"                         v3 is decrypted with ('decrypt' when it does not\n"
"                         decrypt to events); without it v3 is 'encrypted'\n"
"      --key-id N         also refuse ('auth') a tag made with another key id (1-255)\n"
"      --max-senders N    senders tracked per side (default 4096); past it\n"
"                         'too_many_senders'\n"
"      --state-budget-mb M  bytes of sender state, both sides together\n"
"                         (default 64; 0: no limit); past it 'untracked'\n"
"Ending a live run (otherwise at SIGINT/SIGTERM):\n"
"  -t, --timeout S        stop after S seconds\n"
"  -I, --until-idle S     stop S seconds after the last datagram\n"
"\n"
"Exit: 0 every expectation holds, 1 one failed (the summary names it),\n"
"2 usage error, bad pcap file, or the socket/capture could not be set up.\n");
}

enum {
	OPT_READY = 256, OPT_RCVBUF, OPT_MAC, OPT_LOGFILE, OPT_MAXLOSS,
	OPT_MAXDUP, OPT_MAXREORDER, OPT_ALLOWINV, OPT_PARTIAL, OPT_VERSION,
	OPT_KEYFILE, OPT_KEYID, OPT_MAXSENDERS, OPT_BUDGET,
};

static const struct option long_opts[] = {
	{ "port",		required_argument, NULL, 'p' },
	{ "bind",		required_argument, NULL, 'b' },
	{ "family",		required_argument, NULL, 'f' },
	{ "iface",		required_argument, NULL, 'i' },
	{ "pcap",		required_argument, NULL, 'w' },
	{ "read",		required_argument, NULL, 'r' },
	{ "json",		required_argument, NULL, 'j' },
	{ "log",		no_argument,	   NULL, 'l' },
	{ "log-file",		required_argument, NULL, OPT_LOGFILE },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "expect-count",	required_argument, NULL, 'n' },
	{ "max-loss",		required_argument, NULL, OPT_MAXLOSS },
	{ "max-dup",		required_argument, NULL, OPT_MAXDUP },
	{ "max-reorder",	required_argument, NULL, OPT_MAXREORDER },
	{ "expect-src",		required_argument, NULL, 's' },
	{ "allow-invalid",	no_argument,	   NULL, OPT_ALLOWINV },
	{ "accept-csum-partial", no_argument,	   NULL, OPT_PARTIAL },
	{ "timeout",		required_argument, NULL, 't' },
	{ "until-idle",		required_argument, NULL, 'I' },
	{ "ready-file",		required_argument, NULL, OPT_READY },
	{ "rcvbuf",		required_argument, NULL, OPT_RCVBUF },
	{ "mac",		required_argument, NULL, OPT_MAC },
	{ "key-file",		required_argument, NULL, OPT_KEYFILE },
	{ "key-id",		required_argument, NULL, OPT_KEYID },
	{ "max-senders",	required_argument, NULL, OPT_MAXSENDERS },
	{ "state-budget-mb",	required_argument, NULL, OPT_BUDGET },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static int parse_count(const char *opt, const char *s, long long min,
		       long long max, int any_ok, long long *out)
{
	char *end;
	long long v;

	if (any_ok && !strcmp(s, "any")) {
		*out = UNSET;
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		char name[32], accepted[96];

		snprintf(name, sizeof(name), "--%s", opt);
		snprintf(accepted, sizeof(accepted), "an integer in [%lld, %lld]%s", min, max,
			 any_ok ? " or 'any'" : "");
		cli_bad_value(PROG, name, s, accepted);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e7) {
		char name[32];

		snprintf(name, sizeof(name), "--%s", opt);
		cli_bad_value(PROG, name, s, "a positive number of seconds");
		return -1;
	}
	*out = v;
	return 0;
}

/* ADDR, ADDR:PORT, [V6ADDR]:PORT, V6ADDR; a %scope suffix is ignored. */
static int parse_src(const char *s, struct bpfw_src_expect *e)
{
	char buf[INET6_ADDRSTRLEN + 16];
	char *addr = buf, *port = NULL, *pct;
	long long pv;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	memset(e, 0, sizeof(*e));
	if (buf[0] == '[') {
		char *close = strchr(buf, ']');

		if (!close)
			goto bad;
		*close = 0;
		addr = buf + 1;
		if (close[1] == ':')
			port = close + 2;
		else if (close[1])
			goto bad;
	} else if (strchr(buf, ':') == strrchr(buf, ':') && strchr(buf, ':')) {
		port = strchr(buf, ':');
		*port++ = 0;
	}
	pct = strchr(addr, '%');
	if (pct)
		*pct = 0;
	if (inet_pton(AF_INET, addr, e->addr) == 1)
		e->family = 4;
	else if (inet_pton(AF_INET6, addr, e->addr) == 1)
		e->family = 6;
	else
		goto bad;
	if (port) {
		if (parse_count("expect-src", port, 1, 65535, 0, &pv))
			return -1;
		e->port = (uint16_t)pv;
	}
	return 0;
bad:
	cli_bad_value(PROG, "--expect-src", s, "ADDR, ADDR:PORT or [ADDR]:PORT");
	return -1;
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned v[6];
	char tail;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &tail) != 6) {
		cli_bad_value(PROG, "--mac", s, "a MAC address like 02:00:00:00:00:01");
		return -1;
	}
	for (i = 0; i < 6; i++) {
		if (v[i] > 255) {
			cli_bad_value(PROG, "--mac", s, "a MAC address: a byte is over ff");
			return -1;
		}
		mac[i] = (uint8_t)v[i];
	}
	return 0;
}

/* Options that only one of live and --read mode takes, or needs. */
static int check_mode(struct opts *o)
{
	if (o->read) {
		const char *live_only = o->bind ? "--bind" : o->iface ? "--iface" :
			o->ready_file ? "--ready-file" : o->timeout ? "--timeout" :
			o->until_idle ? "--until-idle" : o->family ? "--family" : NULL;

		if (live_only) {
			pr_warn("%s makes no sense with --read", live_only);
			return -1;
		}
		if (o->port == UNSET)
			o->port = 0;	/* offline: any destination port */
	} else {
		if (o->port == UNSET) {
			pr_warn("--port is required in live mode (or use --read FILE)");
			return -1;
		}
		if (o->pcap_out && !o->iface) {
			pr_warn("--pcap needs --iface to capture from");
			return -1;
		}
	}
	if (o->key.key_id >= 0 && !o->key_file) {
		pr_warn("--key-id needs --key-file");
		return -1;
	}
	if (o->key_file) {
		struct key_pair k;
		char why[512];

		if (key_file_read_pair(o->key_file, &k, why, sizeof(why))) {
			pr_warn("--key-file: %s", why);
			return -1;
		}
		memcpy(o->key.key, k.mac, sizeof(o->key.key));
		memcpy(o->key.enc, k.enc, sizeof(o->key.enc));
		o->key.has_enc = k.has_enc;
		explicit_bzero(&k, sizeof(k));
		o->have_key = 1;
	}
	return 0;
}

/* --key-file, --key-id, --max-senders, --state-budget-mb: 1 when c was one. */
static int parse_state_opt(int c, const char *arg, struct opts *o)
{
	long long v;
	char *end;

	switch (c) {
	case OPT_KEYFILE:
		o->key_file = arg;
		return 1;
	case OPT_KEYID:
		/* 0 is an unsigned datagram's key id (bpf/args.c). */
		if (parse_count("key-id", arg, 1, 255, 0, &v))
			return -1;
		o->key.key_id = (int)v;
		return 1;
	case OPT_MAXSENDERS:
		if (parse_count("max-senders", arg, 1, 1000000, 0, &v))
			return -1;
		o->max_senders = (unsigned)v;
		return 1;
	case OPT_BUDGET:
		errno = 0;
		o->budget_mb = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->budget_mb >= 0) ||
		    o->budget_mb > 1 << 20) {
			cli_bad_value(PROG, "--state-budget-mb", arg,
				      "a number of MiB in [0, 1048576]");
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

int parse_opts(int argc, char **argv, struct opts *o)
{
	/* The leading ':' makes a missing value ':', not '?': cli.c tells both. */
	static const char shortopts[] = ":p:b:f:i:w:r:j:lvn:s:t:I:h";
	long long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->port = UNSET;
	o->expect_count = UNSET;
	o->rcvbuf = 4u << 20;
	o->key.key_id = UNSET;
	o->max_senders = DEFAULT_MAX_SENDERS;
	o->budget_mb = DEFAULT_BUDGET_MB;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, long_opts, NULL)) != -1) {
		int r = parse_state_opt(c, optarg, o);

		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		switch (c) {
		case 'p':
			if (parse_count("port", optarg, 0, 65535, 0, &v))
				return -1;
			o->port = (long)v;
			break;
		case 'b': o->bind = optarg; break;
		case 'f':
			if (strcmp(optarg, "4") && strcmp(optarg, "6")) {
				cli_bad_value(PROG, "--family", optarg, "4 or 6");
				return -1;
			}
			o->family = optarg[0] - '0';
			break;
		case 'i': o->iface = optarg; break;
		case 'w': o->pcap_out = optarg; break;
		case 'r': o->read = optarg; break;
		case 'j': o->json_out = optarg; break;
		case 'l': o->log = 1; break;
		case OPT_LOGFILE: o->log = 1; o->log_file = optarg; break;
		case 'v':
			if (log_level < LOG_DEBUG)
				log_level++;
			break;
		case 'n':
			if (parse_count("expect-count", optarg, 0, LLONG_MAX, 0,
					&o->expect_count))
				return -1;
			break;
		case OPT_MAXLOSS:
			if (parse_count("max-loss", optarg, 0, LLONG_MAX, 1, &o->max_loss))
				return -1;
			break;
		case OPT_MAXDUP:
			if (parse_count("max-dup", optarg, 0, LLONG_MAX, 1, &o->max_dup))
				return -1;
			break;
		case OPT_MAXREORDER:
			if (parse_count("max-reorder", optarg, 0, LLONG_MAX, 1,
					&o->max_reorder))
				return -1;
			break;
		case 's':
			if (o->nsrcs == MAX_SRCS) {
				pr_warn("--expect-src: at most %d sources", MAX_SRCS);
				return -1;
			}
			o->src_text[o->nsrcs] = optarg;
			if (parse_src(optarg, &o->srcs[o->nsrcs++]))
				return -1;
			break;
		case OPT_ALLOWINV: o->allow_invalid = 1; break;
		case OPT_PARTIAL: o->accept_partial = 1; break;
		case 't':
			if (parse_seconds("timeout", optarg, &o->timeout))
				return -1;
			break;
		case 'I':
			if (parse_seconds("until-idle", optarg, &o->until_idle))
				return -1;
			break;
		case OPT_READY: o->ready_file = optarg; break;
		case OPT_RCVBUF:
			if (parse_count("rcvbuf", optarg, 4096, INT_MAX / 2, 0, &v))
				return -1;
			o->rcvbuf = (unsigned)v;
			break;
		case OPT_MAC:
			if (parse_mac(optarg, o->mac))
				return -1;
			o->have_mac = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_PASS);
		case OPT_VERSION:
			cli_version(PROG);
			exit(EXIT_PASS);
		default:
			cli_bad_option(PROG, argv, shortopts, long_opts);
			return -1;
		}
	}
	if (optind < argc) {
		/* It takes no positional argument: the capture is --read FILE. */
		cli_bad_args(PROG, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return check_mode(o);
}
