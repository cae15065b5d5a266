/* SPDX-License-Identifier: GPL-2.0-only */
/* QEMU Machine Protocol client (json-c). */
#ifndef BPFWIRE_LAB_QMP_H
#define BPFWIRE_LAB_QMP_H

#include "jsonchan.h"

struct qmp {
	struct jchan ch;
	int next_id;
};

/* Connect, read the greeting, negotiate capabilities. 0 or -errno. */
int qmp_open(struct qmp *q, const char *path, int timeout_ms);
void qmp_close(struct qmp *q);
/*
 * Run cmd with args (owned by the call, may be NULL). Returns the "return"
 * member (caller puts it) or NULL, with the QMP error or errno text in err.
 */
json_object *qmp_execute(struct qmp *q, const char *cmd, json_object *args,
			 int timeout_ms, char *err, size_t errlen);
/* QMP set_link on a NIC device id. 0 or -1 with err. */
int qmp_set_link(struct qmp *q, const char *device, int up, char *err, size_t errlen);
/* Alt+SysRq+key on the guest's PS/2 keyboard (send-key). 0 or -1 with err. */
int qmp_sysrq(struct qmp *q, char key, char *err, size_t errlen);

#endif
