/* SPDX-License-Identifier: GPL-2.0-only */
/* The views of runs for people (status.c). */
#ifndef BPFWIRE_LAB_VM_STATUS_H
#define BPFWIRE_LAB_VM_STATUS_H

#include <stdio.h>

#include "model.h"

/* Run ids that have a state dir, and bpfwire-* netns without one. */
int lab_list(FILE *f);
void lab_status(struct lab_run *r, FILE *f);

#endif
