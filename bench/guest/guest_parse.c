// SPDX-License-Identifier: GPL-2.0-only
/* Text parsers and statistics of bpfwire-bench-guest; see guest_parse.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "encode.h"
#include "guest_parse.h"

/* Start of the line that begins with key, or NULL. */
static const char *line_starting(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, n))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int bg_parse_pktgen(const char *text, struct bg_pktgen_result *r)
{
	const char *res, *p, *second;
	size_t n, len = 0;
	int used = 0;

	memset(r, 0, sizeof(*r));
	p = strstr(text, "pkts-sofar:");
	if (p && sscanf(p, "pkts-sofar: %" SCNu64 " errors: %" SCNu64,
			&r->cur_sofar, &r->cur_errors) == 2)
		r->have_cur = 1;

	res = line_starting(text, "Result: ");
	if (!res)
		return -1;
	res += strlen("Result: ");

	/* The text: the Result line, and the rate line that follows an OK. */
	n = strcspn(res, "\n");
	snprintf(r->line, sizeof(r->line), "%.*s", (int)n, res);
	if (strncmp(res, "OK: ", 4))
		return 0;

	if (sscanf(res, "OK: %" SCNu64 "(c%*u+d%*u) usec, %" SCNu64 " (%" SCNu64
		   "byte,%*dfrags)%n", &r->usec, &r->sofar, &r->pkt_size, &used) != 3 ||
	    !used)
		return -1;
	if (res[n] != '\n')
		return -1;
	second = res + n + 1;
	while (*second == ' ')
		second++;
	used = 0;
	if (sscanf(second, "%" SCNu64 "pps %*uMb/sec (%*ubps) errors: %" SCNu64 "%n",
		   &r->pps, &r->errors, &used) != 2 || !used)
		return -1;
	len = strlen(r->line);
	snprintf(r->line + len, sizeof(r->line) - len, " %.*s",
		 (int)strcspn(second, "\n"), second);
	r->ok = 1;
	return 0;
}

/* Split one whitespace-separated token off *p into tok; 0 when none is left. */
static int next_token(const char **p, char *tok, size_t len)
{
	const char *s = *p;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strcspn(s, " \t\n");
	if (!n)
		return 0;
	snprintf(tok, len, "%.*s", (int)(n < len ? n : len - 1), s);
	*p = s + n;
	return 1;
}

int bg_parse_snmp(const char *text, const char *proto, const char *name, int64_t *v)
{
	char key[32], tok[64];
	const char *names, *values;
	int col = -1, i;

	snprintf(key, sizeof(key), "%s: ", proto);
	names = line_starting(text, key);
	if (!names)
		return -1;
	values = strchr(names, '\n');
	if (!values || strncmp(++values, key, strlen(key)))
		return -1;
	names += strlen(key);
	values += strlen(key);
	for (i = 0; next_token(&names, tok, sizeof(tok)); i++) {
		if (!strcmp(tok, name)) {
			col = i;
			break;
		}
	}
	if (col < 0)
		return -1;
	for (i = 0; next_token(&values, tok, sizeof(tok)); i++) {
		if (i == col) {
			char *end;

			errno = 0;
			*v = strtoll(tok, &end, 10);
			return errno || *end ? -1 : 0;
		}
	}
	return -1;
}

int bg_parse_snmp6(const char *text, const char *name, int64_t *v)
{
	size_t n = strlen(name);
	const char *p = text;

	while ((p = line_starting(p, name))) {
		if (p[n] == ' ' || p[n] == '\t') {
			char *end;

			errno = 0;
			*v = strtoll(p + n, &end, 10);
			return errno || end == p + n || (*end && *end != '\n') ? -1 : 0;
		}
		p += n;
	}
	return -1;
}

/* The major of a tc handle: "8001:" and "8001:1" are 0x8001, ":1" and "0:" are 0. */
static long tc_major(const char *h)
{
	char *end;
	long v = strtol(h, &end, 16);

	return *end == ':' ? v : -1;
}

static int is_multiqueue(const char *kind)
{
	return !strcmp(kind, "mq") || !strcmp(kind, "mqprio") || !strcmp(kind, "taprio");
}

