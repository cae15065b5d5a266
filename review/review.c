// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-review SERIES: build the lab kernel from a reviewer's series,
 * run the kernel suite, agent-guest and the scenarios that fit its API,
 * and compare each test, case, check and count with the baseline (the
 * shipped flavour whose API matches). The exit status is the verdict.
 * See review/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "fit.h"
#include "flaky.h"
#include "jsonget.h"
#include "kernels.h"
#include "log.h"
#include "options.h"
#include "page.h"
#include "proc.h"
#include "rangediff.h"
#include "reach.h"
#include "readlogs.h"
#include "reply.h"
#include "review-config.h"
#include "runs.h"
#include "series.h"
#include "stamp.h"
#include "static.h"
#include "testlog.h"
#include "vcost.h"
#include "timeutil.h"
#include "verdict.h"


#define KNOWN_FLAKY BPFWIRE_SOURCE_ROOT "/review/known-flaky"
#define REACH_MAP BPFWIRE_SOURCE_ROOT "/review/reach.map"
#define SCENARIOS BPFWIRE_SOURCE_ROOT "/scenarios"

static void bpfwire_commit(char *out, size_t len)
{
	char *rev[] = { "git", "-C", BPFWIRE_SOURCE_ROOT, "rev-parse", "HEAD", NULL };
	char *dirty[] = { "git", "-C", BPFWIRE_SOURCE_ROOT, "status", "--porcelain",
			  "--untracked-files=no", NULL };
	char d[256];

	if (proc_capture(rev, out, len) || !out[0]) {
		snprintf(out, len, "unknown");
		return;
	}
	if (proc_capture(dirty, d, sizeof(d)) || d[0])
		snprintf(out + strlen(out), len - strlen(out), "-dirty");
}

/* build/kernel/api.json's "ksock": seed, upstream, unknown, absent; "" if none. */
static void kernel_api(const char *bdir, char *ksock, size_t len, json_object **api)
{
	char path[PATH_MAX + 32];
	json_object *o;

	snprintf(path, sizeof(path), "%s/kernel/api.json", bdir);
	ksock[0] = '\0';
	*api = NULL;
	o = json_object_from_file(path);
	if (!o)
		return;
	snprintf(ksock, len, "%s", jget_str(o, "ksock", ""));
	*api = o;
}

/* --base: the build directory of the baseline. */
static int base_dir(const char *base, const char *api, char *out, size_t len)
{
	const char *b = base ? base : !strcmp(api, "seed") ? "seed" : "upstream";

	if (!strcmp(b, "seed"))
		snprintf(out, len, "%s/build", BPFWIRE_SOURCE_ROOT);
	else if (!strcmp(b, "upstream"))
		snprintf(out, len, "%s/build-up", BPFWIRE_SOURCE_ROOT);
	else if (!realpath(b, out))
		return cli_bad_value(PROG, "--base", b, "seed, upstream or a build directory");
	return 0;
}

static bool base_ok(const char *dir)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/build.ninja", dir);
	return file_exists(p);
}

/* A -Dkernel=disabled build compiles no kernel, so it waits for no kernel lock. */
static const char *kbuild_lock(const char *dir)
{
	char path[PATH_MAX + 64];
	json_object *o, *e;
	bool off = false;

	snprintf(path, sizeof(path), "%s/meson-info/intro-buildoptions.json", dir);
	o = json_object_from_file(path);
	for (size_t i = 0; o && json_object_is_type(o, json_type_array) && i < json_object_array_length(o); i++) {
		e = json_object_array_get_idx(o, i);
		if (!strcmp(jget_str(e, "name", ""), "kernel"))
			off = !strcmp(jget_str(e, "value", ""), "disabled");
	}
	json_object_put(o);
	return off ? NULL : LOCK_KBUILD;
}

/*
 * The tests a review runs: --tests, or the kernel suite's and the
 * scenarios, and `selftests` when the series carries selftests of its own.
 */
static int test_list(const char *bdir, const char *only, bool selftests, char ***names, int *n)
{
	char *argv[] = { "meson", "test", "-C", (char *)bdir, "--no-rebuild", "--list", NULL };
	static char out[1 << 16];
	char *save = NULL;

	*n = 0;
	*names = calloc(512, sizeof(char *));
	if (!*names)
		return -1;
	if (proc_capture(argv, out, sizeof(out))) {
		pr_warn("meson test --list in %s failed", bdir);
		return -1;
	}
	/* the last line too ends in a newline, for the lookup of --tests */
	strncat(out, "\n", sizeof(out) - strlen(out) - 1);
	if (only) {
		char *tmp = strdup(only);

		for (char *t = strtok_r(tmp, ",", &save); t && *n < 511; t = strtok_r(NULL, ",", &save)) {
			char line[256];

			snprintf(line, sizeof(line), " / %s\n", t);
			if (!strstr(out, line)) {
				fprintf(stderr, PROG ": --tests: %s has no test '%s' (meson test -C %s --list)\n",
					bdir, t, bdir);
				free(tmp);
				return -1;
			}
			(*names)[(*n)++] = strdup(t);
		}
		free(tmp);
		return 0;
	}
	for (char *l = strtok_r(out, "\n", &save); l && *n < 511; l = strtok_r(NULL, "\n", &save)) {
		char *name = strstr(l, " / ");

		if (!name)
			continue;
		name += 3;
		/*
		 * NAME@upstream boots build-up's kernel, not the series'; compare-NAME
		 * compares bpfwire's two 6.12 flavours' runs, so a review's kernel
		 * of one API fails it whatever the series does
		 */
		if (strstr(l, ":scenarios / ") ? !strchr(name, '@') && strncmp(name, "compare-", 8) :
		    !strcmp(name, "kernel-suite") || !strcmp(name, "agent-guest") || !strcmp(name, VC_TEST) ||
		    (selftests && !strcmp(name, "selftests")))
			(*names)[(*n)++] = strdup(name);
	}
	return 0;
}

