// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-lab: the command line over lab/run.h. See lab/README.md. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmdline.h"
#include "compare_cmd.h"
#include "errnames.h"
#include "file.h"
#include "lab-config.h"
#include "log.h"
#include "proc.h"
#include "scenario/runner.h"
#include "scenario_cmd.h"
#include "topo/topo_lookup.h"
#include "topo/topo_parse.h"
#include "topo/topology.h"
#include "vm/guest.h"
#include "vm/lifecycle.h"
#include "vm/model.h"
#include "vm/net.h"
#include "vm/qga.h"
#include "vm/reaper.h"
#include "vm/rootview.h"
#include "vm/state.h"
#include "vm/status.h"
#include "vm/util.h"

static const char usage_main[] =
"usage: bpfwire-lab [-v] COMMAND [ARGS]   (COMMAND --help for details)\n"
"\n"
"  up TOPOLOGY            boot a topology; returns when every guest is ready\n"
"  check TOPOLOGY|SCENARIO...   parse topologies, lint scenarios; errors as file:line (exit 2)\n"
"  exec HOST -- CMD...    run CMD in HOST via qemu-ga; its stdout, stderr, status\n"
"  spawn HOST -- CMD...   start CMD in the background; prints its guest pid\n"
"  wait HOST PID          wait for a spawned command; its output and status\n"
"  link HOST IFACE up|down [--bridge]   carrier (QMP set_link) or bridge port\n"
"  netem HOST IFACE ARGS...|off          tc netem on IFACE's egress in the guest\n"
"  capture [SEGMENT]      list captures, or start one on SEGMENT\n"
"  shell HOST             interactive shell on the guest's serial port\n"
"  status                 state of the run\n"
"  down [--all]           tear the run down (also one left by a crashed lab)\n"
"  list                   list the scenarios, then the runs\n"
"  bench-boot TOPOLOGY    boot, report time to ready and RAM per guest, down\n"
"  run SCENARIO           run a scenario (lab/scenario/runner.c): up, steps, verdict, down\n"
"  scenarios              list the shipped scenarios\n"
"  report RUN...          write a run's index.html and summary.md again\n"
"  confine DIR -- CMD     run CMD with the guests' read-only root view in DIR\n"
"  compare RUN_A RUN_B    two runs side by side: steps, checks, counts; exit 1 if a verdict changed\n"
"\n"
"Options may come before or after a command's arguments (`--` ends them).\n"
"Every command takes --help, -v, --dry-run (check the arguments, say what\n"
"would be done, change nothing) and --run ID. Commands after `up` find\n"
"their run with --run ID, $BPFWIRE_RUN, or as the only run in\n"
LAB_STATE_ROOT ".\n"
"  --version              bpfwire-lab's version\n";

/* "pair" -> SOURCE/topology/pair.topo when there is no such file here. */
static const char *resolve_topology(const char *arg, char *buf, size_t len)
{
	if (file_exists(arg) || strchr(arg, '/'))
		return arg;
	snprintf(buf, len, "%s/topology/%s.topo", BPFWIRE_SOURCE_ROOT, arg);
	return file_exists(buf) ? buf : arg;
}

