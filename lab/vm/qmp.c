// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errnames.h"
#include "jsonchan.h"
#include "jsonget.h"
#include "qmp.h"
#include "timeutil.h"

int qmp_open(struct qmp *q, const char *path, int timeout_ms)
{
	double deadline = jchan_deadline(timeout_ms);
	json_object *greet, *ret;
	char err[256];
	int r;

	q->next_id = 1;
	r = jchan_connect(&q->ch, path, deadline);
	if (r)
		return r;
	greet = jchan_recv(&q->ch, deadline);
	if (!greet || !jget(greet, "QMP", json_type_object)) {
		r = greet ? -EPROTO : -errno;
		json_object_put(greet);
		jchan_close(&q->ch);
		return r;
	}
	json_object_put(greet);
	ret = qmp_execute(q, "qmp_capabilities", NULL, (int)((deadline - now_s()) * 1000), err,
			  sizeof(err));
	if (!ret) {
		jchan_close(&q->ch);
		return -EPROTO;
	}
	json_object_put(ret);
	return 0;
}

void qmp_close(struct qmp *q)
{
	jchan_close(&q->ch);
}

json_object *qmp_execute(struct qmp *q, const char *cmd, json_object *args,
			 int timeout_ms, char *err, size_t errlen)
{
	/* one deadline, however many events come first */
	double deadline = jchan_deadline(timeout_ms);
	json_object *req = json_object_new_object(), *resp, *v, *id;
	const char *what;
	int my_id = q->next_id++;
	int r, failed;

	json_object_object_add(req, "execute", json_object_new_string(cmd));
	if (args)
		json_object_object_add(req, "arguments", args);
	json_object_object_add(req, "id", json_object_new_int(my_id));
	r = jchan_send(&q->ch, req);
	json_object_put(req);
	if (r) {
		snprintf(err, errlen, "couldn't send %s: %s", cmd, errno_str(r));
		return NULL;
	}
	for (;;) {
		resp = jchan_recv(&q->ch, deadline);
		if (!resp) {
			snprintf(err, errlen, "no answer to %s: %s", cmd, errno_str(errno));
			return NULL;
		}
		id = jget(resp, "id", json_type_int);
		if (json_object_object_get_ex(resp, "event", NULL) || !id ||
		    json_object_get_int64(id) != my_id) {
			json_object_put(resp);
			continue;
		}
		/* every command the lab sends returns an object */
		v = jchan_qemu_return(resp, &failed, &what);
		if (!v)
			snprintf(err, errlen, failed ? "%s failed: %.200s" : "%s: unexpected answer %.200s", cmd, what);
		json_object_put(resp);
		return v;
	}
}

int qmp_set_link(struct qmp *q, const char *device, int up, char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *r;

	json_object_object_add(args, "name", json_object_new_string(device));
	json_object_object_add(args, "up", json_object_new_boolean(up));
	r = qmp_execute(q, "set_link", args, 5000, err, errlen);
	if (!r)
		return -1;
	json_object_put(r);
	return 0;
}

static json_object *qcode(const char *name)
{
	json_object *k = json_object_new_object();

	json_object_object_add(k, "type", json_object_new_string("qcode"));
	json_object_object_add(k, "data", json_object_new_string(name));
	return k;
}

int qmp_sysrq(struct qmp *q, char key, char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *keys = json_object_new_array(), *r;
	char name[2] = { key, '\0' };

	json_object_array_add(keys, qcode("alt"));
	json_object_array_add(keys, qcode("sysrq"));
	json_object_array_add(keys, qcode(name));
	json_object_object_add(args, "keys", keys);
	r = qmp_execute(q, "send-key", args, 5000, err, errlen);
	if (!r)
		return -1;
	json_object_put(r);
	return 0;
}
