/* SPDX-License-Identifier: GPL-2.0-only */
/* Macros vmlinux.h cannot carry (it has types and enums, not #defines). */
#ifndef BPFWIRE_BPF_DEFS_H
#define BPFWIRE_BPF_DEFS_H

#define AF_INET		2
#define AF_INET6	10

#define ENOENT		2
#define ENOMEM		12
#define EEXIST		17
#define EINVAL		22
#define ENAMETOOLONG	36
#define EOVERFLOW	75
#define EOPNOTSUPP	95
#define ENOTCONN	107
#define ENOKEY		126

#endif /* BPFWIRE_BPF_DEFS_H */
