// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv: receive bpfwire telemetry on a UDP socket while capturing the
 * same traffic with libpcap, validate every datagram on the wire, check the
 * expectations, and leave a capture and a JSON summary for review.
 * --read runs a saved capture through the same pipeline (rx.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "errnames.h"
#include "keyfile.h"
#include "log.h"
#include "rx.h"
#include "wire.h"

#define EXIT_PASS	0
#define EXIT_FAIL	1
#define EXIT_USAGE	CLI_EUSAGE
#define PROG		"bpfwire-recv"
#define MAX_SRCS	16
#define SNAPLEN		262144
#define UNSET		(-1)
#define DEFAULT_MAX_SENDERS	4096
#define DEFAULT_BUDGET_MB	64

struct opts {
	const char *read;
	const char *iface;
	const char *bind;
	const char *pcap_out;
	const char *json_out;
	const char *log_file;
	const char *ready_file;
	long port;
	int family;
	long long expect_count;
	long long max_loss, max_dup, max_reorder;	/* UNSET: not checked */
	double timeout, until_idle;
	struct bpfw_src_expect srcs[MAX_SRCS];
	const char *src_text[MAX_SRCS];
	unsigned nsrcs;
	uint8_t mac[6];
	int have_mac;
	int accept_partial;
	int allow_invalid;
	int log;
	int no_capture;
	unsigned rcvbuf;
	const char *key_file;
	struct bpfw_key key;
	int have_key;
	unsigned max_senders;
	double budget_mb;		/* 0: no budget */
};

struct run {
	struct opts *o;
	struct bpfw_rx rx;
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	FILE *logf;
	int sock;
	uint16_t port;
	int live;
	int capture;
	uint32_t sock_drops_u32;	/* SO_RXQ_OVFL: cumulative drops */
	struct pcap_stat pst;
	int have_pst;
	double t_start, t_end, t_last;	/* monotonic seconds */
	uint64_t ts_first, ts_last;	/* first and last arrival, ns */
	int interrupted;
	const char *stop_reason;
};

static volatile sig_atomic_t stop_flag;
static pcap_t *offline_pcap;	/* for pcap_breakloop from the handler */

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
	if (offline_pcap)
		pcap_breakloop(offline_pcap);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* "couldn't ...: Text (ENAME, -N)", the common form of every error. */
#define pr_errno(err, fmt, ...) \
	pr_warn(fmt ": %s", ##__VA_ARGS__, errno_str(err))

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
"                         tag 'auth', a repeated (epoch, seq) 'replay'\n"
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
		char why[512];

		if (key_file_read(o->key_file, o->key.key, why, sizeof(why))) {
			pr_warn("--key-file: %s", why);
			return -1;
		}
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

static int parse_opts(int argc, char **argv, struct opts *o)
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

/* ---- per-datagram log lines ---- */

static void fmt_addr(uint8_t family, const uint8_t *a, char *buf, size_t len)
{
	if (!family || !inet_ntop(family == 4 ? AF_INET : AF_INET6, a, buf,
				  (socklen_t)len))
		snprintf(buf, len, "?");
}

static const char *seq_event_name(enum bpfw_seq_event e)
{
	switch (e) {
	case BPFW_SEQ_NEW: return "new";
	case BPFW_SEQ_REORDERED: return "reordered";
	case BPFW_SEQ_DUPLICATE: return "duplicate";
	case BPFW_SEQ_FULL: return "too_many_senders";
	default: return "untracked";
	}
}

static void log_datagram(void *arg, const struct bpfw_dgram_info *in)
{
	struct run *run = arg;
	json_object *o = json_object_new_object();
	char a[INET6_ADDRSTRLEN];

	json_object_object_add(o, "side", json_object_new_string(
		in->side == BPFW_SIDE_WIRE ? "wire" : "socket"));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(in->ts_ns));
	json_object_object_add(o, "verdict", json_object_new_string(
		in->reason == BPFW_R_OK ? "valid" : "invalid"));
	json_object_object_add(o, "reason",
			       json_object_new_string(bpfw_reason_name(in->reason)));
	if (in->family) {
		fmt_addr(in->family, in->src, a, sizeof(a));
		json_object_object_add(o, "src", json_object_new_string(a));
		json_object_object_add(o, "sport", json_object_new_int(in->sport));
		if (in->side == BPFW_SIDE_WIRE) {
			fmt_addr(in->family, in->dst, a, sizeof(a));
			json_object_object_add(o, "dst", json_object_new_string(a));
		}
		json_object_object_add(o, "dport", json_object_new_int(in->dport));
	}
	if (in->fragmented)
		json_object_object_add(o, "fragmented", json_object_new_boolean(1));
	if (in->wire && in->wire->magic) {
		json_object_object_add(o, "sender_id",
				       json_object_new_uint64(in->wire->sender_id));
		json_object_object_add(o, "seq", json_object_new_uint64(in->wire->seq));
		json_object_object_add(o, "type", json_object_new_int(in->wire->type));
		json_object_object_add(o, "sender_ts_ns",
				       json_object_new_uint64(in->wire->timestamp_ns));
		json_object_object_add(o, "payload_len",
				       json_object_new_uint64(in->wire->payload_len));
		json_object_object_add(o, "wire_version",
				       json_object_new_int(in->wire->version));
	}
	if (in->wire && in->wire->version == BPFWIRE_VERSION_2) {
		char ep[20];

		snprintf(ep, sizeof(ep), "%016llx", (unsigned long long)in->wire->epoch);
		json_object_object_add(o, "epoch", json_object_new_string(ep));
		json_object_object_add(o, "n_events", json_object_new_int(in->wire->n_events));
		json_object_object_add(o, "signed", json_object_new_boolean(
			in->wire->flags & BPFWIRE_F_SIGNED));
		json_object_object_add(o, "key_id", json_object_new_int(in->wire->key_id));
	}
	if (in->reason == BPFW_R_OK)
		json_object_object_add(o, "seq_event", json_object_new_string(
			seq_event_name(in->seq_event)));
	fprintf(run->logf, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* ---- the pipeline's two inputs ---- */

static void on_frame(u_char *user, const struct pcap_pkthdr *h,
		     const u_char *bytes)
{
	struct run *run = (struct run *)user;
	/* Handles are opened with nanosecond precision: tv_usec holds ns. */
	uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
	enum bpfw_reason r;

	r = bpfw_rx_frame(&run->rx, ts, bytes, h->caplen, h->len);
	if (run->dumper)
		pcap_dump((u_char *)run->dumper, h, bytes);
	if (bpfw_reason_class(r) != BPFW_CLASS_IGNORED) {
		run->t_last = mono_now();
		if (!run->ts_first)
			run->ts_first = ts;
		run->ts_last = ts;
	}
}

static int map_dlt(int dlt, enum bpfw_link *link)
{
	switch (dlt) {
	case DLT_EN10MB: *link = BPFW_LINK_ETH; return 0;
	case DLT_LINUX_SLL: *link = BPFW_LINK_SLL; return 0;
	case DLT_LINUX_SLL2: *link = BPFW_LINK_SLL2; return 0;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6: *link = BPFW_LINK_RAW; return 0;
	default: return -1;
	}
}

static int init_rx(struct run *run, enum bpfw_link link)
{
	struct opts *o = run->o;
	struct bpfw_rx_cfg cfg = {
		.port = (uint16_t)run->port,
		.accept_csum_partial = o->accept_partial,
		.srcs = o->srcs,
		.nsrcs = o->nsrcs,
		.max_senders = o->max_senders,
		.state_budget = (uint64_t)(o->budget_mb * (1 << 20)),
		.key = o->have_key ? &o->key : NULL,
		/* Live with a capture runs both sides: half the budget each. */
		.split_budget = !o->read && o->iface,
	};

	cfg.link.link = link;
	if (o->have_mac) {
		memcpy(cfg.link.mac, o->mac, 6);
		cfg.link.have_mac = 1;
	}
	if (o->log) {
		cfg.cb = log_datagram;
		cfg.cb_arg = run;
	}
	if (bpfw_rx_init(&run->rx, &cfg)) {
		pr_warn("couldn't allocate the validation state: out of memory");
		return -1;
	}
	return 0;
}

static int open_dumper(struct run *run, pcap_t *p)
{
	if (!run->o->pcap_out)
		return 0;
	run->dumper = pcap_dump_open(p, run->o->pcap_out);
	if (!run->dumper) {
		pr_warn("couldn't write capture %s: %s", run->o->pcap_out,
			pcap_geterr(p));
		return -1;
	}
	return 0;
}

static int run_offline(struct run *run)
{
	char err[PCAP_ERRBUF_SIZE];
	enum bpfw_link link;
	int rc;

	run->pcap = pcap_open_offline_with_tstamp_precision(
		run->o->read, PCAP_TSTAMP_PRECISION_NANO, err);
	if (!run->pcap) {
		pr_warn("couldn't read %s: %s", run->o->read, err);
		return -1;
	}
	if (map_dlt(pcap_datalink(run->pcap), &link)) {
		pr_warn("%s: unsupported link type %s (%d); need Ethernet, Linux cooked or raw IP",
			run->o->read, pcap_datalink_val_to_name(pcap_datalink(run->pcap))
			? pcap_datalink_val_to_name(pcap_datalink(run->pcap)) : "?",
			pcap_datalink(run->pcap));
		return -1;
	}
	if (init_rx(run, link) || open_dumper(run, run->pcap))
		return -1;
	offline_pcap = run->pcap;
	run->t_start = mono_now();
	rc = pcap_loop(run->pcap, -1, on_frame, (u_char *)run);
	run->t_end = mono_now();
	offline_pcap = NULL;
	if (rc == PCAP_ERROR) {
		/* A cut-off file: say where, and give no verdict on half of it. */
		pr_warn("%s: bad pcap file after %llu frames: %s", run->o->read,
			(unsigned long long)run->rx.wire.frames,
			pcap_geterr(run->pcap));
		return -1;
	}
	if (rc == PCAP_ERROR_BREAK)
		run->interrupted = 1;
	run->stop_reason = run->interrupted ? "signal" : "end of file";
	bpfw_rx_expire(&run->rx, UINT64_MAX);
	return 0;
}

/* ---- live mode ---- */

static int get_mac(const char *iface, uint8_t *mac)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (strlen(iface) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	strcpy(ifr.ifr_name, iface);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

static int open_capture(struct run *run)
{
	struct opts *o = run->o;
	char err[PCAP_ERRBUF_SIZE], filter[256];
	struct bpf_program prog;
	enum bpfw_link link;
	pcap_t *p;
	int rc;

	p = pcap_create(o->iface, err);
	if (!p) {
		pr_warn("couldn't capture on %s: %s", o->iface, err);
		return -1;
	}
	run->pcap = p;
	pcap_set_snaplen(p, SNAPLEN);
	pcap_set_promisc(p, 0);
	pcap_set_immediate_mode(p, 1);
	pcap_set_buffer_size(p, 16 << 20);
	pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
	rc = pcap_activate(p);
	if (rc < 0) {
		pr_warn("couldn't capture on %s: %s (%s)", o->iface,
			pcap_statustostr(rc), pcap_geterr(p));
		return -1;
	}
	if (rc > 0)
		pr_warn("capture on %s: %s (%s)", o->iface, pcap_statustostr(rc),
			pcap_geterr(p));
	if (map_dlt(pcap_datalink(p), &link)) {
		pr_warn("couldn't capture on %s: unsupported link type %d",
			o->iface, pcap_datalink(p));
		return -1;
	}
	/*
	 * Our port, plus every non-first IPv4 fragment and every IPv6 packet
	 * whose first next-header is not UDP or ICMPv6 (extension headers,
	 * fragments): the filter cannot see their ports, the parser can.
	 */
	if (run->port)
		snprintf(filter, sizeof(filter),
			 "udp dst port %u or (ip and ip[6:2] & 0x1fff != 0) or "
			 "(ip6 and ip6[6] != 17 and ip6[6] != 58)", run->port);
	else
		snprintf(filter, sizeof(filter), "udp or ip[6:2] & 0x1fff != 0 or "
			 "(ip6 and ip6[6] != 58)");
	if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) ||
	    pcap_setfilter(p, &prog)) {
		pr_warn("couldn't set capture filter \"%s\" on %s: %s", filter,
			o->iface, pcap_geterr(p));
		return -1;
	}
	pcap_freecode(&prog);
	/* Our own sends are not telemetry to validate. */
	if (pcap_setdirection(p, PCAP_D_IN))
		pr_info("capture on %s: can't restrict to incoming: %s", o->iface,
			pcap_geterr(p));
	if (pcap_setnonblock(p, 1, err)) {
		pr_warn("couldn't make capture on %s non-blocking: %s", o->iface, err);
		return -1;
	}
	if (link == BPFW_LINK_ETH && !o->have_mac) {
		int e = get_mac(o->iface, o->mac);

		if (e) {
			pr_errno(-e, "couldn't read the MAC address of %s", o->iface);
			return -1;
		}
		o->have_mac = 1;
	}
	if (init_rx(run, link) || open_dumper(run, p))
		return -1;
	run->capture = 1;
	pr_info("capturing on %s with filter \"%s\"", o->iface, filter);
	return 0;
}

static int open_socket(struct run *run)
{
	struct opts *o = run->o;
	struct sockaddr_storage ss = { 0 };
	socklen_t sl;
	int fam = o->family, explicit6 = o->family == 6, fd, one = 1, zero = 0;
	int rcvbuf = (int)o->rcvbuf;

	if (o->bind) {
		struct addrinfo hints = { .ai_socktype = SOCK_DGRAM,
					  .ai_flags = AI_NUMERICHOST | AI_PASSIVE };
		struct addrinfo *ai;
		int e;

		hints.ai_family = fam == 4 ? AF_INET : fam == 6 ? AF_INET6 : AF_UNSPEC;
		e = getaddrinfo(o->bind, NULL, &hints, &ai);
		if (e) {
			pr_warn("--bind: \"%s\" is not a numeric %saddress: %s", o->bind,
				fam == 4 ? "IPv4 " : fam == 6 ? "IPv6 " : "",
				gai_strerror(e));
			return -2;
		}
		memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
		sl = ai->ai_addrlen;
		freeaddrinfo(ai);
		fam = ss.ss_family == AF_INET ? 4 : 6;
	} else {
		if (!fam)
			fam = 6;
		ss.ss_family = fam == 4 ? AF_INET : AF_INET6;
		sl = fam == 4 ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	}
	if (fam == 4)
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)o->port);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)o->port);
	o->family = fam;

	fd = socket(fam == 4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		pr_errno(errno, "couldn't create an IPv%d UDP socket", fam);
		return -1;
	}
	run->sock = fd;
	/* Without --family 6, one v6 socket takes IPv4 too (as ::ffff:a.b.c.d). */
	if (fam == 6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY,
				   explicit6 ? &one : &zero, sizeof(int)))
		pr_info("couldn't set IPV6_V6ONLY: %s", errno_str(errno));
	/* FORCE goes past rmem_max when we are root; fall back otherwise. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		pr_info("couldn't set SO_RCVBUF to %d: %s", rcvbuf, errno_str(errno));
	/* The kernel then reports its drop count for this socket. */
	if (setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one)))
		pr_info("couldn't enable SO_RXQ_OVFL: %s", errno_str(errno));
	if (bind(fd, (struct sockaddr *)&ss, sl)) {
		char a[INET6_ADDRSTRLEN + 8] = "any";

		if (o->bind)
			snprintf(a, sizeof(a), "%s", o->bind);
		pr_errno(errno, "couldn't bind UDP socket to %s port %ld", a, o->port);
		return -1;
	}
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		run->port = ntohs(ss.ss_family == AF_INET ?
				  ((struct sockaddr_in *)&ss)->sin_port :
				  ((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

static void drain_socket(struct run *run)
{
	uint8_t buf[65536];
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) * 2];
	int i;

	for (i = 0; i < 4096; i++) {
		struct sockaddr_storage ss;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_name = &ss, .msg_namelen = sizeof(ss),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm;
		uint8_t src[16];
		uint8_t fam;
		uint16_t sport;
		ssize_t n = recvmsg(run->sock, &mh, MSG_DONTWAIT);

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				pr_errno(errno, "recvmsg on UDP port %u", run->port);
			return;
		}
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_RXQ_OVFL)
				memcpy(&run->sock_drops_u32, CMSG_DATA(cm), 4);
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

			fam = 4;
			memcpy(src, &s4->sin_addr, 4);
			sport = ntohs(s4->sin_port);
		} else {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			sport = ntohs(s6->sin6_port);
			if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
				fam = 4;
				memcpy(src, s6->sin6_addr.s6_addr + 12, 4);
			} else {
				fam = 6;
				memcpy(src, &s6->sin6_addr, 16);
			}
		}
		/* MSG_TRUNC cannot happen: 64 KiB holds any UDP payload. */
		uint64_t now_ns = real_ns();

		bpfw_rx_socket(&run->rx, now_ns, fam, src, sport, buf, (uint32_t)n);
		run->t_last = mono_now();
		/* Without a capture the socket's reads are the arrival clock. */
		if (!run->capture) {
			if (!run->ts_first)
				run->ts_first = now_ns;
			run->ts_last = now_ns;
		}
	}
}

