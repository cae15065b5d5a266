/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's state file, /run/bpfwire/ID/state.json (state.c): what later commands read. */
#ifndef BPFWIRE_LAB_VM_STATE_H
#define BPFWIRE_LAB_VM_STATE_H

#include "model.h"

int lab_save(const struct lab_run *r);
int lab_load_state(const char *path, struct lab_run *r);
/* Load a run from its state file; id NULL picks the only one. */
int lab_open(const char *id, struct lab_run **out);
void lab_free(struct lab_run *r);
/* The run ids that have a state dir under LAB_STATE_ROOT. */
int lab_run_ids(char ids[][LAB_RUN_ID_MAX + 1], int max);

#endif
