// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "jsonchan.h"
#include "jsonget.h"
#include "timeutil.h"
#include "util.h"

double jchan_deadline(int timeout_ms)
{
	return now_s() + timeout_ms / 1000.0;
}

int jchan_connect(struct jchan *c, const char *path, double deadline)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	for (;;) {
		c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->fd < 0)
			return -errno;
		if (!connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		err = -errno;
		close(c->fd);
		c->fd = -1;
		if (lab_interrupted)
			return -EINTR;
		if (now_s() >= deadline)
			return err;
		sleep_ms(20);
	}
	c->tok = json_tokener_new();
	c->fresh = 1;
	return c->tok ? 0 : -ENOMEM;
}

void jchan_close(struct jchan *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->tok)
		json_tokener_free(c->tok);
	c->tok = NULL;
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
}

int jchan_send_raw(struct jchan *c, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int jchan_send(struct jchan *c, json_object *obj)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);
	int ret = jchan_send_raw(c, s, strlen(s));

	return ret ? ret : jchan_send_raw(c, "\n", 1);
}

/* Read more input; 0, or -errno (-ETIMEDOUT, -EINTR, -ECONNRESET on EOF). */
static int fill(struct jchan *c, double deadline)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	ssize_t n;
	int ms;

	if (c->cap - c->len < 4096) {
		size_t ncap = c->cap ? c->cap * 2 : 65536;
		char *nb;

		if (ncap > JCHAN_MAX_OBJECT + 65536)
			return -EMSGSIZE;
		nb = realloc(c->buf, ncap);

		if (!nb)
			return -ENOMEM;
		c->buf = nb;
		c->cap = ncap;
	}
	for (;;) {
		if (lab_interrupted)
			return -EINTR;
		ms = (int)((deadline - now_s()) * 1000);
		if (ms <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, ms > 200 ? 200 : ms);	/* wake to notice signals */
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			break;
	}
	n = read(c->fd, c->buf + c->len, c->cap - c->len);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ECONNRESET;
	c->len += n;
	return 0;
}

int jchan_skip_to(struct jchan *c, unsigned char b, double deadline)
{
	int ret;

	for (;;) {
		char *p = memchr(c->buf, b, c->len);

		if (p) {
			size_t k = p - c->buf + 1;

			memmove(c->buf, c->buf + k, c->len - k);
			c->len -= k;
			json_tokener_reset(c->tok);
			c->fresh = 1;
			c->fed = 0;
			return 0;
		}
		c->len = 0;
		ret = fill(c, deadline);
		if (ret)
			return ret;
	}
}

/* Forget the partial object: the next byte starts a new one. */
static void reset(struct jchan *c)
{
	json_tokener_reset(c->tok);
	c->fresh = 1;
	c->fed = 0;
}

json_object *jchan_recv(struct jchan *c, double deadline)
{
	json_object *obj;
	int ret;

	for (;;) {
		while (c->len) {
			size_t used;
			enum json_tokener_error jerr;

			if (c->fresh) {
				size_t k = 0;

				while (k < c->len && strchr(" \t\r\n", c->buf[k]))
					k++;
				memmove(c->buf, c->buf + k, c->len - k);
				c->len -= k;
				if (!c->len)
					break;
			}
			obj = json_tokener_parse_ex(c->tok, c->buf, (int)c->len);
			jerr = json_tokener_get_error(c->tok);
			used = json_tokener_get_parse_end(c->tok);
			if (used > c->len)
				used = c->len;
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			c->fed += used;
			if (obj) {
				reset(c);
				return obj;
			}
			/* json-c keeps a partial object in its own buffer: cap it too */
			if (jerr == json_tokener_continue && c->fed > JCHAN_MAX_OBJECT) {
				reset(c);
				c->len = 0;
				errno = EMSGSIZE;
				return NULL;
			}
			if (jerr == json_tokener_continue) {
				c->fresh = 0;
				break;
			}
			/* not JSON, or a bare null (json-c's NULL with no error) */
			reset(c);
			c->len = 0;
			errno = EPROTO;
			return NULL;
		}
		ret = fill(c, deadline);
		if (ret) {
			errno = -ret;
			return NULL;
		}
	}
}


json_object *jchan_qemu_return(json_object *resp, int *failed, const char **text)
{
	json_object *v, *desc;

	if ((v = jget(resp, "return", json_type_object)))
		return json_object_get(v);
	*failed = !!(v = jget(resp, "error", json_type_object));
	desc = v ? jget(v, "desc", json_type_string) : NULL;
	*text = desc ? json_object_get_string(desc) : json_object_to_json_string(v ? v : resp);
	return NULL;
}