static int write_ready(struct run *run)
{
	const char *path = run->o->ready_file;
	json_object *o;
	char tmp[PATH_MAX];
	FILE *f;
	int ok;

	if (!path)
		return 0;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		pr_warn("--ready-file: path too long");
		return -1;
	}
	o = json_object_new_object();
	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	json_object_object_add(o, "port", json_object_new_int(run->port));
	json_object_object_add(o, "family", json_object_new_int(run->o->family));
	json_object_object_add(o, "capture", json_object_new_boolean(run->capture));
	f = fopen(tmp, "w");
	ok = f && fprintf(f, "%s\n", json_object_to_json_string_ext(
				  o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) > 0;
	if (f && fclose(f))
		ok = 0;
	json_object_put(o);
	/* rename() so a watcher never sees a half-written file. */
	if (!ok || rename(tmp, path)) {
		pr_errno(errno, "couldn't write ready file %s", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}

static uint64_t total_received(struct bpfw_senders *s)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < bpfw_senders_count(s); i++)
		n += bpfw_senders_get(s, i)->received;
	return n;
}

static int count_reached(struct run *run)
{
	uint64_t want = (uint64_t)run->o->expect_count;

	if (run->o->expect_count == UNSET)
		return 0;
	if (total_received(run->rx.sock.senders) < want)
		return 0;
	return !run->capture || total_received(run->rx.wire.senders) >= want;
}

