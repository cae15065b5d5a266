// SPDX-License-Identifier: GPL-2.0-only
/*
 * remote-unit, no ssh, no guest: the lines the
 * lab sends a remote host. The VXLAN ends take only their peer's frames
 * (nolearning, an nft pin per VNI); the remote's dir is mktemp's, and the
 * scripts that use it (exec, fetch) refuse, when run here in /tmp, a dir
 * another user owns or can write, a dir that is a link, and a planted link.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "topo/topology.h"
#include "vm/model.h"
#include "vm/remote_ssh.h"
#include "vm/util.h"

#define ID "t32unit"

static char *joined(struct argv *a)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "", a->v[i]);
	return buf;
}

static void test_vxlan_lines(void)
{
	struct lab_run *r = calloc(1, sizeof(*r));
	struct lab_remote *m = &r->remotes[0];
	struct lab_tunnel tn = { .ifname = "bw0", .dev = "vx00002a", .mac = "02:00:00:00:00:2a",
				 .vni = 42, .mtu = 1450 };
	struct topo_nic nic = { 0 };
	struct argv a = { 0 }, cmds[4];
	char script[8192];
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
	ASSERT_OK(remote_end_script(r, m, &tn, &nic, script, sizeof(script)), "the remote end's script fits");
	ASSERT_HAS(script, "$S 'nft' 'add' 'rule' 'inet' 'bpfwire-" ID "-far' 'pin' 'ip' 'saddr' '198.51.100.1' "
		   "'udp' 'dport' '4789' '@th,96,24' '42' 'accept'", "the remote end takes the lab's address only");
	ASSERT_HAS(script, "'drop'", "and drops the VNI from anyone else");
	ASSERT_HAS(script, "'remote' '198.51.100.1' 'dstport' '4789' 'nolearning'", "the remote end learns no MAC");
	ASSERT_TRUE(strstr(script, "'drop'") < strstr(script, "'ip' 'link' 'add'"), "the pin comes before the link");
	ASSERT_OK(remote_down_script(r, m, script, sizeof(script)), "down's script fits");
	ASSERT_HAS(script, "nft delete table inet bpfwire-" ID "-far", "down removes the remote's pin");
	ASSERT_FALSE(strstr(script, "/tmp/bpfwire-" ID), "with no dir made at up, down names none");
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
	char tmpl[] = "/tmp/bpfwire-" ID ".XXXXXXXX", cmd[70000], out[4096], path[256], bait[256], *s;
	char *argv[] = { "sh", "-c", "echo ran > ran; pwd", NULL };

	if (!ASSERT_OK_PTR(mkdtemp(tmpl), "a dir as mktemp makes it"))
		return;
	snprintf(m->name, sizeof(m->name), "far");
	snprintf(m->rbase, sizeof(m->rbase), "%s", tmpl);
	snprintf(m->rdir, sizeof(m->rdir), "%s/far", tmpl);
	mkdir(m->rdir, 0700);
	snprintf(bait, sizeof(bait), "%s.bait", tmpl);
	write_file(bait, "1\n# BAIT\n");

	ASSERT_OK(remote_cmd(m, argv, cmd, sizeof(cmd)), "exec's line");
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), 0, "exec runs in the lab's own dir");
	ASSERT_HAS(out, m->rdir, "in its share");

	chmod(tmpl, 0777);
	ASSERT_EQ(run_here(cmd, out, sizeof(out)), REMOTE_REFUSED, "a dir others can write is refused");
	ASSERT_HAS(out, "only it can write: refused", "and says so");
	chmod(tmpl, 0700);

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

	m->rbase[0] = '\0';
	ASSERT_EQ(remote_cmd(m, argv, cmd, sizeof(cmd)), -1, "no dir made at up: no exec line at all");
	unlink(bait);
	rm_rf(tmpl);
	free(m);
}

int main(void)
{
	test_vxlan_lines();
	test_base_names();
	test_scripts_here();
	return tap_done();
}
