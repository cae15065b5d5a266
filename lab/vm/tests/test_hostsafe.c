// SPDX-License-Identifier: GPL-2.0-only
/*
 * Without booting: a results dir a local user planted is refused, the
 * lab's files for people are outside the guest's share, QEMU's command
 * line drops root and has a seccomp sandbox.
 * Usage: test_hostsafe TOPOLOGY (lone.topo)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "lab-config.h"
#include "proc.h"
#include "tap.h"
#include "topo/topo_parse.h"
#include "topo/topology.h"
#include "vm/lifecycle.h"
#include "vm/model.h"
#include "vm/qemu.h"

static char tmp[] = "/tmp/test-hostsafe-XXXXXX";

/* What a local user leaves at DIR: their dir, a link where the lab writes its console. */
static void plant(const char *dir, uid_t uid, mode_t mode)
{
	char p[PATH_MAX + 64], victim[PATH_MAX + 16];

	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	mkdir(dir, mode);
	chmod(dir, mode);
	snprintf(p, sizeof(p), "%s/consoles", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof(p), "%s/consoles/lone.log", dir);
	if (symlink(victim, p))
		perror(p);
	if (chown(dir, uid, uid))
		perror(dir);
}

static void test_claim(void)
{
	char dir[PATH_MAX], out[PATH_MAX], victim[PATH_MAX + 16], why[PATH_MAX + 128], *text;
	struct passwd *nobody = getpwnam("nobody");
	uid_t other = nobody ? nobody->pw_uid : 65534;
	struct stat st;

	if (geteuid()) {
		tap_case_begin("results claim");
		tap_case_todo("needs root (chown to another user)");
		ASSERT_TRUE(false, "run as root");
		tap_case_end();
		return;
	}
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	write_file(victim, "precious\n");

	tap_case_begin("a results dir another user made first is refused");
	snprintf(dir, sizeof(dir), "%s/bpfwire-bench-1234-1", tmp);
	plant(dir, other, 0755);
	ASSERT_EQ(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), -EPERM, "claim of nobody's dir");
	tap_case_end();

	tap_case_begin("root's dir that others can write is refused");
	snprintf(dir, sizeof(dir), "%s/world-writable", tmp);
	plant(dir, 0, 01777);
	ASSERT_EQ(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), -EPERM, "claim of a 1777 dir");
	tap_case_end();

	tap_case_begin("a link to root's own dir is refused");
	snprintf(dir, sizeof(dir), "%s/real", tmp);
	mkdir(dir, 0755);
	snprintf(out, sizeof(out), "%s/link", tmp);
	symlink(dir, out);
	snprintf(dir, sizeof(dir), "%s/link", tmp);
	ASSERT_EQ(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), -EPERM, "claim through a link");
	tap_case_end();

	tap_case_begin("a new dir is made, root's, 0755; root's own old one is taken");
	snprintf(dir, sizeof(dir), "%s/new/run/", tmp);
	ASSERT_OK(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), "claim of a new dir");
	ASSERT_OK(lstat(out, &st), "it exists");
	ASSERT_TRUE(S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & 07777) == 0755, "root's 0755 dir");
	ASSERT_OK(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), "claimed again (a rerun into it)");
	tap_case_end();

	tap_case_begin("a results dir of root's under nobody's dir is refused, naming it");
	snprintf(dir, sizeof(dir), "%s/nobodys", tmp);
	mkdir(dir, 0755);
	if (chown(dir, other, other))
		perror(dir);
	snprintf(dir, sizeof(dir), "%s/nobodys/run", tmp);
	mkdir(dir, 0755);
	why[0] = '\0';
	ASSERT_EQ(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), -EPERM, "claim under nobody's dir");
	ASSERT_TRUE(strstr(why, "/nobodys is owned by uid") != NULL, why);
	tap_case_end();

	tap_case_begin("a results dir of root's under a 0777 dir (not sticky) is refused, naming it");
	snprintf(dir, sizeof(dir), "%s/open", tmp);
	mkdir(dir, 0777);
	chmod(dir, 0777);
	snprintf(dir, sizeof(dir), "%s/open/deeper/run", tmp);
	why[0] = '\0';
	ASSERT_EQ(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), -EPERM, "claim under a 0777 dir");
	ASSERT_TRUE(strstr(why, "/open is mode 0777") != NULL, why);
	tap_case_end();

	tap_case_begin("under a sticky 1777 dir of root's (as /tmp) a dir of root's is taken");
	snprintf(dir, sizeof(dir), "%s/sticky", tmp);
	mkdir(dir, 01777);
	chmod(dir, 01777);
	snprintf(dir, sizeof(dir), "%s/sticky/run", tmp);
	ASSERT_OK(lab_claim_results(dir, out, sizeof(out), why, sizeof(why)), "claim under a 1777 dir");
	tap_case_end();

	tap_case_begin("the victim behind the planted links is untouched");
	text = read_file(victim, NULL);
	ASSERT_STREQ(text ? text : "(gone)", "precious\n", "victim");
	free(text);
	tap_case_end();
}

