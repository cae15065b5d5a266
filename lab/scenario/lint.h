/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-lab check: topologies parsed, scenarios linted without booting.
 * A scenario gets what `run` checks before it boots (scenario.c's parse,
 * its topology, hosts and interfaces), then: every check operand's ID.path
 * against the field lists of the JSON it reads (receiver/recv-json.fields,
 * bpf/status-json.fields), and every report/stats file against the steps
 * before it that could write it.
 */
#ifndef BPFWIRE_LAB_LINT_H
#define BPFWIRE_LAB_LINT_H

#include <stdio.h>

/*
 * One scenario (a path, or a name under scenarios/ as `run` finds it).
 * Each error goes to err as "file:line: what is wrong"; a clean one prints
 * "PATH: ok, N steps, M checks" to out. Returns the number of errors.
 */
int lint_scenario(const char *arg, FILE *out, FILE *err);

/*
 * `check ARG...`: an ARG ending in .topo or naming topology/ARG.topo is a
 * topology, parsed; any other is a scenario, linted (a name that is both is
 * both). 0 when all are clean, else LAB_EUSAGE (2).
 */
int lint_check(int argc, char **argv);

#endif
