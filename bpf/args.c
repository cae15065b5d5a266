// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-agent command line and address parsing. See args.h. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "args.h"
#include "cli.h"
#include "errnames.h"

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int parse_port(const char *s, int min, __u16 *port)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < (unsigned long)min || v > 65535)
		return -1;
	*port = v;
	return 0;
}

int bpfwire_parse_addr(const char *s, int need_port, struct bpfwire_addr *a,
		       char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	const char *port = NULL, *close;
	char *pct;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (s[0] == '[') {
		close = strchr(s, ']');
		if (!close)
			ERR("bad address %s: missing ']'", s);
		n = close - s - 1;
		if (close[1] == ':')
			port = close + 2;
		else if (close[1])
			ERR("bad address %s: expected ':PORT' after ']'", s);
		s++;
	} else {
		const char *colon = strrchr(s, ':');

		if (colon && strchr(s, ':') != colon) {
			/* bare IPv6: only where the port is optional */
			if (need_port)
				ERR("bad address %s: write IPv6 as [ADDR]:PORT", s);
			colon = NULL;
		}
		n = colon ? (size_t)(colon - s) : strlen(s);
		port = colon ? colon + 1 : NULL;
	}
	if (n == 0 || n >= sizeof(host))
		ERR("bad address %.*s: empty or too long", (int)(n < 64 ? n : 64), s);
	memcpy(host, s, n);
	host[n] = 0;

	if (port) {
		if (parse_port(port, need_port ? 1 : 0, &a->port))
			ERR("bad port '%s' in %s: need %d..65535", port, host,
			    need_port ? 1 : 0);
	} else if (need_port) {
		ERR("missing port in %s: write ADDR:PORT or [ADDR]:PORT", host);
	}

	pct = strchr(host, '%');
	if (pct) {
		*pct++ = 0;
		if (!*pct || strlen(pct) >= sizeof(a->ifname))
			ERR("bad interface name '%s' in %s", pct, host);
		snprintf(a->ifname, sizeof(a->ifname), "%s", pct);
	}
	if (inet_pton(AF_INET, host, a->addr) == 1) {
		a->family = AF_INET;
		if (pct)
			ERR("%%%s makes no sense on IPv4 address %s", a->ifname, host);
		return 0;
	}
	if (inet_pton(AF_INET6, host, a->addr) != 1)
		ERR("bad address '%s': not IPv4 or IPv6", host);
	a->family = AF_INET6;
	/* fe80::/10 needs a scope; others must not carry one. */
	if (a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80) {
		if (!pct)
			ERR("link-local %s needs %%IFACE, as in [%s%%eth0]:%u",
			    host, host, a->port);
		a->scope_id = if_nametoindex(a->ifname);
		if (!a->scope_id)
			ERR("no interface '%s' for link-local %s", a->ifname, host);
	} else if (pct) {
		ERR("%%%s is only for link-local addresses, not %s", a->ifname, host);
	}
	return 0;
}

int bpfwire_parse_mac(const char *s, __u8 mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &tail) != 6)
		return -1;
	for (i = 0; i < 6; i++) {
		if (s[i * 3] == ' ' || s[i * 3 + 1] == ' ')
			return -1;
		mac[i] = b[i];
	}
	return 0;
}

int bpfwire_parse_events(const char *s, __u32 *events, char *err, size_t errlen)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		ERR("bad --events '%s': too long", s);
	snprintf(buf, sizeof(buf), "%s", s);
	*events = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "exec"))
			*events |= BPFWIRE_EVF_EXEC;
		else if (!strcmp(tok, "open"))
			*events |= BPFWIRE_EVF_OPEN;
		else
			ERR("bad --events '%s': unknown event '%s' (exec, open)", s, tok);
	}
	if (!*events)
		ERR("bad --events '%s': name at least one of exec, open", s);
	return 0;
}

/* The kernel refuses more than INT_MAX / 2 (it doubles the value). */
#define SNDBUF_MAX	0x3fffffffu

int bpfwire_parse_sndbuf(const char *s, __u32 *bytes, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		ERR("bad --sndbuf '%s': need a number of bytes, 0..%u", s, SNDBUF_MAX);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		ERR("bad --sndbuf '%s': plain bytes only, no suffix", s);
	if (errno || v > SNDBUF_MAX)
		ERR("bad --sndbuf '%s': at most %u (INT_MAX / 2; the kernel doubles it)",
		    s, SNDBUF_MAX);
	*bytes = v;
	return 0;
}