/* meson test in dir, into meson-logs/LOGBASE.json, under the lab's lock. */
static int run_tests(const char *dir, const char *logbase, char **names, int n)
{
	char old[PATH_MAX + 64];
	/* no --print-errorlogs: a test's output is the guest's, kept in the logs */
	char *argv[600] = { "meson", "test", "-C", (char *)dir, "--no-rebuild",
			    "--logbase", (char *)logbase };
	int a = 7;

	for (int i = 0; i < n && a < 598; i++)
		argv[a++] = names[i];
	argv[a] = NULL;
	/* never read an earlier run's log as this one's */
	snprintf(old, sizeof(old), "%s/meson-logs/%s.json", dir, logbase);
	if (unlink(old) && errno != ENOENT)
		pr_warn("%s: %s", old, errno_str(errno));
	return proc_run(argv, LOCK_GUEST, 0);
}

/*
 * Flakes: the tests that hold a worse case run again on both builds, in
 * rounds (meson-logs/review-retry-N and review-baseline-retry-N), as many
 * as --retries allows and as fit in --retry-budget by the first run's
 * durations; then fl_classify says which worse cases are flaky. 0, or -1
 * when stopped by a signal. *what: a line for review.txt.
 */
static int retry_worse(const struct opts *o, const char *bdir, const char *base, const struct tl_log *rlog,
		       const struct tl_log *blog, const struct fl_list *known, struct vd_report *rep,
		       double *spent, char *what, size_t wlen)
{
	struct tl_log rl[RETRIES_MAX] = { 0 }, bl[RETRIES_MAX] = { 0 };
	char p[PATH_MAX + 128], err[PATH_MAX + 192], list[512] = "";
	double est = 0, t0 = now_s();
	char **names;
	int n, rounds = 0, st = 0;

	*spent = 0;
	what[0] = '\0';
	if (fl_worse_tests(rep, &names, &n))
		return 0;
	if (!n || !o->retries) {
		free(names);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const struct tl_test *r = tl_find(rlog, names[i]), *b = tl_find(blog, names[i]);

		est += (r ? r->duration : 0) + (b ? b->duration : 0);
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", names[i]);
	}
	pr_info("flakes: %d tests hold worse cases (%s): each runs again on both builds, up to %d times, "
		"within %d s (--retries, --retry-budget); a round takes about %.0f s", n, list, o->retries,
		o->retry_budget, est);
	for (int r = 0; r < o->retries; r++) {
		double left = o->retry_budget - (now_s() - t0);
		char lb[64];

		if (est > left) {
			pr_info("flakes: no round %d: about %.0f s, %.0f s of the budget left", r + 1, est, left);
			break;
		}
		snprintf(lb, sizeof(lb), "review-retry-%d", r + 1);
		run_tests(bdir, lb, names, n);
		if (proc_stopped())
			goto stopped;
		snprintf(p, sizeof(p), "%s/meson-logs/%s.json", bdir, lb);
		if (tl_load(p, &rl[r], err, sizeof(err)))
			pr_warn("flakes: %s", err);
		snprintf(lb, sizeof(lb), "review-baseline-retry-%d", r + 1);
		run_tests(base, lb, names, n);
		if (proc_stopped())
			goto stopped;
		snprintf(p, sizeof(p), "%s/meson-logs/%s.json", base, lb);
		if (tl_load(p, &bl[r], err, sizeof(err)))
			pr_warn("flakes: %s", err);
		if (tl_rename_root(&rl[r], bdir) || tl_rename_root(&bl[r], base))
			break;	/* out of memory: the rounds before are classified */
		rounds++;
		/* the next round costs what these did */
		est = (now_s() - t0) / rounds;
	}
	if (fl_classify(rep, known, rl, bl, rounds, names, n))
		pr_warn("flakes: out of memory: the first run's verdict stands");
	*spent = now_s() - t0;
	snprintf(what, wlen, "reruns: %s, %d more times on both builds, %.0f s of a %d s budget: "
		 "%zu flaky, %zu still worse\n", list, rounds, *spent, o->retry_budget, rep->flaky, rep->worse);
	goto out;
stopped:
	st = -1;
out:
	for (int r = 0; r < RETRIES_MAX; r++)
		tl_free(&rl[r]), tl_free(&bl[r]);
	free(names);
	return st;
}

