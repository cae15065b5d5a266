/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The half every sender shares: the event sources and the datagram builder,
 * over sender_base.bpf.h's configuration, maps and counters. A sender defines
 *
 *	static __always_inline int bpfwire_xmit(__u8 *buf, __u32 len);
 *
 * (0 or a positive byte count on success, -errno on failure) and then
 * includes this file. The buffer lives on the stack (or, encrypting, in
 * the task's storage): the LSM programs are sleepable and bpf_ksock_send()
 * may sleep, so a per-CPU scratch buffer could be overwritten by another
 * task on the same CPU in the meantime.
 */
#ifndef BPFWIRE_SENDER_BPF_H
#define BPFWIRE_SENDER_BPF_H

#include "encode.h"
#include "sign.bpf.h"
#include "sender_base.bpf.h"

#ifndef BPFWIRE_NO_BATCH
#include "batch.bpf.h"
#endif
#ifndef BPFWIRE_NO_ENCRYPT
#include "encrypt.bpf.h"
#endif

/*
 * One event into buf (BPFWIRE_SIGN_BUF bytes, 8-aligned, the caller's),
 * then onto the wire; encrypted when enc, the task storage that buf is in
 * (NULL, a constant, on the stack path: each caller gets only its own
 * path). t_hook: the hook's entry, where the benchmark measures
 * hook-to-wire from.
 */
static __always_inline int bpfwire_event(__u8 *buf, __u8 type, const struct path *path,
					 __u64 t_hook, void *enc)
{
	struct bpfwire_key *key_val;
	struct bpfwire_stats *s;
	struct bpfwire_state *st;
	__u32 key = 0, path_len, len, i;
	__u64 seq;
	int ret;

	s = bpf_map_lookup_elem(&stats, &key);
	st = bpf_map_lookup_elem(&state, &key);
	key_val = bpf_map_lookup_elem(&sign_key, &key);
	if (!s || !st || !key_val)
		return 0;

	__builtin_memset(buf, 0, BPFWIRE_SIGN_BUF);
	/* 7.x's file->f_path is const; the helper's declaration is not. */
	ret = bpf_d_path((struct path *)path, (char *)buf + OFF_PATH, BPFWIRE_PATH_MAX);
	if (ret <= 0 || ret > BPFWIRE_PATH_MAX) {
		/* A path we cannot read can only be filtered when no prefix is set. */
		if (cfg.prefix_len == 0) {
			__sync_fetch_and_add(&s->events, 1);
			bpfwire_count_err(s, ret < 0 ? ret : -ENAMETOOLONG);
			__sync_fetch_and_add(&s->events_failed, 1);
		}
		return 0;
	}
	path_len = ret - 1;	/* without the NUL */

	if (path_len < cfg.prefix_len)
		return 0;
	for (i = 0; i < BPFWIRE_PATH_MAX; i++) {
		if (i >= cfg.prefix_len)
			break;
		if (buf[OFF_PATH + i] != (__u8)cfg.prefix[i])
			return 0;
	}
	/* d_path leaves bytes after the NUL: the wire carries none of them. */
	buf[OFF_PATH + path_len] = 0;

	__sync_fetch_and_add(&s->events, 1);

	bpf_get_current_comm(buf + OFF_COMM, BPFWIRE_COMM_LEN);
	bpfwire_put32(buf + OFF_PAYLOAD, bpf_get_current_pid_tgid() >> 32);
	bpfwire_put32(buf + OFF_PAYLOAD + 4, (__u32)bpf_get_current_uid_gid());
	bpfwire_put16(buf + OFF_PAYLOAD + 24, path_len);
#ifndef BPFWIRE_NO_BATCH
	/* --batch: the event joins the shared batch; seq goes per datagram. */
	if (cfg.batch > 1) {
		bpfwire_batch_event(type, buf + OFF_PAYLOAD,
				    BPFWIRE_EVENT_FIXED_LEN + path_len, t_hook, s, st,
				    key_val->k);
		return 0;
	}
#endif
	len = OFF_PATH + path_len;
	seq = __sync_add_and_fetch(&st->seq, 1);

	/* cfg is .rodata: the verifier follows only the branch in use. */
#ifndef BPFWIRE_NO_ENCRYPT
	if (enc) {
		/* Encrypt, then MAC: v3's header, check and tag over the ciphertext. */
		ret = bpfwire_encrypt_payload(enc, len - OFF_PAYLOAD, seq);
		if (ret) {
			bpfwire_count_err(s, ret);
			__sync_fetch_and_add(&s->events_failed, 1);
			return 0;
		}
		bpfwire_put_hdr_v3(buf, type, cfg.sender_id, len - BPFWIRE_HDR_LEN_V2,
				   seq, t_hook, cfg.key_id, cfg.epoch);
		bpfwire_seal(buf, len);
		bpfwire_put_tag(buf, bpfwire_siphash_bpf(key_val->k, buf, len));
		ret = bpfwire_xmit(buf, len);
	} else
#endif
	if (cfg.key_id) {
		bpfwire_put_hdr_v2(buf, type, cfg.sender_id, len - BPFWIRE_HDR_LEN_V2,
				   seq, t_hook, cfg.key_id, cfg.epoch);
		bpfwire_seal(buf, len);
		bpfwire_put_tag(buf, bpfwire_siphash_bpf(key_val->k, buf, len));
		ret = bpfwire_xmit(buf, len);
	} else {
		len -= OFF_V1;
		bpfwire_put_hdr(buf + OFF_V1, type, cfg.sender_id, len - BPFWIRE_HDR_LEN,
				seq, t_hook);
		bpfwire_seal(buf + OFF_V1, len);
		ret = bpfwire_xmit(buf + OFF_V1, len);
	}
	bpfwire_count_sent(s, ret, len, 1);
	return 0;
}

/* The datagram on the stack: every sender but an encrypting one. */
static __noinline int bpfwire_event_stack(__u8 type, const struct path *path, __u64 t_hook)
{
	__u8 buf[BPFWIRE_SIGN_BUF] __attribute__((aligned(8)));

	return bpfwire_event(buf, type, path, t_hook, NULL);
}

/*
 * --encrypt: the datagram in the task's storage (encrypt.bpf.h), since
 * the stack cannot hold it beside the crypto kfunc's two dynptrs. Each
 * function is a subprog of its own, so neither's frame adds to the other.
 */
#ifndef BPFWIRE_NO_ENCRYPT
static __noinline int bpfwire_event_enc(__u8 type, const struct path *path, __u64 t_hook)
{
	struct bpfwire_enc_task *t = bpfwire_enc_task_get();
	struct bpfwire_stats *s;
	__u32 key = 0;

	if (t)
		return bpfwire_event(t->dgram, type, path, t_hook, t);
	s = bpf_map_lookup_elem(&stats, &key);
	if (s) {	/* no storage: the event is lost, and counted */
		__sync_fetch_and_add(&s->events, 1);
		bpfwire_count_err(s, -ENOMEM);
		__sync_fetch_and_add(&s->events_failed, 1);
	}
	return 0;
}
#endif

static __always_inline void bpfwire_hook(__u8 type, const struct path *path)
{
	__u64 t_hook = bpf_ktime_get_ns();

#ifndef BPFWIRE_NO_ENCRYPT
	if (bpfwire_encrypting()) {
		bpfwire_event_enc(type, path, t_hook);
		return;
	}
#endif
	bpfwire_event_stack(type, path, t_hook);
}

SEC("lsm.s/bprm_check_security")
int BPF_PROG(bpfwire_exec, struct linux_binprm *bprm)
{
	if (cfg.events & BPFWIRE_EVF_EXEC)
		bpfwire_hook(BPFWIRE_EV_EXEC, &bprm->file->f_path);
	return 0;
}

SEC("lsm.s/file_open")
int BPF_PROG(bpfwire_open, struct file *file)
{
	if (cfg.events & BPFWIRE_EVF_OPEN)
		bpfwire_hook(BPFWIRE_EV_OPEN, &file->f_path);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

#endif /* BPFWIRE_SENDER_BPF_H */