int bpfwire_parse_key_id(const char *s, __u32 *id, char *err, size_t errlen)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		ERR("bad --key-id '%s': need 1..255", s);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 1 || v > 255)
		ERR("bad --key-id '%s': need 1..255 (0 means unsigned on the wire)", s);
	*id = v;
	return 0;
}

int bpfwire_parse_batch(const char *s, __u32 *n, char *err, size_t errlen)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		ERR("bad --batch '%s': need 1..%d events per datagram", s, BPFWIRE_BATCH_MAX);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || v < 1)
		ERR("bad --batch '%s': need 1..%d events per datagram", s, BPFWIRE_BATCH_MAX);
	if (errno || v > BPFWIRE_BATCH_MAX)
		ERR("bad --batch %s: at most %d events fit in one %d-byte datagram "
		    "(%d-byte header, %d-byte shortest event); a batch also closes "
		    "early when its next event would not fit", s, BPFWIRE_BATCH_MAX,
		    BPFWIRE_BATCH_DGRAM, BPFWIRE_HDR_LEN_V2, BPFWIRE_EVENT_MIN_LEN);
	*n = v;
	return 0;
}

#define BATCH_AGE_MAX	3600000u	/* one hour */

int bpfwire_parse_batch_age(const char *s, __u32 *ms, char *err, size_t errlen)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		ERR("bad --batch-age-ms '%s': need 0..%u (0: no age limit)", s, BATCH_AGE_MAX);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > BATCH_AGE_MAX)
		ERR("bad --batch-age-ms '%s': need 0..%u (0: no age limit)", s, BATCH_AGE_MAX);
	*ms = v;
	return 0;
}

int bpfwire_parse_via(const char *s, enum bpfwire_via *via)
{
	if (!strcmp(s, "ksock"))
		*via = BPFWIRE_VIA_KSOCK;
	else if (!strcmp(s, "netpoll"))
		*via = BPFWIRE_VIA_NETPOLL;
	else if (!strcmp(s, "ringbuf"))
		*via = BPFWIRE_VIA_RINGBUF;
	else
		return -1;
	return 0;
}

const char *bpfwire_via_name(__u32 via)
{
	switch (via) {
	case BPFWIRE_VIA_KSOCK:		return "ksock";
	case BPFWIRE_VIA_NETPOLL:	return "netpoll";
	case BPFWIRE_VIA_RINGBUF:	return "ringbuf";
	}
	return "unknown";
}

void bpfwire_events_str(__u32 events, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
		 events & BPFWIRE_EVF_EXEC ? "exec" : "",
		 (events & BPFWIRE_EVF_EXEC) && (events & BPFWIRE_EVF_OPEN) ? "," : "",
		 events & BPFWIRE_EVF_OPEN ? "open" : "");
}

void bpfwire_fmt_addr(const struct bpfwire_addr *a, int port, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	inet_ntop(a->family, a->addr, host, sizeof(host));
	if (a->family == AF_INET6) {
		char scoped[INET6_ADDRSTRLEN + IF_NAMESIZE + 1];

		snprintf(scoped, sizeof(scoped), "%s%s%s", host,
			 a->ifname[0] ? "%" : "", a->ifname);
		if (port >= 0)
			snprintf(buf, len, "[%s]:%d", scoped, port);
		else
			snprintf(buf, len, "%s", scoped);
	} else if (port >= 0) {
		snprintf(buf, len, "%s:%d", host, port);
	} else {
		snprintf(buf, len, "%s", host);
	}
}

void bpfwire_fmt_mac(const __u8 m[6], char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
}

