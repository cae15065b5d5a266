// SPDX-License-Identifier: GPL-2.0-only
/* The sender loaders' shared steps; see loader.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "kapi.h"
#include "keyfile.h"
#include "loader.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

const char *kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "unknown";
	return u.release;
}

int sender_read_api(const struct agent_opts *o, struct kapi *k, char *what, size_t len)
{
	char err[512];

	if (o->btf)
		snprintf(what, len, "BTF %s", o->btf);
	else
		snprintf(what, len, "kernel %s", kernel_release());
	if (kapi_detect_file(o->btf, k, err, sizeof(err))) {
		pr_warn("%s: can't tell the kernel's kfunc API", err);
		return -1;
	}
	pr_debug("%s: ksock API %s%s, netpoll %s", what, kapi_ksock_name(k->ksock),
		 k->ksock_sndbuf ? " with the sndbuf extension" : "", kapi_netpoll_name(k->netpoll));
	return 0;
}

int sender_fill_cfg(const struct agent_opts *o, struct bpfwire_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sender_id = o->sender_id;
	cfg->events = o->events;
	cfg->prefix_len = strlen(o->prefix);
	memcpy(cfg->prefix, o->prefix, cfg->prefix_len);
	cfg->family = o->dst.family;
	memcpy(cfg->dst_addr, o->dst.addr, 16);
	cfg->dst_port = o->dst.port;
	cfg->scope_id = o->dst.scope_id;
	cfg->sndbuf = o->sndbuf;
	if (o->bind.family) {
		cfg->has_bind = 1;
		memcpy(cfg->src_addr, o->bind.addr, 16);
		cfg->src_port = o->bind.port;
		if (o->bind.scope_id)
			cfg->scope_id = o->bind.scope_id;
	}
	snprintf(cfg->dev, sizeof(cfg->dev), "%s", o->dev);
	memcpy(cfg->remote_mac, o->mac, 6);
	cfg->key_id = o->key_id;
	/* --batch: v2 carries n_events, so a batch is v2 even without a key. */
	cfg->batch = o->batch > 1 ? o->batch : 0;
	cfg->batch_age_ms = o->batch_age_ms;
	cfg->wire_version = o->key_id || cfg->batch ? BPFWIRE_VERSION_2 : BPFWIRE_VERSION;
	/* --encrypt: the programs still build signed v2; ringbuf's agent makes it v3. */
	if (o->encrypt)
		cfg->wire_version = BPFWIRE_VERSION_3;
	/*
	 * A new epoch per install: a reinstalled sender restarts at seq 1. The
	 * epoch is also half of v3's counter block, so a new one per install
	 * is what keeps a reinstall's (epoch, seq) from repeating a keystream.
	 */
	if (cfg->wire_version >= BPFWIRE_VERSION_2 && getrandom(&cfg->epoch, sizeof(cfg->epoch), 0) != sizeof(cfg->epoch)) {
		pr_warn("couldn't choose the sender's epoch: getrandom: %s",
			errno_str(-errno));
		return -1;
	}
	return 0;
}

int sender_set_key(struct sender *s, const struct agent_opts *o)
{
	struct bpf_map *map = bpf_object__find_map_by_name(s->obj, "sign_key");
	__u8 key[BPFWIRE_KEY_LEN];
	char err[512];
	__u32 k = 0;
	int fd, ret = -1;

	if (!o->key_file)
		return 0;
	if (!map) {
		pr_warn("couldn't find map sign_key in the %s sender", bpfwire_via_name(s->via));
		return -1;
	}
	if (key_file_read(o->key_file, key, err, sizeof(err))) {
		pr_warn("%s", err);
		return -1;
	}
	fd = bpf_map__fd(map);
	/* Frozen right after the write: no later syscall can change it. */
	if (bpf_map_update_elem(fd, &k, key, 0))
		pr_warn("couldn't write the key into map sign_key: %s", errno_str(-errno));
	else if (bpf_map_freeze(fd))
		pr_warn("couldn't freeze map sign_key: %s", errno_str(-errno));
	else
		ret = 0;
	explicit_bzero(key, sizeof(key));
	if (!ret)
		pr_debug("key %u of %s in map sign_key, frozen", o->key_id, o->key_file);
	return ret;
}

int sender_load(struct sender *s, int (*load)(void *skel), void *skel)
{
	struct bpf_program *p;
	int err;

	/* -vvv: the verifier's statistics for every program (BPF_LOG_STATS). */
	if (log_level >= LOG_TRACE)
		bpf_object__for_each_program(p, s->obj)
			bpf_program__set_log_level(p, 4);
	err = load(skel);

	if (err) {
		pr_warn("couldn't load the %s sender: %s%s",
			bpfwire_via_name(s->via), errno_str(err), log_level < LOG_INFO ?
			"; rerun with -v for libbpf's and the verifier's log" : "");
		return -1;
	}
	pr_debug("loaded the %s sender", bpfwire_via_name(s->via));
	return 0;
}

