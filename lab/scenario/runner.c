// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario runner: parse a scenario and its topology, check every step
 * against the topology before anything boots, bring the lab up, run the
 * steps in order, scan the consoles, write summary.json and summary.txt,
 * and always tear down (unless --keep). The exit code is the verdict.
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "kapi.h"
#include "lab-config.h"
#include "log.h"
#include "proc.h"
#include "report/pages.h"
#include "scenario.h"
#include "steps.h"
#include "summary_write.h"
#include "timeutil.h"
#include "topo/topo_lookup.h"
#include "topo/topo_parse.h"
#include "topo/topology.h"
#include "vm/console.h"
#include "vm/guest.h"
#include "vm/kseries.h"
#include "vm/lifecycle.h"
#include "vm/model.h"
#include "vm/preflight.h"
#include "vm/qga.h"
#include "vm/state.h"
#include "vm/sysrq.h"
#include "vm/util.h"

const char *runner_scenario_dir(void)
{
	static char dir[PATH_MAX];

	if (!dir[0]) {
		const char *env = getenv("BPFWIRE_SCENARIOS");

		snprintf(dir, sizeof(dir), "%s", env ? env : BPFWIRE_SOURCE_ROOT "/scenarios");
	}
	return dir;
}

void runner_scenario_path(const char *name, char *path, size_t len)
{
	if (strchr(name, '/'))
		snprintf(path, len, "%s", name);
	else
		snprintf(path, len, "%s/%s", runner_scenario_dir(), name);
}

void runner_topology_path(const struct scenario *s, char *path, size_t len)
{
	snprintf(path, len, "%s/topology/%s.topo", BPFWIRE_SOURCE_ROOT, s->topology);
}

int runner_check_topology(const struct scenario *s, const struct topology *t, FILE *err)
{
	int bad = 0;

	for (int i = 0; i < s->nsteps; i++) {
		const struct scn_step *st = &s->steps[i];
		const struct topo_host *h;

		if (!st->host[0])
			continue;
		h = topo_host(t, st->host);
		if (!h) {
			fprintf(err, "%s:%d: host '%s' is not in topology %s\n",
				s->path, st->line, st->host, t->path);
			bad++;
		} else if (st->iface[0] && topo_nic_index(h, st->iface) < 0) {
			fprintf(err, "%s:%d: host '%s' has no interface '%s' in %s\n",
				s->path, st->line, st->host, st->iface, t->path);
			bad++;
		}
	}
	if (t->nparts) {
		fprintf(err, "%s: topology %s is split into parts; the runner drives a whole lab only\n",
			s->path, t->path);
		bad++;
	}
	return bad;
}

/*
 * --trace: bpfwire-trace records in every guest from before the first step
 * to after the last; bpfwire-path turns the records into RUN/path.* on the
 * host. The interface between them is trace/README.md.
 */
static int trace_start(struct runner *rn, long *pids, char *why, size_t whylen)
{
	char cmd[PATH_MAX * 2];

	for (int i = 0; i < rn->lab->nguests; i++) {
		const struct lab_guest *g = &rn->lab->guests[i];
		char *argv[] = { "/bin/sh", "-c", cmd, NULL };
		struct qga_result res = { 0 };
		int r;

		snprintf(cmd, sizeof(cmd), "exec %s/trace/bpfwire-trace record --out %s/trace.jsonl "
			 "--ready-file /tmp/bpfwire-trace.ready > %s/trace.log 2>&1",
			 BPFWIRE_BUILD_ROOT, g->dir, g->dir);
		pids[i] = lab_spawn(rn->lab, g->name, argv);
		if (pids[i] <= 0) {
			snprintf(why, whylen, "couldn't start bpfwire-trace on %s", g->name);
			return -1;
		}
		snprintf(cmd, sizeof(cmd), "for i in $(seq 300); do [ -e /tmp/bpfwire-trace.ready ] && exit 0; "
			 "sleep 0.1; done; exit 1");
		r = lab_exec(rn->lab, g->name, argv, 60000, &res);
		free(res.out);
		free(res.err);
		if (r < 0 || !res.exited || res.exitcode) {
			snprintf(why, whylen, "bpfwire-trace on %s never became ready (see %s/trace.log)",
				 g->name, g->dir);
			return -1;
		}
	}
	return 0;
}