static void drain_capture(struct run *run)
{
	int i;

	/* Bounded so a flood cannot starve the socket. */
	for (i = 0; i < 64; i++)
		if (pcap_dispatch(run->pcap, 256, on_frame, (u_char *)run) <= 0)
			break;
}

static int run_live(struct run *run)
{
	struct opts *o = run->o;
	struct pollfd pfd[2];
	double last_flush;
	int nfd = 1;

	run->live = 1;
	run->port = (uint16_t)o->port;
	/* The socket first: port 0 picks the port the capture must filter on. */
	if (open_socket(run))
		return -1;
	if (o->iface) {
		if (open_capture(run))
			return -1;
	} else {
		pr_info("no --iface: socket side only, nothing validated on the wire");
		if (init_rx(run, BPFW_LINK_ETH))
			return -1;
	}
	if (write_ready(run))
		return -1;
	pfd[0] = (struct pollfd){ .fd = run->sock, .events = POLLIN };
	if (run->capture) {
		pfd[1] = (struct pollfd){ .fd = pcap_get_selectable_fd(run->pcap),
					  .events = POLLIN };
		nfd = 2;
	}
	run->t_start = last_flush = mono_now();
	pr_info("ready: UDP port %u%s%s", run->port, o->iface ? ", capturing on " : "",
		o->iface ? o->iface : "");
	while (!stop_flag) {
		double now = mono_now(), wait = 0.2;
		int n;

		if (o->timeout && now - run->t_start >= o->timeout) {
			run->stop_reason = "timeout";
			break;
		}
		if (o->until_idle && run->t_last &&
		    now - run->t_last >= o->until_idle) {
			run->stop_reason = "idle";
			break;
		}
		/* With --until-idle, extra datagrams after N must still be seen. */
		if (!o->until_idle && count_reached(run)) {
			run->stop_reason = "expected count reached";
			break;
		}
		/* 200 ms caps every wait: also the granularity of the deadlines. */
		n = poll(pfd, (nfds_t)nfd, (int)(wait * 1000));
		if (n < 0 && errno != EINTR) {
			pr_errno(errno, "poll");
			return -1;
		}
		if (run->capture)
			drain_capture(run);
		drain_socket(run);
		bpfw_rx_expire(&run->rx, real_ns());
		if (run->dumper && now - last_flush >= 1.0) {
			pcap_dump_flush(run->dumper);
			last_flush = now;
		}
	}
	if (stop_flag) {
		run->interrupted = 1;
		run->stop_reason = "signal";
	}
	/* The tap sees a frame before the socket does: drain socket, then wire. */
	drain_socket(run);
	if (run->capture) {
		drain_capture(run);
		if (pcap_stats(run->pcap, &run->pst) == 0)
			run->have_pst = 1;
	}
	run->t_end = mono_now();
	bpfw_rx_expire(&run->rx, UINT64_MAX);
	return 0;
}

