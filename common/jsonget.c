// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdio.h>

#include "jsonget.h"

json_object *jget(json_object *o, const char *key, json_type t)
{
	json_object *v;

	/* false for a NULL o or one that is no object, too */
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

const char *jget_str(json_object *o, const char *key, const char *def)
{
	json_object *v = jget(o, key, json_type_string);

	return v ? json_object_get_string(v) : def;
}

bool jget_bool(json_object *o, const char *key, bool def)
{
	json_object *v = jget(o, key, json_type_boolean);

	return v ? json_object_get_boolean(v) : def;
}

int64_t jget_int64(json_object *o, const char *key, int64_t def)
{
	json_object *v = jget(o, key, json_type_int);

	return v ? json_object_get_int64(v) : def;
}

int jget_int(json_object *o, const char *key, int def)
{
	json_object *v = jget(o, key, json_type_int);
	int64_t n;

	if (!v)
		return def;
	/* json_object_get_int would clamp to INT_MIN or INT_MAX */
	n = json_object_get_int64(v);
	return n < INT_MIN || n > INT_MAX ? def : (int)n;
}

double jget_num(json_object *o, const char *key, double def)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_double(v);
}

int jget_typed(json_object *o, const char *key, json_type t, json_object **v,
	       char *err, size_t errlen)
{
	*v = NULL;
	if (!json_object_object_get_ex(o, key, v)) {
		*v = NULL;
		return 0;
	}
	if (json_object_is_type(*v, t))
		return 1;
	snprintf(err, errlen, "%s is %s, not %s", key,
		 json_type_to_name(json_object_get_type(*v)), json_type_to_name(t));
	*v = NULL;
	return -1;
}
