// SPDX-License-Identifier: GPL-2.0-only
/* TAP: jsonget.h's typed members: the type checked, def for absent or mistyped, ints in range. */
#include <stdint.h>
#include <string.h>

#include "jsonget.h"
#include "tap.h"

static const char doc[] =
	"{ \"s\": \"text\", \"n\": 12, \"d\": 1.5, \"b\": true, \"a\": [1], \"o\": {}, \"z\": null,"
	"  \"num_str\": \"12\", \"big\": 4294967296, \"small\": -2147483649, \"max\": 2147483647 }";

static void test_types(json_object *j)
{
	ASSERT_STREQ(jget_str(j, "s", "def"), "text", "a string");
	ASSERT_EQ(jget_int(j, "n", -1), 12, "an int");
	ASSERT_EQ(jget_int64(j, "n", -1), 12, "an int as int64");
	ASSERT_TRUE(jget_num(j, "d", -1) == 1.5, "a double");
	ASSERT_TRUE(jget_num(j, "n", -1) == 12, "an int as a number");
	ASSERT_TRUE(jget_bool(j, "b", false), "a bool");
	ASSERT_TRUE(jget(j, "a", json_type_array) != NULL, "an array");
	ASSERT_TRUE(jget(j, "o", json_type_object) != NULL, "an object");
}

static void test_wrong_type(json_object *j)
{
	/* json-c itself would give 12, "12", 1 and true for these */
	ASSERT_EQ(jget_int(j, "num_str", -1), -1, "a string is no int");
	ASSERT_EQ(jget_int64(j, "d", -1), -1, "a double is no int64");
	ASSERT_STREQ(jget_str(j, "n", "def"), "def", "an int is no string");
	ASSERT_TRUE(jget_num(j, "b", -1) == -1, "a bool is no number");
	ASSERT_TRUE(jget_num(j, "s", -1) == -1, "a string is no number");
	ASSERT_TRUE(jget_bool(j, "n", false) == false, "an int is no bool");
	ASSERT_TRUE(jget(j, "o", json_type_array) == NULL, "an object is no array");
	ASSERT_STREQ(jget_str(j, "z", "def"), "def", "null is no string");
	ASSERT_STREQ(jget_str(NULL, "s", "def"), "def", "no object");
	ASSERT_STREQ(jget_str(jget(j, "a", json_type_array), "s", "def"), "def", "an array is no object");
}

static void test_missing(json_object *j)
{
	ASSERT_STREQ(jget_str(j, "nope", "def"), "def", "a missing string: def");
	ASSERT_TRUE(jget_str(j, "nope", NULL) == NULL, "a missing string: NULL def");
	ASSERT_EQ(jget_int(j, "nope", 7), 7, "a missing int: def");
	ASSERT_EQ(jget_int64(j, "nope", -3), -3, "a missing int64: def");
	ASSERT_TRUE(jget_num(j, "nope", -1) == -1, "a missing number: def");
	ASSERT_TRUE(jget_bool(j, "nope", true), "a missing bool: def");
	ASSERT_TRUE(jget(j, "nope", json_type_object) == NULL, "a missing object: NULL");
}

static void test_range(json_object *j)
{
	ASSERT_EQ(jget_int(j, "big", -1), -1, "2^32 does not fit an int: def");
	ASSERT_EQ(jget_int(j, "small", -1), -1, "INT_MIN - 1 does not fit an int: def");
	ASSERT_EQ(jget_int(j, "max", -1), 2147483647, "INT_MAX fits");
	ASSERT_EQ(jget_int64(j, "big", -1), 4294967296LL, "2^32 fits an int64");
}

static void test_typed(json_object *j)
{
	json_object *v = (json_object *)1;
	char err[128] = "";

	ASSERT_EQ(jget_typed(j, "b", json_type_boolean, &v, err, sizeof(err)), 1, "typed: right type");
	ASSERT_TRUE(v && json_object_get_boolean(v), "typed: the member");
	ASSERT_EQ(jget_typed(j, "nope", json_type_boolean, &v, err, sizeof(err)), 0, "typed: absent is no error");
	ASSERT_TRUE(v == NULL, "typed: absent, NULL");
	ASSERT_STREQ(err, "", "typed: absent, no message");
	ASSERT_EQ(jget_typed(j, "s", json_type_int, &v, err, sizeof(err)), -1, "typed: wrong type");
	ASSERT_TRUE(v == NULL, "typed: wrong type, NULL");
	ASSERT_STREQ(err, "s is string, not int", "typed: what is wrong");
}

int main(void)
{
	json_object *j = json_tokener_parse(doc);

	if (!ASSERT_TRUE(j != NULL, "the document parses"))
		return tap_done();
	test_types(j);
	test_wrong_type(j);
	test_missing(j);
	test_range(j);
	test_typed(j);
	json_object_put(j);
	return tap_done();
}