void bpfwire_usage(FILE *f)
{
	fprintf(f,
"usage: bpfwire-agent --via ksock|netpoll|ringbuf --dst ADDR:PORT [options]\n"
"       bpfwire-agent status [--json] [VIA]\n"
"       bpfwire-agent unload [VIA]\n"
"       bpfwire-agent flush [ksock]\n"
"\n"
"Install a BPF sender that turns exec and file-open events into bpfwire\n"
"datagrams. ksock and netpoll pin their programs, links and maps under\n"
BPFWIRE_PIN_ROOT "/VIA/ and exit: the telemetry needs no agent. ringbuf\n"
"stays in the foreground and forwards the ring buffer with sendmsg().\n"
"\n"
"  --via ksock|netpoll|ringbuf  the sender\n"
"  --dst ADDR:PORT        destination; [v6]:port, link-local as [fe80::2%%eth0]:port\n"
"  --bind ADDR:PORT       source address and port (ksock, ringbuf; netpoll's\n"
"                         source, default: the route's source and port 6666)\n"
"  --dev IFACE            device for netpoll (default: the route's device)\n"
"  --dev-unchecked        pass --dev to the kernel as is, even if no such device\n"
"                         is seen here; for tests of the kernel's own lookup\n"
"  --remote-mac MAC       netpoll next hop MAC (default: from the neighbour table)\n"
"  --events exec,open     events to send (default: exec,open)\n"
"  --path-prefix P        only paths starting with P (default: all)\n"
"  --sender-id N          sender id on the wire (default: 1)\n"
"  --key-file FILE        sign every datagram (wire format v2, SipHash-2-4) with\n"
"                         the 128-bit key in FILE: 32 hex digits, whitespace\n"
"                         allowed; mode 600 or stricter, not a symlink. The key\n"
"                         goes into a frozen map; the agent keeps no copy\n"
"  --key-id N             key id on the wire, 1..255 (default 1; needs --key-file)\n"
"  --encrypt              encrypt every payload too (wire format v3, AES-128-CTR,\n"
"                         then the MAC): FILE holds 64 hex digits, the MAC key\n"
"                         then the encryption key. ksock and netpoll encrypt in\n"
"                         BPF (the kernel needs bpfwire's crypto series); ringbuf\n"
"                         in the agent. Not with --batch\n"
"  --sndbuf BYTES         ksock: size the socket's send buffer as SO_SNDBUFFORCE\n"
"                         (the kernel doubles it; needs CAP_NET_ADMIN), so a\n"
"                         burst loses fewer sends to EAGAIN (default 0: the\n"
"                         net.core.wmem_default buffer). Needs bpfwire's sndbuf\n"
"                         extension (kernel/patches/sndbuf), not in the posted\n"
"                         series: refused on a kernel without it\n"
"  --batch N              ksock: up to N events (1..%d) per wire-v2 datagram of\n"
"                         at most %d bytes; without --key-file unsigned v2\n"
"                         (default 1: one event per datagram)\n"
"  --batch-age-ms MS      with --batch: the next event after the open batch's\n"
"                         first is MS old sends the batch (default 1000; 0:\n"
"                         only when full). A partial batch waits for an event,\n"
"                         'flush' or 'unload': no timer can send\n"
"  --btf FILE             check the install against the kfunc API in FILE (a\n"
"                         vmlinux or raw BTF) instead of the running kernel's,\n"
"                         and exit: nothing is loaded (0: it would install,\n"
"                         3: the API does not fit)\n"
"  --json                 status: machine-readable output\n"
"  -v, --verbose          more output; libbpf's own output shows from -v\n"
"  -h, --help             this text\n"
"      --version          the version\n"
"\n"
"Exit: 0 done, 1 the install, status, unload or flush failed, 2 usage error,\n"
"3 the kernel lacks the kfunc API the sender needs: its ksock API is none\n"
"that bpfwire knows (the kfunc prototypes found are printed beside the ones\n"
"expected) or absent, or --via netpoll on a kernel without netpoll.\n",
		BPFWIRE_BATCH_MAX, BPFWIRE_BATCH_DGRAM);
}

enum { OPT_VIA = 256, OPT_DST, OPT_BIND, OPT_DEV, OPT_EVENTS, OPT_PREFIX,
       OPT_ID, OPT_MAC, OPT_JSON, OPT_DEV_UNCHECKED, OPT_SNDBUF, OPT_KEY_FILE,
       OPT_KEY_ID, OPT_BATCH, OPT_BATCH_AGE, OPT_BTF, OPT_VERSION, OPT_ENCRYPT };

static const char short_opts[] = "vh";