int sender_run_setup(struct sender *s, const char *name, int *retval)
{
	return sender_run_setup_ctx(s, name, NULL, 0, retval);
}

int sender_run_setup_ctx(struct sender *s, const char *name, const void *ctx,
			 size_t ctx_len, int *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, ropts, .ctx_in = ctx, .ctx_size_in = (__u32)ctx_len);
	struct bpf_program *prog = bpf_object__find_program_by_name(s->obj, name);
	int err;

	if (!prog) {
		pr_warn("couldn't find program %s in the %s sender", name,
			bpfwire_via_name(s->via));
		return -1;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &ropts);
	if (err) {
		pr_warn("couldn't run %s: %s", name, errno_str(-errno));
		return -1;
	}
	*retval = (int)ropts.retval;
	return 0;
}

/*
 * Whether an LSM program may call kfunc: the verifier checks that first,
 * before any argument, so a three-instruction program that calls it says
 * so in its log ("... is not allowed") or fails later for its arguments.
 * 1 allowed, 0 not, -1 after a message (no such kfunc, or no BTF).
 */
static int lsm_kfunc_allowed(const char *kfunc)
{
	LIBBPF_OPTS(bpf_prog_load_opts, po, .expected_attach_type = BPF_LSM_MAC,
		    .log_level = 1);
	struct btf *btf = btf__load_vmlinux_btf();
	struct bpf_insn insn[4] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[4096] = "", bad[128];
	int fn, hook, fd;

	if (!btf) {
		pr_warn("couldn't read the kernel's BTF: %s", errno_str(-errno));
		return -1;
	}
	fn = btf__find_by_name_kind(btf, kfunc, BTF_KIND_FUNC);
	hook = btf__find_by_name_kind(btf, "bpf_lsm_file_open", BTF_KIND_FUNC);
	btf__free(btf);
	if (fn < 0 || hook < 0) {
		pr_warn("kernel %s has no %s in its BTF: --encrypt needs the BPF crypto kfuncs "
			"(CONFIG_CRYPTO_SKCIPHER) and BPF LSM", kernel_release(),
			fn < 0 ? kfunc : "bpf_lsm_file_open");
		return -1;
	}
	insn[1].imm = fn;
	po.attach_btf_id = hook;
	po.log_buf = log;
	po.log_size = sizeof(log);
	fd = bpf_prog_load(BPF_PROG_TYPE_LSM, "bpfwire_probe", "GPL", insn, 4, &po);
	if (fd >= 0)
		close(fd);
	snprintf(bad, sizeof(bad), "calling kernel function %s is not allowed", kfunc);
	return strstr(log, bad) ? 0 : 1;
}

int sender_check_encrypt(const struct agent_opts *o)
{
	int r;

	if (!o->encrypt)
		return 0;
	if (o->btf) {
		pr_info("--btf: whether LSM programs may call bpf_crypto_encrypt is the "
			"running kernel's to say, not its BTF's; not checked");
		return 0;
	}
	r = lsm_kfunc_allowed("bpf_crypto_encrypt");
	if (r < 0)
		return -1;
	if (!r) {
		pr_warn("--encrypt: kernel %s does not let LSM programs call bpf_crypto_encrypt "
			"(bpfwire's kernel/patches/crypto is missing); nothing loaded. "
			"--via ringbuf encrypts in the agent", kernel_release());
		return -1;
	}
	return 0;
}

int sender_set_enc_key(struct sender *s, const struct agent_opts *o)
{
	struct key_pair k;
	char err[512];
	int rv, ret = -1;

	if (!o->encrypt)
		return 0;
	if (key_file_read_pair(o->key_file, &k, err, sizeof(err))) {
		pr_warn("%s", err);
		return -1;
	}
	if (!k.has_enc) {
		pr_warn("--encrypt needs an encryption key: key file %s has 32 hex digits "
			"(a MAC key alone); give 64, the MAC key then the encryption key",
			o->key_file);
	} else if (!sender_run_setup_ctx(s, "bpfwire_crypto_setup", k.enc, sizeof(k.enc), &rv)) {
		if (rv)
			pr_warn("couldn't make the AES context (ecb(aes), from key file %s): %s",
				o->key_file, errno_str(rv));
		else
			ret = 0;
	}
	explicit_bzero(&k, sizeof(k));
	if (!ret)
		pr_debug("encryption key of %s in the %s sender's AES context",
			 o->key_file, bpfwire_via_name(s->via));
	return ret;
}

int sender_write_info(struct sender *s, const struct agent_opts *o,
		      const struct bpfwire_cfg *cfg)
{
	struct bpf_map *map = bpf_object__find_map_by_name(s->obj, "info");
	struct bpfwire_info info = { 0 };
	__u32 key = 0;

	info.via = s->via;
	info.agent_pid = s->via == BPFWIRE_VIA_RINGBUF ? getpid() : 0;
	info.installed_unix = time(NULL);
	snprintf(info.dst, sizeof(info.dst), "%s", o->dst_text);
	snprintf(info.bind, sizeof(info.bind), "%s", o->bind_text ? o->bind_text : "");
	info.cfg = *cfg;
	if (!map || bpf_map_update_elem(bpf_map__fd(map), &key, &info, 0)) {
		pr_warn("couldn't write map info: %s", errno_str(-errno));
		return -1;
	}
	return 0;
}

