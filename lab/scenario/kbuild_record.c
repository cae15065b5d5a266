// SPDX-License-Identifier: GPL-2.0-only
#include "kbuild_record.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "file.h"

struct json_object *kbuild_record_load(const char *bzimage, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *slash = strrchr(bzimage, '/');
	struct json_tokener *tok;
	json_object *o;
	size_t len = 0;
	char *text;

	err[0] = '\0';
	if (slash)
		snprintf(path, sizeof(path), "%.*s/series.json", (int)(slash - bzimage), bzimage);
	else
		snprintf(path, sizeof(path), "series.json");
	text = read_file_max(path, &len, KBUILD_RECORD_MAX);
	if (!text) {
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: over %u MiB, not read", path, KBUILD_RECORD_MAX >> 20);
		else if (errno != ENOENT)
			snprintf(err, errlen, "%s: %s", path, errno_str(errno));
		return NULL;
	}
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    (size_t)json_tokener_get_parse_end(tok) != len) {
		/* Trailing whitespace after the object is fine. */
		size_t end = (size_t)json_tokener_get_parse_end(tok);

		if (!o || strspn(text + end, " \t\r\n") != len - end) {
			enum json_tokener_error je = json_tokener_get_error(tok);

			snprintf(err, errlen, "%s: not JSON (%s at byte %zu)", path,
				 o ? "text after the object" :
				 je == json_tokener_continue ? "it ends before the JSON does" :
				 json_tokener_error_desc(je), end);
			json_object_put(o);
			o = NULL;
		}
	}
	if (o && !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "%s: a JSON %s, not an object", path,
			 json_type_to_name(json_object_get_type(o)));
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	free(text);
	return o;
}