/* ---- expectations and reports ---- */

struct totals {
	uint64_t received, lost, duplicates, replays, reordered;
};

static struct totals side_totals(struct bpfw_senders *s)
{
	struct totals t = { 0 };
	unsigned i;

	for (i = 0; i < bpfw_senders_count(s); i++) {
		const struct bpfw_sender *snd = bpfw_senders_get(s, i);

		t.received += snd->received;
		t.lost += bpfw_sender_lost(snd);
		t.duplicates += snd->duplicates;
		t.replays += snd->replays;
		t.reordered += snd->reordered;
	}
	return t;
}

struct checks {
	json_object *list;
	json_object *failed;
	char line[512];		/* failed names for the human line */
	size_t off;
};

static void check(struct checks *c, const char *name, int ok, const char *rel,
		  long long expected, long long actual)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "expected", json_object_new_int64(expected));
	json_object_object_add(o, "relation", json_object_new_string(rel));
	json_object_object_add(o, "actual", json_object_new_int64(actual));
	json_object_array_add(c->list, o);
	if (!ok) {
		json_object_array_add(c->failed, json_object_new_string(name));
		if (c->off < sizeof(c->line))
			c->off += (size_t)snprintf(c->line + c->off,
				sizeof(c->line) - c->off, "%s%s: %lld %s %lld",
				c->off ? ", " : "", name, actual,
				!strcmp(rel, "==") ? "!=" : ">", expected);
	}
}