/* RESULTS: BDIR/results/review-NAME-STAMP, made anew. */
static int results_dir(const char *bdir, const char *name, char *out, size_t len)
{
	char parent[PATH_MAX], stamp[32];
	time_t t = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&t));
	if (snprintf(parent, sizeof(parent), "%s/results", bdir) >= (int)sizeof(parent) ||
	    mkdir_p(parent, 0755))
		return -1;
	for (int i = 0; i < 100; i++) {
		int l = i ? snprintf(out, len, "%s/review-%s-%s-%d", parent, name, stamp, i) :
			    snprintf(out, len, "%s/review-%s-%s", parent, name, stamp);

		if (l >= (int)len)
			break;
		if (!mkdir(out, 0755))
			return 0;
		if (errno != EEXIST)
			break;
	}
	pr_warn("no results dir under %s: %s", parent, errno_str(errno));
	return -1;
}

struct phases {
	double build, statics, tests, base, boots, reruns;
};

static json_object *summary_json(const struct opts *o, const char *name, const char *bdir,
				 const char *base, const char *commit, const char *api,
				 json_object *apij, const struct phases *ph, const struct vd_report *rep,
				 const struct tl_log *rlog)
{
	json_object *j = vd_to_json(rep), *t = json_object_new_object();
	char p[PATH_MAX + 32];
	json_object *series;

	json_object_object_add(j, "name", json_object_new_string(name));
	json_object_object_add(j, "series_path", json_object_new_string(o->series));
	json_object_object_add(j, "build", json_object_new_string(bdir));
	json_object_object_add(j, "baseline", json_object_new_string(base));
	json_object_object_add(j, "bpfwire_commit", json_object_new_string(commit));
	json_object_object_add(j, "ksock_api", json_object_new_string(api[0] ? api : "not detected"));
	if (apij)
		json_object_object_add(j, "api", json_object_get(apij));
	snprintf(p, sizeof(p), "%s/kernel/series.json", bdir);
	series = json_object_from_file(p);
	if (series)
		json_object_object_add(j, "series", series);
	json_object_object_add(t, "build", json_object_new_double(ph->build));
	json_object_object_add(t, "static", json_object_new_double(ph->statics));
	json_object_object_add(t, "tests", json_object_new_double(ph->tests));
	json_object_object_add(t, "baseline", json_object_new_double(ph->base));
	json_object_object_add(t, "boots", json_object_new_double(ph->boots));
	json_object_object_add(t, "reruns", json_object_new_double(ph->reruns));
	json_object_object_add(j, "seconds", t);
	json_object_object_add(j, "verdict", json_object_new_string(vd_worse(rep) ? "WORSE" : "OK"));
	for (size_t i = 0; i < rlog->n; i++)
		if (rlog->tests[i].protos) {
			json_object *pr;

			if (!json_object_object_get_ex(j, "prototypes", &pr)) {
				pr = json_object_new_object();
				json_object_object_add(j, "prototypes", pr);
			}
			json_object_object_add(pr, rlog->tests[i].name, json_object_new_string(rlog->tests[i].protos));
		}
	return j;
}

/* --compare: two kept test logs, compared again; nothing built or run. */
/*
 * The static checks: review/checkpatch.sh in the sandbox, on the built
 * tree (BDIR/kernel/sbx/src, whose first commits after pristine are the
 * series' own, as series.json counts them), into BDIR/static; then its
 * files read as data; then each patch on its parent (perpatch.c). What
 * kept them from running is said in st, not fatal. -1 only when a
 * signal stopped them.
 */
static int run_static(const char *bdir, struct st_report *st)
{
	char out[PATH_MAX + 16], src[PATH_MAX + 32], p[PATH_MAX + 64], nstr[16], err[PATH_MAX + 128];
	char *rm[] = { "rm", "-rf", "--", out, NULL }, sink[256];
	double t0 = now_s();
	json_object *sj;
	int r;

	snprintf(p, sizeof(p), "%s/kernel/series.json", bdir);
	sj = json_object_from_file(p);
	r = st_series_patches(st, sj);
	json_object_put(sj);
	if (r) {
		st_not_run(st, "the build's kernel/series.json names no patch of the series");
		return 0;
	}
	snprintf(src, sizeof(src), "%s/kernel/sbx/src", bdir);
	snprintf(p, sizeof(p), "%s/.git", src);
	if (!file_exists(p)) {
		snprintf(err, sizeof(err), "no sandboxed tree at %s", src);
		st_not_run(st, err);
		return 0;
	}
	/* made anew by root: the sandbox's uid gets it (sandbox.sh --rw), never a path it chose */
	snprintf(out, sizeof(out), "%s/static", bdir);
	proc_capture(rm, sink, sizeof(sink));
	snprintf(nstr, sizeof(nstr), "%d", st->patches);
	char *argv[] = { "bash", BPFWIRE_SOURCE_ROOT "/kernel/sandbox.sh", "--rw", out, "--ro", src,
			 "--ro", BPFWIRE_SOURCE_ROOT, "--", "bash", BPFWIRE_SOURCE_ROOT "/review/checkpatch.sh",
			 src, nstr, out, NULL };

	pr_info("static: checkpatch.pl --strict of the series' tree on each of its %d patches, in the sandbox",
		st->patches);
	r = proc_run(argv, NULL, 10);
	st->seconds = now_s() - t0;
	if (proc_stopped())
		return -1;
	if (r) {
		snprintf(err, sizeof(err), "review/checkpatch.sh in the sandbox exited %d (see above)", r);
		st_not_run(st, err);
	} else if (st_load(st, out, err, sizeof(err))) {
		st_not_run(st, err);
	}
	/* each patch on its own parent: its objects build; W=1 and sparse warnings as sets */
	pp_run(&st->pp, BPFWIRE_SOURCE_ROOT, bdir, st->patches, proc_run);
	st->seconds = now_s() - t0;
	return proc_stopped() ? -1 : 0;
}

