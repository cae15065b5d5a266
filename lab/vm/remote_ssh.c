// SPDX-License-Identifier: GPL-2.0-only
/*
 * Commands on a remote host over the OpenSSH client: `ssh -o BatchMode=yes`
 * run in the underlay netns, host keys checked strictly (known_hosts comes
 * from the user or from --ssh-config). exec, spawn, wait, link, fetch.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "lab-config.h"
#include "log.h"
#include "model.h"
#include "netns.h"
#include "proc.h"
#include "qga.h"
#include "remote_ssh.h"
#include "timeutil.h"
#include "util.h"

void ssh_argv(const struct lab_run *r, const struct lab_remote *m, struct argv *a)
{
	argv_add(a, "ssh");
	if (r->ssh_config[0]) {
		argv_add(a, "-F");
		argv_add(a, "%s", r->ssh_config);
	}
	/* on the command line, these win over any config file */
	argv_add(a, "-o"); argv_add(a, "BatchMode=yes");
	argv_add(a, "-o"); argv_add(a, "StrictHostKeyChecking=yes");
	argv_add(a, "-o"); argv_add(a, "ConnectTimeout=5");
	argv_add(a, "-o"); argv_add(a, "ServerAliveInterval=5");
	argv_add(a, "-o"); argv_add(a, "LogLevel=ERROR");
	/*
	 * One connection per remote, shared by every command of the run: each
	 * new one cost 1.3-2.6 s here under load. The master lives at most 60 s
	 * after its last command; down stops it at once (ssh_stop_master).
	 */
	if (r->statedir[0] && file_exists(r->statedir)) {
		argv_add(a, "-o"); argv_add(a, "ControlMaster=auto");
		argv_add(a, "-o"); argv_add(a, "ControlPath=%s/ssh-%%C", r->statedir);
		argv_add(a, "-o"); argv_add(a, "ControlPersist=60");
	}
	if (m->key[0]) {
		argv_add(a, "-i"); argv_add(a, "%s", m->key);
		argv_add(a, "-o"); argv_add(a, "IdentitiesOnly=yes");
	}
	argv_add(a, "-T");
	argv_add(a, "-p"); argv_add(a, "%u", m->port);
	argv_add(a, "-l"); argv_add(a, "%s", m->user);
	argv_add(a, "%s", m->addr);
}

void ssh_stop_master(const struct lab_run *r, const struct lab_remote *m)
{
	struct argv a = { 0 };
	char out[512];

	if (!r->statedir[0] || !file_exists(r->statedir))
		return;
	argv_add(&a, "ssh");
	argv_add(&a, "-o"); argv_add(&a, "ControlPath=%s/ssh-%%C", r->statedir);
	argv_add(&a, "-O"); argv_add(&a, "exit");
	argv_add(&a, "-p"); argv_add(&a, "%u", m->port);
	argv_add(&a, "-l"); argv_add(&a, "%s", m->user);
	argv_add(&a, "%s", m->addr);
	run_cmd(a.v, NULL, out, sizeof(out));	/* no master (never connected): nothing to stop */
	argv_free(&a);
}

bool remote_quote(const char *s, char *out, size_t len)
{
	/* each byte can grow to 4 ('\''), plus the two quotes */
	if (strlen(s) * 4 + 3 > len)
		return false;
	shell_quote(s, out, len);
	return true;
}

static char *slurp_unlink(const char *path, size_t *len)
{
	char *text = read_file_max(path, len, LAB_DATA_MAX);

	if (!text && errno == EFBIG)
		pr_warn("%s: ssh's output is over the 32 MiB cap, not read", path);
	unlink(path);
	if (!text) {
		text = strdup("");
		if (len)
			*len = 0;
	}
	return text;
}