static bool argv_has(const struct argv *a, const char *opt, const char *needle)
{
	for (int i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt) && strstr(a->v[i + 1], needle))
			return true;
	return false;
}

/* The value after opt in a, or NULL. */
static const char *argv_value(const struct argv *a, const char *opt)
{
	for (int i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt))
			return a->v[i + 1];
	return NULL;
}

static void test_cmdline(const char *topo)
{
	static struct lab_run r;
	static struct topology t;
	char err[512], path[PATH_MAX], cmd[256];
	struct argv a = { 0 };
	size_t n;

	tap_case_begin("QEMU's command line: -sandbox and -runas");
	if (!ASSERT_OK(topo_parse_file(topo, &t, err, sizeof(err)), err)) {
		tap_case_end();
		return;
	}
	snprintf(r.id, sizeof(r.id), "lone-0001");
	snprintf(r.results, sizeof(r.results), "/tmp/results/lone-0001");
	snprintf(r.accel, sizeof(r.accel), "tcg");
	snprintf(r.kernel, sizeof(r.kernel), "/boot/bzImage");
	r.nguests = 1;
	snprintf(r.guests[0].name, sizeof(r.guests[0].name), "lone");
	snprintf(r.guests[0].dir, sizeof(r.guests[0].dir), "/tmp/results/lone-0001/hosts/lone");
	ASSERT_OK(qemu_argv(&r, &t, 0, NULL, "/tmp/c.log", "/run/root", &a), "qemu_argv");
	ASSERT_TRUE(argv_has(&a, "-sandbox", "on,"), "-sandbox on");
	ASSERT_TRUE(argv_has(&a, "-sandbox", "obsolete=deny"), "obsolete=deny");
	ASSERT_TRUE(argv_has(&a, "-sandbox", "spawn=deny"), "spawn=deny");
	ASSERT_TRUE(argv_has(&a, "-sandbox", "resourcecontrol=deny"), "resourcecontrol=deny");
	ASSERT_TRUE(argv_has(&a, "-sandbox", "elevateprivileges="), "elevateprivileges set");
	snprintf(cmd, sizeof(cmd), "%u:%u", LAB_QEMU_UID, LAB_QEMU_UID);
	ASSERT_TRUE(argv_has(&a, "-runas", cmd), "-runas LAB_QEMU_UID");
	ASSERT_TRUE(LAB_QEMU_UID != 0, "not root");
	/* the results tree is kept visible in the guest: setup.sh is read from it */
	ASSERT_TRUE(argv_has(&a, "-append", "bpfwire.keep=" BPFWIRE_SOURCE_ROOT "," BPFWIRE_BUILD_ROOT
			     ",/tmp/results/lone-0001 "), "bpfwire.keep has RUN");
	tap_case_end();

	/* the probe boots the same untrusted kernel, before any guest */
	tap_case_begin("the KVM probe's QEMU: the same -sandbox and -runas as a guest's");
	struct argv p = { 0 };

	ASSERT_OK(qemu_probe_argv(&r, "/run/bpfwire/lone-0001/kvm-probe.console", &p), "qemu_probe_argv");
	for (const char *const *o = (const char *const[]){ "-sandbox", "-runas", NULL }; *o; o++) {
		const char *want = argv_value(&a, *o), *got = argv_value(&p, *o);

		printf("# %s: guest '%s', probe '%s'\n", *o, want ? want : "(none)", got ? got : "(none)");
		ASSERT_STREQ(got, want, *o);
	}
	argv_free(&p);
	argv_free(&a);
	tap_case_end();

	tap_case_begin("the lab's files for people are outside the guest's share");
	n = strlen(r.guests[0].dir);
	for (const char *const *f = (const char *const[]){ "qemu.cmdline", "qemu.log", "setup.sh", NULL }; *f; f++) {
		ASSERT_OK(lab_guest_path(&r, "lone", *f, path, sizeof(path)), *f);
		ASSERT_FALSE(!strncmp(path, r.guests[0].dir, n) && (path[n] == '/' || !path[n]), path);
		ASSERT_TRUE(!strncmp(path, r.results, strlen(r.results)), "under RUN");
	}
	tap_case_end();
}

int main(int argc, char **argv)
{
	char victim[PATH_MAX + 16];

	if (argc != 2) {
		fprintf(stderr, "usage: test_hostsafe TOPOLOGY\n");
		return 2;
	}
	if (!mkdtemp(tmp))
		return tap_skip_all("no temporary dir");
	test_claim();
	test_cmdline(argv[1]);
	snprintf(victim, sizeof(victim), "rm -rf '%s'", tmp);
	if (system(victim))
		perror(victim);
	return tap_done();
}