static int src_seen(const struct bpfw_src_expect *e, struct bpfw_senders *s)
{
	unsigned i;

	for (i = 0; i < bpfw_senders_count(s); i++) {
		const struct bpfw_sender *snd = bpfw_senders_get(s, i);

		if (snd->family == e->family &&
		    !memcmp(snd->src, e->addr, e->family == 4 ? 4 : 16) &&
		    (!e->port || e->port == snd->sport))
			return 1;
	}
	return 0;
}

static void evaluate(struct run *run, struct checks *c)
{
	struct opts *o = run->o;
	int wire = run->capture || !run->live;
	/* Loss and order come from the wire when we saw it, else the socket. */
	struct bpfw_side *main_side = wire ? &run->rx.wire : &run->rx.sock;
	struct totals t = side_totals(main_side->senders);
	unsigned i;

	if (!o->allow_invalid)
		check(c, "no_invalid", run->rx.wire.invalid + run->rx.sock.invalid == 0,
		      "==", 0, (long long)(run->rx.wire.invalid + run->rx.sock.invalid));
	if (o->expect_count != UNSET) {
		if (wire)
			check(c, "expect_count_wire",
			      total_received(run->rx.wire.senders) == (uint64_t)o->expect_count,
			      "==", o->expect_count,
			      (long long)total_received(run->rx.wire.senders));
		if (run->live)
			check(c, "expect_count_socket",
			      total_received(run->rx.sock.senders) == (uint64_t)o->expect_count,
			      "==", o->expect_count,
			      (long long)total_received(run->rx.sock.senders));
	}
	if (o->max_loss != UNSET)
		check(c, "max_loss", t.lost <= (uint64_t)o->max_loss, "<=",
		      o->max_loss, (long long)t.lost);
	if (o->max_dup != UNSET)
		check(c, "max_dup", t.duplicates <= (uint64_t)o->max_dup, "<=",
		      o->max_dup, (long long)t.duplicates);
	if (o->max_reorder != UNSET)
		check(c, "max_reorder", t.reordered <= (uint64_t)o->max_reorder, "<=",
		      o->max_reorder, (long long)t.reordered);
	if (o->nsrcs) {
		unsigned seen = 0;

		for (i = 0; i < o->nsrcs; i++)
			seen += src_seen(&o->srcs[i], main_side->senders);
		check(c, "expect_src_all_seen", seen == o->nsrcs, "==",
		      o->nsrcs, seen);
	}
	if (run->live && run->capture) {
		struct bpfw_senders *ws = run->rx.wire.senders, *ss = run->rx.sock.senders;
		unsigned mismatched = 0;

		/* Every sender's distinct count agrees on both sides. */
		for (i = 0; i < bpfw_senders_count(ws); i++) {
			const struct bpfw_sender *w = bpfw_senders_get(ws, i);
			const struct bpfw_sender *s = NULL;
			unsigned j;

			for (j = 0; j < bpfw_senders_count(ss); j++)
				if (bpfw_senders_get(ss, j)->sender_id == w->sender_id &&
				    bpfw_senders_get(ss, j)->epoch == w->epoch)
					s = bpfw_senders_get(ss, j);
			if (!s || s->received != w->received)
				mismatched++;
		}
		if (bpfw_senders_count(ss) > bpfw_senders_count(ws))
			mismatched += bpfw_senders_count(ss) - bpfw_senders_count(ws);
		check(c, "socket_matches_wire", mismatched == 0, "==", 0, mismatched);
		check(c, "capture_complete", !run->have_pst || run->pst.ps_drop == 0,
		      "==", 0, run->have_pst ? (long long)run->pst.ps_drop : 0);
	}
	/* Socket drops are loss too: --max-loss any (the benchmark) allows them. */
	if (run->live && o->max_loss != UNSET)
		check(c, "socket_no_drops", run->sock_drops_u32 <= o->max_loss, "<=", o->max_loss,
		      run->sock_drops_u32);
}

