// SPDX-License-Identifier: GPL-2.0-only
/* Host-side: bpfwire-agent argument and address parsing. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "keyfile.h"
#include "args.h"
#include "tap.h"

#define NARGS(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *))
#define CLI(o, err, ...) \
	bpfwire_parse_cli(NARGS("bpfwire-agent", __VA_ARGS__), \
			  (char *[]){ "bpfwire-agent", __VA_ARGS__, NULL }, o, err, sizeof(err))

/* Parses s, then formats it back: a round trip shows what was understood. */
static void addr_ok(const char *s, int need_port, int family, const char *canon)
{
	struct bpfwire_addr a;
	char err[256], buf[96], name[128];

	snprintf(name, sizeof(name), "parse %s", s);
	if (!ASSERT_OK(bpfwire_parse_addr(s, need_port, &a, err, sizeof(err)), name)) {
		printf("#   %s\n", err);
		return;
	}
	snprintf(name, sizeof(name), "family of %s", s);
	ASSERT_EQ(a.family, family, name);
	bpfwire_fmt_addr(&a, a.port, buf, sizeof(buf));
	snprintf(name, sizeof(name), "format %s", s);
	ASSERT_STREQ(buf, canon, name);
}

static void addr_bad(const char *s, int need_port, const char *msg)
{
	struct bpfwire_addr a;
	char err[256] = "", name[128];

	snprintf(name, sizeof(name), "reject %s", s);
	if (!ASSERT_EQ(bpfwire_parse_addr(s, need_port, &a, err, sizeof(err)), -1, name))
		return;
	snprintf(name, sizeof(name), "message for %s", s);
	ASSERT_HAS(err, msg, name);
}

static void test_addrs(void)
{
	struct bpfwire_addr a;
	char err[256];

	addr_ok("192.0.2.2:7000", 1, AF_INET, "192.0.2.2:7000");
	addr_ok("[2001:db8::2]:7000", 1, AF_INET6, "[2001:db8::2]:7000");
	addr_ok("[2001:DB8:0::2]:65535", 1, AF_INET6, "[2001:db8::2]:65535");
	addr_ok("[fe80::2%lo]:7000", 1, AF_INET6, "[fe80::2%lo]:7000");
	addr_ok("198.51.100.1", 0, AF_INET, "198.51.100.1:0");
	addr_ok("2001:db8::1", 0, AF_INET6, "[2001:db8::1]:0");

	bpfwire_parse_addr("[fe80::2%lo]:7000", 1, &a, err, sizeof(err));
	ASSERT_EQ(a.scope_id, if_nametoindex("lo"), "scope_id of %lo is its ifindex");
	ASSERT_EQ(a.port, 7000, "port of [fe80::2%lo]:7000");
	bpfwire_parse_addr("192.0.2.2:7000", 1, &a, err, sizeof(err));
	ASSERT_EQ((__u32)a.addr[0] << 24 | a.addr[1] << 16 | a.addr[2] << 8 | a.addr[3],
		  0xc0000202, "IPv4 bytes in network order");

	addr_bad("[fe80::2]:7000", 1, "needs %IFACE");
	addr_bad("[fe80::2%nosuchif0]:7000", 1, "no interface 'nosuchif0'");
	addr_bad("[2001:db8::2%lo]:7000", 1, "only for link-local");
	addr_bad("192.0.2.2%lo:7000", 1, "makes no sense on IPv4");
	addr_bad("192.0.2.2", 1, "missing port");
	addr_bad("192.0.2.2:0", 1, "bad port '0'");
	addr_bad("192.0.2.2:65536", 1, "bad port '65536'");
	addr_bad("192.0.2.2:70a", 1, "bad port");
	addr_bad("192.0.2.2:-1", 1, "bad port");
	addr_bad("192.0.2.256:7000", 1, "not IPv4 or IPv6");
	addr_bad("2001:db8::2:7000", 1, "write IPv6 as [ADDR]:PORT");
	addr_bad("[2001:db8::2:7000", 1, "missing ']'");
	addr_bad("[2001:db8::2]7000", 1, "expected ':PORT'");
	addr_bad(":7000", 1, "empty");
}

