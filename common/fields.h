/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Field lists: every dotted path a JSON writer can produce, kept beside the
 * writer (receiver/recv-json.fields, bpf/status-json.fields). The lab's
 * `check` lints scenarios against them; the writers' tests check their real
 * output against them, so a field added without its line fails a test.
 *
 * One field a line, `PATH TYPE`; `#` starts a comment. A PATH component is
 * a key, or N (an array index or a numeric key such as a sender id), * (any
 * key) or ERRNO (an errno name, common/errnames.h, or "other"). TYPE is
 * int, bool, double or string; a JSON null fits any type.
 */
#ifndef BPFWIRE_COMMON_FIELDS_H
#define BPFWIRE_COMMON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct fields;

/* NULL with "file:line: what is wrong" (or "file: why") in err. */
struct fields *fields_load(const char *path, char *err, size_t errlen);
void fields_free(struct fields *f);
/* The file it was read from, for messages. */
const char *fields_path(const struct fields *f);

/*
 * The TYPE of the field at path ("valid", "senders.0.counters.sent"), or
 * NULL. *inner is set when path is a proper prefix of fields (an object or
 * an array), which is no leaf.
 */
const char *fields_type(const struct fields *f, const char *path, bool *inner);

/*
 * The field nearest to path by edit distance (transpositions count one),
 * with N, * and ERRNO filled from path where they fit. false when nothing
 * is near enough to be a likely typo.
 */
bool fields_suggest(const struct fields *f, const char *path, char *out, size_t len);

/*
 * For the writers' tests: every scalar leaf of o must be a field of its
 * type (null fits any). bad(ctx, path, why) for each that is not; returns
 * how many were not, and the number of leaves in *leaves.
 */
int fields_check_json(const struct fields *f, struct json_object *o,
		      void (*bad)(void *ctx, const char *path, const char *why),
		      void *ctx, int *leaves);

#endif /* BPFWIRE_COMMON_FIELDS_H */
