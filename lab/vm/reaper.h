/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run's reaper (reaper.c): a process that tears the run down if the lab
 * that owns it dies first (SIGKILL included).
 */
#ifndef BPFWIRE_LAB_VM_REAPER_H
#define BPFWIRE_LAB_VM_REAPER_H

#include "model.h"

/*
 * Forks the run's reaper. teardown is what it calls, in the reaper, on the
 * snapshot of the run it was given, when the lab died while it owned the
 * run; it never returns to the lab.
 */
int guard_start(struct lab_run *r, void (*teardown)(struct lab_run *snap));
/* Tell the reaper why it is no longer needed ('D' down, 'H' handed over). */
void guard_release(struct lab_run *r, char why);
/*
 * Hands the run over instead of guarding it: it stays up for later
 * commands (what `up` does); lab_free without lab_down does the same.
 */
void lab_detach(struct lab_run *r);

#endif
