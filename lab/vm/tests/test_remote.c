// SPDX-License-Identifier: GPL-2.0-only
/*
 * remote-unit, no ssh, no guest: the lines the lab sends a remote host
 * (remote-side.sh's subcommand and its quoted arguments), run here as the
 * remote would run them, with ip, nft and sudo stubs that log what they
 * are asked. The VXLAN ends take only their peer's frames (nolearning, an
 * nft pin per VNI, the pin first); the remote's dir is mktemp's, and the
 * subcommands that use it (exec, fetch, down) refuse, run here in /tmp, a
 * dir another user owns or can write, a dir that is a link, and a planted
 * link; a hostile argument reaches the command as it is.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "proc.h"
#include "tap.h"
#include "topo/topology.h"
#include "vm/model.h"
#include "vm/remote.h"
#include "vm/remote_ssh.h"
#include "vm/util.h"

#define ID "t32unit"

static int run_here(const char *line, char *out, size_t len);

static char *joined(struct argv *a)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "", a->v[i]);
	return buf;
}

/* A dir of ip, nft and sudo stubs: each logs its argv to DIR/log, one line a call. */
static char stubs[] = "/tmp/bpfwire-stubs.XXXXXX";

static void make_stubs(void)
{
	/* `ip -d link show` answers as a VXLAN of VNI 42 */
	const char *stub = "#!/bin/sh\necho \"${0##*/} $*\" >> \"${0%/*}/log\"\n"
			   "if [ \"$1 $2 $3\" = '-d link show' ]; then echo '    vxlan id 42 remote x'; fi\n";
	char path[128];

	if (!mkdtemp(stubs))
		return;
	for (const char *const *t = (const char *const[]){ "ip", "nft", "tcpdump", NULL }; *t; t++) {
		snprintf(path, sizeof(path), "%s/%s", stubs, *t);
		write_file(path, stub);
		chmod(path, 0755);
	}
	snprintf(path, sizeof(path), "%s/dmesg", stubs);
	write_file(path, "#!/bin/sh\nprintf '[   99.000000] old\\n[  100.500000] new\\n  more of it\\n[  101.000000] newer\\n'\n");
	chmod(path, 0755);
	/* not root here: sudo -n runs it as it is */
	snprintf(path, sizeof(path), "%s/sudo", stubs);
	write_file(path, "#!/bin/sh\n[ \"$1\" = -n ] && shift\nexec \"$@\"\n");
	chmod(path, 0755);
}

/* Runs a remote line here with the stubs first in PATH; their log in *log (freed by the caller). */
static int run_stubbed(const char *line, char *out, size_t len, char **log)
{
	char *cmd, path[128];
	int st;

	snprintf(path, sizeof(path), "%s/log", stubs);
	unlink(path);
	if (asprintf(&cmd, "PATH=%s:$PATH; export PATH; %s", stubs, line) < 0)
		return -1;
	st = run_here(cmd, out, len);
	free(cmd);
	*log = read_file(path, NULL);
	if (!*log)
		*log = strdup("");
	return st;
}

/* The arguments after the script's text: what the line asks of remote-side.sh. */
static const char *args_of(const char *line)
{
	const char *p = strstr(line, "' bpfwire-remote ");

	return p ? p + 2 : "(no bpfwire-remote)";
}