int ssh_run(const struct lab_run *r, const struct lab_remote *m, const char *cmd, int timeout_ms,
	    const char *out_path, struct qga_result *res)
{
	static unsigned seq;
	char out[PATH_MAX + 64], err[PATH_MAX + 64];
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->underlay[0] ? r->underlay : NULL };
	pid_t pid;
	int st;

	memset(res, 0, sizeof(*res));
	snprintf(out, sizeof(out), "%s/.ssh-%d-%u.out", m->dir, (int)getpid(), seq);
	snprintf(err, sizeof(err), "%s/.ssh-%d-%u.err", m->dir, (int)getpid(), seq++);
	if (!out_path)
		out_path = out;
	unlink(out_path);
	unlink(err);
	so.out = out_path;
	so.err = err;
	ssh_argv(r, m, &a);
	argv_add(&a, "%s", cmd);
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("%s: couldn't start ssh: %s", m->name, errno_str(pid));
		return pid;
	}
	/* a negative timeout: no time at all, not proc_wait's forever */
	st = proc_wait(pid, timeout_ms < 0 ? 0 : timeout_ms, NULL);
	res->err = slurp_unlink(err, &res->err_len);
	if (out_path == out)
		res->out = slurp_unlink(out, &res->out_len);
	else
		res->out = strdup("");
	if (st < 0)
		return st;
	res->exited = true;
	if (st > 128 && st < 160)
		res->signal = st - 128;
	else
		res->exitcode = st;
	return 0;
}

/* The last line of ssh's stderr, for a message: escaped, the remote wrote it. */
void ssh_last_line(const struct qga_result *res, char *out, size_t len)
{
	const char *s = res->err ? res->err : "";
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	esc_str(out, len, start, (size_t)(end - start), 0);
}

/* The argv as one shell command line (as qemu-ga would run the argv). */
int remote_join_argv(char *const argv[], char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; argv[i]; i++) {
		char q[8192];

		if (!remote_quote(argv[i], q, sizeof(q)) || n + strlen(q) + 2 > len)
			return -1;
		n += snprintf(out + n, len - n, "%s%s", i ? " " : "", q);
	}
	return 0;
}

/* mktemp -d /tmp/bpfwire-ID.XXXXXXXX's answer: that, and nothing a shell reads twice. */
bool remote_base_valid(const char *id, const char *base)
{
	char pre[64];
	size_t n = (size_t)snprintf(pre, sizeof(pre), "/tmp/bpfwire-%s.", id), k = 0;

	if (strncmp(base, pre, n))
		return false;
	for (base += n; base[k]; k++)
		if (!isalnum((unsigned char)base[k]))
			return false;
	return k >= 6 && n + k < sizeof(((struct lab_remote *)0)->rbase);
}

/*
 * remote-side.sh's subcommand a->v[0] with its arguments, as the line ssh
 * runs: the script's own text to /bin/sh -c (so the remote needs no copy
 * of it, and a cut connection runs none of it), then each word quoted.
 */
int remote_side_line(struct argv *a, char *out, size_t len)
{
	static char *script;
	size_t n, sl = 0;
	int ret;

	if (!script) {
		char *text = read_file(BPFWIRE_REMOTE_SIDE, &sl);

		script = text ? malloc(sl * 4 + 3) : NULL;
		if (!script || !remote_quote(text, script, sl * 4 + 3)) {
			pr_warn("couldn't read %s: %s", BPFWIRE_REMOTE_SIDE, errno_str(-errno));
			free(script);
			script = NULL;
		}
		free(text);
	}
	n = script ? (size_t)snprintf(out, len, "exec /bin/sh -c %s bpfwire-remote ", script) : len;
	ret = n < len ? remote_join_argv(a->v, out + n, len - n) : -1;
	argv_free(a);
	return ret;
}

/*
 * What runs on the remote: in its share, with its shell's pid appended to
 * RBASE/pids so that `down` can end it (by that pid).
 */
int remote_cmd(const struct lab_remote *m, char *const argv[], char *out, size_t len)
{
	struct argv a = { 0 };
	size_t n;

	if (!m->rbase[0] || !m->rdir[0])
		return -1;	/* up made no dir there */
	argv_add(&a, "exec"); argv_add(&a, "%s", m->rbase); argv_add(&a, "%s", m->rdir);
	if (remote_side_line(&a, out, len) || (n = strlen(out)) + 2 > len ||
	    remote_join_argv(argv, out + n + 1, len - n - 1))
		return -1;
	out[n] = ' ';
	return 0;
}