static int trace_stop(struct runner *rn, const long *pids, char *why, size_t whylen)
{
	int bad = 0;

	for (int i = 0; i < rn->lab->nguests; i++) {
		const struct lab_guest *g = &rn->lab->guests[i];
		char *argv[] = { "/bin/sh", "-c", "pkill -INT -x bpfwire-trace", NULL };
		struct qga_result res = { 0 };

		if (pids[i] <= 0)
			continue;
		lab_exec(rn->lab, g->name, argv, 10000, &res);
		free(res.out);
		free(res.err);
		memset(&res, 0, sizeof(res));
		if (lab_wait(rn->lab, g->name, pids[i], 30000, &res) < 0 || !res.exited ||
		    res.signal || res.exitcode) {
			snprintf(why, whylen, "bpfwire-trace on %s did not end cleanly (see %s/trace.log)",
				 g->name, g->dir);
			bad = -1;
		}
		free(res.out);
		free(res.err);
	}
	return bad;
}

static int trace_report(struct runner *rn, char *why, size_t whylen)
{
	char tool[PATH_MAX], out[4096];
	char *argv[] = { tool, rn->results, NULL };
	int r;

	snprintf(tool, sizeof(tool), "%s/trace/bpfwire-path", BPFWIRE_BUILD_ROOT);
	r = run_cmd(argv, NULL, out, sizeof(out));
	esc_fputs(stdout, out, ESC_KEEP_NL);	/* it quotes the guests' records */
	if (out[0])
		putchar('\n');	/* run_cmd strips the last newline */
	if (r) {
		why_set(why, whylen, "bpfwire-path %s failed (exit %d)", rn->results, r);
		return -1;
	}
	return 0;
}

/*
 * ./results/NAME-STAMP, or NAME-STAMP-N when a run started in the same
 * second took that: the dir is claimed by one mkdir(), never shared.
 */
static int default_results(const char *name, char *out, size_t len)
{
	char cwd[PATH_MAX], stamp[32], parent[PATH_MAX + 16];
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	snprintf(parent, sizeof(parent), "%s/results", cwd);
	if (mkdir_p(parent, 0755)) {
		pr_warn("run: can't create %s: %s", parent, errno_str(errno));
		return -1;
	}
	for (int i = 1; i < 100; i++) {
		int n = i == 1 ? snprintf(out, len, "%s/%s-%s", parent, name, stamp)
			       : snprintf(out, len, "%s/%s-%s-%d", parent, name, stamp, i);

		if (n >= (int)len) {
			pr_warn("run: the results path for %s is too long", name);
			return -1;
		}
		if (!mkdir(out, 0755))
			return 0;
		if (errno != EEXIST) {
			pr_warn("run: can't create %s: %s", out, errno_str(errno));
			return -1;
		}
	}
	pr_warn("run: no free results dir %s/%s-%s-N", parent, name, stamp);
	return -1;
}

/*
 * Each ${BUILD}/FILE and ${SRC}/FILE a guest runs or reads: one that QEMU,
 * as a user of no rights, could not read (a build under umask 077) stops
 * the run before boot in one line, not as a step that fails after it.
 */
static int guest_files_readable(const struct scenario *s)
{
	static const struct { const char *var, *root; } trees[] = {
		{ "${BUILD}/", BPFWIRE_BUILD_ROOT }, { "${SRC}/", BPFWIRE_SOURCE_ROOT },
	};
	char path[PATH_MAX], why[PATH_MAX * 2 + 200];

	for (int i = 0; i < s->nsteps; i++) {
		const struct scn_step *st = &s->steps[i];

		if ((st->op != SCN_EXEC && st->op != SCN_SPAWN) || !st->text)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(trees); k++)
			for (const char *p = strstr(st->text, trees[k].var); p; p = strstr(p + 1, trees[k].var)) {
				const char *f = p + strlen(trees[k].var);
				size_t n = strspn(f, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-/");

				snprintf(path, sizeof(path), "%s/%.*s", trees[k].root, (int)n, f);
				if (guest_readable(trees[k].root, path, why, sizeof(why))) {
					pr_warn("run: %s:%d: %s", s->path, st->line, why);
					return -1;
				}
			}
	}
	return 0;
}

