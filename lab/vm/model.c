// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's model: the small lookups and records that every part of the
 * engine needs, kept apart from the lifecycle so that no worker has to
 * include the orchestrator.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "proc.h"

const struct lab_guest *lab_guest(const struct lab_run *r, const char *name)
{
	for (int i = 0; i < r->nguests; i++)
		if (!strcmp(r->guests[i].name, name))
			return &r->guests[i];
	return NULL;
}

void lab_add_proc(struct lab_run *r, const char *role, const char *name, pid_t pid)
{
	struct lab_proc *p;

	if (r->nprocs == LAB_MAX_PROCS)
		return;
	p = &r->procs[r->nprocs++];
	snprintf(p->role, sizeof(p->role), "%s", role);
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->pid = pid;
	p->start = proc_starttime(pid);
}

int lab_guest_path(const struct lab_run *r, const char *host, const char *file, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/guests/%s%s%s", r->results, host, file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const struct lab_remote *lab_remote(const struct lab_run *r, const char *name)
{
	for (int i = 0; i < r->nremotes; i++)
		if (!strcmp(r->remotes[i].name, name))
			return &r->remotes[i];
	return NULL;
}

bool lab_valid_id(const char *id)
{
	size_t n = strlen(id);

	if (!n || n > 24)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_')
			return false;
	return true;
}

const char *lab_console_proof_name(enum lab_console_proof p)
{
	switch (p) {
	case LAB_CONSOLE_LIVE: return "live";
	case LAB_CONSOLE_NO_EVIDENCE: return "no evidence";
	case LAB_CONSOLE_SKIPPED: return "skipped";
	default: return "unchecked";
	}
}
