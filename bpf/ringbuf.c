// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-agent --via ringbuf, the status quo: the BPF programs queue ready
 * datagrams on a ring buffer and this process forwards each with send().
 * It stays in the foreground; its programs detach when it dies. The maps
 * stay pinned so that status works during and after the run.
 * --encrypt: the programs still sign v2; each record is made wire v3 here
 * (common/wirecrypt.h, libcrypto) before send(), so this process holds
 * both keys for its lifetime.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include "ringbuf.h"
#include "keyfile.h"
#include "loader.h"
#include "wirecrypt.h"
#include "ringbuf.bpf.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct fwd {
	int fd;
	struct bpfwire_stats *u;	/* mmapped map ustats */
	int encrypt;			/* --encrypt: keys below */
	struct key_pair keys;
	int warned;
};

static void count_failed(struct fwd *f, int err)
{
	int e = err < BPFWIRE_ERRNO_SLOTS ? err : 0;

	__atomic_fetch_add(&f->u->failed, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->u->err[e], 1, __ATOMIC_RELAXED);
}

/*
 * The record, as wire v3 in buf (the ring's pages are read-only to us).
 * A record that cannot be encrypted is counted and never sent in the clear.
 */
static int encrypt_record(struct fwd *f, const void *data, size_t size,
			  __u8 *buf, size_t cap)
{
	char err[160];

	if (size > cap) {
		snprintf(err, sizeof(err), "a record of %zu bytes, over %zu", size, cap);
	} else {
		memcpy(buf, data, size);
		if (!wire_encrypt_datagram(buf, size, f->keys.mac, f->keys.enc, err,
					   sizeof(err)))
			return 0;
	}
	if (!f->warned++)
		pr_warn("couldn't encrypt a ringbuf record, not sent (counted under "
			"EPROTO): %s", err);
	count_failed(f, EPROTO);
	return -1;
}

static int forward(void *ctx, void *data, size_t size)
{
	struct fwd *f = ctx;
	__u8 buf[BPFWIRE_MAX_DATAGRAM];
	ssize_t n;

	if (f->encrypt) {
		if (encrypt_record(f, data, size, buf, sizeof(buf)))
			return 0;
		data = buf;
	}
	n = send(f->fd, data, size, 0);
	if (n < 0) {
		count_failed(f, errno);
	} else {
		__atomic_fetch_add(&f->u->sent, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&f->u->bytes, size, __ATOMIC_RELAXED);
	}
	return 0;
}

