/* SPDX-License-Identifier: GPL-2.0-only */
/* A stream of JSON objects over a unix socket, parsed by json-c. */
#ifndef BPFWIRE_LAB_JSONCHAN_H
#define BPFWIRE_LAB_JSONCHAN_H

#include <json-c/json.h>
#include <stddef.h>

struct jchan {
	int fd;
	char *buf;
	size_t len, cap;
	json_tokener *tok;
	int fresh;	/* no partial object in the tokener */
};

/* Connect to a unix socket, retrying until timeout_ms. 0 or -errno. */
int jchan_connect(struct jchan *c, const char *path, int timeout_ms);
void jchan_close(struct jchan *c);
int jchan_send(struct jchan *c, json_object *obj);
int jchan_send_raw(struct jchan *c, const void *data, size_t len);
/* Next object, or NULL with errno set (ETIMEDOUT, EPROTO, ECONNRESET). */
json_object *jchan_recv(struct jchan *c, int timeout_ms);
/* Drop input up to and including byte b. 0 or -errno. */
int jchan_skip_to(struct jchan *c, unsigned char b, int timeout_ms);

#endif