static int load_topology(const char *arg, struct topology *t)
{
	char buf[4096], err[1024];

	if (topo_parse_file(resolve_topology(arg, buf, sizeof(buf)), t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return LAB_EUSAGE;
	}
	return 0;
}

/* ---- up / bench-boot --------------------------------------------------- */

static const char usage_up[] =
"usage: bpfwire-lab up [OPTIONS] TOPOLOGY\n"
"Boot TOPOLOGY (a file, or a name listed below) in netns bpfwire-ID and\n"
"return once every guest is ready; the guests keep running until `down`.\n"
"  --run ID          run id (default TOPOLOGY-XXXX)\n"
"  --results DIR     results dir RUN (default ./results/ID)\n"
"  --kernel PATH     bzImage (default $BPFWIRE_KERNEL, else BUILD/kernel/bzImage)\n"
"  --accel auto|kvm|tcg   auto probes KVM for 3 s, then falls back to TCG\n"
"  --timeout SECS    per guest, to ready (default 60)\n"
"  --append PARAMS   extra kernel parameters for every guest\n"
"  --no-capture      no tcpdump per segment\n"
"  --share-size MIB  each guest's writable share RUN/hosts/NAME is a tmpfs of this\n"
"                    size until down copies it to disk (default 128; 1..65536)\n"
"  --underlay-netns NS   reach remote hosts (and make the lab's VXLAN ends)\n"
"                    from netns NS; default: the root namespace\n"
"  --ssh-config FILE ssh -F FILE for remote hosts (IdentityFile, UserKnownHostsFile)\n"
"  --part NAME       a topology split across machines: boot only part NAME; its\n"
"                    segments meet the other parts' over VXLAN (in the underlay netns)\n"
"  --icount HOST     boot guest HOST with -icount shift=0,sleep=off (its clock\n"
"                    counts instructions; repeatable; the topology key `icount on`)\n"
"  -q, --quiet       no progress lines\n"
"Exit status: 0 ready, 1 failed (everything torn down), 2 bad usage/topology.\n";

static const char usage_bench[] =
"usage: bpfwire-lab bench-boot [OPTIONS] TOPOLOGY\n"
"Boot TOPOLOGY, print each guest's time to kernel-up and ready and its QEMU\n"
"RSS, then tear down. Options as for `up`, plus --repeat N. Results go to\n"
"a new /tmp/bpfwire-bench-XXXXXX each (mkdtemp) unless --results is given.\n";

struct up_ctx {
	struct lab_up_opts o;
	int repeat;
	const char *icount[TOPO_MAX_HOSTS];	/* --icount HOST, as the topology's icount key */
	int nicount;
};

static int up_opt(int c, const char *arg, void *p)
{
	struct up_ctx *u = p;

	switch (c) {
	case 'R': u->o.results = arg; return 0;
	case 'k': u->o.kernel = arg; return 0;
	case 'a':
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") && strcmp(arg, "tcg"))
			return -1;
		u->o.accel = arg;
		return 0;
	case 't': u->o.timeout_s = atoi(arg); return u->o.timeout_s > 0 ? 0 : -1;
	case 'A': u->o.append = arg; return 0;
	case 'C': u->o.capture = false; return 0;
	case 'q': u->o.quiet = true; return 0;
	case 'N': u->repeat = atoi(arg); return u->repeat > 0 ? 0 : -1;
	case 'U': u->o.underlay_netns = arg; return 0;
	case 'S': u->o.ssh_config = arg; return 0;
	case 'P': u->o.part = arg; return 0;
	case 'Z': return parse_share_mib(arg, &u->o.share_mib);
	case 'I':
		if (u->nicount == TOPO_MAX_HOSTS)
			return -1;
		u->icount[u->nicount++] = arg;
		return 0;
	}
	return -1;
}

static const struct option up_opts[] = {
	{ "results", required_argument, NULL, 'R' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "accel", required_argument, NULL, 'a' },
	{ "timeout", required_argument, NULL, 't' },
	{ "append", required_argument, NULL, 'A' },
	{ "no-capture", no_argument, NULL, 'C' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "repeat", required_argument, NULL, 'N' },
	{ "underlay-netns", required_argument, NULL, 'U' },
	{ "ssh-config", required_argument, NULL, 'S' },
	{ "part", required_argument, NULL, 'P' },
	{ "icount", required_argument, NULL, 'I' },
	{ "share-size", required_argument, NULL, 'Z' },
	{ 0 }
};

static int do_up(int argc, char **argv, bool bench)
{
	struct up_ctx u = { .o = { .accel = "auto", .timeout_s = 60, .capture = true }, .repeat = 1 };
	const char *usage = bench ? usage_bench : usage_up;
	struct topology *t;
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage, "q", up_opts, up_opt, &u);
	if (argc != 1)
		return bad_args(argc, argv, "one TOPOLOGY");
	u.o.run_id = opt_run;
	t = malloc(sizeof(*t));
	if (!t)
		return LAB_FAIL;
	ret = load_topology(argv[0], t);
	for (int i = 0; i < u.nicount && !ret; i++)
		if (topo_set_icount(t, u.icount[i]))
			ret = LAB_EUSAGE;
	if (ret || opt_dry_run) {
		if (!ret)
			dry_run_say("boot %s (%d segment%s, %d host%s), accel %s", t->path, t->nsegments,
				t->nsegments == 1 ? "" : "s", t->nhosts, t->nhosts == 1 ? "" : "s", u.o.accel);
		free(t);
		return ret;
	}
	lab_install_signals();
	for (int i = 0; i < (bench ? u.repeat : 1) && !ret; i++) {
		char tmp[64];

		if (bench && !u.o.results) {
			/*
			 * Out of ./results, under a name no one can guess or make
			 * first, root's alone to write; then 0755, like ./results/ID:
			 * QEMU's 9p, no longer root, opens each directory above a
			 * guest's files to read them (setup.sh, the share).
			 */
			snprintf(tmp, sizeof(tmp), "/tmp/bpfwire-bench-XXXXXX");
			if (!mkdtemp(tmp) || chmod(tmp, 0755)) {
				pr_warn("couldn't create a results dir in /tmp: %s", errno_str(errno));
				ret = LAB_FAIL;
				break;
			}
			u.o.results = tmp;
		}
		ret = lab_up(&u.o, t, &r);
		if (bench && u.o.results == tmp)
			u.o.results = NULL;
		if (ret || !bench)
			break;
		printf("bench-boot %s (%s), run %d: %d guest%s ready in %.2f s\n", t->name, r->accel, i + 1,
		       r->nguests, r->nguests == 1 ? "" : "s", r->boot_s);
		for (int g = 0; g < r->nguests; g++)
			printf("  %-12s kernel up %5.2f s  ready %5.2f s  QEMU RSS %4ld MiB (guest RAM %u MiB)\n",
			       r->guests[g].name, r->guests[g].t_kernel, r->guests[g].t_ready,
			       r->guests[g].rss_kib / 1024, topo_host(t, r->guests[g].name)->memory_mib);
		ret = lab_down(r, true);
		lab_free(r);
	}
	if (!bench && !ret) {
		lab_detach(r);	/* ready: the run outlives this process, for exec and down */
		lab_free(r);
	}
	free(t);
	return ret;
}