/*
 * A signal stopped the review (proc.c ended what ran): no verdict, and
 * never "did not build". 128+N, as a shell reports a command that N ended.
 */
static int interrupted(const char *phase)
{
	int sig = proc_stopped();

	pr_warn("interrupted (SIG%s) during %s: no verdict; what it ran was stopped",
		sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", phase);
	return 128 + sig;
}

/*
 * RESULTS/review.eml (reply.c): in reply to the series' first message,
 * with the environment of this review and the command that makes it again.
 */
static void write_reply(const char *res, const char *name, const char *series, const char *bdir, const char *version,
			const char *base, const char *commit, const struct opts *o, int argc, char **argv,
			const struct vd_report *rep, int ntests, const char *static_text, const char *range_text)
{
	char p[PATH_MAX + 64], err[PATH_MAX + 128], kernel[512], configs[2048], cc[256] = "", command[8192];
	char *gcc[] = { "gcc", "--version", NULL };
	struct reply_to t;
	struct reply_env env = { 0 };
	json_object *sj;
	FILE *f;

	if (reply_read_series(series, &t, err, sizeof(err)))
		pr_warn("review.eml: %s: the reply has no In-Reply-To", err);
	snprintf(p, sizeof(p), "%s/kernel/series.json", bdir);
	sj = json_object_from_file(p);
	reply_kernel_line(sj, version, kernel, sizeof(kernel));
	reply_configs(sj, BPFWIRE_SOURCE_ROOT, configs, sizeof(configs));
	json_object_put(sj);
	proc_capture(gcc, cc, sizeof(cc));
	cc[strcspn(cc, "\n")] = '\0';
	/* the kernel it chose, unless the command names it */
	reply_command(argc, argv, o->kernel || o->source ? NULL : version, command, sizeof(command));
	env.name = name;
	env.kernel = kernel;
	env.base = base;
	env.configs = configs;
	env.compiler = cc;
	env.bpfwire = commit;
	env.command = command;
	env.id = strrchr(res, '/') ? strrchr(res, '/') + 1 : res;
	env.date = time(NULL);
	env.ntests = ntests;
	env.static_text = static_text;
	env.range_text = range_text;
	snprintf(p, sizeof(p), "%s/review.eml", res);
	f = fopen(p, "w");
	if (!f || reply_write(f, &t, &env, rep))
		pr_warn("couldn't write %s", p);
	if (f)
		fclose(f);
	reply_to_free(&t);
}

/* BDIR/kernel/NAME (the bzImage, build.sh's marks) was written at or after since (wall clock). */
static bool kernel_file_since(const char *bdir, const char *name, time_t since)
{
	char p[PATH_MAX + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/kernel/%s", bdir, name);
	return !stat(p, &st) && st.st_mtime + 1 >= since;
}

/*
 * The first compiler or linker error of the kernel's make output: the
 * sandbox's (BDIR/kernel/sbx/out/build.log), else BDIR/kernel/build.log;
 * read as data, at most 8 MiB (its writers escape it), or "".
 */
static void first_build_error(const char *bdir, char *out, size_t len)
{
	char p[PATH_MAX + 32];
	size_t n = 0;
	char *log, *l, *e;

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s/kernel/sbx/out/build.log", bdir);
	log = read_file_max(p, &n, 8 << 20);
	if (!log) {
		snprintf(p, sizeof(p), "%s/kernel/build.log", bdir);
		log = read_file_max(p, &n, 8 << 20);
	}
	for (l = log; l && *l; l = e + 1) {
		e = strchrnul(l, '\n');
		if (memmem(l, e - l, " error: ", 8) || memmem(l, e - l, "undefined reference", 19)) {
			snprintf(out, len, "%.*s", (int)(e - l), l);
			break;
		}
		if (!*e)
			break;
	}
	free(log);
}

/*
 * The series applied but does not build: that is the verdict (WORSE, with
 * the build's first error), beside the static checks, whose per-patch
 * builds name the first patch that breaks. Nothing else runs. Exit 2
 * stays for what is not the series' doing (usage, setup, locks).
 */
static int nobuild_verdict(const struct opts *o, const char *bdir, const char *name, const char *series,
			   const char *commit, const char *shortc, const char *version, int argc, char **argv)
{
	char res[PATH_MAX], p[PATH_MAX + 64], first[1024], header[2 * PATH_MAX + 512], what[64];
	const char *base = "(not run: the series did not build)";
	struct st_report st = { 0 };
	struct vd_report rep = { 0 };
	struct tl_log none = { 0 };
	struct phases ph = { 0 };
	char *stext = NULL;
	size_t slen = 0;
	json_object *sj;
	FILE *f, *sf;
	int rc = REVIEW_WORSE;

	first_build_error(bdir, first, sizeof(first));
	if (run_static(bdir, &st))
		return interrupted("the static checks of a series that did not build");
	ph.statics = st.seconds;
	snprintf(what, sizeof(what), "Linux %s with the series", version);
	if (vd_add(&rep, VD_TEST, VD_WORSE, "kernel build", what, "builds (the flavour bpfwire ships)",
		   "does not build", first[0] ? first : "no error line found in kernel/build.log") ||
	    results_dir(bdir, name, res, sizeof(res))) {
		vd_free(&rep);
		st_free(&st);
		return REVIEW_NOBUILD;
	}
	rep.static_worse = st_counted(&st, o->strict);
	sf = open_memstream(&stext, &slen);
	if (sf) {
		st_write_text(sf, &st, o->strict);
		fclose(sf);
	}
	sj = summary_json(o, name, bdir, base, commit, "", NULL, &ph, &rep, &none);
	json_object_object_add(sj, "kernel_version", json_object_new_string(version));
	json_object_object_add(sj, "static", st_to_json(&st, o->strict));
	snprintf(p, sizeof(p), "%s/review.json", res);
	if (json_object_to_file_ext(p, sj, JSON_C_TO_STRING_PRETTY))
		pr_warn("couldn't write %s", p);
	vd_header(header, sizeof(header), name, series, shortc, "not built", base, 0);
	snprintf(header + strlen(header), sizeof(header) - strlen(header), "kernel: Linux %s\n", version);
	snprintf(p, sizeof(p), "%s/review.txt", res);
	f = fopen(p, "w");
	if (f) {
		vd_write_review(f, header, &rep, &none, stext ? stext : "", res);
		fclose(f);
	} else {
		pr_warn("couldn't write %s", p);
	}
	vd_write_review(stdout, header, &rep, &none, stext ? stext : "", res);
	write_reply(res, name, series, bdir, version, base, commit, o, argc, argv, &rep, 0, stext, NULL);
	json_object_put(sj);
	free(stext);
	vd_free(&rep);
	st_free(&st);
	return rc;
}

/* --base SERIES: an mbox or a patch directory, not a build directory. */
static bool base_is_series(const char *base)
{
	char p[PATH_MAX + 16], err[256];

	if (!base || !strcmp(base, "seed") || !strcmp(base, "upstream"))
		return false;
	snprintf(p, sizeof(p), "%s/build.ninja", base);
	return !file_exists(p) && !series_check(base, err, sizeof(err));
}

int main(int argc, char **argv)
{
	char bdir[PATH_MAX], series[PATH_MAX], source[PATH_MAX] = "", cfg[4096] = "", err[512];
	char title[128], name[80], commit[128], shortc[32], api[32], base[PATH_MAX], res[PATH_MAX], p[PATH_MAX + 64];
	struct opts o = { .retries = RETRIES_DEFAULT, .retry_budget = RETRY_BUDGET_DEFAULT,
			  .insns_threshold = VC_THRESHOLD_DEFAULT };
	struct fl_list known = { 0 };
	struct st_report st = { 0 };
	struct rd_report rd = { 0 };
	struct tl_log rlog = { 0 }, blog = { 0 };
	struct vd_report rep = { 0 };
	struct phases ph = { 0 };
	struct rc_map rmap;
	struct rc_sel sel = { 0 };
	const char *forced;
	json_object *apij = NULL, *sj;
	char **names, **missing;
	int r, n, nmiss = 0;
	double t0;
	FILE *f;

	log_init(PROG, LOG_INFO);
	r = review_parse(argc, argv, &o);
	if (r)
		return r < 0 ? 0 : r;
	/* a bad line of the repository's list stops every review at once: a test reads it too */
	if (fl_load(o.known_flaky ? o.known_flaky : KNOWN_FLAKY, &known, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return CLI_EUSAGE;
	}
	/* the same for the map of what a series reaches; the command's own choice first */
	if (rc_load(REACH_MAP, &rmap, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return CLI_EUSAGE;
	}
	forced = o.tests ? "--tests" : o.all ? "--all" : NULL;
	if (o.flaky_report)
		return review_flaky_report(o.series, &known);
	if (o.compare)
		return review_compare_logs(o.compare, o.series, o.dry, &known, o.insns_threshold);
	if (series_check(o.series, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return CLI_EUSAGE;
	}
	if (review_absolute("SERIES", o.series, series, sizeof(series)))
		return CLI_EUSAGE;
	if (o.source && review_absolute("--source", o.source, source, sizeof(source)))
		return CLI_EUSAGE;
	if (o.config[0] && review_fragments(o.config, cfg, sizeof(cfg)))
		return CLI_EUSAGE;
	if (o.name ? snprintf(name, sizeof(name), "%s", o.name) >= (int)sizeof(name) || series_name_ok(name) :
		     series_name(series, name, sizeof(name)))
		return cli_bad_value(PROG, "--name", o.name ? o.name : o.series,
				     "a name of letters, digits, '.', '_' and '-' (at most 64)");
	if (o.netpoll && strcmp(o.netpoll, "auto") && strcmp(o.netpoll, "true") && strcmp(o.netpoll, "false"))
		return cli_bad_value(PROG, "--netpoll", o.netpoll, "auto, true or false");
	bool base_series = base_is_series(o.base);
	char base_mbox[PATH_MAX] = "";

	if (base_series && review_absolute("--base", o.base, base_mbox, sizeof(base_mbox)))
		return CLI_EUSAGE;
	if (!base_series && o.base && strcmp(o.base, "seed") && strcmp(o.base, "upstream") &&
	    base_dir(o.base, "", base, sizeof(base)))
		return CLI_EUSAGE;
	if (!base_series && o.base && !strcmp(o.base, "seed") + !strcmp(o.base, "upstream") == 0 && !base_ok(base))
		return cli_bad_value(PROG, "--base", o.base,
				     "seed, upstream, a meson build directory, or a series (an mbox or a patch directory)");
	snprintf(bdir, sizeof(bdir), "%s/build-review-%s", o.build_root ? o.build_root : BPFWIRE_SOURCE_ROOT,
		 name);

	char version[KERNELS_VLEN] = "6.12";
	struct review_setup rs;

	review_setup(&rs, bdir, series, name, source, cfg, o.netpoll, o.kernel ? o.kernel : "X.Y");
	if (o.dry) {
		printf(PROG ": dry run: would try %s with kernel/build.sh --fit, then run",
		       source[0] ? "--source's version" : o.kernel ? o.kernel : "each known kernel, newest first,");
		for (int i = 0; rs.argv[i]; i++)
			printf(" %s", rs.argv[i]);
		printf(", meson compile -C %s (under %s), the tests below,"
		       " then compare with %s%s%s, running a test that holds a worse case again up to %d times"
		       " on both within %d s\n", bdir, LOCK_KBUILD, base_series ? "the series " : "",
		       o.base ? o.base : "the flavour bpfwire ships on that kernel", o.tests ? " (--tests)" : "",
		       o.retries, o.retry_budget);
		/* before a build, the source tree's tests */
		if (base_ok(bdir) ? test_list(bdir, o.tests, series_selftests(series) > 0, &names, &n) :
		    rc_candidates(SCENARIOS, o.tests, series_selftests(series) > 0, &names, &n))
			return REVIEW_NOBUILD;
		/* the baseline is known before a build only when it is a series */
		struct rc_base rb;
		bool shared = base_series && !rc_base_series(base_mbox, &rb);

		r = rc_review(&rmap, series, shared ? &rb : NULL, forced, SCENARIOS, names, &n, &sel, err, sizeof(err));
		if (shared)
			rc_base_free(&rb);
		if (r) {
			fprintf(stderr, PROG ": %s\n", err);
			return REVIEW_NOBUILD;
		}
		rc_write_text(stdout, &sel);
		return 0;
	}

	proc_catch_signals();
	/* 0. the kernel */
	r = pick_kernel(&o, series, source, version, sizeof(version));
	if (r == REVIEW_STOPPED)
		return interrupted("the choice of the kernel (build.sh --fit)");
	if (r)
		return r;
	review_setup(&rs, bdir, series, name, source, cfg, o.netpoll, version);

	/* 1. build */
	t0 = now_s();
	bpfwire_commit(commit, sizeof(commit));
	snprintf(shortc, sizeof(shortc), "%.12s%s", commit, strstr(commit, "-dirty") ? "-dirty" : "");
	esc_str(p, sizeof(p), series, strlen(series), 0);
	pr_info("reviewing %s as %s in %s (bpfwire %s)", p, name, bdir, shortc);
	if (proc_run(rs.argv, NULL, 0)) {
		if (proc_stopped())
			return interrupted("meson setup");
		pr_warn("meson could not set up %s with this series (see above)", bdir);
		return REVIEW_NOBUILD;
	}
	char *compile[] = { "meson", "compile", "-C", bdir, NULL };
	time_t compiled = time(NULL);

	r = proc_run(compile, kbuild_lock(bdir), 10);
	if (proc_stopped())
		return interrupted("the kernel build (or the wait for its lock)");
	if (r < 0)
		return REVIEW_NOBUILD;	/* no lock or no fork, said by proc_run: the build never ran */
	if (r && kernel_file_since(bdir, "bzImage", compiled)) {
		/* the kernel built: what failed is bpfwire's own code, not the series */
		pr_warn("the kernel built, but bpfwire's own programs in %s did not (see above): no verdict", bdir);
		return REVIEW_NOBUILD;
	}
	if (r && !kernel_file_since(bdir, "sandboxed-build.started", compiled)) {
		/* build.sh marks the start of the series' own build: this failed in root's steps before it */
		pr_warn("the build failed before the series' own build began (bpfwire's steps: see above): no verdict");
		return REVIEW_NOBUILD;
	}
	if (r) {
		pr_warn("the series did not build (see above; the kernel's log is %s/kernel/build.log)", bdir);
		return nobuild_verdict(&o, bdir, name, series, commit, shortc, version, argc, argv);
	}
	ph.build = now_s() - t0;
	pr_info("built in %.0f s", ph.build);
	if (run_static(bdir, &st))
		return interrupted("the static checks (checkpatch.pl and the per-patch builds in the sandbox)");
	ph.statics = st.seconds;
	if (base_series && rd_run(&rd, BPFWIRE_SOURCE_ROOT, bdir, series, base_mbox, version, source))
		return interrupted("the range-diff with the base series (build.sh --fit in the sandbox)");
	kernel_api(bdir, api, sizeof(api), &apij);
	pr_info("the kernel's ksock API: %s", api[0] ? api : "not detected (no kernel/api.json)");
	/* The baseline runs on the same kernel version as the review. */
	bool named = o.base && strcmp(o.base, "seed") && strcmp(o.base, "upstream") && !base_series;
	const char *flav = o.base && !named ? o.base : !strcmp(api, "seed") ? "seed" : "upstream";

	if (named ? base_dir(o.base, api, base, sizeof(base)) : 0)
		return CLI_EUSAGE;
	if (!named)
		kernels_base(BPFWIRE_SOURCE_ROOT, version, flav, base, sizeof(base));
	if (base_series) {
		/* another series (the v7 of a v8): a review build of its own, built below */
		char bname[96], sp[PATH_MAX + 64];

		snprintf(bname, sizeof(bname), "%s-base", name);
		snprintf(base, sizeof(base), "%s/build-review-%s", o.build_root ? o.build_root : BPFWIRE_SOURCE_ROOT,
			 bname);
		review_setup(&rs, base, base_mbox, bname, source, cfg, o.netpoll, version);
		pr_info("baseline: the series %s, in %s", base_mbox, base);
		if (proc_run(rs.argv, NULL, 0))
			return proc_stopped() ? interrupted("the baseline's meson setup") : REVIEW_NOBUILD;
		/* its results hold only for the series it was last run with */
		stamp_path(base, "review-baseline", "commit", sp, sizeof(sp));
		unlink(sp);
	} else if (!named && o.base && strcmp(version, "6.12"))
		pr_info("baseline: --base %s names a 6.12 flavour; on Linux %s the baseline is %s", o.base, version, base);
	if (!base_ok(base)) {
		/* a shipped flavour is set up here, and built with the baseline's run below */
		char *bs[8] = { "meson", "setup", base, BPFWIRE_SOURCE_ROOT }, bopt[64];

		if (named) {
			fprintf(stderr, PROG ": --base %s: not a meson build directory\n", base);
			return CLI_EUSAGE;
		}
		base_setup(version, !strcmp(flav, "seed"), bs, bopt, sizeof(bopt));
		pr_info("baseline: setting up %s", base);
		if (proc_run(bs, NULL, 0))
			return proc_stopped() ? interrupted("the baseline's meson setup") : REVIEW_NOBUILD;
	}

	/* 2. the review's tests */
	if (test_list(bdir, o.tests, series_selftests(series) > 0, &names, &n))
		return proc_stopped() ? interrupted("meson test --list") : o.tests ? CLI_EUSAGE : REVIEW_NOBUILD;
	/* the hunks the review's kernel shares with the baseline's cannot make them differ */
	struct rc_base rb;
	bool shared = base_series ? !rc_base_series(base_mbox, &rb) : !rc_base_builds(base, bdir, &rb);

	if (!shared)
		pr_info("reach: %s: every hunk of the series counts", base_series ?
			"the base series could not be read whole" : "no kernel/patches.list in the baseline or the review");
	r = rc_review(&rmap, series, shared ? &rb : NULL, forced, SCENARIOS, names, &n, &sel, err, sizeof(err));
	if (shared)
		rc_base_free(&rb);
	if (r) {
		pr_warn("%s", err);
		return REVIEW_NOBUILD;
	}
	rc_log(&sel);
	t0 = now_s();
	pr_info("running %d tests in %s", n, bdir);
	run_tests(bdir, "review", names, n);
	if (proc_stopped())
		return interrupted("the review's tests (or the wait for the guest lock)");
	ph.tests = now_s() - t0;
	snprintf(p, sizeof(p), "%s/meson-logs/review.json", bdir);
	if (tl_load(p, &rlog, err, sizeof(err))) {
		pr_warn("%s", err);
		return REVIEW_NOBUILD;
	}

	/* 3. the baseline: reused for this commit, else run now; one review
	 * at a time per baseline, so that none reads another's half-run log */
	t0 = now_s();
	snprintf(p, sizeof(p), "%s/meson-logs/review-baseline.lock", base);
	int blk = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (blk >= 0 && flock(blk, LOCK_EX | LOCK_NB)) {
		pr_info("baseline: waiting for another review of %s", base);
		/* a poll: a signal just before a blocking flock would be missed */
		while (flock(blk, LOCK_EX | LOCK_NB) && (errno == EWOULDBLOCK || errno == EINTR) && !proc_stopped())
			sleep_ms(200);
		if (proc_stopped())
			return interrupted("the wait for another review of the baseline");
	}
	snprintf(p, sizeof(p), "%s/meson-logs/review.json", bdir);
	if (base_series && !rd.not_run && rd.same_tree && !tl_load(p, &blog, err, sizeof(err)) &&
	    !tl_rename_root(&blog, bdir)) {
		rd.reused = true;
		pr_info("baseline: the base series makes the same tree as the series (the same kernel but for its "
			"release name): the review's results stand for it, not built or run twice");
	} else {
		base_reuse(base, commit, &blog);
	}
	missing = calloc(n + 1, sizeof(*missing));
	for (int i = 0; i < n; i++)
		if (!tl_find(&blog, names[i]))
			missing[nmiss++] = names[i];
	if (nmiss) {
		char *bc[] = { "meson", "compile", "-C", base, NULL };

		pr_info("baseline: running %d tests in %s", nmiss, base);
		r = proc_run(bc, kbuild_lock(base), 10);
		if (proc_stopped())
			return interrupted("the baseline's build");
		if (r) {
			if (r > 0)
				pr_warn("the baseline %s did not build", base);
			return REVIEW_NOBUILD;
		}
		run_tests(base, "review-baseline", missing, nmiss);
		if (proc_stopped())
			return interrupted("the baseline's tests");
		snprintf(p, sizeof(p), "%s/meson-logs/review-baseline.json", base);
		if (tl_load(p, &blog, err, sizeof(err)))
			pr_warn("baseline: %s", err);
		/* what this commit's baseline has run, kept for the next review */
		char **all = calloc(blog.n + 1, sizeof(*all));

		for (size_t i = 0; all && i < blog.n; i++)
			all[i] = blog.tests[i].name;
		if (!all || keep_log(p, &blog, all, (int)blog.n) || write_stamp(base, "review-baseline", commit))
			pr_warn("baseline: could not keep %s for the next review", p);
		free(all);
	}
	ph.base = now_s() - t0;

	/* 4. compare; the known flakes; the worse run again (under the baseline's lock still) */
	char reruns[1024];

	char *vtext = NULL;
	size_t vlen = 0;
	FILE *vf = open_memstream(&vtext, &vlen);

	if (!vf || tl_rename_root(&rlog, bdir) || tl_rename_root(&blog, base) ||
	    vd_compare_logs(&blog, &rlog, &rep) ||
	    vc_compare(&blog, &rlog, o.insns_threshold, &rep, vf) ||
	    runs_compare(&blog, &rlog, &rep, &ph.boots) || fl_mark_known(&rep, &known)) {
		pr_warn("out of memory comparing");
		return REVIEW_NOBUILD;
	}
	fclose(vf);
	if (retry_worse(&o, bdir, base, &rlog, &blog, &known, &rep, &ph.reruns, reruns, sizeof(reruns)))
		return interrupted("the reruns of the tests that hold worse cases");
	if (blk >= 0)
		close(blk);
	if (results_dir(bdir, name, res, sizeof(res)))
		return REVIEW_NOBUILD;
	snprintf(p, sizeof(p), "%s/review.testlog.json", res);
	keep_log(p, &rlog, names, n);
	snprintf(p, sizeof(p), "%s/baseline.testlog.json", res);
	keep_log(p, &blog, names, n);
	rep.static_worse = st_counted(&st, o.strict);
	sj = summary_json(&o, name, bdir, base, commit, api, apij, &ph, &rep, &rlog);
	json_object_object_add(sj, "kernel_version", json_object_new_string(version));
	json_object_object_add(sj, "static", st_to_json(&st, o.strict));
	if (base_series)
		json_object_object_add(sj, "range", rd_to_json(&rd));
	json_object_object_add(sj, "reach", rc_to_json(&sel));
	snprintf(p, sizeof(p), "%s/review.json", res);
	if (json_object_to_file_ext(p, sj, JSON_C_TO_STRING_PRETTY))
		pr_warn("couldn't write %s", p);
	snprintf(p, sizeof(p), "%s/review.txt", res);
	f = fopen(p, "w");
	char header[2 * PATH_MAX + 512], times[1536], *extra = NULL, *stext = NULL;
	char *rtext = base_series ? rd_text(&rd, true) : NULL, *rshort = base_series ? rd_text(&rd, false) : NULL;
	size_t elen = 0, slen = 0;
	FILE *ef = open_memstream(&extra, &elen), *sf = open_memstream(&stext, &slen);

	if (vd_header(header, sizeof(header), name, series, shortc, api, base, n) >= (int)sizeof(header))
		pr_debug("the header was cut");
	snprintf(header + strlen(header), sizeof(header) - strlen(header), "kernel: Linux %s\n", version);
	snprintf(times, sizeof(times), "time: build %.0f s, static %.0f s, tests %.0f s (guest boots %.0f s of it), "
		 "baseline %.0f s, reruns %.0f s\n%s", ph.build, ph.statics, ph.tests, ph.boots, ph.base, ph.reruns,
		 reruns);
	/* the static section, then the times: before the verdict */
	if (sf) {
		st_write_text(sf, &st, o.strict);
		fputs(vtext ? vtext : "", sf);
		rc_write_text(sf, &sel);
		fclose(sf);
	}
	if (ef) {
		fputs(rtext ? rtext : "", ef);
		fputs(stext ? stext : "", ef);
		fputs(times, ef);
		fclose(ef);
	}
	for (int pass = 0; pass < 2; pass++) {
		FILE *out = pass ? stdout : f;

		if (!out)
			continue;
		vd_write_review(out, header, &rep, &rlog, extra ? extra : times, res);
		if (!pass && f) {
			char *page = NULL;

			fclose(f);
			f = NULL;
			snprintf(title, sizeof(title), "review %s", name);
			if (asprintf(&page, "%s%s%s", header, rtext ? rtext : "", stext ? stext : "") < 0)
				page = NULL;
			if (!page || review_page(res, title, page, &rep))
				pr_warn("couldn't write %s/review.html", res);
			free(page);
		}
	}
	if (f)
		fclose(f);
	write_reply(res, name, series, bdir, version, base_series ? base_mbox : base, commit, &o, argc, argv, &rep, n,
		    stext, rshort);
	free(extra);
	free(vtext);
	free(rtext);
	free(rshort);
	rd_free(&rd);
	free(stext);
	json_object_put(sj);
	json_object_put(apij);
	st_free(&st);
	rc_sel_free(&sel);
	rc_map_free(&rmap);
	return vd_worse(&rep) ? REVIEW_WORSE : 0;
}
