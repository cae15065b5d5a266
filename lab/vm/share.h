/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest's share (share.c): RUN/hosts/NAME, the one dir a guest writes,
 * and the only safe way for the host to write into it.
 */
#ifndef BPFWIRE_LAB_VM_SHARE_H
#define BPFWIRE_LAB_VM_SHARE_H

#include <stdio.h>

/*
 * DIR as a tmpfs of bytes (and an inode per 16 KiB) mounted on it, owned by
 * LAB_QEMU_UID: a guest that fills it gets ENOSPC. A stale one of a crashed
 * run is dropped first. -EOPNOTSUPP: this kernel's tmpfs has no user xattrs
 * (before Linux 6.6), which QEMU's mapped-xattr needs. 0 or -errno.
 */
#define LAB_SHARE_DEFAULT_MIB 128u
int share_mount(const char *dir, unsigned long long bytes);
/*
 * After the guest's QEMU ended: DIR's tmpfs detached and its files and
 * dirs copied into the directory it covered. 0 also when DIR is no such
 * mount (never mounted, or already done); else -errno.
 */
int share_unmount(const char *dir);
/*
 * FILE (relative) in a guest's share DIR, created anew for the host to write:
 * no component may be a link, an old FILE is unlinked first and the new one
 * made with O_EXCL, so nothing the guest left there is followed. fd or -errno.
 */
int share_create(const char *dir, const char *file);
/* The same as a FILE; NULL with errno set. */
FILE *share_fopen(const char *dir, const char *file);

#endif