static const struct option long_opts[] = {
	{ "via",	 required_argument, NULL, OPT_VIA },
	{ "dst",	 required_argument, NULL, OPT_DST },
	{ "bind",	 required_argument, NULL, OPT_BIND },
	{ "dev",	 required_argument, NULL, OPT_DEV },
	{ "dev-unchecked", no_argument,	    NULL, OPT_DEV_UNCHECKED },
	{ "events",	 required_argument, NULL, OPT_EVENTS },
	{ "path-prefix", required_argument, NULL, OPT_PREFIX },
	{ "sender-id",	 required_argument, NULL, OPT_ID },
	{ "remote-mac",	 required_argument, NULL, OPT_MAC },
	{ "sndbuf",	 required_argument, NULL, OPT_SNDBUF },
	{ "key-file",	 required_argument, NULL, OPT_KEY_FILE },
	{ "key-id",	 required_argument, NULL, OPT_KEY_ID },
	{ "encrypt",	 no_argument,	    NULL, OPT_ENCRYPT },
	{ "batch",	 required_argument, NULL, OPT_BATCH },
	{ "batch-age-ms", required_argument, NULL, OPT_BATCH_AGE },
	{ "btf",	 required_argument, NULL, OPT_BTF },
	{ "json",	 no_argument,	    NULL, OPT_JSON },
	{ "verbose",	 no_argument,	    NULL, 'v' },
	{ "help",	 no_argument,	    NULL, 'h' },
	{ "version",	 no_argument,	    NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* The options whose checks need all the others, kept as given. */
struct cli_raw {
	const char *mac, *events, *sndbuf, *key_id, *batch, *batch_age;
};

static int parse_option(int c, char **argv, struct agent_opts *o,
			struct cli_raw *raw, char *err, size_t errlen)
{
	char *end;

	switch (c) {
	case OPT_VIA:
		if (bpfwire_parse_via(optarg, &o->via))
			ERR("bad --via '%s': use ksock, netpoll or ringbuf", optarg);
		break;
	case OPT_DST:
		o->dst_text = optarg;
		break;
	case OPT_BIND:
		o->bind_text = optarg;
		break;
	case OPT_DEV:
		if (!*optarg || strlen(optarg) >= sizeof(o->dev))
			ERR("bad --dev '%s': 1 to %zu characters", optarg,
			    sizeof(o->dev) - 1);
		snprintf(o->dev, sizeof(o->dev), "%s", optarg);
		break;
	case OPT_DEV_UNCHECKED:
		o->dev_unchecked = 1;
		break;
	case OPT_EVENTS:
		raw->events = optarg;
		break;
	case OPT_PREFIX:
		if (strlen(optarg) >= sizeof(o->prefix))
			ERR("bad --path-prefix: longer than %zu bytes",
			    sizeof(o->prefix) - 1);
		snprintf(o->prefix, sizeof(o->prefix), "%s", optarg);
		break;
	case OPT_ID:
		errno = 0;
		o->sender_id = strtoul(optarg, &end, 0);
		if (errno || !*optarg || *end || *optarg == '-' ||
		    strtoull(optarg, NULL, 0) > 0xffffffffull)
			ERR("bad --sender-id '%s': need 0..4294967295", optarg);
		break;
	case OPT_MAC:
		raw->mac = optarg;
		break;
	case OPT_SNDBUF:
		raw->sndbuf = optarg;
		break;
	case OPT_KEY_FILE:
		if (!*optarg)
			ERR("bad --key-file '': name a file");
		o->key_file = optarg;
		break;
	case OPT_KEY_ID:
		raw->key_id = optarg;
		break;
	case OPT_ENCRYPT:
		o->encrypt = 1;
		break;
	case OPT_BATCH:
		raw->batch = optarg;
		break;
	case OPT_BATCH_AGE:
		raw->batch_age = optarg;
		break;
	case OPT_BTF:
		if (!*optarg)
			ERR("bad --btf '': name a vmlinux or a BTF file");
		o->btf = optarg;
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case 'v':
		o->verbose++;
		break;
	case 'h':
		o->cmd = CMD_HELP;
		break;
	case OPT_VERSION:
		o->cmd = CMD_VERSION;
		break;
	default:
		cli_bad_option("bpfwire-agent", argv, short_opts, long_opts);
		return -2;
	}
	return 0;
}

/* status|unload [VIA]: no sender options. */
static int parse_command(int argc, char **argv, struct agent_opts *o,
			 const struct cli_raw *raw, char *err, size_t errlen)
{
	const char *cmd = argv[optind];
	int npos = argc - optind;

	if (!strcmp(cmd, "status"))
		o->cmd = CMD_STATUS;
	else if (!strcmp(cmd, "unload"))
		o->cmd = CMD_UNLOAD;
	else if (!strcmp(cmd, "flush"))
		o->cmd = CMD_FLUSH;
	else
		ERR("unknown command '%s': use status, unload or flush", cmd);
	if (npos > 2)
		ERR("%s takes at most one sender name", cmd);
	if (npos == 2) {
		enum bpfwire_via v;

		o->only = argv[optind + 1];
		if (bpfwire_parse_via(o->only, &v))
			ERR("bad sender '%s': use ksock, netpoll or ringbuf", o->only);
	}
	if (o->via || o->dst_text || o->bind_text || o->dev[0] || raw->mac ||
	    o->dev_unchecked || raw->sndbuf || o->key_file || raw->key_id ||
	    raw->batch || raw->batch_age || o->btf || o->encrypt)
		ERR("%s takes no sender options; name the sender as in "
		    "'%s ksock'", cmd, cmd);
	return 0;
}

/* --batch and --batch-age-ms: ksock only (bpf/README.md, "Batching"). */
static int check_batch(struct agent_opts *o, const struct cli_raw *raw,
		       char *err, size_t errlen)
{
	o->batch = 1;
	o->batch_age_ms = 1000;
	if (raw->batch && bpfwire_parse_batch(raw->batch, &o->batch, err, errlen))
		return -1;
	if (raw->batch_age && !raw->batch)
		ERR("--batch-age-ms needs --batch N");
	if (raw->batch_age &&
	    bpfwire_parse_batch_age(raw->batch_age, &o->batch_age_ms, err, errlen))
		return -1;
	if (o->batch > 1 && o->via != BPFWIRE_VIA_KSOCK)
		ERR("--batch %u is for --via ksock only: %s", o->batch,
		    o->via == BPFWIRE_VIA_NETPOLL ?
		    "netpoll's send is LSM-only, so nothing could flush a partial batch" :
		    "ringbuf sends one event per datagram");
	if (o->batch == 1)
		o->batch_age_ms = 0;
	return 0;
}

/* An install: the options that go together, and the sender's own. */
static int check_install(struct agent_opts *o, const struct cli_raw *raw,
			 char *err, size_t errlen)
{
	if (!o->via)
		ERR("missing --via ksock|netpoll|ringbuf (or a command: status, unload)");
	if (!o->dst_text)
		ERR("missing --dst ADDR:PORT");
	if (bpfwire_parse_addr(o->dst_text, 1, &o->dst, err, errlen))
		return -1;
	if (o->bind_text) {
		if (bpfwire_parse_addr(o->bind_text, 0, &o->bind, err, errlen))
			return -1;
		if (o->bind.family != o->dst.family)
			ERR("--bind %s and --dst %s are not the same family",
			    o->bind_text, o->dst_text);
	}
	if (raw->events && bpfwire_parse_events(raw->events, &o->events, err, errlen))
		return -1;
	if (o->via != BPFWIRE_VIA_NETPOLL) {
		if (o->dev[0])
			ERR("--dev is for --via netpoll only");
		if (raw->mac)
			ERR("--remote-mac is for --via netpoll only");
		if (o->dev_unchecked)
			ERR("--dev-unchecked is for --via netpoll only");
	}
	/* netpoll has no socket, ringbuf's is the agent's own */
	if (raw->sndbuf && o->via != BPFWIRE_VIA_KSOCK)
		ERR("--sndbuf is for --via ksock only");
	if (raw->sndbuf && bpfwire_parse_sndbuf(raw->sndbuf, &o->sndbuf, err, errlen))
		return -1;
	if (o->dev_unchecked && !o->dev[0])
		ERR("--dev-unchecked needs --dev IFACE");
	if (raw->key_id && !o->key_file)
		ERR("--key-id needs --key-file FILE");
	if (raw->key_id && bpfwire_parse_key_id(raw->key_id, &o->key_id, err, errlen))
		return -1;
	if (o->key_file && !raw->key_id)
		o->key_id = 1;
	if (o->encrypt && !o->key_file)
		ERR("--encrypt needs --key-file FILE: 64 hex digits, the MAC key then "
		    "the encryption key");
	if (check_batch(o, raw, err, errlen))
		return -1;
	if (o->encrypt && o->batch > 1)
		ERR("--encrypt encrypts one event per datagram: drop --batch");
	if (raw->mac) {
		if (bpfwire_parse_mac(raw->mac, o->mac))
			ERR("bad --remote-mac '%s': write aa:bb:cc:dd:ee:ff", raw->mac);
		o->have_mac = 1;
	}
	if (o->dev[0] && !o->dev_unchecked && !if_nametoindex(o->dev))
		ERR("no interface '%s' (--dev)", o->dev);
	if (o->dev[0] && o->dst.ifname[0] && strcmp(o->dev, o->dst.ifname))
		ERR("--dev %s disagrees with the scope of --dst %s", o->dev,
		    o->dst_text);
	return 0;
}

int bpfwire_parse_cli(int argc, char **argv, struct agent_opts *o,
		      char *err, size_t errlen)
{
	struct cli_raw raw = { 0 };
	int c, r;

	memset(o, 0, sizeof(*o));
	o->cmd = CMD_INSTALL;
	o->sender_id = 1;
	o->events = BPFWIRE_EVF_EXEC | BPFWIRE_EVF_OPEN;
	optind = 0;	/* full reset, so tests can parse again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		r = parse_option(c, argv, o, &raw, err, errlen);
		if (r)
			return r;
		if (o->cmd == CMD_HELP || o->cmd == CMD_VERSION)
			return 0;
	}
	if (optind < argc)
		return parse_command(argc, argv, o, &raw, err, errlen);
	return check_install(o, &raw, err, errlen);
}