static int open_socket(const struct agent_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = socket(o->dst.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	char txt[96];

	if (fd < 0) {
		pr_warn("couldn't create a UDP socket: %s", errno_str(-errno));
		return -1;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct bpfwire_addr *a = pass ? &o->dst : &o->bind;

		if (!a->family)
			continue;
		memset(&ss, 0, sizeof(ss));
		if (a->family == AF_INET) {
			struct sockaddr_in *s4 = (void *)&ss;

			s4->sin_family = AF_INET;
			s4->sin_port = htons(a->port);
			memcpy(&s4->sin_addr, a->addr, 4);
			len = sizeof(*s4);
		} else {
			struct sockaddr_in6 *s6 = (void *)&ss;

			s6->sin6_family = AF_INET6;
			s6->sin6_port = htons(a->port);
			s6->sin6_scope_id = a->scope_id;
			memcpy(&s6->sin6_addr, a->addr, 16);
			len = sizeof(*s6);
		}
		bpfwire_fmt_addr(a, a->port, txt, sizeof(txt));
		if ((pass ? connect : bind)(fd, (struct sockaddr *)&ss, len)) {
			pr_warn("couldn't %s socket to %s: %s", pass ? "connect" : "bind",
				txt, errno_str(-errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int load(void *skel)
{
	return bpfwire_ringbuf__load(skel);
}

int run_ringbuf(const struct agent_opts *o)
{
	static const char *const maps[] = { "stats", "state", "info", "ustats", NULL };
	struct sender s = { .via = BPFWIRE_VIA_RINGBUF };
	struct bpfwire_ringbuf *skel;
	struct ring_buffer *rb = NULL;
	struct fwd f = { .fd = -1, .u = MAP_FAILED };
	struct sigaction sa = { .sa_handler = on_signal };
	struct bpfwire_cfg cfg;
	char dst[96], ev[16];
	size_t usz = sizeof(struct bpfwire_stats);
	int ret = -1, err;

	bpfwire_fmt_addr(&o->dst, o->dst.port, dst, sizeof(dst));
	if (o->encrypt) {
		char err[512];

		if (key_file_read_pair(o->key_file, &f.keys, err, sizeof(err))) {
			pr_warn("%s", err);
			return -1;
		}
		if (!f.keys.has_enc) {
			pr_warn("--encrypt needs an encryption key: key file %s has 32 hex digits "
				"(a MAC key alone); give 64, the MAC key then the encryption key",
				o->key_file);
			explicit_bzero(&f.keys, sizeof(f.keys));
			return -1;
		}
		f.encrypt = 1;
	}
	f.fd = open_socket(o);
	if (f.fd < 0) {
		explicit_bzero(&f.keys, sizeof(f.keys));
		return -1;
	}
	skel = bpfwire_ringbuf__open();
	if (!skel) {
		pr_warn("couldn't open the ringbuf sender: %s", errno_str(-errno));
		goto out;
	}
	s.obj = skel->obj;
	if (sender_fill_cfg(o, &cfg))
		goto out;
	skel->rodata->cfg = cfg;
	if (sender_load(&s, load, skel) || sender_set_key(&s, o) ||
	    sender_write_info(&s, o, &cfg))
		goto out;
	usz = (usz + 4095) & ~(size_t)4095;
	f.u = mmap(NULL, usz, PROT_READ | PROT_WRITE, MAP_SHARED,
		   bpf_map__fd(skel->maps.ustats), 0);
	if (f.u == MAP_FAILED) {
		pr_warn("couldn't mmap map ustats: %s", errno_str(-errno));
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.rb), forward, &f, NULL);
	if (!rb) {
		pr_warn("couldn't open ring buffer rb: %s", errno_str(-errno));
		goto out;
	}
	if (sender_pin_dir(&s) || sender_pin(&s, maps, 0))
		goto out;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sender_attach(&s, o->events))
		goto out;
	bpfwire_events_str(o->events, ev, sizeof(ev));
	printf("bpfwire-agent: ringbuf sender %u forwarding%s: %s -> %s, counters at %s\n",
	       o->sender_id, f.encrypt ? " encrypted (wire v3)" : "", ev, dst, s.dir);
	fflush(stdout);

	while (!stop) {
		err = ring_buffer__poll(rb, 200);
		if (err < 0 && err != -EINTR) {
			pr_warn("couldn't poll ring buffer rb: %s", errno_str(err));
			goto out;
		}
	}
	/* Detach first, then forward what is already queued. */
	bpf_link__destroy(s.links[0]);
	bpf_link__destroy(s.links[1]);
	s.links[0] = s.links[1] = NULL;
	ring_buffer__consume(rb);
	pr_info("stopped: sent %llu, failed %llu", (unsigned long long)f.u->sent,
		(unsigned long long)f.u->failed);
	ret = 0;
out:
	/* A failed start unpins; a clean stop leaves the counters for status. */
	if (ret)
		sender_unpin(&s);
	bpf_link__destroy(s.links[0]);
	bpf_link__destroy(s.links[1]);
	ring_buffer__free(rb);
	if (f.u != MAP_FAILED)
		munmap(f.u, usz);
	bpfwire_ringbuf__destroy(skel);
	if (f.fd >= 0)
		close(f.fd);
	explicit_bzero(&f.keys, sizeof(f.keys));
	return ret;
}