/* Parse the scenario and its topology, check one against the other, make RUN/steps. */
/* --kernel-series: that series' bzImage, or why it is missing (LAB_NA). */
static int series_kernel(struct runner *rn, const char *name)
{
	unsigned want = kseries_parse(name);

	kseries_kernel(want, rn->kernel, sizeof(rn->kernel));
	if (!access(rn->kernel, R_OK))
		return 0;
	pr_warn("run: no %s kernel at %s: build it with `meson setup -Dkernel_series=%s %s/%s && meson compile -C %s/%s`",
		name, rn->kernel, name, BPFWIRE_SOURCE_ROOT, want == KSERIES_UPSTREAM ? "build-up" : "build",
		BPFWIRE_SOURCE_ROOT, want == KSERIES_UPSTREAM ? "build-up" : "build");
	return -1;
}

/*
 * The kernel to boot, its release and series, checked against the
 * scenario's `series` before anything boots. -1 after a message; series
 * (unsigned)-1 marks a usage error, else the scenario does not apply.
 */
/*
 * Does the kernel's kfunc API (read from its BTF) fit what the scenario
 * needs (`needs`, ksock when unstated) and its `series`? -1 after the
 * reason (the run is SKIP, exit 77), naming the API found and where its
 * prototypes are.
 */
static int runner_api_fits(const struct runner *rn)
{
	const struct scenario *s = rn->s;
	unsigned needs = s->needs & SCN_NEEDS_STATED ? s->needs : SCN_NEEDS_KSOCK;
	const char *see = "bpfwire-kapi --btf DIR/vmlinux, or api.json, prints its kfunc prototypes beside the expected";

	if (needs & SCN_NEEDS_KSOCK && rn->ksock == KAPI_KSOCK_ABSENT) {
		pr_warn("run: scenario %s needs ksock; kernel %s has no ksock kfuncs (ksock API absent, from %s): not run (exit %d)",
			s->name, rn->release, rn->api_from, LAB_NA);
		return -1;
	}
	if (needs & SCN_NEEDS_KSOCK && rn->ksock == KAPI_KSOCK_UNKNOWN) {
		pr_warn("run: scenario %s needs ksock; kernel %s has a ksock API bpfwire does not know (unknown: its bpf_ksock_* prototypes match neither seed nor upstream, from %s; %s): not run (exit %d)",
			s->name, rn->release, rn->api_from, see, LAB_NA);
		return -1;
	}
	if (needs & SCN_NEEDS_NETPOLL && rn->netpoll != KAPI_NETPOLL_PRESENT) {
		pr_warn("run: scenario %s needs netpoll; kernel %s has %s (netpoll %s, from %s%s%s): not run (exit %d)",
			s->name, rn->release, rn->netpoll == KAPI_NETPOLL_ABSENT ?
			"no netpoll kfuncs" : "netpoll kfuncs bpfwire does not know",
			kapi_netpoll_name(rn->netpoll), rn->api_from,
			rn->netpoll == KAPI_NETPOLL_ABSENT ? "" : "; ",
			rn->netpoll == KAPI_NETPOLL_ABSENT ? "" : see, LAB_NA);
		return -1;
	}
	if (needs & SCN_NEEDS_KSOCK && s->series && !(s->series & rn->series)) {
		pr_warn("run: scenario %s applies to series '%s' only; kernel %s has the %s ksock API (from %s): not run (exit %d)",
			s->name, kseries_name(s->series), rn->release,
			kapi_ksock_name(rn->ksock), rn->api_from, LAB_NA);
		return -1;
	}
	return 0;
}