/* The refusal's own line, if the remote refused its dir (exit REMOTE_REFUSED). */
static bool refused(const struct lab_remote *m, const struct qga_result *res)
{
	const char *p = res->err ? strstr(res->err, "bpfwire: ") : NULL;

	if (!res->exited || res->exitcode != REMOTE_REFUSED || !p)
		return false;
	pr_warn("remote host %s: %.*s", m->name, (int)strcspn(p + 9, "\n"), p + 9);
	return true;
}

int remote_exec(struct lab_run *r, const struct lab_remote *m, char *const argv[], int timeout_ms,
		struct qga_result *res)
{
	static char cmd[16384 * 4 + 64];
	char line[512];

	if (remote_cmd(m, argv, cmd, sizeof(cmd))) {
		pr_warn("%s: the command is too long, or up made no dir there", m->name);
		return -1;
	}
	if (ssh_run(r, m, cmd, timeout_ms, NULL, res) < 0) {
		pr_warn("%s: %s did not finish in %d ms over ssh", m->name, argv[0], timeout_ms);
		return -1;
	}
	if (refused(m, res))
		return -1;
	if (res->exitcode == 255) {
		ssh_last_line(res, line, sizeof(line));
		pr_warn("%s: ssh %s@%s exited 255 (ssh's own failure, or the command's): %s",
			m->name, m->user, m->addr, line);
	}
	return 0;
}

/* STATEDIR/remote: the local side of spawned commands (out, err, rc). */
static void spawn_dir(const struct lab_run *r, char *out, size_t len)
{
	snprintf(out, len, "%s/remote", r->statedir);
}

long remote_spawn(struct lab_run *r, const struct lab_remote *m, char *const argv[])
{
	static char cmd[16384 * 4 + 64];
	char dir[PATH_MAX + 16];
	struct argv a = { 0 };
	struct spawn_opts so = { .netns = r->underlay[0] ? r->underlay : NULL, .setsid = true };
	pid_t pid;

	spawn_dir(r, dir, sizeof(dir));
	if (mkdir_p(dir, 0700) || remote_cmd(m, argv, cmd, sizeof(cmd))) {
		pr_warn("%s: couldn't prepare %s (or the command is too long)", m->name, dir);
		return -1;
	}
	/* the local sh names its files by its own pid, the id wait takes */
	argv_add(&a, "/bin/sh"); argv_add(&a, "-c");
	argv_add(&a, "d=\"$1\"; shift; exec >\"$d/$$.out\" 2>\"$d/$$.err\"; \"$@\"; "
		     "echo $? >\"$d/$$.rc.new\"; mv \"$d/$$.rc.new\" \"$d/$$.rc\"");
	argv_add(&a, "sh"); argv_add(&a, "%s", dir);
	ssh_argv(r, m, &a);
	argv_add(&a, "%s", cmd);
	pid = spawn(a.v, &so);
	argv_free(&a);
	if (pid < 0) {
		pr_warn("%s: couldn't start ssh: %s", m->name, errno_str(pid));
		return -1;
	}
	return pid;
}

int remote_wait(struct lab_run *r, const struct lab_remote *m, long pid, int timeout_ms,
		struct qga_result *res)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 64], *rc;
	double end = now_s() + timeout_ms / 1000.0;

	memset(res, 0, sizeof(*res));
	spawn_dir(r, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%ld.rc", dir, pid);
	while (!file_exists(path)) {
		if (now_s() > end || lab_interrupted)
			break;
		reap_children();
		sleep_ms(50);
	}
	snprintf(path, sizeof(path), "%s/%ld.out", dir, pid);
	res->out = read_file_max(path, &res->out_len, LAB_DATA_MAX);
	if (!res->out && errno == EFBIG)
		pr_warn("%s: %s is over the 32 MiB cap, not read", m->name, path);
	snprintf(path, sizeof(path), "%s/%ld.err", dir, pid);
	res->err = read_file_max(path, &res->err_len, LAB_DATA_MAX);
	if (!res->err && errno == EFBIG)
		pr_warn("%s: %s is over the 32 MiB cap, not read", m->name, path);
	snprintf(path, sizeof(path), "%s/%ld.rc", dir, pid);
	rc = read_file(path, NULL);
	if (!rc) {
		pr_warn("%s: spawned %ld %s after %d ms", m->name, pid,
			lab_interrupted ? "interrupted" : "timed out", timeout_ms);
		return -1;
	}
	res->exited = true;
	res->exitcode = atoi(rc);
	free(rc);
	return 0;
}

