/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errno names for every message, including the kernel-only codes that
 * kfuncs return and libc does not know (ENOTSUPP 524 and others).
 * Each takes e or -e.
 */
#ifndef BPFWIRE_COMMON_ERRNAMES_H
#define BPFWIRE_COMMON_ERRNAMES_H

/* "EPERM", "ENOTSUPP", or "E4000" for an unknown code. */
const char *errno_name(int e);
/* "Operation not permitted" */
const char *errno_text(int e);
/* "Operation not permitted (EPERM, -1)"; four rotating buffers per thread. */
const char *errno_str(int e);

#endif /* BPFWIRE_COMMON_ERRNAMES_H */