static int runner_kernel(struct runner *rn, const struct runner_opts *o)
{
	unsigned want = o->kernel_series ? kseries_parse(o->kernel_series) : 0;
	char err[PATH_MAX + 128];
	int r;

	if (o->kernel_series && series_kernel(rn, o->kernel_series))
		return -1;
	if (!o->kernel_series)
		snprintf(rn->kernel, sizeof(rn->kernel), "%s", o->kernel ? o->kernel : lab_default_kernel());
	if (access(rn->kernel, F_OK))
		return 0;	/* lab_up's preflight says how to build it */
	if (kseries_bzimage_release(rn->kernel, rn->release, sizeof(rn->release), err, sizeof(err))) {
		pr_warn("run: %s", err);
		rn->series = (unsigned)-1;
		return -1;
	}
	rn->series = kseries_of_release(rn->release);
	r = kseries_kernel_api(rn->kernel, &rn->ksock, &rn->netpoll, rn->api_from,
			       sizeof(rn->api_from), err, sizeof(err));
	if (r < 0) {
		pr_warn("run: %s", err);
		rn->series = (unsigned)-1;
		return -1;
	}
	rn->api_known = r;
	/* The kernel's BTF, not its release, says which ksock API it has. */
	if (r)
		rn->series = rn->ksock == KAPI_KSOCK_SEED ? KSERIES_SEED :
			     rn->ksock == KAPI_KSOCK_UPSTREAM ? KSERIES_UPSTREAM : 0;
	if (want && rn->series != want) {
		pr_warn("run: --kernel-series %s: %s is release %s, which is not the %s series",
			o->kernel_series, rn->kernel, rn->release, o->kernel_series);
		rn->series = (unsigned)-1;
		return -1;
	}
	if (rn->api_known)
		return runner_api_fits(rn);
	if (rn->s->series && rn->series && !(rn->s->series & rn->series)) {
		pr_warn("run: scenario %s applies to series '%s' only; kernel %s is the %s series: not run (exit %d)",
			rn->s->name, kseries_name(rn->s->series), rn->release,
			kseries_name(rn->series), LAB_NA);
		return -1;
	}
	if (rn->s->series && !rn->series)
		pr_warn("run: kernel release %s is no bpfwire series; scenario %s's 'series %s' is not checked",
			rn->release, rn->s->name, kseries_name(rn->s->series));
	return 0;
}

static int runner_prepare(struct runner *rn, const char *name, const struct runner_opts *o)
{
	char path[PATH_MAX + 32], err[1024] = "";

	runner_scenario_path(name, path, sizeof(path));
	if (scenario_parse(path, NULL, rn->s, err, sizeof(err))) {
		pr_warn("run: %s", err);
		if (!strchr(name, '/') && access(path, F_OK))
			pr_warn("run: 'bpfwire-lab list' shows the scenarios");
		return LAB_EUSAGE;
	}
	runner_topology_path(rn->s, path, sizeof(path));
	if (topo_parse_file(path, rn->t, err, sizeof(err)) || runner_check_topology(rn->s, rn->t, stderr)) {
		if (err[0])
			pr_warn("run: %s", err);
		return LAB_EUSAGE;
	}
	if (runner_kernel(rn, o))
		return rn->series == (unsigned)-1 ? LAB_EUSAGE : LAB_NA;
	if (guest_files_readable(rn->s))
		return LAB_FAIL;
	if (o->dry_run) {
		printf("bpfwire-lab run: dry run: would run %s (%d steps) on topology %s, kernel %s%s\n",
		       rn->s->name, rn->s->nsteps, rn->s->topology, rn->kernel,
		       access(rn->kernel, F_OK) ? " (not built yet)" : "");
		return LAB_OK;
	}
	if (o->results)
		snprintf(rn->results, sizeof(rn->results), "%s", o->results);
	else if (default_results(rn->s->name, rn->results, sizeof(rn->results)))
		return LAB_EUSAGE;
	snprintf(path, sizeof(path), "%s/steps", rn->results);
	if (mkdir_p(path, 0755)) {
		pr_warn("run: can't create %s: %s", path, errno_str(errno));
		return LAB_EUSAGE;
	}
	return LAB_OK;
}

