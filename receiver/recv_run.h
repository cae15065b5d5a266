// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv's run: the options and state every part shares. The parts
 * have a header each: options (recv_opts.h), the two inputs, capture and
 * socket (recv_capture.h), the expectations and the verdict line
 * (recv_verdict.h), and the JSON summary (recv_json.h).
 */
#ifndef BPFWIRE_RECV_RUN_H
#define BPFWIRE_RECV_RUN_H

#include <json-c/json.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

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

struct checks {
	json_object *list;
	json_object *failed;
	char line[512];		/* failed names for the human line */
	size_t off;
};

/* "couldn't ...: Text (ENAME, -N)", the common form of every error. */
#define pr_errno(err, fmt, ...) \
	pr_warn(fmt ": %s", ##__VA_ARGS__, errno_str(err))

/* A side's counts summed over its senders (side_totals(), recv_verdict.h). */
struct totals {
	uint64_t received, lost, duplicates, replays, reordered;
};

#endif