static void test_vxlan_lines(void)
{
	struct lab_run *r = calloc(1, sizeof(*r));
	struct lab_remote *m = &r->remotes[0];
	struct lab_tunnel tn = { .ifname = "bw0", .dev = "vx00002a", .mac = "02:00:00:00:00:2a",
				 .vni = 42, .mtu = 1450 };
	struct topo_nic nic = { 0 };
	struct argv a = { 0 }, cmds[4];
	char script[REMOTE_LINE_MAX], out[4096], want[2048], *log;
	int n;

	vxlan_add_argv(&a, "vx00002a", 42, "198.51.100.2");
	ASSERT_STREQ(joined(&a), "ip link add vx00002a type vxlan id 42 remote 198.51.100.2 dstport 4789 nolearning",
		     "the lab's end: one peer, no learning");
	argv_free(&a);

	n = vxlan_pin_argvs("bpfwire-" ID, 42, "198.51.100.2", cmds);
	ASSERT_EQ(n, 4, "four nft commands pin a VNI");
	ASSERT_STREQ(joined(&cmds[2]), "nft add rule inet bpfwire-" ID " pin ip saddr 198.51.100.2 udp dport 4789 "
		     "@th,96,24 42 accept", "the peer's VXLAN of that VNI is accepted");
	ASSERT_STREQ(joined(&cmds[3]), "nft add rule inet bpfwire-" ID " pin udp dport 4789 @th,96,24 42 drop",
		     "anyone else's VXLAN of that VNI is dropped");
	ASSERT_HAS(joined(&cmds[1]), "hook prerouting priority -300", "before the VXLAN socket sees it");
	for (int i = 0; i < n; i++)
		argv_free(&cmds[i]);
	vxlan_pin_argvs("x", 7, "2001:db8::1", cmds);
	ASSERT_HAS(joined(&cmds[2]), "ip6 saddr 2001:db8::1 ", "an IPv6 peer is matched as one");
	for (int i = 0; i < n; i++)
		argv_free(&cmds[i]);

	snprintf(r->id, sizeof(r->id), ID);
	snprintf(m->name, sizeof(m->name), "far");
	snprintf(m->lab_addr, sizeof(m->lab_addr), "198.51.100.1");
	nic.naddrs = 2;
	nic.addrs[0].a = (struct topo_prefix){ .family = AF_INET, .plen = 24 };
	inet_pton(AF_INET, "192.0.2.7", &nic.addrs[0].a.addr.v4);
	nic.addrs[1].a = (struct topo_prefix){ .family = AF_INET6, .plen = 64 };
	inet_pton(AF_INET6, "2001:db8::7", &nic.addrs[1].a.addr.v6);
	ASSERT_OK(remote_end_script(r, m, &tn, &nic, script, sizeof(script)), "the remote end's line fits");
	ASSERT_STREQ(args_of(script), "bpfwire-remote 'end' 'bpfwire-" ID "-far' '42' '198.51.100.1' 'bw0' "
		     "'02:00:00:00:00:2a' '1450' '192.0.2.7/24' '2001:db8::7/64'", "it asks remote-side.sh's end");
	ASSERT_EQ(run_stubbed(script, out, sizeof(out), &log), 0, "which runs");
	/* the remote's pin and link are the lab's own, toward the lab's address as it sees it */
	n = vxlan_pin_argvs("bpfwire-" ID "-far", 42, "198.51.100.1", cmds);
	want[0] = '\0';
	for (int i = 0; i < n; i++) {
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n", joined(&cmds[i]));
		argv_free(&cmds[i]);
	}
	vxlan_add_argv(&a, "bw0", 42, "198.51.100.1");
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n", joined(&a));
	argv_free(&a);
	ASSERT_TRUE(!strncmp(log, want, strlen(want)), "the remote end pins its VNI to the lab's address, "
		    "then makes the link with no learning, as the lab's end does");
	if (strncmp(log, want, strlen(want)))
		printf("# want:\n%s# got:\n%s", want, log);
	ASSERT_STREQ(log + strnlen(log, strlen(want)), "ip link set dev bw0 address 02:00:00:00:00:2a mtu 1450\n"
		     "ip addr add 192.0.2.7/24 dev bw0\nip addr add 2001:db8::7/64 dev bw0 nodad\n"
		     "ip link set dev bw0 up\n", "then its MAC, MTU, addresses (IPv6 nodad), up");
	free(log);

	m->ntunnels = 2;
	m->tunnels[0] = tn;
	m->tunnels[1] = tn;
	snprintf(m->tunnels[1].ifname, sizeof(m->tunnels[1].ifname), "bw1");
	m->tunnels[1].vni = 43;
	ASSERT_OK(remote_down_script(r, m, script, sizeof(script)), "down's line fits");
	ASSERT_STREQ(args_of(script), "bpfwire-remote 'down' 'bpfwire-" ID "-far' '' 'bw0' '42' 'bw1' '43'",
		     "with no dir made at up, down names none");
	ASSERT_EQ(run_stubbed(script, out, sizeof(out), &log), 0, "which runs");
	ASSERT_HAS(log, "ip link del dev bw0\n", "down removes the run's VXLAN");
	ASSERT_FALSE(strstr(log, "del dev bw1"), "and not a VXLAN of another VNI by that name");
	ASSERT_HAS(log, "nft delete table inet bpfwire-" ID "-far\n", "down removes the remote's pin");
	free(log);
	free(r);
}

static void test_base_names(void)
{
	ASSERT_TRUE(remote_base_valid(ID, "/tmp/bpfwire-" ID ".aZ09xYw3"), "mktemp's name is taken");
	ASSERT_FALSE(remote_base_valid(ID, "/tmp/bpfwire-" ID), "the guessable name is not");
	ASSERT_FALSE(remote_base_valid(ID, "/tmp/bpfwire-" ID ".aZ09xYw3/x"), "nor a path under it");
	ASSERT_FALSE(remote_base_valid(ID, "/tmp/bpfwire-other.aZ09xYw3"), "nor another run's");
	ASSERT_FALSE(remote_base_valid(ID, "/tmp/bpfwire-" ID ".a$(id)b"), "nor shell text");
}