/* One sender's counts; add_to sums a second epoch of the same id into o. */
static void sender_counts(json_object *o, const struct bpfw_sender *snd, int add_to)
{
	static const char *const keys[] = {
		"received", "lost", "duplicates", "replays", "reordered", "stale", "events",
	};
	uint64_t v[] = {
		snd->received, bpfw_sender_lost(snd), snd->duplicates, snd->replays,
		snd->reordered, snd->stale, snd->events,
	};
	json_object *old;
	unsigned i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (add_to && json_object_object_get_ex(o, keys[i], &old))
			v[i] += json_object_get_uint64(old);
		json_object_object_add(o, keys[i], json_object_new_uint64(v[i]));
	}
}

static json_object *sender_json(const struct bpfw_sender *snd)
{
	json_object *so = json_object_new_object();
	char a[INET6_ADDRSTRLEN], ep[20];

	fmt_addr(snd->family, snd->src, a, sizeof(a));
	json_object_object_add(so, "src", json_object_new_string(a));
	json_object_object_add(so, "sport", json_object_new_int(snd->sport));
	sender_counts(so, snd, 0);
	json_object_object_add(so, "first_seq", json_object_new_uint64(snd->first_seq));
	json_object_object_add(so, "last_seq", json_object_new_uint64(snd->last_seq));
	snprintf(ep, sizeof(ep), "%016llx", (unsigned long long)snd->epoch);
	json_object_object_add(so, "epoch", json_object_new_string(ep));
	json_object_object_add(so, "state_bytes", json_object_new_uint64(bpfw_sender_bytes(snd)));
	return so;
}

/*
 * senders, keyed by id. A reinstalled sender (several epochs) sums its
 * epochs' counts, spans their first and last seq, and lists each in epochs.
 */
static json_object *senders_json(struct bpfw_senders *ss)
{
	json_object *senders = json_object_new_object();
	json_object *so = NULL, *epochs = NULL;
	const struct bpfw_sender *snd, *prev = NULL;
	char id[16];
	unsigned i;

	for (i = 0; i < bpfw_senders_count(ss); i++, prev = snd) {
		snd = bpfw_senders_get(ss, i);
		if (prev && prev->sender_id == snd->sender_id) {
			json_object *e = sender_json(snd);

			if (!epochs) {
				epochs = json_object_new_object();
				json_object_object_add(epochs, json_object_get_string(
					json_object_object_get(so, "epoch")), sender_json(prev));
				json_object_object_add(so, "epochs", epochs);
			}
			json_object_object_add(epochs, json_object_get_string(
				json_object_object_get(e, "epoch")), e);
			sender_counts(so, snd, 1);
			if (snd->first_seq < json_object_get_uint64(json_object_object_get(so, "first_seq")))
				json_object_object_add(so, "first_seq",
					json_object_new_uint64(snd->first_seq));
			if (snd->last_seq > json_object_get_uint64(json_object_object_get(so, "last_seq")))
				json_object_object_add(so, "last_seq",
					json_object_new_uint64(snd->last_seq));
			continue;
		}
		so = sender_json(snd);
		epochs = NULL;
		snprintf(id, sizeof(id), "%u", snd->sender_id);
		json_object_object_add(senders, id, so);
	}
	return senders;
}

static json_object *side_json(struct bpfw_side *s)
{
	json_object *o = json_object_new_object();
	json_object *reasons = json_object_new_object();
	json_object *ignored = json_object_new_object();
	struct totals t = side_totals(s->senders);
	unsigned i;

	json_object_object_add(o, "frames", json_object_new_uint64(s->frames));
	json_object_object_add(o, "ignored", json_object_new_uint64(s->ignored));
	json_object_object_add(o, "datagrams", json_object_new_uint64(s->datagrams));
	json_object_object_add(o, "valid", json_object_new_uint64(s->valid));
	json_object_object_add(o, "invalid", json_object_new_uint64(s->invalid));
	/* Every invalid reason, zero or not: a stable schema for the lab. */
	for (i = 0; i < BPFW_R__COUNT; i++) {
		enum bpfw_class cls = bpfw_reason_class(i);

		if (cls == BPFW_CLASS_INVALID)
			json_object_object_add(reasons, bpfw_reason_name(i),
					       json_object_new_uint64(s->reasons[i]));
	}
	json_object_object_add(o, "reasons", reasons);
	json_object_object_add(o, "ignored_reasons", ignored);
	json_object_object_add(o, "udp_csum_zero", json_object_new_uint64(s->udp_csum_zero));
	json_object_object_add(o, "udp_csum_partial", json_object_new_uint64(s->udp_csum_partial));
	json_object_object_add(o, "ip4_df", json_object_new_uint64(s->ip4_df));
	json_object_object_add(o, "payload_bytes", json_object_new_uint64(s->payload_bytes));
	json_object_object_add(o, "events", json_object_new_uint64(s->events));
	json_object_object_add(o, "authenticated", json_object_new_uint64(s->authenticated));
	json_object_object_add(o, "received", json_object_new_uint64(t.received));
	json_object_object_add(o, "lost", json_object_new_uint64(t.lost));
	json_object_object_add(o, "duplicates", json_object_new_uint64(t.duplicates));
	json_object_object_add(o, "replays", json_object_new_uint64(t.replays));
	json_object_object_add(o, "reordered", json_object_new_uint64(t.reordered));
	json_object_object_add(o, "tracked", json_object_new_uint64(bpfw_senders_count(s->senders)));
	json_object_object_add(o, "senders", senders_json(s->senders));
	return o;
}

