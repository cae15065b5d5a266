/* SPDX-License-Identifier: GPL-2.0-only */
/* A stream of JSON objects over a unix socket, parsed by json-c. */
#ifndef BPFWIRE_LAB_JSONCHAN_H
#define BPFWIRE_LAB_JSONCHAN_H

#include <json-c/json.h>
#include <stddef.h>

/* The largest object a peer may send (a guest's qemu-ga is one): 32 MiB. */
#define JCHAN_MAX_OBJECT (32u << 20)

struct jchan {
	int fd;
	char *buf;
	size_t len, cap;
	json_tokener *tok;
	int fresh;	/* no partial object in the tokener */
	size_t fed;	/* bytes of the partial object the tokener holds */
};

/*
 * Every wait takes an absolute deadline (now_s() clock), so that a call
 * made of many reads has one deadline, however chatty the peer. Each also
 * ends at once, with EINTR, when lab_interrupted is set (SIGINT, SIGTERM).
 */
double jchan_deadline(int timeout_ms);
/* Connect to a unix socket, retrying until the deadline. 0 or -errno. */
int jchan_connect(struct jchan *c, const char *path, double deadline);
void jchan_close(struct jchan *c);
int jchan_send(struct jchan *c, json_object *obj);
int jchan_send_raw(struct jchan *c, const void *data, size_t len);
/*
 * Next value, or NULL with errno set: ETIMEDOUT, EINTR, EPROTO (not JSON,
 * or a bare null), EMSGSIZE (over JCHAN_MAX_OBJECT), ECONNRESET.
 */
json_object *jchan_recv(struct jchan *c, double deadline);
/*
 * A QEMU reply's (QMP's or qemu-ga's) "return" object, with a reference of
 * its own; else NULL and *text, which lives as long as resp: the error's
 * desc (or the error as JSON) with *failed true, or the whole reply when it
 * is neither (a return that is null or not an object is no answer either).
 */
json_object *jchan_qemu_return(json_object *resp, int *failed, const char **text);
/* Drop input up to and including byte b. 0 or -errno. */
int jchan_skip_to(struct jchan *c, unsigned char b, double deadline);

#endif