static void test_mac_events(void)
{
	char err[256];
	__u8 mac[6];
	__u32 ev;

	ASSERT_OK(bpfwire_parse_mac("aa:bb:cc:dd:ee:0f", mac), "parse MAC");
	ASSERT_EQ(mac[0] == 0xaa && mac[5] == 0x0f, 1, "MAC bytes");
	ASSERT_EQ(bpfwire_parse_mac("aa:bb:cc:dd:ee", mac), -1, "reject short MAC");
	ASSERT_EQ(bpfwire_parse_mac("aa:bb:cc:dd:ee:ff:00", mac), -1, "reject long MAC");
	ASSERT_EQ(bpfwire_parse_mac("aa:bb:cc:dd:ee:gg", mac), -1, "reject non-hex MAC");

	ASSERT_OK(bpfwire_parse_events("exec,open", &ev, err, sizeof(err)), "events exec,open");
	ASSERT_EQ(ev, BPFWIRE_EVF_EXEC | BPFWIRE_EVF_OPEN, "both bits");
	ASSERT_OK(bpfwire_parse_events("open", &ev, err, sizeof(err)), "events open");
	ASSERT_EQ(ev, BPFWIRE_EVF_OPEN, "open bit");
	ASSERT_EQ(bpfwire_parse_events("open,write", &ev, err, sizeof(err)), -1, "reject write");
	ASSERT_EQ(bpfwire_parse_events(",", &ev, err, sizeof(err)), -1, "reject empty list");
	ASSERT_OK(bpfwire_parse_sndbuf("65536", &ev, err, sizeof(err)), "parse sndbuf 65536");
	ASSERT_EQ(ev, 65536, "parsed sndbuf");
}

static void test_cli(void)
{
	struct agent_opts o;
	char err[256];

	/* The CLI as the lab calls it. */
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "[fe80::2%lo]:7000",
		      "--bind", "[fe80::1%lo]:5000", "--events", "open",
		      "--path-prefix", "/tmp/bw/", "--sender-id", "7", "-v"), "ksock CLI");
	ASSERT_EQ(o.cmd, CMD_INSTALL, "install command");
	ASSERT_EQ(o.via, BPFWIRE_VIA_KSOCK, "via ksock");
	ASSERT_EQ(o.dst.port, 7000, "dst port");
	ASSERT_EQ(o.bind.port, 5000, "bind port");
	ASSERT_EQ(o.sender_id, 7, "sender id");
	ASSERT_EQ(o.events, BPFWIRE_EVF_OPEN, "events");
	ASSERT_STREQ(o.prefix, "/tmp/bw/", "prefix");
	ASSERT_EQ(o.verbose, 1, "-v");
	ASSERT_EQ(o.sndbuf, 0, "no --sndbuf: the default buffer");

	/* --sndbuf (patch 0004): plain bytes, up to INT_MAX / 2 */
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000",
		      "--sndbuf", "8388608"), "--sndbuf 8388608");
	ASSERT_EQ(o.sndbuf, 8388608, "sndbuf bytes");
	ASSERT_OK(CLI(&o, err, "--sndbuf", "1073741823", "--via", "ksock", "--dst",
		      "192.0.2.2:7000"), "--sndbuf INT_MAX/2, before --via");
	ASSERT_EQ(o.sndbuf, 1073741823, "sndbuf at the bound");
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000",
		      "--sndbuf", "0"), "--sndbuf 0");
	ASSERT_EQ(o.sndbuf, 0, "--sndbuf 0 is the default");

	ASSERT_OK(CLI(&o, err, "--via", "netpoll", "--dst", "192.0.2.2:7000", "--dev", "lo",
		      "--remote-mac", "02:00:00:00:00:02"), "netpoll CLI");
	ASSERT_EQ(o.have_mac && o.mac[5] == 2, 1, "remote mac");
	ASSERT_EQ(o.events, BPFWIRE_EVF_EXEC | BPFWIRE_EVF_OPEN, "default events");
	ASSERT_EQ(o.sender_id, 1, "default sender id");

	ASSERT_EQ(o.dev_unchecked, 0, "--dev is checked by default");

	/* --dev-unchecked: a name unknown here goes to the kernel as is */
	ASSERT_OK(CLI(&o, err, "--via", "netpoll", "--dst", "192.0.2.2:7000",
		      "--dev", "nosuchif0", "--dev-unchecked",
		      "--remote-mac", "02:00:00:00:00:02"), "--dev-unchecked CLI");
	ASSERT_EQ(o.dev_unchecked, 1, "--dev-unchecked set");
	ASSERT_STREQ(o.dev, "nosuchif0", "--dev-unchecked keeps the name");
	ASSERT_OK(CLI(&o, err, "--via", "netpoll", "--dev-unchecked", "--dev", "lo",
		      "--dst", "192.0.2.2:7000"), "--dev-unchecked before --dev");
	ASSERT_EQ(o.dev_unchecked, 1, "--dev-unchecked in any order");

	ASSERT_OK(CLI(&o, err, "status", "--json"), "status --json");
	ASSERT_EQ(o.cmd == CMD_STATUS && o.json, 1, "status with json");
	ASSERT_OK(CLI(&o, err, "--json", "status", "netpoll"), "status netpoll");
	ASSERT_STREQ(o.only ? o.only : "", "netpoll", "status of one sender");
	ASSERT_OK(CLI(&o, err, "unload"), "unload");
	ASSERT_EQ(o.cmd, CMD_UNLOAD, "unload command");
	/* --help and --version win wherever they stand, even after a command. */
	ASSERT_OK(CLI(&o, err, "status", "netpoll", "--help"), "status netpoll --help");
	ASSERT_EQ(o.cmd, CMD_HELP, "--help after a command");
	ASSERT_OK(CLI(&o, err, "unload", "tcp", "--version"), "unload tcp --version");
	ASSERT_EQ(o.cmd, CMD_VERSION, "--version command");
}

