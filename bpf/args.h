/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent command line and address parsing: no BPF, no kernel. */
#ifndef BPFWIRE_ARGS_H
#define BPFWIRE_ARGS_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include "sender.h"

struct bpfwire_addr {
	int   family;		/* AF_INET or AF_INET6; 0: not set */
	__u8  addr[16];		/* network order */
	__u16 port;
	__u32 scope_id;		/* ifindex of %iface, link-local only */
	char  ifname[16];	/* %iface as given */
};

enum bpfwire_cmd { CMD_INSTALL, CMD_STATUS, CMD_UNLOAD, CMD_FLUSH, CMD_HELP, CMD_VERSION };

struct agent_opts {
	enum bpfwire_cmd cmd;
	enum bpfwire_via via;		/* 0: not given */
	struct bpfwire_addr dst;
	struct bpfwire_addr bind;	/* family 0: no --bind */
	char  dev[16];
	int   dev_unchecked;		/* --dev-unchecked: no if_nametoindex check */
	__u32 events;			/* BPFWIRE_EVF_* */
	char  prefix[BPFWIRE_PATH_MAX];
	__u32 sender_id;
	__u32 sndbuf;			/* --sndbuf BYTES, ksock; 0: default */
	const char *key_file;		/* --key-file: sign, send v2; NULL: v1 */
	__u32 key_id;			/* --key-id 1..255 (default 1); 0: no key */
	int   encrypt;			/* --encrypt: wire v3 (needs --key-file) */
	__u32 batch;			/* --batch 1..BPFWIRE_BATCH_MAX; 1: none */
	__u32 batch_age_ms;		/* --batch-age-ms; 0: no age limit */
	__u8  mac[6];
	int   have_mac;
	int   json;
	int   verbose;
	const char *dst_text;		/* argv strings, for messages */
	const char *bind_text;
	const char *only;		/* status/unload VIA */
	const char *btf;		/* --btf FILE: check the API against it, load nothing */
};

/*
 * Each returns 0, or -1 with a message in err: what is wrong with which
 * input, e.g. "link-local fe80::2 needs %IFACE, as in [fe80::2%eth0]:7000".
 */
int bpfwire_parse_addr(const char *s, int need_port, struct bpfwire_addr *a,
		       char *err, size_t errlen);
int bpfwire_parse_mac(const char *s, __u8 mac[6]);
int bpfwire_parse_events(const char *s, __u32 *events, char *err, size_t errlen);
int bpfwire_parse_via(const char *s, enum bpfwire_via *via);
int bpfwire_parse_sndbuf(const char *s, __u32 *bytes, char *err, size_t errlen);
int bpfwire_parse_key_id(const char *s, __u32 *id, char *err, size_t errlen);
/* --batch N: 1..BPFWIRE_BATCH_MAX (wire.h). --batch-age-ms MS: 0..3600000. */
int bpfwire_parse_batch(const char *s, __u32 *n, char *err, size_t errlen);
int bpfwire_parse_batch_age(const char *s, __u32 *ms, char *err, size_t errlen);
const char *bpfwire_via_name(__u32 via);
void bpfwire_events_str(__u32 events, char *buf, size_t len);
/* [v6%if]:port or v4:port; no port when port < 0 */
void bpfwire_fmt_addr(const struct bpfwire_addr *a, int port, char *buf, size_t len);
void bpfwire_fmt_mac(const __u8 mac[6], char *buf, size_t len);

/*
 * 0; -1 with a message in err; -2 for an unknown option or a missing value,
 * already named on stderr by cli_bad_option (common/cli.h).
 */
int bpfwire_parse_cli(int argc, char **argv, struct agent_opts *o,
		      char *err, size_t errlen);
void bpfwire_usage(FILE *f);

#endif /* BPFWIRE_ARGS_H */