int remote_link(struct lab_run *r, const struct lab_remote *m, const char *iface, bool up,
		enum link_how how)
{
	const struct lab_tunnel *tn = NULL;
	char cmd[REMOTE_LINE_MAX], err[1024], line[512];
	struct argv a = { 0 };
	struct qga_result res;
	int ret = 0;

	for (int i = 0; i < m->ntunnels; i++)
		if (!strcmp(m->tunnels[i].ifname, iface))
			tn = &m->tunnels[i];
	if (!tn) {
		pr_warn("%s has no interface '%s'", m->name, iface);
		return -1;
	}
	if (how == LINK_BRIDGE_PORT) {
		/* the lab's end of the tunnel, a port of the segment's bridge */
		char *argv[] = { "ip", "link", "set", "dev", (char *)tn->dev, up ? "up" : "down", NULL };

		if (netns_run(r->netns, argv, err, sizeof(err))) {
			pr_warn("couldn't set %s (%s's tunnel) %s: %s", tn->dev, m->name, up ? "up" : "down", err);
			return -1;
		}
		return 0;
	}
	argv_add(&a, "link"); argv_add(&a, "%s", tn->ifname); argv_add(&a, up ? "up" : "down");
	if (remote_side_line(&a, cmd, sizeof(cmd)))
		return -1;
	if (ssh_run(r, m, cmd, 10000, NULL, &res) < 0 || !res.exited || res.exitcode) {
		ssh_last_line(&res, line, sizeof(line));
		pr_warn("%s: ip link set %s %s failed: %s", m->name, iface, up ? "up" : "down", line);
		ret = -1;
	}
	qga_result_free(&res);
	return ret;
}

/* cat of FILE in the share, never through a link, only from a dir that passes its check. */
int remote_fetch_cmd(const struct lab_remote *m, const char *file, char *out, size_t len)
{
	struct argv a = { 0 };

	if (!m->rbase[0] || !m->rdir[0])
		return -1;
	argv_add(&a, "fetch"); argv_add(&a, "%s", m->rbase); argv_add(&a, "%s", m->rdir); argv_add(&a, "%s", file);
	return remote_side_line(&a, out, len);
}

int lab_fetch(struct lab_run *r, const char *host, const char *file)
{
	const struct lab_remote *m = lab_remote(r, host);
	char path[PATH_MAX + 256], cmd[REMOTE_LINE_MAX], line[512];
	struct qga_result res;
	int ret = 0;

	if (!m)
		return -1;
	if (strstr(file, "..") || file[0] == '/' || strchr(file, '/') ||
	    snprintf(path, sizeof(path), "%s/%s", m->dir, file) >= (int)sizeof(path) ||
	    remote_fetch_cmd(m, file, cmd, sizeof(cmd))) {
		pr_warn("%s: won't fetch '%s': a plain file name in its share is expected", host, file);
		return -1;
	}
	if (ssh_run(r, m, cmd, 30000, path, &res) < 0 || refused(m, &res) || !res.exited || res.exitcode) {
		ssh_last_line(&res, line, sizeof(line));
		pr_warn("%s: couldn't fetch %s/%s: %s", host, m->rdir, file, line);
		unlink(path);	/* nothing of a refused file is judged */
		ret = -1;
	}
	qga_result_free(&res);
	return ret;
}
