/* SPDX-License-Identifier: GPL-2.0-only */
/* `bpfwire-lab compare` (compare_cmd.c), for main.c's table. */
#ifndef BPFWIRE_LAB_CLI_COMPARE_CMD_H
#define BPFWIRE_LAB_CLI_COMPARE_CMD_H

/* `bpfwire-lab compare`, for lab/cli/main.c's table. */
int compare_cmd(int argc, char **argv);

#endif
