/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent status, unload and flush: read or remove the pinned state (pins.c). */
#ifndef BPFWIRE_PINS_H
#define BPFWIRE_PINS_H

#include <json-c/json.h>
#include "args.h"
#include "status.h"

/* 0, or -1 after saying what failed. */
int cmd_status(const struct agent_opts *o);
int cmd_unload(const struct agent_opts *o);
int cmd_flush(const struct agent_opts *o);	/* --batch's partial batch */

/* One element of "senders". */
json_object *status_json(const char *dir, const struct status *st);
/* The document: takes senders (an array of status_json); api is enum kapi_ksock (kapi.h) or -errno. */
json_object *status_doc(json_object *senders, int api);

#endif
