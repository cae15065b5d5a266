// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_record_load: series.json beside a bzImage. A good one
 * is read whole; none is no record and no error; a malformed, non-object
 * or oversized one is an error naming the file, never a crash.
 */
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "scenario/kbuild_record.h"
#include "tap.h"

static char dir[] = "/tmp/bpfwire-kbuild-record-XXXXXX";
static char bz[PATH_MAX], rec[PATH_MAX];

static json_object *load(const char *text, char *err, size_t errlen)
{
	unlink(rec);
	if (text && write_file(rec, text))
		return NULL;
	return kbuild_record_load(bz, err, errlen);
}

int main(void)
{
	char err[512], *big;
	json_object *o, *v;

	if (!mkdtemp(dir))
		return tap_skip_all("mkdtemp failed");
	snprintf(bz, sizeof(bz), "%s/bzImage", dir);
	snprintf(rec, sizeof(rec), "%s/series.json", dir);

	o = load("{\"flavour\":\"review\",\"patches\":[{\"subject\":\"a \\\"b\\\" \\u001b\"}]}\n",
		 err, sizeof(err));
	ASSERT_OK_PTR(o, "a good series.json is read");
	ASSERT_STREQ(err, "", "with no error");
	ASSERT_TRUE(o && json_object_object_get_ex(o, "flavour", &v) &&
		    !strcmp(json_object_get_string(v), "review"), "its flavour is kept");
	json_object_put(o);

	o = load(NULL, err, sizeof(err));
	ASSERT_TRUE(!o && !err[0], "no series.json: no record, no error");

	o = load("{\"flavour\": \"review\", ", err, sizeof(err));
	ASSERT_TRUE(!o, "a cut-short series.json is no record");
	ASSERT_HAS(err, "series.json: not JSON", "it is an error naming the file");

	o = load("{} trailing", err, sizeof(err));
	ASSERT_TRUE(!o, "text after the object is refused");
	ASSERT_HAS(err, "text after the object", "and said so");

	o = load("[1, 2]", err, sizeof(err));
	ASSERT_TRUE(!o, "an array is no record");
	ASSERT_HAS(err, "a JSON array, not an object", "and said so");

	big = malloc(KBUILD_RECORD_MAX + 16);
	memset(big, ' ', KBUILD_RECORD_MAX + 15);
	big[0] = '{';
	big[KBUILD_RECORD_MAX + 14] = '}';
	big[KBUILD_RECORD_MAX + 15] = '\0';
	o = load(big, err, sizeof(err));
	free(big);
	ASSERT_TRUE(!o, "a series.json over the cap is not read");
	ASSERT_HAS(err, "not read", "and said so");

	unlink(rec);
	rmdir(dir);
	return tap_done();
}