/* Every step in order; after the first failure the rest are recorded as skipped. */
int runner_steps(struct runner *rn, int failed, char *reason, size_t rlen)
{
	int nsteps = rn->s->nsteps;

	for (int i = 0; i < nsteps; i++) {
		const struct scn_step *st = &rn->s->steps[i];
		json_object *js = json_object_new_object();
		char what[512], why[768] = "";
		double t = now_s();
		int r;

		step_what(st, what, sizeof(what));
		json_object_object_add(js, "line", json_object_new_int(st->line));
		json_object_object_add(js, "op", json_object_new_string(scenario_op_name(st->op)));
		json_object_object_add(js, "what", json_object_new_string(what));
		json_object_array_add(rn->steps, js);
		if (failed || lab_interrupted) {
			json_object_object_add(js, "verdict", json_object_new_string("skip"));
			json_object_object_add(js, "seconds", json_object_new_double(0));
			continue;
		}
		printf("[%6.1fs] step %d/%d (line %d): %s %s\n", now_s() - rn->t0, i + 1, nsteps,
		       st->line, scenario_op_name(st->op), what);
		fflush(stdout);
		r = run_step(rn, i, js, why, sizeof(why));
		json_object_object_add(js, "seconds", json_object_new_double(now_s() - t));
		json_object_object_add(js, "verdict", json_object_new_string(r ? "FAIL" : "ok"));
		if (r) {
			json_object_object_add(js, "why", json_object_new_string(why));
			printf("[%6.1fs]   FAIL: ", now_s() - rn->t0);
			esc_fputs(stdout, why, 0);	/* it may quote the guest */
			putchar('\n');
			why_set(reason, rlen, "step %d (%s:%d, %s) failed: %s", i + 1,
				rn->s->name, st->line, scenario_op_name(st->op), why);
			failed = LAB_FAIL;
		} else if (now_s() - rn->t0 > rn->s->timeout) {
			snprintf(reason, rlen, "scenario timeout of %.0f s exceeded", rn->s->timeout);
			failed = LAB_FAIL;
			lab_sysrq_dump(rn->lab, NULL, "the scenario timeout passed");
		}
	}
	if (lab_interrupted && !failed) {
		snprintf(reason, rlen, "interrupted");
		failed = LAB_FAIL;
	}
	return failed;
}

/* The lab is up: trace, steps, trace report. Returns the verdict. */
static int run_on_lab(struct runner *rn, const struct runner_opts *o, char *reason, size_t rlen)
{
	long trace_pids[TOPO_MAX_HOSTS] = { 0 };
	int failed = 0;

	if (o->trace && trace_start(rn, trace_pids, reason, rlen)) {
		failed = LAB_FAIL;
		printf("FAIL: %s\n", reason);
	}
	failed = runner_steps(rn, failed, reason, rlen);
	if (o->trace && !lab_interrupted) {
		char why[512] = "";

		/* The recorders have flushed their shares: build RUN/path.*. */
		if ((trace_stop(rn, trace_pids, why, sizeof(why)) ||
		     trace_report(rn, why, sizeof(why))) && !failed) {
			snprintf(reason, rlen, "%s", why);
			failed = LAB_FAIL;
		}
	}
	return failed;
}

/*
 * Tear down (unless --keep), then scan: QEMU has ended, so the consoles hold
 * everything the guests said, teardown included. A splat, a console with no
 * evidence or a failed teardown turns PASS into FAIL.
 */
static int finish_lab(struct runner *rn, const struct runner_opts *o, int failed, char *reason,
		      size_t rlen, int *splats, char **splat_text)
{
	size_t splat_len = 0;
	int down = 0;
	FILE *mf;

	if (o->keep && !lab_interrupted) {
		/* the guests stay up: their consoles are proven now, as lab_down would */
		lab_prove_consoles(rn->lab);
		lab_console_gaps(rn->lab);
		printf("lab left up (--keep): bpfwire-lab status %s; bpfwire-lab down %s\n",
		       rn->lab->id, rn->lab->id);
	} else {
		down = lab_down(rn->lab, false);
	}
	mf = open_memstream(splat_text, &splat_len);
	*splats = lab_scan_splats(rn->lab, mf ? mf : stderr);
	if (mf)
		fclose(mf);
	if (*splats > 0) {
		char unproven[256] = "";

		for (int h = 0; h < rn->lab->nguests; h++) {
			const struct lab_guest *g = &rn->lab->guests[h];
			size_t n = strlen(unproven);

			if (g->pid > 0 && (g->console_proof == LAB_CONSOLE_UNCHECKED ||
					   g->console_proof == LAB_CONSOLE_NO_EVIDENCE))
				snprintf(unproven + n, sizeof(unproven) - n, "%s%s", n ? ", " : "", g->name);
		}
		if (!failed && unproven[0])
			snprintf(reason, rlen, "no evidence: the console of %s was not proven live at "
				 "teardown; %d finding(s) quoted under 'console splats'", unproven, *splats);
		else if (!failed)
			snprintf(reason, rlen, "%d kernel splat(s) or console(s) with no evidence, "
				 "quoted under 'console splats'", *splats);
		failed = LAB_FAIL;
	} else if (down && !failed) {
		snprintf(reason, rlen, "the lab's teardown failed (see the output above)");
		failed = LAB_FAIL;
	}
	return failed;
}