/* Runs a remote line here, as ssh would there; its exit status, output in out. */
static int run_here(const char *line, char *out, size_t len)
{
	char *argv[] = { "/bin/sh", "-c", (char *)line, NULL };

	return run_cmd(argv, NULL, out, len);
}

static char *slurp(const char *path)
{
	char *s = read_file(path, NULL);

	return s ? s : strdup("(none)");
}

static void test_scripts_here(void)
{
	struct lab_remote *m = calloc(1, sizeof(*m));
	char tmpl[] = "/tmp/bpfwire-" ID ".XXXXXXXX", cmd[REMOTE_LINE_MAX + 4096], out[4096], path[512], bait[256], *s;
	char *argv[] = { "sh", "-c", "echo ran > ran; pwd", NULL };
	char *hostile[] = { "printf", "%s|", "a'b", "$(echo pwned)", "; echo x", "`id`", NULL };
	char *log;
	pid_t child;

	if (!ASSERT_OK_PTR(mkdtemp(tmpl), "a dir as mktemp makes it"))
		return;
	snprintf(m->name, sizeof(m->name), "far");
	snprintf(m->rbase, sizeof(m->rbase), "%s", tmpl);
	snprintf(m->rdir, sizeof(m->rdir), "%s/far", tmpl);
	mkdir(m->rdir, 0700);
	snprintf(bait, sizeof(bait), "%s.bait", tmpl);
	write_file(bait, "1\n# BAIT\n");

	ASSERT_OK(remote_cmd(m, argv, cmd, sizeof(cmd)), "exec's line");
	snprintf(path, sizeof(path), "bpfwire-remote 'exec' '%s' '%s' 'sh' '-c' 'echo ran > ran; pwd'", tmpl, m->rdir);
	ASSERT_STREQ(args_of(cmd), path, "it asks remote-side.sh's exec, every word quoted");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), 0, "exec runs in the lab's own dir");
	ASSERT_HAS(out, m->rdir, "in its share");
	ASSERT_OK(remote_cmd(m, hostile, cmd, sizeof(cmd)), "exec's line of hostile words");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), 0, "runs");
	ASSERT_STREQ(out, "a'b|$(echo pwned)|; echo x|`id`|", "each word reaches the command as it is");

	chmod(tmpl, 0777);
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "a dir others can write is refused");
	ASSERT_HAS(out, "only it can write: refused", "and says so");
	chmod(tmpl, 0700);
	chmod(m->rdir, 0777);
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "so is a share others can write");
	chmod(m->rdir, 0700);

	if (geteuid() == 0) {
		ASSERT_OK(chown(tmpl, 65534, 65534), "the dir given to nobody");
		ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "a dir nobody owns is refused");
		ASSERT_OK(chown(tmpl, 0, 0), "and back");
	}

	snprintf(path, sizeof(path), "%s/pids", tmpl);
	unlink(path);
	ASSERT_OK(symlink(bait, path), "a pids link planted in the lab's dir");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "exec refuses it");
	ASSERT_HAS(out, "pids is a link: refused", "and says so");
	s = slurp(bait);
	ASSERT_STREQ(s, "1\n# BAIT\n", "nothing was appended through it");
	free(s);
	unlink(path);

	snprintf(path, sizeof(path), "%s/report", m->rdir);
	write_file(path, "{\"ok\": 1}\n");
	ASSERT_OK(remote_fetch_cmd(m, "report", cmd, sizeof(cmd)), "fetch's line");
	ASSERT_HAS(args_of(cmd), "bpfwire-remote 'fetch' '", "it asks remote-side.sh's fetch");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), 0, "a plain report is fetched");
	ASSERT_STREQ(out, "{\"ok\": 1}", "as it is");
	unlink(path);
	ASSERT_OK(symlink(bait, path), "a report link planted in the share");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "fetch refuses it");
	ASSERT_FALSE(strstr(out, "BAIT"), "and reads nothing through it");

	/* the dir itself a link to a good one */
	snprintf(path, sizeof(path), "%s.link", tmpl);
	ASSERT_OK(symlink(tmpl, path), "a link to the lab's dir");
	snprintf(m->rbase, sizeof(m->rbase), "%.90s", path);
	ASSERT_OK(remote_cmd(m, argv, cmd, sizeof(cmd)), "exec's line for it");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "a dir that is a link is refused");
	unlink(path);

	/* down: the pids the dir names are ended, the dir goes; a dir others can write is left */
	snprintf(m->rbase, sizeof(m->rbase), "%s", tmpl);
	child = fork();
	if (child == 0) {
		execlp("sleep", "sleep", "60", (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/pids", tmpl);
	snprintf(out, sizeof(out), "0\n1\nx9\n%d\n", (int)child);
	write_file(path, out);
	ASSERT_OK(remote_down_script(&(struct lab_run){ .id = ID }, m, cmd, sizeof(cmd)), "down's line");
	chmod(tmpl, 0777);
	ASSERT_EQ(run_stubbed(cmd, out, sizeof(out), &log), 0, "down with a dir others can write");
	ASSERT_HAS(out, "only it can write: refused", "says it refused it");
	ASSERT_HAS(log, "nft delete table inet bpfwire-" ID "-far", "and still removes the pin");
	free(log);
	ASSERT_EQ(waitpid(child, NULL, WNOHANG), 0, "ended none of the pids it names");
	ASSERT_TRUE(file_exists(tmpl), "and left it");
	chmod(tmpl, 0700);
	ASSERT_EQ(run_stubbed(cmd, out, sizeof(out), &log), 0, "down with the lab's own dir");
	ASSERT_EQ(waitpid(child, NULL, 0), child, "ends the pid it names");
	ASSERT_FALSE(file_exists(tmpl), "and removes the dir");
	ASSERT_HAS(log, "nft delete table inet bpfwire-" ID "-far", "and the pin");
	free(log);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	m->rbase[0] = '\0';
	ASSERT_EQ(remote_cmd(m, argv, cmd, sizeof(cmd)), -1, "no dir made at up: no exec line at all");
	ASSERT_EQ(remote_fetch_cmd(m, "report", cmd, sizeof(cmd)), -1, "nor a fetch line");
	unlink(bait);
	rm_rf(tmpl);
	free(m);
}

/* The subcommands remote.c sends with fixed words: mkdir, capture, link, dmesg, check. */
static void test_other_subcommands(void)
{
	static char line[REMOTE_LINE_MAX];
	char out[4096], base[128] = "", path[256], *log, *s;
	struct argv a = { 0 };

	argv_add(&a, "mkdir"); argv_add(&a, ID); argv_add(&a, "far");
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "mkdir's line");
	ASSERT_EQ(run_here(line, out, sizeof(out)), 0, "mkdir runs");
	ASSERT_EQ(sscanf(out, "dir %127s", base), 1, "and names its dir");
	ASSERT_TRUE(remote_base_valid(ID, base), "a mktemp -d /tmp/bpfwire-ID.XXXXXXXX one");
	snprintf(path, sizeof(path), "%s/far", base);
	ASSERT_TRUE(file_exists(path), "with the host's share in it");

	argv_add(&a, "capture"); argv_add(&a, "%s", base); argv_add(&a, "bw0"); argv_add(&a, "1514");
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "capture's line");
	ASSERT_EQ(run_stubbed(line, out, sizeof(out), &log), 0, "capture runs");
	ASSERT_STREQ(log, "tcpdump -i bw0 -w - -U -n -s 1514 -B 4096 --immediate-mode\n", "as tcpdump of its end");
	free(log);
	snprintf(path, sizeof(path), "%s/pids", base);
	s = read_file(path, NULL);
	ASSERT_TRUE(s && atoi(s) > 1, "whose pid down will end");
	free(s);
	unlink(path);
	ASSERT_OK(symlink("/dev/null", path), "a pids link planted");
	ASSERT_EQ(run_stubbed(line, out, sizeof(out), &log), REMOTE_REFUSED, "capture refuses it");
	ASSERT_STREQ(log, "", "and starts no tcpdump");
	free(log);
	rm_rf(base);

	argv_add(&a, "link"); argv_add(&a, "bw0"); argv_add(&a, "down");
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "link's line");
	ASSERT_EQ(run_stubbed(line, out, sizeof(out), &log), 0, "link runs");
	ASSERT_STREQ(log, "ip link set dev bw0 down\n", "as ip link set");
	free(log);

	argv_add(&a, "dmesg"); argv_add(&a, "%.6f", 100.5);
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "dmesg's line");
	ASSERT_EQ(run_stubbed(line, out, sizeof(out), &log), 0, "dmesg runs");
	ASSERT_STREQ(out, "[  100.500000] new\n  more of it\n[  101.000000] newer", "the lines since up only");
	free(log);

	argv_add(&a, "check");
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "check's line");
	run_stubbed(line, out, sizeof(out), &log);
	ASSERT_HAS(out, "uptime ", "check reads the uptime");
	ASSERT_HAS(out, "have-ip", "and finds ip");
	free(log);

	argv_add(&a, "nosuch");
	ASSERT_OK(remote_side_line(&a, line, sizeof(line)), "a line of no subcommand");
	ASSERT_EQ(run_here(line, out, sizeof(out)), 2, "is refused");
}

int main(void)
{
	make_stubs();
	test_vxlan_lines();
	test_base_names();
	test_scripts_here();
	test_other_subcommands();
	rm_rf(stubs);
	return tap_done();
}
