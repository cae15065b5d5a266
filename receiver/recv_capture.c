// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv's inputs: a saved capture (--read), or live mode with a
 * UDP socket and a libpcap capture of the same port, run until a stop condition.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "recv_capture.h"
#include "recv_run.h"

static volatile sig_atomic_t stop_flag;
static pcap_t *offline_pcap;	/* for pcap_breakloop from the handler */

void recv_on_signal(int sig)
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

/* ---- per-datagram log lines ---- */

void fmt_addr(uint8_t family, const uint8_t *a, char *buf, size_t len)
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
	case BPFW_SEQ_OLD: return "old";
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
	if (in->wire && (in->wire->version == BPFWIRE_VERSION_2 ||
			 in->wire->version == BPFWIRE_VERSION_3)) {
		char ep[20];

		snprintf(ep, sizeof(ep), "%016llx", (unsigned long long)in->wire->epoch);
		json_object_object_add(o, "epoch", json_object_new_string(ep));
		json_object_object_add(o, "n_events", json_object_new_int(in->wire->n_events));
		json_object_object_add(o, "signed", json_object_new_boolean(
			in->wire->flags & BPFWIRE_F_SIGNED));
		json_object_object_add(o, "key_id", json_object_new_int(in->wire->key_id));
		json_object_object_add(o, "encrypted", json_object_new_boolean(
			in->wire->encrypted));
		json_object_object_add(o, "decrypted", json_object_new_boolean(
			in->wire->decrypted));
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

int run_offline(struct run *run)
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

uint64_t total_received(struct bpfw_senders *s)
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

int run_live(struct run *run)
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