static void test_cli_bad(void)
{
	struct agent_opts o;
	char err[256];

#define CLI_BAD(msg, ...) do {						\
		err[0] = 0;						\
		ASSERT_EQ(CLI(&o, err, __VA_ARGS__), -1, "reject " msg);	\
		ASSERT_HAS(err, msg, "message: " msg);			\
	} while (0)
	CLI_BAD("missing --via", "--dst", "192.0.2.2:7000");
	CLI_BAD("missing --dst", "--via", "ksock");
	CLI_BAD("bad --via 'tcp'", "--via", "tcp", "--dst", "192.0.2.2:7000");
	CLI_BAD("needs %IFACE", "--via", "ksock", "--dst", "[fe80::2]:7000");
	CLI_BAD("no interface 'nosuchif0' (--dev)", "--via", "netpoll", "--dst",
		"192.0.2.2:7000", "--dev", "nosuchif0");
	CLI_BAD("--dev is for --via netpoll", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--dev", "lo");
	CLI_BAD("--dev-unchecked needs --dev", "--via", "netpoll", "--dst",
		"192.0.2.2:7000", "--dev-unchecked");
	CLI_BAD("--dev-unchecked is for --via netpoll", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--dev-unchecked");
	CLI_BAD("takes no sender options", "status", "--dev-unchecked");
	CLI_BAD("bad --remote-mac", "--via", "netpoll", "--dst", "192.0.2.2:7000",
		"--remote-mac", "zz");
	CLI_BAD("not the same family", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--bind", "[2001:db8::1]:1");
	CLI_BAD("bad --sender-id", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--sender-id", "4294967296");
	CLI_BAD("at most 1073741823", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--sndbuf", "1073741824");
	CLI_BAD("at most 1073741823", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--sndbuf", "99999999999999999999");
	CLI_BAD("plain bytes only, no suffix", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--sndbuf", "8M");
	CLI_BAD("need a number of bytes", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--sndbuf", "-1");
	CLI_BAD("need a number of bytes", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--sndbuf", "");
	CLI_BAD("--sndbuf is for --via ksock only", "--via", "netpoll", "--dst",
		"192.0.2.2:7000", "--sndbuf", "65536");
	CLI_BAD("--sndbuf is for --via ksock only", "--via", "ringbuf", "--dst",
		"192.0.2.2:7000", "--sndbuf", "65536");
	CLI_BAD("takes no sender options", "status", "--sndbuf", "65536");
	CLI_BAD("unknown command 'stop': use status, unload or flush", "stop");
	CLI_BAD("takes no sender options", "status", "--via", "ksock");
	CLI_BAD("bad sender 'tcp'", "unload", "tcp");
#undef CLI_BAD
	/* cli_bad_option names these on stderr; -2 tells main not to say more. */
	ASSERT_EQ(CLI(&o, err, "--via", "ksock", "--frobnicate"), -2, "unknown option: -2");
	ASSERT_EQ(CLI(&o, err, "--dst", "192.0.2.2:7000", "--via"), -2, "missing value: -2");
	ASSERT_EQ(CLI(&o, err, "-x", "status"), -2, "unknown short option: -2");
}

static void test_key_cli(void)
{
	struct agent_opts o;
	char err[256];

	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000"), "no --key-file");
	ASSERT_EQ(o.key_id, 0, "no key: key id 0, v1 on the wire");
	ASSERT_EQ(o.key_file == NULL, 1, "no key file");
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000",
		      "--key-file", "/k"), "--key-file");
	ASSERT_EQ(o.key_id, 1, "default key id 1");
	ASSERT_STREQ(o.key_file, "/k", "key file path kept");
	ASSERT_OK(CLI(&o, err, "--via", "netpoll", "--dst", "192.0.2.2:7000", "--dev", "lo",
		      "--key-file", "/k", "--key-id", "255"), "--key-id 255");
	ASSERT_EQ(o.key_id, 255, "key id 255");

#define CLI_BAD(msg, ...) do {								err[0] = 0;								ASSERT_EQ(CLI(&o, err, __VA_ARGS__), -1, "reject " msg);			ASSERT_HAS(err, msg, "message: " msg);				} while (0)
	CLI_BAD("--key-id needs --key-file", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--key-id", "2");
	CLI_BAD("bad --key-id '0'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--key-file", "/k", "--key-id", "0");
	CLI_BAD("bad --key-id '256'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--key-file", "/k", "--key-id", "256");
	CLI_BAD("bad --key-id '-1'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--key-file", "/k", "--key-id", "-1");
	CLI_BAD("bad --key-file ''", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--key-file", "");
	CLI_BAD("takes no sender options", "status", "--key-file", "/k");
	/* --encrypt needs the key file; which sender is the install's call. */
	ASSERT_OK(CLI(&o, err, "--via", "ringbuf", "--dst", "192.0.2.2:7000",
		      "--key-file", "/k", "--encrypt"), "--encrypt");
	ASSERT_EQ(o.encrypt, 1, "--encrypt set");
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000",
		      "--key-file", "/k", "--encrypt"), "--encrypt with ksock parses");
	CLI_BAD("--encrypt needs --key-file FILE: 64 hex digits", "--via", "ringbuf", "--dst",
		"192.0.2.2:7000", "--encrypt");
	CLI_BAD("takes no sender options", "status", "--encrypt");
	CLI_BAD("--encrypt encrypts one event per datagram: drop --batch", "--via", "ksock",
		"--dst", "192.0.2.2:7000", "--key-file", "/k", "--encrypt", "--batch", "4");
#undef CLI_BAD
}

/* --batch N, --batch-age-ms MS and the flush command. */
static void test_batch_cli(void)
{
	struct agent_opts o;
	char err[512];

	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000"), "no --batch");
	ASSERT_EQ(o.batch, 1, "no --batch: one event per datagram");
	ASSERT_EQ(o.batch_age_ms, 0, "no --batch: no age");
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000", "--batch", "8"),
		  "--batch 8");
	ASSERT_EQ(o.batch, 8, "batch 8");
	ASSERT_EQ(o.batch_age_ms, 1000, "default age 1000 ms");
	ASSERT_OK(CLI(&o, err, "--batch-age-ms", "0", "--batch", "48", "--via", "ksock",
		      "--dst", "[2001:db8::2]:7000"), "--batch 48 (the most), age 0, any order");
	ASSERT_EQ(o.batch, BPFWIRE_BATCH_MAX, "batch 48 = BPFWIRE_BATCH_MAX");
	ASSERT_EQ(o.batch_age_ms, 0, "age 0: only when full");
	ASSERT_OK(CLI(&o, err, "--via", "ksock", "--dst", "192.0.2.2:7000", "--batch", "32",
		      "--batch-age-ms", "3600000"), "--batch-age-ms 3600000");
	ASSERT_EQ(o.batch_age_ms, 3600000, "age an hour");
	ASSERT_OK(CLI(&o, err, "--via", "netpoll", "--dst", "192.0.2.2:7000", "--dev", "lo",
		      "--batch", "1"), "--batch 1 on netpoll: no batching, allowed");
	ASSERT_OK(CLI(&o, err, "flush"), "flush");
	ASSERT_EQ(o.cmd, CMD_FLUSH, "flush command");
	ASSERT_OK(CLI(&o, err, "flush", "ksock"), "flush ksock");
	ASSERT_STREQ(o.only, "ksock", "flush names the sender");
	/* 48 shortest events (29 bytes) fill 1396 bytes; a 49th would not */
	ASSERT_EQ(BPFWIRE_BATCH_MAX * BPFWIRE_EVENT_MIN_LEN <= BPFWIRE_BATCH_PAYLOAD, 1,
		  "48 shortest events fit");
	ASSERT_EQ((BPFWIRE_BATCH_MAX + 1) * BPFWIRE_EVENT_MIN_LEN > BPFWIRE_BATCH_PAYLOAD, 1,
		  "49 do not");

#define CLI_BAD(msg, ...) do {						\
		err[0] = 0;						\
		ASSERT_EQ(CLI(&o, err, __VA_ARGS__), -1, "reject " msg);	\
		ASSERT_HAS(err, msg, "message: " msg);			\
	} while (0)
	CLI_BAD("bad --batch 49: at most 48 events fit in one 1452-byte datagram "
		"(56-byte header, 29-byte shortest event)", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--batch", "49");
	CLI_BAD("bad --batch '0': need 1..48", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "0");
	CLI_BAD("bad --batch '-8': need 1..48", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "-8");
	CLI_BAD("bad --batch '8x'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "8x");
	CLI_BAD("bad --batch '': need", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "");
	CLI_BAD("bad --batch 99999999999999999999: at most 48", "--via", "ksock", "--dst",
		"192.0.2.2:7000", "--batch", "99999999999999999999");
	CLI_BAD("--batch-age-ms needs --batch N", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch-age-ms", "100");
	CLI_BAD("bad --batch-age-ms '3600001'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "8", "--batch-age-ms", "3600001");
	CLI_BAD("bad --batch-age-ms '1s'", "--via", "ksock", "--dst", "192.0.2.2:7000",
		"--batch", "8", "--batch-age-ms", "1s");
	CLI_BAD("--batch 8 is for --via ksock only: netpoll's send is LSM-only",
		"--via", "netpoll", "--dst", "192.0.2.2:7000", "--dev", "lo", "--batch", "8");
	CLI_BAD("--batch 2 is for --via ksock only: ringbuf sends one event per datagram",
		"--via", "ringbuf", "--dst", "192.0.2.2:7000", "--batch", "2");
	CLI_BAD("takes no sender options", "flush", "--batch", "8");
	CLI_BAD("takes no sender options", "status", "--batch-age-ms", "8");
	CLI_BAD("bad sender 'tcp'", "flush", "tcp");
#undef CLI_BAD
}

int main(void)
{
	test_addrs();
	test_mac_events();
	test_cli();
	test_cli_bad();
	test_key_cli();
	test_batch_cli();
	return tap_done();
}