static void add_ignored_reasons(json_object *side, struct bpfw_side *s)
{
	json_object *ign;
	unsigned i;

	json_object_object_get_ex(side, "ignored_reasons", &ign);
	for (i = 0; i < BPFW_R__COUNT; i++)
		if (bpfw_reason_class(i) == BPFW_CLASS_IGNORED && s->reasons[i])
			json_object_object_add(ign, bpfw_reason_name(i),
					       json_object_new_uint64(s->reasons[i]));
}

/* The memory the run took: sender state against its budget, and peak RSS. */
static json_object *state_json(struct run *run)
{
	json_object *o = json_object_new_object();
	const struct bpfw_budget *b = run->rx.budget;
	int split = run->rx.cfg.split_budget;
	struct rusage ru;

	/* Split, the two peaks may fall apart: their sum bounds the real one. */
	json_object_object_add(o, "budget_bytes", json_object_new_uint64(run->rx.cfg.state_budget));
	json_object_object_add(o, "split", json_object_new_boolean(split));
	json_object_object_add(o, "bytes", json_object_new_uint64(
		b[0].used + (split ? b[1].used : 0)));
	json_object_object_add(o, "peak_bytes", json_object_new_uint64(
		b[0].peak + (split ? b[1].peak : 0)));
	/* Before the summary is built, which is not sender state. */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		json_object_object_add(o, "max_rss_kb", json_object_new_int64(ru.ru_maxrss));
	return o;
}

static json_object *summary_json(struct run *run, struct checks *c)
{
	struct opts *o = run->o;
	json_object *root = json_object_new_object();
	json_object *cfg = json_object_new_object();
	json_object *wire, *sock, *srcs = json_object_new_array();
	const struct bpfw_reasm_stats *rs = bpfw_reasm_stats(run->rx.reasm);
	double el = run->t_end - run->t_start;
	int wire_on = run->capture || !run->live;
	char mac[18];
	unsigned i;

	json_object_object_add(root, "tool", json_object_new_string("bpfwire-recv"));
	json_object_object_add(root, "version", json_object_new_string("0.1.0"));
	json_object_object_add(root, "mode", json_object_new_string(run->live ? "live" : "offline"));
	json_object_object_add(cfg, "port", json_object_new_int(run->port));
	if (run->live)
		json_object_object_add(cfg, "family", json_object_new_int(o->family));
	if (o->bind)
		json_object_object_add(cfg, "bind", json_object_new_string(o->bind));
	if (o->iface)
		json_object_object_add(cfg, "iface", json_object_new_string(o->iface));
	if (o->read)
		json_object_object_add(cfg, "read", json_object_new_string(o->read));
	if (o->have_mac) {
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", o->mac[0],
			 o->mac[1], o->mac[2], o->mac[3], o->mac[4], o->mac[5]);
		json_object_object_add(cfg, "mac", json_object_new_string(mac));
	}
	json_object_object_add(cfg, "dst_mac_checked", json_object_new_boolean(o->have_mac ||
				(run->capture && run->rx.cfg.link.link != BPFW_LINK_ETH)));
	if (o->expect_count != UNSET)
		json_object_object_add(cfg, "expect_count", json_object_new_int64(o->expect_count));
	for (i = 0; i < o->nsrcs; i++)
		json_object_array_add(srcs, json_object_new_string(o->src_text[i]));
	json_object_object_add(cfg, "expect_src", srcs);
	json_object_object_add(cfg, "accept_csum_partial", json_object_new_boolean(o->accept_partial));
	json_object_object_add(cfg, "authenticated", json_object_new_boolean(o->have_key));
	if (o->key.key_id >= 0)
		json_object_object_add(cfg, "key_id", json_object_new_int(o->key.key_id));
	json_object_object_add(cfg, "max_senders", json_object_new_int64(o->max_senders));
	json_object_object_add(cfg, "state_budget_mb", json_object_new_double(o->budget_mb));
	if (o->timeout)
		json_object_object_add(cfg, "timeout_s", json_object_new_double(o->timeout));
	if (o->until_idle)
		json_object_object_add(cfg, "until_idle_s", json_object_new_double(o->until_idle));
	json_object_object_add(root, "config", cfg);
	json_object_object_add(root, "elapsed_s", json_object_new_double(el));
	json_object_object_add(root, "frames_per_s", json_object_new_double(
		el > 0 ? run->rx.wire.frames / el : 0));
	/* The wire's own clock: what a rate at the receiver is measured over. */
	json_object_object_add(root, "arrival_span_s", json_object_new_double(
		run->ts_last > run->ts_first ? (run->ts_last - run->ts_first) / 1e9 : 0));
	json_object_object_add(root, "stopped_by", json_object_new_string(
		run->stop_reason ? run->stop_reason : "?"));
	json_object_object_add(root, "interrupted", json_object_new_boolean(run->interrupted));
	json_object_object_add(root, "state", state_json(run));

	wire = side_json(&run->rx.wire);
	add_ignored_reasons(wire, &run->rx.wire);
	json_object_object_add(wire, "enabled", json_object_new_boolean(wire_on));
	{
		json_object *fr = json_object_new_object();

		json_object_object_add(fr, "fragments", json_object_new_uint64(rs->fragments));
		json_object_object_add(fr, "reassembled", json_object_new_uint64(rs->reassembled));
		json_object_object_add(fr, "duplicates", json_object_new_uint64(rs->duplicates));
		json_object_object_add(fr, "incomplete", json_object_new_uint64(rs->incomplete));
		json_object_object_add(fr, "after_reject", json_object_new_uint64(rs->dead));
		json_object_object_add(wire, "fragments", fr);
	}
	if (run->have_pst) {
		json_object *cap = json_object_new_object();

		json_object_object_add(cap, "received", json_object_new_uint64(run->pst.ps_recv));
		json_object_object_add(cap, "dropped", json_object_new_uint64(run->pst.ps_drop));
		json_object_object_add(cap, "if_dropped", json_object_new_uint64(run->pst.ps_ifdrop));
		json_object_object_add(wire, "capture", cap);
	}
	sock = side_json(&run->rx.sock);
	json_object_object_add(sock, "enabled", json_object_new_boolean(run->live));
	if (run->live)
		json_object_object_add(sock, "drops", json_object_new_uint64(run->sock_drops_u32));

	/* Headline counts: the wire when we saw it, else the socket. */
	{
		struct bpfw_side *m = wire_on ? &run->rx.wire : &run->rx.sock;

		json_object_object_add(root, "valid", json_object_new_uint64(m->valid));
		json_object_object_add(root, "invalid", json_object_new_uint64(m->invalid));
		json_object_object_add(root, "wire_count", json_object_new_uint64(run->rx.wire.valid));
		json_object_object_add(root, "socket_count", json_object_new_uint64(run->rx.sock.valid));
	}
	json_object_object_add(root, "wire", wire);
	json_object_object_add(root, "socket", sock);
	json_object_object_add(root, "expectations", json_object_get(c->list));
	json_object_object_add(root, "failed", json_object_get(c->failed));
	json_object_object_add(root, "verdict", json_object_new_string(
		json_object_array_length(c->failed) ? "fail" : "pass"));
	return root;
}

