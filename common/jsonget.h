/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Typed members of a JSON object (json-c), the one way every folder reads
 * them. A member of another type than asked for counts as absent: json-c's
 * own getters would convert it ("12" to 12, 3 to "3"), and the files read
 * here are partly written by guests. o may be NULL or no object.
 *
 * The jget_* getters give def when the member is absent or mistyped;
 * jget_typed tells the two apart, for a protocol where a wrong type is an
 * error and an absent member is not.
 */
#ifndef BPFWIRE_COMMON_JSONGET_H
#define BPFWIRE_COMMON_JSONGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* o.key when it is of type t, else NULL. */
json_object *jget(json_object *o, const char *key, json_type t);

/* o.key as a string, boolean, 64-bit integer; def when absent or of another type. */
const char *jget_str(json_object *o, const char *key, const char *def);
bool jget_bool(json_object *o, const char *key, bool def);
int64_t jget_int64(json_object *o, const char *key, int64_t def);
/* An integer that fits an int; def also when it does not. */
int jget_int(json_object *o, const char *key, int def);
/* An integer or a double, as a double. */
double jget_num(json_object *o, const char *key, double def);

/*
 * o.key checked against t: 1 with *v set when it has that type, 0 with *v
 * NULL when absent, -1 with *v NULL and "KEY is TYPE, not TYPE" in err
 * when it has another.
 */
int jget_typed(json_object *o, const char *key, json_type t, json_object **v,
	       char *err, size_t errlen);

#endif /* BPFWIRE_COMMON_JSONGET_H */
