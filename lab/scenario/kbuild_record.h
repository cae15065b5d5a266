/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What went into a lab kernel: build/kernel/series.json, written by
 * kernel/build.sh beside the bzImage (flavour, release, base, patches,
 * mbox sha256, netpoll, config fragments). The runner copies it
 * into every run's summary.json as "series".
 */
#ifndef BPFWIRE_LAB_KBUILD_RECORD_H
#define BPFWIRE_LAB_KBUILD_RECORD_H

#include <stddef.h>

struct json_object;

/* A record over this is refused: a series of thousands of patches fits. */
#define KBUILD_RECORD_MAX (4u << 20)

/*
 * The series.json beside bzimage, parsed; NULL when there is none (err
 * empty: an older build.sh's kernel, or one built by hand) or when it cannot be
 * used (err says why: unreadable, over KBUILD_RECORD_MAX, not a JSON
 * object).
 */
struct json_object *kbuild_record_load(const char *bzimage, char *err, size_t errlen);

#endif