/* ---- exec / spawn / wait ----------------------------------------------- */

static const char usage_exec[] =
"usage: bpfwire-lab exec [--run ID] [--timeout SECS] HOST -- CMD [ARGS...]\n"
"Run CMD in HOST through qemu-ga guest-exec (PATH-searched, no shell: use\n"
"`sh -c '...'`). Prints its stdout and stderr; exits with its status\n"
"(128+N if signal N ended it; 125 if the lab could not run it). Default timeout 60 s.\n";
static const char usage_spawn[] =
"usage: bpfwire-lab spawn [--run ID] HOST -- CMD [ARGS...]\n"
"Start CMD in HOST in the background; prints its guest pid for `wait`.\n";
static const char usage_wait[] =
"usage: bpfwire-lab wait [--run ID] [--timeout SECS] HOST PID\n"
"Wait for a spawned command; print its output, exit with its status\n(125 if the lab failed).\n";

static int timeout_opt(int c, const char *arg, void *p)
{
	if (c != 't')
		return -1;
	*(int *)p = atoi(arg) * 1000;
	return 0;
}

static const struct option timeout_opts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ 0 }
};

/*
 * Raw, byte for byte: `exec` is the user asking for the command's output,
 * as with ssh HOST CMD, and it may be piped into a file or a tool. The
 * runner's logs and summaries, which nobody asked a guest to write into,
 * escape it (escape.h).
 */
