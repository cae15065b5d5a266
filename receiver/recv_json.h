/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-recv's JSON summary (recv_json.c). */
#ifndef BPFWIRE_RECV_JSON_H
#define BPFWIRE_RECV_JSON_H

#include <json-c/json.h>
#include "recv_run.h"

json_object *summary_json(struct run *run, struct checks *c);
int write_json(const char *path, json_object *root);

#endif