int bg_parse_tc_drops(const char *json, int64_t *drops)
{
	struct json_object *arr = json_tokener_parse(json), *q, *v;
	const char *mq_handle = NULL;
	size_t i, n;
	int64_t sum = 0;

	if (!arr || !json_object_is_type(arr, json_type_array)) {
		json_object_put(arr);
		return -1;
	}
	n = json_object_array_length(arr);
	/* A multiqueue root already sums its per-queue children. */
	for (i = 0; i < n; i++) {
		q = json_object_array_get_idx(arr, i);
		if (json_object_object_get_ex(q, "root", &v) && json_object_get_boolean(v) &&
		    json_object_object_get_ex(q, "kind", &v) &&
		    is_multiqueue(json_object_get_string(v)) &&
		    json_object_object_get_ex(q, "handle", &v))
			mq_handle = json_object_get_string(v);
	}
	for (i = 0; i < n; i++) {
		q = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(q, json_type_object))
			goto bad;
		/* parent "8001:1" is a queue of root "8001:", ":1" one of "0:" */
		if (mq_handle && json_object_object_get_ex(q, "parent", &v) &&
		    tc_major(json_object_get_string(v)) == tc_major(mq_handle))
			continue;
		if (!json_object_object_get_ex(q, "drops", &v) ||
		    !json_object_is_type(v, json_type_int))
			goto bad;
		sum += json_object_get_int64(v);
	}
	json_object_put(arr);
	*drops = sum;
	return 0;
bad:
	json_object_put(arr);
	return -1;
}

uint64_t bg_percentile(const uint64_t *sorted, size_t n, double p)
{
	/* p * n first: 99 * 100 / 100 is exactly 99, 0.99 * 100 is not. */
	double r = ceil(p * (double)n / 100.0);
	size_t rank = r < 1 ? 1 : (size_t)r;

	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void bg_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

int bg_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

static size_t seen_hash(uint32_t id, uint64_t seq, size_t mask)
{
	uint64_t h = seq * 0x9e3779b97f4a7c15ull ^ (uint64_t)id * 0xc2b2ae3d27d4eb4full;

	return (h ^ h >> 29) & mask;
}

static int seen_insert(struct bg_seen *s, uint32_t id, uint64_t seq)
{
	size_t mask = s->cap - 1, i = seen_hash(id, seq, mask);

	for (;; i = (i + 1) & mask) {
		struct bg_seen_slot *e = &s->slot[i];

		if (!e->used) {
			e->used = 1;
			e->sender_id = id;
			e->seq = seq;
			s->n++;
			return 1;
		}
		if (e->sender_id == id && e->seq == seq)
			return 0;
	}
}

int bg_seen_add(struct bg_seen *s, uint32_t sender_id, uint64_t seq)
{
	if ((s->n + 1) * 2 > s->cap) {
		struct bg_seen old = *s;
		size_t i;

		s->cap = old.cap ? old.cap * 2 : 1024;
		s->slot = calloc(s->cap, sizeof(*s->slot));
		if (!s->slot) {
			*s = old;
			return -1;
		}
		s->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.slot[i].used)
				seen_insert(s, old.slot[i].sender_id, old.slot[i].seq);
		free(old.slot);
	}
	return seen_insert(s, sender_id, seq);
}

void bg_seen_free(struct bg_seen *s)
{
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

int bg_build_test_datagram(uint8_t *buf, uint32_t len, uint32_t sender_id,
			   uint64_t seq, uint64_t ts)
{
	uint32_t i;

	if (len < BPFWIRE_HDR_LEN || len > BPFWIRE_MAX_DATAGRAM)
		return -1;
	bpfwire_put_hdr(buf, BPFWIRE_EV_TEST, sender_id, len - BPFWIRE_HDR_LEN, seq, ts);
	for (i = BPFWIRE_HDR_LEN; i < len; i++)
		buf[i] = (uint8_t)i;
	/* encode.h's loop stops at BPFWIRE_DGRAM_MAX_V2; past it, the same FNV-1a. */
	if (len <= BPFWIRE_DGRAM_MAX_V2)
		bpfwire_seal(buf, len);
	else
		bpfwire_put32(buf + 32, bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, buf, len));
	return 0;
}

void bg_settle_init(struct bg_settle *s, uint64_t window_ns)
{
	memset(s, 0, sizeof(*s));
	s->window_ns = window_ns;
}

int bg_settle_feed(struct bg_settle *s, uint64_t t_ns, uint64_t value)
{
	if (!s->started) {
		s->started = 1;
		s->first = s->value = value;
		s->since_ns = t_ns;
		return 0;
	}
	if (value != s->value) {
		s->value = value;
		s->last_change_ns = s->since_ns = t_ns;
		return 0;
	}
	return t_ns - s->since_ns >= s->window_ns;
}