static int write_json(const char *path, json_object *root)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		pr_warn("--json: path too long");
		return -1;
	}
	if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE) || rename(tmp, path)) {
		pr_warn("couldn't write JSON summary %s: %s", path,
			json_util_get_last_err() ? json_util_get_last_err() :
			errno_str(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void print_line(struct run *run, struct checks *c)
{
	struct bpfw_side *w = &run->rx.wire, *s = &run->rx.sock;
	int wire_on = run->capture || !run->live;
	struct totals t = side_totals((wire_on ? w : s)->senders);
	double el = run->t_end - run->t_start;
	char reasons[256] = "";
	size_t off = 0;
	unsigned i;

	for (i = 0; i < BPFW_R__COUNT && off < sizeof(reasons); i++)
		if (bpfw_reason_class(i) == BPFW_CLASS_INVALID &&
		    w->reasons[i] + s->reasons[i])
			off += (size_t)snprintf(reasons + off, sizeof(reasons) - off,
				"%s%s=%llu", off ? " " : " [", bpfw_reason_name(i),
				(unsigned long long)(w->reasons[i] + s->reasons[i]));
	if (off && off < sizeof(reasons) - 1)
		strcat(reasons, "]");
	printf("bpfwire-recv: %s%s%s%s: ", c->off ? "FAIL (" : "PASS",
	       c->line, c->off ? ")" : "", run->interrupted ? " interrupted" : "");
	if (wire_on)
		printf("wire %llu valid %llu invalid%s",
		       (unsigned long long)w->valid, (unsigned long long)w->invalid,
		       run->live ? "; " : "");
	if (run->live)
		printf("socket %llu valid %llu invalid",
		       (unsigned long long)s->valid, (unsigned long long)s->invalid);
	printf("%s; %u sender%s: %llu received, %llu lost, %llu dup, %llu reordered; "
	       "%.3f s, %.0f frames/s\n", reasons,
	       bpfw_senders_count((wire_on ? w : s)->senders),
	       bpfw_senders_count((wire_on ? w : s)->senders) == 1 ? "" : "s",
	       (unsigned long long)t.received, (unsigned long long)t.lost,
	       (unsigned long long)t.duplicates, (unsigned long long)t.reordered,
	       el, el > 0 ? w->frames / el : 0.0);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct run run = { .o = &o, .sock = -1, .logf = stdout };
	struct checks c = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	json_object *root = NULL;
	int ret = EXIT_USAGE;

	log_init(PROG, LOG_WARN);
	if (parse_opts(argc, argv, &o))
		return EXIT_USAGE;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (o.log_file) {
		run.logf = fopen(o.log_file, "w");
		if (!run.logf) {
			pr_errno(errno, "couldn't write log file %s", o.log_file);
			return EXIT_USAGE;
		}
	}
	if (o.read) {
		run.port = (uint16_t)o.port;
		if (run_offline(&run))
			goto out;
	} else if (run_live(&run)) {
		goto out;
	}
	c.list = json_object_new_array();
	c.failed = json_object_new_array();
	evaluate(&run, &c);
	root = summary_json(&run, &c);
	if (o.json_out && write_json(o.json_out, root))
		goto out;
	print_line(&run, &c);
	ret = json_object_array_length(c.failed) ? EXIT_FAIL : EXIT_PASS;
out:
	if (run.dumper) {
		pcap_dump_flush(run.dumper);
		pcap_dump_close(run.dumper);
		/* A run that gave no verdict leaves no half capture behind. */
		if (ret == EXIT_USAGE && o.pcap_out)
			unlink(o.pcap_out);
	}
	if (run.pcap)
		pcap_close(run.pcap);
	if (run.sock >= 0)
		close(run.sock);
	if (ret == EXIT_USAGE && o.ready_file)
		unlink(o.ready_file);
	if (run.logf && run.logf != stdout)
		fclose(run.logf);
	json_object_put(root);
	json_object_put(c.list);
	json_object_put(c.failed);
	bpfw_rx_fini(&run.rx);
	return ret;
}