static int print_result(struct qga_result *res)
{
	int st;

	fwrite(res->out, 1, res->out_len, stdout);
	fflush(stdout);
	fwrite(res->err, 1, res->err_len, stderr);
	if (res->truncated)
		pr_warn("qemu-ga truncated the command's output");
	st = res->signal ? 128 + res->signal : res->exitcode;
	qga_result_free(res);
	return st;
}

static int cmd_exec(int argc, char **argv, bool spawn_only)
{
	int timeout_ms = 60000, ret;
	const char *usage = spawn_only ? usage_spawn : usage_exec;
	struct qga_result res;
	struct lab_run *r;
	const char *host;

	COMMON(argc, argv, usage, "t:", timeout_opts, timeout_opt, &timeout_ms);
	if (argc < 2)
		return bad_args(argc, argv, "HOST -- CMD [ARGS...]");
	host = argv[0];
	argc--;
	argv++;
	if (!strcmp(argv[0], "--")) {
		argc--;
		argv++;
	}
	if (argc < 1)
		return bad_args(0, argv, "a CMD after HOST --");
	if (opt_dry_run)
		return dry_run_say("%s %s in guest %s", spawn_only ? "start" : "run", argv[0], host);
	lab_install_signals();
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	if (spawn_only) {
		long pid = lab_spawn(r, host, argv);

		lab_free(r);
		if (pid < 0)
			return LAB_FAIL;
		printf("%ld\n", pid);
		return 0;
	}
	ret = lab_exec(r, host, argv, timeout_ms, &res);
	lab_free(r);
	if (ret)
		return 125;
	return print_result(&res);
}

static int cmd_wait(int argc, char **argv)
{
	int timeout_ms = -1, ret;
	struct qga_result res;
	struct lab_run *r;
	char *end;
	long pid;

	COMMON(argc, argv, usage_wait, "t:", timeout_opts, timeout_opt, &timeout_ms);
	if (argc != 2)
		return bad_args(argc, argv, "HOST PID");
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 0)
		return bad_args(argc, argv, "HOST PID, PID a number above 0");
	if (opt_dry_run)
		return dry_run_say("wait for pid %ld in guest %s", pid, argv[0]);
	lab_install_signals();
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	ret = lab_wait(r, argv[0], pid, timeout_ms, &res);
	lab_free(r);
	if (ret)
		return 125;
	return print_result(&res);
}

/* ---- link / netem / capture ------------------------------------------- */

static const char usage_link[] =
"usage: bpfwire-lab link [--run ID] [--bridge] HOST IFACE up|down\n"
"Carrier on HOST's IFACE through QMP set_link (the guest sees the link go\n"
"down), or with --bridge the tap's bridge port in the lab netns (the guest\n"
"keeps its carrier; frames are dropped).\n";

static int bridge_opt(int c, const char *arg, void *p)
{
	(void)arg;
	if (c != 'b')
		return -1;
	*(bool *)p = true;
	return 0;
}

static int cmd_link(int argc, char **argv)
{
	static const struct option o[] = { { "bridge", no_argument, NULL, 'b' }, { 0 } };
	bool bridge = false;
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_link, "", o, bridge_opt, &bridge);
	if (argc != 3 || (strcmp(argv[2], "up") && strcmp(argv[2], "down")))
		return bad_args(argc, argv, "HOST IFACE up|down");
	if (opt_dry_run)
		return dry_run_say("set %s's %s %s (%s)", argv[0], argv[1], argv[2], bridge ? "bridge port" : "carrier");
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	ret = lab_link(r, argv[0], argv[1], !strcmp(argv[2], "up"),
		       bridge ? LINK_BRIDGE_PORT : LINK_CARRIER) ? LAB_FAIL : 0;
	lab_free(r);
	return ret;
}

static const char usage_netem[] =
"usage: bpfwire-lab netem [--run ID] [--tap] HOST IFACE NETEM-ARGS...|off\n"
"tc netem on IFACE's egress inside HOST (the guest kernel has sch_netem),\n"
"e.g. `netem sender eth0 loss 10% delay 20ms`; `off` removes it.\n"
"--tap puts it on the tap behind IFACE in the lab netns instead (frames\n"
"towards the guest); that needs sch_netem in this machine's kernel.\n";

