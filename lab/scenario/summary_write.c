// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's verdict for machines and people: RUN/summary.json (its only
 * writer; report/summary_read.c reads it) and RUN/summary.txt.
 */
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "escape.h"
#include "kapi.h"
#include "kbuild_record.h"
#include "log.h"
#include "steps.h"
#include "summary_write.h"
#include "timeutil.h"
#include "vm/kseries.h"
#include "vm/model.h"

/* The guests' keys and values, escaped: none can start a line of its own. */
static void print_reports(FILE *f, json_object *reports)
{
	json_object_object_foreach(reports, id, o) {
		bool first = true;

		fprintf(f, "  %s:", id);
		json_object_object_foreach(o, k, v) {
			enum json_type ty = json_object_get_type(v);

			if (ty != json_type_int && ty != json_type_boolean && ty != json_type_double &&
			    ty != json_type_string)
				continue;
			fputs(first ? " " : ", ", f);
			esc_fputs(f, k, 0);
			fputc('=', f);
			esc_fputs(f, json_object_get_string(v), 0);
			first = false;
		}
		fputc('\n', f);
	}
}

/*
 * Each started guest's console proof (lab_prove_consoles): "live", or "no
 * evidence" with the reason; the scan counted every one not live.
 */
static json_object *consoles_json(const struct lab_run *lab)
{
	json_object *a = json_object_new_array();

	for (int h = 0; lab && h < lab->nguests; h++) {
		const struct lab_guest *g = &lab->guests[h];
		json_object *c;

		if (g->pid <= 0)
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "host", json_object_new_string(g->name));
		json_object_object_add(c, "proof", json_object_new_string(
			lab_console_proof_name(g->console_proof)));
		json_object_object_add(c, "why", json_object_new_string(g->console_why));
		json_object_array_add(a, c);
	}
	return a;
}

void runner_write_summary(struct runner *rn, const char *verdict, const char *reason,
			  int splats, const char *splat_text)
{
	json_object *root = json_object_new_object();
	char path[PATH_MAX + 16];
	FILE *f;

	json_object_object_add(root, "scenario", json_object_new_string(rn->s->name));
	json_object_object_add(root, "summary", json_object_new_string(rn->s->summary));
	json_object_object_add(root, "topology", json_object_new_string(rn->s->topology));
	json_object_object_add(root, "verdict", json_object_new_string(verdict));
	json_object_object_add(root, "reason", json_object_new_string(reason));
	json_object_object_add(root, "accel", json_object_new_string(rn->lab ? rn->lab->accel : ""));
	json_object_object_add(root, "kernel", json_object_new_string(rn->kernel));
	json_object_object_add(root, "kernel_release", json_object_new_string(rn->release));
	json_object_object_add(root, "kernel_series", rn->series ?
		json_object_new_string(kseries_name(rn->series)) : NULL);
	/* What went into the kernel (kernel/build.sh's series.json), if it
	 * was built here; a record it cannot use is said, the run goes on. */
	{
		char rerr[PATH_MAX + 128];
		json_object *rec = kbuild_record_load(rn->kernel, rerr, sizeof(rerr));

		if (rerr[0]) {
			pr_warn("run: %s; summary.json carries series_error instead", rerr);
			json_object_object_add(root, "series_error", json_object_new_string(rerr));
		}
		json_object_object_add(root, "series", rec);
	}
	if (rn->api_known) {
		json_object *api = json_object_new_object();

		json_object_object_add(api, "ksock", json_object_new_string(kapi_ksock_name(rn->ksock)));
		json_object_object_add(api, "netpoll", json_object_new_string(kapi_netpoll_name(rn->netpoll)));
		json_object_object_add(api, "from", json_object_new_string(rn->api_from));
		json_object_object_add(root, "kernel_api", api);
	} else {
		json_object_object_add(root, "kernel_api", NULL);
	}
	json_object_object_add(root, "boot_seconds", json_object_new_double(rn->lab ? rn->lab->boot_s : 0));
	json_object_object_add(root, "total_seconds", json_object_new_double(now_s() - rn->t0));
	/* the pages' date, which a copy of the run keeps */
	json_object_object_add(root, "finished_unix", json_object_new_int64((int64_t)time(NULL)));
	json_object_object_add(root, "splats", json_object_new_int(splats));
	json_object_object_add(root, "consoles", consoles_json(rn->lab));
	json_object_object_add(root, "splat_text", json_object_new_string(splat_text ? splat_text : ""));
	json_object_object_add(root, "steps", json_object_get(rn->steps));
	json_object_object_add(root, "reports", json_object_get(rn->reports));
	snprintf(path, sizeof(path), "%s/summary.json", rn->results);
	if (json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY))
		pr_warn("couldn't write %s", path);

	snprintf(path, sizeof(path), "%s/summary.txt", rn->results);
	f = fopen(path, "w");
	if (f) {
		size_t n = json_object_array_length(rn->steps);

		/* a reason, why and stdout_last may quote a guest: escaped */
		fprintf(f, "%s: %s%s", rn->s->name, verdict, reason[0] ? ": " : "");
		esc_fputs(f, reason, 0);
		fputc('\n', f);
		fprintf(f, "  %s\n", rn->s->summary);
		fprintf(f, "topology %s, accel %s, boot %.1f s, total %.1f s\n", rn->s->topology,
			rn->lab ? rn->lab->accel : "-", rn->lab ? rn->lab->boot_s : 0,
			now_s() - rn->t0);
		fprintf(f, "kernel %s, release %s, series %s\n", rn->kernel,
			rn->release[0] ? rn->release : "unknown", kseries_name(rn->series));
		fprintf(f, "steps:\n");
		for (size_t i = 0; i < n; i++) {
			json_object *js = json_object_array_get_idx(rn->steps, i), *v;

			fprintf(f, "  %-4s line %-3d %-6s %-5.1fs %s",
				json_object_get_string(json_object_object_get(js, "verdict")),
				json_object_get_int(json_object_object_get(js, "line")),
				json_object_get_string(json_object_object_get(js, "op")),
				json_object_get_double(json_object_object_get(js, "seconds")),
				json_object_get_string(json_object_object_get(js, "what")));
			if (json_object_object_get_ex(js, "why", &v)) {
				fputs("  <- ", f);
				esc_fputs(f, json_object_get_string(v), 0);
			} else if (json_object_object_get_ex(js, "values", &v)) {
				fputs("  (", f);
				esc_fputs(f, json_object_get_string(v), 0);
				fputc(')', f);
			}
			fputc('\n', f);
			if (json_object_object_get_ex(js, "stdout_last", &v) &&
			    json_object_get_string_len(v)) {
				fputs("         | ", f);
				esc_fputs(f, json_object_get_string(v), 0);
				fputc('\n', f);
			}
		}
		fprintf(f, "reports:\n");
		print_reports(f, rn->reports);
		/* splat_scan escaped the consoles' lines it quotes */
		for (int h = 0; rn->lab && h < rn->lab->nguests; h++) {
			const struct lab_guest *g = &rn->lab->guests[h];

			if (g->pid <= 0)
				continue;
			fprintf(f, "console %s: %s", g->name,
				g->console_proof == LAB_CONSOLE_LIVE ? "proven live" :
				lab_console_proof_name(g->console_proof));
			if (g->console_why[0]) {
				fputs(": ", f);
				esc_fputs(f, g->console_why, 0);
			}
			fputc('\n', f);
		}
		fprintf(f, "console splats: %d\n%s", splats, splat_text ? splat_text : "");
		fclose(f);
	}
	json_object_put(root);
}
