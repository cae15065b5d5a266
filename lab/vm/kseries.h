/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel series: which ksock API a lab kernel carries, told by its release
 * (6.12.118-bpfwire: seed; -bpfwire-seed: seed without bpfwire's fixes;
 * -bpfwire-up: upstream, the API Linux merged). A scenario's `series`
 * statement lists the ones it applies to; the runner checks before boot.
 */
#ifndef BPFWIRE_LAB_KSERIES_H
#define BPFWIRE_LAB_KSERIES_H

#include <stdbool.h>
#include <stddef.h>

enum kseries {
	KSERIES_SEED		= 1u << 0,
	KSERIES_UPSTREAM	= 1u << 1,
};
#define KSERIES_ALL	(KSERIES_SEED | KSERIES_UPSTREAM)

/* "seed"/"upstream" -> KSERIES_*, else 0. */
unsigned kseries_parse(const char *name);
const char *kseries_name(unsigned series);
/*
 * The release a bzImage carries (its setup header's kernel_version
 * string, first word): 0, or -errno / -EINVAL with a message in err.
 * A word that is no release (kseries_release_ok) is "invalid (N bytes)":
 * the bzImage is the series', and its bytes never reach a terminal.
 */
int kseries_bzimage_release(const char *path, char *rel, size_t len, char *err, size_t errlen);
/* A Linux release (UTS_RELEASE): 1 to __NEW_UTS_LEN of A-Z a-z 0-9 . - + _ */
#define KSERIES_RELEASE_MAX 64
bool kseries_release_ok(const char *rel, size_t n);
/*
 * The kfunc API of the kernel whose bzImage is at path, from the build's
 * files beside it (kapi/): DIR/api.json, else DIR/vmlinux's BTF. 1 with
 * from naming the file read; 0 when neither is there; -1 with a one-line
 * reason in err when one is there but unreadable.
 */
int kseries_kernel_api(const char *bzimage, int *ksock, int *netpoll, char *from, size_t fromlen,
		       char *err, size_t errlen);
/* The series of a release; 0 when it is not a bpfwire kernel. */
unsigned kseries_of_release(const char *rel);
/*
 * The boot deadline for a kernel of release rel: timeout_s, but at least
 * KSERIES_KASAN_BOOT_S for a KASAN kernel (-Dkernel_sanitizers=kasan, its
 * release "...-kasan-bpfwire..."), whose guest reaches init at ~81 s
 * under TCG instead of ~7 s.
 */
#define KSERIES_KASAN_BOOT_S 300
int kseries_boot_timeout(const char *rel, int timeout_s);
/*
 * The bzImage of a series: this build's kernel when it is that series,
 * else the sibling build dir's (seed: SOURCE/build, upstream:
 * SOURCE/build-up). Into path; the file may not exist.
 */
void kseries_kernel(unsigned series, char *path, size_t len);

#endif
