/* SPDX-License-Identifier: GPL-2.0-only */
/* scenario_cmd.c: `bpfwire-lab check`, `run`, `scenarios` and `report`, for lab/cli/main.c's table. */
#ifndef BPFWIRE_LAB_RUNS_CMD_H
#define BPFWIRE_LAB_RUNS_CMD_H

int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_scenarios(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