static int cmd_netem(int argc, char **argv)
{
	static const struct option o[] = { { "tap", no_argument, NULL, 'b' }, { 0 } };
	bool tap = false;
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_netem, "", o, bridge_opt, &tap);
	if (argc < 3)
		return bad_args(argc, argv, "HOST IFACE NETEM-ARGS...|off");
	if (opt_dry_run)
		return dry_run_say("set netem on %s's %s%s: %s...", argv[0], argv[1], tap ? " (its tap)" : "", argv[2]);
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	ret = (tap ? lab_netem_tap : lab_netem)(r, argv[0], argv[1],
						 !strcmp(argv[2], "off") && argc == 3 ? NULL : argv + 2) ? LAB_FAIL : 0;
	lab_free(r);
	return ret;
}

static const char usage_capture[] =
"usage: bpfwire-lab capture [--run ID] [SEGMENT]\n"
"Captures are on by default (`up --no-capture` turns them off): one tcpdump\n"
"per segment into RUN/segments/SEGMENT.pcap. Without SEGMENT, list them;\n"
"with it, start capturing that segment if it isn't already.\n";

static int cmd_capture(int argc, char **argv)
{
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_capture, NULL, NULL, NULL, NULL);
	if (argc > 1)
		return bad_args(argc, argv, "at most one SEGMENT");
	if (opt_dry_run)
		return dry_run_say(argc ? "start capturing segment %s" : "list the captures%s", argc ? argv[0] : "");
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	if (argc == 1) {
		ret = lab_capture_start(r, argv[0]) ? LAB_FAIL : 0;
	} else {
		for (int s = 0; s < r->nsegments; s++) {
			int pid = 0;

			for (int i = 0; i < r->nprocs; i++)
				if (!strcmp(r->procs[i].role, "tcpdump") && !strcmp(r->procs[i].name, r->segments[s].name) &&
				    proc_alive(r->procs[i].pid, r->procs[i].start))
					pid = r->procs[i].pid;
			printf("%-12s %-10s %s %s\n", r->segments[s].name, r->segments[s].bridge,
			       pid ? "capturing into" : "not capturing;", pid ? r->segments[s].pcap : "");
		}
	}
	lab_free(r);
	return ret;
}

/* ---- shell / status / down / list -------------------------------------- */

static const char usage_shell[] =
"usage: bpfwire-lab shell [--run ID] HOST\n"
"Interactive shell on HOST's second serial port (ttyS1); the kernel console\n"
"(ttyS0) is in RUN/consoles/HOST.log. Ctrl-] leaves.\n";
static const char usage_status[] = "usage: bpfwire-lab status [--run ID]\nThe run's processes, guests, NICs and segments.\n";
static const char usage_down[] =
"usage: bpfwire-lab down [--run ID | --all]\n"
"Kill every process of the run by pid (QEMU, tcpdump, dnsmasq, then anything\n"
"left in its netns), delete the netns and the state dir, and scan the\n"
"consoles for kernel splats (exit 1 if any, quoted in RUN/splats.txt).\n"
"--all also removes runs without readable state and orphan bpfwire-* netns.\n";
static const char usage_list[] = "usage: bpfwire-lab list\nThe shipped scenarios with their summaries, then the runs in " LAB_STATE_ROOT "\nand orphan bpfwire-* netns.\n";

static int cmd_shell(int argc, char **argv)
{
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_shell, NULL, NULL, NULL, NULL);
	if (argc != 1)
		return bad_args(argc, argv, "one HOST");
	if (opt_dry_run)
		return dry_run_say("open a shell on %s's ttyS1", argv[0]);
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	lab_install_signals();
	ret = lab_shell(r, argv[0]) ? LAB_FAIL : 0;
	lab_free(r);
	return ret;
}