int sender_attach(struct sender *s, __u32 events)
{
	static const char *const progs[2] = { "bpfwire_exec", "bpfwire_open" };
	static const char *const hooks[2] = { "bprm_check_security", "file_open" };
	int i;

	for (i = 0; i < 2; i++) {
		struct bpf_program *p;

		if (!(events & (1u << i)))
			continue;
		p = bpf_object__find_program_by_name(s->obj, progs[i]);
		s->links[i] = p ? bpf_program__attach_lsm(p) : NULL;
		if (!s->links[i]) {
			pr_warn("couldn't attach sender to lsm/%s: %s", hooks[i],
				errno_str(-errno));
			return -1;
		}
	}
	return 0;
}

int sender_pin_dir(struct sender *s)
{
	const char *via = bpfwire_via_name(s->via);
	struct statfs sfs;
	char dir[PATH_MAX];

	if (statfs("/sys/fs/bpf", &sfs) || sfs.f_type != BPF_FS_MAGIC) {
		pr_warn("/sys/fs/bpf is not a bpf filesystem: mount -t bpf bpf /sys/fs/bpf");
		return -1;
	}
	if (mkdir(BPFWIRE_PIN_ROOT, 0700) && errno != EEXIST) {
		pr_warn("couldn't create %s: %s", BPFWIRE_PIN_ROOT, errno_str(-errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), BPFWIRE_PIN_ROOT "/%s", via);
	if (mkdir(dir, 0700)) {
		if (errno == EEXIST)
			pr_warn("a %s sender is already installed at %s: run "
				"'bpfwire-agent unload %s' first", via, dir, via);
		else
			pr_warn("couldn't create %s: %s", dir, errno_str(-errno));
		return -1;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	return 0;
}

int sender_pin(struct sender *s, const char *const *maps, int pin_links)
{
	static const char *const names[2] = { "exec", "open" };
	char path[PATH_MAX + 32];
	int i, err;

	for (i = 0; maps[i]; i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(s->obj, maps[i]);

		snprintf(path, sizeof(path), "%s/%s", s->dir, maps[i]);
		err = m ? bpf_map__pin(m, path) : -ENOENT;
		if (err) {
			pr_warn("couldn't pin map %s at %s: %s", maps[i], path,
				errno_str(err));
			return -1;
		}
	}
	/* --batch: the open batch (status counts it) and its flush program. */
	if (pin_links && bpf_object__find_map_by_name(s->obj, "batch")) {
		struct bpf_map *m = bpf_object__find_map_by_name(s->obj, "batch");
		struct bpf_program *p = bpf_object__find_program_by_name(s->obj, "bpfwire_flush");

		snprintf(path, sizeof(path), "%s/batch", s->dir);
		err = bpf_map__pin(m, path);
		if (!err && p) {
			snprintf(path, sizeof(path), "%s/prog_flush", s->dir);
			err = bpf_program__pin(p, path);
		}
		if (err) {
			pr_warn("couldn't pin %s: %s", path, errno_str(err));
			return -1;
		}
	}
	for (i = 0; pin_links && i < 2; i++) {
		struct bpf_program *p;

		if (!s->links[i])
			continue;
		snprintf(path, sizeof(path), "%s/prog_%s", s->dir, names[i]);
		p = bpf_object__find_program_by_name(s->obj, i ? "bpfwire_open" : "bpfwire_exec");
		err = bpf_program__pin(p, path);
		if (err) {
			pr_warn("couldn't pin program at %s: %s", path, errno_str(err));
			return -1;
		}
		snprintf(path, sizeof(path), "%s/link_%s", s->dir, names[i]);
		err = bpf_link__pin(s->links[i], path);
		if (err) {
			pr_warn("couldn't pin link at %s: %s", path, errno_str(err));
			return -1;
		}
	}
	return 0;
}

int pin_dir_remove(const char *dir)
{
	struct dirent *de;
	char path[PATH_MAX + 256];
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path)) {
			ret = -errno;
			pr_warn("couldn't unpin %s: %s", path, errno_str(ret));
		}
	}
	closedir(d);
	if (rmdir(dir) && !ret) {
		ret = -errno;
		pr_warn("couldn't remove %s: %s", dir, errno_str(ret));
	}
	return ret;
}

void sender_unpin(struct sender *s)
{
	if (!s->dir[0])
		return;
	if (!pin_dir_remove(s->dir))
		pr_info("removed %s", s->dir);
	rmdir(BPFWIRE_PIN_ROOT);	/* only when empty */
	s->dir[0] = 0;
}
