/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest's console (console.c): RUN/consoles/NAME.log, outside its share so
 * the guest cannot edit the evidence, and the splat scan over it.
 */
#ifndef BPFWIRE_LAB_VM_CONSOLE_H
#define BPFWIRE_LAB_VM_CONSOLE_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

/* The console's path; _prepare also creates RUN/consoles. Both 0 or -errno. */
int lab_console_path(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len);
int lab_console_prepare(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len);
/* The last lines of a guest's console (or its qemu.log) to stderr. */
void console_tail(const struct lab_run *r, const struct lab_guest *g, int lines);
/*
 * Scan every started guest's whole console for splats; quote them to f.
 * Returns how many, plus one per console that is missing, empty,
 * unreadable, or not proven live at teardown (lab_prove_consoles,
 * lab_console_gaps): no evidence is not a clean run.
 */
int lab_scan_splats(const struct lab_run *r, FILE *f);
/*
 * After the QEMUs ended (or right after the proof, for a run left up): a
 * live console that says "console [ttyS0] enabled" more than once was
 * removed and registered again, so it is no evidence after all.
 */
void lab_console_gaps(struct lab_run *r);

#endif
