/* SPDX-License-Identifier: GPL-2.0-only */
/* SysRq through QMP (sysrq.c): stacks before a kill, and teardown's console proof. */
#ifndef BPFWIRE_LAB_VM_SYSRQ_H
#define BPFWIRE_LAB_VM_SYSRQ_H

#include "model.h"

/*
 * Before the lab kills a guest that missed its deadline (why says which):
 * SysRq w and l through QMP, so its console holds the blocked tasks' and
 * the CPUs' stacks. host NULL: every guest.
 */
void lab_sysrq_dump(const struct lab_run *r, const char *host, const char *why);
/*
 * Teardown's console proof, before any QEMU is killed: SysRq h on every
 * started guest through QMP, then up to LAB_PROOF_WAIT_S for its banner
 * (LAB_PROOF_BANNER) to reach the console file, which only the host
 * writes. Sets each guest's console_proof and console_why.
 */
#define LAB_PROOF_BANNER "sysrq: HELP : "
#define LAB_PROOF_WAIT_S 10
void lab_prove_consoles(struct lab_run *r);

#endif
