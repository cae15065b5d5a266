/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hunks of a series, each known by what it changes, much as git
 * patch-id knows a patch: the file, and the hunk's lines without their
 * trailing whitespace and without the line numbers of its "@@" line
 * (stricter than patch-id, which drops every space: a series must not
 * pass other code for a hunk the baseline has). Two kernels that carry
 * the same hunk cannot differ by it, so a review reaches tests from the
 * hunks its kernel and its baseline's do not share (reach.c): a v8 whose
 * one patch changed reaches what that patch's changed hunks touch. A file
 * section with no hunk (a rename, a mode change, a binary) is one hunk.
 */
#ifndef BPFWIRE_REVIEW_HUNKS_H
#define BPFWIRE_REVIEW_HUNKS_H

#include <stddef.h>

#define HK_ID_LEN 64	/* SHA-256, hex */

struct hk_set {
	char (*ids)[HK_ID_LEN + 1];
	size_t n, cap;
};

/* Adds the identity of each hunk of text[0..len) to set. 0 or -ENOMEM. */
int hk_collect(const char *text, size_t len, struct hk_set *set);
/*
 * text without the hunks drop holds (and without a file section's
 * headers when none of its hunks is left); every line outside a diff
 * (headers, messages) is kept. *out is malloc'd; kept and dropped count
 * hunks. 0 or -ENOMEM.
 */
int hk_filter(const char *text, size_t len, const struct hk_set *drop, char **out, size_t *outlen,
	      size_t *kept, size_t *dropped);
void hk_set_free(struct hk_set *set);

#endif