int runner_run(const char *name, const struct runner_opts *o)
{
	struct runner rn = { 0 };
	struct lab_up_opts up = { .accel = o->accel ? o->accel : "auto", .capture = !o->no_capture,
				  .kernel = o->kernel, .append = o->append, .timeout_s = 120,
				  .underlay_netns = o->underlay_netns, .ssh_config = o->ssh_config,
				  .share_mib = o->share_mib };
	char reason[1024] = "", *splat_text = NULL;
	int splats = 0, failed;

	rn.s = calloc(1, sizeof(*rn.s));
	rn.t = calloc(1, sizeof(*rn.t));
	if (!rn.s || !rn.t) {
		free(rn.s);
		free(rn.t);
		return LAB_FAIL;
	}
	failed = runner_prepare(&rn, name, o);
	if (failed || o->dry_run)
		goto out_free;
	up.results = rn.results;
	up.kernel = rn.kernel[0] ? rn.kernel : NULL;
	rn.steps = json_object_new_array();
	rn.reports = json_object_new_object();
	rn.t0 = now_s();

	printf("scenario %s: %s\n", rn.s->name, rn.s->summary);
	printf("results: %s\n", rn.results);
	printf("kernel: %s, release %s, series %s", rn.kernel,
	       rn.release[0] ? rn.release : "unknown", kseries_name(rn.series));
	if (rn.api_known)
		printf(", ksock API %s, netpoll %s (%s)", kapi_ksock_name(rn.ksock),
		       kapi_netpoll_name(rn.netpoll), rn.api_from);
	printf("\n");
	fflush(stdout);
	lab_install_signals();
	if (lab_up(&up, rn.t, &rn.lab)) {
		snprintf(reason, sizeof(reason), "the lab did not come up (topology %s)", rn.s->topology);
		failed = LAB_FAIL;
	} else {
		failed = run_on_lab(&rn, o, reason, sizeof(reason));
		failed = finish_lab(&rn, o, failed, reason, sizeof(reason), &splats, &splat_text);
	}
	runner_write_summary(&rn, failed ? "FAIL" : "PASS", reason, splats, splat_text);
	/* the pages for people, whatever the verdict; a failure here changes none */
	report_run(rn.results);
	if (rn.lab)
		lab_free(rn.lab);
	printf("%s: %s%s", rn.s->name, failed ? "FAIL" : "PASS", reason[0] ? ": " : "");
	esc_fputs(stdout, reason, 0);
	putchar('\n');
	printf("traces: %s (summary.txt, summary.json, consoles, pcaps)\n", rn.results);
	free(splat_text);
	json_object_put(rn.steps);
	json_object_put(rn.reports);
out_free:
	scenario_free(rn.s);
	free(rn.s);
	free(rn.t);
	return failed;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int runner_scenario_names(const char *dir, char **names, int max)
{
	char *argv[] = { "sh", BPFWIRE_SOURCE_ROOT "/scenarios/names.sh", (char *)dir, NULL };
	static char out[64 * 1024];
	int n = 0, r = run_cmd(argv, NULL, out, sizeof(out));

	if (r) {
		pr_warn("%s %s: %s", argv[1], dir, r < 0 ? errno_str(-r) : out);
		return -1;
	}
	for (char *p = out, *nl; p && *p && n < max; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		names[n] = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
		if (!names[n])
			break;
		n++;
	}
	qsort(names, n, sizeof(names[0]), cmp_str);
	return n;
}


int runner_list(FILE *f)
{
	const char *dir = runner_scenario_dir();
	struct scenario *s = calloc(1, sizeof(*s));
	char *names[256], path[PATH_MAX], err[512];
	int n = 0, bad = 0;
	DIR *d = opendir(dir);

	if (!d || !s) {
		pr_warn("list: can't read %s: %s", dir, errno_str(errno));
		free(s);
		if (d)
			closedir(d);
		return LAB_FAIL;
	}
	closedir(d);
	n = runner_scenario_names(dir, names, 256);
	if (n < 0) {
		free(s);
		return LAB_FAIL;
	}
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (scenario_parse(path, NULL, s, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			bad = 1;
		} else {
			fprintf(f, "%-16s %-8s %s\n", s->name, s->topology, s->summary);
			scenario_free(s);
		}
		free(names[i]);
	}
	free(s);
	return bad ? LAB_FAIL : LAB_OK;
}