static int cmd_status(int argc, char **argv)
{
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_status, NULL, NULL, NULL, NULL);
	if (argc)
		return bad_args(argc, argv, "no argument");
	if (opt_dry_run)
		return dry_run_say("print the run's state");
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	lab_status(r, stdout);
	lab_free(r);
	return 0;
}

static int all_opt(int c, const char *arg, void *p)
{
	return bridge_opt(c == 'A' ? 'b' : c, arg, p);
}

static int cmd_down(int argc, char **argv)
{
	static const struct option o[] = { { "all", no_argument, NULL, 'A' }, { 0 } };
	bool all = false;
	struct lab_run *r;
	int ret;

	COMMON(argc, argv, usage_down, "", o, all_opt, &all);
	if (argc)
		return bad_args(argc, argv, "no argument");
	if (opt_dry_run)
		return dry_run_say("tear down %s", all ? "every run and orphan bpfwire-* netns" : "the run");
	/* teardown runs to its end: a second Ctrl-C must not cut it short */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	if (all)
		return lab_down_all(false);
	ret = lab_open(opt_run, &r);
	if (ret)
		return ret;
	ret = lab_down(r, false);
	lab_free(r);
	return ret;
}

static int cmd_list(int argc, char **argv)
{
	int ret;

	COMMON(argc, argv, usage_list, NULL, NULL, NULL, NULL);
	if (argc)
		return bad_args(argc, argv, "no argument");
	printf("scenarios (bpfwire-lab run NAME):\n");
	ret = runner_list(stdout);
	printf("runs:\n");
	return lab_list(stdout) ?: ret;
}

static int cmd_up(int argc, char **argv) { return do_up(argc, argv, false); }
static int cmd_bench_boot(int argc, char **argv) { return do_up(argc, argv, true); }
static int cmd_spawn(int argc, char **argv) { return cmd_exec(argc, argv, true); }
static int cmd_exec_fg(int argc, char **argv) { return cmd_exec(argc, argv, false); }

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "up", cmd_up }, { "bench-boot", cmd_bench_boot }, { "check", cmd_check },
	{ "exec", cmd_exec_fg }, { "spawn", cmd_spawn }, { "wait", cmd_wait },
	{ "link", cmd_link }, { "netem", cmd_netem }, { "capture", cmd_capture },
	{ "shell", cmd_shell }, { "status", cmd_status }, { "down", cmd_down },
	{ "list", cmd_list }, { "run", cmd_run }, { "scenarios", cmd_scenarios },
	{ "confine", rootview_cmd }, { "compare", compare_cmd }, { "report", cmd_report },
};

int main(int argc, char **argv)
{
	const char *cmd;

	log_init("bpfwire-lab", LOG_INFO);
	/*
	 * Every mode the lab names is the mode it means, whatever root's umask:
	 * QEMU, once -runas dropped root, reads the dirs, setup.sh and the guest
	 * root view the lab makes for it as any user would.
	 */
	umask(022);
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-v") || !strcmp(argv[1], "--verbose")) {
			log_init("bpfwire-lab", LOG_DEBUG);
		} else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			fputs(usage_main, stdout);
			return 0;
		} else if (!strcmp(argv[1], "--version")) {
			cli_version("bpfwire-lab");
			return 0;
		} else if (!strcmp(argv[1], "--dry-run") || !strcmp(argv[1], "-n")) {
			opt_dry_run = true;
		} else {
			fprintf(stderr, "bpfwire-lab: unknown option '%s' before the command; accepted: -v --verbose -h --help --version --dry-run\n",
				argv[1]);
			return LAB_EUSAGE;
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "bpfwire-lab: no command given\n");
		fputs(usage_main, stderr);
		return LAB_EUSAGE;
	}
	cmd = argv[1];
	snprintf(cmd_prog, sizeof(cmd_prog), "bpfwire-lab %s", cmd);
	argc--;
	argv++;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].fn(argc, argv);
	fprintf(stderr, "bpfwire-lab: unknown command '%s'\n", cmd);
	fputs(usage_main, stderr);
	return LAB_EUSAGE;
}
